/*
 * msic_share.c: the MSIC scheduler's queue share accounting (fair_access.c, runjob.c and
 * usersort.c of the original): charge, rollover, rank, the SHARE_INFO_FILE text and the per-day
 * accumulator whose states combine exactly.
 */
#include "msic/msic_share.h"

#include "types/decay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define US_PER_MINUTE INT64_C(60000000)

static const char *const weekdays[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

static const char header1[] = "# Day-of-Week";
static const char header2[] = "# queue ndays past% today_usage today_max";

static bool
amount_ok(double v)
{
	/* -0 is refused too: the file would show "-0.000", which does not read back */
	return isfinite(v) && v >= 0 && !signbit(v);
}

fs_status
fs_msic_share_check(const fs_msic_share *s, const char *what, fs_error *err)
{
	if (s->ndays < 0)
		fs_fail(err, FS_ERR_VALUE, "%s has a negative ndays (%d)", what, (int) s->ndays);
	else if (!amount_ok(s->past_pct))
		fs_fail(err, FS_ERR_VALUE, "%s has an invalid past_pct (%g)", what, s->past_pct);
	else if (!amount_ok(s->today_usage))
		fs_fail(err, FS_ERR_VALUE, "%s has an invalid today_usage (%g)", what, s->today_usage);
	else if (!amount_ok(s->today_max))
		fs_fail(err, FS_ERR_VALUE, "%s has an invalid today_max (%g)", what, s->today_max);
	else
		return FS_OK;
	fs_error_detail(err, "Days and amounts of a queue's share state are finite and not negative.");
	return FS_ERR_VALUE;
}

double
fs_msic_today_pct(const fs_msic_share *s)
{
	if (s->today_max < 1)
		return 0.0;
	return s->today_usage / s->today_max * 100.0;
}

double
fs_msic_past_pct(const fs_msic_share *s)
{
	return (s->past_pct * s->ndays + fs_msic_today_pct(s)) / ((double) s->ndays + 1);
}

fs_status
fs_msic_past_pct_checked(const fs_msic_share *s, double *past, fs_error *err)
{
	*past = fs_msic_past_pct(s);
	if (!isfinite(*past))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: the past percentage overflows");
		return FS_ERR_RANGE;
	}
	return FS_OK;
}

static fs_status
value_error(fs_error *err, const char *what, long long v, const char *rule)
{
	fs_fail(err, FS_ERR_VALUE, "%s must be %s, not %lld", what, rule, v);
	return FS_ERR_VALUE;
}

fs_status
fs_msic_charge(fs_msic_share *s, int64_t ncpus, int64_t walltime_us, int64_t minutes_since_midnight,
               int64_t cluster_cpus, fs_error *err)
{
	double usage;

	if (ncpus < 0)
		return value_error(err, "ncpus", (long long) ncpus, "zero or positive");
	if (walltime_us < 0)
	{
		fs_fail(err, FS_ERR_VALUE, "walltime must not be negative");
		return FS_ERR_VALUE;
	}
	if (cluster_cpus <= 0)
		return value_error(err, "cluster_cpus", (long long) cluster_cpus, "positive");
	if (minutes_since_midnight < 0)
		return value_error(err, "minutes since midnight", (long long) minutes_since_midnight,
		                   "zero or positive");
	/* CPU-minutes of requested walltime, whole minutes only (wallt = walltime / 60) */
	usage = (double) ncpus * (double) (walltime_us / US_PER_MINUTE);
	if (!isfinite(s->today_usage + usage))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: today_usage overflows");
		return FS_ERR_RANGE;
	}
	s->today_usage += usage;
	s->today_max = (double) cluster_cpus * (double) minutes_since_midnight;
	return FS_OK;
}

