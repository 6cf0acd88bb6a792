/* test_slurm_priority.c: SLURM's priority parameters read from slurm.conf and scontrol show
 * config text: defaults, every option, SLURM's quirks, every error. */
#include "priority/slurm_priority.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fs_status
parse_v(const char *text, const char *version, fs_sprio_config *cfg, fs_error *err)
{
	return fs_sprio_config_parse(text, strlen(text), version, version ? strlen(version) : 0, cfg,
	                             &unit_alloc, err);
}

/* The message and detail of a configuration that must fail. */
static const char *
fails(const char *text, const char *version)
{
	static fs_error err;
	static char both[2 * FS_MSG_LEN + 4];
	fs_sprio_config cfg;

	if (parse_v(text, version, &cfg, &err) == FS_OK)
	{
		fs_sprio_config_free(&cfg, &unit_alloc);
		return "(accepted)";
	}
	CHECK(err.status == FS_ERR_SYNTAX);
	CHECK(err.hint[0] != '\0');
	strcpy(both, err.message);
	if (err.detail[0])
	{
		strcat(both, " | ");
		strcat(both, err.detail);
	}
	return both;
}

static uint32_t
max_age_of(const char *value)
{
	char text[200];
	fs_sprio_config cfg;
	fs_error err;
	uint32_t r;

	strcpy(text, "PriorityMaxAge=");
	strcat(text, value);
	if (parse_v(text, NULL, &cfg, &err) != FS_OK)
		return 12345;
	r = cfg.max_age;
	fs_sprio_config_free(&cfg, &unit_alloc);
	return r;
}

static uint32_t
flags_of(const char *value)
{
	char text[200];
	fs_sprio_config cfg;
	fs_error err;
	uint32_t r;

	strcpy(text, "PriorityFlags=");
	strcat(text, value);
	if (parse_v(text, NULL, &cfg, &err) != FS_OK)
		return 0xdead;
	r = cfg.flags;
	fs_sprio_config_free(&cfg, &unit_alloc);
	return r;
}

static void
test_defaults(void)
{
	fs_sprio_config cfg;
	fs_error err;

	CHECK(parse_v("", NULL, &cfg, &err) == FS_OK);
	CHECK(cfg.version == FS_SPRIO_VERSION_NEWEST);
	CHECK(cfg.multifactor);
	CHECK(cfg.weight_age == 0 && cfg.weight_assoc == 0 && cfg.weight_fairshare == 0 &&
	      cfg.weight_jobsize == 0 && cfg.weight_partition == 0 && cfg.weight_qos == 0);
	CHECK(cfg.weight_tres == NULL && cfg.n_tres == 0);
	CHECK(cfg.max_age == 604800);
	CHECK(cfg.calc_period == 300);
	CHECK(!cfg.favor_small);
	CHECK(cfg.flags == 0);
	fs_sprio_config_free(&cfg, &unit_alloc);
	/* before 23.11 the default PriorityType was basic */
	CHECK(parse_v("", "22.05", &cfg, &err) == FS_OK);
	CHECK(cfg.version == 2205 && !cfg.multifactor);
	fs_sprio_config_free(&cfg, &unit_alloc);
}

static void
test_slurm_conf(void)
{
	fs_sprio_config cfg;
	fs_error err;
	const char *conf = "# slurm.conf\n"
	                   "ClusterName=c1 PriorityType=priority/multifactor\n"
	                   "priorityweightage=1000   PriorityWeightFairshare=10000 # fs\n"
	                   "PriorityWeightJobSize=0x10\n"
	                   "PriorityWeightPartition=010\n"
	                   "PriorityWeightQOS=UNLIMITED\n"
	                   "PriorityWeightAssoc=5\n"
	                   "PriorityWeightAssoc=6\n"
	                   "PartitionName=p1 Nodes=n[1-4] PriorityJobFactor=10 PriorityWeightAge=7\n"
	                   "PriorityWeightTRES=CPU=1000,Mem=2000G,GRES/gpu=3000\n"
	                   "PriorityMaxAge=1-0\n"
	                   "PriorityCalcPeriod=1:30\n"
	                   "PriorityFavorSmall=YES\n"
	                   "PriorityFlags=\"no_fair_tree,ACCRUE_ALWAYS\"\n"
	                   "Include /etc/slurm/nodes.conf\n";

	CHECK(parse_v(conf, NULL, &cfg, &err) == FS_OK);
	CHECK(cfg.weight_age == 1000);
	CHECK(cfg.weight_fairshare == 10000);
	CHECK(cfg.weight_jobsize == 16);
	CHECK(cfg.weight_partition == 8);
	CHECK(cfg.weight_qos == UINT32_MAX);
	CHECK(cfg.weight_assoc == 6); /* the last value wins */
	CHECK_STR(cfg.weight_tres, "CPU=1000,Mem=2000G,GRES/gpu=3000");
	CHECK(cfg.n_tres == 3);
	if (cfg.n_tres == 3)
	{
		CHECK_STR(cfg.tres[0].name, "cpu");
		CHECK_DBL(cfg.tres[0].weight, 1000, 0);
		CHECK_STR(cfg.tres[1].name, "mem");
		CHECK_DBL(cfg.tres[1].weight, 1.953125, 0); /* 2000 per GB = per 1024 MB */
		CHECK_STR(cfg.tres[2].name, "gres/gpu");
		CHECK_DBL(cfg.tres[2].weight, 3000, 0);
	}
	CHECK(cfg.max_age == 86400);
	CHECK(cfg.calc_period == 120); /* 90 seconds rounded up to 2 minutes */
	CHECK(cfg.favor_small);
	CHECK(cfg.flags == (FS_SPRIO_NO_FAIR_TREE | FS_SPRIO_ACCRUE_ALWAYS));
	fs_sprio_config_free(&cfg, &unit_alloc);
}

