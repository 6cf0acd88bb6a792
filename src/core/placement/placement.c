/*
 * placement.c: vnode pools (with PBS indirect resources, "@vnode"), placement sets and
 * node_group_sort_key. Building the sets is linear in the vnodes' label combinations (a hash on
 * each set's identity); ordering them is O(s log s) for s sets; resolving "@vnode" values is
 * O(n log n) (a binary search per pointer).
 */
#include "placement/placement.h"

#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* version 2 adds indirect resources; a pool without any is written as version 1 */
#define FLAT_VERSION          1
#define FLAT_VERSION_INDIRECT 2
#define NAME_MAX_LEN          1024

struct fs_vpool
{
	fs_allocator a;
	fs_vnode *v;
	uint32_t n;
	uint32_t cap;
	fs_vpool
	    *resolved; /* fs_vpool_resolve's result: NULL until asked, p itself when nothing points */
};

static const uint8_t empty_rv[4] = {0, 0, 0, 0};

/* ---------------------------------------------------------------- the pool */

fs_vpool *
fs_vpool_new(const fs_allocator *a)
{
	fs_vpool *p = a->alloc(a->ctx, sizeof(fs_vpool));

	p->a = *a;
	p->n = 0;
	p->cap = 16;
	p->resolved = NULL;
	p->v = a->alloc(a->ctx, sizeof(fs_vnode) * p->cap);
	return p;
}

void
fs_vpool_free(fs_vpool *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
	{
		p->a.release(p->a.ctx, p->v[i].name);
		p->a.release(p->a.ctx, p->v[i].avail);
		p->a.release(p->a.ctx, p->v[i].assigned);
		p->a.release(p->a.ctx, p->v[i].labels);
		if (p->v[i].indirect)
			p->a.release(p->a.ctx, p->v[i].indirect);
		if (p->v[i].targets)
			p->a.release(p->a.ctx, p->v[i].targets);
	}
	if (p->resolved && p->resolved != p)
		fs_vpool_free(p->resolved);
	p->a.release(p->a.ctx, p->v);
	p->a.release(p->a.ctx, p);
}

static int
label_cmp(const void *x, const void *y)
{
	const fs_label *a = x, *b = y;
	int c = fs_bytes_cmp(a->key, a->keylen, b->key, b->keylen);

	return c != 0 ? c : fs_bytes_cmp(a->value, a->valuelen, b->value, b->valuelen);
}

static uint8_t *
copy_rv(const fs_allocator *a, const uint8_t *rv)
{
	size_t len = fs_rv_size(rv ? rv : empty_rv);
	uint8_t *out = a->alloc(a->ctx, len);

	memcpy(out, rv ? rv : empty_rv, len);
	return out;
}

/* A name for a message: at most 200 bytes, cut on a character boundary. */
typedef struct shown_name
{
	char s[220];
} shown_name;

static shown_name
show(const char *s, size_t len)
{
	shown_name out;

	fs_quote_excerpt(out.s, sizeof(out.s), s, len, 200);
	return out;
}

/*
 * A vnode name after "@" that the text form "res=@vnode" reads back: not empty, no NUL or comma,
 * no blank at either end.
 */
static bool
target_ok(const uint8_t *s, size_t len)
{
	return len > 0 && len <= NAME_MAX_LEN && memchr(s, ',', len) == NULL &&
	       memchr(s, '\0', len) == NULL && !fs_is_space((char) s[0]) &&
	       !fs_is_space((char) s[len - 1]);
}

static int
indirect_cmp(const void *x, const void *y)
{
	const fs_indirect *a = x, *b = y;

	return fs_bytes_cmp(a->res, a->reslen, b->res, b->reslen);
}

/* A resource name as resvec names go: checked by building a one-entry vector. */
static fs_status
check_res_name(const fs_allocator *a, const char *name, size_t len, fs_error *err)
{
	fs_rv_item item;
	uint8_t *rv;
	size_t rvlen;
	fs_status st;

	memset(&item, 0, sizeof(item));
	item.name = name;
	item.namelen = len;
	item.kind = FS_KIND_COUNT;
	st = fs_rv_build(&item, 1, FS_ERR_VALUE, a, 0, &rv, &rvlen, err);
	if (st == FS_OK)
		a->release(a->ctx, rv);
	return st;
}

/*
 * A vnode's indirect resources, copied into one block (the array, then its strings) and sorted;
 * each resource once, and not also among the vnode's own amounts.
 */
static fs_status
copy_indirect(const fs_allocator *a, const char *vnode, size_t vnodelen, const uint8_t *avail,
              const fs_indirect *ind, size_t n, fs_indirect **out, fs_error *err)
{
	size_t i, bytes = 0;
	fs_indirect *copy;
	char *strings;
	fs_rv_item item;

	*out = NULL;
	if (n == 0)
		return FS_OK;
	for (i = 0; i < n; i++)
	{
		fs_status st = check_res_name(a, ind[i].res, ind[i].reslen, err);

		if (st != FS_OK)
		{
			fs_error_context(err, "in an indirect resource of vnode \"%s\"",
			                 show(vnode, vnodelen).s);
			return st;
		}
		if (!target_ok((const uint8_t *) ind[i].vnode, ind[i].vnodelen))
		{
			fs_fail(err, FS_ERR_VALUE,
			        "indirect resource \"%s\" of vnode \"%s\" does not name a vnode after \"@\"",
			        show(ind[i].res, ind[i].reslen).s, show(vnode, vnodelen).s);
			fs_error_detail(err,
			                "A vnode name after \"@\" has 1 to %d bytes, no comma and no "
			                "blank at either end.",
			                NAME_MAX_LEN);
			fs_error_hint(err, "Write an indirect resource as <resource>=@<vnode>, for example "
			                   "scratch=@n07.");
			return FS_ERR_VALUE;
		}
		if (avail && fs_rv_get(avail, ind[i].res, ind[i].reslen, &item))
		{
			fs_fail(err, FS_ERR_VALUE,
			        "resource \"%s\" of vnode \"%s\" is both an amount and \"@%s\"",
			        show(ind[i].res, ind[i].reslen).s, show(vnode, vnodelen).s,
			        show(ind[i].vnode, ind[i].vnodelen).s);
			fs_error_hint(err, "Give either the amount or the vnode that holds it.");
			return FS_ERR_VALUE;
		}
		bytes += ind[i].reslen + ind[i].vnodelen;
	}
	copy = a->alloc(a->ctx, sizeof(fs_indirect) * n + bytes);
	strings = (char *) (copy + n);
	for (i = 0; i < n; i++)
	{
		memcpy(strings, ind[i].res, ind[i].reslen);
		copy[i].res = strings;
		copy[i].reslen = ind[i].reslen;
		strings += ind[i].reslen;
		memcpy(strings, ind[i].vnode, ind[i].vnodelen);
		copy[i].vnode = strings;
		copy[i].vnodelen = ind[i].vnodelen;
		strings += ind[i].vnodelen;
	}
	qsort(copy, n, sizeof(fs_indirect), indirect_cmp);
	for (i = 1; i < n; i++)
		if (indirect_cmp(&copy[i - 1], &copy[i]) == 0)
		{
			fs_fail(err, FS_ERR_VALUE, "indirect resource \"%s\" of vnode \"%s\" is given twice",
			        show(copy[i].res, copy[i].reslen).s, show(vnode, vnodelen).s);
			fs_error_hint(err, "Name each resource once.");
			a->release(a->ctx, copy);
			return FS_ERR_VALUE;
		}
	*out = copy;
	return FS_OK;
}

