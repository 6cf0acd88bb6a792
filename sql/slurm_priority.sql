-- slurm_priority: SLURM's priority/multifactor parameters, read as slurmctld reads them.
SET search_path = fairsched, public;
\pset null '(null)'
\x on

-- SLURM's defaults: no weights, a week of age, a pass every 5 minutes, Fair Tree on
SELECT * FROM slurm_priority_config('');
-- before 23.11 the default PriorityType was priority/basic
SELECT version, priority_type FROM slurm_priority_config('', '22.05');

-- slurm.conf: several pairs on a line, keys in any case, comments, a partition's own keys
-- skipped, the last of a repeated key kept, hexadecimal and octal as strtoul reads them
SELECT * FROM slurm_priority_config($$
# slurm.conf
ClusterName=c1 PriorityType=priority/multifactor
priorityweightage=1000   PriorityWeightFairshare=10000  # fair share first
PriorityWeightJobSize=0x10
PriorityWeightPartition=010
PriorityWeightQOS=UNLIMITED
PriorityWeightAssoc=5
PriorityWeightAssoc=6
PartitionName=batch Nodes=n[1-4] PriorityJobFactor=10 PriorityWeightAge=7
PriorityWeightTRES=CPU=1000,Mem=2000G,GRES/gpu=3000
PriorityMaxAge=1-0
PriorityCalcPeriod=1:30
PriorityFavorSmall=YES
PriorityFlags="no_fair_tree,ACCRUE_ALWAYS"
Include /etc/slurm/nodes.conf
$$);

-- scontrol show config output: "Key = Value", (null) for unset, the release from SLURM_VERSION
SELECT * FROM slurm_priority_config($$
Configuration data as of 2026-12-01T10:00:00
PriorityParameters      = (null)
PriorityDecayHalfLife   = 7-00:00:00
PriorityCalcPeriod      = 00:05:00
PriorityFavorSmall      = No
PriorityFlags           = NO_NORMAL_ALL
PriorityMaxAge          = 14-00:00:00
PriorityType            = priority/multifactor
PriorityWeightAge       = 0
PriorityWeightAssoc     = 1
PriorityWeightFairshare = 0
PriorityWeightJobSize   = 1
PriorityWeightPartition = 1
PriorityWeightQOS       = 1
PriorityWeightTRES      = CPU=1
SLURM_VERSION           = 22.05.8
$$);
-- the caller's release wins over the line
SELECT version FROM slurm_priority_config('SLURM_VERSION = 22.05.8', '23.02');
\x off

-- PriorityMaxAge: minutes rounded up ("1:30" is 90 seconds, kept as 2 minutes), days-hours,
-- UNLIMITED kept as minutes * 60 in 32 bits (4294967236 seconds), "0" (full age at once)
SELECT v, (slurm_priority_config('PriorityMaxAge=' || v)).max_age,
       extract(epoch FROM (slurm_priority_config('PriorityMaxAge=' || v)).max_age) AS seconds
FROM unnest(ARRAY['1:30', '0', '61', '1:00:01', '7-0', '2-3', '2-3:4', '5-', 'UNLIMITED',
                  'infinite', '-1', '24855-0']) v;

-- PriorityFlags: every word found anywhere in the value, in any case; unknown words ignored;
-- MAX_TRES_GRES hides MAX_TRES; NO_NORMAL_ALL is the four NO_NORMAL_*; DEPTH_OBLIVIOUS is classic
SELECT v, (slurm_priority_config('PriorityFlags=' || v)).flags
FROM unnest(ARRAY['NO_NORMAL_ALL', 'no_normal_qos,NO_NORMAL_TRES', 'MAX_TRES_GRES', 'MAX_TRES',
                  'DEPTH_OBLIVIOUS', 'XINCR_ONLYX', 'INCR_ONL,FAIR_TREE,TICKET_BASED',
                  'SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING']) v;

-- NULL in, NULL out
SELECT slurm_priority_config(NULL) IS NULL AS is_null;

