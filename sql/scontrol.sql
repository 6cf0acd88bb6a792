-- scontrol: scontrol show job|partition|node|config output as records of Key=Value pairs.
SET search_path = fairsched, public;
\pset null '(null)'

-- scontrol show job, multi-line (22.05): free text to the end of its line, "=" in a job name,
-- records split at the blank line
SELECT record, jsonb_pretty(attrs) FROM scontrol_show($$
JobId=101 JobName=nightly run=2
   UserId=alice(1000) GroupId=alice(1000) MCS_label=N/A
   Priority=11930 Nice=0 Account=physics QOS=normal
   JobState=PENDING Reason=Priority Dependency=(null)
   SubmitTime=2026-12-01T08:00:00 EligibleTime=2026-12-01T08:00:00
   AccrueTime=2026-12-01T08:00:00
   Partition=batch AllocNode:Sid=login1:4242
   NumNodes=1-1 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   TRES=cpu=4,mem=16G,node=1,billing=4
   Command=/home/alice/run.sh --date=today fast
   WorkDir=/home/alice/my project
   Comment=rerun of 99 after=fix

JobId=102 JobName=short
   UserId=bob(1001) GroupId=bob(1001) MCS_label=N/A
   Priority=1 Nice=500 Account=chem QOS=high
   JobState=PENDING Reason=Priority Dependency=(null)
   SubmitTime=2026-12-01T08:55:00 EligibleTime=2026-12-01T08:55:00
   AccrueTime=Unknown
   TimeLimit=1-00:00:00
$$);

-- -o: one line per record, values with spaces to the next Key= word
SELECT record, attrs FROM scontrol_show(
    'JobId=7 JobName=my job UserId=bob(1001) Comment=two words Nice=5' || E'\n' ||
    'JobId=8 JobName=x');

-- scontrol show partition and show node
SELECT record, attrs->>'PartitionName' AS name, attrs->>'PriorityJobFactor' AS factor,
       attrs->>'PriorityTier' AS tier, attrs->>'TRES' AS tres
FROM scontrol_show($$
PartitionName=batch
   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
   MaxTime=7-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED
   Nodes=n[1-4]
   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO
   State=UP TotalCPUs=64 TotalNodes=4 SelectTypeParameters=NONE
   TRES=cpu=64,mem=256G,node=4,billing=64

PartitionName=urgent
   MaxTime=1-00:00:00 Nodes=n[1-2]
   PriorityJobFactor=10 PriorityTier=2
   TRES=cpu=32,mem=128G,node=2,billing=32
$$);
SELECT attrs->>'NodeName' AS node, attrs->>'OS' AS os, attrs->>'Reason' AS reason
FROM scontrol_show($$
NodeName=n1 Arch=x86_64 CoresPerSocket=8
   CPUAlloc=0 CPUTot=16 CPULoad=0.01
   OS=Linux 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)
   State=DOWN ThreadsPerCore=1 TmpDisk=0 Weight=1
   Reason=maintenance window [root@2026-12-01T10:00:00]
$$);

-- scontrol show config: the header and the section titles skipped, one record per block
SELECT record, attrs FROM scontrol_show($$
Configuration data as of 2026-12-01T10:00:00
PriorityCalcPeriod      = 00:05:00
PriorityFlags           = 
PriorityWeightQOS       = 2000
SLURM_VERSION           = 22.05.8

Cgroup Support Configuration:
AllowedRAMSpace         = 100.0%

Slurmctld(primary) at host1 is UP
$$);

-- edges: nothing, text without records, CRLF line ends, a word that is no key joins its value
SELECT count(*) FROM scontrol_show('');
SELECT count(*) FROM scontrol_show(E'no records here\n   A=1\n');
SELECT attrs FROM scontrol_show(E'PartitionName=a\r\n   Nodes=n[1-4] =x y\r\n');
SELECT scontrol_show(NULL);

