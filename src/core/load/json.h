/*
 * json.h: a JSON value as a tree, for the loaders of the formats new tools write (sacct --json,
 * condor_history -json, qstat -F json). The glue builds the tree from a jsonb value; the text
 * parser here builds it from JSON text (the fuzzers, the unit tests, text documents).
 */
#ifndef FS_JSON_H
#define FS_JSON_H

#include "fs_core.h"

#include <stdbool.h>

typedef enum fs_json_kind
{
	FS_JSON_NULL = 0,
	FS_JSON_FALSE,
	FS_JSON_TRUE,
	FS_JSON_NUMBER, /* str holds the number as written */
	FS_JSON_STRING, /* str holds the unescaped text */
	FS_JSON_ARRAY,  /* n values in items */
	FS_JSON_OBJECT  /* n keys in keys, their values in items (in document order) */
} fs_json_kind;

typedef struct fs_json
{
	int kind;
	fs_str str;
	size_t n;
	struct fs_json *items;
	fs_str *keys;
} fs_json;

/* The deepest nesting the text parser reads; deeper is a 54000 error. */
#define FS_JSON_MAX_DEPTH 200

/*
 * Parse JSON text (RFC 8259; a leading byte-order mark is an error) into *out. Strings and
 * arrays are in allocator memory (fs_json_free frees them); on failure nothing is left
 * allocated and err names the character. Linear in the text.
 */
fs_status fs_json_parse(const char *text, size_t len, const fs_allocator *a, fs_json *out,
                        fs_error *err);
/*
 * Parse the JSON value that starts at text[*pos] (after any whitespace) and set *pos after it:
 * for documents of values one after another (JSON lines, a concatenation).
 */
fs_status fs_json_parse_next(const char *text, size_t len, size_t *pos, const fs_allocator *a,
                             fs_json *out, fs_error *err);
void fs_json_free(fs_json *v, const fs_allocator *a);

/* The value of key in object v (the last one when the key repeats), or NULL; linear in v's keys. */
const fs_json *fs_json_get(const fs_json *v, const char *key);

#endif
