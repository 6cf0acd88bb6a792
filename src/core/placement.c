/*
 * placement.c: vnode pools, placement sets and node_group_sort_key. Building the sets is linear
 * in the vnodes' label combinations (a hash on each set's identity); ordering them is
 * O(s log s) for s sets.
 */
#include "placement.h"

#include "resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAT_VERSION 1
#define NAME_MAX_LEN 1024

struct fs_pool
{
	fs_allocator a;
	fs_vnode *v;
	uint32_t n;
	uint32_t cap;
};

static const uint8_t empty_rv[4] = {0, 0, 0, 0};

/* ---------------------------------------------------------------- the pool */

fs_pool *
fs_pool_new(const fs_allocator *a)
{
	fs_pool *p = a->alloc(a->ctx, sizeof(fs_pool));

	p->a = *a;
	p->n = 0;
	p->cap = 16;
	p->v = a->alloc(a->ctx, sizeof(fs_vnode) * p->cap);
	return p;
}

void
fs_pool_free(fs_pool *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
	{
		p->a.release(p->a.ctx, p->v[i].name);
		p->a.release(p->a.ctx, p->v[i].avail);
		p->a.release(p->a.ctx, p->v[i].assigned);
		p->a.release(p->a.ctx, p->v[i].labels);
	}
	p->a.release(p->a.ctx, p->v);
	p->a.release(p->a.ctx, p);
}

static int
bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c != 0 ? c : (alen > blen) - (alen < blen);
}

static int
label_cmp(const void *x, const void *y)
{
	const fs_label *a = x, *b = y;
	int c = bytes_cmp(a->key, a->keylen, b->key, b->keylen);

	return c != 0 ? c : bytes_cmp(a->value, a->valuelen, b->value, b->valuelen);
}

static uint8_t *
copy_rv(const fs_allocator *a, const uint8_t *rv)
{
	size_t len = fs_rv_size(rv ? rv : empty_rv);
	uint8_t *out = a->alloc(a->ctx, len);

	memcpy(out, rv ? rv : empty_rv, len);
	return out;
}

fs_status
fs_pool_add(fs_pool *p, const char *name, size_t namelen, const uint8_t *avail,
            const uint8_t *assigned, const fs_label *labels, size_t nlabels, fs_error *err)
{
	fs_vnode *v;
	size_t i, k = 0, bytes = 0;
	char *strings;
	fs_label *copy;

	if (namelen == 0 || namelen > NAME_MAX_LEN)
	{
		fs_fail(err, FS_ERR_VALUE, "a vnode name must have 1 to %d bytes", NAME_MAX_LEN);
		return FS_ERR_VALUE;
	}
	for (i = 0; i < nlabels; i++)
	{
		if (labels[i].keylen == 0 || labels[i].keylen > NAME_MAX_LEN ||
		    labels[i].valuelen > NAME_MAX_LEN)
		{
			fs_fail(err, FS_ERR_VALUE, "label %zu of vnode \"%.*s\" is empty or too long", i + 1,
			        (int) namelen, name);
			return FS_ERR_VALUE;
		}
		bytes += labels[i].keylen + labels[i].valuelen;
	}
	if (p->n == p->cap)
	{
		fs_vnode *grown = p->a.alloc(p->a.ctx, sizeof(fs_vnode) * p->cap * 2);

		memcpy(grown, p->v, sizeof(fs_vnode) * p->n);
		p->a.release(p->a.ctx, p->v);
		p->v = grown;
		p->cap *= 2;
	}
	v = &p->v[p->n];
	v->name = p->a.alloc(p->a.ctx, namelen);
	memcpy(v->name, name, namelen);
	v->namelen = namelen;
	v->avail = copy_rv(&p->a, avail);
	v->assigned = copy_rv(&p->a, assigned);
	/* one block: the label array, then the strings it points to */
	copy = p->a.alloc(p->a.ctx, sizeof(fs_label) * (nlabels + 1) + bytes + 1);
	strings = (char *) (copy + nlabels + 1);
	for (i = 0; i < nlabels; i++)
	{
		if (labels[i].valuelen == 0)
			continue; /* PBS drops empty items of a string array */
		copy[k].key = strings;
		memcpy(strings, labels[i].key, labels[i].keylen);
		strings += labels[i].keylen;
		copy[k].keylen = labels[i].keylen;
		copy[k].value = strings;
		memcpy(strings, labels[i].value, labels[i].valuelen);
		strings += labels[i].valuelen;
		copy[k++].valuelen = labels[i].valuelen;
	}
	qsort(copy, k, sizeof(fs_label), label_cmp);
	v->nlabels = 0;
	for (i = 0; i < k; i++)
		if (v->nlabels == 0 || label_cmp(&copy[v->nlabels - 1], &copy[i]) != 0)
			copy[v->nlabels++] = copy[i];
	v->labels = copy;
	p->n++;
	return FS_OK;
}

fs_status
fs_pool_merge(fs_pool *dst, const fs_pool *src, fs_error *err)
{
	uint32_t i;

	for (i = 0; i < src->n; i++)
	{
		const fs_vnode *v = &src->v[i];
		fs_status st;

		FS_POLL(i);
		st = fs_pool_add(dst, v->name, v->namelen, v->avail, v->assigned, v->labels, v->nlabels,
		                 err);
		if (st != FS_OK)
			return st;
	}
	return FS_OK;
}

static int
vnode_cmp(const void *x, const void *y)
{
	const fs_vnode *a = x, *b = y;

	return bytes_cmp(a->name, a->namelen, b->name, b->namelen);
}

