/*
 * resvec.c: resource vectors: the text grammar (PBS and SLURM forms), canonical output,
 * the encoded form and its arithmetic. Every function runs in time linear in its inputs,
 * except building from unsorted items (n log n).
 */
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENTRY_OVERHEAD (2 + sizeof(double))

static const char *const kind_names[] = {"count", "size", "duration"};

const char *
fs_kind_name(int kind)
{
	return (kind >= 0 && kind <= FS_KIND_LAST) ? kind_names[kind] : "unknown";
}

int
fs_kind_from_name(const char *name)
{
	int k;

	for (k = 0; k <= FS_KIND_LAST; k++)
		if (strcmp(name, kind_names[k]) == 0)
			return k;
	return -1;
}

/* ---------------------------------------------------------------- encoded form */

static int
item_cmp(const void *x, const void *y)
{
	const fs_rv_item *a = x;
	const fs_rv_item *b = y;

	return fs_rv_name_cmp(a->name, a->namelen, b->name, b->namelen);
}

/* Writers that produce the encoded form entry by entry. */
typedef struct rv_writer
{
	uint8_t *base; /* start of the allocation */
	uint8_t *rv;   /* start of the encoded form (base + reserve) */
	uint8_t *p;
	uint32_t count;
} rv_writer;

static void
writer_init(rv_writer *w, const fs_allocator *a, size_t reserve, size_t maxlen)
{
	w->base = a->alloc(a->ctx, reserve + maxlen);
	memset(w->base, 0, reserve);
	w->rv = w->base + reserve;
	w->p = w->rv + sizeof(uint32_t);
	w->count = 0;
}

static void
writer_put(rv_writer *w, const char *name, size_t namelen, int kind, double amount)
{
	if (amount == 0)
		amount = 0; /* -0 becomes +0 so that equal vectors are byte-equal */
	w->p[0] = (uint8_t) kind;
	w->p[1] = (uint8_t) namelen;
	memcpy(w->p + 2, name, namelen);
	memcpy(w->p + 2 + namelen, &amount, sizeof(double));
	w->p += ENTRY_OVERHEAD + namelen;
	w->count++;
}

static void
writer_finish(rv_writer *w, uint8_t **out, size_t *outlen)
{
	memcpy(w->rv, &w->count, sizeof(uint32_t));
	*out = w->base;
	*outlen = (size_t) (w->p - w->rv);
}

size_t
fs_rv_size(const uint8_t *rv)
{
	fs_rv_iter it;
	fs_rv_item item;
	size_t len = sizeof(uint32_t);

	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, &item))
		len += ENTRY_OVERHEAD + item.namelen;
	return len;
}

/* ---------------------------------------------------------------- names and amounts */

static inline bool
is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool
is_name_char(unsigned char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '/' || c == ':' ||
	       c == '-' || c == '@';
}

static const char duration_limit[] =
    "A duration is below 2^53 seconds (about 285 million years) in magnitude.";

static fs_status
duration_out_of_range(fs_error *err, const char *name)
{
	fs_fail(err, FS_ERR_RANGE, "duration of resource \"%s\" is out of range", name);
	fs_error_detail(err, "%s", duration_limit);
	return FS_ERR_RANGE;
}

