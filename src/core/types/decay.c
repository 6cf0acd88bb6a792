/*
 * decay.c: half-life decay models, PBS step decay, the exact accrued charge of a running job,
 * and the combinable decayed running sum with its settings-independent text form.
 */
#include "types/decay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define US_PER_SEC 1000000.0
#define US_PER_DAY INT64_C(86400000000)
#define LN2        0.69314718055994530942

int
fs_decay_model_from_name(const char *name)
{
	if (strcmp(name, "exact") == 0)
		return FS_DECAY_EXACT;
	if (strcmp(name, "slurm") == 0)
		return FS_DECAY_SLURM;
	if (strcmp(name, "condor") == 0)
		return FS_DECAY_CONDOR;
	return -1;
}

fs_status
fs_check_positive_duration(int64_t us, const char *what, fs_error *err)
{
	if (us > 0)
		return FS_OK;
	fs_fail(err, FS_ERR_VALUE, "%s must be positive, not %g seconds", what, us / US_PER_SEC);
	fs_error_hint(err, "Give a duration such as '7 days' or '14 days'.");
	return FS_ERR_VALUE;
}

fs_status
fs_check_amount(double v, const char *what, fs_error *err)
{
	if (!isfinite(v))
	{
		fs_fail(err, FS_ERR_RANGE, "%s must be a finite number, not %g", what, v);
		return FS_ERR_RANGE;
	}
	return FS_OK;
}

static fs_status
check_result(double v, fs_error *err)
{
	if (isfinite(v))
		return FS_OK;
	fs_fail(err, FS_ERR_RANGE, "value out of range: the decayed usage overflows");
	return FS_ERR_RANGE;
}

fs_duration
fs_duration_exact(int64_t us)
{
	fs_duration d;

	d.exact = true;
	d.us = us;
	d.approx_us = (double) us;
	return d;
}

fs_duration
fs_duration_approx(double us)
{
	fs_duration d;

	d.exact = false;
	d.us = 0;
	d.approx_us = us;
	return d;
}

static fs_status
check_positive_span(fs_duration d, const char *what, fs_error *err)
{
	if (d.exact)
		return fs_check_positive_duration(d.us, what, err);
	if (d.approx_us > 0)
		return FS_OK;
	fs_fail(err, FS_ERR_VALUE, "%s must be positive, not %g seconds", what,
	        d.approx_us / US_PER_SEC);
	fs_error_hint(err, "Give a duration such as '7 days' or '14 days'.");
	return FS_ERR_VALUE;
}

double
fs_halvings(int64_t later, int64_t earlier, int64_t half_life)
{
	return (double) ((uint64_t) later - (uint64_t) earlier) / (double) half_life;
}

fs_status
fs_decay(double usage, fs_duration elapsed, fs_duration half_life, fs_decay_model model,
         double *out, fs_error *err)
{
	fs_status st = fs_check_amount(usage, "usage", err);

	if (st == FS_OK)
		st = check_positive_span(half_life, "half_life", err);
	if (st != FS_OK)
		return st;
	if (model == FS_DECAY_SLURM)
	{
		/* SLURM's per-second factor, applied as a power of the elapsed seconds */
		double hl = half_life.approx_us / US_PER_SEC;
		double factor = 1 - 0.693 / hl;

		if (factor <= 0)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "the slurm decay model needs a half-life of at least 1 "
			        "second, not %g seconds",
			        hl);
			return FS_ERR_VALUE;
		}
		*out = usage * pow(factor, elapsed.approx_us / US_PER_SEC);
	}
	else
	{
		/*
		 * In doubles, which hold any interval: exact for durations below 2^53 us (285 years),
		 * and beyond that the ratio keeps its 16 digits, which is all that matters once 2^-x
		 * is taken (the result is 0 past 1075 half-lives anyway)
		 */
		*out = usage * exp2(-(elapsed.approx_us / half_life.approx_us));
	}
	return check_result(*out, err);
}

