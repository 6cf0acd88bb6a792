/*
 * vpool_forms.c: a vnode pool's flat form (the stored value, version 1, or 2 when it has indirect
 * resources) and its binary form (send and receive). Both are one pass, each read checked
 * against the bytes left.
 */
#include "placement/vpool_int.h"

#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- flat form */

/*
 * uint8 version, uint32 count, then per vnode: uint16 name length, name, uint32 length and
 * bytes of the available and of the assigned resvec, uint16 label count, and per label uint16
 * key length, key, uint16 value length, value; in version 2 then uint16 indirect count and per
 * entry uint8 resource length, resource, uint16 vnode length, vnode. Native byte order, no
 * alignment. Version 1 when no vnode has an indirect resource, so that such pools keep their
 * bytes.
 */
size_t
fs_vpool_flat_size(const fs_vpool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;
	bool ind = fs_vpool_has_indirect(p);

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		size += 2 + v->namelen + 8 + fs_rv_size(v->avail) + fs_rv_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
		if (ind)
			size += 2;
		for (k = 0; k < v->nindirect; k++)
			size += 3 + v->indirect[k].reslen + v->indirect[k].vnodelen;
	}
	return size;
}

static uint8_t *
put16(uint8_t *o, size_t v)
{
	uint16_t x = (uint16_t) v;

	return fs_put(o, &x, 2);
}

static uint8_t *
put32(uint8_t *o, size_t v)
{
	uint32_t x = (uint32_t) v;

	return fs_put(o, &x, 4);
}

static uint8_t *
put8(uint8_t *o, size_t v)
{
	*o = (uint8_t) v;
	return o + 1;
}

void
fs_vpool_flatten(const fs_vpool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;
	bool ind = fs_vpool_has_indirect(p);

	*out++ = ind ? FLAT_VERSION_INDIRECT : FLAT_VERSION;
	out = put32(out, p->n);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		out = put16(out, v->namelen);
		out = fs_put(out, v->name, v->namelen);
		out = put32(out, fs_rv_size(v->avail));
		out = fs_put(out, v->avail, fs_rv_size(v->avail));
		out = put32(out, fs_rv_size(v->assigned));
		out = fs_put(out, v->assigned, fs_rv_size(v->assigned));
		out = put16(out, v->nlabels);
		for (k = 0; k < v->nlabels; k++)
		{
			out = put16(out, v->labels[k].keylen);
			out = fs_put(out, v->labels[k].key, v->labels[k].keylen);
			out = put16(out, v->labels[k].valuelen);
			out = fs_put(out, v->labels[k].value, v->labels[k].valuelen);
		}
		if (ind)
			out = put16(out, v->nindirect);
		for (k = 0; k < v->nindirect; k++)
		{
			out = put8(out, v->indirect[k].reslen);
			out = fs_put(out, v->indirect[k].res, v->indirect[k].reslen);
			out = put16(out, v->indirect[k].vnodelen);
			out = fs_put(out, v->indirect[k].vnode, v->indirect[k].vnodelen);
		}
	}
}

/* A length of 1, 2 or 4 bytes (native order, as the flat form writes it); false past the end. */
static bool
take_len(fs_reader *r, size_t width, size_t *len)
{
	const uint8_t *at;

	if (!fs_read_span(r, width, &at))
		return false;
	if (width == 1)
		*len = at[0];
	else if (width == 2)
	{
		uint16_t x;

		memcpy(&x, at, 2);
		*len = x;
	}
	else
	{
		uint32_t x;

		memcpy(&x, at, 4);
		*len = x;
	}
	return true;
}

static fs_status
corrupt(fs_error *err, const char *what)
{
	fs_fail(err, FS_ERR_BINARY, "invalid binary value for type vnodepool: %s", what);
	return FS_ERR_BINARY;
}

static bool
has_nul(const uint8_t *s, size_t len)
{
	return len > 0 && memchr(s, '\0', len) != NULL;
}

/*
 * A label value the text form can express: fs_labels_append splits values at commas, trims
 * whitespace and the pool drops empty ones.
 */
static bool
value_ok(const uint8_t *s, size_t len)
{
	return len > 0 && memchr(s, ',', len) == NULL && !fs_is_space((char) s[0]) &&
	       !fs_is_space((char) s[len - 1]);
}

