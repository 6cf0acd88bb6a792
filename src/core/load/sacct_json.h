/*
 * sacct_json.h: the jobs and steps of a `sacct --json` document (every data-parser version Slurm
 * has shipped since 21.08: dbv0.0.37, dbv0.0.38, v0.0.39 to v0.0.42) as the records sacct_row
 * reads from `sacct --parsable2`. Each job and step is written as the row sacct would print for
 * it and read by the row reader (load/sacct), so both forms give the same record by construction.
 */
#ifndef FS_SACCT_JSON_H
#define FS_SACCT_JSON_H

#include "load/json.h"
#include "load/sacct.h"

/* Called with each record; its spans are valid during the call only. Nonzero stops the walk. */
typedef int (*fs_sacct_json_emit)(void *ctx, const fs_sacct_record *rec);

/*
 * Every job of doc (an object with a "jobs" array, as sacct --json writes, or the array alone)
 * and each of its steps, in document order: the job, then its steps. A value of the wrong type
 * is FS_ERR_VALUE naming the job and the field. Linear in the document.
 */
fs_status fs_sacct_json_doc(const fs_json *doc, const fs_allocator *a, fs_sacct_json_emit emit,
                            void *ctx, fs_error *err);

#endif
