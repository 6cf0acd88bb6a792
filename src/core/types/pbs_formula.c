/*
 * pbs_formula.c: PBS's formula language compiled to a flat program of stack instructions (one
 * recursive-descent pass with a bounded depth) and the machine that runs it.
 */
#include "types/pbs_formula.h"

#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One instruction: a is a slot, an argument count or a relative jump; at a byte offset. */
typedef struct pf_ins
{
	uint8_t op;
	uint8_t fn; /* comparison, function or description of the partial result */
	uint16_t pad;
	int32_t a;
	uint32_t at;
	double k;
} pf_ins;

enum
{
	OP_CONST,
	OP_SLOT,
	OP_NEG,
	OP_NOT,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_FDIV,
	OP_MOD,
	OP_POW,
	OP_MIN2,
	OP_MAX2,
	OP_CMP,  /* pops b, a; pushes a fn b */
	OP_CMPJ, /* pops b, a; when a fn b is false pushes 0 and jumps, else pushes b */
	OP_JT,   /* and/or: when the top is true (JT) / false (JF) jump keeping it, else pop it */
	OP_JF,
	OP_JTPOP, /* the condition of a if c else b: pops it, jumps when true */
	OP_JMP,
	OP_CALL
};

enum
{
	CMP_LT,
	CMP_LE,
	CMP_GT,
	CMP_GE,
	CMP_EQ,
	CMP_NE
};

typedef enum
{
	FN_CEIL,
	FN_FLOOR,
	FN_TRUNC,
	FN_FABS,
	FN_ABS,
	FN_SQRT,
	FN_EXP,
	FN_LOG,
	FN_LOG10,
	FN_LOG2,
	FN_POW,
	FN_FMOD,
	FN_MIN,
	FN_MAX,
	FN_ROUND,
	FN_INT,
	FN_FLOAT,
	FN_SIN,
	FN_COS,
	FN_TAN,
	FN_ASIN,
	FN_ACOS,
	FN_ATAN,
	FN_ATAN2,
	FN_SINH,
	FN_COSH,
	FN_TANH,
	FN_ASINH,
	FN_ACOSH,
	FN_ATANH,
	FN_HYPOT,
	FN_DEGREES,
	FN_RADIANS,
	FN_COPYSIGN,
	FN_EXPM1,
	FN_LOG1P
} pf_fn;

/* The functions; usage: also in FS_PF_USAGE (with usage_max arguments at most there). */
static const struct
{
	const char *name;
	pf_fn fn;
	bool usage;
	int min_args, max_args, usage_max; /* max -1: any */
} pf_fns[] = {{"ceil", FN_CEIL, true, 1, 1, 1},        {"floor", FN_FLOOR, true, 1, 1, 1},
              {"trunc", FN_TRUNC, true, 1, 1, 1},      {"fabs", FN_FABS, true, 1, 1, 1},
              {"abs", FN_ABS, true, 1, 1, 1},          {"sqrt", FN_SQRT, true, 1, 1, 1},
              {"exp", FN_EXP, true, 1, 1, 1},          {"log", FN_LOG, true, 1, 2, 2},
              {"log10", FN_LOG10, true, 1, 1, 1},      {"log2", FN_LOG2, true, 1, 1, 1},
              {"pow", FN_POW, true, 2, 2, 2},          {"fmod", FN_FMOD, true, 2, 2, 2},
              {"min", FN_MIN, true, 2, -1, -1},        {"max", FN_MAX, true, 2, -1, -1},
              {"round", FN_ROUND, true, 1, 2, 1},      {"int", FN_INT, false, 0, 1, 0},
              {"float", FN_FLOAT, false, 0, 1, 0},     {"sin", FN_SIN, false, 1, 1, 0},
              {"cos", FN_COS, false, 1, 1, 0},         {"tan", FN_TAN, false, 1, 1, 0},
              {"asin", FN_ASIN, false, 1, 1, 0},       {"acos", FN_ACOS, false, 1, 1, 0},
              {"atan", FN_ATAN, false, 1, 1, 0},       {"atan2", FN_ATAN2, false, 2, 2, 0},
              {"sinh", FN_SINH, false, 1, 1, 0},       {"cosh", FN_COSH, false, 1, 1, 0},
              {"tanh", FN_TANH, false, 1, 1, 0},       {"asinh", FN_ASINH, false, 1, 1, 0},
              {"acosh", FN_ACOSH, false, 1, 1, 0},     {"atanh", FN_ATANH, false, 1, 1, 0},
              {"hypot", FN_HYPOT, false, 2, 2, 0},     {"degrees", FN_DEGREES, false, 1, 1, 0},
              {"radians", FN_RADIANS, false, 1, 1, 0}, {"copysign", FN_COPYSIGN, false, 2, 2, 0},
              {"expm1", FN_EXPM1, false, 1, 1, 0},     {"log1p", FN_LOG1P, false, 1, 1, 0}};
#define PF_NFNS (sizeof(pf_fns) / sizeof(pf_fns[0]))

/* Descriptions of partial results, for pbs_usage's "not a finite number" detail. */
enum
{
	W_NUMBER,
	W_SUM,
	W_DIFF,
	W_PRODUCT,
	W_QUOTIENT,
	W_POWER,
	W_FNRESULT
};
static const char *const pf_what[] = {"The number",         "The sum",      "The difference",
                                      "The product",        "The quotient", "The power",
                                      "The function result"};

