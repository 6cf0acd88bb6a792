/*
 * test_groupquota.c: unit tests of src/core/share/groupquota.c with the HTCondor manual's examples
 * (hierarchical group quotas) and hand computations of the surplus and round-robin rules.
 */
#include "unit.h"
#include "share/groupquota.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gspec
{
	const char *name;
	double quota;
	bool dynamic;
	bool accept;
	double demand;
} gspec;

typedef struct result
{
	fs_gq_row *rows;
	size_t n;
	fs_gq_group *groups;
	fs_status st;
	fs_error err;
} result;

/* NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION for run(): the tests before test_oversubscription
 * pin the scaling mode */
static bool oversub = false;

static result
run(const gspec *spec, size_t n, double pool, double none_demand, bool weights, bool autoregroup)
{
	result r;
	fs_gq_options opt;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.groups = calloc(n > 0 ? n : 1, sizeof(fs_gq_group));
	for (i = 0; i < n; i++)
	{
		r.groups[i].name = spec[i].name;
		r.groups[i].namelen = strlen(spec[i].name);
		r.groups[i].quota = spec[i].quota;
		r.groups[i].dynamic = spec[i].dynamic;
		r.groups[i].accept_surplus = spec[i].accept;
		r.groups[i].autoregroup = autoregroup && i == 0;
		r.groups[i].demand = spec[i].demand;
	}
	opt.pool = pool;
	opt.none_demand = none_demand;
	opt.use_slot_weights = weights;
	opt.allow_oversubscription = oversub;
	r.st = fs_group_quotas(r.groups, n, &opt, &unit_alloc, &r.rows, &r.n, &r.err);
	return r;
}

static void
done(result *r)
{
	if (r->st == FS_OK)
		free(r->rows);
	free(r->groups);
}

/* the row of a group by name, "<none>" for the root */
static const fs_gq_row *
row(const result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
	{
		const fs_gq_row *w = &r->rows[i];

		if (w->group == SIZE_MAX ? strcmp(name, FS_GQ_ROOT_NAME) == 0
		                         : strcmp(r->groups[w->group].name, name) == 0)
			return w;
	}
	printf("     no row %s\n", name);
	exit(2);
}

/* The manual's static example: physics 20, chemistry 10; 15 slots scale them to 10 and 5. */
static void
test_static(void)
{
	static const gspec g[] = {{"group_physics", 20, false, false, 60},
	                          {"group_chemistry", 10, false, false, 60}};
	result r = run(g, 2, 30, 0, true, false);

	CHECK(r.st == FS_OK && r.n == 3);
	/* pre-order, children in case-insensitive name order */
	CHECK(r.rows[0].group == SIZE_MAX && r.rows[1].group == 1 && r.rows[2].group == 0);
	CHECK_DBL(row(&r, "group_physics")->quota, 20, 0);
	CHECK_DBL(row(&r, "group_physics")->allocated, 20, 0);
	CHECK_DBL(row(&r, "group_chemistry")->allocated, 10, 0);
	CHECK_DBL(row(&r, "<none>")->quota, 0, 0);
	done(&r);
	r = run(g, 2, 15, 0, true, false);
	CHECK_DBL(row(&r, "group_physics")->quota, 10, 0);
	CHECK_DBL(row(&r, "group_chemistry")->quota, 5, 0);
	done(&r);
	/* not scaled up: 60 slots leave 30 to <none>, which takes what its own submitters want and
	 * then, as a member of its own level, the surplus physics leaves (20 - 5) */
	{
		static const gspec h[] = {{"group_physics", 20, false, false, 5},
		                          {"group_chemistry", 10, false, false, 10}};

		r = run(h, 2, 60, 50, true, false);
		CHECK_DBL(row(&r, "group_physics")->quota, 20, 0);
		CHECK_DBL(row(&r, "<none>")->quota, 30, 0);
		CHECK_DBL(row(&r, "<none>")->subtree_quota, 60, 0);
		CHECK_DBL(row(&r, "<none>")->allocated, 45, 0);
		CHECK_DBL(row(&r, "<none>")->surplus, 15, 0);
		CHECK_DBL(row(&r, "<none>")->requested, 50, 0);
		CHECK_DBL(row(&r, "group_physics")->allocated, 5, 0);
		CHECK_DBL(row(&r, "group_physics")->surplus, 0, 0);
		done(&r);
	}
}

