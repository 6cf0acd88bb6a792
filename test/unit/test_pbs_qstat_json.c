/* test_pbs_qstat_json.c: unit tests of src/core/load/pbs_qstat_json.c. */
#include "unit.h"
#include "load/json.h"
#include "load/pbs_qstat_json.h"
#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A zone east of UTC by `east` seconds; a negative east fails, as an unknown zone would. */
static fs_status
fixed_zone(void *ctx, const fs_qstat_time *t, int64_t *epoch, fs_error *err)
{
	long east = *(const long *) ctx;

	if (east < 0)
		return fs_fail(err, FS_ERR_VALUE, "zone refused");
	*epoch = fs_days_from_civil(t->year, t->mon, t->mday) * 86400 + t->hour * 3600 + t->min * 60 +
	         t->sec - east;
	return FS_OK;
}

typedef struct got
{
	size_t n;
	char type[8];
	char id[8][32], user[8][32], jobname[8][32], stamp[8][32];
	bool has_time[8][FS_PBS_NTIMES];
	int64_t time[8][FS_PBS_NTIMES];
	int32_t exit_status[8];
	bool is_parent[8], has_index[8];
	int32_t index[8];
	uint8_t *used[8], *req[8];
	size_t nnotes[8];
} got;

static void
text_of(const fs_pbs_record *r, int which, char *out)
{
	if (r->text[which] < 0)
		strcpy(out, "-");
	else
		snprintf(out, 32, "%.*s", (int) r->pairs[r->text[which]].val_len,
		         r->line + r->pairs[r->text[which]].val_off);
}

static uint8_t *
copy_rv(const uint8_t *rv)
{
	size_t n = fs_rv_size(rv);
	uint8_t *c = malloc(n);

	memcpy(c, rv, n);
	return c;
}

static int
keep(void *ctx, const fs_pbs_record *r)
{
	got *g = ctx;
	size_t k = g->n;

	if (k >= 8)
		return 1;
	g->type[k] = r->type;
	snprintf(g->id[k], 32, "%.*s", (int) r->id_len, r->line + r->id_off);
	snprintf(g->stamp[k], 32, "%04d-%02d-%02d %02d:%02d:%02d", r->year, r->month, r->day, r->hour,
	         r->minute, r->second);
	text_of(r, FS_PBS_USER, g->user[k]);
	text_of(r, FS_PBS_JOBNAME, g->jobname[k]);
	memcpy(g->has_time[k], r->has_time, sizeof(r->has_time));
	memcpy(g->time[k], r->time, sizeof(r->time));
	g->exit_status[k] = r->has_exit ? r->exit_status : -999;
	g->is_parent[k] = r->is_array_parent;
	g->has_index[k] = r->has_index;
	g->index[k] = r->array_index;
	g->used[k] = copy_rv(r->used);
	g->req[k] = copy_rv(r->requested);
	g->nnotes[k] = r->nnotes;
	g->n++;
	return 0;
}

static void
got_free(got *g)
{
	size_t k;

	for (k = 0; k < g->n; k++)
		free(g->used[k]), free(g->req[k]);
}

static fs_status
load(const char *text, long east, got *g, fs_error *err)
{
	fs_json doc;
	fs_status st;

	memset(g, 0, sizeof(*g));
	st = fs_json_parse(text, strlen(text), &unit_alloc, &doc, err);
	if (st != FS_OK)
		return st;
	st = fs_pbs_qstat_json_doc(&doc, &unit_alloc, fixed_zone, &east, keep, g, err);
	fs_json_free(&doc, &unit_alloc);
	return st;
}

static void
test_time(void)
{
	fs_qstat_time t;

	CHECK(fs_qstat_parse_time("Tue Dec  1 10:00:00 2026", 24, &t));
	CHECK(t.year == 2026 && t.mon == 12 && t.mday == 1 && t.hour == 10 && t.min == 0 && t.sec == 0);
	CHECK(fs_qstat_parse_time("Thu Jan 29 23:59:59 2026", 24, &t));
	CHECK(t.mon == 1 && t.mday == 29 && t.hour == 23 && t.min == 59 && t.sec == 59);
	CHECK(fs_qstat_parse_time("Tue Feb 29 00:00:00 2028", 24, &t)); /* a leap year */
	CHECK(!fs_qstat_parse_time("Sun Feb 29 00:00:00 2026", 24, &t));
	CHECK(!fs_qstat_parse_time("Sun Feb 29 00:00:00 2100", 24, &t));
	CHECK(!fs_qstat_parse_time("Tue Dcm  1 10:00:00 2026", 24, &t));
	CHECK(!fs_qstat_parse_time("Tue Dec 32 10:00:00 2026", 24, &t));
	CHECK(!fs_qstat_parse_time("Tue Dec  1 24:00:00 2026", 24, &t));
	CHECK(!fs_qstat_parse_time("Tue Dec  1 10:00:00 2026\n", 25, &t));
	CHECK(!fs_qstat_parse_time("2026-12-01 10:00:00", 19, &t));
	CHECK(!fs_qstat_parse_time("", 0, &t));
}

