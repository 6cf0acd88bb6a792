/*
 * msic_config.c: the MSIC-Cluster scheduler's configuration file (getconfig.c) and holidays file,
 * read as the reference describes the original, with its crashes, overflows and hangs turned into
 * clear errors or the sensible result. The prime-time calendar is in msic_prime.c.
 */
#include "msic/msic_config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define US_PER_SEC INT64_C(1000000)
#define US_PER_DAY (INT64_C(86400) * US_PER_SEC)
/* hours of a time value: the seconds must fit an interval's microseconds */
#define MAX_HOURS INT64_C(2562047787)

static const char *const true_words[] = {"true", "on", "enable", "enabled", "yes", "y", "1"};
static const char *const false_words[] = {"false", "off", "no", "disable", "disabled", "n", "0"};

const char *
fs_msic_str(const fs_msic_config *cfg, size_t off)
{
	return off == FS_MSIC_NONE ? NULL : cfg->strs.data + off;
}

static size_t
add_str(fs_msic_config *cfg, const char *s, size_t n, bool lower)
{
	size_t off = cfg->strs.len;
	size_t i;

	fs_sb_append(&cfg->strs, s, n);
	fs_sb_append(&cfg->strs, "", 1); /* the terminator is part of the pool */
	cfg->strs.len = off + n + 1;
	if (lower)
		for (i = 0; i < n; i++)
			cfg->strs.data[off + i] = fs_ascii_lower(cfg->strs.data[off + i]);
	return off;
}

void
fs_msic_config_free(fs_msic_config *cfg, const fs_allocator *a)
{
	if (cfg->strs.data)
		a->release(a->ctx, cfg->strs.data);
	if (cfg->submit)
		a->release(a->ctx, cfg->submit);
	if (cfg->batch)
		a->release(a->ctx, cfg->batch);
	if (cfg->fair)
		a->release(a->ctx, cfg->fair);
	memset(cfg, 0, sizeof(*cfg));
}

/* ---- errors -------------------------------------------------------------------------------- */

/* "line N: <message>"; line 0 (a composite value, not a file): the message alone. */
static fs_status FS_PRINTF(3, 4) line_fail(fs_error *err, int line, const char *fmt, ...)
{
	char buf[FS_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (line <= 0)
		return fs_fail(err, FS_ERR_SYNTAX, "%s", buf);
	return fs_fail(err, FS_ERR_SYNTAX, "line %d: %s", line, buf);
}

/* The original's "Error parsing option '%s'" with a detail saying what is wrong. */
static fs_status FS_PRINTF(4, 5)
    opt_fail(fs_error *err, int line, const char *opt, const char *fmt, ...)
{
	char buf[FS_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	line_fail(err, line, "Error parsing option '%s'", opt);
	fs_error_detail(err, "%s", buf);
	return FS_ERR_SYNTAX;
}

/* A word quoted for a message, cut at 100 bytes. */
static const char *
shown(char *dst, size_t cap, const char *s, size_t n)
{
	fs_quote_excerpt(dst, cap, s, n, 100);
	return dst;
}

/* ---- values -------------------------------------------------------------------------------- */

/* schd_val2bool: 1 true, 0 false, -1 neither. */
static int
parse_bool(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(true_words) / sizeof(true_words[0]); i++)
		if (fs_span_ieq(s, n, true_words[i]))
			return 1;
	for (i = 0; i < sizeof(false_words) / sizeof(false_words[0]); i++)
		if (fs_span_ieq(s, n, false_words[i]))
			return 0;
	return -1;
}

/* Digits (at least one) with an optional leading '+', up to `limit`; false otherwise. */
static bool
parse_uint(const char *s, size_t n, int64_t limit, int64_t *v)
{
	size_t plus = n > 0 && s[0] == '+';

	return fs_parse_digits(s + plus, n - plus, limit, v);
}

/*
 * schd_val2sec: one to three ':'-separated fields (empty ones merged away), SS, MM:SS or
 * HH:MM:SS; minutes and seconds 0-59. On failure *why says what is wrong.
 */
static bool
parse_time(const char *s, size_t n, int64_t *secs, const char **why)
{
	int64_t f[3];
	int k = 0;
	size_t i = 0;

	while (i < n)
	{
		size_t j = i;

		while (j < n && s[j] != ':')
			j++;
		if (j > i)
		{
			if (k == 3)
			{
				*why = "a time has at most three fields, HH:MM:SS";
				return false;
			}
			if (!parse_uint(s + i, j - i, MAX_HOURS, &f[k]))
			{
				*why = "each field of a time must be a non-negative decimal number";
				return false;
			}
			k++;
		}
		i = j + 1;
	}
	if (k == 0)
	{
		*why = "a time needs at least one field";
		return false;
	}
	if (f[k - 1] > 59 || (k >= 2 && f[k - 2] > 59))
	{
		*why = k == 1 ? "seconds must be 0 to 59 (a single field is seconds)"
		              : "minutes and seconds must be 0 to 59";
		return false;
	}
	*secs = k == 1 ? f[0] : k == 2 ? f[0] * 60 + f[1] : f[0] * 3600 + f[1] * 60 + f[2];
	return true;
}

static bool
leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
month_days(int64_t y, int64_t m)
{
	static const int d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && leap(y) ? 29 : d[m - 1];
}

/* One numeric field of at most `maxd` digits ending at `stop` (or the end when stop is 0). */
static bool
date_field(const char *s, size_t n, size_t *i, char stop, int maxd, int64_t *v)
{
	size_t st = *i;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9')
		(*i)++;
	if (*i == st || (int) (*i - st) > maxd || !parse_uint(s + st, *i - st, 9999, v))
		return false;
	if (stop)
	{
		if (*i >= n || s[*i] != stop)
			return false;
		(*i)++;
	}
	return *i <= n;
}

/* The date form of ENFORCE_PRIME_TIME: MM/DD/YYYY@HH:MM:SS, one-digit fields allowed. */
static bool
parse_date(const char *s, size_t n, fs_msic_date *d)
{
	int64_t v[6];
	size_t i = 0;

	if (!date_field(s, n, &i, '/', 2, &v[0]) || !date_field(s, n, &i, '/', 2, &v[1]) ||
	    !date_field(s, n, &i, '@', 4, &v[2]) || !date_field(s, n, &i, ':', 2, &v[3]) ||
	    !date_field(s, n, &i, ':', 2, &v[4]) || !date_field(s, n, &i, 0, 2, &v[5]) || i != n)
		return false;
	if (v[0] < 1 || v[0] > 12 || v[2] < 1 || v[1] < 1 || v[1] > month_days(v[2], v[0]) ||
	    v[3] > 23 || v[4] > 59 || v[5] > 59)
		return false;
	d->mon = (int) v[0];
	d->mday = (int) v[1];
	d->year = (int) v[2];
	d->hour = (int) v[3];
	d->min = (int) v[4];
	d->sec = (int) v[5];
	return true;
}

/* TARGET_LOAD_PCT, SUSPEND_THRESHOLD, MAX_USER_RUN_JOBS: a non-negative integer, '%' allowed. */
static bool
parse_count(const char *s, size_t n, int *v)
{
	int64_t x;

	if (n > 0 && s[n - 1] == '%')
		n--;
	if (!parse_uint(s, n, INT_MAX, &x))
		return false;
	*v = (int) x;
	return true;
}

/* getconfig.c:get_variance: "-mm%,+nn%", each sign at most once; text after '%' ignored. */
static bool
parse_variance(const char *s, size_t n, double *minus, double *plus, const char **why)
{
	bool seen_minus = false, seen_plus = false;
	size_t i = 0;

	*minus = *plus = 0;
	while (i < n)
	{
		size_t j = i, k;
		int64_t v;

		while (j < n && s[j] != ',')
			j++;
		if (j > i)
		{
			char sign = s[i];

			if (sign != '+' && sign != '-')
			{
				*why = "each item must start with '+' or '-'";
				return false;
			}
			k = i + 1;
			while (k < j && s[k] >= '0' && s[k] <= '9')
				k++;
			if (k == i + 1 || k == j || s[k] != '%')
			{
				*why = "each item must be a sign, digits and '%'";
				return false;
			}
			if (!parse_uint(s + i + 1, k - i - 1, INT_MAX, &v))
			{
				*why = "a percentage must be at most 2147483647";
				return false;
			}
			if ((sign == '-' && seen_minus) || (sign == '+' && seen_plus))
			{
				*why = "each sign may appear only once";
				return false;
			}
			if (sign == '-')
			{
				seen_minus = true;
				*minus = (double) v;
			}
			else
			{
				seen_plus = true;
				*plus = (double) v;
			}
		}
		i = j + 1;
	}
	return true;
}

/* ---- rules every configuration follows, parsed or built ------------------------------------ */

/*
 * Whether s[0..n) is one word of the file: the parser splits lines on white space, so no word
 * holds any, nor a control character, nor one of `stops` (the item separators of its option).
 */
static bool
word_ok(const char *s, size_t n, const char *stops)
{
	size_t i;

	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c < 0x20 || c == 0x7f || fs_is_space(s[i]) || strchr(stops, s[i]) != NULL)
			return false;
	}
	return true;
}

