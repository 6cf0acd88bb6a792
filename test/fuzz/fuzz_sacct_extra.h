/*
 * fuzz_sacct_extra.h: what every sacct record's extra must be, whichever reader made it (the
 * glue writes it as a jsonb object without sorting it): the header's columns in jsonb key order
 * (shorter names first, then bytes; names are distinct), then at most array_task_spec.
 */
#ifndef FS_FUZZ_SACCT_EXTRA_H
#define FS_FUZZ_SACCT_EXTRA_H

#include "load/sacct.h"

#include <stdlib.h>
#include <string.h>

static inline void
fuzz_check_extra(const fs_sacct_record *r)
{
	size_t i;

	for (i = 0; i < r->nextra; i++)
	{
		const fs_sacct_extra *e = &r->extra[i], *p = i ? &r->extra[i - 1] : NULL;

		if (e->key.s == NULL || (e->val.s == NULL && e->val.len != 0))
			abort();
		if (i + 1 == r->nextra && fs_span_eq(e->key.s, e->key.len, "array_task_spec"))
			break;
		if (p && (p->key.len > e->key.len ||
		          (p->key.len == e->key.len && memcmp(p->key.s, e->key.s, e->key.len) >= 0)))
			abort();
	}
}

#endif
