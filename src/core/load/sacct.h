/*
 * sacct.h: Slurm accounting text: one `sacct --parsable2` row read against its header line,
 * and Slurm durations ([D-]HH:MM:SS, MM:SS.mmm) and sizes (1.50G).
 * Everything reads in one pass and points into the input; nothing here knows about time zones:
 * dates come back broken down as written (or as exact epochs) for the glue to convert.
 */
#ifndef FS_SACCT_H
#define FS_SACCT_H

#include "fs_core.h"

#include <stdbool.h>
#include <stdint.h>

/* The columns the record maps onto fields; every other column goes to `extra`. */
typedef enum fs_sacct_col
{
	FS_SC_JOBID = 0,
	FS_SC_JOBIDRAW,
	FS_SC_CLUSTER,
	FS_SC_PARTITION,
	FS_SC_ACCOUNT,
	FS_SC_USER,
	FS_SC_GROUP,
	FS_SC_QOS,
	FS_SC_STATE,
	FS_SC_EXITCODE,
	FS_SC_SUBMIT,
	FS_SC_ELIGIBLE,
	FS_SC_START,
	FS_SC_END,
	FS_SC_ELAPSED,
	FS_SC_TIMELIMIT,
	FS_SC_NCPUS,
	FS_SC_ALLOCCPUS, /* ncpus when there is no NCPUS column (also kept in extra) */
	FS_SC_NNODES,
	FS_SC_ALLOCNODES, /* nnodes when there is no NNodes column (also kept in extra) */
	FS_SC_REQMEM,
	FS_SC_ALLOCTRES,
	FS_SC_REQTRES,
	FS_SC_JOBNAME, /* kept in extra; the column that may hold the delimiter */
	FS_SC_NKNOWN
} fs_sacct_col;

/* The longest delimiter (sacct --delimiter) read; a longer one is a 54000 error. */
#define FS_SACCT_MAX_DELIM 64

/*
 * A parsed header: the column names (spans into the header text), where the known ones are, and
 * the delimiter the rows are split on. A header without the delimiter but with commas is a
 * --format list (`jobid,user,jobname%30`: the names of a --noheader export, widths dropped);
 * rows read against it may end with one delimiter more (sacct -p), which is then dropped.
 */
typedef struct fs_sacct_header
{
	char delim[FS_SACCT_MAX_DELIM + 1];
	size_t dlen;
	bool format_list;
	fs_str *names;
	int *known;           /* per column: its fs_sacct_col, or -1 */
	size_t ncols;         /* without the empty name after a trailing delimiter */
	bool trailing;        /* `sacct -p`: every line ends with the delimiter */
	int at[FS_SC_NKNOWN]; /* column index of each known column, or -1 */
	/* ElapsedRaw (seconds) and TimelimitRaw (minutes): elapsed_s and timelimit_s when there is
	 * no Elapsed or Timelimit column (both also kept in extra), or -1 */
	int at_elapsed_raw, at_timelimit_raw;
	/* the columns that go to `extra`, in jsonb's key order (shorter names first, then bytes) */
	size_t *extra_cols;
	size_t nextra_cols;
} fs_sacct_header;

/*
 * Parse a header line split on `delim` (sacct's default is "|"), or a --format list. An empty or
 * over-long delimiter is FS_ERR_VALUE / FS_ERR_LIMIT; a header that names none of the known
 * columns is a syntax error that asks about the delimiter and the header. Linear in the text
 * times the delimiter's length.
 */
fs_status fs_sacct_header_parse(const char *text, size_t len, const char *delim, size_t dlen,
                                const fs_allocator *a, fs_sacct_header *h, fs_error *err);
void fs_sacct_header_free(fs_sacct_header *h, const fs_allocator *a);

/* A date as written: absent, broken-down local time, or exact epoch seconds. */
typedef enum fs_sacct_time_kind
{
	FS_ST_NONE = 0,
	FS_ST_LOCAL,
	FS_ST_EPOCH
} fs_sacct_time_kind;

typedef struct fs_sacct_time
{
	int kind;
	int year, mon, mday, hour, min, sec;
	int64_t epoch;
} fs_sacct_time;

/* A column of `extra`: its name and value (val.s NULL when the field is empty: a JSON null). */
typedef struct fs_sacct_extra
{
	fs_str key;
	fs_str val;
} fs_sacct_extra;

/* Optional numbers carry their own has_ flag. */
typedef struct fs_sacct_record
{
	fs_str job_id, job_id_raw, step;
	fs_str cluster, partition, account, user, group, qos, state;
	bool has_job_seq, has_array_job_id, has_array_task_id, has_het_job_id, has_het_offset;
	int64_t job_seq, array_job_id, het_job_id;
	int32_t array_task_id, het_offset;
	bool has_cancelled_by, has_exit_code, has_signal;
	int32_t cancelled_by, exit_code, signal;
	fs_sacct_time submit, eligible, start, end;
	bool has_elapsed, has_timelimit, has_ncpus, has_nnodes, has_req_mem;
	double elapsed_s, timelimit_s, req_mem_bytes;
	int32_t ncpus, nnodes;
	uint8_t *alloc_tres; /* encoded resvec in allocator memory, NULL when absent */
	size_t alloc_tres_len;
	uint8_t *req_tres;
	size_t req_tres_len;
	/* every other column as a string (null when empty), spans into the line and the header: the
	   header's columns in jsonb key order, then array_task_spec when JobID has one */
	fs_sacct_extra *extra;
	size_t nextra;
	fs_sb anomalies; /* NUL-terminated entries one after another */
	size_t nanomalies;
} fs_sacct_record;

/*
 * Parse one row against its header. On success the record's spans point into `line` and its
 * buffers are in allocator memory (fs_sacct_record_free frees them); on failure nothing is
 * left allocated and err names the character.
 */
fs_status fs_sacct_parse_row(const fs_sacct_header *h, const char *line, size_t len,
                             const fs_allocator *a, fs_sacct_record *rec, fs_error *err);
void fs_sacct_record_free(fs_sacct_record *rec, const fs_allocator *a);
/* The entry of `extra` named key (the last, if two are), or NULL. O(entries). */
const fs_sacct_extra *fs_sacct_extra_get(const fs_sacct_record *rec, const char *key);

/*
 * A Slurm duration in seconds. *is_null is set (and *why names the word) for UNLIMITED,
 * Partition_Limit, Unknown, INVALID and the empty string.
 */
fs_status fs_slurm_duration(const char *s, size_t len, double *seconds, bool *is_null,
                            const char **why, fs_error *err);

#endif