/* A SUBMIT_QUEUE or BATCH_QUEUES item: queue[@host], neither empty, each one word. */
static fs_status
queue_entry_check(const fs_msic_config *cfg, const fs_msic_qent *q, const char *opt, int line,
                  fs_error *err)
{
	const char *name = cfg->strs.data + q->name;
	const char *host = fs_msic_str(cfg, q->host);
	size_t nl = strlen(name), hl = host ? strlen(host) : 0;
	char item[256], sh[128];

	snprintf(item, sizeof(item), "%.120s%s%.120s", name, host ? "@" : "", host ? host : "");
	shown(sh, sizeof(sh), item, strlen(item));
	if (nl == 0 || (host && hl == 0))
		return opt_fail(err, line, opt, "\"%s\" has an empty queue or host name around '@'.", sh);
	if (!word_ok(name, nl, ",@") || (host && !word_ok(host, hl, ",")))
		return opt_fail(err, line, opt,
		                "\"%s\" is not a queue[@host] item: names cannot hold white space, "
		                "control characters or ',', nor the queue name '@'.",
		                sh);
	return FS_OK;
}

/* A FAIR_SHARE entry: the queue name fits the original's buffer, shares 1-100, running 0-100. */
static fs_status
fair_entry_check(const char *name, size_t len, int shares, int pct, int line, fs_error *err)
{
	char sh[128];

	if (len > FS_MSIC_FAIR_QUEUE_MAX)
		return opt_fail(err, line, "FAIR_SHARE",
		                "The queue name \"%s\" is longer than %d characters (the original "
		                "overflows its buffer).",
		                shown(sh, sizeof(sh), name, len), FS_MSIC_FAIR_QUEUE_MAX);
	if (len == 0 || !word_ok(name, len, ":"))
		return opt_fail(err, line, "FAIR_SHARE",
		                "The queue name \"%s\" is empty or holds white space, a control "
		                "character or ':'.",
		                shown(sh, sizeof(sh), name, len));
	if (shares < 1 || shares > 100)
		return line_fail(err, line, "FAIR_SHARE share percentage (%d) should be between 1 and 100",
		                 shares);
	if (pct < 0 || pct > 100)
		return line_fail(err, line,
		                 "FAIR_SHARE running job percentage (%d) should be between 1 and 100", pct);
	return FS_OK;
}

/* The FAIR_SHARE names, indexed as entries are added (rebuilt at double size when half full). */
typedef struct fair_index
{
	fs_hindex h;
	size_t cap; /* entries the index holds before it is rebuilt */
	const fs_msic_config *cfg;
} fair_index;

static bool
fair_eq(const void *ctx, uint32_t entry, const void *key)
{
	const fs_msic_config *cfg = ctx;
	const fs_str *k = key;
	const char *o = cfg->strs.data + cfg->fair[entry].queue;

	return fs_span_eq(k->s, k->len, o);
}

static uint64_t
fair_hash(const fs_msic_config *cfg, size_t i)
{
	const char *o = cfg->strs.data + cfg->fair[i].queue;

	return fs_hash(o, strlen(o));
}

static void
fair_index_free(fair_index *x, const fs_allocator *a)
{
	if (x->h.slots)
		a->release(a->ctx, x->h.slots);
	x->h.slots = NULL;
	x->cap = 0;
}

/*
 * Add FAIR_SHARE entry i (entries 0..i-1 are in the index); FS_ERR_SYNTAX with the parser's
 * message when an earlier entry has the same queue.
 */
