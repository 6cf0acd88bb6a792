/*
 * divide.c: exact fair-share division. sum_i g_i(x) is piecewise linear and non-decreasing in x,
 * with breakpoints where a child reaches its guarantee or its cap: narrow down the one linear
 * piece that crosses the total and solve it. No iteration cap, no truncation; then the top-down
 * division over a pool tree.
 */
#include "share/divide.h"

#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
fs_divide_mode_from_name(const char *name)
{
	if (strcmp(name, "clamp") == 0)
		return FS_DIVIDE_CLAMP;
	if (strcmp(name, "additive") == 0)
		return FS_DIVIDE_ADDITIVE;
	return -1;
}

const char *
fs_bound_name(fs_bound b)
{
	static const char *const names[] = {"weight", "guarantee", "cap", "scaled guarantee"};

	return names[b];
}

static fs_status
check_value(double v, const char *what, size_t i, fs_error *err)
{
	if (isfinite(v) && v >= 0)
		return FS_OK;
	if (isfinite(v))
		fs_fail(err, FS_ERR_VALUE, "%s[%zu] is negative: %g", what, i + 1, v);
	else
		fs_fail(err, FS_ERR_RANGE, "%s[%zu] is not finite", what, i + 1);
	fs_error_hint(err, "Weights, shares and bounds must be finite and not negative.");
	return err->status;
}

/*
 * Exactness over the whole double range. The slope of sum_i g_i(x) is a sum of weights that can
 * span 10^600 (5e-324 next to 1e308), so a running slope that adds and subtracts weights as a
 * sweep crosses breakpoints cancels to zero or to noise; sums of caps near 1e308 overflow; and a
 * breakpoint u_i / w_i can lie far outside double's range. So:
 *  - amounts (total, guarantees, caps) are scaled by a power of two that brings the total to
 *    [0.5, 1) (exact; no sum of terms each at most the total can then overflow), and every sum
 *    is compensated (Neumaier);
 *  - a breakpoint x = num / w is an exact extended-range number, encoded as a 64-bit key whose
 *    integer order is the numeric order (12 bits of exponent, 52 of mantissa);
 *  - weights are only ever added, never subtracted: the solver narrows an interval (a, b]
 *    around the solution by evaluating sum_i g_i at breakpoints, and settles the children whose
 *    breakpoints leave it into a constant part C and a weight W, so that on the final interval
 *    sum_i g_i(x) = C + W x, which is solved once from fresh sums taken in index order.
 * Pivots are breakpoints picked by a fixed pseudo-random sequence (median of three): O(n)
 * expected time. If the work passes a budget (an unlucky or crafted input), the remaining
 * breakpoints are radix-sorted and the interval is bisected over them: O(n log n) at worst.
 */

#define KEY_BIAS  2200
#define KEY_FRAC  ((UINT64_C(1) << 52) - 1)
#define KEY_INF   UINT64_MAX /* above every breakpoint */
#define WORK_MULT 16         /* budget of the randomized search, in passes over the children */

/* The key of num 2^extra / w, for finite num >= 0 and w > 0 (0 when num == 0). */
static inline uint64_t
key_of(double num, double w, int extra)
{
	int en, ew, e;
	double r;
	uint64_t bits;

	if (num == 0)
		return 0;
	r = frexp(num, &en) / frexp(w, &ew); /* in [0.5, 2) */
	e = en - ew + extra;
	if (r >= 1)
	{
		r *= 0.5;
		e++;
	}
	/* breakpoints' exponents stay within [-2160, 1080]; keep the encoding total anyway */
	if (e + KEY_BIAS < 1)
		return 1;
	if (e + KEY_BIAS > 4095)
		return KEY_INF - 1;
	memcpy(&bits, &r, sizeof(bits));
	return ((uint64_t) (e + KEY_BIAS) << 52) | (bits & KEY_FRAC);
}

/* key = m 2^e with m in [0.5, 1); key != 0 */
static inline double
key_mant(uint64_t key, int *e)
{
	uint64_t bits = (key & KEY_FRAC) | ((uint64_t) 1022 << 52);
	double m;

	memcpy(&m, &bits, sizeof(m));
	*e = (int) (key >> 52) - KEY_BIAS;
	return m;
}