static int
vnode_order(const void *x, const void *y, void *ctx)
{
	(void) ctx;
	return vnode_cmp(x, y);
}

fs_status
fs_pool_prepare(fs_pool *p, fs_error *err)
{
	uint32_t i;
	bool sorted = true;

	/* a pool read from its flat form is in order already: an O(n) check, no sort */
	for (i = 1; i < p->n && sorted; i++)
		sorted = vnode_cmp(&p->v[i - 1], &p->v[i]) < 0;
	if (!sorted)
		fs_sort(p->v, p->n, sizeof(fs_vnode), vnode_order, NULL, &p->a);
	for (i = 1; i < p->n; i++)
	{
		if (vnode_cmp(&p->v[i - 1], &p->v[i]) == 0)
		{
			fs_fail(err, FS_ERR_VALUE, "vnode \"%.*s\" appears twice in the pool",
			        (int) (p->v[i].namelen > 200 ? 200 : p->v[i].namelen), p->v[i].name);
			fs_error_hint(err, "Give each vnode once: one row per vnode.");
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

uint32_t
fs_pool_count(const fs_pool *p)
{
	return p->n;
}

const fs_vnode *
fs_pool_vnode(const fs_pool *p, uint32_t i)
{
	return &p->v[i];
}

/* ---------------------------------------------------------------- flat form */

/*
 * uint8 version, uint32 count, then per vnode: uint16 name length, name, uint32 length and
 * bytes of the available and of the assigned resvec, uint16 label count, and per label uint16
 * key length, key, uint16 value length, value. Native byte order, no alignment.
 */
size_t
fs_pool_flat_size(const fs_pool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		size += 2 + v->namelen + 8 + fs_rv_size(v->avail) + fs_rv_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
	}
	return size;
}

static uint8_t *
put(uint8_t *o, const void *src, size_t len)
{
	memcpy(o, src, len);
	return o + len;
}

static uint8_t *
put16(uint8_t *o, size_t v)
{
	uint16_t x = (uint16_t) v;

	return put(o, &x, 2);
}

static uint8_t *
put32(uint8_t *o, size_t v)
{
	uint32_t x = (uint32_t) v;

	return put(o, &x, 4);
}

void
fs_pool_flatten(const fs_pool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;

	*out++ = FLAT_VERSION;
	out = put32(out, p->n);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		out = put16(out, v->namelen);
		out = put(out, v->name, v->namelen);
		out = put32(out, fs_rv_size(v->avail));
		out = put(out, v->avail, fs_rv_size(v->avail));
		out = put32(out, fs_rv_size(v->assigned));
		out = put(out, v->assigned, fs_rv_size(v->assigned));
		out = put16(out, v->nlabels);
		for (k = 0; k < v->nlabels; k++)
		{
			out = put16(out, v->labels[k].keylen);
			out = put(out, v->labels[k].key, v->labels[k].keylen);
			out = put16(out, v->labels[k].valuelen);
			out = put(out, v->labels[k].value, v->labels[k].valuelen);
		}
	}
}

static bool
take_len(fs_reader *r, size_t width, size_t *len)
{
	const uint8_t *at;

	if (!fs_read_span(r, width, &at))
		return false;
	if (width == 2)
	{
		uint16_t x;

		memcpy(&x, at, 2);
		*len = x;
	}
	else
	{
		uint32_t x;

		memcpy(&x, at, 4);
		*len = x;
	}
	return true;
}

static fs_status
corrupt(fs_error *err, const char *what)
{
	fs_fail(err, FS_ERR_BINARY, "invalid binary value for type vnodepool: %s", what);
	return FS_ERR_BINARY;
}

static bool
has_nul(const uint8_t *s, size_t len)
{
	return len > 0 && memchr(s, '\0', len) != NULL;
}

/*
 * A label value the text form can express: the JSON text splits values at commas and trims
 * spaces and tabs, and drops empty ones.
 */
static bool
value_ok(const uint8_t *s, size_t len)
{
	return len > 0 && memchr(s, ',', len) == NULL && s[0] != ' ' && s[0] != '\t' &&
	       s[len - 1] != ' ' && s[len - 1] != '\t';
}

fs_status
fs_pool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_pool **out,
                  fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	size_t n, i;
	fs_pool *p;
	fs_label *labels = NULL;
	fs_status st = FS_OK;

	if (!fs_read_span(&r, 1, &at) || !take_len(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != FLAT_VERSION)
		return corrupt(err, "unsupported format version");
	if (n > len / 15)
		return corrupt(err, "bad vnode count");
	p = fs_pool_new(a);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		size_t namelen, alen, slen, nl, k;
		const uint8_t *name, *avail, *assigned;

		FS_POLL(i);
		if (!take_len(&r, 2, &namelen) || !fs_read_span(&r, namelen, &name) ||
		    !take_len(&r, 4, &alen) || !fs_read_span(&r, alen, &avail) || !take_len(&r, 4, &slen) ||
		    !fs_read_span(&r, slen, &assigned) || !take_len(&r, 2, &nl))
		{
			st = corrupt(err, "value is truncated");
			break;
		}
		/* only what the text form can carry, in its canonical order (names sorted, unique) */
		if (namelen == 0 || has_nul(name, namelen))
			st = corrupt(err, "a vnode name is empty or holds a NUL byte");
		else if (i > 0 && bytes_cmp(p->v[p->n - 1].name, p->v[p->n - 1].namelen,
		                            (const char *) name, namelen) >= 0)
			st = corrupt(err, "vnodes out of name order");
		if (st != FS_OK)
			break;
		st = fs_rv_validate(avail, alen, FS_ERR_BINARY, err);
		if (st == FS_OK)
			st = fs_rv_validate(assigned, slen, FS_ERR_BINARY, err);
		if (st != FS_OK)
			break;
		labels = a->alloc(a->ctx, sizeof(fs_label) * (nl + 1));
		for (k = 0; k < nl; k++)
		{
			const uint8_t *key, *value;

			if (!take_len(&r, 2, &labels[k].keylen) || !fs_read_span(&r, labels[k].keylen, &key) ||
			    !take_len(&r, 2, &labels[k].valuelen) ||
			    !fs_read_span(&r, labels[k].valuelen, &value))
			{
				st = corrupt(err, "value is truncated");
				break;
			}
			labels[k].key = (const char *) key;
			labels[k].value = (const char *) value;
			if (has_nul(key, labels[k].keylen) || has_nul(value, labels[k].valuelen) ||
			    !value_ok(value, labels[k].valuelen))
			{
				st = corrupt(err, "a label the text form cannot express");
				break;
			}
			if (k > 0 && label_cmp(&labels[k - 1], &labels[k]) >= 0)
			{
				st = corrupt(err, "labels out of order");
				break;
			}
		}
		if (st == FS_OK)
			st = fs_pool_add(p, (const char *) name, namelen, avail, assigned, labels, nl, err);
		a->release(a->ctx, labels);
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK)
		st = fs_pool_prepare(p, err);
	if (st != FS_OK)
	{
		fs_pool_free(p);
		return st;
	}
	*out = p;
	return FS_OK;
}