fs_status
fs_vpool_from_flat(const fs_allocator *a, const uint8_t *data, size_t len, fs_vpool **out,
                   fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	size_t n, i;
	fs_vpool *p;
	fs_label *labels = NULL;
	fs_status st = FS_OK;

	fs_indirect *ind = NULL;
	size_t nind_total = 0;
	bool v2;

	if (!fs_read_span(&r, 1, &at) || !take_len(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != FLAT_VERSION && at[0] != FLAT_VERSION_INDIRECT)
		return corrupt(err, "unsupported format version");
	v2 = at[0] == FLAT_VERSION_INDIRECT;
	if (n > len / 15)
		return corrupt(err, "bad vnode count");
	p = fs_vpool_new(a);
	for (i = 0; i < n && st == FS_OK; i++)
	{
		size_t namelen, alen, slen, nl, k, ni = 0;
		const uint8_t *name, *avail, *assigned;

		FS_POLL(i);
		if (!take_len(&r, 2, &namelen) || !fs_read_span(&r, namelen, &name) ||
		    !take_len(&r, 4, &alen) || !fs_read_span(&r, alen, &avail) || !take_len(&r, 4, &slen) ||
		    !fs_read_span(&r, slen, &assigned) || !take_len(&r, 2, &nl))
		{
			st = corrupt(err, "value is truncated");
			break;
		}
		/* only what the text form can carry, in its canonical order (names sorted, unique) */
		if (namelen == 0 || has_nul(name, namelen))
			st = corrupt(err, "a vnode name is empty or holds a NUL byte");
		else if (i > 0 && fs_bytes_cmp(p->v[p->n - 1].name, p->v[p->n - 1].namelen,
		                               (const char *) name, namelen) >= 0)
			st = corrupt(err, "vnodes out of name order");
		if (st != FS_OK)
			break;
		st = fs_rv_validate(avail, alen, FS_ERR_BINARY, err);
		if (st == FS_OK)
			st = fs_rv_validate(assigned, slen, FS_ERR_BINARY, err);
		if (st != FS_OK)
			break;
		labels = a->alloc(a->ctx, sizeof(fs_label) * (nl + 1));
		for (k = 0; k < nl; k++)
		{
			const uint8_t *key, *value;

			if (!take_len(&r, 2, &labels[k].keylen) || !fs_read_span(&r, labels[k].keylen, &key) ||
			    !take_len(&r, 2, &labels[k].valuelen) ||
			    !fs_read_span(&r, labels[k].valuelen, &value))
			{
				st = corrupt(err, "value is truncated");
				break;
			}
			labels[k].key = (const char *) key;
			labels[k].value = (const char *) value;
			if (has_nul(key, labels[k].keylen) || has_nul(value, labels[k].valuelen) ||
			    !value_ok(value, labels[k].valuelen))
			{
				st = corrupt(err, "a label the text form cannot express");
				break;
			}
			if (k > 0 && fs_vpool_label_cmp(&labels[k - 1], &labels[k]) >= 0)
			{
				st = corrupt(err, "labels out of order");
				break;
			}
		}
		if (st == FS_OK && v2 && !take_len(&r, 2, &ni))
			st = corrupt(err, "value is truncated");
		ind = a->alloc(a->ctx, sizeof(fs_indirect) * (ni + 1));
		for (k = 0; k < ni && st == FS_OK; k++)
		{
			const uint8_t *res, *vn;

			if (!take_len(&r, 1, &ind[k].reslen) || !fs_read_span(&r, ind[k].reslen, &res) ||
			    !take_len(&r, 2, &ind[k].vnodelen) || !fs_read_span(&r, ind[k].vnodelen, &vn))
				st = corrupt(err, "value is truncated");
			else if (!fs_vpool_target_ok(vn, ind[k].vnodelen) || has_nul(res, ind[k].reslen))
				st = corrupt(err, "an indirect resource the text form cannot express");
			ind[k].res = (const char *) res;
			ind[k].vnode = (const char *) vn;
			if (st == FS_OK && k > 0 && fs_vpool_indirect_cmp(&ind[k - 1], &ind[k]) >= 0)
				st = corrupt(err, "indirect resources out of order");
		}
		nind_total += ni;
		if (st == FS_OK)
			st = fs_vpool_add(p, (const char *) name, namelen, avail, assigned, labels, nl, ind, ni,
			                  err);
		a->release(a->ctx, labels);
		a->release(a->ctx, ind);
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK && v2 && nind_total == 0)
		st = corrupt(err, "version 2 without indirect resources is not canonical");
	if (st == FS_OK)
		st = fs_vpool_prepare(p, err);
	if (st != FS_OK)
	{
		fs_vpool_free(p);
		return st;
	}
	*out = p;
	return FS_OK;
}

/* ---------------------------------------------------------------- binary form (send/recv) */

/*
 * Binary form, field by field in network byte order: uint8 version (1, or 2 when some vnode has
 * an indirect resource), uint32 vnode count, then each vnode in name order: uint16 name length
 * and name; the available and the assigned resources, each as uint32 entry count and per entry
 * uint8 kind, uint8 name length, name, float8 amount; uint16 label count and per label (sorted by
 * key, then value) uint16 key length, key, uint16 value length, value; in version 2 uint16
 * indirect count and per entry (sorted by resource) uint8 resource length, resource, uint16 vnode
 * length, vnode. Reading it accepts exactly the bytes sending produces.
 */
#define BINARY_VERSION          1
#define BINARY_VERSION_INDIRECT 2

size_t
fs_vpool_binary_size(const fs_vpool *p)
{
	size_t size = 5;
	uint32_t i;
	size_t k;
	bool ind = fs_vpool_has_indirect(p);

	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		size += 2 + v->namelen + fs_rv_binary_size(v->avail) + fs_rv_binary_size(v->assigned) + 2;
		for (k = 0; k < v->nlabels; k++)
			size += 4 + v->labels[k].keylen + v->labels[k].valuelen;
		if (ind)
			size += 2;
		for (k = 0; k < v->nindirect; k++)
			size += 3 + v->indirect[k].reslen + v->indirect[k].vnodelen;
	}
	return size;
}

