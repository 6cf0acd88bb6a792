/* test_slurm_jobcomp.c: unit tests of src/core/load/slurm_jobcomp.c. */
#include "unit.h"
#include "load/slurm_jobcomp.h"
#include "types/resvec.h"

#include <stdio.h>
#include <string.h>

static char *
span(fs_str s, char *buf, size_t cap)
{
	snprintf(buf, cap, "%.*s", (int) s.len, s.s ? s.s : "");
	return buf;
}

/* The record's anomalies joined with "; ". */
static char *
anomalies(const fs_sacct_record *r, char *buf, size_t cap)
{
	const char *p = r->anomalies.data;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < r->nanomalies; i++)
	{
		size_t l = strlen(buf);

		snprintf(buf + l, cap - l, "%s%s", i ? "; " : "", p);
		p += strlen(p) + 1;
	}
	return buf;
}

/* A Slurm 23.02 line of an array task, as jobcomp_filetxt.c writes it (trailing space). */
static const char line23[] =
    "JobId=68 UserId=sbooth(73964) GroupId=sbooth(1000) Name=my job.sh JobState=TIMEOUT "
    "Partition=debug TimeLimit=1505 StartTime=2019-11-18T22:41:14 EndTime=2019-11-18T22:41:24 "
    "NodeList=n[1-2] NodeCnt=2 ProcCnt=8 WorkDir=/home/s b/run a=1 ReservationName= "
    "Tres=cpu=8,mem=4G,node=2,billing=8 Account=testaccount QOS=normal WcKey= Cluster=cluster "
    "SubmitTime=2019-11-18T22:34:53 EligibleTime=unknown ArrayJobId=40 ArrayTaskId=27 "
    "DerivedExitCode=0:0 ExitCode=0:15 \n";

/* The row sacct --parsable2 prints for the same job. */
static const char row_header[] =
    "JobID|JobIDRaw|User|Group|JobName|State|Partition|Timelimit|Start|End|NNodes|NCPUS|ReqTRES|"
    "Account|QOS|Cluster|Submit|Eligible|DerivedExitCode|ExitCode";
static const char row[] = "40_27|68|sbooth|sbooth|my job.sh|TIMEOUT|debug|1-01:05:00|"
                          "2019-11-18T22:41:14|2019-11-18T22:41:24|2|8|"
                          "cpu=8,mem=4G,node=2,billing=8|testaccount|normal|cluster|"
                          "2019-11-18T22:34:53|Unknown|0:0|0:15";

static void
same_as_row(void)
{
	fs_slurm_jobcomp jc;
	fs_sacct_header h;
	fs_sacct_record a, b;
	fs_error err;
	char x[512], y[512];

	CHECK(fs_slurm_jobcomp_init(&jc, &unit_alloc, &err) == FS_OK);
	CHECK(fs_slurm_jobcomp_parse(&jc, line23, strlen(line23), &unit_alloc, &a, &err) == FS_OK);
	CHECK(fs_sacct_header_parse(row_header, strlen(row_header), "|", 1, &unit_alloc, &h, &err) ==
	      FS_OK);
	CHECK(fs_sacct_parse_row(&h, row, strlen(row), &unit_alloc, &b, &err) == FS_OK);
	CHECK_STR(span(a.job_id, x, sizeof(x)), span(b.job_id, y, sizeof(y)));
	CHECK_STR(span(a.job_id, x, sizeof(x)), "40_27");
	CHECK_STR(span(a.job_id_raw, x, sizeof(x)), "68");
	CHECK(a.has_array_job_id && a.array_job_id == 40 && a.has_array_task_id &&
	      a.array_task_id == 27);
	CHECK_STR(span(a.user, x, sizeof(x)), "sbooth");
	CHECK_STR(span(a.group, x, sizeof(x)), "sbooth");
	CHECK_STR(span(a.state, x, sizeof(x)), span(b.state, y, sizeof(y)));
	CHECK_STR(span(a.partition, x, sizeof(x)), "debug");
	CHECK_STR(span(a.account, x, sizeof(x)), "testaccount");
	CHECK_STR(span(a.cluster, x, sizeof(x)), "cluster");
	CHECK(a.has_timelimit && a.timelimit_s == b.timelimit_s);
	CHECK_DBL(a.timelimit_s, 1505 * 60.0, 0);
	CHECK(a.start.kind == FS_ST_LOCAL && a.start.hour == 22 && a.start.min == 41 &&
	      a.start.sec == 14);
	CHECK(a.eligible.kind == b.eligible.kind && a.eligible.kind == FS_ST_NONE);
	CHECK(a.has_ncpus && a.ncpus == 8 && a.has_nnodes && a.nnodes == 2);
	CHECK(a.has_exit_code && a.exit_code == b.exit_code && a.has_signal && a.signal == 15);
	CHECK(a.req_tres && b.req_tres && a.req_tres_len == b.req_tres_len &&
	      memcmp(a.req_tres, b.req_tres, a.req_tres_len) == 0);
	CHECK(a.alloc_tres == NULL);
	CHECK_STR(anomalies(&a, x, sizeof(x)), anomalies(&b, y, sizeof(y)));
	/* uid, gid and the columns without a field of their own go to extra, as sacct's would */
	CHECK_STR(unit_sacct_extra(&a, "UID"), "73964");
	CHECK_STR(unit_sacct_extra(&a, "GID"), "1000");
	CHECK_STR(unit_sacct_extra(&a, "WorkDir"), "/home/s b/run a=1");
	CHECK_STR(unit_sacct_extra(&a, "JobName"), "my job.sh");
	CHECK_STR(unit_sacct_extra(&a, "NodeList"), "n[1-2]");
	fs_sacct_record_free(&a, &unit_alloc);
	fs_sacct_record_free(&b, &unit_alloc);
	fs_sacct_header_free(&h, &unit_alloc);
	fs_slurm_jobcomp_free(&jc, &unit_alloc);
}

