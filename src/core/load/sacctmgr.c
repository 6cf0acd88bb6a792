/*
 * sacctmgr.c: Slurm associations as share-tree paths, from `sacctmgr dump` files and
 * `sacctmgr show assoc -P` listings: one pass over the document, one hash lookup per row for its
 * parent account, and each row's path written only when it is asked for.
 */
#include "load/sacctmgr.h"

#include "types/sharepath.h"

#include <stdio.h>
#include <string.h>

/* Shares as sacctmgr writes them: a number, "parent", or 2147483647 (parent, in dumps). */
#define SLURM_FS_USE_PARENT INT64_C(2147483647)

/* a row reference that names no row: not found, or no parent set yet */
#define NO_ROW (-2)
/* bytes of the root's encoded path: just its label count */
#define ROOT_PATH_BYTES 2

typedef struct acct_ent
{
	fs_str cluster, account;
	int32_t row;
	bool used;
} acct_ent;

typedef struct assoc_state
{
	const fs_allocator *a;
	fs_error *err;
	fs_assoc_row *rows;
	size_t nrows, caprows;
	acct_ent *map; /* open addressing on (cluster, account): the account's row */
	size_t capmap, nmap;
	int lineno;
	const char *line;
	size_t linelen;
} assoc_state;

static fs_status
assoc_fail(assoc_state *s, const char *problem, const char *hint)
{
	char shown[220];

	fs_quote_excerpt(shown, sizeof(shown), s->line, s->linelen, 200);
	fs_fail(s->err, FS_ERR_SYNTAX, "invalid sacctmgr association data at line %d: \"%s\"",
	        s->lineno, shown);
	fs_error_detail(s->err, "%c%s.", fs_ascii_upper(problem[0]), problem + 1);
	fs_error_hint(s->err, "%s",
	              hint ? hint
	                   : "Give the text of a sacctmgr dump file, or of sacctmgr show assoc -P "
	                     "format=Cluster,Account,User,Partition,Share,ParentName.");
	return FS_ERR_SYNTAX;
}

static size_t
map_slot(const assoc_state *s, fs_str cluster, fs_str account)
{
	uint64_t h = fs_hash(account.s ? account.s : "", account.len) ^
	             (fs_hash(cluster.s ? cluster.s : "", cluster.len) * 31);
	size_t i = (size_t) h & (s->capmap - 1);

	/* linear probing; map_put keeps the table at most half full, so an empty slot ends it */
	for (;; i = (i + 1) & (s->capmap - 1))
	{
		const acct_ent *e = &s->map[i];

		if (!e->used)
			return i;
		if (e->account.len == account.len && e->cluster.len == cluster.len &&
		    (account.len == 0 || memcmp(e->account.s, account.s, account.len) == 0) &&
		    (cluster.len == 0 || memcmp(e->cluster.s, cluster.s, cluster.len) == 0))
			return i;
	}
}

/* The row of the account, or NO_ROW. */
static int32_t
map_get(const assoc_state *s, fs_str cluster, fs_str account)
{
	const acct_ent *e = &s->map[map_slot(s, cluster, account)];

	return e->used ? e->row : NO_ROW;
}

/* Set the account's row; the table doubles (every entry placed again) before it is half full. */
static void
map_put(assoc_state *s, fs_str cluster, fs_str account, int32_t row)
{
	size_t i;

	if (2 * (s->nmap + 1) > s->capmap)
	{
		acct_ent *old = s->map;
		size_t oldcap = s->capmap, k;

		s->capmap *= 2;
		s->map = s->a->alloc(s->a->ctx, s->capmap * sizeof(acct_ent));
		memset(s->map, 0, s->capmap * sizeof(acct_ent));
		for (k = 0; k < oldcap; k++)
		{
			FS_POLL(k);
			if (old[k].used)
				s->map[map_slot(s, old[k].cluster, old[k].account)] = old[k];
		}
		s->a->release(s->a->ctx, old);
	}
	i = map_slot(s, cluster, account);
	if (!s->map[i].used)
		s->nmap++;
	s->map[i].cluster = cluster;
	s->map[i].account = account;
	s->map[i].row = row;
	s->map[i].used = true;
}

static fs_status
parse_shares(assoc_state *s, const char *v, size_t len, fs_assoc_row *r)
{
	int64_t x;

	if (fs_span_ieq(v, len, "parent"))
	{
		r->from_parent = true;
		return FS_OK;
	}
	if (!fs_parse_digits(v, len, INT64_C(999999999999), &x))
		return assoc_fail(s, "shares must be a whole number or \"parent\"", NULL);
	if (x == SLURM_FS_USE_PARENT)
		r->from_parent = true;
	else
	{
		r->has_shares = true;
		r->shares = (double) x;
	}
	return FS_OK;
}

