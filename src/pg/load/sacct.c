/*
 * sacct.c (glue): sacct_row / sacct_row_try onto fairsched.sacct_record, and slurm_duration
 * (sacctmgr_assoc is in sacctmgr.c). Dates written without a zone are converted in the
 * zone given as an argument with PostgreSQL's time zone library, never the session TimeZone.
 */
#include "fs_pg.h"

#include "load/jsonb_build.h"
#include "load/plausible.h"
#include "load/sacct.h"
#include "load/sacct_glue.h"
#include "types/resvec.h"
#include "types/sharepath.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/*
 * The parsed header of the last call, kept across the rows of one query (the header is passed
 * with every row): parsed once, and again only when another header text or delimiter comes. The
 * entry lives in its own context under fn_mcxt, so a new header frees the old one whole; `valid` is
 * set only once a parse has finished, so a parse cut short by an error (a cancel, out of memory)
 * leaves no entry that a later call could take for the header's.
 */
typedef struct header_cache
{
	MemoryContext cxt;
	/* the result's descriptor, blessed, in fn_mcxt */
	TupleDesc desc;
	/* the zone argument of the last call (zone_len -1: absent or NULL, UTC), in fn_mcxt */
	char *zone_text;
	int zone_len;
	pg_tz *tz;
	const char *tzname;
	bool valid;
	char *text;
	int len;
	char *delim;
	int dlen;
	fs_sacct_header h;
	fs_status st;
	fs_error err;
} header_cache;

/* The call site's cache, made at its first call. */
static header_cache *
call_cache(FunctionCallInfo fcinfo)
{
	header_cache *hc = (header_cache *) fcinfo->flinfo->fn_extra;

	if (hc == NULL)
	{
		hc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(header_cache));
		hc->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "sacct_row header",
		                                ALLOCSET_DEFAULT_SIZES);
		fcinfo->flinfo->fn_extra = hc;
	}
	return hc;
}

/*
 * The parse of header split on delim, from the cache when both are the last one's; a failure is
 * cached too.
 */
static const fs_sacct_header *
cached_header(FunctionCallInfo fcinfo, text *header, text *delim, const fs_error **failed)
{
	header_cache *hc = call_cache(fcinfo);
	int len = VARSIZE_ANY_EXHDR(header);
	int dlen = VARSIZE_ANY_EXHDR(delim);
	MemoryContext old;

	if (hc->valid && hc->len == len && memcmp(hc->text, VARDATA_ANY(header), len) == 0 &&
	    hc->dlen == dlen && memcmp(hc->delim, VARDATA_ANY(delim), dlen) == 0)
	{
		*failed = hc->st == FS_OK ? NULL : &hc->err;
		return &hc->h;
	}
	hc->valid = false;
	MemoryContextReset(hc->cxt);
	old = MemoryContextSwitchTo(hc->cxt);
	hc->text = palloc(len + 1);
	memcpy(hc->text, VARDATA_ANY(header), len);
	hc->text[len] = '\0';
	hc->len = len;
	hc->delim = palloc(dlen + 1);
	memcpy(hc->delim, VARDATA_ANY(delim), dlen);
	hc->delim[dlen] = '\0';
	hc->dlen = dlen;
	hc->st = fs_sacct_header_parse(hc->text, len, hc->delim, dlen, &fs_pg_alloc, &hc->h, &hc->err);
	MemoryContextSwitchTo(old);
	hc->valid = true;
	*failed = hc->st == FS_OK ? NULL : &hc->err;
	return &hc->h;
}

/*
 * The UTC offsets PostgreSQL accepts in a timestamptz (datatype/timestamp.h: below 16 hours
 * either way); a zone beyond them, such as the POSIX string '+99', would read dates 99 hours off.
 */
