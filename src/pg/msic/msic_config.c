/*
 * msic_config.c (glue): msic_config, is_prime_time, prime_seconds and msic_primetime_limit,
 * and fs_pg_msic_config_from_record, the one reader of a msic_config value. Local times are the
 * session time zone's (PostgreSQL's own timestamp2tm and DetermineTimeZoneOffset; its UTC offset
 * changes from pg_next_dst_boundary and pg_localtime); the file grammar is in
 * src/core/msic/msic_config.c, the calendar in src/core/msic/msic_prime.c.
 */
#include "msic/msic_glue.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "msic/msic_config.h"
#include "msic/msic_share.h"

/* ---- time zone ------------------------------------------------------------------------------ */

/* The local wall-clock time sod_us after midnight of a civil date, in the session time zone. */
static int64_t
local_instant(int64 year, int64 mon, int64 mday, int64 sod_us)
{
	struct pg_tm tm;
	int tz;
	Timestamp t;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = (int) year;
	tm.tm_mon = (int) mon;
	tm.tm_mday = (int) mday;
	tm.tm_hour = (int) (sod_us / USECS_PER_HOUR);
	tm.tm_min = (int) (sod_us / USECS_PER_MINUTE % 60);
	tm.tm_sec = (int) (sod_us / USECS_PER_SEC % 60);
	tm.tm_isdst = -1;
	tz = DetermineTimeZoneOffset(&tm, session_timezone);
	if (tm2timestamp(&tm, (fsec_t) (sod_us % USECS_PER_SEC), &tz, &t) != 0 ||
	    !IS_VALID_TIMESTAMP(t))
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
	return t;
}

/* The local civil date and time of day of an instant. */
static void
local_time(TimestampTz t, struct pg_tm *tm, int64 *sod_us)
{
	int tz;
	fsec_t fsec;

	if (timestamp2tm(t, &tz, tm, &fsec, NULL, NULL) != 0)
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
	*sod_us = ((int64) tm->tm_hour * 3600 + tm->tm_min * 60 + tm->tm_sec) * USECS_PER_SEC + fsec;
}

static void
clock_to_local(void *ctx, int64_t t, int64_t *year, int64_t *mon, int64_t *mday)
{
	struct pg_tm tm;
	int64 sod;

	(void) ctx;
	local_time((TimestampTz) t, &tm, &sod);
	*year = tm.tm_year;
	*mon = tm.tm_mon;
	*mday = tm.tm_mday;
}

static int64_t
clock_from_local(void *ctx, int64_t year, int64_t mon, int64_t mday, int64_t sod_us)
{
	(void) ctx;
	return local_instant(year, mon, mday, sod_us);
}

/* Seconds of the Unix epoch before PostgreSQL's, which pg_time_t counts from. */
#define UNIX_TO_PG_SECS ((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)

/* The UTC offset (seconds) in force at a pg_time_t, as timestamp2tm applies it. */
static long
gmtoff_at(pg_time_t s)
{
	struct pg_tm *tm = pg_localtime(&s, session_timezone);

	if (tm == NULL)
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
	return tm->tm_gmtoff;
}

/*
 * The session time zone's UTC offset at t and its next change (pg_next_dst_boundary finds the
 * zone's transitions; the offsets themselves are pg_localtime's, the ones is_prime_time sees).
 * Transitions that change only the abbreviation or the DST flag are passed over.
 */
static int64_t
clock_offset_at(void *ctx, int64_t t, int64_t limit, int64_t *next)
{
	pg_time_t s = (pg_time_t) (t / USECS_PER_SEC - (t % USECS_PER_SEC < 0)) + UNIX_TO_PG_SECS;
	pg_time_t last = (pg_time_t) (limit / USECS_PER_SEC) + UNIX_TO_PG_SECS;
	long off = gmtoff_at(s);

	(void) ctx;
	*next = limit;
	for (;;)
	{
		long before_off, after_off;
		int before_dst, after_dst, r;
		pg_time_t boundary;

		CHECK_FOR_INTERRUPTS();
		r = pg_next_dst_boundary(&s, &before_off, &before_dst, &boundary, &after_off, &after_dst,
		                         session_timezone);
		if (r < 0)
			ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			                errmsg("timestamp out of range")));
		if (r == 0 || boundary > last)
			break;
		if (gmtoff_at(boundary) != off)
		{
			*next = (int64) (boundary - UNIX_TO_PG_SECS) * USECS_PER_SEC;
			break;
		}
		s = boundary;
	}
	return (int64_t) off * USECS_PER_SEC;
}

