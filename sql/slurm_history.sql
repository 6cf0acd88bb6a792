-- slurm_history: the queue at a past instant from sacct records (sacct_usage, sacct_pending), and
-- the order under the site's configuration beside a proposed one (slurm_what_if)
SET search_path = public, fairsched;
SET timezone = 'UTC';

-- A small history, by hand. Two associations, physics.alice and chem.bob, one share each under
-- accounts of one share each; no decay (half_life NULL) so that the usage is billing x seconds.
--   job 1  alice  batch  billing 4  runs 11-01 00:00-06:00              usage 4 x 21600 = 86400
--   job 2  bob    batch  billing 2  runs 11-01 00:00-03:00              usage 2 x 10800 = 21600
--   job 3  alice  batch  billing 4  eligible 11-01 12:00, runs 11-02 06:00-08:00
--   job 4  bob    batch  billing 2  eligible 11-01 18:00, runs 11-02 03:00-05:00
--   job 5  bob    batch  billing 1  submitted 11-01 20:00, eligible (--begin) 11-02 01:00,
--                                   runs 11-02 05:00-06:00
--   job 6  alice  batch  cancelled while pending: eligible 11-01 06:00, ended 11-01 22:00
--   job 8  bob    prio (PriorityTier 2)  billing 1  eligible 11-01 23:00, runs 11-02 02:00-04:00
--   1.batch is a step of job 1: it is neither usage nor a pending job.
CREATE TABLE hist OF sacct_record;
INSERT INTO hist
SELECT (sacct_row(l, 'JobID|User|Account|Partition|QOS|State|Submit|Eligible|Start|End|NCPUS|NNodes|AllocTRES|ReqTRES|Timelimit')).*
FROM unnest(ARRAY[
 '1|alice|physics|batch|normal|COMPLETED|2026-10-31T23:00:00|2026-10-31T23:00:00|2026-11-01T00:00:00|2026-11-01T06:00:00|4|1|billing=4,cpu=4,node=1|cpu=4,node=1|1-00:00:00',
 '1.batch|||||COMPLETED|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T06:00:00|4|1|cpu=4,mem=1G,node=1||',
 '2|bob|chem|batch|normal|COMPLETED|2026-10-31T23:30:00|2026-10-31T23:30:00|2026-11-01T00:00:00|2026-11-01T03:00:00|2|1|billing=2,cpu=2,node=1|cpu=2,node=1|1-00:00:00',
 '3|alice|physics|batch|normal|COMPLETED|2026-11-01T12:00:00|2026-11-01T12:00:00|2026-11-02T06:00:00|2026-11-02T08:00:00|4|1|billing=4,cpu=4,node=1|cpu=4,node=1|1-00:00:00',
 '4|bob|chem|batch|normal|COMPLETED|2026-11-01T18:00:00|2026-11-01T18:00:00|2026-11-02T03:00:00|2026-11-02T05:00:00|2|1|billing=2,cpu=2,node=1|cpu=2,node=1|1-00:00:00',
 '5|bob|chem|batch|normal|COMPLETED|2026-11-01T20:00:00|2026-11-02T01:00:00|2026-11-02T05:00:00|2026-11-02T06:00:00|1|1|billing=1,cpu=1,node=1|cpu=1,node=1|1-00:00:00',
 '6|alice|physics|batch|normal|CANCELLED by 1000|2026-11-01T06:00:00|2026-11-01T06:00:00|Unknown|2026-11-01T22:00:00|4|1||cpu=4,node=1|1-00:00:00',
 '8|bob|chem|prio|normal|COMPLETED|2026-11-01T23:00:00|2026-11-01T23:00:00|2026-11-02T02:00:00|2026-11-02T04:00:00|1|1|billing=1,cpu=1,node=1|cpu=1,node=1|1-00:00:00'
]) AS l;
CREATE TABLE assoc (account text, "user" text, path sharepath, shares float8);
INSERT INTO assoc VALUES ('physics', NULL, 'physics', 1), ('chem', NULL, 'chem', 1),
    ('physics', 'alice', 'physics.alice', 1), ('chem', 'bob', 'chem.bob', 1);
CREATE TABLE part (name text, factor int, tier int);
INSERT INTO part VALUES ('batch', 1, 1), ('prio', 1, 2);

