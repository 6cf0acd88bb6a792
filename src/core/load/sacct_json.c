/*
 * sacct_json.c: a `sacct --json` document as the rows sacct --parsable2 prints, each read by the
 * row reader. The mapping follows the data parsers of Slurm's source (openapi/dbv0.0.37 and
 * dbv0.0.38, data_parser/v0.0.39 to v0.0.42): a number is written plain or, from v0.0.39, as
 * {"set", "infinite", "number"}; a state is a string or, from v0.0.40, a list whose first entry
 * is the base state; the older 32-bit "no value" and "infinite" numbers (4294967294, 4294967295)
 * mean what the objects say.
 */
#include "load/sacct_json.h"

#include <string.h>

/* The row each job and step is written as; \x1f cannot occur in the names Slurm writes. */
#define DELIM "\x1f"
static const char header_text[] =
    "JobID" DELIM "JobIDRaw" DELIM "Cluster" DELIM "Partition" DELIM "Account" DELIM "User" DELIM
    "Group" DELIM "QOS" DELIM "State" DELIM "ExitCode" DELIM "Submit" DELIM "Eligible" DELIM
    "Start" DELIM "End" DELIM "Elapsed" DELIM "Timelimit" DELIM "NCPUS" DELIM "NNodes" DELIM
    "ReqMem" DELIM "AllocTRES" DELIM "ReqTRES" DELIM "NodeList" DELIM "WorkDir" DELIM
    "DerivedExitCode" DELIM "Reason" DELIM "StateFlags" DELIM "JobName";

typedef enum numkind
{
	NUM_ABSENT = 0,
	NUM_NOTSET,
	NUM_INFINITE,
	NUM_SET
} numkind;

typedef struct jctx
{
	const fs_json *job;
	fs_str jobid; /* the job's JobID as sacct prints it, for messages and step ids */
	fs_sb line;
	const char *note; /* an anomaly of the JSON itself for the row being written, or NULL */
	const fs_allocator *a;
	fs_error *err;
} jctx;

static fs_status
wrong(jctx *c, const char *field, const char *what)
{
	fs_fail(c->err, FS_ERR_VALUE, "sacct --json field \"%s\" must be %s", field, what);
	fs_error_hint(c->err, "Give the document sacct --json (or slurmrestd's /slurmdb/ jobs "
	                      "endpoint) wrote, unchanged.");
	if (c->jobid.s)
		fs_error_context(c->err, "in job %.*s", (int) c->jobid.len, c->jobid.s);
	return FS_ERR_VALUE;
}

/* v at path a/b/c (NULL when a part is missing). */
static const fs_json *
at(const fs_json *v, const char *a, const char *b, const char *c)
{
	v = fs_json_get(v, a);
	if (b && v)
		v = fs_json_get(v, b);
	if (c && v)
		v = fs_json_get(v, c);
	return v;
}

static bool
all_digits(fs_str s)
{
	size_t k;

	if (s.len == 0)
		return false;
	for (k = 0; k < s.len; k++)
		if (!fs_is_digit(s.s[k]))
			return false;
	return true;
}

/*
 * A whole number in any of its forms: plain, {set, infinite, number}, or null. *digits is its
 * text (checked: digits only) when NUM_SET.
 */
