/*
 * resgroup.c: the PBS resource_group reader. One pass over the lines, as OpenPBS parse_group()
 * does (tokens split on blanks and tabs, integers read whole, parents defined above their
 * children), with a clearer error than PBS's "resgroup: error on line N" for every bad line.
 */
#include "load/resgroup.h"
#include "types/sharepath.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define TOKENS_MAX 4

typedef struct span
{
	const char *p;
	size_t len;
} span;

/* Name lookup: open addressing over the entries that define a group. */
typedef struct name_table
{
	int32_t *slots; /* entry index + 1, 0 = empty */
	size_t mask;
} name_table;

/*
 * PBS splits a line into fields with strtok(line, " \t"): only spaces and tabs separate fields,
 * any other whitespace stays in a field (a CR of a CRLF file is reported, as PBS rejects it).
 */
static bool
is_field_sep(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The entry named name, or -1; *slot is where it is or would go. Linear probing: the tables have
 * at least twice as many slots as entries, so a probe ends.
 */
static int32_t
table_find(const name_table *t, const fs_rg_entry *e, const char *name, size_t len, size_t *slot)
{
	size_t i = (size_t) fs_hash(name, len) & t->mask;

	for (;;)
	{
		int32_t v = t->slots[i];

		if (v == 0)
		{
			*slot = i;
			return -1;
		}
		if (e[v - 1].namelen == len && memcmp(e[v - 1].name, name, len) == 0)
		{
			*slot = i;
			return v - 1;
		}
		i = (i + 1) & t->mask;
	}
}

/* A bad line: the message quotes the line, the detail says what and where. */
static void line_error(const fs_allocator *a, fs_rg_entry *e, fs_status st, size_t at,
                       const char *hint, const char *fmt, ...) FS_PRINTF(6, 7);

/* The detail is kept in e, cut to what an fs_error's detail holds; fs_rg_error raises it. */
static void
line_error(const fs_allocator *a, fs_rg_entry *e, fs_status st, size_t at, const char *hint,
           const char *fmt, ...)
{
	char problem[FS_MSG_LEN];
	char detail[FS_MSG_LEN + 48];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (at == FS_NO_POSITION)
		snprintf(detail, sizeof(detail), "%s.", problem);
	else
		snprintf(detail, sizeof(detail), "%s at character %zu.", problem, fs_char_pos(e->text, at));
	len = strlen(detail);
	if (len > FS_MSG_LEN - 1) /* what an fs_error's detail holds */
		len = FS_MSG_LEN - 1;
	detail[len] = '\0';
	e->error = a->alloc(a->ctx, len + 1);
	memcpy(e->error, detail, len + 1);
	e->error_status = st;
	e->error_hint = hint;
}

void
fs_rg_error(const fs_rg_entry *e, fs_error *err)
{
	char shown[220];

	fs_quote_excerpt(shown, sizeof(shown), e->text, e->textlen, 200);
	fs_fail(err, e->error_status, "invalid resource_group line %d: \"%s\"", (int) e->line, shown);
	fs_error_detail(err, "%s", e->error);
	fs_error_hint(err, "%s", e->error_hint);
}

/* A token shown in a message: at most 60 bytes, without a trailing carriage return. */
static void
show_token(char *buf, size_t cap, span t)
{
	size_t len = t.len;

	if (len > 0 && t.p[len - 1] == '\r')
		len--;
	fs_quote_excerpt(buf, cap, t.p, len, 60);
}

/*
 * strtol(tok, &end, 10) with *end == '\0' as parse_group() demands: optional sign, digits, and
 * nothing else. Returns false when the token is not such an integer; *out saturates.
 */
static bool
read_integer(span t, int64_t *out)
{
	size_t i = 0;
	int64_t v = 0;
	bool neg = false;

	if (i < t.len && (t.p[i] == '+' || t.p[i] == '-'))
		neg = t.p[i++] == '-';
	if (i == t.len)
		return false;
	for (; i < t.len; i++)
	{
		if (t.p[i] < '0' || t.p[i] > '9')
			return false;
		if (v < INT64_C(1) << 40)
			v = v * 10 + (t.p[i] - '0');
	}
	*out = neg ? -v : v;
	return true;
}

static bool
integer_field(const fs_allocator *a, fs_rg_entry *e, span t, const char *What, int64_t *out)
{
	char shown[80];

	if (read_integer(t, out))
		return true;
	show_token(shown, sizeof(shown), t);
	if (t.len > 0 && t.p[t.len - 1] == '\r')
		line_error(a, e, FS_ERR_SYNTAX, (size_t) (t.p + t.len - 1 - e->text),
		           "The file has CRLF line ends: convert it to Unix line ends (dos2unix); PBS "
		           "rejects this line too.",
		           "The %s field \"%s\" ends in a carriage return", What, shown);
	else
		line_error(a, e, FS_ERR_SYNTAX, (size_t) (t.p - e->text),
		           "PBS reads the id and the shares as whole numbers.",
		           "The %s field \"%s\" is not an integer", What, shown);
	return false;
}

/* Why the parent of e is not there: later in the file, on a bad line, or e itself. */
static void
missing_parent(const fs_allocator *a, fs_rg_entry *all, const name_table *first, fs_rg_entry *e)
{
	char shown[80];
	size_t slot;
	int32_t j;
	span p = {e->parent, e->parentlen};

	show_token(shown, sizeof(shown), p);
	if (e->parentlen == e->namelen && memcmp(e->parent, e->name, e->namelen) == 0)
	{
		line_error(a, e, FS_ERR_VALUE, (size_t) (e->parent - e->text),
		           "Define the parent on an earlier line, or use \"root\".",
		           "Group \"%s\" names itself as its parent", shown);
		return;
	}
	j = table_find(first, all, e->parent, e->parentlen, &slot);
	if (j >= 0 && all[j].line > e->line)
		line_error(a, e, FS_ERR_VALUE, (size_t) (e->parent - e->text),
		           "PBS reads the file in order: move the parent's line above its children's.",
		           "Parent group \"%s\" is defined only later, on line %d", shown,
		           (int) all[j].line);
	else if (j >= 0)
		line_error(a, e, FS_ERR_VALUE, (size_t) (e->parent - e->text),
		           "Fix the parent's line first.",
		           "Parent group \"%s\" is not defined (its line %d has an error)", shown,
		           (int) all[j].line);
	else
		line_error(a, e, FS_ERR_VALUE, (size_t) (e->parent - e->text),
		           "Define the parent on an earlier line, or use \"root\".",
		           "Parent group \"%s\" is not defined in the file", shown);
}

/* Split a line into up to four blank-separated tokens and the rest. */
static int
tokenize(const char *s, size_t len, span *tok, span *rest)
{
	size_t i = 0;
	int n = 0;

	rest->p = NULL;
	rest->len = 0;
	while (n < TOKENS_MAX)
	{
		size_t start;

		while (i < len && is_field_sep(s[i]))
			i++;
		if (i == len)
			return n;
		start = i;
		while (i < len && !is_field_sep(s[i]))
			i++;
		tok[n].p = s + start;
		tok[n].len = i - start;
		n++;
	}
	while (i < len && is_field_sep(s[i]))
		i++;
	if (i < len)
	{
		size_t end = len;

		while (end > i && is_field_sep(s[end - 1]))
			end--;
		rest->p = s + i;
		rest->len = end - i;
	}
	return n;
}

/* A line PBS reads whole, as a C string, with the four fields; false (and e's error) if not. */
static bool
line_ok(const fs_allocator *a, fs_rg_entry *e, int ntok)
{
	const char *nul = memchr(e->text, '\0', e->textlen);

	if (e->textlen > FS_RG_LINE_MAX)
	{
		line_error(a, e, FS_ERR_SYNTAX, FS_NO_POSITION,
		           "PBS would take the rest for another line: shorten the names or drop the "
		           "fields after the fourth.",
		           "The line is %zu bytes long, more than the %d bytes PBS reads of a line",
		           e->textlen, FS_RG_LINE_MAX);
		return false;
	}
	/* PBS reads lines as C strings and would stop there: a NUL is no part of a name */
	if (nul != NULL)
	{
		line_error(a, e, FS_ERR_SYNTAX, (size_t) (nul - e->text),
		           "Remove the NUL byte; resource_group is a text file.",
		           "The line holds a NUL byte");
		return false;
	}
	if (ntok < TOKENS_MAX)
	{
		line_error(a, e, FS_ERR_SYNTAX, FS_NO_POSITION,
		           "Write \"name id parent shares\" separated by blanks, or start the line with "
		           "\"#\" to comment it out.",
		           "A line needs four fields (name, id, parent, shares) and this one has %d", ntok);
		return false;
	}
	return true;
}

/* The shares and id fields as PBS stores them (32-bit, shares not negative, id not 1). */
static bool
numbers_ok(const fs_allocator *a, fs_rg_entry *e, const span *tok, int64_t *shares, int64_t *id)
{
	char shown[80];

	if (!integer_field(a, e, tok[3], "shares", shares) || !integer_field(a, e, tok[1], "id", id))
		return false;
	show_token(shown, sizeof(shown), tok[3]);
	if (*shares > INT_MAX || *shares < INT_MIN)
	{
		line_error(a, e, FS_ERR_VALUE, (size_t) (tok[3].p - e->text),
		           "Shares must fit in a 32-bit integer, as PBS stores them.",
		           "The shares field \"%s\" is out of range", shown);
		return false;
	}
	if (*shares < 0)
	{
		line_error(a, e, FS_ERR_VALUE, (size_t) (tok[3].p - e->text),
		           "Give zero or more shares: PBS accepts a negative number but then computes "
		           "negative percentages for the group's siblings.",
		           "The shares field \"%s\" is negative", shown);
		return false;
	}
	show_token(shown, sizeof(shown), tok[1]);
	if (*id > INT_MAX || *id < INT_MIN)
	{
		line_error(a, e, FS_ERR_VALUE, (size_t) (tok[1].p - e->text),
		           "Ids must fit in a 32-bit integer, as PBS stores them.",
		           "The id field \"%s\" is out of range", shown);
		return false;
	}
	if (*id == FS_RG_UNKNOWN_ID)
	{
		line_error(a, e, FS_ERR_VALUE, (size_t) (tok[1].p - e->text),
		           "Give every group its own id.",
		           "Id 1 is taken by the predefined group \"unknown\"");
		return false;
	}
	return true;
}

/* Whether some line names e's name as its parent: the flag is kept on the name's first line. */
static bool
has_children(const name_table *first, const fs_rg_entry *all, const fs_rg_entry *e)
{
	size_t slot;
	int32_t j = table_find(first, all, e->name, e->namelen, &slot);

	return j >= 0 && all[j].has_children;
}

/*
 * Define group e (its name at `slot` of t) unless its id is taken or it nests too deep. An id
 * only matters to a group with children: PBS's parse_group() stores it as the resource group of
 * the entity's children (each child's resgroup is its parent's id) and never checks it, so
 * leaves may share an id (site scripts give every user the same one), while an id shared with a
 * group that has children would merge resource groups. ids holds the first entity of each id.
 */
static void
define_group(const fs_allocator *a, fs_rg_entry *all, const name_table *first, fs_rg_entry *e,
             span idtok, name_table *t, size_t slot, name_table *ids, int64_t id, int64_t shares)
{
	size_t i = (size_t) fs_hash(&id, sizeof(id)) & ids->mask;
	bool taken = false;
	char shown[80];

	/* probe the ids: i ends on the id's first holder or on the free slot that will hold it */
	for (;;)
	{
		int32_t v = ids->slots[i];

		if (v == 0)
			break;
		if (all[v - 1].id == (int32_t) id)
		{
			const fs_rg_entry *o = &all[v - 1];
			bool mine = has_children(first, all, e);

			taken = true;
			if (!mine && !has_children(first, all, o))
				break; /* two leaves: PBS never reads a leaf's id */
			show_token(shown, sizeof(shown), idtok);
			line_error(
			    a, e, FS_ERR_VALUE, (size_t) (idtok.p - e->text),
			    "Give every group with children its own id: PBS does not check ids, "
			    "but a group's id names the resource group of its children (leaves "
			    "may share one).",
			    mine ? "This group has children, and \"%.*s\" on line %d already uses its id %s"
			         : "Group \"%.*s\" on line %d, which has children, already uses id %s",
			    (int) (o->namelen > 60 ? 60 : o->namelen), o->name, (int) o->line, shown);
			return;
		}
		i = (i + 1) & ids->mask;
	}
	e->depth = e->parent_index == FS_RG_PARENT_ROOT      ? 1
	           : e->parent_index == FS_RG_PARENT_UNKNOWN ? 2
	                                                     : all[e->parent_index].depth + 1;
	/* the label count, "unknown" under it when that is the parent, the parent's labels */
	e->pathlen = (e->parent_index == FS_RG_PARENT_ROOT      ? 2
	              : e->parent_index == FS_RG_PARENT_UNKNOWN ? 2 + 1 + 7
	                                                        : all[e->parent_index].pathlen) +
	             1 + e->namelen;
	if (e->depth > FS_SP_DEPTH_MAX)
	{
		line_error(a, e, FS_ERR_VALUE, FS_NO_POSITION, "Flatten the tree.",
		           "The group is nested %u levels deep, more than a sharepath holds (%d)",
		           (unsigned) e->depth, FS_SP_DEPTH_MAX);
		return;
	}
	e->id = (int32_t) id;
	e->shares = (double) shares;
	if (!taken)
		ids->slots[i] = (int32_t) (e - all) + 1;
	t->slots[slot] = (int32_t) (e - all) + 1;
}

/* Check one entry line against the groups defined so far and, if good, define it. */
static void
read_entry(const fs_allocator *a, fs_rg_entry *all, const name_table *first, fs_rg_entry *e,
           name_table *t, name_table *ids)
{
	span tok[TOKENS_MAX], rest;
	int ntok = tokenize(e->text, e->textlen, tok, &rest);
	int64_t id, shares;
	int32_t found;
	size_t slot;
	char shown[80];

	if (!line_ok(a, e, ntok))
		return;
	e->name = tok[0].p;
	e->namelen = tok[0].len;
	e->parent = tok[2].p;
	e->parentlen = tok[2].len;
	e->extra = rest.p;
	e->extralen = rest.len;
	show_token(shown, sizeof(shown), tok[0]);

	/* parse_group() order: name unique, parent defined, shares, id */
	if (fs_span_eq(e->name, e->namelen, "unknown") || fs_span_eq(e->name, e->namelen, "TREEROOT"))
	{
		line_error(a, e, FS_ERR_VALUE, 0,
		           fs_span_eq(e->name, e->namelen, "unknown")
		               ? "Use \"unknown\" only as a parent; its shares are the scheduler's "
		                 "unknown_shares (the unknown_shares argument)."
		               : "Rename the group: \"TREEROOT\" is the root.",
		           "Group \"%s\" is predefined by PBS", shown);
		return;
	}
	found = table_find(t, all, e->name, e->namelen, &slot);
	if (found >= 0)
	{
		line_error(a, e, FS_ERR_VALUE, 0,
		           "Names must be unique in the whole tree; PBS skips this line.",
		           "Group \"%s\" is already defined on line %d", shown, (int) all[found].line);
		return;
	}
	if (fs_span_eq(e->parent, e->parentlen, "root") ||
	    fs_span_eq(e->parent, e->parentlen, "TREEROOT"))
		e->parent_index = FS_RG_PARENT_ROOT;
	else if (fs_span_eq(e->parent, e->parentlen, "unknown"))
		e->parent_index = FS_RG_PARENT_UNKNOWN;
	else
	{
		size_t ps;

		e->parent_index = table_find(t, all, e->parent, e->parentlen, &ps);
		if (e->parent_index < 0)
		{
			missing_parent(a, all, first, e);
			return;
		}
	}
	if (numbers_ok(a, e, tok, &shares, &id))
		define_group(a, all, first, e, tok[1], t, slot, ids, id, shares);
}

/* Blank or a comment: the first non-blank is '#' or '*' (skip_line() skips isspace()). */
static bool
skip_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && fs_is_space(s[i]))
		i++;
	return i == len || s[i] == '#' || s[i] == '*';
}

