/*
 * userprio.h: HTCondor's user priority (the accountant): at each usage sample, with dt the time
 * since the previous one and b = 0.5^(dt / half_life), priority = max(0.5, previous * b +
 * in_use * (1 - b)), starting from 0.5.
 *
 * Each update is p -> max(0.5, b p + u (1 - b)); maps of the form p -> max(m, a p + g) are
 * closed under composition, so a run of samples is one such map and two runs combine exactly
 * when one follows the other in time. The state also keeps what condor_userprio reports beside
 * the priority: the weighted usage accumulated (in_use x seconds), the weighted resources in use
 * at the last sample, and when usage began and was last seen.
 */
#ifndef FS_USERPRIO_H
#define FS_USERPRIO_H

#include "fs_core.h"

typedef struct fs_userprio
{
	double m, a, g;     /* priority after the first sample p -> after the last: max(m, a p + g) */
	double first_usage; /* applied only when this run follows another one */
	int64_t first_at;
	int64_t last_at;
	int64_t half_life;
	/*
	 * The accountant's WeightedAccumulatedUsage over the run: each sample's in_use times the
	 * seconds since the previous one (the first sample only starts the clock, as for the
	 * priority); WeightedResourcesUsed, the in_use of the last sample; BeginUsageTime, the
	 * first sample at which usage accumulated; LastUsageTime, the last sample (not the run's
	 * first) with something in use. FS_USERPRIO_NEVER when there is none.
	 */
	double usage;
	double last_in_use;
	int64_t began_at;
	int64_t last_used_at;
} fs_userprio;

#define FS_USERPRIO_FLOOR 0.5
#define FS_USERPRIO_NEVER INT64_MIN

fs_status fs_userprio_start(fs_userprio *s, double in_use, int64_t at, int64_t half_life,
                            fs_error *err);
fs_status fs_userprio_add(fs_userprio *s, double in_use, int64_t at, int64_t half_life,
                          fs_error *err);
/*
 * s = s followed by (or preceded by) other; runs that overlap in time are an error. Every
 * update checks for overflow (FS_ERR_RANGE) and leaves s as it was on any error.
 */
fs_status fs_userprio_combine(fs_userprio *s, const fs_userprio *other, fs_error *err);
/* The real priority after the last sample. */
fs_status fs_userprio_value(const fs_userprio *s, double *out, fs_error *err);

/* What condor_userprio prints for a submitter (-l attribute names in the comments). */
typedef struct fs_userprio_report
{
	double effective_priority; /* EUP = real priority x priority factor */
	double real_priority;      /* Priority */
	double priority_factor;    /* PriorityFactor */
	double weighted_in_use;    /* WeightedResourcesUsed */
	double weighted_hours;     /* "Total Usage (wghted-hrs)": WeightedAccumulatedUsage / 3600 */
	double weighted_usage;     /* WeightedAccumulatedUsage, in weighted seconds */
	int64_t usage_start;       /* BeginUsageTime, FS_USERPRIO_NEVER when none */
	int64_t last_usage;        /* LastUsageTime, FS_USERPRIO_NEVER when none */
	int64_t last_update;       /* the last sample: "Last Priority Update" */
} fs_userprio_report;

/*
 * The report of a state under a priority factor (HTCondor's DEFAULT_PRIO_FACTOR is 1000; a factor
 * below 1, HTCondor's minimum, is an error, as is an effective priority past the float8 range).
 */
fs_status fs_userprio_report_of(const fs_userprio *s, double priority_factor,
                                fs_userprio_report *out, fs_error *err);

/*
 * The pie spin: each submitter's slice of a negotiation cycle from its effective user priority,
 * (1 / EUP) / sum(1 / EUP), into share[]. Every EUP must be positive and finite; names[] (with
 * their lengths) must differ. O(n log n).
 */
fs_status fs_pie_spin(const char *const *names, const size_t *name_lens, const double *eup,
                      size_t n, const fs_allocator *a, double *share, fs_error *err);

/*
 * What a state may hold, the same for text and binary input: finite numbers; 0 <= a <= 1,
 * g >= 0, first_usage >= 0; m >= 0.5, or the identity map (m = 0, a = 1, g = 0) of a run of
 * one sample (first_at = last_at), whose last in_use is its first and which has no usage;
 * instants in [FS_MIN_INSTANT, FS_END_INSTANT) in order; a positive half-life; usage and
 * last_in_use >= 0; usage > 0 exactly when began_at is set, first_at < began_at <= last_used_at;
 * first_at <= last_used_at <= last_at when set. Each update keeps these.
 */
fs_status fs_userprio_check(const fs_userprio *s, fs_error *err);

void fs_userprio_format(fs_sb *sb, const fs_userprio *s);
fs_status fs_userprio_parse(const char *text, size_t len, fs_userprio *s, fs_error *err);

/*
 * Binary form: a version byte (2), then m, a, g, first_usage (float8), first_at, last_at,
 * half_life (int64), usage, last_in_use (float8), began_at, last_used_at (int64, INT64_MIN for
 * none), in network byte order. Decoding validates like the text input.
 */
#define FS_USERPRIO_BINARY_VERSION 2
#define FS_USERPRIO_BINARY_LEN     89
void fs_userprio_encode(const fs_userprio *s, uint8_t out[FS_USERPRIO_BINARY_LEN]);
fs_status fs_userprio_decode(const uint8_t *p, size_t len, fs_userprio *s, fs_error *err);

#endif
