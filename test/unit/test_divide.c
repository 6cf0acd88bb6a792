/* test_divide.c: unit tests of src/core/share/divide.c: the examples of the YTsaurus fair share
 * ratio page, and properties. */
#include "unit.h"
#include "share/divide.h"
#include "types/resvec.h"
#include "types/sharepath.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
check_divide(double total, const double *w, const double *l, const double *u, size_t n,
             fs_divide_mode mode, const double *want)
{
	double out[8];
	fs_error err;
	size_t i;

	if (!CHECK(fs_divide(total, w, l, u, n, mode, &unit_alloc, out, NULL, NULL, &err) == FS_OK))
		return;
	for (i = 0; i < n; i++)
		CHECK_DBL(out[i], want[i], 1e-12);
}

/* The YTsaurus fair share ratio page: A (min 0.6) and B (min 0.2) with huge demand; then a third
 * pool C. */
static void
test_yt_examples(void)
{
	const double w11[] = {1, 1}, w31[] = {3, 1}, w111[] = {1, 1, 1};
	const double l2[] = {0.6, 0.2}, l3[] = {0.6, 0.2, 0}, u[] = {1, 1, 1};

	check_divide(1, w11, l2, u, 2, FS_DIVIDE_CLAMP, (const double[]){0.6, 0.4});
	check_divide(1, w31, l2, u, 2, FS_DIVIDE_CLAMP, (const double[]){0.75, 0.25});
	check_divide(1, w111, l3, u, 3, FS_DIVIDE_CLAMP, (const double[]){0.6, 0.2, 0.2});
	/* additive: guarantees first, the rest by weight */
	check_divide(1, w11, l2, u, 2, FS_DIVIDE_ADDITIVE, (const double[]){0.7, 0.3});
	check_divide(1, w31, l2, u, 2, FS_DIVIDE_ADDITIVE, (const double[]){0.75, 0.25});
	check_divide(1, w111, l3, u, 3, FS_DIVIDE_ADDITIVE,
	             (const double[]){0.6 + 0.2 / 3, 0.2 + 0.2 / 3, 0.2 / 3});
}

static void
test_edges(void)
{
	double out[4], x;
	fs_bound b[4];
	fs_error err;

	/* guarantees larger than the total are scaled down proportionally */
	check_divide(0.5, (const double[]){1, 1}, (const double[]){0.6, 0.4}, (const double[]){1, 1}, 2,
	             FS_DIVIDE_CLAMP, (const double[]){0.3, 0.2});
	/* caps that cannot reach the total: everyone at the cap, a zero weight at its guarantee */
	CHECK(fs_divide(1, (const double[]){1, 2, 0}, (const double[]){0, 0, 0.1},
	                (const double[]){0.2, 0.3, 0.5}, 3, FS_DIVIDE_CLAMP, &unit_alloc, out, &x, b,
	                &err) == FS_OK);
	CHECK(out[0] == 0.2 && out[1] == 0.3 && out[2] == 0.1 && isinf(x));
	CHECK(b[0] == FS_BOUND_CAP && b[2] == FS_BOUND_GUARANTEE);
	/* the upper bound wins when the lower bound is above it */
	check_divide(1, (const double[]){1, 1}, (const double[]){0.5, 0}, (const double[]){0.1, 1}, 2,
	             FS_DIVIDE_CLAMP, (const double[]){0.1, 0.9});
	/* a zero weight gets only its guarantee */
	check_divide(1, (const double[]){0, 1}, (const double[]){0.3, 0}, (const double[]){1, 1}, 2,
	             FS_DIVIDE_CLAMP, (const double[]){0.3, 0.7});
	check_divide(0, (const double[]){1, 1}, (const double[]){0, 0}, (const double[]){1, 1}, 2,
	             FS_DIVIDE_CLAMP, (const double[]){0, 0});
	CHECK(fs_divide(1, NULL, NULL, NULL, 0, FS_DIVIDE_CLAMP, &unit_alloc, out, NULL, NULL, &err) ==
	      FS_OK);
	/* what bounded each child */
	CHECK(fs_divide(1, (const double[]){1, 1, 1}, (const double[]){0.6, 0, 0},
	                (const double[]){1, 0.1, 1}, 3, FS_DIVIDE_CLAMP, &unit_alloc, out, &x, b,
	                &err) == FS_OK);
	CHECK(b[0] == FS_BOUND_GUARANTEE && b[1] == FS_BOUND_CAP && b[2] == FS_BOUND_WEIGHT);
	CHECK_DBL(out[2], 0.3, 1e-15);
	CHECK(fs_divide(-1, (const double[]){1}, (const double[]){0}, (const double[]){1}, 1,
	                FS_DIVIDE_CLAMP, &unit_alloc, out, NULL, NULL, &err) == FS_ERR_VALUE);
	CHECK(fs_divide(1, (const double[]){1, -1}, (const double[]){0, 0}, (const double[]){1, 1}, 2,
	                FS_DIVIDE_CLAMP, &unit_alloc, out, NULL, NULL, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "weights[2] is negative") != NULL);
	CHECK(fs_divide(1, (const double[]){1}, (const double[]){0}, (const double[]){INFINITY}, 1,
	                FS_DIVIDE_CLAMP, &unit_alloc, out, NULL, NULL, &err) == FS_ERR_RANGE);
	CHECK(fs_divide_mode_from_name("additive") == FS_DIVIDE_ADDITIVE &&
	      fs_divide_mode_from_name("hdrf") == -1);
}

