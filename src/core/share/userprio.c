/*
 * userprio.c: HTCondor's real user priority as a composable map (see userprio.h), with the
 * accumulated usage condor_userprio reports and a text form that round-trips exactly; the
 * report, and the pie spin of a negotiation cycle.
 */
#include "share/userprio.h"

#include "types/decay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static fs_status
check_sample(double in_use, int64_t at, int64_t half_life, fs_error *err)
{
	if (!isfinite(in_use) || in_use < 0)
	{
		fs_fail(err, isfinite(in_use) ? FS_ERR_VALUE : FS_ERR_RANGE,
		        "weighted_in_use must be a finite number of 0 or more, not %g", in_use);
		return err->status;
	}
	if (!FS_INSTANT_VALID(at))
		return fs_fail(err, FS_ERR_RANGE, "the instant of a userprio sample is out of range");
	return fs_check_positive_duration(half_life, "half_life", err);
}

static fs_status
overflow(fs_error *err)
{
	fs_fail(err, FS_ERR_RANGE, "value out of range: the userprio state overflows");
	fs_error_detail(err, "The priority after these samples exceeds the largest float8.");
	return FS_ERR_RANGE;
}

fs_status
fs_userprio_start(fs_userprio *s, double in_use, int64_t at, int64_t half_life, fs_error *err)
{
	fs_status st = check_sample(in_use, at, half_life, err);

	if (st != FS_OK)
		return st;
	s->m = 0; /* the identity: priorities are never below 0.5 */
	s->a = 1;
	s->g = 0;
	s->first_usage = in_use == 0 ? 0 : in_use;
	s->first_at = s->last_at = at;
	s->half_life = half_life;
	s->usage = 0;
	s->last_in_use = s->first_usage;
	s->began_at = FS_USERPRIO_NEVER;
	s->last_used_at = FS_USERPRIO_NEVER;
	return FS_OK;
}

/* in_use over the seconds from earlier to later (later >= earlier; the microseconds between
 * instants 4713 BC and 294276 AD do not fit in int64, but do in uint64) */
static double
charge(double in_use, int64_t later, int64_t earlier)
{
	uint64_t us = (uint64_t) later - (uint64_t) earlier;

	return in_use * ((double) us / 1e6);
}

/*
 * The usage fields of s followed by a sample of in_use at `at` (charged since s's last sample):
 * false, and s unchanged, when the usage overflows.
 */
static bool
account(fs_userprio *s, double in_use, int64_t at)
{
	double c = charge(in_use, at, s->last_at), usage = s->usage + c;

	if (!isfinite(usage))
		return false;
	s->usage = usage;
	if (c > 0 && s->began_at == FS_USERPRIO_NEVER)
		s->began_at = at;
	if (in_use > 0)
		s->last_used_at = at;
	s->last_in_use = in_use == 0 ? 0 : in_use;
	return true;
}

/*
 * s->map = f o s->map, with f(p) = max(0.5, b p + u (1 - b)) and b = 2^-((later - earlier) / H);
 * an overflow leaves s as it was
 */
static fs_status
apply(fs_userprio *s, double in_use, int64_t later, int64_t earlier, fs_error *err)
{
	double b = exp2(-fs_halvings(later, earlier, s->half_life));
	double m = b * s->m + in_use * (1 - b);
	double g = b * s->g + in_use * (1 - b);

	if (!isfinite(m) || !isfinite(g))
		return overflow(err);
	s->m = m > FS_USERPRIO_FLOOR ? m : FS_USERPRIO_FLOOR;
	s->a *= b;
	s->g = g == 0 ? 0 : g;
	return FS_OK;
}

static fs_status
usage_overflow(fs_error *err)
{
	fs_fail(err, FS_ERR_RANGE, "value out of range: the accumulated usage overflows");
	fs_error_detail(err, "The weighted in-use times the seconds it was in use exceeds the largest "
	                     "float8.");
	return FS_ERR_RANGE;
}