/* The manual's dynamic examples: fractions of the parent, scaled down when they sum past 1. */
static void
test_dynamic(void)
{
	static const gspec flat[] = {{"group_physics", 0.66, true, false, 100},
	                             {"group_chemistry", 0.33, true, false, 100}};
	static const gspec tree[] = {{"group_physics", 0.66667, true, false, 100},
	                             {"group_physics.hep", 0.75, true, false, 100},
	                             {"group_physics.lep", 0.25, true, false, 100},
	                             {"group_chemistry", 0.33334, true, false, 100}};
	result r = run(flat, 2, 30, 0, true, false);
	double zd = 0.66667 + 0.33334;

	CHECK_DBL(row(&r, "group_physics")->quota, 0.66 * 30, 0);
	CHECK_DBL(row(&r, "group_chemistry")->quota, 0.33 * 30, 0);
	CHECK_DBL(row(&r, "<none>")->quota, 30 - 0.66 * 30 - 0.33 * 30, 1e-12);
	done(&r);
	r = run(tree, 4, 30, 0, true, false);
	/* 1.00001 > 1: physics gets 0.66667 / 1.00001 of 30; hep 75 % of that: about 15 slots */
	CHECK_DBL(row(&r, "group_physics")->subtree_quota, 0.66667 * (30 / zd), 0);
	CHECK_DBL(row(&r, "group_physics")->quota, 0, 1e-12);
	CHECK_DBL(row(&r, "group_physics.hep")->quota, 0.75 * (0.66667 * (30 / zd)), 1e-12);
	CHECK_DBL(row(&r, "group_physics.hep")->quota, 15, 1e-4);
	CHECK_DBL(row(&r, "group_physics.lep")->quota, 5, 1e-4);
	CHECK_DBL(row(&r, "group_chemistry")->quota, 0.33334 * (30 / zd), 0);
	CHECK(r.rows[1].group == 3 && r.rows[2].group == 0 && r.rows[3].group == 1);
	CHECK(r.rows[3].depth == 2);
	done(&r);
}

/*
 * The manual's surplus example: hep and lep accept surplus, physics does not: they may exceed
 * 15 and 5 but not 20 together. hep asks 60, lep 2, chemistry nothing: lep's 3 unused slots go
 * to hep (18); chemistry's 10 reach the root, where nobody accepting asks: unused. When physics
 * accepts too, they flow to hep: 28.
 */
static void
test_surplus(void)
{
	gspec g[] = {{"group_physics", 20, false, false, 0},
	             {"group_physics.hep", 15, false, true, 60},
	             {"group_physics.lep", 5, false, true, 2},
	             {"group_chemistry", 10, false, false, 0}};
	result r = run(g, 4, 30, 0, true, false);

	CHECK_DBL(row(&r, "group_physics.hep")->allocated, 18, 0);
	CHECK_DBL(row(&r, "group_physics.hep")->surplus, 3, 0);
	CHECK_DBL(row(&r, "group_physics.lep")->allocated, 2, 0);
	CHECK_DBL(row(&r, "group_chemistry")->allocated, 0, 0);
	CHECK_DBL(row(&r, "<none>")->allocated, 0, 0);
	done(&r);
	g[0].accept = true;
	r = run(g, 4, 30, 0, true, false);
	CHECK_DBL(row(&r, "group_physics.hep")->allocated, 28, 0);
	done(&r);
}

/*
 * Surplus by quota, then equally among groups with zero quota. c (60, not accepting) leaves
 * 60: a (quota 30) and b (10) split it 3:1, 45 and 15. When b wants only 2 more, a takes the
 * rest: 30 + 58. With zero-quota groups: x (6) wants 1 more, the 3 left go equally to y and z
 * (quota 0), z wanting only 1: y 2, z 1.
 */
