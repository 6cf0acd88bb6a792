#!/usr/bin/env bash
# `make test`: core unit tests (plain and under valgrind), every fuzz harness for a short fixed
# time, pg_regress against a throwaway cluster, and TAP tests if any. The last line is
# "N passed, N failed" over every suite; the exit status is non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

FUZZ_SECONDS=${FUZZ_SECONDS:-8}
passed=0
failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); }

fs_deps
rm -rf build/logs && mkdir -p build/logs

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

# the extension is installed system-wide: one checkout at a time from here on
exec 9>/tmp/fairsched-install.lock
flock 9
fs_build_install
fs_cluster_start

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

if compgen -G "test/t/*.pl" >/dev/null; then
    fs_log "TAP tests"
    if PERL5LIB="$($PG_CONFIG --pgxs | sed 's|src/makefiles/pgxs.mk|src/test/perl|')" \
        PG_REGRESS="$($PG_CONFIG --pgxs | sed 's|src/makefiles/pgxs.mk|src/test/regress/pg_regress|')" \
        prove test/t >build/logs/tap.log 2>&1; then
        count "$(grep -cE '^ok ' build/logs/tap.log || echo 1)" 0
    else
        cat build/logs/tap.log
        count 0 1
    fi
fi

fs_cluster_stop
echo
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