fs_status
fs_msic_rollover(fs_msic_share *s, fs_error *err)
{
	if (s->past_pct < 1)
	{
		double today = fs_msic_today_pct(s);

		if (!isfinite(today))
		{
			fs_fail(err, FS_ERR_RANGE, "value out of range: today's percentage overflows");
			return FS_ERR_RANGE;
		}
		s->past_pct = today;
		s->ndays = 1;
	}
	else
	{
		double past;

		if (s->ndays == INT32_MAX)
		{
			fs_fail(err, FS_ERR_RANGE, "value out of range: ndays passes %d", INT32_MAX);
			return FS_ERR_RANGE;
		}
		if (fs_msic_past_pct_checked(s, &past, err) != FS_OK)
			return err->status;
		s->past_pct = past;
		s->ndays++;
	}
	s->today_usage = 0.0;
	s->today_max = 0.0;
	return FS_OK;
}

int
fs_msic_rank_mode_from_name(const char *name)
{
	if (strcmp(name, "share") == 0)
		return FS_MSIC_RANK_SHARE;
	if (strcmp(name, "usage") == 0)
		return FS_MSIC_RANK_USAGE;
	return -1;
}

fs_status
fs_msic_rank(const fs_msic_share *s, int64_t shares, fs_msic_rank_mode mode, double *rank,
             fs_error *err)
{
	double past;

	if (shares < 0 || shares > 100)
	{
		fs_fail(err, FS_ERR_VALUE, "shares must be between 0 and 100, not %lld",
		        (long long) shares);
		fs_error_hint(err, "Give the queue's FAIR_SHARE share percentage.");
		return FS_ERR_VALUE;
	}
	if (fs_msic_past_pct_checked(s, &past, err) != FS_OK)
		return err->status;
	*rank = fs_msic_rank_value(past, (double) shares, mode);
	return FS_OK;
}

double
fs_msic_rank_value(double past_pct, double share_pct, fs_msic_rank_mode mode)
{
	if (mode == FS_MSIC_RANK_USAGE)
		return trunc(past_pct);
	/* a share of 0: any use at all is over it */
	if (share_pct > 0)
		return past_pct / share_pct;
	return past_pct > 0 ? INFINITY : 0.0;
}

bool
fs_msic_over_share(double rank, fs_msic_rank_mode mode)
{
	return rank > (mode == FS_MSIC_RANK_USAGE ? 100.0 : 1.0);
}

/* ---------------------------------------------------------------- SHARE_INFO_FILE */

const char *
fs_msic_weekday_name(int weekday)
{
	return weekday >= 0 && weekday < 7 ? weekdays[weekday] : "???";
}

fs_status
fs_msic_check_queue_name(const char *name, size_t len, fs_error *err)
{
	size_t i;

	if (len == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "a queue name must not be empty");
		return FS_ERR_VALUE;
	}
	for (i = 0; i < len; i++)
		if ((unsigned char) name[i] <= ' ' || name[i] == 0x7f)
		{
			char shown[80];

			fs_quote_excerpt(shown, sizeof(shown), name, len, 60);
			fs_fail(err, FS_ERR_VALUE, "invalid queue name \"%s\"", shown);
			fs_error_detail(err, "A queue name in the share info file cannot hold spaces or "
			                     "control characters.");
			return FS_ERR_VALUE;
		}
	return FS_OK;
}

/* A syntax error on line `line` of the file; `what` is the problem as a sentence. */
static fs_status
line_error(fs_error *err, size_t line, const char *s, size_t len, const char *what)
{
	char shown[120];

	fs_quote_excerpt(shown, sizeof(shown), s, len, 100);
	fs_fail(err, FS_ERR_SYNTAX, "invalid share info file: line %zu: \"%s\"", line, shown);
	fs_error_detail(err, "%s", what);
	fs_error_hint(err, "The file is \"# Day-of-Week\", \"# queue ndays past%% today_usage "
	                   "today_max\", a weekday (Sun to Sat), then one line per queue: name, "
	                   "days, past percentage, today's usage and today's maximum.");
	return FS_ERR_SYNTAX;
}

/* Split s[0..len) on runs of spaces into at most max words; returns the count (max + 1 if more). */
static size_t
split_words(const char *s, size_t len, const char **w, size_t *wl, size_t max)
{
	size_t i = 0, n = 0;

	for (;;)
	{
		size_t start;

		while (i < len && s[i] == ' ')
			i++;
		if (i >= len)
			return n;
		if (n == max)
			return max + 1;
		start = i;
		while (i < len && s[i] != ' ')
			i++;
		w[n] = s + start;
		wl[n] = i - start;
		n++;
	}
}

