/*
 * test_vector_hdrf.c: unit tests of vector HDRF: the bisection over the bit pattern, the
 * piecewise-linear functions (an operation's by fit factor, the fair share by suggestion, the
 * children's sum, compression), and whole trees with the numbers of YTsaurus's own tests.
 */
#include "unit.h"

#include "share/vector_hdrf.h"

#include <float.h>
#include <math.h>

static bool
below_third(double x, void *ctx)
{
	(void) ctx;
	return x <= 1.0 / 3;
}

static bool
never_above_zero(double x, void *ctx)
{
	(void) ctx;
	return x <= 0;
}

static int calls;

static bool
counting(double x, void *ctx)
{
	(void) ctx;
	calls++;
	return x * x <= 2;
}

static void
test_bisect(void)
{
	double s;

	/* the largest double satisfying the predicate, exactly */
	CHECK(fs_vh_bisect(0, 1, below_third, NULL) == 1.0 / 3);
	CHECK(fs_vh_bisect(0, 1, never_above_zero, NULL) == 0);
	CHECK(fs_vh_bisect(0, 0.25, below_third, NULL) == 0.25);
	calls = 0;
	s = fs_vh_bisect(0, 2, counting, NULL);
	CHECK(s * s <= 2 && nextafter(s, 3) * nextafter(s, 3) > 2);
	CHECK(calls <= 65);
}

static void
test_operation_fn(void)
{
	double u[3] = {0.1, 0.4, 0.2}, d[3] = {0.5, 0.8, 0.2}, v[3];
	fs_vh_fn fn;
	fs_error err;

	/* re-given its usage first, equally: at f = 0.25 every component is min(U_r, 0.1) */
	fs_vh_operation_fsbff(u, d, 3, false, &unit_alloc, &fn, &err);
	fs_vh_fn_eval(&fn, 0.25, v);
	CHECK_DBL(v[0], 0.1, 1e-15);
	CHECK_DBL(v[1], 0.1, 1e-15);
	CHECK_DBL(v[2], 0.1, 1e-15);
	fs_vh_fn_eval(&fn, 0.5, v);
	CHECK_DBL(v[1], 0.2, 1e-15);
	CHECK_DBL(v[2], 0.2, 1e-15);
	fs_vh_fn_eval(&fn, 1, v);
	CHECK_DBL(v[1], 0.4, 1e-15);
	/* then linear from usage to demand */
	fs_vh_fn_eval(&fn, 1.5, v);
	CHECK_DBL(v[0], 0.3, 1e-15);
	CHECK_DBL(v[1], 0.6, 1e-15);
	fs_vh_fn_eval(&fn, 2, v);
	CHECK_DBL(v[0], 0.5, 1e-15);
	fs_vh_fn_free(&fn, &unit_alloc);

	/* a gang with the step function: 0 up to and at f = 1 (left-continuous), then all */
	fs_vh_operation_fsbff(u, d, 3, true, &unit_alloc, &fn, &err);
	fs_vh_fn_eval(&fn, 1, v);
	CHECK(v[0] == 0 && v[1] == 0);
	fs_vh_fn_eval(&fn, 1.0000001, v);
	CHECK(v[1] == 0.8);
	fs_vh_fn_free(&fn, &unit_alloc);
}

