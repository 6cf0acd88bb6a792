-- resvec benchmarks: sum(resvec) against native float8 sums, COPY of resvec literals against
-- COPY of the same amounts into float8 columns. psql variables: rows (a list), copy_rows, dir.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;  -- per-row cost, one core
\set f_rv :dir/copy_resvec.txt
\set f_f8 :dir/copy_float8.txt
\set o_rv :dir/out_resvec.txt
\set o_f8 :dir/out_float8.txt

SELECT max(n) AS max_rows FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gset
-- one table per size, so that no run pays for scanning rows it does not aggregate
CREATE FUNCTION pg_temp.make_jobs(tab text, n bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$
        CREATE UNLOGGED TABLE %I AS
        SELECT i AS id,
               format('ncpus=%%s,mem=%%smb,walltime=%%s', i %% 64 + 1, (i %% 256 + 1) * 512,
                      make_interval(secs => i %% 86400))::fairsched.resvec AS alloc,
               (i %% 64 + 1)::float8 AS ncpus,
               ((i %% 256 + 1) * 512 * 1048576.0)::float8 AS mem,
               (i %% 86400)::float8 AS walltime
        FROM generate_series(1, %s) AS i$q$, tab, n);
END $$;
SELECT pg_temp.make_jobs('b_jobs_' || n, n) FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n;
SELECT format('VACUUM ANALYZE %I', 'b_jobs_' || n) FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gexec

-- sanity: both sides compute the same totals
SELECT bench_assert(sum(alloc) = resvec(ARRAY['ncpus', 'mem', 'walltime'],
                                         ARRAY[sum(ncpus), sum(mem), sum(walltime)],
                                         ARRAY['count', 'size', 'duration']),
                    'sum(resvec) and the native sums disagree')
FROM (SELECT * FROM b_jobs_:max_rows LIMIT 100000) AS s;

SELECT bench_record('sum(resvec), 3 resources', n,
                    format('SELECT fairsched.sum(alloc) FROM b_jobs_%s', n),
                    'sum(a), sum(b), sum(c) over float8',
                    format('SELECT sum(ncpus), sum(mem), sum(walltime) FROM b_jobs_%s', n))
FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n ORDER BY n;

-- rows that carry different sets of names (a fifth of the jobs without walltime, a fifth
-- without mem, a tenth with a gpu as well), against the same amounts in float8 columns that
-- are NULL where a job has no such amount
CREATE UNLOGGED TABLE b_mixed AS
SELECT format('ncpus=%s%s%s%s', i % 64 + 1,
              CASE WHEN i % 5 <> 1 THEN format(',mem=%smb', (i % 256 + 1) * 512) ELSE '' END,
              CASE WHEN i % 5 <> 2 THEN format(',walltime=%s', make_interval(secs => i % 86400)) ELSE '' END,
              CASE WHEN i % 10 = 3 THEN ',gpu=1' ELSE '' END)::fairsched.resvec AS alloc,
       (i % 64 + 1)::float8 AS ncpus,
       CASE WHEN i % 5 <> 1 THEN ((i % 256 + 1) * 512 * 1048576.0)::float8 END AS mem,
       CASE WHEN i % 5 <> 2 THEN (i % 86400)::float8 END AS walltime,
       CASE WHEN i % 10 = 3 THEN 1::float8 END AS gpu
FROM generate_series(1, :max_rows) AS i;
VACUUM ANALYZE b_mixed;
SELECT bench_assert(sum(alloc) = resvec(ARRAY['ncpus', 'mem', 'walltime', 'gpu'],
                                         ARRAY[sum(ncpus), sum(mem), sum(walltime), sum(gpu)],
                                         ARRAY['count', 'size', 'duration', 'count']),
                    'sum(resvec) of mixed names and the native sums disagree')
FROM (SELECT * FROM b_mixed LIMIT 100000) AS s;
SELECT bench_record('sum(resvec), rows with different sets of names', :max_rows,
                    'SELECT fairsched.sum(alloc) FROM b_mixed',
                    'sum() of 4 float8 columns, NULL where absent',
                    'SELECT sum(ncpus), sum(mem), sum(walltime), sum(gpu) FROM b_mixed',
                    5, 1.5);
DROP TABLE b_mixed;

SET max_parallel_workers_per_gather = 2;
SELECT bench_record('sum(resvec), parallel (2 workers)', :max_rows,
                    'SELECT fairsched.sum(alloc) FROM b_jobs_' || :max_rows,
                    'native sums, parallel (2 workers)',
                    'SELECT sum(ncpus), sum(mem), sum(walltime) FROM b_jobs_' || :max_rows);
SET max_parallel_workers_per_gather = 0;

-- text input: 1 M literals cast to resvec, against the same amounts cast to three float8 and to
-- jsonb; each side counts the rows whose value is not NULL, which makes every cast run
CREATE UNLOGGED TABLE b_lit AS
SELECT alloc::text AS rv, ncpus::text AS a, mem::text AS b, walltime::text AS c,
       jsonb_build_object('ncpus', ncpus, 'mem', mem, 'walltime', walltime)::text AS js
FROM b_jobs_:max_rows LIMIT :copy_rows;
VACUUM ANALYZE b_lit;
SELECT bench_record('resvec text input (cast of literals)', :copy_rows,
                    'SELECT count(*) FROM b_lit WHERE rv::fairsched.resvec IS NOT NULL',
                    '3 float8 inputs',
                    'SELECT count(*) FROM b_lit WHERE a::float8 IS NOT NULL AND b::float8 IS NOT NULL AND c::float8 IS NOT NULL',
                    5, 2);
SELECT bench_record('resvec text input (cast of literals)', :copy_rows,
                    'SELECT count(*) FROM b_lit WHERE rv::fairsched.resvec IS NOT NULL',
                    'jsonb input of the same amounts',
                    'SELECT count(*) FROM b_lit WHERE js::jsonb IS NOT NULL',
                    5, 1);
DROP TABLE b_lit;

-- COPY: resvec literals as written in accounting records, against three float8 columns
COPY (SELECT alloc FROM b_jobs_:max_rows LIMIT :copy_rows) TO :'f_rv';
COPY (SELECT ncpus, mem, walltime FROM b_jobs_:max_rows LIMIT :copy_rows) TO :'f_f8';
CREATE UNLOGGED TABLE b_copy_rv (alloc fairsched.resvec);
CREATE UNLOGGED TABLE b_copy_f8 (ncpus float8, mem float8, walltime float8);
SELECT bench_record('COPY FROM of resvec literals', :copy_rows,
                    format('TRUNCATE b_copy_rv; COPY b_copy_rv FROM %L', :'f_rv'),
                    'COPY FROM into 3 float8 columns',
                    format('TRUNCATE b_copy_f8; COPY b_copy_f8 FROM %L', :'f_f8'), 5, 1.5);
SELECT bench_record('COPY TO (output) of resvec', :copy_rows,
                    format('COPY b_copy_rv TO %L', :'o_rv'),
                    'COPY TO of 3 float8 columns',
                    format('COPY b_copy_f8 TO %L', :'o_f8'));

DROP TABLE b_copy_rv, b_copy_f8;
SELECT format('DROP TABLE %I', 'b_jobs_' || n) FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gexec
