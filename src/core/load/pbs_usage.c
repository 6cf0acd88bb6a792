/*
 * pbs_usage.c: PBS's fairshare_usage_res formula evaluated over a job's resources in the units
 * the PBS scheduler uses (pbs_usage). One pass over the formula with a bounded recursion.
 */
#include "load/pbs_usage.h"

#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * The formula is a Python expression in PBS; this evaluator reads only the arithmetic subset:
 *   expr  = term { ("+" | "-") term }
 *   term  = unary { ("*" | "/") unary }
 *   unary = ("-" | "+") unary | power
 *   power = atom [ "**" unary ]              (right-associative, binds tighter than unary minus)
 *   atom  = number | name | name "(" expr { "," expr } ")" | "(" expr ")"
 * Names are resources of the vector (PBS units), the constants pi and e when no resource has
 * that name, and otherwise 0 (a missing resource).
 *
 * Every recursion of the grammar (a sign, the exponent of a power, a parenthesis, a call) goes
 * through usage_enter, so that one count bounds the stack whatever the mix: at most
 * USAGE_DEPTH_MAX levels, a syntax error naming the character beyond. The loops over sums,
 * products and arguments poll for interrupts, and names are looked up by binary search in an
 * index of the vector built on the first lookup, so that the evaluation is O(formula + entries
 * + names * log entries).
 */
#define USAGE_DEPTH_MAX 64
/* Vectors up to this many entries are scanned for a name; larger ones get the index. */
#define USAGE_SCAN_MAX 16

typedef struct usage_state
{
	const char *s;
	size_t len;
	size_t i;
	int depth;
	size_t steps; /* loop iterations so far, for FS_POLL */
	const uint8_t *rv;
	size_t nrv;
	fs_rv_item *index; /* the entries of rv in order, once a lookup needed them; else NULL */
	const fs_allocator *a;
	fs_error *err;
} usage_state;

static const char USAGE_SUBJECT[] = "PBS usage formula";
static const char USAGE_HINT[] =
    "A formula uses numbers, resource names, + - * / **, parentheses and the functions ceil, "
    "floor, trunc, fabs, abs, sqrt, exp, log, log10, log2, pow, fmod, min, max and round.";

static fs_status usage_expr(usage_state *u, double *v);
static fs_status usage_unary(usage_state *u, double *v);

static void
usage_skip(usage_state *u)
{
	while (u->i < u->len && fs_is_space(u->s[u->i]))
		u->i++;
}

static fs_status
usage_syntax(usage_state *u, size_t at, const char *problem)
{
	return fs_fail_syntax(u->err, USAGE_SUBJECT, u->s, u->len, at, problem, USAGE_HINT);
}

/*
 * One level deeper, for the construct at `at` (`what`: "Parentheses", "Signs", "Powers");
 * usage_leave undoes it. The limit and the error are the same for every kind of nesting.
 */
static fs_status
usage_enter(usage_state *u, size_t at, const char *what)
{
	char problem[96];

	if (++u->depth <= USAGE_DEPTH_MAX)
		return FS_OK;
	snprintf(problem, sizeof(problem), "%s nest too deeply (at most %d levels)", what,
	         USAGE_DEPTH_MAX);
	return usage_syntax(u, at, problem);
}

static void
usage_leave(usage_state *u)
{
	u->depth--;
}

static void
usage_poll(usage_state *u)
{
	FS_POLL(u->steps);
	u->steps++;
}

