#!/usr/bin/env bash
# The layer rule of docs/architecture.md, checked on the sources (no build, no server):
#   - src/core is plain C99: its quoted includes are files of src/core, its <...> includes are
#     standard C headers; no PostgreSQL header;
#   - src/core/types includes only the base (fs_core.h) and types/; each concern folder of
#     src/core (share, placement, load, msic, priority) includes only the base, types/ and itself: no
#     include between concerns;
#   - each concern folder of src/pg includes, of the core, only types/ and its own concern, and
#     of the glue only the base (fs_pg.h, fs_expanded.h) and its own folder.
# Prints "ok RULE" or the offending lines, then "N passed, N failed".
set -uo pipefail
shopt -s lastpipe # the counts live in this shell: the last command of a pipeline runs here
cd "$(dirname "$0")/.."

CONCERNS="share placement load msic priority"
STD_C="float.h limits.h math.h stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h ctype.h errno.h assert.h"
passed=0
failed=0

# rule NAME: reads "file:line:text" offenders on stdin
rule() {
    local bad
    bad=$(cat)
    if [ -z "$bad" ]; then
        echo "ok $1"
        passed=$((passed + 1))
    else
        echo "FAILED $1"
        sed 's/^/    /' <<<"$bad"
        failed=$((failed + 1))
    fi
}

# quoted includes of files under DIR, as "file:line:header"
quoted() { grep -rnoE '^#include "[^"]+"' "$@" | sed -E 's/#include "([^"]+)"/\1/'; }

quoted src/core | while IFS=: read -r f n h; do
    [ -f "src/core/$h" ] || [ -f "$(dirname "$f")/$h" ] || echo "$f:$n: $h is not a file of src/core"
done | rule "src/core includes only its own headers"

grep -rnoE '^#include <[^>]+>' src/core | sed -E 's/#include <([^>]+)>/\1/' |
    while IFS=: read -r f n h; do
        [[ " $STD_C " == *" $h "* ]] || echo "$f:$n: <$h> is not a standard C header"
    done | rule "src/core includes only standard C headers"

quoted src/core/types | while IFS=: read -r f n h; do
    case "$h" in fs_core.h | types/*) ;; *) echo "$f:$n: $h" ;; esac
done | rule "src/core/types includes only the base and types/"

for c in $CONCERNS; do
    quoted "src/core/$c" | while IFS=: read -r f n h; do
        case "$h" in fs_core.h | types/* | "$c"/*) ;; *) echo "$f:$n: $h" ;; esac
    done | rule "src/core/$c includes only the base, types/ and $c/"
    [ -d "src/pg/$c" ] || continue
    quoted "src/pg/$c" | while IFS=: read -r f n h; do
        if [ -f "src/core/$h" ]; then
            case "$h" in fs_core.h | types/* | "$c"/*) ;; *) echo "$f:$n: core $h" ;; esac
        elif [ -f "src/pg/$h" ]; then
            case "$h" in fs_pg.h | fs_expanded.h | "$c"/*) ;; *) echo "$f:$n: glue $h" ;; esac
        fi
    done | rule "src/pg/$c includes only types/, $c/ and the glue's base"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
