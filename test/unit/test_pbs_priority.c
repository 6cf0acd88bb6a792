/*
 * test_pbs_priority.c: unit tests of src/core/priority/pbs_priority.c: the server's validation
 * and its three codes, the resourcedef reader, and job values (units, decimals, float32, the
 * fairshare keywords and the PP-718 example), job_sort_key entries, the threshold, and the job
 * order's chain of keys with what decided each place, and eligible time from accrue types.
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

static fs_pbs_sort_key
sort_key(const char *t, fs_status *st)
{
	fs_pbs_sort_key k;

	memset(&k, 0, sizeof(k));
	*st = fs_pbs_sort_key_parse(t, strlen(t), &k, &perr);
	return k;
}

static void
test_sort_keys(void)
{
	fs_status st;
	fs_pbs_sort_key k = sort_key("  ncpus HIGH ", &st);
	fs_pbs_job_keys keys = {0, 0, -7, 0, 0.1234567, 0};
	uint8_t *rv = unit_rv("ncpus=4,mem=1gb");

	CHECK(st == FS_OK && k.high && k.what == FS_PBS_SK_RESOURCE && k.name.len == 5);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, false), 4, 0);
	k = sort_key("mem low", &st);
	CHECK(st == FS_OK && !k.high);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, false), 1048576, 0); /* kb */
	k = sort_key("walltime LOW", &st);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, false), 0, 0); /* not requested */
	k = sort_key("sort_priority HIGH", &st);
	CHECK(k.what == FS_PBS_SK_JOB_PRIORITY);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, false), -7, 0);
	k = sort_key("fair_share_perc HIGH", &st);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, false), 0.123457, 1e-12);
	k = sort_key("preempt_priority HIGH", &st);
	CHECK_DBL(fs_pbs_sort_key_value(&k, rv, &keys, true), 1, 0);
	free(rv);
	sort_key("", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "empty entry"));
	sort_key("ncpus", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "expected HIGH or LOW"));
	sort_key("ncpus HIGHER", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "expected HIGH or LOW"));
	sort_key("ncpus HIGH LOW", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "after HIGH or LOW"));
	sort_key("n+cpus HIGH", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "in the name"));
	sort_key("1ncpus HIGH", &st);
	CHECK(st == FS_ERR_SYNTAX && strstr(perr.detail, "expected a resource name"));
}

/* A job for the order tests: queue, its priority, express, value, fairshare rank, qtime, id. */
static fs_pbs_order_job
ojob(const char *q, int qp, bool ex, float v, uint32_t rank, int64_t qt, const char *id)
{
	fs_pbs_order_job j;

	memset(&j, 0, sizeof(j));
	j.queue.s = q;
	j.queue.len = strlen(q);
	j.queue_priority = qp;
	j.express = ex;
	j.value = v;
	j.fs_rank = rank;
	j.has_qtime = qt >= 0;
	j.qtime = qt;
	j.job_id.s = id;
	j.job_id.len = strlen(id);
	return j;
}

/* The order of jobs as their ids, joined by spaces, and the decided_by names after a colon. */
static const char *
order_text(const fs_pbs_order_job *jobs, size_t n, const fs_pbs_order_opts *o)
{
	static char buf[512];
	uint32_t order[16];
	uint8_t dec[16];
	size_t i, at = 0;

	fs_pbs_job_order(jobs, n, o, &unit_alloc, order, dec);
	buf[0] = 0;
	for (i = 0; i < n; i++)
	{
		const char *d = fs_pbs_decided_name((fs_pbs_decided) dec[i]);

		at += (size_t) snprintf(buf + at, sizeof(buf) - at, "%s%.*s:%s", i ? " " : "",
		                        (int) jobs[order[i]].job_id.len, jobs[order[i]].job_id.s,
		                        d ? d : "-");
	}
	return buf;
}

