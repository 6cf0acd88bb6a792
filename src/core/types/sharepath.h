/*
 * sharepath.h: a node's path in a share tree (physics."alice.smith@example.org"): parsing,
 * canonical text, the encoded form and path algebra.
 *
 * Encoded form (no alignment assumed): uint16 label count, then per label uint8 length (1..255)
 * and the label bytes, root first. The root is the path with no labels. The form is canonical,
 * so equal paths have equal bytes.
 */
#ifndef FS_SHAREPATH_H
#define FS_SHAREPATH_H

#include "fs_core.h"

#include <stdbool.h>

#define FS_SP_LABEL_MAX 255
#define FS_SP_DEPTH_MAX 1024

typedef struct fs_sp_iter
{
	const uint8_t *p;
	uint32_t left;
} fs_sp_iter;

uint32_t fs_sp_nlevel(const uint8_t *sp);
size_t fs_sp_size(const uint8_t *sp);
void fs_sp_iter_init(fs_sp_iter *it, const uint8_t *sp);
bool fs_sp_next(fs_sp_iter *it, const char **label, size_t *len);

/* A label the text form can express: 1..255 bytes, no NUL (the server also checks encoding). */
bool fs_sp_label_ok(const char *label, size_t len);

/* Parse text; every syntax error names the 1-based character position. */
fs_status fs_sp_parse(const char *text, size_t len, const fs_allocator *a, size_t reserve,
                      uint8_t **out, size_t *outlen, fs_error *err);

/* Canonical text: labels quoted only when they need it. */
void fs_sp_format(fs_sb *sb, const uint8_t *sp);
void fs_sp_format_label(fs_sb *sb, const char *label, size_t len);
/* The canonical text cut to fit buf (cap bytes, ending in "..." when cut), for messages. */
void fs_sp_format_buf(const uint8_t *sp, char *buf, size_t cap);
/*
 * A path as messages show it, in the one size every message uses: declare an fs_path_text next
 * to the error and pass fs_sp_text(path, &buf) as the "%s" argument.
 */
#define FS_PATH_TEXT_MAX 200
typedef struct fs_path_text
{
	char s[FS_PATH_TEXT_MAX];
} fs_path_text;
const char *fs_sp_text(const uint8_t *sp, fs_path_text *buf);

/* Pre-order: label by label in byte order, a path directly before its descendants. */
int fs_sp_cmp(const uint8_t *a, const uint8_t *b);

/*
 * An order-preserving prefix of a path for sorting (abbreviated keys): its first 8 bytes
 * written as every label followed by a 0 byte, big-endian, zero-padded. key(a) < key(b)
 * implies fs_sp_cmp(a, b) < 0 (labels hold no 0 byte); equal keys say nothing.
 */
uint64_t fs_sp_prefix_key(const uint8_t *sp);

/* true if a is an ancestor of b or equal to it. */
bool fs_sp_is_ancestor(const uint8_t *a, const uint8_t *b);

/* Number of leading labels a and b share (the depth of their lowest common ancestor). */
uint32_t fs_sp_common(const uint8_t *a, const uint8_t *b);

/* Labels [start, start + count) of sp as a new path (the caller checks the range). */
void fs_sp_slice(const uint8_t *sp, uint32_t start, uint32_t count, const fs_allocator *a,
                 size_t reserve, uint8_t **out, size_t *outlen);

/*
 * subpath with ltree's conventions: a negative offset counts from the end; a NULL length
 * (has_len false) runs to the end; a negative length leaves that many labels off the end.
 */
fs_status fs_sp_subpath(const uint8_t *sp, int32_t offset, bool has_len, int32_t len,
                        const fs_allocator *a, size_t reserve, uint8_t **out, size_t *outlen,
                        fs_error *err);

/* Build a path from labels (each 1..255 bytes without NUL, at most 1024 of them). */
fs_status fs_sp_from_labels(const char *const *labels, const size_t *lens, size_t n,
                            const fs_allocator *a, size_t reserve, uint8_t **out, size_t *outlen,
                            fs_error *err);

/* a || b, where b is a path or (when label != NULL) a single label. */
fs_status fs_sp_concat(const uint8_t *a, const uint8_t *b, const char *label, size_t labellen,
                       const fs_allocator *alloc, size_t reserve, uint8_t **out, size_t *outlen,
                       fs_error *err);

/*
 * For readers that write paths themselves (label by label, from a parent chain, into a buffer
 * they reuse): the label and depth checks of fs_sp_from_labels, with its messages (index is the
 * 0-based position of the label in the path), and the label count at the start of an encoded path.
 */
fs_status fs_sp_check_label(const char *label, size_t len, size_t index, fs_error *err);
fs_status fs_sp_check_depth(size_t n, fs_error *err);
void fs_sp_set_nlevel(uint8_t *sp, uint32_t n);

/*
 * Write a path from its last label back to its first (a parent chain): each label goes just before
 * *pos, which then points at its start. Start with *pos at the path's size and fs_sp_set_nlevel;
 * the first label ends at the label count's two bytes.
 */
static inline void
fs_sp_put_label_before(uint8_t *sp, size_t *pos, const char *label, size_t len)
{
	*pos -= len;
	memcpy(sp + *pos, label, len);
	sp[--*pos] = (uint8_t) len;
}

#endif
