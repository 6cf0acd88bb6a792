/*
 * msic_cycle.c (glue): msic_cycle and msic_cycle_shares, one scheduling cycle of the MSIC
 * scheduler over arrays of msic_host, msic_queue and msic_job values; msic_replay lives in
 * msic_replay.c. The rules are in src/core/msic/msic_cycle.c.
 */
#include "msic/msic_glue.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#define NAME(s, len) pnstrdup((s), Min((len), 200))

/* The compat switches, each choosing the original code's behaviour over the documented one. */
static void
read_compat(ArrayType *arr, fs_msic_cycle_in *in)
{
	Datum *elems;
	bool *nulls;
	int n, i;

	fs_pg_check_1d(arr, "compat");
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("compat must not contain NULL")));
		switch ((fs_msic_compat) fs_pg_name_arg(DatumGetTextPP(elems[i]), fs_msic_compat_from_name,
		                                        "compat switch", "compat switches",
		                                        FS_MSIC_COMPAT_NAMES))
		{
			case FS_MSIC_COMPAT_RANK_USAGE:
				in->order.rank = FS_MSIC_RANK_USAGE;
				break;
			case FS_MSIC_COMPAT_SUSPEND_BELOW:
				in->suspend_below = true;
				break;
			case FS_MSIC_COMPAT_LOAD_UNSCALED:
				in->load_unscaled = true;
				break;
		}
	}
}

/*
 * The cycle's settings of a configuration: the order's inputs, BATCH_QUEUES with their hosts, the
 * load targets (finite: validated), requeueing, comments and prime time.
 */
static void
cycle_config(const fs_pg_msic_config *c, fs_msic_cycle_in *in)
{
	const fs_msic_config *cfg = &c->cfg;
	int nq = (int) cfg->n_batch, nh = c->nbatch_hosts, i;
	fs_str *queues = palloc0(sizeof(fs_str) * (nq + 1));
	fs_str *hosts = palloc0(sizeof(fs_str) * (nq + 1));
	fs_pg_msic_prime p;

	fs_pg_msic_order_config(c, &in->order);
	if (nh != nq && nh != 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("the configuration has %d %s but %d %s", nq,
		                       fs_plural((uint64) nq, "batch queue", "batch queues"), nh,
		                       fs_plural((uint64) nh, "batch host", "batch hosts")),
		                errhint("batch_hosts pairs each batch queue with its host, in order.")));
	for (i = 0; i < nq; i++)
	{
		queues[i].s = fs_msic_str(cfg, cfg->batch[i].name);
		queues[i].len = strlen(queues[i].s);
		/* NULL: the queue's own host */
		hosts[i].s = fs_msic_str(cfg, cfg->batch[i].host);
		hosts[i].len = hosts[i].s ? strlen(hosts[i].s) : 0;
	}
	in->batch_queues = queues;
	in->batch_hosts = hosts;
	in->nbatch = (size_t) nq;
	in->load_pct = cfg->target_load_pct;
	in->load_minus = cfg->target_load_minus;
	in->load_plus = cfg->target_load_plus;
	in->suspend_threshold = cfg->suspend_threshold;
	in->force_requeue = cfg->force_requeue;
	in->update_comments = cfg->update_comments;
	fs_pg_msic_prime_settings(c, &p);
	/* the date form of ENFORCE_PRIME_TIME: enforced from that date on */
	in->enforce_pt = p.enforce;
	in->pt_from = p.has_from ? p.from : INT64_MIN;
	in->pt_start = p.start;
	in->pt_end = p.end;
	in->pt_limit = p.limit;
	in->holidays = p.holidays;
	in->nholidays = (size_t) p.nholidays;
	in->clock = &fs_pg_msic_clock;
}

static int
count_field(const fs_pg_row_reader *r, int f, const char *what, const char *kind, fs_str whose)
{
	int v;

	if (r->nulls[f])
		return -1;
	v = DatumGetInt32(r->values[f]);
	if (v < 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("%s of %s \"%s\" must not be negative", what, kind,
		                       NAME(whose.s, whose.len)),
		                errdetail("It is %d.", v)));
	return v;
}

static int64
walltime_field(const fs_pg_row_reader *r, int f, const char *what, fs_str whose)
{
	int64 v;

	if (r->nulls[f])
		return -1;
	v = fs_pg_interval_us(DatumGetIntervalP(r->values[f]), what);
	if (v < 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("%s of queue \"%s\" must not be negative", what,
		                       NAME(whose.s, whose.len))));
	return v;
}

