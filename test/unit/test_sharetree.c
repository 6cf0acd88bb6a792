/* test_sharetree.c: unit tests of src/core/types/sharetree.c: merging rows, rollups, flat and text
 * forms.
 */
#include "unit.h"
#include "types/resvec.h"
#include "types/sharepath.h"
#include "types/sharetree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Add a share-tree row; shares -1 means NULL, -2 means "parent". */
static fs_status
add(fs_tree *t, const char *p, double shares, double usage, fs_error *err)
{
	fs_tree_row r;
	fs_status st;

	memset(&r, 0, sizeof(r));
	r.path = unit_sp(p);
	r.has_shares = shares != -1 && shares != -2;
	r.shares = shares;
	r.from_parent = shares == -2;
	r.usage = usage;
	st = fs_tree_add(t, &r, err);
	free((void *) r.path);
	return st;
}

static char *
text_of(fs_tree *t)
{
	fs_sb sb;
	fs_error err;

	if (fs_tree_prepare(t, &err) != FS_OK)
		return NULL;
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_tree_format(&sb, t);
	return sb.data;
}

/* The tree of the PBS design page PP-718: group1 (40) {Bob 50: 100, Ann 50: 100}, group2 (60) {Suzy
 * 60: 0, scott 40: 1000}. */
static fs_tree *
seed_tree(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_error err;

	add(t, "group1", 40, 0, &err);
	add(t, "group2", 60, 0, &err);
	add(t, "group1.Bob", 50, 60, &err);
	add(t, "group1.Bob", -1, 40, &err); /* a second job: usages add, NULL shares say nothing */
	add(t, "group1.Ann", 50, 100, &err);
	add(t, "group2.Suzy", 60, 0, &err);
	add(t, "group2.scott", 40, 1000, &err);
	return t;
}

static void
test_build_and_rollup(void)
{
	fs_tree *t = seed_tree();
	fs_error err;
	char *txt;
	uint32_t i;

	CHECK(fs_tree_prepare(t, &err) == FS_OK);
	CHECK(fs_tree_count(t) == 7);
	CHECK_DBL(fs_tree_total(t, 0), 1200, 0);
	txt = text_of(t);
	CHECK_STR(txt, "share{=*/0,group1=40/0,group1.Ann=50/100,group1.Bob=50/100,group2=60/0,"
	               "group2.Suzy=60/0,group2.scott=40/1000}");
	free(txt);
	for (i = 0; i < fs_tree_count(t); i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);

		if (fs_sp_nlevel(nd->path) == 1)
			CHECK(!fs_tree_is_leaf(t, i) && fs_tree_parent_pos(t, i) == 0);
		else if (fs_sp_nlevel(nd->path) == 2)
			CHECK(fs_tree_is_leaf(t, i));
	}
	CHECK_DBL(fs_tree_total(t, 1), 200, 0);  /* group1 */
	CHECK_DBL(fs_tree_total(t, 4), 1000, 0); /* group2 */

	/* undeclared ancestors are created with 0 shares; usage on an inner node adds to it */
	CHECK(add(t, "chem.lab.amy", 1, 5, &err) == FS_OK);
	CHECK(add(t, "chem", -1, 7, &err) == FS_OK);
	txt = text_of(t);
	CHECK(strstr(txt, ",chem=*/7,chem.lab=*/0,chem.lab.amy=1/5,") != NULL);
	free(txt);
	CHECK_DBL(fs_tree_total(t, 0), 1212, 0);
	fs_tree_free(t);
}

static void
check_add_error(fs_tree *t, const char *p, double shares, double usage, fs_status status,
                const char *needle)
{
	fs_error err;
	fs_status st = add(t, p, shares, usage, &err);

	if (!CHECK(st == status) || !CHECK(strstr(err.message, needle) != NULL))
		printf("     \"%s\": status %d: %s\n", p, st, st ? err.message : "ok");
}

