/* test_fairshare.c: unit tests of src/core/share/fairshare.c with the numbers of the PBS design
 * page PP-718 and Fair Tree ties. */
#include "unit.h"
#include "share/fairshare.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rows: "path", shares (-1 NULL, -2 parent), usage */
typedef struct trow
{
	const char *path;
	double shares;
	double usage;
} trow;

static fs_tree *
build(const trow *rows, size_t n)
{
	fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
	fs_error err;
	size_t i;

	for (i = 0; i < n; i++)
	{
		fs_tree_row r;
		size_t len;
		uint8_t *p;

		memset(&r, 0, sizeof(r));
		if (fs_sp_parse(rows[i].path, strlen(rows[i].path), &unit_alloc, 0, &p, &len, &err) !=
		    FS_OK)
			exit(2);
		r.path = p;
		r.from_parent = rows[i].shares == -2;
		r.has_shares = rows[i].shares >= 0;
		r.shares = rows[i].shares;
		r.usage = rows[i].usage;
		if (!CHECK(fs_tree_add(t, &r, &err) == FS_OK))
			printf("     %s\n", err.message);
		free(p);
	}
	if (!CHECK(fs_tree_prepare(t, &err) == FS_OK))
		exit(2);
	return t;
}

/* pre-order position of a path */
static uint32_t
pos(const fs_tree *t, const char *path)
{
	uint32_t i;
	char buf[256];

	for (i = 0; i < fs_tree_count(t); i++)
	{
		fs_sp_format_buf(fs_tree_node(t, i)->path, buf, sizeof(buf));
		if (strcmp(buf, path) == 0)
			return i;
	}
	printf("     no node %s\n", path);
	exit(2);
}

static fs_fairshare_row *
run(const fs_tree *t, fs_algo algo, double dampening)
{
	fs_fairshare_row *rows;
	fs_error err;

	if (!CHECK(fs_fairshare(t, algo, dampening, &unit_alloc, &rows, &err) == FS_OK))
		exit(2);
	return rows;
}

static const trow pp718[] = {
    {"group1", 40, 0},       {"group2", 60, 0},      {"group1.Bob", 50, 100},
    {"group1.Ann", 50, 100}, {"group2.Suzy", 60, 0}, {"group2.scott", 40, 1000},
};

static void
test_pp718(void)
{
	fs_tree *t = build(pp718, 6);
	fs_fairshare_row *r = run(t, FS_ALGO_CLASSIC, 1);
	uint32_t bob = pos(t, "group1.Bob"), suzy = pos(t, "group2.Suzy");
	uint32_t scott = pos(t, "group2.scott"), g2 = pos(t, "group2");

	/* the worked example: Bob 0.125 / 0.648, Suzy 0.5 / 0.382 */
	CHECK_DBL(r[bob].norm_usage, 100.0 / 1200, 1e-15);
	CHECK_DBL(r[bob].norm_shares, 0.2, 1e-15);
	CHECK_DBL(r[bob].effective_usage, 0.125, 1e-15);
	CHECK_DBL(r[bob].fairshare, 0.648, 0.0005);
	CHECK_DBL(r[bob].fairshare, pow(2, -0.625), 1e-15);
	CHECK_DBL(r[suzy].norm_shares, 0.36, 1e-15);
	CHECK_DBL(r[suzy].effective_usage, 0.5, 1e-15);
	CHECK_DBL(r[suzy].fairshare, 0.382, 0.0005);
	CHECK(r[0].rank == 0 && r[g2].rank == 0);
	/* most deserving: group1 (200/0.4 = 500) before group2 (1000/0.6); within: Ann = Bob by
	 * ratio, path order breaks the tie; then Suzy (0) before scott */
	CHECK(r[pos(t, "group1.Ann")].rank == 1 && r[bob].rank == 2);
	CHECK(r[suzy].rank == 3 && r[scott].rank == 4);
	free(r);

	/* the pbsfs -g scott listing */
	r = run(t, FS_ALGO_PBS, 1);
	CHECK_DBL(r[0].raw_usage, 1201, 0);
	CHECK_DBL(r[g2].raw_usage, 1001, 0);
	CHECK_DBL(r[scott].raw_usage, 1000, 0);
	CHECK_DBL(r[suzy].raw_usage, 1, 0);
	CHECK_DBL(r[scott].norm_shares, 0.24, 1e-15);
	CHECK_DBL(r[scott].effective_usage, 0.832973, 5e-7);
	CHECK_DBL(r[0].usage_per_share, 1201, 0);
	CHECK(floor(r[g2].usage_per_share + 0.5) == 1668);
	CHECK(floor(r[scott].usage_per_share + 0.5) == 4167);
	free(r);
	fs_tree_free(t);
}