const fs_msic_clock fs_pg_msic_clock = {clock_to_local, clock_from_local, NULL, clock_offset_at,
                                        POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE};

/*
 * The session time zone over [from, to) as the core takes it: the offset at `from` and its
 * changes up to `to`.
 */
static void
session_zone(TimestampTz from, TimestampTz to, fs_msic_zone *zone)
{
	fs_msic_offset_change *ch = NULL;
	size_t n = 0, cap = 0;
	int64_t next;

	zone->epoch_day = POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE;
	zone->offset0 = clock_offset_at(NULL, from, to, &next);
	while (next < to)
	{
		int64_t at = next;

		if (n == cap)
		{
			cap = cap ? cap * 2 : 8;
			ch = ch ? repalloc(ch, sizeof(*ch) * cap) : palloc(sizeof(*ch) * cap);
		}
		ch[n].at = at;
		ch[n].offset_us = clock_offset_at(NULL, at, to, &next);
		n++;
	}
	zone->changes = ch;
	zone->n = n;
}

/* A time as ctime(3) prints it in the session time zone: "Tue Dec  1 09:30:00 2026". */
void
fs_pg_msic_ctime(TimestampTz t, char *buf, size_t cap)
{
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	struct pg_tm tm;
	int64 sod, days;

	local_time(t, &tm, &sod);
	days = fs_days_from_civil(tm.tm_year, tm.tm_mon, tm.tm_mday);
	snprintf(buf, cap, "%s %s %2d %02d:%02d:%02d %d",
	         fs_msic_weekday_name((int) (((days + 4) % 7 + 7) % 7)), months[tm.tm_mon - 1],
	         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year);
}

/* ---- arguments ------------------------------------------------------------------------------ */

/* A time of day in microseconds: 00:00:00 up to, not including, 24:00:00. */
static int64
time_of_day_us(int64 us, const char *what)
{
	if (us < 0 || us >= USECS_PER_DAY)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must be a time of day", what),
		         errdetail("It must be from 00:00:00 up to, not including, 24:00:00.")));
	return us;
}

static int64
time_of_day(const Interval *iv, const char *what)
{
	return time_of_day_us(fs_pg_interval_us(iv, what), what);
}

/* A holidays array: days of the year 1..366 (1 January is 1). */
static int *
holidays_arg(ArrayType *arr, int *n)
{
	Datum *elems;
	bool *nulls;
	int cnt, i;
	int *days;

	fs_pg_check_1d(arr, "holidays");
	deconstruct_array(arr, INT4OID, 4, true, TYPALIGN_INT, &elems, &nulls, &cnt);
	days = palloc(sizeof(int) * (cnt + 1));
	for (i = 0; i < cnt; i++)
	{
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("holidays must not contain NULL")));
		days[i] = DatumGetInt32(elems[i]);
		if (days[i] < 1 || days[i] > 366)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("holiday %d is not a day of the year", days[i]),
			                errdetail("Holidays are days of the year from 1 (1 January) to 366.")));
	}
	*n = cnt;
	return days;
}

/* ---- msic_config ---------------------------------------------------------------------------- */

#define CONFIG_TYPE "fairsched.msic_config"

#define SET(name, datum)                                                                           \
	do                                                                                             \
	{                                                                                              \
		int a_ = fs_pg_field_number(desc, name, CONFIG_TYPE);                                      \
		values[a_] = (datum);                                                                      \
		nulls[a_] = false;                                                                         \
	} while (0)
#define SET_STR(name, s)                                                                           \
	do                                                                                             \
	{                                                                                              \
		const char *s_ = (s);                                                                      \
		if (s_ != NULL)                                                                            \
			SET(name, CStringGetTextDatum(s_));                                                    \
	} while (0)

static Datum
seconds_interval(int64 secs)
{
	Interval *iv = palloc0(sizeof(Interval));

	iv->time = secs * USECS_PER_SEC;
	return IntervalPGetDatum(iv);
}

