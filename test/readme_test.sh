#!/usr/bin/env bash
# The SQL of the README and of every docs/ page, and the demo, run as written on a database set up
# as the README's Install section says (ALTER DATABASE ... SET search_path = public, fairsched,
# once), with every `SET search_path = public, fairsched;` line taken out of them:
#   - every ```sql block of README.md, in order, on a fresh database named accounting (the name
#     the Install section uses): the block that creates the extension must also set the database's
#     search_path; the blocks after it run in one new session, as a reader follows them in psql;
#   - then each docs/*.md page, in name order, on a fresh database of its own (accounting again,
#     dropped and created anew), where the test has created the extension and set the search_path
#     as Install says: every block of the page runs, in order, in one new session. A page is
#     self-contained: it creates every table it uses (nothing carries over from the README or
#     from another page), so that a reader can start on any page;
#   - in either, a block that shows an error in `-- ERROR:` / `-- DETAIL:` / `-- HINT:` comment
#     lines runs alone, in a session of its own, and must end in exactly that error;
#   - scripts/demo.sql on a fresh database, and the SVG charts it writes: each renders to a PNG of
#     its size with rsvg-convert, names its series, and is the one committed under docs/.
# An HTML comment on the line (or lines) just before a block directs the test:
#   <!-- not run: the reason -->            the block is skipped (say why: a Citus cluster, ...)
#   <!-- run with: TEXT => REPLACEMENT -->  the block runs with TEXT replaced (a site's file by a
#                                           sample of sql/data; $FIXTURES is a directory of
#                                           samples cut from sql/data, readable by the server)
#   <!-- PostgreSQL N and later -->         the block runs on a server of major version N or later,
#                                           and is skipped, saying so, on an older one
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
# the server's major version, for the blocks marked "PostgreSQL N and later"
FS_SERVER_MAJOR=$(($(psql_ -d postgres -Atc 'SHOW server_version_num') / 10000))
SEARCH_PATH_LINE='^[[:space:]]*SET[[:space:]]+search_path[[:space:]]*=[[:space:]]*public,[[:space:]]*fairsched;[[:space:]]*$'

