-- msic_cycle: one scheduling cycle of the MSIC-Cluster PBS scheduler (docs/msic.md),
-- and the replay of submissions through successive cycles.

CREATE FUNCTION fairsched.msic_cycle(config fairsched.msic_config, shares fairsched.msic_share[],
                                     hosts fairsched.msic_host[], queues fairsched.msic_queue[],
                                     jobs fairsched.msic_job[], at timestamptz, cluster_cpus int,
                                     compat text[] DEFAULT '{}')
RETURNS TABLE(step int, action text, job_id text, queue text, host text, reason text)
AS 'MODULE_PATHNAME', 'msic_cycle'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_cycle(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, int, text[]) IS
    'One MSIC scheduling cycle: run, resume, suspend, checkpoint, requeue, comment and fail decisions in order; compat may hold rank_usage, suspend_below_threshold, load_unscaled';

CREATE FUNCTION fairsched.msic_cycle_shares(config fairsched.msic_config, shares fairsched.msic_share[],
                                            hosts fairsched.msic_host[], queues fairsched.msic_queue[],
                                            jobs fairsched.msic_job[], at timestamptz, cluster_cpus int,
                                            compat text[] DEFAULT '{}')
RETURNS SETOF fairsched.msic_share
AS 'MODULE_PATHNAME', 'msic_cycle_shares'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_cycle_shares(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, int, text[]) IS
    'The share state of every FAIR_SHARE queue after the charges of the msic_cycle with the same arguments';

CREATE FUNCTION fairsched.msic_replay(config fairsched.msic_config, hosts fairsched.msic_host[],
                                      queues fairsched.msic_queue[], jobs fairsched.msic_job[],
                                      start timestamptz, stop timestamptz,
                                      cycle interval DEFAULT '5 minutes', cluster_cpus int DEFAULT NULL,
                                      shares fairsched.msic_share[] DEFAULT NULL,
                                      compat text[] DEFAULT '{}')
RETURNS TABLE(at timestamptz, step int, action text, job_id text, queue text, host text,
              reason text, share fairsched.msic_share)
AS 'MODULE_PATHNAME', 'msic_replay'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_replay(fairsched.msic_config, fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, timestamptz, interval, int, fairsched.msic_share[], text[]) IS
    'Submissions (jobs queued at their ctime, running for walltime_used or walltime) replayed through MSIC cycles every `cycle` from start to stop: every decision with its time, each job''s end, and each queue''s share state at every 23:00 rollover and at the stop';