/* w (key's value) 2^extra, rounded once (infinity or 0 when out of range) */
static inline double
key_mul(double w, uint64_t key, int extra)
{
	int ew, ek;
	double mw, mk;

	if (key == 0 || w == 0)
		return 0;
	mk = key_mant(key, &ek);
	mw = frexp(w, &ew);
	return ldexp(mw * mk, ew + ek + extra);
}

/* Neumaier's compensated sum of non-negative terms */
typedef struct ksum
{
	double s, c;
} ksum;

static inline void
ksum_add(ksum *k, double v)
{
	double t = k->s + v;

	if (k->s >= v)
		k->c += (k->s - t) + v;
	else
		k->c += (v - t) + k->s;
	k->s = t;
}

static inline double
ksum_get(const ksum *k)
{
	return k->s + k->c;
}

/* a compensated sum of positive weights, (s + c) 2^e, rescaled as it grows: cannot overflow */
typedef struct wsum
{
	ksum k;
	int e;
	bool any;
} wsum;

static void
wsum_add(wsum *ws, double w)
{
	int ew;

	(void) frexp(w, &ew);
	if (!ws->any || ew > ws->e)
	{
		if (ws->any)
		{
			ws->k.s = ldexp(ws->k.s, ws->e - ew);
			ws->k.c = ldexp(ws->k.c, ws->e - ew);
		}
		ws->e = ew;
		ws->any = true;
	}
	ksum_add(&ws->k, ldexp(w, -ws->e));
}

/* multiplication by 2^-k, where m = f 2^k, f in [0.5, 1); two factors when 2^-k is no double */
typedef struct scaler
{
	double f1, f2;
	int k;
} scaler;

static void
scaler_init(scaler *s, double m)
{
	(void) frexp(m, &s->k);
	if (-s->k <= 1023)
	{
		s->f1 = ldexp(1, -s->k);
		s->f2 = 1;
	}
	else
	{
		s->f1 = ldexp(1, 1000);
		s->f2 = ldexp(1, -s->k - 1000);
	}
}

static inline double
scaled(const scaler *s, double v)
{
	return v * s->f1 * s->f2;
}

/*
 * The children not yet settled: their breakpoints (keys, in the scaled domain) and indexes, in
 * three arrays so that no allocation is larger than an input array.
 */
typedef struct live_set
{
	uint64_t *lo, *hi;
	size_t *i;
	size_t n;
} live_set;

typedef struct solver
{
	const double *w, *l, *u;
	fs_divide_mode mode;
	scaler sc;
	double total;
	double t_s; /* the scaled total */
	ksum c;     /* the settled children's constant part, scaled */
	wsum wt;    /* the settled children's weight in the linear part */
	uint64_t a, b;
} solver;

static inline double
lower_of(const double *l, const double *u, size_t i)
{
	return l[i] < u[i] ? l[i] : u[i];
}

/*
 * The breakpoints of child i (w_i > 0) in the scaled domain. A cap above the total counts as
 * the total: at the solution no child holds more than the total, so this moves no answer.
 */
static inline void
breakpoints(const solver *s, size_t i, uint64_t *lo, uint64_t *hi)
{
	double up = s->u[i] < s->total ? s->u[i] : s->total;
	double lps = scaled(&s->sc, lower_of(s->l, s->u, i)), ups = scaled(&s->sc, up);

	if (s->mode == FS_DIVIDE_CLAMP)
	{
		*lo = key_of(lps, s->w[i], 0);
		*hi = key_of(ups, s->w[i], 0);
	}
	else
	{
		*lo = 0;
		*hi = key_of(ups > lps ? ups - lps : 0, s->w[i], 0);
	}
}

