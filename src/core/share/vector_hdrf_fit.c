/*
 * vector_hdrf_fit.c: two refinements of vector HDRF (see vector_hdrf_int.h): the improved fit
 * factor mode's top-down pass over serialised child jumps, and the reordering of a FIFO pool's
 * operations so that the gangs that fit its guarantee go first.
 */
#include "share/vector_hdrf_int.h"

#include <float.h>
#include <math.h>

void
fs_vh_fifo_reorder(vh_tree *t, size_t pool, fs_vh_result *out)
{
	const fs_allocator *a = t->a;
	size_t k = t->k, c = t->count[pool], *kids = t->kids + t->first[pool], j, r, m = 0;
	size_t *order = a->alloc(a->ctx, (c ? c : 1) * sizeof(size_t));
	bool *taken = a->alloc(a->ctx, (c ? c : 1) * sizeof(bool)), stopped = false, moved = false;
	double *left = a->alloc(a->ctx, (k ? k : 1) * sizeof(double));

	memset(taken, 0, (c ? c : 1) * sizeof(bool));
	memcpy(left, t->sg + pool * k, k * sizeof(double));
	for (j = 0; j < c && !stopped; j++)
	{
		size_t ch = kids[j];
		const fs_vh_fn *fn = &t->fsbs[ch];
		/* what it can get at most: its fair share at suggestion 1 (0 for a gang its limits cut) */
		const double *charge = fn->v + (fn->n - 1) * k;
		bool gang = t->nodes[ch].gang, running = false;

		FS_POLL(j);
		for (r = 0; r < k; r++)
			if (out[ch].usage[r] > 0)
				running = true;
		if (!fs_vh_dominates(left, charge, FS_VH_EPSILON, k))
		{
			if (gang && !running)
				continue; /* deferred: it would hold the guarantee and not fit */
			stopped = !gang;
		}
		taken[j] = true;
		order[m++] = ch;
		for (r = 0; r < k; r++)
			left[r] = left[r] > charge[r] ? left[r] - charge[r] : 0;
	}
	/* the deferred and those after an operation that ended the packing, in the pool's order */
	for (j = 0; j < c; j++)
		if (!taken[j])
			order[m++] = kids[j];
	for (j = 0; j < c; j++)
		if (order[j] != kids[j])
			moved = true;
	if (moved)
	{
		memcpy(kids, order, c * sizeof(size_t));
		for (j = 0; j < c; j++)
		{
			t->pos[kids[j]] = j;
			out[kids[j]].effective_fifo_index = (int64_t) j;
		}
	}
	a->release(a->ctx, order);
	a->release(a->ctx, taken);
	a->release(a->ctx, left);
}

/* An element's fair share by suggestion at s, the right limit when `right`; its fit factor. */
static double
eval_side(const fs_vh_fn *fn, double s, bool right, double *out)
{
	return right ? fs_vh_fn_eval_right(fn, s, out) : fs_vh_fn_eval(fn, s, out);
}

/* Is child j (local index) among serialised point p's jumpers, and where (q)? */
static bool
jumper(const fs_vh_stretch *st, size_t p, size_t j, size_t *q)
{
	size_t lo = st->start[p], hi = st->start[p + 1];

	/* the jumpers are in child order */
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;

		if (st->kids[mid] < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->start[p + 1] && st->kids[lo] == j)
	{
		*q = lo - st->start[p];
		return true;
	}
	return false;
}

/* One pool of the improved pass: its children's suggestions and sides at its fit factor. */
typedef struct vh_at
{
	const vh_tree *t;
	size_t node;
	double minw;
	const double *fs;
	double *sum, *tmp;
	double *sugg; /* n: what each element is suggested */
	bool *right;  /* n: and on which side */
} vh_at;

/* Children of a.node at the pool's fit factor tt (right limit when `right`); their sum in a->sum.
 */
static void
children_at(vh_at *at, double tt, bool right)
{
	const vh_tree *t = at->t;
	size_t p = at->node, k = t->k, c = t->count[p], j, r, point = SIZE_MAX, q;
	const fs_vh_stretch *st = t->stretch && t->stretch[p].n ? &t->stretch[p] : NULL;
	double f = tt;

	if (!t->nodes[p].fifo && st)
		f = fs_vh_stretch_locate(st, tt, &point);
	memset(at->sum, 0, k * sizeof(double));
	for (j = 0; j < c; j++)
	{
		size_t ch = t->kids[t->first[p] + j];
		double s;
		bool side = right;

		if (t->nodes[p].fifo)
		{
			/* operation j takes [j, j + 1]: those before it are done, those after wait */
			if ((double) j + 1 < tt)
				s = 1, side = true;
			else if ((double) j <= tt)
				s = tt - (double) j;
			else
				s = 0, side = false;
		}
		else
		{
			s = at->minw < DBL_MAX ? f * (t->nodes[ch].weight / at->minw) : 0;
			if (s > 1)
				s = 1;
			/* at a serialised point child q has jumped past t_j + q */
			if (point != SIZE_MAX && jumper(st, point, j, &q))
				side = st->t[point] + (double) q < tt || (right && st->t[point] + (double) q == tt);
		}
		at->sugg[ch] = s;
		at->right[ch] = side;
		eval_side(&t->fsbs[ch], s, side, at->tmp);
		for (r = 0; r < k; r++)
			at->sum[r] += at->tmp[r];
	}
}

static bool
fits_left(double tt, void *ctx)
{
	vh_at *at = ctx;

	children_at(at, tt, false);
	return fs_vh_dominates(at->fs, at->sum, FS_VH_EPSILON, at->t->k);
}

void
fs_vh_improved_pass(const vh_tree *t, fs_vh_result *out)
{
	const fs_allocator *a = t->a;
	size_t n = t->n, k = t->k, i;
	vh_at at;

	memset(&at, 0, sizeof(at));
	at.t = t;
	at.sum = a->alloc(a->ctx, 2 * (k ? k : 1) * sizeof(double));
	at.tmp = at.sum + k;
	at.sugg = a->alloc(a->ctx, n * sizeof(double));
	at.right = a->alloc(a->ctx, n * sizeof(bool));
	at.sugg[0] = 1;
	at.right[0] = false;
	for (i = 0; i < n; i++)
	{
		fs_vh_result *o = &out[i];
		double f;

		FS_POLL(i);
		o->suggestion = at.sugg[i];
		f = eval_side(&t->fsbs[i], at.sugg[i], at.right[i], o->fair_share);
		if (!t->nodes[i].is_operation && t->count[i] > 0)
		{
			bool right = at.right[i];

			at.node = i;
			at.minw = fs_vh_min_child_weight(t, i);
			at.fs = o->fair_share;
			/* the right limit where the parent took one and it fits; else the left value */
			if (right)
			{
				children_at(&at, f, true);
				right = fs_vh_dominates(o->fair_share, at.sum, FS_VH_EPSILON, k);
			}
			if (!right && !fits_left(f, &at))
				f = fs_vh_bisect(0, f, fits_left, &at);
			children_at(&at, f, right);
		}
		else if (!t->nodes[i].is_operation)
			memset(o->fair_share, 0, k * sizeof(double));
		o->fit_factor = f < FS_VH_EPSILON ? 0 : f;
	}
	a->release(a->ctx, at.sum);
	a->release(a->ctx, at.sugg);
	a->release(a->ctx, at.right);
}
