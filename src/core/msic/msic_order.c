/*
 * msic_order.c: the MSIC scheduler's job flags and job order (usersort.c and jobinfo.c of the
 * original, as the reference on the original MSIC-Cluster PBS scheduler describes its ranks, job
 * flags, job order and per-user soft limit).
 * Counting per owner and queue goes through hash tables and the order through fs_sort, so one
 * call is O(n log n) in the jobs.
 */
#include "msic/msic_order.h"

#include <math.h>
#include <string.h>

/* the original's JOB_OVERTIME_SLOP is applied after its sort, so it never changes the order */
#define SHOWN(len) ((int) ((len) > 200 ? 200 : (len)))

static const char *const pending_steps[] = {"priority",    "waiting",   "rank",   "user_limit",
                                            "queued_jobs", "suspended", "chkptd", "walltime",
                                            "age",         "job_id"};

/* ---------------------------------------------------------------- queues */

typedef struct queue_info
{
	double rank;
	bool over;
	int limit;
} queue_info;

/* Each FAIR_SHARE entry names a queue of its own, with numbers from 0 to 100: indexed in qidx. */
static fs_status
check_fair_share(const fs_msic_order_in *in, fs_hindex *qidx, fs_str *qnames, fs_error *err)
{
	size_t i;

	for (i = 0; i < in->nfs; i++)
	{
		const fs_msic_fs_entry *e = &in->fs[i];
		fs_str q = {e->queue, e->queuelen};

		if (e->queue == NULL || e->queuelen == 0)
		{
			fs_fail(err, FS_ERR_VALUE, "FAIR_SHARE entry %zu of the configuration has no queue",
			        i + 1);
			return FS_ERR_VALUE;
		}
		if (e->shares < 0 || e->shares > 100 || e->max_run_pct < 0 || e->max_run_pct > 100)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "FAIR_SHARE entry of queue \"%.*s\" is out of range (shares %d, running job "
			        "percentage %d)",
			        SHOWN(e->queuelen), e->queue, e->shares, e->max_run_pct);
			fs_error_detail(err, "Both numbers must be between 0 and 100.");
			return FS_ERR_VALUE;
		}
		qnames[i] = q;
		if (fs_hindex_put(qidx, fs_str_hash(q), &q, (uint32_t) i, fs_str_array_eq, qnames) != i)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "FAIR_SHARE queue \"%.*s\" appears twice in the configuration",
			        SHOWN(e->queuelen), e->queue);
			fs_error_hint(err, "Give each queue one FAIR_SHARE entry.");
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

