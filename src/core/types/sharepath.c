/*
 * sharepath.c: share-tree paths: the text grammar (dotted labels, double-quoted where needed),
 * canonical output, pre-order comparison and path algebra. All linear in the path length.
 */
#include "types/sharepath.h"

#include <stdio.h>
#include <string.h>

#define HEADER 2

uint32_t
fs_sp_nlevel(const uint8_t *sp)
{
	uint16_t n;

	memcpy(&n, sp, sizeof(n));
	return n;
}

void
fs_sp_iter_init(fs_sp_iter *it, const uint8_t *sp)
{
	it->left = fs_sp_nlevel(sp);
	it->p = sp + HEADER;
}

bool
fs_sp_next(fs_sp_iter *it, const char **label, size_t *len)
{
	if (it->left == 0)
		return false;
	*len = it->p[0];
	*label = (const char *) it->p + 1;
	it->p += 1 + *len;
	it->left--;
	return true;
}

size_t
fs_sp_size(const uint8_t *sp)
{
	fs_sp_iter it;
	const char *l;
	size_t n;

	fs_sp_iter_init(&it, sp);
	while (fs_sp_next(&it, &l, &n))
		;
	return (size_t) (it.p - sp);
}

void
fs_sp_set_nlevel(uint8_t *sp, uint32_t n)
{
	uint16_t c = (uint16_t) n;

	memcpy(sp, &c, sizeof(c));
}

static bool
is_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '@' || c == ':' || c == '+' || c == '-';
}

static fs_status
sp_syntax(fs_error *err, const char *text, size_t len, size_t at, const char *what)
{
	return fs_fail_syntax(err, "input syntax for type sharepath", text, len, at, what,
	                      "Separate labels with dots (physics.alice); write a label with other "
	                      "characters in double quotes (physics.\"alice.smith@example.org\").");
}

static fs_status
sp_unexpected(fs_error *err, const char *text, size_t len, size_t at, const char *where)
{
	char what[80];
	unsigned char c = (unsigned char) text[at];

	if (c >= 0x20 && c < 0x7f)
		snprintf(what, sizeof(what), "Unexpected character \"%c\"%s", c, where);
	else
		snprintf(what, sizeof(what), "Unexpected character (byte 0x%02x)%s", c, where);
	return sp_syntax(err, text, len, at, what);
}

fs_status
fs_sp_parse(const char *text, size_t len, const fs_allocator *a, size_t reserve, uint8_t **out,
            size_t *outlen, fs_error *err)
{
	/* every label needs at least one byte of text and costs one length byte more */
	size_t cap = HEADER + len + len / 2 + 2;
	uint8_t *base = a->alloc(a->ctx, reserve + cap);
	uint8_t *sp = base + reserve;
	uint8_t *w = sp + HEADER;
	uint32_t count = 0;
	size_t i = 0;
	fs_status st = FS_OK;

	memset(base, 0, reserve);
	while (len > 0)
	{
		uint8_t *lenbyte = w++;
		size_t start = i;
		size_t n = 0;

		if (i < len && text[i] == '"')
		{
			i++;
			for (;;)
			{
				if (i >= len)
				{
					st = sp_syntax(err, text, len, start, "Unterminated quoted label starting");
					break;
				}
				if (text[i] == '"')
				{
					if (i + 1 < len && text[i + 1] == '"')
						i++;
					else
						break;
				}
				if (text[i] == '\0')
				{
					/* a NUL cannot be printed and read back through a C string */
					st = sp_unexpected(err, text, len, i, " in a quoted label");
					break;
				}
				if (n < FS_SP_LABEL_MAX + 1)
					w[n] = (uint8_t) text[i];
				n++;
				i++;
			}
			if (st != FS_OK)
				break;
			i++; /* the closing quote */
		}
		else
		{
			while (i < len && is_plain((unsigned char) text[i]))
			{
				if (n < FS_SP_LABEL_MAX + 1)
					w[n] = (uint8_t) text[i];
				n++;
				i++;
			}
		}
		if (n == 0)
		{
			if (i < len && text[i] != '.' && text[i] != '"' && start == i)
				st = sp_unexpected(err, text, len, i, "");
			else
				st = sp_syntax(err, text, len, start, "Empty label");
			break;
		}
		if (n > FS_SP_LABEL_MAX)
		{
			sp_syntax(err, text, len, start, "Label too long");
			fs_error_detail(err,
			                "The label at character %zu is %zu bytes long; at most %d are "
			                "allowed.",
			                fs_char_pos(text, start), n, FS_SP_LABEL_MAX);
			st = FS_ERR_SYNTAX;
			break;
		}
		if (++count > FS_SP_DEPTH_MAX)
		{
			sp_syntax(err, text, len, start, "Too many labels");
			fs_error_detail(err, "The path has more than %d labels.", FS_SP_DEPTH_MAX);
			st = FS_ERR_SYNTAX;
			break;
		}
		*lenbyte = (uint8_t) n;
		w += n;
		if (i >= len)
			break;
		if (text[i] != '.')
		{
			st = sp_unexpected(err, text, len, i, " after a label");
			break;
		}
		i++;
		if (i >= len)
		{
			st = sp_syntax(err, text, len, i, "Empty label");
			break;
		}
	}
	if (st != FS_OK)
	{
		a->release(a->ctx, base);
		return st;
	}
	fs_sp_set_nlevel(sp, count);
	*out = base;
	*outlen = (size_t) (w - sp);
	return FS_OK;
}