void
fs_vpool_to_binary(const fs_vpool *p, uint8_t *out)
{
	uint32_t i;
	size_t k;
	bool ind = fs_vpool_has_indirect(p);

	*out++ = ind ? BINARY_VERSION_INDIRECT : BINARY_VERSION;
	out = fs_put_be(out, p->n, 4);
	for (i = 0; i < p->n; i++)
	{
		const fs_vnode *v = &p->v[i];

		FS_POLL(i);
		out = fs_put_be(out, v->namelen, 2);
		out = fs_put(out, v->name, v->namelen);
		out = fs_rv_put_binary(out, v->avail);
		out = fs_rv_put_binary(out, v->assigned);
		out = fs_put_be(out, v->nlabels, 2);
		for (k = 0; k < v->nlabels; k++)
		{
			out = fs_put_be(out, v->labels[k].keylen, 2);
			out = fs_put(out, v->labels[k].key, v->labels[k].keylen);
			out = fs_put_be(out, v->labels[k].valuelen, 2);
			out = fs_put(out, v->labels[k].value, v->labels[k].valuelen);
		}
		if (ind)
			out = fs_put_be(out, v->nindirect, 2);
		for (k = 0; k < v->nindirect; k++)
		{
			*out++ = (uint8_t) v->indirect[k].reslen;
			out = fs_put(out, v->indirect[k].res, v->indirect[k].reslen);
			out = fs_put_be(out, v->indirect[k].vnodelen, 2);
			out = fs_put(out, v->indirect[k].vnode, v->indirect[k].vnodelen);
		}
	}
}

/* One resource vector of the binary form, appended to the flat form (uint32 length, bytes). */
static fs_status
rv_from_binary(const fs_allocator *a, fs_reader *r, fs_sb *flat, fs_error *err)
{
	uint8_t *rv;
	size_t rvlen;
	uint32_t len32;
	fs_status st = fs_rv_read_binary(r, a, 0, &rv, &rvlen, err);

	if (st != FS_OK)
		return st;
	len32 = (uint32_t) rvlen;
	fs_sb_append(flat, (const char *) &len32, 4);
	fs_sb_append(flat, (const char *) rv, rvlen);
	a->release(a->ctx, rv);
	return FS_OK;
}

/* A uint16-length-prefixed string of the binary form, copied to the flat form. */
static bool
str_from_binary(fs_reader *r, fs_sb *flat)
{
	uint64_t len;
	uint16_t len16;
	const uint8_t *at;

	if (!fs_read_be(r, 2, &len) || !fs_read_span(r, (size_t) len, &at))
		return false;
	len16 = (uint16_t) len;
	fs_sb_append(flat, (const char *) &len16, 2);
	fs_sb_append(flat, (const char *) at, (size_t) len);
	return true;
}

