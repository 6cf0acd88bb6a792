/*
 * psets.c: PBS placement sets (node_group_key) and node_group_sort_key: the sets of a pool, with
 * their totals, assigned and unused resources, in PBS's order, and place()'s first-fit rule.
 * Building the sets is linear in the vnodes' label combinations (a hash on each set's identity);
 * ordering them is O(s log s) for s sets.
 */
#include "placement/vpool_int.h"

#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Double the room for sets, and rehash every set identity into the doubled index (O(sets)). */
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
				                 fs_vpool_show(v->name, v->namelen).s);
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
		fs_error_context(err, "in placement set \"%s\"", fs_vpool_show(ps->name, ps->namelen).s);
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

/*
 * PBS's order of placement sets: more dimensions first, then each node_group_sort_key in turn (a
 * label value, or an amount of the total, assigned or unused resources; a set without one goes
 * after), then the key the set was formed by, then its name.
 */
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
	if (st == FS_OK && fs_vpool_has_indirect(pool))
	{
		marks = a->alloc(a->ctx, sizeof(uint32_t) * (n + 1));
		memset(marks, 0, sizeof(uint32_t) * (n + 1));
	}
	for (s = 0; s < nsets; s++)
	{
		fs_pset *ps = &sets[s];

		fs_check_interrupts();
		ps->total = fs_vpool_copy_rv(a, NULL);
		ps->assigned = fs_vpool_copy_rv(a, NULL);
		ps->unused = fs_vpool_copy_rv(a, NULL);
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

/* At least one group key, at most FS_PSET_KEYS_MAX, each once (pairwise: at most 32 keys). */
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