static const fs_str root_name = {"root", 4};

/*
 * Add a row whose path is the path of row `parent` (a row index or FS_ASSOC_ROOT) and `label`,
 * or the root when label is NULL. A user's association in one partition (part.s != NULL, not
 * empty) is its own node, as in Slurm, labelled "user@partition". Only the label's pieces are
 * kept: the path is written when emitted.
 */
static fs_status
add_row(assoc_state *s, int32_t parent, const char *label, size_t labellen, fs_str part,
        fs_assoc_row **out)
{
	fs_assoc_row *r;

	if (s->nrows == s->caprows)
	{
		fs_assoc_row *old = s->rows;

		s->caprows = s->caprows ? 2 * s->caprows : 16;
		s->rows = s->a->alloc(s->a->ctx, s->caprows * sizeof(fs_assoc_row));
		if (old)
		{
			memcpy(s->rows, old, s->nrows * sizeof(fs_assoc_row));
			s->a->release(s->a->ctx, old);
		}
	}
	r = &s->rows[s->nrows];
	memset(r, 0, sizeof(*r));
	r->line = s->lineno;
	r->parent = FS_ASSOC_ROOT;
	r->pathlen = ROOT_PATH_BYTES;
	if (label != NULL)
	{
		const fs_assoc_row *p = parent >= 0 ? &s->rows[parent] : NULL;
		uint32_t depth = (p ? p->depth : 0) + 1;
		size_t full = labellen + (part.len > 0 ? 1 + part.len : 0);
		fs_status st = fs_sp_check_depth(depth, s->err);

		if (st == FS_OK)
			st = fs_sp_check_label(label, labellen, depth - 1, s->err);
		if (st == FS_OK && part.len > 0)
			st = fs_sp_check_label(part.s, part.len, depth - 1, s->err);
		if (st == FS_OK && full > FS_SP_LABEL_MAX)
		{
			char msg[FS_MSG_LEN];

			snprintf(msg, sizeof(msg),
			         "the label \"user@partition\" is %zu bytes long; at most %d are allowed", full,
			         FS_SP_LABEL_MAX);
			return assoc_fail(s, msg,
			                  "A user's association in a partition is the sharepath label "
			                  "user@partition: shorten the user or the partition name.");
		}
		if (st != FS_OK)
		{
			char msg[FS_MSG_LEN];

			snprintf(msg, sizeof(msg), "%s", s->err->message);
			return assoc_fail(s, msg, NULL);
		}
		r->parent = parent;
		r->label.s = label;
		r->label.len = labellen;
		if (part.len > 0)
			r->label_partition = part;
		r->depth = depth;
		r->pathlen = (p ? p->pathlen : ROOT_PATH_BYTES) + 1 + full;
	}
	s->nrows++;
	*out = r;
	return FS_OK;
}

/* The cluster's root row, or FS_ASSOC_ROOT when no row holds the root (the same empty path). */
static int32_t
root_row(const assoc_state *s, fs_str cluster)
{
	int32_t r = map_get(s, cluster, root_name);

	return r != NO_ROW ? r : FS_ASSOC_ROOT;
}

/* A dump name: 'quoted' or bare up to ':'; *end is the offset after it. */
static fs_str
dump_name(const char *p, size_t len, size_t *end)
{
	size_t i;

	if (len > 0 && p[0] == '\'')
	{
		const char *q = memchr(p + 1, '\'', len - 1);

		if (q)
		{
			*end = (size_t) (q - p) + 1;
			return fs_str_of(p + 1, (size_t) (q - p) - 1);
		}
	}
	for (i = 0; i < len && p[i] != ':'; i++)
		;
	*end = i;
	while (i > 0 && p[i - 1] == ' ')
		i--;
	return fs_str_of(p, i);
}

/* The value of option `key` in ":Key=value:Key='v:w'" (quotes kept out), or p == NULL. */
static fs_str
dump_option(const char *p, size_t len, const char *key)
{
	size_t i = 0, kl = strlen(key);

	while (i < len)
	{
		size_t st, vs;
		bool q = false;

		if (p[i] == ':')
			i++;
		st = i;
		while (i < len && (q || p[i] != ':'))
		{
			if (p[i] == '\'')
				q = !q;
			i++;
		}
		if (i - st > kl && p[st + kl] == '=' && fs_span_ieq(p + st, kl, key))
		{
			vs = st + kl + 1;
			if (i - vs >= 2 && p[vs] == '\'' && p[i - 1] == '\'')
				return fs_str_of(p + vs + 1, i - vs - 2);
			return fs_str_of(p + vs, i - vs);
		}
	}
	return fs_str_of(NULL, 0);
}

