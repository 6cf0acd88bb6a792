/*
 * fairshare.c: SLURM classic, Fair Tree and depth-oblivious fairshare, and PBS's
 * fairshare_perc, fairshare_tree_usage and most-deserving order, over a prepared share tree.
 *
 * FairShare=parent nodes are transparent: each node's "level owner" is its nearest ancestor that
 * is not such a node (SLURM's fs_assoc_ptr), and the level owner's children are all nodes that
 * name it so. A parent node adds nothing to its level's share sum and reports what sshare prints
 * for it: its level owner's shares, and (classic) its owner's effective usage or (Fair Tree) its
 * own usage over its owner's.
 */
#include "share/fairshare.h"

#include "types/sharepath.h"

#include <math.h>
#include <string.h>

int
fs_algo_from_name(const char *name)
{
	if (strcmp(name, "classic") == 0)
		return FS_ALGO_CLASSIC;
	if (strcmp(name, "fair_tree") == 0)
		return FS_ALGO_FAIR_TREE;
	if (strcmp(name, "pbs") == 0)
		return FS_ALGO_PBS;
	if (strcmp(name, "depth_oblivious") == 0)
		return FS_ALGO_DEPTH_OBLIVIOUS;
	if (strcmp(name, "fair_tree_exact") == 0)
		return FS_ALGO_FAIR_TREE_EXACT;
	return -1;
}

typedef struct fs_ctx
{
	const fs_tree *t;
	uint32_t n;
	uint32_t *owner;  /* level owner (pre-order position), by position; 0 for the root */
	double *levelsum; /* by owner: sum of its level's shares */
	double *usage;    /* raw usage by position (PBS: floored at 1) */
	double *shares;   /* stated shares by position (0 when undeclared or parent) */
	uint8_t *parent;  /* FairShare=parent, by position */
	uint8_t *leaf;    /* by position; the root never counts as a leaf */
	fs_fairshare_row *rows;
	bool exact_ties; /* fair_tree_exact: Fair Tree ties compared exactly */
} fs_ctx;

static bool
is_parent_node(const fs_tree *t, uint32_t i)
{
	return i > 0 && (fs_tree_node(t, i)->flags & FS_TN_PARENT) != 0;
}

/* ---------------------------------------------------------------- classic and pbs */

/* SLURM classic values top-down: shares normalised down the tree, usage over the root's, effective
 * usage blended with the parent's by the share, and the factor 2^(-(effective/shares)/dampening).
 */
static void
classic_values(fs_ctx *c, double dampening)
{
	fs_fairshare_row *r = c->rows;
	double root_usage = c->usage[0];
	uint32_t i;

	r[0].norm_shares = 1;
	r[0].effective_usage = 1;
	for (i = 1; i < c->n; i++)
	{
		uint32_t L = c->owner[i];
		double sum = c->levelsum[L];
		double u = root_usage > 0 ? c->usage[i] / root_usage : 0;

		FS_POLL(i);
		r[i].norm_usage = u > 1 ? 1 : u;
		if (c->parent[i])
		{
			/* SLURM tests for the root as fs_assoc_ptr before FairShare=parent */
			r[i].norm_shares = r[L].norm_shares;
			r[i].effective_usage = L == 0 ? r[i].norm_usage : r[L].effective_usage;
			continue;
		}
		r[i].norm_shares = sum > 0 ? r[L].norm_shares * c->shares[i] / sum : 0;
		if (L == 0)
			r[i].effective_usage = r[i].norm_usage;
		else if (sum > 0)
			r[i].effective_usage =
			    r[i].norm_usage + (r[L].effective_usage - r[i].norm_usage) * c->shares[i] / sum;
		else
			r[i].effective_usage = r[L].effective_usage;
	}
	r[0].norm_usage = root_usage > 0 ? 1 : 0;
	for (i = 0; i < c->n; i++)
	{
		double S = r[i].norm_shares;

		FS_POLL(i);
		r[i].fairshare = S > 0 ? pow(2.0, -(r[i].effective_usage / S) / dampening) : 0;
		r[i].usage_per_share = S > 0 ? r[i].raw_usage / S : 0;
		r[i].usage_per_share_null = !(S > 0);
		r[i].level_fs_null = true;
	}
}

/* ---------------------------------------------------------------- depth oblivious */