-- errors (22P02): each names the parameter and the line, with slurmctld's own words
DO $$ BEGIN PERFORM slurm_priority_config('PriorityWeightAge=x');
EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'SQLSTATE %', SQLSTATE; END $$;
\set SHOW_CONTEXT always
SELECT slurm_priority_config('PriorityWeightAge=12a');
SELECT slurm_priority_config(E'\nPriorityWeightQOS=4294967296');
SELECT slurm_priority_config('PriorityWeightFairshare=-1');
SELECT slurm_priority_config('PriorityMaxAge = 1 week');
SELECT slurm_priority_config('PriorityMaxAge=24856-0');
SELECT slurm_priority_config('PriorityCalcPeriod=0');
SELECT slurm_priority_config('PriorityFavorSmall=maybe');
SELECT slurm_priority_config('PriorityType=priority/fifo');
SELECT slurm_priority_config(E'a=b\n\nPriorityWeightTRES=cpu=1,gpu=2');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=x');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=1GB');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=1e999');
SELECT slurm_priority_config('SLURM_VERSION = 17.11.2');
SELECT slurm_priority_config('', '22');

-- slurm_priority: a job's priority at a calculation pass
\set VERBOSITY default
CREATE TEMP TABLE c AS SELECT
    (4, 16, 10, 3, 50)::slurm_cluster AS cl,
    '2026-12-01 12:00:00+00'::timestamptz AS pass;
CREATE FUNCTION pg_temp.job(tres text DEFAULT 'cpu=16', part_tres text DEFAULT 'cpu=16,mem=64gb',
                            assoc bigint DEFAULT 10, pf int DEFAULT 3, qos bigint DEFAULT 50,
                            min_nodes int DEFAULT 4, cpus int DEFAULT 16,
                            accrue timestamptz DEFAULT NULL, fs float8 DEFAULT 0,
                            site bigint DEFAULT 0, nice bigint DEFAULT 0,
                            direct bigint DEFAULT NULL, prev bigint DEFAULT NULL,
                            time_limit interval DEFAULT NULL)
RETURNS slurm_job LANGUAGE sql AS $$
    SELECT ROW('1001', 'alice', 'physics', 'batch', 'normal', '2026-12-01 10:00:00+00', accrue,
               min_nodes, cpus, time_limit, tres::resvec, fs, assoc, pf, 1, '1 day'::interval,
               part_tres::resvec, qos, site, nice, direct, prev)::slurm_job $$;

-- SLURM's test24.7: Assoc=QOS=TRES cpu=4000000, Partition=60000, JobSize=1: each at its
-- maximum gives the whole weight; half the maximum (a third for the partition) that part of it
SELECT p.* FROM c, slurm_priority(slurm_priority_config(
    'PriorityWeightAssoc=4000000 PriorityWeightQOS=4000000 PriorityWeightPartition=60000 '
    'PriorityWeightJobSize=1 PriorityWeightTRES=cpu=4000000'), pg_temp.job(), c.cl, c.pass) p;
SELECT priority, assoc, qos, partition, tres, assoc_factor, qos_factor, partition_factor, tres_factors
FROM c, slurm_priority(slurm_priority_config(
    'PriorityWeightAssoc=4000000 PriorityWeightQOS=4000000 PriorityWeightPartition=60000 '
    'PriorityWeightJobSize=1 PriorityWeightTRES=cpu=4000000'),
    pg_temp.job(tres => 'cpu=8', assoc => 5, pf => 1, qos => 25), c.cl, c.pass);
-- an admin-set priority (scontrol update priority=999): fixed, every term 0
SELECT priority, priority_sum, direct, assoc, qos, tres
FROM c, slurm_priority(slurm_priority_config('PriorityWeightAssoc=4000000'),
                       pg_temp.job(direct => 999), c.cl, c.pass);

-- SLURM's test24.6: NO_NORMAL_ALL with every weight 1 gives the raw values: assoc 100,
-- partition 20, QOS 200, cpu the CPU count (memory in MB)
SELECT priority, assoc, partition, qos, tres
FROM c, slurm_priority(slurm_priority_config(
    'PriorityFlags=NO_NORMAL_ALL PriorityWeightAssoc=1 PriorityWeightPartition=1 '
    'PriorityWeightQOS=1 PriorityWeightTRES=cpu=1,mem=1'),
    pg_temp.job(tres => 'cpu=6,mem=2gb', assoc => 100, pf => 20, qos => 200), c.cl, c.pass);

-- SLURM's test24.5 and test17.23: the site factor at its bounds, nice 100 (--nice) and 200
SELECT s, n, p.priority, p.priority_sum, p.site, p.nice
FROM c, (VALUES (2147483645, 0), (-2147483645, 0), (1000, 100), (1000, 200)) v(s, n),
     slurm_priority(slurm_priority_config(''), pg_temp.job(site => s, nice => n), c.cl, c.pass) p;