/* ---------------------------------------------------------------- binary form (send/recv) */

/*
 * Binary form, field by field in network byte order: uint8 version (1), uint32 vnode count, then
 * each vnode in name order: uint16 name length and name; the available and the assigned
 * resources, each as uint32 entry count and per entry uint8 kind, uint8 name length, name,
 * float8 amount; uint16 label count and per label (sorted by key, then value) uint16 key length,
 * key, uint16 value length, value. Reading it accepts exactly the bytes sending produces.
 */
#define BINARY_VERSION 1

size_t
fs_pool_binary_size(const fs_pool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		size += 2 + v->namelen + fs_rv_binary_size(v->avail) + fs_rv_binary_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
	}
	return size;
}

void
fs_pool_to_binary(const fs_pool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;

	*out++ = BINARY_VERSION;
	out = fs_put_be(out, p->n, 4);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		out = fs_put_be(out, v->namelen, 2);
		out = put(out, v->name, v->namelen);
		out = fs_rv_put_binary(out, v->avail);
		out = fs_rv_put_binary(out, v->assigned);
		out = fs_put_be(out, v->nlabels, 2);
		for (k = 0; k < v->nlabels; k++)
		{
			out = fs_put_be(out, v->labels[k].keylen, 2);
			out = put(out, v->labels[k].key, v->labels[k].keylen);
			out = fs_put_be(out, v->labels[k].valuelen, 2);
			out = put(out, v->labels[k].value, v->labels[k].valuelen);
		}
	}
}

/* One resource vector of the binary form, appended to the flat form (uint32 length, bytes). */
static fs_status
rv_from_binary(const fs_allocator *a, fs_reader *r, fs_sb *flat, fs_error *err)
{
	uint8_t *rv;
	size_t rvlen;
	uint32_t len32;
	fs_status st = fs_rv_read_binary(r, a, 0, &rv, &rvlen, err);

	if (st != FS_OK)
		return st;
	len32 = (uint32_t) rvlen;
	fs_sb_append(flat, (const char *) &len32, 4);
	fs_sb_append(flat, (const char *) rv, rvlen);
	a->release(a->ctx, rv);
	return FS_OK;
}

/* A uint16-length-prefixed string of the binary form, copied to the flat form. */
static bool
str_from_binary(fs_reader *r, fs_sb *flat)
{
	uint64_t len;
	uint16_t len16;
	const uint8_t *at;

	if (!fs_read_be(r, 2, &len) || !fs_read_span(r, (size_t) len, &at))
		return false;
	len16 = (uint16_t) len;
	fs_sb_append(flat, (const char *) &len16, 2);
	fs_sb_append(flat, (const char *) at, (size_t) len);
	return true;
}

fs_status
fs_pool_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_pool **out,
                    fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	uint64_t n, nl;
	uint32_t i, n32;
	fs_sb flat;
	fs_pool *p = NULL;
	fs_status st = FS_OK;

	if (!fs_read_span(&r, 1, &at) || !fs_read_be(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != BINARY_VERSION)
	{
		fs_fail(err, FS_ERR_BINARY, "unsupported binary format version %d for type vnodepool",
		        at[0]);
		fs_error_hint(err, "This server reads version %d; send the value as text instead.",
		              BINARY_VERSION);
		return FS_ERR_BINARY;
	}
	if (n > len / 13)
		return corrupt(err, "bad vnode count");
	/* rewrite into the flat form, whose reader checks everything else */
	fs_sb_init(&flat, a, len + 64);
	fs_sb_append(&flat, (const char *) at, 1);
	n32 = (uint32_t) n;
	fs_sb_append(&flat, (const char *) &n32, 4);
	for (i = 0; i < n32 && st == FS_OK; i++)
	{
		uint64_t k;
		uint16_t nl16;

		FS_POLL(i);
		if (!str_from_binary(&r, &flat))
			st = corrupt(err, "value is truncated");
		if (st == FS_OK)
			st = rv_from_binary(a, &r, &flat, err);
		if (st == FS_OK)
			st = rv_from_binary(a, &r, &flat, err);
		if (st == FS_OK && !fs_read_be(&r, 2, &nl))
			st = corrupt(err, "value is truncated");
		if (st != FS_OK)
			break;
		nl16 = (uint16_t) nl;
		fs_sb_append(&flat, (const char *) &nl16, 2);
		for (k = 0; k < nl && st == FS_OK; k++)
			if (!str_from_binary(&r, &flat) || !str_from_binary(&r, &flat))
				st = corrupt(err, "value is truncated");
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK)
		st = fs_pool_from_flat(a, (const uint8_t *) flat.data, flat.len, &p, err);
	a->release(a->ctx, flat.data);
	if (st != FS_OK)
		return st;
	/* accept only the canonical bytes, so that receive then send gives the input back */
	if (fs_pool_binary_size(p) != len)
		st = corrupt(err, "value is not in canonical form");
	else
	{
		uint8_t *again = a->alloc(a->ctx, len);

		fs_pool_to_binary(p, again);
		if (memcmp(again, data, len) != 0)
			st = corrupt(err, "value is not in canonical form");
		a->release(a->ctx, again);
	}
	if (st != FS_OK)
	{
		fs_pool_free(p);
		return st;
	}
	*out = p;
	return FS_OK;
}