static const char finished[] =
    "{\"Jobs\":{\"1001.pbs01\":{\"Job_Name\":\"relax\",\"Job_Owner\":\"alice@login1\","
    "\"resources_used\":{\"cput\":\"03:58:12\",\"mem\":\"7812345kb\",\"ncpus\":4,"
    "\"walltime\":\"01:00:03\"},\"job_state\":\"F\",\"queue\":\"workq\","
    "\"ctime\":\"Tue Dec  1 08:55:00 2026\",\"qtime\":\"Tue Dec  1 09:00:00 2026\","
    "\"etime\":\"Tue Dec  1 09:00:05 2026\",\"stime\":\"Tue Dec  1 10:00:00 2026\","
    "\"mtime\":\"Tue Dec  1 11:00:03 2026\",\"obittime\":\"Tue Dec  1 11:00:03 2026\","
    "\"exec_host\":\"node01/0*4\",\"Resource_List\":{\"mem\":\"8gb\",\"ncpus\":4,"
    "\"select\":\"1:ncpus=4:mem=8gb\",\"walltime\":\"02:00:00\"},\"euser\":\"alice\","
    "\"egroup\":\"chem\",\"Exit_status\":0,\"run_count\":1,\"session_id\":12345}}}";

static const char finished_line[] =
    "12/01/2026 11:00:03;E;1001.pbs01;user=alice group=chem jobname=relax queue=workq "
    "ctime=1796108100 qtime=1796108400 etime=1796108405 start=1796112000 end=1796115603 "
    "exec_host=node01/0*4 Resource_List.mem=8gb Resource_List.ncpus=4 "
    "Resource_List.select=1:ncpus=4:mem=8gb Resource_List.walltime=02:00:00 session=12345 "
    "Exit_status=0 run_count=1 resources_used.cput=03:58:12 resources_used.mem=7812345kb "
    "resources_used.ncpus=4 resources_used.walltime=01:00:03";

static void
test_finished(void)
{
	got g;
	fs_error err;
	fs_pbs_record r;
	int i;

	/* a server two hours east of UTC */
	CHECK(load(finished, 7200, &g, &err) == FS_OK);
	CHECK(g.n == 1);
	CHECK(g.type[0] == 'E');
	CHECK_STR(g.id[0], "1001.pbs01");
	CHECK_STR(g.stamp[0], "2026-12-01 11:00:03"); /* obittime, as written */
	CHECK_STR(g.user[0], "alice");
	CHECK_STR(g.jobname[0], "relax");
	CHECK(g.exit_status[0] == 0);
	CHECK(g.nnotes[0] == 0);
	/* the same job from its accounting line: the same times and resources */
	CHECK(fs_pbs_parse(finished_line, strlen(finished_line), &unit_alloc, &r, &err) == FS_OK);
	for (i = 0; i < FS_PBS_NTIMES; i++)
	{
		CHECK(r.has_time[i] && g.has_time[0][i]);
		CHECK(r.time[i] == g.time[0][i]);
	}
	CHECK(fs_rv_size(r.used) == fs_rv_size(g.used[0]) &&
	      memcmp(r.used, g.used[0], fs_rv_size(r.used)) == 0);
	CHECK(fs_rv_size(r.requested) == fs_rv_size(g.req[0]) &&
	      memcmp(r.requested, g.req[0], fs_rv_size(r.requested)) == 0);
	fs_pbs_free(&r, &unit_alloc);
	got_free(&g);
	/* read in UTC, every epoch is two hours later */
	CHECK(load(finished, 0, &g, &err) == FS_OK);
	CHECK(g.time[0][FS_PBS_START] == 1796112000 + 7200);
	got_free(&g);
}

