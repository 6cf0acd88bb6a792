/* test_userprio.c: unit tests of src/core/share/userprio.c: HTCondor's real priority, the state's
 * text and binary forms and their limits, the report's usage and the pie spin. */
#include "unit.h"
#include "share/userprio.h"
#include "types/decay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H INT64_C(3600000000)

static double
prio(const fs_userprio *s)
{
	double v = NAN;
	fs_error err;

	if (!CHECK(fs_userprio_value(s, &v, &err) == FS_OK))
		printf("     %s\n", err.message);
	return v;
}

static void
test_userprio_real_priority(void)
{
	fs_userprio s, a, b;
	fs_error err;
	fs_sb sb;
	int i;

	/* 100 cores for one half-life from 0.5: 50.25; for two: 75.125 */
	CHECK(fs_userprio_start(&s, 100, 0, H, &err) == FS_OK);
	CHECK_DBL(prio(&s), 0.5, 0);
	CHECK(fs_userprio_add(&s, 100, H, H, &err) == FS_OK);
	CHECK_DBL(prio(&s), 50.25, 1e-12);
	CHECK(fs_userprio_add(&s, 100, 2 * H, H, &err) == FS_OK);
	CHECK_DBL(prio(&s), 75.125, 1e-12);
	/* idle: decays toward the floor of 0.5, never below */
	CHECK(fs_userprio_add(&s, 0, 3 * H, H, &err) == FS_OK);
	CHECK_DBL(prio(&s), 37.5625, 1e-12);
	CHECK(fs_userprio_add(&s, 0, 100 * H, H, &err) == FS_OK);
	CHECK_DBL(prio(&s), 0.5, 0);
	CHECK(fs_userprio_add(&s, 1, 99 * H, H, &err) == FS_ERR_VALUE);
	CHECK(fs_userprio_add(&s, 1, 101 * H, 2 * H, &err) == FS_ERR_VALUE);
	CHECK(fs_userprio_add(&s, -1, 101 * H, H, &err) == FS_ERR_VALUE);

	/* two runs, one after the other, combine to the sequential result (either order) */
	for (i = 0; i < 20; i++)
	{
		double u = (i * 37) % 11 * 10.0;
		int64_t t = (int64_t) i * H / 3 + (i / 4) * H; /* in time order, uneven gaps */

		if (i == 0)
			fs_userprio_start(&s, u, t, 2 * H, &err);
		else
			fs_userprio_add(&s, u, t, 2 * H, &err);
		if (i == 0)
			fs_userprio_start(&a, u, t, 2 * H, &err);
		else if (i < 12)
			fs_userprio_add(&a, u, t, 2 * H, &err);
		else if (i == 12)
			fs_userprio_start(&b, u, t, 2 * H, &err);
		else
			fs_userprio_add(&b, u, t, 2 * H, &err);
	}
	{
		fs_userprio ab = a, ba = b;

		CHECK(fs_userprio_combine(&ab, &b, &err) == FS_OK);
		CHECK(fs_userprio_combine(&ba, &a, &err) == FS_OK);
		CHECK_DBL(prio(&ab), prio(&s), 1e-9);
		CHECK_DBL(prio(&ba), prio(&s), 1e-9);
		/* overlapping runs cannot be combined */
		CHECK(fs_userprio_combine(&ab, &a, &err) == FS_ERR_VALUE);
	}
	/* the text form reads back exactly */
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_userprio_format(&sb, &s);
	CHECK(fs_userprio_parse(sb.data, sb.len, &a, &err) == FS_OK);
	CHECK(memcmp(&a, &s, sizeof(s)) == 0);
	free(sb.data);
	CHECK(fs_userprio_parse("max(1,2p+3)", 11, &a, &err) == FS_ERR_SYNTAX);
}

static fs_status
parse_state(const char *text, fs_userprio *s)
{
	fs_error err;

	return fs_userprio_parse(text, strlen(text), s, &err);
}

