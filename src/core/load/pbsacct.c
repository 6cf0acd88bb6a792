/*
 * pbsacct.c: a one-pass reader of PBS / OpenPBS / TORQUE accounting log lines (the record types,
 * the keys each writes and how values are quoted: docs/loading.md). The fairshare_usage_res
 * formula is evaluated in pbs_usage.c.
 */
#include "load/pbsacct.h"

#include "load/plausible.h"
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char SUBJECT[] = "PBS accounting line";
static const char LINE_HINT[] =
    "A PBS accounting line is \"MM/DD/YYYY hh:mm:ss;T;id;key=value ...\".";

/* ---------------------------------------------------------------- small helpers */

static bool
is_key_char(char c)
{
	return fs_is_name_start(c) || fs_is_digit(c) || c == '.' || c == '-' || c == '/';
}

/* is_key_char of every byte, so that the tokenizer's scan of a key is one load a byte */
static const bool key_char[256] = {
    ['-'] = true, ['.'] = true, ['/'] = true, ['0'] = true, ['1'] = true, ['2'] = true,
    ['3'] = true, ['4'] = true, ['5'] = true, ['6'] = true, ['7'] = true, ['8'] = true,
    ['9'] = true, ['A'] = true, ['B'] = true, ['C'] = true, ['D'] = true, ['E'] = true,
    ['F'] = true, ['G'] = true, ['H'] = true, ['I'] = true, ['J'] = true, ['K'] = true,
    ['L'] = true, ['M'] = true, ['N'] = true, ['O'] = true, ['P'] = true, ['Q'] = true,
    ['R'] = true, ['S'] = true, ['T'] = true, ['U'] = true, ['V'] = true, ['W'] = true,
    ['X'] = true, ['Y'] = true, ['Z'] = true, ['_'] = true, ['a'] = true, ['b'] = true,
    ['c'] = true, ['d'] = true, ['e'] = true, ['f'] = true, ['g'] = true, ['h'] = true,
    ['i'] = true, ['j'] = true, ['k'] = true, ['l'] = true, ['m'] = true, ['n'] = true,
    ['o'] = true, ['p'] = true, ['q'] = true, ['r'] = true, ['s'] = true, ['t'] = true,
    ['u'] = true, ['v'] = true, ['w'] = true, ['x'] = true, ['y'] = true, ['z'] = true};

static bool
span_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len > n && memcmp(s, prefix, n) == 0;
}

static void note(fs_pbs_record *rec, const char *fmt, ...) FS_PRINTF(2, 3);

