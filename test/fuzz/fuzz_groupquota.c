/*
 * fuzz_groupquota.c: libFuzzer harness for fs_group_quotas on random group trees. The input is
 * an options byte, the pool and none_demand, then four bytes per group: its parent (an earlier
 * group or the root), its quota, its demand and its flags. Small whole numbers make the trees
 * where rounding matters likely. Properties (abort on a violation): every allocation lies within
 * 0 and the group's demand, the surplus is what it got beyond its quota, the pool is never
 * over-allocated, with whole slots every allocation is a whole number, and when every group
 * accepts surplus every slot that demand can take is handed out.
 */
#include "fuzz_alloc.h"
#include "share/groupquota.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 48
#define NAME_LEN   160

/* The tree and the rows, to read a failing input. */
static void
dump(const fs_gq_group *g, size_t n, const fs_gq_options *opt, const fs_gq_row *rows, size_t nrows)
{
	size_t i;

	fprintf(stderr, "pool %.17g none_demand %.17g slot weights %d\n", opt->pool, opt->none_demand,
	        opt->use_slot_weights);
	for (i = 0; i < n; i++)
		fprintf(stderr, "  group %s quota %.17g%s accept %d demand %.17g\n", g[i].name, g[i].quota,
		        g[i].dynamic ? " (dynamic)" : "", g[i].accept_surplus, g[i].demand);
	for (i = 0; i < nrows; i++)
		fprintf(stderr, "  row %s quota %.17g allocated %.17g surplus %.17g\n",
		        rows[i].group == SIZE_MAX ? FS_GQ_ROOT_NAME : g[rows[i].group].name, rows[i].quota,
		        rows[i].allocated, rows[i].surplus);
}

static void
fail(const char *what, const fs_gq_group *g, size_t n, const fs_gq_options *opt,
     const fs_gq_row *rows, size_t nrows)
{
	fprintf(stderr, "%s\n", what);
	dump(g, n, opt, rows, nrows);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_gq_group g[MAX_GROUPS];
	char names[MAX_GROUPS][NAME_LEN];
	fs_gq_options opt;
	fs_gq_row *rows = NULL;
	size_t n, i, nrows = 0;
	double total = 0, demand, slack;
	bool all_accept = true, whole;
	fs_error err;
	fs_status st;

	if (size < 3)
		return 0;
	whole = (data[0] & 1) == 0;
	opt.use_slot_weights = !whole;
	opt.allow_oversubscription = (data[0] & 16) != 0;
	/* pools up to 255 slots, or a fraction of one with slot weights */
	opt.pool = (double) data[1] + (whole ? 0 : (double) ((data[0] >> 1) & 7) / 8);
	opt.none_demand = (double) (data[2] % 16);
	n = (size - 3) / 4;
	if (n > MAX_GROUPS)
		n = MAX_GROUPS;
	demand = opt.none_demand;
	for (i = 0; i < n; i++)
	{
		const uint8_t *p = data + 3 + 4 * i;
		size_t parent = p[0] % (i + 1); /* i: the root */
		uint8_t flags = p[3];

		if (parent == i || strlen(names[parent]) + 8 >= NAME_LEN)
			snprintf(names[i], NAME_LEN, "g%zu", i);
		else
			snprintf(names[i], NAME_LEN, "%s.g%zu", names[parent], i);
		memset(&g[i], 0, sizeof(g[i]));
		g[i].name = names[i];
		g[i].namelen = strlen(names[i]);
		g[i].dynamic = (flags & 1) != 0;
		/* dynamic: a fraction in hundredths or thirds; static: 0 to 31 slots, some halves */
		if (g[i].dynamic)
			g[i].quota = flags & 2 ? (double) (p[1] % 4) / 3 : (double) (p[1] % 101) / 100;
		else
			g[i].quota = (double) (p[1] % 32) + (flags & 2 ? 0.5 : 0);
		g[i].accept_surplus = (flags & 4) == 0 || (flags & 8) == 0;
		g[i].demand = (double) (p[2] % 64) + (!whole && (flags & 16) ? 0.25 : 0);
		all_accept = all_accept && g[i].accept_surplus;
		demand += g[i].demand;
	}
	st = fs_group_quotas(g, n, &opt, &fz, &rows, &nrows, &err);
	if (st != FS_OK)
	{
		/* every input built here is valid */
		fprintf(stderr, "unexpected error: %s\n", err.message);
		abort();
	}
	if (nrows != n + 1 || rows[0].group != SIZE_MAX)
		fail("not one row per group and the root first", g, n, &opt, rows, nrows);
	for (i = 0; i < nrows; i++)
	{
		const fs_gq_row *r = &rows[i];
		double want = r->group == SIZE_MAX ? opt.none_demand : g[r->group].demand;

		if (r->group != SIZE_MAX && (r->group >= n || r->depth < 1))
			fail("a row names no group", g, n, &opt, rows, nrows);
		if (!isfinite(r->allocated) || r->allocated < -1e-9 || r->allocated > want + 1e-9 ||
		    r->requested != want)
			fail("an allocation outside 0 and the demand", g, n, &opt, rows, nrows);
		if (!isfinite(r->quota) || r->quota < -1e-9 || r->surplus < 0 ||
		    fabs(r->surplus - (r->allocated > r->quota ? r->allocated - r->quota : 0)) > 1e-9)
			fail("a quota or surplus out of bounds", g, n, &opt, rows, nrows);
		if (whole && r->allocated != floor(r->allocated))
			fail("a fraction of a slot allocated with whole slots", g, n, &opt, rows, nrows);
		total += r->allocated;
	}
	slack = whole ? 0 : 1e-9 * (opt.pool + demand + 1);
	/* oversubscribed quotas may add up past the pool (each allocation is still bounded by its
	 * demand, checked above) */
	if (!opt.allow_oversubscription && total > opt.pool + slack)
		fail("more allocated than the pool holds", g, n, &opt, rows, nrows);
	/* surplus flows up to the root and down to every group that accepts it, so nothing that
	 * demand could take stays in the pool */
	if (all_accept && total < (demand < opt.pool ? demand : opt.pool) - slack)
		fail("slots that demand could take left in the pool", g, n, &opt, rows, nrows);
	free(rows);
	return 0;
}
