/*
 * slurm_priority.h: SLURM's priority/multifactor plugin: the priority parameters of slurm.conf
 * (or of `scontrol show config` output) read as slurmctld reads them, with its defaults and its
 * quirks (substring PriorityFlags, PriorityMaxAge in minutes rounded up, TRES weights with unit
 * suffixes).
 */
#ifndef FS_SLURM_PRIORITY_H
#define FS_SLURM_PRIORITY_H

#include "fs_core.h"

/* PriorityFlags bits, in the order `scontrol show config` prints them. */
enum
{
	FS_SPRIO_ACCRUE_ALWAYS = 1u << 0,
	FS_SPRIO_SMALL_RELATIVE_TO_TIME = 1u << 1,
	FS_SPRIO_CALCULATE_RUNNING = 1u << 2,
	FS_SPRIO_DEPTH_OBLIVIOUS = 1u << 3,
	FS_SPRIO_NO_FAIR_TREE = 1u << 4,
	FS_SPRIO_INCR_ONLY = 1u << 5,
	FS_SPRIO_MAX_TRES = 1u << 6,
	FS_SPRIO_MAX_TRES_GRES = 1u << 7,
	FS_SPRIO_NO_NORMAL_ASSOC = 1u << 8,
	FS_SPRIO_NO_NORMAL_PART = 1u << 9,
	FS_SPRIO_NO_NORMAL_QOS = 1u << 10,
	FS_SPRIO_NO_NORMAL_TRES = 1u << 11
};
#define FS_SPRIO_NFLAGS 12

/* The oldest release whose priority factors this module reproduces, and the newest it knows. */
#define FS_SPRIO_VERSION_MIN    1905
#define FS_SPRIO_VERSION_NEWEST 2605

/* One PriorityWeightTRES entry: the TRES name as SLURM spells it ("cpu", "gres/gpu"). */
typedef struct fs_sprio_tres_weight
{
	char *name;
	double weight; /* per base unit: mem and bb weights are per MB */
} fs_sprio_tres_weight;

typedef struct fs_sprio_config
{
	int version;      /* major * 100 + minor: 2205 for 22.05 */
	bool multifactor; /* PriorityType=priority/multifactor (else priority/basic) */
	uint32_t weight_age, weight_assoc, weight_fairshare, weight_jobsize, weight_partition,
	    weight_qos;
	char *weight_tres; /* PriorityWeightTRES as written (NUL-terminated), NULL when unset */
	fs_sprio_tres_weight *tres;
	size_t n_tres;
	uint32_t max_age;     /* seconds, as slurmctld stores it: minutes * 60 in 32 bits */
	uint32_t calc_period; /* seconds */
	bool favor_small;
	uint32_t flags; /* FS_SPRIO_* */
} fs_sprio_config;

/*
 * A SLURM release "YY.MM" (optionally ".patch..."): *version = YY * 100 + MM. Releases before
 * 19.05 are refused (no association or site factor). O(len).
 */
fs_status fs_sprio_version_parse(const char *s, size_t len, int *version, fs_error *err);

/*
 * Read the priority parameters of slurm.conf text or `scontrol show config` output: `Key=Value`
 * pairs (several on a line) or one `Key = Value` per line, keys in any case, `#` comments, the
 * lines of NodeName, PartitionName and the other records skipped, other keys ignored, a repeated
 * key's last value kept (as slurmctld does). The SLURM_VERSION line, or `version` when not NULL,
 * selects the release (default the newest known). Bad values are FS_ERR_SYNTAX naming the line
 * and the parameter. O(len + entries of PriorityWeightTRES); cfg owns its memory.
 */
fs_status fs_sprio_config_parse(const char *text, size_t len, const char *version,
                                size_t version_len, fs_sprio_config *cfg, const fs_allocator *a,
                                fs_error *err);
void fs_sprio_config_free(fs_sprio_config *cfg, const fs_allocator *a);

/*
 * PriorityWeightTRES: `TYPE[/NAME]=weight[unit]`, comma-separated, the type in any case; a unit
 * K, M, G, T or P divides by 1024 per step above the TRES's base unit (M for mem and bb, none
 * otherwise). The known types are cpu, mem, energy, node, billing, vmem, pages, and with a name
 * gres, license, bb, fs and ic. O(len).
 */
fs_status fs_sprio_tres_weights_parse(const char *s, size_t len, fs_sprio_tres_weight **out,
                                      size_t *n, const fs_allocator *a, fs_error *err);

/* The canonical name of flag bit i (0 <= i < FS_SPRIO_NFLAGS). */
const char *fs_sprio_flag_name(int i);

/* SLURM's time_str2mins: minutes rounded up, -1 for INFINITE, -2 (NO_VAL) for bad text. */
int32_t fs_sprio_time_str2mins(const char *s, size_t len);

#endif
