/*
 * decay.h: usage decay (SPEC section 5): half-life decay as SLURM, HTCondor and PBS apply it,
 * the exact integral of a running job's decayed charge, and the decayed running sum whose state
 * combines (decay both to the later instant, then add).
 *
 * Times are microseconds since 2000-01-01 00:00:00 UTC (PostgreSQL's timestamptz); durations
 * are microseconds.
 */
#ifndef FS_DECAY_H
#define FS_DECAY_H

#include "fs_core.h"

#include <stdbool.h>

typedef enum fs_decay_model
{
	FS_DECAY_EXACT = 0, /* usage * 2^(-elapsed / half_life) */
	FS_DECAY_SLURM = 1, /* usage * (1 - 0.693 / half_life_seconds)^elapsed_seconds */
	FS_DECAY_CONDOR = 2 /* as exact: HTCondor's accountant uses 0.5^(dt / half_life) */
} fs_decay_model;

#define FS_DECAY_MODELS "exact, slurm, condor"
int fs_decay_model_from_name(const char *name);

/* Check a half-life (positive) or a period; `what` names it in the message. */
fs_status fs_check_positive_duration(int64_t us, const char *what, fs_error *err);
fs_status fs_check_amount(double v, const char *what, fs_error *err);

fs_status fs_decay(double usage, int64_t elapsed_us, int64_t half_life_us, fs_decay_model model,
                   double *out, fs_error *err);

/* usage * factor^floor(elapsed / period), never below `floor` (PBS fairshare_decay_*). */
fs_status fs_decay_step(double usage, int64_t elapsed_us, int64_t period_us, double factor,
                        double floor_value, double *out, fs_error *err);

/*
 * The integral of rate * 2^(-(as_of - t) / half_life) dt over the part of [start, end] before
 * as_of; without a half-life (has_half_life false) rate times the seconds run before as_of.
 */
fs_status fs_accrued(double rate, int64_t start, int64_t end, int64_t as_of, bool has_half_life,
                     int64_t half_life_us, double *out, fs_error *err);

/* A decayed running sum: `value` as of instant `at`, decaying with `half_life`. */
typedef struct fs_decayed
{
	double value;
	int64_t at;
	int64_t half_life;
} fs_decayed;

/* Add usage observed at `at` (in any order of instants). */
fs_status fs_decayed_add(fs_decayed *d, double usage, int64_t at, int64_t half_life, fs_error *err);
/* d += other, both decayed to the later instant. */
fs_status fs_decayed_combine(fs_decayed *d, const fs_decayed *other, fs_error *err);
/* The sum as of a later instant. */
fs_status fs_decayed_value(const fs_decayed *d, int64_t as_of, double *out, fs_error *err);

/* Text form: value@YYYY-MM-DDTHH:MM:SS[.ffffff]Z/half_life_seconds, independent of settings. */
void fs_decayed_format(fs_sb *sb, const fs_decayed *d);
fs_status fs_decayed_parse(const char *text, size_t len, fs_decayed *d, fs_error *err);

/* UTC timestamp text of an instant (microseconds since 2000-01-01), and back. */
void fs_format_utc(fs_sb *sb, int64_t us);
size_t fs_parse_utc(const char *s, size_t len, int64_t *us);

#endif
