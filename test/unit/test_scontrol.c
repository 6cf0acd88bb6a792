/* test_scontrol.c: scontrol show job|partition|node|config output read into records. */
#include "load/scontrol.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The records as "record:Key=Value|..." for comparison. */
static char *
records(const char *text)
{
	static char buf[4096];
	fs_scontrol_attr *v;
	size_t n, i;
	fs_error err;

	buf[0] = '\0';
	if (fs_scontrol_parse(text, strlen(text), &v, &n, &unit_alloc, &err) != FS_OK)
		return strcpy(buf, err.message);
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%zu:%.*s=%.*s", i ? "|" : "",
		         v[i].record, (int) v[i].key_len, text + v[i].key_off, (int) v[i].val_len,
		         text + v[i].val_off);
	free(v);
	return buf;
}

void
test_scontrol(void)
{
	/* scontrol show job, multi-line: free text to the end of its line, "=" in a job name */
	CHECK_STR(records("JobId=101 JobName=my job=x 2\n"
	                  "   UserId=alice(1000) GroupId=alice(1000) MCS_label=N/A\n"
	                  "   Priority=4294901758 Nice=0 Account=physics QOS=normal\n"
	                  "   JobState=PENDING Reason=Priority Dependency=(null)\n"
	                  "   Partition=batch,gpu AllocNode:Sid=login1:4242\n"
	                  "   TRES=cpu=4,mem=16G,node=1,billing=4\n"
	                  "   Command=/home/alice/run.sh --opt=1 two\n"
	                  "   WorkDir=/home/alice/my dir\n"
	                  "   Comment=a comment X=1 \n"
	                  "   Power=\n"
	                  "\n"
	                  "JobId=102 JobName=b\n"
	                  "   Priority=10 Nice=100\r\n"),
	          "1:JobId=101|1:JobName=my job=x 2|1:UserId=alice(1000)|1:GroupId=alice(1000)|"
	          "1:MCS_label=N/A|1:Priority=4294901758|1:Nice=0|1:Account=physics|1:QOS=normal|"
	          "1:JobState=PENDING|1:Reason=Priority|1:Dependency=(null)|1:Partition=batch,gpu|"
	          "1:AllocNode:Sid=login1:4242|1:TRES=cpu=4,mem=16G,node=1,billing=4|"
	          "1:Command=/home/alice/run.sh --opt=1 two|1:WorkDir=/home/alice/my dir|"
	          "1:Comment=a comment X=1|1:Power=|2:JobId=102|2:JobName=b|2:Priority=10|"
	          "2:Nice=100");
	/* -o: one record per line; a value with spaces runs to the next Key= word */
	CHECK_STR(records("JobId=7 JobName=my job UserId=bob(1001) Comment=two words Nice=5\n"
	                  "JobId=8 JobName=x\n"),
	          "1:JobId=7|1:JobName=my job|1:UserId=bob(1001)|1:Comment=two words|1:Nice=5|"
	          "2:JobId=8|2:JobName=x");
	/* scontrol show node: OS to the end of its line */
	CHECK_STR(records("NodeName=n1 Arch=x86_64 CoresPerSocket=4\n"
	                  "   OS=Linux 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1\n"
	                  "   Reason=maintenance [root@2026-12-01T10:00:00]\n"),
	          "1:NodeName=n1|1:Arch=x86_64|1:CoresPerSocket=4|"
	          "1:OS=Linux 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1|"
	          "1:Reason=maintenance [root@2026-12-01T10:00:00]");
	/* scontrol show config: the header skipped, one record per block, values to the end */
	CHECK_STR(records("Configuration data as of 2026-12-01T10:00:00\n"
	                  "AccountingStorageTRES   = cpu,mem,energy,node,billing\n"
	                  "PriorityFlags           = \n"
	                  "PriorityType            = priority/multifactor\n"
	                  "SLURM_VERSION           = 22.05.8\n"
	                  "\n"
	                  "Cgroup Support Configuration:\n"
	                  "AllowedRAMSpace         = 100.0%\n"
	                  "\n"
	                  "Slurmctld(primary) at host1 is UP\n"),
	          "1:AccountingStorageTRES=cpu,mem,energy,node,billing|1:PriorityFlags=|"
	          "1:PriorityType=priority/multifactor|1:SLURM_VERSION=22.05.8|"
	          "2:AllowedRAMSpace=100.0%");
	/* edges: nothing, text outside records, an indented line without a record */
	CHECK_STR(records(""), "");
	CHECK_STR(records("no keys here\n   A=1\n"), "");
	CHECK_STR(records("   A=1\n"), "");
	CHECK_STR(records("PartitionName=batch\n   Nodes=n[1-4] =x y\n"),
	          "1:PartitionName=batch|1:Nodes=n[1-4] =x y");
}