/* A whole word as a decimal amount, finite and >= 0. */
static bool
word_amount(const char *w, size_t wl, double *v)
{
	size_t used = fs_scan_number(w, wl, v);

	return used == wl && amount_ok(*v) && w[0] != '-';
}

static bool
word_int(const char *w, size_t wl, int32_t *v)
{
	int64_t x = 0;
	size_t i = 0;

	if (wl > 0 && w[0] == '+')
		i++;
	if (i >= wl)
		return false;
	for (; i < wl; i++)
	{
		if (w[i] < '0' || w[i] > '9')
			return false;
		x = x * 10 + (w[i] - '0');
		if (x > INT32_MAX)
			return false;
	}
	*v = (int32_t) x;
	return true;
}

/* The queues of entries, indexed by name: ctx is the entry array, keys are fs_str. */
static bool
entry_eq(const void *ctx, uint32_t entry, const void *key)
{
	const fs_msic_share_entry *e = ctx;
	const fs_str *k = key;

	return fs_span_eq(k->s, k->len, e[entry].queue);
}

/* The reader; idx indexes the queues read so far (the caller releases it). */
static fs_status
share_file_parse(const char *text, size_t len, const fs_allocator *a, fs_msic_share_file *out,
                 fs_hindex *idxp, fs_error *err)
{
	size_t pos = 0, line = 0, cap = 0;
	bool have_stamp = false;
	static const char *const field[5] = {"queue", "ndays", "past%", "today_usage", "today_max"};

	out->weekday = -1;
	out->n = 0;
	out->entries = NULL;
	while (pos < len)
	{
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t) (nl - s) : len - pos;
		const char *w[6];
		size_t wl[6], nw, i;
		fs_msic_share_entry *e;
		char msg[160];
		fs_str key;
		uint64_t hash;

		FS_POLL(line);
		pos += l + (nl ? 1 : 0);
		line++;
		if (l > 0 && s[l - 1] == '\r')
			l--;
		if (line <= 2)
		{
			/* the original skips both header lines blind; a file without them is not this file */
			if (l == 0 || s[0] != '#')
				return line_error(err, line, s, l,
				                  "The first two lines of the file are comments starting with "
				                  "\"#\".");
			continue;
		}
		nw = split_words(s, l, w, wl, 5);
		if (nw == 0)
			continue; /* a blank line */
		if (!have_stamp)
		{
			if (nw != 1)
				return line_error(err, line, s, l,
				                  "Line 3 holds only the day-of-week stamp, such as \"Mon\".");
			for (i = 0; i < 7; i++)
				if (fs_span_eq(w[0], wl[0], weekdays[i]))
					out->weekday = (int) i;
			if (out->weekday < 0)
				return line_error(err, line, s, l,
				                  "The day-of-week stamp is one of Sun, Mon, Tue, Wed, Thu, "
				                  "Fri, Sat.");
			have_stamp = true;
			continue;
		}
		if (nw != 5)
		{
			snprintf(msg, sizeof(msg),
			         "%s: a queue line has 5 fields (queue ndays past%% "
			         "today_usage today_max).",
			         nw > 5 ? "Too many fields" : "Missing fields");
			if (nw < 5)
				snprintf(msg, sizeof(msg),
				         "The field \"%s\" is missing: a queue line has 5 fields (queue ndays "
				         "past%% today_usage today_max).",
				         field[nw]);
			return line_error(err, line, s, l, msg);
		}
		if (fs_msic_check_queue_name(w[0], wl[0], err) != FS_OK)
			return line_error(err, line, s, l, "The queue name holds a control character.");
		key.s = w[0];
		key.len = wl[0];
		hash = fs_hash(w[0], wl[0]);
		if (idxp->slots && fs_hindex_get(idxp, hash, &key, entry_eq, out->entries) != UINT32_MAX)
			return line_error(err, line, s, l,
			                  "The queue appears on an earlier line: each queue has one "
			                  "line.");
		if (out->n == cap)
		{
			size_t ncap = cap ? cap * 2 : 8;
			fs_msic_share_entry *ne = a->alloc(a->ctx, ncap * sizeof(*ne));

			if (out->n)
				memcpy(ne, out->entries, out->n * sizeof(*ne));
			if (out->entries)
				a->release(a->ctx, out->entries);
			out->entries = ne;
			cap = ncap;
			/* the index is rebuilt for cap names, so it stays at most half full */
			if (idxp->slots)
				a->release(a->ctx, idxp->slots);
			fs_hindex_init(idxp, cap, a);
			for (i = 0; i < out->n; i++)
			{
				fs_str k = {out->entries[i].queue, strlen(out->entries[i].queue)};

				FS_POLL(i);
				fs_hindex_put(idxp, fs_hash(k.s, k.len), &k, (uint32_t) i, entry_eq, out->entries);
			}
		}
		e = &out->entries[out->n];
		if (!word_int(w[1], wl[1], &e->s.ndays))
			return line_error(err, line, s, l,
			                  "The field \"ndays\" is a whole number from 0 to 2147483647.");
		if (!word_amount(w[2], wl[2], &e->s.past_pct))
			return line_error(err, line, s, l,
			                  "The field \"past%\" is a decimal number, not negative.");
		if (!word_amount(w[3], wl[3], &e->s.today_usage))
			return line_error(err, line, s, l,
			                  "The field \"today_usage\" is a decimal number, not negative.");
		if (!word_amount(w[4], wl[4], &e->s.today_max))
			return line_error(err, line, s, l,
			                  "The field \"today_max\" is a decimal number, not negative.");
		e->queue = a->alloc(a->ctx, wl[0] + 1);
		memcpy(e->queue, w[0], wl[0]);
		e->queue[wl[0]] = '\0';
		fs_hindex_put(idxp, hash, &key, (uint32_t) out->n, entry_eq, out->entries);
		out->n++;
	}
	if (!have_stamp)
	{
		fs_fail(err, FS_ERR_SYNTAX, "invalid share info file: no day-of-week stamp");
		fs_error_detail(err,
		                "The file ends after %zu %s; line 3 holds the day-of-week "
		                "stamp, such as \"Mon\".",
		                line, fs_plural(line, "line", "lines"));
		fs_error_hint(err, "An empty file is written as \"# Day-of-Week\\n# queue ndays past%% "
		                   "today_usage today_max\\nMon\\n\".");
		return FS_ERR_SYNTAX;
	}
	return FS_OK;
}

