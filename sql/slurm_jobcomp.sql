-- slurm_jobcomp: Slurm jobcomp/filetxt completion records (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';
SET extra_float_digits = 0;
\i sql/data/sqlstate_of.sql

-- The SAFE project's test file (Slurm 19.05: Gres= where later releases write Tres=), verbatim
CREATE TEMP TABLE raw (lineno bigserial, line text);
\copy raw(line) FROM 'sql/data/slurm_jobcomp_safe.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02', FORCE_NOT_NULL (line))
CREATE TEMP TABLE parsed AS
SELECT r.lineno, p.* FROM raw r, LATERAL slurm_jobcomp(r.line, 'America/Chicago') p;
SELECT lineno, job_id, job_id_raw, job_seq, array_job_id AS aj, array_task_id AS at, "user",
       "group", account, partition, qos, cluster, state, exit_code AS ec, signal AS sig
FROM parsed ORDER BY lineno;
SELECT lineno, submit, eligible, start, "end", elapsed_s, timelimit_s, ncpus, nnodes, req_tres,
       alloc_tres, anomalies
FROM parsed ORDER BY lineno;
SELECT lineno, jsonb_pretty(extra) FROM parsed WHERE lineno = 1;

-- A Slurm 23.02 record of an array task with spaces in Name= and WorkDir= (and a "key=" inside
-- the directory), and the row sacct --parsable2 prints for the same job: the same record
CREATE TEMP TABLE twoways AS
SELECT 'jobcomp' AS how, (slurm_jobcomp(
    'JobId=68 UserId=sbooth(73964) GroupId=sbooth(1000) Name=my job.sh JobState=TIMEOUT '
    'Partition=debug TimeLimit=1505 StartTime=2019-11-18T22:41:14 EndTime=2019-11-19T02:41:24 '
    'NodeList=n[1-2] NodeCnt=2 ProcCnt=8 WorkDir=/home/s b/run a=1 ReservationName= '
    'Tres=cpu=8,mem=4G,node=2,billing=8 Account=testaccount QOS=normal WcKey= Cluster=cluster '
    'SubmitTime=2019-11-18T22:34:53 EligibleTime=unknown ArrayJobId=40 ArrayTaskId=27 '
    'DerivedExitCode=0:0 ExitCode=0:15 ', 'Europe/Helsinki')).*
UNION ALL
SELECT 'sacct', (sacct_row(
    '40_27|68|sbooth|73964|sbooth|1000|my job.sh|TIMEOUT|debug|1-01:05:00|2019-11-18T22:41:14|'
    '2019-11-19T02:41:24|04:00:10|n[1-2]|2|8|/home/s b/run a=1||cpu=8,mem=4G,node=2,billing=8|'
    'testaccount|normal||cluster|2019-11-18T22:34:53|Unknown|0:0|0:15',
    'JobID|JobIDRaw|User|UID|Group|GID|JobName|State|Partition|Timelimit|Start|End|Elapsed|'
    'NodeList|NNodes|NCPUS|WorkDir|Reservation|ReqTRES|Account|QOS|WCKey|Cluster|Submit|'
    'Eligible|DerivedExitCode|ExitCode', 'Europe/Helsinki')).*;
SELECT how, job_id, "user", state, signal, start, "end", elapsed_s, timelimit_s, ncpus, req_tres,
       extra ->> 'WorkDir' AS workdir, extra ->> 'JobName' AS name, extra ->> 'UID' AS uid,
       anomalies
FROM twoways ORDER BY how;
-- every column is the same (extra but for the null ReqGRES the jobcomp header names)
SELECT count(DISTINCT (job_id, job_id_raw, job_seq, array_job_id, array_task_id, het_job_id,
                       het_offset, step, cluster, partition, account, "user", "group", qos, state,
                       cancelled_by, exit_code, signal, submit, eligible, start, "end", elapsed_s,
                       timelimit_s, ncpus, nnodes, req_mem_bytes, alloc_tres::text,
                       req_tres::text, anomalies, error)) AS distinct_records,
       count(DISTINCT jsonb_strip_nulls(extra)) AS distinct_extra
