/*
 * condorhist.c: the condor_history -l reader. One pass over the lines of an ad; each value is
 * typed as the old-ClassAd unparser (src/classad/sink.cpp) writes it: strings in double quotes
 * where only the quote is escaped, integers, reals, true/false, undefined, or an expression kept
 * as written.
 */
#include "load/condorhist.h"
#include "load/condor_json.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const fs_ch_col_names[FS_CH_NCOLS] = {
    "GlobalJobId",   "Owner",       "AccountingGroup",     "JobStatus",          "RequestCpus",
    "RequestMemory", "RequestGpus", "RemoteWallClockTime", "CumulativeSlotTime", "CompletionDate"};

typedef enum vtype
{
	V_STRING,
	V_INT,
	V_REAL,
	V_BOOL,
	V_UNDEFINED,
	V_EXPR
} vtype;

static const char *const vtype_names[] = {"a string",  "an integer", "a real",
                                          "a boolean", "undefined",  "an expression"};

/* Where an attribute was, for duplicate checks and messages. */
typedef struct attr
{
	const char *name;
	size_t namelen;
	int32_t line;
	size_t line_start; /* offset of its line in the document */
	size_t value;      /* offset of its value */
	size_t valuelen;
	vtype type;
	size_t json_start, json_end; /* its member in the ad's JSON, with the comma before it */
	bool superseded;             /* set again later in the ad: HTCondor keeps the last value */
} attr;

typedef struct adstate
{
	fs_ch_reader *r;
	fs_ch_ad *ad;
	fs_sb json;
	fs_sb anomalies; /* NUL-terminated entries one after another */
	attr *attrs;
	size_t nattrs;
	size_t cap;
	int col[FS_CH_NCOLS]; /* index into attrs + 1, 0 = not seen */
	fs_error *err;
} adstate;

/* End of the line starting at pos (the offset of its '\n' or of the end). */
static size_t
line_end(const fs_ch_reader *r, size_t pos)
{
	const char *nl = memchr(r->doc + pos, '\n', r->len - pos);

	return nl ? (size_t) (nl - r->doc) : r->len;
}

/* Lines that end an ad: blank, or a history-file banner. */
static bool
is_separator(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && fs_is_space(s[i]))
		i++;
	return i == len || (len - i >= 3 && memcmp(s + i, "***", 3) == 0);
}

static bool
is_comment(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && fs_is_space(s[i]))
		i++;
	return i < len && s[i] == '#';
}

/* An error on one line of an ad: the message quotes the line, the detail says what and where. */
static fs_status ad_error(adstate *st, fs_status status, int32_t line, size_t line_start, size_t at,
                          const char *hint, const char *fmt, ...) FS_PRINTF(7, 8);

/* at is an offset in the document, or FS_NO_POSITION; the line is quoted up to 200 bytes. */
static fs_status
ad_error(adstate *st, fs_status status, int32_t line, size_t line_start, size_t at,
         const char *hint, const char *fmt, ...)
{
	const fs_ch_reader *r = st->r;
	size_t end = line_end(r, line_start);
	char shown[220];
	char problem[FS_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (end > line_start && r->doc[end - 1] == '\r')
		end--;
	fs_quote_excerpt(shown, sizeof(shown), r->doc + line_start, end - line_start, 200);
	st->ad->error_line = line;
	fs_fail(st->err, status, "invalid condor_history line %d: \"%s\"", (int) line, shown);
	if (at == FS_NO_POSITION)
		fs_error_detail(st->err, "%s (ad %d).", problem, (int) st->ad->ad);
	else
		fs_error_detail(st->err, "%s at character %zu (ad %d).", problem,
		                fs_char_pos(r->doc + line_start, at - line_start), (int) st->ad->ad);
	fs_error_hint(st->err, "%s", hint);
	return status;
}

/* JSON string body: quote, backslash and control characters escaped. */
static void
json_escape(fs_sb *sb, const char *s, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		FS_POLL(i);
		if (c == '"' || c == '\\' || c < 0x20)
		{
			fs_sb_append(sb, s + run, i - run);
			if (c == '"' || c == '\\')
			{
				char e[2] = {'\\', (char) c};

				fs_sb_append(sb, e, 2);
			}
			else
				fs_sb_appendf(sb, "\\u%04x", c);
			run = i + 1;
		}
	}
	fs_sb_append(sb, s + run, len - run);
}