-- age: PriorityMaxAge=1:30 is 2 minutes; the factor is a fraction strictly below it, 1 from it
SELECT a, p.age, p.age_factor
FROM c, (VALUES (interval '1 minute'), ('119 seconds'), ('2 minutes'), ('-1 minute')) v(a),
     slurm_priority(slurm_priority_config('PriorityWeightAge=1000 PriorityMaxAge=1:30'),
                    pg_temp.job(accrue => c.pass - a), c.cl, c.pass) p;
-- not accruing (accrue_time NULL): no age
SELECT age FROM c, slurm_priority(slurm_priority_config('PriorityWeightAge=1000'),
                                  pg_temp.job(), c.cl, c.pass);

-- job size (4 nodes, 16 CPUs; a job of 1 node and 4 CPUs): favor large (1/4 + 4/16)/2,
-- favor small (3/4 + 12/16)/2, relative to a 60-minute limit max(1*16/4, 4)/60/16
SELECT f, p.jobsize_factor, p.jobsize
FROM c, (VALUES ('PriorityWeightJobSize=1000'),
                ('PriorityWeightJobSize=1000 PriorityFavorSmall=YES'),
                ('PriorityWeightJobSize=1000 PriorityFlags=SMALL_RELATIVE_TO_TIME'),
                ('PriorityWeightJobSize=1000 PriorityFlags=SMALL_RELATIVE_TO_TIME PriorityFavorSmall=YES')) v(f),
     slurm_priority(slurm_priority_config(f),
                    pg_temp.job(min_nodes => 1, cpus => 4, time_limit => '1 hour'), c.cl, c.pass) p;
-- favor small and more CPUs than the cluster: the unsigned difference wraps to the best factor;
-- more nodes than the cluster: 0 for the node term since 23.02, wrapped before
SELECT v, cpus, nodes, p.jobsize_factor
FROM c, (VALUES ('26.05', 20, 1), ('26.05', 4, 5), ('22.05', 4, 5)) x(v, cpus, nodes),
     slurm_priority(slurm_priority_config('PriorityWeightJobSize=1000 PriorityFavorSmall=YES', v),
                    pg_temp.job(min_nodes => nodes, cpus => cpus), c.cl, c.pass) p;

-- the sum: floor of 1, truncation, TRES over the partition's total and not capped, the
-- 32-bit cap, INCR_ONLY
SELECT priority, priority_sum FROM c, slurm_priority(slurm_priority_config(''), pg_temp.job(), c.cl, c.pass);
SELECT priority, priority_sum, fairshare
FROM c, slurm_priority(slurm_priority_config('PriorityWeightFairshare=10000'),
                       pg_temp.job(fs => 0.12349), c.cl, c.pass);
SELECT priority, tres, tres_factors
FROM c, slurm_priority(slurm_priority_config('PriorityWeightTRES=mem=1000,cpu=10'),
                       pg_temp.job(tres => 'mem=128gb,cpu=4', part_tres => 'mem=64gb'), c.cl, c.pass);
SELECT priority, priority_sum
FROM c, slurm_priority(slurm_priority_config('PriorityWeightQOS=UNLIMITED PriorityWeightAssoc=UNLIMITED'),
                       pg_temp.job(assoc => 10, qos => 50), c.cl, c.pass);
SELECT f, prev, p.priority
FROM c, (VALUES ('PriorityWeightQOS=1000 PriorityFlags=INCR_ONLY', 5000),
                ('PriorityWeightQOS=1000 PriorityFlags=INCR_ONLY', 10),
                ('PriorityWeightQOS=1000', 5000)) v(f, prev),
     slurm_priority(slurm_priority_config(f), pg_temp.job(qos => 50, prev => prev), c.cl, c.pass) p;
-- a proposed weight: edit the configuration value
SELECT (slurm_priority(y.cfg, pg_temp.job(qos => 25), c.cl, c.pass)).priority
FROM c, LATERAL (SELECT ROW('26.05', 'priority/multifactor', 0, 0, 0, 0, 0, 4000, NULL,
                            '7 days'::interval, false, '{}'::text[], '5 min'::interval
                 )::slurm_priority_config AS cfg) y;