static fs_status
fair_index_add(fair_index *x, size_t i, const fs_allocator *a, fs_error *err)
{
	const fs_msic_config *cfg = x->cfg;
	const char *o = cfg->strs.data + cfg->fair[i].queue;
	fs_str key = {o, strlen(o)};
	uint32_t first;

	if (i >= x->cap)
	{
		size_t k;

		fair_index_free(x, a);
		x->cap = i < 8 ? 16 : 2 * i;
		fs_hindex_init(&x->h, x->cap, a);
		for (k = 0; k < i; k++)
		{
			const char *ok = cfg->strs.data + cfg->fair[k].queue;
			fs_str kk = {ok, strlen(ok)};

			FS_POLL(k);
			fs_hindex_put(&x->h, fair_hash(cfg, k), &kk, (uint32_t) k, fair_eq, cfg);
		}
	}
	first = fs_hindex_put(&x->h, fair_hash(cfg, i), &key, (uint32_t) i, fair_eq, cfg);
	if (first == i)
		return FS_OK;
	line_fail(err, cfg->fair[i].line, "FAIR_SHARE queue \"%s\" is already listed", o);
	if (cfg->fair[first].line > 0)
		fs_error_detail(err, "It was first given on line %d.", cfg->fair[first].line);
	else
		fs_error_detail(err, "It was first given in fair_share[%zu].", (size_t) first + 1);
	return FS_ERR_SYNTAX;
}

static const char *const restart_actions[] = {"NONE", "RESUBMIT", "RERUN"};

static fs_status
restart_action_check(const char *s, size_t n, int line, fs_error *err)
{
	char sh[128];
	size_t i;

	for (i = 0; i < sizeof(restart_actions) / sizeof(restart_actions[0]); i++)
		if (fs_span_eq(s, n, restart_actions[i]))
			return FS_OK;
	opt_fail(err, line, "SCHED_RESTART_ACTION", "\"%s\" is not a restart action.",
	         shown(sh, sizeof(sh), s, n));
	fs_error_hint(err, "Use NONE, RESUBMIT or RERUN (upper case).");
	return FS_ERR_SYNTAX;
}

/* ---- the file ------------------------------------------------------------------------------ */

typedef struct parser
{
	fs_msic_config *cfg;
	const fs_allocator *a;
	const char *local_host;
	fs_error *err;
	int line;
	fair_index fair_idx;
} parser;

/* arg_to_qlist: comma-separated queue[@host], empty items dropped; appended to the list. */
static fs_status
add_queues(parser *p, const char *opt, const char *s, size_t n, bool submit)
{
	fs_msic_config *cfg = p->cfg;
	size_t i = 0;
	char sh[128];

	/* comma-separated queue[@host], empty items skipped; no host means the local host */
	while (i < n)
	{
		size_t j = i, at;
		fs_msic_qent q;

		while (j < n && s[j] != ',')
			j++;
		if (j > i)
		{
			at = i;
			while (at < j && s[at] != '@')
				at++;
			if (at == i || (at < j && at + 1 == j))
				return opt_fail(p->err, p->line, opt,
				                "\"%s\" has an empty queue or host name around '@'.",
				                shown(sh, sizeof(sh), s + i, j - i));
			q.name = add_str(cfg, s + i, at - i, false);
			if (at < j)
				q.host = add_str(cfg, s + at + 1, j - at - 1, false);
			else if (p->local_host)
				q.host = add_str(cfg, p->local_host, strlen(p->local_host), true);
			else
				q.host = FS_MSIC_NONE;
			/* each entry is written back on a line of its own ("OPT queue@host"): it must fit */
			if (strlen(opt) + 1 + (at - i) +
			        (q.host != FS_MSIC_NONE ? 1 + strlen(cfg->strs.data + q.host) : 0) >
			    FS_MSIC_LINE_MAX)
				return opt_fail(p->err, p->line, opt,
				                "\"%s\" with its host is too long: an entry and its option "
				                "must fit on one line of %d bytes.",
				                shown(sh, sizeof(sh), s + i, j - i), FS_MSIC_LINE_MAX);
			if (submit)
			{
				cfg->submit = fs_grow(p->a, cfg->submit, cfg->n_submit, &cfg->cap_submit,
				                      sizeof(fs_msic_qent));
				cfg->submit[cfg->n_submit++] = q;
			}
			else
			{
				cfg->batch =
				    fs_grow(p->a, cfg->batch, cfg->n_batch, &cfg->cap_batch, sizeof(fs_msic_qent));
				cfg->batch[cfg->n_batch++] = q;
			}
		}
		i = j + 1;
	}
	return FS_OK;
}

/* fair_access.c:arg_to_fairshare: QUEUE:name:shares:max_run_pct (empty fields merged away). */
static fs_status
add_fair_share(parser *p, const char *s, size_t n)
{
	fs_msic_config *cfg = p->cfg;
	const char *f[4];
	size_t fl[4];
	int k = 0, shares, pct;
	size_t i = 0, q;
	char sh[128];

	while (i < n)
	{
		size_t j = i;

		while (j < n && s[j] != ':')
			j++;
		if (j > i)
		{
			if (k < 4)
			{
				f[k] = s + i;
				fl[k] = j - i;
			}
			k++;
		}
		i = j + 1;
	}
	if (k == 0 || !fs_span_eq(f[0], fl[0], "QUEUE"))
		return line_fail(p->err, p->line, "Unrecognized FAIR_SHARE directive: %s",
		                 k == 0 ? "" : shown(sh, sizeof(sh), f[0], fl[0]));
	if (k != 4)
	{
		line_fail(p->err, p->line, "Incomplete FAIR_SHARE directive: %s",
		          shown(sh, sizeof(sh), s, n));
		fs_error_hint(p->err, "The form is FAIR_SHARE QUEUE:name:shares:max_run_pct.");
		return FS_ERR_SYNTAX;
	}
	if (fl[1] > FS_MSIC_FAIR_QUEUE_MAX)
		return fair_entry_check(f[1], fl[1], 1, 0, p->line, p->err);
	if (!parse_count(f[2], fl[2], &shares))
		return opt_fail(p->err, p->line, "FAIR_SHARE",
		                "The share percentage \"%s\" is not a whole number.",
		                shown(sh, sizeof(sh), f[2], fl[2]));
	if (shares < 1 || shares > 100)
		return fair_entry_check(f[1], fl[1], shares, 0, p->line, p->err);
	if (!parse_count(f[3], fl[3], &pct))
		return opt_fail(p->err, p->line, "FAIR_SHARE",
		                "The running job percentage \"%s\" is not a whole number.",
		                shown(sh, sizeof(sh), f[3], fl[3]));
	if (fair_entry_check(f[1], fl[1], shares, pct, p->line, p->err) != FS_OK)
		return FS_ERR_SYNTAX;
	q = add_str(cfg, f[1], fl[1], false);
	fs_msic_config_add_fair(cfg, q, shares, pct, p->line, p->a);
	/* a repeated queue is refused on its line, before the lines after it are read */
	return fair_index_add(&p->fair_idx, cfg->n_fair - 1, p->a, p->err);
}

