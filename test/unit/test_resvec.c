/* test_resvec.c: unit tests of src/core/types/resvec.c: grammar, canonical text, arithmetic. */
#include "unit.h"
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse `in`; on success return the canonical text (caller frees), else NULL with err set. */
static char *
canon(const char *in, fs_error *err)
{
	uint8_t *rv;
	size_t len;
	fs_sb sb;

	if (fs_rv_parse(in, strlen(in), &unit_alloc, 0, &rv, &len, err) != FS_OK)
		return NULL;
	fs_sb_init(&sb, &unit_alloc, 16);
	fs_rv_format(&sb, rv);
	free(rv);
	return sb.data;
}

static void
check_canon(const char *in, const char *want)
{
	fs_error err;
	char *got = canon(in, &err);

	if (!CHECK_STR(got, want) && got == NULL)
		printf("     error: %s / %s\n", err.message, err.detail);
	if (got)
	{
		/* the canonical text is a fixed point */
		char *again = canon(got, &err);

		CHECK_STR(again, got);
		free(again);
	}
	free(got);
}

/* Parse must fail with `status` and a message or detail containing `needle`. */
static void
check_error(const char *in, fs_status status, const char *needle)
{
	fs_error err;
	char *got = canon(in, &err);
	char all[3 * FS_MSG_LEN + 4];

	if (!CHECK(got == NULL))
	{
		printf("     input \"%s\" parsed as \"%s\"\n", in, got);
		free(got);
		return;
	}
	snprintf(all, sizeof(all), "%s | %s | %s", err.message, err.detail, err.hint);
	if (!CHECK(err.status == status) || !CHECK(strstr(all, needle) != NULL))
		printf("     input \"%s\": status %d, \"%s\"\n", in, err.status, all);
}

static uint8_t *
parse(const char *in)
{
	fs_error err;
	uint8_t *rv = NULL;
	size_t len;

	if (fs_rv_parse(in, strlen(in), &unit_alloc, 0, &rv, &len, &err) != FS_OK)
	{
		printf("     unexpected error for \"%s\": %s\n", in, err.message);
		exit(2);
	}
	return rv;
}

static void
check_op(const char *a, const char *b, double sign, const char *want)
{
	uint8_t *x = parse(a), *y = parse(b), *r;
	size_t len;
	fs_error err;

	if (CHECK(fs_rv_add(x, y, sign, &unit_alloc, 0, &r, &len, &err) == FS_OK))
	{
		char *t = unit_rv_text(r);

		CHECK_STR(t, want);
		CHECK(len == fs_rv_size(r));
		free(t);
		free(r);
	}
	free(x);
	free(y);
}

