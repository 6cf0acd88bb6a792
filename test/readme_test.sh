#!/usr/bin/env bash
# The README's SQL and the demo run as written on a database set up as the README's Install
# section says (ALTER DATABASE ... SET search_path = public, fairsched, once), with every
# `SET search_path = public, fairsched;` line taken out of them:
#   - every ```sql block of README.md, in order, on a fresh database named accounting (the name
#     the Install section uses): the block that creates the extension must also set the database's
#     search_path; the blocks after it run in one new session, as a reader follows them in psql;
#     a block that shows an error in `-- ERROR:` / `-- DETAIL:` / `-- HINT:` comment lines runs
#     alone and must end in exactly that error;
#   - scripts/demo.sql on a fresh database, and the SVG charts it writes: each renders to a PNG of
#     its size with rsvg-convert, names its series, and is the one committed under docs/.
# An HTML comment on the line (or lines) just before a block directs the test:
#   <!-- not run: the reason -->            the block is skipped (say why: a Citus cluster, ...)
#   <!-- run with: TEXT => REPLACEMENT -->  the block runs with TEXT replaced (a site's file by a
#                                           sample of sql/data; $FIXTURES is a directory of
#                                           samples cut from sql/data, readable by the server)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
fs_standalone_setup

work=$(mktemp -d /tmp/fairsched-readme.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"; fs_cluster_stop' EXIT
FIXTURES=$work/fixtures
mkdir -p "$FIXTURES" "$work/blocks" "$work/charts"
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
SEARCH_PATH_LINE='^[[:space:]]*SET[[:space:]]+search_path[[:space:]]*=[[:space:]]*public,[[:space:]]*fairsched;[[:space:]]*$'

# one block of a sample file, by the name in its "# block: NAME" line
sample_block() {
    awk -v name="$2" '/^#+ block: / { on = ($0 ~ ("block: " name "$")); next } on' "$1"
}
sample_block sql/data/sacct_parsable2_samples.txt xdmod >"$FIXTURES/sacct.txt"
sample_block sql/data/sacctmgr_assoc_samples.txt sacctmgr_dump_constructed >"$FIXTURES/tux.cfg"
sample_block sql/data/resource_group_samples.txt ptl_pbs_fairshare >"$FIXTURES/resource_group"
chmod 644 "$FIXTURES"/*

# README.md -> blocks/NNN.sql, and a manifest: file, README line, "run" or "skip: reason", and
# the replacements (TEXT => REPLACEMENT, one per line in NNN.with)
split_readme() {
    awk -v dir="$work/blocks" '
        function flush_directives() { nskip = ""; nwith = 0 }
        BEGIN { n = 0; flush_directives() }
        inblock && /^[[:space:]]*```/ { inblock = 0; close(file); next }
        inblock { print > file; next }
        /^[[:space:]]*```[Ss][Qq][Ll][[:space:]]*$/ {
            n++; file = sprintf("%s/%03d.sql", dir, n); inblock = 1
            printf "" > file
            withfile = sprintf("%s/%03d.with", dir, n); printf "" > withfile
            for (i = 1; i <= nwith; i++) print with[i] > withfile
            close(withfile)
            printf "%03d\t%d\t%s\n", n, NR, (nskip == "" ? "run" : "skip: " nskip)
            flush_directives(); next
        }
        /^<!-- not run: .* -->[[:space:]]*$/ {
            nskip = $0; sub(/^<!-- not run: /, "", nskip); sub(/ -->[[:space:]]*$/, "", nskip); next
        }
        /^<!-- run with: .* => .* -->[[:space:]]*$/ {
            w = $0; sub(/^<!-- run with: /, "", w); sub(/ -->[[:space:]]*$/, "", w); with[++nwith] = w; next
        }
        /^[[:space:]]*$/ { next }
        { flush_directives() }
        END { if (inblock) { print "README.md ends inside a sql block" > "/dev/stderr"; exit 1 } }
    ' README.md
}

# a block as the test runs it: replacements applied, the SET search_path lines taken out
prepare_block() {
    local sql=$1 with=$2 text line old new
    text=$(cat "$sql")
    while IFS= read -r line; do
        old=${line%% => *}
        new=${line#* => }
        new=${new//\$FIXTURES/$FIXTURES}
        if [[ $text != *"$old"* ]]; then
            echo "the directive \"run with: $line\" names text that is not in the block" >&2
            return 1
        fi
        text=${text//"$old"/"$new"}
    done <"$with"
    printf '%s\n' "$text" | grep -Ev "$SEARCH_PATH_LINE"
}

# a block that shows an error in `-- ERROR:` comment lines, run in a session of its own: it must
# end in exactly that error
error_block() {
    local id=$1 line=$2
    if psql_ -d accounting -P pager=off -f "$work/blocks/$id.run.sql" >"$work/blocks/$id.out" 2>&1; then
        echo "README.md:$line: the block shows an error, but ran without one"
        return 1
    fi
    grep -E '^-- (ERROR|DETAIL|HINT):  ' "$work/blocks/$id.run.sql" | sed 's/^-- //' >"$work/blocks/$id.expected"
    sed 's/^psql:[^ ]*: //' "$work/blocks/$id.out" | grep -E '^(ERROR|DETAIL|HINT):  ' >"$work/blocks/$id.got" || true
    diff -u "$work/blocks/$id.expected" "$work/blocks/$id.got" || {
        echo "README.md:$line: the block's error is not the one it shows"
        return 1
    }
}

# The blocks up to the one that creates the extension run first, each in its own session; that
# block must also set the database's search_path, which new sessions get. Every later block then
# runs in order in one new session, as a reader follows the README in psql (a temporary table of
# one block serves the next); a block that shows an error runs in a session of its own.
readme_blocks() {
    local id line status ran=0 skipped=0 extension_seen=0 all=$work/blocks/all.sql at n
    split_readme >"$work/manifest"
    "$PG_BIN/dropdb" --if-exists accounting
    "$PG_BIN/createdb" accounting
    : >"$all"
    : >"$work/blocks/all.map"
    while IFS=$'\t' read -r id line status; do
        if [ "$status" != run ]; then
            echo "README.md:$line: ${status#skip: } (not run)"
            skipped=$((skipped + 1))
            continue
        fi
        prepare_block "$work/blocks/$id.sql" "$work/blocks/$id.with" >"$work/blocks/$id.run.sql"
        if grep -Eiq '^[[:space:]]*SET[[:space:]]+(search_path|LOCAL[[:space:]]+search_path)' "$work/blocks/$id.run.sql"; then
            echo "README.md:$line: the block sets search_path itself; the examples must run on the database's setting"
            return 1
        fi
        ran=$((ran + 1))
        if grep -q '^-- ERROR:  ' "$work/blocks/$id.run.sql"; then
            echo "README.md:$line (shows an error)"
            error_block "$id" "$line"
        elif [ "$extension_seen" = 1 ]; then
            # into the one session: remember where the block starts in it
            printf '%s\t%s\n' "$(($(wc -l <"$all") + 1))" "$line" >>"$work/blocks/all.map"
            cat "$work/blocks/$id.run.sql" >>"$all"
        else
            echo "README.md:$line"
            if ! psql_ -d accounting -P pager=off -f "$work/blocks/$id.run.sql" >"$work/blocks/$id.out" 2>&1; then
                cat "$work/blocks/$id.out"
                echo "README.md:$line: the sql block above failed"
                return 1
            fi
            if psql_ -d accounting -A -t -c "SELECT 1 FROM pg_extension WHERE extname = 'fairsched'" | grep -q 1; then
                extension_seen=1
                psql_ -d accounting -A -t -c "
                    SELECT 1 FROM pg_db_role_setting AS s JOIN pg_database AS d ON d.oid = s.setdatabase
                    WHERE d.datname = 'accounting' AND s.setrole = 0
                      AND 'search_path=public, fairsched' = ANY (s.setconfig)" | grep -q 1 || {
                    echo "README.md:$line: the block that creates the extension does not run"
                    echo "ALTER DATABASE accounting SET search_path = public, fairsched"
                    return 1
                }
            fi
        fi
    done <"$work/manifest"
    [ "$extension_seen" = 1 ] || { echo "no README block creates the extension"; return 1; }
    cut -f 2 "$work/blocks/all.map" | sed 's/^/README.md:/'
    if ! psql_ -d accounting -P pager=off -f "$all" >"$work/blocks/all.out" 2>&1; then
        tail -n 20 "$work/blocks/all.out"
        # the README block that holds the failing line of the session's script
        at=$(sed -n 's/^psql:[^:]*:\([0-9]*\): ERROR: .*/\1/p' "$work/blocks/all.out" | tail -n 1)
        n=$(awk -F '\t' -v at="${at:-0}" '$1 <= at { line = $2 } END { print line }' "$work/blocks/all.map")
        echo "README.md:$n: this sql block failed (line $at of $all):"
        return 1
    fi
    echo "$ran blocks ran, $skipped not run"
    "$PG_BIN/dropdb" accounting
}

