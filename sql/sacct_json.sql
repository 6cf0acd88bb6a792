-- sacct_json: the jobs and steps of sacct --json documents (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';
SET extra_float_digits = 0;

-- The documents, verbatim (CSV mode with bytes that never occur), one row per file: a Slurm
-- 22.05 document (dbv0.0.38) and a 24.05 one (data_parser/v0.0.41), laid out field by field as
-- Slurm's data parsers of those versions write them
CREATE TEMP TABLE raw (file text, lineno bigserial, line text);
\copy raw(line) FROM 'sql/data/sacct_json_dbv0.0.38.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
UPDATE raw SET file = 'dbv0.0.38' WHERE file IS NULL;
\copy raw(line) FROM 'sql/data/sacct_json_v0.0.41.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
UPDATE raw SET file = 'v0.0.41' WHERE file IS NULL;
CREATE TEMP TABLE docs AS
SELECT file, string_agg(line, E'\n' ORDER BY lineno)::jsonb AS doc FROM raw GROUP BY file;
SELECT file, doc #>> '{meta,plugin,type}' AS plugin, doc #>> '{meta,plugin,data_parser}' AS parser,
       jsonb_array_length(doc -> 'jobs') AS jobs
FROM docs ORDER BY file;

-- every job and step of both documents, as read
CREATE TEMP TABLE parsed AS
SELECT d.file, r.* FROM docs d, sacct_json(d.doc) r;
SELECT file, job_id, job_id_raw, job_seq, array_job_id AS aj, array_task_id AS at, het_job_id AS hj,
       het_offset AS ho, step, "user", account, partition, state, exit_code AS ec, signal AS sig
FROM parsed ORDER BY file, job_seq, step NULLS FIRST;
SELECT file, job_id, submit, start, "end", elapsed_s, timelimit_s, ncpus, nnodes,
       req_mem_bytes / 1048576 AS req_mem_mb
FROM parsed ORDER BY file, job_seq, step NULLS FIRST;
SELECT file, job_id, alloc_tres, req_tres FROM parsed ORDER BY file, job_seq, step NULLS FIRST;
SELECT file, job_id, extra, anomalies FROM parsed ORDER BY file, job_seq, step NULLS FIRST;

-- one job both ways: the rows sacct --parsable2 prints for job 4107219 and its steps, and the
-- same job in the 22.05 document, give the same records (extra holds other columns in each)
CREATE TEMP TABLE by_row AS
SELECT (sacct_row(line, 'JobID|JobIDRaw|Cluster|Partition|Account|User|Group|QOS|State|ExitCode|Submit|Eligible|Start|End|Elapsed|Timelimit|NCPUS|NNodes|ReqMem|AllocTRES|ReqTRES|JobName')).*
FROM (VALUES
  ('4107219|4107219|snowman|general-compute|anonacct|anonuser|anongroup|normal|COMPLETED|0:0|1669900000|1669900000|1669900100|1669950549|14:00:49|14:20:00|48|4|144000M|billing=48,cpu=48,mem=144000M,node=4|cpu=48,mem=144000M,node=4|anonjobname'),
  ('4107219.batch|4107219.batch|snowman||anonacct||||COMPLETED|0:0|1669900100|1669900100|1669900100|1669950549|14:00:49||12|1||cpu=12,mem=36000M,node=1||batch'),
  ('4107219.extern|4107219.extern|snowman||anonacct||||COMPLETED|0:0|1669900100|1669900100|1669900100|1669950549|14:00:49||48|4||billing=48,cpu=48,mem=144000M,node=4||extern'),
  ('4107219.0|4107219.0|snowman||anonacct||||COMPLETED|0:0|1669900110|1669900110|1669900110|1669950540|14:00:30||48|4||cpu=48,mem=144000M,node=4||hydra_pmi_proxy')) v(line);
SELECT count(*) AS rows_both_ways,
       count(*) FILTER (WHERE (to_jsonb(j) - 'extra' - 'file') = (to_jsonb(r) - 'extra')) AS same
FROM by_row r JOIN parsed j ON j.file = 'dbv0.0.38' AND j.job_id = r.job_id;
SELECT key, j.value AS from_json, r.value AS from_row
FROM by_row rr JOIN parsed jj ON jj.file = 'dbv0.0.38' AND jj.job_id = rr.job_id,
     jsonb_each(to_jsonb(jj) - 'extra' - 'file') j JOIN jsonb_each(to_jsonb(rr) - 'extra') r USING (key)
WHERE j.value IS DISTINCT FROM r.value;
-- and extra holds the same JobName both ways
SELECT count(*) FROM by_row r JOIN parsed j ON j.file = 'dbv0.0.38' AND j.job_id = r.job_id
WHERE j.extra -> 'JobName' = r.extra -> 'JobName';

-- the whole document or its "jobs" list; an empty list gives no rows
SELECT count(*) FROM docs, sacct_json(doc -> 'jobs') WHERE file = 'v0.0.41';
SELECT count(*) FROM sacct_json('{"jobs": []}');
SELECT count(*) FROM sacct_json(NULL);
-- a running job: End 0 is sacct's Unknown
SELECT job_id, "end", anomalies FROM sacct_json('{"jobs": [{"job_id": 9, "time": {"start": 1700000000, "end": 0}}]}');
-- the 32-bit "no value" and "infinite" numbers of dbv0.0.37 and dbv0.0.38 time limits
SELECT job_id, timelimit_s, anomalies FROM sacct_json('[{"job_id": 9, "time": {"limit": 4294967294}}, {"job_id": 10, "time": {"limit": 4294967295}}]');
-- required.memory of dbv0.0.38 with the per-CPU flag in bit 63, read exactly: 3000M per CPU
SELECT job_id, req_mem_bytes / 1048576 AS mb FROM sacct_json('[{"job_id": 9, "required": {"CPUs": 4, "memory": 9223372036854778808}, "tres": {"allocated": [{"type": "cpu", "name": "", "id": 1, "count": 4}]}}]');
-- a TRES id whose name was deleted
SELECT alloc_tres, anomalies FROM sacct_json('[{"job_id": 9, "tres": {"allocated": [{"type": "", "name": "", "id": 1005, "count": 3}]}}]');

-- errors
SELECT * FROM sacct_json('{"meta": {}}');
SELECT * FROM sacct_json('5');
SELECT * FROM sacct_json('[{"job_id": 5, "user": 7}]');
SELECT * FROM sacct_json('[{"job_id": "5"}]');
SELECT * FROM sacct_json('[{"user": "x"}]');
SELECT * FROM sacct_json('[{"job_id": 5, "time": {"elapsed": 1.5}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "time": {"limit": {"set": true}}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "time": {"elapsed": 99999999999999}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "steps": [{"step": {"id": ""}}]}]');
SELECT * FROM sacct_json('[{"job_id": 5, "steps": {}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "state": {"current": [1]}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "tres": {"allocated": [{"type": "a,b", "count": 1}]}}]');
SELECT * FROM sacct_json('[{"job_id": 5, "working_directory": "a\u001fb"}]');
SELECT * FROM sacct_json('[7]');

-- A real Slurm 22.05.8 (Debian 12) cluster's sacct --json and sacct -P --format=ALL of the same
-- 24 jobs (the interop suite's outputs): every record read both ways, field by field
CREATE TEMP TABLE real_p (n bigserial, l text);
\copy real_p(l) FROM 'sql/data/interop_sacct_P_all_22.05.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (l))
CREATE TEMP TABLE real_j (n bigserial, l text);
\copy real_j(l) FROM 'sql/data/interop_sacct_json_22.05.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (l))
CREATE TEMP TABLE real_by_row AS
SELECT p.* FROM real_p r, (SELECT l FROM real_p WHERE n = 1) h, sacct_row_try(r.l, h.l) p
WHERE r.n > 1 AND r.l <> '';
CREATE TEMP TABLE real_by_json AS
SELECT r.* FROM (SELECT string_agg(l, E'\n' ORDER BY n)::jsonb AS doc FROM real_j) d, sacct_json(d.doc) r;
SELECT (SELECT count(*) FROM real_by_row) AS rows_p, (SELECT count(*) FROM real_by_row WHERE error IS NOT NULL) AS errors_p,
       (SELECT count(*) FROM real_by_json) AS rows_json;
SELECT job_id, step, state, exit_code, submit, start, "end", elapsed_s, timelimit_s, ncpus, nnodes,
       req_mem_bytes, alloc_tres, anomalies
FROM real_by_json ORDER BY job_seq, step NULLS FIRST;
-- every field both ways, but extra (each form has its own other columns): the only difference
-- is job 11's exit code, which the JSON does not hold
SELECT coalesce(x.job_id, y.job_id) AS job_id, k.key, k.from_row, k.from_json
FROM real_by_row x FULL JOIN real_by_json y ON x.job_id = y.job_id
CROSS JOIN LATERAL (
    SELECT key, a.value AS from_row, b.value AS from_json
    FROM jsonb_each(to_jsonb(x) - 'extra' - 'anomalies') a
    FULL JOIN jsonb_each(to_jsonb(y) - 'extra' - 'anomalies') b USING (key)
    WHERE a.value IS DISTINCT FROM b.value) k
ORDER BY 1, 2;
-- a deeply nested document is no sacct --json output
SELECT count(*) FROM sacct_json((repeat('[', 3000) || repeat(']', 3000))::jsonb);