-- sacct_usage: billing x seconds run before as_of. At 11-02 04:00 job 4 has run 1 h (2 x 3600),
-- job 8 2 h (1 x 7200), job 3 not yet (0), the step 0, the cancelled job 6 never started (0).
SELECT job_id, sacct_usage(h, '2026-11-02 04:00+00', NULL) AS usage FROM hist h ORDER BY job_id;
-- decayed with a 1-day half-life: job 1's 4 CPUs over [0 h, 6 h], read at 24 h, charge
-- 4 x 86400/ln 2 x (2^-(18/24) - 2^-(24/24)) = 4 x 124648.85 x 0.0946036 = 47168.9
SELECT round(sacct_usage(h, '2026-11-02 00:00+00', '1 day')::numeric, 1) AS decayed
FROM hist h WHERE job_id = '1';
-- the default half-life is SLURM's PriorityDecayHalfLife default, 7 days
SELECT sacct_usage(h, '2026-11-02 00:00+00') = sacct_usage(h, '2026-11-02 00:00+00', '7 days') AS same
FROM hist h WHERE job_id = '1';
-- a job without billing charges its CPUs; NULL in, NULL out
SELECT sacct_usage(sacct_row('9|2|2026-11-01T00:00:00|2026-11-01T00:10:00', 'JobID|NCPUS|Start|End'),
                   '2026-11-02', NULL) AS cpus_only,
       sacct_usage(NULL, '2026-11-02') AS null_record,
       sacct_usage(h, NULL) AS null_instant
FROM hist h WHERE job_id = '1';

-- sacct_pending: at 11-02 00:00 jobs 3, 4 and 8 are pending; job 5 is not eligible until 01:00,
-- job 6 was cancelled at 22:00, jobs 1 and 2 ran, 1.batch is a step
SELECT p.job_id, p.partition, p.submit_time, p.accrue_time, p.min_nodes, p.cpus, p.time_limit,
       p.tres, p.partition_tier
FROM hist h, sacct_pending(h, '2026-11-02 00:00+00') AS p ORDER BY p.job_id;
-- at 11-02 04:00: job 3 (starts 06:00) and job 5 (eligible 01:00, starts 05:00)
SELECT p.job_id FROM hist h, sacct_pending(h, '2026-11-02 04:00+00') AS p ORDER BY 1;
-- the instant a job starts it is no longer pending; the instant it becomes eligible it is
SELECT (SELECT count(*) FROM sacct_pending(h, '2026-11-02 06:00+00')) AS at_start,
       (SELECT count(*) FROM sacct_pending(h, '2026-11-01 12:00+00')) AS at_eligible
FROM hist h WHERE job_id = '3';
-- PriorityFlags=ACCRUE_ALWAYS: job 5 is listed from its submit time and accrues from it
SELECT (SELECT accrue_time FROM sacct_pending(h, '2026-11-02 00:00+00', accrue_always => true))
           AS accrue_always,
       (SELECT count(*) FROM sacct_pending(h, '2026-11-02 00:00+00')) AS not_eligible_yet
FROM hist h WHERE job_id = '5';
-- the values given pass through; site factor and nice are 0, no admin-set or previous priority
SELECT p.fairshare, p.qos_priority, p.partition_factor, p.partition_tier, p.partition_max_time,
       p.partition_tres, p.assoc_priority, p.site_factor, p.nice, p.direct_priority,
       p.previous_priority
FROM hist h, sacct_pending(h, '2026-11-02 00:00+00', 0.25, 7, 3, 2, '2 days', 'cpu=8', 40) AS p
WHERE h.job_id = '3';
-- a NULL record or instant gives no row; a job still pending when sacct ran (no start, no end)
-- is pending at any later instant; a job never eligible (Eligible Unknown) never is
SELECT (SELECT count(*) FROM sacct_pending(NULL, '2026-11-02')) AS null_record,
       (SELECT count(*) FROM hist h, sacct_pending(h, NULL)) AS null_instant,
       (SELECT count(*) FROM sacct_pending(sacct_row('20|2026-11-01T00:00:00|2026-11-01T00:00:00|Unknown|Unknown|PENDING',
                                                     'JobID|Submit|Eligible|Start|End|State'), '2027-01-01')) AS still_pending,
       (SELECT count(*) FROM sacct_pending(sacct_row('21|2026-11-01T00:00:00|Unknown|Unknown|Unknown|PENDING',
                                                     'JobID|Submit|Eligible|Start|End|State'), '2027-01-01')) AS never_eligible;

