-- sacct: Slurm sacct --parsable2 rows, durations and sacctmgr associations (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';
SET extra_float_digits = 0;

-- The sample file, verbatim: one line per row (CSV mode with bytes that never occur)
CREATE TEMP TABLE raw (lineno bigserial, line text);
\copy raw(line) FROM 'sql/data/sacct_parsable2_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
-- blocks start with "# block: NAME"; the next line is the header of the rows below it
CREATE TEMP TABLE rows AS
SELECT l.lineno, b.name AS block, h.line AS header, l.line
FROM (SELECT lineno, line,
             max(lineno) FILTER (WHERE line LIKE '# block: %') OVER (ORDER BY lineno) AS bstart
      FROM raw) l
JOIN (SELECT lineno, substr(line, 10) AS name FROM raw WHERE line LIKE '# block: %') b
  ON b.lineno = l.bstart
JOIN raw h ON h.lineno = l.bstart + 1
WHERE l.lineno > l.bstart + 1 AND l.line <> '';
SELECT block, count(*) AS rows FROM rows GROUP BY block ORDER BY min(lineno);
SELECT count(*) AS rows_in_file FROM rows;

-- parse every row (a parallel-capable CREATE TABLE AS, as the README pipeline does)
CREATE TEMP TABLE parsed AS
SELECT r.lineno, r.block, (sacct_row_try(r.line, r.header)).* FROM rows r;
-- no row is lost: each one is parsed or listed with its reason
SELECT count(*) FILTER (WHERE error IS NULL) AS parsed, count(*) FILTER (WHERE error IS NOT NULL) AS failed
FROM parsed;
SELECT lineno, block, error FROM parsed WHERE error IS NOT NULL ORDER BY lineno;
-- every anomaly, row by row
SELECT lineno, job_id, unnest(anomalies) AS anomaly FROM parsed WHERE cardinality(anomalies) > 0
ORDER BY lineno;
-- extra is written in jsonb's binary form by the parser: it equals the jsonb its text reads back
-- as, with as many bytes (bare_size: the record's fields of under 127 bytes have a 1-byte varlena
-- header, a fresh value 4 bytes), every key's lookup finds the value listed for it (JSON nulls
-- too), and rows of more than 16 columns in extra (max_keys) hold the offsets of every 32nd entry
CREATE FUNCTION pg_temp.bare_size(j jsonb) RETURNS int LANGUAGE sql AS
$$ SELECT pg_column_size(j) - CASE WHEN pg_column_size(j) <= 127 THEN 1 ELSE 4 END $$;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE p.extra = p.extra::text::jsonb
                          AND pg_temp.bare_size(p.extra) = pg_column_size(p.extra::text::jsonb) - 4) AS same,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_each(p.extra) e
                                      WHERE p.extra -> e.key IS DISTINCT FROM e.value)) AS lookup_fails,
       max((SELECT count(*) FROM jsonb_object_keys(p.extra))) AS max_keys
FROM rows r, sacct_row_try(r.line, r.header) p WHERE p.error IS NULL;

-- the identity of every row
SELECT lineno, job_id, job_id_raw, job_seq, array_job_id, array_task_id, het_job_id, het_offset, step
FROM parsed WHERE error IS NULL ORDER BY lineno;

-- xdmod: names, states, exit codes, times, ReqMem per CPU (c) and per node (n), TRES
SELECT lineno, cluster, partition, account, "user", "group", qos, state, cancelled_by, exit_code, signal
FROM parsed WHERE block = 'xdmod' ORDER BY lineno;
SELECT lineno, submit, eligible, start, "end", elapsed_s, timelimit_s, ncpus, nnodes, req_mem_bytes
FROM parsed WHERE block = 'xdmod' ORDER BY lineno;
SELECT lineno, alloc_tres, req_tres FROM parsed WHERE block = 'xdmod' ORDER BY lineno;
SELECT lineno, extra FROM parsed WHERE block = 'xdmod' AND lineno IN (4, 6, 17) ORDER BY lineno;

-- reportseff: AllocCPUS as ncpus, 312.50G, MM:SS.mmm stays in extra (TotalCPU), steps
SELECT lineno, job_id, step, state, cancelled_by, elapsed_s, timelimit_s, ncpus, nnodes, req_mem_bytes,
       extra->>'TotalCPU' AS totalcpu, extra->>'MaxRSS' AS maxrss
FROM parsed WHERE block = 'reportseff' ORDER BY lineno;

-- slurm2sql: empty fields are NULL; a JSON Comment stays text in extra
SELECT lineno, job_id, step, "user", "group", state, cancelled_by, exit_code, signal, start, "end",
       extra->>'Comment' AS comment
FROM parsed WHERE block = 'slurm2sql' ORDER BY lineno;

