/*
 * sharepath.c (glue): the fairsched.sharepath SQL type: I/O, operators, opclass support,
 * nlevel/parent/leaf/subpath/lca/ancestors and text[] casts. The path logic is in
 * src/core/types/sharepath.c.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

#include "types/sharepath.h"

#define SHAREPATH_BINARY_VERSION 1

#define SP_DATA(v)             ((const uint8_t *) VARDATA_ANY(v))
#define PG_GETARG_SHAREPATH(n) PG_GETARG_VARLENA_PP(n)

PG_FUNCTION_INFO_V1(sharepath_in);
Datum
sharepath_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_error err;
	uint8_t *out;
	size_t len;

	if (!fs_pg_input_check(fs_sp_parse(s, strlen(s), &fs_pg_alloc, VARHDRSZ, &out, &len, &err),
	                       &err, fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(fs_pg_varlena(out, len));
}

PG_FUNCTION_INFO_V1(sharepath_out);
Datum
sharepath_out(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_SHAREPATH(0);
	fs_sb sb;

	fs_sb_init(&sb, &fs_pg_alloc, 32);
	fs_sp_format(&sb, SP_DATA(p));
	PG_RETURN_CSTRING(sb.data);
}

static struct varlena *
sp_from_labels(const char *const *labels, const size_t *lens, size_t n)
{
	fs_error err;
	uint8_t *out;
	size_t len;

	fs_pg_check(fs_sp_from_labels(labels, lens, n, &fs_pg_alloc, VARHDRSZ, &out, &len, &err), &err);
	return fs_pg_varlena(out, len);
}

/*
 * Binary form: version byte, int32 label count, then per label int32 length and the bytes.
 * Labels must be valid in the database encoding and hold no NUL, as in text input.
 */
PG_FUNCTION_INFO_V1(sharepath_recv);
Datum
sharepath_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	int version = pq_getmsgbyte(buf);
	int32 n;
	const char **labels;
	size_t *lens;
	int32 i;

	if (version != SHAREPATH_BINARY_VERSION)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("unsupported binary format version %d for type sharepath", version),
		                errhint("This server reads version %d; send the value as text instead.",
		                        SHAREPATH_BINARY_VERSION)));
	n = pq_getmsgint(buf, 4);
	if (n < 0 || n > FS_SP_DEPTH_MAX)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("invalid binary value for type sharepath: %d labels", n),
		                errdetail("A path has 0 to %d labels.", FS_SP_DEPTH_MAX)));
	labels = palloc(sizeof(char *) * (n + 1));
	lens = palloc(sizeof(size_t) * (n + 1));
	for (i = 0; i < n; i++)
	{
		int32 len = pq_getmsgint(buf, 4);

		if (len < 0 || len > buf->len - buf->cursor)
			ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			                errmsg("invalid binary value for type sharepath: value is truncated"),
			                errdetail("Label %d of %d claims %d %s.", i + 1, n, len,
			                          fs_plural(len, "byte", "bytes"))));
		lens[i] = len;
		labels[i] = pq_getmsgbytes(buf, len);
		/* only what the text form can carry: no NUL, valid in the database encoding */
		pg_verifymbstr(labels[i], len, false);
	}
	PG_RETURN_POINTER(sp_from_labels(labels, lens, n));
}

PG_FUNCTION_INFO_V1(sharepath_send);
Datum
sharepath_send(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_SHAREPATH(0);
	StringInfoData buf;
	fs_sp_iter it;
	const char *label;
	size_t len;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, SHAREPATH_BINARY_VERSION);
	pq_sendint32(&buf, fs_sp_nlevel(SP_DATA(p)));
	fs_sp_iter_init(&it, SP_DATA(p));
	while (fs_sp_next(&it, &label, &len))
	{
		pq_sendint32(&buf, (int32) len);
		pq_sendbytes(&buf, label, len);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ---------------------------------------------------------------- comparison and hashing */

/* pre-order comparison and hashing of the canonical bytes */
FS_PG_ORDER_FUNCS(sharepath, fs_sp_cmp)

/* a sort key's bytes: detoasted only when compressed or out of line (sort keys rarely are) */
static inline struct varlena *
sp_sort_arg(Datum d)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	return VARATT_IS_COMPRESSED(v) || VARATT_IS_EXTERNAL(v) ? pg_detoast_datum_packed(v) : v;
}

