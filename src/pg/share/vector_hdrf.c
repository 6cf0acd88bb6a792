/*
 * vector_hdrf.c (glue): vector_fair_share(pools hdrf_pool[], operations hdrf_operation[], total
 * resvec, ...): the pool tree from the two arrays (ancestors no row names are pools of weight
 * 1), vectors mapped onto the cluster's resources, and one row per element in pre-order.
 */
#include "fs_pg.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "share/vector_hdrf.h"
#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>

/* One element while the tree is built: its path and where its row came from. */
typedef struct vh_elem
{
	uint8_t *path; /* encoded sharepath */
	bool is_op, given;
	int row; /* 1-based row of its array, 0 when implied */
	fs_vh_node node;
} vh_elem;

/* What the elements are sorted by (small, so that the sort moves little). */
typedef struct vh_sortkey
{
	uint64_t key; /* the path's order-preserving prefix (fs_sp_prefix_key) */
	const uint8_t *path;
	size_t idx;
} vh_sortkey;

static int
cmp_key(const void *a, const void *b, void *ctx)
{
	const vh_sortkey *p = a, *q = b;

	(void) ctx;
	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return fs_sp_cmp(p->path, q->path);
}

/*
 * The cluster's resources: the total's entries in their (name) order, their names as text,
 * and an encoded resvec of them all (kind count) whose amounts the output fills in.
 */
typedef struct vh_total
{
	int k;
	fs_rv_item *items;
	Datum *names;
	uint8_t *tmpl; /* VARHDRSZ + the encoded form */
	size_t tmpl_len;
	size_t *off; /* byte offset of each amount in tmpl */
} vh_total;

static void
total_open(vh_total *t, const uint8_t *total)
{
	fs_rv_iter it;
	fs_rv_item y;
	size_t len = sizeof(uint32_t);
	uint32_t count;
	uint8_t *p;
	int r;

	t->k = (int) fs_rv_count(total);
	t->items = palloc(sizeof(fs_rv_item) * (t->k ? t->k : 1));
	t->names = palloc(sizeof(Datum) * (t->k ? t->k : 1));
	t->off = palloc(sizeof(size_t) * (t->k ? t->k : 1));
	fs_rv_iter_init(&it, total);
	for (r = 0; fs_rv_next(&it, &y); r++)
	{
		t->items[r] = y;
		t->names[r] = PointerGetDatum(cstring_to_text_with_len(y.name, (int) y.namelen));
		len += 2 + y.namelen + sizeof(double);
	}
	/* the layout of resvec.h: count, then kind, name length, name, amount per entry */
	t->tmpl_len = len;
	t->tmpl = palloc0(VARHDRSZ + len);
	SET_VARSIZE(t->tmpl, VARHDRSZ + len);
	p = t->tmpl + VARHDRSZ;
	count = (uint32_t) t->k;
	memcpy(p, &count, sizeof(count));
	p += sizeof(count);
	for (r = 0; r < t->k; r++)
	{
		*p++ = FS_KIND_COUNT;
		*p++ = (uint8_t) t->items[r].namelen;
		memcpy(p, t->items[r].name, t->items[r].namelen);
		p += t->items[r].namelen;
		t->off[r] = (size_t) (p - t->tmpl);
		p += sizeof(double);
	}
}

/* k amounts of a resvec on the cluster's resources (a merge: both are in name order). */
static double *
amounts(Datum d, bool isnull, const vh_total *tot, double missing, const char *what,
        const char *arr, int row)
{
	int k = tot->k, r = 0;
	double *out = palloc(sizeof(double) * (k ? k : 1));
	const uint8_t *rv;
	fs_rv_iter it;
	fs_rv_item x;

	for (r = 0; r < k; r++)
		out[r] = missing;
	if (isnull)
		return out;
	rv = (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(d));
	fs_rv_iter_init(&it, rv);
	r = 0;
	while (fs_rv_next(&it, &x))
	{
		int c = 1;

		if (x.amount < 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("%s[%d] has a negative %s: \"%.*s\"", arr, row, what,
			                       (int) x.namelen, x.name),
			                errhint("Amounts must not be negative.")));
		while (r < k && (c = fs_rv_name_cmp(tot->items[r].name, tot->items[r].namelen, x.name,
		                                    x.namelen)) < 0)
			r++;
		if (r < k && c == 0)
		{
			const fs_rv_item *y = &tot->items[r];

			if (x.kind != y->kind)
				ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
				                errmsg("%s[%d] has %s \"%.*s\" as a %s, the total as a %s", arr,
				                       row, what, (int) x.namelen, x.name, fs_kind_name(x.kind),
				                       fs_kind_name(y->kind)),
				                errhint("Give each resource in one kind everywhere.")));
			out[r++] = x.amount;
		}
	}
	return out;
}

