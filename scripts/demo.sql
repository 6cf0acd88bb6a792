-- The demo that `make demo` prints. Each section grows with a feature. It also writes SVG
-- charts into the directory in the psql variable chart_dir (make demo: build/demo).
\set QUIET on
\if :{?chart_dir}
\else
\set chart_dir .
\endif
CREATE EXTENSION fairsched;
SET search_path = public, fairsched;
\i scripts/charts.sql

\echo
\echo '================================================================================'
\echo ' fairsched: fair-share scheduling values, computed in SQL over accounting data'
\echo '================================================================================'
\echo
\echo '1. Resource vectors (type resvec). PBS and SLURM write job resources differently;'
\echo '   fairsched reads both forms verbatim and prints one canonical form:'
\echo

SELECT source, raw, raw::resvec AS canonical
FROM (VALUES
    ('PBS resources_used', 'ncpus=4,mem=8gb,walltime=01:00:00'),
    ('SLURM AllocTRES',    'cpu=4,mem=16G,node=1,gres/gpu:a100=1,billing=4'),
    ('PBS Resource_List',  'ncpus=16,mem=1536mb,ngpus=2,walltime=12:00:00')
) AS t(source, raw);

\echo '   Sizes are bytes (powers of 1024), durations are seconds, plain numbers are counts:'
SELECT name, amount, kind FROM resvec_each('ncpus=4,mem=8gb,walltime=01:00:00');

\echo '2. A small accounting table: jobs with the resources they used.'
CREATE TABLE jobs (id int, owner text, used resvec);
INSERT INTO jobs VALUES
    (1, 'alice', 'ncpus=32,mem=64gb,walltime=02:00:00'),
    (2, 'alice', 'ncpus=8,mem=16gb,walltime=00:30:00'),
    (3, 'bob',   'ncpus=4,mem=200gb,walltime=04:00:00'),
    (4, 'carol', 'ncpus=16,mem=32gb,ngpus=4,walltime=01:00:00'),
    (5, 'bob',   'ncpus=2,mem=4gb,walltime=00:10:00');
SELECT * FROM jobs ORDER BY id;

\echo '   Per owner, sum(resvec) adds vectors elementwise (a missing resource counts as 0):'
SELECT owner, count(*) AS jobs, sum(used) AS total FROM jobs GROUP BY owner ORDER BY owner;

\echo '3. Dominant share (DRF, YTsaurus): the largest fraction of any one cluster resource.'
\echo '   Cluster: ncpus=64, mem=256gb, ngpus=8 (walltime is not a cluster resource: ignored).'
SELECT owner,
       round(dominant_share(sum(used), 'ncpus=64,mem=256gb,ngpus=8')::numeric, 3) AS dominant_share,
       dominant_resource(sum(used), 'ncpus=64,mem=256gb,ngpus=8') AS dominant_resource
FROM jobs GROUP BY owner ORDER BY dominant_share DESC;

\echo '4. Fits: which jobs fit on a 16-core, 64 GB node with 4 GPUs and a 24-hour limit.'
SELECT id, owner, used,
       used <@ 'ncpus=16,mem=64gb,ngpus=4,walltime=24:00:00' AS fits_on_node
FROM jobs ORDER BY id;

\echo '5. Scaling: a charge of 1.5 times the resources used, and one resource read out.'
SELECT id, used * 1.5 AS charged, (used -> 'mem') / 2^30 AS mem_gib
FROM jobs ORDER BY id;

\echo '6. Share trees (types sharepath and sharetree). The fairshare tree of the PBS design'
\echo '   page PP-718: two groups with 40 and 60 shares, two users in each. Shares live in'
\echo '   one table, usage in an accounting table of individual jobs; share_tree() rolls the'
\echo '   usage up the tree in one pass (it is parallel safe and distributable).'
CREATE TABLE fairshare_groups (path sharepath, shares float8);
INSERT INTO fairshare_groups VALUES
    ('group1', 40), ('group2', 60),
    ('group1.Bob', 50), ('group1.Ann', 50), ('group2.Suzy', 60), ('group2.scott', 40);
