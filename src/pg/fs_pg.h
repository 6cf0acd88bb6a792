/*
 * fs_pg.h: what every glue module shares: the core allocator pointed at palloc, and the
 * translation of core errors into ereport.
 */
#ifndef FS_PG_H
#define FS_PG_H

#include "postgres.h"

#include "access/htup_details.h"
#include "datatype/timestamp.h"
#include "fmgr.h"

#include "fs_core.h"

/* Allocates in CurrentMemoryContext. */
extern const fs_allocator fs_pg_alloc;

/* A varlena from core output that starts with VARHDRSZ reserved bytes and has len more. */
struct varlena *fs_pg_varlena(uint8_t *base, size_t len);

/* Raise a core error with the SQLSTATE of its category; its context becomes a CONTEXT line. */
void fs_pg_raise(const fs_error *err) pg_attribute_noreturn();

/* Raise `err` unless `st` is FS_OK. */
static inline void
fs_pg_check(fs_status st, const fs_error *err)
{
	if (st != FS_OK)
		fs_pg_raise(err);
}

/*
 * A sharetree argument to read: the expanded object itself, or a tree built from the flat value
 * whose node paths point into the argument's bytes (to read within the call).
 */
struct fs_tree;
struct fs_tree *fs_pg_read_tree(Datum d);

/* An interval in microseconds, counted as EXTRACT(EPOCH FROM interval) does; `what` names it. */
int64 fs_pg_interval_us(const Interval *iv, const char *what);
/* A timestamp argument, which must be finite. */
int64 fs_pg_timestamp(TimestampTz t, const char *what);

/* A varlena Datum holding a copy of len bytes (an encoded path, resvec, ...). */
Datum fs_pg_bytes_datum(const void *data, size_t len);
/* The SQL values of an encoded sharepath and resvec. */
/* A text datum of a piece of input, or NULL (isnull set) when it is absent. */
Datum fs_pg_text_or_null(fs_str s, bool *isnull);
Datum fs_pg_path_datum(const uint8_t *path);
Datum fs_pg_resvec_datum(const uint8_t *rv);

/*
 * Values of the rows an SRF puts into its tuplestore, which copies them: one reusable buffer per
 * column instead of a palloc per row (a million-row listing would otherwise hold a million
 * copies until it ends). Zero-initialize; the Datum is valid until the next call on the buffer.
 */
typedef struct fs_pg_scratch
{
	struct varlena *v;
	size_t cap;
} fs_pg_scratch;
Datum fs_pg_scratch_bytes(fs_pg_scratch *s, const void *data, size_t len);
/*
 * The same buffer sized for a value of len bytes that the caller writes in place at the
 * returned pointer (a path written from a parent chain); fs_pg_scratch_datum is then its Datum.
 */
void *fs_pg_scratch_space(fs_pg_scratch *s, size_t len);
#define fs_pg_scratch_datum(s) PointerGetDatum((s)->v)

/*
 * A name argument read into its enum, the one way every module reads one: from_name returns a
 * negative number for an unknown name, which is a 22023 error "unknown <what> "x"" (the name cut
 * at 200 bytes) with the hint "Valid <whats> are <valid>."
 */
typedef int (*fs_pg_name_fn)(const char *name);
int fs_pg_name_arg(text *name, fs_pg_name_fn from_name, const char *what, const char *whats,
                   const char *valid);
/*
 * The same for argument argno of a function called once per row, remembered in the call site's
 * fn_extra (which the function must not use otherwise): a name that repeats is read only once.
 */
int fs_pg_name_arg_cached(FunctionCallInfo fcinfo, int argno, fs_pg_name_fn from_name,
                          const char *what, const char *whats, const char *valid);

/* An array argument that must have one dimension (or none: empty); `what` names it. */
struct ArrayType;
void fs_pg_check_1d(const struct ArrayType *a, const char *what);

/* An aggregate row that adds nothing: the state stays (NULL before the first real row). */
Datum fs_pg_keep_state(FunctionCallInfo fcinfo);

/* Compare two encoded values of a varlena type whose bytes are canonical. */
typedef int (*fs_pg_cmp_fn)(const uint8_t *a, const uint8_t *b);
int fs_pg_compare_args(FunctionCallInfo fcinfo, fs_pg_cmp_fn cmp);
Datum fs_pg_hash_arg(FunctionCallInfo fcinfo, bool extended);

/*
 * The btree and hash support functions of a type: prefix_eq, _ne, _lt, _le, _gt, _ge, _cmp,
 * _hash and _hash_extended. Equal values have equal bytes, so hashing the bytes is consistent.
 */
#define FS_PG_ORDER_FUNCS(prefix, cmp)                                                             \
	FS_PG_CMP_FUNC(prefix##_eq, cmp, c == 0)                                                       \
	FS_PG_CMP_FUNC(prefix##_ne, cmp, c != 0)                                                       \
	FS_PG_CMP_FUNC(prefix##_lt, cmp, c < 0)                                                        \
	FS_PG_CMP_FUNC(prefix##_le, cmp, c <= 0)                                                       \
	FS_PG_CMP_FUNC(prefix##_gt, cmp, c > 0)                                                        \
	FS_PG_CMP_FUNC(prefix##_ge, cmp, c >= 0)                                                       \
	PG_FUNCTION_INFO_V1(prefix##_cmp);                                                             \
	Datum prefix##_cmp(PG_FUNCTION_ARGS)                                                           \
	{                                                                                              \
		PG_RETURN_INT32(fs_pg_compare_args(fcinfo, cmp));                                          \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(prefix##_hash);                                                            \
	Datum prefix##_hash(PG_FUNCTION_ARGS)                                                          \
	{                                                                                              \
		return fs_pg_hash_arg(fcinfo, false);                                                      \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(prefix##_hash_extended);                                                   \
	Datum prefix##_hash_extended(PG_FUNCTION_ARGS)                                                 \
	{                                                                                              \
		return fs_pg_hash_arg(fcinfo, true);                                                       \
	}

#define FS_PG_CMP_FUNC(fname, cmp, expr)                                                           \
	PG_FUNCTION_INFO_V1(fname);                                                                    \
	Datum fname(PG_FUNCTION_ARGS)                                                                  \
	{                                                                                              \
		int c = fs_pg_compare_args(fcinfo, cmp);                                                   \
		PG_RETURN_BOOL(expr);                                                                      \
	}

/* ---- arrays of composite values, read by field name (fields appended do not matter) ---- */

struct ArrayType;
/* The fields of a composite type that we read, found by name once per array. */
typedef struct fs_pg_row_reader
{
	TupleDesc td;
	int natts;
	Datum *values;
	bool *nulls;
	const char *what;
} fs_pg_row_reader;

int fs_pg_field_number(TupleDesc td, const char *name, const char *type);
/* The elements of a one-dimensional array of composites; NULL elements are refused. */
Datum *fs_pg_composite_elements(struct ArrayType *arr, const char *what, int *n);
void fs_pg_reader_open(fs_pg_row_reader *r, struct ArrayType *arr, const char *what);
void fs_pg_reader_read(fs_pg_row_reader *r, Datum d);
void fs_pg_reader_close(fs_pg_row_reader *r);
/* Open an array of composites: its elements (*n), and in f the field numbers of `names`. */
Datum *fs_pg_rows_open(fs_pg_row_reader *r, struct ArrayType *arr, const char *what,
                       const char *type, const char *const *names, int nnames, int *f, int *n);
/* A text field: its bytes (detoasted), or NULL. */
const char *fs_pg_text_field(Datum d, bool isnull, size_t *len);
#endif
