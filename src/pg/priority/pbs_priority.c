/*
 * pbs_priority.c (glue): the pbs_formula type (a validated job_sort_formula, stored and printed
 * as its text), pbs_formula() with a resourcedef, and pbs_formula_value(). The algorithms are in
 * src/core/priority/pbs_priority.c; a compiled formula is cached in fn_extra, so that a query
 * compiles it once however many jobs it values. pbs_job_order_fairshare() values and orders an
 * array of pbs_job with the fairshare values given per entity (pbs_job_order, in SQL, gives it
 * those of fairshare(tree, 'pbs')).
 */
#include "fs_pg.h"

#include "priority/pbs_priority.h"
#include "types/sharepath.h"

#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include <math.h>

#define PBS_FORMULA_BINARY_VERSION 1

/*
 * A formula that names a site's custom resources is stored with the resourcedef it was
 * validated against, after this line, so that its text reads back (a dump, a cast): a formula
 * itself never holds a '#'.
 */
#define RESOURCEDEF_MARK     "\n#resourcedef\n"
#define RESOURCEDEF_MARK_LEN (sizeof(RESOURCEDEF_MARK) - 1)

/* The formula part of a stored value, and its resourcedef (NULL when it has none). */
static size_t
formula_part(const char *s, size_t len, const char **rd, size_t *rdlen)
{
	size_t i;

	*rd = NULL;
	*rdlen = 0;
	for (i = 0; i + RESOURCEDEF_MARK_LEN <= len; i++)
		if (s[i] == '\n' && memcmp(s + i, RESOURCEDEF_MARK, RESOURCEDEF_MARK_LEN) == 0)
		{
			*rd = s + i + RESOURCEDEF_MARK_LEN;
			*rdlen = len - i - RESOURCEDEF_MARK_LEN;
			return i;
		}
	return len;
}

/*
 * Validate a formula as PBS does, with the custom resources of resourcedef (rd, NULL: the
 * built-in ones only), raising PBS's error; as_input: the error is the type's input syntax error,
 * saved in escontext when the caller asked for soft errors (then this returns false).
 */
static bool
validate_formula(const char *f, size_t flen, const char *rd, size_t rdlen, bool as_input,
                 Node *escontext)
{
	fs_pbs_resdef def;
	fs_pf_prog *p;
	fs_error err;
	int code;
	fs_status st;

	if (rd && !fs_pg_input_check(fs_pbs_resourcedef_parse(rd, rdlen, &fs_pg_alloc, &def, &err),
	                             &err, escontext))
		return false;
	st = fs_pbs_formula_compile(f, flen, rd ? &def : NULL, false, &fs_pg_alloc, &p, &code, &err);
	if (st == FS_ERR_SYNTAX && as_input)
		st = fs_error_as_input(&err, "fairsched.pbs_formula", f, flen);
	if (!fs_pg_input_check(st, &err, escontext))
		return false; /* what the parse allocated goes with the call's memory context */
	fs_pf_free(p, &fs_pg_alloc);
	if (rd)
		fs_pbs_resourcedef_free(&def, &fs_pg_alloc);
	return true;
}

/*
 * A formula's text validated as the type's input: PBS's validation with the built-in resources,
 * or with the resourcedef stored after the formula. pbs_formula('...') with a literal is this
 * input (PostgreSQL reads a call of a type's name on one literal as a cast), so it must refuse
 * what pbs_formula(text) refuses.
 */
static Datum
formula_from_text(FunctionCallInfo fcinfo, const char *s, size_t len)
{
	const char *rd;
	size_t rdlen, flen = formula_part(s, len, &rd, &rdlen);

	if (!validate_formula(s, flen, rd, rdlen, true, fcinfo->context))
		PG_RETURN_NULL();
	return PointerGetDatum(cstring_to_text_with_len(s, (int) len));
}

PG_FUNCTION_INFO_V1(pbs_formula_in);
Datum
pbs_formula_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);

	return formula_from_text(fcinfo, s, strlen(s));
}