fs_status
fs_rg_parse(const char *doc, size_t len, const fs_allocator *a, fs_rg_entry **entries, size_t *n,
            fs_error *err)
{
	size_t lines = 0, count = 0, cap = 16, i, pos;
	int32_t lineno = 0;
	fs_rg_entry *e;
	name_table names, ids, first;

	fs_error_clear(err);
	/* count the entry lines first, so that the table of entries is allocated once */
	for (pos = 0; pos < len; lines++)
	{
		const char *nl = memchr(doc + pos, '\n', len - pos);
		size_t end = nl ? (size_t) (nl - doc) : len;

		FS_POLL(lines);
		if (!skip_line(doc + pos, end - pos))
			count++;
		pos = end + 1;
	}
	if (lines > INT32_MAX)
		return fs_fail(err, FS_ERR_LIMIT, "resource_group document has too many lines");
	*n = count;
	*entries = NULL;
	if (count == 0)
		return FS_OK;
	while (cap < 2 * count)
		cap *= 2;
	e = a->alloc(a->ctx, count * sizeof(fs_rg_entry));
	names.slots = a->alloc(a->ctx, cap * sizeof(int32_t));
	ids.slots = a->alloc(a->ctx, cap * sizeof(int32_t));
	first.slots = a->alloc(a->ctx, cap * sizeof(int32_t));
	memset(names.slots, 0, cap * sizeof(int32_t));
	memset(ids.slots, 0, cap * sizeof(int32_t));
	memset(first.slots, 0, cap * sizeof(int32_t));
	names.mask = ids.mask = first.mask = cap - 1;

	/* fill in the lines, then read them in order, as PBS does */
	for (pos = 0, i = 0; pos < len; lineno++)
	{
		const char *nl = memchr(doc + pos, '\n', len - pos);
		size_t end = nl ? (size_t) (nl - doc) : len;

		FS_POLL((size_t) lineno);
		if (!skip_line(doc + pos, end - pos))
		{
			memset(&e[i], 0, sizeof(fs_rg_entry));
			e[i].line = lineno + 1;
			e[i].text = doc + pos;
			e[i].textlen = end - pos;
			i++;
		}
		pos = end + 1;
	}
	/* the first line of each name, for the "defined only later" message */
	for (i = 0; i < count; i++)
	{
		span tok[TOKENS_MAX], rest;
		size_t slot;

		FS_POLL(i);
		if (e[i].textlen <= FS_RG_LINE_MAX &&
		    tokenize(e[i].text, e[i].textlen, tok, &rest) == TOKENS_MAX)
		{
			e[i].name = tok[0].p;
			e[i].namelen = tok[0].len;
			e[i].parent = tok[2].p;
			e[i].parentlen = tok[2].len;
			if (table_find(&first, e, e[i].name, e[i].namelen, &slot) < 0)
				first.slots[slot] = (int32_t) i + 1;
		}
	}
	/* which names have children: a line names them as its parent ("root" and kin are not names) */
	for (i = 0; i < count; i++)
	{
		size_t slot;
		int32_t j;

		FS_POLL(i);
		if (e[i].parent == NULL || fs_span_eq(e[i].parent, e[i].parentlen, "root") ||
		    fs_span_eq(e[i].parent, e[i].parentlen, "TREEROOT") ||
		    fs_span_eq(e[i].parent, e[i].parentlen, "unknown"))
			continue;
		j = table_find(&first, e, e[i].parent, e[i].parentlen, &slot);
		if (j >= 0 && (size_t) j != i)
			e[j].has_children = true;
	}
	for (i = 0; i < count; i++)
	{
		FS_POLL(i);
		read_entry(a, e, &first, &e[i], &names, &ids);
	}
	a->release(a->ctx, names.slots);
	a->release(a->ctx, ids.slots);
	a->release(a->ctx, first.slots);
	*entries = e;
	return FS_OK;
}

void
fs_rg_path_write(const fs_rg_entry *entries, size_t i, uint8_t *out)
{
	const fs_rg_entry *e = &entries[i];
	size_t pos = e->pathlen;

	/* labels from the last up the parent chain; an unknown parent's entry is under "unknown" */
	fs_sp_set_nlevel(out, e->depth);
	for (;;)
	{
		fs_sp_put_label_before(out, &pos, e->name, e->namelen);
		if (e->parent_index == FS_RG_PARENT_UNKNOWN)
		{
			memcpy(out + 3, "unknown", 7);
			out[2] = 7;
			return;
		}
		if (e->parent_index == FS_RG_PARENT_ROOT)
			return;
		e = &entries[e->parent_index];
	}
}

fs_status
fs_rg_path(const fs_rg_entry *entries, size_t i, const fs_allocator *a, size_t reserve,
           uint8_t **out, size_t *outlen, fs_error *err)
{
	uint8_t *base = a->alloc(a->ctx, reserve + entries[i].pathlen);

	(void) err;
	memset(base, 0, reserve);
	fs_rg_path_write(entries, i, base + reserve);
	*out = base;
	*outlen = entries[i].pathlen;
	return FS_OK;
}
