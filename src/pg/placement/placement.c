/*
 * placement.c (glue): the vnodepool type and the vnode_pool aggregates, placement_sets, place and
 * place_select. Labels arrive as jsonb and the pool's text form is JSON; the sets, their order
 * and the chunk placement are computed in src/core/placement/placement.c and place_select.c.
 */
#include "fs_expanded.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "placement/placement.h"
#include "types/resvec.h"

static fs_status
vpool_prepare(void *obj, fs_error *err)
{
	return fs_vpool_prepare(obj, err);
}

static size_t
vpool_flat_size(const void *obj)
{
	return fs_vpool_flat_size(obj);
}

static void
vpool_flatten(const void *obj, uint8_t *out)
{
	fs_vpool_flatten(obj, out);
}

static fs_status
vpool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, void **out, fs_error *err)
{
	return fs_vpool_from_flat(a, data, len, (fs_vpool **) out, err);
}

static const fs_pg_object_kind vpool_kind = {"fairsched vnodepool", vpool_prepare, vpool_flat_size,
                                             vpool_flatten, vpool_from_flat};

static fs_vpool *
read_vpool(Datum d)
{
	fs_vpool *p = fs_pg_read_object(d, &vpool_kind);
	fs_error err;

	fs_pg_check(fs_vpool_prepare(p, &err), &err);
	return p;
}

/* ---------------------------------------------------------------- labels from jsonb */

/* The text input of a vnodepool: the text, and the caller's soft-error context (or NULL). */
typedef struct vp_text
{
	const char *s;
	Node *escontext;
} vp_text;

/* true when the text input saved a soft error: it returns NULL (never on 15, where errors raise) */
#define VP_FAILED(in) ((in) != NULL && SOFT_ERROR_OCCURRED((in)->escontext))

/*
 * Raise a core error; in the text input of a vnodepool (in not NULL) as a syntax error of that
 * text, the one primary message of a type's input, saved as a soft error when the caller asked.
 * Returns (false) only then: the caller returns at once.
 */
static bool
raise_in(fs_error *err, const vp_text *in)
{
	if (in == NULL)
		fs_pg_raise(err);
	fs_error_as_input(err, "vnodepool", in->s, strlen(in->s));
	return fs_pg_input_check(err->status, err, in->escontext);
}

static bool
bad_labels(const char *vnode, const char *why, const vp_text *in)
{
	fs_error err;

	fs_fail(&err, FS_ERR_VALUE,
	        "labels of vnode \"%s\" must be an object of strings or string arrays", vnode);
	fs_error_detail(&err, "%s", why);
	fs_error_hint(&err,
	              "Write labels like {\"router\": \"rt1\", \"switch\": [\"sw3\", \"sw1\"]}; a "
	              "comma inside a string also separates values.");
	return raise_in(&err, in);
}

/*
 * A vnode's labels from its jsonb object: each key with a string value, or with an array of
 * strings (one label per element); anything else is refused naming the vnode and the key.
 */
static fs_label *
labels_from(JsonbContainer *c, const char *vnode, size_t *n, const vp_text *in)
{
	JsonbIterator *it;
	JsonbValue v;
	JsonbIteratorToken tok;
	size_t cap = 0;
	fs_label *labels = NULL;
	char *key = NULL;
	int keylen = 0;

	*n = 0;
	if (!JsonContainerIsObject(c))
		return bad_labels(vnode, "The labels are not a JSON object.", in), NULL;
	it = JsonbIteratorInit(c);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			key = v.val.string.val;
			keylen = v.val.string.len;
		}
		else if ((tok == WJB_VALUE || tok == WJB_ELEM) && key)
		{
			if (v.type != jbvString)
				return bad_labels(vnode,
				                  psprintf("The value of \"%.*s\" is not a string.", keylen, key),
				                  in),
				       NULL;
			fs_labels_append(key, keylen, v.val.string.val, v.val.string.len, &fs_pg_alloc, &labels,
			                 n, &cap);
		}
		else if (tok == WJB_BEGIN_OBJECT && key)
			return bad_labels(vnode, psprintf("The value of \"%.*s\" is an object.", keylen, key),
			                  in),
			       NULL;
		else if (tok == WJB_BEGIN_ARRAY && key)
		{
			/* the elements come as WJB_ELEM; nested arrays are refused below */
			JsonbValue e;
			JsonbIteratorToken t;

			while ((t = JsonbIteratorNext(&it, &e, true)) != WJB_END_ARRAY)
			{
				if (t != WJB_ELEM || e.type != jbvString)
					return bad_labels(
					           vnode,
					           psprintf("An element of \"%.*s\" is not a string.", keylen, key),
					           in),
					       NULL;
				fs_labels_append(key, keylen, e.val.string.val, e.val.string.len, &fs_pg_alloc,
				                 &labels, n, &cap);
			}
		}
	}
	return labels;
}