/*
 * The text of a string literal s[0..len) (between its quotes): the old-ClassAd writer escapes
 * only the quote, so \" is a quote and every other backslash is itself; a backslash right before
 * the closing quote is a backslash too (a string ending in one, like a Windows directory).
 */
static void
decode_string(fs_sb *sb, const char *s, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i + 1 < len; i++)
	{
		FS_POLL(i);
		if (s[i] == '\\' && s[i + 1] == '"')
		{
			fs_sb_append(sb, s + run, i - run);
			fs_sb_append(sb, "\"", 1);
			run = i + 2;
			i++;
		}
	}
	fs_sb_append(sb, s + run, len - run);
}

/* true when only blanks follow position q up to the end of its line */
static bool
rest_blank(const fs_ch_reader *r, size_t q)
{
	for (q++; q < r->len && r->doc[q] != '\n'; q++)
		if (!fs_is_space(r->doc[q]))
			return false;
	return true;
}

/* JSON number grammar (exponent at most 3 digits) and a finite double: V_INT or V_REAL. */
static vtype
number_type(const char *s, size_t len)
{
	size_t i = 0, digits;
	vtype t = V_INT;
	double d;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else
	{
		digits = i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == digits)
			return V_EXPR;
	}
	if (i < len && s[i] == '.')
	{
		digits = ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == digits)
			return V_EXPR;
		t = V_REAL;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		digits = i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == digits || i - digits > 3)
			return V_EXPR;
		t = V_REAL;
	}
	if (i != len || fs_scan_number(s, len, &d) != len || !isfinite(d))
		return V_EXPR;
	return t;
}

static void
advance_line(fs_ch_reader *r)
{
	size_t le = line_end(r, r->pos);

	r->pos = le < r->len ? le + 1 : r->len;
	r->lineno++;
}

static bool
name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool
name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* What a line of values without names is, and what to run instead. */
static const char autoformat_hint[] =
    "This looks like condor_history -format or -af (autoformat) output, which has no attribute "
    "names: export with condor_history -l, -json or -jsonl, or split such lines in SQL with the "
    "column list you gave -format or -af.";

/* The "Name =" of the line [ls, le): *v is where the value starts. */
static fs_status
read_name(adstate *st, size_t ls, size_t le, size_t *name, size_t *namelen, size_t *v)
{
	fs_ch_reader *r = st->r;
	const char *doc = r->doc;
	int32_t line = r->lineno;
	size_t i = ls;

	while (i < le && fs_is_space(doc[i]))
		i++;
	*name = i;
	if (i < le && name_start(doc[i]))
		while (i < le && name_char(doc[i]))
			i++;
	*namelen = i - *name;
	if (*namelen == 0 || (i < le && !fs_is_space(doc[i]) && doc[i] != '='))
	{
		advance_line(r);
		if (memchr(doc + ls, '|', le - ls))
			return ad_error(st, FS_ERR_SYNTAX, line, ls, *namelen ? i : *name, autoformat_hint,
			                "Expected an attribute name");
		return ad_error(st, FS_ERR_SYNTAX, line, ls, *namelen ? i : *name,
		                "Each line of an ad is \"Name = value\"; ads are separated by blank "
		                "lines or \"***\" banners.",
		                "Expected an attribute name");
	}
	while (i < le && fs_is_space(doc[i]))
		i++;
	if (i >= le || doc[i] != '=')
	{
		advance_line(r);
		/* values separated by blanks and no "=" on the line: condor_history -af's default */
		return ad_error(st, FS_ERR_SYNTAX, line, ls, i,
		                i < le && memchr(doc + ls, '=', le - ls) == NULL
		                    ? autoformat_hint
		                    : "Each line of an ad is \"Name = value\".",
		                "Expected \"=\" after the attribute name \"%.*s\"",
		                (int) (*namelen > 60 ? 60 : *namelen), doc + *name);
	}
	i++;
	while (i < le && fs_is_space(doc[i]))
		i++;
	*v = i;
	return FS_OK;
}

/*
 * The end of the value starting at v: a newline outside a string (a string goes on over
 * newlines). Moves the reader past it. *first_close is where the first string closes if the
 * value starts with one.
 */
