/*
 * slurm_priority.c (glue): slurm_priority_config, SLURM's priority parameters as a composite
 * value; the reading is in src/core/priority/slurm_priority.c.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/typcache.h"
#include "utils/timestamp.h"

#include "priority/slurm_priority.h"
#include "types/resvec.h"

PG_FUNCTION_INFO_V1(slurm_priority_config);

#define CONFIG_TYPE "fairsched.slurm_priority_config"

/* Seconds as an interval of days and a time of day: "7 days", "00:05:00". */
static Datum
seconds_interval(uint32_t secs)
{
	Interval *iv = palloc0(sizeof(Interval));

	iv->day = (int32) (secs / 86400);
	iv->time = (int64) (secs % 86400) * USECS_PER_SEC;
	return IntervalPGetDatum(iv);
}

static Datum
flags_array(uint32_t flags)
{
	Datum d[FS_SPRIO_NFLAGS];
	int i, n = 0;

	for (i = 0; i < FS_SPRIO_NFLAGS; i++)
		if (flags & (1u << i))
			d[n++] = CStringGetTextDatum(fs_sprio_flag_name(i));
	return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

Datum
slurm_priority_config(PG_FUNCTION_ARGS)
{
	TupleDesc desc;
	Datum *values;
	bool *nulls;
	text *conf, *version = NULL;
	fs_sprio_config cfg;
	fs_error err;
	char vbuf[16];
	int i;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "slurm_priority_config must return a composite type");
	desc = BlessTupleDesc(desc);
	conf = PG_GETARG_TEXT_PP(0);
	if (!PG_ARGISNULL(1))
		version = PG_GETARG_TEXT_PP(1);
	fs_pg_check(fs_sprio_config_parse(VARDATA_ANY(conf), VARSIZE_ANY_EXHDR(conf),
	                                  version ? VARDATA_ANY(version) : NULL,
	                                  version ? VARSIZE_ANY_EXHDR(version) : 0, &cfg, &fs_pg_alloc,
	                                  &err),
	            &err);

	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);
	for (i = 0; i < desc->natts; i++)
		nulls[i] = true;
#define SET(name, datum)                                                                           \
	do                                                                                             \
	{                                                                                              \
		int a_ = fs_pg_field_number(desc, name, CONFIG_TYPE);                                      \
		values[a_] = (datum);                                                                      \
		nulls[a_] = false;                                                                         \
	} while (0)
	snprintf(vbuf, sizeof(vbuf), "%02d.%02d", cfg.version / 100, cfg.version % 100);
	SET("version", CStringGetTextDatum(vbuf));
	SET("priority_type",
	    CStringGetTextDatum(cfg.multifactor ? "priority/multifactor" : "priority/basic"));
	SET("weight_age", Int64GetDatum(cfg.weight_age));
	SET("weight_assoc", Int64GetDatum(cfg.weight_assoc));
	SET("weight_fairshare", Int64GetDatum(cfg.weight_fairshare));
	SET("weight_jobsize", Int64GetDatum(cfg.weight_jobsize));
	SET("weight_partition", Int64GetDatum(cfg.weight_partition));
	SET("weight_qos", Int64GetDatum(cfg.weight_qos));
	if (cfg.weight_tres)
		SET("weight_tres", CStringGetTextDatum(cfg.weight_tres));
	SET("max_age", seconds_interval(cfg.max_age));
	SET("favor_small", BoolGetDatum(cfg.favor_small));
	SET("flags", flags_array(cfg.flags));
	SET("calc_period", seconds_interval(cfg.calc_period));
#undef SET
	return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

/* ---- slurm_priority ------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(slurm_priority);

/* A field of a composite argument, by name; isnull set. */
static Datum
attr(HeapTupleHeader t, const char *name, bool *isnull)
{
	return GetAttributeByName(t, name, isnull);
}

/* Whole seconds of an instant since the Unix epoch (floor). */
static int64_t
unix_seconds(TimestampTz t, const char *what)
{
	int64 us = fs_pg_timestamp(t, what);
	int64 s = us >= 0 ? us / USECS_PER_SEC : -((-us + USECS_PER_SEC - 1) / USECS_PER_SEC);

	return s + (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
}

/* An interval field in whole seconds, rounded up; *present false when NULL. */
static int64_t
attr_seconds(HeapTupleHeader t, const char *name, bool *present)
{
	bool isnull;
	Datum d = attr(t, name, &isnull);
	int64 us;

	*present = !isnull;
	if (isnull)
		return 0;
	us = fs_pg_interval_us(DatumGetIntervalP(d), name);
	return us >= 0 ? (us + USECS_PER_SEC - 1) / USECS_PER_SEC : -(-us / USECS_PER_SEC);
}

static void
config_fail(const char *field, const char *problem, const char *hint)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
	                errmsg("invalid slurm_priority_config: %s", problem),
	                errdetail("The field is \"%s\".", field), errhint("%s", hint)));
}

static uint32_t
config_weight(HeapTupleHeader t, const char *name)
{
	bool isnull;
	int64 v = DatumGetInt64(attr(t, name, &isnull));

	if (isnull)
		return 0;
	if (v < 0 || v > (int64) UINT32_MAX)
		config_fail(name, "a weight is out of range",
		            "A priority weight is an integer from 0 to 4294967295.");
	return (uint32_t) v;
}

/*
 * A slurm_priority_config value back into the core's settings: the value slurm_priority_config
 * made, or one a user built or edited (a proposed weight); NULL fields take SLURM's defaults.
 */