static void
vpool_add(fs_vpool *p, const char *vnode, int vnodelen, const uint8_t *avail,
          const fs_indirect *ind, size_t nind, const uint8_t *assigned, JsonbContainer *labels,
          const vp_text *in)
{
	size_t n = 0;
	fs_label *l = labels ? labels_from(labels, pnstrdup(vnode, vnodelen), &n, in) : NULL;
	fs_error err;

	if (VP_FAILED(in))
		return;
	if (fs_vpool_add(p, vnode, vnodelen, avail, assigned, l, n, ind, nind, &err) != FS_OK)
		raise_in(&err, in);
}

/* Available resources as text: amounts, and "res=@vnode" for those another vnode holds. */
static const uint8_t *
parse_available(const char *text, size_t len, fs_indirect **ind, size_t *nind, const vp_text *in)
{
	uint8_t *rv;
	fs_error err;

	if (fs_vpool_parse_available(text, len, &fs_pg_alloc, &rv, ind, nind, &err) != FS_OK)
		return raise_in(&err, in), NULL;
	return rv;
}

/* ---------------------------------------------------------------- aggregate */

PG_FUNCTION_INFO_V1(vnode_pool_accum);
Datum
vnode_pool_accum(PG_FUNCTION_ARGS)
{
	fs_pg_expanded *e;
	bool fresh;
	text *name;

	if (PG_ARGISNULL(1))
		return fs_pg_keep_state(fcinfo);
	e = fs_pg_agg_state(fcinfo, &vpool_kind, &fresh);
	if (fresh)
		e->obj = fs_vpool_new(&e->alloc);
	name = PG_GETARG_TEXT_PP(1);
	vpool_add(e->obj, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name),
	          PG_ARGISNULL(2) ? NULL : (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(2)), NULL,
	          0, PG_ARGISNULL(3) ? NULL : (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(3)),
	          PG_ARGISNULL(4) ? NULL : &PG_GETARG_JSONB_P(4)->root, NULL);
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

/* vnode_pool(vnode, available text, ...): available may name other vnodes, "scratch=@n07" */
PG_FUNCTION_INFO_V1(vnode_pool_accum_text);
Datum
vnode_pool_accum_text(PG_FUNCTION_ARGS)
{
	fs_pg_expanded *e;
	bool fresh;
	text *name;
	fs_indirect *ind = NULL;
	size_t nind = 0;
	const uint8_t *avail = NULL;

	if (PG_ARGISNULL(1))
		return fs_pg_keep_state(fcinfo);
	if (!PG_ARGISNULL(2))
	{
		text *t = PG_GETARG_TEXT_PP(2);

		avail = parse_available(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &ind, &nind, NULL);
	}
	e = fs_pg_agg_state(fcinfo, &vpool_kind, &fresh);
	if (fresh)
		e->obj = fs_vpool_new(&e->alloc);
	name = PG_GETARG_TEXT_PP(1);
	vpool_add(e->obj, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), avail, ind, nind,
	          PG_ARGISNULL(3) ? NULL : (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(3)),
	          PG_ARGISNULL(4) ? NULL : &PG_GETARG_JSONB_P(4)->root, NULL);
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