static void
test_fsbs(void)
{
	/* no usage, demand (1, 0.5): FSBS(s) = D min(s, L) / max D */
	double u[2] = {0, 0}, d[2] = {1, 0.5}, g[2] = {0, 0}, l[2] = {1, 1}, v[2], f;
	fs_vh_fn ff, fs, sum;
	const fs_vh_fn *kids[2];
	double ratio[2] = {1, 1};
	fs_error err;

	fs_vh_operation_fsbff(u, d, 2, false, &unit_alloc, &ff, &err);
	CHECK(fs_vh_fsbs(&ff, g, l, &unit_alloc, &fs, &err) == FS_OK);
	f = fs_vh_fn_eval(&fs, 0.4, v);
	CHECK_DBL(v[0], 0.4, 1e-15);
	CHECK_DBL(v[1], 0.2, 1e-15);
	CHECK_DBL(f, 1.4, 1e-15);
	fs_vh_fn_eval(&fs, 0, v);
	CHECK(v[0] == 0);
	/* the limit in the first resource stops it, and the rest is constant */
	l[0] = 0.3;
	fs_vh_fn_free(&fs, &unit_alloc);
	fs_vh_fsbs(&ff, g, l, &unit_alloc, &fs, &err);
	fs_vh_fn_eval(&fs, 0.9, v);
	CHECK_DBL(v[0], 0.3, 1e-15);
	CHECK_DBL(v[1], 0.15, 1e-15);
	/*
	 * a guarantee in one resource alone gives nothing at suggestion 0 (the suggestion is added
	 * in every resource); in both it is given, and the suggestion adds on top of it
	 */
	l[0] = 1;
	g[0] = 0.2;
	fs_vh_fn_free(&fs, &unit_alloc);
	fs_vh_fsbs(&ff, g, l, &unit_alloc, &fs, &err);
	fs_vh_fn_eval(&fs, 0, v);
	CHECK(v[0] == 0);
	g[1] = 0.1;
	fs_vh_fn_free(&fs, &unit_alloc);
	fs_vh_fsbs(&ff, g, l, &unit_alloc, &fs, &err);
	fs_vh_fn_eval(&fs, 0, v);
	CHECK_DBL(v[0], 0.2, 1e-15);
	fs_vh_fn_eval(&fs, 0.3, v);
	CHECK_DBL(v[0], 0.5, 1e-15);
	g[0] = 0;
	g[1] = 0;

	/* the sum of two children at equal weights, and compression keeps it exact */
	kids[0] = &fs;
	kids[1] = &fs;
	CHECK(fs_vh_sum_children(kids, ratio, 2, 2, 1000, &unit_alloc, &sum, &err) == FS_OK);
	fs_vh_fn_eval(&sum, 0.25, v);
	CHECK_DBL(v[0], 0.9, 1e-12); /* 2 x FSBS(0.25) = 2 x (0.45, 0.225) */
	CHECK(sum.n <= fs.n + 1);
	/* the limit on the points */
	fs_vh_fn_free(&sum, &unit_alloc);
	CHECK(fs_vh_sum_children(kids, ratio, 2, 2, 2, &unit_alloc, &sum, &err) == FS_ERR_LIMIT);
	CHECK(strstr(err.message, "too large") != NULL);
	fs_vh_fn_free(&fs, &unit_alloc);
	fs_vh_fn_free(&ff, &unit_alloc);
}

static void
test_compress(void)
{
	fs_vh_fn fn;
	fs_error err;
	double v;

	fs_vh_fn_init(&fn, 1, 4, false, &unit_alloc, &err);
	v = 0;
	fs_vh_fn_push(&fn, 0, &v, 0, &unit_alloc, &err);
	v = 0.5;
	fs_vh_fn_push(&fn, 0.5, &v, 0, &unit_alloc, &err);
	v = 0.5 + 1e-16;
	fs_vh_fn_push(&fn, 0.5, &v, 0, &unit_alloc, &err); /* a jump stays */
	v = 1 + 1e-16;
	fs_vh_fn_push(&fn, 1, &v, 0, &unit_alloc, &err);
	v = 1.5 + 2e-16;
	fs_vh_fn_push(&fn, 1.5, &v, 0, &unit_alloc, &err); /* within 1e-15 of the line: dropped */
	v = 2 + 1e-16;
	fs_vh_fn_push(&fn, 2, &v, 0, &unit_alloc, &err);
	fs_vh_fn_compress(&fn, FS_VH_COMPRESS_EPSILON);
	CHECK(fn.n == 4);
	fs_vh_fn_free(&fn, &unit_alloc);
}

/* YTsaurus's test resources: user slots, cpu, gpu, memory (MB), network; 100 CPU cluster. */
static const double total100[5] = {100, 100, 0, 1000, 0};

static size_t last_n;

/* Run a tree, releasing the previous run's results first. */
static void
run(fs_vh_node *nodes, size_t n, const double *total, size_t k, bool step, fs_vh_result *out)
{
	fs_vh_options o = {1, step, false};
	fs_error err;

	fs_vh_result_free(out, last_n, &unit_alloc);
	last_n = n;
	CHECK(fs_vh_compute(nodes, n, total, k, &o, &unit_alloc, out, &err) == FS_OK);
}