static void
test_show_config(void)
{
	fs_sprio_config cfg;
	fs_error err;
	const char *conf = "Configuration data as of 2026-12-01T10:00:00\n"
	                   "PriorityParameters      = (null)\n"
	                   "PriorityDecayHalfLife   = 7-00:00:00\n"
	                   "PriorityCalcPeriod      = 00:05:00\n"
	                   "PriorityFavorSmall      = No\n"
	                   "PriorityFlags           = \n"
	                   "PriorityMaxAge          = 14-00:00:00\n"
	                   "PriorityType            = priority/multifactor\n"
	                   "PriorityWeightAge       = 1000\n"
	                   "PriorityWeightTRES      = (null)\n"
	                   "SLURM_VERSION           = 22.05.8\n";

	CHECK(parse_v(conf, NULL, &cfg, &err) == FS_OK);
	CHECK(cfg.version == 2205);
	CHECK(cfg.multifactor);
	CHECK(cfg.calc_period == 300);
	CHECK(cfg.max_age == 14 * 86400);
	CHECK(cfg.weight_age == 1000);
	CHECK(cfg.weight_tres == NULL);
	CHECK(cfg.flags == 0);
	fs_sprio_config_free(&cfg, &unit_alloc);
	/* the caller's version wins over the line */
	CHECK(parse_v(conf, "23.02", &cfg, &err) == FS_OK);
	CHECK(cfg.version == 2302);
	fs_sprio_config_free(&cfg, &unit_alloc);
}

static void
test_max_age(void)
{
	CHECK(max_age_of("1:30") == 120);
	CHECK(max_age_of("0") == 0);
	CHECK(max_age_of("61") == 3660);
	CHECK(max_age_of("1:00:01") == 3660); /* hours:minutes:seconds, 1 s rounds up */
	CHECK(max_age_of("7-0") == 604800);
	CHECK(max_age_of("2-3") == 2 * 86400 + 3 * 3600);
	CHECK(max_age_of("2-3:4") == 2 * 86400 + 3 * 3600 + 4 * 60);
	CHECK(max_age_of("5-") == 5 * 86400);
	CHECK(max_age_of(":") == 0);
	CHECK(max_age_of("UNLIMITED") == 4294967236u);
	CHECK(max_age_of("infinite") == 4294967236u);
	CHECK(max_age_of("-1") == 4294967236u);
	/* the longest that fits SLURM's int seconds; beyond, its arithmetic would overflow */
	CHECK(max_age_of("24855-0") == 24855u * 86400u);
	CHECK(max_age_of("24856-0") == 12345);
	CHECK(max_age_of("abc") == 12345);
	CHECK(max_age_of("1-2-3") == 12345);
	CHECK(max_age_of("1:2:3:4") == 12345);
	CHECK(max_age_of("1:2-3") == 12345);
	CHECK(max_age_of("-2") == 12345);
	CHECK(max_age_of("99999999999") == 12345);
	CHECK(fs_sprio_time_str2mins("", 0) == -2);
}

static void
test_flags(void)
{
	CHECK(flags_of("NO_NORMAL_ALL") == (FS_SPRIO_NO_NORMAL_ASSOC | FS_SPRIO_NO_NORMAL_PART |
	                                    FS_SPRIO_NO_NORMAL_QOS | FS_SPRIO_NO_NORMAL_TRES));
	CHECK(flags_of("no_normal_qos,NO_NORMAL_TRES") ==
	      (FS_SPRIO_NO_NORMAL_QOS | FS_SPRIO_NO_NORMAL_TRES));
	CHECK(flags_of("MAX_TRES_GRES") == FS_SPRIO_MAX_TRES_GRES);
	CHECK(flags_of("MAX_TRES") == FS_SPRIO_MAX_TRES);
	CHECK(flags_of("DEPTH_OBLIVIOUS") == (FS_SPRIO_DEPTH_OBLIVIOUS | FS_SPRIO_NO_FAIR_TREE));
	/* substring reading: a word inside a longer word counts, a typo is ignored */
	CHECK(flags_of("XINCR_ONLYX") == FS_SPRIO_INCR_ONLY);
	CHECK(flags_of("INCR_ONL,FAIR_TREE,TICKET_BASED") == 0);
	CHECK(flags_of("small_relative_to_time,calculate_running") ==
	      (FS_SPRIO_SMALL_RELATIVE_TO_TIME | FS_SPRIO_CALCULATE_RUNNING));
	CHECK_STR(fs_sprio_flag_name(7), "MAX_TRES_GRES");
	CHECK(fs_sprio_flag_name(FS_SPRIO_NFLAGS) == NULL);
}

static void
test_tres(void)
{
	fs_sprio_tres_weight *w;
	size_t n, i;
	fs_error err;
	const char *s = "mem=1T,bb/cray=1G,cpu=2K,,node=-3.5,mem=1M,license/matlab=1e3,MEM=4k";

	CHECK(fs_sprio_tres_weights_parse(s, strlen(s), &w, &n, &unit_alloc, &err) == FS_OK);
	CHECK(n == 5);
	if (n == 5)
	{
		CHECK_STR(w[0].name, "mem");
		CHECK_DBL(w[0].weight, 4, 0); /* K is below mem's base unit: no conversion */
		CHECK_STR(w[1].name, "bb/cray");
		CHECK_DBL(w[1].weight, 1.0 / 1024, 0);
		CHECK_STR(w[2].name, "cpu");
		CHECK_DBL(w[2].weight, 2.0 / 1024, 0);
		CHECK_DBL(w[3].weight, -3.5, 0);
		CHECK_STR(w[4].name, "license/matlab");
		CHECK_DBL(w[4].weight, 1000, 0);
		/* the name's length, and its place in SLURM's TRES table (the order of the sum) */
		CHECK(w[0].namelen == 3 && w[1].namelen == 7 && w[4].namelen == 14);
		CHECK(w[0].rank == 1 && w[1].rank == 8 && w[2].rank == 0 && w[3].rank == 3 &&
		      w[4].rank == 8);
	}
	for (i = 0; i < n; i++)
		unit_alloc.release(unit_alloc.ctx, w[i].name);
	unit_alloc.release(unit_alloc.ctx, w);
}

