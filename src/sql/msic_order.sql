-- msic_order: the MSIC-Cluster PBS scheduler's per-job flags and job order (seed 004, SPEC section 9).

CREATE FUNCTION fairsched.msic_job_order(config fairsched.msic_config, shares fairsched.msic_share[],
                                         jobs fairsched.msic_job[], at timestamptz,
                                         cluster_cpus int, rank text DEFAULT 'share')
RETURNS TABLE(pos int, job_id text, priority boolean, waiting boolean, runlimit boolean,
              chkpt_ok boolean, suspended boolean, chkptd boolean, queue_rank float8,
              over_share boolean, user_limit int, user_running int, decided_by text)
AS 'MODULE_PATHNAME', 'msic_job_order'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_job_order(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_job[], timestamptz, int, text) IS
    'The MSIC scheduler''s job flags and order: pending (Q, S) jobs in scheduling order with the comparison step that placed each, then running jobs by time left; rank ''share'' (the guide) or ''usage'' (the original code)';
