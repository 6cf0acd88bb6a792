/* test_divide.c: unit tests of src/core/divide.c: seed 002's examples and properties. */
#include "unit.h"
#include "divide.h"
#include "resvec.h"
#include "sharepath.h"

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

/* Seed 002: A (min 0.6) and B (min 0.2) with huge demand; then a third pool C. */
static void
test_seed002(void)
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

void
test_divide(void)
{
	test_seed002();
	test_edges();
	test_properties();
}
