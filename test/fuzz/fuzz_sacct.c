/*
 * fuzz_sacct.c: libFuzzer harness for the Slurm readers. The input is a header line, a newline
 * and a row; the same bytes also go to the duration reader and, whole, to the sacctmgr reader.
 * Any input either fails with a message or parses; a parsed row's TRES are valid resvecs and its
 * extra columns come in jsonb key order. ASan/UBSan/LSan catch memory errors and leaks.
 */
#include "load/sacct.h"
#include <float.h>
#include "load/sacctmgr.h"
#include "types/resvec.h"
#include "types/sharepath.h"
#include "fuzz_alloc.h"
#include "fuzz_sacct_extra.h"

#include <stdlib.h>
#include <string.h>

static void
check_failure(const fs_error *err)
{
	if (err->status == FS_OK || err->message[0] == '\0')
		abort(); /* a failure must say why */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const char *nl = memchr(text, '\n', size);
	fs_sacct_header h;
	fs_sacct_record r;
	fs_assoc_row *rows;
	size_t nrows, i;
	fs_error err;
	double secs;
	bool isnull;
	const char *why;
	const char *delim = "|";
	size_t dlen = 1, known;

	if (fs_slurm_duration(text, size, &secs, &isnull, &why, &err) != FS_OK)
		check_failure(&err);
	else if (!isnull && !(secs >= 0))
		abort();
	if (fs_sacctmgr_assoc(text, size, &fz, &rows, &nrows, &err) != FS_OK)
		check_failure(&err);
	else
	{
		for (i = 0; i < nrows; i++)
		{
			uint8_t *sp = malloc(rows[i].pathlen);

			/* a row's parent comes before it; its path is the parent's and one label */
			if (rows[i].line < 1 || rows[i].parent >= (int32_t) i ||
			    (rows[i].parent >= 0 && rows[i].depth != rows[rows[i].parent].depth + 1))
				abort();
			fs_sacctmgr_assoc_path(rows, i, sp);
			if (rows[i].pathlen != fs_sp_size(sp) || fs_sp_nlevel(sp) != rows[i].depth)
				abort();
			/* a user's association in a partition ends in the label "user@partition" */
			if (rows[i].label_partition.len > 0)
			{
				const fs_str u = rows[i].label, q = rows[i].label_partition;
				size_t full = u.len + 1 + q.len, at = rows[i].pathlen - full;

				if (sp[at - 1] != full || memcmp(sp + at, u.s, u.len) != 0 ||
				    sp[at + u.len] != '@' || memcmp(sp + at + u.len + 1, q.s, q.len) != 0 ||
				    rows[i].user.s != u.s || rows[i].partition.s != q.s)
					abort();
			}
			free(sp);
		}
		fs_sacctmgr_assoc_free(rows, nrows, &fz);
	}
	if (nl == NULL)
		return 0;
	/* a first line "\x01DELIM" gives the delimiter (sacct --delimiter) for the lines after it */
	if (nl > text && text[0] == '\x01')
	{
		delim = text + 1;
		dlen = (size_t) (nl - delim);
		text = nl + 1;
		size -= (size_t) (text - (const char *) data);
		if ((nl = memchr(text, '\n', size)) == NULL)
			return 0;
	}
	if (fs_sacct_header_parse(text, (size_t) (nl - text), delim, dlen, &fz, &h, &err) != FS_OK)
	{
		check_failure(&err);
		return 0;
	}
	/* a header that parses names a known column and keeps its delimiter */
	for (i = 0, known = 0; i < FS_SC_NKNOWN; i++)
		known += h.at[i] >= 0;
	if (known == 0 || h.dlen != dlen || memcmp(h.delim, delim, dlen) != 0)
		abort();
	if (fs_sacct_parse_row(&h, nl + 1, size - (size_t) (nl + 1 - text), &fz, &r, &err) != FS_OK)
		check_failure(&err);
	else
	{
		if ((r.alloc_tres &&
		     fs_rv_validate(r.alloc_tres, r.alloc_tres_len, FS_ERR_BINARY, &err) != FS_OK) ||
		    (r.req_tres &&
		     fs_rv_validate(r.req_tres, r.req_tres_len, FS_ERR_BINARY, &err) != FS_OK))
			abort();
		/* ReqMem is a size, also when the old per-CPU flag was taken off it */
		if (r.has_req_mem && !(r.req_mem_bytes >= 0 && r.req_mem_bytes <= DBL_MAX))
			abort();
		/* extra: in order (fuzz_sacct_extra.h), its values inside the row */
		fuzz_check_extra(&r);
		for (i = 0; i < r.nextra; i++)
		{
			const fs_sacct_extra *e = &r.extra[i];
			const char *row = nl + 1;
			size_t rowlen = size - (size_t) (nl + 1 - text);

			if (e->val.s && (e->val.s < row || e->val.s + e->val.len > row + rowlen))
				abort();
		}
		fs_sacct_record_free(&r, &fz);
	}
	fs_sacct_header_free(&h, &fz);
	return 0;
}
