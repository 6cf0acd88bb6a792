/*
 * fuzz_slots.c: libFuzzer harness for the TRESBillingWeights parser (billing). Any input either
 * fails with a message or gives a finite billing; weights have no printed form, so instead of a
 * round trip the harness checks the equivalences the syntax promises: empty items (a leading or
 * trailing comma) change nothing, names and units compare case-insensitively, and MAX_TRES
 * never bills more than MAX_TRES_GRES, nor that more than the sum.
 */
#include "types/resvec.h"
#include "share/slots.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char alloc_text[] =
    "cpu=4,mem=16G,node=1,gres/gpu=1,gres/gpu:a100=2,vmem=3G,bb/cray=1T,license/matlab=2,billing=4";

static fs_status
bill(const uint8_t *alloc, const char *w, size_t len, fs_billing_mode mode, double *out,
     fs_error *err)
{
	fs_status st = fs_billing(alloc, w, len, mode, out, err);

	if (st == FS_OK && !isfinite(*out))
		abort();
	if (st != FS_OK && (err->message[0] == '\0' || st != err->status))
		abort();
	return st;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *alloc;
	size_t alen, i;
	fs_error err;
	double sum, max, max_gres, other;
	char *w;
	fs_status st;

	if (fs_rv_parse(alloc_text, strlen(alloc_text), &fz, 0, &alloc, &alen, &err) != FS_OK)
		abort();
	st = bill(alloc, (const char *) data, size, FS_BILLING_SUM, &sum, &err);
	if (st == FS_OK)
	{
		if (bill(alloc, (const char *) data, size, FS_BILLING_MAX_TRES, &max, &err) != FS_OK ||
		    bill(alloc, (const char *) data, size, FS_BILLING_MAX_TRES_GRES, &max_gres, &err) !=
		        FS_OK ||
		    max > max_gres * (1 + 1e-12) || max_gres > sum * (1 + 1e-12))
			abort();
		w = malloc(size + 2);
		/* with a comma before and after: the same */
		w[0] = ',';
		memcpy(w + 1, data, size);
		w[size + 1] = ',';
		if (bill(alloc, w, size + 2, FS_BILLING_SUM, &other, &err) != FS_OK || other != sum)
			abort();
		/* in lower case: the same */
		for (i = 0; i < size; i++)
			w[i] = (char) (data[i] >= 'A' && data[i] <= 'Z' ? data[i] - 'A' + 'a' : data[i]);
		if (bill(alloc, w, size, FS_BILLING_SUM, &other, &err) != FS_OK || other != sum)
		{
			fprintf(stderr, "lower case changes the billing: %s\n", err.message);
			abort();
		}
		free(w);
	}
	free(alloc);
	return 0;
}
