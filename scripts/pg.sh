#!/usr/bin/env bash
# scripts/pg.sh VERSION: a PostgreSQL server of major version VERSION (17 or 18) built from
# Debian's own source package, for `make test PG=VERSION`. Debian 12 ships only 15 as binaries;
# the source packages of 17 (trixie) and 18 (sid) come from the archive this machine already
# uses: the deb-src lines are derived from its apt configuration (/etc/apt/sources.list and
# /etc/apt/sources.list.d/*), written to a private apt configuration in the cache, so that the
# machine's own apt sources and package lists stay as they are. Only the source is downloaded
# (no build dependency is installed from those suites; the few Debian 12 packages the build
# needs are).
#
# The build goes into a cache outside the checkout, keyed on the source package's version:
#     ${FS_PG_CACHE:-/var/cache/fairsched}/pg-VERSION/SOURCE-VERSION/{bin,lib,include,share}
# (its build tree in pg-VERSION/build-SOURCE-VERSION, kept so that what a later recipe adds
# builds alone) and pg-VERSION/current points at the last one built. A second run, or CI's fresh clone on
# the same machine, finds it and costs nothing (it does not even ask the archive); set
# FS_PG_REFRESH=1 to ask the archive for a newer source version.
#
# Only what the tests need is built: the server with its headers and PGXS, plpgsql, initdb,
# pg_ctl, psql, createdb/dropdb, pgbench, pg_dump/pg_restore, pg_regress and amcheck (the dump
# test checks the restored indexes with it). The last line of
# output is the path of pg_config.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

VERSION=${1:-}
case "$VERSION" in
    17) SUITE=trixie ;;
    18) SUITE=sid ;;
    *)
        echo "usage: scripts/pg.sh VERSION, VERSION 17 (Debian trixie's source) or 18 (sid's)" >&2
        exit 2
        ;;
esac
CACHE=${FS_PG_CACHE:-/var/cache/fairsched}
TOP=$CACHE/pg-$VERSION

# what is built (the list below): a build of an older recipe is built again
RECIPE=2
if [ -z "${FS_PG_REFRESH:-}" ] && [ -x "$TOP/current/bin/pg_config" ] \
    && [ "$(cat "$TOP/current/recipe" 2>/dev/null)" = "$RECIPE" ]; then
    echo "$(readlink -f "$TOP/current")/bin/pg_config"
    exit 0
fi

if [ "$(id -u)" != 0 ] && ! mkdir -p "$TOP" 2>/dev/null; then
    echo "scripts/pg.sh: cannot write $TOP; run it as root once, or set FS_PG_CACHE" >&2
    exit 1
fi
mkdir -p "$TOP"
exec 8>"$TOP/.lock"
flock 8 # one build of a version at a time on the machine

# the Debian 12 packages the build needs (as root; otherwise say which)
FS_PACKAGES="build-essential bison flex libreadline-dev zlib1g-dev libicu-dev pkg-config
    dpkg-dev perl"
fs_deps

# deb-src lines for $SUITE: the URIs and keyring of the entries that serve the machine's own
# Debian release (not its -security or -updates suites), in one-line or deb822 format
apt_dir=$TOP/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
release=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
{
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        # deb [options] URI SUITE COMPONENTS...
        sed -nE "s|^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+${release}[[:space:]].*|\1\2|p" "$f" \
            | sed -E "s|^(.*)$|deb-src \1 $SUITE main|"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822 stanzas: Types, URIs, Suites, Signed-By
        awk -v rel="$release" -v suite="$SUITE" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " rel " ") && uris != "") {
                    n = split(uris, u, " ")
                    for (i = 1; i <= n; i++)
                        printf "deb-src %s%s %s main\n", (signed != "" ? "[signed-by=" signed "] " : ""), u[i], suite
                }
                types = uris = suites = signed = ""
            }
            /^[[:space:]]*$/ { flush(); next }
            /^#/ { next }
            tolower($1) == "types:" { $1 = ""; types = substr($0, 2) }
            tolower($1) == "uris:" { $1 = ""; uris = substr($0, 2) }
            tolower($1) == "suites:" { $1 = ""; suites = substr($0, 2) }
            tolower($1) == "signed-by:" { $1 = ""; signed = substr($0, 2) }
            END { flush() }' "$f"
    done
} | sort -u >"$apt_dir/sources.list"
if ! [ -s "$apt_dir/sources.list" ]; then
    echo "scripts/pg.sh: no Debian $release archive found in /etc/apt/sources.list{,.d}" >&2
    echo "to derive deb-src lines from; add one, e.g. 'deb URI $release main'" >&2
    exit 1