static void
config_from_record(HeapTupleHeader t, fs_sprio_config *cfg)
{
	fs_error err;
	bool isnull, present;
	Datum d;
	int64 secs;

	fs_pg_check(fs_sprio_config_parse("", 0, NULL, 0, cfg, &fs_pg_alloc, &err), &err);
	d = attr(t, "version", &isnull);
	if (!isnull)
	{
		text *v = DatumGetTextPP(d);

		fs_pg_check(
		    fs_sprio_version_parse(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &cfg->version, &err),
		    &err);
	}
	d = attr(t, "priority_type", &isnull);
	cfg->multifactor =
	    isnull ? cfg->version >= 2311 : strcmp(TextDatumGetCString(d), "priority/basic") != 0;
	cfg->weight_age = config_weight(t, "weight_age");
	cfg->weight_assoc = config_weight(t, "weight_assoc");
	cfg->weight_fairshare = config_weight(t, "weight_fairshare");
	cfg->weight_jobsize = config_weight(t, "weight_jobsize");
	cfg->weight_partition = config_weight(t, "weight_partition");
	cfg->weight_qos = config_weight(t, "weight_qos");
	d = attr(t, "weight_tres", &isnull);
	if (!isnull)
	{
		text *v = DatumGetTextPP(d);
		fs_status st = fs_sprio_tres_weights_parse(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &cfg->tres,
		                                           &cfg->n_tres, &fs_pg_alloc, &err);

		if (st != FS_OK)
			fs_error_context(&err, "in the weight_tres field of a slurm_priority_config");
		fs_pg_check(st, &err);
		/* as written: sprio -w prints it, and the default layout has a TRES column with it */
		cfg->weight_tres = text_to_cstring(v);
	}
	secs = attr_seconds(t, "max_age", &present);
	if (present)
	{
		if (secs < 0 || secs > (int64) UINT32_MAX)
			config_fail("max_age", "max_age is out of range",
			            "PriorityMaxAge is from 0 to 4294967295 seconds.");
		cfg->max_age = (uint32_t) secs;
	}
	cfg->favor_small = DatumGetBool(attr(t, "favor_small", &isnull)) && !isnull;
	d = attr(t, "flags", &isnull);
	if (!isnull)
	{
		ArrayType *arr = DatumGetArrayTypeP(d);
		Datum *elems;
		bool *enulls;
		int n, i, k;

		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &n);
		for (i = 0; i < n; i++)
		{
			char *name;

			if (enulls[i])
				continue;
			name = TextDatumGetCString(elems[i]);
			for (k = 0; k < FS_SPRIO_NFLAGS; k++)
				if (pg_strcasecmp(name, fs_sprio_flag_name(k)) == 0)
					break;
			if (k == FS_SPRIO_NFLAGS)
				ereport(
				    ERROR,
				    (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				     errmsg("unknown PriorityFlags name \"%s\" in a slurm_priority_config", name),
				     errhint("The flags field holds canonical names, as slurm_priority_config "
				             "gives them (ACCRUE_ALWAYS, INCR_ONLY, NO_NORMAL_QOS, ...).")));
			cfg->flags |= 1u << k;
		}
	}
}

/*
 * A vector of one count per configured TRES weight (zero entries left out), as fs_rv_build makes
 * it: the general path, which also reports an amount or a name a vector cannot hold.
 */
static Datum
tres_vector(const fs_sprio_config *cfg, const double *v)
{
	fs_rv_item *items = palloc0(sizeof(fs_rv_item) * (cfg->n_tres + 1));
	size_t i, n = 0, len;
	uint8_t *out;
	fs_error err;

	for (i = 0; i < cfg->n_tres; i++)
	{
		if (v[i] == 0)
			continue;
		items[n].name = cfg->tres[i].name;
		items[n].namelen = strlen(cfg->tres[i].name);
		items[n].kind = FS_KIND_COUNT;
		items[n].amount = v[i];
		n++;
	}
	fs_pg_check(fs_rv_build(items, n, FS_ERR_VALUE, &fs_pg_alloc, 0, &out, &len, &err), &err);
	return fs_pg_resvec_datum(out);
}

/* The fields of slurm_job and slurm_cluster that are read, in this order. */
static const char *const job_fields[] = {"submit_time",
                                         "accrue_time",
                                         "min_nodes",
                                         "cpus",
                                         "time_limit",
                                         "partition_max_time",
                                         "tres",
                                         "partition_tres",
                                         "fairshare",
                                         "assoc_priority",
                                         "partition_factor",
                                         "qos_priority",
                                         "site_factor",
                                         "nice",
                                         "direct_priority",
                                         "previous_priority",
                                         "job_id",
                                         "user",
                                         "account",
                                         "partition",
                                         "qos",
                                         "partition_tier"};
enum
{
	J_SUBMIT,
	J_ACCRUE,
	J_MIN_NODES,
	J_CPUS,
	J_TIME_LIMIT,
	J_PART_MAX_TIME,
	J_TRES,
	J_PART_TRES,
	J_FAIRSHARE,
	J_ASSOC,
	J_PART_FACTOR,
	J_QOS,
	J_SITE,
	J_NICE,
	J_DIRECT,
	J_PREVIOUS,
	J_JOB_ID,
	J_USER,
	J_ACCOUNT,
	J_PARTITION,
	J_QOS_NAME,
	J_TIER,
	NJ
};
static const char *const cluster_fields[] = {"nodes", "cpus", "max_assoc_priority",
                                             "max_partition_factor", "max_qos_priority"};
#define NK 5

/* The fields of the result, in this order. */
static const char *const result_fields[] = {"priority",
                                            "priority_sum",
                                            "site",
                                            "age",
                                            "assoc",
                                            "fairshare",
                                            "jobsize",
                                            "partition",
                                            "qos",
                                            "nice",
                                            "tres",
                                            "age_factor",
                                            "assoc_factor",
                                            "fairshare_factor",
                                            "jobsize_factor",
                                            "partition_factor",
                                            "qos_factor",
                                            "tres_factors",
                                            "direct"};
