/*
 * test_msic_cycle.c: one MSIC scheduling cycle (src/core/msic/msic_cycle.c), and the fixtures the
 * replay tests share (unit.h): hand-checked cycles, and random cycles checked against the
 * invariants every cycle must keep (no host over-allocated, express and long-waiting jobs never
 * stopped, every job decided once, failed stops terminate).
 */
#include "unit.h"

#include "msic/msic_cycle.h"

#include <stdio.h>
#include <string.h>

#define MIN_US(m) ((int64_t) (m) *60 * 1000000)
#define DAY_US    (INT64_C(86400) * 1000000)

fs_str
unit_str(const char *s)
{
	fs_str r = {s, s ? strlen(s) : 0};

	return r;
}

static const fs_msic_fs_entry fair[] = {
    {"low", 3, 40, 50}, {"hi", 2, 40, 50}, {"special", 7, 20, 50}};
static const fs_msic_state states[] = {{"low", 3, {1, 150, 0, 0}}, {"hi", 2, {1, 10, 0, 0}}};

/* Tuesday 2026-12-01 10:00 UTC */
int64_t
unit_msic_tuesday_10(void)
{
	return fs_days_from_civil(2026, 12, 1) * DAY_US + MIN_US(600) -
	       fs_days_from_civil(2000, 1, 1) * DAY_US;
}

void
unit_msic_setup(fs_msic_cycle_in *in, fs_str *bq, fs_str *bh, fs_msic_host *hosts,
                fs_msic_queue *queues, int nq)
{
	static const char *qn[] = {"qa", "qb", "qc"}, *hn[] = {"ha", "hb", "hc"};
	int k;

	memset(in, 0, sizeof(*in));
	in->order.submit_queue = "pending";
	in->order.submitlen = 7;
	in->order.express_queue = "special";
	in->order.expresslen = 7;
	in->order.max_wait_us = 5 * DAY_US;
	in->order.fs = fair;
	in->order.nfs = 3;
	in->order.states = states;
	in->order.nstates = 2;
	in->order.at = unit_msic_tuesday_10();
	in->order.cluster_cpus = 20;
	for (k = 0; k < nq; k++)
	{
		bq[k] = unit_str(qn[k]);
		bh[k] = unit_str(hn[k]);
		memset(&queues[k], 0, sizeof(queues[k]));
		queues[k].name = bq[k];
		queues[k].enabled = queues[k].started = true;
		queues[k].max_running = queues[k].max_ncpus = queues[k].min_ncpus = -1;
		queues[k].max_user_run = -1;
		queues[k].max_mem = queues[k].min_mem = queues[k].default_mem = -1;
		queues[k].min_walltime = queues[k].max_walltime = -1;
		memset(&hosts[k], 0, sizeof(hosts[k]));
		hosts[k].name = bh[k];
		hosts[k].ncpus = 8;
		hosts[k].mem = 64e9;
		hosts[k].up = true;
	}
	in->batch_queues = bq;
	in->batch_hosts = bh;
	in->nbatch = (size_t) nq;
	in->hosts = hosts;
	in->nhosts = (size_t) nq;
	in->queues = queues;
	in->nqueues = (size_t) nq;
	in->pt_from = INT64_MIN;
	in->pt_limit = -1;
	in->clock = &unit_utc_clock;
	in->load_pct = 90;
	in->load_minus = 15;
	in->load_plus = 10;
	in->suspend_threshold = 10;
	in->update_comments = true;
	in->started_at = "Tue Dec  1 10:00:00 2026";
}

fs_msic_cjob
unit_msic_job(const char *id, const char *owner, const char *queue, char state, int ncpus,
              int wall_min, int used_min, const char *host)
{
	fs_msic_cjob j;

	memset(&j, 0, sizeof(j));
	j.o.job_id = id;
	j.o.idlen = strlen(id);
	j.o.owner = owner;
	j.o.ownerlen = strlen(owner);
	j.o.queue = queue;
	j.o.queuelen = strlen(queue);
	j.o.state = state;
	j.o.walltime_us = MIN_US(wall_min);
	j.o.used_us = MIN_US(used_min);
	j.o.eligible_at = unit_msic_tuesday_10() - MIN_US(60);
	j.o.chkptd = -1;
	j.o.has_exec_host = host != NULL;
	j.ncpus = ncpus;
	j.mem = 1e9;
	j.exec_host = unit_str(host);
	j.ctime = j.o.eligible_at;
	return j;
}