-- slurm_priority_value: the priority alone, as slurm_priority gives it. A call site reads each
-- configuration and cluster once and keeps them while they repeat: rows that alternate between
-- two configurations (QOS 1000 and TRES cpu=100; QOS 10 and TRES mem=1000,cpu=10) and two
-- clusters (max_qos_priority 50, 100) each get their own; the last job is a small row (most fields
-- NULL) and the clusters small values, stored with a short header
CREATE TEMP TABLE alt AS
SELECT i, (ARRAY[slurm_priority_config('PriorityWeightQOS=1000 PriorityWeightTRES=cpu=100'),
                 slurm_priority_config('PriorityWeightQOS=10 PriorityWeightTRES=mem=1000,cpu=10')]
          )[1 + i % 2] AS cfg,
       (ARRAY[(4, 16, 10, 3, 50)::slurm_cluster, (4, 16, 10, 3, 100)::slurm_cluster])[1 + i / 2 % 2] AS cl,
       CASE WHEN i < 8 THEN pg_temp.job(qos => 25, tres => 'cpu=' || 4 * i + 4 || ',mem=' || i + 1 || 'gb')
            ELSE ROW(NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1, 1, NULL, NULL, 0.5, NULL, NULL,
                     NULL, NULL, NULL, 25, NULL, NULL, NULL, NULL)::slurm_job END AS job
FROM generate_series(0, 9) i;
SELECT i, slurm_priority_value(cfg, job, alt.cl, c.pass) AS value, p.priority, p.qos, p.tres
FROM alt, c, slurm_priority(cfg, job, alt.cl, c.pass) p ORDER BY i;
SELECT slurm_priority_value(cfg, NULL, alt.cl, c.pass) FROM alt, c WHERE i = 0;
-- the job field by field (a table of typed columns): the same values, NULL fields included
SELECT i, slurm_priority_value(cfg, alt.cl, c.pass, (job).submit_time, (job).accrue_time,
                               (job).min_nodes, (job).cpus, (job).time_limit, (job).tres,
                               (job).fairshare, (job).assoc_priority, (job).partition_factor,
                               (job).partition_max_time, (job).partition_tres, (job).qos_priority,
                               (job).site_factor, (job).nice, (job).direct_priority,
                               (job).previous_priority) AS value
FROM alt, c ORDER BY i;
-- by name, the others NULL: QOS 25 of 50 at weight 1000, 4 of 16 CPUs at cpu=100: 525; an
-- admin-set priority; NULL config, cluster or as_of give NULL; a bad field is the same error
SELECT slurm_priority_value(cfg, alt.cl, c.pass, qos_priority => 25, tres => 'cpu=4',
                            partition_tres => 'cpu=16') AS by_name,
       slurm_priority_value(cfg, alt.cl, c.pass, direct_priority => 7) AS direct,
       slurm_priority_value(NULL, alt.cl, c.pass, qos_priority => 25) AS no_config,
       slurm_priority_value(cfg, NULL, c.pass) AS no_cluster,
       slurm_priority_value(cfg, alt.cl, NULL) AS no_pass
FROM alt, c WHERE i = 0;
SELECT slurm_priority_value(cfg, alt.cl, c.pass, cpus => -1) FROM alt, c WHERE i = 0;
SELECT slurm_priority_value(slurm_priority_config(''), pg_temp.job(fs => 1.5), c.cl, c.pass) FROM c;

-- errors
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(site => 2147483646), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(nice => -2147483646), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(cpus => -1), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(fs => 1.5), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(direct => -1), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config('PriorityWeightJobSize=1', '22.05'), pg_temp.job(),
                      (0, 0, 10, 3, 50)::slurm_cluster, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config('PriorityWeightJobSize=1 PriorityFlags=SMALL_RELATIVE_TO_TIME'),
                      pg_temp.job(time_limit => '0'), c.cl, c.pass) FROM c;
SELECT slurm_priority(ROW('26.05', NULL, -1, 0, 0, 0, 0, 0, NULL, NULL, false, NULL, NULL)::slurm_priority_config,
                      pg_temp.job(), c.cl, c.pass) FROM c;
SELECT slurm_priority(ROW('26.05', NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, false, '{FAIR}', NULL)::slurm_priority_config,
                      pg_temp.job(), c.cl, c.pass) FROM c;
SELECT slurm_priority(ROW('26.05', NULL, 0, 0, 0, 0, 0, 0, 'gpu=1', NULL, false, NULL, NULL)::slurm_priority_config,
                      pg_temp.job(), c.cl, c.pass) FROM c;
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(), c.cl, 'infinity') FROM c;