PG_FUNCTION_INFO_V1(pbs_formula_out);
Datum
pbs_formula_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(text_to_cstring(PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(pbs_formula_recv);
Datum
pbs_formula_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	int version = pq_getmsgbyte(buf);
	int len;
	const char *s;

	if (version != PBS_FORMULA_BINARY_VERSION)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		         errmsg("unsupported binary format version %d for type pbs_formula", version),
		         errhint("This server reads version %d; send the value as text instead.",
		                 PBS_FORMULA_BINARY_VERSION)));
	len = buf->len - buf->cursor;
	s = pq_getmsgbytes(buf, len);
	pg_verifymbstr(s, len, false);
	return formula_from_text(fcinfo, s, (size_t) len);
}

PG_FUNCTION_INFO_V1(pbs_formula_send);
Datum
pbs_formula_send(PG_FUNCTION_ARGS)
{
	text *t = PG_GETARG_TEXT_PP(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, PBS_FORMULA_BINARY_VERSION);
	pq_sendbytes(&buf, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* pbs_formula(formula, resourcedef): PBS's validation with the site's custom resources. */
PG_FUNCTION_INFO_V1(pbs_formula);
Datum
pbs_formula(PG_FUNCTION_ARGS)
{
	text *f, *r;
	const char *fs, *rs;
	size_t flen, rlen;
	fs_pf_prog *p;
	fs_error err;
	int code;
	StringInfoData out;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	f = PG_GETARG_TEXT_PP(0);
	fs = VARDATA_ANY(f);
	flen = VARSIZE_ANY_EXHDR(f);
	if (PG_ARGISNULL(1))
	{
		validate_formula(fs, flen, NULL, 0, false, NULL);
		PG_RETURN_TEXT_P(cstring_to_text_with_len(fs, (int) flen));
	}
	r = PG_GETARG_TEXT_PP(1);
	rs = VARDATA_ANY(r);
	rlen = VARSIZE_ANY_EXHDR(r);
	validate_formula(fs, flen, rs, rlen, false, NULL);
	/* built-in resources only: the formula alone; else the resourcedef goes with it */
	if (fs_pbs_formula_compile(fs, flen, NULL, false, &fs_pg_alloc, &p, &code, &err) == FS_OK)
	{
		fs_pf_free(p, &fs_pg_alloc);
		PG_RETURN_TEXT_P(cstring_to_text_with_len(fs, (int) flen));
	}
	initStringInfo(&out);
	appendBinaryStringInfo(&out, fs, (int) flen);
	appendBinaryStringInfo(&out, RESOURCEDEF_MARK, (int) RESOURCEDEF_MARK_LEN);
	appendBinaryStringInfo(&out, rs, (int) rlen);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out.data, out.len));
}

typedef struct value_cache
{
	MemoryContext cxt;
	fs_pf_prog *prog; /* NULL until a formula compiled */
	int *kw;
	double *vals;
	char *raw; /* the stored value the program was compiled from (formula and resourcedef) */
	size_t rawlen;
	bool is_const; /* the formula argument is a constant of the query: compiled once for all */
	uint8_t empty[sizeof(uint32_t)]; /* an empty resvec, for a NULL requested */
} value_cache;

