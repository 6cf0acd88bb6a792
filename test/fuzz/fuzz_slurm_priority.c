/*
 * fuzz_slurm_priority.c: libFuzzer harness for SLURM's priority parameters (slurm.conf and
 * scontrol show config text), the PriorityWeightTRES list and time_str2mins. Any input either
 * fails with a syntax error and a message, or gives settings as slurmctld stores them: whole
 * minutes (or UNLIMITED) of age, a calculation period of at least a minute, known flags only,
 * finite TRES weights with names; sprio's options known ones only; a time below -2 minutes only
 * from a negative day count. The input split at its first newline is a job's partition and QOS
 * lists for fs_sprio_priority_each (one pair per name pair, or an error with a message), and its
 * bytes are the keys of fs_sprio_order (sorted by the chain, a step for every row but the first).
 */
#include "fuzz_alloc.h"
#include "priority/slurm_priority.h"

#include <stdlib.h>
#include <string.h>

static void
check_weights(const fs_sprio_tres_weight *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].name == NULL || w[i].name[0] == '\0' || !(w[i].weight - w[i].weight == 0))
			abort();
}

/* The comma lists before and after the first newline, against partitions and QOS "a" and "b". */
static void
check_each(const char *text, size_t size)
{
	static fs_sprio_config cfg;
	static bool have;
	fs_sprio_part parts[2];
	fs_sprio_qos qos[2];
	fs_sprio_job job;
	fs_sprio_cluster cl;
	fs_sprio_pair *pairs;
	fs_error err;
	size_t nl = 0, n, i;

	if (!have && fs_sprio_config_parse("PriorityWeightQOS=1000 PriorityWeightTRES=cpu=1", 47, NULL,
	                                   0, &cfg, &fz, &err) != FS_OK)
		abort();
	have = true;
	while (nl < size && text[nl] != '\n')
		nl++;
	memset(parts, 0, sizeof(parts));
	memset(&job, 0, sizeof(job));
	memset(&cl, 0, sizeof(cl));
	parts[0].name = fs_str_of("a", 1);
	parts[1].name = fs_str_of("b", 1);
	parts[1].factor = 1;
	qos[0].name = fs_str_of("a", 1);
	qos[0].priority = 0;
	qos[1].name = fs_str_of("b", 1);
	qos[1].priority = 10;
	cl.max_qos_priority = 10;
	if (fs_sprio_priority_each(
	        &cfg, &job, fs_str_of(text, nl),
	        fs_str_of(text + (nl < size ? nl + 1 : size), nl < size ? size - nl - 1 : 0), parts, 2,
	        qos, 2, &cl, 0, &pairs, &n, &fz, &err) == FS_OK)
	{
		if (n == 0)
			abort();
		for (i = 0; i < n; i++)
		{
			if (pairs[i].partition.len > 1 || pairs[i].qos.len > 1 ||
			    pairs[i].r.priority != (pairs[i].qos.len && pairs[i].qos.s[0] == 'b' ? 1000 : 1))
				abort();
			free(pairs[i].r.tres);
			free(pairs[i].r.tres_f);
		}
		free(pairs);
	}
	else if ((err.status != FS_ERR_VALUE && err.status != FS_ERR_LIMIT) || err.message[0] == '\0')
		abort();
}

/* Keys from the bytes (tier, priority, submit, a one-byte id), sorted: the chain holds. */
static void
check_order(const uint8_t *data, size_t size)
{
	fs_sprio_order_key k[64];
	const char *d[64];
	size_t n = size / 4 > 64 ? 64 : size / 4, i;

	for (i = 0; i < n; i++)
	{
		memset(&k[i], 0, sizeof(k[i]));
		k[i].tier = data[4 * i] % 3;
		k[i].priority = data[4 * i + 1] % 5;
		k[i].submit = data[4 * i + 2] % 4;
		k[i].job_id = fs_str_of((const char *) &data[4 * i + 3], 1);
		k[i].index = i;
	}
	fs_sprio_order(k, n, d, &fz);
	for (i = 0; i < n; i++)
	{
		if ((i == 0) != (d[i] == NULL))
			abort();
		if (i > 0 && (k[i - 1].tier < k[i].tier ||
		              (k[i - 1].tier == k[i].tier && k[i - 1].priority < k[i].priority) ||
		              (k[i - 1].tier == k[i].tier && k[i - 1].priority == k[i].priority &&
		               k[i - 1].submit > k[i].submit)))
			abort();
	}
}

