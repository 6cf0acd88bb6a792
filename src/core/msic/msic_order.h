/*
 * msic_order.h: the MSIC-Cluster PBS scheduler's per-job flags and job order (docs/msic.md):
 * queue rank from the share state, PRIORITY, WAITING, RUNLIMIT,
 * CHKPT_OK, SUSPENDED, CHKPTD, and the pending jobs in the original's order with the step that
 * decided each place, then the running jobs by time left.
 */
#ifndef FS_MSIC_ORDER_H
#define FS_MSIC_ORDER_H

#include "fs_core.h"
#include "msic/msic_share.h"

#include <stdbool.h>
#include <stdint.h>

/* One FAIR_SHARE entry of the configuration. */
typedef struct fs_msic_fs_entry
{
	const char *queue;
	size_t queuelen;
	int shares;
	int max_run_pct;
} fs_msic_fs_entry;

/* One queue's share state (msic_share): its name and the state msic_share.c defines. */
typedef struct fs_msic_state
{
	const char *queue;
	size_t queuelen;
	fs_msic_share s;
} fs_msic_state;

/* One job (msic_job), times in microseconds. */
typedef struct fs_msic_ojob
{
	const char *job_id;
	size_t idlen;
	const char *owner;
	size_t ownerlen;
	const char *queue; /* originating queue; NULL: the submit queue */
	size_t queuelen;
	char state;          /* 'Q', 'R' or 'S' */
	int64_t walltime_us; /* requested */
	int64_t used_us;     /* walltime used */
	int64_t eligible_at; /* etime, else ctime (epoch microseconds) */
	int chkptd;          /* 1, 0, or -1: not given (queued with an exec_host) */
	bool has_exec_host;
} fs_msic_ojob;

typedef struct fs_msic_order_in
{
	const char *submit_queue; /* may be NULL */
	size_t submitlen;
	const char *express_queue; /* NULL or empty: none */
	size_t expresslen;
	int64_t max_wait_us;
	const fs_msic_fs_entry *fs;
	size_t nfs;
	const fs_msic_state *states;
	size_t nstates;
	int64_t at;
	int cluster_cpus;
	fs_msic_rank_mode rank;
} fs_msic_order_in;

/* One output row, in order. decided_by is a static string, NULL on the first row. */
typedef struct fs_msic_row
{
	size_t job; /* index into the input jobs */
	bool priority, waiting, runlimit, chkpt_ok, suspended, chkptd, over_share;
	double queue_rank;
	int user_limit;
	int user_running;
	const char *decided_by;
} fs_msic_row;

/* The most jobs one call orders (more is an error: docs/limits.md). */
#define FS_MSIC_JOBS_MAX 50000000

/*
 * Flags and order of `n` jobs: pending (Q and S) jobs first in the scheduling order, then the
 * running jobs by time left. *out (n rows, allocator memory) is set on FS_OK.
 */
fs_status fs_msic_job_order(const fs_msic_order_in *in, const fs_msic_ojob *jobs, size_t n,
                            const fs_allocator *a, fs_msic_row **out, fs_error *err);

#endif
