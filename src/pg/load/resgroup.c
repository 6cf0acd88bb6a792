/*
 * resgroup.c (glue): resource_group and resource_group_try, the PBS resource_group file as
 * rows that feed share_tree. The reading is in src/core/load/resgroup.c.
 */
#include "fs_pg.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "load/resgroup.h"
#include "types/sharepath.h"

#define RG_COLS 8 /* line, name, id, parent, shares, path, extra, error */

static Datum
text_datum(const char *s, size_t len)
{
	return PointerGetDatum(cstring_to_text_with_len(s, (int) len));
}

/*
 * Each path is written into one reused buffer when its row is emitted, and the row's other
 * values live in a context reset per row, so memory stays in proportion to the file (the
 * tuplestore spills to disk past work_mem) however deep the tree.
 */
static void
resource_group_rows(FunctionCallInfo fcinfo, bool try_mode)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text *doc = PG_GETARG_TEXT_PP(0);
	double unknown_shares = PG_GETARG_FLOAT8(1);
	int ncols = try_mode ? RG_COLS : RG_COLS - 1;
	fs_rg_entry *e;
	size_t n, i;
	fs_error err;
	Datum values[RG_COLS];
	bool nulls[RG_COLS];
	fs_pg_scratch path = {0};
	MemoryContext rowcxt, old;

	if (!isfinite(unknown_shares) || unknown_shares < 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("unknown_shares must be a finite number of zero or more"),
		                errhint("Pass the unknown_shares of the scheduler's sched_config "
		                        "(0 by default).")));
	fs_pg_check(fs_rg_parse(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &fs_pg_alloc, &e, &n, &err),
	            &err);
	/* without try, the first bad line in the file raises before any row is returned */
	if (!try_mode)
		for (i = 0; i < n; i++)
			if (e[i].error)
			{
				fs_rg_error(&e[i], &err);
				fs_pg_raise(&err);
			}
	InitMaterializedSRF(fcinfo, 0);

	/* the group PBS predefines under the root, which the file may use as a parent */
	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(0);
	values[1] = CStringGetTextDatum("unknown");
	values[2] = Int32GetDatum(FS_RG_UNKNOWN_ID);
	values[3] = CStringGetTextDatum("root");
	values[4] = Float8GetDatum(unknown_shares);
	{
		const char *label = "unknown";
		size_t len = 7;
		uint8_t *path;
		size_t pathlen;

		fs_pg_check(fs_sp_from_labels(&label, &len, 1, &fs_pg_alloc, 0, &path, &pathlen, &err),
		            &err);
		values[5] = fs_pg_path_datum(path);
	}
	nulls[6] = nulls[7] = true;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);

	rowcxt =
	    AllocSetContextCreate(CurrentMemoryContext, "resource_group row", ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (e[i].error == NULL) /* the buffer outlives the row's context */
			fs_rg_path_write(e, i, fs_pg_scratch_space(&path, e[i].pathlen));
		old = MemoryContextSwitchTo(rowcxt);
		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(e[i].line);
		if (e[i].error)
		{
			int c;

			for (c = 1; c < ncols; c++)
				nulls[c] = true;
			values[7] = CStringGetTextDatum(e[i].error);
			nulls[7] = false;
		}
		else
		{
			values[1] = text_datum(e[i].name, e[i].namelen);
			values[2] = Int32GetDatum(e[i].id);
			values[3] = text_datum(e[i].parent, e[i].parentlen);
			values[4] = Float8GetDatum(e[i].shares);
			values[5] = fs_pg_scratch_datum(&path);
			if (e[i].extra)
				values[6] = text_datum(e[i].extra, e[i].extralen);
			else
				nulls[6] = true;
			nulls[7] = true;
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	if (path.v)
		pfree(path.v);
}

PG_FUNCTION_INFO_V1(resource_group);
Datum
resource_group(PG_FUNCTION_ARGS)
{
	resource_group_rows(fcinfo, false);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(resource_group_try);
Datum
resource_group_try(PG_FUNCTION_ARGS)
{
	resource_group_rows(fcinfo, true);
	return (Datum) 0;
}
