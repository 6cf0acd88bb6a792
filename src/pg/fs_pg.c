/*
 * fs_pg.c: the module's magic block, the palloc allocator for src/core and the mapping of
 * core error categories to SQLSTATEs.
 */
#include "fs_pg.h"

#include "types/resvec.h"
#include "types/sharepath.h"

#include "common/int.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "port.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

FS_PG_MODULE_MAGIC;

void _PG_init(void);

static void
fs_pg_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* Server encodings decide a character's length from its first byte. */
static int
fs_pg_mblen(const char *s)
{
	return pg_encoding_mblen(GetDatabaseEncoding(), s);
}

/*
 * Long core loops poll CHECK_FOR_INTERRUPTS; core hash tables get a key no client can know;
 * positions and excerpts in messages count characters of the database encoding.
 */
void
_PG_init(void)
{
	uint64 key[2];

	if (!pg_strong_random(key, sizeof(key)))
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
		                errmsg("could not generate a random hash key for fairsched")));
	fs_core_init(fs_pg_interrupts, fs_pg_mblen, key[0], key[1]);
}

static void *
fs_pg_palloc(void *ctx, size_t size)
{
	(void) ctx;
	/* the core sizes its arrays from the input: one too large for a single allocation is a limit
	 * of the input (54000), not the internal error palloc would raise */
	if (!AllocSizeIsValid(size))
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		                errmsg("the input needs a block of %zu bytes, more than one allocation can "
		                       "hold (1 GB)",
		                       size),
		                errhint("Split the input into smaller pieces.")));
	return palloc(size);
}

static void
fs_pg_pfree(void *ctx, void *ptr)
{
	(void) ctx;
	pfree(ptr);
}

const fs_allocator fs_pg_alloc = {fs_pg_palloc, fs_pg_pfree, NULL};

/* The SQLSTATE of each core status (XX000 only for a status that cannot happen). */
static int
fs_pg_sqlstate(fs_status st)
{
	switch (st)
	{
		case FS_ERR_SYNTAX:
			return ERRCODE_INVALID_TEXT_REPRESENTATION;
		case FS_ERR_RANGE:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		case FS_ERR_VALUE:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case FS_ERR_KIND:
			return ERRCODE_DATATYPE_MISMATCH;
		case FS_ERR_DIVZERO:
			return ERRCODE_DIVISION_BY_ZERO;
		case FS_ERR_BINARY:
			return ERRCODE_INVALID_BINARY_REPRESENTATION;
		case FS_ERR_LIMIT:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
		case FS_OK:
			break;
	}
	return ERRCODE_INTERNAL_ERROR;
}

/* the fields of a core error's report */
#define FS_PG_ERROR_FIELDS(err)                                                                    \
	(errcode(fs_pg_sqlstate((err)->status)), errmsg_internal("%s", (err)->message),                \
	 (err)->detail[0] ? errdetail_internal("%s", (err)->detail) : 0,                               \
	 (err)->hint[0] ? errhint("%s", (err)->hint) : 0,                                              \
	 (err)->context[0] ? (errcontext("%s", (err)->context)) : 0)

void
fs_pg_raise(const fs_error *err)
{
	ereport(ERROR, FS_PG_ERROR_FIELDS(err));
	pg_unreachable();
}

bool
fs_pg_input_check(fs_status st, const fs_error *err, Node *escontext)
{
	if (st == FS_OK)
		return true;
	errsave(escontext, FS_PG_ERROR_FIELDS(err));
	return false;
}

struct varlena *
fs_pg_varlena(uint8_t *base, size_t len)
{
	struct varlena *v = (struct varlena *) base;

	SET_VARSIZE(v, VARHDRSZ + len);
	return v;
}

