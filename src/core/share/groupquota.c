/*
 * groupquota.c: HTCondor's hierarchical group quota allocation (see groupquota.h), following the
 * negotiator's GroupEntry: hgq_assign_quotas, hgq_fairshare with hgq_allocate_surplus, and with
 * whole slots hgq_recover_remainders with hgq_round_robin. Written from their behaviour; the
 * surplus loops are solved exactly (water-filling) instead of iterated.
 */
#include "share/groupquota.h"

#include <math.h>
#include <string.h>

typedef struct gq_node
{
	size_t group; /* input index, SIZE_MAX for the root */
	uint32_t parent;
	uint32_t first_kid; /* into gq_ctx.kids */
	uint32_t nkids;
	int depth;
	double config_quota;
	bool is_static;
	bool accept;
	double quota;         /* own quota */
	double subtree_quota; /* the quota the subtree received */
	double requested;     /* demand not yet served */
	double allocated;
	double subtree_requested; /* unserved demand of the node and its accepting subtrees */
} gq_node;

typedef struct gq_ctx
{
	gq_node *nodes;
	uint32_t n;
	uint32_t *kids;
	const fs_allocator *a;
} gq_ctx;

/* ---------------------------------------------------------------- names */

/* strcasecmp order, a shorter prefix first: parents before children */
static int
group_order(const void *x, const void *y, void *ctx)
{
	const fs_gq_group *g = ctx;
	const fs_gq_group *a = &g[*(const size_t *) x], *b = &g[*(const size_t *) y];

	return fs_casecmp(a->name, a->namelen, b->name, b->namelen);
}

static void
quoted(char *dst, size_t cap, const fs_gq_group *g)
{
	fs_quote_excerpt(dst, cap, g->name, g->namelen, 200);
}

/* A group name: not empty, not the root's, dot-separated parts none empty, not too deep. */
static fs_status
check_name(const fs_gq_group *g, size_t i, fs_error *err)
{
	char q[256];
	size_t k;
	int depth = 1;

	if (g->namelen == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "group name %zu is empty", i + 1);
		fs_error_hint(err, "Name groups as GROUP_NAMES does, for example group_physics.hep.");
		return FS_ERR_VALUE;
	}
	quoted(q, sizeof(q), g);
	if (fs_span_eq(g->name, g->namelen, FS_GQ_ROOT_NAME))
	{
		fs_fail(err, FS_ERR_VALUE, "group name \"%s\" is reserved for the root group", q);
		fs_error_detail(err, "HTCondor's group tree hangs from an invented root group <none>, "
		                     "whose quota is the whole pool.");
		fs_error_hint(err, "Give the demand of submitters outside every group as none_demand.");
		return FS_ERR_VALUE;
	}
	for (k = 0; k < g->namelen; k++)
	{
		if (g->name[k] != '.')
			continue;
		if (k == 0 || k + 1 == g->namelen || g->name[k + 1] == '.')
		{
			fs_fail(err, FS_ERR_VALUE, "invalid group name \"%s\"", q);
			fs_error_detail(err, "A dot separates a group from its subgroup, so a name cannot "
			                     "start or end with one or hold two in a row.");
			fs_error_hint(err, "Write subgroups as group_physics.hep.");
			return FS_ERR_VALUE;
		}
		depth++;
	}
	if (depth > FS_GQ_DEPTH_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "group \"%s\" is nested %d levels deep", q, depth);
		fs_error_detail(err, "Groups nest at most %d levels deep.", FS_GQ_DEPTH_MAX);
		return FS_ERR_LIMIT;
	}
	return FS_OK;
}

/* a number as PostgreSQL prints a float8, for messages */
typedef struct gq_num
{
	char text[FS_DOUBLE_BUFLEN];
} gq_num;

static gq_num
num(double v)
{
	gq_num n;

	fs_format_double(v, n.text);
	return n;
}

static fs_status
bad_amount(fs_error *err, double v, const char *what, const char *q)
{
	return fs_fail(err, isfinite(v) ? FS_ERR_VALUE : FS_ERR_RANGE,
	               "%s of group \"%s\" must be a finite number of 0 or more, not %s", what, q,
	               num(v).text);
}

