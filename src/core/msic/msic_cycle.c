/*
 * msic_cycle.c: one scheduling cycle of the MSIC scheduler (pack_queues.c, evaluate_system.c,
 * queue_limits.c, resource_limits.c and runjob.c of the original, as the reference on the original
 * MSIC-Cluster PBS scheduler describes its preemption, target load, memory default and packing),
 * with the rules of the MSIC-Cluster administrator's guide where it and the code disagree, and
 * every defect the reference lists replaced by the sensible result. docs/msic.md lists each
 * choice.
 *
 * Cost: the job order is O(n log n); each pending job then looks at every batch queue (O(q)), and
 * a job that preempts walks the running jobs of each queue once (O(r)), so a cycle is
 * O(n log n + p * (q + r_p)) where r_p is the running jobs seen by preempting jobs.
 */
#include "msic/msic_cycle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdarg.h>

#define SHOWN(len) ((int) ((len) > 200 ? 200 : (len)))
#define S(x)       SHOWN((x).len), (x).s
/* distinct queue ranks tracked for the preemption bounds */
#define RANKS_MAX    64
#define NO_RESOURCES "All destination queues are too full to accept this job"
/* the original's JOB_OVERTIME_SLOP: a job past its walltime counts as having 180 s left */
#define OVERTIME_SLOP_US (INT64_C(180) * 1000000)

static const char *const action_names[] = {"run",     "resume", "suspend", "checkpoint", "requeue",
                                           "comment", "fail",   "end",     "share"};

const char *
fs_msic_action_name(fs_msic_action a)
{
	return action_names[a];
}

