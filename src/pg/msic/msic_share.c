/*
 * msic_share.c (glue): msic_shares, msic_share_info, msic_charge, msic_rollover, msic_rank,
 * msic_over_share, msic_past_pct, the msic_queue_acc state type and the msic_queue_state
 * aggregate. Timestamps become local dates and times in the session time zone here; the rules
 * are in src/core/msic/msic_share.c.
 */
#include "fs_pg.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "msic/msic_share.h"

/* ---------------------------------------------------------------- local time */

static void
local_tm(TimestampTz t, const char *what, struct pg_tm *tm, fsec_t *fsec)
{
	int tz;

	fs_pg_timestamp(t, what);
	if (timestamp2tm(t, &tz, tm, fsec, NULL, NULL) != 0)
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("%s is out of range", what)));
}

static int
local_weekday(TimestampTz t, const char *what)
{
	struct pg_tm tm;
	fsec_t fsec;

	local_tm(t, what, &tm, &fsec);
	return j2day(date2j(tm.tm_year, tm.tm_mon, tm.tm_mday));
}

/*
 * Minutes elapsed since local midnight (floor), as real time: on a DST day 03:30 after a
 * spring-forward at 02:00 is 150 minutes, not 210.
 */
static int64
local_minutes(TimestampTz t, const char *what)
{
	struct pg_tm tm;
	fsec_t fsec;
	int tz;
	TimestampTz midnight;

	local_tm(t, what, &tm, &fsec);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tz = DetermineTimeZoneOffset(&tm, session_timezone);
	if (tm2timestamp(&tm, 0, &tz, &midnight) != 0 || midnight > t)
		return 0;
	return (t - midnight) / USECS_PER_MINUTE;
}

/*
 * The local day a start belongs to: its date, or the next date when it is after that date's
 * 23:00 rollover. Day numbers count from 2000-01-01.
 */
static int32
local_share_day(TimestampTz t, const char *what)
{
	struct pg_tm tm;
	fsec_t fsec;
	int32 day;

	local_tm(t, what, &tm, &fsec);
	day = date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) - POSTGRES_EPOCH_JDATE;
	if (tm.tm_hour == 23 && (tm.tm_min > 0 || tm.tm_sec > 0 || fsec > 0))
		day++;
	return day;
}

/* ---------------------------------------------------------------- msic_share values */

static void
share_field_null(const char *field)
{
	ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
	                errmsg("msic_share field \"%s\" must not be NULL", field),
	                errhint("A fresh queue is (queue, 0, 0, 0, 0).")));
}

/* Read a fairsched.msic_share; *queue gets the name (palloc'd). */
static void
share_read(HeapTupleHeader h, char **queue, fs_msic_share *s)
{
	bool isnull;
	Datum d;
	fs_error err;

	d = GetAttributeByName(h, "queue", &isnull);
	if (isnull)
		share_field_null("queue");
	*queue = TextDatumGetCString(d);
	d = GetAttributeByName(h, "ndays", &isnull);
	if (isnull)
		share_field_null("ndays");
	s->ndays = DatumGetInt32(d);
	d = GetAttributeByName(h, "past_pct", &isnull);
	if (isnull)
		share_field_null("past_pct");
	s->past_pct = DatumGetFloat8(d) + 0.0; /* -0 becomes 0 */
	d = GetAttributeByName(h, "today_usage", &isnull);
	if (isnull)
		share_field_null("today_usage");
	s->today_usage = DatumGetFloat8(d) + 0.0; /* -0 becomes 0 */
	d = GetAttributeByName(h, "today_max", &isnull);
	if (isnull)
		share_field_null("today_max");
	s->today_max = DatumGetFloat8(d) + 0.0; /* -0 becomes 0 */
	fs_pg_check(fs_msic_share_check(s, "the msic_share", &err), &err);
}

static void
share_values(const char *queue, const fs_msic_share *s, Datum *values, bool *nulls)
{
	memset(nulls, 0, 5 * sizeof(bool));
	values[0] = CStringGetTextDatum(queue);
	values[1] = Int32GetDatum(s->ndays);
	values[2] = Float8GetDatum(s->past_pct);
	values[3] = Float8GetDatum(s->today_usage);
	values[4] = Float8GetDatum(s->today_max);
}

