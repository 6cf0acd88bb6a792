/*
 * json.c: JSON text into an fs_json tree (RFC 8259), and the lookups the loaders share.
 */
#include "load/json.h"

#include <stdio.h>
#include <string.h>

static const char subject[] = "JSON";
static const char hint[] = "Give the document as the tool wrote it, in UTF-8.";

typedef struct jparser
{
	const char *s;
	size_t len, i;
	const fs_allocator *a;
	fs_error *err;
} jparser;

/* A syntax error at byte at; DETAIL is a sentence, so the problem starts in upper case. */
static fs_status
jbad(jparser *p, size_t at, const char *problem)
{
	char buf[120];

	snprintf(buf, sizeof(buf), "%s", problem);
	buf[0] = fs_ascii_upper(buf[0]);
	return fs_fail_syntax(p->err, subject, p->s, p->len, at, buf, hint);
}

static void
skip_ws(jparser *p)
{
	while (p->i < p->len &&
	       (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static char *
copy_span(const fs_allocator *a, const char *s, size_t len)
{
	char *d = a->alloc(a->ctx, len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

static int
hex4(const char *s)
{
	int v = 0, k;

	for (k = 0; k < 4; k++)
	{
		char c = s[k];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A string from the opening quote at p->i: escapes decoded, \u pairs joined into UTF-8. */
static fs_status
parse_string(jparser *p, fs_str *out)
{
	size_t start = ++p->i, n = 0;
	char *d;

	/* first pass: find the end and check the escapes; the decoded text is never longer */
	while (p->i < p->len && p->s[p->i] != '"')
	{
		unsigned char c = (unsigned char) p->s[p->i];

		FS_POLL(p->i);
		if (c < 0x20)
			return jbad(p, p->i, "control character in a string");
		if (c == '\\')
		{
			if (p->i + 1 >= p->len)
				return jbad(p, p->len, "unterminated string");
			if (p->s[p->i + 1] == 'u')
			{
				if (p->i + 6 > p->len || hex4(p->s + p->i + 2) < 0)
					return jbad(p, p->i, "\\u must be followed by four hex digits");
				p->i += 6;
				continue;
			}
			if (!strchr("\"\\/bfnrt", p->s[p->i + 1]))
				return jbad(p, p->i, "invalid escape in a string");
			p->i += 2;
			continue;
		}
		p->i++;
	}
	if (p->i >= p->len)
		return jbad(p, p->len, "unterminated string");
	d = p->a->alloc(p->a->ctx, p->i - start + 1);
	for (size_t k = start; k < p->i;)
	{
		char c = p->s[k];
		int u, lo;

		if (c != '\\')
		{
			d[n++] = c;
			k++;
			continue;
		}
		c = p->s[k + 1];
		if (c != 'u')
		{
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

			d[n++] = to[strchr(from, c) - from];
			k += 2;
			continue;
		}
		u = hex4(p->s + k + 2);
		k += 6;
		if (u >= 0xD800 && u <= 0xDBFF && k + 6 <= p->i && p->s[k] == '\\' && p->s[k + 1] == 'u' &&
		    (lo = hex4(p->s + k + 2)) >= 0xDC00 && lo <= 0xDFFF)
		{
			u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			k += 6;
		}
		else if (u >= 0xD800 && u <= 0xDFFF)
		{
			p->a->release(p->a->ctx, d);
			return jbad(p, k - 6, "unpaired UTF-16 surrogate in a string");
		}
		if (u == 0)
		{
			p->a->release(p->a->ctx, d);
			return jbad(p, k - 6, "\\u0000 cannot be stored in text");
		}
		/* six escaped bytes (twelve for a pair) always hold the at most four of UTF-8 */
		if (u < 0x80)
			d[n++] = (char) u;
		else if (u < 0x800)
		{
			d[n++] = (char) (0xC0 | (u >> 6));
			d[n++] = (char) (0x80 | (u & 0x3F));
		}
		else if (u < 0x10000)
		{
			d[n++] = (char) (0xE0 | (u >> 12));
			d[n++] = (char) (0x80 | ((u >> 6) & 0x3F));
			d[n++] = (char) (0x80 | (u & 0x3F));
		}
		else
		{
			d[n++] = (char) (0xF0 | (u >> 18));
			d[n++] = (char) (0x80 | ((u >> 12) & 0x3F));
			d[n++] = (char) (0x80 | ((u >> 6) & 0x3F));
			d[n++] = (char) (0x80 | (u & 0x3F));
		}
	}
	d[n] = '\0';
	p->i++;
	out->s = d;
	out->len = n;
	return FS_OK;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static fs_status
parse_number(jparser *p, fs_str *out)
{
	size_t start = p->i, d;

	if (p->i < p->len && p->s[p->i] == '-')
		p->i++;
	d = p->i;
	while (p->i < p->len && fs_is_digit(p->s[p->i]))
		p->i++;
	if (p->i == d || (p->s[d] == '0' && p->i > d + 1))
		return jbad(p, d, "invalid number");
	if (p->i < p->len && p->s[p->i] == '.')
	{
		d = ++p->i;
		while (p->i < p->len && fs_is_digit(p->s[p->i]))
			p->i++;
		if (p->i == d)
			return jbad(p, d, "invalid number");
	}
	if (p->i < p->len && (p->s[p->i] == 'e' || p->s[p->i] == 'E'))
	{
		p->i++;
		if (p->i < p->len && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		d = p->i;
		while (p->i < p->len && fs_is_digit(p->s[p->i]))
			p->i++;
		if (p->i == d)
			return jbad(p, d, "invalid number");
	}
	out->s = copy_span(p->a, p->s + start, p->i - start);
	out->len = p->i - start;
	return FS_OK;
}

static fs_status parse_value(jparser *p, fs_json *v, int depth);

/* The members of an array or object from its opening bracket, grown by doubling. */
static fs_status
parse_members(jparser *p, fs_json *v, int depth, bool object)
{
	size_t cap = 0, kcap = 0;
	char close = object ? '}' : ']';
	fs_status st;

	v->kind = object ? FS_JSON_OBJECT : FS_JSON_ARRAY;
	p->i++;
	skip_ws(p);
	if (p->i < p->len && p->s[p->i] == close)
	{
		p->i++;
		return FS_OK;
	}
	for (;;)
	{
		FS_POLL(v->n);
		skip_ws(p);
		if (object)
		{
			fs_str key;

			if (p->i >= p->len || p->s[p->i] != '"')
				return jbad(p, p->i, "expected a string as the key");
			if ((st = parse_string(p, &key)) != FS_OK)
				return st;
			v->keys = fs_grow(p->a, v->keys, v->n, &kcap, sizeof(fs_str));
			v->keys[v->n] = key;
			skip_ws(p);
			if (p->i >= p->len || p->s[p->i] != ':')
			{
				v->items = fs_grow(p->a, v->items, v->n, &cap, sizeof(fs_json));
				memset(&v->items[v->n++], 0, sizeof(fs_json));
				return jbad(p, p->i, "expected \":\" after the key");
			}
			p->i++;
		}
		v->items = fs_grow(p->a, v->items, v->n, &cap, sizeof(fs_json));
		st = parse_value(p, &v->items[v->n++], depth + 1);
		if (st != FS_OK)
			return st;
		skip_ws(p);
		if (p->i < p->len && p->s[p->i] == ',')
		{
			p->i++;
			continue;
		}
		if (p->i < p->len && p->s[p->i] == close)
		{
			p->i++;
			return FS_OK;
		}
		return jbad(p, p->i, object ? "expected \",\" or \"}\"" : "expected \",\" or \"]\"");
	}
}

static fs_status
parse_value(jparser *p, fs_json *v, int depth)
{
	static const struct
	{
		const char *word;
		int kind;
	} words[] = {{"null", FS_JSON_NULL}, {"true", FS_JSON_TRUE}, {"false", FS_JSON_FALSE}};
	size_t k;

	memset(v, 0, sizeof(*v));
	if (depth > FS_JSON_MAX_DEPTH)
	{
		fs_fail(p->err, FS_ERR_LIMIT, "JSON nested deeper than %d levels", FS_JSON_MAX_DEPTH);
		fs_error_detail(p->err, "The value at character %zu is %d levels deep.",
		                fs_char_pos(p->s, p->i), depth);
		fs_error_hint(p->err, "Scheduler tools write a few levels; check that the document is "
		                      "the tool's output.");
		return FS_ERR_LIMIT;
	}
	skip_ws(p);
	if (p->i >= p->len)
		return jbad(p, p->len, "expected a value");
	switch (p->s[p->i])
	{
		case '{':
			return parse_members(p, v, depth, true);
		case '[':
			return parse_members(p, v, depth, false);
		case '"':
			v->kind = FS_JSON_STRING;
			return parse_string(p, &v->str);
		default:
			break;
	}
	if (p->s[p->i] == '-' || fs_is_digit(p->s[p->i]))
	{
		v->kind = FS_JSON_NUMBER;
		return parse_number(p, &v->str);
	}
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
	{
		size_t wl = strlen(words[k].word);

		if (p->len - p->i >= wl && memcmp(p->s + p->i, words[k].word, wl) == 0)
		{
			p->i += wl;
			v->kind = words[k].kind;
			return FS_OK;
		}
	}
	return jbad(p, p->i, "expected a value");
}

fs_status
fs_json_parse_next(const char *text, size_t len, size_t *pos, const fs_allocator *a, fs_json *out,
                   fs_error *err)
{
	jparser p = {text, len, *pos, a, err};
	fs_status st = parse_value(&p, out, 0);

	if (st != FS_OK)
	{
		fs_json_free(out, a);
		return st;
	}
	*pos = p.i;
	return FS_OK;
}

fs_status
fs_json_parse(const char *text, size_t len, const fs_allocator *a, fs_json *out, fs_error *err)
{
	size_t pos = 0;
	fs_status st = fs_json_parse_next(text, len, &pos, a, out, err);
	jparser p = {text, len, pos, a, err};

	if (st != FS_OK)
		return st;
	skip_ws(&p);
	if (p.i < len)
	{
		fs_json_free(out, a);
		return jbad(&p, p.i, "text after the end of the value");
	}
	return FS_OK;
}

void
fs_json_free(fs_json *v, const fs_allocator *a)
{
	size_t k;

	for (k = 0; k < v->n; k++)
	{
		if (v->keys && v->keys[k].s)
			a->release(a->ctx, (void *) v->keys[k].s);
		if (v->items)
			fs_json_free(&v->items[k], a);
	}
	if (v->items)
		a->release(a->ctx, v->items);
	if (v->keys)
		a->release(a->ctx, v->keys);
	if (v->str.s)
		a->release(a->ctx, (void *) v->str.s);
	memset(v, 0, sizeof(*v));
}

const fs_json *
fs_json_get(const fs_json *v, const char *key)
{
	const fs_json *found = NULL;
	size_t k, kl = strlen(key);

	if (v == NULL || v->kind != FS_JSON_OBJECT)
		return NULL;
	for (k = 0; k < v->n; k++)
		if (v->keys[k].len == kl && memcmp(v->keys[k].s, key, kl) == 0)
			found = &v->items[k];
	return found;
}