/*
 * The running slope cancelled to zero (1 + 1e-17 - 1), sums of weights or bounds
 * overflowed, and breakpoints u / w left double's range. Expected values by hand from the
 * definition.
 */
static void
test_extreme_range(void)
{
	double out[4], x;
	fs_bound b[4];
	fs_error err;
	int m;

	for (m = FS_DIVIDE_CLAMP; m <= FS_DIVIDE_ADDITIVE; m++)
	{
		/* total 0.5, caps 1 and 0.1: the second saturates at 0.1, the first gets the other 0.4 */
		check_divide(0.5, (const double[]){1e-17, 1}, (const double[]){0, 0},
		             (const double[]){1, 0.1}, 2, m, (const double[]){0.4, 0.1});
		/* equal weights, whatever their size, split 1 in halves */
		check_divide(1, (const double[]){1e308, 1e308}, (const double[]){0, 0},
		             (const double[]){1, 1}, 2, m, (const double[]){0.5, 0.5});
		check_divide(1, (const double[]){5e-324, 5e-324}, (const double[]){0, 0},
		             (const double[]){1, 1}, 2, m, (const double[]){0.5, 0.5});
		check_divide(1, (const double[]){DBL_MAX, DBL_MAX, DBL_MAX}, (const double[]){0, 0, 0},
		             (const double[]){1, 1, 1}, 3, m, (const double[]){1.0 / 3, 1.0 / 3, 1.0 / 3});
		/* guarantees of 1e308 each do not fit into 1: scaled to 0.5 each (their sum overflows) */
		check_divide(1, (const double[]){1, 1}, (const double[]){1e308, 1e308},
		             (const double[]){1e308, 1e308}, 2, m, (const double[]){0.5, 0.5});
		check_divide(1, (const double[]){1, 1}, (const double[]){1.5e308, 0.5e308},
		             (const double[]){DBL_MAX, DBL_MAX}, 2, m, (const double[]){0.75, 0.25});
		/* weights 10^632 apart: the heavy child saturates at 0.1, the light one takes the rest */
		check_divide(1, (const double[]){1e308, 5e-324}, (const double[]){0, 0},
		             (const double[]){0.1, 1}, 2, m, (const double[]){0.1, 0.9});
		/* a total near DBL_MAX, divided 1:3 under caps whose sum overflows */
		CHECK(fs_divide(1e308, (const double[]){1, 3}, (const double[]){0, 0},
		                (const double[]){1e308, 1e308}, 2, m, &unit_alloc, out, &x, b,
		                &err) == FS_OK);
		CHECK_DBL(out[0] / 2.5e307, 1, 1e-15);
		CHECK_DBL(out[1] / 7.5e307, 1, 1e-15);
		CHECK(b[0] == FS_BOUND_WEIGHT && b[1] == FS_BOUND_WEIGHT);
		/* caps near DBL_MAX that together reach a total near DBL_MAX: every child at its cap */
		CHECK(fs_divide(1.5e308, (const double[]){1, 1}, (const double[]){0, 0},
		                (const double[]){1e308, 0.5e308}, 2, m, &unit_alloc, out, &x, b,
		                &err) == FS_OK);
		CHECK(out[0] == 1e308 && out[1] == 0.5e308 && isinf(x));
		/* a subnormal total */
		CHECK(fs_divide(4 * 5e-324, (const double[]){1, 1}, (const double[]){0, 0},
		                (const double[]){1, 1}, 2, m, &unit_alloc, out, &x, b, &err) == FS_OK);
		CHECK(out[0] == 2 * 5e-324 && out[1] == 2 * 5e-324);
	}
	/* what bounds the first example's children, and the solved x */
	CHECK(fs_divide(0.5, (const double[]){1e-17, 1}, (const double[]){0, 0},
	                (const double[]){1, 0.1}, 2, FS_DIVIDE_CLAMP, &unit_alloc, out, &x, b,
	                &err) == FS_OK);
	CHECK(b[0] == FS_BOUND_WEIGHT && b[1] == FS_BOUND_CAP);
	CHECK_DBL(x / 4e16, 1, 1e-15);
	/* one child takes the whole total; its cap (2) is above the total and does not bind */
	CHECK(fs_divide(1, (const double[]){1}, (const double[]){0}, (const double[]){2}, 1,
	                FS_DIVIDE_CLAMP, &unit_alloc, out, &x, b, &err) == FS_OK);
	CHECK(out[0] == 1 && x == 1 && b[0] == FS_BOUND_WEIGHT);
	/* a zero total: nothing to divide */
	CHECK(fs_divide(0, (const double[]){1, 1}, (const double[]){0, 0}, (const double[]){2, 0}, 2,
	                FS_DIVIDE_CLAMP, &unit_alloc, out, &x, b, &err) == FS_OK);
	CHECK(out[0] == 0 && out[1] == 0 && x == 0 && b[0] == FS_BOUND_GUARANTEE);
}

