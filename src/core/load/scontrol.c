/* scontrol.c: `scontrol show job|partition|node|config` output as records of Key=Value pairs. */
#include "load/scontrol.h"

#include <string.h>

/* The keys scontrol's multi-line form puts last on their line, free text to the line's end. */
static bool
rest_of_line_key(const char *k, size_t len)
{
	static const char *const keys[] = {"JobName",       "Command", "WorkDir", "StdIn",
	                                   "StdOut",        "StdErr",  "Comment", "AdminComment",
	                                   "SystemComment", "OS"};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (fs_span_eq(k, len, keys[i]))
			return true;
	return false;
}

static bool
key_char(char c)
{
	return fs_is_name_start(c) || fs_is_digit(c) || c == '_' || c == ':' || c == '/' || c == '.' ||
	       c == '+' || c == '-';
}

/* The length of the key of a Key= word at s[0..len), 0 when it is none. */
static size_t
key_at(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || !fs_is_name_start(s[0]))
		return 0;
	for (i = 1; i < len && key_char(s[i]); i++)
		;
	return i < len && s[i] == '=' ? i : 0;
}

/* A `show config` line: Key, blanks, '=' (then a blank or the end): the key's length, else 0. */
static size_t
config_key_at(const char *s, size_t len, size_t *val)
{
	size_t i, k;

	if (len == 0 || !fs_is_name_start(s[0]))
		return 0;
	for (i = 1; i < len && !fs_is_space(s[i]) && s[i] != '='; i++)
		;
	k = i;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == k || i >= len || s[i] != '=')
		return 0;
	i++;
	if (i < len && s[i] == ' ')
		i++;
	*val = i;
	return k;
}

typedef struct sc_state
{
	fs_scontrol_attr *v;
	size_t n, cap, record;
	const fs_allocator *a;
} sc_state;

static void
push(sc_state *st, size_t key_off, size_t key_len, size_t val_off, size_t val_len, const char *text)
{
	fs_scontrol_attr *p;

	while (val_len > 0 && fs_is_space(text[val_off + val_len - 1]))
		val_len--;
	if (st->n == st->cap)
	{
		size_t cap = st->cap ? st->cap * 2 : 64;
		fs_scontrol_attr *nv = st->a->alloc(st->a->ctx, cap * sizeof(*nv));

		if (st->n)
			memcpy(nv, st->v, st->n * sizeof(*nv));
		if (st->v)
			st->a->release(st->a->ctx, st->v);
		st->v = nv;
		st->cap = cap;
	}
	p = &st->v[st->n++];
	p->record = st->record;
	p->key_off = key_off;
	p->key_len = key_len;
	p->val_off = val_off;
	p->val_len = val_len;
}

/* The Key=Value words of one line of a record, from b to e; multi: the record's form. */
static void
line_pairs(sc_state *st, const char *t, size_t b, size_t e, bool multi)
{
	size_t i = b;
	bool have = false;

	while (i < e)
	{
		size_t k, v, j;

		while (i < e && fs_is_space(t[i]))
			i++;
		if (i == e)
			break;
		k = key_at(t + i, e - i);
		if (k == 0)
		{
			/* a word that is no key: part of the value before it (or nothing to join) */
			while (i < e && !fs_is_space(t[i]))
				i++;
			if (have)
				st->v[st->n - 1].val_len = i - st->v[st->n - 1].val_off;
			continue;
		}
		v = i + k + 1;
		if (multi && rest_of_line_key(t + i, k))
			j = e;
		else
		{
			/* to the next word that is a key */
			j = v;
			while (j < e)
			{
				while (j < e && !fs_is_space(t[j]))
					j++;
				while (j < e && fs_is_space(t[j]))
					j++;
				if (j < e && key_at(t + j, e - j))
					break;
			}
		}
		push(st, i, k, v, j - v, t);
		have = true;
		i = j;
	}
}

fs_status
fs_scontrol_parse(const char *text, size_t len, fs_scontrol_attr **out, size_t *n,
                  const fs_allocator *a, fs_error *err)
{
	sc_state st = {NULL, 0, 0, 0, a};
	size_t p = 0, line = 0;
	bool open = false, config = false, multi = false;

	while (p < len)
	{
		size_t e = p, next, b, cv;
		bool indented;

		FS_POLL(line);
		line++;
		while (e < len && text[e] != '\n')
			e++;
		next = e < len ? e + 1 : e;
		if (e > p && text[e - 1] == '\r')
			e--;
		indented = p < e && (text[p] == ' ' || text[p] == '\t');
		for (b = p; b < e && fs_is_space(text[b]); b++)
			;
		if (b == e)
			open = false; /* a blank line ends a record */
		else if (!indented && config_key_at(text + b, e - b, &cv))
		{
			if (!open || !config)
			{
				if (st.record == FS_SCONTROL_RECORDS_MAX)
					goto limit;
				st.record++;
				open = config = true;
			}
			push(&st, b, config_key_at(text + b, e - b, &cv), b + cv, e - b - cv, text);
		}
		else if (!indented && key_at(text + b, e - b))
		{
			size_t q = next;

			if (st.record == FS_SCONTROL_RECORDS_MAX)
				goto limit;
			st.record++;
			open = true;
			config = false;
			/* the multi-line form when the next line is indented */
			multi = q < len && (text[q] == ' ' || text[q] == '\t');
			line_pairs(&st, text, b, e, multi);
		}
		else if (indented && open && !config)
			line_pairs(&st, text, b, e, true);
		else
			open = false; /* a title, or text outside a record */
		p = next;
	}
	*out = st.v;
	*n = st.n;
	return FS_OK;
limit:
	if (st.v)
		a->release(a->ctx, st.v);
	fs_fail(err, FS_ERR_LIMIT, "scontrol output has too many records");
	fs_error_hint(err, "Split the document into parts of fewer than 2^31 records.");
	return FS_ERR_LIMIT;
}
