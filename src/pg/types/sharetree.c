/*
 * sharetree.c (glue): the fairsched.sharetree type and its aggregates share_tree and pool_tree,
 * tree_nodes and merge. Inside an aggregate the tree is an expanded object (a hash table in its
 * own memory context) that the transition function updates in place; PostgreSQL flattens it
 * only when it leaves the aggregate (a parallel worker's partial state, a stored value).
 */
#include "fs_expanded.h"

#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "types/resvec.h"
#include "types/sharepath.h"
#include "types/sharetree.h"

/* a share or pool tree as an expanded object */
static fs_status
tree_prepare(void *obj, fs_error *err)
{
	return fs_tree_prepare(obj, err);
}

static size_t
tree_flat_size(const void *obj)
{
	return fs_tree_flat_size(obj);
}

static void
tree_flatten(const void *obj, uint8_t *out)
{
	fs_tree_flatten(obj, out);
}

static fs_status
tree_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, void **out, fs_error *err)
{
	return fs_tree_from_flat(a, data, len, (fs_tree **) out, err);
}

static const fs_pg_object_kind tree_kind = {"fairsched sharetree", tree_prepare, tree_flat_size,
                                            tree_flatten, tree_from_flat};

/* Trees read from arguments are looked at within the call: their paths stay in the datum. */
fs_tree *
fs_pg_read_tree(Datum d)
{
	const uint8_t *data;
	size_t len;
	fs_tree *t = fs_pg_object_or_flat(d, &data, &len);
	fs_error err;

	if (t == NULL)
		fs_pg_check(fs_tree_from_flat_borrowed(&fs_pg_alloc, data, len, &t, &err), &err);
	return t;
}

static struct varlena *
st_flat(fs_tree *t)
{
	return fs_pg_flat_object(t, &tree_kind);
}

/* The aggregate's tree to update in place (a new, empty one for the first row). */
static fs_pg_expanded *
st_agg_state(FunctionCallInfo fcinfo, fs_tree_kind kind)
{
	bool fresh;
	fs_pg_expanded *e = fs_pg_agg_state(fcinfo, &tree_kind, &fresh);

	if (fresh)
		e->obj = fs_tree_new(&e->alloc, kind);
	return e;
}

/* the bytes of a varlena argument (a sharepath or a resvec) */
static const uint8_t *
path_arg(FunctionCallInfo fcinfo, int n)
{
	return (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(n));
}

/* Add one row to the aggregate's tree; a row without a path names no node. */
static Datum
tree_step(FunctionCallInfo fcinfo, fs_tree_kind kind, fs_tree_row *row)
{
	fs_pg_expanded *et = st_agg_state(fcinfo, kind);
	fs_error err;

	fs_pg_check(fs_tree_add(et->obj, row, &err), &err);
	PG_RETURN_DATUM(EOHPGetRWDatum(&et->hdr));
}

static double
float_arg(FunctionCallInfo fcinfo, int n, bool *given)
{
	*given = !PG_ARGISNULL(n);
	return *given ? PG_GETARG_FLOAT8(n) : 0;
}

/* share_tree(path, shares, usage [, shares_from_parent]) transition */
PG_FUNCTION_INFO_V1(share_tree_accum);
Datum
share_tree_accum(PG_FUNCTION_ARGS)
{
	fs_tree_row row;
	bool given;

	if (PG_ARGISNULL(1))
		return fs_pg_keep_state(fcinfo);
	memset(&row, 0, sizeof(row));
	row.path = path_arg(fcinfo, 1);
	row.shares = float_arg(fcinfo, 2, &row.has_shares);
	row.usage = float_arg(fcinfo, 3, &given);
	row.from_parent = PG_NARGS() > 4 && !PG_ARGISNULL(4) && PG_GETARG_BOOL(4);
	return tree_step(fcinfo, FS_TREE_SHARE, &row);
}

