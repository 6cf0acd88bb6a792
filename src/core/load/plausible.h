/*
 * plausible.h: values no scheduler writes, shared by the line loaders (pbsacct, sacct): the
 * bounds past which a size or a wall-clock duration is flagged in a record's anomalies, and what
 * "far" means between a wall-clock duration and end - start. Every function is O(1).
 */
#ifndef FS_PLAUSIBLE_H
#define FS_PLAUSIBLE_H

#include <stdbool.h>
#include <stddef.h>

/* 2^60 bytes (1 EiB): more memory or disk than any one job of any machine has had. */
#define FS_LOAD_SIZE_MAX 1152921504606846976.0
/* 2^31 - 1 seconds (68 years): longer than any Unix clock has run, so no job has lasted it. */
#define FS_LOAD_WALL_MAX 2147483647.0
/*
 * A wall-clock duration (PBS resources_used.walltime, Slurm Elapsed) is "far" from end - start
 * when they differ by more than FS_LOAD_FAR_S seconds and by more than FS_LOAD_FAR_FRAC of end -
 * start: PBS's MoM samples walltime on its polling cycle (up to a few minutes behind the end
 * stamp) and both schedulers write whole seconds, so a smaller gap is bookkeeping; a larger one
 * is a suspension, a clock step, a rerun whose start was rewritten, or a misread value.
 */
#define FS_LOAD_FAR_S    600.0
#define FS_LOAD_FAR_FRAC 0.10

/* Is a wall-clock duration `dur` (s) far from `span` = end - start (s), as defined above? */
bool fs_load_far(double dur, double span);

/*
 * Does a duration value as written have a form no PBS or Slurm writer uses: exactly one colon
 * ("23:0", "1:30"), the M:S form a cut "23:00:00" leaves when a line is truncated? The
 * schedulers write [D-]HH:MM:SS, seconds, or (Slurm) MM:SS.mmm, which has a dot.
 */
bool fs_load_cut_duration(const char *s, size_t len);

#endif
