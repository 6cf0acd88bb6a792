/*
 * fuzz_sharetree.c: libFuzzer harness for the sharetree readers. The input is read as text, as
 * the flat (stored) form and as the binary (send/recv) form. Whatever any of them accepts must
 * read back to itself: text -> tree -> text -> tree gives the same text and the same flat bytes;
 * accepted flat or binary bytes come out of the tree unchanged; every accepted tree prints text
 * that parses back to the same tree; merging a tree into itself doubles nothing but usage.
 */
#include "types/sharetree.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
fail(const char *what, const char *text)
{
	fprintf(stderr, "%s%s%s\n", what, text ? ": " : "", text ? text : "");
	abort();
}

static uint8_t *
flat_of(fs_tree *t, size_t *size)
{
	uint8_t *flat;

	*size = fs_tree_flat_size(t);
	flat = malloc(*size);
	fs_tree_flatten(t, flat);
	return flat;
}

static uint8_t *
binary_of(fs_tree *t, size_t *size)
{
	uint8_t *bin;

	*size = fs_tree_binary_size(t);
	bin = malloc(*size);
	fs_tree_to_binary(t, bin);
	return bin;
}

static bool
same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Every form of an accepted tree reads back to the same tree. */
static void
check_tree(fs_tree *t)
{
	fs_error err;
	fs_tree *back, *twice;
	fs_sb sb, sb2;
	uint8_t *flat, *flat2, *bin, *bin2;
	size_t size, size2, bsize, bsize2;

	if (fs_tree_prepare(t, &err) != FS_OK)
		return; /* totals overflow: reported, not a malformed tree */
	flat = flat_of(t, &size);
	bin = binary_of(t, &bsize);
	/* flat -> tree -> flat */
	if (fs_tree_from_flat(&fz, flat, size, &back, &err) != FS_OK)
		fail("the flat form does not read back", err.message);
	if (fs_tree_prepare(back, &err) != FS_OK)
		abort();
	flat2 = flat_of(back, &size2);
	if (!same(flat, size, flat2, size2))
		fail("the flat form does not round-trip", NULL);
	free(flat2);
	fs_tree_free(back);
	/* binary -> tree -> binary, and to the same flat bytes */
	if (fs_tree_from_binary(&fz, bin, bsize, &back, &err) != FS_OK)
		fail("the binary form does not read back", err.message);
	bin2 = binary_of(back, &bsize2);
	flat2 = flat_of(back, &size2);
	if (!same(bin, bsize, bin2, bsize2) || !same(flat, size, flat2, size2))
		fail("the binary form does not round-trip", NULL);
	free(bin2);
	free(flat2);
	fs_tree_free(back);
	/* text -> tree -> text, with the same flat bytes */
	fs_sb_init(&sb, &fz, 64);
	fs_tree_format(&sb, t);
	if (strlen(sb.data) != sb.len)
		fail("the text form holds a NUL", NULL);
	if (fs_tree_parse(&fz, sb.data, sb.len, &back, &err) != FS_OK)
		fail("the text form does not parse back", sb.data);
	if (fs_tree_prepare(back, &err) != FS_OK)
		abort();
	fs_sb_init(&sb2, &fz, 64);
	fs_tree_format(&sb2, back);
	flat2 = flat_of(back, &size2);
	if (strcmp(sb.data, sb2.data) != 0 || !same(flat, size, flat2, size2))
		fail("the text form does not round-trip", sb.data);
	free(flat2);
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
	free(bin);
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
		uint8_t *flat;
		size_t fsize;

		/* accepted flat bytes are exactly the tree's flat form */
		if (fs_tree_prepare(t, &err) == FS_OK)
		{
			flat = flat_of(t, &fsize);
			if (!same(data, size, flat, fsize))
				fail("accepted flat bytes do not come back unchanged", NULL);
			free(flat);
		}
		check_tree(t);
		fs_tree_free(t);
	}
	else if (err.status != FS_ERR_BINARY && err.status != FS_ERR_VALUE &&
	         err.status != FS_ERR_RANGE && err.status != FS_ERR_KIND && err.status != FS_ERR_LIMIT)
		abort();
	if (fs_tree_from_binary(&fz, data, size, &t, &err) == FS_OK)
	{
		uint8_t *bin;
		size_t bsize;

		bin = binary_of(t, &bsize);
		if (!same(data, size, bin, bsize))
			fail("accepted binary bytes do not come back unchanged", NULL);
		free(bin);
		check_tree(t);
		fs_tree_free(t);
	}
	else if (err.status != FS_ERR_BINARY && err.status != FS_ERR_VALUE &&
	         err.status != FS_ERR_RANGE && err.status != FS_ERR_KIND && err.status != FS_ERR_LIMIT)
		abort();
	return 0;
}
