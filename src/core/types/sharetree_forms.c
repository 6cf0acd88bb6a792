/*
 * sharetree_forms.c: the forms of a share or pool tree outside memory: the flat form (how a value
 * is stored, read in pre-order as it comes), the text form (share{...} and pool{...}) and the
 * binary form of send and receive. The tree itself is in sharetree.c.
 */
#include "types/sharetree_int.h"

#include "types/resvec.h"
#include "types/sharepath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- flat form */

/*
 * Flat form: uint8 version, uint8 kind, 2 zero bytes, uint32 node count, then the nodes in
 * pre-order: the encoded sharepath, uint8 flags, float64 shares, float64 own usage and, in pool
 * trees, float64 min and max share ratio and two uint32-length-prefixed resvecs (usage, demand;
 * length 0 when absent). Numbers in native byte order; no alignment.
 */
static size_t
vec_len(const uint8_t *v)
{
	return v ? fs_rv_size(v) : 0;
}

size_t
fs_tree_flat_size(const fs_tree *t)
{
	size_t size = FLAT_HEADER;
	uint32_t i;

	for (i = 0; i < t->n; i++)
	{
		const fs_tnode *nd = &t->nodes[i];

		FS_POLL(i);
		size += nd->pathlen + 1 + 2 * sizeof(double);
		if (t->kind == FS_TREE_POOL)
			size += 2 * sizeof(double) + 2 * sizeof(uint32_t) + vec_len(nd->usage_vec) +
			        vec_len(nd->demand_vec);
	}
	return size;
}

void
fs_tree_flatten(const fs_tree *t, uint8_t *out)
{
	uint8_t *p = out;
	uint32_t i;

	*p++ = FLAT_VERSION;
	*p++ = (uint8_t) t->kind;
	*p++ = 0;
	*p++ = 0;
	p = fs_put(p, &t->n, sizeof(uint32_t));
	for (i = 0; i < t->n; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);
		uint8_t flags = (uint8_t) nd->flags;

		FS_POLL(i);
		p = fs_put(p, nd->path, nd->pathlen);
		*p++ = flags;
		p = fs_put(p, &nd->shares, sizeof(double));
		p = fs_put(p, &nd->usage, sizeof(double));
		if (t->kind == FS_TREE_POOL)
		{
			int w;

			p = fs_put(p, &nd->min_share, sizeof(double));
			p = fs_put(p, &nd->max_share, sizeof(double));
			for (w = 0; w < 2; w++)
			{
				const uint8_t *v = w ? nd->demand_vec : nd->usage_vec;
				uint32_t len = (uint32_t) vec_len(v);

				p = fs_put(p, &len, sizeof(uint32_t));
				if (len)
					p = fs_put(p, v, len);
			}
		}
	}
}

/* A path from untrusted bytes: bounds, label lengths, no NUL, depth. Returns its length or 0. */
static size_t
read_path(fs_reader *r)
{
	uint16_t n;
	size_t off = 2;
	uint32_t i;

	if (r->end - r->p < 2)
		return 0;
	memcpy(&n, r->p, 2);
	if (n > FS_SP_DEPTH_MAX)
		return 0;
	for (i = 0; i < n; i++)
	{
		if ((size_t) (r->end - r->p) <= off || r->p[off] == 0 ||
		    (size_t) (r->end - r->p) < off + 1 + r->p[off] ||
		    !fs_sp_label_ok((const char *) r->p + off + 1, r->p[off]))
			return 0;
		off += 1 + r->p[off];
	}
	return off;
}

static bool
neg_zero(double v)
{
	return v == 0 && signbit(v);
}

static fs_status
corrupt(fs_error *err, const char *what, uint32_t node)
{
	fs_fail(err, FS_ERR_BINARY, "invalid binary value for type sharetree: %s", what);
	fs_error_detail(err, "The problem is at node %u.", node + 1);
	return FS_ERR_BINARY;
}