/* Whether argument argno of the call is a constant of the query (a literal, once planned). */
static bool
arg_is_const(FmgrInfo *flinfo, int argno)
{
	Node *e = flinfo->fn_expr;
	List *args;

	if (e == NULL || !IsA(e, FuncExpr))
		return false;
	args = ((FuncExpr *) e)->args;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

/*
 * The compiled formula of argument 0, from the call site's cache: a formula that is a constant
 * of the query is compiled on the first row and then taken as it is, any other is compared with
 * the one compiled last (its bytes), and compiled again when it differs.
 */
static value_cache *
cached_formula(FunctionCallInfo fcinfo, text *formula)
{
	value_cache *vc = (value_cache *) fcinfo->flinfo->fn_extra;
	const char *s = VARDATA_ANY(formula), *rd;
	size_t raw = VARSIZE_ANY_EXHDR(formula), rdlen, len;
	MemoryContext old;
	fs_error err;
	fs_status st;
	int code;

	if (vc && vc->prog && (vc->is_const || (vc->rawlen == raw && memcmp(vc->raw, s, raw) == 0)))
		return vc;
	if (vc == NULL)
	{
		vc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(value_cache));
		vc->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pbs_formula_value formula",
		                                ALLOCSET_SMALL_SIZES);
		fcinfo->flinfo->fn_extra = vc;
	}
	vc->prog = NULL;
	MemoryContextReset(vc->cxt);
	len = formula_part(s, raw, &rd, &rdlen);
	old = MemoryContextSwitchTo(vc->cxt);
	st = fs_pbs_formula_compile(s, len, NULL, true, &fs_pg_alloc, &vc->prog, &code, &err);
	if (st == FS_OK)
	{
		size_t n = fs_pf_nslots(vc->prog) + 1;

		vc->kw = palloc(n * sizeof(int));
		vc->vals = palloc(n * sizeof(double));
		fs_pbs_formula_keywords(vc->prog, vc->kw);
		vc->raw = palloc(raw + 1);
		memcpy(vc->raw, s, raw);
		vc->rawlen = raw;
		vc->is_const = arg_is_const(fcinfo->flinfo, 0);
	}
	MemoryContextSwitchTo(old);
	if (st != FS_OK)
		vc->prog = NULL;
	fs_pg_check(st, &err);
	return vc;
}

static int
on_error_from_name(const char *name)
{
	if (strcmp(name, "zero") == 0)
		return 0;
	if (strcmp(name, "raise") == 0)
		return 1;
	return -1;
}

/*
 * pbs_formula_value(f, requested, queue_priority, job_priority, eligible_time, fairshare_perc,
 * fairshare_tree_usage, on_error, accrue_type): the value PBS stores for a job.
 */
PG_FUNCTION_INFO_V1(pbs_formula_value);
Datum
pbs_formula_value(PG_FUNCTION_ARGS)
{
	value_cache *vc;
	fs_pbs_job_keys keys;
	const uint8_t *req;
	int raise = 0;
	float r = 0;
	fs_error err;
	fs_status st;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (!PG_ARGISNULL(7))
	{
		text *oe = PG_GETARG_TEXT_PP(7);
		size_t n = VARSIZE_ANY_EXHDR(oe);

		/* read per row without a copy; anything else is the usual name error */
		if (n == 5 && memcmp(VARDATA_ANY(oe), "raise", 5) == 0)
			raise = 1;
		else if (!(n == 4 && memcmp(VARDATA_ANY(oe), "zero", 4) == 0))
			raise = fs_pg_name_arg(oe, on_error_from_name, "on_error", "on_error values",
			                       "zero and raise");
	}
	vc = cached_formula(fcinfo, PG_GETARG_TEXT_PP(0));
	memset(vc->empty, 0, sizeof(vc->empty));
	req = PG_ARGISNULL(1) ? vc->empty : (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(1));
	keys.queue_priority = PG_ARGISNULL(2) ? 0 : PG_GETARG_INT32(2);
	keys.job_priority = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT32(3);
	keys.eligible_time =
	    PG_ARGISNULL(4)
	        ? 0
	        : (double) fs_pg_interval_us(PG_GETARG_INTERVAL_P(4), "eligible_time") / 1e6;
	keys.fairshare_perc = PG_ARGISNULL(5) ? 0 : PG_GETARG_FLOAT8(5);
	keys.fairshare_tree_usage = PG_ARGISNULL(6) ? 0 : PG_GETARG_FLOAT8(6);
	keys.accrue_type = PG_ARGISNULL(8) ? 0 : PG_GETARG_INT32(8);
	st = fs_pbs_formula_value(vc->prog, vc->kw, vc->vals, req, &keys, &r, &err);
	if (st != FS_OK)
	{
		if (raise)
		{
			char msg[FS_MSG_LEN];

			snprintf(msg, sizeof(msg), "%s", err.message);
			fs_fail(&err, st, "PBS job_sort_formula failed for the job: %s", msg);
			fs_error_detail(&err, "PBS logs \"%s%s\" and uses 0 as the job's value.",
			                FS_PBS_FORMULA_ERROR_LOG, msg);
			fs_error_hint(&err, "on_error => 'zero' gives 0 with a notice, as PBS does.");
			fs_pg_raise(&err);
		}
		ereport(NOTICE, (errmsg("%s%s", FS_PBS_FORMULA_ERROR_LOG, err.message)));
		PG_RETURN_FLOAT8(0);
	}
	PG_RETURN_FLOAT8((double) r);
}

