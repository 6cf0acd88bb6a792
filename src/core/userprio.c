/*
 * userprio.c: HTCondor's real user priority as a composable map (see userprio.h), with a text
 * form that round-trips exactly.
 */
#include "userprio.h"

#include "decay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static fs_status
check_sample(double in_use, int64_t half_life, fs_error *err)
{
	if (!isfinite(in_use) || in_use < 0)
	{
		fs_fail(err, isfinite(in_use) ? FS_ERR_VALUE : FS_ERR_RANGE,
		        "weighted_in_use must be a finite number of 0 or more, not %g", in_use);
		return err->status;
	}
	return fs_check_positive_duration(half_life, "half_life", err);
}

fs_status
fs_userprio_start(fs_userprio *s, double in_use, int64_t at, int64_t half_life, fs_error *err)
{
	fs_status st = check_sample(in_use, half_life, err);

	if (st != FS_OK)
		return st;
	s->m = 0; /* the identity: priorities are never below 0.5 */
	s->a = 1;
	s->g = 0;
	s->first_usage = in_use;
	s->first_at = s->last_at = at;
	s->half_life = half_life;
	return FS_OK;
}

/* s->map = f o s->map, with f(p) = max(0.5, b p + u (1 - b)) */
static void
apply(fs_userprio *s, double in_use, int64_t gap)
{
	double b = exp2(-(double) gap / (double) s->half_life);
	double m = b * s->m + in_use * (1 - b);

	s->m = m > FS_USERPRIO_FLOOR ? m : FS_USERPRIO_FLOOR;
	s->a *= b;
	s->g = b * s->g + in_use * (1 - b);
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

fs_status
fs_userprio_add(fs_userprio *s, double in_use, int64_t at, int64_t half_life, fs_error *err)
{
	fs_status st = check_sample(in_use, half_life, err);

	if (st == FS_OK)
		st = same_half_life(s, half_life, err);
	if (st != FS_OK)
		return st;
	if (at < s->last_at)
		return out_of_order(err);
	apply(s, in_use, at - s->last_at);
	s->last_at = at;
	return FS_OK;
}

fs_status
fs_userprio_combine(fs_userprio *s, const fs_userprio *other, fs_error *err)
{
	fs_userprio first, second;
	fs_status st = same_half_life(s, other->half_life, err);

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
	/* first's map, then second's first sample after the gap, then second's own map */
	apply(&first, second.first_usage, second.first_at - first.last_at);
	{
		double m = second.a * first.m + second.g;

		first.m = second.m > m ? second.m : m;
		first.g = second.a * first.g + second.g;
		first.a *= second.a;
	}
	first.last_at = second.last_at;
	*s = first;
	return FS_OK;
}

double
fs_userprio_value(const fs_userprio *s)
{
	/* the first sample only starts the clock: the priority is 0.5 right after it */
	double p = s->a * FS_USERPRIO_FLOOR + s->g;

	return p > s->m ? p : s->m;
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
}

static fs_status
userprio_syntax(const char *text, size_t len, const char *what, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for type userprio_state", text, len, FS_NO_POSITION,
	                      what,
	                      "The form is max(m,ap+g)|first_usage@first_atZ..last_atZ/half_life_us, "
	                      "as the type prints itself.");
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

fs_status
fs_userprio_parse(const char *text, size_t len, fs_userprio *s, fs_error *err)
{
	size_t i = 0, used;
	double hl;

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
	if (!lit(text, len, &i, "/") || !number(text, len, &i, &hl) || i != len || hl != floor(hl) ||
	    hl <= 0 || hl > 9e18)
		return userprio_syntax(text, len, "Expected \"/\" and the half-life in microseconds", err);
	s->half_life = (int64_t) hl;
	if (s->last_at < s->first_at || s->a < 0 || s->a > 1 || s->first_usage < 0)
		return userprio_syntax(text, len, "The values are inconsistent", err);
	return FS_OK;
}