-- The what-if. Site: PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityMaxAge=1-0,
-- classic fair share (NO_FAIR_TREE); proposed: the two weights swapped.
-- At 11-02 00:00 the usage is alice 86400, bob 21600 (of 108000): norm usage 0.8 and 0.2; with
-- one share each under accounts of one share each, S = 0.5 and E = the account's usage, so
--   F(alice) = 2^(-0.8/0.5) = 0.3298770, F(bob) = 2^(-0.2/0.5) = 0.7578583.
--   job 3 (alice, age 12 h of 24): site 500 + 3298.77 = 3798,  proposed 5000 + 329.88 = 5329
--   job 4 (bob, age 6 h):           site 250 + 7578.58 = 7828,  proposed 2500 + 757.86 = 3257
--   job 8 (bob, age 1 h, tier 2):   site 41.67 + 7578.58 = 7620, proposed 416.67 + 757.86 = 1174
--   site order 8 (tier 2), 4, 3; proposed 8, 3, 4: job 3 gains a place, job 4 loses one.
-- At 11-02 04:00: alice 86400, bob 21600 + 7200 (job 4) + 7200 (job 8) = 36000 (of 122400):
--   F(alice) = 2^(-(86400/122400)/0.5) = 0.3758517, F(bob) = 2^(-(36000/122400)/0.5) = 0.6651560
--   job 3 (age 16 h): site 666.67 + 3758.52 = 4425, proposed 6666.67 + 375.85 = 7042
--   job 5 (age 3 h):  site 125 + 6651.56 = 6776,    proposed 1250 + 665.16 = 1915
--   site order 5, 3; proposed 3, 5.
CREATE TABLE cfg AS
SELECT slurm_priority_config('PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityMaxAge=1-0 PriorityFlags=NO_FAIR_TREE') AS site,
       slurm_priority_config('PriorityWeightAge=10000 PriorityWeightFairshare=1000 PriorityMaxAge=1-0 PriorityFlags=NO_FAIR_TREE') AS proposed;
WITH instants(t) AS (VALUES ('2026-11-02 00:00+00'::timestamptz), ('2026-11-02 04:00+00')),
usage AS (        -- each association's usage at each instant
    SELECT i.t, a.account, a."user", a.path, a.shares,
           coalesce(sum(sacct_usage(h, i.t, NULL)), 0) AS usage
    FROM instants AS i CROSS JOIN assoc AS a
    LEFT JOIN hist AS h ON h.account = a.account AND h."user" = a."user" AND h.start < i.t
    GROUP BY 1, 2, 3, 4, 5),
fs AS MATERIALIZED (  -- the fair-share factor of each user association at each instant, once
    SELECT u.t, u.account, u."user", f.fairshare
    FROM (SELECT t, share_tree(path, shares, usage) AS tree FROM usage GROUP BY t) AS tr
    CROSS JOIN LATERAL fairshare(tr.tree, 'classic') AS f
    JOIN usage AS u ON u.t = tr.t AND u.path = f.path
    WHERE f.is_leaf),
queue AS (        -- the pending jobs at each instant, as slurm_job values
    SELECT i.t, array_agg(j) AS jobs
    FROM instants AS i
    JOIN hist AS h ON h.eligible <= i.t AND i.t < coalesce(h.start, h."end", 'infinity')
    JOIN fs ON fs.t = i.t AND fs.account = h.account AND fs."user" = h."user"
    JOIN part AS p ON p.name = h.partition
    CROSS JOIN LATERAL sacct_pending(h, i.t, fs.fairshare, partition_tier => p.tier,
                                     partition_factor => p.factor) AS j
    GROUP BY i.t)
SELECT q.t, w.*
FROM queue AS q, cfg,
     slurm_what_if(cfg.site, cfg.proposed, q.jobs, ROW(1, 8, 0, 1, 0)::slurm_cluster, q.t) AS w
ORDER BY q.t, w.pos;

-- the tie-break chain: equal tier and priority go by submit time, then by job id as a number
-- (job 9 before job 10); a higher tier goes first whatever its priority
SELECT w.job_id, w.pos, w.proposed_pos, w.moved
FROM cfg, slurm_what_if(cfg.site, cfg.site,
    ARRAY[ROW('10', 'u', 'a', 'batch', 'normal', '2026-11-01', NULL, 1, 1, NULL, NULL, 0.5, NULL, 1, 1,
              NULL, NULL, 0, 0, 0, NULL, NULL)::slurm_job,
          ROW('9', 'u', 'a', 'batch', 'normal', '2026-11-01', NULL, 1, 1, NULL, NULL, 0.5, NULL, 1, 1,
              NULL, NULL, 0, 0, 0, NULL, NULL)::slurm_job,
          ROW('11', 'u', 'a', 'batch', 'normal', '2026-10-31', NULL, 1, 1, NULL, NULL, 0.5, NULL, 1, 1,
              NULL, NULL, 0, 0, 0, NULL, NULL)::slurm_job,
          ROW('12', 'u', 'a', 'prio', 'normal', '2026-11-01', NULL, 1, 1, NULL, NULL, 0, NULL, 1, 2,
              NULL, NULL, 0, 0, 0, NULL, NULL)::slurm_job],
    ROW(1, 8, 0, 1, 0)::slurm_cluster, '2026-11-02') AS w;
