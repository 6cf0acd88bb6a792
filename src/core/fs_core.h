/*
 * fs_core.h: the interface every src/core module shares: the allocator, the error record,
 * a small string builder and locale-independent number formatting and parsing.
 * Nothing here includes postgres.h; the glue (src/pg) points the allocator at palloc.
 */
#ifndef FS_CORE_H
#define FS_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Where core memory comes from: palloc in the server, malloc in unit tests and fuzzers. */
typedef struct fs_allocator
{
	void *(*alloc)(void *ctx, size_t size); /* never returns NULL for a size the caller checked */
	void (*release)(void *ctx, void *ptr);
	void *ctx;
} fs_allocator;

/*
 * Process-wide settings, fixed once when the module loads (fs_core_init) and only read after:
 * the interrupt hook that long loops call so that a statement can be cancelled (the glue points
 * it at CHECK_FOR_INTERRUPTS, which does not return when the statement is cancelled; NULL in the
 * unit tests and fuzzers), and the secret key of fs_hash, so that crafted labels cannot all land
 * in one hash slot, and the length of one character in the database encoding (pg_mblen in the
 * server, UTF-8 by default), so that positions count characters and excerpts in messages are cut
 * on a character boundary.
 */
typedef void (*fs_interrupt_fn)(void);
typedef int (*fs_mblen_fn)(const char *s);
extern fs_interrupt_fn fs_interrupt_hook;
void fs_core_init(fs_interrupt_fn hook, fs_mblen_fn mblen, uint64_t key0, uint64_t key1);

static inline void
fs_check_interrupts(void)
{
	if (fs_interrupt_hook)
		fs_interrupt_hook();
}

/* In a loop over i: call the interrupt hook every 1024 iterations (i == 0 included). */
#define FS_POLL(i)                                                                                 \
	do                                                                                             \
	{                                                                                              \
		if (((i) &1023u) == 0)                                                                     \
			fs_check_interrupts();                                                                 \
	} while (0)

/* SipHash-1-3 of len bytes under the process key: for hash tables fed with user input. */
uint64_t fs_hash(const void *data, size_t len);

/* Error categories; the glue maps each to one SQLSTATE. */
typedef enum fs_status
{
	FS_OK = 0,
	FS_ERR_SYNTAX,  /* malformed text input (22P02) */
	FS_ERR_RANGE,   /* a number out of range: NaN, infinity, overflow (22003) */
	FS_ERR_VALUE,   /* a well-formed but invalid argument (22023) */
	FS_ERR_KIND,    /* amounts of different kinds combined (42804) */
	FS_ERR_DIVZERO, /* division by zero (22012) */
	FS_ERR_BINARY,  /* malformed binary input (22P03) */
	FS_ERR_LIMIT    /* a size limit exceeded (54000) */
} fs_status;

#define FS_MSG_LEN 512

/*
 * An error as the core reports it: a primary message, and a DETAIL, a HINT and a CONTEXT (where
 * the error happened: "in placement set "x"") that may be empty.
 */
typedef struct fs_error
{
	fs_status status;
	char message[FS_MSG_LEN];
	char detail[FS_MSG_LEN];
	char hint[FS_MSG_LEN];
	char context[FS_MSG_LEN];
} fs_error;

#if defined(__GNUC__)
#define FS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FS_PRINTF(f, a)
#endif

void fs_error_clear(fs_error *err);
/*
 * Set status and primary message and clear the detail, hint and context; returns the status so
 * callers can `return fs_fail(...)`.
 */
fs_status fs_fail(fs_error *err, fs_status status, const char *fmt, ...) FS_PRINTF(3, 4);
void fs_error_detail(fs_error *err, const char *fmt, ...) FS_PRINTF(2, 3);
void fs_error_hint(fs_error *err, const char *fmt, ...) FS_PRINTF(2, 3);
/*
 * Say where the error happened, keeping message, detail and hint: the glue shows it as a CONTEXT
 * line, so it reads as a phrase without a capital or a period: `in placement set "x"`. A second
 * call adds a line below the first (the innermost context first, as PostgreSQL prints them).
 */
void fs_error_context(fs_error *err, const char *fmt, ...) FS_PRINTF(2, 3);
/*
 * A syntax error in text input, the same way in every parser: primary message
 * "invalid <subject>: "<text, cut at 200 bytes>"", detail "<problem> at character N." (or "at
 * end of input.", or just "<problem>." when at is FS_NO_POSITION), and a hint on the form.
 */
