/*
 * pbs_qstat_json.h: the jobs of an OpenPBS / PBS Pro `qstat -f -F json` (or `qstat -x -f -F
 * json`) document as the records pbs_acct reads from the accounting log. Each job is written as
 * the accounting line PBS would log for its state (E for a finished job, S for a running one, Q
 * for one still waiting) and read by the line reader (load/pbsacct), so both forms give the same
 * record by construction.
 */
#ifndef FS_PBS_QSTAT_JSON_H
#define FS_PBS_QSTAT_JSON_H

#include "load/json.h"
#include "load/pbsacct.h"

/* A time as qstat prints it (ctime(3) in the server's local time). */
typedef struct fs_qstat_time
{
	int year, mon, mday, hour, min, sec;
} fs_qstat_time;

/* Local time t (in the zone the caller knows) as Unix seconds; nonzero status fails the walk. */
typedef fs_status (*fs_qstat_to_epoch)(void *ctx, const fs_qstat_time *t, int64_t *epoch,
                                       fs_error *err);
/* Called with each record; its spans are valid during the call only. Nonzero stops the walk. */
typedef int (*fs_qstat_emit)(void *ctx, const fs_pbs_record *rec);

/*
 * Every job of doc's "Jobs" object, in the tree's order (for a jsonb value, jsonb's key order:
 * shorter ids first). A document without "Jobs" (qstat prints
 * none when no job matches) has no jobs. A value of the wrong type or a date that is not a
 * ctime(3) string is FS_ERR_VALUE naming the job and the field. Linear in the document.
 */
fs_status fs_pbs_qstat_json_doc(const fs_json *doc, const fs_allocator *a,
                                fs_qstat_to_epoch to_epoch, void *tctx, fs_qstat_emit emit,
                                void *ctx, fs_error *err);

/* Read "Tue Dec  1 10:00:00 2026" (ctime(3) without the newline); false when it is not one. */
bool fs_qstat_parse_time(const char *s, size_t len, fs_qstat_time *t);

#endif