fs_status
fs_vpool_add(fs_vpool *p, const char *name, size_t namelen, const uint8_t *avail,
             const uint8_t *assigned, const fs_label *labels, size_t nlabels,
             const fs_indirect *indirect, size_t nindirect, fs_error *err)
{
	fs_vnode *v;
	size_t i, k = 0, bytes = 0;
	char *strings;
	fs_label *copy;
	fs_indirect *ind;
	fs_status st;

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
	st = copy_indirect(&p->a, name, namelen, avail, indirect, nindirect, &ind, err);
	if (st != FS_OK)
		return st;
	if (p->resolved && p->resolved != p)
		fs_vpool_free(p->resolved);
	p->resolved = NULL;
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
	v->indirect = ind;
	v->nindirect = nindirect;
	v->targets = NULL;
	p->n++;
	return FS_OK;
}

void
fs_labels_append(const char *key, size_t keylen, const char *s, size_t len, const fs_allocator *a,
                 fs_label **labels, size_t *n, size_t *cap)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++)
	{
		size_t b = start, e = i;

		if (i < len && s[i] != ',')
			continue;
		FS_POLL(*n);
		while (b < e && fs_is_space(s[b]))
			b++;
		while (e > b && fs_is_space(s[e - 1]))
			e--;
		if (*n == *cap)
		{
			size_t grown_cap = *cap ? *cap * 2 : 8;
			fs_label *grown = a->alloc(a->ctx, sizeof(fs_label) * grown_cap);

			if (*n)
				memcpy(grown, *labels, sizeof(fs_label) * *n);
			if (*labels)
				a->release(a->ctx, *labels);
			*labels = grown;
			*cap = grown_cap;
		}
		(*labels)[*n].key = key;
		(*labels)[*n].keylen = keylen;
		(*labels)[*n].value = s + b;
		(*labels)[(*n)++].valuelen = e - b;
		start = i + 1;
	}
}

fs_status
fs_vpool_merge(fs_vpool *dst, const fs_vpool *src, fs_error *err)
{
	uint32_t i;

	for (i = 0; i < src->n; i++)
	{
		const fs_vnode *v = &src->v[i];
		fs_status st;

		FS_POLL(i);
		st = fs_vpool_add(dst, v->name, v->namelen, v->avail, v->assigned, v->labels, v->nlabels,
		                  v->indirect, v->nindirect, err);
		if (st != FS_OK)
			return st;
	}
	return FS_OK;
}

static int
vnode_cmp(const void *x, const void *y)
{
	const fs_vnode *a = x, *b = y;

	return fs_bytes_cmp(a->name, a->namelen, b->name, b->namelen);
}

static int
vnode_order(const void *x, const void *y, void *ctx)
{
	(void) ctx;
	return vnode_cmp(x, y);
}

fs_status
fs_vpool_prepare(fs_vpool *p, fs_error *err)
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
fs_vpool_count(const fs_vpool *p)
{
	return p->n;
}

const fs_vnode *
fs_vpool_vnode(const fs_vpool *p, uint32_t i)
{
	return &p->v[i];
}