static fs_status
bool_opt(parser *p, const char *opt, const char *s, size_t n, bool *out)
{
	int b = parse_bool(s, n);
	char sh[128];

	if (b < 0)
	{
		opt_fail(p->err, p->line, opt, "\"%s\" is not a boolean word.",
		         shown(sh, sizeof(sh), s, n));
		fs_error_hint(p->err, "True words: true, on, enable, enabled, yes, y, 1; false words: "
		                      "false, off, no, disable, disabled, n, 0 (any case).");
		return FS_ERR_SYNTAX;
	}
	*out = b == 1;
	return FS_OK;
}

static fs_status
time_opt(parser *p, const char *opt, const char *s, size_t n, int64_t *out)
{
	const char *why = "";
	char sh[128];

	if (!parse_time(s, n, out, &why))
	{
		opt_fail(p->err, p->line, opt, "\"%s\" is not a time value: %s.",
		         shown(sh, sizeof(sh), s, n), why);
		fs_error_hint(p->err, "A time is SS, MM:SS or HH:MM:SS, for example 04:00:00.");
		return FS_ERR_SYNTAX;
	}
	return FS_OK;
}

static fs_status
count_opt(parser *p, const char *opt, const char *s, size_t n, int *out)
{
	char sh[128];

	if (!parse_count(s, n, out))
		return opt_fail(p->err, p->line, opt,
		                "\"%s\" is not a whole number from 0 to 2147483647 (a '%%' may follow).",
		                shown(sh, sizeof(sh), s, n));
	return FS_OK;
}

/* ENFORCE_PRIME_TIME: a boolean word, or the date from which prime time is enforced. */
static fs_status
prime_time_opt(parser *p, const char *opt, const char *s, size_t n)
{
	fs_msic_config *cfg = p->cfg;
	int b = parse_bool(s, n);
	char sh[128];

	if (b >= 0)
	{
		cfg->enforce_prime_time = b == 1;
		cfg->has_prime_from = false;
		return FS_OK;
	}
	if (!parse_date(s, n, &cfg->prime_from))
	{
		opt_fail(p->err, p->line, opt,
		         "\"%s\" is neither a boolean word nor a date MM/DD/YYYY@HH:MM:SS.",
		         shown(sh, sizeof(sh), s, n));
		fs_error_hint(p->err, "For example: True, or 09/01/2000@08:00:00 to enforce prime "
		                      "time from that local time on.");
		return FS_ERR_SYNTAX;
	}
	cfg->enforce_prime_time = true;
	cfg->has_prime_from = true;
	return FS_OK;
}

static fs_status
variance_opt(parser *p, const char *opt, const char *s, size_t n)
{
	const char *why = "";
	char sh[128];

	if (!parse_variance(s, n, &p->cfg->target_load_minus, &p->cfg->target_load_plus, &why))
	{
		opt_fail(p->err, p->line, opt, "\"%s\" is not a variance: %s.", shown(sh, sizeof(sh), s, n),
		         why);
		fs_error_hint(p->err, "The form is -mm%%,+nn%%, for example -15%%,+10%%.");
		return FS_ERR_SYNTAX;
	}
	return FS_OK;
}

/* SCHED_RESTART_ACTION: one of three words, upper case as the original compares them. */
static fs_status
restart_action_opt(parser *p, const char *opt, const char *s, size_t n)
{
	size_t i;

	(void) opt;
	for (i = 0; i < sizeof(restart_actions) / sizeof(restart_actions[0]); i++)
		if (fs_span_eq(s, n, restart_actions[i]))
		{
			p->cfg->sched_restart_action = restart_actions[i];
			return FS_OK;
		}
	return restart_action_check(s, n, p->line, p->err);
}

/*
 * One option line, its name matched exactly and case-sensitively as set_cfg_opt does: SUBMIT_QUEUE,
 * BATCH_QUEUES and FAIR_SHARE add to what earlier lines gave; any other option replaces its value.
 */
static fs_status
set_option(parser *p, const char *o, size_t on, const char *s, size_t n)
{
	fs_msic_config *cfg = p->cfg;
	char opt[64], sh[128];
	int v;
	fs_status st;

#define IS(name) fs_span_eq(o, on, name)
	shown(opt, sizeof(opt), o, on < 40 ? on : 40);
	if (IS("SUBMIT_QUEUE"))
		return add_queues(p, opt, s, n, true);
	if (IS("BATCH_QUEUES"))
		return add_queues(p, opt, s, n, false);
	if (IS("EXPRESS_QUEUE"))
	{
		if (n > FS_MSIC_EXPRESS_MAX)
			return opt_fail(p->err, p->line, opt,
			                "The queue name \"%s\" is longer than %d characters (the original "
			                "overflows its buffer).",
			                shown(sh, sizeof(sh), s, n), FS_MSIC_EXPRESS_MAX);
		cfg->express_queue = add_str(cfg, s, n, false);
		return FS_OK;
	}
	if (IS("ENFORCE_PRIME_TIME"))
		return prime_time_opt(p, opt, s, n);
	if (IS("PRIME_TIME_START"))
		return time_opt(p, opt, s, n, &cfg->prime_start);
	if (IS("PRIME_TIME_END"))
		return time_opt(p, opt, s, n, &cfg->prime_end);
	if (IS("PRIME_TIME_WALLT_LIMIT"))
		return time_opt(p, opt, s, n, &cfg->wallt_limit);
	if (IS("MAX_WAIT_TIME"))
		return time_opt(p, opt, s, n, &cfg->max_wait_time);
	if (IS("TARGET_LOAD_PCT"))
	{
		st = count_opt(p, opt, s, n, &v);
		cfg->target_load_pct = v;
		return st;
	}
	if (IS("SUSPEND_THRESHOLD"))
	{
		st = count_opt(p, opt, s, n, &v);
		cfg->suspend_threshold = v;
		return st;
	}
	if (IS("MAX_USER_RUN_JOBS"))
		return count_opt(p, opt, s, n, &cfg->max_user_run_jobs);
	if (IS("TARGET_LOAD_VARIANCE"))
		return variance_opt(p, opt, s, n);
	if (IS("FORCE_REQUEUE"))
		return bool_opt(p, opt, s, n, &cfg->force_requeue);
	if (IS("UPDATE_COMMENTS"))
		return bool_opt(p, opt, s, n, &cfg->update_comments);
	if (IS("SCHED_HOST"))
	{
		cfg->sched_host = add_str(cfg, s, n, true);
		return FS_OK;
	}
	if (IS("SCHED_RESTART_ACTION"))
		return restart_action_opt(p, opt, s, n);
	if (IS("SORTED_JOB_DUMPFILE"))
	{
		cfg->sorted_job_dumpfile = add_str(cfg, s, n, false);
		return FS_OK;
	}
	if (IS("SHARE_INFO_FILE"))
	{
		cfg->share_info_file = add_str(cfg, s, n, false);
		return FS_OK;
	}
	if (IS("FAIR_SHARE"))
		return add_fair_share(p, s, n);
#undef IS
	opt_fail(p->err, p->line, opt, "\"%s\" is not an option of the MSIC scheduler.", opt);
	fs_error_hint(p->err, "Option names are upper case, for example SUBMIT_QUEUE.");
	return FS_ERR_SYNTAX;
}

