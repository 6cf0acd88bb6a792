/*
 * fairshare.h: hierarchical fairshare over a prepared share tree (docs/fairshare.md):
 * SLURM classic (NO_FAIR_TREE, also PBS's formula), SLURM Fair Tree, PBS (every node starts at
 * usage 1) and SLURM's PriorityFlags=DEPTH_OBLIVIOUS.
 */
#ifndef FS_FAIRSHARE_H
#define FS_FAIRSHARE_H

#include "types/sharetree.h"

typedef enum fs_algo
{
	FS_ALGO_CLASSIC = 0,
	FS_ALGO_FAIR_TREE = 1,
	FS_ALGO_PBS = 2,
	FS_ALGO_DEPTH_OBLIVIOUS = 3,
	FS_ALGO_FAIR_TREE_EXACT = 4 /* Fair Tree with exact ties, not SLURM's rounding */
} fs_algo;

/* "classic", "fair_tree", "pbs", "depth_oblivious" or "fair_tree_exact"; -1 otherwise. */
int fs_algo_from_name(const char *name);
#define FS_ALGO_NAMES "classic, fair_tree, pbs, depth_oblivious, fair_tree_exact"

/* One output row; *_null flags mark SQL NULLs. Rows are in the tree's pre-order. */
typedef struct fs_fairshare_row
{
	double raw_shares;
	double norm_shares;
	double raw_usage;
	double norm_usage;
	double effective_usage;
	double fairshare;
	double level_fs;
	double usage_per_share;
	int64_t rank;         /* 0 means NULL (inner nodes, the root) */
	bool raw_shares_null; /* a FairShare=parent node */
	bool fairshare_null;
	bool level_fs_null;
	bool usage_per_share_null; /* the flags together: 80 bytes a row, not 104 */
} fs_fairshare_row;

/*
 * Compute every node's row. The tree must be a prepared share tree. Linear for classic and pbs
 * values, O(n log n) for the ranks (and for Fair Tree's sorting of each level).
 */
fs_status fs_fairshare(const fs_tree *t, fs_algo algo, double dampening, const fs_allocator *a,
                       fs_fairshare_row **out, fs_error *err);

#endif