-- apel: end before start, CPUTimeRAW and odd MaxRSS values kept as written
SELECT lineno, job_id, step, start, "end", elapsed_s, ncpus, extra->>'CPUTimeRAW' AS cputimeraw,
       extra->>'MaxRSS' AS maxrss
FROM parsed WHERE block LIKE 'apel%' ORDER BY lineno;

-- constructed edges and het jobs
SELECT lineno, job_id, state, exit_code, signal, elapsed_s, timelimit_s, ncpus, nnodes, req_mem_bytes,
       alloc_tres
FROM parsed WHERE block IN ('constructed_edges', 'hetjob_doc') ORDER BY lineno;
SELECT lineno, extra FROM parsed WHERE block = 'constructed_edges' ORDER BY lineno;
SELECT alloc_tres -> 'gres/gpu' AS gpus, alloc_tres -> 'gres/gpu:a100' AS a100,
       alloc_tres -> 'mem' AS mem_bytes
FROM parsed WHERE job_id = '7101';

-- epochs are exact; dates without a zone are read in tz (never the session TimeZone)
SELECT job_id, submit, eligible, start, "end" FROM parsed WHERE block = 'epoch_times';
SET timezone = 'America/New_York';
SELECT extract(epoch FROM (sacct_row(line, header)).submit) AS utc_default,
       extract(epoch FROM (sacct_row(line, header, 'Europe/Helsinki')).submit) AS helsinki,
       extract(epoch FROM (sacct_row(line, header, 'UTC')).submit) AS utc
FROM rows WHERE block = 'slurm2sql' AND line LIKE '43974388|%';
SET timezone = 'UTC';
SELECT (sacct_row(line, header, 'Europe/Helsinki')).start FROM rows
WHERE block = 'slurm2sql' AND line LIKE '43974388|%';

-- sacct_row and sacct_row_try agree on every good row
WITH good AS MATERIALIZED (
    SELECT r.* FROM rows r JOIN parsed p USING (lineno) WHERE p.error IS NULL)
SELECT count(*) AS good, count(*) FILTER (WHERE (sacct_row(line, header))::text IS DISTINCT FROM
                                                (sacct_row_try(line, header))::text) AS differ
FROM good;

-- the header may name the columns in any order and subset
SELECT job_id, step, state, cancelled_by, elapsed_s
FROM sacct_row('CANCELLED by 7|01:02:03|8.batch', 'State|Elapsed|JobID');
SELECT job_id, job_seq, array_job_id, array_task_id, anomalies
FROM sacct_row('123_[1-5%2]', 'jobid');
SELECT job_id, het_job_id, het_offset, job_seq, step FROM sacct_row('123+0.extern', 'JobID');
SELECT job_id, job_seq, step, anomalies FROM sacct_row('5_7.1|9.2', 'JobID|JobIDRaw');
SELECT req_mem_bytes, anomalies FROM sacct_row('3000Mc', 'ReqMem');
SELECT req_mem_bytes, anomalies FROM sacct_row('1.step|2000Mn|2', 'JobID|ReqMem|NNodes');
SELECT alloc_tres, anomalies FROM sacct_row('cpu=4,mem=NONE,gres/gpumem=16G,bb/datawarp=2', 'AllocTRES');
SELECT state, anomalies FROM sacct_row('completed', 'State');
SELECT state, cancelled_by, anomalies FROM sacct_row('CANCELLED by someone', 'State');
SELECT timelimit_s, elapsed_s, anomalies FROM sacct_row('UNLIMITED|INVALID', 'Timelimit|Elapsed');
SELECT submit, anomalies FROM sacct_row('None', 'Submit');
SELECT job_id, anomalies FROM sacct_row(E'9\r', 'JobID');

-- errors: every message a user can meet
SELECT sacct_row('1|2', 'JobID|JobID');
SELECT sacct_row('1|2', 'JobID||State');
SELECT sacct_row('1', '');
SELECT sacct_row('', 'JobID');
SELECT sacct_row('1', 'JobID|State');
SELECT sacct_row('1|COMPLETED|x', 'JobID|State');
SELECT sacct_row('x1', 'JobID');
SELECT sacct_row('12x', 'JobID');
SELECT sacct_row('12_[1-3', 'JobID');
SELECT sacct_row('12_x', 'JobID');
SELECT sacct_row('12+', 'JobID');
SELECT sacct_row('12.b@tch', 'JobID');
SELECT sacct_row('12.', 'JobIDRaw');
SELECT sacct_row('a12', 'JobIDRaw');
SELECT sacct_row('0:x', 'ExitCode');
SELECT sacct_row('x:0', 'ExitCode');
SELECT sacct_row('2024-05-01 10:00', 'Submit');
SELECT sacct_row('2024-13-01T10:00:00', 'End');
SELECT sacct_row('1:60:00', 'Elapsed');
SELECT sacct_row('90', 'Timelimit');
SELECT sacct_row('4.5', 'NCPUS');
SELECT sacct_row('3000Mx', 'ReqMem');
SELECT sacct_row('cpu', 'AllocTRES');
SELECT sacct_row('cpu=four', 'ReqTRES');
SELECT sacct_row('cpu=1,cpu=2', 'AllocTRES');
SELECT sacct_row('gpu type=1', 'AllocTRES');
SELECT sacct_row('1', 'JobID', 'Mars/Olympus_Mons');
SELECT job_id, error FROM sacct_row_try('1|2', 'JobID');
SELECT job_id, error FROM sacct_row_try('1', 'JobID|JobID');

