/* test_msic_order.c: unit tests of src/core/msic/msic_order.c (MSIC job flags and job order). */
#include "unit.h"
#include "msic/msic_order.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_US  (60LL * 1000000)
#define HOUR_US (60 * MIN_US)
#define DAY_US  (24 * HOUR_US)

/* The sample configuration's FAIR_SHARE lines: low:10:10 med:15:10 hi:40:10 special:35:10. */
static const fs_msic_fs_entry sample_fs[] = {
    {"low", 3, 10, 10}, {"med", 3, 15, 10}, {"hi", 2, 40, 10}, {"special", 7, 35, 10}};

static fs_msic_order_in
sample_in(const fs_msic_state *st, size_t nst, fs_msic_rank_mode rank)
{
	fs_msic_order_in in;

	memset(&in, 0, sizeof(in));
	in.submit_queue = "pending";
	in.submitlen = 7;
	in.express_queue = "special";
	in.expresslen = 7;
	in.max_wait_us = 5 * DAY_US;
	in.fs = sample_fs;
	in.nfs = 4;
	in.states = st;
	in.nstates = nst;
	in.at = 100 * DAY_US;
	in.cluster_cpus = 40; /* 10 % of 40 CPUs: a soft limit of 4 running jobs */
	in.rank = rank;
	return in;
}

static fs_msic_ojob
job(const char *id, const char *owner, const char *queue, char state, int64_t wall,
    int64_t eligible_ago)
{
	fs_msic_ojob j;

	memset(&j, 0, sizeof(j));
	j.job_id = id;
	j.idlen = strlen(id);
	j.owner = owner;
	j.ownerlen = strlen(owner);
	j.queue = queue;
	j.queuelen = queue ? strlen(queue) : 0;
	j.state = state;
	j.walltime_us = wall;
	j.eligible_at = 100 * DAY_US - eligible_ago;
	j.chkptd = -1;
	return j;
}

static fs_msic_row *
order(const fs_msic_order_in *in, const fs_msic_ojob *jobs, size_t n, fs_error *err)
{
	fs_msic_row *rows = NULL;

	if (fs_msic_job_order(in, jobs, n, &unit_alloc, &rows, err) != FS_OK)
		return NULL;
	return rows;
}

/* Two jobs that differ in one step: b must come second, decided by `step`. */
static void
check_pair(const fs_msic_order_in *in, fs_msic_ojob *jobs, size_t n, const char *first,
           const char *second, const char *step)
{
	fs_error err;
	fs_msic_row *rows = order(in, jobs, n, &err);
	size_t i, pa = n, pb = n;

	if (!CHECK(rows != NULL))
	{
		printf("  %s\n", err.message);
		return;
	}
	for (i = 0; i < n; i++)
	{
		if (strcmp(jobs[rows[i].job].job_id, first) == 0)
			pa = i;
		if (strcmp(jobs[rows[i].job].job_id, second) == 0)
			pb = i;
	}
	CHECK(pa < n && pb == pa + 1);
	if (pb < n)
		CHECK_STR(rows[pb].decided_by, step);
	free(rows);
}

