/*
 * slurm_jobcomp.c: a jobcomp/filetxt completion line as the row sacct --parsable2 prints for the
 * job, read by the row reader. The keys and their forms follow Slurm's jobcomp_filetxt.c: dates
 * as local ISO 8601 (or Unknown), TimeLimit in minutes or UNLIMITED, UserId and GroupId as
 * name(id), ArrayJobId/ArrayTaskId and HetJobId/HetJobOffset only for such jobs, Tres as the
 * requested TRES (Gres in the releases before Tres), and the exit codes as status:signal.
 */
#include "load/slurm_jobcomp.h"

#include <stdio.h>
#include <string.h>

/* \x1f cannot occur in what Slurm writes but in a job's name, which is the row's last column. */
#define DELIM "\x1f"

/* Where each key's value goes in the row; FREE keys may hold spaces. */
typedef struct jkey
{
	const char *key, *column;
	bool free_text;
} jkey;

enum
{
	K_JOBID = 0,
	K_USERID,
	K_GROUPID,
	K_NAME,
	K_JOBSTATE,
	K_PARTITION,
	K_TIMELIMIT,
	K_START,
	K_END,
	K_NODELIST,
	K_NODECNT,
	K_PROCCNT,
	K_WORKDIR,
	K_RESV,
	K_TRES,
	K_GRES,
	K_ACCOUNT,
	K_QOS,
	K_WCKEY,
	K_CLUSTER,
	K_SUBMIT,
	K_ELIGIBLE,
	K_ARRAYJOB,
	K_ARRAYTASK,
	K_HETJOB,
	K_HETOFFSET,
	K_DERIVED,
	K_EXIT,
	K_N
};

static const jkey keys[K_N] = {
    {"JobId", NULL, false},
    {"UserId", NULL, false},
    {"GroupId", NULL, false},
    {"Name", "JobName", true},
    {"JobState", "State", false},
    {"Partition", "Partition", false},
    {"TimeLimit", "Timelimit", false},
    {"StartTime", "Start", false},
    {"EndTime", "End", false},
    {"NodeList", "NodeList", false},
    {"NodeCnt", "NNodes", false},
    {"ProcCnt", "NCPUS", false},
    {"WorkDir", "WorkDir", true},
    {"ReservationName", "Reservation", false},
    {"Tres", "ReqTRES", false},
    {"Gres", "ReqGRES", false},
    {"Account", "Account", false},
    {"QOS", "QOS", false},
    {"WcKey", "WCKey", false},
    {"Cluster", "Cluster", false},
    {"SubmitTime", "Submit", false},
    {"EligibleTime", "Eligible", false},
    {"ArrayJobId", NULL, false},
    {"ArrayTaskId", NULL, false},
    {"HetJobId", NULL, false},
    {"HetJobOffset", NULL, false},
    {"DerivedExitCode", "DerivedExitCode", false},
    {"ExitCode", "ExitCode", false},
};

/* The row's columns in order: JobID, JobIDRaw, User, UID, Group, GID, then every key with a
 * column but Name, then the unknown keys of the line, then JobName. */
static void
put_header(fs_sb *sb)
{
	int k;

	fs_sb_appendf(sb, "JobID" DELIM "JobIDRaw" DELIM "User" DELIM "UID" DELIM "Group" DELIM "GID");
	for (k = 0; k < K_N; k++)
		if (keys[k].column && k != K_NAME)
			fs_sb_appendf(sb, DELIM "%s", keys[k].column);
}

fs_status
fs_slurm_jobcomp_init(fs_slurm_jobcomp *jc, const fs_allocator *a, fs_error *err)
{
	fs_status st;

	jc->has_line_h = false;
	jc->line_text.data = NULL;
	fs_sb_init(&jc->text, a, 256);
	put_header(&jc->text);
	fs_sb_appendf(&jc->text, DELIM "JobName");
	st = fs_sacct_header_parse(jc->text.data, jc->text.len, DELIM, 1, a, &jc->h, err);
	if (st != FS_OK)
	{
		a->release(a->ctx, jc->text.data);
		return st;
	}
	fs_sb_init(&jc->row, a, 512);
	return FS_OK;
}

/* The last line's own header, once its record is done with. */
static void
drop_line_header(fs_slurm_jobcomp *jc, const fs_allocator *a)
{
	if (jc->has_line_h)
	{
		fs_sacct_header_free(&jc->line_h, a);
		a->release(a->ctx, jc->line_text.data);
	}
	jc->has_line_h = false;
	jc->line_text.data = NULL;
}