/* Is S(p) >= total? Each term is capped at the total, which keeps the answer and the sum finite. */
static bool
reaches_total(const solver *s, const live_set *lv, uint64_t p)
{
	ksum acc = s->c;
	int pe = 0;
	double pm = p ? key_mant(p, &pe) : 0, pd = ldexp(pm, pe);
	bool fast = pd >= 0x1p-1021 && pd <= 0x1p1020; /* then w pd rounds once, or overflows */
	size_t j;

	if (s->wt.any)
	{
		double wp = ldexp(ksum_get(&s->wt.k) * pm, s->wt.e + pe);

		ksum_add(&acc, wp < 2 ? wp : 2);
	}
	for (j = 0; j < lv->n; j++)
	{
		size_t i = lv->i[j];
		double v = fast ? s->w[i] * pd : key_mul(s->w[i], p, 0);
		double lps = scaled(&s->sc, lower_of(s->l, s->u, i)), ups = scaled(&s->sc, s->u[i]);
		double g;

		FS_POLL(j);
		if (ups > s->t_s)
			ups = s->t_s;
		if (s->mode == FS_DIVIDE_CLAMP)
			g = v > lps ? v : lps;
		else
			g = lps + v;
		ksum_add(&acc, g < ups ? g : ups);
	}
	return ksum_get(&acc) >= s->t_s;
}

/* settle the children whose breakpoints have left (a, b); keep the others, in order */
static void
settle(solver *s, live_set *lv)
{
	size_t j, kept = 0;

	for (j = 0; j < lv->n; j++)
	{
		size_t i = lv->i[j];
		uint64_t lo = lv->lo[j], hi = lv->hi[j];

		FS_POLL(j);
		if (hi <= s->a)
			ksum_add(&s->c, scaled(&s->sc, s->u[i] < s->total ? s->u[i] : s->total));
		else if (lo >= s->b)
			ksum_add(&s->c, scaled(&s->sc, lower_of(s->l, s->u, i)));
		else if (lo <= s->a && hi >= s->b)
		{
			wsum_add(&s->wt, s->w[i]);
			if (s->mode == FS_DIVIDE_ADDITIVE)
				ksum_add(&s->c, scaled(&s->sc, lower_of(s->l, s->u, i)));
		}
		else
		{
			lv->lo[kept] = lo;
			lv->hi[kept] = hi;
			lv->i[kept++] = i;
		}
	}
	lv->n = kept;
}

static inline bool
inside(uint64_t k, uint64_t a, uint64_t b)
{
	return k > a && k < b;
}