FROM twoways;

-- A heterogeneous job's component, UNLIMITED, a start never reached, Slurm's "(null)" node list
SELECT job_id, job_id_raw, het_job_id, het_offset, timelimit_s, start, "end", elapsed_s,
       nnodes, extra ->> 'NodeList' AS nodelist, extra ->> 'Reservation' AS resv, anomalies
FROM slurm_jobcomp('JobId=91 UserId=ann(5) GroupId=ann(5) Name=x JobState=CANCELLED Partition=p '
                   'TimeLimit=UNLIMITED StartTime=Unknown EndTime=2024-03-01T10:00:00 '
                   'NodeList=(null) NodeCnt=0 ProcCnt=0 WorkDir=/ ReservationName=r1 Tres= '
                   'Account=a QOS=q WcKey=w Cluster=c SubmitTime=2024-03-01T09:00:00 '
                   'EligibleTime=2024-03-01T09:00:00 HetJobId=90 HetJobOffset=1 '
                   'DerivedExitCode=0:0 ExitCode=0:0 ');
-- A user without "(uid)", NO_VAL as the limit, keys no release writes: kept in extra, reported
SELECT job_id, "user", timelimit_s, extra ->> 'BlockId' AS blockid, extra ->> 'ReqGRES' AS gres,
       extra ->> 'UID' AS uid, anomalies
FROM slurm_jobcomp('JobId=7 UserId=bob GroupId=users Name=a JobState=COMPLETED '
                   'TimeLimit=4294967294 Gres=gpu:2 BlockId=RMP1 Rotate=yes');
-- Days in the limit, a carriage return, the default zone (UTC)
SELECT job_id, timelimit_s, start, anomalies
FROM slurm_jobcomp(E'JobId=8 TimeLimit=2880 StartTime=2024-03-31T02:30:00 \r');
SELECT slurm_jobcomp(NULL) IS NULL AS null_line, slurm_jobcomp('JobId=1', NULL) IS NULL AS null_tz;

-- every error
SELECT slurm_jobcomp('');
SELECT slurm_jobcomp('UserId=a(1) JobId=1');
SELECT slurm_jobcomp('JobId= Name=a');
SELECT slurm_jobcomp('JobId=1 Partition=a b');
SELECT slurm_jobcomp('JobId=1 Name=a JobState=X JobState=Y');
SELECT slurm_jobcomp('JobId=1 UserId=a(x)');
SELECT slurm_jobcomp('JobId=1 TimeLimit=5m');
SELECT slurm_jobcomp('JobId=1 ArrayJobId=4');
SELECT slurm_jobcomp('JobId=1 HetJobOffset=4');
SELECT slurm_jobcomp(E'JobId=1 Account=a\x1fb');
SELECT slurm_jobcomp('JobId=1 StartTime=yesterday');
SELECT slurm_jobcomp('JobId=1 ' || (SELECT string_agg('K' || g || '=v', ' ') FROM generate_series(1, 33) g));
SELECT slurm_jobcomp('JobId=1', 'Mars/Olympus');
-- slurm_jobcomp_try: the reason in error, the record's fields NULL; the zone still raises
SELECT job_id, ncpus, error FROM slurm_jobcomp_try('JobId=1 TimeLimit=5m');
SELECT job_id, ncpus, error FROM slurm_jobcomp_try('JobId=2 ProcCnt=3');
SELECT job_id FROM slurm_jobcomp_try('JobId=1', 'Mars/Olympus');
SELECT pg_temp.sqlstate_of($$SELECT slurm_jobcomp('JobId=1 TimeLimit=x')$$) AS syntax,
       pg_temp.sqlstate_of($$SELECT slurm_jobcomp('JobId=1', 'Mars/Olympus')$$) AS zone;

-- with search_path unset, schema-qualified
RESET search_path;
SELECT (fairsched.slurm_jobcomp('JobId=5 UserId=u(1) ProcCnt=4')).ncpus;