CREATE TABLE accounting (job int, owner sharepath, cput float8);
INSERT INTO accounting
SELECT g, 'group1.Bob'::sharepath, 10 FROM generate_series(1, 10) g   -- 10 jobs of 10 s
UNION ALL SELECT 100 + g, 'group1.Ann', 25 FROM generate_series(1, 4) g
UNION ALL SELECT 200 + g, 'group2.scott', 50 FROM generate_series(1, 20) g;
SELECT owner, count(*) AS jobs, sum(cput) AS cput FROM accounting GROUP BY owner ORDER BY owner;

\echo '   The tree, indented (usage = the subtree total; percent of the whole machine):'
SELECT repeat('    ', depth) || coalesce(leaf(path), 'TREEROOT') AS node,
       CASE WHEN declared THEN shares::text ELSE '-' END AS shares,
       usage, round((100 * usage / sum(usage) FILTER (WHERE depth = 0) OVER ())::numeric, 1) AS pct_usage
FROM tree_nodes((
    SELECT share_tree(path, shares, usage)
    FROM (SELECT path, shares, 0 AS usage FROM fairshare_groups
          UNION ALL
          SELECT owner, NULL, cput FROM accounting) AS rows));

\echo '   A tree is a value: store it as a snapshot; its text form reads back exactly:'
SELECT share_tree(path, shares, usage) AS snapshot
FROM (SELECT path, shares, 0 AS usage FROM fairshare_groups
      UNION ALL SELECT owner, NULL, cput FROM accounting) AS rows;

\echo '7. Fairshare factors from that tree: SLURM classic (also the PBS formula) and PBS, with'
\echo '   the numbers of the PBS design note: Bob 0.125 / 0.648, Suzy 0.5 / 0.382.'
CREATE TABLE tree_snapshot AS
SELECT share_tree(path, shares, usage) AS t
FROM (SELECT path, shares, 0 AS usage FROM fairshare_groups
      UNION ALL SELECT owner, NULL, cput FROM accounting) AS rows;
SELECT repeat('  ', depth) || coalesce(leaf(path), 'root') AS account, raw_shares,
       round(norm_shares::numeric, 3) AS norm_shares, raw_usage,
       round(effective_usage::numeric, 3) AS effectv_usage,
       round(fairshare::numeric, 3) AS fairshare, rank
FROM tree_snapshot, fairshare(t, 'classic');

\echo '   pbsfs -g scott, "Path from root" (PBS starts every node at usage 1):'
SELECT coalesce(leaf(path), 'TREEROOT') AS entity, raw_usage AS usage,
       to_char(norm_shares, 'FM0.000') AS perc, round(usage_per_share) AS "usage/perc"
FROM tree_snapshot, fairshare_path(t, 'group2.scott', 'pbs');

\echo '   SLURM Fair Tree (its default): LevelFS per level, then a rank-based factor.'
SELECT repeat('  ', depth) || coalesce(leaf(path), 'root') AS account,
       round(level_fs::numeric, 3) AS level_fs, fairshare, rank
FROM tree_snapshot, fairshare(t, 'fair_tree');

\echo '8. Fairness over time: two months of jobs, usage decayed with a 14-day half-life,'
\echo '   one share tree per week, and each group''s factor week by week. group2 stops'
\echo '   submitting after three weeks; its factor recovers as its usage decays.'
CREATE TABLE weekly_jobs AS
SELECT (CASE WHEN i % 3 = 0 THEN 'group2.scott' ELSE 'group1.Bob' END)::sharepath AS owner,
       '2026-01-01'::timestamptz + (i * 37 % (60 * 24)) * interval '1 hour' AS end_time,
       100.0 AS cput
FROM generate_series(1, 3000) AS i
WHERE i % 3 <> 0 OR (i * 37 % (60 * 24)) < 21 * 24;
CREATE TABLE weekly_fairshare AS
WITH weeks AS (
    SELECT w AS week_end FROM generate_series('2026-01-08'::timestamptz, '2026-03-01', '7 days') AS w),