/* The flat form's header: kind and node count, checked. */
static fs_status
read_flat_header(fs_reader *r, size_t len, fs_tree_kind *kind, uint32_t *n, fs_error *err)
{
	uint8_t head[4];

	if (!fs_read(r, head, 4) || !fs_read(r, n, 4))
		return corrupt(err, "header is truncated", 0);
	if (head[0] != FLAT_VERSION)
	{
		fs_fail(err, FS_ERR_BINARY, "unsupported format version %d for type sharetree", head[0]);
		fs_error_hint(err, "This server reads version %d; send the value as text instead.",
		              FLAT_VERSION);
		return FS_ERR_BINARY;
	}
	if ((head[1] != FS_TREE_SHARE && head[1] != FS_TREE_POOL) || head[2] || head[3])
		return corrupt(err, "unknown tree kind", 0);
	if (*n == 0 || *n > len / 19)
		return corrupt(err, "bad node count", 0);
	*kind = (fs_tree_kind) head[1];
	return FS_OK;
}

/*
 * Node i of a flat form, checked on its own (pre-order after `prev`, flags, numbers, vectors),
 * into row (vectors pointing into the data); *plen is the length of its path. A NULL prev after
 * the root leaves the order to the caller.
 */
static fs_status
read_flat_node(fs_tree_kind kind, fs_reader *r, uint32_t i, const uint8_t *prev, fs_tree_row *row,
               size_t *plen, fs_error *err)
{
	uint8_t flags = 0;
	const uint8_t *path = r->p;
	uint8_t *vecs[2] = {NULL, NULL};
	fs_status st = FS_OK;
	int w;

	*plen = read_path(r);
	if (*plen == 0)
		st = corrupt(err, "malformed path", i);
	else if (i == 0 ? fs_sp_nlevel(path) != 0 : prev != NULL && fs_sp_cmp(prev, path) >= 0)
		st = corrupt(err, "nodes out of pre-order", i);
	r->p += *plen;
	memset(row, 0, sizeof(*row));
	row->path = path;
	/* flags, shares and usage in one bounds check: every node has them */
	if (st == FS_OK && (size_t) (r->end - r->p) < 1 + 2 * sizeof(double))
		st = corrupt(err, "value is truncated", i);
	else if (st == FS_OK)
	{
		flags = r->p[0];
		memcpy(&row->shares, r->p + 1, sizeof(double));
		memcpy(&row->usage, r->p + 1 + sizeof(double), sizeof(double));
		r->p += 1 + 2 * sizeof(double);
	}
	if (st == FS_OK && (flags & ~FS_TN_ALL))
		st = corrupt(err, "unknown node flags", i);
	if (st == FS_OK && kind == FS_TREE_POOL)
	{
		if (!fs_read(r, &row->min_share, 8) || !fs_read(r, &row->max_share, 8))
			st = corrupt(err, "value is truncated", i);
		for (w = 0; w < 2 && st == FS_OK; w++)
		{
			uint32_t vlen;

			if (!fs_read(r, &vlen, 4) || (size_t) (r->end - r->p) < vlen)
				st = corrupt(err, "value is truncated", i);
			else if (vlen > 0)
			{
				st = fs_rv_validate(r->p, vlen, FS_ERR_BINARY, err);
				if (st == FS_OK && fs_rv_count(r->p) == 0)
					st = corrupt(err, "an empty resource vector is stored as absent", i);
				vecs[w] = (uint8_t *) r->p;
				r->p += vlen;
			}
		}
	}
	if (st == FS_OK && kind != FS_TREE_POOL && (flags & (FS_TN_HAS_MIN | FS_TN_HAS_MAX)))
		st = corrupt(err, "pool flags in a share tree", i);
	/* only what the text form can say: a pool has no "parent" and no scalar usage */
	if (st == FS_OK && kind == FS_TREE_POOL && (flags & FS_TN_PARENT))
		st = corrupt(err, "the parent flag in a pool tree", i);
	if (st == FS_OK && kind == FS_TREE_POOL && row->usage != 0)
		st = corrupt(err, "scalar usage in a pool tree", i);
	if (st == FS_OK && (neg_zero(row->shares) || neg_zero(row->usage) || neg_zero(row->min_share) ||
	                    neg_zero(row->max_share)))
		st = corrupt(err, "a negative zero", i); /* text input stores it as 0 */
	if (st == FS_OK && ((!(flags & FS_TN_HAS_MIN) && row->min_share != 0) ||
	                    (!(flags & FS_TN_HAS_MAX) && row->max_share != 0)))
		st = corrupt(err, "a share ratio given but not flagged", i);
	if (st != FS_OK)
		return st;
	row->from_parent = (flags & FS_TN_PARENT) != 0;
	row->has_shares = (flags & FS_TN_DECLARED) && !row->from_parent;
	row->has_min = (flags & FS_TN_HAS_MIN) != 0;
	row->has_max = (flags & FS_TN_HAS_MAX) != 0;
	row->usage_vec = vecs[0];
	row->demand_vec = vecs[1];
	if ((flags & FS_TN_PARENT) && !(flags & FS_TN_DECLARED))
		return corrupt(err, "inconsistent node flags", i);
	if (!row->has_shares && row->shares != 0)
		return corrupt(err, "shares given for an undeclared node", i);
	return FS_OK;
}

