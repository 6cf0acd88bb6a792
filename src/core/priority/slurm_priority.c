/*
 * slurm_priority.c: SLURM's priority/multifactor parameters, read from slurm.conf text or from
 * `scontrol show config` output the way slurmctld's configuration reader reads them.
 */
#include "priority/slurm_priority.h"

#include <stdio.h>

static const char *const flag_names[FS_SPRIO_NFLAGS] = {
    "ACCRUE_ALWAYS",   "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING",
    "DEPTH_OBLIVIOUS", "NO_FAIR_TREE",           "INCR_ONLY",
    "MAX_TRES",        "MAX_TRES_GRES",          "NO_NORMAL_ASSOC",
    "NO_NORMAL_PART",  "NO_NORMAL_QOS",          "NO_NORMAL_TRES"};

const char *
fs_sprio_flag_name(int i)
{
	return i >= 0 && i < FS_SPRIO_NFLAGS ? flag_names[i] : NULL;
}

static void *
xalloc(const fs_allocator *a, size_t n)
{
	return a->alloc(a->ctx, n ? n : 1);
}

static char *
xstrndup(const fs_allocator *a, const char *s, size_t n)
{
	char *d = xalloc(a, n + 1);

	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Case-insensitive substring search (SLURM's xstrcasestr). O(hlen * nlen), nlen is a flag name. */
static bool
has_word(const char *h, size_t hlen, const char *needle)
{
	size_t nlen = strlen(needle), i;

	for (i = 0; i + nlen <= hlen; i++)
		if (fs_casecmp(h + i, nlen, needle, nlen) == 0)
			return true;
	return false;
}

/* ---- versions ------------------------------------------------------------------------------- */

fs_status
fs_sprio_version_parse(const char *s, size_t len, int *version, fs_error *err)
{
	size_t i = 0, j;
	int64_t major, minor;
	char shown[256];

	fs_quote_excerpt(shown, sizeof(shown), s, len, 200);
	while (i < len && fs_is_digit(s[i]))
		i++;
	j = i + 1;
	while (j < len && fs_is_digit(s[j]))
		j++;
	if (i == 0 || i >= len || s[i] != '.' || j == i + 1 || !fs_parse_digits(s, i, 99, &major) ||
	    !fs_parse_digits(s + i + 1, j - i - 1, 99, &minor) || minor < 1 || minor > 12 ||
	    (j < len && s[j] != '.'))
	{
		fs_fail(err, FS_ERR_SYNTAX, "invalid SLURM version: \"%s\"", shown);
		fs_error_hint(err, "Give a release as SLURM_VERSION prints it, for example 22.05 or "
		                   "23.02.7.");
		return FS_ERR_SYNTAX;
	}
	*version = (int) (major * 100 + minor);
	if (*version < FS_SPRIO_VERSION_MIN)
	{
		fs_fail(err, FS_ERR_SYNTAX, "invalid SLURM version: \"%s\"", shown);
		fs_error_detail(err, "Releases before 19.05 have no association or site factor.");
		fs_error_hint(err, "Give a release from 19.05 on.");
		return FS_ERR_SYNTAX;
	}
	return FS_OK;
}

/* ---- values --------------------------------------------------------------------------------- */

/*
 * SLURM's time_str2secs: "-1", INFINITE or UNLIMITED; else only digits, ':' and '-' (at most one
 * dash, before any colon; at most two colons); "d-h:m:s" with a dash, else "h:m:s" when three
 * numbers read, else "m:s" or "m". Numbers are read as sscanf's %d reads them, so "5-" is five
 * days and ":" is 0. Arithmetic is in int, as SLURM's; a number or total beyond int is bad text
 * here (SLURM would overflow).
 */
static int64_t
time_str2secs(const char *s, size_t len)
{
	int64_t v[4] = {0, 0, 0, 0}, total;
	size_t i, p = 0;
	int dash = 0, colon = 0, nread = 0, k;

	if (len == 0)
		return -2;
	if (fs_span_eq(s, len, "-1") || fs_span_ieq(s, len, "INFINITE") ||
	    fs_span_ieq(s, len, "UNLIMITED"))
		return -1;
	for (i = 0; i < len; i++)
	{
		if (s[i] == '-')
		{
			if (colon)
				return -2;
			dash++;
		}
		else if (s[i] == ':')
			colon++;
		else if (!fs_is_digit(s[i]))
			return -2;
	}
	if (dash > 1 || colon > 2)
		return -2;
	/* the sscanf: numbers separated by the format's literals, stopping at the first mismatch */
	for (k = 0; k < (dash ? 4 : 3); k++)
	{
		bool neg = false;
		int64_t n = 0;
		size_t start;

		if (k > 0)
		{
			char sep = (dash && k == 1) ? '-' : ':';

			if (p >= len || s[p] != sep)
				break;
			p++;
		}
		if (p < len && s[p] == '-')
		{
			neg = true;
			p++;
		}
		start = p;
		while (p < len && fs_is_digit(s[p]))
		{
			n = n * 10 + (s[p] - '0');
			if (n > INT32_MAX)
				return -2;
			p++;
		}
		if (p == start)
			break;
		v[k] = neg ? -n : n;
		nread++;
	}
	if (dash)
		total = v[0] * 86400 + v[1] * 3600 + v[2] * 60 + v[3];
	else if (nread == 3)
		total = v[0] * 3600 + v[1] * 60 + v[2];
	else
		total = v[0] * 60 + v[1];
	if (total > INT32_MAX || total < INT32_MIN)
		return -2;
	return total;
}

int32_t
fs_sprio_time_str2mins(const char *s, size_t len)
{
	int64_t secs = time_str2secs(s, len);

	if (secs == -1 || secs == -2)
		return (int32_t) secs;
	return (int32_t) ((secs + 59) / 60);
}

/*
 * SLURM's uint32 reading (strtoul with base 0, then UNLIMITED or INFINITE for 2^32-1): 0 if
 * empty, 1 "not a valid number", 2 "out of range" (a negative number wraps in strtoul, so "-1"
 * is out of range and "-0" is 0).
 */
static int
parse_uint32(const char *s, size_t len, uint32_t *out)
{
	size_t i = 0;
	bool neg = false;
	unsigned base = 10;
	uint64_t n = 0;
	bool big = false;

	if (fs_span_ieq(s, len, "UNLIMITED") || fs_span_ieq(s, len, "INFINITE"))
	{
		*out = UINT32_MAX;
		return 0;
	}
	if (len == 0)
	{
		*out = 0;
		return 0;
	}
	if (s[i] == '+' || s[i] == '-')
		neg = s[i++] == '-';
	if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
	{
		base = 16;
		i += 2;
	}
	else if (i < len && s[i] == '0')
		base = 8;
	if (i >= len)
		return 1;
	for (; i < len; i++)
	{
		unsigned d;
		char c = fs_ascii_lower(s[i]);

		if (fs_is_digit(c))
			d = (unsigned) (c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned) (c - 'a' + 10);
		else
			return 1;
		if (d >= base)
			return 1;
		n = n * base + d;
		if (n > UINT32_MAX)
			big = true, n = UINT32_MAX + (uint64_t) 1;
	}
	if (big || (neg && n != 0))
		return 2;
	*out = (uint32_t) n;
	return 0;
}

/* ---- TRES weights --------------------------------------------------------------------------- */

static const char *const plain_tres[] = {"cpu",     "mem",  "energy", "node",
                                         "billing", "vmem", "pages"};
static const char *const named_tres[] = {"gres", "license", "bb", "fs", "ic"};

static fs_status
tres_fail(fs_error *err, const char *what, const char *s, size_t len)
{
	char shown[256];

	fs_quote_excerpt(shown, sizeof(shown), s, len, 200);
	fs_fail(err, FS_ERR_SYNTAX, "invalid TRES weight: \"%s\"", shown);
	fs_error_detail(err, "%s", what);
	fs_error_hint(err,
	              "PriorityWeightTRES is a comma-separated list of TYPE[/NAME]=weight[K|M|G|T|P], "
	              "for example CPU=1000,Mem=2000G,GRES/gpu=3000.");
	return FS_ERR_SYNTAX;
}

/* SLURM's TRES table puts these first, in this order; the others follow as configured. */
static int
tres_rank(const char *name)
{
	static const char *const table[] = {"cpu",     "mem",     "energy", "node",
	                                    "billing", "fs/disk", "vmem",   "pages"};
	int i;

	for (i = 0; i < 8; i++)
		if (strcmp(name, table[i]) == 0)
			return i;
	return 8;
}

/* One entry "type[/name]=value[unit]" into *w (name allocated). */
static fs_status
tres_entry(const char *s, size_t len, fs_sprio_tres_weight *w, const fs_allocator *a, fs_error *err)
{
	size_t eq = 0, slash, k, used, tlen;
	double v;
	int base = 0, unit;
	bool known = false;
	const char *val;
	size_t vlen;

	while (eq < len && s[eq] != '=')
		eq++;
	if (eq >= len || eq + 1 >= len)
		return tres_fail(
		    err, "It is not TYPE=weight (slurmctld: \"is an invalid TRES weight entry\").", s, len);
	slash = 0;
	while (slash < eq && s[slash] != '/')
		slash++;
	tlen = slash;
	if (slash < eq)
	{
		for (k = 0; k < sizeof(named_tres) / sizeof(named_tres[0]); k++)
			if (fs_span_ieq(s, tlen, named_tres[k]) && eq > slash + 1)
				known = true;
	}
	else
		for (k = 0; k < sizeof(plain_tres) / sizeof(plain_tres[0]); k++)
			if (fs_span_ieq(s, tlen, plain_tres[k]))
				known = true;
	if (!known)
		return tres_fail(err,
		                 "It names no TRES type (slurmctld stops with \"failed to parse tres "
		                 "weights str\"); the types are cpu, mem, energy, node, billing, vmem, "
		                 "pages, and gres/NAME, license/NAME, bb/NAME, fs/NAME, ic/NAME.",
		                 s, len);
	/* the name becomes a resource name of the weighted terms' vectors */
	if (eq > FS_RV_NAME_MAX)
		return tres_fail(err, "Its name is longer than 63 bytes.", s, len);
	for (k = tlen + 1; k < eq; k++)
		if (!(fs_is_name_start(s[k]) || fs_is_digit(s[k]) || strchr("./:-@", s[k]) != NULL) ||
		    s[k] == '\0')
			return tres_fail(
			    err, "Its name has a character other than letters, digits, and _ . / : - @.", s,
			    len);
	if (fs_span_ieq(s, tlen, "mem") || fs_span_ieq(s, tlen, "bb"))
		base = 2;
	val = s + eq + 1;
	vlen = len - eq - 1;
	used = fs_scan_number(val, vlen, &v);
	if (used == 0)
		return tres_fail(err, "Its weight is not a number.", s, len);
	if (!(v - v == 0))
		return tres_fail(err, "Its weight is out of range.", s, len);
	if (used < vlen)
	{
		const char *units = "KMGTP";
		const char *u;

		if (used + 1 != vlen || (u = strchr(units, fs_ascii_upper(val[used]))) == NULL ||
		    val[used] == '\0')
			return tres_fail(err,
			                 "Its unit is not one of K, M, G, T and P (slurmctld: \"Invalid "
			                 "unit type\").",
			                 s, len);
		unit = (int) (u - units) + 1;
		for (; base < unit; base++)
			v /= 1024.0;
	}
	w->name = xalloc(a, eq + 1);
	for (k = 0; k < eq; k++)
		w->name[k] = k < tlen ? fs_ascii_lower(s[k]) : s[k];
	w->name[eq] = '\0';
	w->weight = v;
	w->namelen = eq;
	w->rank = tres_rank(w->name);
	return FS_OK;
}

fs_status
fs_sprio_tres_weights_parse(const char *s, size_t len, fs_sprio_tres_weight **out, size_t *n,
                            const fs_allocator *a, fs_error *err)
{
	size_t i = 0, cap = 0, cnt = 0, k;
	fs_sprio_tres_weight *arr = NULL;

	*out = NULL;
	*n = 0;
	while (i < len)
	{
		size_t j = i;

		FS_POLL(cnt);
		while (j < len && s[j] != ',')
			j++;
		if (j > i) /* strtok skips empty entries */
		{
			arr = fs_grow(a, arr, cnt, &cap, sizeof(*arr));
			if (tres_entry(s + i, j - i, &arr[cnt], a, err) != FS_OK)
			{
				for (k = 0; k < cnt; k++)
					a->release(a->ctx, arr[k].name);
				if (arr)
					a->release(a->ctx, arr);
				return FS_ERR_SYNTAX;
			}
			/* a repeated TRES keeps the last weight, as SLURM's array does */
			for (k = 0; k < cnt; k++)
				if (fs_casecmp(arr[k].name, strlen(arr[k].name), arr[cnt].name,
				               strlen(arr[cnt].name)) == 0)
				{
					arr[k].weight = arr[cnt].weight;
					a->release(a->ctx, arr[cnt].name);
					cnt--;
					break;
				}
			cnt++;
		}
		i = j + 1;
	}
	*out = arr;
	*n = cnt;
	return FS_OK;
}

/* ---- the configuration ---------------------------------------------------------------------- */

enum
{
	K_AGE,
	K_ASSOC,
	K_FS,
	K_JS,
	K_PART,
	K_QOS,
	K_TRES,
	K_MAXAGE,
	K_CALC,
	K_FAVOR,
	K_FLAGS,
	K_TYPE,
	K_VERSION,
	NKEYS
};

static const char *const key_names[NKEYS] = {
    "PriorityWeightAge",     "PriorityWeightAssoc",     "PriorityWeightFairshare",
    "PriorityWeightJobSize", "PriorityWeightPartition", "PriorityWeightQOS",
    "PriorityWeightTRES",    "PriorityMaxAge",          "PriorityCalcPeriod",
    "PriorityFavorSmall",    "PriorityFlags",           "PriorityType",
    "SLURM_VERSION"};

/* The lines of these records hold their own keys (a partition's PriorityJobFactor). */
static const char *const record_keys[] = {"NodeName",     "PartitionName", "NodeSet", "DownNodes",
                                          "FrontendName", "SwitchName",    "Name"};

typedef struct setting
{
	const char *val;
	size_t len;
	size_t line; /* 0 when not set */
} setting;

static fs_status
bad_value(fs_error *err, const setting *st, int key, const char *slurm_msg, const char *hint)
{
	char shown[256];

	fs_quote_excerpt(shown, sizeof(shown), st->val, st->len, 200);
	fs_fail(err, FS_ERR_SYNTAX, "invalid value for %s on line %zu: \"%s\"", key_names[key],
	        st->line, shown);
	if (slurm_msg)
		fs_error_detail(err, "slurmctld says: %s.", slurm_msg);
	fs_error_hint(err, "%s", hint);
	return FS_ERR_SYNTAX;
}

/* Record key k of a line: its value, unquoted. */
static void
record(setting *set, const char *key, size_t klen, const char *val, size_t vlen, size_t line)
{
	int k;

	if (vlen >= 2 && val[0] == '"' && val[vlen - 1] == '"')
	{
		val++;
		vlen -= 2;
	}
	for (k = 0; k < NKEYS; k++)
		if (fs_span_ieq(key, klen, key_names[k]))
		{
			set[k].val = val;
			set[k].len = vlen;
			set[k].line = line;
		}
}

/* One line: the `Key = Value` form of scontrol show config, or slurm.conf's Key=Value pairs. */
static void
scan_line(setting *set, const char *s, size_t len, size_t line)
{
	size_t i = 0, k, j;

	for (k = 0; k < len; k++)
		if (s[k] == '#')
		{
			len = k;
			break;
		}
	while (len > 0 && fs_is_space(s[len - 1]))
		len--;
	while (i < len && fs_is_space(s[i]))
		i++;
	k = i;
	while (k < len && !fs_is_space(s[k]) && s[k] != '=')
		k++;
	j = k;
	while (j < len && fs_is_space(s[j]))
		j++;
	if (j > k && j < len && s[j] == '=')
	{
		size_t v = j + 1;

		while (v < len && fs_is_space(s[v]))
			v++;
		if (fs_span_eq(s + v, len - v, "(null)"))
			v = len;
		record(set, s + i, k - i, s + v, len - v, line);
		return;
	}
	if (k >= len || s[k] != '=')
		return;
	for (j = 0; j < sizeof(record_keys) / sizeof(record_keys[0]); j++)
		if (fs_span_ieq(s + i, k - i, record_keys[j]))
			return;
	/* whitespace-separated pairs; a value may be quoted */
	while (i < len)
	{
		size_t ks = i, ke, vs, ve;

		while (i < len && !fs_is_space(s[i]) && s[i] != '=')
			i++;
		ke = i;
		if (i < len && s[i] == '=')
		{
			i++;
			vs = i;
			if (i < len && s[i] == '"')
			{
				i++;
				while (i < len && s[i] != '"')
					i++;
				if (i < len)
					i++;
			}
			while (i < len && !fs_is_space(s[i]))
				i++;
			ve = i;
			record(set, s + ks, ke - ks, s + vs, ve - vs, line);
		}
		while (i < len && fs_is_space(s[i]))
			i++;
	}
}

static fs_status
weight(const setting *st, int key, uint32_t *out, fs_error *err)
{
	char msg[600], shown[256];
	int r;

	if (!st->line)
		return FS_OK;
	r = parse_uint32(st->val, st->len, out);
	if (r == 0)
		return FS_OK;
	fs_quote_excerpt(shown, sizeof(shown), st->val, st->len, 200);
	snprintf(msg, sizeof(msg), "\"%s\" is %s", shown,
	         r == 1 ? "not a valid number" : "out of range");
	return bad_value(err, st, key, msg, "A priority weight is an integer from 0 to 4294967295.");
}

/* PriorityMaxAge or PriorityCalcPeriod: minutes rounded up, times 60 in 32 bits. */
static fs_status
minutes(const setting *st, int key, uint32_t *out, fs_error *err)
{
	char msg[600], shown[256];
	int32_t m;

	if (!st->line)
		return FS_OK;
	m = fs_sprio_time_str2mins(st->val, st->len);
	if ((key == K_MAXAGE && (m >= 0 || m == -1)) || (key == K_CALC && m >= 1))
	{
		*out = (uint32_t) m * 60u;
		return FS_OK;
	}
	fs_quote_excerpt(shown, sizeof(shown), st->val, st->len, 200);
	snprintf(msg, sizeof(msg), "Bad value \"%s\" for %s", shown, key_names[key]);
	return bad_value(err, st, key, msg,
	                 key == K_MAXAGE ? "PriorityMaxAge takes minutes, minutes:seconds, "
	                                   "hours:minutes:seconds, days-hours[:minutes[:seconds]] or "
	                                   "UNLIMITED."
	                                 : "PriorityCalcPeriod takes at least one minute, as minutes, "
	                                   "minutes:seconds, hours:minutes:seconds or "
	                                   "days-hours[:minutes[:seconds]].");
}

void
fs_sprio_config_free(fs_sprio_config *cfg, const fs_allocator *a)
{
	size_t i;

	for (i = 0; i < cfg->n_tres; i++)
		a->release(a->ctx, cfg->tres[i].name);
	if (cfg->tres)
		a->release(a->ctx, cfg->tres);
	if (cfg->weight_tres)
		a->release(a->ctx, cfg->weight_tres);
	cfg->tres = NULL;
	cfg->weight_tres = NULL;
	cfg->n_tres = 0;
}

fs_status
fs_sprio_config_parse(const char *text, size_t len, const char *version, size_t version_len,
                      fs_sprio_config *cfg, const fs_allocator *a, fs_error *err)
{
	setting set[NKEYS];
	size_t i = 0, line = 0;
	fs_status st;
	const setting *s;

	memset(set, 0, sizeof(set));
	memset(cfg, 0, sizeof(*cfg));
	while (i < len)
	{
		size_t j = i;

		FS_POLL(line);
		while (j < len && text[j] != '\n')
			j++;
		scan_line(set, text + i, j - i, ++line);
		i = j + 1;
	}
	cfg->version = FS_SPRIO_VERSION_NEWEST;
	if (version)
		st = fs_sprio_version_parse(version, version_len, &cfg->version, err);
	else if (set[K_VERSION].line && set[K_VERSION].len)
	{
		st = fs_sprio_version_parse(set[K_VERSION].val, set[K_VERSION].len, &cfg->version, err);
		if (st != FS_OK)
			fs_error_context(err, "in SLURM_VERSION on line %zu", set[K_VERSION].line);
	}
	else
		st = FS_OK;
	if (st != FS_OK)
		return st;

	/* SLURM's defaults: FAIR_TREE on, a week of age, a pass every 5 minutes */
	cfg->max_age = 7 * 86400;
	cfg->calc_period = 300;
	cfg->multifactor = cfg->version >= 2311;
	if ((st = weight(&set[K_AGE], K_AGE, &cfg->weight_age, err)) != FS_OK ||
	    (st = weight(&set[K_ASSOC], K_ASSOC, &cfg->weight_assoc, err)) != FS_OK ||
	    (st = weight(&set[K_FS], K_FS, &cfg->weight_fairshare, err)) != FS_OK ||
	    (st = weight(&set[K_JS], K_JS, &cfg->weight_jobsize, err)) != FS_OK ||
	    (st = weight(&set[K_PART], K_PART, &cfg->weight_partition, err)) != FS_OK ||
	    (st = weight(&set[K_QOS], K_QOS, &cfg->weight_qos, err)) != FS_OK ||
	    (st = minutes(&set[K_MAXAGE], K_MAXAGE, &cfg->max_age, err)) != FS_OK ||
	    (st = minutes(&set[K_CALC], K_CALC, &cfg->calc_period, err)) != FS_OK)
		return st;

	s = &set[K_FAVOR];
	if (s->line && s->len)
	{
		if (fs_span_ieq(s->val, s->len, "yes") || fs_span_ieq(s->val, s->len, "up") ||
		    fs_span_ieq(s->val, s->len, "true") || fs_span_ieq(s->val, s->len, "1"))
			cfg->favor_small = true;
		else if (!(fs_span_ieq(s->val, s->len, "no") || fs_span_ieq(s->val, s->len, "down") ||
		           fs_span_ieq(s->val, s->len, "false") || fs_span_ieq(s->val, s->len, "0")))
		{
			char msg[600], shown[256];

			fs_quote_excerpt(shown, sizeof(shown), s->val, s->len, 200);
			snprintf(msg, sizeof(msg), "\"%s\" is not a valid option for \"PriorityFavorSmall\"",
			         shown);
			return bad_value(err, s, K_FAVOR, msg, "PriorityFavorSmall takes YES or NO.");
		}
	}

	s = &set[K_TYPE];
	if (s->line && s->len)
	{
		if (fs_span_ieq(s->val, s->len, "priority/multifactor"))
			cfg->multifactor = true;
		else if (fs_span_ieq(s->val, s->len, "priority/basic"))
			cfg->multifactor = false;
		else
			return bad_value(err, s, K_TYPE, NULL,
			                 "PriorityType is priority/multifactor or priority/basic.");
	}

	/* PriorityFlags: each word found anywhere in the value, in any case; others ignored */
	s = &set[K_FLAGS];
	if (s->line)
	{
		static const int plain[] = {0, 1, 2, 3, 4, 5};

		for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
			if (has_word(s->val, s->len, flag_names[plain[i]]))
				cfg->flags |= 1u << plain[i];
		if (has_word(s->val, s->len, "MAX_TRES_GRES"))
			cfg->flags |= FS_SPRIO_MAX_TRES_GRES;
		else if (has_word(s->val, s->len, "MAX_TRES"))
			cfg->flags |= FS_SPRIO_MAX_TRES;
		if (has_word(s->val, s->len, "NO_NORMAL_ALL"))
			cfg->flags |= FS_SPRIO_NO_NORMAL_ASSOC | FS_SPRIO_NO_NORMAL_PART |
			              FS_SPRIO_NO_NORMAL_QOS | FS_SPRIO_NO_NORMAL_TRES;
		else
			for (i = 8; i < FS_SPRIO_NFLAGS; i++)
				if (has_word(s->val, s->len, flag_names[i]))
					cfg->flags |= 1u << i;
		/* DEPTH_OBLIVIOUS is a classic algorithm: Fair Tree is off */
		if (cfg->flags & FS_SPRIO_DEPTH_OBLIVIOUS)
			cfg->flags |= FS_SPRIO_NO_FAIR_TREE;
	}

	s = &set[K_TRES];
	if (s->line && s->len)
	{
		st = fs_sprio_tres_weights_parse(s->val, s->len, &cfg->tres, &cfg->n_tres, a, err);
		if (st != FS_OK)
		{
			fs_error_context(err, "in PriorityWeightTRES on line %zu", s->line);
			return st;
		}
		cfg->weight_tres = xstrndup(a, s->val, s->len);
	}
	return FS_OK;
}

/* ---- the priority of a job ------------------------------------------------------------------ */

#define SPRIO_INT_LIMIT 2147483645 /* site factor and nice, as scontrol and sbatch bound them */

static fs_status
value_fail(fs_error *err, const char *field, int64_t v, const char *hint)
{
	fs_fail(err, FS_ERR_VALUE, "%s %lld is out of range", field, (long long) v);
	fs_error_hint(err, "%s", hint);
	return FS_ERR_VALUE;
}

/*
 * A TRES amount as SLURM counts it: sizes in MB (mem, bb), counts and durations as they are.
 * Absent is 0.
 */
static double
tres_amount(const uint8_t *rv, const fs_sprio_tres_weight *w)
{
	fs_rv_item it;

	if (rv == NULL || !fs_rv_get(rv, w->name, w->namelen, &it))
		return 0;
	return it.kind == FS_KIND_SIZE ? it.amount / 1048576.0 : it.amount;
}

/* The job-size factor of 1.2.1 of SLURM's multifactor plugin, in its three modes. */
static fs_status
job_size(const fs_sprio_config *cfg, const fs_sprio_job *job, const fs_sprio_cluster *cl,
         double *js, fs_error *err)
{
	double nodes = (double) cl->nodes, ccpus = (double) cl->cpus, v = 0;
	bool guard = cfg->version >= 2302;

	*js = 0;
	if (cl->nodes == 0 || cl->cpus == 0)
	{
		if (guard)
			return FS_OK; /* 23.02 and later leave the factor 0 */
		fs_fail(err, FS_ERR_DIVZERO, "job size factor of a cluster with %s nodes and %s CPUs",
		        cl->nodes == 0 ? "no" : "some", cl->cpus == 0 ? "no" : "some");
		fs_error_detail(err, "SLURM releases before 23.02 divide by the cluster's node and CPU "
		                     "counts here.");
		fs_error_hint(err, "Give the cluster's nodes and cpus, or a release from 23.02 on.");
		return FS_ERR_DIVZERO;
	}
	if (cfg->flags & FS_SPRIO_SMALL_RELATIVE_TO_TIME)
	{
		double limit_min;
		int64_t secs;

		v = (double) job->min_nodes * ccpus / nodes;
		if ((double) job->cpus > v)
			v = (double) job->cpus;
		if (job->has_time_limit)
			secs = job->time_limit;
		else if (job->has_part_max_time)
			secs = job->part_max_time;
		else
			secs = (int64_t) UINT32_MAX * 60; /* the partition's MaxTime=UNLIMITED */
		limit_min = (double) ((secs + 59) / 60);
		if (limit_min <= 0)
		{
			fs_fail(err, FS_ERR_DIVZERO, "job size relative to a time limit of 0 minutes");
			fs_error_detail(err, "PriorityFlags=SMALL_RELATIVE_TO_TIME divides the job's size by "
			                     "its time limit.");
			fs_error_hint(err, "Give the job (or its partition) a time limit of at least one "
			                   "minute.");
			return FS_ERR_DIVZERO;
		}
		v /= limit_min;
		v /= ccpus;
		if (cfg->favor_small)
			v = 1.0 - v;
	}
	else if (cfg->favor_small)
	{
		if (guard)
			v = cl->nodes > job->min_nodes ? (nodes - (double) job->min_nodes) / nodes : 0;
		else /* the unsigned difference of earlier releases */
			v = (double) (uint32_t) (cl->nodes - job->min_nodes) / nodes;
		if (job->cpus)
		{
			v += (double) (uint32_t) (cl->cpus - job->cpus) / ccpus;
			v /= 2;
		}
	}
	else
	{
		v = (double) job->min_nodes / nodes;
		if (job->cpus)
		{
			v += (double) job->cpus / ccpus;
			v /= 2;
		}
	}
	if (v > 1)
		v = 1;
	if (v < 0)
		v = 0;
	*js = v;
	return FS_OK;
}

fs_status
fs_sprio_priority(const fs_sprio_config *cfg, const fs_sprio_job *job, const fs_sprio_cluster *cl,
                  int64_t now, fs_sprio_result *r, fs_error *err)
{
	size_t i;
	int rank;
	double tres_sum = 0, p;
	double *tres = r->tres, *tres_f = r->tres_f;
	fs_status st;
	static const fs_sprio_result zero;

	*r = zero; /* a copy, not memset's rep stos: this runs once per job of a query */
	r->tres = tres;
	r->tres_f = tres_f;
	for (i = 0; i < cfg->n_tres; i++)
		tres[i] = tres_f[i] = 0;
	if (job->has_direct)
	{
		if (job->direct_priority < 0 || job->direct_priority > (int64_t) UINT32_MAX)
			return value_fail(err, "direct_priority", job->direct_priority,
			                  "An admin-set priority is from 0 (held) to 4294967295.");
		r->direct = true;
		r->priority = job->direct_priority;
		r->sum = (double) job->direct_priority;
		return FS_OK;
	}
	if (job->min_nodes < 0 || job->min_nodes > (int64_t) UINT32_MAX)
		return value_fail(err, "min_nodes", job->min_nodes,
		                  "A job asks for 0 to 4294967295 nodes.");
	if (job->cpus < 0 || job->cpus > (int64_t) UINT32_MAX)
		return value_fail(err, "cpus", job->cpus, "A job asks for 0 to 4294967295 CPUs.");
	if (cl->nodes < 0 || cl->nodes > (int64_t) UINT32_MAX || cl->cpus < 0 ||
	    cl->cpus > (int64_t) UINT32_MAX)
		return value_fail(err, cl->nodes < 0 || cl->nodes > (int64_t) UINT32_MAX ? "nodes" : "cpus",
		                  cl->nodes < 0 || cl->nodes > (int64_t) UINT32_MAX ? cl->nodes : cl->cpus,
		                  "A cluster has 0 to 4294967295 nodes and CPUs.");
	if (job->site_factor < -SPRIO_INT_LIMIT || job->site_factor > SPRIO_INT_LIMIT)
		return value_fail(err, "site_factor", job->site_factor,
		                  "SLURM refuses a SiteFactor beyond +-2147483645 (\"SiteFactor value out "
		                  "of range\").");
	if (job->nice < -SPRIO_INT_LIMIT || job->nice > SPRIO_INT_LIMIT)
		return value_fail(err, "nice", job->nice,
		                  "SLURM's nice values are from -2147483645 to 2147483645.");
	if (job->assoc_priority < 0 || job->qos_priority < 0 || job->partition_factor < 0)
		return value_fail(err,
		                  job->assoc_priority < 0 ? "assoc_priority"
		                  : job->qos_priority < 0 ? "qos_priority"
		                                          : "partition_factor",
		                  job->assoc_priority < 0 ? job->assoc_priority
		                  : job->qos_priority < 0 ? job->qos_priority
		                                          : job->partition_factor,
		                  "Association and QOS priorities and PriorityJobFactor are not negative.");
	if (!(job->fairshare >= 0 && job->fairshare <= 1))
	{
		fs_fail(err, FS_ERR_VALUE, "fairshare %g is out of range", job->fairshare);
		fs_error_hint(err, "A fair-share factor is from 0 to 1, as fairshare() gives it.");
		return FS_ERR_VALUE;
	}

	/* SLURM's maxima are over everything configured: a job cannot be above them */
	if ((!(cfg->flags & FS_SPRIO_NO_NORMAL_ASSOC) && cl->max_assoc_priority > 0 &&
	     job->assoc_priority > cl->max_assoc_priority) ||
	    (!(cfg->flags & FS_SPRIO_NO_NORMAL_QOS) && cl->max_qos_priority > 0 &&
	     job->qos_priority > cl->max_qos_priority) ||
	    (!(cfg->flags & FS_SPRIO_NO_NORMAL_PART) && cl->max_partition_factor > 1 &&
	     job->partition_factor > cl->max_partition_factor))
	{
		bool as = job->assoc_priority > cl->max_assoc_priority && cl->max_assoc_priority > 0;
		bool qs = !as && job->qos_priority > cl->max_qos_priority && cl->max_qos_priority > 0;

		fs_fail(err, FS_ERR_VALUE, "%s %lld is above the cluster's %s %lld",
		        as   ? "assoc_priority"
		        : qs ? "qos_priority"
		             : "partition_factor",
		        (long long) (as   ? job->assoc_priority
		                     : qs ? job->qos_priority
		                          : job->partition_factor),
		        as   ? "max_assoc_priority"
		        : qs ? "max_qos_priority"
		             : "max_partition_factor",
		        (long long) (as   ? cl->max_assoc_priority
		                     : qs ? cl->max_qos_priority
		                          : cl->max_partition_factor));
		fs_error_hint(err, "The maxima are over every configured association, QOS and partition, "
		                   "this job's included.");
		return FS_ERR_VALUE;
	}

	/* age: from the accrue time, full at PriorityMaxAge (strictly below it is a fraction) */
	if (cfg->weight_age && job->has_accrue)
	{
		uint32_t diff = now > job->accrue ? (uint32_t) (now - job->accrue) : 0;

		r->age_f = diff < cfg->max_age ? (double) diff / (double) cfg->max_age : 1.0;
	}
	/* association and QOS against the global maxima; partition against a maximum of at least 1 */
	if (cfg->flags & FS_SPRIO_NO_NORMAL_ASSOC)
		r->assoc_f = (double) job->assoc_priority;
	else if (cl->max_assoc_priority > 0)
		r->assoc_f = (double) job->assoc_priority / (double) cl->max_assoc_priority;
	if (cfg->weight_fairshare)
		r->fairshare_f = job->fairshare;
	if (cfg->weight_jobsize && (st = job_size(cfg, job, cl, &r->jobsize_f, err)) != FS_OK)
		return st;
	if (cfg->flags & FS_SPRIO_NO_NORMAL_PART)
		r->partition_f = (double) job->partition_factor;
	else
		r->partition_f = (double) job->partition_factor /
		                 (double) (cl->max_partition_factor > 1 ? cl->max_partition_factor : 1);
	if (cfg->flags & FS_SPRIO_NO_NORMAL_QOS)
		r->qos_f = (double) job->qos_priority;
	else if (cl->max_qos_priority > 0)
		r->qos_f = (double) job->qos_priority / (double) cl->max_qos_priority;

	r->age = r->age_f * (double) cfg->weight_age;
	r->assoc = r->assoc_f * (double) cfg->weight_assoc;
	r->fairshare = r->fairshare_f * (double) cfg->weight_fairshare;
	r->jobsize = r->jobsize_f * (double) cfg->weight_jobsize;
	r->partition = r->partition_f * (double) cfg->weight_partition;
	r->qos = r->qos_f * (double) cfg->weight_qos;
	/* TRES: the job's count over its partition's total, not capped at 1; raw with NO_NORMAL_TRES */
	for (i = 0; i < cfg->n_tres; i++)
	{
		double cnt = tres_amount(job->tres, &cfg->tres[i]);
		double tot = tres_amount(job->part_tres, &cfg->tres[i]);

		if (cfg->flags & FS_SPRIO_NO_NORMAL_TRES)
			tres_f[i] = cnt;
		else if (cnt != 0 && tot != 0)
			tres_f[i] = cnt / tot;
		tres[i] = tres_f[i] * cfg->tres[i].weight;
	}
	for (rank = 0; rank <= 8; rank++)
		for (i = 0; i < cfg->n_tres; i++)
			if (cfg->tres[i].rank == rank)
				tres_sum += tres[i];
	r->site = (double) job->site_factor;
	r->nice = (double) job->nice;
	p = r->age + r->assoc + r->fairshare + r->jobsize + r->partition + r->qos + tres_sum + r->site -
	    r->nice;
	if (!(p - p == 0))
	{
		fs_fail(err, FS_ERR_RANGE, "job priority is not finite");
		fs_error_hint(err, "Check the TRES amounts and weights.");
		return FS_ERR_RANGE;
	}
	r->sum = p;
	if (p < 1)
		p = 1;
	r->priority = p >= 4294967295.0 ? (int64_t) UINT32_MAX : (int64_t) p;
	if ((cfg->flags & FS_SPRIO_INCR_ONLY) && job->has_previous &&
	    job->previous_priority > r->priority)
		r->priority = job->previous_priority > (int64_t) UINT32_MAX ? (int64_t) UINT32_MAX
		                                                            : job->previous_priority;
	return FS_OK;
}

/* ---- a job's priority per partition and QOS ------------------------------------------------ */

/* The number of names in a comma list (an empty list has none). */
static size_t
names_count(fs_str list)
{
	size_t i, n = list.len ? 1 : 0;

	for (i = 0; i < list.len; i++)
		n += list.s[i] == ',';
	return n;
}

/* The k-th name of a comma list, from *pos on (advanced past it). */
static fs_str
names_next(fs_str list, size_t *pos)
{
	size_t b = *pos, e = b;

	while (e < list.len && list.s[e] != ',')
		e++;
	*pos = e + 1;
	return fs_str_of(list.s + b, e - b);
}

/* The job's comma list read into names, each checked: not empty, and found when there is an array.
 */
static fs_status
names_read(fs_str list, const char *what, const char *whats, const char *arg, bool have_array,
           fs_str *names, size_t n, fs_error *err)
{
	size_t k, pos = 0;

	if (n > 1 && !have_array)
	{
		fs_fail(err, FS_ERR_VALUE, "the job names %zu %s (\"%.*s\") but no %s array was given", n,
		        whats, (int) (list.len > 200 ? 200 : list.len), list.s, arg);
		fs_error_hint(err, "Pass the %s the job names, each with its own fields.", whats);
		return FS_ERR_VALUE;
	}
	for (k = 0; k < n; k++)
	{
		names[k] = names_next(list, &pos);
		if (names[k].len == 0)
		{
			fs_fail(err, FS_ERR_VALUE, "empty %s name in \"%.*s\"", what,
			        (int) (list.len > 200 ? 200 : list.len), list.s);
			fs_error_hint(err,
			              "Write the job's %s as SLURM does: names separated by commas, "
			              "\"batch,debug\".",
			              whats);
			return FS_ERR_VALUE;
		}
	}
	return FS_OK;
}

static fs_status
unknown_name(fs_error *err, const char *what, const char *arg, fs_str name)
{
	fs_fail(err, FS_ERR_VALUE, "%s \"%.*s\" of the job is not in the %s array", what,
	        (int) (name.len > 200 ? 200 : name.len), name.s, arg);
	fs_error_hint(err, "Every %s a job names needs its row in the array.", what);
	return FS_ERR_VALUE;
}

fs_status
fs_sprio_priority_each(const fs_sprio_config *cfg, const fs_sprio_job *job, fs_str partitions,
                       fs_str qos, const fs_sprio_part *parts, size_t nparts,
                       const fs_sprio_qos *qoss, size_t nqos, const fs_sprio_cluster *cl,
                       int64_t now, fs_sprio_pair **out, size_t *n, const fs_allocator *a,
                       fs_error *err)
{
	size_t np = names_count(partitions), nq = names_count(qos), i, k, m = 0;
	size_t pp = np ? np : 1, qq = nq ? nq : 1;
	fs_str *pn, *qn;
	const fs_sprio_part **pf;
	const fs_sprio_qos **qf;
	fs_sprio_pair *pairs;
	fs_status st;

	*out = NULL;
	*n = 0;
	if (pp > FS_SPRIO_PAIRS_MAX / qq)
	{
		fs_fail(err, FS_ERR_LIMIT, "a job of %zu partitions and %zu QOS has too many pairs", pp,
		        qq);
		fs_error_detail(err, "The limit is %d (partition, QOS) pairs.", FS_SPRIO_PAIRS_MAX);
		fs_error_hint(err, "SLURM keeps one priority per pair; list fewer partitions or QOS.");
		return FS_ERR_LIMIT;
	}
	pn = a->alloc(a->ctx, sizeof(fs_str) * pp);
	qn = a->alloc(a->ctx, sizeof(fs_str) * qq);
	pf = a->alloc(a->ctx, sizeof(*pf) * pp);
	qf = a->alloc(a->ctx, sizeof(*qf) * qq);
	pn[0] = qn[0] = fs_str_of(NULL, 0);
	pf[0] = NULL;
	qf[0] = NULL;
	if ((st = names_read(partitions, "partition", "partitions", "partitions", parts != NULL, pn, np,
	                     err)) != FS_OK ||
	    (st = names_read(qos, "QOS", "QOS", "qos", qoss != NULL, qn, nq, err)) != FS_OK)
		goto done;
	/* each name's row: a linear search of the (short) arrays */
	for (i = 0; i < pp; i++)
	{
		pf[i] = NULL;
		if (parts == NULL || np == 0)
			continue;
		for (k = 0; k < nparts && pf[i] == NULL; k++)
		{
			FS_POLL(k);
			if (fs_str_eq(parts[k].name, pn[i]))
				pf[i] = &parts[k];
		}
		if (pf[i] == NULL)
		{
			st = unknown_name(err, "partition", "partitions", pn[i]);
			goto done;
		}
	}
	for (i = 0; i < qq; i++)
	{
		qf[i] = NULL;
		if (qoss == NULL || nq == 0)
			continue;
		for (k = 0; k < nqos && qf[i] == NULL; k++)
		{
			FS_POLL(k);
			if (fs_str_eq(qoss[k].name, qn[i]))
				qf[i] = &qoss[k];
		}
		if (qf[i] == NULL)
		{
			st = unknown_name(err, "QOS", "qos", qn[i]);
			goto done;
		}
	}
	pairs = a->alloc(a->ctx, sizeof(fs_sprio_pair) * pp * qq);
	for (i = 0; i < pp; i++)
		for (k = 0; k < qq; k++)
		{
			fs_sprio_job j = *job;
			fs_sprio_pair *pr = &pairs[m];

			FS_POLL(m);
			/* the scalar previous priority is a one-pair job's; several pairs keep one each */
			if (pp * qq > 1)
				j.has_previous = false;
			if (pf[i])
			{
				j.partition_factor = pf[i]->factor;
				j.has_part_max_time = pf[i]->has_max_time;
				j.part_max_time = pf[i]->max_time;
				j.part_tres = pf[i]->tres;
			}
			if (qf[k] && qf[k]->priority != 0)
				j.qos_priority = qf[k]->priority;
			pr->partition = pn[i];
			pr->qos = qn[k];
			pr->r.tres = a->alloc(a->ctx, sizeof(double) * (cfg->n_tres + 1));
			pr->r.tres_f = a->alloc(a->ctx, sizeof(double) * (cfg->n_tres + 1));
			m++;
			if ((st = fs_sprio_priority(cfg, &j, cl, now, &pr->r, err)) != FS_OK)
			{
				fs_error_context(err, "in partition \"%.*s\", QOS \"%.*s\"",
				                 (int) pr->partition.len, pr->partition.s ? pr->partition.s : "",
				                 (int) pr->qos.len, pr->qos.s ? pr->qos.s : "");
				for (i = 0; i < m; i++)
				{
					a->release(a->ctx, pairs[i].r.tres);
					a->release(a->ctx, pairs[i].r.tres_f);
				}
				a->release(a->ctx, pairs);
				goto done;
			}
		}
	*out = pairs;
	*n = m;
done:
	a->release(a->ctx, pn);
	a->release(a->ctx, qn);
	a->release(a->ctx, pf);
	a->release(a->ctx, qf);
	return st;
}

/* A pair's name as an error message quotes it (at most 200 bytes). */
#define PAIR_NAME(x) (int) ((x).len > 200 ? 200 : (x).len), (x).s ? (x).s : ""

fs_status
fs_sprio_pairs_incr_only(const fs_sprio_config *cfg, fs_sprio_pair *pairs, size_t n,
                         const fs_sprio_prev *prev, size_t nprev, fs_error *err)
{
	size_t i, k, found;

	for (i = 0; i < nprev; i++)
	{
		const fs_sprio_prev *e = &prev[i];

		if (e->priority < 0 || e->priority > (int64_t) UINT32_MAX)
		{
			fs_fail(err, FS_ERR_VALUE,
			        "previous priority %lld of partition \"%.*s\", QOS \"%.*s\" is out of range",
			        (long long) e->priority, PAIR_NAME(e->partition), PAIR_NAME(e->qos));
			fs_error_hint(err, "SLURM stores priorities from 0 to 4294967295.");
			return FS_ERR_VALUE;
		}
		for (k = 0; k < i; k++)
		{
			FS_POLL(k);
			if (fs_str_eq(prev[k].partition, e->partition) && fs_str_eq(prev[k].qos, e->qos))
			{
				fs_fail(err, FS_ERR_VALUE,
				        "two previous priorities for partition \"%.*s\", QOS \"%.*s\"",
				        PAIR_NAME(e->partition), PAIR_NAME(e->qos));
				fs_error_hint(err, "Give each (partition, QOS) pair of the job at most one.");
				return FS_ERR_VALUE;
			}
		}
		found = n;
		for (k = 0; k < n && found == n; k++)
		{
			FS_POLL(k);
			if (fs_str_eq(pairs[k].partition, e->partition) && fs_str_eq(pairs[k].qos, e->qos))
				found = k;
		}
		if (found == n)
		{
			fs_fail(
			    err, FS_ERR_VALUE,
			    "previous priority of partition \"%.*s\", QOS \"%.*s\" names no pair of the job",
			    PAIR_NAME(e->partition), PAIR_NAME(e->qos));
			fs_error_hint(err, "Give previous priorities for the partitions and QOS the job names "
			                   "(its partition and qos lists).");
			return FS_ERR_VALUE;
		}
		if ((cfg->flags & FS_SPRIO_INCR_ONLY) && !pairs[found].r.direct &&
		    e->priority > pairs[found].r.priority)
			pairs[found].r.priority = e->priority;
	}
	return FS_OK;
}

#undef PAIR_NAME

/* ---- what sprio prints ---------------------------------------------------------------------- */

/* One word of a command line: its text (quotes removed) and where it started. */
typedef struct opt_word
{
	fs_str w;
	size_t at;
} opt_word;

/*
 * The next word from *i: white space splits, '...' and "..." group (no escapes, as a shell's single
 * quotes). A word with quotes is copied without them into *dst (room for len bytes in all).
 * False at the end; an unclosed quote is an error.
 */
static fs_status
next_word(const char *s, size_t len, size_t *i, char **dst, opt_word *ow, bool *found,
          fs_error *err)
{
	size_t j = *i, start;
	char *d = *dst, *d0 = *dst;
	bool quoted = false;

	*found = false;
	while (j < len && fs_is_space(s[j]))
		j++;
	if (j == len)
		return *i = j, FS_OK;
	start = j;
	while (j < len && !fs_is_space(s[j]))
	{
		if (s[j] == '\'' || s[j] == '"')
		{
			char q = s[j];
			size_t k = j + 1;

			while (k < len && s[k] != q)
				k++;
			if (k == len)
			{
				fs_fail_syntax(err, "sprio options", s, len, j, "Unterminated quote",
				               "Close the quote: -o \"%.15i %.10Y\".");
				return FS_ERR_SYNTAX;
			}
			if (!quoted)
			{
				memcpy(d, s + start, j - start);
				d += j - start;
				quoted = true;
			}
			memcpy(d, s + j + 1, k - j - 1);
			d += k - j - 1;
			j = k + 1;
			continue;
		}
		if (quoted)
			*d++ = s[j];
		j++;
	}
	ow->at = start;
	if (quoted)
	{
		ow->w = fs_str_of(d0, (size_t) (d - d0));
		*dst = d;
	}
	else
		ow->w = fs_str_of(s + start, j - start);
	if (ow->w.s == NULL)
		ow->w.s = s + start; /* "" is an empty argument, not a missing one */
	*found = true;
	*i = j;
	return FS_OK;
}

/* The -S letters sprio sorts by (sort.c); weighted and normalised letters sort alike. */
static bool
sort_letter(char c)
{
	return c != '\0' && strchr("ciNnoruAaFfJjPpQqTtYy", c) != NULL;
}

static fs_status
sort_parse(fs_str spec, fs_sprio_opts *o, const char *s, size_t len, size_t at, fs_error *err)
{
	size_t i;

	o->nsort = 0;
	for (i = 0; i < spec.len; i++)
	{
		char c = spec.s[i];

		if (c == ',' || c == '-' || c == '+')
			continue;
		if (!sort_letter(c))
		{
			fs_fail_syntax(err, "sprio options", s, len, at, "Invalid sort specification",
			               "The -S letters are c i N n o r u and A F J P Q T Y (or a f j p q t y), "
			               "each optionally after + or -.");
			fs_error_detail(err, "sprio: error: Invalid sort specification: %c", c);
			return FS_ERR_SYNTAX;
		}
		if (o->nsort == FS_SPRIO_SORT_MAX)
		{
			fs_fail_syntax(err, "sprio options", s, len, at, "Too many sort keys",
			               "Give at most 32 sort keys.");
			return FS_ERR_SYNTAX;
		}
		o->sort[o->nsort] = c;
		o->descend[o->nsort++] = i > 0 && spec.s[i - 1] == '-';
	}
	return FS_OK;
}

void
fs_sprio_opts_free(fs_sprio_opts *o, const fs_allocator *a)
{
	if (o->buf)
		a->release(a->ctx, o->buf);
	o->buf = NULL;
}

/* Long options: name, the short letter they stand for, and whether they take an argument. */
static const struct
{
	const char *name;
	char letter;
	int arg; /* 0 none, 1 required, 2 optional (only in the same word, after '=') */
} long_opts[] = {
    {"noheader", 'h', 0},   {"jobs", 'j', 2},    {"long", 'l', 0},      {"norm", 'n', 0},
    {"format", 'o', 1},     {"sort", 'S', 1},    {"partition", 'p', 1}, {"user", 'u', 1},
    {"users", 'u', 1},      {"weights", 'w', 0}, {"cluster", 'M', 1},   {"clusters", 'M', 1},
    {"federation", 'F', 0}, {"local", 'L', 0},   {"sib", 'B', 0},       {"sibling", 'B', 0}};

/* Apply one option with its argument (NULL when it has none). */
static fs_status
apply_opt(fs_sprio_opts *o, char c, const fs_str *arg, const char *s, size_t len, size_t at,
          fs_error *err)
{
	switch (c)
	{
		case 'h':
			o->flags |= FS_SPRIO_OPT_NOHEADER;
			return FS_OK;
		case 'l':
			o->flags |= FS_SPRIO_OPT_LONG;
			return FS_OK;
		case 'n':
			o->flags |= FS_SPRIO_OPT_NORM;
			return FS_OK;
		case 'w':
			o->flags |= FS_SPRIO_OPT_WEIGHTS;
			return FS_OK;
		case 'j':
			o->has_jobs = true;
			o->jobs = arg ? *arg : fs_str_of(NULL, 0);
			o->jobs_given = arg != NULL;
			return FS_OK;
		case 'o':
			o->has_format = true;
			o->format = *arg;
			return FS_OK;
		case 'S':
			return sort_parse(*arg, o, s, len, at, err);
		case 'p':
			o->has_parts = true;
			o->parts = *arg;
			return FS_OK;
		case 'u':
			o->has_users = true;
			o->users = *arg;
			return FS_OK;
	}
	fs_fail_syntax(err, "sprio options", s, len, at, "Unsupported option",
	               "-M, --federation, --local and --sibling ask a live controller; give the "
	               "jobs of one cluster instead.");
	return FS_ERR_SYNTAX;
}

fs_status
fs_sprio_options_parse(const char *s, size_t len, fs_sprio_opts *o, const fs_allocator *a,
                       fs_error *err)
{
	size_t i = 0;
	char *dst;
	opt_word ow, left = {{NULL, 0}, 0};
	bool found, have_left = false;
	fs_status st = FS_OK;

	memset(o, 0, sizeof(*o));
	o->buf = dst = a->alloc(a->ctx, len + 1);
	for (;;)
	{
		size_t k;

		if ((st = next_word(s, len, &i, &dst, &ow, &found, err)) != FS_OK || !found)
			break;
		if (ow.w.len >= 2 && ow.w.s[0] == '-' && ow.w.s[1] == '-')
		{
			/* a long option: --name, --name=value or --name value */
			fs_str name = fs_str_of(ow.w.s + 2, ow.w.len - 2), val = {NULL, 0};
			const char *eq = memchr(name.s ? name.s : "", '=', name.len);
			size_t nl = eq ? (size_t) (eq - name.s) : name.len, m;

			for (m = 0; m < sizeof(long_opts) / sizeof(long_opts[0]); m++)
				if (strlen(long_opts[m].name) == nl && memcmp(long_opts[m].name, name.s, nl) == 0)
					break;
			if (m == sizeof(long_opts) / sizeof(long_opts[0]) || (eq && long_opts[m].arg == 0))
				goto bad;
			if (eq)
				val = fs_str_of(eq + 1, name.len - nl - 1), val.s = eq + 1;
			else if (long_opts[m].arg == 1)
			{
				size_t at = ow.at;

				if ((st = next_word(s, len, &i, &dst, &ow, &found, err)) != FS_OK)
					break;
				if (!found)
					goto missing;
				val = ow.w;
				ow.at = at;
			}
			if ((st = apply_opt(o, long_opts[m].letter, eq || long_opts[m].arg == 1 ? &val : NULL,
			                    s, len, ow.at, err)) != FS_OK)
				break;
			continue;
		}
		if (ow.w.len < 2 || ow.w.s[0] != '-')
		{
			/* a word that is no option: the job list of a -j without one, once */
			if (have_left)
				goto unrecognized;
			left = ow;
			have_left = true;
			continue;
		}
		for (k = 1; k < ow.w.len; k++)
		{
			char c = ow.w.s[k];
			fs_str val;

			if (strchr("hlnw", c))
			{
				if ((st = apply_opt(o, c, NULL, s, len, ow.at, err)) != FS_OK)
					return fs_sprio_opts_free(o, a), st;
				continue;
			}
			if (c == 'j')
			{
				val = fs_str_of(ow.w.s + k + 1, ow.w.len - k - 1);
				apply_opt(o, 'j', k + 1 < ow.w.len ? &val : NULL, s, len, ow.at, err);
				break;
			}
			if (!strchr("oSpuM", c))
				goto bad;
			if (k + 1 < ow.w.len)
				val = fs_str_of(ow.w.s + k + 1, ow.w.len - k - 1);
			else
			{
				size_t at = ow.at;

				if ((st = next_word(s, len, &i, &dst, &ow, &found, err)) != FS_OK)
					return fs_sprio_opts_free(o, a), st;
				if (!found)
					goto missing;
				val = ow.w;
				ow.at = at;
			}
			if ((st = apply_opt(o, c, &val, s, len, ow.at, err)) != FS_OK)
				return fs_sprio_opts_free(o, a), st;
			break;
		}
	}
	if (st != FS_OK)
		return fs_sprio_opts_free(o, a), st;
	if (have_left)
	{
		if (!o->has_jobs || o->jobs_given)
		{
			ow = left;
			goto unrecognized;
		}
		o->jobs = left.w;
		o->jobs_given = true;
	}
	if ((o->flags & FS_SPRIO_OPT_LONG) && o->has_format)
	{
		fs_fail(err, FS_ERR_SYNTAX, "invalid sprio options: -o and -l together");
		fs_error_detail(err, "sprio: fatal: Options -o(--format) and -l(--long) are mutually "
		                     "exclusive. Please remove one and retry.");
		fs_error_hint(err, "Give either -l or -o FORMAT.");
		return fs_sprio_opts_free(o, a), FS_ERR_SYNTAX;
	}
	return FS_OK;
bad:
	fs_fail_syntax(err, "sprio options", s, len, ow.at, "Unsupported option",
	               "The options are -l, -n, -w, -h, -o FORMAT, -S SORT, -j [JOBS], -p PARTITIONS "
	               "and -u USERS (or their long forms).");
	return fs_sprio_opts_free(o, a), FS_ERR_SYNTAX;
missing:
	fs_fail_syntax(err, "sprio options", s, len, len, "Option requires an argument",
	               "Give the option its argument: -o FORMAT, -S SORT, -p PARTITIONS, -u USERS.");
	return fs_sprio_opts_free(o, a), FS_ERR_SYNTAX;
unrecognized:
	fs_fail_syntax(err, "sprio options", s, len, ow.at, "Unrecognized option",
	               "A word that is not an option is the job list of -j; give it once, after -j.");
	return fs_sprio_opts_free(o, a), FS_ERR_SYNTAX;
}

/* A column of a format: its letter (0 for the prefix), width, justification and suffix. */
typedef struct sprio_col
{
	char letter;
	int width;
	bool right;
	fs_str suffix;
} sprio_col;

static const char *
col_title(char letter)
{
	switch (fs_ascii_lower(letter))
	{
		case 'i':
			return "JOBID";
		case 'r':
			return "PARTITION";
		case 'u':
			return "USER";
		case 'o':
			return "ACCOUNT";
		case 'y':
			return "PRIORITY";
		case 's':
			return "SITE";
		case 'a':
			return "AGE";
		case 'b':
			return "ASSOC";
		case 'f':
			return "FAIRSHARE";
		case 'j':
			return "JOBSIZE";
		case 'p':
			return "PARTITION";
		case 'n':
			return letter == 'n' ? "QOSNAME" : "NICE";
		case 'q':
			return "QOS";
		case 't':
			return "TRES";
		case 'c':
			return "CLUSTER";
	}
	return "";
}

/* The format sprio builds for -l, -n -l and the default layout (sprio.c). */
static void
layout(const fs_sprio_config *cfg, int opts, fs_sb *f)
{
	bool norm = (opts & FS_SPRIO_OPT_NORM) != 0, v2302 = cfg->version >= 2302;

	fs_sb_append(f, "%.15i %9r", 9);
	if (opts & FS_SPRIO_OPT_LONG)
	{
		fs_sb_append(f, " %.8u", 5);
		if (v2302)
			fs_sb_append(f, " %.8o", 5);
		if (norm)
			fs_sb_appendf(f, " %%10y %%10a %%10b %%10f %%10j %%10p%s %%10q %%20t",
			              v2302 ? " %10n" : "");
		else
			fs_sb_appendf(f,
			              " %%.10Y %%.10S %%.10A %%.10B %%.10F %%.10J %%.10P%s %%.10Q %%.11N "
			              "%%.20T",
			              v2302 ? " %.10n" : "");
		return;
	}
	/* sprio -n's default format (%10y %10a ...) has no SITE column */
	fs_sb_append(f, norm ? " %10y" : " %.10Y %.10S", norm ? 5 : 12);
	if (cfg->weight_age)
		fs_sb_append(f, norm ? " %10a" : " %.10A", norm ? 5 : 6);
	if (cfg->weight_assoc)
		fs_sb_append(f, norm ? " %10b" : " %.10B", norm ? 5 : 6);
	if (cfg->weight_fairshare)
		fs_sb_append(f, norm ? " %10f" : " %.10F", norm ? 5 : 6);
	if (cfg->weight_jobsize)
		fs_sb_append(f, norm ? " %10j" : " %.10J", norm ? 5 : 6);
	if (cfg->weight_partition)
		fs_sb_append(f, norm ? " %10p" : " %.10P", norm ? 5 : 6);
	if (cfg->weight_qos)
		fs_sb_append(f, norm ? " %10q" : " %.10Q", norm ? 5 : 6);
	if (cfg->weight_tres)
		fs_sb_append(f, norm ? " %20t" : " %.20T", norm ? 5 : 6);
}

/* The letters a release's sprio formats know (opts.c fmt_data; o and n since 23.02). */
static bool
format_letter(const fs_sprio_config *cfg, char c)
{
	if (c == 'o' || c == 'n')
		return cfg->version >= 2302;
	return c != '\0' && strchr("aAbBcfFiNjJpPrSqQuyYtT", c) != NULL;
}

/*
 * A format into columns as sprio's parse_format reads it: the text before the first '%' is a
 * prefix printed at the start of every line; then each '%' piece is [.][width]letter[suffix],
 * '.' right-justifying; empty pieces ("%%") are skipped, as strtok skips them, and a piece whose
 * letter the release does not know is dropped with its suffix. Returns the number of columns;
 * *bad the first unknown letter. cols has room for len + 1.
 */
static size_t
format_parse(const fs_sprio_config *cfg, fs_str f, sprio_col *cols, char *bad)
{
	size_t i = 0, n = 0;

	while (i < f.len && f.s[i] != '%')
		i++;
	if (i > 0)
	{
		cols[n].letter = 0;
		cols[n].width = 0;
		cols[n].right = false;
		cols[n].suffix = fs_str_of(f.s, i);
		n++;
	}
	while (i < f.len)
	{
		size_t j;
		sprio_col c;

		i++; /* the '%' */
		if (i >= f.len || f.s[i] == '%')
			continue;
		c.right = f.s[i] == '.';
		if (c.right)
			i++;
		c.width = 0;
		while (i < f.len && fs_is_digit(f.s[i]))
		{
			if (c.width < 100000)
				c.width = c.width * 10 + (f.s[i] - '0');
			i++;
		}
		c.letter = i < f.len ? f.s[i++] : '\0';
		j = i;
		while (j < f.len && f.s[j] != '%')
			j++;
		c.suffix = fs_str_of(f.s + i, j - i);
		i = j;
		if (!format_letter(cfg, c.letter))
		{
			if (*bad == 0)
				*bad = c.letter ? c.letter : '?';
			continue;
		}
		cols[n++] = c;
	}
	return n;
}

/* One cell as sprio's _print_str prints it: cut to its width, padded to it; then its suffix. */
static void
pad(fs_sb *out, size_t n)
{
	static const char spaces[] = "                                ";

	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fs_sb_append(out, spaces, sizeof(spaces) - 1);
	if (n)
		fs_sb_append(out, spaces, n);
}

static void
put_cell(fs_sb *out, const sprio_col *c, const char *s, size_t len)
{
	size_t w = (size_t) c->width;

	if (w && len > w)
		len = w;
	if (c->right && len < w)
		pad(out, w - len);
	if (len)
		fs_sb_append(out, s, len);
	if (!c->right && len < w)
		pad(out, w - len);
	if (c->suffix.len)
		fs_sb_append(out, c->suffix.s, c->suffix.len);
}

/* The TRES list: name=weighted (%.0f) or name=factor (%.2f), zero entries left out. */
static void
tres_cell(fs_sb *sb, const fs_sprio_config *cfg, const fs_sprio_result *r, bool norm)
{
	size_t i;
	bool any = false;

	for (i = 0; i < cfg->n_tres; i++)
	{
		double v = r->tres[i];

		if (v == 0)
			continue;
		if (norm)
			v = cfg->tres[i].weight != 0 ? v / cfg->tres[i].weight : 0;
		fs_sb_appendf(sb, norm ? "%s%s=%.2f" : "%s%s=%.0f", any ? "," : "", cfg->tres[i].name, v);
		any = true;
	}
}

static void
norm_cell(fs_sb *sb, double weighted, uint32_t weight)
{
	fs_sb_appendf(sb, "%.7f", weight ? weighted / (double) weight : 0.0);
}

/* A piece of text, which may be absent (NULL, 0). */
static void
append_str(fs_sb *sb, fs_str t)
{
	if (t.len)
		fs_sb_append(sb, t.s, t.len);
}

/* The text of a cell of a job's row. */
static void
job_cell(fs_sb *sb, const fs_sprio_config *cfg, const fs_sprio_row *row, char letter)
{
	const fs_sprio_result *r = row->r;
	double y = r->sum < 1 ? 1 : r->sum;
	long long yi = r->direct ? (long long) r->priority : (long long) y;

	switch (letter)
	{
		case 'i':
			append_str(sb, row->job_id);
			break;
		case 'r':
			append_str(sb, row->partition);
			break;
		case 'u':
			append_str(sb, row->user);
			break;
		case 'o':
			append_str(sb, row->account);
			break;
		case 'n':
			append_str(sb, row->qos);
			break;
		case 'Y':
			fs_sb_appendf(sb, "%lld", yi);
			break;
		case 'y':
			/* of the sum, not of PRIORITY's truncated value: SLURM 22.05 prints 0.00000208
			 * for a sum of 8933.8 whose PRIORITY is 8933 (8933 / 4294967295 = 0.00000207...) */
			fs_sb_appendf(sb, "%16.14f", r->direct ? (double) yi : y / 4294967295.0);
			break;
		case 'S':
			fs_sb_appendf(sb, "%lld", (long long) r->site);
			break;
		case 'N':
			fs_sb_appendf(sb, "%lld", (long long) r->nice);
			break;
		case 'A':
			fs_sb_appendf(sb, "%.0f", r->age);
			break;
		case 'B':
			fs_sb_appendf(sb, "%.0f", r->assoc);
			break;
		case 'F':
			fs_sb_appendf(sb, "%.0f", r->fairshare);
			break;
		case 'J':
			fs_sb_appendf(sb, "%.0f", r->jobsize);
			break;
		case 'P':
			fs_sb_appendf(sb, "%.0f", r->partition);
			break;
		case 'Q':
			fs_sb_appendf(sb, "%.0f", r->qos);
			break;
		case 'a':
			norm_cell(sb, r->age, cfg->weight_age);
			break;
		case 'b':
			norm_cell(sb, r->assoc, cfg->weight_assoc);
			break;
		case 'f':
			norm_cell(sb, r->fairshare, cfg->weight_fairshare);
			break;
		case 'j':
			norm_cell(sb, r->jobsize, cfg->weight_jobsize);
			break;
		case 'p':
			norm_cell(sb, r->partition, cfg->weight_partition);
			break;
		case 'q':
			norm_cell(sb, r->qos, cfg->weight_qos);
			break;
		case 'T':
		case 't':
			tres_cell(sb, cfg, r, letter == 't');
			break;
	}
}

/* The -w row: "Weights", the site weight 1, each weight, the TRES weights as written. */
static void
weight_cell(fs_sb *sb, const fs_sprio_config *cfg, char letter)
{
	uint32_t w = 0;

	switch (fs_ascii_lower(letter))
	{
		case 'i':
			fs_sb_append(sb, "Weights", 7);
			return;
		case 's':
			fs_sb_append(sb, "1", 1);
			return;
		case 'a':
			w = cfg->weight_age;
			break;
		case 'b':
			w = cfg->weight_assoc;
			break;
		case 'f':
			w = cfg->weight_fairshare;
			break;
		case 'j':
			w = cfg->weight_jobsize;
			break;
		case 'p':
			w = cfg->weight_partition;
			break;
		case 'q':
			w = cfg->weight_qos;
			break;
		case 't':
			/* as written under %T; sprio -n -w leaves %t blank */
			if (cfg->weight_tres && letter == 'T')
				fs_sb_append(sb, cfg->weight_tres, strlen(cfg->weight_tres));
			return;
		default:
			return;
	}
	if (letter == 'n')
		return;
	fs_sb_appendf(sb, "%u", w);
}

/* SLURM's NO_VAL: the task id of a job that is not an array task. */
#define SPRIO_NO_TASK 4294967294LL

/* A job id as numbers: "123" is 123 (no task), an array task "123_4" is 123 and task 4. */
static bool
id_parse(fs_str id, int64_t *num, int64_t *task)
{
	size_t u;

	*task = SPRIO_NO_TASK;
	for (u = 0; u < id.len && id.s[u] != '_'; u++)
		;
	if (!fs_parse_digits(id.s, u, INT64_MAX, num))
		return false;
	return u == id.len || fs_parse_digits(id.s + u + 1, id.len - u - 1, INT64_MAX, task);
}

/*
 * Job ids in SLURM's order: numeric ids by number (an array's tasks by task id), before any id
 * that is not a number, which compare as text (a total order, whatever the mix).
 */
static int
id_cmp(bool an, int64_t anum, int64_t atask, fs_str a, bool bn, int64_t bnum, int64_t btask,
       fs_str b)
{
	if (an != bn)
		return an ? -1 : 1;
	if (!an)
		return fs_str_cmp(a, b);
	if (anum != bnum)
		return anum < bnum ? -1 : 1;
	return (atask > btask) - (atask < btask);
}

/* sprio's default order: job id ascending; then the input order (the sort is stable). */
static int
job_id_cmp(const void *pa, const void *pb, void *ctx)
{
	const fs_sprio_row *a = pa, *b = pb;

	(void) ctx;
	return id_cmp(a->id_numeric, a->id_num, a->id_task, a->job_id, b->id_numeric, b->id_num,
	              b->id_task, b->job_id);
}

/* The steps of the main scheduler's order, and the one that decides between two keys. */
static const char *const order_steps[] = {"partition_tier", "priority", "submit_time", "job_id",
                                          "input_order"};

static int
order_step(const fs_sprio_order_key *a, const fs_sprio_order_key *b, int *c)
{
	if (a->tier != b->tier)
		return *c = a->tier > b->tier ? -1 : 1, 0;
	if (a->priority != b->priority)
		return *c = a->priority > b->priority ? -1 : 1, 1;
	if (a->submit != b->submit)
		return *c = a->submit < b->submit ? -1 : 1, 2;
	if ((*c = id_cmp(a->id_numeric, a->id_num, a->id_task, a->job_id, b->id_numeric, b->id_num,
	                 b->id_task, b->job_id)) != 0)
		return 3;
	*c = (a->index > b->index) - (a->index < b->index);
	return 4;
}

static int
order_cmp(const void *pa, const void *pb, void *ctx)
{
	int c;

	(void) ctx;
	(void) order_step(pa, pb, &c);
	return c;
}

void
fs_sprio_order(fs_sprio_order_key *keys, size_t n, const char **decided, const fs_allocator *a)
{
	size_t i;
	int c;

	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		keys[i].id_numeric = id_parse(keys[i].job_id, &keys[i].id_num, &keys[i].id_task);
	}
	fs_sort(keys, n, sizeof(*keys), order_cmp, NULL, a);
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		decided[i] = i == 0 ? NULL : order_steps[order_step(&keys[i - 1], &keys[i], &c)];
	}
}

