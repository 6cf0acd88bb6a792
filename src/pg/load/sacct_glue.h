/*
 * sacct_glue.h: what the sacct glue files share: a record's values as a fairsched.sacct_record
 * (sacct_row in sacct.c, sacct_json in sacct_json.c, slurm_jobcomp in slurm_jobcomp.c) and the
 * time zone argument they read dates in.
 */
#ifndef FS_PG_SACCT_GLUE_H
#define FS_PG_SACCT_GLUE_H

#include "fs_pg.h"

#include "load/sacct.h"

#include "pgtime.h"

#define SACCT_NATTS 32

void fs_pg_sacct_values(const fs_sacct_record *r, pg_tz *tz, const char *tzname, const char *error,
                        Datum *v, bool *n);

/* Time zone argument n (UTC when absent or NULL) and its name for messages; an unknown zone or
 * one PostgreSQL cannot offset raises, its hint naming `writer` (what wrote the dates: "sacct",
 * "the PBS server"). pbs_qstat_json shares it. */
pg_tz *fs_pg_sacct_zone(FunctionCallInfo fcinfo, int n, const char *writer, const char **name_out);

#endif
