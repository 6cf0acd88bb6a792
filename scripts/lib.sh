# scripts/lib.sh: what `make test`, `make demo`, `make bench` and CI share: the Debian packages,
# the build and install, and a throwaway PostgreSQL cluster. Source it; do not run it.
#
# The cluster lives in a fresh temporary directory, listens only on a Unix socket there (on a
# port no other server uses), is owned by the `postgres` user when we are root (initdb refuses
# root), and is stopped and removed on exit, also when a step fails.

# PostgreSQL 15 from Debian's packages, or (PG=17, PG=18: `make test PG=18`) the server that
# scripts/pg.sh builds from Debian's source package into a cache (or, when the source cannot be
# fetched, Debian's binary packages in a Debian root there, run through wrappers); fs_pg_select
# picks it, and the test scripts it runs inherit the choice through FS_PG_BIN.
PG_BIN=${FS_PG_BIN:-/usr/lib/postgresql/15/bin}
PG_CONFIG=$PG_BIN/pg_config
export PG_CONFIG

# The major version under test (PG, default 15): 15 is Debian's package, anything else is built.
fs_pg_select() {
    [ -n "${PG:-}" ] && [ "$PG" != 15 ] && [ -z "${FS_PG_BIN:-}" ] || return 0
    local pgc
    pgc=$(scripts/pg.sh "$PG" | tail -n 1)
    [ -x "$pgc" ] || { echo "scripts/pg.sh $PG gave no pg_config" >&2; exit 1; }
    FS_PG_BIN=$(dirname "$pgc")
    PG_BIN=$FS_PG_BIN
    PG_CONFIG=$pgc
    # a server in a Debian root (scripts/pg.sh's fallback): its wrappers show it this checkout
    FS_CHECKOUT=$(pwd)
    export FS_PG_BIN PG_CONFIG FS_CHECKOUT
}
# true when the version under test runs in a Debian root through wrappers (scripts/pg_root.sh)
fs_pg_in_root() { [ -f "$PG_BIN/.fs-root-exec" ]; }
# true when the version under test is Debian's package of 15
fs_pg_is_debian() { [ -z "${FS_PG_BIN:-}" ]; }

# the last line: what make deb and the package, README and chart tests need
FS_PACKAGES="postgresql-15 postgresql-server-dev-15 make gcc clang libclang-rt-14-dev valgrind
    build-essential debhelper dpkg-dev postgresql-server-dev-all git unzip librsvg2-bin"

fs_log() { printf '\n==> %s\n' "$*"; }

