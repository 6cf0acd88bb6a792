#!/usr/bin/env bash
# The Debian package as a site installs it: `apt-get install ./postgresql-15-fairsched_*.deb`
# (no make install), CREATE EXTENSION fairsched and a smoke query in a throwaway cluster, then
# `apt-get remove`, after which the module, control file and scripts are gone. Root only (it
# installs a package); otherwise it says so and counts nothing. Uses build/'s .deb, building it
# first (make deb, without the package's own regression run) when there is none.
#
# The package's files are the ones `make install` writes (/usr/lib/postgresql/15/lib/fairsched.so,
# /usr/share/postgresql/15/extension/fairsched*): dpkg takes them over on install and deletes them
# on remove. So this test holds the install lock from install to remove; under `make test` it
# installs the build again afterwards, as make test had it; run on its own it leaves the
# extension uninstalled (the next `make install` restores it).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

PKG=postgresql-15-fairsched
if [ "$(id -u)" != 0 ]; then
    echo "skipped: the Debian package test installs $PKG with apt-get and needs root"
    echo "(make test as root runs it, as CI does)"
    echo "0 passed, 0 failed"
    exit 0
fi

debversion=$(dpkg-parsechangelog -S Version 2>/dev/null || true)
deb=build/${PKG}_${debversion}_$(dpkg --print-architecture).deb
if [ -z "$debversion" ] || [ ! -f "$deb" ]; then
    DEB_BUILD_OPTIONS=nocheck scripts/deb.sh
    debversion=$(dpkg-parsechangelog -S Version)
    deb=build/${PKG}_${debversion}_$(dpkg --print-architecture).deb
fi
extversion=$(make -s print-EXTVERSION | sed 's/^EXTVERSION=//')
if [ -z "${FS_UNDER_TEST:-}" ]; then
    fs_install_lock
    fs_cluster_start
fi
APT="apt-get -y -q -o DPkg::Lock::Timeout=300"
export DEBIAN_FRONTEND=noninteractive
SO=$($PG_CONFIG --pkglibdir)/fairsched.so
EXTDIR=$($PG_CONFIG --sharedir)/extension

# apt reads the file as its sandbox user: give it a copy it can read
work=$(mktemp -d /tmp/fairsched-deb.XXXXXX)
chmod 755 "$work"
cp "$deb" "$work/"
chmod 644 "$work/$(basename "$deb")"
installed() { dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'install ok installed'; }
cleanup() {
    installed && $APT remove "$PKG" >/dev/null 2>&1
    rm -rf "$work"
    fs_cluster_stop
}
trap cleanup EXIT

install_package() {
    installed && $APT remove "$PKG"
    $APT install --no-install-recommends "$work/$(basename "$deb")"
    installed
    # every file as the package shipped it, the module and the scripts at PostgreSQL's paths
    dpkg --verify "$PKG"
    dpkg -S "$SO" | grep -q "^$PKG: "
    dpkg -S "$EXTDIR/fairsched.control" | grep -q "^$PKG: "
    dpkg -S "$EXTDIR/fairsched--$extversion.sql" | grep -q "^$PKG: "
    dpkg -L "$PKG"
}

smoke() {
    "$PG_BIN/dropdb" --if-exists fs_deb
    "$PG_BIN/createdb" fs_deb
    # the README's first examples: Getting started, and the PBS design page PP-718's tree (
    # Bob 0.125 / 0.648, Suzy 0.5 / 0.382)
    "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -d fs_deb >"$work/smoke.out" <<'SQL'
CREATE EXTENSION fairsched;
SET search_path = public, fairsched;
SELECT extversion FROM pg_extension WHERE extname = 'fairsched';
SELECT owner, sum(used) FROM (VALUES
    ('alice', 'ncpus=32,mem=64gb,walltime=02:00:00'::resvec),
    ('alice', 'cpu=8,mem=16G,node=1,billing=8'), ('bob', 'ncpus=4,mem=200gb,walltime=04:00:00')) AS j(owner, used)
GROUP BY owner ORDER BY owner;
SELECT path, round(effective_usage::numeric, 3), round(fairshare::numeric, 3)
FROM fairshare((SELECT share_tree(p::sharepath, s, u)
                FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
                             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
                     AS rows(p, s, u)))
WHERE path IN ('group1.Bob', 'group2.Suzy') ORDER BY path;
SQL
    cat >"$work/smoke.expected" <<EOF
$extversion
alice|billing=8,cpu=8,mem=80gb,ncpus=32,node=1,walltime=02:00:00
bob|mem=200gb,ncpus=4,walltime=04:00:00
group1.Bob|0.125|0.648
group2.Suzy|0.500|0.382
EOF
    diff -u "$work/smoke.expected" "$work/smoke.out"
}

remove_package() {
    $APT remove "$PKG"
    ! installed
    local f
    for f in "$SO" "$EXTDIR/fairsched.control" "$EXTDIR/fairsched--$extversion.sql"; do
        if [ -e "$f" ]; then
            echo "$f is still there after apt-get remove"
            return 1
        fi
    done
    # and the server no longer finds the extension
    "$PG_BIN/createdb" fs_deb_gone
    if "$PG_BIN/psql" -X -q -d fs_deb_gone -c 'CREATE EXTENSION fairsched' 2>"$work/gone.err"; then
        echo "CREATE EXTENSION fairsched still works after the package was removed"
        return 1
    fi
    cat "$work/gone.err"
    grep -q 'extension "fairsched" is not available\|could not open extension control file' "$work/gone.err"
    "$PG_BIN/dropdb" fs_deb_gone
    "$PG_BIN/dropdb" fs_deb
}

fs_log "the Debian package: apt-get install, CREATE EXTENSION, apt-get remove"
fs_check deb_install install_package
if installed; then
    fs_check deb_create_extension smoke
    fs_check deb_remove remove_package
fi
# make test goes on with (and leaves) the extension installed from this checkout
if [ -n "${FS_UNDER_TEST:-}" ]; then
    fs_build_install >/dev/null
fi
fs_tally