static void
test_fair_tree(void)
{
	static const trow rows[] = {
	    {"A", 1, 0}, {"B", 1, 0}, {"A.u1", 1, 5}, {"A.u2", 1, 5}, {"B.u3", 1, 10}, {"B.u4", 1, 20},
	};
	fs_tree *t = build(rows, 6);
	fs_fairshare_row *r = run(t, FS_ALGO_FAIR_TREE, 1);
	uint32_t a = pos(t, "A"), u1 = pos(t, "A.u1"), u2 = pos(t, "A.u2");
	uint32_t u3 = pos(t, "B.u3"), u4 = pos(t, "B.u4");

	CHECK_DBL(r[a].norm_shares, 0.5, 0);
	CHECK_DBL(r[a].effective_usage, 0.25, 0);
	CHECK_DBL(r[a].level_fs, 2, 0);
	CHECK(r[a].fairshare_null && r[a].rank == 0);
	/* u1 and u2 tie: both keep rank 4 of 4 */
	CHECK_DBL(r[u1].fairshare, 1, 0);
	CHECK_DBL(r[u2].fairshare, 1, 0);
	CHECK(r[u1].rank == 1 && r[u2].rank == 1);
	CHECK_DBL(r[u3].fairshare, 0.5, 0);
	CHECK_DBL(r[u4].fairshare, 0.25, 0);
	CHECK(r[u3].rank == 3 && r[u4].rank == 4);
	free(r);
	fs_tree_free(t);
}

/* An account tied with its predecessor passes the tie to its first child. */
static void
test_fair_tree_account_tie(void)
{
	static const trow rows[] = {
	    {"A", 1, 0},    {"B", 1, 0}, {"A.x", 1, 10}, {"A.y", 1, 30},   {"B.p", 3, 10},
	    {"B.q", 1, 30}, {"C", 2, 0}, {"C.z", 1, 0},  {"C.lazy", 0, 0}, {"D", -2, 0},
	};
	fs_tree *t = build(rows, 10);
	fs_fairshare_row *r = run(t, FS_ALGO_FAIR_TREE, 1);
	/* level: A (1/4 shares, 40/80 usage) and B (1/4, 40/80) tie at 0.5; C has no usage: +inf;
	 * D is a FairShare=parent leaf: +inf. Order: D (leaf first on the +inf tie), C, then A, B. */
	uint32_t d = pos(t, "D"), z = pos(t, "C.z"), lazy = pos(t, "C.lazy");
	uint32_t x = pos(t, "A.x"), y = pos(t, "A.y"), p = pos(t, "B.p"), q = pos(t, "B.q");
	uint32_t n = 7;

	CHECK(isinf(r[d].level_fs) && r[d].raw_shares_null);
	CHECK(isinf(r[pos(t, "C")].level_fs));
	CHECK_DBL(r[pos(t, "A")].level_fs, 0.5, 0);
	CHECK_DBL(r[pos(t, "B")].level_fs, 0.5, 0);
	CHECK_DBL(r[d].fairshare, 7.0 / n, 0);
	/* C follows D on a +inf tie: its first child z keeps D's rank */
	CHECK_DBL(r[z].fairshare, 7.0 / n, 0);
	CHECK_DBL(r[lazy].fairshare, 5.0 / n, 0); /* no shares: level_fs 0 */
	CHECK_DBL(r[x].fairshare, 4.0 / n, 0);    /* x: 0.5/0.25 = 2 > y: 0.5/0.75 */
	CHECK_DBL(r[y].fairshare, 3.0 / n, 0);
	/* B tied with A: its first child p (0.75/0.25 = 3) keeps y's rank */
	CHECK_DBL(r[p].fairshare, 3.0 / n, 0);
	CHECK_DBL(r[q].fairshare, 1.0 / n, 0);
	CHECK(r[q].rank == 7 && r[p].rank == 5 && r[d].rank == 1);
	free(r);
	fs_tree_free(t);
}