#define FS_NO_POSITION ((size_t) -1)
fs_status fs_fail_syntax(fs_error *err, const char *subject, const char *text, size_t len,
                         size_t at, const char *problem, const char *hint);
/*
 * Recast `err` as an error in the text input of `type`, the one primary message every type's
 * input function gives: "invalid input syntax for type <type>: "<text, cut at 200 bytes>"". The
 * former message becomes the first sentence of the detail, before the former detail; hint and
 * context stay. When the former message is itself that of a type's input (a resvec inside a
 * vnodepool), only its detail carries over: the context names the inner value.
 */
fs_status fs_error_as_input(fs_error *err, const char *type, const char *text, size_t len);
/*
 * Copy at most `max` bytes of `s` into `dst` (size `cap`), marking a cut with "..."; the cut falls
 * on a character boundary of the database encoding.
 */
void fs_quote_excerpt(char *dst, size_t cap, const char *s, size_t len, size_t max);

/* 1-based character (not byte) position of byte offset `off`, for messages. */
size_t fs_char_pos(const char *text, size_t off);

/*
 * Small text helpers every parser shares, so that a rule means the same everywhere.
 *
 * Whitespace in every text form is the set C's isspace has in the "C" locale, whatever the
 * server's locale: space, tab, newline, vertical tab, form feed and carriage return. Formats read
 * line by line split at newlines first, so within a line the same set holds without the newline.
 */
static inline bool
fs_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static inline bool
fs_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* An ASCII letter or '_': what a name (a PBS key, a formula's resource) starts with. */
static inline bool
fs_is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* ASCII letters fold to lower case, other bytes stay: names compare alike in every encoding. */
static inline char
fs_ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char) (c - 'A' + 'a') : c;
}

/* ASCII letters to upper case (a message made a sentence), other bytes stay. */
static inline char
fs_ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c;
}

/* Order of two byte strings: memcmp over the common length, then the shorter first. */
int fs_bytes_cmp(const void *a, size_t alen, const void *b, size_t blen);
/*
 * The same order for short strings on hot paths (resource names, path labels): an inline loop,
 * not a call. The sign is what counts.
 */
static inline int
fs_bytes_cmp_short(const void *a, size_t alen, const void *b, size_t blen)
{
	const unsigned char *x = a, *y = b;
	size_t k, n = alen < blen ? alen : blen;

	for (k = 0; k < n; k++)
		if (x[k] != y[k])
			return (int) x[k] - (int) y[k];
	return (alen > blen) - (alen < blen);
}
/* The same with ASCII letters folded to lower case (strcasecmp over byte strings). */
int fs_casecmp(const char *a, size_t alen, const char *b, size_t blen);
/*
 * Room for one more element in an array of n elements of `size` bytes with capacity *cap, grown
 * by doubling (from 8): the array itself when it has room, else a new one with the elements
 * moved and the old one released. Amortised O(1) per element.
 */
void *fs_grow(const fs_allocator *a, void *arr, size_t n, size_t *cap, size_t size);

/* Decimal digits only (at least one), at most `max`: false on anything else or overflow. */
bool fs_parse_digits(const char *s, size_t len, int64_t max, int64_t *out);

/*
 * Whether s[0..len) is the NUL-terminated `word`; fs_span_ieq folds ASCII letters. Both are
 * inline so that the length of a literal word is folded at compile time (the line parsers call
 * it per pair and per field name).
 */
static inline bool
fs_span_eq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && (len == 0 || memcmp(s, word, len) == 0);
}
static inline bool
fs_span_ieq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && fs_casecmp(s, len, word, len) == 0;
}

/*
 * Copy len bytes to p and return the byte after them: writing flat forms field by field. Inline,
 * so that fixed-size fields become plain stores.
 */
static inline uint8_t *
fs_put(uint8_t *p, const void *src, size_t len)
{
	if (len > 0)
		memcpy(p, src, len);
	return p + len;
}

/*
 * `one` when n is 1, else `many`: "%zu %s", n, fs_plural(n, "byte", "bytes"). The glue uses
 * errmsg_plural and errdetail_plural instead when a message has a single count.
 */
const char *fs_plural(uint64_t n, const char *one, const char *many);

/* A byte string that is not NUL-terminated; s may be NULL when len is 0. */
typedef struct fs_str
{
	const char *s;
	size_t len;
} fs_str;

/* A piece of an input, NULL when empty (an absent or empty field). */
static inline fs_str
fs_str_of(const char *s, size_t len)
{
	fs_str r;

	r.s = len ? s : NULL;
	r.len = len;
	return r;
}