usage AS (
    SELECT j.owner AS path, w.week_end,
           value(decayed_sum(j.cput, j.end_time, '14 days'), w.week_end) AS usage
    FROM weeks AS w JOIN weekly_jobs AS j ON j.end_time <= w.week_end
    GROUP BY j.owner, w.week_end),
trees AS (
    SELECT week_end, share_tree(path, shares, usage) AS t
    FROM (SELECT week_end, path, NULL::float8 AS shares, usage FROM usage
          UNION ALL SELECT week_end, path, shares, 0 FROM weeks, fairshare_groups) AS rows
    GROUP BY week_end)
SELECT week_end, f.path, f.fairshare
FROM trees, fairshare(t) AS f WHERE f.depth = 1;
SELECT week_end::date AS week_ending,
       round(max(fairshare) FILTER (WHERE path = 'group1')::numeric, 3) AS group1,
       round(max(fairshare) FILTER (WHERE path = 'group2')::numeric, 3) AS group2
FROM weekly_fairshare
GROUP BY week_end ORDER BY week_end;

\echo '   Charts (SVG, written by SQL): each group''s factor week by week, and the share tree of'
\echo '   section 6 drawn as nested boxes, sized by shares and by usage:'
\pset format unaligned
\pset tuples_only on
\o :chart_dir/fairshare_weekly.svg
SELECT pg_temp.svg_line_chart(
    'Fairshare factor per group, week by week (classic, 14-day half-life)', 'fairshare factor',
    (SELECT jsonb_agg(jsonb_build_object('series', path::text, 'i', dense_rank - 1,
                                         'x', to_char(week_end, 'Mon DD'), 'y', fairshare))
     FROM (SELECT *, dense_rank() OVER (ORDER BY week_end) FROM weekly_fairshare) AS w),
    1);
\o :chart_dir/share_tree.svg
SELECT pg_temp.svg_share_boxes(
    'The share tree of section 6: shares against usage',
    (SELECT jsonb_agg(jsonb_build_object('path', path::text[], 'shares', shares, 'usage', usage))
     FROM tree_snapshot, tree_nodes(t)));
\o
\pset format aligned
\pset tuples_only off
\echo '   ' :chart_dir/fairshare_weekly.svg
\echo '   ' :chart_dir/share_tree.svg

\echo '9. Fair-share division down a pool tree (YTsaurus). A cluster of 100 cpus and 512 GB;'
\echo '   prod is guaranteed half of it and weighs 3, research is capped at a fifth. Each'
\echo '   pool''s fair share, and what decided it:'
SELECT repeat('  ', depth) || coalesce(leaf(path), 'cluster') AS pool, weight,
       guaranteed_share AS guarantee, round(demand_ratio::numeric, 2) AS demand,
       dominant_resource AS dominant, round(fair_share_ratio::numeric, 3) AS fair_share, bound
FROM fair_share((SELECT pool_tree(p::sharepath, w, lo, hi, NULL, d::resvec)
                 FROM (VALUES ('prod', 3, 0.5, NULL, NULL),
                              ('prod.web', 1, NULL, NULL, 'cpu=20'),
                              ('prod.batch', 2, NULL, NULL, 'cpu=60,mem=100gb'),
                              ('dev', 1, NULL, NULL, 'cpu=10'),
                              ('research', 1, NULL, 0.2, 'mem=512gb')) AS t(p, w, lo, hi, d)),
                'cpu=100,mem=512gb');

\echo '10. HTCondor weighted hours on partitionable machines. A slot''s weight is its cores'
\echo '    plus the memory (and GPUs) it takes beyond its cores'' share of the machine, in cores.'
CREATE TABLE condor_jobs (job int, submitter text, machine resvec, slot resvec, hours float8);
INSERT INTO condor_jobs VALUES
    (1, 'alice', 'cpus=64,memory=64gb', 'cpus=1,memory=1gb', 10),
    (2, 'alice', 'cpus=64,memory=64gb', 'cpus=4,memory=4gb', 5),
    (3, 'bob', 'cpus=64,memory=64gb', 'cpus=1,memory=32gb', 8),
    (4, 'bob', 'cpus=32,memory=256gb,gpus=4', 'cpus=2,memory=16gb,gpus=2', 3),
    (5, 'carol', 'cpus=32,memory=256gb,gpus=4', 'cpus=8,memory=64gb', 6);