/* Rank, over share and soft limit of every FAIR_SHARE queue, from its share state. */
static fs_status
queue_infos(const fs_msic_order_in *in, const fs_hindex *qidx, const fs_str *qnames, queue_info *qi,
            const fs_allocator *a, fs_error *err)
{
	fs_hindex sidx;
	fs_str *snames = a->alloc(a->ctx, sizeof(fs_str) * (in->nstates + 1));
	const fs_msic_state **state_of = a->alloc(a->ctx, sizeof(void *) * (in->nfs + 1));
	long total = 0;
	size_t i;
	fs_status st = FS_OK;

	fs_hindex_init(&sidx, in->nstates, a);
	for (i = 0; i < in->nfs; i++)
	{
		state_of[i] = NULL;
		total += in->fs[i].shares;
	}
	for (i = 0; i < in->nstates && st == FS_OK; i++)
	{
		const fs_msic_state *s = &in->states[i];
		fs_str q = {s->queue, s->queuelen};
		uint32_t e;

		FS_POLL(i);
		snames[i] = q;
		if (fs_hindex_put(&sidx, fs_str_hash(q), &q, (uint32_t) i, fs_str_array_eq, snames) != i)
		{
			st = fs_fail(err, FS_ERR_VALUE, "the share state of queue \"%.*s\" is given twice",
			             SHOWN(s->queuelen), s->queue);
			fs_error_hint(err, "Give each queue one msic_share value.");
			break;
		}
		if (fs_msic_share_check(&s->s, "a share state", err) != FS_OK ||
		    !isfinite(fs_msic_past_pct(&s->s)))
		{
			st = fs_fail(err, FS_ERR_VALUE, "the share state of queue \"%.*s\" is out of range",
			             SHOWN(s->queuelen), s->queue);
			fs_error_detail(err, "ndays, past_pct, today_usage and today_max must be finite and "
			                     "not negative.");
			break;
		}
		/* states of queues without a FAIR_SHARE entry are ignored, as the original's reader does */
		e = fs_hindex_get(qidx, fs_str_hash(q), &q, fs_str_array_eq, qnames);
		if (e != UINT32_MAX)
			state_of[e] = s;
	}
	for (i = 0; i < in->nfs && st == FS_OK; i++)
	{
		/* a FAIR_SHARE queue without a state has no history: zeros, as in the original */
		static const fs_msic_share zero = {0, 0.0, 0.0, 0.0};
		double past = fs_msic_past_pct(state_of[i] ? &state_of[i]->s : &zero);
		double share = total > 0 ? in->fs[i].shares * 100.0 / (double) total : 0.0;

		qi[i].rank = fs_msic_rank_value(past, share, in->rank);
		qi[i].over = fs_msic_over_share(qi[i].rank, in->rank);
		qi[i].limit = (int) ((int64_t) in->fs[i].max_run_pct * in->cluster_cpus / 100);
	}
	a->release(a->ctx, sidx.slots);
	a->release(a->ctx, snames);
	a->release(a->ctx, (void *) state_of);
	return st;
}

/* ---------------------------------------------------------------- jobs */

typedef struct pair_key
{
	fs_str owner, queue;
} pair_key;

static bool
eq_pair(const void *ctx, uint32_t entry, const void *key)
{
	const pair_key *p = &((const pair_key *) ctx)[entry], *k = key;

	return fs_str_eq(p->owner, k->owner) && fs_str_eq(p->queue, k->queue);
}

static uint64_t
pair_hash(const pair_key *k)
{
	uint64_t h = fs_str_hash(k->owner);

	return (h ^ (h >> 29)) * 0x9E3779B97F4A7C15ULL ^ fs_str_hash(k->queue);
}

/* What the comparisons read, per job. */
typedef struct job_key
{
	bool priority, promoted, exceeds, suspended, chkptd;
	double rank;
	uint32_t queued;
	int64_t walltime, eligible, time_left;
	fs_str id;
} job_key;

static int
cmp_bool_first(bool a, bool b)
{
	return (int) b - (int) a;
}

#define CMP3(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

/* The pending comparison: the sign, and in *step the index of the step that decided it. */
static int
pending_cmp(const job_key *a, const job_key *b, int *step)
{
	int c;

	if ((c = cmp_bool_first(a->priority, b->priority)) != 0)
		return *step = 0, c;
	if ((c = cmp_bool_first(a->promoted, b->promoted)) != 0)
		return *step = 1, c;
	if ((c = CMP3(a->rank, b->rank)) != 0)
		return *step = 2, c;
	if ((c = CMP3(a->exceeds, b->exceeds)) != 0)
		return *step = 3, c;
	if ((c = CMP3(a->queued, b->queued)) != 0)
		return *step = 4, c;
	if ((c = cmp_bool_first(a->suspended, b->suspended)) != 0)
		return *step = 5, c;
	if ((c = cmp_bool_first(a->chkptd, b->chkptd)) != 0)
		return *step = 6, c;
	if ((c = CMP3(a->walltime, b->walltime)) != 0)
		return *step = 7, c;
	if ((c = CMP3(a->eligible, b->eligible)) != 0)
		return *step = 8, c;
	*step = 9;
	return fs_str_cmp(a->id, b->id);
}

static int
pending_order(const void *x, const void *y, void *ctx)
{
	const job_key *k = ctx;
	int step;

	return pending_cmp(&k[*(const uint32_t *) x], &k[*(const uint32_t *) y], &step);
}

