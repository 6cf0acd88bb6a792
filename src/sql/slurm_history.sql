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