SELECT job, submitter, slot, slot_weight(slot, machine) AS weight, hours,
       slot_weight(slot, machine) * hours AS weighted_hours
FROM condor_jobs ORDER BY job;
SELECT submitter, sum(hours * (slot -> 'cpus')) AS core_hours,
       sum(slot_weight(slot, machine) * hours) AS weighted_hours
FROM condor_jobs GROUP BY submitter ORDER BY weighted_hours DESC;

\echo '11. PBS placement sets: 8 vnodes labelled with a router and switches (a comma separates'
\echo '    values). The sets, ordered with "router HIGH" first, and where three jobs would go:'
CREATE TABLE cluster_vnodes (vnode text, avail resvec, assigned resvec, labels jsonb);
INSERT INTO cluster_vnodes VALUES
    ('n01', 'ncpus=8,mem=32gb', 'ncpus=8,mem=16gb', '{"router": "rt1", "switch": "sw1"}'),
    ('n02', 'ncpus=8,mem=32gb', NULL, '{"router": "rt1", "switch": "sw1"}'),
    ('n03', 'ncpus=16,mem=64gb', NULL, '{"router": "rt1", "switch": "sw2"}'),
    ('n04', 'ncpus=16,mem=64gb', 'ncpus=4', '{"router": "rt1", "switch": "sw2,sw1"}'),
    ('n05', 'ncpus=8,mem=16gb', NULL, '{"router": "rt2", "switch": "sw3"}'),
    ('n06', 'ncpus=8,mem=16gb', NULL, '{"router": "rt2", "switch": "sw3"}'),
    ('n07', 'ncpus=32,mem=128gb', 'ncpus=32,mem=100gb', '{"router": "rt2", "switch": "sw4"}'),
    ('n08', 'ncpus=32,mem=128gb', NULL, '{"router": "rt2", "switch": "sw4"}');
SELECT rank, name, total, unused, vnodes
FROM (SELECT vnode_pool(vnode, avail, assigned, labels) AS pool FROM cluster_vnodes) AS p,
     placement_sets(pool, ARRAY['router', 'switch'], ARRAY['"router HIGH"', 'ncpus LOW unused']);
SELECT job, request, p.pset, p.rank, p.fits_now
FROM (SELECT vnode_pool(vnode, avail, assigned, labels) AS pool FROM cluster_vnodes) AS c,
     (VALUES ('small', 'ncpus=4,mem=8gb'::resvec), ('wide', 'ncpus=40,mem=100gb'),
             ('waiting', 'ncpus=60')) AS j(job, request),
     LATERAL place(pool, ARRAY['router', 'switch'], request, ARRAY['"router HIGH"', 'ncpus LOW unused']) AS p;
\echo '    The same jobs as PBS select/place specs, chunk by chunk: the vnodes each chunk lands on'
\echo '    (n01, n04 and n07 run jobs: "excl" avoids them, so the wide job waits for rt1; "pack" keeps'
\echo '    every chunk on one host):'
SELECT job, spec, p.pset, p.fits_now, p.chunk, p.vnode, p.amounts
FROM (SELECT vnode_pool(vnode, avail, assigned, labels) AS pool FROM cluster_vnodes) AS c,
     (VALUES ('small', '1:ncpus=4:mem=8gb', 'free'), ('wide', '4:ncpus=8:mem=24gb', 'scatter:excl'),
             ('packed', '3:ncpus=4:mem=16gb', 'pack')) AS j(job, spec, place),
     LATERAL place_select(pool, ARRAY['router', 'switch'], spec, place,
                          ARRAY['"router HIGH"', 'ncpus LOW unused']) AS p
ORDER BY job, chunk;

