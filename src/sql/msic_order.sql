-- msic_order: the MSIC-Cluster PBS scheduler's per-job flags and job order (docs/msic.md).

CREATE FUNCTION fairsched.msic_job_order(config fairsched.msic_config, shares fairsched.msic_share[],
                                         jobs fairsched.msic_job[], at timestamptz,
                                         cluster_cpus int, rank text DEFAULT 'share')
RETURNS TABLE(pos int, job_id text, priority boolean, waiting boolean, runlimit boolean,
              chkpt_ok boolean, suspended boolean, chkptd boolean, queue_rank float8,
              over_share boolean, user_limit int, user_running int, decided_by text)
AS 'MODULE_PATHNAME', 'msic_job_order'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_job_order(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_job[], timestamptz, int, text) IS
    'The MSIC scheduler''s job flags and order: pending (Q, S) jobs in scheduling order with the comparison step that placed each, then running jobs by time left; rank ''share'' (the administrator''s guide) or ''usage'' (the original code)';

-- a job without a mem request (the original's get_default_mem): only a queue with a FAIR_SHARE entry
-- looks at its resources_default.mem, then resources_max.mem; everything else gets 100 MB
CREATE FUNCTION fairsched.msic_default_mem(config fairsched.msic_config, queue text,
                                           default_mem float8 DEFAULT NULL,
                                           max_mem float8 DEFAULT NULL) RETURNS float8
AS 'MODULE_PATHNAME', 'msic_default_mem'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_default_mem(fairsched.msic_config, text, float8, float8) IS
    'the memory (bytes) the MSIC scheduler gives a job without a mem request: for a queue with a FAIR_SHARE entry its resources_default.mem, then resources_max.mem; otherwise 100 MB';