static Datum
queue_array(const fs_msic_config *cfg, const fs_msic_qent *q, size_t n, bool hosts)
{
	Datum *d = palloc(sizeof(Datum) * (n + 1));
	bool *nu = palloc(sizeof(bool) * (n + 1));
	int dims[1] = {(int) n}, lbs[1] = {1};
	size_t i;

	for (i = 0; i < n; i++)
	{
		const char *s = fs_msic_str(cfg, hosts ? q[i].host : q[i].name);

		nu[i] = s == NULL;
		d[i] = s ? CStringGetTextDatum(s) : (Datum) 0;
	}
	if (n == 0)
		return PointerGetDatum(construct_empty_array(TEXTOID));
	return PointerGetDatum(
	    construct_md_array(d, nu, 1, dims, lbs, TEXTOID, -1, false, TYPALIGN_INT));
}

/* The FAIR_SHARE entries as a msic_share_spec[] of the given array type. */
static Datum
fair_share_array(const fs_msic_config *cfg, Oid array_type)
{
	Oid elem = get_element_type(array_type);
	TupleDesc td;
	Datum *d = palloc(sizeof(Datum) * (cfg->n_fair + 1));
	int16 typlen;
	bool typbyval;
	char typalign;
	size_t i;

	if (!OidIsValid(elem))
		elog(ERROR, "fair_share is not an array");
	if (cfg->n_fair == 0)
		return PointerGetDatum(construct_empty_array(elem));
	td = lookup_rowtype_tupdesc_copy(elem, -1);
	td = BlessTupleDesc(td);
	for (i = 0; i < cfg->n_fair; i++)
	{
		Datum v[3];
		bool nu[3] = {false, false, false};

		v[0] = CStringGetTextDatum(fs_msic_str(cfg, cfg->fair[i].queue));
		v[1] = Int32GetDatum(cfg->fair[i].shares);
		v[2] = Int32GetDatum(cfg->fair[i].max_run_pct);
		d[i] = HeapTupleGetDatum(heap_form_tuple(td, v, nu));
	}
	get_typlenbyvalalign(elem, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_array(d, (int) cfg->n_fair, elem, typlen, typbyval, typalign));
}

static Datum
holidays_array(const int *days, size_t n)
{
	Datum *d = palloc(sizeof(Datum) * (n + 1));
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = Int32GetDatum(days[i]);
	if (n == 0)
		return PointerGetDatum(construct_empty_array(INT4OID));
	return PointerGetDatum(construct_array(d, (int) n, INT4OID, 4, true, TYPALIGN_INT));
}

/* The date form of ENFORCE_PRIME_TIME, as a local time of the session time zone. */
static TimestampTz
prime_from(const fs_msic_date *d)
{
	return local_instant(d->year, d->mon, d->mday,
	                     ((int64) d->hour * 3600 + d->min * 60 + d->sec) * USECS_PER_SEC);
}

