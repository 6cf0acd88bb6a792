/*
 * fs_pg.h: what every glue module shares: the core allocator pointed at palloc, and the
 * translation of core errors into ereport.
 */
#ifndef FS_PG_H
#define FS_PG_H

#include "postgres.h"

#include "datatype/timestamp.h"

#include "fs_core.h"

/* Allocates in CurrentMemoryContext. */
extern const fs_allocator fs_pg_alloc;

/* A varlena from core output that starts with VARHDRSZ reserved bytes and has len more. */
struct varlena *fs_pg_varlena(uint8_t *base, size_t len);

/* Raise a core error with the SQLSTATE of its category. */
void fs_pg_raise(const fs_error *err) pg_attribute_noreturn();

/* Raise `err` unless `st` is FS_OK. */
static inline void
fs_pg_check(fs_status st, const fs_error *err)
{
	if (st != FS_OK)
		fs_pg_raise(err);
}

/* A sharetree argument to read: the expanded object itself, or a tree built from the flat value. */
struct fs_tree;
struct fs_tree *fs_pg_read_tree(Datum d);

/* An interval in microseconds, counted as EXTRACT(EPOCH FROM interval) does; `what` names it. */
int64 fs_pg_interval_us(const Interval *iv, const char *what);
/* A timestamp argument, which must be finite. */
int64 fs_pg_timestamp(TimestampTz t, const char *what);

#endif