static bool
name_ok(const char *name, size_t len)
{
	size_t i;

	if (!is_name_start((unsigned char) name[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!is_name_char((unsigned char) name[i]))
			return false;
	return true;
}

/* Finite, and for a duration within what HH:MM:SS can write exactly. */
static bool
amount_fits(int kind, double v)
{
	return isfinite(v) && (kind != FS_KIND_DURATION || fabs(v) < FS_RV_DURATION_MAX);
}

/* The rules every entry obeys (name, amount, kind): FS_OK, or `bad` with the first broken one. */
static fs_status
check_item(const fs_rv_item *it, fs_status bad, fs_error *err)
{
	char shown[80];
	size_t i;

	if (it->namelen > 0 && it->namelen <= FS_RV_NAME_MAX && isfinite(it->amount) && it->kind >= 0 &&
	    it->kind <= FS_KIND_LAST && amount_fits(it->kind, it->amount) &&
	    name_ok(it->name, it->namelen))
		return FS_OK; /* the common case: nothing to format */
	fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
	if (it->namelen == 0)
		return fs_fail(err, bad, "resource name must not be empty");
	if (it->namelen > FS_RV_NAME_MAX)
	{
		fs_fail(err, bad, "resource name \"%s\" is too long", shown);
		fs_error_detail(err, "The name is %zu bytes long; at most %d are allowed.", it->namelen,
		                FS_RV_NAME_MAX);
		return bad;
	}
	for (i = 0; i < it->namelen; i++)
	{
		unsigned char c = (unsigned char) it->name[i];

		if (i == 0 ? !is_name_start(c) : !is_name_char(c))
		{
			fs_fail(err, bad, "invalid resource name \"%s\"", shown);
			fs_error_detail(err, "A name starts with a letter or \"_\" and continues with letters, "
			                     "digits and \"_ . / : - @\".");
			return bad;
		}
	}
	if (it->kind < 0 || it->kind > FS_KIND_LAST)
		return fs_fail(err, bad, "resource \"%s\" has an unknown kind %d", shown, it->kind);
	if (!isfinite(it->amount))
	{
		fs_fail(err, FS_ERR_RANGE, "amount of resource \"%s\" is not finite", shown);
		fs_error_hint(err, "Amounts must be finite numbers; NaN and Infinity are not allowed.");
		return FS_ERR_RANGE;
	}
	if (!amount_fits(it->kind, it->amount))
		return duration_out_of_range(err, shown);
	return FS_OK;
}

static int
item_order(const void *x, const void *y, void *ctx)
{
	(void) ctx;
	return item_cmp(x, y);
}

/*
 * Name order. Canonical text (what ::text and pg_dump print) is in order already, and most
 * vectors are short: a check, an insertion sort, and fs_sort (interruptible) only for long ones.
 * True when the items were strictly ascending already (so no name comes twice).
 */
static bool
sort_items(fs_rv_item *items, size_t n, const fs_allocator *a)
{
	size_t i, j;

	for (i = 1; i < n && item_cmp(&items[i - 1], &items[i]) < 0; i++)
		;
	if (i >= n)
		return true; /* strictly ascending: no name twice either */
	if (n > 16)
	{
		fs_sort(items, n, sizeof(fs_rv_item), item_order, NULL, a);
		return false;
	}
	for (i = 1; i < n; i++)
	{
		fs_rv_item x = items[i];

		for (j = i; j > 0 && item_cmp(&items[j - 1], &x) > 0; j--)
			items[j] = items[j - 1];
		items[j] = x;
	}
	return false;
}

static fs_status
too_many_entries(fs_error *err)
{
	fs_fail(err, FS_ERR_LIMIT, "too many resources in one vector");
	fs_error_detail(err, "A resource vector holds at most %d entries.", FS_RV_ENTRIES_MAX);
	fs_error_hint(err, "Split the amounts over several vectors, or keep them as rows.");
	return FS_ERR_LIMIT;
}

/*
 * What every vector's items go through before they are written: each checked, the count bounded,
 * put in name order, no name twice. maxlen gets the encoded size's bound. With pos_is_char, an
 * item's pos is its character position in the text read (a duplicate's DETAIL names it); else
 * it is the caller's own index, which the sort keeps.
 */
static fs_status
prepare_items(fs_rv_item *items, size_t n, fs_status bad, const fs_allocator *a, bool pos_is_char,
              size_t *maxlen, fs_error *err)
{
	size_t i;
	fs_status st;

	*maxlen = sizeof(uint32_t);
	for (i = 0; i < n; i++)
	{
		st = check_item(&items[i], bad, err);
		if (st != FS_OK)
			return st;
		*maxlen += ENTRY_OVERHEAD + items[i].namelen;
	}
	if (n > FS_RV_ENTRIES_MAX)
		return too_many_entries(err);
	for (i = sort_items(items, n, a) ? n : 1; i < n; i++)
	{
		if (item_cmp(&items[i - 1], &items[i]) == 0)
		{
			char shown[80];
			const fs_rv_item *second = items[i].pos > items[i - 1].pos ? &items[i] : &items[i - 1];

			fs_quote_excerpt(shown, sizeof(shown), items[i].name, items[i].namelen, 63);
			fs_fail(err, bad, "resource \"%s\" appears more than once", shown);
			/* characters are counted only here, so that parsing stays linear */
			if (pos_is_char && second->pos > 0)
				fs_error_detail(err, "The second \"%s\" is at character %zu.", shown,
				                fs_char_pos(second->name - (second->pos - 1), second->pos - 1));
			fs_error_hint(err, "Give each resource once; add the amounts first if needed.");
			return bad;
		}
	}
	return FS_OK;
}

fs_status
fs_rv_build(fs_rv_item *items, size_t n, fs_status bad, const fs_allocator *a, size_t reserve,
            uint8_t **out, size_t *outlen, fs_error *err)
{
	rv_writer w;
	size_t maxlen;
	size_t i;
	fs_status st = prepare_items(items, n, bad, a, true, &maxlen, err);

	if (st != FS_OK)
		return st;
	writer_init(&w, a, reserve, maxlen);
	for (i = 0; i < n; i++)
		writer_put(&w, items[i].name, items[i].namelen, items[i].kind, items[i].amount);
	writer_finish(&w, out, outlen);
	return FS_OK;
}

fs_status
fs_rv_plan_init(fs_rv_plan *p, const char *const *names, size_t n, int kind, fs_status bad,
                const fs_allocator *a, fs_error *err)
{
	fs_rv_item *items = a->alloc(a->ctx, sizeof(fs_rv_item) * (n + 1));
	size_t i;
	fs_status st;

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	for (i = 0; i < n; i++)
	{
		items[i].name = names[i];
		items[i].namelen = strlen(names[i]);
		items[i].kind = kind;
		items[i].amount = 1;
		items[i].pos = i + 1; /* the caller's index, kept through the sort */
	}
	st = prepare_items(items, n, bad, a, false, &p->maxlen, err);
	if (st == FS_OK)
	{
		p->n = n;
		p->name = a->alloc(a->ctx, sizeof(char *) * (n + 1));
		p->namelen = a->alloc(a->ctx, n + 1);
		p->from = a->alloc(a->ctx, sizeof(size_t) * (n + 1));
		for (i = 0; i < n; i++)
		{
			p->name[i] = items[i].name;
			p->namelen[i] = (uint8_t) items[i].namelen;
			p->from[i] = items[i].pos - 1;
		}
	}
	a->release(a->ctx, items);
	return st;
}

void
fs_rv_plan_free(fs_rv_plan *p, const fs_allocator *a)
{
	if (p->name)
		a->release(a->ctx, (void *) p->name);
	if (p->namelen)
		a->release(a->ctx, p->namelen);
	if (p->from)
		a->release(a->ctx, p->from);
	memset(p, 0, sizeof(*p));
}

size_t
fs_rv_plan_encode(const fs_rv_plan *p, const double *amounts, uint8_t *out)
{
	rv_writer w;
	size_t i;

	w.base = w.rv = out;
	w.p = out + sizeof(uint32_t);
	w.count = 0;
	for (i = 0; i < p->n; i++)
	{
		double v = amounts[p->from[i]];

		if (v == 0)
			continue;
		if (!amount_fits(p->kind, v))
			return 0;
		writer_put(&w, p->name[i], p->namelen[i], p->kind, v);
	}
	memcpy(w.rv, &w.count, sizeof(uint32_t));
	return (size_t) (w.p - w.rv);
}

fs_status
fs_rv_validate(const uint8_t *data, size_t len, fs_status bad, fs_error *err)
{
	const uint8_t *p = data + sizeof(uint32_t);
	const uint8_t *end = data + len;
	fs_rv_item prev = {NULL, 0, 0, 0, 0};
	uint32_t count, i;

	if (len < sizeof(uint32_t))
		return fs_fail(err, bad, "resource vector is truncated");
	count = fs_rv_count(data);
	for (i = 0; i < count; i++)
	{
		fs_rv_item it;
		fs_status st;

		if (end - p < 2 || (size_t) (end - p) < ENTRY_OVERHEAD + p[1])
			return fs_fail(err, bad, "resource vector is truncated at entry %u of %u", i + 1,
			               count);
		it.kind = p[0];
		it.namelen = p[1];
		it.name = (const char *) p + 2;
		memcpy(&it.amount, p + 2 + it.namelen, sizeof(double));
		it.pos = 0;
		st = check_item(&it, bad, err);
		if (st != FS_OK)
			return st;
		if (it.amount == 0 && signbit(it.amount))
			return fs_fail(err, bad, "resource vector holds a negative zero");
		if (i > 0 && item_cmp(&prev, &it) >= 0)
			return fs_fail(err, bad, "resource vector entries are not in canonical order");
		prev = it;
		p += ENTRY_OVERHEAD + it.namelen;
	}
	if (p != end)
		return fs_fail(err, bad, "resource vector has %zu trailing %s", (size_t) (end - p),
		               fs_plural((uint64_t) (end - p), "byte", "bytes"));
	return FS_OK;
}

static const struct
{
	const char *suffix;
	int shift;
} size_units[] = {{"b", 0},
                  {"k", 10},
                  {"kb", 10},
                  {"m", 20},
                  {"mb", 20},
                  {"g", 30},
                  {"gb", 30},
                  {"t", 40},
                  {"tb", 40},
                  {"p", 50},
                  {"pb", 50},
                  /* PBS words: 8 bytes each */
                  {"w", 3},
                  {"kw", 13},
                  {"mw", 23},
                  {"gw", 33},
                  {"tw", 43},
                  {"pw", 53}};

typedef enum duration_result
{
	DURATION_OK,
	DURATION_SYNTAX,
	DURATION_SIXTY /* minutes or seconds of 60 or more after a higher field */
} duration_result;

/*
 * Seconds from "[[H:]MM:]SS" (at least one colon; the sign is handled by the caller). The first
 * field may be as large as it likes (90:00 is an hour and a half); the fields after it are
 * minutes and seconds of the clock, below 60.
 */
static duration_result
parse_duration(const char *s, size_t len, double *seconds)
{
	double fields[3];
	int nfields = 0;
	size_t i = 0;

	while (i <= len)
	{
		size_t start = i;
		size_t digits = 0;
		double v;

		if (nfields == 3)
			return DURATION_SYNTAX;
		while (i < len && s[i] != ':')
			i++;
		/* every field is unsigned; only the last may have a fraction or an exponent */
		if (i < len)
		{
			size_t j;

			for (j = start; j < i; j++)
			{
				if (s[j] < '0' || s[j] > '9')
					return DURATION_SYNTAX;
				digits++;
			}
			if (digits == 0)
				return DURATION_SYNTAX;
			if (fs_scan_number(s + start, i - start, &v) != i - start)
				return DURATION_SYNTAX;
		}
		else
		{
			if (start == len || s[start] == '+' || s[start] == '-')
				return DURATION_SYNTAX;
			if (fs_scan_number(s + start, len - start, &v) != len - start)
				return DURATION_SYNTAX;
		}
		if (nfields > 0 && !(v < 60))
			return DURATION_SIXTY;
		fields[nfields++] = v;
		i++; /* past the colon, or past the end */
	}
	if (nfields < 2)
		return DURATION_SYNTAX;
	if (nfields == 2)
		*seconds = fields[0] * 60 + fields[1];
	else
		*seconds = fields[0] * 3600 + fields[1] * 60 + fields[2];
	return DURATION_OK;
}

/* Why an amount does not read; AMOUNT_OK when it does. */
typedef enum amount_result
{
	AMOUNT_OK,
	AMOUNT_DURATION,       /* a malformed duration */
	AMOUNT_DURATION_SIXTY, /* a duration with minutes or seconds of 60 or more */
	AMOUNT_NOT_FINITE,     /* NaN, inf, infinity */
	AMOUNT_SYNTAX,         /* not a number */
	AMOUNT_TOO_LONG,       /* more digits than fs_scan_number reads */
	AMOUNT_UNIT,           /* an unknown unit after the number */
	AMOUNT_RANGE,          /* beyond a double */
	AMOUNT_DURATION_RANGE  /* a duration of 2^53 seconds or more */
} amount_result;

/* Read an amount, without formatting anything: the fast path of every parser. */
static amount_result
scan_amount(const char *s, size_t len, double *amount, int *kind, size_t *unit_at)
{
	double v = 0;
	size_t used, u;

	if (memchr(s, ':', len) != NULL)
	{
		size_t off = (len > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
		duration_result r = parse_duration(s + off, len - off, &v);

		if (r != DURATION_OK)
			return r == DURATION_SIXTY ? AMOUNT_DURATION_SIXTY : AMOUNT_DURATION;
		if (off == 1 && s[0] == '-')
			v = -v;
		*kind = FS_KIND_DURATION;
	}
	else
	{
		used = fs_scan_number(s, len, &v);
		if (used == 0)
		{
			size_t skip = (len > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;

			if (fs_span_ieq(s + skip, len - skip, "nan") ||
			    fs_span_ieq(s + skip, len - skip, "inf") ||
			    fs_span_ieq(s + skip, len - skip, "infinity"))
				return AMOUNT_NOT_FINITE;
			return AMOUNT_SYNTAX;
		}
		if (isnan(v))
			return AMOUNT_TOO_LONG;
		*kind = FS_KIND_COUNT;
		if (used < len)
		{
			/* ASCII | 0x20 lowers a letter and maps nothing else onto one */
			for (u = 0; u < sizeof(size_units) / sizeof(size_units[0]); u++)
				if ((s[used] | 0x20) == size_units[u].suffix[0] &&
				    fs_span_ieq(s + used, len - used, size_units[u].suffix))
					break;
			if (u == sizeof(size_units) / sizeof(size_units[0]))
			{
				*unit_at = used;
				return AMOUNT_UNIT;
			}
			v = ldexp(v, size_units[u].shift);
			*kind = FS_KIND_SIZE;
		}
	}
	if (!isfinite(v))
		return AMOUNT_RANGE;
	if (!amount_fits(*kind, v))
		return AMOUNT_DURATION_RANGE;
	*amount = v == 0 ? 0 : v;
	return AMOUNT_OK;
}

/* The error of an amount that scan_amount refused, naming it and `what` it was for. */
static fs_status
amount_error(const char *s, size_t len, const char *what, amount_result r, size_t unit_at,
             fs_error *err)
{
	char shown[80];
	char ushown[40];

	fs_quote_excerpt(shown, sizeof(shown), s, len, 60);
	switch (r)
	{
		case AMOUNT_DURATION:
		case AMOUNT_DURATION_SIXTY:
			fs_fail(err, FS_ERR_SYNTAX, "invalid duration \"%s\" for %s", shown, what);
			if (r == AMOUNT_DURATION_SIXTY)
				fs_error_detail(err, "Minutes and seconds after the first field must be below 60.");
			fs_error_hint(err, "Write a duration as [[HH:]MM:]SS, for example 01:30:00.");
			return FS_ERR_SYNTAX;
		case AMOUNT_NOT_FINITE:
			fs_fail(err, FS_ERR_RANGE, "amount \"%s\" for %s is not finite", shown, what);
			fs_error_hint(err, "Amounts must be finite numbers; NaN and Infinity are not allowed.");
			return FS_ERR_RANGE;
		case AMOUNT_SYNTAX:
			fs_fail(err, FS_ERR_SYNTAX, "invalid amount \"%s\" for %s", shown, what);
			fs_error_detail(err, "An amount is a number such as 4, 2.5 or 1e6, optionally "
			                     "with a size unit (8gb) or written as a duration (01:00:00).");
			return FS_ERR_SYNTAX;
		case AMOUNT_TOO_LONG:
			return fs_fail(err, FS_ERR_SYNTAX, "amount \"%s\" for %s is too long", shown, what);
		case AMOUNT_UNIT:
			fs_quote_excerpt(ushown, sizeof(ushown), s + unit_at, len - unit_at, 20);
			fs_fail(err, FS_ERR_SYNTAX, "unknown unit \"%s\" in amount \"%s\" for %s", ushown,
			        shown, what);
			fs_error_hint(err, "Size units are b, kb, mb, gb, tb and pb (or k, m, g, t, p), "
			                   "in any case; they are powers of 1024. PBS words (w, kw, mw, "
			                   "gw, tw, pw) are 8 bytes each.");
			return FS_ERR_SYNTAX;
		case AMOUNT_RANGE:
			fs_fail(err, FS_ERR_RANGE, "amount \"%s\" for %s is out of range", shown, what);
			fs_error_detail(err, "The amount does not fit in a double precision number.");
			return FS_ERR_RANGE;
		case AMOUNT_DURATION_RANGE:
			fs_fail(err, FS_ERR_RANGE, "duration \"%s\" for %s is out of range", shown, what);
			fs_error_detail(err, "%s", duration_limit);
			return FS_ERR_RANGE;
		case AMOUNT_OK:
			break;
	}
	return FS_OK;
}

fs_status
fs_rv_parse_amount(const char *s, size_t len, const char *what, double *amount, int *kind,
                   fs_error *err)
{
	size_t unit_at = 0;
	amount_result r = scan_amount(s, len, amount, kind, &unit_at);

	return r == AMOUNT_OK ? FS_OK : amount_error(s, len, what, r, unit_at, err);
}

/* ---------------------------------------------------------------- binary entry list */

size_t
fs_rv_binary_size(const uint8_t *rv)
{
	size_t size = 4;
	fs_rv_iter it;
	fs_rv_item item;

	if (rv == NULL)
		return size;
	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, &item))
		size += 2 + item.namelen + 8;
	return size;
}

uint8_t *
fs_rv_put_binary(uint8_t *out, const uint8_t *rv)
{
	fs_rv_iter it;
	fs_rv_item item;
	size_t i = 0;

	out = fs_put_be(out, rv ? fs_rv_count(rv) : 0, 4);
	if (rv == NULL)
		return out;
	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, &item))
	{
		FS_POLL(i++);
		*out++ = (uint8_t) item.kind;
		*out++ = (uint8_t) item.namelen;
		memcpy(out, item.name, item.namelen);
		out += item.namelen;
		out = fs_put_be_double(out, item.amount);
	}
	return out;
}