fs_status
fs_msic_share_file_parse(const char *text, size_t len, const fs_allocator *a,
                         fs_msic_share_file *out, fs_error *err)
{
	fs_hindex idx = {NULL, 0};
	fs_status st = share_file_parse(text, len, a, out, &idx, err);

	if (idx.slots)
		a->release(a->ctx, idx.slots);
	return st;
}

void
fs_msic_share_file_free(fs_msic_share_file *f, const fs_allocator *a)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		a->release(a->ctx, f->entries[i].queue);
	if (f->entries)
		a->release(a->ctx, f->entries);
	f->entries = NULL;
	f->n = 0;
}

fs_status
fs_msic_share_file_format(fs_sb *sb, int weekday, const fs_msic_share_entry *e, size_t n,
                          fs_error *err)
{
	size_t i;
	fs_hindex idx;
	fs_status st = FS_OK;

	if (weekday < 0 || weekday > 6)
	{
		fs_fail(err, FS_ERR_VALUE, "invalid weekday %d", weekday);
		return FS_ERR_VALUE;
	}
	fs_hindex_init(&idx, n, sb->a);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		char what[96];
		fs_str key = {e[i].queue, strlen(e[i].queue)};

		FS_POLL(i);
		if ((st = fs_msic_check_queue_name(key.s, key.len, err)) != FS_OK)
			break;
		snprintf(what, sizeof(what), "the share of queue \"%.60s\"", e[i].queue);
		if ((st = fs_msic_share_check(&e[i].s, what, err)) != FS_OK)
			break;
		if (fs_hindex_put(&idx, fs_hash(key.s, key.len), &key, (uint32_t) i, entry_eq, e) != i)
		{
			st = fs_fail(err, FS_ERR_VALUE, "queue \"%.60s\" appears twice", e[i].queue);
			fs_error_detail(err, "The share info file holds one line per queue.");
		}
	}
	sb->a->release(sb->a->ctx, idx.slots);
	if (st != FS_OK)
		return st;
	fs_sb_appendf(sb, "%s\n%s\n%s\n", header1, header2, weekdays[weekday]);
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		fs_sb_appendf(sb, "%-10s %5d %3.3f %10.3f %10.3f\n", e[i].queue, (int) e[i].s.ndays,
		              e[i].s.past_pct, e[i].s.today_usage, e[i].s.today_max);
	}
	return FS_OK;
}

