/*
 * slurm_priority.c (glue): slurm_priority_config, SLURM's priority parameters as a composite
 * value; the reading is in src/core/priority/slurm_priority.c.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "priority/slurm_priority.h"

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