/* ---------------------------------------------------------------- node_group_sort_key */

static fs_status
sk_error(const char *line, size_t len, size_t at, const char *what, fs_error *err)
{
	return fs_fail_syntax(err, "node_group_sort_key line", line, len, at, what,
	                      "Write \"<resource> HIGH|LOW [total|assigned|unused]\" "
	                      "[all|prime|non_prime], for example \"ncpus LOW unused\" all.");
}

static bool
word_is(const char *w, size_t n, const char *lit)
{
	size_t i;

	if (strlen(lit) != n)
		return false;
	for (i = 0; i < n; i++)
	{
		char c = w[i];

		if (c >= 'A' && c <= 'Z')
			c = (char) (c - 'A' + 'a');
		if (c != lit[i])
			return false;
	}
	return true;
}

static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Split line[from, to) into at most `max` words; returns the count, or max + 1 when too many. */
static size_t
words(const char *line, size_t from, size_t to, size_t *starts, size_t *lens, size_t max)
{
	size_t n = 0, i = from;

	for (;;)
	{
		while (i < to && is_ws(line[i]))
			i++;
		if (i >= to)
			return n;
		if (n == max)
		{
			starts[n] = i;
			return max + 1;
		}
		starts[n] = i;
		while (i < to && !is_ws(line[i]))
			i++;
		lens[n] = i - starts[n];
		n++;
	}
}

static bool
amount_word(const char *w, size_t n, fs_amount *out)
{
	if (word_is(w, n, "total"))
		*out = FS_AMOUNT_TOTAL;
	else if (word_is(w, n, "assigned"))
		*out = FS_AMOUNT_ASSIGNED;
	else if (word_is(w, n, "unused"))
		*out = FS_AMOUNT_UNUSED;
	else
		return false;
	return true;
}

static bool
prime_word(const char *w, size_t n, fs_prime *out)
{
	if (word_is(w, n, "all"))
		*out = FS_PRIME_ALL;
	else if (word_is(w, n, "prime"))
		*out = FS_PRIME_PRIME;
	else if (word_is(w, n, "non_prime"))
		*out = FS_PRIME_NON_PRIME;
	else
		return false;
	return true;
}

fs_status
fs_sort_key_parse(const char *line, size_t len, fs_sort_key *out, fs_error *err)
{
	size_t st[6], ln[6], n, i = 0, inner_end = len, after = len, na = 0, w;
	size_t ast[2], aln[2];
	bool quoted;

	while (i < len && is_ws(line[i]))
		i++;
	quoted = i < len && line[i] == '"';
	if (quoted)
	{
		const char *close = memchr(line + i + 1, '"', len - i - 1);

		if (close == NULL)
			return sk_error(line, len, i, "Unterminated quote", err);
		inner_end = (size_t) (close - line);
		after = inner_end + 1;
		i++;
		if (memchr(line + after, '"', len - after) != NULL)
			return sk_error(line, len,
			                (size_t) ((const char *) memchr(line + after, '"', len - after) - line),
			                "Unexpected quote", err);
		na = words(line, after, len, ast, aln, 1);
		if (na > 1)
			return sk_error(line, len, ast[1], "Unexpected text after the prime option", err);
	}
	else if (memchr(line + i, '"', len - i) != NULL)
		return sk_error(line, len, (size_t) ((const char *) memchr(line + i, '"', len - i) - line),
		                "Unexpected quote", err);
	n = words(line, i, inner_end, st, ln, quoted ? 3 : 4);
	if (n == 0)
		return sk_error(line, len, inner_end, "Expected a resource name", err);
	if (n > (quoted ? 3u : 4u))
		return sk_error(line, len, st[quoted ? 3 : 4], "Too many words", err);
	if (ln[0] > FS_SORT_RESOURCE_MAX)
		return sk_error(line, len, st[0], "Resource name too long", err);
	for (w = 0; w < ln[0]; w++)
		if ((unsigned char) line[st[0] + w] < 0x20 || line[st[0] + w] == 0x7f)
			return sk_error(line, len, st[0] + w, "Control character in the resource name", err);
	memcpy(out->resource, line + st[0], ln[0]);
	out->resource[ln[0]] = '\0';
	out->reslen = ln[0];
	if (n < 2)
		return sk_error(line, len, inner_end, "Expected HIGH or LOW after the resource", err);
	if (word_is(line + st[1], ln[1], "high"))
		out->high = true;
	else if (word_is(line + st[1], ln[1], "low"))
		out->high = false;
	else
		return sk_error(line, len, st[1], "Expected HIGH or LOW", err);
	out->amount = FS_AMOUNT_TOTAL;
	out->prime = FS_PRIME_ALL;
	/* inside quotes: an optional amount; without quotes: an optional amount, then a prime option */
	if (n >= 3 && !amount_word(line + st[2], ln[2], &out->amount))
	{
		if (quoted || n == 4 || !prime_word(line + st[2], ln[2], &out->prime))
			return sk_error(line, len, st[2],
			                quoted ? "Expected total, assigned or unused"
			                       : "Expected total, assigned, unused, all, prime or non_prime",
			                err);
	}
	if (n == 4 && !prime_word(line + st[3], ln[3], &out->prime))
		return sk_error(line, len, st[3], "Expected all, prime or non_prime", err);
	if (na == 1 && !prime_word(line + ast[0], aln[0], &out->prime))
		return sk_error(line, len, ast[0], "Expected all, prime or non_prime", err);
	return FS_OK;
}

