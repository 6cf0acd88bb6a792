/*
 * test_msic_prime.c: unit tests of src/core/msic/msic_prime.c: the prime-time calendar (weekends,
 * holidays, windows across midnight), prime seconds on a clock and on a zone's list of UTC-offset
 * changes, checked against a minute-by-minute integral of the prime-time predicate; and the UTC
 * clock the MSIC tests share (unit_utc_clock).
 */
#include "msic/msic_prime.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H(x) ((int64_t) (x) *3600 * INT64_C(1000000))
#define DAY  H(24)

/* ---- clocks: UTC, and a zone at +1 h that moves to +2 h at instant dst_at ------------------ */

static int64_t dst_at;

static int64_t
offset_at(int64_t t)
{
	return t < dst_at ? H(1) : H(2);
}

static void
test_to_local(void *ctx, int64_t t, int64_t *y, int64_t *m, int64_t *d)
{
	int64_t l = ctx ? t + offset_at(t) : t;
	int64_t days = l >= 0 ? l / DAY : -((-l + DAY - 1) / DAY);

	fs_civil_from_days(days, y, m, d);
}

static int64_t
test_from_local(void *ctx, int64_t y, int64_t m, int64_t d, int64_t sod)
{
	int64_t l = fs_days_from_civil(y, m, d) * DAY + sod;

	if (!ctx)
		return l;
	if (l - H(1) < dst_at)
		return l - H(1);
	if (l - H(2) >= dst_at)
		return l - H(2);
	return dst_at; /* the hour the clock skips */
}

static int64_t
test_offset_at(void *ctx, int64_t t, int64_t limit, int64_t *next)
{
	(void) limit;
	if (!ctx)
	{
		*next = INT64_MAX;
		return 0;
	}
	*next = t < dst_at ? dst_at : INT64_MAX;
	return offset_at(t);
}

const fs_msic_clock unit_utc_clock = {test_to_local, test_from_local, NULL, test_offset_at, 0};

static int64_t
at_utc(int y, int m, int d, int h)
{
	return fs_days_from_civil(y, m, d) * DAY + H(h);
}

