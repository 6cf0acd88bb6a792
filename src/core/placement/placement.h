/*
 * placement.h: PBS placement sets (node_group_key; the PBS design page PP-1018; docs/placement.md):
 * a pool of vnodes with resources, string labels and indirect resources ("@vnode": vpool.c,
 * vpool_forms.c, indirect.c), the flat and multi-dimensional placement sets it holds and their
 * order under node_group_sort_key lines (psets.c), and where a job would go: by its total request
 * (place, psets.c) or chunk by chunk (select and place specs: select_spec.c, place_select.c).
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

/* An indirect resource: resources_available.<res> = @<vnode>, the amount held by that vnode. */
typedef struct fs_indirect
{
	const char *res;
	size_t reslen;
	const char *vnode;
	size_t vnodelen;
} fs_indirect;

typedef struct fs_vnode
{
	char *name;
	size_t namelen;
	uint8_t *avail;    /* encoded resvec */
	uint8_t *assigned; /* encoded resvec */
	fs_label *labels;  /* sorted by key, then value; no duplicates, no empty values */
	size_t nlabels;
	fs_indirect *indirect; /* sorted by resource, each once, none also in avail */
	size_t nindirect;
	uint32_t *targets; /* in a resolved pool: the pool position of each indirect entry's vnode */
} fs_vnode;

typedef struct fs_vpool fs_vpool;

fs_vpool *fs_vpool_new(const fs_allocator *a);
void fs_vpool_free(fs_vpool *p);

/*
 * Add a vnode (everything is copied). Empty label values are dropped, duplicates merged. A label
 * value "@vn" and the indirect resources name another vnode; they are checked when the pool is
 * resolved (fs_vpool_resolve), because that vnode may join the pool later.
 */
fs_status fs_vpool_add(fs_vpool *p, const char *name, size_t namelen, const uint8_t *avail,
                       const uint8_t *assigned, const fs_label *labels, size_t nlabels,
                       const fs_indirect *indirect, size_t nindirect, fs_error *err);

/*
 * The labels one string gives a key, as PBS reads resources_available.<key> = "sw1, sw2": its
 * comma-separated items without the whitespace around them (fs_is_space), appended to *labels
 * (*n used of *cap, grown through the allocator; start with NULL, 0, 0). Empty items are kept:
 * fs_vpool_add drops them. The labels point into key and s.
 */
void fs_labels_append(const char *key, size_t keylen, const char *s, size_t len,
                      const fs_allocator *a, fs_label **labels, size_t *n, size_t *cap);

/*
 * A vnode's available resources as text, "ncpus=4,scratch=@n07": the amounts as an encoded
 * resvec, the "@vnode" entries as indirect resources pointing into `text` (*ind is allocated).
 */
fs_status fs_vpool_parse_available(const char *text, size_t len, const fs_allocator *a,
                                   uint8_t **rv, fs_indirect **ind, size_t *nind, fs_error *err);
/* The same text back: the resvec's canonical text, then ",res=@vnode" in resource order. */
void fs_vpool_format_available(fs_sb *sb, const fs_vnode *v);
fs_status fs_vpool_merge(fs_vpool *dst, const fs_vpool *src, fs_error *err);

/* Sort the vnodes by name and reject a name given twice; the accessors below follow. */
fs_status fs_vpool_prepare(fs_vpool *p, fs_error *err);

/*
 * The pool as PBS's scheduler sees it, after fs_vpool_prepare: every "@vn" resolved (an unknown
 * vnode, a vnode that lacks the value, a pointer to a pointer or to itself are errors, as the PBS
 * server refuses them). Labels take the named vnode's values; an indirect resource is dropped
 * from the pointing vnode's amounts (the named vnode holds it, with the assigned amounts of every
 * vnode that points at it added to its own). The resolved pool is cached in p and freed with it;
 * *out is p itself when nothing points anywhere.
 */
fs_status fs_vpool_resolve(fs_vpool *p, const fs_vpool **out, fs_error *err);
/* The position of the vnode with this name, or UINT32_MAX. */
uint32_t fs_vpool_find(const fs_vpool *p, const char *name, size_t namelen);
/* The vnode's indirect entry for this resource, or NULL. */
const fs_indirect *fs_vnode_indirect(const fs_vnode *v, const char *res, size_t reslen);
uint32_t fs_vpool_count(const fs_vpool *p);
const fs_vnode *fs_vpool_vnode(const fs_vpool *p, uint32_t i);

/* Flat form (the stored value), after fs_vpool_prepare; reading it checks every byte. */
size_t fs_vpool_flat_size(const fs_vpool *p);
void fs_vpool_flatten(const fs_vpool *p, uint8_t *out);
fs_status fs_vpool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_vpool **out,
                             fs_error *err);

/*
 * Binary form (send/recv): field by field in network byte order (described in placement.c);
 * reading accepts only the canonical bytes that fs_vpool_to_binary writes.
 */
size_t fs_vpool_binary_size(const fs_vpool *p);
void fs_vpool_to_binary(const fs_vpool *p, uint8_t *out);
fs_status fs_vpool_from_binary(const fs_allocator *a, const uint8_t *data, size_t len,
                               fs_vpool **out, fs_error *err);

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

/*
 * What forms and orders the placement sets, the parameters that travel together: the group keys
 * (node_group_key), the node_group_sort_key lines, whether it is prime time (which lines apply)
 * and only_explicit (a vnode without a key's label joins no set of that key, rather than the
 * set of the empty value).
 */