/* Quota and demand finite and not negative, a dynamic quota a fraction, whole demand without
 * slot weights. */
static fs_status
check_amounts(const fs_gq_group *g, const fs_gq_options *opt, fs_error *err)
{
	char q[256];

	quoted(q, sizeof(q), g);
	if (!isfinite(g->quota) || g->quota < 0)
		return bad_amount(err, g->quota, "quota", q);
	if (g->dynamic && g->quota > 1)
	{
		fs_fail(err, FS_ERR_VALUE, "dynamic quota of group \"%s\" must be between 0 and 1, not %s",
		        q, num(g->quota).text);
		fs_error_detail(err, "GROUP_QUOTA_DYNAMIC is a fraction of the parent group's quota.");
		fs_error_hint(err, "Give the quota in slots with dynamic false (GROUP_QUOTA).");
		return FS_ERR_VALUE;
	}
	if (!isfinite(g->demand) || g->demand < 0)
		return bad_amount(err, g->demand, "demand", q);
	if (!opt->use_slot_weights && g->demand != floor(g->demand))
	{
		fs_fail(err, FS_ERR_VALUE,
		        "demand of group \"%s\" must be a whole number of jobs when use_slot_weights is "
		        "false, not %s",
		        q, num(g->demand).text);
		fs_error_hint(err, "Without slot weights HTCondor counts jobs and slots; pass "
		                   "use_slot_weights => true for weighted demand.");
		return FS_ERR_VALUE;
	}
	return FS_OK;
}

/* pool and none_demand finite and not negative, and whole numbers without slot weights. */
static fs_status
check_options(const fs_gq_options *opt, fs_error *err)
{
	if (!isfinite(opt->pool) || opt->pool < 0)
		return fs_fail(err, isfinite(opt->pool) ? FS_ERR_VALUE : FS_ERR_RANGE,
		               "pool must be a finite number of 0 or more, not %s", num(opt->pool).text);
	if (!isfinite(opt->none_demand) || opt->none_demand < 0)
		return fs_fail(err, isfinite(opt->none_demand) ? FS_ERR_VALUE : FS_ERR_RANGE,
		               "none_demand must be a finite number of 0 or more, not %s",
		               num(opt->none_demand).text);
	if (!opt->use_slot_weights &&
	    (opt->pool != floor(opt->pool) || opt->none_demand != floor(opt->none_demand)))
	{
		fs_fail(err, FS_ERR_VALUE,
		        "pool and none_demand must be whole numbers when use_slot_weights is false, "
		        "not %s and %s",
		        num(opt->pool).text, num(opt->none_demand).text);
		fs_error_hint(err, "Without slot weights HTCondor counts slots and jobs; pass "
		                   "use_slot_weights => true for weighted amounts.");
		return FS_ERR_VALUE;
	}
	return FS_OK;
}