/* FairShare=parent inner nodes are transparent; a zero share sum zeroes a subtree. */
static void
test_parent_and_zero(void)
{
	static const trow rows[] = {
	    {"acct", 2, 0},   {"acct.sub", -2, 0}, {"acct.sub.u1", 1, 30}, {"acct.u2", 1, 10},
	    {"other", 2, 40}, {"zero", 0, 0},      {"zero.a", 0, 5},       {"zero.b", 0, 5},
	};
	fs_tree *t = build(rows, 8);
	fs_fairshare_row *r = run(t, FS_ALGO_CLASSIC, 1);
	uint32_t acct = pos(t, "acct"), sub = pos(t, "acct.sub"), u1 = pos(t, "acct.sub.u1");
	uint32_t u2 = pos(t, "acct.u2"), za = pos(t, "zero.a");

	/* u1 joins acct's level next to u2: shares 1 of 2 */
	CHECK_DBL(r[acct].norm_shares, 0.5, 0);
	CHECK_DBL(r[u1].norm_shares, 0.25, 0);
	CHECK_DBL(r[u2].norm_shares, 0.25, 0);
	CHECK_DBL(r[sub].norm_shares, r[acct].norm_shares, 0);
	CHECK_DBL(r[sub].effective_usage, r[acct].effective_usage, 0);
	CHECK_DBL(r[sub].fairshare, r[acct].fairshare, 0);
	CHECK(r[sub].raw_shares_null);
	CHECK_DBL(r[u1].effective_usage, 30.0 / 90 + (r[acct].effective_usage - 30.0 / 90) * 0.5,
	          1e-15);
	/* zero: no shares, so no fairshare; its level sums to 0, its children take its usage */
	CHECK_DBL(r[pos(t, "zero")].fairshare, 0, 0);
	CHECK_DBL(r[za].norm_shares, 0, 0);
	CHECK_DBL(r[za].effective_usage, r[pos(t, "zero")].effective_usage, 0);
	CHECK(r[za].usage_per_share_null);
	free(r);
	r = run(t, FS_ALGO_CLASSIC, 2);
	CHECK_DBL(r[u2].fairshare, pow(2, -(r[u2].effective_usage / 0.25) / 2), 1e-15);
	free(r);
	fs_tree_free(t);
}

/*
 * SLURM's test24.4 (Fair Tree), account aD: FairShare=parent nodes print their own usage over
 * their level owner's (uD1: 20 / 110), their owner's level shares and no LevelFS; the root's
 * NormShares is 0. uD2 and uD3 tie exactly at 22/17 but SLURM's quotients do not.
 */
