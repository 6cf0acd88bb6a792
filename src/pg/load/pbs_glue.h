/*
 * pbs_glue.h: a PBS record as a fairsched.pbs_record tuple, shared by pbs_acct and
 * pbs_qstat_json (src/pg/load/pbsacct.c).
 */
#ifndef FS_PG_PBS_GLUE_H
#define FS_PG_PBS_GLUE_H

#include "fs_pg.h"

#include "access/htup.h"
#include "access/tupdesc.h"

#include "load/pbsacct.h"

/* rec as a tuple of desc; with err instead, a record of the error alone. */
HeapTuple fs_pg_pbs_tuple(TupleDesc desc, const fs_pbs_record *rec, const fs_error *err);

#endif