static void
test_errors(void)
{
	CHECK_STR(fails("PriorityWeightAge=12a", NULL),
	          "invalid value for PriorityWeightAge on line 1: \"12a\" | slurmctld says: \"12a\" is "
	          "not a valid number.");
	CHECK_STR(fails("\nPriorityWeightQOS=4294967296", NULL),
	          "invalid value for PriorityWeightQOS on line 2: \"4294967296\" | slurmctld says: "
	          "\"4294967296\" is out of range.");
	CHECK_STR(fails("PriorityWeightFairshare=-1", NULL),
	          "invalid value for PriorityWeightFairshare on line 1: \"-1\" | slurmctld says: "
	          "\"-1\" is out of range.");
	CHECK_STR(fails("PriorityWeightJobSize=09", NULL),
	          "invalid value for PriorityWeightJobSize on line 1: \"09\" | slurmctld says: \"09\" "
	          "is not a valid number.");
	CHECK_STR(fails("PriorityMaxAge = 1 week", NULL),
	          "invalid value for PriorityMaxAge on line 1: \"1 week\" | slurmctld says: Bad value "
	          "\"1 week\" for PriorityMaxAge.");
	CHECK_STR(fails("PriorityCalcPeriod=0", NULL),
	          "invalid value for PriorityCalcPeriod on line 1: \"0\" | slurmctld says: Bad value "
	          "\"0\" for PriorityCalcPeriod.");
	CHECK_STR(fails("PriorityCalcPeriod=UNLIMITED", NULL),
	          "invalid value for PriorityCalcPeriod on line 1: \"UNLIMITED\" | slurmctld says: Bad "
	          "value \"UNLIMITED\" for PriorityCalcPeriod.");
	CHECK_STR(fails("PriorityFavorSmall=maybe", NULL),
	          "invalid value for PriorityFavorSmall on line 1: \"maybe\" | slurmctld says: "
	          "\"maybe\" is not a valid option for \"PriorityFavorSmall\".");
	CHECK_STR(fails("PriorityType=priority/fifo", NULL),
	          "invalid value for PriorityType on line 1: \"priority/fifo\"");
	CHECK(strstr(fails("PriorityWeightTRES=gpu=5", NULL), "invalid TRES weight: \"gpu=5\"") !=
	      NULL);
	CHECK(strstr(fails("PriorityWeightTRES=gres=5", NULL), "names no TRES type") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu=", NULL), "not TYPE=weight") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu", NULL), "not TYPE=weight") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu=x", NULL), "not a number") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu=1X", NULL), "unit") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu=1GB", NULL), "unit") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=cpu=1e999", NULL), "out of range") != NULL);
	CHECK(strstr(fails("PriorityWeightTRES=gres/g%u=1", NULL), "character") != NULL);
	CHECK_STR(fails("SLURM_VERSION = 22", NULL), "invalid SLURM version: \"22\"");
	CHECK_STR(fails("", "18.08"),
	          "invalid SLURM version: \"18.08\" | Releases before 19.05 have no association or "
	          "site factor.");
	CHECK_STR(fails("", "22.13"), "invalid SLURM version: \"22.13\"");
	CHECK_STR(fails("", "22.05x"), "invalid SLURM version: \"22.05x\"");
}

