#!/usr/bin/env bash
# The interop suite: a real SLURM 22.05 (Debian 12's packages) on this machine, and what it prints
# compared with fairsched's results on the same inputs. `make interop` runs it; `.ci/run` after
# `make test`. As root (daemons, a mount namespace). Everything runs on 127.0.0.1 on free ports
# with its state in temporary directories, and is stopped on exit, also on failure.
#
# The scenario (account tree, jobs) is generated from INTEROP_SEED (unset: a new seed each run;
# the first line and the last name it, and INTEROP_SEED=N make interop makes the same tree again).
# Counts are per compared cell: a sshare cell, a sprio cell (and each sprio line's bytes), an
# sacct field. The last line is "N passed, N failed (INTEROP_SEED=N)".
set -euo pipefail
export TZ=UTC
cd "$(dirname "$0")/../.."
. scripts/lib.sh
. test/interop/slurm_lib.sh
. test/interop/scenario.sh
. test/interop/compare.sh
slurm_namespace "$0" "$@"
scenario_seed
fs_log "INTEROP_SEED=$INTEROP_SEED (INTEROP_SEED=$INTEROP_SEED make interop makes this tree again)"

fs_deps
slurm_deps
fs_install_lock
fs_build_install
fs_cluster_start
trap 'slurm_stop; fs_cluster_stop' EXIT
export PGOPTIONS='-c search_path=public,fairsched'
psql -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION fairsched' >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -f test/interop/interop.sql >/dev/null

fs_log "starting munge, MariaDB, slurmdbd, slurmctld and slurmd (Fair Tree)"
slurm_start
fs_log "the account tree (INTEROP_SEED=$INTEROP_SEED), jobs for usage, jobs left pending"
scenario_tree
SACCT_START=$(date +%Y-%m-%dT%H:%M:%S)
scenario_usage_jobs
scenario_hold_usage
slurm_next_pass >/dev/null
scenario_pending_jobs

# snapshot SNAP: after the next pass, what SLURM prints (taken again when a pass came between)
snapshot() {
    local d="$SLURM_DIR/snap/$1"
    slurm_next_pass >/dev/null
    until scenario_snapshot "$d"; do rm -rf "$d"; done
    scontrol show -o node >"$d/scontrol_show_o_node.txt"
    chmod -R a+rX "$SLURM_DIR/snap"
    interop_load "$1" "$d"
}
snapshot fair_tree
scenario_sacct "$SLURM_DIR/snap/sacct"
chmod -R a+rX "$SLURM_DIR/snap"
interop_load sacct "$SLURM_DIR/snap/sacct"

fs_log "restarting slurmctld with PriorityFlags=NO_FAIR_TREE (classic)"
slurm_restart_ctld NO_FAIR_TREE
snapshot classic

# sreport over whole hours: from the hour the jobs began in to the end of the current one (sreport
# reports on the window it prints, which scenario_sreport keeps)
SREPORT_START=$(date -d "@$(($(date -d "$SACCT_START" +%s) / 3600 * 3600))" +%Y-%m-%dT%H:%M:%S)
SREPORT_END=$(date -d "@$((($(date +%s) / 3600 + 1) * 3600))" +%Y-%m-%dT%H:%M:%S)
fs_log "sreport from $SREPORT_START to $SREPORT_END, rolled up now"
# taken once more when the reports printed different windows (an hour began in between)
scenario_sreport "$SLURM_DIR/snap/sreport" || { rm -rf "$SLURM_DIR/snap/sreport"; scenario_sreport "$SLURM_DIR/snap/sreport"; }
chmod -R a+rX "$SLURM_DIR/snap"
interop_load sreport "$SLURM_DIR/snap/sreport"
if [ -n "${INTEROP_CAPTURE:-}" ]; then
    mkdir -p "$INTEROP_CAPTURE"
    cp -r "$SLURM_DIR/snap/." "$INTEROP_CAPTURE/"
fi

fs_log "comparisons (one count per cell)"
cmp_usage_held fair_tree classic
cmp_sshare fair_tree fair_tree
cmp_sshare classic classic
for snap in fair_tree classic; do
    cmp_sprio "$snap" "$snap" sprio_l.txt '-l'
    cmp_sprio "$snap" "$snap" sprio_n_l.txt '-n -l'
    cmp_sprio "$snap" "$snap" sprio_w.txt '-w'
    cmp_sprio "$snap" "$snap" sprio_n_w.txt '-n -w'
    cmp_sprio "$snap" "$snap" sprio.txt ''
done
i=0
for f in "${SACCT_FORMATS[@]}"; do
    i=$((i + 1))
    cmp_sacct sacct "sacct_P_$i.txt" '' '|'
    cmp_sacct sacct "sacct_P_noheader_$i.txt" "$f" '|'
    cmp_sacct sacct "sacct_P_delim_$i.txt" '' '^|^'
done
cmp_sacct_json sacct
cmp_sacct sacct sacct_P_all.txt '' '|' json
for r in "${SREPORTS[@]}"; do
    for t in '' Seconds Hours Percent; do
        cmp_sreport sreport classic "${r/ /_}" "$t"
    done
done

echo "$INTEROP_PASSED passed, $INTEROP_FAILED failed (INTEROP_SEED=$INTEROP_SEED)"
[ "$INTEROP_FAILED" = 0 ]
