/*
 * pbs_usage.c: PBS's fairshare_usage_res formula evaluated over a job's resources in the units
 * the PBS scheduler uses (pbs_usage), on the formula language of types/pbs_formula.c.
 */
#include "load/pbs_usage.h"

#include "types/resvec.h"

#include <math.h>
#include <string.h>

static const char USAGE_SUBJECT[] = "PBS usage formula";
static const char USAGE_HINT[] =
    "A formula uses numbers, resource names, + - * / **, parentheses and the functions ceil, "
    "floor, trunc, fabs, abs, sqrt, exp, log, log10, log2, pow, fmod, min, max and round.";

fs_status
fs_pbs_usage_compile(const char *formula, size_t len, const fs_allocator *a, fs_pf_prog **prog,
                     double **vals, fs_error *err)
{
	fs_status st =
	    fs_pf_compile(formula, len, FS_PF_USAGE, USAGE_SUBJECT, USAGE_HINT, a, prog, err);

	if (st != FS_OK)
		return st;
	*vals = a->alloc(a->ctx, (fs_pf_nslots(*prog) + 1) * sizeof(double));
	return FS_OK;
}

static double
resource_value(const fs_rv_item *it)
{
	if (it->kind == FS_KIND_SIZE)
		return ceil(it->amount / 1024.0); /* kb, rounded up as the scheduler's res_to_num does */
	return it->amount;
}

fs_status
fs_pbs_usage_run(fs_pf_prog *prog, double *vals, const uint8_t *used, double *result, fs_error *err)
{
	size_t n = fs_pf_nslots(prog), k = 0, steps = 0;
	fs_rv_iter it;
	fs_rv_item item = {NULL, 0, 0, 0, 0};
	bool more;
	fs_status st;
	double v = 0;

	/* merge the formula's names with the vector's entries, both in byte order */
	fs_rv_iter_init(&it, used);
	more = n > 0 && fs_rv_next(&it, &item);
	while (k < n)
	{
		size_t nl;
		const char *name = fs_pf_slot_name(prog, k, &nl);
		int c = more ? fs_rv_name_cmp(item.name, item.namelen, name, nl) : 1;

		FS_POLL(steps);
		steps++;
		if (c < 0)
			more = fs_rv_next(&it, &item);
		else
		{
			vals[k] = c == 0 ? resource_value(&item) : fs_pf_slot_default(prog, k);
			k++;
		}
	}
	st = fs_pf_eval(prog, vals, &v, err);
	if (st != FS_OK)
		return st;
	*result = v == 0 ? 0 : v;
	return FS_OK;
}

fs_status
fs_pbs_usage(const char *formula, size_t len, const uint8_t *used, const fs_allocator *a,
             double *result, fs_error *err)
{
	fs_pf_prog *prog;
	double *vals;
	fs_status st = fs_pbs_usage_compile(formula, len, a, &prog, &vals, err);

	if (st != FS_OK)
		return st;
	st = fs_pbs_usage_run(prog, vals, used, result, err);
	a->release(a->ctx, vals);
	fs_pf_free(prog, a);
	return st;
}