static void
test_fair_tree_parent(void)
{
	static const trow rows[] = {
	    {"aD", 50, 0},           {"aD.aDA", -2, 0},       {"aD.aDA.uDA1", -2, 10},
	    {"aD.aDA.uDA2", 30, 10}, {"aD.aDA.uDA3", 50, 25}, {"aD.uD1", -2, 20},
	    {"aD.uD2", 40, 20},      {"aD.uD3", 50, 25},      {"other", 158, 500},
	};
	fs_tree *t = build(rows, 9);
	fs_fairshare_row *r = run(t, FS_ALGO_FAIR_TREE, 1);
	uint32_t ud1 = pos(t, "aD.uD1"), ada = pos(t, "aD.aDA"), uda2 = pos(t, "aD.aDA.uDA2");
	uint32_t ud2 = pos(t, "aD.uD2"), ud3 = pos(t, "aD.uD3"), uda3 = pos(t, "aD.aDA.uDA3");

	CHECK_DBL(r[0].norm_shares, 0, 0);
	CHECK(r[0].usage_per_share_null);
	CHECK_DBL(r[ud1].effective_usage, 20.0 / 110, 1e-15);
	CHECK_DBL(r[ada].effective_usage, 45.0 / 110, 1e-15);
	CHECK_DBL(r[pos(t, "aD.aDA.uDA1")].effective_usage, 10.0 / 110, 1e-15);
	CHECK_DBL(r[ud1].norm_shares, 50.0 / 208, 1e-15);
	CHECK(r[ud1].level_fs_null && r[ada].level_fs_null);
	CHECK_DBL(r[uda2].norm_shares, 30.0 / 170, 1e-15);
	CHECK_DBL(r[uda2].effective_usage, 10.0 / 110, 1e-15);
	/* 7 leaves: uD1, uDA1 (+inf, tied) 7, uDA2 5, uD3 = uDA3 4, uD2 2, then "other" */
	CHECK_DBL(r[ud1].fairshare, 7.0 / 7, 0);
	CHECK_DBL(r[uda2].fairshare, 5.0 / 7, 0);
	CHECK_DBL(r[ud3].fairshare, 4.0 / 7, 0);
	CHECK_DBL(r[uda3].fairshare, 4.0 / 7, 0);
	CHECK_DBL(r[ud2].fairshare, 2.0 / 7, 0);
	free(r);
	r = run(t, FS_ALGO_FAIR_TREE_EXACT, 1);
	CHECK_DBL(r[ud2].fairshare, 4.0 / 7, 0);
	CHECK(r[ud2].rank == r[ud3].rank && r[ud3].rank == r[uda3].rank);
	free(r);
	/* classic: a parent node copies its owner's E, except under the root: its own U */
	r = run(t, FS_ALGO_CLASSIC, 1);
	CHECK_DBL(r[0].norm_shares, 1, 0);
	CHECK_DBL(r[ud1].effective_usage, r[pos(t, "aD")].effective_usage, 0);
	free(r);
	fs_tree_free(t);
	{
		static const trow under_root[] = {{"p", -2, 5}, {"a", 1, 15}};
		fs_tree *u = build(under_root, 2);

		r = run(u, FS_ALGO_CLASSIC, 1);
		CHECK_DBL(r[pos(u, "p")].effective_usage, 0.25, 0);
		CHECK_DBL(r[pos(u, "p")].fairshare, pow(2, -0.25), 1e-15);
		free(r);
		fs_tree_free(u);
	}
}

/*
 * DEPTH_OBLIVIOUS, the example of SLURM's page: R_parent = 2 and a child at r_l = 1/3 gets
 * k = 1 / (1 + (5 ln 2)^2) and R = 2 (1/3)^k; a child on the same side of 1 keeps R = r.
 */
static void
test_depth_oblivious(void)
{
	static const trow rows[] = {
	    {"A", 1, 0}, {"A.a1", 1, 1}, {"A.a2", 1, 5}, {"B", 1, 0}, {"A.p", -2, 0}, {"A.z", 0, 0},
	};
	fs_tree *t = build(rows, 6);
	fs_fairshare_row *r = run(t, FS_ALGO_DEPTH_OBLIVIOUS, 1);
	uint32_t a = pos(t, "A"), a1 = pos(t, "A.a1"), a2 = pos(t, "A.a2"), b = pos(t, "B");
	double k = 1 / (1 + pow(5 * log(2), 2));

	CHECK_DBL(r[a].effective_usage, 1, 0); /* under the root: E = U */
	CHECK_DBL(r[a1].norm_shares, 0.25, 0); /* z's 0 shares count, the parent leaf's none */
	CHECK_DBL(r[a].fairshare, 0.25, 0);
	/* a1: r = (1/6) / 0.25 = 2/3, level: (6/6) / 0.5 = 2, r_l = 1/3: signs differ */
	CHECK_DBL(r[a1].effective_usage, 2 * pow(1.0 / 3, k) * 0.25, 1e-15);
	CHECK_DBL(r[a1].fairshare, pow(2, -2 * pow(1.0 / 3, k)), 1e-15);
	CHECK_DBL(r[a1].fairshare, 0.279697, 5e-7);
	/* a2: r = 10/3, r_l = 5/3: k = 1, R = 10/3 = r */
	CHECK_DBL(r[a2].fairshare, pow(2, -10.0 / 3), 1e-15);
	CHECK_DBL(r[b].fairshare, 1, 0);
	/* the parent leaf copies A; the 0-share leaf has no factor */
	CHECK_DBL(r[pos(t, "A.p")].effective_usage, r[a].effective_usage, 0);
	CHECK_DBL(r[pos(t, "A.p")].fairshare, 0.25, 0);
	CHECK_DBL(r[pos(t, "A.z")].fairshare, 0, 0);
	/* ranks by factor: B (1), a1 (0.2797), p (0.25), a2 (0.0992), z (0) */
	CHECK(r[b].rank == 1 && r[a1].rank == 2 && r[pos(t, "A.p")].rank == 3 && r[a2].rank == 4);
	CHECK(r[pos(t, "A.z")].rank == 5);
	free(r);
	/* dampening divides R as it divides classic's E / S */
	r = run(t, FS_ALGO_DEPTH_OBLIVIOUS, 2);
	CHECK_DBL(r[a2].fairshare, pow(2, -5.0 / 3), 1e-15);
	free(r);
	fs_tree_free(t);
	CHECK(fs_algo_from_name("depth_oblivious") == FS_ALGO_DEPTH_OBLIVIOUS);
	CHECK(fs_algo_from_name("fair_tree_exact") == FS_ALGO_FAIR_TREE_EXACT);
}

