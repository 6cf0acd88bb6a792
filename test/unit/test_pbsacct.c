/* test_pbsacct.c: unit tests of src/core/load/pbsacct.c: line splitting, the tokenizer by known
 * keys, field conversion, exec_host, errors with positions, and the usage formula evaluator. */
#include "unit.h"
#include "load/pbsacct.h"
#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char value_buf[512];

/* The value of key `key` (last one), or NULL. */
static const char *
value_of(const fs_pbs_record *r, const char *key)
{
	size_t i;
	const char *found = NULL;

	for (i = 0; i < r->npairs; i++)
	{
		const fs_pbs_pair *p = &r->pairs[i];

		if (p->key_len == strlen(key) && memcmp(r->line + p->key_off, key, p->key_len) == 0)
		{
			snprintf(value_buf, sizeof(value_buf), "%.*s", (int) p->val_len, r->line + p->val_off);
			found = value_buf;
		}
	}
	return found;
}

static const char *
text_field(const fs_pbs_record *r, int which)
{
	const fs_pbs_pair *p;

	if (r->text[which] < 0)
		return NULL;
	p = &r->pairs[r->text[which]];
	snprintf(value_buf, sizeof(value_buf), "%.*s", (int) p->val_len, r->line + p->val_off);
	return value_buf;
}

static bool
has_note(const fs_pbs_record *r, const char *part)
{
	const char *q = r->notes.data;
	size_t i;

	for (i = 0; i < r->nnotes; i++)
	{
		if (strstr(q, part) != NULL)
			return true;
		q += strlen(q) + 1;
	}
	return false;
}

static bool
parse(const char *line, fs_pbs_record *r)
{
	fs_error err;

	if (fs_pbs_parse(line, strlen(line), &unit_alloc, r, &err) != FS_OK)
	{
		printf("     unexpected error: %s / %s\n", err.message, err.detail);
		return false;
	}
	return true;
}

