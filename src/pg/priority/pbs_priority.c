/*
 * pbs_priority.c (glue): the pbs_formula type (a validated job_sort_formula, stored and printed
 * as its text), pbs_formula() with a resourcedef, and pbs_formula_value(). The algorithms are in
 * src/core/priority/pbs_priority.c; a compiled formula is cached in fn_extra, so that a query
 * compiles it once however many jobs it values.
 */
#include "fs_pg.h"

#include "priority/pbs_priority.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/memutils.h"

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
	uint8_t empty[sizeof(uint32_t)]; /* an empty resvec, for a NULL requested */
} value_cache;

static value_cache *
cached_formula(FunctionCallInfo fcinfo, text *formula)
{
	value_cache *vc = (value_cache *) fcinfo->flinfo->fn_extra;
	const char *s = VARDATA_ANY(formula), *rd;
	size_t rdlen, len = formula_part(s, VARSIZE_ANY_EXHDR(formula), &rd, &rdlen), plen;
	MemoryContext old;
	fs_error err;
	fs_status st;
	int code;

	if (vc && vc->prog)
	{
		const char *t = fs_pf_text(vc->prog, &plen);

		if (plen == len && memcmp(t, s, len) == 0)
			return vc;
	}
	if (vc == NULL)
	{
		vc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(value_cache));
		vc->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pbs_formula_value formula",
		                                ALLOCSET_SMALL_SIZES);
		fcinfo->flinfo->fn_extra = vc;
	}
	vc->prog = NULL;
	MemoryContextReset(vc->cxt);
	old = MemoryContextSwitchTo(vc->cxt);
	st = fs_pbs_formula_compile(s, len, NULL, true, &fs_pg_alloc, &vc->prog, &code, &err);
	if (st == FS_OK)
	{
		size_t n = fs_pf_nslots(vc->prog) + 1;

		vc->kw = palloc(n * sizeof(int));
		vc->vals = palloc(n * sizeof(double));
		fs_pbs_formula_keywords(vc->prog, vc->kw);
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