static void
test_trees(void)
{
	static const double zero[5] = {0};
	double big[5] = {200, 200, 0, 4000, 0};
	double dA[5] = {0, 100, 0, 500, 0}, dB[5] = {0, 50, 0, 1000, 0};
	double g3[5] = {NAN, 30, NAN, NAN, NAN}, g7[5] = {NAN, 70, NAN, NAN, NAN};
	double g10[5] = {NAN, 10, NAN, NAN, NAN}, g60[5] = {NAN, 60, NAN, NAN, NAN};
	double g50[5] = {NAN, 50, NAN, NAN, NAN}, dbig[5] = {100, 100, 0, 1000, 0};
	double gang[5] = {60, 60, 0, 600, 0};
	fs_vh_result out[8];

	/* TestOneLargeOperation: the op is bound by memory: (0.5, 0.5, 0, 1, 0) */
	{
		fs_vh_node t[4] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {1, true, false, 1, big, zero, NULL, NULL, false, 0, false, 0}};

		run(t, 4, total100, 5, true, out);
		CHECK_DBL(out[3].fair_share[0], 0.5, 1e-7);
		CHECK_DBL(out[3].fair_share[1], 0.5, 1e-7);
		CHECK_DBL(out[3].fair_share[3], 1.0, 1e-7);
		CHECK_DBL(out[1].fair_share[3], 1.0, 1e-7);
		CHECK(out[2].fair_share[1] == 0);
		CHECK_DBL(out[0].fair_share[1], 0.5, 1e-7);
		CHECK(out[3].bound == FS_VH_BOUND_CLUSTER);
	}
	/* complementary demands: equal dominant shares, 2/3 each */
	{
		fs_vh_node t[3] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, true, false, 1, dA, zero, NULL, NULL, false, 0, false, 0},
		                   {0, true, false, 1, dB, zero, NULL, NULL, false, 0, false, 0}};

		run(t, 3, total100, 5, true, out);
		CHECK_DBL(out[1].fair_share[1], 2.0 / 3, 1e-7);
		CHECK_DBL(out[2].fair_share[3], 2.0 / 3, 1e-7);
		CHECK_DBL(out[1].fair_share[3], 1.0 / 3, 1e-7);
		CHECK(out[1].bound == FS_VH_BOUND_WEIGHT);
	}
	/*
	 * TestPromisedGuaranteeFairShare's division: pools of 30 % each at the root, and inside the
	 * first one 10 % and nothing: the guarantee adds to the weight part: 0.5 = 0.3 + 0.2.
	 */
	{
		fs_vh_node t[7] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g3, false, 0, false, 0},
		                   {1, false, false, 1, NULL, NULL, NULL, g10, false, 0, false, 0},
		                   {2, true, false, 1, dbig, zero, NULL, NULL, false, 0, false, 0},
		                   {1, true, false, 1, dbig, zero, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g3, false, 0, false, 0},
		                   {5, true, false, 1, dbig, zero, NULL, NULL, false, 0, false, 0}};

		run(t, 7, total100, 5, true, out);
		CHECK_DBL(out[1].fair_share[1], 0.5, 1e-7);
		CHECK_DBL(out[5].fair_share[1], 0.5, 1e-7);
		CHECK_DBL(out[1].strong_part[1], 0.3, 1e-7);
		CHECK_DBL(out[1].weight_part[1], 0.2, 1e-7);
		CHECK_DBL(out[2].fair_share[1], 0.3, 1e-7); /* 0.1 + 0.2, its sibling 0.2 */
		CHECK_DBL(out[4].fair_share[1], 0.2, 1e-7);
		/* memory was inferred from cpu: 30 % of the cluster's */
		CHECK_DBL(out[1].strong[3], 0.3, 1e-12);
		CHECK(out[4].bound == FS_VH_BOUND_WEIGHT);
	}
	/* guarantees of 70 + 60 at the root are scaled by one factor to fit: 70/130, 60/130 */
	{
		fs_vh_node t[3] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g7, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g60, false, 0, false, 0}};

		run(t, 3, total100, 5, true, out);
		CHECK_DBL(out[1].strong[1], 70.0 / 130, 1e-12);
		CHECK_DBL(out[2].strong[1], 60.0 / 130, 1e-12);
		CHECK(out[1].strong[1] + out[2].strong[1] <= 1);
	}
	/* children exceeding their parent: 60 + 60 in a pool of 50 become 25 + 25 */
	{
		fs_vh_node t[4] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g50, false, 0, false, 0},
		                   {1, false, false, 1, NULL, NULL, NULL, g60, false, 0, false, 0},
		                   {1, false, false, 1, NULL, NULL, NULL, g60, false, 0, false, 0}};

		run(t, 4, total100, 5, true, out);
		CHECK_DBL(out[2].strong[1], 0.25, 1e-12);
		CHECK_DBL(out[3].strong[1], 0.25, 1e-12);
	}
	/*
	 * strong guarantee tiers in a pool of 50: tier 0's 10 kept, tier 1's 60 + 30 scaled into the
	 * 40 left (x 4/9), tier 2's 60 zeroed; the order of the children does not matter
	 */
	{
		fs_vh_node t[6] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g50, false, 0, false, 0},
		                   {1, false, false, 1, NULL, NULL, NULL, g60, false, 0, false, 2},
		                   {1, false, false, 1, NULL, NULL, NULL, g60, false, 0, false, 1},
		                   {1, false, false, 1, NULL, NULL, NULL, g10, false, 0, false, 0},
		                   {1, false, false, 1, NULL, NULL, NULL, g3, false, 0, false, 1}};

		run(t, 6, total100, 5, true, out);
		CHECK_DBL(out[4].strong[1], 0.1, 1e-12);
		CHECK_DBL(out[3].strong[1], 0.6 * 40 / 90, 1e-9);
		CHECK_DBL(out[5].strong[1], 0.3 * 40 / 90, 1e-9);
		CHECK_DBL(out[2].strong[1], 0, 0);
		CHECK(out[3].strong[1] + out[4].strong[1] + out[5].strong[1] <= 0.5);
		/* all in one tier: proportional, 50 / 160 each */
		t[2].tier = t[3].tier = t[4].tier = t[5].tier = 7;
		run(t, 6, total100, 5, true, out);
		CHECK_DBL(out[2].strong[1], 0.6 * 50 / 160, 1e-9);
		CHECK_DBL(out[4].strong[1], 0.1 * 50 / 160, 1e-9);
		/* tiers 1 and 7 (10 each) kept, the last (10 + 30) scaled into the 30 left (x 3/4) */
		t[3].tier = 1;
		t[2].tier = t[5].tier = 9;
		t[2].strong = t[3].strong = g10;
		run(t, 6, total100, 5, true, out);
		CHECK_DBL(out[3].strong[1], 0.1, 1e-12);
		CHECK_DBL(out[4].strong[1], 0.1, 1e-12);
		CHECK_DBL(out[2].strong[1], 0.075, 1e-9);
		CHECK_DBL(out[5].strong[1], 0.225, 1e-9);
	}
	/* TestGangOperations: two gangs of 60 % that both cannot fit: both resolve to 0 */
	{
		fs_vh_node t[3] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, true, true, 1, gang, zero, NULL, NULL, false, 0, false, 0},
		                   {0, true, true, 1, gang, zero, NULL, NULL, false, 0, false, 0}};

		run(t, 3, total100, 5, true, out);
		CHECK(out[1].dominant_fair_share < 1e-9);
		CHECK(out[2].dominant_fair_share < 1e-9);
		CHECK(out[1].bound == FS_VH_BOUND_GANG);
		/* without the step function they share: 0.5 each */
		run(t, 3, total100, 5, false, out);
		CHECK_DBL(out[1].fair_share[1], 0.5, 1e-7);
	}
	/* a FIFO pool: the operation first in its order takes 0.7, the next one the rest */
	{
		double d7[5] = {70, 70, 0, 700, 0};
		fs_vh_node t[4] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, true, 0, false, 0},
		                   {1, true, false, 1, d7, zero, NULL, NULL, false, 1, false, 0},
		                   {1, true, false, 1, d7, zero, NULL, NULL, false, 0, false, 0}};
		fs_vh_node bad[3] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                     {0, false, false, 1, NULL, NULL, NULL, NULL, true, 0, false, 0},
		                     {1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0}};
		fs_vh_options o = {1, true, false};
		fs_error err;

		run(t, 4, total100, 5, true, out);
		CHECK_DBL(out[3].fair_share[1], 0.7, 1e-9);
		CHECK_DBL(out[2].fair_share[1], 0.3, 1e-9);
		CHECK_DBL(out[1].fair_share[1], 1.0, 1e-9);
		CHECK(out[3].suggestion == 1 && out[2].suggestion < 1);
		CHECK(out[2].bound == FS_VH_BOUND_FIFO);
		CHECK(out[1].fit_factor > 1 && out[1].fit_factor < 2);
		fs_vh_result_free(out, last_n, &unit_alloc);
		last_n = 0;
		CHECK(fs_vh_compute(bad, 3, total100, 5, &o, &unit_alloc, out, &err) == FS_ERR_VALUE);
	}
	/* an empty tree, and a bad one */
	{
		fs_vh_node t[2] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0}};
		fs_vh_node bad[2] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                     {1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0}};
		fs_vh_options o = {1, true, false};
		fs_error err;

		run(t, 2, total100, 5, true, out);
		CHECK(out[0].fair_share[1] == 0 && out[1].fair_share[1] == 0);
		CHECK(out[1].bound == FS_VH_BOUND_EMPTY);
		fs_vh_result_free(out, last_n, &unit_alloc);
		last_n = 0;
		CHECK(fs_vh_compute(bad, 2, total100, 5, &o, &unit_alloc, out, &err) == FS_ERR_VALUE);
		CHECK(fs_vh_compute(t, 2, total100, FS_VH_RESOURCES_MAX + 1, &o, &unit_alloc, out, &err) ==
		      FS_ERR_LIMIT);
	}
}