/* ---- pbs_job_order ----------------------------------------------------------------------- */

/* The fairshare values of the entities, found by a job's owner. */
typedef struct entity_index
{
	int n;
	fs_str *paths, *leaves; /* the path's bytes; its last label */
	fs_hindex by_path, by_leaf;
	bool *twice; /* the entity's last label ends another path too */
	double *perc, *usage;
	uint32_t *rank;
} entity_index;

static const char ENTITY_HINT[] =
    "Give fairshare_perc, fairshare_tree_usage and fairshare_rank with one element per entity.";

/* One float8 or int array aligned with the entities; NULL elements read as 0 (none). */
static void
entity_numbers(ArrayType *arr, int n, const char *what, double *d, uint32_t *u)
{
	Datum *v;
	bool *nulls;
	int i, m;

	fs_pg_check_1d(arr, what);
	if (d)
		deconstruct_array(arr, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &v, &nulls, &m);
	else
		deconstruct_array(arr, INT4OID, 4, true, TYPALIGN_INT, &v, &nulls, &m);
	if (m != n)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
		                errmsg("%s has %d elements but entities has %d", what, m, n),
		                errhint("%s", ENTITY_HINT)));
	for (i = 0; i < n; i++)
	{
		if (d)
		{
			d[i] = nulls[i] ? 0 : DatumGetFloat8(v[i]);
			if (!isfinite(d[i]) || d[i] < 0)
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("%s[%d] is %g", what, i + 1, d[i]),
				                errdetail("A fairshare value is finite and not negative.")));
		}
		else
		{
			int32 r = nulls[i] ? 0 : DatumGetInt32(v[i]);

			if (r < 0)
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("%s[%d] is %d", what, i + 1, r),
				                errdetail("A fairshare rank is 1 or more (NULL: none).")));
			u[i] = nulls[i] || r == 0 ? UINT32_MAX : (uint32_t) r;
		}
	}
}

static void
entity_index_build(entity_index *ix, FunctionCallInfo fcinfo)
{
	Datum *v;
	bool *nulls;
	int i;
	ArrayType *paths = PG_GETARG_ARRAYTYPE_P(2);

	fs_pg_check_1d(paths, "entities");
	deconstruct_array(paths, ARR_ELEMTYPE(paths), -1, false, TYPALIGN_INT, &v, &nulls, &ix->n);
	ix->paths = palloc0(sizeof(fs_str) * (ix->n + 1));
	ix->leaves = palloc0(sizeof(fs_str) * (ix->n + 1));
	ix->perc = palloc(sizeof(double) * (ix->n + 1));
	ix->usage = palloc(sizeof(double) * (ix->n + 1));
	ix->rank = palloc(sizeof(uint32_t) * (ix->n + 1));
	ix->twice = palloc0(sizeof(bool) * (ix->n + 1));
	entity_numbers(PG_GETARG_ARRAYTYPE_P(3), ix->n, "fairshare_perc", ix->perc, NULL);
	entity_numbers(PG_GETARG_ARRAYTYPE_P(4), ix->n, "fairshare_tree_usage", ix->usage, NULL);
	entity_numbers(PG_GETARG_ARRAYTYPE_P(5), ix->n, "fairshare_rank", NULL, ix->rank);
	fs_hindex_init(&ix->by_path, (size_t) ix->n, &fs_pg_alloc);
	fs_hindex_init(&ix->by_leaf, (size_t) ix->n, &fs_pg_alloc);
	for (i = 0; i < ix->n; i++)
	{
		struct varlena *p;
		fs_sp_iter it;
		const char *label = NULL;
		size_t len = 0;
		uint32_t e;

		CHECK_FOR_INTERRUPTS();
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("entities[%d] is NULL", i + 1)));
		p = PG_DETOAST_DATUM_PACKED(v[i]);
		ix->paths[i].s = VARDATA_ANY(p);
		ix->paths[i].len = VARSIZE_ANY_EXHDR(p);
		fs_sp_iter_init(&it, (const uint8_t *) ix->paths[i].s);
		while (fs_sp_next(&it, &label, &len))
			;
		ix->leaves[i].s = label;
		ix->leaves[i].len = len;
		e = fs_hindex_put(&ix->by_path, fs_str_hash(ix->paths[i]), &ix->paths[i], (uint32_t) i,
		                  fs_str_array_eq, ix->paths);
		if (e != (uint32_t) i)
		{
			fs_path_text t;

			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("entity \"%s\" is given twice, as entities[%u] and entities[%d]",
			                       fs_sp_text((const uint8_t *) ix->paths[i].s, &t), e + 1, i + 1),
			                errhint("Give each entity once, as fairshare() lists them.")));
		}
		if (label)
		{
			e = fs_hindex_put(&ix->by_leaf, fs_str_hash(ix->leaves[i]), &ix->leaves[i],
			                  (uint32_t) i, fs_str_array_eq, ix->leaves);
			if (e != (uint32_t) i)
				ix->twice[e] = true; /* a name two entities end with: found by path only */
		}
	}
}