static bool
same_host(const fs_msic_config *cfg, size_t a, size_t b)
{
	if (a == FS_MSIC_NONE || b == FS_MSIC_NONE)
		return a == b;
	return strcmp(cfg->strs.data + a, cfg->strs.data + b) == 0;
}

static bool
same_queue(const fs_msic_config *cfg, const fs_msic_qent *a, const fs_msic_qent *b)
{
	return strcmp(cfg->strs.data + a->name, cfg->strs.data + b->name) == 0 &&
	       same_host(cfg, a->host, b->host);
}

static bool
batch_eq(const void *ctx, uint32_t entry, const void *key)
{
	const fs_msic_config *cfg = ctx;

	return same_queue(cfg, &cfg->batch[entry], key);
}

static uint64_t
queue_hash(const fs_msic_config *cfg, const fs_msic_qent *q)
{
	const char *name = cfg->strs.data + q->name;
	const char *host = fs_msic_str(cfg, q->host);
	uint64_t h = fs_hash(name, strlen(name));

	/* a bare name and name@"" differ: the host's hash, or a constant for none */
	return h * UINT64_C(0x9E3779B97F4A7C15) ^ (host ? fs_hash(host, strlen(host)) : 1);
}

/* Say which field of a composite value failed (a file's messages name the line instead). */
static fs_status
in_field(const fs_msic_config *cfg, fs_error *err, const char *field, size_t index)
{
	if (!cfg->from_value)
		return err->status;
	if (index > 0)
		fs_error_context(err, "in %s[%zu] of the configuration", field, index);
	else
		fs_error_context(err, "in %s of the configuration", field);
	return err->status;
}

/* A time option: what parse_time can read, 0 to MAX_HOURS:59:59 seconds. */
static fs_status
time_check(const char *opt, int64_t secs, int line, fs_error *err)
{
	char t[40], sh[48];

	if (secs >= 0 && secs <= MAX_HOURS * 3600 + 3599)
		return FS_OK;
	if (secs < 0)
	{
		t[0] = '-';
		fs_msic_format_hms(secs == INT64_MIN ? INT64_MAX : -secs, t + 1);
	}
	else
		fs_msic_format_hms(secs, t);
	opt_fail(err, line, opt, "\"%s\" is not a time value: %s.", shown(sh, sizeof(sh), t, strlen(t)),
	         "each field of a time must be a non-negative decimal number");
	fs_error_hint(err, "A time is SS, MM:SS or HH:MM:SS, for example 04:00:00.");
	return FS_ERR_SYNTAX;
}

/* A whole number option (TARGET_LOAD_PCT, SUSPEND_THRESHOLD, MAX_USER_RUN_JOBS): 0..INT_MAX. */
static fs_status
count_check(const char *opt, double v, int line, fs_error *err)
{
	char t[FS_DOUBLE_BUFLEN];

	if (v >= 0 && v <= INT_MAX && v == (double) (int64_t) v)
		return FS_OK;
	fs_format_double(v, t);
	return opt_fail(err, line, opt,
	                "\"%s\" is not a whole number from 0 to 2147483647 (a '%%' may follow).", t);
}

/* A TARGET_LOAD_VARIANCE part: what parse_variance reads, 0..INT_MAX. */
static fs_status
variance_check(double minus, double plus, int line, fs_error *err)
{
	char m[FS_DOUBLE_BUFLEN], p[FS_DOUBLE_BUFLEN], sh[80];

	if (minus >= 0 && minus <= INT_MAX && minus == (double) (int64_t) minus && plus >= 0 &&
	    plus <= INT_MAX && plus == (double) (int64_t) plus)
		return FS_OK;
	fs_format_double(minus, m);
	fs_format_double(plus, p);
	snprintf(sh, sizeof(sh), "-%s%%,+%s%%", m, p);
	opt_fail(err, line, "TARGET_LOAD_VARIANCE", "\"%s\" is not a variance: %s.", sh,
	         "each item must be a sign, digits and '%'");
	fs_error_hint(err, "The form is -mm%%,+nn%%, for example -15%%,+10%%.");
	return FS_ERR_SYNTAX;
}

/* SCHED_HOST, SHARE_INFO_FILE, SORTED_JOB_DUMPFILE and EXPRESS_QUEUE: one word of the file. */
static fs_status
word_check(const fs_msic_config *cfg, const char *opt, size_t off, int line, fs_error *err)
{
	const char *s = fs_msic_str(cfg, off);
	char sh[128];

	if (s == NULL || word_ok(s, strlen(s), ""))
		return FS_OK;
	return opt_fail(err, line, opt,
	                "\"%s\" is not one word: the argument cannot hold white space or control "
	                "characters.",
	                shown(sh, sizeof(sh), s, strlen(s)));
}

