/*
 * msic_prime.h: the MSIC-Cluster scheduler's prime-time calendar: whether a local time is prime,
 * and how much of a run is, in elapsed time, across the clock changes of a time zone.
 */
#ifndef FS_MSIC_PRIME_H
#define FS_MSIC_PRIME_H

#include "fs_core.h"

/* Longest run prime_seconds walks day by day (100 years of 365.25 days). */
#define FS_MSIC_MAX_WALK_DAYS 36525
/* Largest UTC offset of a zone, either way: two days, beyond any real zone's (about 16 hours). */
#define FS_MSIC_MAX_OFFSET_US (INT64_C(2) * 86400 * 1000000)

/*
 * Whether a local day is a prime-time day (a weekday that is not a holiday), and whether a time
 * of that day (microseconds after local midnight) is prime. start_us and end_us are the
 * PRIME_TIME_START and _END after midnight: end > start is the window [start, end); otherwise
 * [end, start) is non-prime and the rest of the day prime (start = end: prime all day).
 */
bool fs_msic_prime_day(int64_t year, int64_t mon, int64_t mday, const int *holidays, size_t n);
bool fs_msic_is_prime(int64_t year, int64_t mon, int64_t mday, int64_t sod_us, int64_t start_us,
                      int64_t end_us, const int *holidays, size_t n);

/* From instant `at` on, the local time is UTC + offset_us (until the next change). */
typedef struct fs_msic_offset_change
{
	int64_t at;
	int64_t offset_us;
} fs_msic_offset_change;

/*
 * A time zone as its UTC offsets: offset0 before the first change, then each change's offset
 * from its instant on (changes strictly ascending; those before the run only set the offset it
 * starts with). Instants count microseconds from midnight UTC of the day numbered epoch_day by
 * fs_days_from_civil (0: 1970-01-01; 10957: 2000-01-01, PostgreSQL's epoch).
 */
typedef struct fs_msic_zone
{
	int64_t epoch_day;
	int64_t offset0;
	const fs_msic_offset_change *changes;
	size_t n;
} fs_msic_zone;

/* The local clock of a time zone, supplied by the caller (the session time zone in the server). */
typedef struct fs_msic_clock
{
	/* the local civil date of instant t (microseconds) */
	void (*to_local)(void *ctx, int64_t t, int64_t *year, int64_t *mon, int64_t *mday);
	/* the instant of a local wall-clock time sod_us after midnight of a civil date */
	int64_t (*from_local)(void *ctx, int64_t year, int64_t mon, int64_t mday, int64_t sod_us);
	void *ctx;
	/*
	 * The UTC offset in force at t (local minus UTC, microseconds), and in *next the first
	 * instant after t at which it changes, or any instant >= limit when it does not change
	 * before limit. NULL: the clock is UTC (offset 0).
	 */
	int64_t (*offset_at)(void *ctx, int64_t t, int64_t limit, int64_t *next);
	/* the day of instant 0, as in fs_msic_zone */
	int64_t epoch_day;
} fs_msic_clock;

/*
 * Microseconds of [from, from + dur) that fall in prime time: the measure of the instants t at
 * which fs_msic_is_prime holds for t's local date and time of day. The run is walked piecewise,
 * between offset changes and local midnights, each piece measured in elapsed time, so a repeated
 * hour counts twice and a skipped day not at all. O(holidays + days + offset changes). dur must
 * be 0..FS_MSIC_MAX_WALK_DAYS days (FS_ERR_VALUE otherwise).
 */
fs_status fs_msic_prime_zone(const fs_msic_zone *zone, int64_t from, int64_t dur, int64_t start_us,
                             int64_t end_us, const int *holidays, size_t n, int64_t *prime,
                             fs_error *err);
/* The same, the offsets given by clock->offset_at and clock->epoch_day (nothing else of it). */
fs_status fs_msic_prime_us(const fs_msic_clock *clock, int64_t from, int64_t dur, int64_t start_us,
                           int64_t end_us, const int *holidays, size_t n, int64_t *prime,
                           fs_error *err);

#endif