/* sorting: the comparison without a function call through fmgr, and abbreviated keys */
static int
sp_sort_cmp(Datum x, Datum y, SortSupport ssup)
{
	struct varlena *a = sp_sort_arg(x);
	struct varlena *b = sp_sort_arg(y);
	int c = fs_sp_cmp(SP_DATA(a), SP_DATA(b));

	if ((Pointer) a != DatumGetPointer(x))
		pfree(a);
	if ((Pointer) b != DatumGetPointer(y))
		pfree(b);
	return c;
}

static Datum
sp_abbrev(Datum original, SortSupport ssup)
{
	struct varlena *p = sp_sort_arg(original);
	uint64 key = fs_sp_prefix_key(SP_DATA(p));

	if ((Pointer) p != DatumGetPointer(original))
		pfree(p);
#if SIZEOF_DATUM == 8
	return UInt64GetDatum(key);
#else
	return UInt32GetDatum((uint32) (key >> 32));
#endif
}

/* keep abbreviating: even a few distinct prefixes spare most comparisons their cache misses */
static bool
sp_abbrev_abort(int memtupcount, SortSupport ssup)
{
	return false;
}

PG_FUNCTION_INFO_V1(sharepath_sortsupport);
Datum
sharepath_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = sp_sort_cmp;
	if (ssup->abbreviate)
	{
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = sp_abbrev;
		ssup->abbrev_abort = sp_abbrev_abort;
		ssup->abbrev_full_comparator = sp_sort_cmp;
	}
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(sharepath_contains);
Datum
sharepath_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(
	    fs_sp_is_ancestor(SP_DATA(PG_GETARG_SHAREPATH(0)), SP_DATA(PG_GETARG_SHAREPATH(1))));
}

PG_FUNCTION_INFO_V1(sharepath_contained);
Datum
sharepath_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(
	    fs_sp_is_ancestor(SP_DATA(PG_GETARG_SHAREPATH(1)), SP_DATA(PG_GETARG_SHAREPATH(0))));
}

/* ---------------------------------------------------------------- path algebra */

static struct varlena *
sp_slice(struct varlena *p, uint32 start, uint32 count)
{
	uint8_t *out;
	size_t len;

	fs_sp_slice(SP_DATA(p), start, count, &fs_pg_alloc, VARHDRSZ, &out, &len);
	return fs_pg_varlena(out, len);
}

PG_FUNCTION_INFO_V1(sharepath_concat);
Datum
sharepath_concat(PG_FUNCTION_ARGS)
{
	fs_error err;
	uint8_t *out;
	size_t len;

	fs_pg_check(fs_sp_concat(SP_DATA(PG_GETARG_SHAREPATH(0)), SP_DATA(PG_GETARG_SHAREPATH(1)), NULL,
	                         0, &fs_pg_alloc, VARHDRSZ, &out, &len, &err),
	            &err);
	PG_RETURN_POINTER(fs_pg_varlena(out, len));
}

PG_FUNCTION_INFO_V1(sharepath_concat_label);
Datum
sharepath_concat_label(PG_FUNCTION_ARGS)
{
	text *label = PG_GETARG_TEXT_PP(1);
	fs_error err;
	uint8_t *out;
	size_t len;

	fs_pg_check(fs_sp_concat(SP_DATA(PG_GETARG_SHAREPATH(0)), NULL, VARDATA_ANY(label),
	                         VARSIZE_ANY_EXHDR(label), &fs_pg_alloc, VARHDRSZ, &out, &len, &err),
	            &err);
	PG_RETURN_POINTER(fs_pg_varlena(out, len));
}

PG_FUNCTION_INFO_V1(sharepath_nlevel);
Datum
sharepath_nlevel(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) fs_sp_nlevel(SP_DATA(PG_GETARG_SHAREPATH(0))));
}

