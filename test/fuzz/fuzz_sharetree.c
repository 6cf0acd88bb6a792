/*
 * fuzz_sharetree.c: libFuzzer harness for the sharetree readers. The input is read both as text
 * and as the flat (binary) form. Whatever parses must be a well-formed tree: its text and flat
 * forms read back to the same bytes, and merging it into itself doubles nothing but usage.
 */
#include "sharetree.h"
#include "fuzz_alloc.h"

#include <stdlib.h>
#include <string.h>

/* text -> tree -> flat -> tree -> text must be stable */
static void
check_tree(fs_tree *t)
{
	fs_error err;
	fs_tree *back, *twice;
	fs_sb sb, sb2;
	uint8_t *flat, *flat2;
	size_t size;

	if (fs_tree_prepare(t, &err) != FS_OK)
		return; /* totals overflow: reported, not a malformed tree */
	size = fs_tree_flat_size(t);
	flat = malloc(size);
	fs_tree_flatten(t, flat);
	if (fs_tree_from_flat(&fz, flat, size, &back, &err) != FS_OK)
		abort();
	if (fs_tree_prepare(back, &err) != FS_OK || fs_tree_flat_size(back) != size)
		abort();
	flat2 = malloc(size);
	fs_tree_flatten(back, flat2);
	if (memcmp(flat, flat2, size) != 0)
		abort();
	fs_sb_init(&sb, &fz, 64);
	fs_tree_format(&sb, t);
	fs_tree_free(back);
	if (fs_tree_parse(&fz, sb.data, sb.len, &back, &err) != FS_OK)
		abort();
	if (fs_tree_prepare(back, &err) != FS_OK)
		abort();
	fs_sb_init(&sb2, &fz, 64);
	fs_tree_format(&sb2, back);
	if (strcmp(sb.data, sb2.data) != 0)
		abort();
	twice = fs_tree_new(&fz, fs_tree_get_kind(t));
	if (fs_tree_merge(twice, t, &err) != FS_OK)
		abort();
	if (fs_tree_merge(twice, t, &err) == FS_OK && fs_tree_prepare(twice, &err) == FS_OK &&
	    fs_tree_count(twice) != fs_tree_count(t))
		abort();
	fs_tree_free(twice);
	fs_tree_free(back);
	free(sb.data);
	free(sb2.data);
	free(flat);
	free(flat2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_error err;
	fs_tree *t;

	if (fs_tree_parse(&fz, (const char *) data, size, &t, &err) == FS_OK)
	{
		check_tree(t);
		fs_tree_free(t);
	}
	else if (err.message[0] == '\0')
		abort();
	if (fs_tree_from_flat(&fz, data, size, &t, &err) == FS_OK)
	{
		check_tree(t);
		fs_tree_free(t);
	}
	else if (err.status != FS_ERR_BINARY && err.status != FS_ERR_VALUE &&
	         err.status != FS_ERR_RANGE && err.status != FS_ERR_KIND)
		abort();
	return 0;
}
