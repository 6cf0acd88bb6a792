/*
 * sharetree_int.h: what sharetree.c (the tree) and sharetree_forms.c (its text, flat and binary
 * forms) share and nothing else sees: the tree's layout and the steps that build one.
 */
#ifndef FS_SHARETREE_INT_H
#define FS_SHARETREE_INT_H

#include "types/sharetree.h"

#include <string.h>

#define FLAT_VERSION 1
#define FLAT_HEADER  8 /* version, kind, 2 reserved bytes, uint32 node count */
#define ARENA_CHUNK  65536

typedef struct arena_chunk
{
	struct arena_chunk *next;
	size_t used;
	size_t cap;
	/* data follows */
} arena_chunk;

struct fs_tree
{
	fs_allocator a;
	fs_tree_kind kind;
	fs_tnode *nodes;
	uint32_t n;
	uint32_t cap;
	uint64_t *slots; /* hash << 32 | node index + 1; 0 is empty; NULL until a lookup needs it */
	uint32_t nslots; /* a power of two, at least twice n (0 while slots is NULL) */
	bool preordered; /* nodes[] is in pre-order: read from a flat form, no node added since */
	arena_chunk *arena;
	size_t arena_bytes;
	size_t path_bytes; /* sum of the nodes' encoded path lengths */
	/* derived by fs_tree_prepare, valid while `prepared` */
	bool prepared;
	uint32_t *order;    /* pre-order position -> node index (NULL when preordered: the same) */
	uint32_t *position; /* node index -> pre-order position (NULL when preordered) */
	uint8_t *leaf;      /* by position */
	double *total;      /* by position */
	uint8_t **total_vec[2];
};

static inline void *
fs_tree_raw_alloc(fs_tree *t, size_t size)
{
	return t->a.alloc(t->a.ctx, size);
}

/* Bytes that live as long as the tree (node paths), from chunks freed with it. */
static inline uint8_t *
fs_tree_arena_copy(fs_tree *t, const uint8_t *src, size_t len)
{
	arena_chunk *c = t->arena;
	uint8_t *dst;

	if (c == NULL || c->cap - c->used < len)
	{
		size_t cap = len > ARENA_CHUNK ? len : ARENA_CHUNK;

		c = fs_tree_raw_alloc(t, sizeof(arena_chunk) + cap);
		c->next = t->arena;
		c->used = 0;
		c->cap = cap;
		t->arena = c;
		t->arena_bytes += sizeof(arena_chunk) + cap;
	}
	dst = (uint8_t *) (c + 1) + c->used;
	memcpy(dst, src, len);
	c->used += len;
	return dst;
}

/* An empty tree (not even a root) with room for cap nodes and no hash. */
fs_tree *fs_tree_alloc_empty(const fs_allocator *a, fs_tree_kind kind, uint32_t cap);
/* The checks of fs_tree_add on one row: numbers finite and not negative, vectors not negative. */
fs_status fs_tree_check_row(const fs_tree *t, const fs_tree_row *r, fs_error *err);
/* Add vector v into *slot (the usage or demand, `what`, of the node at path). */
fs_status fs_tree_add_vec(fs_tree *t, uint8_t **slot, const uint8_t *v, const char *what,
                          const uint8_t *path, fs_error *err);

#endif
