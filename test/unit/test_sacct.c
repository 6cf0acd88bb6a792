/* test_sacct.c: unit tests of src/core/load/sacct.c with rows of sacct_parsable2_samples.txt. */
#include "unit.h"
#include "types/resvec.h"
#include "load/sacct.h"
#include "types/sharepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char spanbuf[8][256];
static int spanidx;

/* A span as a C string (a few at a time), "(null)" when absent. */
static const char *
S(fs_span s)
{
	char *b = spanbuf[spanidx++ & 7];

	if (s.p == NULL)
		return "(null)";
	snprintf(b, 256, "%.*s", (int) s.len, s.p);
	return b;
}

/* Anomaly k, or "" when there are fewer. */
static const char *
anomaly(const fs_sacct_record *r, size_t k)
{
	const char *p = r->anomalies.data;
	size_t i;

	if (k >= r->nanomalies)
		return "";
	for (i = 0; i < k; i++)
		p += strlen(p) + 1;
	return p;
}

static bool
parse(const char *header, const char *line, fs_sacct_record *r, fs_error *err)
{
	fs_sacct_header h;
	fs_status st;

	if (fs_sacct_header_parse(header, strlen(header), &unit_alloc, &h, err) != FS_OK)
		return false;
	st = fs_sacct_parse_row(&h, line, strlen(line), &unit_alloc, r, err);
	fs_sacct_header_release(&h, &unit_alloc);
	return st == FS_OK;
}

static double
rv_amount(const uint8_t *rv, const char *name, int *kind)
{
	fs_rv_item it;

	if (rv == NULL || !fs_rv_get(rv, name, strlen(name), &it))
		return -1;
	*kind = it.kind;
	return it.amount;
}

static const char xdmod_header[] =
    "JobID|JobIDRaw|Cluster|Partition|QOS|Account|Group|GID|User|UID|Submit|Eligible|Start|End|"
    "Elapsed|ExitCode|State|NNodes|NCPUS|ReqCPUS|ReqMem|ReqTRES|AllocTRES|Timelimit|NodeList|"
    "JobName";