static void
test_states(void)
{
	got g;
	fs_error err;

	CHECK(load("{\"pbs_version\":\"23.06.06\",\"Jobs\":{"
	           "\"2.s\":{\"job_state\":\"R\",\"Job_Owner\":\"bob@h\",\"Job_Name\":\"md run\","
	           "\"ctime\":\"Tue Dec  1 10:30:00 2026\",\"stime\":\"Tue Dec  1 10:40:00 2026\"},"
	           "\"3.s\":{\"job_state\":\"Q\",\"Job_Owner\":\"carol\",\"Job_Name\":42,"
	           "\"ctime\":\"Tue Dec  1 10:50:00 2026\",\"qtime\":\"Tue Dec  1 10:51:00 2026\"},"
	           "\"4[].s\":{\"job_state\":\"B\",\"ctime\":\"Tue Dec  1 10:50:00 2026\"},"
	           "\"4[2].s\":{\"job_state\":\"X\",\"ctime\":\"Tue Dec  1 10:50:00 2026\","
	           "\"mtime\":\"Tue Dec  1 10:59:00 2026\",\"Job_Name\":\"say \\\"hi\\\" now\"}}}",
	           0, &g, &err) == FS_OK);
	CHECK(g.n == 4);
	CHECK(g.type[0] == 'S');
	CHECK_STR(g.stamp[0], "2026-12-01 10:40:00"); /* stime */
	CHECK_STR(g.user[0], "bob");                  /* Job_Owner without the host */
	CHECK_STR(g.jobname[0], "md run");            /* quoted on the line */
	CHECK(!g.has_time[0][FS_PBS_END]);
	CHECK(g.type[1] == 'Q');
	CHECK_STR(g.stamp[1], "2026-12-01 10:51:00"); /* qtime */
	CHECK_STR(g.jobname[1], "42");
	CHECK(g.type[2] == 'S' && g.is_parent[2]);
	CHECK(g.type[3] == 'E' && g.has_index[3] && g.index[3] == 2);
	CHECK_STR(g.stamp[3], "2026-12-01 10:59:00"); /* mtime without obittime */
	CHECK_STR(g.jobname[3], "say \"hi\" now");
	got_free(&g);
	CHECK(load("{\"timestamp\":1}", 0, &g, &err) == FS_OK && g.n == 0);
	CHECK(load("{\"Jobs\":{}}", 0, &g, &err) == FS_OK && g.n == 0);
}

static void
error_is(const char *doc, long east, const char *want)
{
	got g;
	fs_error err;

	CHECK(load(doc, east, &g, &err) != FS_OK);
	CHECK(strstr(err.message, want) != NULL);
	if (strstr(err.message, want) == NULL)
		fprintf(stderr, "  message: %s\n", err.message);
	got_free(&g);
}

static void
test_errors(void)
{
	error_is("[]", 0, "\"(document)\" must be an object");
	error_is("{\"jobs\":[]}", 0, "\"Jobs\" must be present");
	error_is("{\"Jobs\":[]}", 0, "\"Jobs\" must be an object keyed by job ids");
	error_is("{\"Jobs\":{\"1.s\":1}}", 0, "whose values are jobs");
	error_is("{\"Jobs\":{\"1.s\":{}}}", 0, "\"ctime\" must be present");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"yesterday\"}}}", 0, "\"ctime\" must be a date");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\",\"queue\":true}}}", 0,
	         "\"queue\" must be a string or a number");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\",\"queue\":\"a\\rb\"}}}", 0,
	         "one line");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\","
	         "\"resources_used\":[1]}}}",
	         0, "\"resources_used\" must be an object");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\","
	         "\"Resource_List\":{\"a=b\":1}}}}",
	         0, "hold no blank");
	error_is("{\"Jobs\":{\"1;s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\"}}}", 0,
	         "holds a blank or \";\"");
	error_is("{\"Jobs\":{\"\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\"}}}", 0, "job id is empty");
	error_is("{\"Jobs\":{\"1.s\":{\"ctime\":\"Tue Dec  1 10:00:00 2026\"}}}", -1, "zone refused");
}

void test_pbs_qstat_json(void);

void
test_pbs_qstat_json(void)
{
	test_time();
	test_finished();
	test_states();
	test_errors();
}
