/*
 * vector_hdrf.c: YTsaurus's vector HDRF over a pool tree (see vector_hdrf.h): the shares, the
 * strong guarantees and their adjustment, the functions bottom-up and the top-down pass.
 */
#include "share/vector_hdrf_int.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static const char *const bound_names[] = {"demand", "limit",   "guarantee", "weight",
                                          "gang",   "cluster", "no demand", "fifo"};

const char *
fs_vh_bound_name(fs_vh_bound b)
{
	return bound_names[b];
}

static double *
vec(const fs_allocator *a, size_t k)
{
	double *v = a->alloc(a->ctx, (k ? k : 1) * sizeof(double));

	memset(v, 0, (k ? k : 1) * sizeof(double));
	return v;
}

bool
fs_vh_dominates(const double *a, const double *b, double eps, size_t k)
{
	size_t r;

	for (r = 0; r < k; r++)
		if (a[r] + eps < b[r])
			return false;
	return true;
}

/* Some children's summed strong guarantees scaled by x fit into max (ComputeByFitting). */
typedef struct vh_fit
{
	const vh_tree *t;
	const size_t *kids; /* the children summed */
	size_t count;
	const double *max;
	double *sum;
} vh_fit;

static bool
fit_pred(double x, void *ctx)
{
	vh_fit *c = ctx;
	const vh_tree *t = c->t;
	size_t k = t->k, i, r;

	memset(c->sum, 0, k * sizeof(double));
	for (i = 0; i < c->count; i++)
		for (r = 0; r < k; r++)
			c->sum[r] += t->sg[c->kids[i] * k + r] * x;
	return fs_vh_dominates(c->max, c->sum, 0, k);
}

/* A child and its strong guarantee tier, sorted lower tier first, stable by index. */
typedef struct vh_tiered
{
	int64_t tier;
	size_t node;
} vh_tiered;

static int
tier_cmp(const void *x, const void *y)
{
	const vh_tiered *a = x, *b = y;

	return a->tier < b->tier ? -1 : a->tier > b->tier ? 1 : a->node < b->node ? -1 : a->node > b->node;
}

/*
 * Children of pool i whose guarantees overcommit it (AdjustStrongGuarantees): tier by tier, lower
 * first, a tier is kept whole if it fits into what the tiers before it left, else scaled by one
 * common factor into it, and the tiers after it get nothing. One tier: proportional scaling.
 */
static void
adjust_children(const vh_tree *t, size_t i, vh_tiered *tiers, size_t *order, double *left,
                double *sum)
{
	size_t k = t->k, c = t->count[i], j, e, r;
	bool full = false;

	for (j = 0; j < c; j++)
	{
		tiers[j].node = t->kids[t->first[i] + j];
		tiers[j].tier = t->nodes[tiers[j].node].tier;
	}
	qsort(tiers, c, sizeof(vh_tiered), tier_cmp);
	for (j = 0; j < c; j++)
		order[j] = tiers[j].node;
	memcpy(left, t->sg + i * k, k * sizeof(double));
	for (j = 0; j < c; j = e)
	{
		vh_fit f;
		double x;

		for (e = j + 1; e < c && tiers[e].tier == tiers[j].tier; e++)
			;
		f.t = t;
		f.kids = order + j;
		f.count = e - j;
		f.max = left;
		f.sum = sum;
		x = full ? 0 : fit_pred(1, &f) ? 1 : fit_pred(0, &f) ? fs_vh_bisect(0, 1, fit_pred, &f) : 0;
		if (x < 1)
			full = true;
		fit_pred(x, &f);
		for (r = 0; r < k; r++)
		{
			left[r] -= sum[r];
			if (left[r] < 0)
				left[r] = 0;
		}
		for (; j < e; j++)
			for (r = 0; r < k; r++)
				t->sg[order[j] * k + r] *= x;
	}
}

/*
 * Effective strong guarantees in amounts, top-down: explicit ones as given; an unconfigured
 * resource other than the main one is inferred as (child's main / parent's main) x parent's, and
 * below the root scaled into what the explicit ones leave.
 */