/* Whether a comma list (-p, -u) names s exactly. */
static bool
list_has(fs_str list, fs_str s)
{
	size_t pos = 0;

	while (pos <= list.len)
	{
		fs_str w = names_next(list, &pos);

		if (w.len && fs_str_eq(w, s))
			return true;
	}
	return false;
}

/* Whether -j's list names this job: ids as numbers (an array task's when given), else as text. */
static bool
jobs_has(fs_str list, fs_str id)
{
	size_t pos = 0;
	int64_t n, t, ln, lt;
	bool num = id_parse(id, &n, &t);

	while (pos <= list.len)
	{
		fs_str w = names_next(list, &pos);

		if (w.len == 0)
			continue;
		if (num && id_parse(w, &ln, &lt) ? ln == n && (lt == SPRIO_NO_TASK || lt == t)
		                                 : fs_str_eq(w, id))
			return true;
	}
	return false;
}

/* sprio's priority of a row (get_priority_from_factors): the set one, else the sum, at least 1. */
static double
row_priority(const fs_sprio_row *r)
{
	if (r->r->direct)
		return (double) r->r->priority;
	return r->r->sum < 1 ? 1 : r->r->sum;
}

static double
row_tres(const fs_sprio_row *r, size_t ntres)
{
	double t = 0;
	size_t i;

	for (i = 0; i < ntres; i++)
		t += r->r->tres[i];
	return t;
}