static void
test_error_context(void)
{
	fs_sprio_config cfg;
	fs_error err;

	CHECK(parse_v("a=b\n\nPriorityWeightTRES=cpu=1,foo=2\n", NULL, &cfg, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.context, "in PriorityWeightTRES on line 3");
	CHECK(parse_v("SLURM_VERSION = 17.11.2\n", NULL, &cfg, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.context, "in SLURM_VERSION on line 1");
}

/* ---- the priority of a job ---- */

static uint8_t *kept[32];
static int nkept;

/* A resource vector freed at the end of the tests. */
static uint8_t *
rv(const char *text)
{
	return kept[nkept++] = unit_rv(text);
}

static fs_sprio_config pcfg;
static double tres_w[8], tres_fv[8];

static void
config(const char *text)
{
	fs_error err;

	fs_sprio_config_free(&pcfg, &unit_alloc);
	CHECK(parse_v(text, NULL, &pcfg, &err) == FS_OK);
}

static fs_sprio_job
job0(void)
{
	fs_sprio_job j;

	memset(&j, 0, sizeof(j));
	j.min_nodes = 1;
	j.cpus = 1;
	return j;
}

static fs_sprio_cluster
cluster0(void)
{
	fs_sprio_cluster c;

	memset(&c, 0, sizeof(c));
	c.nodes = 4;
	c.cpus = 16;
	c.max_partition_factor = 1;
	return c;
}

static fs_sprio_result
prio(const fs_sprio_job *j, const fs_sprio_cluster *c, int64_t now)
{
	fs_sprio_result r;
	fs_error err;

	memset(&r, 0, sizeof(r));
	r.tres = tres_w;
	r.tres_f = tres_fv;
	if (fs_sprio_priority(&pcfg, j, c, now, &r, &err) != FS_OK)
	{
		CHECK_STR(err.message, "(no error)");
		r.priority = -1;
	}
	return r;
}

static const char *
prio_fails(const fs_sprio_job *j, const fs_sprio_cluster *c)
{
	static fs_error err;
	fs_sprio_result r;

	r.tres = tres_w;
	r.tres_f = tres_fv;
	if (fs_sprio_priority(&pcfg, j, c, 0, &r, &err) == FS_OK)
		return "(accepted)";
	CHECK(err.hint[0] != '\0');
	return err.message;
}

/* SLURM's test24.7: normalised factors with weights Assoc=QOS=TRES cpu=4000000, Partition=60000 */
static void
test_normalised(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_result r;

	config("PriorityWeightAssoc=4000000 PriorityWeightQOS=4000000 PriorityWeightPartition=60000 "
	       "PriorityWeightJobSize=1 PriorityWeightTRES=cpu=4000000");
	j.assoc_priority = 10;
	c.max_assoc_priority = 10;
	j.qos_priority = 50;
	c.max_qos_priority = 50;
	j.partition_factor = 3;
	c.max_partition_factor = 3;
	j.tres = rv("cpu=16");
	j.part_tres = rv("cpu=16,mem=64gb");
	j.cpus = 16;
	j.min_nodes = 4;
	r = prio(&j, &c, 0);
	CHECK_DBL(r.assoc, 4000000, 0);
	CHECK_DBL(r.qos, 4000000, 0);
	CHECK_DBL(r.partition, 60000, 0);
	CHECK_DBL(tres_w[0], 4000000, 0);
	CHECK_DBL(tres_fv[0], 1, 0);
	CHECK_DBL(r.jobsize, 1, 0);
	CHECK(r.priority == 4000000 * 3 + 60000 + 1);
	/* halves, then a lowered maximum re-normalises everyone */
	c.max_assoc_priority = 20;
	c.max_qos_priority = 100;
	c.max_partition_factor = 6;
	j.tres = rv("cpu=8");
	r = prio(&j, &c, 0);
	CHECK_DBL(r.assoc, 2000000, 0);
	CHECK_DBL(r.qos, 2000000, 0);
	CHECK_DBL(r.partition, 30000, 0);
	CHECK_DBL(tres_w[0], 2000000, 0);
	CHECK_DBL(r.assoc_f, 0.5, 0);
	/* an admin-set priority: fixed, every factor 0 */
	j.has_direct = true;
	j.direct_priority = 999;
	r = prio(&j, &c, 0);
	CHECK(r.direct && r.priority == 999 && r.assoc == 0 && r.qos == 0 && tres_w[0] == 0);
}

/* SLURM's test24.6: NO_NORMAL_ALL, every weight 1: the raw values */
static void
test_no_normal(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_result r;

	config("PriorityFlags=NO_NORMAL_ALL PriorityWeightAssoc=1 PriorityWeightPartition=1 "
	       "PriorityWeightQOS=1 PriorityWeightTRES=cpu=1,mem=1");
	j.assoc_priority = 100;
	c.max_assoc_priority = 1000;
	j.partition_factor = 20;
	c.max_partition_factor = 20;
	j.qos_priority = 200;
	c.max_qos_priority = 400;
	j.tres = rv("cpu=6,mem=2gb");
	j.part_tres = rv("cpu=16,mem=64gb");
	r = prio(&j, &c, 0);
	CHECK_DBL(r.assoc, 100, 0);
	CHECK_DBL(r.partition, 20, 0);
	CHECK_DBL(r.qos, 200, 0);
	CHECK_DBL(tres_w[0], 6, 0);
	CHECK_DBL(tres_w[1], 2048, 0); /* memory raw in MB */
	CHECK(r.priority == 100 + 20 + 200 + 6 + 2048);
}

/* test24.5 and test17.23: the site factor and nice, and their bounds */
static void
test_site_nice(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_result r;

	config("");
	j.site_factor = 2147483645;
	r = prio(&j, &c, 0);
	CHECK(r.priority == 2147483645);
	j.site_factor = -2147483645;
	r = prio(&j, &c, 0);
	CHECK(r.priority == 1 && r.sum == -2147483645.0);
	j.site_factor = 2147483646;
	CHECK_STR(prio_fails(&j, &c), "site_factor 2147483646 is out of range");
	j.site_factor = 1000;
	j.nice = 100; /* --nice alone */
	r = prio(&j, &c, 0);
	CHECK(r.priority == 900 && r.nice == 100);
	j.nice = -2147483646;
	CHECK_STR(prio_fails(&j, &c), "nice -2147483646 is out of range");
}

static void
test_age(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();

	config("PriorityWeightAge=1000 PriorityMaxAge=1:30");
	j.has_accrue = true;
	j.accrue = 1000;
	CHECK_DBL(prio(&j, &c, 1060).age_f, 0.5, 0);
	CHECK_DBL(prio(&j, &c, 1119).age, 1000 * 119.0 / 120, 1e-9);
	CHECK_DBL(prio(&j, &c, 1120).age_f, 1, 0); /* strictly below PriorityMaxAge is a fraction */
	CHECK_DBL(prio(&j, &c, 900).age_f, 0, 0);  /* accrue time after the pass */
	j.has_accrue = false;
	CHECK_DBL(prio(&j, &c, 5000).age_f, 0, 0); /* not accruing */
	config("PriorityWeightAge=1000 PriorityMaxAge=0");
	j.has_accrue = true;
	CHECK_DBL(prio(&j, &c, 1000).age_f, 1, 0);
	CHECK(prio(&j, &c, 1000).priority == 1000);
}

static void
test_job_size(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();

	j.min_nodes = 1;
	j.cpus = 4;
	config("PriorityWeightJobSize=1000");
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, (1.0 / 4 + 4.0 / 16) / 2, 0);
	j.cpus = 0; /* no halving without a CPU count */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 0.25, 0);
	j.cpus = 4;
	config("PriorityWeightJobSize=1000 PriorityFavorSmall=YES");
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, (3.0 / 4 + 12.0 / 16) / 2, 0);
	j.cpus = 20; /* more CPUs than the cluster: the unsigned difference wraps, the best factor */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 1, 0);
	j.cpus = 4;
	j.min_nodes = 5; /* more nodes than the cluster: 0 since 23.02 */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, (0 + 12.0 / 16) / 2, 0);
	pcfg.version = 2205; /* before, the node difference wrapped too */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 1, 0);
	c.nodes = 0;
	CHECK(strstr(prio_fails(&j, &c), "job size factor") != NULL);
	pcfg.version = 2302;
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 0, 0);
	c.nodes = 4;
	j.min_nodes = 1;
	config("PriorityWeightJobSize=1000 PriorityFlags=SMALL_RELATIVE_TO_TIME");
	j.has_time_limit = true;
	j.time_limit = 3600;
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 4.0 / 60 / 16, 1e-15);
	j.cpus = 1; /* the average CPUs of its nodes count when larger */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 4.0 / 60 / 16, 1e-15);
	j.has_time_limit = false;
	j.has_part_max_time = true;
	j.part_max_time = 90; /* 1.5 minutes round up to 2 */
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 4.0 / 2 / 16, 1e-15);
	config("PriorityWeightJobSize=1000 PriorityFlags=SMALL_RELATIVE_TO_TIME PriorityFavorSmall=1");
	CHECK_DBL(prio(&j, &c, 0).jobsize_f, 1 - 4.0 / 2 / 16, 1e-15);
	j.part_max_time = 0;
	CHECK(strstr(prio_fails(&j, &c), "time limit of 0") != NULL);
}

