#!/usr/bin/env bash
# `make dist`: the PGXN release zip, build/fairsched-<version>.zip, from `git archive` of HEAD
# (what is committed, not the work tree), after checking that META.json, the Makefile's
# EXTVERSION, fairsched.control and debian/changelog name the same version.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(make -s print-EXTVERSION | sed 's/^EXTVERSION=//')
fail() { echo "make dist: $*" >&2; exit 1; }
meta_version() { sed -n "s/^$1\"version\": \"\\([^\"]*\\)\".*/\\1/p" META.json; }
[ "$(meta_version '   ')" = "$version" ] \
    || fail "META.json's version is $(meta_version '   '), the Makefile's EXTVERSION $version"
[ "$(meta_version '         ')" = "$version" ] \
    || fail "META.json provides fairsched $(meta_version '         '), the Makefile's EXTVERSION is $version"
grep -q "^default_version = '$version'$" fairsched.control \
    || fail "fairsched.control's default_version is not $version"
debversion=$(dpkg-parsechangelog -S Version 2>/dev/null || sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
[ "${debversion%-*}" = "$version" ] || fail "debian/changelog is at $debversion, not $version-N"
git rev-parse --verify -q HEAD >/dev/null || fail "not in a git checkout with a commit"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "make dist: the work tree has uncommitted changes; the zip holds HEAD without them" >&2
fi
mkdir -p build
zip=build/fairsched-$version.zip
git archive --format=zip --prefix="fairsched-$version/" -o "$zip" HEAD
echo "$zip"