static void
bad_state_binary(fs_userprio s, const char *want_detail)
{
	uint8_t bin[FS_USERPRIO_BINARY_LEN];
	fs_userprio back;
	fs_error err;

	fs_userprio_encode(&s, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_ERR_BINARY);
	if (!CHECK(strstr(err.detail, want_detail) != NULL))
		printf("     %s\n", err.detail);
}

/* Overflow, the whole range of instants, and what text and binary input accept. */
static void
test_userprio_limits(void)
{
	fs_userprio a, b, keep, back;
	fs_error err;
	uint8_t bin[FS_USERPRIO_BINARY_LEN];
	fs_sb sb;
	double v;
	int64_t bc, ad;

	/* a crash once: the combine overflows; an error, and the state is kept */
	CHECK(parse_state("max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1"
	                  "|used=0,in_use=0,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(parse_state("max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1"
	                  "|used=0,in_use=1e308,began=-,last_used=-",
	                  &b) == FS_OK);
	keep = a;
	CHECK(fs_userprio_combine(&a, &b, &err) == FS_ERR_RANGE);
	CHECK(strstr(err.message, "out of range") != NULL);
	CHECK(memcmp(&a, &keep, sizeof(a)) == 0);
	keep = b;
	CHECK(fs_userprio_combine(&b, &a, &err) == FS_ERR_RANGE);
	CHECK(memcmp(&b, &keep, sizeof(b)) == 0);
	/* one step of the aggregate near the top of the range stays finite; the accumulated usage
	 * of the next overflows: an error, the state kept */
	CHECK(parse_state("max(0.5,0.5p+1.7e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1"
	                  "|used=0,in_use=0,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(fs_userprio_add(&a, 1.7e308, a.first_at + 1000000, 1, &err) == FS_OK);
	CHECK(isfinite(a.m) && isfinite(a.g));
	CHECK(prio(&a) > 1e308);
	CHECK_DBL(a.usage, 1.7e308, 0);
	keep = a;
	CHECK(fs_userprio_add(&a, 1.7e308, a.first_at + 2000000, 1, &err) == FS_ERR_RANGE);
	CHECK(strstr(err.message, "accumulated usage overflows") != NULL);
	CHECK(memcmp(&a, &keep, sizeof(a)) == 0);
	/* the final function: a p + g with g at the top of the range still rounds to a finite number */
	CHECK(parse_state("max(0.5,1p+1.7976931348623157e308)|0@2026-01-01T00:00:00Z.."
	                  "2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(fs_userprio_value(&a, &v, &err) == FS_OK && isfinite(v));

	/* samples in 4713 BC and 294276 AD: the gap passes INT64_MAX microseconds; after a gap of
	 * millions of half-lives the priority is what was in use, 100 */
	CHECK(fs_parse_utc("-4712-01-01T00:00:00Z", 21, &bc) == 21);
	CHECK(fs_parse_utc("294276-12-31T00:00:00Z", 22, &ad) == 22);
	CHECK(fs_userprio_start(&a, 100, bc, 86400 * INT64_C(1000000), &err) == FS_OK);
	CHECK(fs_userprio_add(&a, 100, ad, 86400 * INT64_C(1000000), &err) == FS_OK);
	CHECK_DBL(prio(&a), 100, 0);
	/* the same through combine */
	CHECK(fs_userprio_start(&a, 100, bc, 86400 * INT64_C(1000000), &err) == FS_OK);
	CHECK(fs_userprio_start(&b, 100, ad, 86400 * INT64_C(1000000), &err) == FS_OK);
	CHECK(fs_userprio_combine(&a, &b, &err) == FS_OK);
	CHECK_DBL(prio(&a), 100, 0);
	CHECK(fs_userprio_add(&a, 1, FS_END_INSTANT, 86400 * INT64_C(1000000), &err) == FS_ERR_RANGE);

	/* BC and year-10000 states print and read back, in text and binary */
	a.last_at = ad + 1;
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_userprio_format(&sb, &a);
	CHECK_STR(sb.data, "max(100,0p+100)|100@-4712-01-01T00:00:00Z..294276-12-31T00:00:00.000001Z/"
	                   "86400000000|used=943518144960000,in_use=100,began=294276-12-31T00:00:00Z,"
	                   "last_used=294276-12-31T00:00:00Z");
	CHECK(fs_userprio_parse(sb.data, sb.len, &back, &err) == FS_OK);
	CHECK(memcmp(&a, &back, sizeof(a)) == 0);
	free(sb.data);
	fs_userprio_encode(&a, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_OK);
	CHECK(memcmp(&a, &back, sizeof(a)) == 0);
	/* half-lives are exact integers up to INT64_MAX */
	CHECK(parse_state("max(0,1p+0)|1@10000-01-01T00:00:00Z..10000-01-01T00:00:00Z/"
	                  "9223372036854775807|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(a.half_life == INT64_MAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/9007199254740993"
	                  "|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(a.half_life == INT64_C(9007199254740993));
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/"
	                  "9223372036854775808|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/"
	                  "0|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..294277-01-01T00:00:00Z/"
	                  "1|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_ERR_SYNTAX);

	/* m below 0.5 only in the identity of a single sample; text and binary agree */
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/"
	                  "1|used=0,in_use=1,began=-,last_used=-",
	                  &a) == FS_OK);
	CHECK(parse_state("max(0.4,1p+0)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/"
	                  "1|used=0,in_use=1,began=-,last_used=-",
	                  &b) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/"
	                  "1|used=0,in_use=1,began=-,last_used=-",
	                  &b) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0.5,1p+-1)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/"
	                  "1|used=0,in_use=1,began=-,last_used=-",
	                  &b) == FS_ERR_SYNTAX);
	b = a;
	b.m = 0.25;
	bad_state_binary(b, "must be at least 0.5");
	b.m = -1;
	bad_state_binary(b, "must be at least 0.5");
	b = a;
	b.half_life = 0;
	bad_state_binary(b, "half-life");
	b.half_life = INT64_MIN;
	bad_state_binary(b, "half-life");
	b = a;
	b.last_at = FS_END_INSTANT;
	bad_state_binary(b, "out of range");
	b = a;
	b.first_at = FS_MIN_INSTANT - 1;
	bad_state_binary(b, "out of range");
	b = a;
	b.first_at = b.last_at + 1;
	bad_state_binary(b, "before its first");
	b = a;
	b.a = 1.5;
	bad_state_binary(b, "between 0 and 1");
	b.a = NAN;
	bad_state_binary(b, "finite");
	b = a;
	b.g = INFINITY;
	bad_state_binary(b, "finite");
	b = a;
	b.first_usage = -1;
	bad_state_binary(b, "0 or more");
	fs_userprio_encode(&a, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin) - 1, &back, &err) == FS_ERR_BINARY);
	bin[0] = 0;
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_ERR_BINARY);
	/* -0 reads as 0 */
	b = a;
	b.g = -0.0;
	b.first_usage = -0.0;
	b.m = -0.0;
	b.last_in_use = -0.0;
	b.usage = -0.0;
	fs_userprio_encode(&b, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_OK && !signbit(back.g) &&
	      !signbit(back.first_usage) && !signbit(back.m) && !signbit(back.usage) &&
	      !signbit(back.last_in_use));
}

