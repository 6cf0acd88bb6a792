/*
 * pbs_qstat_json.c: a `qstat -f -F json` document as accounting lines, each read by the line
 * reader. The attribute names and the shapes are those of OpenPBS's qstat JSON printer: a
 * "Jobs" object keyed by job id, each job an object of attributes whose values are strings or
 * numbers, Resource_List and resources_used as objects of their own, and the times as ctime(3)
 * strings in the server's local time.
 */
#include "load/pbs_qstat_json.h"

#include <stdio.h>
#include <string.h>

typedef struct qctx
{
	fs_str id;
	const fs_json *job;
	fs_sb line;
	fs_qstat_to_epoch to_epoch;
	void *tctx;
	const fs_allocator *a;
	fs_error *err;
} qctx;

static fs_status
wrong(qctx *c, const char *field, const char *what)
{
	fs_fail(c->err, FS_ERR_VALUE, "qstat -F json attribute \"%s\" must be %s", field, what);
	fs_error_hint(c->err, "Give the document qstat -f -F json (or qstat -x -f -F json) wrote, "
	                      "unchanged.");
	if (c->id.s)
		fs_error_context(c->err, "in job %.*s", (int) c->id.len, c->id.s);
	return FS_ERR_VALUE;
}

static const char *const months[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/* digits at s[*i] (at most max of them), at least one; false otherwise */
static bool
digits(const char *s, size_t len, size_t *i, int max, int *out)
{
	int n = 0, v = 0;

	while (*i < len && fs_is_digit(s[*i]) && n < max)
		v = v * 10 + (s[(*i)++] - '0'), n++;
	*out = v;
	return n > 0;
}

bool
fs_qstat_parse_time(const char *s, size_t len, fs_qstat_time *t)
{
	size_t i = 0;
	int m;
	static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	/* "Www Mmm dd hh:mm:ss yyyy", the day padded with a space */
	if (len < 24 || s[3] != ' ' || s[7] != ' ')
		return false;
	for (m = 0; m < 12; m++)
		if (memcmp(s + 4, months[m], 3) == 0)
			break;
	if (m == 12)
		return false;
	t->mon = m + 1;
	i = 8;
	if (s[i] == ' ')
		i++;
	if (!digits(s, len, &i, 2, &t->mday) || i >= len || s[i++] != ' ' ||
	    !digits(s, len, &i, 2, &t->hour) || i >= len || s[i++] != ':' ||
	    !digits(s, len, &i, 2, &t->min) || i >= len || s[i++] != ':' ||
	    !digits(s, len, &i, 2, &t->sec) || i >= len || s[i++] != ' ' ||
	    !digits(s, len, &i, 4, &t->year) || i != len)
		return false;
	return t->year >= 1970 && t->mday >= 1 && t->mday <= mdays[m] && t->hour < 24 && t->min < 60 &&
	       t->sec < 61 &&
	       !(m == 1 && t->mday == 29 &&
	         (t->year % 4 != 0 || (t->year % 100 == 0 && t->year % 400 != 0)));
}

/* A time attribute as a local time and its Unix seconds (ok false when absent). */
static fs_status
time_of(qctx *c, const char *field, bool *ok, fs_qstat_time *t, int64_t *epoch)
{
	const fs_json *v = fs_json_get(c->job, field);
	fs_status st;

	*ok = false;
	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind != FS_JSON_STRING || !fs_qstat_parse_time(v->str.s, v->str.len, t))
		return wrong(c, field, "a date as qstat prints it, such as \"Tue Dec  1 10:00:00 2026\"");
	st = c->to_epoch(c->tctx, t, epoch, c->err);
	if (st != FS_OK)
	{
		fs_error_context(c->err, "in attribute \"%s\" of job %.*s", field, (int) c->id.len,
		                 c->id.s);
		return st;
	}
	*ok = true;
	return FS_OK;
}

