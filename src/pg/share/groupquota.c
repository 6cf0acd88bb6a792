/*
 * groupquota.c (glue): group_quotas(groups, quotas, dynamic, accept_surplus, demand, pool,
 * autoregroup, none_demand, use_slot_weights, allow_quota_oversubscription), HTCondor's
 * hierarchical group quota allocation.
 * The allocation is in src/core/share/groupquota.c.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "share/groupquota.h"

/* the elements of a one-dimensional array argument, none of them NULL */
static Datum *
elements(FunctionCallInfo fcinfo, int arg, Oid type, const char *what, const char *hint, int *n)
{
	ArrayType *arr = PG_GETARG_ARRAYTYPE_P(arg);
	Datum *elems;
	bool *nulls;
	int i;

	fs_pg_check_1d(arr, what);
	if (type == TEXTOID)
		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, n);
	else if (type == FLOAT8OID)
		deconstruct_array(arr, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, &nulls, n);
	else
		deconstruct_array(arr, BOOLOID, 1, true, TYPALIGN_CHAR, &elems, &nulls, n);
	for (i = 0; i < *n; i++)
	{
		FS_POLL(i);
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("%s[%d] is NULL", what, i + 1), errhint("%s", hint)));
	}
	return elems;
}

#define GROUP_QUOTA_COLS 6

PG_FUNCTION_INFO_V1(group_quotas);
Datum
group_quotas(PG_FUNCTION_ARGS)
{
	Datum *names, *quotas, *dynamic, *accept, *demand, *autoregroup = NULL;
	int n, nq, nd, na, nm, nr = 0, i;
	fs_gq_group *groups;
	fs_gq_options opt;
	fs_gq_row *rows;
	size_t nrows, k;
	fs_error err;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	/* as a STRICT function would, except that autoregroup may be NULL (no group has it) */
	for (i = 0; i < PG_NARGS(); i++)
		if (i != 6 && PG_ARGISNULL(i))
			return (Datum) 0;
	names = elements(fcinfo, 0, TEXTOID, "groups", "Name every group, as GROUP_NAMES does.", &n);
	quotas = elements(fcinfo, 1, FLOAT8OID, "quotas",
	                  "Give 0 for a group without a quota (HTCondor's default).", &nq);
	dynamic =
	    elements(fcinfo, 2, BOOLOID, "dynamic",
	             "Give false for GROUP_QUOTA_<g> (slots), true for GROUP_QUOTA_DYNAMIC_<g>.", &nd);
	accept =
	    elements(fcinfo, 3, BOOLOID, "accept_surplus",
	             "Give GROUP_ACCEPT_SURPLUS (false by default) for groups without their own.", &na);
	demand = elements(fcinfo, 4, FLOAT8OID, "demand",
	                  "Give 0 for a group that has no running or idle jobs.", &nm);
	if (!PG_ARGISNULL(6))
		autoregroup = elements(fcinfo, 6, BOOLOID, "autoregroup",
		                       "Give GROUP_AUTOREGROUP (false by default) for groups without "
		                       "their own, or pass NULL for no autoregroup at all.",
		                       &nr);
	if (nq != n || nd != n || na != n || nm != n || (autoregroup && nr != n))
		ereport(ERROR,
		        (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		         errmsg("group_quotas arrays have different lengths: %d %s, %d %s, %d dynamic, %d "
		                "accept_surplus, %d demand%s",
		                n, fs_plural((uint64) n, "group", "groups"), nq,
		                fs_plural((uint64) nq, "quota", "quotas"), nd, na, nm,
		                autoregroup ? psprintf(", %d autoregroup", nr) : ""),
		         errhint("Give one element per group in every array.")));
	groups = palloc(sizeof(fs_gq_group) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		text *name = DatumGetTextPP(names[i]);

		FS_POLL(i);
		groups[i].name = VARDATA_ANY(name);
		groups[i].namelen = VARSIZE_ANY_EXHDR(name);
		groups[i].quota = DatumGetFloat8(quotas[i]);
		groups[i].dynamic = DatumGetBool(dynamic[i]);
		groups[i].accept_surplus = DatumGetBool(accept[i]);
		groups[i].autoregroup = autoregroup ? DatumGetBool(autoregroup[i]) : false;
		groups[i].demand = DatumGetFloat8(demand[i]);
	}
	opt.pool = PG_GETARG_FLOAT8(5);
	opt.none_demand = PG_GETARG_FLOAT8(7);
	opt.use_slot_weights = PG_GETARG_BOOL(8);
	/* the 0.1.0 declaration, before ALTER EXTENSION UPDATE, has no tenth argument: it keeps
	 * 0.1.0's behaviour (static quotas scaled down to fit) */
	opt.allow_oversubscription = PG_NARGS() > 9 ? PG_GETARG_BOOL(9) : false;
	fs_pg_check(fs_group_quotas(groups, (size_t) n, &opt, &fs_pg_alloc, &rows, &nrows, &err), &err);
	for (k = 0; k < nrows; k++)
	{
		const fs_gq_row *r = &rows[k];
		Datum values[GROUP_QUOTA_COLS];
		bool nulls[GROUP_QUOTA_COLS] = {false};

		FS_POLL(k);
		values[0] = r->group == SIZE_MAX
		                ? CStringGetTextDatum(FS_GQ_ROOT_NAME)
		                : PointerGetDatum(cstring_to_text_with_len(groups[r->group].name,
		                                                           (int) groups[r->group].namelen));
		values[1] = Float8GetDatum(r->quota);
		values[2] = Float8GetDatum(r->surplus);
		values[3] = Float8GetDatum(r->allocated);
		values[4] = Float8GetDatum(r->subtree_quota);
		values[5] = Float8GetDatum(r->requested);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
