/*
 * fs_core.c: error records, the string builder and number text shared by every core module.
 * Number text is independent of locale as long as LC_NUMERIC is "C", which the PostgreSQL
 * backend guarantees and the unit tests and fuzzers never change.
 */
#include "fs_core.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fs_interrupt_fn fs_interrupt_hook = NULL;

static int
utf8_len(const char *s)
{
	unsigned char c = (unsigned char) *s;

	return c < 0x80             ? 1
	       : (c & 0xE0) == 0xC0 ? 2
	       : (c & 0xF0) == 0xE0 ? 3
	       : (c & 0xF8) == 0xF0 ? 4
	                            : 1;
}

static fs_mblen_fn char_len = utf8_len;

/* a fixed key until fs_core_init: the unit tests and fuzzers run with it */
static uint64_t hash_key0 = UINT64_C(0x0706050403020100);
static uint64_t hash_key1 = UINT64_C(0x0f0e0d0c0b0a0908);

void
fs_core_init(fs_interrupt_fn hook, fs_mblen_fn mblen, uint64_t key0, uint64_t key1)
{
	fs_interrupt_hook = hook;
	char_len = mblen ? mblen : utf8_len;
	hash_key0 = key0;
	hash_key1 = key1;
}

#define ROTL64(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIP_ROUND(v0, v1, v2, v3)                                                                  \
	do                                                                                             \
	{                                                                                              \
		v0 += v1;                                                                                  \
		v1 = ROTL64(v1, 13);                                                                       \
		v1 ^= v0;                                                                                  \
		v0 = ROTL64(v0, 32);                                                                       \
		v2 += v3;                                                                                  \
		v3 = ROTL64(v3, 16);                                                                       \
		v3 ^= v2;                                                                                  \
		v0 += v3;                                                                                  \
		v3 = ROTL64(v3, 21);                                                                       \
		v3 ^= v0;                                                                                  \
		v2 += v1;                                                                                  \
		v1 = ROTL64(v1, 17);                                                                       \
		v1 ^= v2;                                                                                  \
		v2 = ROTL64(v2, 32);                                                                       \
	} while (0)

/* little-endian load of n <= 8 bytes, whatever the host order */
static uint64_t
load_le(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	while (n-- > 0)
		w = (w << 8) | p[n];
	return w;
}

