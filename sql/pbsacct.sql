-- pbsacct: PBS / OpenPBS / TORQUE accounting lines (docs/loading.md), the PBS usage formula,
-- reruns, and the load pipeline (COPY verbatim, parallel CREATE TABLE AS, upsert, reload)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';
SET datestyle = 'ISO, MDY';

-- raw lines, byte for byte: CSV mode with delimiter and quote bytes that never occur
CREATE UNLOGGED TABLE pbs_raw (id bigserial PRIMARY KEY, file text, line text);
\copy pbs_raw(line) FROM 'sql/data/pbs_accounting_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE pbs_raw SET file = 'samples' WHERE file IS NULL;
\copy pbs_raw(line) FROM 'sql/data/pbs_accounting_edgecases.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE pbs_raw SET file = 'edgecases' WHERE file IS NULL;
CREATE TEMP TABLE pbs AS
SELECT id, file, row_number() OVER (PARTITION BY file ORDER BY id) AS ln, (pbs_acct_try(line)).*
FROM pbs_raw;

-- no line is lost: every line is parsed (error IS NULL) or listed with its reason
SELECT file, count(*) AS lines, count(*) FILTER (WHERE error IS NULL) AS parsed,
       count(*) FILTER (WHERE error IS NOT NULL) AS failed
FROM pbs GROUP BY file ORDER BY file;
SELECT file, ln, error FROM pbs WHERE error IS NOT NULL ORDER BY id;
-- and every anomaly, line by line
SELECT file, ln, record_type, job_id, unnest(anomalies) AS anomaly
FROM pbs WHERE cardinality(anomalies) > 0 ORDER BY id, anomaly;
-- attrs and requested_text are written in jsonb's binary form by the parser: each equals the
-- jsonb its text reads back as, with as many bytes (bare_size: the record's fields of under 127
-- bytes have a 1-byte varlena header, a fresh value 4 bytes), and every key's lookup (a binary
-- search over the sorted keys, through the stored offsets) finds the value listed for it; lines
-- of more than 16 pairs (max_keys) hold the JEntry offsets jsonb stores every 32nd entry
CREATE FUNCTION pg_temp.bare_size(j jsonb) RETURNS int LANGUAGE sql AS
$$ SELECT pg_column_size(j) - CASE WHEN pg_column_size(j) <= 127 THEN 1 ELSE 4 END $$;
SELECT count(*) AS lines,
       count(*) FILTER (WHERE p.attrs = p.attrs::text::jsonb
                          AND pg_temp.bare_size(p.attrs) = pg_column_size(p.attrs::text::jsonb) - 4
                          AND p.requested_text = p.requested_text::text::jsonb
                          AND pg_temp.bare_size(p.requested_text) = pg_column_size(p.requested_text::text::jsonb) - 4) AS same,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_each_text(p.attrs) e
                                      WHERE p.attrs ->> e.key IS DISTINCT FROM e.value)
                           OR EXISTS (SELECT 1 FROM jsonb_each_text(p.requested_text) e
                                      WHERE p.requested_text ->> e.key IS DISTINCT FROM e.value)) AS lookup_fails,
       max((SELECT count(*) FROM jsonb_object_keys(p.attrs))) AS max_keys
FROM pbs_raw r, pbs_acct_try(r.line) p WHERE p.error IS NULL;

-- ---------------------------------------------------------------- edge cases, by hand
-- line 1: account="proj A" (always quoted), project="climate run", Resource_List.software="WRF 4.5";
-- ctime 1713175200 = 2024-04-15 10:00:00 UTC, start +800 s, end +4400 s; exec_host n001/0*8+n002/0*8
-- gives 8 CPUs on each host; resources_used.cput 15:48:00; Resource_List sizes 32gb, select text
SELECT log_time, record_type, job_id, job_seq, array_index, is_array_parent, server, "user", "group",
       account, project, queue, jobname, ctime, qtime, etime, start, "end", exit_status, run_count, session
FROM pbs WHERE file = 'edgecases' AND ln = 1;
SELECT used, requested, requested_text, exec_hosts, exec_host_cpus,
       attrs ->> 'exec_vnode' AS exec_vnode, attrs ->> 'eligible_time' AS eligible_time
FROM pbs WHERE file = 'edgecases' AND ln = 1;

