/*
 * indirect.c: PBS indirect resources ("res=@vnode"): every pointer checked (the target exists,
 * holds the resource, is not itself indirect) and a resolved pool in which each vnode shows the
 * amounts it points at. O(n log n): a binary search per pointer.
 */
#include "placement/vpool_int.h"

#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		        fs_vpool_show(v->name, v->namelen).s, fs_vpool_show(what, whatlen).s,
		        fs_vpool_show(tname, tlen).s);
		fs_error_hint(err, "Add vnode \"%s\" to the pool, or name a vnode of the pool after \"@\".",
		              fs_vpool_show(tname, tlen).s);
		return FS_ERR_VALUE;
	}
	if (*t == from)
	{
		fs_fail(err, FS_ERR_VALUE, "vnode \"%s\" takes \"%s\" from itself",
		        fs_vpool_show(v->name, v->namelen).s, fs_vpool_show(what, whatlen).s);
		fs_error_detail(err, "PBS refuses an indirect value that names its own vnode.");
		fs_error_hint(err, "Give the value of \"%s\" on vnode \"%s\" itself.",
		              fs_vpool_show(what, whatlen).s, fs_vpool_show(v->name, v->namelen).s);
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
	        fs_vpool_show(v->name, v->namelen).s, fs_vpool_show(what, whatlen).s,
	        fs_vpool_show(tv->name, tv->namelen).s, fs_vpool_show(next + 1, nextlen - 1).s);
	fs_error_detail(err, "PBS allows one level of indirection: the vnode after \"@\" must hold the "
	                     "value itself.");
	fs_error_hint(err, "Write \"@%s\" on vnode \"%s\" instead.",
	              fs_vpool_show(next + 1, nextlen - 1).s, fs_vpool_show(v->name, v->namelen).s);
	return FS_ERR_VALUE;
}

static fs_status
lacking(const fs_vpool *p, uint32_t from, uint32_t t, const char *what, size_t whatlen,
        fs_error *err)
{
	const fs_vnode *v = &p->v[from], *tv = &p->v[t];

	fs_fail(err, FS_ERR_VALUE, "vnode \"%s\" takes \"%s\" from vnode \"%s\", which has no \"%s\"",
	        fs_vpool_show(v->name, v->namelen).s, fs_vpool_show(what, whatlen).s,
	        fs_vpool_show(tv->name, tv->namelen).s, fs_vpool_show(what, whatlen).s);
	fs_error_hint(err, "Set \"%s\" on vnode \"%s\", or drop the \"@%s\".",
	              fs_vpool_show(what, whatlen).s, fs_vpool_show(tv->name, tv->namelen).s,
	              fs_vpool_show(tv->name, tv->namelen).s);
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
		                 fs_vpool_show(v->name, v->namelen).s);
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
			        fs_vpool_show(v->labels[k].key, v->labels[k].keylen).s,
			        fs_vpool_show(v->name, v->namelen).s,
			        fs_vpool_show(v->labels[pointing].value, v->labels[pointing].valuelen).s);
			fs_error_detail(err, "A value that names another vnode stands for all of that vnode's "
			                     "values for the key.");
			fs_error_hint(err, "Give \"%s\" alone, or list the values themselves.",
			              fs_vpool_show(v->labels[pointing].value, v->labels[pointing].valuelen).s);
			st = FS_ERR_VALUE;
		}
		else if (pointing != SIZE_MAX && v->labels[pointing].valuelen == 1)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "label \"%s\" of vnode \"%s\" has \"@\" without a vnode name",
			        fs_vpool_show(v->labels[k].key, v->labels[k].keylen).s,
			        fs_vpool_show(v->name, v->namelen).s);
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