fs_status
fs_rv_read_binary(fs_reader *r, const fs_allocator *a, size_t reserve, uint8_t **out,
                  size_t *outlen, fs_error *err)
{
	uint64_t count;
	size_t remain, k;
	fs_rv_item *items;
	fs_status st;

	if (!fs_read_be(r, 4, &count))
		return fs_fail(err, FS_ERR_BINARY,
		               "invalid binary value for type resvec: value is truncated");
	/* every entry needs at least 11 bytes: kind, length, a one-byte name, the amount */
	remain = (size_t) (r->end - r->p);
	if (count > remain / 11 + 1 || count > FS_RV_ENTRIES_MAX)
	{
		fs_fail(err, FS_ERR_BINARY, "invalid binary value for type resvec: bad entry count %u",
		        (unsigned) count);
		fs_error_detail(err, "%zu %s after the header.", remain,
		                fs_plural(remain, "byte remains", "bytes remain"));
		return FS_ERR_BINARY;
	}
	items = a->alloc(a->ctx, sizeof(fs_rv_item) * ((size_t) count + 1));
	for (k = 0; k < count; k++)
	{
		const uint8_t *head, *name;

		FS_POLL(k);
		remain = (size_t) (r->end - r->p);
		if (remain < 2 || remain < 2 + (size_t) r->p[1] + 8)
		{
			a->release(a->ctx, items);
			fs_fail(err, FS_ERR_BINARY, "invalid binary value for type resvec: value is truncated");
			fs_error_detail(err, "Entry %zu of %u is cut short: only %zu %s.", k + 1,
			                (unsigned) count, remain,
			                fs_plural(remain, "byte remains", "bytes remain"));
			return FS_ERR_BINARY;
		}
		fs_read_span(r, 2, &head);
		fs_read_span(r, head[1], &name);
		items[k].kind = head[0];
		items[k].namelen = head[1];
		items[k].name = (const char *) name;
		fs_read_be_double(r, &items[k].amount);
		items[k].pos = 0;
	}
	st = fs_rv_build(items, (size_t) count, FS_ERR_BINARY, a, reserve, out, outlen, err);
	a->release(a->ctx, items);
	return st;
}

