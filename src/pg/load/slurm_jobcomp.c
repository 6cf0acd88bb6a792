/*
 * slurm_jobcomp.c (glue): slurm_jobcomp, one line of Slurm's jobcomp/filetxt completion log as a
 * fairsched.sacct_record (slurm_jobcomp_try: the reason in error instead). The header the lines are
 * written against is parsed once per call site and kept in fn_extra; the mapping is in
 * src/core/load/slurm_jobcomp.c.
 */
#include "fs_pg.h"

#include "load/sacct_glue.h"
#include "load/slurm_jobcomp.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* slurm_jobcomp raises the error of a bad line; slurm_jobcomp_try returns it in the error column.
 * An unknown time zone raises in both. */
static Datum
slurm_jobcomp_common(FunctionCallInfo fcinfo, bool try_only)
{
	text *line = PG_GETARG_TEXT_PP(0);
	const char *tzname;
	pg_tz *tz = fs_pg_sacct_zone(fcinfo, 1, "sacct", &tzname);
	fs_slurm_jobcomp *jc = fcinfo->flinfo->fn_extra;
	TupleDesc desc;
	Datum v[SACCT_NATTS];
	bool n[SACCT_NATTS];
	fs_sacct_record rec;
	fs_error err;
	fs_status st;
	MemoryContext old;
	Datum d;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "slurm_jobcomp must return a composite type");
	desc = BlessTupleDesc(desc);
	if (desc->natts != SACCT_NATTS)
		elog(ERROR, "fairsched.sacct_record has %d attributes, expected %d", desc->natts,
		     SACCT_NATTS);
	/* the header and the row buffer live as long as the call site; the record is freed below */
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	if (jc == NULL)
	{
		jc = palloc0(sizeof(*jc));
		st = fs_slurm_jobcomp_init(jc, &fs_pg_alloc, &err);
		if (st != FS_OK)
		{
			MemoryContextSwitchTo(old);
			fs_pg_raise(&err);
		}
		fcinfo->flinfo->fn_extra = jc;
	}
	st = fs_slurm_jobcomp_parse(jc, VARDATA_ANY(line), VARSIZE_ANY_EXHDR(line), &fs_pg_alloc, &rec,
	                            &err);
	MemoryContextSwitchTo(old);
	if (st != FS_OK)
	{
		if (!try_only)
			fs_pg_raise(&err);
		fs_pg_sacct_values(
		    NULL, tz, tzname,
		    err.detail[0] ? psprintf("%s: %s", err.message, err.detail) : err.message, v, n);
		return HeapTupleGetDatum(heap_form_tuple(desc, v, n));
	}
	fs_pg_sacct_values(&rec, tz, tzname, NULL, v, n);
	/* the record has no Elapsed: sacct prints End - Start for a finished job */
	if (n[22] && !n[20] && !n[21])
	{
		v[22] = Float8GetDatum((double) (DatumGetTimestampTz(v[21]) - DatumGetTimestampTz(v[20])) /
		                       USECS_PER_SEC);
		n[22] = false;
	}
	d = HeapTupleGetDatum(heap_form_tuple(desc, v, n));
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	fs_sacct_record_free(&rec, &fs_pg_alloc);
	MemoryContextSwitchTo(old);
	return d;
}

PG_FUNCTION_INFO_V1(slurm_jobcomp);
Datum
slurm_jobcomp(PG_FUNCTION_ARGS)
{
	return slurm_jobcomp_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(slurm_jobcomp_try);
Datum
slurm_jobcomp_try(PG_FUNCTION_ARGS)
{
	return slurm_jobcomp_common(fcinfo, true);
}
