/*
 * jsonb_build.h: a jsonb object of string (or null) values written straight in jsonb's binary
 * form, for the loaders' attrs, requested_text and extra columns: no JsonbValue tree, no text to
 * parse. The bytes are those jsonb_in or pushJsonbValue give for the same pairs.
 */
#ifndef FS_PG_JSONB_BUILD_H
#define FS_PG_JSONB_BUILD_H

#include "fs_pg.h"

/* A key and its value (val NULL: a JSON null); both raw bytes, no JSON escapes. */
typedef struct fs_pg_jpair
{
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
} fs_pg_jpair;

/*
 * The object of pairs[0..n) as a jsonb Datum. Pairs may come in any order: out of jsonb's key
 * order (shorter keys first, then bytes) they are sorted first, stably; of a key given more than
 * once the last is kept, as jsonb keeps it. The array is reordered in place. O(n) when the pairs
 * come in order, O(n log n) otherwise; one allocation.
 */
Datum fs_pg_jsonb_object(fs_pg_jpair *pairs, size_t n);

#endif
