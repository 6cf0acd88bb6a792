/*
 * sharetree.h: share trees (shares and usage per node, docs/fairshare.md ("Share trees")) and pool
 * trees (weights, share-ratio bounds, usage and demand vectors, YTsaurus): building them row by row
 * with a hash on the path, merging, the pre-order with rolled-up totals, and their flat and text
 * forms.
 */
#ifndef FS_SHARETREE_H
#define FS_SHARETREE_H

#include "fs_core.h"

#include <stdbool.h>

/*
 * Every node stores its full encoded path (2 bytes + 1 + label length per level), so a deep tree
 * of long labels costs its depth times its input: the paths of one tree's nodes may total at
 * most this many bytes (more is an error: docs/limits.md).
 */
#define FS_TREE_PATH_BYTES_MAX (64 * 1024 * 1024)

typedef enum fs_tree_kind
{
	FS_TREE_SHARE = 1,
	FS_TREE_POOL = 2
} fs_tree_kind;

/* node flags */
#define FS_TN_DECLARED 0x01 /* shares (share tree) or weight (pool tree) stated */
#define FS_TN_PARENT   0x02 /* share tree: shares come from the parent (SLURM FairShare=parent) */
#define FS_TN_HAS_MIN  0x04 /* pool tree: min_share_ratio stated */
#define FS_TN_HAS_MAX  0x08 /* pool tree: max_share_ratio stated */
#define FS_TN_ALL      0x0F

typedef struct fs_tnode
{
	const uint8_t *path; /* encoded sharepath */
	uint32_t pathlen;
	uint32_t hash;
	int32_t parent; /* node index of the parent; -1 for the root */
	uint32_t flags;
	double shares; /* share tree: shares; pool tree: weight (0 when not stated) */
	double usage;  /* share tree: the node's own usage */
	double min_share, max_share;
	uint8_t *usage_vec;  /* pool tree: own usage (encoded resvec), NULL when none */
	uint8_t *demand_vec; /* pool tree: own demand, NULL when none */
} fs_tnode;

typedef struct fs_tree fs_tree;

/* One row (or one node of another tree) to merge in; has_* false means "states nothing". */
typedef struct fs_tree_row
{
	const uint8_t *path;
	bool has_shares;
	double shares;
	bool from_parent;
	double usage;
	bool has_min, has_max;
	double min_share, max_share;
	const uint8_t *usage_vec;  /* may be NULL */
	const uint8_t *demand_vec; /* may be NULL */
} fs_tree_row;

fs_tree *fs_tree_new(const fs_allocator *a, fs_tree_kind kind);
void fs_tree_free(fs_tree *t);
fs_tree_kind fs_tree_get_kind(const fs_tree *t);

/* Add one row: usages add, shares must agree, missing ancestors are created. */
fs_status fs_tree_add(fs_tree *t, const fs_tree_row *row, fs_error *err);

/* dst += src with the same rules (the kinds must match). */
fs_status fs_tree_merge(fs_tree *dst, const fs_tree *src, fs_error *err);

/*
 * Pre-order and rollups, computed once after the last change; the accessors below index
 * nodes in pre-order (0 is the root).
 */
fs_status fs_tree_prepare(fs_tree *t, fs_error *err);
uint32_t fs_tree_count(const fs_tree *t);
const fs_tnode *fs_tree_node(const fs_tree *t, uint32_t i);
uint32_t fs_tree_parent_pos(const fs_tree *t, uint32_t i); /* pre-order position of the parent */
bool fs_tree_is_leaf(const fs_tree *t, uint32_t i);
double fs_tree_total(const fs_tree *t, uint32_t i); /* own usage + descendants' */
const uint8_t *fs_tree_total_vec(const fs_tree *t, uint32_t i, bool demand);

/* Flat form (the stored varlena payload); fs_tree_prepare must have run. */
size_t fs_tree_flat_size(const fs_tree *t);
void fs_tree_flatten(const fs_tree *t, uint8_t *out);
/* Read a flat form, checking every byte (it may come from binary input). */
fs_status fs_tree_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out,
                            fs_error *err);
/*
 * The same, but a valid stored form (the usual case) keeps its node paths in `data` instead of
 * copying them: data must outlive the tree (a read-only look within one function call).
 */
fs_status fs_tree_from_flat_borrowed(const fs_allocator *a, const uint8_t *data, size_t len,
                                     fs_tree **out, fs_error *err);

/*
 * Binary form (send/recv): the same content field by field in network byte order (described in
 * sharetree.c). fs_tree_from_binary accepts only canonical bytes: what fs_tree_to_binary writes.
 */
size_t fs_tree_binary_size(const fs_tree *t); /* after fs_tree_prepare */
void fs_tree_to_binary(const fs_tree *t, uint8_t *out);
fs_status fs_tree_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out,
                              fs_error *err);

/* Text form: share{path=shares/usage,...} or pool{path=weight/min/max/{usage}/{demand},...}. */
void fs_tree_format(fs_sb *sb, const fs_tree *t); /* after fs_tree_prepare */
fs_status fs_tree_parse(const fs_allocator *a, const char *text, size_t len, fs_tree **out,
                        fs_error *err);

/* Approximate bytes of memory the tree holds (for the documentation and tests). */
size_t fs_tree_memory(const fs_tree *t);

#endif