/* pool_tree(path, weight, min_share_ratio, max_share_ratio, usage, demand) transition */
PG_FUNCTION_INFO_V1(pool_tree_accum);
Datum
pool_tree_accum(PG_FUNCTION_ARGS)
{
	fs_tree_row row;

	if (PG_ARGISNULL(1))
		return fs_pg_keep_state(fcinfo);
	memset(&row, 0, sizeof(row));
	row.path = path_arg(fcinfo, 1);
	row.shares = float_arg(fcinfo, 2, &row.has_shares);
	row.min_share = float_arg(fcinfo, 3, &row.has_min);
	row.max_share = float_arg(fcinfo, 4, &row.has_max);
	row.usage_vec = PG_ARGISNULL(5) ? NULL : path_arg(fcinfo, 5);
	row.demand_vec = PG_ARGISNULL(6) ? NULL : path_arg(fcinfo, 6);
	return tree_step(fcinfo, FS_TREE_POOL, &row);
}

/* combine function of both aggregates (strict) */
PG_FUNCTION_INFO_V1(sharetree_combine);
Datum
sharetree_combine(PG_FUNCTION_ARGS)
{
	fs_tree *other = fs_pg_read_tree(PG_GETARG_DATUM(1));
	fs_pg_expanded *et = st_agg_state(fcinfo, fs_tree_get_kind(other));
	fs_error err;

	fs_pg_check(fs_tree_merge(et->obj, other, &err), &err);
	PG_RETURN_DATUM(EOHPGetRWDatum(&et->hdr));
}

/*
 * merge(a, b): b's rows added to a's. A flat `a` is read into a tree of our own, which takes b
 * directly: when b names no new node (usage over a fixed set of shares, day after day), the
 * result keeps a's pre-order and is written out without a sort.
 */
PG_FUNCTION_INFO_V1(sharetree_merge);
Datum
sharetree_merge(PG_FUNCTION_ARGS)
{
	const uint8_t *data;
	size_t len;
	fs_tree *a = fs_pg_object_or_flat(PG_GETARG_DATUM(0), &data, &len);
	fs_tree *b = fs_pg_read_tree(PG_GETARG_DATUM(1));
	fs_tree *t;
	fs_error err;

	if (a == NULL)
		fs_pg_check(fs_tree_from_flat_borrowed(&fs_pg_alloc, data, len, &t, &err), &err);
	else
	{
		t = fs_tree_new(&fs_pg_alloc, fs_tree_get_kind(a));
		fs_pg_check(fs_tree_merge(t, a, &err), &err);
	}
	fs_pg_check(fs_tree_merge(t, b, &err), &err);
	PG_RETURN_POINTER(st_flat(t));
}

/* ---------------------------------------------------------------- I/O */

PG_FUNCTION_INFO_V1(sharetree_in);
Datum
sharetree_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	fs_tree *t;
	fs_error err;

	if (!fs_pg_input_check(fs_tree_parse(&fs_pg_alloc, s, strlen(s), &t, &err), &err,
	                       fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(st_flat(t));
}

PG_FUNCTION_INFO_V1(sharetree_out);
Datum
sharetree_out(PG_FUNCTION_ARGS)
{
	fs_tree *t = fs_pg_read_tree(PG_GETARG_DATUM(0));
	fs_error err;
	fs_sb sb;

	fs_pg_check(fs_tree_prepare(t, &err), &err);
	fs_sb_init(&sb, &fs_pg_alloc, 256);
	fs_tree_format(&sb, t);
	PG_RETURN_CSTRING(sb.data);
}

/*
 * Binary form: field by field in network byte order, starting with a version byte (see
 * fs_tree_to_binary). Receiving accepts only canonical bytes whose labels the text form can
 * carry: valid in the database encoding, without NUL.
 */
PG_FUNCTION_INFO_V1(sharetree_recv);
Datum
sharetree_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	fs_tree *t;
	fs_error err;
	uint32 i;

	fs_pg_check(fs_tree_from_binary(&fs_pg_alloc, (const uint8_t *) buf->data + buf->cursor,
	                                buf->len - buf->cursor, &t, &err),
	            &err);
	buf->cursor = buf->len;
	/* every ancestor is a node too: checking each node's own (last) label covers all labels */
	for (i = 1; i < fs_tree_count(t); i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		fs_sp_iter it;
		const char *label = NULL;
		size_t len = 0;

		FS_POLL(i);
		fs_sp_iter_init(&it, nd->path);
		while (fs_sp_next(&it, &label, &len))
			;
		pg_verifymbstr(label, (int) len, false);
	}
	PG_RETURN_POINTER(st_flat(t));
}