/* splitmix64 from a fixed seed, so that results are reproducible */
static inline uint64_t
next_rand(uint64_t *st)
{
	uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* a breakpoint inside (a, b) of a random live child (every live child has one) */
static uint64_t
random_breakpoint(const solver *s, const live_set *lv, uint64_t *rng)
{
	uint64_t r = next_rand(rng);
	size_t j = r % lv->n;
	bool lo_in = inside(lv->lo[j], s->a, s->b), hi_in = inside(lv->hi[j], s->a, s->b);

	return lo_in && (!hi_in || (r >> 63)) ? lv->lo[j] : lv->hi[j];
}

static uint64_t
median3(uint64_t x, uint64_t y, uint64_t z)
{
	if (x > y)
	{
		uint64_t t = x;

		x = y;
		y = t;
	}
	return z <= x ? x : z >= y ? y : z;
}

/* LSD radix sort, a byte at a time, skipping the bytes all keys share; tmp holds n keys */
static void
radix_sort(uint64_t *keys, uint64_t *tmp, size_t n)
{
	int shift;
	size_t i;

	for (shift = 0; shift < 64 && n > 1; shift += 8)
	{
		size_t count[257];

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
		{
			FS_POLL(i);
			count[((keys[i] >> shift) & 255) + 1]++;
		}
		if (count[((keys[0] >> shift) & 255) + 1] == n)
			continue;
		for (i = 1; i < 257; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
		{
			FS_POLL(i);
			tmp[count[(keys[i] >> shift) & 255]++] = keys[i];
		}
		memcpy(keys, tmp, n * sizeof(uint64_t));
	}
}

/*
 * Narrow (a, b] until no breakpoint lies strictly inside, keeping S(a) < total <= S(b) (or
 * S(a) = total with a = 0; b stays KEY_INF when no breakpoint reaches the total). Once the
 * randomized search has used its budget, bisect over sorted breakpoints instead: one inside
 * breakpoint of each live child, then (for children whose other one is still inside) again.
 */
static void
narrow(solver *s, live_set *lv, size_t work_budget, const fs_allocator *al)
{
	uint64_t rng = UINT64_C(0x5EED) ^ lv->n, *cand = NULL, *tmp = NULL;
	size_t work = 0, ci = 0, cj = 0;

	settle(s, lv);
	while (lv->n > 0)
	{
		uint64_t p;
		size_t mid = 0;

		fs_check_interrupts();
		if (cand != NULL ? ci >= cj : work >= work_budget)
		{
			size_t j;

			if (cand == NULL)
			{
				cand = al->alloc(al->ctx, sizeof(uint64_t) * lv->n);
				tmp = al->alloc(al->ctx, sizeof(uint64_t) * lv->n);
			}
			for (j = 0; j < lv->n; j++)
			{
				FS_POLL(j);
				cand[j] = inside(lv->lo[j], s->a, s->b) ? lv->lo[j] : lv->hi[j];
			}
			radix_sort(cand, tmp, lv->n);
			ci = 0;
			cj = lv->n;
		}
		if (cand != NULL)
			p = cand[mid = ci + (cj - ci) / 2];
		else if (lv->n < 3)
			p = random_breakpoint(s, lv, &rng);
		else
			p = median3(random_breakpoint(s, lv, &rng), random_breakpoint(s, lv, &rng),
			            random_breakpoint(s, lv, &rng));
		if (reaches_total(s, lv, p))
		{
			s->b = p;
			if (cand != NULL)
				for (cj = mid; cj > ci && cand[cj - 1] >= p; cj--)
					;
		}
		else
		{
			s->a = p;
			if (cand != NULL)
				for (ci = mid + 1; ci < cj && cand[ci] <= p; ci++)
					;
		}
		work += lv->n;
		settle(s, lv);
	}
	if (cand != NULL)
	{
		al->release(al->ctx, cand);
		al->release(al->ctx, tmp);
	}
}

/* Where a division's results go: the amounts, the level x (may be NULL), the bounds (may be NULL).
 */
typedef struct div_result
{
	double *out;
	double *x_out;
	fs_bound *bound;
} div_result;

static void
set_result(const div_result *r, size_t i, double v, fs_bound b)
{
	r->out[i] = v;
	if (r->bound)
		r->bound[i] = b;
}

/* Inputs finite and not negative; the largest guarantee, and whether a cap exceeds the total. */
static fs_status
check_inputs(double total, const double *w, const double *l, const double *u, size_t n,
             double *max_low, bool *cap_above_total, fs_error *err)
{
	size_t i;

	*max_low = 0;
	*cap_above_total = false;
	if (!isfinite(total) || total < 0)
	{
		fs_fail(err, isfinite(total) ? FS_ERR_VALUE : FS_ERR_RANGE,
		        "total must be finite and not negative, not %g", total);
		return err->status;
	}
	for (i = 0; i < n; i++)
	{
		fs_status st = check_value(w[i], "weights", i, err);

		FS_POLL(i);
		if (st == FS_OK)
			st = check_value(l[i], "min_shares", i, err);
		if (st == FS_OK)
			st = check_value(u[i], "max_shares", i, err);
		if (st != FS_OK)
			return st;
		if (lower_of(l, u, i) > *max_low)
			*max_low = lower_of(l, u, i);
		if (w[i] > 0 && u[i] > total)
			*cap_above_total = true;
	}
	return FS_OK;
}

/*
 * The fit check: when the guarantees do not fit, they are scaled down to sum to the total; when
 * even every cap does not reach the total, every child gets its cap. Either settles the division
 * (true). Otherwise s->sc is left in units of the total.
 */
static bool
settled_by_fit(solver *s, double total, double max_low, bool cap_above_total, size_t n,
               const div_result *r)
{
	const double *w = s->w, *l = s->l, *u = s->u;
	ksum sum_low = {0, 0}, sum_max = {0, 0};
	size_t i;

	scaler_init(&s->sc, total > max_low ? total : max_low);
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		ksum_add(&sum_low, scaled(&s->sc, lower_of(l, u, i)));
	}
	if (ksum_get(&sum_low) > scaled(&s->sc, total))
	{
		double sl = ksum_get(&sum_low);

		for (i = 0; i < n; i++)
		{
			FS_POLL(i);
			set_result(r, i, total * (scaled(&s->sc, lower_of(l, u, i)) / sl), FS_BOUND_SCALED);
		}
		if (r->x_out)
			*r->x_out = 0;
		return true;
	}

	/* from here on every guarantee is at most the total: work in units of the total */
	scaler_init(&s->sc, total);
	if (cap_above_total)
		return false;
	/* every cap is at most the total, so their scaled sum cannot overflow */
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		ksum_add(&sum_max, scaled(&s->sc, w[i] > 0 ? u[i] : lower_of(l, u, i)));
	}
	if (ksum_get(&sum_max) > scaled(&s->sc, total))
		return false;
	/* even x -> infinity cannot reach the total: every child gets its cap */
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (w[i] > 0)
			set_result(r, i, u[i], FS_BOUND_CAP);
		else
			set_result(r, i, lower_of(l, u, i), FS_BOUND_GUARANTEE);
	}
	if (r->x_out)
		*r->x_out = INFINITY;
	return true;
}

