-- pbsacct: PBS Pro / OpenPBS / TORQUE accounting log lines and the PBS usage formula (docs/loading.md)
-- The line parsers state COST 1000 (about 2.5 cost units a line, what one takes against a
-- sequential scan's costs; docs/performance.md): with the default COST 1 PostgreSQL never plans
-- a CREATE TABLE AS over a staging table in parallel.

CREATE TYPE fairsched.pbs_record AS (
    log_time        timestamp,
    record_type     text,
    job_id          text,
    job_seq         bigint,
    array_index     int4,
    is_array_parent boolean,
    server          text,
    "user"          text,
    "group"         text,
    account         text,
    project         text,
    queue           text,
    jobname         text,
    ctime           timestamptz,
    qtime           timestamptz,
    etime           timestamptz,
    start           timestamptz,
    "end"           timestamptz,
    exit_status     int4,
    run_count       int4,
    session         bigint,
    used            fairsched.resvec,
    requested       fairsched.resvec,
    requested_text  jsonb,
    exec_hosts      text[],
    exec_host_cpus  int4[],
    attrs           jsonb,
    anomalies       text[],
    error           text
);
COMMENT ON TYPE fairsched.pbs_record IS 'one PBS / OpenPBS / TORQUE accounting log line, typed: log_time as written (local, no zone), the job id split, epochs as exact timestamptz (0 reads as NULL), resources_used and Resource_List amounts as resvecs, exec_host hosts with their CPU counts, every pair in attrs, anomalies, and the reason in error when pbs_acct_try could not read the line';

CREATE FUNCTION fairsched.pbs_acct(line text) RETURNS fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_acct' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.pbs_acct(text) IS 'read one PBS accounting line (date;type;id;key=value ...); a malformed line raises 22P02 naming the character';

CREATE FUNCTION fairsched.pbs_acct_try(line text) RETURNS fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_acct_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.pbs_acct_try(text) IS 'pbs_acct for bulk loads: a malformed line gives a record whose fields are NULL and whose error says why';

CREATE FUNCTION fairsched.pbs_acct_attrs(line text)
    RETURNS TABLE(ord int4, key text, value text)
    AS 'MODULE_PATHNAME', 'pbs_acct_attrs' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_acct_attrs(text) IS 'the key=value pairs of a PBS accounting line in order, values unquoted and as written';

CREATE FUNCTION fairsched.pbs_usage(formula text, used fairsched.resvec) RETURNS float8
    AS 'MODULE_PATHNAME', 'pbs_usage' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_usage(text, fairsched.resvec) IS 'PBS fairshare_usage_res: the formula (numbers, resource names, + - * / **, parentheses, ceil floor trunc fabs abs sqrt exp log log10 log2 pow fmod min max round, pi, e) over the amounts in PBS units: sizes in kb rounded up, durations in seconds, counts as they are, a missing resource 0';

CREATE FUNCTION fairsched.pbs_qstat_json(doc jsonb, tz text DEFAULT 'UTC')
    RETURNS SETOF fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_qstat_json' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.pbs_qstat_json(jsonb, text) IS 'the jobs of a qstat -f -F json (or qstat -x -f -F json) document as the records pbs_acct gives for the accounting line of their state (E finished, S running, Q waiting); its dates are read in zone tz, the server''s; a value of the wrong type raises 22023 naming the job and the attribute';
