-- condorhist: HTCondor job ads from condor_history -l and history files (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET TimeZone = 'UTC';

-- the sample file, verbatim, split into its "# block: NAME" blocks; line 1 of a block is the
-- line after its header
\set chfile `cat sql/data/condor_history_samples.txt`
CREATE TEMP TABLE ch_lines AS
SELECT n, l, sum((l LIKE '# block: %')::int) OVER (ORDER BY n) AS b
FROM string_to_table(:'chfile', E'\n') WITH ORDINALITY AS t(l, n);
CREATE TEMP TABLE ch_blocks AS
SELECT b, max(substr(l, 10)) FILTER (WHERE l LIKE '# block: %') AS block,
       string_agg(l, E'\n' ORDER BY n) FILTER (WHERE l NOT LIKE '# block: %') AS doc
FROM ch_lines GROUP BY b;
SELECT b, block, array_length(string_to_array(doc, E'\n'), 1) AS lines FROM ch_blocks ORDER BY b;

-- HTCondor's own test.old.ad: CompletionDate 0 (not completed) gives NULL, RequestMemory is an
-- unevaluated expression (NULL column, kept in attrs), no AccountingGroup, RequestGpus absent
SELECT ad, global_job_id, owner, accounting_group, job_status, request_cpus, request_memory,
       request_gpus, remote_wall_clock_s, cumulative_slot_s, completion_date, line
FROM ch_blocks, condor_history(doc) WHERE block = 'htcondor_test_old_ad';
-- every attribute is in attrs, typed: one key per "Name = value" line of the ad
SELECT (SELECT count(*) FROM jsonb_object_keys(attrs)) AS attributes,
       (SELECT count(*) FROM ch_lines WHERE b = ch_blocks.b AND l LIKE '% = %') AS lines_with_values
FROM ch_blocks, condor_history(doc) WHERE block = 'htcondor_test_old_ad';
SELECT k, attrs -> k AS value, jsonb_typeof(attrs -> k) AS type
FROM ch_blocks, condor_history(doc),
     unnest(ARRAY['RequestMemory', 'RequestDisk', 'Requirements', 'LeaveJobInQueue', 'CurrentTime',
                  'HoldReason', 'TransferOutputRemaps', 'Rank', 'RemoteSysCpu', 'OnExitHold',
                  'OnExitRemove', 'CompletionDate', 'CondorPlatform', 'Environment',
                  'x509userproxysubject', 'JobUniverse']) AS k
WHERE block = 'htcondor_test_old_ad';

-- condor_history -l prints a blank line after each ad; the history file a "***" banner
SELECT block, ad, owner, job_status, line, attrs
FROM ch_blocks, condor_history(doc)
WHERE block IN ('htcondor_two_long_ads', 'htcondor_two_history_ads') ORDER BY b, ad;

-- the completed, evicted job: by hand, AccountingGroup group_physics.alice is the path
-- group_physics.alice; RequestMemory 8192 MiB = 8589934592 bytes; CompletionDate 1713260000 =
-- 2024-04-16 09:33:20 UTC; it ran twice (NumJobStarts 2): 600 s from JobStartDate 1713255800
-- to 1713256400, then 3600 s to CompletionDate, so RemoteWallClockTime 4200 > CommittedTime
-- 3600; CumulativeSlotTime 16800 = 4200 x 4 cores; Args "--input \"run 1\".dat" decodes to
-- --input "run 1".dat
SELECT ad, global_job_id, owner, accounting_group, job_status, request_cpus, request_memory,
       request_gpus, remote_wall_clock_s, cumulative_slot_s, completion_date, line
FROM ch_blocks, condor_history(doc) WHERE block = 'constructed_completed_ad';
SELECT attrs ->> 'Args' AS args, attrs -> 'CommittedTime' AS committed,
       attrs -> 'MemoryUsage' AS memory_usage, attrs -> 'ExitBySignal' AS exit_by_signal,
       nlevel(accounting_group) AS levels, leaf(accounting_group) AS entity,
       request_memory = 8192 * 1048576.0 AS mib_to_bytes,
       completion_date = to_timestamp(1713260000) AS epoch,
       cumulative_slot_s = remote_wall_clock_s * request_cpus AS slot_time
FROM ch_blocks, condor_history(doc) WHERE block = 'constructed_completed_ad';

-- -format output (APEL: GlobalJobId|Owner|RemoteWallClockTime|...) has no attribute names:
-- condor_history stops with an error; condor_history_try reports the ad and goes on
SELECT ad FROM ch_blocks, condor_history(doc) WHERE block = 'apel_condor_history_format';
SELECT ad, line, error FROM ch_blocks, condor_history_try(doc)
WHERE block = 'apel_condor_history_format';

-- the whole file at once (the block headers are "#" comments): every ad is parsed or listed
-- with its reason; the -format lines are one ad (no blank line between them)
SELECT ad, line, global_job_id, owner, job_status, error IS NULL AS parsed, error
FROM condor_history_try(:'chfile') ORDER BY ad;

-- strings as the old-ClassAd writer prints them: only the quote is escaped, a backslash is
-- itself (also two of them, a UNC path), a backslash before the closing quote is a backslash,
-- a raw newline inside a string continues the value; names keep their spelling, typed columns
-- match them case-insensitively; CRLF files read the same
SELECT owner, global_job_id, accounting_group, job_status, request_cpus, attrs
FROM condor_history(E'owner = "carol"\r\nGLOBALJOBID = "s#1.0#1"\r\naccountinggroup = "group_chem.carol"\r\n' ||
                    E'jobstatus = 4\r\nREQUESTCPUS = 2\r\nCmd = "C:\\dir\\"\r\nUnc = "\\\\srv\\share"\r\n' ||
                    E'Both = "a\\\\"b"\r\nEnv = "A=1\nB=2"\r\nFlag = TRUE\r\nNone = UNDEFINED\r\n' ||
                    E'List = { 1,2 }\r\nNested = [ a = 1; b = "x" ]\r\nInf = real("INF")\r\nBig = 1E+20\r\n');
-- the same attributes one by one (attrs ->> decodes the JSON string); by hand the texts are
-- C:\dir\ (a backslash before the closing quote), \\srv\share (two backslashes kept),
-- a\"b (a raw backslash, then an escaped quote), A=1 newline B=2, --input "run 1".dat
SELECT k, attrs -> k AS json, attrs ->> k AS text
FROM condor_history(E'Cmd = "C:\\dir\\"\nUnc = "\\\\srv\\share"\nBoth = "a\\\\"b"\nEnv = "A=1\nB=2"\nArgs = "--input \\"run 1\\".dat"'),
     unnest(ARRAY['Cmd', 'Unc', 'Both', 'Env', 'Args']) AS k;
-- an accounting group without a group is the user alias: a one-level path
SELECT accounting_group, nlevel(accounting_group) FROM condor_history('AccountingGroup = "alice"');

-- a name set twice (case-insensitively) keeps its last value, as HTCondor does, with an anomaly
SELECT ad, owner, attrs, anomalies FROM condor_history(E'Owner = "a"\nowner = "b"');

-- every error, with its DETAIL and HINT
\set VERBOSITY default
SELECT ad FROM condor_history(E'Owner = "a"\n\nRequestCpus = "4"');
SELECT ad FROM condor_history('Owner = 5');
SELECT ad FROM condor_history('JobStatus = 4.5');
SELECT ad FROM condor_history('JobStatus = true');
SELECT ad FROM condor_history(E'Cmd = "abc\nX = 1\n\nY = 2');
SELECT ad FROM condor_history('Cmd =');
SELECT ad FROM condor_history('Foo.Bar = 1');
SELECT ad FROM condor_history('Foo 1');
SELECT ad FROM condor_history('AccountingGroup = "group_a..alice"');
SELECT ad FROM condor_history('AccountingGroup = ""');
SELECT ad FROM condor_history('AccountingGroup = "' || repeat('x', 256) || '.alice"');
SELECT ad FROM condor_history('CompletionDate = -1');
SELECT ad FROM condor_history('CompletionDate = 1e15');
-- CompletionDate converts exactly, never through a double: the last second of timestamptz
-- came out as 294276-12-31 23:59:58.999552; a real is rounded to the microsecond, half to even
SELECT completion_date FROM condor_history(E'CompletionDate = 9224318015999');
SELECT completion_date FROM condor_history(E'CompletionDate = 9224318015999.999999');
SELECT ad FROM condor_history(E'CompletionDate = 9224318016000');
SELECT ad FROM condor_history(E'CompletionDate = 9224318015999.9999995');
SELECT completion_date, completion_date - to_timestamp(1713260000) AS fraction
FROM condor_history(E'CompletionDate = 1713260000.1234565\n\nCompletionDate = 1.7132600001234575e9');
SELECT ad FROM condor_history('RequestMemory = 1.5E+305');
-- empty input, comments and banners only, and NULL: no ads
SELECT count(*) FROM condor_history('');
SELECT count(*) FROM condor_history(E'# nothing\n*** Offset = 0\n\n');
SELECT count(*) FROM condor_history(NULL);

-- the pipeline: parse every ad (a parallel-capable CREATE TABLE AS), upsert the jobs on
-- GlobalJobId, and charge each accounting group CumulativeSlotTime when present, else
-- RemoteWallClockTime x slot weight (SlotWeight = Cpus, HTCondor's default); an ad without
-- AccountingGroup is charged to its Owner. Two more completed jobs, written by hand, join the
-- sample's: bob 1000 s x 2 cores in group_physics, dave (no group) 300 s x 1 core
CREATE TEMP TABLE condor_jobs (
    global_job_id text PRIMARY KEY, owner text, entity sharepath NOT NULL, job_status int,
    completion_date timestamptz, usage float8 NOT NULL, attrs jsonb NOT NULL);
\set extra 'AccountingGroup = "group_physics.bob"\nGlobalJobId = "ap1.example.org#813.0#1713250100"\nOwner = "bob"\nJobStatus = 4\nRemoteWallClockTime = 1000.0\nRequestCpus = 2\nCompletionDate = 1713261000\n\nGlobalJobId = "ap1.example.org#814.0#1713250200"\nOwner = "dave"\nJobStatus = 4\nRemoteWallClockTime = 300.0\nRequestCpus = 1\nCompletionDate = 1713262000\n'
CREATE TEMP TABLE parsed AS
SELECT d.src, p.*
FROM (SELECT block AS src, doc FROM ch_blocks UNION ALL SELECT 'by hand', :'extra') d,
     condor_history_try(d.doc) p;
-- what cannot be loaded, and why: ads with an error, and ads without a GlobalJobId (no key)
SELECT src, ad, line, owner, coalesce(error, 'no GlobalJobId: the ad cannot be keyed') AS reason
FROM parsed WHERE error IS NOT NULL OR global_job_id IS NULL ORDER BY src, ad;
SELECT count(*) AS ads, count(*) FILTER (WHERE error IS NULL AND global_job_id IS NOT NULL) AS loadable
FROM parsed;
WITH ins AS (
    INSERT INTO condor_jobs
    SELECT global_job_id, owner, coalesce(accounting_group, ''::sharepath || owner), job_status,
           completion_date, coalesce(cumulative_slot_s, remote_wall_clock_s * request_cpus, 0), attrs
    FROM parsed WHERE error IS NULL AND global_job_id IS NOT NULL
    ON CONFLICT (global_job_id) DO NOTHING
    RETURNING 1)
SELECT count(*) AS inserted FROM ins;
SELECT global_job_id, owner, entity, job_status, completion_date, usage FROM condor_jobs ORDER BY 1;
-- by hand: group_physics.alice 16800 (CumulativeSlotTime), group_physics.bob 1000 x 2 = 2000,
-- dave 300 x 1 = 300, bbockelm 0; group_physics 18800; root 19100
CREATE TEMP TABLE usage_tree AS SELECT share_tree(entity, NULL, usage) AS t FROM condor_jobs;
SELECT path, depth, is_leaf, own_usage, usage FROM usage_tree, tree_nodes(t);
-- loading the same file again changes nothing
WITH ins AS (
    INSERT INTO condor_jobs
    SELECT global_job_id, owner, coalesce(accounting_group, ''::sharepath || owner), job_status,
           completion_date, coalesce(cumulative_slot_s, remote_wall_clock_s * request_cpus, 0), attrs
    FROM parsed WHERE error IS NULL AND global_job_id IS NOT NULL
    ON CONFLICT (global_job_id) DO NOTHING
    RETURNING 1)
SELECT count(*) AS inserted FROM ins;
SELECT count(*) AS jobs,
       (SELECT share_tree(entity, NULL, usage) FROM condor_jobs)::text = (SELECT t::text FROM usage_tree) AS same_tree
FROM condor_jobs;

-- PARALLEL SAFE: a parallel CREATE TABLE AS spreads the parsing of many documents (one per
-- history file) over workers, with the same rows as a serial parse
CREATE TABLE condor_docs AS
SELECT g, block || ' ' || g AS src, doc FROM ch_blocks, generate_series(1, 50) g;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
CREATE TABLE condor_parsed AS SELECT d.src, p.* FROM condor_docs d, condor_history_try(d.doc) p;
CREATE TABLE condor_parsed AS SELECT d.src, p.* FROM condor_docs d, condor_history_try(d.doc) p;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS ads, count(error) AS errors,
       count(*) = (SELECT count(*) FROM condor_docs d, condor_history_try(d.doc)) AS same_count,
       NOT EXISTS (SELECT d.src, p.* FROM condor_docs d, condor_history_try(d.doc) p
                   EXCEPT ALL SELECT * FROM condor_parsed) AS same_rows
FROM condor_parsed;
DROP TABLE condor_parsed, condor_docs;

-- HTCondor 7.4 per-job history files (PER_JOB_HISTORY_DIR) name attributes twice: the cluster
-- ad's value first, the job's own later (three files of CHTC jobs, from the OSG Gratia probe's
-- test input). Hand-derived from the first file: CompletionDate 0 (line 6) then 1290672370
-- (line 115) = 2010-11-25 08:06:10 UTC; RemoteWallClockTime 0.000000 then 910; 14 names repeated
\set perjob `cat sql/data/condor_history_per_job_7.4.txt`
SELECT ad, line, global_job_id, owner, job_status, request_cpus, remote_wall_clock_s,
       completion_date, cardinality(anomalies) AS repeated, error
FROM condor_history_try(:'perjob');
SELECT unnest(anomalies) FROM condor_history(:'perjob') WHERE ad = 1;
SELECT attrs -> 'CompletionDate' AS completion, attrs -> 'NumJobStarts' AS starts,
       attrs -> 'ImageSize' AS image_size, (SELECT count(*) FROM jsonb_object_keys(attrs)) AS names
FROM condor_history(:'perjob') WHERE ad = 1;
