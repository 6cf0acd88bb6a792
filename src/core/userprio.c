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
	return FS_OK;
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
	fs_status st = check_sample(in_use, at, half_life, err);

	if (st == FS_OK)
		st = same_half_life(s, half_life, err);
	if (st != FS_OK)
		return st;
	if (at < s->last_at)
		return out_of_order(err);
	st = apply(s, in_use, at, s->last_at, err);
	if (st == FS_OK)
		s->last_at = at;
	return st;
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
	/* first's map, then second's first sample after the gap, then second's own map */
	st = apply(&first, second.first_usage, second.first_at, first.last_at, err);
	if (st != FS_OK)
		return st;
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
		fs_error_detail(err, "The value has %zu bytes, not %d.", len, FS_USERPRIO_BINARY_LEN);
		return FS_ERR_BINARY;
	}
	s->m = fs_bits_double(fs_get_be(p + 1, 8));
	s->a = fs_bits_double(fs_get_be(p + 9, 8));
	s->g = fs_bits_double(fs_get_be(p + 17, 8));
	s->first_usage = fs_bits_double(fs_get_be(p + 25, 8));
	s->first_at = (int64_t) fs_get_be(p + 33, 8);
	s->last_at = (int64_t) fs_get_be(p + 41, 8);
	s->half_life = (int64_t) fs_get_be(p + 49, 8);
	if (fs_userprio_check(s, &why) != FS_OK)
	{
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type userprio_state");
		why.message[0] = (char) (why.message[0] - 'a' + 'A'); /* a sentence */
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
	if (!lit(text, len, &i, "/") || !integer(text, len, &i, &s->half_life) || i != len)
		return userprio_syntax(text, len, "Expected \"/\" and the half-life in microseconds", err);
	if (fs_userprio_check(s, &why) != FS_OK)
	{
		why.message[0] = (char) (why.message[0] - 'a' + 'A'); /* a sentence */
		return userprio_syntax(text, len, why.message, err);
	}
	canonical(s);
	return FS_OK;
}