PG_FUNCTION_INFO_V1(vnode_pool_combine);
Datum
vnode_pool_combine(PG_FUNCTION_ARGS)
{
	fs_vpool *other = fs_pg_read_object(PG_GETARG_DATUM(1), &vpool_kind);
	bool fresh;
	fs_pg_expanded *e = fs_pg_agg_state(fcinfo, &vpool_kind, &fresh);
	fs_error err;

	if (fresh)
		e->obj = fs_vpool_new(&e->alloc);
	fs_pg_check(fs_vpool_merge(e->obj, other, &err), &err);
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

/* ---------------------------------------------------------------- I/O */

static void
rv_json(StringInfo buf, const uint8_t *rv)
{
	fs_sb sb;

	fs_sb_init(&sb, &fs_pg_alloc, 32);
	fs_rv_format(&sb, rv);
	escape_json(buf, sb.data);
}

static void
bytes_json(StringInfo buf, const char *s, size_t len)
{
	escape_json(buf, pnstrdup(s, len));
}

/* Text form: a JSON array of {"vnode", "available", "assigned", "labels"} in vnode order. */
PG_FUNCTION_INFO_V1(vnodepool_out);
Datum
vnodepool_out(PG_FUNCTION_ARGS)
{
	fs_vpool *p = read_vpool(PG_GETARG_DATUM(0));
	StringInfoData buf;
	uint32 i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < fs_vpool_count(p); i++)
	{
		const fs_vnode *v = fs_vpool_vnode(p, i);
		size_t k;

		appendStringInfoString(&buf, i ? ", {\"vnode\": " : "{\"vnode\": ");
		bytes_json(&buf, v->name, v->namelen);
		appendStringInfoString(&buf, ", \"available\": ");
		{
			fs_sb sb;

			fs_sb_init(&sb, &fs_pg_alloc, 32);
			fs_vpool_format_available(&sb, v);
			escape_json(&buf, sb.data);
		}
		appendStringInfoString(&buf, ", \"assigned\": ");
		rv_json(&buf, v->assigned);
		appendStringInfoString(&buf, ", \"labels\": {");
		for (k = 0; k < v->nlabels; k++)
		{
			bool first = k == 0 || v->labels[k - 1].keylen != v->labels[k].keylen ||
			             memcmp(v->labels[k - 1].key, v->labels[k].key, v->labels[k].keylen) != 0;

			if (first)
			{
				if (k)
					appendStringInfoString(&buf, "], ");
				bytes_json(&buf, v->labels[k].key, v->labels[k].keylen);
				appendStringInfoString(&buf, ": [");
			}
			else
				appendStringInfoString(&buf, ", ");
			bytes_json(&buf, v->labels[k].value, v->labels[k].valuelen);
		}
		appendStringInfoString(&buf, v->nlabels ? "]}}" : "}}");
	}
	appendStringInfoChar(&buf, ']');
	PG_RETURN_CSTRING(buf.data);
}

/* The text input of a vnodepool failed: `problem` says how (a sentence). */
static bool
bad_input(const vp_text *in, const char *problem)
{
	fs_error err;

	fs_fail(&err, FS_ERR_SYNTAX, "%s", problem);
	fs_error_hint(&err, "A vnodepool reads [{\"vnode\": \"vn1\", \"available\": \"ncpus=4\", "
	                    "\"assigned\": \"\", \"labels\": {\"switch\": [\"sw1\"]}}, ...].");
	return raise_in(&err, in);
}

/* A resvec field of the text form; "available" may also name other vnodes (ind not NULL). */
static const uint8_t *
rv_field(JsonbContainer *c, const char *key, const char *vnode, fs_indirect **ind, size_t *nind,
         const vp_text *in)
{
	JsonbValue *v = getKeyJsonValueFromContainer(c, key, strlen(key), NULL);
	uint8_t *out;
	size_t len;
	fs_error err;

	if (v == NULL || v->type == jbvNull)
		return NULL;
	if (v->type != jbvString)
	{
		fs_fail(&err, FS_ERR_SYNTAX, "\"%s\" of vnode \"%s\" is not a string", key, vnode);
		fs_error_hint(&err, "Write resources as a resvec string, for example \"ncpus=4,mem=8gb\".");
		return raise_in(&err, in), NULL;
	}
	if (ind)
		return parse_available(v->val.string.val, v->val.string.len, ind, nind, in);
	if (fs_rv_parse(v->val.string.val, v->val.string.len, &fs_pg_alloc, 0, &out, &len, &err) !=
	    FS_OK)
	{
		fs_error_context(&err, "in the \"%s\" of vnode \"%s\"", key, vnode);
		return raise_in(&err, in), NULL;
	}
	return out;
}

