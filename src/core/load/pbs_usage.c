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

/* A slot's value: its resource in the scheduler's units, or the name's default when absent. */
static double
usage_slot_value(void *ctx, size_t slot, const void *rv_item)
{
	const fs_rv_item *it = rv_item;

	if (it == NULL)
		return fs_pf_slot_default((const fs_pf_prog *) ctx, slot);
	if (it->kind == FS_KIND_SIZE)
		return ceil(it->amount / 1024.0); /* kb, rounded up as the scheduler's res_to_num does */
	return it->amount;
}

fs_status
fs_pbs_usage_run(fs_pf_prog *prog, double *vals, const uint8_t *used, double *result, fs_error *err)
{
	fs_status st;
	double v = 0;

	fs_pf_bind_resvec(prog, used, vals, usage_slot_value, prog);
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
