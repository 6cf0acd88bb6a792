/*
 * slots.h: HTCondor slot weights for partitionable machines (seed 001; README "Slot weights") and
 * SLURM TRES billing (TRESBillingWeights, PriorityFlags=MAX_TRES).
 */
#ifndef FS_SLOTS_H
#define FS_SLOTS_H

#include "fs_core.h"

#include <stdbool.h>

typedef enum fs_slot_mode
{
	FS_SLOT_SUM = 0, /* cores + every other resource's excess over its per-core allowance */
	FS_SLOT_MAX = 1  /* the largest of cores and each resource in per-core allowances */
} fs_slot_mode;

#define FS_SLOT_MODES "sum, max"
int fs_slot_mode_from_name(const char *name);

/*
 * The weight of a dynamic slot on a machine. With c the slot's cores, C the machine's and
 * a_r = machine_r / C each other resource's per-core allowance: sum = c + sum_r max(0, slot_r -
 * a_r c) / a_r; max = max(c, max_r slot_r / a_r).
 */
fs_status fs_slot_weight(const uint8_t *slot, const uint8_t *machine, const char *cores,
                         size_t coreslen, fs_slot_mode mode, double *out, fs_error *err);

/* What the slots leave of the machine: per resource max(machine_r - sum of slots_r, 0). */
fs_status fs_slot_remainder(const uint8_t *machine, const uint8_t *const *slots, size_t n,
                            const fs_allocator *a, uint8_t **out, fs_error *err);

/* TRESBillingWeights: weighted sum of an allocation, or with max_tres the largest node-level
 * weighted amount (cpu, mem, node, gres/...) plus the others. */
fs_status fs_billing(const uint8_t *alloc, const char *weights, size_t len, bool max_tres,
                     double *out, fs_error *err);

#endif