static void
test_grammar(void)
{
	/* both accounting forms load verbatim */
	check_canon("cpu=4,mem=16G,node=1,gres/gpu:a100=1,billing=4",
	            "billing=4,cpu=4,gres/gpu:a100=1,mem=16gb,node=1");
	check_canon("ncpus=4,mem=8gb,walltime=01:00:00", "mem=8gb,ncpus=4,walltime=01:00:00");
	check_canon("", "");
	check_canon("   ", "");
	check_canon("{}", "");
	check_canon(" { ncpus = 4 , mem = 8GB } ", "mem=8gb,ncpus=4");
	check_canon("a=0", "a=0");
	check_canon("a=-0", "a=0");
	check_canon("a=+2.5e3", "a=2500");
	check_canon("a=1e-7", "a=1e-07");
	check_canon("a=0.1", "a=0.1");
	check_canon("x=0.30000000000000004", "x=0.30000000000000004");
	check_canon("_x.y/z:w-1=3", "_x.y/z:w-1=3");
	/* sizes: powers of 1024, the largest unit that keeps an integer */
	check_canon("m=1536M", "m=1536mb");
	check_canon("m=1.5g", "m=1536mb");
	check_canon("m=100b", "m=100b");
	check_canon("m=1024", "m=1024");
	check_canon("m=1024b", "m=1kb");
	check_canon("m=0kb", "m=0b");
	check_canon("m=2PB", "m=2pb");
	check_canon("m=2048pb", "m=2048pb");
	check_canon("m=0.3k", "m=307.2b");
	check_canon("m=-8g", "m=-8gb");
	check_canon("m=1e3tb", "m=1000tb");
	check_canon("m=4t", "m=4tb");
	/* durations */
	check_canon("w=1:00:00", "w=01:00:00");
	check_canon("w=90:00", "w=01:30:00");
	check_canon("w=00:00:05.5", "w=00:00:05.5");
	check_canon("w=100:00:00", "w=100:00:00");
	check_canon("w=75:00", "w=01:15:00");
	check_canon("w=1:59:59.5", "w=01:59:59.5");
	check_canon("w=-01:00:00", "w=-01:00:00");
	check_canon("w=0:0:0", "w=00:00:00");
	check_canon("w=01:02:03.000001", "w=01:02:03.000001");
	check_canon("w=0:0:1e-9", "w=00:00:00.000000001");
	check_canon("w=0:0:1e-20", "w=00:00:1e-20");
	check_canon("w=2501999792983:36:31", "w=2501999792983:36:31"); /* 2^53 - 1 seconds */
	check_canon("w=-2501999792983:36:31", "w=-2501999792983:36:31");
	check_canon("w=0:0:59.99999999999999", "w=00:00:59.99999999999999");
	/* PBS words are 8 bytes; Slurm remote licenses have "@" in the name */
	check_canon("mem=512kw", "mem=4mb");
	check_canon("mem=1w,swap=3W", "mem=8b,swap=24b");
	check_canon("license/matlab@db=2", "license/matlab@db=2");
	check_error("@x=1", FS_ERR_SYNTAX, "Expected a resource name");
	/* names sort by bytes, uppercase first */
	check_canon("b=1,B=2,a=3", "B=2,a=3,b=1");
}

static void
test_errors(void)
{
	check_error("ncpus", FS_ERR_SYNTAX, "Expected \"=\" after resource name \"ncpus\" at end");
	check_error("ncpus 4", FS_ERR_SYNTAX, "at character 7");
	check_error("=4", FS_ERR_SYNTAX, "Missing resource name before \"=\" at character 1");
	check_error("a=1,", FS_ERR_SYNTAX, "Expected a resource name");
	check_error("a=1,,b=2", FS_ERR_SYNTAX, "at character 5");
	check_error("a=", FS_ERR_SYNTAX, "Missing amount for resource \"a\"");
	check_error("a=abc", FS_ERR_SYNTAX, "Invalid amount \"abc\" for resource \"a\"");
	check_error("a=1.2.3", FS_ERR_SYNTAX, "Unknown unit \".3\"");
	check_error("mem=8xb", FS_ERR_SYNTAX, "Unknown unit \"xb\"");
	check_error("a=NaN", FS_ERR_SYNTAX, "not finite");
	check_error("a=-Infinity", FS_ERR_SYNTAX, "not finite");
	check_error("a=inf", FS_ERR_SYNTAX, "not finite");
	check_error("a=1e400", FS_ERR_SYNTAX, "out of range");
	check_error("a=1e300pb", FS_ERR_SYNTAX, "out of range");
	check_error("a=1,b=2,a=3", FS_ERR_SYNTAX, "Resource \"a\" appears more than once");
	check_error("a=1,b=2,a=3", FS_ERR_SYNTAX, "at character 9");
	/* one primary message for every problem of the text input, the problem in the detail */
	check_error("a=abc", FS_ERR_SYNTAX,
	            "invalid input syntax for type resvec: \"a=abc\" | Invalid");
	check_error("a=inf", FS_ERR_SYNTAX, "invalid input syntax for type resvec: \"a=inf\" | Amount");
	check_error(
	    "w=99999999999999999999:00:00", FS_ERR_SYNTAX,
	    "invalid input syntax for type resvec: \"w=99999999999999999999:00:00\" | Duration");
	check_error("a=1,a=2", FS_ERR_SYNTAX,
	            "invalid input syntax for type resvec: \"a=1,a=2\" | Resource");
	check_error("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234=1", FS_ERR_SYNTAX,
	            "is 64 bytes long");
	check_error("1a=1", FS_ERR_SYNTAX, "Expected a resource name");
	check_error("a=1 b=2", FS_ERR_SYNTAX, "Expected \",\" between resources at character 5");
	check_error("{a=1", FS_ERR_SYNTAX, "Expected \"}\" at end");
	check_error("{a=1} x", FS_ERR_SYNTAX, "after \"}\" at character 7");
	check_error("a=1}", FS_ERR_SYNTAX, "at character 4");
	check_error("w=1::00", FS_ERR_SYNTAX, "Invalid duration");
	check_error("w=1:00:00:00", FS_ERR_SYNTAX, "Invalid duration");
	check_error("w=1:-5", FS_ERR_SYNTAX, "Invalid duration");
	check_error("w=1:00gb", FS_ERR_SYNTAX, "Invalid duration");
	/* minutes and seconds of the clock stay below 60 after the first field */
	check_error("a=1:99:99", FS_ERR_SYNTAX, "must be below 60");
	check_error("a=0:75", FS_ERR_SYNTAX, "must be below 60");
	check_error("a=1:60", FS_ERR_SYNTAX, "must be below 60");
	check_error("a=1:00:59.9999999999999999", FS_ERR_SYNTAX, "must be below 60");
	check_error("w=0:0:1e20", FS_ERR_SYNTAX, "must be below 60");
	check_error("w=2501999792983:36:32", FS_ERR_SYNTAX, "285 million years");
	check_error("w=99999999999999999999:00:00", FS_ERR_SYNTAX, "out of range");
	/* no allocation sized from text not yet parsed: commas alone make no entries */
	check_error("a=1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,", FS_ERR_SYNTAX,
	            "at character 5");
	/* positions count characters, not bytes */
	check_error("\xc3\xa9=1", FS_ERR_SYNTAX, "at character 1");
	check_error("a=1,\xc3\xa9\xc3\xa9 b", FS_ERR_SYNTAX, "at character 5");
	check_error("a=\xc3\xa9,b", FS_ERR_SYNTAX, "The amount starts at character 3");
}

