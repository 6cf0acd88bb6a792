/*
 * fs_expanded.h: core objects (share trees, vnode pools) as PostgreSQL expanded objects, so
 * that an aggregate updates its state in place and PostgreSQL flattens it only when it leaves
 * the aggregate (a parallel worker's partial state, a stored value).
 */
#ifndef FS_EXPANDED_H
#define FS_EXPANDED_H

#include "fs_pg.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"

/* How to flatten one kind of core object. */
typedef struct fs_pg_object_kind
{
	const char *name;
	fs_status (*prepare)(void *obj, fs_error *err); /* before flat_size and flatten */
	size_t (*flat_size)(const void *obj);
	void (*flatten)(const void *obj, uint8_t *out);
	fs_status (*from_flat)(const fs_allocator *a, const uint8_t *data, size_t len, void **out,
	                       fs_error *err);
} fs_pg_object_kind;

typedef struct fs_pg_expanded
{
	ExpandedObjectHeader hdr;
	const fs_pg_object_kind *kind;
	fs_allocator alloc; /* allocates in hdr.eoh_context */
	void *obj;
} fs_pg_expanded;

/* A new expanded object (obj still NULL) whose memory context is a child of `parent`. */
fs_pg_expanded *fs_pg_expanded_new(MemoryContext parent, const fs_pg_object_kind *kind);

/* Read an argument: the expanded object's own core object, or one read from the flat value. */
void *fs_pg_read_object(Datum d, const fs_pg_object_kind *kind);

/*
 * An argument's expanded core object; or NULL, with *data and *len set to the flat value's bytes
 * (detoasted in CurrentMemoryContext if need be: they last as long as the function call).
 */
void *fs_pg_object_or_flat(Datum d, const uint8_t **data, size_t *len);

/* The flat varlena of a core object, in CurrentMemoryContext. */
struct varlena *fs_pg_flat_object(void *obj, const fs_pg_object_kind *kind);

/*
 * The transition state of an aggregate, to update in place: the expanded object the previous
 * call returned; or, for the first row (arg 0 NULL), NULL, so that the caller makes its empty
 * object in the returned state's allocator; or a copy of a flat partial state to combine into.
 */
fs_pg_expanded *fs_pg_agg_state(FunctionCallInfo fcinfo, const fs_pg_object_kind *kind,
                                bool *fresh);

#endif