static fs_status
num(jctx *c, const fs_json *v, const char *field, numkind *kind, fs_str *digits)
{
	*kind = NUM_ABSENT;
	digits->s = NULL;
	digits->len = 0;
	if (v == NULL)
		return FS_OK;
	if (v->kind == FS_JSON_NULL)
	{
		*kind = NUM_NOTSET;
		return FS_OK;
	}
	if (v->kind == FS_JSON_OBJECT)
	{
		const fs_json *set = fs_json_get(v, "set"), *inf = fs_json_get(v, "infinite");

		if (inf && inf->kind == FS_JSON_TRUE)
		{
			*kind = NUM_INFINITE;
			return FS_OK;
		}
		if (set && set->kind == FS_JSON_FALSE)
		{
			*kind = NUM_NOTSET;
			return FS_OK;
		}
		v = fs_json_get(v, "number");
		if (v == NULL)
			return wrong(c, field, "a number or {\"set\", \"infinite\", \"number\"}");
	}
	if (v->kind != FS_JSON_NUMBER || !all_digits(v->str))
		return wrong(c, field, "a whole number of at least 0");
	if (fs_span_eq(v->str.s, v->str.len, "4294967294") ||
	    fs_span_eq(v->str.s, v->str.len, "18446744073709551614"))
		*kind = NUM_NOTSET;
	else if (fs_span_eq(v->str.s, v->str.len, "4294967295") ||
	         fs_span_eq(v->str.s, v->str.len, "18446744073709551615"))
		*kind = NUM_INFINITE;
	else
	{
		*kind = NUM_SET;
		*digits = v->str;
	}
	return FS_OK;
}

/* A string field (NULL or absent: empty); the delimiter cannot be in it but in JobName. */
static fs_status
str(jctx *c, const fs_json *v, const char *field, fs_str *out)
{
	out->s = NULL;
	out->len = 0;
	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind != FS_JSON_STRING)
		return wrong(c, field, "a string");
	*out = v->str;
	return FS_OK;
}

static void
put(jctx *c, const char *s, size_t len)
{
	if (c->line.len > 0)
		fs_sb_append(&c->line, DELIM, 1);
	if (len > 0)
		fs_sb_append(&c->line, s, len);
}

static fs_status
put_str(jctx *c, const fs_json *v, const char *field)
{
	fs_str s;
	fs_status st = str(c, v, field, &s);

	if (st != FS_OK)
		return st;
	if (s.len && memchr(s.s, DELIM[0], s.len))
		return wrong(c, field, "text without the control character U+001F");
	put(c, s.s, s.len);
	return FS_OK;
}

/* Seconds as sacct prints a duration: [D-]HH:MM:SS. */
static fs_status
put_duration(jctx *c, fs_str digits, int64_t mult, const char *field)
{
	int64_t v;

	if (!fs_parse_digits(digits.s, digits.len, INT64_C(999999999999) / mult, &v))
		return wrong(c, field, "a number of seconds below 10^12");
	v *= mult;
	if (c->line.len > 0)
		fs_sb_append(&c->line, DELIM, 1);
	if (v >= 86400)
		fs_sb_appendf(&c->line, "%lld-", (long long) (v / 86400));
	fs_sb_appendf(&c->line, "%02d:%02d:%02d", (int) (v % 86400 / 3600), (int) (v % 3600 / 60),
	              (int) (v % 60));
	return FS_OK;
}

/* A date: epoch seconds; 0, which Slurm writes for a time not reached, as sacct's Unknown. */
static fs_status
put_time(jctx *c, const fs_json *v, const char *field)
{
	numkind k;
	fs_str d;
	fs_status st = num(c, v, field, &k, &d);

	if (st != FS_OK)
		return st;
	if (k == NUM_SET && fs_span_eq(d.s, d.len, "0"))
		put(c, "Unknown", 7);
	else if (k == NUM_SET)
		put(c, d.s, d.len);
	else
		put(c, "", 0);
	return FS_OK;
}

/* The state: a string, or a list of the base state and its flags (v0.0.40 on). */
static fs_status
state(jctx *c, const fs_json *v, const char *field, fs_str *base, fs_sb *flags)
{
	size_t k;

	base->s = NULL;
	base->len = 0;
	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind == FS_JSON_STRING)
	{
		*base = v->str;
		return FS_OK;
	}
	if (v->kind != FS_JSON_ARRAY)
		return wrong(c, field, "a string or a list of strings");
	for (k = 0; k < v->n; k++)
	{
		if (v->items[k].kind != FS_JSON_STRING ||
		    memchr(v->items[k].str.s, DELIM[0], v->items[k].str.len))
			return wrong(c, field, "a string or a list of strings");
		if (k == 0)
			*base = v->items[k].str;
		else
		{
			if (flags->len)
				fs_sb_append(flags, ",", 1);
			fs_sb_append(flags, v->items[k].str.s, v->items[k].str.len);
		}
	}
	return FS_OK;
}