typedef struct pf_name
{
	uint32_t off, len, ins;
} pf_name;

struct fs_pf_prog
{
	fs_pf_dialect dialect;
	char *text;
	size_t len;
	pf_ins *code;
	size_t ncode;
	size_t nslots;
	uint32_t *slot_off, *slot_len;
	double *slot_dflt;
	double *stack;
	size_t stackmax;
};

typedef struct pf_comp
{
	const char *s;
	size_t len, i;
	int depth;
	size_t steps;
	fs_pf_dialect d;
	const char *subject, *hint;
	const fs_allocator *a;
	fs_error *err;
	pf_ins *code;
	size_t n, cap;
	size_t sp, spmax;
	pf_name *names;
	size_t nn, ncap;
} pf_comp;

static fs_status c_expr(pf_comp *c);
static fs_status c_unary(pf_comp *c);

static void
c_skip(pf_comp *c)
{
	while (c->i < c->len && fs_is_space(c->s[c->i]))
		c->i++;
}

static fs_status
c_syntax(pf_comp *c, size_t at, const char *problem)
{
	return fs_fail_syntax(c->err, c->subject, c->s, c->len, at, problem, c->hint);
}

/* One level deeper, for the construct at `at`; the same limit for every kind of nesting. */
static fs_status
c_enter(pf_comp *c, size_t at, const char *what)
{
	char problem[96];

	if (++c->depth <= FS_PF_DEPTH_MAX)
		return FS_OK;
	snprintf(problem, sizeof(problem), "%s nest too deeply (at most %d levels)", what,
	         FS_PF_DEPTH_MAX);
	return c_syntax(c, at, problem);
}

/* Append an instruction; dsp is its effect on the value stack's height. */
static size_t
c_emit(pf_comp *c, int op, int fn, int32_t a, size_t at, double k, int dsp)
{
	pf_ins *in;

	FS_POLL(c->steps);
	c->steps++;
	if (c->n == c->cap)
		c->code = fs_grow(c->a, c->code, c->n, &c->cap, sizeof(pf_ins));
	in = &c->code[c->n];
	in->op = (uint8_t) op;
	in->fn = (uint8_t) fn;
	in->pad = 0;
	in->a = a;
	in->at = (uint32_t) at;
	in->k = k;
	c->sp = (size_t) ((ptrdiff_t) c->sp + dsp);
	if (c->sp > c->spmax)
		c->spmax = c->sp;
	return c->n++;
}

/* Point the jump at j to the next instruction to be emitted. */
static void
c_patch(pf_comp *c, size_t j)
{
	c->code[j].a = (int32_t) (c->n - j);
}

/* The word w at the cursor, not followed by a name character. */
static bool
c_word(pf_comp *c, const char *w)
{
	size_t n = strlen(w);

	if (c->i + n > c->len || memcmp(c->s + c->i, w, n) != 0)
		return false;
	return c->i + n == c->len || !(fs_is_name_start(c->s[c->i + n]) || fs_is_digit(c->s[c->i + n]));
}

static bool
c_at(pf_comp *c, char ch)
{
	return c->i < c->len && c->s[c->i] == ch;
}

static bool
c_at2(pf_comp *c, const char *two)
{
	return c->i + 1 < c->len && c->s[c->i] == two[0] && c->s[c->i + 1] == two[1];
}

static const char *const sort_keywords[] = {
    "and",      "or",     "not",  "if",      "else",  "in",     "is",     "None",     "lambda",
    "for",      "def",    "del",  "class",   "from",  "import", "return", "while",    "yield",
    "with",     "as",     "try",  "except",  "raise", "pass",   "break",  "continue", "global",
    "nonlocal", "assert", "elif", "finally", "async", "await"};

/* A call name(...), c->i on its "(" and the name at at[0..nlen). */
static fs_status
c_call(pf_comp *c, size_t at, size_t nlen)
{
	const char *name = c->s + at;
	size_t f;
	int nargs = 0, maxa;
	size_t sp0 = c->sp;
	fs_status st;
	char buf[80], problem[160];

	for (f = 0; f < PF_NFNS; f++)
		if ((c->d == FS_PF_SORT || pf_fns[f].usage) && fs_span_eq(name, nlen, pf_fns[f].name))
			break;
	if (f == PF_NFNS)
	{
		fs_quote_excerpt(buf, sizeof(buf), name, nlen, 60);
		snprintf(problem, sizeof(problem), "Unknown function \"%s\"", buf);
		return c_syntax(c, at, problem);
	}
	maxa = c->d == FS_PF_USAGE ? pf_fns[f].usage_max : pf_fns[f].max_args;
	c->i++; /* "(" */
	/* the arguments in order; min and max fold each one after the first into the one before */
	for (;;)
	{
		c_skip(c);
		if (nargs == 0 && c_at(c, ')'))
			break;
		st = c_expr(c);
		if (st != FS_OK)
			return st;
		if (maxa >= 0 && nargs >= maxa)
		{
			snprintf(problem, sizeof(problem), "Function \"%s\" takes at most %d %s",
			         pf_fns[f].name, maxa, fs_plural((uint64_t) maxa, "argument", "arguments"));
			return c_syntax(c, at, problem);
		}
		if (nargs >= 1 && (pf_fns[f].fn == FN_MIN || pf_fns[f].fn == FN_MAX))
			c_emit(c, pf_fns[f].fn == FN_MIN ? OP_MIN2 : OP_MAX2, 0, 0, at, 0, -1);
		nargs++;
		c_skip(c);
		if (c_at(c, ','))
		{
			c->i++;
			continue;
		}
		break;
	}
	if (!c_at(c, ')'))
		return c_syntax(c, c->i, "Expected \")\" or \",\" in the function call");
	c->i++;
	if (nargs < pf_fns[f].min_args)
	{
		snprintf(problem, sizeof(problem), "Function \"%s\" takes at least %d %s", pf_fns[f].name,
		         pf_fns[f].min_args,
		         fs_plural((uint64_t) pf_fns[f].min_args, "argument", "arguments"));
		return c_syntax(c, at, problem);
	}
	if (pf_fns[f].fn == FN_MIN || pf_fns[f].fn == FN_MAX)
		nargs = 1; /* folded */
	c_emit(c, OP_CALL, (int) f, nargs, at, 0, 1 - (int) (c->sp - sp0));
	return FS_OK;
}

