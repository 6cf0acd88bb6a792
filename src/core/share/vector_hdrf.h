/*
 * vector_hdrf.h: YTsaurus's vector HDRF fair share over a tree of pools and operations
 * (docs/fair-share-division.md, "Vector HDRF"): strong guarantees (inferred for unconfigured
 * resources, clipped to limits, scaled when children or the root overcommit), each element's
 * three piecewise-linear functions (vector_hdrf_plf.h), and the top-down pass from suggestion 1
 * at the root, over fair-share and FIFO pools; the improved fit factor mode (simultaneous child
 * jumps serialised, vector suggestions top-down) and FIFO pools reordered for guarantee
 * utilisation (vector_hdrf_fit.c). No integral guarantees.
 */
#ifndef FS_VECTOR_HDRF_H
#define FS_VECTOR_HDRF_H

#include "share/vector_hdrf_plf.h"

/* The size bounds (54000 beyond them): elements, resources, and breakpoints of one pool. */
#define FS_VH_ELEMENTS_MAX  10000000
#define FS_VH_RESOURCES_MAX 64
#define FS_VH_POINTS_MAX    50000000

/* One element, in pre-order: the root first, every parent before its children. */
typedef struct fs_vh_node
{
	int64_t parent; /* index of the parent; -1 for the root (index 0 only) */
	bool is_operation;
	bool gang;
	double weight;
	const double *demand; /* k amounts (operations; NULL for pools) */
	const double *usage;  /* k amounts (operations; NULL for pools) */
	const double *limits; /* k amounts, INFINITY where unlimited; NULL: no limits */
	const double *strong; /* k amounts, NAN where not configured; NULL: none (pools) */
	bool fifo;            /* a FIFO pool: its operations one after another, by `order` */
	int64_t order;        /* an operation's place in a FIFO pool (its start order) */
	bool fifo_reorder;    /* a FIFO pool that reorders its gangs to use its guarantee */
	int64_t tier;         /* strong guarantee tier: when siblings overcommit their parent,
	                         lower tiers keep theirs first (0 for all: proportional scaling) */
} fs_vh_node;

typedef struct fs_vh_options
{
	int64_t main_resource; /* index of the resource that infers the others (cpu), -1: none */
	bool gang_step;        /* gangs get the step function (EnableStepFunctionForGangOperations) */
	bool improved;         /* EnableImprovedFairShareByFitFactorComputation */
} fs_vh_options;

/* What held an element's fair share where it is (the explanation). */
typedef enum fs_vh_bound
{
	FS_VH_BOUND_DEMAND = 0,    /* it has all it asks for */
	FS_VH_BOUND_LIMIT = 1,     /* a resource limit (its own) */
	FS_VH_BOUND_GUARANTEE = 2, /* its parent gave it nothing beyond its strong guarantee */
	FS_VH_BOUND_WEIGHT = 3,    /* its parent's fit factor: its siblings by weight */
	FS_VH_BOUND_GANG = 4,      /* a gang that does not fit whole: the jump resolves to 0 */
	FS_VH_BOUND_CLUSTER = 5,   /* the cluster or an ancestor (an only child) ran out */
	FS_VH_BOUND_EMPTY = 6,     /* nothing to give: no demand */
	FS_VH_BOUND_FIFO = 7       /* in a FIFO pool, behind the operations ahead of it */
} fs_vh_bound;

const char *fs_vh_bound_name(fs_vh_bound b);

/* The result for one element; the vectors are k shares of the cluster's totals. */
typedef struct fs_vh_result
{
	double *demand, *usage, *limits, *strong; /* shares; strong after every adjustment */
	double *fair_share, *strong_part, *integral_part, *weight_part;
	double suggestion;          /* what the parent suggested (the root: 1) */
	double fit_factor;          /* MaxFitFactorBySuggestion(suggestion), as the pass used it */
	int64_t dominant;           /* the dominant resource of usage (else demand), -1: none */
	double dominant_fair_share; /* the largest component of the fair share */
	fs_vh_bound bound;
	int64_t bound_resource;       /* the resource of the bound, -1: none */
	int64_t fifo_index;           /* an operation's place in its FIFO pool's order, -1: none */
	int64_t effective_fifo_index; /* its place in the order the pass used, -1: not reordered */
} fs_vh_result;

/*
 * Compute every element's fair share: out[i] for nodes[i], vectors in allocator memory. total[k]
 * are the cluster's amounts (x / 0 = 0). Inputs must be finite and non-negative (checked, as is
 * usage <= demand). O(P log P + n k^2) for P breakpoints in all (P is O(n k) for a flat tree and
 * grows by up to k per level); cancellable.
 */
fs_status fs_vh_compute(const fs_vh_node *nodes, size_t n, const double *total, size_t k,
                        const fs_vh_options *opt, const fs_allocator *a, fs_vh_result *out,
                        fs_error *err);

/* Release the vectors of n results of fs_vh_compute. O(n). */
void fs_vh_result_free(fs_vh_result *out, size_t n, const fs_allocator *a);

#endif