/* ---------------------------------------------------------------- text input */

typedef struct parse_state
{
	const char *text;
	size_t len;
	size_t i;
	fs_error *err;
} parse_state;

static fs_status
syntax_error(parse_state *ps, size_t at, const char *what)
{
	return fs_fail_syntax(ps->err, "input syntax for type resvec", ps->text, ps->len, at, what,
	                      "Write resources as name=amount separated by commas, for example "
	                      "\"ncpus=4,mem=8gb,walltime=01:00:00\".");
}

static inline void
skip_space(parse_state *ps)
{
	while (ps->i < ps->len && fs_is_space(ps->text[ps->i]))
		ps->i++;
}

/* One entry, name=amount, at ps->i (spaces before it skipped); FS_OK with ps->i after it. */
static fs_status
read_entry(parse_state *ps, fs_rv_item *it)
{
	const char *text = ps->text;
	size_t len = ps->len, start, unit_at = 0;
	char what[100];
	char shown[80];
	char msg[140];
	amount_result ar;

	skip_space(ps);
	start = ps->i;
	if (ps->i >= len || !is_name_start((unsigned char) text[ps->i]))
		return syntax_error(ps, ps->i,
		                    ps->i < len && text[ps->i] == '='
		                        ? "Missing resource name before \"=\""
		                        : "Expected a resource name (a letter or \"_\" first)");
	while (ps->i < len && is_name_char((unsigned char) text[ps->i]))
		ps->i++;
	it->name = text + start;
	it->namelen = ps->i - start;
	it->pos = start + 1;
	if (it->namelen > FS_RV_NAME_MAX)
	{
		fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
		syntax_error(ps, start, "Resource name too long");
		fs_error_detail(ps->err,
		                "Resource name \"%s\" at character %zu is %zu bytes long; at "
		                "most %d are allowed.",
		                shown, fs_char_pos(text, start), it->namelen, FS_RV_NAME_MAX);
		return FS_ERR_SYNTAX;
	}
	skip_space(ps);
	if (ps->i >= len || text[ps->i] != '=')
	{
		fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
		snprintf(msg, sizeof(msg), "Expected \"=\" after resource name \"%s\"", shown);
		return syntax_error(ps, ps->i, msg);
	}
	ps->i++;
	skip_space(ps);
	start = ps->i;
	while (ps->i < len && text[ps->i] != ',' && text[ps->i] != '}' && !fs_is_space(text[ps->i]))
		ps->i++;
	if (ps->i == start)
	{
		fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
		snprintf(msg, sizeof(msg), "Missing amount for resource \"%s\"", shown);
		return syntax_error(ps, start, msg);
	}
	ar = scan_amount(text + start, ps->i - start, &it->amount, &it->kind, &unit_at);
	if (ar != AMOUNT_OK)
	{
		char moved[FS_MSG_LEN];

		fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
		snprintf(what, sizeof(what), "resource \"%s\"", shown);
		amount_error(text + start, ps->i - start, what, ar, unit_at, ps->err);
		/* keep the amount's message and say where it is */
		memcpy(moved, ps->err->detail, sizeof(moved));
		fs_error_detail(ps->err, "%s%sThe amount starts at character %zu.", moved,
		                moved[0] ? " " : "", fs_char_pos(text, start));
		return fs_error_as_input(ps->err, "resvec", text, len);
	}
	return FS_OK;
}