static void
test_errors(void)
{
	fs_tree *t = build(pp718, 6);
	fs_tree *pool = fs_tree_new(&unit_alloc, FS_TREE_POOL);
	fs_fairshare_row *rows;
	fs_error err;

	CHECK(fs_fairshare(t, FS_ALGO_CLASSIC, 0, &unit_alloc, &rows, &err) == FS_ERR_VALUE);
	CHECK(fs_fairshare(t, FS_ALGO_CLASSIC, NAN, &unit_alloc, &rows, &err) == FS_ERR_VALUE);
	CHECK(fs_fairshare(pool, FS_ALGO_CLASSIC, 1, &unit_alloc, &rows, &err) == FS_ERR_VALUE);
	CHECK(fs_algo_from_name("fair_tree") == FS_ALGO_FAIR_TREE && fs_algo_from_name("x") < 0);
	{
		static const trow huge[] = {{"a", 1e308, 1}, {"b", 1e308, 3}};
		fs_tree *h = build(huge, 2);

		CHECK(fs_fairshare(h, FS_ALGO_CLASSIC, 1, &unit_alloc, &rows, &err) == FS_ERR_RANGE);
		CHECK(strstr(err.message, "add up past") != NULL);
		fs_tree_free(h);
	}
	fs_tree_free(t);
	fs_tree_free(pool);
}

/*
 * PBS's most-deserving order (the rank of classic and pbs) defined as a comparison, as pbsfs
 * sorts: two leaves compare at the first depth where their flattened paths differ, by
 * usage / norm_shares (smaller first; no share sorts last), equal ratios move on to the next
 * depth, and a final tie keeps path order. fs_fairshare walks the tree instead; the ranks must
 * be those of a merge sort with this comparison, on every tree.
 */
typedef struct rank_ref
{
	const fs_tree *t;
	const fs_fairshare_row *rows;
} rank_ref;

static uint32_t
ref_owner(const fs_tree *t, uint32_t i)
{
	uint32_t p = fs_tree_parent_pos(t, i);

	while (p > 0 && (fs_tree_node(t, p)->flags & FS_TN_PARENT))
		p = fs_tree_parent_pos(t, p);
	return p;
}

static uint32_t
ref_chain(const fs_tree *t, uint32_t leaf, uint32_t *out)
{
	uint32_t tmp[64], k = 0, m = 0;

	for (; leaf != 0; leaf = ref_owner(t, leaf))
		tmp[k++] = leaf;
	while (k > 0)
		out[m++] = tmp[--k];
	return m;
}

static double
ref_ratio(const fs_fairshare_row *r)
{
	return r->norm_shares > 0 ? r->raw_usage / r->norm_shares : INFINITY;
}

