/*
 * sacct.c: Slurm accounting text: `sacct --parsable2` rows against their header, and durations and
 * sizes as sacct prints them. One pass over each line, no allocation per field. (sacctmgr's
 * associations are in sacctmgr.c.)
 */
#include "load/sacct.h"

#include "load/plausible.h"
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
	const fs_str *x = &((const fs_str *) ctx)[entry], *y = key;

	return x->len == y->len && memcmp(x->s, y->s, x->len) == 0;
}

/* Whether the delimiter of h starts at s[i] (i < len). */
static inline bool
delim_at(const fs_sacct_header *h, const char *s, size_t len, size_t i)
{
	return s[i] == h->delim[0] &&
	       (h->dlen == 1 || (len - i >= h->dlen && memcmp(s + i, h->delim, h->dlen) == 0));
}

/* Where the next delimiter of h starts in s[i..len), or len (fields are short: a byte loop). */
static inline size_t
next_delim(const fs_sacct_header *h, const char *s, size_t len, size_t i)
{
	char d = h->delim[0];

	for (; i < len; i++)
		if (s[i] == d &&
		    (h->dlen == 1 || (len - i >= h->dlen && memcmp(s + i, h->delim, h->dlen) == 0)))
			return i;
	return len;
}

/* The header's hint, naming its delimiter. */
static void
header_hint(char *buf, size_t cap, const fs_sacct_header *h)
{
	snprintf(buf, cap,
	         "The header is the first line sacct --parsable2 prints: column names separated by "
	         "\"%s\".",
	         h->delim);
}

/* jsonb's key order of two columns: the shorter name first, then bytes */
static int
extra_col_cmp(const void *x, const void *y, void *ctx)
{
	const fs_sacct_header *h = ctx;
	const fs_str *a = &h->names[*(const size_t *) x], *b = &h->names[*(const size_t *) y];

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->s, b->s, a->len);
}

/*
 * The columns with no field of their own (and AllocCPUS, AllocNodes and JobName, which have one
 * and are kept too) in jsonb's key order, so that each row's extra comes sorted: O(n log n) once
 * per header. The names are distinct (a repeated one is refused).
 */
static void
extra_columns(fs_sacct_header *h, const fs_allocator *a)
{
	size_t k;

	h->extra_cols = a->alloc(a->ctx, (h->ncols + 1) * sizeof(size_t));
	h->nextra_cols = 0;
	for (k = 0; k < h->ncols; k++)
	{
		int kn = h->known[k];

		if (kn >= 0 && kn != FS_SC_ALLOCCPUS && kn != FS_SC_ALLOCNODES && kn != FS_SC_JOBNAME)
			continue;
		h->extra_cols[h->nextra_cols++] = k;
	}
	fs_sort(h->extra_cols, h->nextra_cols, sizeof(size_t), extra_col_cmp, h, a);
}

/*
 * Linear in the header: the names go into a hash index as they come (a duplicate is found in
 * O(1)), and the loop polls for interrupts, so that a header of many columns can be cancelled.
 */