PG_FUNCTION_INFO_V1(msic_config);
Datum
msic_config(PG_FUNCTION_ARGS)
{
	TupleDesc desc;
	Datum *values;
	bool *nulls;
	text *conf;
	char *local_host = NULL;
	fs_msic_config cfg;
	fs_error err;
	int *days = NULL;
	size_t ndays = 0;
	Oid fair_type;
	int i;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "msic_config must return a composite type");
	desc = BlessTupleDesc(desc);
	conf = PG_GETARG_TEXT_PP(0);
	if (!PG_ARGISNULL(2))
		local_host = text_to_cstring(PG_GETARG_TEXT_PP(2));
	fs_pg_check(fs_msic_config_parse(VARDATA_ANY(conf), VARSIZE_ANY_EXHDR(conf), local_host, &cfg,
	                                 &fs_pg_alloc, &err),
	            &err);
	if (!PG_ARGISNULL(1))
	{
		text *h = PG_GETARG_TEXT_PP(1);

		fs_pg_check(fs_msic_holidays_parse(VARDATA_ANY(h), VARSIZE_ANY_EXHDR(h), &days, &ndays,
		                                   &fs_pg_alloc, &err),
		            &err);
	}

	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);
	for (i = 0; i < desc->natts; i++)
		nulls[i] = true;
	SET_STR("submit_queue", fs_msic_str(&cfg, cfg.submit[0].name));
	SET_STR("submit_host", fs_msic_str(&cfg, cfg.submit[0].host));
	SET("batch_queues", queue_array(&cfg, cfg.batch, cfg.n_batch, false));
	SET("batch_hosts", queue_array(&cfg, cfg.batch, cfg.n_batch, true));
	if (cfg.strs.data[cfg.express_queue] != '\0')
		SET_STR("express_queue", fs_msic_str(&cfg, cfg.express_queue));
	SET("enforce_prime_time", BoolGetDatum(cfg.enforce_prime_time));
	if (cfg.has_prime_from)
		SET("prime_time_from", TimestampTzGetDatum(prime_from(&cfg.prime_from)));
	SET("prime_time_start", seconds_interval(cfg.prime_start));
	SET("prime_time_end", seconds_interval(cfg.prime_end));
	SET("prime_time_wallt_limit", seconds_interval(cfg.wallt_limit));
	SET("target_load_pct", Float8GetDatum(cfg.target_load_pct));
	SET("target_load_minus", Float8GetDatum(cfg.target_load_minus));
	SET("target_load_plus", Float8GetDatum(cfg.target_load_plus));
	SET("suspend_threshold", Float8GetDatum(cfg.suspend_threshold));
	SET("force_requeue", BoolGetDatum(cfg.force_requeue));
	SET("max_wait_time", seconds_interval(cfg.max_wait_time));
	SET("update_comments", BoolGetDatum(cfg.update_comments));
	SET_STR("sched_restart_action", cfg.sched_restart_action);
	fair_type = TupleDescAttr(desc, fs_pg_field_number(desc, "fair_share", CONFIG_TYPE))->atttypid;
	SET("fair_share", fair_share_array(&cfg, fair_type));
	SET("holidays", holidays_array(days, ndays));
	SET("max_user_run_jobs", Int32GetDatum(cfg.max_user_run_jobs));
	SET_STR("sched_host", fs_msic_str(&cfg, cfg.sched_host));
	SET_STR("share_info_file", fs_msic_str(&cfg, cfg.share_info_file));
	SET_STR("sorted_job_dumpfile", fs_msic_str(&cfg, cfg.sorted_job_dumpfile));
	return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

/* ---- a msic_config value --------------------------------------------------------------------- */

/* The fields of fairsched.msic_config, found by name (fields appended to the type do not matter).
 */
enum
{
	C_SUBMIT_QUEUE,
	C_SUBMIT_HOST,
	C_BATCH_QUEUES,
	C_BATCH_HOSTS,
	C_EXPRESS_QUEUE,
	C_ENFORCE_PRIME_TIME,
	C_PRIME_TIME_FROM,
	C_PRIME_TIME_START,
	C_PRIME_TIME_END,
	C_PRIME_TIME_WALLT_LIMIT,
	C_TARGET_LOAD_PCT,
	C_TARGET_LOAD_MINUS,
	C_TARGET_LOAD_PLUS,
	C_SUSPEND_THRESHOLD,
	C_FORCE_REQUEUE,
	C_MAX_WAIT_TIME,
	C_UPDATE_COMMENTS,
	C_SCHED_RESTART_ACTION,
	C_FAIR_SHARE,
	C_HOLIDAYS,
	C_MAX_USER_RUN_JOBS,
	C_SCHED_HOST,
	C_SHARE_INFO_FILE,
	C_SORTED_JOB_DUMPFILE,
	C_FIELDS
};

static const char *const config_fields[C_FIELDS] = {"submit_queue",      "submit_host",
                                                    "batch_queues",      "batch_hosts",
                                                    "express_queue",     "enforce_prime_time",
                                                    "prime_time_from",   "prime_time_start",
                                                    "prime_time_end",    "prime_time_wallt_limit",
                                                    "target_load_pct",   "target_load_minus",
                                                    "target_load_plus",  "suspend_threshold",
                                                    "force_requeue",     "max_wait_time",
                                                    "update_comments",   "sched_restart_action",
                                                    "fair_share",        "holidays",
                                                    "max_user_run_jobs", "sched_host",
                                                    "share_info_file",   "sorted_job_dumpfile"};

/* The fields of a msic_config record, each once, in the order of config_fields. */
static void
deform_config(HeapTupleHeader rec, Datum *values, bool *nulls)
{
	TupleDesc td =
	    lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(rec), HeapTupleHeaderGetTypMod(rec));
	Datum *all = palloc(sizeof(Datum) * (td->natts + 1));
	bool *allnull = palloc(sizeof(bool) * (td->natts + 1));
	HeapTupleData tuple;
	int k;

	tuple.t_len = HeapTupleHeaderGetDatumLength(rec);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = rec;
	heap_deform_tuple(&tuple, td, all, allnull);
	for (k = 0; k < C_FIELDS; k++)
	{
		int a = fs_pg_field_number(td, config_fields[k], CONFIG_TYPE);

		values[k] = all[a];
		nulls[k] = allnull[a];
	}
	ReleaseTupleDesc(td);
}