/* Whether an exit code object is {"status": "SUCCESS", "return_code": 0} in any version's form. */
static bool
kr_success(const fs_json *v)
{
	const fs_json *s = fs_json_get(v, "status"), *rc = fs_json_get(v, "return_code");

	if (s && s->kind == FS_JSON_ARRAY && s->n == 1)
		s = &s->items[0];
	if (rc && rc->kind == FS_JSON_OBJECT)
		rc = fs_json_get(rc, "number");
	return s && s->kind == FS_JSON_STRING && fs_span_eq(s->str.s, s->str.len, "SUCCESS") && rc &&
	       rc->kind == FS_JSON_NUMBER && fs_span_eq(rc->str.s, rc->str.len, "0");
}

/*
 * An exit code object as sacct prints it: return_code:signal. Slurm 22.05's dbv0.0.38 writes
 * {"status": "SUCCESS", "return_code": 0} for a job that exited with 3 (sacct --parsable2 of
 * the same job prints 3:0), so a FAILED job or step with that object has lost its code: no
 * value then, and a note.
 */
static fs_status
put_exit(jctx *c, const fs_json *v, const char *field, fs_str state)
{
	numkind kr, ks;
	fs_str rc, sig;
	const fs_json *s;
	fs_status st;

	if (v == NULL || v->kind == FS_JSON_NULL)
	{
		put(c, "", 0);
		return FS_OK;
	}
	if (v->kind != FS_JSON_OBJECT)
		return wrong(c, field, "an object");
	s = at(v, "signal", NULL, NULL);
	if (fs_span_eq(state.s, state.len, "FAILED") && kr_success(v))
	{
		c->note = "exit_code says SUCCESS for a FAILED job or step, as Slurm 22.05's dbv0.0.38 "
		          "writes a job's exit code 3: the code is not in the document";
		put(c, "", 0);
		return FS_OK;
	}
	if ((st = num(c, fs_json_get(v, "return_code"), field, &kr, &rc)) != FS_OK ||
	    (st = num(c,
	              s ? (fs_json_get(s, "id") ? fs_json_get(s, "id") : fs_json_get(s, "signal_id"))
	                : NULL,
	              field, &ks, &sig)) != FS_OK)
		return st;
	if (c->line.len > 0)
		fs_sb_append(&c->line, DELIM, 1);
	fs_sb_appendf(&c->line, "%.*s:%.*s", kr == NUM_SET ? (int) rc.len : 1,
	              kr == NUM_SET ? rc.s : "0", ks == NUM_SET ? (int) sig.len : 1,
	              ks == NUM_SET ? sig.s : "0");
	return FS_OK;
}

/*
 * A TRES list ([{"type", "name", "id", "count"}]) as sacct prints it: type[/name]=count, joined
 * with commas; mem counts are megabytes, which the row reader takes a bare size to be. *cpu and
 * *node get those counts.
 */