#define NR 19

/*
 * What a call site keeps across rows (fn_extra), so that a query over a million jobs with one
 * configuration and one cluster pays per row only for the job: the row types and where their
 * fields are (learnt from the first values), the last configuration value with what is derived
 * from it (its settings, the core's per-TRES arrays, the output vectors' names in order and the
 * scratch they are encoded into), and the last cluster value read. A configuration or cluster of
 * other bytes is read again (the configuration into a context reset each time).
 */
typedef struct prio_cache
{
	/* row types and field positions */
	TupleDesc job_td, cl_td, res_td;
	int job_idx[NJ], cl_idx[NK], res_idx[NR];
	Datum *jv, *kv;
	bool *jn, *kn;
	/* the configuration, and what is derived from it (in cfg_cxt) */
	MemoryContext cfg_cxt;
	char *cfg_bytes;
	uint32 cfg_len;
	bool have_cfg;
	fs_sprio_config cfg;
	double *tres, *tres_f;
	bool tres_plan_ok;    /* the TRES names encode as they are (else every row goes through
	                       * fs_rv_build, which reports what is wrong) */
	fs_rv_plan tres_plan; /* the output vectors' names in resvec order */
	struct varlena *tres_buf, *tres_f_buf; /* a row's two output vectors */
	/* the cluster (cl_bytes in fn_mcxt) */
	char *cl_bytes;
	uint32 cl_len, cl_cap;
	bool have_cl;
	fs_sprio_cluster cl;
	/* a composite argument stored with a short header, copied here rather than detoasted */
	struct varlena *argbuf[3];
	Size argcap[3];
} prio_cache;

static TupleDesc
row_type(HeapTupleHeader t, const char *const *names, int n, int *idx)
{
	TupleDesc td =
	    lookup_rowtype_tupdesc_copy(HeapTupleHeaderGetTypeId(t), HeapTupleHeaderGetTypMod(t));
	int k;

	for (k = 0; k < n; k++)
		idx[k] = fs_pg_field_number(td, names[k], format_type_be(td->tdtypeid));
	return td;
}

static void
row_deform(HeapTupleHeader t, TupleDesc td, Datum *v, bool *n)
{
	HeapTupleData tmp;

	tmp.t_len = HeapTupleHeaderGetDatumLength(t);
	ItemPointerSetInvalid(&tmp.t_self);
	tmp.t_tableOid = InvalidOid;
	tmp.t_data = t;
	heap_deform_tuple(&tmp, td, v, n);
}

#define JNULL(k) (c->jn[c->job_idx[k]])
#define JVAL(k)  (c->jv[c->job_idx[k]])
#define JINT4(k) (JNULL(k) ? 0 : (int64) DatumGetInt32(JVAL(k)))
#define JINT8(k) (JNULL(k) ? 0 : DatumGetInt64(JVAL(k)))
#define KINT4(k) (c->kn[c->cl_idx[k]] ? 0 : (int64) DatumGetInt32(c->kv[c->cl_idx[k]]))
#define KINT8(k) (c->kn[c->cl_idx[k]] ? 0 : DatumGetInt64(c->kv[c->cl_idx[k]]))

static int64_t
interval_seconds(Datum d, const char *what)
{
	const Interval *iv = DatumGetIntervalP(d);
	/* a time of day alone (the common case) without the call */
	int64 us = iv->month == 0 && iv->day == 0 ? iv->time : fs_pg_interval_us(iv, what);

	return us >= 0 ? (us + USECS_PER_SEC - 1) / USECS_PER_SEC : -(-us / USECS_PER_SEC);
}

static const uint8_t *
resvec_of(Datum d)
{
	return (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(d));
}

/*
 * The call site's cache, made on the first call; the job and cluster types are learnt from the
 * first values.
 */
static prio_cache *
cache_of(FunctionCallInfo fcinfo, bool result_row)
{
	prio_cache *c = fcinfo->flinfo->fn_extra;
	MemoryContext old;
	int i;

	if (c != NULL)
		return c;
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	c = palloc0(sizeof(prio_cache));
	if (result_row)
	{
		TupleDesc res;

		if (get_call_result_type(fcinfo, NULL, &res) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "slurm_priority must return a composite type");
		c->res_td = BlessTupleDesc(CreateTupleDescCopy(res));
		if (c->res_td->natts > 32)
			elog(ERROR, "type fairsched.slurm_priority has too many fields");
		for (i = 0; i < NR; i++)
			c->res_idx[i] =
			    fs_pg_field_number(c->res_td, result_fields[i], "fairsched.slurm_priority");
	}
	c->cfg_cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "slurm_priority config",
	                                   ALLOCSET_SMALL_SIZES);
	fcinfo->flinfo->fn_extra = c;
	MemoryContextSwitchTo(old);
	return c;
}

/*
 * Composite argument argno as a tuple header. A row stored in a table is a plain value (read in
 * place) or, when small, one with a short header (unaligned): that one is copied into the call
 * site's buffer for the argument, reused row after row, rather than into fresh memory as
 * PG_GETARG_HEAPTUPLEHEADER does; compressed or out-of-line values are detoasted.
 */
static HeapTupleHeader
composite_arg(FunctionCallInfo fcinfo, prio_cache *c, int argno)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	Size len;

	if (!VARATT_IS_EXTENDED(v))
		return (HeapTupleHeader) v;
	if (!VARATT_IS_SHORT(v))
		return (HeapTupleHeader) PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	len = VARSIZE_SHORT(v) - VARHDRSZ_SHORT + VARHDRSZ;
	if (len > c->argcap[argno])
	{
		if (c->argbuf[argno])
			pfree(c->argbuf[argno]);
		c->argbuf[argno] = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, len);
		c->argcap[argno] = len;
	}
	SET_VARSIZE(c->argbuf[argno], len);
	memcpy(VARDATA(c->argbuf[argno]), VARDATA_SHORT(v), len - VARHDRSZ);
	return (HeapTupleHeader) c->argbuf[argno];
}

