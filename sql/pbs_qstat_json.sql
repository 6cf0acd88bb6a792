-- pbs_qstat_json: the jobs of qstat -f -F json documents as pbs_record rows (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';

-- A qstat -x -f -t -F json document laid out as OpenPBS's printer writes it (a finished job, a
-- running one, an array parent and one of its finished subjobs, a queued job), from a server
-- in Helsinki (UTC+2 in December)
CREATE TEMP TABLE raw (lineno bigserial, line text);
\copy raw(line) FROM 'sql/data/pbs_qstat_json.json' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE doc AS SELECT string_agg(line, E'\n' ORDER BY lineno)::jsonb AS doc FROM raw;

-- every job, its record type (E finished, S running or begun, Q waiting) and its fields
SELECT r.job_id, r.record_type, r.log_time, r.job_seq, r.array_index, r.is_array_parent, r.server,
       r."user", r."group", r.account, r.project, r.queue, r.jobname
FROM doc, pbs_qstat_json(doc, 'Europe/Helsinki') r;
SELECT r.job_id, r.ctime, r.qtime, r.etime, r.start, r."end", r.exit_status, r.run_count, r.session
FROM doc, pbs_qstat_json(doc, 'Europe/Helsinki') r;
SELECT r.job_id, r.used, r.requested, r.requested_text, r.exec_hosts, r.exec_host_cpus,
       r.anomalies, r.error
FROM doc, pbs_qstat_json(doc, 'Europe/Helsinki') r;
SELECT r.job_id, r.attrs FROM doc, pbs_qstat_json(doc, 'Europe/Helsinki') r WHERE r.job_seq = 1002;

-- the zone: the default is UTC, two hours later than the same clock reading in Helsinki
SELECT a.job_id, a.start AS start_utc, b.start AS start_helsinki, a.start - b.start AS diff
FROM doc, pbs_qstat_json(doc) a JOIN pbs_qstat_json(doc, 'Europe/Helsinki') b USING (job_id)
WHERE a.job_id = '1001.pbs01';

-- The same job from its accounting E line and from qstat: every field but attrs is the same.
-- attrs differ in the keys: qstat's record has only those the accounting log writes, and lacks
-- what qstat does not print (eligible_time without eligible_time_enable, the E line's
-- Resource_List.* accounting extras such as alt_id).
CREATE TEMP TABLE from_log AS
SELECT (pbs_acct('12/01/2026 11:00:03;E;1001.pbs01;user=alice group=chem project=_pbs_project_default '
  'jobname=relax queue=workq ctime=1796108100 qtime=1796108400 etime=1796108405 start=1796112000 '
  'exec_host=node01/0*4 exec_vnode=(node01:ncpus=4:mem=8388608kb) Resource_List.mem=8gb '
  'Resource_List.ncpus=4 Resource_List.nodect=1 Resource_List.place=pack '
  'Resource_List.select=1:ncpus=4:mem=8gb Resource_List.walltime=02:00:00 session=12345 '
  'end=1796115603 Exit_status=0 resources_used.cpupercent=398 resources_used.cput=03:58:12 '
  'resources_used.mem=7812345kb resources_used.ncpus=4 resources_used.vmem=8012345kb '
  'resources_used.walltime=01:00:03 eligible_time=00:00:05 run_count=1')).*;
CREATE TEMP TABLE from_qstat AS
SELECT r.* FROM doc, pbs_qstat_json(doc, 'Europe/Helsinki') r WHERE r.job_id = '1001.pbs01';
SELECT l.log_time = q.log_time AS log_time, l.record_type = q.record_type AS record_type,
       l.job_id = q.job_id AS job_id, l.job_seq = q.job_seq AS job_seq,
       l.server = q.server AS server, l."user" = q."user" AS "user", l."group" = q."group" AS "group",
       l.project = q.project AS project, l.queue = q.queue AS queue, l.jobname = q.jobname AS jobname,
       (l.ctime, l.qtime, l.etime, l.start, l."end") = (q.ctime, q.qtime, q.etime, q.start, q."end") AS times,
       (l.exit_status, l.run_count, l.session) = (q.exit_status, q.run_count, q.session) AS counts,
       l.used::text = q.used::text AS used, l.requested::text = q.requested::text AS requested,
       l.requested_text = q.requested_text AS requested_text,
       l.exec_hosts = q.exec_hosts AS exec_hosts, l.exec_host_cpus = q.exec_host_cpus AS cpus,
       l.anomalies = q.anomalies AS anomalies
FROM from_log l, from_qstat q;
SELECT k AS only_in_the_log FROM from_log, jsonb_object_keys(attrs) k
EXCEPT SELECT k FROM from_qstat, jsonb_object_keys(attrs) k;
SELECT k AS only_in_qstat FROM from_qstat, jsonb_object_keys(attrs) k
EXCEPT SELECT k FROM from_log, jsonb_object_keys(attrs) k;

-- edges: no jobs (qstat prints no "Jobs" when none matched), an empty Jobs, a value with a
-- double quote and a blank, a number as Job_Name (OpenPBS prints numeric names as numbers), a
-- job with only ctime, Job_Owner without euser, NULL arguments
SELECT count(*) FROM pbs_qstat_json('{"timestamp":1796119200,"pbs_version":"23.06.06","pbs_server":"pbs01"}');
SELECT count(*) FROM pbs_qstat_json('{"timestamp":1796119200,"Jobs":{}}');
SELECT job_id, jobname, "user", log_time, record_type, ctime FROM pbs_qstat_json(
  '{"Jobs":{"7.s":{"Job_Name":"say \"hi\" there","Job_Owner":"dave@h","ctime":"Wed Dec  2 00:00:00 2026"},
            "8.s":{"Job_Name":42,"Job_Owner":"erin","ctime":"Thu Jan 29 23:59:59 2026","job_state":"H"}}}');
SELECT count(*) FROM pbs_qstat_json(NULL);
SELECT count(*) FROM pbs_qstat_json('{"Jobs":{}}', NULL);

-- errors: each names the job and the attribute, and says what to give
SELECT * FROM pbs_qstat_json('[1,2]');
SELECT * FROM pbs_qstat_json('{"jobs":[]}');
SELECT * FROM pbs_qstat_json('{"Jobs":[]}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":"R"}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"Job_Owner":"a"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"2026-12-01 10:00:00"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":1796108100}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"Tue Feb 29 10:00:00 2026"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"Tue Dec  1 10:00:00 2026","queue":["a"]}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"Tue Dec  1 10:00:00 2026","Job_Name":"a\nb"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"Tue Dec  1 10:00:00 2026","Resource_List":"ncpus=4"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1.s":{"ctime":"Tue Dec  1 10:00:00 2026","Resource_List":{"n cpus":4}}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"1 s":{"ctime":"Tue Dec  1 10:00:00 2026"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{"":{"ctime":"Tue Dec  1 10:00:00 2026"}}}');
SELECT * FROM pbs_qstat_json('{"Jobs":{}}', 'Mars/Olympus');
