/*
 * divide.c: exact fair-share division. sum_i g_i(x) is piecewise linear and non-decreasing in x,
 * with breakpoints where a child reaches its guarantee or its cap: sort them, sweep, and solve
 * the one linear piece that crosses the total. No iteration cap, no truncation.
 */
#include "divide.h"

#include "resvec.h"
#include "sharepath.h"

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

typedef struct event
{
	double x;
	double dslope;
} event;

static int
event_cmp(const void *p, const void *q)
{
	double a = ((const event *) p)->x, b = ((const event *) q)->x;

	return (a > b) - (a < b);
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

/* breakpoints of child i: the linear piece runs over [*lo, *hi] */
static void
piece(double w, double lp, double u, fs_divide_mode mode, double *lo, double *hi)
{
	if (mode == FS_DIVIDE_CLAMP)
	{
		*lo = lp / w;
		*hi = u / w;
	}
	else
	{
		*lo = 0;
		*hi = (u - lp) / w;
	}
}

fs_status
fs_divide(double total, const double *w, const double *l, const double *u, size_t n,
          fs_divide_mode mode, const fs_allocator *a, double *out, double *x_out, fs_bound *bound,
          fs_error *err)
{
	double sum_low = 0, sum_max = 0, slope = 0, val, prev, x, residual, sum = 0;
	event *ev;
	size_t i, m = 0;

	if (!isfinite(total) || total < 0)
	{
		fs_fail(err, isfinite(total) ? FS_ERR_VALUE : FS_ERR_RANGE,
		        "total must be finite and not negative, not %g", total);
		return err->status;
	}
	for (i = 0; i < n; i++)
	{
		fs_status st = check_value(w[i], "weights", i, err);

		if (st == FS_OK)
			st = check_value(l[i], "min_shares", i, err);
		if (st == FS_OK)
			st = check_value(u[i], "max_shares", i, err);
		if (st != FS_OK)
			return st;
		sum_low += l[i] < u[i] ? l[i] : u[i];
		sum_max += w[i] > 0 ? u[i] : (l[i] < u[i] ? l[i] : u[i]);
	}
	if (sum_low > total)
	{
		/* the guarantees do not fit: scale them down to sum to the total */
		for (i = 0; i < n; i++)
		{
			out[i] = (l[i] < u[i] ? l[i] : u[i]) * (total / sum_low);
			if (bound)
				bound[i] = FS_BOUND_SCALED;
		}
		if (x_out)
			*x_out = 0;
		return FS_OK;
	}
	if (sum_max <= total)
	{
		/* even x -> infinity cannot reach the total: every child gets its cap */
		for (i = 0; i < n; i++)
		{
			out[i] = w[i] > 0 ? u[i] : (l[i] < u[i] ? l[i] : u[i]);
			if (bound)
				bound[i] = w[i] > 0 ? FS_BOUND_CAP : FS_BOUND_GUARANTEE;
		}
		if (x_out)
			*x_out = INFINITY;
		return FS_OK;
	}
	ev = a->alloc(a->ctx, sizeof(event) * (2 * n + 1));
	for (i = 0; i < n; i++)
	{
		double lp = l[i] < u[i] ? l[i] : u[i], lo, hi;

		if (w[i] <= 0)
			continue;
		piece(w[i], lp, u[i], mode, &lo, &hi);
		ev[m].x = lo;
		ev[m++].dslope = w[i];
		ev[m].x = hi;
		ev[m++].dslope = -w[i];
	}
	qsort(ev, m, sizeof(event), event_cmp);
	/* sweep: val = S(prev); S grows by slope per unit of x until the next breakpoint */
	val = sum_low;
	prev = 0;
	x = 0;
	for (i = 0; i < m; i++)
	{
		double next = val + slope * (ev[i].x - prev);

		if (next >= total && slope > 0)
			break;
		val = next;
		prev = ev[i].x;
		slope += ev[i].dslope;
	}
	x = slope > 0 ? prev + (total - val) / slope : prev;
	a->release(a->ctx, ev);

	/*
	 * Solve the crossing piece again from fresh sums rather than from the sweep's running total,
	 * which carries the rounding of every earlier piece: S(x) = c + slope x there.
	 */
	{
		double c = 0;

		slope = 0;
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i], lo, hi;

			if (w[i] <= 0)
			{
				c += lp;
				continue;
			}
			piece(w[i], lp, u[i], mode, &lo, &hi);
			if (x <= lo)
				c += lp;
			else if (x >= hi)
				c += u[i];
			else
			{
				slope += w[i];
				if (mode == FS_DIVIDE_ADDITIVE)
					c += lp;
			}
		}
		if (slope > 0)
			x = (total - c) / slope;
	}

	slope = 0;
	for (i = 0; i < n; i++)
	{
		double lp = l[i] < u[i] ? l[i] : u[i], lo, hi;

		if (w[i] <= 0)
		{
			out[i] = lp;
			if (bound)
				bound[i] = FS_BOUND_GUARANTEE;
		}
		else
		{
			piece(w[i], lp, u[i], mode, &lo, &hi);
			out[i] = x <= lo                      ? lp
			         : x >= hi                    ? u[i]
			         : mode == FS_DIVIDE_ADDITIVE ? lp + w[i] * x
			                                      : w[i] * x;
			if (bound)
				bound[i] = x <= lo && mode == FS_DIVIDE_CLAMP ? FS_BOUND_GUARANTEE
				           : x >= hi                          ? FS_BOUND_CAP
				                                              : FS_BOUND_WEIGHT;
			if (x > lo && x < hi)
				slope += w[i];
		}
		sum += out[i];
	}
	/* put the rounding residue on the children in their linear piece, by weight */
	residual = total - sum;
	if (slope > 0 && residual != 0)
	{
		for (i = 0; i < n; i++)
		{
			double lp = l[i] < u[i] ? l[i] : u[i], lo, hi;

			if (w[i] <= 0)
				continue;
			piece(w[i], lp, u[i], mode, &lo, &hi);
			if (x > lo && x < hi)
				out[i] += residual * (w[i] / slope);
		}
	}
	if (x_out)
		*x_out = x;
	return FS_OK;
}

