/*
 * decay.h: usage decay (docs/decay.md): half-life decay as SLURM, HTCondor and PBS apply it,
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

/*
 * The instants a value may hold: PostgreSQL's timestamp range, 4714-11-24 00:00:00 BC (Julian
 * day 0) up to, not including, 294277-01-01 00:00:00 (MIN_TIMESTAMP and END_TIMESTAMP).
 */
#define FS_MIN_INSTANT      INT64_C(-211813488000000000)
#define FS_END_INSTANT      INT64_C(9223371331200000000)
#define FS_INSTANT_VALID(t) ((t) >= FS_MIN_INSTANT && (t) < FS_END_INSTANT)

/*
 * A duration from an interval, which can exceed int64 microseconds (an interval reaches 178
 * million years): `us` is exact when `exact`, and `approx_us` is always the duration rounded
 * to a double.
 */
typedef struct fs_duration
{
	bool exact;
	int64_t us;
	double approx_us;
} fs_duration;

fs_duration fs_duration_exact(int64_t us);
fs_duration fs_duration_approx(double us);

/* Check a half-life (positive) or a period; `what` names it in the message. */
fs_status fs_check_positive_duration(int64_t us, const char *what, fs_error *err);
fs_status fs_check_amount(double v, const char *what, fs_error *err);

/*
 * (later - earlier) / half_life for later >= earlier, without overflow: the difference of two
 * int64 instants is exact in uint64 (it can pass INT64_MAX: 4713 BC to 294276 AD).
 */
double fs_halvings(int64_t later, int64_t earlier, int64_t half_life);

fs_status fs_decay(double usage, fs_duration elapsed, fs_duration half_life, fs_decay_model model,
                   double *out, fs_error *err);

/* usage * factor^floor(elapsed / period), never below `floor` (PBS fairshare_decay_*). */
fs_status fs_decay_step(double usage, fs_duration elapsed, fs_duration period, double factor,
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
/*
 * The sum as of any instant: decayed forwards after d->at, and before it the decay law run
 * backwards (value * 2^((d->at - as_of) / half_life)), which keeps value() linear at every
 * instant. FS_ERR_RANGE only when that overflows a double (about 1024 half-lives back). O(1).
 */
fs_status fs_decayed_value(const fs_decayed *d, int64_t as_of, double *out, fs_error *err);
/* A single charge: `value` at instant `at` decaying with `half_life` (checked). O(1). */
fs_status fs_decayed_make(double value, int64_t at, int64_t half_life, fs_decayed *out,
                          fs_error *err);
/*
 * The exact half-life that decays as `model` does with `half_life`: itself for exact and condor;
 * for slurm -ln 2 / ln(1 - 0.693 / half_life_seconds), rounded to the microsecond. O(1).
 */
fs_status fs_decay_half_life(int64_t half_life, fs_decay_model model, int64_t *out, fs_error *err);

/*
 * What a value may hold, the same for text and binary input: a finite value, an instant in
 * [FS_MIN_INSTANT, FS_END_INSTANT) and a positive half-life (any int64 microseconds). FS_OK or
 * FS_ERR_RANGE / FS_ERR_VALUE with a message saying which part is wrong.
 */
fs_status fs_decayed_check(const fs_decayed *d, fs_error *err);

/* Text form: value@YYYY-MM-DDTHH:MM:SS[.ffffff]Z/half_life_seconds, independent of settings. */
void fs_decayed_format(fs_sb *sb, const fs_decayed *d);
fs_status fs_decayed_parse(const char *text, size_t len, fs_decayed *d, fs_error *err);

/*
 * Binary form: a version byte (1), then the value (float8), the instant and the half-life
 * (int64 microseconds), in network byte order. Decoding validates like the text input.
 */
#define FS_DECAYED_BINARY_VERSION 1
#define FS_DECAYED_BINARY_LEN     25
void fs_decayed_encode(const fs_decayed *d, uint8_t out[FS_DECAYED_BINARY_LEN]);
fs_status fs_decayed_decode(const uint8_t *p, size_t len, fs_decayed *d, fs_error *err);

/*
 * UTC timestamp text of an instant (microseconds since 2000-01-01), and back. Years are
 * astronomical (0000 is 1 BC, -4713 is 4714 BC), with at least four digits:
 * -4713-11-24T00:00:00Z to 294276-12-31T23:59:59.999999Z. fs_parse_utc returns the bytes used
 * (0 on a syntax error); an instant outside that range parses to one that FS_INSTANT_VALID
 * rejects, so the caller can say "out of range".
 */
void fs_format_utc(fs_sb *sb, int64_t us);
size_t fs_parse_utc(const char *s, size_t len, int64_t *us);

/* Big-endian fields of the binary forms. */

#endif
