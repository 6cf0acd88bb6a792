/* test_msic_share.c: charge, rollover, rank, the SHARE_INFO_FILE text and the day accumulator. */
#include "msic/msic_share.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_US INT64_C(60000000)

static void
free_acc(fs_msic_acc *a)
{
	free((void *) a->queue);
	free(a->days);
}

static void
test_charge_rollover(void)
{
	fs_msic_share s = {0, 0, 0, 0};
	fs_error err;
	double rank;

	/* 4 CPUs x 90.5 minutes of walltime: whole minutes only, 4 * 90 = 360 */
	CHECK(fs_msic_charge(&s, 4, 90 * MIN_US + 30000000, 600, 64, &err) == FS_OK);
	CHECK_DBL(s.today_usage, 360, 0);
	CHECK_DBL(s.today_max, 64 * 600, 0);
	/* a second charge adds usage and overwrites the maximum */
	CHECK(fs_msic_charge(&s, 2, 60 * MIN_US, 660, 64, &err) == FS_OK);
	CHECK_DBL(s.today_usage, 480, 0);
	CHECK_DBL(s.today_max, 64 * 660, 0);
	/* today% = 480 / 42240 * 100 */
	CHECK_DBL(fs_msic_today_pct(&s), 480.0 / 42240.0 * 100.0, 0);
	/* past < 1: the history restarts at today's percentage */
	CHECK(fs_msic_rollover(&s, &err) == FS_OK);
	CHECK(s.ndays == 1 && s.today_usage == 0 && s.today_max == 0);
	CHECK_DBL(s.past_pct, 480.0 / 42240.0 * 100.0, 0);
	/* past >= 1: running average */
	s.past_pct = 30;
	s.ndays = 3;
	s.today_usage = 100;
	s.today_max = 1000; /* 10 % */
	CHECK_DBL(fs_msic_past_pct(&s), (30.0 * 3 + 10) / 4, 0);
	CHECK(fs_msic_rollover(&s, &err) == FS_OK);
	CHECK(s.ndays == 4);
	CHECK_DBL(s.past_pct, 25, 0);
	/* max < 1 gives 0 % */
	s.today_usage = 50;
	s.today_max = 0.5;
	CHECK_DBL(fs_msic_today_pct(&s), 0, 0);
	/* ndays cannot pass INT32_MAX */
	s.ndays = INT32_MAX;
	CHECK(fs_msic_rollover(&s, &err) == FS_ERR_RANGE);
	/* today's percentage beyond a double: a range error, not an infinite history */
	s.ndays = 0;
	s.past_pct = 0;
	s.today_usage = 1e308;
	s.today_max = 5;
	CHECK(fs_msic_rollover(&s, &err) == FS_ERR_RANGE);
	/* bad arguments */
	CHECK(fs_msic_charge(&s, -1, 0, 0, 1, &err) == FS_ERR_VALUE);
	CHECK(fs_msic_charge(&s, 1, -1, 0, 1, &err) == FS_ERR_VALUE);
	CHECK(fs_msic_charge(&s, 1, 0, 0, 0, &err) == FS_ERR_VALUE);
	/* rank, both modes: past 150 % (today 0) */
	s.ndays = 2;
	s.past_pct = 150;
	s.today_usage = 0;
	s.today_max = 0;
	CHECK(fs_msic_rank(&s, 40, FS_MSIC_RANK_SHARE, &rank, &err) == FS_OK);
	CHECK_DBL(rank, 150.0 * 2 / 3 / 40, 1e-15);
	CHECK(fs_msic_over_share(rank, FS_MSIC_RANK_SHARE));
	CHECK(fs_msic_rank(&s, 40, FS_MSIC_RANK_USAGE, &rank, &err) == FS_OK);
	CHECK_DBL(rank, 100, 0); /* (150*2+0)/3 = 100: not over 100 */
	CHECK(!fs_msic_over_share(rank, FS_MSIC_RANK_USAGE));
	CHECK(fs_msic_rank(&s, 0, FS_MSIC_RANK_SHARE, &rank, &err) == FS_OK && isinf(rank));
	CHECK(fs_msic_rank(&s, 101, FS_MSIC_RANK_SHARE, &rank, &err) == FS_ERR_VALUE);
	s.past_pct = 0;
	CHECK(fs_msic_rank(&s, 0, FS_MSIC_RANK_SHARE, &rank, &err) == FS_OK && rank == 0);
	CHECK(fs_msic_rank_mode_from_name("usage") == FS_MSIC_RANK_USAGE);
	CHECK(fs_msic_rank_mode_from_name("Share") == -1);
}

