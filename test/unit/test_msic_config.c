/* test_msic_config.c: the MSIC configuration file (parsed and built by hand) and its holidays
 * file. */
#include "msic/msic_config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fs_status
parse(const char *text, const char *host, fs_msic_config *cfg, fs_error *err)
{
	return fs_msic_config_parse(text, strlen(text), host, cfg, &unit_alloc, err);
}

/* The message of a file that must fail. */
static const char *
fails(const char *text)
{
	static fs_error err;
	fs_msic_config cfg;

	if (parse(text, "Server.Example", &cfg, &err) == FS_OK)
	{
		fs_msic_config_free(&cfg, &unit_alloc);
		return "(accepted)";
	}
	CHECK(err.status == FS_ERR_SYNTAX);
	return err.message;
}

static const char *guide = "# the administrator's guide's example\n"
                           "SUBMIT_QUEUE\t\t\tpending\n"
                           "BATCH_QUEUES\t\t\thosta@hosta,hostb@hostb\n"
                           "EXPRESS_QUEUE   special\n"
                           "TARGET_LOAD_PCT\t\t\t90%\t\t\n"
                           "TARGET_LOAD_VARIANCE\t\t-15%,+10%\n"
                           "ENFORCE_PRIME_TIME False\n"
                           "FAIR_SHARE QUEUE:low:10:10\n"
                           "FAIR_SHARE QUEUE:med:15:10\n"
                           "FAIR_SHARE QUEUE:hi:40:10\n"
                           "FAIR_SHARE QUEUE:special:35:10\n";

static void
test_guide_example(void)
{
	fs_msic_config cfg;
	fs_error err;

	if (!CHECK(parse(guide, "Server.Example", &cfg, &err) == FS_OK))
	{
		printf("  %s / %s\n", err.message, err.detail);
		return;
	}
	CHECK(cfg.n_submit == 1);
	CHECK_STR(fs_msic_str(&cfg, cfg.submit[0].name), "pending");
	CHECK_STR(fs_msic_str(&cfg, cfg.submit[0].host), "server.example"); /* lower-cased */
	CHECK(cfg.n_batch == 2);
	CHECK_STR(fs_msic_str(&cfg, cfg.batch[1].name), "hostb");
	CHECK_STR(fs_msic_str(&cfg, cfg.batch[1].host), "hostb");
	CHECK_STR(fs_msic_str(&cfg, cfg.express_queue), "special");
	CHECK_DBL(cfg.target_load_pct, 90, 0);
	CHECK_DBL(cfg.target_load_minus, 15, 0);
	CHECK_DBL(cfg.target_load_plus, 10, 0);
	CHECK(!cfg.enforce_prime_time);
	CHECK(cfg.n_fair == 4);
	CHECK_STR(fs_msic_str(&cfg, cfg.fair[2].queue), "hi");
	CHECK(cfg.fair[2].shares == 40 && cfg.fair[2].max_run_pct == 10);
	/* defaults of schedinit.c:reset_config */
	CHECK(cfg.max_wait_time == 432000);
	CHECK(cfg.suspend_threshold == 10 && cfg.max_user_run_jobs == 10);
	CHECK(cfg.force_requeue && cfg.update_comments);
	CHECK_STR(cfg.sched_restart_action, "NONE");
	CHECK(cfg.share_info_file == FS_MSIC_NONE && cfg.sched_host == FS_MSIC_NONE);
	fs_msic_config_free(&cfg, &unit_alloc);

	/* without a local host, a bare name has no host */
	if (CHECK(parse(guide, NULL, &cfg, &err) == FS_OK))
	{
		CHECK(cfg.submit[0].host == FS_MSIC_NONE);
		fs_msic_config_free(&cfg, &unit_alloc);
	}
}

