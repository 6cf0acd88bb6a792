/*
 * slurm_jobcomp.h: one line of Slurm's jobcomp/filetxt completion log (`JobId=68
 * UserId=sbooth(73964) ... ExitCode=0:0`) as the record sacct_row reads from the row sacct
 * --parsable2 prints for the same job. The line is written as that row and read by the row
 * reader (load/sacct), so both give the same record by construction.
 */
#ifndef FS_SLURM_JOBCOMP_H
#define FS_SLURM_JOBCOMP_H

#include "load/sacct.h"

/* The header of the rows lines are written as (its names point into text), the row being
 * written, and the header of the last line with keys jobcomp does not write (names into
 * line_text; the record's extra names point into it until the next call). */
typedef struct fs_slurm_jobcomp
{
	fs_sacct_header h;
	fs_sb text, row;
	fs_sacct_header line_h;
	fs_sb line_text;
	bool has_line_h;
} fs_slurm_jobcomp;

/* Parse the header once; fs_slurm_jobcomp_free releases it. */
fs_status fs_slurm_jobcomp_init(fs_slurm_jobcomp *jc, const fs_allocator *a, fs_error *err);
void fs_slurm_jobcomp_free(fs_slurm_jobcomp *jc, const fs_allocator *a);

/*
 * Read one completion line. A pair starts at the line's start or after a space with a key
 * jobcomp/filetxt writes (any version since 2.x) and '='; other text, spaces and '=' included,
 * belongs to the value before it (Name= and WorkDir= may hold spaces). On success rec's spans
 * point into jc's row (valid until the next call) and its buffers are in allocator memory
 * (fs_sacct_record_free frees them); the names of its extra columns point into jc too (valid until
 * the next call). A line that is not such a record, a key given twice, or a
 * value sacct would not print is a syntax error naming the character of the line. Linear in the
 * line.
 */
fs_status fs_slurm_jobcomp_parse(fs_slurm_jobcomp *jc, const char *line, size_t len,
                                 const fs_allocator *a, fs_sacct_record *rec, fs_error *err);

#endif
