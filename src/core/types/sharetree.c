/*
 * sharetree.c: share and pool trees. Rows are merged into nodes found through an open-addressing
 * hash on the path (O(1) per row when the node exists); missing ancestors are created on the way.
 * fs_tree_prepare sorts the nodes into pre-order (O(n log n), again only after a node is added)
 * and rolls usage up (O(n)). A tree read from its flat form is laid out in pre-order as it comes
 * (O(n), no sort) and gets its hash only when something looks a path up (adding a row, merging).
 * A node costs sizeof(fs_tnode) = 72 bytes, its path bytes, and 16 to 32 bytes of hash slots
 * (each holds its node's hash, so that a probe reads a node only on a match). Each node stores
 * its full path, so the node paths of a tree may total at most FS_TREE_PATH_BYTES_MAX. The
 * tree's text, flat and binary forms are in sharetree_forms.c.
 */
#include "types/sharetree_int.h"

#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- memory */

static void
t_free(fs_tree *t, void *p)
{
	if (p)
		t->a.release(t->a.ctx, p);
}

/* Drop what prepare built (totals, order, level sums) so that rows can be added again. */
static void
unprepare(fs_tree *t)
{
	uint32_t i;
	int w;

	if (!t->prepared)
		return;
	for (w = 0; w < 2; w++)
	{
		if (t->total_vec[w])
		{
			for (i = 0; i < t->n; i++)
				t_free(t, t->total_vec[w][i]);
			t_free(t, t->total_vec[w]);
			t->total_vec[w] = NULL;
		}
	}
	t_free(t, t->leaf);
	t_free(t, t->total);
	t->leaf = NULL;
	t->total = NULL;
	t->prepared = false;
}

/*
 * The pre-order stays valid while no node is added: rows that only add usage to existing nodes
 * (a running tree over days) do not sort the tree again.
 */
static void
forget_order(fs_tree *t)
{
	t_free(t, t->order);
	t_free(t, t->position);
	t->order = t->position = NULL;
}

/* ---------------------------------------------------------------- hashing */

/* The label bytes alone identify a path (they hold the lengths); the hash is keyed (fs_hash). */
static uint32_t
key_hash(const uint8_t *key, size_t len)
{
	return (uint32_t) fs_hash(key, len);
}

/* The slots hold each node's hash next to its index: a probe reads a node only on a match. */
static int64_t
lookup(const fs_tree *t, const uint8_t *key, size_t len, uint32_t h)
{
	uint32_t mask = t->nslots - 1;
	uint32_t s = h & mask;

	for (;;)
	{
		uint64_t v = t->slots[s];
		const fs_tnode *nd;

		if (v == 0)
			return -1;
		if ((uint32_t) (v >> 32) == h)
		{
			nd = &t->nodes[(uint32_t) v - 1];
			if (nd->pathlen - 2 == len && memcmp(nd->path + 2, key, len) == 0)
				return (uint32_t) v - 1;
		}
		s = (s + 1) & mask;
	}
}

static void
slots_insert(uint64_t *slots, uint32_t nslots, uint32_t h, uint32_t idx)
{
	uint32_t s = h & (nslots - 1);

	while (slots[s] != 0)
		s = (s + 1) & (nslots - 1);
	slots[s] = (uint64_t) h << 32 | (idx + 1);
}

/* Room for one more node, and the path hash kept at most half full. */
static void
grow(fs_tree *t)
{
	if (t->n == t->cap)
	{
		uint32_t cap = t->cap * 2;
		fs_tnode *nodes = fs_tree_raw_alloc(t, sizeof(fs_tnode) * cap);

		memcpy(nodes, t->nodes, sizeof(fs_tnode) * t->n);
		t_free(t, t->nodes);
		t->nodes = nodes;
		t->cap = cap;
	}
	if (t->slots != NULL && (size_t) (t->n + 1) * 2 > t->nslots)
	{
		uint32_t nslots = t->nslots * 2;
		uint64_t *slots = fs_tree_raw_alloc(t, sizeof(uint64_t) * nslots);
		uint32_t i;

		memset(slots, 0, sizeof(uint64_t) * nslots);
		for (i = 0; i < t->n; i++)
			slots_insert(slots, nslots, t->nodes[i].hash, i);
		t_free(t, t->slots);
		t->slots = slots;
		t->nslots = nslots;
	}
}

