/*
 * vector_hdrf_plf.c: vector HDRF's piecewise-linear functions (see vector_hdrf_plf.h): building an
 * operation's and a pool's fair share by fit factor, the fair share by suggestion, compression
 * and the bisection over a double's bit pattern.
 */
#include "share/vector_hdrf_plf.h"

#include <float.h>
#include <math.h>

fs_status
fs_vh_fn_init(fs_vh_fn *fn, size_t k, size_t cap, bool with_f, const fs_allocator *a, fs_error *err)
{
	(void) err;
	if (cap < 4)
		cap = 4;
	fn->n = 0;
	fn->k = k;
	fn->cap = cap;
	fn->x = a->alloc(a->ctx, cap * sizeof(double));
	fn->v = a->alloc(a->ctx, cap * (k ? k : 1) * sizeof(double));
	fn->f = with_f ? a->alloc(a->ctx, cap * sizeof(double)) : NULL;
	return FS_OK;
}

void
fs_vh_fn_free(fs_vh_fn *fn, const fs_allocator *a)
{
	if (fn->x)
		a->release(a->ctx, fn->x);
	if (fn->v)
		a->release(a->ctx, fn->v);
	if (fn->f)
		a->release(a->ctx, fn->f);
	fn->x = fn->v = fn->f = NULL;
	fn->n = fn->cap = 0;
}

void
fs_vh_fn_shrink(fs_vh_fn *fn, const fs_allocator *a)
{
	size_t n = fn->n ? fn->n : 1, k = fn->k ? fn->k : 1;
	double *x, *v, *f = NULL;

	if (fn->cap <= n)
		return;
	x = a->alloc(a->ctx, n * sizeof(double));
	v = a->alloc(a->ctx, n * k * sizeof(double));
	memcpy(x, fn->x, fn->n * sizeof(double));
	memcpy(v, fn->v, fn->n * fn->k * sizeof(double));
	if (fn->f)
	{
		f = a->alloc(a->ctx, n * sizeof(double));
		memcpy(f, fn->f, fn->n * sizeof(double));
		a->release(a->ctx, fn->f);
	}
	a->release(a->ctx, fn->x);
	a->release(a->ctx, fn->v);
	fn->x = x;
	fn->v = v;
	fn->f = f;
	fn->cap = n;
}

static void *
grow(void *old, size_t oldbytes, size_t newbytes, const fs_allocator *a)
{
	void *p = a->alloc(a->ctx, newbytes);

	if (old)
	{
		memcpy(p, old, oldbytes);
		a->release(a->ctx, old);
	}
	return p;
}

fs_status
fs_vh_fn_push(fs_vh_fn *fn, double x, const double *v, double f, const fs_allocator *a,
              fs_error *err)
{
	size_t k = fn->k;

	(void) err;
	if (fn->n == fn->cap)
	{
		size_t nc = fn->cap * 2;

		fn->x = grow(fn->x, fn->n * sizeof(double), nc * sizeof(double), a);
		fn->v = grow(fn->v, fn->n * k * sizeof(double), nc * (k ? k : 1) * sizeof(double), a);
		if (fn->f)
			fn->f = grow(fn->f, fn->n * sizeof(double), nc * sizeof(double), a);
		fn->cap = nc;
	}
	fn->x[fn->n] = x;
	memcpy(fn->v + fn->n * k, v, k * sizeof(double));
	if (fn->f)
		fn->f[fn->n] = f;
	fn->n++;
	return FS_OK;
}

