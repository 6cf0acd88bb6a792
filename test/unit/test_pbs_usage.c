/*
 * test_pbs_usage.c: unit tests of src/core/load/pbs_usage.c: PBS units, operators and functions,
 * errors, the nesting limit for every kind of recursion, long flat chains, and the name index.
 */
#include "unit.h"

#include "load/pbs_usage.h"
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fs_error last_usage_err;

static double
usage(const char *f, const char *rv, fs_status *st)
{
	uint8_t *v;
	size_t len;
	fs_error err;
	double r = NAN;

	if (fs_rv_parse(rv, strlen(rv), &unit_alloc, 0, &v, &len, &err) != FS_OK)
		return NAN;
	*st = fs_pbs_usage(f, strlen(f), v, &unit_alloc, &r, &last_usage_err);
	free(v);
	return r;
}

static void
test_usage(void)
{
	fs_status st;

	CHECK_DBL(usage("cput", "cput=01:00:00", &st), 3600, 0);
	CHECK_DBL(usage("mem", "mem=1025b", &st), 2, 0);
	CHECK_DBL(usage("ncpus*walltime + ngpus", "ncpus=4,walltime=00:30:00", &st), 7200, 0);
	CHECK_DBL(usage("-2**2", "", &st), -4, 0);
	CHECK_DBL(usage("2**3**2", "", &st), 512, 0);
	CHECK_DBL(usage("2**-1", "", &st), 0.5, 0);
	CHECK_DBL(usage("max(1, 7, 3) - min(2, 9)", "", &st), 5, 0);
	CHECK_DBL(usage("log(8, 2)", "", &st), 3, 1e-12);
	CHECK_DBL(usage("round(2.5) + round(3.5)", "", &st), 6, 0);
	usage("1/0", "", &st);
	CHECK(st == FS_ERR_DIVZERO);
	usage("sqrt(-1)", "", &st);
	CHECK(st == FS_ERR_RANGE);
	usage("10**400", "", &st);
	CHECK(st == FS_ERR_RANGE);
	usage("1 +", "", &st);
	CHECK(st == FS_ERR_SYNTAX);
	usage("import(1)", "", &st);
	CHECK(st == FS_ERR_SYNTAX);
	usage("__import__('os')", "", &st);
	CHECK(st == FS_ERR_SYNTAX);
}

/* Whether formula f fails with a syntax error whose detail holds `part`. */
static bool
fails_nesting(const char *f, const char *part)
{
	fs_status st;

	usage(f, "", &st);
	return st == FS_ERR_SYNTAX && strstr(last_usage_err.detail, part) != NULL;
}

/*
 * Every recursion of the evaluator counts against one limit of 64 levels: powers (a chain of
 * 100,000 crashed the server), signs, parentheses, calls and any mix; long flat chains (sums,
 * products, arguments) do not recurse and have no limit.
 */
static void
test_usage_depth(void)
{
	fs_status st;
	char *f;
	char want[128];
	size_t n;
	double want_v;

	f = unit_repeated("1", "**1", 100000, "");
	CHECK(fails_nesting(f, "Powers nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("1", "**1", 64, "");
	CHECK_DBL(usage(f, "", &st), 1, 0);
	CHECK(st == FS_OK);
	free(f);
	/* the 65th "**" starts after "1" and 64 times "**1" */
	f = unit_repeated("1", "**1", 65, "");
	snprintf(want, sizeof(want), "Powers nest too deeply (at most 64 levels) at character %zu.",
	         strlen("1") + 64 * strlen("**1") + 1);
	CHECK(fails_nesting(f, want));
	free(f);
	/* powers with signed exponents: both count, the 65th level is a sign */
	f = unit_repeated("", "-2**", 50000, "1");
	CHECK(fails_nesting(f, "Signs nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "2**-", 50000, "1");
	CHECK(fails_nesting(f, "nest too deeply (at most 64 levels)"));
	free(f);
	/* 32 levels of a sign and a power each are 64 levels: -(2 ** -(2 ** ... -(2 ** 1))) */
	f = unit_repeated("", "-2**", 32, "1");
	want_v = 1;
	for (n = 0; n < 32; n++)
		want_v = -pow(2, want_v);
	CHECK_DBL(usage(f, "", &st), want_v, 1e-15);
	CHECK(st == FS_OK);
	free(f);
	f = unit_repeated("", "abs(", 100000, "1");
	CHECK(fails_nesting(f, "Parentheses nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "-(", 100000, "1");
	CHECK(fails_nesting(f, "nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "max(1,", 100000, "1");
	CHECK(fails_nesting(f, "Parentheses nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "+", 100000, "1");
	CHECK(fails_nesting(f, "Signs nest too deeply (at most 64 levels)"));
	free(f);
	/* flat chains are loops */
	n = 200000;
	f = unit_repeated("1", "+1", n - 1, "");
	CHECK_DBL(usage(f, "", &st), (double) n, 0);
	free(f);
	f = unit_repeated("2", "*1", n, "/2");
	CHECK_DBL(usage(f, "", &st), 1, 0);
	free(f);
	f = unit_repeated("min(", "3,", n, "2)");
	CHECK_DBL(usage(f, "", &st), 2, 0);
	free(f);
}

/* A large vector is looked up through an index, a small one by a scan: the same values. */
static void
test_usage_lookup(void)
{
	fs_sb rv, formula;
	fs_status st;
	double want = 0;
	int k, nres = 40;

	fs_sb_init(&rv, &unit_alloc, 64);
	fs_sb_init(&formula, &unit_alloc, 64);
	for (k = 0; k < nres; k++)
	{
		fs_sb_appendf(&rv, "%sr%02d=%d", k ? "," : "", k, k + 1);
		fs_sb_appendf(&formula, "r%02d + ", k);
		want += k + 1;
	}
	fs_sb_append(&formula, "nosuch + r99 + a + zz", 21); /* missing: 0 */
	CHECK_DBL(usage(formula.data, rv.data, &st), want, 0);
	CHECK(st == FS_OK);
	CHECK_DBL(usage("r00 * r39 - r17", rv.data, &st), 1 * 40 - 18, 0);
	CHECK_DBL(usage("r00 * r39 - r17", "r00=1,r17=18,r39=40", &st), 1 * 40 - 18, 0);
	free(rv.data);
	free(formula.data);
}

void
test_pbs_usage(void)
{
	test_usage();
	test_usage_depth();
	test_usage_lookup();
}
