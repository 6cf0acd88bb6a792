/*
 * msic_config.h: the MSIC-Cluster PBS scheduler's configuration file, its holidays file and its
 * prime-time calendar (docs/msic.md), on plain numbers and text. The
 * calendar itself is declared in msic_prime.h, included here.
 */
#ifndef FS_MSIC_CONFIG_H
#define FS_MSIC_CONFIG_H

#include "fs_core.h"
#include "msic/msic_prime.h"

/* An unset string field. */
#define FS_MSIC_NONE ((size_t) -1)

/* Longest names the original's fixed buffers hold (50 and 30 bytes, with the terminator). */
#define FS_MSIC_EXPRESS_MAX    49
#define FS_MSIC_FAIR_QUEUE_MAX 29
/* Longest configuration line the original reads (fgets into 512 bytes, newline included). */
#define FS_MSIC_LINE_MAX 509

/* Strings are offsets into fs_msic_config.strs (NUL-terminated there); FS_MSIC_NONE when unset. */
typedef struct fs_msic_qent
{
	size_t name;
	size_t host; /* FS_MSIC_NONE: a bare name and no local host given */
} fs_msic_qent;

typedef struct fs_msic_fair
{
	size_t queue;
	int shares;
	int max_run_pct;
	int line;
} fs_msic_fair;

/* A local wall-clock date and time, as written (the glue places it in the session time zone). */
typedef struct fs_msic_date
{
	int year, mon, mday, hour, min, sec;
} fs_msic_date;

typedef struct fs_msic_config
{
	fs_sb strs;
	fs_msic_qent *submit;
	size_t n_submit, cap_submit;
	fs_msic_qent *batch;
	size_t n_batch, cap_batch;
	fs_msic_fair *fair;
	size_t n_fair, cap_fair;
	size_t express_queue; /* "" by default */
	bool enforce_prime_time;
	bool has_prime_from; /* ENFORCE_PRIME_TIME in its date form */
	fs_msic_date prime_from;
	int64_t prime_start, prime_end, wallt_limit, max_wait_time; /* seconds */
	double target_load_pct, target_load_minus, target_load_plus, suspend_threshold;
	bool force_requeue, update_comments;
	int max_user_run_jobs;
	size_t sched_host, share_info_file, sorted_job_dumpfile;
	const char *sched_restart_action; /* "NONE", "RESUBMIT" or "RERUN" */
	/*
	 * Built from a composite value (fs_msic_config_init), not parsed: unset fields keep the
	 * original's defaults, nothing is required, and errors name the field, not a line.
	 */
	bool from_value;
} fs_msic_config;

/* The string at an offset, NULL for FS_MSIC_NONE. */
const char *fs_msic_str(const fs_msic_config *cfg, size_t off);

/*
 * Parse and validate a whole configuration file. local_host (NUL-terminated, or NULL) is the
 * host a bare queue name gets, lower-cased. On success the caller frees cfg with
 * fs_msic_config_free; on failure nothing is left allocated. Errors are FS_ERR_SYNTAX: "line N:
 * ..." for the first bad line, or the original's whole-file message.
 */
fs_status fs_msic_config_parse(const char *text, size_t len, const char *local_host,
                               fs_msic_config *cfg, const fs_allocator *a, fs_error *err);
void fs_msic_config_free(fs_msic_config *cfg, const fs_allocator *a);

/*
 * Building a configuration from a composite value: init sets the original's defaults
 * (schedinit.c:reset_config) and from_value; add_str copies a string into the pool and returns
 * its offset; the add functions append a SUBMIT_QUEUE or BATCH_QUEUES entry (host FS_MSIC_NONE:
 * none) or a FAIR_SHARE entry (line 0: not from a file).
 */
void fs_msic_config_init(fs_msic_config *cfg, const fs_allocator *a);
size_t fs_msic_config_add_str(fs_msic_config *cfg, const char *s, size_t n);
void fs_msic_config_add_queue(fs_msic_config *cfg, bool submit, size_t name, size_t host,
                              const fs_allocator *a);
void fs_msic_config_add_fair(fs_msic_config *cfg, size_t queue, int shares, int max_run_pct,
                             int line, const fs_allocator *a);

/*
 * Every rule of the file on a configuration, parsed or built: each field holds a value the file
 * can hold (names, times, counts, restart action, FAIR_SHARE ranges), no BATCH_QUEUES or
 * FAIR_SHARE entry is repeated, the submit queue is not a batch queue, prime time enforced has
 * its start, end and limit, and FAIR_SHARE totals 100. A parsed file also needs SUBMIT_QUEUE
 * and BATCH_QUEUES. The messages are the parser's; for a built value they carry no line
 * number but a context naming the field, and the status is FS_ERR_VALUE instead of
 * FS_ERR_SYNTAX. Linear in the entries (hash indexes), polling the interrupt hook.
 */
fs_status fs_msic_config_validate(const fs_msic_config *cfg, const fs_allocator *a, fs_error *err);

/* A configuration file that parses back to the same settings (for round trips). */
void fs_msic_config_format(fs_sb *sb, const fs_msic_config *cfg);

/*
 * Parse a holidays file (SGI accounting format) into sorted distinct days of the year 1..366.
 * *days is allocated (release it) when *n > 0, NULL otherwise.
 */
fs_status fs_msic_holidays_parse(const char *text, size_t len, int **days, size_t *n,
                                 const fs_allocator *a, fs_error *err);

/* Seconds as the original prints a time: HH:MM:SS, hours unbounded. buf needs 32 bytes. */
void fs_msic_format_hms(int64_t secs, char *buf);

#endif