/* Run a tree in the improved fit factor mode (or not), with the gang step function. */
static void
run_improved(fs_vh_node *nodes, size_t n, const double *total, bool step, bool improved,
             fs_vh_result *out)
{
	fs_vh_options o = {1, step, improved};
	fs_error err;

	fs_vh_result_free(out, last_n, &unit_alloc);
	last_n = n;
	CHECK(fs_vh_compute(nodes, n, total, 5, &o, &unit_alloc, out, &err) == FS_OK);
}

static void
test_right_and_stretch(void)
{
	double u[1] = {0}, d[1] = {0.6}, v[1], f;
	fs_vh_fn fn, sum;
	const fs_vh_fn *kids[3];
	double ratio[3] = {1, 1, 1};
	fs_vh_stretch st;
	size_t point;
	fs_error err;

	/* a gang: 0 up to f = 1, D after; at the jump the left value, or the right limit */
	fs_vh_operation_fsbff(u, d, 1, true, &unit_alloc, &fn, &err);
	fs_vh_fn_eval(&fn, 1, v);
	CHECK(v[0] == 0);
	fs_vh_fn_eval_right(&fn, 1, v);
	CHECK(v[0] == 0.6);
	fs_vh_fn_eval_right(&fn, 0.5, v);
	CHECK(v[0] == 0);
	fs_vh_fn_eval_right(&fn, 3, v);
	CHECK(v[0] == 0.6);
	fs_vh_fn_free(&fn, &unit_alloc);
	/*
	 * three children that jump from 0 to 0.6 at s = 0.5 together: the serialised sum takes them
	 * one after another at stretched fit factors 0.5, 1.5 and 2.5 (flat in between) on [0, 3]
	 */
	fs_vh_fn_init(&fn, 1, 4, false, &unit_alloc, &err);
	v[0] = 0;
	fs_vh_fn_push(&fn, 0, v, 0, &unit_alloc, &err);
	fs_vh_fn_push(&fn, 0.5, v, 0, &unit_alloc, &err);
	v[0] = 0.6;
	fs_vh_fn_push(&fn, 0.5, v, 0, &unit_alloc, &err);
	fs_vh_fn_push(&fn, 1, v, 0, &unit_alloc, &err);
	kids[0] = kids[1] = kids[2] = &fn;
	CHECK(fs_vh_sum_children_serial(kids, ratio, 3, 1, 1000, &unit_alloc, &sum, &st, &err) ==
	      FS_OK);
	CHECK(st.n == 1 && st.x[0] == 0.5 && st.t[0] == 0.5);
	CHECK(st.start[1] - st.start[0] == 3 && st.kids[0] == 0 && st.kids[2] == 2);
	CHECK(sum.x[sum.n - 1] == 3);
	fs_vh_fn_eval(&sum, 0.5, v);
	CHECK(v[0] == 0);
	fs_vh_fn_eval(&sum, 1.5, v);
	CHECK_DBL(v[0], 0.6, 1e-15); /* the second jump is at 1.5: its left value */
	fs_vh_fn_eval(&sum, 1.6, v);
	CHECK_DBL(v[0], 1.2, 1e-15);
	fs_vh_fn_eval(&sum, 2.6, v);
	CHECK_DBL(v[0], 1.8, 1e-15);
	/* back to the children's fit factor */
	f = fs_vh_stretch_locate(&st, 0.25, &point);
	CHECK(f == 0.25 && point == SIZE_MAX);
	f = fs_vh_stretch_locate(&st, 1.5, &point);
	CHECK(f == 0.5 && point == 0);
	f = fs_vh_stretch_locate(&st, 2.75, &point);
	CHECK(f == 0.75 && point == SIZE_MAX);
	fs_vh_stretch_free(&st, &unit_alloc);
	fs_vh_fn_free(&sum, &unit_alloc);
	/* the standard sum jumps once, by all three */
	CHECK(fs_vh_sum_children(kids, ratio, 3, 1, 1000, &unit_alloc, &sum, &err) == FS_OK);
	CHECK(sum.x[sum.n - 1] == 1);
	fs_vh_fn_eval_right(&sum, 0.5, v);
	CHECK_DBL(v[0], 1.8, 1e-15);
	fs_vh_fn_free(&sum, &unit_alloc);
	fs_vh_fn_free(&fn, &unit_alloc);
}