static int
running_cmp(const job_key *a, const job_key *b, const char **step)
{
	int c = CMP3(a->time_left, b->time_left);

	if (c != 0)
		return *step = "time_left", c;
	*step = "job_id";
	return fs_str_cmp(a->id, b->id);
}

static int
running_order(const void *x, const void *y, void *ctx)
{
	const job_key *k = ctx;
	const char *step;

	return running_cmp(&k[*(const uint32_t *) x], &k[*(const uint32_t *) y], &step);
}

static fs_status
check_job(const fs_msic_ojob *j, size_t i, fs_error *err)
{
	if (j->job_id == NULL || j->idlen == 0)
		return fs_fail(err, FS_ERR_VALUE, "job %zu has an empty job_id", i + 1);
	if (j->owner == NULL)
		return fs_fail(err, FS_ERR_VALUE, "job \"%.*s\" has no owner", SHOWN(j->idlen), j->job_id);
	if (j->state != 'Q' && j->state != 'R' && j->state != 'S')
	{
		fs_fail(err, FS_ERR_VALUE, "job \"%.*s\" has an invalid state", SHOWN(j->idlen), j->job_id);
		fs_error_detail(err, "A job's state must be Q (queued), R (running) or S (suspended).");
		return FS_ERR_VALUE;
	}
	if (j->walltime_us < 0 || j->used_us < 0)
		return fs_fail(err, FS_ERR_VALUE, "job \"%.*s\" has a negative walltime", SHOWN(j->idlen),
		               j->job_id);
	return FS_OK;
}

/* What ordering the jobs works with: the queues, the jobs' ids, owner-queue pairs and keys. */
typedef struct order_work
{
	fs_hindex qidx, ididx, pidx;
	fs_str *qnames, *ids;
	queue_info *qi; /* per FAIR_SHARE entry, and last for a queue without one */
	pair_key *pairs;
	size_t npairs;
	uint32_t *pair_of, *running, *queued, *ordinal;
	job_key *keys;
	fs_msic_row *rows;
	uint32_t *pend, *run; /* the pending and the running jobs, sorted in turn */
	size_t np, nr;
} order_work;

static void
order_work_init(order_work *w, const fs_msic_order_in *in, size_t n, const fs_allocator *a)
{
	memset(w, 0, sizeof(*w));
	fs_hindex_init(&w->qidx, in->nfs, a);
	w->qnames = a->alloc(a->ctx, sizeof(fs_str) * (in->nfs + 1));
	w->qi = a->alloc(a->ctx, sizeof(queue_info) * (in->nfs + 1));
	fs_hindex_init(&w->ididx, n, a);
	fs_hindex_init(&w->pidx, n, a);
	w->ids = a->alloc(a->ctx, sizeof(fs_str) * (n + 1));
	w->pairs = a->alloc(a->ctx, sizeof(pair_key) * (n + 1));
	w->pair_of = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->running = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->queued = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->ordinal = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->keys = a->alloc(a->ctx, sizeof(job_key) * (n + 1));
	w->pend = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->run = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	w->rows = a->alloc(a->ctx, sizeof(fs_msic_row) * (n + 1));
}

static void
order_work_free(order_work *w, const fs_allocator *a)
{
	a->release(a->ctx, w->qidx.slots);
	a->release(a->ctx, w->ididx.slots);
	a->release(a->ctx, w->pidx.slots);
	a->release(a->ctx, w->qnames);
	a->release(a->ctx, w->qi);
	a->release(a->ctx, w->ids);
	a->release(a->ctx, w->pairs);
	a->release(a->ctx, w->pair_of);
	a->release(a->ctx, w->running);
	a->release(a->ctx, w->queued);
	a->release(a->ctx, w->ordinal);
	a->release(a->ctx, w->keys);
	a->release(a->ctx, w->pend);
	a->release(a->ctx, w->run);
	a->release(a->ctx, w->rows);
}