/*
 * Whether composite argument argno is the value whose bytes (with a 4-byte header) are cached:
 * compared where it lies, without a copy. A compressed or out-of-line value counts as changed.
 */
static bool
arg_is(FunctionCallInfo fcinfo, int argno, const char *bytes, uint32 len)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));

	if (bytes == NULL)
		return false;
	if (!VARATT_IS_EXTENDED(v))
		return VARSIZE(v) == len && memcmp(v, bytes, len) == 0;
	if (!VARATT_IS_SHORT(v))
		return false;
	return VARSIZE_SHORT(v) - VARHDRSZ_SHORT + VARHDRSZ == len &&
	       memcmp(VARDATA_SHORT(v), bytes + VARHDRSZ, len - VARHDRSZ) == 0;
}

/* The configuration, read again only when its value changes. */
static void
cache_config(FunctionCallInfo fcinfo, prio_cache *c, int argno)
{
	HeapTupleHeader ct;
	uint32 clen;
	MemoryContext old;
	const char **names;
	fs_error err;
	size_t i;

	if (c->have_cfg && arg_is(fcinfo, argno, c->cfg_bytes, c->cfg_len))
		return;
	ct = composite_arg(fcinfo, c, argno);
	clen = HeapTupleHeaderGetDatumLength(ct);
	c->have_cfg = false;
	MemoryContextReset(c->cfg_cxt);
	old = MemoryContextSwitchTo(c->cfg_cxt);
	config_from_record(ct, &c->cfg);
	c->cfg_bytes = palloc(clen);
	memcpy(c->cfg_bytes, ct, clen);
	c->cfg_len = clen;
	c->tres = palloc0(sizeof(double) * (c->cfg.n_tres + 1));
	c->tres_f = palloc0(sizeof(double) * (c->cfg.n_tres + 1));
	names = palloc(sizeof(char *) * (c->cfg.n_tres + 1));
	for (i = 0; i < c->cfg.n_tres; i++)
		names[i] = c->cfg.tres[i].name;
	c->tres_plan_ok = fs_rv_plan_init(&c->tres_plan, names, c->cfg.n_tres, FS_KIND_COUNT,
	                                  FS_ERR_VALUE, &fs_pg_alloc, &err) == FS_OK;
	if (c->tres_plan_ok)
	{
		c->tres_buf = palloc(VARHDRSZ + c->tres_plan.maxlen);
		c->tres_f_buf = palloc(VARHDRSZ + c->tres_plan.maxlen);
	}
	c->have_cfg = true;
	MemoryContextSwitchTo(old);
}

/* The cluster, read again only when its value changes. */
static void
cache_cluster(FunctionCallInfo fcinfo, prio_cache *c, int argno)
{
	HeapTupleHeader kt;
	uint32 klen;
	fs_sprio_cluster *cl = &c->cl;

	if (c->have_cl && arg_is(fcinfo, argno, c->cl_bytes, c->cl_len))
		return;
	kt = composite_arg(fcinfo, c, argno);
	klen = HeapTupleHeaderGetDatumLength(kt);
	c->have_cl = false;
	if (c->cl_td == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		c->cl_td = row_type(kt, cluster_fields, NK, c->cl_idx);
		c->kv = palloc(sizeof(Datum) * c->cl_td->natts);
		c->kn = palloc(sizeof(bool) * c->cl_td->natts);
		MemoryContextSwitchTo(old);
	}
	row_deform(kt, c->cl_td, c->kv, c->kn);
	cl->nodes = KINT4(0);
	cl->cpus = KINT4(1);
	cl->max_assoc_priority = KINT8(2);
	cl->max_partition_factor = KINT4(3);
	cl->max_qos_priority = KINT8(4);
	if (klen > c->cl_cap)
	{
		c->cl_bytes = c->cl_bytes ? repalloc(c->cl_bytes, klen)
		                          : MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, klen);
		c->cl_cap = klen;
	}
	memcpy(c->cl_bytes, kt, klen);
	c->cl_len = klen;
	c->have_cl = true;
}

/*
 * A job's numeric fields into the core's struct: v[idx[J_x]] and n[idx[J_x]] for each J_x up to
 * J_PREVIOUS, from a deformed slurm_job or from slurm_priority_value's arguments.
 */
static void
job_from_values(const Datum *v, const bool *n, const int *idx, fs_sprio_job *job)
{
#define VNULL(k) (n[idx[k]])
#define VVAL(k)  (v[idx[k]])
#define VINT4(k) (VNULL(k) ? 0 : (int64) DatumGetInt32(VVAL(k)))
#define VINT8(k) (VNULL(k) ? 0 : DatumGetInt64(VVAL(k)))
	memset(job, 0, sizeof(*job));
	if (!VNULL(J_SUBMIT))
		job->submit = unix_seconds(DatumGetTimestampTz(VVAL(J_SUBMIT)), "submit_time");
	job->has_accrue = !VNULL(J_ACCRUE);
	if (job->has_accrue)
		job->accrue = unix_seconds(DatumGetTimestampTz(VVAL(J_ACCRUE)), "accrue_time");
	job->min_nodes = VINT4(J_MIN_NODES);
	job->cpus = VINT4(J_CPUS);
	job->has_time_limit = !VNULL(J_TIME_LIMIT);
	if (job->has_time_limit)
		job->time_limit = interval_seconds(VVAL(J_TIME_LIMIT), "time_limit");
	job->has_part_max_time = !VNULL(J_PART_MAX_TIME);
	if (job->has_part_max_time)
		job->part_max_time = interval_seconds(VVAL(J_PART_MAX_TIME), "partition_max_time");
	job->tres = VNULL(J_TRES) ? NULL : resvec_of(VVAL(J_TRES));
	job->part_tres = VNULL(J_PART_TRES) ? NULL : resvec_of(VVAL(J_PART_TRES));
	job->fairshare = VNULL(J_FAIRSHARE) ? 0 : DatumGetFloat8(VVAL(J_FAIRSHARE));
	job->assoc_priority = VINT8(J_ASSOC);
	job->partition_factor = VINT4(J_PART_FACTOR);
	job->qos_priority = VINT8(J_QOS);
	job->site_factor = VINT8(J_SITE);
	job->nice = VINT8(J_NICE);
	job->has_direct = !VNULL(J_DIRECT);
	job->direct_priority = VINT8(J_DIRECT);
	job->has_previous = !VNULL(J_PREVIOUS);
	job->previous_priority = VINT8(J_PREVIOUS);
#undef VNULL
#undef VVAL
#undef VINT4
#undef VINT8
}