/* The decisions as "action job queue host" lines joined by "; ". */
static void
summary(const fs_msic_cycle_out *out, const fs_msic_cjob *jobs, char *buf, size_t cap)
{
	size_t k, len = 0;

	buf[0] = '\0';
	for (k = 0; k < out->n && len < cap; k++)
	{
		const fs_msic_decision *d = &out->d[k];

		len += (size_t) snprintf(buf + len, cap - len, "%s%s %.*s %.*s %.*s", k ? "; " : "",
		                         fs_msic_action_name(d->action), (int) jobs[d->job].o.idlen,
		                         jobs[d->job].o.job_id, (int) d->queue.len,
		                         d->queue.s ? d->queue.s : "", (int) d->host.len,
		                         d->host.s ? d->host.s : "");
	}
}

static void
test_examples(void)
{
	fs_msic_cycle_in in;
	fs_str bq[3], bh[3];
	fs_msic_host hosts[3];
	fs_msic_queue queues[3];
	fs_msic_cycle_out out;
	fs_error err;
	char buf[1024];
	fs_msic_cjob jobs[6];

	/* best fit: 4 CPUs leave qc's 4-CPU host empty */
	unit_msic_setup(&in, bq, bh, hosts, queues, 3);
	hosts[2].ncpus = 4;
	jobs[0] = unit_msic_job("a", "ann", "hi", 'Q', 4, 600, 0, NULL);
	CHECK(fs_msic_cycle(&in, jobs, 1, &unit_alloc, &out, &err) == FS_OK);
	summary(&out, jobs, buf, sizeof(buf));
	CHECK_STR(buf, "run a qc hc");
	CHECK_STR(out.text.data + out.d[0].reason, "Started on Tue Dec  1 10:00:00 2026");
	/* charged: 4 CPUs * 600 minutes; today_max = 20 CPUs * 600 minutes since midnight */
	CHECK_DBL(out.shares[1].s.today_usage, 2400, 0);
	CHECK_DBL(out.shares[1].s.today_max, 12000, 0);
	CHECK_DBL(out.shares[0].s.today_usage, 0, 0);
	fs_msic_cycle_free(&out, &unit_alloc);

	/* express job: the queue with the fewest victims, victims by time left */
	unit_msic_setup(&in, bq, bh, hosts, queues, 2);
	jobs[0] = unit_msic_job("x", "xan", "special", 'Q', 4, 60, 0, NULL);
	jobs[1] = unit_msic_job("a1", "ann", "low", 'R', 2, 600, 60, "ha");
	jobs[2] = unit_msic_job("a2", "ann", "low", 'R', 2, 600, 120, "ha");
	jobs[3] = unit_msic_job("a3", "ann", "hi", 'R', 4, 600, 0, "ha");
	jobs[4] = unit_msic_job("b1", "bob", "low", 'R', 4, 600, 540, "hb");
	jobs[5] = unit_msic_job("b2", "bob", "hi", 'R', 4, 600, 0, "hb");
	CHECK(fs_msic_cycle(&in, jobs, 6, &unit_alloc, &out, &err) == FS_OK);
	summary(&out, jobs, buf, sizeof(buf));
	/* b1 has 10% left: not above SUSPEND_THRESHOLD, checkpointed back to its queue low */
	CHECK_STR(buf, "checkpoint b1 low hb; run x qb hb");
	fs_msic_cycle_free(&out, &unit_alloc);

	/* the original's threshold rule suspends it instead */
	in.suspend_below = true;
	CHECK(fs_msic_cycle(&in, jobs, 6, &unit_alloc, &out, &err) == FS_OK);
	summary(&out, jobs, buf, sizeof(buf));
	CHECK_STR(buf, "suspend b1 qb hb; run x qb hb");
	fs_msic_cycle_free(&out, &unit_alloc);

	/* failed stops: b1 (checkpoint fails) keeps running, qa is searched next: a2 is suspended,
	 * a1 fails twice, and the second search takes a3 (hi) for the express job */
	in.suspend_below = false;
	jobs[1].suspend_fails = jobs[1].checkpoint_fails = true;
	jobs[2].checkpoint_fails = true;
	jobs[4].checkpoint_fails = true;
	CHECK(fs_msic_cycle(&in, jobs, 6, &unit_alloc, &out, &err) == FS_OK);
	summary(&out, jobs, buf, sizeof(buf));
	CHECK_STR(buf,
	          "fail b1 qb hb; suspend a2 qa ha; fail a1 qa ha; fail a1 qa ha; suspend a3 qa ha; "
	          "run x qa ha");
	fs_msic_cycle_free(&out, &unit_alloc);

	/* the default memory: a FAIR_SHARE queue's default, then its maximum; else 100 MB */
	CHECK_DBL(fs_msic_default_mem(true, 2e9, 8e9), 2e9, 0);
	CHECK_DBL(fs_msic_default_mem(true, -1, 8e9), 8e9, 0);
	CHECK_DBL(fs_msic_default_mem(true, -1, -1), FS_MSIC_BUILTIN_MEM, 0);
	CHECK_DBL(fs_msic_default_mem(false, 2e9, 8e9), FS_MSIC_BUILTIN_MEM, 0);

	/* errors: a batch queue without a row, a running job without a host */
	unit_msic_setup(&in, bq, bh, hosts, queues, 2);
	in.nqueues = 1;
	CHECK(fs_msic_cycle(&in, jobs, 1, &unit_alloc, &out, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "batch queue \"qb\" of the configuration is not in queues");
	unit_msic_setup(&in, bq, bh, hosts, queues, 2);
	jobs[0] = unit_msic_job("r", "rob", "hi", 'R', 1, 60, 0, NULL);
	CHECK(fs_msic_cycle(&in, jobs, 1, &unit_alloc, &out, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "running job \"r\" has no exec_host");
}

/* ---------------------------------------------------------------- random cycles */

static void
test_random_cycles(void)
{
	static const char *const oq[] = {"low", "hi", "special"};
	static const char *const owners[] = {"u0", "u1", "u2", "u3"};
	static const char *const hn[] = {"ha", "hb", "hc"};
	uint64_t seed = 42;
	int round, bad = 0, rounds = 3000;
	char ids[40][16];

	for (round = 0; round < rounds; round++)
	{
		fs_msic_cycle_in in;
		fs_str bq[3], bh[3];
		fs_msic_host hosts[3];
		fs_msic_queue queues[3];
		fs_msic_cycle_out out;
		fs_msic_cjob jobs[40];
		int64_t alloc[3] = {0, 0, 0};
		int decided[40];
		int n = 0, k, h;
		fs_error err;

		unit_msic_setup(&in, bq, bh, hosts, queues, 3);
		in.force_requeue = unit_rand(&seed) % 2;
		in.suspend_below = unit_rand(&seed) % 2;
		in.order.rank = (fs_msic_rank_mode) (unit_rand(&seed) % 2);
		for (h = 0; h < 3; h++)
		{
			int r = (int) (unit_rand(&seed) % 6);

			hosts[h].ncpus = 2 + (int) (unit_rand(&seed) % 10);
			hosts[h].loadave = (double) (unit_rand(&seed) % 12);
			/* running jobs that fit the host */
			while (r-- > 0 && n < 40)
			{
				int c = 1 + (int) (unit_rand(&seed) % 4);

				if (alloc[h] + c > hosts[h].ncpus)
					break;
				snprintf(ids[n], sizeof(ids[n]), "r%d", n);
				jobs[n] = unit_msic_job(
				    ids[n], owners[unit_rand(&seed) % 4], oq[unit_rand(&seed) % 3], 'R', c,
				    60 + (int) (unit_rand(&seed) % 600), (int) (unit_rand(&seed) % 700), hn[h]);
				if (unit_rand(&seed) % 5 == 0)
					jobs[n].o.eligible_at -= 6 * DAY_US; /* long waiting */
				jobs[n].suspend_fails = unit_rand(&seed) % 3 == 0;
				jobs[n].checkpoint_fails = unit_rand(&seed) % 3 == 0;
				alloc[h] += c;
				n++;
			}
		}
		for (k = (int) (unit_rand(&seed) % 10); k > 0 && n < 40; k--)
		{
			bool susp = unit_rand(&seed) % 6 == 0;

			snprintf(ids[n], sizeof(ids[n]), "q%d", n);
			jobs[n] = unit_msic_job(ids[n], owners[unit_rand(&seed) % 4], oq[unit_rand(&seed) % 3],
			                        susp ? 'S' : 'Q', 1 + (int) (unit_rand(&seed) % 8),
			                        30 + (int) (unit_rand(&seed) % 600), susp ? 10 : 0,
			                        susp ? hn[unit_rand(&seed) % 3] : NULL);
			if (unit_rand(&seed) % 5 == 0)
				jobs[n].o.eligible_at -= 6 * DAY_US;
			n++;
		}
		if (fs_msic_cycle(&in, jobs, (size_t) n, &unit_alloc, &out, &err) != FS_OK)
		{
			bad++;
			continue;
		}
		memset(decided, 0, sizeof(decided));
		for (k = 0; k < (int) out.n; k++)
		{
			const fs_msic_decision *d = &out.d[k];
			const fs_msic_cjob *j = &jobs[d->job];
			int hi = -1;

			for (h = 0; h < 3; h++)
				if (d->host.s && fs_str_eq(d->host, hosts[h].name))
					hi = h;
			switch (d->action)
			{
				case FS_MSIC_RUN:
				case FS_MSIC_RESUME:
					/* pending jobs only, once, on their own host when they have one */
					if (j->o.state == 'R' || decided[d->job]++ || hi < 0 ||
					    (j->exec_host.s && !fs_str_eq(j->exec_host, hosts[hi].name)) ||
					    (d->action == FS_MSIC_RESUME) != (j->o.state == 'S'))
						bad++;
					else
						alloc[hi] += j->ncpus;
					break;
				case FS_MSIC_SUSPEND:
				case FS_MSIC_CHECKPOINT:
				case FS_MSIC_REQUEUE:
					/* running jobs, neither express nor long-waiting (waiting long and not
					 * over share: low is over share only in the administrator's guide's rank),
					 * stopped once */
					if (j->o.state != 'R' || decided[d->job]++ || hi < 0 ||
					    fs_str_eq(unit_str(j->o.queue), unit_str("special")) ||
					    (j->o.eligible_at < unit_msic_tuesday_10() - 5 * DAY_US &&
					     (in.order.rank == FS_MSIC_RANK_USAGE ||
					      !fs_str_eq(unit_str(j->o.queue), unit_str("low")))))
						bad++;
					else
						alloc[hi] -= j->ncpus;
					if (d->action == FS_MSIC_REQUEUE && (!in.force_requeue || !j->checkpoint_fails))
						bad++;
					if (d->action == FS_MSIC_SUSPEND && j->suspend_fails)
						bad++;
					if (d->action == FS_MSIC_CHECKPOINT && j->checkpoint_fails)
						bad++;
					break;
				case FS_MSIC_FAIL:
					if (j->o.state != 'R' || !(j->suspend_fails || j->checkpoint_fails))
						bad++;
					break;
				case FS_MSIC_COMMENT:
					if (j->o.state == 'R' || decided[d->job]++)
						bad++;
					break;
				default:
					bad++;
			}
		}
		for (h = 0; h < 3; h++)
			if (alloc[h] > hosts[h].ncpus || alloc[h] < 0)
				bad++;
		/* every pending job is decided: run, resume or comment */
		for (k = 0; k < n; k++)
			if (jobs[k].o.state != 'R' && !decided[k])
				bad++;
		fs_msic_cycle_free(&out, &unit_alloc);
	}
	CHECK(bad == 0);
}

/* The compat switches by name: exactly these three, case and all. */
static void
test_compat_names(void)
{
	CHECK(fs_msic_compat_from_name("rank_usage") == FS_MSIC_COMPAT_RANK_USAGE);
	CHECK(fs_msic_compat_from_name("suspend_below_threshold") == FS_MSIC_COMPAT_SUSPEND_BELOW);
	CHECK(fs_msic_compat_from_name("load_unscaled") == FS_MSIC_COMPAT_LOAD_UNSCALED);
	CHECK(fs_msic_compat_from_name("Rank_Usage") == -1);
	CHECK(fs_msic_compat_from_name("fast") == -1);
	CHECK(fs_msic_compat_from_name("") == -1);
}

void
test_msic_cycle(void)
{
	test_compat_names();
	test_examples();
	test_random_cycles();
}
