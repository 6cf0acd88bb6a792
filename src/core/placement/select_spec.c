/*
 * select_spec.c: PBS select and place specs (qsub -l select=..., -l place=...) read into chunk
 * terms with their amounts and label requirements, default_chunk filled in. One pass over the
 * text; a repeated resource name in a chunk is found by a hash of the chunk's names.
 */
#include "placement/placement.h"

#include "types/resvec.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- small helpers */

/* Resource names as in a resvec, without ":" (which separates a chunk's resources). */
static bool
is_name_char(char c)
{
	return fs_is_name_start(c) || fs_is_digit(c) || c == '.' || c == '/' || c == '-' || c == '@';
}

static char *
copy_str(const fs_allocator *a, const char *s, size_t len)
{
	char *out = a->alloc(a->ctx, len + 1);

	memcpy(out, s, len);
	out[len] = '\0';
	return out;
}

/* ---------------------------------------------------------------- place spec */

static const char place_hint[] =
    "Valid words are free, pack, scatter, vscatter (arrangement), excl, "
    "exclhost, shared (sharing) and group=<resource>, joined by \":\", "
    "for example \"scatter:excl\".";

/* The resource of a place spec's group=<resource> word (`shown` is the whole spec). */
static fs_status
place_group(fs_place *out, const char *res, size_t len, const char *shown, fs_error *err)
{
	size_t k;

	if (out->grouplen > 0)
	{
		fs_fail(err, FS_ERR_VALUE, "place spec \"%s\" names a group twice", shown);
		fs_error_hint(err, "Give one group=<resource>.");
		return FS_ERR_VALUE;
	}
	if (len == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "place spec \"%s\" has \"group=\" without a resource", shown);
		fs_error_hint(err, "Write group=<resource>, for example group=switch.");
		return FS_ERR_VALUE;
	}
	if (len > FS_SORT_RESOURCE_MAX)
	{
		fs_fail(err, FS_ERR_VALUE, "group resource in place spec \"%s\" is too long", shown);
		fs_error_detail(err, "The name is %zu bytes long; at most %d are allowed.", len,
		                FS_SORT_RESOURCE_MAX);
		fs_error_hint(err, "Name a label key, for example group=switch.");
		return FS_ERR_VALUE;
	}
	for (k = 0; k < len; k++)
		if ((unsigned char) res[k] < 0x20 || res[k] == 0x7f)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "group resource in place spec \"%s\" holds a control character", shown);
			fs_error_hint(err, "Name a label key, for example group=switch.");
			return FS_ERR_VALUE;
		}
	memcpy(out->group, res, len);
	out->group[len] = '\0';
	out->grouplen = len;
	return FS_OK;
}