-- sprio: what sprio prints, byte for byte (quote_literal shows the trailing blanks)
CREATE TEMP TABLE q AS
SELECT ARRAY[pg_temp.job(tres => 'cpu=4,mem=16gb', part_tres => 'cpu=64,mem=256gb', assoc => 0,
                         pf => 1, qos => 25, min_nodes => 1, cpus => 4,
                         accrue => '2026-11-30 12:00:00+00', fs => 0.4),
             pg_temp.job(direct => 999)] AS jobs,
       slurm_priority_config('PriorityWeightAge=1000 PriorityWeightFairshare=10000 '
                             'PriorityWeightJobSize=500 PriorityWeightQOS=2000 '
                             'PriorityWeightTRES=CPU=1000,Mem=2000G') AS cfg;
UPDATE q SET jobs[2].job_id = '999';
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass);
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-n -l');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-w');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-n');
-- 22.05's -l has no ACCOUNT or QOSNAME column
SELECT quote_literal(line)
FROM q, c, sprio(slurm_priority_config('PriorityWeightQOS=2000', '22.05'), jobs, c.cl, c.pass, '--long');
-- no jobs: the header alone
SELECT quote_literal(line) FROM q, c, sprio(cfg, '{}', c.cl, c.pass, '-l');
-- -o FORMAT (SLURM's letters, widths and suffixes; a prefix; width 0 unpadded), -S (the first
-- key primary, - descending), the filters -j, -p, -u, -h without the header
UPDATE q SET jobs = jobs || (SELECT j FROM (SELECT pg_temp.job(qos => 10, fs => 0.2) j) s);
UPDATE q SET jobs[3].job_id = '1005', jobs[3]."user" = 'bob', jobs[3].partition = 'debug';
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-o "%.15i %9r %.8u %.10Y %.10Q %T"');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-o "row:%i|%Y|%y|%q|%N|%n|%o" -S -y');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '--format=%i,%u,%r --sort=u,-i');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-l -p batch -u alice');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-h -j 1005,999');
SELECT quote_literal(line) FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-w -o "%i|%Y|%A|%Q|%T"');
-- a letter the release does not know: left out with its suffix, and a warning (22.05 has no %o)
SELECT quote_literal(line)
FROM q, c, sprio(slurm_priority_config('PriorityWeightQOS=2000', '22.05'), jobs, c.cl, c.pass, '-o "%i %o|%r"');
-- errors
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-l -o %i');
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-S b');
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-o');
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-M cluster2');
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '-o "%i');
SELECT * FROM q, c, sprio(cfg, jobs, c.cl, c.pass, '1005');
SELECT * FROM q, c, sprio(cfg, ARRAY[NULL::slurm_job], c.cl, c.pass);
SELECT * FROM q, c, sprio(cfg, ARRAY[pg_temp.job(cpus => -1)], c.cl, c.pass);
SELECT slurm_priority(slurm_priority_config(''), pg_temp.job(qos => 60), c.cl, c.pass) FROM c;

-- slurm_job_order: the main scheduler's order. QOS weight 1000 against a highest QOS priority
-- of 50, every other weight 0: a job's priority is 1000 * qos / 50 (20 per QOS point). By hand:
-- tier 2 first (308 in urgent 1000, then 303 100); then tier 1 by priority: 307 (admin-set
-- 2000), 308 in batch and 301 (1000, 308 submitted earlier), 304, 302 and 305 (500: 304
-- submitted earlier, 302 and 305 in the same second, so the job id); 306 is held (priority 0)
CREATE FUNCTION pg_temp.ojob(id text, part text, tier int, qos bigint, submit timestamptz,
                             direct bigint DEFAULT NULL, prev bigint DEFAULT NULL)
RETURNS slurm_job LANGUAGE sql AS $$
    SELECT ROW(id, 'alice', 'physics', part, 'normal', submit, NULL, 1, 1, NULL, 'cpu=1', 0.5,
               0, 1, tier, '1 day'::interval, 'cpu=16', qos, 0, 0, direct, prev)::slurm_job $$;
CREATE TEMP TABLE oq AS
SELECT slurm_priority_config('PriorityWeightQOS=1000') AS cfg, ARRAY[
    pg_temp.ojob('301', 'batch', 1, 50, '2026-12-01 10:00:00+00'),
    pg_temp.ojob('302', 'batch', 1, 25, '2026-12-01 10:00:00+00'),
    pg_temp.ojob('303', 'urgent', 2, 5, '2026-12-01 11:00:00+00'),
    pg_temp.ojob('304', 'batch', 1, 25, '2026-12-01 09:00:00+00'),
    pg_temp.ojob('305', 'batch', 1, 25, '2026-12-01 10:00:00.4+00'),
    pg_temp.ojob('306', 'batch', 1, 50, '2026-12-01 07:00:00+00', 0),
    pg_temp.ojob('307', 'batch', 1, 0, '2026-12-01 11:30:00+00', 2000),
    pg_temp.ojob('308', 'batch', 1, 50, '2026-12-01 08:00:00+00'),
    pg_temp.ojob('308', 'urgent', 2, 50, '2026-12-01 08:00:00+00')] AS jobs;