/*
 * The entity of a job's owner: its path, or, for a name of one label, the entity whose path ends
 * with it (PBS names entities by such names, unique in its tree). -1: not in the tree.
 */
static int
entity_of(const entity_index *ix, const uint8_t *owner, size_t len, int job)
{
	fs_str key = {(const char *) owner, len};
	uint32_t e = fs_hindex_get(&ix->by_path, fs_str_hash(key), &key, fs_str_array_eq, ix->paths);
	fs_sp_iter it;
	const char *label;
	size_t llen;

	if (e != UINT32_MAX)
		return (int) e;
	fs_sp_iter_init(&it, owner);
	if (fs_sp_nlevel(owner) != 1 || !fs_sp_next(&it, &label, &llen))
		return -1;
	key.s = label;
	key.len = llen;
	e = fs_hindex_get(&ix->by_leaf, fs_str_hash(key), &key, fs_str_array_eq, ix->leaves);
	if (e == UINT32_MAX)
		return -1;
	if (ix->twice[e])
	{
		fs_path_text t;

		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		         errmsg("owner \"%s\" of jobs[%d] ends the paths of two entities",
		                fs_sp_text(owner, &t), job + 1),
		         errhint("Write the owner's path from the root, as fairshare() prints it.")));
	}
	return (int) e;
}

/* The fields of pbs_job this reads, in this order. */
static const char *const job_fields[] = {"job_id",  "owner",        "queue",     "queue_priority",
                                         "express", "job_priority", "requested", "eligible_time",
                                         "qtime",   "accrue_type"};
#define JOB_FIELDS 10

/* PBS's default preempt_queue_prio: a queue of this priority or more is an express queue. */
#define PBS_PREEMPT_QUEUE_PRIO 150

/* The sort_keys argument, read into sort keys (their names point into the array's elements). */
static fs_pbs_sort_key *
read_sort_keys(ArrayType *arr, int *n)
{
	Datum *v;
	bool *nulls;
	int i;
	fs_pbs_sort_key *keys;

	fs_pg_check_1d(arr, "sort_keys");
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &v, &nulls, n);
	keys = palloc(sizeof(fs_pbs_sort_key) * (*n + 1));
	for (i = 0; i < *n; i++)
	{
		text *t;
		fs_error err;

		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("sort_keys[%d] is NULL", i + 1)));
		t = DatumGetTextPP(v[i]);
		fs_pg_check(fs_pbs_sort_key_parse(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &keys[i], &err),
		            &err);
	}
	return keys;
}

/*
 * pbs_job_order_fairshare(f, jobs, entities, fairshare_perc, fairshare_tree_usage,
 * fairshare_rank, as_of, threshold, by_queue, sort_keys): each job's formula value, then PBS's
 * order of the jobs, one row per job in that order.
 */