static Datum
share_result(FunctionCallInfo fcinfo, const char *queue, const fs_msic_share *s)
{
	TupleDesc desc;
	Datum values[5];
	bool nulls[5];

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "msic_share result type is not composite");
	desc = BlessTupleDesc(desc);
	share_values(queue, s, values, nulls);
	return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

/* msic_shares(share_info text, at timestamptz DEFAULT NULL) */
PG_FUNCTION_INFO_V1(msic_shares);
Datum
msic_shares(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text *t;
	fs_msic_share_file f;
	fs_error err;
	bool roll;
	size_t i;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	t = PG_GETARG_TEXT_PP(0);
	fs_pg_check(
	    fs_msic_share_file_parse(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &fs_pg_alloc, &f, &err),
	    &err);
	/* a file stamped with another weekday is rolled over once, as the original does on load */
	roll = !PG_ARGISNULL(1) && local_weekday(PG_GETARG_TIMESTAMPTZ(1), "at") != f.weekday;
	for (i = 0; i < f.n; i++)
	{
		Datum values[5];
		bool nulls[5];

		CHECK_FOR_INTERRUPTS();
		if (roll)
			fs_pg_check(fs_msic_rollover(&f.entries[i].s, &err), &err);
		share_values(f.entries[i].queue, &f.entries[i].s, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	fs_msic_share_file_free(&f, &fs_pg_alloc);
	PG_RETURN_NULL();
}

/* msic_share_info(shares msic_share[], at timestamptz) */
PG_FUNCTION_INFO_V1(msic_share_info);
Datum
msic_share_info(PG_FUNCTION_ARGS)
{
	ArrayType *arr = PG_GETARG_ARRAYTYPE_P(0);
	int weekday = local_weekday(PG_GETARG_TIMESTAMPTZ(1), "at");
	int16 typlen;
	bool typbyval;
	char typalign;
	Datum *elems;
	bool *nulls;
	int n, i;
	fs_msic_share_entry *e;
	fs_sb sb;
	fs_error err;

	fs_pg_check_1d(arr, "shares");
	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign, &elems, &nulls, &n);
	e = palloc0(sizeof(fs_msic_share_entry) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("shares must not hold NULL (element %d)", i + 1)));
		share_read(DatumGetHeapTupleHeader(elems[i]), &e[i].queue, &e[i].s);
	}
	fs_sb_init(&sb, &fs_pg_alloc, 128 + 64 * (size_t) n);
	fs_pg_check(fs_msic_share_file_format(&sb, weekday, e, (size_t) n, &err), &err);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(sb.data, (int) sb.len));
}

/* msic_charge(s, ncpus, walltime, at, cluster_cpus) */
PG_FUNCTION_INFO_V1(msic_charge);
Datum
msic_charge(PG_FUNCTION_ARGS)
{
	char *queue;
	fs_msic_share s;
	fs_error err;
	int64 wall = fs_pg_interval_us(PG_GETARG_INTERVAL_P(2), "walltime");
	int64 minutes = local_minutes(PG_GETARG_TIMESTAMPTZ(3), "at");

	share_read(PG_GETARG_HEAPTUPLEHEADER(0), &queue, &s);
	fs_pg_check(fs_msic_charge(&s, PG_GETARG_INT32(1), wall, minutes, PG_GETARG_INT32(4), &err),
	            &err);
	return share_result(fcinfo, queue, &s);
}

PG_FUNCTION_INFO_V1(msic_rollover);
Datum
msic_rollover(PG_FUNCTION_ARGS)
{
	char *queue;
	fs_msic_share s;
	fs_error err;

	share_read(PG_GETARG_HEAPTUPLEHEADER(0), &queue, &s);
	fs_pg_check(fs_msic_rollover(&s, &err), &err);
	return share_result(fcinfo, queue, &s);
}

PG_FUNCTION_INFO_V1(msic_past_pct);
Datum
msic_past_pct(PG_FUNCTION_ARGS)
{
	char *queue;
	fs_msic_share s;
	fs_error err;
	double past;

	share_read(PG_GETARG_HEAPTUPLEHEADER(0), &queue, &s);
	fs_pg_check(fs_msic_past_pct_checked(&s, &past, &err), &err);
	PG_RETURN_FLOAT8(past);
}

