/*
 * test_pbs_formula.c: unit tests of src/core/types/pbs_formula.c in the job_sort_formula
 * dialect: Python's operators, precedence, chained comparisons, short-circuits and the
 * conditional, math's functions and constants, Python's error texts, the slots, the nesting
 * limit for every construct, and a property test against a tree-walking reference evaluation of
 * random expressions.
 */
#include "unit.h"

#include "types/pbs_formula.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fs_error last_err;

/* Evaluate f in the job_sort_formula dialect with every slot bound to `x`. */
static double
sort_eval(const char *f, double x, fs_status *st)
{
	fs_pf_prog *p;
	double vals[64], r = NAN;
	size_t k;

	*st = fs_pf_compile(f, strlen(f), FS_PF_SORT, "PBS job_sort_formula", "hint", &unit_alloc, &p,
	                    &last_err);
	if (*st != FS_OK)
		return NAN;
	for (k = 0; k < fs_pf_nslots(p) && k < 64; k++)
		vals[k] = x;
	*st = fs_pf_eval(p, vals, &r, &last_err);
	fs_pf_free(p, &unit_alloc);
	return r;
}

static double
ok(const char *f)
{
	fs_status st;
	double v = sort_eval(f, 1, &st);

	if (!CHECK(st == FS_OK))
		fprintf(stderr, "  formula %.80s: %s %s\n", f, last_err.message, last_err.detail);
	return v;
}

/* Whether f fails with status `want` and the message `msg` (Python's text). */
static bool
fails(const char *f, fs_status want, const char *msg)
{
	fs_status st;

	sort_eval(f, 1, &st);
	if (st == want && strstr(last_err.message, msg) != NULL)
		return true;
	fprintf(stderr, "  formula %.80s: status %d, %s / %s\n", f, (int) st, last_err.message,
	        last_err.detail);
	return false;
}

static bool
syntax(const char *f, const char *part)
{
	fs_status st;

	sort_eval(f, 1, &st);
	if (st == FS_ERR_SYNTAX && strstr(last_err.detail, part) != NULL)
		return true;
	fprintf(stderr, "  formula %.80s: status %d, %s / %s\n", f, (int) st, last_err.message,
	        last_err.detail);
	return false;
}

static void
test_operators(void)
{
	CHECK_DBL(ok("7 // 2"), 3, 0);
	CHECK_DBL(ok("-7 // 2"), -4, 0);
	CHECK_DBL(ok("7 % -3"), -2, 0);
	CHECK_DBL(ok("-7 % 3"), 2, 0);
	CHECK_DBL(ok("7.5 % 2"), 1.5, 0);
	CHECK_DBL(ok("1 // 0.1"), 9, 0); /* Python: 9.0, not floor(1 / 0.1) = 10 */
	CHECK_DBL(ok("-2 ** 2"), -4, 0);
	CHECK_DBL(ok("2 ** -1"), 0.5, 0);
	CHECK_DBL(ok("2 ** 3 ** 2"), 512, 0);
	CHECK_DBL(ok("10 - 4 - 3"), 3, 0);
	CHECK_DBL(ok("2 + 3 * 4 % 5"), 4, 0);
	CHECK_DBL(ok("1 < 2 < 3"), 1, 0);
	CHECK_DBL(ok("1 < 3 < 2"), 0, 0);
	CHECK_DBL(ok("3 > 2 == 2"), 1, 0);
	CHECK_DBL(ok("1 <= 1 >= 1 != 2"), 1, 0);
	CHECK_DBL(ok("0 or 5"), 5, 0);
	CHECK_DBL(ok("3 and 0"), 0, 0);
	CHECK_DBL(ok("2 and 3"), 3, 0);
	CHECK_DBL(ok("not 0"), 1, 0);
	CHECK_DBL(ok("not 2 < 1"), 1, 0);
	CHECK_DBL(ok("not not 7"), 1, 0);
	CHECK_DBL(ok("1 or 0 and 0"), 1, 0); /* and binds tighter */
	CHECK_DBL(ok("10 if 1 > 2 else 20"), 20, 0);
	CHECK_DBL(ok("1 if 0 else 2 if 0 else 3"), 3, 0);
	CHECK_DBL(ok("(1 if 1 else 2) + (3 if 0 else 4) * 10"), 41, 0);
	/* only the branch taken is evaluated, and the operands of and/or only when needed */
	CHECK_DBL(ok("1/0 if 0 else 7"), 7, 0);
	CHECK_DBL(ok("0 and 1/0"), 0, 0);
	CHECK_DBL(ok("1 or 1/0"), 1, 0);
	CHECK_DBL(ok("5 < 1 < 1/0"), 0, 0);
	CHECK_DBL(ok("True + True - False"), 2, 0);
	CHECK_DBL(ok("pi + e + tau"), 3.141592653589793 + 2.718281828459045 + 6.283185307179586, 1e-15);
	CHECK_DBL(ok("inf > 1e308"), 1, 0);
	CHECK_DBL(ok("nan == nan"), 0, 0);
	CHECK_DBL(ok("nan != nan"), 1, 0);
	CHECK(isinf(ok("1e308 * 10"))); /* float overflow in * is silent in Python */
	CHECK(isnan(ok("inf - inf")));
	CHECK(isinf(ok("1e999")));
}