/* The sweep: narrow (a, b] to the piece of the sum's curve where the total lies. */
static void
sweep(solver *s, size_t n, size_t work_budget, const fs_allocator *a)
{
	live_set lv;
	size_t i;

	memset(&s->c, 0, sizeof(s->c));
	memset(&s->wt, 0, sizeof(s->wt));
	s->a = 0;
	s->b = KEY_INF;
	lv.lo = a->alloc(a->ctx, sizeof(uint64_t) * (n > 0 ? n : 1));
	lv.hi = a->alloc(a->ctx, sizeof(uint64_t) * (n > 0 ? n : 1));
	lv.i = a->alloc(a->ctx, sizeof(size_t) * (n > 0 ? n : 1));
	lv.n = 0;
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (s->w[i] > 0)
		{
			breakpoints(s, i, &lv.lo[lv.n], &lv.hi[lv.n]);
			lv.i[lv.n++] = i;
		}
		else
			ksum_add(&s->c, scaled(&s->sc, lower_of(s->l, s->u, i)));
	}
	narrow(s, &lv, work_budget, a);
	a->release(a->ctx, lv.lo);
	a->release(a->ctx, lv.hi);
	a->release(a->ctx, lv.i);
}

/*
 * The re-solve: on (a, b] the sum is C + W x. Take C and W afresh, in index order, so that the
 * result does not depend on the order in which the children were settled, and solve for x (a key).
 */
static uint64_t
resolve(solver *s, size_t n)
{
	const double *w = s->w, *l = s->l, *u = s->u;
	double total = s->total;
	uint64_t xk;
	size_t i;

	memset(&s->c, 0, sizeof(s->c));
	memset(&s->wt, 0, sizeof(s->wt));
	for (i = 0; i < n; i++)
	{
		uint64_t lo, hi;
		double lps = scaled(&s->sc, lower_of(l, u, i));

		FS_POLL(i);
		if (w[i] <= 0)
		{
			ksum_add(&s->c, lps);
			continue;
		}
		breakpoints(s, i, &lo, &hi);
		if (hi <= s->a)
			ksum_add(&s->c, scaled(&s->sc, u[i] < total ? u[i] : total));
		else if (lo >= s->b)
			ksum_add(&s->c, lps);
		else
		{
			wsum_add(&s->wt, w[i]);
			if (s->mode == FS_DIVIDE_ADDITIVE)
				ksum_add(&s->c, lps);
		}
	}
	xk = s->a;
	if (s->wt.any)
	{
		double r = s->t_s - ksum_get(&s->c);

		if (r > 0)
			xk = key_of(r, ksum_get(&s->wt.k), -s->wt.e);
		if (xk < s->a)
			xk = s->a;
		if (xk > s->b)
			xk = s->b;
	}
	return xk;
}