static void
check_utc_offset(const char *name, long gmtoff)
{
	long a = gmtoff < 0 ? -gmtoff : gmtoff;

	if (a < TZDISP_LIMIT)
		return;
	ereport(
	    ERROR,
	    (errcode(ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE),
	     errmsg("time zone \"%s\" has a UTC offset out of range", name),
	     errdetail("The zone is %ld:%02ld:%02ld hours %s of UTC; PostgreSQL accepts UTC offsets "
	               "of at most %d:59:59 either way.",
	               a / SECS_PER_HOUR, a / SECS_PER_MINUTE % MINS_PER_HOUR, a % SECS_PER_MINUTE,
	               gmtoff < 0 ? "west" : "east", MAX_TZDISP_HOUR),
	     errhint("Give the zone of the machine that ran sacct as a name from "
	             "pg_timezone_names, such as 'UTC' or 'Europe/Helsinki', or as a POSIX "
	             "offset of at most %d:59:59, such as 'UTC-3' (POSIX counts hours west of "
	             "UTC: 'UTC-3' is three hours east).",
	             MAX_TZDISP_HOUR)));
}

/* Time zone argument n (UTC when absent or NULL) and its name for messages; `writer` names what
 * wrote the dates, for the hint. */
pg_tz *
fs_pg_sacct_zone(FunctionCallInfo fcinfo, int n, const char *writer, const char **name_out)
{
	char *name;
	pg_tz *tz;
	long gmtoff;

	*name_out = "UTC";
	if (PG_NARGS() <= n || PG_ARGISNULL(n))
		return pg_tzset("UTC");
	name = text_to_cstring(PG_GETARG_TEXT_PP(n));
	tz = pg_tzset(name);
	if (tz == NULL)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("time zone \"%s\" not recognized", name),
		                errhint("Give the zone of the machine that ran %s as a name from "
		                        "pg_timezone_names, such as 'UTC' or 'Europe/Helsinki'.",
		                        writer)));
	/* a fixed offset is checked here, whether or not the row has a date; a zone with rules
	 * (a POSIX string with a DST part) at each date it converts */
	if (pg_get_timezone_offset(tz, &gmtoff))
		check_utc_offset(name, gmtoff);
	*name_out = name;
	return tz;
}

/*
 * fs_pg_sacct_zone of argument n, from the call site's cache while the argument's text stays the
 * same (pg_tzset keeps the zones it loaded for the life of the backend).
 */
static pg_tz *
cached_zone(FunctionCallInfo fcinfo, header_cache *hc, int n, const char **name_out)
{
	text *z = (PG_NARGS() <= n || PG_ARGISNULL(n)) ? NULL : PG_GETARG_TEXT_PP(n);
	int len = z ? (int) VARSIZE_ANY_EXHDR(z) : -1;
	MemoryContext old;

	if (hc->tz != NULL && hc->zone_len == len &&
	    (len <= 0 || memcmp(hc->zone_text, VARDATA_ANY(z), len) == 0))
	{
		*name_out = hc->tzname;
		return hc->tz;
	}
	hc->tz = NULL;
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	if (hc->zone_text)
		pfree(hc->zone_text);
	hc->zone_text = NULL;
	if (len > 0)
	{
		hc->zone_text = palloc(len);
		memcpy(hc->zone_text, VARDATA_ANY(z), len);
	}
	if (hc->tzname && hc->zone_len >= 0)
		pfree((char *) hc->tzname); /* the name fs_pg_sacct_zone copied from the argument */
	hc->tzname = NULL;
	hc->zone_len = len;
	{
		pg_tz *tz = fs_pg_sacct_zone(fcinfo, n, "sacct", &hc->tzname);

		MemoryContextSwitchTo(old);
		hc->tz = tz;
	}
	*name_out = hc->tzname;
	return hc->tz;
}

/* The UTC offset (seconds east) of zone tz at Unix time t. */
static long
gmtoff_at(pg_time_t t, pg_tz *tz)
{
	struct pg_tm *tm = pg_localtime(&t, tz);

	return tm ? tm->tm_gmtoff : 0;
}

/*
 * Note a local time that does not exist (the clocks went forward) or occurs twice (they went
 * back) in tz, and the UTC offset it was read at. `wall` is the local time's seconds as if it
 * were UTC; the offsets a day either side are the two a clock change can put it between (no zone
 * changes its clocks twice in two days), and a reading L - o is one when the zone's offset at
 * that instant is o.
 */