static double
weight_field(const fs_pg_row_reader *rd, int f, const char *arr, int row)
{
	double w;

	if (rd->nulls[f])
		return 1;
	w = DatumGetFloat8(rd->values[f]);
	if (!(w >= 0) || isinf(w))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("%s[%d] has an invalid weight: %g", arr, row, w),
		                errhint("A weight must be finite and not negative; NULL means 1.")));
	return w;
}

/* An element that cannot be below its parent. */
static FS_NORETURN_BEFORE void bad_child(const uint8_t *parent, const uint8_t *child,
                                         const char *fmt, const char *hint) FS_NORETURN_AFTER;
static void
bad_child(const uint8_t *parent, const uint8_t *child, const char *fmt, const char *hint)
{
	fs_path_text pt, pu;

	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
	                errmsg_internal(fmt, fs_sp_text(parent, &pt), fs_sp_text(child, &pu)),
	                errhint("%s", hint)));
}

/* A pool's mode: NULL or fair_share (false), fifo (true). */
static bool
mode_field(const fs_pg_row_reader *rd, int f, int row)
{
	size_t len;
	const char *m = fs_pg_text_field(rd->values[f], rd->nulls[f], &len);

	if (m == NULL || (len == 10 && memcmp(m, "fair_share", 10) == 0))
		return false;
	if (len == 4 && memcmp(m, "fifo", 4) == 0)
		return true;
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
	                errmsg("pools[%d] has an unknown mode: \"%.*s\"", row, (int) len, m),
	                errhint("The modes are fair_share (the default) and fifo.")));
	return false;
}

static uint8_t *
path_field(const fs_pg_row_reader *rd, int f, const char *arr, int row)
{
	if (rd->nulls[f])
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
		                errmsg("%s[%d] has a NULL path", arr, row),
		                errhint("Every pool and operation needs its path.")));
	return (uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(rd->values[f]));
}

/* A vector of shares as a resvec on the cluster's resources, in buf (reused row after row). */
static Datum
share_vec(const double *v, const vh_total *tot, uint8_t *buf)
{
	int r;

	memcpy(buf, tot->tmpl, VARHDRSZ + tot->tmpl_len);
	for (r = 0; r < tot->k; r++)
	{
		double x = v[r] == 0 ? 0 : v[r]; /* canonical: no -0 */

		memcpy(buf + tot->off[r], &x, sizeof(double));
	}
	return PointerGetDatum(buf);
}

/* The FIFO pools of `fifo_reordering`: each must be a FIFO pool of the tree. */
static void
mark_reordering(ArrayType *arr, vh_elem *el, size_t n)
{
	Datum *v;
	bool *nulls;
	int m, i;

	fs_pg_check_1d(arr, "fifo_reordering");
	deconstruct_array(arr, ARR_ELEMTYPE(arr), -1, false, TYPALIGN_INT, &v, &nulls, &m);
	for (i = 0; i < m; i++)
	{
		const uint8_t *p;
		size_t lo = 0, hi = n;
		fs_path_text pt;

		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("fifo_reordering[%d] is NULL", i + 1),
			                errhint("Name the FIFO pools that reorder their operations.")));
		p = (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(v[i]));
		/* the elements are in path order */
		while (lo < hi)
		{
			size_t mid = lo + (hi - lo) / 2;

			if (fs_sp_cmp(el[mid].path, p) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || fs_sp_cmp(el[lo].path, p) != 0 || el[lo].is_op || !el[lo].node.fifo)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("fifo_reordering[%d] is not a FIFO pool: \"%s\"", i + 1,
			                       fs_sp_text(p, &pt)),
			                errhint("Name pools of the pools array whose mode is fifo.")));
		el[lo].node.fifo_reorder = true;
	}
}

