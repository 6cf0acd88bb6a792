/*
 * pbs_usage.c (glue): pbs_usage, the PBS fairshare_usage_res formula over a resvec (the
 * evaluator is in src/core/load/pbs_usage.c).
 */
#include "fs_pg.h"

#include "load/pbs_usage.h"

PG_FUNCTION_INFO_V1(pbs_usage);
Datum
pbs_usage(PG_FUNCTION_ARGS)
{
	text *formula = PG_GETARG_TEXT_PP(0);
	struct varlena *used = PG_GETARG_VARLENA_PP(1);
	double v;
	fs_error err;

	fs_pg_check(fs_pbs_usage(VARDATA_ANY(formula), VARSIZE_ANY_EXHDR(formula),
	                         (const uint8_t *) VARDATA_ANY(used), &fs_pg_alloc, &v, &err),
	            &err);
	PG_RETURN_FLOAT8(v);
}