-- no jobs: no rows; a NULL configuration: no rows (STRICT)
SELECT count(*) FROM cfg, slurm_what_if(cfg.site, cfg.proposed, '{}', ROW(1, 8, 0, 1, 0)::slurm_cluster, '2026-11-02');
SELECT count(*) FROM cfg, slurm_what_if(NULL, cfg.proposed, '{}', ROW(1, 8, 0, 1, 0)::slurm_cluster, '2026-11-02');
-- an error of slurm_priority reaches the caller as it is (a cluster of 0 CPUs before 23.02)
SELECT * FROM slurm_what_if(slurm_priority_config('PriorityWeightJobSize=100 SLURM_VERSION=22.05'),
                            slurm_priority_config('PriorityWeightJobSize=100 SLURM_VERSION=22.05'),
    ARRAY[ROW('1', 'u', 'a', 'batch', 'normal', '2026-11-01', NULL, 1, 1, NULL, NULL, 0.5, NULL, 1, 1,
              NULL, NULL, 0, 0, 0, NULL, NULL)::slurm_job],
    ROW(0, 0, 0, 1, 0)::slurm_cluster, '2026-11-02');

-- sreport over the same records, for 2026-11-01 (Start=2026-11-01 End=2026-11-02) on a cluster of
-- 8 CPUs: 8 x 86400 = 691200 CPU-seconds (11520 minutes). On that day job 1 ran 4 CPUs for 6 h
-- (86400 s, 1440 min) and job 2 2 CPUs for 3 h (21600 s, 360 min); jobs 3, 4, 5 and 8 started the
-- next day, job 6 never did: 108000 s allocated, 1800 minutes.
SELECT job_id, sacct_tres_seconds(h, '2026-11-01', '2026-11-02') AS cpu_s,
       sacct_tres_seconds(h, '2026-11-01', '2026-11-02', 'billing') AS billing_s,
       sacct_tres_seconds(h, '2026-11-01 03:00', '2026-11-01 04:00') AS cpu_s_3_to_4
FROM hist h ORDER BY job_id;
-- a job still running runs to the end of the period; NULL in, NULL out
SELECT sacct_tres_seconds(sacct_row('9|2|2026-11-01T23:00:00|Unknown|RUNNING', 'JobID|NCPUS|Start|End|State'),
                          '2026-11-01', '2026-11-02') AS running,
       sacct_tres_seconds(NULL, '2026-11-01', '2026-11-02') AS null_record;

-- sreport's -t formats. 90 s is 1.5 min and 150 s 2.5: printf rounds both to 2 (half to even);
-- 15.625 % prints 15.62 for the same reason; a total of 0 counts as 1
SELECT v, sreport_time(v, 960) AS "Minutes", sreport_time(v, 960, 's') AS "Seconds",
       sreport_time(v, 960, 'hours') AS "Hours", sreport_time(v, 960, 'Percent') AS "Percent",
       sreport_time(v, 960, 'SecPer') AS "SecPer", sreport_time(v, 960, 'minper') AS "MinPer",
       sreport_time(v, 960, 'HOURPER') AS "HourPer"
FROM unnest(ARRAY[0, 90, 150, 5400, 150000]::float8[]) AS v;
SELECT sreport_time(15.625, 100, 'p') AS rounds_to_even, sreport_time(5, 0, 'p') AS total_zero,
       sreport_time(NULL, 1) AS null_value, sreport_time(1, 1, NULL) AS null_format;
-- SecPer, MinPer and HourPer are whole words to sreport; a word that is no prefix is an error
SELECT sreport_time(1, 1, 'minp');
SELECT sreport_time(1, 1, 'minutesx');
SELECT sreport_time(-1, 1);
SELECT sreport_time('NaN', 1);

