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

-- live scheduler state: decayed_usage(), the + operator, decayed_charge, with_half_life; value()
-- is defined before the last instant too (docs/live-state.md)
CREATE FUNCTION fairsched.decayed_usage(value float8, at timestamptz, half_life interval)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_make' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage(value float8, at timestamptz, half_life interval, model text)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_make' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decayed_usage(float8, timestamptz, interval) IS 'one charge: value at instant at, decaying with half_life; add it to a stored usage with +';
COMMENT ON FUNCTION fairsched.decayed_usage(float8, timestamptz, interval, text) IS 'one charge decaying as a model does: exact, condor (as exact) or slurm (the exact half-life equal to SLURM''s per-second factor)';
CREATE OPERATOR fairsched.+ (
    LEFTARG = fairsched.decayed_usage,
    RIGHTARG = fairsched.decayed_usage,
    FUNCTION = fairsched.decayed_usage_combine,
    COMMUTATOR = OPERATOR(fairsched.+)
);
COMMENT ON OPERATOR fairsched.+ (fairsched.decayed_usage, fairsched.decayed_usage) IS 'sum of two decayed usages: both decayed to the later instant, then added; the half-lives must match';
CREATE FUNCTION fairsched.decayed_charge(rate float8, run_start timestamptz, run_end timestamptz,
                                         half_life interval, model text DEFAULT 'exact')
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_charge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decayed_charge(float8, timestamptz, timestamptz, interval, text) IS 'the exact decayed charge of rate over [run_start, run_end], as of run_end: a running job''s usage sample or its end';
CREATE FUNCTION fairsched.with_half_life(d fairsched.decayed_usage, half_life interval,
                                         model text DEFAULT 'exact')
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_with_half_life' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.with_half_life(fairsched.decayed_usage, interval, text) IS 'the same value at the same instant, decaying from then on with a new half-life';
COMMENT ON FUNCTION fairsched.value(fairsched.decayed_usage, timestamptz) IS 'a decayed sum read at any instant: decayed after its last instant, the decay law run backwards before it';
CREATE FUNCTION fairsched.half_life(d fairsched.decayed_usage) RETURNS interval
    AS 'MODULE_PATHNAME', 'decayed_usage_half_life' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.half_life(fairsched.decayed_usage) IS 'the half-life a decayed usage decays with (charge a stored usage with it to match)';
CREATE FUNCTION fairsched.last_instant(d fairsched.decayed_usage) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'decayed_usage_last_instant' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.last_instant(fairsched.decayed_usage) IS 'the instant a decayed usage''s value is as of: its latest charge';

-- the PBS job_sort_formula (priority): the pbs_formula type, pbs_formula() and pbs_formula_value()
CREATE TYPE fairsched.pbs_formula;

CREATE FUNCTION fairsched.pbs_formula_in(cstring) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) RETURNS cstring
    AS 'MODULE_PATHNAME', 'pbs_formula_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_recv(internal) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pbs_formula_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.pbs_formula (
    INPUT = fairsched.pbs_formula_in,
    OUTPUT = fairsched.pbs_formula_out,
    RECEIVE = fairsched.pbs_formula_recv,
    SEND = fairsched.pbs_formula_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.pbs_formula IS 'a PBS job_sort_formula (a Python expression over numeric resources and PBS''s keywords), validated, stored and printed as its text';
COMMENT ON FUNCTION fairsched.pbs_formula_in(cstring) IS 'text input of pbs_formula: PBS''s validation with the built-in resources only (15123, 15124, 15125)';
COMMENT ON FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) IS 'text output of pbs_formula: the formula as written';
COMMENT ON FUNCTION fairsched.pbs_formula_recv(internal) IS 'binary input of pbs_formula (validated like text input)';
COMMENT ON FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) IS 'binary output of pbs_formula (a format version byte, then the text)';

CREATE FUNCTION fairsched.pbs_formula(formula text, resourcedef text DEFAULT NULL)
    RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula(text, text) IS 'PBS''s validation of a job_sort_formula, with the site''s custom resources from the text of a resourcedef file: 15123 Invalid Formula Format, 15124 Formula contains invalid keyword, 15125 Formula contains a resource of an invalid type';