/* The assignment: each child's amount at level xk, and the bound that holds it. */
static void
assign(const solver *s, size_t n, uint64_t xk, const div_result *r)
{
	const double *w = s->w, *l = s->l, *u = s->u;
	double total = s->total, xm = 0;
	int xe = 0;
	size_t i;

	for (i = 0; i < n; i++)
	{
		uint64_t lo, hi;
		double lp = lower_of(l, u, i), v;
		fs_bound b;

		FS_POLL(i);
		if (w[i] <= 0)
		{
			set_result(r, i, lp, FS_BOUND_GUARANTEE);
			continue;
		}
		breakpoints(s, i, &lo, &hi);
		if (hi <= s->a)
			v = u[i] < total ? u[i] : total;
		else if (lo >= s->b)
			v = lp;
		else
		{
			/* in its linear piece: x w_i (+ l_i), in real units, within its bounds */
			v = key_mul(w[i], xk, s->sc.k);
			if (s->mode == FS_DIVIDE_ADDITIVE)
				v += lp;
			v = v < lp ? lp : v > u[i] ? u[i] : v;
		}
		/* which bound holds it; a cap above the total never binds (it would hold it all) */
		if (s->mode == FS_DIVIDE_CLAMP && xk <= lo)
		{
			b = FS_BOUND_GUARANTEE;
			v = lp;
		}
		else if (u[i] <= total && xk >= hi)
		{
			b = FS_BOUND_CAP;
			v = u[i];
		}
		else
			b = FS_BOUND_WEIGHT;
		set_result(r, i, v, b);
	}
	if (r->x_out)
	{
		if (xk != 0)
			xm = key_mant(xk, &xe);
		*r->x_out = xk == 0 ? 0 : ldexp(xm, xe + s->sc.k);
	}
}

fs_status
fs_divide_budget(double total, const double *w, const double *l, const double *u, size_t n,
                 fs_divide_mode mode, size_t work_budget, const fs_allocator *a, double *out,
                 double *x_out, fs_bound *bound, fs_error *err)
{
	div_result r = {out, x_out, bound};
	double max_low;
	bool cap_above_total;
	solver s;
	fs_status st = check_inputs(total, w, l, u, n, &max_low, &cap_above_total, err);

	if (st != FS_OK)
		return st;
	s.w = w;
	s.l = l;
	s.u = u;
	s.mode = mode;
	s.total = total;
	if (settled_by_fit(&s, total, max_low, cap_above_total, n, &r))
		return FS_OK;
	s.t_s = scaled(&s.sc, total);
	sweep(&s, n, work_budget, a);
	assign(&s, n, resolve(&s, n), &r);
	return FS_OK;
}

fs_status
fs_divide(double total, const double *w, const double *l, const double *u, size_t n,
          fs_divide_mode mode, const fs_allocator *a, double *out, double *x_out, fs_bound *bound,
          fs_error *err)
{
	size_t budget = n > (SIZE_MAX - 4096) / WORK_MULT ? SIZE_MAX : WORK_MULT * n + 4096;

	return fs_divide_budget(total, w, l, u, n, mode, budget, a, out, x_out, bound, err);
}

/* ---------------------------------------------------------------- pool trees */

static fs_status
ratio(const uint8_t *v, const uint8_t *cluster, double *share, fs_rv_item *which, bool *found,
      fs_error *err)
{
	static const uint8_t empty[4] = {0, 0, 0, 0};

	return fs_rv_dominant(v ? v : empty, cluster, share, which, found, err);
}

/* Each node's own numbers: weight, guarantee, usage and demand ratios, dominant resource, cap. */
static fs_status
pool_node_rows(const fs_tree *t, const uint8_t *cluster, fs_pool_row *r, fs_error *err)
{
	uint32_t n = fs_tree_count(t), i;
	fs_status st = FS_OK;

	for (i = 0; i < n && st == FS_OK; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		fs_rv_item uw, dw;
		bool uf, df;
		double maxr = (nd->flags & FS_TN_HAS_MAX) ? nd->max_share : 1;

		FS_POLL(i);
		r[i].weight = (nd->flags & FS_TN_DECLARED) ? nd->shares : 1;
		r[i].min_share_ratio = (nd->flags & FS_TN_HAS_MIN) ? nd->min_share : 0;
		st = ratio(fs_tree_total_vec(t, i, false), cluster, &r[i].usage_ratio, &uw, &uf, err);
		if (st == FS_OK)
			st = ratio(fs_tree_total_vec(t, i, true), cluster, &r[i].demand_ratio, &dw, &df, err);
		if (st != FS_OK)
			break;
		if (uf && r[i].usage_ratio > 0)
		{
			r[i].dominant_resource = uw.name;
			r[i].dominant_len = uw.namelen;
		}
		else if (df)
		{
			r[i].dominant_resource = dw.name;
			r[i].dominant_len = dw.namelen;
		}
		r[i].max_possible_ratio = r[i].demand_ratio < maxr ? r[i].demand_ratio : maxr;
	}
	if (st != FS_OK)
	{
		fs_path_text p;

		if (i == 0)
			fs_error_context(err, "at the root of the pool tree");
		else
			fs_error_context(err, "in pool \"%s\"", fs_sp_text(fs_tree_node(t, i)->path, &p));
	}
	return st;
}