/* The flags fs_tree_add gives a new node for a row (read_flat_node has checked they agree). */
static uint32_t
row_flags(const fs_tree_row *row)
{
	return (row->from_parent ? FS_TN_DECLARED | FS_TN_PARENT : 0) |
	       (row->has_shares ? FS_TN_DECLARED : 0) | (row->has_min ? FS_TN_HAS_MIN : 0) |
	       (row->has_max ? FS_TN_HAS_MAX : 0);
}

/*
 * A flat form as stored: every node once, in pre-order, after its parent. The nodes are laid
 * out in the order they come, which is pre-order, each finding its parent on the stack of the
 * last node seen at every depth: no hash and no sort (the hash is built on the first lookup by
 * path). With `borrow`, node paths point into data instead of copies. Returns NULL at anything
 * else, and the caller reads the form row by row, which says what is wrong.
 */
static fs_tree *
from_flat_preordered(const fs_allocator *a, const uint8_t *data, size_t len, bool borrow)
{
	fs_reader r = {data, data + len};
	fs_tree_kind kind;
	uint32_t n, i;
	fs_tree *t;
	fs_error err;
	uint32_t stack[FS_SP_DEPTH_MAX + 1]; /* stack[0..depth]: the last node and its ancestors */
	uint32_t depth = 0;

	if (read_flat_header(&r, len, &kind, &n, &err) != FS_OK)
		return NULL;
	t = fs_tree_alloc_empty(a, kind, n);
	for (i = 0; i < n; i++)
	{
		fs_tree_row row;
		size_t plen;
		uint32_t nl;
		fs_tnode *nd;

		FS_POLL(i);
		if (read_flat_node(kind, &r, i, NULL, &row, &plen, &err) != FS_OK ||
		    fs_tree_check_row(t, &row, &err) != FS_OK ||
		    plen > (size_t) FS_TREE_PATH_BYTES_MAX - t->path_bytes)
			break;
		nl = fs_sp_nlevel(row.path);
		if (i > 0)
		{
			/*
			 * The parent is the last node seen one level up, if its path is a prefix of this
			 * one's (equal bytes from the start are equal labels with equal boundaries); the
			 * order then only needs this node's label after that of the last node at its depth
			 * under the same parent, when the last node is not the parent itself.
			 */
			const fs_tnode *p = nl - 1 <= depth ? &t->nodes[stack[nl - 1]] : NULL;
			const fs_tnode *sib = nl <= depth ? &t->nodes[stack[nl]] : NULL;

			if (p == NULL || p->pathlen >= plen ||
			    memcmp(p->path + 2, row.path + 2, p->pathlen - 2) != 0 ||
			    (sib != NULL &&
			     fs_bytes_cmp_short(sib->path + p->pathlen + 1, sib->pathlen - p->pathlen - 1,
			                        row.path + p->pathlen + 1, plen - p->pathlen - 1) >= 0))
				break;
		}
		nd = &t->nodes[i];
		nd->path = borrow ? row.path : fs_tree_arena_copy(t, row.path, plen);
		nd->pathlen = (uint32_t) plen;
		nd->hash = 0;
		t->path_bytes += plen;
		nd->parent = i > 0 ? (int32_t) stack[nl - 1] : -1;
		nd->flags = row_flags(&row);
		nd->shares = row.shares;
		nd->usage = row.usage;
		nd->min_share = row.min_share;
		nd->max_share = row.max_share;
		nd->usage_vec = nd->demand_vec = NULL;
		t->n = i + 1; /* so that fs_tree_free releases the vectors */
		if (fs_tree_add_vec(t, &nd->usage_vec, row.usage_vec, "usage", nd->path, &err) != FS_OK ||
		    fs_tree_add_vec(t, &nd->demand_vec, row.demand_vec, "demand", nd->path, &err) != FS_OK)
			break;
		stack[nl] = i;
		depth = nl;
	}
	if (i < n || r.p != r.end)
	{
		fs_tree_free(t);
		return NULL;
	}
	t->preordered = true;
	return t;
}