static void
note_dst(const fs_sacct_time *t, pg_tz *tz, const char *tzname, const char *col, int offset,
         List **notes)
{
	pg_time_t wall = (pg_time_t) fs_days_from_civil(t->year, t->mon, t->mday) * SECS_PER_DAY +
	                 t->hour * SECS_PER_HOUR + t->min * SECS_PER_MINUTE + t->sec;
	long before, after;
	bool first, second;
	char stamp[32];
	long east = -(long) offset, other, fixed;

	if (pg_get_timezone_offset(tz, &fixed))
		return; /* one offset at every date (UTC, 'UTC-3'): no clock change to cross */
	before = gmtoff_at(wall - SECS_PER_DAY, tz);
	after = gmtoff_at(wall + SECS_PER_DAY, tz);
	if (before == after)
		return;
	first = gmtoff_at(wall - before, tz) == before;
	second = gmtoff_at(wall - after, tz) == after;
	if (first != second)
		return;
	snprintf(stamp, sizeof(stamp), "%04d-%02d-%02dT%02d:%02d:%02d", t->year, t->mon, t->mday,
	         t->hour, t->min, t->sec);
	other = east == before ? after : before;
	*notes = lappend(
	    *notes,
	    psprintf(first ? "ambiguous local time: %s \"%s\" occurs twice in %s (the clocks went "
	                     "back); read at UTC%c%02ld:%02ld (%s the change; UTC%c%02ld:%02ld %s it)"
	                   : "nonexistent local time: %s \"%s\" does not exist in %s (the clocks "
	                     "went forward); read at UTC%c%02ld:%02ld (%s the change; UTC%c%02ld:%02ld "
	                     "%s it)",
	             col, stamp, tzname, east < 0 ? '-' : '+', labs(east) / SECS_PER_HOUR,
	             labs(east) / 60 % 60, east == before ? "before" : "after", other < 0 ? '-' : '+',
	             labs(other) / SECS_PER_HOUR, labs(other) / 60 % 60,
	             east == before ? "after" : "before"));
}

/* A date as written (local time in tz) or an epoch, as timestamptz; DST oddities into notes. */
static Datum
time_datum(const fs_sacct_time *t, pg_tz *tz, const char *tzname, const char *col, bool *isnull,
           List **notes)
{
	TimestampTz ts;

	*isnull = t->kind == FS_ST_NONE;
	if (t->kind == FS_ST_LOCAL)
	{
		struct pg_tm tm;
		int offset;
		long fixed;

		memset(&tm, 0, sizeof(tm));
		tm.tm_year = t->year;
		tm.tm_mon = t->mon;
		tm.tm_mday = t->mday;
		tm.tm_hour = t->hour;
		tm.tm_min = t->min;
		tm.tm_sec = t->sec;
		if (pg_get_timezone_offset(tz, &fixed))
		{
			/* one offset at every date (UTC, 'UTC-3'), checked when the zone was read: no
			 * clock change to look up or note */
			offset = (int) -fixed;
		}
		else
		{
			offset = DetermineTimeZoneOffset(&tm, tz);
			check_utc_offset(tzname, -(long) offset); /* PostgreSQL's offsets count west */
			note_dst(t, tz, tzname, col, offset, notes);
		}
		if (tm2timestamp(&tm, 0, &offset, &ts) != 0 || !IS_VALID_TIMESTAMP(ts))
			ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			                errmsg("%s is out of range for type timestamp with time zone", col)));
		return TimestampTzGetDatum(ts);
	}
	if (t->kind == FS_ST_EPOCH)
	{
		ts = (TimestampTz) (t->epoch -
		                    (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY) *
		     USECS_PER_SEC;
		return TimestampTzGetDatum(ts);
	}
	return (Datum) 0;
}

/*
 * r as the values and nulls of a fairsched.sacct_record (SACCT_NATTS of each), error in the last
 * column; with r NULL, the values of a record of the error. sacct_json shares it.
 */