uint32_t
fs_vpool_find(const fs_vpool *p, const char *name, size_t namelen)
{
	uint32_t lo = 0, hi = p->n;

	while (lo < hi)
	{
		uint32_t mid = lo + (hi - lo) / 2;
		int c = fs_bytes_cmp(p->v[mid].name, p->v[mid].namelen, name, namelen);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

static bool
vpool_has_indirect(const fs_vpool *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
	{
		FS_POLL(i);
		if (p->v[i].nindirect > 0)
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- available resources as text */

static fs_status
available_error(const char *text, size_t len, size_t at, const char *what, fs_error *err)
{
	return fs_fail_syntax(err, "input syntax for available resources", text, len, at, what,
	                      "Write amounts as in a resvec and a resource held by another vnode as "
	                      "<resource>=@<vnode>, for example \"ncpus=4,scratch=@n07\".");
}

fs_status
fs_vpool_parse_available(const char *text, size_t len, const fs_allocator *a, uint8_t **rv,
                         fs_indirect **ind, size_t *nind, fs_error *err)
{
	size_t b = 0, e = len, i, start, n = 0, cap = 4, rvlen;
	fs_indirect *out;
	char *rest;
	fs_status st = FS_OK;

	*ind = NULL;
	*nind = 0;
	if (len == 0 || memchr(text, '@', len) == NULL)
		return fs_rv_parse(text, len, a, 0, rv, &rvlen, err);
	while (b < e && fs_is_space(text[b]))
		b++;
	while (e > b && fs_is_space(text[e - 1]))
		e--;
	if (e - b >= 2 && text[b] == '{' && text[e - 1] == '}')
	{
		b++;
		e--;
	}
	/*
	 * Entries whose value starts with "@" are pointers. They are blanked out, with one comma, and
	 * the rest read as a resvec: its error positions stay those of the text.
	 */
	out = a->alloc(a->ctx, sizeof(fs_indirect) * cap);
	rest = a->alloc(a->ctx, len + 1);
	memcpy(rest, text, len);
	for (start = b, i = b; i <= e && st == FS_OK; i++)
	{
		const char *eq;
		size_t at;

		FS_POLL(i);
		if (i < e && text[i] != ',')
			continue;
		eq = memchr(text + start, '=', i - start);
		at = eq ? (size_t) (eq - text) + 1 : i;
		while (at < i && fs_is_space(text[at]))
			at++;
		if (eq && at < i && text[at] == '@')
		{
			size_t nb = start, ne = (size_t) (eq - text), tb = at + 1, te = i;

			while (nb < ne && fs_is_space(text[nb]))
				nb++;
			while (ne > nb && fs_is_space(text[ne - 1]))
				ne--;
			while (te > tb && fs_is_space(text[te - 1]))
				te--;
			if (ne == nb)
				st = available_error(text, len, nb, "Expected a resource name before \"=\"", err);
			else if (te == tb)
				st = available_error(text, len, tb, "Expected a vnode name after \"@\"", err);
			else
			{
				if (n == cap)
				{
					fs_indirect *grown = a->alloc(a->ctx, sizeof(fs_indirect) * cap * 2);

					memcpy(grown, out, sizeof(fs_indirect) * n);
					a->release(a->ctx, out);
					out = grown;
					cap *= 2;
				}
				out[n].res = text + nb;
				out[n].reslen = ne - nb;
				out[n].vnode = text + tb;
				out[n++].vnodelen = te - tb;
				memset(rest + start, ' ', i - start);
				if (start > b && rest[start - 1] == ',')
					rest[start - 1] = ' ';
				else if (i < e)
					rest[i] = ' ';
			}
		}
		start = i + 1;
	}
	if (st == FS_OK)
	{
		st = fs_rv_parse(rest, len, a, 0, rv, &rvlen, err);
		if (st == FS_ERR_SYNTAX) /* show the text as written, not the copy with "@" blanked */
		{
			char problem[FS_MSG_LEN], hint[FS_MSG_LEN];
			size_t plen = strlen(err->detail);

			/* the detail's positions are those of the text; its last period is added back */
			if (plen > 0 && err->detail[plen - 1] == '.')
				plen--;
			memcpy(problem, err->detail, plen);
			problem[plen] = '\0';
			memcpy(hint, err->hint, sizeof(hint));
			available_error(text, len, FS_NO_POSITION, problem, err);
			if (hint[0]) /* the amount's own hint (size units) says more than the form's */
				memcpy(err->hint, hint, sizeof(hint));
		}
	}
	a->release(a->ctx, rest);
	if (st != FS_OK)
	{
		a->release(a->ctx, out);
		return st;
	}
	*ind = out;
	*nind = n;
	return FS_OK;
}

void
fs_vpool_format_available(fs_sb *sb, const fs_vnode *v)
{
	size_t k;

	fs_rv_format(sb, v->avail);
	for (k = 0; k < v->nindirect; k++)
	{
		if (k > 0 || fs_rv_count(v->avail) > 0)
			fs_sb_append(sb, ",", 1);
		fs_sb_append(sb, v->indirect[k].res, v->indirect[k].reslen);
		fs_sb_append(sb, "=@", 2);
		fs_sb_append(sb, v->indirect[k].vnode, v->indirect[k].vnodelen);
	}
}

/* ---------------------------------------------------------------- flat form */

/*
 * uint8 version, uint32 count, then per vnode: uint16 name length, name, uint32 length and
 * bytes of the available and of the assigned resvec, uint16 label count, and per label uint16
 * key length, key, uint16 value length, value; in version 2 then uint16 indirect count and per
 * entry uint8 resource length, resource, uint16 vnode length, vnode. Native byte order, no
 * alignment. Version 1 when no vnode has an indirect resource, so that such pools keep their
 * bytes.
 */
size_t
fs_vpool_flat_size(const fs_vpool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;
	bool ind = vpool_has_indirect(p);

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		size += 2 + v->namelen + 8 + fs_rv_size(v->avail) + fs_rv_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
		if (ind)
			size += 2;
		for (k = 0; k < v->nindirect; k++)
			size += 3 + v->indirect[k].reslen + v->indirect[k].vnodelen;
	}
	return size;
}

static uint8_t *
put16(uint8_t *o, size_t v)
{
	uint16_t x = (uint16_t) v;

	return fs_put(o, &x, 2);
}

static uint8_t *
put32(uint8_t *o, size_t v)
{
	uint32_t x = (uint32_t) v;

	return fs_put(o, &x, 4);
}

static uint8_t *
put8(uint8_t *o, size_t v)
{
	*o = (uint8_t) v;
	return o + 1;
}

void
fs_vpool_flatten(const fs_vpool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;
	bool ind = vpool_has_indirect(p);

	*out++ = ind ? FLAT_VERSION_INDIRECT : FLAT_VERSION;
	out = put32(out, p->n);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		out = put16(out, v->namelen);
		out = fs_put(out, v->name, v->namelen);
		out = put32(out, fs_rv_size(v->avail));
		out = fs_put(out, v->avail, fs_rv_size(v->avail));
		out = put32(out, fs_rv_size(v->assigned));
		out = fs_put(out, v->assigned, fs_rv_size(v->assigned));
		out = put16(out, v->nlabels);
		for (k = 0; k < v->nlabels; k++)
		{
			out = put16(out, v->labels[k].keylen);
			out = fs_put(out, v->labels[k].key, v->labels[k].keylen);
			out = put16(out, v->labels[k].valuelen);
			out = fs_put(out, v->labels[k].value, v->labels[k].valuelen);
		}
		if (ind)
			out = put16(out, v->nindirect);
		for (k = 0; k < v->nindirect; k++)
		{
			out = put8(out, v->indirect[k].reslen);
			out = fs_put(out, v->indirect[k].res, v->indirect[k].reslen);
			out = put16(out, v->indirect[k].vnodelen);
			out = fs_put(out, v->indirect[k].vnode, v->indirect[k].vnodelen);
		}
	}
}

static bool
take_len(fs_reader *r, size_t width, size_t *len)
{
	const uint8_t *at;

	if (!fs_read_span(r, width, &at))
		return false;
	if (width == 1)
		*len = at[0];
	else if (width == 2)
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
 * A label value the text form can express: fs_labels_append splits values at commas, trims
 * whitespace and the pool drops empty ones.
 */
static bool
value_ok(const uint8_t *s, size_t len)
{
	return len > 0 && memchr(s, ',', len) == NULL && !fs_is_space((char) s[0]) &&
	       !fs_is_space((char) s[len - 1]);
}

fs_status
fs_vpool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_vpool **out,
                   fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	size_t n, i;
	fs_vpool *p;
	fs_label *labels = NULL;
	fs_status st = FS_OK;

	fs_indirect *ind = NULL;
	size_t nind_total = 0;
	bool v2;

	if (!fs_read_span(&r, 1, &at) || !take_len(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != FLAT_VERSION && at[0] != FLAT_VERSION_INDIRECT)
		return corrupt(err, "unsupported format version");
	v2 = at[0] == FLAT_VERSION_INDIRECT;
	if (n > len / 15)
		return corrupt(err, "bad vnode count");
	p = fs_vpool_new(a);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		size_t namelen, alen, slen, nl, k, ni = 0;
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
		else if (i > 0 && fs_bytes_cmp(p->v[p->n - 1].name, p->v[p->n - 1].namelen,
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
		if (st == FS_OK && v2 && !take_len(&r, 2, &ni))
			st = corrupt(err, "value is truncated");
		ind = a->alloc(a->ctx, sizeof(fs_indirect) * (ni + 1));
		for (k = 0; k < ni && st == FS_OK; k++)
		{
			const uint8_t *res, *vn;

			if (!take_len(&r, 1, &ind[k].reslen) || !fs_read_span(&r, ind[k].reslen, &res) ||
			    !take_len(&r, 2, &ind[k].vnodelen) || !fs_read_span(&r, ind[k].vnodelen, &vn))
				st = corrupt(err, "value is truncated");
			else if (!target_ok(vn, ind[k].vnodelen) || has_nul(res, ind[k].reslen))
				st = corrupt(err, "an indirect resource the text form cannot express");
			ind[k].res = (const char *) res;
			ind[k].vnode = (const char *) vn;
			if (st == FS_OK && k > 0 && indirect_cmp(&ind[k - 1], &ind[k]) >= 0)
				st = corrupt(err, "indirect resources out of order");
		}
		nind_total += ni;
		if (st == FS_OK)
			st = fs_vpool_add(p, (const char *) name, namelen, avail, assigned, labels, nl, ind, ni,
			                  err);
		a->release(a->ctx, labels);
		a->release(a->ctx, ind);
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK && v2 && nind_total == 0)
		st = corrupt(err, "version 2 without indirect resources is not canonical");
	if (st == FS_OK)
		st = fs_vpool_prepare(p, err);
	if (st != FS_OK)
	{
		fs_vpool_free(p);
		return st;
	}
	*out = p;
	return FS_OK;
}

/* ---------------------------------------------------------------- binary form (send/recv) */

/*
 * Binary form, field by field in network byte order: uint8 version (1, or 2 when some vnode has
 * an indirect resource), uint32 vnode count, then each vnode in name order: uint16 name length
 * and name; the available and the assigned resources, each as uint32 entry count and per entry
 * uint8 kind, uint8 name length, name, float8 amount; uint16 label count and per label (sorted by
 * key, then value) uint16 key length, key, uint16 value length, value; in version 2 uint16
 * indirect count and per entry (sorted by resource) uint8 resource length, resource, uint16 vnode
 * length, vnode. Reading it accepts exactly the bytes sending produces.
 */
#define BINARY_VERSION          1
#define BINARY_VERSION_INDIRECT 2

size_t
fs_vpool_binary_size(const fs_vpool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;
	bool ind = vpool_has_indirect(p);

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		size += 2 + v->namelen + fs_rv_binary_size(v->avail) + fs_rv_binary_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
		if (ind)
			size += 2;
		for (k = 0; k < v->nindirect; k++)
			size += 3 + v->indirect[k].reslen + v->indirect[k].vnodelen;
	}
	return size;
}

void
fs_vpool_to_binary(const fs_vpool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;
	bool ind = vpool_has_indirect(p);

	*out++ = ind ? BINARY_VERSION_INDIRECT : BINARY_VERSION;
	out = fs_put_be(out, p->n, 4);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		out = fs_put_be(out, v->namelen, 2);
		out = fs_put(out, v->name, v->namelen);
		out = fs_rv_put_binary(out, v->avail);
		out = fs_rv_put_binary(out, v->assigned);
		out = fs_put_be(out, v->nlabels, 2);
		for (k = 0; k < v->nlabels; k++)
		{
			out = fs_put_be(out, v->labels[k].keylen, 2);
			out = fs_put(out, v->labels[k].key, v->labels[k].keylen);
			out = fs_put_be(out, v->labels[k].valuelen, 2);
			out = fs_put(out, v->labels[k].value, v->labels[k].valuelen);
		}
		if (ind)
			out = fs_put_be(out, v->nindirect, 2);
		for (k = 0; k < v->nindirect; k++)
		{
			*out++ = (uint8_t) v->indirect[k].reslen;
			out = fs_put(out, v->indirect[k].res, v->indirect[k].reslen);
			out = fs_put_be(out, v->indirect[k].vnodelen, 2);
			out = fs_put(out, v->indirect[k].vnode, v->indirect[k].vnodelen);
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
fs_vpool_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_vpool **out,
                     fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	uint64_t n, nl;
	uint32_t i, n32;
	fs_sb flat;
	fs_vpool *p = NULL;
	fs_status st = FS_OK;

	if (!fs_read_span(&r, 1, &at) || !fs_read_be(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != BINARY_VERSION && at[0] != BINARY_VERSION_INDIRECT)
	{
		fs_fail(err, FS_ERR_BINARY, "unsupported binary format version %d for type vnodepool",
		        at[0]);
		fs_error_hint(err, "This server reads versions %d and %d; send the value as text instead.",
		              BINARY_VERSION, BINARY_VERSION_INDIRECT);
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
		if (st == FS_OK && at[0] == BINARY_VERSION_INDIRECT)
		{
			uint64_t ni, reslen;
			uint16_t ni16;
			const uint8_t *res;

			if (!fs_read_be(&r, 2, &ni))
				st = corrupt(err, "value is truncated");
			ni16 = (uint16_t) ni;
			fs_sb_append(&flat, (const char *) &ni16, 2);
			for (k = 0; k < ni && st == FS_OK; k++)
			{
				uint8_t len8;

				if (!fs_read_be(&r, 1, &reslen) || !fs_read_span(&r, (size_t) reslen, &res))
				{
					st = corrupt(err, "value is truncated");
					break;
				}
				len8 = (uint8_t) reslen;
				fs_sb_append(&flat, (const char *) &len8, 1);
				fs_sb_append(&flat, (const char *) res, (size_t) reslen);
				if (!str_from_binary(&r, &flat))
					st = corrupt(err, "value is truncated");
			}
		}
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK)
		st = fs_vpool_from_flat(a, (const uint8_t *) flat.data, flat.len, &p, err);
	a->release(a->ctx, flat.data);
	if (st != FS_OK)
		return st;
	/* accept only the canonical bytes, so that receive then send gives the input back */
	if (fs_vpool_binary_size(p) != len)
		st = corrupt(err, "value is not in canonical form");
	else
	{
		uint8_t *again = a->alloc(a->ctx, len);

		fs_vpool_to_binary(p, again);
		if (memcmp(again, data, len) != 0)
			st = corrupt(err, "value is not in canonical form");
		a->release(a->ctx, again);
	}
	if (st != FS_OK)
	{
		fs_vpool_free(p);
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

/* Split line[from, to) into at most `max` words; returns the count, or max + 1 when too many. */
static size_t
words(const char *line, size_t from, size_t to, size_t *starts, size_t *lens, size_t max)
{
	size_t n = 0, i = from;

	for (;;)
	{
		while (i < to && fs_is_space(line[i]))
			i++;
		if (i >= to)
			return n;
		if (n == max)
		{
			starts[n] = i;
			return max + 1;
		}
		starts[n] = i;
		while (i < to && !fs_is_space(line[i]))
			i++;
		lens[n] = i - starts[n];
		n++;
	}
}

static bool
amount_word(const char *w, size_t n, fs_amount *out)
{
	if (fs_span_ieq(w, n, "total"))
		*out = FS_AMOUNT_TOTAL;
	else if (fs_span_ieq(w, n, "assigned"))
		*out = FS_AMOUNT_ASSIGNED;
	else if (fs_span_ieq(w, n, "unused"))
		*out = FS_AMOUNT_UNUSED;
	else
		return false;
	return true;
}

static bool
prime_word(const char *w, size_t n, fs_prime *out)
{
	if (fs_span_ieq(w, n, "all"))
		*out = FS_PRIME_ALL;
	else if (fs_span_ieq(w, n, "prime"))
		*out = FS_PRIME_PRIME;
	else if (fs_span_ieq(w, n, "non_prime"))
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

	while (i < len && fs_is_space(line[i]))
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
	if (fs_span_ieq(line + st[1], ln[1], "high"))
		out->high = true;
	else if (fs_span_ieq(line + st[1], ln[1], "low"))
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

/* ---------------------------------------------------------------- resolving "@vnode" */

static bool
label_points(const fs_label *l)
{
	return l->valuelen > 0 && l->value[0] == '@';
}

static bool
vpool_points(const fs_vpool *p)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < p->n; i++)
	{
		FS_POLL(i);
		if (p->v[i].nindirect > 0)
			return true;
		for (k = 0; k < p->v[i].nlabels; k++)
			if (label_points(&p->v[i].labels[k]))
				return true;
	}
	return false;
}

/* The vnode that vnode `from` takes `what` from; an unknown vnode or itself is an error. */
static fs_status
find_target(const fs_vpool *p, uint32_t from, const char *what, size_t whatlen, const char *tname,
            size_t tlen, uint32_t *t, fs_error *err)
{
	const fs_vnode *v = &p->v[from];

	*t = fs_vpool_find(p, tname, tlen);
	if (*t == UINT32_MAX)
	{
		fs_fail(err, FS_ERR_VALUE,
		        "vnode \"%s\" takes \"%s\" from vnode \"%s\", which is not in the pool",
		        show(v->name, v->namelen).s, show(what, whatlen).s, show(tname, tlen).s);
		fs_error_hint(err, "Add vnode \"%s\" to the pool, or name a vnode of the pool after \"@\".",
		              show(tname, tlen).s);
		return FS_ERR_VALUE;
	}
	if (*t == from)
	{
		fs_fail(err, FS_ERR_VALUE, "vnode \"%s\" takes \"%s\" from itself",
		        show(v->name, v->namelen).s, show(what, whatlen).s);
		fs_error_detail(err, "PBS refuses an indirect value that names its own vnode.");
		fs_error_hint(err, "Give the value of \"%s\" on vnode \"%s\" itself.",
		              show(what, whatlen).s, show(v->name, v->namelen).s);
		return FS_ERR_VALUE;
	}
	return FS_OK;
}

static fs_status
chained(const fs_vpool *p, uint32_t from, uint32_t t, const char *what, size_t whatlen,
        const char *next, size_t nextlen, fs_error *err)
{
	const fs_vnode *v = &p->v[from], *tv = &p->v[t];

	/* next is the target's own value, "@vnode" */
	fs_fail(err, FS_ERR_VALUE,
	        "vnode \"%s\" takes \"%s\" from vnode \"%s\", which takes it from vnode \"%s\"",
	        show(v->name, v->namelen).s, show(what, whatlen).s, show(tv->name, tv->namelen).s,
	        show(next + 1, nextlen - 1).s);
	fs_error_detail(err, "PBS allows one level of indirection: the vnode after \"@\" must hold the "
	                     "value itself.");
	fs_error_hint(err, "Write \"@%s\" on vnode \"%s\" instead.", show(next + 1, nextlen - 1).s,
	              show(v->name, v->namelen).s);
	return FS_ERR_VALUE;
}

static fs_status
lacking(const fs_vpool *p, uint32_t from, uint32_t t, const char *what, size_t whatlen,
        fs_error *err)
{
	const fs_vnode *v = &p->v[from], *tv = &p->v[t];

	fs_fail(err, FS_ERR_VALUE, "vnode \"%s\" takes \"%s\" from vnode \"%s\", which has no \"%s\"",
	        show(v->name, v->namelen).s, show(what, whatlen).s, show(tv->name, tv->namelen).s,
	        show(what, whatlen).s);
	fs_error_hint(err, "Set \"%s\" on vnode \"%s\", or drop the \"@%s\".", show(what, whatlen).s,
	              show(tv->name, tv->namelen).s, show(tv->name, tv->namelen).s);
	return FS_ERR_VALUE;
}

/* An assigned amount that a pointing vnode hands to the vnode holding the resource. */
typedef struct transfer
{
	uint32_t target;
	fs_rv_item item;
} transfer;

static int
transfer_cmp(const void *x, const void *y, void *ctx)
{
	const transfer *a = x, *b = y;

	(void) ctx;
	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	return fs_bytes_cmp(a->item.name, a->item.namelen, b->item.name, b->item.namelen);
}

const fs_indirect *
fs_vnode_indirect(const fs_vnode *v, const char *res, size_t reslen)
{
	size_t k;

	for (k = 0; k < v->nindirect; k++)
		if (fs_bytes_cmp(v->indirect[k].res, v->indirect[k].reslen, res, reslen) == 0)
			return &v->indirect[k];
	return NULL;
}

/* Check every indirect resource; collect the assigned amounts the pointing vnodes hand over. */
static fs_status
check_resources(const fs_vpool *p, transfer **out, size_t *nout, fs_error *err)
{
	size_t n = 0, cap = 16;
	transfer *tr = p->a.alloc(p->a.ctx, sizeof(transfer) * cap);
	uint32_t i;

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];
		size_t k;
		fs_rv_iter it;
		fs_rv_item item;

		FS_POLL(i);
		for (k = 0; k < v->nindirect; k++)
		{
			const fs_indirect *e = &v->indirect[k], *next;
			uint32_t t;
			fs_status st = find_target(p, i, e->res, e->reslen, e->vnode, e->vnodelen, &t, err);

			if (st == FS_OK && (next = fs_vnode_indirect(&p->v[t], e->res, e->reslen)) != NULL)
			{
				char *at = p->a.alloc(p->a.ctx, next->vnodelen + 1);

				at[0] = '@';
				memcpy(at + 1, next->vnode, next->vnodelen);
				st = chained(p, i, t, e->res, e->reslen, at, next->vnodelen + 1, err);
				p->a.release(p->a.ctx, at);
			}
			else if (st == FS_OK && !fs_rv_get(p->v[t].avail, e->res, e->reslen, &item))
				st = lacking(p, i, t, e->res, e->reslen, err);
			if (st != FS_OK)
			{
				p->a.release(p->a.ctx, tr);
				return st;
			}
		}
		fs_rv_iter_init(&it, v->assigned);
		while (v->nindirect > 0 && fs_rv_next(&it, &item))
		{
			const fs_indirect *e = fs_vnode_indirect(v, item.name, item.namelen);

			if (e == NULL || item.amount == 0)
				continue;
			if (n == cap)
			{
				transfer *grown = p->a.alloc(p->a.ctx, sizeof(transfer) * cap * 2);

				memcpy(grown, tr, sizeof(transfer) * n);
				p->a.release(p->a.ctx, tr);
				tr = grown;
				cap *= 2;
			}
			tr[n].target = fs_vpool_find(p, e->vnode, e->vnodelen);
			tr[n++].item = item;
		}
	}
	fs_sort(tr, n, sizeof(transfer), transfer_cmp, NULL, &p->a);
	*out = tr;
	*nout = n;
	return FS_OK;
}

/*
 * Vnode i's assigned amounts as placement sees them: its own, without the resources it takes
 * from another vnode, plus what the vnodes that take from it hand over (tr[*next...]).
 */
static fs_status
resolved_assigned(const fs_vpool *p, uint32_t i, const transfer *tr, size_t ntr, size_t *next,
                  uint8_t **out, fs_error *err)
{
	const fs_vnode *v = &p->v[i];
	fs_rv_item *items = p->a.alloc(p->a.ctx, sizeof(fs_rv_item) * (fs_rv_count(v->assigned) + 1));
	fs_rv_iter it;
	fs_rv_item item;
	size_t n = 0, len, from;
	uint8_t *own, *handed, *sum;
	fs_status st;

	fs_rv_iter_init(&it, v->assigned);
	while (fs_rv_next(&it, &item))
		if (fs_vnode_indirect(v, item.name, item.namelen) == NULL)
			items[n++] = item;
	st = fs_rv_build(items, n, FS_ERR_VALUE, &p->a, 0, &own, &len, err);
	p->a.release(p->a.ctx, items);
	if (st != FS_OK || *next >= ntr || tr[*next].target != i)
	{
		*out = own;
		return st;
	}
	/* the handed-over amounts, summed per resource (tr is sorted by target, then name) */
	from = *next;
	items = p->a.alloc(p->a.ctx, sizeof(fs_rv_item) * (ntr - from + 1));
	n = 0;
	for (; *next < ntr && tr[*next].target == i && st == FS_OK; (*next)++)
	{
		const fs_rv_item *x = &tr[*next].item;

		if (n > 0 &&
		    fs_bytes_cmp(items[n - 1].name, items[n - 1].namelen, x->name, x->namelen) == 0)
		{
			if (items[n - 1].kind != x->kind)
				st = fs_rv_kind_mismatch(err, "add", &items[n - 1], x);
			items[n - 1].amount += x->amount;
		}
		else
			items[n++] = *x;
	}
	if (st == FS_OK)
		st = fs_rv_build(items, n, FS_ERR_RANGE, &p->a, 0, &handed, &len, err);
	p->a.release(p->a.ctx, items);
	if (st != FS_OK)
	{
		p->a.release(p->a.ctx, own);
		return st;
	}
	st = fs_rv_add(own, handed, 1, &p->a, 0, &sum, &len, err);
	p->a.release(p->a.ctx, own);
	p->a.release(p->a.ctx, handed);
	if (st != FS_OK)
	{
		fs_error_context(err,
		                 "while adding the assigned amounts of vnode \"%s\" and of the vnodes "
		                 "that take from it",
		                 show(v->name, v->namelen).s);
		return st;
	}
	*out = sum;
	return FS_OK;
}

/* Vnode i's labels with every "@vnode" value replaced by that vnode's values for the key. */
static fs_status
resolved_labels(const fs_vpool *p, uint32_t i, fs_label **out, size_t *nout, fs_error *err)
{
	const fs_vnode *v = &p->v[i];
	size_t k = 0, n = 0, cap = v->nlabels + 4;
	fs_label *l = p->a.alloc(p->a.ctx, sizeof(fs_label) * cap);

	while (k < v->nlabels)
	{
		size_t e = k + 1, j, pointing = SIZE_MAX;
		const fs_vnode *tv;
		uint32_t t;
		fs_status st;

		while (e < v->nlabels && fs_bytes_cmp(v->labels[e].key, v->labels[e].keylen,
		                                      v->labels[k].key, v->labels[k].keylen) == 0)
			e++;
		for (j = k; j < e; j++)
			if (label_points(&v->labels[j]))
				pointing = j;
		st = FS_OK;
		if (pointing != SIZE_MAX && e - k > 1)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "label \"%s\" of vnode \"%s\" mixes \"%s\" with other values",
			        show(v->labels[k].key, v->labels[k].keylen).s, show(v->name, v->namelen).s,
			        show(v->labels[pointing].value, v->labels[pointing].valuelen).s);
			fs_error_detail(err, "A value that names another vnode stands for all of that vnode's "
			                     "values for the key.");
			fs_error_hint(err, "Give \"%s\" alone, or list the values themselves.",
			              show(v->labels[pointing].value, v->labels[pointing].valuelen).s);
			st = FS_ERR_VALUE;
		}
		else if (pointing != SIZE_MAX && v->labels[pointing].valuelen == 1)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "label \"%s\" of vnode \"%s\" has \"@\" without a vnode name",
			        show(v->labels[k].key, v->labels[k].keylen).s, show(v->name, v->namelen).s);
			fs_error_hint(err, "Write \"@<vnode>\", for example \"@n07\".");
			st = FS_ERR_VALUE;
		}
		else if (pointing != SIZE_MAX)
			st = find_target(p, i, v->labels[k].key, v->labels[k].keylen,
			                 v->labels[pointing].value + 1, v->labels[pointing].valuelen - 1, &t,
			                 err);
		if (st != FS_OK)
		{
			p->a.release(p->a.ctx, l);
			return st;
		}
		if (pointing == SIZE_MAX)
		{
			/* the key's own values, as they are */
			for (j = k; j < e; j++)
			{
				if (n == cap)
				{
					fs_label *grown = p->a.alloc(p->a.ctx, sizeof(fs_label) * cap * 2);

					memcpy(grown, l, sizeof(fs_label) * n);
					p->a.release(p->a.ctx, l);
					l = grown;
					cap *= 2;
				}
				l[n++] = v->labels[j];
			}
			k = e;
			continue;
		}
		tv = &p->v[t];
		st = FS_ERR_VALUE; /* until the target shows a value */
		for (j = 0; j < tv->nlabels; j++)
		{
			const fs_label *tl = &tv->labels[j];

			if (fs_bytes_cmp(tl->key, tl->keylen, v->labels[k].key, v->labels[k].keylen) != 0)
				continue;
			if (label_points(tl))
			{
				p->a.release(p->a.ctx, l);
				return chained(p, i, t, tl->key, tl->keylen, tl->value, tl->valuelen, err);
			}
			if (n == cap)
			{
				fs_label *grown = p->a.alloc(p->a.ctx, sizeof(fs_label) * cap * 2);

				memcpy(grown, l, sizeof(fs_label) * n);
				p->a.release(p->a.ctx, l);
				l = grown;
				cap *= 2;
			}
			l[n++] = *tl;
			st = FS_OK;
		}
		if (st != FS_OK)
		{
			p->a.release(p->a.ctx, l);
			return lacking(p, i, t, v->labels[k].key, v->labels[k].keylen, err);
		}
		k = e;
	}
	*out = l;
	*nout = n;
	return FS_OK;
}