static void
test_surplus_shares(void)
{
	gspec g[] = {
	    {"a", 30, false, true, 100}, {"b", 10, false, true, 100}, {"c", 60, false, false, 0}};
	static const gspec zero[] = {{"x", 6, false, true, 7},
	                             {"y", 0, false, true, 10},
	                             {"z", 0, false, true, 1},
	                             {"w", 4, false, false, 0}};
	result r = run(g, 3, 100, 0, true, false);

	CHECK_DBL(row(&r, "a")->allocated, 75, 0);
	CHECK_DBL(row(&r, "b")->allocated, 25, 0);
	CHECK_DBL(row(&r, "b")->surplus, 15, 0);
	done(&r);
	g[1].demand = 12;
	r = run(g, 3, 100, 0, true, false);
	CHECK_DBL(row(&r, "a")->allocated, 88, 0);
	CHECK_DBL(row(&r, "b")->allocated, 12, 0);
	done(&r);
	r = run(zero, 4, 10, 0, true, false);
	CHECK_DBL(row(&r, "x")->allocated, 7, 0);
	CHECK_DBL(row(&r, "y")->allocated, 2, 0);
	CHECK_DBL(row(&r, "z")->allocated, 1, 0);
	CHECK_DBL(row(&r, "y")->surplus, 2, 0);
	done(&r);
}

/*
 * Whole slots: 10 slots, dynamic quotas 0.25, 0.25, 0.5 give 2.5, 2.5 and 5; each allocation is
 * rounded down and the two halves make one slot, which round robin gives to the group with the
 * largest quota: c. Without accept_surplus nobody may take it.
 */
static void
test_round_robin(void)
{
	gspec g[] = {
	    {"a", 0.25, true, true, 10}, {"b", 0.25, true, true, 10}, {"c", 0.5, true, true, 10}};
	result r = run(g, 3, 10, 0, false, false);
	size_t i;

	CHECK(r.st == FS_OK);
	CHECK_DBL(row(&r, "a")->quota, 2.5, 0);
	CHECK_DBL(row(&r, "a")->allocated, 2, 0);
	CHECK_DBL(row(&r, "b")->allocated, 2, 0);
	CHECK_DBL(row(&r, "c")->allocated, 6, 0);
	CHECK_DBL(row(&r, "c")->surplus, 1, 0);
	done(&r);
	for (i = 0; i < 3; i++)
		g[i].accept = false;
	r = run(g, 3, 10, 0, false, false);
	CHECK_DBL(row(&r, "c")->allocated, 5, 0);
	CHECK_DBL(row(&r, "a")->allocated + row(&r, "b")->allocated, 4, 0);
	done(&r);
	/* with slot weights the fractions stay */
	r = run(g, 3, 10, 0, true, false);
	CHECK_DBL(row(&r, "a")->allocated, 2.5, 0);
	done(&r);
	/* round robin hands out at most max(1, floor(surplus / wanting)) per group and pass: 3
	 * slots of remainders (six 0.5s) among six equal groups: the first three by position */
	{
		static const gspec six[] = {{"g1", 1.5, false, true, 9}, {"g2", 1.5, false, true, 9},
		                            {"g3", 1.5, false, true, 9}, {"g4", 1.5, false, true, 9},
		                            {"g5", 1.5, false, true, 9}, {"g6", 1.5, false, true, 9}};

		r = run(six, 6, 9, 0, false, false);
		CHECK_DBL(row(&r, "g1")->allocated, 2, 0);
		CHECK_DBL(row(&r, "g3")->allocated, 2, 0);
		CHECK_DBL(row(&r, "g4")->allocated, 1, 0);
		CHECK_DBL(row(&r, "g6")->allocated, 1, 0);
		done(&r);
	}
}

static void
test_autoregroup(void)
{
	static const gspec g[] = {{"a", 4, false, false, 10}};
	result r = run(g, 1, 10, 0, true, true);

	CHECK_DBL(row(&r, "a")->allocated, 4, 0);
	CHECK_DBL(row(&r, "<none>")->quota, 10, 0);
	CHECK_DBL(row(&r, "<none>")->allocated, 10, 0);
	CHECK_DBL(row(&r, "<none>")->surplus, 0, 0);
	done(&r);
	r = run(g, 1, 10, 0, true, false);
	CHECK_DBL(row(&r, "<none>")->quota, 6, 0);
	CHECK_DBL(row(&r, "<none>")->allocated, 0, 0);
	done(&r);
}