/* ---------------------------------------------------------------- the accumulator */

size_t
fs_msic_day_find(const fs_msic_day *days, size_t n, int32_t day, bool *found)
{
	size_t lo = 0, hi = n;

	/* starts usually come in time order: try the end first */
	if (n > 0 && days[n - 1].day < day)
	{
		*found = false;
		return n;
	}
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;

		if (days[mid].day < day)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && days[lo].day == day;
	return lo;
}

void
fs_msic_day_add(fs_msic_day *d, double usage, int64_t at, double max)
{
	d->usage += usage;
	if (at > d->last_at || (at == d->last_at && max > d->last_max))
	{
		d->last_at = at;
		d->last_max = max;
	}
}

size_t
fs_msic_days_merge(const fs_msic_day *a, size_t a_n, const fs_msic_day *b, size_t b_n,
                   fs_msic_day *out)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a_n || j < b_n)
	{
		FS_POLL(n);
		if (j >= b_n || (i < a_n && a[i].day < b[j].day))
			out[n++] = a[i++];
		else if (i >= a_n || b[j].day < a[i].day)
			out[n++] = b[j++];
		else
		{
			out[n] = a[i++];
			fs_msic_day_add(&out[n], b[j].usage, b[j].last_at, b[j].last_max);
			n++;
			j++;
		}
	}
	return n;
}

/* Roll over `count` days in a row; a history at its fixed point (1 day at 0 %) stays there. */
static fs_status
rollover_days(fs_msic_share *s, int64_t count, fs_error *err)
{
	int64_t k;

	for (k = 0; k < count; k++)
	{
		FS_POLL((uint64_t) k);
		if (s->today_usage == 0 && s->today_max == 0 && s->past_pct == 0 && s->ndays == 1)
			return FS_OK;
		if (fs_msic_rollover(s, err) != FS_OK)
			return err->status;
	}
	return FS_OK;
}

/*
 * Days first..last without starts: each is visited, then rolled over unless it is as_of_day.
 * Without a visitor the rollovers alone are done (rollover_days stops at the fixed point).
 */
static fs_status
empty_days(fs_msic_share *s, int32_t first, int32_t last, int32_t as_of_day,
           fs_msic_day_visit visit, void *ctx, fs_error *err)
{
	int32_t day;

	if (visit == NULL)
		return rollover_days(s, (int64_t) (last < as_of_day ? last : as_of_day - 1) - first + 1,
		                     err);
	for (day = first; day <= last; day++)
	{
		FS_POLL((uint32_t) (day - first));
		visit(day, s, ctx);
		if (day < as_of_day && fs_msic_rollover(s, err) != FS_OK)
			return err->status;
	}
	return FS_OK;
}

fs_status
fs_msic_acc_history(const fs_msic_acc *acc, fs_msic_day_visit visit, void *ctx, fs_msic_share *out,
                    fs_error *err)
{
	size_t i;
	int32_t last = 0;

	out->ndays = 0;
	out->past_pct = 0;
	out->today_usage = 0;
	out->today_max = 0;
	for (i = 0; i < acc->n; i++)
	{
		const fs_msic_day *d = &acc->days[i];

		if (d->day > acc->as_of_day)
			break; /* cannot happen for starts before as_of; kept out all the same */
		/* the empty days between the previous day and this one */
		if (i > 0 &&
		    empty_days(out, last + 1, d->day - 1, acc->as_of_day, visit, ctx, err) != FS_OK)
			return err->status;
		if (!isfinite(out->today_usage + d->usage))
		{
			fs_fail(err, FS_ERR_RANGE, "value out of range: today_usage overflows");
			return FS_ERR_RANGE;
		}
		out->today_usage += d->usage;
		out->today_max = d->last_max;
		if (visit)
			visit(d->day, out, ctx);
		if (d->day < acc->as_of_day && fs_msic_rollover(out, err) != FS_OK)
			return err->status;
		last = d->day;
	}
	if (i > 0 && last < acc->as_of_day)
		return empty_days(out, last + 1, acc->as_of_day, acc->as_of_day, visit, ctx, err);
	return FS_OK;
}