PG_FUNCTION_INFO_V1(pbs_job_order_fairshare);
Datum
pbs_job_order_fairshare(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	value_cache *vc;
	entity_index ix = {0};
	bool fairshare = !PG_ARGISNULL(2);
	bool has_as_of = !PG_ARGISNULL(6), has_threshold = !PG_ARGISNULL(7);
	int64 as_of = has_as_of ? fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(6), "as_of") : 0;
	double threshold = has_threshold ? PG_GETARG_FLOAT8(7) : 0;
	fs_pbs_order_opts opts = {NULL, 0, PG_ARGISNULL(8) || PG_GETARG_BOOL(8), fairshare};
	fs_pg_row_reader r;
	fs_pbs_order_job *jobs;
	double *keyvals;
	uint32_t *order;
	uint8_t *decided;
	Datum *elems;
	int n = 0, nkeys = 0, i, f[JOB_FIELDS];

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	if (has_threshold && isnan(threshold))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("threshold is NaN"),
		                errhint("Give job_sort_formula_threshold as a number, or NULL for none.")));
	if (fairshare)
	{
		if (PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(5))
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("entities is given but fairshare_perc, fairshare_tree_usage "
			                       "or fairshare_rank is NULL"),
			                errhint("%s", ENTITY_HINT)));
		entity_index_build(&ix, fcinfo);
	}
	if (!PG_ARGISNULL(9))
	{
		opts.keys = read_sort_keys(PG_GETARG_ARRAYTYPE_P(9), &nkeys);
		opts.nkeys = (size_t) nkeys;
	}
	vc = cached_formula(fcinfo, PG_GETARG_TEXT_PP(0));
	elems = fs_pg_rows_open(&r, PG_GETARG_ARRAYTYPE_P(1), "jobs", "pbs_job", job_fields, JOB_FIELDS,
	                        f, &n);
	jobs = palloc0(sizeof(fs_pbs_order_job) * (n + 1));
	keyvals = palloc(sizeof(double) * ((size_t) n * nkeys + 1));
	memset(vc->empty, 0, sizeof(vc->empty));
	for (i = 0; i < n; i++)
	{
		fs_pbs_order_job *j = &jobs[i];
		fs_pbs_job_keys keys = {0};
		const uint8_t *req = vc->empty;
		fs_error err;
		int e = -1, k;

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&r, elems[i]);
		if (r.nulls[f[0]] || r.nulls[f[2]])
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			         errmsg("jobs[%d].%s is NULL", i + 1, r.nulls[f[0]] ? "job_id" : "queue"),
			         errhint("Every pending job has a job id and a queue.")));
		j->job_id.s = fs_pg_text_field(r.values[f[0]], false, &j->job_id.len);
		j->queue.s = fs_pg_text_field(r.values[f[2]], false, &j->queue.len);
		keys.queue_priority = r.nulls[f[3]] ? 0 : DatumGetInt32(r.values[f[3]]);
		j->queue_priority = keys.queue_priority;
		j->express = r.nulls[f[4]] ? keys.queue_priority >= PBS_PREEMPT_QUEUE_PRIO
		                           : DatumGetBool(r.values[f[4]]);
		keys.job_priority = r.nulls[f[5]] ? 0 : DatumGetInt32(r.values[f[5]]);
		if (!r.nulls[f[6]])
			req = (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(r.values[f[6]]));
		j->has_qtime = !r.nulls[f[8]];
		if (j->has_qtime)
			j->qtime = fs_pg_timestamp(DatumGetTimestampTz(r.values[f[8]]), "qtime");
		if (!r.nulls[f[7]])
			keys.eligible_time =
			    (double) fs_pg_interval_us(DatumGetIntervalP(r.values[f[7]]), "eligible_time") /
			    1e6;
		else if (has_as_of && j->has_qtime && as_of > j->qtime)
			keys.eligible_time = (double) (as_of - j->qtime) / 1e6; /* eligible since queued */
		keys.accrue_type = r.nulls[f[9]] ? 0 : DatumGetInt32(r.values[f[9]]);
		if (fairshare && !r.nulls[f[1]])
		{
			struct varlena *o = PG_DETOAST_DATUM_PACKED(r.values[f[1]]);

			e = entity_of(&ix, (const uint8_t *) VARDATA_ANY(o), VARSIZE_ANY_EXHDR(o), i);
		}
		j->fs_rank = e >= 0 ? ix.rank[e] : UINT32_MAX;
		keys.fairshare_perc = e >= 0 ? ix.perc[e] : 0;
		keys.fairshare_tree_usage = e >= 0 ? ix.usage[e] : 0;
		if (fs_pbs_formula_value(vc->prog, vc->kw, vc->vals, req, &keys, &j->value, &err) != FS_OK)
		{
			ereport(NOTICE, (errmsg("%s%s", FS_PBS_FORMULA_ERROR_LOG, err.message),
			                 errdetail("The job is \"%.*s\".", (int) j->job_id.len, j->job_id.s)));
			j->value = 0;
		}
		j->keys = keyvals + (size_t) i * nkeys;
		for (k = 0; k < nkeys; k++)
			keyvals[(size_t) i * nkeys + k] =
			    fs_pbs_sort_key_value(&opts.keys[k], req, &keys, j->express);
	}
	order = palloc(sizeof(uint32_t) * (n + 1));
	decided = palloc(sizeof(uint8_t) * (n + 1));
	fs_pbs_job_order(jobs, (size_t) n, &opts, &fs_pg_alloc, order, decided);
	for (i = 0; i < n; i++)
	{
		const fs_pbs_order_job *j = &jobs[order[i]];
		bool under = has_threshold && fs_pbs_under_threshold(j->value, threshold);
		const char *by = fs_pbs_decided_name((fs_pbs_decided) decided[i]);
		Datum v[7];
		bool nulls[7] = {false};

		CHECK_FOR_INTERRUPTS();
		v[0] = Int32GetDatum(i + 1);
		v[1] = PointerGetDatum(cstring_to_text_with_len(j->job_id.s, (int) j->job_id.len));
		v[2] = PointerGetDatum(cstring_to_text_with_len(j->queue.s, (int) j->queue.len));
		v[3] = Float8GetDatum((double) j->value);
		v[4] = BoolGetDatum(!under);
		v[5] = by ? CStringGetTextDatum(by) : (Datum) 0;
		nulls[5] = by == NULL;
		v[6] = under ? CStringGetTextDatum(FS_PBS_THRESHOLD_COMMENT) : (Datum) 0;
		nulls[6] = !under;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, nulls);
		pfree(DatumGetPointer(v[1]));
		pfree(DatumGetPointer(v[2]));
	}
	fs_pg_reader_close(&r);
	return (Datum) 0;
}