static void
test_errors(void)
{
	fs_tree *t = seed_tree();
	fs_tree *pool = fs_tree_new(&unit_alloc, FS_TREE_POOL);
	fs_error err;

	check_add_error(t, "group1.Bob", 51, 0, FS_ERR_VALUE,
	                "conflicting shares for node \"group1.Bob\": 50 and 51");
	check_add_error(t, "group1.Bob", -2, 0, FS_ERR_VALUE, "50 and parent");
	check_add_error(t, "x", 1, -1, FS_ERR_VALUE, "usage of node \"x\" is negative");
	check_add_error(t, "x", -5, 0, FS_ERR_VALUE, "shares of node \"x\" is negative");
	check_add_error(t, "x", 1, INFINITY, FS_ERR_RANGE, "usage of node \"x\" is not finite");
	check_add_error(t, "x", NAN, 1, FS_ERR_RANGE, "shares of node \"x\" is not finite");
	check_add_error(t, "x.\"a.b\"", 1, 1e308, FS_OK, "");
	check_add_error(t, "x.\"a.b\"", 1, 1e308, FS_ERR_RANGE, "node \"x.\"a.b\"\" overflows");
	CHECK(add(t, "p", -2, 0, &err) == FS_OK);
	check_add_error(t, "p", 3, 0, FS_ERR_VALUE, "parent and 3");
	CHECK(add(t, "p", -2, 1, &err) == FS_OK);
	CHECK(fs_tree_merge(t, pool, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "cannot merge a share tree with a pool tree") != NULL);
	/* totals that overflow are caught when the tree is prepared */
	CHECK(add(t, "y", 1, 1e308, &err) == FS_OK);
	CHECK(fs_tree_prepare(t, &err) == FS_ERR_RANGE);
	fs_tree_free(t);
	fs_tree_free(pool);
}

