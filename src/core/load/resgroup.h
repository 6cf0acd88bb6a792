/*
 * resgroup.h: the PBS scheduler's resource_group file (name id parent shares per line), read
 * the way OpenPBS parse_group() reads it, into entries whose paths feed share_tree.
 */
#ifndef FS_RESGROUP_H
#define FS_RESGROUP_H

#include "fs_core.h"

#include <stdbool.h>

/* fgets(buf, 256) in parse_group(): a longer line is read as several lines, so we reject it */
#define FS_RG_LINE_MAX 254
/* PBS predefines "unknown" under the root with this id */
#define FS_RG_UNKNOWN_ID 1

/* parent_index values that are not entries */
#define FS_RG_PARENT_ROOT    (-1)
#define FS_RG_PARENT_UNKNOWN (-2)

/* One entry line of the file, in file order. Text fields point into the document. */
typedef struct fs_rg_entry
{
	int32_t line; /* 1-based line number */
	const char *text;
	size_t textlen; /* the whole line, without its newline */
	const char *name;
	size_t namelen;
	const char *parent;
	size_t parentlen;
	const char *extra; /* fields after the fourth, as written (PTL writes usage there), or NULL */
	size_t extralen;
	int32_t id;
	double shares;
	int32_t parent_index; /* entry index, FS_RG_PARENT_ROOT or FS_RG_PARENT_UNKNOWN */
	uint32_t depth;       /* labels in the path */
	size_t pathlen;       /* bytes of the encoded path */
	/* some line of the file names this name as its parent (set on the first line of a name) */
	bool has_children;
	/*
	 * NULL when the line defines a group; else why PBS would skip it (the DETAIL, allocator
	 * memory), with its status and hint: a few dozen bytes per bad line, not a whole fs_error,
	 * so that a file of short bad lines takes memory in proportion to it. fs_rg_error gives
	 * the whole error.
	 */
	char *error;
	fs_status error_status;
	const char *error_hint;
} fs_rg_entry;

/* The error of a bad entry line: "invalid resource_group line N: "<line>"", its detail and hint. */
void fs_rg_error(const fs_rg_entry *e, fs_error *err);

/*
 * Read a whole resource_group document, in time and memory linear in it (hash lookups of names,
 * parents and ids). Blank lines and comments (first non-blank character '#'
 * or '*') give no entry; every other line gives one, either valid or with its error. A line
 * with an error defines nothing, as in PBS, so a later line naming it as parent fails too.
 * Returns FS_OK (the per-line errors are in the entries); entries is NULL when n is 0.
 */
fs_status fs_rg_parse(const char *doc, size_t len, const fs_allocator *a, fs_rg_entry **entries,
                      size_t *n, fs_error *err);

/*
 * The sharepath of a valid entry: its names from the root's child down. Entries keep only their
 * names and parents (a deep tree's paths add up to far more than the file); fs_rg_path_write
 * writes the path (entries[i].pathlen bytes) into the caller's buffer in O(depth), fs_rg_path
 * into new allocator memory after `reserve` bytes.
 */
void fs_rg_path_write(const fs_rg_entry *entries, size_t i, uint8_t *out);
fs_status fs_rg_path(const fs_rg_entry *entries, size_t i, const fs_allocator *a, size_t reserve,
                     uint8_t **out, size_t *outlen, fs_error *err);

#endif
