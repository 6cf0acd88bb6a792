# test/interop/slurm_lib.sh: a throwaway SLURM 22.05 on this machine, for the interop suite.
# Source it; do not run it. munge, MariaDB, slurmdbd, slurmctld and one slurmd run from a fresh
# temporary directory, on 127.0.0.1 and on ports no other process uses; slurm_stop (run on exit,
# also on failure) stops each by the pid it recorded and removes the directory.
#
# Every client command reads $SLURM_CONF. SLURM 22.05's clients reach munged at its default
# socket, /run/munge/munge.socket.2, whatever AuthInfo says (sacctmgr ignores AuthInfo=socket=
# for slurmdbd), so the suite runs in a mount namespace of its own (slurm_namespace) in which
# /run/munge is a folder of the temporary directory: the machine's /run/munge is not touched.

SLURM_PACKAGES="slurmctld slurmd slurmdbd slurm-client mariadb-server munge"
SLURM_DIR=""
SLURM_NODE_CPUS=${SLURM_NODE_CPUS:-16}
SLURM_CLUSTER=fsinterop

slurm_deps() {
    local missing="" p
    for p in $SLURM_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || { echo "the interop suite needs, as root: apt-get install$missing" >&2; return 1; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# a free TCP port on 127.0.0.1 (fs_free_port of scripts/lib.sh), not one handed out already
SLURM_PORTS=" "
slurm_port() {
    local p
    while :; do
        p=$(fs_free_port)
        case "$SLURM_PORTS" in *" $p "*) continue ;; esac
        SLURM_PORTS="$SLURM_PORTS$p "
        echo "$p"
        return 0
    done
}

# slurm_namespace "$0" "$@": re-run the calling script in a private mount namespace (once)
slurm_namespace() {
    [ -n "${SLURM_IN_NAMESPACE:-}" ] && return 0
    [ "$(id -u)" = 0 ] || { echo "the interop suite runs as root (daemons, a mount namespace)" >&2; exit 1; }
    SLURM_IN_NAMESPACE=1 exec unshare -m --propagation private bash "$@"
}

slurm_stop() {
    [ -n "$SLURM_DIR" ] || return 0
    local f pid ppid
    # jobs first, so that no slurmstepd outlives slurmd
    if [ -f "$SLURM_DIR/run/slurmctld.pid" ]; then
        squeue -h -o '%i' 2>/dev/null | xargs -r scancel >/dev/null 2>&1 || true
        for _ in $(seq 1 75); do [ -z "$(squeue -h -t R,CG -o %i 2>/dev/null)" ] && break; sleep 0.2; done
    fi
    # the reverse order of the start; each by the pid it wrote
    for f in run/slurmd run/slurmctld run/slurmdbd db/mariadb run/munged; do
        [ -f "$SLURM_DIR/$f.pid" ] || continue
        pid=$(cat "$SLURM_DIR/$f.pid" 2>/dev/null) || continue
        [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$pid" 2>/dev/null || true
    done
    # a job script left over (slurmd gone first): its slurmstepd, by the script's path
    for pid in $(pgrep -f "$SLURM_DIR/spool/" 2>/dev/null); do
        ppid=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
        [ "$(ps -o comm= -p "$ppid" 2>/dev/null)" = slurmstepd ] && kill "$ppid" 2>/dev/null
        kill "$pid" 2>/dev/null || true
    done
    if [ -n "${SLURM_KEEP:-}" ]; then
        echo "kept $SLURM_DIR (SLURM_KEEP)" >&2
    else
        rm -rf "$SLURM_DIR"
    fi
    SLURM_DIR=""
}

slurm_wait() { # slurm_wait SECONDS COMMAND...: until the command succeeds
    local n=$1
    shift
    for _ in $(seq 1 $((n * 5))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    "$@"
}

# slurm_write_conf FLAGS: slurm.conf with PriorityFlags=FLAGS (the rest fixed).
# No decay (PriorityDecayHalfLife=0; a half-life of 0 needs a reset period: YEARLY, next 1 January):
# every charge is then whole seconds times whole CPUs, so every usage is a whole number, and
# sshare's RawUsage, which is SLURM's long double cut to an integer, is exactly the usage SLURM
# normalises. With a decay, 14.999 prints as 14 and NormUsage from the printed numbers is off by
# up to 1/RawUsage (7 % there) wherever usage sits under more than one account.
slurm_write_conf() {
    cat >"$SLURM_DIR/etc/slurm.conf" <<CONF
ClusterName=$SLURM_CLUSTER
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$SLURM_CTLD_PORT
SlurmdPort=$SLURM_SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool/%n
SlurmctldPidFile=$SLURM_DIR/run/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/run/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
DebugFlags=Priority
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$SLURM_DBD_PORT
AccountingStorageEnforce=associations
JobCompType=jobcomp/none
PriorityType=priority/multifactor
PriorityCalcPeriod=1
PriorityDecayHalfLife=0
PriorityUsageResetPeriod=YEARLY
PriorityMaxAge=1:00:00
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=2000
PriorityWeightQOS=3000
PriorityWeightAssoc=500
PriorityWeightTRES=CPU=700,Mem=300
${1:+PriorityFlags=$1}
NodeName=fsnode1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$SLURM_NODE_CPUS RealMemory=64000 State=UNKNOWN
PartitionName=main Nodes=fsnode1 Default=YES MaxTime=120 PriorityJobFactor=2 State=UP
PartitionName=low Nodes=fsnode1 MaxTime=60 PriorityJobFactor=1 State=UP
CONF
}

# Start munge, MariaDB, slurmdbd, slurmctld and slurmd; export SLURM_CONF.
slurm_start() {
    SLURM_DIR=$(mktemp -d /tmp/fairsched-slurm.XXXXXX)
    chmod 755 "$SLURM_DIR"
    mkdir -p "$SLURM_DIR"/{etc,run,log,state,spool,db,munge}
    SLURM_CTLD_PORT=$(slurm_port)
    SLURM_SLURMD_PORT=$(slurm_port)
    SLURM_DBD_PORT=$(slurm_port)
    SLURM_DB_PORT=$(slurm_port)
    export SLURM_CONF="$SLURM_DIR/etc/slurm.conf"
    echo "slurm in $SLURM_DIR: slurmctld :$SLURM_CTLD_PORT, slurmd :$SLURM_SLURMD_PORT, slurmdbd :$SLURM_DBD_PORT, mariadb :$SLURM_DB_PORT"

    # munge: a fresh key, its socket in the directory (mounted on /run/munge)
    mkdir -p "$SLURM_DIR/munge-run" /run/munge
    mount --bind "$SLURM_DIR/munge-run" /run/munge
    mungekey -c -k "$SLURM_DIR/munge/munge.key" >/dev/null 2>&1 \
        || dd if=/dev/urandom of="$SLURM_DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 700 "$SLURM_DIR/munge"
    chmod 600 "$SLURM_DIR/munge/munge.key"
    munged --force --key-file="$SLURM_DIR/munge/munge.key" --socket=/run/munge/munge.socket.2 \
        --pid-file="$SLURM_DIR/run/munged.pid" --log-file="$SLURM_DIR/log/munged.log" \
        --seed-file="$SLURM_DIR/munge/munge.seed" --num-threads=2
    slurm_wait 10 test -S /run/munge/munge.socket.2

    # MariaDB on 127.0.0.1 only
    chown mysql: "$SLURM_DIR/db"
    mariadb-install-db --no-defaults --user=mysql --datadir="$SLURM_DIR/db" \
        --auth-root-authentication-method=normal >"$SLURM_DIR/log/mariadb-install.log" 2>&1
    (mariadbd --no-defaults --user=mysql --datadir="$SLURM_DIR/db" --bind-address=127.0.0.1 \
        --port="$SLURM_DB_PORT" --socket="$SLURM_DIR/db/mysql.sock" \
        --pid-file="$SLURM_DIR/db/mariadb.pid" --log-error="$SLURM_DIR/db/mariadb.log" \
        --innodb-buffer-pool-size=32M --skip-log-bin --innodb-flush-log-at-trx-commit=0 \
        </dev/null >/dev/null 2>&1 &)
    slurm_wait 60 mariadb --no-defaults -S "$SLURM_DIR/db/mysql.sock" -uroot -e 'select 1'
    mariadb --no-defaults -S "$SLURM_DIR/db/mysql.sock" -uroot -e \
        "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'interop'; CREATE USER 'slurm'@'localhost' IDENTIFIED BY 'interop';
         GRANT ALL ON *.* TO 'slurm'@'127.0.0.1'; GRANT ALL ON *.* TO 'slurm'@'localhost';"

    cat >"$SLURM_DIR/etc/slurmdbd.conf" <<CONF
AuthType=auth/munge
DbdAddr=127.0.0.1
DbdHost=localhost
DbdPort=$SLURM_DBD_PORT
SlurmUser=root
DebugLevel=info
LogFile=$SLURM_DIR/log/slurmdbd.log
PidFile=$SLURM_DIR/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$SLURM_DB_PORT
StorageUser=slurm
StoragePass=interop
StorageLoc=slurm_acct_db
CONF
    chmod 600 "$SLURM_DIR/etc/slurmdbd.conf"
    slurm_write_conf "${SLURM_PRIORITY_FLAGS:-}"
    SLURM_CONF="$SLURM_DIR/etc/slurmdbd.conf" slurmdbd
    slurm_wait 60 sacctmgr -i list cluster || { tail "$SLURM_DIR/log/slurmdbd.log" >&2; return 1; }
    sacctmgr -i add cluster "$SLURM_CLUSTER" >/dev/null
    slurmctld
    slurm_wait 60 scontrol ping
    slurmd -N fsnode1
    slurm_wait 60 sh -c "sinfo -h -N -o %T | grep -Eq '^(idle|mixed|allocated)'"
}

# Users for the jobs, in this namespace only: /etc/passwd and /etc/group are bind-mounted copies
# with the users added, so the machine's files are not touched.
slurm_users() { # slurm_users NAME...
    cp /etc/passwd "$SLURM_DIR/etc/passwd"
    cp /etc/group "$SLURM_DIR/etc/group"
    local u uid=61000
    for u in "$@"; do
        uid=$((uid + 1))
        echo "$u:x:$uid:$uid::/tmp:/bin/sh" >>"$SLURM_DIR/etc/passwd"
        echo "$u:x:$uid:" >>"$SLURM_DIR/etc/group"
    done
    mount --bind "$SLURM_DIR/etc/passwd" /etc/passwd
    mount --bind "$SLURM_DIR/etc/group" /etc/group
}

# The instant of the last priority calculation pass: the decay thread writes it, after each pass,
# to StateSaveLocation/priority_last_decay_ran (two packed 64-bit big-endian times: the last
# pass, the last usage reset). sprio prints the factors stored by that pass.
slurm_last_pass() {
    od -A n -t u1 -N 8 "$SLURM_DIR/state/priority_last_decay_ran" 2>/dev/null \
        | awk '{ for (i = 1; i <= NF; i++) v = v * 256 + $i } END { if (NR) printf "%d\n", v }'
}

# Wait for the first pass that starts after now (jobs submitted since have their factors from it).
slurm_next_pass() {
    local before now
    now=$(date +%s)
    for _ in $(seq 1 200); do
        before=$(slurm_last_pass)
        [ -n "$before" ] && [ "$before" -gt "$now" ] && { echo "$before"; return 0; }
        sleep 1
    done
    echo "no priority calculation pass in 200 s" >&2
    return 1
}

# Restart slurmctld with new PriorityFlags (the state survives in StateSaveLocation).
slurm_restart_ctld() {
    local pid
    pid=$(cat "$SLURM_DIR/run/slurmctld.pid")
    kill "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    slurm_write_conf "$1"
    slurmctld
    slurm_wait 60 scontrol ping
    slurm_wait 60 sh -c "sinfo -h -N -o %T | grep -Eq '^(idle|mixed|allocated)'"
}