fs_status
fs_vpool_resolve(fs_vpool *p, const fs_vpool **out, fs_error *err)
{
	transfer *tr = NULL;
	size_t ntr = 0, next = 0;
	fs_vpool *q;
	uint32_t i;
	fs_status st;

	if (p->resolved == NULL && !vpool_points(p))
		p->resolved = p;
	if (p->resolved)
	{
		*out = p->resolved;
		return FS_OK;
	}
	st = check_resources(p, &tr, &ntr, err);
	if (st != FS_OK)
		return st;
	q = fs_vpool_new(&p->a);
	for (i = 0; i < p->n && st == FS_OK; i++)
	{
		const fs_vnode *v = &p->v[i];
		fs_label *labels = NULL;
		size_t nl = 0, k;
		uint8_t *assigned = NULL;

		FS_POLL(i);
		st = resolved_labels(p, i, &labels, &nl, err);
		if (st == FS_OK)
			st = resolved_assigned(p, i, tr, ntr, &next, &assigned, err);
		if (st == FS_OK)
			st = fs_vpool_add(q, v->name, v->namelen, v->avail, assigned, labels, nl, v->indirect,
			                  v->nindirect, err);
		if (st == FS_OK && v->nindirect > 0)
		{
			fs_vnode *w = &q->v[q->n - 1];

			w->targets = p->a.alloc(p->a.ctx, sizeof(uint32_t) * w->nindirect);
			for (k = 0; k < w->nindirect; k++)
				w->targets[k] = fs_vpool_find(p, w->indirect[k].vnode, w->indirect[k].vnodelen);
		}
		if (labels)
			p->a.release(p->a.ctx, labels);
		if (assigned)
			p->a.release(p->a.ctx, assigned);
	}
	p->a.release(p->a.ctx, tr);
	if (st == FS_OK)
		st = fs_vpool_prepare(q, err);
	if (st != FS_OK)
	{
		fs_vpool_free(q);
		return st;
	}
	q->resolved = q;
	p->resolved = q;
	*out = q;
	return FS_OK;
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
	const fs_vpool *pool;
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
				fs_error_context(err,
				                 "while subtracting the assigned from the available amounts "
				                 "of vnode \"%s\"",
				                 show(v->name, v->namelen).s);
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
	fs_status st;
	int in_place = fs_rv_add_inplace(*acc, fs_rv_size(*acc), v, fs_rv_size(v), err);

	/* vnodes of one set mostly list the same resources: add in place, without allocating */
	if (in_place == 1)
		return FS_OK;
	st = in_place < 0 ? err->status : fs_rv_add(*acc, v, 1, a, 0, &sum, &len, err);
	if (st != FS_OK)
	{
		fs_error_context(err, "in placement set \"%s\"", show(ps->name, ps->namelen).s);
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
			r = fs_bytes_cmp(va, a->valuelens[c->key_of[i]], vb, b->valuelens[c->key_of[i]]);
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
	return fs_bytes_cmp(a->name, a->namelen, b->name, b->namelen);
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

/* A shared amount a set reaches only through vnodes that point at it. */
typedef struct shared_ref
{
	uint32_t target;
	const char *res;
	size_t reslen;
} shared_ref;

static int
shared_ref_cmp(const void *x, const void *y, void *ctx)
{
	const shared_ref *a = x, *b = y;

	(void) ctx;
	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	return fs_bytes_cmp(a->res, a->reslen, b->res, b->reslen);
}

/* One entry of an encoded resvec, added to *acc as a vector of its own. */
static fs_status
sum_item(const fs_allocator *a, uint8_t **acc, const uint8_t *rv, const char *name, size_t len,
         const fs_pset *ps, fs_error *err)
{
	fs_rv_item item;
	uint8_t *one;
	size_t onelen;
	fs_status st;

	if (!fs_rv_get(rv, name, len, &item))
		return FS_OK;
	st = fs_rv_build(&item, 1, FS_ERR_VALUE, a, 0, &one, &onelen, err);
	if (st == FS_OK)
	{
		st = sum_into(a, acc, one, ps, err);
		a->release(a->ctx, one);
	}
	return st;
}

/*
 * The shared amounts that set s reaches only through pointing vnodes (the vnode holding them is
 * not in the set), each counted once: marks[v] == s + 1 for the set's vnodes.
 */
static fs_status
add_shared(const fs_vpool *pool, fs_pset *ps, size_t s, uint32_t *marks, uint8_t *const *unused,
           const fs_allocator *a, fs_error *err)
{
	size_t n = 0, cap = 0, i, k;
	shared_ref *refs = NULL;
	fs_status st = FS_OK;

	for (i = 0; i < ps->nvnodes; i++)
		marks[ps->vnodes[i]] = (uint32_t) s + 1;
	for (i = 0; i < ps->nvnodes; i++)
	{
		const fs_vnode *v = fs_vpool_vnode(pool, ps->vnodes[i]);

		FS_POLL(i);
		for (k = 0; k < v->nindirect; k++)
		{
			if (marks[v->targets[k]] == (uint32_t) s + 1)
				continue;
			if (n == cap)
			{
				shared_ref *grown;

				cap = cap ? cap * 2 : 8;
				grown = a->alloc(a->ctx, sizeof(shared_ref) * cap);
				if (n)
					memcpy(grown, refs, sizeof(shared_ref) * n);
				if (refs)
					a->release(a->ctx, refs);
				refs = grown;
			}
			refs[n].target = v->targets[k];
			refs[n].res = v->indirect[k].res;
			refs[n++].reslen = v->indirect[k].reslen;
		}
	}
	if (n == 0)
		return FS_OK;
	fs_sort(refs, n, sizeof(shared_ref), shared_ref_cmp, NULL, a);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		const fs_vnode *t = fs_vpool_vnode(pool, refs[i].target);

		FS_POLL(i);
		if (i > 0 && shared_ref_cmp(&refs[i - 1], &refs[i], NULL) == 0)
			continue;
		st = sum_item(a, &ps->total, t->avail, refs[i].res, refs[i].reslen, ps, err);
		if (st == FS_OK)
			st = sum_item(a, &ps->assigned, t->assigned, refs[i].res, refs[i].reslen, ps, err);
		if (st == FS_OK)
			st = sum_item(a, &ps->unused, unused[refs[i].target], refs[i].res, refs[i].reslen, ps,
			              err);
	}
	a->release(a->ctx, refs);
	return st;
}

/* total, assigned and unused of each set (a shared amount once per set). */
static fs_status
set_totals(const fs_vpool *pool, fs_pset *sets, size_t nsets, const fs_allocator *a, fs_error *err)
{
	uint32_t n = fs_vpool_count(pool), made = 0, i;
	uint8_t **unused = a->alloc(a->ctx, sizeof(uint8_t *) * (n + 1));
	uint32_t *marks = NULL;
	fs_status st = FS_OK;
	size_t s;

	while (made < n && st == FS_OK)
	{
		FS_POLL(made);
		st = vnode_unused(a, fs_vpool_vnode(pool, made), &unused[made], err);
		if (st == FS_OK)
			made++;
	}
	if (st == FS_OK && vpool_has_indirect(pool))
	{
		marks = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
		memset(marks, 0, sizeof(uint32_t) * (n + 1));
	}
	for (s = 0; s < nsets; s++)
	{
		fs_pset *ps = &sets[s];

		fs_check_interrupts();
		ps->total = copy_rv(a, NULL);
		ps->assigned = copy_rv(a, NULL);
		ps->unused = copy_rv(a, NULL);
		for (i = 0; i < ps->nvnodes && st == FS_OK; i++)
		{
			const fs_vnode *v = fs_vpool_vnode(pool, ps->vnodes[i]);

			FS_POLL(i);
			st = sum_into(a, &ps->total, v->avail, ps, err);
			if (st == FS_OK)
				st = sum_into(a, &ps->assigned, v->assigned, ps, err);
			if (st == FS_OK)
				st = sum_into(a, &ps->unused, unused[ps->vnodes[i]], ps, err);
		}
		if (st == FS_OK && marks)
			st = add_shared(pool, ps, s, marks, unused, a, err);
	}
	for (i = 0; i < made; i++)
		a->release(a->ctx, unused[i]);
	a->release(a->ctx, unused);
	if (marks)
		a->release(a->ctx, marks);
	return st;
}

fs_status
fs_vpool_all_set(fs_vpool *pool, const fs_allocator *a, fs_pset **out, size_t *n, fs_error *err)
{
	const fs_vpool *view;
	fs_pset *ps;
	uint32_t i;
	fs_status st = fs_vpool_resolve(pool, &view, err);

	if (st != FS_OK)
		return st;
	ps = a->alloc(a->ctx, sizeof(fs_pset));
	memset(ps, 0, sizeof(fs_pset));
	ps->name = a->alloc(a->ctx, 4);
	memcpy(ps->name, "all", 3);
	ps->namelen = 3;
	ps->values = a->alloc(a->ctx, sizeof(char *));
	ps->valuelens = a->alloc(a->ctx, sizeof(size_t));
	ps->nvnodes = fs_vpool_count(view);
	ps->vnodes = a->alloc(a->ctx, sizeof(uint32_t) * (ps->nvnodes + 1));
	for (i = 0; i < ps->nvnodes; i++)
	{
		FS_POLL(i);
		ps->vnodes[i] = i;
	}
	st = set_totals(view, ps, 1, a, err);
	if (st != FS_OK)
	{
		fs_psets_free(ps, 1, a);
		return st;
	}
	*out = ps;
	*n = 1;
	return FS_OK;
}

fs_status
fs_place_first(const fs_pset *sets, size_t n, const uint8_t *request, size_t *pick, bool *now,
               fs_error *err)
{
	size_t pass, i;

	*pick = SIZE_MAX;
	*now = false;
	/* the first set whose unused amounts hold the request; else the first whose totals do */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
		{
			bool fits;
			fs_status st;

			FS_POLL(i);
			st = fs_rv_fits(request, pass == 0 ? sets[i].unused : sets[i].total, &fits, err);
			if (st != FS_OK)
				return st;
			if (fits)
			{
				*pick = i;
				*now = pass == 0;
				return FS_OK;
			}
		}
	return FS_OK;
}

/* ---------------------------------------------------------------- forming the sets */

static fs_status
check_group_keys(const fs_pset_spec *spec, fs_error *err)
{
	size_t k, s;

	if (spec->nkeys == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "group_keys must not be empty");
		fs_error_hint(err, "Name the vnode labels that define placement sets, as in "
		                   "node_group_key, for example ARRAY['router', 'switch'].");
		return FS_ERR_VALUE;
	}
	if (spec->nkeys > FS_PSET_KEYS_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "too many group keys");
		fs_error_detail(err, "%zu keys were given; at most %d are allowed.", spec->nkeys,
		                FS_PSET_KEYS_MAX);
		fs_error_hint(err, "Name only the labels that node_group_key lists.");
		return FS_ERR_LIMIT;
	}
	for (k = 0; k < spec->nkeys; k++)
		for (s = 0; s < k; s++)
			if (fs_bytes_cmp(spec->keys[s], spec->keylens[s], spec->keys[k], spec->keylens[k]) == 0)
			{
				fs_fail(err, FS_ERR_VALUE, "group key \"%.*s\" appears more than once",
				        (int) (spec->keylens[k] < 200 ? spec->keylens[k] : 200), spec->keys[k]);
				fs_error_detail(err, "group_keys[%zu] and group_keys[%zu] are the same key.", s + 1,
				                k + 1);
				fs_error_hint(err, "Name each label once, as node_group_key does.");
				return FS_ERR_VALUE;
			}
	return FS_OK;
}

