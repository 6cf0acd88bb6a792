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

static int
cmp_elem(const void *a, const void *b, void *ctx)
{
	const vh_elem *p = a, *q = b;

	(void) ctx;
	return fs_sp_cmp(p->path, q->path);
}

/* k amounts of a resvec on the cluster's resources; unnamed ones get `missing`. */
static double *
amounts(Datum d, bool isnull, const uint8_t *total, int k, double missing, const char *what,
        const char *arr, int row)
{
	double *out = palloc(sizeof(double) * (k ? k : 1));
	const uint8_t *rv;
	fs_rv_iter it, tt;
	fs_rv_item x, y;
	int r = 0;

	for (r = 0; r < k; r++)
		out[r] = missing;
	if (isnull)
		return out;
	rv = (const uint8_t *) VARDATA_ANY(PG_DETOAST_DATUM_PACKED(d));
	fs_rv_iter_init(&it, rv);
	while (fs_rv_next(&it, &x))
	{
		if (x.amount < 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("%s[%d] has a negative %s: \"%.*s\"", arr, row, what,
			                       (int) x.namelen, x.name),
			                errhint("Amounts must not be negative.")));
		fs_rv_iter_init(&tt, total);
		for (r = 0; fs_rv_next(&tt, &y); r++)
			if (fs_rv_name_cmp(x.name, x.namelen, y.name, y.namelen) == 0)
			{
				if (x.kind != y.kind)
					ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
					                errmsg("%s[%d] has %s \"%.*s\" as a %s, the total as a %s", arr,
					                       row, what, (int) x.namelen, x.name, fs_kind_name(x.kind),
					                       fs_kind_name(y.kind)),
					                errhint("Give each resource in one kind everywhere.")));
				out[r] = x.amount;
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

static Datum
share_vec(const double *v, const uint8_t *total, int k)
{
	fs_rv_item *items = palloc(sizeof(fs_rv_item) * (k ? k : 1));
	fs_rv_iter it;
	fs_rv_item y;
	uint8_t *out;
	size_t len;
	fs_error err;
	int r;

	fs_rv_iter_init(&it, total);
	for (r = 0; fs_rv_next(&it, &y); r++)
	{
		items[r] = y;
		items[r].kind = FS_KIND_COUNT;
		items[r].amount = v[r];
	}
	fs_pg_check(
	    fs_rv_build(items, (size_t) k, FS_ERR_VALUE, &fs_pg_alloc, VARHDRSZ, &out, &len, &err),
	    &err);
	return PointerGetDatum(fs_pg_varlena(out, len));
}

static const char *
resource_name(const uint8_t *total, int64_t r)
{
	fs_rv_iter it;
	fs_rv_item y;
	int64_t i;

	if (r < 0)
		return NULL;
	fs_rv_iter_init(&it, total);
	for (i = 0; fs_rv_next(&it, &y); i++)
		if (i == r)
			return pnstrdup(y.name, y.namelen);
	return NULL;
}

