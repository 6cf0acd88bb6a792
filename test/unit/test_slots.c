/* test_slots.c: unit tests of src/core/slots.c and src/core/userprio.c: seed 001, billing,
 * priority. */
#include "unit.h"
#include "resvec.h"
#include "slots.h"
#include "userprio.h"
#include "decay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *
rv(const char *text)
{
	uint8_t *out;
	size_t len;
	fs_error err;

	if (fs_rv_parse(text, strlen(text), &unit_alloc, 0, &out, &len, &err) != FS_OK)
		exit(2);
	return out;
}

static double
weight(const char *slot, const char *machine, fs_slot_mode mode)
{
	uint8_t *s = rv(slot), *m = rv(machine);
	double w = -1;
	fs_error err;

	if (!CHECK(fs_slot_weight(s, m, "cpus", 4, mode, &w, &err) == FS_OK))
		printf("     %s on %s: %s\n", slot, machine, err.message);
	free(s);
	free(m);
	return w;
}

static void
test_seed001(void)
{
	const char *m = "cpus=64,memory=64gb";

	/* each core has an uncontested claim to 1 GB; memory beyond counts as extra cores */
	CHECK_DBL(weight("cpus=1,memory=2gb", m, FS_SLOT_SUM), 2, 0);
	CHECK_DBL(weight("cpus=2,memory=3gb", m, FS_SLOT_SUM), 3, 0);
	CHECK_DBL(weight("cpus=1,memory=32gb", m, FS_SLOT_SUM), 32, 0);
	CHECK_DBL(weight("cpus=1,memory=512mb", m, FS_SLOT_SUM), 1, 0);
	/* max mode: the larger of cores and each resource in per-core allowances */
	CHECK_DBL(weight("cpus=2,memory=3gb", m, FS_SLOT_MAX), 3, 0);
	CHECK_DBL(weight("cpus=4,memory=1gb", m, FS_SLOT_MAX), 4, 0);
	/* three resources: memory, disk and GPUs each charged beyond the core's slice */
	CHECK_DBL(weight("cpus=2,memory=8gb,disk=100gb,gpus=1",
	                 "cpus=32,memory=128gb,disk=3200gb,gpus=4", FS_SLOT_SUM),
	          2 + 0 + 0 + (1 - 0.25) / 0.125, 1e-12);
	CHECK_DBL(weight("cpus=2,memory=8gb,disk=100gb,gpus=1",
	                 "cpus=32,memory=128gb,disk=3200gb,gpus=4", FS_SLOT_MAX),
	          8, 1e-12);
}

static void
test_slot_errors_and_remainder(void)
{
	uint8_t *m = rv("cpus=64,memory=64gb");
	uint8_t *s1 = rv("cpus=1,memory=32gb"), *s2 = rv("cpus=1,memory=32gb");
	uint8_t *bad = rv("cpus=1,gpus=1"), *neg = rv("cpus=-1"), *kind = rv("cpus=1,memory=3");
	uint8_t *nocores = rv("memory=64gb");
	const uint8_t *slots[2];
	uint8_t *rem;
	double w;
	fs_error err;
	fs_sb sb;

	CHECK(fs_slot_weight(bad, m, "cpus", 4, FS_SLOT_SUM, &w, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "slot resource \"gpus\" is not a resource of the machine") != NULL);
	CHECK(fs_slot_weight(neg, m, "cpus", 4, FS_SLOT_SUM, &w, &err) == FS_ERR_VALUE);
	CHECK(fs_slot_weight(kind, m, "cpus", 4, FS_SLOT_SUM, &w, &err) == FS_ERR_KIND);
	CHECK(fs_slot_weight(s1, nocores, "cpus", 4, FS_SLOT_SUM, &w, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "no \"cpus\"") != NULL);
	CHECK(fs_slot_mode_from_name("max") == FS_SLOT_MAX && fs_slot_mode_from_name("avg") < 0);

	/* two 1-core/32 GB slots take all the memory: the remainder is 62 idle cores */
	slots[0] = s1;
	slots[1] = s2;
	CHECK(fs_slot_remainder(m, slots, 2, &unit_alloc, &rem, &err) == FS_OK);
	fs_sb_init(&sb, &unit_alloc, 32);
	fs_rv_format(&sb, rem);
	CHECK_STR(sb.data, "cpus=62,memory=0b");
	free(sb.data);
	CHECK(fs_slot_weight(rem, m, "cpus", 4, FS_SLOT_SUM, &w, &err) == FS_OK && w == 62);
	free(rem);
	free(m);
	free(s1);
	free(s2);
	free(bad);
	free(neg);
	free(kind);
	free(nocores);
}

