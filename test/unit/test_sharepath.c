/* test_sharepath.c: unit tests of src/core/types/sharepath.c: grammar, order, path algebra. */
#include "unit.h"
#include "types/sharepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *
sp_parse(const char *in, fs_error *err)
{
	uint8_t *sp;
	size_t len;

	if (fs_sp_parse(in, strlen(in), &unit_alloc, 0, &sp, &len, err) != FS_OK)
		return NULL;
	if (len != fs_sp_size(sp))
		printf("     encoded length of \"%s\" is off\n", in);
	return sp;
}

static void
check_canon(const char *in, const char *want, uint32_t nlevel)
{
	fs_error err;
	uint8_t *sp = sp_parse(in, &err);
	char *t;

	if (!CHECK(sp != NULL))
	{
		printf("     \"%s\": %s / %s\n", in, err.message, err.detail);
		return;
	}
	t = unit_sp_text(sp);
	CHECK_STR(t, want);
	CHECK(fs_sp_nlevel(sp) == nlevel);
	{
		uint8_t *again = sp_parse(t, &err);

		CHECK(again != NULL && fs_sp_cmp(again, sp) == 0 && memcmp(again, sp, fs_sp_size(sp)) == 0);
		free(again);
	}
	free(t);
	free(sp);
}

static void
check_error(const char *in, const char *needle)
{
	fs_error err;
	uint8_t *sp = sp_parse(in, &err);
	char all[3 * FS_MSG_LEN + 8];

	if (!CHECK(sp == NULL))
	{
		free(sp);
		return;
	}
	snprintf(all, sizeof(all), "%s | %s | %s", err.message, err.detail, err.hint);
	if (!CHECK(err.status == FS_ERR_SYNTAX && strstr(all, needle) != NULL))
		printf("     \"%s\": %s\n", in, all);
}

static void
test_grammar(void)
{
	char longlabel[300];
	char deep[3000];
	size_t i;

	check_canon("", "", 0);
	check_canon("physics", "physics", 1);
	check_canon("physics.alice", "physics.alice", 2);
	check_canon("a-b.c_d.e@f.g:h.i+j.0", "a-b.c_d.e@f.g:h.i+j.0", 6);
	check_canon("physics.\"alice.smith@example.org\"", "physics.\"alice.smith@example.org\"", 2);
	check_canon("\"plain\"", "plain", 1);
	check_canon("\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\"", 1);
	check_canon("\"\xc3\xa9t\xc3\xa9\".x", "\"\xc3\xa9t\xc3\xa9\".x", 2);
	check_canon("\"a b\".\"\"\"\"", "\"a b\".\"\"\"\"", 2);

	check_error(".a", "Empty label at character 1");
	check_error("a.", "Empty label at end of input");
	check_error("a..b", "Empty label at character 3");
	check_error("\"\"", "Empty label at character 1");
	check_error("a b", "Unexpected character \" \" after a label at character 2");
	check_error(" a", "Unexpected character \" \" at character 1");
	check_error("a.\"b", "Unterminated quoted label starting at character 3");
	check_error("\"a\"b", "after a label at character 4");
	check_error("\xc3\xa9.a", "Unexpected character (byte 0xc3) at character 1");
	check_error("a.b/c", "Unexpected character \"/\" after a label at character 4");
	memset(longlabel, 'x', 256);
	longlabel[256] = '\0';
	check_error(longlabel, "is 256 bytes long; at most 255");
	longlabel[255] = '\0';
	check_canon(longlabel, longlabel, 1);
	for (i = 0; i < 1025; i++)
	{
		deep[2 * i] = 'a';
		deep[2 * i + 1] = '.';
	}
	deep[2 * 1025 - 1] = '\0';
	check_error(deep, "more than 1024 labels");
	deep[2 * 1024 - 1] = '\0';
	{
		fs_error err;
		uint8_t *sp = sp_parse(deep, &err);

		CHECK(sp != NULL && fs_sp_nlevel(sp) == 1024);
		free(sp);
	}
}

static int
cmp_text(const char *a, const char *b)
{
	fs_error err;
	uint8_t *x = sp_parse(a, &err), *y = sp_parse(b, &err);
	int c = fs_sp_cmp(x, y);

	free(x);
	free(y);
	return c;
}

