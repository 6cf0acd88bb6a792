# test/interop/scenario.sh: the generated account tree, the jobs that create usage and the jobs
# left pending. Source it after slurm_lib.sh. Every choice comes from bash's RANDOM seeded with
# $INTEROP_SEED (scenario_seed), drawn in the suite's own shell: bash reseeds RANDOM in every
# subshell, so a draw inside $(...) would differ from run to run. One seed is one tree and one set
# of jobs (their timing, and so their usage, still follows the clock).

# scenario_seed: INTEROP_SEED, or a new one when it is unset or empty (so runs vary); exported,
# so that a failed run's log names the seed that makes its tree again
scenario_seed() {
    if [ -z "${INTEROP_SEED:-}" ]; then
        INTEROP_SEED=$(od -A n -t u2 -N 2 /dev/urandom | tr -d ' ')
    fi
    case $INTEROP_SEED in
    '' | *[!0-9]*)
        echo "INTEROP_SEED=$INTEROP_SEED is not a number: give a whole number, or leave it unset for a new one" >&2
        return 1
        ;;
    esac
    export INTEROP_SEED
}

# rand LO HI: an integer in [LO, HI] into R, drawn here (never call it inside $(...))
rand() {
    R=$(($1 + RANDOM % ($2 - $1 + 1)))
}

# as USER: a command of SLURM's as that user (jobs run as their owner)
as_user() {
    local u=$1
    shift
    runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" TZ=UTC "$@"
}

SCEN_USERS=()        # user names
SCEN_ASSOCS=()       # "user account" pairs (a user may appear twice)
SCEN_LEAF_ACCOUNTS=()