static fs_status
same_half_life(const fs_userprio *s, int64_t half_life, fs_error *err)
{
	if (s->half_life == half_life)
		return FS_OK;
	fs_fail(err, FS_ERR_VALUE, "userprio needs one half-life, got %g and %g seconds",
	        s->half_life / 1e6, half_life / 1e6);
	fs_error_hint(err, "HTCondor's PRIORITY_HALFLIFE is one setting: use the same half_life on "
	                   "every row.");
	return FS_ERR_VALUE;
}

static fs_status
out_of_order(fs_error *err)
{
	fs_fail(err, FS_ERR_VALUE, "userprio needs its samples in time order");
	fs_error_hint(err, "Write userprio(weighted_in_use, at, half_life ORDER BY at), or use it "
	                   "as a window function ordered by at.");
	return FS_ERR_VALUE;
}

/*
 * Samples at one instant are one update, whatever order they come in (ORDER BY at leaves ties in
 * any order): the same weighted_in_use again changes nothing, a different one is an error, since
 * which of them counted would depend on that order (an accounting group's submitters at one
 * instant: HTCondor charges the group their sum).
 */
static fs_status
same_instant(double had, double in_use, fs_error *err)
{
	if ((had == 0 ? 0 : had) == (in_use == 0 ? 0 : in_use))
		return FS_OK;
	fs_fail(err, FS_ERR_VALUE,
	        "userprio got two samples at one instant with different weighted_in_use, %g and %g",
	        had, in_use);
	fs_error_detail(err, "The priority would depend on the order of the two, which ORDER BY at "
	                     "leaves open.");
	fs_error_hint(err, "Sum the samples of each instant first (as HTCondor charges an accounting "
	                   "group its submitters' sum): userprio(w, at, half_life ORDER BY at) over "
	                   "SELECT at, sum(weighted_in_use) AS w ... GROUP BY at.");
	return FS_ERR_VALUE;
}

fs_status
fs_userprio_add(fs_userprio *s, double in_use, int64_t at, int64_t half_life, fs_error *err)
{
	fs_status st = check_sample(in_use, at, half_life, err);

	if (st == FS_OK)
		st = same_half_life(s, half_life, err);
	if (st != FS_OK)
		return st;
	if (at < s->last_at)
		return out_of_order(err);
	if (at == s->last_at && (st = same_instant(s->last_in_use, in_use, err)) != FS_OK)
		return st;
	{
		fs_userprio next = *s;

		st = apply(&next, in_use, at, s->last_at, err);
		if (st != FS_OK)
			return st;
		if (!account(&next, in_use, at))
			return usage_overflow(err);
		next.last_at = at;
		*s = next;
	}
	return FS_OK;
}

fs_status
fs_userprio_combine(fs_userprio *s, const fs_userprio *other, fs_error *err)
{
	fs_userprio first, second;
	fs_status st = same_half_life(s, other->half_life, err);
	double m, g;

	if (st != FS_OK)
		return st;
	if (other->first_at >= s->last_at)
	{
		first = *s;
		second = *other;
	}
	else if (s->first_at >= other->last_at)
	{
		first = *other;
		second = *s;
	}
	else
		return out_of_order(err);
	if (second.first_at == first.last_at &&
	    (st = same_instant(first.last_in_use, second.first_usage, err)) != FS_OK)
		return st;
	/* first's map, then second's first sample after the gap, then second's own map */
	st = apply(&first, second.first_usage, second.first_at, first.last_at, err);
	if (st != FS_OK)
		return st;
	if (!account(&first, second.first_usage, second.first_at) ||
	    !isfinite(first.usage + second.usage))
		return usage_overflow(err);
	first.usage += second.usage;
	if (first.began_at == FS_USERPRIO_NEVER)
		first.began_at = second.began_at;
	if (second.last_used_at != FS_USERPRIO_NEVER)
		first.last_used_at = second.last_used_at;
	first.last_in_use = second.last_in_use;
	m = second.a * first.m + second.g;
	g = second.a * first.g + second.g;
	if (!isfinite(m) || !isfinite(g))
		return overflow(err);
	first.m = second.m > m ? second.m : m;
	first.g = g == 0 ? 0 : g;
	first.a *= second.a;
	first.last_at = second.last_at;
	*s = first;
	return FS_OK;
}