size_t
fs_sort_key_defaults(fs_sort_key *out)
{
	static const char *const res[] = {"ncpus", "mem", "ncpus", "mem"};
	size_t i;

	for (i = 0; i < 4; i++)
	{
		strcpy(out[i].resource, res[i]);
		out[i].reslen = strlen(res[i]);
		out[i].high = false;
		out[i].amount = i < 2 ? FS_AMOUNT_TOTAL : FS_AMOUNT_UNUSED;
		out[i].prime = FS_PRIME_ALL;
	}
	return 4;
}

/* ---------------------------------------------------------------- placement sets */

typedef struct set_index
{
	uint32_t *slots; /* set number + 1 */
	uint32_t nslots;
	uint8_t **ids; /* identity bytes per set, length-prefixed */
	size_t *idlens;
} set_index;

typedef struct builder
{
	const fs_allocator *a;
	const fs_pool *pool;
	size_t nkeys;
	const char *const *keys;
	const size_t *keylens;
	fs_pset *sets;
	size_t nsets, capsets;
	uint32_t *vcap; /* capacity of each set's vnode array */
	set_index idx;
	uint8_t *scratch;
	size_t scratchcap;
} builder;

static void
grow_sets(builder *b)
{
	size_t cap = b->capsets * 2, i;
	fs_pset *sets = b->a->alloc(b->a->ctx, sizeof(fs_pset) * cap);
	uint32_t *vcap = b->a->alloc(b->a->ctx, sizeof(uint32_t) * cap);
	uint8_t **ids = b->a->alloc(b->a->ctx, sizeof(uint8_t *) * cap);
	size_t *idlens = b->a->alloc(b->a->ctx, sizeof(size_t) * cap);
	uint32_t *slots = b->a->alloc(b->a->ctx, sizeof(uint32_t) * cap * 2);

	memcpy(sets, b->sets, sizeof(fs_pset) * b->nsets);
	memcpy(vcap, b->vcap, sizeof(uint32_t) * b->nsets);
	memcpy(ids, b->idx.ids, sizeof(uint8_t *) * b->nsets);
	memcpy(idlens, b->idx.idlens, sizeof(size_t) * b->nsets);
	memset(slots, 0, sizeof(uint32_t) * cap * 2);
	for (i = 0; i < b->nsets; i++)
	{
		uint32_t s = (uint32_t) fs_hash(ids[i], idlens[i]) & (uint32_t) (cap * 2 - 1);

		while (slots[s])
			s = (s + 1) & (uint32_t) (cap * 2 - 1);
		slots[s] = (uint32_t) i + 1;
	}
	b->a->release(b->a->ctx, b->sets);
	b->a->release(b->a->ctx, b->vcap);
	b->a->release(b->a->ctx, b->idx.ids);
	b->a->release(b->a->ctx, b->idx.idlens);
	b->a->release(b->a->ctx, b->idx.slots);
	b->sets = sets;
	b->vcap = vcap;
	b->idx.ids = ids;
	b->idx.idlens = idlens;
	b->idx.slots = slots;
	b->idx.nslots = (uint32_t) cap * 2;
	b->capsets = cap;
}