fs_status
fs_msic_acc_final(const fs_msic_acc *acc, fs_msic_share *out, fs_error *err)
{
	return fs_msic_acc_history(acc, NULL, NULL, out, err);
}

void
fs_msic_acc_format(fs_sb *sb, const fs_msic_acc *acc)
{
	size_t i;

	fs_sb_append(sb, acc->queue, acc->queue_len);
	fs_sb_append(sb, " ", 1);
	fs_format_utc(sb, acc->as_of);
	fs_sb_appendf(sb, " %ld", (long) acc->as_of_day);
	for (i = 0; i < acc->n; i++)
	{
		FS_POLL(i);
		fs_sb_appendf(sb, ";%ld ", (long) acc->days[i].day);
		fs_sb_append_double(sb, acc->days[i].usage);
		fs_sb_append(sb, " ", 1);
		fs_format_utc(sb, acc->days[i].last_at);
		fs_sb_append(sb, " ", 1);
		fs_sb_append_double(sb, acc->days[i].last_max);
	}
}

/*
 * The share days a valid instant can fall in: its UTC day, moved by the session time zone (a
 * POSIX zone string may be up to 167 hours, so less than 7 days, from UTC), and one day more
 * for a start after 23:00. The aggregate builds no day outside; text beyond is refused.
 */
#define US_PER_DAY  (INT64_C(86400) * INT64_C(1000000))
#define TZ_DAYS_MAX 7
#define DAY_MIN     ((int32_t) (FS_MIN_INSTANT / US_PER_DAY - TZ_DAYS_MAX))
#define DAY_MAX     ((int32_t) ((FS_END_INSTANT - 1) / US_PER_DAY + TZ_DAYS_MAX + 1))

