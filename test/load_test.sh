#!/usr/bin/env bash
# Incremental and idempotent loads under concurrency (docs/loading.md, load_new_lines):
#   - two psql sessions \copy the same real PBS file and load it at once, the first holding its
#     transaction open: the second waits for it, then gets no line; the jobs table has each
#     record once and fairsched.load_log the file's line count;
#   - 8 pgbench clients for LOAD_SECONDS (default 6) each copy a random prefix of a growing file
#     (the lines of the first k) and keep what load_new_lines gives them: no transaction fails,
#     every line up to the longest prefix loaded is given exactly once, in one client's
#     committed transaction, and the load log says as many lines;
#   - the check itself fails on a duplicate (a line given twice is caught).
# `make test` runs it on its cluster; on its own it installs the build and starts one.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
fs_standalone_setup

LOAD_SECONDS=${LOAD_SECONDS:-6}
work=$(mktemp -d /tmp/fairsched-load.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"; fs_cluster_stop' EXIT
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
DB=fs_load
FILE=sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt

make_db() {
    "$PG_BIN/dropdb" --if-exists "$DB"
    "$PG_BIN/createdb" "$DB"
    psql_ -d "$DB" -c "CREATE EXTENSION fairsched" -c "
        CREATE TABLE pbs_records (source text, server text, job_seq bigint, array_index int,
            record_type text, log_time timestamp, ctime timestamptz, \"end\" timestamptz,
            lineno bigint NOT NULL,
            UNIQUE NULLS NOT DISTINCT (source, server, job_seq, array_index, record_type, log_time, ctime, \"end\"));
        CREATE TABLE given (client int, lineno bigint, line text);
        CREATE TABLE src (n bigserial, line text);"
}

# one load as the docs write it: copy, the new lines, parse, upsert; $1 seconds held open after
load_sql() {
    cat <<SQL
BEGIN;
CREATE TEMP TABLE staging (n bigserial, line text) ON COMMIT DROP;
\\copy staging(line) FROM '$FILE' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TEMP TABLE got ON COMMIT DROP AS
SELECT l.lineno, l.line FROM fairsched.load_new_lines('pbs:ml-hpc', '20230306', 'staging') l;
INSERT INTO pbs_records
SELECT 'pbs:ml-hpc', p.server, p.job_seq, p.array_index, p.record_type, p.log_time, p.ctime, p."end", g.lineno
FROM got g, fairsched.pbs_acct_try(g.line) p WHERE p.error IS NULL
ON CONFLICT DO NOTHING;
SELECT pg_sleep($1);
SELECT 'given ' || count(*) FROM got;
COMMIT;
SQL
}

two_sessions() {
    local lines t0 t1
    make_db
    lines=$(grep -c '' "$FILE")
    load_sql 3 | psql_ -d "$DB" -A -t >"$work/a.out" &
    local a=$!
    sleep 1
    t0=$(date +%s.%N)
    load_sql 0 | psql_ -d "$DB" -A -t >"$work/b.out"
    t1=$(date +%s.%N)
    wait $a
    echo "first: $(grep given "$work/a.out"), second: $(grep given "$work/b.out") after waiting $(echo "$t1 - $t0" | bc) s"
    grep -qx "given $lines" "$work/a.out"
    grep -qx "given 0" "$work/b.out"
    # the second waited for the first's commit (it started 1 s into a 3 s transaction)
    [ "$(echo "$t1 - $t0 > 1.5" | bc)" = 1 ]
    psql_ -d "$DB" -A -t -c "
        SELECT 'records ' || count(*) || ', distinct lines ' || count(DISTINCT lineno) FROM pbs_records;
        SELECT 'log ' || lines || ' lines, ' || loads || ' load' FROM fairsched.load_log;" | tee "$work/c.out"
    grep -qx "log $lines lines, 1 load" "$work/c.out"
    # a reload later changes nothing
    local before after
    before=$(psql_ -d "$DB" -A -t -c "SELECT count(*) FROM pbs_records")
    load_sql 0 | psql_ -d "$DB" -A -t | grep -qx "given 0"
    after=$(psql_ -d "$DB" -A -t -c "SELECT count(*) FROM pbs_records")
    echo "records before a reload $before, after $after"
    [ "$before" = "$after" ] && [ "$before" -gt 50 ]
}

# the audit of the pgbench race: every line 1..log's count given exactly once, by committed work
race_audit() {
    psql_ -d "$DB" -A -t -c "
        SELECT CASE WHEN count(*) = count(DISTINCT g.lineno)
                     AND count(*) = (SELECT lines FROM fairsched.load_log WHERE source = 'race')
                     AND min(g.lineno) = 1 AND max(g.lineno) = count(*)
                     AND bool_and(g.line IS NOT DISTINCT FROM s.line)
                    THEN 'exact: ' || count(*) || ' lines given once each, by ' || count(DISTINCT client) || ' clients'
                    ELSE 'WRONG: ' || count(*) || ' given, ' || count(DISTINCT g.lineno) || ' distinct' END
        FROM given g JOIN src s ON s.n = g.lineno" | tee "$work/audit.out"
    grep -q '^exact' "$work/audit.out"
}

race() {
    make_db
    psql_ -d "$DB" -c "\\copy src(line) FROM '$FILE' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')" \
        -c "INSERT INTO src(line) SELECT line FROM src ORDER BY n" \
        -c "INSERT INTO src(line) SELECT line || ' x=' || n FROM src ORDER BY n"
    cat >"$work/load.sql" <<'SQL'
\set k random(1, 248)
BEGIN;
CREATE TEMP TABLE IF NOT EXISTS staging (n bigserial, line text);
TRUNCATE staging RESTART IDENTITY;
INSERT INTO staging(line) SELECT line FROM src WHERE n <= :k ORDER BY n;
INSERT INTO given SELECT :client_id, l.lineno, l.line FROM fairsched.load_new_lines('race', 'today', 'staging') l;
COMMIT;
SQL
    "$PG_BIN/pgbench" -n -d "$DB" -c 8 -j 2 -T "$LOAD_SECONDS" -f "$work/load.sql" >"$work/race.out" 2>&1 \
        || { tail -n 20 "$work/race.out"; return 1; }
    grep -E 'number of (transactions actually processed|failed transactions)' "$work/race.out"
    grep -q 'number of failed transactions: 0 ' "$work/race.out" && ! grep -qi 'aborted\|error' "$work/race.out"
    race_audit
    # the audit catches a line given twice
    psql_ -d "$DB" -c "INSERT INTO given SELECT client, lineno, line FROM given LIMIT 1"
    if race_audit >/dev/null; then
        echo "the audit missed a line given twice"
        return 1
    fi
}

fs_check load_two_sessions two_sessions
fs_check load_race race
fs_tally
