/* test_condorhist.c: unit tests of src/core/load/condorhist.c: the condor_history -l reader. */
#include "unit.h"
#include "load/condorhist.h"
#include "types/sharepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ADS 12

typedef struct result
{
	int n;
	fs_ch_ad ad[MAX_ADS];
	fs_status st[MAX_ADS];
	fs_error err[MAX_ADS];
} result;

static void
read_all(const char *doc, result *res)
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
	}
	CHECK(done);
}

static void
release_all(result *res)
{
	int i;

	for (i = 0; i < res->n; i++)
		fs_ch_ad_free(&res->ad[i], &unit_alloc);
}

static void
check_json_has(const fs_ch_ad *ad, const char *piece)
{
	if (!CHECK(ad->json != NULL && strstr(ad->json, piece) != NULL))
		printf("     %s not in %s\n", piece, ad->json ? ad->json : "(null)");
}

static void
check_path(const fs_ch_ad *ad, const char *want)
{
	fs_sb sb;

	if (!CHECK(ad->accounting_group != NULL))
		return;
	CHECK(ad->accounting_group_len == fs_sp_size(ad->accounting_group));
	fs_sb_init(&sb, &unit_alloc, 16);
	fs_sp_format(&sb, ad->accounting_group);
	CHECK_STR(sb.data, want);
	free(sb.data);
}

static void
check_error(const result *res, int i, fs_status st, int line, const char *needle)
{
	char want[64];

	if (!CHECK(i < res->n) || !CHECK(res->st[i] == st))
	{
		if (i < res->n)
			printf("     ad %d: status %d, %s\n", i + 1, res->st[i], res->err[i].detail);
		return;
	}
	snprintf(want, sizeof(want), "invalid condor_history line %d: \"", line);
	if (!CHECK(strncmp(res->err[i].message, want, strlen(want)) == 0))
		printf("     message: %s\n", res->err[i].message);
	if (!CHECK(strstr(res->err[i].detail, needle) != NULL))
		printf("     detail: %s\n", res->err[i].detail);
	CHECK(res->err[i].hint[0] != '\0');
	CHECK(res->ad[i].json == NULL);
	CHECK(res->ad[i].error_line == line);
}

/* The constructed_completed_ad block of condor_history_samples.txt, cut to the typed parts. */
static void
test_completed_ad(void)
{
	const char *doc = "AccountingGroup = \"group_physics.alice\"\n"
	                  "Args = \"--input \\\"run 1\\\".dat\"\n"
	                  "ClusterId = 812\n"
	                  "CompletionDate = 1713260000\n"
	                  "CumulativeSlotTime = 16800.0\n"
	                  "ExitBySignal = false\n"
	                  "GlobalJobId = \"ap1.example.org#812.3#1713250000\"\n"
	                  "JobStatus = 4\n"
	                  "MemoryUsage = ((ResidentSetSize + 1023) / 1024)\n"
	                  "Owner = \"alice\"\n"
	                  "RemoteWallClockTime = 4200.0\n"
	                  "RequestCpus = 4\n"
	                  "RequestGpus = 1\n"
	                  "RequestMemory = 8192\n";
	result res;
	const fs_ch_ad *ad = &res.ad[0];

	read_all(doc, &res);
	if (!CHECK(res.n == 1) || !CHECK(res.st[0] == FS_OK))
	{
		printf("     %s / %s\n", res.err[0].message, res.err[0].detail);
		release_all(&res);
		return;
	}
	CHECK(ad->ad == 1 && ad->line == 1 && ad->last_line == 14);
	CHECK_STR(ad->text[FS_CH_GLOBAL_JOB_ID], "ap1.example.org#812.3#1713250000");
	CHECK_STR(ad->text[FS_CH_OWNER], "alice");
	check_path(ad, "group_physics.alice");
	CHECK(ad->has[FS_CH_JOB_STATUS] && ad->num[FS_CH_JOB_STATUS] == 4);
	CHECK(ad->has[FS_CH_REQUEST_CPUS] && ad->num[FS_CH_REQUEST_CPUS] == 4);
	CHECK(ad->has[FS_CH_REQUEST_MEMORY] && ad->num[FS_CH_REQUEST_MEMORY] == 8192.0 * 1048576);
	CHECK(ad->has[FS_CH_REQUEST_GPUS] && ad->num[FS_CH_REQUEST_GPUS] == 1);
	CHECK(ad->has[FS_CH_REMOTE_WALL_CLOCK_TIME] && ad->num[FS_CH_REMOTE_WALL_CLOCK_TIME] == 4200);
	CHECK(ad->has[FS_CH_CUMULATIVE_SLOT_TIME] && ad->num[FS_CH_CUMULATIVE_SLOT_TIME] == 16800);
	CHECK(ad->has[FS_CH_COMPLETION_DATE] && ad->num[FS_CH_COMPLETION_DATE] == 1713260000);
	CHECK(ad->json[0] == '{' && ad->json[ad->jsonlen - 1] == '}' &&
	      strlen(ad->json) == ad->jsonlen);
	check_json_has(ad, "{\"AccountingGroup\":\"group_physics.alice\",");
	check_json_has(ad, "\"Args\":\"--input \\\"run 1\\\".dat\"");
	check_json_has(ad, "\"ClusterId\":812,");
	check_json_has(ad, "\"CumulativeSlotTime\":16800.0,");
	check_json_has(ad, "\"ExitBySignal\":false,");
	check_json_has(ad, "\"MemoryUsage\":{\"expr\":\"((ResidentSetSize + 1023) / 1024)\"},");
	check_json_has(ad, "\"RequestMemory\":8192}");
	release_all(&res);
}