/* The fields one by one (a parsed file holds only values its parser accepts). */
static fs_status
fields_check(const fs_msic_config *cfg, fs_error *err)
{
	const char *express = cfg->strs.data + cfg->express_queue;
	size_t i, n = strlen(express);
	char sh[128];

	for (i = 0; i < cfg->n_submit; i++)
		if (queue_entry_check(cfg, &cfg->submit[i], "SUBMIT_QUEUE", 0, err) != FS_OK)
			return in_field(cfg, err, "submit_queue", 0);
	for (i = 0; i < cfg->n_batch; i++)
	{
		FS_POLL(i);
		if (queue_entry_check(cfg, &cfg->batch[i], "BATCH_QUEUES", 0, err) != FS_OK)
			return in_field(cfg, err, "batch_queues", i + 1);
	}
	if (n > FS_MSIC_EXPRESS_MAX)
	{
		opt_fail(err, 0, "EXPRESS_QUEUE",
		         "The queue name \"%s\" is longer than %d characters (the original overflows its "
		         "buffer).",
		         shown(sh, sizeof(sh), express, n), FS_MSIC_EXPRESS_MAX);
		return in_field(cfg, err, "express_queue", 0);
	}
	if (word_check(cfg, "EXPRESS_QUEUE", cfg->express_queue, 0, err) != FS_OK)
		return in_field(cfg, err, "express_queue", 0);
	if (time_check("PRIME_TIME_START", cfg->prime_start, 0, err) != FS_OK)
		return in_field(cfg, err, "prime_time_start", 0);
	if (time_check("PRIME_TIME_END", cfg->prime_end, 0, err) != FS_OK)
		return in_field(cfg, err, "prime_time_end", 0);
	if (time_check("PRIME_TIME_WALLT_LIMIT", cfg->wallt_limit, 0, err) != FS_OK)
		return in_field(cfg, err, "prime_time_wallt_limit", 0);
	if (time_check("MAX_WAIT_TIME", cfg->max_wait_time, 0, err) != FS_OK)
		return in_field(cfg, err, "max_wait_time", 0);
	if (count_check("TARGET_LOAD_PCT", cfg->target_load_pct, 0, err) != FS_OK)
		return in_field(cfg, err, "target_load_pct", 0);
	if (variance_check(cfg->target_load_minus, cfg->target_load_plus, 0, err) != FS_OK)
		return in_field(cfg, err, "target_load_minus and target_load_plus", 0);
	if (count_check("SUSPEND_THRESHOLD", cfg->suspend_threshold, 0, err) != FS_OK)
		return in_field(cfg, err, "suspend_threshold", 0);
	if (count_check("MAX_USER_RUN_JOBS", cfg->max_user_run_jobs, 0, err) != FS_OK)
		return in_field(cfg, err, "max_user_run_jobs", 0);
	if (restart_action_check(cfg->sched_restart_action, strlen(cfg->sched_restart_action), 0,
	                         err) != FS_OK)
		return in_field(cfg, err, "sched_restart_action", 0);
	if (word_check(cfg, "SCHED_HOST", cfg->sched_host, 0, err) != FS_OK)
		return in_field(cfg, err, "sched_host", 0);
	if (word_check(cfg, "SHARE_INFO_FILE", cfg->share_info_file, 0, err) != FS_OK)
		return in_field(cfg, err, "share_info_file", 0);
	if (word_check(cfg, "SORTED_JOB_DUMPFILE", cfg->sorted_job_dumpfile, 0, err) != FS_OK)
		return in_field(cfg, err, "sorted_job_dumpfile", 0);
	for (i = 0; i < cfg->n_fair; i++)
	{
		const fs_msic_fair *f = &cfg->fair[i];
		const char *q = cfg->strs.data + f->queue;

		FS_POLL(i);
		if (fair_entry_check(q, strlen(q), f->shares, f->max_run_pct, f->line, err) != FS_OK)
			return in_field(cfg, err, "fair_share", i + 1);
	}
	return FS_OK;
}

/* getconfig.c:validate_config and verify_fairshare, in the original's order. */
static fs_status
validate(const fs_msic_config *cfg, const fs_allocator *a, fs_error *err)
{
	fs_hindex bidx;
	fair_index fidx;
	size_t i;
	int total = 0;
	fs_status st = FS_OK;

	if (!cfg->from_value)
	{
		if (cfg->n_submit == 0)
			return fs_fail(err, FS_ERR_SYNTAX, "No SUBMIT_QUEUE specified.  Exiting.");
		if (cfg->n_submit > 1)
			return fs_fail(err, FS_ERR_SYNTAX, "Only one SUBMIT_QUEUE can be specified.  Exiting.");
		if (cfg->n_batch == 0)
			return fs_fail(err, FS_ERR_SYNTAX, "No BATCH_QUEUES specified.  Exiting.");
	}
	if (fields_check(cfg, err) != FS_OK)
		return err->status;
	fs_hindex_init(&bidx, cfg->n_batch, a);
	for (i = 0; i < cfg->n_batch && st == FS_OK; i++)
	{
		FS_POLL(i);
		if (fs_hindex_put(&bidx, queue_hash(cfg, &cfg->batch[i]), &cfg->batch[i], (uint32_t) i,
		                  batch_eq, cfg) != i)
		{
			st = fs_fail(err, FS_ERR_SYNTAX,
			             "Queues listed in BATCH_QUEUES cannot be repeated.  Exiting.");
			fs_error_detail(err, "Queue \"%s\" is listed twice with the same exec host.",
			                cfg->strs.data + cfg->batch[i].name);
			in_field(cfg, err, "batch_queues", i + 1);
		}
	}
	a->release(a->ctx, bidx.slots);
	if (st != FS_OK)
		return st;
	if (cfg->enforce_prime_time && (cfg->prime_start <= 0 || cfg->prime_end <= 0))
		return fs_fail(err, FS_ERR_SYNTAX,
		               "ENFORCE_PRIME_TIME set but PRIME_TIME_START/END is not specified.  "
		               "Exiting.");
	if (cfg->enforce_prime_time && cfg->wallt_limit <= 0)
		return fs_fail(err, FS_ERR_SYNTAX,
		               "ENFORCE_PRIME_TIME set but no PRIME_TIME_WALLT_LIMIT given.");
	for (i = 0; i < cfg->n_batch && cfg->n_submit > 0; i++)
		if (same_queue(cfg, &cfg->submit[0], &cfg->batch[i]))
			return fs_fail(err, FS_ERR_SYNTAX,
			               "SUBMIT_QUEUE %s cannot be listed in BATCH_QUEUES.  Exiting.",
			               cfg->strs.data + cfg->submit[0].name);
	/* a parsed file's entries were indexed as they were read; a built value's are here */
	memset(&fidx, 0, sizeof(fidx));
	fidx.cfg = cfg;
	for (i = 0; i < cfg->n_fair && st == FS_OK; i++)
		if (fair_index_add(&fidx, i, a, err) != FS_OK)
			st = in_field(cfg, err, "fair_share", i + 1);
	fair_index_free(&fidx, a);
	if (st != FS_OK)
		return st;
	if (cfg->n_fair > 0)
	{
		for (i = 0; i < cfg->n_fair; i++)
			total += cfg->fair[i].shares; /* at most 100 each, and entries are distinct */
		if (total < 100)
			return fs_fail(err, FS_ERR_SYNTAX, "FAIR_SHARE: total shares (%d) < 100 %%", total);
		if (total > 100)
			return fs_fail(err, FS_ERR_SYNTAX, "FAIR_SHARE: total shares (%d) > 100 %%", total);
	}
	return FS_OK;
}