/* A text field into the pool of cfg, or FS_MSIC_NONE when NULL. */
static size_t
text_str(fs_msic_config *cfg, Datum d, bool isnull)
{
	text *t;

	if (isnull)
		return FS_MSIC_NONE;
	t = DatumGetTextPP(d);
	return fs_msic_config_add_str(cfg, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

/*
 * An interval field: its microseconds, and in *secs the whole seconds (rounded down) a file would
 * hold. NULL keeps *secs, the default.
 */
static int64
interval_field(Datum d, bool isnull, const char *name, int64_t *secs)
{
	int64 us;

	if (isnull)
		return *secs * USECS_PER_SEC;
	us = fs_pg_interval_us(DatumGetIntervalP(d), name);
	*secs = us >= 0 ? us / USECS_PER_SEC : -((-(us + 1)) / USECS_PER_SEC) - 1;
	return us;
}

/* A text[] field: its elements, *n of them (0 when NULL). */
static Datum *
text_array(Datum d, bool isnull, const char *name, bool **nulls, int *n)
{
	Datum *elems;

	*n = 0;
	*nulls = NULL;
	if (isnull)
		return NULL;
	fs_pg_check_1d(DatumGetArrayTypeP(d), name);
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT, &elems, nulls, n);
	return elems;
}

/* BATCH_QUEUES from batch_queues, each with its batch_hosts element (NULL: none). */
static void
read_batch(fs_pg_msic_config *out, const Datum *v, const bool *nul)
{
	fs_msic_config *cfg = &out->cfg;
	bool *qnulls, *hnulls;
	int nq, nh, i;
	Datum *queues =
	    text_array(v[C_BATCH_QUEUES], nul[C_BATCH_QUEUES], "batch_queues", &qnulls, &nq);
	Datum *hosts = text_array(v[C_BATCH_HOSTS], nul[C_BATCH_HOSTS], "batch_hosts", &hnulls, &nh);

	out->nbatch_hosts = nh;
	for (i = 0; i < nq; i++)
	{
		size_t name;

		CHECK_FOR_INTERRUPTS();
		if (qnulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("batch_queues[%d] of the configuration is NULL", i + 1)));
		name = text_str(cfg, queues[i], false);
		fs_msic_config_add_queue(cfg, false, name,
		                         i < nh ? text_str(cfg, hosts[i], hnulls[i]) : FS_MSIC_NONE,
		                         &fs_pg_alloc);
	}
}

/*
 * FAIR_SHARE from fair_share. An entry with a NULL field is not one a file can hold: its place
 * is noted (fair_null_field, fair_no_queue) for the functions that use the entries to refuse.
 */
static void
read_fair_share(fs_pg_msic_config *out, Datum d, bool isnull)
{
	static const char *const names[] = {"queue", "shares", "max_run_pct"};
	fs_msic_config *cfg = &out->cfg;
	int n, i, f[3];
	fs_pg_row_reader r;
	Datum *elems;

	if (isnull)
		return;
	elems = fs_pg_rows_open(&r, DatumGetArrayTypeP(d), "fair_share", "msic_share_spec", names, 3, f,
	                        &n);
	out->fair_no_queue = palloc(sizeof(int) * (n + 1));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&r, elems[i]);
		if (r.nulls[f[1]] || r.nulls[f[2]])
		{
			if (out->fair_null_field == 0)
				out->fair_null_field = i + 1;
		}
		else if (r.nulls[f[0]])
			out->fair_no_queue[out->nfair_no_queue++] = i + 1;
		else
			fs_msic_config_add_fair(cfg, text_str(cfg, r.values[f[0]], false),
			                        DatumGetInt32(r.values[f[1]]), DatumGetInt32(r.values[f[2]]), 0,
			                        &fs_pg_alloc);
	}
	fs_pg_reader_close(&r);
}

/*
 * The one reader of a msic_config value (a ROW, jsonb_populate_record, msic_config's result):
 * every field into out (the core's fs_msic_config and what a file does not hold), NULL fields
 * the original's defaults (fs_msic_config_init), then the rules the text parser applies
 * (fs_msic_config_validate): what the file would refuse is refused here, with the parser's
 * message and the field as context. The result lives in the current memory context. Linear in
 * the entries.
 */
