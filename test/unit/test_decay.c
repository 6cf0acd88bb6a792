/* test_decay.c: unit tests of src/core/types/decay.c: models, PBS steps, accrued charge, running
 * sums. */
#include "unit.h"
#include "types/decay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC   INT64_C(1000000)
#define HOUR  (3600 * SEC)
#define DAY   (24 * HOUR)
#define D(us) fs_duration_exact(us)

static void
test_models(void)
{
	double v;
	fs_error err;

	CHECK(fs_decay(100, D(7 * DAY), D(7 * DAY), FS_DECAY_EXACT, &v, &err) == FS_OK && v == 50);
	CHECK(fs_decay(100, D(14 * DAY), D(7 * DAY), FS_DECAY_CONDOR, &v, &err) == FS_OK && v == 25);
	CHECK(fs_decay(100, D(0), D(7 * DAY), FS_DECAY_EXACT, &v, &err) == FS_OK && v == 100);
	/* SLURM's per-second factor: after one half-life 0.50007 of the start, not 0.5 */
	CHECK(fs_decay(1, D(7 * DAY), D(7 * DAY), FS_DECAY_SLURM, &v, &err) == FS_OK);
	CHECK_DBL(v, 0.50007, 0.000005);
	CHECK(fabs(v - 0.5) > 0.00005);
	CHECK(fs_decay(1, D(DAY), D(0), FS_DECAY_EXACT, &v, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "half_life must be positive") != NULL);
	CHECK(fs_decay(NAN, D(DAY), D(DAY), FS_DECAY_EXACT, &v, &err) == FS_ERR_RANGE);
	CHECK(fs_decay(1, D(DAY), D(SEC / 2), FS_DECAY_SLURM, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_decay(1e308, D(-100 * DAY), D(DAY), FS_DECAY_EXACT, &v, &err) == FS_ERR_RANGE);
	CHECK(fs_decay_model_from_name("slurm") == FS_DECAY_SLURM &&
	      fs_decay_model_from_name("pbs") == -1);

	/* PBS: halve once per whole period, never below the floor */
	CHECK(fs_decay_step(1000, D(23 * HOUR), D(DAY), 0.5, 1, &v, &err) == FS_OK && v == 1000);
	CHECK(fs_decay_step(1000, D(49 * HOUR), D(DAY), 0.5, 1, &v, &err) == FS_OK && v == 250);
	CHECK(fs_decay_step(1000, D(30 * DAY), D(DAY), 0.5, 1, &v, &err) == FS_OK && v == 1);
	CHECK(fs_decay_step(1000, D(2 * DAY), D(DAY), 0.9, 0, &v, &err) == FS_OK);
	CHECK_DBL(v, 810, 1e-9);
	CHECK(fs_decay_step(1000, D(DAY), D(DAY), 0, 0, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_decay_step(1000, D(DAY), D(DAY), 1.5, 0, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_decay_step(1000, D(DAY), D(0), 0.5, 0, &v, &err) == FS_ERR_VALUE);
}

static void
test_accrued(void)
{
	double v, sum = 0;
	fs_error err;
	int64_t start = 10 * DAY, end = start + 3 * DAY, as_of = end + 5 * DAY;
	int64_t step = 60 * SEC, t;

	/* against a numerical sum of one-minute steps (midpoint rule) */
	for (t = start; t < end; t += step)
		sum += 4.0 * 60 * exp2(-(double) (as_of - (t + step / 2)) / (7 * DAY));
	CHECK(fs_accrued(4, start, end, as_of, true, 7 * DAY, &v, &err) == FS_OK);
	CHECK_DBL(v, sum, sum * 1e-9);
	/* charged only up to as_of, while the job still runs */
	CHECK(fs_accrued(4, start, end, start + DAY, false, 0, &v, &err) == FS_OK && v == 4.0 * 86400);
	CHECK(fs_accrued(4, start, end, start - DAY, true, DAY, &v, &err) == FS_OK && v == 0);
	CHECK(fs_accrued(4, start, end, as_of, false, 0, &v, &err) == FS_OK && v == 4.0 * 3 * 86400);
	/* a short run long ago keeps its precision */
	CHECK(fs_accrued(1, 0, SEC, 0 + SEC, true, 365 * DAY, &v, &err) == FS_OK);
	CHECK_DBL(v, 1 - 0.69314718055994531 / (2 * 365 * 86400.0), 1e-15);
	CHECK(fs_accrued(4, end, start, as_of, true, DAY, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_accrued(4, start, end, as_of, true, -DAY, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_accrued(INFINITY, start, end, as_of, true, DAY, &v, &err) == FS_ERR_RANGE);
}

static void
test_decayed_sum(void)
{
	fs_decayed a = {0, 0, 7 * DAY}, b = {0, 0, 7 * DAY}, all = {0, 0, 7 * DAY};
	fs_error err;
	double v, w;
	int i;

	/* rows in any order, split in two parts and combined, give the one-pass result */
	for (i = 0; i < 100; i++)
	{
		int64_t at = ((i * 37) % 100) * HOUR;
		double u = 1 + i % 7;

		CHECK(fs_decayed_add(&all, u, at, 7 * DAY, &err) == FS_OK);
		CHECK(fs_decayed_add(i % 2 ? &a : &b, u, at, 7 * DAY, &err) == FS_OK);
	}
	CHECK(fs_decayed_combine(&a, &b, &err) == FS_OK);
	CHECK(fs_decayed_value(&a, 200 * HOUR, &v, &err) == FS_OK);
	CHECK(fs_decayed_value(&all, 200 * HOUR, &w, &err) == FS_OK);
	CHECK_DBL(v, w, w * 1e-12);
	/* before the last instant: the decay law backwards, so reading earlier then decaying agrees */
	CHECK(fs_decayed_value(&all, 98 * HOUR, &v, &err) == FS_OK);
	CHECK(fs_decayed_value(&all, 99 * HOUR, &w, &err) == FS_OK);
	CHECK_DBL(v * exp2(-1.0 / (7 * 24)), w, w * 1e-14);
	CHECK(fs_decayed_add(&all, 1, 0, DAY, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "one half-life") != NULL);
	b.half_life = DAY;
	CHECK(fs_decayed_combine(&a, &b, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "different half-lives: 604800 and 86400 seconds") != NULL);
}

/* Live state: charges added one by one in any commit order equal the one-pass sum. */
static void
test_decayed_live(void)
{
	fs_decayed stored, charge, all = {0, 0, DAY};
	fs_error err;
	double v, w;
	int64_t hl;
	int i;

	CHECK(fs_decayed_make(0, 0, DAY, &stored, &err) == FS_OK);
	for (i = 0; i < 50; i++)
	{
		/* a later transaction may commit first: instants go back and forth */
		int64_t at = (i % 2 ? i + 3 : i) * HOUR;

		CHECK(fs_decayed_make(1 + i % 5, at, DAY, &charge, &err) == FS_OK);
		CHECK(fs_decayed_combine(&stored, &charge, &err) == FS_OK);
		CHECK(fs_decayed_add(&all, 1 + i % 5, at, DAY, &err) == FS_OK);
	}
	CHECK(stored.at == 52 * HOUR);
	CHECK(fs_decayed_value(&stored, 60 * HOUR, &v, &err) == FS_OK);
	CHECK(fs_decayed_value(&all, 60 * HOUR, &w, &err) == FS_OK);
	CHECK_DBL(v, w, w * 1e-13);
	/* one half-life back doubles; far back overflows with a range error, never a crash */
	CHECK(fs_decayed_make(3, DAY, DAY, &charge, &err) == FS_OK);
	CHECK(fs_decayed_value(&charge, 0, &v, &err) == FS_OK && v == 6);
	CHECK(fs_decayed_value(&charge, DAY - 2000 * DAY, &v, &err) == FS_ERR_RANGE);
	CHECK(fs_decayed_value(&charge, FS_MIN_INSTANT, &v, &err) == FS_ERR_RANGE);
	CHECK(fs_decayed_make(NAN, 0, DAY, &charge, &err) == FS_ERR_RANGE);
	CHECK(fs_decayed_make(1, 0, 0, &charge, &err) == FS_ERR_VALUE);
	CHECK(fs_decayed_make(1, FS_END_INSTANT, DAY, &charge, &err) == FS_ERR_RANGE);
	/* slurm's per-second factor as an exact half-life: both decay alike */
	CHECK(fs_decay_half_life(7 * DAY, FS_DECAY_SLURM, &hl, &err) == FS_OK);
	CHECK(fs_decay(1, fs_duration_exact(7 * DAY), fs_duration_exact(7 * DAY), FS_DECAY_SLURM, &w,
	               &err) == FS_OK);
	CHECK_DBL(exp2(-(double) (7 * DAY) / (double) hl), w, 1e-11);
	CHECK(fs_decay_half_life(7 * DAY, FS_DECAY_CONDOR, &hl, &err) == FS_OK && hl == 7 * DAY);
	CHECK(fs_decay_half_life(SEC / 2, FS_DECAY_SLURM, &hl, &err) == FS_ERR_VALUE);
	CHECK(fs_decay_half_life(INT64_MAX, FS_DECAY_SLURM, &hl, &err) == FS_ERR_RANGE);
	CHECK(fs_decay_half_life(-1, FS_DECAY_EXACT, &hl, &err) == FS_ERR_VALUE);
}

static void
check_text(const char *in, const char *want)
{
	fs_decayed d;
	fs_error err;
	fs_sb sb;

	if (!CHECK(fs_decayed_parse(in, strlen(in), &d, &err) == FS_OK))
	{
		printf("     \"%s\": %s %s\n", in, err.message, err.detail);
		return;
	}
	fs_sb_init(&sb, &unit_alloc, 32);
	fs_decayed_format(&sb, &d);
	CHECK_STR(sb.data, want);
	free(sb.data);
}

static void
test_text(void)
{
	fs_decayed d;
	fs_error err;
	fs_sb sb;
	int64_t us;

	check_text("12.5@2026-01-01T00:00:00Z/604800", "12.5@2026-01-01T00:00:00Z/604800");
	check_text("0.1@2000-01-01T00:00:00.000001Z/0.5", "0.1@2000-01-01T00:00:00.000001Z/0.5");
	check_text("-0@1999-12-31T23:59:59.5Z/86400.000001", "0@1999-12-31T23:59:59.5Z/86400.000001");
	check_text("1e-300@2024-02-29T12:00:00Z/1", "1e-300@2024-02-29T12:00:00Z/1");
	check_text("3@0001-01-01T00:00:00Z/60", "3@0001-01-01T00:00:00Z/60");
	CHECK(fs_parse_utc("2000-01-01T00:00:00Z", 20, &us) == 20 && us == 0);
	CHECK(fs_parse_utc("2000-01-02T00:00:01Z", 20, &us) == 20 && us == DAY + SEC);
	CHECK(fs_parse_utc("2023-02-29T00:00:00Z", 20, &us) == 0);
	CHECK(fs_parse_utc("2024-13-01T00:00:00Z", 20, &us) == 0);
	CHECK(fs_parse_utc("2024-01-01T24:00:00Z", 20, &us) == 0);
	CHECK(fs_parse_utc("2024-01-01 00:00:00Z", 20, &us) == 0);
	CHECK(fs_parse_utc("2024-01-01T00:00:00.1234567Z", 28, &us) == 0);
	CHECK(fs_decayed_parse("x@2026-01-01T00:00:00Z/1", 24, &d, &err) == FS_ERR_SYNTAX);
	CHECK(fs_decayed_parse("1@2026-01-01T00:00:00Z/0", 24, &d, &err) == FS_ERR_SYNTAX);
	CHECK(fs_decayed_parse("1@2026-01-01T00:00:00Z", 22, &d, &err) == FS_ERR_SYNTAX);
	CHECK(fs_decayed_parse("1@2026-01-01T00:00:00+01/5", 26, &d, &err) == FS_ERR_SYNTAX);
	/* every instant of a few centuries prints and reads back */
	for (us = -300 * 365 * DAY; us < 300 * 365 * DAY; us += 7777 * HOUR + 123457)
	{
		int64_t back;

		fs_sb_init(&sb, &unit_alloc, 32);
		fs_format_utc(&sb, us);
		if (!CHECK(fs_parse_utc(sb.data, sb.len, &back) == sb.len && back == us))
		{
			printf("     %s\n", sb.data);
			free(sb.data);
			break;
		}
		free(sb.data);
	}
}

/* Intervals and instant differences beyond int64 microseconds. */
static void
test_wide(void)
{
	double v;
	fs_error err;
	fs_decayed d = {0, FS_MIN_INSTANT, DAY};
	int64_t t;
	/* 600,000 and 10,000 years of 365.25 days, as the glue counts an interval */
	double year = 365.25 * 86400e6;

	CHECK(fs_decay(1, fs_duration_approx(600000 * year), D((int64_t) (10000 * year)),
	               FS_DECAY_EXACT, &v, &err) == FS_OK);
	CHECK_DBL(v, ldexp(1, -60), ldexp(1, -60) * 1e-12);
	CHECK(fs_decay(1, fs_duration_approx(-600000 * year), fs_duration_approx(1e6 * year),
	               FS_DECAY_EXACT, &v, &err) == FS_OK);
	CHECK_DBL(v, exp2(0.6), 1e-12);
	CHECK(fs_decay(1, fs_duration_approx(600000 * year), D(DAY), FS_DECAY_SLURM, &v, &err) ==
	          FS_OK &&
	      v == 0);
	CHECK(fs_decay(1, fs_duration_approx(-1e22), D(DAY), FS_DECAY_EXACT, &v, &err) == FS_ERR_RANGE);
	CHECK(fs_decay(1, D(DAY), fs_duration_approx(-1e22), FS_DECAY_EXACT, &v, &err) == FS_ERR_VALUE);
	/* PBS steps: 60 whole periods of 10,000 years */
	CHECK(fs_decay_step(1, fs_duration_approx(600000 * year), fs_duration_approx(10000 * year), 0.5,
	                    0, &v, &err) == FS_OK);
	CHECK(v == ldexp(1, -60));
	CHECK(fs_decay_step(1, fs_duration_approx(-600000 * year), D(DAY), 0.5, 0, &v, &err) == FS_OK &&
	      v == 1);

	/* from 4714 BC to 294276 AD the difference passes INT64_MAX: nothing wraps around */
	CHECK(fs_halvings(FS_END_INSTANT - 1, FS_MIN_INSTANT, 1) > 9.4e18);
	CHECK(fs_decayed_add(&d, 1, FS_MIN_INSTANT, DAY, &err) == FS_OK && d.value == 1);
	CHECK(fs_decayed_value(&d, FS_END_INSTANT - 1, &v, &err) == FS_OK && v == 0);
	CHECK(fs_decayed_value(&d, FS_MIN_INSTANT + DAY, &v, &err) == FS_OK && v == 0.5);
	/* a late row first, then one from the other end of time */
	d.value = 0;
	d.at = FS_END_INSTANT - 1;
	CHECK(fs_decayed_add(&d, 2, FS_MIN_INSTANT, DAY, &err) == FS_OK && d.value == 0 &&
	      d.at == FS_END_INSTANT - 1);
	CHECK(fs_accrued(1, FS_MIN_INSTANT, FS_END_INSTANT - 1, FS_END_INSTANT - 1, false, 0, &v,
	                 &err) == FS_OK);
	CHECK_DBL(v, ((double) FS_END_INSTANT - (double) FS_MIN_INSTANT) / 1e6, 1e4);
	CHECK(fs_accrued(1, FS_MIN_INSTANT, FS_MIN_INSTANT + DAY, FS_END_INSTANT - 1, true, DAY, &v,
	                 &err) == FS_OK &&
	      v == 0);
	/* an overflowing sum is an error and leaves the state as it was */
	d.value = 1e308;
	d.at = 0;
	CHECK(fs_decayed_add(&d, 1e308, 0, DAY, &err) == FS_ERR_RANGE);
	/* before its instant 1e308 grows past a double: a range error, not an infinity */
	CHECK(d.value == 1e308 && d.at == 0);
	for (t = FS_MIN_INSTANT; t < FS_END_INSTANT - DAY * 1000000; t += DAY * 999983)
		CHECK(fs_decayed_value(&d, t + 1, &v, &err) == (t + 1 < d.at ? FS_ERR_RANGE : FS_OK));
	CHECK(fs_decayed_add(&d, 1, FS_END_INSTANT, DAY, &err) == FS_ERR_RANGE);
}

static void
round_trip(const fs_decayed *d, const char *want)
{
	fs_decayed back;
	uint8_t bin[FS_DECAYED_BINARY_LEN];
	fs_error err;
	fs_sb sb;

	fs_sb_init(&sb, &unit_alloc, 32);
	fs_decayed_format(&sb, d);
	CHECK_STR(sb.data, want);
	if (!CHECK(fs_decayed_parse(sb.data, sb.len, &back, &err) == FS_OK))
		printf("     %s: %s %s\n", sb.data, err.message, err.detail);
	CHECK(back.value == d->value && back.at == d->at && back.half_life == d->half_life);
	fs_decayed_encode(d, bin);
	CHECK(fs_decayed_decode(bin, sizeof(bin), &back, &err) == FS_OK);
	CHECK(back.value == d->value && back.at == d->at && back.half_life == d->half_life);
	free(sb.data);
}

static void
bad_binary(fs_decayed d, const char *want_detail)
{
	uint8_t bin[FS_DECAYED_BINARY_LEN];
	fs_decayed back;
	fs_error err;

	fs_decayed_encode(&d, bin);
	CHECK(fs_decayed_decode(bin, sizeof(bin), &back, &err) == FS_ERR_BINARY);
	if (!CHECK(strstr(err.detail, want_detail) != NULL))
		printf("     %s\n", err.detail);
}

/* Every value the type can hold prints, and its text and binary forms read back. */
static void
test_range(void)
{
	fs_decayed d = {1.5, 0, 86400 * SEC};
	fs_decayed back;
	fs_error err;
	uint8_t bin[FS_DECAYED_BINARY_LEN];
	int64_t us;
	uint64_t seed = 14;
	int i;

	CHECK(fs_parse_utc("10000-01-01T00:00:00Z", 21, &us) == 21);
	d.at = us;
	round_trip(&d, "1.5@10000-01-01T00:00:00Z/86400");
	CHECK(fs_parse_utc("-4712-01-01T00:00:00Z", 21, &us) == 21); /* 4713 BC */
	d.at = us;
	round_trip(&d, "1.5@-4712-01-01T00:00:00Z/86400");
	CHECK(fs_parse_utc("0000-12-31T23:59:59.5Z", 22, &us) == 22); /* 1 BC */
	d.at = us;
	round_trip(&d, "1.5@0000-12-31T23:59:59.5Z/86400");
	CHECK(us == -63082281600 * SEC - SEC / 2); /* 0001-01-01 is 730119 days before 2000 */
	d.at = FS_MIN_INSTANT;
	d.half_life = INT64_MAX;
	round_trip(&d, "1.5@-4713-11-24T00:00:00Z/9223372036854.775807");
	d.at = FS_END_INSTANT - 1;
	d.half_life = 1;
	round_trip(&d, "1.5@294276-12-31T23:59:59.999999Z/0.000001");
	/* one past either end is out of range, in text and in binary alike */
	CHECK(fs_parse_utc("-4713-11-23T23:59:59.999999Z", 28, &us) == 28 && !FS_INSTANT_VALID(us));
	CHECK(fs_parse_utc("294277-01-01T00:00:00Z", 22, &us) == 22 && !FS_INSTANT_VALID(us));
	CHECK(fs_parse_utc("999999-12-31T00:00:00Z", 22, &us) == 22 && !FS_INSTANT_VALID(us));
	CHECK(fs_parse_utc("-9999-12-31T00:00:00Z", 21, &us) == 21 && !FS_INSTANT_VALID(us));
	CHECK(fs_parse_utc("1000000-01-01T00:00:00Z", 23, &us) == 0);
	CHECK(fs_parse_utc("999-01-01T00:00:00Z", 19, &us) == 0);
	CHECK(fs_decayed_parse("1@294277-01-01T00:00:00Z/1", 26, &back, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "out of range") != NULL);
	CHECK(fs_decayed_parse("1@-4713-11-23T00:00:00Z/1", 25, &back, &err) == FS_ERR_SYNTAX);
	CHECK(fs_decayed_parse("1@2000-01-01T00:00:00Z/9223372036854.775808", 43, &back, &err) ==
	      FS_ERR_SYNTAX);
	CHECK(fs_decayed_parse("1@2000-01-01T00:00:00Z/92233720368547", 37, &back, &err) ==
	      FS_ERR_SYNTAX);
	d.half_life = 86400 * SEC;
	d.at = FS_END_INSTANT;
	bad_binary(d, "instant of a decayed usage is out of range");
	d.at = FS_MIN_INSTANT - 1;
	bad_binary(d, "out of range");
	d.at = INT64_MIN;
	bad_binary(d, "out of range");
	d.at = 0;
	d.half_life = 0;
	bad_binary(d, "half-life of a decayed usage must be positive");
	d.half_life = INT64_MIN;
	bad_binary(d, "must be positive");
	d.half_life = 1;
	d.value = INFINITY;
	bad_binary(d, "finite");
	d.value = NAN;
	bad_binary(d, "finite");
	d.value = 1;
	fs_decayed_encode(&d, bin);
	CHECK(fs_decayed_decode(bin, sizeof(bin) - 1, &back, &err) == FS_ERR_BINARY);
	bin[0] = 2;
	CHECK(fs_decayed_decode(bin, sizeof(bin), &back, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "version 2") != NULL);
	CHECK(fs_decayed_decode(bin, 0, &back, &err) == FS_ERR_BINARY);
	/* -0 is read as 0: equal values, equal bytes */
	d.value = -0.0;
	fs_decayed_encode(&d, bin);
	CHECK(fs_decayed_decode(bin, sizeof(bin), &back, &err) == FS_OK && !signbit(back.value));
	/* random instants over the whole range print and read back */
	for (i = 0; i < 20000; i++)
	{
		uint64_t span = (uint64_t) FS_END_INSTANT - (uint64_t) FS_MIN_INSTANT;
		fs_sb sb;

		d.at = (int64_t) ((uint64_t) FS_MIN_INSTANT + unit_rand(&seed) % span);
		d.half_life = (int64_t) (unit_rand(&seed) >> 1) + 1;
		if (d.half_life < 0)
			d.half_life = INT64_MAX;
		fs_sb_init(&sb, &unit_alloc, 48);
		fs_decayed_format(&sb, &d);
		if (!CHECK(fs_decayed_parse(sb.data, sb.len, &back, &err) == FS_OK && back.at == d.at &&
		           back.half_life == d.half_life))
		{
			printf("     %s\n", sb.data);
			free(sb.data);
			break;
		}
		free(sb.data);
	}
}

void
test_decay(void)
{
	test_models();
	test_accrued();
	test_decayed_sum();
	test_decayed_live();
	test_text();
	test_wide();
	test_range();
}