static void
test_improved(void)
{
	static const double zero[5] = {0};
	double gang[5] = {60, 60, 0, 600, 0}, g3[5] = {30, 30, 0, 300, 0};
	double skew[5] = {50, 60, 0, 100, 0};
	fs_vh_result out[8];

	/* TestGangOperationsWithImprovedFairShareByFitFactorComputation: the first gang 0.6 */
	{
		fs_vh_node t[5] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 1, gang, zero, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {3, true, true, 1, gang, zero, NULL, NULL, false, 0, false, 0}};

		run_improved(t, 5, total100, true, true, out);
		CHECK_DBL(out[0].fair_share[1], 0.6, 1e-12);
		CHECK_DBL(out[1].fair_share[1], 0.6, 1e-12);
		CHECK_DBL(out[2].fair_share[3], 0.6, 1e-12);
		CHECK(out[3].fair_share[1] == 0 && out[4].fair_share[1] == 0);
		CHECK(out[4].bound == FS_VH_BOUND_GANG);
		/* the standard mode: both 0 */
		run_improved(t, 5, total100, true, false, out);
		CHECK(out[1].fair_share[1] == 0 && out[3].fair_share[1] == 0);
	}
	/*
	 * two gangs of 0.4 in a pool beside an operation of the whole cluster: in the standard mode the
	 * pool jumps by 0.8 at suggestion 0.8, which the root cannot give beside the operation's 0.8:
	 * the pool 0, the operation 0.8; the improved mode's pool jumps by one gang at 0.4 and by the
	 * other at 0.8, so the root stops at 0.6: the pool 0.4 (its first gang), the operation 0.6
	 */
	{
		double g4[5] = {40, 40, 0, 400, 0}, all[5] = {100, 100, 0, 1000, 0};
		fs_vh_node t[5] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 1, g4, zero, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 1, g4, zero, NULL, NULL, false, 1, false, 0},
		                   {0, true, false, 1, all, zero, NULL, NULL, false, 2, false, 0}};

		run_improved(t, 5, total100, true, false, out);
		CHECK(out[1].fair_share[1] == 0);
		CHECK_DBL(out[4].fair_share[1], 0.8, 1e-12);
		run_improved(t, 5, total100, true, true, out);
		CHECK_DBL(out[1].fair_share[1], 0.4, 1e-12);
		CHECK_DBL(out[2].fair_share[1], 0.4, 1e-12);
		CHECK(out[3].fair_share[1] == 0);
		CHECK_DBL(out[4].fair_share[1], 0.6, 1e-12);
		CHECK_DBL(out[0].fair_share[1], 1.0, 1e-12);
	}
	/* TestGangOperationsWithSkewedResources: one gang, the other demands nothing */
	{
		fs_vh_node t[5] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 1, skew, zero, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {3, true, true, 1, zero, zero, NULL, NULL, false, 0, false, 0}};

		run_improved(t, 5, total100, true, true, out);
		CHECK_DBL(out[0].fair_share[0], 0.5, 1e-12);
		CHECK_DBL(out[1].fair_share[1], 0.6, 1e-12);
		CHECK_DBL(out[1].fair_share[3], 0.1, 1e-12);
		CHECK(out[3].fair_share[1] == 0);
	}
	/* TestMultipleGangOperations: two FIFO pools of two gangs of 0.3 */
	{
		fs_vh_node t[7] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, true, 0, false, 0},
		                   {1, true, true, 1, g3, zero, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 1, g3, zero, NULL, NULL, false, 1, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, NULL, true, 0, false, 0},
		                   {4, true, true, 1, g3, zero, NULL, NULL, false, 2, false, 0},
		                   {4, true, true, 1, g3, zero, NULL, NULL, false, 3, false, 0}};

		run_improved(t, 7, total100, true, true, out);
		CHECK_DBL(out[0].fair_share[1], 0.9, 1e-12);
		CHECK_DBL(out[1].fair_share[1], 0.6, 1e-12);
		CHECK_DBL(out[4].fair_share[1], 0.3, 1e-12);
		CHECK_DBL(out[2].fair_share[1], 0.3, 1e-12);
		CHECK_DBL(out[3].fair_share[1], 0.3, 1e-12);
		CHECK_DBL(out[5].fair_share[1], 0.3, 1e-12);
		CHECK(out[6].fair_share[1] == 0);
		CHECK(out[2].fifo_index == 0 && out[3].fifo_index == 1 && out[1].fifo_index == -1);
	}
	fs_vh_result_free(out, last_n, &unit_alloc);
	last_n = 0;
}