PG_FUNCTION_INFO_V1(vnodepool_in);
Datum
vnodepool_in(PG_FUNCTION_ARGS)
{
	vp_text text = {PG_GETARG_CSTRING(0), fcinfo->context};
	const vp_text *in = &text;
	Datum json;
	Jsonb *jb;
	fs_vpool *p = fs_vpool_new(&fs_pg_alloc);
	JsonbIterator *it;
	JsonbValue v;
	JsonbIteratorToken tok;
	int element = 0;
	fs_error err;

	if (!fs_pg_direct_input(jsonb_in, text.s, in->escontext, &json))
		PG_RETURN_NULL();
	jb = DatumGetJsonbP(json);
	if ((!JB_ROOT_IS_ARRAY(jb) || JB_ROOT_IS_SCALAR(jb)) &&
	    !bad_input(in, "The value is not a JSON array"))
		PG_RETURN_NULL();
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		JsonbValue *name, *labels;
		char *vname;
		fs_indirect *ind = NULL;
		size_t nind = 0;
		const uint8_t *avail, *assigned;

		if (tok != WJB_ELEM)
			continue;
		element++;
		if ((v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data)) &&
		    !bad_input(in, psprintf("Element %d of the array is not a JSON object", element)))
			PG_RETURN_NULL();
		name = getKeyJsonValueFromContainer(v.val.binary.data, "vnode", 5, NULL);
		if ((name == NULL || name->type != jbvString) &&
		    !bad_input(in, psprintf("Element %d of the array has no \"vnode\" name", element)))
			PG_RETURN_NULL();
		vname = pnstrdup(name->val.string.val, name->val.string.len);
		labels = getKeyJsonValueFromContainer(v.val.binary.data, "labels", 6, NULL);
		if (labels && labels->type != jbvNull && labels->type != jbvBinary &&
		    !bad_labels(vname, "The labels are not a JSON object.", in))
			PG_RETURN_NULL();
		avail = rv_field(v.val.binary.data, "available", vname, &ind, &nind, in);
		assigned =
		    VP_FAILED(in) ? NULL : rv_field(v.val.binary.data, "assigned", vname, NULL, NULL, in);
		if (VP_FAILED(in))
			PG_RETURN_NULL();
		vpool_add(p, name->val.string.val, name->val.string.len, avail, ind, nind, assigned,
		          labels && labels->type == jbvBinary ? labels->val.binary.data : NULL, in);
		if (VP_FAILED(in))
			PG_RETURN_NULL();
	}
	if (fs_vpool_prepare(p, &err) != FS_OK && !raise_in(&err, in))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(fs_pg_flat_object(p, &vpool_kind));
}

/*
 * Binary form: field by field in network byte order, starting with a version byte (see
 * fs_vpool_to_binary). Receiving accepts only canonical bytes whose strings the text form can
 * carry: valid in the database encoding, without NUL.
 */
PG_FUNCTION_INFO_V1(vnodepool_recv);
Datum
vnodepool_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
	fs_vpool *p;
	fs_error err;
	uint32 i;
	size_t k;

	fs_pg_check(fs_vpool_from_binary(&fs_pg_alloc, (const uint8_t *) buf->data + buf->cursor,
	                                 buf->len - buf->cursor, &p, &err),
	            &err);
	buf->cursor = buf->len;
	for (i = 0; i < fs_vpool_count(p); i++)
	{
		const fs_vnode *v = fs_vpool_vnode(p, i);

		FS_POLL(i);
		pg_verifymbstr(v->name, (int) v->namelen, false);
		for (k = 0; k < v->nlabels; k++)
		{
			pg_verifymbstr(v->labels[k].key, (int) v->labels[k].keylen, false);
			pg_verifymbstr(v->labels[k].value, (int) v->labels[k].valuelen, false);
		}
		for (k = 0; k < v->nindirect; k++)
			pg_verifymbstr(v->indirect[k].vnode, (int) v->indirect[k].vnodelen, false);
	}
	PG_RETURN_POINTER(fs_pg_flat_object(p, &vpool_kind));
}

