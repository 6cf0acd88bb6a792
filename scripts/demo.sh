#!/usr/bin/env bash
# `make demo`: install what is missing, build, start a throwaway cluster, load a small data set
# and print what fairsched does. The cluster is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

fs_deps
fs_build_install
fs_cluster_start
"$PG_BIN/createdb" fairsched_demo
fs_log "fairsched demo"
PGDATABASE=fairsched_demo "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off -f scripts/demo.sql
