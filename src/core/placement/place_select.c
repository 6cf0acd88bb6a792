/*
 * place_select.c: the chunk-by-chunk placement of a job's select spec on the vnodes of a
 * placement set, following OpenPBS's scheduler (src/scheduler/node_info.c: eval_placement,
 * eval_complex_selspec, eval_simple_selspec, resources_avail_on_vnode). Placing costs
 * O((vnodes + chunks) x the term's resources) per term and set tried, plus one pass over the pool
 * (a hash on host names) and one over the spec; memory is in proportion to the spec plus the pool.
 */
#include "placement/placement.h"

#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- placing chunks */

/* What a call keeps across the sets it tries. */
typedef struct fitter
{
	const fs_vpool *view; /* resolved: labels and shared amounts as placement sees them */
	const fs_vpool *raw;  /* as given: which vnodes have jobs (own assigned amounts) */
	const fs_select *sel;
	const fs_place *pl;
	const fs_allocator *a;
	/* the consumable resources of the request (a hash on their names), and each term's
	 * positive amounts: need_r / need_amount [need_at[t], need_at[t + 1]) */
	size_t nres, capres;
	fs_rv_item *res;
	uint32_t *res_hash; /* res index + 1, 0 for empty */
	size_t res_hcap;
	size_t *need_at;
	uint32_t *need_r;
	double *need_amount;
	/* per need entry: the first candidate of the host that may still give some of it when a
	 * chunk is split, valid while cur_epoch[t] == term_epoch[t] */
	size_t *cursor;
	uint64_t *cur_epoch, *term_epoch, epoch;
	/* hosts of the whole pool: a vnode's "host" label, else its own name */
	uint32_t *host;
	const char **hostname;
	size_t *hostnamelen;
	uint32_t nhosts;
	bool multi; /* some host has two or more vnodes: chunks may be split across them */
	bool *busy; /* the vnode has a job: some own assigned amount above 0 */
	bool *host_busy;
	/* per set, sized for the pool once */
	uint32_t *local_stamp, *local_of; /* pool position -> local index, valid when stamped */
	uint32_t *host_stamp, *host_of;   /* host id -> position in the set's host order */
	uint32_t stamp;
	uint32_t *members; /* local index -> pool position: the set's vnodes, then outside holders */
	size_t m, nlocal;
	/* (local index, resource) -> index into free[] (a shared amount: its holder's), for the
	 * resources a vnode has: open addressing, sized for the set's amounts */
	struct slot_entry
	{
		uint32_t l, r, slot;
	} * slots;
	size_t slots_cap;
	double *free;      /* one per amount of a local vnode */
	bool *ok;          /* m: the sharing allows the vnode (excl, exclhost) */
	uint32_t *elig_of; /* m: the term elig[] holds, or UINT32_MAX */
	bool *elig;        /* m: the vnode meets term elig_of's label requirements */
	bool *used;        /* m: a chunk of the job is there (scatter, vscatter) */
	uint32_t *hosts;   /* the set's hosts in order of first vnode */
	size_t nsethosts;
	uint32_t *hstart; /* nsethosts + 1: ranges of hvnodes */
	uint32_t *hvnodes;
	uint32_t *ident; /* 0 .. m-1: every vnode of the set, in order */
	bool now;
	/* the placement being built */
	fs_piece *pieces;
	size_t npieces, cappieces;
	uint32_t *placed, *base; /* per term: chunks placed, chunk number before its first */
	struct undo
	{
		uint32_t slot;
		double amount;
	} * undo;
	size_t nundo, capundo;
	/* a split chunk: what each vnode gives of each resource, and one vnode's items */
	struct gift
	{
		uint32_t i, r;
		double amount;
	} * gifts;
	size_t ngifts, capgifts;
	fs_rv_item *items;
	size_t capitems;
} fitter;

#define NO_SLOT UINT32_MAX

/* The most bytes one array of a placement may take (PostgreSQL allocates at most 1 GB). */
#define FIT_ARRAY_MAX ((size_t) 0x3fffffff)

/* An array of n elements, or a 54000 error naming what it holds when it would be too big. */
static void *
fit_array(const fs_allocator *a, size_t n, size_t size, const char *what, fs_status *st,
          fs_error *err)
{
	if (*st != FS_OK)
		return NULL;
	if (n >= FIT_ARRAY_MAX / size)
	{
		fs_fail(err, FS_ERR_LIMIT, "placement needs too many %s", what);
		fs_error_detail(err, "It needs %zu; at most %zu are allowed.", n, FIT_ARRAY_MAX / size - 1);
		fs_error_hint(err, "Place the job on a smaller pool or with a shorter select spec.");
		*st = FS_ERR_LIMIT;
		return NULL;
	}
	return a->alloc(a->ctx, (n + 1) * size);
}

static bool
vnode_busy(const fs_vnode *v)
{
	fs_rv_iter it;
	fs_rv_item item;

	fs_rv_iter_init(&it, v->assigned);
	while (fs_rv_next(&it, &item))
		if (item.amount > 0)
			return true;
	return false;
}

/* Every vnode's host (ids in order of first appearance), whether it is busy, and whether hosts
 * are shared: one pass with a hash on the host names. */