PG_FUNCTION_INFO_V1(vnodepool_send);
Datum
vnodepool_send(PG_FUNCTION_ARGS)
{
	fs_vpool *p = read_vpool(PG_GETARG_DATUM(0));
	size_t size = fs_vpool_binary_size(p);
	bytea *out = palloc(add_size(VARHDRSZ, size));

	fs_vpool_to_binary(p, (uint8_t *) VARDATA(out));
	SET_VARSIZE(out, VARHDRSZ + size);
	PG_RETURN_BYTEA_P(out);
}

/* ---------------------------------------------------------------- placement sets */

typedef struct pset_args
{
	fs_vpool *pool;
	fs_pset_spec spec;
	const char **keys;
	size_t *keylens;
	fs_sort_key *sk;
} pset_args;

/*
 * The pool (argument 0), group_keys (1), sort_keys (sk_arg, NULL for PBS's defaults), prime_time
 * (sk_arg + 1) and only_explicit (sk_arg + 2) of placement_sets, place and place_select.
 */
static void
read_args(FunctionCallInfo fcinfo, int sk_arg, pset_args *pa)
{
	Datum *elems;
	bool *nulls;
	int n, i;

	pa->pool = read_vpool(PG_GETARG_DATUM(0));
	fs_pg_check_1d(PG_GETARG_ARRAYTYPE_P(1), "group_keys");
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(1), TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls,
	                  &n);
	pa->keys = palloc(sizeof(char *) * (n + 1));
	pa->keylens = palloc(sizeof(size_t) * (n + 1));
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("group_keys[%d] is NULL", i + 1)));
		pa->keys[i] = VARDATA_ANY(DatumGetPointer(elems[i]));
		pa->keylens[i] = VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i]));
	}
	pa->spec.keys = pa->keys;
	pa->spec.keylens = pa->keylens;
	pa->spec.nkeys = (size_t) n;
	pa->spec.prime_time = !PG_ARGISNULL(sk_arg + 1) && PG_GETARG_BOOL(sk_arg + 1);
	pa->spec.only_explicit = !PG_ARGISNULL(sk_arg + 2) && PG_GETARG_BOOL(sk_arg + 2);
	if (PG_ARGISNULL(sk_arg))
	{
		pa->sk = palloc(sizeof(fs_sort_key) * 4);
		pa->spec.sk = pa->sk;
		pa->spec.nsk = fs_sort_key_defaults(pa->sk);
		return;
	}
	fs_pg_check_1d(PG_GETARG_ARRAYTYPE_P(sk_arg), "sort_keys");
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(sk_arg), TEXTOID, -1, false, TYPALIGN_INT, &elems,
	                  &nulls, &n);
	pa->sk = palloc(sizeof(fs_sort_key) * (n + 1));
	pa->spec.sk = pa->sk;
	pa->spec.nsk = 0;
	for (i = 0; i < n; i++)
	{
		fs_error err;

		if (nulls[i])
			continue;
		fs_pg_check(fs_sort_key_parse(VARDATA_ANY(DatumGetPointer(elems[i])),
		                              VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i])),
		                              &pa->sk[pa->spec.nsk++], &err),
		            &err);
	}
}

static fs_pset *
compute(pset_args *pa, size_t *n)
{
	fs_pset *sets;
	fs_error err;

	fs_pg_check(fs_placement_sets(pa->pool, &pa->spec, &fs_pg_alloc, &sets, n, &err), &err);
	return sets;
}