/* log-uniform in [lo, hi] */
static double
log_uniform(uint64_t *seed, double lo, double hi)
{
	double r = (double) (unit_rand(seed) >> 11) / 9007199254740992.0;

	return exp(log(lo) + r * (log(hi) - log(lo)));
}

/*
 * 20,000 random problems per mode with weights log-uniform in [1e-20, 1e20]: the shares sum to
 * the total within 1e-12 relative whenever that is feasible, stay within their bounds, and are
 * g_i(x) at the solved x (which, with the sum, characterises the answer); the sorting fallback
 * (work budget 0) gives the same answer.
 */
static void
test_random_range(void)
{
	uint64_t seed = 14;
	int round, bad_sum = 0, bad_bounds = 0, bad_g = 0, bad_fallback = 0, feasible = 0;

	for (round = 0; round < 40000; round++)
	{
		size_t n = 1 + unit_rand(&seed) % 12, i;
		double w[12], l[12], u[12], out[12], out2[12], total, x, sum = 0, sum_low = 0, sum_max = 0;
		fs_divide_mode mode = round % 2 ? FS_DIVIDE_ADDITIVE : FS_DIVIDE_CLAMP;
		fs_error err;

		for (i = 0; i < n; i++)
		{
			w[i] = unit_rand(&seed) % 8 == 0 ? 0 : log_uniform(&seed, 1e-20, 1e20);
			l[i] = unit_rand(&seed) % 3 == 0 ? 0 : log_uniform(&seed, 1e-6, 1) / n;
			u[i] = log_uniform(&seed, 1e-6, 2);
		}
		/* mostly a total the bounds can reach exactly; sometimes any total */
		for (i = 0; i < n; i++)
		{
			sum_low += l[i] < u[i] ? l[i] : u[i];
			sum_max += w[i] > 0 ? u[i] : (l[i] < u[i] ? l[i] : u[i]);
		}
		if (unit_rand(&seed) % 8 == 0 || sum_max <= sum_low)
			total = log_uniform(&seed, 1e-3, 4);
		else
			total = sum_low + (sum_max - sum_low) * log_uniform(&seed, 1e-9, 1);
		sum_low = sum_max = 0;
		if (fs_divide(total, w, l, u, n, mode, &unit_alloc, out, &x, NULL, &err) != FS_OK ||
		    fs_divide_budget(total, w, l, u, n, mode, 0, &unit_alloc, out2, NULL, NULL, &err) !=
		        FS_OK)
		{
			bad_sum++;
			continue;
		}
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i];

			sum += out[i];
			sum_low += lp;
			sum_max += w[i] > 0 ? u[i] : lp;
			if (fabs(out2[i] - out[i]) > 1e-15 * total)
				bad_fallback++;
		}
		if (sum_low > total)
			continue;
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i];
			double g = w[i] == 0                 ? lp
			           : mode == FS_DIVIDE_CLAMP ? fmin(fmax(x * w[i], lp), u[i])
			                                     : fmin(u[i], lp + x * w[i]);

			if (out[i] < lp || out[i] > u[i])
				bad_bounds++;
			if (isfinite(x) && fabs(out[i] - g) > 1e-12 * total)
				bad_g++;
		}
		if (sum_max >= total)
		{
			feasible++;
			if (fabs(sum - total) > 1e-12 * total)
				bad_sum++;
		}
	}
	CHECK(feasible > 30000);
	CHECK(bad_sum == 0);
	CHECK(bad_bounds == 0);
	CHECK(bad_g == 0);
	CHECK(bad_fallback == 0);
	if (bad_sum + bad_bounds + bad_g + bad_fallback)
		printf("     sum %d, bounds %d, g(x) %d, fallback %d of %d feasible\n", bad_sum, bad_bounds,
		       bad_g, bad_fallback, feasible);
}

