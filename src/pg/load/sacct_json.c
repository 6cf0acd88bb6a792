/*
 * sacct_json.c (glue): sacct_json, the jobs and steps of a `sacct --json` document as
 * fairsched.sacct_record rows. The jsonb value is turned into the core's JSON tree with
 * JsonbIterator (strings point into the detoasted value, numbers are their numeric text); the
 * mapping is in src/core/load/sacct_json.c. pbs_qstat_json shares the tree (fs_pg_jsonb_tree).
 */
#include "fs_pg.h"

#include "load/json_glue.h"
#include "load/sacct_glue.h"
#include "load/sacct_json.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/* A scalar jsonb value as a tree leaf. */
static void
scalar(const JsonbValue *v, fs_json *out)
{
	memset(out, 0, sizeof(*out));
	switch (v->type)
	{
		case jbvNull:
			out->kind = FS_JSON_NULL;
			break;
		case jbvBool:
			out->kind = v->val.boolean ? FS_JSON_TRUE : FS_JSON_FALSE;
			break;
		case jbvString:
			out->kind = FS_JSON_STRING;
			out->str.s = v->val.string.val;
			out->str.len = (size_t) v->val.string.len;
			break;
		case jbvNumeric:
		{
			char *t =
			    DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));

			out->kind = FS_JSON_NUMBER;
			out->str.s = t;
			out->str.len = strlen(t);
			break;
		}
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) v->type);
	}
}

/*
 * The container whose begin token was just read (v holds its size) into out, and everything in
 * it; recursion is as deep as the document, which jsonb itself bounds with check_stack_depth.
 */
static void
container(JsonbIterator **it, JsonbValue *v, JsonbIteratorToken tok, fs_json *out)
{
	bool object = tok == WJB_BEGIN_OBJECT;
	size_t n = object ? (size_t) v->val.object.nPairs : (size_t) v->val.array.nElems, k = 0;
	bool raw = !object && v->val.array.rawScalar;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	memset(out, 0, sizeof(*out));
	out->kind = object ? FS_JSON_OBJECT : FS_JSON_ARRAY;
	if (n > 0)
	{
		out->items = palloc(n * sizeof(fs_json));
		if (object)
			out->keys = palloc(n * sizeof(fs_str));
	}
	while ((tok = JsonbIteratorNext(it, v, false)) != WJB_END_OBJECT && tok != WJB_END_ARRAY &&
	       tok != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			out->keys[k].s = v->val.string.val;
			out->keys[k].len = (size_t) v->val.string.len;
			tok = JsonbIteratorNext(it, v, false);
		}
		if (k >= n)
			elog(ERROR, "jsonb container holds more members than it says");
		if (tok == WJB_BEGIN_ARRAY || tok == WJB_BEGIN_OBJECT)
			container(it, v, tok, &out->items[k]);
		else
			scalar(v, &out->items[k]);
		k++;
	}
	out->n = k;
	if (raw && k == 1)
		*out = out->items[0]; /* a scalar document: jsonb wraps it in a one-element array */
}

void
fs_pg_jsonb_tree(Jsonb *jb, fs_json *out)
{
	JsonbIterator *it = JsonbIteratorInit(&jb->root);
	JsonbValue v;
	JsonbIteratorToken tok = JsonbIteratorNext(&it, &v, false);

	container(&it, &v, tok, out);
}

typedef struct emit_ctx
{
	ReturnSetInfo *rsinfo;
	MemoryContext per_row;
	pg_tz *utc;
} emit_ctx;

/* One record into the tuplestore, built in a context reset after each row. */
static int
emit_row(void *vctx, const fs_sacct_record *rec)
{
	emit_ctx *c = vctx;
	Datum v[SACCT_NATTS];
	bool n[SACCT_NATTS];
	MemoryContext old = MemoryContextSwitchTo(c->per_row);

	fs_pg_sacct_values(rec, c->utc, "UTC", NULL, v, n);
	tuplestore_putvalues(c->rsinfo->setResult, c->rsinfo->setDesc, v, n);
	MemoryContextSwitchTo(old);
	MemoryContextReset(c->per_row);
	return 0;
}

PG_FUNCTION_INFO_V1(sacct_json);
Datum
sacct_json(PG_FUNCTION_ARGS)
{
	Jsonb *jb = PG_GETARG_JSONB_P(0);
	fs_json doc;
	emit_ctx c;
	fs_error err;
	MemoryContext work, old;

	InitMaterializedSRF(fcinfo, 0);
	c.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	if (c.rsinfo->setDesc->natts != SACCT_NATTS)
		elog(ERROR, "fairsched.sacct_record has %d attributes, expected %d",
		     c.rsinfo->setDesc->natts, SACCT_NATTS);
	c.utc = pg_tzset("UTC");
	work = AllocSetContextCreate(CurrentMemoryContext, "sacct_json", ALLOCSET_DEFAULT_SIZES);
	c.per_row = AllocSetContextCreate(work, "sacct_json row", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(work);
	fs_pg_jsonb_tree(jb, &doc);
	fs_pg_check(fs_sacct_json_doc(&doc, &fs_pg_alloc, emit_row, &c, &err), &err);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
	return (Datum) 0;
}
