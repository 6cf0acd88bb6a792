/*
 * fuzz_slurm_priority.c: libFuzzer harness for SLURM's priority parameters (slurm.conf and
 * scontrol show config text), the PriorityWeightTRES list and time_str2mins. Any input either
 * fails with a syntax error and a message, or gives settings as slurmctld stores them: whole
 * minutes (or UNLIMITED) of age, a calculation period of at least a minute, known flags only,
 * finite TRES weights with names; sprio's options known ones only; a time below -2 minutes only
 * from a negative day count.
 */
#include "fuzz_alloc.h"
#include "priority/slurm_priority.h"

#include <stdlib.h>

static void
check_weights(const fs_sprio_tres_weight *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].name == NULL || w[i].name[0] == '\0' || !(w[i].weight - w[i].weight == 0))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_sprio_config cfg;
	fs_sprio_tres_weight *w;
	fs_error err;
	size_t n, i;
	int32_t m;
	int opts;
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
	if (fs_sprio_options_parse(text, size, &opts, &err) == FS_OK)
	{
		if (opts & ~(FS_SPRIO_OPT_LONG | FS_SPRIO_OPT_NORM | FS_SPRIO_OPT_WEIGHTS))
			abort();
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	/* a negative time needs a negative day count ("-4" is minus four days) */
	m = fs_sprio_time_str2mins(text, size);
	if (m < -2 && (size == 0 || text[0] != '-'))
		abort();
	return 0;
}
