/*
 * resvec.c (glue): the fairsched.resvec SQL type: I/O, operators, opclass support, jsonb casts,
 * resvec_each and the sum aggregate. Every computation is in src/core/types/resvec.c.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

#include "types/resvec.h"

#define RESVEC_BINARY_VERSION 1

#define RV_DATA(v)          ((const uint8_t *) VARDATA_ANY(v))
#define RV_LEN(v)           VARSIZE_ANY_EXHDR(v)
#define PG_GETARG_RESVEC(n) PG_GETARG_VARLENA_PP(n)

static struct varlena *
rv_parse_text(const char *s, size_t len, Node *escontext)
{
	fs_error err;
	uint8_t *out;
	size_t outlen;

	if (!fs_pg_input_check(fs_rv_parse(s, len, &fs_pg_alloc, VARHDRSZ, &out, &outlen, &err), &err,
	                       escontext))
		return NULL;
	return fs_pg_varlena(out, outlen);
}

static struct varlena *
rv_build(fs_rv_item *items, size_t n, fs_status bad)
{
	fs_error err;
	uint8_t *out;
	size_t outlen;

	fs_pg_check(fs_rv_build(items, n, bad, &fs_pg_alloc, VARHDRSZ, &out, &outlen, &err), &err);
	return fs_pg_varlena(out, outlen);
}

PG_FUNCTION_INFO_V1(resvec_in);
Datum
resvec_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);

	struct varlena *v = rv_parse_text(s, strlen(s), fcinfo->context);

	if (v == NULL)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(resvec_out);
Datum
resvec_out(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_GETARG_RESVEC(0);
	fs_sb sb;

	fs_sb_init(&sb, &fs_pg_alloc, 64);
	fs_rv_format(&sb, RV_DATA(v));
	PG_RETURN_CSTRING(sb.data);
}

/*
 * Binary form: version byte, int32 count, then per entry int8 kind, int8 name length, the name
 * bytes and a float8 amount. Decoding validates exactly as text input does.
 */
static struct varlena *
rv_decode_binary(StringInfo buf)
{
	int version;
	fs_reader r;
	uint8_t *out;
	size_t outlen;
	fs_error err;

	if (buf->len - buf->cursor < 5)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("invalid binary value for type resvec: value is truncated"),
		                errdetail("The value has %d bytes; the header alone needs 5.",
		                          buf->len - buf->cursor)));
	version = pq_getmsgbyte(buf);
	if (version != RESVEC_BINARY_VERSION)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("unsupported binary format version %d for type resvec", version),
		                errhint("This server reads version %d; send the value as text instead.",
		                        RESVEC_BINARY_VERSION)));
	r.p = (const uint8_t *) buf->data + buf->cursor;
	r.end = (const uint8_t *) buf->data + buf->len;
	fs_pg_check(fs_rv_read_binary(&r, &fs_pg_alloc, VARHDRSZ, &out, &outlen, &err), &err);
	buf->cursor = (int) (r.p - (const uint8_t *) buf->data);
	return fs_pg_varlena(out, outlen);
}

PG_FUNCTION_INFO_V1(resvec_recv);
Datum
resvec_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(rv_decode_binary((StringInfo) PG_GETARG_POINTER(0)));
}

PG_FUNCTION_INFO_V1(resvec_from_binary);
Datum
resvec_from_binary(PG_FUNCTION_ARGS)
{
	bytea *b = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;
	struct varlena *v;

	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.maxlen = buf.len;
	buf.cursor = 0;
	v = rv_decode_binary(&buf);
	if (buf.cursor != buf.len)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg_plural("invalid binary value for type resvec: %d trailing byte",
		                              "invalid binary value for type resvec: %d trailing bytes",
		                              buf.len - buf.cursor, buf.len - buf.cursor)));
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(resvec_send);
Datum
resvec_send(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_GETARG_RESVEC(0);
	size_t size = VARHDRSZ + 1 + fs_rv_binary_size(RV_DATA(v));
	bytea *out = palloc(size);
	uint8_t *p = (uint8_t *) VARDATA(out);

	*p++ = RESVEC_BINARY_VERSION;
	fs_rv_put_binary(p, RV_DATA(v));
	SET_VARSIZE(out, size);
	PG_RETURN_BYTEA_P(out);
}