/* Any flat form, node by node through fs_tree_add, with a message for what is wrong. */
static fs_status
from_flat_rows(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out, fs_error *err)
{
	fs_reader r = {data, data + len};
	fs_tree_kind kind;
	uint32_t n, i;
	fs_tree *t;
	const uint8_t *prev = NULL;
	fs_status st = read_flat_header(&r, len, &kind, &n, err);

	if (st != FS_OK)
		return st;
	t = fs_tree_new(a, kind);
	for (i = 0; i < n; i++)
	{
		fs_tree_row row;
		size_t plen;

		FS_POLL(i);
		st = read_flat_node(kind, &r, i, prev, &row, &plen, err);
		if (st == FS_OK && fs_tree_add(t, &row, err) != FS_OK)
			st = err->status;
		if (st != FS_OK)
		{
			fs_tree_free(t);
			return st;
		}
		prev = row.path;
	}
	if (r.p != r.end)
	{
		fs_tree_free(t);
		return corrupt(err, "trailing bytes after the last node", n - 1);
	}
	if (t->n != n)
	{
		fs_tree_free(t);
		return corrupt(err, "a node's parent is missing", n - 1);
	}
	*out = t;
	return FS_OK;
}

fs_status
fs_tree_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out,
                  fs_error *err)
{
	fs_tree *t = from_flat_preordered(a, data, len, false);

	if (t == NULL)
		return from_flat_rows(a, data, len, out, err);
	*out = t;
	return FS_OK;
}

fs_status
fs_tree_from_flat_borrowed(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out,
                           fs_error *err)
{
	fs_tree *t = from_flat_preordered(a, data, len, true);

	if (t == NULL)
		return from_flat_rows(a, data, len, out, err);
	*out = t;
	return FS_OK;
}

/* ---------------------------------------------------------------- text form */

static void
format_optional(fs_sb *sb, bool stated, double v)
{
	if (stated)
		fs_sb_append_double(sb, v);
	else
		fs_sb_append(sb, "*", 1);
}

void
fs_tree_format(fs_sb *sb, const fs_tree *t)
{
	uint32_t i;

	fs_sb_append(sb, t->kind == FS_TREE_POOL ? "pool{" : "share{", t->kind == FS_TREE_POOL ? 5 : 6);
	for (i = 0; i < t->n; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);

		FS_POLL(i);
		if (i > 0)
			fs_sb_append(sb, ",", 1);
		fs_sp_format(sb, nd->path);
		fs_sb_append(sb, "=", 1);
		if (nd->flags & FS_TN_PARENT)
			fs_sb_append(sb, "parent", 6);
		else
			format_optional(sb, (nd->flags & FS_TN_DECLARED) != 0, nd->shares);
		if (t->kind == FS_TREE_POOL)
		{
			int w;

			fs_sb_append(sb, "/", 1);
			format_optional(sb, (nd->flags & FS_TN_HAS_MIN) != 0, nd->min_share);
			fs_sb_append(sb, "/", 1);
			format_optional(sb, (nd->flags & FS_TN_HAS_MAX) != 0, nd->max_share);
			for (w = 0; w < 2; w++)
			{
				const uint8_t *v = w ? nd->demand_vec : nd->usage_vec;

				fs_sb_append(sb, "/{", 2);
				if (v)
					fs_rv_format(sb, v);
				fs_sb_append(sb, "}", 1);
			}
		}
		else
		{
			fs_sb_append(sb, "/", 1);
			fs_sb_append_double(sb, nd->usage);
		}
	}
	fs_sb_append(sb, "}", 1);
}