/*
 * One dump line: Cluster starts a cluster's tree (its root row), Parent names the account the
 * next Account and User lines go under, QOS and Federation lines are skipped. A row with no
 * Fairshare option gets Slurm's default of 1.
 */
static fs_status
dump_line(assoc_state *s, const char *p, size_t len, fs_str *cluster, int32_t *parent,
          fs_str *parent_name)
{
	size_t w = 0, end;
	fs_str name, fsv;
	fs_assoc_row *r;
	fs_status st;
	enum
	{
		K_CLUSTER,
		K_PARENT,
		K_ACCOUNT,
		K_USER,
		K_OTHER
	} kind;

	while (w < len && p[w] != ' ')
		w++;
	if (w + 3 > len || memcmp(p + w, " - ", 3) != 0)
		return assoc_fail(s, "a dump line reads \"Kind - 'name':Option=value...\"", NULL);
	if (fs_span_ieq(p, w, "Cluster"))
		kind = K_CLUSTER;
	else if (fs_span_ieq(p, w, "Parent"))
		kind = K_PARENT;
	else if (fs_span_ieq(p, w, "Account"))
		kind = K_ACCOUNT;
	else if (fs_span_ieq(p, w, "User"))
		kind = K_USER;
	else if (fs_span_ieq(p, w, "QOS") || fs_span_ieq(p, w, "Federation"))
		kind = K_OTHER;
	else
		return assoc_fail(s, "unknown line kind (Cluster, Parent, Account, User or QOS expected)",
		                  NULL);
	p += w + 3;
	len -= w + 3;
	name = dump_name(p, len, &end);
	if (name.s == NULL)
		return assoc_fail(s, "the name is empty", NULL);
	p += end;
	len -= end;
	if (kind == K_OTHER)
		return FS_OK;
	if (kind == K_PARENT)
	{
		int32_t pp = fs_span_ieq(name.s, name.len, "root") ? root_row(s, *cluster)
		                                                   : map_get(s, *cluster, name);

		if (pp == NO_ROW)
			return assoc_fail(s, "the parent account is not defined on an earlier line", NULL);
		*parent = pp;
		*parent_name = name;
		return FS_OK;
	}
	if (kind == K_CLUSTER)
	{
		*cluster = name;
		st = add_row(s, NO_ROW, NULL, 0, fs_str_of(NULL, 0), &r);
		if (st != FS_OK)
			return st;
		r->account = root_name;
		map_put(s, name, root_name, (int32_t) (s->nrows - 1));
		*parent = (int32_t) (s->nrows - 1);
		*parent_name = root_name;
	}
	else
	{
		if (kind == K_ACCOUNT && map_get(s, *cluster, name) != NO_ROW)
			return assoc_fail(s, "the account is defined twice", NULL);
		st = add_row(s, *parent != NO_ROW ? *parent : root_row(s, *cluster), name.s, name.len,
		             kind == K_USER ? dump_option(p, len, "Partition") : fs_str_of(NULL, 0), &r);
		if (st != FS_OK)
			return st;
		if (kind == K_ACCOUNT)
		{
			r->account = name;
			map_put(s, *cluster, name, (int32_t) (s->nrows - 1));
		}
		else
		{
			r->account = *parent != NO_ROW ? *parent_name : root_name;
			r->user = name;
			r->partition = dump_option(p, len, "Partition");
		}
	}
	r->cluster = *cluster;
	fsv = dump_option(p, len, "Fairshare");
	if (fsv.s == NULL)
	{
		r->has_shares = true; /* Slurm's default */
		r->shares = 1;
		return FS_OK;
	}
	return parse_shares(s, fsv.s, fsv.len, r);
}

/* `sacctmgr show assoc -P` listing: the header's columns, by name. */
typedef struct list_cols
{
	int cluster, account, user, partition, share, parent;
	size_t ncols;
	bool trailing;
} list_cols;

/* Which column is which, by name (Share or Fairshare, ParentName or Par Name); Account and Share
 * must be there, other columns are ignored. */