static fs_status
init_hosts(fitter *f, fs_error *err)
{
	const fs_allocator *a = f->a;
	uint32_t n = fs_vpool_count(f->view), i, nslots = 16, *slots, *count;

	while (nslots < 2 * n)
		nslots *= 2;
	f->host = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	f->hostname = a->alloc(a->ctx, sizeof(char *) * (n + 1));
	f->hostnamelen = a->alloc(a->ctx, sizeof(size_t) * (n + 1));
	f->busy = a->alloc(a->ctx, sizeof(bool) * (n + 1));
	slots = a->alloc(a->ctx, sizeof(uint32_t) * nslots); /* first vnode of the host + 1 */
	memset(slots, 0, sizeof(uint32_t) * nslots);
	count = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
	f->nhosts = 0;
	f->multi = false;
	for (i = 0; i < n; i++)
	{
		const fs_vnode *v = fs_vpool_vnode(f->view, i);
		size_t k, found = 0;
		uint32_t s;

		FS_POLL(i);
		f->hostname[i] = v->name;
		f->hostnamelen[i] = v->namelen;
		for (k = 0; k < v->nlabels; k++)
			if (fs_span_eq(v->labels[k].key, v->labels[k].keylen, "host"))
			{
				f->hostname[i] = v->labels[k].value;
				f->hostnamelen[i] = v->labels[k].valuelen;
				found++;
			}
		if (found > 1)
		{
			char shown[220];

			fs_quote_excerpt(shown, sizeof(shown), v->name, v->namelen, 200);
			fs_fail(err, FS_ERR_VALUE, "vnode \"%s\" has %zu values for \"host\"", shown, found);
			fs_error_detail(err, "A vnode belongs to one host (PBS's resources_available.host).");
			fs_error_hint(err, "Give one value for \"host\".");
			a->release(a->ctx, slots);
			a->release(a->ctx, count);
			return FS_ERR_VALUE;
		}
		f->busy[i] = vnode_busy(fs_vpool_vnode(f->raw, i));
		for (s = (uint32_t) fs_hash(f->hostname[i], f->hostnamelen[i]) & (nslots - 1); slots[s];
		     s = (s + 1) & (nslots - 1))
		{
			uint32_t w = slots[s] - 1;

			if (fs_bytes_cmp(f->hostname[w], f->hostnamelen[w], f->hostname[i],
			                 f->hostnamelen[i]) == 0)
				break;
		}
		if (slots[s] == 0)
		{
			slots[s] = i + 1;
			f->host[i] = f->nhosts;
			count[f->nhosts++] = 1;
		}
		else
		{
			f->host[i] = f->host[slots[s] - 1];
			f->multi = true;
		}
	}
	f->host_busy = a->alloc(a->ctx, sizeof(bool) * (f->nhosts + 1));
	memset(f->host_busy, 0, sizeof(bool) * (f->nhosts + 1));
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if (f->busy[i])
			f->host_busy[f->host[i]] = true;
	}
	a->release(a->ctx, slots);
	a->release(a->ctx, count);
	return FS_OK;
}

/* The index of the request's resource of this name, or SIZE_MAX. */
static size_t
find_res(const fitter *f, const char *name, size_t namelen)
{
	size_t mask = f->res_hcap - 1, h;

	if (f->res_hcap == 0)
		return SIZE_MAX;
	for (h = (size_t) fs_hash(name, namelen) & mask; f->res_hash[h]; h = (h + 1) & mask)
	{
		const fs_rv_item *r = &f->res[f->res_hash[h] - 1];

		if (fs_bytes_cmp(r->name, r->namelen, name, namelen) == 0)
			return f->res_hash[h] - 1;
	}
	return SIZE_MAX;
}

static void
res_hash_put(fitter *f, size_t r)
{
	size_t mask = f->res_hcap - 1, h;

	for (h = (size_t) fs_hash(f->res[r].name, f->res[r].namelen) & mask; f->res_hash[h];
	     h = (h + 1) & mask)
		;
	f->res_hash[h] = (uint32_t) r + 1;
}

/* Add a resource to the union, growing the hash at half load. */
static void
add_res(fitter *f, const fs_rv_item *item)
{
	const fs_allocator *a = f->a;
	size_t r;

	if (f->nres == f->capres)
		f->res = fs_grow(a, f->res, f->nres, &f->capres, sizeof(fs_rv_item));
	f->res[f->nres++] = *item;
	if (2 * f->nres > f->res_hcap)
	{
		if (f->res_hash)
			a->release(a->ctx, f->res_hash);
		f->res_hcap = f->res_hcap ? 2 * f->res_hcap : 64;
		f->res_hash = a->alloc(a->ctx, sizeof(uint32_t) * f->res_hcap);
		memset(f->res_hash, 0, sizeof(uint32_t) * f->res_hcap);
		for (r = 0; r < f->nres; r++)
			res_hash_put(f, r);
	}
	else
		res_hash_put(f, f->nres - 1);
}

/* The union of the terms' consumable resources, and each term's positive amounts. */
static fs_status
init_resources(fitter *f, fs_error *err)
{
	const fs_allocator *a = f->a;
	size_t nterms = f->sel->nterms, t, r, k = 0;
	fs_status st = FS_OK;

	f->nres = 0;
	f->res = NULL;
	for (t = 0; t < nterms; t++)
	{
		fs_rv_iter it;
		fs_rv_item item;

		FS_POLL(t);
		fs_rv_iter_init(&it, f->sel->terms[t].request);
		while (fs_rv_next(&it, &item))
		{
			r = find_res(f, item.name, item.namelen);
			if (r != SIZE_MAX && f->res[r].kind != item.kind)
			{
				fs_rv_kind_mismatch(err, "combine", &f->res[r], &item);
				fs_error_context(err, "while combining two chunks of the select spec");
				return err->status;
			}
			if (r == SIZE_MAX)
				add_res(f, &item);
			if (item.amount > 0)
				k++;
		}
	}
	f->need_at = fit_array(a, nterms + 1, sizeof(size_t), "chunk terms", &st, err);
	f->need_r = fit_array(a, k, sizeof(uint32_t), "chunk amounts", &st, err);
	f->need_amount = fit_array(a, k, sizeof(double), "chunk amounts", &st, err);
	f->cursor = fit_array(a, k, sizeof(size_t), "chunk amounts", &st, err);
	f->cur_epoch = fit_array(a, nterms, sizeof(uint64_t), "chunk terms", &st, err);
	f->term_epoch = fit_array(a, nterms, sizeof(uint64_t), "chunk terms", &st, err);
	if (st != FS_OK)
		return st;
	for (t = 0, k = 0; t < nterms; t++)
	{
		fs_rv_iter it;
		fs_rv_item item;

		FS_POLL(t);
		f->need_at[t] = k;
		f->cur_epoch[t] = f->term_epoch[t] = 0;
		fs_rv_iter_init(&it, f->sel->terms[t].request);
		while (fs_rv_next(&it, &item))
			if (item.amount > 0)
			{
				f->need_r[k] = (uint32_t) find_res(f, item.name, item.namelen);
				f->need_amount[k++] = item.amount;
			}
	}
	f->need_at[nterms] = k;
	f->epoch = 0;
	return FS_OK;
}