/* Many children, distinct breakpoints: the randomized search and the fallback agree. */
static void
test_large(void)
{
	size_t n = 100000, i;
	double *w = malloc(sizeof(double) * n), *l = malloc(sizeof(double) * n),
	       *u = malloc(sizeof(double) * n), *o1 = malloc(sizeof(double) * n),
	       *o2 = malloc(sizeof(double) * n);
	uint64_t seed = 7;
	int m, diff = 0;

	for (i = 0; i < n; i++)
	{
		w[i] = log_uniform(&seed, 1e-3, 1e3);
		l[i] = unit_rand(&seed) % 2 ? 0 : log_uniform(&seed, 1e-9, 1e-6);
		u[i] = log_uniform(&seed, 1e-7, 1e-4);
	}
	for (m = FS_DIVIDE_CLAMP; m <= FS_DIVIDE_ADDITIVE; m++)
	{
		fs_error err;
		double s1 = 0, s2 = 0;

		CHECK(fs_divide(1, w, l, u, n, m, &unit_alloc, o1, NULL, NULL, &err) == FS_OK);
		CHECK(fs_divide_budget(1, w, l, u, n, m, n, &unit_alloc, o2, NULL, NULL, &err) == FS_OK);
		for (i = 0; i < n; i++)
		{
			s1 += o1[i];
			s2 += o2[i];
			diff += o1[i] != o2[i];
		}
		CHECK_DBL(s1, 1, 1e-12);
		CHECK_DBL(s2, 1, 1e-12);
	}
	CHECK(diff == 0);
	free(w);
	free(l);
	free(u);
	free(o1);
	free(o2);
}

static const fs_pool_row *
pool_rows(const char *text, const char *cluster, fs_tree **t, uint8_t **cv)
{
	fs_pool_row *rows = NULL;
	size_t len;
	fs_error err;

	if (!CHECK(fs_tree_parse(&unit_alloc, text, strlen(text), t, &err) == FS_OK) ||
	    !CHECK(fs_tree_prepare(*t, &err) == FS_OK) ||
	    !CHECK(fs_rv_parse(cluster, strlen(cluster), &unit_alloc, 0, cv, &len, &err) == FS_OK) ||
	    !CHECK(fs_pool_fair_share(*t, *cv, FS_DIVIDE_CLAMP, &unit_alloc, &rows, &err) == FS_OK))
		return NULL;
	return rows;
}

