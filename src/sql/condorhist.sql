-- condorhist: HTCondor job ads from condor_history -l and history files (docs/loading.md)

CREATE FUNCTION fairsched.condor_history(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, anomalies text[])
    AS 'MODULE_PATHNAME', 'condor_history' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history(text) IS 'one row per HTCondor job ad of condor_history -l output or a history file (ads end at a blank line or a "***" banner; "#" lines are comments), or of condor_history -json (an array of ads) or -jsonl (an ad per line) output, each read as its -l lines ("/Expr(...)/" strings as expressions, null as undefined): typed columns matched case-insensitively (request_memory in bytes from MiB; completion_date NULL when CompletionDate is 0, i.e. not completed; a column is NULL when its attribute is missing, undefined or an unevaluated expression), attrs with every attribute typed (numbers, strings, booleans, undefined as null, anything else as {"expr": text}), line the ad''s first line, anomalies what was odd but read (an attribute set twice keeps its last value, as HTCondor does); a bad ad raises an error naming its line';

CREATE FUNCTION fairsched.condor_history_try(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, anomalies text[], error text)
    AS 'MODULE_PATHNAME', 'condor_history_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history_try(text) IS 'condor_history without raising on a bad ad: its row has only ad, line and the reason in error, and reading goes on with the next ad';