/*
 * Room for one more entry: on the stack first (`local`), then grown as entries are read, never
 * sized from text not parsed yet.
 */
static fs_status
room_for_entry(fs_rv_item **items, size_t *cap, size_t n, const fs_rv_item *local,
               const fs_allocator *a, fs_error *err)
{
	fs_rv_item *grown;

	if (n < *cap)
		return FS_OK;
	if (n == FS_RV_ENTRIES_MAX)
		return too_many_entries(err);
	*cap = *cap * 2 < FS_RV_ENTRIES_MAX ? *cap * 2 : FS_RV_ENTRIES_MAX;
	grown = a->alloc(a->ctx, *cap * sizeof(fs_rv_item));
	memcpy(grown, *items, n * sizeof(fs_rv_item));
	if (*items != local)
		a->release(a->ctx, *items);
	*items = grown;
	return FS_OK;
}

fs_status
fs_rv_parse(const char *text, size_t len, const fs_allocator *a, size_t reserve, uint8_t **out,
            size_t *outlen, fs_error *err)
{
	parse_state ps = {text, len, 0, err};
	fs_rv_item local[16];
	fs_rv_item *items = local;
	size_t cap = sizeof(local) / sizeof(local[0]);
	size_t n = 0;
	bool braced = false;
	fs_status st = FS_OK;

	skip_space(&ps);
	if (ps.i < len && text[ps.i] == '{')
	{
		braced = true;
		ps.i++;
		skip_space(&ps);
	}
	if (!(ps.i == len || (braced && text[ps.i] == '}')))
	{
		for (;;)
		{
			FS_POLL(n);
			st = room_for_entry(&items, &cap, n, local, a, err);
			if (st == FS_OK)
				st = read_entry(&ps, &items[n]);
			if (st != FS_OK)
				break;
			n++;
			skip_space(&ps);
			if (ps.i < len && text[ps.i] == ',')
			{
				ps.i++;
				continue;
			}
			if (ps.i == len || (braced && text[ps.i] == '}'))
				break;
			st = syntax_error(&ps, ps.i, "Expected \",\" between resources");
			break;
		}
	}
	if (st == FS_OK && braced)
	{
		if (ps.i >= len || text[ps.i] != '}')
			st = syntax_error(&ps, ps.i, "Expected \"}\"");
		else
		{
			ps.i++;
			skip_space(&ps);
			if (ps.i < len)
				st = syntax_error(&ps, ps.i, "Unexpected text after \"}\"");
		}
	}
	if (st == FS_OK)
	{
		st = fs_rv_build(items, n, FS_ERR_SYNTAX, a, reserve, out, outlen, err);
		if (st == FS_ERR_SYNTAX) /* a resource given twice: one message form for all input */
			st = fs_error_as_input(err, "resvec", text, len);
	}
	if (items != local)
		a->release(a->ctx, items);
	return st;
}

