/*
 * slurm_priority.c (glue): slurm_priority_config, SLURM's priority parameters as a composite
 * value; the reading is in src/core/priority/slurm_priority.c.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "priority/slurm_priority.h"
#include "types/resvec.h"

PG_FUNCTION_INFO_V1(slurm_priority_config);

#define CONFIG_TYPE "fairsched.slurm_priority_config"

/* The attribute number of a field of the result type, found by name. */
static int
field(TupleDesc td, const char *name)
{
	int i;

	for (i = 0; i < td->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i;
	}
	elog(ERROR, "type %s has no field \"%s\"", CONFIG_TYPE, name);
	return -1;
}

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
		int a_ = field(desc, name);                                                                \
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

static int64
attr_int(HeapTupleHeader t, const char *name, bool is_int4, bool *present)
{
	bool isnull;
	Datum d = attr(t, name, &isnull);

	if (present)
		*present = !isnull;
	if (isnull)
		return 0;
	return is_int4 ? (int64) DatumGetInt32(d) : DatumGetInt64(d);
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

static const uint8_t *
attr_resvec(HeapTupleHeader t, const char *name)
{
	bool isnull;
	Datum d = attr(t, name, &isnull);

	if (isnull)
		return NULL;
	return (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(d));
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

/* A vector of one count per configured TRES weight (zero entries left out). */
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

Datum
slurm_priority(PG_FUNCTION_ARGS)
{
	HeapTupleHeader ct = PG_GETARG_HEAPTUPLEHEADER(0), jt = PG_GETARG_HEAPTUPLEHEADER(1),
	                kt = PG_GETARG_HEAPTUPLEHEADER(2);
	int64_t now = unix_seconds(PG_GETARG_TIMESTAMPTZ(3), "as_of");
	fs_sprio_config cfg;
	fs_sprio_job job;
	fs_sprio_cluster cl;
	fs_sprio_result r;
	fs_error err;
	TupleDesc desc;
	Datum values[32];
	bool nulls[32], isnull;
	Datum d;
	int i;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "slurm_priority must return a composite type");
	desc = BlessTupleDesc(desc);
	if (desc->natts > 32)
		elog(ERROR, "type fairsched.slurm_priority has too many fields");
	config_from_record(ct, &cfg);

	memset(&job, 0, sizeof(job));
	d = attr(jt, "submit_time", &isnull);
	if (!isnull)
		job.submit = unix_seconds(DatumGetTimestampTz(d), "submit_time");
	d = attr(jt, "accrue_time", &isnull);
	job.has_accrue = !isnull;
	if (!isnull)
		job.accrue = unix_seconds(DatumGetTimestampTz(d), "accrue_time");
	job.min_nodes = attr_int(jt, "min_nodes", true, NULL);
	job.cpus = attr_int(jt, "cpus", true, NULL);
	job.time_limit = attr_seconds(jt, "time_limit", &job.has_time_limit);
	job.part_max_time = attr_seconds(jt, "partition_max_time", &job.has_part_max_time);
	job.tres = attr_resvec(jt, "tres");
	job.part_tres = attr_resvec(jt, "partition_tres");
	d = attr(jt, "fairshare", &isnull);
	job.fairshare = isnull ? 0 : DatumGetFloat8(d);
	job.assoc_priority = attr_int(jt, "assoc_priority", false, NULL);
	job.partition_factor = attr_int(jt, "partition_factor", true, NULL);
	job.qos_priority = attr_int(jt, "qos_priority", false, NULL);
	job.site_factor = attr_int(jt, "site_factor", false, NULL);
	job.nice = attr_int(jt, "nice", false, NULL);
	job.direct_priority = attr_int(jt, "direct_priority", false, &job.has_direct);
	job.previous_priority = attr_int(jt, "previous_priority", false, &job.has_previous);

	cl.nodes = attr_int(kt, "nodes", true, NULL);
	cl.cpus = attr_int(kt, "cpus", true, NULL);
	cl.max_assoc_priority = attr_int(kt, "max_assoc_priority", false, NULL);
	cl.max_partition_factor = attr_int(kt, "max_partition_factor", true, NULL);
	cl.max_qos_priority = attr_int(kt, "max_qos_priority", false, NULL);

	r.tres = palloc0(sizeof(double) * (cfg.n_tres + 1));
	r.tres_f = palloc0(sizeof(double) * (cfg.n_tres + 1));
	fs_pg_check(fs_sprio_priority(&cfg, &job, &cl, now, &r, &err), &err);

	for (i = 0; i < desc->natts; i++)
		nulls[i] = true;
#define SET(name, datum)                                                                           \
	do                                                                                             \
	{                                                                                              \
		int a_ = field(desc, name);                                                                \
		values[a_] = (datum);                                                                      \
		nulls[a_] = false;                                                                         \
	} while (0)
	SET("priority", Int64GetDatum(r.priority));
	SET("priority_sum", Float8GetDatum(r.sum));
	SET("site", Float8GetDatum(r.site));
	SET("age", Float8GetDatum(r.age));
	SET("assoc", Float8GetDatum(r.assoc));
	SET("fairshare", Float8GetDatum(r.fairshare));
	SET("jobsize", Float8GetDatum(r.jobsize));
	SET("partition", Float8GetDatum(r.partition));
	SET("qos", Float8GetDatum(r.qos));
	SET("nice", Float8GetDatum(r.nice));
	SET("tres", tres_vector(&cfg, r.tres));
	SET("age_factor", Float8GetDatum(r.age_f));
	SET("assoc_factor", Float8GetDatum(r.assoc_f));
	SET("fairshare_factor", Float8GetDatum(r.fairshare_f));
	SET("jobsize_factor", Float8GetDatum(r.jobsize_f));
	SET("partition_factor", Float8GetDatum(r.partition_f));
	SET("qos_factor", Float8GetDatum(r.qos_f));
	SET("tres_factors", tres_vector(&cfg, r.tres_f));
	SET("direct", BoolGetDatum(r.direct));
#undef SET
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