/* The children of each node, in pre-order: members[first[p] .. first[p + 1]) are p's. */
typedef struct child_index
{
	uint32_t *first;
	uint32_t *members;
} child_index;

/* Every node's children as one array grouped by parent (counting sort by parent: O(n)). */
static void
index_children(const fs_tree *t, const fs_allocator *a, child_index *ci)
{
	uint32_t n = fs_tree_count(t), i;
	uint32_t *fill;

	ci->first = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	ci->members = a->alloc(a->ctx, sizeof(uint32_t) * (n > 1 ? n : 1));
	fill = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	memset(ci->first, 0, sizeof(uint32_t) * (n + 1));
	for (i = 1; i < n; i++)
	{
		FS_POLL(i);
		ci->first[fs_tree_parent_pos(t, i) + 1]++;
	}
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		ci->first[i + 1] += ci->first[i];
	}
	memcpy(fill, ci->first, sizeof(uint32_t) * (n + 1));
	for (i = 1; i < n; i++)
	{
		FS_POLL(i);
		ci->members[fill[fs_tree_parent_pos(t, i)]++] = i;
	}
	a->release(a->ctx, fill);
}

/* The siblings' inputs and results for fs_divide, sized for the most children any node has. */
typedef struct sibling_buffers
{
	double *w, *l, *u, *share;
	fs_bound *bound;
} sibling_buffers;

/* Divide parent p's fair share among its k children c[0..k). */
static fs_status
divide_children(fs_pool_row *r, uint32_t p, const uint32_t *c, uint32_t k, fs_divide_mode mode,
                const sibling_buffers *b, const fs_allocator *a, fs_error *err)
{
	double max_min = 0, sum_min = 0, x;
	int e = 0;
	bool over;
	uint32_t i;
	fs_status st;

	/*
	 * Normalise the siblings' min_share_ratios when they sum past 1. Sum them scaled by a power
	 * of two that brings the largest to [0.5, 1): exact, so ratios 1e308 and 1e308 give what 2
	 * and 2 give rather than overflowing to a sum of infinity.
	 */
	for (i = 0; i < k; i++)
	{
		FS_POLL(i);
		if (r[c[i]].min_share_ratio > max_min)
			max_min = r[c[i]].min_share_ratio;
	}
	(void) frexp(max_min, &e);
	for (i = 0; i < k; i++)
	{
		FS_POLL(i);
		sum_min += ldexp(r[c[i]].min_share_ratio, -e);
	}
	over = e > 1023 || sum_min > ldexp(1, -e); /* the unscaled sum is > 1 */
	for (i = 0; i < k; i++)
	{
		double norm = over ? ldexp(r[c[i]].min_share_ratio, -e) / sum_min : r[c[i]].min_share_ratio;

		FS_POLL(i);
		r[c[i]].guaranteed_share = r[p].guaranteed_share * norm;
		b->w[i] = r[c[i]].weight;
		b->l[i] = r[c[i]].guaranteed_share;
		b->u[i] = r[c[i]].max_possible_ratio;
	}
	st =
	    fs_divide(r[p].fair_share_ratio, b->w, b->l, b->u, k, mode, a, b->share, &x, b->bound, err);
	for (i = 0; i < k && st == FS_OK; i++)
	{
		fs_pool_row *ch = &r[c[i]];
		double lo = b->l[i] < b->u[i] ? b->l[i] : b->u[i];

		ch->fair_share_ratio = b->share[i];
		ch->bound = b->bound[i];
		ch->lower_bound = b->bound[i] == FS_BOUND_SCALED ? b->share[i] : lo;
		ch->weight_part = isfinite(x) ? x * b->w[i] : NAN;
	}
	return st;
}