static void
expect_error(const gspec *g, size_t n, double pool, bool weights, fs_status want,
             const char *needle)
{
	result r = run(g, n, pool, 0, weights, false);

	if (!CHECK(r.st == want) || !CHECK(strstr(r.err.message, needle) != NULL))
		printf("     got %d: %s\n", r.st, r.st ? r.err.message : "ok");
	done(&r);
}

static void
test_errors(void)
{
	static const gspec missing[] = {{"a.b", 1, false, false, 0}};
	static const gspec twice[] = {{"Physics", 1, false, false, 0}, {"physics", 2, false, false, 0}};
	static const gspec root[] = {{"<none>", 1, false, false, 0}};
	static const gspec dots[] = {{"a..b", 1, false, false, 0}};
	static const gspec trail[] = {{"a.", 1, false, false, 0}};
	static const gspec empty[] = {{"", 1, false, false, 0}};
	static const gspec neg[] = {{"a", -1, false, false, 0}};
	static const gspec dyn[] = {{"a", 1.5, true, false, 0}};
	static const gspec dem[] = {{"a", 1, false, false, -2}};
	static const gspec frac[] = {{"a", 1, false, false, 2.5}};
	static const gspec inf[] = {{"a", INFINITY, false, false, 0}};

	expect_error(missing, 1, 10, true, FS_ERR_VALUE, "has no parent group \"a\"");
	expect_error(twice, 2, 10, true, FS_ERR_VALUE, "is given twice");
	expect_error(root, 1, 10, true, FS_ERR_VALUE, "reserved for the root group");
	expect_error(dots, 1, 10, true, FS_ERR_VALUE, "invalid group name");
	expect_error(trail, 1, 10, true, FS_ERR_VALUE, "invalid group name");
	expect_error(empty, 1, 10, true, FS_ERR_VALUE, "is empty");
	expect_error(neg, 1, 10, true, FS_ERR_VALUE, "quota of group \"a\"");
	expect_error(dyn, 1, 10, true, FS_ERR_VALUE, "between 0 and 1");
	expect_error(dem, 1, 10, true, FS_ERR_VALUE, "demand of group \"a\"");
	expect_error(frac, 1, 10, false, FS_ERR_VALUE, "whole number");
	expect_error(inf, 1, 10, true, FS_ERR_RANGE, "finite");
	expect_error(NULL, 0, -1, true, FS_ERR_VALUE, "pool must be");
	expect_error(NULL, 0, 2.5, false, FS_ERR_VALUE, "whole numbers");
	{
		/* 1025 levels */
		char *deep = malloc(2 * 1025);
		gspec d = {deep, 1, false, false, 0};
		size_t i;

		for (i = 0; i < 1025; i++)
		{
			deep[2 * i] = 'a';
			deep[2 * i + 1] = '.';
		}
		deep[2 * 1025 - 1] = '\0';
		expect_error(&d, 1, 10, true, FS_ERR_LIMIT, "nested 1025 levels deep");
		free(deep);
	}
	/* no groups: <none> alone */
	{
		result r = run(NULL, 0, 7, 3, true, false);

		CHECK(r.st == FS_OK && r.n == 1);
		CHECK_DBL(r.rows[0].quota, 7, 0);
		CHECK_DBL(r.rows[0].allocated, 3, 0);
		done(&r);
	}
}

/*
 * Properties on generated trees: allocations never exceed demand, what a group receives beyond
 * its quota came from surplus, and the pool is never over-allocated.
 */
