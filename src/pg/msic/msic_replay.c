/*
 * msic_replay.c (glue): msic_replay, submissions replayed through MSIC scheduling cycles; the
 * rows go to the tuplestore as the core produces them. The rules are in
 * src/core/msic/msic_replay.c.
 */
#include "msic/msic_glue.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/typcache.h"

#include "msic/msic_replay.h"

typedef struct sink
{
	ReturnSetInfo *rsinfo;
	const fs_msic_cjob *jobs;
	TupleDesc share_desc;
	MemoryContext row_cxt; /* one row's datums, reset after each */
} sink;

static void
ctime_of(void *ctx, int64_t t, char *buf, size_t cap)
{
	(void) ctx;
	fs_pg_msic_ctime((TimestampTz) t, buf, cap);
}

/* One replay row into the tuplestore: (at, step, action, job_id, queue, host, reason, share). */
static void
put_row(void *ctx, const fs_msic_replay_row *row)
{
	sink *s = ctx;
	Datum values[8];
	bool nulls[8] = {false, false, false, false, false, false, false, false};
	MemoryContext old = MemoryContextSwitchTo(s->row_cxt);

	values[0] = TimestampTzGetDatum((TimestampTz) row->at);
	values[1] = Int32GetDatum(row->step);
	values[2] = CStringGetTextDatum(fs_msic_action_name(row->action));
	if (row->job == SIZE_MAX)
		nulls[3] = true;
	else
		values[3] = PointerGetDatum(
		    cstring_to_text_with_len(s->jobs[row->job].o.job_id, (int) s->jobs[row->job].o.idlen));
	values[4] = fs_pg_text_or_null(row->queue, &nulls[4]);
	values[5] = fs_pg_text_or_null(row->host, &nulls[5]);
	if (row->reason)
		values[6] = CStringGetTextDatum(row->reason);
	else
		nulls[6] = true;
	if (row->share)
	{
		Datum sv[5];
		bool sn[5] = {false, false, false, false, false};

		sv[0] = PointerGetDatum(
		    cstring_to_text_with_len(row->share->queue, (int) row->share->queuelen));
		sv[1] = Int32GetDatum(row->share->s.ndays);
		sv[2] = Float8GetDatum(row->share->s.past_pct);
		sv[3] = Float8GetDatum(row->share->s.today_usage);
		sv[4] = Float8GetDatum(row->share->s.today_max);
		values[7] = HeapTupleGetDatum(heap_form_tuple(s->share_desc, sv, sn));
	}
	else
		nulls[7] = true;
	tuplestore_putvalues(s->rsinfo->setResult, s->rsinfo->setDesc, values, nulls);
	MemoryContextSwitchTo(old);
	MemoryContextReset(s->row_cxt);
}

/* msic_replay(config, hosts, queues, jobs, start, stop, cycle, cluster_cpus, shares, compat) */
PG_FUNCTION_INFO_V1(msic_replay);
Datum
msic_replay(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_msic_replay_in in;
	fs_msic_cjob *jobs;
	sink s;
	fs_error err;
	int n, i;
	MemoryContext tmp, old;

	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i <= 6; i++)
		if (PG_ARGISNULL(i))
			return (Datum) 0;
	memset(&in, 0, sizeof(in));
	fs_pg_msic_cycle_setup(fcinfo, 0, 8, 1, 2, 9, &in.cycle);
	jobs = fs_pg_msic_read_jobs(PG_GETARG_ARRAYTYPE_P(3), true, &n);
	in.start = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(4), "start");
	in.stop = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(5), "stop");
	in.interval = fs_pg_interval_us(PG_GETARG_INTERVAL_P(6), "cycle");
	if (PG_ARGISNULL(7))
	{
		/* MAX_NCPUS: the server's resources_max.ncpus, here all the hosts' CPUs */
		int64 total = 0;

		for (i = 0; i < (int) in.cycle.nhosts; i++)
			total += in.cycle.hosts[i].ncpus;
		if (total > PG_INT32_MAX)
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			                errmsg("the hosts have more than %d CPUs together", PG_INT32_MAX)));
		in.cycle.order.cluster_cpus = (int) total;
	}
	else
		in.cycle.order.cluster_cpus = PG_GETARG_INT32(7);
	in.ctime = ctime_of;
	s.rsinfo = rsinfo;
	s.jobs = jobs;
	s.share_desc = BlessTupleDesc(
	    lookup_rowtype_tupdesc_copy(TupleDescAttr(rsinfo->setDesc, 7)->atttypid, -1));
	/* each cycle's work is freed with the cycle: a month of cycles must not pile up */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "msic_replay", ALLOCSET_DEFAULT_SIZES);
	s.row_cxt = AllocSetContextCreate(tmp, "msic_replay rows", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	fs_pg_check(fs_msic_replay(&in, jobs, (size_t) n, put_row, &s, &fs_pg_alloc, &err), &err);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	return (Datum) 0;
}