static void
test_steps(void)
{
	fs_msic_state st[] = {{"low", 3, {4, 20.0, 0, 0}},
	                      {"med", 3, {4, 10.0, 0, 0}},
	                      {"hi", 2, {4, 60.0, 0, 0}},
	                      {"special", 7, {4, 5.0, 0, 0}}};
	fs_msic_order_in in = sample_in(st, 4, FS_MSIC_RANK_SHARE);
	fs_msic_ojob j[8];
	fs_msic_row *rows;
	fs_error err;

	/* priority: express beats a lower-ranked queue */
	j[0] = job("a", "u1", "med", 'Q', HOUR_US, HOUR_US);
	j[1] = job("b", "u2", "special", 'Q', HOUR_US, HOUR_US);
	check_pair(&in, j, 2, "b", "a", "priority");
	/* waiting: low (20/10 = 2, over share) cannot wait; med waiting beats low-ranked special? use
	 * two med vs low: a long-waiting med job goes before a fresh job of a lower-ranked queue */
	in.express_queue = NULL;
	j[0] = job("a", "u1", "special", 'Q', HOUR_US, HOUR_US); /* rank 5/35 */
	j[1] = job("b", "u2", "med", 'Q', HOUR_US, 6 * DAY_US);  /* rank 10/15, waiting */
	check_pair(&in, j, 2, "b", "a", "waiting");
	rows = order(&in, j, 2, &err);
	CHECK(rows && rows[0].waiting && !rows[1].waiting && rows[0].decided_by == NULL);
	free(rows);
	/* rank */
	j[1] = job("b", "u2", "med", 'Q', HOUR_US, HOUR_US);
	check_pair(&in, j, 2, "a", "b", "rank");
	/* user_limit: u1 has 3 running med jobs (limit 4): one more fits; u2 has 4 */
	j[0] = job("a", "u1", "med", 'Q', HOUR_US, HOUR_US);
	j[1] = job("b", "u2", "med", 'Q', HOUR_US, HOUR_US);
	j[2] = job("r1", "u1", "med", 'R', HOUR_US, DAY_US);
	j[3] = job("r2", "u1", "med", 'R', HOUR_US, DAY_US);
	j[4] = job("r3", "u1", "med", 'R', HOUR_US, DAY_US);
	j[5] = job("r4", "u2", "med", 'R', HOUR_US, DAY_US);
	j[6] = job("r5", "u2", "med", 'R', HOUR_US, DAY_US);
	j[7] = job("r6", "u2", "med", 'R', 2 * HOUR_US, DAY_US);
	j[5] = job("r4", "u2", "med", 'R', HOUR_US, DAY_US);
	{
		fs_msic_ojob more[9];

		memcpy(more, j, sizeof(j));
		more[8] = job("r7", "u2", "med", 'R', HOUR_US, DAY_US);
		check_pair(&in, more, 9, "a", "b", "user_limit");
		rows = order(&in, more, 9, &err);
		CHECK(rows && rows[0].user_limit == 4 && rows[0].user_running == 3 && !rows[0].runlimit);
		CHECK(rows && rows[1].user_running == 4 && !rows[1].runlimit);
		/* running jobs by time left, then job id; r6 has the most left */
		CHECK(rows && strcmp(more[rows[2].job].job_id, "r1") == 0);
		CHECK_STR(rows ? rows[2].decided_by : NULL, "running");
		CHECK_STR(rows ? rows[3].decided_by : NULL, "job_id");
		CHECK(rows && strcmp(more[rows[8].job].job_id, "r6") == 0);
		CHECK_STR(rows ? rows[8].decided_by : NULL, "time_left");
		free(rows);
	}
	/* queued_jobs: u1 has two queued med jobs, u2 one */
	j[0] = job("a", "u1", "med", 'Q', HOUR_US, HOUR_US);
	j[1] = job("b", "u1", "med", 'Q', HOUR_US, 2 * HOUR_US);
	j[2] = job("c", "u2", "med", 'Q', 2 * HOUR_US, HOUR_US);
	check_pair(&in, j, 3, "c", "b", "queued_jobs");
	/* suspended, chkptd, walltime, age, job_id */
	j[0] = job("a", "u1", "med", 'Q', HOUR_US, HOUR_US);
	j[1] = job("b", "u2", "med", 'S', HOUR_US, HOUR_US);
	check_pair(&in, j, 2, "b", "a", "suspended");
	j[1] = job("b", "u2", "med", 'Q', HOUR_US, HOUR_US);
	j[1].has_exec_host = true; /* chkptd not given: a queued job with an exec_host */
	check_pair(&in, j, 2, "b", "a", "chkptd");
	j[1].chkptd = 0;
	check_pair(&in, j, 2, "a", "b", "job_id");
	j[1] = job("b", "u2", "med", 'Q', HOUR_US - 1, HOUR_US);
	check_pair(&in, j, 2, "b", "a", "walltime");
	j[1] = job("b", "u2", "med", 'Q', HOUR_US, HOUR_US + 1);
	check_pair(&in, j, 2, "b", "a", "age");
}