-- slurm_duration
SELECT s, slurm_duration(s) FROM (VALUES ('3-00:00:00'), ('14:00:49'), ('00:00:00'), ('16:01.272'),
    ('00:00.001'), ('451-06:00:24'), ('2-07:51:43'), ('1-12'), ('1-12:30'), ('00:59'),
    ('UNLIMITED'), ('Partition_Limit'), ('Unknown'), ('unlimited'), ('INVALID'), ('')) v(s);
SELECT slurm_duration(NULL);
SELECT slurm_duration('90');
SELECT slurm_duration('1-24:00:00');
SELECT slurm_duration('01:60');
SELECT slurm_duration('5.5');
SELECT slurm_duration('1:2:3:4');
SELECT slurm_duration('-01:00:00');
SELECT slurm_duration('01:00:');

-- sacctmgr associations: every block of the sample file (blocks start with "### block: NAME")
CREATE TEMP TABLE araw (lineno bigserial, line text);
\copy araw(line) FROM 'sql/data/sacctmgr_assoc_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE adocs AS
SELECT b.name AS block, string_agg(l.line, E'\n' ORDER BY l.lineno) AS doc
FROM (SELECT lineno, line,
             max(lineno) FILTER (WHERE line LIKE '### block: %') OVER (ORDER BY lineno) AS bstart
      FROM araw) l
JOIN (SELECT lineno, substr(line, 12) AS name FROM araw WHERE line LIKE '### block: %') b
  ON b.lineno = l.bstart
WHERE l.lineno > l.bstart
GROUP BY b.name;
SELECT a.* FROM adocs d, sacctmgr_assoc(d.doc) a WHERE d.block = 'sacctmgr_man_dump_example';
SELECT a.* FROM adocs d, sacctmgr_assoc(d.doc) a WHERE d.block = 'sacctmgr_dump_constructed';
SELECT a.* FROM adocs d, sacctmgr_assoc(d.doc) a WHERE d.block = 'sacctmgr_show_assoc_test_130_2';
-- tree format: the Account column indented one space per level, no ParentName
SELECT * FROM sacctmgr_assoc(E'Cluster|Account|User|Partition|Share\n'
    'c|root|||1\nc| phys|||20\nc| phys|ann|gpu|3\nc|  qc|||parent\nc| chem|||10');

-- the pipeline: the test 130_2 association tree with the sshare RawUsage of its users, through
-- share_tree and fairshare (classic), next to the values sshare printed for it
CREATE TEMP TABLE sshare AS
SELECT nullif(split_part(line, '|', 1), '') AS account, nullif(split_part(line, '|', 2), '') AS "user",
       split_part(line, '|', 4)::float8 AS norm_shares, split_part(line, '|', 5)::float8 AS raw_usage,
       split_part(line, '|', 7)::float8 AS effective_usage, split_part(line, '|', 8)::float8 AS fairshare
FROM (SELECT unnest(string_to_array(doc, E'\n')) AS line FROM adocs WHERE block = 'sshare_l_p_test_130_2') s
WHERE line NOT LIKE 'Account|%';
CREATE TEMP TABLE tree130 AS
SELECT share_tree(a.path, a.shares, coalesce(s.raw_usage, 0), a.shares_from_parent) AS t
FROM adocs d, sacctmgr_assoc(d.doc) a
LEFT JOIN sshare s ON s."user" = a."user" AND s.account = a.account
WHERE d.block = 'sacctmgr_show_assoc_test_130_2' AND nlevel(a.path) > 0
  AND a."user" IS DISTINCT FROM 'root'; -- sshare's listing (NormShares 40/150) has no root user
SELECT f.path, f.raw_shares, round(f.norm_shares::numeric, 6) AS norm_shares, f.raw_usage,
       round(f.effective_usage::numeric, 6) AS effective_usage, round(f.fairshare::numeric, 6) AS fairshare,
       s.norm_shares AS sshare_norm, s.effective_usage AS sshare_effective, s.fairshare AS sshare_fs
FROM tree130, fairshare(t, 'classic') f
LEFT JOIN sshare s ON s.account = CASE WHEN f.is_leaf THEN subpath(f.path, -2, 1)::text ELSE leaf(f.path) END
                  AND s."user" IS NOT DISTINCT FROM CASE WHEN f.is_leaf THEN leaf(f.path) END