fs_status
fs_place_parse(const char *text, size_t len, fs_place *out, fs_error *err)
{
	char shown[220], word[80];
	size_t i = 0;
	const char *arranged = NULL, *shared = NULL;
	size_t arrangedlen = 0, sharedlen = 0;

	memset(out, 0, sizeof(*out));
	fs_quote_excerpt(shown, sizeof(shown), text, len, 200);
	if (len == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "place spec must not be empty");
		fs_error_hint(err, "%s", place_hint);
		return FS_ERR_VALUE;
	}
	for (;;)
	{
		const char *colon = memchr(text + i, ':', len - i);
		size_t e = colon ? (size_t) (colon - text) : len, wl = e - i;
		const char *w = text + i;
		int arr = -1, share = -1;

		fs_quote_excerpt(word, sizeof(word), w, wl, 60);
		if (fs_span_eq(w, wl, "free"))
			arr = FS_ARRANGE_FREE;
		else if (fs_span_eq(w, wl, "pack"))
			arr = FS_ARRANGE_PACK;
		else if (fs_span_eq(w, wl, "scatter"))
			arr = FS_ARRANGE_SCATTER;
		else if (fs_span_eq(w, wl, "vscatter"))
			arr = FS_ARRANGE_VSCATTER;
		else if (fs_span_eq(w, wl, "excl"))
			share = FS_SHARE_EXCL;
		else if (fs_span_eq(w, wl, "exclhost"))
			share = FS_SHARE_EXCLHOST;
		else if (fs_span_eq(w, wl, "shared"))
			share = FS_SHARE_SHARED;
		else if (wl >= 6 && memcmp(w, "group=", 6) == 0)
		{
			if (place_group(out, w + 6, wl - 6, shown, err) != FS_OK)
				return err->status;
		}
		else
		{
			if (wl == 0)
				fs_fail(err, FS_ERR_VALUE, "place spec \"%s\" has an empty word", shown);
			else
				fs_fail(err, FS_ERR_VALUE, "unknown place word \"%s\"", word);
			fs_error_detail(err, "In place spec \"%s\" at character %zu.", shown,
			                fs_char_pos(text, i));
			fs_error_hint(err, "%s", place_hint);
			return FS_ERR_VALUE;
		}
		if (arr >= 0)
		{
			if (arranged)
			{
				fs_fail(err, FS_ERR_VALUE,
				        "place spec \"%s\" names two arrangements, \"%.*s\" and \"%s\"", shown,
				        (int) arrangedlen, arranged, word);
				fs_error_detail(err, "An arrangement is one of free, pack, scatter and vscatter; "
				                     "PBS takes at most one.");
				fs_error_hint(err, "Keep one of them.");
				return FS_ERR_VALUE;
			}
			arranged = w;
			arrangedlen = wl;
			out->arrangement = (fs_arrangement) arr;
		}
		if (share >= 0)
		{
			if (shared)
			{
				fs_fail(err, FS_ERR_VALUE,
				        "place spec \"%s\" names two sharing words, \"%.*s\" and \"%s\"", shown,
				        (int) sharedlen, shared, word);
				fs_error_detail(err, "Sharing is one of excl, exclhost and shared; PBS takes at "
				                     "most one.");
				fs_error_hint(err, "Keep one of them.");
				return FS_ERR_VALUE;
			}
			shared = w;
			sharedlen = wl;
			out->sharing = (fs_sharing) share;
		}
		if (!colon)
			return FS_OK;
		i = e + 1;
	}
}

/* ---------------------------------------------------------------- select spec */

static const char select_hint[] = "Write chunks as [N:]resource=value[:resource=value...] joined "
                                  "by \"+\", for example \"2:ncpus=8:mem=16gb+1:ngpus=1\".";

static fs_status
select_error(const char *text, size_t len, size_t at, const char *problem, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for select spec", text, len, at, problem, select_hint);
}

static fs_status
too_many_chunks(uint64_t total, fs_error *err)
{
	fs_fail(err, FS_ERR_LIMIT, "select spec asks for too many chunks");
	fs_error_detail(err, "It asks for at least %llu chunks; at most %d are allowed.",
	                (unsigned long long) total, FS_SELECT_CHUNKS_MAX);
	return FS_ERR_LIMIT;
}

static fs_status
too_many_entries(uint64_t entries, fs_error *err)
{
	fs_fail(err, FS_ERR_LIMIT, "select spec names too many resources");
	fs_error_detail(err,
	                "Its chunks name at least %llu resources, counting default_chunk's in each "
	                "chunk; at most %d are allowed.",
	                (unsigned long long) entries, FS_SELECT_ENTRIES_MAX);
	fs_error_hint(err, "Write equal chunks once with a count (2:ncpus=1 rather than "
	                   "ncpus=1+ncpus=1).");
	return FS_ERR_LIMIT;
}

/* One resource=value of a chunk as written. */
typedef struct sel_item
{
	const char *name;
	size_t namelen, name_at;
	const char *value;
	size_t valuelen, value_at;
	bool quoted;
	size_t hslot; /* its place in the chunk's name hash */
} sel_item;

/*
 * The names of one chunk's items, a hash (item index + 1, 0 for empty) so that a chunk with
 * many resources is checked for duplicates in linear time; emptied after each chunk through the
 * items' hslot.
 */
typedef struct name_hash
{
	uint32_t *slot;
	size_t cap;
} name_hash;

/* The item of this name among items[0..n), or SIZE_MAX; *at is where it is or would go. */
static size_t
name_find(const name_hash *h, const sel_item *items, const char *name, size_t len, size_t *at)
{
	size_t mask = h->cap - 1, i;

	for (i = (size_t) fs_hash(name, len) & mask; h->slot[i]; i = (i + 1) & mask)
	{
		const sel_item *it = &items[h->slot[i] - 1];

		if (fs_bytes_cmp(it->name, it->namelen, name, len) == 0)
		{
			*at = i;
			return h->slot[i] - 1;
		}
	}
	*at = i;
	return SIZE_MAX;
}

