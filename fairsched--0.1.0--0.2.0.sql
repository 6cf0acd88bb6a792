-- fairsched 0.1.0 -> 0.2.0: every change to the SQL objects since 0.1.0, in order. Each change to
-- a piece in src/sql that alters an object must be repeated here (ALTER, CREATE OR REPLACE, ...);
-- test/upgrade_test.sh proves that an updated 0.1.0 database has the same catalogue and values
-- as a fresh 0.2.0 one.

\echo Use "ALTER EXTENSION fairsched UPDATE TO '0.2.0'" to load this file. \quit

-- msic_default_mem: the rule msic_cycle applies, in C (was the same rule written in SQL); a
-- negative or infinite amount is now an error
CREATE OR REPLACE FUNCTION fairsched.msic_default_mem(config fairsched.msic_config, queue text,
                                                      default_mem float8 DEFAULT NULL,
                                                      max_mem float8 DEFAULT NULL) RETURNS float8
AS 'MODULE_PATHNAME', 'msic_default_mem'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- comments that cite the MSIC-Cluster administrator's guide by its name
COMMENT ON TYPE fairsched.msic_config IS
    'The validated configuration of the MSIC-Cluster PBS scheduler: queues, prime time, load targets, FAIR_SHARE entries, holidays';
COMMENT ON FUNCTION fairsched.msic_job_order(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_job[], timestamptz, int, text) IS
    'The MSIC scheduler''s job flags and order: pending (Q, S) jobs in scheduling order with the comparison step that placed each, then running jobs by time left; rank ''share'' (the administrator''s guide) or ''usage'' (the original code)';
COMMENT ON FUNCTION fairsched.msic_rank(fairsched.msic_share, int, text) IS 'queue rank: share (the administrator''s guide) = past percentage / share percentage; usage (the original code) = past percentage truncated to an integer';

-- sacct_row, sacct_row_try: a delimiter argument (sacct --delimiter), --format lists as headers
DROP FUNCTION fairsched.sacct_row(text, text, text);
DROP FUNCTION fairsched.sacct_row_try(text, text, text);
CREATE FUNCTION fairsched.sacct_row(line text, header text, tz text DEFAULT 'UTC',
                                    delimiter text DEFAULT '|')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacct_row(text, text, text, text) IS 'parse one sacct --parsable2 row against its header line (or the --format list of a --noheader export), split on delimiter (sacct --delimiter); dates without a zone are read in tz; malformed rows and a header that names no known column raise 22P02 naming the character';

CREATE FUNCTION fairsched.sacct_row_try(line text, header text, tz text DEFAULT 'UTC',
                                        delimiter text DEFAULT '|')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacct_row_try(text, text, text, text) IS 'sacct_row for bulk loads: a malformed row or header gives NULL fields and the reason in error instead of raising';


-- condor_history, condor_history_try: an anomalies column; an attribute set twice in an ad keeps
-- its last value (HTCondor's rule) instead of failing the ad
DROP FUNCTION fairsched.condor_history(text);
DROP FUNCTION fairsched.condor_history_try(text);
CREATE FUNCTION fairsched.condor_history(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, anomalies text[])
    AS 'MODULE_PATHNAME', 'condor_history' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history(text) IS 'one row per HTCondor job ad of condor_history -l output or a history file (ads end at a blank line or a "***" banner; "#" lines are comments): typed columns matched case-insensitively (request_memory in bytes from MiB; completion_date NULL when CompletionDate is 0, i.e. not completed; a column is NULL when its attribute is missing, undefined or an unevaluated expression), attrs with every attribute typed (numbers, strings, booleans, undefined as null, anything else as {"expr": text}), line the ad''s first line, anomalies what was odd but read (an attribute set twice keeps its last value, as HTCondor does); a bad ad raises an error naming its line';

CREATE FUNCTION fairsched.condor_history_try(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, anomalies text[], error text)
    AS 'MODULE_PATHNAME', 'condor_history_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history_try(text) IS 'condor_history without raising on a bad ad: its row has only ad, line and the reason in error, and reading goes on with the next ad';
