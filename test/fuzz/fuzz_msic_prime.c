/*
 * fuzz_msic_prime.c: libFuzzer harness for the prime part of a run under fuzzed clock changes.
 * The input chooses a time unit, an epoch, a run, a prime-time window, holidays and a time zone
 * (an offset and up to five changes, all in whole units); both forms of the core's count (the
 * zone as a list, and as a clock) must equal the integral of fs_msic_is_prime sampled once per
 * unit, which is exact because nothing changes between two units.
 */
#include "fuzz_alloc.h"
#include "msic/msic_prime.h"

#include <stdio.h>
#include <stdlib.h>

#define DAY          INT64_C(86400000000)
#define MAX_CHANGES  5
#define MAX_HOLIDAYS 4
/* samples of the integral per run: the run is at most this many units */
#define MAX_UNITS INT64_C(12000)

typedef struct input
{
	const uint8_t *p;
	size_t left;
} input;

static uint64_t
take(input *in, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes && in->left > 0; i++, in->left--)
		v = v << 8 | *in->p++;
	return v;
}

/* A whole number of units in [-range, range]. */
static int64_t
take_signed(input *in, int64_t range)
{
	return (int64_t) (take(in, 4) % (uint64_t) (2 * range + 1)) - range;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

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
clock_offset_at(void *ctx, int64_t t, int64_t limit, int64_t *next)
{
	(void) limit;
	return zone_offset(ctx, t, next);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t units[] = {INT64_C(60000000), INT64_C(1000000), INT64_C(900000000)};
	input in = {data, size};
	fs_msic_offset_change ch[MAX_CHANGES];
	int hol[MAX_HOLIDAYS];
	fs_msic_zone zone;
	/* the count takes only the clock's offsets, not its civil-date conversions */
	fs_msic_clock clock = {NULL, NULL, &zone, clock_offset_at, 0};
	fs_error err;
	int64_t unit, per_day, from, dur, start, end, got_list, got_clock, want = 0, t;
	size_t nch, nhol, i, j;

	unit = units[take(&in, 1) % 3];
	per_day = DAY / unit;
	zone.epoch_day = take(&in, 1) & 1 ? 10957 : 0;
	/* from some day of 2020 to 2025, at a whole unit */
	from =
	    (fs_days_from_civil(2020, 1, 1) - zone.epoch_day + (int64_t) (take(&in, 2) % 2000)) * DAY +
	    (int64_t) (take(&in, 4) % (uint64_t) per_day) * unit;
	dur = (int64_t) (take(&in, 2) % (uint64_t) (MAX_UNITS + 1)) * unit;
	start = (int64_t) (take(&in, 4) % (uint64_t) per_day) * unit;
	end = (int64_t) (take(&in, 4) % (uint64_t) per_day) * unit;
	zone.offset0 = take_signed(&in, FS_MSIC_MAX_OFFSET_US / unit) * unit;
	/* changes from a day before the run to a day after it, sorted and distinct */
	nch = take(&in, 1) % (MAX_CHANGES + 1);
	for (i = 0; i < nch; i++)
	{
		ch[i].at = from - DAY +
		           (int64_t) (take(&in, 4) % (uint64_t) (dur / unit + 2 * per_day + 1)) * unit;
		ch[i].offset_us = take_signed(&in, FS_MSIC_MAX_OFFSET_US / unit) * unit;
	}
	for (i = 1; i < nch; i++)
		for (j = i; j > 0 && ch[j].at < ch[j - 1].at; j--)
		{
			fs_msic_offset_change c = ch[j];

			ch[j] = ch[j - 1];
			ch[j - 1] = c;
		}
	for (i = 0, j = 0; i < nch; i++)
		if (j == 0 || ch[i].at != ch[j - 1].at)
			ch[j++] = ch[i];
	zone.changes = ch;
	zone.n = j;
	/* holidays, 0 and 367 included: they never match a day */
	nhol = take(&in, 1) % (MAX_HOLIDAYS + 1);
	for (i = 0; i < nhol; i++)
		hol[i] = (int) (take(&in, 2) % 368);
	clock.epoch_day = zone.epoch_day;

	if (fs_msic_prime_zone(&zone, from, dur, start, end, hol, nhol, &got_list, &err) != FS_OK ||
	    fs_msic_prime_us(&clock, from, dur, start, end, hol, nhol, &got_clock, &err) != FS_OK)
	{
		fprintf(stderr, "prime time refused a valid run: %s\n", err.message);
		abort();
	}
	for (t = from; t < from + dur; t += unit)
	{
		int64_t next, l = t + zone_offset(&zone, t, &next), z = floor_div(l, DAY), y, m, d;

		fs_civil_from_days(z + zone.epoch_day, &y, &m, &d);
		if (fs_msic_is_prime(y, m, d, l - z * DAY, start, end, hol, nhol))
			want += unit;
	}
	if (got_list != want || got_clock != want)
	{
		fprintf(stderr,
		        "prime part of a run: list %lld, clock %lld, integral %lld (from %lld for %lld, "
		        "window %lld-%lld, epoch day %lld, offset %lld, %zu changes",
		        (long long) got_list, (long long) got_clock, (long long) want, (long long) from,
		        (long long) dur, (long long) start, (long long) end, (long long) zone.epoch_day,
		        (long long) zone.offset0, zone.n);
		for (i = 0; i < zone.n; i++)
			fprintf(stderr, "; at %lld to %lld", (long long) ch[i].at, (long long) ch[i].offset_us);
		fprintf(stderr, ")\n");
		abort();
	}
	/* a bad zone is an error, never a crash */
	if (zone.n >= 2)
	{
		fs_msic_offset_change swapped[2] = {ch[1], ch[0]};
		fs_msic_zone bad = {zone.epoch_day, zone.offset0, swapped, 2};

		if (fs_msic_prime_zone(&bad, from, dur, start, end, hol, nhol, &got_list, &err) !=
		    FS_ERR_VALUE)
			abort();
	}
	return 0;
}