/*
 * SLURM's PriorityFlags=DEPTH_OBLIVIOUS (priority_multifactor3.html, priority_multifactor.c):
 * the factor is 2^-R, R = R_parent * r_l^k, where r = U / S is a node's usage over its shares
 * (normalised as in classic), r_l = r / (U_level / S_parent) is that ratio over its level's
 * (U_level sums the normalised usage of the node and its siblings, FairShare=parent nodes left out)
 * and k = 1 / (1 + (5 ln R_parent)^2) when ln R_parent and ln r_l have opposite signs, else 1.
 * Children of the root, and nodes without shares or usage or whose level owner has none, keep
 * R = r. SLURM stores E = R * S as the effective usage, so that the classic 2^-(E/S) gives the
 * factor; FairShare=parent nodes report their owner's E, as in classic. classic_values has set
 * the shares, usages and classic E; this pass replaces E top-down (owners come first in
 * pre-order), then the factors.
 */
static void
depth_oblivious_values(fs_ctx *c, double dampening, const fs_allocator *a)
{
	fs_fairshare_row *r = c->rows;
	double *level_usage = a->alloc(a->ctx, sizeof(double) * c->n);
	uint32_t i;

	memset(level_usage, 0, sizeof(double) * c->n);
	for (i = 1; i < c->n; i++)
		if (!c->parent[i])
			level_usage[c->owner[i]] += r[i].norm_usage;
	for (i = 1; i < c->n; i++)
	{
		uint32_t L = c->owner[i];
		double S = r[i].norm_shares, U = r[i].norm_usage;

		FS_POLL(i);
		if (L == 0)
			r[i].effective_usage = U;
		else if (c->parent[i])
			r[i].effective_usage = r[L].effective_usage;
		else if (S > 0 && r[L].norm_shares > 0 && r[L].effective_usage > 0 && U > 0)
		{
			double ratio_p = r[L].effective_usage / r[L].norm_shares;
			double ratio_l = (U / S) / (level_usage[L] / r[L].norm_shares);
			double k = log(ratio_p) * log(ratio_l) >= 0
			               ? 1
			               : 1 / (1 + (5 * log(ratio_p)) * (5 * log(ratio_p)));

			r[i].effective_usage = ratio_p * pow(ratio_l, k) * S;
		}
		else
			r[i].effective_usage = U;
		r[i].fairshare = S > 0 ? pow(2.0, -(r[i].effective_usage / S) / dampening) : 0;
	}
	a->release(a->ctx, level_usage);
}