int64
fs_pg_interval_us(const Interval *iv, const char *what)
{
	int64 days = (int64) iv->month % MONTHS_PER_YEAR * DAYS_PER_MONTH + iv->day;
	int64 years = iv->month / MONTHS_PER_YEAR;
	int64 us, year_us;

	if (iv->month == 0 && iv->day == 0)
		return iv->time; /* the common case, once per row of the callers */
	/* whole years of months as 365.25 days, as EXTRACT(EPOCH FROM interval) does */
	if (pg_mul_s64_overflow(days, USECS_PER_DAY, &us) ||
	    pg_mul_s64_overflow(years, INT64CONST(36525) * (USECS_PER_DAY / 100), &year_us) ||
	    pg_add_s64_overflow(us, year_us, &us) || pg_add_s64_overflow(us, iv->time, &us))
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("%s is out of range", what)));
	return us;
}

int64
fs_pg_timestamp(TimestampTz t, const char *what)
{
	if (TIMESTAMP_NOT_FINITE(t))
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("%s must be a finite timestamp", what),
		                errhint("Infinity has no place in a usage record.")));
	return (int64) t;
}

int
fs_pg_compare_args(FunctionCallInfo fcinfo, fs_pg_cmp_fn cmp)
{
	struct varlena *a = PG_GETARG_VARLENA_PP(0);
	struct varlena *b = PG_GETARG_VARLENA_PP(1);
	int c = cmp((const uint8_t *) VARDATA_ANY(a), (const uint8_t *) VARDATA_ANY(b));

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return c;
}

Datum
fs_pg_hash_arg(FunctionCallInfo fcinfo, bool extended)
{
	struct varlena *v = PG_GETARG_VARLENA_PP(0);
	const unsigned char *data = (const unsigned char *) VARDATA_ANY(v);
	Datum h = extended ? hash_any_extended(data, VARSIZE_ANY_EXHDR(v), PG_GETARG_INT64(1))
	                   : hash_any(data, VARSIZE_ANY_EXHDR(v));

	PG_FREE_IF_COPY(v, 0);
	return h;
}

int
fs_pg_name_arg(text *name, fs_pg_name_fn from_name, const char *what, const char *whats,
               const char *valid)
{
	char *s = text_to_cstring(name);
	int v = from_name(s);
	char shown[220];

	if (v < 0)
	{
		fs_quote_excerpt(shown, sizeof(shown), s, strlen(s), 200);
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown %s \"%s\"", what, shown),
		         errhint("Valid %s are %s.", whats, valid)));
	}
	return v;
}

/* the last name an fs_pg_name_arg_cached call site read, and its value */
typedef struct name_cache
{
	int value;
	int len;
	char bytes[NAMEDATALEN];
} name_cache;

int
fs_pg_name_arg_cached(FunctionCallInfo fcinfo, int argno, fs_pg_name_fn from_name, const char *what,
                      const char *whats, const char *valid)
{
	text *name = PG_GETARG_TEXT_PP(argno);
	name_cache *c = fcinfo->flinfo->fn_extra;
	int len = VARSIZE_ANY_EXHDR(name);
	int v;

	if (c != NULL && c->len == len && memcmp(c->bytes, VARDATA_ANY(name), len) == 0)
		return c->value;
	v = fs_pg_name_arg(name, from_name, what, whats, valid);
	if (len <= NAMEDATALEN)
	{
		if (c == NULL)
			c = fcinfo->flinfo->fn_extra = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(*c));
		c->value = v;
		c->len = len;
		memcpy(c->bytes, VARDATA_ANY(name), len);
	}
	return v;
}

void
fs_pg_check_1d(const ArrayType *a, const char *what)
{
	if (ARR_NDIM(a) > 1)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		                errmsg("%s must be a one-dimensional array", what),
		                errdetail("The array has %d dimensions.", ARR_NDIM(a)),
		                errhint("Pass a flat list, for example ARRAY['a', 'b'].")));
}