static void
test_values(void)
{
	fs_msic_config cfg;
	fs_error err;
	const char *base = "SUBMIT_QUEUE pending\nBATCH_QUEUES a@a\n";
	char buf[1024];

	/* time values: SS, MM:SS (9:00 is 540 s), HH:MM:SS, empty fields merged */
	snprintf(buf, sizeof(buf),
	         "%sMAX_WAIT_TIME 9:00\nPRIME_TIME_START 4:00:00\nPRIME_TIME_END 1::30\n"
	         "PRIME_TIME_WALLT_LIMIT +59\nSUSPEND_THRESHOLD 25 percent\nMAX_USER_RUN_JOBS 37",
	         base);
	if (CHECK(parse(buf, NULL, &cfg, &err) == FS_OK))
	{
		CHECK(cfg.max_wait_time == 540);
		CHECK(cfg.prime_start == 14400);
		CHECK(cfg.prime_end == 90);
		CHECK(cfg.wallt_limit == 59);
		CHECK(cfg.suspend_threshold == 25);
		CHECK(cfg.max_user_run_jobs == 37); /* the original loses the 7 at end of file */
		fs_msic_config_free(&cfg, &unit_alloc);
	}
	/* repeated lists append; the date form; booleans in any case; words after the argument */
	snprintf(buf, sizeof(buf),
	         "%sBATCH_QUEUES b@B,,c@c # more\n  FORCE_REQUEUE Off\nUPDATE_COMMENTS Y\n"
	         "ENFORCE_PRIME_TIME 9/1/2000@8:00:00\nPRIME_TIME_START 08:00:00\n"
	         "PRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 4:00:00\nSCHED_HOST Big.Host\n"
	         "TARGET_LOAD_VARIANCE +5%%abc\nSCHED_RESTART_ACTION RERUN\n",
	         base);
	if (CHECK(parse(buf, NULL, &cfg, &err) == FS_OK))
	{
		CHECK(cfg.n_batch == 3);
		CHECK_STR(fs_msic_str(&cfg, cfg.batch[1].host), "B"); /* verbatim */
		CHECK(!cfg.force_requeue && cfg.update_comments);
		CHECK(cfg.enforce_prime_time && cfg.has_prime_from);
		CHECK(cfg.prime_from.year == 2000 && cfg.prime_from.mon == 9 && cfg.prime_from.mday == 1 &&
		      cfg.prime_from.hour == 8);
		CHECK_STR(fs_msic_str(&cfg, cfg.sched_host), "big.host");
		CHECK(cfg.target_load_minus == 0 && cfg.target_load_plus == 5);
		CHECK_STR(cfg.sched_restart_action, "RERUN");
		fs_msic_config_free(&cfg, &unit_alloc);
	}
	else
		printf("  %s / %s\n", err.message, err.detail);
}