static void
test_arithmetic(void)
{
	uint8_t *a, *b, *r;
	size_t len;
	fs_error err;
	bool fits;
	double share;
	fs_rv_item which;
	bool found;

	check_op("ncpus=4,mem=8gb", "ncpus=2,ngpus=1", 1, "mem=8gb,ncpus=6,ngpus=1");
	check_op("ncpus=4,mem=8gb", "ncpus=4", -1, "mem=8gb,ncpus=0");
	check_op("", "a=1", -1, "a=-1");
	check_op("w=01:00:00", "w=00:30:00", 1, "w=01:30:00");
	check_op("a=0", "", -1, "a=0");

	/* kinds must agree */
	a = parse("mem=8gb");
	b = parse("mem=8");
	CHECK(fs_rv_add(a, b, 1, &unit_alloc, 0, &r, &len, &err) == FS_ERR_KIND);
	CHECK(strstr(err.message, "resource \"mem\"") != NULL);
	CHECK(strstr(err.detail, "size") != NULL && strstr(err.detail, "count") != NULL);
	CHECK(fs_rv_fits(a, b, &fits, &err) == FS_ERR_KIND);
	free(a);
	free(b);

	/* overflow to infinity is an error naming the resource */
	a = parse("x=1e308,y=1");
	CHECK(fs_rv_add(a, a, 1, &unit_alloc, 0, &r, &len, &err) == FS_ERR_RANGE);
	CHECK(strstr(err.message, "\"x\"") != NULL);
	CHECK(fs_rv_scale(a, 10, false, &unit_alloc, 0, &r, &len, &err) == FS_ERR_RANGE);
	CHECK(fs_rv_scale(a, 0, true, &unit_alloc, 0, &r, &len, &err) == FS_ERR_DIVZERO);
	CHECK(fs_rv_scale(a, NAN, false, &unit_alloc, 0, &r, &len, &err) == FS_ERR_RANGE);
	if (CHECK(fs_rv_scale(a, -0.5, false, &unit_alloc, 0, &r, &len, &err) == FS_OK))
	{
		char *t = unit_rv_text(r);

		CHECK_STR(t, "x=-5e+307,y=-0.5");
		free(t);
		free(r);
	}
	free(a);

	/* scaling zero by a negative number gives +0, not -0 */
	a = parse("x=0,m=4gb");
	if (CHECK(fs_rv_scale(a, -1, false, &unit_alloc, 0, &r, &len, &err) == FS_OK))
	{
		uint8_t *z = parse("x=0,m=-4gb");

		CHECK(len == fs_rv_size(z) && memcmp(r, z, len) == 0);
		free(z);
		free(r);
	}
	if (CHECK(fs_rv_scale(a, 4, true, &unit_alloc, 0, &r, &len, &err) == FS_OK))
	{
		char *t = unit_rv_text(r);

		CHECK_STR(t, "m=1gb,x=0");
		free(t);
		free(r);
	}
	free(a);

	/* fits: absent counts as 0 on both sides */
	a = parse("ncpus=4,mem=8gb");
	b = parse("ncpus=8,mem=8gb,ngpus=1");
	CHECK(fs_rv_fits(a, b, &fits, &err) == FS_OK && fits);
	CHECK(fs_rv_fits(b, a, &fits, &err) == FS_OK && !fits);
	free(b);
	b = parse("ncpus=8");
	CHECK(fs_rv_fits(a, b, &fits, &err) == FS_OK && !fits);
	free(b);
	b = parse("ncpus=8,mem=8gb,x=-1");
	CHECK(fs_rv_fits(a, b, &fits, &err) == FS_OK && !fits);
	free(b);
	b = parse("");
	CHECK(fs_rv_fits(b, a, &fits, &err) == FS_OK && fits);
	free(b);

	/* get */
	CHECK(fs_rv_get(a, "mem", 3, &which) && which.amount == 8589934592.0 &&
	      which.kind == FS_KIND_SIZE);
	CHECK(!fs_rv_get(a, "me", 2, &which));
	CHECK(!fs_rv_get(a, "zzz", 3, &which));

	/* dominant share: resources absent from or zero in the total are ignored */
	b = parse("ncpus=64,mem=64gb,ngpus=0");
	free(a);
	a = parse("ncpus=4,mem=32gb,ngpus=2,licenses=1");
	CHECK(fs_rv_dominant(a, b, &share, &which, &found, &err) == FS_OK && found);
	CHECK_DBL(share, 0.5, 0);
	CHECK(which.namelen == 3 && memcmp(which.name, "mem", 3) == 0);
	free(a);
	a = parse("licenses=1");
	CHECK(fs_rv_dominant(a, b, &share, &which, &found, &err) == FS_OK && !found && share == 0);
	free(a);
	a = parse("ncpus=16,mem=16gb");
	CHECK(fs_rv_dominant(a, b, &share, &which, &found, &err) == FS_OK && found);
	CHECK(share == 0.25 && which.namelen == 3 && memcmp(which.name, "mem", 3) == 0);
	free(a);
	a = parse("mem=4");
	CHECK(fs_rv_dominant(a, b, &share, &which, &found, &err) == FS_ERR_KIND);
	free(a);
	free(b);
}