/* ---------------------------------------------------------------- text output */

/* A size in the largest unit (b, kb, ... pb) that shows it exactly. */
static void
format_size(fs_sb *sb, double v)
{
	static const char *const units[] = {"b", "kb", "mb", "gb", "tb", "pb"};
	int u;

	if (v != 0)
	{
		for (u = 5; u >= 1; u--)
		{
			double q = ldexp(v, -10 * u);

			if (q == floor(q) && ldexp(q, 10 * u) == v)
			{
				fs_sb_append_double(sb, q);
				fs_sb_append(sb, units[u], strlen(units[u]));
				return;
			}
		}
	}
	fs_sb_append_double(sb, v);
	fs_sb_append(sb, "b", 1);
}

/* A duration as [-]HH:MM:SS with the fewest decimals of the seconds that read back exactly (all
 * seconds in the last field when it cannot be split exactly). */
static void
format_duration(fs_sb *sb, double v)
{
	char buf[FS_DOUBLE_BUFLEN + 8];
	double h, m, s;
	int digits;

	if (v < 0)
	{
		fs_sb_append(sb, "-", 1);
		v = -v;
	}
	h = floor(v / 3600);
	m = floor((v - h * 3600) / 60);
	s = v - h * 3600 - m * 60;
	if (h < 1e15 && s >= 0 && s < 60 && m >= 0 && m < 60)
	{
		if (s == floor(s) && h * 3600 + m * 60 + s == v)
		{
			/* whole seconds, the usual case: no search for digits */
			fs_sb_appendf(sb, "%02.0f:%02.0f:%02d", h, m, (int) s);
			return;
		}
		/* the fewest decimals of the seconds that read back as exactly v */
		for (digits = 0; digits <= 17; digits++)
		{
			snprintf(buf, sizeof(buf), "%0*.*f", digits > 0 ? digits + 3 : 2, digits, s);
			if (h * 3600 + m * 60 + strtod(buf, NULL) == v)
			{
				fs_sb_appendf(sb, "%02.0f:%02.0f:%s", h, m, buf);
				return;
			}
		}
	}
	/* too large or too fine to split exactly: all seconds in the last field */
	fs_sb_append(sb, "00:00:", 6);
	fs_sb_append_double(sb, v);
}

void
fs_rv_format_amount(fs_sb *sb, double amount, int kind)
{
	if (kind == FS_KIND_SIZE)
		format_size(sb, amount);
	else if (kind == FS_KIND_DURATION)
		format_duration(sb, amount);
	else
		fs_sb_append_double(sb, amount);
}

void
fs_rv_format(fs_sb *sb, const uint8_t *rv)
{
	fs_rv_iter it;
	fs_rv_item item;
	bool first = true;
	size_t i = 0;

	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, &item))
	{
		FS_POLL(i++);
		if (!first)
			fs_sb_append(sb, ",", 1);
		first = false;
		fs_sb_append(sb, item.name, item.namelen);
		fs_sb_append(sb, "=", 1);
		fs_rv_format_amount(sb, item.amount, item.kind);
	}
}

