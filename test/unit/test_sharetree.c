/* test_sharetree.c: unit tests of src/core/sharetree.c: merging rows, rollups, flat and text forms.
 */
#include "unit.h"
#include "resvec.h"
#include "sharepath.h"
#include "sharetree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *
path(const char *text)
{
	uint8_t *sp;
	size_t len;
	fs_error err;

	if (fs_sp_parse(text, strlen(text), &unit_alloc, 0, &sp, &len, &err) != FS_OK)
	{
		printf("     bad test path \"%s\"\n", text);
		exit(2);
	}
	return sp;
}

static uint8_t *
vec(const char *text)
{
	uint8_t *rv;
	size_t len;
	fs_error err;

	if (fs_rv_parse(text, strlen(text), &unit_alloc, 0, &rv, &len, &err) != FS_OK)
		exit(2);
	return rv;
}

/* Add a share-tree row; shares -1 means NULL, -2 means "parent". */
static fs_status
add(fs_tree *t, const char *p, double shares, double usage, fs_error *err)
{
	fs_tree_row r;
	fs_status st;

	memset(&r, 0, sizeof(r));
	r.path = path(p);
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

/* The tree of seed 000: group1 (40) {Bob 50: 100, Ann 50: 100}, group2 (60) {Suzy 60: 0, scott 40:
 * 1000}. */
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
			fs_tree_free(back);
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
	check_parse_error("pool{a=1/2/3/{cpu=1/{}}", "unknown unit \"/{\"");
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
	uint8_t *u1 = vec("cpu=4,mem=8gb"), *u2 = vec("cpu=2,gpu=1"), *d = vec("cpu=10");
	char *txt;

	memset(&r, 0, sizeof(r));
	r.path = path("prod.a");
	r.has_shares = true;
	r.shares = 2;
	r.has_min = true;
	r.min_share = 0.5;
	r.usage_vec = u1;
	r.demand_vec = d;
	CHECK(fs_tree_add(t, &r, &err) == FS_OK);
	free((void *) r.path);
	r.path = path("prod.b");
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
	u1 = vec("mem=8");
	r.usage_vec = u1;
	CHECK(fs_tree_add(t, &r, &err) == FS_ERR_KIND);
	CHECK(strstr(err.message, "in the usage of node \"prod.b\"") != NULL);
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

void
test_sharetree(void)
{
	test_build_and_rollup();
	test_errors();
	test_merge_and_forms();
	test_text();
	test_pool();
	test_scale();
}