static void
test_inplace_and_order(void)
{
	uint8_t *s = parse("a=1,b=2gb");
	uint8_t *v = parse("a=2,b=1gb");
	uint8_t *w = parse("a=2,c=1");
	uint8_t *k = parse("a=2,b=1");
	uint8_t *big = parse("a=1e308,b=0gb");
	size_t sl = fs_rv_size(s);
	fs_error err;
	char *t;

	CHECK(fs_rv_add_inplace(s, sl, v, fs_rv_size(v), &err) == 1);
	t = unit_rv_text(s);
	CHECK_STR(t, "a=3,b=3gb");
	free(t);
	CHECK(fs_rv_add_inplace(s, sl, w, fs_rv_size(w), &err) == 0);
	CHECK(fs_rv_add_inplace(s, sl, k, fs_rv_size(k), &err) == 0);
	t = unit_rv_text(s);
	CHECK_STR(t, "a=3,b=3gb");
	free(t);
	CHECK(fs_rv_add_inplace(big, fs_rv_size(big), big, fs_rv_size(big), &err) == -1);

	/* a row with some of the state's names adds in place; the rest stays as it was */
	{
		uint8_t *st = parse("a=1,bb=2gb,c=3,d=01:00:00");
		size_t stl = fs_rv_size(st);
		uint8_t *sub = parse("bb=1gb,d=00:30");
		uint8_t *first = parse("a=-1");
		uint8_t *none = parse("");
		uint8_t *missing = parse("b=1,c=1");  /* "b" is not in the state */
		uint8_t *kind = parse("c=1,d=1gb");   /* d is a duration there: untouched, 0 */
		uint8_t *last = parse("a=1,c=1,e=1"); /* "e" sorts after every state name */
		uint8_t *over = parse("c=1.7976931348623157e308,d=00:00");
		uint8_t *sum = NULL;
		size_t suml;

		CHECK(fs_rv_add_inplace(st, stl, sub, fs_rv_size(sub), &err) == 1);
		CHECK(fs_rv_add_inplace(st, stl, first, fs_rv_size(first), &err) == 1);
		CHECK(fs_rv_add_inplace(st, stl, none, fs_rv_size(none), &err) == 1);
		t = unit_rv_text(st);
		CHECK_STR(t, "a=0,bb=3gb,c=3,d=01:00:30"); /* 1 + -1 is stored as +0 */
		free(t);
		CHECK(fs_rv_add_inplace(st, stl, missing, fs_rv_size(missing), &err) == 0);
		CHECK(fs_rv_add_inplace(st, stl, kind, fs_rv_size(kind), &err) == 0);
		CHECK(fs_rv_add_inplace(st, stl, last, fs_rv_size(last), &err) == 0);
		t = unit_rv_text(st);
		CHECK_STR(t, "a=0,bb=3gb,c=3,d=01:00:30");
		free(t);
		/* the same sum as fs_rv_add gives, byte for byte */
		if (!CHECK(fs_rv_add(st, sub, 1, &unit_alloc, 0, &sum, &suml, &err) == FS_OK))
			printf("     %s\n", err.message);
		CHECK(fs_rv_add_inplace(st, stl, sub, fs_rv_size(sub), &err) == 1);
		CHECK(suml == stl && memcmp(sum, st, stl) == 0);
		free(sum);
		CHECK(fs_rv_add_inplace(st, stl, over, fs_rv_size(over), &err) == 1);
		CHECK(fs_rv_add_inplace(st, stl, over, fs_rv_size(over), &err) == -1);
		CHECK(err.status == FS_ERR_RANGE && strstr(err.message, "\"c\"") != NULL);
		free(st);
		free(sub);
		free(first);
		free(none);
		free(missing);
		free(kind);
		free(last);
		free(over);
	}

	/* the order is total and consistent with equality */
	CHECK(fs_rv_cmp(s, s) == 0);
	CHECK(fs_rv_cmp(v, s) < 0 && fs_rv_cmp(s, v) > 0);
	CHECK(fs_rv_cmp(w, v) > 0);
	CHECK(fs_rv_cmp(k, v) < 0); /* count before size */
	{
		uint8_t *e = parse("");
		uint8_t *a1 = parse("a=1");

		CHECK(fs_rv_cmp(e, a1) < 0 && fs_rv_cmp(a1, e) > 0 && fs_rv_cmp(e, e) == 0);
		CHECK(fs_rv_cmp(a1, s) < 0);
		free(e);
		free(a1);
	}
	free(s);
	free(v);
	free(w);
	free(k);
	free(big);
}

