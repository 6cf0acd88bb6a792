/*
 * fuzz_sharepath.c: libFuzzer harness for the sharepath parser. Any input either fails with a
 * message or parses to a path whose canonical text parses back to the same bytes; the path
 * algebra on it (slices, concatenation, comparison) stays consistent.
 */
#include "sharepath.h"
#include "fuzz_alloc.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_error err;
	uint8_t *sp, *sp2, *parent, *joined;
	size_t len, len2, plen, jlen;
	uint32_t n;
	fs_sb sb;

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