ORDER BY f.path;

-- the sacct pipeline: allocation rows (no steps) of the constructed block charge billing x elapsed
-- to their association; the tree comes from a dump of the same cluster's accounts
CREATE TEMP TABLE assoc AS SELECT * FROM sacctmgr_assoc($$
Cluster - 'c1':Fairshare=1
Parent - 'root'
Account - 'science':Fairshare=2
Account - 'geo':Fairshare=1
Parent - 'science'
Account - 'phys':Fairshare=3
Account - 'chem':Fairshare=2
Account - 'bio':Fairshare=2147483647
Account - 'astro':Fairshare=1
Parent - 'phys'
User - 'ann':Fairshare=1
Parent - 'chem'
User - 'bo':Fairshare=1
Parent - 'bio'
User - 'cy':Fairshare=1
Parent - 'geo'
User - 'dee':Fairshare=1
Parent - 'astro'
User - 'eve':Fairshare=1
$$);
CREATE TEMP TABLE jobs (
    cluster text NOT NULL, job_id_raw text NOT NULL, submit timestamptz NOT NULL, step text NOT NULL,
    job_id text, account text, "user" text, state text, elapsed_s float8, alloc_tres resvec,
    anomalies text[],
    PRIMARY KEY (cluster, job_id_raw, submit, step));
-- the upsert: allocations and steps keyed on (cluster, JobIDRaw, Submit, step); '' for the allocation
CREATE TEMP VIEW load AS
SELECT coalesce(p.cluster, 'c1') AS cluster, p.job_id_raw, p.submit, coalesce(p.step, '') AS step,
       p.job_id, p.account, p."user", p.state, p.elapsed_s, p.alloc_tres, p.anomalies
FROM parsed p WHERE p.block = 'constructed_edges' AND p.error IS NULL;
INSERT INTO jobs SELECT * FROM load ON CONFLICT DO NOTHING;
SELECT count(*) AS jobs, md5(string_agg(j::text, ',' ORDER BY j.job_id_raw, j.submit, j.step)) AS digest
FROM jobs j;
-- the requeued job keeps both runs (same JobIDRaw, another Submit)
SELECT job_id, submit, state, elapsed_s FROM jobs WHERE job_id_raw = '7105' ORDER BY submit;
-- a reload of the same rows changes nothing
INSERT INTO jobs SELECT * FROM load ON CONFLICT DO NOTHING;
SELECT count(*) AS jobs, md5(string_agg(j::text, ',' ORDER BY j.job_id_raw, j.submit, j.step)) AS digest
FROM jobs j;
MERGE INTO jobs j USING load l
ON (j.cluster, j.job_id_raw, j.submit, j.step) = (l.cluster, l.job_id_raw, l.submit, l.step)
WHEN MATCHED AND (j.*)::text IS DISTINCT FROM (l.*)::text THEN UPDATE SET state = l.state
WHEN NOT MATCHED THEN INSERT VALUES (l.*);
SELECT count(*) AS jobs, md5(string_agg(j::text, ',' ORDER BY j.job_id_raw, j.submit, j.step)) AS digest
FROM jobs j;
-- usage per association: billing x elapsed of allocations (steps are not charged)
SELECT a.path, sum((j.alloc_tres -> 'billing') * j.elapsed_s) AS usage
FROM jobs j JOIN assoc a ON a.account = j.account AND a."user" = j."user"
WHERE j.step = '' GROUP BY a.path ORDER BY a.path;
SELECT f.path, f.raw_shares, round(f.norm_shares::numeric, 6) AS norm_shares, f.raw_usage,
       round(f.effective_usage::numeric, 6) AS effective_usage, round(f.fairshare::numeric, 6) AS fairshare
FROM fairshare((
    SELECT share_tree(a.path, a.shares, coalesce(u.usage, 0), a.shares_from_parent)
    FROM assoc a
    LEFT JOIN (SELECT j.account, j."user", sum((j.alloc_tres -> 'billing') * j.elapsed_s) AS usage
               FROM jobs j WHERE j.step = '' GROUP BY 1, 2) u
      ON u.account = a.account AND u."user" = a."user"
    WHERE nlevel(a.path) > 0), 'classic') f
ORDER BY f.path;