static fs_status
scan_value(adstate *st, size_t ls, size_t v, size_t *end, size_t *first_close)
{
	fs_ch_reader *r = st->r;
	const char *doc = r->doc;
	int32_t line = r->lineno, cur = r->lineno;
	size_t k, string_start = 0;
	bool in_string = false, first = true;

	*first_close = 0;
	for (k = v;; k++)
	{
		FS_POLL(k);
		if (k == r->len || doc[k] == '\n')
		{
			size_t ns, ne;

			if (!in_string)
				break;
			/* a string goes on over a newline (written raw), unless the next line ends the ad */
			ns = k < r->len ? k + 1 : r->len;
			ne = line_end(r, ns);
			if (k == r->len || ns == r->len || is_separator(doc + ns, ne - ns))
			{
				r->pos = ns;
				r->lineno = cur + 1;
				return ad_error(st, FS_ERR_SYNTAX, line, ls, string_start,
				                "Close the string with a double quote; a quote inside it is "
				                "written \\\".",
				                "Unterminated string (it runs to the end of the ad, line %d)",
				                (int) cur);
			}
			cur++;
			continue;
		}
		if (in_string)
		{
			if (doc[k] == '\\' && k + 1 < r->len && doc[k + 1] == '"' && !rest_blank(r, k + 1))
				k++;
			else if (doc[k] == '"')
			{
				in_string = false;
				if (first)
					*first_close = k;
				first = false;
			}
		}
		else if (doc[k] == '"')
		{
			in_string = true;
			string_start = k;
			if (k != v)
				first = false;
		}
	}
	*end = k;
	r->pos = k < r->len ? k + 1 : r->len;
	r->lineno = cur + 1;
	return FS_OK;
}

/* The value doc[v, vend) as a member of the ad's JSON object. */
static void
append_json(adstate *st, const char *name, size_t namelen, size_t v, size_t vend, vtype type)
{
	const char *doc = st->r->doc;

	if (st->nattrs > 0)
		fs_sb_append(&st->json, ",", 1);
	fs_sb_append(&st->json, "\"", 1);
	fs_sb_append(&st->json, name, namelen);
	fs_sb_append(&st->json, "\":", 2);
	switch (type)
	{
		case V_STRING:
		{
			fs_sb tmp;

			fs_sb_init(&tmp, st->r->a, vend - v);
			decode_string(&tmp, doc + v + 1, vend - v - 2);
			fs_sb_append(&st->json, "\"", 1);
			json_escape(&st->json, tmp.data, tmp.len);
			fs_sb_append(&st->json, "\"", 1);
			st->r->a->release(st->r->a->ctx, tmp.data);
			break;
		}
		case V_INT:
		case V_REAL:
			fs_sb_append(&st->json, doc + v, vend - v);
			break;
		case V_BOOL:
			fs_sb_append(&st->json, fs_ascii_lower(doc[v]) == 't' ? "true" : "false",
			             fs_ascii_lower(doc[v]) == 't' ? 4 : 5);
			break;
		case V_UNDEFINED:
			fs_sb_append(&st->json, "null", 4);
			break;
		case V_EXPR:
			fs_sb_append(&st->json, "{\"expr\":\"", 9);
			json_escape(&st->json, doc + v, vend - v);
			fs_sb_append(&st->json, "\"}", 2);
			break;
	}
}

