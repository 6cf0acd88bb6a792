/*
 * msic_order.c (glue): msic_job_order, the MSIC scheduler's job flags and job order. Reads the
 * configuration's fields by name (so fields appended to msic_config do not matter), the share
 * states and the jobs from arrays of composites; the rules are in src/core/msic_order.c.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "msic_order.h"

/* The fields of a composite type that we read, found by name once per array. */
typedef struct row_reader
{
	TupleDesc td;
	int natts;
	Datum *values;
	bool *nulls;
	const char *what;
} row_reader;

static int
field_number(TupleDesc td, const char *name, const char *type)
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
static Datum *
composite_elements(ArrayType *arr, const char *what, int *n)
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

static void
reader_open(row_reader *r, ArrayType *arr, const char *what)
{
	r->td = lookup_rowtype_tupdesc(ARR_ELEMTYPE(arr), -1);
	r->natts = r->td->natts;
	r->values = palloc(sizeof(Datum) * r->natts);
	r->nulls = palloc(sizeof(bool) * r->natts);
	r->what = what;
}

static void
reader_read(row_reader *r, Datum d)
{
	HeapTupleHeader h = DatumGetHeapTupleHeader(d);
	HeapTupleData tuple;

	tuple.t_len = HeapTupleHeaderGetDatumLength(h);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = h;
	heap_deform_tuple(&tuple, r->td, r->values, r->nulls);
}

static void
reader_close(row_reader *r)
{
	ReleaseTupleDesc(r->td);
}

/* A text field: its bytes (detoasted), or NULL. */
static const char *
text_field(Datum d, bool isnull, size_t *len)
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

static const char *
config_text(HeapTupleHeader cfg, const char *name, size_t *len)
{
	bool isnull;
	Datum d = GetAttributeByName(cfg, name, &isnull);

	return text_field(d, isnull, len);
}

static void
read_config(HeapTupleHeader cfg, fs_msic_order_in *in)
{
	bool isnull;
	Datum d;

	in->submit_queue = config_text(cfg, "submit_queue", &in->submitlen);
	in->express_queue = config_text(cfg, "express_queue", &in->expresslen);
	d = GetAttributeByName(cfg, "max_wait_time", &isnull);
	/* not set: the original's default, 432000 s (5 days) */
	in->max_wait_us = isnull ? INT64CONST(432000) * USECS_PER_SEC
	                         : fs_pg_interval_us(DatumGetIntervalP(d), "max_wait_time");
	d = GetAttributeByName(cfg, "fair_share", &isnull);
	in->fs = NULL;
	in->nfs = 0;
	if (!isnull)
	{
		ArrayType *arr = DatumGetArrayTypeP(d);
		int n, i, fq, fsh, fpct;
		Datum *elems = composite_elements(arr, "fair_share", &n);
		fs_msic_fs_entry *fs = palloc(sizeof(fs_msic_fs_entry) * (n + 1));
		row_reader r;

		reader_open(&r, arr, "fair_share");
		fq = field_number(r.td, "queue", "msic_share_spec");
		fsh = field_number(r.td, "shares", "msic_share_spec");
		fpct = field_number(r.td, "max_run_pct", "msic_share_spec");
		for (i = 0; i < n; i++)
		{
			reader_read(&r, elems[i]);
			fs[i].queue = text_field(r.values[fq], r.nulls[fq], &fs[i].queuelen);
			if (r.nulls[fsh] || r.nulls[fpct])
				ereport(ERROR,
				        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				         errmsg("fair_share[%d] of the configuration has a NULL field", i + 1)));
			fs[i].shares = DatumGetInt32(r.values[fsh]);
			fs[i].max_run_pct = DatumGetInt32(r.values[fpct]);
		}
		reader_close(&r);
		in->fs = fs;
		in->nfs = n;
	}
}

