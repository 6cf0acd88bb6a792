/*
 * msic_replay.c: submissions replayed through MSIC scheduling cycles (see msic_replay.h). The
 * jobs' states between cycles live here; each cycle is fs_msic_cycle over the jobs that are
 * queued, running or suspended at that moment. Cost: O(cycles * (a log a + p * q)) for a jobs
 * alive, p of them pending, and q batch queues; idle stretches are skipped.
 */
#include "msic/msic_replay.h"

#include <stdio.h>
#include <string.h>

#define SHOWN(len) ((int) ((len) > 200 ? 200 : (len)))

/* One submission's state between cycles. */
typedef struct rjob
{
	char st;       /* 0: not submitted yet, 'Q', 'R', 'S', 'E': ended */
	int64_t used;  /* walltime used when it last stopped (or 0) */
	int64_t since; /* running since */
	int64_t run;   /* how long it really runs */
	fs_str exec_host;
	fs_str queue;     /* the batch queue it runs or ran in */
	int host;         /* index of exec_host in the hosts, -1: unknown */
	int chkptd;       /* -1: as the order decides (Q with an exec_host), 1: checkpointed */
	uint64_t comment; /* hash of its last comment; 0: none */
} rjob;

typedef struct replay
{
	const fs_msic_replay_in *in;
	const fs_msic_cjob *subs;
	rjob *r;
	uint32_t *alive; /* submissions queued, running or suspended */
	size_t nalive;
	fs_msic_state *shares; /* one per FAIR_SHARE entry */
	size_t nshares;
	fs_msic_replay_emit emit;
	void *ctx;
	const fs_allocator *a;
	fs_error *err;
} replay;

static int
by_ctime(const void *x, const void *y, void *ctx)
{
	const fs_msic_cjob *s = ctx;
	int64_t a = s[*(const uint32_t *) x].ctime, b = s[*(const uint32_t *) y].ctime;

	return a < b ? -1 : a > b;
}

static void
emit_row(replay *p, int64_t at, int step, fs_msic_action act, size_t job, fs_str queue, fs_str host,
         const char *reason, const fs_msic_state *share)
{
	fs_msic_replay_row row = {at, step, act, job, queue, host, reason, share};

	p->emit(p->ctx, &row);
}

static void
emit_shares(replay *p, int64_t at)
{
	size_t k;
	fs_str none = {NULL, 0};

	for (k = 0; k < p->nshares; k++)
	{
		fs_str q = {p->shares[k].queue, p->shares[k].queuelen};

		emit_row(p, at, 0, FS_MSIC_SHARE, SIZE_MAX, q, none, NULL, &p->shares[k]);
	}
}

/* 23:00 local time of the day after the local date of `t`'s 23:00 (plus `days` - 1 days). */
static int64_t
rollover_after(const fs_msic_clock *clock, int64_t t, int days)
{
	int64_t y, m, d;

	clock->to_local(clock->ctx, t, &y, &m, &d);
	fs_civil_from_days(fs_days_from_civil(y, m, d) + days, &y, &m, &d);
	return clock->from_local(clock->ctx, y, m, d, INT64_C(23) * 3600 * 1000000);
}

/* The nightly rollovers due by `t`, one per day at 23:00 local time, each after its states. */
static fs_status
roll_until(replay *p, int64_t t, int64_t *roll)
{
	size_t k;
	fs_status st = FS_OK;

	while (*roll <= t && st == FS_OK)
	{
		emit_shares(p, *roll);
		for (k = 0; k < p->nshares && st == FS_OK; k++)
			st = fs_msic_rollover(&p->shares[k].s, p->err);
		*roll = rollover_after(p->in->cycle.clock, *roll, 1);
	}
	return st;
}

/* Jobs that end by `t`: their end rows, and they leave the alive list. */
static void
finish_jobs(replay *p, int64_t t)
{
	size_t k, keep = 0;

	for (k = 0; k < p->nalive; k++)
	{
		uint32_t i = p->alive[k];
		rjob *r = &p->r[i];

		if (r->st == 'R' && r->since + (r->run - r->used) <= t)
		{
			char msg[64];
			char hms[32];

			fs_msic_format_hms(r->run / 1000000, hms);
			snprintf(msg, sizeof(msg), "ended after %s", hms);
			emit_row(p, r->since + (r->run - r->used), 0, FS_MSIC_END, i, r->queue, r->exec_host,
			         msg, NULL);
			r->st = 'E';
			continue;
		}
		p->alive[keep++] = i;
	}
	p->nalive = keep;
}

static int
host_index(const replay *p, fs_str name)
{
	size_t h;

	for (h = 0; h < p->in->cycle.nhosts; h++)
		if (fs_str_eq(p->in->cycle.hosts[h].name, name))
			return (int) h;
	return -1;
}