PG_FUNCTION_INFO_V1(sharepath_parent);
Datum
sharepath_parent(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_SHAREPATH(0);
	uint32 n = fs_sp_nlevel(SP_DATA(p));

	if (n == 0)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(sp_slice(p, 0, n - 1));
}

PG_FUNCTION_INFO_V1(sharepath_leaf);
Datum
sharepath_leaf(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_SHAREPATH(0);
	fs_sp_iter it;
	const char *label = NULL;
	size_t len = 0;

	fs_sp_iter_init(&it, SP_DATA(p));
	if (it.left == 0)
		PG_RETURN_NULL();
	while (fs_sp_next(&it, &label, &len))
		;
	PG_RETURN_TEXT_P(cstring_to_text_with_len(label, (int) len));
}

/* subpath(p, offset, len DEFAULT NULL): not strict, so that a NULL len means "to the end" */
PG_FUNCTION_INFO_V1(sharepath_subpath);
Datum
sharepath_subpath(PG_FUNCTION_ARGS)
{
	fs_error err;
	uint8_t *out;
	size_t len;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	fs_pg_check(fs_sp_subpath(SP_DATA(PG_GETARG_SHAREPATH(0)), PG_GETARG_INT32(1), !PG_ARGISNULL(2),
	                          PG_ARGISNULL(2) ? 0 : PG_GETARG_INT32(2), &fs_pg_alloc, VARHDRSZ,
	                          &out, &len, &err),
	            &err);
	PG_RETURN_POINTER(fs_pg_varlena(out, len));
}

PG_FUNCTION_INFO_V1(sharepath_lca);
Datum
sharepath_lca(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_SHAREPATH(0);

	PG_RETURN_POINTER(sp_slice(a, 0, fs_sp_common(SP_DATA(a), SP_DATA(PG_GETARG_SHAREPATH(1)))));
}

/* ancestors(p, include_self DEFAULT true): the root first, one row per level */
PG_FUNCTION_INFO_V1(sharepath_ancestors);
Datum
sharepath_ancestors(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	struct varlena *p;
	uint32 last;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		/* a private copy that lives across calls */
		p = (struct varlena *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));
		fctx->user_fctx = p;
		fctx->max_calls = fs_sp_nlevel(SP_DATA(p)) + (PG_GETARG_BOOL(1) ? 1 : 0);
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	p = fctx->user_fctx;
	last = (uint32) fctx->call_cntr;
	if (fctx->call_cntr < fctx->max_calls)
		SRF_RETURN_NEXT(fctx, PointerGetDatum(sp_slice(p, 0, last)));
	SRF_RETURN_DONE(fctx);
}

/* ---------------------------------------------------------------- text[] casts */

PG_FUNCTION_INFO_V1(sharepath_to_array);
Datum
sharepath_to_array(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_SHAREPATH(0);
	uint32 n = fs_sp_nlevel(SP_DATA(p));
	Datum *elems = palloc(sizeof(Datum) * (n + 1));
	fs_sp_iter it;
	const char *label;
	size_t len;
	int i = 0;

	fs_sp_iter_init(&it, SP_DATA(p));
	while (fs_sp_next(&it, &label, &len))
		elems[i++] = PointerGetDatum(cstring_to_text_with_len(label, (int) len));
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, (int) n, TEXTOID, -1, false, TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(sharepath_from_array);
Datum
sharepath_from_array(PG_FUNCTION_ARGS)
{
	ArrayType *arr = PG_GETARG_ARRAYTYPE_P(0);
	Datum *elems;
	bool *nulls;
	int n;
	int i;
	const char **labels;
	size_t *lens;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		                errmsg("cannot convert a %d-dimensional array to sharepath", ARR_NDIM(arr)),
		                errhint("Give a one-dimensional array of labels, root first.")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	labels = palloc(sizeof(char *) * (n + 1));
	lens = palloc(sizeof(size_t) * (n + 1));
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("sharepath label %d is NULL", i + 1),
			                errhint("Every label must be a non-empty string.")));
		labels[i] = VARDATA_ANY(DatumGetPointer(elems[i]));
		lens[i] = VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i]));
	}
	PG_RETURN_POINTER(sp_from_labels(labels, lens, n));
}
