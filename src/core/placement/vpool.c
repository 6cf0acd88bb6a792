/*
 * vpool.c: vnode pools: building one vnode by vnode (available and assigned resources, labels,
 * indirect "@vnode" resources), merging pools, the vnode order and lookup by name, and available
 * resources as text. Adding is O(1) amortised per vnode; preparing sorts the vnodes, O(n log n).
 */
#include "placement/vpool_int.h"

#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 1024

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

int
fs_vpool_label_cmp(const void *x, const void *y)
{
	const fs_label *a = x, *b = y;
	int c = fs_bytes_cmp(a->key, a->keylen, b->key, b->keylen);

	return c != 0 ? c : fs_bytes_cmp(a->value, a->valuelen, b->value, b->valuelen);
}

uint8_t *
fs_vpool_copy_rv(const fs_allocator *a, const uint8_t *rv)
{
	size_t len = fs_rv_size(rv ? rv : empty_rv);
	uint8_t *out = a->alloc(a->ctx, len);

	memcpy(out, rv ? rv : empty_rv, len);
	return out;
}

shown_name
fs_vpool_show(const char *s, size_t len)
{
	shown_name out;

	fs_quote_excerpt(out.s, sizeof(out.s), s, len, 200);
	return out;
}

bool
fs_vpool_target_ok(const uint8_t *s, size_t len)
{
	return len > 0 && len <= NAME_MAX_LEN && memchr(s, ',', len) == NULL &&
	       memchr(s, '\0', len) == NULL && !fs_is_space((char) s[0]) &&
	       !fs_is_space((char) s[len - 1]);
}

int
fs_vpool_indirect_cmp(const void *x, const void *y)
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
			                 fs_vpool_show(vnode, vnodelen).s);
			return st;
		}
		if (!fs_vpool_target_ok((const uint8_t *) ind[i].vnode, ind[i].vnodelen))
		{
			fs_fail(err, FS_ERR_VALUE,
			        "indirect resource \"%s\" of vnode \"%s\" does not name a vnode after \"@\"",
			        fs_vpool_show(ind[i].res, ind[i].reslen).s, fs_vpool_show(vnode, vnodelen).s);
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
			        fs_vpool_show(ind[i].res, ind[i].reslen).s, fs_vpool_show(vnode, vnodelen).s,
			        fs_vpool_show(ind[i].vnode, ind[i].vnodelen).s);
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
	qsort(copy, n, sizeof(fs_indirect), fs_vpool_indirect_cmp);
	for (i = 1; i < n; i++)
		if (fs_vpool_indirect_cmp(&copy[i - 1], &copy[i]) == 0)
		{
			fs_fail(err, FS_ERR_VALUE, "indirect resource \"%s\" of vnode \"%s\" is given twice",
			        fs_vpool_show(copy[i].res, copy[i].reslen).s, fs_vpool_show(vnode, vnodelen).s);
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
	v->avail = fs_vpool_copy_rv(&p->a, avail);
	v->assigned = fs_vpool_copy_rv(&p->a, assigned);
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
	qsort(copy, k, sizeof(fs_label), fs_vpool_label_cmp);
	v->nlabels = 0;
	for (i = 0; i < k; i++)
		if (v->nlabels == 0 || fs_vpool_label_cmp(&copy[v->nlabels - 1], &copy[i]) != 0)
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

bool
fs_vpool_has_indirect(const fs_vpool *p)
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
