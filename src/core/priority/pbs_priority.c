/*
 * pbs_priority.c: PBS's job_sort_formula: the server's validation (15123, 15124, 15125), the
 * resourcedef reader, and a job's formula value as the scheduler computes and stores it.
 */
#include "priority/pbs_priority.h"

#include "types/resvec.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char SORT_SUBJECT[] = "PBS job_sort_formula";
static const char SORT_HINT[] =
    "A job_sort_formula is a Python expression over numeric resources (sizes in kb, times in "
    "seconds) and the keywords eligible_time, queue_priority, job_priority, fairshare_perc, "
    "fairshare_tree_usage, fairshare_factor and accrue_type, with math's functions.";

/*
 * OpenPBS's built-in resources (its server's resource definitions at the snapshot the job
 * priority reference read) and their types.
 */
static const struct
{
	const char *name;
	fs_pbs_restype type;
} builtin_res[] = {{"accelerator", FS_PBS_RES_BOOLEAN},
                   {"accelerator_memory", FS_PBS_RES_SIZE},
                   {"accelerator_model", FS_PBS_RES_STRING},
                   {"aoe", FS_PBS_RES_STRING_ARRAY},
                   {"arch", FS_PBS_RES_STRING},
                   {"cput", FS_PBS_RES_DURATION},
                   {"eoe", FS_PBS_RES_STRING},
                   {"exec_vnode", FS_PBS_RES_STRING},
                   {"file", FS_PBS_RES_SIZE},
                   {"hbmem", FS_PBS_RES_SIZE},
                   {"host", FS_PBS_RES_STRING},
                   {"max_walltime", FS_PBS_RES_DURATION},
                   {"mem", FS_PBS_RES_SIZE},
                   {"min_walltime", FS_PBS_RES_DURATION},
                   {"mpiprocs", FS_PBS_RES_LONG},
                   {"naccelerators", FS_PBS_RES_LONG},
                   {"ncpus", FS_PBS_RES_LONG},
                   {"nice", FS_PBS_RES_LONG},
                   {"nodect", FS_PBS_RES_LONG},
                   {"nodes", FS_PBS_RES_STRING},
                   {"ompthreads", FS_PBS_RES_LONG},
                   {"pcput", FS_PBS_RES_DURATION},
                   {"place", FS_PBS_RES_STRING},
                   {"pmem", FS_PBS_RES_SIZE},
                   {"preempt_targets", FS_PBS_RES_STRING_ARRAY},
                   {"pvmem", FS_PBS_RES_SIZE},
                   {"select", FS_PBS_RES_STRING},
                   {"site", FS_PBS_RES_STRING},
                   {"soft_walltime", FS_PBS_RES_DURATION},
                   {"software", FS_PBS_RES_STRING},
                   {"start_time", FS_PBS_RES_LONG},
                   {"vmem", FS_PBS_RES_SIZE},
                   {"vnode", FS_PBS_RES_STRING},
                   {"vntype", FS_PBS_RES_STRING_ARRAY},
                   {"walltime", FS_PBS_RES_DURATION}};
#define NBUILTIN (sizeof(builtin_res) / sizeof(builtin_res[0]))

static const char *const restype_names[] = {"long",    "float",  "size",        "duration",
                                            "boolean", "string", "string_array"};

static const char *const keyword_names[] = {
    "eligible_time",   "queue_priority",       "job_priority",     "fairshare_perc",
    "fair_share_perc", "fairshare_tree_usage", "fairshare_factor", "accrue_type"};

fs_pbs_keyword
fs_pbs_keyword_of(const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < sizeof(keyword_names) / sizeof(keyword_names[0]); k++)
		if (fs_span_eq(name, len, keyword_names[k]))
			return (fs_pbs_keyword) k;
	return FS_PBS_KW_NONE;
}

static int
builtin_of(const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < NBUILTIN; k++)
		if (fs_span_eq(name, len, builtin_res[k].name))
			return (int) k;
	return -1;
}

static bool
restype_numeric(fs_pbs_restype t)
{
	return t == FS_PBS_RES_LONG || t == FS_PBS_RES_FLOAT || t == FS_PBS_RES_SIZE ||
	       t == FS_PBS_RES_DURATION;
}