static void
test_merge_and_forms(void)
{
	fs_tree *whole = seed_tree();
	fs_tree *a = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_tree *b = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_tree *m = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_tree *back = NULL;
	fs_error err;
	char *tw, *tm, *tb;
	uint8_t *flat, *flat2;
	size_t size, cut;

	add(a, "group1", 40, 0, &err);
	add(a, "group1.Bob", 50, 60, &err);
	add(a, "group2.Suzy", 60, 0, &err);
	add(a, "group2.scott", -1, 600, &err);
	add(b, "group2", 60, 0, &err);
	add(b, "group1.Bob", -1, 40, &err);
	add(b, "group1.Ann", 50, 100, &err);
	add(b, "group2.scott", 40, 400, &err);
	CHECK(fs_tree_merge(m, a, &err) == FS_OK && fs_tree_merge(m, b, &err) == FS_OK);
	tw = text_of(whole);
	tm = text_of(m);
	CHECK_STR(tm, tw);

	/* text round trip */
	CHECK(fs_tree_parse(&unit_alloc, tw, strlen(tw), &back, &err) == FS_OK);
	tb = text_of(back);
	CHECK_STR(tb, tw);
	free(tb);
	fs_tree_free(back);

	/* flat round trip; every truncation and every flipped byte is rejected or harmless */
	size = fs_tree_flat_size(whole);
	flat = malloc(size);
	fs_tree_flatten(whole, flat);
	CHECK(fs_tree_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	CHECK(fs_tree_prepare(back, &err) == FS_OK && fs_tree_flat_size(back) == size);
	flat2 = malloc(size);
	fs_tree_flatten(back, flat2);
	CHECK(memcmp(flat, flat2, size) == 0);
	free(flat2);
	fs_tree_free(back);
	for (cut = 0; cut < size; cut++)
	{
		if (!CHECK(fs_tree_from_flat(&unit_alloc, flat, cut, &back, &err) == FS_ERR_BINARY))
			fs_tree_free(back);
	}
	for (cut = 0; cut < size; cut++)
	{
		uint8_t save = flat[cut];

		flat[cut] ^= 0x5A;
		if (fs_tree_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK)
		{
			/* what reads is canonical: a still valid value, which flattens to the same bytes */
			CHECK(fs_tree_prepare(back, &err) == FS_OK && fs_tree_flat_size(back) == size);
			flat2 = malloc(size);
			fs_tree_flatten(back, flat2);
			CHECK(memcmp(flat, flat2, size) == 0);
			free(flat2);
			fs_tree_free(back);
		}
		flat[cut] = save;
	}
	free(flat);
	free(tw);
	free(tm);
	fs_tree_free(whole);
	fs_tree_free(a);
	fs_tree_free(b);
	fs_tree_free(m);
}

static void
check_parse_error(const char *text, const char *needle)
{
	fs_tree *t = NULL;
	fs_error err;
	char all[3 * FS_MSG_LEN + 8];

	if (!CHECK(fs_tree_parse(&unit_alloc, text, strlen(text), &t, &err) != FS_OK))
	{
		fs_tree_free(t);
		return;
	}
	snprintf(all, sizeof(all), "%s | %s", err.message, err.detail);
	if (!CHECK(strstr(all, needle) != NULL))
		printf("     \"%s\": %s\n", text, all);
}

static void
check_parse_canon(const char *text, const char *want)
{
	fs_tree *t = NULL;
	fs_error err;
	char *got;

	if (!CHECK(fs_tree_parse(&unit_alloc, text, strlen(text), &t, &err) == FS_OK))
	{
		printf("     \"%s\": %s %s\n", text, err.message, err.detail);
		return;
	}
	got = text_of(t);
	CHECK_STR(got, want);
	free(got);
	fs_tree_free(t);
}

static void
test_text(void)
{
	check_parse_canon("share{}", "share{=*/0}");
	check_parse_canon(" share{ a = 1 / 2 , a.b=parent/3 }", "share{=*/0,a=1/2,a.b=parent/3}");
	check_parse_canon("share{a.\"x=y\"=*/1e3}", "share{=*/0,a=*/0,a.\"x=y\"=*/1000}");
	check_parse_canon("pool{=*/*/*/{}/{cpu=10},a=2/0.5/1/{cpu=4,mem=8gb}/{}}",
	                  "pool{=*/*/*/{}/{cpu=10},a=2/0.5/1/{cpu=4,mem=8gb}/{}}");
	check_parse_error("", "Expected \"share{\" or \"pool{\"");
	check_parse_error("share{a=1/2", "Expected \"}\" at end of input");
	check_parse_error("share{a=1/2}x", "Unexpected text after \"}\" at character 13");
	check_parse_error("share{a=1/2,a=1/2}", "listed once each, in pre-order");
	check_parse_error("share{b=1/2,a=1/2}", "listed once each, in pre-order");
	check_parse_error("share{a=x/2}", "Expected a number or \"*\" for the shares");
	check_parse_error("share{a=1/*}", "Usage must be a number");
	check_parse_error("share{a=1/-1}", "usage of node \"a\" is negative");
	check_parse_error("share{a=1/1e999}", "The usage is out of range");
	check_parse_error("share{a..b=1/1}", "Invalid node path at character 7");
	check_parse_error("share{a=1}", "Expected \"/\"");
	check_parse_error("pool{a=1/2/3/{cpu=1}}", "Expected \"/\"");
	check_parse_error("pool{a=1/2/3/{cpu=1/{}}", "Unknown unit \"/{\"");
	check_parse_error("pool{a=1/2/3/{cpu=1", "Unterminated resource vector");
	check_parse_error("pool{a=1/2/3/{cpu=-1}/{}}", "usage of node \"a\" has a negative amount");
	check_parse_error("pool{a=parent/2/3/{}/{}}", "Expected a number or \"*\" for the weight");
}

static void
test_pool(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_POOL);
	fs_tree_row r;
	fs_error err;
	uint8_t *u1 = unit_rv("cpu=4,mem=8gb"), *u2 = unit_rv("cpu=2,gpu=1"), *d = unit_rv("cpu=10");
	char *txt;

	memset(&r, 0, sizeof(r));
	r.path = unit_sp("prod.a");
	r.has_shares = true;
	r.shares = 2;
	r.has_min = true;
	r.min_share = 0.5;
	r.usage_vec = u1;
	r.demand_vec = d;
	CHECK(fs_tree_add(t, &r, &err) == FS_OK);
	free((void *) r.path);
	r.path = unit_sp("prod.b");
	r.has_min = false;
	r.has_max = true;
	r.max_share = 0.25;
	r.usage_vec = u2;
	CHECK(fs_tree_add(t, &r, &err) == FS_OK);
	r.has_shares = false;
	r.usage_vec = u1;
	r.demand_vec = NULL;
	CHECK(fs_tree_add(t, &r, &err) == FS_OK); /* vectors add up on the same node */
	r.has_max = true;
	r.max_share = 0.3;
	CHECK(fs_tree_add(t, &r, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "conflicting max_share_ratio for node \"prod.b\"") != NULL);
	r.has_max = false;
	free(u1);
	u1 = unit_rv("mem=8");
	r.usage_vec = u1;
	CHECK(fs_tree_add(t, &r, &err) == FS_ERR_KIND);
	CHECK_STR(err.context, "in the usage of node \"prod.b\"");
	CHECK(strstr(err.message, "(") == NULL);
	free((void *) r.path);
	txt = text_of(t);
	CHECK_STR(txt, "pool{=*/*/*/{}/{},prod=*/*/*/{}/{},prod.a=2/0.5/*/{cpu=4,mem=8gb}/{cpu=10},"
	               "prod.b=2/*/0.25/{cpu=6,gpu=1,mem=8gb}/{cpu=10}}");
	{
		fs_sb sb;

		fs_sb_init(&sb, &unit_alloc, 32);
		fs_rv_format(&sb, fs_tree_total_vec(t, 0, false));
		CHECK_STR(sb.data, "cpu=10,gpu=1,mem=16gb");
		free(sb.data);
		fs_sb_init(&sb, &unit_alloc, 32);
		fs_rv_format(&sb, fs_tree_total_vec(t, 1, true));
		CHECK_STR(sb.data, "cpu=20");
		free(sb.data);
	}
	free(txt);
	free(u1);
	free(u2);
	free(d);
	fs_tree_free(t);
}

