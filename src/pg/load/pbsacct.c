/*
 * pbsacct.c (glue): pbs_acct, pbs_acct_try, pbs_acct_attrs and pbs_qstat_json. The reading of the
 * line is in src/core/load/pbsacct.c; this maps a record onto the fairsched.pbs_record composite.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load/json_glue.h"
#include "load/jsonb_build.h"
#include "load/pbs_glue.h"
#include "load/pbs_qstat_json.h"
#include "load/sacct_glue.h"
#include "load/pbsacct.h"
#include "types/resvec.h"

/* Columns of fairsched.pbs_record, in order. */
enum
{
	COL_LOG_TIME,
	COL_RECORD_TYPE,
	COL_JOB_ID,
	COL_JOB_SEQ,
	COL_ARRAY_INDEX,
	COL_IS_ARRAY_PARENT,
	COL_SERVER,
	COL_USER, /* then group, account, project, queue, jobname in FS_PBS_* order */
	COL_CTIME = COL_USER + FS_PBS_NTEXTS, /* then qtime, etime, start, end */
	COL_EXIT_STATUS = COL_CTIME + FS_PBS_NTIMES,
	COL_RUN_COUNT,
	COL_SESSION,
	COL_USED,
	COL_REQUESTED,
	COL_REQUESTED_TEXT,
	COL_EXEC_HOSTS,
	COL_EXEC_HOST_CPUS,
	COL_ATTRS,
	COL_ANOMALIES,
	COL_ERROR,
	NCOLS
};

static Datum
span_text(const char *line, size_t off, size_t len)
{
	return PointerGetDatum(cstring_to_text_with_len(line + off, (int) len));
}

/*
 * A jsonb object of pairs (all of them, or those listed in `which`); later keys win. All of them
 * come in jsonb's own key order (rec->by_key), so that nothing is sorted unless a key repeats;
 * the listed ones are sorted by fs_pg_jsonb_object.
 */
static Datum
pairs_jsonb(const fs_pbs_record *rec, const size_t *which, size_t n, size_t strip)
{
	fs_pg_jpair *jp = palloc(sizeof(fs_pg_jpair) * (n + 1));
	Datum d;
	size_t i;

	for (i = 0; i < n; i++)
	{
		const fs_pbs_pair *p = &rec->pairs[which ? which[i] : rec->by_key[i]];
		size_t cut = 0;

		/* Resource_List.select -> "select"; Resource_Request_2.0 stays whole */
		if (strip && p->key_len > strip &&
		    memcmp(rec->line + p->key_off, "Resource_List.", 14) == 0)
			cut = strip;
		jp[i].key = rec->line + p->key_off + cut;
		jp[i].klen = p->key_len - cut;
		jp[i].val = rec->line + p->val_off;
		jp[i].vlen = p->val_len;
	}
	d = fs_pg_jsonb_object(jp, n);
	pfree(jp);
	return d;
}