/* The owner and queue a job counts under (a job without PBS_O_QUEUE: the submit queue's). */
static fs_status
job_pair(const fs_msic_order_in *in, const fs_msic_ojob *j, pair_key *pk, fs_error *err)
{
	pk->owner.s = j->owner;
	pk->owner.len = j->ownerlen;
	if (j->queue != NULL)
	{
		pk->queue.s = j->queue;
		pk->queue.len = j->queuelen;
	}
	else if (in->submit_queue != NULL)
	{
		/* the original reads a job without PBS_O_QUEUE as one of the submit queue */
		pk->queue.s = in->submit_queue;
		pk->queue.len = in->submitlen;
	}
	else
		return fs_fail(err, FS_ERR_VALUE,
		               "job \"%.*s\" has no queue and the configuration no submit queue",
		               SHOWN(j->idlen), j->job_id);
	return FS_OK;
}

/* Pass 1: check each job, index its id, count running and queued jobs per owner and queue. */
static fs_status
count_jobs(order_work *w, const fs_msic_order_in *in, const fs_msic_ojob *jobs, size_t n,
           fs_error *err)
{
	size_t i;

	for (i = 0; i < n; i++)
	{
		const fs_msic_ojob *j = &jobs[i];
		pair_key pk;
		uint32_t p;
		fs_status st;

		FS_POLL(i);
		if ((st = check_job(j, i, err)) != FS_OK)
			return st;
		w->ids[i].s = j->job_id;
		w->ids[i].len = j->idlen;
		if (fs_hindex_put(&w->ididx, fs_str_hash(w->ids[i]), &w->ids[i], (uint32_t) i,
		                  fs_str_array_eq, w->ids) != i)
		{
			st = fs_fail(err, FS_ERR_VALUE, "job \"%.*s\" appears twice in jobs", SHOWN(j->idlen),
			             j->job_id);
			fs_error_hint(err, "Give each job once.");
			return st;
		}
		if ((st = job_pair(in, j, &pk, err)) != FS_OK)
			return st;
		w->pairs[w->npairs] = pk;
		p = fs_hindex_put(&w->pidx, pair_hash(&pk), &pk, (uint32_t) w->npairs, eq_pair, w->pairs);
		if (p == w->npairs)
		{
			w->running[p] = w->queued[p] = 0;
			w->npairs++;
		}
		w->pair_of[i] = p;
		if (j->state == 'R')
			w->ordinal[i] = w->running[p]++; /* in the order given: the server's job order */
		else
			w->queued[p]++;
	}
	return FS_OK;
}

/* Pass 2: the flags of job i's row and its sort key. */
static void
flag_job(order_work *w, const fs_msic_order_in *in, const fs_msic_ojob *j, size_t i)
{
	fs_str express = {in->express_queue, in->express_queue ? in->expresslen : 0};
	const pair_key *pk = &w->pairs[w->pair_of[i]];
	uint32_t e =
	    fs_hindex_get(&w->qidx, fs_str_hash(pk->queue), &pk->queue, fs_str_array_eq, w->qnames);
	const queue_info *q = &w->qi[e == UINT32_MAX ? in->nfs : e];
	uint32_t nrun = w->running[w->pair_of[i]];
	fs_msic_row *r = &w->rows[i];
	job_key *k = &w->keys[i];

	r->job = i;
	r->priority = express.len > 0 && fs_str_eq(pk->queue, express);
	/* both times are finite timestamps: the difference fits */
	r->waiting = in->at - j->eligible_at > in->max_wait_us && !q->over;
	r->suspended = j->state == 'S';
	r->chkptd = j->chkptd >= 0 ? j->chkptd == 1 : (j->state == 'Q' && j->has_exec_host);
	r->over_share = q->over;
	r->queue_rank = q->rank;
	r->user_limit = q->limit;
	r->user_running = (int) nrun;
	if (j->state == 'R')
	{
		/* beyond the first `limit` running jobs, counted only for owners with queued jobs */
		r->runlimit = w->queued[w->pair_of[i]] > 0 && w->ordinal[i] >= (uint32_t) q->limit;
		r->chkpt_ok = q->over && !r->priority && !r->waiting;
		w->run[w->nr++] = (uint32_t) i;
	}
	else
	{
		r->runlimit = nrun > (uint32_t) q->limit;
		r->chkpt_ok = q->over && !r->runlimit;
		w->pend[w->np++] = (uint32_t) i;
	}
	k->priority = r->priority;
	k->promoted = r->waiting && nrun < (uint32_t) q->limit;
	k->rank = q->rank;
	k->exceeds = (int64_t) nrun + 1 > q->limit;
	k->queued = w->queued[w->pair_of[i]];
	k->suspended = r->suspended;
	k->chkptd = r->chkptd;
	k->walltime = j->walltime_us;
	k->eligible = j->eligible_at;
	k->time_left = j->walltime_us - j->used_us;
	k->id = w->ids[i];
}

