#!/usr/bin/env bash
# Upgrades: test/upgrade_test.sh [A [B]] installs fairsched version A (from its full install
# script fairsched--A.sql), runs ALTER EXTENSION fairsched UPDATE TO 'B', and proves
#   (a) the catalogue equals a fresh install of B: a schema-only pg_dump --binary-upgrade (which,
#       unlike a plain pg_dump, lists every object of the extension) of both, normalised (comments,
#       OIDs, the dump's random \restrict key and the order of its entries), is the same;
#   (b) every value stored under A (test/dist/fill.sql: every type, in ordinary, partitioned and
#       unlogged tables, with indexes) reads, compares, is found through its indexes and aggregates
#       as before (test/dist/probe.sql before and after, the same), and every btree index built
#       under A is still in order under B (amcheck).
# B defaults to the installed default_version, A to every other version whose full install script
# is installed. With only one version installed (until a release ships fairsched--A.sql and
# fairsched--A--B.sql next to B's) it says so and counts nothing.
#
# --self-test proves the test itself today: it installs a copy of B's script as version
# "selftest-a" with an empty upgrade script to B (the upgrade must pass), then a "selftest-b"
# that has one function more than B (the upgrade must fail on the catalogue). The extra files are
# removed afterwards. Under the install lock, as always when writing to the extension directory.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

self_test=
if [ "${1:-}" = --self-test ]; then
    self_test=1
    shift
fi
fs_standalone_setup

EXTDIR=$($PG_CONFIG --sharedir)/extension
default=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$EXTDIR/fairsched.control")
work=$(mktemp -d /tmp/fairsched-upgrade.XXXXXX)
chmod 755 "$work"
created_files=()
cleanup() {
    rm -f "${created_files[@]}"
    rm -rf "$work"
    fs_cluster_stop
}
trap cleanup EXIT
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

# the versions with a full install script (fairsched--X.sql, not an upgrade script A--B)
full_versions() {
    local f v
    for f in "$EXTDIR"/fairsched--*.sql; do
        v=${f##*/fairsched--}
        v=${v%.sql}
        case $v in *--*) ;; *) echo "$v" ;; esac
    done
}

# a schema-only dump with the extension's members, one line per dump entry, sorted: what it says,
# without comments, blank lines, OIDs (those of the extension's configuration tables, and the
# tables' own), transaction ids and the random \restrict key
schema_of() {
    "$PG_BIN/pg_dump" -d "$1" --schema-only --binary-upgrade \
        | awk '
            /^-- Name: / { if (entry != "") print entry; sub(/; Owner: .*/, ""); entry = $0; next }
            /^--/ || /^$/ || /^\\(un)?restrict / || /binary_upgrade_set_next_/ { next }
            { entry = entry " | " $0 }
            END { if (entry != "") print entry }' \
        | sed -E "/binary_upgrade_create_empty_extension/s/'\\{([0-9]+,)*[0-9]+\\}'/'{oids}'/" \
        | sed -E "s/(relfrozenxid|relminmxid) = '[0-9]+'/\\1 = 'x'/g; s/WHERE oid = '[0-9]+'/WHERE oid = 'oid'/g" \
        | LC_ALL=C sort
}

fresh_db() {
    "$PG_BIN/dropdb" --if-exists "$1"
    "$PG_BIN/createdb" "$1"
}

same_catalogue() {
    local a=$1 b=$2
    fresh_db fs_up_updated
    psql_ -d fs_up_updated -c "CREATE EXTENSION fairsched VERSION '$a'" \
        -c "ALTER EXTENSION fairsched UPDATE TO '$b'"
    [ "$(psql_ -d fs_up_updated -A -t -c "SELECT extversion FROM pg_extension WHERE extname = 'fairsched'")" = "$b" ]
    fresh_db fs_up_fresh
    psql_ -d fs_up_fresh -c "CREATE EXTENSION fairsched VERSION '$b'"
    schema_of fs_up_updated >"$work/updated.schema"
    schema_of fs_up_fresh >"$work/fresh.schema"
    echo "$(wc -l <"$work/fresh.schema") dump entries compared"
    diff -u "$work/fresh.schema" "$work/updated.schema"
}