/* ---------------------------------------------------------------- arithmetic */

static Datum
rv_add_datum(struct varlena *a, struct varlena *b, double sign)
{
	fs_error err;
	uint8_t *out;
	size_t outlen;

	fs_pg_check(
	    fs_rv_add(RV_DATA(a), RV_DATA(b), sign, &fs_pg_alloc, VARHDRSZ, &out, &outlen, &err), &err);
	return PointerGetDatum(fs_pg_varlena(out, outlen));
}

PG_FUNCTION_INFO_V1(resvec_add);
Datum
resvec_add(PG_FUNCTION_ARGS)
{
	return rv_add_datum(PG_GETARG_RESVEC(0), PG_GETARG_RESVEC(1), 1.0);
}

PG_FUNCTION_INFO_V1(resvec_sub);
Datum
resvec_sub(PG_FUNCTION_ARGS)
{
	return rv_add_datum(PG_GETARG_RESVEC(0), PG_GETARG_RESVEC(1), -1.0);
}

static Datum
rv_scale_datum(struct varlena *v, double factor, bool divide)
{
	fs_error err;
	uint8_t *out;
	size_t outlen;

	fs_pg_check(
	    fs_rv_scale(RV_DATA(v), factor, divide, &fs_pg_alloc, VARHDRSZ, &out, &outlen, &err), &err);
	return PointerGetDatum(fs_pg_varlena(out, outlen));
}

PG_FUNCTION_INFO_V1(resvec_mul);
Datum
resvec_mul(PG_FUNCTION_ARGS)
{
	return rv_scale_datum(PG_GETARG_RESVEC(0), PG_GETARG_FLOAT8(1), false);
}

PG_FUNCTION_INFO_V1(resvec_mul_left);
Datum
resvec_mul_left(PG_FUNCTION_ARGS)
{
	return rv_scale_datum(PG_GETARG_RESVEC(1), PG_GETARG_FLOAT8(0), false);
}

PG_FUNCTION_INFO_V1(resvec_div);
Datum
resvec_div(PG_FUNCTION_ARGS)
{
	return rv_scale_datum(PG_GETARG_RESVEC(0), PG_GETARG_FLOAT8(1), true);
}

PG_FUNCTION_INFO_V1(resvec_get);
Datum
resvec_get(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_GETARG_RESVEC(0);
	text *name = PG_GETARG_TEXT_PP(1);
	fs_rv_item item;

	if (!fs_rv_get(RV_DATA(v), VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &item))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(item.amount);
}

static bool
rv_fits(struct varlena *a, struct varlena *b)
{
	fs_error err;
	bool fits;

	fs_pg_check(fs_rv_fits(RV_DATA(a), RV_DATA(b), &fits, &err), &err);
	return fits;
}

PG_FUNCTION_INFO_V1(resvec_contained);
Datum
resvec_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(rv_fits(PG_GETARG_RESVEC(0), PG_GETARG_RESVEC(1)));
}

PG_FUNCTION_INFO_V1(resvec_contains);
Datum
resvec_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(rv_fits(PG_GETARG_RESVEC(1), PG_GETARG_RESVEC(0)));
}

/* ---------------------------------------------------------------- comparison and hashing */

/* equality, a total order consistent with it, and hashing of the canonical bytes */
FS_PG_ORDER_FUNCS(resvec, fs_rv_cmp)

/* ---------------------------------------------------------------- dominant share */

static bool
rv_dominant(FunctionCallInfo fcinfo, double *share, fs_rv_item *which)
{
	struct varlena *v = PG_GETARG_RESVEC(0);
	struct varlena *total = PG_GETARG_RESVEC(1);
	fs_error err;
	bool found;

	fs_pg_check(fs_rv_dominant(RV_DATA(v), RV_DATA(total), share, which, &found, &err), &err);
	return found;
}

PG_FUNCTION_INFO_V1(resvec_dominant_share);
Datum
resvec_dominant_share(PG_FUNCTION_ARGS)
{
	double share;
	fs_rv_item which;

	rv_dominant(fcinfo, &share, &which);
	PG_RETURN_FLOAT8(share);
}