static double
rank_common(FunctionCallInfo fcinfo, fs_msic_rank_mode *mode)
{
	char *queue;
	fs_msic_share s;
	fs_error err;
	double rank;

	*mode = (fs_msic_rank_mode) fs_pg_name_arg(PG_GETARG_TEXT_PP(2), fs_msic_rank_mode_from_name,
	                                           "rank mode", "modes", FS_MSIC_RANK_MODES);
	share_read(PG_GETARG_HEAPTUPLEHEADER(0), &queue, &s);
	fs_pg_check(fs_msic_rank(&s, PG_GETARG_INT32(1), *mode, &rank, &err), &err);
	return rank;
}

PG_FUNCTION_INFO_V1(msic_rank);
Datum
msic_rank(PG_FUNCTION_ARGS)
{
	fs_msic_rank_mode mode;

	PG_RETURN_FLOAT8(rank_common(fcinfo, &mode));
}

PG_FUNCTION_INFO_V1(msic_over_share);
Datum
msic_over_share(PG_FUNCTION_ARGS)
{
	fs_msic_rank_mode mode;
	double rank = rank_common(fcinfo, &mode);

	PG_RETURN_BOOL(fs_msic_over_share(rank, mode));
}

/* ---------------------------------------------------------------- msic_queue_acc */

/*
 * The state in memory: a varlena holding this header, the queue name (padded to 8 bytes), then
 * n fs_msic_day records sorted by day. Every byte is set, so equal states have equal bytes.
 */
typedef struct acc_flat
{
	int32 vl_len_;
	int32 as_of_day;
	int64 as_of;
	uint32 n;
	uint32 queue_len;
} acc_flat;

#define ACC_QUEUE_SPACE(ql) (((size_t) (ql) + 7) & ~(size_t) 7)
#define ACC_QUEUE(f)        ((char *) (f) + sizeof(acc_flat))
#define ACC_DAYS(f)         ((fs_msic_day *) (ACC_QUEUE(f) + ACC_QUEUE_SPACE((f)->queue_len)))
#define ACC_SIZE(ql, n)                                                                            \
	(sizeof(acc_flat) + ACC_QUEUE_SPACE(ql) + (size_t) (n) * sizeof(fs_msic_day))

static acc_flat *
acc_new(MemoryContext cxt, const char *queue, size_t queue_len, int64 as_of, int32 as_of_day,
        size_t n)
{
	acc_flat *f;

	if (queue_len > 10000 || n > (MaxAllocSize - 20000) / sizeof(fs_msic_day))
		ereport(ERROR,
		        (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("msic_queue_state is too large")));
	f = MemoryContextAllocZero(cxt, ACC_SIZE(queue_len, n));
	SET_VARSIZE(f, ACC_SIZE(queue_len, n));
	f->as_of = as_of;
	f->as_of_day = as_of_day;
	f->n = (uint32) n;
	f->queue_len = (uint32) queue_len;
	memcpy(ACC_QUEUE(f), queue, queue_len);
	return f;
}

static void
acc_view(const acc_flat *f, fs_msic_acc *acc)
{
	acc->queue = ACC_QUEUE(f);
	acc->queue_len = f->queue_len;
	acc->as_of = f->as_of;
	acc->as_of_day = f->as_of_day;
	acc->days = ACC_DAYS(f);
	acc->n = f->n;
}

static acc_flat *
acc_arg(FunctionCallInfo fcinfo, int argno)
{
	return (acc_flat *) PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
}

static acc_flat *
acc_from_parsed(const fs_msic_acc *acc)
{
	acc_flat *f = acc_new(CurrentMemoryContext, acc->queue, acc->queue_len, acc->as_of,
	                      acc->as_of_day, acc->n);

	if (acc->n)
		memcpy(ACC_DAYS(f), acc->days, acc->n * sizeof(fs_msic_day));
	return f;
}

