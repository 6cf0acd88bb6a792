/* test_sacct.c: unit tests of src/core/load/sacct.c with rows of sacct_parsable2_samples.txt. */
#include "unit.h"
#include "types/resvec.h"
#include "load/sacct.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
parse_delim(const char *header, const char *delim, const char *line, fs_sacct_record *r,
            fs_error *err)
{
	fs_sacct_header h;
	fs_status st;

	if (fs_sacct_header_parse(header, strlen(header), delim, strlen(delim), &unit_alloc, &h, err) !=
	    FS_OK)
		return false;
	st = fs_sacct_parse_row(&h, line, strlen(line), &unit_alloc, r, err);
	fs_sacct_header_free(&h, &unit_alloc);
	return st == FS_OK;
}

static bool
parse(const char *header, const char *line, fs_sacct_record *r, fs_error *err)
{
	return parse_delim(header, "|", line, r, err);
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
		CHECK_STR(unit_cstr(r.state), "CANCELLED");
		CHECK(r.has_cancelled_by && r.cancelled_by == 102216);
		CHECK(r.has_job_seq && r.job_seq == 4107166);
		CHECK_STR(unit_cstr(r.step), "(null)");
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
		CHECK_STR(unit_sacct_extra(&r, "JobName"), "100-Floors-of-Frights");
		CHECK_STR(unit_sacct_extra(&r, "UID"), "102216");
		fs_sacct_record_free(&r, &unit_alloc);
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
		CHECK_STR(unit_sacct_extra(&r, "array_task_spec"), "9-11,20");
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* unknown state, Unknown Start (pending) */
	if (CHECK(parse(xdmod_header,
	                "3483276|3483276|phillips|black|qos|taifl|taifl|311132|honbu|311132|2020-07-"
	                "01T15:28:17|2020-07-01T15:28:17|Unknown|2020-07-01T15:28:17|00:00:00|0:0|BAR|"
	                "1|40|40|120000Mn|billing=40,cpu=40,mem=120000M,node=1||3-00:00:00|cpn-k07-02-"
	                "01|21PyNP4a4b",
	                &r, &err)))
	{
		CHECK_STR(unit_cstr(r.state), "BAR");
		CHECK(r.start.kind == FS_ST_NONE);
		CHECK_STR(anomaly(&r, 0), "unknown State \"BAR\"");
		CHECK_STR(anomaly(&r, 1), "Start is Unknown");
		CHECK(r.alloc_tres == NULL && r.req_tres != NULL);
		fs_sacct_record_free(&r, &unit_alloc);
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
		CHECK_STR(unit_sacct_extra(&r, "JobName"), "crazy|name");
		CHECK_STR(anomaly(&r, 0), "JobName \"crazy|name\" holds the delimiter \"|\"");
		CHECK_DBL(r.req_mem_bytes, 1073741824.0, 0);
		fs_sacct_record_free(&r, &unit_alloc);
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
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* het step, 1.50G, Partition_Limit */
	if (CHECK(parse(edge_header,
	                "7106+1.0|7107.0||astro||2024-05-01T14:00:35|2024-05-01T14:00:35|2024-05-01T14:"
	                "10:25|00:09:50|Partition_Limit|COMPLETED|0:0|1|4|1.50G|cpu=4,mem=4G,node=1|"
	                "hostname",
	                &r, &err)))
	{
		CHECK(r.het_job_id == 7106 && r.het_offset == 1 && r.job_seq == 7107);
		CHECK_STR(unit_cstr(r.step), "0");
		CHECK_STR(unit_cstr(r.user), "(null)");
		CHECK(!r.has_timelimit);
		CHECK_STR(anomaly(&r, 0), "Timelimit is Partition_Limit");
		CHECK_DBL(r.req_mem_bytes, 1.5 * 1073741824.0, 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* epochs */
	if (CHECK(parse("JobID|Submit|Eligible|Start|End",
	                "4107219|1435350142|1435350142|1435665844|"
	                "1435716293",
	                &r, &err)))
	{
		CHECK(r.end.kind == FS_ST_EPOCH && r.end.epoch == 1435716293);
		CHECK(r.job_seq == 4107219);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* too few fields (a newline in the job name) and a -p header */
	CHECK(!parse("JobID|JobName|", "|", &r, &err));
	CHECK_STR(err.detail, "The row has 1 field but the header names 2 at character 1.");
	if (CHECK(parse("JobID|JobName|", "51180322|f20", &r, &err)))
	{
		CHECK_STR(anomaly(&r, 0), "row does not end with \"|\" as its header does (sacct -p): "
		                          "the record may go on in the next line");
		fs_sacct_record_free(&r, &unit_alloc);
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
		fs_sb_appendf(&hdr, k ? "|c%d" : "JobName", k); /* one known column: c0 would be none */
	/* the header's loops poll for interrupts: a long one can be cancelled */
	polls = 0;
	fs_interrupt_hook = count_poll;
	st = fs_sacct_header_parse(hdr.data, hdr.len, "|", 1, &unit_alloc, &h, &err);
	fs_interrupt_hook = NULL;
	CHECK(polls >= hdr.len / 1024);
	if (CHECK(st == FS_OK))
	{
		CHECK(h.ncols == ncols && h.names[ncols - 1].len == 6);
		fs_sacct_header_free(&h, &unit_alloc);
	}
	fs_sb_appendf(&hdr, "|c4242");
	CHECK(fs_sacct_header_parse(hdr.data, hdr.len, "|", 1, &unit_alloc, &h, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Duplicate column name at character") != NULL);
	CHECK(fs_char_pos(hdr.data, hdr.len - 5) ==
	      (size_t) strtoul(strstr(err.detail, "character ") + 10, NULL, 10));
	/* a name that differs only in case from a known one is the same column */
	CHECK(fs_sacct_header_parse("JobID|x|jobid", 13, "|", 1, &unit_alloc, &h, &err) ==
	      FS_ERR_SYNTAX);
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
			fs_sacct_record_free(&r, &unit_alloc);
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

/*
 * Another --delimiter and --noheader exports, on real rows: Peregrine (the slurm-jobinfo
 * project's test data, `sacct --parsable --noheader --delimiter=☃`) and Phillips (XDMoD's
 * reference data, `--parsable2 --noheader` with XDMoD's --format list).
 */
static void
test_delimiters(void)
{
	/* the slurm-jobinfo --format list, with the NTasks and TRESUsage columns its rows carry */
	static const char peregrine_format[] =
	    "JobID,JobName,User,Partition,NodeList,NNodes,ncpus,NTasks,State,Submit,start,end,"
	    "timelimit,elapsed,TotalCPU,UserCPU,SystemCPU,ReqMem,MaxRSS,TRESUsageInTot,"
	    "TRESUsageOutTot,MaxDiskWrite,MaxDiskRead,MaxRSSNode,MaxDiskWriteNode,MaxDiskReadNode,"
	    "Comment";
	static const char peregrine_row[] =
	    "20940996\xe2\x98\x83"
	    "4CGN1IHUEDFZL\xe2\x98\x83user6\xe2\x98\x83regular\xe2\x98\x83"
	    "mycluster2-node205\xe2\x98\x83"
	    "1\xe2\x98\x83"
	    "1\xe2\x98\x83\xe2\x98\x83"
	    "FAILED\xe2\x98\x83"
	    "2021-07-08T04:09:15\xe2\x98\x83"
	    "2021-07-12T18:03:33\xe2\x98\x83"
	    "2021-07-14T15:01:15\xe2\x98\x83"
	    "7-00:00:00\xe2\x98\x83"
	    "1-20:57:42\xe2\x98\x83"
	    "1-20:43:57\xe2\x98\x83"
	    "1-20:42:03\xe2\x98\x83"
	    "01:53.961\xe2\x98\x83"
	    "2Gn"
	    "\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83"
	    "\xe2\x98\x83\xe2\x98\x83\xe2\x98\x83";
	static const char xdmod_format[] =
	    "jobid,jobidraw,cluster,partition,qos,account,group,gid,user,uid,submit,eligible,start,"
	    "end,elapsed,exitcode,state,nnodes,ncpus,reqcpus,reqmem,reqtres,alloctres,timelimit,"
	    "nodelist,jobname";
	static const char xdmod_row[] =
	    "165381|165381|phillips|crumpet|coconut-cream|chaff|chaff|45789|chaff|196224|"
	    "2016-12-27T20:12:01|2016-12-27T20:12:01|2016-12-27T20:12:01|2016-12-27T20:12:27|"
	    "5-00:00:26|1:0|TIMEOUT|8|64|64|8000Mn|cpu=64,mem=62.50G,node=8|"
	    "billing=64,cpu=64,mem=62.50G,node=8|5-00:00:00|cpn-f13-03-[01-02],cpn-f13-04-[01-02],"
	    "cpn-f13-05-[01-02],cpn-f13-06-[01-02]|"
	    "3eb3511ffb7fb2f36d4adddafd5c187619f5395daa96a93d2dd66a636f241599";
	fs_sacct_record r;
	fs_sacct_header h;
	fs_error err;

	/* the ☃ row against its --format list: 28 fields for 27 names, the last one sacct -p's */
	if (CHECK(parse_delim(peregrine_format, "\xe2\x98\x83", peregrine_row, &r, &err)))
	{
		CHECK_STR(unit_cstr(r.job_id), "20940996");
		CHECK_STR(unit_cstr(r.user), "user6");
		CHECK_STR(unit_cstr(r.state), "FAILED");
		CHECK(r.has_ncpus && r.ncpus == 1 && r.has_nnodes && r.nnodes == 1);
		CHECK(r.has_timelimit && r.timelimit_s == 7 * 86400);
		CHECK(r.has_elapsed && r.elapsed_s == 86400 + 20 * 3600 + 57 * 60 + 42);
		CHECK(r.has_req_mem && r.req_mem_bytes == 2.0 * 1024 * 1024 * 1024); /* 2G per node */
		CHECK(r.start.kind == FS_ST_LOCAL && r.start.mday == 12 && r.start.hour == 18);
		CHECK(r.nanomalies == 0);
		CHECK_STR(unit_sacct_extra(&r, "NTasks"), "(null)");
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* the same list as a header line split on ☃, with the --format= of the command line */
	CHECK(fs_sacct_header_parse("--format=JobID,jobname%30,User", 30, "\xe2\x98\x83", 3,
	                            &unit_alloc, &h, &err) == FS_OK);
	CHECK(h.format_list && h.ncols == 3 && h.names[1].len == 7 && h.at[FS_SC_JOBNAME] == 1);
	fs_sacct_header_free(&h, &unit_alloc);
	/* with the default delimiter the ☃ row is one field, and its first row no header */
	CHECK(!parse(peregrine_row, peregrine_row, &r, &err));
	CHECK(strstr(err.message, "invalid sacct header") != NULL);
	CHECK(strstr(err.detail, "No column is one sacct_row knows") != NULL);
	CHECK(strstr(err.detail, "split on \"|\" gives 1 name.") != NULL);
	CHECK(strstr(err.hint, "--delimiter") != NULL && strstr(err.hint, "--noheader") != NULL);
	/* ;|; rows (slurm2sql's delimiter) split on "|" name nothing known either */
	CHECK(!parse("JobID;|;State;|;Elapsed", "1;|;COMPLETED;|;00:01:00", &r, &err));
	CHECK(strstr(err.detail, "gives 3 names") != NULL);
	if (CHECK(parse_delim("JobID;|;State;|;Elapsed", ";|;", "1;|;COMPLETED;|;00:01:00", &r, &err)))
	{
		CHECK_STR(unit_cstr(r.state), "COMPLETED");
		CHECK(r.has_elapsed && r.elapsed_s == 60);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* a job name holding the delimiter is named with it */
	if (CHECK(parse_delim("JobID^|^JobName^|^State", "^|^", "7^|^a^|^b^|^FAILED", &r, &err)))
	{
		CHECK_STR(anomaly(&r, 0), "JobName \"a^|^b\" holds the delimiter \"^|^\"");
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* XDMoD's --noheader rows against its --format list */
	if (CHECK(parse(xdmod_format, xdmod_row, &r, &err)))
	{
		CHECK_STR(unit_cstr(r.state), "TIMEOUT");
		CHECK(r.has_nnodes && r.nnodes == 8 && r.ncpus == 64);
		CHECK(r.has_req_mem && r.req_mem_bytes == 8 * 8000.0 * 1024 * 1024); /* 8000M a node */
		CHECK(r.has_elapsed && r.elapsed_s == 5 * 86400 + 26);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* the delimiter's own errors */
	CHECK(fs_sacct_header_parse("JobID", 5, "", 0, &unit_alloc, &h, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "delimiter is empty") != NULL);
	CHECK(fs_sacct_header_parse("JobID", 5,
	                            "0123456789012345678901234567890123456789012345678901"
	                            "234567890123456789",
	                            71, &unit_alloc, &h, &err) == FS_ERR_LIMIT);
	CHECK(strstr(err.detail, "71 bytes; at most 64") != NULL);
}

/*
 * ReqMem with the per-CPU flag of Slurm before 17.02 in bit 31: a real Phillips row (XDMoD's
 * reference data; its ReqTRES says mem=24000M, 8 CPUs × 3000M), and the 64-bit form.
 */
static void
test_reqmem_old_flag(void)
{
	static const char xdmod_header[] =
	    "JobID|JobIDRaw|Cluster|Partition|QOS|Account|Group|GID|User|UID|Submit|Eligible|Start|"
	    "End|Elapsed|ExitCode|State|NNodes|NCPUS|ReqCPUS|ReqMem|ReqTRES|AllocTRES|Timelimit|"
	    "NodeList|JobName";
	static const char xdmod_row[] =
	    "167758|167758|phillips|black|banana-cream|taifl|taifl|104733|honbu|330719|"
	    "2016-12-30T00:02:42|2016-12-30T00:02:42|2016-12-30T00:02:42|2016-12-30T00:03:06|00:00:24|"
	    "0:0|COMPLETED|1|8|8|2147486648Mn|cpu=8,mem=24000M,node=1|billing=8,cpu=8,mem=24000M,"
	    "node=1|1-06:00:00|cpn-f13-42-02|"
	    "7775eddc87c4fe8551668f14a76bb84f60eed698b453ec1abcaf78e93c2d9ed3";
	fs_sacct_record r;
	fs_error err;
	int kind;

	if (CHECK(parse(xdmod_header, xdmod_row, &r, &err)))
	{
		CHECK(r.has_req_mem && r.req_mem_bytes == 24000.0 * 1024 * 1024);
		CHECK(r.req_mem_bytes == rv_amount(r.req_tres, "mem", &kind));
		CHECK(r.nanomalies == 1);
		CHECK_STR(anomaly(&r, 0), "ReqMem \"2147486648Mn\" has the per-CPU flag of Slurm before "
		                          "17.02 in bit 31: read as 3000Mc");
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* the 64-bit form: 2^63 + 3000, which a double would round to 2^63 + 2048 */
	if (CHECK(parse("JobID|NCPUS|ReqMem", "1|8|9223372036854778808Mn", &r, &err)))
	{
		CHECK(r.req_mem_bytes == 24000.0 * 1024 * 1024);
		CHECK(strstr(anomaly(&r, 0), "in bit 63: read as 3000Mc") != NULL);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* printed by sacct 21.08 or later: no suffix */
	if (CHECK(parse("JobID|NCPUS|ReqMem", "1|2|2147483748M", &r, &err)))
	{
		CHECK(r.req_mem_bytes == 200.0 * 1024 * 1024);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* a step repeats the job's request; no CPU count leaves the size unknown */
	if (CHECK(parse("JobID|NCPUS|ReqMem", "1.batch|8|2147486648Mn", &r, &err)))
	{
		CHECK(!r.has_req_mem && r.nanomalies == 2);
		CHECK(strstr(anomaly(&r, 1), "on a step row") != NULL);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	if (CHECK(parse("JobID|ReqMem", "1|2147486648Mn", &r, &err)))
	{
		CHECK(!r.has_req_mem && strstr(anomaly(&r, 1), "no CPU count") != NULL);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	/* not the flag: bit 32 set, another unit, per CPU already, or beyond 64 bits */
	if (CHECK(parse("JobID|NNodes|ReqMem", "1|1|4294967296Mn", &r, &err)))
	{
		CHECK(r.req_mem_bytes == ldexp(4294967296.0, 20) && r.nanomalies == 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	if (CHECK(parse("JobID|NNodes|ReqMem", "1|1|2147486648Kn", &r, &err)))
	{
		CHECK(r.req_mem_bytes == 2147486648.0 * 1024 && r.nanomalies == 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	if (CHECK(parse("JobID|NCPUS|ReqMem", "1|1|2147486648Mc", &r, &err)))
	{
		CHECK(r.req_mem_bytes == ldexp(2147486648.0, 20) && r.nanomalies == 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	if (CHECK(parse("JobID|NNodes|ReqMem", "1|1|99999999999999999999Mn", &r, &err)))
	{
		/* not the flag, but a size no machine has */
		CHECK(r.nanomalies == 1 && strncmp(r.anomalies.data, "implausible size: ReqMem", 24) == 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
}

/* Values no Slurm writes: a cut Elapsed, an Elapsed over 68 years (not a Timelimit), ReqMem over
 * 1 EiB; both sides of each bound. (Elapsed far from End - Start is checked by the glue, after
 * the local times are read in their zone.) */
static void
test_implausible(void)
{
	static const struct
	{
		const char *header, *line, *note;
	} cases[] = {
	    {"JobID|Elapsed", "1|23:0",
	     "cut duration: Elapsed \"23:0\" is not a duration Slurm writes ([D-]HH:MM:SS); read as "
	     "M:S, 1380 s (a truncated line?)"},
	    {"JobID|Elapsed", "1|00:23:00", NULL},
	    {"JobID|Elapsed", "1|24855-03:14:07", NULL}, /* 2^31 - 1 s */
	    {"JobID|Elapsed", "1|24855-03:14:08",
	     "implausible duration: Elapsed \"24855-03:14:08\" is over 2^31 s (68 years)"},
	    {"JobID|Timelimit", "1|100000000000-00:00:00", NULL},
	    {"JobID|NCPUS|ReqMem", "1|1|1048576T", NULL},
	    {"JobID|NCPUS|ReqMem", "1|2|1048576Tc",
	     "implausible size: ReqMem \"1048576Tc\" is over 2^60 bytes (1 EiB)"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		fs_sacct_record r;
		fs_error err;

		if (!CHECK(parse(cases[i].header, cases[i].line, &r, &err)))
			continue;
		if (cases[i].note)
			CHECK(r.nanomalies == 1 && strcmp(r.anomalies.data, cases[i].note) == 0);
		else
			CHECK(r.nanomalies == 0);
		fs_sacct_record_free(&r, &unit_alloc);
	}
}

void
test_sacct(void)
{
	test_implausible();
	test_reqmem_old_flag();
	test_delimiters();
	test_xdmod_rows();
	test_edges();
	test_durations();
	test_wide_header();
	test_sample_file();
}