demo_script() {
    "$PG_BIN/dropdb" --if-exists fs_readme_demo
    "$PG_BIN/createdb" fs_readme_demo
    psql_ -d fs_readme_demo -c 'ALTER DATABASE fs_readme_demo SET search_path = public, fairsched'
    grep -Ev "$SEARCH_PATH_LINE" scripts/demo.sql >"$work/demo.sql"
    # the demo includes scripts/charts.sql by a path relative to the checkout
    psql_ -d fs_readme_demo -P pager=off -v chart_dir="$work/charts" -f "$work/demo.sql" >"$work/demo.out"
    tail -n 3 "$work/demo.out"
    "$PG_BIN/dropdb" fs_readme_demo
}

# NAME.svg WIDTHxHEIGHT SERIES...: renders, is as large as it says, names each series, is docs/'s
chart() {
    local name=$1 size=$2 svg png head width height s
    shift 2
    svg=$work/charts/$name.svg
    png=$work/charts/$name.png
    [ -s "$svg" ] || { echo "$svg was not written"; return 1; }
    rsvg-convert -o "$png" "$svg"
    [ -s "$png" ] || { echo "$png is empty"; return 1; }
    head=$(od -A n -t x1 -N 24 "$png" | tr -d ' \n')
    [ "${head:0:16}" = 89504e470d0a1a0a ] || { echo "$png is not a PNG"; return 1; }
    width=$((16#${head:32:8}))
    height=$((16#${head:40:8}))
    [ "${width}x$height" = "$size" ] || { echo "$png is ${width}x$height, not $size"; return 1; }
    echo "$name.png: ${width}x$height, $(wc -c <"$png") bytes"
    for s in "$@"; do
        grep -Eq ">$s( [0-9]+%)?<" "$svg" || { echo "$name.svg does not name the series $s"; return 1; }
    done
    cmp "$svg" "docs/$name.svg" || {
        echo "docs/$name.svg is not what the demo draws now: make demo && cp build/demo/$name.svg docs/"
        return 1
    }
}

fs_log "the README's SQL and the demo, on a database with search_path = public, fairsched"
fs_check readme_sql_blocks readme_blocks
fs_check readme_demo demo_script
fs_check readme_chart_fairshare_weekly chart fairshare_weekly 720x400 group1 group2
fs_check readme_chart_share_tree chart share_tree 740x420 group1 group2 Ann Bob Suzy scott
fs_tally