static void
test_order(void)
{
	fs_pbs_order_opts global = {NULL, 0, false, false}, byq = {NULL, 0, true, false};
	fs_pbs_order_opts fs = {NULL, 0, false, true};
	fs_pbs_order_job jobs[8];
	fs_pbs_sort_key keys[1];
	double kv[3] = {1, 4, 2};
	fs_status st;

	/* the threshold: at or below is under (PBS's smoketest: 7 <= 7), NaN never */
	CHECK(fs_pbs_under_threshold(7, 7) && fs_pbs_under_threshold(6, 7));
	CHECK(!fs_pbs_under_threshold(8, 7) && !fs_pbs_under_threshold(NAN, 7));
	CHECK(fs_pbs_under_threshold(-2, -1)); /* negative values and thresholds too */

	/* the formula, higher first; negative values (OpenPBS's test: -1 before -2) */
	jobs[0] = ojob("workq", 0, false, -2, UINT32_MAX, 10, "1.svr");
	jobs[1] = ojob("workq", 0, false, -1, UINT32_MAX, 20, "2.svr");
	CHECK_STR(order_text(jobs, 2, &global), "2.svr:- 1.svr:formula");

	/* express jobs first whatever their value; then float32 ties go to qtime */
	jobs[0] = ojob("workq", 0, false, 100000001.0f, UINT32_MAX, 30, "3.svr");
	jobs[1] = ojob("workq", 0, false, 100000002.0f, UINT32_MAX, 20, "4.svr");
	jobs[2] = ojob("expressq", 150, true, 1, UINT32_MAX, 40, "5.svr");
	CHECK_STR(order_text(jobs, 3, &global), "5.svr:- 4.svr:express 3.svr:qtime");

	/* by_queue: the queue of higher priority first, whatever the values; inside it the formula */
	jobs[0] = ojob("low", 10, false, 1e6f, UINT32_MAX, 1, "6.svr");
	jobs[1] = ojob("high", 20, false, 1, UINT32_MAX, 2, "7.svr");
	jobs[2] = ojob("high", 20, false, 2, UINT32_MAX, 3, "8.svr");
	jobs[3] = ojob("alsolow", 10, false, 5, UINT32_MAX, 4, "9.svr");
	CHECK_STR(order_text(jobs, 4, &byq), "8.svr:- 7.svr:formula 9.svr:queue 6.svr:queue");
	CHECK_STR(order_text(jobs, 4, &global), "6.svr:- 9.svr:formula 8.svr:formula 7.svr:formula");

	/* the fairshare rank breaks formula ties, only with fairshare on; no entity last */
	jobs[0] = ojob("q", 0, false, 1, 3, 1, "10.s");
	jobs[1] = ojob("q", 0, false, 1, UINT32_MAX, 2, "11.s");
	jobs[2] = ojob("q", 0, false, 1, 1, 3, "12.s");
	CHECK_STR(order_text(jobs, 3, &fs), "12.s:- 10.s:fairshare 11.s:fairshare");
	CHECK_STR(order_text(jobs, 3, &global), "10.s:- 11.s:qtime 12.s:qtime");

	/* job_sort_key still breaks formula ties (HIGH: larger first), before qtime */
	keys[0] = sort_key("ncpus HIGH", &st);
	global.keys = keys;
	global.nkeys = 1;
	jobs[0].keys = &kv[0];
	jobs[1].keys = &kv[1];
	jobs[2].keys = &kv[2];
	CHECK_STR(order_text(jobs, 3, &global), "11.s:- 12.s:job_sort_key 10.s:job_sort_key");
	keys[0].high = false;
	CHECK_STR(order_text(jobs, 3, &global), "10.s:- 12.s:job_sort_key 11.s:job_sort_key");
	global.nkeys = 0;

	/* no qtime after a known one; then the id's sequence number (9 before 10), array index */
	jobs[0] = ojob("q", 0, false, 1, UINT32_MAX, -1, "10.s");
	jobs[1] = ojob("q", 0, false, 1, UINT32_MAX, -1, "9.s");
	jobs[2] = ojob("q", 0, false, 1, UINT32_MAX, 5, "11.s");
	jobs[3] = ojob("q", 0, false, 1, UINT32_MAX, -1, "9[10].s");
	jobs[4] = ojob("q", 0, false, 1, UINT32_MAX, -1, "9[2].s");
	jobs[5] = ojob("q", 0, false, 1, UINT32_MAX, -1, "abc");
	jobs[6] = ojob("q", 0, false, 1, UINT32_MAX, -1, "abc");
	CHECK_STR(order_text(jobs, 7, &global),
	          "11.s:- 9.s:qtime 9[2].s:job_id 9[10].s:job_id 10.s:job_id abc:job_id abc:input");

	/* NaN: after every number, tied with another NaN */
	jobs[0] = ojob("q", 0, false, NAN, UINT32_MAX, 1, "1.s");
	jobs[1] = ojob("q", 0, false, -INFINITY, UINT32_MAX, 2, "2.s");
	jobs[2] = ojob("q", 0, false, NAN, UINT32_MAX, 3, "3.s");
	CHECK_STR(order_text(jobs, 3, &global), "2.s:- 1.s:formula 3.s:qtime");
	fs_pbs_job_order(jobs, 0, &global, &unit_alloc, NULL, NULL); /* no jobs */
}