static int
ref_cmp(const void *x, const void *y, void *ctx)
{
	const rank_ref *c = ctx;
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;
	uint32_t ca[64], cb[64];
	uint32_t na = ref_chain(c->t, a, ca), nb = ref_chain(c->t, b, cb), k = 0;

	while (k < na && k < nb && ca[k] == cb[k])
		k++;
	for (; k < na && k < nb; k++)
	{
		double ra = ref_ratio(&c->rows[ca[k]]), rb = ref_ratio(&c->rows[cb[k]]);

		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/* Random trees with many ties (few distinct shares and usages), FairShare=parent nodes, and
 * leaves at every depth (a leaf tied with an inner node: the walk hands over to the sort). */
static void
test_rank_walk(void)
{
	uint64_t seed = 17;
	int round;

	for (round = 0; round < 400; round++)
	{
		fs_tree *t = fs_tree_new(&unit_alloc, FS_TREE_SHARE);
		bool same_depth = round % 2 == 0; /* all leaves at depth 3: the walk never gives up */
		uint32_t nleaves = 1 + (uint32_t) (unit_rand(&seed) % 60);
		uint32_t i, nl = 0;
		uint32_t *leaves;
		fs_error err;
		int algo;

		for (i = 0; i < nleaves; i++)
		{
			char text[64];
			uint8_t *p;
			size_t len;
			fs_tree_row r;
			uint32_t depth = same_depth ? 3 : 1 + (uint32_t) (unit_rand(&seed) % 3);
			uint32_t d;
			int off = 0;

			for (d = 0; d < depth; d++)
				off += snprintf(text + off, sizeof(text) - off, "%sn%u", d ? "." : "",
				                (unsigned) (unit_rand(&seed) % 3));
			if (fs_sp_parse(text, strlen(text), &unit_alloc, 0, &p, &len, &err) != FS_OK)
				exit(2);
			memset(&r, 0, sizeof(r));
			r.path = p;
			r.has_shares = true;
			r.shares = (double) (unit_rand(&seed) % 3);
			r.usage = (double) (unit_rand(&seed) % 3) * 2;
			/* a stated-twice node must agree: the first statement wins, later rows add usage */
			if (fs_tree_add(t, &r, &err) != FS_OK)
			{
				r.has_shares = false;
				CHECK(fs_tree_add(t, &r, &err) == FS_OK);
			}
			free(p);
		}
		/* some inner nodes become FairShare=parent */
		if (!CHECK(fs_tree_prepare(t, &err) == FS_OK))
			exit(2);
		for (i = 1; i < fs_tree_count(t) && round % 3 == 0; i++)
		{
			fs_tree_row r;

			if (fs_tree_is_leaf(t, i) || unit_rand(&seed) % 4 != 0 ||
			    (fs_tree_node(t, i)->flags & FS_TN_DECLARED))
				continue;
			memset(&r, 0, sizeof(r));
			r.path = fs_tree_node(t, i)->path;
			r.from_parent = true;
			CHECK(fs_tree_add(t, &r, &err) == FS_OK);
			if (!CHECK(fs_tree_prepare(t, &err) == FS_OK))
				exit(2);
		}
		leaves = malloc(sizeof(uint32_t) * fs_tree_count(t));
		for (i = 1; i < fs_tree_count(t); i++)
			if (fs_tree_is_leaf(t, i))
				leaves[nl++] = i;
		for (algo = 0; algo < 2; algo++)
		{
			fs_fairshare_row *rows = run(t, algo ? FS_ALGO_PBS : FS_ALGO_CLASSIC, 1);
			rank_ref ref = {t, rows};
			uint32_t *sorted = malloc(sizeof(uint32_t) * (nl ? nl : 1));
			bool same = true;

			memcpy(sorted, leaves, sizeof(uint32_t) * nl);
			fs_sort(sorted, nl, sizeof(uint32_t), ref_cmp, &ref, &unit_alloc);
			for (i = 0; i < nl; i++)
				same = same && rows[sorted[i]].rank == (int64_t) i + 1;
			for (i = 0; i < fs_tree_count(t); i++)
				same = same && (rows[i].rank != 0) == (i > 0 && fs_tree_is_leaf(t, i));
			if (!CHECK(same))
				printf("     round %d, algorithm %d: ranks differ from the sort\n", round, algo);
			free(sorted);
			free(rows);
		}
		free(leaves);
		fs_tree_free(t);
	}
}

void
test_fairshare(void)
{
	test_pp718();
	test_fair_tree();
	test_fair_tree_account_tie();
	test_parent_and_zero();
	test_fair_tree_parent();
	test_depth_oblivious();
	test_errors();
	test_rank_walk();
}
