/*
 * pbs_priority.h: PBS's job_sort_formula (the PP-718 design): the server's validation of a
 * formula with its three error codes, the resourcedef file of custom resources, and the value
 * the scheduler computes for a job, on the formula language of types/pbs_formula.h.
 */
#ifndef FS_PBS_PRIORITY_H
#define FS_PBS_PRIORITY_H

#include "fs_core.h"
#include "types/pbs_formula.h"

/* The types of PBS resources (resourcedef's type=). */
typedef enum fs_pbs_restype
{
	FS_PBS_RES_LONG,
	FS_PBS_RES_FLOAT,
	FS_PBS_RES_SIZE,
	FS_PBS_RES_DURATION,
	FS_PBS_RES_BOOLEAN,
	FS_PBS_RES_STRING,
	FS_PBS_RES_STRING_ARRAY
} fs_pbs_restype;

/* A site's custom resources, from the text of a resourcedef file. */
typedef struct fs_pbs_resdef
{
	size_t n;
	fs_str *names; /* into the text given to the reader, which must outlive this */
	fs_pbs_restype *types;
} fs_pbs_resdef;

/*
 * Read a resourcedef file: one resource per line, `name type=<type> [flag=<flags>]`, `#`
 * comments and blank lines ignored; types long, float, size, boolean, string, string_array,
 * duration; flags letters of "fhimnqr". A bad line is a syntax error at its character; a name
 * twice, or a built-in resource's name, is FS_ERR_VALUE. O(n log n) in the text's length.
 */
fs_status fs_pbs_resourcedef_parse(const char *text, size_t len, const fs_allocator *a,
                                   fs_pbs_resdef *out, fs_error *err);
void fs_pbs_resourcedef_free(fs_pbs_resdef *rd, const fs_allocator *a);

/* The keywords PBS gives a formula, besides resources. */
typedef enum fs_pbs_keyword
{
	FS_PBS_KW_NONE = -1,
	FS_PBS_KW_ELIGIBLE_TIME,
	FS_PBS_KW_QUEUE_PRIORITY,
	FS_PBS_KW_JOB_PRIORITY,
	FS_PBS_KW_FAIRSHARE_PERC,
	FS_PBS_KW_FAIR_SHARE_PERC,
	FS_PBS_KW_FAIRSHARE_TREE_USAGE,
	FS_PBS_KW_FAIRSHARE_FACTOR,
	FS_PBS_KW_ACCRUE_TYPE
} fs_pbs_keyword;

fs_pbs_keyword fs_pbs_keyword_of(const char *name, size_t len);

/* The PBS error codes of the server's validation. */
#define FS_PBS_E_FORMULA_FORMAT  15123
#define FS_PBS_E_FORMULA_KEYWORD 15124
#define FS_PBS_E_FORMULA_RESTYPE 15125

/*
 * Compile a job_sort_formula and validate it as the PBS server does: a syntax error is 15123
 * "Invalid Formula Format", a name that is neither a keyword, a resource (built-in, or of `rd`
 * when given) nor one of Python's or math's names 15124 "Formula contains invalid keyword", a
 * resource of a type other than numeric 15125 "Formula contains a resource of an invalid type";
 * each FS_ERR_SYNTAX with the code and PBS's message leading the detail, *code set. With
 * `unknown_ok` a name not known is taken for a custom numeric resource (the type's input, which
 * has no resourcedef). O(n log n) in the formula's length.
 */
fs_status fs_pbs_formula_compile(const char *formula, size_t len, const fs_pbs_resdef *rd,
                                 bool unknown_ok, const fs_allocator *a, fs_pf_prog **prog,
                                 int *code, fs_error *err);

/* What a job gives the formula besides its resources. */
typedef struct fs_pbs_job_keys
{
	double eligible_time; /* seconds */
	int queue_priority, job_priority, accrue_type;
	double fairshare_perc, fairshare_tree_usage; /* 0 when the job's entity has none */
} fs_pbs_job_keys;

/* The keyword of each slot of a compiled formula (FS_PBS_KW_NONE: a resource), into kw. */
void fs_pbs_formula_keywords(const fs_pf_prog *prog, int *kw);

/*
 * The value PBS stores for a job: the formula over the job's requested resources in the
 * scheduler's units with at most 4 decimals (sizes in kb rounded up, durations in seconds, a
 * resource not requested 0), the keywords as PBS formats them (integers; the fairshare keywords
 * with 6 decimals; fairshare_factor = 2^-(usage/perc), 0 when perc is 0), and the result as a
 * 32-bit float. `kw` is from fs_pbs_formula_keywords; `vals` has room for the program's slots. An
 * evaluation error is returned (PBS then uses 0) with Python's message. O(formula + entries of
 * requested); allocates nothing.
 */
fs_status fs_pbs_formula_value(fs_pf_prog *prog, const int *kw, double *vals,
                               const uint8_t *requested, const fs_pbs_job_keys *keys, float *result,
                               fs_error *err);

/* PBS's log line for an evaluation error (before it uses 0 as the value). */
#define FS_PBS_FORMULA_ERROR_LOG                                                                   \
	"Formula evaluation for job had an error.  Zero value will be used: "

/* ---- the job order (the scheduler's sort of its pending jobs) ---------------------------- */

/* What PBS writes in the comment of a job at or below job_sort_formula_threshold. */
#define FS_PBS_THRESHOLD_COMMENT "Not Running: Job is under job_sort_formula threshold value"