/* The job's fields into the core's struct (its text fields stay in c->jv). */
static void
read_job(FunctionCallInfo fcinfo, prio_cache *c, HeapTupleHeader jt, fs_sprio_job *jobp)
{
	if (c->job_td == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		c->job_td = row_type(jt, job_fields, NJ, c->job_idx);
		c->jv = palloc(sizeof(Datum) * c->job_td->natts);
		c->jn = palloc(sizeof(bool) * c->job_td->natts);
		MemoryContextSwitchTo(old);
	}
	row_deform(jt, c->job_td, c->jv, c->jn);
	job_from_values(c->jv, c->jn, c->job_idx, jobp);
}

/*
 * A row's vector of weighted TRES terms or factors: encoded into the call site's scratch buf when
 * the names allow (the caller copies it into its row before the next), else by tres_vector.
 */
static Datum
tres_datum(const prio_cache *c, const double *v, struct varlena *buf)
{
	size_t len;

	if (c->tres_plan_ok &&
	    (len = fs_rv_plan_encode(&c->tres_plan, v, (uint8_t *) VARDATA(buf))) > 0)
	{
		SET_VARSIZE(buf, VARHDRSZ + len);
		return PointerGetDatum(buf);
	}
	return tres_vector(&c->cfg, v);
}

/* The fields of a slurm_priority result (at c->res_idx) from the core's result; others NULL. */
static void
result_values(const prio_cache *c, const fs_sprio_result *rp, int natts, Datum *values, bool *nulls)
{
	const fs_sprio_result r = *rp;
	int i;

	for (i = 0; i < natts; i++)
		nulls[i] = true;
#define SET(k, datum)                                                                              \
	do                                                                                             \
	{                                                                                              \
		values[c->res_idx[k]] = (datum);                                                           \
		nulls[c->res_idx[k]] = false;                                                              \
	} while (0)
	SET(0, Int64GetDatum(r.priority));
	SET(1, Float8GetDatum(r.sum));
	SET(2, Float8GetDatum(r.site));
	SET(3, Float8GetDatum(r.age));
	SET(4, Float8GetDatum(r.assoc));
	SET(5, Float8GetDatum(r.fairshare));
	SET(6, Float8GetDatum(r.jobsize));
	SET(7, Float8GetDatum(r.partition));
	SET(8, Float8GetDatum(r.qos));
	SET(9, Float8GetDatum(r.nice));
	SET(10, tres_datum(c, r.tres, c->tres_buf));
	SET(11, Float8GetDatum(r.age_f));
	SET(12, Float8GetDatum(r.assoc_f));
	SET(13, Float8GetDatum(r.fairshare_f));
	SET(14, Float8GetDatum(r.jobsize_f));
	SET(15, Float8GetDatum(r.partition_f));
	SET(16, Float8GetDatum(r.qos_f));
	SET(17, tres_datum(c, r.tres_f, c->tres_f_buf));
	SET(18, BoolGetDatum(r.direct));
#undef SET
}

/*
 * The priority of the job of this call's arguments (config, job, cluster, as_of), into *r (its
 * TRES arrays the cache's): what slurm_priority and slurm_priority_value share per row.
 */
static void
priority_of_args(FunctionCallInfo fcinfo, prio_cache *c, fs_sprio_job *job, fs_sprio_result *r)
{
	int64_t now = unix_seconds(PG_GETARG_TIMESTAMPTZ(3), "as_of");
	fs_error err;

	cache_config(fcinfo, c, 0);
	read_job(fcinfo, c, composite_arg(fcinfo, c, 1), job);
	cache_cluster(fcinfo, c, 2);
	r->tres = c->tres;
	r->tres_f = c->tres_f;
	fs_pg_check(fs_sprio_priority(&c->cfg, job, &c->cl, now, r, &err), &err);
}

Datum
slurm_priority(PG_FUNCTION_ARGS)
{
	prio_cache *c = cache_of(fcinfo, true);
	fs_sprio_job job;
	fs_sprio_result r;
	Datum values[32];
	bool nulls[32];

	priority_of_args(fcinfo, c, &job, &r);
	result_values(c, &r, c->res_td->natts, values, nulls);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(c->res_td, values, nulls)));
}

PG_FUNCTION_INFO_V1(slurm_priority_value);

/*
 * slurm_priority's priority alone, as a bigint: what an ORDER BY or a sum needs, without the cost
 * of the 19-field result row.
 */
Datum
slurm_priority_value(PG_FUNCTION_ARGS)
{
	prio_cache *c = cache_of(fcinfo, false);
	fs_sprio_job job;
	fs_sprio_result r;

	priority_of_args(fcinfo, c, &job, &r);
	PG_RETURN_INT64(r.priority);
}