\echo '12. Loading accounting records. Real PBS/TORQUE log lines (Open XDMoD''s and APEL''s test'
\echo '    fixtures) are copied verbatim into a staging table and parsed in SQL; every line is'
\echo '    read or listed with its reason, and odd ones keep a list of anomalies:'
CREATE TABLE pbs_raw (id bigserial, line text);
\copy pbs_raw(line) FROM 'sql/data/pbs_accounting_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE pbs_parsed AS SELECT r.id, p.* FROM pbs_raw r, LATERAL pbs_acct_try(r.line) AS p;
SELECT count(*) AS lines, count(*) FILTER (WHERE error IS NULL) AS parsed,
       count(*) FILTER (WHERE cardinality(anomalies) > 0) AS with_anomalies
FROM pbs_parsed;
SELECT id, record_type, job_id, anomalies[1] AS first_anomaly
FROM pbs_parsed WHERE cardinality(anomalies) > 0 ORDER BY id LIMIT 4;
\echo '    The charge per group and user (PBS fairshare_usage_res = cput, in seconds; every R'
\echo '    record of a rerun job counts, array parents never do), and their PBS fairshare with'
\echo '    equal shares:'
CREATE TABLE pbs_charge AS
SELECT ARRAY["group", "user"]::sharepath AS path, sum(pbs_usage('cput', used)) AS usage
FROM pbs_parsed
WHERE error IS NULL AND record_type IN ('E', 'R') AND NOT is_array_parent AND "user" IS NOT NULL
GROUP BY 1;
SELECT f.path, f.raw_usage, round(f.fairshare::numeric, 4) AS fairshare, f.rank
FROM (SELECT share_tree(path, 1, usage) AS t
      FROM (SELECT path, usage FROM pbs_charge
            UNION ALL SELECT DISTINCT parent(path), 0 FROM pbs_charge) AS rows) AS s,
     fairshare(s.t, 'pbs') AS f
WHERE f.is_leaf ORDER BY f.rank LIMIT 6;
\echo '    Slurm: sacct --parsable2 rows read with their header line; billing x elapsed per'
\echo '    account and user (one share each), and the SLURM classic factors:'
CREATE TABLE sacct_raw (id bigserial, line text);
\copy sacct_raw(line) FROM PROGRAM 'awk ''/^# block: constructed_edges/{f=1; next} /^# block/{f=0} f'' sql/data/sacct_parsable2_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE slurm_jobs AS
SELECT r.id, p.*
FROM sacct_raw r, (SELECT line FROM sacct_raw ORDER BY id LIMIT 1) AS h,
     LATERAL sacct_row_try(r.line, h.line) AS p
WHERE r.id > (SELECT min(id) FROM sacct_raw);
SELECT job_id, state, cancelled_by, elapsed_s, req_mem_bytes, alloc_tres
FROM slurm_jobs WHERE error IS NULL AND step IS NULL ORDER BY id LIMIT 6;
SELECT f.path, f.raw_shares, f.raw_usage, round(f.effective_usage::numeric, 4) AS effective_usage,
       round(f.fairshare::numeric, 4) AS fairshare
FROM (SELECT share_tree(path, 1, usage) AS t
      FROM (SELECT ARRAY[account, "user"]::sharepath AS path,
                   sum(coalesce((alloc_tres -> 'billing') * elapsed_s, 0)) AS usage
            FROM slurm_jobs WHERE error IS NULL AND step IS NULL AND account IS NOT NULL
            GROUP BY 1
            UNION ALL
            SELECT DISTINCT ARRAY[account]::sharepath, 0
            FROM slurm_jobs WHERE error IS NULL AND step IS NULL AND account IS NOT NULL) AS u) AS s,
     fairshare(s.t, 'classic') AS f
ORDER BY f.path;