typedef struct tparse
{
	const char *text;
	size_t len;
	size_t i;
	const fs_allocator *a;
	fs_error *err;
} tparse;

static fs_status
t_syntax(tparse *ps, const char *what)
{
	return fs_fail_syntax(ps->err, "input syntax for type sharetree", ps->text, ps->len, ps->i,
	                      what,
	                      "A sharetree reads share{path=shares/usage,...} or "
	                      "pool{path=weight/min/max/{usage}/{demand},...}; \"*\" marks a value "
	                      "that was never stated.");
}

static void
t_space(tparse *ps)
{
	while (ps->i < ps->len && fs_is_space(ps->text[ps->i]))
		ps->i++;
}

static bool
t_lit(tparse *ps, const char *lit)
{
	size_t n = strlen(lit);

	if (ps->len - ps->i >= n && memcmp(ps->text + ps->i, lit, n) == 0)
	{
		ps->i += n;
		return true;
	}
	return false;
}

/* A number, or "*" (stated = false); `parent` allowed where parent_ok. */
static fs_status
t_value(tparse *ps, const char *what, bool *stated, double *v, bool parent_ok, bool *is_parent)
{
	size_t used;

	t_space(ps);
	*stated = false;
	if (parent_ok)
		*is_parent = false;
	if (t_lit(ps, "*"))
		return FS_OK;
	if (parent_ok && t_lit(ps, "parent"))
	{
		*is_parent = true;
		return FS_OK;
	}
	used = fs_scan_number(ps->text + ps->i, ps->len - ps->i, v);
	if (used == 0)
	{
		char msg[80];

		snprintf(msg, sizeof(msg), "Expected a number or \"*\" for the %s", what);
		return t_syntax(ps, msg);
	}
	if (!isfinite(*v))
	{
		char msg[80];

		snprintf(msg, sizeof(msg), "The %s is out of range", what);
		return t_syntax(ps, msg);
	}
	ps->i += used;
	*stated = true;
	return FS_OK;
}

static fs_status
t_expect(tparse *ps, char c)
{
	char msg[32];

	t_space(ps);
	if (ps->i < ps->len && ps->text[ps->i] == c)
	{
		ps->i++;
		return FS_OK;
	}
	snprintf(msg, sizeof(msg), "Expected \"%c\"", c);
	return t_syntax(ps, msg);
}

static fs_status
t_vector(tparse *ps, uint8_t **out)
{
	size_t start, len;
	fs_status st = t_expect(ps, '{');

	if (st != FS_OK)
		return st;
	start = ps->i;
	while (ps->i < ps->len && ps->text[ps->i] != '}')
		ps->i++;
	if (ps->i >= ps->len)
		return t_syntax(ps, "Unterminated resource vector");
	st = fs_rv_parse(ps->text + start, ps->i - start, ps->a, 0, out, &len, ps->err);
	ps->i++;
	if (st == FS_OK && fs_rv_count(*out) == 0)
	{
		ps->a->release(ps->a->ctx, *out);
		*out = NULL;
	}
	return st;
}

