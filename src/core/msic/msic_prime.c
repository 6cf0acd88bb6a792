/*
 * msic_prime.c: the MSIC-Cluster scheduler's prime-time calendar (toolkit.c): the prime-time
 * predicate and the prime part of a run, exact across midnights, weekends, holidays and clock
 * changes.
 */
#include "msic/msic_prime.h"

#include <stdio.h>

#define US_PER_DAY (INT64_C(86400) * 1000000)
/* Day numbers an epoch may have: about 270,000 years either side of 1970. */
#define MAX_EPOCH_DAY INT64_C(100000000)

static bool
is_holiday(int yday, const int *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (h[i] == yday)
			return true;
	return false;
}

static int64_t
weekday(int64_t z)
{
	return ((z % 7) + 7 + 4) % 7; /* 1970-01-01 was a Thursday */
}

bool
fs_msic_prime_day(int64_t year, int64_t mon, int64_t mday, const int *holidays, size_t n)
{
	int64_t z = fs_days_from_civil(year, mon, mday);
	int64_t wday = weekday(z);
	int yday = (int) (z - fs_days_from_civil(year, 1, 1) + 1);

	return wday != 0 && wday != 6 && !is_holiday(yday, holidays, n);
}

bool
fs_msic_is_prime(int64_t year, int64_t mon, int64_t mday, int64_t sod_us, int64_t start_us,
                 int64_t end_us, const int *holidays, size_t n)
{
	if (!fs_msic_prime_day(year, mon, mday, holidays, n))
		return false;
	if (end_us > start_us)
		return sod_us >= start_us && sod_us < end_us;
	return !(sod_us >= end_us && sod_us < start_us);
}

/* ---- the prime part of a run ---------------------------------------------------------------- */

/* What every piece of a run needs: the window, the holidays as a table, the epoch, a poll count. */
typedef struct walk
{
	int64_t start, end, epoch_day;
	bool holiday[367]; /* by day of the year; other numbers never match a day */
	size_t steps;
	int64_t sum;
} walk;

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* Add the overlap of [a, b) and [from, to). */
static void
overlap(int64_t a, int64_t b, int64_t from, int64_t to, int64_t *sum)
{
	if (a < from)
		a = from;
	if (b > to)
		b = to;
	if (b > a)
		*sum += b - a;
}

/*
 * Add the prime part of the local wall-clock span [la, lb), lived at one UTC offset, so that
 * local and elapsed time advance together: walk its local days.
 */
static void
add_piece(walk *w, int64_t la, int64_t lb)
{
	int64_t z;

	for (z = floor_div(la, US_PER_DAY); z * US_PER_DAY < lb; z++)
	{
		int64_t d0 = z * US_PER_DAY, y, m, d, day = z + w->epoch_day;

		FS_POLL(w->steps);
		w->steps++;
		if (weekday(day) == 0 || weekday(day) == 6)
			continue;
		fs_civil_from_days(day, &y, &m, &d);
		if (w->holiday[day - fs_days_from_civil(y, 1, 1) + 1])
			continue;
		if (w->end > w->start)
			overlap(d0 + w->start, d0 + w->end, la, lb, &w->sum);
		else
		{
			overlap(d0, d0 + w->end, la, lb, &w->sum);
			overlap(d0 + w->start, d0 + US_PER_DAY, la, lb, &w->sum);
		}
	}
}

static fs_status
bad_offset(int64_t off, fs_error *err)
{
	fs_fail(err, FS_ERR_VALUE, "UTC offset of %lld microseconds is out of range", (long long) off);
	fs_error_detail(err, "A time zone's offset must be within two days of UTC.");
	return FS_ERR_VALUE;
}

static bool
offset_ok(int64_t off)
{
	return off >= -FS_MSIC_MAX_OFFSET_US && off <= FS_MSIC_MAX_OFFSET_US;
}

