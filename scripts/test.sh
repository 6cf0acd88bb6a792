#!/usr/bin/env bash
# `make test`: the layer rule, core unit tests (plain, under valgrind and with UBSan), every fuzz harness for
# a short fixed time, the Debian package and the PGXN zip built, pg_regress against a throwaway
# cluster, then on the same cluster the suites of test/*_test.sh: dump and restore, upgrades, the
# SQL of the README and docs/ and the demo's charts, live state and incremental loads under
# concurrency, and the Debian package installed and removed. The last line is
# "N passed, N failed" over every suite; the exit status is non-zero on any failure.
#
# PG=17 or PG=18 (`make test PG=18`): the same against that PostgreSQL, built by scripts/pg.sh from
# Debian's source package into a cache (or Debian's binary packages in a Debian root there, when
# the source cannot be fetched: then also a check that the server runs in the root and that its
# bind mounts are not the host's). What needs no server (the layer rule, unit tests, fuzzing,
# the zip) ran with 15 and is not repeated; the Debian package steps are 15's only, because
# pg_buildext builds for the Debian packages of PostgreSQL it finds (debian/pgversions: 15+), and
# a server built from source is not one.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

FUZZ_SECONDS=${FUZZ_SECONDS:-8}
passed=0
failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); }

fs_deps
fs_pg_select
rm -rf build/logs && mkdir -p build/logs

