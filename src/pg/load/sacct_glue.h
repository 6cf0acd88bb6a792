/*
 * sacct_glue.h: what the sacct glue files share: a record's values as a fairsched.sacct_record
 * (sacct_row in sacct.c, sacct_json in sacct_json.c).
 */
#ifndef FS_PG_SACCT_GLUE_H
#define FS_PG_SACCT_GLUE_H

#include "fs_pg.h"

#include "load/sacct.h"

#include "pgtime.h"

#define SACCT_NATTS 32

void fs_pg_sacct_values(const fs_sacct_record *r, pg_tz *tz, const char *tzname, const char *error,
                        Datum *v, bool *n);

#endif