static void
infer_guarantees(const vh_tree *t, const double *total, double *eff)
{
	size_t n = t->n, k = t->k, i, j, r;
	int64_t m = t->opt->main_resource;
	double *resid = vec(t->a, k), *sum = vec(t->a, k);

	memcpy(eff, total, k * sizeof(double));
	for (i = 0; i < n; i++)
	{
		const double *pe = eff + i * k;

		FS_POLL(i);
		if (t->count[i] == 0)
			continue;
		memset(sum, 0, k * sizeof(double));
		for (j = 0; j < t->count[i]; j++)
		{
			size_t c = t->kids[t->first[i] + j];
			const double *s = t->nodes[c].strong;

			for (r = 0; r < k; r++)
			{
				eff[c * k + r] = s && !isnan(s[r]) ? s[r] : 0;
				sum[r] += eff[c * k + r];
			}
		}
		for (r = 0; r < k; r++)
			resid[r] = pe[r] - sum[r] > 0 ? pe[r] - sum[r] : 0;
		if (m < 0)
			continue;
		for (r = 0; r < k; r++)
		{
			double implicit = 0, scale = 1;

			if ((int64_t) r == m)
				continue;
			for (j = 0; j < t->count[i]; j++)
			{
				size_t c = t->kids[t->first[i] + j];
				const double *s = t->nodes[c].strong;

				if (!s || isnan(s[r]))
					implicit += (pe[m] > 0 ? eff[c * k + m] / pe[m] : 0) * pe[r];
			}
			if (i != 0 && implicit > resid[r])
				scale = resid[r] / implicit;
			for (j = 0; j < t->count[i]; j++)
			{
				size_t c = t->kids[t->first[i] + j];
				const double *s = t->nodes[c].strong;

				if (!s || isnan(s[r]))
					eff[c * k + r] = (pe[m] > 0 ? eff[c * k + m] / pe[m] : 0) * pe[r] * scale;
			}
		}
	}
	t->a->release(t->a->ctx, resid);
	t->a->release(t->a->ctx, sum);
}

/* A vector scaled by x fits under max (the root's overcommit scaling). */
typedef struct vh_scale
{
	const double *v, *max;
	size_t k;
} vh_scale;

static bool
scale_pred(double x, void *ctx)
{
	const vh_scale *c = ctx;
	size_t r;

	for (r = 0; r < c->k; r++)
		if (c->v[r] * x > c->max[r])
			return false;
	return true;
}

static double
share(double amount, double total)
{
	return total > 0 ? amount / total : 0;
}

/* The suggestion checks of the top-down pass: children's fair shares fit the pool's + eps. */
typedef struct vh_pass
{
	const vh_tree *t;
	size_t node;
	double minw;
	const double *fs;
	double *sum, *tmp;
} vh_pass;

static double
child_suggestion(const vh_tree *t, size_t c, double f, double minw)
{
	double w = t->nodes[c].weight, s = minw < DBL_MAX ? f * (w / minw) : 0, whole;

	if (t->nodes[t->nodes[c].parent].fifo)
	{
		/* the children before floor(f) are satisfied, the next one gets the fraction */
		whole = floor(f);
		return (double) t->pos[c] < whole ? 1 : (double) t->pos[c] == whole ? f - whole : 0;
	}
	return s < 1 ? s : 1;
}

static bool
pass_pred(double f, void *ctx)
{
	vh_pass *p = ctx;
	const vh_tree *t = p->t;
	size_t k = t->k, i, r;

	memset(p->sum, 0, k * sizeof(double));
	for (i = 0; i < t->count[p->node]; i++)
	{
		size_t c = t->kids[t->first[p->node] + i];

		fs_vh_fn_eval(&t->fsbs[c], child_suggestion(t, c, f, p->minw), p->tmp);
		for (r = 0; r < k; r++)
			p->sum[r] += p->tmp[r];
	}
	return fs_vh_dominates(p->fs, p->sum, FS_VH_EPSILON, k);
}

