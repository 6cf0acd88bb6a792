/*
 * sacct.c: Slurm accounting text: `sacct --parsable2` rows against their header, durations and
 * sizes as sacct prints them, and sacctmgr associations (dump files and `show assoc -P`) as
 * share-tree paths. One pass over each line, no allocation per field.
 */
#include "load/sacct.h"

#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char row_subject[] = "sacct row";
static const char row_hint[] =
    "Give the header line that sacct printed with these rows (sacct --parsable2, fields "
    "separated by \"|\").";

/* ---------------------------------------------------------------- small helpers */

/* Digits only, at most `max`; false on anything else (empty included) or overflow. */
static bool
parse_uint(const char *s, size_t len, int64_t max, int64_t *out)
{
	int64_t v = 0;
	size_t i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++)
	{
		if (!fs_is_digit(s[i]))
			return false;
		if (v > (max - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static fs_span
mkspan(const char *p, size_t len)
{
	fs_span s;

	s.p = len ? p : NULL;
	s.len = len;
	return s;
}

static void add_anomaly(fs_sacct_record *rec, const char *fmt, ...) FS_PRINTF(2, 3);

static void
add_anomaly(fs_sacct_record *rec, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fs_sb_append(&rec->anomalies, buf, strlen(buf) + 1);
	rec->nanomalies++;
}

/* A value quoted for a message, cut at 60 bytes. */
typedef struct shown
{
	char s[72];
} shown;

static shown
show(const char *p, size_t len)
{
	shown out;

	fs_quote_excerpt(out.s, sizeof(out.s), p ? p : "", p ? len : 0, 60);
	return out;
}

/* fs_fail_syntax with the problem starting in upper case: DETAIL is a full sentence. */
static fs_status
syntax(fs_error *err, const char *subject, const char *text, size_t len, size_t at,
       const char *problem, const char *hint)
{
	char buf[FS_MSG_LEN];

	snprintf(buf, sizeof(buf), "%s", problem);
	buf[0] = fs_ascii_upper(buf[0]);
	return fs_fail_syntax(err, subject, text, len, at, buf, hint);
}

/* ---------------------------------------------------------------- header */

static const char *const known_names[FS_SC_NKNOWN] = {
    "JobID", "JobIDRaw",  "Cluster", "Partition",  "Account", "User",      "Group",   "QOS",
    "State", "ExitCode",  "Submit",  "Eligible",   "Start",   "End",       "Elapsed", "Timelimit",
    "NCPUS", "AllocCPUS", "NNodes",  "AllocNodes", "ReqMem",  "AllocTRES", "ReqTRES", "JobName"};

static bool
span_array_eq(const void *ctx, uint32_t entry, const void *key)
{
	const fs_span *x = &((const fs_span *) ctx)[entry], *y = key;

	return x->len == y->len && memcmp(x->p, y->p, x->len) == 0;
}

/*
 * Linear in the header: the names go into a hash index as they come (a duplicate is found in
 * O(1)), and the loop polls for interrupts, so that a header of many columns can be cancelled.
 */
fs_status
fs_sacct_header_parse(const char *text, size_t len, const fs_allocator *a, fs_sacct_header *h,
                      fs_error *err)
{
	static const char subject[] = "sacct header";
	static const char hint[] =
	    "The header is the first line sacct --parsable2 prints: column names separated by \"|\".";
	size_t n = 1, i, start, c;
	fs_hindex seen;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < FS_SC_NKNOWN; i++)
		h->at[i] = -1;
	if (len > 0 && text[len - 1] == '\r')
		len--;
	for (i = 0; i < len; i++)
	{
		FS_POLL(i);
		if (text[i] == '|')
			n++;
	}
	if (len > 0 && text[len - 1] == '|')
	{
		h->trailing = true; /* sacct -p: a delimiter after the last column */
		len--;
		n--;
	}
	if (len == 0)
		return syntax(err, subject, text, len, FS_NO_POSITION, "no column names", hint);
	h->names = a->alloc(a->ctx, n * sizeof(fs_span));
	h->known = a->alloc(a->ctx, n * sizeof(int));
	h->ncols = n;
	fs_hindex_init(&seen, n, a);
	start = 0;
	c = 0;
	for (i = 0; i <= len; i++)
	{
		size_t k, nl;
		const char *nm;

		FS_POLL(i);
		if (i < len && text[i] != '|')
			continue;
		nm = text + start;
		nl = i - start;
		while (nl > 0 && fs_is_space(*nm))
		{
			nm++;
			nl--;
		}
		while (nl > 0 && fs_is_space(nm[nl - 1]))
			nl--;
		if (nl == 0)
		{
			a->release(a->ctx, seen.slots);
			fs_sacct_header_release(h, a);
			return syntax(err, subject, text, len + h->trailing, start, "empty column name", hint);
		}
		h->names[c] = mkspan(nm, nl);
		h->known[c] = -1;
		if (fs_hindex_put(&seen, fs_hash(nm, nl), &h->names[c], (uint32_t) c, span_array_eq,
		                  h->names) != (uint32_t) c)
		{
			a->release(a->ctx, seen.slots);
			fs_sacct_header_release(h, a);
			return syntax(err, subject, text, len, start, "duplicate column name", hint);
		}
		for (k = 0; k < FS_SC_NKNOWN; k++)
			if (fs_span_ieq(nm, nl, known_names[k]))
			{
				if (h->at[k] >= 0)
				{
					a->release(a->ctx, seen.slots);
					fs_sacct_header_release(h, a);
					return syntax(err, subject, text, len, start, "duplicate column name", hint);
				}
				h->at[k] = (int) c;
				h->known[c] = (int) k;
			}
		c++;
		start = i + 1;
	}
	a->release(a->ctx, seen.slots);
	return FS_OK;
}

void
fs_sacct_header_release(fs_sacct_header *h, const fs_allocator *a)
{
	if (h->names)
		a->release(a->ctx, h->names);
	if (h->known)
		a->release(a->ctx, h->known);
	h->names = NULL;
	h->known = NULL;
}

/* ---------------------------------------------------------------- durations */

typedef enum dur_result
{
	DUR_OK,
	DUR_NULL,
	DUR_BAD
} dur_result;

/*
 * The digit fields of a duration from s[*i]: D- first if there, then up to 3 fields (4 with
 * days) separated by ":". False, with *at and *problem, on a field that is not digits.
 */
static bool
duration_fields(const char *s, size_t len, size_t *i, int64_t *part, size_t *npart, bool *days,
                size_t *at, const char **problem)
{
	for (;;)
	{
		size_t st = *i;
		int64_t x = 0;

		while (*i < len && fs_is_digit(s[*i]))
		{
			if (*i - st >= 15)
			{
				*at = st;
				*problem = "number too long";
				return false;
			}
			x = x * 10 + (s[*i] - '0');
			(*i)++;
		}
		if (*i == st)
		{
			*at = *i;
			*problem = "expected a digit";
			return false;
		}
		part[(*npart)++] = x;
		if (*i < len && s[*i] == '-' && *npart == 1 && !*days)
		{
			*days = true;
			(*i)++;
			continue;
		}
		if (*i < len && s[*i] == ':' && *npart < (*days ? 4u : 3u))
		{
			(*i)++;
			continue;
		}
		return true;
	}
}

/* The seconds of checked fields: D-H[:M[:S]], H:M:S or M:S. */
static double
duration_seconds(const int64_t *part, size_t npart, bool days)
{
	double v;

	if (days)
	{
		v = (double) part[0] * 86400 + (double) part[1] * 3600;
		if (npart > 2)
			v += (double) part[2] * 60;
		if (npart > 3)
			v += (double) part[3];
		return v;
	}
	if (npart == 3)
		return (double) part[0] * 3600 + (double) part[1] * 60 + (double) part[2];
	return (double) part[0] * 60 + (double) part[1];
}

/*
 * [D-]H:MM:SS[.f], MM:SS[.f], D-H[:MM[:SS]]; or a word that means "no value". On DUR_BAD, *at is
 * the byte offset of the problem and *problem says what it is.
 */
static dur_result
parse_duration(const char *s, size_t len, double *out, const char **why, size_t *at,
               const char **problem)
{
	static const char *const words[] = {"UNLIMITED", "Partition_Limit", "Unknown", "INVALID"};
	int64_t part[4];
	size_t npart = 0, i = 0, k;
	bool days = false;
	double frac = 0;

	*why = NULL;
	if (len == 0)
	{
		*why = "empty";
		return DUR_NULL;
	}
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (fs_span_ieq(s, len, words[k]))
		{
			*why = words[k];
			return DUR_NULL;
		}
	if (!duration_fields(s, len, &i, part, &npart, &days, at, problem))
		return DUR_BAD;
	if (i < len && s[i] == '.')
	{
		size_t st = ++i;
		double scale = 0.1;

		while (i < len && fs_is_digit(s[i]))
		{
			frac += (s[i] - '0') * scale;
			scale /= 10;
			i++;
		}
		if (i == st)
		{
			*at = i;
			*problem = "expected a digit";
			return DUR_BAD;
		}
		if (npart - (days ? 1 : 0) < 2)
		{
			*at = st - 1;
			*problem = "a fraction needs minutes and seconds before it";
			return DUR_BAD;
		}
	}
	if (i < len)
	{
		*at = i;
		*problem = "unexpected character";
		return DUR_BAD;
	}
	if (!days && npart == 1)
	{
		*at = 0;
		*problem = "a bare number is ambiguous (minutes for sbatch, seconds for ElapsedRaw)";
		return DUR_BAD;
	}
	/* the fields after the first are below 60 (below 24 for hours after days) */
	for (k = 1; k < npart; k++)
	{
		int64_t lim = (days && k == 1) ? 24 : 60;

		if (part[k] >= lim)
		{
			*at = 0;
			*problem = lim == 24 ? "hours after days must be below 24"
			                     : "minutes and seconds must be below 60";
			return DUR_BAD;
		}
	}
	*out = duration_seconds(part, npart, days) + frac;
	return DUR_OK;
}

fs_status
fs_slurm_duration(const char *s, size_t len, double *seconds, bool *is_null, const char **why,
                  fs_error *err)
{
	size_t at = 0;
	const char *problem = NULL;
	dur_result r = parse_duration(s, len, seconds, why, &at, &problem);

	*is_null = r == DUR_NULL;
	if (r == DUR_BAD)
		return syntax(err, "Slurm duration", s, len, at, problem,
		              "Slurm writes durations as [D-]HH:MM:SS or MM:SS.mmm, or UNLIMITED, "
		              "Partition_Limit or Unknown.");
	return FS_OK;
}

/* ---------------------------------------------------------------- sizes */

/*
 * digits[.digits][KMGTP] in bytes; no unit means MB (sacct's ReqMem and TRES mem). Returns the
 * bytes consumed (0 when the text does not start with a number) and whether a unit was written.
 */
static size_t
parse_size(const char *s, size_t len, double *bytes, bool *unit)
{
	static const char units[] = "KMGTP";
	size_t i = 0;
	double v;
	const char *u;

	while (i < len && fs_is_digit(s[i]))
		i++;
	if (i == 0)
		return 0;
	if (i < len && s[i] == '.')
	{
		size_t st = ++i;

		while (i < len && fs_is_digit(s[i]))
			i++;
		if (i == st)
			return 0;
	}
	if (fs_scan_number(s, i, &v) != i || !isfinite(v))
		return 0;
	*unit = false;
	if (i < len && s[i] != '\0' && (u = strchr(units, fs_ascii_upper(s[i]))) != NULL)
	{
		v = ldexp(v, 10 * (int) (u - units + 1));
		*unit = true;
		i++;
	}
	else
		v = ldexp(v, 20);
	*bytes = v;
	return i;
}

/* ---------------------------------------------------------------- row fields */

typedef struct row_ctx
{
	const char *line;
	size_t len;
	fs_sacct_record *rec;
	const fs_allocator *a;
	fs_error *err;
} row_ctx;

static fs_status
bad(row_ctx *c, const char *at, const char *problem, const char *hint)
{
	return syntax(c->err, row_subject, c->line, c->len, (size_t) (at - c->line), problem,
	              hint ? hint : row_hint);
}

static fs_status
field_int(row_ctx *c, const char *col, fs_span f, bool *has, int32_t *out)
{
	int64_t v;
	char problem[100];

	if (f.p == NULL)
		return FS_OK;
	if (!parse_uint(f.p, f.len, INT32_MAX, &v))
	{
		snprintf(problem, sizeof(problem), "%s must be a whole number below 2^31", col);
		return bad(c, f.p, problem, NULL);
	}
	*has = true;
	*out = (int32_t) v;
	return FS_OK;
}

static fs_status
field_time(row_ctx *c, const char *col, fs_span f, fs_sacct_time *t)
{
	const char *s = f.p;
	int64_t v;
	int vals[6];
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	/* YYYY-MM-DDTHH:MM:SS: digit groups and the separators between them */
	static const int widths[] = {4, 2, 2, 2, 2, 2};
	size_t i = 0, k;
	char problem[100];

	t->kind = FS_ST_NONE;
	if (s == NULL)
		return FS_OK;
	if (fs_span_ieq(s, f.len, "Unknown") || fs_span_ieq(s, f.len, "None"))
	{
		add_anomaly(c->rec, "%s is %.*s", col, (int) f.len, s);
		return FS_OK;
	}
	if (parse_uint(s, f.len, INT64_C(999999999999), &v))
	{
		t->kind = FS_ST_EPOCH;
		t->epoch = v;
		return FS_OK;
	}
	snprintf(problem, sizeof(problem), "%s must be YYYY-MM-DDTHH:MM:SS or epoch seconds", col);
	for (k = 0; k < 6; k++)
	{
		int x = 0, w;

		if (k > 0)
		{
			char sep = k < 3 ? '-' : (k == 3 ? 'T' : ':');

			if (i >= f.len || (s[i] != sep && !(k == 3 && s[i] == ' ')))
				return bad(c, s + (i < f.len ? i : f.len - 1), problem, NULL);
			i++;
		}
		for (w = 0; w < widths[k]; w++, i++)
		{
			if (i >= f.len || !fs_is_digit(s[i]))
				return bad(c, s + (i < f.len ? i : f.len - 1), problem, NULL);
			x = x * 10 + (s[i] - '0');
		}
		vals[k] = x;
	}
	if (i != f.len)
		return bad(c, s + i, problem, NULL);
	if (vals[1] < 1 || vals[1] > 12 || vals[2] < 1 || vals[2] > mdays[vals[1] - 1] ||
	    (vals[1] == 2 && vals[2] == 29 &&
	     !((vals[0] % 4 == 0 && vals[0] % 100 != 0) || vals[0] % 400 == 0)) ||
	    vals[3] > 23 || vals[4] > 59 || vals[5] > 59)
	{
		snprintf(problem, sizeof(problem), "%s is not a valid date and time", col);
		return bad(c, s, problem, NULL);
	}
	t->kind = FS_ST_LOCAL;
	t->year = vals[0];
	t->mon = vals[1];
	t->mday = vals[2];
	t->hour = vals[3];
	t->min = vals[4];
	t->sec = vals[5];
	return FS_OK;
}

static fs_status
field_duration(row_ctx *c, const char *col, fs_span f, bool *has, double *out)
{
	const char *why, *problem;
	size_t at;
	char msg[200];

	if (f.p == NULL)
		return FS_OK;
	switch (parse_duration(f.p, f.len, out, &why, &at, &problem))
	{
		case DUR_OK:
			*has = true;
			return FS_OK;
		case DUR_NULL:
			add_anomaly(c->rec, "%s is %s", col, why);
			return FS_OK;
		default:
			snprintf(msg, sizeof(msg), "%s: %s", col, problem);
			return bad(c, f.p + at, msg,
			           "Slurm writes durations as [D-]HH:MM:SS or MM:SS.mmm, or UNLIMITED, "
			           "Partition_Limit or Unknown.");
	}
}

static fs_status
field_exit(row_ctx *c, fs_span f)
{
	fs_sacct_record *r = c->rec;
	const char *colon;
	int64_t v;
	static const char problem[] = "ExitCode must be code:signal (two whole numbers)";

	if (f.p == NULL)
		return FS_OK;
	colon = memchr(f.p, ':', f.len);
	if (!parse_uint(f.p, colon ? (size_t) (colon - f.p) : f.len, INT32_MAX, &v))
		return bad(c, f.p, problem, NULL);
	r->has_exit_code = true;
	r->exit_code = (int32_t) v;
	if (colon)
	{
		if (!parse_uint(colon + 1, f.len - (size_t) (colon + 1 - f.p), INT32_MAX, &v))
			return bad(c, colon + 1, problem, NULL);
		r->has_signal = true;
		r->signal = (int32_t) v;
	}
	return FS_OK;
}

static const char *const states[] = {
    "BOOT_FAIL",    "CANCELLED",     "COMPLETED",    "DEADLINE",      "FAILED",
    "NODE_FAIL",    "OUT_OF_MEMORY", "PENDING",      "PREEMPTED",     "RUNNING",
    "SUSPENDED",    "TIMEOUT",       "REQUEUED",     "RESIZING",      "REVOKED",
    "SPECIAL_EXIT", "COMPLETING",    "CONFIGURING",  "STAGE_OUT",     "SIGNALING",
    "STOPPED",      "REQUEUE_FED",   "REQUEUE_HOLD", "RESV_DEL_HOLD", "EXPEDITING"};

static void
field_state(row_ctx *c, fs_span f)
{
	fs_sacct_record *r = c->rec;
	size_t w = 0, k;
	const char *known = NULL;

	if (f.p == NULL)
		return;
	while (w < f.len && f.p[w] != ' ')
		w++;
	for (k = 0; k < sizeof(states) / sizeof(states[0]); k++)
		if (fs_span_ieq(f.p, w, states[k]))
			known = states[k];
	if (known == NULL)
	{
		r->state = f;
		add_anomaly(r, "unknown State \"%s\"", show(f.p, f.len).s);
		return;
	}
	r->state = mkspan(known, strlen(known));
	if (w == f.len)
		return;
	if (strcmp(known, "CANCELLED") == 0 && f.len > w + 4 && memcmp(f.p + w, " by ", 4) == 0)
	{
		int64_t uid;

		if (parse_uint(f.p + w + 4, f.len - w - 4, INT32_MAX, &uid))
		{
			r->has_cancelled_by = true;
			r->cancelled_by = (int32_t) uid;
			return;
		}
	}
	add_anomaly(r, "State \"%s\" has more than a state name", show(f.p, f.len).s);
}

/* label [_task | _[spec] | +offset] [.step]; JobIDRaw: digits [.step] */
static fs_status
field_jobid(row_ctx *c, fs_span id, fs_span raw)
{
	fs_sacct_record *r = c->rec;
	static const char hint[] =
	    "Slurm writes job ids as 123, 123_4, 123_[1-5%2], 123+1, with an optional .batch, "
	    ".extern or .N step.";
	int64_t base = 0, v, rawnum = 0;
	bool plain = true, has_raw = false;
	fs_span step = {NULL, 0}, rawstep = {NULL, 0}, spec = {NULL, 0};
	size_t i = 0, st;

	if (id.p)
	{
		const char *s = id.p;

		while (i < id.len && fs_is_digit(s[i]))
			i++;
		if (!parse_uint(s, i, INT64_MAX, &base))
			return bad(c, s + i, "JobID must start with the job number", hint);
		if (i < id.len && s[i] == '_')
		{
			plain = false;
			r->has_array_job_id = true;
			r->array_job_id = base;
			i++;
			if (i < id.len && s[i] == '[')
			{
				st = ++i;
				while (i < id.len && (fs_is_digit(s[i]) || s[i] == ',' || s[i] == '-' ||
				                      s[i] == '%' || s[i] == ':'))
					i++;
				if (i == st || i >= id.len || s[i] != ']')
					return bad(c, s + i, "JobID: expected an array task range closed by \"]\"",
					           hint);
				spec = mkspan(s + st, i - st);
				i++;
			}
			else
			{
				st = i;
				while (i < id.len && fs_is_digit(s[i]))
					i++;
				if (!parse_uint(s + st, i - st, INT32_MAX, &v))
					return bad(c, s + st, "JobID: expected an array task number", hint);
				r->has_array_task_id = true;
				r->array_task_id = (int32_t) v;
			}
		}
		else if (i < id.len && s[i] == '+')
		{
			st = ++i;
			while (i < id.len && fs_is_digit(s[i]))
				i++;
			if (!parse_uint(s + st, i - st, INT32_MAX, &v))
				return bad(c, s + st, "JobID: expected a het job component number", hint);
			r->has_het_job_id = true;
			r->het_job_id = base;
			r->has_het_offset = true;
			r->het_offset = (int32_t) v;
			plain = v == 0; /* component 0 has the het job's own id */
		}
		if (i < id.len && s[i] == '.')
		{
			step = mkspan(s + i + 1, id.len - i - 1);
			for (st = i + 1; st < id.len; st++)
				if (!(fs_is_digit(s[st]) ||
				      (fs_ascii_upper(s[st]) >= 'A' && fs_ascii_upper(s[st]) <= 'Z') ||
				      s[st] == '_' || s[st] == '-'))
					break;
			if (step.p == NULL || st != id.len)
				return bad(c, s + st, "JobID: invalid step name", hint);
			i = id.len;
		}
		if (i != id.len)
			return bad(c, s + i, "unexpected character in JobID", hint);
	}
	if (raw.p)
	{
		const char *dot = memchr(raw.p, '.', raw.len);
		size_t nl = dot ? (size_t) (dot - raw.p) : raw.len;

		if (!parse_uint(raw.p, nl, INT64_MAX, &rawnum))
			return bad(c, raw.p, "JobIDRaw must be the job number with an optional .step", hint);
		has_raw = true;
		if (dot)
		{
			rawstep = mkspan(dot + 1, raw.len - nl - 1);
			if (rawstep.p == NULL)
				return bad(c, dot, "JobIDRaw: invalid step name", hint);
		}
	}
	if (has_raw)
	{
		r->has_job_seq = true;
		r->job_seq = rawnum;
	}
	else if (id.p && plain)
	{
		r->has_job_seq = true;
		r->job_seq = base;
	}
	r->step = id.p ? step : rawstep;
	if (id.p && raw.p &&
	    (step.len != rawstep.len || (step.len && memcmp(step.p, rawstep.p, step.len) != 0)))
		add_anomaly(r, "JobID \"%s\" and JobIDRaw \"%s\" name different steps",
		            show(id.p, id.len).s, show(raw.p, raw.len).s);
	if (spec.p)
	{
		add_anomaly(r, "JobID \"%s\" stands for the array tasks \"%.*s\" in one row",
		            show(id.p, id.len).s, (int) spec.len, spec.p);
		fs_sb_append(&r->extra, r->extra.len > 1 ? ", " : "", r->extra.len > 1 ? 2 : 0);
		fs_sb_appendf(&r->extra, "\"array_task_spec\": \"%.*s\"", (int) spec.len, spec.p);
	}
	return FS_OK;
}

/* A TRES list (cpu=8,mem=64G,gres/gpu:a100=2,license/x@y=1,1001=5) as an encoded resvec. */
static fs_status
field_tres(row_ctx *c, const char *col, fs_span f, uint8_t **out, size_t *outlen)
{
	fs_rv_item *items;
	char *names;
	size_t n = 1, i, k = 0, start = 0, np = 0;
	fs_status st;

	*out = NULL;
	if (f.p == NULL)
		return FS_OK;
	for (i = 0; i < f.len; i++)
		if (f.p[i] == ',')
			n++;
	items = c->a->alloc(c->a->ctx, n * sizeof(fs_rv_item));
	names = c->a->alloc(c->a->ctx, n * 24 + 1);
	for (i = 0; i <= f.len; i++)
	{
		const char *e, *nm = f.p + start, *val;
		size_t elen, nl, vl, used;
		double amt;
		bool unit, sizeish;
		int64_t id;

		if (i < f.len && f.p[i] != ',')
			continue;
		elen = i - start;
		start = i + 1;
		e = memchr(nm, '=', elen);
		if (e == NULL || e == nm)
		{
			c->a->release(c->a->ctx, items);
			c->a->release(c->a->ctx, names);
			return bad(c, e ? e : nm,
			           col[0] == 'A' ? "AllocTRES: expected name=count"
			                         : "ReqTRES: expected name=count",
			           NULL);
		}
		nl = (size_t) (e - nm);
		val = e + 1;
		vl = elen - nl - 1;
		if (fs_span_ieq(val, vl, "NONE"))
		{
			add_anomaly(c->rec, "%s: %.*s=NONE (no limit) left out", col, (int) nl, nm);
			continue;
		}
		sizeish = fs_span_ieq(nm, nl, "mem") || fs_span_ieq(nm, nl, "vmem") ||
		          fs_span_ieq(nm, nl, "gres/gpumem") || (nl > 3 && memcmp(nm, "bb/", 3) == 0);
		used = parse_size(val, vl, &amt, &unit);
		if (used == 0 || used != vl)
		{
			c->a->release(c->a->ctx, items);
			c->a->release(c->a->ctx, names);
			return bad(c, val + used,
			           col[0] == 'A' ? "AllocTRES: invalid amount" : "ReqTRES: invalid amount",
			           NULL);
		}
		if (!unit && !sizeish)
			fs_scan_number(val, vl, &amt); /* a count: undo the MB default */
		items[k].kind = (unit || sizeish) ? FS_KIND_SIZE : FS_KIND_COUNT;
		items[k].amount = amt;
		items[k].pos = (size_t) (nm - c->line) + 1;
		if (parse_uint(nm, nl, INT64_C(999999999999), &id))
		{
			/* a TRES id whose name was deleted: kept as tres_<id> */
			int w = snprintf(names + np, 24, "tres_%lld", (long long) id);

			items[k].name = names + np;
			items[k].namelen = (size_t) w;
			items[k].pos = 0; /* not in the line: fs_rv_build must not count back from it */
			np += (size_t) w;
			add_anomaly(c->rec, "%s: TRES id %.*s has no name (kept as tres_%lld)", col, (int) nl,
			            nm, (long long) id);
		}
		else
		{
			items[k].name = nm;
			items[k].namelen = nl;
		}
		k++;
	}
	st = fs_rv_build(items, k, FS_ERR_SYNTAX, c->a, 0, out, outlen, c->err);
	c->a->release(c->a->ctx, items);
	c->a->release(c->a->ctx, names);
	if (st != FS_OK)
	{
		char msg[FS_MSG_LEN + 20];

		snprintf(msg, sizeof(msg), "%s: %s", col, c->err->message);
		*out = NULL;
		return bad(c, f.p, msg, NULL);
	}
	return FS_OK;
}

static void
json_string(fs_sb *sb, const char *s, size_t len)
{
	size_t i, run = 0;

	fs_sb_append(sb, "\"", 1);
	for (i = 0; i < len; i++)
	{
		unsigned char ch = (unsigned char) s[i];

		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		fs_sb_append(sb, s + run, i - run);
		run = i + 1;
		if (ch == '"' || ch == '\\')
		{
			char esc[2] = {'\\', (char) ch};

			fs_sb_append(sb, esc, 2);
		}
		else
			fs_sb_appendf(sb, "\\u%04x", ch);
	}
	fs_sb_append(sb, s + run, len - run);
	fs_sb_append(sb, "\"", 1);
}

/* ReqMem for the whole job: per CPU (c) and per node (n) before 21.08, the total after. */
static fs_status
field_reqmem(row_ctx *c, fs_span f)
{
	fs_sacct_record *r = c->rec;
	double bytes;
	bool unit;
	size_t used;
	char per = 0;

	if (f.p == NULL)
		return FS_OK;
	used = parse_size(f.p, f.len, &bytes, &unit);
	if (used > 0 && used + 1 == f.len && (f.p[used] == 'c' || f.p[used] == 'n'))
		per = f.p[used++];
	if (used == 0 || used != f.len)
		return bad(c, f.p + used, "ReqMem must be a size (3000M, 1.50G) with an optional c or n",
		           NULL);
	if (per && r->step.p)
	{
		add_anomaly(r, "ReqMem \"%.*s\" on a step row repeats the job's request; no step total",
		            (int) f.len, f.p);
		return FS_OK;
	}
	if (per == 'c')
	{
		if (!r->has_ncpus)
		{
			add_anomaly(r, "ReqMem \"%.*s\" is per CPU but the row has no CPU count", (int) f.len,
			            f.p);
			return FS_OK;
		}
		bytes *= r->ncpus;
	}
	else if (per == 'n')
	{
		if (!r->has_nnodes)
		{
			add_anomaly(r, "ReqMem \"%.*s\" is per node but the row has no node count", (int) f.len,
			            f.p);
			return FS_OK;
		}
		bytes *= r->nnodes;
	}
	r->has_req_mem = true;
	r->req_mem_bytes = bytes;
	return FS_OK;
}

static int
time_cmp(const fs_sacct_time *a, const fs_sacct_time *b)
{
	if (a->kind == FS_ST_EPOCH)
		return a->epoch < b->epoch ? -1 : a->epoch > b->epoch;
	{
		int x[6] = {a->year, a->mon, a->mday, a->hour, a->min, a->sec};
		int y[6] = {b->year, b->mon, b->mday, b->hour, b->min, b->sec};
		int k;

		for (k = 0; k < 6; k++)
			if (x[k] != y[k])
				return x[k] < y[k] ? -1 : 1;
	}
	return 0;
}

static fs_status
parse_fields(row_ctx *c, const fs_sacct_header *h, const fs_span *f)
{
	fs_sacct_record *r = c->rec;
	fs_status st;
	size_t k;
	bool first = true;

#define COL(x) (h->at[x] >= 0 ? f[h->at[x]] : mkspan(NULL, 0))
	r->job_id = COL(FS_SC_JOBID);
	r->job_id_raw = COL(FS_SC_JOBIDRAW);
	r->cluster = COL(FS_SC_CLUSTER);
	r->partition = COL(FS_SC_PARTITION);
	r->account = COL(FS_SC_ACCOUNT);
	r->user = COL(FS_SC_USER);
	r->group = COL(FS_SC_GROUP);
	r->qos = COL(FS_SC_QOS);
	/* extra: every column that is not a field of its own */
	fs_sb_append(&r->extra, "{", 1);
	for (k = 0; k < h->ncols; k++)
	{
		int kn = h->known[k];

		FS_POLL(k);
		if (kn >= 0 && kn != FS_SC_ALLOCCPUS && kn != FS_SC_ALLOCNODES && kn != FS_SC_JOBNAME)
			continue;
		if (!first)
			fs_sb_append(&r->extra, ", ", 2);
		first = false;
		json_string(&r->extra, h->names[k].p, h->names[k].len);
		fs_sb_append(&r->extra, ": ", 2);
		if (f[k].p)
			json_string(&r->extra, f[k].p, f[k].len);
		else
			fs_sb_append(&r->extra, "null", 4);
	}
	if ((st = field_jobid(c, r->job_id, r->job_id_raw)) != FS_OK)
		return st;
	field_state(c, COL(FS_SC_STATE));
	if ((st = field_exit(c, COL(FS_SC_EXITCODE))) != FS_OK ||
	    (st = field_time(c, "Submit", COL(FS_SC_SUBMIT), &r->submit)) != FS_OK ||
	    (st = field_time(c, "Eligible", COL(FS_SC_ELIGIBLE), &r->eligible)) != FS_OK ||
	    (st = field_time(c, "Start", COL(FS_SC_START), &r->start)) != FS_OK ||
	    (st = field_time(c, "End", COL(FS_SC_END), &r->end)) != FS_OK ||
	    (st = field_duration(c, "Elapsed", COL(FS_SC_ELAPSED), &r->has_elapsed, &r->elapsed_s)) !=
	        FS_OK ||
	    (st = field_duration(c, "Timelimit", COL(FS_SC_TIMELIMIT), &r->has_timelimit,
	                         &r->timelimit_s)) != FS_OK)
		return st;
	if ((st = field_int(c, h->at[FS_SC_NCPUS] >= 0 ? "NCPUS" : "AllocCPUS",
	                    h->at[FS_SC_NCPUS] >= 0 ? COL(FS_SC_NCPUS) : COL(FS_SC_ALLOCCPUS),
	                    &r->has_ncpus, &r->ncpus)) != FS_OK ||
	    (st = field_int(c, h->at[FS_SC_NNODES] >= 0 ? "NNodes" : "AllocNodes",
	                    h->at[FS_SC_NNODES] >= 0 ? COL(FS_SC_NNODES) : COL(FS_SC_ALLOCNODES),
	                    &r->has_nnodes, &r->nnodes)) != FS_OK ||
	    (st = field_reqmem(c, COL(FS_SC_REQMEM))) != FS_OK ||
	    (st = field_tres(c, "AllocTRES", COL(FS_SC_ALLOCTRES), &r->alloc_tres,
	                     &r->alloc_tres_len)) != FS_OK ||
	    (st = field_tres(c, "ReqTRES", COL(FS_SC_REQTRES), &r->req_tres, &r->req_tres_len)) !=
	        FS_OK)
		return st;
#undef COL
	fs_sb_append(&r->extra, "}", 1);
	if (r->start.kind != FS_ST_NONE && r->start.kind == r->end.kind &&
	    time_cmp(&r->end, &r->start) < 0)
		add_anomaly(r, "End is before Start");
	return FS_OK;
}

fs_status
fs_sacct_parse_row(const fs_sacct_header *h, const char *line, size_t len, const fs_allocator *a,
                   fs_sacct_record *rec, fs_error *err)
{
	row_ctx c;
	fs_span *f;
	size_t nsep = 0, i, k, extra, start;
	int jn = h->at[FS_SC_JOBNAME];
	fs_status st;

	memset(rec, 0, sizeof(*rec));
	c.line = line;
	c.len = len;
	c.rec = rec;
	c.a = a;
	c.err = err;
	fs_sb_init(&rec->anomalies, a, 64);
	fs_sb_init(&rec->extra, a, 128);
	if (len > 0 && line[len - 1] == '\r')
	{
		len--;
		add_anomaly(rec, "row ends with a carriage return");
	}
	if (len == 0)
	{
		fs_sacct_record_release(rec, a);
		return syntax(err, row_subject, line, len, FS_NO_POSITION, "empty row",
		              "Leave blank lines out of the rows.");
	}
	if (h->trailing)
	{
		if (line[len - 1] == '|')
			len--;
		else
			add_anomaly(rec, "row does not end with \"|\" as its header does (sacct -p): the "
			                 "record may go on in the next line");
	}
	for (i = 0; i < len; i++)
	{
		FS_POLL(i);
		if (line[i] == '|')
			nsep++;
	}
	if (nsep + 1 < h->ncols)
	{
		char problem[160];

		snprintf(problem, sizeof(problem), "the row has %zu %s but the header names %zu", nsep + 1,
		         fs_plural(nsep + 1, "field", "fields"), h->ncols);
		fs_sacct_record_release(rec, a);
		return syntax(err, row_subject, line, c.len, len, problem,
		              "A newline in a job name splits a record over two lines: join them, "
		              "or export with --delimiter and JobName last.");
	}
	extra = nsep + 1 - h->ncols;
	if (extra > 0 && jn < 0)
	{
		char problem[160];

		for (i = 0, k = 0; i < len; i++)
		{
			FS_POLL(i);
			if (line[i] == '|' && ++k == h->ncols)
				break;
		}
		snprintf(problem, sizeof(problem), "the row has %zu fields but the header names %zu",
		         nsep + 1, h->ncols);
		fs_sacct_record_release(rec, a);
		return syntax(err, row_subject, line, c.len, i, problem, row_hint);
	}
	f = a->alloc(a->ctx, h->ncols * sizeof(fs_span));
	start = 0;
	k = 0;
	for (i = 0; i <= len; i++)
	{
		FS_POLL(i);
		if (i < len && line[i] != '|')
			continue;
		if ((int) k == jn && extra > 0)
		{
			extra--; /* the job name holds this delimiter */
			continue;
		}
		f[k++] = mkspan(line + start, i - start);
		start = i + 1;
	}
	if (nsep + 1 > h->ncols)
		add_anomaly(rec, "JobName \"%s\" holds the delimiter \"|\"", show(f[jn].p, f[jn].len).s);
	st = parse_fields(&c, h, f);
	a->release(a->ctx, f);
	if (st != FS_OK)
		fs_sacct_record_release(rec, a);
	return st;
}

void
fs_sacct_record_release(fs_sacct_record *rec, const fs_allocator *a)
{
	if (rec->alloc_tres)
		a->release(a->ctx, rec->alloc_tres);
	if (rec->req_tres)
		a->release(a->ctx, rec->req_tres);
	if (rec->extra.data)
		a->release(a->ctx, rec->extra.data);
	if (rec->anomalies.data)
		a->release(a->ctx, rec->anomalies.data);
	rec->alloc_tres = rec->req_tres = NULL;
	rec->extra.data = rec->anomalies.data = NULL;
}

/* ---------------------------------------------------------------- sacctmgr associations */

/* Shares as sacctmgr writes them: a number, "parent", or 2147483647 (parent, in dumps). */
#define SLURM_FS_USE_PARENT INT64_C(2147483647)

/* a row reference that names no row: not found, or no parent set yet */
#define NO_ROW (-2)
/* bytes of the root's encoded path: just its label count */
#define ROOT_PATH_BYTES 2

typedef struct acct_ent
{
	fs_span cluster, account;
	int32_t row;
	bool used;
} acct_ent;

typedef struct assoc_state
{
	const fs_allocator *a;
	fs_error *err;
	fs_assoc_row *rows;
	size_t nrows, caprows;
	acct_ent *map; /* open addressing on (cluster, account): the account's row */
	size_t capmap, nmap;
	int lineno;
	const char *line;
	size_t linelen;
} assoc_state;

static fs_status
assoc_fail(assoc_state *s, const char *problem, const char *hint)
{
	char shown[220];

	fs_quote_excerpt(shown, sizeof(shown), s->line, s->linelen, 200);
	fs_fail(s->err, FS_ERR_SYNTAX, "invalid sacctmgr association data at line %d: \"%s\"",
	        s->lineno, shown);
	fs_error_detail(s->err, "%c%s.", fs_ascii_upper(problem[0]), problem + 1);
	fs_error_hint(s->err, "%s",
	              hint ? hint
	                   : "Give the text of a sacctmgr dump file, or of sacctmgr show assoc -P "
	                     "format=Cluster,Account,User,Partition,Share,ParentName.");
	return FS_ERR_SYNTAX;
}

static size_t
map_slot(const assoc_state *s, fs_span cluster, fs_span account)
{
	uint64_t h = fs_hash(account.p ? account.p : "", account.len) ^
	             (fs_hash(cluster.p ? cluster.p : "", cluster.len) * 31);
	size_t i = (size_t) h & (s->capmap - 1);

	for (;; i = (i + 1) & (s->capmap - 1))
	{
		const acct_ent *e = &s->map[i];

		if (!e->used)
			return i;
		if (e->account.len == account.len && e->cluster.len == cluster.len &&
		    (account.len == 0 || memcmp(e->account.p, account.p, account.len) == 0) &&
		    (cluster.len == 0 || memcmp(e->cluster.p, cluster.p, cluster.len) == 0))
			return i;
	}
}

/* The row of the account, or NO_ROW. */
static int32_t
map_get(const assoc_state *s, fs_span cluster, fs_span account)
{
	const acct_ent *e = &s->map[map_slot(s, cluster, account)];

	return e->used ? e->row : NO_ROW;
}

static void
map_put(assoc_state *s, fs_span cluster, fs_span account, int32_t row)
{
	size_t i;

	if (2 * (s->nmap + 1) > s->capmap)
	{
		acct_ent *old = s->map;
		size_t oldcap = s->capmap, k;

		s->capmap *= 2;
		s->map = s->a->alloc(s->a->ctx, s->capmap * sizeof(acct_ent));
		memset(s->map, 0, s->capmap * sizeof(acct_ent));
		for (k = 0; k < oldcap; k++)
		{
			FS_POLL(k);
			if (old[k].used)
				s->map[map_slot(s, old[k].cluster, old[k].account)] = old[k];
		}
		s->a->release(s->a->ctx, old);
	}
	i = map_slot(s, cluster, account);
	if (!s->map[i].used)
		s->nmap++;
	s->map[i].cluster = cluster;
	s->map[i].account = account;
	s->map[i].row = row;
	s->map[i].used = true;
}

static fs_status
parse_shares(assoc_state *s, const char *v, size_t len, fs_assoc_row *r)
{
	int64_t x;

	if (fs_span_ieq(v, len, "parent"))
	{
		r->from_parent = true;
		return FS_OK;
	}
	if (!parse_uint(v, len, INT64_C(999999999999), &x))
		return assoc_fail(s, "shares must be a whole number or \"parent\"", NULL);
	if (x == SLURM_FS_USE_PARENT)
		r->from_parent = true;
	else
	{
		r->has_shares = true;
		r->shares = (double) x;
	}
	return FS_OK;
}

static const fs_span root_name = {"root", 4};

/*
 * Add a row whose path is the path of row `parent` (a row index or FS_ASSOC_ROOT) and `label`,
 * or the root when label is NULL. Only the label is kept: the path is written when emitted.
 */
static fs_status
add_row(assoc_state *s, int32_t parent, const char *label, size_t labellen, fs_assoc_row **out)
{
	fs_assoc_row *r;

	if (s->nrows == s->caprows)
	{
		fs_assoc_row *old = s->rows;

		s->caprows = s->caprows ? 2 * s->caprows : 16;
		s->rows = s->a->alloc(s->a->ctx, s->caprows * sizeof(fs_assoc_row));
		if (old)
		{
			memcpy(s->rows, old, s->nrows * sizeof(fs_assoc_row));
			s->a->release(s->a->ctx, old);
		}
	}
	r = &s->rows[s->nrows];
	memset(r, 0, sizeof(*r));
	r->line = s->lineno;
	r->parent = FS_ASSOC_ROOT;
	r->pathlen = ROOT_PATH_BYTES;
	if (label != NULL)
	{
		const fs_assoc_row *p = parent >= 0 ? &s->rows[parent] : NULL;
		uint32_t depth = (p ? p->depth : 0) + 1;
		fs_status st = fs_sp_check_depth(depth, s->err);

		if (st == FS_OK)
			st = fs_sp_check_label(label, labellen, depth - 1, s->err);
		if (st != FS_OK)
		{
			char msg[FS_MSG_LEN];

			snprintf(msg, sizeof(msg), "%s", s->err->message);
			return assoc_fail(s, msg, NULL);
		}
		r->parent = parent;
		r->label.p = label;
		r->label.len = labellen;
		r->depth = depth;
		r->pathlen = (p ? p->pathlen : ROOT_PATH_BYTES) + 1 + labellen;
	}
	s->nrows++;
	*out = r;
	return FS_OK;
}

/* The cluster's root row, or FS_ASSOC_ROOT when no row holds the root (the same empty path). */
static int32_t
root_row(const assoc_state *s, fs_span cluster)
{
	int32_t r = map_get(s, cluster, root_name);

	return r != NO_ROW ? r : FS_ASSOC_ROOT;
}

/* A dump name: 'quoted' or bare up to ':'; *end is the offset after it. */
static fs_span
dump_name(const char *p, size_t len, size_t *end)
{
	size_t i;

	if (len > 0 && p[0] == '\'')
	{
		const char *q = memchr(p + 1, '\'', len - 1);

		if (q)
		{
			*end = (size_t) (q - p) + 1;
			return mkspan(p + 1, (size_t) (q - p) - 1);
		}
	}
	for (i = 0; i < len && p[i] != ':'; i++)
		;
	*end = i;
	while (i > 0 && p[i - 1] == ' ')
		i--;
	return mkspan(p, i);
}

/* The value of option `key` in ":Key=value:Key='v:w'" (quotes kept out), or p == NULL. */
static fs_span
dump_option(const char *p, size_t len, const char *key)
{
	size_t i = 0, kl = strlen(key);

	while (i < len)
	{
		size_t st, vs;
		bool q = false;

		if (p[i] == ':')
			i++;
		st = i;
		while (i < len && (q || p[i] != ':'))
		{
			if (p[i] == '\'')
				q = !q;
			i++;
		}
		if (i - st > kl && p[st + kl] == '=' && fs_span_ieq(p + st, kl, key))
		{
			vs = st + kl + 1;
			if (i - vs >= 2 && p[vs] == '\'' && p[i - 1] == '\'')
				return mkspan(p + vs + 1, i - vs - 2);
			return mkspan(p + vs, i - vs);
		}
	}
	return mkspan(NULL, 0);
}

static fs_status
dump_line(assoc_state *s, const char *p, size_t len, fs_span *cluster, int32_t *parent,
          fs_span *parent_name)
{
	size_t w = 0, end;
	fs_span name, fsv;
	fs_assoc_row *r;
	fs_status st;
	enum
	{
		K_CLUSTER,
		K_PARENT,
		K_ACCOUNT,
		K_USER,
		K_OTHER
	} kind;

	while (w < len && p[w] != ' ')
		w++;
	if (w + 3 > len || memcmp(p + w, " - ", 3) != 0)
		return assoc_fail(s, "a dump line reads \"Kind - 'name':Option=value...\"", NULL);
	if (fs_span_ieq(p, w, "Cluster"))
		kind = K_CLUSTER;
	else if (fs_span_ieq(p, w, "Parent"))
		kind = K_PARENT;
	else if (fs_span_ieq(p, w, "Account"))
		kind = K_ACCOUNT;
	else if (fs_span_ieq(p, w, "User"))
		kind = K_USER;
	else if (fs_span_ieq(p, w, "QOS") || fs_span_ieq(p, w, "Federation"))
		kind = K_OTHER;
	else
		return assoc_fail(s, "unknown line kind (Cluster, Parent, Account, User or QOS expected)",
		                  NULL);
	p += w + 3;
	len -= w + 3;
	name = dump_name(p, len, &end);
	if (name.p == NULL)
		return assoc_fail(s, "the name is empty", NULL);
	p += end;
	len -= end;
	if (kind == K_OTHER)
		return FS_OK;
	if (kind == K_PARENT)
	{
		int32_t pp = fs_span_ieq(name.p, name.len, "root") ? root_row(s, *cluster)
		                                                   : map_get(s, *cluster, name);

		if (pp == NO_ROW)
			return assoc_fail(s, "the parent account is not defined on an earlier line", NULL);
		*parent = pp;
		*parent_name = name;
		return FS_OK;
	}
	if (kind == K_CLUSTER)
	{
		*cluster = name;
		st = add_row(s, NO_ROW, NULL, 0, &r);
		if (st != FS_OK)
			return st;
		r->account = root_name;
		map_put(s, name, root_name, (int32_t) (s->nrows - 1));
		*parent = (int32_t) (s->nrows - 1);
		*parent_name = root_name;
	}
	else
	{
		if (kind == K_ACCOUNT && map_get(s, *cluster, name) != NO_ROW)
			return assoc_fail(s, "the account is defined twice", NULL);
		st = add_row(s, *parent != NO_ROW ? *parent : root_row(s, *cluster), name.p, name.len, &r);
		if (st != FS_OK)
			return st;
		if (kind == K_ACCOUNT)
		{
			r->account = name;
			map_put(s, *cluster, name, (int32_t) (s->nrows - 1));
		}
		else
		{
			r->account = *parent != NO_ROW ? *parent_name : root_name;
			r->user = name;
			r->partition = dump_option(p, len, "Partition");
		}
	}
	r->cluster = *cluster;
	fsv = dump_option(p, len, "Fairshare");
	if (fsv.p == NULL)
	{
		r->has_shares = true; /* Slurm's default */
		r->shares = 1;
		return FS_OK;
	}
	return parse_shares(s, fsv.p, fsv.len, r);
}

/* `sacctmgr show assoc -P` listing: the header's columns, by name. */
typedef struct list_cols
{
	int cluster, account, user, partition, share, parent;
	size_t ncols;
	bool trailing;
} list_cols;

static fs_status
list_header(assoc_state *s, const char *p, size_t len, list_cols *lc)
{
	size_t i, st = 0, c = 0;

	lc->cluster = lc->account = lc->user = lc->partition = lc->share = lc->parent = -1;
	lc->trailing = len > 0 && p[len - 1] == '|';
	if (lc->trailing)
		len--;
	for (i = 0; i <= len; i++)
	{
		const char *nm = p + st;
		size_t nl = i - st;

		if (i < len && p[i] != '|')
			continue;
		if (fs_span_ieq(nm, nl, "Cluster"))
			lc->cluster = (int) c;
		else if (fs_span_ieq(nm, nl, "Account"))
			lc->account = (int) c;
		else if (fs_span_ieq(nm, nl, "User"))
			lc->user = (int) c;
		else if (fs_span_ieq(nm, nl, "Partition"))
			lc->partition = (int) c;
		else if (fs_span_ieq(nm, nl, "Share") || fs_span_ieq(nm, nl, "Fairshare"))
			lc->share = (int) c;
		else if (fs_span_ieq(nm, nl, "ParentName") || fs_span_ieq(nm, nl, "Par Name"))
			lc->parent = (int) c;
		c++;
		st = i + 1;
	}
	lc->ncols = c;
	if (lc->account < 0 || lc->share < 0)
		return assoc_fail(s, "the header has no Account or no Share column",
		                  "List the associations with sacctmgr show assoc -P "
		                  "format=Cluster,Account,User,Partition,Share,ParentName.");
	return FS_OK;
}

#define LIST_DEPTH_MAX 64

static fs_status
list_line(assoc_state *s, const list_cols *lc, const char *p, size_t len,
          int32_t *stack /* [LIST_DEPTH_MAX]: account rows by indentation */)
{
	fs_span f[64];
	size_t i, st = 0, c = 0, depth = 0;
	fs_span cluster, account, user, parent;
	int32_t pp;
	fs_assoc_row *r;
	fs_status rs;

	if (lc->trailing && len > 0 && p[len - 1] == '|')
		len--;
	for (i = 0; i <= len; i++)
	{
		if (i < len && p[i] != '|')
			continue;
		if (c < 64)
			f[c] = mkspan(p + st, i - st);
		c++;
		st = i + 1;
	}
	if (c != lc->ncols || c > 64)
		return assoc_fail(s, "the line has another number of fields than the header", NULL);
#define F(x) ((x) >= 0 ? f[x] : mkspan(NULL, 0))
	cluster = F(lc->cluster);
	account = F(lc->account);
	user = F(lc->user);
	parent = F(lc->parent);
#undef F
	while (account.len > 0 && account.p[0] == ' ')
	{
		account.p++;
		account.len--;
		depth++;
	}
	if (account.len == 0)
		return assoc_fail(s, "the account is empty", NULL);
	if (user.p)
	{
		pp = map_get(s, cluster, account);
		if (pp == NO_ROW)
			return assoc_fail(s, "the user's account is not listed on an earlier line", NULL);
		rs = add_row(s, pp, user.p, user.len, &r);
	}
	else if (fs_span_ieq(account.p, account.len, "root") && parent.p == NULL && depth == 0)
		rs = add_row(s, NO_ROW, NULL, 0, &r);
	else
	{
		if (lc->parent >= 0)
			pp = parent.p
			         ? (fs_span_ieq(parent.p, parent.len, "root") ? root_row(s, cluster)
			                                                      : map_get(s, cluster, parent))
			         : root_row(s, cluster);
		else
			pp = depth == 0 ? root_row(s, cluster)
			                : (depth - 1 < LIST_DEPTH_MAX ? stack[depth - 1] : NO_ROW);
		if (pp == NO_ROW)
			return assoc_fail(s, "the parent account is not listed on an earlier line",
			                  lc->parent >= 0 ? NULL
			                                  : "Without a ParentName column the tree comes from "
			                                    "the indentation of sacctmgr's tree option.");
		if (map_get(s, cluster, account) != NO_ROW)
			return assoc_fail(s, "the account is listed twice", NULL);
		rs = add_row(s, pp, account.p, account.len, &r);
	}
	if (rs != FS_OK)
		return rs;
	if (!user.p)
	{
		map_put(s, cluster, account, (int32_t) (s->nrows - 1));
		if (depth < LIST_DEPTH_MAX)
		{
			stack[depth] = (int32_t) (s->nrows - 1);
			for (i = depth + 1; i < LIST_DEPTH_MAX; i++)
				stack[i] = NO_ROW;
		}
	}
	r->cluster = cluster;
	r->account = account;
	r->user = user;
	r->partition = lc->partition >= 0 ? f[lc->partition] : mkspan(NULL, 0);
	if (f[lc->share].p == NULL)
		return assoc_fail(s, "the share is empty", NULL);
	return parse_shares(s, f[lc->share].p, f[lc->share].len, r);
}

fs_status
fs_sacctmgr_assoc(const char *doc, size_t len, const fs_allocator *a, fs_assoc_row **rows,
                  size_t *nrows, fs_error *err)
{
	assoc_state s;
	size_t pos = 0;
	fs_status st = FS_OK;
	int mode = 0; /* 0: not known yet, 1: dump, 2: listing */
	list_cols lc;
	fs_span cluster = {NULL, 0}, parent_name = {NULL, 0};
	int32_t parent = NO_ROW;
	int32_t stack[LIST_DEPTH_MAX];
	size_t k;

	memset(&s, 0, sizeof(s));
	for (k = 0; k < LIST_DEPTH_MAX; k++)
		stack[k] = NO_ROW;
	memset(&lc, 0, sizeof(lc));
	s.a = a;
	s.err = err;
	s.capmap = 64;
	s.map = a->alloc(a->ctx, s.capmap * sizeof(acct_ent));
	memset(s.map, 0, s.capmap * sizeof(acct_ent));
	while (pos < len && st == FS_OK)
	{
		const char *nl = memchr(doc + pos, '\n', len - pos);
		size_t end = nl ? (size_t) (nl - doc) : len, b = pos, e = end;

		fs_check_interrupts();
		s.lineno++;
		s.line = doc + pos;
		s.linelen = end - pos;
		pos = end + 1;
		if (e > b && doc[e - 1] == '\r')
			e--;
		while (b < e && fs_is_space(doc[b]) && mode != 2)
			b++;
		while (e > b && fs_is_space(doc[e - 1]))
			e--;
		if (b == e || (doc[b] == '#' && mode != 2))
			continue;
		if (mode == 0)
		{
			mode = memchr(doc + b, '|', e - b) ? 2 : 1;
			if (mode == 2)
			{
				st = list_header(&s, doc + b, e - b, &lc);
				continue;
			}
		}
		if (mode == 1)
			st = dump_line(&s, doc + b, e - b, &cluster, &parent, &parent_name);
		else
			st = list_line(&s, &lc, doc + b, e - b, stack);
	}
	a->release(a->ctx, s.map);
	if (st != FS_OK)
	{
		fs_sacctmgr_assoc_release(s.rows, s.nrows, a);
		*rows = NULL;
		*nrows = 0;
		return st;
	}
	*rows = s.rows;
	*nrows = s.nrows;
	return FS_OK;
}

void
fs_sacctmgr_assoc_path(const fs_assoc_row *rows, size_t i, uint8_t *out)
{
	const fs_assoc_row *r = &rows[i];
	size_t pos = r->pathlen;

	/* labels from the last up the parent chain, each written where its prefix ends */
	fs_sp_set_nlevel(out, r->depth);
	while (r->label.p != NULL)
	{
		pos -= r->label.len;
		memcpy(out + pos, r->label.p, r->label.len);
		out[--pos] = (uint8_t) r->label.len;
		if (r->parent == FS_ASSOC_ROOT)
			break;
		r = &rows[r->parent];
	}
}

void
fs_sacctmgr_assoc_release(fs_assoc_row *rows, size_t nrows, const fs_allocator *a)
{
	(void) nrows;
	if (rows != NULL)
		a->release(a->ctx, rows);
}
