/*
 * msic_glue.h (glue): what the MSIC modules' glue shares: the msic_share, msic_job, msic_host and
 * msic_queue arrays (read with fs_pg.h's composite reader), the one reader of a msic_config
 * value and what is derived from it (the order's inputs, the prime-time settings), the session
 * time zone's clock and ctime(3)-style times.
 */
#ifndef FS_PG_MSIC_GLUE_H
#define FS_PG_MSIC_GLUE_H

#include "fs_pg.h"

#include "access/htup_details.h"
#include "utils/array.h"
#include "utils/timestamp.h"

#include "msic/msic_cycle.h"

/* A float8 field: -1 when NULL, else finite and not negative (22023 otherwise). */
double fs_pg_amount_field(const fs_pg_row_reader *r, int f, const char *what, const char *kind,
                          const char *whose, size_t len);

/*
 * (msic_config.c) A msic_config value, read once: the core's configuration (the struct the text
 * parser fills), NULL fields holding the original's defaults, validated by
 * fs_msic_config_validate; beside it what the composite holds that a file does not.
 */
typedef struct fs_pg_msic_config
{
	fs_msic_config cfg;
	/* the intervals to the microsecond (cfg holds them in whole seconds, as a file does) */
	int64 prime_start_us, prime_end_us, wallt_limit_us, max_wait_us;
	bool has_prime_from; /* prime_time_from given: prime time enforced from that instant on */
	TimestampTz prime_from;
	ArrayType *holidays; /* NULL: none; decoded and checked where prime time is enforced */
	int nbatch_hosts;    /* the length of batch_hosts, which the cycle pairs with batch_queues */
	/* fair_share entries cfg cannot hold, refused by the functions that use the entries: */
	int fair_null_field; /* the first with a NULL shares or max_run_pct (1-based), 0: none */
	int *fair_no_queue;  /* those with only the queue NULL (1-based, ascending) */
	int nfair_no_queue;
} fs_pg_msic_config;

void fs_pg_msic_config_from_record(HeapTupleHeader rec, fs_pg_msic_config *out);

/* (msic_order.c) The order's inputs of a configuration: submit and express queues, MAX_WAIT_TIME
 * and the FAIR_SHARE entries. */
void fs_pg_msic_order_config(const fs_pg_msic_config *c, fs_msic_order_in *in);
void fs_pg_msic_read_shares(ArrayType *arr, fs_msic_order_in *in);
/* Jobs; for_cycle: ncpus is required. */
fs_msic_cjob *fs_pg_msic_read_jobs(ArrayType *arr, bool for_cycle, int *count);

/* (msic_config.c) The session time zone as the core's clock, and ctime(3)'s form of a time. */
extern const fs_msic_clock fs_pg_msic_clock;
void fs_pg_msic_ctime(TimestampTz t, char *buf, size_t cap);

/* (msic_config.c) The prime-time settings of a configuration. */
typedef struct fs_pg_msic_prime
{
	bool enforce;  /* ENFORCE_PRIME_TIME on */
	bool has_from; /* in its date form */
	TimestampTz from;
	int64 start, end; /* microseconds after midnight */
	int64 limit;      /* PRIME_TIME_WALLT_LIMIT in microseconds, -1 when not enforced */
	int *holidays;
	int nholidays;
} fs_pg_msic_prime;

void fs_pg_msic_prime_settings(const fs_pg_msic_config *c, fs_pg_msic_prime *p);

/* (msic_cycle.c) What msic_cycle and msic_replay read alike from their arguments: the
 * configuration's settings, the share states, hosts, queues and compat switches. */
void fs_pg_msic_cycle_setup(FunctionCallInfo fcinfo, int cfg_arg, int shares_arg, int hosts_arg,
                            int queues_arg, int compat_arg, fs_msic_cycle_in *in);

#endif