/* The set with this identity (values[k] per key, NULL for none), created on first sight. */
static size_t
find_set(builder *b, int first_key, int dims, const char **values, const size_t *lens)
{
	size_t n = 1, k, id;
	uint8_t *w;
	uint32_t h, s;

	for (k = 0; k < b->nkeys; k++)
		n += 5 + (values[k] ? lens[k] : 0);
	if (n > b->scratchcap)
	{
		b->a->release(b->a->ctx, b->scratch);
		b->scratchcap = n * 2;
		b->scratch = b->a->alloc(b->a->ctx, b->scratchcap);
	}
	w = b->scratch;
	*w++ = (uint8_t) dims;
	for (k = 0; k < b->nkeys; k++)
	{
		uint32_t l = values[k] ? (uint32_t) lens[k] : 0;

		*w++ = values[k] != NULL;
		memcpy(w, &l, 4);
		w += 4;
		if (l)
			memcpy(w, values[k], l);
		w += l;
	}
	h = (uint32_t) fs_hash(b->scratch, n);
	for (s = h & (b->idx.nslots - 1); b->idx.slots[s]; s = (s + 1) & (b->idx.nslots - 1))
	{
		id = b->idx.slots[s] - 1;
		if (b->idx.idlens[id] == n && memcmp(b->idx.ids[id], b->scratch, n) == 0)
			return id;
	}
	if (b->nsets == FS_PSETS_MAX)
		return SIZE_MAX;
	if (b->nsets * 2 >= b->capsets)
	{
		grow_sets(b);
		for (s = h & (b->idx.nslots - 1); b->idx.slots[s]; s = (s + 1) & (b->idx.nslots - 1))
			;
	}
	id = b->nsets++;
	b->idx.slots[s] = (uint32_t) id + 1;
	b->idx.ids[id] = b->a->alloc(b->a->ctx, n);
	memcpy(b->idx.ids[id], b->scratch, n);
	b->idx.idlens[id] = n;
	{
		fs_pset *ps = &b->sets[id];
		size_t namelen = 0;
		char *name;

		memset(ps, 0, sizeof(*ps));
		ps->dims = dims;
		ps->first_key = first_key;
		ps->values = b->a->alloc(b->a->ctx, sizeof(char *) * b->nkeys);
		ps->valuelens = b->a->alloc(b->a->ctx, sizeof(size_t) * b->nkeys);
		for (k = 0; k < b->nkeys; k++)
		{
			ps->values[k] = values[k];
			ps->valuelens[k] = values[k] ? lens[k] : 0;
			if (values[k])
				namelen += (namelen ? 1 : 0) + (lens[k] ? lens[k] : b->keylens[k] + 1);
		}
		/* "v1-v2" in key order; an empty value is written "key=" */
		name = b->a->alloc(b->a->ctx, namelen + 1);
		ps->name = name;
		for (k = 0; k < b->nkeys; k++)
		{
			if (!values[k])
				continue;
			if (name != ps->name)
				*name++ = '-';
			if (lens[k])
			{
				memcpy(name, values[k], lens[k]);
				name += lens[k];
			}
			else
			{
				memcpy(name, b->keys[k], b->keylens[k]);
				name += b->keylens[k];
				*name++ = '=';
			}
		}
		ps->namelen = (size_t) (name - ps->name);
		b->vcap[id] = 4;
		ps->vnodes = b->a->alloc(b->a->ctx, sizeof(uint32_t) * 4);
	}
	return id;
}

static fs_status
too_many_sets(fs_error *err)
{
	fs_fail(err, FS_ERR_LIMIT, "too many placement sets");
	fs_error_detail(err, "The vnodes' label values make more than %d placement sets.",
	                FS_PSETS_MAX);
	fs_error_hint(err, "Group by fewer keys, or by labels with fewer values per vnode.");
	return FS_ERR_LIMIT;
}

static void add_vnode(builder *b, size_t set, uint32_t vnode);

/* Put vnode into the set with this identity, made on first sight (at most FS_PSETS_MAX). */
static fs_status
join_set(builder *b, int first_key, int dims, const char **values, const size_t *lens,
         uint32_t vnode, fs_error *err)
{
	size_t set = find_set(b, first_key, dims, values, lens);

	if (set == SIZE_MAX)
		return too_many_sets(err);
	add_vnode(b, set, vnode);
	return FS_OK;
}

static void
add_vnode(builder *b, size_t set, uint32_t vnode)
{
	fs_pset *ps = &b->sets[set];

	if (ps->nvnodes > 0 && ps->vnodes[ps->nvnodes - 1] == vnode)
		return; /* the same vnode through another of its values */
	if (ps->nvnodes == b->vcap[set])
	{
		uint32_t *grown = b->a->alloc(b->a->ctx, sizeof(uint32_t) * b->vcap[set] * 2);

		memcpy(grown, ps->vnodes, sizeof(uint32_t) * ps->nvnodes);
		b->a->release(b->a->ctx, ps->vnodes);
		ps->vnodes = grown;
		b->vcap[set] *= 2;
	}
	ps->vnodes[ps->nvnodes++] = vnode;
}

/* The per-vnode max(available - assigned, 0) of each available resource. */
static fs_status
vnode_unused(const fs_allocator *a, const fs_vnode *v, uint8_t **out, fs_error *err)
{
	fs_rv_iter it;
	fs_rv_item item, s;
	fs_rv_item *items = a->alloc(a->ctx, sizeof(fs_rv_item) * (fs_rv_count(v->avail) + 1));
	size_t n = 0, len;
	fs_status st = FS_OK;

	fs_rv_iter_init(&it, v->avail);
	while (fs_rv_next(&it, &item))
	{
		if (fs_rv_get(v->assigned, item.name, item.namelen, &s))
		{
			if (s.kind != item.kind)
			{
				st = fs_rv_kind_mismatch(err, "subtract", &item, &s);
				fs_error_context(err, "(available minus assigned on vnode \"%.*s\")",
				                 (int) v->namelen, v->name);
				break;
			}
			item.amount = item.amount > s.amount ? item.amount - s.amount : 0;
		}
		items[n++] = item;
	}
	if (st == FS_OK)
		st = fs_rv_build(items, n, FS_ERR_VALUE, a, 0, out, &len, err);
	a->release(a->ctx, items);
	return st;
}

static fs_status
sum_into(const fs_allocator *a, uint8_t **acc, const uint8_t *v, const fs_pset *ps, fs_error *err)
{
	uint8_t *sum;
	size_t len;
	fs_status st = fs_rv_add(*acc, v, 1, a, 0, &sum, &len, err);

	if (st != FS_OK)
	{
		fs_error_context(err, "(in placement set \"%.*s\")", (int) ps->namelen, ps->name);
		return st;
	}
	a->release(a->ctx, *acc);
	*acc = sum;
	return FS_OK;
}

typedef struct order_ctx
{
	const fs_sort_key *sk;
	size_t nsk;
	const int *key_of; /* per sort key: the group key it names, or -1 */
} order_ctx;