static void
test_functions(void)
{
	CHECK_DBL(ok("int(-2.7) + float(3) + int() + float()"), 1, 0);
	CHECK_DBL(ok("round(0.5) + round(1.5) + round(2.5)"), 4, 0);
	CHECK_DBL(ok("round(2.675, 2)"), 2.67, 1e-15);
	CHECK_DBL(ok("round(1234.5, -2)"), 1200, 0);
	CHECK_DBL(ok("min(3, nan)"), 3, 0);
	CHECK(isnan(ok("min(nan, 3)")));
	CHECK_DBL(ok("max(1, 9, 4) - min(7, 2, 5)"), 7, 0);
	CHECK_DBL(ok("abs(-3) + fabs(-1.5)"), 4.5, 0);
	CHECK_DBL(ok("atan2(1, 1) * 4"), 3.141592653589793, 1e-15);
	CHECK_DBL(ok("hypot(3, 4) + degrees(pi) + radians(180)"), 5 + 180 + 3.141592653589793, 1e-12);
	CHECK_DBL(ok("pow(2, 10) + sqrt(16) + exp(0) + log(e) + log10(100) + log2(8)"), 1035, 1e-12);
	CHECK_DBL(ok("log(8, 2)"), 3, 1e-15);
	CHECK_DBL(ok("ceil(1.2) + floor(-1.2) + trunc(-1.7)"), -1, 0);
	CHECK_DBL(ok("copysign(2, -0.0) + fmod(7, 3)"), -1, 0);
	CHECK_DBL(ok("sin(0) + cos(0) + tan(0) + asin(0) + acos(1) + atan(0)"), 1, 0);
	CHECK_DBL(ok("sinh(0) + cosh(0) + tanh(0) + asinh(0) + acosh(1) + atanh(0)"), 1, 0);
	CHECK_DBL(ok("expm1(0) + log1p(0)"), 0, 0);
	/* the PP-718 factor as a formula: 2^-(usage/perc) */
	CHECK_DBL(ok("pow(2, -(0.25 / 0.5))"), pow(2, -0.5), 1e-15);
}