static void
test_fifo_reorder(void)
{
	static const double zero[5] = {0};
	double g60[5] = {NAN, 60, NAN, NAN, NAN}, g40[5] = {NAN, 40, NAN, NAN, NAN};
	double d7[5] = {70, 70, 0, 700, 0}, d3[5] = {30, 30, 0, 300, 0}, d31[5] = {31, 31, 0, 310, 0};
	double all[5] = {100, 100, 0, 1000, 0};
	fs_vh_result out[8];
	int improved;

	/*
	 * TestFifoChildrenReorderingForGuaranteeUtilization: the head gang (0.7) cannot fit the
	 * pool's guarantee of 0.6, the two behind it (0.3 each) can: they go first, 0.3 each
	 */
	for (improved = 0; improved < 2; improved++)
	{
		fs_vh_node t[7] = {{-1, false, false, 1, NULL, NULL, NULL, NULL, false, 0, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g60, true, 0, true, 0},
		                   {1, true, true, 3, d7, zero, NULL, NULL, false, 0, false, 0},
		                   {1, true, true, 2, d3, zero, NULL, NULL, false, 1, false, 0},
		                   {1, true, true, 1, d3, zero, NULL, NULL, false, 2, false, 0},
		                   {0, false, false, 1, NULL, NULL, NULL, g40, false, 0, false, 0},
		                   {5, true, false, 1, all, zero, NULL, NULL, false, 3, false, 0}};

		run_improved(t, 7, total100, true, improved, out);
		CHECK_DBL(out[1].fair_share[1], 0.6, 1e-7);
		CHECK(out[2].fair_share[1] < 1e-9);
		CHECK_DBL(out[3].fair_share[3], 0.3, 1e-7);
		CHECK_DBL(out[4].fair_share[1], 0.3, 1e-7);
		CHECK(out[2].fifo_index == 0 && out[3].fifo_index == 1 && out[4].fifo_index == 2);
		CHECK(out[2].effective_fifo_index == 2 && out[3].effective_fifo_index == 0 &&
		      out[4].effective_fifo_index == 1);
		/* off for the pool, or without the step function: the order stays */
		t[1].fifo_reorder = false;
		run_improved(t, 7, total100, true, improved, out);
		CHECK(out[1].fair_share[1] < 1e-9 && out[3].effective_fifo_index == -1);
		t[1].fifo_reorder = true;
		run_improved(t, 7, total100, false, improved, out);
		CHECK_DBL(out[2].fair_share[1], 0.6, 1e-7);
		CHECK(out[3].fair_share[1] < 1e-9 && out[3].effective_fifo_index == -1);
		/* RejectsOvershoot: 0.31 does not fit what the 0.3 leaves */
		t[4].demand = d31;
		run_improved(t, 7, total100, true, improved, out);
		CHECK_DBL(out[1].fair_share[1], 0.3, 1e-7);
		CHECK(out[4].fair_share[1] < 1e-9 && out[4].effective_fifo_index == 2);
		t[4].demand = d3;
	}
	fs_vh_result_free(out, last_n, &unit_alloc);
	last_n = 0;
}