static void
check_error(const char *line, const char *detail)
{
	fs_pbs_record r;
	fs_error err;

	CHECK(fs_pbs_parse(line, strlen(line), &unit_alloc, &r, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, detail);
}

static void
test_quoting(void)
{
	fs_pbs_record r;
	char *t;

	/* ";" inside a quoted account, a space in a quoted value, single quotes around a '"' */
	if (!parse("04/15/2024 10:20:30;E;4242.pbs01;user=alice account=\"grant;2024 A\" "
	           "Resource_List.tag='say \"hi\" now' Resource_List.software=\"WRF 4.5\" "
	           "resources_used.walltime=01:00:00 start=1713176000 end=1713179600",
	           &r))
		return;
	CHECK(r.year == 2024 && r.month == 4 && r.day == 15 && r.hour == 10 && r.minute == 20 &&
	      r.second == 30);
	CHECK(r.type == 'E');
	CHECK(r.is_job && r.job_seq == 4242 && !r.has_index && !r.is_array_parent);
	CHECK(r.server_len == 5 && memcmp(r.line + r.server_off, "pbs01", 5) == 0);
	CHECK_STR(text_field(&r, FS_PBS_ACCOUNT), "grant;2024 A");
	CHECK_STR(value_of(&r, "Resource_List.tag"), "say \"hi\" now");
	CHECK_STR(value_of(&r, "Resource_List.software"), "WRF 4.5");
	CHECK(r.nreq_text == 2);
	t = unit_rv_text(r.used);
	CHECK_STR(t, "walltime=01:00:00");
	free(t);
	CHECK(r.has_time[FS_PBS_START] && r.time[FS_PBS_START] == 1713176000);
	CHECK(r.nnotes == 0);
	fs_pbs_free(&r, &unit_alloc);

	/* PP-464: the quote closes only before a space and a known key */
	if (!parse("04/16/2024 10:11:12;Q;4500.pbs01;user=someone account=\"value\" "
	           "malicious=\"evil\" jobname=STDIN",
	           &r))
		return;
	CHECK_STR(text_field(&r, FS_PBS_ACCOUNT), "value\" malicious=\"evil");
	CHECK_STR(text_field(&r, FS_PBS_JOBNAME), "STDIN");
	CHECK(r.npairs == 3);
	fs_pbs_free(&r, &unit_alloc);
}

static void
test_torque(void)
{
	fs_pbs_record r;
	char *t;

	/* unquoted values with spaces, plain seconds, trailing blank, TORQUE 2.x array id */
	if (!parse("11/02/2018 10:05:58;E;5555-3.tq01;user=troy exec_host=p0034/0+p0070/0-1,5 "
	           "Resource_Request_2.0=-L tasks=1:lprocs=1 -L tasks=2 session=9 "
	           "resources_used.cput=253 resources_used.walltime=19:23:4 resources_used.mem=4096 "
	           "resources_used.vmem=512kw start=10 end=69794 ",
	           &r))
		return;
	CHECK(r.job_seq == 5555 && r.has_index && r.array_index == 3);
	CHECK_STR(value_of(&r, "Resource_Request_2.0"), "-L tasks=1:lprocs=1 -L tasks=2");
	CHECK(r.nnotes == 0);
	t = unit_rv_text(r.used);
	CHECK_STR(t, "cput=00:04:13,mem=4kb,vmem=4mb,walltime=19:23:04");
	free(t);
	CHECK(r.nhosts == 2 && r.hosts[0].cpus == 1 && r.hosts[1].cpus == 3); /* 0-1,5 */
	CHECK(r.has_session && r.session == 9);
	fs_pbs_free(&r, &unit_alloc);

	/* grep prefix, missing separator, repeated hosts, *N and *0 */
	if (!parse("20150327:03/27/2015 00:06:27;E;7[];etime=1317509574start=1317509945 "
	           "exec_host=a/0*4+b/0*0+a/1*2 end=1317509946 resources_used.cput=1",
	           &r))
		return;
	CHECK(r.year == 2015 && r.month == 3 && r.day == 27);
	CHECK(r.is_array_parent && !r.has_index && r.job_seq == 7);
	CHECK(r.has_time[FS_PBS_ETIME] && r.time[FS_PBS_ETIME] == 1317509574);
	CHECK(r.has_time[FS_PBS_START] && r.time[FS_PBS_START] == 1317509945);
	CHECK(has_note(&r, "grep"));
	CHECK(has_note(&r, "space is missing"));
	CHECK(has_note(&r, "no CPUs"));
	CHECK(r.nhosts == 2 && r.hosts[0].len == 1 && r.hosts[0].name[0] == 'a' &&
	      r.hosts[0].cpus == 6 && r.hosts[1].cpus == 0);
	fs_pbs_free(&r, &unit_alloc);

	/* odd values become anomalies, never silence */
	if (!parse("01/01/2024 00:00:00;E;x1;start=5 end=4 Exit_status=a user=u user=v stray "
	           "resources_used.mem=12.27M",
	           &r))
		return;
	CHECK(!r.is_job);
	CHECK(has_note(&r, "not a job id"));
	CHECK(has_note(&r, "end is before start"));
	CHECK(has_note(&r, "Exit_status"));
	CHECK(has_note(&r, "more than once"));
	CHECK(has_note(&r, "unit PBS does not write"));
	CHECK(has_note(&r, "joined"));
	CHECK_STR(text_field(&r, FS_PBS_USER), "v stray");
	fs_pbs_free(&r, &unit_alloc);
}

static void
test_errors(void)
{
	check_error("garbage", "Expected a time stamp MM/DD/YYYY hh:mm:ss at character 1.");
	check_error("13/01/2024 00:00:00;E;1;a=b", "The month is out of range at character 1.");
	check_error("02/29/2023 00:00:00;E;1;a=b",
	            "The day is out of range for its month at character 4.");
	check_error("01/01/2024 00:00:00E;1;a=b",
	            "Expected \";\" after the time stamp at character 20.");
	check_error("01/01/2024 00:00:00;E;1", "Expected \";\" after the id at end of input.");
	check_error("01/01/2024 00:00:00;E;1;junk a=b", "Expected key=value at character 25.");
	check_error("01/01/2024 00:00:00;E;1;a=\"b c=d", "Unterminated quoted value at character 27.");
	{
		fs_pbs_record r;

		/* an L record is free text */
		CHECK(parse("02/28/2023 00:00:00;L;license;floating license hour:3 ", &r));
		CHECK(r.free_text && r.npairs == 0 && r.msg_len == 23 && !r.is_job);
		fs_pbs_free(&r, &unit_alloc);
		/* a leap day is a day */
		CHECK(parse("02/29/2024 00:00:00;E;1;", &r));
		CHECK(r.npairs == 0);
		fs_pbs_free(&r, &unit_alloc);
	}
}

static size_t
count_notes(const fs_pbs_record *r, const char *part)
{
	const char *q = r->notes.data;
	size_t i, n = 0;

	for (i = 0; i < r->nnotes; i++)
	{
		n += strstr(q, part) != NULL;
		q += strlen(q) + 1;
	}
	return n;
}

/* A line of n resources_used pairs, the keys r<i % distinct> for i = n down to 1. */
static char *
pairs_line(size_t n, size_t distinct)
{
	fs_sb sb;
	size_t i;

	fs_sb_init(&sb, &unit_alloc, 64 + n * 24);
	fs_sb_append(&sb, "04/15/2024 10:00:00;E;123.srv;", 30);
	for (i = n; i >= 1; i--)
		fs_sb_appendf(&sb, "%sresources_used.r%zu=%zu", i == n ? "" : " ", i % distinct, i);
	return sb.data;
}

/*
 * A line of 80,000 pairs in reverse key order (an insertion sort took 10.7 s on it): the jsonb
 * order comes out sorted, and keys written more than once are noted once each.
 */
static void
test_many_pairs(void)
{
	const size_t n = 80000;
	const size_t distincts[] = {n + 1, n / 4}; /* no key repeated; every key four times */
	size_t i, d;
	fs_pbs_record r;
	char *line;

	for (d = 0; d < 2; d++)
	{
		size_t distinct = distincts[d];
		size_t repeats = 0;

		line = pairs_line(n, distinct);
		if (!CHECK(parse(line, &r)))
		{
			free(line);
			return;
		}
		CHECK(r.npairs == n);
		for (i = 1; i < r.npairs; i++)
		{
			const fs_pbs_pair *p = &r.pairs[r.by_key[i - 1]], *q = &r.pairs[r.by_key[i]];
			int c = p->key_len != q->key_len
			            ? (p->key_len < q->key_len ? -1 : 1)
			            : memcmp(line + p->key_off, line + q->key_off, p->key_len);

			/* jsonb order; of a repeated key the earlier pair first (jsonb keeps the last) */
			if (!CHECK(c < 0 || (c == 0 && r.by_key[i - 1] < r.by_key[i])))
				break;
			if (c == 0 && (i < 2 || r.pairs[r.by_key[i - 2]].key_len != p->key_len ||
			               memcmp(line + r.pairs[r.by_key[i - 2]].key_off, line + p->key_off,
			                      p->key_len) != 0))
				repeats++;
		}
		CHECK(repeats == (distinct > n ? 0 : distinct));
		CHECK(count_notes(&r, "appears more than once; the last value is used") == repeats);
		CHECK(fs_rv_count(r.used) == (distinct > n ? n : distinct));
		fs_pbs_free(&r, &unit_alloc);
		free(line);
	}
}

/*
 * Keys the tokenizer did not know. A TORQUE E line of 2010 (a Python TORQUE parser's
 * docstring) ends in the site key session_id after resources_used.walltime; OpenPBS's writer
 * puts provision_vnode in P records, resources_released in z records and resvjobID in job
 * records of a reservation (those three lines are written by hand after its formats).
 */
static void
test_unknown_keys(void)
{
	fs_pbs_record r;

	if (CHECK(parse("09/13/2010 07:30:18;E;1698368.cla11pno;user=warin group=osiris "
	                "jobname=Mariva_Scen_2RES_484traj queue=parall_128 ctime=1284355807 "
	                "qtime=1284355807 etime=1284355807 start=1284355808 owner=warin@cla11pfr "
	                "exec_host=cla1a090/7+cla1a090/6 Resource_List.nodect=2 "
	                "Resource_List.walltime=60:00:00 session=27046 end=1284355818 "
	                "Exit_status=139 resources_used.cput=00:00:45 resources_used.mem=438096kb "
	                "resources_used.vmem=878572kb resources_used.walltime=00:00:10 "
	                "session_id=27046",
	                &r)))
	{
		CHECK_STR(value_of(&r, "resources_used.walltime"), "00:00:10");
		CHECK_STR(value_of(&r, "session_id"), "27046");
		CHECK(r.nnotes == 1);
		CHECK(has_note(&r, "unknown key \"session_id\" after the whole value of "
		                   "\"resources_used.walltime\": read as a pair of its own"));
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("04/10/2026 10:00:00;P;12.pbs;user=alice group=staff jobname=job1 queue=workq "
	                "provision_vnode=node1 provision_event=START start_time=1775815200",
	                &r)))
	{
		CHECK_STR(text_field(&r, FS_PBS_QUEUE), "workq");
		CHECK_STR(value_of(&r, "provision_vnode"), "node1");
		CHECK(r.nnotes == 0);
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("04/10/2026 10:00:00;z;12.pbs;resources_used.cput=00:00:01 "
	                "resources_used.walltime=00:10:00 resources_released=(node1:ncpus=4:mem=4gb)",
	                &r)))
	{
		CHECK_STR(value_of(&r, "resources_used.walltime"), "00:10:00");
		CHECK_STR(value_of(&r, "resources_released"), "(node1:ncpus=4:mem=4gb)");
		CHECK(r.nnotes == 0);
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("04/10/2026 10:00:00;Q;13.pbs;queue=R12 resvjobID=13.pbs", &r)))
	{
		CHECK_STR(text_field(&r, FS_PBS_QUEUE), "R12");
		CHECK(r.nnotes == 0);
		fs_pbs_free(&r, &unit_alloc);
	}
	/* no new pair after a value that goes on, after tokens joined to a value, or in TORQUE's
	 * Resource_Request_ values */
	if (CHECK(parse("04/10/2026 10:00:00;E;1.s;queue=q Resource_List.nodes=2:ppn=4: y=1", &r)))
	{
		CHECK_STR(value_of(&r, "Resource_List.nodes"), "2:ppn=4: y=1");
		CHECK(value_of(&r, "y") == NULL && has_note(&r, "has no known key and is joined"));
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("04/10/2026 10:00:00;E;1.s;jobname=a b y=1 queue=q", &r)))
	{
		CHECK_STR(value_of(&r, "jobname"), "a b y=1");
		CHECK_STR(text_field(&r, FS_PBS_QUEUE), "q");
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("04/10/2026 10:00:00;E;1.s;queue=q Resource_Request_2.0=-L tasks=1:lprocs=80",
	                &r)))
	{
		CHECK_STR(value_of(&r, "Resource_Request_2.0"), "-L tasks=1:lprocs=80");
		CHECK(!has_note(&r, "unknown key"));
		fs_pbs_free(&r, &unit_alloc);
	}
}