/* A node for the first `labels` labels of path (pathlen bytes encoded), hashed h. */
static uint32_t
new_node(fs_tree *t, const uint8_t *path, uint32_t labels, size_t pathlen, uint32_t h,
         int32_t parent)
{
	fs_tnode *nd;
	uint16_t count = (uint16_t) labels;
	uint8_t *p;

	grow(t);
	nd = &t->nodes[t->n];
	memset(nd, 0, sizeof(*nd));
	/* the prefix path: a new count, then the first labels' bytes */
	p = fs_tree_arena_copy(t, path, pathlen);
	memcpy(p, &count, sizeof(count));
	nd->path = p;
	nd->pathlen = (uint32_t) pathlen;
	t->path_bytes += pathlen;
	nd->hash = h;
	nd->parent = parent;
	slots_insert(t->slots, t->nslots, h, t->n);
	t->preordered = false;
	forget_order(t);
	return t->n++;
}

/* The hash on the paths, built on the first lookup (a tree read from its flat form has none). */
static void
ensure_hash(fs_tree *t)
{
	uint32_t nslots = 32;
	uint32_t i;

	if (t->slots != NULL)
		return;
	while ((size_t) t->n * 2 > nslots)
		nslots *= 2;
	t->slots = fs_tree_raw_alloc(t, sizeof(uint64_t) * nslots);
	memset(t->slots, 0, sizeof(uint64_t) * nslots);
	t->nslots = nslots;
	for (i = 0; i < t->n; i++)
	{
		fs_tnode *nd = &t->nodes[i];

		FS_POLL(i);
		nd->hash = key_hash(nd->path + 2, nd->pathlen - 2);
		slots_insert(t->slots, nslots, nd->hash, i);
	}
}

static fs_status
too_large(fs_error *err, const uint8_t *path, size_t total)
{
	fs_fail(err, FS_ERR_LIMIT, "sharetree exceeds the limit of %d bytes of node paths",
	        FS_TREE_PATH_BYTES_MAX);
	fs_error_detail(err,
	                "Every node stores its full path; a path of %u %s (%zu bytes) and its "
	                "missing ancestors would bring the total to %zu bytes.",
	                fs_sp_nlevel(path), fs_plural(fs_sp_nlevel(path), "label", "labels"),
	                fs_sp_size(path), total);
	fs_error_hint(err, "Use shorter labels or fewer levels.");
	return FS_ERR_LIMIT;
}

/* The node for `path`, created with its missing ancestors (within FS_TREE_PATH_BYTES_MAX). */
static fs_status
find_or_create(fs_tree *t, const uint8_t *path, uint32_t *idx, fs_error *err)
{
	size_t need = 0;
	uint32_t ends[FS_SP_DEPTH_MAX + 1];
	uint32_t hashes[FS_SP_DEPTH_MAX + 1]; /* of each prefix looked up, for its new node */
	uint32_t n = fs_sp_nlevel(path);
	uint32_t k, i;
	size_t off = 2;
	int64_t found;

	ensure_hash(t);
	ends[0] = 2;
	for (i = 1; i <= n; i++)
	{
		off += 1 + path[off];
		ends[i] = (uint32_t) off;
	}
	hashes[n] = key_hash(path + 2, ends[n] - 2);
	found = lookup(t, path + 2, ends[n] - 2, hashes[n]);
	if (found >= 0)
	{
		*idx = (uint32_t) found;
		return FS_OK;
	}
	/* the deepest ancestor that exists (the root always does) */
	for (k = n; k-- > 0;)
	{
		hashes[k] = key_hash(path + 2, ends[k] - 2);
		found = lookup(t, path + 2, ends[k] - 2, hashes[k]);
		if (found >= 0)
			break;
	}
	for (i = k + 1; i <= n; i++)
		need += ends[i];
	if (need > (size_t) FS_TREE_PATH_BYTES_MAX - t->path_bytes)
		return too_large(err, path, t->path_bytes + need);
	for (i = k + 1; i <= n; i++)
		found = new_node(t, path, i, ends[i], hashes[i], (int32_t) found);
	*idx = (uint32_t) found;
	return FS_OK;
}

