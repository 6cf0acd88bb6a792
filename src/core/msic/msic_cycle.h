/*
 * msic_cycle.h: one scheduling cycle of the MSIC-Cluster PBS scheduler (docs/msic.md; its
 * administrator's guide, and its code where the two differ): the load gate, placement on the batch
 * queues by best fit, preemption (suspend, checkpoint, requeue) for express, long-waiting and
 * under-share jobs, resuming suspended jobs, the comments of jobs that cannot run, and the share
 * charges of the cycle.
 */
#ifndef FS_MSIC_CYCLE_H
#define FS_MSIC_CYCLE_H

#include "fs_core.h"
#include "msic/msic_config.h"
#include "msic/msic_order.h"

/* An execution host as its MOM reports it (msic_host). mem < 0: not reported (no memory check). */
typedef struct fs_msic_host
{
	fs_str name;
	int ncpus;
	double mem;
	fs_str arch; /* s NULL: not reported */
	double loadave;
	bool up;
} fs_msic_host;

/* A queue as the server reports it (msic_queue). Limits < 0 are unset. */
typedef struct fs_msic_queue
{
	fs_str name;
	fs_str host; /* s NULL: the configuration's host */
	bool enabled, started;
	int max_running, max_ncpus, min_ncpus, max_user_run;
	double max_mem, min_mem, default_mem;
	int64_t min_walltime, max_walltime; /* microseconds */
} fs_msic_queue;

/* A job of the cycle: what the order reads, and what placement and preemption read. */
typedef struct fs_msic_cjob
{
	fs_msic_ojob o;
	int ncpus;
	double mem;       /* bytes; < 0: none requested (the queue's default applies) */
	fs_str exec_host; /* s NULL: none; "host/N+..." is read as "host" */
	fs_str arch;      /* s NULL: any */
	bool suspend_fails, checkpoint_fails;
	int64_t ctime;   /* submission time; INT64_MIN when not given */
	bool used_given; /* walltime_used was given (a replay reads it as the job's real run time) */
} fs_msic_cjob;

/* The settings of a cycle. `order` carries the FAIR_SHARE entries, share states and rank mode. */
typedef struct fs_msic_cycle_in
{
	fs_msic_order_in order;
	const fs_str *batch_queues; /* BATCH_QUEUES in order */
	const fs_str *batch_hosts;  /* their @hosts; s NULL: the queue's own host */
	size_t nbatch;
	const fs_msic_host *hosts;
	size_t nhosts;
	const fs_msic_queue *queues;
	size_t nqueues;
	/* prime time: observed when ENFORCE_PRIME_TIME is on, from pt_from (its date form) on */
	bool enforce_pt;
	int64_t pt_from;                    /* INT64_MIN: always */
	int64_t pt_start, pt_end, pt_limit; /* microseconds; pt_limit < 0: no limit */
	const int *holidays;
	size_t nholidays;
	const fs_msic_clock *clock;
	/* TARGET_LOAD_PCT and _VARIANCE in percent of the host's CPUs (load_unscaled: of 1 CPU) */
	double load_pct, load_minus, load_plus;
	bool load_unscaled;
	/* SUSPEND_THRESHOLD: suspend when the remaining share of the walltime is above it (the
	 * guide), or at or below it (suspend_below: the original code) */
	double suspend_threshold;
	bool suspend_below;
	bool force_requeue;
	bool update_comments;
	const char *started_at; /* the cycle's time as ctime(3) prints it, for "Started on ..." */
} fs_msic_cycle_in;

typedef enum fs_msic_action
{
	FS_MSIC_RUN,
	FS_MSIC_RESUME,
	FS_MSIC_SUSPEND,
	FS_MSIC_CHECKPOINT,
	FS_MSIC_REQUEUE,
	FS_MSIC_COMMENT,
	FS_MSIC_FAIL,
	FS_MSIC_END,  /* a replayed job ends (msic_replay) */
	FS_MSIC_SHARE /* a queue's share state (msic_replay) */
} fs_msic_action;

const char *fs_msic_action_name(fs_msic_action a);

/* msic_cycle's compat switches: the original code's rule where it and the administrator's guide
 * disagree. */
typedef enum fs_msic_compat
{
	FS_MSIC_COMPAT_RANK_USAGE,    /* rank by raw past usage (fs_msic_order_in.rank) */
	FS_MSIC_COMPAT_SUSPEND_BELOW, /* suspend_below_threshold (fs_msic_cycle_in.suspend_below) */
	FS_MSIC_COMPAT_LOAD_UNSCALED  /* load_unscaled (fs_msic_cycle_in.load_unscaled) */
} fs_msic_compat;

#define FS_MSIC_COMPAT_NAMES "rank_usage, suspend_below_threshold and load_unscaled"

/* The switch of that name, or -1. */
int fs_msic_compat_from_name(const char *name);

/* One decision, in the cycle's order. Strings point into the inputs or into out->text. */
typedef struct fs_msic_decision
{
	fs_msic_action action;
	size_t job;    /* index into the jobs */
	fs_str queue;  /* run/resume/suspend: the batch queue; checkpoint/requeue: where the job
	                * goes back to (its originating queue); s NULL otherwise */
	fs_str host;   /* s NULL when none */
	size_t reason; /* offset into text, NUL-terminated */
} fs_msic_decision;

typedef struct fs_msic_cycle_out
{
	fs_msic_decision *d;
	size_t n;
	fs_sb text;
	fs_msic_state *shares; /* one per FAIR_SHARE entry, in its order, after the cycle's charges */
	size_t nshares;
} fs_msic_cycle_out;

/*
 * Run one cycle at in->order.at. On FS_OK, out holds allocator memory the caller releases with
 * fs_msic_cycle_free.
 */
fs_status fs_msic_cycle(const fs_msic_cycle_in *in, const fs_msic_cjob *jobs, size_t n,
                        const fs_allocator *a, fs_msic_cycle_out *out, fs_error *err);
void fs_msic_cycle_free(fs_msic_cycle_out *out, const fs_allocator *a);

/* The 100 MB the original gives a job whose queue has no default (jobinfo.c:get_default_mem). */
#define FS_MSIC_BUILTIN_MEM 104857600.0

/*
 * The memory of a job without a mem request (jobinfo.c:get_default_mem): only a
 * queue with a FAIR_SHARE entry looks at its resources_default.mem, then its resources_max.mem
 * (negative: unset); everything else gets the built-in 100 MB.
 */
double fs_msic_default_mem(bool fair_share_entry, double default_mem, double max_mem);

#endif