/*
 * What condor_userprio reports: weighted hours accumulate each sample's in_use over the time
 * since the previous sample. 10 in use for an hour, then 0 for an hour, then 4 for an hour:
 * 36000 + 0 + 14400 weighted seconds = 14 weighted hours; usage began at the second sample and
 * was last seen at the fourth; 4 are in use. Split into runs and combined: the same.
 */
static void
test_userprio_usage(void)
{
	int64_t t0 = 0, hl = 86400 * INT64_C(1000000);
	fs_userprio s, r1, r2;
	fs_userprio_report rep;
	fs_error err;
	int split;

	CHECK(fs_userprio_start(&s, 10, t0, hl, &err) == FS_OK);
	CHECK(s.usage == 0 && s.began_at == FS_USERPRIO_NEVER && s.last_in_use == 10);
	CHECK(fs_userprio_add(&s, 10, t0 + H, hl, &err) == FS_OK);
	CHECK(fs_userprio_add(&s, 0, t0 + 2 * H, hl, &err) == FS_OK);
	CHECK(fs_userprio_add(&s, 4, t0 + 3 * H, hl, &err) == FS_OK);
	CHECK_DBL(s.usage, 50400, 0);
	CHECK(s.began_at == t0 + H && s.last_used_at == t0 + 3 * H);
	CHECK_DBL(s.last_in_use, 4, 0);
	for (split = 1; split <= 3; split++)
	{
		int64_t at[4] = {t0, t0 + H, t0 + 2 * H, t0 + 3 * H};
		double u[4] = {10, 10, 0, 4};
		int k;

		CHECK(fs_userprio_start(&r1, u[0], at[0], hl, &err) == FS_OK);
		for (k = 1; k < split; k++)
			CHECK(fs_userprio_add(&r1, u[k], at[k], hl, &err) == FS_OK);
		CHECK(fs_userprio_start(&r2, u[split], at[split], hl, &err) == FS_OK);
		for (k = split + 1; k < 4; k++)
			CHECK(fs_userprio_add(&r2, u[k], at[k], hl, &err) == FS_OK);
		CHECK(fs_userprio_combine(&r2, &r1, &err) == FS_OK);
		CHECK_DBL(r2.usage, 50400, 0);
		CHECK(r2.began_at == s.began_at && r2.last_used_at == s.last_used_at);
		CHECK_DBL(r2.last_in_use, 4, 0);
		CHECK_DBL(r2.g, s.g, 1e-12);
	}
	CHECK(fs_userprio_report_of(&s, 1000, &rep, &err) == FS_OK);
	CHECK_DBL(rep.weighted_hours, 14, 0);
	CHECK_DBL(rep.weighted_usage, 50400, 0);
	CHECK_DBL(rep.weighted_in_use, 4, 0);
	CHECK_DBL(rep.effective_priority, rep.real_priority * 1000, 0);
	CHECK(rep.usage_start == t0 + H && rep.last_usage == t0 + 3 * H &&
	      rep.last_update == t0 + 3 * H);
	CHECK(fs_userprio_report_of(&s, 0.5, &rep, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "priority factor") != NULL);
	CHECK(fs_userprio_report_of(&s, NAN, &rep, &err) == FS_ERR_RANGE);
	/* a real priority near 100 times a factor of 1e307 passes the float8 range */
	CHECK(fs_userprio_start(&r1, 100, t0, hl, &err) == FS_OK);
	CHECK(fs_userprio_add(&r1, 100, t0 + 1000 * hl, hl, &err) == FS_OK);
	CHECK(fs_userprio_report_of(&r1, 1e307, &rep, &err) == FS_ERR_RANGE);
	CHECK(strstr(err.message, "effective priority overflows") != NULL);
	/* "-" is never; a BC instant also starts with "-" */
	CHECK(parse_state("max(0.5,1p+0)|3@-4713-11-24T00:00:00Z..-4713-11-24T00:00:00Z/1|used=0,"
	                  "in_use=3,began=-,last_used=-4713-11-24T00:00:00Z",
	                  &r1) == FS_OK);
	CHECK(r1.last_used_at == FS_MIN_INSTANT && r1.began_at == FS_USERPRIO_NEVER);
	CHECK(parse_state("max(0.5,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,"
	                  "in_use=3,began=-,last_used=-x",
	                  &r1) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0.5,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1", &r1) ==
	      FS_ERR_SYNTAX);
	/* usage without a start, or a start after the last usage: invalid */
	CHECK(parse_state("max(0.5,1p+0)|3@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=5,"
	                  "in_use=3,began=-,last_used=-",
	                  &r1) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0.5,1p+0)|3@2026-01-01T00:00:00Z..2026-01-03T00:00:00Z/1|used=5,"
	                  "in_use=3,began=2026-01-02T12:00:00Z,last_used=2026-01-02T00:00:00Z",
	                  &r1) == FS_ERR_SYNTAX);
	/* only idle time: no usage, never used */
	CHECK(fs_userprio_start(&s, 0, t0, hl, &err) == FS_OK);
	CHECK(fs_userprio_add(&s, 0, t0 + H, hl, &err) == FS_OK);
	CHECK(s.usage == 0 && s.began_at == FS_USERPRIO_NEVER && s.last_used_at == FS_USERPRIO_NEVER);
	/* a second sample at one instant: the same in_use again changes nothing; a different one
	 * is an error (which counted would depend on the order of the two), the state unchanged */
	CHECK(fs_userprio_add(&s, 0, t0 + H, hl, &err) == FS_OK);
	CHECK(s.usage == 0 && s.began_at == FS_USERPRIO_NEVER && s.last_used_at == FS_USERPRIO_NEVER);
	CHECK(fs_userprio_add(&s, 3, t0 + H, hl, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "different weighted_in_use, 0 and 3") != NULL);
	CHECK(s.last_in_use == 0 && s.last_at == t0 + H);
	/* in use after idle time: used from there on */
	CHECK(fs_userprio_add(&s, 3, t0 + 2 * H, hl, &err) == FS_OK);
	CHECK(s.usage == 3 * (H / 1e6) && s.began_at == t0 + 2 * H && s.last_used_at == t0 + 2 * H);
	/* through combine: a run that starts at the instant another ends must agree on it */
	{
		fs_userprio r1, r2;

		CHECK(fs_userprio_start(&r1, 2, t0, hl, &err) == FS_OK);
		CHECK(fs_userprio_add(&r1, 5, t0 + H, hl, &err) == FS_OK);
		CHECK(fs_userprio_start(&r2, 5, t0 + H, hl, &err) == FS_OK);
		CHECK(fs_userprio_add(&r2, 1, t0 + 2 * H, hl, &err) == FS_OK);
		CHECK(fs_userprio_combine(&r1, &r2, &err) == FS_OK);
		CHECK(fs_userprio_start(&r2, 4, t0 + 2 * H, hl, &err) == FS_OK);
		CHECK(fs_userprio_combine(&r1, &r2, &err) == FS_ERR_VALUE);
		CHECK(strstr(err.message, "different weighted_in_use, 1 and 4") != NULL);
	}
}

