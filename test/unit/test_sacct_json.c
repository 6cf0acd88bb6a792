/* test_sacct_json.c: unit tests of src/core/load/json.c and sacct_json.c. */
#include "unit.h"
#include "load/json.h"
#include "load/sacct_json.h"
#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The records of a document, copied out of the walk. */
typedef struct got
{
	size_t n;
	char job_id[8][64], step[8][32], state[8][32], user[8][32], anomalies[8][512];
	fs_sacct_record rec[8];
	double mem[8], cpu_alloc[8];
} got;

static int
keep(void *ctx, const fs_sacct_record *r)
{
	got *g = ctx;
	size_t k = g->n, i;
	const char *p = r->anomalies.data;
	fs_rv_item it;

	if (k >= 8)
		return 1;
	g->rec[k] = *r;
	snprintf(g->job_id[k], 64, "%.*s", (int) r->job_id.len, r->job_id.s ? r->job_id.s : "");
	snprintf(g->step[k], 32, "%.*s", (int) r->step.len, r->step.s ? r->step.s : "");
	snprintf(g->state[k], 32, "%.*s", (int) r->state.len, r->state.s ? r->state.s : "");
	snprintf(g->user[k], 32, "%.*s", (int) r->user.len, r->user.s ? r->user.s : "");
	g->anomalies[k][0] = '\0';
	for (i = 0; i < r->nanomalies; i++)
	{
		size_t l = strlen(g->anomalies[k]);

		snprintf(g->anomalies[k] + l, 512 - l, "%s%s", i ? "; " : "", p);
		p += strlen(p) + 1;
	}
	g->mem[k] = r->alloc_tres && fs_rv_get(r->alloc_tres, "mem", 3, &it) ? it.amount : -1;
	g->cpu_alloc[k] = r->alloc_tres && fs_rv_get(r->alloc_tres, "cpu", 3, &it) ? it.amount : -1;
	/* the spans and buffers die with the call: keep only the numbers */
	g->rec[k].alloc_tres = g->rec[k].req_tres = NULL;
	g->rec[k].extra = NULL;
	g->rec[k].anomalies.data = NULL;
	g->n++;
	return 0;
}

static fs_status
load(const char *text, got *g, fs_error *err)
{
	fs_json doc;
	fs_status st;

	memset(g, 0, sizeof(*g));
	st = fs_json_parse(text, strlen(text), &unit_alloc, &doc, err);
	if (st != FS_OK)
		return st;
	st = fs_sacct_json_doc(&doc, &unit_alloc, keep, g, err);
	fs_json_free(&doc, &unit_alloc);
	return st;
}

/* A Slurm 22.05 (dbv0.0.38) job as its data parser lays it out: plain numbers, one state. */
static const char v38[] =
    "{\"meta\": {\"plugin\": {\"type\": \"openapi/dbv0.0.38\", \"name\": \"Slurm OpenAPI "
    "slurmdbd v0.0.38\"}, \"Slurm\": {\"version\": {\"major\": 22, \"micro\": 8, \"minor\": 5}, "
    "\"release\": \"22.05.8\"}},\n"
    " \"errors\": [], \"jobs\": [{\"account\": \"anonacct\", \"allocation_nodes\": 4,\n"
    "  \"array\": {\"job_id\": 0, \"limits\": {\"max\": {\"running\": {\"tasks\": 0}}}, "
    "\"task\": null, \"task_id\": 4294967294},\n"
    "  \"cluster\": \"ub-hpc\", \"derived_exit_code\": {\"status\": \"SUCCESS\", "
    "\"return_code\": 0},\n"
    "  \"time\": {\"elapsed\": 50449, \"eligible\": 1435350142, \"end\": 1435716293, "
    "\"start\": 1435665844, \"submission\": 1435350142, \"suspended\": 0, \"limit\": 860},\n"
    "  \"exit_code\": {\"status\": \"SUCCESS\", \"return_code\": 0}, \"group\": \"anongroup\",\n"
    "  \"het\": {\"job_id\": 0, \"job_offset\": null}, \"job_id\": 4107219, \"name\": "
    "\"anonjobname\",\n"
    "  \"nodes\": \"k07n07s01,k08n02s01,k08n05s01,k08n13s01\", \"partition\": "
    "\"general-compute\", \"qos\": \"qos\",\n"
    "  \"required\": {\"CPUs\": 48, \"memory\": 9223372036854778808},\n"
    "  \"state\": {\"current\": \"COMPLETED\", \"reason\": \"None\"},\n"
    "  \"steps\": [{\"time\": {\"elapsed\": 50440, \"end\": 1435716290, \"start\": 1435665850},\n"
    "    \"exit_code\": {\"status\": \"SIGNALED\", \"return_code\": 0, \"signal\": "
    "{\"signal_id\": 9, \"name\": \"KILL\"}},\n"
    "    \"nodes\": {\"count\": 1, \"range\": \"k07n07s01\"}, \"state\": \"CANCELLED\",\n"
    "    \"step\": {\"job_id\": 4107219, \"het\": {\"component\": 4294967294}, \"id\": "
    "\"batch\", \"name\": \"batch\"},\n"
    "    \"tres\": {\"requested\": {\"max\": [], \"min\": [], \"average\": [], \"total\": []},\n"
    "     \"allocated\": [{\"type\": \"cpu\", \"name\": \"\", \"id\": 1, \"count\": 12}, "
    "{\"type\": \"mem\", \"name\": \"\", \"id\": 2, \"count\": 36000}]}}],\n"
    "  \"tres\": {\"allocated\": [{\"type\": \"billing\", \"name\": \"\", \"id\": 5, "
    "\"count\": 48}, {\"type\": \"cpu\", \"name\": \"\", \"id\": 1, \"count\": 48}, "
    "{\"type\": \"mem\", \"name\": \"\", \"id\": 2, \"count\": 144000}, {\"type\": \"node\", "
    "\"name\": \"\", \"id\": 4, \"count\": 4}],\n"
    "   \"requested\": [{\"type\": \"cpu\", \"name\": \"\", \"id\": 1, \"count\": 48}, "
    "{\"type\": \"mem\", \"name\": \"\", \"id\": 2, \"count\": 144000}, {\"type\": \"node\", "
    "\"name\": \"\", \"id\": 4, \"count\": 4}]},\n"
    "  \"user\": \"anonuser\", \"working_directory\": \"/home/anonuser\"}]}";