fs_status
fs_pool_fair_share(const fs_tree *t, const uint8_t *cluster, fs_divide_mode mode,
                   const fs_allocator *a, fs_pool_row **out, fs_error *err)
{
	uint32_t n = fs_tree_count(t);
	fs_pool_row *r;
	child_index ci;
	sibling_buffers b;
	uint32_t i, p;
	fs_status st;

	if (fs_tree_get_kind(t) != FS_TREE_POOL)
	{
		fs_fail(err, FS_ERR_VALUE, "fair_share needs a pool tree, not a share tree");
		fs_error_hint(err, "Build the tree with pool_tree(path, weight, min_share_ratio, "
		                   "max_share_ratio, usage, demand).");
		return FS_ERR_VALUE;
	}
	r = a->alloc(a->ctx, sizeof(fs_pool_row) * n);
	memset(r, 0, sizeof(fs_pool_row) * n);
	st = pool_node_rows(t, cluster, r, err);
	if (st != FS_OK)
	{
		a->release(a->ctx, r);
		return st;
	}

	index_children(t, a, &ci);
	b.w = a->alloc(a->ctx, sizeof(double) * n);
	b.l = a->alloc(a->ctx, sizeof(double) * n);
	b.u = a->alloc(a->ctx, sizeof(double) * n);
	b.share = a->alloc(a->ctx, sizeof(double) * n);
	b.bound = a->alloc(a->ctx, sizeof(fs_bound) * n);

	r[0].fair_share_ratio = 1;
	r[0].guaranteed_share = 1;
	r[0].lower_bound = 1;
	r[0].bound = FS_BOUND_WEIGHT;
	for (p = 0; p < n && st == FS_OK; p++)
	{
		uint32_t k = ci.first[p + 1] - ci.first[p];

		FS_POLL(p);
		if (k > 0)
			st = divide_children(r, p, ci.members + ci.first[p], k, mode, &b, a, err);
	}
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		r[i].satisfaction_null = !(r[i].fair_share_ratio > 0);
		r[i].satisfaction = r[i].satisfaction_null ? 0 : r[i].usage_ratio / r[i].fair_share_ratio;
	}
	a->release(a->ctx, ci.first);
	a->release(a->ctx, ci.members);
	a->release(a->ctx, b.w);
	a->release(a->ctx, b.l);
	a->release(a->ctx, b.u);
	a->release(a->ctx, b.share);
	a->release(a->ctx, b.bound);
	if (st != FS_OK)
	{
		a->release(a->ctx, r);
		return st;
	}
	*out = r;
	return FS_OK;
}

int
fs_pool_root_from_name(const char *name)
{
	if (strcmp(name, "one") == 0)
		return FS_POOL_ROOT_ONE;
	if (strcmp(name, "children") == 0)
		return FS_POOL_ROOT_CHILDREN;
	return -1;
}

void
fs_pool_root_from_children(const fs_tree *t, fs_pool_row *rows)
{
	uint32_t n = fs_tree_count(t), i;
	double share = 0, guarantee = 0;

	for (i = 1; i < n; i++)
	{
		FS_POLL(i);
		if (fs_tree_parent_pos(t, i) != 0)
			continue;
		share += rows[i].fair_share_ratio;
		guarantee += rows[i].guaranteed_share;
	}
	rows[0].fair_share_ratio = share < 1 ? share : 1;
	rows[0].guaranteed_share = guarantee < 1 ? guarantee : 1;
	rows[0].lower_bound = rows[0].guaranteed_share;
	rows[0].satisfaction_null = !(rows[0].fair_share_ratio > 0);
	rows[0].satisfaction =
	    rows[0].satisfaction_null ? 0 : rows[0].usage_ratio / rows[0].fair_share_ratio;
}
