/*
 * fuzz_sharepath.c: libFuzzer harness for the sharepath parser. Any input either fails with a
 * message or parses to a path whose canonical text parses back to the same bytes and prints the
 * same text; the path algebra on it (slices, concatenation, comparison) stays consistent. The
 * input is also read as a list of labels (one length byte, then the bytes), as binary input
 * builds a path: an accepted path prints text without NUL that parses back to the same bytes.
 */
#include "types/sharepath.h"
#include "fuzz_alloc.h"

#include <stdlib.h>
#include <string.h>

/* A path from labels (the binary input's route) reads back through its text. */
static void
check_labels(const uint8_t *data, size_t size)
{
	const char *labels[FS_SP_DEPTH_MAX + 2];
	size_t lens[FS_SP_DEPTH_MAX + 2];
	size_t n = 0, i = 0, len, len2;
	uint8_t *sp, *sp2;
	fs_error err;
	fs_sb sb, sb2;

	while (i < size && n < FS_SP_DEPTH_MAX + 2)
	{
		size_t l = data[i++];

		if (l > size - i)
			l = size - i;
		labels[n] = (const char *) data + i;
		lens[n++] = l;
		i += l;
	}
	if (fs_sp_from_labels(labels, lens, n, &fz, 0, &sp, &len, &err) != FS_OK)
	{
		if (err.message[0] == '\0')
			abort();
		return;
	}
	fs_sb_init(&sb, &fz, 16);
	fs_sp_format(&sb, sp);
	if (strlen(sb.data) != sb.len)
		abort(); /* a NUL would cut the text short */
	if (fs_sp_parse(sb.data, sb.len, &fz, 0, &sp2, &len2, &err) != FS_OK)
		abort();
	if (len2 != len || memcmp(sp, sp2, len) != 0)
		abort();
	fs_sb_init(&sb2, &fz, 16);
	fs_sp_format(&sb2, sp2);
	if (strcmp(sb.data, sb2.data) != 0)
		abort();
	free(sb.data);
	free(sb2.data);
	free(sp);
	free(sp2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_error err;
	uint8_t *sp, *sp2, *parent, *joined;
	size_t len, len2, plen, jlen;
	uint32_t n;
	fs_sb sb, sb2;

	check_labels(data, size);
	if (fs_sp_parse((const char *) data, size, &fz, 0, &sp, &len, &err) != FS_OK)
	{
		if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
			abort();
		return 0;
	}
	n = fs_sp_nlevel(sp);
	if (len != fs_sp_size(sp) || n > FS_SP_DEPTH_MAX)
		abort();
	fs_sb_init(&sb, &fz, 16);
	fs_sp_format(&sb, sp);
	if (fs_sp_parse(sb.data, sb.len, &fz, 0, &sp2, &len2, &err) != FS_OK)
		abort();
	if (len2 != len || memcmp(sp, sp2, len) != 0 || fs_sp_cmp(sp, sp2) != 0)
		abort();
	fs_sb_init(&sb2, &fz, 16);
	fs_sp_format(&sb2, sp2);
	if (strlen(sb.data) != sb.len || strcmp(sb.data, sb2.data) != 0)
		abort();
	free(sb2.data);
	if (n > 0)
	{
		/* parent || leaf is the path again; the parent sorts before it and contains it */
		fs_sp_slice(sp, 0, n - 1, &fz, 0, &parent, &plen);
		if (!fs_sp_is_ancestor(parent, sp) || fs_sp_cmp(parent, sp) >= 0)
			abort();
		fs_sp_slice(sp, n - 1, 1, &fz, 0, &joined, &jlen);
		free(sp2);
		if (fs_sp_concat(parent, joined, NULL, 0, &fz, 0, &sp2, &len2, &err) != FS_OK)
			abort();
		if (len2 != len || memcmp(sp, sp2, len) != 0 || fs_sp_common(sp, sp2) != n)
			abort();
		free(parent);
		free(joined);
	}
	free(sp2);
	free(sb.data);
	free(sp);
	return 0;
}