/* The sorted position of `name` among the sorted groups, or -1. */
static long
find(const fs_gq_group *g, const size_t *sorted, size_t n, const char *name, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;
		const fs_gq_group *m = &g[sorted[mid]];
		int c = fs_casecmp(m->name, m->namelen, name, len);

		if (c == 0)
			return (long) mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The tree: node 0 is <none>, node k + 1 the k-th group in case-insensitive order, in which a
 * parent comes before its children and siblings come in the order HTCondor inserts them.
 */
static fs_status
build(gq_ctx *c, const fs_gq_group *g, size_t n, const fs_gq_options *opt, fs_error *err)
{
	const fs_allocator *a = c->a;
	size_t *sorted = a->alloc(a->ctx, sizeof(size_t) * (n > 0 ? n : 1));
	uint32_t *fill;
	size_t i;
	fs_status st = FS_OK;

	for (i = 0; i < n && st == FS_OK; i++)
	{
		FS_POLL(i);
		st = check_name(&g[i], i, err);
		if (st == FS_OK)
			st = check_amounts(&g[i], opt, err);
		sorted[i] = i;
	}
	if (st != FS_OK)
	{
		a->release(a->ctx, sorted);
		return st;
	}
	fs_sort(sorted, n, sizeof(size_t), group_order, (void *) g, a);
	c->n = (uint32_t) n + 1;
	c->nodes = a->alloc(a->ctx, sizeof(gq_node) * c->n);
	memset(c->nodes, 0, sizeof(gq_node) * c->n);
	c->nodes[0].group = SIZE_MAX;
	c->nodes[0].accept = true; /* the root always shares surplus */
	c->nodes[0].requested = opt->none_demand;
	for (i = 0; i < n && st == FS_OK; i++)
	{
		const fs_gq_group *grp = &g[sorted[i]];
		gq_node *nd = &c->nodes[i + 1];
		size_t dot = grp->namelen;

		FS_POLL(i);
		if (i > 0 && group_order(&sorted[i - 1], &sorted[i], (void *) g) == 0)
		{
			char q1[256], q2[256];

			quoted(q1, sizeof(q1), &g[sorted[i - 1]]);
			quoted(q2, sizeof(q2), grp);
			fs_fail(err, FS_ERR_VALUE, "group \"%s\" is given twice", q2);
			fs_error_detail(err,
			                "Group names compare case-insensitively, as in HTCondor: \"%s\" "
			                "and \"%s\" name one group.",
			                q1, q2);
			fs_error_hint(err, "List each group once.");
			st = FS_ERR_VALUE;
			break;
		}
		/* the parent's name is all before the last dot */
		while (dot > 0 && grp->name[dot - 1] != '.')
			dot--;
		if (dot == 0)
			nd->parent = 0;
		else
		{
			long p = find(g, sorted, n, grp->name, dot - 1);

			if (p < 0)
			{
				char q[256], pq[256];

				quoted(q, sizeof(q), grp);
				fs_quote_excerpt(pq, sizeof(pq), grp->name, dot - 1, 200);
				fs_fail(err, FS_ERR_VALUE, "group \"%s\" has no parent group \"%s\"", q, pq);
				fs_error_detail(err, "HTCondor ignores a group whose parent is not in "
				                     "GROUP_NAMES, and its jobs then negotiate in the nearest "
				                     "group above.");
				fs_error_hint(err, "Add \"%s\" to the groups, or rename the group.", pq);
				st = FS_ERR_VALUE;
				break;
			}
			nd->parent = (uint32_t) p + 1;
		}
		nd->group = sorted[i];
		nd->depth = c->nodes[nd->parent].depth + 1;
		nd->config_quota = grp->quota;
		nd->is_static = !grp->dynamic;
		nd->accept = grp->accept_surplus;
		nd->requested = grp->demand;
		c->nodes[nd->parent].nkids++;
	}
	a->release(a->ctx, sorted);
	if (st != FS_OK)
		return st;
	/* children, in node order */
	c->kids = a->alloc(a->ctx, sizeof(uint32_t) * c->n);
	fill = a->alloc(a->ctx, sizeof(uint32_t) * c->n);
	for (i = 0; i < c->n; i++)
	{
		FS_POLL(i);
		c->nodes[i].first_kid = i == 0 ? 0 : c->nodes[i - 1].first_kid + c->nodes[i - 1].nkids;
		fill[i] = c->nodes[i].first_kid;
	}
	for (i = 1; i < c->n; i++)
	{
		FS_POLL(i);
		c->kids[fill[c->nodes[i].parent]++] = (uint32_t) i;
	}
	a->release(a->ctx, fill);
	return FS_OK;
}

/* ---------------------------------------------------------------- quotas */

/*
 * hgq_assign_quotas: static children first take their quotas, scaled down in proportion when
 * they add up past the parent's unless oversubscription is allowed; dynamic children share what
 * is left by their fractions, scaled down when those add up past 1; the group keeps the rest,
 * or with oversubscription its whole quota (<none> always keeps only the rest, at least 0). A
 * subtree given nothing stays at 0.
 */
static void
assign_quotas(gq_ctx *c, uint32_t v, double q, bool oversub)
{
	gq_node *nd = &c->nodes[v];
	double sqsum = 0, dqsum = 0, sqa, dqa, zs, zd, given = 0;
	uint32_t k;

	if (q <= 0)
		return;
	nd->subtree_quota = q;
	for (k = 0; k < nd->nkids; k++)
	{
		const gq_node *ch = &c->nodes[c->kids[nd->first_kid + k]];

		FS_POLL(k);
		if (ch->is_static)
			sqsum += ch->config_quota;
		else
			dqsum += ch->config_quota;
	}
	sqa = oversub || sqsum < q ? sqsum : q;
	dqa = q - sqa > 0 ? q - sqa : 0;
	zs = sqsum > 0 ? sqsum : 1;
	zd = dqsum > 1 ? dqsum : 1;
	for (k = 0; k < nd->nkids; k++)
	{
		uint32_t w = c->kids[nd->first_kid + k];
		const gq_node *ch = &c->nodes[w];
		double cq = ch->is_static ? ch->config_quota * (sqa / zs) : ch->config_quota * (dqa / zd);

		FS_POLL(k);
		if (cq < 0)
			cq = 0;
		assign_quotas(c, w, cq, oversub);
		given += cq;
	}
	if (oversub && v != 0)
		nd->quota = q;
	else
		nd->quota = q - given > 0 ? q - given : 0;
}

/* ---------------------------------------------------------------- surplus */

/* a member of a surplus-sharing level: a child, or the group itself (last) */
typedef struct gq_member
{
	uint32_t node;
	uint32_t pos; /* children in order, the group itself last: the order of ties */
	double want;  /* unserved demand it may take, 0 when it does not accept surplus */
	double share; /* its weight: the subtree's quota, or 1 */
	double got;
} gq_member;

static int
by_want_per_share(const void *x, const void *y, void *ctx)
{
	const gq_member *a = *(const gq_member *const *) x, *b = *(const gq_member *const *) y;
	double ra = a->want / a->share, rb = b->want / b->share;

	(void) ctx;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * hgq_allocate_surplus_loop, solved exactly: the members still wanting and with a positive
 * share split *surplus in proportion to their shares, none taking more than it wants, the ones
 * capped giving the rest back to the others (water-filling); *surplus keeps what is left.
 */
static void
water_fill(gq_ctx *c, gq_member *m, uint32_t k, bool by_quota, double *surplus)
{
	const fs_allocator *a = c->a;
	gq_member **p = a->alloc(a->ctx, sizeof(gq_member *) * (k > 0 ? k : 1));
	uint32_t i, np = 0, j;
	double want = 0, s = *surplus, *rest;

	for (i = 0; i < k; i++)
	{
		double share = by_quota ? c->nodes[m[i].node].subtree_quota : 1;

		FS_POLL(i);
		if (i == k - 1 && by_quota)
			share = c->nodes[m[i].node].quota; /* the group itself shares with its own quota */
		m[i].share = share;
		if (m[i].want > 0 && share > 0)
		{
			p[np++] = &m[i];
			want += m[i].want;
		}
	}
	if (np == 0 || s <= 0)
	{
		a->release(a->ctx, p);
		return;
	}
	if (want <= s)
	{
		for (i = 0; i < np; i++)
		{
			p[i]->got += p[i]->want;
			p[i]->want = 0;
		}
		*surplus = s - want;
		a->release(a->ctx, p);
		return;
	}
	fs_sort(p, np, sizeof(gq_member *), by_want_per_share, NULL, a);
	/* the weight of the members from i on, summed from the end: subtracting the capped ones'
	 * from the total instead cancels catastrophically when a tiny share is left */
	rest = a->alloc(a->ctx, sizeof(double) * (np + 1));
	rest[np] = 0;
	for (j = np; j > 0; j--)
		rest[j - 1] = rest[j] + p[j - 1]->share;
	for (i = 0; i < np; i++)
	{
		FS_POLL(i);
		/* capped: what it wants is below its share of what is left */
		if (!(p[i]->want * rest[i] <= s * p[i]->share))
			break;
		p[i]->got += p[i]->want;
		s -= p[i]->want;
		p[i]->want = 0;
	}
	/* the members not capped split what is left by their shares */
	for (j = i; j < np; j++)
	{
		double give = s * (p[j]->share / rest[i]);

		FS_POLL(j);
		p[j]->got += give;
		p[j]->want = p[j]->want > give ? p[j]->want - give : 0;
	}
	*surplus = 0;
	a->release(a->ctx, rest);
	a->release(a->ctx, p);
}

/* The members of v's level: its children, then v itself, which always accepts surplus. */
static gq_member *
level(gq_ctx *c, uint32_t v, uint32_t *k)
{
	const gq_node *nd = &c->nodes[v];
	gq_member *m = c->a->alloc(c->a->ctx, sizeof(gq_member) * (nd->nkids + 1));
	uint32_t i;

	for (i = 0; i <= nd->nkids; i++)
	{
		uint32_t w = i < nd->nkids ? c->kids[nd->first_kid + i] : v;
		const gq_node *ch = &c->nodes[w];

		FS_POLL(i);
		m[i].node = w;
		m[i].pos = i;
		m[i].got = 0;
		m[i].share = 0;
		if (w == v)
			m[i].want = ch->requested > 0 ? ch->requested : 0;
		else
			m[i].want = ch->accept && ch->subtree_requested > 0 ? ch->subtree_requested : 0;
	}
	*k = nd->nkids + 1;
	return m;
}

/*
 * hgq_allocate_surplus: the group shares surplus with its children on an equal footing; when
 * it cannot satisfy them all, first in proportion to their quotas, then what remains equally
 * among those with zero quota. Each child's part goes down its subtree the same way.
 */
static double
allocate_surplus(gq_ctx *c, uint32_t v, double surplus)
{
	gq_node *nd = &c->nodes[v];
	double requested = nd->subtree_requested, given = 0;
	gq_member *m;
	uint32_t k, i;

	if (surplus <= 0)
		return 0;
	if (requested <= 0)
		return surplus;
	m = level(c, v, &k);
	if (surplus >= requested)
	{
		for (i = 0; i < k; i++)
			m[i].got = m[i].want;
		surplus -= requested;
	}
	else
	{
		water_fill(c, m, k, true, &surplus);
		water_fill(c, m, k, false, &surplus);
	}
	for (i = 0; i < k; i++)
	{
		FS_POLL(i);
		given += m[i].got;
		if (i + 1 < k && m[i].got > 0)
			(void) allocate_surplus(c, m[i].node, m[i].got);
	}
	nd->allocated += m[k - 1].got;
	nd->requested -= m[k - 1].got;
	nd->subtree_requested = requested - given > 0 ? requested - given : 0;
	c->a->release(c->a->ctx, m);
	return surplus;
}

/* hgq_fairshare: serve each group from its own quota, then share the surplus bottom-up. */
static double
fairshare(gq_ctx *c, uint32_t v)
{
	gq_node *nd = &c->nodes[v];
	double surplus;
	uint32_t k;

	nd->allocated = nd->requested < nd->quota ? nd->requested : nd->quota;
	nd->requested -= nd->allocated;
	nd->subtree_requested = nd->requested;
	surplus = nd->quota - nd->allocated;
	if (nd->nkids == 0)
		return surplus;
	for (k = 0; k < nd->nkids; k++)
	{
		uint32_t w = c->kids[nd->first_kid + k];

		FS_POLL(k);
		surplus += fairshare(c, w);
		if (c->nodes[w].accept)
			c->nodes[v].subtree_requested += c->nodes[w].subtree_requested;
	}
	return allocate_surplus(c, v, surplus);
}

/* ---------------------------------------------------------------- whole slots */

static int
rr_order(const void *x, const void *y, void *ctx)
{
	const gq_ctx *c = ctx;
	const gq_member *a = *(const gq_member *const *) x, *b = *(const gq_member *const *) y;

	/* more quota first, then more demand; HTCondor sorts first by the time a group was last
	 * served by round robin, which is the same for every group in one cycle */
	if (a->share != b->share)
		return a->share > b->share ? -1 : 1;
	if (a->want != b->want)
		return a->want > b->want ? -1 : 1;
	(void) c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * hgq_round_robin: whole slots of surplus go round the group and its children, at most
 * max(1, floor(surplus / groups still wanting)) each per pass, in order of quota, then demand.
 */
static double
round_robin(gq_ctx *c, uint32_t v, double surplus)
{
	gq_node *nd = &c->nodes[v];
	double requested = floor(nd->subtree_requested);
	gq_member *m, **order;
	uint32_t k, i, outstanding = 0, pass = 0;

	if (requested <= 0 || surplus < 1)
		return surplus;
	m = level(c, v, &k);
	order = c->a->alloc(c->a->ctx, sizeof(gq_member *) * k);
	for (i = 0; i < k; i++)
	{
		FS_POLL(i);
		m[i].share = i + 1 < k ? c->nodes[m[i].node].subtree_quota : nd->quota;
		order[i] = &m[i];
		outstanding += m[i].want > 0;
	}
	fs_sort(order, k, sizeof(gq_member *), rr_order, c, c->a);
	/* passes until less than a slot is left or no member wants more; a pass that gives less
	 * than a whole slot ends it */
	while (surplus >= 1 && requested > 0 && outstanding > 0)
	{
		double amax = floor(surplus / outstanding), sum = 0;

		FS_POLL(pass++);
		if (amax < 1)
			amax = 1;
		outstanding = 0;
		for (i = 0; i < k; i++)
		{
			gq_member *g = order[i];
			double x;

			if (!(g->want > 0))
				continue;
			x = g->want < amax ? g->want : amax;
			g->got += x;
			g->want -= x;
			sum += x;
			surplus -= x;
			requested -= x;
			outstanding += g->want > 0;
			if (surplus < amax)
				break;
		}
		if (sum < 1)
			break;
		if (outstanding == 0) /* the pass stopped early: count who still wants */
			for (i = 0; i < k; i++)
				outstanding += m[i].want > 0;
	}
	for (i = 0; i + 1 < k; i++)
	{
		FS_POLL(i);
		if (m[i].got > 0)
			(void) round_robin(c, m[i].node, m[i].got);
	}
	nd->allocated += m[k - 1].got;
	nd->requested -= m[k - 1].got;
	nd->subtree_requested = requested > 0 ? requested : 0;
	c->a->release(c->a->ctx, order);
	c->a->release(c->a->ctx, m);
	return surplus;
}

/*
 * Whole slots are counted as integers. Each allocation splits into its whole slots and a
 * remainder; remainders are counted in ticks of 2^-32 slot, so that their sum is exact, and
 * with a bound on their error: rounding to a tick (half a tick each) and the rounding of the
 * float computation that produced them (a few units in the last place of the pool). Remainders
 * whose sum comes within that bound of a whole slot make that slot: summed as doubles, the
 * remainders of three allocations of 11/3 slots come to 1.9999999999999996 and one of their two
 * slots would be lost. No round robin hands out more than the pool has left (slots_left).
 */
#define GQ_TICK_BITS 32
#define GQ_TICKS     ((uint64_t) 1 << GQ_TICK_BITS)

typedef struct gq_rest
{
	uint64_t ticks; /* the remainders not yet handed out */
	uint64_t slack; /* the most by which ticks may fall short of their exact sum */
} gq_rest;

static uint64_t
add_sat(uint64_t x, uint64_t y)
{
	return x > UINT64_MAX - y ? UINT64_MAX : x + y;
}

static uint64_t
to_ticks(double slots)
{
	double t = floor(0.5 + slots * (double) GQ_TICKS);

	return t <= 0 ? 0 : t >= 18446744073709549568.0 ? UINT64_MAX - 2047 : (uint64_t) t;
}

/*
 * hgq_recover_remainders: with whole slots, each allocation is rounded down and the remainders
 * become surplus, shared again by round robin from the bottom up; returns what is left over.
 */
static gq_rest
recover_remainders(gq_ctx *c, uint32_t v, double pool, double *slots_left)
{
	gq_node *nd = &c->nodes[v];
	double fraction = nd->allocated - floor(nd->allocated), whole, left;
	gq_rest rest;
	uint64_t used;
	uint32_t k;

	/* half a tick for rounding, 64 units in the last place of the pool for the float sums */
	rest.ticks = to_ticks(fraction);
	rest.slack = add_sat(1, to_ticks(ldexp(pool, -46)));
	nd->allocated = floor(0.5 + (nd->allocated - fraction));
	nd->requested = floor(0.5 + (nd->requested + fraction));
	nd->subtree_requested = nd->requested;
	for (k = 0; k < nd->nkids; k++)
	{
		uint32_t w = c->kids[nd->first_kid + k];
		gq_rest kid;

		FS_POLL(k);
		kid = recover_remainders(c, w, pool, slots_left);
		rest.ticks = add_sat(rest.ticks, kid.ticks);
		rest.slack = add_sat(rest.slack, kid.slack);
		if (c->nodes[w].accept)
			nd->subtree_requested += c->nodes[w].subtree_requested;
	}
	if (nd->nkids == 0)
		return rest;
	whole = (double) (add_sat(rest.ticks, rest.slack) >> GQ_TICK_BITS);
	if (whole > *slots_left)
		whole = *slots_left;
	left = round_robin(c, v, whole);
	*slots_left -= whole - left;
	/* the slots handed out come out of the remainders, and out of the slack where they fell
	 * short; the slots no one took stay remainders */
	used = (uint64_t) (whole - left) << GQ_TICK_BITS;
	if (used > rest.ticks)
	{
		rest.slack = used - rest.ticks < rest.slack ? rest.slack - (used - rest.ticks) : 0;
		rest.ticks = 0;
	}
	else
		rest.ticks -= used;
	return rest;
}

/* The whole slots of the pool that no allocation holds once every allocation is rounded down. */
static double
slots_unallocated(const gq_ctx *c, double pool)
{
	double held = 0;
	uint32_t i;

	for (i = 0; i < c->n; i++)
	{
		FS_POLL(i);
		held += floor(c->nodes[i].allocated);
	}
	return pool > held ? pool - held : 0;
}

/* ---------------------------------------------------------------- entry point */

static void
emit(const gq_ctx *c, uint32_t v, const fs_gq_group *g, fs_gq_row *rows, size_t *at)
{
	const gq_node *nd = &c->nodes[v];
	fs_gq_row *r = &rows[(*at)++];
	uint32_t k;

	FS_POLL(*at);
	r->group = nd->group;
	r->depth = nd->depth;
	r->quota = nd->quota;
	r->subtree_quota = nd->subtree_quota;
	r->requested = nd->group == SIZE_MAX ? 0 : g[nd->group].demand;
	r->allocated = nd->allocated;
	r->surplus = nd->allocated > nd->quota ? nd->allocated - nd->quota : 0;
	for (k = 0; k < nd->nkids; k++)
		emit(c, c->kids[nd->first_kid + k], g, rows, at);
}

fs_status
fs_group_quotas(const fs_gq_group *groups, size_t n, const fs_gq_options *opt,
                const fs_allocator *a, fs_gq_row **out, size_t *nout, fs_error *err)
{
	gq_ctx c;
	fs_status st;
	size_t i, at = 0;
	bool autoregroup = false;

	if (n >= UINT32_MAX - 1)
		return fs_fail(err, FS_ERR_LIMIT, "too many groups: %zu", n);
	st = check_options(opt, err);
	if (st != FS_OK)
		return st;
	memset(&c, 0, sizeof(c));
	c.a = a;
	st = build(&c, groups, n, opt, err);
	if (st != FS_OK)
	{
		if (c.nodes)
			a->release(a->ctx, c.nodes);
		return st;
	}
	assign_quotas(&c, 0, opt->pool, opt->allow_oversubscription);
	/* <none> keeps what its children leave of the pool, however they were scaled */
	(void) fairshare(&c, 0);
	if (!opt->use_slot_weights)
	{
		/* oversubscribed allocations may already hold more than the pool: HTCondor then
		 * hands out the remainders without regard to it */
		double left = opt->allow_oversubscription ? HUGE_VAL : slots_unallocated(&c, opt->pool);

		(void) recover_remainders(&c, 0, opt->pool, &left);
		/* slots the remainders' error bound still missed go round from the top */
		if (left >= 1 && !opt->allow_oversubscription)
			(void) round_robin(&c, 0, left);
	}
	for (i = 0; i < n; i++)
		autoregroup = autoregroup || groups[i].autoregroup;
	if (autoregroup)
	{
		/* the autoregroup groups negotiate again in <none> for whatever the pool has left */
		c.nodes[0].quota = opt->pool;
		c.nodes[0].allocated = opt->pool;
	}
	*out = a->alloc(a->ctx, sizeof(fs_gq_row) * c.n);
	emit(&c, 0, groups, *out, &at);
	(*out)[0].requested = opt->none_demand;
	*nout = at;
	a->release(a->ctx, c.nodes);
	a->release(a->ctx, c.kids);
	return FS_OK;
}
