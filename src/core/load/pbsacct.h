/*
 * pbsacct.h: PBS Pro / OpenPBS / TORQUE accounting log lines (date;type;id;key=value ...) read
 * in one pass into a record of spans over the line.
 */
#ifndef FS_PBSACCT_H
#define FS_PBSACCT_H

#include "fs_core.h"

#include <stdbool.h>
#include <stdint.h>

/* One key=value pair of the message; offsets are bytes into the line, the value unquoted. */
typedef struct fs_pbs_pair
{
	size_t key_off;
	size_t key_len;
	size_t val_off;
	size_t val_len;
	char quote; /* '"', '\'' or 0 */
} fs_pbs_pair;

/* A host of exec_host with the CPUs it was given (-1: not readable, an anomaly says why). */
typedef struct fs_pbs_host
{
	const char *name;
	size_t len;
	int64_t cpus;
	size_t first; /* order of first appearance */
} fs_pbs_host;

/* The epoch fields, in this order. */
enum
{
	FS_PBS_CTIME,
	FS_PBS_QTIME,
	FS_PBS_ETIME,
	FS_PBS_START,
	FS_PBS_END,
	FS_PBS_NTIMES
};

/* Text fields taken from pairs (index into pairs, or -1 when absent). */
enum
{
	FS_PBS_USER,
	FS_PBS_GROUP,
	FS_PBS_ACCOUNT,
	FS_PBS_PROJECT,
	FS_PBS_QUEUE,
	FS_PBS_JOBNAME,
	FS_PBS_NTEXTS
};

typedef struct fs_pbs_record
{
	const char *line;
	size_t len;
	/* the stamp as written (local time, no zone) */
	int year, month, day, hour, minute, second;
	char type;
	size_t id_off, id_len;
	/* the id read as a job id */
	bool is_job;
	int64_t job_seq;
	bool has_index;
	int32_t array_index;
	bool is_array_parent;
	size_t server_off, server_len; /* server_len 0: none */
	/* the message */
	fs_pbs_pair *pairs;
	size_t npairs, cap;
	/* pair indices in jsonb key order (shorter keys first, then bytes; of a repeated key the
	   earlier pair first, so that the later one, pushed last, is the one jsonb keeps), so that
	   building a jsonb object from them sorts nothing unless a key repeats */
	size_t *by_key;
	long text[FS_PBS_NTEXTS];
	bool has_time[FS_PBS_NTIMES];
	int64_t time[FS_PBS_NTIMES]; /* epoch seconds */
	bool has_exit, has_run_count, has_session;
	int32_t exit_status, run_count;
	int64_t session;
	uint8_t *used;      /* resvec of resources_used.* (encoded, allocator memory) */
	uint8_t *requested; /* resvec of the Resource_List.* amounts */
	size_t *req_text;   /* pairs holding non-amount requests */
	size_t nreq_text;
	fs_pbs_host *hosts;
	size_t nhosts;
	bool has_exec_host;
	/* 'L' (floating license) records carry free text, not key=value pairs */
	bool free_text;
	size_t msg_off, msg_len;
	/* anomalies: NUL-terminated strings one after another */
	fs_sb notes;
	size_t nnotes;
} fs_pbs_record;

/*
 * Read one line. On success every field is set and the arrays are in allocator memory (free
 * them with fs_pbs_free); on a malformed line the status is FS_ERR_SYNTAX and err names the
 * character, and nothing needs freeing.
 */
fs_status fs_pbs_parse(const char *line, size_t len, const fs_allocator *a, fs_pbs_record *rec,
                       fs_error *err);
/* Only split the line and tokenise the message (no field conversion): for pbs_acct_attrs. */
fs_status fs_pbs_tokenize(const char *line, size_t len, const fs_allocator *a, fs_pbs_record *rec,
                          fs_error *err);
void fs_pbs_free(fs_pbs_record *rec, const fs_allocator *a);

/* Name of the n-th field of the enums above ("ctime", ..., "user", ...). */
const char *fs_pbs_time_name(int which);

#endif