static void
test_sum(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_result r;

	config("PriorityWeightFairshare=10000 PriorityWeightTRES=mem=1000");
	r = prio(&j, &c, 0);
	CHECK(r.priority == 1 && r.sum == 0); /* the floor of 1 */
	j.fairshare = 0.12349;
	r = prio(&j, &c, 0);
	CHECK(r.priority == 1234); /* truncated, not rounded */
	CHECK_DBL(r.sum, 1234.9, 1e-9);
	/* TRES over the partition's total, not capped at 1; nothing asked or no total is 0 */
	j.fairshare = 0;
	j.tres = rv("mem=8gb");
	j.part_tres = rv("mem=4gb");
	r = prio(&j, &c, 0);
	CHECK_DBL(tres_fv[0], 2, 0);
	CHECK(r.priority == 2000);
	j.part_tres = rv("cpu=4");
	CHECK(prio(&j, &c, 0).priority == 1);
	/*
	 * the TRES terms summed in SLURM's table order (cpu, mem, ..., then the others as configured),
	 * not as written: 1 + 1 + 1e16 is 1e16 + 2, where 1e16 + 1 + 1 rounds to 1e16 twice
	 */
	config("PriorityWeightTRES=gres/gpu=10000000000000000,mem=1,cpu=1");
	j.tres = j.part_tres = rv("cpu=1,mem=1mb,gres/gpu=1");
	r = prio(&j, &c, 0);
	CHECK(tres_w[0] == 1e16 && tres_w[1] == 1 && tres_w[2] == 1);
	CHECK(r.sum == 10000000000000002.0);
	/* the 32-bit cap, and INCR_ONLY keeps a higher previous priority */
	config("PriorityWeightQOS=UNLIMITED PriorityWeightAssoc=UNLIMITED");
	j.qos_priority = j.assoc_priority = 1;
	c.max_qos_priority = c.max_assoc_priority = 1;
	r = prio(&j, &c, 0);
	CHECK(r.priority == 4294967295LL && r.sum == 2 * 4294967295.0);
	config("PriorityWeightQOS=1000 PriorityFlags=INCR_ONLY");
	j.has_previous = true;
	j.previous_priority = 5000;
	CHECK(prio(&j, &c, 0).priority == 5000);
	j.previous_priority = 10;
	CHECK(prio(&j, &c, 0).priority == 1000);
	config("PriorityWeightQOS=1000");
	j.previous_priority = 5000;
	CHECK(prio(&j, &c, 0).priority == 1000);
	j.qos_priority = 60;
	c.max_qos_priority = 50;
	CHECK_STR(prio_fails(&j, &c), "qos_priority 60 is above the cluster's max_qos_priority 50");
	j.qos_priority = 1;
	j.cpus = -1;
	CHECK_STR(prio_fails(&j, &c), "cpus -1 is out of range");
	j.cpus = 1;
	j.fairshare = 1.5;
	CHECK_STR(prio_fails(&j, &c), "fairshare 1.5 is out of range");
	fs_sprio_config_free(&pcfg, &unit_alloc);
}

/* ---- what sprio prints ---- */

static char print_bad;

static char *
print(const char *conf, const char *version, fs_sprio_row *rows, size_t n, const char *opts)
{
	fs_sprio_config cfg;
	fs_error err;
	fs_sb sb;
	fs_sprio_opts o;
	char bad;

	CHECK(parse_v(conf, version, &cfg, &err) == FS_OK);
	if (fs_sprio_options_parse(opts, strlen(opts), &o, &unit_alloc, &err) != FS_OK)
	{
		CHECK_STR(err.message, "(options accepted)");
		memset(&o, 0, sizeof(o));
	}
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_sprio_print(&cfg, rows, n, &o, &sb, &bad, &unit_alloc);
	print_bad = bad;
	fs_sb_append(&sb, "", 0);
	sb.data[sb.len] = '\0';
	fs_sprio_opts_free(&o, &unit_alloc);
	fs_sprio_config_free(&cfg, &unit_alloc);
	return sb.data;
}

static fs_str
S(const char *s)
{
	return fs_str_of(s, strlen(s));
}

