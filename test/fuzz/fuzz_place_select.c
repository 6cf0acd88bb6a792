/*
 * fuzz_place_select.c: libFuzzer harness for the PBS select and place spec parsers and the text of a
 * vnode's available resources (indirect "res=@vnode" entries), and for place_select itself. The
 * input is split at the first two NUL bytes: a select spec, a place spec, available resources.
 * A parsed select spec has 1 to FS_SELECT_CHUNKS_MAX chunks and valid requests; a refused one
 * says why (syntax errors with a position); available text reads back from its own output; a
 * small pool built from the input places the spec without breaking its own rules, and place()
 * picks the first set that holds the first chunk's request now, else once free.
 */
#include "placement/placement.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
check_select(const char *s, size_t n)
{
	static const uint8_t *none = NULL;
	fs_select *sel;
	fs_error err;
	size_t t;
	uint32_t total = 0;

	if (fs_select_parse(s, n, none, &fz, &sel, &err) != FS_OK)
	{
		if (err.status != FS_ERR_SYNTAX && err.status != FS_ERR_RANGE &&
		    err.status != FS_ERR_LIMIT && err.status != FS_ERR_KIND)
			abort();
		if (err.status == FS_ERR_SYNTAX && strstr(err.detail, "at ") == NULL)
			abort();
		return;
	}
	if (sel->nterms == 0)
		abort();
	for (t = 0; t < sel->nterms; t++)
	{
		if (sel->terms[t].count == 0 ||
		    fs_rv_validate(sel->terms[t].request, fs_rv_size(sel->terms[t].request), FS_ERR_BINARY,
		                   &err) != FS_OK)
			abort();
		total += sel->terms[t].count;
	}
	if (total != sel->total || total > FS_SELECT_CHUNKS_MAX)
		abort();
	fs_select_free(sel, &fz);
}

static void
check_place(const char *s, size_t n)
{
	fs_place pl;
	fs_error err;

	if (fs_place_parse(s, n, &pl, &err) == FS_OK)
	{
		if (pl.arrangement > FS_ARRANGE_VSCATTER || pl.sharing > FS_SHARE_EXCLHOST ||
		    pl.grouplen > FS_SORT_RESOURCE_MAX || strlen(pl.group) != pl.grouplen)
			abort();
	}
	else if (err.status != FS_ERR_VALUE || err.hint[0] == '\0')
		abort();
}

/* available text: accepted text formats to a text that reads back to the same vnode */
static fs_vpool *
check_available(const char *s, size_t n)
{
	uint8_t *rv, *rv2;
	fs_indirect *ind, *ind2;
	size_t nind, nind2;
	fs_error err;
	fs_vpool *p;
	fs_sb sb;

	if (fs_vpool_parse_available(s, n, &fz, &rv, &ind, &nind, &err) != FS_OK)
		return NULL;
	p = fs_vpool_new(&fz);
	if (fs_vpool_add(p, "v", 1, rv, NULL, NULL, 0, ind, nind, &err) != FS_OK)
	{
		free(rv);
		free(ind);
		fs_vpool_free(p);
		return NULL;
	}
	free(rv);
	free(ind);
	fs_sb_init(&sb, &fz, 32);
	fs_vpool_format_available(&sb, fs_vpool_vnode(p, 0));
	if (fs_vpool_parse_available(sb.data, sb.len, &fz, &rv2, &ind2, &nind2, &err) != FS_OK)
	{
		fprintf(stderr, "formatted text \"%s\" does not read back: %s\n", sb.data, err.message);
		abort();
	}
	if (fs_rv_cmp(rv2, fs_vpool_vnode(p, 0)->avail) != 0 ||
	    nind2 != fs_vpool_vnode(p, 0)->nindirect)
		abort();
	free(rv2);
	free(ind2);
	free(sb.data);
	return p;
}

/* Whether request fits in set s's unused (now) or total amounts; -1 on amounts of two kinds. */
static int
fits_in(const fs_pset *s, const uint8_t *request, bool now)
{
	bool fits;
	fs_error err;

	if (fs_rv_fits(request, now ? s->unused : s->total, &fits, &err) != FS_OK)
		return -1;
	return fits;
}