fs_status
fs_msic_config_validate(const fs_msic_config *cfg, const fs_allocator *a, fs_error *err)
{
	fs_error_clear(err);
	if (validate(cfg, a, err) == FS_OK)
		return FS_OK;
	/* a built value is an invalid argument, not malformed text */
	if (cfg->from_value && err->status == FS_ERR_SYNTAX)
		err->status = FS_ERR_VALUE;
	return err->status;
}

void
fs_msic_config_init(fs_msic_config *cfg, const fs_allocator *a)
{
	memset(cfg, 0, sizeof(*cfg));
	fs_sb_init(&cfg->strs, a, 256);
	/* schedinit.c:reset_config */
	cfg->express_queue = add_str(cfg, "", 0, false);
	cfg->max_wait_time = 432000;
	cfg->target_load_pct = 90;
	cfg->target_load_minus = 15;
	cfg->target_load_plus = 10;
	cfg->max_user_run_jobs = 10;
	cfg->sched_restart_action = "NONE";
	cfg->suspend_threshold = 10;
	cfg->force_requeue = true;
	cfg->update_comments = true;
	cfg->sched_host = cfg->share_info_file = cfg->sorted_job_dumpfile = FS_MSIC_NONE;
	cfg->from_value = true;
}

size_t
fs_msic_config_add_str(fs_msic_config *cfg, const char *s, size_t n)
{
	return add_str(cfg, s, n, false);
}

void
fs_msic_config_add_queue(fs_msic_config *cfg, bool submit, size_t name, size_t host,
                         const fs_allocator *a)
{
	fs_msic_qent q;

	q.name = name;
	q.host = host;
	if (submit)
	{
		cfg->submit =
		    fs_grow(a, cfg->submit, cfg->n_submit, &cfg->cap_submit, sizeof(fs_msic_qent));
		cfg->submit[cfg->n_submit++] = q;
	}
	else
	{
		cfg->batch = fs_grow(a, cfg->batch, cfg->n_batch, &cfg->cap_batch, sizeof(fs_msic_qent));
		cfg->batch[cfg->n_batch++] = q;
	}
}

void
fs_msic_config_add_fair(fs_msic_config *cfg, size_t queue, int shares, int max_run_pct, int line,
                        const fs_allocator *a)
{
	cfg->fair = fs_grow(a, cfg->fair, cfg->n_fair, &cfg->cap_fair, sizeof(fs_msic_fair));
	cfg->fair[cfg->n_fair].queue = queue;
	cfg->fair[cfg->n_fair].shares = shares;
	cfg->fair[cfg->n_fair].max_run_pct = max_run_pct;
	cfg->fair[cfg->n_fair].line = line;
	cfg->n_fair++;
}

fs_status
fs_msic_config_parse(const char *text, size_t len, const char *local_host, fs_msic_config *cfg,
                     const fs_allocator *a, fs_error *err)
{
	parser p;
	size_t pos = 0;
	fs_status st = FS_OK;

	fs_error_clear(err);
	fs_msic_config_init(cfg, a);
	cfg->from_value = false;
	p.cfg = cfg;
	p.a = a;
	p.local_host = local_host;
	p.err = err;
	p.line = 0;
	memset(&p.fair_idx, 0, sizeof(p.fair_idx));
	p.fair_idx.cfg = cfg;
	while (pos < len && st == FS_OK)
	{
		size_t end = pos, cut, i, w0, w1, v0, v1;

		while (end < len && text[end] != '\n')
			end++;
		p.line++;
		FS_POLL((size_t) p.line);
		if (end - pos > FS_MSIC_LINE_MAX)
		{
			st = line_fail(err, p.line, "Line too long");
			fs_error_detail(err, "The line has %zu bytes; the original reads at most %d.",
			                end - pos, FS_MSIC_LINE_MAX);
			break;
		}
		cut = pos;
		while (cut < end && text[cut] != '#')
			cut++;
		for (i = pos; i < cut; i++)
			if (text[i] == '\0')
			{
				st = line_fail(err, p.line, "the line contains a NUL byte");
				break;
			}
		if (st != FS_OK)
			break;
		/* the option [w0, w1) and its argument [v0, v1): the first two words before a '#' */
		i = pos;
		while (i < cut && fs_is_space(text[i]))
			i++;
		w0 = i;
		while (i < cut && !fs_is_space(text[i]))
			i++;
		w1 = i;
		while (i < cut && fs_is_space(text[i]))
			i++;
		v0 = i;
		while (i < cut && !fs_is_space(text[i]))
			i++;
		v1 = i;
		pos = end + 1;
		if (w0 == w1)
			continue; /* blank, or only a comment */
		if (v0 == v1)
		{
			char sh[64];

			line_fail(err, p.line, "Error in config file");
			fs_error_detail(err, "Option %s has no argument.",
			                shown(sh, sizeof(sh), text + w0, w1 - w0 < 40 ? w1 - w0 : 40));
			fs_error_hint(err, "Each line is <option> <argument>.");
			st = FS_ERR_SYNTAX;
			break;
		}
		/* words after the argument are ignored, as sscanf("%s %s") does */
		st = set_option(&p, text + w0, w1 - w0, text + v0, v1 - v0);
	}
	fair_index_free(&p.fair_idx, a);
	if (st == FS_OK)
		st = validate(cfg, a, err);
	if (st != FS_OK)
		fs_msic_config_free(cfg, a);
	return st;
}

/* ---- formatting ---------------------------------------------------------------------------- */

void
fs_msic_format_hms(int64_t secs, char *buf)
{
	snprintf(buf, 32, "%02lld:%02d:%02d", (long long) (secs / 3600), (int) (secs / 60 % 60),
	         (int) (secs % 60));
}

