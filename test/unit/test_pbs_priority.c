/*
 * test_pbs_priority.c: unit tests of src/core/priority/pbs_priority.c: the server's validation
 * and its three codes, the resourcedef reader, and job values (units, decimals, float32, the
 * fairshare keywords and the PP-718 example).
 */
#include "unit.h"

#include "priority/pbs_priority.h"
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fs_error perr;

/* The PBS code a formula's validation gives (0: valid), with rd_text as the resourcedef. */
static int
validate(const char *f, const char *rd_text)
{
	fs_pbs_resdef rd;
	fs_pf_prog *p = NULL;
	int code = -1;
	fs_status st;

	if (rd_text &&
	    fs_pbs_resourcedef_parse(rd_text, strlen(rd_text), &unit_alloc, &rd, &perr) != FS_OK)
		return -2;
	st = fs_pbs_formula_compile(f, strlen(f), rd_text ? &rd : NULL, false, &unit_alloc, &p, &code,
	                            &perr);
	if (rd_text)
		fs_pbs_resourcedef_free(&rd, &unit_alloc);
	if (st == FS_OK)
	{
		fs_pf_free(p, &unit_alloc);
		return 0;
	}
	return st == FS_ERR_SYNTAX ? code : -3;
}

static void
test_validation(void)
{
	/* the PBS tests' formulas: the fairshare keywords are valid, fair_share_factor is not */
	CHECK(validate("fairshare_tree_usage", NULL) == 0);
	CHECK(validate("fairshare_perc", NULL) == 0);
	CHECK(validate("pow(2,-(fairshare_tree_usage/fairshare_perc))", NULL) == 0);
	CHECK(validate("fairshare_factor", NULL) == 0);
	CHECK(validate("fair_share_perc + eligible_time + queue_priority + job_priority + accrue_type",
	               NULL) == 0);
	CHECK(validate("fair_share_factor", NULL) == FS_PBS_E_FORMULA_KEYWORD);
	CHECK(strstr(perr.detail,
	             "PBS error 15124, Formula contains invalid keyword: "
	             "\"fair_share_factor\" is not a resource or a keyword at character 1") != NULL);
	CHECK(validate("ncpus +", NULL) == FS_PBS_E_FORMULA_FORMAT);
	CHECK(strstr(perr.detail, "PBS error 15123, Invalid Formula Format: Expected a number") !=
	      NULL);
	CHECK(validate("ncpus * arch", NULL) == FS_PBS_E_FORMULA_RESTYPE);
	CHECK(strstr(perr.detail, "\"arch\" is a string resource at character 9") != NULL);
	/* 15124 before 15125, as PBS's two passes go */
	CHECK(validate("arch + nosuch", NULL) == FS_PBS_E_FORMULA_KEYWORD);
	/* division by zero passes validation, as in PBS */
	CHECK(validate("ncpus / 0", NULL) == 0);
	/* custom resources from the resourcedef; the site formula of the restart-crash report */
	CHECK(validate("queue_priority + (0.005 * ncpus) + (0.000277778 * eligible_time) + paws + bias",
	               NULL) == FS_PBS_E_FORMULA_KEYWORD);
	CHECK(validate("queue_priority + (0.005 * ncpus) + (0.000277778 * eligible_time) + paws + bias",
	               "paws type=float\nbias type=float flag=i\n") == 0);
	CHECK(validate("ncpus * site_tag", "site_tag type=string flag=h\n") ==
	      FS_PBS_E_FORMULA_RESTYPE);
	CHECK(validate("ngpus * 2 + scratch",
	               "# GPUs\nngpus type=long flag=nh\n\nscratch type=size\n") == 0);
}

static fs_status
rd_parse(const char *t)
{
	fs_pbs_resdef rd;
	fs_status st = fs_pbs_resourcedef_parse(t, strlen(t), &unit_alloc, &rd, &perr);

	if (st == FS_OK)
		fs_pbs_resourcedef_free(&rd, &unit_alloc);
	return st;
}