/* place(): the first set that holds the request now, else the first that would once free. */
static void
check_place_first(const fs_chunk_placement *cp, const uint8_t *request)
{
	size_t pick, j;
	bool now;
	fs_error err;

	if (fs_place_first(cp->sets, cp->nsets, request, &pick, &now, &err) != FS_OK)
	{
		if (err.status != FS_ERR_KIND)
			abort();
		return;
	}
	for (j = 0; j < cp->nsets && (pick == SIZE_MAX || j <= pick); j++)
	{
		int on_unused = fits_in(&cp->sets[j], request, true);
		int on_total = fits_in(&cp->sets[j], request, false);

		if (j == pick && (now ? on_unused : on_total) != 1)
			abort();
		/* nothing before the pick fits now; if the pick is not for now, nothing fits now */
		if (on_unused == 1 && (pick == SIZE_MAX || !now || j < pick))
			abort();
		if (on_total == 1 && (pick == SIZE_MAX || (!now && j < pick)))
			abort();
	}
}

/* place the spec on a pool of the parsed vnode and two others; it must not break its rules */
static void
check_placement(fs_vpool *p, const char *sel_text, size_t sel_len, const char *pl_text,
                size_t pl_len)
{
	static const fs_label host = {"host", 4, "v", 1};
	fs_select *sel;
	fs_place pl;
	fs_chunk_placement cp;
	fs_error err;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk), i;
	fs_pset_spec spec = {NULL, NULL, 0, sk, nsk, false, false};
	uint8_t *rv;
	size_t rvlen;

	if (fs_rv_parse("ncpus=4,mem=8gb", 15, &fz, 0, &rv, &rvlen, &err) != FS_OK)
		abort();
	/* a second vnode of the same host, and one of its own */
	if (fs_vpool_add(p, "w", 1, rv, NULL, &host, 1, NULL, 0, &err) != FS_OK ||
	    fs_vpool_add(p, "x", 1, rv, rv, NULL, 0, NULL, 0, &err) != FS_OK)
		abort();
	free(rv);
	if (fs_vpool_prepare(p, &err) != FS_OK)
		abort();
	if (fs_place_parse(pl_text, pl_len, &pl, &err) != FS_OK ||
	    fs_select_parse(sel_text, sel_len, NULL, &fz, &sel, &err) != FS_OK)
		return;
	if (sel->total > 64)
	{
		fs_select_free(sel, &fz);
		return;
	}
	if (fs_place_select(p, &spec, sel, &pl, &fz, &cp, &err) == FS_OK)
	{
		if (cp.set != SIZE_MAX && (cp.npieces < sel->total || cp.set >= cp.nsets))
			abort();
		check_place_first(&cp, sel->terms[0].request);
		for (i = 0; i < cp.npieces; i++)
			if (cp.pieces[i].chunk < 1 || cp.pieces[i].chunk > sel->total ||
			    cp.pieces[i].vnode >= fs_vpool_count(cp.resolved))
				abort();
		fs_chunk_placement_free(&cp, &fz);
	}
	else if (err.status == FS_OK || err.message[0] == '\0')
		abort();
	fs_select_free(sel, &fz);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	const char *nul1 = memchr(s, '\0', size), *nul2;
	size_t n1 = nul1 ? (size_t) (nul1 - s) : size, n2, n3;
	const char *place, *avail;
	fs_vpool *p;

	check_select(s, size);
	check_place(s, size);
	if (!nul1)
		return 0;
	place = nul1 + 1;
	nul2 = memchr(place, '\0', size - n1 - 1);
	n2 = nul2 ? (size_t) (nul2 - place) : size - n1 - 1;
	avail = nul2 ? nul2 + 1 : place + n2;
	n3 = (size_t) (s + size - avail);
	check_select(s, n1);
	check_place(place, n2);
	p = check_available(avail, n3);
	if (p)
	{
		check_placement(p, s, n1, place, n2);
		fs_vpool_free(p);
	}
	return 0;
}