/* Read one "Name = value" (the value may go on over lines inside a string). */
static fs_status
read_attr(adstate *st)
{
	fs_ch_reader *r = st->r;
	const char *doc = r->doc;
	size_t ls = r->pos, le = line_end(r, ls);
	size_t name = 0, namelen = 0, v = 0, vend = 0, first_close = 0;
	int32_t line = r->lineno;
	vtype type;
	attr *at;
	int c;
	size_t json_start;
	fs_status rc = read_name(st, ls, le, &name, &namelen, &v);

	if (rc == FS_OK)
		rc = scan_value(st, ls, v, &vend, &first_close);
	if (rc != FS_OK)
		return rc;
	while (vend > v && fs_is_space(doc[vend - 1]))
		vend--;
	if (vend == v)
		return ad_error(st, FS_ERR_SYNTAX, line, ls, v,
		                "Write a value after \"=\" (undefined for none).",
		                "Missing value for attribute \"%.*s\"", (int) (namelen > 60 ? 60 : namelen),
		                doc + name);

	if (doc[v] == '"' && first_close == vend - 1 && vend - v >= 2)
		type = V_STRING;
	else if (fs_span_ieq(doc + v, vend - v, "true") || fs_span_ieq(doc + v, vend - v, "false"))
		type = V_BOOL;
	else if (fs_span_ieq(doc + v, vend - v, "undefined"))
		type = V_UNDEFINED;
	else
		type = number_type(doc + v, vend - v);
	json_start = st->json.len;
	append_json(st, doc + name, namelen, v, vend, type);

	if (st->nattrs == st->cap)
	{
		attr *bigger = r->a->alloc(r->a->ctx, 2 * st->cap * sizeof(attr));

		memcpy(bigger, st->attrs, st->nattrs * sizeof(attr));
		r->a->release(r->a->ctx, st->attrs);
		st->attrs = bigger;
		st->cap *= 2;
	}
	at = &st->attrs[st->nattrs++];
	at->name = doc + name;
	at->namelen = namelen;
	at->line = line;
	at->line_start = ls;
	at->value = v;
	at->valuelen = vend - v;
	at->type = type;
	at->json_start = json_start;
	at->json_end = st->json.len;
	at->superseded = false;
	for (c = 0; c < FS_CH_NCOLS; c++)
		if (fs_span_ieq(at->name, namelen, fs_ch_col_names[c]))
			st->col[c] = (int) st->nattrs;
	return FS_OK;
}

