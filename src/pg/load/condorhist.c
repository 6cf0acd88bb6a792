/*
 * condorhist.c (glue): condor_history and condor_history_try, one row per HTCondor job ad.
 * The reading is in src/core/load/condorhist.c; each ad is built in a short-lived memory context.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load/condorhist.h"

/* ad, global_job_id, owner, accounting_group, job_status, request_cpus, request_memory,
 * request_gpus, remote_wall_clock_s, cumulative_slot_s, completion_date, attrs, line, anomalies,
 * error */
#define CH_COLS 15

static const int numeric_cols[] = {FS_CH_REQUEST_CPUS, FS_CH_REQUEST_MEMORY, FS_CH_REQUEST_GPUS,
                                   FS_CH_REMOTE_WALL_CLOCK_TIME, FS_CH_CUMULATIVE_SLOT_TIME};

/* The ad's anomalies, stored back to back with a NUL after each, as text[]. */
static Datum
anomalies_datum(const fs_ch_ad *ad)
{
	Datum *an = palloc(sizeof(Datum) * (ad->nanomalies + 1));
	const char *p = ad->anomalies;
	size_t k;

	for (k = 0; k < ad->nanomalies; k++)
	{
		size_t l = strlen(p);

		an[k] = PointerGetDatum(cstring_to_text_with_len(p, (int) l));
		p += l + 1;
	}
	return PointerGetDatum(
	    construct_array(an, (int) ad->nanomalies, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * One row per ad. A bad ad raises its error, or with try_mode gives a row of its number, line and
 * error alone; an error that belongs to no ad (the document's limits) raises in both modes.
 */
static void
condor_history_rows(FunctionCallInfo fcinfo, bool try_mode)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text *doc = PG_GETARG_TEXT_PP(0);
	MemoryContext per_ad, old;
	fs_ch_reader r;

	InitMaterializedSRF(fcinfo, 0);
	per_ad =
	    AllocSetContextCreate(CurrentMemoryContext, "condor_history ad", ALLOCSET_DEFAULT_SIZES);
	fs_ch_init(&r, VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &fs_pg_alloc);
	for (;;)
	{
		fs_ch_ad ad;
		fs_error err;
		bool done;
		fs_status st;
		Datum values[CH_COLS];
		bool nulls[CH_COLS];
		int c;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(per_ad);
		st = fs_ch_next(&r, &ad, &done, &err);
		if (done)
		{
			MemoryContextSwitchTo(old);
			break;
		}
		if (st != FS_OK && (!try_mode || ad.ad == 0))
			fs_pg_raise(&err);
		for (c = 0; c < CH_COLS; c++)
			nulls[c] = true;
		values[0] = Int32GetDatum(ad.ad);
		nulls[0] = false;
		values[12] = Int32GetDatum(ad.line);
		nulls[12] = false;
		if (st != FS_OK)
		{
			values[14] =
			    CStringGetTextDatum(psprintf("line %d: %s", (int) ad.error_line, err.detail));
			nulls[14] = false;
		}
		else
		{
			size_t k;

			if (ad.text[FS_CH_GLOBAL_JOB_ID])
			{
				values[1] = PointerGetDatum(cstring_to_text_with_len(
				    ad.text[FS_CH_GLOBAL_JOB_ID], (int) ad.textlen[FS_CH_GLOBAL_JOB_ID]));
				nulls[1] = false;
			}
			if (ad.text[FS_CH_OWNER])
			{
				values[2] = PointerGetDatum(
				    cstring_to_text_with_len(ad.text[FS_CH_OWNER], (int) ad.textlen[FS_CH_OWNER]));
				nulls[2] = false;
			}
			if (ad.accounting_group)
			{
				values[3] = fs_pg_path_datum(ad.accounting_group);
				nulls[3] = false;
			}
			if (ad.has[FS_CH_JOB_STATUS])
			{
				values[4] = Int32GetDatum((int32) ad.num[FS_CH_JOB_STATUS]);
				nulls[4] = false;
			}
			for (k = 0; k < lengthof(numeric_cols); k++)
				if (ad.has[numeric_cols[k]])
				{
					values[5 + k] = Float8GetDatum(ad.num[numeric_cols[k]]);
					nulls[5 + k] = false;
				}
			if (ad.has[FS_CH_COMPLETION_DATE])
			{
				/*
				 * exact integer arithmetic: the core keeps the seconds below the end of
				 * timestamptz, so the microseconds since 2000 fit in an int64
				 */
				TimestampTz ts =
				    (ad.completion_s -
				     (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY) *
				        USECS_PER_SEC +
				    ad.completion_us;

				values[10] = TimestampTzGetDatum(ts);
				nulls[10] = false;
			}
			values[11] = DirectFunctionCall1(jsonb_in, CStringGetDatum(ad.json));
			nulls[11] = false;
			values[13] = anomalies_datum(&ad);
			nulls[13] = false;
		}
		MemoryContextSwitchTo(old);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextReset(per_ad);
	}
	MemoryContextDelete(per_ad);
}

PG_FUNCTION_INFO_V1(condor_history);
Datum
condor_history(PG_FUNCTION_ARGS)
{
	condor_history_rows(fcinfo, false);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(condor_history_try);
Datum
condor_history_try(PG_FUNCTION_ARGS)
{
	condor_history_rows(fcinfo, true);
	return (Datum) 0;
}