/* An empty tree (not even a root) with room for cap nodes and no hash. */
fs_tree *
fs_tree_alloc_empty(const fs_allocator *a, fs_tree_kind kind, uint32_t cap)
{
	fs_tree *t = a->alloc(a->ctx, sizeof(fs_tree));

	memset(t, 0, sizeof(*t));
	t->a = *a;
	t->kind = kind;
	t->cap = cap;
	t->nodes = fs_tree_raw_alloc(t, sizeof(fs_tnode) * cap);
	return t;
}

fs_tree *
fs_tree_new(const fs_allocator *a, fs_tree_kind kind)
{
	fs_tree *t = fs_tree_alloc_empty(a, kind, 16);
	static const uint8_t root[2] = {0, 0};

	ensure_hash(t);
	new_node(t, root, 0, 2, key_hash(root + 2, 0), -1);
	return t;
}

void
fs_tree_free(fs_tree *t)
{
	uint32_t i;
	arena_chunk *c = t->arena;

	unprepare(t);
	forget_order(t);
	for (i = 0; i < t->n; i++)
	{
		t_free(t, t->nodes[i].usage_vec);
		t_free(t, t->nodes[i].demand_vec);
	}
	while (c)
	{
		arena_chunk *next = c->next;

		t_free(t, c);
		c = next;
	}
	t_free(t, t->nodes);
	t_free(t, t->slots);
	t->a.release(t->a.ctx, t);
}

fs_tree_kind
fs_tree_get_kind(const fs_tree *t)
{
	return t->kind;
}

size_t
fs_tree_memory(const fs_tree *t)
{
	return sizeof(fs_tree) + sizeof(fs_tnode) * t->cap + sizeof(uint64_t) * t->nslots +
	       t->arena_bytes;
}

/* ---------------------------------------------------------------- merging rows */

static fs_status
bad_number(fs_error *err, const uint8_t *path, const char *what, double v)
{
	fs_path_text p;

	if (!isfinite(v))
		fs_fail(err, FS_ERR_RANGE, "%s of node \"%s\" is not finite", what, fs_sp_text(path, &p));
	else
		fs_fail(err, FS_ERR_VALUE, "%s of node \"%s\" is negative: %g", what, fs_sp_text(path, &p),
		        v);
	fs_error_hint(err, "Shares, weights, ratios and usage must be finite and not negative.");
	return err->status;
}

static fs_status
conflict(fs_error *err, const uint8_t *path, const char *what, const char *old, const char *new)
{
	fs_path_text p;

	fs_fail(err, FS_ERR_VALUE, "conflicting %s for node \"%s\": %s and %s", what,
	        fs_sp_text(path, &p), old, new);
	fs_error_hint(err, "Give each node's %s once, or the same value on every row.", what);
	return FS_ERR_VALUE;
}

static fs_status
merge_value(fs_tnode *nd, uint32_t flag, double *slot, double v, const char *what, fs_error *err)
{
	char a[FS_DOUBLE_BUFLEN], b[FS_DOUBLE_BUFLEN];

	if ((nd->flags & flag) && *slot != v)
	{
		fs_format_double(*slot, a);
		fs_format_double(v, b);
		return conflict(err, nd->path, what, a, b);
	}
	nd->flags |= flag;
	*slot = v;
	return FS_OK;
}