static void
test_file(void)
{
	const char *text = "# Day-of-Week\n# queue ndays past% today_usage today_max\nMon\n"
	                   "low            3 12.500      60.000   1920.000\n"
	                   "verylongqueuename     0 0.000       0.000      0.000\n";
	fs_msic_share_file f;
	fs_error err;
	fs_sb sb;

	CHECK(fs_msic_share_file_parse(text, strlen(text), &unit_alloc, &f, &err) == FS_OK);
	CHECK(f.weekday == 1 && f.n == 2);
	CHECK_STR(f.entries[0].queue, "low");
	CHECK(f.entries[0].s.ndays == 3);
	CHECK_DBL(f.entries[0].s.past_pct, 12.5, 0);
	CHECK_DBL(f.entries[0].s.today_max, 1920, 0);
	fs_sb_init(&sb, &unit_alloc, 16);
	CHECK(fs_msic_share_file_format(&sb, f.weekday, f.entries, f.n, &err) == FS_OK);
	CHECK_STR(sb.data, "# Day-of-Week\n# queue ndays past% today_usage today_max\nMon\n"
	                   "low            3 12.500     60.000   1920.000\n"
	                   "verylongqueuename     0 0.000      0.000      0.000\n");
	free(sb.data);
	fs_msic_share_file_free(&f, &unit_alloc);
	/* errors, each naming its line */
#define BAD(t, line)                                                                               \
	do                                                                                             \
	{                                                                                              \
		CHECK(fs_msic_share_file_parse(t, strlen(t), &unit_alloc, &f, &err) == FS_ERR_SYNTAX);     \
		CHECK(strstr(err.message, line) != NULL);                                                  \
		fs_msic_share_file_free(&f, &unit_alloc);                                                  \
	} while (0)
	BAD("Mon\n", "line 1:");
	BAD("#\nx\n", "line 2:");
	BAD("#\n#\nMonday\n", "line 3:");
	BAD("#\n#\nMon\nlow 1 2 3\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 2 3 4 5\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 2 3 4\n\nlow 1 2 3 4\n", "line 6:");
	BAD("#\n#\nMon\nlow -1 2 3 4\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 -2 3 4\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 2 nan 4\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 2 3 4x\n", "line 4:");
	BAD("#\n#\nMon\nlow 1 2 3 1e999\n", "line 4:");
	BAD("#\n#\n", "no day-of-week stamp");
	CHECK(fs_msic_share_file_parse("#\n#\n\nSat \r\n", 11, &unit_alloc, &f, &err) == FS_OK);
	CHECK(f.weekday == 6 && f.n == 0);
	fs_msic_share_file_free(&f, &unit_alloc);
}

static bool
same_share(const fs_msic_share *a, const fs_msic_share *b)
{
	return a->ndays == b->ndays && a->past_pct == b->past_pct && a->today_usage == b->today_usage &&
	       a->today_max == b->today_max;
}

typedef struct history
{
	int n;
	int32_t day[8];
	fs_msic_share s[8];
} history;

static void
visit_day(int32_t day, const fs_msic_share *s, void *ctx)
{
	history *h = ctx;

	if (h->n < 8)
	{
		h->day[h->n] = day;
		h->s[h->n++] = *s;
	}
}

