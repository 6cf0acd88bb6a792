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
tres_amount(const uint8_t *rv, const char *name)
{
	fs_rv_item it;

	if (rv == NULL || !fs_rv_get(rv, name, strlen(name), &it))
		return 0;
	return it.kind == FS_KIND_SIZE ? it.amount / 1048576.0 : it.amount;
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

	memset(r, 0, sizeof(*r));
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
		double cnt = tres_amount(job->tres, cfg->tres[i].name);
		double tot = tres_amount(job->part_tres, cfg->tres[i].name);

		if (cfg->flags & FS_SPRIO_NO_NORMAL_TRES)
			tres_f[i] = cnt;
		else if (cnt != 0 && tot != 0)
			tres_f[i] = cnt / tot;
		tres[i] = tres_f[i] * cfg->tres[i].weight;
	}
	for (rank = 0; rank <= 8; rank++)
		for (i = 0; i < cfg->n_tres; i++)
			if (tres_rank(cfg->tres[i].name) == rank)
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

/* ---- what sprio prints ---------------------------------------------------------------------- */

fs_status
fs_sprio_options_parse(const char *s, size_t len, int *opts, fs_error *err)
{
	size_t i = 0;

	*opts = 0;
	while (i < len)
	{
		size_t j;

		while (i < len && fs_is_space(s[i]))
			i++;
		j = i;
		while (j < len && !fs_is_space(s[j]))
			j++;
		if (j == i)
			break;
		if (fs_span_eq(s + i, j - i, "--long"))
			*opts |= FS_SPRIO_OPT_LONG;
		else if (fs_span_eq(s + i, j - i, "--norm"))
			*opts |= FS_SPRIO_OPT_NORM;
		else if (fs_span_eq(s + i, j - i, "--weights"))
			*opts |= FS_SPRIO_OPT_WEIGHTS;
		else if (s[i] == '-' && j - i >= 2 && s[i + 1] != '-')
		{
			size_t k;

			for (k = i + 1; k < j; k++)
			{
				if (s[k] == 'l')
					*opts |= FS_SPRIO_OPT_LONG;
				else if (s[k] == 'n')
					*opts |= FS_SPRIO_OPT_NORM;
				else if (s[k] == 'w')
					*opts |= FS_SPRIO_OPT_WEIGHTS;
				else
					break;
			}
			if (k < j)
				goto bad;
		}
		else
			goto bad;
		i = j;
	}
	return FS_OK;
bad:
	fs_fail_syntax(
	    err, "sprio options", s, len, i, "Unsupported option",
	    "The options are -l (--long), -n (--norm) and -w (--weights), alone or together.");
	return FS_ERR_SYNTAX;
}

typedef struct sprio_col
{
	char letter;
	int width;
	bool right;
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
	}
	return "";
}

/* The columns of a layout: sprio's format strings for -l, -n -l and the default. */
static size_t
layout(const fs_sprio_config *cfg, int opts, sprio_col *cols)
{
	size_t n = 0;
	bool norm = (opts & FS_SPRIO_OPT_NORM) != 0, v2302 = cfg->version >= 2302;
	int w = norm ? 10 : 10;

#define COL(l, wd, rj) (cols[n].letter = (l), cols[n].width = (wd), cols[n].right = (rj), n++)
	COL('i', 15, true);
	COL('r', 9, false);
	if (opts & FS_SPRIO_OPT_LONG)
	{
		COL('u', 8, true);
		if (v2302)
			COL('o', 8, true);
		if (norm)
		{
			COL('y', 10, false);
			COL('a', 10, false);
			COL('b', 10, false);
			COL('f', 10, false);
			COL('j', 10, false);
			COL('p', 10, false);
			if (v2302)
				COL('n', 10, false);
			COL('q', 10, false);
			COL('t', 20, false);
		}
		else
		{
			COL('Y', 10, true);
			COL('S', 10, true);
			COL('A', 10, true);
			COL('B', 10, true);
			COL('F', 10, true);
			COL('J', 10, true);
			COL('P', 10, true);
			if (v2302)
				COL('n', 10, true);
			COL('Q', 10, true);
			COL('N', 11, true);
			COL('T', 20, true);
		}
		return n;
	}
	COL(norm ? 'y' : 'Y', w, !norm);
	/* sprio -n's default format (%10y %10a ...) has no SITE column */
	if (!norm)
		COL('S', 10, true);
	if (cfg->weight_age)
		COL(norm ? 'a' : 'A', 10, !norm);
	if (cfg->weight_assoc)
		COL(norm ? 'b' : 'B', 10, !norm);
	if (cfg->weight_fairshare)
		COL(norm ? 'f' : 'F', 10, !norm);
	if (cfg->weight_jobsize)
		COL(norm ? 'j' : 'J', 10, !norm);
	if (cfg->weight_partition)
		COL(norm ? 'p' : 'P', 10, !norm);
	if (cfg->weight_qos)
		COL(norm ? 'q' : 'Q', 10, !norm);
	if (cfg->weight_tres)
		COL(norm ? 't' : 'T', 20, !norm);
#undef COL
	return n;
}