static void
test_properties(void)
{
	uint64_t seed = 42;
	int round;

	for (round = 0; round < 500; round++)
	{
		gspec g[40];
		char names[40][32];
		size_t n = 1 + unit_rand(&seed) % 40, i;
		double pool = (double) (unit_rand(&seed) % 200);
		bool whole = unit_rand(&seed) % 2 == 0;
		double total = 0;
		result r;

		for (i = 0; i < n; i++)
		{
			/* parents first: group i's parent is an earlier group or the root */
			size_t p = i == 0 ? SIZE_MAX : unit_rand(&seed) % (i + 1);

			if (p == SIZE_MAX || p == i)
				snprintf(names[i], sizeof(names[i]), "g%zu", i);
			else
				snprintf(names[i], sizeof(names[i]), "%s.g%zu", names[p], i);
			if (strlen(names[i]) > 24)
				snprintf(names[i], sizeof(names[i]), "g%zu", i);
			g[i].name = names[i];
			g[i].dynamic = unit_rand(&seed) % 2 == 0;
			g[i].quota = g[i].dynamic ? (double) (unit_rand(&seed) % 101) / 100
			                          : (double) (unit_rand(&seed) % 50);
			g[i].accept = unit_rand(&seed) % 3 != 0;
			g[i].demand = (double) (unit_rand(&seed) % 60);
		}
		r = run(g, n, pool, (double) (unit_rand(&seed) % 20), !whole, false);
		if (!CHECK(r.st == FS_OK))
		{
			printf("     %s\n", r.err.message);
			done(&r);
			continue;
		}
		CHECK(r.n == n + 1);
		for (i = 0; i < r.n; i++)
		{
			const fs_gq_row *w = &r.rows[i];

			CHECK(w->allocated <= w->requested + 1e-9);
			CHECK(w->allocated >= -1e-12 && w->surplus >= 0);
			if (whole)
				CHECK(w->allocated == floor(w->allocated));
			else /* its own quota serves a group first */
				CHECK(w->allocated >= (w->quota < w->requested ? w->quota : w->requested) - 1e-9);
			total += w->allocated;
		}
		if (!CHECK(total <= pool + 1e-9))
		{
			printf("     pool %g total %g whole %d\n", pool, total, whole);
			for (i = 0; i < r.n; i++)
				printf("     %s q=%g sq=%g req=%g alloc=%g\n",
				       r.rows[i].group == SIZE_MAX ? "<none>" : g[r.rows[i].group].name,
				       r.rows[i].quota, r.rows[i].subtree_quota, r.rows[i].requested,
				       r.rows[i].allocated);
			for (i = 0; i < n; i++)
				printf("     in %s %g %d %d %g\n", g[i].name, g[i].quota, g[i].dynamic, g[i].accept,
				       g[i].demand);
		}
		done(&r);
	}
}

/*
 * Whole slots: three groups of zero quota split 11 slots as 11/3 each; the remainders make two
 * whole slots, which round robin hands out (summed as doubles they came to just under 2).
 */
static void
test_whole_remainders(void)
{
	const gspec g[] = {
	    {"a", 0, false, true, 10}, {"b", 0, false, true, 10}, {"c", 0, false, true, 10}};
	result r = run(g, 3, 11, 0, false, false);
	double total = 0, most = 0, least = 1e9;
	size_t i;

	if (!CHECK(r.st == FS_OK) || !CHECK(r.n == 4))
	{
		done(&r);
		return;
	}
	for (i = 1; i < r.n; i++)
	{
		CHECK(r.rows[i].allocated == floor(r.rows[i].allocated));
		total += r.rows[i].allocated;
		most = r.rows[i].allocated > most ? r.rows[i].allocated : most;
		least = r.rows[i].allocated < least ? r.rows[i].allocated : least;
	}
	CHECK(total == 11);
	CHECK(most - least <= 1);
	done(&r);
	/* the same split one level down, under a parent of zero quota */
	{
		const gspec h[] = {{"p", 0, false, true, 0},
		                   {"p.a", 0, false, true, 10},
		                   {"p.b", 0, false, true, 10},
		                   {"p.c", 0, false, true, 10}};

		r = run(h, 4, 11, 0, false, false);
		total = 0;
		if (CHECK(r.st == FS_OK))
			for (i = 0; i < r.n; i++)
				total += r.rows[i].allocated;
		CHECK(total == 11);
		done(&r);
	}
}