void
fs_pg_sacct_values(const fs_sacct_record *r, pg_tz *tz, const char *tzname, const char *error,
                   Datum *v, bool *n)
{
	int i;

	for (i = 0; i < SACCT_NATTS; i++)
	{
		v[i] = (Datum) 0;
		n[i] = true;
	}
	if (r != NULL)
	{
		Datum *an;
		const char *p = r->anomalies.data;
		size_t k;
		List *notes = NIL;
		ListCell *lc;

		v[0] = fs_pg_text_or_null(r->job_id, &n[0]);
		v[1] = fs_pg_text_or_null(r->job_id_raw, &n[1]);
		v[2] = Int64GetDatum(r->job_seq), n[2] = !r->has_job_seq;
		v[3] = Int64GetDatum(r->array_job_id), n[3] = !r->has_array_job_id;
		v[4] = Int32GetDatum(r->array_task_id), n[4] = !r->has_array_task_id;
		v[5] = Int64GetDatum(r->het_job_id), n[5] = !r->has_het_job_id;
		v[6] = Int32GetDatum(r->het_offset), n[6] = !r->has_het_offset;
		v[7] = fs_pg_text_or_null(r->step, &n[7]);
		v[8] = fs_pg_text_or_null(r->cluster, &n[8]);
		v[9] = fs_pg_text_or_null(r->partition, &n[9]);
		v[10] = fs_pg_text_or_null(r->account, &n[10]);
		v[11] = fs_pg_text_or_null(r->user, &n[11]);
		v[12] = fs_pg_text_or_null(r->group, &n[12]);
		v[13] = fs_pg_text_or_null(r->qos, &n[13]);
		v[14] = fs_pg_text_or_null(r->state, &n[14]);
		v[15] = Int32GetDatum(r->cancelled_by), n[15] = !r->has_cancelled_by;
		v[16] = Int32GetDatum(r->exit_code), n[16] = !r->has_exit_code;
		v[17] = Int32GetDatum(r->signal), n[17] = !r->has_signal;
		v[18] = time_datum(&r->submit, tz, tzname, "Submit", &n[18], &notes);
		v[19] = time_datum(&r->eligible, tz, tzname, "Eligible", &n[19], &notes);
		v[20] = time_datum(&r->start, tz, tzname, "Start", &n[20], &notes);
		v[21] = time_datum(&r->end, tz, tzname, "End", &n[21], &notes);
		v[22] = Float8GetDatum(r->elapsed_s), n[22] = !r->has_elapsed;
		v[23] = Float8GetDatum(r->timelimit_s), n[23] = !r->has_timelimit;
		v[24] = Int32GetDatum(r->ncpus), n[24] = !r->has_ncpus;
		v[25] = Int32GetDatum(r->nnodes), n[25] = !r->has_nnodes;
		v[26] = Float8GetDatum(r->req_mem_bytes), n[26] = !r->has_req_mem;
		if (r->alloc_tres)
			v[27] = fs_pg_resvec_datum(r->alloc_tres), n[27] = false;
		if (r->req_tres)
			v[28] = fs_pg_resvec_datum(r->req_tres), n[28] = false;
		{
			fs_pg_jpair *jp = palloc(sizeof(fs_pg_jpair) * (r->nextra + 1));

			for (k = 0; k < r->nextra; k++)
			{
				jp[k].key = r->extra[k].key.s;
				jp[k].klen = r->extra[k].key.len;
				jp[k].val = r->extra[k].val.s;
				jp[k].vlen = r->extra[k].val.len;
			}
			v[29] = fs_pg_jsonb_object(jp, r->nextra);
			n[29] = false;
			pfree(jp);
		}
		/* a job not ended has no real End (sacct prints Start or now): nothing to compare */
		if (r->has_elapsed && !n[20] && !n[21] &&
		    !fs_span_eq(r->state.s, r->state.len, "RUNNING") &&
		    !fs_span_eq(r->state.s, r->state.len, "PENDING") &&
		    !fs_span_eq(r->state.s, r->state.len, "SUSPENDED"))
		{
			double span =
			    (double) (DatumGetTimestampTz(v[21]) - DatumGetTimestampTz(v[20])) / USECS_PER_SEC;

			if (fs_load_far(r->elapsed_s, span))
				notes = lappend(notes, psprintf("far Elapsed: Elapsed is %.0f s but End - Start "
				                                "is %.0f s (more than 600 s and 10%% apart)",
				                                r->elapsed_s, span));
		}
		an = palloc(sizeof(Datum) * (r->nanomalies + list_length(notes) + 1));
		/* the anomalies are stored back to back, each ended by a NUL */
		for (k = 0; k < r->nanomalies; k++)
		{
			size_t l = strlen(p);

			an[k] = PointerGetDatum(cstring_to_text_with_len(p, (int) l));
			p += l + 1;
		}
		foreach (lc, notes)
			an[k++] = CStringGetTextDatum((const char *) lfirst(lc));
		v[30] = PointerGetDatum(construct_array(an, (int) r->nanomalies + list_length(notes),
		                                        TEXTOID, -1, false, TYPALIGN_INT));
		n[30] = false;
	}
	if (error)
	{
		v[31] = CStringGetTextDatum(error);
		n[31] = false;
	}
}