/* A name: a math constant (FS_PF_SORT), True, False, or a slot. */
static fs_status
c_name(pf_comp *c, size_t at, size_t n)
{
	static const struct
	{
		const char *name;
		double v;
	} consts[] = {{"pi", 3.141592653589793},
	              {"e", 2.718281828459045},
	              {"tau", 6.283185307179586},
	              {"inf", INFINITY},
	              {"nan", NAN},
	              {"True", 1},
	              {"False", 0}};
	size_t k;
	pf_name *nm;

	if (c->d == FS_PF_SORT)
	{
		char problem[160], buf[80];

		for (k = 0; k < sizeof(consts) / sizeof(consts[0]); k++)
			if (fs_span_eq(c->s + at, n, consts[k].name))
			{
				c_emit(c, OP_CONST, 0, 0, at, consts[k].v, 1);
				return FS_OK;
			}
		for (k = 0; k < sizeof(sort_keywords) / sizeof(sort_keywords[0]); k++)
			if (fs_span_eq(c->s + at, n, sort_keywords[k]))
			{
				snprintf(problem, sizeof(problem), "Unexpected keyword \"%s\"", sort_keywords[k]);
				return c_syntax(c, at, problem);
			}
		for (k = 0; k < PF_NFNS; k++)
			if (fs_span_eq(c->s + at, n, pf_fns[k].name))
			{
				fs_quote_excerpt(buf, sizeof(buf), c->s + at, n, 60);
				snprintf(problem, sizeof(problem), "Function \"%s\" is not called", buf);
				return c_syntax(c, at, problem);
			}
	}
	if (c->nn == c->ncap)
		c->names = fs_grow(c->a, c->names, c->nn, &c->ncap, sizeof(pf_name));
	nm = &c->names[c->nn++];
	nm->off = (uint32_t) at;
	nm->len = (uint32_t) n;
	nm->ins = (uint32_t) c_emit(c, OP_SLOT, 0, 0, at, 0, 1);
	return FS_OK;
}

/* atom: a number, a parenthesis, a call or a name. */
static fs_status
c_atom(pf_comp *c)
{
	size_t at;
	fs_status st;

	c_skip(c);
	at = c->i;
	if (at >= c->len)
		return c_syntax(c, at, "Expected a number, a name or \"(\"");
	if (c->s[at] == '(')
	{
		st = c_enter(c, at, "Parentheses");
		if (st != FS_OK)
			return st;
		c->i++;
		st = c_expr(c);
		if (st != FS_OK)
			return st;
		c_skip(c);
		if (!c_at(c, ')'))
			return c_syntax(c, c->i, "Expected \")\"");
		c->i++;
		c->depth--;
		return FS_OK;
	}
	if (fs_is_digit(c->s[at]) || (c->s[at] == '.' && at + 1 < c->len && fs_is_digit(c->s[at + 1])))
	{
		double v;
		size_t n = fs_scan_number(c->s + at, c->len - at, &v);

		if (n == 0 || isnan(v))
			return c_syntax(c, at, "Invalid number");
		c->i += n;
		if (c->i < c->len && (fs_is_name_start(c->s[c->i]) || fs_is_digit(c->s[c->i])))
			return c_syntax(c, c->i, "Unexpected character after a number");
		c_emit(c, OP_CONST, W_NUMBER, 0, at, v, 1);
		return FS_OK;
	}
	if (fs_is_name_start(c->s[at]))
	{
		size_t n = 0;

		while (at + n < c->len && (fs_is_name_start(c->s[at + n]) || fs_is_digit(c->s[at + n])))
			n++;
		c->i += n;
		c_skip(c);
		if (c_at(c, '('))
		{
			st = c_enter(c, at, "Parentheses");
			if (st != FS_OK)
				return st;
			st = c_call(c, at, n);
			c->depth--;
			return st;
		}
		return c_name(c, at, n);
	}
	return c_syntax(c, at, "Expected a number, a name or \"(\"");
}

/* power = atom [ "**" unary ]: right-associative, binds tighter than a sign on its left. */
static fs_status
c_power(pf_comp *c)
{
	fs_status st = c_atom(c);
	size_t at;

	if (st != FS_OK)
		return st;
	c_skip(c);
	if (!c_at2(c, "**"))
		return FS_OK;
	at = c->i;
	st = c_enter(c, at, "Powers");
	if (st != FS_OK)
		return st;
	c->i += 2;
	st = c_unary(c);
	if (st != FS_OK)
		return st;
	c->depth--;
	c_emit(c, OP_POW, W_POWER, 0, at, 0, -1);
	return FS_OK;
}