scenario_tree() {
    RANDOM=$INTEROP_SEED
    local tops=(phys chem bio) top sub n i u a s
    rand 50 200
    sacctmgr -i add qos high Priority=$R >/dev/null
    rand 1 40
    sacctmgr -i modify qos normal set Priority=$R >/dev/null
    for top in "${tops[@]}"; do
        rand 10 100
        sacctmgr -i add account "$top" Parent=root Fairshare=$R >/dev/null
        rand 0 2
        n=$R
        if [ "$n" = 0 ]; then
            SCEN_LEAF_ACCOUNTS+=("$top")
        fi
        for i in $(seq 1 "$n"); do
            sub="${top}_$i"
            rand 1 50
            sacctmgr -i add account "$sub" Parent="$top" Fairshare=$R >/dev/null
            SCEN_LEAF_ACCOUNTS+=("$sub")
        done
    done
    rand 5 7
    n=$R
    for i in $(seq 1 "$n"); do SCEN_USERS+=("fsu$i"); done
    slurm_users "${SCEN_USERS[@]}"
    i=0
    for u in "${SCEN_USERS[@]}"; do
        # every leaf account gets a user first, then at random
        if [ "$i" -lt "${#SCEN_LEAF_ACCOUNTS[@]}" ]; then
            a=${SCEN_LEAF_ACCOUNTS[$i]}
        else
            rand 0 $((${#SCEN_LEAF_ACCOUNTS[@]} - 1))
            a=${SCEN_LEAF_ACCOUNTS[$R]}
        fi
        i=$((i + 1))
        rand 1 10
        s=$R
        sacctmgr -i add user "$u" Account="$a" Fairshare="$s" QOS=normal,high DefaultQOS=normal >/dev/null
        SCEN_ASSOCS+=("$u $a")
    done
    # one user in two accounts: the first user also in another leaf account
    for a in "${SCEN_LEAF_ACCOUNTS[@]}"; do
        if [ "$a" != "${SCEN_ASSOCS[0]#* }" ]; then
            rand 1 10
            sacctmgr -i add user "${SCEN_USERS[0]}" Account="$a" Fairshare=$R QOS=normal,high >/dev/null
            SCEN_ASSOCS+=("${SCEN_USERS[0]} $a")
            break
        fi
    done
    # an association priority on two associations (PriorityWeightAssoc)
    read -r u a <<<"${SCEN_ASSOCS[1]}"
    rand 10 100
    sacctmgr -i modify user "$u" where account="$a" set Priority=$R >/dev/null
    read -r u a <<<"${SCEN_ASSOCS[2]}"
    rand 10 100
    sacctmgr -i modify user "$u" where account="$a" set Priority=$R >/dev/null
}

# Real jobs for usage; then wait for them. SLURM 22.05 charges a job's usage in the decay passes
# it runs across (PriorityCalcPeriod=1: every minute; the first pass only records its instant,
# so the jobs start after a pass), not a job that starts and ends between two passes. So two jobs
# run across the next pass: one of each association of the user in two accounts (the first user),
# which puts usage under two parents and gives NormUsage, EffectvUsage, FairShare and LevelFS
# values other than 0 and 1. Then short ones, one or two per association, 1-8 CPUs, 3-20 s (a
# short one that waited for CPUs may run across the pass too).
scenario_usage_jobs() {
    local p u a k n cpus secs
    slurm_next_pass >/dev/null
    for p in "${SCEN_ASSOCS[@]}"; do
        read -r u a <<<"$p"
        [ "$u" = "${SCEN_USERS[0]}" ] || continue
        as_user "$u" sbatch -Q -A "$a" -n 2 -t 5 --chdir=/tmp -o /dev/null -J across --wrap "sleep 75" >/dev/null
    done
    for p in "${SCEN_ASSOCS[@]}"; do
        read -r u a <<<"$p"
        rand 1 2
        n=$R
        for k in $(seq 1 "$n"); do
            rand 1 8
            cpus=$R
            rand 3 20
            secs=$R
            as_user "$u" sbatch -Q -A "$a" -n "$cpus" -t 5 --chdir=/tmp -o /dev/null \
                -J "use$k" --wrap "sleep $secs" >/dev/null
        done
    done
    # a job that fails and one with steps, for sacct's states and step lines
    read -r u a <<<"${SCEN_ASSOCS[0]}"
    as_user "$u" sbatch -Q -A "$a" -n 2 -t 5 --chdir=/tmp -o /dev/null -J fails --wrap "sleep 2; exit 3" >/dev/null
    as_user "$u" sbatch -Q -A "$a" -n 2 -t 5 --chdir=/tmp -o /dev/null -J steps \
        --wrap "srun -n 2 sleep 2; srun -n 1 true" >/dev/null
    for _ in $(seq 1 300); do
        [ -z "$(squeue -h -o %i)" ] && return 0
        sleep 1
    done
    echo "usage jobs did not finish in 300 s" >&2
    squeue >&2
    return 1
}

# The usage is then held still: QOS normal, the only QOS that runs a job from here on (the
# blocker of scenario_pending_jobs), charges nothing (UsageFactor=0). Without it the blocker adds
# 16 CPU-minutes a pass, and under PriorityFlags=NO_FAIR_TREE sshare shows two instants: a pass
# sets the accounts' NormUsage and EffectvUsage first (_set_children_usage_efctv, before it
# charges the running jobs), a user's when the pass reaches the user's first pending job (after
# the running jobs before it in the job list) or when sshare asks, and RawUsage after the charge.
# With nothing charged every pass leaves the usage as it was, so what sshare prints is of one
# instant; cmp_usage_held checks that the usage did not move from the Fair Tree snapshot on.
scenario_hold_usage() {
    sacctmgr -i modify qos normal set UsageFactor=0 >/dev/null
}

# Jobs left pending: a job holding every CPU of the node (QOS normal: it charges no usage), then
# per association one or two jobs with various CPUs, partitions, QOS, time limits, a nice value,
# one in two partitions, one held.
scenario_pending_jobs() {
    local p u a k n parts qos extra cpus limit mem
    read -r u a <<<"${SCEN_ASSOCS[0]}"
    as_user "$u" sbatch -Q -A "$a" -q normal -n "$SLURM_NODE_CPUS" -t 30 --chdir=/tmp -o /dev/null -J blocker \
        --wrap "sleep 1800" >/dev/null
    slurm_wait 60 sh -c "squeue -h -t R -o %i | grep -q ."
    for p in "${SCEN_ASSOCS[@]}"; do
        read -r u a <<<"$p"
        rand 1 2
        n=$R
        for k in $(seq 1 "$n"); do
            rand 0 3
            case $R in 0) parts=low ;; 1) parts=main,low ;; *) parts=main ;; esac
            rand 0 2
            case $R in 0) qos=high ;; *) qos=normal ;; esac
            extra=""
            rand 0 4
            if [ "$R" = 0 ]; then
                rand 1 300
                extra="--nice=$R"
            fi
            rand 1 16
            cpus=$R
            rand 5 120
            limit=$R
            rand 100 4000
            mem=$R
            as_user "$u" sbatch -Q -A "$a" -p "$parts" -q "$qos" -n "$cpus" \
                -t "$limit" --mem="$mem" $extra --chdir=/tmp -o /dev/null \
                -J "pend$k" --wrap "sleep 10" >/dev/null
        done
    done
    read -r u a <<<"${SCEN_ASSOCS[1]}"
    as_user "$u" sbatch -Q -A "$a" -n 1 -t 10 --hold --chdir=/tmp -o /dev/null -J held --wrap "true" >/dev/null
}

