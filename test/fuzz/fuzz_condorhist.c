/*
 * fuzz_condorhist.c: libFuzzer harness for the condor_history reader (-l, -json, -jsonl). The
 * reader always moves forward (at most one ad per line of -l), each ad is either typed (a JSON
 * object, a path that prints and parses back) or an error naming a line of the ad; nothing crashes
 * or leaks. The exact CompletionDate (seconds and microseconds) stays in the timestamptz range and
 * agrees with the value read as a double to within the double's rounding.
 */
#include "load/condorhist.h"
#include "load/condor_json.h"
#include "types/sharepath.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_ch_reader r;
	int32_t last = 0;

	fs_ch_init(&r, (const char *) data, size, &fz);
	for (;;)
	{
		fs_ch_ad ad;
		fs_error err;
		bool done;
		fs_status st = fs_ch_next(&r, &ad, &done, &err);

		if (done)
			break;
		/* an error of a -json document as a whole ends it, and so does a limit (nesting) in any
		 * JSON form (the glue raises both) */
		if (st != FS_OK && ad.ad == 0 && (r.form == FS_CH_JSON || st == FS_ERR_LIMIT))
		{
			if (err.status == FS_OK || err.message[0] == '\0')
				abort();
			break;
		}
		if (ad.ad != last + 1 || (size_t) ad.ad > size || ad.line < 1 || ad.last_line < ad.line)
			abort();
		last = ad.ad;
		if (st != FS_OK)
		{
			if (err.status == FS_OK || ad.json != NULL || ad.error_line < ad.line ||
			    ad.error_line > ad.last_line + 1 ||
			    (r.form == FS_CH_LONG &&
			     strncmp(err.message, "invalid condor_history line ", 28) != 0) ||
			    err.message[0] == '\0')
				abort();
			continue;
		}
		if (ad.json == NULL || ad.json[0] != '{' || ad.json[ad.jsonlen - 1] != '}' ||
		    strlen(ad.json) != ad.jsonlen)
			abort();
		/* each anomaly is a repeated name, and a repeated name's earlier values left the JSON:
		 * the object has no ",," or "{," where they were cut out */
		{
			const char *p = ad.anomalies;
			size_t k;

			for (k = 0; k < ad.nanomalies; k++)
			{
				if (p == NULL || strncmp(p, "attribute \"", 11) != 0 ||
				    strstr(p, "the last value is kept") == NULL)
					abort();
				p += strlen(p) + 1;
			}
			if (ad.nanomalies > 0 && (strncmp(ad.json, "{,", 2) == 0 || ad.json[1] == '}'))
				abort();
		}
		if (ad.has[FS_CH_COMPLETION_DATE])
		{
			double d = ad.num[FS_CH_COMPLETION_DATE];
			double exact = (double) ad.completion_s + ad.completion_us / 1e6;

			if (ad.completion_s < 0 || ad.completion_s >= INT64_C(9224318016000) ||
			    ad.completion_us < 0 || ad.completion_us >= 1000000 ||
			    fabs(exact - d) > 1e-6 + d * 4e-16)
				abort();
		}
		if (ad.accounting_group)
		{
			fs_sb sb;
			uint8_t *back;
			size_t backlen;

			fs_sb_init(&sb, &fz, 16);
			fs_sp_format(&sb, ad.accounting_group);
			if (fs_sp_parse(sb.data, sb.len, &fz, 0, &back, &backlen, &err) != FS_OK ||
			    backlen != ad.accounting_group_len ||
			    memcmp(back, ad.accounting_group, backlen) != 0)
				abort();
			free(back);
			free(sb.data);
		}
		fs_ch_ad_free(&ad, &fz);
	}
	return 0;
}