/* Depth-oblivious factors compare across the tree: the rank orders leaves by factor. */
static int
factor_cmp(const void *x, const void *y, void *ctx)
{
	const fs_ctx *c = ctx;
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;
	double fa = c->rows[a].fairshare, fb = c->rows[b].fairshare;

	if (fa != fb)
		return fa > fb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/*
 * PBS's most-deserving order: two leaves compare at the first depth where their (flattened)
 * paths differ, by usage / fairshare_perc (smaller first; no share loses); equal ratios move on
 * to the next depth; a final tie keeps path order.
 */
static double
ratio(const fs_ctx *c, uint32_t i)
{
	double S = c->rows[i].norm_shares;

	return S > 0 ? c->usage[i] / S : INFINITY;
}

static uint32_t
chain(const fs_ctx *c, uint32_t leaf, uint32_t *out)
{
	uint32_t tmp[FS_SP_DEPTH_MAX + 1];
	uint32_t k = 0, m = 0;
	uint32_t i = leaf;

	while (i != 0)
	{
		tmp[k++] = i;
		i = c->owner[i];
	}
	while (k > 0)
		out[m++] = tmp[--k];
	return m;
}

static int
pbs_cmp(const void *x, const void *y, void *ctx)
{
	const fs_ctx *c = ctx;
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;
	uint32_t ca[FS_SP_DEPTH_MAX + 1], cb[FS_SP_DEPTH_MAX + 1];
	uint32_t na = chain(c, a, ca), nb = chain(c, b, cb);
	uint32_t k = 0;

	while (k < na && k < nb && ca[k] == cb[k])
		k++;
	for (; k < na && k < nb; k++)
	{
		double ra = ratio(c, ca[k]), rb = ratio(c, cb[k]);

		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/*
 * The same order in one walk down the tree, instead of a comparison sort of the leaves that
 * rebuilds both chains on every comparison: the members of a level are sorted by ratio (then
 * path order); a member alone at its ratio gives its leaves next (itself, or its own members
 * walked the same way); members tied at a ratio are compared one depth further down, so their
 * members are walked together as one level; tied leaves keep path order. A leaf tied with an
 * inner node is ordered by path against each leaf below that node, which no walk reproduces
 * (the comparison is not even transitive then): the walk gives up and the caller sorts.
 */
typedef struct rank_item
{
	double key; /* ratio() */
	uint32_t pos;
} rank_item;

typedef struct rank_walk
{
	const fs_ctx *c;
	uint32_t *first;   /* by owner: start of its members in `members` (CSR) */
	uint32_t *members; /* leaves and inner nodes that are not FairShare=parent, by owner */
	rank_item *items;  /* the levels being walked, as a stack */
	rank_item *tmp;    /* merge buffer */
	int64_t next;      /* the next rank to give */
} rank_walk;

static inline bool
item_before(const rank_item *a, const rank_item *b)
{
	return a->key < b->key || (a->key == b->key && a->pos < b->pos);
}

/* Sort items[0..n) (distinct positions, so any correct sort gives the same order). */
static void
sort_items(rank_item *items, rank_item *tmp, uint32_t n)
{
	uint32_t i, j, width;
	rank_item *src = items, *dst = tmp;

	/* insertion-sorted runs of 16, then bottom-up merges */
	for (i = 0; i < n; i += 16)
	{
		uint32_t end = n - i < 16 ? n : i + 16;

		for (j = i + 1; j < end; j++)
		{
			rank_item v = items[j];
			uint32_t k = j;

			while (k > i && item_before(&v, &items[k - 1]))
			{
				items[k] = items[k - 1];
				k--;
			}
			items[k] = v;
		}
	}
	for (width = 16; width < n; width *= 2)
	{
		rank_item *swap;

		fs_check_interrupts();
		for (i = 0; i < n; i += 2 * width)
		{
			uint32_t mid = n - i < width ? n : i + width;
			uint32_t hi = n - i < 2 * width ? n : i + 2 * width;
			uint32_t a = i, b = mid, k = i;

			while (a < mid && b < hi)
				dst[k++] = item_before(&src[b], &src[a]) ? src[b++] : src[a++];
			while (a < mid)
				dst[k++] = src[a++];
			while (b < hi)
				dst[k++] = src[b++];
		}
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != items)
		memcpy(items, src, sizeof(rank_item) * n);
}

/* Append the members of owner v to the stack at *top. */
static void
push_members(rank_walk *w, uint32_t v, uint32_t *top)
{
	uint32_t k;

	for (k = w->first[v]; k < w->first[v + 1]; k++)
	{
		uint32_t m = w->members[k];

		w->items[*top].key = ratio(w->c, m);
		w->items[*top].pos = m;
		(*top)++;
	}
}

/* Rank the leaves below the level items[start..start + count); false at a leaf-inner tie. */
static bool
rank_level(rank_walk *w, uint32_t start, uint32_t count)
{
	rank_item *level = w->items + start;
	uint32_t top = start + count;
	uint32_t s = 0;

	sort_items(level, w->tmp, count);
	while (s < count)
	{
		uint32_t e = s + 1, leaves, k, below = top;

		FS_POLL(s);
		while (e < count && level[e].key == level[s].key)
			e++;
		leaves = 0;
		for (k = s; k < e; k++)
			leaves += w->c->leaf[level[k].pos];
		if (leaves == e - s)
		{
			for (k = s; k < e; k++)
				w->c->rows[level[k].pos].rank = ++w->next;
		}
		else if (leaves > 0)
			return false;
		else
		{
			for (k = s; k < e; k++)
				push_members(w, level[k].pos, &below);
			if (!rank_level(w, top, below - top))
				return false;
		}
		s = e;
	}
	return true;
}

/* PBS ranks: a walk down the tree in its sort order, sorting only where a leaf ties an inner node.
 */
static bool
pbs_rank(fs_ctx *c, const fs_allocator *a)
{
	rank_walk w;
	uint32_t i, top = 0;
	bool done;

	w.c = c;
	w.next = 0;
	w.first = a->alloc(a->ctx, sizeof(uint32_t) * (c->n + 1));
	w.members = a->alloc(a->ctx, sizeof(uint32_t) * (c->n > 0 ? c->n : 1));
	w.items = a->alloc(a->ctx, sizeof(rank_item) * (c->n > 0 ? c->n : 1));
	w.tmp = a->alloc(a->ctx, sizeof(rank_item) * (c->n > 0 ? c->n : 1));
	memset(w.first, 0, sizeof(uint32_t) * (c->n + 1));
	for (i = 1; i < c->n; i++)
		if (c->leaf[i] || !c->parent[i])
			w.first[c->owner[i] + 1]++;
	for (i = 0; i < c->n; i++)
		w.first[i + 1] += w.first[i];
	/* `tmp` as the fill pointers; positions go in ascending, so each level is in path order */
	memcpy(w.tmp, w.first, sizeof(uint32_t) * c->n);
	for (i = 1; i < c->n; i++)
	{
		FS_POLL(i);
		if (c->leaf[i] || !c->parent[i])
			w.members[((uint32_t *) w.tmp)[c->owner[i]]++] = i;
	}
	if (c->n > 0)
		push_members(&w, 0, &top);
	done = rank_level(&w, 0, top);
	a->release(a->ctx, w.first);
	a->release(a->ctx, w.members);
	a->release(a->ctx, w.items);
	a->release(a->ctx, w.tmp);
	return done;
}

/* ---------------------------------------------------------------- fair tree */

/*
 * Order of siblings by level_fs, descending. fair_tree_exact compares exactly where the inputs
 * allow: siblings share their level's share sum and their parent's usage, so level_fs(a) >
 * level_fs(b) iff s_a * u_b > s_b * u_a, computed in long double (exact for integers below
 * 2^32); fair_tree compares SLURM's own quotients (slurm_level_fs).
 */
static int
level_class(const fs_ctx *c, uint32_t i)
{
	if (c->parent[i])
		return 2; /* +Infinity */
	if (!(c->levelsum[c->owner[i]] > 0) || c->shares[i] == 0)
		return 0; /* no shares: 0 */
	if (c->usage[i] == 0)
		return 2;
	return 1;
}

/*
 * LevelFS as SLURM computes it (fair_tree.c): S = shares / level shares in double, U = usage /
 * the level owner's usage and S / U in long double. Siblings whose exact LevelFS are equal can
 * differ here in the last bits, and SLURM then ranks them apart; fair_tree does the same.
 */
static long double
slurm_level_fs(const fs_ctx *c, uint32_t i)
{
	uint32_t L = c->owner[i];
	double S = c->shares[i] / c->levelsum[L];

	return (long double) S / ((long double) c->usage[i] / (long double) c->usage[L]);
}

static int
level_fs_cmp(const fs_ctx *c, uint32_t a, uint32_t b)
{
	int ka = level_class(c, a), kb = level_class(c, b);
	long double x, y;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (ka != 1)
		return 0;
	if (c->exact_ties)
	{
		x = (long double) c->shares[a] * (long double) c->usage[b];
		y = (long double) c->shares[b] * (long double) c->usage[a];
	}
	else
	{
		x = slurm_level_fs(c, a);
		y = slurm_level_fs(c, b);
	}
	return x > y ? -1 : x < y ? 1 : 0;
}

static int
sibling_cmp(const void *x, const void *y, void *ctx)
{
	const fs_ctx *c = ctx;
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;
	int r = level_fs_cmp(c, a, b);

	if (r != 0)
		return r;
	if (c->leaf[a] != c->leaf[b])
		return c->leaf[a] ? -1 : 1; /* leaves before inner nodes */
	return a < b ? -1 : a > b;
}

typedef struct ft_walk
{
	uint32_t *first; /* by owner: start of its members in `members` */
	uint32_t *members;
	uint32_t nleaves;
	uint32_t counter; /* starts at nleaves, one less after every leaf */
	uint32_t rnt;     /* the rank given last ("rank not tied") */
} ft_walk;

/* Fair Tree: rank one parent's children by level fairshare, recursing into inner nodes in order and
 * giving tied siblings' leaves one rank. */
static void
ft_rank(fs_ctx *c, ft_walk *w, uint32_t owner, bool owner_tied, const fs_allocator *a)
{
	uint32_t *m = w->members + w->first[owner];
	uint32_t count = w->first[owner + 1] - w->first[owner];
	uint32_t i;

	fs_sort(m, count, sizeof(uint32_t), sibling_cmp, c, a);
	for (i = 0; i < count; i++)
	{
		uint32_t v = m[i];
		bool tied = i == 0 ? owner_tied : level_fs_cmp(c, m[i - 1], v) == 0;

		FS_POLL(i);

		if (c->leaf[v])
		{
			if (!tied)
				w->rnt = w->counter;
			c->rows[v].fairshare = (double) w->rnt / w->nleaves;
			c->rows[v].fairshare_null = false;
			c->rows[v].rank = (int64_t) w->nleaves + 1 - w->rnt;
			w->counter--;
		}
		else
			ft_rank(c, w, v, tied, a);
	}
}

/* SLURM Fair Tree: each node's share and usage within its level and its level fairshare (share over
 * usage), then every leaf ranked by a walk down the levels (ft_rank), which sets the factor. */
static void
fair_tree_values(fs_ctx *c, const fs_allocator *a)
{
	fs_fairshare_row *r = c->rows;
	ft_walk w;
	uint32_t i;

	r[0].norm_shares = 0; /* sshare prints 0: the root has no level of its own */
	r[0].effective_usage = 1;
	r[0].norm_usage = c->usage[0] > 0 ? 1 : 0;
	r[0].level_fs_null = true;
	r[0].fairshare_null = true;
	for (i = 1; i < c->n; i++)
	{
		uint32_t L = c->owner[i];
		double sum = c->levelsum[L];
		double u = c->usage[0] > 0 ? c->usage[i] / c->usage[0] : 0;

		FS_POLL(i);
		r[i].norm_usage = u > 1 ? 1 : u;
		r[i].fairshare_null = true;
		r[i].effective_usage = c->usage[L] > 0 ? c->usage[i] / c->usage[L] : 0;
		if (c->parent[i])
		{
			/* ranked as +Infinity (a leaf) or not at all; sshare prints no LevelFS */
			r[i].norm_shares = r[L].norm_shares;
			r[i].level_fs = INFINITY;
			r[i].level_fs_null = true;
			continue;
		}
		r[i].norm_shares = sum > 0 ? c->shares[i] / sum : 0;
		if (level_class(c, i) == 0)
			r[i].level_fs = 0;
		else if (level_class(c, i) == 2)
			r[i].level_fs = INFINITY;
		else
			r[i].level_fs = r[i].norm_shares / r[i].effective_usage;
	}
	for (i = 0; i < c->n; i++)
	{
		double S = r[i].norm_shares;

		FS_POLL(i);
		r[i].usage_per_share = S > 0 ? r[i].raw_usage / S : 0;
		r[i].usage_per_share_null = !(S > 0);
	}

	/* members of each level (flattened: FairShare=parent inner nodes are left out) */
	w.first = a->alloc(a->ctx, sizeof(uint32_t) * (c->n + 1));
	w.members = a->alloc(a->ctx, sizeof(uint32_t) * (c->n > 1 ? c->n : 1));
	memset(w.first, 0, sizeof(uint32_t) * (c->n + 1));
	w.nleaves = 0;
	for (i = 1; i < c->n; i++)
	{
		if (c->parent[i] && !c->leaf[i])
			continue;
		w.first[c->owner[i] + 1]++;
		w.nleaves += c->leaf[i];
	}
	for (i = 0; i < c->n; i++)
		w.first[i + 1] += w.first[i];
	{
		uint32_t *fill = a->alloc(a->ctx, sizeof(uint32_t) * (c->n + 1));

		memcpy(fill, w.first, sizeof(uint32_t) * (c->n + 1));
		for (i = 1; i < c->n; i++)
			if (!(c->parent[i] && !c->leaf[i]))
				w.members[fill[c->owner[i]]++] = i;
		a->release(a->ctx, fill);
	}
	w.counter = w.nleaves;
	w.rnt = w.nleaves;
	if (w.nleaves > 0)
		ft_rank(c, &w, 0, false, a);
	a->release(a->ctx, w.first);
	a->release(a->ctx, w.members);
}

/* ---------------------------------------------------------------- entry point */

/* the working arrays (not the rows, which go to the caller) */
static void
ctx_free(fs_ctx *c, const fs_allocator *a)
{
	a->release(a->ctx, c->owner);
	a->release(a->ctx, c->levelsum);
	a->release(a->ctx, c->usage);
	a->release(a->ctx, c->shares);
	a->release(a->ctx, c->parent);
	a->release(a->ctx, c->leaf);
}

fs_status
fs_fairshare(const fs_tree *t, fs_algo algo, double dampening, const fs_allocator *a,
             fs_fairshare_row **out, fs_error *err)
{
	fs_ctx c;
	uint32_t i;

	if (fs_tree_get_kind(t) != FS_TREE_SHARE)
	{
		fs_fail(err, FS_ERR_VALUE, "fairshare needs a share tree, not a pool tree");
		fs_error_hint(err, "Build the tree with share_tree(path, shares, usage).");
		return FS_ERR_VALUE;
	}
	if (!(dampening > 0) || !isfinite(dampening))
	{
		fs_fail(err, FS_ERR_VALUE, "dampening must be a positive number, not %g", dampening);
		fs_error_hint(err, "SLURM's FairShareDampeningFactor is 1 by default; larger values "
		                   "flatten the factor.");
		return FS_ERR_VALUE;
	}
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.n = fs_tree_count(t);
	c.owner = a->alloc(a->ctx, sizeof(uint32_t) * c.n);
	c.levelsum = a->alloc(a->ctx, sizeof(double) * c.n);
	c.usage = a->alloc(a->ctx, sizeof(double) * c.n);
	c.shares = a->alloc(a->ctx, sizeof(double) * c.n);
	c.parent = a->alloc(a->ctx, c.n);
	c.leaf = a->alloc(a->ctx, c.n);
	c.rows = a->alloc(a->ctx, sizeof(fs_fairshare_row) * c.n);
	memset(c.levelsum, 0, sizeof(double) * c.n);
	for (i = 0; i < c.n; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		double total = fs_tree_total(t, i);

		FS_POLL(i);
		c.parent[i] = is_parent_node(t, i);
		c.leaf[i] = i > 0 && fs_tree_is_leaf(t, i);
		c.shares[i] = (nd->flags & FS_TN_DECLARED) && !c.parent[i] ? nd->shares : 0;
		if (i == 0)
			c.owner[i] = 0;
		else
		{
			uint32_t p = fs_tree_parent_pos(t, i);

			c.owner[i] = c.parent[p] ? c.owner[p] : p;
			c.levelsum[c.owner[i]] += c.shares[i];
		}
		/* PBS: a leaf's usage is at least 1, an inner node's is 1 more than its subtree's */
		if (algo == FS_ALGO_PBS)
			c.usage[i] = c.leaf[i] ? (total > 1 ? total : 1) : 1 + total;
		else
			c.usage[i] = total;
		memset(&c.rows[i], 0, sizeof(fs_fairshare_row)); /* here, not before the loop: one pass */
		c.rows[i].raw_usage = c.usage[i];
		c.rows[i].raw_shares = c.shares[i];
		c.rows[i].raw_shares_null = c.parent[i];
	}
	for (i = 0; i < c.n; i++)
	{
		if (!isfinite(c.levelsum[i]))
		{
			fs_path_text p;

			fs_fail(err, FS_ERR_RANGE,
			        "value out of range: the shares of the children of \"%s\" "
			        "add up past the largest number",
			        fs_sp_text(fs_tree_node(t, i)->path, &p));
			fs_error_hint(err, "Scale the shares down; only their ratios matter.");
			ctx_free(&c, a);
			a->release(a->ctx, c.rows);
			return FS_ERR_RANGE;
		}
	}
	c.exact_ties = algo == FS_ALGO_FAIR_TREE_EXACT;
	if (algo == FS_ALGO_FAIR_TREE || algo == FS_ALGO_FAIR_TREE_EXACT)
		fair_tree_values(&c, a);
	else
	{
		classic_values(&c, dampening);
		if (algo == FS_ALGO_DEPTH_OBLIVIOUS)
			depth_oblivious_values(&c, dampening, a);
		/* the PBS walk order, except for depth_oblivious (leaves by factor) and when the walk
		 * gives up (a leaf ties an inner node): then a comparison sort */
		if (algo == FS_ALGO_DEPTH_OBLIVIOUS || !pbs_rank(&c, a))
		{
			uint32_t *leaves = a->alloc(a->ctx, sizeof(uint32_t) * (c.n > 0 ? c.n : 1));
			uint32_t nl = 0;

			for (i = 1; i < c.n; i++)
				if (c.leaf[i])
					leaves[nl++] = i;
			fs_sort(leaves, nl, sizeof(uint32_t),
			        algo == FS_ALGO_DEPTH_OBLIVIOUS ? factor_cmp : pbs_cmp, &c, a);
			for (i = 0; i < nl; i++)
				c.rows[leaves[i]].rank = i + 1;
			a->release(a->ctx, leaves);
		}
	}
	ctx_free(&c, a);
	*out = c.rows;
	return FS_OK;
}
