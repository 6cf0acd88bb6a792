-- sacct: Slurm accounting rows (sacct --parsable2), durations and sacctmgr associations (docs/loading.md)

CREATE TYPE fairsched.sacct_record AS (
    job_id        text,
    job_id_raw    text,
    job_seq       bigint,
    array_job_id  bigint,
    array_task_id int4,
    het_job_id    bigint,
    het_offset    int4,
    step          text,
    cluster       text,
    partition     text,
    account       text,
    "user"        text,
    "group"       text,
    qos           text,
    state         text,
    cancelled_by  int4,
    exit_code     int4,
    signal        int4,
    submit        timestamptz,
    eligible      timestamptz,
    start         timestamptz,
    "end"         timestamptz,
    elapsed_s     float8,
    timelimit_s   float8,
    ncpus         int4,
    nnodes        int4,
    req_mem_bytes float8,
    alloc_tres    fairsched.resvec,
    req_tres      fairsched.resvec,
    extra         jsonb,
    anomalies     text[],
    error         text
);
COMMENT ON TYPE fairsched.sacct_record IS 'one sacct --parsable2 row: job id parts, names, normalised state, exit code and signal, times, durations in seconds, counts, whole-job requested memory in bytes, TRES as resvec, the other columns in extra, odd but readable values in anomalies, and the reason a row could not be read in error (sacct_row_try)';

CREATE FUNCTION fairsched.sacct_row(line text, header text, tz text DEFAULT 'UTC',
                                    delimiter text DEFAULT '|')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.sacct_row(text, text, text, text) IS 'parse one sacct --parsable2 row against its header line (or the --format list of a --noheader export), split on delimiter (sacct --delimiter); dates without a zone are read in tz; malformed rows and a header that names no known column raise 22P02 naming the character';

CREATE FUNCTION fairsched.sacct_row_try(line text, header text, tz text DEFAULT 'UTC',
                                        delimiter text DEFAULT '|')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.sacct_row_try(text, text, text, text) IS 'sacct_row for bulk loads: a malformed row or header gives NULL fields and the reason in error instead of raising';

CREATE FUNCTION fairsched.slurm_duration(text) RETURNS float8
    AS 'MODULE_PATHNAME', 'slurm_duration' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_duration(text) IS 'seconds of a Slurm duration ([D-]HH:MM:SS, MM:SS.mmm, D-HH[:MM]); NULL for UNLIMITED, Partition_Limit, Unknown, INVALID and the empty string';

CREATE FUNCTION fairsched.sacctmgr_assoc(doc text)
    RETURNS TABLE(line int4, cluster text, account text, "user" text, partition text,
                  path fairsched.sharepath, shares float8, shares_from_parent boolean)
    AS 'MODULE_PATHNAME', 'sacctmgr_assoc' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacctmgr_assoc(text) IS 'associations of a sacctmgr dump file or of sacctmgr show assoc -P output, with their share-tree path from the root; FairShare=parent (2147483647 in dumps) gives shares NULL and shares_from_parent true';

CREATE FUNCTION fairsched.sacct_json(doc jsonb)
    RETURNS SETOF fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_json' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    COST 1000 ROWS 100;
COMMENT ON FUNCTION fairsched.sacct_json(jsonb) IS 'the jobs and steps of a sacct --json document (every data parser since Slurm 21.08: dbv0.0.37, dbv0.0.38, v0.0.39 to v0.0.42), one fairsched.sacct_record per job and per step, as sacct_row reads the rows sacct --parsable2 prints for them; a value of the wrong type raises 22023 naming the job and the field';

CREATE FUNCTION fairsched.slurm_jobcomp(line text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'slurm_jobcomp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_jobcomp(text, text) IS 'one line of the Slurm jobcomp/filetxt completion log (JobId=... UserId=name(uid) ... ExitCode=status:signal) as the fairsched.sacct_record sacct_row reads from the row sacct --parsable2 prints for the same job; dates are read in tz, elapsed_s is End - Start; a malformed line raises 22P02 naming the character';
CREATE FUNCTION fairsched.slurm_jobcomp_try(line text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'slurm_jobcomp_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_jobcomp_try(text, text) IS 'slurm_jobcomp for bulk loads: a malformed line gives NULL fields and the reason in error instead of raising';