\x off
SELECT o.* FROM oq, c, slurm_job_order(cfg, jobs, c.cl, c.pass) o;
-- the order is that of slurm_priority's stored priorities, tier first
SELECT bool_and(o.priority = (slurm_priority(cfg, j, c.cl, c.pass)).priority) AS same_priority
FROM oq, c, slurm_job_order(cfg, jobs, c.cl, c.pass) o,
     LATERAL (SELECT j FROM unnest(jobs) j WHERE j.job_id = o.job_id AND j.partition = o.partition) x;
-- one job in two partitions of one tier with the same priority: the array's order decides
SELECT o.* FROM oq, c, slurm_job_order(cfg, ARRAY[
    pg_temp.ojob('42', 'gpu', 1, 25, '2026-12-01 08:00:00+00'),
    pg_temp.ojob('42', 'batch', 1, 25, '2026-12-01 08:00:00+00'),
    pg_temp.ojob('42_7', 'batch', 1, 25, '2026-12-01 08:00:00+00'),
    pg_temp.ojob('x1', 'batch', 1, 25, '2026-12-01 08:00:00+00')], c.cl, c.pass) o;
-- INCR_ONLY: job 2's previous priority 800 holds its place above job 1's 500 (its own is 100)
SELECT o.* FROM c, slurm_job_order(slurm_priority_config('PriorityWeightQOS=1000 PriorityFlags=INCR_ONLY'),
    ARRAY[pg_temp.ojob('1', 'batch', 1, 25, '2026-12-01 08:00:00+00'),
          pg_temp.ojob('2', 'batch', 1, 5, '2026-12-01 08:00:00+00', prev => 800)], c.cl, c.pass) o;
-- no jobs; errors
SELECT o.* FROM oq, c, slurm_job_order(cfg, '{}', c.cl, c.pass) o;
SELECT * FROM oq, c, slurm_job_order(cfg, ARRAY[NULL::slurm_job], c.cl, c.pass);
SELECT * FROM oq, c, slurm_job_order(cfg, ARRAY[pg_temp.ojob('1', 'batch', 1, 60, c.pass)], c.cl, c.pass);
SELECT * FROM oq, c, slurm_job_order(cfg, ARRAY[[pg_temp.ojob('1', 'batch', 1, 5, c.pass)]], c.cl, c.pass);
\x on

-- slurm_priorities: one priority per (partition, QOS) pair of a job that names several. By hand
-- (partition term = PriorityJobFactor / 10 * 1000, QOS term = priority / 100 * 1000, cpu 4 over
-- the partition's total * 1000): batch (factor 5, 16 CPUs) 500 + 250, gpu (10, 8 CPUs)
-- 1000 + 500; normal 100, high 1000, and "zero" (priority 0) keeps the job's own QOS term (20: 200)
CREATE TEMP TABLE pq AS SELECT
    slurm_priority_config('PriorityWeightPartition=1000 PriorityWeightQOS=1000 PriorityWeightTRES=cpu=1000') AS cfg,
    ARRAY[('other', NULL, 1, NULL, NULL), ('batch', 5, 1, '2 days', 'cpu=16'),
          ('gpu', 10, 2, NULL, 'cpu=8')]::slurm_partition[] AS parts,
    ARRAY[('normal', 10), ('high', 100), ('zero', 0)]::slurm_qos[] AS qoss,
    (4, 16, 10, 10, 100)::slurm_cluster AS cl;
CREATE FUNCTION pg_temp.mjob(part text, qos text) RETURNS slurm_job LANGUAGE sql AS $$
    SELECT ROW('77', 'alice', 'physics', part, qos, '2026-12-01 10:00+00', NULL, 1, 4, NULL,
               'cpu=4', 0, 0, 1, 1, NULL, NULL, 20, 0, 0, NULL, NULL)::slurm_job $$;
\x off
SELECT partition_name, qos_name, priority, partition, qos, tres
FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch,gpu', 'normal,high,zero'), pq.cl, c.pass, parts, qoss);
-- without arrays: the job's own fields (partition 1 of 10: 100; QOS 20: 200; no CPU total)
SELECT partition_name, qos_name, priority
FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch', 'normal'), pq.cl, c.pass);
-- the same as slurm_priority for that job
SELECT (slurm_priority(cfg, pg_temp.mjob('batch', 'normal'), pq.cl, c.pass)).priority FROM pq, c;
-- no partition or QOS named: one row with the job's fields
SELECT partition_name, qos_name, priority
FROM pq, c, slurm_priorities(cfg, pg_temp.mjob(NULL, NULL), pq.cl, c.pass, parts, qoss);
-- SLURM's test24.6: NO_NORMAL_ALL with weights 1, one row per partition (PriorityJobFactor 10
-- and 20), QOS 200
SELECT partition_name, qos_name, priority, partition, qos
FROM c, slurm_priorities(slurm_priority_config(
         'PriorityFlags=NO_NORMAL_ALL PriorityWeightPartition=1 PriorityWeightQOS=1'),
     pg_temp.mjob('p1,p2', 'q200'), (4, 16, 0, 20, 200)::slurm_cluster, c.pass,
     ARRAY[('p1', 10, 1, NULL, NULL), ('p2', 20, 1, NULL, NULL)]::slurm_partition[],
     ARRAY[('q200', 200)]::slurm_qos[]);