/* placement_sets(pool, group_keys, sort_keys, prime_time, only_explicit) */
PG_FUNCTION_INFO_V1(placement_sets);
Datum
placement_sets(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	pset_args pa;
	fs_pset *sets;
	size_t n, i;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	read_args(fcinfo, 2, &pa);
	sets = compute(&pa, &n);
	for (i = 0; i < n; i++)
	{
		const fs_pset *ps = &sets[i];
		Datum values[8];
		bool nulls[8] = {false, false, false, false, false, false, false, false};
		StringInfoData lj;
		Datum *names = palloc(sizeof(Datum) * (ps->nvnodes + 1));
		uint32 j;
		int k;
		bool first = true;

		CHECK_FOR_INTERRUPTS();
		initStringInfo(&lj);
		appendStringInfoChar(&lj, '{');
		for (k = 0; k < (int) pa.spec.nkeys; k++)
		{
			if (!ps->values[k])
				continue;
			if (!first)
				appendStringInfoString(&lj, ", ");
			first = false;
			bytes_json(&lj, pa.keys[k], pa.keylens[k]);
			appendStringInfoString(&lj, ": ");
			bytes_json(&lj, ps->values[k], ps->valuelens[k]);
		}
		appendStringInfoChar(&lj, '}');
		for (j = 0; j < ps->nvnodes; j++)
		{
			const fs_vnode *v = fs_vpool_vnode(pa.pool, ps->vnodes[j]);

			names[j] = PointerGetDatum(cstring_to_text_with_len(v->name, (int) v->namelen));
		}
		values[0] = Int32GetDatum((int32) i + 1);
		values[1] = PointerGetDatum(cstring_to_text_with_len(ps->name, (int) ps->namelen));
		values[2] = Int32GetDatum(ps->dims);
		values[3] = DirectFunctionCall1(jsonb_in, CStringGetDatum(lj.data));
		values[4] = PointerGetDatum(
		    construct_array(names, (int) ps->nvnodes, TEXTOID, -1, false, TYPALIGN_INT));
		values[5] = fs_pg_resvec_datum(ps->total);
		values[6] = fs_pg_resvec_datum(ps->assigned);
		values[7] = fs_pg_resvec_datum(ps->unused);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* place(pool, group_keys, request, sort_keys, prime_time, only_explicit): where a job would go */
PG_FUNCTION_INFO_V1(place_job);
Datum
place_job(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	pset_args pa;
	fs_pset *sets;
	size_t n, pick;
	const uint8_t *request;
	bool now;
	fs_error err;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		return (Datum) 0;
	request = (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(2));
	read_args(fcinfo, 3, &pa);
	sets = compute(&pa, &n);
	fs_pg_check(fs_place_first(sets, n, request, &pick, &now, &err), &err);
	if (pick != SIZE_MAX)
	{
		Datum values[4];
		bool nulls[4] = {false, false, false, false};

		values[0] =
		    PointerGetDatum(cstring_to_text_with_len(sets[pick].name, (int) sets[pick].namelen));
		values[1] = Int32GetDatum((int32) pick + 1);
		values[2] = BoolGetDatum(now);
		values[3] = BoolGetDatum(true);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * place_select(pool, group_keys, select, place, sort_keys, prime_time, only_explicit,
 * default_chunk): a PBS select spec placed chunk by chunk, one row per chunk and vnode
 */
PG_FUNCTION_INFO_V1(place_select);
Datum
place_select(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	pset_args pa;
	text *seltext, *placetext;
	fs_select *sel;
	fs_place pl;
	fs_chunk_placement cp;
	size_t i;
	fs_error err;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		return (Datum) 0;
	read_args(fcinfo, 4, &pa);
	placetext = PG_GETARG_TEXT_PP(3);
	fs_pg_check(fs_place_parse(VARDATA_ANY(placetext), VARSIZE_ANY_EXHDR(placetext), &pl, &err),
	            &err);
	seltext = PG_GETARG_TEXT_PP(2);
	fs_pg_check(fs_select_parse(
	                VARDATA_ANY(seltext), VARSIZE_ANY_EXHDR(seltext),
	                PG_ARGISNULL(7) ? NULL : (const uint8_t *) VARDATA_ANY(PG_GETARG_VARLENA_PP(7)),
	                &fs_pg_alloc, &sel, &err),
	            &err);
	fs_pg_check(fs_place_select(pa.pool, &pa.spec, sel, &pl, &fs_pg_alloc, &cp, &err), &err);
	for (i = 0; i < cp.npieces && cp.set != SIZE_MAX; i++)
	{
		const fs_pset *ps = &cp.sets[cp.set];
		const fs_vnode *v = fs_vpool_vnode(cp.resolved, cp.pieces[i].vnode);
		Datum values[6];
		bool nulls[6] = {false, false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		values[0] = PointerGetDatum(cstring_to_text_with_len(ps->name, (int) ps->namelen));
		values[1] = Int32GetDatum((int32) cp.set + 1);
		values[2] = BoolGetDatum(cp.now);
		values[3] = Int32GetDatum((int32) cp.pieces[i].chunk);
		values[4] = PointerGetDatum(cstring_to_text_with_len(v->name, (int) v->namelen));
		values[5] = fs_pg_resvec_datum(cp.pieces[i].amounts);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