-- sacctmgr errors name the line
SELECT * FROM sacctmgr_assoc(E'Cluster - c\nParent - root\nAccount - a\nAccount - a');
SELECT * FROM sacctmgr_assoc(E'Parent - root\nAcount - a');
SELECT * FROM sacctmgr_assoc(E'Parent root');
SELECT * FROM sacctmgr_assoc(E'Account - \'\'');
SELECT * FROM sacctmgr_assoc(E'Parent - physics');
SELECT * FROM sacctmgr_assoc(E'Account - a:Fairshare=lots');
SELECT * FROM sacctmgr_assoc(E'Account - ' || repeat('x', 256));
SELECT * FROM sacctmgr_assoc(E'Cluster|Account|User\nc|root|');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\na||1');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\na|u|1|');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\na||1|b');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\na||1|root\na||1|root');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\n||1|root');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share|ParentName\nroot||1|\na|||root');
SELECT * FROM sacctmgr_assoc(E'Account|User|Share\n  a||1');
-- a flat listing (sacctmgr show assoc -P, no ParentName, no tree option) does not say where an
-- account hangs: an error, not every account put under root
SELECT * FROM sacctmgr_assoc(E'Account|User|Share\nroot||1\nbio||1\nbio_1||1\nbio_1|fsu3|1');
-- the same accounts with the tree option's indentation
SELECT path, shares FROM sacctmgr_assoc(E'Account|User|Share\nroot||1\n bio||1\n  bio_1||1\n  bio_1|fsu3|1');
SELECT * FROM sacctmgr_assoc('');

-- a header of 80,000 columns is read in linear time (the duplicate check was quadratic: 6 s,
-- past a 3 s statement_timeout even on an idle machine), and once per query: the rows share the parsed header
CREATE TEMP TABLE wide AS
-- (the first column is JobName: a header must name one known column)
SELECT string_agg(CASE g WHEN 1 THEN 'JobName' ELSE 'c' || g END, '|' ORDER BY g) AS header, string_agg(g::text, '|' ORDER BY g) AS line
FROM generate_series(1, 80000) g;
SET statement_timeout = '3s';
SELECT p.error, (SELECT count(*) FROM jsonb_object_keys(p.extra)) AS extra_keys, p.extra ->> 'c80000' AS last
FROM wide, sacct_row(line, header) p;
SELECT count(*) AS rows, count(*) FILTER (WHERE p.error IS NULL) AS read
FROM wide, generate_series(1, 5) r, sacct_row_try(r || substr(line, 2), header) p;
SELECT sacct_row(line, header || '|c79999') FROM wide;
RESET statement_timeout;
-- a new header text in the same query is parsed anew, a failed one is not kept as a good one
SELECT n, p.job_id, p."user", p.error
FROM (VALUES (1, '1|x', 'JobID|User'), (2, 'y|2', 'User|JobID'), (3, '3|z', 'JobID|User'),
             (4, '4', 'JobID|JobID'), (5, '5', 'JobID'), (6, '6', 'JobID|JobID')) v(n, line, header),
     sacct_row_try(line, header) p ORDER BY n;

-- tz: a UTC offset PostgreSQL accepts (below 16 hours either way); POSIX offsets count west
SELECT (sacct_row('2024-01-01T00:00:00', 'Submit', tz => '+15:59')).submit;
SELECT (sacct_row('2024-01-01T00:00:00', 'Submit', tz => '<+1559>-15:59')).submit;
SELECT (sacct_row('2024-01-01T00:00:00', 'Submit', tz => '+99')).submit;
SELECT (sacct_row_try('1', 'JobID', tz => '-16')).job_id;
SELECT (sacct_row('2024-01-01T00:00:00', 'Submit', tz => 'UTC+16')).submit;
-- a zone with a daylight-saving rule is checked at each date it converts
SELECT (sacct_row('2024-01-15T00:00:00', 'Submit', tz => 'AAA+3BBB-99,M3.2.0,M11.1.0')).submit;
SELECT (sacct_row('2024-07-15T00:00:00', 'Submit', tz => 'AAA+3BBB-99,M3.2.0,M11.1.0')).submit;

