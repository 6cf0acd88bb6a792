/*
 * fuzz_decay.c: libFuzzer harness for the decayed_usage text parser and binary decoder. Any
 * input either fails with a message or gives a value with finite numbers whose text reads back
 * to the same value and prints the same text, and whose binary form decodes to the same value
 * and encodes to the same bytes; every value binary input accepts has a text form too.
 */
#include "types/decay.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
same(const fs_decayed *a, const fs_decayed *b)
{
	return memcmp(&a->value, &b->value, sizeof(double)) == 0 && a->at == b->at &&
	       a->half_life == b->half_life;
}

/* Every property a value that input accepted must have. */
static void
check_value(const fs_decayed *d)
{
	fs_decayed back, sum;
	fs_error err;
	uint8_t bin[FS_DECAYED_BINARY_LEN], bin2[FS_DECAYED_BINARY_LEN];
	fs_sb sb, sb2;
	double v;

	if (!isfinite(d->value) || !FS_INSTANT_VALID(d->at) || d->half_life <= 0 ||
	    fs_decayed_check(d, &err) != FS_OK)
		abort();
	fs_sb_init(&sb, &fz, 48);
	fs_decayed_format(&sb, d);
	if (fs_decayed_parse(sb.data, sb.len, &back, &err) != FS_OK)
	{
		fprintf(stderr, "canonical text \"%s\" does not parse: %s %s\n", sb.data, err.message,
		        err.detail);
		abort();
	}
	if (!same(&back, d))
	{
		fprintf(stderr, "canonical text \"%s\" does not round-trip\n", sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 48);
	fs_decayed_format(&sb2, &back);
	if (sb.len != sb2.len || memcmp(sb.data, sb2.data, sb.len) != 0)
		abort();
	fs_decayed_encode(d, bin);
	if (fs_decayed_decode(bin, sizeof(bin), &back, &err) != FS_OK || !same(&back, d))
		abort();
	fs_decayed_encode(&back, bin2);
	if (memcmp(bin, bin2, sizeof(bin)) != 0)
		abort();
	/* arithmetic on it never leaves a non-finite number behind */
	sum = *d;
	if (fs_decayed_combine(&sum, d, &err) == FS_OK && !isfinite(sum.value))
		abort();
	if (fs_decayed_add(&sum, 1e308, FS_MIN_INSTANT, d->half_life, &err) == FS_OK &&
	    !isfinite(sum.value))
		abort();
	if (fs_decayed_value(d, FS_END_INSTANT - 1, &v, &err) == FS_OK && !isfinite(v))
		abort();
	free(sb.data);
	free(sb2.data);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_decayed d;
	fs_error err;
	uint8_t bin[FS_DECAYED_BINARY_LEN] = {0};

	/* as text */
	if (fs_decayed_parse((const char *) data, size, &d, &err) == FS_OK)
		check_value(&d);
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	/* as a binary value, and as the fields of one */
	if (fs_decayed_decode(data, size, &d, &err) == FS_OK)
		check_value(&d);
	else if (err.status != FS_ERR_BINARY || err.message[0] == '\0')
		abort();
	memcpy(bin, data, size < sizeof(bin) ? size : sizeof(bin));
	bin[0] = FS_DECAYED_BINARY_VERSION;
	if (fs_decayed_decode(bin, sizeof(bin), &d, &err) == FS_OK)
		check_value(&d);
	else if (err.status != FS_ERR_BINARY || err.detail[0] == '\0')
		abort();
	return 0;
}