/* The eligible seconds of changes given as (seconds, type) pairs. */
static int64_t
eligible(const double *at_type, size_t n)
{
	fs_pbs_accrue ev[16];
	size_t i;

	for (i = 0; i < n; i++)
	{
		ev[i].at = (int64_t) (at_type[2 * i] * 1e6);
		ev[i].type = (int) at_type[2 * i + 1];
	}
	return fs_pbs_eligible_seconds(ev, n, &unit_alloc);
}

static void
test_eligible(void)
{
	/* queued (2) at 0, held (1) at 300, released and eligible again at the next cycle (1230),
	 * run (3) at 1800, exit (4) at 3600: 300 + 570 */
	const double held[] = {0, 2, 300, 1, 1200, 1, 1230, 2, 1800, 3, 3600, 4};
	/* the same changes in another order: sorted by time first */
	const double shuffled[] = {1800, 3, 0, 2, 3600, 4, 300, 1, 1230, 2, 1200, 1};
	/* PBS's clock is whole seconds: 0.9 and 10.2 are 0 and 10 */
	const double fractions[] = {0.9, 2, 10.2, 3};
	/* a change to the same type counts the period so far and goes on: 100 + 50 */
	const double same[] = {0, 2, 100, 2, 150, 3};
	/* before the epoch: floored, not truncated (-1.5 is -2) */
	const double negative[] = {-1.5, 2, 0, 3};
	/* two changes at one instant count in the order given */
	const double tie[] = {0, 1, 10, 2, 10, 3, 20, 4};

	CHECK(eligible(held, 6) == 870);
	CHECK(eligible(shuffled, 6) == 870);
	CHECK(eligible(fractions, 2) == 10);
	CHECK(eligible(same, 3) == 150);
	CHECK(eligible(negative, 2) == 2);
	CHECK(eligible(tie, 4) == 0);
	CHECK(eligible(held, 1) == 0 && eligible(held, 0) == 0);
	CHECK(fs_pbs_accrue_type_ok(0) && fs_pbs_accrue_type_ok(4));
	CHECK(!fs_pbs_accrue_type_ok(-1) && !fs_pbs_accrue_type_ok(5));
}

/*
 * Property: a requested amount (4 decimals) and a fairshare keyword (6 decimals) reach the
 * formula as printing with PBS's format and reading back gives, bit for bit, over random values
 * of every magnitude (the formula compares the slot with the reference's exact digits).
 */
static void
test_printed_property(void)
{
	uint64_t seed = 20261202;
	int i, bad = 0;

	for (i = 0; i < 4000; i++)
	{
		uint64_t r = unit_rand(&seed);
		double mag = pow(10, (double) (r % 16) - 6);
		double v = ((double) (unit_rand(&seed) >> 11) / 9007199254740992.0 - 0.3) * mag;
		char ref[400], f[500], req[500];
		fs_pbs_job_keys k = {0, 0, 0, 0, 0, 0};
		fs_status st;
		double back;

		if (i % 7 == 0)
			v = (double) (int64_t) (v * 1e4) / 1e4 + 0.00005; /* near a tie */
		snprintf(ref, sizeof(ref), "%.4f", v);
		back = strtod(ref, NULL);
		snprintf(f, sizeof(f), "x == %.17g", back);
		snprintf(req, sizeof(req), "x=%.17g", v);
		if (value(f, req, &k, &st) != 1)
			bad++;
		k.fairshare_perc = fabs(v);
		snprintf(ref, sizeof(ref), "%.6f", fabs(v));
		snprintf(f, sizeof(f), "fairshare_perc == %.17g", strtod(ref, NULL));
		if (value(f, "", &k, &st) != 1)
			bad++;
	}
	CHECK(bad == 0);
}

void
test_pbs_priority(void)
{
	test_validation();
	test_resourcedef();
	test_values();
	test_sort_keys();
	test_order();
	test_eligible();
	test_printed_property();
}