PG_FUNCTION_INFO_V1(slurm_priority_value_fields);

/*
 * The argument of each of the job's numeric fields in slurm_priority_value(config, cluster, as_of,
 * submit_time, ...), in the order of the J_ fields (the SQL order is slurm_job's).
 */
static const int value_args[J_PREVIOUS + 1] = {
    [J_SUBMIT] = 3,       [J_ACCRUE] = 4,         [J_MIN_NODES] = 5,  [J_CPUS] = 6,
    [J_TIME_LIMIT] = 7,   [J_TRES] = 8,           [J_FAIRSHARE] = 9,  [J_ASSOC] = 10,
    [J_PART_FACTOR] = 11, [J_PART_MAX_TIME] = 12, [J_PART_TRES] = 13, [J_QOS] = 14,
    [J_SITE] = 15,        [J_NICE] = 16,          [J_DIRECT] = 17,    [J_PREVIOUS] = 18};
#define NVALUE_ARGS 19

/*
 * slurm_priority_value with the job given field by field, as a table of typed columns holds it:
 * the same priority, with no slurm_job value built and read per row. NULL config, cluster or
 * as_of give NULL; a NULL field means what it means in a slurm_job.
 */
Datum
slurm_priority_value_fields(PG_FUNCTION_ARGS)
{
	prio_cache *c;
	fs_sprio_job job;
	fs_sprio_result r;
	fs_error err;
	Datum v[NVALUE_ARGS];
	bool n[NVALUE_ARGS];
	int64_t now;
	int i;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	if (PG_NARGS() != NVALUE_ARGS)
		elog(ERROR, "slurm_priority_value: %d arguments, not %d", PG_NARGS(), NVALUE_ARGS);
	c = cache_of(fcinfo, false);
	now = unix_seconds(PG_GETARG_TIMESTAMPTZ(2), "as_of");
	cache_config(fcinfo, c, 0);
	cache_cluster(fcinfo, c, 1);
	for (i = 3; i < NVALUE_ARGS; i++)
	{
		n[i] = PG_ARGISNULL(i);
		v[i] = n[i] ? (Datum) 0 : PG_GETARG_DATUM(i);
	}
	job_from_values(v, n, value_args, &job);
	r.tres = c->tres;
	r.tres_f = c->tres_f;
	fs_pg_check(fs_sprio_priority(&c->cfg, &job, &c->cl, now, &r, &err), &err);
	PG_RETURN_INT64(r.priority);
}