/* ---------------------------------------------------------------- pool trees */

static fs_status
ratio(const uint8_t *v, const uint8_t *cluster, double *share, fs_rv_item *which, bool *found,
      fs_error *err)
{
	static const uint8_t empty[4] = {0, 0, 0, 0};

	return fs_rv_dominant(v ? v : empty, cluster, share, which, found, err);
}

fs_status
fs_pool_fair_share(const fs_tree *t, const uint8_t *cluster, fs_divide_mode mode,
                   const fs_allocator *a, fs_pool_row **out, fs_error *err)
{
	uint32_t n = fs_tree_count(t);
	fs_pool_row *r;
	uint32_t *first, *members, *fill;
	double *w, *l, *u, *share;
	fs_bound *bound;
	double *maxr;
	uint32_t i, p;
	fs_status st = FS_OK;

	if (fs_tree_get_kind(t) != FS_TREE_POOL)
	{
		fs_fail(err, FS_ERR_VALUE, "fair_share needs a pool tree, not a share tree");
		fs_error_hint(err, "Build the tree with pool_tree(path, weight, min_share_ratio, "
		                   "max_share_ratio, usage, demand).");
		return FS_ERR_VALUE;
	}
	r = a->alloc(a->ctx, sizeof(fs_pool_row) * n);
	memset(r, 0, sizeof(fs_pool_row) * n);
	maxr = a->alloc(a->ctx, sizeof(double) * n);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		fs_rv_item uw, dw;
		bool uf, df;

		r[i].weight = (nd->flags & FS_TN_DECLARED) ? nd->shares : 1;
		r[i].min_share_ratio = (nd->flags & FS_TN_HAS_MIN) ? nd->min_share : 0;
		maxr[i] = (nd->flags & FS_TN_HAS_MAX) ? nd->max_share : 1;
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
		r[i].max_possible_ratio = r[i].demand_ratio < maxr[i] ? r[i].demand_ratio : maxr[i];
	}
	if (st != FS_OK)
	{
		char p_text[200];

		fs_sp_format_buf(fs_tree_node(t, i)->path, p_text, sizeof(p_text));
		if (i == 0)
			fs_error_context(err, "(at the root of the pool tree)");
		else
			fs_error_context(err, "(in pool \"%s\")", p_text);
		a->release(a->ctx, r);
		a->release(a->ctx, maxr);
		return st;
	}

	/* children of each node, in pre-order */
	first = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	members = a->alloc(a->ctx, sizeof(uint32_t) * (n > 1 ? n : 1));
	fill = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	memset(first, 0, sizeof(uint32_t) * (n + 1));
	for (i = 1; i < n; i++)
		first[fs_tree_parent_pos(t, i) + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	memcpy(fill, first, sizeof(uint32_t) * (n + 1));
	for (i = 1; i < n; i++)
		members[fill[fs_tree_parent_pos(t, i)]++] = i;
	a->release(a->ctx, fill);

	w = a->alloc(a->ctx, sizeof(double) * n);
	l = a->alloc(a->ctx, sizeof(double) * n);
	u = a->alloc(a->ctx, sizeof(double) * n);
	share = a->alloc(a->ctx, sizeof(double) * n);
	bound = a->alloc(a->ctx, sizeof(fs_bound) * n);

	r[0].fair_share_ratio = 1;
	r[0].guaranteed_share = 1;
	r[0].lower_bound = 1;
	r[0].bound = FS_BOUND_WEIGHT;
	for (p = 0; p < n && st == FS_OK; p++)
	{
		uint32_t *c = members + first[p];
		uint32_t k = first[p + 1] - first[p];
		double sum_min = 0, x;

		if (k == 0)
			continue;
		for (i = 0; i < k; i++)
			sum_min += r[c[i]].min_share_ratio;
		for (i = 0; i < k; i++)
		{
			double norm = sum_min > 1 ? r[c[i]].min_share_ratio / sum_min : r[c[i]].min_share_ratio;

			r[c[i]].guaranteed_share = r[p].guaranteed_share * norm;
			w[i] = r[c[i]].weight;
			l[i] = r[c[i]].guaranteed_share;
			u[i] = r[c[i]].max_possible_ratio;
		}
		st = fs_divide(r[p].fair_share_ratio, w, l, u, k, mode, a, share, &x, bound, err);
		for (i = 0; i < k && st == FS_OK; i++)
		{
			fs_pool_row *ch = &r[c[i]];

			ch->fair_share_ratio = share[i];
			ch->bound = bound[i];
			ch->lower_bound = bound[i] == FS_BOUND_SCALED ? share[i] : (l[i] < u[i] ? l[i] : u[i]);
			ch->weight_part = isfinite(x) ? x * w[i] : NAN;
		}
	}
	for (i = 0; i < n; i++)
	{
		r[i].satisfaction_null = !(r[i].fair_share_ratio > 0);
		r[i].satisfaction = r[i].satisfaction_null ? 0 : r[i].usage_ratio / r[i].fair_share_ratio;
	}
	a->release(a->ctx, first);
	a->release(a->ctx, members);
	a->release(a->ctx, w);
	a->release(a->ctx, l);
	a->release(a->ctx, u);
	a->release(a->ctx, share);
	a->release(a->ctx, bound);
	a->release(a->ctx, maxr);
	if (st != FS_OK)
	{
		a->release(a->ctx, r);
		return st;
	}
	*out = r;
	return FS_OK;
}