-- line 2: array sub-job 4300[7]; Resource_List.tag='say "hi" now' (single quotes because the value
-- holds "); Exit_status 271 = killed by signal 15
SELECT job_id, job_seq, array_index, is_array_parent, server, exit_status,
       requested_text ->> 'tag' AS tag, exec_hosts, exec_host_cpus
FROM pbs WHERE file = 'edgecases' AND ln = 2;
-- line 3: the array parent 4300[]: no index, no exec_host, no usage, never charged
SELECT job_id, job_seq, array_index, is_array_parent, used, exec_hosts, attrs ->> 'array_indices' AS indices
FROM pbs WHERE file = 'edgecases' AND ln = 3;
-- line 6: PP-464, account="value" malicious="evil": the quote closes only before a known key,
-- so the account is the whole injected text and there is no key "malicious"; etime=0 is NULL
SELECT record_type, account, jobname, etime, attrs ? 'malicious' AS has_malicious
FROM pbs WHERE file = 'edgecases' AND ln = 6;
-- line 7: a ";" inside the account: only the first three ";" split the line
SELECT job_id, account, jobname FROM pbs WHERE file = 'edgecases' AND ln = 7;
-- line 8: TORQUE 2.x array id 5555-3.tq01: sequence 5555, index 3, server tq01
SELECT job_id, job_seq, array_index, is_array_parent, server, jobname
FROM pbs WHERE file = 'edgecases' AND ln = 8;
-- lines 9 and 10: the same stamp 11/03/2024 01:30:00 (the DST fall-back hour), 3600 s apart by
-- their exact end epochs 1730611800 and 1730615400; log_time stays as written
SELECT ln, log_time, "end", "end" - lag("end") OVER (ORDER BY ln) AS apart
FROM pbs WHERE file = 'edgecases' AND ln IN (9, 10) ORDER BY ln;
-- line 11: a D record: only requestor
SELECT record_type, job_seq, "user", attrs FROM pbs WHERE file = 'edgecases' AND ln = 11;
-- line 12: resources_used.mem=4096 has no suffix: 4096 bytes (4kb); vmem=512kw = 512 * 1024 words
-- of 8 bytes = 4mb
SELECT used, used -> 'mem' AS mem_bytes, used -> 'vmem' AS vmem_bytes FROM pbs WHERE file = 'edgecases' AND ln = 12;

-- ---------------------------------------------------------------- the real samples, by hand
-- line 1: TORQUE exec_host of 32 single slots over 4 hosts, 8 each, in order of appearance;
-- nodes=4:ppn=8 is a request text, not an amount; line 2 is the same job without the server
SELECT ln, job_id, job_seq, server, exec_hosts, exec_host_cpus, requested, requested_text
FROM pbs WHERE file = 'samples' AND ln IN (1, 2) ORDER BY ln;
-- line 4: PBS Pro c1/0*13+... = 13 CPUs on each of 5 hosts; line 5: ranges c1/0-3+c2/0-7 = 4 and 8
SELECT ln, exec_hosts, exec_host_cpus, used -> 'ncpus' AS ncpus, requested_text
FROM pbs WHERE file = 'samples' AND ln IN (4, 5) ORDER BY ln;
-- line 7: 12.27M is not a PBS unit (an anomaly) but reads as 12.27 MiB; exec_host b/0-27 = 28 CPUs
SELECT used, exec_hosts, exec_host_cpus, requested_text FROM pbs WHERE file = 'samples' AND ln = 7;
-- line 9: exec_host [hostname_2]/0*0 gives no CPUs (an anomaly); the server is "[hostname_1]"
SELECT job_seq, server, exec_hosts, exec_host_cpus, exit_status, run_count
FROM pbs WHERE file = 'samples' AND ln = 9;
-- line 10: walltime 19:23:4 (a single-digit field) is 19:23:04; line 19 is the same record with
-- "etime=1317509574start=1317509945": the missing space is repaired (an anomaly), start is read
SELECT ln, used -> 'walltime' AS walltime_s, etime, start FROM pbs WHERE file = 'samples' AND ln IN (10, 19) ORDER BY ln;
-- lines 12 and 13: TORQUE 5.1.2 wrote cput=12722 and walltime=12767 in plain seconds: 03:32:02
-- and 03:32:47, the same amounts line 12 writes as HH:MM:SS
SELECT ln, used FROM pbs WHERE file = 'samples' AND ln IN (12, 13) ORDER BY ln;
SELECT a.used = b.used AS same_usage FROM pbs a, pbs b
WHERE a.file = 'samples' AND a.ln = 12 AND b.file = 'samples' AND b.ln = 13;
-- line 15: the grep prefix "20150327:" is skipped (an anomaly); the stamp is read after it
SELECT log_time, job_id, exec_hosts, exec_host_cpus FROM pbs WHERE file = 'samples' AND ln = 15;
-- line 16: cput=9 plain seconds
SELECT used -> 'cput' AS cput_s FROM pbs WHERE file = 'samples' AND ln = 16;
-- line 18: start and end swapped (end before start: an anomaly)
SELECT start, "end", anomalies FROM pbs WHERE file = 'samples' AND ln = 18;
-- lines 20-23: TORQUE 6 "-L tasks=..." unquoted with spaces: the whole request is one value
SELECT ln, record_type, requested_text, exec_hosts, exec_host_cpus, used -> 'cput' AS cput_s
FROM pbs WHERE file = 'samples' AND ln BETWEEN 20 AND 23 ORDER BY ln;
-- lines 24-26: D, Q and S records of 2005
SELECT ln, record_type, job_id, queue, "user", attrs FROM pbs WHERE file = 'samples' AND ln BETWEEN 24 AND 26 ORDER BY ln;

-- the raw pairs: values unquoted, as written
SELECT * FROM pbs_acct_attrs((SELECT line FROM pbs_raw r JOIN pbs p USING (id) WHERE p.file = 'edgecases' AND p.ln = 6));
SELECT * FROM pbs_acct_attrs('06/06/2005 14:04:35;Q;409.ign1.zeta2.org;');

-- ---------------------------------------------------------------- odd lines: anomalies, not silence
SELECT record_type, job_id, job_seq, anomalies FROM pbs_acct('04/16/2024 13:00:00;X;R123.pbs01;name=resv1');
SELECT record_type, job_id, job_seq, anomalies FROM pbs_acct('04/16/2024 13:00:00;Y;R123.pbs01;name=resv1 start=1713272400');
SELECT job_seq, start, exit_status, anomalies FROM pbs_acct('04/16/2024 13:00:00;E;abc.pbs01;start=soon Exit_status=x end=1713272400');
SELECT "user", used, anomalies FROM pbs_acct('04/16/2024 13:00:00;E;1.s;user=a user=b start=1 end=2 resources_used.mem=lots resources_used.cput=10 resources_used.cput=20');
-- attrs keeps the last value of a repeated key too, as the note says (it kept the first)
SELECT "user", attrs->>'user' AS attrs_user, attrs->>'resources_used.cput' AS attrs_cput
FROM pbs_acct('04/16/2024 13:00:00;E;1.s;user=a user=b start=1 end=2 resources_used.cput=10 resources_used.cput=20');
SELECT exec_hosts, exec_host_cpus, anomalies FROM pbs_acct('04/16/2024 13:00:00;S;1.s;exec_host=n1/0-x+n2+n1/3++n3/1,2');
SELECT attrs, anomalies FROM pbs_acct('04/16/2024 13:00:00;a;1.s;Priority=150 anything=goes extra');
SELECT jobname, attrs, anomalies FROM pbs_acct('04/16/2024 13:00:00;Q;1.s;jobname=a b c queue=q');
SELECT job_seq, array_index, is_array_parent, server FROM pbs_acct('04/16/2024 13:00:00;Q;77[12];queue=q');
SELECT error IS NULL AS ok, anomalies FROM pbs_acct_try(E'04/16/2024 13:00:00;Q;77;queue=q \r');
-- an L record (floating licenses) is free text, kept whole under "message"
SELECT record_type, job_id, job_seq, attrs, anomalies
FROM pbs_acct('04/16/2024 13:00:00;L;license;floating license hour:3 day:5 month:7 max:10 ');
SELECT * FROM pbs_acct_attrs('04/16/2024 13:00:00;L;license;floating license hour:3 day:5 month:7 max:10');
-- NULL in, NULL out
SELECT pbs_acct(NULL) IS NULL AS null_in, pbs_usage(NULL, 'cput=1') IS NULL AS null_formula;

-- ---------------------------------------------------------------- errors (22P02, with the character)
SELECT pbs_acct('garbage');
SELECT pbs_acct('13/01/2024 00:00:00;E;1;user=a');
SELECT pbs_acct('02/30/2024 00:00:00;E;1;user=a');
SELECT pbs_acct('01/01/2024 24:00:00;E;1;user=a');
SELECT pbs_acct('01/01/2024 00:00:00E;1;user=a');
SELECT pbs_acct('01/01/2024 00:00:00;;1;user=a');
SELECT pbs_acct('01/01/2024 00:00:00;EE;1;user=a');
SELECT pbs_acct('01/01/2024 00:00:00;E;1 user=a');
SELECT pbs_acct('01/01/2024 00:00:00;E;;user=a');
SELECT pbs_acct('01/01/2024 00:00:00;E;1;junk user=a');
SELECT pbs_acct('01/01/2024 00:00:00;E;1;account="abc user=a');
SELECT * FROM pbs_acct_attrs('01/01/2024 00:00:00;E;1;=5');
-- the _try form: every field NULL, the reason in error
SELECT (r).log_time, (r).job_id, (r).attrs, (r).anomalies, (r).error
FROM (SELECT pbs_acct_try('01/01/2024 00:00:00;E;1;account="abc user=a') AS r) s;
SELECT error FROM pbs_acct_try('floating license hour:3 day:5');

-- ---------------------------------------------------------------- pbs_usage
-- PBS units: cput 01:00:00 = 3600 s; mem 1025 bytes = 2 kb (rounded up); 8gb = 8388608 kb
SELECT pbs_usage('cput', 'cput=01:00:00') AS cput,
       pbs_usage('mem', 'mem=1025b') AS mem_kb,
       pbs_usage('mem', 'mem=8gb') AS mem8g_kb,
       pbs_usage('ncpus * walltime', 'ncpus=4,walltime=00:30:00') AS cpu_s,
       pbs_usage('ngpus', 'ncpus=4') AS missing_is_0;
-- Python precedence: -2**2 = -4, 2**-1 = 0.5, 2**3**2 = 512, (1+2)*3 = 9, 10/4 = 2.5, 7-2-1 = 4
SELECT pbs_usage('-2**2', '') AS a, pbs_usage('2**-1', '') AS b, pbs_usage('2 ** 3 ** 2', '') AS c,
       pbs_usage('(1+2)*3', '') AS d, pbs_usage('10/4', '') AS e, pbs_usage('7-2-1', '') AS f,
       pbs_usage('- -3', '') AS g, pbs_usage('.5e1 + 1.', '') AS h;
SELECT pbs_usage('ceil(2.1) + floor(2.9) + trunc(-2.5) + fabs(-1) + abs(-1)', '') AS fns1,
       pbs_usage('sqrt(16) + exp(0) + log(8, 2) + log10(1000) + log2(8)', '') AS fns2,
       pbs_usage('pow(2, 10) + fmod(7, 3) + min(4, 2, 3) + max(1, 5) + round(2.5)', '') AS fns3,
       pbs_usage('log(e) + pi', '') AS consts, pbs_usage('pi', 'pi=3') AS resource_wins;
-- the charge of the rerun job's E record with a typical formula
SELECT pbs_usage('cput + 0.25 * ceil(mem / 1048576) * walltime', used) AS charge
FROM pbs WHERE file = 'edgecases' AND ln = 5;
SELECT pbs_usage('', '');
SELECT pbs_usage('cput +', 'cput=1');
SELECT pbs_usage('cput $ 2', 'cput=1');
SELECT pbs_usage('2cput', 'cput=1');
SELECT pbs_usage('(1 + 2', '');
SELECT pbs_usage('foo(1)', '');
SELECT pbs_usage('sqrt(1, 2)', '');
SELECT pbs_usage('max(1)', '');
SELECT pbs_usage('min(1 2)', '');
SELECT pbs_usage('7 // 2', '');
SELECT pbs_usage(repeat('(', 70) || '1' || repeat(')', 70), '');
-- every recursion counts against the same 64 levels: a chain of 100,000 powers crashed the
-- server (signal 11); it is now the nesting error, at once, as are signs mixed with powers,
-- nested calls and a run of signs
SELECT fairsched.pbs_usage('1' || repeat('**1', 100000), 'a=1');
SELECT pbs_usage('1' || repeat('**1', 64), '') AS powers_64;
SELECT pbs_usage(repeat('-2**', 50000) || '1', '');
SELECT pbs_usage(repeat('abs(', 100000) || '1' || repeat(')', 100000), '');
SELECT pbs_usage(repeat('+', 100000) || '1', '');
-- flat chains are loops, not recursion: 100,000 terms, 100,000 arguments
SELECT pbs_usage('1' || repeat('+1', 99999), '') AS sum_100000,
       pbs_usage('min(' || repeat('3,', 99999) || '2)', '') AS min_100000;
-- names in a large vector are found by binary search in an index (80,000 entries)
SELECT pbs_usage('r1 + r40000 + r80000 + nosuch', string_agg('r' || i || '=' || i, ',')::resvec)
FROM generate_series(1, 80000) i;
SELECT pbs_usage('1/0', '');
SELECT pbs_usage('cput / (ncpus - ncpus)', 'cput=10,ncpus=2');
SELECT pbs_usage('0 ** -1', '');
SELECT pbs_usage('10 ** 400', '');
SELECT pbs_usage('exp(1000)', '');
SELECT pbs_usage('sqrt(-1)', '');
SELECT pbs_usage('log(0)', '');
SELECT pbs_usage('(-8) ** 0.5', '');

-- ---------------------------------------------------------------- long lines
-- 80,000 pairs (1.9 MB) in reverse key order: the jsonb key order is a merge sort (an insertion
-- sort took 10.7 s on this line)
WITH l AS (SELECT '04/15/2024 10:00:00;E;123.srv;' ||
                  string_agg('resources_used.r' || i || '=1', ' ' ORDER BY i DESC) AS line
           FROM generate_series(1, 80000) i)
SELECT r.job_id, length(l.line) AS bytes, (SELECT count(*) FROM jsonb_object_keys(r.attrs)) AS keys,
       pbs_usage('r1 + r80000', r.used) AS r1_r80000, r.anomalies
FROM l, pbs_acct(l.line) r;
-- 80,000 pairs over 20,000 keys, each written four times: one note per repeated key, found in
-- the sorted order in one pass; the last value is used
WITH l AS (SELECT '04/15/2024 10:00:00;E;123.srv;' ||
                  string_agg('resources_used.r' || (i % 20000) || '=' || i, ' ' ORDER BY i DESC) AS line
           FROM generate_series(1, 80000) i)
SELECT (SELECT count(*) FROM jsonb_object_keys(r.attrs)) AS keys, cardinality(r.anomalies) AS notes,
       r.anomalies[1] AS first_note, r.attrs->>'resources_used.r7' AS r7, pbs_usage('r7', r.used) AS used_r7
FROM l, pbs_acct(l.line) r;

-- ---------------------------------------------------------------- reruns: charge = sum of R + E
-- job 4400 ran twice: R (cput 03:45:00, walltime 00:56:40) then E (07:18:00, 01:50:00), so
-- cput 13500 + 26280 = 39780 s and walltime 3400 + 6600 = 10000 s; the array parent 4300[] is
-- never charged, its sub-job 4300[7] is (cput 00:11:40 = 700 s)
SELECT server, job_seq, array_index, count(*) AS records, string_agg(record_type, '+' ORDER BY id) AS types,
       sum(pbs_usage('cput', used)) AS cput_s, sum(pbs_usage('walltime', used)) AS walltime_s
FROM pbs
WHERE file = 'edgecases' AND record_type IN ('R', 'E') AND NOT is_array_parent
GROUP BY server, job_seq, array_index ORDER BY job_seq, array_index;

-- ---------------------------------------------------------------- the pipeline
-- parse in a parallel CREATE TABLE AS (INSERT ... SELECT is not parallel in PostgreSQL 15)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
CREATE TABLE pbs_parsed AS SELECT r.id, r.file, (pbs_acct_try(r.line)).* FROM pbs_raw r;
CREATE TABLE pbs_parsed AS SELECT r.id, r.file, (pbs_acct_try(r.line)).* FROM pbs_raw r;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- usage records keyed by (source, server, job_seq, array_index, ctime, record_type, end)
CREATE TABLE pbs_usage_records (
    source text NOT NULL, server text, job_seq bigint NOT NULL, array_index int4,
    ctime timestamptz, record_type text NOT NULL, "end" timestamptz,
    "user" text, "group" text, account text, queue text, used resvec,
    UNIQUE NULLS NOT DISTINCT (source, server, job_seq, array_index, ctime, record_type, "end"));
INSERT INTO pbs_usage_records
SELECT 'pbs:test', server, job_seq, array_index, ctime, record_type, "end", "user", "group", account, queue, used
FROM pbs_parsed
WHERE error IS NULL AND record_type IN ('E', 'R') AND job_seq IS NOT NULL AND NOT is_array_parent
ORDER BY id
ON CONFLICT DO NOTHING;
-- 29 E/R lines of jobs, not array parents (20 in the samples, 9 in the edge cases); samples line 19
-- repeats line 10 (the same key), so 28 rows
SELECT count(*) AS usage_rows, sum(pbs_usage('cput', used)) AS cput_s FROM pbs_usage_records;
CREATE TEMP TABLE before_reload AS SELECT * FROM pbs_usage_records;

-- reload the same files: new staging rows, parsed again, upserted: nothing changes
\copy pbs_raw(line) FROM 'sql/data/pbs_accounting_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
\copy pbs_raw(line) FROM 'sql/data/pbs_accounting_edgecases.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE pbs_parsed2 AS SELECT r.id, (pbs_acct_try(r.line)).* FROM pbs_raw r WHERE r.file IS NULL;
INSERT INTO pbs_usage_records
SELECT 'pbs:test', server, job_seq, array_index, ctime, record_type, "end", "user", "group", account, queue, used
FROM pbs_parsed2
WHERE error IS NULL AND record_type IN ('E', 'R') AND job_seq IS NOT NULL AND NOT is_array_parent
ORDER BY id
ON CONFLICT DO NOTHING;
SELECT count(*) AS usage_rows,
       (SELECT count(*) FROM (SELECT * FROM pbs_usage_records EXCEPT SELECT * FROM before_reload) d) AS changed
FROM pbs_usage_records;

-- per user, the charge the PBS default formula (cput) gives
SELECT "user", count(*) AS records, sum(pbs_usage('cput', used)) AS cput_s
FROM pbs_usage_records GROUP BY "user" ORDER BY cput_s DESC, "user" LIMIT 5;

DROP TABLE pbs_parsed, pbs_parsed2, pbs_usage_records, pbs_raw;

-- Keys the tokenizer did not know. A TORQUE E line of 2010 (from a Python TORQUE parser's
-- docstring) ends in the site key session_id after resources_used.walltime: it starts a pair of
-- its own after that whole value (hand-derived: walltime 00:00:10 = 10 s, cput 45 s), with a note
SELECT p.queue, p.used, p.attrs ->> 'session_id' AS session_id, p.anomalies
FROM pbs_acct('09/13/2010 07:30:18;E;1698368.cla11pno;user=warin group=osiris jobname=Mariva_Scen_2RES_484traj queue=parall_128 ctime=1284355807 qtime=1284355807 etime=1284355807 start=1284355808 owner=warin@cla11pfr exec_host=cla1a090/7+cla1a090/6+cla1a090/5+cla1a090/4+cla1a090/3+cla1a090/2+cla1a090/1+cla1a090/0+cla1a091/7+cla1a091/6+cla1a091/5+cla1a091/4+cla1a091/3+cla1a091/2+cla1a091/1+cla1a091/0 Resource_List.neednodes=2:ppn=8 Resource_List.nodect=2 Resource_List.nodes=2:ppn=8 Resource_List.walltime=60:00:00 session=27046 end=1284355818 Exit_status=139 resources_used.cput=00:00:45 resources_used.mem=438096kb resources_used.vmem=878572kb resources_used.walltime=00:00:10 session_id=27046') p;
-- OpenPBS's own keys: provision_vnode (P records), resources_released (z records), resvjobID
-- (lines written by hand after its accounting writer's formats): known, no note
SELECT p.record_type, p.queue, p.used, p.attrs, p.anomalies
FROM (VALUES (1, '04/10/2026 10:00:00;P;12.pbs;user=alice group=staff jobname=job1 queue=workq provision_vnode=node1 provision_event=START start_time=1775815200'),
             (2, '04/10/2026 10:05:00;z;12.pbs;resources_used.cput=00:00:01 resources_used.walltime=00:10:00 resources_released=(node1:ncpus=4:mem=4gb)'),
             (3, '04/10/2026 10:06:00;Q;13.pbs;queue=R12 resvjobID=13.pbs')) v(n, line),
     pbs_acct(line) p ORDER BY n;
-- no new pair after a value that goes on (":"), after words joined to a value, or in TORQUE's
-- Resource_Request_ values
SELECT p.attrs, p.anomalies
FROM (VALUES (1, '04/10/2026 10:00:00;E;1.s;queue=q Resource_List.nodes=2:ppn=4: y=1'),
             (2, '04/10/2026 10:00:00;E;1.s;jobname=a b y=1 queue=q'),
             (3, '04/10/2026 10:00:00;E;1.s;queue=q Resource_Request_2.0=-L tasks=1:lprocs=80')) v(n, line),
     pbs_acct(line) p ORDER BY n;

-- ---------------------------------------------------------------- values no scheduler writes
-- real records of other projects (sql/data/wild/, provenance in the accounting data's README)
CREATE TABLE wild (file text, n bigserial, line text);
\copy wild(line) FROM 'sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE wild SET file = 'ml-hpc' WHERE file IS NULL;
\copy wild(line) FROM 'sql/data/wild/pbs_safe_PBSRecordExtensionsTest.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE wild SET file = 'hector' WHERE file IS NULL;
\copy wild(line) FROM 'sql/data/wild/pbs_hnormalise_vsc_gent.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE wild SET file = 'vsc' WHERE file IS NULL;
SELECT file, count(*) AS lines, count(p.error) AS refused FROM wild, pbs_acct_try(line) p GROUP BY 1 ORDER BY 1;
-- the new anomalies over the 88 lines: one. ML-HPC job 124513: walltime 01:54:13 = 6853 s, end -
-- start = 1678166687 - 1678158434 = 8253 s, 1400 s (17%) apart
SELECT file, p.job_id, a FROM wild, pbs_acct_try(line) p, unnest(p.anomalies) a
WHERE a ~ '^(far|cut|implausible|ambiguous|nonexistent)' ORDER BY n;
-- HECToR's Resource_List.select=1: one chunk, a spec in requested_text, not an amount in requested
SELECT p.job_id, p.requested_text ->> 'select' AS select, p.requested::text LIKE '%select%' AS in_requested,
       p.requested -> 'ncpus' AS ncpus
FROM wild, pbs_acct(line) p WHERE file = 'hector' ORDER BY n LIMIT 2;
-- TORQUE's nodes=1:ppn=16 and a bare nodes=2 alike
SELECT (pbs_acct('01/01/2009 12:00:00;Q;1.s;queue=q Resource_List.nodes=2')).requested_text;
-- a truncated last line: VSC job 161299[389] cut after "walltime=00:03" (of 00:03:21) reads 3 s
-- (M:S); end - start = 1389567427 - 1389567229 = 198 s, 195 s apart: cut, but not far
SELECT p.used -> 'walltime' AS walltime_s, p.anomalies
FROM wild, pbs_acct(left(line, strpos(line, 'walltime=00:03:21') + 13)) p
WHERE file = 'vsc' AND line LIKE '%161299[389]%';
-- the same line with its walltime 23 minutes (the brief's 23:0), 1380 s against 198 s: cut and far
SELECT p.used -> 'walltime' AS walltime_s, p.anomalies
FROM wild, pbs_acct(replace(line, 'walltime=00:03:21', 'walltime=23:0')) p
WHERE file = 'vsc' AND line LIKE '%161299[389]%';
-- sizes of 10^23 TB and a walltime of 10^11 days; an edge on each bound is not flagged
SELECT n, p.anomalies FROM (VALUES
    (1, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.mem=100000000000000000000000tb'),
    (2, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.vmem=1048576tb'),
    (3, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.vmem=1048577tb'),
    (4, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.walltime=2400000000000:00:00'),
    (5, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.walltime=2147483647'),
    (6, '01/01/2009 12:00:00;E;1.s;queue=q resources_used.walltime=2147483648'),
    (7, '01/01/2009 12:00:00;E;1.s;start=1000 end=2200 resources_used.walltime=1800'),
    (8, '01/01/2009 12:00:00;E;1.s;start=1000 end=2200 resources_used.walltime=1801'),
    (9, '01/01/2009 12:00:00;E;1.s;start=1000 end=11000 resources_used.walltime=9000'),
    (10, '01/01/2009 12:00:00;E;1.s;start=1000 end=11000 resources_used.walltime=8999')) v(n, line),
  pbs_acct(line) p ORDER BY n;
-- a syslog tag in front (the VSC file's rsyslog tag "torque: ", stripped in the file, put back)
SELECT p.error FROM wild, pbs_acct_try('torque: ' || line) p WHERE file = 'vsc' ORDER BY n LIMIT 1;
SELECT pbs_acct('Jun 12 10:00:00 master torque: 01/12/2014 23:57:07;E;1.s;queue=q');
-- a tag-like text that is not followed by a PBS line stays the usual error
SELECT pbs_acct('torque: hello');

-- ---------------------------------------------------------------- pipeline recipes
-- NUL bytes: sql/data/pbs_nul_bytes.txt holds five records of FZK's TORQUE log of 2009 (the
-- EPCC SAFE tests): 710128 Q and S with a run of NULs in place of the newline between them,
-- 710129 Q ending in a CR, 710129 S cut after 120 bytes and padded with NULs (a crash), and
-- 710130 Q. As loaded with tr -d "\r" alone, psql's \copy drops every byte from a NUL to the
-- line end and glues the next line onto what is left: 710128 Q swallows 710129 Q (its queue
-- reads "dgiseq06/12/2009 21:00:14;Q;710129..."), and 710128 S and 710130 Q are lost
CREATE TABLE nul_raw (n bigserial, line text);
\copy nul_raw(line) FROM PROGRAM 'tr -d "\r" < sql/data/pbs_nul_bytes.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT n, p.record_type, p.job_id, p.queue, p.anomalies, p.error FROM nul_raw, pbs_acct_try(line) p ORDER BY n;
TRUNCATE nul_raw;
-- the recipe: every run of NULs becomes a line end (tr -s squeezes the blank lines it leaves):
-- all five records, the cut one read with its tail "q" joined to ctime and flagged
\copy nul_raw(line) FROM PROGRAM 'tr -d "\r" < sql/data/pbs_nul_bytes.txt | tr -s "\000" "\n"' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT n, p.record_type, p.job_id, p.ctime, p.anomalies, p.error FROM nul_raw, pbs_acct_try(line) p ORDER BY n;
-- the same with sed, which can do both in one pass
TRUNCATE nul_raw;
\copy nul_raw(line) FROM PROGRAM 'sed -e "s/\r$//" -e "s/\x0\+/\n/g" sql/data/pbs_nul_bytes.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT string_agg(p.record_type || ' ' || p.job_seq, ', ' ORDER BY n) AS records FROM nul_raw, pbs_acct(line) p;

-- another encoding: sql/data/pbs_latin1.txt is FZK's 710123 Q and 710126 S with the jobname
-- "résumé" in Latin-1 (é is the byte E9). One such byte aborts the whole COPY: nothing is loaded
CREATE TABLE enc_raw (n bigserial, line text);
\copy enc_raw(line) FROM 'sql/data/pbs_latin1.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT count(*) AS loaded FROM enc_raw;
-- COPY's ENCODING option, or iconv in the pipeline, converts it: the loader reads UTF-8 text and
-- keeps the name as written, 6 characters in 8 bytes
\copy enc_raw(line) FROM 'sql/data/pbs_latin1.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', ENCODING 'LATIN1')
\copy enc_raw(line) FROM PROGRAM 'iconv -f latin1 -t utf8 sql/data/pbs_latin1.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT n, p.record_type, p.job_id, p.jobname, length(p.jobname) AS chars, octet_length(p.jobname) AS bytes,
       p.attrs ->> 'jobname' AS in_attrs
FROM enc_raw, pbs_acct(line) p ORDER BY n;

-- ---------------------------------------------------------------- the parsers' cost
-- pbs_acct and sacct_row state COST 1000 (2.5 cost units a line). Over a staging table above
-- min_parallel_table_scan_size, a parse in the select list is planned in parallel with the
-- default costs (with COST 1 it is not). PostgreSQL charges a function in FROM once per query,
-- not once per outer row, so the LATERAL form stays serial (docs/loading.md)
SET jit = off;
CREATE TABLE big_raw AS
SELECT '04/15/2024 10:00:00;E;' || i || '.srv;user=alice group=phys queue=batch ctime=1713170000 '
       'start=1713172000 end=1713175600 Exit_status=0 exec_host=n1/0*8+n2/0*8 Resource_List.ncpus=16 '
       'resources_used.cput=10:00:00 resources_used.mem=4gb resources_used.walltime=01:00:00' AS line
FROM generate_series(1, 40000) i;
ANALYZE big_raw;
SET max_parallel_workers_per_gather = 2;
SELECT pg_relation_size('big_raw') > pg_size_bytes(current_setting('min_parallel_table_scan_size')) AS big_enough;
EXPLAIN (COSTS OFF) CREATE TABLE big_parsed AS
SELECT (p).* FROM (SELECT pbs_acct(line) AS p FROM big_raw OFFSET 0) s;
EXPLAIN (COSTS OFF) CREATE TABLE big_parsed AS
SELECT (p).* FROM (SELECT sacct_row('1|COMPLETED|' || length(line), 'JobID|State|NCPUS') AS p FROM big_raw OFFSET 0) s;
EXPLAIN (COSTS OFF) CREATE TABLE big_parsed AS SELECT p.* FROM big_raw r, LATERAL pbs_acct(r.line) p;
SELECT p.oid::regprocedure, p.procost FROM pg_proc p
WHERE p.proname IN ('pbs_acct', 'pbs_acct_try', 'sacct_row', 'sacct_row_try') ORDER BY 1;
RESET max_parallel_workers_per_gather;
RESET jit;
DROP TABLE big_raw;