# Install the Debian packages that are missing (as root); otherwise say how and stop.
fs_deps() {
    local missing="" p
    for p in $FS_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "fairsched needs these Debian packages:$missing" >&2
        echo "install them as root with:" >&2
        echo "    apt-get update && apt-get install -y --no-install-recommends$missing" >&2
        exit 1
    fi
    fs_log "installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# Build with -Wall -Wextra -Werror (WERROR=1) and install the extension.
fs_build_install() {
    fs_log "building and installing the extension"
    # the objects are a build for one PostgreSQL: for another (make test PG=18 after make test,
    # in one checkout), start over
    if [ "$(cat build/pg_config 2>/dev/null || true)" != "$PG_CONFIG" ]; then
        find src -name '*.o' -delete
        rm -f fairsched.so
        mkdir -p build && echo "$PG_CONFIG" >build/pg_config
    fi
    make -s PG_CONFIG="$PG_CONFIG" WERROR=1 >/dev/null
    if [ "$(id -u)" = 0 ]; then
        make -s PG_CONFIG="$PG_CONFIG" WERROR=1 install >/dev/null
    else
        sudo -n make -s PG_CONFIG="$PG_CONFIG" WERROR=1 install >/dev/null
    fi
}

# Run a command as the cluster owner. The wrappers of a server in a Debian root run initdb,
# pg_ctl and postgres as the root's postgres user themselves, and need root to enter it.
fs_as_owner() {
    if [ "$(id -u)" = 0 ] && ! fs_pg_in_root; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

FS_CLUSTER_DIR=""

fs_cluster_stop() {
    [ -n "$FS_CLUSTER_DIR" ] || return 0
    if [ -f "$FS_CLUSTER_DIR/data/postmaster.pid" ]; then
        fs_as_owner "$PG_BIN/pg_ctl" -D "$FS_CLUSTER_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$FS_CLUSTER_DIR"
    FS_CLUSTER_DIR=""
}

fs_free_port() {
    local p
    for p in $(seq $((50000 + RANDOM % 10000)) 60999); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# Start a throwaway cluster and export PGHOST, PGPORT, PGUSER for psql and pg_regress.
fs_cluster_start() {
    FS_CLUSTER_DIR=$(mktemp -d /tmp/fairsched-cluster.XXXXXX)
    trap fs_cluster_stop EXIT
    trap 'exit 130' INT TERM
    chmod 755 "$FS_CLUSTER_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$FS_CLUSTER_DIR"
    local port
    port=$(fs_free_port)
    fs_log "starting a throwaway cluster in $FS_CLUSTER_DIR (socket only, port $port)"
    fs_as_owner "$PG_BIN/initdb" -D "$FS_CLUSTER_DIR/data" -U postgres -A trust \
        --no-locale -E UTF8 >"$FS_CLUSTER_DIR/initdb.log" 2>&1 \
        || { cat "$FS_CLUSTER_DIR/initdb.log" >&2; return 1; }
    fs_as_owner "$PG_BIN/pg_ctl" -D "$FS_CLUSTER_DIR/data" -l "$FS_CLUSTER_DIR/server.log" -w \
        -o "-c listen_addresses='' -k $FS_CLUSTER_DIR -p $port -c fsync=off" start >/dev/null \
        || { cat "$FS_CLUSTER_DIR/server.log" >&2; return 1; }
    export PGHOST="$FS_CLUSTER_DIR" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

# The extension is installed system-wide, and other checkouts on the machine may install theirs:
# hold this lock from the install until the last test that uses the installed files is done.
# One lock per installation: Debian's 15, or a PostgreSQL of scripts/pg.sh's cache (its bindir).
FS_INSTALL_LOCK=/tmp/fairsched-install.lock
fs_install_lock() {
    fs_pg_is_debian \
        || FS_INSTALL_LOCK=/tmp/fairsched-install-$(printf '%s' "$FS_PG_BIN" | cksum | cut -d' ' -f1).lock
    exec 9>"$FS_INSTALL_LOCK"
    flock 9
    export FS_INSTALL_LOCKED=1
}

# What a test script run on its own needs (the lock, the build installed, a throwaway cluster);
# under `make test`, which did all that and exports FS_UNDER_TEST=1, nothing.
fs_standalone_setup() {
    [ -n "${FS_UNDER_TEST:-}" ] && return 0
    fs_deps
    fs_pg_select
    fs_install_lock
    fs_build_install
    fs_cluster_start
}

# Counting checks: fs_check NAME COMMAND... runs the command with its output in build/logs/NAME.log,
# prints "ok NAME" or "FAILED NAME" with the log's tail; fs_tally prints "N passed, N failed" and
# returns non-zero on a failure. The command runs in a subshell of its own that is not the test of
# an `if`, so that `set -e` stops it at its first failing step (bash ignores -e inside a
# function called as a condition).
FS_PASSED=0
FS_FAILED=0
fs_check() {
    local name=$1 log
    shift
    mkdir -p build/logs
    log="build/logs/$name.log"
    ("$@") >"$log" 2>&1 &
    if wait $!; then
        echo "ok $name"
        FS_PASSED=$((FS_PASSED + 1))
    else
        echo "FAILED $name"
        tail -n 40 "$log" | sed 's/^/    /'
        FS_FAILED=$((FS_FAILED + 1))
    fi
}
fs_tally() {
    echo "$FS_PASSED passed, $FS_FAILED failed"
    [ "$FS_FAILED" = 0 ]
}