/* One cell: cut to its width, padded on the left (right-justified) or the right. */
static void
put_cell(fs_sb *out, const sprio_col *c, const char *s, size_t len, bool first)
{
	size_t k;

	if (!first)
		fs_sb_append(out, " ", 1);
	if (len > (size_t) c->width)
		len = (size_t) c->width;
	if (c->right)
		for (k = len; k < (size_t) c->width; k++)
			fs_sb_append(out, " ", 1);
	fs_sb_append(out, s, len);
	if (!c->right)
		for (k = len; k < (size_t) c->width; k++)
			fs_sb_append(out, " ", 1);
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
			fs_sb_append(sb, row->job_id.s, row->job_id.len);
			break;
		case 'r':
			fs_sb_append(sb, row->partition.s, row->partition.len);
			break;
		case 'u':
			fs_sb_append(sb, row->user.s, row->user.len);
			break;
		case 'o':
			fs_sb_append(sb, row->account.s, row->account.len);
			break;
		case 'n':
			fs_sb_append(sb, row->qos.s, row->qos.len);
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

/* Job ids as numbers when both are digits, else as text; then the input order. */
static int
job_id_cmp(const void *pa, const void *pb, void *ctx)
{
	const fs_sprio_row *a = pa, *b = pb;
	int64_t x, y;

	(void) ctx;
	if (fs_parse_digits(a->job_id.s, a->job_id.len, INT64_MAX, &x) &&
	    fs_parse_digits(b->job_id.s, b->job_id.len, INT64_MAX, &y))
		return (x > y) - (x < y);
	return fs_str_cmp(a->job_id, b->job_id);
}

void
fs_sprio_print(const fs_sprio_config *cfg, fs_sprio_row *rows, size_t n, int opts, fs_sb *out,
               const fs_allocator *a)
{
	sprio_col cols[20];
	size_t nc = layout(cfg, opts, cols), i, k;
	fs_sb cell;

	fs_sb_init(&cell, a, 64);
	for (k = 0; k < nc; k++)
	{
		const char *t = col_title(cols[k].letter);

		put_cell(out, &cols[k], t, strlen(t), k == 0);
	}
	fs_sb_append(out, "\n", 1);
	if (opts & FS_SPRIO_OPT_WEIGHTS)
	{
		for (k = 0; k < nc; k++)
		{
			cell.len = 0;
			weight_cell(&cell, cfg, cols[k].letter);
			put_cell(out, &cols[k], cell.data, cell.len, k == 0);
		}
		fs_sb_append(out, "\n", 1);
		a->release(a->ctx, cell.data);
		return;
	}
	fs_sort(rows, n, sizeof(*rows), job_id_cmp, NULL, a);
	for (i = 0; i < n; i++)
	{
		FS_POLL(i);
		for (k = 0; k < nc; k++)
		{
			cell.len = 0;
			if (!(rows[i].r->direct && (cols[k].letter == 'T' || cols[k].letter == 't')))
				job_cell(&cell, cfg, &rows[i], cols[k].letter);
			put_cell(out, &cols[k], cell.data, cell.len, k == 0);
		}
		fs_sb_append(out, "\n", 1);
	}
	a->release(a->ctx, cell.data);
}