double
fs_vh_fn_eval(const fs_vh_fn *fn, double x, double *out)
{
	size_t k = fn->k, lo = 0, hi = fn->n, j, r;
	double t;

	if (fn->n == 0)
	{
		memset(out, 0, k * sizeof(double));
		return 0;
	}
	/* the first point with argument >= x: at a jump, the left value */
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;

		if (fn->x[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == fn->n)
		lo = fn->n - 1;
	if (lo == 0 || fn->x[lo] <= x)
	{
		memcpy(out, fn->v + lo * k, k * sizeof(double));
		return fn->f ? fn->f[lo] : 0;
	}
	j = lo - 1;
	t = (x - fn->x[j]) / (fn->x[lo] - fn->x[j]);
	for (r = 0; r < k; r++)
		out[r] = fn->v[j * k + r] + t * (fn->v[lo * k + r] - fn->v[j * k + r]);
	return fn->f ? fn->f[j] + t * (fn->f[lo] - fn->f[j]) : 0;
}

double
fs_vh_fn_eval_right(const fs_vh_fn *fn, double x, double *out)
{
	size_t k = fn->k, lo = 0, hi = fn->n;

	if (fn->n == 0)
	{
		memset(out, 0, k * sizeof(double));
		return 0;
	}
	/* the first point with argument > x; the one before it is the last at x, if any */
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;

		if (fn->x[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && fn->x[lo - 1] == x)
	{
		memcpy(out, fn->v + (lo - 1) * k, k * sizeof(double));
		return fn->f ? fn->f[lo - 1] : 0;
	}
	return fs_vh_fn_eval(fn, x, out);
}

/* The limit on a pool's breakpoints. */
static fs_status
too_large(fs_error *err, size_t total, size_t max_points)
{
	fs_fail(err, FS_ERR_LIMIT, "vector fair share functions are too large");
	fs_error_detail(err, "A pool's children have %zu breakpoints in all; the limit is %zu.", total,
	                max_points);
	fs_error_hint(err, "Split the pool, or give fewer resources in the cluster's totals.");
	return FS_ERR_LIMIT;
}

static int
cmp_double(const void *a, const void *b, void *ctx)
{
	double x = *(const double *) a, y = *(const double *) b;

	(void) ctx;
	return x < y ? -1 : x > y;
}

fs_status
fs_vh_operation_fsbff(const double *usage, const double *demand, size_t k, bool step,
                      const fs_allocator *a, fs_vh_fn *out, fs_error *err)
{
	double maxu = 0, prev = 0, *zero, *sorted, *pt;
	size_t r, i;

	fs_vh_fn_init(out, k, k + 4, false, a, err);
	zero = a->alloc(a->ctx, (3 * k + 1) * sizeof(double));
	sorted = zero + k;
	pt = sorted + k;
	memset(zero, 0, k * sizeof(double));
	fs_vh_fn_push(out, 0, zero, 0, a, err);
	if (step)
	{
		fs_vh_fn_push(out, 1, zero, 0, a, err);
		fs_vh_fn_push(out, 1, demand, 0, a, err);
		fs_vh_fn_push(out, 2, demand, 0, a, err);
		a->release(a->ctx, zero);
		return FS_OK;
	}
	for (r = 0; r < k; r++)
		if (usage[r] > maxu)
			maxu = usage[r];
	if (maxu == 0)
		fs_vh_fn_push(out, 1, zero, 0, a, err);
	else
	{
		/* each resource's usage is reached in turn, at f = U_r / max U */
		memcpy(sorted, usage, k * sizeof(double));
		fs_sort(sorted, k, sizeof(double), cmp_double, NULL, a);
		for (i = 0; i < k; i++)
		{
			double ff = sorted[i] / maxu;

			if (ff > prev)
			{
				for (r = 0; r < k; r++)
					pt[r] = usage[r] < sorted[i] ? usage[r] : sorted[i];
				fs_vh_fn_push(out, ff, pt, 0, a, err);
				prev = ff;
			}
		}
	}
	fs_vh_fn_push(out, 2, demand, 0, a, err);
	a->release(a->ctx, zero);
	return FS_OK;
}

/* One breakpoint of a child's scaled function in the sweep of fs_vh_sum_children. */
typedef struct vh_event
{
	double x;
	uint32_t child;
	uint32_t seg; /* the segment [seg, seg + 1] of the child's scaled points */
	int what;     /* 0: a segment starts (slope on), 1: a jump, 2: a segment ends (slope off) */
} vh_event;

static int
cmp_event(const void *a, const void *b, void *ctx)
{
	const vh_event *p = a, *q = b;

	(void) ctx;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return 0;
}

/* A child's function scaled to the pool's fit factor: points x_j / ratio, cut at f = 1. */
typedef struct vh_scaled
{
	size_t n;
	double *x, *v; /* v: n * k */
} vh_scaled;

static void
scale_child(const fs_vh_fn *c, double ratio, size_t k, const fs_allocator *a, vh_scaled *s)
{
	/* the child sees suggestion min(1, f ratio) for f in [0, 1], that is s in [0, smax] */
	double smax = ratio < 1 ? ratio : 1;
	size_t j;

	s->x = a->alloc(a->ctx, (c->n + 1) * sizeof(double));
	s->v = a->alloc(a->ctx, (c->n + 1) * (k ? k : 1) * sizeof(double));
	s->n = 0;
	if (ratio <= 0 || c->n == 0)
	{
		s->x[0] = 0;
		fs_vh_fn_eval(c, 0, s->v);
		s->n = 1;
		return;
	}
	for (j = 0; j < c->n && c->x[j] < smax; j++)
	{
		s->x[s->n] = c->x[j] / ratio;
		memcpy(s->v + s->n * k, c->v + j * k, k * sizeof(double));
		s->n++;
	}
	s->x[s->n] = smax / ratio;
	fs_vh_fn_eval(c, smax, s->v + s->n * k);
	s->n++;
}

/* Record one serialised point: at fit factor x, stretched position t, the children kids[0..m). */
static void
stretch_add(fs_vh_stretch *st, double x, double t, const uint32_t *kids, size_t m,
            const fs_allocator *a)
{
	size_t j;

	if (st->n + 1 >= st->cap)
	{
		size_t nc = st->cap ? st->cap * 2 : 8;

		st->x = grow(st->x, st->n * sizeof(double), nc * sizeof(double), a);
		st->t = grow(st->t, st->n * sizeof(double), nc * sizeof(double), a);
		st->start = grow(st->start, (st->n + 1) * sizeof(size_t), (nc + 1) * sizeof(size_t), a);
		st->cap = nc;
	}
	if (st->nkids + m > st->kcap)
	{
		size_t nc = st->kcap ? st->kcap * 2 : 16;

		while (nc < st->nkids + m)
			nc *= 2;
		st->kids = grow(st->kids, st->nkids * sizeof(uint32_t), nc * sizeof(uint32_t), a);
		st->kcap = nc;
	}
	if (st->n == 0)
		st->start[0] = 0;
	st->x[st->n] = x;
	st->t[st->n] = t;
	for (j = 0; j < m; j++)
		st->kids[st->nkids++] = kids[j];
	st->start[++st->n] = st->nkids;
}

void
fs_vh_stretch_free(fs_vh_stretch *st, const fs_allocator *a)
{
	void *p[4] = {st->x, st->t, st->start, st->kids};
	int j;

	for (j = 0; j < 4; j++)
		if (p[j])
			a->release(a->ctx, p[j]);
	memset(st, 0, sizeof(*st));
}

double
fs_vh_stretch_locate(const fs_vh_stretch *st, double t, size_t *point)
{
	size_t lo = 0, hi = st->n, j, m;
	double end, f;

	*point = SIZE_MAX;
	/* the last serialised point at or before t */
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;

		if (st->t[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return t;
	j = lo - 1;
	m = st->start[j + 1] - st->start[j];
	end = st->t[j] + (double) (m - 1);
	if (t <= end)
	{
		*point = j;
		return st->x[j];
	}
	f = st->x[j] + (t - end);
	if (j + 1 < st->n && f > st->x[j + 1])
		f = st->x[j + 1];
	return f < st->x[j] ? st->x[j] : f;
}

static fs_status sum_children(const fs_vh_fn *const *children, const double *ratio,
                              size_t nchildren, size_t k, size_t max_points, const fs_allocator *a,
                              fs_vh_fn *out, fs_vh_stretch *st, fs_error *err);

fs_status
fs_vh_sum_children(const fs_vh_fn *const *children, const double *ratio, size_t nchildren, size_t k,
                   size_t max_points, const fs_allocator *a, fs_vh_fn *out, fs_error *err)
{
	return sum_children(children, ratio, nchildren, k, max_points, a, out, NULL, err);
}

fs_status
fs_vh_sum_children_serial(const fs_vh_fn *const *children, const double *ratio, size_t nchildren,
                          size_t k, size_t max_points, const fs_allocator *a, fs_vh_fn *out,
                          fs_vh_stretch *st, fs_error *err)
{
	memset(st, 0, sizeof(*st));
	return sum_children(children, ratio, nchildren, k, max_points, a, out, st, err);
}

/* The children that jump at one fit factor, one after another in child order (improved mode). */
static void
serial_jumps(const vh_event *ev, size_t e, size_t e2, const vh_scaled *sc, size_t k, double at,
             double *val, uint32_t *who, const fs_allocator *a, fs_vh_fn *out, fs_vh_stretch *st,
             double x, double *offset, fs_error *err)
{
	size_t m = 0, q, r, i;

	/* the children with a jump here (events are in child order: the sort is stable) */
	for (i = e; i < e2; i++)
		if (ev[i].what == 1 && (m == 0 || who[m - 1] != ev[i].child))
		{
			const vh_scaled *s = &sc[ev[i].child];
			size_t g = ev[i].seg;

			for (r = 0; r < k; r++)
				if (s->v[(g + 1) * k + r] > s->v[g * k + r])
					break;
			if (r < k)
				who[m++] = ev[i].child;
		}
	if (m == 0)
		return;
	for (q = 0; q < m; q++)
	{
		/* child q jumps at at + q, after a flat stretch from the jump before it */
		if (q > 0)
			fs_vh_fn_push(out, at + (double) q, val, 0, a, err);
		for (i = e; i < e2; i++)
			if (ev[i].what == 1 && ev[i].child == who[q])
			{
				const vh_scaled *s = &sc[ev[i].child];
				size_t g = ev[i].seg;

				for (r = 0; r < k; r++)
					if (s->v[(g + 1) * k + r] > s->v[g * k + r])
						val[r] += s->v[(g + 1) * k + r] - s->v[g * k + r];
			}
		fs_vh_fn_push(out, at + (double) q, val, 0, a, err);
	}
	if (m > 1)
	{
		stretch_add(st, x, at, who, m, a);
		*offset += (double) (m - 1);
	}
}

static fs_status
sum_children(const fs_vh_fn *const *children, const double *ratio, size_t nchildren, size_t k,
             size_t max_points, const fs_allocator *a, fs_vh_fn *out, fs_vh_stretch *st,
             fs_error *err)
{
	vh_scaled *sc = a->alloc(a->ctx, (nchildren ? nchildren : 1) * sizeof(vh_scaled));
	size_t total = 0, ne = 0, i, j, r, e;
	vh_event *ev;
	double *val, *slope, *jump, *last, x, offset = 0;
	uint32_t *who;

	for (i = 0; i < nchildren; i++)
	{
		scale_child(children[i], ratio[i], k, a, &sc[i]);
		total += sc[i].n;
		FS_POLL(i);
	}
	if (total > max_points)
	{
		for (i = 0; i < nchildren; i++)
		{
			a->release(a->ctx, sc[i].x);
			a->release(a->ctx, sc[i].v);
		}
		a->release(a->ctx, sc);
		return too_large(err, total, max_points);
	}
	ev = a->alloc(a->ctx, (2 * total + 1) * sizeof(vh_event));
	val = a->alloc(a->ctx, 4 * (k ? k : 1) * sizeof(double));
	slope = val + k;
	jump = slope + k;
	last = jump + k;
	memset(val, 0, 4 * k * sizeof(double));
	for (i = 0; i < nchildren; i++)
	{
		for (r = 0; r < k; r++)
			val[r] += sc[i].v[r];
		for (j = 0; j + 1 < sc[i].n; j++)
		{
			vh_event *p = &ev[ne++];

			p->child = (uint32_t) i;
			p->seg = (uint32_t) j;
			p->x = sc[i].x[j];
			p->what = sc[i].x[j] == sc[i].x[j + 1] ? 1 : 0;
			if (p->what == 0)
			{
				vh_event *q = &ev[ne++];

				*q = *p;
				q->x = sc[i].x[j + 1];
				q->what = 2;
			}
		}
	}
	fs_sort(ev, ne, sizeof(vh_event), cmp_event, NULL, a);
	fs_vh_fn_init(out, k, ne / 2 + 4, false, a, err);
	fs_vh_fn_push(out, 0, val, 0, a, err);
	memcpy(last, val, k * sizeof(double));
	x = 0;
	who = st ? a->alloc(a->ctx, (nchildren ? nchildren : 1) * sizeof(uint32_t)) : NULL;
	/* sweep the breakpoints in order: the value moves by the summed slopes, then jumps */
	for (e = 0; e < ne;)
	{
		double nx = ev[e].x;
		bool jumped = false;
		size_t e2;

		for (r = 0; r < k; r++)
		{
			val[r] += slope[r] * (nx - x);
			if (val[r] < last[r])
				val[r] = last[r]; /* keep the sum monotone against rounding */
			jump[r] = 0;
		}
		x = nx;
		for (e2 = e; e2 < ne && ev[e2].x == nx; e2++)
		{
			const vh_scaled *s = &sc[ev[e2].child];
			size_t g = ev[e2].seg;

			if (ev[e2].what == 1)
			{
				for (r = 0; r < k; r++)
					jump[r] += s->v[(g + 1) * k + r] - s->v[g * k + r];
				jumped = true;
			}
			else
			{
				double dx = s->x[g + 1] - s->x[g], sign = ev[e2].what == 0 ? 1 : -1;

				for (r = 0; r < k; r++)
					slope[r] += sign * (s->v[(g + 1) * k + r] - s->v[g * k + r]) / dx;
			}
			FS_POLL(e2);
		}
		if (x + offset > out->x[out->n - 1])
			fs_vh_fn_push(out, x + offset, val, 0, a, err);
		memcpy(last, val, k * sizeof(double));
		if (jumped && st)
		{
			serial_jumps(ev, e, e2, sc, k, x + offset, val, who, a, out, st, x, &offset, err);
			memcpy(last, val, k * sizeof(double));
		}
		else if (jumped)
		{
			bool any = false;

			for (r = 0; r < k; r++)
			{
				if (jump[r] > 0)
					any = true;
				val[r] += jump[r] > 0 ? jump[r] : 0;
			}
			if (any)
				fs_vh_fn_push(out, x, val, 0, a, err);
			memcpy(last, val, k * sizeof(double));
		}
		e = e2;
	}
	if (out->x[out->n - 1] < 1 + offset)
		fs_vh_fn_push(out, 1 + offset, val, 0, a, err);
	for (i = 0; i < nchildren; i++)
	{
		a->release(a->ctx, sc[i].x);
		a->release(a->ctx, sc[i].v);
	}
	a->release(a->ctx, sc);
	a->release(a->ctx, ev);
	if (who)
		a->release(a->ctx, who);
	a->release(a->ctx, val);
	fs_vh_fn_compress(out, FS_VH_COMPRESS_EPSILON);
	return FS_OK;
}

fs_status
fs_vh_fifo_fsbff(const fs_vh_fn *const *children, size_t nchildren, size_t k, size_t max_points,
                 const fs_allocator *a, fs_vh_fn *out, fs_error *err)
{
	double *off = a->alloc(a->ctx, 2 * (k ? k : 1) * sizeof(double)), *pt = off + k;
	size_t total = 0, i, j, r;

	for (i = 0; i < nchildren; i++)
		total += children[i]->n;
	if (total > max_points)
	{
		a->release(a->ctx, off);
		return too_large(err, total, max_points);
	}
	memset(off, 0, k * sizeof(double));
	fs_vh_fn_init(out, k, total + 2, false, a, err);
	fs_vh_fn_push(out, 0, off, 0, a, err);
	/* child i on [i, i + 1], on top of everything the children before it have */
	for (i = 0; i < nchildren; i++)
	{
		const fs_vh_fn *c = children[i];

		for (j = 0; j < c->n; j++)
		{
			double x = (double) i + (c->x[j] < 1 ? c->x[j] : 1);
			bool same = out->x[out->n - 1] == x;

			FS_POLL(j);
			for (r = 0; r < k; r++)
			{
				pt[r] = off[r] + c->v[j * k + r];
				if (pt[r] != out->v[(out->n - 1) * k + r])
					same = false;
			}
			if (!same)
				fs_vh_fn_push(out, x, pt, 0, a, err);
		}
		for (r = 0; r < k; r++)
			off[r] = out->v[(out->n - 1) * k + r];
		if (out->x[out->n - 1] < (double) (i + 1))
			fs_vh_fn_push(out, (double) (i + 1), off, 0, a, err);
	}
	if (nchildren == 0)
		fs_vh_fn_push(out, 1, off, 0, a, err);
	a->release(a->ctx, off);
	fs_vh_fn_compress(out, FS_VH_COMPRESS_EPSILON);
	return FS_OK;
}

/* The largest fit factor at which component r of fsbff is at most y (its domain's end if all). */
static double
max_fit_at_most(const fs_vh_fn *fn, size_t r, double y)
{
	size_t k = fn->k, j;

	for (j = 0; j < fn->n; j++)
		if (fn->v[j * k + r] > y)
			break;
	if (j == fn->n)
		return fn->x[fn->n - 1];
	if (j == 0)
		return fn->x[0];
	if (fn->x[j] == fn->x[j - 1])
		return fn->x[j];
	{
		double v0 = fn->v[(j - 1) * k + r], v1 = fn->v[j * k + r];
		double t = (y - v0) / (v1 - v0);
		double f = fn->x[j - 1] + t * (fn->x[j] - fn->x[j - 1]);

		if (f < fn->x[j - 1])
			f = fn->x[j - 1];
		if (f > fn->x[j])
			f = fn->x[j];
		return f;
	}
}

/* The curve (S(f), f, FSBFF(f)) that fs_vh_fsbs traces, point by point. */
typedef struct vh_curve
{
	fs_vh_fn *out; /* x = s, f = fit factor, v = fair share */
	const fs_allocator *a;
	fs_error *err;
	bool started; /* the point at s = 0 is out */
	bool done;    /* s reached 1 */
	bool have_prev;
	double ps, pf; /* the previous point of the curve */
	double *pv;
	double *tmp;
} vh_curve;

/* Feed one curve point; keep the part with s in [0, 1] (at s = 0 the last point, at 1 the first).
 */
static void
curve_point(vh_curve *c, double s, double f, const double *v)
{
	size_t k = c->out->k, r;

	if (c->done)
		return;
	if (!c->started)
	{
		if (s <= 0)
		{
			c->ps = s;
			c->pf = f;
			memcpy(c->pv, v, k * sizeof(double));
			c->have_prev = true;
			return;
		}
		/* crossed 0 between the previous point and this one */
		if (c->ps < 0)
		{
			double t = (0 - c->ps) / (s - c->ps);

			for (r = 0; r < k; r++)
				c->tmp[r] = c->pv[r] + t * (v[r] - c->pv[r]);
			fs_vh_fn_push(c->out, 0, c->tmp, c->pf + t * (f - c->pf), c->a, c->err);
		}
		else
			fs_vh_fn_push(c->out, 0, c->pv, c->pf, c->a, c->err);
		c->started = true;
	}
	if (s >= 1)
	{
		double ps = c->out->x[c->out->n - 1], pf = c->out->f[c->out->n - 1];
		const double *pv = c->out->v + (c->out->n - 1) * k;
		double t = s > ps ? (1 - ps) / (s - ps) : 1;

		for (r = 0; r < k; r++)
			c->tmp[r] = pv[r] + t * (v[r] - pv[r]);
		fs_vh_fn_push(c->out, 1, c->tmp, pf + t * (f - pf), c->a, c->err);
		c->done = true;
		return;
	}
	fs_vh_fn_push(c->out, s, v, f, c->a, c->err);
}

static double
excess(const double *v, const double *g, size_t k)
{
	double m = -INFINITY;
	size_t r;

	for (r = 0; r < k; r++)
		if (v[r] - g[r] > m)
			m = v[r] - g[r];
	return k ? m : 0;
}

fs_status
fs_vh_fsbs(const fs_vh_fn *F, const double *G, const double *L, const fs_allocator *a,
           fs_vh_fn *out, fs_error *err)
{
	size_t k = F->k, n = F->n, r, j;
	double *g = a->alloc(a->ctx, (5 * k + 1) * sizeof(double));
	double *lim = g + k, *va = lim + k, *vb = va + k, *pt = vb + k;
	double fend = F->x[n - 1];
	vh_curve c;

	for (r = 0; r < k; r++)
	{
		double lo = F->v[r], hi = F->v[(n - 1) * k + r], f;

		lim[r] = fmin(fmax(L[r], lo), hi);
		g[r] = fmin(fmax(G[r], lo), lim[r]);
		f = max_fit_at_most(F, r, lim[r]);
		if (f < fend)
			fend = f;
	}
	fs_vh_fn_init(out, k, n + 4, true, a, err);
	memset(&c, 0, sizeof(c));
	c.out = out;
	c.a = a;
	c.err = err;
	c.pv = a->alloc(a->ctx, 2 * (k ? k : 1) * sizeof(double));
	c.tmp = c.pv + k;
	if (k == 0)
	{
		fs_vh_fn_push(out, 0, pt, 0, a, err);
		fs_vh_fn_push(out, 1, pt, fend, a, err);
		a->release(a->ctx, g);
		a->release(a->ctx, c.pv);
		return FS_OK;
	}
	memcpy(va, F->v, k * sizeof(double));
	curve_point(&c, excess(va, g, k), F->x[0], va);
	/* trace the segments of F up to fend; on each, the upper envelope of F_r - g_r */
	for (j = 0; j + 1 < n && F->x[j] < fend && !c.done; j++)
	{
		double xa = F->x[j], xb = F->x[j + 1], t = 0, tb = 1;
		size_t best;

		FS_POLL(j);
		memcpy(va, F->v + j * k, k * sizeof(double));
		memcpy(vb, F->v + (j + 1) * k, k * sizeof(double));
		if (xa == xb)
		{
			/* a jump: S jumps too; the fair share stays at the left value up to it */
			double sb = excess(vb, g, k);

			curve_point(&c, sb, xa, va);
			curve_point(&c, sb, xb, vb);
			continue;
		}
		if (xb > fend)
		{
			/* the last piece, cut at fend */
			tb = (fend - xa) / (xb - xa);
			for (r = 0; r < k; r++)
				vb[r] = va[r] + tb * (vb[r] - va[r]);
			xb = fend;
			tb = 1;
		}
		/* the line on top at t = 0 (ties: the steeper) */
		best = 0;
		for (r = 1; r < k; r++)
		{
			double cr = va[r] - g[r], cb = va[best] - g[best];
			double dr = vb[r] - va[r], db = vb[best] - va[best];

			if (cr > cb || (cr == cb && dr > db))
				best = r;
		}
		for (;;)
		{
			double cb = va[best] - g[best], db = vb[best] - va[best], tn = tb;
			size_t nb = best;

			for (r = 0; r < k; r++)
			{
				double cr = va[r] - g[r], dr = vb[r] - va[r];

				if (dr > db)
				{
					double tc = (cb - cr) / (dr - db);

					if (tc > t && tc < tn)
					{
						tn = tc;
						nb = r;
					}
				}
			}
			if (nb == best)
				break;
			for (r = 0; r < k; r++)
				pt[r] = va[r] + tn * (vb[r] - va[r]);
			curve_point(&c, cb + tn * db, xa + tn * (xb - xa), pt);
			t = tn;
			best = nb;
		}
		curve_point(&c, excess(vb, g, k), xb, vb);
	}
	if (!c.started)
		curve_point(&c, 1, c.pf, c.pv); /* the whole curve at s <= 0: constant */
	else if (!c.done)
	{
		size_t last = out->n - 1;

		memcpy(pt, out->v + last * k, k * sizeof(double));
		fs_vh_fn_push(out, 1, pt, out->f[last], a, err);
	}
	a->release(a->ctx, g);
	a->release(a->ctx, c.pv);
	fs_vh_fn_compress(out, FS_VH_COMPRESS_EPSILON);
	return FS_OK;
}

/* Is point j within eps of the line from point p to point q (all components, and f)? */
static bool
collinear(const fs_vh_fn *fn, size_t p, size_t j, size_t q, double eps)
{
	size_t k = fn->k, r;
	double t;

	if (fn->x[p] == fn->x[j] || fn->x[j] == fn->x[q])
		return false; /* a jump stays */
	t = (fn->x[j] - fn->x[p]) / (fn->x[q] - fn->x[p]);
	for (r = 0; r < k; r++)
	{
		double want = fn->v[p * k + r] + t * (fn->v[q * k + r] - fn->v[p * k + r]);

		if (fabs(fn->v[j * k + r] - want) > eps)
			return false;
	}
	if (fn->f)
	{
		double want = fn->f[p] + t * (fn->f[q] - fn->f[p]);

		if (fabs(fn->f[j] - want) > eps)
			return false;
	}
	return true;
}

void
fs_vh_fn_compress(fs_vh_fn *fn, double eps)
{
	size_t k = fn->k, w = 1, j;

	if (fn->n < 3)
		return;
	/* w - 1 is the last kept point; point j is dropped when it lies on the line to j + 1 */
	for (j = 1; j + 1 < fn->n; j++)
	{
		FS_POLL(j);
		if (collinear(fn, w - 1, j, j + 1, eps))
			continue;
		fn->x[w] = fn->x[j];
		memmove(fn->v + w * k, fn->v + j * k, k * sizeof(double));
		if (fn->f)
			fn->f[w] = fn->f[j];
		w++;
	}
	fn->x[w] = fn->x[fn->n - 1];
	memmove(fn->v + w * k, fn->v + (fn->n - 1) * k, k * sizeof(double));
	if (fn->f)
		fn->f[w] = fn->f[fn->n - 1];
	fn->n = w + 1;
}

static uint64_t
bits_of(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return u;
}

static double
double_of(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

double
fs_vh_bisect(double lo, double hi, fs_vh_pred pred, void *ctx)
{
	/* non-negative doubles are ordered as their bit patterns */
	uint64_t l = bits_of(lo), h = bits_of(hi);

	if (lo == 0)
		l = 0; /* -0 */
	if (pred(hi, ctx))
		return hi;
	/* invariant: pred(l) true, pred(h) false */
	while (h - l > 1)
	{
		uint64_t m = l + (h - l) / 2;

		if (pred(double_of(m), ctx))
			l = m;
		else
			h = m;
	}
	return double_of(l);
}
