/*
 * divide.c (glue): divide(total, weights, min_shares, max_shares, mode) and fair_share(pool
 * tree, cluster, mode, root). The solving is in src/core/share/divide.c.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "share/divide.h"
#include "types/sharepath.h"
#include "types/sharetree.h"

#include <math.h>

/* the name argument at position n, read into its enum */
#define MODE_ARG(n)                                                                                \
	((fs_divide_mode) fs_pg_name_arg(PG_GETARG_TEXT_PP(n), fs_divide_mode_from_name,               \
	                                 "division mode", "modes", FS_DIVIDE_MODES))

/*
 * The elements of a one-dimensional float8 array, read in place (a float8 array without NULLs
 * is a plain C array of doubles): no copy, which matters at millions of children.
 */
static const double *
float8_array(ArrayType *arr, const char *what, int *n)
{
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		                errmsg("%s must be a one-dimensional array", what)));
	Assert(ARR_ELEMTYPE(arr) == FLOAT8OID);
	*n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (ARR_HASNULL(arr))
	{
		const bits8 *bitmap = ARR_NULLBITMAP(arr);
		int i;

		for (i = 0; i < *n; i++)
		{
			FS_POLL(i);
			if (!(bitmap[i / 8] & (1 << (i % 8))))
				ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				                errmsg("%s[%d] is NULL", what, i + 1),
				                errhint("Give 0 for no guarantee, and 1 (the whole) for no cap.")));
		}
	}
	/* no NULLs: the data follows the fixed header (ARR_DATA_PTR, without its signedness warning) */
	return (const double *) ((const char *) arr + ARR_OVERHEAD_NONULLS(ARR_NDIM(arr)));
}

PG_FUNCTION_INFO_V1(divide_shares);
Datum
divide_shares(PG_FUNCTION_ARGS)
{
	int nw, nl, nu;
	const double *w = float8_array(PG_GETARG_ARRAYTYPE_P(1), "weights", &nw);
	const double *l = float8_array(PG_GETARG_ARRAYTYPE_P(2), "min_shares", &nl);
	const double *u = float8_array(PG_GETARG_ARRAYTYPE_P(3), "max_shares", &nu);
	fs_divide_mode mode = MODE_ARG(4);
	ArrayType *result;
	Size nbytes;
	fs_error err;

	if (nw != nl || nw != nu)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		                errmsg("divide arrays have different lengths: %d %s, %d %s, %d %s", nw,
		                       fs_plural(nw, "weight", "weights"), nl,
		                       fs_plural(nl, "min_share", "min_shares"), nu,
		                       fs_plural(nu, "max_share", "max_shares")),
		                errhint("Give one weight, one lower and one upper bound per child.")));
	if (nw == 0)
	{
		fs_pg_check(
		    fs_divide(PG_GETARG_FLOAT8(0), w, l, u, 0, mode, &fs_pg_alloc, NULL, NULL, NULL, &err),
		    &err);
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(FLOAT8OID));
	}
	/* a one-dimensional float8 array without NULLs, filled in place */
	nbytes = add_size(ARR_OVERHEAD_NONULLS(1), mul_size(sizeof(float8), (Size) nw));
	result = (ArrayType *) palloc0(nbytes);
	SET_VARSIZE(result, nbytes);
	result->ndim = 1;
	result->dataoffset = 0;
	result->elemtype = FLOAT8OID;
	ARR_DIMS(result)[0] = nw;
	ARR_LBOUND(result)[0] = 1;
	fs_pg_check(fs_divide(PG_GETARG_FLOAT8(0), w, l, u, (size_t) nw, mode, &fs_pg_alloc,
	                      (double *) ((char *) result + ARR_OVERHEAD_NONULLS(1)), NULL, NULL, &err),
	            &err);
	PG_RETURN_ARRAYTYPE_P(result);
}

#define FAIR_SHARE_COLS 15

PG_FUNCTION_INFO_V1(pool_fair_share);
Datum
pool_fair_share(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_tree *t = fs_pg_read_tree(PG_GETARG_DATUM(0));
	struct varlena *cluster = PG_GETARG_VARLENA_PP(1);
	fs_divide_mode mode = MODE_ARG(2);
	fs_pool_root root =
	    (fs_pool_root) fs_pg_name_arg(PG_GETARG_TEXT_PP(3), fs_pool_root_from_name,
	                                  "root convention", "root conventions", FS_POOL_ROOTS);
	fs_pool_row *rows;
	fs_error err;
	uint32 i;

	fs_pg_check(fs_tree_prepare(t, &err), &err);
	fs_pg_check(fs_pool_fair_share(t, (const uint8_t *) VARDATA_ANY(cluster), mode, &fs_pg_alloc,
	                               &rows, &err),
	            &err);
	if (root == FS_POOL_ROOT_CHILDREN)
		fs_pool_root_from_children(t, rows);
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < fs_tree_count(t); i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		const fs_pool_row *r = &rows[i];
		Datum values[FAIR_SHARE_COLS];
		bool nulls[FAIR_SHARE_COLS];

		FS_POLL(i);
		memset(nulls, 0, sizeof(nulls));
		values[0] = fs_pg_path_datum(nd->path);
		values[1] = Int32GetDatum((int32) fs_sp_nlevel(nd->path));
		values[2] = BoolGetDatum(i > 0 && fs_tree_is_leaf(t, i));
		values[3] = Float8GetDatum(r->weight);
		values[4] = Float8GetDatum(r->min_share_ratio);
		values[5] = Float8GetDatum(r->guaranteed_share);
		values[6] = Float8GetDatum(r->usage_ratio);
		values[7] = Float8GetDatum(r->demand_ratio);
		if (r->dominant_resource)
			values[8] = PointerGetDatum(
			    cstring_to_text_with_len(r->dominant_resource, (int) r->dominant_len));
		else
			nulls[8] = true;
		values[9] = Float8GetDatum(r->max_possible_ratio);
		values[10] = Float8GetDatum(r->fair_share_ratio);
		values[11] = Float8GetDatum(r->satisfaction);
		nulls[11] = r->satisfaction_null;
		/* why: the guarantee used, the weight-proportional part, and the binding bound */
		values[12] = Float8GetDatum(r->lower_bound);
		values[13] = Float8GetDatum(r->weight_part);
		nulls[13] = i == 0 || !isfinite(r->weight_part);
		values[14] = CStringGetTextDatum(fs_bound_name(r->bound));
		nulls[14] = i == 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
