/* fuzz_alloc.h: the malloc allocator every fuzz harness gives the core. */
#ifndef FS_FUZZ_ALLOC_H
#define FS_FUZZ_ALLOC_H

#include "fs_core.h"

#include <stdlib.h>

static void *
fz_alloc(void *ctx, size_t size)
{
	(void) ctx;
	return malloc(size ? size : 1);
}

static void
fz_free(void *ctx, void *ptr)
{
	(void) ctx;
	free(ptr);
}

static const fs_allocator fz = {fz_alloc, fz_free, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