static int
attr_cmp(const void *a, const void *b, void *ctx)
{
	const attr *x = &((const attr *) ctx)[*(const size_t *) a];
	const attr *y = &((const attr *) ctx)[*(const size_t *) b];
	int c = fs_casecmp(x->name, x->namelen, y->name, y->namelen);

	if (c != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line ? 1 : 0;
}

/*
 * ClassAd names are case-insensitive, and HTCondor keeps the last value of a name set twice in
 * one ad (every 7.x per-job history file sets CompletionDate, ... in the cluster ad's part and
 * again in the job's). The earlier ones are dropped from the JSON (the typed columns already
 * point at the last) and each repeated name is one anomaly. O(n log n) in the attributes.
 */
static void
resolve_duplicates(adstate *st)
{
	const fs_allocator *a = st->r->a;
	size_t n = st->nattrs, i, j, k;
	size_t *idx;
	bool any = false;

	if (n < 2)
		return;
	idx = a->alloc(a->ctx, n * sizeof(size_t));
	for (i = 0; i < n; i++)
		idx[i] = i;
	fs_sort(idx, n, sizeof(size_t), attr_cmp, st->attrs, a);
	/* sorted by name then line, equal names are neighbours: a run of them is one repeat */
	for (i = 0; i < n; i = j)
	{
		const attr *first = &st->attrs[idx[i]], *last;

		FS_POLL(i);
		for (j = i + 1; j < n && fs_casecmp(first->name, first->namelen, st->attrs[idx[j]].name,
		                                    st->attrs[idx[j]].namelen) == 0;
		     j++)
			st->attrs[idx[j - 1]].superseded = true;
		if (j - i < 2)
			continue;
		last = &st->attrs[idx[j - 1]];
		any = true;
		{
			char buf[200];
			int len = snprintf(buf, sizeof(buf),
			                   "attribute \"%.*s\" is set %zu times (first on line %d, last on "
			                   "line %d): the last value is kept, as HTCondor does",
			                   (int) (last->namelen > 60 ? 60 : last->namelen), last->name, j - i,
			                   (int) first->line, (int) last->line);

			fs_sb_append(&st->anomalies, buf, (size_t) len + 1);
			st->ad->nanomalies++;
		}
	}
	a->release(a->ctx, idx);
	if (!any)
		return;
	/* the JSON again, without the members of the values set again later */
	{
		fs_sb json;
		bool first = true;

		fs_sb_init(&json, a, st->json.len);
		fs_sb_append(&json, "{", 1);
		for (k = 0; k < n; k++)
		{
			const attr *at = &st->attrs[k];
			size_t from = at->json_start;

			FS_POLL(k);
			if (at->superseded)
				continue;
			if (st->json.data[from] == ',')
				from++;
			if (!first)
				fs_sb_append(&json, ",", 1);
			first = false;
			fs_sb_append(&json, st->json.data + from, at->json_end - from);
		}
		a->release(a->ctx, st->json.data);
		st->json = json;
	}
}

static fs_status
wrong_type(adstate *st, const attr *at, const char *want)
{
	return ad_error(st, FS_ERR_SYNTAX, at->line, at->line_start, at->value,
	                "condor_history writes this attribute as a literal of that type, or as an "
	                "expression.",
	                "Attribute \"%.*s\" must be %s, not %s",
	                (int) (at->namelen > 60 ? 60 : at->namelen), at->name, want,
	                vtype_names[at->type]);
}

/* AccountingGroup "group_physics.alice" as the path group_physics.alice: one label per part. */
static fs_status
accounting_path(adstate *st, const attr *at, const char *s, size_t len)
{
	const fs_allocator *a = st->r->a;
	size_t parts = 1, i, start = 0, k = 0;
	const char **labels;
	size_t *lens;
	fs_status rc = FS_OK;
	char shown[80];

	for (i = 0; i < len; i++)
		if (s[i] == '.')
			parts++;
	fs_quote_excerpt(shown, sizeof(shown), s, len, 60);
	if (parts > 1024)
		return ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value,
		                "A sharepath has at most 1024 labels.",
		                "AccountingGroup \"%s\" has %zu dot-separated parts", shown, parts);
	labels = a->alloc(a->ctx, parts * sizeof(char *));
	lens = a->alloc(a->ctx, parts * sizeof(size_t));
	for (i = 0; i <= len; i++)
	{
		FS_POLL(i);
		if (i == len || s[i] == '.')
		{
			if (i == start || i - start > 255)
			{
				rc =
				    ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value,
				             "HTCondor accounting groups are group.user names with non-empty "
				             "parts; each part becomes a sharepath label of 1 to 255 bytes.",
				             i == start ? "AccountingGroup \"%s\" has an empty part"
				                        : "AccountingGroup \"%s\" has a part longer than 255 bytes",
				             shown);
				break;
			}
			labels[k] = s + start;
			lens[k++] = i - start;
			start = i + 1;
		}
	}
	if (rc == FS_OK && fs_sp_from_labels(labels, lens, k, a, 0, &st->ad->accounting_group,
	                                     &st->ad->accounting_group_len, st->err) != FS_OK)
	{
		char why[FS_MSG_LEN + 100];

		/* a label the path cannot hold (a NUL byte): reported as this ad's error */
		snprintf(why, sizeof(why),
		         "Each dot-separated part becomes a share path label, and the path refuses "
		         "this one: %s.",
		         st->err->message);
		rc = ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value, why,
		              "AccountingGroup \"%s\" is not a valid share path", shown);
	}
	a->release(a->ctx, labels);
	a->release(a->ctx, lens);
	return rc;
}

/* Seconds since 1970 beyond which timestamptz ends (294277-01-01 00:00:00 UTC). */
#define EPOCH_END_S INT64_C(9224318016000)

/*
 * A ClassAd number of seconds (the number_type grammar: -?digits[.digits][e[+-]digits], not
 * negative) as whole seconds and microseconds, digit by digit and never through a double, whose
 * 53 bits cannot hold the microseconds of dates past 2255: integers are exact, and a real is
 * rounded to the microsecond, half to even. False when the value reaches EPOCH_END_S.
 */