static fs_status
put_tres(jctx *c, const fs_json *v, const char *field, fs_str *cpu, fs_str *node)
{
	size_t k;
	bool first = true;

	if (cpu)
		cpu->s = NULL, cpu->len = 0;
	if (node)
		node->s = NULL, node->len = 0;
	if (c->line.len > 0)
		fs_sb_append(&c->line, DELIM, 1);
	if (v == NULL || v->kind == FS_JSON_NULL)
		return FS_OK;
	if (v->kind != FS_JSON_ARRAY)
		return wrong(c, field, "a list of {\"type\", \"name\", \"id\", \"count\"}");
	for (k = 0; k < v->n; k++)
	{
		const fs_json *t = &v->items[k];
		fs_str type, name, count, id;
		numkind kc, ki;
		fs_status st;

		FS_POLL(k);
		if (t->kind != FS_JSON_OBJECT)
			return wrong(c, field, "a list of {\"type\", \"name\", \"id\", \"count\"}");
		if ((st = str(c, fs_json_get(t, "type"), field, &type)) != FS_OK ||
		    (st = str(c, fs_json_get(t, "name"), field, &name)) != FS_OK ||
		    (st = num(c, fs_json_get(t, "count"), field, &kc, &count)) != FS_OK ||
		    (st = num(c, fs_json_get(t, "id"), field, &ki, &id)) != FS_OK)
			return st;
		if (kc != NUM_SET)
			continue; /* no count: sacct prints nothing for it */
		if (type.len == 0 && ki != NUM_SET)
			return wrong(c, field, "a list of TRES with a type or an id");
		if ((type.len && (memchr(type.s, ',', type.len) || memchr(type.s, '=', type.len))) ||
		    (name.len && (memchr(name.s, ',', name.len) || memchr(name.s, '=', name.len))))
			return wrong(c, field, "a list of TRES whose names hold no \",\" or \"=\"");
		if (!first)
			fs_sb_append(&c->line, ",", 1);
		first = false;
		if (type.len)
		{
			fs_sb_append(&c->line, type.s, type.len);
			if (name.len)
			{
				fs_sb_append(&c->line, "/", 1);
				fs_sb_append(&c->line, name.s, name.len);
			}
		}
		else
			fs_sb_append(&c->line, id.s, id.len); /* the row reader keeps it as tres_<id> */
		fs_sb_append(&c->line, "=", 1);
		fs_sb_append(&c->line, count.s, count.len);
		if (cpu && name.len == 0 && fs_span_eq(type.s, type.len, "cpu"))
			*cpu = count;
		if (node && name.len == 0 && fs_span_eq(type.s, type.len, "node"))
			*node = count;
	}
	return FS_OK;
}