/* Append an element, growing the array. */
static void
push_elem(vh_elem **el, size_t *n, size_t *cap, const vh_elem *e)
{
	if (*n == *cap)
		*el = repalloc_huge(*el, sizeof(vh_elem) * (*cap *= 2));
	(*el)[(*n)++] = *e;
}

/*
 * The given elements (sorted by path) in pre-order with the ancestors no row names (pools of
 * weight 1) and the root added, parents set. O(n depth) after the sort.
 */
static vh_elem *
with_ancestors(const vh_elem *given, const vh_sortkey *keys, size_t ng, size_t *np)
{
	size_t cap = ng + 16, n = 0, depth = 0, j;
	vh_elem *el = palloc(sizeof(vh_elem) * cap);
	size_t *stack = palloc(sizeof(size_t) * (FS_SP_DEPTH_MAX + 2));

	/* the root, when no row names it (a pool with the empty path) */
	if (ng == 0 || fs_sp_nlevel(keys[0].path) > 0)
	{
		vh_elem e;
		size_t len;
		fs_error err;

		memset(&e, 0, sizeof(e));
		fs_pg_check(fs_sp_from_labels(NULL, NULL, 0, &fs_pg_alloc, 0, &e.path, &len, &err), &err);
		e.node.weight = 1;
		e.node.parent = -1;
		push_elem(&el, &n, &cap, &e);
		stack[depth++] = 0;
	}
	for (j = 0; j < ng; j++)
	{
		const vh_elem *g = &given[keys[j].idx];
		const uint8_t *path = g->path;
		uint32_t lv = fs_sp_nlevel(path), d;

		CHECK_FOR_INTERRUPTS();
		if (j > 0 && fs_sp_cmp(keys[j - 1].path, path) == 0)
		{
			fs_path_text pt;

			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("\"%s\" is given twice", fs_sp_text(path, &pt)),
			                errhint("Give each pool and operation one row.")));
		}
		while (depth > 0 && !fs_sp_is_ancestor(el[stack[depth - 1]].path, path))
			depth--;
		/* the implied ancestors between the deepest one present and this element */
		for (d = depth > 0 ? fs_sp_nlevel(el[stack[depth - 1]].path) + 1 : 0; d < lv; d++)
		{
			vh_elem e;
			size_t len;

			memset(&e, 0, sizeof(e));
			fs_sp_slice(path, 0, d, &fs_pg_alloc, 0, &e.path, &len);
			e.node.weight = 1;
			e.node.parent = (int64_t) stack[depth - 1];
			if (el[stack[depth - 1]].is_op)
				bad_child(el[stack[depth - 1]].path, e.path, "operation \"%s\" has \"%s\" below it",
				          "Operations are leaves: put them inside pools.");
			if (el[stack[depth - 1]].node.fifo)
				bad_child(el[stack[depth - 1]].path, e.path,
				          "FIFO pool \"%s\" has pool \"%s\" below it",
				          "A FIFO pool holds operations only, as in YTsaurus.");
			push_elem(&el, &n, &cap, &e);
			stack[depth++] = n - 1;
		}
		if (depth > 0)
		{
			const vh_elem *p = &el[stack[depth - 1]];

			if (p->is_op)
				bad_child(p->path, path, "operation \"%s\" has \"%s\" below it",
				          "Operations are leaves: put them inside pools.");
			if (p->node.fifo && !g->is_op)
				bad_child(p->path, path, "FIFO pool \"%s\" has pool \"%s\" below it",
				          "A FIFO pool holds operations only, as in YTsaurus.");
		}
		push_elem(&el, &n, &cap, g);
		el[n - 1].node.parent = depth > 0 ? (int64_t) stack[depth - 1] : -1;
		stack[depth++] = n - 1;
	}
	*np = n;
	return el;
}

