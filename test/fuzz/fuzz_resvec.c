/*
 * fuzz_resvec.c: libFuzzer harness for the resvec parser. Any input either fails cleanly or
 * parses to a value whose canonical text parses back to the same bytes and prints the same;
 * arithmetic on it never crashes. The input is also read as the stored (encoded) form and as the
 * entries of binary input (kind, name length, name, float8 amount): an accepted value prints text
 * that parses back to the same bytes. ASan/UBSan/LSan catch memory errors and leaks.
 */
#include "types/resvec.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An accepted value prints text that parses back to the same bytes and prints the same. */
static void
check_text(const uint8_t *rv, size_t len)
{
	fs_error err;
	uint8_t *rv2;
	size_t len2;
	fs_sb sb, sb2;

	fs_sb_init(&sb, &fz, 16);
	fs_rv_format(&sb, rv);
	if (strlen(sb.data) != sb.len)
		abort();
	if (fs_rv_parse(sb.data, sb.len, &fz, 0, &rv2, &len2, &err) != FS_OK)
	{
		fprintf(stderr, "text \"%s\" of an accepted value does not parse: %s\n", sb.data,
		        err.message);
		abort();
	}
	if (len2 != len || memcmp(rv, rv2, len) != 0)
	{
		fprintf(stderr, "text \"%s\" of an accepted value reads back different\n", sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 16);
	fs_rv_format(&sb2, rv2);
	if (strcmp(sb.data, sb2.data) != 0)
		abort();
	free(sb.data);
	free(sb2.data);
	free(rv2);
}

/* The entries of binary input, built as resvec_recv builds them. */
static void
check_binary(const uint8_t *data, size_t size)
{
	fs_rv_item items[64];
	size_t n = 0, i = 0, len;
	uint8_t *rv;
	fs_error err;

	while (n < 64 && size - i >= 2 && size - i >= 2 + (size_t) data[i + 1] + 8)
	{
		uint64_t bits = 0;
		int b;

		items[n].kind = data[i];
		items[n].namelen = data[i + 1];
		items[n].name = (const char *) data + i + 2;
		i += 2 + data[i + 1];
		for (b = 0; b < 8; b++)
			bits = (bits << 8) | data[i + b];
		i += 8;
		memcpy(&items[n].amount, &bits, 8);
		items[n++].pos = 0;
	}
	if (fs_rv_build(items, n, FS_ERR_BINARY, &fz, 0, &rv, &len, &err) != FS_OK)
	{
		if (err.message[0] == '\0')
			abort();
		return;
	}
	if (fs_rv_validate(rv, len, FS_ERR_BINARY, &err) != FS_OK)
		abort();
	check_text(rv, len);
	free(rv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_error err;
	uint8_t *rv, *rv2, *sum;
	size_t len, len2, sumlen;
	fs_sb sb, sb2;
	bool fits;

	check_binary(data, size);
	if (fs_rv_validate(data, size, FS_ERR_BINARY, &err) == FS_OK)
		check_text(data, size);
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