static void
read_shares(ArrayType *arr, fs_msic_order_in *in)
{
	int n, i, fq, fnd, fpast, fuse, fmax;
	Datum *elems = composite_elements(arr, "shares", &n);
	fs_msic_state *st = palloc(sizeof(fs_msic_state) * (n + 1));
	row_reader r;

	reader_open(&r, arr, "shares");
	fq = field_number(r.td, "queue", "msic_share");
	fnd = field_number(r.td, "ndays", "msic_share");
	fpast = field_number(r.td, "past_pct", "msic_share");
	fuse = field_number(r.td, "today_usage", "msic_share");
	fmax = field_number(r.td, "today_max", "msic_share");
	for (i = 0; i < n; i++)
	{
		reader_read(&r, elems[i]);
		if (r.nulls[fq] || r.nulls[fnd] || r.nulls[fpast] || r.nulls[fuse] || r.nulls[fmax])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("shares[%d] has a NULL field", i + 1),
			                errhint("A share state needs queue, ndays, past_pct, today_usage and "
			                        "today_max.")));
		st[i].queue = text_field(r.values[fq], false, &st[i].queuelen);
		st[i].s.ndays = DatumGetInt32(r.values[fnd]);
		st[i].s.past_pct = DatumGetFloat8(r.values[fpast]);
		st[i].s.today_usage = DatumGetFloat8(r.values[fuse]);
		st[i].s.today_max = DatumGetFloat8(r.values[fmax]);
	}
	reader_close(&r);
	in->states = st;
	in->nstates = n;
}

enum
{
	J_ID,
	J_OWNER,
	J_QUEUE,
	J_STATE,
	J_WALLTIME,
	J_USED,
	J_CTIME,
	J_ETIME,
	J_EXEC_HOST,
	J_CHKPTD,
	J_FIELDS
};

static const char *const job_fields[J_FIELDS] = {"job_id",    "owner",         "queue", "state",
                                                 "walltime",  "walltime_used", "ctime", "etime",
                                                 "exec_host", "chkptd"};

static fs_msic_ojob *
read_jobs(ArrayType *arr, int *count)
{
	int n, i, k, f[J_FIELDS];
	Datum *elems = composite_elements(arr, "jobs", &n);
	fs_msic_ojob *jobs = palloc(sizeof(fs_msic_ojob) * (n + 1));
	row_reader r;

	reader_open(&r, arr, "jobs");
	for (k = 0; k < J_FIELDS; k++)
		f[k] = field_number(r.td, job_fields[k], "msic_job");
	for (i = 0; i < n; i++)
	{
		fs_msic_ojob *j = &jobs[i];
		size_t slen;
		const char *state;

		CHECK_FOR_INTERRUPTS();
		reader_read(&r, elems[i]);
		if (r.nulls[f[J_ID]])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("jobs[%d] has no job_id", i + 1)));
		j->job_id = text_field(r.values[f[J_ID]], false, &j->idlen);
		for (k = J_OWNER; k <= J_WALLTIME; k++)
			if (k != J_QUEUE && r.nulls[f[k]])
				ereport(ERROR,
				        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				         errmsg("job \"%s\" has no %s", pnstrdup(j->job_id, Min(j->idlen, 200)),
				                job_fields[k]),
				         errhint("A job needs job_id, owner, state and walltime; queue NULL is "
				                 "the submit queue.")));
		j->owner = text_field(r.values[f[J_OWNER]], false, &j->ownerlen);
		j->queue = text_field(r.values[f[J_QUEUE]], r.nulls[f[J_QUEUE]], &j->queuelen);
		state = text_field(r.values[f[J_STATE]], false, &slen);
		if (slen != 1 || (state[0] != 'Q' && state[0] != 'R' && state[0] != 'S'))
			ereport(ERROR,
			        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			         errmsg("invalid state \"%s\" of job \"%s\"", pnstrdup(state, Min(slen, 200)),
			                pnstrdup(j->job_id, Min(j->idlen, 200))),
			         errdetail("A job's state must be Q (queued), R (running) or S (suspended).")));
		j->state = state[0];
		j->walltime_us = fs_pg_interval_us(DatumGetIntervalP(r.values[f[J_WALLTIME]]), "walltime");
		j->used_us = r.nulls[f[J_USED]] ? 0
		                                : fs_pg_interval_us(DatumGetIntervalP(r.values[f[J_USED]]),
		                                                    "walltime_used");
		/* eligible since etime, else ctime, as the original */
		if (!r.nulls[f[J_ETIME]])
			j->eligible_at = fs_pg_timestamp(DatumGetTimestampTz(r.values[f[J_ETIME]]), "etime");
		else if (!r.nulls[f[J_CTIME]])
			j->eligible_at = fs_pg_timestamp(DatumGetTimestampTz(r.values[f[J_CTIME]]), "ctime");
		else
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			         errmsg("job \"%s\" has neither etime nor ctime",
			                pnstrdup(j->job_id, Min(j->idlen, 200))),
			         errhint("The eligible time (etime, else ctime) decides WAITING and age.")));
		j->has_exec_host = !r.nulls[f[J_EXEC_HOST]];
		j->chkptd = r.nulls[f[J_CHKPTD]] ? -1 : DatumGetBool(r.values[f[J_CHKPTD]]) ? 1 : 0;
	}
	reader_close(&r);
	*count = n;
	return jobs;
}