uint64_t
fs_hash(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t v0 = hash_key0 ^ UINT64_C(0x736f6d6570736575);
	uint64_t v1 = hash_key1 ^ UINT64_C(0x646f72616e646f6d);
	uint64_t v2 = hash_key0 ^ UINT64_C(0x6c7967656e657261);
	uint64_t v3 = hash_key1 ^ UINT64_C(0x7465646279746573);
	size_t left = len;
	uint64_t m;

	for (; left >= 8; p += 8, left -= 8)
	{
		m = load_le(p, 8);
		v3 ^= m;
		SIP_ROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	m = ((uint64_t) len << 56) | load_le(p, left);
	v3 ^= m;
	SIP_ROUND(v0, v1, v2, v3);
	v0 ^= m;
	v2 ^= 0xff;
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

void
fs_error_clear(fs_error *err)
{
	err->status = FS_OK;
	err->message[0] = '\0';
	err->detail[0] = '\0';
	err->hint[0] = '\0';
	err->context[0] = '\0';
}

fs_status
fs_fail(fs_error *err, fs_status status, const char *fmt, ...)
{
	va_list ap;

	err->status = status;
	err->detail[0] = '\0';
	err->hint[0] = '\0';
	err->context[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return status;
}

void
fs_error_detail(fs_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void
fs_error_hint(fs_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
	va_end(ap);
}

void
fs_error_context(fs_error *err, const char *fmt, ...)
{
	char line[FS_MSG_LEN];
	size_t len, used = strlen(err->context);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	len = strlen(line);
	if (used > 0)
	{
		if (used + 2 >= sizeof(err->context))
			return;
		err->context[used++] = '\n';
	}
	if (len > sizeof(err->context) - 1 - used)
		len = sizeof(err->context) - 1 - used;
	memcpy(err->context + used, line, len);
	err->context[used + len] = '\0';
}

fs_status
fs_fail_syntax(fs_error *err, const char *subject, const char *text, size_t len, size_t at,
               const char *problem, const char *hint)
{
	char shown[220];

	fs_quote_excerpt(shown, sizeof(shown), text, len, 200);
	fs_fail(err, FS_ERR_SYNTAX, "invalid %s: \"%s\"", subject, shown);
	if (at == FS_NO_POSITION)
		fs_error_detail(err, "%s.", problem);
	else if (at >= len)
		fs_error_detail(err, "%s at end of input.", problem);
	else
		fs_error_detail(err, "%s at character %zu.", problem, fs_char_pos(text, at));
	fs_error_hint(err, "%s", hint);
	return FS_ERR_SYNTAX;
}

fs_status
fs_error_as_input(fs_error *err, const char *type, const char *text, size_t len)
{
	char shown[220];
	static const char input_syntax[] = "invalid input syntax for type ";
	fs_error was = *err;
	bool nested = strncmp(was.message, input_syntax, sizeof(input_syntax) - 1) == 0;

	fs_quote_excerpt(shown, sizeof(shown), text, len, 200);
	fs_fail(err, FS_ERR_SYNTAX, "invalid input syntax for type %s: \"%s\"", type, shown);
	was.message[0] = fs_ascii_upper(was.message[0]);
	/* a value of another type inside this one: its problem, not its message, and the context
	 * says which value it is */
	if (nested && was.detail[0])
		fs_error_detail(err, "%s", was.detail);
	else if (was.detail[0])
		fs_error_detail(err, "%s. %s", was.message, was.detail);
	else
		fs_error_detail(err, "%s.", was.message);
	memcpy(err->hint, was.hint, sizeof(err->hint));
	memcpy(err->context, was.context, sizeof(err->context));
	return FS_ERR_SYNTAX;
}

/* Bytes of the whole characters of s[0..len) that fit in `max` bytes. */
static size_t
char_boundary(const char *s, size_t len, size_t max)
{
	size_t i = 0;

	if (len <= max)
		return len;
	for (;;)
	{
		size_t l = (size_t) char_len(s + i);

		if (l == 0)
			l = 1;
		if (i + l > max)
			return i;
		i += l;
	}
}

void
fs_quote_excerpt(char *dst, size_t cap, const char *s, size_t len, size_t max)
{
	size_t n;

	if (max + 4 > cap)
		max = cap > 4 ? cap - 4 : 0;
	n = char_boundary(s, len, max);
	memcpy(dst, s, n);
	if (n < len)
	{
		memcpy(dst + n, "...", 3);
		n += 3;
	}
	dst[n] = '\0';
}

size_t
fs_char_pos(const char *text, size_t off)
{
	size_t pos = 1;
	size_t i = 0;

	while (i < off)
	{
		size_t l = (size_t) char_len(text + i);

		i += l ? l : 1;
		pos++;
	}
	/* an offset inside a character counts as that character */
	return i > off ? pos - 1 : pos;
}

bool
fs_read_span(fs_reader *r, size_t n, const uint8_t **at)
{
	if ((size_t) (r->end - r->p) < n)
		return false;
	*at = r->p;
	r->p += n;
	return true;
}

bool
fs_read(fs_reader *r, void *dst, size_t n)
{
	const uint8_t *at;

	if (!fs_read_span(r, n, &at))
		return false;
	memcpy(dst, at, n);
	return true;
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian; H. Hinnant's algorithm). */
int64_t
fs_days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
fs_civil_from_days(int64_t z, int64_t *y, int64_t *m, int64_t *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

uint64_t
fs_double_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

double
fs_bits_double(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

uint8_t *
fs_put_be(uint8_t *p, uint64_t v, int bytes)
{
	int i;

	for (i = bytes - 1; i >= 0; i--)
		*p++ = (uint8_t) (v >> (8 * i));
	return p;
}

uint8_t *
fs_put_be_double(uint8_t *p, double d)
{
	return fs_put_be(p, fs_double_bits(d), 8);
}

uint64_t
fs_get_be(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

bool
fs_read_be(fs_reader *r, int bytes, uint64_t *v)
{
	const uint8_t *at;

	if (!fs_read_span(r, (size_t) bytes, &at))
		return false;
	*v = fs_get_be(at, bytes);
	return true;
}

bool
fs_read_be_double(fs_reader *r, double *d)
{
	uint64_t v;

	if (!fs_read_be(r, 8, &v))
		return false;
	*d = fs_bits_double(v);
	return true;
}

void
fs_sb_init(fs_sb *sb, const fs_allocator *a, size_t reserve)
{
	sb->a = a;
	sb->cap = reserve < 16 ? 16 : reserve;
	sb->data = a->alloc(a->ctx, sb->cap);
	sb->len = 0;
	sb->data[0] = '\0';
}

void
fs_sb_reserve(fs_sb *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t cap = sb->cap;
	char *data;

	if (need <= cap)
		return;
	while (cap < need)
		cap *= 2;
	data = sb->a->alloc(sb->a->ctx, cap);
	memcpy(data, sb->data, sb->len + 1);
	sb->a->release(sb->a->ctx, sb->data);
	sb->data = data;
	sb->cap = cap;
}

void
fs_sb_append(fs_sb *sb, const char *s, size_t n)
{
	fs_sb_reserve(sb, n);
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void
fs_sb_appendf(fs_sb *sb, const char *fmt, ...)
{
	char small[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t) n < sizeof(small))
	{
		fs_sb_append(sb, small, (size_t) n);
		return;
	}
	fs_sb_reserve(sb, (size_t) n);
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t) n;
}

void
fs_sb_append_double(fs_sb *sb, double v)
{
	char buf[FS_DOUBLE_BUFLEN];
	int n = fs_format_double(v, buf);

	fs_sb_append(sb, buf, (size_t) n);
}

int
fs_format_double(double v, char *buf)
{
	int prec;
	int exp10;
	char *e;

	if (isnan(v))
		return snprintf(buf, FS_DOUBLE_BUFLEN, "NaN");
	if (isinf(v))
		return snprintf(buf, FS_DOUBLE_BUFLEN, "%s", v < 0 ? "-Infinity" : "Infinity");
	if (v == 0)
	{
		/* -0 and 0 print alike: amounts are canonicalised to +0 on input */
		buf[0] = '0';
		buf[1] = '\0';
		return 1;
	}
	/* integers below 10^15 print as such: the common case in accounting data, and fast */
	if (v == floor(v) && fabs(v) < 1e15)
	{
		char digits[24];
		int64_t n = (int64_t) fabs(v);
		int len = 0;
		int i = 0;

		while (n > 0)
		{
			digits[len++] = (char) ('0' + n % 10);
			n /= 10;
		}
		if (v < 0)
			buf[i++] = '-';
		while (len > 0)
			buf[i++] = digits[--len];
		buf[i] = '\0';
		return i;
	}
	/* the fewest significant digits that read back exactly; 17 always do */
	for (prec = 1; prec < 17; prec++)
	{
		snprintf(buf, FS_DOUBLE_BUFLEN, "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, FS_DOUBLE_BUFLEN, "%.*e", prec - 1, v);
	e = strchr(buf, 'e');
	exp10 = atoi(e + 1);
	/* positional notation where PostgreSQL's float8out uses it, exponent notation elsewhere */
	if (exp10 >= -4 && exp10 < 15)
		return snprintf(buf, FS_DOUBLE_BUFLEN, "%.*f", prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0,
		                v);
	return snprintf(buf, FS_DOUBLE_BUFLEN, "%.*g", prec, v);
}

size_t
fs_scan_number(const char *s, size_t len, double *value)
{
	char local[1024];
	size_t i = 0;
	size_t digits = 0;
	uint64_t mantissa = 0; /* the digits as an integer, while it stays below 2^53 */
	bool exact = true;
	int scale = 0; /* the value is mantissa * 10^scale */
	bool negative;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	negative = i > 0 && s[0] == '-';
	while (i < len && s[i] >= '0' && s[i] <= '9')
	{
		exact = exact && mantissa < (UINT64_C(1) << 53) / 10;
		mantissa = mantissa * 10 + (uint64_t) (s[i] - '0');
		i++, digits++;
	}
	if (i < len && s[i] == '.')
	{
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
		{
			exact = exact && mantissa < (UINT64_C(1) << 53) / 10;
			mantissa = mantissa * 10 + (uint64_t) (s[i] - '0');
			scale--;
			i++, digits++;
		}
	}
	if (digits == 0)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		size_t j = i + 1;
		size_t expdigits = 0;
		bool expneg = j < len && s[j] == '-';
		int e = 0;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		while (j < len && s[j] >= '0' && s[j] <= '9')
		{
			e = e < 1000 ? e * 10 + (s[j] - '0') : e;
			j++, expdigits++;
		}
		/* "4e" or "4eb" is not an exponent: leave it for the caller (a unit suffix, or junk) */
		if (expdigits > 0)
		{
			i = j;
			scale += expneg ? -e : e;
		}
	}
	if (i >= sizeof(local))
	{
		*value = NAN;
		return i;
	}
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	/*
	 * Clinger's fast path: an integer below 2^53 and a power of ten up to 10^22 are exact
	 * doubles, so one IEEE multiplication or division of them is the correctly rounded value,
	 * which is what strtod returns (amounts are mostly such numbers: whole, or a few decimals).
	 */
	if (exact && scale >= -22 && scale <= 22)
	{
		static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
		                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
		                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
		double m = (double) mantissa;
		double v = scale < 0 ? m / pow10[-scale] : m * pow10[scale];

		*value = negative ? -v : v;
		return i;
	}
#endif
	memcpy(local, s, i);
	local[i] = '\0';
	*value = strtod(local, NULL);
	return i;
}

/* One bottom-up merge pass: merge each pair of sorted runs of `width` from src into dst. */
static void
merge_pass(char *src, char *dst, size_t n, size_t size, size_t width, fs_cmp_fn cmp, void *ctx)
{
	size_t lo, runs = 0;

	for (lo = 0; lo < n; lo += 2 * width)
	{
		size_t mid = lo + width < n ? lo + width : n;
		size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
		size_t i = lo, j = mid, k = lo;

		FS_POLL(runs++);
		while (i < mid && j < hi)
		{
			/* take from the left run on ties: stable */
			if (cmp(src + j * size, src + i * size, ctx) < 0)
				memcpy(dst + (k++) * size, src + (j++) * size, size);
			else
				memcpy(dst + (k++) * size, src + (i++) * size, size);
		}
		memcpy(dst + k * size, src + i * size, (mid - i) * size);
		k += mid - i;
		memcpy(dst + k * size, src + j * size, (hi - j) * size);
	}
}

/*
 * Insertion-sort each run of `run` elements of base in place (stable: an element moves left only
 * past greater ones), with `tmp` for one element: the first pass of fs_sort, cheaper than three
 * merge passes on the short arrays the line parsers sort. O(n * run) comparisons.
 */
static void
sort_runs(char *base, size_t n, size_t size, size_t run, fs_cmp_fn cmp, void *ctx, char *tmp)
{
	size_t lo, i;

	for (lo = 0; lo < n; lo += run)
	{
		size_t hi = lo + run < n ? lo + run : n;

		FS_POLL(lo);
		for (i = lo + 1; i < hi; i++)
		{
			size_t j = i;

			if (cmp(base + (i - 1) * size, base + i * size, ctx) <= 0)
				continue;
			memcpy(tmp, base + i * size, size);
			while (j > lo && cmp(base + (j - 1) * size, tmp, ctx) > 0)
				j--;
			memmove(base + (j + 1) * size, base + j * size, (i - j) * size);
			memcpy(base + j * size, tmp, size);
		}
	}
}

#define FS_SORT_RUN 8

void
fs_sort(void *base, size_t n, size_t size, fs_cmp_fn cmp, void *ctx, const fs_allocator *a)
{
	char *buf, *src, *dst;
	size_t width;

	if (n < 2)
		return;
	buf = a->alloc(a->ctx, n * size);
	sort_runs(base, n, size, FS_SORT_RUN, cmp, ctx, buf);
	src = base;
	dst = buf;
	for (width = FS_SORT_RUN; width < n; width *= 2)
	{
		char *tmp;

		fs_check_interrupts();
		merge_pass(src, dst, n, size, width, cmp, ctx);
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != base)
		memcpy(base, src, n * size);
	a->release(a->ctx, buf);
}

/* ---------------------------------------------------------------- strings and a hash index */

int
fs_bytes_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
	int c = alen == 0 || blen == 0 ? 0 : memcmp(a, b, alen < blen ? alen : blen);

	return c != 0 ? c : (alen > blen) - (alen < blen);
}

int
fs_casecmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i, n = alen < blen ? alen : blen;

	for (i = 0; i < n; i++)
	{
		unsigned char x = (unsigned char) fs_ascii_lower(a[i]);
		unsigned char y = (unsigned char) fs_ascii_lower(b[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return (alen > blen) - (alen < blen);
}

const char *
fs_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

bool
fs_str_eq(fs_str a, fs_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

int
fs_str_cmp(fs_str a, fs_str b)
{
	return fs_bytes_cmp(a.s, a.len, b.s, b.len);
}

uint64_t
fs_str_hash(fs_str s)
{
	return fs_hash(s.s ? s.s : "", s.len);
}

bool
fs_str_array_eq(const void *ctx, uint32_t entry, const void *key)
{
	return fs_str_eq(((const fs_str *) ctx)[entry], *(const fs_str *) key);
}

void
fs_hindex_init(fs_hindex *h, size_t n, const fs_allocator *a)
{
	size_t size = 16;

	while (size < 2 * n)
		size *= 2;
	h->slots = a->alloc(a->ctx, sizeof(uint32_t) * size);
	memset(h->slots, 0, sizeof(uint32_t) * size);
	h->mask = size - 1;
}

uint32_t
fs_hindex_put(fs_hindex *h, uint64_t hash, const void *key, uint32_t entry, fs_hindex_eq eq,
              const void *ctx)
{
	size_t i = (size_t) hash & h->mask;

	while (h->slots[i] != 0)
	{
		if (eq(ctx, h->slots[i] - 1, key))
			return h->slots[i] - 1;
		i = (i + 1) & h->mask;
	}
	h->slots[i] = entry + 1;
	return entry;
}

uint32_t
fs_hindex_get(const fs_hindex *h, uint64_t hash, const void *key, fs_hindex_eq eq, const void *ctx)
{
	size_t i = (size_t) hash & h->mask;

	while (h->slots[i] != 0)
	{
		if (eq(ctx, h->slots[i] - 1, key))
			return h->slots[i] - 1;
		i = (i + 1) & h->mask;
	}
	return UINT32_MAX;
}

bool
fs_parse_digits(const char *s, size_t len, int64_t max, int64_t *out)
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

void *
fs_grow(const fs_allocator *a, void *arr, size_t n, size_t *cap, size_t size)
{
	void *bigger;

	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 8;
	bigger = a->alloc(a->ctx, *cap * size);
	if (n)
		memcpy(bigger, arr, n * size);
	if (arr)
		a->release(a->ctx, arr);
	return bigger;
}
