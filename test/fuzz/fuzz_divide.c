/*
 * fuzz_divide.c: libFuzzer harness for fs_divide. The input is a mode byte and doubles: the
 * total, then (weight, min, max) per child. Invalid numbers must fail with a message; otherwise
 * the shares must stay within their bounds, sum to the total within 1e-12 relative whenever
 * that is possible, equal g_i(x) at the returned x, and agree with the sorting fallback.
 */
#include "share/divide.h"
#include "fuzz_alloc.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHILDREN 64

static double
read_double(const uint8_t *p)
{
	double v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double w[MAX_CHILDREN], l[MAX_CHILDREN], u[MAX_CHILDREN], out[MAX_CHILDREN], out2[MAX_CHILDREN],
	    total, x;
	long double sum_low = 0, sum_max = 0, sum = 0;
	fs_divide_mode mode;
	fs_error err;
	fs_status st;
	size_t n, i;
	bool valid;
	double slack;

	if (size < 9)
		return 0;
	mode = data[0] & 1 ? FS_DIVIDE_ADDITIVE : FS_DIVIDE_CLAMP;
	total = read_double(data + 1);
	n = (size - 9) / 24;
	if (n > MAX_CHILDREN)
		n = MAX_CHILDREN;
	valid = isfinite(total) && total >= 0;
	for (i = 0; i < n; i++)
	{
		w[i] = read_double(data + 9 + 24 * i);
		l[i] = read_double(data + 17 + 24 * i);
		u[i] = read_double(data + 25 + 24 * i);
		valid = valid && isfinite(w[i]) && w[i] >= 0 && isfinite(l[i]) && l[i] >= 0 &&
		        isfinite(u[i]) && u[i] >= 0;
	}
	st = fs_divide(total, w, l, u, n, mode, &fz, out, &x, NULL, &err);
	if (!valid)
	{
		if (st == FS_OK || err.message[0] == '\0')
			abort();
		return 0;
	}
	if (st != FS_OK ||
	    fs_divide_budget(total, w, l, u, n, mode, 0, &fz, out2, NULL, NULL, &err) != FS_OK)
		abort();

	/* long double holds these sums without overflow on the fuzzing targets (x86-64) */
	for (i = 0; i < n; i++)
	{
		double lp = l[i] < u[i] ? l[i] : u[i];

		if (!isfinite(out[i]) || out[i] < 0)
			abort();
		sum += out[i];
		sum_low += lp;
		sum_max += w[i] > 0 ? u[i] : lp;
	}
	/* subnormal shares cannot sum finer than their spacing */
	slack = 1e-12 * total + (double) n * 4 * DBL_TRUE_MIN;
	for (i = 0; i < n; i++)
		if (fabs(out[i] - out2[i]) > slack)
			abort();
	if (sum_low > (long double) total)
	{
		/* scaled guarantees: they sum to the total */
		if (fabsl(sum - total) > slack)
			abort();
		return 0;
	}
	for (i = 0; i < n; i++)
	{
		double lp = l[i] < u[i] ? l[i] : u[i];

		if (sum_low <= (long double) total * (1 - 1e-9) && (out[i] < lp || out[i] > u[i]))
			abort();
		if (isfinite(x) && x > DBL_MIN && w[i] > 0)
		{
			long double g = mode == FS_DIVIDE_CLAMP ? fminl(fmaxl((long double) x * w[i], lp), u[i])
			                                        : fminl(u[i], lp + (long double) x * w[i]);

			if (fabsl(out[i] - g) > slack)
				abort();
		}
	}
	if (sum_max >= (long double) total && fabsl(sum - total) > slack)
		abort();
	return 0;
}