static fs_status
c_unary(pf_comp *c)
{
	fs_status st;
	bool neg;

	c_skip(c);
	if (!c_at(c, '-') && !c_at(c, '+'))
		return c_power(c);
	neg = c->s[c->i] == '-';
	st = c_enter(c, c->i, "Signs");
	if (st != FS_OK)
		return st;
	c->i++;
	st = c_unary(c);
	if (st != FS_OK)
		return st;
	c->depth--;
	if (neg)
		c_emit(c, OP_NEG, 0, 0, c->i, 0, 0);
	return FS_OK;
}

/* term = unary { ("*" | "/" | "//" | "%") unary }, left to right. */
static fs_status
c_term(pf_comp *c)
{
	fs_status st = c_unary(c);

	while (st == FS_OK)
	{
		size_t at;
		int op;

		c_skip(c);
		at = c->i;
		if (c_at2(c, "**"))
			break; /* cannot happen: c_power took it */
		if (c_at2(c, "//"))
		{
			if (c->d == FS_PF_USAGE)
				return c_syntax(c, at, "Floor division \"//\" is not supported");
			op = OP_FDIV;
			c->i += 2;
		}
		else if (c_at(c, '*') || c_at(c, '/') || (c->d == FS_PF_SORT && c_at(c, '%')))
		{
			op = c->s[at] == '*' ? OP_MUL : c->s[at] == '/' ? OP_DIV : OP_MOD;
			c->i++;
		}
		else
			break;
		st = c_unary(c);
		if (st == FS_OK)
			c_emit(c, op, op == OP_MUL ? W_PRODUCT : W_QUOTIENT, 0, at, 0, -1);
	}
	return st;
}

/* sum = term { ("+" | "-") term }, left to right. */
static fs_status
c_sum(pf_comp *c)
{
	fs_status st = c_term(c);

	while (st == FS_OK)
	{
		size_t at;
		bool plus;

		c_skip(c);
		if (!c_at(c, '+') && !c_at(c, '-'))
			break;
		at = c->i;
		plus = c->s[at] == '+';
		c->i++;
		st = c_term(c);
		if (st == FS_OK)
			c_emit(c, plus ? OP_ADD : OP_SUB, plus ? W_SUM : W_DIFF, 0, at, 0, -1);
	}
	return st;
}

/* The comparison operator at the cursor (consumed), or -1. */
static int
c_cmpop(pf_comp *c)
{
	static const struct
	{
		const char *t;
		int op;
	} ops[] = {{"<=", CMP_LE}, {">=", CMP_GE}, {"==", CMP_EQ},
	           {"!=", CMP_NE}, {"<", CMP_LT},  {">", CMP_GT}};
	size_t k;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
	{
		size_t n = strlen(ops[k].t);

		if (c->i + n <= c->len && memcmp(c->s + c->i, ops[k].t, n) == 0)
		{
			c->i += n;
			return ops[k].op;
		}
	}
	return -1;
}

/*
 * comparison = sum { cmpop sum }: a chain a < b < c is a < b and b < c with b evaluated once;
 * every comparison but the last jumps to the end with False when it fails.
 */
static fs_status
c_comparison(pf_comp *c)
{
	fs_status st = c_sum(c);
	size_t jumps_from = c->n, chain = 0;
	int op;
	size_t at;

	if (st != FS_OK)
		return st;
	c_skip(c);
	at = c->i;
	if (c_word(c, "in") || c_word(c, "is") || c_at(c, '&') || c_at(c, '|') || c_at(c, '^') ||
	    c_at(c, '~') || c_at2(c, "<<") || c_at2(c, ">>"))
		return c_syntax(c, at, "This operator is not supported");
	op = c_cmpop(c);
	while (op >= 0)
	{
		int next;
		size_t at2;

		FS_POLL(c->steps);
		st = c_sum(c);
		if (st != FS_OK)
			return st;
		c_skip(c);
		at2 = c->i;
		if (c_word(c, "in") || c_word(c, "is") || c_at2(c, "<<") || c_at2(c, ">>"))
			return c_syntax(c, at2, "This operator is not supported");
		next = c_cmpop(c);
		if (next >= 0)
		{
			c_emit(c, OP_CMPJ, op, 0, at, 0, -1);
			chain++;
		}
		else
			c_emit(c, OP_CMP, op, 0, at, 0, -1);
		op = next;
		at = at2;
	}
	/* the failed links of the chain jump past its end */
	for (; chain > 0 && jumps_from < c->n; jumps_from++)
		if (c->code[jumps_from].op == OP_CMPJ && c->code[jumps_from].a == 0)
			c_patch(c, jumps_from);
	return FS_OK;
}

/* not_test = "not" not_test | comparison */
static fs_status
c_not(pf_comp *c)
{
	fs_status st;
	size_t at;

	c_skip(c);
	if (!c_word(c, "not"))
		return c_comparison(c);
	at = c->i;
	st = c_enter(c, at, "Negations");
	if (st != FS_OK)
		return st;
	c->i += 3;
	st = c_not(c);
	if (st != FS_OK)
		return st;
	c->depth--;
	c_emit(c, OP_NOT, 0, 0, at, 0, 0);
	return FS_OK;
}

