/* test_slots.c: unit tests of src/core/share/slots.c: the SlotWeight thread's examples, slot
 * weights, billing. */
#include "unit.h"
#include "types/resvec.h"
#include "share/slots.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double
weight(const char *slot, const char *machine, fs_slot_mode mode)
{
	uint8_t *s = unit_rv(slot), *m = unit_rv(machine);
	double w = -1;
	fs_error err;

	if (!CHECK(fs_slot_weight(s, m, "cpus", 4, mode, &w, &err) == FS_OK))
		printf("     %s on %s: %s\n", slot, machine, err.message);
	free(s);
	free(m);
	return w;
}

static void
test_slot_weight_thread(void)
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
	uint8_t *m = unit_rv("cpus=64,memory=64gb");
	uint8_t *s1 = unit_rv("cpus=1,memory=32gb"), *s2 = unit_rv("cpus=1,memory=32gb");
	uint8_t *bad = unit_rv("cpus=1,gpus=1"), *neg = unit_rv("cpus=-1"),
	        *kind = unit_rv("cpus=1,memory=3");
	uint8_t *nocores = unit_rv("memory=64gb");
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
			return sprintf(msg, "amounts of \"%.*s\" are of different", (int) it.namelen, it.name),
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
			return sprintf(msg, "machine amount of \"%.*s\" is negative", (int) m.namelen, m.name),
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
				static const char *const amounts[] = {"0",  "1",   "2",    "3",     "64",
				                                      "-1", "1gb", "32gb", "00:01", "1e308"};

				/* the machine usually has cores; either side has any other name half the time */
				if ((side == 1 && k == 1 && r < 14) || r < 7)
					n += (size_t) snprintf(text[side] + n, sizeof(text[side]) - n, "%s%s=%s",
					                       n ? "," : "", names[k], amounts[unit_rand(&seed) % 10]);
			}
			v[side] = unit_rv(text[side]);
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
bill(const char *alloc, const char *weights, fs_billing_mode max_tres, fs_status want)
{
	uint8_t *a = unit_rv(alloc);
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
		uint8_t *a = unit_rv("cpu=3");
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
	/* SLURM's tres.html: CPU=1.0,Mem=0.25G,GRES/gpu=2.0,license/licA=1.5 and a job of 1 CPU and
	 * 8 GB: sum 3.0 (4.5 with a license); MAX_TRES max(1, 2, 0) + 0 = 2.0; MAX_TRES_GRES
	 * 0 + max(1, 2) + 0 = 2.0, and with a GPU (1*2.0) + MAX(1*1.0, 8*0.25) + 0, which the page
	 * writes as 3.0 but is 4 */
	{
		const char *w = "CPU=1.0,Mem=0.25G,GRES/gpu=2.0,license/licA=1.5";

		CHECK_DBL(bill("cpu=1,mem=8G", w, FS_BILLING_SUM, FS_OK), 3, 0);
		CHECK_DBL(bill("cpu=1,mem=8G,license/licA=1", w, FS_BILLING_SUM, FS_OK), 4.5, 0);
		CHECK_DBL(bill("cpu=1,mem=8G", w, FS_BILLING_MAX_TRES, FS_OK), 2, 0);
		CHECK_DBL(bill("cpu=1,mem=8G", w, FS_BILLING_MAX_TRES_GRES, FS_OK), 2, 0);
		CHECK_DBL(bill("cpu=1,mem=8G,gres/gpu=1", w, FS_BILLING_MAX_TRES_GRES, FS_OK), 4, 0);
		/* MAX_TRES folds the GPU into the maximum instead: max(1, 2, 2) */
		CHECK_DBL(bill("cpu=1,mem=8G,gres/gpu=1", w, FS_BILLING_MAX_TRES, FS_OK), 2, 0);
		/* every GRES is summed, licenses stay global */
		CHECK_DBL(
		    bill("cpu=1,mem=8G,gres/gpu=3,license/licA=2", w, FS_BILLING_MAX_TRES_GRES, FS_OK),
		    6 + 2 + 3, 0);
	}
	{
		fs_billing_mode m;
		fs_error err;

		CHECK(fs_billing_mode_of(false, false, &m, &err) == FS_OK && m == FS_BILLING_SUM);
		CHECK(fs_billing_mode_of(true, false, &m, &err) == FS_OK && m == FS_BILLING_MAX_TRES);
		CHECK(fs_billing_mode_of(false, true, &m, &err) == FS_OK && m == FS_BILLING_MAX_TRES_GRES);
		CHECK(fs_billing_mode_of(true, true, &m, &err) == FS_ERR_VALUE);
		CHECK(strstr(err.message, "cannot both be true") != NULL);
	}
	bill("cpu=3", "mem=1Q", false, FS_ERR_SYNTAX);
	bill("cpu=3", "cpu=1,CPU=2", false, FS_ERR_SYNTAX);
	bill("cpu=3", "=1", false, FS_ERR_SYNTAX);
	bill("cpu=3", "cpu=-1", false, FS_ERR_SYNTAX);
}

void
test_slots(void)
{
	test_slot_weight_thread();
	test_slot_errors_and_remainder();
	test_slot_weight_walk();
	test_billing();
}
