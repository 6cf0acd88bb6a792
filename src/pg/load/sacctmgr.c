/*
 * sacctmgr.c (glue): sacctmgr_assoc, the associations of a sacctmgr dump or listing as rows of
 * share-tree paths (the reading is in src/core/load/sacctmgr.c).
 */
#include "fs_pg.h"

#include "load/sacctmgr.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/*
 * The rows keep only their labels; each path is written into one reused buffer when its row is
 * emitted, and the row's other values live in a context reset per row, so memory stays in
 * proportion to the document (the tuplestore spills to disk past work_mem).
 */
PG_FUNCTION_INFO_V1(sacctmgr_assoc);
Datum
sacctmgr_assoc(PG_FUNCTION_ARGS)
{
	text *doc = PG_GETARG_TEXT_PP(0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_assoc_row *rows;
	size_t nrows, i;
	fs_error err;
	fs_pg_scratch path = {0};
	MemoryContext rowcxt, old;

	InitMaterializedSRF(fcinfo, 0);
	fs_pg_check(fs_sacctmgr_assoc(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &fs_pg_alloc, &rows,
	                              &nrows, &err),
	            &err);
	rowcxt =
	    AllocSetContextCreate(CurrentMemoryContext, "sacctmgr_assoc row", ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < nrows; i++)
	{
		const fs_assoc_row *r = &rows[i];
		Datum v[8];
		bool n[8];

		CHECK_FOR_INTERRUPTS();
		fs_sacctmgr_assoc_path(rows, i, fs_pg_scratch_space(&path, r->pathlen));
		old = MemoryContextSwitchTo(rowcxt);
		v[0] = Int32GetDatum(r->line), n[0] = false;
		v[1] = fs_pg_text_or_null(r->cluster, &n[1]);
		v[2] = fs_pg_text_or_null(r->account, &n[2]);
		v[3] = fs_pg_text_or_null(r->user, &n[3]);
		v[4] = fs_pg_text_or_null(r->partition, &n[4]);
		v[5] = fs_pg_scratch_datum(&path), n[5] = false;
		v[6] = Float8GetDatum(r->shares), n[6] = !r->has_shares;
		v[7] = BoolGetDatum(r->from_parent), n[7] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, n);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	if (path.v)
		pfree(path.v);
	fs_sacctmgr_assoc_free(rows, nrows, &fs_pg_alloc);
	return (Datum) 0;
}