/* and_test / or_test: x and y is x when x is false, else y (or: when x is true). */
static fs_status
c_andor(pf_comp *c, bool is_or)
{
	fs_status st = is_or ? c_andor(c, false) : c_not(c);

	while (st == FS_OK)
	{
		size_t j;

		c_skip(c);
		if (!c_word(c, is_or ? "or" : "and"))
			break;
		c->i += is_or ? 2 : 3;
		j = c_emit(c, is_or ? OP_JT : OP_JF, 0, 0, c->i, 0, -1);
		st = is_or ? c_andor(c, false) : c_not(c);
		if (st == FS_OK)
			c_patch(c, j);
	}
	return st;
}

/*
 * conditional = or_test [ "if" or_test "else" expression ]. Python evaluates the condition
 * first: the code of the value already emitted moves down behind a jump to the condition,
 *   JMP cond; value; JMP end; cond: c; JTPOP value; other; end:
 */
static fs_status
c_conditional(pf_comp *c)
{
	size_t start = c->n, sp0 = c->sp, at, k;
	fs_status st = c_andor(c, true);
	size_t j_end, j_true;

	if (st != FS_OK)
		return st;
	c_skip(c);
	if (!c_word(c, "if"))
		return FS_OK;
	at = c->i;
	st = c_enter(c, at, "Conditionals");
	if (st != FS_OK)
		return st;
	c->i += 2;
	/* make room for the first jump at start */
	c_emit(c, OP_JMP, 0, 0, at, 0, 0);
	memmove(&c->code[start + 1], &c->code[start], (c->n - 1 - start) * sizeof(pf_ins));
	for (k = c->nn; k > 0 && c->names[k - 1].ins >= start; k--)
	{
		FS_POLL(k);
		c->names[k - 1].ins++;
	}
	memset(&c->code[start], 0, sizeof(pf_ins));
	c->code[start].op = OP_JMP;
	c->code[start].at = (uint32_t) at;
	j_end = c_emit(c, OP_JMP, 0, 0, at, 0, 0);
	c_patch(c, start);
	c->sp = sp0;
	st = c_andor(c, true);
	if (st != FS_OK)
		return st;
	j_true = c_emit(c, OP_JTPOP, 0, 0, at, 0, -1);
	c->code[j_true].a = (int32_t) start + 1 - (int32_t) j_true;
	c_skip(c);
	if (!c_word(c, "else"))
		return c_syntax(c, c->i, "Expected \"else\"");
	c->i += 4;
	st = c_expr(c);
	if (st != FS_OK)
		return st;
	c->depth--;
	c_patch(c, j_end);
	return FS_OK;
}

static fs_status
c_expr(pf_comp *c)
{
	return c->d == FS_PF_USAGE ? c_sum(c) : c_conditional(c);
}

static int
name_cmp(const void *x, const void *y, void *ctx)
{
	const pf_name *p = x, *q = y;
	const char *s = ctx;

	return fs_bytes_cmp(s + p->off, p->len, s + q->off, q->len);
}

/* Number the distinct names in byte order and point each use at its slot. */
static void
c_slots(pf_comp *c, fs_pf_prog *p)
{
	size_t k, n = 0;

	if (c->nn == 0)
		return;
	fs_sort(c->names, c->nn, sizeof(pf_name), name_cmp, (void *) c->s, c->a);
	p->slot_off = c->a->alloc(c->a->ctx, c->nn * sizeof(uint32_t));
	p->slot_len = c->a->alloc(c->a->ctx, c->nn * sizeof(uint32_t));
	p->slot_dflt = c->a->alloc(c->a->ctx, c->nn * sizeof(double));
	for (k = 0; k < c->nn; k++)
	{
		const pf_name *nm = &c->names[k];

		FS_POLL(k);
		if (n == 0 || name_cmp(nm, &c->names[k - 1], (void *) c->s) != 0)
		{
			p->slot_off[n] = nm->off;
			p->slot_len[n] = nm->len;
			p->slot_dflt[n] = 0;
			if (fs_span_eq(c->s + nm->off, nm->len, "pi"))
				p->slot_dflt[n] = 3.141592653589793;
			else if (fs_span_eq(c->s + nm->off, nm->len, "e"))
				p->slot_dflt[n] = 2.718281828459045;
			n++;
		}
		c->code[nm->ins].a = (int32_t) (n - 1);
	}
	p->nslots = n;
}

fs_status
fs_pf_compile(const char *formula, size_t len, fs_pf_dialect dialect, const char *subject,
              const char *hint, const fs_allocator *a, fs_pf_prog **out, fs_error *err)
{
	pf_comp c;
	fs_pf_prog *p;
	fs_status st;

	*out = NULL;
	if (len > FS_PF_LENGTH_MAX)
	{
		fs_fail(err, FS_ERR_LIMIT, "%s is too long", subject);
		fs_error_detail(err, "The formula has %zu bytes; at most %zu are allowed.", len,
		                FS_PF_LENGTH_MAX);
		fs_error_hint(err, "Write the formula with fewer terms.");
		return FS_ERR_LIMIT;
	}
	memset(&c, 0, sizeof(c));
	c.s = formula;
	c.len = len;
	c.d = dialect;
	c.subject = subject;
	c.hint = hint;
	c.a = a;
	c.err = err;
	c_skip(&c);
	if (c.i >= len)
		st = c_syntax(&c, c.i, "The formula is empty");
	else
	{
		st = c_expr(&c);
		if (st == FS_OK)
		{
			c_skip(&c);
			if (c.i < len)
				st = c_syntax(&c, c.i, "Unexpected character");
		}
	}
	if (st != FS_OK)
	{
		if (c.code)
			a->release(a->ctx, c.code);
		if (c.names)
			a->release(a->ctx, c.names);
		return st;
	}
	p = a->alloc(a->ctx, sizeof(fs_pf_prog));
	memset(p, 0, sizeof(*p));
	p->dialect = dialect;
	p->text = a->alloc(a->ctx, len + 1);
	memcpy(p->text, formula, len);
	p->text[len] = '\0';
	p->len = len;
	p->code = c.code;
	p->ncode = c.n;
	c_slots(&c, p);
	if (c.names)
		a->release(a->ctx, c.names);
	p->stackmax = c.spmax + 1;
	p->stack = a->alloc(a->ctx, p->stackmax * sizeof(double));
	*out = p;
	return FS_OK;
}