static fs_status
list_header(assoc_state *s, const char *p, size_t len, list_cols *lc)
{
	size_t i, st = 0, c = 0;

	lc->cluster = lc->account = lc->user = lc->partition = lc->share = lc->parent = -1;
	lc->trailing = len > 0 && p[len - 1] == '|';
	if (lc->trailing)
		len--;
	for (i = 0; i <= len; i++)
	{
		const char *nm = p + st;
		size_t nl = i - st;

		if (i < len && p[i] != '|')
			continue;
		if (fs_span_ieq(nm, nl, "Cluster"))
			lc->cluster = (int) c;
		else if (fs_span_ieq(nm, nl, "Account"))
			lc->account = (int) c;
		else if (fs_span_ieq(nm, nl, "User"))
			lc->user = (int) c;
		else if (fs_span_ieq(nm, nl, "Partition"))
			lc->partition = (int) c;
		else if (fs_span_ieq(nm, nl, "Share") || fs_span_ieq(nm, nl, "Fairshare"))
			lc->share = (int) c;
		else if (fs_span_ieq(nm, nl, "ParentName") || fs_span_ieq(nm, nl, "Par Name"))
			lc->parent = (int) c;
		c++;
		st = i + 1;
	}
	lc->ncols = c;
	if (lc->account < 0 || lc->share < 0)
		return assoc_fail(s, "the header has no Account or no Share column",
		                  "List the associations with sacctmgr show assoc -P "
		                  "format=Cluster,Account,User,Partition,Share,ParentName.");
	return FS_OK;
}

#define LIST_DEPTH_MAX 64

/*
 * One listing row. A user row goes under its account; an account under its ParentName or, with no
 * such column, under the account one indentation level up (sacctmgr's tree option); "root" at no
 * indentation and with no parent is the cluster's root.
 */
static fs_status
list_line(assoc_state *s, const list_cols *lc, const char *p, size_t len,
          int32_t *stack /* [LIST_DEPTH_MAX]: account rows by indentation */)
{
	fs_str f[64];
	size_t i, st = 0, c = 0, depth = 0;
	fs_str cluster, account, user, parent;
	int32_t pp;
	fs_assoc_row *r;
	fs_status rs;

	if (lc->trailing && len > 0 && p[len - 1] == '|')
		len--;
	/* the fields; beyond 64 they are only counted, for the error below */
	for (i = 0; i <= len; i++)
	{
		if (i < len && p[i] != '|')
			continue;
		if (c < 64)
			f[c] = fs_str_of(p + st, i - st);
		c++;
		st = i + 1;
	}
	if (c != lc->ncols || c > 64)
		return assoc_fail(s, "the line has another number of fields than the header", NULL);
#define F(x) ((x) >= 0 ? f[x] : fs_str_of(NULL, 0))
	cluster = F(lc->cluster);
	account = F(lc->account);
	user = F(lc->user);
	parent = F(lc->parent);
#undef F
	while (account.len > 0 && account.s[0] == ' ')
	{
		account.s++;
		account.len--;
		depth++;
	}
	if (account.len == 0)
		return assoc_fail(s, "the account is empty", NULL);
	if (user.s)
	{
		pp = map_get(s, cluster, account);
		if (pp == NO_ROW)
			return assoc_fail(s, "the user's account is not listed on an earlier line", NULL);
		rs = add_row(s, pp, user.s, user.len,
		             lc->partition >= 0 ? f[lc->partition] : fs_str_of(NULL, 0), &r);
	}
	else if (fs_span_ieq(account.s, account.len, "root") && parent.s == NULL && depth == 0)
		rs = add_row(s, NO_ROW, NULL, 0, fs_str_of(NULL, 0), &r);
	else
	{
		if (lc->parent >= 0)
			pp = parent.s
			         ? (fs_span_ieq(parent.s, parent.len, "root") ? root_row(s, cluster)
			                                                      : map_get(s, cluster, parent))
			         : root_row(s, cluster);
		else if (depth == 0)
			/* a tree listing indents every account but root: this is a flat listing, which
			 * does not say where the account hangs (sacctmgr show assoc without tree) */
			return assoc_fail(s, "the listing does not say which account is the parent",
			                  "Without a ParentName column the tree comes from the indentation "
			                  "of sacctmgr's tree option: list with format=...,ParentName or "
			                  "with the tree option.");
		else
			pp = depth - 1 < LIST_DEPTH_MAX ? stack[depth - 1] : NO_ROW;
		if (pp == NO_ROW)
			return assoc_fail(s, "the parent account is not listed on an earlier line",
			                  lc->parent >= 0 ? NULL
			                                  : "Without a ParentName column the tree comes from "
			                                    "the indentation of sacctmgr's tree option.");
		if (map_get(s, cluster, account) != NO_ROW)
			return assoc_fail(s, "the account is listed twice", NULL);
		rs = add_row(s, pp, account.s, account.len, fs_str_of(NULL, 0), &r);
	}
	if (rs != FS_OK)
		return rs;
	if (!user.s)
	{
		map_put(s, cluster, account, (int32_t) (s->nrows - 1));
		if (depth < LIST_DEPTH_MAX)
		{
			stack[depth] = (int32_t) (s->nrows - 1);
			/* the deeper levels were the previous account's subtree */
			for (i = depth + 1; i < LIST_DEPTH_MAX; i++)
				stack[i] = NO_ROW;
		}
	}
	r->cluster = cluster;
	r->account = account;
	r->user = user;
	r->partition = lc->partition >= 0 ? f[lc->partition] : fs_str_of(NULL, 0);
	if (f[lc->share].s == NULL)
		return assoc_fail(s, "the share is empty", NULL);
	return parse_shares(s, f[lc->share].s, f[lc->share].len, r);
}

