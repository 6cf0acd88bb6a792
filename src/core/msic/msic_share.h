/*
 * msic_share.h: the MSIC-Cluster PBS scheduler's queue share accounting (docs/msic.md): the
 * per-queue state, charging a started job, the nightly rollover, the queue rank,
 * the SHARE_INFO_FILE text form, and the combinable per-day accumulator behind msic_queue_state.
 *
 * Times are plain numbers: instants in microseconds since 2000-01-01 UTC, local days as day
 * numbers (the glue turns timestamps into local dates with the session time zone).
 */
#ifndef FS_MSIC_SHARE_H
#define FS_MSIC_SHARE_H

#include "fs_core.h"

#include <stdbool.h>
#include <stdint.h>

/* One queue's state, the fields of fairsched.msic_share without the name. */
typedef struct fs_msic_share
{
	int32_t ndays;      /* days counted in past_pct */
	double past_pct;    /* average daily usage percentage over those days */
	double today_usage; /* CPU-minutes charged today */
	double today_max;   /* cluster CPU-minutes elapsed today, as of the last charge */
} fs_msic_share;

/* ndays >= 0 and the three amounts finite and >= 0; `what` names the value in messages. */
fs_status fs_msic_share_check(const fs_msic_share *s, const char *what, fs_error *err);

/* Today's percentage: usage / max * 100, or 0 when max < 1 (fair_access.c). */
double fs_msic_today_pct(const fs_msic_share *s);
/* The past percentage with today included: (past * ndays + today%) / (ndays + 1). */
double fs_msic_past_pct(const fs_msic_share *s);
/* The same, FS_ERR_RANGE ("the past percentage overflows") when it is not finite. */
fs_status fs_msic_past_pct_checked(const fs_msic_share *s, double *past, fs_error *err);

/*
 * Charge a started job: today_usage += ncpus * floor(walltime seconds / 60), and today_max =
 * cluster_cpus * minutes_since_midnight (overwritten, not added: runjob.c:schd_charge_job).
 * ncpus >= 0, walltime >= 0, cluster_cpus > 0 and minutes >= 0, else FS_ERR_VALUE.
 */
fs_status fs_msic_charge(fs_msic_share *s, int64_t ncpus, int64_t walltime_us,
                         int64_t minutes_since_midnight, int64_t cluster_cpus, fs_error *err);

/*
 * The nightly rollover (fair_access.c:update_share_usage): past < 1 restarts the history
 * (past = today%, ndays = 1), else past = the average with today and ndays + 1; usage and max
 * go back to 0. FS_ERR_RANGE when ndays would pass INT32_MAX.
 */
fs_status fs_msic_rollover(fs_msic_share *s, fs_error *err);

/*
 * Queue rank. FS_MSIC_RANK_SHARE (the administrator's guide): past percentage (today included)
 * divided by the queue's share percentage, over share above 1; a 0 share gives +Infinity when the
 * queue has used anything and 0 when it has not. FS_MSIC_RANK_USAGE (the original code,
 * jobinfo.c:get_share_rank): the past percentage truncated to an integer, over share above 100.
 * A queue without a FAIR_SHARE entry ranks FS_MSIC_RANK_NO_ENTRY(mode): 1 or 100, not over.
 */
typedef enum fs_msic_rank_mode
{
	FS_MSIC_RANK_SHARE = 0,
	FS_MSIC_RANK_USAGE = 1
} fs_msic_rank_mode;

#define FS_MSIC_RANK_MODES                                                                         \
	"share (the administrator's guide: past usage divided by the queue's share) and usage (the "   \
	"original code: "                                                                              \
	"raw past usage)"
#define FS_MSIC_RANK_NO_ENTRY(mode) ((mode) == FS_MSIC_RANK_USAGE ? 100.0 : 1.0)

/*
 * The rank of a queue from its past percentage (today included, fs_msic_past_pct) and its share
 * percentage (its FAIR_SHARE shares as a percentage of all shares), and whether that is over
 * share: the one formula that msic_rank and the job order share.
 */
double fs_msic_rank_value(double past_pct, double share_pct, fs_msic_rank_mode mode);
int fs_msic_rank_mode_from_name(const char *name);
/* shares must be 0..100 (the FAIR_SHARE range); FS_ERR_VALUE otherwise. */
fs_status fs_msic_rank(const fs_msic_share *s, int64_t shares, fs_msic_rank_mode mode, double *rank,
                       fs_error *err);
bool fs_msic_over_share(double rank, fs_msic_rank_mode mode);