same_data() {
    local a=$1 b=$2
    fresh_db fs_up_data
    psql_ -d fs_up_data -c "CREATE EXTENSION fairsched VERSION '$a'" -f test/dist/fill.sql
    psql_ -d fs_up_data -A -t -f test/dist/probe.sql >"$work/before.probe"
    psql_ -d fs_up_data -c "ALTER EXTENSION fairsched UPDATE TO '$b'"
    psql_ -d fs_up_data -A -t -f test/dist/probe.sql >"$work/after.probe"
    echo "$(wc -l <"$work/before.probe") probe lines compared"
    diff -u "$work/before.probe" "$work/after.probe"
    psql_ -d fs_up_data -A -t -c 'CREATE EXTENSION IF NOT EXISTS amcheck' -c "
        SELECT count(bt_index_check(c.oid, true)) AS btree_indexes_checked
        FROM pg_class AS c JOIN pg_am AS am ON am.oid = c.relam
        WHERE c.relnamespace = 'fill'::regnamespace AND c.relkind = 'i' AND am.amname = 'btree'"
}

upgrade() {
    local a=$1 b=$2
    fs_check "upgrade_${a}_to_${b}_catalogue" same_catalogue "$a" "$b"
    fs_check "upgrade_${a}_to_${b}_data" same_data "$a" "$b"
}

# an upgrade that leaves an object behind must fail the catalogue comparison, naming the object
stale_object_detected() {
    if same_catalogue selftest-b "$default" >"$work/stale.log" 2>&1; then
        echo "an upgrade that left fairsched.selftest_left_behind() behind went unnoticed"
        return 1
    fi
    grep 'selftest_left_behind' "$work/stale.log"
}

# an extra version made from B's script, with an upgrade script to B, with an upgrade script to B
add_version() {
    local v=$1 extra=$2
    { cat "$EXTDIR/fairsched--$default.sql"; printf '%s\n' "$extra"; } >"$EXTDIR/fairsched--$v.sql"
    printf '%s\n' '\echo Use "ALTER EXTENSION fairsched UPDATE" to load this file. \quit' \
        >"$EXTDIR/fairsched--$v--$default.sql"
    created_files+=("$EXTDIR/fairsched--$v.sql" "$EXTDIR/fairsched--$v--$default.sql")
}

fs_log "upgrades (ALTER EXTENSION fairsched UPDATE)"
if [ -n "$self_test" ]; then
    add_version selftest-a ''
    upgrade selftest-a "$default"
    add_version selftest-b "CREATE FUNCTION fairsched.selftest_left_behind() RETURNS int LANGUAGE sql AS 'SELECT 1';"
    fs_check upgrade_selftest_detects_a_stale_object stale_object_detected
else
    b=${2:-$default}
    if [ -n "${1:-}" ]; then
        olds=$1
    else
        olds=$(full_versions | grep -vxF "$b" || true)
    fi
    for v in $b $olds; do
        if [ ! -f "$EXTDIR/fairsched--$v.sql" ]; then
            echo "fairsched--$v.sql is not installed in $EXTDIR: install the version's full script" >&2
            echo "(the Makefile's DATA) with make install first" >&2
            exit 1
        fi
    done
    if [ -z "$olds" ]; then
        echo "skipped: fairsched $b is the only version installed (no older fairsched--A.sql in $EXTDIR);"
        echo "the upgrade test runs once a release keeps the previous version's full script and adds"
        echo "fairsched--A--$b.sql (test/upgrade_test.sh --self-test checks the test itself meanwhile)"
    fi
    for a in $olds; do
        upgrade "$a" "$b"
    done
fi
for db in fs_up_updated fs_up_fresh fs_up_data; do
    "$PG_BIN/dropdb" --if-exists "$db" >/dev/null 2>&1 || true
done
fs_tally
