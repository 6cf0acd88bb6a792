/*
 * fairshare.c (glue): fairshare(tree, algorithm, dampening) and fairshare_path(tree, entity,
 * algorithm, dampening), the sshare -l / pbsfs -g views of a share tree. The computation is in
 * src/core/share/fairshare.c.
 */
#include "fs_pg.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "share/fairshare.h"
#include "types/sharepath.h"
#include "types/sharetree.h"

/* the name argument at position n, read into its enum */
#define ALGO_ARG(n)                                                                                \
	((fs_algo) fs_pg_name_arg(PG_GETARG_TEXT_PP(n), fs_algo_from_name, "fairshare algorithm",      \
	                          "algorithms", FS_ALGO_NAMES))

#define FAIRSHARE_COLS 13

/* Emit the rows of `t` (or, with `entity`, those on the path from the root to it). */
static void
fairshare_rows(FunctionCallInfo fcinfo, fs_tree *t, fs_algo algo, double dampening,
               const uint8_t *entity)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_fairshare_row *rows;
	fs_error err;
	uint32 i;
	bool found = false;
	fs_pg_scratch path = {0};

	fs_pg_check(fs_tree_prepare(t, &err), &err);
	fs_pg_check(fs_fairshare(t, algo, dampening, &fs_pg_alloc, &rows, &err), &err);
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < fs_tree_count(t); i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		const fs_fairshare_row *r = &rows[i];
		Datum values[FAIRSHARE_COLS];
		bool nulls[FAIRSHARE_COLS];

		FS_POLL(i);
		if (entity)
		{
			if (!fs_sp_is_ancestor(nd->path, entity))
				continue;
			found = found || fs_sp_cmp(nd->path, entity) == 0;
		}
		memset(nulls, 0, sizeof(nulls));
		values[0] = fs_pg_scratch_bytes(&path, nd->path, nd->pathlen);
		values[1] = Int32GetDatum((int32) fs_sp_nlevel(nd->path));
		values[2] = BoolGetDatum(i > 0 && fs_tree_is_leaf(t, i));
		values[3] = BoolGetDatum((nd->flags & FS_TN_DECLARED) != 0);
		values[4] = Float8GetDatum(r->raw_shares);
		nulls[4] = r->raw_shares_null;
		values[5] = Float8GetDatum(r->norm_shares);
		values[6] = Float8GetDatum(r->raw_usage);
		values[7] = Float8GetDatum(r->norm_usage);
		values[8] = Float8GetDatum(r->effective_usage);
		values[9] = Float8GetDatum(r->fairshare);
		nulls[9] = r->fairshare_null;
		values[10] = Float8GetDatum(r->level_fs);
		nulls[10] = r->level_fs_null;
		values[11] = Float8GetDatum(r->usage_per_share);
		nulls[11] = r->usage_per_share_null;
		values[12] = Int32GetDatum((int32) r->rank);
		nulls[12] = r->rank == 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (entity && !found)
	{
		fs_sb sb;

		fs_sb_init(&sb, &fs_pg_alloc, 64);
		fs_sp_format(&sb, entity);
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("entity \"%s\" is not in the share tree", sb.data),
		                errhint("List the tree's nodes with tree_nodes(tree).")));
	}
}

PG_FUNCTION_INFO_V1(fairshare_tree);
Datum
fairshare_tree(PG_FUNCTION_ARGS)
{
	fairshare_rows(fcinfo, fs_pg_read_tree(PG_GETARG_DATUM(0)), ALGO_ARG(1), PG_GETARG_FLOAT8(2),
	               NULL);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(fairshare_path);
Datum
fairshare_path(PG_FUNCTION_ARGS)
{
	struct varlena *entity = PG_GETARG_VARLENA_PP(1);

	fairshare_rows(fcinfo, fs_pg_read_tree(PG_GETARG_DATUM(0)), ALGO_ARG(2), PG_GETARG_FLOAT8(3),
	               (const uint8_t *) VARDATA_ANY(entity));
	return (Datum) 0;
}