fs_status
fs_userprio_value(const fs_userprio *s, double *out, fs_error *err)
{
	/* the first sample only starts the clock: the priority is 0.5 right after it */
	double p = s->a * FS_USERPRIO_FLOOR + s->g;

	if (!isfinite(p))
		return overflow(err);
	*out = p > s->m ? p : s->m;
	return FS_OK;
}

static fs_status
invalid_state(fs_error *err, const char *what)
{
	fs_fail(err, FS_ERR_VALUE, "%s", what);
	return FS_ERR_VALUE;
}

fs_status
fs_userprio_check(const fs_userprio *s, fs_error *err)
{
	if (!isfinite(s->m) || !isfinite(s->a) || !isfinite(s->g) || !isfinite(s->first_usage))
		return invalid_state(err, "the numbers of a userprio state must be finite");
	if (!(s->a >= 0 && s->a <= 1))
		return invalid_state(err, "the factor a of a userprio state must be between 0 and 1");
	if (!(s->g >= 0) || !(s->first_usage >= 0))
		return invalid_state(err, "the first usage and the term g of a userprio state must be 0 "
		                          "or more");
	if (!FS_INSTANT_VALID(s->first_at) || !FS_INSTANT_VALID(s->last_at))
		return invalid_state(err, "the instants of a userprio state are out of range: they go "
		                          "from -4713-11-24T00:00:00Z (4714 BC) to "
		                          "294276-12-31T23:59:59.999999Z");
	if (s->last_at < s->first_at)
		return invalid_state(err, "the last sample of a userprio state is before its first");
	if (s->half_life <= 0)
		return invalid_state(err, "the half-life of a userprio state must be positive");
	if (!(s->m >= FS_USERPRIO_FLOOR) &&
	    !(s->m == 0 && s->a == 1 && s->g == 0 && s->first_at == s->last_at))
		return invalid_state(err, "the floor m of a userprio state must be at least 0.5, or 0 "
		                          "in the state of a single sample (max(0,1p+0))");
	if (!isfinite(s->usage) || !isfinite(s->last_in_use) || !(s->usage >= 0) ||
	    !(s->last_in_use >= 0))
		return invalid_state(err, "the usage and the in-use of a userprio state must be finite "
		                          "numbers of 0 or more");
	if ((s->usage > 0) != (s->began_at != FS_USERPRIO_NEVER))
		return invalid_state(err, "a userprio state has a usage start exactly when it has usage");
	if (s->began_at != FS_USERPRIO_NEVER &&
	    !(s->began_at > s->first_at && s->last_used_at != FS_USERPRIO_NEVER &&
	      s->began_at <= s->last_used_at))
		return invalid_state(err, "the usage of a userprio state must start after its first "
		                          "sample and no later than its last usage");
	if (s->last_used_at != FS_USERPRIO_NEVER &&
	    !(s->last_used_at >= s->first_at && s->last_used_at <= s->last_at))
		return invalid_state(err, "the last usage of a userprio state must lie between its "
		                          "first and last samples");
	if (s->m == 0 && (s->last_in_use != s->first_usage || s->last_used_at != FS_USERPRIO_NEVER))
		return invalid_state(err, "the state of a single sample has that sample's in-use and no "
		                          "usage");
	return FS_OK;
}

/* -0 and 0 are one value: equal states have equal bytes */
static void
canonical(fs_userprio *s)
{
	if (s->m == 0)
		s->m = 0;
	if (s->a == 0)
		s->a = 0;
	if (s->g == 0)
		s->g = 0;
	if (s->first_usage == 0)
		s->first_usage = 0;
	if (s->usage == 0)
		s->usage = 0;
	if (s->last_in_use == 0)
		s->last_in_use = 0;
}

