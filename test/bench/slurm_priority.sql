-- slurm_priority over pending-job rows, next to the same weighted sum written as one SQL
-- expression (least, greatest, trunc) over float8 columns.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
SELECT max(n) AS max_rows FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gset

CREATE UNLOGGED TABLE sp_jobs AS
SELECT ROW(i::text, 'u' || i % 100, 'a' || i % 10, 'batch', 'normal',
           '2026-12-01 00:00+00'::timestamptz - (i % 20000) * interval '1 minute',
           '2026-12-01 00:00+00'::timestamptz - (i % 20000) * interval '1 minute',
           n, c, '1 hour'::interval, ('cpu=' || c)::resvec, fs, NULL, 1, 1, '7 days'::interval,
           'cpu=256'::resvec, q, 0, 0, NULL, NULL)::slurm_job AS job,
       (i % 20000) * 60.0::float8 AS age_s, n::float8 AS min_nodes, c::float8 AS cpus,
       fs AS fairshare, q::float8 AS qos
FROM generate_series(1, :max_rows) AS i,
     LATERAL (SELECT 1 + i % 4 AS n, 1 + i % 64 AS c, (i % 1000) / 1000.0::float8 AS fs,
                     i % 50 AS q) AS v;
VACUUM ANALYZE sp_jobs;
CREATE TABLE sp_conf AS SELECT slurm_priority_config(
    'PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=500 '
    'PriorityWeightQOS=2000 PriorityWeightTRES=cpu=1000') AS cfg,
    ROW(4, 256, 0, 1, 50)::slurm_cluster AS cl;

SELECT bench_assert(bool_and(abs((slurm_priority(cfg, job, cl, '2026-12-01 00:00+00')).priority
        - greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare
                            + 500 * least(1, greatest(0, (min_nodes / 4 + cpus / 256) / 2))
                            + 2000 * qos / 50 + 1000 * cpus / 256))) <= 1),
                    'slurm_priority and the SQL expression agree')
FROM (SELECT * FROM sp_jobs LIMIT 100000) AS s, sp_conf;

SELECT bench_record('slurm_priority() over pending jobs', :max_rows,
    $q$SELECT sum((slurm_priority(cfg, job, cl, '2026-12-01 00:00+00')).priority) FROM sp_jobs, sp_conf$q$,
    'the same weighted sum as one SQL expression over float8 columns',
    $q$SELECT sum(greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare
                            + 500 * least(1, greatest(0, (min_nodes / 4 + cpus / 256) / 2))
                            + 2000 * qos / 50 + 1000 * cpus / 256))) FROM sp_jobs$q$, 3, 1.5);
-- the priority alone (slurm_priority_value, a bigint), without the 19-field result row
SELECT bench_assert(bool_and(slurm_priority_value(cfg, job, cl, '2026-12-01 00:00+00')
                             = (slurm_priority(cfg, job, cl, '2026-12-01 00:00+00')).priority),
                    'slurm_priority_value is slurm_priority''s priority')
FROM (SELECT * FROM sp_jobs LIMIT 100000) AS s, sp_conf;
SELECT bench_record('slurm_priority_value() over pending jobs', :max_rows,
    $q$SELECT sum(slurm_priority_value(cfg, job, cl, '2026-12-01 00:00+00')) FROM sp_jobs, sp_conf$q$,
    'the same weighted sum as one SQL expression over float8 columns',
    $q$SELECT sum(greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare
                            + 500 * least(1, greatest(0, (min_nodes / 4 + cpus / 256) / 2))
                            + 2000 * qos / 50 + 1000 * cpus / 256))) FROM sp_jobs$q$, 3, 1.5);
-- the floor of the composite form: the executor hands each job over as one slurm_job value; a
-- field of it read in SQL (the same scan and join, no function)
SELECT bench_record('slurm_priority_value() over pending jobs', :max_rows,
    $q$SELECT sum(slurm_priority_value(cfg, job, cl, '2026-12-01 00:00+00')) FROM sp_jobs, sp_conf$q$,
    'floor: one field of the slurm_job composite, sum((job).cpus), same scan and join',
    $q$SELECT sum((job).cpus + (cl).cpus) FROM sp_jobs, sp_conf$q$, 3);
-- the jobs as a table of typed columns (slurm_job's fields, and the baseline's float8 columns),
-- as scontrol_show or a site's own table holds them: the job field by field, next to the same
-- expression over that table; and the same table with a slurm_job built in the query (ROW)
CREATE UNLOGGED TABLE sp_typed AS
SELECT (job).*, age_s, min_nodes AS min_nodes_f, cpus AS cpus_f, fairshare AS fairshare_f,
       qos AS qos_f
FROM sp_jobs;
VACUUM ANALYZE sp_typed;
SELECT bench_assert(bool_and(slurm_priority_value(cfg, cl, '2026-12-01 00:00+00', submit_time,
                                 accrue_time, min_nodes, cpus, time_limit, tres, fairshare,
                                 assoc_priority, partition_factor, partition_max_time,
                                 partition_tres, qos_priority, site_factor, nice, direct_priority,
                                 previous_priority)
                             = (slurm_priority(cfg, ROW(job_id, "user", account, partition, qos,
                                 submit_time, accrue_time, min_nodes, cpus, time_limit, tres,
                                 fairshare, assoc_priority, partition_factor, partition_tier,
                                 partition_max_time, partition_tres, qos_priority, site_factor,
                                 nice, direct_priority, previous_priority)::slurm_job, cl,
                                 '2026-12-01 00:00+00')).priority),
                    'slurm_priority_value of the fields is slurm_priority''s priority')
