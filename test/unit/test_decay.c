/* test_decay.c: unit tests of src/core/decay.c: models, PBS steps, accrued charge, running sums. */
#include "unit.h"
#include "decay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC  INT64_C(1000000)
#define HOUR (3600 * SEC)
#define DAY  (24 * HOUR)
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
	CHECK(fs_decayed_value(&all, 98 * HOUR, &v, &err) == FS_ERR_VALUE);
	CHECK(fs_decayed_add(&all, 1, 0, DAY, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "one half-life") != NULL);
	b.half_life = DAY;
	CHECK(fs_decayed_combine(&a, &b, &err) == FS_ERR_VALUE);
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

void
test_decay(void)
{
	test_models();
	test_accrued();
	test_decayed_sum();
	test_text();
}