static void
test_xdmod_rows(void)
{
	fs_sacct_record r;
	fs_error err;
	int kind = -1;

	/* CANCELLED by, ReqMem per node (48000Mn x 3 nodes), 2-22:03:04 */
	if (CHECK(parse(xdmod_header,
	                "4107166|4107166|ub-hpc|general-compute|qos|dspumpkins|dspumpkins|103116|hanx|"
	                "102216|2015-06-26T19:51:25|2015-06-26T19:51:26|2015-06-28T15:14:49|2015-07-"
	                "01T13:17:53|2-22:03:04|0:0|CANCELLED by 102216|3|36|36|48000Mn||billing=36,"
	                "cpu=36,mem=48000M,node=3|3-00:00:00|k10n26s01,k13n36s01,k13n37s01|100-Floors-"
	                "of-Frights",
	                &r, &err)))
	{
		CHECK_STR(S(r.state), "CANCELLED");
		CHECK(r.has_cancelled_by && r.cancelled_by == 102216);
		CHECK(r.has_job_seq && r.job_seq == 4107166);
		CHECK_STR(S(r.step), "(null)");
		CHECK_DBL(r.elapsed_s, 2 * 86400 + 22 * 3600 + 3 * 60 + 4, 0);
		CHECK_DBL(r.timelimit_s, 3 * 86400, 0);
		CHECK(r.has_req_mem);
		CHECK_DBL(r.req_mem_bytes, 48000.0 * 1048576 * 3, 0);
		CHECK_DBL(rv_amount(r.alloc_tres, "mem", &kind), 48000.0 * 1048576, 0);
		CHECK(kind == FS_KIND_SIZE);
		CHECK_DBL(rv_amount(r.alloc_tres, "billing", &kind), 36, 0);
		CHECK(kind == FS_KIND_COUNT);
		CHECK(r.req_tres == NULL);
		CHECK(r.submit.kind == FS_ST_LOCAL && r.submit.year == 2015 && r.submit.mon == 6 &&
		      r.submit.mday == 26 && r.submit.hour == 19 && r.submit.min == 51 &&
		      r.submit.sec == 25);
		CHECK(r.nanomalies == 0);
		CHECK(strstr(r.extra.data, "\"JobName\": \"100-Floors-of-Frights\"") != NULL);
		CHECK(strstr(r.extra.data, "\"UID\": \"102216\"") != NULL);
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* ReqMem per CPU (3000Mc x 256), pending array range */
	if (CHECK(parse(xdmod_header,
	                "4103947_[9-11,20]|4103947|ub-hpc|general-compute|qos|anon|anon|918273|unknown|"
	                "192837|2015-06-26T13:57:00|2015-06-26T13:57:00|2015-06-28T02:55:50|2015-07-"
	                "01T02:55:50|3-00:00:00|1:0|TIMEOUT|32|256|256|3000Mc|||3-00:00:00|d07n07s02|"
	                "1AbC-2-3",
	                &r, &err)))
	{
		CHECK(r.has_array_job_id && r.array_job_id == 4103947 && !r.has_array_task_id);
		CHECK(r.job_seq == 4103947);
		CHECK_DBL(r.req_mem_bytes, 3000.0 * 1048576 * 256, 0);
		CHECK(r.exit_code == 1 && r.signal == 0);
		CHECK_STR(anomaly(&r, 0),
		          "JobID \"4103947_[9-11,20]\" stands for the array tasks \"9-11,20\" in one row");
		CHECK(strstr(r.extra.data, "\"array_task_spec\": \"9-11,20\"") != NULL);
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* unknown state, Unknown Start (pending) */
	if (CHECK(parse(xdmod_header,
	                "3483276|3483276|phillips|black|qos|taifl|taifl|311132|honbu|311132|2020-07-"
	                "01T15:28:17|2020-07-01T15:28:17|Unknown|2020-07-01T15:28:17|00:00:00|0:0|BAR|"
	                "1|40|40|120000Mn|billing=40,cpu=40,mem=120000M,node=1||3-00:00:00|cpn-k07-02-"
	                "01|21PyNP4a4b",
	                &r, &err)))
	{
		CHECK_STR(S(r.state), "BAR");
		CHECK(r.start.kind == FS_ST_NONE);
		CHECK_STR(anomaly(&r, 0), "unknown State \"BAR\"");
		CHECK_STR(anomaly(&r, 1), "Start is Unknown");
		CHECK(r.alloc_tres == NULL && r.req_tres != NULL);
		fs_sacct_record_release(&r, &unit_alloc);
	}
}

static const char edge_header[] = "JobID|JobIDRaw|User|Account|Partition|Submit|Start|End|"
                                  "Elapsed|Timelimit|State|ExitCode|NNodes|NCPUS|ReqMem|"
                                  "AllocTRES|JobName";

static void
test_edges(void)
{
	fs_sacct_record r;
	fs_error err;
	int kind = -1;

	/* a | in the job name; 1G whole-job ReqMem (21.08+) */
	if (CHECK(parse(edge_header,
	                "7104|7104|cy|bio|cpu|2024-05-01T12:00:00|2024-05-01T12:00:01|2024-05-01T12:"
	                "00:02|00:00:01|00:10:00|COMPLETED|0:0|1|1|1G|billing=1,cpu=1,mem=1G,node=1|"
	                "crazy|name",
	                &r, &err)))
	{
		CHECK(strstr(r.extra.data, "\"JobName\": \"crazy|name\"") != NULL);
		CHECK_STR(anomaly(&r, 0), "JobName \"crazy|name\" holds the delimiter \"|\"");
		CHECK_DBL(r.req_mem_bytes, 1073741824.0, 0);
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* license with @, numeric TRES id kept as tres_1001 */
	if (CHECK(parse(edge_header,
	                "7103|7103|bo|chem|cpu|2024-05-01T11:00:00|2024-05-01T11:00:10|2024-05-01T11:"
	                "20:10|00:20:00|01:00:00|COMPLETED|0:0|1|1|4000M|cpu=1,license/matlab@slurmdb="
	                "1,mem=4000M,node=1,1001=5|lic",
	                &r, &err)))
	{
		CHECK_DBL(rv_amount(r.alloc_tres, "license/matlab@slurmdb", &kind), 1, 0);
		CHECK_DBL(rv_amount(r.alloc_tres, "tres_1001", &kind), 5, 0);
		CHECK_STR(anomaly(&r, 0), "AllocTRES: TRES id 1001 has no name (kept as tres_1001)");
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* het step, 1.50G, Partition_Limit */
	if (CHECK(parse(edge_header,
	                "7106+1.0|7107.0||astro||2024-05-01T14:00:35|2024-05-01T14:00:35|2024-05-01T14:"
	                "10:25|00:09:50|Partition_Limit|COMPLETED|0:0|1|4|1.50G|cpu=4,mem=4G,node=1|"
	                "hostname",
	                &r, &err)))
	{
		CHECK(r.het_job_id == 7106 && r.het_offset == 1 && r.job_seq == 7107);
		CHECK_STR(S(r.step), "0");
		CHECK_STR(S(r.user), "(null)");
		CHECK(!r.has_timelimit);
		CHECK_STR(anomaly(&r, 0), "Timelimit is Partition_Limit");
		CHECK_DBL(r.req_mem_bytes, 1.5 * 1073741824.0, 0);
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* epochs */
	if (CHECK(parse("JobID|Submit|Eligible|Start|End",
	                "4107219|1435350142|1435350142|1435665844|"
	                "1435716293",
	                &r, &err)))
	{
		CHECK(r.end.kind == FS_ST_EPOCH && r.end.epoch == 1435716293);
		CHECK(r.job_seq == 4107219);
		fs_sacct_record_release(&r, &unit_alloc);
	}
	/* too few fields (a newline in the job name) and a -p header */
	CHECK(!parse("JobID|JobName|", "|", &r, &err));
	CHECK_STR(err.detail, "The row has 1 field but the header names 2 at character 1.");
	if (CHECK(parse("JobID|JobName|", "51180322|f20", &r, &err)))
	{
		CHECK_STR(anomaly(&r, 0), "row does not end with \"|\" as its header does (sacct -p): "
		                          "the record may go on in the next line");
		fs_sacct_record_release(&r, &unit_alloc);
	}
	CHECK(!parse("JobID|State", "12x|COMPLETED", &r, &err));
	CHECK_STR(err.detail, "Unexpected character in JobID at character 3.");
	CHECK(!parse("JobID|Elapsed", "12|1:60:00", &r, &err));
	CHECK(!parse("JobID|Submit", "12|2024-02-30T00:00:00", &r, &err));
	CHECK_STR(err.detail, "Submit is not a valid date and time at character 4.");
	CHECK(!parse("JobID|AllocTRES", "12|cpu=4,cpu=5", &r, &err));
	CHECK(!parse("JobID|State", "12|A|B", &r, &err));
	CHECK(!parse("JobID|JobID", "12|13", &r, &err));
}

static void
test_durations(void)
{
	double s = -1;
	bool isnull;
	const char *why;
	fs_error err;

	CHECK(fs_slurm_duration("3-00:00:00", 10, &s, &isnull, &why, &err) == FS_OK && !isnull);
	CHECK_DBL(s, 259200, 0);
	CHECK(fs_slurm_duration("16:01.272", 9, &s, &isnull, &why, &err) == FS_OK);
	CHECK_DBL(s, 961.272, 1e-9);
	CHECK(fs_slurm_duration("451-06:00:24", 12, &s, &isnull, &why, &err) == FS_OK);
	CHECK_DBL(s, 451 * 86400.0 + 6 * 3600 + 24, 0);
	CHECK(fs_slurm_duration("UNLIMITED", 9, &s, &isnull, &why, &err) == FS_OK && isnull);
	CHECK(fs_slurm_duration("", 0, &s, &isnull, &why, &err) == FS_OK && isnull);
	CHECK(fs_slurm_duration("90", 2, &s, &isnull, &why, &err) == FS_ERR_SYNTAX);
	CHECK(fs_slurm_duration("1-25:00:00", 10, &s, &isnull, &why, &err) == FS_ERR_SYNTAX);
	CHECK(fs_slurm_duration("1:2x", 4, &s, &isnull, &why, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Unexpected character at character 4.");
}

/* The path of rows[i] as text, written by fs_sacctmgr_assoc_path (sb must be freed). */
static void
assoc_path_text(const fs_assoc_row *rows, size_t i, fs_sb *sb)
{
	uint8_t *sp = malloc(rows[i].pathlen);

	fs_sacctmgr_assoc_path(rows, i, sp);
	CHECK(fs_sp_size(sp) == rows[i].pathlen && fs_sp_nlevel(sp) == rows[i].depth);
	fs_sb_init(sb, &unit_alloc, 16);
	fs_sp_format(sb, sp);
	free(sp);
}

static void
test_assoc(void)
{
	static const char dump[] = "Cluster - 'tux':Fairshare=1:QOS='normal'\n"
	                           "Parent - 'root'\n"
	                           "Account - 'science':Description='a:b':Fairshare=50\n"
	                           "Parent - 'science'\n"
	                           "Account - 'shared':Fairshare=2147483647\n"
	                           "Parent - 'shared'\n"
	                           "User - 'brian':DefaultAccount='shared':Fairshare=7\n";
	static const char list[] = "Cluster|Account|User|Partition|Share|ParentName\n"
	                           "tux|root|||1|\n"
	                           "tux|A|||40|root\n"
	                           "tux|B|||parent|A\n"
	                           "tux|B|u1||3|\n";
	fs_assoc_row *rows;
	size_t n;
	fs_error err;
	fs_sb sb;

	if (CHECK(fs_sacctmgr_assoc(dump, strlen(dump), &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 4);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "science.shared.brian");
		CHECK(rows[2].from_parent && !rows[2].has_shares);
		CHECK(rows[3].has_shares && rows[3].shares == 7 && rows[3].line == 7);
		CHECK_STR(S(rows[3].account), "shared");
		CHECK(rows[0].depth == 0 && rows[0].pathlen == 2);
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_release(rows, n, &unit_alloc);
	}
	if (CHECK(fs_sacctmgr_assoc(list, strlen(list), &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 4);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "A.B.u1");
		CHECK(rows[2].from_parent);
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_release(rows, n, &unit_alloc);
	}
	CHECK(fs_sacctmgr_assoc("Parent - 'x'\n", 13, &unit_alloc, &rows, &n, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "invalid sacctmgr association data at line 1: \"Parent - 'x'\"");
}

/* "<prefix><i zero-padded to width>" into buf. */
static void
padded_name(char *buf, size_t cap, const char *prefix, int i, int width)
{
	snprintf(buf, cap, "%s%0*d", prefix, width, i);
}

/*
 * A deep dump: `depth` nested accounts with 250-byte names, then `users` users under the
 * deepest. The rows keep only their labels (linear memory); every written path equals the one
 * built label by label with fs_sp_concat from its parent's, and a 1025th level is refused with
 * sharepath's depth message.
 */
static void
test_assoc_deep(void)
{
	enum
	{
		depth = 1000,
		users = 2000,
		width = 250
	};
	fs_sb doc;
	char name[width + 1], prev[width + 1];
	fs_assoc_row *rows;
	size_t n, i;
	fs_error err;
	uint8_t *want = NULL, *got;
	size_t wantlen;
	int k;

	fs_sb_init(&doc, &unit_alloc, 1 << 20);
	fs_sb_appendf(&doc, "Cluster - 'c'\n");
	snprintf(prev, sizeof(prev), "root");
	for (k = 1; k <= depth; k++)
	{
		padded_name(name, sizeof(name), "a", k, width - 1);
		fs_sb_appendf(&doc, "Parent - '%s'\nAccount - '%s':Fairshare=%d\n", prev, name, k);
		memcpy(prev, name, sizeof(name));
	}
	fs_sb_appendf(&doc, "Parent - '%s'\n", prev);
	for (k = 1; k <= users; k++)
	{
		padded_name(name, sizeof(name), "u", k, width - 1);
		fs_sb_appendf(&doc, "User - '%s'\n", name);
	}
	if (CHECK(fs_sacctmgr_assoc(doc.data, doc.len, &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 1 + depth + users);
		CHECK(rows[n - 1].depth == depth + 1 && rows[n - 1].parent == depth);
		CHECK(rows[n - 1].pathlen == 2 + (size_t) (depth + 1) * (1 + width));
		got = malloc(rows[n - 1].pathlen);
		/* the path of each account from its parent's, as the rows stored them before */
		fs_sp_from_labels(NULL, NULL, 0, &unit_alloc, 0, &want, &wantlen, &err);
		for (i = 1; i <= depth; i++)
		{
			uint8_t *next;

			fs_sp_concat(want, NULL, rows[i].label.p, rows[i].label.len, &unit_alloc, 0, &next,
			             &wantlen, &err);
			free(want);
			want = next;
			fs_sacctmgr_assoc_path(rows, i, got);
			if (!CHECK(wantlen == rows[i].pathlen && memcmp(want, got, wantlen) == 0))
				break;
		}
		for (i = depth + 1; i < n; i += users / 7)
		{
			uint8_t *user;

			fs_sp_concat(want, NULL, rows[i].user.p, rows[i].user.len, &unit_alloc, 0, &user,
			             &wantlen, &err);
			fs_sacctmgr_assoc_path(rows, i, got);
			CHECK(wantlen == rows[i].pathlen && memcmp(user, got, wantlen) == 0);
			free(user);
		}
		free(want);
		free(got);
		fs_sacctmgr_assoc_release(rows, n, &unit_alloc);
	}
	free(doc.data);

	/* 1025 levels: one more than a sharepath holds */
	fs_sb_init(&doc, &unit_alloc, 1 << 16);
	fs_sb_appendf(&doc, "Cluster - 'c'\nParent - 'root'\n");
	for (k = 1; k <= 1025; k++)
		fs_sb_appendf(&doc, "Account - 'a%d'\nParent - 'a%d'\n", k, k);
	CHECK(fs_sacctmgr_assoc(doc.data, doc.len, &unit_alloc, &rows, &n, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Sharepath would have 1025 labels.");
	CHECK(strstr(err.message, "at line 2051:") != NULL);
	free(doc.data);
}

static size_t polls;

static void
count_poll(void)
{
	polls++;
}

/*
 * A header of 80,000 columns: parsed in linear time (a quadratic duplicate check took seconds),
 * with a duplicate found at its position.
 */
static void
test_wide_header(void)
{
	enum
	{
		ncols = 80000
	};
	fs_sb hdr;
	fs_sacct_header h;
	fs_error err;
	fs_status st;
	int k;

	fs_sb_init(&hdr, &unit_alloc, (size_t) ncols * 8);
	for (k = 0; k < ncols; k++)
		fs_sb_appendf(&hdr, k ? "|c%d" : "c%d", k);
	/* the header's loops poll for interrupts: a long one can be cancelled */
	polls = 0;
	fs_interrupt_hook = count_poll;
	st = fs_sacct_header_parse(hdr.data, hdr.len, &unit_alloc, &h, &err);
	fs_interrupt_hook = NULL;
	CHECK(polls >= hdr.len / 1024);
	if (CHECK(st == FS_OK))
	{
		CHECK(h.ncols == ncols && h.names[ncols - 1].len == 6);
		fs_sacct_header_release(&h, &unit_alloc);
	}
	fs_sb_appendf(&hdr, "|c4242");
	CHECK(fs_sacct_header_parse(hdr.data, hdr.len, &unit_alloc, &h, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Duplicate column name at character") != NULL);
	CHECK(fs_char_pos(hdr.data, hdr.len - 5) ==
	      (size_t) strtoul(strstr(err.detail, "character ") + 10, NULL, 10));
	/* a name that differs only in case from a known one is the same column */
	CHECK(fs_sacct_header_parse("JobID|x|jobid", 13, &unit_alloc, &h, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "at character 9") != NULL);
	free(hdr.data);
}

/* Every row of the sample file parses or fails with a reason; none crashes or leaks. */
static void
test_sample_file(void)
{
	FILE *fp = fopen("sql/data/sacct_parsable2_samples.txt", "r");
	char line[4096], header[4096] = "";
	int parsed = 0, failed = 0;
	bool want_header = false;

	if (!CHECK(fp != NULL))
		return;
	while (fgets(line, sizeof(line), fp))
	{
		size_t len = strlen(line);
		fs_sacct_record r;
		fs_error err;

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strncmp(line, "# block:", 8) == 0)
		{
			want_header = true;
			continue;
		}
		if (len == 0)
			continue;
		if (want_header)
		{
			memcpy(header, line, len + 1);
			want_header = false;
			continue;
		}
		if (parse(header, line, &r, &err))
		{
			parsed++;
			fs_sacct_record_release(&r, &unit_alloc);
		}
		else
		{
			printf("  sample row \"%s\": %s\n", line, err.detail);
			CHECK(err.message[0] != '\0' && err.detail[0] != '\0');
			failed++;
		}
	}
	fclose(fp);
	if (!CHECK(parsed + failed == 71 && failed == 1)) /* "|": a newline in a job name */
		printf("parsed %d, failed %d\n", parsed, failed);
}

void
test_sacct(void)
{
	test_xdmod_rows();
	test_edges();
	test_durations();
	test_assoc();
	test_assoc_deep();
	test_wide_header();
	test_sample_file();
}