/* A 3-level tree of 100,000 leaves: the bytes per node stay small. */
static void
test_scale(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_error err;
	char p[64];
	int i;
	size_t per_node;

	for (i = 0; i < 100000; i++)
	{
		snprintf(p, sizeof(p), "a%d.g%d.user%d", i % 10, i % 1000, i);
		if (add(t, p, 1, i, &err) != FS_OK)
			break;
	}
	CHECK(fs_tree_prepare(t, &err) == FS_OK);
	CHECK(fs_tree_count(t) == 1 + 10 + 1000 + 100000);
	CHECK_DBL(fs_tree_total(t, 0), 99999.0 * 100000 / 2, 0);
	per_node = fs_tree_memory(t) / fs_tree_count(t);
	printf("     share tree of %u nodes: %zu bytes per node\n", fs_tree_count(t), per_node);
	CHECK(per_node < 200);
	fs_tree_free(t);
}

/* Flat-form bytes of a pool tree: root, then one node "a" with the given flags and numbers. */
static size_t
pool_flat(uint8_t *out, uint8_t flags, double shares, double usage, double min, double max)
{
	uint8_t *p = out;
	uint32_t n = 2, zero32 = 0;
	double z = 0;
	int k;

	*p++ = 1; /* version */
	*p++ = FS_TREE_POOL;
	*p++ = 0;
	*p++ = 0;
	memcpy(p, &n, 4);
	p += 4;
	/* root: no labels, no flags, all zero */
	*p++ = 0;
	*p++ = 0;
	*p++ = 0;
	for (k = 0; k < 4; k++, p += 8)
		memcpy(p, &z, 8);
	for (k = 0; k < 2; k++, p += 4)
		memcpy(p, &zero32, 4);
	/* node "a" */
	n = 1;
	*p++ = 1;
	*p++ = 0;
	*p++ = 1;
	*p++ = 'a';
	*p++ = flags;
	memcpy(p, &shares, 8);
	memcpy(p + 8, &usage, 8);
	memcpy(p + 16, &min, 8);
	memcpy(p + 24, &max, 8);
	p += 32;
	for (k = 0; k < 2; k++, p += 4)
		memcpy(p, &zero32, 4);
	return (size_t) (p - out);
}