void
fs_pg_msic_config_from_record(HeapTupleHeader rec, fs_pg_msic_config *out)
{
	fs_msic_config *cfg = &out->cfg;
	Datum v[C_FIELDS];
	bool nul[C_FIELDS];
	fs_error err;

	deform_config(rec, v, nul);
	memset(out, 0, sizeof(*out));
	fs_msic_config_init(cfg, &fs_pg_alloc);
	if (!nul[C_SUBMIT_QUEUE])
	{
		size_t name = text_str(cfg, v[C_SUBMIT_QUEUE], false);

		fs_msic_config_add_queue(cfg, true, name,
		                         text_str(cfg, v[C_SUBMIT_HOST], nul[C_SUBMIT_HOST]), &fs_pg_alloc);
	}
	read_batch(out, v, nul);
	if (!nul[C_EXPRESS_QUEUE])
		cfg->express_queue = text_str(cfg, v[C_EXPRESS_QUEUE], false);
	cfg->enforce_prime_time = !nul[C_ENFORCE_PRIME_TIME] && DatumGetBool(v[C_ENFORCE_PRIME_TIME]);
	out->has_prime_from = !nul[C_PRIME_TIME_FROM];
	if (out->has_prime_from)
		out->prime_from = DatumGetTimestampTz(v[C_PRIME_TIME_FROM]);
	out->prime_start_us = interval_field(v[C_PRIME_TIME_START], nul[C_PRIME_TIME_START],
	                                     "prime_time_start", &cfg->prime_start);
	out->prime_end_us = interval_field(v[C_PRIME_TIME_END], nul[C_PRIME_TIME_END], "prime_time_end",
	                                   &cfg->prime_end);
	out->wallt_limit_us = interval_field(v[C_PRIME_TIME_WALLT_LIMIT], nul[C_PRIME_TIME_WALLT_LIMIT],
	                                     "prime_time_wallt_limit", &cfg->wallt_limit);
	out->max_wait_us = interval_field(v[C_MAX_WAIT_TIME], nul[C_MAX_WAIT_TIME], "max_wait_time",
	                                  &cfg->max_wait_time);
	if (!nul[C_TARGET_LOAD_PCT])
		cfg->target_load_pct = DatumGetFloat8(v[C_TARGET_LOAD_PCT]);
	if (!nul[C_TARGET_LOAD_MINUS])
		cfg->target_load_minus = DatumGetFloat8(v[C_TARGET_LOAD_MINUS]);
	if (!nul[C_TARGET_LOAD_PLUS])
		cfg->target_load_plus = DatumGetFloat8(v[C_TARGET_LOAD_PLUS]);
	if (!nul[C_SUSPEND_THRESHOLD])
		cfg->suspend_threshold = DatumGetFloat8(v[C_SUSPEND_THRESHOLD]);
	if (!nul[C_FORCE_REQUEUE])
		cfg->force_requeue = DatumGetBool(v[C_FORCE_REQUEUE]);
	if (!nul[C_UPDATE_COMMENTS])
		cfg->update_comments = DatumGetBool(v[C_UPDATE_COMMENTS]);
	if (!nul[C_MAX_USER_RUN_JOBS])
		cfg->max_user_run_jobs = DatumGetInt32(v[C_MAX_USER_RUN_JOBS]);
	if (!nul[C_SCHED_RESTART_ACTION])
		cfg->sched_restart_action = TextDatumGetCString(v[C_SCHED_RESTART_ACTION]);
	cfg->sched_host = text_str(cfg, v[C_SCHED_HOST], nul[C_SCHED_HOST]);
	cfg->share_info_file = text_str(cfg, v[C_SHARE_INFO_FILE], nul[C_SHARE_INFO_FILE]);
	cfg->sorted_job_dumpfile = text_str(cfg, v[C_SORTED_JOB_DUMPFILE], nul[C_SORTED_JOB_DUMPFILE]);
	read_fair_share(out, v[C_FAIR_SHARE], nul[C_FAIR_SHARE]);
	out->holidays = nul[C_HOLIDAYS] ? NULL : DatumGetArrayTypeP(v[C_HOLIDAYS]);
	fs_pg_check(fs_msic_config_validate(cfg, &fs_pg_alloc, &err), &err);
}