static void
test_amounts_and_doubles(void)
{
	char buf[FS_DOUBLE_BUFLEN];
	double v;
	int kind;
	fs_error err;

	fs_format_double(0.1, buf);
	CHECK_STR(buf, "0.1");
	fs_format_double(1.0 / 3, buf);
	CHECK_STR(buf, "0.3333333333333333");
	fs_format_double(-0.0, buf);
	CHECK_STR(buf, "0");
	fs_format_double(1e21, buf);
	CHECK_STR(buf, "1e+21");
	fs_format_double(2500, buf);
	CHECK_STR(buf, "2500");
	fs_format_double(123456789012345.0, buf);
	CHECK_STR(buf, "123456789012345");
	fs_format_double(1e15, buf);
	CHECK_STR(buf, "1e+15");
	fs_format_double(0.0001, buf);
	CHECK_STR(buf, "0.0001");
	fs_format_double(0.00001234, buf);
	CHECK_STR(buf, "1.234e-05");
	fs_format_double(-1.5, buf);
	CHECK_STR(buf, "-1.5");
	fs_format_double(5e-324, buf);
	CHECK_STR(buf, "5e-324");
	CHECK(fs_scan_number("12abc", 5, &v) == 2 && v == 12);
	CHECK(fs_scan_number("4eb", 3, &v) == 1 && v == 4);
	CHECK(fs_scan_number("4e+2x", 5, &v) == 4 && v == 400);
	CHECK(fs_scan_number(".5", 2, &v) == 2 && v == 0.5);
	CHECK(fs_scan_number("5.", 2, &v) == 2 && v == 5);
	CHECK(fs_scan_number("-.", 2, &v) == 0);
	CHECK(fs_scan_number("+", 1, &v) == 0);

	CHECK(fs_rv_parse_amount("8gb", 3, "x", &v, &kind, &err) == FS_OK && kind == FS_KIND_SIZE &&
	      v == 8589934592.0);
	CHECK(fs_rv_parse_amount("01:02:03.5", 10, "x", &v, &kind, &err) == FS_OK &&
	      kind == FS_KIND_DURATION && v == 3723.5);
	CHECK(fs_rv_parse_amount("7", 1, "x", &v, &kind, &err) == FS_OK && kind == FS_KIND_COUNT &&
	      v == 7);
	CHECK(fs_rv_parse_amount("7 gb", 4, "x", &v, &kind, &err) == FS_ERR_SYNTAX);
	CHECK(strcmp(fs_kind_name(FS_KIND_DURATION), "duration") == 0);
	CHECK(fs_kind_from_name("size") == FS_KIND_SIZE && fs_kind_from_name("bytes") == -1);
}

