/*
 * slurm_priority.h: SLURM's priority/multifactor plugin: the priority parameters of slurm.conf
 * (or of `scontrol show config` output) read as slurmctld reads them, with its defaults and its
 * quirks (substring PriorityFlags, PriorityMaxAge in minutes rounded up, TRES weights with unit
 * suffixes).
 */
#ifndef FS_SLURM_PRIORITY_H
#define FS_SLURM_PRIORITY_H

#include "fs_core.h"
#include "types/resvec.h"

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
	size_t namelen;
	double weight; /* per base unit: mem and bb weights are per MB */
	int rank; /* the place in SLURM's TRES table that orders the sum: 0 for cpu, 8 for others */
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

/*
 * What SLURM knows of a pending (or running) job for its priority, with the normalisation context
 * of its partition; times in whole seconds since the epoch, resource vectors encoded (NULL for
 * none). A NULL SQL field arrives as its flag false or 0.
 */
typedef struct fs_sprio_job
{
	int64_t submit;
	bool has_accrue;
	int64_t accrue;
	int64_t min_nodes, cpus;
	bool has_time_limit;
	int64_t time_limit; /* seconds */
	bool has_part_max_time;
	int64_t part_max_time; /* seconds */
	const uint8_t *tres, *part_tres;
	double fairshare;
	int64_t assoc_priority, partition_factor, qos_priority, site_factor, nice;
	bool has_direct, has_previous;
	int64_t direct_priority, previous_priority;
} fs_sprio_job;

/* The maxima over every configured association, partition and QOS, and the cluster's size. */
typedef struct fs_sprio_cluster
{
	int64_t nodes, cpus;
	int64_t max_assoc_priority, max_partition_factor, max_qos_priority;
} fs_sprio_cluster;

/* One job's priority as SLURM stores it, with its terms and normalised factors. */
typedef struct fs_sprio_result
{
	int64_t priority; /* floor 1, truncated, capped at 2^32-1, INCR_ONLY applied */
	double sum;       /* before floor and truncation */
	bool direct;      /* an admin-set priority: every term and factor 0 */
	double site, age, assoc, fairshare, jobsize, partition, qos, nice;
	double age_f, assoc_f, fairshare_f, jobsize_f, partition_f, qos_f;
	double *tres, *tres_f; /* per cfg->tres entry, in cfg order (caller's arrays of n_tres) */
} fs_sprio_result;

/*
 * The priority of one job at the calculation pass `now` (seconds since the epoch), as
 * priority/multifactor computes it: the six weighted factors, the TRES terms (summed in SLURM's
 * TRES-table order), the site factor and nice, NO_NORMAL_*, the floor of 1, truncation, the 32-bit
 * cap and INCR_ONLY; an admin-set priority fixes the result. Contradictory or out-of-range fields
 * are FS_ERR_VALUE, a division by zero SLURM would do FS_ERR_DIVZERO. O(entries of the vectors).
 */
fs_status fs_sprio_priority(const fs_sprio_config *cfg, const fs_sprio_job *job,
                            const fs_sprio_cluster *cl, int64_t now, fs_sprio_result *r,
                            fs_error *err);

/* sprio's flags: -l (--long), -n (--norm), -w (--weights), -h (--noheader). */
enum
{
	FS_SPRIO_OPT_LONG = 1,
	FS_SPRIO_OPT_NORM = 2,
	FS_SPRIO_OPT_WEIGHTS = 4,
	FS_SPRIO_OPT_NOHEADER = 8
};

/* The most keys in a -S sort specification. */
#define FS_SPRIO_SORT_MAX 32

/*
 * sprio's command line (without "sprio"): the flags, -o FORMAT, -S sort, and the filters -j
 * (jobs), -p (partitions) and -u (users), each a comma list; the pieces point into the text the
 * options were read from (quotes removed: a quoted word is copied into `buf`).
 */
