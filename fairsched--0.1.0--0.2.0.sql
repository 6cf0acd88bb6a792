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

-- PBS's job order: the pbs_job composite, pbs_job_order() (fairshare from a sharetree) and
-- pbs_job_order_fairshare() (fairshare values given per entity)
CREATE TYPE fairsched.pbs_job AS (
    job_id text,
    owner fairsched.sharepath,
    queue text,
    queue_priority int,
    express boolean,
    job_priority int,
    requested fairsched.resvec,
    eligible_time interval,
    qtime timestamptz,
    accrue_type int
);
COMMENT ON TYPE fairsched.pbs_job IS 'a pending PBS job as pbs_job_order reads it: id, owner (the fairshare entity), queue and its Priority, express (NULL: queue_priority >= 150), job Priority, Resource_List, eligible_time (NULL: as_of - qtime), qtime, accrue_type';

CREATE FUNCTION fairsched.pbs_job_order_fairshare(f fairsched.pbs_formula, jobs fairsched.pbs_job[],
                                                  entities fairsched.sharepath[],
                                                  fairshare_perc float8[],
                                                  fairshare_tree_usage float8[],
                                                  fairshare_rank int[],
                                                  as_of timestamptz DEFAULT NULL,
                                                  threshold float8 DEFAULT NULL,
                                                  by_queue boolean DEFAULT true,
                                                  sort_keys text[] DEFAULT NULL)
    RETURNS TABLE(pos int, job_id text, queue text, value float8, eligible boolean,
                  decided_by text, comment text)
    AS 'MODULE_PATHNAME', 'pbs_job_order_fairshare' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_job_order_fairshare(fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharepath[], float8[], float8[], int[], timestamptz, float8, boolean, text[]) IS 'PBS''s order of pending jobs, as pbs_job_order, with each entity''s fairshare_perc, fairshare_tree_usage and fairshare rank given in arrays (as pbsfs prints them); entities NULL: fairshare off';