/* Property: for random vectors, format then parse gives the same bytes. */
static void
test_round_trip_property(void)
{
	static const char *const names[] = {"ncpus",   "mem", "walltime", "ngpus", "gres/gpu:a100",
	                                    "billing", "x.y", "_z",       "A",     "vmem"};
	uint64_t seed = 42;
	int round;
	int bad = 0;

	for (round = 0; round < 3000; round++)
	{
		fs_rv_item items[10];
		size_t n = unit_rand(&seed) % 10;
		size_t i;
		uint8_t *rv, *rv2;
		size_t len, len2;
		fs_error err;
		char *t;

		for (i = 0; i < n; i++)
		{
			uint64_t r = unit_rand(&seed);
			double amount;

			items[i].name = names[i];
			items[i].namelen = strlen(names[i]);
			items[i].kind = (int) (r % 3);
			items[i].pos = 0;
			switch ((r >> 8) % 4)
			{
				case 0:
					amount = (double) ((r >> 16) % 100000);
					break;
				case 1:
					amount = ldexp((double) ((r >> 16) % 4096), (int) ((r >> 40) % 60));
					break;
				case 2:
					amount = ((double) (r >> 11) / 9007199254740992.0 - 0.5) * 1e6;
					break;
				default:
					amount = ldexp((double) (r >> 11), (int) ((r >> 3) % 900) - 450);
					break;
			}
			items[i].amount = amount;
		}
		if (fs_rv_build(items, n, FS_ERR_VALUE, &unit_alloc, 0, &rv, &len, &err) != FS_OK)
		{
			/* only a duration beyond 2^53 seconds may be refused */
			bool huge = false;

			for (i = 0; i < n; i++)
				huge |= items[i].kind == FS_KIND_DURATION &&
				        fabs(items[i].amount) >= FS_RV_DURATION_MAX;
			if (!huge || err.status != FS_ERR_RANGE)
				bad++;
			continue;
		}
		t = unit_rv_text(rv);
		if (fs_rv_parse(t, strlen(t), &unit_alloc, 0, &rv2, &len2, &err) != FS_OK)
		{
			if (bad++ < 5)
				printf("     \"%s\" does not parse back: %s %s\n", t, err.message, err.detail);
		}
		else
		{
			if (len != len2 || memcmp(rv, rv2, len) != 0)
			{
				if (bad++ < 5)
					printf("     \"%s\" does not round-trip\n", t);
			}
			free(rv2);
		}
		free(t);
		free(rv);
	}
	CHECK(bad == 0);
}