static void
note(fs_pbs_record *rec, const char *fmt, ...)
{
	char buf[FS_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fs_sb_append(&rec->notes, buf, strlen(buf) + 1); /* keep the NUL: strings one after another */
	rec->nnotes++;
}

/* An excerpt of a span for messages. */
static const char *
shown(char *buf, size_t cap, const char *s, size_t len)
{
	fs_quote_excerpt(buf, cap, s, len, 60);
	return buf;
}

/*
 * The keys OpenPBS and TORQUE write in job and reservation records (acct_job, account_jobend,
 * acct_resv; OpenPBS's provisioning records write provision_vnode, its suspend records
 * resources_released, and its job records resvjobID).
 */
#define KEY(s)                                                                                     \
	{                                                                                              \
		s, sizeof(s) - 1                                                                           \
	}
static const struct
{
	const char *name;
	size_t len;
} known_keys[] = {KEY("user"),
                  KEY("group"),
                  KEY("account"),
                  KEY("project"),
                  KEY("accounting_id"),
                  KEY("gridname"),
                  KEY("jobname"),
                  KEY("queue"),
                  KEY("resvname"),
                  KEY("resvID"),
                  KEY("ctime"),
                  KEY("qtime"),
                  KEY("etime"),
                  KEY("start"),
                  KEY("end"),
                  KEY("owner"),
                  KEY("exec_host"),
                  KEY("exec_vnode"),
                  KEY("login_node"),
                  KEY("depend"),
                  KEY("array_indices"),
                  KEY("session"),
                  KEY("alt_id"),
                  KEY("Exit_status"),
                  KEY("run_count"),
                  KEY("eligible_time"),
                  KEY("requestor"),
                  KEY("total_execution_slots"),
                  KEY("unique_node_count"),
                  KEY("start_count"),
                  KEY("duration"),
                  KEY("name"),
                  KEY("x"),
                  KEY("provision_event"),
                  KEY("provision_vnode"),
                  KEY("resources_released"),
                  KEY("resvjobID"),
                  KEY("start_time"),
                  KEY("end_time"),
                  KEY("status"),
                  KEY("authorized_users"),
                  KEY("authorized_groups"),
                  KEY("authorized_hosts"),
                  KEY("nodes")};

#define NKNOWN           (sizeof(known_keys) / sizeof(known_keys[0]))
#define KNOWN_KEY_MAXLEN 24

static bool
is_known_key(const char *k, size_t len, bool any)
{
	size_t i;

	if (any)
		return true;
	if ((k[0] == 'R' &&
	     (span_prefix(k, len, "Resource_List.") || span_prefix(k, len, "Resource_Request_"))) ||
	    (k[0] == 'r' &&
	     (span_prefix(k, len, "resources_used.") || span_prefix(k, len, "resource_assigned."))))
		return true;
	if (len > KNOWN_KEY_MAXLEN)
		return false;
	/* a comparison of the length and first byte before any memcmp: most names differ there */
	for (i = 0; i < NKNOWN; i++)
		if (len == known_keys[i].len && k[0] == known_keys[i].name[0] &&
		    memcmp(k, known_keys[i].name, len) == 0)
			return true;
	return false;
}

/* Length of a key at s[0..len) that is followed by '=', or 0. */
static size_t
key_at(const char *s, size_t len)
{
	size_t i = 0;

	if (len == 0 || !fs_is_name_start(s[0]))
		return 0;
	while (i < len && key_char[(unsigned char) s[i]])
		i++;
	return (i < len && s[i] == '=') ? i : 0;
}

/* A known key followed by '=' at s[0..len)? */
static bool
known_key_at(const char *s, size_t len, bool any)
{
	size_t k = key_at(s, len);

	return k > 0 && is_known_key(s, k, any);
}

/* ---------------------------------------------------------------- the line prefix */

static bool
read_int(const char *s, size_t n, int *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++)
	{
		if (!fs_is_digit(s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/*
 * "MM/DD/YYYY hh:mm:ss" at s; returns 0 when it is there and valid, else the byte offset (from
 * s) of the first bad character, plus one; *range is set when the shape is right but a field is
 * out of range.
 */
static size_t
read_stamp(const char *s, size_t len, fs_pbs_record *rec, const char **range)
{
	static const char shape[] = "00/00/0000 00:00:00";
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	size_t i;
	int leap;

	*range = NULL;
	for (i = 0; i < sizeof(shape) - 1; i++)
	{
		if (i >= len)
			return i + 1;
		if (shape[i] == '0' ? !fs_is_digit(s[i]) : s[i] != shape[i])
			return i + 1;
	}
	read_int(s, 2, &rec->month);
	read_int(s + 3, 2, &rec->day);
	read_int(s + 6, 4, &rec->year);
	read_int(s + 11, 2, &rec->hour);
	read_int(s + 14, 2, &rec->minute);
	read_int(s + 17, 2, &rec->second);
	leap = (rec->year % 4 == 0 && rec->year % 100 != 0) || rec->year % 400 == 0;
	if (rec->month < 1 || rec->month > 12)
	{
		*range = "The month is out of range";
		return 1;
	}
	if (rec->day < 1 || rec->day > mdays[rec->month - 1] + (rec->month == 2 && leap))
	{
		*range = "The day is out of range for its month";
		return 4;
	}
	if (rec->year < 1)
	{
		*range = "The year is out of range";
		return 7;
	}
	if (rec->hour > 23 || rec->minute > 59 || rec->second > 59)
	{
		*range = "The time of day is out of range";
		return 12;
	}
	return 0;
}

static bool
is_resv_type(char t)
{
	return t == 'U' || t == 'Y' || t == 'B' || t == 'F' || t == 'K' || t == 'k' || t == 'L';
}

static bool
is_known_type(char t)
{
	return t != '\0' && strchr("QSsREDACTucea zrMLUYBFKkPp", t) != NULL && t != ' ';
}

/* seq [ "[" [index] "]" ] [ "." server ] | seq "-" index "." server */
static void
read_job_id(fs_pbs_record *rec)
{
	const char *s = rec->line + rec->id_off;
	size_t n = rec->id_len;
	size_t i = 0;
	int64_t seq = 0;
	int64_t idx = 0;
	size_t d;
	char buf[80];

	rec->is_job = false;
	while (i < n && fs_is_digit(s[i]) && i < 18)
		seq = seq * 10 + (s[i++] - '0');
	if (i == 0 || (i < n && fs_is_digit(s[i])))
		goto bad;
	if (i < n && (s[i] == '[' || (s[i] == '-' && i + 1 < n && fs_is_digit(s[i + 1]))))
	{
		bool bracket = s[i] == '[';

		i++;
		for (d = 0; i < n && fs_is_digit(s[i]); i++, d++)
		{
			if (d == 9)
				goto bad;
			idx = idx * 10 + (s[i] - '0');
		}
		if (bracket)
		{
			if (i >= n || s[i] != ']')
				goto bad;
			i++;
		}
		if (d == 0)
			rec->is_array_parent = true;
		else
		{
			rec->has_index = true;
			rec->array_index = (int32_t) idx;
		}
		if (!bracket && i >= n)
			goto bad; /* TORQUE 2.x arrays always carry the server */
	}
	if (i < n)
	{
		if (s[i] != '.' || i + 1 == n)
			goto bad;
		rec->server_off = rec->id_off + i + 1;
		rec->server_len = n - i - 1;
	}
	rec->is_job = true;
	rec->job_seq = seq;
	return;
bad:
	rec->has_index = false;
	rec->is_array_parent = false;
	rec->server_len = 0;
	note(rec,
	     "id \"%s\" is not a job id (seq[.server], seq[index].server, seq[].server or "
	     "seq-index.server)",
	     shown(buf, sizeof(buf), s, n));
}

/* ---------------------------------------------------------------- tokenizer */

static bool
add_pair(fs_pbs_record *rec, const fs_allocator *a, const fs_pbs_pair *p)
{
	if (rec->npairs == rec->cap)
	{
		size_t cap = rec->cap ? rec->cap * 2 : 64;
		fs_pbs_pair *grown = a->alloc(a->ctx, cap * sizeof(fs_pbs_pair));

		if (rec->npairs)
			memcpy(grown, rec->pairs, rec->npairs * sizeof(fs_pbs_pair));
		if (rec->pairs)
			a->release(a->ctx, rec->pairs);
		rec->pairs = grown;
		rec->cap = cap;
	}
	rec->pairs[rec->npairs++] = *p;
	return true;
}

/*
 * Whether the value of pair p is whole, so that an unknown "name=" after it starts a pair of its
 * own: a value of one token (nothing was joined to it), quoted or not empty and not ending in a
 * character that goes on ("," "+" ":" "="), and not TORQUE's Resource_Request_ values, whose
 * "-L tasks=..." words hold "=". Linear in the value's last token.
 */
static bool
value_complete(const fs_pbs_record *rec, const fs_pbs_pair *p)
{
	const char *s = rec->line;
	size_t j;
	char last;

	if (span_prefix(s + p->key_off, p->key_len, "Resource_Request_"))
		return false;
	if (p->quote)
		return true;
	if (p->val_len == 0)
		return false;
	/* from the end, so that the tokens joined one by one are each scanned once */
	for (j = p->val_off + p->val_len; j > p->val_off; j--)
		if (fs_is_space(s[j - 1]))
			return false; /* tokens were joined to it: a value with spaces may hold "=" */
	last = s[p->val_off + p->val_len - 1];
	return last != ',' && last != '+' && last != ':' && last != '=';
}

static fs_status
syntax(fs_pbs_record *rec, fs_error *err, size_t at, const char *problem)
{
	return fs_fail_syntax(err, SUBJECT, rec->line, rec->len, at, problem, LINE_HINT);
}

/*
 * The message, by known keys (reference 1.3): a pair starts only at a known key followed by '='
 * (any key in 'a' records, and the first token always); a quoted value ends at the first
 * matching quote followed by the end or by a space and a known key; any other token is glued
 * to the value before it.
 */
static fs_status
tokenize_message(fs_pbs_record *rec, const fs_allocator *a, size_t from, fs_error *err)
{
	const char *s = rec->line;
	size_t end = rec->len;
	size_t i = from;
	bool any = rec->type == 'a';
	size_t tokens = 0;
	char b1[80], b2[80];

	/* trailing blanks (TORQUE ends lines with a space) and a CR are not part of the last value */
	while (end > from && fs_is_space(s[end - 1]))
		end--;
	while (i < end)
	{
		fs_pbs_pair p;
		size_t k;

		FS_POLL(tokens);
		tokens++;
		while (i < end && fs_is_space(s[i]))
			i++;
		if (i >= end)
			break;
		k = key_at(s + i, end - i);
		if (k > 0 && rec->npairs > 0 && !is_known_key(s + i, k, any) &&
		    value_complete(rec, &rec->pairs[rec->npairs - 1]))
		{
			/* a site's own key (TORQUE's session_id, a hook's) after a whole value */
			note(rec,
			     "unknown key \"%s\" after the whole value of \"%s\": read as a pair of its own",
			     shown(b1, sizeof(b1), s + i, k),
			     shown(b2, sizeof(b2), s + rec->pairs[rec->npairs - 1].key_off,
			           rec->pairs[rec->npairs - 1].key_len));
		}
		else if (k == 0 || (rec->npairs > 0 && !is_known_key(s + i, k, any)))
		{
			size_t t = i;
			fs_pbs_pair *prev;

			if (rec->npairs == 0)
				return syntax(rec, err, i, "Expected key=value");
			/* a token of the previous value (TORQUE writes values with spaces unquoted) */
			while (i < end && !fs_is_space(s[i]))
				i++;
			prev = &rec->pairs[rec->npairs - 1];
			if (!span_prefix(s + prev->key_off, prev->key_len, "Resource_Request_"))
				note(rec, "\"%s\" has no known key and is joined to the value of \"%s\"",
				     shown(b1, sizeof(b1), s + t, i - t),
				     shown(b2, sizeof(b2), s + prev->key_off, prev->key_len));
			prev->val_len = i - prev->val_off;
			continue;
		}
		p.key_off = i;
		p.key_len = k;
		p.quote = 0;
		i += k + 1;
		if (i < end && (s[i] == '"' || s[i] == '\''))
		{
			char q = s[i];
			size_t j;

			/* the closing quote ends the line or is followed by blanks and a known key; any
			 * other quote is part of the value */
			for (j = i + 1; j < end; j++)
			{
				size_t n;

				if (s[j] != q)
					continue;
				if (j + 1 == end)
					break;
				if (!fs_is_space(s[j + 1]))
					continue;
				for (n = j + 1; n < end && fs_is_space(s[n]); n++)
					;
				if (known_key_at(s + n, end - n, any))
					break;
			}
			if (j >= end)
				return syntax(rec, err, i, "Unterminated quoted value");
			p.quote = q;
			p.val_off = i + 1;
			p.val_len = j - i - 1;
			i = j + 1;
		}
		else
		{
			size_t v = i;

			while (i < end && !fs_is_space(s[i]))
				i++;
			p.val_off = v;
			p.val_len = i - v;
			/* a missing space between an epoch and the next key: etime=1317509574start=... */
			if (p.val_len > 0 && fs_is_digit(s[v]))
			{
				size_t d = v;

				while (d < i && fs_is_digit(s[d]))
					d++;
				if (d < i && known_key_at(s + d, i - d, false))
				{
					note(rec,
					     "a space is missing between the value of \"%s\" and \"%s\"; read "
					     "as two pairs",
					     shown(b1, sizeof(b1), s + p.key_off, p.key_len),
					     shown(b2, sizeof(b2), s + d, key_at(s + d, i - d)));
					p.val_len = d - v;
					i = d;
				}
			}
		}
		add_pair(rec, a, &p);
	}
	return FS_OK;
}

static fs_status
early_fail(fs_pbs_record *rec, const fs_allocator *a, fs_error *err, size_t at, const char *problem)
{
	a->release(a->ctx, rec->notes.data);
	rec->notes.data = NULL;
	return syntax(rec, err, at, problem);
}

/*
 * A line that starts with a syslog tag before PBS's own line, at byte `at`: refused, with the
 * recipe that strips the tag in the pipeline (a syslog prefix has no ";", PBS's stamp follows
 * the last ": " before the first ";").
 */
static fs_status
syslog_tag(fs_pbs_record *rec, const fs_allocator *a, fs_error *err, size_t at)
{
	char buf[80], problem[FS_MSG_LEN];

	snprintf(problem, sizeof(problem),
	         "The line starts with the syslog tag \"%s\" before PBS's time stamp; strip it "
	         "before loading, such as with sed -E "
	         "'s/^[^;]*: ([0-9]{2}\\/[0-9]{2}\\/[0-9]{4} )/\\1/' in the \\copy ... FROM PROGRAM "
	         "pipeline",
	         shown(buf, sizeof(buf), rec->line, at));
	a->release(a->ctx, rec->notes.data);
	rec->notes.data = NULL;
	return fs_fail_syntax(err, SUBJECT, rec->line, rec->len, FS_NO_POSITION, problem, LINE_HINT);
}

fs_status
fs_pbs_tokenize(const char *line, size_t len, const fs_allocator *a, fs_pbs_record *rec,
                fs_error *err)
{
	size_t pos = 0;
	size_t bad;
	const char *range;
	const char *semi;
	fs_status st;
	size_t k;
	char buf[80];

	memset(rec, 0, sizeof(*rec));
	rec->line = line;
	rec->len = len;
	for (k = 0; k < FS_PBS_NTEXTS; k++)
		rec->text[k] = -1;
	fs_sb_init(&rec->notes, a, 16);

	bad = read_stamp(line, len, rec, &range);
	if (bad != 0 && range == NULL)
	{
		/* a grep filename prefix: "20150327:03/27/2015 00:06:27;E;..." */
		size_t c;
		const char *r2;

		for (c = 0; c < len && c < 64 && line[c] != ';' && line[c] != ' '; c++)
		{
			if (line[c] == ':' && c > 0 && read_stamp(line + c + 1, len - c - 1, rec, &r2) == 0)
			{
				note(rec,
				     "the line starts with \"%s\" (a grep file name prefix?) before its time "
				     "stamp",
				     shown(buf, sizeof(buf), line, c + 1));
				pos = c + 1;
				bad = 0;
				break;
			}
		}
	}
	if (bad != 0 && range == NULL)
	{
		/* a syslog tag: "Jun 12 10:00:00 host torque: 06/12/2009 ..." (rsyslog forwarding) */
		size_t c;
		const char *r2;

		for (c = 0; c + 2 < len && c < 256 && line[c] != ';'; c++)
			if (line[c] == ':' && line[c + 1] == ' ' &&
			    read_stamp(line + c + 2, len - c - 2, rec, &r2) == 0 && c + 21 < len &&
			    line[c + 21] == ';')
				return syslog_tag(rec, a, err, c + 2);
	}
	if (bad != 0)
		return early_fail(rec, a, err, pos + bad - 1,
		                  range ? range : "Expected a time stamp MM/DD/YYYY hh:mm:ss");
	pos += 19;
	if (pos >= len || line[pos] != ';')
		return early_fail(rec, a, err, pos, "Expected \";\" after the time stamp");
	pos++;
	if (pos + 1 >= len || line[pos + 1] != ';' || line[pos] == ';' || line[pos] == ' ')
	{
		if (pos < len && line[pos] != ';' && line[pos] != ' ')
			return early_fail(rec, a, err, pos + 1,
			                  "Expected \";\" after the one-character record type");
		return early_fail(rec, a, err, pos, "Expected a one-character record type");
	}
	rec->type = line[pos];
	if (!is_known_type(rec->type))
		note(rec, "unknown record type \"%c\"", rec->type);
	pos += 2;
	semi = pos < len ? memchr(line + pos, ';', len - pos) : NULL;
	if (semi == NULL)
		return early_fail(rec, a, err, len, "Expected \";\" after the id");
	rec->id_off = pos;
	rec->id_len = (size_t) (semi - (line + pos));
	if (rec->id_len == 0)
		return early_fail(rec, a, err, pos, "Expected an id before \";\"");
	if (!is_resv_type(rec->type))
		read_job_id(rec);
	if (rec->type == 'L')
	{
		size_t m = rec->id_off + rec->id_len + 1;
		size_t end = len;

		while (end > m && fs_is_space(line[end - 1]))
			end--;
		rec->free_text = true;
		rec->msg_off = m;
		rec->msg_len = end - m;
		return FS_OK;
	}
	st = tokenize_message(rec, a, rec->id_off + rec->id_len + 1, err);
	if (st != FS_OK)
	{
		fs_pbs_free(rec, a);
		return st;
	}
	return FS_OK;
}

void
fs_pbs_free(fs_pbs_record *rec, const fs_allocator *a)
{
	if (rec->pairs)
		a->release(a->ctx, rec->pairs);
	if (rec->used)
		a->release(a->ctx, rec->used);
	if (rec->requested)
		a->release(a->ctx, rec->requested);
	if (rec->req_text)
		a->release(a->ctx, rec->req_text);
	if (rec->by_key)
		a->release(a->ctx, rec->by_key);
	if (rec->hosts)
		a->release(a->ctx, rec->hosts);
	if (rec->notes.data)
		a->release(a->ctx, rec->notes.data);
	rec->pairs = NULL;
	rec->used = rec->requested = NULL;
	rec->req_text = NULL;
	rec->by_key = NULL;
	rec->hosts = NULL;
	rec->notes.data = NULL;
}

/* ---------------------------------------------------------------- fields */

static const char *const time_names[FS_PBS_NTIMES] = {"ctime", "qtime", "etime", "start", "end"};
static const char *const text_names[FS_PBS_NTEXTS] = {"user",    "group", "account",
                                                      "project", "queue", "jobname"};
/* their lengths, so that matching a key against them needs no strlen per pair */
static const size_t time_lens[FS_PBS_NTIMES] = {5, 5, 5, 5, 3};
static const size_t text_lens[FS_PBS_NTEXTS] = {4, 5, 7, 7, 5, 7};

const char *
fs_pbs_time_name(int which)
{
	return (which >= 0 && which < FS_PBS_NTIMES) ? time_names[which] : NULL;
}

/* A decimal integer (optional '-') of at most `maxdigits` digits. */
static bool
read_int64(const char *s, size_t n, int maxdigits, int64_t *v)
{
	size_t i = 0;
	bool neg = false;
	int64_t r = 0;

	if (n > 0 && s[0] == '-')
		neg = true, i = 1;
	if (i == n || n - i > (size_t) maxdigits)
		return false;
	for (; i < n; i++)
	{
		if (!fs_is_digit(s[i]))
			return false;
		r = r * 10 + (s[i] - '0');
	}
	*v = neg ? -r : r;
	return true;
}

static bool
is_duration_name(const char *s, size_t n)
{
	return fs_span_eq(s, n, "walltime") || fs_span_eq(s, n, "cput") || fs_span_eq(s, n, "pcput") ||
	       fs_span_eq(s, n, "soft_walltime") || fs_span_eq(s, n, "min_walltime") ||
	       fs_span_eq(s, n, "max_walltime") || fs_span_eq(s, n, "eligible_time");
}

static bool
is_size_name(const char *s, size_t n)
{
	return fs_span_eq(s, n, "mem") || fs_span_eq(s, n, "vmem") || fs_span_eq(s, n, "pmem") ||
	       fs_span_eq(s, n, "pvmem") || fs_span_eq(s, n, "file");
}

static bool
valid_rv_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > FS_RV_NAME_MAX || !fs_is_name_start(s[0]))
		return false;
	for (i = 1; i < n; i++)
		if (!is_key_char(s[i]) && s[i] != ':' && s[i] != '@')
			return false;
	return true;
}

/* Does the unit of an amount differ from what PBS writes (lower-case b, kb, ..., w, kw, ...)? */
static bool
odd_unit(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && !fs_is_digit(s[i - 1]) && s[i - 1] != '.')
		i--;
	if (i == n)
		return false;
	if (n - i == 1)
		return s[i] != 'b' && s[i] != 'w';
	for (; i < n; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			return true;
	return false;
}

/*
 * An amount of a resource: the resvec grammar, where a plain number is seconds for a time
 * resource and bytes for a size resource (OpenPBS to_size: no suffix means bytes).
 */
static fs_status
read_amount(const char *name, size_t nlen, const char *v, size_t vlen, double *amount, int *kind,
            fs_error *err)
{
	fs_status st = fs_rv_parse_amount(v, vlen, "PBS resource", amount, kind, err);

	if (st != FS_OK)
		return st;
	if (*kind == FS_KIND_COUNT && is_duration_name(name, nlen))
	{
		if (!(fabs(*amount) < FS_RV_DURATION_MAX))
			return fs_fail(err, FS_ERR_RANGE, "duration out of range");
		*kind = FS_KIND_DURATION;
	}
	else if (*kind == FS_KIND_COUNT && is_size_name(name, nlen))
		*kind = FS_KIND_SIZE;
	return FS_OK;
}

static int
item_name_cmp(const void *x, const void *y, void *ctx)
{
	const fs_rv_item *a = x, *b = y;

	(void) ctx;
	return fs_bytes_cmp(a->name, a->namelen, b->name, b->namelen);
}

/* Build a resvec from items, keeping the last of repeated names (with a note). */
static void
build_resvec(fs_pbs_record *rec, const fs_allocator *a, fs_rv_item *items, size_t n,
             const char *prefix, uint8_t **out)
{
	size_t i, m = 0;
	size_t len;
	fs_error err;

	for (i = 1; i < n && item_name_cmp(&items[i - 1], &items[i], NULL) <= 0; i++)
		;
	if (i < n) /* PBS writes them in name order: most lines need no sort */
		fs_sort(items, n, sizeof(fs_rv_item), item_name_cmp, NULL, a);
	for (i = 0; i < n; i++)
	{
		if (m > 0 && item_name_cmp(&items[m - 1], &items[i], NULL) == 0)
		{
			/* the repeated key is noted by order_keys */
			items[m - 1] = items[i]; /* stable sort: the later one wins */
			continue;
		}
		items[m++] = items[i];
	}
	if (fs_rv_build(items, m, FS_ERR_VALUE, a, 0, out, &len, &err) != FS_OK)
	{
		/* cannot happen for items checked above; keep the line readable anyway */
		note(rec, "%s resources dropped: %s", prefix, err.message);
		fs_rv_build(items, 0, FS_ERR_VALUE, a, 0, out, &len, &err);
	}
}

/* The CPUs of one exec_host slot spec: "3", "0-27", "0-1,5,11" (TORQUE), "0*13" (PBS Pro). */
static int64_t
slot_cpus(const char *s, size_t n)
{
	const char *star = memchr(s, '*', n);
	int64_t total = 0;
	size_t i = 0;

	if (star != NULL)
	{
		int64_t idx, cpus;
		size_t at = (size_t) (star - s);

		if (!read_int64(s, at, 9, &idx) || idx < 0 || !read_int64(star + 1, n - at - 1, 9, &cpus) ||
		    cpus < 0)
			return -1;
		return cpus;
	}
	/* comma-separated CPU numbers and lo-hi ranges, each counted hi - lo + 1 */
	while (i < n)
	{
		size_t j = i;
		int64_t lo, hi;
		size_t dash = 0;

		while (j < n && s[j] != ',')
		{
			if (s[j] == '-' && dash == 0)
				dash = j;
			j++;
		}
		if (dash)
		{
			if (!read_int64(s + i, dash - i, 9, &lo) ||
			    !read_int64(s + dash + 1, j - dash - 1, 9, &hi) || lo < 0 || hi < lo)
				return -1;
		}
		else
		{
			if (!read_int64(s + i, j - i, 9, &lo) || lo < 0)
				return -1;
			hi = lo;
		}
		total += hi - lo + 1;
		if (j < n && j + 1 == n)
			return -1; /* trailing comma */
		i = j + 1;
	}
	return n == 0 ? -1 : total;
}

static int
host_name_cmp(const void *x, const void *y, void *ctx)
{
	const fs_pbs_host *a = x, *b = y;

	(void) ctx;
	return fs_bytes_cmp(a->name, a->len, b->name, b->len);
}

static int
host_first_cmp(const void *x, const void *y, void *ctx)
{
	const fs_pbs_host *a = x, *b = y;

	(void) ctx;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* exec_host "h/0+h/1", "h/0-27", "h/0*13+h2/0*13": hosts in order of first appearance, CPUs summed.
 */
static void
read_exec_host(fs_pbs_record *rec, const fs_allocator *a, const char *s, size_t n)
{
	size_t chunks = 1, i, m = 0, start = 0;
	fs_pbs_host *h;
	char buf[80];

	for (i = 0; i < n; i++)
		if (s[i] == '+')
			chunks++;
	h = a->alloc(a->ctx, chunks * sizeof(fs_pbs_host));
	for (i = 0; i <= n; i++)
	{
		const char *c;
		size_t clen, slash;

		if (i < n && s[i] != '+')
			continue;
		FS_POLL(m);
		c = s + start;
		clen = i - start;
		start = i + 1;
		if (clen == 0)
		{
			note(rec, "exec_host has an empty entry");
			continue;
		}
		for (slash = clen; slash > 0 && c[slash - 1] != '/'; slash--)
			;
		h[m].first = m;
		if (slash == 0)
		{
			h[m].name = c;
			h[m].len = clen;
			h[m].cpus = -1;
			note(rec, "exec_host entry \"%s\" has no \"/slot\"", shown(buf, sizeof(buf), c, clen));
		}
		else
		{
			h[m].name = c;
			h[m].len = slash - 1;
			h[m].cpus = slot_cpus(c + slash, clen - slash);
			if (h[m].cpus < 0)
				note(rec, "exec_host entry \"%s\" has an unreadable slot list",
				     shown(buf, sizeof(buf), c, clen));
			else if (h[m].cpus == 0)
				note(rec, "exec_host entry \"%s\" gives the host no CPUs",
				     shown(buf, sizeof(buf), c, clen));
		}
		m++;
	}
	/* merge repeated hosts: sort by name (stable), sum, then back to first-appearance order */
	fs_sort(h, m, sizeof(fs_pbs_host), host_name_cmp, NULL, a);
	n = 0;
	for (i = 0; i < m; i++)
	{
		if (n > 0 && host_name_cmp(&h[n - 1], &h[i], NULL) == 0)
		{
			if (h[n - 1].cpus < 0 || h[i].cpus < 0)
				h[n - 1].cpus = -1;
			else
				h[n - 1].cpus += h[i].cpus;
			continue;
		}
		h[n++] = h[i];
	}
	fs_sort(h, n, sizeof(fs_pbs_host), host_first_cmp, NULL, a);
	rec->hosts = h;
	rec->nhosts = n;
	rec->has_exec_host = true;
}

/*
 * A pair's place in jsonb's key order (shorter keys first, then bytes; of equal keys the earlier
 * pair first, since of equal keys jsonb keeps the one pushed last): the key's length, its first 8
 * bytes big-endian (zero-padded: equal lengths pad alike) and the pair's index, so that most
 * comparisons are two integer ones.
 */
typedef struct key_rank
{
	size_t len;
	uint64_t head;
	size_t idx;
} key_rank;

static int
key_rank_cmp(const fs_pbs_record *rec, const key_rank *a, const key_rank *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->head != b->head)
		return a->head < b->head ? -1 : 1;
	if (a->len > 8)
	{
		int c = memcmp(rec->line + rec->pairs[a->idx].key_off + 8,
		               rec->line + rec->pairs[b->idx].key_off + 8, a->len - 8);

		if (c != 0)
			return c;
	}
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Bottom-up merge sort of n ranks (runs of 4 by insertion first), tmp of n entries. */
static void
sort_ranks(const fs_pbs_record *rec, key_rank *r, key_rank *tmp, size_t n)
{
	size_t i, j, w;
	key_rank *src = r, *dst = tmp;

	for (i = 0; i < n; i += 4)
	{
		size_t end = i + 4 < n ? i + 4 : n;

		for (j = i + 1; j < end; j++)
		{
			key_rank x = r[j];
			size_t k = j;

			for (; k > i && key_rank_cmp(rec, &r[k - 1], &x) > 0; k--)
				r[k] = r[k - 1];
			r[k] = x;
		}
	}
	for (w = 4; w < n; w *= 2)
	{
		key_rank *t;

		fs_check_interrupts();
		for (i = 0; i < n; i += 2 * w)
		{
			size_t lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
			size_t x = lo, y = mid, o = lo;

			while (x < mid && y < hi)
				dst[o++] = key_rank_cmp(rec, &src[y], &src[x]) < 0 ? src[y++] : src[x++];
			while (x < mid)
				dst[o++] = src[x++];
			while (y < hi)
				dst[o++] = src[y++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != r)
		memcpy(r, src, n * sizeof(key_rank));
}

static bool
same_key(const fs_pbs_record *rec, size_t i, size_t j)
{
	const fs_pbs_pair *p = &rec->pairs[i], *q = &rec->pairs[j];

	return p->key_len == q->key_len &&
	       memcmp(rec->line + p->key_off, rec->line + q->key_off, p->key_len) == 0;
}

/*
 * Order the pairs for jsonb (rec->by_key) with the merge sort, O(n log n) comparisons of keys,
 * and note keys written more than once in one pass over the sorted order (repeats are
 * neighbours there): the last value is used (by the fields and by jsonb).
 */
static void
order_keys(fs_pbs_record *rec, const fs_allocator *a)
{
	size_t n = rec->npairs;
	size_t *k = a->alloc(a->ctx, (n + 1) * sizeof(size_t));
	key_rank *r = a->alloc(a->ctx, (2 * n + 1) * sizeof(key_rank));
	size_t i, b;
	char buf[80];

	for (i = 0; i < n; i++)
	{
		const char *key = rec->line + rec->pairs[i].key_off;
		size_t len = rec->pairs[i].key_len;

		FS_POLL(i);
		r[i].len = len;
		r[i].idx = i;
		r[i].head = 0;
		if (len >= 8)
		{
			const unsigned char *u = (const unsigned char *) key;

			r[i].head = (uint64_t) u[0] << 56 | (uint64_t) u[1] << 48 | (uint64_t) u[2] << 40 |
			            (uint64_t) u[3] << 32 | (uint64_t) u[4] << 24 | (uint64_t) u[5] << 16 |
			            (uint64_t) u[6] << 8 | (uint64_t) u[7];
		}
		else
			for (b = 0; b < 8; b++)
				r[i].head = (r[i].head << 8) | (b < len ? (unsigned char) key[b] : 0);
	}
	sort_ranks(rec, r, r + n, n);
	for (i = 0; i < n; i++)
		k[i] = r[i].idx;
	a->release(a->ctx, r);
	rec->by_key = k;
	for (i = 1; i < rec->npairs; i++)
	{
		FS_POLL(i);
		if (same_key(rec, k[i], k[i - 1]) && (i < 2 || !same_key(rec, k[i - 1], k[i - 2])))
			note(rec, "key \"%s\" appears more than once; the last value is used",
			     shown(buf, sizeof(buf), rec->line + rec->pairs[k[i]].key_off,
			           rec->pairs[k[i]].key_len));
	}
}

/* A text or time pair (ctime=..., queue=...): true when key k is one. */
static bool
read_text_or_time(fs_pbs_record *rec, size_t i, const char *k, size_t kl, const char *v, size_t vl)
{
	char b1[80];
	int64_t n;
	int t;

	for (t = 0; t < FS_PBS_NTEXTS; t++)
		if (kl == text_lens[t] && memcmp(k, text_names[t], kl) == 0)
		{
			rec->text[t] = (long) i;
			return true;
		}
	for (t = 0; t < FS_PBS_NTIMES; t++)
	{
		if (kl != time_lens[t] || memcmp(k, time_names[t], kl) != 0)
			continue;
		rec->has_time[t] = false;
		if (!read_int64(v, vl, 12, &n) || n < 0)
			note(rec, "%s \"%s\" is not an epoch time", time_names[t],
			     shown(b1, sizeof(b1), v, vl));
		else if (n > 0) /* 0 means "not set" (etime of a job not yet eligible, ...) */
		{
			rec->time[t] = n;
			rec->has_time[t] = true;
		}
		return true;
	}
	return false;
}

/* Note an amount no PBS writes: a cut duration, a size over 1 EiB, a walltime over 68 years. */
static void
implausible_amount(fs_pbs_record *rec, const char *k, size_t kl, const char *v, size_t vl,
                   const fs_rv_item *it)
{
	char b1[80], b2[80];

	if (it->kind == FS_KIND_DURATION && fs_load_cut_duration(v, vl))
		note(rec,
		     "cut duration: %s=%s is not a duration PBS writes (HH:MM:SS or seconds); read as "
		     "M:S, %.0f s (a truncated line?)",
		     shown(b1, sizeof(b1), k, kl), shown(b2, sizeof(b2), v, vl), it->amount);
	else if (it->kind == FS_KIND_SIZE && fabs(it->amount) > FS_LOAD_SIZE_MAX)
		note(rec, "implausible size: %s=%s is over 2^60 bytes (1 EiB)",
		     shown(b1, sizeof(b1), k, kl), shown(b2, sizeof(b2), v, vl));
	else if (it->kind == FS_KIND_DURATION && fs_span_eq(it->name, it->namelen, "walltime") &&
	         fabs(it->amount) > FS_LOAD_WALL_MAX)
		note(rec, "implausible duration: %s=%s is over 2^31 s (68 years)",
		     shown(b1, sizeof(b1), k, kl), shown(b2, sizeof(b2), v, vl));
}

/* A resources_used.<res> or Resource_List.<res> pair: an amount, or text kept as it is. */
static void
read_resource_pair(fs_pbs_record *rec, size_t i, const char *k, size_t kl, const char *v, size_t vl,
                   fs_rv_item *used, size_t *nused, fs_rv_item *req, size_t *nreq)
{
	bool is_used = k[0] == 'r';
	size_t plen = is_used ? 15 : 14;
	fs_rv_item it;
	fs_error aerr;
	fs_status st;
	char b1[80], b2[80];

	it.name = k + plen;
	it.namelen = kl - plen;
	it.pos = 0;
	if (!is_used &&
	    (fs_span_eq(it.name, it.namelen, "select") || fs_span_eq(it.name, it.namelen, "nodes")))
	{
		/* a chunk spec whatever its form: "select=1" is one chunk, not an amount of 1 */
		rec->req_text[rec->nreq_text++] = i;
		return;
	}
	st = read_amount(it.name, it.namelen, v, vl, &it.amount, &it.kind, &aerr);
	if (st == FS_OK && !valid_rv_name(it.name, it.namelen))
	{
		note(rec,
		     "\"%s\" is not a resource name a resvec can hold; it is kept in attrs "
		     "only",
		     shown(b1, sizeof(b1), k, kl));
		return;
	}
	if (st == FS_OK && odd_unit(v, vl))
		note(rec, "%s=%s has a unit PBS does not write; read as powers of 1024 bytes",
		     shown(b1, sizeof(b1), k, kl), shown(b2, sizeof(b2), v, vl));
	if (st == FS_OK)
		implausible_amount(rec, k, kl, v, vl, &it);
	if (st == FS_OK)
	{
		if (is_used)
			used[(*nused)++] = it;
		else
			req[(*nreq)++] = it;
	}
	else if (!is_used && st == FS_ERR_SYNTAX)
		rec->req_text[rec->nreq_text++] = i; /* select, place, nodes=4:ppn=8, ... */
	else
		note(rec, "%s=%s is not an amount: %s", shown(b1, sizeof(b1), k, kl),
		     shown(b2, sizeof(b2), v, vl), aerr.message);
}

/*
 * Note a resources_used.walltime (the last one written) far from end - start (plausible.h says
 * what far is). O(number of used amounts).
 */
static void
far_walltime(fs_pbs_record *rec, const fs_rv_item *used, size_t nused)
{
	const fs_rv_item *w = NULL;
	size_t i;
	double span;

	if (!rec->has_time[FS_PBS_START] || !rec->has_time[FS_PBS_END] ||
	    rec->time[FS_PBS_END] < rec->time[FS_PBS_START])
		return; /* end before start has a note of its own */
	for (i = 0; i < nused; i++)
		if (fs_span_eq(used[i].name, used[i].namelen, "walltime"))
			w = &used[i];
	if (w == NULL)
		return;
	span = (double) (rec->time[FS_PBS_END] - rec->time[FS_PBS_START]);
	if (fs_load_far(w->amount, span))
		note(rec,
		     "far walltime: resources_used.walltime is %.0f s but end - start is %.0f s (more "
		     "than 600 s and 10%% apart)",
		     w->amount, span);
}

/*
 * Note a second record's "MM/DD/YYYY hh:mm:ss;T;" inside the message: psql's \copy drops the
 * bytes from a NUL to the line end and glues the next line on, and a lost newline does the same.
 * Only a ';' can start the search (the tokenizer splits on the first three), so a message
 * without one costs one memchr. O(length of the message).
 */
static void
merged_records(fs_pbs_record *rec)
{
	const char *s = rec->line;
	size_t from = rec->id_off + rec->id_len + 1, i = from;
	char buf[80];

	while (i < rec->len)
	{
		const char *semi = memchr(s + i, ';', rec->len - i);
		size_t at;
		fs_pbs_record probe;
		const char *range;

		if (semi == NULL)
			return;
		at = (size_t) (semi - s);
		i = at + 1;
		if (at < from + 19 || at + 2 >= rec->len || s[at + 2] != ';')
			continue;
		/* read_stamp fills the date fields of the record it is given: use a probe */
		memset(&probe, 0, sizeof(probe));
		if (read_stamp(s + at - 19, 19, &probe, &range) == 0)
		{
			note(rec,
			     "merged records: the line holds another record's stamp \"%s\" at character "
			     "%zu (a NUL byte or a lost newline joined two lines: strip NULs as line ends "
			     "before loading)",
			     shown(buf, sizeof(buf), s + at - 19, 22), fs_char_pos(s, at - 19));
			return;
		}
	}
}

fs_status
fs_pbs_parse(const char *line, size_t len, const fs_allocator *a, fs_pbs_record *rec, fs_error *err)
{
	fs_status st = fs_pbs_tokenize(line, len, a, rec, err);
	fs_rv_item *used, *req;
	size_t nused = 0, nreq = 0;
	size_t i;
	char b1[80];
	long exec_host = -1;

	if (st != FS_OK)
		return st;
	used = a->alloc(a->ctx, (rec->npairs + 1) * sizeof(fs_rv_item));
	req = a->alloc(a->ctx, (rec->npairs + 1) * sizeof(fs_rv_item));
	rec->req_text = a->alloc(a->ctx, (rec->npairs + 1) * sizeof(size_t));
	for (i = 0; i < rec->npairs; i++)
	{
		const fs_pbs_pair *p = &rec->pairs[i];
		const char *k = line + p->key_off;
		const char *v = line + p->val_off;
		size_t kl = p->key_len, vl = p->val_len;
		int64_t n;

		FS_POLL(i);
		if (read_text_or_time(rec, i, k, kl, v, vl))
			continue;
		if (fs_span_eq(k, kl, "Exit_status") || fs_span_eq(k, kl, "run_count"))
		{
			bool ex = k[0] == 'E';

			if (!read_int64(v, vl, 9, &n))
				note(rec, "%s \"%s\" is not an integer", ex ? "Exit_status" : "run_count",
				     shown(b1, sizeof(b1), v, vl));
			else if (ex)
				rec->has_exit = true, rec->exit_status = (int32_t) n;
			else
				rec->has_run_count = true, rec->run_count = (int32_t) n;
		}
		else if (fs_span_eq(k, kl, "session"))
		{
			if (!read_int64(v, vl, 18, &n))
				note(rec, "session \"%s\" is not an integer", shown(b1, sizeof(b1), v, vl));
			else
				rec->has_session = true, rec->session = n;
		}
		else if (fs_span_eq(k, kl, "exec_host"))
			exec_host = (long) i;
		else if (span_prefix(k, kl, "resources_used.") || span_prefix(k, kl, "Resource_List."))
			read_resource_pair(rec, i, k, kl, v, vl, used, &nused, req, &nreq);
		else if (span_prefix(k, kl, "Resource_Request_"))
			rec->req_text[rec->nreq_text++] = i;
	}
	order_keys(rec, a);
	far_walltime(rec, used, nused);
	build_resvec(rec, a, used, nused, "resources_used.", &rec->used);
	build_resvec(rec, a, req, nreq, "Resource_List.", &rec->requested);
	a->release(a->ctx, used);
	a->release(a->ctx, req);
	if (exec_host >= 0)
		read_exec_host(rec, a, line + rec->pairs[exec_host].val_off, rec->pairs[exec_host].val_len);
	if (rec->type == 'E' || rec->type == 'R')
	{
		if (!rec->has_time[FS_PBS_START])
			note(rec, "%c record without a start time", rec->type);
		if (!rec->has_time[FS_PBS_END])
			note(rec, "%c record without an end time", rec->type);
		if (nused == 0 && !rec->is_array_parent)
			note(rec, "%c record without resources_used", rec->type);
	}
	if (rec->has_time[FS_PBS_START] && rec->has_time[FS_PBS_END] &&
	    rec->time[FS_PBS_END] < rec->time[FS_PBS_START])
		note(rec, "end is before start");
	merged_records(rec);
	return FS_OK;
}
