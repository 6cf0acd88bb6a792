/*
 * fuzz_scontrol.c: libFuzzer harness for scontrol show output. Any input gives records (or the
 * record limit): every pair inside the text, keys that start with a letter or '_' and end before
 * an '=', values without a newline or trailing blank, records numbered from 1 without gaps.
 */
#include "fuzz_alloc.h"
#include "load/scontrol.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *) data;
	fs_scontrol_attr *v;
	fs_error err;
	size_t n, i, last = 0;

	if (fs_scontrol_parse(t, size, &v, &n, &fz, &err) != FS_OK)
	{
		if (err.status != FS_ERR_LIMIT || err.message[0] == '\0')
			abort();
		return 0;
	}
	for (i = 0; i < n; i++)
	{
		size_t k;

		if (v[i].key_len == 0 || v[i].key_off + v[i].key_len >= size ||
		    v[i].val_off + v[i].val_len > size || v[i].val_off <= v[i].key_off ||
		    !fs_is_name_start(t[v[i].key_off]))
			abort();
		if (v[i].record < last || v[i].record > last + 1 || v[i].record == 0)
			abort();
		last = v[i].record;
		for (k = 0; k < v[i].val_len; k++)
			if (t[v[i].val_off + k] == '\n')
				abort();
		if (v[i].val_len && fs_is_space(t[v[i].val_off + v[i].val_len - 1]))
			abort();
	}
	free(v);
	return 0;
}