fs_status
fs_decay_step(double usage, fs_duration elapsed, fs_duration period, double factor,
              double floor_value, double *out, fs_error *err)
{
	fs_status st = fs_check_amount(usage, "usage", err);
	double steps;

	if (st == FS_OK)
		st = check_positive_span(period, "period", err);
	if (st == FS_OK)
		st = fs_check_amount(floor_value, "floor", err);
	if (st != FS_OK)
		return st;
	if (!(factor > 0 && factor <= 1))
	{
		fs_fail(err, FS_ERR_VALUE, "decay factor must be in (0, 1], not %g", factor);
		fs_error_hint(err, "PBS's fairshare_decay_factor is 0.5 by default.");
		return FS_ERR_VALUE;
	}
	/* whole periods elapsed; none before the first period ends, none for negative time */
	if (elapsed.exact && period.exact)
		steps = elapsed.us > 0 ? (double) (elapsed.us / period.us) : 0;
	else
		steps = elapsed.approx_us > 0 ? floor(elapsed.approx_us / period.approx_us) : 0;
	*out = usage * pow(factor, steps);
	if (*out < floor_value)
		*out = floor_value;
	return check_result(*out, err);
}

fs_status
fs_accrued(double rate, int64_t start, int64_t end, int64_t as_of, bool has_half_life,
           int64_t half_life_us, double *out, fs_error *err)
{
	fs_status st = fs_check_amount(rate, "rate", err);
	int64_t stop = end < as_of ? end : as_of;

	if (st == FS_OK && has_half_life)
		st = fs_check_positive_duration(half_life_us, "half_life", err);
	if (st != FS_OK)
		return st;
	if (end < start)
	{
		fs_fail(err, FS_ERR_VALUE, "run_end is before run_start");
		fs_error_hint(err, "A job's run ends after it starts; swap the two or fix the record.");
		return FS_ERR_VALUE;
	}
	if (stop <= start)
	{
		*out = 0;
		return FS_OK;
	}
	if (!has_half_life)
		*out = rate * (fs_halvings(stop, start, 1) / US_PER_SEC);
	else
	{
		/* rate * H / ln 2 * (2^(-(as_of - stop)/H) - 2^(-(as_of - start)/H)) */
		double h = half_life_us / US_PER_SEC;
		double near = exp2(-fs_halvings(as_of, stop, half_life_us));
		double span = fs_halvings(stop, start, half_life_us);

		/* -expm1(-x ln 2) keeps precision for runs much shorter than the half-life */
		*out = rate * h / LN2 * near * -expm1(-span * LN2);
	}
	return check_result(*out, err);
}

/* ---------------------------------------------------------------- decayed running sum */

static fs_status
same_half_life(const fs_decayed *d, int64_t half_life, fs_error *err)
{
	if (d->half_life == half_life)
		return FS_OK;
	fs_fail(err, FS_ERR_VALUE, "decayed_sum needs one half-life, got %g and %g seconds",
	        d->half_life / US_PER_SEC, half_life / US_PER_SEC);
	fs_error_hint(err, "Use the same half_life on every row of one decayed_sum.");
	return FS_ERR_VALUE;
}

static fs_status
check_instant(int64_t at, const char *what, fs_error *err)
{
	if (FS_INSTANT_VALID(at))
		return FS_OK;
	fs_fail(err, FS_ERR_RANGE, "%s is out of range", what);
	fs_error_detail(err, "Instants go from 4714-11-24 00:00:00 BC to 294276-12-31 23:59:59.999999 "
	                     "UTC, as PostgreSQL's timestamps do.");
	return FS_ERR_RANGE;
}

fs_status
fs_decayed_add(fs_decayed *d, double usage, int64_t at, int64_t half_life, fs_error *err)
{
	fs_status st = fs_check_amount(usage, "usage", err);
	double value;

	if (st == FS_OK)
		st = fs_check_positive_duration(half_life, "half_life", err);
	if (st == FS_OK)
		st = same_half_life(d, half_life, err);
	if (st == FS_OK)
		st = check_instant(at, "the instant of a decayed usage", err);
	if (st != FS_OK)
		return st;
	/* into a local first: the state never holds an overflowed value */
	if (at >= d->at)
		value = d->value * exp2(-fs_halvings(at, d->at, half_life)) + usage;
	else
		value = d->value + usage * exp2(-fs_halvings(d->at, at, half_life));
	st = check_result(value, err);
	if (st != FS_OK)
		return st;
	d->value = value == 0 ? 0 : value; /* no -0: equal values have equal bytes */
	if (at > d->at)
		d->at = at;
	return FS_OK;
}

