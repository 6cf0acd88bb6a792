#!/usr/bin/env bash
# `make demo`: install what is missing, build, start a throwaway cluster, load a small data set
# and print what fairsched does. The report is also written to build/demo/report.txt, next to the
# SVG charts the demo writes (build/demo/*.svg; the README shows them from docs/). The cluster is
# removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

fs_deps
fs_install_lock
fs_build_install
fs_cluster_start
"$PG_BIN/createdb" fairsched_demo
fs_log "fairsched demo"
rm -rf build/demo
mkdir -p build/demo
PGDATABASE=fairsched_demo "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -v chart_dir=build/demo -P pager=off \
    -f scripts/demo.sql | tee build/demo/report.txt
fs_log "report: build/demo/report.txt; charts: $(echo build/demo/*.svg)"