PG_FUNCTION_INFO_V1(msic_queue_acc_in);
Datum
msic_queue_acc_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_msic_acc acc;
	fs_error err;

	if (!fs_pg_input_check(fs_msic_acc_parse(s, strlen(s), &fs_pg_alloc, &acc, &err), &err,
	                       fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(acc_from_parsed(&acc));
}

PG_FUNCTION_INFO_V1(msic_queue_acc_out);
Datum
msic_queue_acc_out(PG_FUNCTION_ARGS)
{
	acc_flat *f = acc_arg(fcinfo, 0);
	fs_msic_acc acc;
	fs_sb sb;

	acc_view(f, &acc);
	fs_sb_init(&sb, &fs_pg_alloc, 64 + 80 * (size_t) acc.n);
	fs_msic_acc_format(&sb, &acc);
	PG_RETURN_CSTRING(sb.data);
}

/* Binary form: a version byte (1), then the text form. recv validates exactly as input does. */
#define ACC_BINARY_VERSION 1

PG_FUNCTION_INFO_V1(msic_queue_acc_recv);
Datum
msic_queue_acc_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	int version = pq_getmsgbyte(buf);
	int len = buf->len - buf->cursor;
	const char *s;
	fs_msic_acc acc;
	fs_error err;

	if (version != ACC_BINARY_VERSION)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		         errmsg("unsupported binary format version %d for type msic_queue_acc", version),
		         errdetail("This version of fairsched reads version %d.", ACC_BINARY_VERSION)));
	s = pq_getmsgbytes(buf, len);
	/* the text input only ever sees text of the database encoding: the same here (22021) */
	pg_verifymbstr(s, len, false);
	fs_pg_check(fs_msic_acc_parse(s, (size_t) len, &fs_pg_alloc, &acc, &err), &err);
	PG_RETURN_POINTER(acc_from_parsed(&acc));
}

PG_FUNCTION_INFO_V1(msic_queue_acc_send);
Datum
msic_queue_acc_send(PG_FUNCTION_ARGS)
{
	acc_flat *f = acc_arg(fcinfo, 0);
	fs_msic_acc acc;
	fs_sb sb;
	StringInfoData buf;

	acc_view(f, &acc);
	fs_sb_init(&sb, &fs_pg_alloc, 64 + 80 * (size_t) acc.n);
	fs_msic_acc_format(&sb, &acc);
	pq_begintypsend(&buf);
	pq_sendbyte(&buf, ACC_BINARY_VERSION);
	pq_sendbytes(&buf, sb.data, (int) sb.len);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

static void
acc_same_group(const acc_flat *a, const char *queue, size_t queue_len, int64 as_of)
{
	if (a->queue_len != queue_len || memcmp(ACC_QUEUE(a), queue, queue_len) != 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("msic_queue_state got starts of two queues, \"%.*s\" and \"%.*s\"",
		                       (int) a->queue_len, ACC_QUEUE(a), (int) queue_len, queue),
		                errhint("Group the rows by queue: GROUP BY queue.")));
	if (a->as_of != as_of)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("msic_queue_state got two different as_of instants"),
		                errdetail("as_of must be the same in every row of a group."),
		                errhint("Pass a constant, for example now().")));
}

/*
 * msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, as_of) transition. Rows
 * with a NULL leave the state as it is; starts after as_of are not counted.
 */
