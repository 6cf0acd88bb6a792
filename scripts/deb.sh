#!/usr/bin/env bash
# `make deb`: the Debian package postgresql-15-fairsched, built the way Debian builds PostgreSQL
# extensions (dpkg-buildpackage, debhelper, pg_buildext over debian/pgversions), from a copy of the
# source tree in build/deb/, so that the checkout stays clean. The .deb lands in build/.
#
# By default the build runs the regression suites against the packaged files in a temporary
# cluster (dh_pgxs_test), as a Debian build does; DEB_BUILD_OPTIONS=nocheck skips them (make test
# does: it runs the suites itself and then installs the package, test/deb_test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

case " ${DEB_BUILD_OPTIONS:-} " in
    *" nocheck "*) export DEB_BUILD_PROFILES="nocheck ${DEB_BUILD_PROFILES:-}" ;;
    *) FS_PACKAGES="$FS_PACKAGES postgresql-all" ;; # the <!nocheck> build dependency
esac
fs_deps

# the package version follows the extension's: 0.1.0-1 packages EXTVERSION 0.1.0
debversion=$(dpkg-parsechangelog -S Version)
extversion=$(make -s print-EXTVERSION | sed 's/^EXTVERSION=//')
if [ "${debversion%-*}" != "$extversion" ]; then
    echo "debian/changelog is at $debversion but the extension is $extversion:" >&2
    echo "add an entry, e.g. dch -v $extversion-1 'New upstream release.'" >&2
    exit 1
fi

fs_log "building postgresql-15-fairsched $debversion (dpkg-buildpackage)"
src=build/deb/fairsched-$extversion
rm -rf build/deb
mkdir -p "$src"
# the files git knows (tracked, and new ones not ignored), as they are in the work tree;
# outside a git checkout (an unpacked PGXN zip), everything but build/
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
        | tar --null -T - -cf - | tar -xf - -C "$src"
else
    tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) >build/deb/build.log 2>&1; then
    tail -n 60 build/deb/build.log >&2
    echo "dpkg-buildpackage failed; the whole log is in build/deb/build.log" >&2
    exit 1
fi
# one package per PostgreSQL in debian/pgversions that the system has (15 on Debian 12)
rm -f build/postgresql-*-fairsched_*.deb
mv build/deb/postgresql-*-fairsched_"$debversion"_*.deb build/
ls build/postgresql-*-fairsched_*.deb