void
fs_pf_free(fs_pf_prog *p, const fs_allocator *a)
{
	if (p == NULL)
		return;
	a->release(a->ctx, p->text);
	if (p->code)
		a->release(a->ctx, p->code);
	if (p->slot_off)
	{
		a->release(a->ctx, p->slot_off);
		a->release(a->ctx, p->slot_len);
		a->release(a->ctx, p->slot_dflt);
	}
	a->release(a->ctx, p->stack);
	a->release(a->ctx, p);
}

size_t
fs_pf_nslots(const fs_pf_prog *p)
{
	return p->nslots;
}

const char *
fs_pf_slot_name(const fs_pf_prog *p, size_t i, size_t *len)
{
	*len = p->slot_len[i];
	return p->text + p->slot_off[i];
}

size_t
fs_pf_slot_at(const fs_pf_prog *p, size_t i)
{
	return p->slot_off[i];
}

double
fs_pf_slot_default(const fs_pf_prog *p, size_t i)
{
	return p->slot_dflt[i];
}

const char *
fs_pf_text(const fs_pf_prog *p, size_t *len)
{
	*len = p->len;
	return p->text;
}

/* ---- the machine ------------------------------------------------------------------------ */

/* An evaluation error: pbs_usage's message (FS_PF_USAGE) or Python's (FS_PF_SORT). */
static fs_status
e_fail(const fs_pf_prog *p, fs_status st, const pf_ins *in, const char *py, fs_error *err)
{
	if (p->dialect == FS_PF_SORT)
		return fs_fail(err, st, "%s", py);
	if (st == FS_ERR_DIVZERO)
	{
		fs_fail(err, st, "division by zero in PBS usage formula");
		fs_error_detail(err, "The divisor of the operation at character %zu is zero.",
		                fs_char_pos(p->text, in->at));
	}
	else
	{
		fs_fail(err, st, "math domain error in PBS usage formula");
		fs_error_detail(err, "The argument of %s at character %zu is outside its domain.",
		                in->op == OP_POW ? "**" : pf_fns[in->fn].name,
		                fs_char_pos(p->text, in->at));
	}
	return st;
}

/* pbs_usage's error for a partial result (`what`, one of pf_what) that is not finite. */
static fs_status
e_nonfinite(const fs_pf_prog *p, const pf_ins *in, int what, fs_error *err)
{
	fs_fail(err, FS_ERR_RANGE, "PBS usage formula result is out of range");
	fs_error_detail(err, "%s at character %zu is not a finite number.", pf_what[what],
	                fs_char_pos(p->text, in->at));
	return FS_ERR_RANGE;
}

/* Python's float floor division and modulo (the sign of the modulo follows the divisor). */
static void
py_divmod(double x, double y, double *fdiv, double *mod)
{
	double m = fmod(x, y), d = (x - m) / y, f;

	if (m != 0)
	{
		if ((y < 0) != (m < 0))
		{
			m += y;
			d -= 1.0;
		}
	}
	else
		m = copysign(0.0, y);
	if (d != 0)
	{
		f = floor(d);
		if (d - f > 0.5)
			f += 1.0;
	}
	else
		f = copysign(0.0, x / y);
	*fdiv = f;
	*mod = m;
}

/* x ** y (and math.pow when is_fn): Python's rules for floats. */
static fs_status
e_pow(const fs_pf_prog *p, const pf_ins *in, double x, double y, bool is_fn, double *v,
      fs_error *err)
{
	if (x == 0 && y < 0)
	{
		if (is_fn || p->dialect == FS_PF_SORT)
			return is_fn ? e_fail(p, FS_ERR_RANGE, in, "math domain error", err)
			             : e_fail(p, FS_ERR_DIVZERO, in, "0.0 cannot be raised to a negative power",
			                      err);
		return e_fail(p, FS_ERR_DIVZERO, in, NULL, err);
	}
	if (x < 0 && isfinite(x) && isfinite(y) && y != floor(y))
		return e_fail(p, FS_ERR_RANGE, in,
		              is_fn ? "math domain error" : "can't convert complex to float", err);
	*v = pow(x, y);
	if (p->dialect == FS_PF_USAGE && !isfinite(*v))
		return e_nonfinite(p, in, W_POWER, err);
	if (p->dialect == FS_PF_SORT && isinf(*v) && isfinite(x) && isfinite(y))
		return e_fail(p, FS_ERR_RANGE, in,
		              is_fn ? "math range error" : "(34, 'Numerical result out of range')", err);
	return FS_OK;
}