PG_FUNCTION_INFO_V1(msic_queue_state_accum);
Datum
msic_queue_state_accum(PG_FUNCTION_ARGS)
{
	acc_flat *f;
	text *qt;
	const char *queue;
	size_t queue_len;
	TimestampTz started, as_of;
	fs_msic_share charge = {0, 0, 0, 0};
	fs_error err;
	int i;
	int32 day;
	bool found;
	size_t pos;

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "msic_queue_state_accum called in non-aggregate context");
	for (i = 1; i <= 6; i++)
		if (PG_ARGISNULL(i))
			return fs_pg_keep_state(fcinfo);
	qt = PG_GETARG_TEXT_PP(1);
	queue = VARDATA_ANY(qt);
	queue_len = VARSIZE_ANY_EXHDR(qt);
	started = PG_GETARG_TIMESTAMPTZ(4);
	as_of = PG_GETARG_TIMESTAMPTZ(6);
	fs_pg_timestamp(as_of, "as_of");
	fs_pg_check(fs_msic_check_queue_name(queue, queue_len, &err), &err);
	/* the charge this start makes, by the same rules as msic_charge */
	fs_pg_check(fs_msic_charge(&charge, PG_GETARG_INT32(2),
	                           fs_pg_interval_us(PG_GETARG_INTERVAL_P(3), "walltime"),
	                           local_minutes(started, "started_at"), PG_GETARG_INT32(5), &err),
	            &err);
	if (PG_ARGISNULL(0))
		f = acc_new(CurrentMemoryContext, queue, queue_len, as_of, local_share_day(as_of, "as_of"),
		            0);
	else
	{
		f = (acc_flat *) PG_GETARG_POINTER(0);
		acc_same_group(f, queue, queue_len, as_of);
	}
	if (started > as_of)
		PG_RETURN_POINTER(f);
	day = local_share_day(started, "started_at");
	pos = fs_msic_day_find(ACC_DAYS(f), f->n, day, &found);
	if (!found)
	{
		acc_flat *g = acc_new(CurrentMemoryContext, ACC_QUEUE(f), f->queue_len, f->as_of,
		                      f->as_of_day, (size_t) f->n + 1);
		fs_msic_day *days = ACC_DAYS(g);

		/*
		 * A new day needs a larger value: built in the per-row context, the executor copies it
		 * into the aggregate's context and frees the old state (a repalloc here would be freed
		 * twice).
		 */
		memcpy(days, ACC_DAYS(f), pos * sizeof(fs_msic_day));
		memcpy(days + pos + 1, ACC_DAYS(f) + pos, (f->n - pos) * sizeof(fs_msic_day));
		g->n = f->n;
		f = g;
		memset(&days[pos], 0, sizeof(fs_msic_day));
		days[pos].day = day;
		days[pos].last_at = PG_INT64_MIN;
		f->n++;
	}
	fs_msic_day_add(&ACC_DAYS(f)[pos], charge.today_usage, started, charge.today_max);
	PG_RETURN_POINTER(f);
}

PG_FUNCTION_INFO_V1(msic_queue_acc_combine);
Datum
msic_queue_acc_combine(PG_FUNCTION_ARGS)
{
	acc_flat *a = acc_arg(fcinfo, 0);
	acc_flat *b = acc_arg(fcinfo, 1);
	acc_flat *f;

	/* a new value: inside an aggregate the executor copies it and frees the old state */
	acc_same_group(a, ACC_QUEUE(b), b->queue_len, b->as_of);
	f = acc_new(CurrentMemoryContext, ACC_QUEUE(a), a->queue_len, a->as_of, a->as_of_day,
	            (size_t) a->n + b->n);
	f->n = (uint32) fs_msic_days_merge(ACC_DAYS(a), a->n, ACC_DAYS(b), b->n, ACC_DAYS(f));
	SET_VARSIZE(f, ACC_SIZE(f->queue_len, f->n));
	PG_RETURN_POINTER(f);
}

PG_FUNCTION_INFO_V1(msic_queue_acc_share);
Datum
msic_queue_acc_share(PG_FUNCTION_ARGS)
{
	acc_flat *f = acc_arg(fcinfo, 0);
	fs_msic_acc acc;
	fs_msic_share s;
	fs_error err;

	acc_view(f, &acc);
	fs_pg_check(fs_msic_acc_final(&acc, &s, &err), &err);
	return share_result(fcinfo, pnstrdup(acc.queue, acc.queue_len), &s);
}

/* msic_queue_history(acc): the state at every day's 23:00 rollover, from the first start on */
typedef struct history_ctx
{
	ReturnSetInfo *rsinfo;
	const char *queue;
} history_ctx;

static void
history_row(int32_t day, const fs_msic_share *s, void *vctx)
{
	history_ctx *c = vctx;
	Datum values[6];
	bool nulls[6];

	/* day numbers count from 2000-01-01, as DateADT does */
	values[0] = DateADTGetDatum((DateADT) day);
	share_values(c->queue, s, values + 1, nulls + 1);
	nulls[0] = false;
	tuplestore_putvalues(c->rsinfo->setResult, c->rsinfo->setDesc, values, nulls);
}

PG_FUNCTION_INFO_V1(msic_queue_history);
Datum
msic_queue_history(PG_FUNCTION_ARGS)
{
	acc_flat *f = acc_arg(fcinfo, 0);
	fs_msic_acc acc;
	fs_msic_share s;
	fs_error err;
	history_ctx c;

	InitMaterializedSRF(fcinfo, 0);
	acc_view(f, &acc);
	c.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	c.queue = pnstrdup(acc.queue, acc.queue_len);
	fs_pg_check(fs_msic_acc_history(&acc, history_row, &c, &s, &err), &err);
	return (Datum) 0;
}
