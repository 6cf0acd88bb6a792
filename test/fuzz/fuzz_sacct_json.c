/*
 * fuzz_sacct_json.c: libFuzzer harness for the JSON reader and sacct_json. Any input either fails
 * with a message or parses into a tree; a tree either fails with a message or gives records whose
 * TRES are valid resvecs and whose extra columns come in jsonb key order. The records are counted
 * against the document's jobs and steps. ASan/UBSan/LSan catch memory errors and leaks.
 */
#include "load/json.h"
#include "load/sacct_json.h"
#include "types/resvec.h"
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

static int
check_record(void *ctx, const fs_sacct_record *r)
{
	size_t *n = ctx;
	fs_error err;

	if (r->alloc_tres &&
	    fs_rv_validate(r->alloc_tres, r->alloc_tres_len, FS_ERR_BINARY, &err) != FS_OK)
		abort();
	if (r->req_tres && fs_rv_validate(r->req_tres, r->req_tres_len, FS_ERR_BINARY, &err) != FS_OK)
		abort();
	fuzz_check_extra(r);
	if (!r->has_job_seq)
		abort(); /* every job has a number */
	(*n)++;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_json doc;
	fs_error err;
	size_t n = 0;

	if (fs_json_parse((const char *) data, size, &fz, &doc, &err) != FS_OK)
	{
		check_failure(&err);
		return 0;
	}
	if (fs_sacct_json_doc(&doc, &fz, check_record, &n, &err) != FS_OK)
		check_failure(&err);
	else
	{
		const fs_json *jobs = doc.kind == FS_JSON_ARRAY ? &doc : fs_json_get(&doc, "jobs");
		size_t want = jobs->n, k;

		for (k = 0; k < jobs->n; k++)
		{
			const fs_json *s = fs_json_get(&jobs->items[k], "steps");

			if (s && s->kind == FS_JSON_ARRAY)
				want += s->n;
		}
		if (n != want)
			abort(); /* one record per job and per step */
	}
	fs_json_free(&doc, &fz);
	return 0;
}