int
fs_msic_compat_from_name(const char *name)
{
	static const char *const names[] = {"rank_usage", "suspend_below_threshold", "load_unscaled"};
	int i;

	for (i = 0; i < (int) (sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* A batch queue during the cycle. */
typedef struct cycle_queue
{
	fs_str name, host_name;
	const fs_msic_queue *q;
	int host;  /* index into hosts; -1: no MOM data, never used */
	bool open; /* has MOM data, up, enabled and started */
	bool full;
	char full_why[256]; /* why it was marked full, for the jobs after */
	int running;
	int64_t assn;    /* CPUs assigned */
	double mem_assn; /* memory assigned */
	/* CPUs of the running jobs a preemptor could stop, by search (upper bounds that spare the
	 * walk over its jobs when they cannot make room): any first-search candidate, the ones an
	 * over-share job may take, and every job that is neither express nor long-waiting */
	int64_t reclaim_narrow, reclaim_all;
	int64_t room_cpus; /* free CPUs for a job (room_on), as of the last bounds update */
	double room_mem;
	int64_t *ge; /* [r]: first-search candidates of rank ranks[r] or higher (ge[0]: all of them) */
	uint32_t *jobs; /* its running jobs, time left ascending, then the ones started now */
	size_t njobs, capjobs;
} cycle_queue;

/* A host during the cycle. */
typedef struct cycle_host
{
	int64_t alloc;
	double mem_alloc;
	double load;
} cycle_host;

/* A job during the cycle. */
typedef struct cycle_job
{
	const fs_msic_row *row; /* flags and rank from the order */
	fs_str oqueue;          /* originating queue */
	fs_str exec_host;       /* bare host name */
	double mem;             /* requested, or the default */
	int queue;              /* running: its batch queue, or -1 */
	int host;               /* running: its host, or -1 */
	int prime;              /* prime-time check: 0 not done, 1 passes, -1 fails */
	int rank_idx;           /* index of its rank in cycle.ranks */
	bool chkpt_ok;
	bool gone;        /* stopped in this cycle */
	bool unstoppable; /* its stop failed in this cycle */
	bool started;     /* started or resumed in this cycle */
} cycle_job;

struct cycle
{
	const fs_msic_cycle_in *in;
	const fs_msic_cjob *jobs;
	size_t n;
	const fs_allocator *a;
	fs_error *err;
	cycle_queue *q;
	size_t nq;
	cycle_host *h;
	cycle_job *j;
	fs_msic_row *rows;
	size_t np; /* pending rows come first in rows */
	fs_hindex fsidx;
	fs_str *fsnames;
	fs_hindex qidx; /* the queues (msic_queue rows) by name */
	fs_str *qnames;
	int64_t minutes; /* since local midnight, for the charges */
	uint32_t *victims;
	fs_msic_cycle_out *out;
	size_t capd;
	size_t nonfull; /* open queues not marked full */
	int last_up;    /* the last queue whose host is up, or -1 */
	/* the distinct queue ranks, ascending (at most RANKS_MAX; beyond, one class for all) */
	double ranks[RANKS_MAX];
	size_t nranks;
	int64_t *ge_all;             /* the queues' ge arrays */
	bool bounds_ok;              /* the maxima below are current */
	int64_t max_narrow, max_all; /* the most CPUs any open queue could offer an over-share
	                              * job, and in the second search */
	int64_t max_ge[RANKS_MAX];   /* ... a job of rank ranks[r] in the first search */
	char reason[1024];           /* room for a formatted reason */
	const char *why_text;        /* the reason the job being placed gets if it cannot run */
};
typedef struct cycle cycle;

/* Write the reason a job cannot run (the original's shared buffer, one job at a time): false. */
static bool why(cycle *c, const char *fmt, ...) FS_PRINTF(2, 3);

static bool
why(cycle *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	c->why_text = c->reason;
	return false;
}

/* The same with a text that stays valid through the job's placement (no copy). */
static bool
why_ref(cycle *c, const char *text)
{
	c->why_text = text;
	return false;
}

/* ---------------------------------------------------------------- output */

/* Append a decision; its reason is copied into the output's text, NUL-ended, by offset. */
static void
emit(cycle *c, fs_msic_action act, size_t job, fs_str queue, fs_str host, const char *reason)
{
	fs_msic_cycle_out *o = c->out;
	fs_msic_decision *d;

	if (o->n == c->capd)
	{
		size_t cap = c->capd ? 2 * c->capd : 64;
		fs_msic_decision *nd = c->a->alloc(c->a->ctx, sizeof(*nd) * cap);

		if (o->n)
			memcpy(nd, o->d, sizeof(*nd) * o->n);
		if (o->d)
			c->a->release(c->a->ctx, o->d);
		o->d = nd;
		c->capd = cap;
	}
	d = &o->d[o->n++];
	d->action = act;
	d->job = job;
	d->queue = queue;
	d->host = host;
	d->reason = o->text.len;
	fs_sb_append(&o->text, reason, strlen(reason) + 1);
}

static fs_str
job_id(const cycle *c, size_t i)
{
	fs_str s = {c->jobs[i].o.job_id, c->jobs[i].o.idlen};

	return s;
}

static const fs_msic_host *
host_of(const cycle *c, const cycle_queue *q)
{
	return &c->in->hosts[q->host];
}

/* ---------------------------------------------------------------- the checks */

/* evaluate_system.c:schd_evaluate_system, before each job on every queue still open. */
static bool
load_ok(cycle *c, const cycle_queue *q)
{
	const fs_msic_host *hs = host_of(c, q);
	const cycle_host *h = &c->h[q->host];
	const fs_msic_cycle_in *in = c->in;
	/* the administrator's guide gives the band in percent of the CPUs; the original forgot to
	 * divide by 100 */
	double per = in->load_unscaled ? hs->ncpus : hs->ncpus / 100.0;
	double lo = (in->load_pct - in->load_minus) * per;
	double hi = (in->load_pct + in->load_plus) * per;

	if (h->alloc >= hs->ncpus)
		return why(c, "Insufficient CPUs available");
	if (hs->mem >= 0 && h->mem_alloc >= hs->mem)
		return why(c, "Insufficient Memory available");
	if (h->load < lo)
		return true;
	if (h->load > hi)
		return why(c, "Load Average too high (%.2f/%.2f max)", h->load, hi);
	/* the original's idle figure is never filled in: only the load decides */
	if (h->load < in->load_pct * per)
		return true;
	return why(c, "Done.  Don't need to run any jobs.");
}

static void
set_full(cycle *c, cycle_queue *q, bool full)
{
	if (q->open && q->full != full)
	{
		if (full)
			c->nonfull--;
		else
			c->nonfull++;
	}
	q->full = full;
}

/* queue_limits.c:schd_check_queue_limits; reaching the CPU or memory limit marks it full. */
static bool
queue_limits(cycle *c, cycle_queue *q, bool say)
{
	const fs_msic_queue *l = q->q;

	if (!l->enabled)
		return say ? why(c, "Queue %.*s not enabled", S(q->name)) : false;
	if (!l->started)
		return say ? why(c, "Queue %.*s not started", S(q->name)) : false;
	if (l->max_running >= 0 && q->running >= l->max_running)
		return say ? why(c, "Queue %.*s run limit (%d) reached", S(q->name), l->max_running)
		           : false;
	if (l->max_ncpus >= 0 && q->assn >= l->max_ncpus)
		snprintf(q->full_why, sizeof(q->full_why), "Queue %.*s CPU limit (%d) reached", S(q->name),
		         l->max_ncpus);
	else if (l->max_mem >= 0 && q->mem_assn >= l->max_mem)
		snprintf(q->full_why, sizeof(q->full_why), "Queue %.*s Memory limit", S(q->name));
	else
		return true;
	/* full for the rest of the cycle; the jobs after are told why */
	set_full(c, q, true);
	return say ? why_ref(c, q->full_why) : false;
}

/* queue_limits.c:schd_job_fits_queue: the job against the queue's limits on an empty queue. */
static bool
fits_queue(cycle *c, size_t i, const cycle_queue *q)
{
	const fs_msic_cjob *job = &c->jobs[i];
	const cycle_job *x = &c->j[i];
	const fs_msic_queue *l = q->q;
	const fs_msic_host *hs = host_of(c, q);
	char hms[32];

	/* a suspended or checkpointed job restarts only where it ran (the original returns silently) */
	if (x->exec_host.s != NULL && !fs_str_eq(x->exec_host, q->host_name))
		return why(c, "Waiting for host with checkpoint file to come available (%.*s)",
		           S(x->exec_host));
	if (l->min_walltime >= 0 && job->o.walltime_us < l->min_walltime)
	{
		fs_msic_format_hms(l->min_walltime / 1000000, hms);
		return why(c, "Does not meet queue '%.*s' walltime minimum (%s).", S(q->name), hms);
	}
	if (l->max_walltime >= 0 && job->o.walltime_us > l->max_walltime)
	{
		fs_msic_format_hms(l->max_walltime / 1000000, hms);
		return why(c, "Would exceed queue '%.*s' walltime limit (%s).", S(q->name), hms);
	}
	if (l->min_ncpus >= 0 && job->ncpus < l->min_ncpus)
		return why(c, "Does not meet queue '%.*s' CPU minimum (%d).", S(q->name), l->min_ncpus);
	if (l->max_ncpus >= 0 && job->ncpus > l->max_ncpus)
		return why(c, "Would exceed queue '%.*s' CPU limit (%d).", S(q->name), l->max_ncpus);
	if (l->min_mem >= 0 && x->mem < l->min_mem)
		return why(c, "Does not meet queue '%.*s' memory minimum (%.0f).", S(q->name), l->min_mem);
	if (l->max_mem >= 0 && x->mem > l->max_mem)
		return why(c, "Would exceed queue '%.*s' memory limit (%.0f).", S(q->name), l->max_mem);
	if (hs->mem >= 0 && x->mem > hs->mem)
		return why(c, "Exceeds host '%.*s' memory limit (%.0f).", S(q->host_name), hs->mem);
	return true;
}

static bool
observes_pt(const fs_msic_cycle_in *in)
{
	return in->enforce_pt && in->order.at >= in->pt_from;
}

/* time_limits.c:schd_primetime_limits for jobs that are not express; the same on every queue. */
static bool
prime_ok(cycle *c, size_t i)
{
	const fs_msic_cycle_in *in = c->in;
	cycle_job *x = &c->j[i];
	char hms[32];

	if (!observes_pt(in) || in->pt_limit < 0 || x->row->priority)
		return true;
	if (x->prime == 0)
	{
		int64_t prime = 0;

		/* the walltime was checked against the walk's limit before the cycle */
		fs_msic_prime_us(in->clock, in->order.at, c->jobs[i].o.walltime_us, in->pt_start,
		                 in->pt_end, in->holidays, in->nholidays, &prime, c->err);
		x->prime = prime > in->pt_limit ? -1 : 1;
	}
	if (x->prime > 0)
		return true;
	fs_msic_format_hms(in->pt_limit / 1000000, hms);
	return why(c, "Exceeds primetime walltime limit (%s)", hms);
}

/* resource_limits.c:schd_resources_avail: the host's free CPUs, memory and its arch. */
static bool
resources_avail(cycle *c, size_t i, const cycle_queue *q)
{
	const fs_msic_cjob *job = &c->jobs[i];
	const cycle_job *x = &c->j[i];
	const fs_msic_host *hs = host_of(c, q);
	const cycle_host *h = &c->h[q->host];

	if (h->alloc + job->ncpus > hs->ncpus)
		return why(c, "Would over-subscribe CPU resources (%d max)", hs->ncpus);
	if (hs->mem >= 0 && h->mem_alloc + x->mem > hs->mem)
		return why(c, "Insufficient free memory available (%.0f+%.0f > %.0f max)", h->mem_alloc,
		           x->mem, hs->mem);
	if (job->arch.s != NULL && (hs->arch.s == NULL || !fs_str_eq(job->arch, hs->arch)))
		return why(c, "Available hosts differ from requested architecture (%.*s)", S(job->arch));
	return true;
}

/* The queue's max_user_run against the owner's running jobs there (the original counts the
 * jobs that are not running, so the limit practically never acts). */
static bool
user_limits(cycle *c, size_t i, const cycle_queue *q)
{
	const fs_msic_cjob *job = &c->jobs[i];
	fs_str owner = {job->o.owner, job->o.ownerlen};
	int count = 0;
	size_t k;

	if (q->q->max_user_run < 0)
		return true;
	for (k = 0; k < q->njobs; k++)
	{
		const fs_msic_cjob *r = &c->jobs[q->jobs[k]];
		fs_str o = {r->o.owner, r->o.ownerlen};

		if (!c->j[q->jobs[k]].gone && fs_str_eq(o, owner))
			count++;
	}
	if (count >= q->q->max_user_run)
		return why(c, "Would exceed queue %.*s userrun limit (%d)", S(q->name), q->q->max_user_run);
	return true;
}

/* A queue that is down, disabled or stopped takes no job and no preemption (say: write why,
 * as placement does; the preemption search skips such queues silently, as the original). */
static bool
queue_open(cycle *c, const cycle_queue *q, bool say)
{
	if (q->host < 0 || !c->in->hosts[q->host].up)
		return false;
	if (!q->q->enabled)
		return say ? why(c, "Queue %.*s not enabled", S(q->name)) : false;
	if (!q->q->started)
		return say ? why(c, "Queue %.*s not started", S(q->name)) : false;
	return true;
}

/* ---------------------------------------------------------------- placement */

/* pack_queues.c:find_best_exechost: the open queue that leaves its host the fewest free CPUs. */
static int
find_best(cycle *c, size_t i)
{
	int best = -1;
	int64_t best_left = INT64_MAX;
	size_t k = 0;

	/* every open queue is full: only the last queue with a host up says why (the loop would
	 * skip all of them, each overwriting the reason) */
	if (c->nonfull == 0 && c->j[i].exec_host.s == NULL)
		k = c->last_up < 0 ? c->nq : (size_t) c->last_up;
	for (; k < c->nq; k++)
	{
		cycle_queue *q = &c->q[k];
		int64_t left;

		if (!queue_open(c, q, true))
			continue;
		if (q->full)
		{
			/* the original skips it silently and posts whatever the buffer held: say why, if
			 * the job could run there at all */
			if (q->full_why[0] != '\0' &&
			    (c->j[i].exec_host.s == NULL || fs_str_eq(c->j[i].exec_host, q->host_name)))
				why_ref(c, q->full_why);
			continue;
		}
		if (!queue_limits(c, q, true) || !fits_queue(c, i, q) || !prime_ok(c, i) ||
		    !resources_avail(c, i, q) || !user_limits(c, i, q))
			continue;
		left = c->in->hosts[q->host].ncpus - (c->h[q->host].alloc + c->jobs[i].ncpus);
		if (left < best_left)
		{
			best = (int) k;
			best_left = left;
			if (left == 0)
				break;
		}
	}
	return best;
}

/* The all-full check of schd_pack_queues: the load gate on every open queue (a failure marks it
 * full for the cycle), and whether any queue is below its limits. */
static bool
all_full(cycle *c)
{
	bool full = true;
	size_t k;

	if (c->nonfull == 0)
		return true;
	for (k = 0; k < c->nq; k++)
	{
		cycle_queue *q = &c->q[k];

		if (!q->open || q->full)
			continue;
		if (!load_ok(c, q))
		{
			size_t len = strlen(c->why_text);

			if (len >= sizeof(q->full_why))
				len = sizeof(q->full_why) - 1;
			memcpy(q->full_why, c->why_text, len);
			q->full_why[len] = '\0';
			set_full(c, q, true);
			continue;
		}
		if (full && queue_limits(c, q, false))
			full = false;
	}
	return full;
}

/*
 * Job i runs on queue qi: its CPUs and memory are charged to the queue and host, its CPUs to the
 * host's load at once, and it joins the end of the queue's running jobs.
 */
static void
take(cycle *c, size_t i, int qi)
{
	cycle_queue *q = &c->q[qi];
	cycle_host *h = &c->h[q->host];
	cycle_job *x = &c->j[i];

	c->bounds_ok = false;
	h->alloc += c->jobs[i].ncpus;
	h->mem_alloc += x->mem;
	/* schd_charge_job: a job started now counts in the host's load at once */
	h->load += c->jobs[i].ncpus;
	q->running++;
	q->assn += c->jobs[i].ncpus;
	q->mem_assn += x->mem;
	x->queue = qi;
	x->host = q->host;
	if (q->njobs == q->capjobs)
	{
		size_t cap = q->capjobs ? 2 * q->capjobs : 8;
		uint32_t *nj = c->a->alloc(c->a->ctx, sizeof(uint32_t) * cap);

		if (q->njobs)
			memcpy(nj, q->jobs, sizeof(uint32_t) * q->njobs);
		if (q->jobs)
			c->a->release(c->a->ctx, q->jobs);
		q->jobs = nj;
		q->capjobs = cap;
	}
	q->jobs[q->njobs++] = (uint32_t) i;
}

/* Add (sign 1) or take away (-1) a running job's CPUs in its queue's preemption bounds. */
static void
count_candidate(cycle *c, size_t v, int sign)
{
	const cycle_job *V = &c->j[v];
	cycle_queue *q = &c->q[V->queue];
	int64_t n = (int64_t) c->jobs[v].ncpus * sign;

	c->bounds_ok = false;
	if (V->row->priority || V->row->waiting)
		return;
	q->reclaim_all += n;
	if (V->chkpt_ok || V->row->runlimit)
	{
		int r;

		/* ge[r] counts the candidates of rank ranks[r] or higher: every r up to its own */
		for (r = 0; r <= V->rank_idx; r++)
			q->ge[r] += n;
	}
	if (V->chkpt_ok && V->row->runlimit)
		q->reclaim_narrow += n;
}

static void
give_back(cycle *c, size_t v)
{
	cycle_job *x = &c->j[v];
	cycle_queue *q = &c->q[x->queue];
	cycle_host *h = &c->h[x->host];

	count_candidate(c, v, -1);
	h->alloc -= c->jobs[v].ncpus;
	h->mem_alloc -= x->mem;
	q->running--;
	q->assn -= c->jobs[v].ncpus;
	q->mem_assn -= x->mem;
	x->gone = true;
}

/* ---------------------------------------------------------------- preemption */

static bool
same_owner(const cycle *c, size_t a, size_t b)
{
	fs_str x = {c->jobs[a].o.owner, c->jobs[a].o.ownerlen};
	fs_str y = {c->jobs[b].o.owner, c->jobs[b].o.ownerlen};

	return fs_str_eq(x, y);
}

/* The first search's rule (make_room_for_job): may preemptor p stop running job v? */
static bool
victim_first(const cycle *c, size_t p, size_t v)
{
	const cycle_job *P = &c->j[p], *V = &c->j[v];

	if (V->row->priority || V->row->waiting || !(V->chkpt_ok || V->row->runlimit))
		return false;
	if (P->chkpt_ok)
		/* an over-share job only takes the place of an over-share job of its own queue and
		 * rank, of another owner, that is beyond its owner's soft limit */
		return V->chkpt_ok && fs_str_eq(P->oqueue, V->oqueue) &&
		       P->row->queue_rank == V->row->queue_rank && V->row->runlimit && !same_owner(c, p, v);
	return P->row->priority || P->row->waiting || P->row->queue_rank < V->row->queue_rank ||
	       (P->row->queue_rank == V->row->queue_rank && !same_owner(c, p, v));
}

/* The second search, for express and long-waiting jobs: any job that is neither. */
static bool
victim_second(const cycle *c, size_t v)
{
	return !c->j[v].row->priority && !c->j[v].row->waiting;
}

/* CPUs and memory free for a job on queue q: its host's, within the queue's own limits. */
static void
room_on(const cycle *c, const cycle_queue *q, int64_t *cpus, double *mem)
{
	const fs_msic_host *hs = host_of(c, q);
	const cycle_host *h = &c->h[q->host];

	*cpus = hs->ncpus - h->alloc;
	*mem = hs->mem < 0 ? INFINITY : hs->mem - h->mem_alloc;
	if (q->q->max_ncpus >= 0 && q->q->max_ncpus - q->assn < *cpus)
		*cpus = q->q->max_ncpus - q->assn;
	if (q->q->max_mem >= 0 && q->q->max_mem - q->mem_assn < *mem)
		*mem = q->q->max_mem - q->mem_assn;
}

/* The CPUs queue q could offer job p (NULL: any job of the class): free ones and those of the
 * candidates it may stop. A first-search job that is neither express nor long-waiting may stop
 * only jobs of its rank or higher. */
static int64_t
room_bound(const cycle_job *P, const cycle_queue *q, int search)
{
	int64_t cpus = q->room_cpus;

	if (search == 2)
		return cpus + q->reclaim_all;
	if (search == 1)
		return cpus + q->reclaim_narrow;
	if (P != NULL && !P->row->priority && !P->row->waiting)
		return cpus + q->ge[P->rank_idx];
	return cpus + q->ge[0];
}

/* The search class of job p: 0 first search, 1 first search of an over-share job, 2 second. */
static int
search_class(const cycle_job *P, bool second)
{
	return second ? 2 : P->chkpt_ok ? 1 : 0;
}

/* Whether some open queue could offer job p enough CPUs in this search (maxima kept per cycle
 * state, so that a job that cannot make room anywhere costs O(1)). */
static bool
room_anywhere(cycle *c, size_t p, bool second)
{
	const cycle_job *P = &c->j[p];
	int64_t need = c->jobs[p].ncpus;
	size_t k, r;

	if (!c->bounds_ok)
	{
		c->max_narrow = c->max_all = INT64_MIN;
		for (r = 0; r < c->nranks; r++)
			c->max_ge[r] = INT64_MIN;
		/* again over the open queues only after a change (take, a stop) cleared bounds_ok */
		for (k = 0; k < c->nq; k++)
		{
			cycle_queue *q = &c->q[k];
			int64_t cpus;

			if (!q->open)
				continue;
			room_on(c, q, &q->room_cpus, &q->room_mem);
			cpus = q->room_cpus;
			if (cpus + q->reclaim_narrow > c->max_narrow)
				c->max_narrow = cpus + q->reclaim_narrow;
			if (cpus + q->reclaim_all > c->max_all)
				c->max_all = cpus + q->reclaim_all;
			for (r = 0; r < c->nranks; r++)
				if (cpus + q->ge[r] > c->max_ge[r])
					c->max_ge[r] = cpus + q->ge[r];
		}
		c->bounds_ok = true;
	}
	switch (search_class(P, second))
	{
		case 2:
			return c->max_all >= need;
		case 1:
			return c->max_narrow >= need;
		default:
			return c->max_ge[P->row->priority || P->row->waiting ? 0 : P->rank_idx] >= need;
	}
}

/* The distinct ranks of the jobs, ascending, and each job's index among them. */
static void
setup_ranks(cycle *c)
{
	size_t k, r;

	c->nranks = 0;
	for (k = 0; k < c->n && c->nranks <= RANKS_MAX; k++)
	{
		double v = c->rows[k].queue_rank;

		for (r = 0; r < c->nranks && c->ranks[r] != v; r++)
			;
		if (r == c->nranks)
		{
			if (c->nranks == RANKS_MAX)
			{
				c->nranks = RANKS_MAX + 1;
				break;
			}
			/* insert in order */
			for (r = c->nranks; r > 0 && c->ranks[r - 1] > v; r--)
				c->ranks[r] = c->ranks[r - 1];
			c->ranks[r] = v;
			c->nranks++;
		}
	}
	if (c->nranks > RANKS_MAX || c->nranks == 0)
		c->nranks = 1; /* too many: one class, every candidate counts for every job */
	for (k = 0; k < c->n; k++)
	{
		cycle_job *x = &c->j[c->rows[k].job];
		size_t lo = 0, hi = c->nranks;

		/* the first rank >= the job's: its own, or 0 in the one-class case */
		while (lo < hi)
		{
			size_t mid = (lo + hi) / 2;

			if (c->ranks[mid] < c->rows[k].queue_rank)
				lo = mid + 1;
			else
				hi = mid;
		}
		x->rank_idx = c->nranks == 1 ? 0 : (int) lo;
	}
	c->ge_all = c->a->alloc(c->a->ctx, sizeof(int64_t) * c->nranks * (c->nq + 1));
	memset(c->ge_all, 0, sizeof(int64_t) * c->nranks * (c->nq + 1));
	for (k = 0; k < c->nq; k++)
		c->q[k].ge = c->ge_all + k * c->nranks;
}

/*
 * The victims on queue q that make room for job p, in the order they are stopped: the first
 * search's candidates by time left, then (second search) any other candidate by time left, until
 * the job's CPUs and memory fit. false when they cannot, or when the job fits without victims
 * (then something else stops it, and stopping jobs would not help).
 */
static bool
pick_victims(cycle *c, size_t p, const cycle_queue *q, bool second, size_t *nv)
{
	int64_t need = c->jobs[p].ncpus, cpus;
	double mem;
	int pass;
	size_t k;

	room_on(c, q, &cpus, &mem);
	*nv = 0;
	if (cpus >= need && mem >= c->j[p].mem)
		return false;
	for (pass = 0; pass < (second ? 2 : 1); pass++)
		for (k = 0; k < q->njobs; k++)
		{
			size_t v = q->jobs[k];
			const cycle_job *V = &c->j[v];
			bool first = victim_first(c, p, v);

			if (V->gone || V->unstoppable || V->started)
				continue;
			if (pass == 0 ? !first : (first || !victim_second(c, v)))
				continue;
			c->victims[(*nv)++] = (uint32_t) v;
			cpus += c->jobs[v].ncpus;
			mem += V->mem;
			if (cpus >= need && mem >= c->j[p].mem)
				return true;
		}
	return false;
}

/* The queue filter of make_room_for_job (the FULL mark does not matter there). */
static bool
preempt_queue_ok(cycle *c, size_t p, const cycle_queue *q)
{
	const fs_msic_cjob *job = &c->jobs[p];
	const fs_msic_host *hs;

	if (!queue_open(c, q, false))
		return false;
	hs = host_of(c, q);
	if (job->arch.s != NULL && (hs->arch.s == NULL || !fs_str_eq(job->arch, hs->arch)))
		return why(c, "Available hosts differ from requested architecture (%.*s)", S(job->arch));
	/* the administrator's guide's prime-time limit holds for every job but express ones (the
	 * original forgot it here, so a long-waiting job could run through prime time) */
	return fits_queue(c, p, q) && prime_ok(c, p);
}

/*
 * Stop victim v for job p: suspend or checkpoint by SUSPEND_THRESHOLD, checkpoint when a suspend
 * fails, requeue when the checkpoint fails and FORCE_REQUEUE is set. false when it keeps running.
 */
static bool
stop_victim(cycle *c, size_t v, size_t p)
{
	const fs_msic_cjob *job = &c->jobs[v];
	const fs_msic_cycle_in *in = c->in;
	cycle_job *x = &c->j[v];
	fs_str qname = c->q[x->queue].name, host = c->q[x->queue].host_name, pid = job_id(c, p),
	       vid = job_id(c, v);
	int64_t left = job->o.walltime_us - job->o.used_us;
	double remaining;
	bool suspend;
	char msg[1024];

	if (left < 0)
		left = OVERTIME_SLOP_US;
	remaining = job->o.walltime_us > 0 ? 100.0 * (double) left / (double) job->o.walltime_us : 0;
	suspend =
	    in->suspend_below ? remaining <= in->suspend_threshold : remaining > in->suspend_threshold;
	if (suspend)
	{
		if (!job->suspend_fails)
		{
			snprintf(msg, sizeof(msg),
			         "suspended to make room for job %.*s (%.6g%% of its walltime left)", S(pid),
			         remaining);
			emit(c, FS_MSIC_SUSPEND, v, qname, host, msg);
			give_back(c, v);
			return true;
		}
		snprintf(msg, sizeof(msg), "suspend job %.*s FAILED; trying checkpoint", S(vid));
		emit(c, FS_MSIC_FAIL, v, qname, host, msg);
	}
	if (!job->checkpoint_fails)
	{
		snprintf(msg, sizeof(msg),
		         "checkpointed to make room for job %.*s; held and moved back to queue %.*s",
		         S(pid), S(x->oqueue));
		emit(c, FS_MSIC_CHECKPOINT, v, x->oqueue, host, msg);
		give_back(c, v);
		return true;
	}
	if (in->force_requeue)
	{
		snprintf(msg, sizeof(msg), "checkpoint job %.*s FAILED; requeueing it (FORCE_REQUEUE)",
		         S(vid));
		emit(c, FS_MSIC_FAIL, v, qname, host, msg);
		snprintf(msg, sizeof(msg),
		         "requeued to make room for job %.*s; its run so far is lost, it starts again "
		         "from queue %.*s",
		         S(pid), S(x->oqueue));
		emit(c, FS_MSIC_REQUEUE, v, x->oqueue, host, msg);
		give_back(c, v);
		return true;
	}
	snprintf(msg, sizeof(msg),
	         "checkpoint job %.*s FAILED and FORCE_REQUEUE is off; it keeps running", S(vid));
	emit(c, FS_MSIC_FAIL, v, qname, host, msg);
	count_candidate(c, v, -1);
	x->unstoppable = true;
	x->chkpt_ok = false;
	return false;
}

/*
 * pack_queues.c:make_room_for_job: the queue needing the fewest victims (first search, then, for
 * express and long-waiting jobs, the second), its victims stopped, all of them; a failed stop
 * leaves that job running and the search starts again with what is free now. -1: no room.
 */
static int
make_room(cycle *c, size_t p)
{
	const cycle_job *P = &c->j[p];
	int passes = (P->row->priority || P->row->waiting) ? 2 : 1;

	/* until every stop on the chosen queue succeeds, or no queue can make room: a failed stop
	 * makes its job unstoppable, no candidate any more, so the loop ends */
	for (;;)
	{
		int best = -1, level;
		size_t best_n = SIZE_MAX, nv, k;
		bool stopped = true;

		fs_check_interrupts();
		for (level = 0; level < passes; level++)
		{
			if (!room_anywhere(c, p, level == 1))
				continue;
			for (k = 0; k < c->nq; k++)
			{
				const cycle_queue *q = &c->q[k];

				/* a queue where stops could not make room, or need not (the job fits there
				 * as it is: something else holds it back), is not considered, nor its reason */
				if (!q->open || (q->room_cpus >= c->jobs[p].ncpus && q->room_mem >= c->j[p].mem) ||
				    room_bound(P, q, search_class(P, level == 1)) < c->jobs[p].ncpus ||
				    !preempt_queue_ok(c, p, q))
					continue;
				/* the fewest victims; on a tie the earlier queue */
				if (pick_victims(c, p, q, level == 1, &nv) && nv < best_n)
				{
					best = (int) k;
					best_n = nv;
				}
			}
			if (best >= 0)
				break;
		}
		if (best < 0)
			return -1;
		pick_victims(c, p, &c->q[best], level == 1, &nv);
		for (k = 0; k < nv && stopped; k++)
			stopped = stop_victim(c, c->victims[k], p);
		/* the stops changed the queue: the load gate looks at it again for the next job (the
		 * original kept it marked full for the rest of the cycle, whatever was freed) */
		set_full(c, &c->q[best], false);
		if (stopped)
			return best;
	}
}

/* ---------------------------------------------------------------- the cycle */

/* Start (or resume) job i on queue qi, and charge a job started for the first time to its
 * originating queue's fair share. */
static fs_status
run_job(cycle *c, size_t i, int qi)
{
	const fs_msic_cjob *job = &c->jobs[i];
	cycle_job *x = &c->j[i];
	const cycle_queue *q = &c->q[qi];
	char msg[1024];
	uint32_t e;

	take(c, i, qi);
	x->started = true;
	snprintf(msg, sizeof(msg), "Started on %s%s%s", c->in->started_at,
	         x->row->priority ? " (EXPRESS/high priority job)" : "",
	         x->row->waiting ? " (long-waiting job)" : "");
	emit(c, x->row->suspended ? FS_MSIC_RESUME : FS_MSIC_RUN, i, q->name, q->host_name, msg);
	/* a restarted (checkpointed) job is not charged again, nor (unlike the original) a resumed
	 * suspended one: both were charged in full when they first started */
	if (x->row->suspended || x->row->chkptd)
		return FS_OK;
	e = fs_hindex_get(&c->fsidx, fs_str_hash(x->oqueue), &x->oqueue, fs_str_array_eq, c->fsnames);
	if (e == UINT32_MAX)
		return FS_OK;
	return fs_msic_charge(&c->out->shares[e].s, job->ncpus, job->o.walltime_us, c->minutes,
	                      c->in->order.cluster_cpus, c->err);
}

/*
 * The pending jobs in order. While every queue is full, a job over its soft limit, checkpointed
 * or suspended waits unless express or long-waiting; a job no queue takes as it is makes room by
 * preemption unless it is one of those; a job that does not run gets its reason as a comment.
 */
static fs_status
place_pending(cycle *c)
{
	size_t k;
	fs_status st = FS_OK;

	for (k = 0; k < c->np && st == FS_OK; k++)
	{
		size_t i = c->rows[k].job;
		const cycle_job *x = &c->j[i];
		const fs_msic_row *r = x->row;
		int qi;

		FS_POLL(k);
		c->why_text = NO_RESOURCES;
		if (all_full(c) && !r->priority && !r->waiting &&
		    (r->runlimit || r->chkptd || r->suspended))
		{
			if (c->in->update_comments)
				emit(c, FS_MSIC_COMMENT, i, (fs_str){NULL, 0}, (fs_str){NULL, 0}, NO_RESOURCES);
			continue;
		}
		qi = find_best(c, i);
		if (qi < 0 && (r->priority || r->waiting || !(r->chkptd || r->runlimit || r->suspended)))
			qi = make_room(c, i);
		if (qi >= 0)
			st = run_job(c, i, qi);
		else if (c->in->update_comments)
			emit(c, FS_MSIC_COMMENT, i, (fs_str){NULL, 0}, (fs_str){NULL, 0}, c->why_text);
	}
	return st;
}

/* The host part of exec_host: PBS writes "host/0+host/1". */
static fs_str
bare_host(fs_str s)
{
	size_t k;

	for (k = 0; k < s.len; k++)
		if (s.s[k] == '/' || s.s[k] == '+')
			break;
	s.len = k;
	return s;
}

/* Hosts and queues by name, the batch queues paired with theirs. */
static fs_status
setup_queues(cycle *c, fs_hindex *hidx, fs_str *hnames)
{
	const fs_msic_cycle_in *in = c->in;
	fs_str *qnames = c->qnames = c->a->alloc(c->a->ctx, sizeof(fs_str) * (in->nqueues + 1));
	size_t k;
	fs_status st = FS_OK;

	fs_hindex_init(hidx, in->nhosts, c->a);
	for (k = 0; k < in->nhosts && st == FS_OK; k++)
	{
		const fs_msic_host *h = &in->hosts[k];

		FS_POLL(k);
		hnames[k] = h->name;
		if (h->name.len == 0)
			st = fs_fail(c->err, FS_ERR_VALUE, "host %zu has an empty name", k + 1);
		else if (h->ncpus < 0 || !(h->mem < 0 || isfinite(h->mem)) || !isfinite(h->loadave))
			st = fs_fail(c->err, FS_ERR_VALUE, "host \"%.*s\" has a negative or infinite amount",
			             S(h->name));
		else if (fs_hindex_put(hidx, fs_str_hash(h->name), &h->name, (uint32_t) k, fs_str_array_eq,
		                       hnames) != k)
		{
			st = fs_fail(c->err, FS_ERR_VALUE, "host \"%.*s\" appears twice in hosts", S(h->name));
			fs_error_hint(c->err, "Give each host once.");
		}
	}
	fs_hindex_init(&c->qidx, in->nqueues, c->a);
	for (k = 0; k < in->nqueues && st == FS_OK; k++)
	{
		qnames[k] = in->queues[k].name;
		if (qnames[k].len == 0)
			st = fs_fail(c->err, FS_ERR_VALUE, "queue %zu has an empty name", k + 1);
		else if (fs_hindex_put(&c->qidx, fs_str_hash(qnames[k]), &qnames[k], (uint32_t) k,
		                       fs_str_array_eq, qnames) != k)
		{
			st = fs_fail(c->err, FS_ERR_VALUE, "queue \"%.*s\" appears twice in queues",
			             S(qnames[k]));
			fs_error_hint(c->err, "Give each queue once.");
		}
	}
	for (k = 0; k < in->nbatch && st == FS_OK; k++)
	{
		cycle_queue *q = &c->q[k];
		uint32_t e = fs_hindex_get(&c->qidx, fs_str_hash(in->batch_queues[k]), &in->batch_queues[k],
		                           fs_str_array_eq, qnames);

		q->name = in->batch_queues[k];
		if (e == UINT32_MAX)
		{
			st = fs_fail(c->err, FS_ERR_VALUE,
			             "batch queue \"%.*s\" of the configuration is not in queues", S(q->name));
			fs_error_hint(c->err, "Give every BATCH_QUEUES queue an msic_queue row.");
			break;
		}
		q->q = &in->queues[e];
		q->host_name = in->batch_hosts[k].s != NULL ? in->batch_hosts[k] : q->q->host;
		if (q->host_name.s == NULL)
		{
			st = fs_fail(c->err, FS_ERR_VALUE, "batch queue \"%.*s\" has no host", S(q->name));
			fs_error_hint(c->err, "Write it as queue@host in BATCH_QUEUES, or give its "
			                      "msic_queue row a host.");
			break;
		}
		if (q->q->host.s != NULL && !fs_str_eq(q->q->host, q->host_name))
		{
			st = fs_fail(c->err, FS_ERR_VALUE,
			             "batch queue \"%.*s\" is on host \"%.*s\" in the configuration but on "
			             "\"%.*s\" in queues",
			             S(q->name), S(q->host_name), S(q->q->host));
			break;
		}
		e = fs_hindex_get(hidx, fs_str_hash(q->host_name), &q->host_name, fs_str_array_eq, hnames);
		/* a host without a row has no MOM data: the original skips its queue */
		q->host = e == UINT32_MAX ? -1 : (int) e;
	}
	return st;
}

double
fs_msic_default_mem(bool fair_share_entry, double default_mem, double max_mem)
{
	if (!fair_share_entry)
		return FS_MSIC_BUILTIN_MEM;
	return default_mem >= 0 ? default_mem : max_mem >= 0 ? max_mem : FS_MSIC_BUILTIN_MEM;
}

/* The memory of a job without a request: its originating queue's entry and limits. */
static double
default_mem(const cycle *c, fs_str oqueue)
{
	const fs_msic_cycle_in *in = c->in;
	bool entry = fs_hindex_get(&c->fsidx, fs_str_hash(oqueue), &oqueue, fs_str_array_eq,
	                           c->fsnames) != UINT32_MAX;
	/* by the index, not a scan of the queues: one lookup per job */
	uint32_t k =
	    entry ? fs_hindex_get(&c->qidx, fs_str_hash(oqueue), &oqueue, fs_str_array_eq, c->qnames)
	          : UINT32_MAX;

	if (k != UINT32_MAX)
		return fs_msic_default_mem(true, in->queues[k].default_mem, in->queues[k].max_mem);
	return fs_msic_default_mem(entry, -1, -1);
}

/* Each job's cycle state; running jobs charged to their host and batch queue. */
static fs_status
setup_jobs(cycle *c, const fs_hindex *hidx, const fs_str *hnames)
{
	const fs_msic_cycle_in *in = c->in;
	fs_str submit = {in->order.submit_queue, in->order.submitlen};
	size_t k, i;

	for (k = 0; k < c->n; k++)
	{
		const fs_msic_row *r = &c->rows[k];
		const fs_msic_cjob *job = &c->jobs[r->job];
		cycle_job *x = &c->j[r->job];

		FS_POLL(k);
		x->row = r;
		x->chkpt_ok = r->chkpt_ok;
		x->queue = x->host = -1;
		x->oqueue.s = job->o.queue ? job->o.queue : submit.s;
		x->oqueue.len = job->o.queue ? job->o.queuelen : submit.len;
		x->exec_host = job->exec_host.s ? bare_host(job->exec_host) : job->exec_host;
		if (job->ncpus < 0)
			return fs_fail(c->err, FS_ERR_VALUE, "job \"%.*s\" asks for %d CPUs",
			               S(job_id(c, r->job)), job->ncpus);
		if (job->o.state != 'Q' && job->exec_host.s == NULL)
		{
			fs_fail(c->err, FS_ERR_VALUE, "%s job \"%.*s\" has no exec_host",
			        job->o.state == 'R' ? "running" : "suspended", S(job_id(c, r->job)));
			fs_error_hint(c->err, "A running or suspended job needs the host it is on.");
			return FS_ERR_VALUE;
		}
		if (observes_pt(in) && job->o.walltime_us > INT64_C(86400000000) * FS_MSIC_MAX_WALK_DAYS)
		{
			fs_fail(c->err, FS_ERR_VALUE, "job \"%.*s\" asks for more than %d days of walltime",
			        S(job_id(c, r->job)), FS_MSIC_MAX_WALK_DAYS);
			return FS_ERR_VALUE;
		}
		x->mem = job->mem >= 0 ? job->mem : default_mem(c, x->oqueue);
		if (job->o.state == 'R')
		{
			uint32_t h = fs_hindex_get(hidx, fs_str_hash(x->exec_host), &x->exec_host,
			                           fs_str_array_eq, hnames);

			if (h == UINT32_MAX)
				continue; /* a host the scheduler does not know: nothing to account */
			/* the original has one batch queue per host: the first one on the job's host */
			for (i = 0; i < c->nq; i++)
				if (c->q[i].host == (int) h)
					break;
			if (i < c->nq)
			{
				take(c, r->job, (int) i);
				count_candidate(c, r->job, 1);
			}
			else
			{
				c->h[h].alloc += job->ncpus;
				c->h[h].mem_alloc += x->mem;
				x->host = (int) h;
			}
		}
	}
	/* take() counted the load of jobs already running in loadave: undo that part */
	for (i = 0; i < in->nhosts; i++)
		c->h[i].load = in->hosts[i].loadave;
	return FS_OK;
}

/* Share states: one per FAIR_SHARE entry (zeros when not given), the index of their names. */
static void
setup_shares(cycle *c)
{
	const fs_msic_order_in *o = &c->in->order;
	size_t k;

	c->fsnames = c->a->alloc(c->a->ctx, sizeof(fs_str) * (o->nfs + 1));
	c->out->shares = c->a->alloc(c->a->ctx, sizeof(fs_msic_state) * (o->nfs + 1));
	c->out->nshares = o->nfs;
	fs_hindex_init(&c->fsidx, o->nfs, c->a);
	for (k = 0; k < o->nfs; k++)
	{
		fs_msic_state *s = &c->out->shares[k];

		c->fsnames[k].s = o->fs[k].queue;
		c->fsnames[k].len = o->fs[k].queuelen;
		fs_hindex_put(&c->fsidx, fs_str_hash(c->fsnames[k]), &c->fsnames[k], (uint32_t) k,
		              fs_str_array_eq, c->fsnames);
		s->queue = o->fs[k].queue;
		s->queuelen = o->fs[k].queuelen;
		memset(&s->s, 0, sizeof(s->s));
	}
	for (k = 0; k < o->nstates; k++)
	{
		fs_str q = {o->states[k].queue, o->states[k].queuelen};
		uint32_t e = fs_hindex_get(&c->fsidx, fs_str_hash(q), &q, fs_str_array_eq, c->fsnames);

		if (e != UINT32_MAX)
			c->out->shares[e].s = o->states[k].s;
	}
}

fs_status
fs_msic_cycle(const fs_msic_cycle_in *in, const fs_msic_cjob *jobs, size_t n, const fs_allocator *a,
              fs_msic_cycle_out *out, fs_error *err)
{
	cycle c;
	fs_msic_ojob *oj;
	fs_hindex hidx;
	fs_str *hnames;
	size_t k;
	fs_status st;

	fs_error_clear(err);
	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	fs_sb_init(&out->text, a, 256);
	c.in = in, c.jobs = jobs, c.n = n, c.a = a, c.err = err, c.out = out;
	if (n > FS_MSIC_JOBS_MAX)
		return fs_fail(err, FS_ERR_LIMIT, "too many jobs: %zu (at most %d)", n, FS_MSIC_JOBS_MAX);
	oj = a->alloc(a->ctx, sizeof(fs_msic_ojob) * (n + 1));
	for (k = 0; k < n; k++)
		oj[k] = jobs[k].o;
	st = fs_msic_job_order(&in->order, oj, n, a, &c.rows, err);
	a->release(a->ctx, oj);
	if (st != FS_OK)
		return st;
	while (c.np < n && jobs[c.rows[c.np].job].o.state != 'R')
		c.np++;

	c.nq = in->nbatch;
	c.q = a->alloc(a->ctx, sizeof(cycle_queue) * (c.nq + 1));
	memset(c.q, 0, sizeof(cycle_queue) * (c.nq + 1));
	c.h = a->alloc(a->ctx, sizeof(cycle_host) * (in->nhosts + 1));
	memset(c.h, 0, sizeof(cycle_host) * (in->nhosts + 1));
	c.j = a->alloc(a->ctx, sizeof(cycle_job) * (n + 1));
	memset(c.j, 0, sizeof(cycle_job) * (n + 1));
	c.victims = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	hnames = a->alloc(a->ctx, sizeof(fs_str) * (in->nhosts + 1));
	setup_shares(&c);
	st = setup_queues(&c, &hidx, hnames);
	c.last_up = -1;
	/* which queues are open, and the last one whose host is up (find_best's all-full case) */
	for (k = 0; k < c.nq && st == FS_OK; k++)
	{
		cycle_queue *q = &c.q[k];
		bool up = q->host >= 0 && in->hosts[q->host].up;

		q->open = up && q->q->enabled && q->q->started;
		c.nonfull += q->open;
		if (up)
			c.last_up = (int) k;
	}
	if (st == FS_OK)
	{
		setup_ranks(&c);
		st = setup_jobs(&c, &hidx, hnames);
	}
	if (st == FS_OK)
	{
		int64_t y, m, d;

		in->clock->to_local(in->clock->ctx, in->order.at, &y, &m, &d);
		c.minutes = (in->order.at - in->clock->from_local(in->clock->ctx, y, m, d, 0)) / 60000000;
		if (c.minutes < 0)
			c.minutes = 0;
		st = place_pending(&c);
	}

	for (k = 0; k < c.nq; k++)
		if (c.q[k].jobs)
			a->release(a->ctx, c.q[k].jobs);
	a->release(a->ctx, c.q);
	a->release(a->ctx, c.h);
	a->release(a->ctx, c.j);
	a->release(a->ctx, c.victims);
	if (c.ge_all)
		a->release(a->ctx, c.ge_all);
	a->release(a->ctx, c.rows);
	a->release(a->ctx, hnames);
	a->release(a->ctx, c.fsnames);
	a->release(a->ctx, c.fsidx.slots);
	if (c.qidx.slots)
		a->release(a->ctx, c.qidx.slots);
	if (c.qnames)
		a->release(a->ctx, c.qnames);
	if (hidx.slots)
		a->release(a->ctx, hidx.slots);
	if (st != FS_OK)
		fs_msic_cycle_free(out, a);
	return st;
}

void
fs_msic_cycle_free(fs_msic_cycle_out *out, const fs_allocator *a)
{
	if (out->d)
		a->release(a->ctx, out->d);
	if (out->shares)
		a->release(a->ctx, out->shares);
	if (out->text.data)
		a->release(a->ctx, out->text.data);
	memset(out, 0, sizeof(*out));
}