/* ---- pbs_eligible_time: the aggregate over a job's accrue-type changes -------------------- */

/* The changes seen so far, in the aggregate's memory context. */
typedef struct accrue_state
{
	int n, cap;
	fs_pbs_accrue *ev;
} accrue_state;

static accrue_state *
accrue_state_new(MemoryContext cxt, int cap)
{
	accrue_state *s = MemoryContextAlloc(cxt, sizeof(accrue_state));

	s->n = 0;
	s->cap = cap < 8 ? 8 : cap;
	s->ev = MemoryContextAlloc(cxt, sizeof(fs_pbs_accrue) * s->cap);
	return s;
}

static void
accrue_state_add(accrue_state *s, const fs_pbs_accrue *ev, int n)
{
	if (n > s->cap - s->n)
	{
		int cap = s->cap;

		if ((Size) s->n + n > MaxAllocSize / sizeof(fs_pbs_accrue) / 2)
			ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			                errmsg("pbs_eligible_time holds at most %zu accrue-type changes per "
			                       "group",
			                       (size_t) (MaxAllocSize / sizeof(fs_pbs_accrue) / 2)),
			                errhint("Group the changes by job (GROUP BY job_id).")));
		while (cap - s->n < n)
			cap *= 2;
		s->ev = repalloc(s->ev, sizeof(fs_pbs_accrue) * cap);
		s->cap = cap;
	}
	memcpy(s->ev + s->n, ev, sizeof(fs_pbs_accrue) * n);
	s->n += n;
}