void
fs_userprio_encode(const fs_userprio *s, uint8_t out[FS_USERPRIO_BINARY_LEN])
{
	out[0] = FS_USERPRIO_BINARY_VERSION;
	fs_put_be_double(out + 1, s->m);
	fs_put_be_double(out + 9, s->a);
	fs_put_be_double(out + 17, s->g);
	fs_put_be_double(out + 25, s->first_usage);
	fs_put_be(out + 33, (uint64_t) s->first_at, 8);
	fs_put_be(out + 41, (uint64_t) s->last_at, 8);
	fs_put_be(out + 49, (uint64_t) s->half_life, 8);
	fs_put_be_double(out + 57, s->usage);
	fs_put_be_double(out + 65, s->last_in_use);
	fs_put_be(out + 73, (uint64_t) s->began_at, 8);
	fs_put_be(out + 81, (uint64_t) s->last_used_at, 8);
}

fs_status
fs_userprio_decode(const uint8_t *p, size_t len, fs_userprio *s, fs_error *err)
{
	fs_error why;

	if (len >= 1 && p[0] != FS_USERPRIO_BINARY_VERSION)
		return fs_fail(err, FS_ERR_BINARY,
		               "unsupported binary format version %d for type userprio_state", p[0]);
	if (len != FS_USERPRIO_BINARY_LEN)
	{
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type userprio_state");
		fs_error_detail(err, "The value has %zu %s, not %d.", len, fs_plural(len, "byte", "bytes"),
		                FS_USERPRIO_BINARY_LEN);
		return FS_ERR_BINARY;
	}
	s->m = fs_bits_double(fs_get_be(p + 1, 8));
	s->a = fs_bits_double(fs_get_be(p + 9, 8));
	s->g = fs_bits_double(fs_get_be(p + 17, 8));
	s->first_usage = fs_bits_double(fs_get_be(p + 25, 8));
	s->first_at = (int64_t) fs_get_be(p + 33, 8);
	s->last_at = (int64_t) fs_get_be(p + 41, 8);
	s->half_life = (int64_t) fs_get_be(p + 49, 8);
	s->usage = fs_bits_double(fs_get_be(p + 57, 8));
	s->last_in_use = fs_bits_double(fs_get_be(p + 65, 8));
	s->began_at = (int64_t) fs_get_be(p + 73, 8);
	s->last_used_at = (int64_t) fs_get_be(p + 81, 8);
	if (fs_userprio_check(s, &why) != FS_OK)
	{
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type userprio_state");
		why.message[0] = fs_ascii_upper(why.message[0]); /* a sentence */
		fs_error_detail(err, "%s.", why.message);
		return FS_ERR_BINARY;
	}
	canonical(s);
	return FS_OK;
}

void
fs_userprio_format(fs_sb *sb, const fs_userprio *s)
{
	fs_sb_append(sb, "max(", 4);
	fs_sb_append_double(sb, s->m);
	fs_sb_append(sb, ",", 1);
	fs_sb_append_double(sb, s->a);
	fs_sb_append(sb, "p+", 2);
	fs_sb_append_double(sb, s->g);
	fs_sb_append(sb, ")|", 2);
	fs_sb_append_double(sb, s->first_usage);
	fs_sb_append(sb, "@", 1);
	fs_format_utc(sb, s->first_at);
	fs_sb_append(sb, "..", 2);
	fs_format_utc(sb, s->last_at);
	fs_sb_appendf(sb, "/%lld", (long long) s->half_life);
	fs_sb_append(sb, "|used=", 6);
	fs_sb_append_double(sb, s->usage);
	fs_sb_append(sb, ",in_use=", 8);
	fs_sb_append_double(sb, s->last_in_use);
	fs_sb_append(sb, ",began=", 7);
	if (s->began_at == FS_USERPRIO_NEVER)
		fs_sb_append(sb, "-", 1);
	else
		fs_format_utc(sb, s->began_at);
	fs_sb_append(sb, ",last_used=", 11);
	if (s->last_used_at == FS_USERPRIO_NEVER)
		fs_sb_append(sb, "-", 1);
	else
		fs_format_utc(sb, s->last_used_at);
}

