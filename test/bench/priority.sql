-- pbs_formula_value over many job rows, next to the same job_sort_formula written as a SQL
-- expression over float8 columns (the resources already in kb and seconds): the formula is
-- compiled once per query, then each row is a merge of its names with the resvec and a run of
-- the compiled program.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
SELECT min(n) AS rows_1 FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gset

CREATE UNLOGGED TABLE f_jobs AS
SELECT format('ncpus=%s,mem=%smb,walltime=%s', c, m, w)::resvec AS requested,
       c::float8 AS ncpus, m::float8 * 1024 AS mem_kb, w::float8 AS walltime,
       (0.05 + (i % 20) / 100.0)::float8 AS perc, ((i % 7) / 10.0)::float8 AS usage
FROM generate_series(1, :rows_1) AS i,
     LATERAL (SELECT 1 + i % 64 AS c, 512 * (1 + i % 32) AS m, 600 * (1 + i % 48) AS w) AS v;
VACUUM ANALYZE f_jobs;

SELECT bench_assert(bool_and(abs(pbs_formula_value(
            'ncpus * walltime / 3600 + mem / 1048576 * 0.5 + 100 * fairshare_factor', requested,
            fairshare_perc => perc, fairshare_tree_usage => usage)
        - (ncpus * walltime / 3600 + mem_kb / 1048576 * 0.5
           + 100 * power(2, -(usage / perc)))::float4) < 1e-3), 'the formula and the SQL expression agree')
FROM (SELECT * FROM f_jobs LIMIT 100000) AS s;

SELECT bench_record('pbs_formula_value() over job rows', :rows_1,
    $q$SELECT sum(pbs_formula_value('ncpus * walltime / 3600 + mem / 1048576 * 0.5 + 100 * fairshare_factor',
                                    requested, fairshare_perc => perc, fairshare_tree_usage => usage)) FROM f_jobs$q$,
    'the same formula as a SQL expression over float8 columns',
    $q$SELECT sum((ncpus * walltime / 3600 + mem_kb / 1048576 * 0.5 + 100 * power(2, -(usage / perc)))::float4) FROM f_jobs$q$,
    5, 2);
DROP TABLE f_jobs;