-- INCR_ONLY per pair (SLURM's priority_array: each entry raised by its own new value only):
-- batch/normal is 850 and gpu/normal 1600 by hand (above); batch's previous 5000 holds, gpu's
-- 1000 is below its new value; the job's own previous_priority (9000) is no pair's, as it names
-- two partitions; an entry with a NULL priority is no previous priority
CREATE FUNCTION pg_temp.pjob(part text, qos text, prev bigint) RETURNS slurm_job LANGUAGE sql AS $$
    SELECT ROW('77', 'alice', 'physics', part, qos, '2026-12-01 10:00+00', NULL, 1, 4, NULL,
               'cpu=4', 0, 0, 1, 1, NULL, NULL, 20, 0, 0, NULL, prev)::slurm_job $$;
CREATE TEMP TABLE pi AS SELECT slurm_priority_config('PriorityWeightPartition=1000 PriorityWeightQOS=1000 '
                                                     'PriorityWeightTRES=cpu=1000 PriorityFlags=INCR_ONLY') AS incr;
SELECT partition_name, qos_name, priority
FROM pq, pi, c, slurm_priorities(incr, pg_temp.pjob('batch,gpu', 'normal', 9000), pq.cl, c.pass, parts, qoss,
                                 ARRAY[('gpu', 'normal', 1000), ('batch', 'normal', 5000),
                                       ('gpu', 'high', NULL)]::slurm_previous_priority[]);
-- without INCR_ONLY the previous priorities change nothing (850, 1600)
SELECT partition_name, qos_name, priority
FROM pq, c, slurm_priorities(cfg, pg_temp.pjob('batch,gpu', 'normal', 9000), pq.cl, c.pass, parts, qoss,
                             ARRAY[('batch', 'normal', 5000)]::slurm_previous_priority[]);
-- a job of one pair keeps its previous_priority (9000 over 850), as slurm_priority does
SELECT partition_name, qos_name, priority
FROM pq, pi, c, slurm_priorities(incr, pg_temp.pjob('batch', 'normal', 9000), pq.cl, c.pass, parts, qoss);
SELECT (slurm_priority(incr, pg_temp.pjob('batch', 'normal', 9000), pq.cl, c.pass)).priority FROM pq, pi, c;
-- pass after pass: the rows of one pass are the previous priorities of the next. Pass 1 weighs
-- QOS 3000 (normal 300, high 3000: batch/normal 1050, batch/high 3750, gpu/normal 1800,
-- gpu/high 4500); pass 2 weighs it 1000 (850, 1750, 1600, 2500) and keeps pass 1's values
WITH pass1 AS (
    SELECT array_agg((partition_name, qos_name, priority)::slurm_previous_priority) AS prev
    FROM pq, c, slurm_priorities(slurm_priority_config('PriorityWeightPartition=1000 PriorityWeightQOS=3000 '
                                                       'PriorityWeightTRES=cpu=1000 PriorityFlags=INCR_ONLY'),
                                 pg_temp.mjob('batch,gpu', 'normal,high'), pq.cl, c.pass, parts, qoss))
SELECT p.partition_name, p.qos_name, p.priority
FROM pq, pi, c, pass1, slurm_priorities(incr, pg_temp.mjob('batch,gpu', 'normal,high'), pq.cl, c.pass,
                                        parts, qoss, pass1.prev) AS p;
-- errors in the previous priorities
SELECT * FROM pq, pi, c, slurm_priorities(incr, pg_temp.mjob('batch,gpu', 'normal'), pq.cl, c.pass, parts, qoss,
                                          ARRAY[('gpu', 'high', 1)]::slurm_previous_priority[]);
SELECT * FROM pq, pi, c, slurm_priorities(incr, pg_temp.mjob('batch,gpu', 'normal'), pq.cl, c.pass, parts, qoss,
                                          ARRAY[('gpu', 'normal', 1), ('gpu', 'normal', 2)]::slurm_previous_priority[]);
SELECT * FROM pq, pi, c, slurm_priorities(incr, pg_temp.mjob('batch,gpu', 'normal'), pq.cl, c.pass, parts, qoss,
                                          ARRAY[('gpu', 'normal', 4294967296)]::slurm_previous_priority[]);
SELECT * FROM pq, pi, c, slurm_priorities(incr, pg_temp.mjob('batch,gpu', 'normal'), pq.cl, c.pass, parts, qoss,
                                          ARRAY[NULL]::slurm_previous_priority[]);
-- NULL arguments: no rows
SELECT count(*) FROM pq, c, slurm_priorities(NULL, pg_temp.mjob('batch', 'normal'), pq.cl, c.pass);
-- errors
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch,debug', 'normal'), pq.cl, c.pass, parts, qoss);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch', 'low'), pq.cl, c.pass, parts, qoss);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch,', 'normal'), pq.cl, c.pass, parts, qoss);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch,gpu', 'normal'), pq.cl, c.pass);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch', 'normal'), pq.cl, c.pass,
                                      ARRAY[NULL]::slurm_partition[]);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch', 'normal'), pq.cl, c.pass,
                                      ARRAY[(NULL, 1, 1, NULL, NULL)]::slurm_partition[]);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob('batch', 'high'), (4, 16, 10, 10, 50)::slurm_cluster,
                                      c.pass, parts, qoss);
