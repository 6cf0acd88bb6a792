/*
 * test_msic_replay.c: replaying a stream of submissions through successive MSIC cycles
 * (src/core/msic/msic_replay.c): a hand-checked morning with an express job that suspends a long
 * one, and the interval it refuses.
 */
#include "unit.h"

#include "msic/msic_replay.h"

#include <stdio.h>
#include <string.h>

#define MIN_US(m) ((int64_t) (m) *60 * 1000000)

typedef struct rec
{
	char log[2048];
	size_t len;
	const fs_msic_cjob *jobs;
} rec;

static void
record(void *ctx, const fs_msic_replay_row *row)
{
	rec *r = ctx;
	int64_t min = (row->at - unit_msic_tuesday_10()) / MIN_US(1);

	if (row->action == FS_MSIC_SHARE || row->action == FS_MSIC_COMMENT)
		return;
	r->len +=
	    (size_t) snprintf(r->log + r->len, sizeof(r->log) - r->len, "%s%+lld %s %.*s",
	                      r->len ? "; " : "", (long long) min, fs_msic_action_name(row->action),
	                      (int) r->jobs[row->job].o.idlen, r->jobs[row->job].o.job_id);
}

static void
ctime_as_number(void *ctx, int64_t t, char *buf, size_t cap)
{
	(void) ctx;
	snprintf(buf, cap, "%lld", (long long) t);
}

static void
test_replay(void)
{
	fs_msic_replay_in in;
	fs_str bq[3], bh[3];
	fs_msic_host hosts[3];
	fs_msic_queue queues[3];
	fs_msic_cjob subs[3];
	fs_error err;
	rec r;

	memset(&in, 0, sizeof(in));
	unit_msic_setup(&in.cycle, bq, bh, hosts, queues, 1);
	in.start = unit_msic_tuesday_10();
	in.stop = unit_msic_tuesday_10() + MIN_US(600);
	in.interval = MIN_US(5);
	in.ctime = ctime_as_number;
	/* an 8-CPU job runs 2 h of its 10; an express job arrives at +60 and suspends it for its
	 * hour; a 1-CPU job submitted at +1 waits until the express job ends, then runs 30 min
	 * next to nothing (the suspended job resumes only when all 8 CPUs are free again) */
	subs[0] = unit_msic_job("big", "ann", "low", 'Q', 8, 600, 120, NULL);
	subs[0].used_given = true;
	subs[0].ctime = unit_msic_tuesday_10();
	subs[1] = unit_msic_job("x", "xan", "special", 'Q', 8, 60, 0, NULL);
	subs[1].ctime = unit_msic_tuesday_10() + MIN_US(60);
	subs[2] = unit_msic_job("small", "bob", "hi", 'Q', 1, 30, 0, NULL);
	subs[2].ctime = unit_msic_tuesday_10() + MIN_US(61);
	memset(&r, 0, sizeof(r));
	r.jobs = subs;
	CHECK(fs_msic_replay(&in, subs, 3, record, &r, &unit_alloc, &err) == FS_OK);
	CHECK_STR(r.log, "+0 run big; +60 suspend big; +60 run x; +120 end x; +120 run small; +150 end "
	                 "small; +150 resume big; +210 end big");

	in.interval = 0;
	CHECK(fs_msic_replay(&in, subs, 3, record, &r, &unit_alloc, &err) == FS_ERR_VALUE);
}

void
test_msic_replay(void)
{
	test_replay();
}