/* Jobs at or below the threshold (not only below: 7 <= 7) are not run; NaN is never below. */
static inline bool
fs_pbs_under_threshold(float value, double threshold)
{
	return (double) value <= threshold;
}

/* The job_sort_key entries' names besides resources. */
typedef enum fs_pbs_sort_name
{
	FS_PBS_SK_RESOURCE,
	FS_PBS_SK_JOB_PRIORITY, /* job_priority, and its older name sort_priority */
	FS_PBS_SK_FAIR_SHARE_PERC,
	FS_PBS_SK_PREEMPT_PRIORITY /* the job's express class: 1 express, 0 not */
} fs_pbs_sort_name;

/* One job_sort_key entry, `name HIGH` or `name LOW`. */
typedef struct fs_pbs_sort_key
{
	fs_str name; /* into the text given to the reader */
	fs_pbs_sort_name what;
	bool high; /* HIGH: larger values first */
} fs_pbs_sort_key;

/*
 * Read one job_sort_key entry as sched_config writes it without its quotes: a resource name (or
 * job_priority, sort_priority, fair_share_perc, preempt_priority), blanks, then HIGH or LOW (any
 * case). A bad entry is FS_ERR_SYNTAX at its character. O(len).
 */
fs_status fs_pbs_sort_key_parse(const char *text, size_t len, fs_pbs_sort_key *out, fs_error *err);

/*
 * A job's value for a sort key: a resource as the formula sees it (PBS's units, 0 when not
 * requested), job_priority, fair_share_perc (6 decimals), or 1/0 for an express job.
 * O(entries of requested).
 */
double fs_pbs_sort_key_value(const fs_pbs_sort_key *k, const uint8_t *requested,
                             const fs_pbs_job_keys *keys, bool express);

/* A pending job as the order compares it. */
typedef struct fs_pbs_order_job
{
	fs_str queue, job_id;
	int queue_priority;
	bool express;
	float value;        /* the formula value, as PBS stores it */
	uint32_t fs_rank;   /* the entity's fairshare rank (1 most deserving), UINT32_MAX: none */
	bool has_qtime;     /* qtime unknown: after every known one */
	int64_t qtime;      /* microseconds */
	const double *keys; /* one value per sort key */
} fs_pbs_order_job;

/* What put a job after the one before it in the order. */
typedef enum fs_pbs_decided
{
	FS_PBS_BY_FIRST, /* the first job (of the order, or of its queue's with by_queue) */
	FS_PBS_BY_QUEUE,
	FS_PBS_BY_EXPRESS,
	FS_PBS_BY_FORMULA,
	FS_PBS_BY_FAIRSHARE,
	FS_PBS_BY_SORT_KEY,
	FS_PBS_BY_QTIME,
	FS_PBS_BY_JOB_ID,
	FS_PBS_BY_INPUT
} fs_pbs_decided;

/* The name of a fs_pbs_decided value as pbs_job_order prints it (NULL for the first). */
const char *fs_pbs_decided_name(fs_pbs_decided d);

typedef struct fs_pbs_order_opts
{
	const fs_pbs_sort_key *keys;
	size_t nkeys;
	bool by_queue;  /* queues in order of priority (then name), the sort inside each */
	bool fairshare; /* compare fs_rank (PBS's compare_path, with fair_share on) */
} fs_pbs_order_opts;

/*
 * PBS's order of pending jobs (the scheduler's cmp_sort): with by_queue the queue (priority
 * higher first, then name), then express jobs first, the formula value higher first (compared
 * as the float PBS stores, so values a float cannot tell apart tie; NaN after every number),
 * the fairshare rank, the sort keys in turn, qtime (PBS's queue rank), the job id's sequence
 * number and array index (PBS's submission rank), the job id's bytes, and the input position.
 * order[i] is the input index of the i-th job; decided[i] the key at which it differs from the
 * job before it. O(n log n) comparisons of O(nkeys); n entries of scratch.
 */
void fs_pbs_job_order(const fs_pbs_order_job *jobs, size_t n, const fs_pbs_order_opts *opts,
                      const fs_allocator *a, uint32_t *order, uint8_t *decided);

/* ---- eligible time (the server's accrue types) ------------------------------------------- */

/* PBS's accrue types: what a job's time counts as while it has the type. */
#define FS_PBS_ACCRUE_INITIAL    0
#define FS_PBS_ACCRUE_INELIGIBLE 1
#define FS_PBS_ACCRUE_ELIGIBLE   2
#define FS_PBS_ACCRUE_RUN        3
#define FS_PBS_ACCRUE_EXIT       4

/* One change of a job's accrue type, at a time in microseconds. */
typedef struct fs_pbs_accrue
{
	int64_t at;
	int type;
} fs_pbs_accrue;

/* Whether a number is one of PBS's accrue types (0 to 4). */
static inline bool
fs_pbs_accrue_type_ok(int64_t type)
{
	return type >= FS_PBS_ACCRUE_INITIAL && type <= FS_PBS_ACCRUE_EXIT;
}

/*
 * A job's eligible_time from its accrue-type changes, as the server accrues it
 * (update_eligible_time): the changes in time order (stable: changes at one instant in the order
 * given), each on PBS's clock of whole seconds (floored); at each change the time since the one
 * before is added when that one's type was eligible (2). A change to the type the job already
 * has restarts the sample and adds the same. Sorts ev in place. O(n log n).
 */
int64_t fs_pbs_eligible_seconds(fs_pbs_accrue *ev, size_t n, const fs_allocator *a);

#endif