static void
test_flat_only_text_values(void)
{
	uint8_t buf[256];
	size_t n;
	fs_tree *t;
	fs_error err;
	char *txt;

	/* a declared weight reads (control) */
	n = pool_flat(buf, FS_TN_DECLARED, 2, 0, 0, 0);
	if (CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_OK))
	{
		txt = text_of(t);
		CHECK_STR(txt, "pool{=*/*/*/{}/{},a=2/*/*/{}/{}}");
		free(txt);
		fs_tree_free(t);
	}
	/* the value: a pool node flagged "parent" printed "a=parent/...", which text refuses */
	n = pool_flat(buf, FS_TN_DECLARED | FS_TN_PARENT, 0, 0, 0, 0);
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "the parent flag in a pool tree") != NULL);
	/* scalar usage in a pool tree */
	n = pool_flat(buf, FS_TN_DECLARED, 2, 5, 0, 0);
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "scalar usage in a pool tree") != NULL);
	/* -0 shares, stated or not */
	n = pool_flat(buf, 0, -0.0, 0, 0, 0);
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "negative zero") != NULL);
	n = pool_flat(buf, FS_TN_DECLARED, -0.0, 0, 0, 0);
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	/* a ratio without its flag would print "*" */
	n = pool_flat(buf, FS_TN_DECLARED, 1, 0, 0.5, 0);
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "share ratio given but not flagged") != NULL);
	/* a NUL inside a label */
	n = pool_flat(buf, FS_TN_DECLARED, 2, 0, 0, 0);
	buf[n - 8 - 32 - 2] = 0; /* the label byte 'a' */
	CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &t, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "malformed path") != NULL);

	/* text input stores -0 as 0, so equal trees have equal bytes */
	CHECK(fs_tree_parse(&unit_alloc, "share{a=-0/-0}", 14, &t, &err) == FS_OK);
	txt = text_of(t);
	CHECK_STR(txt, "share{=*/0,a=0/0}");
	free(txt);
	fs_tree_free(t);
	/* an empty vector states nothing: {} */
	CHECK(fs_tree_parse(&unit_alloc, "pool{a=1/*/*/{}/{}}", 19, &t, &err) == FS_OK);
	fs_tree_free(t);
	/* a NUL in a quoted label cannot be read back from text: refused */
	CHECK(fs_tree_parse(&unit_alloc, "share{\"a\0b\"=1/0}", 17, &t, &err) == FS_ERR_SYNTAX);
}