CREATE FUNCTION fairsched.pbs_formula_value(f fairsched.pbs_formula, requested fairsched.resvec,
                                            queue_priority int DEFAULT 0,
                                            job_priority int DEFAULT 0,
                                            eligible_time interval DEFAULT '0',
                                            fairshare_perc float8 DEFAULT NULL,
                                            fairshare_tree_usage float8 DEFAULT NULL,
                                            on_error text DEFAULT 'zero',
                                            accrue_type int DEFAULT 0) RETURNS float8
    AS 'MODULE_PATHNAME', 'pbs_formula_value' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula_value(fairsched.pbs_formula, fairsched.resvec, int, int, interval, float8, float8, text, int) IS 'the job_sort_formula value PBS stores for a job (a 32-bit float): requested resources in kb and seconds with 4 decimals (0 when not requested), the fairshare keywords with 6 decimals, fairshare_factor = 2^-(usage/perc); an evaluation error gives 0 and a NOTICE with PBS''s log text (on_error => ''raise'' raises it)';

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

-- sacct_json: sacct --json documents (every data parser since Slurm 21.08)
CREATE FUNCTION fairsched.sacct_json(doc jsonb)
    RETURNS SETOF fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_json' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    COST 1000 ROWS 100;
COMMENT ON FUNCTION fairsched.sacct_json(jsonb) IS 'the jobs and steps of a sacct --json document (every data parser since Slurm 21.08: dbv0.0.37, dbv0.0.38, v0.0.39 to v0.0.42), one fairsched.sacct_record per job and per step, as sacct_row reads the rows sacct --parsable2 prints for them; a value of the wrong type raises 22023 naming the job and the field';