/* One `path=shares:usage` entry of the text form (the path quoted or bare), added to the tree. */
static fs_status
t_entry(tparse *ps, fs_tree *t, uint8_t **prev)
{
	size_t start, plen;
	uint8_t *path = NULL;
	uint8_t *vecs[2] = {NULL, NULL};
	fs_tree_row row;
	bool quoted = false;
	fs_status st;
	int w;

	memset(&row, 0, sizeof(row));
	t_space(ps);
	start = ps->i;
	while (ps->i < ps->len && (quoted || ps->text[ps->i] != '='))
	{
		if (ps->text[ps->i] == '"')
			quoted = !quoted;
		ps->i++;
	}
	if (ps->i >= ps->len)
		return t_syntax(ps, "Expected \"=\" after a node path");
	plen = ps->i - start;
	while (plen > 0 && fs_is_space(ps->text[start + plen - 1]))
		plen--;
	st = fs_sp_parse(ps->text + start, plen, ps->a, 0, &path, &plen, ps->err);
	if (st != FS_OK)
	{
		char moved[FS_MSG_LEN];

		memcpy(moved, ps->err->detail, sizeof(moved));
		ps->i = start;
		t_syntax(ps, "Invalid node path");
		fs_error_detail(ps->err, "Invalid node path at character %zu: %s",
		                fs_char_pos(ps->text, start), moved);
		return FS_ERR_SYNTAX;
	}
	ps->i++;
	row.path = path;
	/* strictly increasing paths: every node once, in pre-order, as fs_tree_format writes */
	if (*prev != NULL && fs_sp_cmp(*prev, path) >= 0)
	{
		ps->i = start;
		st = t_syntax(ps, "Nodes must be listed once each, in pre-order (sorted by path)");
	}
	if (st == FS_OK)
		st = t_value(ps, t->kind == FS_TREE_POOL ? "weight" : "shares", &row.has_shares,
		             &row.shares, t->kind != FS_TREE_POOL, &row.from_parent);
	if (st == FS_OK && t->kind == FS_TREE_POOL)
	{
		st = t_expect(ps, '/');
		if (st == FS_OK)
			st = t_value(ps, "min share ratio", &row.has_min, &row.min_share, false, NULL);
		if (st == FS_OK)
			st = t_expect(ps, '/');
		if (st == FS_OK)
			st = t_value(ps, "max share ratio", &row.has_max, &row.max_share, false, NULL);
		for (w = 0; w < 2 && st == FS_OK; w++)
		{
			st = t_expect(ps, '/');
			if (st == FS_OK)
				st = t_vector(ps, &vecs[w]);
		}
		row.usage_vec = vecs[0];
		row.demand_vec = vecs[1];
	}
	else if (st == FS_OK)
	{
		bool stated;

		st = t_expect(ps, '/');
		if (st == FS_OK)
			st = t_value(ps, "usage", &stated, &row.usage, false, NULL);
		if (st == FS_OK && !stated)
			st = t_syntax(ps, "Usage must be a number");
	}
	if (st == FS_OK)
		st = fs_tree_add(t, &row, ps->err);
	for (w = 0; w < 2; w++)
		if (vecs[w])
			ps->a->release(ps->a->ctx, vecs[w]);
	if (*prev)
		ps->a->release(ps->a->ctx, *prev);
	*prev = path;
	return st;
}

fs_status
fs_tree_parse(const fs_allocator *a, const char *text, size_t len, fs_tree **out, fs_error *err)
{
	tparse ps = {text, len, 0, a, err};
	fs_tree_kind kind;
	fs_tree *t;
	uint8_t *prev = NULL;
	fs_status st = FS_OK;

	t_space(&ps);
	if (t_lit(&ps, "share{"))
		kind = FS_TREE_SHARE;
	else if (t_lit(&ps, "pool{"))
		kind = FS_TREE_POOL;
	else
		return t_syntax(&ps, "Expected \"share{\" or \"pool{\"");
	t = fs_tree_new(a, kind);
	t_space(&ps);
	if (!t_lit(&ps, "}"))
	{
		for (;;)
		{
			st = t_entry(&ps, t, &prev);
			if (st != FS_OK)
				break;
			t_space(&ps);
			if (t_lit(&ps, ","))
				continue;
			st = t_expect(&ps, '}');
			break;
		}
	}
	t_space(&ps);
	if (st == FS_OK && ps.i < len)
		st = t_syntax(&ps, "Unexpected text after \"}\"");
	if (prev)
		a->release(a->ctx, prev);
	if (st != FS_OK)
	{
		fs_tree_free(t);
		return st;
	}
	*out = t;
	return FS_OK;
}

