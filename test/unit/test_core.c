/* test_core.c: unit tests of src/core/fs_core.c: the interrupt hook, the keyed hash, number text
 * for every double, message excerpts cut on character boundaries, error context and the small
 * text helpers every parser shares. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t default_key0 = UINT64_C(0x0706050403020100);
static const uint64_t default_key1 = UINT64_C(0x0f0e0d0c0b0a0908);

static size_t polls;

static void
count_poll(void)
{
	polls++;
}

static int
cmp_u32(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	(void) ctx;
	return x < y ? -1 : x > y;
}

static void
test_interrupts(void)
{
	size_t n = 1 << 20, i;
	uint32_t *v = malloc(n * sizeof(uint32_t));
	uint64_t seed = 7;
	bool sorted = true;

	for (i = 0; i < n; i++)
		v[i] = (uint32_t) unit_rand(&seed);
	fs_core_init(count_poll, NULL, default_key0, default_key1);
	polls = 0;
	fs_sort(v, n, sizeof(uint32_t), cmp_u32, NULL, &unit_alloc);
	fs_core_init(NULL, NULL, default_key0, default_key1);
	/* one call per pass and one per 1024 runs in each pass: the sort can be cancelled */
	CHECK(polls >= 20);
	CHECK(polls < n / 100);
	for (i = 1; i < n; i++)
		sorted &= v[i - 1] <= v[i];
	CHECK(sorted);
	free(v);
}

static void
test_hash(void)
{
	uint8_t msg[64];
	uint64_t h0, h1, h2;
	size_t i;
	int bits = 0;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t) i;
	h0 = fs_hash(msg, 15);
	CHECK(h0 == fs_hash(msg, 15));
	CHECK(h0 != fs_hash(msg, 14) && h0 != fs_hash(msg, 16));
	/* another key, another hash: crafted collisions under one key say nothing of the next */
	fs_core_init(NULL, NULL, 1, 2);
	h1 = fs_hash(msg, 15);
	fs_core_init(NULL, NULL, default_key0, default_key1);
	CHECK(h1 != h0);
	CHECK(fs_hash(msg, 15) == h0);
	/* one flipped input bit flips about half the output bits */
	msg[3] ^= 1;
	h2 = fs_hash(msg, 15);
	for (i = 0; i < 64; i++)
		bits += (int) (((h0 ^ h2) >> i) & 1);
	CHECK(bits > 16 && bits < 48);
}

static void
check_double(double v, const char *want)
{
	char buf[FS_DOUBLE_BUFLEN];
	int n = fs_format_double(v, buf);

	CHECK_STR(buf, want);
	CHECK(n == (int) strlen(want));
}

static void
test_doubles(void)
{
	uint64_t seed = 11;
	int i, bad = 0;

	check_double(INFINITY, "Infinity");
	check_double(-INFINITY, "-Infinity");
	check_double(NAN, "NaN");
	check_double(1e308 * 10, "Infinity");
	check_double(5e-324, "5e-324");
	check_double(-1.7976931348623157e308, "-1.7976931348623157e+308");
	/* every finite double reads back exactly */
	for (i = 0; i < 20000; i++)
	{
		uint64_t bits = unit_rand(&seed);
		double v;
		char buf[FS_DOUBLE_BUFLEN];

		memcpy(&v, &bits, sizeof(v));
		if (!isfinite(v))
			continue;
		fs_format_double(v, buf);
		if (strtod(buf, NULL) != v && !(v == 0 && strcmp(buf, "0") == 0))
			bad++;
	}
	CHECK(bad == 0);
}

static void
test_excerpts(void)
{
	char text[300], dst[220];

	/* 199 ASCII bytes, then two-byte characters: the cut at 200 bytes may not split one */
	memset(text, 'x', 199);
	strcpy(text + 199, "\xc3\xa9\xc3\xa9");
	fs_quote_excerpt(dst, sizeof(dst), text, strlen(text), 200);
	CHECK(strlen(dst) == 199 + 3);
	CHECK(strcmp(dst + 199, "...") == 0);
	/* a three-byte character that fits whole stays */
	memset(text, 'x', 197);
	strcpy(text + 197, "\xe2\x82\xac!!");
	fs_quote_excerpt(dst, sizeof(dst), text, strlen(text), 200);
	CHECK(strlen(dst) == 200 + 3);
	/* positions count characters */
	CHECK(fs_char_pos("\xc3\xa9\xc3\xa9x", 4) == 3);
	CHECK(fs_char_pos("abc", 0) == 1);
}