static TimestampTz
epoch_timestamptz(int64_t epoch)
{
	/* the core keeps epochs below 10^12 seconds, well inside the timestamp range */
	return (
	    TimestampTz) ((epoch - ((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)) *
	                  USECS_PER_SEC);
}

static Timestamp
stamp_timestamp(const fs_pbs_record *rec)
{
	int64 days = date2j(rec->year, rec->month, rec->day) - POSTGRES_EPOCH_JDATE;

	return (Timestamp) (days * USECS_PER_DAY +
	                    ((int64) rec->hour * 3600 + rec->minute * 60 + rec->second) *
	                        USECS_PER_SEC);
}

/*
 * rec as a fairsched.pbs_record (pbs_qstat_json shares it); with err instead (a syntax error for
 * pbs_acct_try), a record of the error alone. A CPU count of exec_host that is unknown or beyond
 * int4 is NULL.
 */
HeapTuple
fs_pg_pbs_tuple(TupleDesc desc, const fs_pbs_record *rec, const fs_error *err)
{
	Datum values[NCOLS];
	bool nulls[NCOLS];
	int i;

	if (desc->natts != NCOLS)
		elog(ERROR, "fairsched.pbs_record has %d columns, expected %d", desc->natts, NCOLS);
	for (i = 0; i < NCOLS; i++)
	{
		values[i] = (Datum) 0;
		nulls[i] = true;
	}
	if (err != NULL)
	{
		values[COL_ERROR] = CStringGetTextDatum(err->detail[0] ? err->detail : err->message);
		nulls[COL_ERROR] = false;
		return heap_form_tuple(desc, values, nulls);
	}

#define SET(col, val) (values[(col)] = (val), nulls[(col)] = false)
	SET(COL_LOG_TIME, TimestampGetDatum(stamp_timestamp(rec)));
	SET(COL_RECORD_TYPE, PointerGetDatum(cstring_to_text_with_len(&rec->type, 1)));
	SET(COL_JOB_ID, span_text(rec->line, rec->id_off, rec->id_len));
	if (rec->is_job)
	{
		SET(COL_JOB_SEQ, Int64GetDatum(rec->job_seq));
		if (rec->has_index)
			SET(COL_ARRAY_INDEX, Int32GetDatum(rec->array_index));
		SET(COL_IS_ARRAY_PARENT, BoolGetDatum(rec->is_array_parent));
		if (rec->server_len > 0)
			SET(COL_SERVER, span_text(rec->line, rec->server_off, rec->server_len));
	}
	for (i = 0; i < FS_PBS_NTEXTS; i++)
		if (rec->text[i] >= 0)
		{
			const fs_pbs_pair *p = &rec->pairs[rec->text[i]];

			SET(COL_USER + i, span_text(rec->line, p->val_off, p->val_len));
		}
	for (i = 0; i < FS_PBS_NTIMES; i++)
		if (rec->has_time[i])
			SET(COL_CTIME + i, TimestampTzGetDatum(epoch_timestamptz(rec->time[i])));
	if (rec->has_exit)
		SET(COL_EXIT_STATUS, Int32GetDatum(rec->exit_status));
	if (rec->has_run_count)
		SET(COL_RUN_COUNT, Int32GetDatum(rec->run_count));
	if (rec->has_session)
		SET(COL_SESSION, Int64GetDatum(rec->session));
	SET(COL_USED, fs_pg_resvec_datum(rec->used));
	SET(COL_REQUESTED, fs_pg_resvec_datum(rec->requested));
	SET(COL_REQUESTED_TEXT, pairs_jsonb(rec, rec->req_text, rec->nreq_text, 14));
	if (rec->has_exec_host)
	{
		Datum *hosts = palloc(sizeof(Datum) * (rec->nhosts + 1));
		Datum *cpus = palloc(sizeof(Datum) * (rec->nhosts + 1));
		bool *cnulls = palloc(sizeof(bool) * (rec->nhosts + 1));
		int dims[1];
		int lbs[1] = {1};
		size_t h;

		for (h = 0; h < rec->nhosts; h++)
		{
			hosts[h] = PointerGetDatum(
			    cstring_to_text_with_len(rec->hosts[h].name, (int) rec->hosts[h].len));
			cnulls[h] = rec->hosts[h].cpus < 0 || rec->hosts[h].cpus > PG_INT32_MAX;
			cpus[h] = Int32GetDatum(cnulls[h] ? 0 : (int32) rec->hosts[h].cpus);
		}
		dims[0] = (int) rec->nhosts;
		SET(COL_EXEC_HOSTS, PointerGetDatum(construct_array(hosts, (int) rec->nhosts, TEXTOID, -1,
		                                                    false, TYPALIGN_INT)));
		SET(COL_EXEC_HOST_CPUS, PointerGetDatum(construct_md_array(
		                            cpus, cnulls, 1, dims, lbs, INT4OID, 4, true, TYPALIGN_INT)));
	}
	if (rec->free_text)
	{
		fs_pg_jpair msg = {"message", 7, rec->line + rec->msg_off, rec->msg_len};

		SET(COL_ATTRS, fs_pg_jsonb_object(&msg, 1));
	}
	else
		SET(COL_ATTRS, pairs_jsonb(rec, NULL, rec->npairs, 0));
	{
		Datum *notes = palloc(sizeof(Datum) * (rec->nnotes + 1));
		const char *q = rec->notes.data;
		size_t n;

		/* the notes are stored back to back, each ended by a NUL */
		for (n = 0; n < rec->nnotes; n++)
		{
			notes[n] = CStringGetTextDatum(q);
			q += strlen(q) + 1;
		}
		SET(COL_ANOMALIES, PointerGetDatum(construct_array(notes, (int) rec->nnotes, TEXTOID, -1,
		                                                   false, TYPALIGN_INT)));
	}
#undef SET
	return heap_form_tuple(desc, values, nulls);
}

/* The result's descriptor, looked up and blessed once per call site (kept in fn_extra). */
static TupleDesc
result_desc(FunctionCallInfo fcinfo)
{
	TupleDesc desc = (TupleDesc) fcinfo->flinfo->fn_extra;

	if (desc == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "pbs_acct must return a composite type");
		desc = BlessTupleDesc(desc);
		MemoryContextSwitchTo(old);
		fcinfo->flinfo->fn_extra = desc;
	}
	return desc;
}

static Datum
record_datum(FunctionCallInfo fcinfo, const fs_pbs_record *rec, const fs_error *err)
{
	return HeapTupleGetDatum(fs_pg_pbs_tuple(result_desc(fcinfo), rec, err));
}