/*
 * Values no PBS writes: a cut M:S duration, a size over 1 EiB, a walltime over 68 years, a
 * walltime far from end - start (both sides of each bound); select and nodes as specs; a syslog
 * tag refused with the recipe.
 */
static void
test_implausible(void)
{
	fs_pbs_record r;
	fs_rv_item it;
	static const struct
	{
		const char *msg;
		const char *note; /* NULL: no note of this family */
	} cases[] = {
	    {"start=1000 end=2200 resources_used.walltime=23:0",
	     "cut duration: resources_used.walltime=23:0 is not a duration PBS writes (HH:MM:SS or "
	     "seconds); read as M:S, 1380 s (a truncated line?)"},
	    {"start=1000 end=2380 resources_used.walltime=23:00:00", "far walltime"},
	    {"start=1000 end=1000000 resources_used.walltime=277:30:00", NULL}, /* 999000 s: 0.1% */
	    {"start=1000 end=2200 resources_used.walltime=1800", NULL},
	    {"start=1000 end=2200 resources_used.walltime=1801",
	     "far walltime: resources_used.walltime is 1801 s but end - start is 1200 s (more than "
	     "600 s and 10% apart)"},
	    {"start=1000 end=11000 resources_used.walltime=9000", NULL},
	    {"start=1000 end=11000 resources_used.walltime=8999", "far walltime"},
	    {"start=5000 end=1000 resources_used.walltime=9000", NULL}, /* end before start instead */
	    {"resources_used.mem=1048576tb", NULL},
	    {"resources_used.mem=1048577tb",
	     "implausible size: resources_used.mem=1048577tb is over 2^60 bytes (1 EiB)"},
	    {"Resource_List.vmem=100000000000000000000000tb", "implausible size"},
	    {"resources_used.walltime=2147483647", NULL},
	    {"resources_used.walltime=2147483648",
	     "implausible duration: resources_used.walltime=2147483648 is over 2^31 s (68 years)"},
	    {"resources_used.cput=2147483648", NULL}, /* CPU time of many cores may be that long */
	    {"resources_used.cput=1:2", "cut duration"},
	    {"resources_used.walltime=1:2:3", NULL},
	};
	size_t i;
	char line[256];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const char *q;
		size_t k;
		bool found = false, family = false;

		snprintf(line, sizeof(line), "01/01/2009 12:00:00;E;1.s;queue=q %s", cases[i].msg);
		if (!CHECK(parse(line, &r)))
			continue;
		q = r.notes.data;
		for (k = 0; k < r.nnotes; k++, q += strlen(q) + 1)
		{
			if (strncmp(q, "cut ", 4) == 0 || strncmp(q, "far ", 4) == 0 ||
			    strncmp(q, "implausible ", 12) == 0)
				family = true;
			if (cases[i].note && strncmp(q, cases[i].note, strlen(cases[i].note)) == 0)
				found = true;
		}
		if (!CHECK(cases[i].note ? found : !family))
			printf("     case %zu: %s\n", i, cases[i].msg);
		fs_pbs_free(&r, &unit_alloc);
	}
	/* the cut value is read as M:S, as resvec reads it */
	if (CHECK(parse("01/01/2009 12:00:00;E;1.s;queue=q resources_used.walltime=23:0", &r)))
	{
		CHECK(fs_rv_get(r.used, "walltime", 8, &it) && it.amount == 1380);
		fs_pbs_free(&r, &unit_alloc);
	}
	/* select=1 is one chunk: a spec, not an amount; nodes alike, whatever the form */
	if (CHECK(parse("01/01/2009 12:00:00;Q;1.s;queue=q Resource_List.select=1 "
	                "Resource_List.nodes=2 Resource_List.ncpus=4",
	                &r)))
	{
		CHECK(r.nreq_text == 2);
		CHECK(!fs_rv_get(r.requested, "select", 6, &it) &&
		      !fs_rv_get(r.requested, "nodes", 5, &it));
		CHECK(fs_rv_get(r.requested, "ncpus", 5, &it) && it.amount == 4);
		fs_pbs_free(&r, &unit_alloc);
	}
	/* two records glued by a NUL (psql drops from the NUL to the line end) or a lost newline */
	if (CHECK(parse("06/12/2009 20:00:51;Q;710128.s;queue=dgiseq06/12/2009 21:00:14;Q;710129.s;"
	                "queue=dgiseq",
	                &r)))
	{
		CHECK(has_note(&r, "merged records: the line holds another record's stamp "
		                   "\"06/12/2009 21:00:14;Q;\" at character 44"));
		fs_pbs_free(&r, &unit_alloc);
	}
	if (CHECK(parse("06/12/2009 20:00:51;Q;710128.s;queue=a;b jobname=06/12/2009 21:00:1;Q;", &r)))
	{
		CHECK(!has_note(&r, "merged records"));
		fs_pbs_free(&r, &unit_alloc);
	}
	/* a syslog tag: refused, the recipe in the detail; not a tag unless PBS's line follows */
	check_error("Jun 12 10:00:00 master torque: 01/12/2014 23:57:07;E;1.s;queue=q",
	            "The line starts with the syslog tag \"Jun 12 10:00:00 master torque: \" before "
	            "PBS's time stamp; strip it before loading, such as with sed -E "
	            "'s/^[^;]*: ([0-9]{2}\\/[0-9]{2}\\/[0-9]{4} )/\\1/' in the \\copy ... FROM PROGRAM "
	            "pipeline.");
	check_error("torque: 01/12/2014 23:57:07 E;1.s;queue=q",
	            "Expected a time stamp MM/DD/YYYY hh:mm:ss at character 1.");
	check_error("a;b: 01/12/2014 23:57:07;E;1.s;queue=q",
	            "Expected a time stamp MM/DD/YYYY hh:mm:ss at character 1.");
}

void
test_pbsacct(void)
{
	test_implausible();
	test_unknown_keys();
	test_quoting();
	test_torque();
	test_errors();
	test_many_pairs();
}