void
fs_sp_format_label(fs_sb *sb, const char *label, size_t len)
{
	size_t i;
	bool plain = len > 0;

	for (i = 0; i < len && plain; i++)
		plain = is_plain((unsigned char) label[i]);
	if (plain)
	{
		fs_sb_append(sb, label, len);
		return;
	}
	fs_sb_append(sb, "\"", 1);
	for (i = 0; i < len; i++)
	{
		if (label[i] == '"')
			fs_sb_append(sb, "\"", 1);
		fs_sb_append(sb, label + i, 1);
	}
	fs_sb_append(sb, "\"", 1);
}

void
fs_sp_format(fs_sb *sb, const uint8_t *sp)
{
	fs_sp_iter it;
	const char *l;
	size_t n;
	bool first = true;

	fs_sp_iter_init(&it, sp);
	while (fs_sp_next(&it, &l, &n))
	{
		if (!first)
			fs_sb_append(sb, ".", 1);
		first = false;
		fs_sp_format_label(sb, l, n);
	}
}

void
fs_sp_format_buf(const uint8_t *sp, char *buf, size_t cap)
{
	fs_sp_iter it;
	const char *l;
	size_t n, i, used = 0;
	bool cut = false;

	fs_sp_iter_init(&it, sp);
	while (!cut && fs_sp_next(&it, &l, &n))
	{
		bool plain = true;
		size_t need;

		for (i = 0; i < n; i++)
			plain = plain && is_plain((unsigned char) l[i]);
		need = (used > 0) + n + (plain ? 0 : 2);
		for (i = 0; i < n && !plain; i++)
			need += l[i] == '"';
		if (used + need + 4 > cap)
		{
			cut = true;
			break;
		}
		if (used > 0)
			buf[used++] = '.';
		if (!plain)
			buf[used++] = '"';
		for (i = 0; i < n; i++)
		{
			if (l[i] == '"')
				buf[used++] = '"';
			buf[used++] = l[i];
		}
		if (!plain)
			buf[used++] = '"';
	}
	if (cut && cap >= 4)
	{
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	buf[used] = '\0';
}

const char *
fs_sp_text(const uint8_t *sp, fs_path_text *buf)
{
	fs_sp_format_buf(sp, buf->s, sizeof(buf->s));
	return buf->s;
}

int
fs_sp_cmp(const uint8_t *a, const uint8_t *b)
{
	uint32_t na = fs_sp_nlevel(a), nb = fs_sp_nlevel(b);
	const uint8_t *pa = a + HEADER, *pb = b + HEADER;

	/* label by label, bytewise, the shorter label first */
	for (;;)
	{
		uint32_t la, lb;
		int c;

		if (na == 0 || nb == 0)
			return (na != 0) - (nb != 0);
		la = *pa++;
		lb = *pb++;
		c = fs_bytes_cmp_short(pa, la, pb, lb);
		if (c != 0)
			return c;
		pa += la;
		pb += lb;
		na--;
		nb--;
	}
}

uint64_t
fs_sp_prefix_key(const uint8_t *sp)
{
	fs_sp_iter it;
	const char *label;
	size_t len, i;
	uint64_t key = 0;
	int left = 8;

	fs_sp_iter_init(&it, sp);
	while (left > 0 && fs_sp_next(&it, &label, &len))
	{
		for (i = 0; i < len && left > 0; i++, left--)
			key = key << 8 | (uint8_t) label[i];
		if (left > 0)
		{
			key <<= 8; /* the label's end: below every label byte */
			left--;
		}
	}
	/* the root (no label) keys as 0: a shift by all 64 bits is undefined */
	return left == 8 ? 0 : key << (8 * left);
}

uint32_t
fs_sp_common(const uint8_t *a, const uint8_t *b)
{
	fs_sp_iter ia, ib;
	const char *la, *lb;
	size_t na, nb;
	uint32_t k = 0;

	fs_sp_iter_init(&ia, a);
	fs_sp_iter_init(&ib, b);
	while (fs_sp_next(&ia, &la, &na) && fs_sp_next(&ib, &lb, &nb) && na == nb &&
	       memcmp(la, lb, na) == 0)
		k++;
	return k;
}

bool
fs_sp_is_ancestor(const uint8_t *a, const uint8_t *b)
{
	uint32_t n = fs_sp_nlevel(a);

	return n <= fs_sp_nlevel(b) && fs_sp_common(a, b) == n;
}

void
fs_sp_slice(const uint8_t *sp, uint32_t start, uint32_t count, const fs_allocator *a,
            size_t reserve, uint8_t **out, size_t *outlen)
{
	fs_sp_iter it;
	const char *l;
	size_t n;
	const uint8_t *from;
	uint32_t i;
	size_t bytes;
	uint8_t *base;

	fs_sp_iter_init(&it, sp);
	for (i = 0; i < start; i++)
		fs_sp_next(&it, &l, &n);
	from = it.p;
	for (i = 0; i < count; i++)
		fs_sp_next(&it, &l, &n);
	bytes = (size_t) (it.p - from);
	base = a->alloc(a->ctx, reserve + HEADER + bytes);
	memset(base, 0, reserve);
	fs_sp_set_nlevel(base + reserve, count);
	memcpy(base + reserve + HEADER, from, bytes);
	*out = base;
	*outlen = HEADER + bytes;
}

fs_status
fs_sp_subpath(const uint8_t *sp, int32_t offset, bool has_len, int32_t len, const fs_allocator *a,
              size_t reserve, uint8_t **out, size_t *outlen, fs_error *err)
{
	int64_t n = fs_sp_nlevel(sp);
	int64_t start = offset < 0 ? n + offset : offset;
	int64_t end = !has_len ? n : len < 0 ? n + len : start + len;

	if (start < 0 || start > n)
	{
		fs_fail(err, FS_ERR_VALUE, "subpath offset %d is out of range for a path of %d %s",
		        (int) offset, (int) n, fs_plural((uint64_t) n, "label", "labels"));
		fs_error_hint(err, "Use an offset from %d to %d.", (int) -n, (int) n);
		return FS_ERR_VALUE;
	}
	if (end > n)
		end = n;
	if (end < start)
	{
		fs_fail(err, FS_ERR_VALUE,
		        "subpath length %d is out of range for offset %d in a path of %d %s", (int) len,
		        (int) offset, (int) n, fs_plural((uint64_t) n, "label", "labels"));
		fs_error_hint(err, "A negative length leaves labels off the end; it must not reach back "
		                   "past the offset.");
		return FS_ERR_VALUE;
	}
	fs_sp_slice(sp, (uint32_t) start, (uint32_t) (end - start), a, reserve, out, outlen);
	return FS_OK;
}

bool
fs_sp_label_ok(const char *label, size_t len)
{
	return len >= 1 && len <= FS_SP_LABEL_MAX && memchr(label, '\0', len) == NULL;
}

fs_status
fs_sp_check_label(const char *label, size_t len, size_t index, fs_error *err)
{
	if (len > 0 && memchr(label, '\0', len) != NULL)
	{
		fs_fail(err, FS_ERR_VALUE, "sharepath label %zu contains a NUL byte", index + 1);
		fs_error_hint(err, "A label may hold any character except NUL.");
		return FS_ERR_VALUE;
	}
	if (len == 0)
	{
		fs_fail(err, FS_ERR_VALUE, "sharepath label %zu is empty", index + 1);
		fs_error_hint(err, "Labels are 1 to %d bytes long.", FS_SP_LABEL_MAX);
		return FS_ERR_VALUE;
	}
	if (len > FS_SP_LABEL_MAX)
	{
		fs_fail(err, FS_ERR_VALUE, "sharepath label %zu is too long", index + 1);
		fs_error_detail(err, "The label is %zu bytes long; at most %d are allowed.", len,
		                FS_SP_LABEL_MAX);
		return FS_ERR_VALUE;
	}
	return FS_OK;
}

fs_status
fs_sp_check_depth(size_t n, fs_error *err)
{
	if (n <= FS_SP_DEPTH_MAX)
		return FS_OK;
	fs_fail(err, FS_ERR_LIMIT, "sharepath would have %zu labels", n);
	fs_error_detail(err, "A path has at most %d labels.", FS_SP_DEPTH_MAX);
	return FS_ERR_LIMIT;
}

fs_status
fs_sp_from_labels(const char *const *labels, const size_t *lens, size_t n, const fs_allocator *a,
                  size_t reserve, uint8_t **out, size_t *outlen, fs_error *err)
{
	size_t bytes = HEADER;
	size_t i;
	uint8_t *base, *w;
	fs_status st = fs_sp_check_depth(n, err);

	if (st != FS_OK)
		return st;
	for (i = 0; i < n; i++)
	{
		st = fs_sp_check_label(labels[i], lens[i], i, err);
		if (st != FS_OK)
			return st;
		bytes += 1 + lens[i];
	}
	base = a->alloc(a->ctx, reserve + bytes);
	memset(base, 0, reserve);
	fs_sp_set_nlevel(base + reserve, (uint32_t) n);
	w = base + reserve + HEADER;
	for (i = 0; i < n; i++)
	{
		*w++ = (uint8_t) lens[i];
		memcpy(w, labels[i], lens[i]);
		w += lens[i];
	}
	*out = base;
	*outlen = bytes;
	return FS_OK;
}

fs_status
fs_sp_concat(const uint8_t *a, const uint8_t *b, const char *label, size_t labellen,
             const fs_allocator *alloc, size_t reserve, uint8_t **out, size_t *outlen,
             fs_error *err)
{
	size_t na = fs_sp_nlevel(a);
	size_t nb = label ? 1 : fs_sp_nlevel(b);
	size_t sa = fs_sp_size(a) - HEADER;
	size_t sb = label ? 1 + labellen : fs_sp_size(b) - HEADER;
	fs_status st = fs_sp_check_depth(na + nb, err);
	uint8_t *base, *w;

	if (st == FS_OK && label)
		st = fs_sp_check_label(label, labellen, na, err);
	if (st != FS_OK)
		return st;
	base = alloc->alloc(alloc->ctx, reserve + HEADER + sa + sb);
	memset(base, 0, reserve);
	fs_sp_set_nlevel(base + reserve, (uint32_t) (na + nb));
	w = base + reserve + HEADER;
	memcpy(w, a + HEADER, sa);
	w += sa;
	if (label)
	{
		*w++ = (uint8_t) labellen;
		memcpy(w, label, labellen);
	}
	else
		memcpy(w, b + HEADER, sb);
	*out = base;
	*outlen = HEADER + sa + sb;
	return FS_OK;
}