/* The same job as sacct --parsable2 prints it, in the order sacct_json writes its row. */
static const char v38_row_header[] = "JobID|JobIDRaw|Cluster|Partition|QOS|Account|Group|User|"
                                     "Submit|Eligible|Start|End|Elapsed|ExitCode|State|NNodes|"
                                     "NCPUS|ReqMem|ReqTRES|AllocTRES|Timelimit|JobName";
static const char v38_row[] =
    "4107219|4107219|ub-hpc|general-compute|qos|anonacct|anongroup|anonuser|1435350142|"
    "1435350142|1435665844|1435716293|14:00:49|0:0|COMPLETED|4|48|144000M|"
    "cpu=48,mem=144000M,node=4|billing=48,cpu=48,mem=144000M,node=4|14:20:00|anonjobname";

/* Slurm 24.05 (v0.0.41): numbers as {set, infinite, number}, states as lists. */
static const char v41[] =
    "{\"jobs\": [{\"account\": \"phys\", \"allocation_nodes\": 1,\n"
    " \"array\": {\"job_id\": 777, \"task_id\": {\"set\": true, \"infinite\": false, "
    "\"number\": 4}, \"task\": \"\"},\n"
    " \"cluster\": \"c1\", \"exit_code\": {\"status\": [\"FAILED\"], \"return_code\": {\"set\": "
    "true, \"infinite\": false, \"number\": 2}, \"signal\": {\"id\": {\"set\": false, "
    "\"infinite\": false, \"number\": 0}, \"name\": \"\"}},\n"
    " \"group\": \"g\", \"het\": {\"job_id\": 0, \"job_offset\": {\"set\": false, \"infinite\": "
    "false, \"number\": 0}}, \"job_id\": 781, \"name\": \"a|b\",\n"
    " \"partition\": \"gpu\", \"qos\": \"normal\", \"required\": {\"CPUs\": 2, "
    "\"memory_per_cpu\": {\"set\": true, \"infinite\": false, \"number\": 1024}, "
    "\"memory_per_node\": {\"set\": false, \"infinite\": false, \"number\": 0}},\n"
    " \"state\": {\"current\": [\"FAILED\", \"REQUEUED\"], \"reason\": \"NonZeroExitCode\"},\n"
    " \"time\": {\"elapsed\": 90061, \"eligible\": 1700000000, \"end\": 1700090062, \"limit\": "
    "{\"set\": true, \"infinite\": true, \"number\": 0}, \"start\": 1700000001, \"submission\": "
    "1700000000},\n"
    " \"tres\": {\"allocated\": [{\"type\": \"cpu\", \"name\": \"\", \"id\": 1, \"count\": 2}, "
    "{\"type\": \"gres\", \"name\": \"gpu\", \"id\": 1001, \"count\": 1}], \"requested\": []},\n"
    " \"user\": \"bob\",\n"
    " \"steps\": [{\"step\": {\"id\": \"777_4.0\", \"name\": \"python\"}, \"state\": "
    "[\"OUT_OF_MEMORY\"], \"nodes\": {\"count\": 1, \"range\": \"g1\"},\n"
    "  \"exit_code\": {\"status\": [\"SIGNALED\"], \"return_code\": {\"set\": false, "
    "\"infinite\": false, \"number\": 0}, \"signal\": {\"id\": {\"set\": true, \"infinite\": "
    "false, \"number\": 9}, \"name\": \"KILL\"}},\n"
    "  \"time\": {\"elapsed\": 5, \"end\": 1700000010, \"start\": 1700000005}, \"tres\": "
    "{\"allocated\": []}}]}]}";