double
fs_vh_min_child_weight(const vh_tree *t, size_t i)
{
	double m = DBL_MAX;
	size_t j;

	for (j = 0; j < t->count[i]; j++)
	{
		double w = t->nodes[t->kids[t->first[i] + j]].weight;

		if (w > FS_VH_EPSILON && w < m)
			m = w;
	}
	return m;
}

/* What held element i's fair share (after the pass). */
static void
explain(const vh_tree *t, size_t i, fs_vh_result *o)
{
	size_t k = t->k, r;
	bool at_demand = true, any_demand = false;
	double best = -1;

	o->bound_resource = -1;
	for (r = 0; r < k; r++)
	{
		if (o->fair_share[r] + FS_VH_EPSILON < o->demand[r])
			at_demand = false;
		if (o->demand[r] > 0)
			any_demand = true;
	}
	if (!any_demand)
	{
		o->bound = FS_VH_BOUND_EMPTY;
		return;
	}
	if (at_demand)
	{
		o->bound = FS_VH_BOUND_DEMAND;
		return;
	}
	for (r = 0; r < k; r++)
		if (o->limits[r] < 1 && o->limits[r] < o->demand[r] &&
		    o->fair_share[r] + FS_VH_EPSILON >= o->limits[r])
		{
			o->bound = FS_VH_BOUND_LIMIT;
			o->bound_resource = (int64_t) r;
			return;
		}
	if (t->nodes[i].is_operation && t->nodes[i].gang && t->opt->gang_step &&
	    o->dominant_fair_share <= FS_VH_EPSILON)
	{
		o->bound = FS_VH_BOUND_GANG;
		return;
	}
	/* the resource where the fair share stands highest above the guarantee */
	for (r = 0; r < k; r++)
		if (o->fair_share[r] - o->strong[r] > best && o->demand[r] > o->fair_share[r])
		{
			best = o->fair_share[r] - o->strong[r];
			o->bound_resource = (int64_t) r;
		}
	if (i != 0 && o->suggestion < 1 && t->nodes[t->nodes[i].parent].fifo)
		o->bound = FS_VH_BOUND_FIFO;
	else if (i != 0 && o->suggestion <= 0)
		o->bound = FS_VH_BOUND_GUARANTEE;
	else if (i != 0 && o->suggestion < 1 && t->count[t->nodes[i].parent] == 1)
		o->bound = FS_VH_BOUND_CLUSTER; /* an only child: what its ancestors could have */
	else if (i != 0 && o->suggestion < 1)
		o->bound = FS_VH_BOUND_WEIGHT;
	else
		o->bound = FS_VH_BOUND_CLUSTER;
}

/* A FIFO pool's operations by their order (the sort is stable: ties keep the input order). */
static int
cmp_order(const void *a, const void *b, void *ctx)
{
	const fs_vh_node *nodes = ctx;
	int64_t x = nodes[*(const size_t *) a].order, y = nodes[*(const size_t *) b].order;

	return x < y ? -1 : x > y;
}

static fs_status
build_tree(const fs_vh_node *nodes, size_t n, size_t k, const fs_allocator *a, vh_tree *t,
           fs_error *err)
{
	size_t i, *fill;

	t->n = n;
	t->k = k;
	t->nodes = nodes;
	t->first = a->alloc(a->ctx, 4 * n * sizeof(size_t) + sizeof(size_t));
	t->count = t->first + n;
	t->kids = t->count + n;
	t->pos = t->kids + n;
	memset(t->count, 0, n * sizeof(size_t));
	for (i = 0; i < n; i++)
	{
		int64_t p = nodes[i].parent;

		if ((i == 0) != (p < 0) || (i > 0 && (uint64_t) p >= i) ||
		    (p >= 0 && nodes[p].is_operation) ||
		    (p >= 0 && nodes[p].fifo && !nodes[i].is_operation))
		{
			a->release(a->ctx, t->first);
			return fs_fail(err, FS_ERR_VALUE, "vector fair share elements are not a pool tree");
		}
		if (p >= 0)
			t->count[p]++;
	}
	fill = a->alloc(a->ctx, n * sizeof(size_t));
	for (i = 0; i < n; i++)
	{
		t->first[i] = i == 0 ? 0 : t->first[i - 1] + t->count[i - 1];
		fill[i] = 0;
	}
	for (i = 1; i < n; i++)
	{
		size_t p = (size_t) nodes[i].parent;

		t->kids[t->first[p] + fill[p]++] = i;
	}
	a->release(a->ctx, fill);
	for (i = 0; i < n; i++)
	{
		size_t j;

		FS_POLL(i);
		if (nodes[i].fifo)
			fs_sort(t->kids + t->first[i], t->count[i], sizeof(size_t), cmp_order, (void *) nodes,
			        a);
		for (j = 0; j < t->count[i]; j++)
			t->pos[t->kids[t->first[i] + j]] = j;
	}
	return FS_OK;
}

