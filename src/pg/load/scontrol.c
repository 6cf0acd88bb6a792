/*
 * scontrol.c (glue): scontrol_show, `scontrol show job|partition|node|config` output as one jsonb
 * object per record; the reading is in src/core/load/scontrol.c.
 */
#include "fs_pg.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "load/jsonb_build.h"
#include "load/scontrol.h"

PG_FUNCTION_INFO_V1(scontrol_show);

Datum
scontrol_show(PG_FUNCTION_ARGS)
{
	text *doc = PG_GETARG_TEXT_PP(0);
	const char *t = VARDATA_ANY(doc);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_scontrol_attr *v;
	fs_pg_jpair *jp;
	fs_error err;
	size_t n, i = 0;

	fs_pg_check(fs_scontrol_parse(t, VARSIZE_ANY_EXHDR(doc), &v, &n, &fs_pg_alloc, &err), &err);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	jp = fs_pg_alloc.alloc(fs_pg_alloc.ctx, Max(n, 1) * sizeof(fs_pg_jpair)); /* 54000 past 1 GB */
	while (i < n)
	{
		size_t rec = v[i].record, m = 0;
		Datum values[2];
		bool nulls[2] = {false, false};

		CHECK_FOR_INTERRUPTS();
		for (; i < n && v[i].record == rec; i++, m++)
			jp[m] = (fs_pg_jpair){t + v[i].key_off, v[i].key_len, t + v[i].val_off, v[i].val_len};
		values[0] = Int32GetDatum((int32) rec);
		values[1] = fs_pg_jsonb_object(jp, m); /* a repeated key keeps its last value */
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