/*
 * The slot weight as its definition reads, in two passes with a lookup per resource: check the
 * slot's resources in order, then add the machine's terms in order (the first problem wins).
 * fs_slot_weight walks both vectors once; on random vectors it must give the same weight bit
 * for bit, or the same error.
 */
static fs_status
weight_by_definition(const uint8_t *slot, const uint8_t *machine, fs_slot_mode mode, double *out,
                     char *msg)
{
	fs_rv_item it, m;
	fs_rv_iter i;
	double C, c = 0, w;

	if (!fs_rv_get(machine, "cpus", 4, &m) || !(m.amount > 0))
		return sprintf(msg, "no \"cpus\""), FS_ERR_VALUE;
	C = m.amount;
	fs_rv_iter_init(&i, slot);
	while (fs_rv_next(&i, &it))
	{
		if (it.amount < 0)
			return sprintf(msg, "slot amount of \"%.*s\" is negative", (int) it.namelen, it.name),
			       FS_ERR_VALUE;
		if (!fs_rv_get(machine, it.name, it.namelen, &m))
			return sprintf(msg, "slot resource \"%.*s\" is not", (int) it.namelen, it.name),
			       FS_ERR_VALUE;
		if (m.kind != it.kind)
			return sprintf(msg, "amounts of \"%.*s\" are of different", (int) it.namelen,
			               it.name),
			       FS_ERR_KIND;
		if (it.namelen == 4 && memcmp(it.name, "cpus", 4) == 0)
			c = it.amount;
	}
	w = c;
	fs_rv_iter_init(&i, machine);
	while (fs_rv_next(&i, &m))
	{
		double a, s = 0;

		if (m.amount < 0)
			return sprintf(msg, "machine amount of \"%.*s\" is negative", (int) m.namelen,
			               m.name),
			       FS_ERR_VALUE;
		if (m.namelen == 4 && memcmp(m.name, "cpus", 4) == 0)
			continue;
		if (fs_rv_get(slot, m.name, m.namelen, &it))
			s = it.amount;
		a = m.amount / C;
		if (a == 0)
		{
			if (s > 0)
				return sprintf(msg, "claims \"%.*s\" but", (int) m.namelen, m.name), FS_ERR_VALUE;
			continue;
		}
		if (mode == FS_SLOT_SUM)
			w += (s > a * c ? s - a * c : 0) / a;
		else if (s / a > w)
			w = s / a;
	}
	if (!isfinite(w))
		return sprintf(msg, "overflows"), FS_ERR_RANGE;
	*out = w;
	return FS_OK;
}

static void
test_slot_weight_walk(void)
{
	static const char *const names[] = {"a", "cpus", "disk", "gpus", "memory", "z"};
	uint64_t seed = 7;
	int round, bad = 0;

	for (round = 0; round < 20000; round++)
	{
		char text[2][256];
		uint8_t *v[2];
		int side;
		double got = -1, want = -2;
		char msg[200];
		fs_error err;
		fs_status st, ref;
		fs_slot_mode mode = round % 2 ? FS_SLOT_MAX : FS_SLOT_SUM;

		for (side = 0; side < 2; side++)
		{
			size_t k, n = 0;

			text[side][0] = '\0';
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			{
				uint64_t r = unit_rand(&seed) % 16;
				static const char *const amounts[] = {"0", "1", "2", "3", "64", "-1", "1gb",
				                                      "32gb", "00:01", "1e308"};

				/* the machine usually has cores; either side has any other name half the time */
				if ((side == 1 && k == 1 && r < 14) || r < 7)
					n += (size_t) snprintf(text[side] + n, sizeof(text[side]) - n, "%s%s=%s",
					                       n ? "," : "", names[k],
					                       amounts[unit_rand(&seed) % 10]);
			}
			v[side] = rv(text[side]);
		}
		st = fs_slot_weight(v[0], v[1], "cpus", 4, mode, &got, &err);
		ref = weight_by_definition(v[0], v[1], mode, &want, msg);
		if (st != ref || (st == FS_OK && memcmp(&got, &want, sizeof(double)) != 0) ||
		    (st != FS_OK && strstr(err.message, msg) == NULL))
		{
			if (bad++ < 5)
				printf("     slot %s on %s (%s): got %s %.17g, want %s %.17g\n", text[0], text[1],
				       mode ? "max" : "sum", st ? err.message : "ok", got, ref ? msg : "ok", want);
		}
		free(v[0]);
		free(v[1]);
	}
	CHECK(bad == 0);
}