PG_FUNCTION_INFO_V1(resvec_dominant_resource);
Datum
resvec_dominant_resource(PG_FUNCTION_ARGS)
{
	double share;
	fs_rv_item which;

	if (!rv_dominant(fcinfo, &share, &which))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text_with_len(which.name, which.namelen));
}

/* ---------------------------------------------------------------- conversions */

PG_FUNCTION_INFO_V1(resvec_each);
Datum
resvec_each(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	struct varlena *v = PG_GETARG_RESVEC(0);
	fs_rv_iter it;
	fs_rv_item item;

	InitMaterializedSRF(fcinfo, 0);
	fs_rv_iter_init(&it, RV_DATA(v));
	while (fs_rv_next(&it, &item))
	{
		Datum values[3];
		bool nulls[3] = {false, false, false};

		values[0] = PointerGetDatum(cstring_to_text_with_len(item.name, item.namelen));
		values[1] = Float8GetDatum(item.amount);
		values[2] = CStringGetTextDatum(fs_kind_name(item.kind));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* Which element of the kinds an unknown name came from (arg: its 0-based index). */
static void
kind_element_context(void *arg)
{
	errcontext("in element %d of the kinds", *(const int *) arg + 1);
}

/* resvec(names text[], amounts float8[], kinds text[] DEFAULT NULL) */
PG_FUNCTION_INFO_V1(resvec_from_arrays);
Datum
resvec_from_arrays(PG_FUNCTION_ARGS)
{
	ArrayType *names;
	ArrayType *amounts;
	ArrayType *kinds;
	Datum *nd, *ad, *kd = NULL;
	bool *nn, *an, *kn = NULL;
	int n, na, nk = 0;
	fs_rv_item *items;
	int i;

	/* not STRICT because kinds may be NULL; NULL names or amounts give NULL */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	names = PG_GETARG_ARRAYTYPE_P(0);
	amounts = PG_GETARG_ARRAYTYPE_P(1);
	kinds = PG_ARGISNULL(2) ? NULL : PG_GETARG_ARRAYTYPE_P(2);
	fs_pg_check_1d(names, "names");
	fs_pg_check_1d(amounts, "amounts");
	if (kinds)
		fs_pg_check_1d(kinds, "kinds");

	deconstruct_array(names, TEXTOID, -1, false, TYPALIGN_INT, &nd, &nn, &n);
	deconstruct_array(amounts, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &ad, &an, &na);
	if (kinds)
		deconstruct_array(kinds, TEXTOID, -1, false, TYPALIGN_INT, &kd, &kn, &nk);
	if (na != n || (kinds && nk != n))
		ereport(ERROR,
		        (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		         errmsg("resvec arrays have different lengths: %d %s, %d %s%s", n,
		                fs_plural(n, "name", "names"), na, fs_plural(na, "amount", "amounts"),
		                kinds ? psprintf(", %d %s", nk, fs_plural(nk, "kind", "kinds")) : ""),
		         errhint("Give one amount (and one kind) per name.")));
	items = palloc(sizeof(fs_rv_item) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		if (nn[i] || an[i] || (kinds && kn[i]))
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("resvec arrays must not contain NULL (element %d)", i + 1),
			                errhint("Leave a resource out instead of giving it a NULL.")));
		items[i].name = VARDATA_ANY(DatumGetPointer(nd[i]));
		items[i].namelen = VARSIZE_ANY_EXHDR(DatumGetPointer(nd[i]));
		items[i].amount = DatumGetFloat8(ad[i]);
		items[i].kind = FS_KIND_COUNT;
		items[i].pos = 0;
		if (kinds)
		{
			ErrorContextCallback where = {error_context_stack, kind_element_context, &i};

			error_context_stack = &where;
			items[i].kind = fs_pg_name_arg(DatumGetTextPP(kd[i]), fs_kind_from_name,
			                               "resource kind", "kinds", "count, size and duration");
			error_context_stack = where.previous;
		}
	}
	PG_RETURN_POINTER(rv_build(items, n, FS_ERR_VALUE));
}