CREATE FUNCTION fairsched.pbs_job_order(f fairsched.pbs_formula, jobs fairsched.pbs_job[],
                                        tree fairsched.sharetree DEFAULT NULL,
                                        as_of timestamptz DEFAULT NULL,
                                        threshold float8 DEFAULT NULL,
                                        by_queue boolean DEFAULT true,
                                        sort_keys text[] DEFAULT NULL)
    RETURNS TABLE(pos int, job_id text, queue text, value float8, eligible boolean,
                  decided_by text, comment text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT o.pos, o.job_id, o.queue, o.value, o.eligible, o.decided_by, o.comment
    FROM (SELECT array_agg(s.path) AS paths, array_agg(s.norm_shares) AS perc,
                 array_agg(s.effective_usage) AS usage, array_agg(s.rank) AS rank
          FROM fairsched.fairshare($3, 'pbs') AS s) AS t,
         fairsched.pbs_job_order_fairshare($1, $2, t.paths, t.perc, t.usage, t.rank, $4, $5,
                                           $6, $7) AS o
$$;
COMMENT ON FUNCTION fairsched.pbs_job_order(fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharetree, timestamptz, float8, boolean, text[]) IS 'PBS''s order of pending jobs: with by_queue each queue by priority, then express jobs, the job_sort_formula value higher first (float32 ties), the fairshare rank of the owner in fairshare(tree, ''pbs''), the job_sort_key entries, qtime, the job id; jobs at or below threshold not eligible, with PBS''s comment; decided_by the key that placed each job after the one before';

-- pbs_eligible_time: a job's eligible_time from its accrue-type changes (the server's accrual)
CREATE FUNCTION fairsched.pbs_eligible_time_accum(internal, int, timestamptz) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_accum(internal, int, timestamptz) IS 'state function of pbs_eligible_time: keeps one accrue-type change';
CREATE FUNCTION fairsched.pbs_eligible_time_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_combine(internal, internal) IS 'combine function of pbs_eligible_time: the changes of two partial states together';
CREATE FUNCTION fairsched.pbs_eligible_time_serialize(internal) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_serialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_serialize(internal) IS 'serial function of pbs_eligible_time (parallel aggregation)';
CREATE FUNCTION fairsched.pbs_eligible_time_deserialize(bytea, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_deserialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_deserialize(bytea, internal) IS 'deserial function of pbs_eligible_time (parallel aggregation)';
CREATE FUNCTION fairsched.pbs_eligible_time_final(internal) RETURNS interval
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_final(internal) IS 'final function of pbs_eligible_time: the changes in time order, the eligible periods summed in whole seconds';
CREATE AGGREGATE fairsched.pbs_eligible_time(accrue_type int, at timestamptz) (
    SFUNC = fairsched.pbs_eligible_time_accum,
    STYPE = internal,
    COMBINEFUNC = fairsched.pbs_eligible_time_combine,
    SERIALFUNC = fairsched.pbs_eligible_time_serialize,
    DESERIALFUNC = fairsched.pbs_eligible_time_deserialize,
    FINALFUNC = fairsched.pbs_eligible_time_final,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.pbs_eligible_time(int, timestamptz) IS 'a job''s eligible_time as the PBS server accrues it from its accrue-type changes (0 initial, 1 ineligible, 2 eligible, 3 run, 4 exit): the changes sorted by time, each period of type 2 counted in whole seconds; rows need no ORDER BY (changes at one instant count in the order given)';

-- the what-if: a pending job from an accounting record, and two formulas' orders side by side
CREATE FUNCTION fairsched.pbs_job_from(r fairsched.pbs_record, queue_priority int DEFAULT 0,
                                       express boolean DEFAULT NULL,
                                       owner fairsched.sharepath DEFAULT NULL)
    RETURNS fairsched.pbs_job
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT ROW($1.job_id,
               coalesce($4, fairsched.sharepath_concat(''::fairsched.sharepath, $1."user")),
               $1.queue, coalesce($2, 0), $3, 0, $1.requested, NULL::interval, $1.qtime,
               NULL::int)::fairsched.pbs_job
$$;
COMMENT ON FUNCTION fairsched.pbs_job_from(fairsched.pbs_record, int, boolean, fairsched.sharepath) IS 'the pending job an accounting record describes: its id, owner (the user, or the path given), queue, Resource_List and qtime, with the queue''s Priority given; eligible_time NULL (pbs_job_order then counts as_of - qtime)';

CREATE FUNCTION fairsched.pbs_job_order_compare(old_formula fairsched.pbs_formula,
                                                new_formula fairsched.pbs_formula,
                                                jobs fairsched.pbs_job[],
                                                tree fairsched.sharetree DEFAULT NULL,
                                                as_of timestamptz DEFAULT NULL,
                                                threshold float8 DEFAULT NULL,
                                                by_queue boolean DEFAULT true,
                                                sort_keys text[] DEFAULT NULL,
                                                new_threshold float8 DEFAULT NULL)
    RETURNS TABLE(job_id text, queue text, old_pos int, new_pos int, moved int,
                  old_value float8, new_value float8, old_eligible boolean,
                  new_eligible boolean, new_decided_by text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT o.job_id, o.queue, o.pos, n.pos, o.pos - n.pos, o.value, n.value, o.eligible,
           n.eligible, n.decided_by
    FROM fairsched.pbs_job_order($1, $3, $4, $5, $6, $7, $8) AS o
    JOIN fairsched.pbs_job_order($2, $3, $4, $5, coalesce($9, $6), $7, $8) AS n
      ON n.job_id = o.job_id
    ORDER BY n.pos
$$;
COMMENT ON FUNCTION fairsched.pbs_job_order_compare(fairsched.pbs_formula, fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharetree, timestamptz, float8, boolean, text[], float8) IS 'the what-if of a job_sort_formula change: PBS''s order of the same jobs under the old and the new formula side by side, in the new order, moved = places gained; new_threshold NULL: the same threshold';

-- sacct_row, sacct_row_try: a delimiter argument (sacct --delimiter), --format lists as headers
DROP FUNCTION fairsched.sacct_row(text, text, text);
DROP FUNCTION fairsched.sacct_row_try(text, text, text);
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

-- the same priority alone (no result row): the fast form for ORDER BY and sums over many jobs
CREATE FUNCTION fairsched.slurm_priority_value(config fairsched.slurm_priority_config,
                                               job fairsched.slurm_job,
                                               cluster fairsched.slurm_cluster, as_of timestamptz)
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'slurm_priority_value' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_priority_value(fairsched.slurm_priority_config, fairsched.slurm_job, fairsched.slurm_cluster, timestamptz) IS 'slurm_priority(config, job, cluster, as_of).priority, the priority SLURM stores, alone: the same value and errors without building the result row (about half the time per job)';
CREATE FUNCTION fairsched.slurm_priority_value(config fairsched.slurm_priority_config,
                                               cluster fairsched.slurm_cluster, as_of timestamptz,
                                               submit_time timestamptz DEFAULT NULL,
                                               accrue_time timestamptz DEFAULT NULL,
                                               min_nodes int DEFAULT NULL, cpus int DEFAULT NULL,
                                               time_limit interval DEFAULT NULL,
                                               tres fairsched.resvec DEFAULT NULL,
                                               fairshare float8 DEFAULT NULL,
                                               assoc_priority bigint DEFAULT NULL,
                                               partition_factor int DEFAULT NULL,
                                               partition_max_time interval DEFAULT NULL,
                                               partition_tres fairsched.resvec DEFAULT NULL,
                                               qos_priority bigint DEFAULT NULL,
                                               site_factor bigint DEFAULT NULL,
                                               nice bigint DEFAULT NULL,
                                               direct_priority bigint DEFAULT NULL,
                                               previous_priority bigint DEFAULT NULL)
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'slurm_priority_value_fields' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_priority_value(fairsched.slurm_priority_config, fairsched.slurm_cluster, timestamptz, timestamptz, timestamptz, int, int, interval, fairsched.resvec, float8, bigint, int, interval, fairsched.resvec, bigint, bigint, bigint, bigint, bigint) IS 'the same priority with the job given field by field (slurm_job''s fields that the priority reads, each meaning what it means there, NULL included), as a table of typed columns holds jobs: no slurm_job value built and read per row; NULL config, cluster or as_of give NULL';

CREATE FUNCTION fairsched.sprio(config fairsched.slurm_priority_config,
                                jobs fairsched.slurm_job[], cluster fairsched.slurm_cluster,
                                as_of timestamptz, options text DEFAULT '-l')
    RETURNS TABLE(line text)
    AS 'MODULE_PATHNAME', 'sprio' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sprio(fairsched.slurm_priority_config, fairsched.slurm_job[], fairsched.slurm_cluster, timestamptz, text) IS 'the lines sprio prints for these jobs at the calculation pass as_of, header first, byte for byte as the configured release prints them, for the options -l, -n, -w (alone or together) or none (the default layout: a column per non-zero weight); cells rounded, PRIORITY recomputed from them and uncapped';

CREATE TYPE fairsched.hdrf_pool AS (path fairsched.sharepath, weight float8,
                                    strong_guarantee fairsched.resvec,
                                    resource_limits fairsched.resvec, mode text,
                                    strong_guarantee_tier int);
COMMENT ON TYPE fairsched.hdrf_pool IS 'a pool of vector_fair_share: its path, weight (NULL: 1), strong guarantee resources (resources it does not name are inferred from the main one) resource limits (NULL: none) and mode (fair_share, the default, or fifo: its operations one after another, in the order of the operations array) and strong guarantee tier (NULL: 0; when siblings'' guarantees overcommit their parent, lower tiers keep theirs first, the tier that overflows is scaled, later tiers get none)';

CREATE TYPE fairsched.hdrf_operation AS (path fairsched.sharepath, demand fairsched.resvec,
                                         usage fairsched.resvec, weight float8, gang boolean,
                                         resource_limits fairsched.resvec);
COMMENT ON TYPE fairsched.hdrf_operation IS 'an operation of vector_fair_share: its path (its pool''s, then its own name), demand (including what it uses), usage, weight (NULL: 1), gang flag and resource limits (NULL: none)';

CREATE FUNCTION fairsched.vector_fair_share(pools fairsched.hdrf_pool[],
                                            operations fairsched.hdrf_operation[],
                                            total fairsched.resvec,
                                            main_resource text DEFAULT 'cpu',
                                            gang_step boolean DEFAULT true,
                                            improved_fit_factor boolean DEFAULT false,
                                            fifo_reordering fairsched.sharepath[] DEFAULT '{}')
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_operation boolean, weight float8,
                  demand_share fairsched.resvec, usage_share fairsched.resvec,
                  limits_share fairsched.resvec, strong_guarantee_share fairsched.resvec,
                  fair_share fairsched.resvec, strong_part fairsched.resvec,
                  integral_part fairsched.resvec, weight_part fairsched.resvec,
                  suggestion float8, fit_factor float8, dominant_resource text,
                  dominant_fair_share float8, bound text, bound_resource text,
                  fifo_index int4, effective_fifo_index int4)
    AS 'MODULE_PATHNAME', 'vector_fair_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.vector_fair_share(fairsched.hdrf_pool[], fairsched.hdrf_operation[], fairsched.resvec, text, boolean, boolean, fairsched.sharepath[]) IS 'YTsaurus vector HDRF: the fair share vector of every pool and operation (shares of total), split into strong guarantee, integral and weight-proportional parts, with the suggestion, fit factor, dominant resource and what bound it; strong guarantees inferred, clipped and scaled as YTsaurus does; improved_fit_factor serialises children''s simultaneous jumps (EnableImprovedFairShareByFitFactorComputation), fifo_reordering names the FIFO pools whose gangs are reordered to use their guarantee (fifo_index and effective_fifo_index: the operation''s place in its FIFO pool and in the order used)';

CREATE FUNCTION fairsched.vector_fair_share_explain(pools fairsched.hdrf_pool[],
                                                    operations fairsched.hdrf_operation[],
                                                    total fairsched.resvec,
                                                    element fairsched.sharepath,
                                                    main_resource text DEFAULT 'cpu',
                                                    gang_step boolean DEFAULT true,
                                                    improved_fit_factor boolean DEFAULT false,
                                                    fifo_reordering fairsched.sharepath[] DEFAULT '{}')
    RETURNS TABLE(path fairsched.sharepath, depth int4, suggestion float8, fit_factor float8,
                  fair_share fairsched.resvec, bound text, bound_resource text, reason text)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH v AS MATERIALIZED (
        SELECT * FROM fairsched.vector_fair_share(pools, operations, total, main_resource, gang_step,
                                                  improved_fit_factor, fifo_reordering))
    SELECT v.path, v.depth, v.suggestion, v.fit_factor, v.fair_share, v.bound, v.bound_resource,
           CASE v.bound
               WHEN 'demand' THEN 'it has all it demands'
               WHEN 'limit' THEN format('its own limit of %s holds it', v.bound_resource)
               WHEN 'guarantee' THEN 'its parent gives it only its strong guarantee'
               WHEN 'weight' THEN format('it shares its parent''s fair share with its siblings by weight, at suggestion %s',
                                         round(v.suggestion::numeric, 6))
               WHEN 'gang' THEN 'a gang that does not fit whole: the jump resolves to 0'
               WHEN 'fifo' THEN format('it waits in its FIFO pool behind the operations ahead of it (place %s of its pool''s order)',
                                       coalesce(v.effective_fifo_index, v.fifo_index))
               WHEN 'cluster' THEN format('%s ran out in the cluster or in an ancestor',
                                          coalesce(v.bound_resource, 'every resource'))
               ELSE 'it demands nothing'
           END
    FROM v
    WHERE v.path OPERATOR(fairsched.@>) element
      AND EXISTS (SELECT FROM v AS w WHERE w.path OPERATOR(fairsched.=) element)
    ORDER BY v.depth;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'element "%" is not in the pool tree', element
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Name a pool or an operation of pools or operations, or one of their ancestors (the root is the empty path).';
    END IF;
END
$$;
COMMENT ON FUNCTION fairsched.vector_fair_share_explain(fairsched.hdrf_pool[], fairsched.hdrf_operation[], fairsched.resvec, fairsched.sharepath, text, boolean, boolean, fairsched.sharepath[]) IS 'why an element of vector_fair_share has its fair share: a row for it and each of its ancestors, root first, with the suggestion, fit factor, fair share and the limit, guarantee, sibling bound or shortage that held it, in words';

CREATE FUNCTION fairsched.slurm_job_order(config fairsched.slurm_priority_config,
                                          jobs fairsched.slurm_job[],
                                          cluster fairsched.slurm_cluster, as_of timestamptz)
    RETURNS TABLE(pos int, job_id text, partition text, priority bigint, decided_by text)
    AS 'MODULE_PATHNAME', 'slurm_job_order' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_job_order(fairsched.slurm_priority_config, fairsched.slurm_job[], fairsched.slurm_cluster, timestamptz) IS 'the order slurmctld''s main scheduler considers these pending jobs in at the calculation pass as_of, one row per job and partition (one array element each): PriorityTier higher first, priority higher first, submit time, job id, then the array''s order; held jobs (priority 0) left out; decided_by names the step that placed a row after the previous one (NULL on the first)';

-- a partition and a QOS as a job that names several needs them (one priority per pair)
CREATE TYPE fairsched.slurm_partition AS (
    name text,
    priority_job_factor int,
    priority_tier int,
    max_time interval,
    tres fairsched.resvec
);
COMMENT ON TYPE fairsched.slurm_partition IS
    'a SLURM partition for the priority of the jobs queued in it: its name, PriorityJobFactor (NULL is SLURM''s default 1), PriorityTier, MaxTime (NULL is UNLIMITED) and TRES totals';
CREATE TYPE fairsched.slurm_qos AS (
    name text,
    priority bigint
);
COMMENT ON TYPE fairsched.slurm_qos IS
    'a SLURM QOS for the priority of the jobs that name it: its name and Priority (NULL or 0: none)';

CREATE TYPE fairsched.slurm_previous_priority AS (
    partition text,
    qos text,
    priority bigint
);
COMMENT ON TYPE fairsched.slurm_previous_priority IS
    'the priority one (partition, QOS) pair of a job had at the previous calculation pass, for PriorityFlags=INCR_ONLY (SLURM keeps one per pair for a job that names several partitions or QOS): the partition and QOS names (NULL for a job that names none) and the priority (NULL: none)';

CREATE FUNCTION fairsched.slurm_priorities(config fairsched.slurm_priority_config,
                                           job fairsched.slurm_job,
                                           cluster fairsched.slurm_cluster, as_of timestamptz,
                                           partitions fairsched.slurm_partition[] DEFAULT NULL,
                                           qos fairsched.slurm_qos[] DEFAULT NULL,
                                           previous fairsched.slurm_previous_priority[] DEFAULT NULL)
    RETURNS TABLE(partition_name text, qos_name text, priority bigint, priority_sum float8,
                  site float8, age float8, assoc float8, fairshare float8, jobsize float8,
                  partition float8, qos float8, nice float8, tres fairsched.resvec,
                  age_factor float8, assoc_factor float8, fairshare_factor float8,
                  jobsize_factor float8, partition_factor float8, qos_factor float8,
                  tres_factors fairsched.resvec, direct boolean)
    AS 'MODULE_PATHNAME', 'slurm_priorities' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_priorities(fairsched.slurm_priority_config, fairsched.slurm_job, fairsched.slurm_cluster, timestamptz, fairsched.slurm_partition[], fairsched.slurm_qos[], fairsched.slurm_previous_priority[]) IS 'a job''s priority in each partition and QOS it names (its partition and qos fields as comma lists, "batch,debug"), one row per pair as SLURM keeps them, with the slurm_priority columns: each partition''s PriorityJobFactor, MaxTime and TRES totals from partitions, each QOS''s priority from qos (a QOS of priority 0 leaves the job''s QOS term); NULL arrays take the job''s own fields; under INCR_ONLY each pair keeps its own previous priority from previous (the job''s previous_priority is the one of a job of one pair only); NULL config, job, cluster or as_of give no rows';

-- scontrol: `scontrol show job|partition|node|config` output as records (docs/job-priority.md)
CREATE FUNCTION fairsched.scontrol_show(doc text)
    RETURNS TABLE(record int, attrs jsonb)
    AS 'MODULE_PATHNAME', 'scontrol_show' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.scontrol_show(text) IS 'the records of scontrol show job|partition|node|config output (multi-line or -o), each a jsonb object of its Key=Value pairs as text: values keep their spaces (to the next Key= word; in the multi-line form JobName, Command, WorkDir, StdIn, StdOut, StdErr, Comment, AdminComment, SystemComment and OS to the end of their line); show config lines (Key = Value) give one record per block';

-- slurm_history: SLURM's queue at any past instant from sacct records, a proposed configuration's
-- order beside the site's (docs/slurm-history.md).

-- the raw usage SLURM charged a job's association by as_of: billing (else CPUs) × seconds run
CREATE FUNCTION fairsched.sacct_usage(r fairsched.sacct_record, as_of timestamptz,
                                      half_life interval DEFAULT '7 days')
    RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE
        WHEN r IS NULL OR as_of IS NULL THEN NULL
        WHEN r.step IS NOT NULL OR r.start IS NULL OR r.start >= as_of THEN 0
        ELSE fairsched.accrued_usage(coalesce(r.alloc_tres OPERATOR(fairsched.->) 'billing',
                                              r.ncpus, 0),
                                     r.start, r."end", as_of, half_life)
    END;
COMMENT ON FUNCTION fairsched.sacct_usage(fairsched.sacct_record, timestamptz, interval) IS 'the usage a sacct allocation record had charged its association by as_of: its billing TRES (else its CPUs) times the seconds it ran before as_of, decayed to as_of with half_life (SLURM''s PriorityDecayHalfLife, 7 days by default; NULL: no decay); 0 for a step, a job not started by as_of, and a job with neither billing nor CPUs';

-- a sacct record as the slurm_job SLURM held at as_of: one row when it was pending then, none else
CREATE FUNCTION fairsched.sacct_pending(r fairsched.sacct_record, as_of timestamptz,
                                        fairshare float8 DEFAULT NULL,
                                        qos_priority bigint DEFAULT 0,
                                        partition_factor int DEFAULT 1,
                                        partition_tier int DEFAULT 1,
                                        partition_max_time interval DEFAULT NULL,
                                        partition_tres fairsched.resvec DEFAULT NULL,
                                        assoc_priority bigint DEFAULT NULL,
                                        accrue_always boolean DEFAULT false)
    RETURNS SETOF fairsched.slurm_job LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 1
BEGIN ATOMIC
    SELECT r.job_id, r."user", r.account, r.partition, r.qos, r.submit,
           CASE WHEN accrue_always THEN r.submit ELSE r.eligible END,
           r.nnodes, r.ncpus, make_interval(secs => r.timelimit_s),
           coalesce(r.req_tres, r.alloc_tres), fairshare, assoc_priority,
           partition_factor, partition_tier, partition_max_time, partition_tres,
           qos_priority, 0::bigint, 0::bigint, NULL::bigint, NULL::bigint
    WHERE r.step IS NULL
      AND CASE WHEN accrue_always THEN r.submit ELSE r.eligible END <= as_of
      AND as_of < coalesce(r.start, r."end", 'infinity');
END;
COMMENT ON FUNCTION fairsched.sacct_pending(fairsched.sacct_record, timestamptz, float8, bigint, int, int, interval, fairsched.resvec, bigint, boolean) IS 'the slurm_job a sacct allocation record was at as_of, one row when it was pending then (eligible by as_of, not yet started or ended), none otherwise: accruing from its eligible time (its submit time under PriorityFlags=ACCRUE_ALWAYS, which also lists it from then), its requested TRES, nodes, CPUs and time limit, with the fair-share factor, QOS, partition and association values given; site factor and nice 0';

-- the main scheduler's order of the jobs under two configurations, side by side
CREATE FUNCTION fairsched.slurm_what_if(config fairsched.slurm_priority_config,
                                        proposed fairsched.slurm_priority_config,
                                        jobs fairsched.slurm_job[],
                                        cluster fairsched.slurm_cluster, as_of timestamptz)
    RETURNS TABLE(job_id text, partition text, pos int, priority bigint, proposed_pos int,
                  proposed_priority bigint, moved int)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT coalesce(a.job_id, b.job_id), coalesce(a.partition, b.partition), a.pos, a.priority,
           b.pos, b.priority, a.pos - b.pos
    FROM fairsched.slurm_job_order(config, jobs, cluster, as_of) AS a
    FULL JOIN fairsched.slurm_job_order(proposed, jobs, cluster, as_of) AS b
      ON a.job_id = b.job_id AND a.partition IS NOT DISTINCT FROM b.partition
    ORDER BY a.pos NULLS LAST, b.pos;
END;
COMMENT ON FUNCTION fairsched.slurm_what_if(fairsched.slurm_priority_config, fairsched.slurm_priority_config, fairsched.slurm_job[], fairsched.slurm_cluster, timestamptz) IS 'the order the main scheduler considers the jobs in at the calculation pass as_of (PriorityTier, priority, submit time, job id) under config and under proposed (slurm_job_order''s, held jobs left out), one row per job and partition in the current order: both positions and priorities, and moved, the places the job gains under the proposal (negative: it falls back)';

-- sreport's -t time formats: one cell as sreport prints it (slurmdb_report_print_time)
CREATE FUNCTION fairsched.sreport_time(value float8, total float8,
                                       time_format text DEFAULT 'Minutes')
    RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    f text := lower(time_format);
    n int := length(time_format);
    pct float8;
BEGIN
    IF value IS NULL OR time_format IS NULL THEN
        RETURN NULL;
    END IF;
    IF value < 0 OR value = 'Infinity' OR value = 'NaN' OR total < 0 OR total = 'Infinity'
       OR total = 'NaN' THEN
        RAISE EXCEPTION 'invalid sreport amount: value "%", total "%"', value, total
            USING ERRCODE = '22003',
                  DETAIL = 'sreport prints whole non-negative TRES-seconds over a non-negative total.',
                  HINT = 'Give the seconds as sacct_tres_seconds sums them.';
    END IF;
    -- sreport divides by 1 when the total is 0
    pct := value / CASE WHEN coalesce(total, 0) = 0 THEN 1 ELSE total END * 100;
    -- the words as sreport's -t reads them: SecPer, MinPer, HourPer whole, the others by prefix
    IF f = 'secper' THEN
        RETURN to_char(trunc(value), 'FM99999999999999999990') || '(' || to_char(pct, 'FM9999999999999999990.00') || '%)';
    ELSIF f = 'minper' THEN
        RETURN to_char(value / 60, 'FM99999999999999999990') || '(' || to_char(pct, 'FM9999999999999999990.00') || '%)';
    ELSIF f = 'hourper' THEN
        RETURN to_char(value / 3600, 'FM99999999999999999990') || '(' || to_char(pct, 'FM9999999999999999990.00') || '%)';
    ELSIF n BETWEEN 1 AND 7 AND f = left('seconds', n) THEN
        RETURN to_char(trunc(value), 'FM99999999999999999990');
    ELSIF n BETWEEN 1 AND 7 AND f = left('minutes', n) THEN
        RETURN to_char(value / 60, 'FM99999999999999999990');
    ELSIF n BETWEEN 1 AND 5 AND f = left('hours', n) THEN
        RETURN to_char(value / 3600, 'FM99999999999999999990');
    ELSIF n BETWEEN 1 AND 7 AND f = left('percent', n) THEN
        RETURN to_char(pct, 'FM9999999999999999990.00') || '%';
    END IF;
    RAISE EXCEPTION 'unknown sreport time format: "%"', time_format
        USING ERRCODE = '22023',
              HINT = 'Use one of sreport''s -t formats: Seconds, Minutes, Hours, Percent (or a prefix of them), SecPer, MinPer, HourPer.';
END $$;
COMMENT ON FUNCTION fairsched.sreport_time(float8, float8, text) IS 'one cell of sreport for TRES-seconds value out of total, in sreport''s -t time_format (Seconds, Minutes, Hours, Percent, SecPer, MinPer, HourPer; the first four by any prefix, in any case): minutes and hours rounded to whole numbers as printf does, percent with 2 decimals, a total of 0 read as 1';

-- the TRES-seconds a sacct allocation record had allocated within [period_start, period_end)
CREATE FUNCTION fairsched.sacct_tres_seconds(r fairsched.sacct_record, period_start timestamptz,
                                             period_end timestamptz, tres text DEFAULT 'cpu')
    RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE
        WHEN r IS NULL OR period_start IS NULL OR period_end IS NULL OR tres IS NULL THEN NULL
        WHEN r.step IS NOT NULL OR r.start IS NULL THEN 0
        ELSE coalesce(r.alloc_tres OPERATOR(fairsched.->) lower(tres),
                      CASE WHEN lower(tres) = 'cpu' THEN r.ncpus END, 0)
             * greatest(0, extract(epoch FROM least(coalesce(r."end", period_end), period_end)
                                              - greatest(r.start, period_start)))::float8
    END;
COMMENT ON FUNCTION fairsched.sacct_tres_seconds(fairsched.sacct_record, timestamptz, timestamptz, text) IS 'the TRES-seconds a sacct allocation record had allocated within [period_start, period_end), as slurmdbd''s rollup counts them for sreport: its AllocTRES amount of tres (cpu: else its CPUs) times the seconds of its run inside the period (a job still running runs to period_end); 0 for a step or a job that never started';

-- the CPU-seconds a sacct allocation record waited eligible within [period_start, period_end)
CREATE FUNCTION fairsched.sacct_planned_seconds(r fairsched.sacct_record, period_start timestamptz,
                                                period_end timestamptz)
    RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE
        WHEN r IS NULL OR period_start IS NULL OR period_end IS NULL THEN NULL
        WHEN r.step IS NOT NULL OR r.eligible IS NULL THEN 0
        ELSE coalesce((r.extra ->> 'ReqCPUS')::float8, r.ncpus, 0)
             * greatest(0, extract(epoch FROM least(coalesce(r.start, r."end", period_end), period_end)
                                              - greatest(r.eligible, period_start)))::float8
    END;
COMMENT ON FUNCTION fairsched.sacct_planned_seconds(fairsched.sacct_record, timestamptz, timestamptz) IS 'the CPU-seconds a sacct allocation record waited eligible within [period_start, period_end), as slurmdbd''s hourly rollup counts them towards sreport''s Planned: its requested CPUs (ReqCPUS, else NCPUS) times the seconds from its eligible time to its start (its end for a job that never started; a job still pending waits to period_end) inside the period; 0 for a step and a job never eligible. The rollup counts them only while the cluster is registered: give the period cut to that';

-- sreport cluster Utilization from the allocated seconds and what the records cannot tell
CREATE FUNCTION fairsched.sreport_cluster_utilization(cluster_name text, tres_count float8,
                                                      period_start timestamptz,
                                                      period_end timestamptz, allocated_s float8,
                                                      down_s float8 DEFAULT 0,
                                                      planned_down_s float8 DEFAULT 0,
                                                      planned_s float8 DEFAULT 0,
                                                      time_format text DEFAULT 'Minutes',
                                                      reported_s float8 DEFAULT NULL)
    RETURNS TABLE(cluster text, allocated text, down text, plnd_down text, idle text,
                  planned text, reported text, over_comm text)
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    period float8 := extract(epoch FROM period_end - period_start);
    a float8 := coalesce(allocated_s, 0);
    d float8 := coalesce(down_s, 0);
    pd float8 := coalesce(planned_down_s, 0);
    p float8 := coalesce(planned_s, 0);
    up float8;
    i float8;
    o float8;
    r float8;
BEGIN
    IF period_start IS NULL OR period_end IS NULL OR tres_count IS NULL THEN
        RETURN;
    END IF;
    IF NOT period > 0 THEN
        RAISE EXCEPTION 'sreport period ends before it starts: "%" to "%"', period_start, period_end
            USING ERRCODE = '22023', HINT = 'Give period_start before period_end, as sreport''s Start= and End=.';
    END IF;
    IF NOT (tres_count >= 0 AND tres_count < 'Infinity') THEN
        RAISE EXCEPTION 'invalid TRES count of cluster "%": "%"', cluster_name, tres_count
            USING ERRCODE = '22023', HINT = 'Give the cluster''s count of the TRES, such as its CPUs (sacctmgr show cluster format=Cluster,TRES).';
    END IF;
    up := coalesce(reported_s, period * tres_count);
    -- slurmdbd's rollup: Planned takes what allocated and down time leave of the reported time,
    -- Idle the rest, and the planned time beyond it goes to Over Comm
    i := greatest(0, up - a - d - pd - p);
    o := greatest(0, a + d + pd + p - up);
    p := least(p, greatest(0, up - a - d - pd));
    r := a + d + pd + i + p;
    RETURN QUERY SELECT cluster_name, fairsched.sreport_time(a, r, time_format),
        fairsched.sreport_time(d, r, time_format), fairsched.sreport_time(pd, r, time_format),
        fairsched.sreport_time(i, r, time_format), fairsched.sreport_time(p, r, time_format),
        fairsched.sreport_time(r, period * tres_count, time_format),
        fairsched.sreport_time(o, r, time_format);
END $$;
COMMENT ON FUNCTION fairsched.sreport_cluster_utilization(text, float8, timestamptz, timestamptz, float8, float8, float8, float8, text, float8) IS 'the row sreport cluster Utilization prints (Cluster, Allocated, Down, PLND Down, Idle, Planned, Reported, and Over Comm, which its Format option adds) for a cluster of tres_count TRES over [period_start, period_end): allocated_s TRES-seconds (sacct_tres_seconds), down_s, planned_down_s and planned_s (reserved) TRES-seconds as slurmdbd records them from node events and reservations; Idle is what is left of reported_s (the TRES-seconds slurmdbd counted the cluster as up; NULL: the whole period times tres_count), Planned at most what allocated and down time leave of it (the rest is Over Comm, as slurmdbd''s rollup stores it), Reported the sum of the five, each cell over Reported and Reported over the period times tres_count in the percent formats';
-- pbs_acct, pbs_acct_try: the cost a line parse has (sacct_row and sacct_row_try state it above)
ALTER FUNCTION fairsched.pbs_acct(text) COST 1000;
ALTER FUNCTION fairsched.pbs_acct_try(text) COST 1000;

-- loadlog: incremental and idempotent loads (new in 0.2.0)
CREATE TABLE fairsched.load_log (
    source       text NOT NULL,
    head_md5     text NOT NULL,
    file         text NOT NULL,
    lines        bigint NOT NULL CHECK (lines > 0),
    last_md5     text NOT NULL,
    loads        int NOT NULL DEFAULT 1,
    first_loaded timestamptz NOT NULL DEFAULT now(),
    last_loaded  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, head_md5)
);
COMMENT ON TABLE fairsched.load_log IS 'the files load_new_lines has loaded, one row per source and file content: the md5 of the file''s first line (a renamed or rotated file is the same file), the name it was last loaded under, the lines loaded so far and the md5 of the last of them (a file replaced under the same first line is refused)';
SELECT pg_catalog.pg_extension_config_dump('fairsched.load_log', '');

CREATE FUNCTION fairsched.load_new_lines(source text, file text, staging regclass)
    RETURNS TABLE(lineno bigint, line text)
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    AS $f$
DECLARE
    lo bigint;
    hi bigint;
    cnt bigint;
    head text;
    prev fairsched.load_log;
    at_prev text;
    new_last text;
BEGIN
    IF source IS NULL OR file IS NULL OR staging IS NULL THEN
        RAISE EXCEPTION 'load_new_lines needs a source, a file name and a staging table'
            USING ERRCODE = '22004',
                  HINT = 'Name the stream (such as ''pbs:serverA''), the file and the table the file was copied into.';
    END IF;
    IF (SELECT count(*) FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = staging AND a.attnum > 0 AND NOT a.attisdropped
          AND ((a.attname = 'n' AND a.atttypid IN ('int8'::pg_catalog.regtype, 'int4'::pg_catalog.regtype))
               OR (a.attname = 'line' AND a.atttypid = 'text'::pg_catalog.regtype))) <> 2 THEN
        RAISE EXCEPTION 'staging table % has no columns n (bigint) and line (text)', staging
            USING ERRCODE = '42703',
                  HINT = 'Copy the file into a table such as CREATE TEMP TABLE staging (n bigserial, line text), n numbering the lines in file order.';
    END IF;
    EXECUTE pg_catalog.format('SELECT min(n), max(n), count(n) FROM %s', staging) INTO lo, hi, cnt;
    IF cnt = 0 THEN
        RETURN;
    END IF;
    IF hi - lo + 1 <> cnt THEN
        RAISE EXCEPTION 'the lines of staging table % are not numbered one after another', staging
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('n runs from %s to %s over %s rows.', lo, hi, cnt),
                  HINT = 'Copy each file into an empty table with a bigserial n (TRUNCATE ... RESTART IDENTITY between files).';
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
        INTO head USING lo;
    -- one loader per source at a time: a second waits here until the first commits, then sees
    -- what it loaded (each statement of this function takes a new snapshot in READ COMMITTED;
    -- under REPEATABLE READ the INSERT ... ON CONFLICT below raises a serialization failure)
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('fairsched.load_log'),
                                             pg_catalog.hashtext(source));
    SELECT * INTO prev FROM fairsched.load_log l WHERE l.source = load_new_lines.source AND l.head_md5 = head;
    IF FOUND THEN
        IF cnt <= prev.lines THEN
            -- loaded already, or an older copy of a log loaded further since: nothing changes
            RETURN;
        END IF;
        EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
            INTO at_prev USING lo + prev.lines - 1;
        IF at_prev <> prev.last_md5 THEN
            RAISE EXCEPTION 'line % of file "%" of source "%" is not the line loaded there before', prev.lines, file, source
                USING ERRCODE = '22023',
                      DETAIL = pg_catalog.format('The file starts as the one loaded as "%s", but its line %s changed since.', prev.file, prev.lines),
                      HINT = 'Load only complete lines of a growing log (head -n "$(wc -l < FILE)" FILE). If the file was rewritten, delete its row of fairsched.load_log to load it anew.';
        END IF;
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
        INTO new_last USING hi;
    INSERT INTO fairsched.load_log AS l (source, head_md5, file, lines, last_md5)
    VALUES (source, head, file, cnt, new_last)
    ON CONFLICT ON CONSTRAINT load_log_pkey DO UPDATE
        SET file = excluded.file, lines = excluded.lines, last_md5 = excluded.last_md5,
            loads = l.loads + 1, last_loaded = pg_catalog.now();
    RETURN QUERY EXECUTE pg_catalog.format('SELECT n - $1 + 1, line FROM %s WHERE n > $2 ORDER BY n', staging)
        USING lo, lo + coalesce(prev.lines, 0) - 1;