static Datum
pbs_acct_common(FunctionCallInfo fcinfo, bool try_only)
{
	text *line = PG_GETARG_TEXT_PP(0);
	fs_pbs_record rec;
	fs_error err;
	fs_status st;

	st = fs_pbs_parse(VARDATA_ANY(line), VARSIZE_ANY_EXHDR(line), &fs_pg_alloc, &rec, &err);
	if (st != FS_OK)
	{
		if (!try_only || st != FS_ERR_SYNTAX)
			fs_pg_raise(&err);
		return record_datum(fcinfo, NULL, &err);
	}
	return record_datum(fcinfo, &rec, NULL);
}

PG_FUNCTION_INFO_V1(pbs_acct);
Datum
pbs_acct(PG_FUNCTION_ARGS)
{
	return pbs_acct_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(pbs_acct_try);
Datum
pbs_acct_try(PG_FUNCTION_ARGS)
{
	return pbs_acct_common(fcinfo, true);
}

PG_FUNCTION_INFO_V1(pbs_acct_attrs);
Datum
pbs_acct_attrs(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text *line = PG_GETARG_TEXT_PP(0);
	fs_pbs_record rec;
	fs_error err;
	size_t i;

	fs_pg_check(
	    fs_pbs_tokenize(VARDATA_ANY(line), VARSIZE_ANY_EXHDR(line), &fs_pg_alloc, &rec, &err),
	    &err);
	InitMaterializedSRF(fcinfo, 0);
	if (rec.free_text)
	{
		Datum values[3];
		bool nulls[3] = {false, false, false};

		values[0] = Int32GetDatum(1);
		values[1] = CStringGetTextDatum("message");
		values[2] = span_text(rec.line, rec.msg_off, rec.msg_len);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	for (i = 0; i < rec.npairs; i++)
	{
		const fs_pbs_pair *p = &rec.pairs[i];
		Datum values[3];
		bool nulls[3] = {false, false, false};

		values[0] = Int32GetDatum((int32) (i + 1));
		values[1] = span_text(rec.line, p->key_off, p->key_len);
		values[2] = span_text(rec.line, p->val_off, p->val_len);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

typedef struct qstat_ctx
{
	ReturnSetInfo *rsinfo;
	MemoryContext per_row;
	pg_tz *tz;
	const char *tzname;
} qstat_ctx;

/* A qstat date (local time in the zone argument) as Unix seconds, by PostgreSQL's rules. */
static fs_status
qstat_epoch(void *vctx, const fs_qstat_time *t, int64_t *epoch, fs_error *err)
{
	qstat_ctx *c = vctx;
	struct pg_tm tm;
	int offset;

	(void) err;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = t->year;
	tm.tm_mon = t->mon;
	tm.tm_mday = t->mday;
	tm.tm_hour = t->hour;
	tm.tm_min = t->min;
	tm.tm_sec = t->sec;
	offset = DetermineTimeZoneOffset(&tm, c->tz);
	/* PostgreSQL's offsets count seconds west of UTC */
	*epoch = fs_days_from_civil(t->year, t->mon, t->mday) * SECS_PER_DAY + t->hour * SECS_PER_HOUR +
	         t->min * SECS_PER_MINUTE + t->sec + offset;
	return FS_OK;
}

static int
qstat_row(void *vctx, const fs_pbs_record *rec)
{
	qstat_ctx *c = vctx;
	MemoryContext old = MemoryContextSwitchTo(c->per_row);

	tuplestore_puttuple(c->rsinfo->setResult, fs_pg_pbs_tuple(c->rsinfo->setDesc, rec, NULL));
	MemoryContextSwitchTo(old);
	MemoryContextReset(c->per_row);
	return 0;
}

PG_FUNCTION_INFO_V1(pbs_qstat_json);
Datum
pbs_qstat_json(PG_FUNCTION_ARGS)
{
	Jsonb *jb = PG_GETARG_JSONB_P(0);
	fs_json doc;
	qstat_ctx c;
	fs_error err;
	MemoryContext work, old;

	InitMaterializedSRF(fcinfo, 0);
	c.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	c.tz = fs_pg_sacct_zone(fcinfo, 1, "the PBS server", &c.tzname);
	work = AllocSetContextCreate(CurrentMemoryContext, "pbs_qstat_json", ALLOCSET_DEFAULT_SIZES);
	c.per_row = AllocSetContextCreate(work, "pbs_qstat_json row", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(work);
	fs_pg_jsonb_tree(jb, &doc);
	fs_pg_check(fs_pbs_qstat_json_doc(&doc, &fs_pg_alloc, qstat_epoch, &c, qstat_row, &c, &err),
	            &err);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
	return (Datum) 0;
}