static void
test_flags(void)
{
	/* past including today: low (10 * 2 + 50) / 3 = 23.33 -> 23.33 / 10 over; med 5 */
	fs_msic_state st[] = {{"low", 3, {2, 10.0, 500.0, 1000.0}}, {"med", 3, {4, 5.0, 0, 0.5}}};
	fs_msic_order_in in = sample_in(st, 2, FS_MSIC_RANK_SHARE);
	fs_msic_ojob j[6];
	fs_msic_row *rows;
	fs_error err;
	size_t i;

	in.cluster_cpus = 16; /* 10 % of 16 CPUs: 1 running job */
	j[0] = job("q1", "u1", "low", 'Q', HOUR_US, 6 * DAY_US);
	j[1] = job("r1", "u1", "low", 'R', HOUR_US, 6 * DAY_US);
	j[2] = job("r2", "u1", "low", 'R', HOUR_US, HOUR_US);
	j[3] = job("x1", "u3", "other", 'Q', HOUR_US, 6 * DAY_US);
	j[4] = job("e1", "u4", "special", 'R', HOUR_US, HOUR_US);
	j[5] = job("m1", "u5", "med", 'S', HOUR_US, 6 * DAY_US);
	rows = order(&in, j, 6, &err);
	if (!CHECK(rows != NULL))
		return;
	for (i = 0; i < 6; i++)
	{
		const fs_msic_row *r = &rows[i];
		const char *id = j[r->job].job_id;

		if (strcmp(id, "q1") == 0)
		{
			CHECK_DBL(r->queue_rank, (10.0 * 2 + 50.0) / 3 / 10, 1e-12);
			CHECK(r->over_share && !r->waiting && r->runlimit && !r->chkpt_ok);
			CHECK(r->user_limit == 1 && r->user_running == 2);
		}
		else if (strcmp(id, "r1") == 0)
			CHECK(!r->runlimit && r->chkpt_ok && !r->waiting);
		else if (strcmp(id, "r2") == 0)
			CHECK(r->runlimit && r->chkpt_ok);
		else if (strcmp(id, "x1") == 0)
			/* no FAIR_SHARE entry: rank 1, not over, limit 0 */
			CHECK(r->queue_rank == 1.0 && !r->over_share && r->waiting && r->user_limit == 0 &&
			      !r->runlimit);
		else if (strcmp(id, "e1") == 0)
			/* special has no state: rank 0; no queued job of u4, so no RUNLIMIT */
			CHECK(r->priority && r->queue_rank == 0.0 && !r->runlimit && !r->chkpt_ok);
		else if (strcmp(id, "m1") == 0)
			/* today_max below 1: today counts 0; (5 * 4 + 0) / 5 = 4, / 15 */
			CHECK(r->suspended && r->waiting && !r->chkptd && r->queue_rank == 4.0 / 15);
	}
	free(rows);
	/* usage mode: the truncated past percentage, over above 100 */
	in.rank = FS_MSIC_RANK_USAGE;
	rows = order(&in, j, 6, &err);
	if (CHECK(rows != NULL))
	{
		for (i = 0; i < 6; i++)
		{
			const char *id = j[rows[i].job].job_id;

			if (strcmp(id, "q1") == 0)
				CHECK(rows[i].queue_rank == 23.0 && !rows[i].over_share && rows[i].waiting);
			if (strcmp(id, "x1") == 0)
				CHECK(rows[i].queue_rank == 100.0 && !rows[i].over_share);
		}
		free(rows);
	}
}