\echo '13. Queue fair access (the MSIC-Cluster PBS scheduler). Its administrator''s guide''s sample'
\echo '    configuration: queues low, med, hi and special with 10, 15, 40 and 35 shares:'
CREATE TABLE msic AS
SELECT msic_config($$
SUBMIT_QUEUE            pending
BATCH_QUEUES            hosta@hosta,hostb@hostb
EXPRESS_QUEUE           special
TARGET_LOAD_PCT         90%
TARGET_LOAD_VARIANCE    -15%,+10%
MAX_WAIT_TIME           24:00:00
FAIR_SHARE QUEUE:low:10:10
FAIR_SHARE QUEUE:med:15:10
FAIR_SHARE QUEUE:hi:40:10
FAIR_SHARE QUEUE:special:35:10
$$) AS c;
SELECT (c).submit_queue, (c).batch_queues, (c).express_queue, (c).max_wait_time, (c).fair_share FROM msic;
\echo '    A week of job starts charged to each queue (CPUs x requested minutes), rolled over at'
\echo '    23:00 every night: med used far more than its 15 %, so it is over its share.'
CREATE TABLE msic_starts AS
SELECT q AS queue, 16 AS ncpus, interval '4 hours' AS walltime,
       timestamptz '2026-03-02 08:00' + d * interval '1 day' + h * interval '1 hour' AS started_at
FROM (VALUES ('med', 10), ('hi', 4), ('low', 1)) AS v(q, per_day),
     generate_series(0, 6) AS d, generate_series(1, per_day) AS h;
CREATE TABLE msic_state AS
SELECT msic_queue_state(queue, ncpus, walltime, started_at, 64, '2026-03-09 12:00') AS s
FROM msic_starts GROUP BY queue;
SELECT (s).queue, (s).ndays, round((s).past_pct::numeric, 2) AS past_pct,
       round(msic_rank(s, f.shares)::numeric, 3) AS rank, msic_over_share(s, f.shares) AS over_share
FROM msic_state, msic, unnest((msic.c).fair_share) AS f WHERE f.queue = (s).queue
ORDER BY rank;
\echo '    The pending jobs in the order the scheduler would try them: the express queue first,'
\echo '    then a job that has waited over MAX_WAIT_TIME, then by queue rank (med, over its share,'
\echo '    last); decided_by names the comparison that put each job after the one before it.'
SELECT o.pos, o.job_id, j.owner, j.queue, o.priority, o.waiting, round(o.queue_rank::numeric, 3) AS rank,
       o.over_share, o.decided_by