/*
 * NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION, HTCondor's default: the manual's 30-slot static
 * example at 15 slots keeps physics 20 and chemistry 10, and each gets its demand in full
 * though they add up to twice the pool; job_hgq_negfail_basic_van's tree (40 slots, dynamic
 * halves, a and b not accepting surplus) gives a.a its 20 jobs in the first round, since a
 * keeps its whole quota of 20 as its own and shares what it does not use with a.a.
 */
static void
test_oversubscription(void)
{
	static const gspec g[] = {{"group_physics", 20, false, false, 60},
	                          {"group_chemistry", 10, false, false, 60}};
	static const gspec t[] = {{"a", 0.5, true, false, 0},   {"b", 0.5, true, false, 0},
	                          {"a.a", 0.5, true, true, 20}, {"a.b", 0.5, true, true, 10},
	                          {"b.a", 0.5, true, true, 10}, {"b.b", 0.5, true, true, 10}};
	static const gspec h[] = {{"group_physics", 20, false, false, 0},
	                          {"group_physics.hep", 15, false, true, 60},
	                          {"group_physics.lep", 5, false, true, 2}};
	result r;
	int w;

	oversub = true;
	for (w = 0; w < 2; w++)
	{
		r = run(g, 2, 15, 0, w == 0, false);
		CHECK(r.st == FS_OK);
		CHECK_DBL(row(&r, "group_physics")->quota, 20, 0);
		CHECK_DBL(row(&r, "group_chemistry")->quota, 10, 0);
		CHECK_DBL(row(&r, "group_physics")->allocated, 20, 0);
		CHECK_DBL(row(&r, "group_chemistry")->allocated, 10, 0);
		/* <none> keeps the pool less its children's, at least 0 */
		CHECK_DBL(row(&r, "<none>")->quota, 0, 0);
		CHECK_DBL(row(&r, "<none>")->subtree_quota, 15, 0);
		done(&r);
	}
	/* below the pool nothing changes: quotas are not scaled up */
	r = run(g, 2, 60, 0, true, false);
	CHECK_DBL(row(&r, "group_physics")->quota, 20, 0);
	CHECK_DBL(row(&r, "<none>")->quota, 30, 0);
	done(&r);
	for (w = 0; w < 2; w++)
	{
		r = run(t, 6, 40, 0, w == 1, false);
		CHECK(r.st == FS_OK);
		CHECK_DBL(row(&r, "a")->quota, 20, 0);
		CHECK_DBL(row(&r, "a")->subtree_quota, 20, 0);
		CHECK_DBL(row(&r, "a.a")->quota, 10, 0);
		CHECK_DBL(row(&r, "a.a")->allocated, 20, 0);
		CHECK_DBL(row(&r, "a.a")->surplus, 10, 0);
		CHECK_DBL(row(&r, "a.b")->allocated, 10, 0);
		CHECK_DBL(row(&r, "b.a")->allocated, 10, 0);
		CHECK_DBL(row(&r, "b.b")->allocated, 10, 0);
		CHECK_DBL(row(&r, "<none>")->quota, 0, 0);
		done(&r);
	}
	/* a group with subgroups keeps its whole quota: physics' 20 unused go to hep */
	r = run(h, 3, 30, 0, true, false);
	CHECK_DBL(row(&r, "group_physics")->quota, 20, 0);
	CHECK_DBL(row(&r, "group_physics.hep")->allocated, 38, 0);
	CHECK_DBL(row(&r, "group_physics.lep")->allocated, 2, 0);
	done(&r);
	oversub = false;
	r = run(t, 6, 40, 0, true, false);
	CHECK_DBL(row(&r, "a")->quota, 0, 0);
	CHECK_DBL(row(&r, "a.a")->allocated, 10, 0);
	done(&r);
	r = run(h, 3, 30, 0, true, false);
	CHECK_DBL(row(&r, "group_physics")->quota, 0, 0);
	CHECK_DBL(row(&r, "group_physics.hep")->allocated, 18, 0);
	done(&r);
}

void
test_groupquota(void)
{
	test_static();
	test_dynamic();
	test_surplus();
	test_surplus_shares();
	test_round_robin();
	test_whole_remainders();
	test_autoregroup();
	test_errors();
	test_properties();
	test_oversubscription();
}
