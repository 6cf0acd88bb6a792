/*
 * fs_pg.c: the module's magic block, the palloc allocator for src/core and the mapping of
 * core error categories to SQLSTATEs.
 */
#include "fs_pg.h"

#include "fmgr.h"

PG_MODULE_MAGIC;

static void *
fs_pg_palloc(void *ctx, size_t size)
{
	(void) ctx;
	return palloc(size);
}

static void
fs_pg_pfree(void *ctx, void *ptr)
{
	(void) ctx;
	pfree(ptr);
}

const fs_allocator fs_pg_alloc = {fs_pg_palloc, fs_pg_pfree, NULL};

static int
fs_pg_sqlstate(fs_status st)
{
	switch (st)
	{
		case FS_ERR_SYNTAX:
			return ERRCODE_INVALID_TEXT_REPRESENTATION;
		case FS_ERR_RANGE:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		case FS_ERR_VALUE:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case FS_ERR_KIND:
			return ERRCODE_DATATYPE_MISMATCH;
		case FS_ERR_DIVZERO:
			return ERRCODE_DIVISION_BY_ZERO;
		case FS_ERR_BINARY:
			return ERRCODE_INVALID_BINARY_REPRESENTATION;
		case FS_ERR_LIMIT:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
		case FS_OK:
			break;
	}
	return ERRCODE_INTERNAL_ERROR;
}

void
fs_pg_raise(const fs_error *err)
{
	ereport(ERROR, (errcode(fs_pg_sqlstate(err->status)), errmsg_internal("%s", err->message),
	                err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
	                err->hint[0] ? errhint("%s", err->hint) : 0));
	pg_unreachable();
}

struct varlena *
fs_pg_varlena(uint8_t *base, size_t len)
{
	struct varlena *v = (struct varlena *) base;

	SET_VARSIZE(v, VARHDRSZ + len);
	return v;
}