FROM msic,
     LATERAL (SELECT array_agg(s) AS shares FROM msic_state) AS st,
     (VALUES (ARRAY[
         ROW('101.srv', 'ann', 'med', 'Q', 8, NULL, '02:00', NULL, '2026-03-09 09:00', '2026-03-09 09:00', NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('102.srv', 'bob', 'low', 'Q', 8, NULL, '02:00', NULL, '2026-03-09 10:00', '2026-03-09 10:00', NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('103.srv', 'cy',  'hi',  'Q', 8, NULL, '01:00', NULL, '2026-03-09 10:30', '2026-03-09 10:30', NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('104.srv', 'dee', 'hi',  'Q', 8, NULL, '06:00', NULL, '2026-03-09 10:30', '2026-03-09 10:30', NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('105.srv', 'eve', 'special', 'Q', 4, NULL, '00:30', NULL, '2026-03-09 11:50', '2026-03-09 11:50', NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('106.srv', 'fay', 'low', 'Q', 4, NULL, '08:00', NULL, '2026-03-07 09:00', '2026-03-07 09:00', NULL, NULL, NULL, NULL, NULL)::msic_job
     ])) AS jobs(a),
     LATERAL msic_job_order(msic.c, st.shares, jobs.a, '2026-03-09 12:00', 64) AS o
JOIN LATERAL (SELECT * FROM unnest(jobs.a) AS x WHERE x.job_id = o.job_id) AS j ON true
ORDER BY o.pos;

\echo ''
\echo '14. One MSIC scheduling cycle. hosta and hostb (32 CPUs each) are full: hosta runs three'
\echo '    med jobs (med is over its share) and a hi job, hostb hi and low jobs. An express job'
\echo '    of 16 CPUs arrives with two ordinary jobs. Only the over-share med jobs are candidates,'
\echo '    shortest time left first: the first, with 10 % of its walltime left, is checkpointed'
\echo '    (not above SUSPEND_THRESHOLD), the next suspended. The jobs that cannot run get the'
\echo '    comment the scheduler would post:'
CREATE TABLE msic_cluster AS
SELECT ARRAY[ROW('hosta', 32, 128e9, 'linux', 30, true)::msic_host,
             ROW('hostb', 32, 128e9, 'linux', 30, true)::msic_host] AS hosts,
       ARRAY[ROW('hosta', NULL, true, true, NULL, 32, NULL, NULL, '24:00', NULL, NULL, NULL, NULL)::msic_queue,
             ROW('hostb', NULL, true, true, NULL, 32, NULL, NULL, '24:00', NULL, NULL, NULL, NULL)::msic_queue] AS queues;
SELECT c.step, c.action, c.job_id, c.queue, c.host, c.reason
FROM msic, msic_cluster,
     LATERAL (SELECT array_agg(s) AS shares FROM msic_state) AS st,
     msic_cycle(msic.c, st.shares, msic_cluster.hosts, msic_cluster.queues, ARRAY[
         ROW('201.srv', 'ann', 'med', 'R', 8, 8e9, '10:00', '9:00', '2026-03-09 02:00', NULL, 'hosta', NULL, NULL, NULL, NULL)::msic_job,
         ROW('202.srv', 'ann', 'med', 'R', 8, 8e9, '10:00', '2:00', '2026-03-09 09:00', NULL, 'hosta', NULL, NULL, NULL, NULL)::msic_job,
         ROW('203.srv', 'ben', 'med', 'R', 8, 8e9, '10:00', '5:00', '2026-03-09 06:00', NULL, 'hosta', NULL, NULL, NULL, NULL)::msic_job,
         ROW('204.srv', 'cy',  'hi',  'R', 8, 8e9, '10:00', '1:00', '2026-03-09 10:00', NULL, 'hosta', NULL, NULL, NULL, NULL)::msic_job,
         ROW('205.srv', 'dee', 'hi',  'R', 16, 8e9, '10:00', '1:00', '2026-03-09 10:00', NULL, 'hostb', NULL, NULL, NULL, NULL)::msic_job,
         ROW('206.srv', 'fay', 'low', 'R', 16, 8e9, '10:00', '1:00', '2026-03-09 10:00', NULL, 'hostb', NULL, NULL, NULL, NULL)::msic_job,
         ROW('301.srv', 'eve', 'special', 'Q', 16, 8e9, '02:00', NULL, '2026-03-09 11:55', NULL, NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('302.srv', 'gus', 'hi',  'Q', 8, 8e9, '30:00', NULL, '2026-03-09 11:00', NULL, NULL, NULL, NULL, NULL, NULL)::msic_job,
         ROW('303.srv', 'hal', 'low', 'Q', 64, 8e9, '01:00', NULL, '2026-03-09 11:00', NULL, NULL, NULL, NULL, NULL, NULL)::msic_job],
       '2026-03-09 12:00', 64) AS c
ORDER BY c.step;

\echo '    A week of 1,000 submissions (a third to chem, the rest to phys) replayed at 5-minute'
\echo '    cycles on two 16-CPU hosts, under equal shares and under chem 20 / phys 80: each'
\echo '    queue''s share of the CPU time the week gave (from the run, suspend and end rows).'
CREATE TABLE week AS
SELECT ROW(i || '.srv', 'u' || (i % 20), CASE WHEN i % 3 = 0 THEN 'chem' ELSE 'phys' END, 'Q',
           1 + i % 4, 1e9, make_interval(hours => 2 + i % 6), make_interval(hours => 1 + i % 5),
           timestamptz '2026-03-02' + make_interval(mins => i * 10), NULL,
           NULL, NULL, NULL, NULL, NULL)::msic_job AS j
FROM generate_series(1, 1000) AS i;
WITH cfg(name, conf) AS (VALUES
  ('equal', E'SUBMIT_QUEUE pending\nBATCH_QUEUES n1@n1,n2@n2\nFAIR_SHARE QUEUE:chem:50:50\nFAIR_SHARE QUEUE:phys:50:50\n'),
  ('chem 20', E'SUBMIT_QUEUE pending\nBATCH_QUEUES n1@n1,n2@n2\nFAIR_SHARE QUEUE:chem:20:50\nFAIR_SHARE QUEUE:phys:80:50\n')),
runs AS (
  SELECT c.name, r.job_id, r.action, r.at,
         lag(r.at) OVER (PARTITION BY c.name, r.job_id ORDER BY r.at, r.step) AS since
  FROM cfg AS c,
       msic_replay(msic_config(c.conf),
                   ARRAY[ROW('n1', 16, 64e9, NULL, 0, true)::msic_host, ROW('n2', 16, 64e9, NULL, 0, true)::msic_host],
                   ARRAY[ROW('n1', NULL, true, true, NULL, 16, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::msic_queue,
                         ROW('n2', NULL, true, true, NULL, 16, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::msic_queue],
                   (SELECT array_agg(j) FROM week), '2026-03-02', '2026-03-09') AS r
  WHERE r.action IN ('run', 'resume', 'suspend', 'checkpoint', 'requeue', 'end'))
SELECT w.queue,
       round(100 * sum(extract(epoch FROM r.at - r.since) * w.ncpus) FILTER (WHERE r.name = 'equal')
             / sum(sum(extract(epoch FROM r.at - r.since) * w.ncpus) FILTER (WHERE r.name = 'equal')) OVER (), 1) AS "equal shares %",
       round(100 * sum(extract(epoch FROM r.at - r.since) * w.ncpus) FILTER (WHERE r.name = 'chem 20')
             / sum(sum(extract(epoch FROM r.at - r.since) * w.ncpus) FILTER (WHERE r.name = 'chem 20')) OVER (), 1) AS "chem 20 / phys 80 %"
FROM runs AS r JOIN (SELECT (j).* FROM week) AS w USING (job_id)
WHERE r.action IN ('suspend', 'checkpoint', 'requeue', 'end')
GROUP BY w.queue ORDER BY w.queue;

\echo
\echo '15. HTCondor hierarchical group quotas. A pool of 100 slots; GROUP_NAMES = group_physics,'
\echo '    group_physics.hep, group_physics.lep, group_chemistry, group_bio. chemistry has 30 slots'
\echo '    (static) and bio 0; static quotas come first, so physics'' 0.6 (dynamic) is of the 70'
\echo '    left: 42, split 3:1 between hep and lep. hep, lep and bio accept surplus, physics and'
\echo '    chemistry do not. The demand is each group''s weighted running + idle jobs; 20 run'
\echo '    outside every group (<none>). Each group is served from its own quota; what it leaves'
\echo '    goes to those of its level that accept surplus, by quota, then equally to those with'
\echo '    none, then up: lep''s 5.5 to hep (37), chemistry''s 18 and <none>''s 8 to bio (26).'
SELECT repeat('  ', length(grp) - length(replace(grp, '.', ''))) || grp AS "Group",
       round(subtree_quota::numeric, 2) AS "Subtree Quota", round(quota::numeric, 2) AS "Effective Quota",
       requested AS "Requested", round(allocated::numeric, 2) AS allocated,
       round(surplus::numeric, 2) AS surplus
FROM group_quotas(ARRAY['group_physics', 'group_physics.hep', 'group_physics.lep',
                        'group_chemistry', 'group_bio'],
                  ARRAY[0.6, 0.75, 0.25, 30, 0], ARRAY[true, true, true, false, false],
                  ARRAY[false, true, true, false, true], ARRAY[0, 70, 5, 12, 40], 100,
                  none_demand => 20);
\echo '    Each submitter''s slice of one negotiation cycle ("pie spin"), from effective user'
\echo '    priorities: 1/EUP over the sum of 1/EUP (a user at EUP 500 gets twice the slice of one'
\echo '    at 1000):'
SELECT submitter, round(share::numeric, 4) AS share
FROM pie_spin(ARRAY['alice@site', 'bob@site', 'carol@site'], ARRAY[500, 1000, 4000]);