fs_status
fs_sacct_header_parse(const char *text, size_t len, const char *delim, size_t dlen,
                      const fs_allocator *a, fs_sacct_header *h, fs_error *err)
{
	static const char subject[] = "sacct header";
	char hint[FS_MSG_LEN];
	size_t n = 1, i, start, c, nknown = 0;
	const char *sep;
	size_t seplen;
	bool found = false;
	size_t dup_at = SIZE_MAX;
	fs_hindex seen;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < FS_SC_NKNOWN; i++)
		h->at[i] = -1;
	h->at_elapsed_raw = h->at_timelimit_raw = -1;
	if (dlen == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "the sacct delimiter is empty");
		fs_error_hint(err, "Give the string sacct was run with as --delimiter, or \"|\" "
		                   "(sacct's default).");
		return FS_ERR_VALUE;
	}
	if (dlen > FS_SACCT_MAX_DELIM)
	{
		fs_fail(err, FS_ERR_LIMIT, "the sacct delimiter is too long");
		fs_error_detail(err, "The delimiter has %zu bytes; at most %d are read.", dlen,
		                FS_SACCT_MAX_DELIM);
		fs_error_hint(err, "Give the string sacct was run with as --delimiter.");
		return FS_ERR_LIMIT;
	}
	memcpy(h->delim, delim, dlen);
	h->delim[dlen] = '\0';
	h->dlen = dlen;
	header_hint(hint, sizeof(hint), h);
	if (len > 0 && text[len - 1] == '\r')
		len--;
	if (len >= 10 && memcmp(text, "--format=", 9) == 0)
	{
		text += 9; /* the option as written on the command line */
		len -= 9;
	}
	/* a header without the delimiter and with a comma is a --format list */
	for (i = 0; i < len && !found; i++)
	{
		FS_POLL(i);
		found = delim_at(h, text, len, i);
	}
	h->format_list = !found && memchr(text, ',', len) != NULL;
	sep = h->format_list ? "," : h->delim;
	seplen = h->format_list ? 1 : h->dlen;
	for (i = 0; i < len; i++)
	{
		FS_POLL(i);
		if (text[i] == sep[0] &&
		    (seplen == 1 || (len - i >= seplen && memcmp(text + i, sep, seplen) == 0)))
		{
			n++;
			i += seplen - 1;
		}
	}
	if (len >= seplen && memcmp(text + len - seplen, sep, seplen) == 0)
	{
		if (!h->format_list)
			h->trailing = true; /* sacct -p: a delimiter after the last column */
		len -= seplen;
		n--;
	}
	if (len == 0)
		return syntax(err, subject, text, len, FS_NO_POSITION, "no column names", hint);
	h->names = a->alloc(a->ctx, n * sizeof(fs_str));
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
		if (i < len &&
		    !(text[i] == sep[0] &&
		      (seplen == 1 || (len - i >= seplen && memcmp(text + i, sep, seplen) == 0))))
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
		if (h->format_list)
		{
			/* a field width (jobname%30) is not part of the name */
			size_t w = nl;

			while (w > 0 && fs_is_digit(nm[w - 1]))
				w--;
			if (w > 0 && w < nl && nm[w - 1] == '%')
				nl = w - 1;
		}
		if (nl == 0)
		{
			a->release(a->ctx, seen.slots);
			fs_sacct_header_free(h, a);
			return syntax(err, subject, text, len + (h->trailing ? seplen : 0), start,
			              "empty column name", hint);
		}
		h->names[c] = fs_str_of(nm, nl);
		h->known[c] = -1;
		if (fs_span_ieq(nm, nl, "ElapsedRaw"))
			h->at_elapsed_raw = (int) c;
		else if (fs_span_ieq(nm, nl, "TimelimitRaw"))
			h->at_timelimit_raw = (int) c;
		/* a repeated name is an error, but that of a header of no known column (a first row of
		 * data: JobID and JobIDRaw alike) is the one below, found at the end */
		if (fs_hindex_put(&seen, fs_hash(nm, nl), &h->names[c], (uint32_t) c, span_array_eq,
		                  h->names) != (uint32_t) c &&
		    dup_at == SIZE_MAX)
			dup_at = start;
		for (k = 0; k < FS_SC_NKNOWN; k++)
			if (fs_span_ieq(nm, nl, known_names[k]))
			{
				if (h->at[k] >= 0)
				{
					a->release(a->ctx, seen.slots);
					fs_sacct_header_free(h, a);
					return syntax(err, subject, text, len, start, "duplicate column name", hint);
				}
				h->at[k] = (int) c;
				h->known[c] = (int) k;
				nknown++;
			}
		c++;
		start = i + seplen;
		i += seplen - 1;
	}
	a->release(a->ctx, seen.slots);
	if (nknown == 0)
	{
		char problem[200];

		/* another --delimiter, or a --noheader export's first row taken for the header */
		snprintf(problem, sizeof(problem),
		         "no column is one sacct_row knows (JobID, User, State, Submit, Elapsed, ...): "
		         "the header split on \"%s\" gives %zu %s",
		         h->format_list ? "," : h->delim, h->ncols, fs_plural(h->ncols, "name", "names"));
		fs_sacct_header_free(h, a);
		snprintf(hint, sizeof(hint),
		         "Was sacct run with --delimiter? Pass the same string as delimiter. Was it run "
		         "with --noheader? Pass its --format list (such as "
		         "\"JobID,User,State,Elapsed\") as the header.");
		return syntax(err, subject, text, len, FS_NO_POSITION, problem, hint);
	}
	if (dup_at != SIZE_MAX)
	{
		fs_sacct_header_free(h, a);
		return syntax(err, subject, text, len, dup_at, "duplicate column name", hint);
	}
	extra_columns(h, a);
	return FS_OK;
}