void
fs_slurm_jobcomp_free(fs_slurm_jobcomp *jc, const fs_allocator *a)
{
	drop_line_header(jc, a);
	fs_sacct_header_free(&jc->h, a);
	a->release(a->ctx, jc->text.data);
	a->release(a->ctx, jc->row.data);
	jc->text.data = jc->row.data = NULL;
}

typedef struct pair
{
	fs_str key, val;
	size_t at; /* byte offset of the key in the line */
} pair;

/* At most this many pairs of keys jobcomp/filetxt does not write are read from one line. */
#define MAX_UNKNOWN 32

typedef struct line_ctx
{
	const char *line;
	size_t len;
	fs_str val[K_N];
	size_t at[K_N];
	pair unknown[MAX_UNKNOWN];
	size_t nunknown;
	fs_error *err;
} line_ctx;

static const char subject[] = "jobcomp/filetxt record";
static const char hint[] = "Give one line of the file JobCompLoc names (jobcomp/filetxt), as Slurm "
                           "wrote it: JobId=... UserId=name(uid) ... ExitCode=status:signal.";

static fs_status
bad(line_ctx *c, size_t at, const char *fmt, const char *arg)
{
	char buf[FS_MSG_LEN];

	snprintf(buf, sizeof(buf), fmt, arg);
	buf[0] = fs_ascii_upper(buf[0]);
	return fs_fail_syntax(c->err, subject, c->line, c->len, at, buf, hint);
}

/* The known key at line[i..] followed by '=', or -1. */
static int
key_at(const char *s, size_t len, size_t i, size_t *klen)
{
	int k;

	for (k = 0; k < K_N; k++)
	{
		size_t l = strlen(keys[k].key);

		if (i + l < len && s[i + l] == '=' && memcmp(s + i, keys[k].key, l) == 0)
		{
			*klen = l;
			return k;
		}
	}
	return -1;
}

/* A word of letters and digits followed by '=' at line[i..]: an unknown key; its length or 0. */
static size_t
word_key_at(const char *s, size_t len, size_t i)
{
	size_t j = i;

	while (j < len && (fs_is_name_start(s[j]) || fs_is_digit(s[j])))
		j++;
	return j > i && j < len && s[j] == '=' && fs_is_name_start(s[i]) ? j - i : 0;
}

/*
 * Split the line into pairs. A free-text value (Name, WorkDir) runs to the next known key after
 * a space; any other value has no space, so a space there starts the next pair, known or not.
 */
static fs_status
split(line_ctx *c)
{
	const char *s = c->line;
	size_t len = c->len, i = 0, klen;
	int cur = -1; /* known key whose value is being read, or -1 for an unknown one */
	size_t vstart = 0;

	if (key_at(s, len, 0, &klen) != K_JOBID)
		return bad(c, 0, "%s", "the line does not start with JobId=");
	while (i <= len)
	{
		int k = -1;
		size_t ul = 0;
		bool boundary = i == len;

		FS_POLL(i);
		if (!boundary && s[i] == ' ')
		{
			k = key_at(s, len, i + 1, &klen);
			if (k < 0 && !(cur >= 0 && keys[cur].free_text))
			{
				ul = word_key_at(s, len, i + 1);
				if (ul == 0)
					return bad(c, i + 1, "value of %s= has a space",
					           cur >= 0 ? keys[cur].key : "an unknown key");
			}
			boundary = k >= 0 || ul > 0;
		}
		if (i == 0)
		{
			k = K_JOBID;
			klen = 5;
			boundary = true;
		}
		if (boundary && i > 0)
		{
			/* close the value being read */
			fs_str v = fs_str_of(s + vstart, i - vstart);

			if (cur >= 0)
				c->val[cur] = v;
			else
				c->unknown[c->nunknown - 1].val = v;
		}
		if (i == len)
			break;
		if (boundary)
		{
			size_t kat = i == 0 ? 0 : i + 1;

			if (k >= 0)
			{
				if (c->at[k] != (size_t) -1)
					return bad(c, kat, "key %s= appears a second time", keys[k].key);
				c->at[k] = kat;
				cur = k;
				vstart = kat + klen + 1;
			}
			else
			{
				if (c->nunknown == MAX_UNKNOWN)
					return bad(c, kat, "more than 32 keys jobcomp/filetxt does not write%s", "");
				c->unknown[c->nunknown].key = fs_str_of(s + kat, ul);
				c->unknown[c->nunknown].at = kat;
				c->nunknown++;
				cur = -1;
				vstart = kat + ul + 1;
			}
			i = vstart;
			continue;
		}
		i++;
	}
	return FS_OK;
}

static void
put(fs_sb *row, fs_str v)
{
	fs_sb_append(row, DELIM, 1);
	if (v.len > 0)
		fs_sb_append(row, v.s, v.len);
}