/* ---------------------------------------------------------------- binary form (send/recv) */

/*
 * Binary form, field by field in network byte order (send starts with a version byte):
 * uint8 version (1), uint8 kind (1 share tree, 2 pool tree), uint32 node count, then each node
 * in pre-order: uint16 label count and per label uint8 length (1..255) and its bytes; uint8
 * flags; float8 shares (the weight in a pool tree); in a share tree float8 usage; in a pool
 * tree float8 min and max share ratio, then the usage and the demand vector, each as uint32
 * entry count (0 when absent) and per entry uint8 kind, uint8 name length, name, float8 amount.
 * Reading it accepts exactly the canonical bytes that sending a value produces.
 */
#define BINARY_VERSION 1

size_t
fs_tree_binary_size(const fs_tree *t)
{
	size_t size = 6;
	uint32_t i;

	for (i = 0; i < t->n; i++)
	{
		const fs_tnode *nd = &t->nodes[i];

		FS_POLL(i);
		size += nd->pathlen + 1 + 8 + 8;
		if (t->kind == FS_TREE_POOL)
			size += 8 + fs_rv_binary_size(nd->usage_vec) + fs_rv_binary_size(nd->demand_vec);
	}
	return size;
}

void
fs_tree_to_binary(const fs_tree *t, uint8_t *out)
{
	uint8_t *p = out;
	uint32_t i;

	*p++ = BINARY_VERSION;
	*p++ = (uint8_t) t->kind;
	p = fs_put_be(p, t->n, 4);
	for (i = 0; i < t->n; i++)
	{
		const fs_tnode *nd = fs_tree_node(t, i);

		FS_POLL(i);
		p = fs_put_be(p, fs_sp_nlevel(nd->path), 2);
		memcpy(p, nd->path + 2, nd->pathlen - 2); /* label lengths are single bytes */
		p += nd->pathlen - 2;
		*p++ = (uint8_t) nd->flags;
		p = fs_put_be_double(p, nd->shares);
		if (t->kind == FS_TREE_POOL)
		{
			p = fs_put_be_double(p, nd->min_share);
			p = fs_put_be_double(p, nd->max_share);
			p = fs_rv_put_binary(p, nd->usage_vec);
			p = fs_rv_put_binary(p, nd->demand_vec);
		}
		else
			p = fs_put_be_double(p, nd->usage);
	}
}

static fs_status
bin_corrupt(fs_error *err, const char *what, uint32_t node)
{
	fs_fail(err, FS_ERR_BINARY, "invalid binary value for type sharetree: %s", what);
	fs_error_detail(err, "The problem is at node %u.", node + 1);
	return FS_ERR_BINARY;
}

/* One vector of the binary form, appended to the flat form as uint32 length + encoded resvec. */
static fs_status
vec_from_binary(const fs_allocator *a, fs_reader *r, fs_sb *flat, uint32_t node, fs_error *err)
{
	uint8_t *rv;
	size_t rvlen;
	uint32_t len32;
	fs_status st = fs_rv_read_binary(r, a, 0, &rv, &rvlen, err);

	if (st != FS_OK)
	{
		fs_error_context(err, "in the vector of node %u", node + 1);
		return st;
	}
	/* an empty list is a vector never stated */
	len32 = fs_rv_count(rv) > 0 ? (uint32_t) rvlen : 0;
	fs_sb_append(flat, (const char *) &len32, 4);
	fs_sb_append(flat, (const char *) rv, len32);
	a->release(a->ctx, rv);
	return FS_OK;
}