void
fs_sacct_header_free(fs_sacct_header *h, const fs_allocator *a)
{
	if (h->names)
		a->release(a->ctx, h->names);
	if (h->known)
		a->release(a->ctx, h->known);
	if (h->extra_cols)
		a->release(a->ctx, h->extra_cols);
	h->names = NULL;
	h->known = NULL;
	h->extra_cols = NULL;
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
field_int(row_ctx *c, const char *col, fs_str f, bool *has, int32_t *out)
{
	int64_t v;
	char problem[100];

	if (f.s == NULL)
		return FS_OK;
	if (!fs_parse_digits(f.s, f.len, INT32_MAX, &v))
	{
		snprintf(problem, sizeof(problem), "%s must be a whole number below 2^31", col);
		return bad(c, f.s, problem, NULL);
	}
	*has = true;
	*out = (int32_t) v;
	return FS_OK;
}

/*
 * ElapsedRaw (seconds) or TimelimitRaw (minutes; UNLIMITED and Partition_Limit are no value):
 * the duration when the row has none from Elapsed or Timelimit.
 */
static fs_status
field_raw_seconds(row_ctx *c, const char *col, fs_str f, double unit, bool *has, double *out)
{
	int64_t v;
	char problem[100];

	if (*has || f.s == NULL || f.len == 0 || fs_span_ieq(f.s, f.len, "UNLIMITED") ||
	    fs_span_ieq(f.s, f.len, "Partition_Limit"))
		return FS_OK;
	if (!fs_parse_digits(f.s, f.len, INT64_C(1) << 50, &v))
	{
		snprintf(problem, sizeof(problem), "%s must be a whole number", col);
		return bad(c, f.s, problem, NULL);
	}
	*has = true;
	*out = (double) v * unit;
	return FS_OK;
}

/*
 * Submit, Eligible, Start, End: epoch seconds, or a local YYYY-MM-DDTHH:MM:SS (a blank for the
 * T) checked as a date; Unknown and None are no value, kept as an anomaly.
 */
static fs_status
field_time(row_ctx *c, const char *col, fs_str f, fs_sacct_time *t)
{
	const char *s = f.s;
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
	if (fs_parse_digits(s, f.len, INT64_C(999999999999), &v))
	{
		t->kind = FS_ST_EPOCH;
		t->epoch = v;
		return FS_OK;
	}
	for (k = 0; k < 6; k++)
	{
		int x = 0, w;

		if (k > 0)
		{
			char sep = k < 3 ? '-' : (k == 3 ? 'T' : ':');

			if (i >= f.len || (s[i] != sep && !(k == 3 && s[i] == ' ')))
				goto shape;
			i++;
		}
		for (w = 0; w < widths[k]; w++, i++)
		{
			if (i >= f.len || !fs_is_digit(s[i]))
				goto shape;
			x = x * 10 + (s[i] - '0');
		}
		vals[k] = x;
	}
	if (i != f.len)
		goto shape;
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
shape:
	/* the message only when a row needs it: it is written with the column's name */
	snprintf(problem, sizeof(problem), "%s must be YYYY-MM-DDTHH:MM:SS or epoch seconds", col);
	return bad(c, s + (i < f.len ? i : f.len - 1), problem, NULL);
}

/* Elapsed, Timelimit: the words for no value (UNLIMITED...) leave *has false, as an anomaly. */
static fs_status
field_duration(row_ctx *c, const char *col, fs_str f, bool *has, double *out)
{
	const char *why, *problem;
	size_t at;
	char msg[200];

	if (f.s == NULL)
		return FS_OK;
	switch (parse_duration(f.s, f.len, out, &why, &at, &problem))
	{
		case DUR_OK:
			*has = true;
			if (fs_load_cut_duration(f.s, f.len))
				add_anomaly(c->rec,
				            "cut duration: %s \"%.*s\" is not a duration Slurm writes "
				            "([D-]HH:MM:SS); read as M:S, %.0f s (a truncated line?)",
				            col, (int) f.len, f.s, *out);
			else if (*out > FS_LOAD_WALL_MAX && strcmp(col, "Elapsed") == 0)
				add_anomaly(c->rec, "implausible duration: %s \"%.*s\" is over 2^31 s (68 years)",
				            col, (int) f.len, f.s);
			return FS_OK;
		case DUR_NULL:
			add_anomaly(c->rec, "%s is %s", col, why);
			return FS_OK;
		default:
			snprintf(msg, sizeof(msg), "%s: %s", col, problem);
			return bad(c, f.s + at, msg,
			           "Slurm writes durations as [D-]HH:MM:SS or MM:SS.mmm, or UNLIMITED, "
			           "Partition_Limit or Unknown.");
	}
}

/* ExitCode code[:signal], both 32-bit whole numbers. */
static fs_status
field_exit(row_ctx *c, fs_str f)
{
	fs_sacct_record *r = c->rec;
	const char *colon;
	int64_t v;
	static const char problem[] = "ExitCode must be code:signal (two whole numbers)";

	if (f.s == NULL)
		return FS_OK;
	colon = memchr(f.s, ':', f.len);
	if (!fs_parse_digits(f.s, colon ? (size_t) (colon - f.s) : f.len, INT32_MAX, &v))
		return bad(c, f.s, problem, NULL);
	r->has_exit_code = true;
	r->exit_code = (int32_t) v;
	if (colon)
	{
		if (!fs_parse_digits(colon + 1, f.len - (size_t) (colon + 1 - f.s), INT32_MAX, &v))
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

/*
 * State: the first word against Slurm's state names (any case, kept in their spelling), with
 * "CANCELLED by <uid>" read; an unknown state is kept as written and, like any other extra text,
 * noted as an anomaly.
 */
static void
field_state(row_ctx *c, fs_str f)
{
	fs_sacct_record *r = c->rec;
	size_t w = 0, k;
	const char *known = NULL;

	if (f.s == NULL)
		return;
	while (w < f.len && f.s[w] != ' ')
		w++;
	for (k = 0; k < sizeof(states) / sizeof(states[0]); k++)
		if (fs_span_ieq(f.s, w, states[k]))
			known = states[k];
	if (known == NULL)
	{
		r->state = f;
		add_anomaly(r, "unknown State \"%s\"", show(f.s, f.len).s);
		return;
	}
	r->state = fs_str_of(known, strlen(known));
	if (w == f.len)
		return;
	if (strcmp(known, "CANCELLED") == 0 && f.len > w + 4 && memcmp(f.s + w, " by ", 4) == 0)
	{
		int64_t uid;

		if (fs_parse_digits(f.s + w + 4, f.len - w - 4, INT32_MAX, &uid))
		{
			r->has_cancelled_by = true;
			r->cancelled_by = (int32_t) uid;
			return;
		}
	}
	add_anomaly(r, "State \"%s\" has more than a state name", show(f.s, f.len).s);
}

/* label [_task | _[spec] | +offset] [.step]; JobIDRaw: digits [.step] */
static fs_status
field_jobid(row_ctx *c, fs_str id, fs_str raw)
{
	fs_sacct_record *r = c->rec;
	static const char hint[] =
	    "Slurm writes job ids as 123, 123_4, 123_[1-5%2], 123+1, with an optional .batch, "
	    ".extern or .N step.";
	int64_t base = 0, v, rawnum = 0;
	bool plain = true, has_raw = false;
	fs_str step = {NULL, 0}, rawstep = {NULL, 0}, spec = {NULL, 0};
	size_t i = 0, st;

	if (id.s)
	{
		const char *s = id.s;

		while (i < id.len && fs_is_digit(s[i]))
			i++;
		if (!fs_parse_digits(s, i, INT64_MAX, &base))
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
				spec = fs_str_of(s + st, i - st);
				i++;
			}
			else
			{
				st = i;
				while (i < id.len && fs_is_digit(s[i]))
					i++;
				if (!fs_parse_digits(s + st, i - st, INT32_MAX, &v))
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
			if (!fs_parse_digits(s + st, i - st, INT32_MAX, &v))
				return bad(c, s + st, "JobID: expected a het job component number", hint);
			r->has_het_job_id = true;
			r->het_job_id = base;
			r->has_het_offset = true;
			r->het_offset = (int32_t) v;
			plain = v == 0; /* component 0 has the het job's own id */
		}
		if (i < id.len && s[i] == '.')
		{
			step = fs_str_of(s + i + 1, id.len - i - 1);
			for (st = i + 1; st < id.len; st++)
				if (!(fs_is_digit(s[st]) ||
				      (fs_ascii_upper(s[st]) >= 'A' && fs_ascii_upper(s[st]) <= 'Z') ||
				      s[st] == '_' || s[st] == '-'))
					break;
			if (step.s == NULL || st != id.len)
				return bad(c, s + st, "JobID: invalid step name", hint);
			i = id.len;
		}
		if (i != id.len)
			return bad(c, s + i, "unexpected character in JobID", hint);
	}
	if (raw.s)
	{
		const char *dot = memchr(raw.s, '.', raw.len);
		size_t nl = dot ? (size_t) (dot - raw.s) : raw.len;

		if (!fs_parse_digits(raw.s, nl, INT64_MAX, &rawnum))
			return bad(c, raw.s, "JobIDRaw must be the job number with an optional .step", hint);
		has_raw = true;
		if (dot)
		{
			rawstep = fs_str_of(dot + 1, raw.len - nl - 1);
			if (rawstep.s == NULL)
				return bad(c, dot, "JobIDRaw: invalid step name", hint);
		}
	}
	if (has_raw)
	{
		r->has_job_seq = true;
		r->job_seq = rawnum;
	}
	else if (id.s && plain)
	{
		r->has_job_seq = true;
		r->job_seq = base;
	}
	r->step = id.s ? step : rawstep;
	if (id.s && raw.s &&
	    (step.len != rawstep.len || (step.len && memcmp(step.s, rawstep.s, step.len) != 0)))
		add_anomaly(r, "JobID \"%s\" and JobIDRaw \"%s\" name different steps",
		            show(id.s, id.len).s, show(raw.s, raw.len).s);
	if (spec.s)
	{
		add_anomaly(r, "JobID \"%s\" stands for the array tasks \"%.*s\" in one row",
		            show(id.s, id.len).s, (int) spec.len, spec.s);
		/* parse_fields leaves a place for it */
		r->extra[r->nextra].key = fs_str_of("array_task_spec", 15);
		r->extra[r->nextra++].val = spec;
	}
	return FS_OK;
}

/* A TRES list (cpu=8,mem=64G,gres/gpu:a100=2,license/x@y=1,1001=5) as an encoded resvec. */
static fs_status
field_tres(row_ctx *c, const char *col, fs_str f, uint8_t **out, size_t *outlen)
{
	fs_rv_item *items;
	char *names;
	size_t n = 1, i, k = 0, start = 0, np = 0;
	fs_status st;

	*out = NULL;
	if (f.s == NULL)
		return FS_OK;
	for (i = 0; i < f.len; i++)
		if (f.s[i] == ',')
			n++;
	items = c->a->alloc(c->a->ctx, n * sizeof(fs_rv_item));
	names = c->a->alloc(c->a->ctx, n * 24 + 1);
	for (i = 0; i <= f.len; i++)
	{
		const char *e, *nm = f.s + start, *val;
		size_t elen, nl, vl, used;
		double amt;
		bool unit, sizeish;
		int64_t id;

		if (i < f.len && f.s[i] != ',')
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
		if (fs_parse_digits(nm, nl, INT64_C(999999999999), &id))
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
		return bad(c, f.s, msg, NULL);
	}
	return FS_OK;
}

/*
 * Slurm before 17.02 kept ReqMem's per-CPU flag in bit 31 of the MB count (MEM_PER_CPU was
 * 0x80000000); a later sacct no longer knows that bit and prints the record as a per-node (or,
 * from 21.08, whole-job) size of petabytes: `2147486648Mn` is 3000M per CPU. The 64-bit form
 * (`9223372036854778808Mn`, bit 63) is decoded too. The digits are read exactly: a double would
 * round the 64-bit form. Constant time.
 */
static void
reqmem_old_flag(fs_sacct_record *r, fs_str f, double *bytes, char *per)
{
	uint64_t mb = 0, flag = 0;
	size_t d = 0;

	for (; d < f.len && fs_is_digit(f.s[d]); d++)
	{
		if (mb > (UINT64_MAX - (uint64_t) (f.s[d] - '0')) / 10)
			return;
		mb = mb * 10 + (uint64_t) (f.s[d] - '0');
	}
	if (d == 0 || d >= f.len || f.s[d] != 'M' || !(d + 1 == f.len || f.s[d + 1] == 'n'))
		return;
	if (mb >> 63)
		flag = UINT64_C(1) << 63;
	else if ((mb >> 31) == 1)
		flag = UINT64_C(1) << 31;
	else
		return;
	mb -= flag;
	add_anomaly(r,
	            "ReqMem \"%.*s\" has the per-CPU flag of Slurm before 17.02 in bit %d: read as "
	            "%lluMc",
	            (int) f.len, f.s, flag >> 63 ? 63 : 31, (unsigned long long) mb);
	*bytes = ldexp((double) mb, 20);
	*per = 'c';
}

/* ReqMem for the whole job: per CPU (c) and per node (n) before 21.08, the total after. */
static fs_status
field_reqmem(row_ctx *c, fs_str f)
{
	fs_sacct_record *r = c->rec;
	double bytes;
	bool unit;
	size_t used;
	char per = 0;

	if (f.s == NULL)
		return FS_OK;
	used = parse_size(f.s, f.len, &bytes, &unit);
	if (used > 0 && used + 1 == f.len && (f.s[used] == 'c' || f.s[used] == 'n'))
		per = f.s[used++];
	if (used == 0 || used != f.len)
		return bad(c, f.s + used, "ReqMem must be a size (3000M, 1.50G) with an optional c or n",
		           NULL);
	if (per != 'c')
		reqmem_old_flag(r, f, &bytes, &per);
	if (per && r->step.s)
	{
		add_anomaly(r, "ReqMem \"%.*s\" on a step row repeats the job's request; no step total",
		            (int) f.len, f.s);
		return FS_OK;
	}
	if (per == 'c')
	{
		if (!r->has_ncpus)
		{
			add_anomaly(r, "ReqMem \"%.*s\" is per CPU but the row has no CPU count", (int) f.len,
			            f.s);
			return FS_OK;
		}
		bytes *= r->ncpus;
	}
	else if (per == 'n')
	{
		if (!r->has_nnodes)
		{
			add_anomaly(r, "ReqMem \"%.*s\" is per node but the row has no node count", (int) f.len,
			            f.s);
			return FS_OK;
		}
		bytes *= r->nnodes;
	}
	r->has_req_mem = true;
	r->req_mem_bytes = bytes;
	if (bytes > FS_LOAD_SIZE_MAX)
		add_anomaly(r, "implausible size: ReqMem \"%.*s\" is over 2^60 bytes (1 EiB)", (int) f.len,
		            f.s);
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

/*
 * The fields of one row into r; the first bad one is the row's error. NCPUS falls back to
 * AllocCPUS and NNodes to AllocNodes; the columns with no field of their own (and those two and
 * JobName) go to r->extra.
 */
static fs_status
parse_fields(row_ctx *c, const fs_sacct_header *h, const fs_str *f)
{
	fs_sacct_record *r = c->rec;
	fs_status st;
	size_t k;

#define COL(x)  (h->at[x] >= 0 ? f[h->at[x]] : fs_str_of(NULL, 0))
#define RAW(at) ((at) >= 0 ? f[at] : fs_str_of(NULL, 0))
	r->job_id = COL(FS_SC_JOBID);
	r->job_id_raw = COL(FS_SC_JOBIDRAW);
	r->cluster = COL(FS_SC_CLUSTER);
	r->partition = COL(FS_SC_PARTITION);
	r->account = COL(FS_SC_ACCOUNT);
	r->user = COL(FS_SC_USER);
	r->group = COL(FS_SC_GROUP);
	r->qos = COL(FS_SC_QOS);
	/* extra: every column that is not a field of its own, in the header's jsonb order, and a
	 * place for array_task_spec */
	r->extra = c->a->alloc(c->a->ctx, (h->nextra_cols + 1) * sizeof(fs_sacct_extra));
	for (k = 0; k < h->nextra_cols; k++)
	{
		size_t col = h->extra_cols[k];

		FS_POLL(k);
		r->extra[k].key = h->names[col];
		r->extra[k].val = f[col];
	}
	r->nextra = h->nextra_cols;
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
	                         &r->timelimit_s)) != FS_OK ||
	    (st = field_raw_seconds(c, "ElapsedRaw", RAW(h->at_elapsed_raw), 1, &r->has_elapsed,
	                            &r->elapsed_s)) != FS_OK ||
	    (st = field_raw_seconds(c, "TimelimitRaw", RAW(h->at_timelimit_raw), 60, &r->has_timelimit,
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
#undef RAW
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
	fs_str *f;
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
	if (len > 0 && line[len - 1] == '\r')
	{
		len--;
		add_anomaly(rec, "row ends with a carriage return");
	}
	if (len == 0)
	{
		fs_sacct_record_free(rec, a);
		return syntax(err, row_subject, line, len, FS_NO_POSITION, "empty row",
		              "Leave blank lines out of the rows.");
	}
	if (h->trailing)
	{
		if (len >= h->dlen && memcmp(line + len - h->dlen, h->delim, h->dlen) == 0)
			len -= h->dlen;
		else
			add_anomaly(rec,
			            "row does not end with \"%s\" as its header does (sacct -p): the "
			            "record may go on in the next line",
			            h->delim);
	}
	if (h->dlen == 1)
	{
		/* one byte: count them, in blocks the compiler vectorises, polling between blocks */
		char d = h->delim[0];
		size_t b, end;

		for (b = 0; b < len; b = end)
		{
			end = len - b > 65536 ? b + 65536 : len;
			fs_check_interrupts();
			for (i = b; i < end; i++)
				nsep += line[i] == d;
		}
	}
	else
		for (i = next_delim(h, line, len, 0); i < len; i = next_delim(h, line, len, i + h->dlen))
		{
			FS_POLL(nsep);
			nsep++;
		}
	/* a --format list does not say whether sacct ran with -p: one field more, empty, is its
	 * trailing delimiter */
	if (h->format_list && nsep == h->ncols && len >= h->dlen &&
	    memcmp(line + len - h->dlen, h->delim, h->dlen) == 0)
	{
		len -= h->dlen;
		nsep--;
	}
	if (nsep + 1 < h->ncols)
	{
		char problem[160];

		snprintf(problem, sizeof(problem), "the row has %zu %s but the header names %zu", nsep + 1,
		         fs_plural(nsep + 1, "field", "fields"), h->ncols);
		fs_sacct_record_free(rec, a);
		return syntax(err, row_subject, line, c.len, len, problem,
		              "A newline in a job name splits a record over two lines: join them, "
		              "or export with --delimiter and JobName last.");
	}
	extra = nsep + 1 - h->ncols;
	if (extra > 0 && jn < 0)
	{
		char problem[160];

		/* the delimiter that starts the first field beyond the header, where the error points */
		for (i = 0, k = 0; i < len; i++)
		{
			FS_POLL(i);
			if (delim_at(h, line, len, i))
			{
				if (++k == h->ncols)
					break;
				i += h->dlen - 1;
			}
		}
		snprintf(problem, sizeof(problem), "the row has %zu fields but the header names %zu",
		         nsep + 1, h->ncols);
		fs_sacct_record_free(rec, a);
		return syntax(err, row_subject, line, c.len, i, problem, row_hint);
	}
	f = a->alloc(a->ctx, h->ncols * sizeof(fs_str));
	start = 0;
	k = 0;
	for (i = next_delim(h, line, len, 0);; i = next_delim(h, line, len, i + h->dlen))
	{
		FS_POLL(k);
		if (i < len && (int) k == jn && extra > 0)
		{
			extra--; /* the job name holds this delimiter */
			continue;
		}
		f[k++] = fs_str_of(line + start, i - start);
		if (i >= len)
			break;
		start = i + h->dlen;
	}
	if (nsep + 1 > h->ncols)
		add_anomaly(rec, "JobName \"%s\" holds the delimiter \"%s\"", show(f[jn].s, f[jn].len).s,
		            h->delim);
	st = parse_fields(&c, h, f);
	a->release(a->ctx, f);
	if (st != FS_OK)
		fs_sacct_record_free(rec, a);
	return st;
}

void
fs_sacct_record_free(fs_sacct_record *rec, const fs_allocator *a)
{
	if (rec->alloc_tres)
		a->release(a->ctx, rec->alloc_tres);
	if (rec->req_tres)
		a->release(a->ctx, rec->req_tres);
	if (rec->extra)
		a->release(a->ctx, rec->extra);
	if (rec->anomalies.data)
		a->release(a->ctx, rec->anomalies.data);
	rec->alloc_tres = rec->req_tres = NULL;
	rec->extra = NULL;
	rec->nextra = 0;
	rec->anomalies.data = NULL;
}

const fs_sacct_extra *
fs_sacct_extra_get(const fs_sacct_record *rec, const char *key)
{
	size_t k = rec->nextra;

	while (k-- > 0)
		if (fs_span_eq(rec->extra[k].key.s, rec->extra[k].key.len, key))
			return &rec->extra[k];
	return NULL;
}
