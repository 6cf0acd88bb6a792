/*
 * condor_json.c: condor_history -json and -jsonl documents, each ad written as the lines of
 * condor_history -l and read by the -l reader (condorhist.c).
 */
#include "load/condor_json.h"

#include <string.h>

int
fs_ch_form_of(const char *doc, size_t len)
{
	size_t i = 0;

	while (i < len && fs_is_space(doc[i]))
		i++;
	if (i < len && doc[i] == '[')
		return FS_CH_JSON;
	if (i < len && doc[i] == '{')
		return FS_CH_JSONL;
	return FS_CH_LONG;
}

static fs_status
bad_ad(fs_error *err, const char *what)
{
	fs_fail(err, FS_ERR_SYNTAX, "invalid condor_history JSON ad");
	fs_error_detail(err, "%c%s.", fs_ascii_upper(what[0]), what + 1);
	fs_error_hint(err, "Give the output of condor_history -json or -jsonl as HTCondor wrote it.");
	return FS_ERR_SYNTAX;
}

/* One value in ClassAd syntax, as condor_history -l prints it. */
static fs_status
classad_value(const fs_json *v, fs_sb *out, fs_error *err)
{
	size_t k;
	fs_status st;

	switch (v->kind)
	{
		case FS_JSON_NULL:
			fs_sb_append(out, "undefined", 9);
			return FS_OK;
		case FS_JSON_TRUE:
			fs_sb_append(out, "true", 4);
			return FS_OK;
		case FS_JSON_FALSE:
			fs_sb_append(out, "false", 5);
			return FS_OK;
		case FS_JSON_NUMBER:
			fs_sb_append(out, v->str.s, v->str.len);
			return FS_OK;
		case FS_JSON_STRING:
		{
			const char *s = v->str.s;
			size_t n = v->str.len, run = 0;

			/* HTCondor writes an expression as the string "/Expr(...)/" */
			if (n >= 8 && memcmp(s, "/Expr(", 6) == 0 && memcmp(s + n - 2, ")/", 2) == 0)
			{
				if (memchr(s, '\n', n))
					return bad_ad(err, "an expression holds a newline");
				fs_sb_append(out, s + 6, n - 8);
				return FS_OK;
			}
			fs_sb_append(out, "\"", 1);
			for (k = 0; k < n; k++)
			{
				FS_POLL(k);
				if (s[k] != '"')
					continue;
				if (k > run)
					fs_sb_append(out, s + run, k - run);
				fs_sb_append(out, "\\\"", 2);
				run = k + 1;
			}
			if (n > run)
				fs_sb_append(out, s + run, n - run);
			fs_sb_append(out, "\"", 1);
			return FS_OK;
		}
		case FS_JSON_ARRAY:
			fs_sb_append(out, "{ ", 2);
			for (k = 0; k < v->n; k++)
			{
				FS_POLL(k);
				if (k)
					fs_sb_append(out, ", ", 2);
				if ((st = classad_value(&v->items[k], out, err)) != FS_OK)
					return st;
			}
			fs_sb_append(out, " }", 2);
			return FS_OK;
		default:
			fs_sb_append(out, "[ ", 2);
			for (k = 0; k < v->n; k++)
			{
				FS_POLL(k);
				fs_sb_append(out, v->keys[k].s, v->keys[k].len);
				fs_sb_append(out, " = ", 3);
				if ((st = classad_value(&v->items[k], out, err)) != FS_OK)
					return st;
				fs_sb_append(out, "; ", 2);
			}
			fs_sb_append(out, "]", 1);
			return FS_OK;
	}
}

fs_status
fs_ch_ad_text(const fs_json *ad, fs_sb *out, fs_error *err)
{
	size_t k, i;
	fs_status st;

	if (ad->kind != FS_JSON_OBJECT)
		return bad_ad(err, "an ad must be a JSON object");
	if (ad->n == 0)
		return bad_ad(err, "the ad has no attributes");
	for (k = 0; k < ad->n; k++)
	{
		fs_str key = ad->keys[k];

		FS_POLL(k);
		/* the -l reader checks the name; what would end it or the line is refused here */
		for (i = 0; i < key.len; i++)
			if (fs_is_space(key.s[i]) || key.s[i] == '=')
				return bad_ad(err, "an attribute name holds a blank or \"=\"");
		if (key.len == 0 || !fs_is_name_start(key.s[0]))
			return bad_ad(err, "an attribute name must start with a letter or \"_\"");
		fs_sb_append(out, key.s, key.len);
		fs_sb_append(out, " = ", 3);
		if ((st = classad_value(&ad->items[k], out, err)) != FS_OK)
			return st;
		fs_sb_append(out, "\n", 1);
	}
	return FS_OK;
}