/* ---- sprio ---------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(sprio);

/* A text field of the current job as a piece of input (empty when NULL). */
static fs_str
job_text(prio_cache *c, int k)
{
	text *t;

	if (JNULL(k))
		return fs_str_of(NULL, 0);
	t = DatumGetTextPP(JVAL(k));
	return fs_str_of(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

/* One element of a jobs array with its priority: what sprio prints and the scheduler sorts by. */
typedef struct prio_job
{
	fs_sprio_row row;
	int64_t tier, submit;
} prio_job;

/*
 * Every job of a jobs array with its priority at the pass `now`, in the array's order; an error
 * names the element. O(n) calls of fs_sprio_priority.
 */
static prio_job *
jobs_priorities(FunctionCallInfo fcinfo, prio_cache *c, ArrayType *jobs, const fs_sprio_cluster *cl,
                int64_t now, int *np)
{
	Datum *elems;
	bool *enulls;
	int n, i;
	prio_job *out;
	fs_sprio_result *res;
	double *per_tres;
	fs_error err;

	fs_pg_check_1d(jobs, "jobs");
	deconstruct_array(jobs, ARR_ELEMTYPE(jobs), -1, false, TYPALIGN_DOUBLE, &elems, &enulls, &n);
	out = palloc0(sizeof(prio_job) * (n + 1));
	/* in two allocations, not two per job (huge: 10^7 jobs is more than a gigabyte) */
	res = MemoryContextAllocExtended(CurrentMemoryContext, sizeof(fs_sprio_result) * (n + 1),
	                                 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	per_tres = MemoryContextAllocExtended(CurrentMemoryContext,
	                                      sizeof(double) * ((Size) 2 * c->cfg.n_tres * n + 1),
	                                      MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (i = 0; i < n; i++)
	{
		fs_sprio_job job;
		fs_sprio_result *r = &res[i];

		CHECK_FOR_INTERRUPTS();
		if (enulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("job %d of the jobs array is NULL", i + 1),
			                errhint("Leave NULL jobs out of the array.")));
		read_job(fcinfo, c, DatumGetHeapTupleHeader(elems[i]), &job);
		r->tres = per_tres + (Size) 2 * c->cfg.n_tres * i;
		r->tres_f = r->tres + c->cfg.n_tres;
		if (fs_sprio_priority(&c->cfg, &job, cl, now, r, &err) != FS_OK)
		{
			fs_error_context(&err, "in job %d of the jobs array", i + 1);
			fs_pg_raise(&err);
		}
		out[i].row.job_id = job_text(c, J_JOB_ID);
		out[i].row.partition = job_text(c, J_PARTITION);
		out[i].row.user = job_text(c, J_USER);
		out[i].row.account = job_text(c, J_ACCOUNT);
		out[i].row.qos = job_text(c, J_QOS_NAME);
		out[i].row.r = r;
		out[i].tier = JINT4(J_TIER);
		out[i].submit = job.submit;
	}
	*np = n;
	return out;
}

Datum
sprio(PG_FUNCTION_ARGS)
{
	ArrayType *jobs = PG_GETARG_ARRAYTYPE_P(1);
	int64_t now = unix_seconds(PG_GETARG_TIMESTAMPTZ(3), "as_of");
	text *options = PG_GETARG_TEXT_PP(4);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	prio_cache *c = cache_of(fcinfo, false);
	fs_sprio_row *rows;
	prio_job *pj;
	fs_error err;
	int n, i;
	fs_sprio_opts opts;
	char bad;
	fs_sb out;
	size_t p, q, line_cap = 0;
	text *line = NULL;

	fs_pg_check(fs_sprio_options_parse(VARDATA_ANY(options), VARSIZE_ANY_EXHDR(options), &opts,
	                                   &fs_pg_alloc, &err),
	            &err);
	cache_config(fcinfo, c, 0);
	cache_cluster(fcinfo, c, 2);
	pj = jobs_priorities(fcinfo, c, jobs, &c->cl, now, &n);
	rows = palloc0(sizeof(fs_sprio_row) * (n + 1));
	for (i = 0; i < n; i++)
		rows[i] = pj[i].row;
	fs_sb_init(&out, &fs_pg_alloc, 256);
	fs_sprio_print(&c->cfg, rows, (size_t) n, &opts, &out, &bad, &fs_pg_alloc);
	if (bad)
		ereport(WARNING, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                  errmsg("sprio: error: Invalid job format specification: %c", bad),
		                  errdetail("sprio leaves the field and its suffix out, as here."),
		                  errhint("The format letters of release %d.%02d are listed in "
		                          "docs/job-priority.md.",
		                          c->cfg.version / 100, c->cfg.version % 100)));

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	/* each line through one text buffer (the tuplestore copies it), not a new one per line */
	for (p = 0; p < out.len; p = q + 1)
	{
		const char *nl = memchr(out.data + p, '\n', out.len - p);
		Datum v;
		bool isnull = false;

		q = nl ? (size_t) (nl - out.data) : out.len;
		if (VARHDRSZ + q - p > line_cap)
		{
			line_cap = 2 * (VARHDRSZ + q - p);
			line = line ? repalloc(line, line_cap) : palloc(line_cap);
		}
		SET_VARSIZE(line, VARHDRSZ + q - p);
		memcpy(VARDATA(line), out.data + p, q - p);
		v = PointerGetDatum(line);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &v, &isnull);
	}
	return (Datum) 0;
}

/* ---- slurm_job_order ------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(slurm_job_order);

/*
 * The order slurmctld's main scheduler considers the pending jobs in: one row per element (a job
 * in one partition), held jobs (priority 0) left out, as SLURM leaves them out of its queue.
 */
Datum
slurm_job_order(PG_FUNCTION_ARGS)
{
	ArrayType *jobs = PG_GETARG_ARRAYTYPE_P(1);
	int64_t now = unix_seconds(PG_GETARG_TIMESTAMPTZ(3), "as_of");
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	prio_cache *c = cache_of(fcinfo, false);
	fs_sprio_order_key *keys;
	const char **decided;
	prio_job *pj;
	int n, i;
	size_t k = 0;

	cache_config(fcinfo, c, 0);
	cache_cluster(fcinfo, c, 2);
	pj = jobs_priorities(fcinfo, c, jobs, &c->cl, now, &n);
	keys = palloc0(sizeof(fs_sprio_order_key) * (n + 1));
	for (i = 0; i < n; i++)
	{
		if (pj[i].row.r->priority == 0)
			continue;
		keys[k].tier = pj[i].tier;
		keys[k].priority = pj[i].row.r->priority;
		keys[k].submit = pj[i].submit;
		keys[k].job_id = pj[i].row.job_id;
		keys[k].index = (size_t) i;
		k++;
	}
	decided = palloc0(sizeof(char *) * (k + 1));
	fs_sprio_order(keys, k, decided, &fs_pg_alloc);

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	for (i = 0; i < (int) k; i++)
	{
		const fs_sprio_row *row = &pj[keys[i].index].row;
		Datum v[5];
		bool nl[5] = {false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		v[0] = Int32GetDatum(i + 1);
		v[1] = fs_pg_text_or_null(row->job_id, &nl[1]);
		v[2] = fs_pg_text_or_null(row->partition, &nl[2]);
		v[3] = Int64GetDatum(keys[i].priority);
		nl[4] = decided[i] == NULL;
		v[4] = nl[4] ? (Datum) 0 : CStringGetTextDatum(decided[i]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, nl);
	}
	return (Datum) 0;
}

/* ---- slurm_priorities ----------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(slurm_priorities);

/* The elements of an array of composites with the fields `names` found by name in *td. */
static Datum *
composite_elements(ArrayType *arr, const char *what, const char *const *names, int nnames, int *idx,
                   TupleDesc *td, int *n)
{
	Datum *elems;
	bool *enulls;
	int i;

	fs_pg_check_1d(arr, what);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), -1, false, TYPALIGN_DOUBLE, &elems, &enulls, n);
	for (i = 0; i < *n; i++)
		if (enulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("element %d of the %s array is NULL", i + 1, what),
			                errhint("Leave NULL elements out of the array.")));
	*td = *n > 0 ? row_type(DatumGetHeapTupleHeader(elems[0]), names, nnames, idx) : NULL;
	return elems;
}

