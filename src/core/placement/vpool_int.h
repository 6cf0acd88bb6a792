/*
 * vpool_int.h: what the placement files share about a vnode pool (vpool.c, vpool_forms.c,
 * indirect.c, psets.c): its layout, the flat form's versions and a few helpers defined in
 * vpool.c. Not part of placement.h's interface.
 */
#ifndef FS_VPOOL_INT_H
#define FS_VPOOL_INT_H

#include "placement/placement.h"

/* version 2 adds indirect resources; a pool without any is written as version 1 */
#define FLAT_VERSION          1
#define FLAT_VERSION_INDIRECT 2

struct fs_vpool
{
	fs_allocator a;
	fs_vnode *v;
	uint32_t n;
	uint32_t cap;
	fs_vpool
	    *resolved; /* fs_vpool_resolve's result: NULL until asked, p itself when nothing points */
};

/* A name for a message: at most 200 bytes, cut on a character boundary. */
typedef struct shown_name
{
	char s[220];
} shown_name;

shown_name fs_vpool_show(const char *s, size_t len);
/* Labels ordered by key, then value. */
int fs_vpool_label_cmp(const void *x, const void *y);
/* Indirect resources ordered by resource name. */
int fs_vpool_indirect_cmp(const void *x, const void *y);
/* A copy of a resvec in a's memory (the empty vector for NULL). */
uint8_t *fs_vpool_copy_rv(const fs_allocator *a, const uint8_t *rv);
/*
 * A vnode name after "@" that the text form "res=@vnode" reads back: not empty, no NUL or comma,
 * no blank at either end.
 */
bool fs_vpool_target_ok(const uint8_t *s, size_t len);
/* Whether any vnode of the pool has an indirect resource. */
bool fs_vpool_has_indirect(const fs_vpool *p);

#endif