typedef struct fs_pset_spec
{
	const char *const *keys;
	const size_t *keylens;
	size_t nkeys;
	const fs_sort_key *sk;
	size_t nsk;
	bool prime_time;
	bool only_explicit;
} fs_pset_spec;

/* The most placement sets one call forms, and the most group keys (more is an error:
 * docs/limits.md). */
#define FS_PSETS_MAX     100000
#define FS_PSET_KEYS_MAX 32

/*
 * The placement sets of a prepared pool, in order: more dimensions first, then the sort keys in
 * turn (a set lacking the key's value or resource after those that have it), then key order,
 * then name. The pool is resolved first (fs_vpool_resolve); the sets' vnode positions and values
 * refer to the resolved pool, which lives as long as `pool`. A shared (indirect) amount counts
 * once in a set's totals: through the vnode that holds it if that vnode is in the set, else
 * through the first vnode of the set that points at it.
 */
fs_status fs_placement_sets(fs_vpool *pool, const fs_pset_spec *spec, const fs_allocator *a,
                            fs_pset **out, size_t *n, fs_error *err);

/* Free what fs_placement_sets returned. */
void fs_psets_free(fs_pset *sets, size_t n, const fs_allocator *a);

/* One set "all" of every vnode of the resolved pool (PBS's set when no node_group_key is set). */
fs_status fs_vpool_all_set(fs_vpool *pool, const fs_allocator *a, fs_pset **out, size_t *n,
                           fs_error *err);

/*
 * place(): the first set whose unused amounts hold `request` (*now true), else the first whose
 * totals do (*now false); *pick is SIZE_MAX when no set holds it.
 */
fs_status fs_place_first(const fs_pset *sets, size_t n, const uint8_t *request, size_t *pick,
                         bool *now, fs_error *err);

/* ---------------------------------------------------------------- select and place specs */

/* A place spec: [arrangement][:sharing][:group=resource] (PBS -l place=...). */
typedef enum fs_arrangement
{
	FS_ARRANGE_FREE = 0,
	FS_ARRANGE_PACK,
	FS_ARRANGE_SCATTER,
	FS_ARRANGE_VSCATTER
} fs_arrangement;

typedef enum fs_sharing
{
	FS_SHARE_DEFAULT = 0, /* none given: shared, as PBS defaults */
	FS_SHARE_SHARED,
	FS_SHARE_EXCL,
	FS_SHARE_EXCLHOST
} fs_sharing;

typedef struct fs_place
{
	fs_arrangement arrangement;
	fs_sharing sharing;
	char group[FS_SORT_RESOURCE_MAX + 1]; /* group=<resource>, or "" */
	size_t grouplen;
} fs_place;

fs_status fs_place_parse(const char *text, size_t len, fs_place *out, fs_error *err);

/* A requirement on a vnode's labels (a string or boolean chunk resource: arch=linux). */
typedef struct fs_match
{
	char *res;
	size_t reslen;
	char *value;
	size_t valuelen;
	bool boolean; /* value is true or false, in any case */
} fs_match;

/* One term of a select spec: count chunks of the same resources. */
typedef struct fs_chunk_spec
{
	uint32_t count;
	uint8_t *request; /* encoded resvec: the consumable amounts, default_chunk filled in */
	fs_match *match;  /* sorted by resource */
	size_t nmatch;
} fs_chunk_spec;

typedef struct fs_select
{
	fs_chunk_spec *terms;
	size_t nterms;
	uint32_t total; /* chunks in all terms */
} fs_select;

/* The most chunks one select spec asks for, and the most resource=value items its chunks hold
 * with default_chunk's resources added to each (more is an error: docs/limits.md). */
#define FS_SELECT_CHUNKS_MAX  100000
#define FS_SELECT_ENTRIES_MAX 1000000

/*
 * Parse a select spec, "2:ncpus=8:mem=16gb+1:ngpus=1"; amounts read as resvec amounts, other
 * values ("linux", "true") are label requirements. Resources of default_chunk (an encoded resvec,
 * may be NULL) that a term does not name are added to it, as PBS's default_chunk does.
 */
fs_status fs_select_parse(const char *text, size_t len, const uint8_t *default_chunk,
                          const fs_allocator *a, fs_select **out, fs_error *err);
void fs_select_free(fs_select *s, const fs_allocator *a);

/* One piece of a placement: the amounts of a chunk that one vnode gives. */
typedef struct fs_piece
{
	uint32_t chunk; /* 1-based, in select order */
	uint32_t vnode; /* position in the resolved pool */
	uint8_t *amounts;
} fs_piece;

typedef struct fs_chunk_placement
{
	fs_pset *sets; /* the placement sets, in order (one set "all" without group keys) */
	size_t nsets;
	size_t set; /* the set the job goes to, or SIZE_MAX */
	bool now;   /* on the free amounts now; false: only once the set's vnodes are free */
	fs_piece *pieces;
	size_t npieces;
	const fs_vpool *resolved; /* the pool the vnode positions refer to */
} fs_chunk_placement;

/*
 * Place a select spec, set by set in placement order (group=<resource> in the place spec
 * replaces the group keys; no keys: one set "all" of every vnode): the first set where every
 * chunk fits on the vnodes' free amounts, else the first where it would fit were the set's vnodes
 * free, else none. The rules are PBS's (see place_select.c and docs/placement.md).
 */
fs_status fs_place_select(fs_vpool *pool, const fs_pset_spec *spec, const fs_select *sel,
                          const fs_place *pl, const fs_allocator *a, fs_chunk_placement *out,
                          fs_error *err);
void fs_chunk_placement_free(fs_chunk_placement *cp, const fs_allocator *a);

#endif