/* Pass 3: pending jobs in order, then running ones, each with the step that placed it. */
static fs_msic_row *
ordered_rows(order_work *w, size_t n, const fs_allocator *a)
{
	fs_msic_row *out;
	size_t i;

	fs_check_interrupts();
	fs_sort(w->pend, w->np, sizeof(uint32_t), pending_order, w->keys, a);
	fs_check_interrupts();
	fs_sort(w->run, w->nr, sizeof(uint32_t), running_order, w->keys, a);
	fs_check_interrupts();
	out = a->alloc(a->ctx, sizeof(fs_msic_row) * (n + 1));
	for (i = 0; i < w->np; i++)
	{
		fs_msic_row *r = &out[i];
		int step;

		FS_POLL(i);
		*r = w->rows[w->pend[i]];
		r->decided_by = NULL;
		if (i > 0)
		{
			pending_cmp(&w->keys[w->pend[i - 1]], &w->keys[w->pend[i]], &step);
			r->decided_by = pending_steps[step];
		}
	}
	for (i = 0; i < w->nr; i++)
	{
		fs_msic_row *r = &out[w->np + i];

		FS_POLL(i);
		*r = w->rows[w->run[i]];
		if (i == 0)
			r->decided_by = w->np > 0 ? "running" : NULL;
		else
			running_cmp(&w->keys[w->run[i - 1]], &w->keys[w->run[i]], &r->decided_by);
	}
	return out;
}

fs_status
fs_msic_job_order(const fs_msic_order_in *in, const fs_msic_ojob *jobs, size_t n,
                  const fs_allocator *a, fs_msic_row **out, fs_error *err)
{
	order_work w;
	size_t i;
	fs_status st;

	fs_error_clear(err);
	if (in->cluster_cpus < 1)
	{
		fs_fail(err, FS_ERR_VALUE, "cluster_cpus must be positive");
		fs_error_detail(err, "It is %d.", in->cluster_cpus);
		return FS_ERR_VALUE;
	}
	if (in->max_wait_us < 0)
		return fs_fail(err, FS_ERR_VALUE, "MAX_WAIT_TIME of the configuration is negative");
	if (n > FS_MSIC_JOBS_MAX)
		return fs_fail(err, FS_ERR_LIMIT, "too many jobs: %zu (at most %d)", n, FS_MSIC_JOBS_MAX);

	order_work_init(&w, in, n, a);
	st = check_fair_share(in, &w.qidx, w.qnames, err);
	if (st == FS_OK)
		st = queue_infos(in, &w.qidx, w.qnames, w.qi, a, err);
	/* a queue without a FAIR_SHARE entry: the original's rank 100 (1 in share terms), limit 0 */
	w.qi[in->nfs].rank = FS_MSIC_RANK_NO_ENTRY(in->rank);
	w.qi[in->nfs].over = false;
	w.qi[in->nfs].limit = 0;
	if (st == FS_OK)
		st = count_jobs(&w, in, jobs, n, err);
	if (st == FS_OK)
	{
		for (i = 0; i < n; i++)
		{
			FS_POLL(i);
			flag_job(&w, in, &jobs[i], i);
		}
		*out = ordered_rows(&w, n, a);
	}
	order_work_free(&w, a);
	return st;
}