/* Old ads: expressions, undefined, CompletionDate 0; history banners; -format lines. */
static void
test_layouts(void)
{
	result res;

	read_all("MyType = \"Job\"\n"
	         "CompletionDate = 0\n"
	         "HoldReason = undefined\n"
	         "Rank = 0.0\n"
	         "RequestMemory = ifthenelse(MemoryUsage isnt undefined,MemoryUsage,(ImageSize + 1023) "
	         "/ 1024)\n"
	         "Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.HasFileTransfer)\n"
	         "CurrentTime = time()\n"
	         "Owner = \"bbockelm\"\n"
	         "RemoteWallClockTime = 0.0\n"
	         "OnExitRemove = TRUE\n"
	         "Big = 1E+20\n"
	         "Inf = real(\"INF\")\n"
	         "Octal = 007\n"
	         "\n\n",
	         &res);
	CHECK(res.n == 1 && res.st[0] == FS_OK);
	CHECK(!res.ad[0].has[FS_CH_COMPLETION_DATE]);
	CHECK(!res.ad[0].has[FS_CH_REQUEST_MEMORY]);
	CHECK(res.ad[0].has[FS_CH_REMOTE_WALL_CLOCK_TIME] &&
	      res.ad[0].num[FS_CH_REMOTE_WALL_CLOCK_TIME] == 0);
	CHECK(res.ad[0].text[FS_CH_GLOBAL_JOB_ID] == NULL && res.ad[0].accounting_group == NULL);
	check_json_has(&res.ad[0], "\"CompletionDate\":0,\"HoldReason\":null,\"Rank\":0.0,");
	check_json_has(&res.ad[0], "\"RequestMemory\":{\"expr\":\"ifthenelse(MemoryUsage isnt "
	                           "undefined,MemoryUsage,(ImageSize + 1023) / 1024)\"}");
	check_json_has(&res.ad[0], "\"Requirements\":{\"expr\":\"(TARGET.Arch == \\\"X86_64\\\") && "
	                           "(TARGET.HasFileTransfer)\"}");
	check_json_has(&res.ad[0], "\"CurrentTime\":{\"expr\":\"time()\"}");
	check_json_has(&res.ad[0], "\"OnExitRemove\":true,\"Big\":1E+20,");
	check_json_has(&res.ad[0],
	               "\"Inf\":{\"expr\":\"real(\\\"INF\\\")\"},\"Octal\":{\"expr\":\"007\"}}");
	release_all(&res);

	/* history file: each ad followed by its banner, no blank line */
	read_all("ClusterId = 1\nOwner = \"Bob\"\nJobStatus = 5\n"
	         "*** Offset = 0 ClusterId = 1 ProcId = 2 Owner = \"Bob\" CompletionDate = 1724181763\n"
	         "ClusterId = 2\r\nOwner = \"Alice\"\r\nJobStatus = 3\r\n"
	         "*** Offset = 137 ClusterId = 2 ProcId = 1 Owner = \"Alice\" CompletionDate = 1\n",
	         &res);
	CHECK(res.n == 2 && res.st[0] == FS_OK && res.st[1] == FS_OK);
	CHECK(res.ad[0].line == 1 && res.ad[0].last_line == 3);
	CHECK(res.ad[1].ad == 2 && res.ad[1].line == 5 && res.ad[1].last_line == 7);
	CHECK_STR(res.ad[1].text[FS_CH_OWNER], "Alice");
	CHECK(res.ad[1].has[FS_CH_JOB_STATUS] && res.ad[1].num[FS_CH_JOB_STATUS] == 3);
	release_all(&res);

	/* -format output (APEL): no names; the ad is reported, never dropped */
	read_all("# GlobalJobId|Owner|RemoteWallClockTime\n1234567|opssgm|19|18\n"
	         "arcce.rl.ac.uk#2376.0#1589|tatls011|287\n\nOwner = \"x\"\n",
	         &res);
	CHECK(res.n == 2);
	check_error(&res, 0, FS_ERR_SYNTAX, 2, "Expected an attribute name at character 1 (ad 1)");
	CHECK(strstr(res.err[0].hint, "-format") != NULL);
	CHECK(res.ad[0].line == 2 && res.ad[0].last_line == 3);
	CHECK(res.st[1] == FS_OK && res.ad[1].ad == 2);
	release_all(&res);
}

