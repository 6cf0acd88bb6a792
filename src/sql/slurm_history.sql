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
    WITH j AS (
        SELECT u.job_id, u.partition, u.partition_tier, u.submit_time,
               (fairsched.slurm_priority(config, ROW(u.*)::fairsched.slurm_job, cluster,
                                         as_of)).priority AS p,
               (fairsched.slurm_priority(proposed, ROW(u.*)::fairsched.slurm_job, cluster,
                                         as_of)).priority AS q
        FROM unnest(jobs) AS u),
    o AS (
        SELECT j.job_id, j.partition, j.p, j.q,
               row_number() OVER (ORDER BY j.partition_tier DESC NULLS LAST, j.p DESC,
                                           j.submit_time, length(j.job_id), j.job_id) AS a,
               row_number() OVER (ORDER BY j.partition_tier DESC NULLS LAST, j.q DESC,
                                           j.submit_time, length(j.job_id), j.job_id) AS b
        FROM j)
    SELECT o.job_id, o.partition, o.a::int, o.p, o.b::int, o.q, (o.a - o.b)::int
    FROM o ORDER BY o.a;
END;
COMMENT ON FUNCTION fairsched.slurm_what_if(fairsched.slurm_priority_config, fairsched.slurm_priority_config, fairsched.slurm_job[], fairsched.slurm_cluster, timestamptz) IS 'the order the main scheduler considers the jobs in at the calculation pass as_of (PriorityTier, priority, submit time, job id) under config and under proposed, one row per job and partition in the current order: both positions and priorities, and moved, the places the job gains under the proposal (negative: it falls back)';