/* The msic_host array: name and ncpus required, loadave NULL is 0, up NULL is up. */
static fs_msic_host *
read_hosts(ArrayType *arr, size_t *count)
{
	static const char *const names[] = {"name", "ncpus", "mem", "arch", "loadave", "up"};
	int n, i, f[6];
	fs_pg_row_reader r;
	Datum *elems = fs_pg_rows_open(&r, arr, "hosts", "msic_host", names, 6, f, &n);
	fs_msic_host *hosts = palloc0(sizeof(fs_msic_host) * (n + 1));
	for (i = 0; i < n; i++)
	{
		fs_msic_host *h = &hosts[i];

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&r, elems[i]);
		if (r.nulls[f[0]] || r.nulls[f[1]])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("hosts[%d] has no name or no ncpus", i + 1)));
		h->name.s = fs_pg_text_field(r.values[f[0]], false, &h->name.len);
		h->ncpus = count_field(&r, f[1], "ncpus", "host", h->name);
		h->mem = fs_pg_amount_field(&r, f[2], "mem", "host", h->name.s, h->name.len);
		h->arch.s = fs_pg_text_field(r.values[f[3]], r.nulls[f[3]], &h->arch.len);
		h->loadave = fs_pg_amount_field(&r, f[4], "loadave", "host", h->name.s, h->name.len);
		if (h->loadave < 0)
			h->loadave = 0;
		h->up = r.nulls[f[5]] || DatumGetBool(r.values[f[5]]);
	}
	fs_pg_reader_close(&r);
	*count = (size_t) n;
	return hosts;
}

enum
{
	Q_NAME,
	Q_HOST,
	Q_ENABLED,
	Q_STARTED,
	Q_MAX_RUNNING,
	Q_MAX_NCPUS,
	Q_MAX_MEM,
	Q_MIN_WALLTIME,
	Q_MAX_WALLTIME,
	Q_MIN_NCPUS,
	Q_MIN_MEM,
	Q_DEFAULT_MEM,
	Q_MAX_USER_RUN,
	Q_FIELDS
};

static const char *const queue_fields[Q_FIELDS] = {
    "name",         "host",         "enabled",   "started", "max_running", "max_ncpus",   "max_mem",
    "min_walltime", "max_walltime", "min_ncpus", "min_mem", "default_mem", "max_user_run"};

/* The msic_queue array: name required, NULL limits unset, enabled and started NULL are on. */
static fs_msic_queue *
read_queues(ArrayType *arr, size_t *count)
{
	int n, i, f[Q_FIELDS];
	fs_pg_row_reader r;
	Datum *elems = fs_pg_rows_open(&r, arr, "queues", "msic_queue", queue_fields, Q_FIELDS, f, &n);
	fs_msic_queue *queues = palloc0(sizeof(fs_msic_queue) * (n + 1));
	for (i = 0; i < n; i++)
	{
		fs_msic_queue *q = &queues[i];
		const char *nm;

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&r, elems[i]);
		if (r.nulls[f[Q_NAME]])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("queues[%d] has no name", i + 1)));
		q->name.s = fs_pg_text_field(r.values[f[Q_NAME]], false, &q->name.len);
		nm = q->name.s;
		q->host.s = fs_pg_text_field(r.values[f[Q_HOST]], r.nulls[f[Q_HOST]], &q->host.len);
		q->enabled = r.nulls[f[Q_ENABLED]] || DatumGetBool(r.values[f[Q_ENABLED]]);
		q->started = r.nulls[f[Q_STARTED]] || DatumGetBool(r.values[f[Q_STARTED]]);
		q->max_running = count_field(&r, f[Q_MAX_RUNNING], "max_running", "queue", q->name);
		q->max_ncpus = count_field(&r, f[Q_MAX_NCPUS], "max_ncpus", "queue", q->name);
		q->min_ncpus = count_field(&r, f[Q_MIN_NCPUS], "min_ncpus", "queue", q->name);
		q->max_user_run = count_field(&r, f[Q_MAX_USER_RUN], "max_user_run", "queue", q->name);
		q->max_mem = fs_pg_amount_field(&r, f[Q_MAX_MEM], "max_mem", "queue", nm, q->name.len);
		q->min_mem = fs_pg_amount_field(&r, f[Q_MIN_MEM], "min_mem", "queue", nm, q->name.len);
		q->default_mem =
		    fs_pg_amount_field(&r, f[Q_DEFAULT_MEM], "default_mem", "queue", nm, q->name.len);
		q->min_walltime = walltime_field(&r, f[Q_MIN_WALLTIME], "min_walltime", q->name);
		q->max_walltime = walltime_field(&r, f[Q_MAX_WALLTIME], "max_walltime", q->name);
	}
	fs_pg_reader_close(&r);
	*count = (size_t) n;
	return queues;
}

