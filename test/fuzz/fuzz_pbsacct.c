/*
 * fuzz_pbsacct.c: libFuzzer harness for the PBS accounting line reader and the usage formula.
 * Any input either fails cleanly (with a message) or gives a record whose spans stay inside the
 * line, whose resvecs are valid, and whose tokenisation agrees with the full parse; the same
 * bytes read as a formula either evaluate to a finite number or fail with a message.
 */
#include "load/pbsacct.h"
#include "load/pbs_usage.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	fs_pbs_record rec, tok;
	fs_error err;
	size_t i;
	double v;
	static const uint8_t used[] = {0, 0, 0, 0}; /* the empty resvec */
	fs_status st = fs_pbs_parse(s, size, &fz, &rec, &err);

	if (st != FS_OK)
	{
		if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0' || err.detail[0] == '\0')
			abort(); /* a failure must say why and where */
		if (fs_pbs_tokenize(s, size, &fz, &tok, &err) == FS_OK)
			abort(); /* the parse fails only where the tokenizer does */
	}
	else
	{
		const char *q = rec.notes.data;

		for (i = 0; i < rec.npairs; i++)
		{
			const fs_pbs_pair *p = &rec.pairs[i];

			if (p->key_len == 0 || p->key_off + p->key_len > size || p->val_off + p->val_len > size)
				abort();
		}
		if (rec.id_off + rec.id_len > size || rec.server_off + rec.server_len > size)
			abort();
		if (fs_rv_validate(rec.used, fs_rv_size(rec.used), FS_ERR_BINARY, &err) != FS_OK ||
		    fs_rv_validate(rec.requested, fs_rv_size(rec.requested), FS_ERR_BINARY, &err) != FS_OK)
			abort();
		for (i = 0; i < rec.nhosts; i++)
			if (rec.hosts[i].name < s || rec.hosts[i].name + rec.hosts[i].len > s + size)
				abort();
		for (i = 0; i < rec.nnotes; i++)
			q += strlen(q) + 1;
		if (q != rec.notes.data + rec.notes.len)
			abort();
		if (fs_pbs_tokenize(s, size, &fz, &tok, &err) != FS_OK || tok.npairs != rec.npairs)
			abort();
		fs_pbs_free(&tok, &fz);
		if (rec.used != NULL &&
		    fs_pbs_usage("cput + mem / 3", 14, rec.used, &fz, &v, &err) == FS_OK && !isfinite(v))
			abort();
		fs_pbs_free(&rec, &fz);
	}
	st = fs_pbs_usage(s, size, used, &fz, &v, &err);
	if (st == FS_OK ? !isfinite(v) : err.message[0] == '\0')
		abort();
	return 0;
}