/* Room for n + 1 names at half load, rehashing items[0..n). */
static void
name_reserve(name_hash *h, sel_item *items, size_t n, const fs_allocator *a)
{
	size_t k, at;

	if (2 * (n + 1) <= h->cap)
		return;
	if (h->slot)
		a->release(a->ctx, h->slot);
	h->cap = h->cap ? 2 * h->cap : 64;
	while (2 * (n + 1) > h->cap)
		h->cap *= 2;
	h->slot = a->alloc(a->ctx, sizeof(uint32_t) * h->cap);
	memset(h->slot, 0, sizeof(uint32_t) * h->cap);
	for (k = 0; k < n; k++)
	{
		(void) name_find(h, items, items[k].name, items[k].namelen, &at);
		h->slot[at] = (uint32_t) k + 1;
		items[k].hslot = at;
	}
}

static void
name_clear(name_hash *h, const sel_item *items, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		h->slot[items[k].hslot] = 0;
}

/* An amount's error as the detail of a select spec error, at the value's position. */
static fs_status
amount_in_select(const char *text, size_t len, size_t at, const fs_error *amount_err, fs_error *err)
{
	char problem[FS_MSG_LEN], hint[FS_MSG_LEN];
	fs_status st;

	snprintf(problem, sizeof(problem), "%s", amount_err->message);
	problem[0] = fs_ascii_upper(problem[0]);
	snprintf(hint, sizeof(hint), "%s",
	         amount_err->hint[0]     ? amount_err->hint
	         : amount_err->detail[0] ? amount_err->detail
	                                 : select_hint);
	st = fs_fail_syntax(err, "input syntax for select spec", text, len, at, problem, hint);
	if (amount_err->status == FS_ERR_RANGE)
		err->status = st = FS_ERR_RANGE;
	return st;
}

/* A chunk term from its items: amounts into the request (with default_chunk), the rest as matches.
 */
static fs_status
build_term(const char *text, size_t len, const sel_item *items, size_t n, const name_hash *names,
           const uint8_t *default_chunk, const fs_allocator *a, fs_chunk_spec *term, fs_error *err)
{
	size_t ndef = default_chunk ? fs_rv_count(default_chunk) : 0, nrv = 0, i, rvlen;
	fs_rv_item *rv = a->alloc(a->ctx, sizeof(fs_rv_item) * (n + ndef + 1));
	fs_status st = FS_OK;

	term->match = a->alloc(a->ctx, sizeof(fs_match) * (n + 1));
	term->nmatch = 0;
	for (i = 0; i < n && st == FS_OK; i++)
	{
		const sel_item *it = &items[i];
		char what[120], shown[80];

		/* an amount, or what would be one were it finite (NaN, inf: an error, not a label) */
		if (!it->quoted && (fs_is_digit(it->value[0]) || it->value[0] == '.' ||
		                    it->value[0] == '-' || fs_span_ieq(it->value, it->valuelen, "nan") ||
		                    fs_span_ieq(it->value, it->valuelen, "inf") ||
		                    fs_span_ieq(it->value, it->valuelen, "infinity")))
		{
			fs_error amount_err;
			fs_rv_item *r = &rv[nrv];

			fs_quote_excerpt(shown, sizeof(shown), it->name, it->namelen, 63);
			snprintf(what, sizeof(what), "resource \"%s\"", shown);
			memset(r, 0, sizeof(*r));
			if (fs_rv_parse_amount(it->value, it->valuelen, what, &r->amount, &r->kind,
			                       &amount_err) != FS_OK)
				st = amount_in_select(text, len, it->value_at, &amount_err, err);
			else if (r->amount < 0)
			{
				char problem[200];

				snprintf(problem, sizeof(problem), "Amount of resource \"%s\" is negative", shown);
				st = select_error(text, len, it->value_at, problem, err);
			}
			r->name = it->name;
			r->namelen = it->namelen;
			nrv++;
		}
		else
		{
			fs_match *m = &term->match[term->nmatch++];

			m->res = copy_str(a, it->name, it->namelen);
			m->reslen = it->namelen;
			m->value = copy_str(a, it->value, it->valuelen);
			m->valuelen = it->valuelen;
			m->boolean = !it->quoted && (fs_span_ieq(it->value, it->valuelen, "true") ||
			                             fs_span_ieq(it->value, it->valuelen, "false"));
		}
	}
	/* PBS's default_chunk: the resources a chunk does not name */
	if (st == FS_OK && ndef > 0)
	{
		fs_rv_iter iter;
		fs_rv_item d;

		fs_rv_iter_init(&iter, default_chunk);
		while (fs_rv_next(&iter, &d))
		{
			size_t at;

			FS_POLL(nrv);
			if (n == 0 || name_find(names, items, d.name, d.namelen, &at) == SIZE_MAX)
				rv[nrv++] = d;
		}
	}
	if (st == FS_OK)
		st = fs_rv_build(rv, nrv, FS_ERR_SYNTAX, a, 0, &term->request, &rvlen, err);
	a->release(a->ctx, rv);
	return st;
}