/* key=value onto the line, the value quoted when it holds blanks; an empty value is left out. */
static fs_status
put_pair(qctx *c, const char *prefix, fs_str key, const fs_json *v, const char *field)
{
	const char *s;
	size_t len, k;
	bool blank = false, dq = false;

	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind != FS_JSON_STRING && v->kind != FS_JSON_NUMBER)
		return wrong(c, field, "a string or a number");
	s = v->str.s;
	len = v->str.len;
	if (len == 0)
		return FS_OK;
	for (k = 0; k < len; k++)
	{
		if (s[k] == '\n' || s[k] == '\r' || s[k] == '\0')
			return wrong(c, field, "one line of text");
		blank |= fs_is_space(s[k]);
		dq |= s[k] == '"';
	}
	fs_sb_appendf(&c->line, " %s%.*s=", prefix, (int) key.len, key.s);
	if (blank || s[0] == '"' || s[0] == '\'')
	{
		const char *q = dq ? "'" : "\"";

		fs_sb_append(&c->line, q, 1);
		fs_sb_append(&c->line, s, len);
		fs_sb_append(&c->line, q, 1);
	}
	else
		fs_sb_append(&c->line, s, len);
	return FS_OK;
}

static fs_status
put_attr(qctx *c, const char *field, const char *key)
{
	return put_pair(c, "", fs_str_of(key, strlen(key)), fs_json_get(c->job, field), field);
}

/* Resource_List or resources_used: each member as prefix.name=value */
static fs_status
put_resources(qctx *c, const char *field)
{
	const fs_json *v = fs_json_get(c->job, field);
	size_t k;
	char prefix[32];
	fs_status st;

	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind != FS_JSON_OBJECT)
		return wrong(c, field, "an object of resources");
	snprintf(prefix, sizeof(prefix), "%s.", field);
	for (k = 0; k < v->n; k++)
	{
		FS_POLL(k);
		for (size_t j = 0; j < v->keys[k].len; j++)
			if (fs_is_space(v->keys[k].s[j]) || v->keys[k].s[j] == '=' || v->keys[k].s[j] == '\0')
				return wrong(c, field, "an object whose resource names hold no blank or \"=\"");
		if ((st = put_pair(c, prefix, v->keys[k], &v->items[k], field)) != FS_OK)
			return st;
	}
	return FS_OK;
}

static const struct
{
	const char *field, *key;
} texts[] = {
    {"egroup", "group"},
    {"Account_Name", "account"},
    {"project", "project"},
    {"queue", "queue"},
    {"Job_Name", "jobname"},
    {"exec_host", "exec_host"},
    {"exec_vnode", "exec_vnode"},
    {"Exit_status", "Exit_status"},
    {"run_count", "run_count"},
    {"session_id", "session"},
    {"eligible_time", "eligible_time"},
};

/* The accounting record type of a job_state: PBS's E once the job ended, S while it runs. */
static char
record_type(const fs_json *state)
{
	char s = state && state->kind == FS_JSON_STRING && state->str.len == 1 ? state->str.s[0] : 'Q';

	if (s == 'F' || s == 'X')
		return 'E';
	if (s == 'R' || s == 'E' || s == 'B' || s == 'U' || s == 'S')
		return 'S';
	return 'Q';
}

