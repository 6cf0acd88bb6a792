/*
 * fuzz_resgroup.c: libFuzzer harness for the resource_group reader. Every entry line is either
 * a group whose path prints and parses back to the same bytes, or an error that says why and
 * names its line; nothing crashes or leaks.
 */
#include "load/resgroup.h"
#include "types/sharepath.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_rg_entry *e;
	size_t n, i;
	fs_error err;

	if (fs_rg_parse((const char *) data, size, &fz, &e, &n, &err) != FS_OK)
		abort(); /* per-line errors only */
	/* a defined entity with children shares its id with no other defined entity (small inputs) */
	if (n <= 1000)
	{
		bool *parent = calloc(n + 1, sizeof(bool));
		size_t j;

		for (i = 0; i < n; i++)
			if (!e[i].error && e[i].parent_index >= 0)
				parent[e[i].parent_index] = true;
		for (i = 0; i < n; i++)
			for (j = 0; parent[i] && j < n; j++)
				if (j != i && !e[j].error && e[j].id == e[i].id)
					abort();
		free(parent);
	}
	for (i = 0; i < n; i++)
	{
		uint8_t *sp, *back;
		size_t len, backlen;
		fs_sb sb;

		if (i > 0 && e[i].line <= e[i - 1].line)
			abort();
		if (e[i].error)
		{
			fs_rg_error(&e[i], &err);
			if (err.status == FS_OK || e[i].error[0] == '\0' ||
			    strncmp(err.message, "invalid resource_group line ", 28) != 0)
				abort();
			free(e[i].error);
			continue;
		}
		if (e[i].depth == 0 || e[i].shares < 0 || e[i].id == FS_RG_UNKNOWN_ID)
			abort();
		/* the path written from the parent chain is a whole sharepath of the stated size */
		if (fs_rg_path(e, i, &fz, 0, &sp, &len, &err) != FS_OK || fs_sp_nlevel(sp) != e[i].depth ||
		    len != e[i].pathlen || fs_sp_size(sp) != len)
			abort();
		fs_sb_init(&sb, &fz, 16);
		fs_sp_format(&sb, sp);
		if (fs_sp_parse(sb.data, sb.len, &fz, 0, &back, &backlen, &err) != FS_OK ||
		    backlen != len || memcmp(back, sp, len) != 0)
		{
			fprintf(stderr, "path \"%s\" does not round-trip\n", sb.data);
			abort();
		}
		free(back);
		free(sb.data);
		free(sp);
	}
	free(e);
	return 0;
}