fs_status
fs_decayed_combine(fs_decayed *d, const fs_decayed *other, fs_error *err)
{
	if (d->half_life != other->half_life)
	{
		fs_fail(err, FS_ERR_VALUE,
		        "cannot add decayed usages with different half-lives: %g and %g seconds",
		        d->half_life / US_PER_SEC, other->half_life / US_PER_SEC);
		fs_error_hint(err, "Give every charge of one usage the same half_life, or convert one "
		                   "with with_half_life() first.");
		return FS_ERR_VALUE;
	}
	return fs_decayed_add(d, other->value, other->at, other->half_life, err);
}

fs_status
fs_decayed_make(double value, int64_t at, int64_t half_life, fs_decayed *out, fs_error *err)
{
	fs_status st = fs_check_amount(value, "value", err);

	if (st == FS_OK)
		st = fs_check_positive_duration(half_life, "half_life", err);
	if (st == FS_OK)
		st = check_instant(at, "at", err);
	if (st != FS_OK)
		return st;
	out->value = value == 0 ? 0 : value;
	out->at = at;
	out->half_life = half_life;
	return FS_OK;
}

fs_status
fs_decay_half_life(int64_t half_life, fs_decay_model model, int64_t *out, fs_error *err)
{
	fs_status st = fs_check_positive_duration(half_life, "half_life", err);
	double hl, eff;

	if (st != FS_OK)
		return st;
	if (model != FS_DECAY_SLURM)
	{
		*out = half_life;
		return FS_OK;
	}
	hl = half_life / US_PER_SEC;
	if (!(0.693 / hl < 1))
	{
		fs_fail(err, FS_ERR_VALUE,
		        "the slurm decay model needs a half-life of at least 1 second, not %g seconds", hl);
		return FS_ERR_VALUE;
	}
	/* (1 - 0.693/hl)^t = 2^(-t/eff): eff = -ln 2 / ln(1 - 0.693/hl), in microseconds */
	eff = -LN2 / log1p(-0.693 / hl) * US_PER_SEC;
	if (!(eff < 9.2e18))
	{
		fs_fail(err, FS_ERR_RANGE, "half_life is out of range for the slurm decay model");
		fs_error_detail(err, "Its equivalent exact half-life exceeds 2^63 microseconds.");
		return FS_ERR_RANGE;
	}
	*out = (int64_t) llround(eff);
	return FS_OK;
}

fs_status
fs_decayed_value(const fs_decayed *d, int64_t as_of, double *out, fs_error *err)
{
	double v;

	/*
	 * Before the sum's last instant the decay law runs backwards (2^(+elapsed/half_life)), so
	 * value(a + b, t) = value(a, t) + value(b, t) at every t: a reader whose now() is older
	 * than a writer's charge reads every row at the same instant
	 */
	if (as_of >= d->at)
		v = d->value * exp2(-fs_halvings(as_of, d->at, d->half_life));
	else
		v = d->value * exp2(fs_halvings(d->at, as_of, d->half_life));
	if (!isfinite(v))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: the decayed usage overflows");
		fs_error_detail(err, "as_of is %g half-lives before the last instant of the usage.",
		                fs_halvings(d->at, as_of, d->half_life));
		fs_error_hint(err, "Read a decayed usage at an instant near or after its last charge.");
		return FS_ERR_RANGE;
	}
	*out = v == 0 ? 0 : v;
	return FS_OK;
}

fs_status
fs_decayed_check(const fs_decayed *d, fs_error *err)
{
	if (!isfinite(d->value))
	{
		fs_fail(err, FS_ERR_RANGE, "the value of a decayed usage must be a finite number");
		return FS_ERR_RANGE;
	}
	if (check_instant(d->at, "the instant of a decayed usage", err) != FS_OK)
		return FS_ERR_RANGE;
	if (d->half_life <= 0)
	{
		fs_fail(err, FS_ERR_VALUE,
		        "the half-life of a decayed usage must be positive, not %g seconds",
		        d->half_life / US_PER_SEC);
		return FS_ERR_VALUE;
	}
	return FS_OK;
}

void
fs_decayed_encode(const fs_decayed *d, uint8_t out[FS_DECAYED_BINARY_LEN])
{
	out[0] = FS_DECAYED_BINARY_VERSION;
	fs_put_be_double(out + 1, d->value);
	fs_put_be(out + 9, (uint64_t) d->at, 8);
	fs_put_be(out + 17, (uint64_t) d->half_life, 8);
}