/* A name field of an element, which must not be NULL. */
static fs_str
element_name(Datum *v, bool *nl, int f, const char *what, int i)
{
	text *t;

	if (nl[f])
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
		                errmsg("element %d of the %s array has no name", i + 1, what),
		                errhint("Give every element its name.")));
	t = DatumGetTextPP(v[f]);
	return fs_str_of(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

static fs_sprio_part *
read_partitions(ArrayType *arr, size_t *np)
{
	static const char *const names[] = {"name", "priority_job_factor", "max_time", "tres"};
	int idx[4], n, i;
	TupleDesc td;
	Datum *elems = composite_elements(arr, "partitions", names, 4, idx, &td, &n);
	fs_sprio_part *parts = palloc0(sizeof(fs_sprio_part) * (n + 1));

	for (i = 0; i < n; i++)
	{
		Datum *v = palloc(sizeof(Datum) * td->natts);
		bool *nl = palloc(sizeof(bool) * td->natts);

		CHECK_FOR_INTERRUPTS();
		row_deform(DatumGetHeapTupleHeader(elems[i]), td, v, nl);
		parts[i].name = element_name(v, nl, idx[0], "partitions", i);
		parts[i].factor = nl[idx[1]] ? 1 : (int64) DatumGetInt32(v[idx[1]]);
		parts[i].has_max_time = !nl[idx[2]];
		if (!nl[idx[2]])
			parts[i].max_time = interval_seconds(v[idx[2]], "max_time");
		parts[i].tres = nl[idx[3]] ? NULL : resvec_of(v[idx[3]]);
	}
	*np = (size_t) n;
	return parts;
}

static fs_sprio_qos *
read_qos(ArrayType *arr, size_t *nq)
{
	static const char *const names[] = {"name", "priority"};
	int idx[2], n, i;
	TupleDesc td;
	Datum *elems = composite_elements(arr, "qos", names, 2, idx, &td, &n);
	fs_sprio_qos *qos = palloc0(sizeof(fs_sprio_qos) * (n + 1));

	for (i = 0; i < n; i++)
	{
		Datum *v = palloc(sizeof(Datum) * td->natts);
		bool *nl = palloc(sizeof(bool) * td->natts);

		CHECK_FOR_INTERRUPTS();
		row_deform(DatumGetHeapTupleHeader(elems[i]), td, v, nl);
		qos[i].name = element_name(v, nl, idx[0], "qos", i);
		qos[i].priority = nl[idx[1]] ? 0 : DatumGetInt64(v[idx[1]]);
	}
	*nq = (size_t) n;
	return qos;
}

/* The previous priorities per pair (INCR_ONLY); a NULL name is the empty one, a NULL priority none.
 */
static fs_sprio_prev *
read_previous(ArrayType *arr, size_t *nprev)
{
	static const char *const names[] = {"partition", "qos", "priority"};
	int idx[3], n, i, f;
	TupleDesc td;
	Datum *elems = composite_elements(arr, "previous", names, 3, idx, &td, &n);
	fs_sprio_prev *prev = palloc0(sizeof(fs_sprio_prev) * (n + 1));
	size_t m = 0;

	for (i = 0; i < n; i++)
	{
		Datum *v = palloc(sizeof(Datum) * td->natts);
		bool *nl = palloc(sizeof(bool) * td->natts);
		fs_str *name[2] = {&prev[m].partition, &prev[m].qos};

		CHECK_FOR_INTERRUPTS();
		row_deform(DatumGetHeapTupleHeader(elems[i]), td, v, nl);
		if (nl[idx[2]])
			continue;
		for (f = 0; f < 2; f++)
		{
			text *t = nl[idx[f]] ? NULL : DatumGetTextPP(v[idx[f]]);

			*name[f] = t ? fs_str_of(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)) : fs_str_of(NULL, 0);
		}
		prev[m++].priority = DatumGetInt64(v[idx[2]]);
	}
	*nprev = m;
	return prev;
}

/*
 * A job's priority in each (partition, QOS) pair it names, one row each, as SLURM keeps them,
 * INCR_ONLY per pair from the previous array (the seventh argument, when declared and given);
 * NULL config, job, cluster or as_of give no rows.
 */
Datum
slurm_priorities(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	prio_cache *c;
	fs_sprio_job job;
	fs_sprio_part *parts = NULL;
	fs_sprio_qos *qos = NULL;
	size_t nparts = 0, nqos = 0, npairs, i;
	fs_sprio_pair *pairs;
	fs_error err;
	int64_t now;
	int pcol, qcol;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		return (Datum) 0;
	now = unix_seconds(PG_GETARG_TIMESTAMPTZ(3), "as_of");
	c = cache_of(fcinfo, true);
	cache_config(fcinfo, c, 0);
	read_job(fcinfo, c, composite_arg(fcinfo, c, 1), &job);
	cache_cluster(fcinfo, c, 2);
	if (!PG_ARGISNULL(4))
		parts = read_partitions(PG_GETARG_ARRAYTYPE_P(4), &nparts);
	if (!PG_ARGISNULL(5))
		qos = read_qos(PG_GETARG_ARRAYTYPE_P(5), &nqos);
	fs_pg_check(fs_sprio_priority_each(&c->cfg, &job, job_text(c, J_PARTITION),
	                                   job_text(c, J_QOS_NAME), parts, nparts, qos, nqos, &c->cl,
	                                   now, &pairs, &npairs, &fs_pg_alloc, &err),
	            &err);
	if (PG_NARGS() > 6 && !PG_ARGISNULL(6))
	{
		size_t nprev;
		fs_sprio_prev *prev = read_previous(PG_GETARG_ARRAYTYPE_P(6), &nprev);

		fs_pg_check(fs_sprio_pairs_incr_only(&c->cfg, pairs, npairs, prev, nprev, &err), &err);
	}
	pcol = fs_pg_field_number(c->res_td, "partition_name", "slurm_priorities' result");
	qcol = fs_pg_field_number(c->res_td, "qos_name", "slurm_priorities' result");
	for (i = 0; i < npairs; i++)
	{
		Datum values[32];
		bool nulls[32];

		CHECK_FOR_INTERRUPTS();
		result_values(c, &pairs[i].r, c->res_td->natts, values, nulls);
		values[pcol] = fs_pg_text_or_null(pairs[i].partition, &nulls[pcol]);
		values[qcol] = fs_pg_text_or_null(pairs[i].qos, &nulls[qcol]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