/* ---- resourcedef ----------------------------------------------------------------------- */

static const char RD_SUBJECT[] = "PBS resourcedef";
static const char RD_HINT[] =
    "Each line is \"name type=<type> [flag=<flags>]\", the type one of long, float, size, "
    "duration, boolean, string, string_array.";

typedef struct rd_sorted
{
	fs_str name;
	size_t at;
} rd_sorted;

static int
rd_cmp(const void *x, const void *y, void *ctx)
{
	const rd_sorted *p = x, *q = y;

	(void) ctx;
	return fs_str_cmp(p->name, q->name);
}

/* One "key=value" word of a resourcedef line at s[*i..end): its key and value. */
static bool
rd_word(const char *s, size_t *i, size_t end, fs_str *key, fs_str *val)
{
	size_t b = *i, eq = 0;

	while (*i < end && !fs_is_space(s[*i]))
	{
		if (s[*i] == '=' && eq == 0)
			eq = *i;
		(*i)++;
	}
	if (eq == 0)
		return false;
	/* pointers into the line even when empty: the messages quote them */
	key->s = s + b;
	key->len = eq - b;
	val->s = s + eq + 1;
	val->len = *i - eq - 1;
	return true;
}

fs_status
fs_pbs_resourcedef_parse(const char *text, size_t len, const fs_allocator *a, fs_pbs_resdef *out,
                         fs_error *err)
{
	size_t i = 0, cap = 0, line = 0;
	fs_status st = FS_OK;
	size_t *ats = NULL, atcap = 0;

	memset(out, 0, sizeof(*out));
	while (i < len && st == FS_OK)
	{
		size_t end = i, b, k, n;
		bool have_type = false;
		fs_pbs_restype type = FS_PBS_RES_LONG;
		char problem[200], buf[80];

		FS_POLL(line);
		line++;
		while (end < len && text[end] != '\n')
			end++;
		while (i < end && fs_is_space(text[i]))
			i++;
		if (i == end || text[i] == '#')
		{
			i = end + 1;
			continue;
		}
		/* the name: a letter, then letters, digits, "_" and "-" */
		b = i;
		if (!((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z')))
		{
			st = fs_fail_syntax(err, RD_SUBJECT, text, len, i,
			                    "A resource name starts with a letter", RD_HINT);
			break;
		}
		while (i < end && (fs_is_name_start(text[i]) || fs_is_digit(text[i]) || text[i] == '-'))
			i++;
		n = i - b;
		if (i < end && !fs_is_space(text[i]))
		{
			st = fs_fail_syntax(err, RD_SUBJECT, text, len, i,
			                    "Unexpected character in a resource name", RD_HINT);
			break;
		}
		while (i < end && st == FS_OK)
		{
			fs_str key, val;
			size_t at;

			while (i < end && fs_is_space(text[i]))
				i++;
			if (i == end)
				break;
			at = i;
			if (!rd_word(text, &i, end, &key, &val))
			{
				st = fs_fail_syntax(err, RD_SUBJECT, text, len, at,
				                    "Expected \"type=\" or \"flag=\"", RD_HINT);
				break;
			}
			if (fs_span_eq(key.s, key.len, "type"))
			{
				for (k = 0; k < sizeof(restype_names) / sizeof(restype_names[0]); k++)
					if (fs_span_eq(val.s, val.len, restype_names[k]))
						break;
				if (k == sizeof(restype_names) / sizeof(restype_names[0]))
				{
					fs_quote_excerpt(buf, sizeof(buf), val.s, val.len, 60);
					snprintf(problem, sizeof(problem), "Unknown resource type \"%s\"", buf);
					st = fs_fail_syntax(err, RD_SUBJECT, text, len, at + 5, problem, RD_HINT);
					break;
				}
				type = (fs_pbs_restype) k;
				have_type = true;
			}
			else if (fs_span_eq(key.s, key.len, "flag"))
			{
				for (k = 0; k < val.len; k++)
					if (strchr("fhimnqr", val.s[k]) == NULL || val.s[k] == '\0')
					{
						snprintf(problem, sizeof(problem), "Unknown resource flag \"%c\"",
						         val.s[k]);
						st = fs_fail_syntax(err, RD_SUBJECT, text, len, at + 5 + k, problem,
						                    RD_HINT);
						break;
					}
			}
			else
			{
				st = fs_fail_syntax(err, RD_SUBJECT, text, len, at,
				                    "Expected \"type=\" or \"flag=\"", RD_HINT);
				break;
			}
		}
		if (st != FS_OK)
			break;
		if (!have_type)
		{
			st = fs_fail_syntax(err, RD_SUBJECT, text, len, end, "The resource has no \"type=\"",
			                    RD_HINT);
			break;
		}
		if (out->n == cap)
		{
			size_t c2 = cap;

			out->names = fs_grow(a, out->names, out->n, &cap, sizeof(fs_str));
			out->types = fs_grow(a, out->types, out->n, &c2, sizeof(fs_pbs_restype));
			ats = fs_grow(a, ats, out->n, &atcap, sizeof(size_t));
		}
		out->names[out->n] = fs_str_of(text + b, n);
		out->types[out->n] = type;
		ats[out->n] = b;
		out->n++;
		if (builtin_of(text + b, n) >= 0)
		{
			fs_quote_excerpt(buf, sizeof(buf), text + b, n, 60);
			fs_fail(err, FS_ERR_VALUE, "resource \"%s\" of a PBS resourcedef is built in", buf);
			fs_error_detail(err, "Line %zu defines a resource PBS already has.", line);
			fs_error_hint(err, "Remove the line: a resourcedef names only custom resources.");
			st = FS_ERR_VALUE;
		}
		i = end + 1;
	}
	/* a name twice */
	if (st == FS_OK && out->n > 1)
	{
		rd_sorted *s = a->alloc(a->ctx, out->n * sizeof(rd_sorted));
		size_t k;

		for (k = 0; k < out->n; k++)
		{
			s[k].name = out->names[k];
			s[k].at = ats[k];
		}
		fs_sort(s, out->n, sizeof(rd_sorted), rd_cmp, NULL, a);
		for (k = 1; k < out->n && st == FS_OK; k++)
			if (fs_str_eq(s[k].name, s[k - 1].name))
			{
				char buf[80];

				fs_quote_excerpt(buf, sizeof(buf), s[k].name.s, s[k].name.len, 60);
				fs_fail(err, FS_ERR_VALUE, "resource \"%s\" is defined twice in a PBS resourcedef",
				        buf);
				fs_error_detail(err, "The second definition is at character %zu.",
				                fs_char_pos(text, s[k].at > s[k - 1].at ? s[k].at : s[k - 1].at));
				fs_error_hint(err, "Keep one line per resource.");
				st = FS_ERR_VALUE;
			}
		a->release(a->ctx, s);
	}
	if (ats)
		a->release(a->ctx, ats);
	if (st != FS_OK)
		fs_pbs_resourcedef_free(out, a);
	return st;
}

void
fs_pbs_resourcedef_free(fs_pbs_resdef *rd, const fs_allocator *a)
{
	if (rd->names)
		a->release(a->ctx, rd->names);
	if (rd->types)
		a->release(a->ctx, rd->types);
	memset(rd, 0, sizeof(*rd));
}

/* ---- validation ------------------------------------------------------------------------ */

/* The type of resource name[0..len): built in, then custom; -1 when it is not a resource. */
static int
resource_type(const char *name, size_t len, const fs_pbs_resdef *rd)
{
	int b = builtin_of(name, len);
	size_t k;

	if (b >= 0)
		return (int) builtin_res[b].type;
	for (k = 0; rd && k < rd->n; k++)
	{
		FS_POLL(k);
		if (rd->names[k].len == len && memcmp(rd->names[k].s, name, len) == 0)
			return (int) rd->types[k];
	}
	return -1;
}

static fs_status
formula_fail(const fs_pf_prog *p, size_t slot, int code, const char *pbs_msg, const char *why,
             const char *hint, fs_error *err)
{
	size_t len, n;
	const char *text = fs_pf_text(p, &len);
	const char *name = fs_pf_slot_name(p, slot, &n);
	char problem[300], buf[80];

	fs_quote_excerpt(buf, sizeof(buf), name, n, 60);
	snprintf(problem, sizeof(problem), "PBS error %d, %s: \"%s\" %s", code, pbs_msg, buf, why);
	return fs_fail_syntax(err, SORT_SUBJECT, text, len, fs_pf_slot_at(p, slot), problem, hint);
}

fs_status
fs_pbs_formula_compile(const char *formula, size_t len, const fs_pbs_resdef *rd, bool unknown_ok,
                       const fs_allocator *a, fs_pf_prog **prog, int *code, fs_error *err)
{
	fs_status st = fs_pf_compile(formula, len, FS_PF_SORT, SORT_SUBJECT, SORT_HINT, a, prog, err);
	size_t k, n, bad = (size_t) -1;

	*code = 0;
	if (st == FS_ERR_SYNTAX)
	{
		char detail[FS_MSG_LEN];

		snprintf(detail, sizeof(detail), "%s", err->detail);
		fs_error_detail(err, "PBS error %d, Invalid Formula Format: %s", FS_PBS_E_FORMULA_FORMAT,
		                detail);
		*code = FS_PBS_E_FORMULA_FORMAT;
	}
	if (st != FS_OK)
		return st;
	n = fs_pf_nslots(*prog);
	/* PBS's first pass binds every name: one that is nothing is 15124, the first in the text */
	for (k = 0; k < n && !unknown_ok; k++)
	{
		size_t nl;
		const char *nm = fs_pf_slot_name(*prog, k, &nl);

		if (fs_pbs_keyword_of(nm, nl) == FS_PBS_KW_NONE && resource_type(nm, nl, rd) < 0 &&
		    (bad == (size_t) -1 || fs_pf_slot_at(*prog, k) < fs_pf_slot_at(*prog, bad)))
			bad = k;
	}
	if (bad != (size_t) -1)
	{
		*code = FS_PBS_E_FORMULA_KEYWORD;
		st = formula_fail(*prog, bad, FS_PBS_E_FORMULA_KEYWORD, "Formula contains invalid keyword",
		                  "is not a resource or a keyword",
		                  rd ? "Name a site's custom resources in the resourcedef argument, as in "
		                       "PBS's resourcedef file."
		                     : "Name a site's custom resources in pbs_formula's resourcedef "
		                       "argument, as in PBS's resourcedef file.",
		                  err);
	}
	/* the second binds only numeric resources: a string or boolean one is 15125 */
	for (k = 0; k < n && st == FS_OK; k++)
	{
		size_t nl;
		const char *nm = fs_pf_slot_name(*prog, k, &nl);
		int t = fs_pbs_keyword_of(nm, nl) == FS_PBS_KW_NONE ? resource_type(nm, nl, rd) : -1;

		if (t >= 0 && !restype_numeric((fs_pbs_restype) t) &&
		    (bad == (size_t) -1 || fs_pf_slot_at(*prog, k) < fs_pf_slot_at(*prog, bad)))
			bad = k;
	}
	if (st == FS_OK && bad != (size_t) -1)
	{
		size_t nl;
		const char *nm = fs_pf_slot_name(*prog, bad, &nl);
		char why[80];

		snprintf(why, sizeof(why), "is a %s resource", restype_names[resource_type(nm, nl, rd)]);
		*code = FS_PBS_E_FORMULA_RESTYPE;
		st = formula_fail(
		    *prog, bad, FS_PBS_E_FORMULA_RESTYPE, "Formula contains a resource of an invalid type",
		    why, "A formula uses only numeric resources: long, float, size and duration.", err);
	}
	if (st != FS_OK)
	{
		fs_pf_free(*prog, a);
		*prog = NULL;
	}
	return st;
}

void
fs_pbs_formula_keywords(const fs_pf_prog *prog, int *kw)
{
	size_t k, n = fs_pf_nslots(prog);

	for (k = 0; k < n; k++)
	{
		size_t nl;
		const char *nm = fs_pf_slot_name(prog, k, &nl);

		kw[k] = (int) fs_pbs_keyword_of(nm, nl);
	}
}

/* ---- the value ------------------------------------------------------------------------- */

/* v as printed with `decimals` decimals and read back (PBS writes the formula's values so). */
static double
as_printed(double v, int decimals)
{
	char buf[FS_DOUBLE_BUFLEN + 340];
	double r;
	int len;

	/*
	 * The hot path, once per keyword and resource of every job, without libm calls (floor and
	 * nearbyint are calls on x86-64's baseline): an integer prints as itself; away from a tie the
	 * decimal digits are those of the nearest integer k to v * 10^d, and k / 10^d is the double
	 * nearest to them, as reading the text back gives. |y| < 1e12 makes the casts exact.
	 */
	if (fabs(v) < 1e12)
	{
		double scale = decimals == 6 ? 1e6 : 1e4, y = v * scale, k;

		if ((double) (int64_t) v == v)
			return v;
		k = (double) (int64_t) (y + (y >= 0 ? 0.5 : -0.5)); /* a tie goes to the slow path */
		if (fabs(y) < 1e12 && fabs(fabs(y - k) - 0.5) > 1e-3)
			return k / scale;
	}
	if (!isfinite(v) || (v == floor(v) && fabs(v) < 9007199254740992.0))
		return v;
	len = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (len <= 0 || (size_t) len >= sizeof(buf) ||
	    fs_scan_number(buf, (size_t) len, &r) != (size_t) len)
		return v;
	return r;
}

static double
requested_value(const fs_rv_item *it)
{
	double v = it->amount;

	if (it->kind == FS_KIND_SIZE)
		v = ceil(v / 1024.0); /* kb */
	return as_printed(v, 4);
}

static double
keyword_value(int kw, const fs_pbs_job_keys *keys)
{
	switch (kw)
	{
		case FS_PBS_KW_ELIGIBLE_TIME:
			return trunc(keys->eligible_time);
		case FS_PBS_KW_QUEUE_PRIORITY:
			return keys->queue_priority;
		case FS_PBS_KW_JOB_PRIORITY:
			return keys->job_priority;
		case FS_PBS_KW_FAIRSHARE_PERC:
		case FS_PBS_KW_FAIR_SHARE_PERC:
			return as_printed(keys->fairshare_perc, 6);
		case FS_PBS_KW_FAIRSHARE_TREE_USAGE:
			return as_printed(keys->fairshare_tree_usage, 6);
		case FS_PBS_KW_FAIRSHARE_FACTOR:
			return keys->fairshare_perc == 0
			           ? 0
			           : as_printed(pow(2, -(keys->fairshare_tree_usage / keys->fairshare_perc)),
			                        6);
		default:
			return keys->accrue_type;
	}
}

typedef struct job_slots
{
	const int *kw;
	const fs_pbs_job_keys *keys;
} job_slots;

/* A slot's value: its keyword's, else its requested resource's (0 when not requested). */
static double
job_slot_value(void *ctx, size_t slot, const void *rv_item)
{
	const job_slots *js = ctx;

	if (js->kw[slot] != FS_PBS_KW_NONE)
		return keyword_value(js->kw[slot], js->keys);
	return rv_item ? requested_value(rv_item) : 0;
}

fs_status
fs_pbs_formula_value(fs_pf_prog *prog, const int *kw, double *vals, const uint8_t *requested,
                     const fs_pbs_job_keys *keys, float *result, fs_error *err)
{
	job_slots js = {kw, keys};
	fs_status st;
	double v = 0;

	fs_pf_bind_resvec(prog, requested, vals, job_slot_value, &js);
	st = fs_pf_eval(prog, vals, &v, err);
	if (st != FS_OK)
		return st;
	/* PBS stores a float: beyond its range an infinity (a plain cast would be undefined) */
	*result = fabs(v) > FLT_MAX ? (float) copysign(INFINITY, v) : (float) v;
	return FS_OK;
}

/* ---- job_sort_key entries ---------------------------------------------------------------- */

static bool
name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && ((c >= '0' && c <= '9') || c == '-'));
}

fs_status
fs_pbs_sort_key_parse(const char *text, size_t len, fs_pbs_sort_key *out, fs_error *err)
{
	static const char what[] = "PBS job_sort_key";
	static const char hint[] = "A job_sort_key entry is a resource name, job_priority, "
	                           "fair_share_perc or preempt_priority, then HIGH or LOW: \"ncpus "
	                           "HIGH\".";
	size_t i = 0, start, end;

	while (i < len && fs_is_space(text[i]))
		i++;
	start = i;
	while (i < len && name_char(text[i], i == start))
		i++;
	if (i == start)
		return fs_fail_syntax(err, what, text, len, i,
		                      i < len ? "expected a resource name" : "empty entry", hint);
	out->name.s = text + start;
	out->name.len = i - start;
	if (i < len && !fs_is_space(text[i]))
		return fs_fail_syntax(err, what, text, len, i, "unexpected character in the name", hint);
	while (i < len && fs_is_space(text[i]))
		i++;
	end = i;
	while (end < len && !fs_is_space(text[end]))
		end++;
	if (fs_casecmp(text + i, end - i, "HIGH", 4) == 0)
		out->high = true;
	else if (fs_casecmp(text + i, end - i, "LOW", 3) == 0)
		out->high = false;
	else
		return fs_fail_syntax(err, what, text, len, i, "expected HIGH or LOW", hint);
	i = end;
	while (i < len && fs_is_space(text[i]))
		i++;
	if (i < len)
		return fs_fail_syntax(err, what, text, len, i, "unexpected text after HIGH or LOW", hint);
#define IS(lit) (out->name.len == sizeof(lit) - 1 && memcmp(out->name.s, lit, sizeof(lit) - 1) == 0)
	if (IS("job_priority") || IS("sort_priority"))
		out->what = FS_PBS_SK_JOB_PRIORITY;
	else if (IS("fair_share_perc"))
		out->what = FS_PBS_SK_FAIR_SHARE_PERC;
	else if (IS("preempt_priority"))
		out->what = FS_PBS_SK_PREEMPT_PRIORITY;
	else
		out->what = FS_PBS_SK_RESOURCE;
#undef IS
	return FS_OK;
}

double
fs_pbs_sort_key_value(const fs_pbs_sort_key *k, const uint8_t *requested,
                      const fs_pbs_job_keys *keys, bool express)
{
	fs_rv_item it;

	switch (k->what)
	{
		case FS_PBS_SK_JOB_PRIORITY:
			return keys->job_priority;
		case FS_PBS_SK_FAIR_SHARE_PERC:
			return as_printed(keys->fairshare_perc, 6);
		case FS_PBS_SK_PREEMPT_PRIORITY:
			return express ? 1 : 0;
		default:
			return requested && fs_rv_get(requested, k->name.s, k->name.len, &it)
			           ? requested_value(&it)
			           : 0;
	}
}

/* ---- the job order ----------------------------------------------------------------------- */

const char *
fs_pbs_decided_name(fs_pbs_decided d)
{
	static const char *const names[] = {NULL,           "queue", "express", "formula", "fairshare",
	                                    "job_sort_key", "qtime", "job_id",  "input"};

	return names[d];
}

/* The submission rank PBS gives a job id: "123.server" 123, "123[4].server" 123 then 4. */
static void
job_seq(fs_str id, uint64_t *seq, uint64_t *index)
{
	size_t i = 0;
	uint64_t v = 0;

	*seq = *index = UINT64_MAX;
	while (i < id.len && i < 18 && id.s[i] >= '0' && id.s[i] <= '9')
		v = v * 10 + (uint64_t) (id.s[i++] - '0');
	if (i == 0 || (i < id.len && id.s[i] >= '0' && id.s[i] <= '9'))
		return;
	*seq = v;
	if (i < id.len && id.s[i] == '[')
	{
		size_t j = ++i;

		v = 0;
		while (i < id.len && i - j < 18 && id.s[i] >= '0' && id.s[i] <= '9')
			v = v * 10 + (uint64_t) (id.s[i++] - '0');
		if (i > j && i < id.len && id.s[i] == ']')
			*index = v;
	}
	else
		*index = 0;
}

typedef struct order_item
{
	const fs_pbs_order_job *job;
	uint64_t seq, index;
	uint32_t pos;
} order_item;

static int
cmp3(double a, double b)
{
	return a < b ? -1 : a > b;
}

/* Compare two jobs down the chain: < 0 when a goes first; *at is the key that decided. */
static int
chain_cmp(const order_item *x, const order_item *y, const fs_pbs_order_opts *o, int *at)
{
	const fs_pbs_order_job *a = x->job, *b = y->job;
	int c;
	size_t k;

	*at = FS_PBS_BY_QUEUE;
	if (o->by_queue)
	{
		if (a->queue_priority != b->queue_priority)
			return a->queue_priority > b->queue_priority ? -1 : 1;
		if ((c = fs_bytes_cmp(a->queue.s, a->queue.len, b->queue.s, b->queue.len)) != 0)
			return c;
	}
	*at = FS_PBS_BY_EXPRESS;
	if (a->express != b->express)
		return a->express ? -1 : 1;
	*at = FS_PBS_BY_FORMULA;
	if (isnan(a->value) != isnan(b->value))
		return isnan(a->value) ? 1 : -1;
	if (!isnan(a->value) && a->value != b->value)
		return a->value > b->value ? -1 : 1;
	*at = FS_PBS_BY_FAIRSHARE;
	if (o->fairshare && a->fs_rank != b->fs_rank)
		return a->fs_rank < b->fs_rank ? -1 : 1;
	*at = FS_PBS_BY_SORT_KEY;
	for (k = 0; k < o->nkeys; k++)
		if ((c = cmp3(a->keys[k], b->keys[k])) != 0)
			return o->keys[k].high ? -c : c;
	*at = FS_PBS_BY_QTIME;
	if (a->has_qtime != b->has_qtime)
		return a->has_qtime ? -1 : 1;
	if (a->has_qtime && a->qtime != b->qtime)
		return a->qtime < b->qtime ? -1 : 1;
	*at = FS_PBS_BY_JOB_ID;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if ((c = fs_bytes_cmp(a->job_id.s, a->job_id.len, b->job_id.s, b->job_id.len)) != 0)
		return c;
	*at = FS_PBS_BY_INPUT;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
order_cmp(const void *a, const void *b, void *ctx)
{
	int at;

	return chain_cmp(a, b, ctx, &at);
}

void
fs_pbs_job_order(const fs_pbs_order_job *jobs, size_t n, const fs_pbs_order_opts *opts,
                 const fs_allocator *a, uint32_t *order, uint8_t *decided)
{
	order_item *items;
	size_t i;

	if (n == 0)
		return;
	items = a->alloc(a->ctx, n * sizeof(order_item));
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		items[i].job = &jobs[i];
		items[i].pos = (uint32_t) i;
		job_seq(jobs[i].job_id, &items[i].seq, &items[i].index);
	}
	fs_sort(items, n, sizeof(order_item), order_cmp, (void *) opts, a);
	for (i = 0; i < n; i++)
	{
		int at = FS_PBS_BY_FIRST;

		FS_POLL(i);
		if (i > 0)
			chain_cmp(&items[i - 1], &items[i], opts, &at);
		/* with by_queue, the first job of each queue starts its own order */
		order[i] = items[i].pos;
		decided[i] = (uint8_t) at;
	}
	a->release(a->ctx, items);
}

/* ---- eligible time ----------------------------------------------------------------------- */

static int
accrue_cmp(const void *a, const void *b, void *ctx)
{
	const fs_pbs_accrue *x = a, *y = b;

	(void) ctx;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* t microseconds on PBS's clock: whole seconds, floored (time_t). */
static int64_t
whole_seconds(int64_t t)
{
	return t >= 0 ? t / 1000000 : -((-t + 999999) / 1000000);
}

int64_t
fs_pbs_eligible_seconds(fs_pbs_accrue *ev, size_t n, const fs_allocator *a)
{
	int64_t total = 0;
	size_t i;

	if (n == 0)
		return 0;
	fs_sort(ev, n, sizeof(fs_pbs_accrue), accrue_cmp, NULL, a);
	for (i = 1; i < n; i++)
	{
		FS_POLL(i);
		if (ev[i - 1].type == FS_PBS_ACCRUE_ELIGIBLE)
			total += whole_seconds(ev[i].at) - whole_seconds(ev[i - 1].at);
	}
	return total;
}