END
$f$;
COMMENT ON FUNCTION fairsched.load_new_lines(text, text, regclass) IS 'the lines of a file copied into staging (columns n, numbering the lines in file order, and line) that were not loaded before from this source, with their line numbers in the file, recorded in fairsched.load_log in the same transaction: all of a new file, only the new lines of a file that grew, none of a file loaded already (or of an older, shorter copy of it); a file whose last loaded line changed is refused; loaders of one source run one at a time';

-- group_quotas: NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION as a tenth argument, true by default as
-- in HTCondor (calls with nine arguments or fewer now oversubscribe; pass false for 0.1.0's scaling)
DROP FUNCTION fairsched.group_quotas(text[], float8[], boolean[], boolean[], float8[], float8, boolean[], float8, boolean);
CREATE FUNCTION fairsched.group_quotas(groups text[], quotas float8[], dynamic boolean[],
                                       accept_surplus boolean[], demand float8[], pool float8,
                                       autoregroup boolean[] DEFAULT NULL,
                                       none_demand float8 DEFAULT 0,
                                       use_slot_weights boolean DEFAULT true,
                                       allow_quota_oversubscription boolean DEFAULT true)
    RETURNS TABLE(grp text, quota float8, surplus float8, allocated float8, subtree_quota float8,
                  requested float8)
    AS 'MODULE_PATHNAME', 'group_quotas' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.group_quotas(text[], float8[], boolean[], boolean[], float8[], float8, boolean[], float8, boolean, boolean) IS 'HTCondor hierarchical group quotas: each group''s quota, surplus received and allocation for a negotiation cycle, from GROUP_NAMES (dotted names), GROUP_QUOTA[_DYNAMIC], GROUP_ACCEPT_SURPLUS, GROUP_AUTOREGROUP, NEGOTIATOR_USE_SLOT_WEIGHTS, NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (true by default, as in HTCondor), the demand and the pool size; the root <none> first, then the tree in pre-order';

-- pbs_qstat_json: qstat -f -F json documents as pbs_record rows
CREATE FUNCTION fairsched.pbs_qstat_json(doc jsonb, tz text DEFAULT 'UTC')
    RETURNS SETOF fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_qstat_json' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.pbs_qstat_json(jsonb, text) IS 'the jobs of a qstat -f -F json (or qstat -x -f -F json) document as the records pbs_acct gives for the accounting line of their state (E finished, S running, Q waiting); its dates are read in zone tz, the server''s; a value of the wrong type raises 22023 naming the job and the attribute';