static void
test_errors(void)
{
	const char *base = "SUBMIT_QUEUE pending\nBATCH_QUEUES a@a\n";
	char buf[1200];
	char name[64];

	snprintf(buf, sizeof(buf), "%s# c\nMAX_WAIT_TIME 3600\n", base);
	CHECK_STR(fails(buf), "line 4: Error parsing option 'MAX_WAIT_TIME'");
	snprintf(buf, sizeof(buf), "%sMAX_WAIT_TIME 1:60\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'MAX_WAIT_TIME'");
	snprintf(buf, sizeof(buf), "%sMAX_WAIT_TIME 1:2:3:4\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'MAX_WAIT_TIME'");
	snprintf(buf, sizeof(buf), "%sFOO bar\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'FOO'");
	snprintf(buf, sizeof(buf), "%ssubmit_queue x\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'submit_queue'");
	snprintf(buf, sizeof(buf), "%sFORCE_REQUEUE maybe\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'FORCE_REQUEUE'");
	snprintf(buf, sizeof(buf), "%sSCHED_RESTART_ACTION rerun\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'SCHED_RESTART_ACTION'");
	snprintf(buf, sizeof(buf), "%sTARGET_LOAD_PCT abc\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'TARGET_LOAD_PCT'");
	snprintf(buf, sizeof(buf), "%sTARGET_LOAD_VARIANCE -15%%,-10%%\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'TARGET_LOAD_VARIANCE'");
	snprintf(buf, sizeof(buf), "%sTARGET_LOAD_VARIANCE 15%%\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'TARGET_LOAD_VARIANCE'");
	snprintf(buf, sizeof(buf), "%sENFORCE_PRIME_TIME 02/30/2000@08:00:00\n", base);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'ENFORCE_PRIME_TIME'");
	snprintf(buf, sizeof(buf), "%sSUSPEND_THRESHOLD\n", base);
	CHECK_STR(fails(buf), "line 3: Error in config file");
	memset(name, 'q', 50);
	name[50] = '\0';
	snprintf(buf, sizeof(buf), "%sEXPRESS_QUEUE %s\n", base, name);
	CHECK_STR(fails(buf), "line 3: Error parsing option 'EXPRESS_QUEUE'");
	name[49] = '\0';
	snprintf(buf, sizeof(buf), "%sEXPRESS_QUEUE %s\n", base, name);
	CHECK_STR(fails(buf), "(accepted)");
	/* FAIR_SHARE, in the original's order of checks */
	CHECK_STR(fails("FAIR_SHARE queue:a:10:10\n"),
	          "line 1: Unrecognized FAIR_SHARE directive: queue");
	CHECK_STR(fails("FAIR_SHARE QUEUE:a:10\n"),
	          "line 1: Incomplete FAIR_SHARE directive: QUEUE:a:10");
	CHECK_STR(fails("FAIR_SHARE QUEUE:a:0:10\n"),
	          "line 1: FAIR_SHARE share percentage (0) should be between 1 and 100");
	CHECK_STR(fails("FAIR_SHARE QUEUE:a:10:101\n"),
	          "line 1: FAIR_SHARE running job percentage (101) should be between 1 and 100");
	CHECK_STR(fails("FAIR_SHARE QUEUE:a:60:10\nFAIR_SHARE QUEUE:a:40:10\n"),
	          "line 2: FAIR_SHARE queue \"a\" is already listed");
	CHECK_STR(fails("FAIR_SHARE QUEUE:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:10:10\n"),
	          "line 1: Error parsing option 'FAIR_SHARE'");
	/* line length: 509 characters are read, 510 are too long */
	memset(buf, ' ', 600);
	memcpy(buf, "SUBMIT_QUEUE x", 14);
	buf[509] = '\n';
	buf[510] = '\0';
	CHECK_STR(fails(buf), "No BATCH_QUEUES specified.  Exiting.");
	buf[509] = ' ';
	buf[510] = '\n';
	buf[511] = '\0';
	CHECK_STR(fails(buf), "line 1: Line too long");
	/* the whole-file checks, in order */
	CHECK_STR(fails(""), "No SUBMIT_QUEUE specified.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE a,b\n"), "Only one SUBMIT_QUEUE can be specified.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE a\nSUBMIT_QUEUE b\nBATCH_QUEUES x@x"),
	          "Only one SUBMIT_QUEUE can be specified.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE a\n"), "No BATCH_QUEUES specified.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES hosta@hosta,hosta@hosta\n"),
	          "Queues listed in BATCH_QUEUES cannot be repeated.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES hosta@hosta,hosta@hostb\n"), "(accepted)");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME yes\n"
	                "PRIME_TIME_START 00:00:00\nPRIME_TIME_END 18:00:00\n"),
	          "ENFORCE_PRIME_TIME set but PRIME_TIME_START/END is not specified.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME yes\n"
	                "PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00\n"),
	          "ENFORCE_PRIME_TIME set but no PRIME_TIME_WALLT_LIMIT given.");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a,p@server.example\n"),
	          "SUBMIT_QUEUE p cannot be listed in BATCH_QUEUES.  Exiting.");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a,p@hostx\n"), "(accepted)");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:a:99:1\n"),
	          "FAIR_SHARE: total shares (99) < 100 %");
	CHECK_STR(fails("SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:a:99:1\n"
	                "FAIR_SHARE QUEUE:b:2:1\n"),
	          "FAIR_SHARE: total shares (101) > 100 %");
	/* the first bad line stops parsing, before the whole-file checks */
	CHECK_STR(fails("FOO 1\nBAR 2\n"), "line 1: Error parsing option 'FOO'");
}

