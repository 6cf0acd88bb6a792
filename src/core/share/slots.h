/*
 * slots.h: HTCondor slot weights for partitionable machines (the HTCondor-users SlotWeight
 * thread; docs/slot-weights.md ("Slot weights")) and SLURM TRES billing (TRESBillingWeights,
 * PriorityFlags=MAX_TRES).
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

/* How the weighted TRES add up: SLURM's PriorityFlags MAX_TRES and MAX_TRES_GRES, or neither. */
typedef enum fs_billing_mode
{
	FS_BILLING_SUM = 0,      /* the sum of every weighted TRES */
	FS_BILLING_MAX_TRES = 1, /* the largest node-level one (cpu, mem, node, gres/...) + the rest */
	FS_BILLING_MAX_TRES_GRES = 2 /* the largest of cpu, mem, node + every gres/... + the rest */
} fs_billing_mode;

/* The mode of billing(max_tres, max_tres_gres); both true is an error (SLURM has one or other). */
fs_status fs_billing_mode_of(bool max_tres, bool max_tres_gres, fs_billing_mode *mode,
                             fs_error *err);

/* TRESBillingWeights: the billing of an allocation, its weighted TRES added up as `mode` says. */
fs_status fs_billing(const uint8_t *alloc, const char *weights, size_t len, fs_billing_mode mode,
                     double *out, fs_error *err);

#endif