/*
 * Walk two vectors together in name order, like a merge join: each step yields the next name
 * with its entry on the left, on the right, or on both sides (NULL where absent).
 */
typedef struct rv_merge
{
	fs_rv_iter ia, ib;
	fs_rv_item x, y;
	bool hx, hy;
} rv_merge;

static void
merge_init(rv_merge *m, const uint8_t *a, const uint8_t *b)
{
	fs_rv_iter_init(&m->ia, a);
	fs_rv_iter_init(&m->ib, b);
	m->hx = fs_rv_next(&m->ia, &m->x);
	m->hy = fs_rv_next(&m->ib, &m->y);
}

static bool
merge_next(rv_merge *m, fs_rv_item *x, fs_rv_item *y, bool *hx, bool *hy)
{
	int c;

	if (!m->hx && !m->hy)
		return false;
	c = !m->hx ? 1 : !m->hy ? -1 : fs_rv_name_cmp(m->x.name, m->x.namelen, m->y.name, m->y.namelen);
	*hx = c <= 0;
	*hy = c >= 0;
	if (*hx)
	{
		*x = m->x;
		m->hx = fs_rv_next(&m->ia, &m->x);
	}
	if (*hy)
	{
		*y = m->y;
		m->hy = fs_rv_next(&m->ib, &m->y);
	}
	return true;
}

/* ---------------------------------------------------------------- arithmetic */

fs_status
fs_rv_kind_mismatch(fs_error *err, const char *op, const fs_rv_item *x, const fs_rv_item *y)
{
	char shown[80];

	fs_quote_excerpt(shown, sizeof(shown), x->name, x->namelen, 63);
	fs_fail(err, FS_ERR_KIND, "cannot %s amounts of different kinds for resource \"%s\"", op,
	        shown);
	fs_error_detail(err, "The left amount is a %s and the right one a %s.", fs_kind_name(x->kind),
	                fs_kind_name(y->kind));
	fs_error_hint(err, "Write both amounts alike: a size with a unit (8gb), a duration as "
	                   "HH:MM:SS, or a plain count.");
	return FS_ERR_KIND;
}

static fs_status
overflow(fs_error *err, const fs_rv_item *x)
{
	char shown[80];

	fs_quote_excerpt(shown, sizeof(shown), x->name, x->namelen, 63);
	fs_fail(err, FS_ERR_RANGE, "value out of range: amount of resource \"%s\" overflows", shown);
	if (x->kind == FS_KIND_DURATION)
		fs_error_detail(err, "%s", duration_limit);
	else
		fs_error_detail(err, "The result does not fit in a double precision number.");
	return FS_ERR_RANGE;
}

fs_status
fs_rv_add(const uint8_t *a, const uint8_t *b, double sign, const fs_allocator *alloc,
          size_t reserve, uint8_t **out, size_t *outlen, fs_error *err)
{
	rv_merge m;
	fs_rv_item x, y;
	bool hx, hy;
	rv_writer w;

	writer_init(&w, alloc, reserve, fs_rv_size(a) + fs_rv_size(b));
	merge_init(&m, a, b);
	while (merge_next(&m, &x, &y, &hx, &hy))
	{
		fs_status st = FS_OK;
		double r;

		if (!hy)
			writer_put(&w, x.name, x.namelen, x.kind, x.amount);
		else if (!hx)
			writer_put(&w, y.name, y.namelen, y.kind, sign * y.amount);
		else if (x.kind != y.kind)
			st = fs_rv_kind_mismatch(err, sign > 0 ? "add" : "subtract", &x, &y);
		else if (!amount_fits(x.kind, r = x.amount + sign * y.amount))
			st = overflow(err, &x);
		else
			writer_put(&w, x.name, x.namelen, x.kind, r);
		if (st != FS_OK)
		{
			alloc->release(alloc->ctx, w.base);
			return st;
		}
	}
	writer_finish(&w, out, outlen);
	return FS_OK;
}

/* *state_entry += the amount of v_entry (the same name and kind), as fs_rv_add computes it. */
static int
add_entry_inplace(uint8_t *p, const uint8_t *q, fs_error *err)
{
	size_t head = 2 + p[1];
	double x, y;

	memcpy(&x, p + head, sizeof(double));
	memcpy(&y, q + head, sizeof(double));
	x += y;
	if (!amount_fits(p[0], x))
	{
		fs_rv_item item = {(const char *) p + 2, p[1], p[0], 0, 0};

		overflow(err, &item);
		return -1;
	}
	if (x == 0)
		x = 0;
	memcpy(p + head, &x, sizeof(double));
	return 1;
}

/* The same names and kinds in the same order: the rows of most aggregates. */
static int
add_same_shape(uint8_t *state, size_t statelen, const uint8_t *v)
{
	uint8_t *p = state + sizeof(uint32_t);
	const uint8_t *q = v + sizeof(uint32_t);
	const uint8_t *end = state + statelen;

	while (p < end)
	{
		size_t head = 2 + p[1];

		if (memcmp(p, q, head) != 0)
			return 0;
		p += head + sizeof(double);
		q += head + sizeof(double);
	}
	return 1;
}

/*
 * Every entry of v at its place in state (found by the merge of the two sorted lists, with the
 * same kind), written to at[]: rows that leave some of the state's resources out. 0 when one is
 * missing or of another kind, or when v has more entries than at[] holds.
 */
#define INPLACE_SUBSET_MAX 64
/* Where each entry of `v` stands in `state` when every name of `v` is in it (the in-place sum's
 * fast path): the count of entries, or 0 when a name is missing. */
