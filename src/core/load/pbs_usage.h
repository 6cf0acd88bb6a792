/*
 * pbs_usage.h: the PBS fairshare_usage_res formula (an arithmetic subset of Python, the
 * FS_PF_USAGE dialect of types/pbs_formula.h) evaluated over a resource vector.
 */
#ifndef FS_PBS_USAGE_H
#define FS_PBS_USAGE_H

#include "fs_core.h"
#include "types/pbs_formula.h"

/*
 * Compile a usage formula (errors name "PBS usage formula" and list what a formula may use);
 * `vals` gets room for one value per name of the formula, for fs_pbs_usage_run.
 * O(n log n) in the formula's length; the limits are those of types/pbs_formula.h.
 */
fs_status fs_pbs_usage_compile(const char *formula, size_t len, const fs_allocator *a,
                               fs_pf_prog **prog, double **vals, fs_error *err);
/*
 * Run a compiled usage formula over the amounts of the resvec `used` in PBS scheduler units
 * (sizes in kb rounded up, durations in seconds, counts as they are; a missing resource is 0,
 * pi and e the constants unless a resource has that name). O(formula + entries of used): the
 * names and the vector's entries are both in byte order and are merged; allocates nothing.
 */
fs_status fs_pbs_usage_run(fs_pf_prog *prog, double *vals, const uint8_t *used, double *result,
                           fs_error *err);

/* Compile, run once and free: PBS fairshare_usage_res over `used`. */
fs_status fs_pbs_usage(const char *formula, size_t len, const uint8_t *used, const fs_allocator *a,
                       double *result, fs_error *err);

#endif