SELECT * FROM pq, c, slurm_priorities(cfg, pg_temp.mjob(repeat('a,', 399) || 'a', repeat('q,', 399) || 'q'),
                                      pq.cl, c.pass, parts, qoss);
-- job 23 of a running SLURM 22.05.8 (Debian 12), printed at its calculation pass of
-- 2026-12-02 00:58:29 UTC with the configuration scontrol show config gave; SLURM printed:
--   sprio -n -l: "             23 main          fsu6 0.00000208 0.0158333  0.0000000  0.2500000
--                 0.8750000  1.0000000  1.0000000  cpu=0.75,mem=0.06   "
--   sprio -l:    "             23 main          fsu6       8933          0         16          0
--                      2500        875       2000       3000           0       cpu=525,mem=18"
--   sprio -w:    "        Weights                               1       1000        500      10000
--                      1000       2000       3000      CPU=700,Mem=300"
--   sprio -n -w: "        Weights                      1000       500        10000      1000
--                 2000       3000                           "
-- -n's PRIORITY is the sum (8933.8) over 2^32 - 1, not the truncated 8933 (0.00000207)
CREATE TEMP TABLE live AS
SELECT ARRAY[ROW('23', 'fsu6', 'phys', 'main', 'high', '2026-12-02 00:57:32+00',
                 '2026-12-02 00:57:32+00', 1, 12, '00:50:00', 'billing=12,cpu=12,mem=3836mb,node=1',
                 0.25, NULL, 2, 1, '02:00:00', 'billing=16,cpu=16,mem=64000mb,node=1', 113, 0, 0,
                 NULL, NULL)::slurm_job] AS jobs,
       ROW(1, 16, 58, 2, 113)::slurm_cluster AS cl, '2026-12-02 00:58:29+00'::timestamptz AS pass,
       slurm_priority_config('PriorityWeightAge=1000 PriorityWeightAssoc=500 '
                             'PriorityWeightFairshare=10000 PriorityWeightJobSize=1000 '
                             'PriorityWeightPartition=2000 PriorityWeightQOS=3000 '
                             'PriorityWeightTRES=CPU=700,Mem=300 PriorityMaxAge=1:00:00', '22.05') AS cfg;
SELECT o.opts, quote_literal(s.line)
FROM live, (VALUES (1, '-n -l'), (2, '-l'), (3, '-w'), (4, '-n -w')) AS o(k, opts),
     sprio(cfg, jobs, cl, pass, o.opts) WITH ORDINALITY AS s(line, n)
ORDER BY o.k, s.n;
