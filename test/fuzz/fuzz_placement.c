/*
 * fuzz_placement.c: libFuzzer harness for the node_group_sort_key parser, the splitting of label
 * strings and the vnode pool's flat and binary readers. A parsed line has a non-empty resource
 * and valid words; split labels are the comma-separated items without whitespace around them, and
 * a pool of them writes forms that read back; accepted flat or binary bytes are exactly what the
 * pool writes back, and each form of an accepted pool reads back to the same pool. (The text
 * form, JSON, is read by the server and tested there.)
 */
#include "placement/placement.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *
flat_of(const fs_vpool *p, size_t *n)
{
	uint8_t *flat;

	*n = fs_vpool_flat_size(p);
	flat = malloc(*n);
	fs_vpool_flatten(p, flat);
	return flat;
}

static uint8_t *
binary_of(const fs_vpool *p, size_t *n)
{
	uint8_t *bin;

	*n = fs_vpool_binary_size(p);
	bin = malloc(*n);
	fs_vpool_to_binary(p, bin);
	return bin;
}

/* An accepted pool reads back from its flat and its binary form to the same bytes. */
static void
check_vpool(const fs_vpool *p)
{
	fs_error err;
	fs_vpool *q;
	uint8_t *flat, *flat2, *bin, *bin2;
	size_t n, n2, b, b2;

	flat = flat_of(p, &n);
	bin = binary_of(p, &b);
	if (fs_vpool_from_flat(&fz, flat, n, &q, &err) != FS_OK)
		abort();
	flat2 = flat_of(q, &n2);
	if (n2 != n || memcmp(flat, flat2, n) != 0)
		abort();
	free(flat2);
	fs_vpool_free(q);
	if (fs_vpool_from_binary(&fz, bin, b, &q, &err) != FS_OK)
		abort();
	flat2 = flat_of(q, &n2);
	bin2 = binary_of(q, &b2);
	if (n2 != n || memcmp(flat, flat2, n) != 0 || b2 != b || memcmp(bin, bin2, b) != 0)
		abort();
	free(flat2);
	free(bin2);
	fs_vpool_free(q);
	free(flat);
	free(bin);
}

/* The input as one label string: items between commas, trimmed, in order. */
static void
check_labels(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	fs_label *labels = NULL;
	size_t n = 0, cap = 0, i, commas = 0, at = 0;
	fs_error err;
	fs_vpool *p;

	for (i = 0; i < size; i++)
		commas += s[i] == ',';
	fs_labels_append("k", 1, s, size, &fz, &labels, &n, &cap);
	if (n != commas + 1)
		abort();
	for (i = 0; i < n; i++)
	{
		const fs_label *l = &labels[i];

		/* inside the item that starts at `at`, without a comma or whitespace at either end */
		if (l->value < s + at || l->value + l->valuelen > s + size ||
		    (l->valuelen > 0 &&
		     (memchr(l->value, ',', l->valuelen) != NULL || fs_is_space(l->value[0]) ||
		      fs_is_space(l->value[l->valuelen - 1]))))
			abort();
		while (at < size && s[at] != ',')
			at++;
		at++;
	}
	/* a pool of them writes forms that read back (PostgreSQL text never holds a NUL byte) */
	if (memchr(s, '\0', size) != NULL)
	{
		free(labels);
		return;
	}
	p = fs_vpool_new(&fz);
	if (fs_vpool_add(p, "v", 1, NULL, NULL, labels, n, NULL, 0, &err) == FS_OK &&
	    fs_vpool_prepare(p, &err) == FS_OK)
		check_vpool(p);
	fs_vpool_free(p);
	free(labels);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_sort_key k;
	fs_error err;
	fs_vpool *p;

	if (fs_sort_key_parse((const char *) data, size, &k, &err) == FS_OK)
	{
		if (k.reslen == 0 || k.reslen > FS_SORT_RESOURCE_MAX || strlen(k.resource) != k.reslen ||
		    k.amount > FS_AMOUNT_UNUSED || k.prime > FS_PRIME_NON_PRIME)
			abort();
	}
	else if (err.status != FS_ERR_SYNTAX || err.detail[0] == '\0')
		abort();
	check_labels(data, size);
	if (fs_vpool_from_flat(&fz, data, size, &p, &err) == FS_OK)
	{
		uint8_t *flat;
		size_t n;

		/* accepted flat bytes are exactly the pool's flat form */
		flat = flat_of(p, &n);
		if (n != size || memcmp(flat, data, size) != 0)
			abort();
		free(flat);
		check_vpool(p);
		fs_vpool_free(p);
	}
	else if (err.status != FS_ERR_BINARY && err.status != FS_ERR_VALUE &&
	         err.status != FS_ERR_RANGE)
	{
		fprintf(stderr, "flat input fails with status %d: %s\n", err.status, err.message);
		abort();
	}
	if (fs_vpool_from_binary(&fz, data, size, &p, &err) == FS_OK)
	{
		uint8_t *bin;
		size_t n;

		/* accepted binary bytes come back unchanged */
		bin = binary_of(p, &n);
		if (n != size || memcmp(bin, data, size) != 0)
			abort();
		free(bin);
		check_vpool(p);
		fs_vpool_free(p);
	}
	else if (err.status != FS_ERR_BINARY && err.status != FS_ERR_VALUE &&
	         err.status != FS_ERR_KIND && err.status != FS_ERR_RANGE)
	{
		fprintf(stderr, "binary input fails with status %d: %s\n", err.status, err.message);
		abort();
	}
	return 0;
}