-- cluster Utilization: with 10 h of one node's 8 CPUs down (288000 s: 4800 min) and a 2-hour
-- reservation of 4 CPUs (28800 s: 480 min), Idle is 691200 - 108000 - 288000 - 28800 = 266400 s
-- (4440 min), Reported the whole 11520 min; in percent of Reported: 15.625 % prints 15.62 %,
-- 41.666 % 41.67 %, 4.1666 % 4.17 %, 38.541 % 38.54 %
WITH a AS (SELECT sum(sacct_tres_seconds(h, '2026-11-01', '2026-11-02')) AS s FROM hist h)
SELECT u.* FROM a, sreport_cluster_utilization('tux', 8, '2026-11-01', '2026-11-02', a.s,
                                               down_s => 288000, planned_s => 28800) AS u;
WITH a AS (SELECT sum(sacct_tres_seconds(h, '2026-11-01', '2026-11-02')) AS s FROM hist h)
SELECT u.* FROM a, sreport_cluster_utilization('tux', 8, '2026-11-01', '2026-11-02', a.s,
                                               down_s => 288000, planned_s => 28800,
                                               time_format => 'Percent') AS u;
-- more allocated than the cluster holds (a node claiming more CPUs): Idle 0, the excess in
-- Over Comm, Reported the sum
SELECT * FROM sreport_cluster_utilization('tux', 1, '2026-11-01', '2026-11-02', 108000);
SELECT * FROM sreport_cluster_utilization('tux', 8, '2026-11-01', '2026-11-02', 108000, time_format => 'x');
SELECT * FROM sreport_cluster_utilization('tux', 8, '2026-11-02', '2026-11-01', 108000);
SELECT * FROM sreport_cluster_utilization('tux', -8, '2026-11-01', '2026-11-02', 108000);
SELECT * FROM sreport_cluster_utilization('tux', 8, '2026-11-01', '2026-11-02', -1);
-- NULL period or count: no row
SELECT count(*) FROM sreport_cluster_utilization('tux', NULL, '2026-11-01', '2026-11-02', 108000);
-- a record whose End is before its Start allocated nothing (slurmdbd's rollup skips it), while
-- its usage is an error: the decayed charge of a run that ends before it starts has no value
SELECT sacct_tres_seconds(sacct_row('9|2|2026-11-01T10:00:00|2026-11-01T09:00:00', 'JobID|NCPUS|Start|End'),
                          '2026-11-01', '2026-11-02') AS end_before_start;
SELECT sacct_usage(sacct_row('9|2|2026-11-01T10:00:00|2026-11-01T09:00:00', 'JobID|NCPUS|Start|End'),
                   '2026-11-02');

-- cluster AccountUtilizationByUser: root, then each account and its users in the tree's order,
-- the CPU minutes of each subtree and its percent of the cluster's Reported time (691200 s):
-- root 1800 (15.62%), chem 360 (3.125 %, printed 3.12%), bob 360, physics 1440 (12.50%), alice 1440
SELECT 'tux' AS "Cluster", coalesce(a.account, 'root') AS "Account", coalesce(a."user", '') AS "Login",
       '' AS "Proper Name", sreport_time(n.usage, 691200, 'MinPer') AS "Used",
       '0' AS "Energy"
FROM tree_nodes((SELECT share_tree(a.path, NULL, coalesce(u.s, 0))
                 FROM assoc AS a
                 LEFT JOIN (SELECT account, "user", sum(sacct_tres_seconds(h, '2026-11-01', '2026-11-02')) AS s
                            FROM hist h GROUP BY 1, 2) AS u USING (account, "user"))) WITH ORDINALITY AS n
LEFT JOIN assoc AS a ON a.path = n.path
ORDER BY n.ordinality;

-- cluster UserUtilizationByAccount and user TopUsage: one row per user and account, most used
-- first (then by name); TopUsage keeps the first TopCount (10) rows
SELECT 'tux' AS "Cluster", "user" AS "Login", '' AS "Proper Name", account AS "Account",
       sreport_time(s, 691200) AS "Used", '0' AS "Energy"
FROM (SELECT account, "user", sum(sacct_tres_seconds(h, '2026-11-01', '2026-11-02')) AS s
      FROM hist h WHERE h.step IS NULL GROUP BY 1, 2) AS u
WHERE s > 0 ORDER BY s DESC, "user" LIMIT 10;

-- job SizesByAccount: CPU minutes of the jobs by top-level account and by the job's CPU count in
-- sreport's default groups (0-49, 50-249, 250-499, 500-999, >= 1000), and the account's percent of
-- the cluster: chem 360 (20.00%), physics 1440 (80.00%), all in 0-49 CPUs
SELECT 'tux' AS "Cluster", account AS "Account",
       sreport_time(coalesce(sum(s) FILTER (WHERE ncpus < 50), 0), 0) AS "0-49 CPUs",
       sreport_time(coalesce(sum(s) FILTER (WHERE ncpus >= 50 AND ncpus < 250), 0), 0) AS "50-249 CPUs",
       sreport_time(coalesce(sum(s) FILTER (WHERE ncpus >= 250 AND ncpus < 500), 0), 0) AS "250-499 CPUs",
       sreport_time(coalesce(sum(s) FILTER (WHERE ncpus >= 500 AND ncpus < 1000), 0), 0) AS "500-999 CPUs",
       sreport_time(coalesce(sum(s) FILTER (WHERE ncpus >= 1000), 0), 0) AS ">= 1000 CPUs",
       sreport_time(sum(s), sum(sum(s)) OVER (), 'Percent') AS "% of cluster"
FROM (SELECT account, ncpus, sacct_tres_seconds(h, '2026-11-01', '2026-11-02') AS s
      FROM hist h WHERE h.step IS NULL AND h.start < '2026-11-02' AND h."end" > '2026-11-01') AS j
GROUP BY account ORDER BY account;

-- Against SLURM 22.05.8: the sacct records of one hour on the interop cluster (16 CPUs,
-- sql/data/slurm_interop_sacct_window.txt) and what sreport printed for that hour with -P
-- (sql/data/slurm_interop_sreport.txt). The cluster was up 212 s of the hour (slurmdbd counted
-- 3392 CPU-seconds), and slurmdbd counted 494 CPU-seconds Planned (idle CPUs while jobs were
-- pending): neither is in sacct records, both are given. Job 13 was still running at 01:00.
CREATE TABLE iwin OF sacct_record;
CREATE TABLE iraw (n serial, line text);
\copy iraw(line) FROM 'sql/data/slurm_interop_sacct_window.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
INSERT INTO iwin SELECT (sacct_row(r.line, h.line)).* FROM iraw r, (SELECT line FROM iraw WHERE n = 1) h WHERE r.n > 1;
CREATE TABLE ireport (n serial, line text);
\copy ireport(line) FROM 'sql/data/slurm_interop_sreport.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
-- each report's data lines (after its header line), by the file it came from
CREATE VIEW sreport_says AS
SELECT f.name AS report, r.n, r.line
FROM (SELECT n, substr(line, 3) AS name, lead(n, 1, 1000000) OVER (ORDER BY n) AS next
      FROM ireport WHERE line LIKE '# %') AS f
JOIN ireport AS r ON r.n > f.n AND r.n < f.next
WHERE r.line LIKE 'fsinterop|%';
-- the account tree of the interop cluster (bio_1 under bio)
CREATE TABLE iassoc (account text, "user" text, path sharepath);
INSERT INTO iassoc VALUES ('bio', NULL, 'bio'), ('bio_1', NULL, 'bio.bio_1'),
    ('bio_1', 'fsu3', 'bio.bio_1.fsu3'), ('bio_1', 'fsu4', 'bio.bio_1.fsu4'),
    ('chem', NULL, 'chem'), ('chem', 'fsu1', 'chem.fsu1'), ('chem', 'fsu2', 'chem.fsu2'),
    ('chem', 'fsu5', 'chem.fsu5'), ('phys', NULL, 'phys'), ('phys', 'fsu1', 'phys.fsu1'),
    ('phys', 'fsu6', 'phys.fsu6');
CREATE TABLE iuse AS
SELECT account, "user", sum(sacct_tres_seconds(h, '2026-12-02 00:00+00', '2026-12-02 01:00+00')) AS s
FROM iwin h WHERE h.step IS NULL GROUP BY 1, 2;
-- 2898 CPU-seconds allocated: 530 by the finished jobs, 16 x 148 by the running job 13
SELECT sum(s) AS allocated FROM iuse;

-- each report as sreport -P prints its lines, for a -t format
CREATE FUNCTION our_sreport(report text, fmt text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT concat_ws('|', u.cluster, u.allocated, u.down, u.plnd_down, u.idle, u.planned, u.reported)
    FROM sreport_cluster_utilization('fsinterop', 16, '2026-12-02 00:00+00', '2026-12-02 01:00+00',
                                     (SELECT sum(s) FROM iuse), planned_s => 494,
                                     reported_s => 3392, time_format => fmt) AS u
    WHERE report = 'cluster_Utilization'
    UNION ALL
    (SELECT concat_ws('|', 'fsinterop', coalesce(a.account, 'root'), coalesce(a."user", ''), '',
                      sreport_time(n.usage, 3392, fmt), sreport_time(0, 0, fmt))
     FROM tree_nodes((SELECT share_tree(a.path, NULL, coalesce(u.s, 0))
                      FROM iassoc AS a LEFT JOIN iuse AS u USING (account, "user"))) WITH ORDINALITY AS n
     LEFT JOIN iassoc AS a ON a.path = n.path
     WHERE report = 'cluster_AccountUtilizationByUser' ORDER BY n.ordinality)
    UNION ALL
    (SELECT concat_ws('|', 'fsinterop', "user", '', account, sreport_time(s, 3392, fmt),
                      sreport_time(0, 0, fmt))
     FROM iuse WHERE s > 0 AND report IN ('cluster_UserUtilizationByAccount', 'user_TopUsage')
     ORDER BY s DESC, "user" LIMIT 10)
    UNION ALL
    SELECT concat_ws('|', 'fsinterop', 'root', sreport_time(sum(s), sum(s), fmt),
                     sreport_time(0, sum(s), fmt), sreport_time(0, sum(s), fmt),
                     sreport_time(0, sum(s), fmt), sreport_time(0, sum(s), fmt),
                     sreport_time(sum(s), sum(s), 'Percent'))
    FROM iuse WHERE report = 'job_SizesByAccount'
$$;
-- every line sreport printed, and ours beside it: the same in every report and format
SELECT count(*) AS sreport_lines FROM sreport_says;
SELECT s.report, s.line AS sreport, o.line AS fairsched, s.line = o.line AS same
FROM (SELECT report, line, row_number() OVER (PARTITION BY report ORDER BY n) AS k
      FROM sreport_says) AS s
LEFT JOIN LATERAL (
    SELECT line, row_number() OVER () AS k
    FROM our_sreport(regexp_replace(s.report, '^sreport_P_(t[A-Za-z]+_)?', ''),
                     coalesce(substring(s.report FROM '^sreport_P_t([A-Za-z]+)_'), 'Minutes')) AS line) AS o
  ON o.k = s.k
ORDER BY s.report, s.k;

-- sreport's Planned from the records: each eligible job's requested CPUs times the seconds it
-- waited inside the period, counted while the cluster was registered (from 00:56:28: Reported
-- is 212 s of 16 CPUs); the rollup gives Planned what the allocated time leaves of the reported
-- time (3392 - 2898 = 494) and Idle the rest (none)
SELECT sum(sacct_planned_seconds(h, '2026-12-02 00:56:28+00', '2026-12-02 01:00+00')) AS waiting,
       least(sum(sacct_planned_seconds(h, '2026-12-02 00:56:28+00', '2026-12-02 01:00+00')), 3392 - 2898) AS planned
FROM iwin h;
-- the waiting time as it is, cut by sreport_cluster_utilization as the rollup cuts it: sreport's line
SELECT concat_ws('|', u.cluster, u.allocated, u.down, u.plnd_down, u.idle, u.planned, u.reported) AS fairsched,
       (SELECT line FROM sreport_says WHERE report = 'sreport_P_cluster_Utilization') AS sreport, u.over_comm
FROM sreport_cluster_utilization('fsinterop', 16, '2026-12-02 00:00+00', '2026-12-02 01:00+00',
         (SELECT sum(s) FROM iuse),
         planned_s => (SELECT sum(sacct_planned_seconds(h, '2026-12-02 00:56:28+00', '2026-12-02 01:00+00')) FROM iwin h),
         reported_s => 3392) AS u;
-- by hand, over [10:00, 11:00): pending from 09:30 on with 4 CPUs (3600 s x 4), eligible at 10:15
-- and started at 10:45 with ReqCPUS 2 (1800 x 2), cancelled pending at 10:20 (1200 x 1), started
-- before the period (0), a step (0), never eligible (0), NULL period (NULL)
SELECT k, sacct_planned_seconds(sacct_row(l, 'JobID|State|Eligible|Start|End|NCPUS|ReqCPUS'),
                                '2026-11-01 10:00+00', CASE WHEN k < 7 THEN '2026-11-01 11:00+00'::timestamptz END)
FROM (VALUES (1, '1|PENDING|2026-11-01T09:30:00|Unknown|Unknown|4|4'),
             (2, '2|COMPLETED|2026-11-01T10:15:00|2026-11-01T10:45:00|2026-11-01T10:50:00|4|2'),
             (3, '3|CANCELLED by 0|2026-11-01T09:00:00|Unknown|2026-11-01T10:20:00|1|1'),
             (4, '4|COMPLETED|2026-11-01T09:00:00|2026-11-01T09:30:00|2026-11-01T10:30:00|8|8'),
             (5, '4.batch|COMPLETED|2026-11-01T09:00:00|2026-11-01T09:30:00|2026-11-01T10:30:00|8|8'),
             (6, '6|PENDING|Unknown|Unknown|Unknown|2|2'),
             (7, '7|PENDING|2026-11-01T09:30:00|Unknown|Unknown|4|4')) AS v(k, l)
ORDER BY k;
-- Planned beyond what is left: Idle 0, Planned cut to the rest, the excess in Over Comm, Reported
-- still the cluster's (1 CPU for the day: 86400 s; 80000 allocated, 10000 waiting)
SELECT * FROM sreport_cluster_utilization('tux', 1, '2026-11-01', '2026-11-02', 80000,
                                          planned_s => 10000, time_format => 'Seconds');

-- The current hour, rolled up at once: another run of the interop suite (test/interop/fixtures/,
-- sql/data/slurm_interop_hour_*.txt) ran `sacctmgr rollup 2026-12-02T07:00:00 2026-12-02T08:00:00`
-- at 07:12, then sreport for that hour. The cluster registered at 07:07:55 (sacctmgr show event
-- event=cluster): Reported is 3125 s of 16 CPUs. Job 14 (16 CPUs) was still running and eleven
-- jobs pending: the rollup counts both to 08:00, so the records give the same with period_end
-- 08:00. Job SizesByAccount reads the job records instead, where job 14 counts to the instant
-- sreport ran (07:12:14 for -t Seconds: sreport_instants.txt).
CREATE TABLE hwin OF sacct_record;
CREATE TABLE hraw (n serial, line text);
\copy hraw(line) FROM 'sql/data/slurm_interop_hour_sacct_window.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
INSERT INTO hwin SELECT (sacct_row(r.line, h.line)).* FROM hraw r, (SELECT line FROM hraw WHERE n = 1) h WHERE r.n > 1;
CREATE TABLE hreport (n serial, line text);
\copy hreport(line) FROM 'sql/data/slurm_interop_hour_sreport.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
WITH says AS (
    SELECT f.name AS report, r.line
    FROM (SELECT n, substr(line, 3) AS name, lead(n, 1, 1000000) OVER (ORDER BY n) AS next
          FROM hreport WHERE line LIKE '# %') AS f
    JOIN hreport AS r ON r.n > f.n AND r.n < f.next
    WHERE r.line LIKE 'fsinterop|%'),
ours AS (
    SELECT 'sreport_P_' || CASE WHEN fmt = 'Minutes' THEN '' ELSE 't' || fmt || '_' END
           || 'cluster_Utilization' AS report,
           concat_ws('|', u.cluster, u.allocated, u.down, u.plnd_down, u.idle, u.planned, u.reported) AS line
    FROM unnest(ARRAY['Minutes', 'Seconds', 'Hours', 'Percent']) AS fmt,
         sreport_cluster_utilization('fsinterop', 16, '2026-12-02 07:00+00', '2026-12-02 08:00+00',
             (SELECT sum(sacct_tres_seconds(h, '2026-12-02 07:00+00', '2026-12-02 08:00+00')) FROM hwin h),
             planned_s => (SELECT sum(sacct_planned_seconds(h, '2026-12-02 07:07:55+00', '2026-12-02 08:00+00')) FROM hwin h),
             reported_s => 3125 * 16, time_format => fmt) AS u
    UNION ALL
    SELECT 'sreport_P_tSeconds_job_SizesByAccount',
           concat_ws('|', 'fsinterop', 'root', sreport_time(sum(s), sum(s), 'Seconds'), '0', '0', '0', '0',
                     sreport_time(sum(s), sum(s), 'Percent'))
    FROM (SELECT sacct_tres_seconds(h, '2026-12-02 07:00+00', '2026-12-02 07:12:14+00') AS s
          FROM hwin h WHERE h.step IS NULL) AS j)
SELECT s.report, s.line AS sreport, o.line AS fairsched, s.line = o.line AS same
FROM says s FULL JOIN ours o USING (report) ORDER BY 1;
-- the rollup's end for the job report would count job 14 to 08:00: not what sreport printed
SELECT sum(sacct_tres_seconds(h, '2026-12-02 07:00+00', '2026-12-02 08:00+00')) AS to_the_hour_end,
       sum(sacct_tres_seconds(h, '2026-12-02 07:00+00', '2026-12-02 07:12:14+00')) AS to_the_instant
FROM hwin h WHERE h.step IS NULL;