fs_status
fs_vh_compute(const fs_vh_node *nodes, size_t n, const double *total, size_t k,
              const fs_vh_options *opt, const fs_allocator *a, fs_vh_result *out, fs_error *err)
{
	vh_tree t;
	size_t i, j, r;
	double *eff, *one, *tmp;
	fs_status st;

	if (n == 0)
		return fs_fail(err, FS_ERR_VALUE, "vector fair share needs a root");
	if (k > FS_VH_RESOURCES_MAX || n > FS_VH_ELEMENTS_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "too many %s for vector fair share",
		        k > FS_VH_RESOURCES_MAX ? "resources" : "elements");
		fs_error_detail(err, "There are %zu; the limit is %d.", k > FS_VH_RESOURCES_MAX ? k : n,
		                k > FS_VH_RESOURCES_MAX ? FS_VH_RESOURCES_MAX : FS_VH_ELEMENTS_MAX);
		return FS_ERR_LIMIT;
	}
	memset(&t, 0, sizeof(t));
	t.opt = opt;
	t.a = a;
	if ((st = build_tree(nodes, n, k, a, &t, err)) != FS_OK)
		return st;
	t.fsbs = a->alloc(a->ctx, n * sizeof(fs_vh_fn));
	memset(t.fsbs, 0, n * sizeof(fs_vh_fn));
	t.sg = a->alloc(a->ctx, n * (k ? k : 1) * sizeof(double));
	eff = a->alloc(a->ctx, n * (k ? k : 1) * sizeof(double));
	one = vec(a, k);
	tmp = vec(a, k);
	for (i = 0; i < n; i++)
	{
		fs_vh_result *o = &out[i];

		/* the eight vectors in one block (o->demand owns it) */
		o->demand = vec(a, 8 * k);
		o->usage = o->demand + k;
		o->limits = o->usage + k;
		o->strong = o->limits + k;
		o->fair_share = o->strong + k;
		o->strong_part = o->fair_share + k;
		o->integral_part = o->strong_part + k;
		o->weight_part = o->integral_part + k;
		o->fifo_index = i > 0 && nodes[nodes[i].parent].fifo ? (int64_t) t.pos[i] : -1;
		o->effective_fifo_index = -1;
	}
	if (opt->improved)
	{
		t.stretch = a->alloc(a->ctx, n * sizeof(fs_vh_stretch));
		memset(t.stretch, 0, n * sizeof(fs_vh_stretch));
	}
	infer_guarantees(&t, total, eff);

	/* shares, bottom-up: demand and usage of a pool are its children's sums */
	for (i = n; i-- > 0;)
	{
		const fs_vh_node *nd = &nodes[i];
		fs_vh_result *o = &out[i];

		FS_POLL(i);
		for (r = 0; r < k; r++)
		{
			double lim = nd->limits ? nd->limits[r] : INFINITY;

			o->limits[r] = total[r] > 0 ? share(lim < total[r] ? lim : total[r], total[r]) : 0;
			if (nd->is_operation)
			{
				o->demand[r] = share(nd->demand[r], total[r]);
				o->usage[r] = share(nd->usage[r], total[r]);
			}
			o->strong[r] = nd->is_operation || i == 0 ? 0 : share(eff[i * k + r], total[r]);
			if (o->strong[r] > o->limits[r])
				o->strong[r] = o->limits[r];
		}
		if (i > 0)
			for (r = 0; r < k; r++)
			{
				out[nd->parent].demand[r] += o->demand[r];
				out[nd->parent].usage[r] += o->usage[r];
			}
	}
	for (i = 0; i < n; i++)
		memcpy(t.sg + i * k, out[i].strong, k * sizeof(double));
	/* the root's guarantee is its children's, scaled to fit the cluster */
	for (j = 0; j < t.count[0]; j++)
		for (r = 0; r < k; r++)
			t.sg[r] += t.sg[t.kids[j] * k + r];
	for (r = 0; r < k; r++)
		one[r] = total[r] > 0 ? 1 : 0;
	if (!fs_vh_dominates(one, t.sg, 0, k))
	{
		vh_scale c = {t.sg, one, k};
		double x = fs_vh_bisect(0, 1, scale_pred, &c);

		for (r = 0; r < k; r++)
			t.sg[r] *= x;
	}
	/* children whose guarantees exceed their parent's are scaled by one common factor */
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (t.count[i] == 0)
			continue;
		memset(tmp, 0, k * sizeof(double));
		for (j = 0; j < t.count[i]; j++)
			for (r = 0; r < k; r++)
				tmp[r] += t.sg[t.kids[t.first[i] + j] * k + r];
		if (!fs_vh_dominates(t.sg + i * k, tmp, 0, k))
		{
			double *sum = vec(a, k), *left = vec(a, k);
			size_t *order = a->alloc(a->ctx, t.count[i] * sizeof(size_t));
			vh_tiered *tiers = a->alloc(a->ctx, t.count[i] * sizeof(vh_tiered));

			adjust_children(&t, i, tiers, order, left, sum);
			a->release(a->ctx, tiers);
			a->release(a->ctx, order);
			a->release(a->ctx, left);
			a->release(a->ctx, sum);
		}
	}
	for (i = 0; i < n; i++)
		memcpy(out[i].strong, t.sg + i * k, k * sizeof(double));

	/* the functions, bottom-up */
	for (i = n; i-- > 0;)
	{
		fs_vh_fn fsbff;
		const double *lim = i == 0 ? one : out[i].limits;

		FS_POLL(i);
		if (nodes[i].is_operation)
			st = fs_vh_operation_fsbff(out[i].usage, out[i].demand, k,
			                           nodes[i].gang && opt->gang_step, a, &fsbff, err);
		else
		{
			const fs_vh_fn **kids = a->alloc(a->ctx, (t.count[i] + 1) * sizeof(fs_vh_fn *));
			double *ratio = a->alloc(a->ctx, (t.count[i] + 1) * sizeof(double));
			double minw = fs_vh_min_child_weight(&t, i);

			if (nodes[i].fifo && nodes[i].fifo_reorder && opt->gang_step)
				fs_vh_fifo_reorder(&t, i, out);

			for (j = 0; j < t.count[i]; j++)
			{
				size_t c = t.kids[t.first[i] + j];

				kids[j] = &t.fsbs[c];
				ratio[j] = minw < DBL_MAX ? nodes[c].weight / minw : 0;
			}
			if (nodes[i].fifo)
				st = fs_vh_fifo_fsbff(kids, t.count[i], k, FS_VH_POINTS_MAX, a, &fsbff, err);
			else if (opt->improved)
				st = fs_vh_sum_children_serial(kids, ratio, t.count[i], k, FS_VH_POINTS_MAX, a,
				                               &fsbff, &t.stretch[i], err);
			else
				st = fs_vh_sum_children(kids, ratio, t.count[i], k, FS_VH_POINTS_MAX, a, &fsbff,
				                        err);
			a->release(a->ctx, kids);
			a->release(a->ctx, ratio);
		}
		if (st != FS_OK)
			return st;
		st = fs_vh_fsbs(&fsbff, t.sg + i * k, lim, a, &t.fsbs[i], err);
		fs_vh_fn_free(&fsbff, a);
		if (st != FS_OK)
			return st;
		fs_vh_fn_shrink(&t.fsbs[i], a); /* kept to the end: n of them */
	}

	/* the top-down pass from suggestion 1 at the root */
	out[0].suggestion = 1;
	if (opt->improved)
		fs_vh_improved_pass(&t, out);
	for (i = 0; i < n && !opt->improved; i++)
	{
		fs_vh_result *o = &out[i];
		double f;

		FS_POLL(i);
		f = fs_vh_fn_eval(&t.fsbs[i], o->suggestion, o->fair_share);
		if (!nodes[i].is_operation && t.count[i] > 0)
		{
			double *sum = vec(a, k), *tv = vec(a, k);
			vh_pass p = {&t, i, fs_vh_min_child_weight(&t, i), o->fair_share, sum, tv};

			if (!pass_pred(f, &p))
				f = fs_vh_bisect(0, f, pass_pred, &p);
			for (j = 0; j < t.count[i]; j++)
			{
				size_t c = t.kids[t.first[i] + j];

				out[c].suggestion = child_suggestion(&t, c, f, p.minw);
			}
			a->release(a->ctx, sum);
			a->release(a->ctx, tv);
		}
		else if (!nodes[i].is_operation)
			memset(o->fair_share, 0, k * sizeof(double));
		o->fit_factor = f < FS_VH_EPSILON ? 0 : f;
	}
	/* the root's fair share is its children's sum */
	memset(out[0].fair_share, 0, k * sizeof(double));
	for (j = 0; j < t.count[0]; j++)
		for (r = 0; r < k; r++)
			out[0].fair_share[r] += out[t.kids[j]].fair_share[r];

	/* children before parents: the root's strong part sums its children's */
	for (i = n; i-- > 0;)
	{
		fs_vh_result *o = &out[i];
		double maxu = 0, maxd = 0;
		int64_t du = -1, dd = -1;

		/* the root's strong part is what its children used of theirs */
		if (i == 0)
		{
			memset(tmp, 0, k * sizeof(double));
			for (j = 0; j < t.count[0]; j++)
				for (r = 0; r < k; r++)
					tmp[r] += out[t.kids[j]].strong_part[r];
		}
		o->dominant_fair_share = 0;
		for (r = 0; r < k; r++)
		{
			double fs = o->fair_share[r], sgr = i == 0 ? tmp[r] : o->strong[r];

			o->strong_part[r] = fs < sgr ? fs : sgr;
			o->integral_part[r] = 0;
			o->weight_part[r] = fs - o->strong_part[r];
			if (fs > o->dominant_fair_share)
				o->dominant_fair_share = fs;
			if (o->usage[r] > maxu)
			{
				maxu = o->usage[r];
				du = (int64_t) r;
			}
			if (o->demand[r] > maxd)
			{
				maxd = o->demand[r];
				dd = (int64_t) r;
			}
		}
		o->dominant = du >= 0 ? du : dd;
		explain(&t, i, o);
	}
	for (i = 0; i < n; i++)
	{
		fs_vh_fn_free(&t.fsbs[i], a);
		if (t.stretch)
			fs_vh_stretch_free(&t.stretch[i], a);
	}
	if (t.stretch)
		a->release(a->ctx, t.stretch);
	a->release(a->ctx, t.fsbs);
	a->release(a->ctx, t.sg);
	a->release(a->ctx, eff);
	a->release(a->ctx, t.first);
	a->release(a->ctx, one);
	a->release(a->ctx, tmp);
	return FS_OK;
}

void
fs_vh_result_free(fs_vh_result *out, size_t n, const fs_allocator *a)
{
	size_t i;

	for (i = 0; i < n; i++)
		a->release(a->ctx, out[i].demand); /* the block of all eight */
}