/* The entry of resource name[0..n) in the vector, by scan or by the index. */
static bool
usage_lookup(usage_state *u, const char *name, size_t n, fs_rv_item *it)
{
	size_t lo = 0, hi = u->nrv;

	if (u->nrv <= USAGE_SCAN_MAX)
		return fs_rv_get(u->rv, name, n, it);
	if (u->index == NULL)
	{
		fs_rv_iter iter;
		size_t k = 0;

		u->index = u->a->alloc(u->a->ctx, u->nrv * sizeof(fs_rv_item));
		fs_rv_iter_init(&iter, u->rv);
		/* the encoded form holds its entries sorted by name, as the search below needs */
		while (k < u->nrv && fs_rv_next(&iter, &u->index[k]))
		{
			FS_POLL(k);
			k++;
		}
		u->nrv = k;
	}
	while (lo < hi)
	{
		size_t mid = lo + (hi - lo) / 2;
		int c = fs_rv_name_cmp(u->index[mid].name, u->index[mid].namelen, name, n);

		if (c == 0)
		{
			*it = u->index[mid];
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static fs_status
usage_finite(usage_state *u, double v, size_t at, const char *what)
{
	if (isfinite(v))
		return FS_OK;
	fs_fail(u->err, FS_ERR_RANGE, "PBS usage formula result is out of range");
	fs_error_detail(u->err, "%s at character %zu is not a finite number.", what,
	                fs_char_pos(u->s, at));
	return FS_ERR_RANGE;
}

static fs_status
usage_divzero(usage_state *u, size_t at)
{
	fs_fail(u->err, FS_ERR_DIVZERO, "division by zero in PBS usage formula");
	fs_error_detail(u->err, "The divisor of the operation at character %zu is zero.",
	                fs_char_pos(u->s, at));
	return FS_ERR_DIVZERO;
}

static fs_status
usage_domain(usage_state *u, size_t at, const char *fn)
{
	fs_fail(u->err, FS_ERR_RANGE, "math domain error in PBS usage formula");
	fs_error_detail(u->err, "The argument of %s at character %zu is outside its domain.", fn,
	                fs_char_pos(u->s, at));
	return FS_ERR_RANGE;
}

/* x ** y as Python computes it for floats. */
static fs_status
usage_pow(usage_state *u, double x, double y, size_t at, double *v)
{
	if (x == 0 && y < 0)
		return usage_divzero(u, at);
	if (x < 0 && y != floor(y))
		return usage_domain(u, at, "**");
	*v = pow(x, y);
	return usage_finite(u, *v, at, "The power");
}

static double
resource_value(const fs_rv_item *it)
{
	if (it->kind == FS_KIND_SIZE)
		return ceil(it->amount / 1024.0); /* kb, rounded up as the scheduler's res_to_num does */
	return it->amount;
}

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
	FN_ROUND
} usage_fn;

static const struct
{
	const char *name;
	usage_fn fn;
	int min_args, max_args; /* max -1: any */
} usage_fns[] = {{"ceil", FN_CEIL, 1, 1}, {"floor", FN_FLOOR, 1, 1}, {"trunc", FN_TRUNC, 1, 1},
                 {"fabs", FN_FABS, 1, 1}, {"abs", FN_ABS, 1, 1},     {"sqrt", FN_SQRT, 1, 1},
                 {"exp", FN_EXP, 1, 1},   {"log", FN_LOG, 1, 2},     {"log10", FN_LOG10, 1, 1},
                 {"log2", FN_LOG2, 1, 1}, {"pow", FN_POW, 2, 2},     {"fmod", FN_FMOD, 2, 2},
                 {"min", FN_MIN, 2, -1},  {"max", FN_MAX, 2, -1},    {"round", FN_ROUND, 1, 1}};

/*
 * Function f of usage_fns applied to its arguments (min and max: acc, the running result),
 * checking the domain as Python's math module does.
 */
static fs_status
usage_apply(usage_state *u, size_t f, const double *args, int nargs, double acc, size_t at,
            double *v)
{
	switch (usage_fns[f].fn)
	{
		case FN_CEIL:
			*v = ceil(args[0]);
			break;
		case FN_FLOOR:
			*v = floor(args[0]);
			break;
		case FN_TRUNC:
			*v = trunc(args[0]);
			break;
		case FN_FABS:
		case FN_ABS:
			*v = fabs(args[0]);
			break;
		case FN_SQRT:
			if (args[0] < 0)
				return usage_domain(u, at, "sqrt");
			*v = sqrt(args[0]);
			break;
		case FN_EXP:
			*v = exp(args[0]);
			break;
		case FN_LOG:
		case FN_LOG10:
		case FN_LOG2:
			if (!(args[0] > 0))
				return usage_domain(u, at, usage_fns[f].name);
			if (usage_fns[f].fn == FN_LOG10)
				*v = log10(args[0]);
			else if (usage_fns[f].fn == FN_LOG2)
				*v = log2(args[0]);
			else if (nargs == 2)
			{
				if (!(args[1] > 0))
					return usage_domain(u, at, "log");
				if (args[1] == 1)
					return usage_divzero(u, at);
				*v = log(args[0]) / log(args[1]);
			}
			else
				*v = log(args[0]);
			break;
		case FN_POW:
			/* math.pow: a zero base with a negative exponent is a domain error there */
			if (args[0] == 0 && args[1] < 0)
				return usage_domain(u, at, "pow");
			return usage_pow(u, args[0], args[1], at, v);
		case FN_FMOD:
			if (args[1] == 0)
				return usage_domain(u, at, "fmod");
			*v = fmod(args[0], args[1]);
			break;
		case FN_MIN:
		case FN_MAX:
			*v = acc;
			break;
		case FN_ROUND:
			*v = nearbyint(args[0]); /* Python rounds halves to even, as the default mode does */
			break;
	}
	return FS_OK;
}

/*
 * The call name(...) of the name[0..nlen) at `at`, u->i on its "(": an unknown name, or an
 * argument count outside the function's range, is a syntax error at the name.
 */
static fs_status
usage_call(usage_state *u, size_t at, size_t nlen, double *v)
{
	const char *name = u->s + at;
	size_t f;
	double args[2];
	double acc = 0;
	int nargs = 0;
	fs_status st;
	char buf[80];

	for (f = 0; f < sizeof(usage_fns) / sizeof(usage_fns[0]); f++)
		if (fs_span_eq(name, nlen, usage_fns[f].name))
			break;
	if (f == sizeof(usage_fns) / sizeof(usage_fns[0]))
	{
		char problem[160];

		fs_quote_excerpt(buf, sizeof(buf), name, nlen, 60);
		snprintf(problem, sizeof(problem), "Unknown function \"%s\"", buf);
		return usage_syntax(u, at, problem);
	}
	u->i++; /* "(" */
	/* the arguments in order: min and max fold each into acc, the others keep the first two */
	for (;;)
	{
		double x;

		usage_poll(u);
		usage_skip(u);
		if (nargs == 0 && u->i < u->len && u->s[u->i] == ')')
			break;
		st = usage_expr(u, &x);
		if (st != FS_OK)
			return st;
		if (usage_fns[f].max_args >= 0 && nargs >= usage_fns[f].max_args)
		{
			char problem[160];

			snprintf(problem, sizeof(problem), "Function \"%s\" takes at most %d %s",
			         usage_fns[f].name, usage_fns[f].max_args,
			         fs_plural((uint64_t) usage_fns[f].max_args, "argument", "arguments"));
			return usage_syntax(u, at, problem);
		}
		if (nargs < 2)
			args[nargs] = x;
		if (usage_fns[f].fn == FN_MIN)
			acc = nargs == 0 ? x : fmin(acc, x);
		else if (usage_fns[f].fn == FN_MAX)
			acc = nargs == 0 ? x : fmax(acc, x);
		nargs++;
		usage_skip(u);
		if (u->i < u->len && u->s[u->i] == ',')
		{
			u->i++;
			continue;
		}
		break;
	}
	if (u->i >= u->len || u->s[u->i] != ')')
		return usage_syntax(u, u->i, "Expected \")\" or \",\" in the function call");
	u->i++;
	if (nargs < usage_fns[f].min_args)
	{
		char problem[160];

		snprintf(problem, sizeof(problem), "Function \"%s\" takes at least %d %s",
		         usage_fns[f].name, usage_fns[f].min_args,
		         fs_plural((uint64_t) usage_fns[f].min_args, "argument", "arguments"));
		return usage_syntax(u, at, problem);
	}
	st = usage_apply(u, f, args, nargs, acc, at, v);
	if (st != FS_OK)
		return st;
	return usage_finite(u, *v, at, "The function result");
}

/* atom: a number, a parenthesis, a call, or a name (a resource, pi, e, or else 0). */
static fs_status
usage_atom(usage_state *u, double *v)
{
	size_t at;
	fs_status st;

	usage_skip(u);
	at = u->i;
	if (at >= u->len)
		return usage_syntax(u, at, "Expected a number, a name or \"(\"");
	if (u->s[at] == '(')
	{
		st = usage_enter(u, at, "Parentheses");
		if (st != FS_OK)
			return st;
		u->i++;
		st = usage_expr(u, v);
		if (st != FS_OK)
			return st;
		usage_skip(u);
		if (u->i >= u->len || u->s[u->i] != ')')
			return usage_syntax(u, u->i, "Expected \")\"");
		u->i++;
		usage_leave(u);
		return FS_OK;
	}
	if (fs_is_digit(u->s[at]) || (u->s[at] == '.' && at + 1 < u->len && fs_is_digit(u->s[at + 1])))
	{
		size_t n = fs_scan_number(u->s + at, u->len - at, v);

		if (n == 0 || isnan(*v))
			return usage_syntax(u, at, "Invalid number");
		u->i += n;
		if (u->i < u->len && (fs_is_name_start(u->s[u->i]) || fs_is_digit(u->s[u->i])))
			return usage_syntax(u, u->i, "Unexpected character after a number");
		return usage_finite(u, *v, at, "The number");
	}
	if (fs_is_name_start(u->s[at]))
	{
		size_t n = 0;
		fs_rv_item it;

		while (at + n < u->len && (fs_is_name_start(u->s[at + n]) || fs_is_digit(u->s[at + n])))
			n++;
		u->i += n;
		usage_skip(u);
		if (u->i < u->len && u->s[u->i] == '(')
		{
			st = usage_enter(u, at, "Parentheses");
			if (st != FS_OK)
				return st;
			st = usage_call(u, at, n, v);
			usage_leave(u);
			return st;
		}
		if (usage_lookup(u, u->s + at, n, &it))
			*v = resource_value(&it);
		else if (fs_span_eq(u->s + at, n, "pi"))
			*v = 3.141592653589793;
		else if (fs_span_eq(u->s + at, n, "e"))
			*v = 2.718281828459045;
		else
			*v = 0; /* a resource the job did not use */
		return FS_OK;
	}
	return usage_syntax(u, at, "Expected a number, a name or \"(\"");
}

/* power = atom [ "**" unary ]: the exponent is a unary, so 2 ** -1 reads, 2 ** 3 ** 2 is 2 ** 9. */
static fs_status
usage_power(usage_state *u, double *v)
{
	fs_status st = usage_atom(u, v);
	size_t at;
	double y;

	if (st != FS_OK)
		return st;
	usage_skip(u);
	if (u->i + 1 < u->len && u->s[u->i] == '*' && u->s[u->i + 1] == '*')
	{
		at = u->i;
		st = usage_enter(u, at, "Powers");
		if (st != FS_OK)
			return st;
		u->i += 2;
		st = usage_unary(u, &y);
		if (st != FS_OK)
			return st;
		usage_leave(u);
		return usage_pow(u, *v, y, at, v);
	}
	return FS_OK;
}

static fs_status
usage_unary(usage_state *u, double *v)
{
	fs_status st;

	usage_skip(u);
	if (u->i < u->len && (u->s[u->i] == '-' || u->s[u->i] == '+'))
	{
		bool neg = u->s[u->i] == '-';

		st = usage_enter(u, u->i, "Signs");
		if (st != FS_OK)
			return st;
		u->i++;
		st = usage_unary(u, v);
		usage_leave(u);
		if (st == FS_OK && neg)
			*v = -*v;
		return st;
	}
	return usage_power(u, v);
}

/* term = unary { ("*" | "/") unary }, left to right; "//" is refused, not read as "/" twice. */
static fs_status
usage_term(usage_state *u, double *v)
{
	fs_status st = usage_unary(u, v);

	while (st == FS_OK)
	{
		size_t at;
		char op;
		double y;

		usage_poll(u);
		usage_skip(u);
		if (u->i >= u->len || (u->s[u->i] != '*' && u->s[u->i] != '/'))
			break;
		if (u->s[u->i] == '*' && u->i + 1 < u->len && u->s[u->i + 1] == '*')
			break; /* cannot happen: usage_power took it */
		if (u->s[u->i] == '/' && u->i + 1 < u->len && u->s[u->i + 1] == '/')
			return usage_syntax(u, u->i, "Floor division \"//\" is not supported");
		at = u->i;
		op = u->s[u->i++];
		st = usage_unary(u, &y);
		if (st != FS_OK)
			return st;
		if (op == '/')
		{
			if (y == 0)
				return usage_divzero(u, at);
			*v /= y;
		}
		else
			*v *= y;
		st = usage_finite(u, *v, at, op == '/' ? "The quotient" : "The product");
	}
	return st;
}

/* expr = term { ("+" | "-") term }, left to right, each partial result checked finite. */
static fs_status
usage_expr(usage_state *u, double *v)
{
	fs_status st = usage_term(u, v);

	while (st == FS_OK)
	{
		size_t at;
		char op;
		double y;

		usage_poll(u);
		usage_skip(u);
		if (u->i >= u->len || (u->s[u->i] != '+' && u->s[u->i] != '-'))
			break;
		at = u->i;
		op = u->s[u->i++];
		st = usage_term(u, &y);
		if (st != FS_OK)
			return st;
		*v = op == '+' ? *v + y : *v - y;
		st = usage_finite(u, *v, at, op == '+' ? "The sum" : "The difference");
	}
	return st;
}

fs_status
fs_pbs_usage(const char *formula, size_t len, const uint8_t *used, const fs_allocator *a,
             double *result, fs_error *err)
{
	usage_state u;
	fs_status st;
	double v = 0;

	u.s = formula;
	u.len = len;
	u.i = 0;
	u.depth = 0;
	u.steps = 0;
	u.rv = used;
	u.nrv = fs_rv_count(used);
	u.index = NULL;
	u.a = a;
	u.err = err;
	usage_skip(&u);
	if (u.i >= len)
		return usage_syntax(&u, u.i, "The formula is empty");
	st = usage_expr(&u, &v);
	if (st == FS_OK)
	{
		usage_skip(&u);
		if (u.i < len)
			st = usage_syntax(&u, u.i, "Unexpected character");
	}
	if (u.index != NULL)
		a->release(a->ctx, u.index);
	if (st != FS_OK)
		return st;
	*result = v == 0 ? 0 : v;
	return FS_OK;
}