PG_FUNCTION_INFO_V1(vector_fair_share);
Datum
vector_fair_share(PG_FUNCTION_ARGS)
{
	static const char *const pool_fields[] = {"path", "weight", "strong_guarantee",
	                                          "resource_limits", "mode"};
	static const char *const op_fields[] = {"path",   "demand", "usage",
	                                        "weight", "gang",   "resource_limits"};
	ArrayType *pools = PG_GETARG_ARRAYTYPE_P(0), *ops = PG_GETARG_ARRAYTYPE_P(1);
	const uint8_t *total = (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(2));
	text *main_name = PG_GETARG_TEXT_PP(3);
	fs_vh_options opt = {-1, PG_GETARG_BOOL(4)};
	int k = (int) fs_rv_count(total), np, no, i, r, pf[5], of[6];
	fs_pg_row_reader rd;
	Datum *pe, *oe;
	vh_elem *el;
	size_t n = 0, cap, j, m;
	fs_vh_node *nodes;
	fs_vh_result *res;
	int64_t *stack;
	size_t depth;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_error err;
	fs_rv_iter it;
	fs_rv_item y;
	uint8_t *root;
	size_t rootlen;

	fs_rv_iter_init(&it, total);
	for (r = 0; fs_rv_next(&it, &y); r++)
	{
		if (y.amount < 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("the total of \"%.*s\" is negative", (int) y.namelen, y.name),
			                errhint("The cluster's totals must not be negative.")));
		if ((size_t) VARSIZE_ANY_EXHDR(main_name) == y.namelen &&
		    memcmp(VARDATA_ANY(main_name), y.name, y.namelen) == 0)
			opt.main_resource = r;
	}
	if (k > FS_VH_RESOURCES_MAX)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		                errmsg("too many resources for vector fair share: %d", k),
		                errdetail("The limit is %d.", FS_VH_RESOURCES_MAX),
		                errhint("Give the cluster's totals only the resources that matter.")));
	pe = fs_pg_rows_open(&rd, pools, "pools", "hdrf_pool", pool_fields, 5, pf, &np);
	cap = 16;
	el = palloc(sizeof(vh_elem) * cap);
	for (i = 0; i < np; i++)
	{
		vh_elem e;

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&rd, pe[i]);
		memset(&e, 0, sizeof(e));
		e.path = path_field(&rd, pf[0], "pools", i + 1);
		e.given = true;
		e.row = i + 1;
		e.node.weight = weight_field(&rd, pf[1], "pools", i + 1);
		e.node.strong = rd.nulls[pf[2]] ? NULL
		                                : amounts(rd.values[pf[2]], false, total, k, NAN,
		                                          "strong guarantee", "pools", i + 1);
		e.node.limits = rd.nulls[pf[3]] ? NULL
		                                : amounts(rd.values[pf[3]], false, total, k, INFINITY,
		                                          "limit", "pools", i + 1);
		e.node.fifo = mode_field(&rd, pf[4], i + 1);
		if (n == cap)
			el = repalloc_huge(el, sizeof(vh_elem) * (cap *= 2));
		el[n++] = e;
	}
	fs_pg_reader_close(&rd);
	oe = fs_pg_rows_open(&rd, ops, "operations", "hdrf_operation", op_fields, 6, of, &no);
	for (i = 0; i < no; i++)
	{
		vh_elem e;

		CHECK_FOR_INTERRUPTS();
		fs_pg_reader_read(&rd, oe[i]);
		memset(&e, 0, sizeof(e));
		e.path = path_field(&rd, of[0], "operations", i + 1);
		if (fs_sp_nlevel(e.path) == 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("operations[%d] has an empty path", i + 1),
			                errhint("An operation's path is its pool's and its own name.")));
		e.is_op = e.given = true;
		e.row = i + 1;
		e.node.is_operation = true;
		e.node.order = i; /* a FIFO pool runs its operations in the array's order */
		e.node.demand =
		    amounts(rd.values[of[1]], rd.nulls[of[1]], total, k, 0, "demand", "operations", i + 1);
		e.node.usage =
		    amounts(rd.values[of[2]], rd.nulls[of[2]], total, k, 0, "usage", "operations", i + 1);
		for (r = 0; r < k; r++)
			if (e.node.usage[r] > e.node.demand[r])
				ereport(ERROR,
				        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				         errmsg("operations[%d] uses more of \"%s\" than it demands", i + 1,
				                resource_name(total, r)),
				         errdetail("Usage %g, demand %g.", e.node.usage[r], e.node.demand[r]),
				         errhint("An operation's demand includes what it uses, as in YTsaurus.")));
		e.node.weight = weight_field(&rd, of[3], "operations", i + 1);
		e.node.gang = !rd.nulls[of[4]] && DatumGetBool(rd.values[of[4]]);
		e.node.limits = rd.nulls[of[5]] ? NULL
		                                : amounts(rd.values[of[5]], false, total, k, INFINITY,
		                                          "limit", "operations", i + 1);
		if (n == cap)
			el = repalloc_huge(el, sizeof(vh_elem) * (cap *= 2));
		el[n++] = e;
	}
	fs_pg_reader_close(&rd);

	/* the ancestors that no row names, and the root */
	m = n;
	for (j = 0; j < m; j++)
	{
		uint32_t d, lv = fs_sp_nlevel(el[j].path);

		CHECK_FOR_INTERRUPTS();
		for (d = 0; d < lv; d++)
		{
			vh_elem e;
			size_t len;

			memset(&e, 0, sizeof(e));
			fs_sp_slice(el[j].path, 0, d, &fs_pg_alloc, 0, &e.path, &len);
			e.node.weight = 1;
			if (n == cap)
				el = repalloc_huge(el, sizeof(vh_elem) * (cap *= 2));
			el[n++] = e;
		}
	}
	if (n == 0)
	{
		fs_pg_check(fs_sp_from_labels(NULL, NULL, 0, &fs_pg_alloc, 0, &root, &rootlen, &err), &err);
		el[n].path = root;
		el[n].is_op = el[n].given = false;
		el[n].row = 0;
		memset(&el[n].node, 0, sizeof(fs_vh_node));
		el[n].node.weight = 1;
		n++;
	}
	fs_sort(el, n, sizeof(vh_elem), cmp_elem, NULL, &fs_pg_alloc);
	/* merge equal paths: a named row wins over an implied one; two named rows are an error */
	m = 0;
	for (j = 0; j < n; j++)
	{
		if (m > 0 && fs_sp_cmp(el[m - 1].path, el[j].path) == 0)
		{
			if (el[m - 1].given && el[j].given)
			{
				fs_path_text pt;

				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("\"%s\" is given twice", fs_sp_text(el[j].path, &pt)),
				                errhint("Give each pool and operation one row.")));
			}
			if (el[j].given)
				el[m - 1] = el[j];
			continue;
		}
		el[m++] = el[j];
	}
	n = m;
	nodes = palloc(sizeof(fs_vh_node) * n);
	stack = palloc(sizeof(int64_t) * (n + 1));
	depth = 0;
	for (j = 0; j < n; j++)
	{
		while (depth > 0 && !fs_sp_is_ancestor(el[stack[depth - 1]].path, el[j].path))
			depth--;
		nodes[j] = el[j].node;
		nodes[j].parent = depth > 0 ? stack[depth - 1] : -1;
		if (depth > 0 && el[stack[depth - 1]].node.fifo && !el[j].is_op)
			bad_child(el[stack[depth - 1]].path, el[j].path,
			          "FIFO pool \"%s\" has pool \"%s\" below it",
			          "A FIFO pool holds operations only, as in YTsaurus.");
		if (depth > 0 && el[stack[depth - 1]].is_op)
			bad_child(el[stack[depth - 1]].path, el[j].path, "operation \"%s\" has \"%s\" below it",
			          "Operations are leaves: put them inside pools.");
		stack[depth++] = (int64_t) j;
	}
	res = palloc(sizeof(fs_vh_result) * n);
	fs_pg_check(fs_vh_compute(nodes, n,
	                          amounts(PointerGetDatum(PG_GETARG_VARLENA_PP(2)), false, total, k, 0,
	                                  "total", "total", 1),
	                          (size_t) k, &opt, &fs_pg_alloc, res, &err),
	            &err);

	InitMaterializedSRF(fcinfo, 0);
	for (j = 0; j < n; j++)
	{
		Datum values[18];
		bool nulls[18];
		const fs_vh_result *o = &res[j];
		const char *dom = resource_name(total, o->dominant);
		const char *br = resource_name(total, o->bound_resource);
		int c = 0;

		CHECK_FOR_INTERRUPTS();
		memset(nulls, 0, sizeof(nulls));
		{
			size_t plen = fs_sp_size(el[j].path);
			uint8_t *buf = palloc(VARHDRSZ + plen);

			memcpy(buf + VARHDRSZ, el[j].path, plen);
			values[c++] = PointerGetDatum(fs_pg_varlena(buf, plen));
		}
		values[c++] = Int32GetDatum((int32) fs_sp_nlevel(el[j].path));
		values[c++] = BoolGetDatum(el[j].is_op);
		values[c++] = Float8GetDatum(nodes[j].weight);
		values[c++] = share_vec(o->demand, total, k);
		values[c++] = share_vec(o->usage, total, k);
		values[c++] = share_vec(o->limits, total, k);
		values[c++] = share_vec(o->strong, total, k);
		values[c++] = share_vec(o->fair_share, total, k);
		values[c++] = share_vec(o->strong_part, total, k);
		values[c++] = share_vec(o->integral_part, total, k);
		values[c++] = share_vec(o->weight_part, total, k);
		values[c++] = Float8GetDatum(o->suggestion);
		values[c++] = Float8GetDatum(o->fit_factor);
		nulls[c] = dom == NULL;
		values[c++] = dom ? CStringGetTextDatum(dom) : (Datum) 0;
		values[c++] = Float8GetDatum(o->dominant_fair_share);
		values[c++] = CStringGetTextDatum(fs_vh_bound_name(o->bound));
		nulls[c] = br == NULL;
		values[c++] = br ? CStringGetTextDatum(br) : (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