# one block of a sample file, by the name in its "# block: NAME" line
sample_block() {
    awk -v name="$2" '/^#+ block: / { on = ($0 ~ ("block: " name "$")); next } on' "$1"
}
sample_block sql/data/sacct_parsable2_samples.txt xdmod >"$FIXTURES/sacct.txt"
sample_block sql/data/sacctmgr_assoc_samples.txt sacctmgr_dump_constructed >"$FIXTURES/tux.cfg"
sample_block sql/data/resource_group_samples.txt ptl_pbs_fairshare >"$FIXTURES/resource_group"
cp sql/data/sacct_json_dbv0.0.38.json "$FIXTURES/sacct.json"
chmod 644 "$FIXTURES"/*

# a page (README.md, docs/NAME.md) -> DIR/NNN.sql, and a manifest: file, line, "run" or
# "skip: reason", and the replacements (TEXT => REPLACEMENT, one per line in NNN.with)
split_page() {
    awk -v dir="$2" -v page="$1" -v server="$FS_SERVER_MAJOR" '
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
        /^<!-- PostgreSQL [0-9]+ and later -->[[:space:]]*$/ {
            v = $3 + 0
            if (server < v) nskip = "needs PostgreSQL " v " (the server is " server ")"
            next
        }
        /^<!-- run with: .* => .* -->[[:space:]]*$/ {
            w = $0; sub(/^<!-- run with: /, "", w); sub(/ -->[[:space:]]*$/, "", w); with[++nwith] = w; next
        }
        /^[[:space:]]*$/ { next }
        { flush_directives() }
        END { if (inblock) { print page " ends inside a sql block" > "/dev/stderr"; exit 1 } }
    ' "$1"
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
    local dir=$1 id=$2 at=$3
    if psql_ -d accounting -P pager=off -f "$dir/$id.run.sql" >"$dir/$id.out" 2>&1; then
        echo "$at: the block shows an error, but ran without one"
        return 1
    fi
    grep -E '^-- (ERROR|DETAIL|HINT):  ' "$dir/$id.run.sql" | sed 's/^-- //' >"$dir/$id.expected"
    sed 's/^psql:[^ ]*: //' "$dir/$id.out" | grep -E '^(ERROR|DETAIL|HINT):  ' >"$dir/$id.got" || true
    diff -u "$dir/$id.expected" "$dir/$id.got" || {
        echo "$at: the block's error is not the one it shows"
        return 1
    }
}

# The blocks of one page. README.md: the blocks up to the one that creates the extension run
# first, each in its own session; that block must also set the database's search_path, which new
# sessions get. docs/*.md: the test creates the extension and sets the search_path first. Every
# later block then runs in order in one new session, as a reader follows the page in psql (a
# temporary table of one block serves the next); a block that shows an error runs in a session of
# its own. Prints "PAGE: N blocks ran, M not run" last.
page_blocks() {
    local page=$1 dir id line status ran=0 skipped=0 extension_seen=0 all at n
    dir=$work/blocks/$(basename "$page" .md)
    all=$dir/all.sql
    mkdir -p "$dir"
    split_page "$page" "$dir" >"$dir/manifest"
    "$PG_BIN/dropdb" --if-exists accounting
    "$PG_BIN/createdb" accounting
    if [ "$page" != README.md ]; then
        psql_ -d accounting -c 'CREATE EXTENSION fairsched' \
            -c 'ALTER DATABASE accounting SET search_path = public, fairsched'
        extension_seen=1
    fi
    : >"$all"
    : >"$dir/all.map"
    while IFS=$'\t' read -r id line status; do
        if [ "$status" != run ]; then
            echo "$page:$line: ${status#skip: } (not run)"
            skipped=$((skipped + 1))
            continue
        fi
        prepare_block "$dir/$id.sql" "$dir/$id.with" >"$dir/$id.run.sql"
        if grep -Eiq '^[[:space:]]*SET[[:space:]]+(search_path|LOCAL[[:space:]]+search_path)' "$dir/$id.run.sql"; then
            echo "$page:$line: the block sets search_path itself; the examples must run on the database's setting"
            return 1
        fi
        ran=$((ran + 1))
        if grep -q '^-- ERROR:  ' "$dir/$id.run.sql"; then
            echo "$page:$line (shows an error)"
            error_block "$dir" "$id" "$page:$line"
        elif [ "$extension_seen" = 1 ]; then
            # into the one session: remember where the block starts in it
            printf '%s\t%s\n' "$(($(wc -l <"$all") + 1))" "$line" >>"$dir/all.map"
            cat "$dir/$id.run.sql" >>"$all"
        else
            echo "$page:$line"
            if ! psql_ -d accounting -P pager=off -f "$dir/$id.run.sql" >"$dir/$id.out" 2>&1; then
                cat "$dir/$id.out"
                echo "$page:$line: the sql block above failed"
                return 1
            fi
            if psql_ -d accounting -A -t -c "SELECT 1 FROM pg_extension WHERE extname = 'fairsched'" | grep -q 1; then
                extension_seen=1
                psql_ -d accounting -A -t -c "
                    SELECT 1 FROM pg_db_role_setting AS s JOIN pg_database AS d ON d.oid = s.setdatabase
                    WHERE d.datname = 'accounting' AND s.setrole = 0
                      AND 'search_path=public, fairsched' = ANY (s.setconfig)" | grep -q 1 || {
                    echo "$page:$line: the block that creates the extension does not run"
                    echo "ALTER DATABASE accounting SET search_path = public, fairsched"
                    return 1
                }
            fi
        fi
    done <"$dir/manifest"
    [ "$extension_seen" = 1 ] || { echo "no $page block creates the extension"; return 1; }
    cut -f 2 "$dir/all.map" | sed "s|^|$page:|"
    if ! psql_ -d accounting -P pager=off -f "$all" >"$dir/all.out" 2>&1; then
        tail -n 20 "$dir/all.out"
        # the block of the page that holds the failing line of the session's script
        at=$(sed -n 's/^psql:[^:]*:\([0-9]*\): ERROR: .*/\1/p' "$dir/all.out" | tail -n 1)
        n=$(awk -F '\t' -v at="${at:-0}" '$1 <= at { line = $2 } END { print line }' "$dir/all.map")
        echo "$page:$n: this sql block failed (line $at of $all):"
        return 1
    fi
    echo "$page: $ran blocks ran, $skipped not run"
    "$PG_BIN/dropdb" accounting
}

# README.md, then every docs/*.md page, each on a fresh database
readme_blocks() {
    local page
    page_blocks README.md || return 1
    for page in docs/*.md; do
        page_blocks "$page" || return 1
    done
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

fs_log "the SQL of the README and of docs/*.md, and the demo, on databases with search_path = public, fairsched"
fs_check readme_sql_blocks readme_blocks
fs_check readme_demo demo_script
fs_check readme_chart_fairshare_weekly chart fairshare_weekly 720x400 group1 group2
fs_check readme_chart_share_tree chart share_tree 740x420 group1 group2 Ann Bob Suzy scott
fs_tally