bool fs_str_eq(fs_str a, fs_str b);
/* fs_bytes_cmp of two fs_str. */
int fs_str_cmp(fs_str a, fs_str b);
uint64_t fs_str_hash(fs_str s);

/*
 * A small open-addressing index over entry numbers (the caller keeps the entries and compares
 * keys through `eq`): put returns the entry already stored under an equal key, or adds `entry`.
 */
typedef struct fs_hindex
{
	uint32_t *slots; /* entry + 1; 0 = empty */
	size_t mask;
} fs_hindex;

typedef bool (*fs_hindex_eq)(const void *ctx, uint32_t entry, const void *key);
void fs_hindex_init(fs_hindex *h, size_t n, const fs_allocator *a);
uint32_t fs_hindex_put(fs_hindex *h, uint64_t hash, const void *key, uint32_t entry,
                       fs_hindex_eq eq, const void *ctx);
/* The entry stored under an equal key, or UINT32_MAX. */
uint32_t fs_hindex_get(const fs_hindex *h, uint64_t hash, const void *key, fs_hindex_eq eq,
                       const void *ctx);
/* The eq function for an index whose ctx is an array of fs_str and whose keys are fs_str. */
bool fs_str_array_eq(const void *ctx, uint32_t entry, const void *key);

/* A growable string in allocator memory. */
typedef struct fs_sb
{
	const fs_allocator *a;
	char *data;
	size_t len;
	size_t cap;
} fs_sb;

void fs_sb_init(fs_sb *sb, const fs_allocator *a, size_t reserve);
void fs_sb_append(fs_sb *sb, const char *s, size_t n);
/* Room for `extra` more bytes (and the NUL) in one allocation, before appending them piecemeal. */
void fs_sb_reserve(fs_sb *sb, size_t extra);
void fs_sb_appendf(fs_sb *sb, const char *fmt, ...) FS_PRINTF(2, 3);
void fs_sb_append_double(fs_sb *sb, double v);

/*
 * Shortest decimal text that reads back as exactly `v`, in "C" notation independent of locale
 * and of extra_float_digits; non-finite values print as PostgreSQL's float8 does ("Infinity",
 * "-Infinity", "NaN"). buf needs FS_DOUBLE_BUFLEN bytes.
 */
#define FS_DOUBLE_BUFLEN 32
int fs_format_double(double v, char *buf);

/*
 * Scan a decimal number ([+-]digits[.digits][e[+-]digits], at least one digit) at s[0..len).
 * Returns the number of bytes consumed (0 if none) and stores the value, which may be
 * infinite when the text overflows; the caller decides what to do with that.
 */
size_t fs_scan_number(const char *s, size_t len, double *value);

/*
 * Stable merge sort of n elements of `size` bytes with a comparison that takes a context
 * (C99 qsort has none). Needs n * size bytes of scratch from the allocator.
 */
typedef int (*fs_cmp_fn)(const void *a, const void *b, void *ctx);
void fs_sort(void *base, size_t n, size_t size, fs_cmp_fn cmp, void *ctx, const fs_allocator *a);

/* Bounds-checked reading of untrusted bytes (binary input and flat forms). */
typedef struct fs_reader
{
	const uint8_t *p;
	const uint8_t *end;
} fs_reader;

/* Copy the next n bytes to dst; false (and nothing read) when fewer remain. */
bool fs_read(fs_reader *r, void *dst, size_t n);
/* Point *at to the next n bytes and skip them; false when fewer remain. */
bool fs_read_span(fs_reader *r, size_t n, const uint8_t **at);

/*
 * Binary forms are big-endian (network order), whatever the host: integers of 1 to 8 bytes and
 * doubles as the 8 bytes of their IEEE 754 bits.
 */
uint8_t *fs_put_be(uint8_t *p, uint64_t v, int bytes);
uint8_t *fs_put_be_double(uint8_t *p, double d);
uint64_t fs_get_be(const uint8_t *p, int bytes);
/* The next big-endian integer or double; false (and nothing read) when too few bytes remain. */
bool fs_read_be(fs_reader *r, int bytes, uint64_t *v);
bool fs_read_be_double(fs_reader *r, double *d);
uint64_t fs_double_bits(double d);

/* Proleptic Gregorian dates and day numbers counted from 1970-01-01, any year (exact integers). */
int64_t fs_days_from_civil(int64_t y, int64_t m, int64_t d);
void fs_civil_from_days(int64_t z, int64_t *y, int64_t *m, int64_t *d);
double fs_bits_double(uint64_t u);

#endif
