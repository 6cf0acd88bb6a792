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
# When the archive lists the source package but does not serve its files (trixie's 17 in 2026),
# Debian's binary packages of the same suite are used instead, in a Debian root that debootstrap
# makes in the same cache (pg_root_fallback below, scripts/pg_root.sh); when that fails too, it
# exits 3, its last line saying why.
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
# the fallback's (below): its number, and the wrapper it copies, written again when either changes
ROOT_RECIPE="root-1-$(sha1sum scripts/pg_root.sh | cut -c1-12)"
if [ -z "${FS_PG_REFRESH:-}" ] && [ -x "$TOP/current/bin/pg_config" ]; then
    case $(cat "$TOP/current/recipe" 2>/dev/null) in
        "$RECIPE" | "$ROOT_RECIPE")
            echo "$(readlink -f "$TOP/current")/bin/pg_config"
            exit 0
            ;;
    esac
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
# The fallback, for a version whose source package the archive lists but does not serve while it
# serves the binary packages (trixie's 17 in 2026): those are built for a newer Debian than this
# machine's, so they run in a Debian $SUITE root of their own, made with debootstrap from the
# mirror of the first deb-src line above (its URI and keyring) into $TOP/root-$SUITE, with
# postgresql-$VERSION and postgresql-server-dev-$VERSION installed by the root's own apt. The
# host sees it through $TOP/binary-PACKAGEVERSION/, the PG_BIN of `make test PG=$VERSION`:
#   bin/psql, bin/pg_ctl, ...  a wrapper per program of the root's bindir: scripts/pg_root.sh
#                              (copied as bin/.fs-root-exec) runs it in the root, with /tmp and
#                              the checkout at their host paths (private mount namespace)
#   bin/pg_config              the root's answers, its paths as the host reaches them (under the
#                              root), but --bindir (these wrappers) and --pgxs (below): the
#                              extension is compiled by the host's gcc against the root's headers
#                              (the .so needs only libc, which the root's newer glibc runs) and
#                              `make install` writes into the root's pkglibdir and sharedir
#   pgxs/                      a copy of the root's lib/pgxs, without LLVM bitcode (the root's
#                              clang is not the host's) and with pg_regress a wrapper that gives
#                              the root's pg_regress the root's bindir
# Once made, the root stays; FS_PG_REFRESH=1 asks the archive again (the source first) and
# upgrades the root's packages.
pg_root_unavailable() {
    echo "scripts/pg.sh: PostgreSQL $VERSION: the source package cannot be fetched, and $*" >&2
    exit 3
}
pg_root_fallback() {
    local root=$TOP/root-$SUITE line uri keyring ver prefix tmp p start
    start=$(date +%s)
    fs_log "the source of postgresql-$VERSION cannot be fetched: Debian $SUITE's binary packages in a root ($root)"
    if [ "$(id -u)" != 0 ]; then
        echo "scripts/pg.sh: a Debian root (debootstrap, chroot) needs root; run it as root once" >&2
        exit 1
    fi
    # shellcheck disable=SC2034 # fs_deps reads it
    FS_PACKAGES="debootstrap"
    fs_deps
    line=$(head -n 1 "$apt_dir/sources.list")
    uri=$(sed -E 's/^deb-src[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/' <<<"$line")
    keyring=$(sed -nE 's/^deb-src[[:space:]]+\[([^]]*[[:space:]])?signed-by=([^][:space:]]+).*/\2/p' <<<"$line")
    if ! [ -f "$root/.fairsched-root" ]; then
        rm -rf "$root.partial"
        fs_log "debootstrap $SUITE from $uri into $root"
        debootstrap --variant=minbase ${keyring:+--keyring="$keyring"} "$SUITE" "$root.partial" "$uri" \
            >"$TOP/debootstrap.log" 2>&1 || {
            tail -n 5 "$TOP/debootstrap.log" >&2
            pg_root_unavailable "debootstrap $SUITE from $uri failed (log: $TOP/debootstrap.log)"
        }
        # no service is started in the root and no default cluster is created
        printf '#!/bin/sh\nexit 101\n' >"$root.partial/usr/sbin/policy-rc.d"
        chmod 755 "$root.partial/usr/sbin/policy-rc.d"
        mkdir -p "$root.partial/etc/postgresql-common/createcluster.d"
        echo 'create_main_cluster = false' >"$root.partial/etc/postgresql-common/createcluster.d/fairsched.conf"
        # the root's postgres user is the host's (same uid and gid: both own the clusters in /tmp)
        if id postgres >/dev/null 2>&1; then
            chroot "$root.partial" groupadd --system --gid "$(id -g postgres)" postgres
            chroot "$root.partial" useradd --system --uid "$(id -u postgres)" --gid postgres \
                --home-dir /var/lib/postgresql --shell /bin/bash postgres
        fi
        touch "$root.partial/.fairsched-root"
        mv "$root.partial" "$root"
    fi
    fs_log "installing postgresql-$VERSION and postgresql-server-dev-$VERSION with the root's apt"
    if ! {
        DEBIAN_FRONTEND=noninteractive scripts/pg_root.sh "$root" /usr/bin/apt-get -q update \
            && DEBIAN_FRONTEND=noninteractive scripts/pg_root.sh "$root" /usr/bin/apt-get -q install \
                -y --no-install-recommends "postgresql-$VERSION" "postgresql-server-dev-$VERSION"
    } >"$TOP/root-apt.log" 2>&1; then
        tail -n 5 "$TOP/root-apt.log" >&2
        pg_root_unavailable "the root's apt-get could not install postgresql-$VERSION (log: $TOP/root-apt.log)"
    fi
    ver=$(chroot "$root" dpkg-query -W -f='${Version}' "postgresql-$VERSION")
    prefix=$TOP/binary-$ver
    if ! [ -x "$prefix/bin/pg_config" ] || [ "$(cat "$prefix/recipe" 2>/dev/null)" != "$ROOT_RECIPE" ]; then
        tmp=$prefix.partial
        rm -rf "$tmp" && mkdir -p "$tmp/bin"
        cp scripts/pg_root.sh "$tmp/bin/.fs-root-exec"
        for p in "$root/usr/lib/postgresql/$VERSION/bin"/*; do
            p=${p##*/}
            [ "$p" = pg_config ] && continue
            printf '#!/bin/sh\nexec %s %s %s "$@"\n' "$prefix/bin/.fs-root-exec" "$root" \
                "/usr/lib/postgresql/$VERSION/bin/$p" >"$tmp/bin/$p"
        done
        # pg_config: the root's answers (NAME = value), its paths under the root
        chroot "$root" "/usr/lib/postgresql/$VERSION/bin/pg_config" | awk -v root="$root" -v prefix="$prefix" '
            {
                name = substr($0, 1, index($0, " = ") - 1); value = substr($0, index($0, " = ") + 3)
                if (name == "BINDIR") value = prefix "/bin"
                else if (name == "PGXS") value = prefix "/pgxs/src/makefiles/pgxs.mk"
                else if (name ~ /DIR(-SERVER)?$/) value = root value
                print name " = " value
            }' >"$tmp/pg_config.txt"
        {
            echo '#!/bin/sh'
            echo "# pg_config of Debian $SUITE's PostgreSQL $ver in $root, as the host sees it (scripts/pg.sh)"
            echo "f=$prefix/pg_config.txt"
            # shellcheck disable=SC2016
            echo '[ $# -gt 0 ] || exec cat "$f"
for a; do
    n=$(printf "%s" "$a" | sed "s/^--//" | tr a-z A-Z)
    awk -v n="$n" '\''index($0, n " = ") == 1 { print substr($0, length(n) + 4); found = 1 }
        END { exit !found }'\'' "$f" || { echo "pg_config: invalid argument: $a" >&2; exit 1; }
done'
        } >"$tmp/bin/pg_config"
        cp -a "$root/usr/lib/postgresql/$VERSION/lib/pgxs" "$tmp/pgxs"
        sed -i -E 's/^with_llvm([[:space:]]*)=.*/with_llvm\1= no/' "$tmp/pgxs/src/Makefile.global"
        {
            echo '#!/usr/bin/env bash'
            echo "# the root's pg_regress, given the root's bindir (scripts/pg.sh)"
            echo 'args=()'
            echo 'for a; do'
            echo "    case \$a in --bindir=*) a=--bindir=/usr/lib/postgresql/$VERSION/bin ;; esac"
            echo '    args+=("$a")'
            echo 'done'
            echo "exec $prefix/bin/.fs-root-exec $root /usr/lib/postgresql/$VERSION/lib/pgxs/src/test/regress/pg_regress \"\${args[@]}\""
        } >"$tmp/pgxs/src/test/regress/pg_regress"
        chmod 755 "$tmp"/bin/* "$tmp/bin/.fs-root-exec" "$tmp/pgxs/src/test/regress/pg_regress"
        echo "$ROOT_RECIPE" >"$tmp/recipe"
        rm -rf "$prefix" && mv "$tmp" "$prefix"
    fi
    # the wrappers work: the root's psql runs, and pg_config answers as the root's does
    "$prefix/bin/psql" --version >/dev/null
    [ "$("$prefix/bin/pg_config" --version)" = "$(chroot "$root" "/usr/lib/postgresql/$VERSION/bin/pg_config" --version)" ]
    ln -sfn "binary-$ver" "$TOP/current"
    fs_log "PostgreSQL $ver from Debian $SUITE's packages in $root, ready in $(($(date +%s) - start))s"
    echo "$prefix/bin/pg_config"
}

fs_log "deb-src for $SUITE: $(tr '\n' ' ' <"$apt_dir/sources.list")"
"${APT[@]}" update >"$TOP/apt-update.log" 2>&1 || { cat "$TOP/apt-update.log" >&2; exit 1; }

dl=$TOP/download
rm -rf "$dl" && mkdir -p "$dl"
if ! (cd "$dl" && "${APT[@]}" source --download-only "postgresql-$VERSION" >"$TOP/apt-source.log" 2>&1); then
    cat "$TOP/apt-source.log" >&2
    # the archive lists the package but does not serve its files: Debian's binary packages of
    # the same suite, in a root of their own (below); when those cannot be had either, 3, which
    # .ci/run reports as a version not tested rather than a failure
    if grep -q '404' "$TOP/apt-source.log"; then
        rm -rf "$dl"
        pg_root_fallback
        exit 0
    fi
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