static void
builder_init(builder *b, const fs_vpool *pool, const fs_pset_spec *spec, const fs_allocator *a)
{
	memset(b, 0, sizeof(*b));
	b->a = a;
	b->pool = pool;
	b->nkeys = spec->nkeys;
	b->keys = spec->keys;
	b->keylens = spec->keylens;
	b->capsets = 8;
	b->sets = a->alloc(a->ctx, sizeof(fs_pset) * b->capsets);
	b->vcap = a->alloc(a->ctx, sizeof(uint32_t) * b->capsets);
	b->idx.ids = a->alloc(a->ctx, sizeof(uint8_t *) * b->capsets);
	b->idx.idlens = a->alloc(a->ctx, sizeof(size_t) * b->capsets);
	b->idx.nslots = (uint32_t) b->capsets * 2;
	b->idx.slots = a->alloc(a->ctx, sizeof(uint32_t) * b->idx.nslots);
	memset(b->idx.slots, 0, sizeof(uint32_t) * b->idx.nslots);
	b->scratchcap = 64;
	b->scratch = a->alloc(a->ctx, b->scratchcap);
}

/* Once the sets are formed, the identity index is no longer needed. */
static void
builder_release_index(builder *b)
{
	size_t s;

	for (s = 0; s < b->nsets; s++)
		b->a->release(b->a->ctx, b->idx.ids[s]);
	b->a->release(b->a->ctx, b->idx.ids);
	b->a->release(b->a->ctx, b->idx.idlens);
	b->a->release(b->a->ctx, b->idx.slots);
	b->a->release(b->a->ctx, b->vcap);
	b->a->release(b->a->ctx, b->scratch);
}