/* Scan one value at text[*i]: quoted or up to ":" / "+". */
static fs_status
scan_value(const char *text, size_t len, size_t *i, sel_item *it, fs_error *err)
{
	it->value_at = *i;
	if (*i < len && text[*i] == '"')
	{
		const char *close = memchr(text + *i + 1, '"', len - *i - 1);

		if (close == NULL)
			return select_error(text, len, *i, "Unterminated quote", err);
		it->value = text + *i + 1;
		it->valuelen = (size_t) (close - text) - *i - 1;
		it->quoted = true;
		*i = (size_t) (close - text) + 1;
		if (*i < len && text[*i] != ':' && text[*i] != '+')
			return select_error(text, len, *i, "Expected \":\" or \"+\" after the quoted value",
			                    err);
		return FS_OK;
	}
	it->value = text + *i;
	it->quoted = false;
	while (*i < len && text[*i] != ':' && text[*i] != '+')
	{
		if (fs_is_space(text[*i]))
			return select_error(text, len, *i,
			                    "Unexpected blank (PBS allows no spaces in a select "
			                    "spec)",
			                    err);
		if (text[*i] == '"' || text[*i] == '=')
			return select_error(text, len, *i,
			                    text[*i] == '"' ? "Unexpected quote" : "Unexpected \"=\"", err);
		(*i)++;
	}
	it->valuelen = *i - it->value_at;
	if (it->valuelen == 0)
		return select_error(text, len, *i, "Expected a value after \"=\"", err);
	return FS_OK;
}

/* The resource=value pairs of one chunk term, from text[*i] to the next "+" or the end. */
static fs_status
scan_items(const char *text, size_t len, size_t *i, sel_item **items, size_t *n, size_t *cap,
           name_hash *names, const fs_allocator *a, fs_error *err)
{
	for (;;)
	{
		sel_item it;
		char problem[200], shown[80];
		size_t k;
		fs_status st;

		memset(&it, 0, sizeof(it));
		it.name_at = *i;
		if (*i < len && fs_is_space(text[*i]))
			return select_error(text, len, *i,
			                    "Unexpected blank (PBS allows no spaces in a select spec)", err);
		if (*i >= len || !fs_is_name_start(text[*i]))
			return select_error(text, len, *i,
			                    *i > 0 && text[*i - 1] == ':'
			                        ? "Expected a resource name after \":\""
			                        : "Expected a resource name",
			                    err);
		while (*i < len && is_name_char(text[*i]))
			(*i)++;
		it.name = text + it.name_at;
		it.namelen = *i - it.name_at;
		fs_quote_excerpt(shown, sizeof(shown), it.name, it.namelen, 63);
		if (it.namelen > FS_RV_NAME_MAX)
		{
			snprintf(problem, sizeof(problem),
			         "Resource name \"%s\" is %zu bytes long; at most %d are allowed", shown,
			         it.namelen, FS_RV_NAME_MAX);
			return select_error(text, len, it.name_at, problem, err);
		}
		if (*i >= len || text[*i] != '=')
		{
			snprintf(problem, sizeof(problem), "Expected \"=\" after resource name \"%s\"", shown);
			return select_error(text, len, *i, problem, err);
		}
		(*i)++;
		st = scan_value(text, len, i, &it, err);
		if (st != FS_OK)
			return st;
		name_reserve(names, *items, *n, a);
		if (name_find(names, *items, it.name, it.namelen, &k) != SIZE_MAX)
		{
			snprintf(problem, sizeof(problem), "Resource \"%s\" appears twice in one chunk", shown);
			return select_error(text, len, it.name_at, problem, err);
		}
		if (*n == *cap)
			*items = fs_grow(a, *items, *n, cap, sizeof(sel_item));
		it.hslot = k;
		names->slot[k] = (uint32_t) *n + 1;
		(*items)[(*n)++] = it;
		if (*i < len && text[*i] == ':')
		{
			(*i)++;
			continue;
		}
		return FS_OK;
	}
}

