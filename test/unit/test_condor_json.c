/* test_condor_json.c: unit tests of src/core/load/condor_json.c: condor_history -json, -jsonl. */
#include "unit.h"
#include "load/condor_json.h"

#include <stdio.h>
#include <string.h>

#define MAX_ADS 6

typedef struct ads
{
	int n;
	fs_ch_ad ad[MAX_ADS];
	fs_status st[MAX_ADS];
	fs_error err[MAX_ADS];
} ads;

/* Every ad of doc, up to an error of the document as a whole (ad 0). */
static void
read_ads(const char *doc, ads *res)
{
	fs_ch_reader r;
	bool done = false;

	memset(res, 0, sizeof(*res));
	fs_ch_init(&r, doc, strlen(doc), &unit_alloc);
	while (res->n < MAX_ADS)
	{
		fs_ch_ad ad;
		fs_error err;
		fs_status st = fs_ch_next(&r, &ad, &done, &err);

		if (done)
			break;
		res->ad[res->n] = ad;
		res->st[res->n] = st;
		res->err[res->n] = err;
		res->n++;
		if (st != FS_OK && ad.ad == 0)
			break;
	}
}

static void
free_ads(ads *res)
{
	int i;

	for (i = 0; i < res->n; i++)
		fs_ch_ad_free(&res->ad[i], &unit_alloc);
}

/* One ad as condor_history -l prints it, and as -json and -jsonl do. */
static const char ad_l[] = "Owner = \"alice\"\n"
                           "AccountingGroup = \"group_physics.alice\"\n"
                           "RequestCpus = 4\n"
                           "RequestMemory = 2048\n"
                           "RemoteWallClockTime = 3600.0\n"
                           "CompletionDate = 1700000000\n"
                           "JobStatus = 4\n"
                           "Cmd = \"say \\\"hi\\\"\"\n"
                           "ExitBySignal = false\n"
                           "HoldReason = undefined\n"
                           "Requirements = (TARGET.Memory >= RequestMemory)\n";
static const char ad_json[] =
    "[\n{\n  \"Owner\": \"alice\",\n  \"AccountingGroup\": \"group_physics.alice\",\n"
    "  \"RequestCpus\": 4,\n  \"RequestMemory\": 2048,\n  \"RemoteWallClockTime\": 3600.0,\n"
    "  \"CompletionDate\": 1700000000,\n  \"JobStatus\": 4,\n  \"Cmd\": \"say \\\"hi\\\"\",\n"
    "  \"ExitBySignal\": false,\n  \"HoldReason\": null,\n"
    "  \"Requirements\": \"\\/Expr((TARGET.Memory >= RequestMemory))\\/\"\n}\n,\n"
    "{\n  \"Owner\": \"bob\"\n}\n]\n";
static const char ad_jsonl[] =
    "{\"Owner\": \"alice\", \"AccountingGroup\": \"group_physics.alice\", \"RequestCpus\": 4, "
    "\"RequestMemory\": 2048, \"RemoteWallClockTime\": 3600.0, \"CompletionDate\": 1700000000, "
    "\"JobStatus\": 4, \"Cmd\": \"say \\\"hi\\\"\", \"ExitBySignal\": false, \"HoldReason\": "
    "null, \"Requirements\": \"/Expr((TARGET.Memory >= RequestMemory))/\"}\n"
    "{\"Owner\": 7}\n"
    "{\"Owner\": \"bob\", \n"
    "{\"Owner\": \"carol\"}\n";

static void
same_ad(const fs_ch_ad *a, const fs_ch_ad *b)
{
	int c;

	CHECK_STR(a->json, b->json);
	for (c = 0; c < FS_CH_NCOLS; c++)
	{
		CHECK(a->has[c] == b->has[c] && (!a->has[c] || a->num[c] == b->num[c]));
		CHECK((a->text[c] == NULL) == (b->text[c] == NULL));
		if (a->text[c] && b->text[c])
			CHECK_STR(a->text[c], b->text[c]);
	}
	CHECK(a->accounting_group_len == b->accounting_group_len &&
	      memcmp(a->accounting_group, b->accounting_group, a->accounting_group_len) == 0);
	CHECK(a->completion_s == b->completion_s && a->completion_us == b->completion_us);
}

