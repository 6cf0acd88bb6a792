/*
 * userprio.c (glue): the userprio_state type and the userprio aggregate (HTCondor's real user
 * priority). The recurrence and its composition are in src/core/userprio.c.
 */
#include "fs_pg.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "userprio.h"

#include <math.h>

#define USERPRIO_BINARY_VERSION 1

PG_FUNCTION_INFO_V1(userprio_state_in);
Datum
userprio_state_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_userprio *u = palloc(sizeof(fs_userprio));
	fs_error err;

	fs_pg_check(fs_userprio_parse(s, strlen(s), u, &err), &err);
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

/* Binary form: version byte, then m, a, g, first_usage (float8) and the three int64 times. */
PG_FUNCTION_INFO_V1(userprio_state_recv);
Datum
userprio_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	fs_userprio *u = palloc(sizeof(fs_userprio));
	int version = pq_getmsgbyte(buf);

	if (version != USERPRIO_BINARY_VERSION)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		         errmsg("unsupported binary format version %d for type userprio_state", version)));
	u->m = pq_getmsgfloat8(buf);
	u->a = pq_getmsgfloat8(buf);
	u->g = pq_getmsgfloat8(buf);
	u->first_usage = pq_getmsgfloat8(buf);
	u->first_at = pq_getmsgint64(buf);
	u->last_at = pq_getmsgint64(buf);
	u->half_life = pq_getmsgint64(buf);
	if (!isfinite(u->m) || !isfinite(u->g) || !(u->a >= 0 && u->a <= 1) || !(u->first_usage >= 0) ||
	    !isfinite(u->first_usage) || u->half_life <= 0 || u->last_at < u->first_at)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("invalid binary value for type userprio_state")));
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(userprio_state_send);
Datum
userprio_state_send(PG_FUNCTION_ARGS)
{
	const fs_userprio *u = (const fs_userprio *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, USERPRIO_BINARY_VERSION);
	pq_sendfloat8(&buf, u->m);
	pq_sendfloat8(&buf, u->a);
	pq_sendfloat8(&buf, u->g);
	pq_sendfloat8(&buf, u->first_usage);
	pq_sendint64(&buf, u->first_at);
	pq_sendint64(&buf, u->last_at);
	pq_sendint64(&buf, u->half_life);
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
	PG_RETURN_FLOAT8(fs_userprio_value((const fs_userprio *) PG_GETARG_POINTER(0)));
}