# What SLURM prints, into DIR: the queue (after a pass), the tree, the config, the accounting.
# SACCT_START: the start of the accounting window (sacct -S, sreport start=).
scenario_snapshot() {
    local d=$1 pass
    mkdir -p "$d"
    pass=$(slurm_last_pass)
    echo "$pass" >"$d/last_pass.txt"
    sprio -l >"$d/sprio_l.txt"
    sprio -n -l >"$d/sprio_n_l.txt"
    sprio -w >"$d/sprio_w.txt"
    sprio >"$d/sprio.txt"
    sprio -n -w >"$d/sprio_n_w.txt"
    sshare -a -l -P >"$d/sshare_a_l_P.txt"
    scontrol show job >"$d/scontrol_show_job.txt"
    scontrol show -o job >"$d/scontrol_show_o_job.txt"
    scontrol show partition >"$d/scontrol_show_partition.txt"
    scontrol show -o partition >"$d/scontrol_show_o_partition.txt"
    scontrol show node >"$d/scontrol_show_node.txt"
    scontrol show config >"$d/scontrol_show_config.txt"
    squeue -a -o '%i|%P|%u|%a|%q|%T|%Q|%p|%r' >"$d/squeue.txt"
    sacctmgr show assoc -P >"$d/sacctmgr_show_assoc_P.txt"
    sacctmgr show qos -P format=Name,Priority >"$d/sacctmgr_show_qos_P.txt"
    [ "$(slurm_last_pass)" = "$pass" ] # no pass in between, or the caller takes it again
}