PG_FUNCTION_INFO_V1(sharetree_send);
Datum
sharetree_send(PG_FUNCTION_ARGS)
{
	fs_tree *t = fs_pg_read_tree(PG_GETARG_DATUM(0));
	fs_error err;
	size_t size;
	bytea *out;

	fs_pg_check(fs_tree_prepare(t, &err), &err);
	size = fs_tree_binary_size(t);
	out = palloc(add_size(VARHDRSZ, size));
	fs_tree_to_binary(t, (uint8_t *) VARDATA(out));
	SET_VARSIZE(out, VARHDRSZ + size);
	PG_RETURN_BYTEA_P(out);
}

/* ---------------------------------------------------------------- tree_nodes */

#define TREE_NODES_COLS 13

PG_FUNCTION_INFO_V1(sharetree_nodes);
Datum
sharetree_nodes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	fs_tree *t = fs_pg_read_tree(PG_GETARG_DATUM(0));
	bool pool = fs_tree_get_kind(t) == FS_TREE_POOL;
	fs_error err;
	uint32 i;
	fs_pg_scratch path = {0}, parent = {0};

	fs_pg_check(fs_tree_prepare(t, &err), &err);
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < fs_tree_count(t); i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		Datum values[TREE_NODES_COLS];
		bool nulls[TREE_NODES_COLS];
		bool declared = (nd->flags & FS_TN_DECLARED) != 0;
		bool from_parent = (nd->flags & FS_TN_PARENT) != 0;

		FS_POLL(i);
		memset(nulls, 0, sizeof(nulls));
		values[0] = fs_pg_scratch_bytes(&path, nd->path, nd->pathlen);
		if (i == 0)
			nulls[1] = true;
		else
		{
			const fs_tnode *pn = fs_tree_node(t, fs_tree_parent_pos(t, i));

			values[1] = fs_pg_scratch_bytes(&parent, pn->path, pn->pathlen);
		}
		values[2] = Int32GetDatum((int32) fs_sp_nlevel(nd->path));
		values[3] = BoolGetDatum(fs_tree_is_leaf(t, i));
		values[4] = BoolGetDatum(declared);
		/* shares: 0 when never stated in a share tree; a pool's weight is NULL then */
		values[5] = Float8GetDatum(nd->shares);
		nulls[5] = from_parent || (pool && !declared);
		values[6] = Float8GetDatum(nd->usage);
		values[7] = Float8GetDatum(fs_tree_total(t, i));
		nulls[6] = nulls[7] = pool;
		if (pool)
		{
			values[8] = fs_pg_resvec_datum(fs_tree_total_vec(t, i, false));
			values[9] = fs_pg_resvec_datum(fs_tree_total_vec(t, i, true));
		}
		else
			nulls[8] = nulls[9] = true;
		values[10] = BoolGetDatum(from_parent);
		values[11] = Float8GetDatum(nd->min_share);
		nulls[11] = !(nd->flags & FS_TN_HAS_MIN);
		values[12] = Float8GetDatum(nd->max_share);
		nulls[12] = !(nd->flags & FS_TN_HAS_MAX);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
