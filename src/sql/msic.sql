-- msic: the composite types of the MSIC-Cluster PBS scheduler's policy (docs/msic.md),
-- shared by msic_config (configuration, holidays, prime time), msic_share (queue share
-- accounting) and msic_order (job flags and order).

-- one FAIR_SHARE line: FAIR_SHARE QUEUE:name:shares:max_run_pct
CREATE TYPE fairsched.msic_share_spec AS (queue text, shares int, max_run_pct int);
COMMENT ON TYPE fairsched.msic_share_spec IS
    'One FAIR_SHARE line of the MSIC scheduler configuration: queue, shares, per-user running-job percentage';

-- the validated configuration file (msic_config)
CREATE TYPE fairsched.msic_config AS (
    submit_queue text,
    submit_host text,
    batch_queues text[],
    batch_hosts text[],
    express_queue text,
    enforce_prime_time boolean,
    prime_time_from timestamptz,
    prime_time_start interval,
    prime_time_end interval,
    prime_time_wallt_limit interval,
    target_load_pct float8,
    target_load_minus float8,
    target_load_plus float8,
    suspend_threshold float8,
    force_requeue boolean,
    max_wait_time interval,
    update_comments boolean,
    sched_restart_action text,
    fair_share fairsched.msic_share_spec[],
    holidays int[],
    max_user_run_jobs int,
    sched_host text,
    share_info_file text,
    sorted_job_dumpfile text
);
COMMENT ON TYPE fairsched.msic_config IS
    'The validated configuration of the MSIC-Cluster PBS scheduler: queues, prime time, load targets, FAIR_SHARE entries, holidays';

-- one queue's share state, as the SHARE_INFO_FILE holds it
CREATE TYPE fairsched.msic_share AS (queue text, ndays int, past_pct float8, today_usage float8, today_max float8);
COMMENT ON TYPE fairsched.msic_share IS
    'One FAIR_SHARE queue''s accounting state: days counted, past usage percentage, today''s usage and today''s maximum';

-- a job as the scheduler sees it
CREATE TYPE fairsched.msic_job AS (
    job_id text,
    owner text,
    queue text,
    state text,
    ncpus int,
    mem float8,
    walltime interval,
    walltime_used interval,
    ctime timestamptz,
    etime timestamptz,
    exec_host text,
    arch text,
    chkptd boolean,
    suspend_fails boolean,
    checkpoint_fails boolean
);
COMMENT ON TYPE fairsched.msic_job IS
    'A pending or running job for the MSIC scheduler: originating queue, state Q/R/S, request, times, placement';

-- an execution host as its MOM reports it (msic_cycle)
CREATE TYPE fairsched.msic_host AS (name text, ncpus int, mem float8, arch text, loadave float8, up boolean);
COMMENT ON TYPE fairsched.msic_host IS
    'An execution host for the MSIC scheduler: CPUs, memory (bytes, NULL = not reported), arch, load average, up';

-- a queue as the server reports it (msic_cycle); NULL limits are unset
CREATE TYPE fairsched.msic_queue AS (
    name text,
    host text,
    enabled boolean,
    started boolean,
    max_running int,
    max_ncpus int,
    max_mem float8,
    min_walltime interval,
    max_walltime interval,
    min_ncpus int,
    min_mem float8,
    default_mem float8,
    max_user_run int
);
COMMENT ON TYPE fairsched.msic_queue IS
    'A PBS queue for the MSIC scheduler: its host, state and resources_max/min/default limits (NULL = unset)';