static void
test_sprio(void)
{
	fs_sprio_result r1, r2;
	fs_sprio_row rows[2];
	double t1[1] = {62.5}, f1[1], t2[1] = {0}, f2[1];
	char *out;
	fs_error err;
	fs_sprio_opts o;

	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	r1.tres = t1;
	r1.tres_f = f1;
	r1.age = 142.857;
	r1.fairshare = 4000;
	r1.jobsize = 78.125;
	r1.sum = 62663.418; /* %y of it, cut to 10: 0.00001458 */
	r1.priority = 62663;
	r2.tres = t2;
	r2.tres_f = f2;
	r2.direct = true;
	r2.priority = 999;
	r2.sum = 999;
	rows[0].job_id = S("1010");
	rows[1].job_id = S("999");
	rows[0].partition = rows[1].partition = S("batch");
	rows[0].user = rows[1].user = S("alice");
	rows[0].account = rows[1].account = S("physics");
	rows[0].qos = rows[1].qos = S("normal");
	rows[0].r = &r1;
	rows[1].r = &r2;
	/* the -l header of 23.02 on, as SLURM's test25.1 asserts it */
	out = print("PriorityWeightAge=1000", "23.02", rows, 0, "-l");
	CHECK_STR(out,
	          "          JOBID PARTITION     USER  ACCOUNT   PRIORITY       SITE        AGE      "
	          "ASSOC  FAIRSHARE    JOBSIZE  PARTITION    QOSNAME        QOS        NICE         "
	          "        TRES\n");
	free(out);
	out = print("PriorityWeightAge=1000", "22.05", rows, 0, "--long");
	CHECK_STR(out,
	          "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  "
	          "FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES\n");
	free(out);
	/* rows by job id as numbers; an admin-set priority with its factors 0 and no TRES */
	out = print("PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=500 "
	            "PriorityWeightTRES=cpu=1000",
	            "23.02", rows, 2, "");
	/* %.0f rounds 62.5 to even: cpu=62 */
	CHECK_STR(out,
	          "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE"
	          "                 TRES\n"
	          "            999 batch            999          0          0          0          0"
	          "                     \n"
	          "           1010 batch          62663          0        143       4000         78"
	          "               cpu=62\n");
	free(out);
	out = print("PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightTRES=cpu=1000",
	            "23.02", rows, 2, "-n -l");
	CHECK(strstr(out,
	             "1010 batch        alice  physics 0.00001458 0.1428570  0.0000000  0.4000000  "
	             "0.0000000  0.0000000  normal     0.0000000  cpu=0.06            \n") != NULL);
	CHECK(strstr(out, "999.000000") != NULL);
	free(out);
	out =
	    print("PriorityWeightAge=1000 PriorityWeightQOS=2000 PriorityWeightTRES=CPU=1000,Mem=2000G",
	          "23.02", rows, 2, "-w");
	CHECK_STR(out, "          JOBID PARTITION   PRIORITY       SITE        AGE        QOS"
	               "                 TRES\n"
	               "        Weights                               1       1000       2000"
	               "   CPU=1000,Mem=2000G\n");
	free(out);
	CHECK(fs_sprio_options_parse("-lnw", 4, &o, &unit_alloc, &err) == FS_OK &&
	      o.flags == (FS_SPRIO_OPT_LONG | FS_SPRIO_OPT_NORM | FS_SPRIO_OPT_WEIGHTS));
	fs_sprio_opts_free(&o, &unit_alloc);
	CHECK(fs_sprio_options_parse("-x", 2, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
}

static fs_sprio_order_key
okey(int64_t tier, int64_t prio, int64_t submit, const char *id)
{
	fs_sprio_order_key k;

	memset(&k, 0, sizeof(k));
	k.tier = tier;
	k.priority = prio;
	k.submit = submit;
	k.job_id = fs_str_of(id, strlen(id));
	return k;
}

/* The main scheduler's order: each step of the chain, ids as numbers, tasks, the last tie. */
static void
test_order(void)
{
	fs_sprio_order_key k[9];
	const char *d[9];
	char ids[200];
	size_t i;

	/* hand-derived: tier 2 first whatever its priority; then priority; then submit; then id */
	k[0] = okey(1, 500, 100, "20");
	k[1] = okey(2, 10, 300, "31");
	k[2] = okey(1, 900, 200, "7");
	k[3] = okey(1, 500, 50, "25");
	k[4] = okey(1, 500, 100, "9");
	k[5] = okey(1, 500, 100, "100");
	k[6] = okey(1, 500, 100, "9_3");
	k[7] = okey(1, 500, 100, "9_10");
	k[8] = okey(1, 500, 100, "abc");
	for (i = 0; i < 9; i++)
		k[i].index = i;
	fs_sprio_order(k, 9, d, &unit_alloc);
	ids[0] = '\0';
	for (i = 0; i < 9; i++)
	{
		strncat(ids, k[i].job_id.s, k[i].job_id.len);
		strcat(ids, i + 1 < 9 ? " " : "");
	}
	CHECK_STR(ids, "31 7 25 9_3 9_10 9 20 100 abc");
	CHECK(d[0] == NULL);
	CHECK_STR(d[1], "partition_tier");
	CHECK_STR(d[2], "priority");
	CHECK_STR(d[3], "submit_time");
	CHECK_STR(d[4], "job_id"); /* 9_3 before 9_10: task ids as numbers */
	CHECK_STR(d[5], "job_id"); /* an array task (a number) before the plain job of its id */
	CHECK_STR(d[8], "job_id"); /* a numeric id before any other text */

	/* one job in two partitions of the same tier and priority: the array's order decides */
	k[0] = okey(1, 500, 100, "42");
	k[0].index = 0;
	k[1] = okey(1, 500, 100, "42");
	k[1].index = 1;
	k[2] = okey(1, 400, 100, "42");
	k[2].index = 2;
	fs_sprio_order(k, 3, d, &unit_alloc);
	CHECK(k[0].index == 0 && k[1].index == 1 && k[2].index == 2);
	CHECK_STR(d[1], "input_order");
	CHECK_STR(d[2], "priority");
	fs_sprio_order(k, 0, d, &unit_alloc);
}

/* One priority per (partition, QOS) pair: hand-derived terms, the QOS of priority 0, errors. */
static void
test_each(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_part parts[3];
	fs_sprio_qos qos[3];
	fs_sprio_pair *pairs;
	size_t n, i;
	fs_error err;
	static const int64_t want[6] = {850, 1750, 950, 1600, 2500, 1700};
	static const char *const names[6] = {"batch/normal", "batch/high", "batch/zero",
	                                     "gpu/normal",   "gpu/high",   "gpu/zero"};
	char *many;

	/* partition term = factor / 10 * 1000, QOS term = priority / 100 * 1000, cpu 4 / total */
	config("PriorityWeightPartition=1000 PriorityWeightQOS=1000 PriorityWeightTRES=cpu=1000");
	c.max_partition_factor = 10;
	c.max_qos_priority = 100;
	j.partition_factor = 1;
	j.qos_priority = 20;
	j.tres = rv("cpu=4");
	memset(parts, 0, sizeof(parts));
	parts[0].name = fs_str_of("other", 5);
	parts[0].factor = 1;
	parts[1].name = fs_str_of("batch", 5);
	parts[1].factor = 5;
	parts[1].tres = rv("cpu=16");
	parts[2].name = fs_str_of("gpu", 3);
	parts[2].factor = 10;
	parts[2].tres = rv("cpu=8");
	qos[0].name = fs_str_of("normal", 6);
	qos[0].priority = 10;
	qos[1].name = fs_str_of("high", 4);
	qos[1].priority = 100;
	qos[2].name = fs_str_of("zero", 4); /* priority 0: the job's own QOS term stays */
	qos[2].priority = 0;
#define EACH(pl, ql, p, np, q, nq)                                                                 \
	fs_sprio_priority_each(&pcfg, &j, fs_str_of(pl, strlen(pl)), fs_str_of(ql, strlen(ql)), p, np, \
	                       q, nq, &c, 0, &pairs, &n, &unit_alloc, &err)
	CHECK(EACH("batch,gpu", "normal,high,zero", parts, 3, qos, 3) == FS_OK);
	CHECK(n == 6);
	for (i = 0; i < n && i < 6; i++)
	{
		char name[40];

		snprintf(name, sizeof(name), "%.*s/%.*s", (int) pairs[i].partition.len,
		         pairs[i].partition.s, (int) pairs[i].qos.len, pairs[i].qos.s);
		CHECK_STR(name, names[i]);
		CHECK(pairs[i].r.priority == want[i]);
		unit_alloc.release(unit_alloc.ctx, pairs[i].r.tres);
		unit_alloc.release(unit_alloc.ctx, pairs[i].r.tres_f);
	}
	unit_alloc.release(unit_alloc.ctx, pairs);
	/* no arrays: the job's own fields, one pair (partition term 100, QOS 200, no cpu total) */
	CHECK(EACH("batch", "normal", NULL, 0, NULL, 0) == FS_OK);
	CHECK(n == 1 && pairs[0].r.priority == 300);
	CHECK(pairs[0].partition.len == 5 && pairs[0].qos.len == 6);
	unit_alloc.release(unit_alloc.ctx, pairs[0].r.tres);
	unit_alloc.release(unit_alloc.ctx, pairs[0].r.tres_f);
	unit_alloc.release(unit_alloc.ctx, pairs);
	/* no names at all: one pair with the job's fields, even with arrays */
	CHECK(EACH("", "", parts, 3, qos, 3) == FS_OK);
	CHECK(n == 1 && pairs[0].r.priority == 300 && pairs[0].partition.s == NULL);
	unit_alloc.release(unit_alloc.ctx, pairs[0].r.tres);
	unit_alloc.release(unit_alloc.ctx, pairs[0].r.tres_f);
	unit_alloc.release(unit_alloc.ctx, pairs);

	CHECK(EACH("batch,debug", "normal", parts, 3, qos, 3) == FS_ERR_VALUE);
	CHECK_STR(err.message, "partition \"debug\" of the job is not in the partitions array");
	CHECK(EACH("batch", "low", parts, 3, qos, 3) == FS_ERR_VALUE);
	CHECK_STR(err.message, "QOS \"low\" of the job is not in the qos array");
	CHECK(EACH("batch,", "normal", parts, 3, qos, 3) == FS_ERR_VALUE);
	CHECK_STR(err.message, "empty partition name in \"batch,\"");
	CHECK(EACH("batch,gpu", "normal", NULL, 0, qos, 3) == FS_ERR_VALUE);
	CHECK_STR(err.message,
	          "the job names 2 partitions (\"batch,gpu\") but no partitions array was given");
	CHECK(n == 0 && pairs == NULL);
	/* an error in one pair names it */
	c.max_qos_priority = 50;
	CHECK(EACH("batch,gpu", "normal,high", parts, 3, qos, 3) == FS_ERR_VALUE);
	CHECK_STR(err.context, "in partition \"batch\", QOS \"high\"");
	/* 400 partitions by 400 QOS: more pairs than the limit, refused before any work */
	many = malloc(800);
	for (i = 0; i < 799; i++)
		many[i] = i % 2 ? ',' : 'a';
	many[799] = '\0';
	CHECK(EACH(many, many, parts, 3, qos, 3) == FS_ERR_LIMIT);
	free(many);
#undef EACH
}

/* Releases the pairs fs_sprio_priority_each gave. */
static void
pairs_free(fs_sprio_pair *pairs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
	{
		unit_alloc.release(unit_alloc.ctx, pairs[i].r.tres);
		unit_alloc.release(unit_alloc.ctx, pairs[i].r.tres_f);
	}
	unit_alloc.release(unit_alloc.ctx, pairs);
}

/*
 * INCR_ONLY per pair, as SLURM raises each entry of a multi-partition job's priority_array by
 * that entry's new value only: batch/normal is 850 and gpu/normal 1600 by hand (test_each).
 */
static void
test_each_incr_only(void)
{
	fs_sprio_job j = job0();
	fs_sprio_cluster c = cluster0();
	fs_sprio_part parts[2];
	fs_sprio_qos qos[1];
	fs_sprio_prev prev[3];
	fs_sprio_pair *pairs;
	size_t n;
	fs_error err;

	config("PriorityWeightPartition=1000 PriorityWeightQOS=1000 PriorityWeightTRES=cpu=1000 "
	       "PriorityFlags=INCR_ONLY");
	c.max_partition_factor = 10;
	c.max_qos_priority = 100;
	j.partition_factor = 1;
	j.qos_priority = 20;
	j.tres = rv("cpu=4");
	memset(parts, 0, sizeof(parts));
	parts[0].name = fs_str_of("batch", 5);
	parts[0].factor = 5;
	parts[0].tres = rv("cpu=16");
	parts[1].name = fs_str_of("gpu", 3);
	parts[1].factor = 10;
	parts[1].tres = rv("cpu=8");
	qos[0].name = fs_str_of("normal", 6);
	qos[0].priority = 10;
	memset(prev, 0, sizeof(prev));
	prev[0].partition = fs_str_of("gpu", 3);
	prev[0].qos = fs_str_of("normal", 6);
	prev[0].priority = 1000; /* below gpu's 1600: the new value */
	prev[1].partition = fs_str_of("batch", 5);
	prev[1].qos = fs_str_of("normal", 6);
	prev[1].priority = 5000; /* above batch's 850: kept */
#define EACH(pl)                                                                                   \
	fs_sprio_priority_each(&pcfg, &j, fs_str_of(pl, strlen(pl)), fs_str_of("normal", 6), parts, 2, \
	                       qos, 1, &c, 0, &pairs, &n, &unit_alloc, &err)
	/* the job's one previous priority is no pair's when it names two partitions */
	j.has_previous = true;
	j.previous_priority = 9000;
	CHECK(EACH("batch,gpu") == FS_OK);
	CHECK(n == 2 && pairs[0].r.priority == 850 && pairs[1].r.priority == 1600);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 2, &err) == FS_OK);
	CHECK(pairs[0].r.priority == 5000 && pairs[1].r.priority == 1600);
	pairs_free(pairs, n);
	/* a job of one partition: its previous priority applies, and an entry for its pair too */
	CHECK(EACH("batch") == FS_OK);
	CHECK(n == 1 && pairs[0].r.priority == 9000);
	prev[1].priority = 9500;
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, &prev[1], 1, &err) == FS_OK);
	CHECK(pairs[0].r.priority == 9500);
	pairs_free(pairs, n);
	j.has_previous = false;
	/* without INCR_ONLY the entries are checked, and change nothing */
	config("PriorityWeightPartition=1000 PriorityWeightQOS=1000 PriorityWeightTRES=cpu=1000");
	CHECK(EACH("batch,gpu") == FS_OK);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 2, &err) == FS_OK);
	CHECK(pairs[0].r.priority == 850 && pairs[1].r.priority == 1600);
	prev[2] = prev[0];
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 3, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "two previous priorities for partition \"gpu\", QOS \"normal\"");
	prev[2].qos = fs_str_of("high", 4);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 3, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message,
	          "previous priority of partition \"gpu\", QOS \"high\" names no pair of the job");
	prev[2].qos = fs_str_of("normal", 6);
	prev[2].partition = fs_str_of(NULL, 0);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 3, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message,
	          "previous priority of partition \"\", QOS \"normal\" names no pair of the job");
	prev[0].priority = 4294967296LL;
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 1, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message,
	          "previous priority 4294967296 of partition \"gpu\", QOS \"normal\" is out of range");
	prev[0].priority = -1;
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 1, &err) == FS_ERR_VALUE);
	prev[0].priority = 1000;
	pairs_free(pairs, n);
	/* an admin-set priority is not raised */
	config("PriorityWeightPartition=1000 PriorityFlags=INCR_ONLY");
	j.has_direct = true;
	j.direct_priority = 7;
	CHECK(EACH("batch,gpu") == FS_OK);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, prev, 2, &err) == FS_OK);
	CHECK(pairs[0].r.priority == 7 && pairs[1].r.priority == 7);
	pairs_free(pairs, n);
	/* a job that names no partition: the entry with an empty partition is its pair */
	j.has_direct = false;
	prev[2].priority = 3000;
	CHECK(fs_sprio_priority_each(&pcfg, &j, fs_str_of(NULL, 0), fs_str_of("normal", 6), parts, 2,
	                             qos, 1, &c, 0, &pairs, &n, &unit_alloc, &err) == FS_OK);
	CHECK(n == 1 && pairs[0].r.priority < 3000);
	CHECK(fs_sprio_pairs_incr_only(&pcfg, pairs, n, &prev[2], 1, &err) == FS_OK);
	CHECK(pairs[0].r.priority == 3000);
	pairs_free(pairs, n);
