/*
 * fs_expanded.c: the expanded-object wrapper shared by the tree and pool aggregates.
 */
#include "fs_expanded.h"

#include "utils/memutils.h"

static void *
ex_palloc(void *ctx, size_t size)
{
	return MemoryContextAllocExtended((MemoryContext) ctx, size, MCXT_ALLOC_HUGE);
}

static void
ex_pfree(void *ctx, void *ptr)
{
	(void) ctx;
	pfree(ptr);
}

static Size
ex_get_flat_size(ExpandedObjectHeader *eohptr)
{
	fs_pg_expanded *e = (fs_pg_expanded *) eohptr;
	fs_error err;

	fs_pg_check(e->kind->prepare(e->obj, &err), &err);
	return add_size(VARHDRSZ, e->kind->flat_size(e->obj));
}

static void
ex_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	fs_pg_expanded *e = (fs_pg_expanded *) eohptr;

	e->kind->flatten(e->obj, (uint8_t *) result + VARHDRSZ);
	SET_VARSIZE(result, allocated_size);
}

static const ExpandedObjectMethods ex_methods = {ex_get_flat_size, ex_flatten_into};

fs_pg_expanded *
fs_pg_expanded_new(MemoryContext parent, const fs_pg_object_kind *kind)
{
	MemoryContext ctx =
	    AllocSetContextCreate(parent, "fairsched aggregate state", ALLOCSET_DEFAULT_SIZES);
	fs_pg_expanded *e = MemoryContextAlloc(ctx, sizeof(fs_pg_expanded));

	EOH_init_header(&e->hdr, &ex_methods, ctx);
	e->kind = kind;
	e->alloc.alloc = ex_palloc;
	e->alloc.release = ex_pfree;
	e->alloc.ctx = ctx;
	e->obj = NULL;
	return e;
}

void *
fs_pg_object_or_flat(Datum d, const uint8_t **data, size_t *len)
{
	struct varlena *v;

	if (VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)))
		return ((fs_pg_expanded *) DatumGetEOHP(d))->obj;
	v = PG_DETOAST_DATUM_PACKED(d);
	*data = (const uint8_t *) VARDATA_ANY(v);
	*len = VARSIZE_ANY_EXHDR(v);
	return NULL;
}

void *
fs_pg_read_object(Datum d, const fs_pg_object_kind *kind)
{
	const uint8_t *data;
	size_t len;
	void *obj = fs_pg_object_or_flat(d, &data, &len);
	fs_error err;

	if (obj == NULL)
		fs_pg_check(kind->from_flat(&fs_pg_alloc, data, len, &obj, &err), &err);
	return obj;
}

struct varlena *
fs_pg_flat_object(void *obj, const fs_pg_object_kind *kind)
{
	fs_error err;
	size_t size;
	struct varlena *v;

	fs_pg_check(kind->prepare(obj, &err), &err);
	size = add_size(VARHDRSZ, kind->flat_size(obj));
	v = palloc(size);
	kind->flatten(obj, (uint8_t *) VARDATA(v));
	SET_VARSIZE(v, size);
	return v;
}

fs_pg_expanded *
fs_pg_agg_state(FunctionCallInfo fcinfo, const fs_pg_object_kind *kind, bool *fresh)
{
	MemoryContext aggctx;
	fs_pg_expanded *e;
	Datum d;
	fs_error err;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "%s aggregate function called in non-aggregate context", kind->name);
	*fresh = false;
	if (PG_ARGISNULL(0))
	{
		*fresh = true;
		return fs_pg_expanded_new(aggctx, kind);
	}
	d = PG_GETARG_DATUM(0);
	if (VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d)))
		return (fs_pg_expanded *) DatumGetEOHP(d);
	/* a flat partial state: read it into a new expanded object of our own */
	e = fs_pg_expanded_new(aggctx, kind);
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(d);

		fs_pg_check(kind->from_flat(&e->alloc, (const uint8_t *) VARDATA_ANY(v),
		                            VARSIZE_ANY_EXHDR(v), &e->obj, &err),
		            &err);
	}
	return e;
}
