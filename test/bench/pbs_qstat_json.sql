-- pbs_qstat_json: qstat -x -f -F json documents of 100 jobs each (the jobs of the regression
-- suite's OpenPBS document, with a different job number each), one document per line of a file.
-- Timings:
--   floor     COPY of the documents into a jsonb column (the JSON parse every load pays);
--   ours      the same COPY, then CREATE TABLE AS of pbs_qstat_json's records;
--   baseline  the same COPY, then what a user writes without fairsched: jsonb_each over "Jobs"
--             with ->> and casts for the typed columns (times from ctime strings read with
--             to_timestamp, resources left as jsonb), into a table too.
-- Three interleaved pairs each.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\set bench_jobs 20000
\set docs_file :dir '/pbs_qstat_json_docs.txt'

CREATE TEMP TABLE qj_raw (lineno bigserial, line text);
\copy qj_raw(line) FROM 'sql/data/pbs_qstat_json.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE qj_jobs AS
SELECT row_number() OVER (ORDER BY e.key) - 1 AS n, e.key AS id, e.value AS job
FROM (SELECT string_agg(line, E'\n' ORDER BY lineno)::jsonb AS doc FROM qj_raw) d,
     jsonb_each(d.doc -> 'Jobs') e;
SELECT bench_assert(count(*) = 5, 'sample jobs') FROM qj_jobs;

COPY (SELECT jsonb_build_object('timestamp', 1796119200, 'pbs_version', '23.06.06', 'pbs_server', 'pbs01',
                                'Jobs', jsonb_object_agg(regexp_replace(s.id, '^[0-9]+', (1000000 + i)::text), s.job))::text
      FROM generate_series(0, :bench_jobs - 1) AS i
      JOIN qj_jobs s ON s.n = i % 5
      GROUP BY i / 100)
TO :'docs_file' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');

CREATE UNLOGGED TABLE qj_docs (doc jsonb);
CREATE FUNCTION bench_qj_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE qj_docs;
    EXECUTE format($q$COPY qj_docs FROM %L WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')$q$,
                   current_setting('bench.docs_file'));
END $f$;
SELECT set_config('bench.docs_file', :'docs_file', false);
SELECT bench_qj_copy();
SELECT bench_assert(sum((SELECT count(*) FROM jsonb_object_keys(doc -> 'Jobs'))) = :bench_jobs, 'documents copied') FROM qj_docs;
SELECT bench_assert(count(*) = :bench_jobs AND count(*) FILTER (WHERE cardinality(r.anomalies) > 0) = 0, 'records read')
FROM qj_docs, pbs_qstat_json(doc, 'Europe/Helsinki') r;

SELECT bench_record('pbs_qstat_json: COPY of documents + CREATE TABLE AS of the records', :bench_jobs,
    $q$SELECT bench_qj_copy(); DROP TABLE IF EXISTS qj_out;
       CREATE UNLOGGED TABLE qj_out AS SELECT r.* FROM qj_docs, pbs_qstat_json(doc, 'Europe/Helsinki') r$q$,
    'COPY of the documents into jsonb',
    $q$SELECT bench_qj_copy()$q$, 3, 2.0);
SELECT bench_record('pbs_qstat_json: COPY of documents + CREATE TABLE AS of the records', :bench_jobs,
    $q$SELECT bench_qj_copy(); DROP TABLE IF EXISTS qj_out;
       CREATE UNLOGGED TABLE qj_out AS SELECT r.* FROM qj_docs, pbs_qstat_json(doc, 'Europe/Helsinki') r$q$,
    'COPY + jsonb_each and ->> (plain SQL)',
    $q$SELECT bench_qj_copy(); DROP TABLE IF EXISTS qj_plain;
       CREATE UNLOGGED TABLE qj_plain AS
       SELECT e.key AS job_id, split_part(e.key, '.', 1) AS job, j ->> 'job_state' AS state,
              coalesce(j ->> 'euser', split_part(j ->> 'Job_Owner', '@', 1)) AS "user",
              j ->> 'egroup' AS "group", j ->> 'Account_Name' AS account, j ->> 'project' AS project,
              j ->> 'queue' AS queue, j ->> 'Job_Name' AS jobname,
              to_timestamp(j ->> 'ctime', 'Dy Mon DD HH24:MI:SS YYYY') AS ctime,
              to_timestamp(j ->> 'qtime', 'Dy Mon DD HH24:MI:SS YYYY') AS qtime,
              to_timestamp(j ->> 'etime', 'Dy Mon DD HH24:MI:SS YYYY') AS etime,
              to_timestamp(j ->> 'stime', 'Dy Mon DD HH24:MI:SS YYYY') AS start,
              to_timestamp(j ->> 'obittime', 'Dy Mon DD HH24:MI:SS YYYY') AS "end",
              (j ->> 'Exit_status')::int AS exit_status, (j ->> 'run_count')::int AS run_count,
              (j ->> 'session_id')::bigint AS session, j ->> 'exec_host' AS exec_host,
              j -> 'resources_used' AS used, j -> 'Resource_List' AS requested
       FROM qj_docs, jsonb_each(doc -> 'Jobs') e(key, j)$q$, 3);

DROP TABLE IF EXISTS qj_out, qj_plain;
DROP TABLE qj_docs;
DROP FUNCTION bench_qj_copy();
