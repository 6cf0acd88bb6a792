/*
 * fuzz_pbs_qstat_json.c: libFuzzer harness for pbs_qstat_json. Any input either fails with a
 * message or parses into a tree; a tree either fails with a message or gives one record per job
 * of its "Jobs" object, each of a known record type, with valid resvecs. ASan/UBSan/LSan catch
 * memory errors and leaks.
 */
#include "load/json.h"
#include "load/pbs_qstat_json.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"

#include <stdlib.h>
#include <string.h>

static void
check_failure(const fs_error *err)
{
	if (err->status == FS_OK || err->message[0] == '\0')
		abort(); /* a failure must say why */
}

/* UTC, as the default zone of the SQL function */
static fs_status
utc(void *ctx, const fs_qstat_time *t, int64_t *epoch, fs_error *err)
{
	(void) ctx;
	(void) err;
	*epoch = fs_days_from_civil(t->year, t->mon, t->mday) * 86400 + t->hour * 3600 + t->min * 60 +
	         t->sec;
	return FS_OK;
}

static int
check_record(void *ctx, const fs_pbs_record *r)
{
	size_t *n = ctx;
	fs_error err;

	if (r->type != 'E' && r->type != 'S' && r->type != 'Q')
		abort();
	if (fs_rv_validate(r->used, fs_rv_size(r->used), FS_ERR_BINARY, &err) != FS_OK ||
	    fs_rv_validate(r->requested, fs_rv_size(r->requested), FS_ERR_BINARY, &err) != FS_OK)
		abort();
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
	if (fs_pbs_qstat_json_doc(&doc, &fz, utc, NULL, check_record, &n, &err) != FS_OK)
		check_failure(&err);
	else
	{
		const fs_json *jobs = fs_json_get(&doc, "Jobs");

		if (n != (jobs ? jobs->n : 0))
			abort(); /* one record per job */
	}
	fs_json_free(&doc, &fz);
	return 0;
}
