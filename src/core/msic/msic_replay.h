/*
 * msic_replay.h: a stream of job submissions replayed through successive MSIC scheduling cycles
 * (msic_cycle) at a fixed interval, over a fixed set of hosts and queues: every decision with its
 * time, each job's end, and each FAIR_SHARE queue's share state at every nightly rollover.
 */
#ifndef FS_MSIC_REPLAY_H
#define FS_MSIC_REPLAY_H

#include "msic/msic_cycle.h"

typedef struct fs_msic_replay_in
{
	/* the settings of every cycle; order.states are the share states at the start */
	fs_msic_cycle_in cycle;
	int64_t start, stop, interval; /* microseconds */
	/* ctime(3)'s form of an instant, for "Started on ..." */
	void (*ctime)(void *ctx, int64_t t, char *buf, size_t cap);
	void *ctime_ctx;
} fs_msic_replay_in;

typedef struct fs_msic_replay_row
{
	int64_t at;
	int step; /* within the cycle at `at`; 0 for ends and share states */
	fs_msic_action action;
	size_t job; /* index into the submissions; SIZE_MAX for share states */
	fs_str queue, host;
	const char *reason;         /* NULL for share states */
	const fs_msic_state *share; /* share states only */
} fs_msic_replay_row;

typedef void (*fs_msic_replay_emit)(void *ctx, const fs_msic_replay_row *row);

/* The most cycles one replay runs (more is an error: docs/limits.md). */
#define FS_MSIC_REPLAY_CYCLES_MAX 10000000

/*
 * Replay `n` submissions: each is queued at its ctime (state Q, no exec_host) and, once started,
 * runs for its walltime_used when given (its real run time; at most its walltime), else for its
 * walltime. Cycles run at start, start + interval, ... before stop; a cycle with no job waiting is
 * skipped. Each host's load in a cycle is its loadave plus the CPUs of the jobs running on it.
 */
fs_status fs_msic_replay(const fs_msic_replay_in *in, const fs_msic_cjob *subs, size_t n,
                         fs_msic_replay_emit emit, void *ctx, const fs_allocator *a, fs_error *err);

#endif