/*
 * One vnode's values for each group key, vals[k][0..counts[k]), and room for the combination
 * being joined (odo counts through the values, pick holds them).
 */
typedef struct key_values
{
	const char ***vals;
	size_t **lens;
	size_t *counts;
	size_t *odo;
	const char **pick;
	size_t *picklen;
} key_values;

static void
key_values_init(key_values *kv, size_t nkeys, const fs_allocator *a)
{
	kv->vals = a->alloc(a->ctx, sizeof(char **) * nkeys);
	kv->lens = a->alloc(a->ctx, sizeof(size_t *) * nkeys);
	kv->counts = a->alloc(a->ctx, sizeof(size_t) * nkeys);
	kv->odo = a->alloc(a->ctx, sizeof(size_t) * nkeys);
	kv->pick = a->alloc(a->ctx, sizeof(char *) * nkeys);
	kv->picklen = a->alloc(a->ctx, sizeof(size_t) * nkeys);
}

static void
key_values_release(key_values *kv, const fs_allocator *a)
{
	a->release(a->ctx, kv->vals);
	a->release(a->ctx, kv->lens);
	a->release(a->ctx, kv->counts);
	a->release(a->ctx, kv->odo);
	a->release(a->ctx, kv->pick);
	a->release(a->ctx, kv->picklen);
}