/*
 * fs_scan_number converts the common numbers itself (an integer below 2^53 times a power of ten
 * up to 10^22) and the rest with strtod: every value must be strtod's, bit for bit, and the
 * length read the same as before. Random digit strings around the edges: 15 to 17 digits,
 * decimals, exponents near +-22, signs, zeros.
 */
static void
test_scan_number(void)
{
	static const char *const fixed[] = {"0",
	                                    "-0",
	                                    "+0.000",
	                                    "9007199254740991",
	                                    "9007199254740992",
	                                    "9007199254740993",
	                                    "900719925474099.3",
	                                    "0.1",
	                                    "1e22",
	                                    "1e23",
	                                    "123456789012345e-22",
	                                    "1.7976931348623157e308",
	                                    "4.9e-324",
	                                    "1e-400",
	                                    "1e400",
	                                    "00000000000000000000000000001",
	                                    "3.14159e",
	                                    "12gb",
	                                    "5e+3kb"};
	uint64_t seed = 42;
	size_t k;
	int round, bad = 0;

	for (k = 0; k < sizeof(fixed) / sizeof(fixed[0]) + 200000; k++)
	{
		char text[64];
		size_t n = 0, used;
		double got, want;
		char *end;

		if (k < sizeof(fixed) / sizeof(fixed[0]))
			n = (size_t) snprintf(text, sizeof(text), "%s", fixed[k]);
		else
		{
			int digits = 1 + (int) (unit_rand(&seed) % 19), point = (int) (unit_rand(&seed) % 24);
			int d;

			if (unit_rand(&seed) % 4 == 0)
				text[n++] = unit_rand(&seed) % 2 ? '-' : '+';
			for (d = 0; d < digits; d++)
			{
				if (d == point)
					text[n++] = '.';
				text[n++] = (char) ('0' + unit_rand(&seed) % 10);
			}
			if (unit_rand(&seed) % 3 == 0)
				n += (size_t) snprintf(text + n, sizeof(text) - n, "e%d",
				                       (int) (unit_rand(&seed) % 61) - 30);
			text[n] = '\0';
		}
		used = fs_scan_number(text, n, &got);
		want = strtod(text, &end);
		round = (size_t) (end - text) == used && memcmp(&got, &want, sizeof(double)) == 0;
		if (!round && bad++ < 5)
			printf("     \"%s\": read %zu bytes as %.17g, strtod %zu bytes as %.17g\n", text, used,
			       got, (size_t) (end - text), want);
	}
	CHECK(bad == 0);
}

static void
test_error_context(void)
{
	fs_error err;

	fs_error_clear(&err);
	fs_fail(&err, FS_ERR_KIND, "cannot add amounts of different kinds for resource \"%s\"", "mem");
	fs_error_detail(&err, "The left amount is a size.");
	/* a context line keeps the message, detail and hint as they are */
	fs_error_context(&err, "in placement set \"%s\"", "r1");
	CHECK_STR(err.message, "cannot add amounts of different kinds for resource \"mem\"");
	CHECK_STR(err.detail, "The left amount is a size.");
	CHECK_STR(err.context, "in placement set \"r1\"");
	/* an outer context goes on a line below */
	fs_error_context(&err, "in pool \"%s\"", "a");
	CHECK_STR(err.context, "in placement set \"r1\"\nin pool \"a\"");
	/* the text stays as written, parentheses too */
	fs_error_clear(&err);
	fs_error_context(&err, "(a) and b");
	CHECK_STR(err.context, "(a) and b");
	/* a new error starts without context */
	fs_error_context(&err, "in node %d", 3);
	fs_fail(&err, FS_ERR_VALUE, "another");
	CHECK_STR(err.context, "");
}

