/*
 * scontrol.h: the output of `scontrol show job|partition|node|config` (multi-line and `-o`) as
 * records of key and value pairs, so that a pasted live queue becomes rows in SQL.
 */
#ifndef FS_SCONTROL_H
#define FS_SCONTROL_H

#include "fs_core.h"

/* One Key=Value of a record; offsets into the text. */
typedef struct fs_scontrol_attr
{
	size_t record; /* 1-based */
	size_t key_off, key_len, val_off, val_len;
} fs_scontrol_attr;

/* The most records of one document (more is FS_ERR_LIMIT). */
#define FS_SCONTROL_RECORDS_MAX 2147483647u

/*
 * Read scontrol's output as scontrol prints it (slurm_sprint_job_info and its kin): a record is a
 * line that starts with Key= and its indented continuation lines (the multi-line form), or one
 * such line alone (-o); a blank line, or a line that is not indented and holds no Key= (the
 * "Configuration data as of ..." header, a section title), ends a record. scontrol writes values
 * as they are, spaces included: a value runs to the next word that looks like Key= (a letter or _,
 * then letters, digits and _ : / . + -, then '='), so `JobName=my job` and `OS=Linux 6.1 #1 SMP`
 * keep their spaces and `JobName=a=b` is "a=b"; in the multi-line form the values scontrol puts
 * last on their line (JobName, Command, WorkDir, StdIn, StdOut, StdErr, Comment, AdminComment,
 * SystemComment, OS) run to the end of the line, whatever they hold. `show config`
 * lines (`Key<blanks>= value`) give one record per block, the value the rest of the line.
 * Values lose their trailing blanks. O(len).
 */
fs_status fs_scontrol_parse(const char *text, size_t len, fs_scontrol_attr **out, size_t *n,
                            const fs_allocator *a, fs_error *err);

#endif