static void
test_order_and_algebra(void)
{
	fs_error err;
	uint8_t *a, *b, *r;
	size_t len;
	char *t;

	/* pre-order: a path sorts directly before its descendants */
	CHECK(cmp_text("", "a") < 0);
	CHECK(cmp_text("a", "a.b") < 0);
	CHECK(cmp_text("a.z", "a-b") < 0); /* "a" < "a-b" as labels, whatever follows */
	CHECK(cmp_text("a.b", "ab") < 0);
	CHECK(cmp_text("B", "a") < 0);
	CHECK(cmp_text("a.b", "a.b") == 0);
	CHECK(cmp_text("a.c", "a.b.z") > 0);

	a = sp_parse("physics.alice.jobs", &err);
	b = sp_parse("physics.bob", &err);
	CHECK(fs_sp_common(a, b) == 1);
	CHECK(!fs_sp_is_ancestor(b, a));
	fs_sp_slice(a, 0, 1, &unit_alloc, 0, &r, &len);
	CHECK(fs_sp_is_ancestor(r, a) && fs_sp_is_ancestor(r, b) && fs_sp_is_ancestor(r, r));
	t = unit_sp_text(r);
	CHECK_STR(t, "physics");
	free(t);
	free(r);

	CHECK(fs_sp_subpath(a, 1, false, 0, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "alice.jobs");
	free(t);
	free(r);
	CHECK(fs_sp_subpath(a, -1, false, 0, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "jobs");
	free(t);
	free(r);
	CHECK(fs_sp_subpath(a, 0, true, -1, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "physics.alice");
	free(t);
	free(r);
	CHECK(fs_sp_subpath(a, 1, true, 5, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "alice.jobs");
	free(t);
	free(r);
	CHECK(fs_sp_subpath(a, 4, false, 0, &unit_alloc, 0, &r, &len, &err) == FS_ERR_VALUE);
	CHECK(fs_sp_subpath(a, -4, false, 0, &unit_alloc, 0, &r, &len, &err) == FS_ERR_VALUE);
	CHECK(fs_sp_subpath(a, 2, true, -2, &unit_alloc, 0, &r, &len, &err) == FS_ERR_VALUE);

	CHECK(fs_sp_concat(a, NULL, "x.y", 3, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "physics.alice.jobs.\"x.y\"");
	CHECK(len == fs_sp_size(r));
	free(t);
	free(r);
	CHECK(fs_sp_concat(b, a, NULL, 0, &unit_alloc, 0, &r, &len, &err) == FS_OK);
	t = unit_sp_text(r);
	CHECK_STR(t, "physics.bob.physics.alice.jobs");
	free(t);
	free(r);
	CHECK(fs_sp_concat(a, NULL, "", 0, &unit_alloc, 0, &r, &len, &err) == FS_ERR_VALUE);
	{
		const char *labels[] = {"a", "b c"};
		size_t lens[] = {1, 3};

		CHECK(fs_sp_from_labels(labels, lens, 2, &unit_alloc, 0, &r, &len, &err) == FS_OK);
		t = unit_sp_text(r);
		CHECK_STR(t, "a.\"b c\"");
		free(t);
		free(r);
		lens[1] = 0;
		CHECK(fs_sp_from_labels(labels, lens, 2, &unit_alloc, 0, &r, &len, &err) == FS_ERR_VALUE);
		CHECK(strstr(err.message, "label 2 is empty") != NULL);
	}
	free(a);
	free(b);
}

/* A NUL cannot be printed and read back: text, labels and concatenation refuse it. */
static void
test_nul(void)
{
	uint8_t *sp;
	size_t len;
	fs_error err;
	const char *labels[2] = {"a", "b\0c"};
	size_t lens[2] = {1, 3};

	CHECK(fs_sp_parse("a.\"b\0c\"", 8, &unit_alloc, 0, &sp, &len, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Unexpected character (byte 0x00) in a quoted label") != NULL);
	CHECK(fs_sp_from_labels(labels, lens, 2, &unit_alloc, 0, &sp, &len, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "sharepath label 2 contains a NUL byte") != NULL);
	lens[1] = 1;
	if (CHECK(fs_sp_from_labels(labels, lens, 2, &unit_alloc, 0, &sp, &len, &err) == FS_OK))
	{
		uint8_t *joined;

		CHECK(fs_sp_concat(sp, NULL, "x\0", 2, &unit_alloc, 0, &joined, &len, &err) ==
		      FS_ERR_VALUE);
		free(sp);
	}
	CHECK(fs_sp_label_ok("a", 1) && !fs_sp_label_ok("a\0", 2) && !fs_sp_label_ok("", 0));
}

/*
 * Abbreviated sort keys agree with the order: on random paths of short labels over a small
 * alphabet (so that prefixes, equal first bytes and labels ending inside the first 8 bytes are
 * common), a smaller key means a smaller path and a smaller path never has a larger key.
 */
static void
test_prefix_key(void)
{
	uint64_t seed = 3;
	uint8_t *paths[300];
	int i, j, bad = 0;
	fs_error err;

	for (i = 0; i < 300; i++)
	{
		char text[64];
		int labels = (int) (unit_rand(&seed) % 5), n = 0, k;

		for (k = 0; k < labels; k++)
		{
			int len = 1 + (int) (unit_rand(&seed) % 4), c;

			if (k > 0)
				text[n++] = '.';
			for (c = 0; c < len; c++)
				text[n++] = "ab_"[unit_rand(&seed) % 3];
		}
		text[n] = '\0';
		paths[i] = sp_parse(text, &err);
		if (paths[i] == NULL)
			exit(2);
	}
	for (i = 0; i < 300; i++)
		for (j = 0; j < 300; j++)
		{
			uint64_t ki = fs_sp_prefix_key(paths[i]), kj = fs_sp_prefix_key(paths[j]);
			int c = fs_sp_cmp(paths[i], paths[j]);

			if ((ki < kj && c >= 0) || (c < 0 && ki > kj))
				bad++;
		}
	CHECK(bad == 0);
	CHECK(fs_sp_prefix_key(paths[0]) == fs_sp_prefix_key(paths[0]));
	{
		uint8_t *root = sp_parse("", &err), *a = sp_parse("a", &err), *ab = sp_parse("a.b", &err);

		CHECK(fs_sp_prefix_key(root) == 0);
		CHECK(fs_sp_prefix_key(a) == UINT64_C(0x6100000000000000));
		CHECK(fs_sp_prefix_key(ab) == UINT64_C(0x6100620000000000));
		free(root);
		free(a);
		free(ab);
	}
	for (i = 0; i < 300; i++)
		free(paths[i]);
}

void
test_sharepath(void)
{
	test_grammar();
	test_order_and_algebra();
	test_nul();
	test_prefix_key();
}