PG_FUNCTION_INFO_V1(resvec_to_jsonb);
Datum
resvec_to_jsonb(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_GETARG_RESVEC(0);
	fs_rv_iter it;
	fs_rv_item item;
	fs_sb sb;
	bool first = true;

	/* names are limited to [A-Za-z0-9_./:-], so they need no JSON escaping */
	fs_sb_init(&sb, &fs_pg_alloc, 64);
	fs_sb_append(&sb, "{", 1);
	fs_rv_iter_init(&it, RV_DATA(v));
	while (fs_rv_next(&it, &item))
	{
		if (!first)
			fs_sb_append(&sb, ", ", 2);
		first = false;
		fs_sb_append(&sb, "\"", 1);
		fs_sb_append(&sb, item.name, item.namelen);
		fs_sb_append(&sb, "\": ", 3);
		if (item.kind == FS_KIND_COUNT)
			fs_rv_format_amount(&sb, item.amount, item.kind);
		else
		{
			fs_sb_append(&sb, "\"", 1);
			fs_rv_format_amount(&sb, item.amount, item.kind);
			fs_sb_append(&sb, "\"", 1);
		}
	}
	fs_sb_append(&sb, "}", 1);
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(sb.data));
}

PG_FUNCTION_INFO_V1(resvec_from_jsonb);
Datum
resvec_from_jsonb(PG_FUNCTION_ARGS)
{
	Jsonb *jb = PG_GETARG_JSONB_P(0);
	JsonbIterator *it;
	JsonbValue v;
	JsonbIteratorToken tok;
	fs_rv_item *items;
	size_t n = 0;

	if (!JB_ROOT_IS_OBJECT(jb) || JB_ROOT_IS_SCALAR(jb))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("cannot convert a jsonb %s to resvec",
		                       JB_ROOT_IS_SCALAR(jb) ? "scalar" : "array"),
		                errhint("Use an object of resource names and amounts, for example "
		                        "{\"ncpus\": 4, \"mem\": \"8gb\"}.")));
	items = palloc(sizeof(fs_rv_item) * (JB_ROOT_COUNT(jb) + 1));
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			items[n].name = v.val.string.val;
			items[n].namelen = v.val.string.len;
			items[n].pos = 0;
		}
		else if (tok == WJB_VALUE)
		{
			char what[100];
			char shown[80];
			fs_error err;

			fs_quote_excerpt(shown, sizeof(shown), items[n].name, items[n].namelen, 63);
			snprintf(what, sizeof(what), "resource \"%s\"", shown);
			if (v.type == jbvNumeric)
			{
				items[n].kind = FS_KIND_COUNT;
				items[n].amount = DatumGetFloat8(
				    DirectFunctionCall1(numeric_float8, NumericGetDatum(v.val.numeric)));
			}
			else if (v.type == jbvString)
				fs_pg_check(fs_rv_parse_amount(v.val.string.val, v.val.string.len, what,
				                               &items[n].amount, &items[n].kind, &err),
				            &err);
			else
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("cannot convert the jsonb value of %s to an amount", what),
				                errhint("Give a number, or a string such as \"8gb\" or "
				                        "\"01:00:00\".")));
			n++;
		}
	}
	PG_RETURN_POINTER(rv_build(items, n, FS_ERR_VALUE));
}

/* ---------------------------------------------------------------- aggregate */

/*
 * sum(resvec) transition and combine function (strict; the first row becomes the state).
 * Inside an aggregate the state belongs to us, so rows with the state's shape are added in
 * place; only a row with new names allocates (a merged copy that nodeAgg adopts).
 */
PG_FUNCTION_INFO_V1(resvec_sum_accum);
Datum
resvec_sum_accum(PG_FUNCTION_ARGS)
{
	struct varlena *state = (struct varlena *) PG_GETARG_POINTER(0);
	struct varlena *v = PG_GETARG_RESVEC(1);

	if (AggCheckCallContext(fcinfo, NULL) && !VARATT_IS_COMPRESSED(state) &&
	    !VARATT_IS_EXTERNAL(state))
	{
		fs_error err;
		int done = fs_rv_add_inplace((uint8_t *) VARDATA_ANY(state), RV_LEN(state), RV_DATA(v),
		                             RV_LEN(v), &err);

		if (done < 0)
			fs_pg_raise(&err);
		if (done > 0)
			PG_RETURN_POINTER(state);
	}
	return rv_add_datum(PG_GETARG_RESVEC(0), v, 1.0);
}