-- a deep dump: 100 nested accounts with 250-byte names, then 200 users under the deepest; the
-- rows keep their labels and each path is written when its row is emitted (memory in
-- proportion to the document, not to the paths' total)
CREATE TEMP TABLE deep AS
SELECT E'Cluster - \'c\'\n' || string_agg(format(E'Parent - \'%s\'\nAccount - \'%s\':Fairshare=%s',
                                                 CASE WHEN g = 1 THEN 'root' ELSE lpad((g - 1)::text, 250, 'a') END,
                                                 lpad(g::text, 250, 'a'), g), E'\n' ORDER BY g)
       || format(E'\nParent - \'%s\'\n', lpad('100', 250, 'a'))
       || (SELECT string_agg(format(E'User - \'%s\'', lpad(u::text, 250, 'u')), E'\n' ORDER BY u)
           FROM generate_series(1, 200) u) AS doc,
       string_agg(lpad(g::text, 250, 'a'), '.' ORDER BY g) AS chain
FROM generate_series(1, 100) g;
SELECT count(*) AS rows, max(nlevel(a.path)) AS depth, sum(octet_length(a.path::text)) AS path_bytes,
       count(*) FILTER (WHERE a."user" IS NOT NULL
                        AND a.path = (d.chain || '.' || a."user")::sharepath) AS users_right,
       count(*) FILTER (WHERE a."user" IS NULL AND a.line > 1
                        AND a.path = (SELECT string_agg(lpad(g::text, 250, 'a'), '.' ORDER BY g)
                                      FROM generate_series(1, a.shares::int) g)::sharepath) AS accounts_right
FROM deep d, sacctmgr_assoc(d.doc) a;
-- many accounts of one name in many clusters, and many users of one name: linear lookups
SELECT count(*), count(DISTINCT cluster), count(DISTINCT path)
FROM sacctmgr_assoc((SELECT string_agg(format(E'Cluster - c%s\nParent - root\nAccount - a\nParent - a\nUser - u\nUser - u', c), E'\n')
                     FROM generate_series(1, 5000) c));

-- Another --delimiter and --noheader exports, real rows of two sites (sql/data/sacct_site_exports.txt):
-- Peregrine's come from the slurm-jobinfo project's test data (sacct --parsable --noheader
-- --delimiter=☃; its --format list with the NTasks and TRESUsage columns its rows carry),
-- Phillips's from XDMoD's reference data (sacct --parsable2 --noheader, XDMoD's --format list)
CREATE TEMP TABLE xraw (lineno bigserial, line text);
\copy xraw(line) FROM 'sql/data/sacct_site_exports.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE xformat (block text, header text, delimiter text);
INSERT INTO xformat VALUES
  ('peregrine', 'JobID,JobName,User,Partition,NodeList,NNodes,ncpus,NTasks,State,Submit,start,end,'
                'timelimit,elapsed,TotalCPU,UserCPU,SystemCPU,ReqMem,MaxRSS,TRESUsageInTot,'
                'TRESUsageOutTot,MaxDiskWrite,MaxDiskRead,MaxRSSNode,MaxDiskWriteNode,'
                'MaxDiskReadNode,Comment', '☃'),
  ('phillips', 'jobid,jobidraw,cluster,partition,qos,account,group,gid,user,uid,submit,eligible,'
               'start,end,elapsed,exitcode,state,nnodes,ncpus,reqcpus,reqmem,reqtres,alloctres,'
               'timelimit,nodelist,jobname', '|');
CREATE TEMP TABLE xrows AS
SELECT l.lineno, b.name AS block, l.line
FROM (SELECT lineno, line,
             max(lineno) FILTER (WHERE line LIKE '# block: %') OVER (ORDER BY lineno) AS bstart
      FROM xraw) l
JOIN (SELECT lineno, substr(line, 10) AS name FROM xraw WHERE line LIKE '# block: %') b
  ON b.lineno = l.bstart
WHERE l.line NOT LIKE '#%';
-- every row read with its --format list and delimiter (hand-derived: 20872560 ran
-- 1-06:51:32 = 111092 s of a 8-00:00:00 = 691200 s limit with 100G per node on 1 node;
-- 165381 has 8000M per node on 8 nodes = 64000M = 67108864000 bytes, as its ReqTRES mem=62.50G)
SELECT x.lineno, x.block, p.job_id, p.step, p."user", p.state, p.ncpus, p.nnodes, p.elapsed_s,
       p.timelimit_s, p.req_mem_bytes, p.start, p.anomalies, p.error
FROM xrows x JOIN xformat f USING (block),
     LATERAL sacct_row_try(x.line, f.header, 'UTC', f.delimiter) p ORDER BY x.lineno;
SELECT p.extra FROM xrows x JOIN xformat f USING (block),
     LATERAL sacct_row(x.line, f.header, delimiter => f.delimiter) p WHERE x.lineno = 4;
-- the same rows as they were loaded before the delimiter argument: a header of no known
-- column (the first row of a --noheader export, or a header split on the wrong delimiter) is
-- refused, with a hint about both
SELECT sacct_row(x.line, (SELECT line FROM xrows WHERE lineno = 3)) FROM xrows x WHERE lineno = 4;
SELECT (sacct_row_try(x.line, (SELECT line FROM xrows WHERE lineno = 9))).error
FROM xrows x WHERE lineno = 10;
SELECT sacct_row('1;|;COMPLETED', 'JobID;|;State');
SELECT (sacct_row('1;|;COMPLETED', 'JobID;|;State', delimiter => ';|;')).state;
SELECT (sacct_row('7^|^a^|^b^|^FAILED', 'JobID^|^JobName^|^State', delimiter => '^|^')).anomalies;
-- a header line split on another delimiter, and --format= as written on the command line
SELECT (sacct_row('5☃RUNNING', 'JobID☃State', delimiter => '☃')).state,
       (sacct_row('5☃RUNNING', '--format=jobid,state%20', delimiter => '☃')).state;
-- a --format list keeps its names for extra, widths dropped
SELECT (sacct_row('5|x|RUNNING', 'jobid,jobname%30,state')).extra;
-- the parsed header is kept per header and delimiter: the same header text with another
-- delimiter in one query is parsed anew
SELECT n, p.job_id, p.state, p.error
FROM (VALUES (1, '1|A', '|'), (2, '2;B', ';'), (3, '3|C', '|'), (4, '4|D', ';')) v(n, line, d),
     sacct_row_try(line, 'JobID|State', 'UTC', d) p ORDER BY n;
-- the delimiter's errors: both raise in both forms
SELECT sacct_row('1', 'JobID', delimiter => '');
SELECT sacct_row_try('1', 'JobID', delimiter => repeat('x', 65));
SELECT sacct_row(NULL, 'JobID', delimiter => '|') IS NULL AS strict;

-- ReqMem with the per-CPU flag of Slurm before 17.02 in bit 31 (93% of XDMoD's Phillips rows):
-- 2147486648Mn is 2^31 + 3000, so 3000M per CPU; hand-derived: 167758 8 × 3000M = 24000M,
-- 996759 8 × 2800M = 22400M, 995612 1 × 4000M, 1007588 8 × 6400M = 51200M = 50G, as ReqTRES says
SELECT x.lineno, p.job_id, p.ncpus, p.req_mem_bytes, p.req_mem_bytes / 1048576 AS req_mem_mb,
       p.req_mem_bytes = p.req_tres -> 'mem' AS as_req_tres, p.anomalies
FROM xrows x JOIN xformat f USING (block),
     LATERAL sacct_row(x.line, f.header, delimiter => f.delimiter) p
WHERE x.line ~ '\|21474[0-9]{5}Mn\|' ORDER BY x.lineno;
-- the 64-bit form, and sacct 21.08's print without the n
SELECT (sacct_row('1|8|9223372036854778808Mn', 'JobID|NCPUS|ReqMem')).req_mem_bytes / 1048576 AS mb64,
       (sacct_row('1|2|2147483748M', 'JobID|NCPUS|ReqMem')).req_mem_bytes / 1048576 AS mb_nosuffix,
       (sacct_row('1|2|2147483748M', 'JobID|NCPUS|ReqMem')).anomalies;
-- not the flag: bit 32, and a per-CPU value as written
SELECT (sacct_row('1|1|4294967296Mn', 'JobID|NNodes|ReqMem')).req_mem_bytes / 1048576 AS mb_bit32,
       (sacct_row('1|1|2147486648Mc', 'JobID|NCPUS|ReqMem')).anomalies AS per_cpu_as_written;

-- ---------------------------------------------------------------- values no scheduler writes
-- the site rows above in their sites' zones (Groningen, Buffalo): the new anomalies
SELECT x.lineno, x.block, p.job_id, a
FROM xrows x JOIN xformat f USING (block),
     LATERAL sacct_row_try(x.line, f.header,
                           CASE x.block WHEN 'peregrine' THEN 'Europe/Amsterdam' ELSE 'America/New_York' END,
                           f.delimiter) p, unnest(p.anomalies) a
WHERE a ~ '^(far|cut|implausible|ambiguous|nonexistent)' ORDER BY x.lineno, a;
-- local times across Helsinki's clock changes of 2024: 03:30 on 31 March does not exist (03:00
-- EET became 04:00 EEST), read at +02:00 (01:30 UTC); 03:30 on 27 October occurs twice (04:00
-- EEST became 03:00 EET), read at +02:00 (01:30 UTC; the other reading is 00:30 UTC); 02:59:59
-- and 04:00:00 of either day are plain
SELECT n, p.start, p.anomalies
FROM (VALUES (1, '2024-03-31T03:30:00'), (2, '2024-03-31T02:59:59'), (3, '2024-03-31T04:00:00'),
             (4, '2024-10-27T03:30:00'), (5, '2024-10-27T02:59:59'), (6, '2024-10-27T04:00:00')) v(n, t),
     sacct_row('1|' || t, 'JobID|Start', 'Europe/Helsinki') p ORDER BY n;
-- the same stamps in UTC and in a fixed offset have no clock change
SELECT (sacct_row('1|2024-03-31T03:30:00', 'JobID|Start')).anomalies,
       (sacct_row('1|2024-03-31T03:30:00', 'JobID|Start', 'UTC-3')).anomalies;
-- Elapsed far from End - Start (600 s and 10% apart), Elapsed of 10^11 days, a cut Elapsed, and
-- a ReqMem of 10^23 TB; Elapsed across the fall-back hour is compared with the real span
SELECT n, p.elapsed_s, p.anomalies
FROM (VALUES (1, '2024-01-01T10:00:00|2024-01-01T10:20:00|00:30:00'),  -- 1800 s against 1200 s: 600 s apart, not more
             (2, '2024-01-01T10:00:00|2024-01-01T10:20:00|00:30:01'),
             (3, '2024-01-01T00:00:00|2024-01-01T02:00:00|01:48:00'),  -- 6480 s against 7200 s: 720 s, 10%
             (4, '2024-01-01T00:00:00|2024-01-01T02:00:00|01:47:59'),
             (5, '2024-10-27T02:30:00|2024-10-27T04:30:00|03:00:00'),  -- Helsinki: 3 hours really passed
             (6, '|2024-01-01T02:00:00|100000000000-00:00:00'),
             (7, '||23:0')) v(n, r),
     sacct_row('1|' || r || '|COMPLETED', 'JobID|Start|End|Elapsed|State', 'Europe/Helsinki') p ORDER BY n;
SELECT (sacct_row('1|1|100000000000000000000000T', 'JobID|NCPUS|ReqMem')).anomalies,
       (sacct_row('1|1|1048576T', 'JobID|NCPUS|ReqMem')).anomalies AS one_eib;
-- ElapsedRaw (seconds) and TimelimitRaw (minutes) give elapsed_s and timelimit_s when there is
-- no Elapsed or Timelimit column: a line of SLURM 22.05.8's sacct --parsable2
-- --format=JobIDRaw,...,ElapsedRaw,TimelimitRaw,... (a job of 11 s with a 5-minute limit)
SELECT r.job_id_raw, r.elapsed_s, r.timelimit_s, r.ncpus, r.extra->>'ElapsedRaw' AS elapsed_raw,
       r.error
FROM sacct_row('1|main|normal|2026-12-02T00:56:38|2026-12-02T00:56:38|11|5|1|1|62.50G|billing=1,cpu=1,mem=62.50G,node=1|0:0',
               'JobIDRaw|Partition|QOS|Submit|Eligible|ElapsedRaw|TimelimitRaw|NCPUS|ReqCPUS|ReqMem|ReqTRES|DerivedExitCode') r;
SELECT r.elapsed_s, r.timelimit_s
FROM sacct_row('1.batch|11|', 'JobIDRaw|ElapsedRaw|TimelimitRaw') r;
SELECT r.timelimit_s FROM sacct_row('1|UNLIMITED', 'JobIDRaw|TimelimitRaw') r;
SELECT r.elapsed_s FROM sacct_row('1|00:00:12|11', 'JobIDRaw|Elapsed|ElapsedRaw') r;
SELECT sacct_row('1|1x', 'JobIDRaw|ElapsedRaw');

-- per-partition associations of one user: Berkeley Savio's sacctmgr -p show associations
-- user=paciorek (sql/data/wild/), 23 associations in 12 and 11 partitions under two accounts.
-- As Slurm keeps them, each is its own association, a sibling under its account labelled
-- user@partition (a plain "user" is the association without a partition).
\set savio `cat sql/data/wild/sacctmgr_savio_show_assoc_p.txt`
-- as written, the listing is refused: its header lacks the Priority column its rows have
SELECT count(*) FROM sacctmgr_assoc(:'savio');
-- a user= listing names no account rows: give them, with the five columns the tree needs
CREATE TEMP TABLE savio AS
SELECT E'Cluster|Account|User|Partition|Share|ParentName\nbrc|root|||1|\nbrc|fc_paciorek|||1|root\nbrc|co_stat|||1|root\n'
       || string_agg(array_to_string((string_to_array(l, '|'))[1:5], '|') || '|', E'\n' ORDER BY n)
       || E'\nbrc|co_stat|paciorek||4|' AS doc
FROM regexp_split_to_table(:'savio', E'\n') WITH ORDINALITY AS t(l, n) WHERE n > 1 AND l <> '';
SELECT line, account, "user", partition, path, shares FROM savio, sacctmgr_assoc(doc) ORDER BY line;
-- siblings: 12 under fc_paciorek (12 partitions), 12 under co_stat (11 and the partition-less one),
-- each its own node of the share tree
SELECT parent(path) AS account, count(*) AS associations, count(DISTINCT path) AS nodes
FROM savio, sacctmgr_assoc(doc) WHERE "user" IS NOT NULL GROUP BY 1 ORDER BY 1;
-- the old merge (one node per user and account), where a site wants it: drop the partition
SELECT DISTINCT CASE WHEN partition IS NULL THEN path ELSE parent(path) || "user" END AS merged
FROM savio, sacctmgr_assoc(doc) WHERE "user" IS NOT NULL ORDER BY 1;
-- a joined label over 255 bytes is refused, naming its line
SELECT * FROM sacctmgr_assoc(E'Cluster|Account|User|Partition|Share|ParentName\nc|root|||1|\nc|a|||1|root\nc|a|'
                             || repeat('u', 200) || '|' || repeat('p', 60) || '|1|');
