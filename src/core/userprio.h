/*
 * userprio.h: HTCondor's user priority (the accountant): at each usage sample, with dt the time
 * since the previous one and b = 0.5^(dt / half_life), priority = max(0.5, previous * b +
 * in_use * (1 - b)), starting from 0.5.
 *
 * Each update is p -> max(0.5, b p + u (1 - b)); maps of the form p -> max(m, a p + g) are
 * closed under composition, so a run of samples is one such map and two runs combine exactly
 * when one follows the other in time.
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
} fs_userprio;

#define FS_USERPRIO_FLOOR 0.5

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

/*
 * What a state may hold, the same for text and binary input: finite numbers; 0 <= a <= 1,
 * g >= 0, first_usage >= 0; m >= 0.5, or the identity map (m = 0, a = 1, g = 0) of a run of
 * one sample (first_at = last_at); instants in [FS_MIN_INSTANT, FS_END_INSTANT) in order; a
 * positive half-life. Each update keeps these.
 */
fs_status fs_userprio_check(const fs_userprio *s, fs_error *err);

void fs_userprio_format(fs_sb *sb, const fs_userprio *s);
fs_status fs_userprio_parse(const char *text, size_t len, fs_userprio *s, fs_error *err);

/*
 * Binary form: a version byte (1), then m, a, g, first_usage (float8) and first_at, last_at,
 * half_life (int64), in network byte order. Decoding validates like the text input.
 */
#define FS_USERPRIO_BINARY_VERSION 1
#define FS_USERPRIO_BINARY_LEN     57
void fs_userprio_encode(const fs_userprio *s, uint8_t out[FS_USERPRIO_BINARY_LEN]);
fs_status fs_userprio_decode(const uint8_t *p, size_t len, fs_userprio *s, fs_error *err);

#endif