static int
pset_cmp(const void *x, const void *y, void *vctx)
{
	const order_ctx *c = vctx;
	const fs_pset *a = x, *b = y;
	size_t i;

	if (a->dims != b->dims)
		return a->dims > b->dims ? -1 : 1;
	for (i = 0; i < c->nsk; i++)
	{
		const fs_sort_key *k = &c->sk[i];
		int r;

		if (c->key_of[i] >= 0)
		{
			const char *va = a->values[c->key_of[i]], *vb = b->values[c->key_of[i]];

			if (!va || !vb)
			{
				if (va || vb)
					return va ? -1 : 1; /* the set without a value goes after */
				continue;
			}
			r = bytes_cmp(va, a->valuelens[c->key_of[i]], vb, b->valuelens[c->key_of[i]]);
		}
		else
		{
			const uint8_t *ra = k->amount == FS_AMOUNT_TOTAL      ? a->total
			                    : k->amount == FS_AMOUNT_ASSIGNED ? a->assigned
			                                                      : a->unused;
			const uint8_t *rb = k->amount == FS_AMOUNT_TOTAL      ? b->total
			                    : k->amount == FS_AMOUNT_ASSIGNED ? b->assigned
			                                                      : b->unused;
			fs_rv_item ia, ib;
			bool ha = fs_rv_get(ra, k->resource, k->reslen, &ia);
			bool hb = fs_rv_get(rb, k->resource, k->reslen, &ib);

			if (!ha || !hb)
			{
				if (ha || hb)
					return ha ? -1 : 1;
				continue;
			}
			r = ia.amount < ib.amount ? -1 : ia.amount > ib.amount;
		}
		if (r != 0)
			return k->high ? -r : r;
	}
	if (a->first_key != b->first_key)
		return a->first_key < b->first_key ? -1 : 1;
	return bytes_cmp(a->name, a->namelen, b->name, b->namelen);
}

void
fs_psets_free(fs_pset *sets, size_t n, const fs_allocator *a)
{
	size_t i;

	for (i = 0; i < n; i++)
	{
		a->release(a->ctx, sets[i].name);
		a->release(a->ctx, sets[i].values);
		a->release(a->ctx, sets[i].valuelens);
		a->release(a->ctx, sets[i].vnodes);
		if (sets[i].total)
			a->release(a->ctx, sets[i].total);
		if (sets[i].assigned)
			a->release(a->ctx, sets[i].assigned);
		if (sets[i].unused)
			a->release(a->ctx, sets[i].unused);
	}
	a->release(a->ctx, sets);
}

