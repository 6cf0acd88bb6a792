/*
 * vector_hdrf_plf.h: the monotone piecewise-linear vector functions of YTsaurus's vector HDRF
 * (docs/fair-share-division.md, "Vector HDRF"): an element's fair share by fit factor, its
 * maximal fit factor and fair share by suggestion, their sum over a pool's children, and the
 * bisection over a double's bit pattern that the top-down pass and the guarantee scaling use.
 *
 * A function is a list of points with non-decreasing arguments; two points with one argument
 * are a jump, and the function is left-continuous: at a jump it takes the first (left) value.
 */
#ifndef FS_VECTOR_HDRF_PLF_H
#define FS_VECTOR_HDRF_PLF_H

#include "fs_core.h"

/* YTsaurus's constants: feasibility slack, and the collinearity tolerance of compression. */
#define FS_VH_EPSILON          1e-9
#define FS_VH_COMPRESS_EPSILON 1e-15

/*
 * A function of one argument with K components per point. For a fair share by suggestion,
 * `f` holds the maximal fit factor at each point (the two functions share breakpoints); it is
 * NULL for a fair share by fit factor.
 */
typedef struct fs_vh_fn
{
	size_t n, cap, k;
	double *x; /* n arguments */
	double *v; /* n * k values */
	double *f; /* n fit factors, or NULL */
} fs_vh_fn;

fs_status fs_vh_fn_init(fs_vh_fn *fn, size_t k, size_t cap, bool with_f, const fs_allocator *a,
                        fs_error *err);
void fs_vh_fn_free(fs_vh_fn *fn, const fs_allocator *a);
/* Give back the unused capacity (functions kept for the top-down pass). O(n k). */
void fs_vh_fn_shrink(fs_vh_fn *fn, const fs_allocator *a);
/* Append a point (copying k values); grows the arrays. */
fs_status fs_vh_fn_push(fs_vh_fn *fn, double x, const double *v, double f, const fs_allocator *a,
                        fs_error *err);

/*
 * The value at x (left-continuous; constant outside the domain) into out[k], and the fit
 * factor at x when fn->f is set (else 0). O(log n).
 */
double fs_vh_fn_eval(const fs_vh_fn *fn, double x, double *out);

/*
 * The right limit at x: at a jump the last (right) value, elsewhere as fs_vh_fn_eval. O(log n).
 */
double fs_vh_fn_eval_right(const fs_vh_fn *fn, double x, double *out);

/*
 * An operation's fair share by fit factor on [0, 2]: on [0, 1] it is re-given its usage, equally
 * in every resource (component r is min(U_r, f max U)), then linear from U to D on [1, 2]; a gang
 * with the step function is 0 up to f = 1 and D after it. O(k log k).
 */
fs_status fs_vh_operation_fsbff(const double *usage, const double *demand, size_t k, bool step,
                                const fs_allocator *a, fs_vh_fn *out, fs_error *err);

/*
 * A fair-share pool's fair share by fit factor on [0, 1]: sum over the children of
 * FSBS_i(min(1, f ratio_i)), ratio_i = w_i / min weight (0 for no weight). The sum is swept over
 * the sorted breakpoints: O(P log P) for P points in all; `max_points` bounds P (FS_ERR_LIMIT).
 */
fs_status fs_vh_sum_children(const fs_vh_fn *const *children, const double *ratio, size_t nchildren,
                             size_t k, size_t max_points, const fs_allocator *a, fs_vh_fn *out,
                             fs_error *err);

/*
 * The improved mode's record of a pool's serialised jumps (EnableImprovedFairShareByFitFactor-
 * Computation): where m >= 2 children jump at one fit factor x, the pool's function takes them one
 * after another, in child order, at stretched fit factors t, t + 1, ..., t + m - 1 (flat in
 * between), and every later fit factor moves up by m - 1.
 */
typedef struct fs_vh_stretch
{
	size_t n, cap;
	double *x;     /* n fit factors of the children's own scale */
	double *t;     /* n stretched fit factors of the first jump at each */
	size_t *start; /* n + 1: the jumping children of point j are kids[start[j] .. start[j + 1]) */
	uint32_t *kids;
	size_t nkids, kcap;
} fs_vh_stretch;

/*
 * fs_vh_sum_children with the children's simultaneous jumps serialised (the improved mode): the
 * function's domain is [0, 1 + sum (m - 1)], and `st` records where each serialised point is.
 */
fs_status fs_vh_sum_children_serial(const fs_vh_fn *const *children, const double *ratio,
                                    size_t nchildren, size_t k, size_t max_points,
                                    const fs_allocator *a, fs_vh_fn *out, fs_vh_stretch *st,
                                    fs_error *err);
void fs_vh_stretch_free(fs_vh_stretch *st, const fs_allocator *a);

/*
 * The children's fit factor at stretched fit factor t; when t lies on serialised point j (within
 * [t_j, t_j + m - 1]), *point is j (the children kids[start[j] + q] with t_j + q < t have jumped),
 * else SIZE_MAX. O(log n).
 */
double fs_vh_stretch_locate(const fs_vh_stretch *st, double t, size_t *point);

/*
 * A FIFO pool's fair share by fit factor on [0, n]: child k (in the pool's order) takes f in
 * [k, k + 1], after the children before it have all of theirs. O(P).
 */
fs_status fs_vh_fifo_fsbff(const fs_vh_fn *const *children, size_t nchildren, size_t k,
                           size_t max_points, const fs_allocator *a, fs_vh_fn *out, fs_error *err);

/*
 * The fair share by suggestion of an element with fair share by fit factor `fsbff`, guarantee
 * share g and limits share l: FSBS(s) = FSBFF(MFFBS(s)) on s in [0, 1], where MFFBS(s) is the
 * largest fit factor whose fair share fits min(g + s, l) componentwise (at s = 0 the largest, in
 * between left-continuous). Built by tracing the upper envelope of FSBFF_r - g_r; O(n k^2).
 * The result carries the fit factors (out->f) and is compressed with FS_VH_COMPRESS_EPSILON.
 */
fs_status fs_vh_fsbs(const fs_vh_fn *fsbff, const double *g, const double *l, const fs_allocator *a,
                     fs_vh_fn *out, fs_error *err);

/* Drop interior points that lie within eps of the line through their neighbours. O(n k). */
void fs_vh_fn_compress(fs_vh_fn *fn, double eps);

/*
 * The largest double x in [lo, hi] (0 <= lo <= hi) with pred(x) true, for a predicate true at lo
 * and monotone (true, then false): bisection over the IEEE-754 bit pattern, at most 65 calls
 * (YTsaurus's FloatingPointInverseLowerBound).
 */
typedef bool (*fs_vh_pred)(double x, void *ctx);
double fs_vh_bisect(double lo, double hi, fs_vh_pred pred, void *ctx);

#endif