static void
test_strings(void)
{
	result res;

	read_all("Cmd = \"C:\\dir\\\"\n"
	         "Both = \"a\\\\\"b\"\n"
	         "Unc = \"\\\\server\\share\"\n"
	         "Env = \"a\n"
	         "b\tc\"\n"
	         "Empty = \"\"\n"
	         "Two = \"a\" + \"b\"\n",
	         &res);
	if (!CHECK(res.n == 1 && res.st[0] == FS_OK))
	{
		printf("     %s / %s\n", res.err[0].message, res.err[0].detail);
		release_all(&res);
		return;
	}
	check_json_has(&res.ad[0], "\"Cmd\":\"C:\\\\dir\\\\\"");
	check_json_has(&res.ad[0], "\"Both\":\"a\\\\\\\"b\"");
	check_json_has(&res.ad[0], "\"Unc\":\"\\\\\\\\server\\\\share\"");
	check_json_has(&res.ad[0], "\"Env\":\"a\\u000ab\\u0009c\"");
	check_json_has(&res.ad[0], "\"Empty\":\"\"");
	check_json_has(&res.ad[0], "\"Two\":{\"expr\":\"\\\"a\\\" + \\\"b\\\"\"}");
	CHECK(res.ad[0].last_line == 7);
	release_all(&res);
}