static void
test_both_ways(void)
{
	ads l, j, jl;

	read_ads(ad_l, &l);
	read_ads(ad_json, &j);
	read_ads(ad_jsonl, &jl);
	if (!CHECK(l.n == 1 && l.st[0] == FS_OK && j.n == 2 && j.st[0] == FS_OK && j.st[1] == FS_OK &&
	           jl.n == 4 && jl.st[0] == FS_OK))
	{
		printf("     %s / %s\n", j.err[0].message, j.err[0].detail);
		goto out;
	}
	same_ad(&l.ad[0], &j.ad[0]);
	same_ad(&l.ad[0], &jl.ad[0]);
	CHECK(strstr(j.ad[0].json, "\"Requirements\":{\"expr\":\"(TARGET.Memory >= RequestMemory)\"}"));
	CHECK_STR(j.ad[0].text[FS_CH_OWNER], "alice");
	CHECK(j.ad[0].ad == 1 && j.ad[0].line == 2 && j.ad[1].ad == 2 && j.ad[1].line == 16);
	/* -jsonl: a wrong type and a broken line are their ads' errors; reading goes on */
	CHECK(jl.st[1] == FS_ERR_SYNTAX && jl.ad[1].ad == 2 && jl.ad[1].line == 2);
	CHECK(strstr(jl.err[1].message, "Owner") != NULL || strstr(jl.err[1].detail, "Owner") != NULL);
	CHECK_STR(jl.err[1].context, "in the ad at line 2 of the condor_history -jsonl document");
	CHECK(jl.st[2] == FS_ERR_SYNTAX && jl.ad[2].ad == 3 && jl.ad[2].error_line == 3);
	CHECK(jl.st[3] == FS_OK && jl.ad[3].ad == 4 && jl.ad[3].line == 4);
	CHECK_STR(jl.ad[3].text[FS_CH_OWNER], "carol");
out:
	free_ads(&l);
	free_ads(&j);
	free_ads(&jl);
}

static void
test_values(void)
{
	ads r;

	read_ads("[{\"L\": [1, \"a\", [true]], \"N\": {\"x\": null, \"y\": 2}, \"Path\": "
	         "\"C:\\\\dir\\\\\"}]",
	         &r);
	if (CHECK(r.n == 1 && r.st[0] == FS_OK))
	{
		CHECK(strstr(r.ad[0].json, "\"L\":{\"expr\":\"{ 1, \\\"a\\\", { true } }\"}") != NULL);
		CHECK(strstr(r.ad[0].json, "\"N\":{\"expr\":\"[ x = undefined; y = 2; ]\"}") != NULL);
		CHECK(strstr(r.ad[0].json, "\"Path\":\"C:\\\\dir\\\\\"") != NULL);
	}
	free_ads(&r);
	read_ads("[]", &r);
	CHECK(r.n == 0);
	read_ads("  \n", &r);
	CHECK(r.n == 0);
}

static void
test_errors(void)
{
	ads r;

	read_ads("[{\"Owner\": \"a\"} {\"Owner\": \"b\"}]", &r);
	CHECK(r.n == 2 && r.st[0] == FS_OK && r.st[1] == FS_ERR_SYNTAX && r.ad[1].ad == 0);
	CHECK_STR(
	    r.err[1].message,
	    "invalid condor_history -json document: expected \",\" or \"]\" after an ad at line 1");
	free_ads(&r);
	read_ads("[{\"Owner\": \"a\"}", &r);
	CHECK(r.n == 2 && r.st[1] == FS_ERR_SYNTAX && r.ad[1].ad == 0);
	CHECK(strstr(r.err[1].message, "expected \",\" or \"]\"") != NULL);
	free_ads(&r);
	read_ads("[{\"Owner\": \"a\"}] x", &r);
	CHECK(r.n == 2 && r.st[1] == FS_ERR_SYNTAX);
	CHECK(strstr(r.err[1].message, "text after the end of the array") != NULL);
	free_ads(&r);
	read_ads("[{\"Owner\": \"a\"\n", &r);
	CHECK(r.n == 1 && r.st[0] == FS_ERR_SYNTAX && r.ad[0].ad == 0);
	CHECK_STR(r.err[0].context, "in the ad at line 1 of the condor_history -json document");
	free_ads(&r);
	read_ads("[{}]", &r);
	CHECK(r.n == 1 && r.st[0] == FS_ERR_SYNTAX && r.ad[0].ad == 1);
	CHECK_STR(r.err[0].message, "invalid condor_history JSON ad");
	CHECK_STR(r.err[0].detail, "The ad has no attributes.");
	free_ads(&r);
	read_ads("[5]", &r);
	CHECK_STR(r.err[0].detail, "An ad must be a JSON object.");
	free_ads(&r);
	read_ads("[{\"a b\": 1}]", &r);
	CHECK(strstr(r.err[0].detail, "holds a blank") != NULL);
	free_ads(&r);
	read_ads("[{\"E\": \"/Expr(a\\nb)/\"}]", &r);
	CHECK(strstr(r.err[0].detail, "newline") != NULL);
	free_ads(&r);
	read_ads("[{\"1x\": 1}]", &r); /* the -l reader checks the name */
	CHECK(r.n == 1 && r.st[0] == FS_ERR_SYNTAX && r.ad[0].ad == 1);
	free_ads(&r);
}

void
test_condor_json(void)
{
	test_both_ways();
	test_values();
	test_errors();
}