/* r as a fairsched.sacct_record, error in the last column; with r NULL, a record of the error. */
static Datum
record_datum(FunctionCallInfo fcinfo, const fs_sacct_record *r, pg_tz *tz, const char *tzname,
             const char *error)
{
	header_cache *hc = call_cache(fcinfo);
	Datum v[SACCT_NATTS];
	bool n[SACCT_NATTS];

	if (hc->desc == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		TupleDesc desc;

		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "sacct_row must return a composite type");
		desc = BlessTupleDesc(desc);
		MemoryContextSwitchTo(old);
		if (desc->natts != SACCT_NATTS)
			elog(ERROR, "fairsched.sacct_record has %d attributes, expected %d", desc->natts,
			     SACCT_NATTS);
		hc->desc = desc;
	}
	fs_pg_sacct_values(r, tz, tzname, error, v, n);
	return HeapTupleGetDatum(heap_form_tuple(hc->desc, v, n));
}

static char *
error_text(const fs_error *err)
{
	if (err->detail[0])
		return psprintf("%s: %s", err->message, err->detail);
	return pstrdup(err->message);
}

/*
 * sacct_row raises the error of a bad header or row, sacct_row_try returns it in the error
 * column; an unknown time zone and an empty or over-long delimiter raise in both.
 */
static Datum
sacct_row_common(FunctionCallInfo fcinfo, bool try_only)
{
	text *line = PG_GETARG_TEXT_PP(0);
	text *header = PG_GETARG_TEXT_PP(1);
	const char *tzname;
	pg_tz *tz = cached_zone(fcinfo, call_cache(fcinfo), 2, &tzname);
	text *delim = PG_NARGS() > 3 ? PG_GETARG_TEXT_PP(3) : NULL;
	const fs_error *hfail;
	const fs_sacct_header *h;
	fs_sacct_record rec;
	fs_error err;
	fs_status st;
	Datum d;

	if (delim == NULL)
		delim = cstring_to_text("|");
	h = cached_header(fcinfo, header, delim, &hfail);
	if (hfail)
	{
		/* a bad delimiter is a bad argument, not a bad row: both forms raise it */
		if (!try_only || hfail->status != FS_ERR_SYNTAX)
			fs_pg_raise(hfail);
		return record_datum(fcinfo, NULL, tz, tzname, error_text(hfail));
	}
	st =
	    fs_sacct_parse_row(h, VARDATA_ANY(line), VARSIZE_ANY_EXHDR(line), &fs_pg_alloc, &rec, &err);
	if (st != FS_OK)
	{
		if (!try_only)
			fs_pg_raise(&err);
		return record_datum(fcinfo, NULL, tz, tzname, error_text(&err));
	}
	d = record_datum(fcinfo, &rec, tz, tzname, NULL);
	fs_sacct_record_free(&rec, &fs_pg_alloc);
	return d;
}

PG_FUNCTION_INFO_V1(sacct_row);
Datum
sacct_row(PG_FUNCTION_ARGS)
{
	return sacct_row_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(sacct_row_try);
Datum
sacct_row_try(PG_FUNCTION_ARGS)
{
	return sacct_row_common(fcinfo, true);
}

PG_FUNCTION_INFO_V1(slurm_duration);
Datum
slurm_duration(PG_FUNCTION_ARGS)
{
	text *t = PG_GETARG_TEXT_PP(0);
	double secs = 0;
	bool is_null;
	const char *why;
	fs_error err;

	fs_pg_check(
	    fs_slurm_duration(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &secs, &is_null, &why, &err), &err);
	if (is_null)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(secs);
}
