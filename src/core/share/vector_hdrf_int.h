/*
 * vector_hdrf_int.h: what vector_hdrf.c (the tree, guarantees, the standard pass) and
 * vector_hdrf_fit.c (the improved fit factor mode and the FIFO reordering) share and nothing else
 * sees: the tree in index form and two small helpers.
 */
#ifndef FS_VECTOR_HDRF_INT_H
#define FS_VECTOR_HDRF_INT_H

#include "share/vector_hdrf.h"

/* The tree in index form: children lists in input order. */
typedef struct vh_tree
{
	size_t n, k;
	const fs_vh_node *nodes;
	size_t *first, *count, *kids; /* the children of i: kids[first[i] .. first[i] + count[i]) */
	size_t *pos;                  /* a child's place among its siblings (a FIFO pool's order) */
	fs_vh_fn *fsbs;
	fs_vh_stretch *stretch; /* n serialised jumps (the improved mode), else NULL */
	double *sg;             /* n * k strong guarantee shares */
	const fs_vh_options *opt;
	const fs_allocator *a;
} vh_tree;

/* a + eps >= b in every component. O(k). */
bool fs_vh_dominates(const double *a, const double *b, double eps, size_t k);

/* The smallest child weight above FS_VH_EPSILON (DBL_MAX for none). O(children). */
double fs_vh_min_child_weight(const vh_tree *t, size_t i);

/*
 * A FIFO pool's operations reordered for guarantee utilisation (before its function is built):
 * in the pool's order, every operation whose limited demand (its fair share at suggestion 1)
 * fits what is left of the pool's guarantee is taken, a gang that does not fit and uses nothing
 * is deferred, a running gang is taken anyway, and an operation that is not a gang and does not
 * fit is taken and ends the packing; the deferred and the rest follow in the pool's order.
 * out[].effective_fifo_index is set when the order changes. O(c k) for c children.
 */
void fs_vh_fifo_reorder(vh_tree *t, size_t pool, fs_vh_result *out);

/*
 * The top-down pass of the improved mode: each element gets from its parent a suggestion and a
 * side (the left value, or the right limit of a jump its parent's serialised function took),
 * so that a child's share is a vector its parent's function reached. Sets fair_share,
 * suggestion and fit_factor. O(n log P) plus a bisection where rounding needs one.
 */
void fs_vh_improved_pass(const vh_tree *t, fs_vh_result *out);

#endif