static void
test_json_parser(void)
{
	fs_json v;
	fs_error err;
	char deep[2 * FS_JSON_MAX_DEPTH + 10];
	size_t k;

	static const char doc[] = "{\"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\\n\"], \"a\": true}";

	CHECK(fs_json_parse(doc, strlen(doc), &unit_alloc, &v, &err) == FS_OK);
	if (!CHECK(v.kind == FS_JSON_OBJECT && v.n == 2))
		return;
	CHECK(fs_json_get(&v, "a")->kind == FS_JSON_TRUE); /* a repeated key: the last one */
	CHECK(v.items[0].n == 3);
	CHECK_STR(v.items[0].items[1].str.s, "-2.5e3");
	CHECK_STR(v.items[0].items[2].str.s, "x\xc3\xa9\xf0\x9f\x98\x80\n");
	fs_json_free(&v, &unit_alloc);
	CHECK(fs_json_parse("[1, 2", 5, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Expected \",\" or \"]\" at end of input.");
	CHECK(fs_json_parse("{\"a\" 1}", 7, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Expected \":\" after the key at character 6.");
	CHECK(fs_json_parse("01", 2, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	CHECK(fs_json_parse("\"\\ud800\"", 8, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	CHECK(fs_json_parse("\"\\u0000\"", 8, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	CHECK(fs_json_parse("1 2", 3, &unit_alloc, &v, &err) == FS_ERR_SYNTAX);
	for (k = 0; k < FS_JSON_MAX_DEPTH + 2; k++)
		deep[k] = '[';
	CHECK(fs_json_parse(deep, k, &unit_alloc, &v, &err) == FS_ERR_LIMIT);
}

static void
test_v38(void)
{
	got g, row;
	fs_error err;
	fs_sacct_header h;
	fs_sacct_record r;
	int kind = 0;
	fs_rv_item it;

	CHECK(load(v38, &g, &err) == FS_OK);
	CHECK(g.n == 2);
	CHECK_STR(g.job_id[0], "4107219");
	CHECK(g.rec[0].has_job_seq && g.rec[0].job_seq == 4107219);
	CHECK(!g.rec[0].has_array_job_id && !g.rec[0].has_array_task_id);
	CHECK_STR(g.state[0], "COMPLETED");
	CHECK_STR(g.user[0], "anonuser");
	CHECK(g.rec[0].start.kind == FS_ST_EPOCH && g.rec[0].start.epoch == 1435665844);
	CHECK_DBL(g.rec[0].elapsed_s, 50449, 0);
	CHECK_DBL(g.rec[0].timelimit_s, 860 * 60, 0);
	CHECK(g.rec[0].ncpus == 48 && g.rec[0].nnodes == 4);
	/* the mem TRES request, the total sacct prints, wins over the raw per-CPU request */
	CHECK_DBL(g.rec[0].req_mem_bytes, 144000.0 * 1048576, 0);
	CHECK_DBL(g.mem[0], 144000.0 * 1048576, 0);
	CHECK_STR(g.anomalies[0], "");
	/* the batch step: its own state, exit code 0:9, CPUs from its TRES, no user */
	CHECK_STR(g.job_id[1], "4107219.batch");
	CHECK_STR(g.step[1], "batch");
	CHECK_STR(g.state[1], "CANCELLED");
	CHECK(g.rec[1].exit_code == 0 && g.rec[1].signal == 9);
	CHECK(g.rec[1].ncpus == 12 && g.rec[1].nnodes == 1);
	CHECK_STR(g.user[1], "");
	CHECK(g.rec[1].submit.kind == FS_ST_EPOCH && g.rec[1].submit.epoch == 1435665850);
	CHECK_DBL(g.mem[1], 36000.0 * 1048576, 0);

	/* the same job read from its sacct row gives the same record */
	CHECK(fs_sacct_header_parse(v38_row_header, strlen(v38_row_header), "|", 1, &unit_alloc, &h,
	                            &err) == FS_OK);
	CHECK(fs_sacct_parse_row(&h, v38_row, strlen(v38_row), &unit_alloc, &r, &err) == FS_OK);
	memset(&row, 0, sizeof(row));
	keep(&row, &r);
	CHECK(r.alloc_tres && fs_rv_get(r.alloc_tres, "billing", 7, &it) && it.amount == 48);
	(void) kind;
	fs_sacct_record_free(&r, &unit_alloc);
	fs_sacct_header_free(&h, &unit_alloc);
	CHECK_STR(row.job_id[0], g.job_id[0]);
	CHECK_STR(row.state[0], g.state[0]);
	CHECK(row.rec[0].job_seq == g.rec[0].job_seq);
	CHECK(row.rec[0].submit.epoch == g.rec[0].submit.epoch &&
	      row.rec[0].end.epoch == g.rec[0].end.epoch);
	CHECK(row.rec[0].elapsed_s == g.rec[0].elapsed_s &&
	      row.rec[0].timelimit_s == g.rec[0].timelimit_s);
	CHECK(row.rec[0].ncpus == g.rec[0].ncpus && row.rec[0].nnodes == g.rec[0].nnodes);
	CHECK(row.rec[0].req_mem_bytes == g.rec[0].req_mem_bytes);
	CHECK(row.mem[0] == g.mem[0] && row.cpu_alloc[0] == g.cpu_alloc[0]);
	CHECK(row.rec[0].exit_code == g.rec[0].exit_code && row.rec[0].signal == g.rec[0].signal);
}

static void
test_v41(void)
{
	got g;
	fs_error err;

	CHECK(load(v41, &g, &err) == FS_OK);
	CHECK(g.n == 2);
	CHECK_STR(g.job_id[0], "777_4");
	CHECK(g.rec[0].array_job_id == 777 && g.rec[0].array_task_id == 4 && g.rec[0].job_seq == 781);
	CHECK_STR(g.state[0], "FAILED");
	CHECK(g.rec[0].exit_code == 2 && g.rec[0].signal == 0);
	CHECK(!g.rec[0].has_timelimit);
	CHECK(strstr(g.anomalies[0], "Timelimit is UNLIMITED") != NULL);
	CHECK(strstr(g.anomalies[0], "holds the delimiter") == NULL); /* "a|b" is only a name */
	/* 1024M per CPU for the 2 allocated CPUs */
	CHECK_DBL(g.rec[0].req_mem_bytes, 2048.0 * 1048576, 0);
	CHECK_DBL(g.rec[0].elapsed_s, 90061, 0);
	CHECK_STR(g.job_id[1], "777_4.0");
	CHECK_STR(g.state[1], "OUT_OF_MEMORY");
	CHECK(g.rec[1].signal == 9 && g.rec[1].exit_code == 0);
	CHECK(!g.rec[1].has_ncpus);
}

static void
test_errors(void)
{
	got g;
	fs_error err;

	CHECK(load("{\"meta\": {}}", &g, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "the document is not sacct --json output");
	CHECK(load("[{\"job_id\": 5, \"user\": 7}]", &g, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "sacct --json field \"user\" must be a string");
	CHECK_STR(err.context, "in job 5");
	CHECK(load("[{\"job_id\": -5}]", &g, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "sacct --json field \"job_id\" must be a whole number of at least 0");
	CHECK(load("[{\"user\": \"x\"}]", &g, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "sacct --json field \"job_id\" must be a job number");
	CHECK(load("[{\"job_id\": 5, \"steps\": [{\"step\": {}}]}]", &g, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "steps[].step.id") != NULL);
	CHECK(load("[{\"job_id\": 5, \"time\": {\"elapsed\": 1e3}}]", &g, &err) == FS_ERR_VALUE);
	CHECK(load("[{\"job_id\": 5, \"time\": {\"limit\": {\"set\": true}}}]", &g, &err) ==
	      FS_ERR_VALUE);
	CHECK(load("[{\"job_id\": 5, \"state\": {\"current\": \"BOGUS\"}}]", &g, &err) == FS_OK);
	CHECK(strstr(g.anomalies[0], "unknown State \"BOGUS\"") != NULL);
	/* Slurm 22.05 wrote SUCCESS, 0 for a FAILED job that exited with 3: no code, and a note */
	CHECK(load("[{\"job_id\": 5, \"state\": {\"current\": \"FAILED\"}, \"exit_code\": "
	           "{\"status\": \"SUCCESS\", \"return_code\": 0}}]",
	           &g, &err) == FS_OK);
	CHECK(!g.rec[0].has_exit_code && !g.rec[0].has_signal);
	CHECK(strstr(g.anomalies[0], "exit_code says SUCCESS for a FAILED job") != NULL);
	CHECK(load("[3]", &g, &err) == FS_ERR_VALUE);
	CHECK(load("[]", &g, &err) == FS_OK && g.n == 0);
}

void
test_sacct_json(void)
{
	test_json_parser();
	test_v38();
	test_v41();
	test_errors();
}