static fs_status
one_job(qctx *c, fs_qstat_emit emit, void *ctx, int *stop)
{
	static const char *const tfields[] = {"ctime", "qtime", "etime", "stime", "obittime"};
	static const char *const tkeys[] = {"ctime", "qtime", "etime", "start", "end"};
	fs_qstat_time t[5], mt;
	int64_t e[5], me;
	bool has[5], hasm;
	const fs_qstat_time *stamp = NULL;
	const fs_json *owner = fs_json_get(c->job, "Job_Owner"), *euser = fs_json_get(c->job, "euser");
	char type = record_type(fs_json_get(c->job, "job_state"));
	fs_pbs_record rec;
	fs_status st;
	size_t k;

	if (c->id.len == 0)
	{
		fs_fail(c->err, FS_ERR_VALUE, "qstat -F json job id is empty");
		fs_error_hint(c->err, "The keys of \"Jobs\" are job ids such as \"123.server\".");
		return FS_ERR_VALUE;
	}
	for (k = 0; k < c->id.len; k++)
		if (fs_is_space(c->id.s[k]) || c->id.s[k] == ';' || c->id.s[k] == '\0')
		{
			fs_fail(c->err, FS_ERR_VALUE, "qstat -F json job id \"%.*s\" holds a blank or \";\"",
			        (int) c->id.len, c->id.s);
			fs_error_hint(c->err, "The keys of \"Jobs\" are job ids such as \"123.server\".");
			return FS_ERR_VALUE;
		}
	for (k = 0; k < 5; k++)
		if ((st = time_of(c, tfields[k], &has[k], &t[k], &e[k])) != FS_OK)
			return st;
	if ((st = time_of(c, "mtime", &hasm, &mt, &me)) != FS_OK)
		return st;
	/* the line's stamp: when PBS would have logged the record of this state */
	if (type == 'E')
		stamp = has[4] ? &t[4] : hasm ? &mt : NULL;
	else if (type == 'S')
		stamp = has[3] ? &t[3] : hasm ? &mt : NULL;
	else
		stamp = has[1] ? &t[1] : has[0] ? &t[0] : NULL;
	if (stamp == NULL)
		stamp = hasm ? &mt : has[0] ? &t[0] : NULL;
	if (stamp == NULL)
		return wrong(c, "ctime", "present (no time of the job is given)");
	c->line.len = 0;
	fs_sb_appendf(&c->line, "%02d/%02d/%04d %02d:%02d:%02d;%c;%.*s;", stamp->mon, stamp->mday,
	              stamp->year, stamp->hour, stamp->min, stamp->sec, type, (int) c->id.len, c->id.s);
	/* user: the job's effective user, as the accounting log gives it; else the owner's name */
	if (euser)
		st = put_attr(c, "euser", "user");
	else if (owner && owner->kind == FS_JSON_STRING)
	{
		const char *at = memchr(owner->str.s, '@', owner->str.len);
		fs_json u = *owner;

		u.str.len = at ? (size_t) (at - owner->str.s) : owner->str.len;
		st = put_pair(c, "", fs_str_of("user", 4), &u, "Job_Owner");
	}
	else
		st = put_attr(c, "Job_Owner", "user");
	if (st != FS_OK)
		return st;
	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
		if ((st = put_attr(c, texts[k].field, texts[k].key)) != FS_OK)
			return st;
	for (k = 0; k < 5; k++)
		if (has[k])
			fs_sb_appendf(&c->line, " %s=%lld", tkeys[k], (long long) e[k]);
	if ((st = put_resources(c, "Resource_List")) != FS_OK ||
	    (st = put_resources(c, "resources_used")) != FS_OK)
		return st;
	st = fs_pbs_parse(c->line.data, c->line.len, c->a, &rec, c->err);
	if (st != FS_OK)
	{
		fs_error_context(c->err, "in job %.*s", (int) c->id.len, c->id.s);
		return st;
	}
	*stop = emit(ctx, &rec);
	fs_pbs_free(&rec, c->a);
	return FS_OK;
}

fs_status
fs_pbs_qstat_json_doc(const fs_json *doc, const fs_allocator *a, fs_qstat_to_epoch to_epoch,
                      void *tctx, fs_qstat_emit emit, void *ctx, fs_error *err)
{
	qctx c;
	const fs_json *jobs;
	fs_status st = FS_OK;
	int stop = 0;
	size_t k;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.err = err;
	c.to_epoch = to_epoch;
	c.tctx = tctx;
	if (doc->kind != FS_JSON_OBJECT)
		return wrong(&c, "(document)", "an object with \"Jobs\", as qstat -f -F json writes");
	jobs = fs_json_get(doc, "Jobs");
	if (jobs == NULL)
	{
		if (fs_json_get(doc, "pbs_version") || fs_json_get(doc, "timestamp"))
			return FS_OK; /* qstat prints no "Jobs" when no job matched */
		return wrong(&c, "Jobs", "present: this is not a qstat -f -F json document");
	}
	if (jobs->kind != FS_JSON_OBJECT)
		return wrong(&c, "Jobs", "an object keyed by job ids");
	fs_sb_init(&c.line, a, 512);
	for (k = 0; k < jobs->n && !stop; k++)
	{
		FS_POLL(k);
		c.id = jobs->keys[k];
		c.job = &jobs->items[k];
		if (c.job->kind != FS_JSON_OBJECT)
			st = wrong(&c, "Jobs", "an object whose values are jobs (objects of attributes)");
		else
			st = one_job(&c, emit, ctx, &stop);
		if (st != FS_OK)
			break;
	}
	a->release(a->ctx, c.line.data);
	return st;
}