/*
 * Read vnode v's values for each key (labels are sorted: each key's run is contiguous); a key
 * the vnode lacks gives the empty value, or none with only_explicit. True when every key has a
 * value. Release with vnode_values_release.
 */
static bool
vnode_values(key_values *kv, const fs_vnode *v, const fs_pset_spec *spec, const fs_allocator *a)
{
	bool all = true;
	size_t k, j;

	for (k = 0; k < spec->nkeys; k++)
	{
		kv->vals[k] = a->alloc(a->ctx, sizeof(char *) * (v->nlabels + 1));
		kv->lens[k] = a->alloc(a->ctx, sizeof(size_t) * (v->nlabels + 1));
		kv->counts[k] = 0;
		for (j = 0; j < v->nlabels; j++)
		{
			if (fs_bytes_cmp(v->labels[j].key, v->labels[j].keylen, spec->keys[k],
			                 spec->keylens[k]) == 0)
			{
				kv->vals[k][kv->counts[k]] = v->labels[j].value;
				kv->lens[k][kv->counts[k]++] = v->labels[j].valuelen;
			}
		}
		if (kv->counts[k] == 0 && !spec->only_explicit)
		{
			kv->vals[k][0] = "";
			kv->lens[k][0] = 0;
			kv->counts[k] = 1;
		}
		if (kv->counts[k] == 0)
			all = false;
	}
	return all;
}