static bool
exact_epoch(const char *s, size_t len, int64_t *sec, int32_t *usec)
{
	size_t i = 0, intdigits = 0, k;
	long exp10 = 0, pos;
	int64_t whole = 0, micro = 0;
	int round = 0; /* the seventh decimal */
	bool sticky = false, frac = false, expneg = false;

	if (i < len && s[i] == '-')
		i++; /* -0 and -0.0: the caller has checked the value is not negative */
	for (k = i; k < len && (fs_is_digit(s[k]) || s[k] == '.'); k++)
		if (s[k] == '.')
			frac = true;
		else if (!frac)
			intdigits++;
	if (k < len && (s[k] == 'e' || s[k] == 'E'))
	{
		size_t j = k + 1;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			expneg = s[j++] == '-';
		for (; j < len && fs_is_digit(s[j]); j++)
			if (exp10 < 100000)
				exp10 = exp10 * 10 + (s[j] - '0');
		if (expneg)
			exp10 = -exp10;
	}
	/* digit d at place p (10^p seconds): p counts down from intdigits - 1 + exp10 */
	pos = (long) intdigits - 1 + exp10;
	for (; i < k; i++)
	{
		int d;

		if (s[i] == '.')
			continue;
		d = s[i] - '0';
		if (pos >= 0)
		{
			if (d != 0 && pos > 13)
				return false;
			if (pos <= 13)
			{
				int64_t p10 = 1;
				long e;

				for (e = 0; e < pos; e++)
					p10 *= 10;
				whole += d * p10; /* below 10^14 * 10: no overflow */
				if (whole >= EPOCH_END_S)
					return false;
			}
		}
		else if (pos >= -6)
			micro = micro * 10 + d;
		else if (pos == -7)
			round = d;
		else if (d != 0)
			sticky = true;
		pos--;
	}
	/* decimals not written (1.5 is 1.500000) */
	for (; pos >= -6; pos--)
		if (pos < 0)
			micro *= 10;
	if (round > 5 || (round == 5 && (sticky || micro % 2 == 1)))
		micro++;
	if (micro == 1000000)
	{
		micro = 0;
		whole++;
	}
	if (whole >= EPOCH_END_S)
		return false;
	*sec = whole;
	*usec = (int32_t) micro;
	return true;
}

/* The typed columns, from the attributes seen. */
static fs_status
typed_columns(adstate *st)
{
	const fs_allocator *a = st->r->a;
	fs_ch_ad *ad = st->ad;
	int c;

	for (c = 0; c < FS_CH_NCOLS; c++)
	{
		const attr *at;
		const char *v;
		double d;

		if (st->col[c] == 0)
			continue;
		at = &st->attrs[st->col[c] - 1];
		v = st->r->doc + at->value;
		if (at->type == V_UNDEFINED)
			continue;
		if (c == FS_CH_GLOBAL_JOB_ID || c == FS_CH_OWNER || c == FS_CH_ACCOUNTING_GROUP)
		{
			fs_sb sb;
			fs_status rc = FS_OK;

			if (at->type != V_STRING)
				return wrong_type(st, at, "a string");
			fs_sb_init(&sb, a, at->valuelen);
			decode_string(&sb, v + 1, at->valuelen - 2);
			if (c == FS_CH_ACCOUNTING_GROUP)
			{
				rc = accounting_path(st, at, sb.data, sb.len);
				a->release(a->ctx, sb.data);
			}
			else
			{
				ad->text[c] = sb.data;
				ad->textlen[c] = sb.len;
			}
			if (rc != FS_OK)
				return rc;
			continue;
		}
		if (at->type == V_EXPR)
			continue; /* cannot be evaluated here: kept in attrs */
		if (at->type != V_INT && at->type != V_REAL)
			return wrong_type(st, at, "a number");
		fs_scan_number(v, at->valuelen, &d);
		if (c == FS_CH_JOB_STATUS && (at->type != V_INT || d < -2147483648.0 || d > 2147483647.0))
			return ad_error(st, FS_ERR_SYNTAX, at->line, at->line_start, at->value,
			                "JobStatus is a small integer (1 Idle ... 7 Suspended).",
			                "Attribute \"%.*s\" must be a 32-bit integer",
			                (int) (at->namelen > 60 ? 60 : at->namelen), at->name);
		if (c == FS_CH_REQUEST_MEMORY)
		{
			d *= 1048576.0; /* MiB */
			if (!isfinite(d))
				return ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value,
				                "RequestMemory is in MiB.", "RequestMemory is out of range");
		}
		if (c == FS_CH_COMPLETION_DATE)
		{
			if (d < 0)
				return ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value,
				                "CompletionDate is seconds since 1970, or 0 for a job that has "
				                "not completed.",
				                "CompletionDate is negative");
			if (d == 0)
				continue; /* not completed */
			if (!exact_epoch(v, at->valuelen, &ad->completion_s, &ad->completion_us))
				return ad_error(st, FS_ERR_VALUE, at->line, at->line_start, at->value,
				                "CompletionDate is seconds since 1970.",
				                "CompletionDate is beyond the range of timestamptz");
		}
		ad->has[c] = true;
		ad->num[c] = d;
	}
	return FS_OK;
}

