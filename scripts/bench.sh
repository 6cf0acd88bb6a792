#!/usr/bin/env bash
# `make bench`: run the workloads in test/bench/ at growing sizes against a throwaway cluster
# and print one table: fairsched's time next to the plain-SQL baseline's (or the floor's: the
# least work the same result needs), their ratio and, where the project has one, the target ratio.
# BENCH_ROWS (default "1000000 5000000 10000000") and BENCH_COPY_ROWS (default 1000000) scale it;
# BENCH_TREE_NODES (default "10000 100000 1000000") sets the fairshare tree sizes; BENCH_ONLY
# (for example "loaders divide") runs only the named workloads.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

BENCH_ROWS=${BENCH_ROWS:-"1000000 5000000 10000000"}
BENCH_COPY_ROWS=${BENCH_COPY_ROWS:-1000000}
BENCH_TREE_NODES=${BENCH_TREE_NODES:-"10000 100000 1000000"}

fs_deps
fs_build_install
fs_cluster_start
fs_as_owner "$PG_BIN/pg_ctl" -D "$FS_CLUSTER_DIR/data" -w \
    -o "-c listen_addresses='' -k $FS_CLUSTER_DIR -p $PGPORT -c fsync=off -c shared_buffers=1GB -c work_mem=256MB -c max_wal_size=8GB -c jit=off" \
    restart >/dev/null
"$PG_BIN/createdb" fairsched_bench
psql_bench() {
    PGDATABASE=fairsched_bench "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off "$@"
}
psql_bench -c "CREATE EXTENSION fairsched" -f test/bench/bench_lib.sql
failed=0
for w in test/bench/*.sql; do
    # helpers that the workloads include, not workloads
    case "$(basename "$w")" in bench_lib.sql) continue ;; esac
    if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $(basename "$w" .sql) "* ]]; then continue; fi
    fs_log "benchmark $(basename "$w" .sql)"
    psql_bench -v rows="$BENCH_ROWS" -v copy_rows="$BENCH_COPY_ROWS" -v dir="$FS_CLUSTER_DIR" \
        -v tree_nodes="$BENCH_TREE_NODES" -o /dev/null -f "$w" \
        || { echo "benchmark $(basename "$w" .sql) FAILED (the table shows what it measured)" >&2; failed=1; }
done
fs_log "results (median of interleaved runs; ratio = fairsched / baseline or floor, lower is better; target: the ratio aimed at)"
psql_bench -c "
SELECT workload, rows, round(fairsched_ms::numeric, 1) AS fairsched_ms,
       baseline AS \"baseline or floor\", round(baseline_ms::numeric, 1) AS baseline_ms,
       round((fairsched_ms / nullif(baseline_ms, 0))::numeric, 2) AS ratio,
       target,
       CASE WHEN target IS NULL OR baseline_ms IS NULL THEN ''
            WHEN fairsched_ms / nullif(baseline_ms, 0) <= target THEN 'met' ELSE 'NOT MET' END AS at_target,
       round(rows / (fairsched_ms / 1000))::bigint AS fairsched_rows_per_s
FROM bench_results ORDER BY seq"
[ "$failed" = 0 ]
