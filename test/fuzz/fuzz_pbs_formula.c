/*
 * fuzz_pbs_formula.c: a structure-aware libFuzzer harness for the PBS formula language
 * (types/pbs_formula.c) in its job_sort_formula dialect. The input is a small program that writes
 * a formula: each byte emits a token (numbers, names, math constants, every operator, keywords,
 * parentheses, calls, signs) or repeats the last few tokens up to millions of times, so that a
 * few bytes reach long and deeply nested formulas. A formula must compile or fail with a
 * located syntax error (or the length limit); a program must evaluate to a number or fail with
 * one of its two evaluation codes; a second run of the same program, and the formula with a
 * space added, must give the same answer; and where the usage dialect also reads the formula and
 * evaluates it, the two dialects must agree.
 */
#include "types/pbs_formula.h"
#include "fuzz_alloc.h"
#include "fuzz_tokens.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FORMULA_MAX     (FS_PF_LENGTH_MAX + 64)
#define CROSS_CHECK_MAX 65536

static const char *const tokens[] = {
    "1",      "0",        "2",      "2.5",   ".5",     "1e3",   "1e308",     "7",     "ncpus",
    "mem",    "walltime", "pi",     "e",     "inf",    "nan",   "True",      "+",     "-",
    "*",      "/",        "//",     "%",     "**",     "(",     ")",         ",",     " ",
    "<",      "<=",       "==",     "!=",    ">",      " and ", " or ",      " not ", " if ",
    " else ", "ceil(",    "floor(", "sqrt(", "exp(",   "log(",  "pow(",      "fmod(", "min(",
    "max(",   "round(",   "int(",   "abs(",  "atanh(", "acos(", "nosuchfn(", "**1",   "-1",
    "$",      " in ",     "&",      "1)",    "(1",     "None"};
#define NTOKENS (sizeof(tokens) / sizeof(tokens[0]))

static char formula[FORMULA_MAX + 2];

/* The formula the program in data[0..size) writes (fuzz_tokens.h), and its length. */
static size_t
write_formula(const uint8_t *data, size_t size)
{
	return fuzz_write_tokens(data, size, tokens, NTOKENS, formula, FORMULA_MAX);
}

/* The value a name gets: the same in both dialects (a math constant's own value). */
static double
name_value(const fs_pf_prog *p, size_t i)
{
	size_t n;
	const char *s = fs_pf_slot_name(p, i, &n);

	if (fs_span_eq(s, n, "pi") || fs_span_eq(s, n, "e"))
		return fs_pf_slot_default(p, i);
	if (fs_span_eq(s, n, "inf"))
		return INFINITY;
	if (fs_span_eq(s, n, "nan"))
		return NAN;
	if (fs_span_eq(s, n, "True"))
		return 1;
	return (double) (n % 4) + 0.5 * (double) (s[0] % 3);
}

static bool
same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Set when the usage dialect took a word of the sort dialect ("not", "True", ...) for a name:
 * the two dialects then read different formulas, and are not compared. */
static bool usage_read_keyword;

static bool
is_sort_keyword(const fs_pf_prog *p, size_t i)
{
	static const char *const kw[] = {"not", "and",  "or",    "if",  "else",
	                                 "in",  "True", "False", "None"};
	size_t n, k;
	const char *s = fs_pf_slot_name(p, i, &n);

	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (fs_span_eq(s, n, kw[k]))
			return true;
	return false;
}

/* Compile and run formula[0..len) in a dialect; *ok whether it evaluated. */
static fs_status
run(size_t len, fs_pf_dialect d, double *v, bool *ok)
{
	static double vals[FORMULA_MAX / 2 + 1];
	fs_pf_prog *p;
	fs_error err;
	fs_status st = fs_pf_compile(formula, len, d, "f", "h", &fz, &p, &err);
	double v2 = 0;
	size_t i;
	bool finite_in = true;

	*ok = false;
	if (st != FS_OK)
	{
		if (err.status != st || err.message[0] == '\0' ||
		    (st != FS_ERR_SYNTAX && st != FS_ERR_LIMIT) ||
		    (st == FS_ERR_SYNTAX && err.detail[0] == '\0'))
			abort(); /* a compile error says why and, for syntax, where */
		return st;
	}
	for (i = 0; i < fs_pf_nslots(p); i++)
	{
		vals[i] = name_value(p, i);
		finite_in = finite_in && isfinite(vals[i]);
		if (d == FS_PF_USAGE && is_sort_keyword(p, i))
			usage_read_keyword = true;
	}
	st = fs_pf_eval(p, vals, v, &err);
	if (st != FS_OK && (err.status != st || err.message[0] == '\0' ||
	                    (st != FS_ERR_DIVZERO && st != FS_ERR_RANGE)))
		abort();
	if (d == FS_PF_USAGE && st == FS_OK && finite_in && !isfinite(*v) && !isnan(*v))
		abort(); /* from finite amounts (a resvec's), the usage dialect never returns an infinity */
	/* the program keeps nothing from one run to the next */
	if (fs_pf_eval(p, vals, &v2, &err) != st || (st == FS_OK && !same(v2, *v)))
		abort();
	fs_pf_free(p, &fz);
	*ok = st == FS_OK;
	return FS_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = write_formula(data, size);
	double v = 0, v2 = 0, vu = 0;
	bool ok, ok2, oku;
	fs_status st, st2, stu;

	st = run(len, FS_PF_SORT, &v, &ok);
	if (len > CROSS_CHECK_MAX)
		return 0;
	formula[len] = ' ';
	st2 = run(len + 1, FS_PF_SORT, &v2, &ok2);
	if (st2 != st || ok2 != ok || (ok && !same(v, v2)))
		abort();
	usage_read_keyword = false;
	stu = run(len, FS_PF_USAGE, &vu, &oku);
	if (stu == FS_OK && st == FS_OK && oku && ok && !usage_read_keyword && !same(vu, v))
		abort(); /* both dialects read it and evaluated it: the same number */
	return 0;
}
