/*
 * pbs_usage.h: the PBS fairshare_usage_res formula (an arithmetic subset of Python) evaluated
 * over a resource vector.
 */
#ifndef FS_PBS_USAGE_H
#define FS_PBS_USAGE_H

#include "fs_core.h"

/*
 * PBS fairshare_usage_res: evaluate `formula` over the amounts of the resvec `used` in PBS
 * scheduler units (sizes in kb rounded up, durations in seconds, counts as they are; a missing
 * resource is 0). Nesting of any kind (parentheses, calls, signs, powers) is limited to 64
 * levels; the time is O(formula + entries of used + names * log entries), and `a` holds an
 * index of a large vector during the call.
 */
fs_status fs_pbs_usage(const char *formula, size_t len, const uint8_t *used, const fs_allocator *a,
                       double *result, fs_error *err);

#endif