/* int(), math.ceil/floor/trunc, round(x): an integer, refused for infinity and NaN. */
static fs_status
e_integral(const fs_pf_prog *p, const pf_ins *in, double r, double *v, fs_error *err)
{
	if (p->dialect == FS_PF_SORT && isinf(r))
		return e_fail(p, FS_ERR_RANGE, in, "cannot convert float infinity to integer", err);
	if (p->dialect == FS_PF_SORT && isnan(r))
		return e_fail(p, FS_ERR_RANGE, in, "cannot convert float NaN to integer", err);
	*v = r;
	return FS_OK;
}

/*
 * round(x, n) for a float, as Python does it: the decimal text of x correctly rounded to n
 * places (halves of the exact binary value to even: round(2.675, 2) is 2.67) and read back;
 * for n < 0 a multiple of 10^-n, halves to even.
 */
static double
py_round_n(double x, double n)
{
	char buf[FS_DOUBLE_BUFLEN + 400];
	double m, y, v;

	if (!isfinite(x) || n > 330)
		return x;
	if (n < -308)
		return copysign(0.0, x);
	if (n >= 0)
	{
		int len = snprintf(buf, sizeof(buf), "%.*f", (int) n, x);

		if (len <= 0 || (size_t) len >= sizeof(buf) ||
		    fs_scan_number(buf, (size_t) len, &v) != (size_t) len)
			return x;
		return v == 0 ? copysign(0.0, x) : v;
	}
	m = pow(10.0, -n);
	y = nearbyint(x / m) * m;
	return isfinite(y) ? y : x;
}

/* The function of the call at `in` over args[0..nargs), checking domains as math does. */
static fs_status
e_call(const fs_pf_prog *p, const pf_ins *in, const double *args, int nargs, double *v,
       fs_error *err)
{
	double x = nargs > 0 ? args[0] : 0, y = nargs > 1 ? args[1] : 0, r;
	bool sort = p->dialect == FS_PF_SORT;

	switch (pf_fns[in->fn].fn)
	{
		case FN_CEIL:
			return e_integral(p, in, ceil(x), v, err);
		case FN_FLOOR:
			return e_integral(p, in, floor(x), v, err);
		case FN_TRUNC:
		case FN_INT:
			return e_integral(p, in, trunc(x), v, err);
		case FN_ROUND:
			if (nargs == 2)
			{
				if (y != floor(y) || !isfinite(y))
					return e_fail(p, FS_ERR_RANGE, in,
					              "'float' object cannot be interpreted as an integer", err);
				*v = py_round_n(x, y);
				return FS_OK;
			}
			return e_integral(p, in, nearbyint(x), v, err); /* halves to even, as Python */
		case FN_FLOAT:
			*v = x;
			return FS_OK;
		case FN_FABS:
		case FN_ABS:
			*v = fabs(x);
			return FS_OK;
		case FN_MIN:
		case FN_MAX:
			*v = x; /* folded by OP_MIN2 / OP_MAX2 */
			return FS_OK;
		case FN_POW:
			return e_pow(p, in, x, y, true, v, err);
		case FN_LOG:
		case FN_LOG10:
		case FN_LOG2:
			if (!(x > 0) && !(sort && isnan(x)))
				return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
			if (pf_fns[in->fn].fn == FN_LOG10)
				*v = log10(x);
			else if (pf_fns[in->fn].fn == FN_LOG2)
				*v = log2(x);
			else if (nargs == 2)
			{
				if (!(y > 0) && !(sort && isnan(y)))
					return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
				if (y == 1)
					return e_fail(p, FS_ERR_DIVZERO, in, "float division by zero", err);
				*v = log(x) / log(y);
			}
			else
				*v = log(x);
			return FS_OK;
		case FN_FMOD:
			if (y == 0 || (sort && isinf(x) && !isnan(y)))
				return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
			*v = fmod(x, y);
			return FS_OK;
		case FN_SQRT:
			if (x < 0)
				return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
			r = sqrt(x);
			break;
		case FN_EXP:
			r = exp(x);
			break;
		case FN_SIN:
			r = sin(x);
			break;
		case FN_COS:
			r = cos(x);
			break;
		case FN_TAN:
			r = tan(x);
			break;
		case FN_ASIN:
			r = asin(x);
			break;
		case FN_ACOS:
			r = acos(x);
			break;
		case FN_ATAN:
			r = atan(x);
			break;
		case FN_ATAN2:
			*v = atan2(x, y);
			return FS_OK;
		case FN_SINH:
			r = sinh(x);
			break;
		case FN_COSH:
			r = cosh(x);
			break;
		case FN_TANH:
			r = tanh(x);
			break;
		case FN_ASINH:
			r = asinh(x);
			break;
		case FN_ACOSH:
			r = acosh(x);
			break;
		case FN_ATANH:
			if (x == 1 || x == -1)
				return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
			r = atanh(x);
			break;
		case FN_HYPOT:
			*v = hypot(x, y);
			return FS_OK;
		case FN_DEGREES:
			*v = x * (180.0 / 3.141592653589793);
			return FS_OK;
		case FN_RADIANS:
			*v = x * (3.141592653589793 / 180.0);
			return FS_OK;
		case FN_COPYSIGN:
			*v = copysign(x, y);
			return FS_OK;
		case FN_EXPM1:
			r = expm1(x);
			break;
		case FN_LOG1P:
			if (!(x > -1) && !isnan(x))
				return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
			r = log1p(x);
			break;
		default:
			r = 0;
			break;
	}
	/* math's rule: NaN from a number is a domain error, infinity from a finite one a range error */
	if (isnan(r) && !isnan(x))
		return e_fail(p, FS_ERR_RANGE, in, "math domain error", err);
	if (sort && isinf(r) && isfinite(x))
		return e_fail(p, FS_ERR_RANGE, in, "math range error", err);
	*v = r;
	return FS_OK;
}

