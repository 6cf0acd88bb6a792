/*
 * sacctmgr.h: the associations of `sacctmgr dump` files and `sacctmgr show assoc -P` listings as
 * share-tree paths, with their shares. Rows point into the document.
 */
#ifndef FS_SACCTMGR_H
#define FS_SACCTMGR_H

#include "fs_core.h"

#include <stdbool.h>
#include <stdint.h>

/* parent of a row whose path is the root's child (or, with no label, the root itself) */
#define FS_ASSOC_ROOT (-1)

/*
 * One association row of sacctmgr output. A row does not store its path (a deep tree's paths
 * add up to far more than the document): it names its parent row and its own label, and
 * fs_sacctmgr_assoc_path writes the path when it is needed.
 */
typedef struct fs_assoc_row
{
	int line;
	fs_str cluster, account, user, partition; /* spans into the document */
	int32_t parent;                           /* row index, or FS_ASSOC_ROOT */
	fs_str label;                             /* the last label; p == NULL for the root */
	fs_str label_partition; /* a user's partition: the label is "label@partition"; else len 0 */
	uint32_t depth;         /* labels in the path */
	size_t pathlen;         /* bytes of the encoded path */
	bool has_shares;
	double shares;
	bool from_parent;
} fs_assoc_row;

/*
 * The rows of a sacctmgr dump or `show assoc -P` listing, in document order. Time and memory
 * are linear in the document (one hash lookup per row for its parent account).
 */
fs_status fs_sacctmgr_assoc(const char *doc, size_t len, const fs_allocator *a, fs_assoc_row **rows,
                            size_t *nrows, fs_error *err);
/* Write the encoded sharepath of rows[i] (rows[i].pathlen bytes) to out: O(depth). */
void fs_sacctmgr_assoc_path(const fs_assoc_row *rows, size_t i, uint8_t *out);
void fs_sacctmgr_assoc_free(fs_assoc_row *rows, size_t nrows, const fs_allocator *a);

#endif