fs_status
fs_select_parse(const char *text, size_t len, const uint8_t *default_chunk, const fs_allocator *a,
                fs_select **out, fs_error *err)
{
	fs_select *s = a->alloc(a->ctx, sizeof(fs_select));
	sel_item *items = NULL;
	name_hash names = {NULL, 0};
	size_t i = 0, icap = 0, tcap = 0, ndef = default_chunk ? fs_rv_count(default_chunk) : 0;
	uint64_t total = 0, entries = 0;
	fs_status st = FS_OK;

	memset(s, 0, sizeof(*s));
	while (st == FS_OK)
	{
		uint64_t count = 1;
		size_t count_at = i, nitems = 0;
		fs_chunk_spec *term;
		bool bare = false; /* a count alone ("2") asks for chunks of the defaults only */

		FS_POLL(s->nterms);
		if (i >= len || text[i] == '+')
		{
			st = select_error(text, len, i, "Expected a chunk", err);
			break;
		}
		if (fs_is_digit(text[i]))
		{
			count = 0;
			while (i < len && fs_is_digit(text[i]) && count <= FS_SELECT_CHUNKS_MAX)
				count = count * 10 + (uint64_t) (text[i++] - '0');
			if (count > FS_SELECT_CHUNKS_MAX)
			{
				st = too_many_chunks(count, err);
				break;
			}
			if (count == 0)
			{
				st = select_error(text, len, count_at, "A chunk count must be at least 1", err);
				break;
			}
			if (i < len && text[i] == ':')
				i++;
			else if (i < len && text[i] != '+')
			{
				st = select_error(text, len, i, "Expected \":\" or \"+\" after the chunk count",
				                  err);
				break;
			}
			else
				bare = true;
		}
		else if (text[i] == ':')
			i++; /* ":ncpus=2", one chunk */
		if (!bare)
			st = scan_items(text, len, &i, &items, &nitems, &icap, &names, a, err);
		if (st != FS_OK)
			break;
		/* each term's resources, default_chunk's included, are kept and placed one by one */
		entries += nitems + ndef;
		if (entries > FS_SELECT_ENTRIES_MAX)
		{
			st = too_many_entries(entries, err);
			break;
		}
		if (s->nterms == tcap)
			s->terms = fs_grow(a, s->terms, s->nterms, &tcap, sizeof(fs_chunk_spec));
		term = &s->terms[s->nterms++];
		memset(term, 0, sizeof(*term));
		term->count = (uint32_t) count;
		st = build_term(text, len, items, nitems, &names, default_chunk, a, term, err);
		if (nitems > 0)
			name_clear(&names, items, nitems);
		total += count;
		if (st == FS_OK && total > FS_SELECT_CHUNKS_MAX)
			st = too_many_chunks(total, err);
		if (st != FS_OK || i >= len)
			break;
		i++; /* the "+" */
		if (i >= len)
			st = select_error(text, len, i, "Expected a chunk after \"+\"", err);
	}
	if (items)
		a->release(a->ctx, items);
	if (names.slot)
		a->release(a->ctx, names.slot);
	if (st != FS_OK)
	{
		fs_select_free(s, a);
		return st;
	}
	s->total = (uint32_t) total;
	*out = s;
	return FS_OK;
}

void
fs_select_free(fs_select *s, const fs_allocator *a)
{
	size_t t, k;

	for (t = 0; t < s->nterms; t++)
	{
		fs_chunk_spec *term = &s->terms[t];

		if (term->request)
			a->release(a->ctx, term->request);
		for (k = 0; k < term->nmatch; k++)
		{
			a->release(a->ctx, term->match[k].res);
			a->release(a->ctx, term->match[k].value);
		}
		if (term->match)
			a->release(a->ctx, term->match);
	}
	if (s->terms)
		a->release(a->ctx, s->terms);
	a->release(a->ctx, s);
}