static void
test_resourcedef(void)
{
	fs_pbs_resdef rd;
	const char *t = "ngpus type=long flag=nh\r\n  # a comment\nfoo_bar type=string_array\n";

	CHECK(fs_pbs_resourcedef_parse(t, strlen(t), &unit_alloc, &rd, &perr) == FS_OK);
	CHECK(rd.n == 2 && rd.types[0] == FS_PBS_RES_LONG && rd.types[1] == FS_PBS_RES_STRING_ARRAY);
	fs_pbs_resourcedef_free(&rd, &unit_alloc);
	CHECK(rd_parse("") == FS_OK);
	CHECK(rd_parse("ngpus") == FS_ERR_SYNTAX);
	CHECK(strstr(perr.detail, "The resource has no \"type=\"") != NULL);
	CHECK(rd_parse("ngpus type=int") == FS_ERR_SYNTAX);
	CHECK(strstr(perr.detail, "Unknown resource type \"int\" at character 12") != NULL);
	CHECK(rd_parse("ngpus type=long flag=z") == FS_ERR_SYNTAX);
	CHECK(rd_parse("ngpus type=long color=red") == FS_ERR_SYNTAX);
	CHECK(rd_parse("1gpu type=long") == FS_ERR_SYNTAX);
	CHECK(rd_parse("g$pu type=long") == FS_ERR_SYNTAX);
	CHECK(rd_parse("a type=long\nb type=long\na type=float") == FS_ERR_VALUE);
	CHECK(strstr(perr.message, "\"a\" is defined twice") != NULL);
	CHECK(rd_parse("ncpus type=long") == FS_ERR_VALUE);
}

/* The value of formula f for a job requesting `req`, with keys k; NAN on an error. */
static double
value(const char *f, const char *req, const fs_pbs_job_keys *k, fs_status *st)
{
	fs_pf_prog *p;
	int code, kw[32];
	double vals[32];
	float r = 0;
	uint8_t *rv = unit_rv(req);

	*st = fs_pbs_formula_compile(f, strlen(f), NULL, true, &unit_alloc, &p, &code, &perr);
	if (*st == FS_OK)
	{
		fs_pbs_formula_keywords(p, kw);
		*st = fs_pbs_formula_value(p, kw, vals, rv, k, &r, &perr);
		fs_pf_free(p, &unit_alloc);
	}
	free(rv);
	return *st == FS_OK ? (double) r : NAN;
}

static void
test_values(void)
{
	fs_pbs_job_keys k = {0, 0, 0, 0, 0, 0};
	fs_pbs_job_keys bob = {0, 0, 0, 2, 0.2, 0.125}, suzy = {0, 0, 0, 2, 0.36, 0.5};
	fs_status st;

	/* units: mem in kb, walltime in seconds, a resource not requested 0 */
	CHECK_DBL(value("mem", "mem=1gb", &k, &st), 1048576, 0);
	CHECK_DBL(value("walltime", "walltime=00:30:00", &k, &st), 1800, 0);
	CHECK_DBL(value("ncpus + ngpus", "ncpus=4", &k, &st), 4, 0);
	/* at most 4 decimals for a resource */
	CHECK_DBL(value("x * 10000", "x=0.123456", &k, &st), 1235, 0);
	/* the result is a 32-bit float: 100000001 and 100000002 are both 100000000 */
	CHECK_DBL(value("100000001", "", &k, &st), 100000000, 0);
	CHECK_DBL(value("0.1", "", &k, &st), (double) 0.1f, 0);
	/* the PP-718 example: Bob 0.648 before Suzy 0.382 */
	CHECK_DBL(value("fairshare_factor", "", &bob, &st), 0.648420, 1e-6);
	CHECK_DBL(value("fairshare_factor", "", &suzy, &st), 0.381859, 1e-6);
	CHECK_DBL(value("pow(2, -(fairshare_tree_usage / fairshare_perc))", "", &bob, &st),
	          (double) (float) pow(2, -0.625), 1e-7);
	CHECK_DBL(value("fairshare_perc * 1000000", "", &suzy, &st), 360000, 0);
	CHECK_DBL(value("accrue_type", "", &bob, &st), 2, 0);
	/* fairshare_perc 0: the keyword is 0, dividing by it an error (PBS uses 0 and logs it) */
	k.fairshare_tree_usage = 0.3;
	CHECK_DBL(value("fairshare_factor", "", &k, &st), 0, 0);
	value("pow(2, -(fairshare_tree_usage / fairshare_perc))", "", &k, &st);
	CHECK(st == FS_ERR_DIVZERO && strcmp(perr.message, "float division by zero") == 0);
	/* keywords with 6 decimals */
	k.fairshare_perc = 0.1234567;
	CHECK_DBL(value("fairshare_perc", "", &k, &st), (double) (float) 0.123457, 0);
	/* eligible_time in whole seconds, the priorities as they are, negative values too */
	k.eligible_time = 99.9;
	k.queue_priority = -5;
	k.job_priority = -1024;
	CHECK_DBL(value("eligible_time + queue_priority + job_priority", "", &k, &st), 99 - 5 - 1024,
	          0);
	CHECK(isinf(value("1e300 * 1e8", "", &k, &st)));
	CHECK(isinf(value("1e39", "", &k, &st))); /* beyond a float's range */
}

void
test_pbs_priority(void)
{
	test_validation();
	test_resourcedef();
	test_values();
}
