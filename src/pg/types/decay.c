/*
 * decay.c (glue): decay, decay_step, accrued_usage, the decayed_usage type and the decayed_sum
 * aggregate. Intervals become microseconds the way EXTRACT(EPOCH FROM interval) counts them
 * (a month is 30 days, a year 365.25 days). The arithmetic is in src/core/types/decay.c.
 */
#include "fs_pg.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "types/decay.h"

#include "common/int.h"

#include <math.h>

/*
 * An interval as fs_pg_interval_us counts it, but never out of range: exact microseconds when
 * they fit in int64, else the same sum in doubles (an interval reaches 178 million years).
 */
static fs_duration
interval_duration(const Interval *iv)
{
	int64 days = (int64) iv->month % MONTHS_PER_YEAR * DAYS_PER_MONTH + iv->day;
	int64 years = iv->month / MONTHS_PER_YEAR;
	int64 us, year_us;

	if (!pg_mul_s64_overflow(days, USECS_PER_DAY, &us) &&
	    !pg_mul_s64_overflow(years, INT64CONST(36525) * (USECS_PER_DAY / 100), &year_us) &&
	    !pg_add_s64_overflow(us, year_us, &us) && !pg_add_s64_overflow(us, iv->time, &us))
		return fs_duration_exact(us);
	return fs_duration_approx((double) years * 365.25 * USECS_PER_DAY +
	                          (double) days * USECS_PER_DAY + (double) iv->time);
}

static Datum
decay_common(FunctionCallInfo fcinfo, fs_decay_model model)
{
	double out;
	fs_error err;

	fs_pg_check(fs_decay(PG_GETARG_FLOAT8(0), interval_duration(PG_GETARG_INTERVAL_P(1)),
	                     interval_duration(PG_GETARG_INTERVAL_P(2)), model, &out, &err),
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
	return decay_common(
	    fcinfo, (fs_decay_model) fs_pg_name_arg(PG_GETARG_TEXT_PP(3), fs_decay_model_from_name,
	                                            "decay model", "models", FS_DECAY_MODELS));
}

PG_FUNCTION_INFO_V1(decay_step);
Datum
decay_step(PG_FUNCTION_ARGS)
{
	double out;
	fs_error err;

	fs_pg_check(fs_decay_step(PG_GETARG_FLOAT8(0), interval_duration(PG_GETARG_INTERVAL_P(1)),
	                          interval_duration(PG_GETARG_INTERVAL_P(2)), PG_GETARG_FLOAT8(3),
	                          PG_GETARG_FLOAT8(4), &out, &err),
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

	if (!fs_pg_input_check(fs_decayed_parse(s, strlen(s), d, &err), &err, fcinfo->context))
		PG_RETURN_NULL();
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

/* Binary form (src/core/types/decay.h): version byte, float8 value, int64 instant and half-life. */
PG_FUNCTION_INFO_V1(decayed_usage_recv);
Datum
decayed_usage_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	int len = buf->len - buf->cursor;
	fs_decayed *d = palloc(sizeof(fs_decayed));
	fs_error err;

	fs_pg_check(
	    fs_decayed_decode((const uint8_t *) pq_getmsgbytes(buf, len), (size_t) len, d, &err), &err);
	PG_RETURN_POINTER(d);
}

PG_FUNCTION_INFO_V1(decayed_usage_send);
Datum
decayed_usage_send(PG_FUNCTION_ARGS)
{
	uint8_t out[FS_DECAYED_BINARY_LEN];
	StringInfoData buf;

	fs_decayed_encode((const fs_decayed *) PG_GETARG_POINTER(0), out);
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) out, FS_DECAYED_BINARY_LEN);
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

/* ---------------------------------------------------------------- live state: one charge */

/* The half-life argument `argno` as the model `model_argno` decays (exact when out of range). */
static int64
model_half_life(FunctionCallInfo fcinfo, int argno, int model_argno)
{
	int64 hl = fs_pg_interval_us(PG_GETARG_INTERVAL_P(argno), "half_life");
	fs_decay_model model = FS_DECAY_EXACT;
	fs_error err;

	if (model_argno < PG_NARGS())
		model = (fs_decay_model) fs_pg_name_arg(PG_GETARG_TEXT_PP(model_argno),
		                                        fs_decay_model_from_name, "decay model", "models",
		                                        FS_DECAY_MODELS);
	fs_pg_check(fs_decay_half_life(hl, model, &hl, &err), &err);
	return hl;
}

/* decayed_usage(value, at, half_life [, model]): one charge, to add to a stored usage */
PG_FUNCTION_INFO_V1(decayed_usage_make);
Datum
decayed_usage_make(PG_FUNCTION_ARGS)
{
	fs_decayed *d = palloc(sizeof(fs_decayed));
	int64 hl = model_half_life(fcinfo, 2, 3);
	fs_error err;

	fs_pg_check(fs_decayed_make(PG_GETARG_FLOAT8(0),
	                            fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(1), "at"), hl, d, &err),
	            &err);
	PG_RETURN_POINTER(d);
}

/* decayed_charge(rate, run_start, run_end, half_life [, model]): a run's exact charge at its end */
PG_FUNCTION_INFO_V1(decayed_charge);
Datum
decayed_charge(PG_FUNCTION_ARGS)
{
	fs_decayed *d = palloc(sizeof(fs_decayed));
	int64 hl = model_half_life(fcinfo, 3, 4);
	int64 start = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(1), "run_start");
	int64 end = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(2), "run_end");
	double v;
	fs_error err;

	fs_pg_check(fs_accrued(PG_GETARG_FLOAT8(0), start, end, end, true, hl, &v, &err), &err);
	fs_pg_check(fs_decayed_make(v, end, hl, d, &err), &err);
	PG_RETURN_POINTER(d);
}

/* with_half_life(d, half_life [, model]): the same value at the same instant, decaying anew */
PG_FUNCTION_INFO_V1(decayed_usage_with_half_life);
Datum
decayed_usage_with_half_life(PG_FUNCTION_ARGS)
{
	const fs_decayed *in = (const fs_decayed *) PG_GETARG_POINTER(0);
	fs_decayed *d = palloc(sizeof(fs_decayed));
	int64 hl = model_half_life(fcinfo, 1, 2);
	fs_error err;

	fs_pg_check(fs_decayed_make(in->value, in->at, hl, d, &err), &err);
	PG_RETURN_POINTER(d);
}

/* half_life(d): the half-life a stored usage decays with, so a charge can match it */
PG_FUNCTION_INFO_V1(decayed_usage_half_life);
Datum
decayed_usage_half_life(PG_FUNCTION_ARGS)
{
	const fs_decayed *d = (const fs_decayed *) PG_GETARG_POINTER(0);
	Interval *iv = palloc0(sizeof(Interval));

	iv->time = d->half_life;
	PG_RETURN_INTERVAL_P(iv);
}

/* last_instant(d): the instant its value is as of (the latest charge) */
PG_FUNCTION_INFO_V1(decayed_usage_last_instant);
Datum
decayed_usage_last_instant(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ((TimestampTz) ((const fs_decayed *) PG_GETARG_POINTER(0))->at);
}