typedef struct sort_ctx
{
	const fs_sprio_opts *o;
	size_t ntres;
} sort_ctx;

/* Doubles as sprio compares them: equal within 1e-6 (fuzzy_equal). */
static int
fuzzy_cmp(double a, double b)
{
	if (a - b > -1e-6 && a - b < 1e-6)
		return 0;
	return a < b ? -1 : 1;
}

/* One -S key between two rows, ascending. */
static int
sort_key_cmp(char c, const fs_sprio_row *a, const fs_sprio_row *b, size_t ntres)
{
	switch (c)
	{
		case 'i':
			return id_cmp(a->id_numeric, a->id_num, a->id_task, a->job_id, b->id_numeric, b->id_num,
			              b->id_task, b->job_id);
		case 'N':
			return (a->r->nice > b->r->nice) - (a->r->nice < b->r->nice);
		case 'n':
			return fs_str_cmp(a->qos, b->qos);
		case 'o':
			return fs_str_cmp(a->account, b->account);
		case 'r':
			return fs_str_cmp(a->partition, b->partition);
		case 'u':
			return fs_str_cmp(a->user, b->user);
		case 'A':
		case 'a':
			return fuzzy_cmp(a->r->age, b->r->age);
		case 'F':
		case 'f':
			return fuzzy_cmp(a->r->fairshare, b->r->fairshare);
		case 'J':
		case 'j':
			return fuzzy_cmp(a->r->jobsize, b->r->jobsize);
		case 'P':
		case 'p':
			return fuzzy_cmp(a->r->partition, b->r->partition);
		case 'Q':
		case 'q':
			return fuzzy_cmp(a->r->qos, b->r->qos);
		case 'T':
		case 't':
			return fuzzy_cmp(row_tres(a, ntres), row_tres(b, ntres));
		case 'Y':
		case 'y':
			return fuzzy_cmp(row_priority(a), row_priority(b));
	}
	return 0; /* 'c': one cluster */
}