static double
bill(const char *alloc, const char *weights, bool max_tres, fs_status want)
{
	uint8_t *a = rv(alloc);
	double out = -1;
	fs_error err;
	fs_status st = fs_billing(a, weights, strlen(weights), max_tres, &out, &err);

	if (!CHECK(st == want))
		printf("     billing(%s, %s): %s\n", alloc, weights, st ? err.message : "ok");
	free(a);
	return out;
}

static void
test_billing(void)
{
	const char *alloc =
	    "cpu=4,mem=16G,node=1,gres/gpu:a100=1,gres/gpu=1,billing=4,license/matlab=2";

	/* Mem=0.25G is 0.25 per GiB; names compare case-insensitively */
	CHECK_DBL(bill(alloc, "CPU=1.0,Mem=0.25G,GRES/gpu=2.0", false, FS_OK), 4 + 4 + 2, 0);
	CHECK_DBL(bill(alloc, "CPU=1.0,Mem=0.25G,GRES/gpu=2.0,License/matlab=3", true, FS_OK), 4 + 6,
	          0);
	/* without a unit memory is weighed per MB, as SLURM does */
	CHECK_DBL(bill("mem=1G", "mem=1", false, FS_OK), 1024, 0);
	CHECK_DBL(bill("mem=1G", "mem=2MB", false, FS_OK), 2048, 0);
	CHECK_DBL(bill("cpu=3", " cpu = 0.5 ", false, FS_OK), 1.5, 0);
	CHECK_DBL(bill("cpu=3", "", false, FS_OK), 0, 0);
	bill("cpu=3", "cpu", false, FS_ERR_SYNTAX);
	bill("cpu=3", "cpu=x", false, FS_ERR_SYNTAX);
	/* empty items are skipped, as SLURM's strtok-based parser skips them: a trailing comma,
	 * two commas in a row and a blank item alike */
	CHECK_DBL(bill("cpu=3", "cpu=1,", false, FS_OK), 3, 0);
	CHECK_DBL(bill("cpu=3,mem=1G", "cpu=1,,mem=1", false, FS_OK), 3 + 1024, 0);
	CHECK_DBL(bill("cpu=3", ",cpu=1, ,,", false, FS_OK), 3, 0);
	CHECK_DBL(bill("cpu=3", ",", false, FS_OK), 0, 0);
	/* a unit only on memory-like sizes */
	bill("cpu=3", "CPU=1G", false, FS_ERR_VALUE);
	bill("cpu=3", "gres/gpu=2k", false, FS_ERR_VALUE);
	CHECK_DBL(bill("bb/cray=2G", "BB/cray=1G", false, FS_OK), 2, 0);
	CHECK_DBL(bill("vmem=4G", "VMem=0.5G", false, FS_OK), 2, 0);
	{
		uint8_t *a = rv("cpu=3");
		fs_error err;
		double out;
		char many[257 * 8];
		size_t k, n = 0;

		CHECK(fs_billing(a, "CPU=1G", 6, false, &out, &err) == FS_ERR_VALUE);
		CHECK(strstr(err.message, "\"CPU=1G\"") != NULL);
		CHECK(strstr(err.detail, "memory-like sizes") != NULL);
		/* at most 256 items, however many commas */
		for (k = 0; k < 256; k++)
			n += (size_t) sprintf(many + n, "t%zu=1,", k);
		CHECK(fs_billing(a, many, n, false, &out, &err) == FS_OK);
		n += (size_t) sprintf(many + n, "x=1");
		CHECK(fs_billing(a, many, n, false, &out, &err) == FS_ERR_LIMIT);
		free(a);
	}
	bill("cpu=3", "mem=1Q", false, FS_ERR_SYNTAX);
	bill("cpu=3", "cpu=1,CPU=2", false, FS_ERR_SYNTAX);
	bill("cpu=3", "=1", false, FS_ERR_SYNTAX);
	bill("cpu=3", "cpu=-1", false, FS_ERR_SYNTAX);
}

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
test_userprio(void)
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

