/*
 * decay.c (glue): decay, decay_step, accrued_usage, the decayed_usage type and the decayed_sum
 * aggregate. Intervals become microseconds the way EXTRACT(EPOCH FROM interval) counts them
 * (a month is 30 days, a year 365.25 days). The arithmetic is in src/core/decay.c.
 */
#include "fs_pg.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "decay.h"

#include <math.h>

#define DECAYED_BINARY_VERSION 1

static fs_decay_model
model_arg(text *name)
{
	char *s = text_to_cstring(name);
	int model = fs_decay_model_from_name(s);

	if (model < 0)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown decay model \"%s\"", s),
		         errhint("Valid models are %s.", FS_DECAY_MODELS)));
	return (fs_decay_model) model;
}

static Datum
decay_common(FunctionCallInfo fcinfo, fs_decay_model model)
{
	double out;
	fs_error err;

	fs_pg_check(fs_decay(PG_GETARG_FLOAT8(0), fs_pg_interval_us(PG_GETARG_INTERVAL_P(1), "elapsed"),
	                     fs_pg_interval_us(PG_GETARG_INTERVAL_P(2), "half_life"), model, &out,
	                     &err),
	            &err);
	PG_RETURN_FLOAT8(out);
}

PG_FUNCTION_INFO_V1(decay_exact);
Datum
decay_exact(PG_FUNCTION_ARGS)
{
	return decay_common(fcinfo, FS_DECAY_EXACT);
}

PG_FUNCTION_INFO_V1(decay_model);
Datum
decay_model(PG_FUNCTION_ARGS)
{
	return decay_common(fcinfo, model_arg(PG_GETARG_TEXT_PP(3)));
}

PG_FUNCTION_INFO_V1(decay_step);
Datum
decay_step(PG_FUNCTION_ARGS)
{
	double out;
	fs_error err;

	fs_pg_check(fs_decay_step(PG_GETARG_FLOAT8(0),
	                          fs_pg_interval_us(PG_GETARG_INTERVAL_P(1), "elapsed"),
	                          fs_pg_interval_us(PG_GETARG_INTERVAL_P(2), "period"),
	                          PG_GETARG_FLOAT8(3), PG_GETARG_FLOAT8(4), &out, &err),
	            &err);
	PG_RETURN_FLOAT8(out);
}

/* accrued_usage(rate, run_start, run_end, as_of, half_life): NULL half_life means no decay */
PG_FUNCTION_INFO_V1(accrued_usage);
Datum
accrued_usage(PG_FUNCTION_ARGS)
{
	double out;
	fs_error err;
	int i;

	for (i = 0; i < 4; i++)
		if (PG_ARGISNULL(i))
			PG_RETURN_NULL();
	fs_pg_check(
	    fs_accrued(PG_GETARG_FLOAT8(0), fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(1), "run_start"),
	               fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(2), "run_end"),
	               fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(3), "as_of"), !PG_ARGISNULL(4),
	               PG_ARGISNULL(4) ? 0 : fs_pg_interval_us(PG_GETARG_INTERVAL_P(4), "half_life"),
	               &out, &err),
	    &err);
	PG_RETURN_FLOAT8(out);
}

/* ---------------------------------------------------------------- decayed_usage */

PG_FUNCTION_INFO_V1(decayed_usage_in);
Datum
decayed_usage_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_decayed *d = palloc(sizeof(fs_decayed));
	fs_error err;

	fs_pg_check(fs_decayed_parse(s, strlen(s), d, &err), &err);
	PG_RETURN_POINTER(d);
}

PG_FUNCTION_INFO_V1(decayed_usage_out);
Datum
decayed_usage_out(PG_FUNCTION_ARGS)
{
	fs_sb sb;

	fs_sb_init(&sb, &fs_pg_alloc, 64);
	fs_decayed_format(&sb, (const fs_decayed *) PG_GETARG_POINTER(0));
	PG_RETURN_CSTRING(sb.data);
}

/* Binary form: version byte, float8 value, int64 instant, int64 half-life in microseconds. */
PG_FUNCTION_INFO_V1(decayed_usage_recv);
Datum
decayed_usage_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	fs_decayed *d = palloc(sizeof(fs_decayed));
	int version = pq_getmsgbyte(buf);

	if (version != DECAYED_BINARY_VERSION)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		         errmsg("unsupported binary format version %d for type decayed_usage", version)));
	d->value = pq_getmsgfloat8(buf);
	d->at = pq_getmsgint64(buf);
	d->half_life = pq_getmsgint64(buf);
	if (!isfinite(d->value) || d->half_life <= 0 || TIMESTAMP_NOT_FINITE(d->at))
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("invalid binary value for type decayed_usage"),
		                errdetail("The value must be finite, the instant finite and the half-life "
		                          "positive.")));
	if (d->value == 0)
		d->value = 0;
	PG_RETURN_POINTER(d);
}

PG_FUNCTION_INFO_V1(decayed_usage_send);
Datum
decayed_usage_send(PG_FUNCTION_ARGS)
{
	const fs_decayed *d = (const fs_decayed *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, DECAYED_BINARY_VERSION);
	pq_sendfloat8(&buf, d->value);
	pq_sendint64(&buf, d->at);
	pq_sendint64(&buf, d->half_life);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* A state to update: our own inside an aggregate, otherwise a copy. */
static fs_decayed *
decayed_state(FunctionCallInfo fcinfo)
{
	fs_decayed *d = (fs_decayed *) PG_GETARG_POINTER(0);
	fs_decayed *copy;

	if (AggCheckCallContext(fcinfo, NULL))
		return d;
	copy = palloc(sizeof(fs_decayed));
	*copy = *d;
	return copy;
}

/* decayed_sum(usage, at, half_life) transition: rows with a NULL leave the state as it is */
PG_FUNCTION_INFO_V1(decayed_sum_accum);
Datum
decayed_sum_accum(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx;
	fs_decayed *d;
	int64 at, hl;
	fs_error err;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "decayed_sum_accum called in non-aggregate context");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		return fs_pg_keep_state(fcinfo);
	at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(2), "at");
	hl = fs_pg_interval_us(PG_GETARG_INTERVAL_P(3), "half_life");
	if (PG_ARGISNULL(0))
	{
		fs_pg_check(fs_check_positive_duration(hl, "half_life", &err), &err);
		d = MemoryContextAlloc(aggctx, sizeof(fs_decayed));
		d->value = 0;
		d->at = at;
		d->half_life = hl;
	}
	else
		d = (fs_decayed *) PG_GETARG_POINTER(0);
	fs_pg_check(fs_decayed_add(d, PG_GETARG_FLOAT8(1), at, hl, &err), &err);
	PG_RETURN_POINTER(d);
}

PG_FUNCTION_INFO_V1(decayed_usage_combine);
Datum
decayed_usage_combine(PG_FUNCTION_ARGS)
{
	fs_decayed *d = decayed_state(fcinfo);
	fs_error err;

	fs_pg_check(fs_decayed_combine(d, (const fs_decayed *) PG_GETARG_POINTER(1), &err), &err);
	PG_RETURN_POINTER(d);
}

PG_FUNCTION_INFO_V1(decayed_usage_value);
Datum
decayed_usage_value(PG_FUNCTION_ARGS)
{
	double out;
	fs_error err;

	fs_pg_check(fs_decayed_value((const fs_decayed *) PG_GETARG_POINTER(0),
	                             fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(1), "as_of"), &out, &err),
	            &err);
	PG_RETURN_FLOAT8(out);
}