/*
 * fs_rv_plan: the names ordered once, each vector the bytes fs_rv_build gives for the non-zero
 * amounts; the names' problems found when the plan is made, amounts that do not fit reported.
 */
static void
test_plan(void)
{
	const char *names[] = {"mem", "cpu", "gres/gpu", "billing", "node"};
	fs_rv_plan p;
	fs_error err;
	uint32_t r = 12345;
	int round, bad = 0;

	if (!CHECK(fs_rv_plan_init(&p, names, 5, FS_KIND_COUNT, FS_ERR_VALUE, &unit_alloc, &err) ==
	           FS_OK))
		return;
	CHECK(p.n == 5 && p.maxlen == 4 + 5 * 10 + 3 + 3 + 8 + 7 + 4);
	/* canonical order: billing, cpu, gres/gpu, mem, node */
	CHECK(p.from[0] == 3 && p.from[1] == 1 && p.from[2] == 2 && p.from[3] == 0 && p.from[4] == 4);
	for (round = 0; round < 2000; round++)
	{
		double amounts[5];
		fs_rv_item items[5];
		uint8_t buf[128], *rv;
		size_t i, n = 0, len, plen;

		for (i = 0; i < 5; i++)
		{
			r = r * 1103515245u + 12345u;
			/* a third zero (-0 too), the rest of either sign and any magnitude */
			amounts[i] = (r >> 16) % 3 == 0 ? ((r >> 20) % 2 ? -0.0 : 0.0)
			             : (r >> 16) % 3 == 1
			                 ? (double) ((r >> 18) % 1000)
			                 : ldexp((double) (r >> 8) - 8e6, (int) (r % 200) - 100);
			if (amounts[i] != 0)
				items[n++] = (fs_rv_item){names[i], strlen(names[i]), FS_KIND_COUNT, amounts[i], 0};
		}
		plen = fs_rv_plan_encode(&p, amounts, buf);
		if (fs_rv_build(items, n, FS_ERR_VALUE, &unit_alloc, 0, &rv, &len, &err) != FS_OK)
		{
			bad++;
			continue;
		}
		if (plen != len || memcmp(buf, rv, len) != 0)
			bad++;
		free(rv);
	}
	CHECK(bad == 0);
	{
		double all_zero[5] = {0, -0.0, 0, 0, 0}, inf[5] = {1, 2, INFINITY, 0, 0};
		uint8_t buf[128];

		CHECK(fs_rv_plan_encode(&p, all_zero, buf) == 4 && fs_rv_count(buf) == 0);
		CHECK(fs_rv_plan_encode(&p, inf, buf) == 0);
	}
	fs_rv_plan_free(&p, &unit_alloc);
	{
		const char *twice[] = {"cpu", "mem", "cpu"}, *invalid[] = {"cpu", "9lives"};

		CHECK(fs_rv_plan_init(&p, twice, 3, FS_KIND_COUNT, FS_ERR_VALUE, &unit_alloc, &err) ==
		          FS_ERR_VALUE &&
		      strstr(err.message, "\"cpu\" appears more than once") != NULL);
		CHECK(fs_rv_plan_init(&p, invalid, 2, FS_KIND_COUNT, FS_ERR_VALUE, &unit_alloc, &err) ==
		          FS_ERR_VALUE &&
		      strstr(err.message, "invalid resource name \"9lives\"") != NULL);
		CHECK(fs_rv_plan_init(&p, invalid, 0, FS_KIND_COUNT, FS_ERR_VALUE, &unit_alloc, &err) ==
		          FS_OK &&
		      p.n == 0 && p.maxlen == 4);
		fs_rv_plan_free(&p, &unit_alloc);
	}
}

void
test_resvec(void)
{
	test_grammar();
	test_errors();
	test_arithmetic();
	test_inplace_and_order();
	test_amounts_and_doubles();
	test_round_trip_property();
	test_plan();
}
