/*
 * divide.h: fair-share ratio division (YTsaurus's fair share ratio page;
 * docs/fair-share-division.md): dividing a parent's fair share among children with weights, lower
 * bounds (guarantees) and upper bounds (caps), solved exactly, and the top-down division over a
 * pool tree.
 */
#ifndef FS_DIVIDE_H
#define FS_DIVIDE_H

#include "types/sharetree.h"

typedef enum fs_divide_mode
{
	FS_DIVIDE_CLAMP = 0,   /* g_i(x) = min(max(x w_i, l_i), u_i): YTsaurus classic, YARN */
	FS_DIVIDE_ADDITIVE = 1 /* g_i(x) = min(u_i, l_i + x w_i): YTsaurus HDRF, scalar case */
} fs_divide_mode;

#define FS_DIVIDE_MODES "clamp, additive"
int fs_divide_mode_from_name(const char *name);

/* What decided a child's share. */
typedef enum fs_bound
{
	FS_BOUND_WEIGHT = 0,    /* the weight-proportional part */
	FS_BOUND_GUARANTEE = 1, /* held up by its lower bound */
	FS_BOUND_CAP = 2,       /* held down by its upper bound */
	FS_BOUND_SCALED = 3     /* the guarantees did not fit and were scaled down */
} fs_bound;

const char *fs_bound_name(fs_bound b);

/*
 * Find x with sum_i g_i(x) = total and write g_i(x) to out[i] (and, when not NULL, the solved
 * x, and what bound each child). If sum_i min(l_i, u_i) > total the lower bounds are scaled to
 * sum to total; if no x reaches total every child gets its cap (a zero weight: its guarantee).
 * Inputs must be finite and non-negative (checked). O(n) expected, O(n log n) at worst; the
 * shares sum to the total within 1e-12 relative over the whole double range.
 */
fs_status fs_divide(double total, const double *w, const double *l, const double *u, size_t n,
                    fs_divide_mode mode, const fs_allocator *a, double *out, double *x_out,
                    fs_bound *bound, fs_error *err);

/*
 * fs_divide with a bound on the work of its randomized search (in children visited) before it
 * sorts the remaining breakpoints instead; fs_divide gives 16 n + 4096. For the unit tests.
 */
fs_status fs_divide_budget(double total, const double *w, const double *l, const double *u,
                           size_t n, fs_divide_mode mode, size_t work_budget, const fs_allocator *a,
                           double *out, double *x_out, fs_bound *bound, fs_error *err);

/* One row of fair_share over a pool tree, by pre-order position. */
typedef struct fs_pool_row
{
	double weight;
	double min_share_ratio;
	double guaranteed_share; /* parent's guarantee x normalised min_share_ratio */
	double lower_bound;      /* the guarantee the division used (scaled when it did not fit) */
	double usage_ratio;
	double demand_ratio;
	const char *dominant_resource; /* points into the tree's vectors; NULL when none */
	size_t dominant_len;
	double max_possible_ratio; /* min(demand_ratio, max_share_ratio) */
	double fair_share_ratio;
	double weight_part; /* x * weight at the parent's solution */
	fs_bound bound;
	bool satisfaction_null;
	double satisfaction;
} fs_pool_row;

/* Divide the cluster top-down over a prepared pool tree. */
fs_status fs_pool_fair_share(const fs_tree *t, const uint8_t *cluster, fs_divide_mode mode,
                             const fs_allocator *a, fs_pool_row **out, fs_error *err);

/*
 * How fair_share reports the root: `one` (YTsaurus classic and the seed: fair share and
 * guarantee 1) or `children` (YTsaurus vector HDRF: the sums of its children's, at most 1).
 */
typedef enum fs_pool_root
{
	FS_POOL_ROOT_ONE = 0,
	FS_POOL_ROOT_CHILDREN = 1
} fs_pool_root;

#define FS_POOL_ROOTS "one, children"
int fs_pool_root_from_name(const char *name);

/*
 * Rewrite the root's row of fs_pool_fair_share as vector HDRF reports it: its fair share is
 * FairShareBySuggestion(1), the sum of its children's fair shares, and its strong guarantee the
 * sum of theirs (TRootElement::UpdateCumulativeAttributes); both at most 1. The children's rows
 * do not change: they were divided from 1.
 */
void fs_pool_root_from_children(const fs_tree *t, fs_pool_row *rows);

#endif