/* Options that parse print for two jobs (a direct one too): one line each after the header. */
static void
check_print(const fs_sprio_opts *o)
{
	static fs_sprio_config cfg;
	static bool have;
	fs_sprio_result r[2];
	double tres[2][2];
	fs_sprio_row rows[2];
	fs_error err;
	fs_sb out;
	char bad;
	size_t i, lines = 0;

	if (!have && fs_sprio_config_parse("PriorityWeightAge=10 PriorityWeightTRES=cpu=1", 45, NULL, 0,
	                                   &cfg, &fz, &err) != FS_OK)
		abort();
	have = true;
	memset(r, 0, sizeof(r));
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < 2; i++)
	{
		r[i].tres = tres[i];
		r[i].tres_f = tres[i];
		tres[i][0] = 1;
		rows[i].r = &r[i];
		rows[i].job_id = fs_str_of(i ? "12" : "7_1", i ? 2 : 3);
		rows[i].partition = fs_str_of("batch", 5);
	}
	r[1].direct = true;
	r[1].priority = 5;
	fs_sb_init(&out, &fz, 64);
	fs_sprio_print(&cfg, rows, 2, o, &out, &bad, &fz);
	for (i = 0; i < out.len; i++)
		lines += out.data[i] == '\n';
	/* a format's own text may hold newlines (sprio prints them): count lines without one */
	if ((lines > 3 &&
	     !(o->has_format && memchr(o->format.s ? o->format.s : "", '\n', o->format.len))) ||
	    (out.len > 0 && out.data[out.len - 1] != '\n'))
		abort();
	free(out.data);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_sprio_config cfg;
	fs_sprio_tres_weight *w;
	fs_error err;
	size_t n, i;
	int32_t m;
	fs_sprio_opts opts;
	const char *text = (const char *) data;

	if (fs_sprio_config_parse(text, size, NULL, 0, &cfg, &fz, &err) == FS_OK)
	{
		if ((cfg.max_age % 60 != 0 && cfg.max_age != 4294967236u) || cfg.calc_period < 60 ||
		    cfg.calc_period % 60 != 0 || (cfg.flags >> FS_SPRIO_NFLAGS) != 0 ||
		    cfg.version < FS_SPRIO_VERSION_MIN || cfg.version > 9912 ||
		    ((cfg.flags & FS_SPRIO_MAX_TRES) && (cfg.flags & FS_SPRIO_MAX_TRES_GRES)) ||
		    (cfg.n_tres > 0 && cfg.weight_tres == NULL))
			abort();
		check_weights(cfg.tres, cfg.n_tres);
		fs_sprio_config_free(&cfg, &fz);
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0' || err.hint[0] == '\0')
		abort();
	if (fs_sprio_tres_weights_parse(text, size, &w, &n, &fz, &err) == FS_OK)
	{
		check_weights(w, n);
		for (i = 0; i < n; i++)
			free(w[i].name);
		free(w);
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	/* sprio's options: known bits only, or a syntax error with a message */
	if (fs_sprio_options_parse(text, size, &opts, &fz, &err) == FS_OK)
	{
		if ((opts.flags & ~(FS_SPRIO_OPT_LONG | FS_SPRIO_OPT_NORM | FS_SPRIO_OPT_WEIGHTS |
		                    FS_SPRIO_OPT_NOHEADER)) ||
		    ((opts.flags & FS_SPRIO_OPT_LONG) && opts.has_format) || opts.nsort > FS_SPRIO_SORT_MAX)
			abort();
		check_print(&opts);
		fs_sprio_opts_free(&opts, &fz);
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	/* a negative time needs a negative day count ("-4" is minus four days) */
	m = fs_sprio_time_str2mins(text, size);
	if (m < -2 && (size == 0 || text[0] != '-'))
		abort();
	check_each(text, size);
	check_order(data, size);
	return 0;
}