/* Check the arguments every form shares and set up the walk; *to is the end of the run. */
static fs_status
walk_begin(walk *w, int64_t epoch_day, int64_t from, int64_t dur, int64_t start_us, int64_t end_us,
           const int *holidays, size_t n, int64_t *to, fs_error *err)
{
	/* room for an offset and a day on either side of the run */
	const int64_t margin = FS_MSIC_MAX_OFFSET_US + 2 * US_PER_DAY;
	size_t i;

	if (dur < 0 || dur > FS_MSIC_MAX_WALK_DAYS * US_PER_DAY)
	{
		fs_fail(err, FS_ERR_VALUE, "walltime must be between 0 and %d days", FS_MSIC_MAX_WALK_DAYS);
		fs_error_detail(err, "Prime time is counted day by day over at most 100 years.");
		return FS_ERR_VALUE;
	}
	if (start_us < 0 || start_us >= US_PER_DAY || end_us < 0 || end_us >= US_PER_DAY)
	{
		fs_fail(err, FS_ERR_VALUE, "prime time start and end must be times of day");
		fs_error_detail(err, "Both must be from 00:00:00 up to, not including, 24:00:00.");
		return FS_ERR_VALUE;
	}
	if (epoch_day < -MAX_EPOCH_DAY || epoch_day > MAX_EPOCH_DAY || from < INT64_MIN + margin ||
	    from > INT64_MAX - margin - dur)
	{
		fs_fail(err, FS_ERR_VALUE, "the run is outside the range of instants");
		fs_error_detail(err, "It starts at %lld microseconds from day %lld and lasts %lld.",
		                (long long) from, (long long) epoch_day, (long long) dur);
		return FS_ERR_VALUE;
	}
	memset(w, 0, sizeof(*w));
	w->start = start_us;
	w->end = end_us;
	w->epoch_day = epoch_day;
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (holidays[i] >= 1 && holidays[i] <= 366)
			w->holiday[holidays[i]] = true;
	}
	*to = from + dur;
	return FS_OK;
}

fs_status
fs_msic_prime_zone(const fs_msic_zone *zone, int64_t from, int64_t dur, int64_t start_us,
                   int64_t end_us, const int *holidays, size_t n, int64_t *prime, fs_error *err)
{
	walk w;
	int64_t to, t, off = zone->offset0;
	size_t i;
	fs_status st;

	fs_error_clear(err);
	*prime = 0;
	st = walk_begin(&w, zone->epoch_day, from, dur, start_us, end_us, holidays, n, &to, err);
	if (st != FS_OK)
		return st;
	for (i = 0; i < zone->n; i++)
	{
		FS_POLL(i);
		if (!offset_ok(zone->changes[i].offset_us))
			return bad_offset(zone->changes[i].offset_us, err);
		if (i > 0 && zone->changes[i].at <= zone->changes[i - 1].at)
		{
			fs_fail(err, FS_ERR_VALUE, "UTC offset changes are not in ascending order");
			fs_error_detail(err, "Change %zu is at %lld, not after %lld.", i + 1,
			                (long long) zone->changes[i].at, (long long) zone->changes[i - 1].at);
			return FS_ERR_VALUE;
		}
	}
	if (!offset_ok(off))
		return bad_offset(off, err);
	/* the offset the run starts with */
	for (i = 0; i < zone->n && zone->changes[i].at <= from; i++)
		off = zone->changes[i].offset_us;
	/* one piece per offset in force: up to each change before the end, then to the end */
	for (t = from; t < to; i++)
	{
		int64_t next = i < zone->n && zone->changes[i].at < to ? zone->changes[i].at : to;

		add_piece(&w, t + off, next + off);
		if (next < to)
			off = zone->changes[i].offset_us;
		t = next;
	}
	*prime = w.sum;
	return FS_OK;
}

fs_status
fs_msic_prime_us(const fs_msic_clock *clock, int64_t from, int64_t dur, int64_t start_us,
                 int64_t end_us, const int *holidays, size_t n, int64_t *prime, fs_error *err)
{
	walk w;
	int64_t to, t;
	fs_status st;

	fs_error_clear(err);
	*prime = 0;
	st = walk_begin(&w, clock->epoch_day, from, dur, start_us, end_us, holidays, n, &to, err);
	if (st != FS_OK)
		return st;
	/* one piece per offset in force, the clock telling where each one ends */
	for (t = from; t < to;)
	{
		int64_t next = to, off = 0;

		if (clock->offset_at)
			off = clock->offset_at(clock->ctx, t, to, &next);
		if (!offset_ok(off))
			return bad_offset(off, err);
		if (next <= t)
		{
			fs_fail(err, FS_ERR_VALUE, "the clock's next UTC offset change is not after %lld",
			        (long long) t);
			return FS_ERR_VALUE;
		}
		if (next > to)
			next = to;
		add_piece(&w, t + off, next + off);
		t = next;
	}
	*prime = w.sum;
	return FS_OK;
}