/* Does vnode u meet term t's label requirements (host, vnode, booleans, strings)? */
static bool
matches(const fitter *f, const fs_chunk_spec *term, uint32_t u)
{
	const fs_vnode *v = fs_vpool_vnode(f->view, u);
	size_t k, j;

	for (k = 0; k < term->nmatch; k++)
	{
		const fs_match *m = &term->match[k];
		bool ok = false;

		if (fs_span_eq(m->res, m->reslen, "host"))
			ok = fs_bytes_cmp(f->hostname[u], f->hostnamelen[u], m->value, m->valuelen) == 0;
		else if (fs_span_eq(m->res, m->reslen, "vnode"))
			ok = fs_bytes_cmp(v->name, v->namelen, m->value, m->valuelen) == 0;
		else
		{
			bool want_true = m->boolean && fs_span_ieq(m->value, m->valuelen, "true");

			for (j = 0; j < v->nlabels && !ok; j++)
			{
				const fs_label *l = &v->labels[j];

				if (fs_bytes_cmp(l->key, l->keylen, m->res, m->reslen) != 0)
					continue;
				ok = m->boolean ? fs_span_ieq(l->value, l->valuelen, "true")
				                : fs_bytes_cmp(l->value, l->valuelen, m->value, m->valuelen) == 0;
			}
			/* an unset boolean is false (pbs_resources) */
			if (m->boolean && !want_true)
				ok = !ok;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* A vnode's free amount of resource r: available, less assigned when placing now. */
static fs_status
free_amount(const fitter *f, uint32_t u, size_t r, double *out, fs_error *err)
{
	const fs_vnode *v = fs_vpool_vnode(f->view, u);
	fs_rv_item item, used;
	char shown[220];

	*out = 0;
	if (!fs_rv_get(v->avail, f->res[r].name, f->res[r].namelen, &item))
		return FS_OK;
	if (item.kind != f->res[r].kind)
	{
		fs_quote_excerpt(shown, sizeof(shown), v->name, v->namelen, 200);
		fs_rv_kind_mismatch(err, "compare", &f->res[r], &item);
		fs_error_context(err, "while comparing a chunk with vnode \"%s\"", shown);
		return err->status;
	}
	*out = item.amount;
	if (f->now && fs_rv_get(v->assigned, f->res[r].name, f->res[r].namelen, &used))
	{
		if (used.kind != item.kind)
		{
			fs_quote_excerpt(shown, sizeof(shown), v->name, v->namelen, 200);
			fs_rv_kind_mismatch(err, "subtract", &item, &used);
			fs_error_context(
			    err, "while subtracting the assigned from the available amounts of vnode \"%s\"",
			    shown);
			return err->status;
		}
		*out = item.amount > used.amount ? item.amount - used.amount : 0;
	}
	return FS_OK;
}

static uint32_t
local_index(fitter *f, uint32_t u)
{
	if (f->local_stamp[u] == f->stamp)
		return f->local_of[u];
	f->local_stamp[u] = f->stamp;
	f->local_of[u] = (uint32_t) f->nlocal;
	f->members[f->nlocal] = u;
	return (uint32_t) f->nlocal++;
}

static size_t
slot_hash(const fitter *f, uint32_t l, uint32_t r)
{
	uint64_t x = ((uint64_t) l << 32 | r) * UINT64_C(0x9E3779B97F4A7C15);

	x ^= x >> 29;
	x *= UINT64_C(0xBF58476D1CE4E5B9);
	x ^= x >> 32;
	return (size_t) x & (f->slots_cap - 1);
}

/* The index into free[] of local vnode l's amount of resource r, or NO_SLOT when it has none. */
static uint32_t
slot_of(const fitter *f, uint32_t l, uint32_t r)
{
	size_t h;

	for (h = slot_hash(f, l, r); f->slots[h].slot != NO_SLOT; h = (h + 1) & (f->slots_cap - 1))
		if (f->slots[h].l == l && f->slots[h].r == r)
			return f->slots[h].slot;
	return NO_SLOT;
}

static void
slot_put(fitter *f, uint32_t l, uint32_t r, uint32_t slot)
{
	size_t h;

	for (h = slot_hash(f, l, r); f->slots[h].slot != NO_SLOT; h = (h + 1) & (f->slots_cap - 1))
		if (f->slots[h].l == l && f->slots[h].r == r)
			break;
	f->slots[h].l = l;
	f->slots[h].r = r;
	f->slots[h].slot = slot;
}

static int
u32_order(const void *x, const void *y, void *ctx)
{
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

	(void) ctx;
	return (a > b) - (a < b);
}

static int
u64_order(const void *x, const void *y, void *ctx)
{
	uint64_t a = *(const uint64_t *) x, b = *(const uint64_t *) y;

	(void) ctx;
	return (a > b) - (a < b);
}

/* Slots, free amounts, eligibility and host order for the vnodes of one set. */
static fs_status
init_set(fitter *f, const fs_pset *ps, fs_error *err)
{
	const fs_allocator *a = f->a;
	size_t j, l, h, namounts = 0, nshared = 0, cap = 16, k;
	uint32_t *rs = NULL;
	uint64_t *rk = NULL;
	size_t caprs = 0, caprk = 0, nterms = f->sel->nterms, t;
	fs_status st = FS_OK;

	f->stamp++;
	f->m = ps->nvnodes;
	f->nlocal = 0;
	for (j = 0; j < f->m; j++)
		local_index(f, ps->vnodes[j]);
	/* the holders of shared amounts join the local vnodes, vnode by vnode in resource order;
	 * count the slots */
	for (j = 0; j < f->m; j++)
	{
		const fs_vnode *v = fs_vpool_vnode(f->view, ps->vnodes[j]);
		size_t nrk = 0;

		FS_POLL(j);
		for (k = 0; k < v->nindirect; k++)
		{
			size_t r = find_res(f, v->indirect[k].res, v->indirect[k].reslen);

			if (r == SIZE_MAX)
				continue;
			if (nrk == caprk)
				rk = fs_grow(a, rk, nrk, &caprk, sizeof(uint64_t));
			rk[nrk++] = (uint64_t) r << 32 | k;
		}
		fs_sort(rk, nrk, sizeof(uint64_t), u64_order, NULL, a);
		for (k = 0; k < nrk; k++)
			local_index(f, v->targets[rk[k] & UINT32_MAX]);
		nshared += nrk;
	}
	if (rk)
		a->release(a->ctx, rk);
	for (l = 0; l < f->nlocal; l++)
	{
		FS_POLL(l);
		namounts += fs_rv_count(fs_vpool_vnode(f->view, f->members[l])->avail);
	}
	while (cap < 2 * (namounts + nshared))
		cap *= 2;
	f->slots = fit_array(a, cap, sizeof(struct slot_entry), "vnode amounts", &st, err);
	f->free = fit_array(a, namounts, sizeof(double), "vnode amounts", &st, err);
	if (st != FS_OK)
		return st;
	f->slots_cap = cap;
	for (h = 0; h < cap; h++)
		f->slots[h].slot = NO_SLOT;
	/* each local vnode's own amounts of the request's resources, in resource order (the order
	 * in which a kind mismatch is found) */
	for (l = 0, namounts = 0; l < f->nlocal && st == FS_OK; l++)
	{
		const fs_vnode *v = fs_vpool_vnode(f->view, f->members[l]);
		fs_rv_iter it;
		fs_rv_item item;
		size_t nrs = 0;

		FS_POLL(l);
		fs_rv_iter_init(&it, v->avail);
		while (fs_rv_next(&it, &item))
		{
			size_t r = find_res(f, item.name, item.namelen);

			if (r == SIZE_MAX)
				continue;
			if (nrs == caprs)
				rs = fs_grow(a, rs, nrs, &caprs, sizeof(uint32_t));
			rs[nrs++] = (uint32_t) r;
		}
		fs_sort(rs, nrs, sizeof(uint32_t), u32_order, NULL, a);
		for (k = 0; k < nrs && st == FS_OK; k++)
		{
			st = free_amount(f, f->members[l], rs[k], &f->free[namounts], err);
			slot_put(f, (uint32_t) l, rs[k], (uint32_t) namounts++);
		}
	}
	if (rs)
		a->release(a->ctx, rs);
	if (st != FS_OK)
		return st;
	/* a shared amount: the slot of the vnode that holds it */
	for (j = 0; j < f->m; j++)
	{
		const fs_vnode *v = fs_vpool_vnode(f->view, ps->vnodes[j]);

		FS_POLL(j);
		for (k = 0; k < v->nindirect; k++)
		{
			size_t r = find_res(f, v->indirect[k].res, v->indirect[k].reslen);
			uint32_t s;

			if (r == SIZE_MAX)
				continue;
			s = slot_of(f, local_index(f, v->targets[k]), (uint32_t) r);
			if (s != NO_SLOT) /* the holder has the amount: fs_vpool_resolve checks it */
				slot_put(f, (uint32_t) j, (uint32_t) r, s);
		}
	}
	f->ok = fit_array(a, f->m, sizeof(bool), "vnodes", &st, err);
	f->elig = fit_array(a, f->m, sizeof(bool), "vnodes", &st, err);
	f->elig_of = fit_array(a, f->m, sizeof(uint32_t), "vnodes", &st, err);
	f->ident = fit_array(a, f->m, sizeof(uint32_t), "vnodes", &st, err);
	f->used = fit_array(a, f->m, sizeof(bool), "vnodes", &st, err);
	/* hosts in order of their first vnode in the set, each with its vnodes in set order */
	f->hosts = fit_array(a, f->m, sizeof(uint32_t), "vnodes", &st, err);
	f->hstart = fit_array(a, f->m + 1, sizeof(uint32_t), "vnodes", &st, err);
	f->hvnodes = fit_array(a, f->m, sizeof(uint32_t), "vnodes", &st, err);
	if (st != FS_OK)
		return st;
	for (j = 0; j < f->m; j++)
	{
		uint32_t u = ps->vnodes[j];

		FS_POLL(j);
		/* excl: no job there now; exclhost: none on any vnode of the host */
		f->ok[j] = !(f->now && f->pl->sharing == FS_SHARE_EXCL && f->busy[u]) &&
		           !(f->now && f->pl->sharing == FS_SHARE_EXCLHOST && f->host_busy[f->host[u]]);
		f->elig_of[j] = UINT32_MAX;
		f->ident[j] = (uint32_t) j;
		f->used[j] = false;
	}
	f->nsethosts = 0;
	for (j = 0; j < f->m; j++)
	{
		uint32_t hid = f->host[ps->vnodes[j]];

		FS_POLL(j);
		if (f->host_stamp[hid] != f->stamp)
		{
			f->host_stamp[hid] = f->stamp;
			f->host_of[hid] = (uint32_t) f->nsethosts;
			f->hosts[f->nsethosts] = hid;
			f->hstart[f->nsethosts++] = 0;
		}
		f->hstart[f->host_of[hid]]++;
	}
	for (h = 0, l = 0; h < f->nsethosts; h++)
	{
		uint32_t c = f->hstart[h];

		f->hstart[h] = (uint32_t) l;
		l += c;
	}
	f->hstart[f->nsethosts] = (uint32_t) f->m;
	for (j = 0; j < f->m; j++)
	{
		uint32_t hl = f->host_of[f->host[ps->vnodes[j]]];

		FS_POLL(j);
		f->hvnodes[f->hstart[hl]++] = (uint32_t) j;
	}
	for (h = f->nsethosts; h-- > 0;)
		f->hstart[h + 1] = f->hstart[h];
	f->hstart[0] = 0;
	f->npieces = 0;
	f->nundo = 0;
	for (t = 0; t < nterms; t++)
		f->placed[t] = 0;
	return st;
}

static void
free_pieces(fitter *f, size_t from)
{
	while (f->npieces > from)
	{
		FS_POLL(f->npieces);
		f->a->release(f->a->ctx, f->pieces[--f->npieces].amounts);
	}
}

static void
release(const fs_allocator *a, void *p)
{
	if (p)
		a->release(a->ctx, p);
}

static void
end_set(fitter *f)
{
	free_pieces(f, 0);
	release(f->a, f->slots);
	release(f->a, f->free);
	release(f->a, f->ok);
	release(f->a, f->elig);
	release(f->a, f->elig_of);
	release(f->a, f->used);
	release(f->a, f->ident);
	release(f->a, f->hosts);
	release(f->a, f->hstart);
	release(f->a, f->hvnodes);
	f->slots = NULL;
	f->free = NULL;
	f->ok = f->elig = f->used = NULL;
	f->elig_of = f->ident = NULL;
	f->hosts = f->hstart = f->hvnodes = NULL;
}

static void
take(fitter *f, uint32_t slot, double amount)
{
	if (f->nundo == f->capundo)
		f->undo = fs_grow(f->a, f->undo, f->nundo, &f->capundo, sizeof(*f->undo));
	f->undo[f->nundo].slot = slot;
	f->undo[f->nundo++].amount = amount;
	f->free[slot] -= amount;
}

static void
roll_back(fitter *f, size_t to)
{
	while (f->nundo > to)
	{
		f->nundo--;
		f->free[f->undo[f->nundo].slot] += f->undo[f->nundo].amount;
	}
}

static fs_status
add_piece(fitter *f, size_t t, uint32_t j, uint8_t *amounts)
{
	fs_piece *p;

	if (f->npieces == f->cappieces)
		f->pieces = fs_grow(f->a, f->pieces, f->npieces, &f->cappieces, sizeof(fs_piece));
	p = &f->pieces[f->npieces++];
	p->chunk = f->base[t] + f->placed[t] + 1;
	p->vnode = f->members[j];
	p->amounts = amounts;
	return FS_OK;
}

/* Does the set's vnode j take chunks of term t (sharing, label requirements)? Kept per vnode
 * for the last term asked, so memory stays in proportion to the set. */
static bool
eligible(fitter *f, size_t t, uint32_t j)
{
	if (f->elig_of[j] != (uint32_t) t)
	{
		f->elig_of[j] = (uint32_t) t;
		f->elig[j] = f->ok[j] && matches(f, &f->sel->terms[t], f->members[j]);
	}
	return f->elig[j];
}

/* Term t starts on a host: its split cursors go back to the host's first vnode. */
static void
term_start(fitter *f, size_t t)
{
	f->term_epoch[t] = ++f->epoch;
}

static int
gift_order(const void *x, const void *y, void *ctx)
{
	const struct gift *a = x, *b = y;

	(void) ctx;
	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	return (a->r > b->r) - (a->r < b->r);
}

/*
 * One chunk of term t on the vnodes cand[from..n) (local indices, in order): the first that holds
 * it whole; else, when allowed (the vnodes of one host), split across them, each giving what it
 * has of each resource, as PBS's EVAL_OKBREAK does. *at is the vnode it went to (whole), or n
 * once no vnode holds a chunk of the term whole: amounts only shrink while a term is placed, so
 * none will, and the next chunk goes straight to the split.
 */
static fs_status
place_one(fitter *f, size_t t, const uint32_t *cand, size_t n, size_t from, bool split,
          bool skip_used, bool *placed, size_t *at, fs_error *err)
{
	size_t e0 = f->need_at[t], e1 = f->need_at[t + 1], i, e, g, undo_mark;
	uint8_t *amounts;
	size_t len;
	bool short_of = false;
	fs_status st;

	*placed = false;
	for (i = from; i < n; i++)
	{
		uint32_t j = cand[i];
		bool fits = true;

		FS_POLL(i);
		if ((skip_used && f->used[j]) || !eligible(f, t, j))
			continue;
		for (e = e0; e < e1 && fits; e++)
		{
			uint32_t s = slot_of(f, j, f->need_r[e]);

			fits = s != NO_SLOT && f->free[s] >= f->need_amount[e];
		}
		if (!fits)
			continue;
		for (e = e0; e < e1; e++)
			take(f, slot_of(f, j, f->need_r[e]), f->need_amount[e]);
		len = fs_rv_size(f->sel->terms[t].request);
		amounts = f->a->alloc(f->a->ctx, len);
		memcpy(amounts, f->sel->terms[t].request, len);
		add_piece(f, t, j, amounts);
		f->placed[t]++;
		*placed = true;
		*at = i;
		return FS_OK;
	}
	*at = n;
	/* a chunk of no amounts fits whole on any vnode that takes it: none does */
	if (!split || n < 2 || e0 == e1)
		return FS_OK;
	/*
	 * Every vnode of the host may give a part, also those before `from`. What a vnode gives of
	 * one resource does not depend on the others, so each resource is taken on its own, from
	 * the first vnode that may still have some (the cursor: those before it have none left);
	 * the parts are then put together vnode by vnode, as the vnodes are visited in turn.
	 */
	if (f->cur_epoch[t] != f->term_epoch[t])
	{
		for (e = e0; e < e1; e++)
			f->cursor[e] = 0;
		f->cur_epoch[t] = f->term_epoch[t];
	}
	undo_mark = f->nundo;
	f->ngifts = 0;
	for (e = e0; e < e1; e++)
	{
		uint32_t r = f->need_r[e];
		double rem = f->need_amount[e];

		for (i = f->cursor[e]; i < n; i++)
		{
			uint32_t s = slot_of(f, cand[i], r);

			FS_POLL(i);
			if (s != NO_SLOT && f->free[s] > 0 && eligible(f, t, cand[i]))
				break;
		}
		f->cursor[e] = i;
		for (; i < n && rem > 0; i++)
		{
			uint32_t s;
			double give;

			FS_POLL(i);
			if (!eligible(f, t, cand[i]) || (s = slot_of(f, cand[i], r)) == NO_SLOT)
				continue;
			give = rem < f->free[s] ? rem : f->free[s];
			if (give > 0)
			{
				take(f, s, give);
				rem -= give;
				if (f->ngifts == f->capgifts)
					f->gifts = fs_grow(f->a, f->gifts, f->ngifts, &f->capgifts, sizeof(*f->gifts));
				f->gifts[f->ngifts].i = (uint32_t) i;
				f->gifts[f->ngifts].r = r;
				f->gifts[f->ngifts++].amount = give;
			}
		}
		short_of = short_of || rem > 0;
	}
	if (short_of)
	{
		roll_back(f, undo_mark);
		return FS_OK;
	}
	fs_sort(f->gifts, f->ngifts, sizeof(*f->gifts), gift_order, NULL, f->a);
	for (g = 0; g < f->ngifts;)
	{
		size_t k = 0, i0 = f->gifts[g].i;

		FS_POLL(g);
		for (; g < f->ngifts && f->gifts[g].i == i0; g++)
		{
			if (k == f->capitems)
				f->items = fs_grow(f->a, f->items, k, &f->capitems, sizeof(fs_rv_item));
			f->items[k] = f->res[f->gifts[g].r];
			f->items[k++].amount = f->gifts[g].amount;
		}
		st = fs_rv_build(f->items, k, FS_ERR_VALUE, f->a, 0, &amounts, &len, err);
		if (st != FS_OK)
			return st;
		add_piece(f, t, cand[i0], amounts);
	}
	f->placed[t]++;
	*placed = true;
	return FS_OK;
}

/* Vnodes of a single-vnode system: each chunk, in select order, first fit over the set. */
static fs_status
place_chunkwise(fitter *f, bool *ok, fs_error *err)
{
	bool spread =
	    f->pl->arrangement == FS_ARRANGE_SCATTER || f->pl->arrangement == FS_ARRANGE_VSCATTER;
	size_t t, at = 0;
	uint32_t k;

	*ok = true;
	for (t = 0; t < f->sel->nterms && *ok; t++)
	{
		/* first fit: a vnode that did not hold one chunk of the term holds no later one */
		size_t from = 0;

		term_start(f, t);
		for (k = 0; k < f->sel->terms[t].count && *ok; k++)
		{
			fs_status st;

			FS_POLL(k);
			st = place_one(f, t, f->ident, f->m, from, false, spread, ok, &at, err);
			if (st != FS_OK)
				return st;
			if (*ok && spread)
				f->used[f->ident[at]] = true;
			if (*ok)
				from = at;
		}
	}
	return FS_OK;
}

/*
 * Hosts with several vnodes (PBS's eval_placement over host sets), hosts in order of their first
 * vnode in the set. pack: every chunk on one host, chunk by chunk; scatter: at most one chunk per
 * host, the first term that still has chunks and fits; vscatter: per host, as many chunks as fit,
 * each on a vnode of its own; free: per host, as many chunks of each term as fit. Except under
 * vscatter a chunk may be split across the vnodes of its host.
 */
static fs_status
place_hostwise(fitter *f, bool *ok, fs_error *err)
{
	size_t nterms = f->sel->nterms, h, t, at = 0, left = f->sel->total;
	fs_arrangement arr = f->pl->arrangement;
	uint32_t *remaining = f->a->alloc(f->a->ctx, sizeof(uint32_t) * (nterms + 1));
	fs_status st = FS_OK;

	for (t = 0; t < nterms; t++)
		remaining[t] = f->sel->terms[t].count;
	for (h = 0; h < f->nsethosts && left > 0 && st == FS_OK; h++)
	{
		const uint32_t *cand = &f->hvnodes[f->hstart[h]];
		size_t n = f->hstart[h + 1] - f->hstart[h], undo_mark = f->nundo, piece_mark = f->npieces;
		bool placed = true;

		FS_POLL(h);
		if (arr == FS_ARRANGE_PACK)
		{
			/* all or nothing on this host */
			for (t = 0; t < nterms && placed && st == FS_OK; t++)
			{
				uint32_t k;
				size_t from = 0;

				term_start(f, t);
				for (k = 0; k < f->sel->terms[t].count && placed && st == FS_OK; k++)
				{
					FS_POLL(k);
					st = place_one(f, t, cand, n, from, true, false, &placed, &at, err);
					if (placed)
						from = at;
				}
			}
			if (st == FS_OK && placed)
				left = 0;
			else
			{
				roll_back(f, undo_mark);
				free_pieces(f, piece_mark);
				for (t = 0; t < nterms; t++)
					f->placed[t] = 0;
			}
			continue;
		}
		for (t = 0; t < nterms && st == FS_OK; t++)
		{
			size_t from = 0;
			bool put = false;

			term_start(f, t);
			placed = true;
			while (remaining[t] > 0 && placed && st == FS_OK)
			{
				FS_POLL(remaining[t]);
				st = place_one(f, t, cand, n, from, arr != FS_ARRANGE_VSCATTER,
				               arr == FS_ARRANGE_VSCATTER, &placed, &at, err);
				if (!placed || st != FS_OK)
					break;
				put = true;
				remaining[t]--;
				left--;
				if (arr == FS_ARRANGE_VSCATTER)
					f->used[cand[at]] = true;
				from = at;
				if (arr == FS_ARRANGE_SCATTER)
					break;
			}
			if (arr == FS_ARRANGE_SCATTER && put)
				break; /* one chunk per host */
		}
	}
	f->a->release(f->a->ctx, remaining);
	*ok = st == FS_OK && left == 0;
	return st;
}

static int
piece_order(const void *x, const void *y, void *ctx)
{
	const fs_piece *a = x, *b = y;

	(void) ctx;
	return (a->chunk > b->chunk) - (a->chunk < b->chunk);
}

/* Place the job on set ps; *ok tells whether every chunk found room. */
static fs_status
try_set(fitter *f, const fs_pset *ps, bool *ok, fs_error *err)
{
	fs_status st = init_set(f, ps, err);
	bool chunkwise = !f->multi && !(f->pl->arrangement == FS_ARRANGE_PACK && f->sel->total > 1);

	*ok = false;
	if (st == FS_OK)
		st = chunkwise ? place_chunkwise(f, ok, err) : place_hostwise(f, ok, err);
	if (st == FS_OK && *ok)
		fs_sort(f->pieces, f->npieces, sizeof(fs_piece), piece_order, NULL, f->a);
	return st;
}

/* The job's total request (each term's amounts times its count), for the sets' totals, by
 * fs_rv_scale and fs_rv_add term by term: O(terms x resources), used to report an overflow. */
static fs_status
job_total_by_terms(const fs_select *sel, const fs_allocator *a, uint8_t **out, fs_error *err)
{
	uint8_t *acc = NULL, *scaled, *sum;
	size_t t, len;
	fs_status st = fs_rv_parse("", 0, a, 0, &acc, &len, err);

	for (t = 0; t < sel->nterms && st == FS_OK; t++)
	{
		FS_POLL(t);
		st = fs_rv_scale(sel->terms[t].request, (double) sel->terms[t].count, false, a, 0, &scaled,
		                 &len, err);
		if (st != FS_OK)
			break;
		st = fs_rv_add(acc, scaled, 1, a, 0, &sum, &len, err);
		a->release(a->ctx, scaled);
		if (st != FS_OK)
		{
			fs_error_context(err, "while adding up the chunks of the select spec");
			break;
		}
		a->release(a->ctx, acc);
		acc = sum;
	}
	if (st != FS_OK)
	{
		if (acc)
			a->release(a->ctx, acc);
		return st;
	}
	*out = acc;
	return FS_OK;
}

static bool
amount_ok(int kind, double v)
{
	return isfinite(v) && (kind != FS_KIND_DURATION || fabs(v) < FS_RV_DURATION_MAX);
}

/*
 * The same sums, resource by resource in the same order (so the same doubles), in one pass over
 * the terms: O(spec + resources log resources). An amount that overflows is reported by the
 * term-by-term sum, which says which and where.
 */
static fs_status
job_total(fitter *f, uint8_t **out, fs_error *err)
{
	const fs_select *sel = f->sel;
	const fs_allocator *a = f->a;
	fs_rv_item *items;
	bool *seen;
	size_t t, r, len;
	bool overflow = false;
	fs_status st = FS_OK;

	items = fit_array(a, f->nres, sizeof(fs_rv_item), "resources", &st, err);
	seen = fit_array(a, f->nres, sizeof(bool), "resources", &st, err);
	if (st != FS_OK)
	{
		release(a, items);
		return st;
	}
	memset(seen, 0, sizeof(bool) * (f->nres + 1));
	for (t = 0; t < sel->nterms && !overflow; t++)
	{
		fs_rv_iter it;
		fs_rv_item item;

		FS_POLL(t);
		fs_rv_iter_init(&it, sel->terms[t].request);
		while (fs_rv_next(&it, &item) && !overflow)
		{
			double v = item.amount * (double) sel->terms[t].count;

			r = find_res(f, item.name, item.namelen);
			if (!seen[r])
			{
				items[r] = f->res[r];
				items[r].amount = v;
				seen[r] = true;
			}
			else
				items[r].amount += v;
			overflow = !amount_ok(item.kind, v) || !amount_ok(item.kind, items[r].amount);
		}
	}
	if (!overflow)
		st = fs_rv_build(items, f->nres, FS_ERR_VALUE, a, 0, out, &len, err);
	a->release(a->ctx, items);
	a->release(a->ctx, seen);
	return overflow ? job_total_by_terms(sel, a, out, err) : st;
}

static void
fitter_free(fitter *f)
{
	const fs_allocator *a = f->a;
	void *ptrs[] = {f->res,         f->res_hash,  f->need_at,    f->need_r,      f->need_amount,
	                f->cursor,      f->cur_epoch, f->term_epoch, f->host,        f->hostname,
	                f->hostnamelen, f->busy,      f->host_busy,  f->local_stamp, f->local_of,
	                f->host_stamp,  f->host_of,   f->members,    f->placed,      f->base,
	                f->undo,        f->pieces,    f->gifts,      f->items};
	size_t i;

	for (i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
		if (ptrs[i])
			a->release(a->ctx, ptrs[i]);
}

fs_status
fs_place_select(fs_vpool *pool, const fs_pset_spec *spec, const fs_select *sel, const fs_place *pl,
                const fs_allocator *a, fs_chunk_placement *out, fs_error *err)
{
	fitter f;
	const char *group = pl->group;
	fs_pset_spec by_group = *spec;
	uint32_t n, t;
	uint8_t *total = NULL;
	size_t pass, s;
	fs_status st;

	memset(out, 0, sizeof(*out));
	out->set = SIZE_MAX;
	memset(&f, 0, sizeof(f));
	st = fs_vpool_resolve(pool, &f.view, err);
	if (st != FS_OK)
		return st;
	out->resolved = f.view;
	/* group=<resource> forms the sets from that resource alone; no keys: one set of all vnodes */
	by_group.keys = &group;
	by_group.keylens = &pl->grouplen;
	by_group.nkeys = 1;
	if (pl->grouplen > 0)
		st = fs_placement_sets(pool, &by_group, a, &out->sets, &out->nsets, err);
	else if (spec->nkeys == 0)
		st = fs_vpool_all_set(pool, a, &out->sets, &out->nsets, err);
	else
		st = fs_placement_sets(pool, spec, a, &out->sets, &out->nsets, err);
	if (st != FS_OK)
		return st;
	f.raw = pool;
	f.sel = sel;
	f.pl = pl;
	f.a = a;
	n = fs_vpool_count(f.view);
	st = init_resources(&f, err);
	if (st == FS_OK)
		st = init_hosts(&f, err);
	if (st == FS_OK)
		st = job_total(&f, &total, err);
	if (st != FS_OK)
	{
		fitter_free(&f);
		fs_chunk_placement_free(out, a);
		return st;
	}
	f.local_stamp = fit_array(a, n, sizeof(uint32_t), "vnodes", &st, err);
	f.local_of = fit_array(a, n, sizeof(uint32_t), "vnodes", &st, err);
	f.host_stamp = fit_array(a, f.nhosts, sizeof(uint32_t), "hosts", &st, err);
	f.host_of = fit_array(a, f.nhosts, sizeof(uint32_t), "hosts", &st, err);
	f.members = fit_array(a, n, sizeof(uint32_t), "vnodes", &st, err);
	f.placed = fit_array(a, sel->nterms, sizeof(uint32_t), "chunk terms", &st, err);
	f.base = fit_array(a, sel->nterms, sizeof(uint32_t), "chunk terms", &st, err);
	if (st != FS_OK)
	{
		a->release(a->ctx, total);
		fitter_free(&f);
		fs_chunk_placement_free(out, a);
		return st;
	}
	memset(f.local_stamp, 0, sizeof(uint32_t) * (n + 1));
	memset(f.host_stamp, 0, sizeof(uint32_t) * (f.nhosts + 1));
	for (t = 0, f.base[0] = 0; t + 1 < sel->nterms; t++)
		f.base[t + 1] = f.base[t] + sel->terms[t].count;
	/* now on the free amounts; else as if every vnode of the set were free */
	for (pass = 0; pass < 2 && st == FS_OK && out->set == SIZE_MAX; pass++)
	{
		f.now = pass == 0;
		for (s = 0; s < out->nsets && st == FS_OK && out->set == SIZE_MAX; s++)
		{
			bool fits, ok;

			FS_POLL(s);
			/* the set's totals must hold the job (PBS's resresv_can_fit_nodepart) */
			st = fs_rv_fits(total, f.now ? out->sets[s].unused : out->sets[s].total, &fits, err);
			if (st != FS_OK)
			{
				char shown[220];

				fs_quote_excerpt(shown, sizeof(shown), out->sets[s].name, out->sets[s].namelen,
				                 200);
				fs_error_context(err, "while comparing the select spec with placement set \"%s\"",
				                 shown);
			}
			if (st != FS_OK || !fits)
				continue;
			st = try_set(&f, &out->sets[s], &ok, err);
			if (st == FS_OK && ok)
			{
				out->set = s;
				out->now = f.now;
				out->pieces = f.pieces;
				out->npieces = f.npieces;
				f.pieces = NULL;
				f.npieces = 0;
				f.cappieces = 0;
			}
			end_set(&f);
		}
	}
	a->release(a->ctx, total);
	fitter_free(&f);
	if (st != FS_OK)
	{
		fs_chunk_placement_free(out, a);
		return st;
	}
	return FS_OK;
}

void
fs_chunk_placement_free(fs_chunk_placement *cp, const fs_allocator *a)
{
	size_t i;

	for (i = 0; i < cp->npieces; i++)
	{
		FS_POLL(i);
		a->release(a->ctx, cp->pieces[i].amounts);
	}
	if (cp->pieces)
		a->release(a->ctx, cp->pieces);
	if (cp->sets)
		fs_psets_free(cp->sets, cp->nsets, a);
	memset(cp, 0, sizeof(*cp));
	cp->set = SIZE_MAX;
}
