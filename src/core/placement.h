/*
 * placement.h: PBS placement sets (node_group_key, seed 003 / PP-1018; README "Placement sets"): a pool of
 * vnodes with resources and string labels, the flat and multi-dimensional placement sets it
 * holds, their order under node_group_sort_key lines, and where a job would go.
 */
#ifndef FS_PLACEMENT_H
#define FS_PLACEMENT_H

#include "fs_core.h"

#include <stdbool.h>

typedef struct fs_label
{
	const char *key;
	size_t keylen;
	const char *value;
	size_t valuelen;
} fs_label;

typedef struct fs_vnode
{
	char *name;
	size_t namelen;
	uint8_t *avail;    /* encoded resvec */
	uint8_t *assigned; /* encoded resvec */
	fs_label *labels;  /* sorted by key, then value; no duplicates, no empty values */
	size_t nlabels;
} fs_vnode;

typedef struct fs_pool fs_pool;

fs_pool *fs_pool_new(const fs_allocator *a);
void fs_pool_free(fs_pool *p);

/* Add a vnode (everything is copied). Empty label values are dropped, duplicates merged. */
fs_status fs_pool_add(fs_pool *p, const char *name, size_t namelen, const uint8_t *avail,
                      const uint8_t *assigned, const fs_label *labels, size_t nlabels,
                      fs_error *err);
fs_status fs_pool_merge(fs_pool *dst, const fs_pool *src, fs_error *err);

/* Sort the vnodes by name and reject a name given twice; the accessors below follow. */
fs_status fs_pool_prepare(fs_pool *p, fs_error *err);
uint32_t fs_pool_count(const fs_pool *p);
const fs_vnode *fs_pool_vnode(const fs_pool *p, uint32_t i);

/* Flat form (the stored value), after fs_pool_prepare; reading it checks every byte. */
size_t fs_pool_flat_size(const fs_pool *p);
void fs_pool_flatten(const fs_pool *p, uint8_t *out);
fs_status fs_pool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_pool **out,
                            fs_error *err);

/*
 * Binary form (send/recv): field by field in network byte order (described in placement.c);
 * reading accepts only the canonical bytes that fs_pool_to_binary writes.
 */
size_t fs_pool_binary_size(const fs_pool *p);
void fs_pool_to_binary(const fs_pool *p, uint8_t *out);
fs_status fs_pool_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_pool **out,
                              fs_error *err);

/* One node_group_sort_key line: "<resource> HIGH|LOW [total|assigned|unused]" [all|prime|non_prime]
 */
typedef enum fs_amount
{
	FS_AMOUNT_TOTAL = 0,
	FS_AMOUNT_ASSIGNED = 1,
	FS_AMOUNT_UNUSED = 2
} fs_amount;

typedef enum fs_prime
{
	FS_PRIME_ALL = 0,
	FS_PRIME_PRIME = 1,
	FS_PRIME_NON_PRIME = 2
} fs_prime;

#define FS_SORT_RESOURCE_MAX 63

typedef struct fs_sort_key
{
	char resource[FS_SORT_RESOURCE_MAX + 1];
	size_t reslen;
	bool high;
	fs_amount amount;
	fs_prime prime;
} fs_sort_key;

fs_status fs_sort_key_parse(const char *line, size_t len, fs_sort_key *out, fs_error *err);
/* PBS's default lines: ncpus LOW total, mem LOW total, ncpus LOW unused, mem LOW unused. */
size_t fs_sort_key_defaults(fs_sort_key *out);

typedef struct fs_pset
{
	char *name;
	size_t namelen;
	int dims;
	int first_key;       /* the first group key it has a value for */
	const char **values; /* per group key: its value, or NULL */
	size_t *valuelens;
	uint32_t *vnodes; /* pool positions, in name order */
	uint32_t nvnodes;
	uint8_t *total, *assigned, *unused; /* encoded resvecs */
} fs_pset;

/* The most placement sets one call forms, and the most group keys (54000 beyond). */
#define FS_PSETS_MAX     100000
#define FS_PSET_KEYS_MAX 32

/*
 * The placement sets of a prepared pool, in order: more dimensions first, then the sort keys in
 * turn (a set lacking the key's value or resource after those that have it), then key order,
 * then name.
 */
fs_status fs_placement_sets(const fs_pool *pool, const char *const *keys, const size_t *keylens,
                            size_t nkeys, const fs_sort_key *sk, size_t nsk, bool prime_time,
                            bool only_explicit, const fs_allocator *a, fs_pset **out, size_t *n,
                            fs_error *err);

/* Free what fs_placement_sets returned. */
void fs_psets_free(fs_pset *sets, size_t n, const fs_allocator *a);

#endif
