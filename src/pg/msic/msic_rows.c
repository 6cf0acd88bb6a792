/*
 * msic_rows.c (glue): reading arrays of the MSIC composite types (msic_share, msic_job) from
 * function arguments, by field name, so that fields appended to a type do not matter; a
 * msic_config value has its own reader, fs_pg_msic_config_from_record (msic_config.c).
 */
#include "msic/msic_glue.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include <math.h>

void
fs_pg_msic_read_shares(ArrayType *arr, fs_msic_order_in *in)
{
	static const char *const names[] = {"queue", "ndays", "past_pct", "today_usage", "today_max"};
	int n, i, k, f[5];
	fs_pg_row_reader r;
	Datum *elems = fs_pg_rows_open(&r, arr, "shares", "msic_share", names, 5, f, &n);
	fs_msic_state *st = palloc(sizeof(fs_msic_state) * (n + 1));

	for (i = 0; i < n; i++)
	{
		fs_pg_reader_read(&r, elems[i]);
		for (k = 0; k < 5; k++)
			if (r.nulls[f[k]])
				ereport(ERROR,
				        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				         errmsg("shares[%d] has a NULL field", i + 1),
				         errhint("A share state needs queue, ndays, past_pct, today_usage and "
				                 "today_max.")));
		st[i].queue = fs_pg_text_field(r.values[f[0]], false, &st[i].queuelen);
		st[i].s.ndays = DatumGetInt32(r.values[f[1]]);
		st[i].s.past_pct = DatumGetFloat8(r.values[f[2]]);
		st[i].s.today_usage = DatumGetFloat8(r.values[f[3]]);
		st[i].s.today_max = DatumGetFloat8(r.values[f[4]]);
	}
	fs_pg_reader_close(&r);
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
	J_NCPUS,
	J_MEM,
	J_ARCH,
	J_SUSPEND_FAILS,
	J_CHECKPOINT_FAILS,
	J_FIELDS
};

static const char *const job_fields[J_FIELDS] = {
    "job_id",        "owner", "queue", "state",         "walltime",
    "walltime_used", "ctime", "etime", "exec_host",     "chkptd",
    "ncpus",         "mem",   "arch",  "suspend_fails", "checkpoint_fails"};

/* A float8 field that is NULL (-1) or finite and not negative. */
double
fs_pg_amount_field(const fs_pg_row_reader *r, int f, const char *what, const char *kind,
                   const char *whose, size_t len)
{
	double v;

	if (r->nulls[f])
		return -1;
	v = DatumGetFloat8(r->values[f]);
	if (!(v >= 0) || isinf(v))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("%s of %s \"%s\" must be a finite amount not below 0", what, kind,
		                       pnstrdup(whose, Min(len, 200))),
		                errdetail("It is %s.", float8out_internal(v))));
	return v;
}

fs_msic_cjob *
fs_pg_msic_read_jobs(ArrayType *arr, bool for_cycle, int *count)
{
	int n, i, k, f[J_FIELDS];
	fs_pg_row_reader r;
	Datum *elems = fs_pg_rows_open(&r, arr, "jobs", "msic_job", job_fields, J_FIELDS, f, &n);
	fs_msic_cjob *jobs = palloc0(sizeof(fs_msic_cjob) * (n + 1));
	for (i = 0; i < n; i++)
	{
		fs_msic_cjob *cj = &jobs[i];
		fs_msic_ojob *j = &cj->o;
		size_t slen;
		const char *state;

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&r, elems[i]);
		if (r.nulls[f[J_ID]])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("jobs[%d] has no job_id", i + 1)));
		j->job_id = fs_pg_text_field(r.values[f[J_ID]], false, &j->idlen);
		for (k = J_OWNER; k <= J_WALLTIME; k++)
			if (k != J_QUEUE && r.nulls[f[k]])
				ereport(ERROR,
				        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				         errmsg("job \"%s\" has no %s", pnstrdup(j->job_id, Min(j->idlen, 200)),
				                job_fields[k]),
				         errhint("A job needs job_id, owner, state and walltime; queue NULL is "
				                 "the submit queue.")));
		if (for_cycle && r.nulls[f[J_NCPUS]])
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			         errmsg("job \"%s\" has no ncpus", pnstrdup(j->job_id, Min(j->idlen, 200))),
			         errhint("Placement needs the CPUs each job asks for.")));
		j->owner = fs_pg_text_field(r.values[f[J_OWNER]], false, &j->ownerlen);
		j->queue = fs_pg_text_field(r.values[f[J_QUEUE]], r.nulls[f[J_QUEUE]], &j->queuelen);
		state = fs_pg_text_field(r.values[f[J_STATE]], false, &slen);
		if (slen != 1 || (state[0] != 'Q' && state[0] != 'R' && state[0] != 'S'))
			ereport(ERROR,
			        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			         errmsg("invalid state \"%s\" of job \"%s\"", pnstrdup(state, Min(slen, 200)),
			                pnstrdup(j->job_id, Min(j->idlen, 200))),
			         errdetail("A job's state must be Q (queued), R (running) or S (suspended).")));
		j->state = state[0];
		j->walltime_us = fs_pg_interval_us(DatumGetIntervalP(r.values[f[J_WALLTIME]]), "walltime");
		cj->used_given = !r.nulls[f[J_USED]];
		j->used_us = r.nulls[f[J_USED]] ? 0
		                                : fs_pg_interval_us(DatumGetIntervalP(r.values[f[J_USED]]),
		                                                    "walltime_used");
		cj->ctime = r.nulls[f[J_CTIME]]
		                ? INT64_MIN
		                : fs_pg_timestamp(DatumGetTimestampTz(r.values[f[J_CTIME]]), "ctime");
		/* eligible since etime, else ctime, as the original */
		if (!r.nulls[f[J_ETIME]])
			j->eligible_at = fs_pg_timestamp(DatumGetTimestampTz(r.values[f[J_ETIME]]), "etime");
		else if (!r.nulls[f[J_CTIME]])
			j->eligible_at = cj->ctime;
		else
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			         errmsg("job \"%s\" has neither etime nor ctime",
			                pnstrdup(j->job_id, Min(j->idlen, 200))),
			         errhint("The eligible time (etime, else ctime) decides WAITING and age.")));
		j->has_exec_host = !r.nulls[f[J_EXEC_HOST]];
		j->chkptd = r.nulls[f[J_CHKPTD]] ? -1 : DatumGetBool(r.values[f[J_CHKPTD]]) ? 1 : 0;
		cj->ncpus = r.nulls[f[J_NCPUS]] ? 0 : DatumGetInt32(r.values[f[J_NCPUS]]);
		cj->mem = fs_pg_amount_field(&r, f[J_MEM], "mem", "job", j->job_id, j->idlen);
		cj->exec_host.s =
		    fs_pg_text_field(r.values[f[J_EXEC_HOST]], r.nulls[f[J_EXEC_HOST]], &cj->exec_host.len);
		cj->arch.s = fs_pg_text_field(r.values[f[J_ARCH]], r.nulls[f[J_ARCH]], &cj->arch.len);
		cj->suspend_fails =
		    !r.nulls[f[J_SUSPEND_FAILS]] && DatumGetBool(r.values[f[J_SUSPEND_FAILS]]);
		cj->checkpoint_fails =
		    !r.nulls[f[J_CHECKPOINT_FAILS]] && DatumGetBool(r.values[f[J_CHECKPOINT_FAILS]]);
	}
	fs_pg_reader_close(&r);
	*count = n;
	return jobs;
}