static void
test_errors(void)
{
	result res;

	read_all("Owner = \"a\"\nowner = \"b\"\n\n"
	         "RequestCpus = \"4\"\n\n"
	         "Owner = 5\n\n"
	         "Cmd = \"abc\nX = 1\n\n"
	         "Cmd =\n\n"
	         "AccountingGroup = \"group_a..alice\"\n\n"
	         "CompletionDate = -1\n\n"
	         "CompletionDate = 1e15\n\n"
	         "JobStatus = 4.5\n",
	         &res);
	CHECK(res.n == 9);
	/* a name set twice keeps its last value, as HTCondor does, and says so */
	if (CHECK(res.st[0] == FS_OK))
	{
		CHECK_STR(res.ad[0].text[FS_CH_OWNER], "b");
		CHECK_STR(res.ad[0].json, "{\"owner\":\"b\"}");
		CHECK(res.ad[0].nanomalies == 1);
		CHECK_STR(res.ad[0].anomalies, "attribute \"owner\" is set 2 times (first on line 1, last "
		                               "on line 2): the last value is kept, as HTCondor does");
	}
	check_error(&res, 1, FS_ERR_SYNTAX, 4,
	            "Attribute \"RequestCpus\" must be a number, not a string at character 15 (ad 2)");
	check_error(&res, 2, FS_ERR_SYNTAX, 6, "Attribute \"Owner\" must be a string, not an integer");
	check_error(&res, 3, FS_ERR_SYNTAX, 8,
	            "Unterminated string (it runs to the end of the ad, line 9) at character 7 (ad 4)");
	check_error(&res, 4, FS_ERR_SYNTAX, 11, "Missing value for attribute \"Cmd\"");
	check_error(&res, 5, FS_ERR_VALUE, 13, "AccountingGroup \"group_a..alice\" has an empty part");
	check_error(&res, 6, FS_ERR_VALUE, 15, "CompletionDate is negative");
	check_error(&res, 7, FS_ERR_VALUE, 17, "CompletionDate is beyond the range of timestamptz");
	check_error(&res, 8, FS_ERR_SYNTAX, 19, "Attribute \"JobStatus\" must be a 32-bit integer");
	CHECK(res.ad[8].ad == 9 && res.ad[8].line == 19);
	release_all(&res);

	/* a NUL byte in AccountingGroup: the share path refuses the label; the ad says so */
	{
		static const char doc[] = "AccountingGroup = \"gr\0up.alice\"\nOwner = \"a\"\n";
		fs_ch_reader r;
		fs_ch_ad ad;
		fs_error err;
		bool done;

		fs_ch_init(&r, doc, sizeof(doc) - 1, &unit_alloc);
		CHECK(fs_ch_next(&r, &ad, &done, &err) == FS_ERR_VALUE && !done);
		CHECK(ad.error_line == 1 && ad.json == NULL);
		CHECK(strstr(err.detail, "is not a valid share path") != NULL);
		CHECK(strstr(err.hint, "NUL byte") != NULL);
		fs_ch_ad_free(&ad, &unit_alloc);
		CHECK(fs_ch_next(&r, &ad, &done, &err) == FS_OK && done);
	}

	read_all("Foo.Bar = 1\n", &res);
	check_error(&res, 0, FS_ERR_SYNTAX, 1, "Expected an attribute name at character 4");
	release_all(&res);
	read_all("Foo 1\n", &res);
	check_error(&res, 0, FS_ERR_SYNTAX, 1,
	            "Expected \"=\" after the attribute name \"Foo\" at character 5");
	/* values without names, as condor_history -af prints them: the hint says what to run */
	CHECK(strstr(res.err[0].hint, "-af (autoformat)") != NULL &&
	      strstr(res.err[0].hint, "-jsonl") != NULL);
	release_all(&res);
	read_all("Foo 1 = 2\n", &res);
	CHECK(strstr(res.err[0].hint, "Each line of an ad is") != NULL);
	release_all(&res);
	read_all("", &res);
	CHECK(res.n == 0);
	read_all("\n# c\n*** banner\n  \n", &res);
	CHECK(res.n == 0);
}

/* CompletionDate `text` read as whole seconds and microseconds (false: an error). */
static bool
completion(const char *text, int64_t *sec, int32_t *usec)
{
	char doc[128];
	result res;
	bool ok;

	snprintf(doc, sizeof(doc), "CompletionDate = %s\n", text);
	read_all(doc, &res);
	ok = res.n == 1 && res.st[0] == FS_OK && res.ad[0].has[FS_CH_COMPLETION_DATE];
	if (ok)
	{
		*sec = res.ad[0].completion_s;
		*usec = res.ad[0].completion_us;
	}
	else if (res.n == 1 && res.st[0] != FS_OK)
		CHECK(strstr(res.err[0].detail, "CompletionDate is beyond the range of timestamptz") !=
		      NULL);
	release_all(&res);
	return ok;
}

/*
 * CompletionDate goes to seconds and microseconds digit by digit: through a double, the last
 * second of timestamptz (9224318015999) came out 0.000448 s early.
 */
