-- slurm_priority: SLURM's priority/multifactor plugin: its parameters and a job's priority (docs/job-priority.md).

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