static int
find_subset(uint8_t *state, size_t statelen, const uint8_t *v, size_t vlen,
            uint8_t *at[INPLACE_SUBSET_MAX])
{
	uint8_t *p = state + sizeof(uint32_t);
	const uint8_t *q = v + sizeof(uint32_t);
	const uint8_t *end = state + statelen, *vend = v + vlen;
	uint32_t k = 0;

	for (; q < vend; q += 2 + q[1] + sizeof(double))
	{
		int c = 1;

		if (k == INPLACE_SUBSET_MAX)
			return 0;
		while (p < end &&
		       (c = fs_rv_name_cmp((const char *) p + 2, p[1], (const char *) q + 2, q[1])) < 0)
			p += 2 + p[1] + sizeof(double);
		if (c != 0 || p[0] != q[0])
			return 0;
		at[k++] = p;
		p += 2 + p[1] + sizeof(double);
	}
	return 1;
}

int
fs_rv_add_inplace(uint8_t *state, size_t statelen, const uint8_t *v, size_t vlen, fs_error *err)
{
	uint8_t *at[INPLACE_SUBSET_MAX];
	const uint8_t *q = v + sizeof(uint32_t);
	uint32_t k, n = fs_rv_count(v);

	/* first find every place, so that the state is untouched when v does not fit in it */
	if (statelen == vlen && memcmp(state, v, sizeof(uint32_t)) == 0 &&
	    add_same_shape(state, statelen, v))
	{
		uint8_t *p = state + sizeof(uint32_t);

		for (k = 0; k < n; k++)
		{
			if (add_entry_inplace(p, q, err) < 0)
				return -1;
			p += 2 + p[1] + sizeof(double);
			q += 2 + q[1] + sizeof(double);
		}
		return 1;
	}
	if (!find_subset(state, statelen, v, vlen, at))
		return 0;
	for (k = 0; k < n; k++)
	{
		if (add_entry_inplace(at[k], q, err) < 0)
			return -1;
		q += 2 + q[1] + sizeof(double);
	}
	return 1;
}

fs_status
fs_rv_scale(const uint8_t *v, double factor, bool divide, const fs_allocator *alloc, size_t reserve,
            uint8_t **out, size_t *outlen, fs_error *err)
{
	fs_rv_iter it;
	fs_rv_item x;
	rv_writer w;

	if (!isfinite(factor))
	{
		fs_fail(err, FS_ERR_RANGE, "cannot %s a resource vector by a non-finite number",
		        divide ? "divide" : "multiply");
		fs_error_hint(err, "Use a finite factor.");
		return FS_ERR_RANGE;
	}
	if (divide && factor == 0)
	{
		fs_fail(err, FS_ERR_DIVZERO, "division by zero");
		fs_error_detail(err, "A resource vector was divided by 0.");
		return FS_ERR_DIVZERO;
	}
	writer_init(&w, alloc, reserve, fs_rv_size(v));
	fs_rv_iter_init(&it, v);
	while (fs_rv_next(&it, &x))
	{
		double r = divide ? x.amount / factor : x.amount * factor;

		if (!amount_fits(x.kind, r))
		{
			alloc->release(alloc->ctx, w.base);
			return overflow(err, &x);
		}
		writer_put(&w, x.name, x.namelen, x.kind, r);
	}
	writer_finish(&w, out, outlen);
	return FS_OK;
}

int
fs_rv_cmp(const uint8_t *a, const uint8_t *b)
{
	fs_rv_iter ia, ib;
	fs_rv_item x, y;

	fs_rv_iter_init(&ia, a);
	fs_rv_iter_init(&ib, b);
	for (;;)
	{
		bool hx = fs_rv_next(&ia, &x);
		bool hy = fs_rv_next(&ib, &y);
		int c;

		if (!hx || !hy)
			return (int) hx - (int) hy;
		c = fs_rv_name_cmp(x.name, x.namelen, y.name, y.namelen);
		if (c != 0)
			return c;
		if (x.kind != y.kind)
			return x.kind < y.kind ? -1 : 1;
		if (x.amount != y.amount)
			return x.amount < y.amount ? -1 : 1;
	}
}

fs_status
fs_rv_fits(const uint8_t *a, const uint8_t *b, bool *fits, fs_error *err)
{
	rv_merge m;
	fs_rv_item x, y;
	bool hx, hy;

	*fits = true;
	merge_init(&m, a, b);
	while (merge_next(&m, &x, &y, &hx, &hy))
	{
		if (hx && hy && x.kind != y.kind)
			return fs_rv_kind_mismatch(err, "compare", &x, &y);
		if ((hx ? x.amount : 0) > (hy ? y.amount : 0))
			*fits = false;
	}
	return FS_OK;
}

bool
fs_rv_get(const uint8_t *rv, const char *name, size_t namelen, fs_rv_item *item)
{
	fs_rv_iter it;

	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, item))
	{
		int c = fs_rv_name_cmp(item->name, item->namelen, name, namelen);

		if (c == 0)
			return true;
		if (c > 0)
			break;
	}
	return false;
}

fs_status
fs_rv_dominant(const uint8_t *v, const uint8_t *total, double *share, fs_rv_item *which,
               bool *found, fs_error *err)
{
	rv_merge m;
	fs_rv_item x, y;
	bool hx, hy;
	double best = 0;

	*found = false;
	merge_init(&m, v, total);
	while (merge_next(&m, &x, &y, &hx, &hy))
	{
		double r;

		if (!hx || !hy || y.amount <= 0)
			continue;
		if (x.kind != y.kind)
			return fs_rv_kind_mismatch(err, "divide", &x, &y);
		r = x.amount / y.amount;
		if (!isfinite(r))
			return overflow(err, &x);
		if (!*found || r > best)
		{
			best = r;
			*which = x;
			*found = true;
		}
	}
	*share = best;
	return FS_OK;
}
