/*
 * jsonb_build.c (glue): a jsonb object of strings in its binary form (utils/jsonb.h describes
 * it): the varlena header, the container header (the pair count and JB_FOBJECT), a JEntry per
 * key then per value, then the keys' bytes in key order and the values' bytes in the same order.
 * Every JB_OFFSET_STRIDE-th JEntry holds the end offset of its data instead of its length, as
 * convertJsonbObject writes them.
 */
#include "load/jsonb_build.h"

#include "utils/jsonb.h"

/* jsonb's key order: shorter first, then bytes; equal keys keep their order (a stable sort) */
static int
jpair_cmp(const void *x, const void *y, void *ctx)
{
	const fs_pg_jpair *a = x, *b = y;

	(void) ctx;
	if (a->klen != b->klen)
		return a->klen < b->klen ? -1 : 1;
	return memcmp(a->key, b->key, a->klen);
}

static void
too_big(void)
{
	ereport(ERROR,
	        (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
	         errmsg("total size of jsonb object elements exceeds the maximum of %u bytes",
	                JENTRY_OFFLENMASK),
	         errhint("The line holds more than 256 MB of keys and values; split the record or "
	                 "load the line as text.")));
}

Datum
fs_pg_jsonb_object(fs_pg_jpair *pairs, size_t n)
{
	size_t i, m = 0, data = 0, total;
	bool sorted = true;
	Jsonb *jb;
	JEntry *je;
	char *out;
	uint32 end = 0;

	for (i = 1; i < n && sorted; i++)
		sorted = jpair_cmp(&pairs[i - 1], &pairs[i], NULL) <= 0;
	if (!sorted)
		fs_sort(pairs, n, sizeof(fs_pg_jpair), jpair_cmp, NULL, &fs_pg_alloc);
	/* of a run of equal keys, the last */
	for (i = 0; i < n; i++)
	{
		if (i + 1 < n && jpair_cmp(&pairs[i], &pairs[i + 1], NULL) == 0)
			continue;
		pairs[m++] = pairs[i];
	}
	for (i = 0; i < m; i++)
	{
		data += pairs[i].klen + (pairs[i].val ? pairs[i].vlen : 0);
		if (data > JENTRY_OFFLENMASK)
			too_big();
	}
	total = VARHDRSZ + sizeof(uint32) + 2 * m * sizeof(JEntry) + data;
	if (total - VARHDRSZ > JENTRY_OFFLENMASK)
		too_big();
	jb = palloc(total);
	SET_VARSIZE(jb, total);
	jb->root.header = (uint32) m | JB_FOBJECT;
	je = jb->root.children;
	out = (char *) &je[2 * m];
	for (i = 0; i < 2 * m; i++)
	{
		const fs_pg_jpair *p = &pairs[i < m ? i : i - m];
		uint32 len = (uint32) (i < m ? p->klen : (p->val ? p->vlen : 0));
		uint32 type = (i >= m && p->val == NULL) ? JENTRY_ISNULL : JENTRY_ISSTRING;

		if (len)
			memcpy(out, i < m ? p->key : p->val, len);
		out += len;
		end += len;
		je[i] = type | ((i % JB_OFFSET_STRIDE) == 0 ? (end | JENTRY_HAS_OFF) : len);
	}
	return PointerGetDatum(jb);
}
