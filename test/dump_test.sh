#!/usr/bin/env bash
# Dump and restore, nothing lost: a database holding every fairsched type (test/dist/fill.sql:
# ordinary, partitioned and unlogged tables, aggregate states as values, indexes on resvec and
# sharepath) is dumped with pg_dump in plain and custom format and restored with psql,
# pg_restore and pg_restore --jobs 2. In each restored database every value, order, lookup and
# analysis reads as in the source (test/dist/probe.sql), every value is = and ::text-equal to the
# source's, the indexes are the source's, valid and structurally sound (amcheck), and
# COPY ... (FORMAT binary) out and back in gives the same bytes.
# `make test` runs it on its cluster; on its own it installs the build and starts one.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
fs_standalone_setup

work=$(mktemp -d /tmp/fairsched-dump.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"; fs_cluster_stop' EXIT
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
SRC=fs_dump_src
TABLES="vectors states records part unlogged formulas"

fill_source() {
    "$PG_BIN/dropdb" --if-exists "$SRC"
    "$PG_BIN/createdb" "$SRC"
    psql_ -d "$SRC" -c 'CREATE EXTENSION fairsched' -f test/dist/fill.sql
    psql_ -d "$SRC" -A -t -f test/dist/probe.sql >"$work/source.probe"
    index_list "$SRC" >"$work/source.indexes"
    "$PG_BIN/pg_dump" -d "$SRC" -F p -f "$work/dump.sql"
    "$PG_BIN/pg_dump" -d "$SRC" -F c -f "$work/dump.custom"
    wc -l "$work/source.probe" "$work/source.indexes"
}

index_list() {
    psql_ -d "$1" -A -t -c "
        SELECT i.indexrelid::regclass, i.indrelid::regclass, pg_get_indexdef(i.indexrelid)
        FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indrelid
        WHERE c.relnamespace = 'fill'::regnamespace ORDER BY i.indexrelid::regclass::text"
}

restore() {
    local db=$1 how=$2
    "$PG_BIN/dropdb" --if-exists "$db"
    "$PG_BIN/createdb" "$db"
    case $how in
        plain) psql_ -d "$db" -f "$work/dump.sql" >/dev/null ;;
        custom) "$PG_BIN/pg_restore" --exit-on-error -d "$db" "$work/dump.custom" ;;
        jobs) "$PG_BIN/pg_restore" --exit-on-error --jobs 2 -d "$db" "$work/dump.custom" ;;
    esac
}

same_probe() {
    psql_ -d "$1" -A -t -f test/dist/probe.sql >"$work/$1.probe"
    diff -u "$work/source.probe" "$work/$1.probe"
}