/* Apply one cycle's decisions to the jobs' states, and emit them. */
static void
apply(replay *p, int64_t t, const fs_msic_cycle_out *out, const uint32_t *sub_of)
{
	size_t k;

	for (k = 0; k < out->n; k++)
	{
		const fs_msic_decision *d = &out->d[k];
		uint32_t i = sub_of[d->job];
		rjob *r = &p->r[i];
		const char *reason = out->text.data + d->reason;

		switch (d->action)
		{
			case FS_MSIC_RUN:
			case FS_MSIC_RESUME:
				r->st = 'R';
				r->since = t;
				r->exec_host = d->host;
				r->queue = d->queue;
				r->host = host_index(p, d->host);
				break;
			case FS_MSIC_SUSPEND:
				r->st = 'S';
				r->used += t - r->since;
				break;
			case FS_MSIC_CHECKPOINT:
				/* it restarts where it stopped, on the host that holds its checkpoint */
				r->st = 'Q';
				r->used += t - r->since;
				r->chkptd = 1;
				break;
			case FS_MSIC_REQUEUE:
				/* killed and queued again: it starts over, anywhere */
				r->st = 'Q';
				r->used = 0;
				r->exec_host.s = NULL;
				r->exec_host.len = 0;
				r->chkptd = -1;
				break;
			case FS_MSIC_COMMENT:
			{
				/* a comment is posted only when its text changes, as the original does */
				uint64_t h = fs_hash(reason, strlen(reason)) | 1;

				if (h == r->comment)
					continue;
				r->comment = h;
				break;
			}
			default:
				break;
		}
		emit_row(p, t, (int) k + 1, d->action, i, d->queue, d->host, reason, NULL);
	}
}

/* One cycle at t over the alive jobs. */
static fs_status
cycle_at(replay *p, int64_t t, fs_msic_cjob *jobs, uint32_t *sub_of, fs_msic_host *hosts)
{
	const fs_msic_replay_in *in = p->in;
	fs_msic_cycle_in cin = in->cycle;
	fs_msic_cycle_out out;
	char started[64];
	size_t k, h, nj = 0;
	fs_status st;

	for (h = 0; h < in->cycle.nhosts; h++)
		hosts[h].loadave = in->cycle.hosts[h].loadave;
	for (k = 0; k < p->nalive; k++)
	{
		uint32_t i = p->alive[k];
		const rjob *r = &p->r[i];
		fs_msic_cjob *j = &jobs[nj];

		*j = p->subs[i];
		j->o.state = r->st;
		j->o.used_us = r->st == 'R' ? r->used + (t - r->since) : r->used;
		j->o.chkptd = r->chkptd;
		j->o.has_exec_host = r->exec_host.s != NULL;
		j->exec_host = r->exec_host;
		sub_of[nj++] = i;
		/* a running job's CPUs are busy: the load the MOM would report */
		if (r->st == 'R' && r->host >= 0)
			hosts[r->host].loadave += j->ncpus;
	}
	cin.hosts = hosts;
	cin.order.at = t;
	cin.order.states = p->shares;
	cin.order.nstates = p->nshares;
	in->ctime(in->ctime_ctx, t, started, sizeof(started));
	cin.started_at = started;
	st = fs_msic_cycle(&cin, jobs, nj, p->a, &out, p->err);
	if (st != FS_OK)
		return st;
	apply(p, t, &out, sub_of);
	memcpy(p->shares, out.shares, sizeof(fs_msic_state) * p->nshares);
	fs_msic_cycle_free(&out, p->a);
	return FS_OK;
}

static bool
any_pending(const replay *p)
{
	size_t k;

	for (k = 0; k < p->nalive; k++)
		if (p->r[p->alive[k]].st == 'Q' || p->r[p->alive[k]].st == 'S')
			return true;
	return false;
}

/* The replay's own rules: a positive interval, a stop after the start, a bounded count of cycles,
 * and every job a plain submission (state Q, no exec_host) with a ctime. */