/* A small deterministic generator for the generated trees. */
static uint64_t rng_state;

static double
rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double) (rng_state >> 11) / 9007199254740992.0;
}

/*
 * Generated trees (pools, FIFO pools, gangs, usage, limits, guarantees), in both modes, with and
 * without reordering: a pool's children never get more than it (1e-9 a child, as YTsaurus's
 * check allows), nobody more than its demand or limits, and the root at most the cluster.
 */
static void
test_generated(void)
{
	enum
	{
		N = 40,
		K = 3
	};
	static double dem[N][K], use[N][K], lim[N][K], strong[N][K];
	static const double total[K] = {100, 50, 1000};
	fs_vh_node t[N];
	fs_vh_result out[N];
	int tree, i, r, mode, reordered = 0, differ = 0;
	static double standard[N][K];
	bool ok = true;

	rng_state = 42;
	for (tree = 0; tree < 300; tree++)
		for (mode = 0; mode < 4; mode++)
		{
			size_t n = N;
			fs_vh_options o = {0, true, mode & 1};
			fs_error err;

			rng_state = 1000 + (uint64_t) tree;
			memset(t, 0, sizeof(t));
			t[0].parent = -1;
			t[0].weight = 1;
			for (i = 1; i < N; i++)
			{
				int64_t p;

				/* a parent among the pools before it */
				do
					p = (int64_t) (rnd() * i);
				while (t[p].is_operation);
				t[i].parent = p;
				t[i].weight = rnd() < 0.5 ? 1 : 0.5 + 3 * rnd();
				t[i].is_operation = t[p].fifo || rnd() < 0.6;
				t[i].order = i;
				for (r = 0; r < K; r++)
				{
					dem[i][r] = rnd() < 0.2 ? 0 : total[r] * rnd() * 0.6;
					use[i][r] = rnd() < 0.5 ? 0 : dem[i][r] * rnd();
					lim[i][r] = rnd() < 0.8 ? INFINITY : total[r] * rnd();
					strong[i][r] = rnd() < 0.7 ? NAN : total[r] * rnd() * 0.3;
				}
				if (t[i].is_operation)
				{
					t[i].demand = dem[i];
					t[i].usage = use[i];
					t[i].gang = rnd() < 0.4;
					/* gangs of a few sizes, so that siblings jump together */
					for (r = 0; t[i].gang && r < K; r++)
					{
						dem[i][r] = total[r] * (rnd() < 0.5 ? 0.2 : 0.35);
						use[i][r] = rnd() < 0.7 ? 0 : dem[i][r] / 2;
					}
				}
				else
				{
					t[i].strong = strong[i];
					t[i].fifo = rnd() < 0.3;
					t[i].fifo_reorder = (mode & 2) != 0;
				}
				t[i].limits = rnd() < 0.3 ? lim[i] : NULL;
			}
			/* a FIFO pool with a pool below it is not a tree: make such pools fair-share ones */
			for (i = 1; i < N; i++)
				if (!t[i].is_operation)
					t[t[i].parent].fifo = false;
			CHECK(fs_vh_compute(t, n, total, K, &o, &unit_alloc, out, &err) == FS_OK);
			for (i = 0; i < N; i++)
				if (out[i].effective_fifo_index >= 0)
					reordered++;
			for (i = 0; i < N; i++)
			{
				double sum[K] = {0};
				int c, kids = 0;

				for (c = 1; c < N; c++)
					if (t[c].parent == i)
					{
						kids++;
						for (r = 0; r < K; r++)
							sum[r] += out[c].fair_share[r];
					}
				for (r = 0; r < K; r++)
				{
					if (kids && sum[r] > out[i].fair_share[r] + kids * 1e-9)
						ok = false;
					if (out[i].fair_share[r] > out[i].demand[r] + 1e-9 ||
					    out[i].fair_share[r] > out[i].limits[r] + 1e-9 || out[i].fair_share[r] < 0)
						ok = false;
				}
			}
			for (r = 0; r < K; r++)
				if (out[0].fair_share[r] > 1 + 1e-9)
					ok = false;
			for (i = 0; i < N; i++)
				for (r = 0; r < K; r++)
				{
					if (mode == 0)
						standard[i][r] = out[i].fair_share[r];
					else if (mode == 1 && fabs(out[i].fair_share[r] - standard[i][r]) > 1e-9)
						differ++;
				}
			fs_vh_result_free(out, n, &unit_alloc);
		}
	CHECK(ok);
	CHECK(reordered > 0); /* the generated trees exercise the reordering */
	CHECK(differ > 0);    /* and simultaneous jumps, where the improved mode differs */
}

void
test_vector_hdrf(void)
{
	test_bisect();
	test_operation_fn();
	test_fsbs();
	test_compress();
	test_trees();
	test_right_and_stretch();
	test_improved();
	test_fifo_reorder();
	test_generated();
}