static void
test_text_helpers(void)
{
	const char *spaces = " \t\n\v\f\r";
	uint8_t buf[8], *end;
	int c;

	/* the whitespace set is C's isspace in the "C" locale, nothing more */
	for (c = 0; c < 256; c++)
		CHECK(fs_is_space((char) c) == (c != 0 && strchr(spaces, c) != NULL));
	CHECK(!fs_is_space('\0'));
	CHECK(fs_is_digit('0') && fs_is_digit('9') && !fs_is_digit('a') && !fs_is_digit('/'));
	CHECK(fs_ascii_lower('Q') == 'q' && fs_ascii_lower('q') == 'q' && fs_ascii_lower('@') == '@');
	CHECK(fs_ascii_upper('q') == 'Q' && fs_ascii_upper('{') == '{');
	/* a non-ASCII byte is not a letter */
	CHECK(fs_ascii_lower('\xc3') == '\xc3');

	/* byte order: memcmp, then the shorter first; empty strings may have NULL bytes */
	CHECK(fs_bytes_cmp("ab", 2, "abc", 3) < 0);
	CHECK(fs_bytes_cmp("abc", 3, "ab", 2) > 0);
	CHECK(fs_bytes_cmp("abd", 3, "abc", 3) > 0);
	CHECK(fs_bytes_cmp("abc", 3, "abc", 3) == 0);
	CHECK(fs_bytes_cmp(NULL, 0, NULL, 0) == 0);
	CHECK(fs_bytes_cmp(NULL, 0, "a", 1) < 0);
	/* bytes compare unsigned: a UTF-8 lead byte sorts after ASCII */
	CHECK(fs_bytes_cmp("\xc3", 1, "z", 1) > 0);
	{
		fs_str a = {"job.10", 6}, b = {"job.9", 5};

		CHECK(fs_str_cmp(a, b) < 0);
		CHECK(fs_str_cmp(b, a) > 0);
		CHECK(fs_str_cmp(a, a) == 0);
	}

	/* case-insensitive order folds ASCII only; a prefix first */
	CHECK(fs_casecmp("Group_A", 7, "group_a", 7) == 0);
	CHECK(fs_casecmp("group", 5, "Group.sub", 9) < 0);
	CHECK(fs_casecmp("b", 1, "A", 1) > 0);
	/* letters compare folded to lower case: 'A' is 'a' (0x61), after '_' (0x5f) */
	CHECK(fs_casecmp("A", 1, "_", 1) > 0);
	CHECK(fs_casecmp("\xc3\xa9", 2, "\xc3\x89", 2) != 0);

	CHECK(fs_span_eq("total", 5, "total"));
	CHECK(fs_span_eq("totals", 5, "total")); /* only the first len bytes count */
	CHECK(!fs_span_eq("tota", 4, "total"));
	CHECK(!fs_span_eq("Total", 5, "total"));
	CHECK(fs_span_eq(NULL, 0, ""));
	CHECK(fs_span_ieq("Total", 5, "total"));
	CHECK(fs_span_ieq("NON_PRIME", 9, "non_prime"));
	CHECK(!fs_span_ieq("totalx", 6, "total"));
	CHECK(!fs_span_ieq("tot", 3, "total"));

	end = fs_put(buf, "abc", 3);
	end = fs_put(end, NULL, 0);
	end = fs_put(end, "de", 2);
	CHECK(end == buf + 5 && memcmp(buf, "abcde", 5) == 0);

	CHECK_STR(fs_plural(1, "byte", "bytes"), "byte");
	CHECK_STR(fs_plural(0, "byte", "bytes"), "bytes");
	CHECK_STR(fs_plural(2, "byte", "bytes"), "bytes");
	CHECK_STR(fs_plural(UINT64_MAX, "byte", "bytes"), "bytes");
}

void
test_core(void)
{
	test_interrupts();
	test_hash();
	test_doubles();
	test_excerpts();
	test_scan_number();
	test_error_context();
	test_text_helpers();
}