fs_status
fs_msic_acc_check(const fs_msic_acc *acc, fs_error *err)
{
	size_t i;

	if (fs_msic_check_queue_name(acc->queue, acc->queue_len, err) != FS_OK)
		return err->status;
	if (!FS_INSTANT_VALID(acc->as_of))
	{
		fs_fail(err, FS_ERR_VALUE,
		        "the as_of instant is out of range: timestamps run from "
		        "-4713-11-24T00:00:00Z to 294276-12-31T23:59:59.999999Z");
		return FS_ERR_VALUE;
	}
	if (acc->as_of_day < DAY_MIN || acc->as_of_day > DAY_MAX)
	{
		fs_fail(err, FS_ERR_VALUE,
		        "the as_of day %ld is out of range: local days of timestamps run from %ld to %ld",
		        (long) acc->as_of_day, (long) DAY_MIN, (long) DAY_MAX);
		return FS_ERR_VALUE;
	}
	for (i = 0; i < acc->n; i++)
	{
		const fs_msic_day *d = &acc->days[i];

		if ((i > 0 && d->day <= acc->days[i - 1].day) || d->day > acc->as_of_day ||
		    d->day < DAY_MIN || d->pad != 0 || !amount_ok(d->usage) || !amount_ok(d->last_max) ||
		    !FS_INSTANT_VALID(d->last_at) || d->last_at > acc->as_of)
		{
			fs_fail(err, FS_ERR_VALUE, "day %zu of the queue state is invalid", i + 1);
			fs_error_detail(err, "Days are in increasing order, not after the as_of day, with "
			                     "finite amounts that are not negative and starts not after "
			                     "as_of.");
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

static fs_status
acc_syntax(const char *text, size_t len, size_t at, const char *problem, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for type msic_queue_acc", text, len, at, problem,
	                      "Write queue as_of_utc as_of_day, then ;day usage last_start_utc "
	                      "last_max per day, for example \"hi 2026-03-02T12:00:00Z 9557;9555 480 "
	                      "2026-02-28T10:00:00Z 19200\".");
}

/* A decimal int32 at text[*i], optionally negative. */
static bool
scan_day(const char *text, size_t len, size_t *i, int32_t *v)
{
	int64_t x = 0;
	size_t j = *i, nd = 0;
	bool neg = false;

	if (j < len && text[j] == '-')
	{
		neg = true;
		j++;
	}
	for (; j < len && text[j] >= '0' && text[j] <= '9'; j++, nd++)
	{
		if (nd >= 10)
			return false;
		x = x * 10 + (text[j] - '0');
	}
	if (nd == 0 || x > INT32_MAX)
		return false;
	*v = (int32_t) (neg ? -x : x);
	*i = j;
	return true;
}

static bool
scan_space(const char *text, size_t len, size_t *i)
{
	if (*i < len && text[*i] == ' ')
	{
		(*i)++;
		return true;
	}
	return false;
}

fs_status
fs_msic_acc_parse(const char *text, size_t len, const fs_allocator *a, fs_msic_acc *out,
                  fs_error *err)
{
	size_t i = 0, n = 0, cap = 0, used;
	char *queue;

	out->queue = NULL;
	out->queue_len = 0;
	out->days = NULL;
	out->n = 0;
	while (i < len && text[i] != ' ')
		i++;
	if (fs_msic_check_queue_name(text, i, err) != FS_OK)
		return acc_syntax(text, len, 0, "Expected a queue name without spaces", err);
	queue = a->alloc(a->ctx, i + 1);
	memcpy(queue, text, i);
	queue[i] = '\0';
	out->queue = queue;
	out->queue_len = i;
	if (!scan_space(text, len, &i) || (used = fs_parse_utc(text + i, len - i, &out->as_of)) == 0)
		return acc_syntax(text, len, i, "Expected \" \" and the as_of instant", err);
	i += used;
	if (!scan_space(text, len, &i) || !scan_day(text, len, &i, &out->as_of_day))
		return acc_syntax(text, len, i, "Expected \" \" and the as_of day number", err);
	for (; i < len; n++)
	{
		fs_msic_day d;

		FS_POLL(n);
		memset(&d, 0, sizeof(d));
		if (text[i] != ';')
			return acc_syntax(text, len, i, "Expected \";\" before a day", err);
		i++;
		if (!scan_day(text, len, &i, &d.day))
			return acc_syntax(text, len, i, "Expected a day number", err);
		if (!scan_space(text, len, &i) || (used = fs_scan_number(text + i, len - i, &d.usage)) == 0)
			return acc_syntax(text, len, i, "Expected \" \" and the day's usage", err);
		i += used;
		d.usage += 0.0; /* -0 reads as 0, so that equal states have equal bytes */
		if (!scan_space(text, len, &i) || (used = fs_parse_utc(text + i, len - i, &d.last_at)) == 0)
			return acc_syntax(text, len, i, "Expected \" \" and the day's last start", err);
		i += used;
		if (!scan_space(text, len, &i) ||
		    (used = fs_scan_number(text + i, len - i, &d.last_max)) == 0)
			return acc_syntax(text, len, i, "Expected \" \" and the day's today_max", err);
		i += used;
		d.last_max += 0.0;
		if (n == cap)
		{
			size_t ncap = cap ? cap * 2 : 8;
			fs_msic_day *nd = a->alloc(a->ctx, ncap * sizeof(*nd));

			if (n)
				memcpy(nd, out->days, n * sizeof(*nd));
			if (out->days)
				a->release(a->ctx, out->days);
			out->days = nd;
			cap = ncap;
		}
		out->days[n] = d;
		out->n = n + 1;
	}
	if (fs_msic_acc_check(out, err) != FS_OK)
	{
		char problem[FS_MSG_LEN + 8];

		snprintf(problem, sizeof(problem), "%s", err->message);
		problem[0] = fs_ascii_upper(problem[0]);
		return acc_syntax(text, len, FS_NO_POSITION, problem, err);
	}
	return FS_OK;
}