#undef EACH
}

/* sprio's -o formats, -S sorts, the -j, -p and -u filters, -h, and the option errors. */
static void
test_sprio_options(void)
{
	fs_sprio_result r[3];
	double t[3][1];
	fs_sprio_row rows[3];
	static const char *const ids[3] = {"12", "5", "7_2"},
	                         *const users[3] = {"alice", "bob", "alice"},
	                         *const parts[3] = {"gpu", "batch", "batch"};
	static const double sums[3] = {300.0, 100.4, 200.0};
	const char *conf = "PriorityWeightQOS=1000";
	fs_sprio_opts o;
	fs_error err;
	char *out;
	size_t i;

#define ROWS()                                                                                     \
	for (i = 0; i < 3; i++)                                                                        \
	{                                                                                              \
		memset(&r[i], 0, sizeof(r[i]));                                                            \
		memset(&rows[i], 0, sizeof(rows[i]));                                                      \
		r[i].tres = r[i].tres_f = t[i];                                                            \
		r[i].sum = sums[i];                                                                        \
		r[i].qos = sums[i] / 2;                                                                    \
		rows[i].r = &r[i];                                                                         \
		rows[i].job_id = S(ids[i]);                                                                \
		rows[i].user = S(users[i]);                                                                \
		rows[i].partition = S(parts[i]);                                                           \
	}
#define SPRIO(opts, want)                                                                          \
	do                                                                                             \
	{                                                                                              \
		ROWS();                                                                                    \
		out = print(conf, "23.02", rows, 3, opts);                                                 \
		CHECK_STR(out, want);                                                                      \
		free(out);                                                                                 \
	} while (0)
	/* width 0: no padding; the default order by job id, an array task by its job's id */
	SPRIO("-o %i|%Y", "JOBID|PRIORITY\n5|100\n7_2|200\n12|300\n");
	SPRIO("--format=%i|%Y -S -y", "JOBID|PRIORITY\n12|300\n7_2|200\n5|100\n");
	SPRIO("-o '%i %Q' --sort u,-i", "JOBID QOS\n12 150\n7_2 100\n5 50\n");
	SPRIO("-S Q -o%i", "JOBID\n5\n7_2\n12\n");
	/* filters: -p, -u, -j (a job's id matches its array tasks), -h drops the header */
	SPRIO("-o %i -p batch", "JOBID\n5\n7_2\n");
	SPRIO("-o %i -u alice -h", "7_2\n12\n");
	SPRIO("-o %i -j 12,5", "JOBID\n5\n12\n");
	SPRIO("-o %i -j7", "JOBID\n7_2\n");
	SPRIO("-o %i --jobs=7_3", "JOBID\n");
	SPRIO("-o %i -j", "JOBID\n5\n7_2\n12\n");
	SPRIO("-o %i -p gpu,batch -u bob", "JOBID\n5\n");
	/* a prefix on every line; right-justified cut to the width keeps the first characters;
	 * left-justified cut and padded; "%%" is one separator, as strtok reads it, so "|" is a
	 * piece of its own, an unknown letter */
	SPRIO("-o \"x%.4i:%3r%%|\" -j 5", "xJOBI:PAR\nx   5:bat\n");
	CHECK(print_bad == '|');
	SPRIO("-o \"%.4i%6r|\" -j 5", "JOBIPARTIT|\n   5batch |\n");
	/* an unknown letter is left out with its suffix, and reported */
	ROWS();
	out = print(conf, "23.02", rows, 3, "-o \"%i %Z %r\" -j 5");
	CHECK_STR(out, "JOBID PARTITION\n5 batch\n");
	CHECK(print_bad == 'Z');
	free(out);
	ROWS();
	out = print(conf, "22.05", rows, 3, "-o \"%i %o|\" -j 5");
	CHECK_STR(out, "JOBID \n5 \n");
	CHECK(print_bad == 'o');
	free(out);
	/* -w in a format: the weight, blanks for the job's own fields */
	SPRIO("-w -o \"%i|%Q|%u|%S\"", "JOBID|QOS|USER|SITE\nWeights|1000||1\n");
#undef SPRIO
#undef ROWS

	/* errors */
	CHECK(fs_sprio_options_parse("-l -o %i", 8, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "sprio: fatal: Options -o(--format) and -l(--long) are mutually "
	                      "exclusive. Please remove one and retry.");
	CHECK(fs_sprio_options_parse("-S b", 4, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "sprio: error: Invalid sort specification: b");
	CHECK(fs_sprio_options_parse("-o", 2, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Option requires an argument") != NULL);
	CHECK(fs_sprio_options_parse("-M c1", 5, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.hint, "live controller") != NULL);
	CHECK(fs_sprio_options_parse("5", 1, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Unrecognized option") != NULL);
	CHECK(fs_sprio_options_parse("-j 5 6", 6, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(fs_sprio_options_parse("-o \"%i", 6, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "Unterminated quote") != NULL);
	CHECK(fs_sprio_options_parse("--long=1", 8, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(fs_sprio_options_parse("--formats=x", 11, &o, &unit_alloc, &err) == FS_ERR_SYNTAX);
	/* -j then one word: the list */
	CHECK(fs_sprio_options_parse("-j 5,6 -l", 9, &o, &unit_alloc, &err) == FS_OK);
	CHECK(o.jobs_given && o.jobs.len == 3 && (o.flags & FS_SPRIO_OPT_LONG));
	fs_sprio_opts_free(&o, &unit_alloc);
	CHECK(fs_sprio_options_parse("-S +y,-i,r", 10, &o, &unit_alloc, &err) == FS_OK);
	CHECK(o.nsort == 3 && o.sort[0] == 'y' && !o.descend[0] && o.descend[1] && !o.descend[2]);
	fs_sprio_opts_free(&o, &unit_alloc);
}

void
test_slurm_priority(void)
{
	test_order();
	test_sprio();
	test_sprio_options();
	test_normalised();
	test_no_normal();
	test_site_nice();
	test_age();
	test_job_size();
	test_sum();
	test_each();
	test_each_incr_only();
	while (nkept > 0)
		free(kept[--nkept]);
	test_defaults();
	test_slurm_conf();
	test_show_config();
	test_max_age();
	test_flags();
	test_tres();
	test_errors();
	test_error_context();
}