/* The -S keys in turn, the first primary (sprio sorts by each from the last, stably). */
static int
sort_cmp(const void *pa, const void *pb, void *ctx)
{
	const sort_ctx *sc = ctx;
	size_t k;

	for (k = 0; k < sc->o->nsort; k++)
	{
		int c = sort_key_cmp(sc->o->sort[k], pa, pb, sc->ntres);

		if (c != 0)
			return sc->o->descend[k] ? -c : c;
	}
	return 0;
}

void
fs_sprio_print(const fs_sprio_config *cfg, fs_sprio_row *rows, size_t n, const fs_sprio_opts *o,
               fs_sb *out, char *bad_letter, const fs_allocator *a)
{
	sprio_col *cols;
	size_t nc, i, k, kept = 0;
	fs_sb cell, fmt;
	fs_str f;
	sort_ctx sc;

	*bad_letter = 0;
	fs_sb_init(&cell, a, 64);
	fs_sb_init(&fmt, a, 256);
	if (o->has_format)
		f = o->format;
	else
	{
		layout(cfg, o->flags, &fmt);
		f = fs_str_of(fmt.data, fmt.len);
	}
	cols = a->alloc(a->ctx, sizeof(sprio_col) * (f.len + 1));
	nc = format_parse(cfg, f, cols, bad_letter);
	if (!(o->flags & FS_SPRIO_OPT_NOHEADER))
	{
		for (k = 0; k < nc; k++)
		{
			const char *t = cols[k].letter ? col_title(cols[k].letter) : "";

			put_cell(out, &cols[k], t, strlen(t));
		}
		fs_sb_append(out, "\n", 1);
	}
	if (o->flags & FS_SPRIO_OPT_WEIGHTS)
	{
		for (k = 0; k < nc; k++)
		{
			cell.len = 0;
			if (cols[k].letter)
				weight_cell(&cell, cfg, cols[k].letter);
			put_cell(out, &cols[k], cell.data, cell.len);
		}
		fs_sb_append(out, "\n", 1);
		goto done;
	}
	/* the filters of -j, -p and -u, keeping the input order */
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		if ((o->has_jobs && o->jobs_given && !jobs_has(o->jobs, rows[i].job_id)) ||
		    (o->has_parts && !list_has(o->parts, rows[i].partition)) ||
		    (o->has_users && !list_has(o->users, rows[i].user)))
			continue;
		rows[kept] = rows[i];
		/* each id read once, not once per comparison of the sorts */
		rows[kept].id_numeric =
		    id_parse(rows[kept].job_id, &rows[kept].id_num, &rows[kept].id_task);
		kept++;
	}
	if (o->nsort)
	{
		sc.o = o;
		sc.ntres = cfg->n_tres;
		fs_sort(rows, kept, sizeof(*rows), sort_cmp, &sc, a);
	}
	else
		fs_sort(rows, kept, sizeof(*rows), job_id_cmp, NULL, a);
	for (i = 0; i < kept; i++)
	{
		size_t at = out->len;

		FS_POLL(i);
		for (k = 0; k < nc; k++)
		{
			cell.len = 0;
			if (cols[k].letter &&
			    !(rows[i].r->direct && (cols[k].letter == 'T' || cols[k].letter == 't')))
				job_cell(&cell, cfg, &rows[i], cols[k].letter);
			put_cell(out, &cols[k], cell.data, cell.len);
		}
		fs_sb_append(out, "\n", 1);
		/* room for the other rows at the first one's width (up to 256 MB; past it, doubling):
		 * one allocation instead of a copy at each doubling */
		if (i == 0 && kept > 1)
		{
			size_t w = out->len - at, cap = (size_t) 1 << 28;

			fs_sb_reserve(out, w > cap / (kept - 1) ? cap : w * (kept - 1));
		}
	}
done:
	a->release(a->ctx, cols);
	a->release(a->ctx, cell.data);
	a->release(a->ctx, fmt.data);
}
