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
    AS 'MODULE_PATHNAME', 'sacct_row' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION fairsched.sacct_row(text, text, text, text) IS 'parse one sacct --parsable2 row against its header line (or the --format list of a --noheader export), split on delimiter (sacct --delimiter); dates without a zone are read in tz; malformed rows and a header that names no known column raise 22P02 naming the character';

CREATE FUNCTION fairsched.sacct_row_try(line text, header text, tz text DEFAULT 'UTC',
                                        delimiter text DEFAULT '|')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
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
