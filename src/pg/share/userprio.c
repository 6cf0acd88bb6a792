/*
 * userprio.c (glue): the userprio_state type, the userprio and userprio_state aggregates
 * (HTCondor's real user priority), userprio_report (what condor_userprio prints) and pie_spin.
 * The recurrence, its composition, the report and the pie spin are in src/core/share/userprio.c.
 */
#include "fs_pg.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/timestamp.h"

#include "share/userprio.h"

#include <math.h>

PG_FUNCTION_INFO_V1(userprio_state_in);
Datum
userprio_state_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_userprio *u = palloc(sizeof(fs_userprio));
	fs_error err;

	if (!fs_pg_input_check(fs_userprio_parse(s, strlen(s), u, &err), &err, fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(userprio_state_out);
Datum
userprio_state_out(PG_FUNCTION_ARGS)
{
	fs_sb sb;

	fs_sb_init(&sb, &fs_pg_alloc, 96);
	fs_userprio_format(&sb, (const fs_userprio *) PG_GETARG_POINTER(0));
	PG_RETURN_CSTRING(sb.data);
}

/* Binary form (src/core/share/userprio.h): version byte, the map, the times, then the usage. */
PG_FUNCTION_INFO_V1(userprio_state_recv);
Datum
userprio_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	int len = buf->len - buf->cursor;
	fs_userprio *u = palloc(sizeof(fs_userprio));
	fs_error err;

	fs_pg_check(
	    fs_userprio_decode((const uint8_t *) pq_getmsgbytes(buf, len), (size_t) len, u, &err),
	    &err);
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(userprio_state_send);
Datum
userprio_state_send(PG_FUNCTION_ARGS)
{
	uint8_t out[FS_USERPRIO_BINARY_LEN];
	StringInfoData buf;

	fs_userprio_encode((const fs_userprio *) PG_GETARG_POINTER(0), out);
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) out, FS_USERPRIO_BINARY_LEN);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* userprio(weighted_in_use, at, half_life) transition: rows with a NULL are skipped */
PG_FUNCTION_INFO_V1(userprio_accum);
Datum
userprio_accum(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx;
	fs_userprio *u;
	TimestampTz at;
	fs_error err;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "userprio_accum called in non-aggregate context");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		return fs_pg_keep_state(fcinfo);
	at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(2), "at");
	if (PG_ARGISNULL(0))
	{
		u = MemoryContextAlloc(aggctx, sizeof(fs_userprio));
		fs_pg_check(fs_userprio_start(u, PG_GETARG_FLOAT8(1), at,
		                              fs_pg_interval_us(PG_GETARG_INTERVAL_P(3), "half_life"),
		                              &err),
		            &err);
	}
	else
	{
		u = (fs_userprio *) PG_GETARG_POINTER(0);
		fs_pg_check(fs_userprio_add(u, PG_GETARG_FLOAT8(1), at,
		                            fs_pg_interval_us(PG_GETARG_INTERVAL_P(3), "half_life"), &err),
		            &err);
	}
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(userprio_combine);
Datum
userprio_combine(PG_FUNCTION_ARGS)
{
	fs_userprio *u = (fs_userprio *) PG_GETARG_POINTER(0);
	fs_error err;

	if (!AggCheckCallContext(fcinfo, NULL))
	{
		fs_userprio *copy = palloc(sizeof(fs_userprio));

		*copy = *u;
		u = copy;
	}
	fs_pg_check(fs_userprio_combine(u, (const fs_userprio *) PG_GETARG_POINTER(1), &err), &err);
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(userprio_final);
Datum
userprio_final(PG_FUNCTION_ARGS)
{
	double out;
	fs_error err;

	fs_pg_check(fs_userprio_value((const fs_userprio *) PG_GETARG_POINTER(0), &out, &err), &err);
	PG_RETURN_FLOAT8(out);
}

/* userprio_state aggregate: the state itself, to store, combine later or report on */
PG_FUNCTION_INFO_V1(userprio_state_final);
Datum
userprio_state_final(PG_FUNCTION_ARGS)
{
	fs_userprio *copy = palloc(sizeof(fs_userprio));

	*copy = *(const fs_userprio *) PG_GETARG_POINTER(0);
	PG_RETURN_POINTER(copy);
}

/* An instant of the core (a timestamptz's microseconds) as a timestamptz, or NULL for never. */
static Datum
instant_datum(int64_t at, bool *isnull)
{
	*isnull = at == FS_USERPRIO_NEVER;
	return *isnull ? (Datum) 0 : TimestampTzGetDatum((TimestampTz) at);
}

#define REPORT_COLS 10

/* userprio_report(state, priority_factor): one row, as condor_userprio -l prints a submitter */
PG_FUNCTION_INFO_V1(userprio_report);
Datum
userprio_report(PG_FUNCTION_ARGS)
{
	const fs_userprio *u = (const fs_userprio *) PG_GETARG_POINTER(0);
	fs_userprio_report r;
	fs_error err;
	TupleDesc desc;
	Datum values[REPORT_COLS];
	bool nulls[REPORT_COLS] = {false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "userprio_report must return a row");
	fs_pg_check(fs_userprio_report_of(u, PG_GETARG_FLOAT8(1), &r, &err), &err);
	values[0] = Float8GetDatum(r.effective_priority);
	values[1] = Float8GetDatum(r.real_priority);
	values[2] = Float8GetDatum(r.priority_factor);
	values[3] = Float8GetDatum(r.weighted_in_use);
	values[4] = Float8GetDatum(r.weighted_hours);
	values[5] = Float8GetDatum(r.weighted_usage);
	values[6] = instant_datum(r.usage_start, &nulls[6]);
	values[7] = instant_datum(r.last_usage, &nulls[7]);
	values[8] = instant_datum(r.last_update, &nulls[8]);
	if (nulls[7])
		nulls[9] = true;
	else
	{
		Interval *since = palloc0(sizeof(Interval));

		/* valid instants span 4713 BC to 294276 AD, more microseconds than an int64 holds */
		if (pg_sub_s64_overflow(r.last_update, r.last_usage, &since->time))
			ereport(ERROR,
			        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("interval out of range"),
			         errdetail("The time from the last usage to the last update does not "
			                   "fit in an interval."),
			         errhint("Keep the samples of one state within about 292,000 years.")));
		values[9] = IntervalPGetDatum(since);
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* pie_spin(submitters, effective_priorities): each submitter's slice, in input order */
PG_FUNCTION_INFO_V1(pie_spin);
Datum
pie_spin(PG_FUNCTION_ARGS)
{
	ArrayType *names_arr = PG_GETARG_ARRAYTYPE_P(0), *eup_arr = PG_GETARG_ARRAYTYPE_P(1);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum *names, *eups;
	bool *nn, *en;
	int n, ne, i;
	const char **np;
	size_t *lens;
	double *eup, *share;
	fs_error err;

	fs_pg_check_1d(names_arr, "submitters");
	fs_pg_check_1d(eup_arr, "effective_priorities");
	deconstruct_array(names_arr, TEXTOID, -1, false, TYPALIGN_INT, &names, &nn, &n);
	deconstruct_array(eup_arr, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &eups, &en, &ne);
	if (n != ne)
		ereport(ERROR,
		        (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		         errmsg("pie_spin has %d %s and %d %s", n,
		                fs_plural((uint64) n, "submitter", "submitters"), ne,
		                fs_plural((uint64) ne, "effective priority", "effective priorities")),
		         errhint("Give one effective priority per submitter, in the same order.")));
	np = palloc(sizeof(char *) * (n > 0 ? n : 1));
	lens = palloc(sizeof(size_t) * (n > 0 ? n : 1));
	eup = palloc(sizeof(double) * (n > 0 ? n : 1));
	share = palloc(sizeof(double) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (nn[i] || en[i])
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			         errmsg("%s[%d] is NULL", nn[i] ? "submitters" : "effective_priorities", i + 1),
			         errhint("Give every submitter a name and an effective priority.")));
		np[i] = VARDATA_ANY(DatumGetTextPP(names[i]));
		lens[i] = VARSIZE_ANY_EXHDR(DatumGetTextPP(names[i]));
		eup[i] = DatumGetFloat8(eups[i]);
	}
	fs_pg_check(fs_pie_spin(np, lens, eup, (size_t) n, &fs_pg_alloc, share, &err), &err);
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < n; i++)
	{
		Datum values[2];
		bool nulls[2] = {false, false};

		FS_POLL(i);
		values[0] = PointerGetDatum(cstring_to_text_with_len(np[i], (int) lens[i]));
		values[1] = Float8GetDatum(share[i]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