static fs_status
userprio_syntax(const char *text, size_t len, const char *what, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for type userprio_state", text, len, FS_NO_POSITION,
	                      what,
	                      "The form is max(m,ap+g)|first_usage@first_atZ..last_atZ/half_life_us"
	                      "|used=u,in_use=x,began=atZ,last_used=atZ (- for never), as the type "
	                      "prints itself.");
}

static bool
lit(const char *text, size_t len, size_t *i, const char *l)
{
	size_t n = strlen(l);

	if (len - *i < n || memcmp(text + *i, l, n) != 0)
		return false;
	*i += n;
	return true;
}

static bool
number(const char *text, size_t len, size_t *i, double *v)
{
	size_t used = fs_scan_number(text + *i, len - *i, v);

	if (used == 0 || !isfinite(*v))
		return false;
	*i += used;
	return true;
}

/* A positive decimal integer that fits in int64 (the half-life in microseconds). */
static bool
integer(const char *text, size_t len, size_t *i, int64_t *v)
{
	size_t j = *i;

	*v = 0;
	for (; j < len && text[j] >= '0' && text[j] <= '9'; j++)
	{
		if (*v > (INT64_MAX - (text[j] - '0')) / 10)
			return false;
		*v = *v * 10 + (text[j] - '0');
	}
	if (j == *i)
		return false;
	*i = j;
	return true;
}

/* a UTC timestamp, or "-" for never */
static bool
instant_or_never(const char *text, size_t len, size_t *i, int64_t *at)
{
	size_t used;

	/* "-" alone: a BC instant starts with "-" too */
	if (*i < len && text[*i] == '-' && (*i + 1 == len || text[*i + 1] == ','))
	{
		*i += 1;
		*at = FS_USERPRIO_NEVER;
		return true;
	}
	used = fs_parse_utc(text + *i, len - *i, at);
	if (used == 0)
		return false;
	*i += used;
	return true;
}

fs_status
fs_userprio_parse(const char *text, size_t len, fs_userprio *s, fs_error *err)
{
	size_t i = 0, used;
	fs_error why;

	if (!lit(text, len, &i, "max(") || !number(text, len, &i, &s->m) || !lit(text, len, &i, ",") ||
	    !number(text, len, &i, &s->a) || !lit(text, len, &i, "p+") ||
	    !number(text, len, &i, &s->g) || !lit(text, len, &i, ")|") ||
	    !number(text, len, &i, &s->first_usage) || !lit(text, len, &i, "@"))
		return userprio_syntax(text, len, "Expected max(m,ap+g)|first_usage@", err);
	used = fs_parse_utc(text + i, len - i, &s->first_at);
	if (used == 0)
		return userprio_syntax(text, len, "Expected the first sample's UTC timestamp", err);
	i += used;
	if (!lit(text, len, &i, ".."))
		return userprio_syntax(text, len, "Expected \"..\" between the timestamps", err);
	used = fs_parse_utc(text + i, len - i, &s->last_at);
	if (used == 0)
		return userprio_syntax(text, len, "Expected the last sample's UTC timestamp", err);
	i += used;
	if (!lit(text, len, &i, "/") || !integer(text, len, &i, &s->half_life))
		return userprio_syntax(text, len, "Expected \"/\" and the half-life in microseconds", err);
	if (!lit(text, len, &i, "|used=") || !number(text, len, &i, &s->usage) ||
	    !lit(text, len, &i, ",in_use=") || !number(text, len, &i, &s->last_in_use) ||
	    !lit(text, len, &i, ",began="))
		return userprio_syntax(text, len, "Expected |used=u,in_use=x,began= after the half-life",
		                       err);
	if (!instant_or_never(text, len, &i, &s->began_at) || !lit(text, len, &i, ",last_used=") ||
	    !instant_or_never(text, len, &i, &s->last_used_at) || i != len)
		return userprio_syntax(text, len,
		                       "Expected the UTC timestamps (or -) of began= and last_used=", err);
	if (fs_userprio_check(s, &why) != FS_OK)
	{
		why.message[0] = fs_ascii_upper(why.message[0]); /* a sentence */
		return userprio_syntax(text, len, why.message, err);
	}
	canonical(s);
	return FS_OK;
}