/* Sibling min_share_ratios 1e308 and 1e308 normalise like 2 and 2 (their sum overflowed). */
static void
test_pool_ratio_overflow(void)
{
	fs_tree *t1 = NULL, *t2 = NULL;
	uint8_t *c1 = NULL, *c2 = NULL;
	const fs_pool_row *big = pool_rows("pool{=*/*/*/{}/{},a=1/1e308/*/{}/{cpu=100},"
	                                   "a.x=1/1e308/*/{}/{cpu=50},a.y=3/1e308/*/{}/{cpu=50},"
	                                   "b=1/1e308/*/{}/{cpu=100},c=5/*/*/{}/{cpu=100}}",
	                                   "cpu=100", &t1, &c1);
	const fs_pool_row *two = pool_rows("pool{=*/*/*/{}/{},a=1/2/*/{}/{cpu=100},"
	                                   "a.x=1/2/*/{}/{cpu=50},a.y=3/2/*/{}/{cpu=50},"
	                                   "b=1/2/*/{}/{cpu=100},c=5/*/*/{}/{cpu=100}}",
	                                   "cpu=100", &t2, &c2);
	uint32_t i;

	if (big && two)
	{
		CHECK(fs_tree_count(t1) == 6 && fs_tree_count(t2) == 6);
		for (i = 0; i < fs_tree_count(t1); i++)
		{
			CHECK(big[i].guaranteed_share == two[i].guaranteed_share);
			CHECK(big[i].lower_bound == two[i].lower_bound);
			CHECK(big[i].fair_share_ratio == two[i].fair_share_ratio);
			CHECK(big[i].bound == two[i].bound);
		}
		/* by hand: a and b are guaranteed half each, c nothing; a.x and a.y a quarter each */
		CHECK(big[1].guaranteed_share == 0.5 && big[1].fair_share_ratio == 0.5);
		CHECK(big[2].guaranteed_share == 0.25 && big[3].guaranteed_share == 0.25);
		CHECK(big[4].guaranteed_share == 0.5 && big[5].guaranteed_share == 0);
		CHECK(big[5].fair_share_ratio == 0);
	}
	if (big)
		unit_alloc.release(NULL, (void *) big);
	if (two)
		unit_alloc.release(NULL, (void *) two);
	if (t1)
		fs_tree_free(t1);
	if (t2)
		fs_tree_free(t2);
	unit_alloc.release(NULL, c1);
	unit_alloc.release(NULL, c2);
}

/* An independent bisection on x, as a user would write it. */
static double
bisect(double total, const double *w, const double *l, const double *u, size_t n,
       fs_divide_mode mode, double *out)
{
	double lo = 0, hi = 1, x = 0;
	size_t i;
	int it;

	for (it = 0; it < 200; it++)
	{
		double s = 0;

		x = it < 100 ? hi : (lo + hi) / 2;
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i];
			double g = mode == FS_DIVIDE_CLAMP ? fmin(fmax(x * w[i], lp), u[i])
			                                   : fmin(u[i], lp + x * w[i]);

			s += w[i] > 0 ? g : lp;
		}
		if (it < 100)
		{
			if (s >= total)
				it = 99; /* hi is high enough: bisect from here */
			else
				hi *= 2;
			continue;
		}
		if (s < total)
			lo = x;
		else
			hi = x;
	}
	for (i = 0; i < n; i++)
	{
		double lp = l[i] < u[i] ? l[i] : u[i];

		out[i] = w[i] > 0 ? (mode == FS_DIVIDE_CLAMP ? fmin(fmax(hi * w[i], lp), u[i])
		                                             : fmin(u[i], lp + hi * w[i]))
		                  : lp;
	}
	return x;
}