/*
 * The pie spin (HTCondor manual: "user A with EUP=5 will receive twice as many resources as
 * user B with EUP=10 and four times as many resources as user C with EUP=20"): 4/7, 2/7, 1/7.
 */
static void
test_pie_spin(void)
{
	const char *names[] = {"a", "b", "c"};
	size_t lens[] = {1, 1, 1};
	double eup[] = {5, 10, 20}, share[3];
	double tiny[] = {5e-324, 1e-323, 2e-323};
	fs_error err;

	CHECK(fs_pie_spin(names, lens, eup, 3, &unit_alloc, share, &err) == FS_OK);
	CHECK_DBL(share[0], 4.0 / 7, 1e-15);
	CHECK_DBL(share[1], 2.0 / 7, 1e-15);
	CHECK_DBL(share[2], 1.0 / 7, 1e-15);
	/* 1 / EUP would overflow; the ratios do not */
	CHECK(fs_pie_spin(names, lens, tiny, 3, &unit_alloc, share, &err) == FS_OK);
	CHECK_DBL(share[0], 4.0 / 7, 1e-15);
	CHECK(fs_pie_spin(names, lens, eup, 0, &unit_alloc, share, &err) == FS_OK);
	eup[1] = 0;
	CHECK(fs_pie_spin(names, lens, eup, 3, &unit_alloc, share, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "submitter \"b\"") != NULL);
	eup[1] = INFINITY;
	CHECK(fs_pie_spin(names, lens, eup, 3, &unit_alloc, share, &err) == FS_ERR_RANGE);
	eup[1] = 10;
	names[2] = "a";
	CHECK(fs_pie_spin(names, lens, eup, 3, &unit_alloc, share, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "appears more than once") != NULL);
}

void
test_userprio(void)
{
	test_userprio_real_priority();
	test_userprio_usage();
	test_pie_spin();
	test_userprio_limits();
}