static void
test_errors(void)
{
	fs_msic_state st[] = {{"low", 3, {2, 10.0, 0, 0}}, {"low", 3, {2, 10.0, 0, 0}}};
	fs_msic_order_in in = sample_in(st, 1, FS_MSIC_RANK_SHARE);
	fs_msic_ojob j[2];
	fs_error err;
	fs_msic_fs_entry dup[] = {{"a", 1, 50, 10}, {"a", 1, 50, 10}};

	j[0] = job("a", "u", "low", 'Q', HOUR_US, 0);
	j[1] = job("a", "u", "low", 'Q', HOUR_US, 0);
	CHECK(order(&in, j, 2, &err) == NULL && err.status == FS_ERR_VALUE);
	CHECK(strstr(err.message, "appears twice") != NULL);
	j[1] = job("b", "u", "low", 'X', HOUR_US, 0);
	CHECK(order(&in, j, 2, &err) == NULL && strstr(err.message, "invalid state") != NULL);
	j[1] = job("b", "u", NULL, 'Q', -1, 0);
	CHECK(order(&in, j, 2, &err) == NULL && strstr(err.message, "negative walltime") != NULL);
	j[1] = job("b", "u", NULL, 'Q', 0, 0);
	in.submit_queue = NULL;
	CHECK(order(&in, j, 2, &err) == NULL && strstr(err.message, "no submit queue") != NULL);
	in.nstates = 2;
	CHECK(order(&in, j, 1, &err) == NULL && strstr(err.message, "given twice") != NULL);
	in.nstates = 1;
	st[0].s.past_pct = NAN;
	CHECK(order(&in, j, 1, &err) == NULL && strstr(err.message, "out of range") != NULL);
	st[0].s.past_pct = 1;
	in.cluster_cpus = 0;
	CHECK(order(&in, j, 1, &err) == NULL && strstr(err.message, "cluster_cpus") != NULL);
	in.cluster_cpus = 4;
	in.fs = dup;
	in.nfs = 2;
	CHECK(order(&in, j, 1, &err) == NULL && strstr(err.message, "appears twice in the config"));
	dup[1].queue = "b";
	dup[1].shares = 101;
	CHECK(order(&in, j, 1, &err) == NULL && strstr(err.message, "out of range") != NULL);
	CHECK(fs_msic_rank_mode_from_name("usage") == FS_MSIC_RANK_USAGE);
	CHECK(fs_msic_rank_mode_from_name("share") == FS_MSIC_RANK_SHARE);
	CHECK(fs_msic_rank_mode_from_name("Share") < 0 && fs_msic_rank_mode_from_name("") < 0);
	{
		fs_msic_row *rows = NULL;

		in.fs = sample_fs;
		in.nfs = 4;
		CHECK(fs_msic_job_order(&in, j, 0, &unit_alloc, &rows, &err) == FS_OK);
		free(rows);
	}
}

/* ---------------------------------------------------------------- property test */

/* The rules again, written from the flags the rows carry and counts made here by brute force. */
static int
reference_cmp(const fs_msic_ojob *js, size_t n, const fs_msic_row *a, const fs_msic_row *b)
{
	const fs_msic_ojob *ja = &js[a->job], *jb = &js[b->job];
	size_t qa = 0, qb = 0, i;
	bool pa = a->waiting && a->user_running < a->user_limit;
	bool pb = b->waiting && b->user_running < b->user_limit;
	bool ea = a->user_running + 1 > a->user_limit, eb = b->user_running + 1 > b->user_limit;
	int c;

	for (i = 0; i < n; i++)
	{
		if (js[i].state == 'R')
			continue;
		if (strcmp(js[i].owner, ja->owner) == 0 && strcmp(js[i].queue, ja->queue) == 0)
			qa++;
		if (strcmp(js[i].owner, jb->owner) == 0 && strcmp(js[i].queue, jb->queue) == 0)
			qb++;
	}
	if (a->priority != b->priority)
		return a->priority ? -1 : 1;
	if (pa != pb)
		return pa ? -1 : 1;
	if (a->queue_rank != b->queue_rank)
		return a->queue_rank < b->queue_rank ? -1 : 1;
	if (ea != eb)
		return ea ? 1 : -1;
	if (qa != qb)
		return qa < qb ? -1 : 1;
	if (a->suspended != b->suspended)
		return a->suspended ? -1 : 1;
	if (a->chkptd != b->chkptd)
		return a->chkptd ? -1 : 1;
	if (ja->walltime_us != jb->walltime_us)
		return ja->walltime_us < jb->walltime_us ? -1 : 1;
	if (ja->eligible_at != jb->eligible_at)
		return ja->eligible_at < jb->eligible_at ? -1 : 1;
	c = strcmp(ja->job_id, jb->job_id);
	return c;
}

