/*
 * resvec.h: resource vectors (ncpus=4,mem=8gb,walltime=01:00:00): parsing, canonical text,
 * the encoded form stored inside the SQL type, and the arithmetic on it.
 *
 * Encoded form (native byte order, no alignment assumed; read through memcpy):
 *   uint32 count, then `count` entries sorted by name (byte order), each
 *   uint8 kind, uint8 name length, name bytes, float64 amount.
 * It is canonical: equal vectors have equal bytes (names sorted, -0 stored as +0).
 */
#ifndef FS_RESVEC_H
#define FS_RESVEC_H

#include "fs_core.h"

#include <stdbool.h>
#include <string.h>

#define FS_RV_NAME_MAX 63
/* The most entries one vector holds (more is an error: docs/limits.md): far more than any site has
 * resources. */
#define FS_RV_ENTRIES_MAX 1000000
/*
 * Durations are below 2^53 seconds in magnitude (285 million years): up to there every value
 * splits exactly into HH:MM:SS with minutes and seconds below 60, so that its text reads back.
 */
#define FS_RV_DURATION_MAX 9007199254740992.0

typedef enum fs_kind
{
	FS_KIND_COUNT = 0,   /* plain number */
	FS_KIND_SIZE = 1,    /* bytes, written with b/kb/mb/gb/tb/pb */
	FS_KIND_DURATION = 2 /* seconds, written as [[H:]MM:]SS */
} fs_kind;

#define FS_KIND_LAST FS_KIND_DURATION

/* One entry; `name` points into the input or the encoded form and is not NUL-terminated. */
typedef struct fs_rv_item
{
	const char *name;
	size_t namelen;
	int kind;
	double amount;
	size_t pos; /* 1 + byte offset of the name in text input, 0 when not from text */
} fs_rv_item;

typedef struct fs_rv_iter
{
	const uint8_t *p;
	uint32_t left;
} fs_rv_iter;

const char *fs_kind_name(int kind);
/* The kind named by `name` ("count", "size", "duration"), or -1. */
int fs_kind_from_name(const char *name);

/* Length in bytes of the encoded form. */
size_t fs_rv_size(const uint8_t *rv);

/* Counting and walking the entries, inline: every operation on vectors does it. */
static inline uint32_t
fs_rv_count(const uint8_t *rv)
{
	uint32_t n;

	memcpy(&n, rv, sizeof(n));
	return n;
}

static inline void
fs_rv_iter_init(fs_rv_iter *it, const uint8_t *rv)
{
	it->left = fs_rv_count(rv);
	it->p = rv + sizeof(uint32_t);
}

static inline bool
fs_rv_next(fs_rv_iter *it, fs_rv_item *item)
{
	if (it->left == 0)
		return false;
	item->kind = it->p[0];
	item->namelen = it->p[1];
	item->name = (const char *) it->p + 2;
	memcpy(&item->amount, it->p + 2 + item->namelen, sizeof(double));
	item->pos = 0;
	it->p += 2 + item->namelen + sizeof(double);
	it->left--;
	return true;
}

/*
 * Validate items (names, finiteness, duplicates), sort them by name and encode them into new
 * allocator memory that starts with `reserve` free bytes for the caller's header. Problems are
 * reported with status `bad` (syntax for text, binary for wire input, value for arrays).
 */
fs_status fs_rv_build(fs_rv_item *items, size_t n, fs_status bad, const fs_allocator *a,
                      size_t reserve, uint8_t **out, size_t *outlen, fs_error *err);

/*
 * A fixed list of names encoded many times over with different amounts (one vector per row of a
 * query): the names checked and put in canonical order once, so that each vector costs one pass
 * over the amounts. fs_rv_plan_encode gives the bytes fs_rv_build gives for the entries whose
 * amount is not zero (zero amounts are left out), all of one kind.
 */
typedef struct fs_rv_plan
{
	size_t n;
	int kind;
	const char **name; /* in canonical order */
	uint8_t *namelen;
	size_t *from;  /* the caller's index of each name */
	size_t maxlen; /* the encoded length with every amount non-zero */
} fs_rv_plan;

/*
 * Check the names (as fs_rv_build checks them, status `bad`: an invalid name, or one given twice)
 * and order them; the names are not copied and must outlive the plan. O(n log n).
 */
fs_status fs_rv_plan_init(fs_rv_plan *p, const char *const *names, size_t n, int kind,
                          fs_status bad, const fs_allocator *a, fs_error *err);