/* name(id) into its name and id; a value without "(id)" is the name alone. */
static fs_status
name_id(line_ctx *c, int k, fs_str *name, fs_str *id)
{
	fs_str v = c->val[k];
	size_t j;
	int64_t n;

	*name = v;
	id->s = NULL;
	id->len = 0;
	if (v.len == 0 || v.s[v.len - 1] != ')')
		return FS_OK;
	for (j = v.len - 1; j > 0 && v.s[j - 1] != '('; j--)
		;
	if (j == 0 || !fs_parse_digits(v.s + j, v.len - 1 - j, INT64_C(4294967295), &n))
		return bad(c, c->at[k], "%s= must be a name, or a name and its id as name(id)",
		           keys[k].key);
	*name = fs_str_of(v.s, j - 1);
	*id = fs_str_of(v.s + j, v.len - 1 - j);
	return FS_OK;
}

/* A value that must be a whole number (the id parts). */
static fs_status
number(line_ctx *c, int k)
{
	int64_t n;

	if ((c->val[k].len > 0 || k == K_JOBID) &&
	    !fs_parse_digits(c->val[k].s, c->val[k].len, INT64_C(4294967295), &n))
		return bad(c, c->at[k], "%s= must be a whole number", keys[k].key);
	return FS_OK;
}

/* TimeLimit: minutes as sacct's [D-]HH:MM:SS; UNLIMITED as is; NO_VAL as Partition_Limit. */
static fs_status
put_limit(line_ctx *c, fs_sb *row)
{
	fs_str v = c->val[K_TIMELIMIT];
	int64_t m;

	fs_sb_append(row, DELIM, 1);
	if (v.len == 0 || fs_span_eq(v.s, v.len, "UNLIMITED"))
	{
		if (v.len)
			fs_sb_append(row, v.s, v.len);
		return FS_OK;
	}
	if (!fs_parse_digits(v.s, v.len, INT64_C(4294967295), &m))
		return bad(c, c->at[K_TIMELIMIT], "%s", "TimeLimit= must be minutes or UNLIMITED");
	if (m == INT64_C(4294967294))
		fs_sb_appendf(row, "Partition_Limit");
	else if (m >= 1440)
		fs_sb_appendf(row, "%d-%02d:%02d:00", (int) (m / 1440), (int) (m / 60 % 24),
		              (int) (m % 60));
	else
		fs_sb_appendf(row, "%02d:%02d:00", (int) (m / 60), (int) (m % 60));
	return FS_OK;
}

/* Write the row for the pairs of c into row (and the header it needs into hdr, when the line has
 * unknown keys). */
static fs_status
write_row(line_ctx *c, fs_sb *row, fs_sb *hdr)
{
	fs_str user, uid, group, gid;
	size_t k;
	int i;

	if (name_id(c, K_USERID, &user, &uid) != FS_OK || name_id(c, K_GROUPID, &group, &gid) != FS_OK)
		return c->err->status;
	for (i = 0; i < K_N; i++)
		if (!keys[i].column && i != K_USERID && i != K_GROUPID && number(c, i) != FS_OK)
			return c->err->status;
	if ((c->at[K_ARRAYJOB] != (size_t) -1) != (c->at[K_ARRAYTASK] != (size_t) -1))
		return bad(c, c->at[K_ARRAYJOB] != (size_t) -1 ? c->at[K_ARRAYJOB] : c->at[K_ARRAYTASK],
		           "%s", "ArrayJobId= and ArrayTaskId= come together");
	if ((c->at[K_HETJOB] != (size_t) -1) != (c->at[K_HETOFFSET] != (size_t) -1))
		return bad(c, c->at[K_HETJOB] != (size_t) -1 ? c->at[K_HETJOB] : c->at[K_HETOFFSET], "%s",
		           "HetJobId= and HetJobOffset= come together");
	for (i = 0; i < K_N; i++)
		if (i != K_NAME && memchr(c->val[i].s ? c->val[i].s : "", '\x1f', c->val[i].len))
			return bad(c, c->at[i], "value of %s= holds a control character", keys[i].key);
	row->len = 0;
	/* JobID as sacct prints it: array_task, or het+offset; JobIDRaw is the job's own id */
	if (c->at[K_ARRAYJOB] != (size_t) -1)
		fs_sb_appendf(row, "%.*s_%.*s", (int) c->val[K_ARRAYJOB].len, c->val[K_ARRAYJOB].s,
		              (int) c->val[K_ARRAYTASK].len, c->val[K_ARRAYTASK].s);
	else if (c->at[K_HETJOB] != (size_t) -1)
		fs_sb_appendf(row, "%.*s+%.*s", (int) c->val[K_HETJOB].len, c->val[K_HETJOB].s,
		              (int) c->val[K_HETOFFSET].len, c->val[K_HETOFFSET].s);
	else if (c->val[K_JOBID].len > 0)
		fs_sb_append(row, c->val[K_JOBID].s, c->val[K_JOBID].len);
	put(row, c->val[K_JOBID]);
	put(row, user);
	put(row, uid);
	put(row, group);
	put(row, gid);
	for (i = 0; i < K_N; i++)
	{
		if (!keys[i].column || i == K_NAME)
			continue;
		if (i == K_TIMELIMIT)
		{
			if (put_limit(c, row) != FS_OK)
				return c->err->status;
		}
		else if ((i == K_SUBMIT || i == K_ELIGIBLE) &&
		         fs_span_eq(c->val[i].s, c->val[i].len, "unknown"))
			put(row, fs_str_of("Unknown", 7)); /* sacct's word for a date not set */
		else
			put(row, c->val[i]);
	}
	for (k = 0; k < c->nunknown; k++)
		put(row, c->unknown[k].val);
	put(row, c->val[K_NAME]);
	if (c->nunknown > 0)
	{
		put_header(hdr);
		for (k = 0; k < c->nunknown; k++)
			fs_sb_appendf(hdr, DELIM "%.*s", (int) c->unknown[k].key.len, c->unknown[k].key.s);
		fs_sb_appendf(hdr, DELIM "JobName");
	}
	return FS_OK;
}