static void
test_round_trip(void)
{
	fs_msic_config cfg, back;
	fs_error err;
	fs_sb a, b;

	if (!CHECK(parse(guide, "h", &cfg, &err) == FS_OK))
		return;
	fs_sb_init(&a, &unit_alloc, 64);
	fs_msic_config_format(&a, &cfg);
	if (CHECK(parse(a.data, NULL, &back, &err) == FS_OK))
	{
		fs_sb_init(&b, &unit_alloc, 64);
		fs_msic_config_format(&b, &back);
		CHECK_STR(b.data, a.data);
		CHECK(strstr(a.data, "SUBMIT_QUEUE pending@h\n") != NULL);
		CHECK(strstr(a.data, "TARGET_LOAD_VARIANCE -15%,+10%\n") != NULL);
		unit_alloc.release(NULL, b.data);
		fs_msic_config_free(&back, &unit_alloc);
	}
	unit_alloc.release(NULL, a.data);
	fs_msic_config_free(&cfg, &unit_alloc);
}

static void
test_holidays(void)
{
	const char *file = "* Prime/Nonprime Table for UNICOS Accounting System\n"
	                   "*\n"
	                   "YEAR\t2000\t0800\t1800\n"
	                   "  359 * Christmas\n"
	                   "1\tNew Year's Day\n"
	                   "0\n"
	                   "\n"
	                   "359\n"
	                   "366\n";
	int *days;
	size_t n;
	fs_error err;

	if (CHECK(fs_msic_holidays_parse(file, strlen(file), &days, &n, &unit_alloc, &err) == FS_OK))
	{
		CHECK(n == 3);
		if (n == 3)
			CHECK(days[0] == 1 && days[1] == 359 && days[2] == 366);
		unit_alloc.release(NULL, days);
	}
	CHECK(fs_msic_holidays_parse("1\n367\n", 6, &days, &n, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "holidays line 2: Syntax error");
	CHECK(fs_msic_holidays_parse("Jan1\n", 5, &days, &n, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK(fs_msic_holidays_parse("* none\n", 7, &days, &n, &unit_alloc, &err) == FS_OK && n == 0 &&
	      days == NULL);
}

static void
test_built_value(void)
{
	fs_msic_config cfg;
	fs_error err;
	size_t a;

	fs_msic_config_init(&cfg, &unit_alloc);
	CHECK(fs_msic_config_validate(&cfg, &unit_alloc, &err) == FS_OK); /* nothing is required */
	a = fs_msic_config_add_str(&cfg, "qa", 2);
	fs_msic_config_add_queue(&cfg, false, a, FS_MSIC_NONE, &unit_alloc);
	fs_msic_config_add_queue(&cfg, false, fs_msic_config_add_str(&cfg, "qa", 2),
	                         fs_msic_config_add_str(&cfg, "h", 1), &unit_alloc);
	CHECK(fs_msic_config_validate(&cfg, &unit_alloc, &err) == FS_OK); /* other host: distinct */
	fs_msic_config_add_queue(&cfg, false, a, FS_MSIC_NONE, &unit_alloc);
	CHECK(fs_msic_config_validate(&cfg, &unit_alloc, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "Queues listed in BATCH_QUEUES cannot be repeated.  Exiting.");
	CHECK_STR(err.context, "in batch_queues[3] of the configuration");
	cfg.n_batch = 2;
	cfg.wallt_limit = -3600;
	CHECK(fs_msic_config_validate(&cfg, &unit_alloc, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "Error parsing option 'PRIME_TIME_WALLT_LIMIT'");
	cfg.wallt_limit = 0;
	fs_msic_config_add_fair(&cfg, fs_msic_config_add_str(&cfg, "lo w", 4), 100, 10, 0, &unit_alloc);
	CHECK(fs_msic_config_validate(&cfg, &unit_alloc, &err) == FS_ERR_VALUE);
	CHECK_STR(err.message, "Error parsing option 'FAIR_SHARE'");
	CHECK_STR(err.context, "in fair_share[1] of the configuration");
	fs_msic_config_free(&cfg, &unit_alloc);
}

/* Many BATCH_QUEUES and FAIR_SHARE lines: repeats found through the indexes, far apart too. */
/* An entry is written back as "BATCH_QUEUES queue@host" on one line: one that would not fit once
 * the local host is added is refused, so that every parsed file formats into one that parses. */
static void
test_entry_fits_a_line(void)
{
	fs_sb sb;
	fs_msic_config cfg;
	fs_error err;
	int i;

	fs_sb_init(&sb, &unit_alloc, 64);
	fs_sb_appendf(&sb, "SUBMIT_QUEUE p\nBATCH_QUEUES ");
	for (i = 0; i < 490; i++)
		fs_sb_append(&sb, "q", 1);
	fs_sb_append(&sb, "\n", 1);
	CHECK(fs_msic_config_parse(sb.data, sb.len, NULL, &cfg, &unit_alloc, &err) == FS_OK);
	fs_msic_config_free(&cfg, &unit_alloc);
	CHECK(fs_msic_config_parse(sb.data, sb.len, "a.long.local.host", &cfg, &unit_alloc, &err) ==
	      FS_ERR_SYNTAX);
	CHECK(strstr(err.detail, "must fit on one line of 509 bytes") != NULL);
	unit_alloc.release(unit_alloc.ctx, sb.data);
}

static void
test_many_entries(void)
{
	enum
	{
		N = 20000
	};
	fs_sb sb;
	fs_msic_config cfg;
	fs_error err;
	int i;

	fs_sb_init(&sb, &unit_alloc, 64);
	fs_sb_appendf(&sb, "SUBMIT_QUEUE p\nBATCH_QUEUES b\n");
	for (i = 0; i < N; i++)
		fs_sb_appendf(&sb, "FAIR_SHARE QUEUE:f%d:1:0\n", i);
	fs_sb_appendf(&sb, "FAIR_SHARE QUEUE:f0:1:0\n");
	CHECK(fs_msic_config_parse(sb.data, sb.len, NULL, &cfg, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "line 20003: FAIR_SHARE queue \"f0\" is already listed");
	CHECK_STR(err.detail, "It was first given on line 3.");
	sb.len = 0;
	fs_sb_appendf(&sb, "SUBMIT_QUEUE p\n");
	for (i = 0; i < N; i++)
		fs_sb_appendf(&sb, "BATCH_QUEUES b%d@h\n", i);
	CHECK(fs_msic_config_parse(sb.data, sb.len, NULL, &cfg, &unit_alloc, &err) == FS_OK);
	CHECK(cfg.n_batch == N);
	fs_msic_config_free(&cfg, &unit_alloc);
	fs_sb_appendf(&sb, "BATCH_QUEUES b%d@h\n", N - 1);
	CHECK(fs_msic_config_parse(sb.data, sb.len, NULL, &cfg, &unit_alloc, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Queue \"b19999\" is listed twice with the same exec host.");
	unit_alloc.release(unit_alloc.ctx, sb.data);
}

void
test_msic_config(void)
{
	char hms[32];

	test_guide_example();
	test_values();
	test_errors();
	test_round_trip();
	test_holidays();
	test_built_value();
	test_many_entries();
	test_entry_fits_a_line();
	fs_msic_format_hms(4 * 3600 + 61, hms);
	CHECK_STR(hms, "04:01:01");
	fs_msic_format_hms(100 * 3600, hms);
	CHECK_STR(hms, "100:00:00");
}
