#!/usr/bin/env bash
# Live scheduler state under concurrency (docs/live-state.md), with pgbench:
#   - 8 writers charge 100 associations (one statement: a charge_log row and
#     `u = u + decayed_usage(amount, now(), half_life(u))`) while 2 readers compute fairshare of
#     the live tree with value(u, now()), for LIVE_SECONDS (default 12); no transaction may fail;
#     then every client's acknowledged charges are in the log, exactly, each association's
#     stored count and total equal the log's, and its stored decayed usage equals decayed_sum
#     over its log rows, whatever the commit order;
#   - the same writers on a cluster of its own, killed with `pg_ctl stop -m immediate` in the
#     middle and restarted: every acknowledged charge is there, at most the one in flight per
#     client besides (committed, its answer lost), the stored state still equals the log, and
#     charging goes on after the restart.
# `make test` runs it on its cluster; on its own it installs the build and starts one.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
fs_standalone_setup

LIVE_SECONDS=${LIVE_SECONDS:-12}
work=$(mktemp -d /tmp/fairsched-live.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"; fs_cluster_stop' EXIT
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
DB=fs_live

# the tables of docs/live-state.md, with a count and a plain total per association to audit
setup_sql="
CREATE EXTENSION fairsched;
CREATE TABLE assoc (path fairsched.sharepath PRIMARY KEY, shares float8 NOT NULL);
CREATE TABLE usage (path fairsched.sharepath PRIMARY KEY REFERENCES assoc,
                    u fairsched.decayed_usage NOT NULL, charges bigint NOT NULL DEFAULT 0,
                    total numeric NOT NULL DEFAULT 0);
CREATE TABLE charge_log (id bigserial PRIMARY KEY, client int NOT NULL,
                         path fairsched.sharepath NOT NULL, amount float8 NOT NULL,
                         at timestamptz NOT NULL);
INSERT INTO assoc SELECT ('g' || g)::fairsched.sharepath, 1 + g FROM generate_series(0, 9) AS g;
INSERT INTO assoc SELECT ('g' || (a % 10) || '.u' || a)::fairsched.sharepath, 1 + a % 3
FROM generate_series(1, 100) AS a;
INSERT INTO usage (path, u)
SELECT path, fairsched.decayed_usage(0, now(), '7 days') FROM assoc WHERE fairsched.nlevel(path) = 2;"

cat >"$work/charge.sql" <<'EOF'
\set a random(1, 100)
\set c random(1, 1000)
WITH l AS (INSERT INTO charge_log (client, path, amount, at)
           VALUES (:client_id, ('g' || (:a % 10) || '.u' || :a)::sharepath, :c / 8.0, now())
           RETURNING path, amount, at)
UPDATE usage SET u = u + decayed_usage(l.amount, l.at, half_life(u)),
                 charges = charges + 1, total = total + l.amount::numeric
FROM l WHERE usage.path = l.path;
EOF
cat >"$work/fairshare.sql" <<'EOF'
SELECT count(*), sum(f.fairshare)
FROM fairshare((SELECT share_tree(a.path, a.shares, coalesce(value(u.u, now()), 0))
                FROM assoc AS a LEFT JOIN usage AS u USING (path))) AS f
WHERE f.is_leaf;
EOF

make_db() {
    "$PG_BIN/dropdb" --if-exists "$DB"
    "$PG_BIN/createdb" "$DB"
    psql_ -d "$DB" -c "ALTER DATABASE $DB SET search_path = public, fairsched"
    psql_ -d "$DB" -c "$setup_sql"
}

# acknowledged transactions per client, from pgbench's per-transaction log (column 1: client)
acked() { cat "$1".* 2>/dev/null | awk '{n[$1]++} END {for (c in n) print c, n[c]}' | sort -n; }

# The stored state against the log: per-association counts and totals exactly, the decayed usage
# to 1e-12 relative; and per client, the log's charges against the acknowledged ones
# (exact, or up to `slack` more: charges committed whose answer was lost). Prints what is wrong.
audit() {
    local ack=$1 slack=$2
    psql_ -d "$DB" -c "CREATE TEMP TABLE acked (client int, n bigint)" \
        -c "\\copy acked FROM '$ack' WITH (DELIMITER ' ')" -A -t -c "
        WITH logged AS (
            SELECT path, count(*) AS n, sum(amount::numeric) AS total,
                   decayed_sum(amount, at, '7 days') AS d FROM charge_log GROUP BY path),
        t AS (SELECT max(at) + interval '1 hour' AS t FROM charge_log),
        bad_paths AS (
            SELECT u.path, u.charges, l.n, u.total, l.total AS log_total,
                   value(u.u, t.t) AS stored, value(l.d, t.t) AS from_log
            FROM usage AS u FULL JOIN logged AS l USING (path), t
            WHERE coalesce(l.n, 0) <> u.charges OR coalesce(l.total, 0) <> u.total
               OR abs(value(u.u, t.t) - coalesce(value(l.d, t.t), 0))
                  > 1e-12 * greatest(abs(value(u.u, t.t)), 1)),
        per_client AS (
            SELECT client, coalesce(a.n, 0) AS acked, coalesce(c.n, 0) AS logged
            FROM acked AS a FULL JOIN (SELECT client, count(*) AS n FROM charge_log GROUP BY client)
                 AS c USING (client)),
        bad_clients AS (
            SELECT * FROM per_client WHERE logged < acked OR logged > acked + $slack)
        SELECT 'association ' || b::text FROM bad_paths AS b
        UNION ALL SELECT 'client ' || c::text FROM bad_clients AS c
        UNION ALL SELECT 'no charges' WHERE NOT EXISTS (SELECT FROM charge_log)
        UNION ALL SELECT 'summary ' || (SELECT count(*) FROM charge_log) || ' charges, '
                         || (SELECT sum(acked) FROM per_client) || ' acknowledged, '
                         || (SELECT count(*) FROM per_client WHERE logged > acked)
                         || ' in flight at the end'" | tee "$work/audit.out"
    ! grep -qv '^summary' "$work/audit.out"
}

# `set -e` does not stop on a failing `! command`: say it
audit_fails() {
    if audit "$1" 0 >/dev/null; then
        echo "the audit missed a wrong charge"
        return 1
    fi
}

# pgbench's outcome: exit 0 and "number of failed transactions: 0"
pgbench_clean() {
    grep -H -E 'number of (transactions actually processed|failed transactions)' "$@"
    grep -q 'number of failed transactions: 0 ' "$1" && ! grep -qi 'aborted\|error' "$1"
}

concurrent() {
    local rc_w=0 rc_r=0
    make_db
    "$PG_BIN/pgbench" -n -d "$DB" -c 8 -j 2 -T "$LIVE_SECONDS" -f "$work/charge.sql" \
        -l --log-prefix="$work/w" >"$work/writers.out" 2>&1 &
    local w=$!
    "$PG_BIN/pgbench" -n -d "$DB" -c 2 -j 1 -T "$LIVE_SECONDS" -f "$work/fairshare.sql" \
        -r >"$work/readers.out" 2>&1 &
    local r=$!
    wait $w || rc_w=$?
    wait $r || rc_r=$?
    echo "writers exit $rc_w, readers exit $rc_r"
    grep -E '^tps|latency average' "$work/writers.out" "$work/readers.out"
    [ "$rc_w" = 0 ] && [ "$rc_r" = 0 ]
    pgbench_clean "$work/writers.out"
    pgbench_clean "$work/readers.out"
    acked "$work/w" >"$work/acked"
    audit "$work/acked" 0
    # the audit fails on a charge counted twice, and on one lost
    psql_ -d "$DB" -c "UPDATE usage SET u = u + decayed_usage(1, last_instant(u), half_life(u)) WHERE path = 'g1.u1'"
    audit_fails "$work/acked"
    psql_ -d "$DB" -c "UPDATE usage SET u = u + decayed_usage(-1, last_instant(u), half_life(u)) WHERE path = 'g1.u1'"
    audit "$work/acked" 0
    psql_ -d "$DB" -c "DELETE FROM charge_log WHERE id = (SELECT max(id) FROM charge_log)"
    audit_fails "$work/acked"
    echo "the audit catches a charge counted twice and one lost"
}

# The same writers on a cluster of this test's own, killed in the middle.
crash() {
    local port rc=0 saved_host=$PGHOST saved_port=$PGPORT
    CRASH_DIR=$(mktemp -d /tmp/fairsched-live-crash.XXXXXX)
    # this runs in a subshell of its own (fs_check): stop and remove the cluster when it ends
    trap 'fs_as_owner "$PG_BIN/pg_ctl" -D "$CRASH_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true; rm -rf "$CRASH_DIR"' EXIT
    chmod 755 "$CRASH_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$CRASH_DIR"
    port=$(fs_free_port)
    fs_as_owner "$PG_BIN/initdb" -D "$CRASH_DIR/data" -U postgres -A trust --no-locale -E UTF8 \
        >"$CRASH_DIR/initdb.log" 2>&1
    start_crash_cluster() {
        fs_as_owner "$PG_BIN/pg_ctl" -D "$CRASH_DIR/data" -l "$CRASH_DIR/server.log" -w \
            -o "-c listen_addresses='' -k $CRASH_DIR -p $port" start >/dev/null
    }
    start_crash_cluster
    export PGHOST=$CRASH_DIR PGPORT=$port
    make_db
    "$PG_BIN/pgbench" -n -d "$DB" -c 8 -j 2 -T 30 -f "$work/charge.sql" \
        -l --log-prefix="$work/c" >"$work/crash.out" 2>&1 &
    local w=$!
    sleep 4
    fs_as_owner "$PG_BIN/pg_ctl" -D "$CRASH_DIR/data" -m immediate -w stop
    wait $w || rc=$?
    echo "pgbench exit $rc after the kill (non-zero expected: its connections were cut)"
    [ "$rc" != 0 ]
    start_crash_cluster
    grep -E 'redo (starts|done)|database system was not properly shut down' "$CRASH_DIR/server.log"
    acked "$work/c" >"$work/acked_crash"
    audit "$work/acked_crash" 1
    # and charging goes on
    "$PG_BIN/pgbench" -n -d "$DB" -c 8 -j 2 -T 2 -f "$work/charge.sql" -l --log-prefix="$work/d" \
        >"$work/after.out" 2>&1
    pgbench_clean "$work/after.out"
    cat "$work"/c.* "$work"/d.* | awk '{n[$1]++} END {for (c in n) print c, n[c]}' | sort -n \
        >"$work/acked_all"
    audit "$work/acked_all" 1
    export PGHOST=$saved_host PGPORT=$saved_port
}

fs_check live_concurrent concurrent
fs_check live_crash crash
fs_tally