# the same indexes, every one valid, ready and live, and every btree index consistent with its
# operator class (amcheck: keys in order, each heap row found)
indexes_sound() {
    local db=$1 bad
    index_list "$db" >"$work/$db.indexes"
    diff -u "$work/source.indexes" "$work/$db.indexes"
    bad=$(psql_ -d "$db" -A -t -c "
        SELECT count(*) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indrelid
        WHERE c.relnamespace = 'fill'::regnamespace
          AND NOT (i.indisvalid AND i.indisready AND i.indislive)")
    [ "$bad" = 0 ] || { echo "$bad indexes are not valid"; return 1; }
    psql_ -d "$db" -A -t -c 'CREATE EXTENSION IF NOT EXISTS amcheck' -c "
        SELECT count(bt_index_check(c.oid, true))
        FROM pg_class AS c JOIN pg_am AS am ON am.oid = c.relam
        WHERE c.relnamespace = 'fill'::regnamespace AND c.relkind = 'i' AND am.amname = 'btree'"
}

# the source's rows, copied in as text next to the restored ones: every column ::text-equal, and
# = for the types that have it
same_values() {
    local db=$1 t
    psql_ -d "$db" -c 'DROP SCHEMA IF EXISTS orig CASCADE' -c 'CREATE SCHEMA orig'
    for t in $TABLES; do
        psql_ -d "$db" -c "CREATE TABLE orig.$t (LIKE fill.$t)"
        psql_ -d "$SRC" -c "\\copy (SELECT * FROM fill.$t ORDER BY id) TO STDOUT" \
            | psql_ -d "$db" -c "\\copy orig.$t FROM STDIN"
    done
    psql_ -d "$db" -A -t -v tables="{${TABLES// /,}}" >"$work/$db.mismatches" <<'SQL'
CREATE FUNCTION pg_temp.mismatches(tables text[]) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n bigint;
    checked int := 0;
BEGIN
    FOR r IN
        SELECT c.relname, a.attname,
               EXISTS (SELECT FROM pg_operator AS o
                       WHERE o.oprname = '=' AND o.oprleft = a.atttypid AND o.oprright = a.atttypid
                         AND o.oprnamespace = 'fairsched'::regnamespace) AS has_eq
        FROM pg_class AS c
        JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = 'fill'::regnamespace AND c.relname = ANY (tables)
        ORDER BY 1, a.attnum
    LOOP
        EXECUTE format('SELECT count(*) FROM fill.%1$I AS a FULL JOIN orig.%1$I AS b USING (id) '
                       'WHERE a.%2$I::text IS DISTINCT FROM b.%2$I::text%3$s',
                       r.relname, r.attname,
                       CASE WHEN r.has_eq
                            THEN format(' OR NOT coalesce(a.%1$I OPERATOR(fairsched.=) b.%1$I,'
                                        ' a.%1$I IS NULL AND b.%1$I IS NULL)', r.attname)
                            ELSE '' END)
            INTO n;
        checked := checked + 1;
        IF n > 0 THEN
            RETURN NEXT format('%s.%s: %s rows differ', r.relname, r.attname, n);
        END IF;
    END LOOP;
    RETURN NEXT format('%s columns compared', checked);
END
$$;
SELECT * FROM pg_temp.mismatches(:'tables');
SQL
    cat "$work/$db.mismatches"
    # the only line is the count of columns compared
    [ "$(wc -l <"$work/$db.mismatches")" = 1 ] && grep -qE '^[1-9][0-9]* columns compared$' "$work/$db.mismatches"
}

# COPY (FORMAT binary) of each table out, into an empty copy of it, and out again: the same bytes
binary_round_trip() {
    local db=$1 t
    psql_ -d "$db" -c 'DROP SCHEMA IF EXISTS rt CASCADE' -c 'CREATE SCHEMA rt'
    for t in $TABLES; do
        psql_ -d "$db" -c "CREATE TABLE rt.$t (LIKE fill.$t)" \
            -c "\\copy (SELECT * FROM fill.$t ORDER BY id) TO '$work/$db.$t.1' (FORMAT binary)" \
            -c "\\copy rt.$t FROM '$work/$db.$t.1' (FORMAT binary)" \
            -c "\\copy (SELECT * FROM rt.$t ORDER BY id) TO '$work/$db.$t.2' (FORMAT binary)"
        cmp "$work/$db.$t.1" "$work/$db.$t.2"
        echo "$t: $(wc -c <"$work/$db.$t.1") bytes"
    done
}

fs_log "dump and restore of every fairsched type"
fs_check dump_fill_and_dump fill_source
if [ "$FS_FAILED" = 0 ]; then
    fs_check dump_binary_copy_source binary_round_trip "$SRC"
    for how in plain custom jobs; do
        db=fs_dump_$how
        before=$FS_FAILED
        fs_check "dump_restore_$how" restore "$db" "$how"
        [ "$FS_FAILED" = "$before" ] || continue
        fs_check "dump_${how}_reads_as_source" same_probe "$db"
        fs_check "dump_${how}_indexes" indexes_sound "$db"
        fs_check "dump_${how}_values_equal" same_values "$db"
        fs_check "dump_${how}_binary_copy" binary_round_trip "$db"
    done
fi
for db in "$SRC" fs_dump_plain fs_dump_custom fs_dump_jobs; do
    "$PG_BIN/dropdb" --if-exists "$db" >/dev/null 2>&1 || true
done
fs_tally