PG_FUNCTION_INFO_V1(vector_fair_share);
Datum
vector_fair_share(PG_FUNCTION_ARGS)
{
	static const char *const pool_fields[] = {"path", "weight", "strong_guarantee",
	                                          "resource_limits", "mode", "strong_guarantee_tier"};
	static const char *const op_fields[] = {"path",   "demand", "usage",
	                                        "weight", "gang",   "resource_limits"};
	ArrayType *pools = PG_GETARG_ARRAYTYPE_P(0), *ops = PG_GETARG_ARRAYTYPE_P(1);
	const uint8_t *total = (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(2));
	text *main_name = PG_GETARG_TEXT_PP(3);
	fs_vh_options opt;
	int np, no, i, r, pf[6], of[6];
	fs_pg_row_reader rd;
	Datum *pe, *oe, bounds[8], shares[8];
	vh_elem *given, *el;
	size_t ng = 0, n, j;
	fs_vh_node *nodes;
	fs_vh_result *res;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_error err;
	vh_total tot;
	uint8_t *vbuf, *pbuf;
	size_t pcap = 0;

	memset(&opt, 0, sizeof(opt));
	opt.main_resource = -1;
	opt.gang_step = PG_GETARG_BOOL(4);
	opt.improved = PG_NARGS() > 5 && PG_GETARG_BOOL(5);
	total_open(&tot, total);
	for (r = 0; r < tot.k; r++)
	{
		const fs_rv_item *y = &tot.items[r];

		if (y->amount < 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("the total of \"%.*s\" is negative", (int) y->namelen, y->name),
			                errhint("The cluster's totals must not be negative.")));
		if ((size_t) VARSIZE_ANY_EXHDR(main_name) == y->namelen &&
		    memcmp(VARDATA_ANY(main_name), y->name, y->namelen) == 0)
			opt.main_resource = r;
	}
	if (tot.k > FS_VH_RESOURCES_MAX)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		                errmsg("too many resources for vector fair share: %d", tot.k),
		                errdetail("The limit is %d.", FS_VH_RESOURCES_MAX),
		                errhint("Give the cluster's totals only the resources that matter.")));
	pe = fs_pg_rows_open(&rd, pools, "pools", "hdrf_pool", pool_fields, 6, pf, &np);
	oe = NULL;
	given = palloc(sizeof(vh_elem) *
	               ((size_t) np + (size_t) ArrayGetNItems(ARR_NDIM(ops), ARR_DIMS(ops)) + 1));
	for (i = 0; i < np; i++)
	{
		vh_elem *e = &given[ng++];

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&rd, pe[i]);
		memset(e, 0, sizeof(*e));
		e->path = path_field(&rd, pf[0], "pools", i + 1);
		e->given = true;
		e->row = i + 1;
		e->node.weight = weight_field(&rd, pf[1], "pools", i + 1);
		e->node.strong = rd.nulls[pf[2]] ? NULL
		                                 : amounts(rd.values[pf[2]], false, &tot, NAN,
		                                           "strong guarantee", "pools", i + 1);
		e->node.limits = rd.nulls[pf[3]] ? NULL
		                                 : amounts(rd.values[pf[3]], false, &tot, INFINITY, "limit",
		                                           "pools", i + 1);
		e->node.fifo = mode_field(&rd, pf[4], i + 1);
		e->node.tier = rd.nulls[pf[5]] ? 0 : DatumGetInt32(rd.values[pf[5]]);
	}
	fs_pg_reader_close(&rd);
	oe = fs_pg_rows_open(&rd, ops, "operations", "hdrf_operation", op_fields, 6, of, &no);
	for (i = 0; i < no; i++)
	{
		vh_elem *e = &given[ng++];

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&rd, oe[i]);
		memset(e, 0, sizeof(*e));
		e->path = path_field(&rd, of[0], "operations", i + 1);
		if (fs_sp_nlevel(e->path) == 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("operations[%d] has an empty path", i + 1),
			                errhint("An operation's path is its pool's and its own name.")));
		e->is_op = e->given = true;
		e->row = i + 1;
		e->node.is_operation = true;
		e->node.order = i; /* a FIFO pool runs its operations in the array's order */
		e->node.demand =
		    amounts(rd.values[of[1]], rd.nulls[of[1]], &tot, 0, "demand", "operations", i + 1);
		e->node.usage =
		    amounts(rd.values[of[2]], rd.nulls[of[2]], &tot, 0, "usage", "operations", i + 1);
		for (r = 0; r < tot.k; r++)
			if (e->node.usage[r] > e->node.demand[r])
				ereport(ERROR,
				        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				         errmsg("operations[%d] uses more of \"%.*s\" than it demands", i + 1,
				                (int) tot.items[r].namelen, tot.items[r].name),
				         errdetail("Usage %g, demand %g.", e->node.usage[r], e->node.demand[r]),
				         errhint("An operation's demand includes what it uses, as in YTsaurus.")));
		e->node.weight = weight_field(&rd, of[3], "operations", i + 1);
		e->node.gang = !rd.nulls[of[4]] && DatumGetBool(rd.values[of[4]]);
		e->node.limits = rd.nulls[of[5]] ? NULL
		                                 : amounts(rd.values[of[5]], false, &tot, INFINITY, "limit",
		                                           "operations", i + 1);
	}
	fs_pg_reader_close(&rd);

	/* pre-order is path order: sort, then add the ancestors that no row names and the root */
	{
		vh_sortkey *keys = palloc(sizeof(vh_sortkey) * (ng ? ng : 1));

		for (j = 0; j < ng; j++)
		{
			keys[j].key = fs_sp_prefix_key(given[j].path);
			keys[j].path = given[j].path;
			keys[j].idx = j;
		}
		fs_sort(keys, ng, sizeof(vh_sortkey), cmp_key, NULL, &fs_pg_alloc);
		el = with_ancestors(given, keys, ng, &n);
		pfree(keys);
		pfree(given);
	}
	if (PG_NARGS() > 6)
		mark_reordering(PG_GETARG_ARRAYTYPE_P(6), el, n);
	nodes = palloc(sizeof(fs_vh_node) * n);
	for (j = 0; j < n; j++)
		nodes[j] = el[j].node;
	res = palloc(sizeof(fs_vh_result) * n);
	{
		double *tv = palloc(sizeof(double) * (tot.k ? tot.k : 1));

		for (r = 0; r < tot.k; r++)
			tv[r] = tot.items[r].amount;
		fs_pg_check(fs_vh_compute(nodes, n, tv, (size_t) tot.k, &opt, &fs_pg_alloc, res, &err),
		            &err);
	}

	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < 8; i++)
		bounds[i] = CStringGetTextDatum(fs_vh_bound_name((fs_vh_bound) i));
	vbuf = palloc(8 * (VARHDRSZ + tot.tmpl_len));
	for (i = 0; i < 8; i++)
		shares[i] = PointerGetDatum(vbuf + i * (VARHDRSZ + tot.tmpl_len));
	pbuf = NULL;
	for (j = 0; j < n; j++)
	{
		Datum values[20];
		bool nulls[20];
		const fs_vh_result *o = &res[j];
		const double *vecs[8] = {o->demand,     o->usage,       o->limits,        o->strong,
		                         o->fair_share, o->strong_part, o->integral_part, o->weight_part};
		size_t plen = fs_sp_size(el[j].path);
		int c = 0;

		CHECK_FOR_INTERRUPTS();
		memset(nulls, 0, sizeof(nulls));
		if (VARHDRSZ + plen > pcap)
		{
			pcap = 2 * (VARHDRSZ + plen);
			pbuf = pbuf ? repalloc(pbuf, pcap) : palloc(pcap);
		}
		memcpy(pbuf + VARHDRSZ, el[j].path, plen);
		values[c++] = PointerGetDatum(fs_pg_varlena(pbuf, plen));
		values[c++] = Int32GetDatum((int32) fs_sp_nlevel(el[j].path));
		values[c++] = BoolGetDatum(el[j].is_op);
		values[c++] = Float8GetDatum(nodes[j].weight);
		for (i = 0; i < 8; i++)
			values[c++] = share_vec(vecs[i], &tot, (uint8_t *) DatumGetPointer(shares[i]));
		values[c++] = Float8GetDatum(o->suggestion);
		values[c++] = Float8GetDatum(o->fit_factor);
		nulls[c] = o->dominant < 0;
		values[c++] = o->dominant < 0 ? (Datum) 0 : tot.names[o->dominant];
		values[c++] = Float8GetDatum(o->dominant_fair_share);
		values[c++] = bounds[o->bound];
		nulls[c] = o->bound_resource < 0;
		values[c++] = o->bound_resource < 0 ? (Datum) 0 : tot.names[o->bound_resource];
		nulls[c] = o->fifo_index < 0;
		values[c++] = Int32GetDatum((int32) o->fifo_index);
		nulls[c] = o->effective_fifo_index < 0;
		values[c++] = Int32GetDatum((int32) o->effective_fifo_index);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