/* Each line with the problem in its DETAIL, or with its anomalies. */
static void
one(const char *line, fs_status want, const char *text)
{
	fs_slurm_jobcomp jc;
	fs_sacct_record r;
	fs_error err;
	char x[1024];
	fs_status st;

	CHECK(fs_slurm_jobcomp_init(&jc, &unit_alloc, &err) == FS_OK);
	st = fs_slurm_jobcomp_parse(&jc, line, strlen(line), &unit_alloc, &r, &err);
	CHECK(st == want);
	if (st == FS_OK)
	{
		CHECK_STR(anomalies(&r, x, sizeof(x)), text);
		fs_sacct_record_free(&r, &unit_alloc);
	}
	else
		CHECK_STR(err.detail, text);
	fs_slurm_jobcomp_free(&jc, &unit_alloc);
}

static void
edges(void)
{
	fs_slurm_jobcomp jc;
	fs_sacct_record r;
	fs_error err;
	char x[256];
	static const char het[] =
	    "JobId=91 UserId=ann(5) GroupId=ann(5) Name=x JobState=CANCELLED Partition=p "
	    "TimeLimit=UNLIMITED StartTime=Unknown EndTime=2024-03-01T10:00:00 NodeList=(null) "
	    "NodeCnt=0 ProcCnt=0 WorkDir=/ ReservationName=r1 Tres= Account=a QOS=q WcKey=w "
	    "Cluster=c SubmitTime=2024-03-01T09:00:00 EligibleTime=2024-03-01T09:00:00 "
	    "HetJobId=90 HetJobOffset=1 DerivedExitCode=0:0 ExitCode=0:0";
	static const char old[] = "JobId=7 UserId=bob GroupId=users Name=a JobState=COMPLETED "
	                          "TimeLimit=4294967294 Gres=gpu:2 BlockId=RMP1 Rotate=yes";

	CHECK(fs_slurm_jobcomp_init(&jc, &unit_alloc, &err) == FS_OK);
	CHECK(fs_slurm_jobcomp_parse(&jc, het, strlen(het), &unit_alloc, &r, &err) == FS_OK);
	CHECK_STR(span(r.job_id, x, sizeof(x)), "90+1");
	CHECK(r.has_het_job_id && r.het_job_id == 90 && r.has_het_offset && r.het_offset == 1);
	CHECK(!r.has_timelimit && r.start.kind == FS_ST_NONE);
	CHECK_STR(unit_sacct_extra(&r, "Reservation"), "r1");
	CHECK_STR(unit_sacct_extra(&r, "WCKey"), "w");
	fs_sacct_record_free(&r, &unit_alloc);
	/* no "(id)", Gres of the releases before Tres, keys of no release: kept in extra */
	CHECK(fs_slurm_jobcomp_parse(&jc, old, strlen(old), &unit_alloc, &r, &err) == FS_OK);
	CHECK_STR(span(r.user, x, sizeof(x)), "bob");
	CHECK(!r.has_timelimit);
	CHECK_STR(unit_sacct_extra(&r, "ReqGRES"), "gpu:2");
	CHECK_STR(unit_sacct_extra(&r, "BlockId"), "RMP1");
	CHECK_STR(unit_sacct_extra(&r, "Rotate"), "yes");
	CHECK_STR(unit_sacct_extra(&r, "UID"), "(null)");
	CHECK_STR(anomalies(&r, x, sizeof(x)),
	          "Timelimit is Partition_Limit; key BlockId= is not one jobcomp/filetxt writes: kept "
	          "in extra; key Rotate= is not "
	          "one jobcomp/filetxt writes: kept in extra");
	fs_sacct_record_free(&r, &unit_alloc);
	fs_slurm_jobcomp_free(&jc, &unit_alloc);

	one("JobId=1 TimeLimit=30", FS_OK, "");
	one("", FS_ERR_SYNTAX, "Empty line.");
	one("  \n", FS_ERR_SYNTAX, "Empty line.");
	one("UserId=a(1) JobId=1", FS_ERR_SYNTAX,
	    "The line does not start with JobId= at character 1.");
	one("JobId=1 Partition=a b", FS_ERR_SYNTAX, "Value of Partition= has a space at character 21.");
	one("JobId=1 Name=a JobState=X JobState=Y", FS_ERR_SYNTAX,
	    "Key JobState= appears a second time at character 27.");
	one("JobId=1 UserId=a(x)", FS_ERR_SYNTAX,
	    "UserId= must be a name, or a name and its id as name(id) at character 9.");
	one("JobId=1 TimeLimit=5m", FS_ERR_SYNTAX,
	    "TimeLimit= must be minutes or UNLIMITED at character 9.");
	one("JobId= Name=a", FS_ERR_SYNTAX, "JobId= must be a whole number at character 1.");
	one("JobId=x1", FS_ERR_SYNTAX, "JobId= must be a whole number at character 1.");
	one("JobId=1 ArrayJobId=4", FS_ERR_SYNTAX,
	    "ArrayJobId= and ArrayTaskId= come together at character 9.");
	one("JobId=1 HetJobOffset=4", FS_ERR_SYNTAX,
	    "HetJobId= and HetJobOffset= come together at character 9.");
	one("JobId=1 Account=a\x1f", FS_ERR_SYNTAX,
	    "Value of Account= holds a control character at character 9.");
	one("JobId=1 StartTime=yesterday", FS_ERR_SYNTAX,
	    "Start must be YYYY-MM-DDTHH:MM:SS or epoch seconds.");
}

void
test_slurm_jobcomp(void)
{
	same_as_row();
	edges();
}