static void
test_errors(void)
{
	CHECK(fails("1/0", FS_ERR_DIVZERO, "float division by zero"));
	CHECK(fails("1 // 0", FS_ERR_DIVZERO, "float floor division by zero"));
	CHECK(fails("1 % 0", FS_ERR_DIVZERO, "float modulo"));
	CHECK(fails("0 ** -1", FS_ERR_DIVZERO, "0.0 cannot be raised to a negative power"));
	CHECK(fails("log(2, 1)", FS_ERR_DIVZERO, "float division by zero"));
	CHECK(fails("sqrt(-1)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("log(0)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("asin(2)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("pow(0, -1)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("fmod(1, 0)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("atanh(1)", FS_ERR_RANGE, "math domain error"));
	CHECK(fails("exp(1000)", FS_ERR_RANGE, "math range error"));
	CHECK(fails("pow(10, 400)", FS_ERR_RANGE, "math range error"));
	CHECK(fails("10.0 ** 400", FS_ERR_RANGE, "(34, 'Numerical result out of range')"));
	CHECK(fails("(-8) ** 0.5", FS_ERR_RANGE, "can't convert complex to float"));
	CHECK(fails("int(inf)", FS_ERR_RANGE, "cannot convert float infinity to integer"));
	CHECK(fails("ceil(nan)", FS_ERR_RANGE, "cannot convert float NaN to integer"));
	CHECK(fails("round(1.5, 0.5)", FS_ERR_RANGE, "cannot be interpreted as an integer"));
	CHECK(syntax("", "The formula is empty"));
	CHECK(syntax("1 +", "Expected a number, a name or \"(\" at end of input"));
	CHECK(syntax("ans = 1", "Unexpected character at character 5"));
	CHECK(syntax("ncpus; 1", "Unexpected character"));
	CHECK(syntax("1 if 2", "Expected \"else\""));
	CHECK(syntax("1 in ncpus", "This operator is not supported"));
	CHECK(syntax("1 & 2", "This operator is not supported"));
	CHECK(syntax("lambda: 1", "Unexpected keyword \"lambda\""));
	CHECK(syntax("None", "Unexpected keyword \"None\""));
	CHECK(syntax("sqrt + 1", "Function \"sqrt\" is not called"));
	CHECK(syntax("foo(1)", "Unknown function \"foo\""));
	CHECK(syntax("__import__('os')", "Unknown function"));
	CHECK(syntax("min(1)", "Function \"min\" takes at least 2 arguments"));
	CHECK(syntax("round(1, 2, 3)", "Function \"round\" takes at most 2 arguments"));
	CHECK(syntax("(1, 2)", "Expected \")\""));
	CHECK(syntax("2ncpus", "Unexpected character after a number"));
}

/* The names of a formula are slots, in byte order, each once; math's names are not slots. */
static void
test_slots(void)
{
	fs_pf_prog *p;
	fs_error err;
	const char *f = "ncpus * 2 + mem + ncpus + pi + walltime / e";
	double vals[3] = {10, 4, 100}, r;
	size_t n;
	const char *nm;

	CHECK(fs_pf_compile(f, strlen(f), FS_PF_SORT, "s", "h", &unit_alloc, &p, &err) == FS_OK);
	CHECK(fs_pf_nslots(p) == 3);
	nm = fs_pf_slot_name(p, 0, &n);
	CHECK(n == 3 && memcmp(nm, "mem", 3) == 0);
	nm = fs_pf_slot_name(p, 2, &n);
	CHECK(n == 8 && memcmp(nm, "walltime", 8) == 0);
	CHECK(fs_pf_slot_at(p, 1) == 0);
	CHECK(fs_pf_eval(p, vals, &r, &err) == FS_OK);
	CHECK_DBL(r, 4 * 2 + 10 + 4 + 3.141592653589793 + 100 / 2.718281828459045, 1e-12);
	/* the same program again: nothing left over from the first run */
	CHECK(fs_pf_eval(p, vals, &r, &err) == FS_OK);
	CHECK_DBL(r, 4 * 2 + 10 + 4 + 3.141592653589793 + 100 / 2.718281828459045, 1e-12);
	fs_pf_free(p, &unit_alloc);
	/* in the usage dialect pi is a name whose default is the constant */
	CHECK(fs_pf_compile("pi", 2, FS_PF_USAGE, "s", "h", &unit_alloc, &p, &err) == FS_OK);
	CHECK(fs_pf_nslots(p) == 1);
	CHECK_DBL(fs_pf_slot_default(p, 0), 3.141592653589793, 0);
	fs_pf_free(p, &unit_alloc);
}

/* Every construct that nests counts against the one limit; flat chains are loops. */
static void
test_depth(void)
{
	char *f;
	fs_status st;
	fs_pf_prog *p;
	fs_error err;

	f = unit_repeated("", "not ", 100000, "1");
	CHECK(syntax(f, "Negations nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "not ", 64, "1");
	CHECK_DBL(ok(f), 1, 0);
	free(f);
	f = unit_repeated("", "1 if 0 else ", 10000, "5");
	CHECK(syntax(f, "Conditionals nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "1 if 0 else ", 64, "5");
	CHECK_DBL(ok(f), 5, 0);
	free(f);
	f = unit_repeated("", "(", 100000, "1");
	CHECK(syntax(f, "Parentheses nest too deeply (at most 64 levels)"));
	free(f);
	f = unit_repeated("", "-", 100000, "1");
	CHECK(syntax(f, "Signs nest too deeply"));
	free(f);
	f = unit_repeated("1", "**1", 100000, "");
	CHECK(syntax(f, "Powers nest too deeply"));
	free(f);
	f = unit_repeated("1", " < 2 and 1", 100000, "");
	CHECK_DBL(ok(f), 1, 0);
	free(f);
	f = unit_repeated("0", " or 0", 100000, " or 3");
	CHECK_DBL(ok(f), 3, 0);
	free(f);
	f = unit_repeated("1", " < 2", 100000, "");
	CHECK_DBL(sort_eval(f, 0, &st), 0, 0); /* 1 < 2 < 2 fails at the second link */
	CHECK(st == FS_OK);
	free(f);
	/* the length limit, before anything is read */
	f = unit_repeated("", "1", FS_PF_LENGTH_MAX + 1, "");
	CHECK(fs_pf_compile(f, strlen(f), FS_PF_SORT, "PBS job_sort_formula", "h", &unit_alloc, &p,
	                    &err) == FS_ERR_LIMIT);
	CHECK(strstr(err.message, "PBS job_sort_formula is too long") != NULL);
	free(f);
}

/* ---- property test: random expressions against a tree-walking reference ------------------ */

typedef enum
{
	N_LEAF,
	N_SLOT,
	N_NEG,
	N_NOT,
	N_BIN,
	N_AND,
	N_OR,
	N_CMP2, /* a op b op c, chained */
	N_IF
} node_kind;

typedef struct node
{
	node_kind k;
	char op[3];
	char op2[3];
	double v;
	struct node *a, *b, *c;
} node;

static uint64_t rng = 0x9E3779B97F4A7C15u;

static int
rnd(int n)
{
	return (int) (unit_rand(&rng) % (uint64_t) n);
}

static const char *const cmp_ops[] = {"<", "<=", ">", ">=", "==", "!="};

/* A random tree; in integer mode only + - * // % ** (small exponents), else + - * /. */
static node *
gen(int depth, bool integer)
{
	node *n = calloc(1, sizeof(node));
	int r = depth <= 0 ? rnd(2) : rnd(12);

	if (r == 0)
	{
		n->k = N_LEAF;
		n->v = integer ? rnd(10) : rnd(100) / 4.0;
	}
	else if (r == 1)
		n->k = N_SLOT;
	else if (r == 2)
	{
		n->k = N_NEG;
		n->a = gen(depth - 1, integer);
	}
	else if (r == 3)
	{
		n->k = N_NOT;
		n->a = gen(depth - 1, integer);
	}
	else if (r <= 7)
	{
		static const char *const iops[] = {"+", "-", "*", "//", "%", "**"};
		static const char *const fops[] = {"+", "-", "*", "/"};

		n->k = N_BIN;
		strcpy(n->op, integer ? iops[rnd(6)] : fops[rnd(4)]);
		n->a = gen(depth - 1, integer);
		if (strcmp(n->op, "**") == 0)
		{
			n->b = calloc(1, sizeof(node));
			n->b->k = N_LEAF;
			n->b->v = rnd(3);
		}
		else
			n->b = gen(depth - 1, integer);
	}
	else if (r == 8 || r == 9)
	{
		n->k = r == 8 ? N_AND : N_OR;
		n->a = gen(depth - 1, integer);
		n->b = gen(depth - 1, integer);
	}
	else if (r == 10)
	{
		n->k = N_CMP2;
		strcpy(n->op, cmp_ops[rnd(6)]);
		strcpy(n->op2, cmp_ops[rnd(6)]);
		n->a = gen(depth - 1, integer);
		n->b = gen(depth - 1, integer);
		n->c = gen(depth - 1, integer);
	}
	else
	{
		n->k = N_IF;
		n->a = gen(depth - 1, integer);
		n->b = gen(depth - 1, integer);
		n->c = gen(depth - 1, integer);
	}
	return n;
}

static void
node_free(node *n)
{
	if (n == NULL)
		return;
	node_free(n->a);
	node_free(n->b);
	node_free(n->c);
	free(n);
}

/* Python's precedence of a node (higher binds tighter). */
static int
prec(const node *n)
{
	switch (n->k)
	{
		case N_IF:
			return 1;
		case N_OR:
			return 2;
		case N_AND:
			return 3;
		case N_NOT:
			return 4;
		case N_CMP2:
			return 5;
		case N_NEG:
			return 8;
		case N_BIN:
			if (n->op[0] == '+' || n->op[0] == '-')
				return 6;
			return strcmp(n->op, "**") == 0 ? 9 : 7;
		default:
			return 10;
	}
}

static void print_node(fs_sb *sb, const node *n);

/* child, in parentheses when its precedence is below `min` (and sometimes anyway) */
static void
print_child(fs_sb *sb, const node *n, int min)
{
	bool paren = prec(n) < min || rnd(8) == 0;

	if (paren)
		fs_sb_append(sb, "(", 1);
	print_node(sb, n);
	if (paren)
		fs_sb_append(sb, ")", 1);
}

static void
print_node(fs_sb *sb, const node *n)
{
	int p = prec(n);

	switch (n->k)
	{
		case N_LEAF:
			fs_sb_append_double(sb, n->v);
			break;
		case N_SLOT:
			fs_sb_append(sb, "x", 1);
			break;
		case N_NEG:
			fs_sb_append(sb, "-", 1);
			print_child(sb, n->a, 8);
			break;
		case N_NOT:
			fs_sb_append(sb, "not ", 4);
			print_child(sb, n->a, 4);
			break;
		case N_BIN:
			if (strcmp(n->op, "**") == 0)
			{
				print_child(sb, n->a, 10); /* -2 ** 2 is -(2 ** 2): a sign needs parentheses */
				fs_sb_append(sb, " ** ", 4);
				print_child(sb, n->b, 8);
				break;
			}
			print_child(sb, n->a, p);
			fs_sb_appendf(sb, " %s ", n->op);
			print_child(sb, n->b, p + 1);
			break;
		case N_AND:
		case N_OR:
			print_child(sb, n->a, p);
			fs_sb_appendf(sb, n->k == N_AND ? " and " : " or ");
			print_child(sb, n->b, p + 1);
			break;
		case N_CMP2:
			print_child(sb, n->a, 6);
			fs_sb_appendf(sb, " %s ", n->op);
			print_child(sb, n->b, 6);
			fs_sb_appendf(sb, " %s ", n->op2);
			print_child(sb, n->c, 6);
			break;
		case N_IF:
			print_child(sb, n->a, 2);
			fs_sb_append(sb, " if ", 4);
			print_child(sb, n->c, 2);
			fs_sb_append(sb, " else ", 6);
			print_child(sb, n->b, 1);
			break;
	}
}

static bool
cmp_apply(const char *op, double x, double y)
{
	if (strcmp(op, "<") == 0)
		return x < y;
	if (strcmp(op, "<=") == 0)
		return x <= y;
	if (strcmp(op, ">") == 0)
		return x > y;
	if (strcmp(op, ">=") == 0)
		return x >= y;
	if (strcmp(op, "==") == 0)
		return x == y;
	return x != y;
}

/*
 * The reference: a tree walk, lazy where Python is. In integer mode the arithmetic is int64
 * (Python's ints: floor division and a modulo with the divisor's sign); *skip is set when a
 * value leaves +-2^50, where the two would round differently. Returns 0 or 1 (a division by zero).
 */
static int
ref(const node *n, double x, bool integer, double *v, bool *skip)
{
	double a, b, c;
	int e;

	*v = 0; /* also when a skipped sample returns early */
	switch (n->k)
	{
		case N_LEAF:
			*v = n->v;
			return 0;
		case N_SLOT:
			*v = x;
			return 0;
		case N_NEG:
			e = ref(n->a, x, integer, &a, skip);
			*v = -a;
			return e;
		case N_NOT:
			e = ref(n->a, x, integer, &a, skip);
			*v = a == 0;
			return e;
		case N_AND:
		case N_OR:
			if ((e = ref(n->a, x, integer, &a, skip)) != 0)
				return e;
			if ((a != 0) == (n->k == N_OR))
			{
				*v = a;
				return 0;
			}
			return ref(n->b, x, integer, v, skip);
		case N_CMP2:
			if ((e = ref(n->a, x, integer, &a, skip)) != 0 ||
			    (e = ref(n->b, x, integer, &b, skip)) != 0)
				return e;
			if (!cmp_apply(n->op, a, b))
			{
				*v = 0;
				return 0;
			}
			if ((e = ref(n->c, x, integer, &c, skip)) != 0)
				return e;
			*v = cmp_apply(n->op2, b, c);
			return 0;
		case N_IF:
			if ((e = ref(n->c, x, integer, &c, skip)) != 0)
				return e;
			return ref(c != 0 ? n->a : n->b, x, integer, v, skip);
		case N_BIN:
			break;
	}
	if ((e = ref(n->a, x, integer, &a, skip)) != 0 || (e = ref(n->b, x, integer, &b, skip)) != 0)
		return e;
	if (integer)
	{
		int64_t ia = (int64_t) a, ib = (int64_t) b, r;

		if (strcmp(n->op, "*") == 0 && fabs(a * b) > 1125899906842624.0)
		{
			*skip = true;
			return 0;
		}
		if (strcmp(n->op, "**") == 0 && fabs(pow(a, b)) > 1125899906842624.0)
		{
			*skip = true;
			return 0;
		}
		switch (n->op[0])
		{
			case '+':
				r = ia + ib;
				break;
			case '-':
				r = ia - ib;
				break;
			case '%':
				if (ib == 0)
					return 1;
				r = ia % ib;
				if (r != 0 && ((r < 0) != (ib < 0)))
					r += ib;
				break;
			case '/':
				if (ib == 0)
					return 1;
				r = ia / ib;
				if ((ia % ib != 0) && ((ia < 0) != (ib < 0)))
					r--;
				break;
			default:
				if (n->op[1] == '*')
				{
					int64_t k;

					for (r = 1, k = 0; k < ib; k++)
						r *= ia;
				}
				else
					r = ia * ib;
				break;
		}
		if (r > 1125899906842624 || r < -1125899906842624)
			*skip = true;
		*v = (double) r;
		return 0;
	}
	switch (n->op[0])
	{
		case '+':
			*v = a + b;
			break;
		case '-':
			*v = a - b;
			break;
		case '*':
			*v = a * b;
			break;
		default:
			if (b == 0)
				return 1;
			*v = a / b;
			break;
	}
	return 0;
}

static void
test_property(void)
{
	int iter, mismatches = 0, compared = 0;

	for (iter = 0; iter < 20000; iter++)
	{
		bool integer = iter % 2 == 0, skip = false;
		node *n = gen(1 + rnd(5), integer);
		double x = integer ? rnd(7) - 3 : rnd(40) / 8.0 - 2, want = 0, got = NAN;
		int e = ref(n, x, integer, &want, &skip);
		fs_sb sb;
		fs_pf_prog *p;
		fs_error err;
		fs_status st;
		double vals[1];

		fs_sb_init(&sb, &unit_alloc, 64);
		print_node(&sb, n);
		st = fs_pf_compile(sb.data, sb.len, FS_PF_SORT, "f", "h", &unit_alloc, &p, &err);
		if (st != FS_OK)
		{
			fprintf(stderr, "  does not compile: %s: %s\n", sb.data, err.detail);
			mismatches++;
		}
		else
		{
			vals[0] = x;
			if (fs_pf_nslots(p) > 1)
				mismatches++;
			st = fs_pf_eval(p, vals, &got, &err);
			fs_pf_free(p, &unit_alloc);
			if (!skip)
			{
				compared++;
				if (e ? st != FS_ERR_DIVZERO
				      : (st != FS_OK || !(got == want || (isnan(got) && isnan(want)))))
				{
					if (mismatches < 5)
						fprintf(stderr, "  %s with x = %g: want %.17g (%d), got %.17g (%d)\n",
						        sb.data, x, want, e, got, (int) st);
					mismatches++;
				}
			}
		}
		free(sb.data);
		node_free(n);
	}
	CHECK(mismatches == 0);
	CHECK(compared > 15000);
}

void
test_pbs_formula(void)
{
	test_operators();
	test_functions();
	test_errors();
	test_slots();
	test_depth();
	test_property();
}