static void
test_properties(void)
{
	uint64_t seed = 2024;
	int round, bad_sum = 0, bad_bounds = 0, bad_mono = 0, bad_bisect = 0;

	for (round = 0; round < 4000; round++)
	{
		size_t n = 1 + unit_rand(&seed) % 7, i, k;
		double w[8], l[8], u[8], out[8], out2[8], ref[8], total, sum = 0, sum_low = 0, sum_max = 0;
		fs_divide_mode mode = round % 2 ? FS_DIVIDE_ADDITIVE : FS_DIVIDE_CLAMP;
		fs_error err;

		for (i = 0; i < n; i++)
		{
			w[i] = unit_rand(&seed) % 5 == 0 ? 0 : (double) (unit_rand(&seed) % 1000) / 100;
			l[i] = unit_rand(&seed) % 3 == 0 ? 0 : (double) (unit_rand(&seed) % 1000) / 4000;
			u[i] = (double) (unit_rand(&seed) % 1000) / 1000;
		}
		total = (double) (unit_rand(&seed) % 1000) / 500;
		if (fs_divide(total, w, l, u, n, mode, &unit_alloc, out, NULL, NULL, &err) != FS_OK)
		{
			bad_sum++;
			continue;
		}
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i];

			sum += out[i];
			sum_low += lp;
			sum_max += w[i] > 0 ? u[i] : lp;
		}
		/* every share within [min(l, u), u], unless the guarantees had to be scaled */
		for (i = 0; i < n && sum_low <= total; i++)
			if (out[i] < (l[i] < u[i] ? l[i] : u[i]) - 1e-12 || out[i] > u[i] + 1e-12)
				bad_bounds++;
		/* the sum is the total whenever that is feasible */
		if (sum_max >= total && fabs(sum - total) > 1e-12 * (total > 1 ? total : 1))
			bad_sum++;
		/* raising one weight never lowers that child's share */
		k = unit_rand(&seed) % n;
		w[k] = w[k] * 1.5 + 0.25;
		if (fs_divide(total, w, l, u, n, mode, &unit_alloc, out2, NULL, NULL, &err) != FS_OK ||
		    out2[k] < out[k] - 1e-12)
			bad_mono++;
		/* the same answer as a bisection */
		if (sum_low <= total && sum_max > total)
		{
			bisect(total, w, l, u, n, mode, ref);
			for (i = 0; i < n; i++)
				if (fabs(out2[i] - ref[i]) > 1e-9)
					bad_bisect++;
		}
	}
	CHECK(bad_sum == 0);
	CHECK(bad_bounds == 0);
	CHECK(bad_mono == 0);
	CHECK(bad_bisect == 0);
	if (bad_sum + bad_bounds + bad_mono + bad_bisect)
		printf("     sum %d, bounds %d, monotonicity %d, bisection %d\n", bad_sum, bad_bounds,
		       bad_mono, bad_bisect);
}

/* The root as vector HDRF reports it: the sums of its children's fair shares and guarantees. */
static void
test_pool_root_children(void)
{
	fs_tree *t = NULL;
	uint8_t *c = NULL;
	fs_pool_row *rows = (fs_pool_row *) pool_rows(
	    "pool{=*/*/*/{}/{},a=1/0.1/*/{cpu=10}/{cpu=20},a.x=1/*/*/{}/{cpu=5},"
	    "b=1/0.2/*/{cpu=30}/{cpu=30}}",
	    "cpu=100", &t, &c);

	if (rows)
	{
		CHECK(rows[0].fair_share_ratio == 1 && rows[0].guaranteed_share == 1);
		fs_pool_root_from_children(t, rows);
		/* a (demand 20 + a.x's 5) and b capped at demand: 0.25 + 0.3; the grandchild a.x
		 * counts only through a */
		CHECK_DBL(rows[1].fair_share_ratio, 0.25, 1e-15);
		CHECK_DBL(rows[0].fair_share_ratio, 0.55, 1e-15);
		CHECK_DBL(rows[0].guaranteed_share, 0.3, 1e-15);
		CHECK_DBL(rows[0].satisfaction, 0.4 / 0.55, 1e-15);
		unit_alloc.release(NULL, rows);
	}
	if (t)
		fs_tree_free(t);
	free(c);
	rows = (fs_pool_row *) pool_rows("pool{=*/*/*/{cpu=1}/{cpu=1}}", "cpu=10", &t, &c);
	if (rows)
	{
		fs_pool_root_from_children(t, rows);
		CHECK(rows[0].fair_share_ratio == 0 && rows[0].satisfaction_null);
		unit_alloc.release(NULL, rows);
	}
	if (t)
		fs_tree_free(t);
	free(c);
	CHECK(fs_pool_root_from_name("children") == FS_POOL_ROOT_CHILDREN);
	CHECK(fs_pool_root_from_name("one") == FS_POOL_ROOT_ONE);
	CHECK(fs_pool_root_from_name("sum") < 0);
}

void
test_divide(void)
{
	test_yt_examples();
	test_edges();
	test_properties();
	test_extreme_range();
	test_random_range();
	test_large();
	test_pool_ratio_overflow();
	test_pool_root_children();
}