typedef struct fs_sprio_opts
{
	int flags;
	bool has_format, has_jobs, has_parts, has_users;
	bool jobs_given; /* -j came with a list (else it lists every job) */
	fs_str format, jobs, parts, users;
	size_t nsort;
	char sort[FS_SPRIO_SORT_MAX]; /* the letters of -S, the primary key first */
	bool descend[FS_SPRIO_SORT_MAX];
	char *buf; /* allocator memory for unquoted words, NULL when none; fs_sprio_opts_free */
} fs_sprio_opts;

/*
 * Read sprio's options as its getopt does: words split on white space, single or double quotes
 * grouping (`-o "%.15i %.10Y"`), short options clustered (`-lnw`, `-o%i`), long ones with `=` or
 * the next word (`--format=...`, `--sort y`), `-j` with an optional list (in the same word, or as
 * the one word left over, as sprio takes it). `-l` with `-o`, an unknown option, a missing
 * argument, a sort letter sprio does not know ("Invalid sort specification") and options that
 * need a live controller (`-M`, `--federation`, `--local`, `--sibling`) are FS_ERR_SYNTAX. O(len).
 */
fs_status fs_sprio_options_parse(const char *s, size_t len, fs_sprio_opts *o, const fs_allocator *a,
                                 fs_error *err);
void fs_sprio_opts_free(fs_sprio_opts *o, const fs_allocator *a);

/* One job as sprio lists it: its names and its priority as fs_sprio_priority gave it. */
typedef struct fs_sprio_row
{
	fs_str job_id, partition, user, account, qos;
	const fs_sprio_result *r;
	/* the job id read as numbers, set by fs_sprio_print for its sorts (callers leave them) */
	bool id_numeric;
	int64_t id_num, id_task;
} fs_sprio_row;

/*
 * The lines sprio prints for these jobs and options, header first (unless -h), each ended by a
 * newline: the rows the -j, -p and -u filters keep, in the -S order (default job id ascending;
 * each sort stable, ties in the input order), in the -o format or the layout of the options and
 * the configured release (22.05's -l has no ACCOUNT or QOSNAME column). Rows is reordered. A
 * format letter sprio does not know for the release is left out with its suffix, as sprio does
 * ("Invalid job format specification"): *bad_letter is set to the first such letter, else 0.
 * O(n log n) rows times the sort keys.
 */
void fs_sprio_print(const fs_sprio_config *cfg, fs_sprio_row *rows, size_t n,
                    const fs_sprio_opts *o, fs_sb *out, char *bad_letter, const fs_allocator *a);

/* A partition as a multi-partition job's priority needs it (sinfo / scontrol show partition). */
typedef struct fs_sprio_part
{
	fs_str name;
	int64_t factor; /* PriorityJobFactor */
	bool has_max_time;
	int64_t max_time;    /* seconds */
	const uint8_t *tres; /* the partition's TRES totals (encoded resvec), NULL for none */
} fs_sprio_part;

/* A QOS as a multi-QOS job's priority needs it (sacctmgr show qos). */
typedef struct fs_sprio_qos
{
	fs_str name;
	int64_t priority;
} fs_sprio_qos;

/* One (partition, QOS) pair of a job and its priority there. */
typedef struct fs_sprio_pair
{
	fs_str partition, qos;
	fs_sprio_result r; /* r.tres and r.tres_f are allocated, cfg->n_tres each */
} fs_sprio_pair;

/* The most (partition, QOS) pairs one job may give (more is FS_ERR_LIMIT). */
#define FS_SPRIO_PAIRS_MAX 100000