fs_status
fs_decayed_decode(const uint8_t *p, size_t len, fs_decayed *d, fs_error *err)
{
	fs_error why;

	if (len >= 1 && p[0] != FS_DECAYED_BINARY_VERSION)
		return fs_fail(err, FS_ERR_BINARY,
		               "unsupported binary format version %d for type decayed_usage", p[0]);
	if (len != FS_DECAYED_BINARY_LEN)
	{
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type decayed_usage");
		fs_error_detail(err, "The value has %zu %s, not %d.", len, fs_plural(len, "byte", "bytes"),
		                FS_DECAYED_BINARY_LEN);
		return FS_ERR_BINARY;
	}
	d->value = fs_bits_double(fs_get_be(p + 1, 8));
	d->at = (int64_t) fs_get_be(p + 9, 8);
	d->half_life = (int64_t) fs_get_be(p + 17, 8);
	if (fs_decayed_check(d, &why) != FS_OK)
	{
		/* the text form could not express it either */
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type decayed_usage");
		why.message[0] = fs_ascii_upper(why.message[0]); /* a sentence */
		fs_error_detail(err, "%s.", why.message);
		return FS_ERR_BINARY;
	}
	if (d->value == 0)
		d->value = 0;
	return FS_OK;
}

/* ---------------------------------------------------------------- UTC text */

#define PG_EPOCH_DAYS 10957 /* 2000-01-01 in days since 1970-01-01 */

void
fs_format_utc(fs_sb *sb, int64_t us)
{
	int64_t days = us / US_PER_DAY;
	int64_t rem = us % US_PER_DAY;
	int64_t y, m, d;

	if (rem < 0)
	{
		rem += US_PER_DAY;
		days--;
	}
	fs_civil_from_days(days + PG_EPOCH_DAYS, &y, &m, &d);
	/* astronomical years, at least four digits: -4713 is 4714 BC, 0000 is 1 BC */
	fs_sb_appendf(sb, "%s%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", y < 0 ? "-" : "",
	              (long long) (y < 0 ? -y : y), (long long) m, (long long) d,
	              (long long) (rem / 3600000000), (long long) (rem / 60000000 % 60),
	              (long long) (rem / 1000000 % 60));
	if (rem % 1000000)
	{
		char frac[8];
		int n;

		snprintf(frac, sizeof(frac), "%06lld", (long long) (rem % 1000000));
		for (n = 6; frac[n - 1] == '0'; n--)
			;
		fs_sb_append(sb, ".", 1);
		fs_sb_append(sb, frac, (size_t) n);
	}
	fs_sb_append(sb, "Z", 1);
}

static bool
digits(const char *s, size_t len, size_t at, size_t n, int64_t *v)
{
	size_t i;

	if (at + n > len)
		return false;
	*v = 0;
	for (i = 0; i < n; i++)
	{
		if (s[at + i] < '0' || s[at + i] > '9')
			return false;
		*v = *v * 10 + (s[at + i] - '0');
	}
	return true;
}

static int64_t
days_in_month(int64_t y, int64_t m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

/* The years valid instants fall in: parsing stops there, before the arithmetic can overflow. */
#define MIN_YEAR (-4713)
#define MAX_YEAR 294276

size_t
fs_parse_utc(const char *s, size_t len, int64_t *us)
{
	int64_t y = 0, mo, d, h, mi, se, frac = 0, secs;
	size_t i = 0, ny = 0;
	bool neg = false;

	if (len > 0 && s[0] == '-')
	{
		neg = true;
		i++;
	}
	/* the year: four to six digits */
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, ny++)
	{
		if (ny >= 6)
			return 0;
		y = y * 10 + (s[i] - '0');
	}
	if (ny < 4)
		return 0;
	if (neg)
		y = -y;
	s += i;
	len -= i;
	if (len < 16 || s[0] != '-' || !digits(s, len, 1, 2, &mo) || s[3] != '-' ||
	    !digits(s, len, 4, 2, &d) || s[6] != 'T' || !digits(s, len, 7, 2, &h) || s[9] != ':' ||
	    !digits(s, len, 10, 2, &mi) || s[12] != ':' || !digits(s, len, 13, 2, &se))
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 59)
		return 0;
	i = 15;
	if (i < len && s[i] == '.')
	{
		int64_t scale = 100000;
		size_t n = 0;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, n++)
		{
			if (n >= 6)
				return 0;
			frac += (s[i] - '0') * scale;
			scale /= 10;
		}
		if (n == 0)
			return 0;
	}
	if (i >= len || s[i] != 'Z')
		return 0;
	if (y < MIN_YEAR)
		*us = INT64_MIN; /* out of range, and FS_INSTANT_VALID says so */
	else if (y > MAX_YEAR)
		*us = INT64_MAX;
	else
	{
		/* within these years the seconds fit easily and the microseconds just do */
		secs = (fs_days_from_civil(y, mo, d) - PG_EPOCH_DAYS) * 86400 + h * 3600 + mi * 60 + se;
		*us = secs < INT64_MAX / 1000000 ? secs * 1000000 + frac : INT64_MAX;
	}
	return (size_t) (neg ? 1 : 0) + ny + i + 1;
}