static void
test_completion_exact(void)
{
	static const struct
	{
		const char *text;
		int64_t sec; /* -1: out of range */
		int32_t usec;
	} cases[] = {
	    {"9224318015999", INT64_C(9224318015999), 0},
	    {"9224318016000", -1, 0},
	    {"9224318015999.999999", INT64_C(9224318015999), 999999},
	    {"9224318015999.9999995", -1, 0}, /* rounds up to the end */
	    {"9224318015999.9999994", INT64_C(9224318015999), 999999},
	    {"99999999999999999999", -1, 0},
	    {"1713260000", 1713260000, 0},
	    {"1713260000.5", 1713260000, 500000},
	    {"1713260000.1234565", 1713260000, 123456}, /* half to even */
	    {"1713260000.1234575", 1713260000, 123458},
	    {"1713260000.12345650001", 1713260000, 123457},
	    {"1713260000.9999996", 1713260001, 0},
	    {"1.7132600001234567e9", 1713260000, 123457},
	    {"17132600001234567e-7", 1713260000, 123457},
	    {"1.5e3", 1500, 0},
	    {"15e2", 1500, 0},
	    {"0.0000001", 0, 0},
	    {"9.224318016e12", -1, 0},
	    {"9.224318015999e12", INT64_C(9224318015999), 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int64_t sec = -2;
		int32_t usec = -2;
		bool ok = completion(cases[i].text, &sec, &usec);

		if (!CHECK(ok == (cases[i].sec >= 0)) ||
		    (ok && !CHECK(sec == cases[i].sec && usec == cases[i].usec)))
			printf("     CompletionDate = %s: %s %lld.%06d\n", cases[i].text,
			       ok ? "read as" : "refused", (long long) sec, (int) usec);
	}
}

/*
 * An HTCondor 7.4 per-job history file (the OSG Gratia probe's test input, job 377260.0 of
 * CHTC), cut to the attributes it sets twice and the typed ones: the cluster ad's values come
 * first, the job's later; the last is kept.
 */
static void
test_repeated_attributes(void)
{
	result res;

	read_all("CompletionDate = 0\n"
	         "Owner = \"vdtuser03\"\n"
	         "RemoteWallClockTime = 0.000000\n"
	         "NumJobStarts = 0\n"
	         "ExitBySignal = FALSE\n"
	         "RequestCpus = 1\n"
	         "GlobalJobId = \"stress3.chtc.wisc.edu#377260.0#1290671437\"\n"
	         "NumJobStarts = 1\n"
	         "ExitBySignal = FALSE\n"
	         "JobStatus = 4\n"
	         "RemoteWallClockTime = 910.000000\n"
	         "CompletionDate = 1290672370\n",
	         &res);
	if (CHECK(res.n == 1 && res.st[0] == FS_OK))
	{
		const fs_ch_ad *ad = &res.ad[0];
		const char *p = ad->anomalies;

		CHECK(ad->has[FS_CH_COMPLETION_DATE] && ad->completion_s == 1290672370);
		CHECK(ad->has[FS_CH_REMOTE_WALL_CLOCK_TIME] &&
		      ad->num[FS_CH_REMOTE_WALL_CLOCK_TIME] == 910);
		CHECK(ad->has[FS_CH_JOB_STATUS] && ad->num[FS_CH_JOB_STATUS] == 4);
		check_json_has(ad, "\"NumJobStarts\":1");
		check_json_has(ad, "\"CompletionDate\":1290672370}");
		CHECK(strstr(ad->json, "\"NumJobStarts\":0") == NULL);
		CHECK(strstr(ad->json, "\"CompletionDate\":0") == NULL);
		/* one anomaly per repeated name, in name order */
		if (CHECK(ad->nanomalies == 4))
		{
			CHECK_STR(p, "attribute \"CompletionDate\" is set 2 times (first on line 1, last on "
			             "line 12): the last value is kept, as HTCondor does");
			p += strlen(p) + 1;
			CHECK(strncmp(p, "attribute \"ExitBySignal\" is set 2 times (first on line 5, last",
			              62) == 0);
			p += strlen(p) + 1;
			CHECK(strncmp(p, "attribute \"NumJobStarts\"", 24) == 0);
			p += strlen(p) + 1;
			CHECK(strstr(p, "\"RemoteWallClockTime\" is set 2 times (first on line 3, last on "
			                "line 11)") != NULL);
		}
	}
	release_all(&res);
	/* three times, and the last spelling is the one kept */
	read_all("JobStatus = 1\njobstatus = 2\nJOBSTATUS = 4\n", &res);
	if (CHECK(res.n == 1 && res.st[0] == FS_OK))
	{
		CHECK(res.ad[0].num[FS_CH_JOB_STATUS] == 4);
		CHECK_STR(res.ad[0].json, "{\"JOBSTATUS\":4}");
		CHECK(strstr(res.ad[0].anomalies, "\"JOBSTATUS\" is set 3 times (first on line 1, last "
		                                  "on line 3)") != NULL);
	}
	release_all(&res);
}

void
test_condorhist(void)
{
	test_repeated_attributes();
	test_completed_ad();
	test_layouts();
	test_strings();
	test_errors();
	test_completion_exact();
}
