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

/* Binary form (src/core/userprio.h): version byte, m, a, g, first_usage, then the int64 times. */
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
