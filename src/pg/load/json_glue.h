/*
 * json_glue.h: a jsonb value as the core's JSON tree (load/json.h), for the JSON loaders
 * (sacct_json, pbs_qstat_json). Strings point into the detoasted value, numbers are their
 * numeric text in the current memory context.
 */
#ifndef FS_PG_JSON_GLUE_H
#define FS_PG_JSON_GLUE_H

#include "fs_pg.h"

#include "load/json.h"

#include "utils/jsonb.h"

void fs_pg_jsonb_tree(Jsonb *jb, fs_json *out);

#endif