# test scripts that print their own "N passed, N failed" last
suite() {
    local log=build/logs/suite_$(basename "$1" .sh)${2:+_${2#--}}.log p f
    "$@" 2>&1 | tee "$log" || true
    if read -r p f < <(tail -n 1 "$log" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p') \
        && [ -n "$p" ]; then
        count "$p" "$f"
    else
        echo "$*: ended without its count"
        count 0 1
    fi
}

if fs_pg_is_debian; then
    fs_log "the layer rule (src/core plain C, no include between concerns)"
    suite test/layers_test.sh

    fs_log "core unit tests"
    make -s build/unit_tests
    if build/unit_tests >build/logs/unit.log 2>&1; then :; fi
    tail -n 1 build/logs/unit.log
    grep -E '^FAIL' build/logs/unit.log || true
    read -r up uf < <(tail -n 1 build/logs/unit.log | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/;t;s/.*/0 1/')
    count "$up" "$uf"

    fs_log "core unit tests under valgrind"
    if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        build/unit_tests >build/logs/valgrind.log 2>&1; then
        echo "valgrind: clean"
        count 1 0
else
    tail -n 40 build/logs/valgrind.log
    echo "valgrind: FAILED"
    count 0 1
fi

fs_log "core unit tests with undefined-behaviour checks"
make -s build/unit_tests_ubsan
if build/unit_tests_ubsan >build/logs/ubsan.log 2>&1; then
    echo "ubsan: clean"
    count 1 0
else
    grep -m 5 'runtime error' build/logs/ubsan.log || tail -n 20 build/logs/ubsan.log
    echo "ubsan: FAILED"
    count 0 1
fi

fs_log "fuzzing each parser for ${FUZZ_SECONDS}s"
for f in test/fuzz/fuzz_*.c; do
    name=$(basename "$f" .c)
    name=${name#fuzz_}
    make -s "build/fuzz_$name"
    corpus=build/corpus-$name
    rm -rf "$corpus" && mkdir -p "$corpus"
    cp test/fuzz/seeds/$name/* "$corpus"/ 2>/dev/null || true
    if "build/fuzz_$name" -max_total_time="$FUZZ_SECONDS" -seed=1 -rss_limit_mb=2048 \
        -artifact_prefix=build/ "$corpus" >"build/logs/fuzz_$name.log" 2>&1; then
        echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs' "build/logs/fuzz_$name.log" | tail -n 1), no crash"
        count 1 0
    else
        tail -n 40 "build/logs/fuzz_$name.log"
        echo "fuzz $name: FAILED"
        count 0 1
    fi
done

# the package and the zip are built from the checkout; they do not touch the installed extension
fs_log "the Debian package (make deb; its regression run is the pg_regress below)"
if DEB_BUILD_OPTIONS=nocheck scripts/deb.sh >build/logs/deb_build.log 2>&1; then
    tail -n 1 build/logs/deb_build.log
    count 1 0
else
    tail -n 40 build/logs/deb_build.log
    echo "make deb: FAILED"
    count 0 1
fi

fs_log "the PGXN zip (make dist)"
dist_ok() {
    local zip listing f
    zip=$(scripts/dist.sh | tail -n 1)
    listing=$(unzip -Z1 "$zip")
    for f in META.json LICENSE README.md docs/limits.md Makefile fairsched.control debian/control src/sql/resvec.sql; do
        grep -qx "fairsched-[^/]*/$f" <<<"$listing" || { echo "$zip lacks $f"; return 1; }
    done
    ! grep -q '/\.ci/' <<<"$listing" || { echo "$zip holds .ci/"; return 1; }
    echo "$zip: $(wc -l <<<"$listing") entries"
}
if dist_ok >build/logs/dist.log 2>&1; then
    cat build/logs/dist.log
    count 1 0
else
    cat build/logs/dist.log
    echo "make dist: FAILED"
    count 0 1
fi

else
    fs_log "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //') from $PG_BIN (the steps that need no server ran with 15)"
fi

# the extension is installed system-wide: one checkout at a time from here on
fs_install_lock
fs_build_install
fs_cluster_start
export FS_UNDER_TEST=1

fs_log "pg_regress (installcheck)"
if make -s installcheck PG_CONFIG="$PG_CONFIG" >build/logs/regress.log 2>&1; then
    regress_ok=1
else
    regress_ok=0
fi
cat build/logs/regress.log
total=$(grep -cE '^(test| ) *[a-z_]+ +\.\.\. ' build/logs/regress.log || true)
[ "$total" -gt 0 ] || total=$(grep -cE '^(ok|not ok) ' build/logs/regress.log || true)
bad=$(grep -cE '\.\.\. (FAILED|failed)|^not ok' build/logs/regress.log || true)
if [ "$regress_ok" = 0 ]; then
    [ -f regression.diffs ] && cat regression.diffs
    [ "$bad" -gt 0 ] || bad=1
fi
count $((total - bad > 0 ? total - bad : 0)) "$bad"

# the suites that use the installed extension, on this cluster under this lock
suite test/dump_test.sh
suite test/upgrade_test.sh
suite test/upgrade_test.sh --self-test
suite test/readme_test.sh
suite test/live_test.sh
suite test/load_test.sh
# last: removing the package removes the installed extension (it installs the build again)
if fs_pg_is_debian; then
    suite test/deb_test.sh
fi
# a server in a Debian root (scripts/pg.sh's fallback): it runs in the root, in a mount namespace
# of its own, and the host's mount table holds none of the bind mounts its wrappers made
root_private() {
    local top root pid
    top=$(readlink -f "$PG_BIN/../..")
    root=$(readlink -f "$("$PG_CONFIG" --sharedir)/../../../..")
    pid=$(head -n 1 "$FS_CLUSTER_DIR/data/postmaster.pid")
    echo "server $pid: root $(readlink "/proc/$pid/root"), mount namespace $(readlink "/proc/$pid/ns/mnt")"
    echo "this shell: mount namespace $(readlink /proc/self/ns/mnt)"
    [ "$(readlink "/proc/$pid/root")" = "$root" ]
    [ "$(readlink "/proc/$pid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ]
    ! awk -v top="$top" '$5 == top || index($5, top "/") == 1 { print "host mount: " $5; bad = 1 }
        END { exit !bad }' /proc/self/mountinfo
}
if fs_pg_in_root; then
    fs_log "the server in its Debian root, its mounts its own"
    fs_check root_private root_private
    count "$FS_PASSED" "$FS_FAILED"
fi

fs_cluster_stop
echo
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
