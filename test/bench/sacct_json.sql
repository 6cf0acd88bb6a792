-- sacct_json: sacct --json documents of 100 jobs each (the jobs of the 22.05 sample document,
-- with a different job id each), one document per line of a file. Timings:
--   floor     COPY of the documents into a jsonb column (the JSON parse every load pays);
--   ours      the same COPY, then CREATE TABLE AS of sacct_json's records (jobs and steps);
--   baseline  the same COPY, then what a user writes without fairsched: jsonb_array_elements
--             over jobs and steps with ->> and casts for the same typed columns (times from
--             epochs, durations, TRES left as jsonb), into a table too.
-- Three interleaved pairs each.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\set bench_jobs 20000
\set docs_file :dir '/sacct_json_docs.txt'

CREATE TEMP TABLE sj_raw (lineno bigserial, line text);
\copy sj_raw(line) FROM 'sql/data/sacct_json_dbv0.0.38.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE sj_jobs AS
SELECT row_number() OVER () - 1 AS n, j AS job
FROM (SELECT string_agg(line, E'\n' ORDER BY lineno)::jsonb AS doc FROM sj_raw) d,
     jsonb_array_elements(d.doc -> 'jobs') j;
SELECT bench_assert(count(*) = 7, 'sample jobs') FROM sj_jobs;

COPY (SELECT jsonb_build_object('meta', '{"plugin": {"type": "openapi/dbv0.0.38"}}'::jsonb,
                                'errors', '[]'::jsonb, 'jobs', jsonb_agg(jsonb_set(s.job, '{job_id}',
                                to_jsonb(1000000 + i)) ORDER BY i))::text
      FROM generate_series(0, :bench_jobs - 1) AS i
      JOIN sj_jobs s ON s.n = i % 7
      GROUP BY i / 100)
TO :'docs_file' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');

CREATE UNLOGGED TABLE sj_docs (doc jsonb);
CREATE FUNCTION bench_sj_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE sj_docs;
    EXECUTE format($q$COPY sj_docs FROM %L WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')$q$,
                   current_setting('bench.docs_file'));
END $f$;
SELECT set_config('bench.docs_file', :'docs_file', false);
SELECT bench_sj_copy();
SELECT bench_assert(sum(jsonb_array_length(doc -> 'jobs')) = :bench_jobs, 'documents copied') FROM sj_docs;
-- the records: one per job and per step, none in error
SELECT bench_assert(count(*) > :bench_jobs AND count(*) FILTER (WHERE r.error IS NOT NULL) = 0, 'records read')
FROM sj_docs, sacct_json(doc) r;

SELECT bench_record('sacct_json: COPY of documents + CREATE TABLE AS of the records', :bench_jobs,
    $q$SELECT bench_sj_copy(); DROP TABLE IF EXISTS sj_out;
       CREATE UNLOGGED TABLE sj_out AS SELECT r.* FROM sj_docs, sacct_json(doc) r$q$,
    'COPY of the documents into jsonb',
    $q$SELECT bench_sj_copy()$q$, 3, 2.0);
SELECT bench_record('sacct_json: COPY of documents + CREATE TABLE AS of the records', :bench_jobs,
    $q$SELECT bench_sj_copy(); DROP TABLE IF EXISTS sj_out;
       CREATE UNLOGGED TABLE sj_out AS SELECT r.* FROM sj_docs, sacct_json(doc) r$q$,
    'COPY + jsonb_array_elements and ->> (plain SQL)',
    $q$SELECT bench_sj_copy(); DROP TABLE IF EXISTS sj_plain;
       CREATE UNLOGGED TABLE sj_plain AS
       SELECT j ->> 'job_id' AS job_id, (j ->> 'job_id')::bigint AS job_seq, NULL::text AS step,
              j ->> 'cluster' AS cluster, j ->> 'partition' AS partition, j ->> 'account' AS account,
              j ->> 'user' AS "user", j ->> 'group' AS "group", j ->> 'qos' AS qos,
              j #>> '{state,current}' AS state, (j #>> '{exit_code,return_code}')::int AS exit_code,
              to_timestamp((j #>> '{time,submission}')::bigint) AS submit,
              to_timestamp(nullif((j #>> '{time,start}')::bigint, 0)) AS start,
              to_timestamp(nullif((j #>> '{time,end}')::bigint, 0)) AS "end",
              (j #>> '{time,elapsed}')::float8 AS elapsed_s, (j #>> '{time,limit}')::float8 * 60 AS timelimit_s,
              (j #>> '{required,CPUs}')::int AS ncpus, (j ->> 'allocation_nodes')::int AS nnodes,
              j #> '{tres,allocated}' AS alloc_tres, j #> '{tres,requested}' AS req_tres
       FROM sj_docs, jsonb_array_elements(doc -> 'jobs') j
       UNION ALL
       SELECT j ->> 'job_id' || '.' || (s #>> '{step,id}'), (j ->> 'job_id')::bigint, s #>> '{step,id}',
              j ->> 'cluster', NULL, j ->> 'account', NULL, NULL, NULL, s ->> 'state',
              (s #>> '{exit_code,return_code}')::int, NULL,
              to_timestamp(nullif((s #>> '{time,start}')::bigint, 0)),
              to_timestamp(nullif((s #>> '{time,end}')::bigint, 0)),
              (s #>> '{time,elapsed}')::float8, NULL, NULL, (s #>> '{nodes,count}')::int,
              s #> '{tres,allocated}', NULL
       FROM sj_docs, jsonb_array_elements(doc -> 'jobs') j, jsonb_array_elements(j -> 'steps') s$q$, 3);

DROP TABLE IF EXISTS sj_out, sj_plain;
DROP TABLE sj_docs;
DROP FUNCTION bench_sj_copy();