fs_status
fs_slurm_jobcomp_parse(fs_slurm_jobcomp *jc, const char *line, size_t len, const fs_allocator *a,
                       fs_sacct_record *rec, fs_error *err)
{
	line_ctx c;
	fs_sb hdr;
	fs_sacct_header own;
	const fs_sacct_header *h = &jc->h;
	fs_status st;
	size_t k;
	int i;

	memset(rec, 0, sizeof(*rec));
	memset(&c, 0, sizeof(c));
	drop_line_header(jc, a);
	c.line = line;
	c.len = len;
	c.err = err;
	for (i = 0; i < K_N; i++)
		c.at[i] = (size_t) -1;
	/* Slurm ends every record with a space before the newline */
	while (c.len > 0 && fs_is_space(line[c.len - 1]))
		c.len--;
	if (c.len == 0)
		return fs_fail_syntax(err, subject, line, len, FS_NO_POSITION, "Empty line",
		                      "Leave blank lines out of the records.");
	if ((st = split(&c)) != FS_OK)
		return st;
	fs_sb_init(&hdr, a, c.nunknown ? 512 : 1);
	if ((st = write_row(&c, &jc->row, &hdr)) != FS_OK)
		goto done;
	if (c.nunknown > 0)
	{
		if ((st = fs_sacct_header_parse(hdr.data, hdr.len, DELIM, 1, a, &own, err)) != FS_OK)
			goto done;
		h = &own;
	}
	st = fs_sacct_parse_row(h, jc->row.data, jc->row.len, a, rec, err);
	if (st != FS_OK)
	{
		/* the row reader's position is in the row, not the line: name the column instead */
		char problem[FS_MSG_LEN];
		char *cut;

		snprintf(problem, sizeof(problem), "%s", err->detail);
		cut = strstr(problem, " at character ");
		if (cut == NULL)
			cut = strstr(problem, " at end of input");
		if (cut)
			*cut = '\0';
		else if (strlen(problem) > 0 && problem[strlen(problem) - 1] == '.')
			problem[strlen(problem) - 1] = '\0';
		fs_fail_syntax(err, subject, line, len, FS_NO_POSITION, problem, hint);
		fs_error_context(err, "in the jobcomp/filetxt record of job %.*s", (int) c.val[K_JOBID].len,
		                 c.val[K_JOBID].s ? c.val[K_JOBID].s : "");
	}
	else
		for (k = 0; k < c.nunknown; k++)
		{
			/* the row reader's anomalies: entries one after another, each ended by a NUL */
			fs_sb_appendf(&rec->anomalies,
			              "key %.*s= is not one jobcomp/filetxt writes: kept in extra",
			              (int) c.unknown[k].key.len, c.unknown[k].key.s);
			fs_sb_append(&rec->anomalies, "", 1);
			rec->nanomalies++;
		}
	if (c.nunknown > 0 && st == FS_OK)
	{
		/* the record's extra names point into this header: kept until the next call */
		jc->line_h = own;
		jc->line_text = hdr;
		jc->has_line_h = true;
		return st;
	}
	if (c.nunknown > 0)
		fs_sacct_header_free(&own, a);
done:
	a->release(a->ctx, hdr.data);
	return st;
}