fs_status
fs_tree_add_vec(fs_tree *t, uint8_t **slot, const uint8_t *v, const char *what, const uint8_t *path,
                fs_error *err)
{
	uint8_t *sum;
	size_t len;
	fs_status st;

	if (v == NULL || fs_rv_count(v) == 0) /* an empty vector states nothing (text prints {}) */
		return FS_OK;
	if (*slot == NULL)
	{
		*slot = fs_tree_raw_alloc(t, fs_rv_size(v));
		memcpy(*slot, v, fs_rv_size(v));
		return FS_OK;
	}
	st = fs_rv_add(*slot, v, 1, &t->a, 0, &sum, &len, err);
	if (st != FS_OK)
	{
		fs_path_text p;

		fs_error_context(err, "in the %s of node \"%s\"", what, fs_sp_text(path, &p));
		return st;
	}
	t_free(t, *slot);
	*slot = sum;
	return FS_OK;
}

static bool
vec_negative(const uint8_t *v, const char **name, size_t *namelen)
{
	fs_rv_iter it;
	fs_rv_item item;

	if (v == NULL)
		return false;
	fs_rv_iter_init(&it, v);
	while (fs_rv_next(&it, &item))
	{
		if (item.amount < 0)
		{
			*name = item.name;
			*namelen = item.namelen;
			return true;
		}
	}
	return false;
}