/* Move r->pos to end, counting the newlines passed. */
static void
move_to(fs_ch_reader *r, size_t end)
{
	for (; r->pos < end; r->pos++)
	{
		FS_POLL(r->pos);
		if (r->doc[r->pos] == '\n' && r->lineno < INT32_MAX)
			r->lineno++;
	}
}

static void
skip_blank(fs_ch_reader *r)
{
	size_t e = r->pos;

	while (e < r->len && fs_is_space(r->doc[e]))
		e++;
	move_to(r, e);
}

/* An error of the document as a whole (ad 0: it raises in both condor_history forms). */
static fs_status
doc_error(fs_ch_reader *r, fs_ch_ad *ad, const char *problem, fs_error *err)
{
	memset(ad, 0, sizeof(*ad));
	fs_fail(err, FS_ERR_SYNTAX, "invalid condor_history -json document: %s at line %d", problem,
	        (int) r->lineno);
	fs_error_hint(err, "Give the output of condor_history -json as HTCondor wrote it.");
	return FS_ERR_SYNTAX;
}

fs_status
fs_ch_json_next(fs_ch_reader *r, fs_ch_ad *ad, bool *done, fs_error *err)
{
	fs_json v;
	fs_sb text;
	fs_ch_reader sub;
	fs_status st;
	int32_t first;
	bool subdone;
	size_t end;

	memset(ad, 0, sizeof(*ad));
	fs_error_clear(err);
	*done = false;
	skip_blank(r);
	if (r->form == FS_CH_JSON)
	{
		if (!r->opened)
		{
			move_to(r, r->pos + 1); /* the "[" that made it a -json document */
			r->opened = true;
			skip_blank(r);
		}
		else if (r->pos < r->len && r->doc[r->pos] == ',')
		{
			move_to(r, r->pos + 1);
			skip_blank(r);
		}
		else if (r->pos >= r->len || r->doc[r->pos] != ']')
			return doc_error(r, ad, "expected \",\" or \"]\" after an ad", err);
		if (r->pos < r->len && r->doc[r->pos] == ']' && (r->ads == 0 || r->closing))
		{
			move_to(r, r->pos + 1);
			skip_blank(r);
			if (r->pos < r->len)
				return doc_error(r, ad, "text after the end of the array", err);
			*done = true;
			return FS_OK;
		}
		if (r->pos >= r->len)
			return doc_error(r, ad, "the array is not closed", err);
	}
	else if (r->pos >= r->len)
	{
		*done = true;
		return FS_OK;
	}
	if (r->ads == INT32_MAX || r->lineno == INT32_MAX)
		return fs_fail(err, FS_ERR_LIMIT, "condor_history document has too many ads or lines");
	first = r->lineno;
	end = r->pos;
	st = fs_json_parse_next(r->doc, r->len, &end, r->a, &v, err);
	if (st != FS_OK)
	{
		if (r->form == FS_CH_JSON || st == FS_ERR_LIMIT)
		{
			memset(ad, 0, sizeof(*ad));
			fs_error_context(err, "in the ad at line %d of the condor_history -json document",
			                 (int) first);
			return st;
		}
		/* -jsonl: this line's ad is bad; the next call starts at the next line */
		while (r->pos < r->len && r->doc[r->pos] != '\n')
			r->pos++;
		ad->ad = ++r->ads;
		ad->line = ad->last_line = ad->error_line = first;
		fs_error_context(err, "in the ad at line %d of the condor_history -jsonl document",
		                 (int) first);
		return st;
	}
	move_to(r, end);
	/* -json: after the last ad comes "]"; the next call ends there */
	if (r->form == FS_CH_JSON)
	{
		size_t e = r->pos;

		while (e < r->len && fs_is_space(r->doc[e]))
			e++;
		r->closing = e < r->len && r->doc[e] == ']';
	}
	fs_sb_init(&text, r->a, 256);
	st = fs_ch_ad_text(&v, &text, err);
	fs_json_free(&v, r->a);
	if (st == FS_OK)
	{
		fs_ch_init(&sub, text.data, text.len, r->a);
		sub.ads = r->ads; /* its messages name the ad by its number in this document */
		st = fs_ch_next(&sub, ad, &subdone, err);
		if (st == FS_OK && subdone) /* cannot happen: every line is Name = value */
			st = bad_ad(err, "the ad has no attributes");
	}
	r->a->release(r->a->ctx, text.data);
	ad->ad = ++r->ads;
	ad->line = first;
	ad->last_line = r->lineno;
	if (st != FS_OK)
	{
		ad->error_line = first;
		fs_error_context(err, "in the ad at line %d of the condor_history %s document", (int) first,
		                 r->form == FS_CH_JSON ? "-json" : "-jsonl");
	}
	return st;
}