/* ---------------------------------------------------------------- SHARE_INFO_FILE */

/* strftime %a in the C locale; weekday 0 is Sunday. */
const char *fs_msic_weekday_name(int weekday);

typedef struct fs_msic_share_entry
{
	char *queue; /* NUL-terminated, allocator memory when parsed */
	fs_msic_share s;
} fs_msic_share_entry;

typedef struct fs_msic_share_file
{
	int weekday; /* the stamp on line 3, 0 = Sun */
	size_t n;
	fs_msic_share_entry *entries;
} fs_msic_share_file;

/*
 * Read the file usersort.c:schd_share_info writes: two header comment lines, the weekday
 * stamp, then "queue ndays past% today_usage today_max" per line, fields separated by spaces.
 * Blank lines are skipped; anything else malformed is FS_ERR_SYNTAX naming the line.
 */
fs_status fs_msic_share_file_parse(const char *text, size_t len, const fs_allocator *a,
                                   fs_msic_share_file *out, fs_error *err);
/* Free what fs_msic_share_file_parse allocated (the entries and their queue names). */
void fs_msic_share_file_free(fs_msic_share_file *f, const fs_allocator *a);

/* A queue name the file can hold: non-empty, no space or control character. */
fs_status fs_msic_check_queue_name(const char *name, size_t len, fs_error *err);

/*
 * The file as the original writes it: "# Day-of-Week\n# queue ndays past% today_usage
 * today_max\n<Wkd>\n", then "%-10s %5d %3.3f %10.3f %10.3f\n" per entry.
 */
fs_status fs_msic_share_file_format(fs_sb *sb, int weekday, const fs_msic_share_entry *e, size_t n,
                                    fs_error *err);

/* ---------------------------------------------------------------- msic_queue_state */

/*
 * A local day's job starts. Day d ends with the rollover at 23:00 local time of date d; a start
 * at t belongs to the first day whose 23:00 is at or after t. `last_at` and `last_max` are the
 * latest start of the day and the today_max its charge set (on a tie at the same instant, the
 * larger today_max).
 */
typedef struct fs_msic_day
{
	int32_t day;
	int32_t pad; /* always 0, so that equal states have equal bytes */
	double usage;
	int64_t last_at;
	double last_max;
} fs_msic_day;

/* Days sorted by `day`, unique. */
typedef struct fs_msic_acc
{
	const char *queue;
	size_t queue_len;
	int64_t as_of;
	int32_t as_of_day; /* the day as_of falls in: its rollovers are those of earlier days */
	fs_msic_day *days;
	size_t n;
} fs_msic_acc;

/* Index of `day` in days[0..n), or of where it would go; *found says which. */
size_t fs_msic_day_find(const fs_msic_day *days, size_t n, int32_t day, bool *found);
/* Add one start to a day record. */
void fs_msic_day_add(fs_msic_day *d, double usage, int64_t at, double max);
/* Merge b's days into a's (both sorted) into out (room for a_n + b_n); returns the count. */
size_t fs_msic_days_merge(const fs_msic_day *a, size_t a_n, const fs_msic_day *b, size_t b_n,
                          fs_msic_day *out);
/* The share as of acc->as_of: the days replayed from a fresh queue, one rollover per day. */
fs_status fs_msic_acc_final(const fs_msic_acc *acc, fs_msic_share *out, fs_error *err);

/*
 * The same replay, visiting every day from the first start's day to acc->as_of_day with the
 * state at that day's rollover (its charges in, the rollover not yet applied); the last visit
 * is the state fs_msic_acc_final returns.
 */
typedef void (*fs_msic_day_visit)(int32_t day, const fs_msic_share *s, void *ctx);
fs_status fs_msic_acc_history(const fs_msic_acc *acc, fs_msic_day_visit visit, void *ctx,
                              fs_msic_share *out, fs_error *err);

/*
 * Text form of an accumulator, independent of settings:
 *   queue as_of_utc as_of_day[;day usage last_utc last_max]...
 * e.g. "hi 2026-03-02T12:00:00Z 9557;9555 480 2026-02-28T10:00:00Z 19200".
 * Parsing allocates days and queue with `a` and checks order, uniqueness and ranges.
 */
void fs_msic_acc_format(fs_sb *sb, const fs_msic_acc *acc);
fs_status fs_msic_acc_parse(const char *text, size_t len, const fs_allocator *a, fs_msic_acc *out,
                            fs_error *err);
/* Validate the parts parsing checks (for values built elsewhere). */
fs_status fs_msic_acc_check(const fs_msic_acc *acc, fs_error *err);

#endif