fs_status
fs_vpool_from_binary(const fs_allocator *a, const uint8_t *data, size_t len, fs_vpool **out,
                     fs_error *err)
{
	fs_reader r = {data, data + len};
	const uint8_t *at;
	uint64_t n, nl;
	uint32_t i, n32;
	fs_sb flat;
	fs_vpool *p = NULL;
	fs_status st = FS_OK;

	if (!fs_read_span(&r, 1, &at) || !fs_read_be(&r, 4, &n))
		return corrupt(err, "header is truncated");
	if (at[0] != BINARY_VERSION && at[0] != BINARY_VERSION_INDIRECT)
	{
		fs_fail(err, FS_ERR_BINARY, "unsupported binary format version %d for type vnodepool",
		        at[0]);
		fs_error_hint(err, "This server reads versions %d and %d; send the value as text instead.",
		              BINARY_VERSION, BINARY_VERSION_INDIRECT);
		return FS_ERR_BINARY;
	}
	if (n > len / 13)
		return corrupt(err, "bad vnode count");
	/* rewrite into the flat form, whose reader checks everything else */
	fs_sb_init(&flat, a, len + 64);
	fs_sb_append(&flat, (const char *) at, 1);
	n32 = (uint32_t) n;
	fs_sb_append(&flat, (const char *) &n32, 4);
	for (i = 0; i < n32 && st == FS_OK; i++)
	{
		uint64_t k;
		uint16_t nl16;

		FS_POLL(i);
		if (!str_from_binary(&r, &flat))
			st = corrupt(err, "value is truncated");
		if (st == FS_OK)
			st = rv_from_binary(a, &r, &flat, err);
		if (st == FS_OK)
			st = rv_from_binary(a, &r, &flat, err);
		if (st == FS_OK && !fs_read_be(&r, 2, &nl))
			st = corrupt(err, "value is truncated");
		if (st != FS_OK)
			break;
		nl16 = (uint16_t) nl;
		fs_sb_append(&flat, (const char *) &nl16, 2);
		for (k = 0; k < nl && st == FS_OK; k++)
			if (!str_from_binary(&r, &flat) || !str_from_binary(&r, &flat))
				st = corrupt(err, "value is truncated");
		if (st == FS_OK && at[0] == BINARY_VERSION_INDIRECT)
		{
			uint64_t ni, reslen;
			uint16_t ni16;
			const uint8_t *res;

			if (!fs_read_be(&r, 2, &ni))
				st = corrupt(err, "value is truncated");
			ni16 = (uint16_t) ni;
			fs_sb_append(&flat, (const char *) &ni16, 2);
			for (k = 0; k < ni && st == FS_OK; k++)
			{
				uint8_t len8;

				if (!fs_read_be(&r, 1, &reslen) || !fs_read_span(&r, (size_t) reslen, &res))
				{
					st = corrupt(err, "value is truncated");
					break;
				}
				len8 = (uint8_t) reslen;
				fs_sb_append(&flat, (const char *) &len8, 1);
				fs_sb_append(&flat, (const char *) res, (size_t) reslen);
				if (!str_from_binary(&r, &flat))
					st = corrupt(err, "value is truncated");
			}
		}
	}
	if (st == FS_OK && r.p != r.end)
		st = corrupt(err, "trailing bytes");
	if (st == FS_OK)
		st = fs_vpool_from_flat(a, (const uint8_t *) flat.data, flat.len, &p, err);
	a->release(a->ctx, flat.data);
	if (st != FS_OK)
		return st;
	/* accept only the canonical bytes, so that receive then send gives the input back */
	if (fs_vpool_binary_size(p) != len)
		st = corrupt(err, "value is not in canonical form");
	else
	{
		uint8_t *again = a->alloc(a->ctx, len);

		fs_vpool_to_binary(p, again);
		if (memcmp(again, data, len) != 0)
			st = corrupt(err, "value is not in canonical form");
		a->release(a->ctx, again);
	}
	if (st != FS_OK)
	{
		fs_vpool_free(p);
		return st;
	}
	*out = p;
	return FS_OK;
}
