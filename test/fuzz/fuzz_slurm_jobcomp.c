/*
 * fuzz_slurm_jobcomp.c: libFuzzer harness for jobcomp/filetxt lines. Each line of the input either
 * fails with a message or gives a record whose TRES are valid resvecs, whose extra columns come
 * in jsonb key order and whose job number is read. ASan/UBSan/LSan catch memory errors and leaks.
 */
#include "load/slurm_jobcomp.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"
#include "fuzz_sacct_extra.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data, *end = s + size;
	fs_slurm_jobcomp jc;
	fs_error err;

	if (fs_slurm_jobcomp_init(&jc, &fz, &err) != FS_OK)
		abort(); /* the fixed header always parses */
	while (s < end)
	{
		const char *nl = memchr(s, '\n', (size_t) (end - s));
		size_t len = nl ? (size_t) (nl - s) : (size_t) (end - s);
		fs_sacct_record r;

		if (fs_slurm_jobcomp_parse(&jc, s, len, &fz, &r, &err) == FS_OK)
		{
			if (r.alloc_tres || !r.has_job_seq)
				abort(); /* jobcomp has no allocated TRES; every record has its job number */
			if (r.req_tres &&
			    fs_rv_validate(r.req_tres, r.req_tres_len, FS_ERR_BINARY, &err) != FS_OK)
				abort();
			fuzz_check_extra(&r);
			fs_sacct_record_free(&r, &fz);
		}
		else if (err.status == FS_OK || err.message[0] == '\0')
			abort(); /* a failure must say why */
		s += len + (nl ? 1 : 0);
	}
	fs_slurm_jobcomp_free(&jc, &fz);
	return 0;
}