/* msic_job_order(config, shares, jobs, at, cluster_cpus, rank) */
PG_FUNCTION_INFO_V1(msic_job_order);
Datum
msic_job_order(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_msic_order_in in;
	fs_msic_ojob *jobs;
	fs_msic_row *rows;
	text *rank;
	fs_error err;
	int n, i;

	InitMaterializedSRF(fcinfo, 0);
	/* shares NULL: no queue has history yet; any other NULL argument: no rows */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(5))
		return (Datum) 0;
	memset(&in, 0, sizeof(in));
	rank = PG_GETARG_TEXT_PP(5);
	in.rank = (fs_msic_rank_mode) fs_pg_name_arg(rank, fs_msic_rank_mode_from_name, "rank mode",
	                                             "modes", FS_MSIC_RANK_MODES);
	read_config(PG_GETARG_HEAPTUPLEHEADER(0), &in);
	if (!PG_ARGISNULL(1))
		read_shares(PG_GETARG_ARRAYTYPE_P(1), &in);
	jobs = read_jobs(PG_GETARG_ARRAYTYPE_P(2), &n);
	in.at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(3), "at");
	in.cluster_cpus = PG_GETARG_INT32(4);
	fs_pg_check(fs_msic_job_order(&in, jobs, (size_t) n, &fs_pg_alloc, &rows, &err), &err);
	for (i = 0; i < n; i++)
	{
		const fs_msic_row *r = &rows[i];
		const fs_msic_ojob *j = &jobs[r->job];
		Datum values[13];
		bool nulls[13];

		CHECK_FOR_INTERRUPTS();
		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(i + 1);
		values[1] = PointerGetDatum(cstring_to_text_with_len(j->job_id, (int) j->idlen));
		values[2] = BoolGetDatum(r->priority);
		values[3] = BoolGetDatum(r->waiting);
		values[4] = BoolGetDatum(r->runlimit);
		values[5] = BoolGetDatum(r->chkpt_ok);
		values[6] = BoolGetDatum(r->suspended);
		values[7] = BoolGetDatum(r->chkptd);
		values[8] = Float8GetDatum(r->queue_rank);
		values[9] = BoolGetDatum(r->over_share);
		values[10] = Int32GetDatum(r->user_limit);
		values[11] = Int32GetDatum(r->user_running);
		if (r->decided_by)
			values[12] = CStringGetTextDatum(r->decided_by);
		else
			nulls[12] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