void fs_rv_plan_free(fs_rv_plan *p, const fs_allocator *a);

/*
 * Encode the amounts (amounts[i] for the caller's name i) into out (p->maxlen bytes): the length
 * written, or 0 when an amount does not fit (not finite, or a duration beyond the limit), where
 * fs_rv_build of the same items would fail and say why. O(n).
 */
size_t fs_rv_plan_encode(const fs_rv_plan *p, const double *amounts, uint8_t *out);

/* Check untrusted encoded bytes: bounds, names, kinds, finite amounts, names strictly ascending. */
fs_status fs_rv_validate(const uint8_t *data, size_t len, fs_status bad, fs_error *err);

/* Parse text input (the full grammar of docs/resvec-sharepath.md ("Resource vectors")). */
fs_status fs_rv_parse(const char *text, size_t len, const fs_allocator *a, size_t reserve,
                      uint8_t **out, size_t *outlen, fs_error *err);

/* Parse one amount ("8gb", "01:00:00", "4"); `what` names it in messages. */
fs_status fs_rv_parse_amount(const char *s, size_t len, const char *what, double *amount, int *kind,
                             fs_error *err);

/* Canonical text of one amount and of a whole vector. */
void fs_rv_format_amount(fs_sb *sb, double amount, int kind);
void fs_rv_format(fs_sb *sb, const uint8_t *rv);

/* a + sign * b over the union of names (sign is +1 or -1). */
fs_status fs_rv_add(const uint8_t *a, const uint8_t *b, double sign, const fs_allocator *alloc,
                    size_t reserve, uint8_t **out, size_t *outlen, fs_error *err);

/*
 * state += v in place when every name of v is in state with the same kind (the common case of
 * an aggregate: rows with the same names, or with some of the state's names left out). Returns
 * 1 when done, 0 when v has a name state lacks or another kind (state is untouched), -1 on
 * overflow (err set; state may be partly updated and must be discarded).
 */
int fs_rv_add_inplace(uint8_t *state, size_t statelen, const uint8_t *v, size_t vlen,
                      fs_error *err);

/* v * factor, or v / factor when `divide`. */
fs_status fs_rv_scale(const uint8_t *v, double factor, bool divide, const fs_allocator *alloc,
                      size_t reserve, uint8_t **out, size_t *outlen, fs_error *err);

/* A total order consistent with equality of the encoded form. */
int fs_rv_cmp(const uint8_t *a, const uint8_t *b);

/* *fits = every amount of a is <= the same amount of b (absent counts as 0). */
fs_status fs_rv_fits(const uint8_t *a, const uint8_t *b, bool *fits, fs_error *err);

/*
 * The order of names in the encoded form: bytes (unsigned), then length (a prefix first). Names
 * are short (at most 63 bytes): a loop, not a call to memcmp.
 */
static inline int
fs_rv_name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	return fs_bytes_cmp_short(a, alen, b, blen);
}

/* Look up one resource; false when absent. */
bool fs_rv_get(const uint8_t *rv, const char *name, size_t namelen, fs_rv_item *item);

/*
 * Dominant share of v in total: max over resources of v_r / total_r, ignoring resources absent
 * from total or not positive there. *found is false (and *share 0) when no resource counts.
 */
fs_status fs_rv_dominant(const uint8_t *v, const uint8_t *total, double *share, fs_rv_item *which,
                         bool *found, fs_error *err);

/*
 * The binary entry list that resvec_send writes after its version byte, and that the sharetree
 * and vnodepool binary forms embed: uint32 count, then per entry uint8 kind, uint8 name length,
 * the name, float8 amount, all big-endian. rv may be NULL for an empty list. Reading checks the
 * entries as fs_rv_build does (names, kinds, order, no duplicates, finite amounts) and returns
 * a new encoded resvec, allocated with `reserve` bytes in front.
 */
size_t fs_rv_binary_size(const uint8_t *rv);
uint8_t *fs_rv_put_binary(uint8_t *out, const uint8_t *rv);
fs_status fs_rv_read_binary(fs_reader *r, const fs_allocator *a, size_t reserve, uint8_t **out,
                            size_t *outlen, fs_error *err);

/* The error of combining two amounts of different kinds ("add", "subtract", "compare", ...). */
fs_status fs_rv_kind_mismatch(fs_error *err, const char *op, const fs_rv_item *x,
                              const fs_rv_item *y);

#endif