static void
vnode_values_release(key_values *kv, size_t nkeys, const fs_allocator *a)
{
	size_t k;

	for (k = 0; k < nkeys; k++)
	{
		a->release(a->ctx, kv->vals[k]);
		a->release(a->ctx, kv->lens[k]);
	}
}

/* Vnode i joins the flat set of each of its values of each key. */
static fs_status
join_flat_sets(builder *b, key_values *kv, uint32_t i, fs_error *err)
{
	size_t k, j, m;
	fs_status st = FS_OK;

	for (k = 0; k < b->nkeys && st == FS_OK; k++)
	{
		for (m = 0; m < b->nkeys; m++)
			kv->pick[m] = NULL;
		for (j = 0; j < kv->counts[k] && st == FS_OK; j++)
		{
			kv->pick[k] = kv->vals[k][j];
			kv->picklen[k] = kv->lens[k][j];
			st = join_set(b, (int) k, 1, kv->pick, kv->picklen, i, err);
		}
	}
	return st;
}

/* Vnode i joins the multi-dimensional set of every combination of values found on it. */
static fs_status
join_combined_sets(builder *b, key_values *kv, uint32_t i, fs_error *err)
{
	size_t k, combos = 0;
	fs_status st;

	memset(kv->odo, 0, sizeof(size_t) * b->nkeys);
	for (;;)
	{
		FS_POLL(combos++);
		for (k = 0; k < b->nkeys; k++)
		{
			kv->pick[k] = kv->vals[k][kv->odo[k]];
			kv->picklen[k] = kv->lens[k][kv->odo[k]];
		}
		st = join_set(b, 0, (int) b->nkeys, kv->pick, kv->picklen, i, err);
		if (st != FS_OK)
			return st;
		for (k = b->nkeys; k-- > 0;)
		{
			if (++kv->odo[k] < kv->counts[k])
				break;
			kv->odo[k] = 0;
		}
		if (k == (size_t) -1)
			return FS_OK;
	}
}

/* The first pass: every vnode joins its flat and multi-dimensional sets. */
static fs_status
form_sets(builder *b, const fs_pset_spec *spec, fs_error *err)
{
	key_values kv;
	uint32_t i;
	fs_status st = FS_OK;

	key_values_init(&kv, spec->nkeys, b->a);
	for (i = 0; i < fs_vpool_count(b->pool) && st == FS_OK; i++)
	{
		bool all;

		FS_POLL(i);
		all = vnode_values(&kv, fs_vpool_vnode(b->pool, i), spec, b->a);
		st = join_flat_sets(b, &kv, i, err);
		if (spec->nkeys >= 2 && all && st == FS_OK)
			st = join_combined_sets(b, &kv, i, err);
		vnode_values_release(&kv, spec->nkeys, b->a);
	}
	key_values_release(&kv, b->a);
	return st;
}

/* The last pass: the order of the sort keys that apply at this time (prime or not). */
static void
order_sets(fs_pset *sets, size_t n, const fs_pset_spec *spec, const fs_allocator *a)
{
	fs_sort_key *active = a->alloc(a->ctx, sizeof(fs_sort_key) * (spec->nsk + 1));
	int *key_of = a->alloc(a->ctx, sizeof(int) * (spec->nsk + 1));
	size_t s, k, nactive = 0;
	order_ctx oc;

	for (s = 0; s < spec->nsk; s++)
	{
		const fs_sort_key *sk = &spec->sk[s];

		if (sk->prime == FS_PRIME_PRIME && !spec->prime_time)
			continue;
		if (sk->prime == FS_PRIME_NON_PRIME && spec->prime_time)
			continue;
		active[nactive] = *sk;
		key_of[nactive] = -1;
		for (k = 0; k < spec->nkeys; k++)
			if (fs_bytes_cmp(spec->keys[k], spec->keylens[k], sk->resource, sk->reslen) == 0)
				key_of[nactive] = (int) k;
		nactive++;
	}
	oc.sk = active;
	oc.nsk = nactive;
	oc.key_of = key_of;
	fs_sort(sets, n, sizeof(fs_pset), pset_cmp, &oc, a);
	a->release(a->ctx, active);
	a->release(a->ctx, key_of);
}

fs_status
fs_placement_sets(fs_vpool *pool, const fs_pset_spec *spec, const fs_allocator *a, fs_pset **out,
                  size_t *n, fs_error *err)
{
	const fs_vpool *view;
	builder b;
	fs_status st = fs_vpool_resolve(pool, &view, err);

	if (st == FS_OK)
		st = check_group_keys(spec, err);
	if (st != FS_OK)
		return st;
	builder_init(&b, view, spec, a);
	/* three passes: the flat and combined sets, their totals, their order */
	st = form_sets(&b, spec, err);
	if (st == FS_OK)
		st = set_totals(view, b.sets, b.nsets, a, err);
	builder_release_index(&b);
	if (st != FS_OK)
	{
		fs_psets_free(b.sets, b.nsets, a);
		return st;
	}
	order_sets(b.sets, b.nsets, spec, a);
	*out = b.sets;
	*n = b.nsets;
	return FS_OK;
}