static fs_status
check_input(const fs_msic_replay_in *in, const fs_msic_cjob *subs, size_t n, fs_error *err)
{
	size_t k;

	if (in->interval <= 0)
		return fs_fail(err, FS_ERR_VALUE, "the cycle interval must be positive");
	if (in->stop < in->start)
		return fs_fail(err, FS_ERR_VALUE, "the replay stops before it starts");
	if ((in->stop - in->start) / in->interval >= FS_MSIC_REPLAY_CYCLES_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "the replay would run more than %d cycles",
		        FS_MSIC_REPLAY_CYCLES_MAX);
		fs_error_hint(err, "Replay a shorter stretch or use a longer cycle interval.");
		return FS_ERR_LIMIT;
	}
	for (k = 0; k < n; k++)
	{
		const fs_msic_cjob *s = &subs[k];

		FS_POLL(k);
		if (s->o.state != 'Q' || s->exec_host.s != NULL)
		{
			fs_fail(err, FS_ERR_VALUE, "replayed job \"%.*s\" is not a plain submission",
			        SHOWN(s->o.idlen), s->o.job_id);
			fs_error_detail(err, "A replay starts every job queued (state Q, no exec_host) at its "
			                     "ctime.");
			return FS_ERR_VALUE;
		}
		if (s->ctime == INT64_MIN)
		{
			fs_fail(err, FS_ERR_VALUE, "replayed job \"%.*s\" has no ctime", SHOWN(s->o.idlen),
			        s->o.job_id);
			fs_error_hint(err, "A replay queues each job at its ctime.");
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

fs_status
fs_msic_replay(const fs_msic_replay_in *in, const fs_msic_cjob *subs, size_t n,
               fs_msic_replay_emit emit, void *ctx, const fs_allocator *a, fs_error *err)
{
	replay p;
	uint32_t *order, *sub_of;
	fs_msic_cjob *jobs;
	fs_msic_host *hosts;
	const fs_msic_order_in *o = &in->cycle.order;
	size_t next = 0, k;
	int64_t t, roll;
	fs_status st;

	fs_error_clear(err);
	if ((st = check_input(in, subs, n, err)) != FS_OK)
		return st;
	memset(&p, 0, sizeof(p));
	p.in = in, p.subs = subs, p.emit = emit, p.ctx = ctx, p.a = a, p.err = err;
	p.r = a->alloc(a->ctx, sizeof(rjob) * (n + 1));
	memset(p.r, 0, sizeof(rjob) * (n + 1));
	p.alive = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	order = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	sub_of = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	jobs = a->alloc(a->ctx, sizeof(fs_msic_cjob) * (n + 1));
	hosts = a->alloc(a->ctx, sizeof(fs_msic_host) * (in->cycle.nhosts + 1));
	memcpy(hosts, in->cycle.hosts, sizeof(fs_msic_host) * in->cycle.nhosts);
	for (k = 0; k < n; k++)
	{
		int64_t run = subs[k].used_given ? subs[k].o.used_us : subs[k].o.walltime_us;

		order[k] = (uint32_t) k;
		/* PBS ends a job at its walltime */
		p.r[k].run = run < subs[k].o.walltime_us ? run : subs[k].o.walltime_us;
		p.r[k].chkptd = -1;
	}
	fs_sort(order, n, sizeof(uint32_t), by_ctime, (void *) subs, a);

	/* share states: one per FAIR_SHARE entry, from the given ones */
	p.nshares = o->nfs;
	p.shares = a->alloc(a->ctx, sizeof(fs_msic_state) * (o->nfs + 1));
	{
		/* the FAIR_SHARE queues by name, so that each state is one lookup */
		fs_hindex fidx;
		fs_str *fnames = a->alloc(a->ctx, sizeof(fs_str) * (o->nfs + 1));
		size_t s;

		fs_hindex_init(&fidx, o->nfs, a);
		for (k = 0; k < o->nfs; k++)
		{
			memset(&p.shares[k], 0, sizeof(fs_msic_state));
			p.shares[k].queue = o->fs[k].queue;
			p.shares[k].queuelen = o->fs[k].queuelen;
			fnames[k].s = o->fs[k].queue;
			fnames[k].len = o->fs[k].queuelen;
			fs_hindex_put(&fidx, fs_str_hash(fnames[k]), &fnames[k], (uint32_t) k, fs_str_array_eq,
			              fnames);
		}
		/* the last state of a queue wins, as the scan did */
		for (s = 0; s < o->nstates; s++)
		{
			fs_str q = {o->states[s].queue, o->states[s].queuelen};
			uint32_t e;

			FS_POLL(s);
			e = fs_hindex_get(&fidx, fs_str_hash(q), &q, fs_str_array_eq, fnames);
			if (e != UINT32_MAX)
				p.shares[e].s = o->states[s].s;
		}
		a->release(a->ctx, fidx.slots);
		a->release(a->ctx, fnames);
	}

	roll = rollover_after(in->cycle.clock, in->start, 0);
	if (roll <= in->start)
		roll = rollover_after(in->cycle.clock, in->start, 1);
	st = FS_OK;
	for (t = in->start; t < in->stop && st == FS_OK;)
	{
		fs_check_interrupts();
		st = roll_until(&p, t, &roll);
		finish_jobs(&p, t);
		while (next < n && subs[order[next]].ctime <= t)
		{
			p.r[order[next]].st = 'Q';
			p.alive[p.nalive++] = order[next++];
		}
		if (st == FS_OK && any_pending(&p))
			st = cycle_at(&p, t, jobs, sub_of, hosts);
		t += in->interval;
		/* nothing waits: jump to the first cycle at or after the next submission (ends are
		 * emitted with their own times whenever they are noticed) */
		if (!any_pending(&p))
		{
			if (next == n || subs[order[next]].ctime >= in->stop)
				t = in->stop;
			else if (subs[order[next]].ctime > t)
				t += (subs[order[next]].ctime - t + in->interval - 1) / in->interval * in->interval;
		}
	}
	/* the rollovers up to the stop, the jobs that ended by then, and the states at the stop */
	if (st == FS_OK)
		st = roll_until(&p, in->stop, &roll);
	if (st == FS_OK)
	{
		finish_jobs(&p, in->stop);
		emit_shares(&p, in->stop);
	}
	a->release(a->ctx, p.r);
	a->release(a->ctx, p.alive);
	a->release(a->ctx, p.shares);
	a->release(a->ctx, order);
	a->release(a->ctx, sub_of);
	a->release(a->ctx, jobs);
	a->release(a->ctx, hosts);
	return st;
}
