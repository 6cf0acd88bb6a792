/*
 * pbs_usage.c (glue): pbs_usage, the PBS fairshare_usage_res formula over a resvec (the
 * evaluator is in src/core/load/pbs_usage.c on types/pbs_formula.c). The compiled formula is
 * cached in fn_extra: a query compiles it once, however many rows it reads.
 */
#include "fs_pg.h"

#include "load/pbs_usage.h"

#include "utils/memutils.h"

typedef struct usage_cache
{
	MemoryContext cxt; /* holds prog and vals; reset when the formula changes */
	fs_pf_prog *prog;  /* NULL until a formula compiled */
	double *vals;
} usage_cache;

/* The compiled formula, from the cache when the text is the last one's. */
static usage_cache *
cached_usage(FunctionCallInfo fcinfo, text *formula)
{
	usage_cache *uc = (usage_cache *) fcinfo->flinfo->fn_extra;
	const char *s = VARDATA_ANY(formula);
	size_t len = VARSIZE_ANY_EXHDR(formula), plen;
	MemoryContext old;
	fs_error err;
	fs_status st;

	if (uc && uc->prog)
	{
		const char *t = fs_pf_text(uc->prog, &plen);

		if (plen == len && memcmp(t, s, len) == 0)
			return uc;
	}
	if (uc == NULL)
	{
		uc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(usage_cache));
		uc->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pbs_usage formula",
		                                ALLOCSET_SMALL_SIZES);
		fcinfo->flinfo->fn_extra = uc;
	}
	uc->prog = NULL;
	MemoryContextReset(uc->cxt);
	old = MemoryContextSwitchTo(uc->cxt);
	st = fs_pbs_usage_compile(s, len, &fs_pg_alloc, &uc->prog, &uc->vals, &err);
	MemoryContextSwitchTo(old);
	if (st != FS_OK)
		uc->prog = NULL;
	fs_pg_check(st, &err);
	return uc;
}

PG_FUNCTION_INFO_V1(pbs_usage);
Datum
pbs_usage(PG_FUNCTION_ARGS)
{
	text *formula = PG_GETARG_TEXT_PP(0);
	struct varlena *used = PG_GETARG_VARLENA_PP(1);
	usage_cache *uc = cached_usage(fcinfo, formula);
	double v;
	fs_error err;

	fs_pg_check(fs_pbs_usage_run(uc->prog, uc->vals, (const uint8_t *) VARDATA_ANY(used), &v, &err),
	            &err);
	PG_RETURN_FLOAT8(v);
}
