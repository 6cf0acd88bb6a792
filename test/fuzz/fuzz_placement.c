/*
 * fuzz_placement.c: libFuzzer harness for the node_group_sort_key parser and the vnode pool's
 * flat reader. A parsed line has a non-empty resource and valid words; a pool that reads back
 * flattens to the same bytes.
 */
#include "placement.h"
#include "fuzz_alloc.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_sort_key k;
	fs_error err;
	fs_pool *p;

	if (fs_sort_key_parse((const char *) data, size, &k, &err) == FS_OK)
	{
		if (k.reslen == 0 || k.reslen > FS_SORT_RESOURCE_MAX || strlen(k.resource) != k.reslen ||
		    k.amount > FS_AMOUNT_UNUSED || k.prime > FS_PRIME_NON_PRIME)
			abort();
	}
	else if (err.status != FS_ERR_SYNTAX || err.detail[0] == '\0')
		abort();
	if (fs_pool_from_flat(&fz, data, size, &p, &err) == FS_OK)
	{
		size_t n = fs_pool_flat_size(p);
		uint8_t *flat = malloc(n);
		fs_pool *q;

		fs_pool_flatten(p, flat);
		if (fs_pool_from_flat(&fz, flat, n, &q, &err) != FS_OK)
			abort();
		{
			uint8_t *flat2 = malloc(n);

			if (fs_pool_flat_size(q) != n)
				abort();
			fs_pool_flatten(q, flat2);
			if (memcmp(flat, flat2, n) != 0)
				abort();
			free(flat2);
		}
		fs_pool_free(q);
		fs_pool_free(p);
		free(flat);
	}
	return 0;
}