SACCT_FORMATS=(
    "JobID,JobIDRaw,JobName,Partition,Account,User,Group,QOS,State,ExitCode,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,NCPUS,NNodes,ReqMem,AllocTRES,ReqTRES,Cluster"
    "JobID,User,Account,State,Start,End,AllocTRES"
    "JobIDRaw,Partition,QOS,Submit,Eligible,ElapsedRaw,TimelimitRaw,NCPUS,ReqCPUS,ReqMem,ReqTRES,DerivedExitCode"
)
scenario_sacct() {
    local d=$1 i=0 f
    mkdir -p "$d"
    for f in "${SACCT_FORMATS[@]}"; do
        i=$((i + 1))
        sacct -a -D --parsable2 -S "$SACCT_START" -E now --format="$f" >"$d/sacct_P_$i.txt"
        sacct -a -D --parsable2 --noheader -S "$SACCT_START" -E now --format="$f" >"$d/sacct_P_noheader_$i.txt"
        sacct -a -D --parsable2 --delimiter='^|^' -S "$SACCT_START" -E now --format="$f" >"$d/sacct_P_delim_$i.txt"
    done
    # --json and every field of --parsable2 within one second: a running job's Elapsed is the
    # instant slurmdbd answers, so the two show the same jobs at the same moment
    local all t0 t1
    all=$(sacct -e | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
    for _ in $(seq 1 20); do
        t0=$(date +%s)
        sacct -a -D --parsable2 -S "$SACCT_START" -E now --format="$all" >"$d/sacct_P_all.txt"
        sacct -a -D --json -S "$SACCT_START" -E now >"$d/sacct_json.json"
        t1=$(date +%s)
        [ "$t0" = "$t1" ] && return 0
        sleep 0.$((RANDOM % 9 + 1))
    done
    echo "sacct --json and sacct --parsable2 did not run within one second in 20 tries" >&2
    return 1
}

SREPORTS=(
    "cluster Utilization"
    "cluster AccountUtilizationByUser"
    "cluster UserUtilizationByAccount"
    "job SizesByAccount"
    "user TopUsage"
)
# sreport reads slurmdbd's hourly rollups. SREPORT_START and SREPORT_END are whole hours: from
# the hour the cluster's jobs began in to the end of the current hour. `sacctmgr rollup START END`
# rolls that window up now, the current hour as slurmdbd rolls any hour: whatever still runs
# (the cluster, the running job, the pending jobs) runs to the hour's end, as when the hour is
# over with nothing changed. sreport itself reports on less when the end is past: from the start
# to the last whole hour before now, at least one hour (at 08:00:17, START 07:00 and END 09:00 give
# 07:00-07:59:59), and prints that window in the heading of each report without -P. Then, of the
# request's window: the sacct records, the cluster's and the nodes' events (its registration, down
# times), and the window sreport printed (window.txt: two epochs, the end the second after the
# printed last one; every report must print the same one, else the capture is taken again).
# The job reports read the job records, not the rollups: a running job counts there up to the
# instant sreport runs, so each -P job report runs within one second, and sreport_instants.txt
# keeps that second (a line "FILE EPOCH").
scenario_sreport() {
    local d=$1 r f t ev out t0 t1
    mkdir -p "$d"
    : >"$d/sreport_instants.txt"
    sacctmgr -i rollup "$SREPORT_START" "$SREPORT_END" >/dev/null
    for r in "${SREPORTS[@]}"; do
        f=$(echo "$r" | tr ' ' '_')
        sreport $r start="$SREPORT_START" end="$SREPORT_END" >"$d/sreport_$f.txt"
        for t in '' Seconds Hours Percent; do
            out="sreport_P_${t:+t${t}_}$f.txt"
            for _ in $(seq 1 20); do
                t0=$(date +%s)
                sreport -P ${t:+-t "$t"} $r start="$SREPORT_START" end="$SREPORT_END" >"$d/$out"
                t1=$(date +%s)
                [ "$t0" = "$t1" ] && break
            done
            [ "$t0" = "$t1" ] || { echo "sreport $r did not run within one second in 20 tries" >&2; return 1; }
            echo "$out $t0" >>"$d/sreport_instants.txt"
        done
    done
    sacct -a -D --parsable2 -S "$SREPORT_START" -E "$SREPORT_END" \
        --format=JobID,JobIDRaw,Cluster,Partition,Account,User,State,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,NCPUS,ReqCPUS,NNodes,AllocTRES,CPUTimeRAW \
        >"$d/sacct_P_sreport_window.txt"
    for ev in cluster node; do
        sacctmgr -P show event event="$ev" start="$SREPORT_START" end="$SREPORT_END" \
            format=Cluster,NodeName,Start,End,State,TRES >"$d/sacctmgr_show_event_${ev}_P.txt"
    done
    local w0 w1 w
    w=$(for r in "${SREPORTS[@]}"; do sreport_printed_window "$d/sreport_$(echo "$r" | tr ' ' '_').txt"; done | sort -u)
    if [ "$(echo "$w" | wc -l)" != 1 ] || [ -z "$w" ]; then
        echo "the sreport reports printed different windows (an hour began during the capture): $w" >&2
        return 1
    fi
    read -r w0 w1 <<<"$w"
    echo "$w0 $((w1 + 1))" >"$d/window.txt"
}

# sreport_printed_window FILE: the window in the heading of a report without -P ("... START - END
# ..."), as two epochs
sreport_printed_window() {
    local s e
    read -r s e < <(sed -n 2p "$1" | grep -Eo '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}' | tr '\n' ' ')
    [ -n "$e" ] || { echo "no window in the heading of $1" >&2; return 1; }
    echo "$(date -d "$s" +%s) $(date -d "$e" +%s)"
}