/* ---------------------------------------------------------------- decayed_usage text */

void
fs_decayed_format(fs_sb *sb, const fs_decayed *d)
{
	char hl[32];
	int n;

	fs_sb_append_double(sb, d->value);
	fs_sb_append(sb, "@", 1);
	fs_format_utc(sb, d->at);
	/* the half-life in seconds, exact to the microsecond */
	n = snprintf(hl, sizeof(hl), "%lld.%06lld", (long long) (d->half_life / 1000000),
	             (long long) (d->half_life % 1000000));
	while (hl[n - 1] == '0')
		n--;
	if (hl[n - 1] == '.')
		n--;
	fs_sb_append(sb, "/", 1);
	fs_sb_append(sb, hl, (size_t) n);
}

static fs_status
decayed_syntax(const char *text, size_t len, const char *what, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for type decayed_usage", text, len, FS_NO_POSITION,
	                      what,
	                      "Write value@YYYY-MM-DDTHH:MM:SSZ/half_life_seconds, for example "
	                      "\"12.5@2026-01-01T00:00:00Z/604800\".");
}

fs_status
fs_decayed_parse(const char *text, size_t len, fs_decayed *d, fs_error *err)
{
	size_t i = fs_scan_number(text, len, &d->value);
	size_t used;
	int64_t secs = 0, frac = 0;
	size_t j, n = 0;

	if (i == 0 || !isfinite(d->value))
		return decayed_syntax(text, len, "The value must be a finite number", err);
	if (i >= len || text[i] != '@')
		return decayed_syntax(text, len, "Expected \"@\" after the value", err);
	used = fs_parse_utc(text + i + 1, len - i - 1, &d->at);
	if (used == 0)
		return decayed_syntax(text, len,
		                      "Expected a UTC timestamp YYYY-MM-DDTHH:MM:SS[.ffffff]Z "
		                      "after \"@\"",
		                      err);
	if (!FS_INSTANT_VALID(d->at))
		return decayed_syntax(text, len,
		                      "The timestamp is out of range: instants go from "
		                      "-4713-11-24T00:00:00Z (4714 BC) to 294276-12-31T23:59:59.999999Z",
		                      err);
	i += 1 + used;
	if (i >= len || text[i] != '/')
		return decayed_syntax(text, len, "Expected \"/\" and the half-life in seconds", err);
	for (j = i + 1; j < len && text[j] >= '0' && text[j] <= '9'; j++, n++)
	{
		/* up to INT64_MAX microseconds, checked below */
		if (n >= 13)
			return decayed_syntax(text, len, "The half-life is too long", err);
		secs = secs * 10 + (text[j] - '0');
	}
	if (n == 0)
		return decayed_syntax(text, len, "Expected the half-life in seconds", err);
	if (j < len && text[j] == '.')
	{
		int64_t scale = 100000;
		size_t k = 0;

		for (j++; j < len && text[j] >= '0' && text[j] <= '9'; j++, k++)
		{
			if (k >= 6)
				return decayed_syntax(text, len, "The half-life has more than 6 decimals", err);
			frac += (text[j] - '0') * scale;
			scale /= 10;
		}
	}
	if (j != len)
		return decayed_syntax(text, len, "Unexpected text after the half-life", err);
	if (secs > (INT64_MAX - frac) / 1000000)
		return decayed_syntax(
		    text, len, "The half-life is too long: at most 9223372036854.775807 seconds", err);
	d->half_life = secs * 1000000 + frac;
	if (d->half_life <= 0)
		return decayed_syntax(text, len, "The half-life must be positive", err);
	if (d->value == 0)
		d->value = 0;
	return FS_OK;
}