static void
test_acc(void)
{
	/* two days: day 10 with two starts, day 12 with one; as_of in day 14 */
	fs_msic_day days[3], merged[3];
	fs_msic_acc acc;
	fs_msic_share got, want = {0, 0, 0, 0};
	fs_error err;
	fs_sb sb;
	fs_msic_acc back;
	bool found;
	size_t n;

	memset(days, 0, sizeof(days));
	days[0].day = 10;
	days[0].last_at = INT64_MIN;
	fs_msic_day_add(&days[0], 100, 5, 640);
	fs_msic_day_add(&days[0], 50, 3, 9999); /* earlier start: does not set the maximum */
	CHECK_DBL(days[0].last_max, 640, 0);
	days[1].day = 12;
	days[1].usage = 30;
	days[1].last_at = 7;
	days[1].last_max = 100;
	CHECK(fs_msic_day_find(days, 2, 11, &found) == 1 && !found);
	CHECK(fs_msic_day_find(days, 2, 12, &found) == 1 && found);
	CHECK(fs_msic_day_find(days, 2, 13, &found) == 2 && !found);
	acc.queue = "hi";
	acc.queue_len = 2;
	acc.as_of = 100;
	acc.as_of_day = 14;
	acc.days = days;
	acc.n = 2;
	CHECK(fs_msic_acc_final(&acc, &got, &err) == FS_OK);
	/* by hand: day 10, day 11 (empty), day 12, day 13 (empty) rolled over; day 14 open */
	want.today_usage = 150;
	want.today_max = 640;
	fs_msic_rollover(&want, &err);
	fs_msic_rollover(&want, &err);
	want.today_usage = 30;
	want.today_max = 100;
	fs_msic_rollover(&want, &err);
	fs_msic_rollover(&want, &err);
	CHECK(got.ndays == want.ndays && got.past_pct == want.past_pct &&
	      got.today_usage == want.today_usage && got.today_max == want.today_max);
	CHECK(got.ndays == 4); /* 150/640 = 23.4 %: history kept from day 10 */
	/* the history visits days 10..14; day 12's state has its charge in and 2 days counted */
	{
		history h = {0};
		fs_msic_share last;

		CHECK(fs_msic_acc_history(&acc, visit_day, &h, &last, &err) == FS_OK);
		CHECK(h.n == 5 && h.day[0] == 10 && h.day[4] == 14);
		CHECK(h.s[2].ndays == 2 && h.s[2].today_usage == 30 && h.s[1].today_usage == 0);
		/* field by field: the struct has padding */
		CHECK(same_share(&h.s[4], &got) && same_share(&last, &got));
	}
	/* text round trip */
	fs_sb_init(&sb, &unit_alloc, 16);
	fs_msic_acc_format(&sb, &acc);
	CHECK_STR(sb.data, "hi 2000-01-01T00:00:00.0001Z 14;10 150 2000-01-01T00:00:00.000005Z 640;12 "
	                   "30 2000-01-01T00:00:00.000007Z 100");
	CHECK(fs_msic_acc_parse(sb.data, sb.len, &unit_alloc, &back, &err) == FS_OK);
	CHECK(back.n == 2 && memcmp(back.days, days, 2 * sizeof(fs_msic_day)) == 0);
	CHECK(back.as_of == 100 && back.as_of_day == 14);
	free_acc(&back);
	free(sb.data);
	/* a day after as_of, days out of order, junk */
	CHECK(fs_msic_acc_parse("hi 2000-01-01T00:00:00Z 1;2 1 2000-01-01T00:00:00Z 1",
	                        strlen("hi 2000-01-01T00:00:00Z 1;2 1 2000-01-01T00:00:00Z 1"),
	                        &unit_alloc, &back, &err) == FS_ERR_SYNTAX);
	free_acc(&back);
	CHECK(fs_msic_acc_parse("hi 2000-01-01T00:00:00Z 9;2 1 2000-01-01T00:00:00Z 1;1 1 "
	                        "2000-01-01T00:00:00Z 1",
	                        78, &unit_alloc, &back, &err) == FS_ERR_SYNTAX);
	free_acc(&back);
	CHECK(fs_msic_acc_parse("hi 2000-01-01T00:00:00Z 9x", 26, &unit_alloc, &back, &err) ==
	      FS_ERR_SYNTAX);
	free_acc(&back);
	/* merging in either order gives the same days */
	n = fs_msic_days_merge(days, 1, days + 1, 1, merged);
	CHECK(n == 2 && memcmp(merged, days, 2 * sizeof(fs_msic_day)) == 0);
	n = fs_msic_days_merge(days, 2, days, 1, merged);
	CHECK(n == 2 && merged[0].usage == 300 && merged[1].usage == 30);
}

/* Overflow of the past percentage is the same 22003 error everywhere; many queues, one index. */
static void
test_overflow_and_many(void)
{
	fs_msic_share big = {2, 1e308, 0, 0};
	fs_msic_share_entry *e;
	fs_msic_share_file f;
	fs_error err;
	fs_sb sb;
	double v;
	size_t i, n = 20000;

	CHECK(fs_msic_past_pct_checked(&big, &v, &err) == FS_ERR_RANGE);
	CHECK_STR(err.message, "value out of range: the past percentage overflows");
	CHECK(fs_msic_rank(&big, 10, FS_MSIC_RANK_SHARE, &v, &err) == FS_ERR_RANGE);
	CHECK_STR(err.message, "value out of range: the past percentage overflows");
	big.ndays = 1;
	big.past_pct = 50;
	CHECK(fs_msic_past_pct_checked(&big, &v, &err) == FS_OK);
	CHECK_DBL(v, 25, 1e-12);

	e = malloc(sizeof(*e) * n);
	for (i = 0; i < n; i++)
	{
		e[i].queue = malloc(16);
		snprintf(e[i].queue, 16, "q%zu", i % (n - 1));
		e[i].s = big;
	}
	fs_sb_init(&sb, &unit_alloc, 64);
	CHECK(fs_msic_share_file_format(&sb, 1, e, n, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "queue \"q0\" appears twice");
	CHECK(fs_msic_share_file_format(&sb, 1, e, n - 1, &err) == FS_OK);
	CHECK(fs_msic_share_file_parse(sb.data, sb.len, &unit_alloc, &f, &err) == FS_OK);
	CHECK(f.n == n - 1);
	for (i = 0; i < f.n; i++)
		unit_alloc.release(unit_alloc.ctx, f.entries[i].queue);
	unit_alloc.release(unit_alloc.ctx, f.entries);
	fs_sb_append(&sb, "q5 1 1 0 0\n", 11);
	CHECK(fs_msic_share_file_parse(sb.data, sb.len, &unit_alloc, &f, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "The queue appears on an earlier line: each queue has one line.");
	for (i = 0; i < f.n; i++)
		unit_alloc.release(unit_alloc.ctx, f.entries[i].queue);
	if (f.entries)
		unit_alloc.release(unit_alloc.ctx, f.entries);
	for (i = 0; i < n; i++)
		free(e[i].queue);
	free(e);
	unit_alloc.release(unit_alloc.ctx, sb.data);
}

void
test_msic_share(void)
{
	test_charge_rollover();
	test_overflow_and_many();
	test_file();
	test_acc();
}