-- slurm_jobcomp: Slurm jobcomp/filetxt completion records
CREATE FUNCTION fairsched.slurm_jobcomp(line text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'slurm_jobcomp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_jobcomp(text, text) IS 'one line of the Slurm jobcomp/filetxt completion log (JobId=... UserId=name(uid) ... ExitCode=status:signal) as the fairsched.sacct_record sacct_row reads from the row sacct --parsable2 prints for the same job; dates are read in tz, elapsed_s is End - Start; a malformed line raises 22P02 naming the character';
CREATE FUNCTION fairsched.slurm_jobcomp_try(line text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'slurm_jobcomp_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_jobcomp_try(text, text) IS 'slurm_jobcomp for bulk loads: a malformed line gives NULL fields and the reason in error instead of raising';

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
COMMENT ON FUNCTION fairsched.condor_history(text) IS 'one row per HTCondor job ad of condor_history -l output or a history file (ads end at a blank line or a "***" banner; "#" lines are comments), or of condor_history -json (an array of ads) or -jsonl (an ad per line) output, each read as its -l lines ("/Expr(...)/" strings as expressions, null as undefined): typed columns matched case-insensitively (request_memory in bytes from MiB; completion_date NULL when CompletionDate is 0, i.e. not completed; a column is NULL when its attribute is missing, undefined or an unevaluated expression), attrs with every attribute typed (numbers, strings, booleans, undefined as null, anything else as {"expr": text}), line the ad''s first line, anomalies what was odd but read (an attribute set twice keeps its last value, as HTCondor does); a bad ad raises an error naming its line';

CREATE FUNCTION fairsched.condor_history_try(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, anomalies text[], error text)
    AS 'MODULE_PATHNAME', 'condor_history_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history_try(text) IS 'condor_history without raising on a bad ad: its row has only ad, line and the reason in error, and reading goes on with the next ad';

-- slurm_priority: SLURM's priority/multifactor plugin: its parameters (docs/job-priority.md).

-- the priority parameters of slurm.conf, as slurmctld reads them (slurm_priority_config)
CREATE TYPE fairsched.slurm_priority_config AS (
    version text,
    priority_type text,
    weight_age bigint,
    weight_assoc bigint,
    weight_fairshare bigint,
    weight_jobsize bigint,
    weight_partition bigint,
    weight_qos bigint,
    weight_tres text,
    max_age interval,
    favor_small boolean,
    flags text[],
    calc_period interval
);
COMMENT ON TYPE fairsched.slurm_priority_config IS
    'SLURM''s priority/multifactor parameters as slurmctld stores them: the release, PriorityType, the six PriorityWeight* (0 to 4294967295), PriorityWeightTRES as written, PriorityMaxAge (whole minutes), PriorityFavorSmall, PriorityFlags as canonical names, PriorityCalcPeriod';

CREATE FUNCTION fairsched.slurm_priority_config(conf text, version text DEFAULT NULL)
    RETURNS fairsched.slurm_priority_config
    AS 'MODULE_PATHNAME', 'slurm_priority_config' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_priority_config(text, text) IS 'the priority parameters of slurm.conf text or scontrol show config output, with SLURM''s defaults and its reading (PriorityFlags by substring, PriorityMaxAge in minutes rounded up, TRES weight units); the release is version, else the SLURM_VERSION line, else the newest known (NULL conf gives NULL)';

-- a pending (or running) job as SLURM knows it, with its partition's normalisation context
CREATE TYPE fairsched.slurm_job AS (
    job_id text,
    "user" text,
    account text,
    partition text,
    qos text,
    submit_time timestamptz,
    accrue_time timestamptz,
    min_nodes int,
    cpus int,
    time_limit interval,
    tres fairsched.resvec,
    fairshare float8,
    assoc_priority bigint,
    partition_factor int,
    partition_tier int,
    partition_max_time interval,
    partition_tres fairsched.resvec,
    qos_priority bigint,
    site_factor bigint,
    nice bigint,
    direct_priority bigint,
    previous_priority bigint
);
COMMENT ON TYPE fairsched.slurm_job IS
    'a pending (or running) SLURM job for its priority: accrue_time NULL when not accruing, time_limit NULL for the partition''s, tres requested (allocated when running), the association''s fair-share factor and priority, the partition''s PriorityJobFactor, PriorityTier, MaxTime and TRES totals, the QOS priority, site factor, nice, an admin-set priority and the previous priority (INCR_ONLY)';

-- what SLURM normalises by: the cluster's size and the maxima over everything configured
CREATE TYPE fairsched.slurm_cluster AS (
    nodes int,
    cpus int,
    max_assoc_priority bigint,
    max_partition_factor int,
    max_qos_priority bigint
);
COMMENT ON TYPE fairsched.slurm_cluster IS
    'what SLURM''s multifactor plugin normalises by: the active nodes and CPUs, and the highest association priority, PriorityJobFactor and QOS priority over ALL configured associations, partitions and QOS';

-- one job's priority, its weighted terms and its normalised factors
CREATE TYPE fairsched.slurm_priority AS (
    priority bigint,
    priority_sum float8,
    site float8,
    age float8,
    assoc float8,
    fairshare float8,
    jobsize float8,
    partition float8,
    qos float8,
    nice float8,
    tres fairsched.resvec,
    age_factor float8,
    assoc_factor float8,
    fairshare_factor float8,
    jobsize_factor float8,
    partition_factor float8,
    qos_factor float8,
    tres_factors fairsched.resvec,
    direct boolean
);
COMMENT ON TYPE fairsched.slurm_priority IS
    'a job''s priority as SLURM stores it (floor 1, truncated, capped at 2^32-1, INCR_ONLY applied), the sum before floor and truncation, the weighted terms (site, age, assoc, fairshare, jobsize, partition, qos, nice, tres per TRES), the normalised factors, and whether an admin set it';

CREATE FUNCTION fairsched.slurm_priority(config fairsched.slurm_priority_config,
                                         job fairsched.slurm_job,
                                         cluster fairsched.slurm_cluster, as_of timestamptz)
    RETURNS fairsched.slurm_priority
    AS 'MODULE_PATHNAME', 'slurm_priority' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_priority(fairsched.slurm_priority_config, fairsched.slurm_job, fairsched.slurm_cluster, timestamptz) IS 'the priority SLURM''s priority/multifactor plugin gives a job at the calculation pass as_of: every factor, NO_NORMAL_*, the floor of 1, truncation, the 32-bit cap, INCR_ONLY and an admin-set priority, for the job''s partition and QOS';

CREATE FUNCTION fairsched.sprio(config fairsched.slurm_priority_config,
                                jobs fairsched.slurm_job[], cluster fairsched.slurm_cluster,
                                as_of timestamptz, options text DEFAULT '-l')
    RETURNS TABLE(line text)
    AS 'MODULE_PATHNAME', 'sprio' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sprio(fairsched.slurm_priority_config, fairsched.slurm_job[], fairsched.slurm_cluster, timestamptz, text) IS 'the lines sprio prints for these jobs at the calculation pass as_of, header first, byte for byte as the configured release prints them, for the options -l, -n, -w (alone or together) or none (the default layout: a column per non-zero weight); cells rounded, PRIORITY recomputed from them and uncapped';