fs_status
fs_sacctmgr_assoc(const char *doc, size_t len, const fs_allocator *a, fs_assoc_row **rows,
                  size_t *nrows, fs_error *err)
{
	assoc_state s;
	size_t pos = 0;
	fs_status st = FS_OK;
	int mode = 0; /* 0: not known yet, 1: dump, 2: listing */
	list_cols lc;
	fs_str cluster = {NULL, 0}, parent_name = {NULL, 0};
	int32_t parent = NO_ROW;
	int32_t stack[LIST_DEPTH_MAX];
	size_t k;

	memset(&s, 0, sizeof(s));
	for (k = 0; k < LIST_DEPTH_MAX; k++)
		stack[k] = NO_ROW;
	memset(&lc, 0, sizeof(lc));
	s.a = a;
	s.err = err;
	s.capmap = 64;
	s.map = a->alloc(a->ctx, s.capmap * sizeof(acct_ent));
	memset(s.map, 0, s.capmap * sizeof(acct_ent));
	/* the first line that is not blank or a comment sets the mode: with a "|" it is a listing's
	 * header, and then leading blanks (the tree's indentation) and "#" are data */
	while (pos < len && st == FS_OK)
	{
		const char *nl = memchr(doc + pos, '\n', len - pos);
		size_t end = nl ? (size_t) (nl - doc) : len, b = pos, e = end;

		fs_check_interrupts();
		s.lineno++;
		s.line = doc + pos;
		s.linelen = end - pos;
		pos = end + 1;
		if (e > b && doc[e - 1] == '\r')
			e--;
		while (b < e && fs_is_space(doc[b]) && mode != 2)
			b++;
		while (e > b && fs_is_space(doc[e - 1]))
			e--;
		if (b == e || (doc[b] == '#' && mode != 2))
			continue;
		if (mode == 0)
		{
			mode = memchr(doc + b, '|', e - b) ? 2 : 1;
			if (mode == 2)
			{
				st = list_header(&s, doc + b, e - b, &lc);
				continue;
			}
		}
		if (mode == 1)
			st = dump_line(&s, doc + b, e - b, &cluster, &parent, &parent_name);
		else
			st = list_line(&s, &lc, doc + b, e - b, stack);
	}
	a->release(a->ctx, s.map);
	if (st != FS_OK)
	{
		fs_sacctmgr_assoc_free(s.rows, s.nrows, a);
		*rows = NULL;
		*nrows = 0;
		return st;
	}
	*rows = s.rows;
	*nrows = s.nrows;
	return FS_OK;
}

void
fs_sacctmgr_assoc_path(const fs_assoc_row *rows, size_t i, uint8_t *out)
{
	const fs_assoc_row *r = &rows[i];
	size_t pos = r->pathlen;

	/* labels from the last up the parent chain */
	fs_sp_set_nlevel(out, r->depth);
	while (r->label.s != NULL)
	{
		if (r->label_partition.len > 0)
		{
			/* "user@partition": the pieces before pos, then the label's length byte */
			size_t len = r->label.len + 1 + r->label_partition.len;

			pos -= r->label_partition.len;
			memcpy(out + pos, r->label_partition.s, r->label_partition.len);
			out[--pos] = '@';
			pos -= r->label.len;
			memcpy(out + pos, r->label.s, r->label.len);
			out[--pos] = (uint8_t) len;
		}
		else
			fs_sp_put_label_before(out, &pos, r->label.s, r->label.len);
		if (r->parent == FS_ASSOC_ROOT)
			break;
		r = &rows[r->parent];
	}
}

void
fs_sacctmgr_assoc_free(fs_assoc_row *rows, size_t nrows, const fs_allocator *a)
{
	(void) nrows;
	if (rows != NULL)
		a->release(a->ctx, rows);
}