static void
test_property(void)
{
	static const char *owners[] = {"u1", "u2", "u3", "u4"};
	static const char *queues[] = {"low", "med", "hi", "special", "other"};
	fs_msic_state st[] = {
	    {"low", 3, {3, 12.0, 0, 0}}, {"med", 3, {2, 30.0, 10, 100}}, {"hi", 2, {1, 40.0, 0, 0}}};
	enum
	{
		N = 60
	};
	static char names[N][8];
	fs_msic_ojob js[N], perm[N];
	uint64_t seed = 42;
	int round;

	for (round = 0; round < 20; round++)
	{
		fs_msic_order_in in = sample_in(st, 3, round % 2 ? FS_MSIC_RANK_USAGE : FS_MSIC_RANK_SHARE);
		fs_msic_row *rows, *prow;
		fs_error err;
		size_t i, k, np = 0;
		bool ok = true, same = true;

		in.cluster_cpus = 25;
		for (i = 0; i < N; i++)
		{
			static const char states[] = "QQQQSRR";

			/* distinct ids in an order unrelated to the input order */
			snprintf(names[i], sizeof(names[i]), "j%02d.%zu", (int) (unit_rand(&seed) % 100), i);
			js[i] = job(names[i], owners[unit_rand(&seed) % 4], queues[unit_rand(&seed) % 5],
			            states[unit_rand(&seed) % 7], (int64_t) (unit_rand(&seed) % 3) * HOUR_US,
			            (int64_t) (unit_rand(&seed) % 4) * 2 * DAY_US);
			js[i].chkptd = (int) (unit_rand(&seed) % 3) - 1;
			js[i].has_exec_host = unit_rand(&seed) % 2;
			js[i].used_us = js[i].state == 'R' ? (int64_t) (unit_rand(&seed) % 3) * HOUR_US : 0;
		}
		rows = order(&in, js, N, &err);
		if (!CHECK(rows != NULL))
			return;
		while (np < N && js[rows[np].job].state != 'R')
			np++;
		for (i = np; i < N; i++)
			ok = ok && js[rows[i].job].state == 'R';
		/* every pair of pending rows in the reference order: the order is total and consistent */
		for (i = 0; i < np; i++)
			for (k = i + 1; k < np; k++)
				ok = ok && reference_cmp(js, N, &rows[i], &rows[k]) < 0;
		for (i = np + 1; i < N; i++)
		{
			const fs_msic_ojob *a = &js[rows[i - 1].job], *b = &js[rows[i].job];
			int64_t la = a->walltime_us - a->used_us, lb = b->walltime_us - b->used_us;

			ok = ok && (la < lb || (la == lb && strcmp(a->job_id, b->job_id) < 0));
		}
		CHECK(ok);
		/* the same jobs in another order: the same output (but the RUNLIMIT of running jobs,
		 * which counts them in input order, the server's job order) */
		for (i = 0; i < N; i++)
			perm[i] = js[i];
		for (i = N - 1; i > 0; i--)
		{
			size_t r = unit_rand(&seed) % (i + 1);
			fs_msic_ojob t = perm[i];

			perm[i] = perm[r];
			perm[r] = t;
		}
		prow = order(&in, perm, N, &err);
		if (!CHECK(prow != NULL))
		{
			free(rows);
			return;
		}
		for (i = 0; i < N; i++)
		{
			same = same && strcmp(js[rows[i].job].job_id, perm[prow[i].job].job_id) == 0 &&
			       (rows[i].runlimit == prow[i].runlimit || js[rows[i].job].state == 'R') &&
			       (rows[i].decided_by == prow[i].decided_by);
		}
		CHECK(same);
		free(rows);
		free(prow);
	}
}

void
test_msic_order(void)
{
	test_steps();
	test_flags();
	test_errors();
	test_property();
}