-- the whole path: pasted scontrol show job and partition and sacctmgr show qos output to
-- slurm_job rows and sprio -l. By hand: job 101 age 3600/604800*1000 = 5.95, fair share 5000,
-- partition 1/10*1000 = 100, TRES 4/64*1000 = 62.5 (printed 62): 5168; job 102 not accruing,
-- fair share 5000, partition 1000, QOS 2000, TRES 1000, nice 500: 8500
\pset format unaligned
CREATE TABLE live_jobs AS SELECT * FROM scontrol_show($$
JobId=101 JobName=nightly run
   UserId=alice(1000) GroupId=alice(1000) MCS_label=N/A
   Priority=11930 Nice=0 Account=physics QOS=normal
   JobState=PENDING Reason=Priority Dependency=(null)
   SubmitTime=2026-12-01T08:00:00 EligibleTime=2026-12-01T08:00:00
   AccrueTime=2026-12-01T08:00:00
   Partition=batch AllocNode:Sid=login1:4242
   TimeLimit=02:00:00 NumNodes=1-1 NumCPUs=4 NumTasks=4 CPUs/Task=1
   TRES=cpu=4,mem=16G,node=1,billing=4
   Command=/home/alice/run.sh --date=today
   WorkDir=/home/alice/my project

JobId=102 JobName=short
   UserId=bob(1001) GroupId=bob(1001) MCS_label=N/A
   Priority=2041 Nice=500 Account=chem QOS=high
   JobState=PENDING Reason=Priority Dependency=(null)
   SubmitTime=2026-12-01T08:55:00 EligibleTime=2026-12-01T08:55:00
   AccrueTime=Unknown
   Partition=urgent AllocNode:Sid=login1:4243
   TimeLimit=1-00:00:00 NumNodes=2-2 NumCPUs=32 NumTasks=32 CPUs/Task=1
   TRES=cpu=32,mem=64G,node=2,billing=32
$$);
CREATE TABLE live_parts AS SELECT * FROM scontrol_show($$
PartitionName=batch
   MaxTime=7-00:00:00 Nodes=n[1-4] PriorityJobFactor=1 PriorityTier=1
   TRES=cpu=64,mem=256G,node=4,billing=64

PartitionName=urgent
   MaxTime=1-00:00:00 Nodes=n[1-2] PriorityJobFactor=10 PriorityTier=2
   TRES=cpu=32,mem=128G,node=2,billing=32
$$);
-- sacctmgr show qos format=name,priority -P
CREATE TABLE live_qos AS
SELECT split_part(l, '|', 1) AS name, split_part(l, '|', 2)::bigint AS priority
FROM regexp_split_to_table($$normal|0
high|1000$$, '\n') AS l;

CREATE TABLE live_pending AS
SELECT ROW(j->>'JobId', split_part(j->>'UserId', '(', 1), j->>'Account', j->>'Partition',
           j->>'QOS', (j->>'SubmitTime' || '+00')::timestamptz,
           (NULLIF(j->>'AccrueTime', 'Unknown') || '+00')::timestamptz,
           split_part(j->>'NumNodes', '-', 1)::int, (j->>'NumCPUs')::int,
           make_interval(secs => slurm_duration(j->>'TimeLimit')), (j->>'TRES')::resvec,
           0.5, NULL, (p->>'PriorityJobFactor')::int, (p->>'PriorityTier')::int,
           make_interval(secs => slurm_duration(p->>'MaxTime')), (p->>'TRES')::resvec,
           q.priority, 0, (j->>'Nice')::bigint, NULL, NULL)::slurm_job AS job
FROM (SELECT attrs AS j FROM live_jobs) jj
JOIN (SELECT attrs AS p FROM live_parts) pp ON p->>'PartitionName' = j->>'Partition'
JOIN live_qos q ON q.name = j->>'QOS';

SELECT line FROM sprio(
    slurm_priority_config($$
PriorityWeightAge       = 1000
PriorityWeightFairshare = 10000
PriorityWeightPartition = 1000
PriorityWeightQOS       = 2000
PriorityWeightTRES      = CPU=1000
SLURM_VERSION           = 22.05.8
$$),
    ARRAY(SELECT job FROM live_pending),
    ROW(6, 96, 0, (SELECT max((attrs->>'PriorityJobFactor')::int) FROM live_parts),
        (SELECT max(priority) FROM live_qos))::slurm_cluster,
    '2026-12-01 09:00+00', '-l');
\pset format aligned

