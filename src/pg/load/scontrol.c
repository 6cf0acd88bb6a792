/*
 * scontrol.c (glue): scontrol_show, `scontrol show job|partition|node|config` output as one jsonb
 * object per record; the reading is in src/core/load/scontrol.c.
 */
#include "fs_pg.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "load/scontrol.h"

PG_FUNCTION_INFO_V1(scontrol_show);

static void
push_text(JsonbParseState **st, JsonbIteratorToken tok, const char *s, size_t len)
{
	JsonbValue v;

	v.type = jbvString;
	v.val.string.val = (char *) s;
	v.val.string.len = (int) len;
	pushJsonbValue(st, tok, &v);
}

Datum
scontrol_show(PG_FUNCTION_ARGS)
{
	text *doc = PG_GETARG_TEXT_PP(0);
	const char *t = VARDATA_ANY(doc);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_scontrol_attr *v;
	fs_error err;
	size_t n, i = 0;

	fs_pg_check(fs_scontrol_parse(t, VARSIZE_ANY_EXHDR(doc), &v, &n, &fs_pg_alloc, &err), &err);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	while (i < n)
	{
		JsonbParseState *st = NULL;
		JsonbValue *res;
		size_t rec = v[i].record;
		Datum values[2];
		bool nulls[2] = {false, false};

		CHECK_FOR_INTERRUPTS();
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		for (; i < n && v[i].record == rec; i++)
		{
			push_text(&st, WJB_KEY, t + v[i].key_off, v[i].key_len);
			push_text(&st, WJB_VALUE, t + v[i].val_off, v[i].val_len);
		}
		res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
		values[0] = Int32GetDatum((int32) rec);
		values[1] = JsonbPGetDatum(JsonbValueToJsonb(res));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