static void
format_queues(fs_sb *sb, const fs_msic_config *cfg, const char *opt, const fs_msic_qent *q,
              size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
	{
		fs_sb_appendf(sb, "%s %s", opt, cfg->strs.data + q[i].name);
		if (q[i].host != FS_MSIC_NONE)
			fs_sb_appendf(sb, "@%s", cfg->strs.data + q[i].host);
		fs_sb_append(sb, "\n", 1);
	}
}

void
fs_msic_config_format(fs_sb *sb, const fs_msic_config *cfg)
{
	char t[32];
	size_t i;

	format_queues(sb, cfg, "SUBMIT_QUEUE", cfg->submit, cfg->n_submit);
	format_queues(sb, cfg, "BATCH_QUEUES", cfg->batch, cfg->n_batch);
	if (cfg->strs.data[cfg->express_queue])
		fs_sb_appendf(sb, "EXPRESS_QUEUE %s\n", cfg->strs.data + cfg->express_queue);
	if (cfg->has_prime_from)
		fs_sb_appendf(sb, "ENFORCE_PRIME_TIME %02d/%02d/%04d@%02d:%02d:%02d\n", cfg->prime_from.mon,
		              cfg->prime_from.mday, cfg->prime_from.year, cfg->prime_from.hour,
		              cfg->prime_from.min, cfg->prime_from.sec);
	else
		fs_sb_appendf(sb, "ENFORCE_PRIME_TIME %s\n", cfg->enforce_prime_time ? "True" : "False");
	fs_msic_format_hms(cfg->prime_start, t);
	fs_sb_appendf(sb, "PRIME_TIME_START %s\n", t);
	fs_msic_format_hms(cfg->prime_end, t);
	fs_sb_appendf(sb, "PRIME_TIME_END %s\n", t);
	fs_msic_format_hms(cfg->wallt_limit, t);
	fs_sb_appendf(sb, "PRIME_TIME_WALLT_LIMIT %s\n", t);
	fs_msic_format_hms(cfg->max_wait_time, t);
	fs_sb_appendf(sb, "MAX_WAIT_TIME %s\n", t);
	fs_sb_appendf(sb, "TARGET_LOAD_PCT %d%%\n", (int) cfg->target_load_pct);
	fs_sb_appendf(sb, "TARGET_LOAD_VARIANCE -%d%%,+%d%%\n", (int) cfg->target_load_minus,
	              (int) cfg->target_load_plus);
	fs_sb_appendf(sb, "SUSPEND_THRESHOLD %d\n", (int) cfg->suspend_threshold);
	fs_sb_appendf(sb, "MAX_USER_RUN_JOBS %d\n", cfg->max_user_run_jobs);
	fs_sb_appendf(sb, "FORCE_REQUEUE %s\n", cfg->force_requeue ? "True" : "False");
	fs_sb_appendf(sb, "UPDATE_COMMENTS %s\n", cfg->update_comments ? "True" : "False");
	fs_sb_appendf(sb, "SCHED_RESTART_ACTION %s\n", cfg->sched_restart_action);
	if (cfg->sched_host != FS_MSIC_NONE)
		fs_sb_appendf(sb, "SCHED_HOST %s\n", cfg->strs.data + cfg->sched_host);
	if (cfg->share_info_file != FS_MSIC_NONE)
		fs_sb_appendf(sb, "SHARE_INFO_FILE %s\n", cfg->strs.data + cfg->share_info_file);
	if (cfg->sorted_job_dumpfile != FS_MSIC_NONE)
		fs_sb_appendf(sb, "SORTED_JOB_DUMPFILE %s\n", cfg->strs.data + cfg->sorted_job_dumpfile);
	for (i = 0; i < cfg->n_fair; i++)
		fs_sb_appendf(sb, "FAIR_SHARE QUEUE:%s:%d:%d\n", cfg->strs.data + cfg->fair[i].queue,
		              cfg->fair[i].shares, cfg->fair[i].max_run_pct);
}

/* ---- holidays ------------------------------------------------------------------------------ */

static int
cmp_int(const void *a, const void *b, void *ctx)
{
	int x = *(const int *) a, y = *(const int *) b;

	(void) ctx;
	return (x > y) - (x < y);
}

fs_status
fs_msic_holidays_parse(const char *text, size_t len, int **days, size_t *n, const fs_allocator *a,
                       fs_error *err)
{
	size_t pos = 0, cap = 0, cnt = 0, i, out;
	int *d = NULL;
	int line = 0;

	fs_error_clear(err);
	*days = NULL;
	*n = 0;
	while (pos < len)
	{
		size_t end = pos, cut, w0, w1;
		int64_t v;
		char sh[128];

		while (end < len && text[end] != '\n')
			end++;
		line++;
		FS_POLL((size_t) line);
		cut = pos;
		while (cut < end && text[cut] != '*')
			cut++;
		w0 = pos;
		while (w0 < cut && fs_is_space(text[w0]))
			w0++;
		w1 = w0;
		while (w1 < cut && !fs_is_space(text[w1]))
			w1++;
		pos = end + 1;
		if (w0 == w1 || (w1 - w0 >= 4 && memcmp(text + w0, "YEAR", 4) == 0))
			continue;
		if (!parse_uint(text + w0, w1 - w0, 366, &v) || text[w0] == '+')
		{
			fs_fail(err, FS_ERR_SYNTAX, "holidays line %d: Syntax error", line);
			fs_error_detail(err, "\"%s\" is not a day of the year from 0 to 366.",
			                shown(sh, sizeof(sh), text + w0, w1 - w0));
			fs_error_hint(err, "Each line starts with a day number (1 = 1 January), a YEAR "
			                   "line or a * comment.");
			if (d)
				a->release(a->ctx, d);
			return FS_ERR_SYNTAX;
		}
		if (v == 0)
			continue; /* the SGI "any year" convention */
		d = fs_grow(a, d, cnt, &cap, sizeof(int));
		d[cnt++] = (int) v;
	}
	if (cnt == 0)
	{
		if (d)
			a->release(a->ctx, d);
		return FS_OK;
	}
	fs_sort(d, cnt, sizeof(int), cmp_int, NULL, a);
	for (i = 1, out = 1; i < cnt; i++)
		if (d[i] != d[out - 1])
			d[out++] = d[i];
	*days = d;
	*n = out;
	return FS_OK;
}
