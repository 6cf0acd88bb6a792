/*
 * fuzz_pbs_usage.c: a structure-aware libFuzzer harness for the PBS usage formula evaluator.
 * The input is a small program that writes a formula: each byte emits a token (a number, a
 * resource name, an operator, a parenthesis, a function the evaluator knows, a sign, a space)
 * or repeats the last few tokens up to millions of times, so that a few bytes reach megabyte
 * formulas with deep nesting and long chains of powers, signs, calls and sums. Any formula must
 * evaluate to a finite number or fail with a message, and the same formula followed by a space
 * must give the same answer, as must the same resources among many others (looked up in an index
 * rather than by a scan).
 */
#include "load/pbs_usage.h"
#include "types/resvec.h"
#include "fuzz_alloc.h"
#include "fuzz_tokens.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest formula a program may write (bytes); a longer one is cut. */
#define FORMULA_MAX ((size_t) 1 << 20)
/* Formulas up to this long are also checked against the large vector and with a space added. */
#define CROSS_CHECK_MAX 65536
/* Tokens a repeat may take back (the last 1 to 8; a repeated block then counts as one). */

static const char *const tokens[] = {
    "1",      "0",      "2",      "2.5",      ".5",   "1e3",   "1e308",  "7",
    "cput",   "mem",    "ncpus",  "walltime", "pi",   "e",     "nosuch", "+",
    "-",      "*",      "/",      "**",       "(",    ")",     ",",      " ",
    "ceil(",  "floor(", "trunc(", "fabs(",    "abs(", "sqrt(", "exp(",   "log(",
    "log10(", "log2(",  "pow(",   "fmod(",    "min(", "max(",  "round(", "nosuchfn(",
    "**1",    "-1",     "+(",     "//",       "$",    "\t",    "1)",     "(1"};
#define NTOKENS (sizeof(tokens) / sizeof(tokens[0]))

static char formula[FORMULA_MAX + 2];

/*
 * The resources of the formulas, alone (looked up by a scan) and among 20 others (looked up in
 * the index a large vector gets): both must give the same answer.
 */
static const uint8_t *
used_vector(bool large)
{
	static uint8_t *rv[2];

	if (rv[large] == NULL)
	{
		static const char small_text[] = "cput=01:00:00,mem=1gb,ncpus=4,walltime=00:30:00";
		char text[1024];
		size_t len;
		int k;
		fs_error err;

		snprintf(text, sizeof(text), "%s", small_text);
		for (k = 0; large && k < 20; k++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), ",%s%d=%d",
			         k % 2 ? "Q" : "zz", k, k + 1);
		if (fs_rv_parse(text, strlen(text), &fz, 0, &rv[large], &len, &err) != FS_OK)
			abort();
	}
	return rv[large];
}

/* The formula the program in data[0..size) writes (fuzz_tokens.h), and its length. */
static size_t
write_formula(const uint8_t *data, size_t size)
{
	return fuzz_write_tokens(data, size, tokens, NTOKENS, formula, FORMULA_MAX);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *rv = used_vector(false);
	size_t len = write_formula(data, size);
	fs_error err, err2;
	double v = 0, v2 = 0;
	fs_status st, st2;

	st = fs_pbs_usage(formula, len, rv, &fz, &v, &err);
	if (st == FS_OK)
	{
		if (!isfinite(v))
			abort();
	}
	else if (err.message[0] == '\0' || err.status != st ||
	         (st != FS_ERR_SYNTAX && st != FS_ERR_RANGE && st != FS_ERR_DIVZERO) ||
	         (st == FS_ERR_SYNTAX && err.detail[0] == '\0'))
		abort(); /* a failure says why (and, for syntax, where) with one of the formula's codes */

	if (len > CROSS_CHECK_MAX)
		return 0;
	/* the resources looked up in the index of a large vector give the same */
	st2 = fs_pbs_usage(formula, len, used_vector(true), &fz, &v2, &err2);
	if (st2 != st || (st == FS_OK && v2 != v))
		abort();
	/* a trailing space changes nothing */
	formula[len] = ' ';
	st2 = fs_pbs_usage(formula, len + 1, rv, &fz, &v2, &err2);
	if (st2 != st || (st == FS_OK && v2 != v))
		abort();
	return 0;
}
