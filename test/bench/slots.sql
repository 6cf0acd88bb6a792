-- slot_weight over many job rows, next to the same formula written as a SQL
-- expression (the seed's recipe with CASE) over float8 columns.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
SELECT max(n) AS max_rows FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gset

CREATE UNLOGGED TABLE s_jobs AS
SELECT format('cpus=%s,memory=%smb', c, m)::resvec AS slot,
       'cpus=64,memory=64gb'::resvec AS machine,
       c::float8 AS cpus, m::float8 * 1048576 AS memory, 64::float8 AS total_cpus,
       64::float8 * 1073741824 AS total_memory
FROM generate_series(1, :max_rows) AS i,
     LATERAL (SELECT 1 + i % 8 AS c, 512 * (1 + i % 64) AS m) AS v;
VACUUM ANALYZE s_jobs;

SELECT bench_assert(bool_and(abs(slot_weight(slot, machine)
        - (cpus + CASE WHEN memory > total_memory / total_cpus * cpus
                       THEN (memory - total_memory / total_cpus * cpus) / (total_memory / total_cpus)
                       ELSE 0 END)) < 1e-9), 'slot_weight and the SQL expression agree')
FROM (SELECT * FROM s_jobs LIMIT 100000) AS s;

SELECT bench_assert(bool_and(abs(slot_weight(slot, machine, 'cpus', 'max')
        - greatest(cpus, memory / (total_memory / total_cpus))) < 1e-9),
                    'slot_weight max and greatest() agree')
FROM (SELECT * FROM s_jobs LIMIT 100000) AS s;

SELECT bench_record('slot_weight() over job rows', :max_rows,
    'SELECT sum(slot_weight(slot, machine)) FROM s_jobs',
    'the same formula as a SQL CASE expression over float8 columns',
    $q$SELECT sum(cpus + CASE WHEN memory > total_memory / total_cpus * cpus
                              THEN (memory - total_memory / total_cpus * cpus) / (total_memory / total_cpus)
                              ELSE 0 END) FROM s_jobs$q$, 5, 1);
SELECT bench_record('slot_weight(..., ''max'') over job rows', :max_rows,
    $q$SELECT sum(slot_weight(slot, machine, 'cpus', 'max')) FROM s_jobs$q$,
    'greatest() over float8 columns',
    'SELECT sum(greatest(cpus, memory / (total_memory / total_cpus))) FROM s_jobs', 5, 1);
DROP TABLE s_jobs;
