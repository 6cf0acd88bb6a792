/*
 * msic_order.c (glue): msic_job_order, the MSIC scheduler's job flags and job order, and
 * msic_default_mem. The configuration comes from fs_pg_msic_config_from_record, the share states
 * and the jobs from arrays of composites; the rules are in src/core/msic/msic_order.c.
 */
#include "msic/msic_glue.h"

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

#include "msic/msic_order.h"

#include <math.h>

/*
 * The order's inputs of a configuration. Its FAIR_SHARE entries in their order: an entry with a
 * NULL shares or max_run_pct is refused here, one with a NULL queue is kept in its place (with no
 * numbers) for fs_msic_job_order to refuse.
 */
void
fs_pg_msic_order_config(const fs_pg_msic_config *c, fs_msic_order_in *in)
{
	const fs_msic_config *cfg = &c->cfg;
	size_t n = cfg->n_fair + (size_t) c->nfair_no_queue;
	fs_msic_fs_entry *fs = palloc0(sizeof(fs_msic_fs_entry) * (n + 1));
	size_t i, k = 0, q = 0;

	if (c->fair_null_field > 0)
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
		                errmsg("fair_share[%d] of the configuration has a NULL field",
		                       c->fair_null_field)));
	in->submit_queue = cfg->n_submit > 0 ? fs_msic_str(cfg, cfg->submit[0].name) : NULL;
	in->submitlen = in->submit_queue ? strlen(in->submit_queue) : 0;
	in->express_queue = fs_msic_str(cfg, cfg->express_queue);
	in->expresslen = strlen(in->express_queue);
	in->max_wait_us = c->max_wait_us;
	for (i = 0; i < n; i++)
	{
		if (q < (size_t) c->nfair_no_queue && (size_t) c->fair_no_queue[q] == i + 1)
		{
			q++;
			continue;
		}
		fs[i].queue = fs_msic_str(cfg, cfg->fair[k].queue);
		fs[i].queuelen = strlen(fs[i].queue);
		fs[i].shares = cfg->fair[k].shares;
		fs[i].max_run_pct = cfg->fair[k].max_run_pct;
		k++;
	}
	in->fs = fs;
	in->nfs = n;
}

/* msic_job_order(config, shares, jobs, at, cluster_cpus, rank) */
PG_FUNCTION_INFO_V1(msic_job_order);
Datum
msic_job_order(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_msic_order_in in;
	fs_pg_msic_config cfg;
	fs_msic_cjob *cjobs;
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
	fs_pg_msic_config_from_record(PG_GETARG_HEAPTUPLEHEADER(0), &cfg);
	fs_pg_msic_order_config(&cfg, &in);
	if (!PG_ARGISNULL(1))
		fs_pg_msic_read_shares(PG_GETARG_ARRAYTYPE_P(1), &in);
	cjobs = fs_pg_msic_read_jobs(PG_GETARG_ARRAYTYPE_P(2), false, &n);
	jobs = palloc(sizeof(fs_msic_ojob) * (n + 1));
	for (i = 0; i < n; i++)
		jobs[i] = cjobs[i].o;
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

/* A float8 argument that is NULL (-1: unset) or a finite amount not below 0. */
static double
mem_arg(FunctionCallInfo fcinfo, int argno, const char *what)
{
	double v;

	if (PG_ARGISNULL(argno))
		return -1;
	v = PG_GETARG_FLOAT8(argno);
	if (!(v >= 0) || isinf(v))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("%s must be a finite amount of bytes not below 0", what),
		                errhint("Pass NULL for a queue that does not set it.")));
	return v;
}

/* msic_default_mem(config, queue, default_mem, max_mem): the rule is fs_msic_default_mem. */
PG_FUNCTION_INFO_V1(msic_default_mem);
Datum
msic_default_mem(PG_FUNCTION_ARGS)
{
	double dflt = mem_arg(fcinfo, 2, "default_mem"), max = mem_arg(fcinfo, 3, "max_mem");
	bool entry = false;

	if (!PG_ARGISNULL(0) && !PG_ARGISNULL(1))
	{
		fs_msic_order_in in;
		fs_pg_msic_config cfg;
		text *q = PG_GETARG_TEXT_PP(1);
		fs_str queue = {VARDATA_ANY(q), VARSIZE_ANY_EXHDR(q)};
		size_t k;

		memset(&in, 0, sizeof(in));
		fs_pg_msic_config_from_record(PG_GETARG_HEAPTUPLEHEADER(0), &cfg);
		fs_pg_msic_order_config(&cfg, &in);
		for (k = 0; k < in.nfs && !entry; k++)
		{
			fs_str f = {in.fs[k].queue, in.fs[k].queuelen};

			entry = f.s != NULL && fs_str_eq(f, queue);
		}
	}
	PG_RETURN_FLOAT8(fs_msic_default_mem(entry, dflt, max));
}