/*
 * A job's priority in each partition and QOS it names, as SLURM keeps one per pair
 * (_priority_each_partition, _priority_each_qos): `partitions` and `qos` are the job's comma
 * lists ("batch,debug"); each partition is looked up in parts (its PriorityJobFactor, MaxTime and
 * TRES totals replace the job's) and each QOS in qoss (its priority replaces the job's, except a
 * QOS of priority 0, which leaves the job's QOS term as it is). With parts NULL the job's own
 * partition fields apply, with qoss NULL its own QOS priority (the list must then name one). An
 * empty list is one pair with an empty name. The job's previous_priority is the INCR_ONLY value of
 * a job of one pair only: SLURM keeps a job of several pairs one previous priority per pair
 * (fs_sprio_pairs_incr_only). Pairs come partition by partition in the job's
 * order, each with the QOS in the job's order. An unknown or empty name is FS_ERR_VALUE, more than
 * FS_SPRIO_PAIRS_MAX pairs FS_ERR_LIMIT. O(P * Q * (cost of fs_sprio_priority) + (P + Q) * the
 * arrays' lengths).
 */
fs_status fs_sprio_priority_each(const fs_sprio_config *cfg, const fs_sprio_job *job,
                                 fs_str partitions, fs_str qos, const fs_sprio_part *parts,
                                 size_t nparts, const fs_sprio_qos *qoss, size_t nqos,
                                 const fs_sprio_cluster *cl, int64_t now, fs_sprio_pair **out,
                                 size_t *n, const fs_allocator *a, fs_error *err);

/*
 * The priority one (partition, QOS) pair of a job had at the previous calculation pass, for
 * INCR_ONLY: SLURM keeps a job that names several partitions (or, from 24.11, several QOS) a
 * priority per pair in its priority_array, each raised only by that pair's new value. An empty
 * name (NULL) is the pair of a job that names no partition or no QOS.
 */
typedef struct fs_sprio_prev
{
	fs_str partition, qos;
	int64_t priority;
} fs_sprio_prev;

/*
 * INCR_ONLY per pair on the pairs fs_sprio_priority_each gave: with the flag set, each pair that
 * has an entry in prev keeps that previous priority when it is higher than its new one (as
 * _get_priority_internal does for each entry of priority_array); an admin-set priority is left as
 * it is. Without the flag nothing changes, but the entries are checked all the same: a priority
 * out of 0..4294967295, an entry naming a pair the job does not have, and two entries for one
 * pair are FS_ERR_VALUE. O(n * nprev).
 */
fs_status fs_sprio_pairs_incr_only(const fs_sprio_config *cfg, fs_sprio_pair *pairs, size_t n,
                                   const fs_sprio_prev *prev, size_t nprev, fs_error *err);

/*
 * One pending job in one partition, as the main scheduler sorts its queue: the partition's
 * PriorityTier, the job's priority in that partition (as fs_sprio_priority stores it), its submit
 * time (whole seconds) and its id. `index` is the caller's, carried through the sort.
 */
typedef struct fs_sprio_order_key
{
	int64_t tier, priority, submit;
	fs_str job_id;
	size_t index;
	/* filled by fs_sprio_order: the id as numbers (an array task "123_4" is 123 and 4) */
	int64_t id_num, id_task;
	bool id_numeric;
} fs_sprio_order_key;

/*
 * The order of slurmctld's main scheduler (sort_job_queue2 in job_scheduler.c): PriorityTier
 * higher first, then priority higher first, then submit time earlier first, then job id lower
 * first (numbers when the ids are, an array's tasks by task id; other ids as text), then the
 * input order (SLURM leaves that last tie to its list sort; fairsched keeps it deterministic).
 * Preemption and advanced reservations, which SLURM puts first, are not among the inputs. Sorts
 * keys in place and sets decided[i] to the step that placed keys[i] after keys[i - 1] (NULL for
 * i = 0), a static string. O(n log n) time, n keys of scratch; cancellable between passes.
 */
void fs_sprio_order(fs_sprio_order_key *keys, size_t n, const char **decided,
                    const fs_allocator *a);

/* The canonical name of flag bit i (0 <= i < FS_SPRIO_NFLAGS). */
const char *fs_sprio_flag_name(int i);

/* SLURM's time_str2mins: minutes rounded up, -1 for INFINITE, -2 (NO_VAL) for bad text. */
int32_t fs_sprio_time_str2mins(const char *s, size_t len);

#endif
