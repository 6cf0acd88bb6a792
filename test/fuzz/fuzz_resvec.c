/*
 * fuzz_resvec.c: libFuzzer harness for the resvec parser. Any input either fails cleanly or
 * parses to a value whose canonical text parses back to the same bytes and prints the same;
 * arithmetic on it never crashes. ASan/UBSan/LSan catch memory errors and leaks.
 */
#include "resvec.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_error err;
	uint8_t *rv, *rv2, *sum;
	size_t len, len2, sumlen;
	fs_sb sb, sb2;
	bool fits;

	if (fs_rv_parse((const char *) data, size, &fz, 0, &rv, &len, &err) != FS_OK)
	{
		if (err.status == FS_OK || err.message[0] == '\0')
			abort(); /* a failure must say why */
		return 0;
	}
	if (len != fs_rv_size(rv))
		abort();
	fs_sb_init(&sb, &fz, 16);
	fs_rv_format(&sb, rv);
	if (fs_rv_parse(sb.data, sb.len, &fz, 0, &rv2, &len2, &err) != FS_OK)
	{
		fprintf(stderr, "canonical text \"%s\" does not parse: %s\n", sb.data, err.message);
		abort();
	}
	if (len2 != len || memcmp(rv, rv2, len) != 0 || fs_rv_cmp(rv, rv2) != 0)
	{
		fprintf(stderr, "canonical text \"%s\" does not round-trip\n", sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 16);
	fs_rv_format(&sb2, rv2);
	if (strcmp(sb.data, sb2.data) != 0)
		abort();
	if (fs_rv_fits(rv, rv2, &fits, &err) != FS_OK || !fits)
		abort();
	if (fs_rv_add(rv, rv2, -1, &fz, 0, &sum, &sumlen, &err) == FS_OK)
		free(sum);
	if (fs_rv_add_inplace(rv2, len2, rv, len, &err) == 0)
		abort(); /* same shape: must add in place (or overflow) */
	free(sb.data);
	free(sb2.data);
	free(rv);
	free(rv2);
	return 0;
}