/* ---- prime time ----------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(is_prime_time);
Datum
is_prime_time(PG_FUNCTION_ARGS)
{
	TimestampTz at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(0), "at");
	int64 start = time_of_day(PG_GETARG_INTERVAL_P(1), "start");
	int64 end = time_of_day(PG_GETARG_INTERVAL_P(2), "end");
	int n;
	int *days = holidays_arg(PG_GETARG_ARRAYTYPE_P(3), &n);
	struct pg_tm tm;
	int64 sod;

	local_time(at, &tm, &sod);
	PG_RETURN_BOOL(
	    fs_msic_is_prime(tm.tm_year, tm.tm_mon, tm.tm_mday, sod, start, end, days, (size_t) n));
}

/* Microseconds of prime time in a run of `walltime` from `from`. */
static int64
prime_us(TimestampTz from, const Interval *walltime, int64 start, int64 end, const int *days, int n)
{
	int64 dur = fs_pg_interval_us(walltime, "walltime");
	int64 prime;
	fs_msic_zone zone = {POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE, 0, NULL, 0};
	fs_error err;

	if (dur >= 0 && dur <= FS_MSIC_MAX_WALK_DAYS * USECS_PER_DAY)
	{
		if (!IS_VALID_TIMESTAMP(from + dur))
			ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			                errmsg("the run ends after the last timestamp")));
		session_zone(from, from + dur, &zone);
	}
	fs_pg_check(fs_msic_prime_zone(&zone, from, dur, start, end, days, (size_t) n, &prime, &err),
	            &err);
	return prime;
}

PG_FUNCTION_INFO_V1(prime_seconds);
Datum
prime_seconds(PG_FUNCTION_ARGS)
{
	TimestampTz from = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(0), "from");
	int64 start = time_of_day(PG_GETARG_INTERVAL_P(2), "start");
	int64 end = time_of_day(PG_GETARG_INTERVAL_P(3), "end");
	int n;
	int *days = holidays_arg(PG_GETARG_ARRAYTYPE_P(4), &n);

	PG_RETURN_FLOAT8((double) prime_us(from, PG_GETARG_INTERVAL_P(1), start, end, days, n) /
	                 USECS_PER_SEC);
}

/*
 * The prime-time settings of a configuration; none when prime time is not enforced. Validated,
 * an enforced prime time has its start, end and limit; they must be times of day here.
 */
void
fs_pg_msic_prime_settings(const fs_pg_msic_config *c, fs_pg_msic_prime *p)
{
	memset(p, 0, sizeof(*p));
	p->limit = -1;
	p->enforce = c->cfg.enforce_prime_time;
	if (!p->enforce)
		return;
	p->has_from = c->has_prime_from;
	p->from = c->prime_from;
	p->start = time_of_day_us(c->prime_start_us, "prime_time_start");
	p->end = time_of_day_us(c->prime_end_us, "prime_time_end");
	p->limit = c->wallt_limit_us;
	if (c->holidays != NULL)
		p->holidays = holidays_arg(c->holidays, &p->nholidays);
}

/*
 * PRIME_TIME_WALLT_LIMIT (time_limits.c:schd_primetime_limits): the original's comment when the
 * part of a run from `at` that falls in prime time is longer than the limit, else NULL. NULL too
 * when prime time is not enforced, or not yet (the date form of ENFORCE_PRIME_TIME).
 */
PG_FUNCTION_INFO_V1(msic_primetime_limit);
Datum
msic_primetime_limit(PG_FUNCTION_ARGS)
{
	TimestampTz at = fs_pg_timestamp(PG_GETARG_TIMESTAMPTZ(1), "at");
	fs_pg_msic_config c;
	fs_pg_msic_prime p;
	int64 prime;
	char hms[32];

	fs_pg_msic_config_from_record(PG_GETARG_HEAPTUPLEHEADER(0), &c);
	fs_pg_msic_prime_settings(&c, &p);
	if (!p.enforce || (p.has_from && at < p.from))
		PG_RETURN_NULL();
	prime = prime_us(at, PG_GETARG_INTERVAL_P(2), p.start, p.end, p.holidays, p.nholidays);
	if (prime <= p.limit)
		PG_RETURN_NULL();
	fs_msic_format_hms(p.limit / USECS_PER_SEC, hms);
	PG_RETURN_TEXT_P(cstring_to_text(psprintf("Exceeds primetime walltime limit (%s)", hms)));
}
