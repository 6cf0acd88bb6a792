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