/* Golden bytes of the binary form, derived by hand from the format in sharetree.c. */
static void
test_binary(void)
{
	static const char *share_hex = "01 01 00000002"
	                               " 0000 00 0000000000000000 0000000000000000"
	                               " 0001 01 61 01 4000000000000000 3ff8000000000000";
	static const char *pool_hex =
	    "01 02 00000002"
	    " 0000 00 0000000000000000 0000000000000000 0000000000000000 00000000 00000000"
	    " 0001 01 61 05 3ff0000000000000 3fe0000000000000 0000000000000000"
	    " 00000001 00 03 637075 4000000000000000 00000000";
	const char *texts[2] = {"share{a=2/1.5}", "pool{a=1/0.5/*/{cpu=2}/{}}"};
	const char *hexes[2] = {share_hex, pool_hex};
	uint8_t want[256], bad[256];
	int k;

	for (k = 0; k < 2; k++)
	{
		fs_tree *t, *back;
		fs_error err;
		size_t n = unit_unhex(hexes[k], want), size, i;
		uint8_t *got;
		char *t1, *t2;

		if (!CHECK(fs_tree_parse(&unit_alloc, texts[k], strlen(texts[k]), &t, &err) == FS_OK))
			continue;
		CHECK(fs_tree_prepare(t, &err) == FS_OK);
		size = fs_tree_binary_size(t);
		got = malloc(size);
		fs_tree_to_binary(t, got);
		CHECK(size == n && memcmp(got, want, n) == 0);
		if (CHECK(fs_tree_from_binary(&unit_alloc, want, n, &back, &err) == FS_OK))
		{
			t1 = text_of(t);
			t2 = text_of(back);
			CHECK_STR(t2, t1);
			free(t1);
			free(t2);
			fs_tree_free(back);
		}
		/* every truncation, a trailing byte and a later version are refused */
		for (i = 0; i < n; i++)
			if (!CHECK(fs_tree_from_binary(&unit_alloc, want, i, &back, &err) == FS_ERR_BINARY))
				fs_tree_free(back);
		memcpy(bad, want, n);
		bad[n] = 0;
		CHECK(fs_tree_from_binary(&unit_alloc, bad, n + 1, &back, &err) == FS_ERR_BINARY);
		bad[0] = 2;
		CHECK(fs_tree_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
		CHECK(strstr(err.message, "unsupported binary format version 2") != NULL);
		/* flipped bytes: refused, or read as a value that sends exactly those bytes */
		for (i = 0; i < n; i++)
		{
			memcpy(bad, want, n);
			bad[i] ^= 0x41;
			if (fs_tree_from_binary(&unit_alloc, bad, n, &back, &err) == FS_OK)
			{
				uint8_t *again = malloc(n);

				CHECK(fs_tree_binary_size(back) == n);
				fs_tree_to_binary(back, again);
				CHECK(memcmp(again, bad, n) == 0);
				free(again);
				fs_tree_free(back);
			}
		}
		free(got);
		fs_tree_free(t);
	}
	/* non-canonical: -0 usage in a share tree */
	{
		fs_tree *back;
		fs_error err;
		size_t n = unit_unhex(share_hex, bad);

		bad[n - 8] = 0x80;
		memset(bad + n - 7, 0, 7);
		CHECK(fs_tree_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	}
}

/* Node paths are limited in total; the limit is a 54000-class error, not an allocation failure. */
static void
test_path_limit(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_error err;
	char *text = malloc(1024 * 256 + 1);
	size_t i, n = 0;
	fs_status st;

	/* 1024 levels of 255-byte labels: the root's 2 bytes and the prefixes' sum of 2 + 256 i */
	for (i = 0; i < 1024; i++)
	{
		if (i)
			text[n++] = '.';
		memset(text + n, 'a' + (int) (i % 26), 255);
		n += 255;
	}
	text[n] = '\0';
	st = add(t, text, 1, 1, &err);
	CHECK(st == FS_ERR_LIMIT);
	CHECK(strstr(err.message, "sharetree exceeds the limit of 67108864 bytes of node paths") !=
	      NULL);
	if (!CHECK(strstr(err.detail, "1024 labels (262146 bytes)") != NULL &&
	           strstr(err.detail, "total to 134350850 bytes") != NULL))
		printf("     detail: %s\n", err.detail);
	CHECK(fs_tree_count(t) == 1);
	CHECK(fs_tree_memory(t) < 1024 * 1024);
	/* 1024 levels of one-byte labels fit */
	for (i = 0, n = 0; i < 1024; i++)
	{
		if (i)
			text[n++] = '.';
		text[n++] = 'x';
	}
	text[n] = '\0';
	CHECK(add(t, text, 1, 1, &err) == FS_OK);
	CHECK(fs_tree_prepare(t, &err) == FS_OK && fs_tree_count(t) == 1025);
	free(text);
	fs_tree_free(t);
}

static int polls;

static void
count_poll(void)
{
	polls++;
}

/* Long loops call the interrupt hook (every 1024 iterations). */
static void
test_polls(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE), *back;
	fs_error err;
	char p[64];
	int i, before;
	size_t size;
	uint8_t *flat;
	fs_sb sb;

	for (i = 0; i < 20000; i++)
	{
		snprintf(p, sizeof(p), "g%d.u%d", i % 100, i);
		add(t, p, 1, 1, &err);
	}
	fs_interrupt_hook = count_poll;
	polls = 0;
	CHECK(fs_tree_prepare(t, &err) == FS_OK);
	CHECK(polls >= 20);
	before = polls;
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_tree_format(&sb, t);
	CHECK(polls - before >= 20);
	before = polls;
	size = fs_tree_flat_size(t);
	flat = malloc(size);
	fs_tree_flatten(t, flat);
	CHECK(polls - before >= 40);
	before = polls;
	CHECK(fs_tree_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	CHECK(polls - before >= 20);
	before = polls;
	CHECK(fs_tree_merge(back, t, &err) == FS_OK);
	CHECK(polls - before >= 20);
	fs_interrupt_hook = NULL;
	free(flat);
	free(sb.data);
	fs_tree_free(back);
	fs_tree_free(t);
}

/* Flat bytes of a prepared tree (malloc'd). */
static uint8_t *
flat_of(fs_tree *t, size_t *size)
{
	fs_error err;
	uint8_t *flat;

	if (!CHECK(fs_tree_prepare(t, &err) == FS_OK))
		exit(2);
	*size = fs_tree_flat_size(t);
	flat = malloc(*size);
	fs_tree_flatten(t, flat);
	return flat;
}

/*
 * A tree read from its flat form has no hash on its paths until something looks one up: adding
 * rows (to existing and new nodes) and merging give the same tree as building it from the rows.
 */
static void
test_flat_then_add(void)
{
	fs_tree *built = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_tree *src = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_tree *back, *merged;
	fs_error err;
	uint8_t *flat;
	size_t size;
	char *want, *got;

	/* rows in an order that is not pre-order, so that the built tree is sorted by prepare */
	add(src, "b.y", 2, 5, &err);
	add(src, "a", 1, 0, &err);
	add(src, "a.x", -2, 3, &err);
	add(src, "b", 4, 1, &err);
	flat = flat_of(src, &size);
	CHECK(fs_tree_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	/* usage onto an existing node, a new node under an existing one, a new branch */
	CHECK(add(back, "a.x", -1, 7, &err) == FS_OK);
	CHECK(add(back, "b.z", 1, 2, &err) == FS_OK);
	CHECK(add(back, "c.w", 3, 4, &err) == FS_OK);
	/* a conflicting statement is still found through the (now built) hash */
	CHECK(add(back, "b", 5, 0, &err) == FS_ERR_VALUE && strstr(err.message, "conflicting") != NULL);
	add(built, "a", 1, 0, &err);
	add(built, "a.x", -2, 10, &err);
	add(built, "b", 4, 1, &err);
	add(built, "b.y", 2, 5, &err);
	add(built, "b.z", 1, 2, &err);
	add(built, "c.w", 3, 4, &err);
	want = text_of(built);
	got = text_of(back);
	CHECK_STR(got, want);
	CHECK_DBL(fs_tree_total(back, 0), 22, 0);
	free(got);
	fs_tree_free(back);

	/* the same with the paths left in the flat bytes */
	CHECK(fs_tree_from_flat_borrowed(&unit_alloc, flat, size, &back, &err) == FS_OK);
	CHECK(fs_tree_node(back, 1)->path >= flat && fs_tree_node(back, 1)->path < flat + size);
	CHECK(add(back, "a.x", -1, 7, &err) == FS_OK && add(back, "b.z", 1, 2, &err) == FS_OK &&
	      add(back, "c.w", 3, 4, &err) == FS_OK);
	got = text_of(back);
	CHECK_STR(got, want);
	free(got);
	fs_tree_free(back);

	/* merging a tree read from flat into another, and another into it */
	CHECK(fs_tree_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	merged = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	CHECK(fs_tree_merge(merged, back, &err) == FS_OK);
	CHECK(add(merged, "a.x", -1, 7, &err) == FS_OK && add(merged, "b.z", 1, 2, &err) == FS_OK &&
	      add(merged, "c.w", 3, 4, &err) == FS_OK);
	got = text_of(merged);
	CHECK_STR(got, want);
	free(got);
	fs_tree_free(merged);
	merged = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	CHECK(add(merged, "c.w", 3, 4, &err) == FS_OK && add(merged, "b.z", 1, 2, &err) == FS_OK &&
	      add(merged, "a.x", -1, 7, &err) == FS_OK);
	CHECK(fs_tree_merge(back, merged, &err) == FS_OK);
	got = text_of(back);
	CHECK_STR(got, want);
	free(got);
	fs_tree_free(merged);
	fs_tree_free(back);

	/* a flat form whose node has no parent before it is refused, as before */
	{
		static const char *const bad =
		    "01 01 00 00 02 00 00 00"                                 /* share tree, 2 nodes */
		    "00 00 00 0000000000000000 0000000000000000"              /* root */
		    "02 00 01 61 01 62 01 000000000000f03f 0000000000000000"; /* a.b without a */
		uint8_t buf[128];
		size_t n = unit_unhex(bad, buf);

		CHECK(fs_tree_from_flat(&unit_alloc, buf, n, &back, &err) == FS_ERR_BINARY);
		CHECK(strstr(err.message, "a node's parent is missing") != NULL);
	}
	free(want);
	free(flat);
	fs_tree_free(src);
	fs_tree_free(built);
}

/*
 * A running tree: rows that add usage to existing nodes keep the pre-order (no sort again), a
 * row that adds a node sorts again; the totals are right either way.
 */
static void
test_order_kept(void)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_error err;
	char *txt;
	int day;

	add(t, "b.y", 1, 1, &err);
	add(t, "a.x", 1, 1, &err);
	add(t, "a", 2, 0, &err);
	for (day = 1; day <= 3; day++)
	{
		CHECK(fs_tree_prepare(t, &err) == FS_OK);
		CHECK_DBL(fs_tree_total(t, 0), 2 + 3 * (day - 1), 0);
		CHECK(add(t, "a.x", -1, 1, &err) == FS_OK && add(t, "b.y", -1, 2, &err) == FS_OK);
	}
	CHECK(fs_tree_prepare(t, &err) == FS_OK);
	CHECK_DBL(fs_tree_total(t, 1), 4, 0);      /* a: a.x's 1 + 3 */
	CHECK_DBL(fs_tree_total(t, 3), 7, 0);      /* b */
	CHECK(add(t, "a.w", 1, 5, &err) == FS_OK); /* a new node: sorted again */
	CHECK(fs_tree_prepare(t, &err) == FS_OK);
	txt = text_of(t);
	CHECK_STR(txt, "share{=*/0,a=2/0,a.w=1/5,a.x=1/4,b=*/0,b.y=1/7}");
	free(txt);
	CHECK_DBL(fs_tree_total(t, 1), 9, 0);
	CHECK(fs_tree_parent_pos(t, 2) == 1 && fs_tree_parent_pos(t, 5) == 4);
	fs_tree_free(t);
}

void
test_sharetree(void)
{
	test_build_and_rollup();
	test_errors();
	test_merge_and_forms();
	test_text();
	test_pool();
	test_scale();
	test_flat_only_text_values();
	test_binary();
	test_path_limit();
	test_polls();
	test_flat_then_add();
	test_order_kept();
}