/* One node of the binary form, appended to the flat form: path, flags, numbers, vectors. */
static fs_status
node_from_binary(const fs_allocator *a, fs_reader *r, fs_sb *flat, bool pool, uint32_t i,
                 fs_error *err)
{
	uint64_t nl, bits;
	uint16_t nl16;
	const uint8_t *at;
	uint32_t k;
	int f;
	fs_status st = FS_OK;

	if (!fs_read_be(r, 2, &nl))
		return bin_corrupt(err, "value is truncated", i);
	if (nl > FS_SP_DEPTH_MAX)
		return bin_corrupt(err, "malformed path", i);
	nl16 = (uint16_t) nl;
	fs_sb_append(flat, (const char *) &nl16, 2);
	for (k = 0; k < nl; k++)
	{
		uint8_t l;

		if (!fs_read_span(r, 1, &at) || !fs_read_span(r, at[0], &at))
			return bin_corrupt(err, "value is truncated", i);
		l = at[-1];
		fs_sb_append(flat, (const char *) &l, 1);
		fs_sb_append(flat, (const char *) at, l);
	}
	if (!fs_read_span(r, 1, &at))
		return bin_corrupt(err, "value is truncated", i);
	fs_sb_append(flat, (const char *) at, 1);
	/* shares, then usage (share tree) or min, max (pool tree; its scalar usage is 0) */
	for (f = 0; f < 3; f++)
	{
		double d;

		if (f == 1 && pool)
		{
			d = 0;
			fs_sb_append(flat, (const char *) &d, 8);
		}
		if (f == 2 && !pool)
			break;
		if (!fs_read_be(r, 8, &bits))
			return bin_corrupt(err, "value is truncated", i);
		memcpy(&d, &bits, 8);
		fs_sb_append(flat, (const char *) &d, 8);
	}
	if (pool)
	{
		st = vec_from_binary(a, r, flat, i, err);
		if (st == FS_OK)
			st = vec_from_binary(a, r, flat, i, err);
	}
	return st;
}

fs_status
fs_tree_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_tree **out,
                    fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *head;
	uint64_t n;
	uint32_t i, n32;
	fs_sb flat;
	fs_tree *t = NULL;
	fs_status st = FS_OK;
	uint8_t *again;

	if (!fs_read_span(&r, 2, &head) || !fs_read_be(&r, 4, &n))
		return bin_corrupt(err, "header is truncated", 0);
	if (head[0] != BINARY_VERSION)
	{
		fs_fail(err, FS_ERR_BINARY, "unsupported binary format version %d for type sharetree",
		        head[0]);
		fs_error_hint(err, "This server reads version %d; send the value as text instead.",
		              BINARY_VERSION);
		return FS_ERR_BINARY;
	}
	if (head[1] != FS_TREE_SHARE && head[1] != FS_TREE_POOL)
		return bin_corrupt(err, "unknown tree kind", 0);
	if (n == 0 || n > len / 19)
		return bin_corrupt(err, "bad node count", 0);
	/* rewrite into the flat form, whose reader checks everything else */
	fs_sb_init(&flat, a, len + 64);
	fs_sb_append(&flat, (const char *) head, 2);
	fs_sb_append(&flat, "\0\0", 2);
	n32 = (uint32_t) n;
	fs_sb_append(&flat, (const char *) &n32, 4);
	for (i = 0; i < n32 && st == FS_OK; i++)
	{
		FS_POLL(i);
		st = node_from_binary(a, &r, &flat, head[1] == FS_TREE_POOL, i, err);
	}
	if (st == FS_OK && r.p != r.end)
		st = bin_corrupt(err, "trailing bytes after the last node", n32 - 1);
	if (st == FS_OK)
		st = fs_tree_from_flat(a, (const uint8_t *) flat.data, flat.len, &t, err);
	a->release(a->ctx, flat.data);
	if (st == FS_OK)
		st = fs_tree_prepare(t, err);
	if (st != FS_OK)
	{
		if (t)
			fs_tree_free(t);
		return st;
	}
	/* accept only the canonical bytes, so that receive then send gives the input back */
	if (fs_tree_binary_size(t) != len)
		st = bin_corrupt(err, "value is not in canonical form", 0);
	else
	{
		again = a->alloc(a->ctx, len);
		fs_tree_to_binary(t, again);
		if (memcmp(again, data, len) != 0)
			st = bin_corrupt(err, "value is not in canonical form", 0);
		a->release(a->ctx, again);
	}
	if (st != FS_OK)
	{
		fs_tree_free(t);
		return st;
	}
	*out = t;
	return FS_OK;
}
