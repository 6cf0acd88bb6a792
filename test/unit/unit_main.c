/* unit_main.c: runs every core unit test and prints the totals. */
#include "unit.h"

#include "load/sacct.h"
#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every test_NAME() of test/unit/test_NAME.c, from the list the Makefile writes */
#define UNIT_TEST(name) void test_##name(void);
#include "unit_list.h"
#undef UNIT_TEST

static int passed;
static int failed;

static void *
unit_malloc(void *ctx, size_t size)
{
	void *p = malloc(size ? size : 1);

	(void) ctx;
	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static void
unit_free(void *ctx, void *ptr)
{
	(void) ctx;
	free(ptr);
}

const fs_allocator unit_alloc = {unit_malloc, unit_free, NULL};

static bool
record(bool ok)
{
	if (ok)
		passed++;
	else
		failed++;
	return ok;
}

bool
unit_check(bool ok, const char *what, const char *file, int line)
{
	if (!ok)
		printf("FAIL %s:%d: %s\n", file, line, what);
	return record(ok);
}

bool
unit_check_str(const char *got, const char *want, const char *what, const char *file, int line)
{
	bool ok = got != NULL && strcmp(got, want) == 0;

	if (!ok)
		printf("FAIL %s:%d: %s is \"%s\", want \"%s\"\n", file, line, what, got ? got : "(null)",
		       want);
	return record(ok);
}

bool
unit_check_dbl(double got, double want, double tol, const char *what, const char *file, int line)
{
	bool ok = fabs(got - want) <= tol || got == want;

	if (!ok)
		printf("FAIL %s:%d: %s is %.17g, want %.17g\n", file, line, what, got, want);
	return record(ok);
}

size_t
unit_unhex(const char *hex, uint8_t *out)
{
	size_t n = 0;
	unsigned v;

	while (*hex)
	{
		if (*hex == ' ')
		{
			hex++;
			continue;
		}
		sscanf(hex, "%2x", &v);
		out[n++] = (uint8_t) v;
		hex += 2;
	}
	return n;
}

uint8_t *
unit_rv(const char *text)
{
	uint8_t *rv;
	size_t len;
	fs_error err;

	if (fs_rv_parse(text, strlen(text), &unit_alloc, 0, &rv, &len, &err) != FS_OK)
	{
		printf("bad test resource vector \"%s\": %s\n", text, err.message);
		exit(2);
	}
	return rv;
}

uint8_t *
unit_sp(const char *text)
{
	uint8_t *sp;
	size_t len;
	fs_error err;

	if (fs_sp_parse(text, strlen(text), &unit_alloc, 0, &sp, &len, &err) != FS_OK)
	{
		printf("bad test path \"%s\": %s\n", text, err.message);
		exit(2);
	}
	return sp;
}

char *
unit_rv_text(const uint8_t *rv)
{
	fs_sb sb;

	fs_sb_init(&sb, &unit_alloc, 16);
	fs_rv_format(&sb, rv);
	return sb.data;
}

char *
unit_sp_text(const uint8_t *sp)
{
	fs_sb sb;

	fs_sb_init(&sb, &unit_alloc, 16);
	fs_sp_format(&sb, sp);
	return sb.data;
}

const char *
unit_cstr(fs_str s)
{
	static char buf[8][256];
	static int next;
	char *b = buf[next++ & 7];

	if (s.s == NULL)
		return "(null)";
	snprintf(b, sizeof(buf[0]), "%.*s", (int) s.len, s.s);
	return b;
}

const char *
unit_sacct_extra(const struct fs_sacct_record *r, const char *key)
{
	const fs_sacct_extra *e = fs_sacct_extra_get(r, key);

	return e ? unit_cstr(e->val) : "(absent)";
}

char *
unit_repeated(const char *head, const char *unit, size_t n, const char *tail)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail), i;
	char *f = malloc(hl + ul * n + tl + 1);

	if (f == NULL)
		exit(2);
	memcpy(f, head, hl);
	for (i = 0; i < n; i++)
		memcpy(f + hl + i * ul, unit, ul);
	memcpy(f + hl + ul * n, tail, tl + 1);
	return f;
}

uint64_t
unit_rand(uint64_t *state)
{
	/* splitmix64 */
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

int
main(void)
{
#define UNIT_TEST(name) test_##name();
#include "unit_list.h"
#undef UNIT_TEST
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