/* ---------------------------------------------------------------- report and pie spin */

fs_status
fs_userprio_report_of(const fs_userprio *s, double priority_factor, fs_userprio_report *out,
                      fs_error *err)
{
	fs_status st;

	if (!isfinite(priority_factor) || !(priority_factor >= 1))
	{
		char v[FS_DOUBLE_BUFLEN];

		fs_format_double(priority_factor, v);
		fs_fail(err, isfinite(priority_factor) ? FS_ERR_VALUE : FS_ERR_RANGE,
		        "priority factor must be a finite number of 1 or more, not %s", v);
		fs_error_hint(err, "HTCondor's condor_userprio -setfactor accepts factors of 1 or more; "
		                   "DEFAULT_PRIO_FACTOR is 1000.");
		return err->status;
	}
	st = fs_userprio_value(s, &out->real_priority, err);
	if (st != FS_OK)
		return st;
	out->priority_factor = priority_factor;
	out->effective_priority = out->real_priority * priority_factor;
	if (!isfinite(out->effective_priority))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: the effective priority overflows");
		fs_error_detail(err, "The real priority times the priority factor exceeds the largest "
		                     "float8.");
		return FS_ERR_RANGE;
	}
	out->weighted_in_use = s->last_in_use;
	out->weighted_usage = s->usage;
	out->weighted_hours = s->usage / 3600;
	out->usage_start = s->began_at;
	out->last_usage = s->last_used_at;
	out->last_update = s->last_at;
	return FS_OK;
}

typedef struct pie_names
{
	const char *const *names;
	const size_t *lens;
} pie_names;

static int
by_name(const void *x, const void *y, void *ctx)
{
	const pie_names *p = ctx;
	size_t a = *(const size_t *) x, b = *(const size_t *) y;

	return fs_bytes_cmp(p->names[a], p->lens[a], p->names[b], p->lens[b]);
}

fs_status
fs_pie_spin(const char *const *names, const size_t *name_lens, const double *eup, size_t n,
            const fs_allocator *a, double *share, fs_error *err)
{
	pie_names pn;
	size_t *order, i;
	double least = INFINITY, sum = 0;

	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (!isfinite(eup[i]) || !(eup[i] > 0))
		{
			char v[FS_DOUBLE_BUFLEN], q[256];

			fs_format_double(eup[i], v);
			fs_quote_excerpt(q, sizeof(q), names[i], name_lens[i], 200);
			fs_fail(err, isfinite(eup[i]) ? FS_ERR_VALUE : FS_ERR_RANGE,
			        "effective priority of submitter \"%s\" must be a positive finite number, "
			        "not %s",
			        q, v);
			fs_error_hint(err, "An effective user priority is the real priority (0.5 or more) "
			                   "times the priority factor (1 or more).");
			return err->status;
		}
		if (eup[i] < least)
			least = eup[i];
	}
	/* a submitter appears once in a cycle */
	order = a->alloc(a->ctx, sizeof(size_t) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
		order[i] = i;
	pn.names = names;
	pn.lens = name_lens;
	fs_sort(order, n, sizeof(size_t), by_name, &pn, a);
	for (i = 1; i < n; i++)
	{
		FS_POLL(i);
		if (by_name(&order[i - 1], &order[i], &pn) == 0)
		{
			char q[256];

			fs_quote_excerpt(q, sizeof(q), names[order[i]], name_lens[order[i]], 200);
			fs_fail(err, FS_ERR_VALUE, "submitter \"%s\" appears more than once", q);
			fs_error_hint(err, "Give each submitter once, with its effective priority.");
			a->release(a->ctx, order);
			return FS_ERR_VALUE;
		}
	}
	a->release(a->ctx, order);
	/* least / eup is in (0, 1]: no overflow however small the priorities */
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		share[i] = least / eup[i];
		sum += share[i];
	}
	for (i = 0; i < n; i++)
		share[i] /= sum;
	return FS_OK;
}