void
fs_pg_msic_cycle_setup(FunctionCallInfo fcinfo, int cfg_arg, int shares_arg, int hosts_arg,
                       int queues_arg, int compat_arg, fs_msic_cycle_in *in)
{
	fs_pg_msic_config cfg;

	memset(in, 0, sizeof(*in));
	fs_pg_msic_config_from_record(PG_GETARG_HEAPTUPLEHEADER(cfg_arg), &cfg);
	cycle_config(&cfg, in);
	if (!PG_ARGISNULL(shares_arg))
		fs_pg_msic_read_shares(PG_GETARG_ARRAYTYPE_P(shares_arg), &in->order);
	in->hosts = read_hosts(PG_GETARG_ARRAYTYPE_P(hosts_arg), &in->nhosts);
	in->queues = read_queues(PG_GETARG_ARRAYTYPE_P(queues_arg), &in->nqueues);
	if (!PG_ARGISNULL(compat_arg))
		read_compat(PG_GETARG_ARRAYTYPE_P(compat_arg), in);
}

/* One cycle: its decisions (shares = false) or the share states after its charges. */
static Datum
cycle_common(FunctionCallInfo fcinfo, bool shares)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_msic_cycle_in in;
	fs_msic_cycle_out out;
	fs_msic_cjob *jobs;
	TimestampTz at;
	char started[64];
	fs_error err;
	int n, i;

	InitMaterializedSRF(fcinfo, 0);
	/* shares and compat NULL: none; any other NULL argument: no rows */
	for (i = 0; i <= 6; i++)
		if (i != 1 && PG_ARGISNULL(i))
			return (Datum) 0;
	at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(5), "at");
	fs_pg_msic_cycle_setup(fcinfo, 0, 1, 2, 3, 7, &in);
	jobs = fs_pg_msic_read_jobs(PG_GETARG_ARRAYTYPE_P(4), true, &n);
	in.order.at = at;
	in.order.cluster_cpus = PG_GETARG_INT32(6);
	fs_pg_msic_ctime(at, started, sizeof(started));
	in.started_at = started;
	fs_pg_check(fs_msic_cycle(&in, jobs, (size_t) n, &fs_pg_alloc, &out, &err), &err);
	if (shares)
	{
		for (i = 0; i < (int) out.nshares; i++)
		{
			const fs_msic_state *s = &out.shares[i];
			Datum values[5];
			bool nulls[5] = {false, false, false, false, false};

			values[0] = PointerGetDatum(cstring_to_text_with_len(s->queue, (int) s->queuelen));
			values[1] = Int32GetDatum(s->s.ndays);
			values[2] = Float8GetDatum(s->s.past_pct);
			values[3] = Float8GetDatum(s->s.today_usage);
			values[4] = Float8GetDatum(s->s.today_max);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
		return (Datum) 0;
	}
	for (i = 0; i < (int) out.n; i++)
	{
		const fs_msic_decision *d = &out.d[i];
		const fs_msic_cjob *j = &jobs[d->job];
		Datum values[6];
		bool nulls[6] = {false, false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		values[0] = Int32GetDatum(i + 1);
		values[1] = CStringGetTextDatum(fs_msic_action_name(d->action));
		values[2] = PointerGetDatum(cstring_to_text_with_len(j->o.job_id, (int) j->o.idlen));
		values[3] = fs_pg_text_or_null(d->queue, &nulls[3]);
		values[4] = fs_pg_text_or_null(d->host, &nulls[4]);
		values[5] = CStringGetTextDatum(out.text.data + d->reason);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(msic_cycle);
Datum
msic_cycle(PG_FUNCTION_ARGS)
{
	return cycle_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(msic_cycle_shares);
Datum
msic_cycle_shares(PG_FUNCTION_ARGS)
{
	return cycle_common(fcinfo, true);
}