static void
test_prime_time(void)
{
	static const fs_msic_clock utc = {test_to_local, test_from_local, NULL, test_offset_at, 0};
	static int dummy;
	static const fs_msic_clock cest = {test_to_local, test_from_local, &dummy, test_offset_at, 0};
	int64_t p;
	fs_error err;
	int hol[1] = {8};

	/* 2024-01-01 is a Monday, 2024-01-06 a Saturday */
	CHECK(fs_msic_prime_day(2024, 1, 1, NULL, 0));
	CHECK(!fs_msic_prime_day(2024, 1, 6, NULL, 0));
	CHECK(!fs_msic_prime_day(2024, 1, 7, NULL, 0));
	CHECK(!fs_msic_prime_day(2024, 1, 8, hol, 1));
	CHECK(fs_msic_is_prime(2024, 1, 1, H(8), H(8), H(18), NULL, 0));
	CHECK(!fs_msic_is_prime(2024, 1, 1, H(18), H(8), H(18), NULL, 0));
	/* start > end wraps: Monday 03:00 is prime, Monday 12:00 not, Saturday 02:00 not */
	CHECK(fs_msic_is_prime(2024, 1, 1, H(3), H(22), H(6), NULL, 0));
	CHECK(fs_msic_is_prime(2024, 1, 1, H(23), H(22), H(6), NULL, 0));
	CHECK(!fs_msic_is_prime(2024, 1, 1, H(12), H(22), H(6), NULL, 0));
	CHECK(!fs_msic_is_prime(2024, 1, 6, H(2), H(22), H(6), NULL, 0));
	/* start = end: prime all weekday */
	CHECK(fs_msic_is_prime(2024, 1, 1, 0, H(8), H(8), NULL, 0));
	CHECK(fs_msic_is_prime(2024, 1, 1, H(8), H(8), H(8), NULL, 0));

	/* Friday 20:00 for 72 h, prime 22:00-06:00: Friday 2 h, Monday 6 h */
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 5, 20), H(72), H(22), H(6), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(8));
	/* 8 January (day 8) a holiday: only Friday's 2 h */
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 5, 20), H(72), H(22), H(6), hol, 1, &p, &err) ==
	      FS_OK);
	CHECK(p == H(2));
	/* start = end: Friday noon to Monday noon is 12 + 12 h */
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 5, 12), H(72), H(8), H(8), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(24));
	/* a run inside one window, and a run of a week from Monday 00:00 in 08:00-18:00 */
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 2, 9), H(2), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(2));
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 1, 0), H(168), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(50));
	CHECK(fs_msic_prime_us(&utc, at_utc(2024, 1, 1, 0), 0, H(8), H(18), NULL, 0, &p, &err) ==
	          FS_OK &&
	      p == 0);
	/*
	 * Clock change: +1 h to +2 h at Sunday 2024-03-31 01:00 UTC. From Saturday 12:00 local
	 * (11:00 UTC), 47 h of elapsed time end on Monday 12:00 local: Monday 08:00-12:00 is prime.
	 */
	dst_at = at_utc(2024, 3, 31, 1);
	CHECK(fs_msic_prime_us(&cest, at_utc(2024, 3, 30, 11), H(47), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(4));
	CHECK(fs_msic_prime_us(&cest, at_utc(2024, 3, 30, 11), H(48), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_OK);
	CHECK(p == H(5));
	/* limits */
	CHECK(fs_msic_prime_us(&utc, 0, -1, H(8), H(18), NULL, 0, &p, &err) == FS_ERR_VALUE);
	CHECK(fs_msic_prime_us(&utc, 0, (int64_t) FS_MSIC_MAX_WALK_DAYS * DAY + 1, H(8), H(18), NULL, 0,
	                       &p, &err) == FS_ERR_VALUE);
	CHECK(fs_msic_prime_us(&utc, 0, H(1), H(24), H(18), NULL, 0, &p, &err) == FS_ERR_VALUE);
}

/* ---- prime time across a zone's UTC offset changes ------------------------------------------ */

static int64_t
zone_offset(const fs_msic_zone *z, int64_t t, int64_t *next)
{
	int64_t off = z->offset0;
	size_t i;

	for (i = 0; i < z->n && z->changes[i].at <= t; i++)
		off = z->changes[i].offset_us;
	*next = i < z->n ? z->changes[i].at : INT64_MAX;
	return off;
}

static int64_t
zone_clock_offset(void *ctx, int64_t t, int64_t limit, int64_t *next)
{
	(void) limit;
	return zone_offset(ctx, t, next);
}

/* Both forms of the count, which must agree; -1 on an error. */
static int64_t
zone_prime(const fs_msic_zone *z, int64_t from, int64_t dur, int64_t start, int64_t end,
           const int *hol, size_t nhol)
{
	fs_msic_clock clock = {NULL, NULL, (void *) z, zone_clock_offset, z->epoch_day};
	fs_error err;
	int64_t a, b;

	if (fs_msic_prime_zone(z, from, dur, start, end, hol, nhol, &a, &err) != FS_OK ||
	    fs_msic_prime_us(&clock, from, dur, start, end, hol, nhol, &b, &err) != FS_OK || a != b)
		return -1;
	return a;
}

/* The integral of fs_msic_is_prime, one sample a minute (everything is in whole minutes). */
static int64_t
minute_integral(const fs_msic_zone *z, int64_t from, int64_t dur, int64_t start, int64_t end,
                const int *hol, size_t nhol)
{
	const int64_t minute = INT64_C(60000000);
	int64_t t, sum = 0;

	for (t = from; t < from + dur; t += minute)
	{
		int64_t next, l = t + zone_offset(z, t, &next),
		              day = l >= 0 ? l / DAY : -((-l + DAY - 1) / DAY);
		int64_t y, m, d;

		fs_civil_from_days(day + z->epoch_day, &y, &m, &d);
		if (fs_msic_is_prime(y, m, d, l - day * DAY, start, end, hol, nhol))
			sum += minute;
	}
	return sum;
}

static void
test_prime_zones(void)
{
	/* Cairo fell back at midnight: 2023-10-26 24:00 +03 became 23:00 +02 (21:00 UTC) */
	fs_msic_offset_change cairo_ch[1] = {{at_utc(2023, 10, 26, 21), H(2)}};
	fs_msic_zone cairo = {0, H(3), cairo_ch, 1};
	/* Samoa skipped Friday 2011-12-30: -10 to +14 at its midnight (10:00 UTC) */
	fs_msic_offset_change samoa_ch[1] = {{at_utc(2011, 12, 30, 10), H(14)}};
	fs_msic_zone samoa = {0, -H(10), samoa_ch, 1};
	int dec28[1] = {362};
	fs_msic_offset_change pg_ch[1], bad_ch[2];
	fs_msic_zone pg_epoch, bad;
	fs_error err;
	int64_t p;
	uint64_t seed = 42;
	int i, mismatches = 0;

	/* 22:00 +03 for 2 hours: the first 23:00-23:30 is prime, the repeated one after the run */
	CHECK(zone_prime(&cairo, at_utc(2023, 10, 26, 19), H(2), H(23), H(23) + H(1) / 2, NULL, 0) ==
	      H(1) / 2);
	/* from 22:00 +03 for 3 hours: both 23:00-23:30 are lived */
	CHECK(zone_prime(&cairo, at_utc(2023, 10, 26, 19), H(3), H(23), H(23) + H(1) / 2, NULL, 0) ==
	      H(1));
	/* Wednesday 00:00 -10 for 72 hours: Wednesday and Thursday, then Saturday */
	CHECK(zone_prime(&samoa, at_utc(2011, 12, 28, 10), H(72), H(8), H(18), NULL, 0) == H(20));
	CHECK(zone_prime(&samoa, at_utc(2011, 12, 28, 10), H(72), H(8), H(18), dec28, 1) == H(10));
	/* the same Cairo run with instants counted from 2000-01-01 */
	pg_ch[0].at = cairo_ch[0].at - 10957 * DAY;
	pg_ch[0].offset_us = H(2);
	pg_epoch = (fs_msic_zone){10957, H(3), pg_ch, 1};
	CHECK(zone_prime(&pg_epoch, at_utc(2023, 10, 26, 19) - 10957 * DAY, H(2), H(23),
	                 H(23) + H(1) / 2, NULL, 0) == H(1) / 2);
	/* a change before the run sets its starting offset only */
	CHECK(zone_prime(&cairo, at_utc(2023, 10, 27, 6), H(4), H(8), H(12), NULL, 0) == H(4));
	/* bad zones and runs */
	bad_ch[0] = (fs_msic_offset_change){H(5), H(1)};
	bad_ch[1] = (fs_msic_offset_change){H(5), H(2)};
	bad = (fs_msic_zone){0, 0, bad_ch, 2};
	CHECK(fs_msic_prime_zone(&bad, 0, H(10), H(8), H(18), NULL, 0, &p, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "UTC offset changes are not in ascending order");
	bad_ch[1].at = H(6);
	bad_ch[1].offset_us = FS_MSIC_MAX_OFFSET_US + 1;
	CHECK(fs_msic_prime_zone(&bad, 0, H(10), H(8), H(18), NULL, 0, &p, &err) == FS_ERR_VALUE);
	bad.n = 0;
	bad.offset0 = -FS_MSIC_MAX_OFFSET_US - 1;
	CHECK(fs_msic_prime_zone(&bad, 0, H(10), H(8), H(18), NULL, 0, &p, &err) == FS_ERR_VALUE);
	bad.offset0 = 0;
	CHECK(fs_msic_prime_zone(&bad, INT64_MAX - H(1), H(10), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_ERR_VALUE);
	CHECK(fs_msic_prime_zone(&bad, INT64_MIN, H(10), H(8), H(18), NULL, 0, &p, &err) ==
	      FS_ERR_VALUE);

	/* random zones of up to three changes against the minute-by-minute integral */
	for (i = 0; i < 150; i++)
	{
		fs_msic_offset_change ch[3];
		fs_msic_zone z;
		int hol[2];
		int64_t minute = INT64_C(60000000), from, dur, start, end, last;
		size_t n = unit_rand(&seed) % 4, k, nh = unit_rand(&seed) % 3;

		from = at_utc(2024, 1, 1, 0) + (int64_t) (unit_rand(&seed) % (400 * 1440)) * minute;
		dur = (int64_t) (unit_rand(&seed) % (2 * 1440)) * minute;
		start = (int64_t) (unit_rand(&seed) % 1440) * minute;
		end = unit_rand(&seed) % 4 == 0 ? start : (int64_t) (unit_rand(&seed) % 1440) * minute;
		last = from - DAY;
		for (k = 0; k < n; k++)
		{
			last += (int64_t) (1 + unit_rand(&seed) % 1440) * minute;
			ch[k].at = last;
			ch[k].offset_us = ((int64_t) (unit_rand(&seed) % 53) - 24) * H(1) / 2;
		}
		for (k = 0; k < nh; k++)
			hol[k] = (int) (unit_rand(&seed) % 367);
		z = (fs_msic_zone){0, ((int64_t) (unit_rand(&seed) % 53) - 24) * H(1) / 2, ch, n};
		if (zone_prime(&z, from, dur, start, end, hol, nh) !=
		    minute_integral(&z, from, dur, start, end, hol, nh))
			mismatches++;
	}
	CHECK(mismatches == 0);
}

/* A configuration built field by field follows the parser's rules, with its messages. */

void
test_msic_prime(void)
{
	test_prime_time();
	test_prime_zones();
}