fs_status
fs_placement_sets(const fs_pool *pool, const char *const *keys, const size_t *keylens, size_t nkeys,
                  const fs_sort_key *sk, size_t nsk, bool prime_time, bool only_explicit,
                  const fs_allocator *a, fs_pset **out, size_t *n, fs_error *err)
{
	builder b;
	const char ***vals;
	size_t **lens, *counts, *odo;
	const char **pick;
	size_t *picklen;
	uint32_t i;
	size_t k, s;
	fs_status st = FS_OK;
	fs_sort_key *active;
	int *key_of;
	size_t nactive = 0;
	order_ctx oc;

	if (nkeys == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "group_keys must not be empty");
		fs_error_hint(err, "Name the vnode labels that define placement sets, as in "
		                   "node_group_key, for example ARRAY['router', 'switch'].");
		return FS_ERR_VALUE;
	}
	if (nkeys > FS_PSET_KEYS_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "too many group keys");
		fs_error_detail(err, "%zu keys were given; at most %d are allowed.", nkeys,
		                FS_PSET_KEYS_MAX);
		fs_error_hint(err, "Name only the labels that node_group_key lists.");
		return FS_ERR_LIMIT;
	}
	for (k = 0; k < nkeys; k++)
		for (s = 0; s < k; s++)
			if (bytes_cmp(keys[s], keylens[s], keys[k], keylens[k]) == 0)
			{
				fs_fail(err, FS_ERR_VALUE, "group key \"%.*s\" appears more than once",
				        (int) (keylens[k] < 200 ? keylens[k] : 200), keys[k]);
				fs_error_detail(err, "group_keys[%zu] and group_keys[%zu] are the same key.", s + 1,
				                k + 1);
				fs_error_hint(err, "Name each label once, as node_group_key does.");
				return FS_ERR_VALUE;
			}
	memset(&b, 0, sizeof(b));
	b.a = a;
	b.pool = pool;
	b.nkeys = nkeys;
	b.keys = keys;
	b.keylens = keylens;
	b.capsets = 8;
	b.sets = a->alloc(a->ctx, sizeof(fs_pset) * b.capsets);
	b.vcap = a->alloc(a->ctx, sizeof(uint32_t) * b.capsets);
	b.idx.ids = a->alloc(a->ctx, sizeof(uint8_t *) * b.capsets);
	b.idx.idlens = a->alloc(a->ctx, sizeof(size_t) * b.capsets);
	b.idx.nslots = (uint32_t) b.capsets * 2;
	b.idx.slots = a->alloc(a->ctx, sizeof(uint32_t) * b.idx.nslots);
	memset(b.idx.slots, 0, sizeof(uint32_t) * b.idx.nslots);
	b.scratchcap = 64;
	b.scratch = a->alloc(a->ctx, b.scratchcap);

	vals = a->alloc(a->ctx, sizeof(char **) * nkeys);
	lens = a->alloc(a->ctx, sizeof(size_t *) * nkeys);
	counts = a->alloc(a->ctx, sizeof(size_t) * nkeys);
	odo = a->alloc(a->ctx, sizeof(size_t) * nkeys);
	pick = a->alloc(a->ctx, sizeof(char *) * nkeys);
	picklen = a->alloc(a->ctx, sizeof(size_t) * nkeys);
	for (i = 0; i < fs_pool_count(pool) && st == FS_OK; i++)
	{
		const fs_vnode *v = fs_pool_vnode(pool, i);
		bool all = true;

		FS_POLL(i);
		/* this vnode's values for each key (labels are sorted: each key's run is contiguous) */
		for (k = 0; k < nkeys; k++)
		{
			size_t j;

			vals[k] = a->alloc(a->ctx, sizeof(char *) * (v->nlabels + 1));
			lens[k] = a->alloc(a->ctx, sizeof(size_t) * (v->nlabels + 1));
			counts[k] = 0;
			for (j = 0; j < v->nlabels; j++)
			{
				if (bytes_cmp(v->labels[j].key, v->labels[j].keylen, keys[k], keylens[k]) == 0)
				{
					vals[k][counts[k]] = v->labels[j].value;
					lens[k][counts[k]++] = v->labels[j].valuelen;
				}
			}
			if (counts[k] == 0 && !only_explicit)
			{
				vals[k][0] = "";
				lens[k][0] = 0;
				counts[k] = 1;
			}
			if (counts[k] == 0)
				all = false;
		}
		/* flat sets */
		for (k = 0; k < nkeys; k++)
		{
			size_t j, m;

			for (m = 0; m < nkeys; m++)
				pick[m] = NULL;
			for (j = 0; j < counts[k] && st == FS_OK; j++)
			{
				pick[k] = vals[k][j];
				picklen[k] = lens[k][j];
				st = join_set(&b, (int) k, 1, pick, picklen, i, err);
			}
		}
		/* every combination of values found together on the vnode */
		if (nkeys >= 2 && all && st == FS_OK)
		{
			size_t combos = 0;

			memset(odo, 0, sizeof(size_t) * nkeys);
			for (;;)
			{
				FS_POLL(combos++);
				for (k = 0; k < nkeys; k++)
				{
					pick[k] = vals[k][odo[k]];
					picklen[k] = lens[k][odo[k]];
				}
				st = join_set(&b, 0, (int) nkeys, pick, picklen, i, err);
				if (st != FS_OK)
					break;
				for (k = nkeys; k-- > 0;)
				{
					if (++odo[k] < counts[k])
						break;
					odo[k] = 0;
				}
				if (k == (size_t) -1)
					break;
			}
		}
		for (k = 0; k < nkeys; k++)
		{
			a->release(a->ctx, vals[k]);
			a->release(a->ctx, lens[k]);
		}
	}
	a->release(a->ctx, vals);
	a->release(a->ctx, lens);
	a->release(a->ctx, counts);
	a->release(a->ctx, odo);
	a->release(a->ctx, pick);
	a->release(a->ctx, picklen);

	/* totals */
	{
		uint8_t **unused = a->alloc(a->ctx, sizeof(uint8_t *) * (fs_pool_count(pool) + 1));
		uint32_t made = 0;

		while (made < fs_pool_count(pool) && st == FS_OK)
		{
			st = vnode_unused(a, fs_pool_vnode(pool, made), &unused[made], err);
			if (st == FS_OK)
				made++;
		}
		for (s = 0; s < b.nsets; s++)
		{
			fs_pset *ps = &b.sets[s];

			fs_check_interrupts();
			ps->total = copy_rv(a, NULL);
			ps->assigned = copy_rv(a, NULL);
			ps->unused = copy_rv(a, NULL);
			for (i = 0; i < ps->nvnodes && st == FS_OK; i++)
			{
				const fs_vnode *v = fs_pool_vnode(pool, ps->vnodes[i]);

				st = sum_into(a, &ps->total, v->avail, ps, err);
				if (st == FS_OK)
					st = sum_into(a, &ps->assigned, v->assigned, ps, err);
				if (st == FS_OK)
					st = sum_into(a, &ps->unused, unused[ps->vnodes[i]], ps, err);
			}
		}
		for (i = 0; i < made; i++)
			a->release(a->ctx, unused[i]);
		a->release(a->ctx, unused);
	}
	/* the identity index is no longer needed */
	for (s = 0; s < b.nsets; s++)
		a->release(a->ctx, b.idx.ids[s]);
	a->release(a->ctx, b.idx.ids);
	a->release(a->ctx, b.idx.idlens);
	a->release(a->ctx, b.idx.slots);
	a->release(a->ctx, b.vcap);
	a->release(a->ctx, b.scratch);
	if (st != FS_OK)
	{
		fs_psets_free(b.sets, b.nsets, a);
		return st;
	}

	/* order */
	active = a->alloc(a->ctx, sizeof(fs_sort_key) * (nsk + 1));
	key_of = a->alloc(a->ctx, sizeof(int) * (nsk + 1));
	for (s = 0; s < nsk; s++)
	{
		if (sk[s].prime == FS_PRIME_PRIME && !prime_time)
			continue;
		if (sk[s].prime == FS_PRIME_NON_PRIME && prime_time)
			continue;
		active[nactive] = sk[s];
		key_of[nactive] = -1;
		for (k = 0; k < nkeys; k++)
			if (bytes_cmp(keys[k], keylens[k], sk[s].resource, sk[s].reslen) == 0)
				key_of[nactive] = (int) k;
		nactive++;
	}
	oc.sk = active;
	oc.nsk = nactive;
	oc.key_of = key_of;
	fs_sort(b.sets, b.nsets, sizeof(fs_pset), pset_cmp, &oc, a);
	a->release(a->ctx, active);
	a->release(a->ctx, key_of);
	*out = b.sets;
	*n = b.nsets;
	return FS_OK;
}