PG_FUNCTION_INFO_V1(pbs_eligible_time_accum);
Datum
pbs_eligible_time_accum(PG_FUNCTION_ARGS)
{
	MemoryContext agg;
	accrue_state *s = PG_ARGISNULL(0) ? NULL : (accrue_state *) PG_GETARG_POINTER(0);
	fs_pbs_accrue ev;
	int32 type;

	if (!AggCheckCallContext(fcinfo, &agg))
		elog(ERROR, "pbs_eligible_time_accum called in non-aggregate context");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
	{
		if (s == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(s);
	}
	type = PG_GETARG_INT32(1);
	if (!fs_pbs_accrue_type_ok(type))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("accrue_type %d is not one of PBS's accrue types", type),
		                errhint("PBS's accrue types are 0 initial, 1 ineligible, 2 eligible, 3 "
		                        "run and 4 exit.")));
	ev.type = type;
	ev.at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(2), "at");
	if (s == NULL)
		s = accrue_state_new(agg, 8);
	accrue_state_add(s, &ev, 1);
	PG_RETURN_POINTER(s);
}

PG_FUNCTION_INFO_V1(pbs_eligible_time_combine);
Datum
pbs_eligible_time_combine(PG_FUNCTION_ARGS)
{
	MemoryContext agg;
	accrue_state *a = PG_ARGISNULL(0) ? NULL : (accrue_state *) PG_GETARG_POINTER(0);
	accrue_state *b = PG_ARGISNULL(1) ? NULL : (accrue_state *) PG_GETARG_POINTER(1);

	if (!AggCheckCallContext(fcinfo, &agg))
		elog(ERROR, "pbs_eligible_time_combine called in non-aggregate context");
	if (b == NULL)
	{
		if (a == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(a);
	}
	if (a == NULL)
		a = accrue_state_new(agg, b->n);
	accrue_state_add(a, b->ev, b->n);
	PG_RETURN_POINTER(a);
}

PG_FUNCTION_INFO_V1(pbs_eligible_time_serialize);
Datum
pbs_eligible_time_serialize(PG_FUNCTION_ARGS)
{
	accrue_state *s = (accrue_state *) PG_GETARG_POINTER(0);
	StringInfoData buf;
	int i;

	pq_begintypsend(&buf);
	pq_sendint32(&buf, (uint32) s->n);
	for (i = 0; i < s->n; i++)
	{
		pq_sendint64(&buf, s->ev[i].at);
		pq_sendbyte(&buf, (uint8) s->ev[i].type);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(pbs_eligible_time_deserialize);
Datum
pbs_eligible_time_deserialize(PG_FUNCTION_ARGS)
{
	bytea *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext agg;
	StringInfoData buf;
	accrue_state *s;
	int i, n;

	if (!AggCheckCallContext(fcinfo, &agg))
		elog(ERROR, "pbs_eligible_time_deserialize called in non-aggregate context");
	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.maxlen = buf.len;
	buf.cursor = 0;
	n = (int) pq_getmsgint(&buf, 4);
	s = accrue_state_new(agg, n);
	for (i = 0; i < n; i++)
	{
		s->ev[i].at = pq_getmsgint64(&buf);
		s->ev[i].type = pq_getmsgbyte(&buf);
	}
	s->n = n;
	pq_getmsgend(&buf);
	PG_RETURN_POINTER(s);
}

/* The eligible time of the changes, as an interval of whole seconds. */
PG_FUNCTION_INFO_V1(pbs_eligible_time_final);
Datum
pbs_eligible_time_final(PG_FUNCTION_ARGS)
{
	accrue_state *s = PG_ARGISNULL(0) ? NULL : (accrue_state *) PG_GETARG_POINTER(0);
	Interval *iv;
	fs_pbs_accrue *ev;

	if (s == NULL)
		PG_RETURN_NULL();
	/* sorted in a copy: a window call gives the final function the same state again */
	ev = palloc(sizeof(fs_pbs_accrue) * (s->n + 1));
	memcpy(ev, s->ev, sizeof(fs_pbs_accrue) * s->n);
	iv = palloc0(sizeof(Interval));
	iv->time = fs_pbs_eligible_seconds(ev, (size_t) s->n, &fs_pg_alloc) * USECS_PER_SEC;
	pfree(ev);
	PG_RETURN_INTERVAL_P(iv);
}