fs_status
fs_pf_eval(fs_pf_prog *p, const double *vals, double *result, fs_error *err)
{
	double *stk = p->stack;
	size_t sp = 0, ip = 0, steps = 0;
	bool usage = p->dialect == FS_PF_USAGE;
	fs_status st;

	while (ip < p->ncode)
	{
		const pf_ins *in = &p->code[ip];
		double x, y, v = 0;

		FS_POLL(steps);
		steps++;
		ip++;
		switch (in->op)
		{
			case OP_CONST:
				v = in->k;
				stk[sp++] = v;
				if (usage && !isfinite(v))
					return e_nonfinite(p, in, W_NUMBER, err);
				continue;
			case OP_SLOT:
				stk[sp++] = vals[in->a];
				continue;
			case OP_NEG:
				stk[sp - 1] = -stk[sp - 1];
				continue;
			case OP_NOT:
				stk[sp - 1] = stk[sp - 1] != 0 ? 0 : 1;
				continue;
			case OP_JT:
			case OP_JF:
				if ((stk[sp - 1] != 0) == (in->op == OP_JT))
					ip = ip - 1 + (size_t) in->a;
				else
					sp--;
				continue;
			case OP_JTPOP:
				sp--;
				if (stk[sp] != 0)
					ip = (size_t) ((ptrdiff_t) ip - 1 + in->a);
				continue;
			case OP_JMP:
				ip = ip - 1 + (size_t) in->a;
				continue;
			case OP_CALL:
			{
				double r = 0; /* v is not address-taken: it stays in a register */

				sp -= (size_t) in->a;
				st = e_call(p, in, stk + sp, in->a, &r, err);
				if (st != FS_OK)
					return st;
				stk[sp++] = r;
				if (usage && !isfinite(r))
					return e_nonfinite(p, in, W_FNRESULT, err);
				continue;
			}
			default:
				break;
		}
		/* the binary operations */
		y = stk[--sp];
		x = stk[sp - 1];
		switch (in->op)
		{
			case OP_ADD:
				v = x + y;
				break;
			case OP_SUB:
				v = x - y;
				break;
			case OP_MUL:
				v = x * y;
				break;
			case OP_DIV:
				if (y == 0)
					return e_fail(p, FS_ERR_DIVZERO, in, "float division by zero", err);
				v = x / y;
				break;
			case OP_FDIV:
			case OP_MOD:
			{
				double fd, m;

				if (y == 0)
					return e_fail(
					    p, FS_ERR_DIVZERO, in,
					    in->op == OP_FDIV ? "float floor division by zero" : "float modulo", err);
				py_divmod(x, y, &fd, &m);
				v = in->op == OP_FDIV ? fd : m;
				break;
			}
			case OP_POW:
			{
				double r = 0;

				st = e_pow(p, in, x, y, false, &r, err);
				if (st != FS_OK)
					return st;
				v = r;
				break;
			}
			case OP_MIN2:
				v = y < x ? y : x; /* Python's min keeps the first of equals and of NaN */
				break;
			case OP_MAX2:
				v = y > x ? y : x;
				break;
			case OP_CMP:
			case OP_CMPJ:
				switch (in->fn)
				{
					case CMP_LT:
						v = x < y;
						break;
					case CMP_LE:
						v = x <= y;
						break;
					case CMP_GT:
						v = x > y;
						break;
					case CMP_GE:
						v = x >= y;
						break;
					case CMP_EQ:
						v = x == y;
						break;
					default:
						v = x != y;
						break;
				}
				if (in->op == OP_CMPJ)
				{
					if (v == 0)
					{
						stk[sp - 1] = 0;
						ip = ip - 1 + (size_t) in->a;
					}
					else
						stk[sp - 1] = y;
					continue;
				}
				break;
		}
		stk[sp - 1] = v;
		if (usage && !isfinite(v) && in->op != OP_MIN2 && in->op != OP_MAX2)
			return e_nonfinite(p, in, in->fn, err);
	}
	*result = stk[0];
	return FS_OK;
}

void
fs_pf_bind_resvec(const fs_pf_prog *p, const uint8_t *rv, double *vals, fs_pf_slot_value value,
                  void *ctx)
{
	size_t n = fs_pf_nslots(p), k = 0, steps = 0;
	fs_rv_iter it = {NULL, 0};
	fs_rv_item item = {NULL, 0, 0, 0, 0};
	bool more;

	if (rv != NULL)
		fs_rv_iter_init(&it, rv);
	more = n > 0 && rv != NULL && fs_rv_next(&it, &item);
	while (k < n)
	{
		int c =
		    more ? fs_rv_name_cmp(item.name, item.namelen, p->text + p->slot_off[k], p->slot_len[k])
		         : 1;

		FS_POLL(steps);
		steps++;
		if (c < 0)
			more = fs_rv_next(&it, &item);
		else
		{
			vals[k] = value(ctx, k, c == 0 ? &item : NULL);
			k++;
		}
	}
}