FROM (SELECT * FROM sp_typed LIMIT 100000) AS s, sp_conf;
SELECT bench_record('slurm_priority_value(), the job field by field from typed columns', :max_rows,
    $q$SELECT sum(slurm_priority_value(cfg, cl, '2026-12-01 00:00+00', submit_time, accrue_time,
                  min_nodes, cpus, time_limit, tres, fairshare, assoc_priority, partition_factor,
                  partition_max_time, partition_tres, qos_priority, site_factor, nice,
                  direct_priority, previous_priority)) FROM sp_typed, sp_conf$q$,
    'the same weighted sum as one SQL expression over float8 columns of the same table',
    $q$SELECT sum(greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare_f
                            + 500 * least(1, greatest(0, (min_nodes_f / 4 + cpus_f / 256) / 2))
                            + 2000 * qos_f / 50 + 1000 * cpus_f / 256))) FROM sp_typed$q$, 3, 1.5);
SELECT bench_record('slurm_priority_value(), a slurm_job built from typed columns (ROW)', :max_rows,
    $q$SELECT sum(slurm_priority_value(cfg, ROW(job_id, "user", account, partition, qos,
                  submit_time, accrue_time, min_nodes, cpus, time_limit, tres, fairshare,
                  assoc_priority, partition_factor, partition_tier, partition_max_time,
                  partition_tres, qos_priority, site_factor, nice, direct_priority,
                  previous_priority)::slurm_job, cl, '2026-12-01 00:00+00')) FROM sp_typed, sp_conf$q$,
    'the same expression over float8 columns of the same table',
    $q$SELECT sum(greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare_f
                            + 500 * least(1, greatest(0, (min_nodes_f / 4 + cpus_f / 256) / 2))
                            + 2000 * qos_f / 50 + 1000 * cpus_f / 256))) FROM sp_typed$q$, 3);
DROP TABLE sp_typed;
-- slurm_job_order over 10^5 pending jobs in two tiers, next to the order a user would write:
-- the same weighted sum, ORDER BY tier, priority, submit time and job id, numbered
CREATE UNLOGGED TABLE sp_q AS
SELECT array_agg(ROW((job).job_id, (job)."user", (job).account, (job).partition, (job).qos,
                     (job).submit_time, (job).accrue_time, (job).min_nodes, (job).cpus,
                     (job).time_limit, (job).tres, (job).fairshare, (job).assoc_priority,
                     (job).partition_factor, 1 + (job).job_id::int % 2, (job).partition_max_time,
                     (job).partition_tres, (job).qos_priority, (job).site_factor, (job).nice,
                     (job).direct_priority, (job).previous_priority)::slurm_job) AS jobs
FROM (SELECT job FROM sp_jobs ORDER BY (job).job_id::bigint LIMIT 100000) s;
CREATE UNLOGGED TABLE sp_qrows AS
SELECT * FROM sp_jobs ORDER BY (job).job_id::bigint LIMIT 100000;
SELECT bench_assert(count(*) = 100000 AND bool_and(o.decided_by IS NOT NULL OR o.pos = 1),
                    'slurm_job_order lists every job')
FROM sp_q, sp_conf, slurm_job_order(cfg, jobs, cl, '2026-12-01 00:00+00') o;
SELECT bench_record('slurm_job_order() of 10^5 pending jobs', 100000,
    $q$SELECT count(*) FROM sp_q, sp_conf, slurm_job_order(cfg, jobs, cl, '2026-12-01 00:00+00')$q$,
    'the same weighted sum, ORDER BY tier, priority, submit, id with row_number()',
    $q$SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY 1 + (job).job_id::int % 2 DESC,
                   greatest(1, trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare
                            + 500 * least(1, greatest(0, (min_nodes / 4 + cpus / 256) / 2))
                            + 2000 * qos / 50 + 1000 * cpus / 256)) DESC,
                   (job).submit_time, (job).job_id::bigint) FROM sp_qrows) s$q$, 3);
-- sprio -l of the same 10^5 pending jobs, next to the listing written in SQL: the weighted terms
-- rounded into fixed-width columns with format() and lpad, ordered by job id
SELECT bench_assert(count(*) = 100001, 'sprio lists every job and a header')
FROM sp_q, sp_conf, sprio(cfg, jobs, cl, '2026-12-01 00:00+00');
SELECT bench_record('sprio -l of 10^5 pending jobs', 100000,
    $q$SELECT sum(length(line)) FROM sp_q, sp_conf, sprio(cfg, jobs, cl, '2026-12-01 00:00+00')$q$,
    'the -l columns with format() and lpad over the float8 columns, ORDER BY job id',
    $q$SELECT sum(length(l)) FROM (SELECT format('%s %s %s %s %s %s %s', lpad((job).job_id, 15),
                   rpad((job).partition, 9), lpad((job)."user", 8),
                   lpad(trunc(1000 * least(age_s / 604800, 1) + 10000 * fairshare + 2000 * qos / 50)::text, 10),
                   lpad(round(1000 * least(age_s / 604800, 1))::text, 10),
                   lpad(round(10000 * fairshare)::text, 10), lpad(round(2000 * qos / 50)::text, 10)) AS l
            FROM sp_qrows ORDER BY (job).job_id::bigint) s$q$, 3);
DROP TABLE sp_q, sp_qrows;
DROP TABLE sp_jobs, sp_conf;