fs_status
fs_tree_check_row(const fs_tree *t, const fs_tree_row *r, fs_error *err)
{
	const char *name;
	size_t namelen;
	int w;

	if (!isfinite(r->usage) || r->usage < 0)
		return bad_number(err, r->path, "usage", r->usage);
	if (r->has_shares && (!isfinite(r->shares) || r->shares < 0))
		return bad_number(err, r->path, t->kind == FS_TREE_POOL ? "weight" : "shares", r->shares);
	if (r->has_min && (!isfinite(r->min_share) || r->min_share < 0))
		return bad_number(err, r->path, "min_share_ratio", r->min_share);
	if (r->has_max && (!isfinite(r->max_share) || r->max_share < 0))
		return bad_number(err, r->path, "max_share_ratio", r->max_share);
	for (w = 0; w < 2; w++)
	{
		if (vec_negative(w ? r->demand_vec : r->usage_vec, &name, &namelen))
		{
			fs_path_text p;

			fs_fail(err, FS_ERR_VALUE, "%s of node \"%s\" has a negative amount of \"%.*s\"",
			        w ? "demand" : "usage", fs_sp_text(r->path, &p), (int) namelen, name);
			fs_error_hint(err, "Usage and demand vectors must not be negative.");
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

fs_status
fs_tree_add(fs_tree *t, const fs_tree_row *r, fs_error *err)
{
	fs_tnode *nd;
	uint32_t idx;
	fs_status st = fs_tree_check_row(t, r, err);

	if (st != FS_OK)
		return st;
	unprepare(t);
	st = find_or_create(t, r->path, &idx, err); /* may move t->nodes: read it only afterwards */
	if (st != FS_OK)
		return st;
	nd = &t->nodes[idx];
	if (r->usage != 0) /* also skips -0: stored zeros are +0 */
	{
		double u = nd->usage + r->usage;

		if (!isfinite(u))
		{
			fs_path_text p;

			fs_fail(err, FS_ERR_RANGE, "value out of range: usage of node \"%s\" overflows",
			        fs_sp_text(r->path, &p));
			return FS_ERR_RANGE;
		}
		nd->usage = u;
	}
	if (r->from_parent)
	{
		if ((nd->flags & FS_TN_DECLARED) && !(nd->flags & FS_TN_PARENT))
		{
			char a[FS_DOUBLE_BUFLEN];

			fs_format_double(nd->shares, a);
			return conflict(err, nd->path, "shares", a, "parent");
		}
		nd->flags |= FS_TN_DECLARED | FS_TN_PARENT;
		nd->shares = 0;
	}
	else if (r->has_shares)
	{
		if (nd->flags & FS_TN_PARENT)
		{
			char b[FS_DOUBLE_BUFLEN];

			fs_format_double(r->shares, b);
			return conflict(err, nd->path, "shares", "parent", b);
		}
		st = merge_value(nd, FS_TN_DECLARED, &nd->shares, r->shares + 0.0,
		                 t->kind == FS_TREE_POOL ? "weight" : "shares", err);
	}
	if (st == FS_OK && r->has_min)
		st = merge_value(nd, FS_TN_HAS_MIN, &nd->min_share, r->min_share + 0.0, "min_share_ratio",
		                 err);
	if (st == FS_OK && r->has_max)
		st = merge_value(nd, FS_TN_HAS_MAX, &nd->max_share, r->max_share + 0.0, "max_share_ratio",
		                 err);
	if (st == FS_OK)
		st = fs_tree_add_vec(t, &nd->usage_vec, r->usage_vec, "usage", nd->path, err);
	if (st == FS_OK)
		st = fs_tree_add_vec(t, &nd->demand_vec, r->demand_vec, "demand", nd->path, err);
	return st;
}

static void
node_row(const fs_tnode *nd, fs_tree_row *r)
{
	r->path = nd->path;
	r->from_parent = (nd->flags & FS_TN_PARENT) != 0;
	r->has_shares = (nd->flags & FS_TN_DECLARED) && !r->from_parent;
	r->shares = nd->shares;
	r->usage = nd->usage;
	r->has_min = (nd->flags & FS_TN_HAS_MIN) != 0;
	r->min_share = nd->min_share;
	r->has_max = (nd->flags & FS_TN_HAS_MAX) != 0;
	r->max_share = nd->max_share;
	r->usage_vec = nd->usage_vec;
	r->demand_vec = nd->demand_vec;
}

static const char *
kind_name(fs_tree_kind k)
{
	return k == FS_TREE_POOL ? "pool tree" : "share tree";
}

fs_status
fs_tree_merge(fs_tree *dst, const fs_tree *src, fs_error *err)
{
	uint32_t i;

	if (dst->kind != src->kind)
	{
		fs_fail(err, FS_ERR_VALUE, "cannot merge a %s with a %s", kind_name(dst->kind),
		        kind_name(src->kind));
		fs_error_hint(err, "Merge trees built by the same aggregate (share_tree or pool_tree).");
		return FS_ERR_VALUE;
	}
	/* in src's creation order, so that parents exist before their children */
	for (i = 0; i < src->n; i++)
	{
		fs_tree_row r;
		fs_status st;

		FS_POLL(i);
		node_row(&src->nodes[i], &r);
		st = fs_tree_add(dst, &r, err);
		if (st != FS_OK)
			return st;
	}
	return FS_OK;
}

/* ---------------------------------------------------------------- pre-order and rollups */

static int
node_ptr_cmp(const void *x, const void *y, void *ctx)
{
	const fs_tnode *a = *(const fs_tnode *const *) x;
	const fs_tnode *b = *(const fs_tnode *const *) y;

	(void) ctx;
	return fs_sp_cmp(a->path, b->path);
}

/* the node at pre-order position i, and the position of node index idx */
static inline uint32_t
index_at(const fs_tree *t, uint32_t i)
{
	return t->order ? t->order[i] : i;
}

static inline uint32_t
position_of(const fs_tree *t, uint32_t idx)
{
	return t->position ? t->position[idx] : idx;
}

/* order and position for nodes that may not be stored in pre-order */
static void
sort_into_preorder(fs_tree *t)
{
	const fs_tnode **sorted;
	uint32_t i;

	/* rows that came in path order made the nodes in pre-order: check in O(n) before sorting */
	for (i = 1; i < t->n; i++)
	{
		FS_POLL(i);
		if (fs_sp_cmp(t->nodes[i - 1].path, t->nodes[i].path) >= 0)
			break;
	}
	if (i >= t->n)
	{
		t->preordered = true;
		return;
	}
	sorted = fs_tree_raw_alloc(t, sizeof(fs_tnode *) * t->n);
	for (i = 0; i < t->n; i++)
		sorted[i] = &t->nodes[i];
	fs_sort((void *) sorted, t->n, sizeof(fs_tnode *), node_ptr_cmp, NULL, &t->a); /* polls */
	t->order = fs_tree_raw_alloc(t, sizeof(uint32_t) * t->n);
	t->position = fs_tree_raw_alloc(t, sizeof(uint32_t) * t->n);
	for (i = 0; i < t->n; i++)
	{
		uint32_t idx = (uint32_t) (sorted[i] - t->nodes);

		FS_POLL(i);
		t->order[i] = idx;
		t->position[idx] = i;
	}
	t_free(t, sorted);
}

fs_status
fs_tree_prepare(fs_tree *t, fs_error *err)
{
	uint32_t i;
	int w;

	if (t->prepared)
		return FS_OK;
	if (!t->preordered && t->order == NULL)
		sort_into_preorder(t);
	t->leaf = fs_tree_raw_alloc(t, t->n);
	t->total = fs_tree_raw_alloc(t, sizeof(double) * t->n);
	for (i = 0; i < t->n; i++)
	{
		FS_POLL(i);
		t->leaf[i] = 1;
		t->total[i] = t->nodes[index_at(t, i)].usage;
	}
	/* children follow their parent in pre-order: add totals bottom-up in reverse */
	for (i = t->n; i-- > 1;)
	{
		uint32_t pp = position_of(t, (uint32_t) t->nodes[index_at(t, i)].parent);

		FS_POLL(i);
		t->total[pp] += t->total[i];
		t->leaf[pp] = 0;
		if (!isfinite(t->total[pp]))
		{
			fs_path_text p;

			fs_fail(err, FS_ERR_RANGE, "value out of range: total usage below \"%s\" overflows",
			        fs_sp_text(t->nodes[index_at(t, pp)].path, &p));
			t->prepared = true;
			unprepare(t);
			return FS_ERR_RANGE;
		}
	}
	t->prepared = true;
	if (t->kind != FS_TREE_POOL)
		return FS_OK;
	for (w = 0; w < 2; w++)
	{
		static const uint8_t empty[4] = {0, 0, 0, 0};

		t->total_vec[w] = fs_tree_raw_alloc(t, sizeof(uint8_t *) * t->n);
		for (i = 0; i < t->n; i++)
		{
			const uint8_t *own =
			    w ? t->nodes[index_at(t, i)].demand_vec : t->nodes[index_at(t, i)].usage_vec;
			size_t len = fs_rv_size(own ? own : empty);

			FS_POLL(i);
			t->total_vec[w][i] = fs_tree_raw_alloc(t, len);
			memcpy(t->total_vec[w][i], own ? own : empty, len);
		}
		for (i = t->n; i-- > 1;)
		{
			uint32_t pp = position_of(t, (uint32_t) t->nodes[index_at(t, i)].parent);
			uint8_t *sum;
			size_t len;
			fs_status st;

			FS_POLL(i);
			st = fs_rv_add(t->total_vec[w][pp], t->total_vec[w][i], 1, &t->a, 0, &sum, &len, err);

			if (st != FS_OK)
			{
				fs_path_text p;

				fs_error_context(err, "adding the %s of node \"%s\" to its parent's",
				                 w ? "demand" : "usage",
				                 fs_sp_text(t->nodes[index_at(t, i)].path, &p));
				unprepare(t);
				return st;
			}
			t_free(t, t->total_vec[w][pp]);
			t->total_vec[w][pp] = sum;
		}
	}
	return FS_OK;
}

uint32_t
fs_tree_count(const fs_tree *t)
{
	return t->n;
}

const fs_tnode *
fs_tree_node(const fs_tree *t, uint32_t i)
{
	return &t->nodes[index_at(t, i)];
}

uint32_t
fs_tree_parent_pos(const fs_tree *t, uint32_t i)
{
	return position_of(t, (uint32_t) t->nodes[index_at(t, i)].parent);
}

bool
fs_tree_is_leaf(const fs_tree *t, uint32_t i)
{
	return t->leaf[i] != 0;
}

double
fs_tree_total(const fs_tree *t, uint32_t i)
{
	return t->total[i];
}

const uint8_t *
fs_tree_total_vec(const fs_tree *t, uint32_t i, bool demand)
{
	return t->total_vec[demand ? 1 : 0] ? t->total_vec[demand ? 1 : 0][i] : NULL;
}