/* Overflow, the whole range of instants, and what text and binary input accept (issue 14). */
static void
test_userprio_limits(void)
{
	fs_userprio a, b, keep, back;
	fs_error err;
	uint8_t bin[FS_USERPRIO_BINARY_LEN];
	fs_sb sb;
	double v;
	int64_t bc, ad;

	/* the crash of issue 14: the combine overflows; an error, and the state is kept */
	CHECK(parse_state("max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1", &a) ==
	      FS_OK);
	CHECK(parse_state("max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1",
	                  &b) == FS_OK);
	keep = a;
	CHECK(fs_userprio_combine(&a, &b, &err) == FS_ERR_RANGE);
	CHECK(strstr(err.message, "out of range") != NULL);
	CHECK(memcmp(&a, &keep, sizeof(a)) == 0);
	keep = b;
	CHECK(fs_userprio_combine(&b, &a, &err) == FS_ERR_RANGE);
	CHECK(memcmp(&b, &keep, sizeof(b)) == 0);
	/* one step of the aggregate overflowing: an error, the state kept */
	CHECK(parse_state("max(0.5,0.5p+1.7e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1000000",
	                  &a) == FS_OK);
	keep = a;
	CHECK(fs_userprio_add(&a, 1.7e308, (INT64_C(26) * 365 + 7) * 86400 * INT64_C(1000000), 1000000,
	                      &err) == FS_OK);
	CHECK(isfinite(a.m) && isfinite(a.g));
	CHECK(prio(&a) > 1e308);
	/* the final function: a p + g with g at the top of the range still rounds to a finite number */
	CHECK(parse_state("max(0.5,1p+1.7976931348623157e308)|0@2026-01-01T00:00:00Z.."
	                  "2026-01-02T00:00:00Z/1",
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
	                   "86400000000");
	CHECK(fs_userprio_parse(sb.data, sb.len, &back, &err) == FS_OK);
	CHECK(memcmp(&a, &back, sizeof(a)) == 0);
	free(sb.data);
	fs_userprio_encode(&a, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_OK);
	CHECK(memcmp(&a, &back, sizeof(a)) == 0);
	/* half-lives are exact integers up to INT64_MAX */
	CHECK(parse_state("max(0,1p+0)|1@10000-01-01T00:00:00Z..10000-01-01T00:00:00Z/"
	                  "9223372036854775807",
	                  &a) == FS_OK);
	CHECK(a.half_life == INT64_MAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/9007199254740993",
	                  &a) == FS_OK);
	CHECK(a.half_life == INT64_C(9007199254740993));
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/"
	                  "9223372036854775808",
	                  &a) == FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/0", &a) ==
	      FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..294277-01-01T00:00:00Z/1", &a) ==
	      FS_ERR_SYNTAX);

	/* m below 0.5 only in the identity of a single sample; text and binary agree */
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1", &a) == FS_OK);
	CHECK(parse_state("max(0.4,1p+0)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1", &b) ==
	      FS_ERR_SYNTAX);
	CHECK(parse_state("max(0,1p+0)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1", &b) ==
	      FS_ERR_SYNTAX);
	CHECK(parse_state("max(0.5,1p+-1)|1@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1", &b) ==
	      FS_ERR_SYNTAX);
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
	fs_userprio_encode(&b, bin);
	CHECK(fs_userprio_decode(bin, sizeof(bin), &back, &err) == FS_OK && !signbit(back.g) &&
	      !signbit(back.first_usage) && !signbit(back.m));
}

void
test_slots(void)
{
	test_seed001();
	test_slot_errors_and_remainder();
	test_slot_weight_walk();
	test_billing();
	test_userprio();
	test_userprio_limits();
}