void
fs_ch_init(fs_ch_reader *r, const char *doc, size_t len, const fs_allocator *a)
{
	r->doc = doc;
	r->len = len;
	r->pos = 0;
	r->lineno = 1;
	r->ads = 0;
	r->a = a;
	r->form = fs_ch_form_of(doc, len);
	r->opened = r->closing = false;
}

void
fs_ch_ad_free(fs_ch_ad *ad, const fs_allocator *a)
{
	int c;

	if (ad->json)
		a->release(a->ctx, ad->json);
	if (ad->anomalies)
		a->release(a->ctx, ad->anomalies);
	ad->anomalies = NULL;
	for (c = 0; c < FS_CH_NCOLS; c++)
		if (ad->text[c])
			a->release(a->ctx, ad->text[c]);
	if (ad->accounting_group)
		a->release(a->ctx, ad->accounting_group);
	ad->json = NULL;
	memset(ad->text, 0, sizeof(ad->text));
	ad->accounting_group = NULL;
}

fs_status
fs_ch_next(fs_ch_reader *r, fs_ch_ad *ad, bool *done, fs_error *err)
{
	adstate st;
	fs_status status = FS_OK;

	if (r->form != FS_CH_LONG)
		return fs_ch_json_next(r, ad, done, err);
	memset(ad, 0, sizeof(fs_ch_ad));
	fs_error_clear(err);
	*done = false;
	/* skip the blank, banner and comment lines before the ad */
	while (r->pos < r->len)
	{
		size_t le = line_end(r, r->pos);

		FS_POLL((size_t) r->lineno);
		if (!is_separator(r->doc + r->pos, le - r->pos) &&
		    !is_comment(r->doc + r->pos, le - r->pos))
			break;
		advance_line(r);
	}
	if (r->pos >= r->len)
	{
		*done = true;
		return FS_OK;
	}
	if (r->ads == INT32_MAX || r->lineno == INT32_MAX)
		return fs_fail(err, FS_ERR_LIMIT, "condor_history document has too many ads or lines");
	ad->ad = ++r->ads;
	ad->line = ad->last_line = r->lineno;
	memset(&st, 0, sizeof(st));
	st.r = r;
	st.ad = ad;
	st.err = err;
	st.cap = 32;
	st.attrs = r->a->alloc(r->a->ctx, st.cap * sizeof(attr));
	fs_sb_init(&st.json, r->a, 256);
	fs_sb_init(&st.anomalies, r->a, 64);
	fs_sb_append(&st.json, "{", 1);
	/* up to the separator; after an error the rest of the ad is still skipped, so that the next
	 * call starts at the next ad */
	while (r->pos < r->len)
	{
		size_t le = line_end(r, r->pos);

		FS_POLL((size_t) r->lineno);
		if (is_separator(r->doc + r->pos, le - r->pos))
		{
			advance_line(r);
			break;
		}
		if (is_comment(r->doc + r->pos, le - r->pos) || status != FS_OK)
		{
			ad->last_line = r->lineno;
			advance_line(r);
			continue;
		}
		status = read_attr(&st);
		ad->last_line = r->lineno - 1;
		if (r->lineno == INT32_MAX)
			break;
	}
	if (status == FS_OK)
		resolve_duplicates(&st);
	if (status == FS_OK)
		status = typed_columns(&st);
	r->a->release(r->a->ctx, st.attrs);
	fs_sb_append(&st.json, "}", 1);
	if (status != FS_OK)
	{
		int32_t n = ad->ad, first = ad->line, last = ad->last_line, eline = ad->error_line;

		r->a->release(r->a->ctx, st.json.data);
		r->a->release(r->a->ctx, st.anomalies.data);
		fs_ch_ad_free(ad, r->a);
		memset(ad, 0, sizeof(fs_ch_ad));
		ad->ad = n;
		ad->line = first;
		ad->last_line = last;
		ad->error_line = eline;
		return status;
	}
	ad->json = st.json.data;
	ad->jsonlen = st.json.len;
	ad->anomalies = st.anomalies.data;
	return FS_OK;
}