Datum
fs_pg_keep_state(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

Datum
fs_pg_bytes_datum(const void *data, size_t len)
{
	struct varlena *v = palloc(add_size(VARHDRSZ, len));

	memcpy(VARDATA(v), data, len);
	SET_VARSIZE(v, VARHDRSZ + len);
	return PointerGetDatum(v);
}

void *
fs_pg_scratch_space(fs_pg_scratch *s, size_t len)
{
	if (s->v == NULL || s->cap < len)
	{
		size_t cap = Max(len, 256);

		if (s->v)
			pfree(s->v);
		s->v = palloc(add_size(VARHDRSZ, cap));
		s->cap = cap;
	}
	SET_VARSIZE(s->v, add_size(VARHDRSZ, len));
	return VARDATA(s->v);
}

Datum
fs_pg_scratch_bytes(fs_pg_scratch *s, const void *data, size_t len)
{
	memcpy(fs_pg_scratch_space(s, len), data, len);
	return PointerGetDatum(s->v);
}

Datum
fs_pg_text_or_null(fs_str s, bool *isnull)
{
	*isnull = s.s == NULL;
	return s.s ? PointerGetDatum(cstring_to_text_with_len(s.s, (int) s.len)) : (Datum) 0;
}

Datum
fs_pg_path_datum(const uint8_t *path)
{
	return fs_pg_bytes_datum(path, fs_sp_size(path));
}

Datum
fs_pg_resvec_datum(const uint8_t *rv)
{
	return fs_pg_bytes_datum(rv, fs_rv_size(rv));
}

int
fs_pg_field_number(TupleDesc td, const char *name, const char *type)
{
	int i;

	for (i = 0; i < td->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i;
	}
	elog(ERROR, "type %s has no field \"%s\"", type, name);
	return -1;
}

/* The elements of a one-dimensional array of composites; NULL elements are refused. */
Datum *
fs_pg_composite_elements(ArrayType *arr, const char *what, int *n)
{
	Oid elem = ARR_ELEMTYPE(arr);
	int16 typlen;
	bool byval;
	char align;
	Datum *elems;
	bool *nulls;
	int i;

	fs_pg_check_1d(arr, what);
	get_typlenbyvalalign(elem, &typlen, &byval, &align);
	deconstruct_array(arr, elem, typlen, byval, align, &elems, &nulls, n);
	for (i = 0; i < *n; i++)
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("%s[%d] is NULL", what, i + 1)));
	return elems;
}

void
fs_pg_reader_open(fs_pg_row_reader *r, ArrayType *arr, const char *what)
{
	r->td = lookup_rowtype_tupdesc(ARR_ELEMTYPE(arr), -1);
	r->natts = r->td->natts;
	r->values = palloc(sizeof(Datum) * r->natts);
	r->nulls = palloc(sizeof(bool) * r->natts);
	r->what = what;
}

void
fs_pg_reader_read(fs_pg_row_reader *r, Datum d)
{
	HeapTupleHeader h = DatumGetHeapTupleHeader(d);
	HeapTupleData tuple;

	tuple.t_len = HeapTupleHeaderGetDatumLength(h);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = h;
	heap_deform_tuple(&tuple, r->td, r->values, r->nulls);
}

void
fs_pg_reader_close(fs_pg_row_reader *r)
{
	ReleaseTupleDesc(r->td);
}

Datum *
fs_pg_rows_open(fs_pg_row_reader *r, ArrayType *arr, const char *what, const char *type,
                const char *const *names, int nnames, int *f, int *n)
{
	Datum *elems = fs_pg_composite_elements(arr, what, n);
	int k;

	fs_pg_reader_open(r, arr, what);
	for (k = 0; k < nnames; k++)
		f[k] = fs_pg_field_number(r->td, names[k], type);
	return elems;
}

/* A text field: its bytes (detoasted), or NULL. */
const char *
fs_pg_text_field(Datum d, bool isnull, size_t *len)
{
	text *t;

	if (isnull)
	{
		*len = 0;
		return NULL;
	}
	t = DatumGetTextPP(d);
	*len = VARSIZE_ANY_EXHDR(t);
	return VARDATA_ANY(t);
}