/* A digits span as an unsigned 64-bit number; false when it does not fit. */
static bool
u64_of(fs_str d, uint64_t *out)
{
	uint64_t v = 0;
	size_t k;

	for (k = 0; k < d.len; k++)
	{
		if (v > (UINT64_MAX - (uint64_t) (d.s[k] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t) (d.s[k] - '0');
	}
	*out = v;
	return true;
}

/*
 * ReqMem for the whole job. sacct prints the requested mem TRES (the total) since 21.08; without
 * one, the per-CPU or per-node request (v0.0.39 on) or the raw request of dbv0.0.37 and dbv0.0.38
 * (per node, or per CPU with the flag in bit 63) is written with sacct's c or n.
 */
static fs_status
put_reqmem(jctx *c, const fs_json *job)
{
	const fs_json *req = fs_json_get(job, "required"), *tres = at(job, "tres", "requested", NULL);
	numkind k;
	fs_str d;
	fs_status st;
	size_t i;

	if (tres && tres->kind == FS_JSON_ARRAY)
		for (i = 0; i < tres->n; i++)
		{
			fs_str type, name;

			if ((st = str(c, fs_json_get(&tres->items[i], "type"), "tres", &type)) != FS_OK ||
			    (st = str(c, fs_json_get(&tres->items[i], "name"), "tres", &name)) != FS_OK ||
			    (st = num(c, fs_json_get(&tres->items[i], "count"), "tres", &k, &d)) != FS_OK)
				return st;
			if (fs_span_eq(type.s, type.len, "mem") && name.len == 0 && k == NUM_SET)
			{
				put(c, d.s, d.len);
				fs_sb_append(&c->line, "M", 1);
				return FS_OK;
			}
		}
	if ((st = num(c, fs_json_get(req, "memory_per_cpu"), "required.memory_per_cpu", &k, &d)) !=
	    FS_OK)
		return st;
	if (k == NUM_SET)
	{
		put(c, d.s, d.len);
		fs_sb_append(&c->line, "Mc", 2);
		return FS_OK;
	}
	if ((st = num(c, fs_json_get(req, "memory_per_node"), "required.memory_per_node", &k, &d)) !=
	    FS_OK)
		return st;
	if (k == NUM_SET)
	{
		put(c, d.s, d.len);
		fs_sb_append(&c->line, "Mn", 2);
		return FS_OK;
	}
	if ((st = num(c, fs_json_get(req, "memory"), "required.memory", &k, &d)) != FS_OK)
		return st;
	if (k == NUM_SET)
	{
		uint64_t mb;

		if (!u64_of(d, &mb))
			return wrong(c, "required.memory", "a number of megabytes below 2^64");
		if (c->line.len > 0)
			fs_sb_append(&c->line, DELIM, 1);
		if (mb >> 63)
			fs_sb_appendf(&c->line, "%lluMc", (unsigned long long) (mb - (UINT64_C(1) << 63)));
		else
			fs_sb_appendf(&c->line, "%lluMn", (unsigned long long) mb);
		return FS_OK;
	}
	put(c, "", 0);
	return FS_OK;
}

/* A count that may be absent: its digits or an empty field. */
static void
put_count(jctx *c, numkind k, fs_str d)
{
	put(c, k == NUM_SET ? d.s : "", k == NUM_SET ? d.len : 0);
}

/* The job's JobID as sacct prints it: 123, 123_4, 123_[1-5], 123+1. */
static fs_status
job_label(jctx *c, const fs_json *job, fs_sb *out, fs_str *raw)
{
	numkind kid, kaj, kat, khj, kho;
	fs_str id, aj, atask, hj, ho, spec;
	fs_status st;

	if ((st = num(c, fs_json_get(job, "job_id"), "job_id", &kid, &id)) != FS_OK)
		return st;
	if (kid != NUM_SET)
		return wrong(c, "job_id", "a job number");
	*raw = id;
	if ((st = num(c, at(job, "array", "job_id", NULL), "array.job_id", &kaj, &aj)) != FS_OK ||
	    (st = num(c, at(job, "array", "task_id", NULL), "array.task_id", &kat, &atask)) != FS_OK ||
	    (st = str(c, at(job, "array", "task", NULL), "array.task", &spec)) != FS_OK ||
	    (st = num(c, at(job, "het", "job_id", NULL), "het.job_id", &khj, &hj)) != FS_OK ||
	    (st = num(c, at(job, "het", "job_offset", NULL), "het.job_offset", &kho, &ho)) != FS_OK)
		return st;
	if (kaj == NUM_SET && !fs_span_eq(aj.s, aj.len, "0") && kat == NUM_SET)
		fs_sb_appendf(out, "%.*s_%.*s", (int) aj.len, aj.s, (int) atask.len, atask.s);
	else if (kaj == NUM_SET && !fs_span_eq(aj.s, aj.len, "0") && spec.len)
		fs_sb_appendf(out, "%.*s_[%.*s]", (int) aj.len, aj.s, (int) spec.len, spec.s);
	else if (khj == NUM_SET && !fs_span_eq(hj.s, hj.len, "0") && kho == NUM_SET)
		fs_sb_appendf(out, "%.*s+%.*s", (int) hj.len, hj.s, (int) ho.len, ho.s);
	else
		fs_sb_append(out, id.s, id.len);
	return FS_OK;
}

/* The step's name after the job id: "123.batch" (v0.0.39 on), "batch" or 0 (before). */
static fs_status
step_name(jctx *c, const fs_json *step, fs_str *out)
{
	const fs_json *v = at(step, "step", "id", NULL);
	const char *dot;

	if (v && v->kind == FS_JSON_NUMBER && all_digits(v->str))
	{
		*out = v->str;
		return FS_OK;
	}
	if (v == NULL || v->kind != FS_JSON_STRING || v->str.len == 0)
		return wrong(c, "steps[].step.id", "a step id (\"123.batch\", \"batch\" or a number)");
	dot = NULL;
	for (size_t k = v->str.len; k > 0; k--)
		if (v->str.s[k - 1] == '.')
		{
			dot = v->str.s + k - 1;
			break;
		}
	*out = dot ? fs_str_of(dot + 1, v->str.len - (size_t) (dot + 1 - v->str.s)) : v->str;
	if (out->len == 0)
		return wrong(c, "steps[].step.id", "a step id (\"123.batch\", \"batch\" or a number)");
	return FS_OK;
}

/* The fields both rows end with: StateFlags and the name, which may hold anything. */
static void
put_tail(jctx *c, const fs_sb *flags, fs_str name)
{
	put(c, flags->len ? flags->data : "", flags->len);
	put(c, name.s, name.len);
}

static fs_status
read_row(jctx *c, const fs_sacct_header *h, fs_sacct_json_emit emit, void *ctx, int *stop)
{
	fs_sacct_record rec;
	fs_status st = fs_sacct_parse_row(h, c->line.data, c->line.len, c->a, &rec, c->err);

	if (st != FS_OK)
	{
		if (c->jobid.s)
			fs_error_context(c->err, "in job %.*s of the sacct --json document", (int) c->jobid.len,
			                 c->jobid.s);
		return st;
	}
	if (c->note)
	{
		/* the row reader's anomalies: entries one after another, each ended by a NUL */
		fs_sb_append(&rec.anomalies, c->note, strlen(c->note) + 1);
		rec.nanomalies++;
		c->note = NULL;
	}
	*stop = emit(ctx, &rec);
	fs_sacct_record_free(&rec, c->a);
	return FS_OK;
}

/* One job's row, then one per step. */
static fs_status
one_job(jctx *c, const fs_sacct_header *h, fs_sacct_json_emit emit, void *ctx, int *stop)
{
	const fs_json *job = c->job, *steps;
	fs_sb label, flags;
	fs_str raw = {NULL, 0}, cpu, node, reqcpus, anodes, name, base;
	numkind kc, kn, kl;
	fs_str lim;
	fs_status st;
	size_t k;

	fs_sb_init(&label, c->a, 32);
	fs_sb_init(&flags, c->a, 16);
	c->jobid.s = NULL;
	c->line.len = 0;
	c->note = NULL;
#define TRY(x)                                                                                     \
	do                                                                                             \
	{                                                                                              \
		if ((st = (x)) != FS_OK)                                                                   \
			goto done;                                                                             \
	} while (0)
	TRY(job_label(c, job, &label, &raw));
	c->jobid = fs_str_of(label.data, label.len);
	put(c, label.data, label.len);
	put(c, raw.s, raw.len);
	TRY(put_str(c, fs_json_get(job, "cluster"), "cluster"));
	TRY(put_str(c, fs_json_get(job, "partition"), "partition"));
	TRY(put_str(c, fs_json_get(job, "account"), "account"));
	TRY(put_str(c, fs_json_get(job, "user"), "user"));
	TRY(put_str(c, fs_json_get(job, "group"), "group"));
	TRY(put_str(c, fs_json_get(job, "qos"), "qos"));
	TRY(state(c, at(job, "state", "current", NULL), "state.current", &base, &flags));
	put(c, base.s, base.len);
	TRY(put_exit(c, fs_json_get(job, "exit_code"), "exit_code", base));
	TRY(put_time(c, at(job, "time", "submission", NULL), "time.submission"));
	TRY(put_time(c, at(job, "time", "eligible", NULL), "time.eligible"));
	TRY(put_time(c, at(job, "time", "start", NULL), "time.start"));
	TRY(put_time(c, at(job, "time", "end", NULL), "time.end"));
	{
		numkind ke;
		fs_str el;

		TRY(num(c, at(job, "time", "elapsed", NULL), "time.elapsed", &ke, &el));
		if (ke == NUM_SET)
		{
			TRY(put_duration(c, el, 1, "time.elapsed"));
		}
		else
			put(c, "", 0);
	}
	TRY(num(c, at(job, "time", "limit", NULL), "time.limit", &kl, &lim));
	if (kl == NUM_SET)
	{
		TRY(put_duration(c, lim, 60, "time.limit"));
	}
	else
		put(c,
		    kl == NUM_INFINITE ? "UNLIMITED"
		    : kl == NUM_NOTSET ? "Partition_Limit"
		                       : "",
		    kl == NUM_INFINITE ? 9
		    : kl == NUM_NOTSET ? 15
		                       : 0);
	/* NCPUS and NNodes come after the TRES in the JSON: the row is written with their places
	 * kept and the TRES read first into a scratch row */
	{
		size_t mark = c->line.len;
		fs_sb tres;
		fs_str rnode;

		TRY(put_tres(c, at(job, "tres", "allocated", NULL), "tres.allocated", &cpu, &node));
		TRY(put_tres(c, at(job, "tres", "requested", NULL), "tres.requested", NULL, &rnode));
		fs_sb_init(&tres, c->a, c->line.len - mark + 1);
		fs_sb_append(&tres, c->line.data + mark, c->line.len - mark);
		c->line.len = mark;
		TRY(num(c, at(job, "required", "CPUs", NULL), "required.CPUs", &kc, &reqcpus));
		TRY(num(c, fs_json_get(job, "allocation_nodes"), "allocation_nodes", &kn, &anodes));
		if (cpu.s)
			put(c, cpu.s, cpu.len);
		else
			put_count(c, kc, reqcpus);
		if (kn == NUM_SET && !fs_span_eq(anodes.s, anodes.len, "0"))
			put(c, anodes.s, anodes.len);
		else if (node.s)
			put(c, node.s, node.len);
		else if (rnode.s)
			put(c, rnode.s, rnode.len);
		else
			put_count(c, kn, anodes);
		if ((st = put_reqmem(c, job)) != FS_OK)
		{
			c->a->release(c->a->ctx, tres.data);
			goto done;
		}
		fs_sb_append(&c->line, tres.data, tres.len);
		c->a->release(c->a->ctx, tres.data);
	}
	TRY(put_str(c, fs_json_get(job, "nodes"), "nodes"));
	TRY(put_str(c, fs_json_get(job, "working_directory"), "working_directory"));
	TRY(put_exit(c, fs_json_get(job, "derived_exit_code"), "derived_exit_code",
	             fs_str_of(NULL, 0)));
	TRY(put_str(c, at(job, "state", "reason", NULL), "state.reason"));
	TRY(str(c, fs_json_get(job, "name"), "name", &name));
	put_tail(c, &flags, name);
	TRY(read_row(c, h, emit, ctx, stop));

	steps = fs_json_get(job, "steps");
	if (steps && steps->kind != FS_JSON_NULL && steps->kind != FS_JSON_ARRAY)
	{
		st = wrong(c, "steps", "a list");
		goto done;
	}
	for (k = 0; steps && steps->kind == FS_JSON_ARRAY && k < steps->n && !*stop; k++)
	{
		const fs_json *s = &steps->items[k];
		fs_str sn = {NULL, 0};
		numkind ke, knn;
		fs_str el, nn;

		FS_POLL(k);
		if (s->kind != FS_JSON_OBJECT)
		{
			st = wrong(c, "steps", "a list of objects");
			goto done;
		}
		TRY(step_name(c, s, &sn));
		c->line.len = 0;
		c->note = NULL;
		flags.len = 0;
		if (c->line.data)
			c->line.data[0] = '\0';
		fs_sb_appendf(&c->line, "%.*s.%.*s", (int) label.len, label.data, (int) sn.len, sn.s);
		fs_sb_appendf(&c->line, DELIM "%.*s.%.*s", (int) raw.len, raw.s, (int) sn.len, sn.s);
		/* sacct prints a step's cluster and account, not its user, group, partition or QOS */
		TRY(put_str(c, fs_json_get(job, "cluster"), "cluster"));
		put(c, "", 0);
		TRY(put_str(c, fs_json_get(job, "account"), "account"));
		put(c, "", 0);
		put(c, "", 0);
		put(c, "", 0);
		TRY(state(c, fs_json_get(s, "state"), "steps[].state", &base, &flags));
		put(c, base.s, base.len);
		TRY(put_exit(c, fs_json_get(s, "exit_code"), "steps[].exit_code", base));
		/* Submit and Eligible: sacct prints a step's start for both */
		TRY(put_time(c, at(s, "time", "start", NULL), "steps[].time.start"));
		TRY(put_time(c, at(s, "time", "start", NULL), "steps[].time.start"));
		TRY(put_time(c, at(s, "time", "start", NULL), "steps[].time.start"));
		TRY(put_time(c, at(s, "time", "end", NULL), "steps[].time.end"));
		TRY(num(c, at(s, "time", "elapsed", NULL), "steps[].time.elapsed", &ke, &el));
		if (ke == NUM_SET)
		{
			TRY(put_duration(c, el, 1, "steps[].time.elapsed"));
		}
		else
			put(c, "", 0);
		put(c, "", 0); /* Timelimit */
		{
			size_t mark = c->line.len;
			fs_sb tres;

			TRY(put_tres(c, at(s, "tres", "allocated", NULL), "steps[].tres.allocated", &cpu,
			             NULL));
			fs_sb_init(&tres, c->a, c->line.len - mark + 1);
			fs_sb_append(&tres, c->line.data + mark, c->line.len - mark);
			c->line.len = mark;
			if ((st = num(c, at(s, "nodes", "count", NULL), "steps[].nodes.count", &knn, &nn)) !=
			    FS_OK)
			{
				c->a->release(c->a->ctx, tres.data);
				goto done;
			}
			put(c, cpu.s ? cpu.s : "", cpu.len);
			put_count(c, knn, nn);
			put(c, "", 0); /* ReqMem: a step has no request of its own */
			fs_sb_append(&c->line, tres.data, tres.len);
			c->a->release(c->a->ctx, tres.data);
			put(c, "", 0); /* ReqTRES: a step's "requested" are usage statistics */
		}
		TRY(put_str(c, at(s, "nodes", "range", NULL), "steps[].nodes.range"));
		put(c, "", 0);
		put(c, "", 0);
		put(c, "", 0);
		TRY(str(c, at(s, "step", "name", NULL), "steps[].step.name", &name));
		put_tail(c, &flags, name);
		TRY(read_row(c, h, emit, ctx, stop));
	}
#undef TRY
	st = FS_OK;
done:
	c->a->release(c->a->ctx, label.data);
	c->a->release(c->a->ctx, flags.data);
	return st;
}

fs_status
fs_sacct_json_doc(const fs_json *doc, const fs_allocator *a, fs_sacct_json_emit emit, void *ctx,
                  fs_error *err)
{
	const fs_json *jobs = doc->kind == FS_JSON_ARRAY ? doc : fs_json_get(doc, "jobs");
	fs_sacct_header h;
	jctx c;
	fs_status st;
	size_t k;
	int stop = 0;

	if (jobs == NULL || jobs->kind != FS_JSON_ARRAY)
	{
		fs_fail(err, FS_ERR_VALUE, "the document is not sacct --json output");
		fs_error_detail(err,
		                "sacct --json writes an object with a \"jobs\" list; this %s has "
		                "none.",
		                doc->kind == FS_JSON_OBJECT ? "object" : "value");
		fs_error_hint(err, "Give the whole document sacct --json wrote, or its \"jobs\" list.");
		return FS_ERR_VALUE;
	}
	st = fs_sacct_header_parse(header_text, sizeof(header_text) - 1, DELIM, 1, a, &h, err);
	if (st != FS_OK)
		return st;
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.err = err;
	fs_sb_init(&c.line, a, 512);
	for (k = 0; k < jobs->n && !stop && st == FS_OK; k++)
	{
		FS_POLL(k);
		c.job = &jobs->items[k];
		if (c.job->kind != FS_JSON_OBJECT)
		{
			c.jobid.s = NULL;
			st = wrong(&c, "jobs", "a list of objects");
			break;
		}
		st = one_job(&c, &h, emit, ctx, &stop);
	}
	a->release(a->ctx, c.line.data);
	fs_sacct_header_free(&h, a);
	return st;
}
