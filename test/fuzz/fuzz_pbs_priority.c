/*
 * fuzz_pbs_priority.c: a libFuzzer harness for PBS's job_sort_formula validation and the
 * resourcedef reader (src/core/priority/pbs_priority.c). The input is a resourcedef text and a
 * formula separated by the first NUL byte. The reader must accept the text or fail with a
 * message; a formula must validate or fail with one of PBS's three codes (or the length limit);
 * a valid one must give a job a value or an evaluation error, the same twice; and a formula
 * valid without the resourcedef must be valid with it. The formula's bytes are also read as a
 * job_sort_key entry, which must fail with a syntax error or print back as "name HIGH|LOW" and
 * read again the same.
 */
#include "priority/pbs_priority.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *
requested(void)
{
	static uint8_t *rv;

	if (rv == NULL)
	{
		static const char t[] = "mem=4gb,ncpus=8,walltime=02:00:00,ngpus=2,paws=0.12345";
		size_t len;
		fs_error err;

		if (fs_rv_parse(t, strlen(t), &fz, 0, &rv, &len, &err) != FS_OK)
			abort();
	}
	return rv;
}

static fs_status
check(const char *f, size_t flen, const fs_pbs_resdef *rd, bool unknown_ok)
{
	fs_pf_prog *p;
	fs_error err;
	int code, *kw;
	double *vals;
	float v1 = 0, v2 = 0;
	fs_status st = fs_pbs_formula_compile(f, flen, rd, unknown_ok, &fz, &p, &code, &err), e1, e2;
	fs_pbs_job_keys keys = {3600, 150, -10, 2, 0.25, 0.125};

	if (st != FS_OK)
	{
		if (err.message[0] == '\0' || (st != FS_ERR_SYNTAX && st != FS_ERR_LIMIT) ||
		    (st == FS_ERR_SYNTAX && code != FS_PBS_E_FORMULA_FORMAT &&
		     code != FS_PBS_E_FORMULA_KEYWORD && code != FS_PBS_E_FORMULA_RESTYPE))
			abort();
		return st;
	}
	kw = malloc((fs_pf_nslots(p) + 1) * sizeof(int));
	vals = malloc((fs_pf_nslots(p) + 1) * sizeof(double));
	fs_pbs_formula_keywords(p, kw);
	e1 = fs_pbs_formula_value(p, kw, vals, requested(), &keys, &v1, &err);
	if (e1 != FS_OK && (e1 != FS_ERR_DIVZERO && e1 != FS_ERR_RANGE))
		abort();
	e2 = fs_pbs_formula_value(p, kw, vals, requested(), &keys, &v2, &err);
	if (e2 != e1 || (e1 == FS_OK && !(v1 == v2 || (isnan(v1) && isnan(v2)))))
		abort();
	free(kw);
	free(vals);
	fs_pf_free(p, &fz);
	return FS_OK;
}

/* A job_sort_key entry: an error with a message, or a key that reads back from its printing. */
static void
check_sort_key(const char *t, size_t len)
{
	fs_pbs_sort_key k, back;
	fs_error err;
	char buf[600];
	int n;

	if (fs_pbs_sort_key_parse(t, len, &k, &err) != FS_OK)
	{
		if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
			abort();
		return;
	}
	if (k.name.len == 0 || k.name.s < t || k.name.s + k.name.len > t + len)
		abort();
	n = snprintf(buf, sizeof(buf), "%.*s %s", (int) (k.name.len > 500 ? 500 : k.name.len), k.name.s,
	             k.high ? "HIGH" : "LOW");
	if (k.name.len <= 500 &&
	    (fs_pbs_sort_key_parse(buf, (size_t) n, &back, &err) != FS_OK || back.high != k.high ||
	     back.what != k.what || back.name.len != k.name.len))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	const char *nul = memchr(s, 0, size);
	size_t rlen = nul ? (size_t) (nul - s) : 0;
	const char *f = nul ? nul + 1 : s;
	size_t flen = size - (size_t) (f - s);
	fs_pbs_resdef rd;
	fs_error err;
	fs_status st = fs_pbs_resourcedef_parse(s, rlen, &fz, &rd, &err);

	if (st != FS_OK && (err.message[0] == '\0' || (st != FS_ERR_SYNTAX && st != FS_ERR_VALUE)))
		abort();
	if (check(f, flen, NULL, false) == FS_OK && st == FS_OK && check(f, flen, &rd, false) != FS_OK)
		abort(); /* a resourcedef only adds names */
	check(f, flen, NULL, true);
	check_sort_key(f, flen);
	if (st == FS_OK)
		fs_pbs_resourcedef_free(&rd, &fz);
	return 0;
}