fi
APT=(apt-get -q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/parts"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=root")
fs_log "deb-src for $SUITE: $(tr '\n' ' ' <"$apt_dir/sources.list")"
"${APT[@]}" update >"$TOP/apt-update.log" 2>&1 || { cat "$TOP/apt-update.log" >&2; exit 1; }

dl=$TOP/download
rm -rf "$dl" && mkdir -p "$dl"
if ! (cd "$dl" && "${APT[@]}" source --download-only "postgresql-$VERSION" >"$TOP/apt-source.log" 2>&1); then
    cat "$TOP/apt-source.log" >&2
    # the archive lists the package but does not serve its files: 3, which .ci/run reports
    # as a version not tested rather than a failure
    grep -q '404' "$TOP/apt-source.log" && exit 3
    exit 1
fi
dsc=$(ls "$dl"/postgresql-"$VERSION"_*.dsc)
srcversion=$(sed -n 's/^Version: //p' "$dsc")
prefix=$TOP/$srcversion
if [ -x "$prefix/bin/pg_config" ] && [ "$(cat "$prefix/recipe" 2>/dev/null)" = "$RECIPE" ]; then
    ln -sfn "$srcversion" "$TOP/current"
    rm -rf "$dl"
    echo "$prefix/bin/pg_config"
    exit 0
fi

# the build tree of this source version; a build stopped half-way goes on where it was
tree=$TOP/build-$srcversion
fs_log "building PostgreSQL $srcversion into $prefix (in $tree)"
start=$(date +%s)
if ! [ -f "$tree/configure" ]; then
    rm -rf "$tree" && mkdir -p "$tree"
    tar -C "$tree" --strip-components=1 -xf "$(ls "$dl"/postgresql-"$VERSION"_*.orig.tar.*)"
fi
cd "$tree"
# the system's time-zone data, as Debian's packages use it; no LLVM, no docs
if ! [ -f config.status ]; then
    ./configure --prefix="$prefix" --with-icu --with-system-tzdata=/usr/share/zoneinfo \
        --without-llvm >"$TOP/configure.log" 2>&1 || { tail -n 40 "$TOP/configure.log" >&2; rm -f config.status; exit 1; }
fi
build() {
    set -e
    nice -n 10 make -s -C src/backend generated-headers
    nice -n 10 make -s -j2 -C src/port
    nice -n 10 make -s -j2 -C src/common
    nice -n 10 make -s -j2 -C src/backend
    for d in src/include src/backend src/backend/utils/mb/conversion_procs src/backend/snowball \
        src/timezone src/pl/plpgsql src/interfaces/libpq src/bin/initdb src/bin/pg_ctl \
        src/bin/psql src/bin/scripts src/bin/pgbench src/bin/pg_dump src/bin/pg_config \
        src/test/regress src/makefiles config contrib/amcheck; do
        nice -n 10 make -s -j2 -C "$d" install
    done
    nice -n 10 make -s -C src install-local
}
# a subshell that is not the test of an `if`, so that set -e stops it at its first failing step
(build) >"$TOP/build.log" 2>&1 &
wait $! || { tail -n 40 "$TOP/build.log" >&2; exit 1; }
cd "$TOP"
echo "$RECIPE" >"$prefix/recipe"
# the build tree stays: a later recipe builds only what it adds
rm -rf "$dl"
ln -sfn "$srcversion" "$TOP/current"
# initdb refuses root: the cluster owner reads the installation
chmod -R a+rX "$prefix"
fs_log "built PostgreSQL $srcversion in $(($(date +%s) - start))s"
echo "$prefix/bin/pg_config"
