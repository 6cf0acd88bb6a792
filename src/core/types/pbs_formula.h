/*
 * pbs_formula.h: PBS's formula language (the Python expression subset PBS evaluates for
 * job_sort_formula and fairshare_usage_res), compiled once into a flat program and evaluated
 * per row with no allocation and no recursion.
 *
 * Two dialects share the compiler and the machine:
 *   FS_PF_USAGE  fairshare_usage_res as pbs_usage has always read it: numbers, names,
 *                + - * / **, signs, parentheses and the functions ceil floor trunc fabs abs sqrt
 *                exp log log10 log2 pow fmod min max round; every partial result must be finite,
 *                and an error is an error (its message names the character);
 *   FS_PF_SORT   job_sort_formula: also // %, comparisons (chained), and or not, a if c else b,
 *                True False, int float round(x, n), the rest of math's functions and the
 *                constants pi e tau inf nan; infinities and NaN flow as in Python's floats, and
 *                errors carry Python's own message ("float division by zero").
 * Names that are not functions or (in FS_PF_SORT) math constants become slots, numbered in
 * byte order of their names (the order of a resvec's entries); the caller gives one value per
 * slot to fs_pf_eval.
 *
 * Limits (docs/limits.md): FS_PF_LENGTH_MAX bytes of formula (54000 beyond), FS_PF_DEPTH_MAX
 * levels of nesting of any kind (a syntax error at the character beyond). Compiling is
 * O(n log n) in the formula's length n and polls for interrupts; the program is O(n); one
 * evaluation is O(n), polls for interrupts, and uses a value stack sized at compile time
 * (at most 4 * FS_PF_DEPTH_MAX + 4 values, whatever n).
 */
#ifndef FS_PBS_FORMULA_H
#define FS_PBS_FORMULA_H

#include "fs_core.h"

#define FS_PF_LENGTH_MAX ((size_t) 1 << 20)
#define FS_PF_DEPTH_MAX  64

typedef enum fs_pf_dialect
{
	FS_PF_USAGE,
	FS_PF_SORT
} fs_pf_dialect;

typedef struct fs_pf_prog fs_pf_prog;

/*
 * Compile formula[0..len). A syntax error is FS_ERR_SYNTAX with `subject` in its message
 * ("invalid <subject>: ...") and `hint`; too long a formula is FS_ERR_LIMIT.
 */
fs_status fs_pf_compile(const char *formula, size_t len, fs_pf_dialect dialect, const char *subject,
                        const char *hint, const fs_allocator *a, fs_pf_prog **out, fs_error *err);
void fs_pf_free(fs_pf_prog *p, const fs_allocator *a);

/* The slots: how many, and the name of slot i (names in byte order, each once). */
size_t fs_pf_nslots(const fs_pf_prog *p);
const char *fs_pf_slot_name(const fs_pf_prog *p, size_t i, size_t *len);
/*
 * The byte offset in the formula of slot i's first use (for messages), and in FS_PF_USAGE its
 * value when nothing binds it (pi and e as constants, any other name 0).
 */
size_t fs_pf_slot_at(const fs_pf_prog *p, size_t i);
double fs_pf_slot_default(const fs_pf_prog *p, size_t i);
/* The formula text the program was compiled from (the caller's bytes are not kept). */
const char *fs_pf_text(const fs_pf_prog *p, size_t *len);

/*
 * Evaluate with vals[i] the value of slot i. An evaluation error is FS_ERR_DIVZERO (a division
 * or modulo by zero, zero to a negative power) or FS_ERR_RANGE (a math domain or range error,
 * a non-finite partial result in FS_PF_USAGE), its message PBS's (FS_PF_SORT) or pbs_usage's.
 * Mutates only the program's own value stack: one program serves one evaluation at a time.
 */
fs_status fs_pf_eval(fs_pf_prog *p, const double *vals, double *result, fs_error *err);

/*
 * Fill vals, a slot at a time, from a resvec (NULL: none): the formula's names and the vector's
 * entries are both in byte order, so one merge finds for each slot k the entry of its name, or
 * NULL, and vals[k] = value(ctx, k, entry). O(slots + entries), polling the interrupt hook.
 */
typedef double (*fs_pf_slot_value)(void *ctx, size_t slot, const void *rv_item);
void fs_pf_bind_resvec(const fs_pf_prog *p, const uint8_t *rv, double *vals, fs_pf_slot_value value,
                       void *ctx);

#endif
