-- msic_share: the MSIC-Cluster scheduler's queue share accounting (docs/msic.md):
-- the SHARE_INFO_FILE text, charging a started job, the nightly rollover, the queue rank, and
-- the msic_queue_state aggregate that computes a queue's state from its history of job starts.
CREATE FUNCTION fairsched.msic_shares(share_info text, at timestamptz DEFAULT NULL)
    RETURNS SETOF fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_shares' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_shares(text, timestamptz) IS 'the queues of an MSIC SHARE_INFO_FILE; with at, a file stamped with another weekday (in the session time zone) is rolled over once, as the scheduler does on load';
CREATE FUNCTION fairsched.msic_share_info(shares fairsched.msic_share[], at timestamptz)
    RETURNS text
    AS 'MODULE_PATHNAME', 'msic_share_info' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_share_info(fairsched.msic_share[], timestamptz) IS 'the SHARE_INFO_FILE text the MSIC scheduler writes, stamped with the weekday of at in the session time zone';
CREATE FUNCTION fairsched.msic_charge(s fairsched.msic_share, ncpus int, walltime interval,
                                      at timestamptz, cluster_cpus int)
    RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_charge' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_charge(fairsched.msic_share, int, interval, timestamptz, int) IS 'charge a started job: today_usage += ncpus * whole minutes of requested walltime; today_max = cluster_cpus * minutes since local midnight of at';
CREATE FUNCTION fairsched.msic_rollover(s fairsched.msic_share) RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_rollover' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_rollover(fairsched.msic_share) IS 'the nightly rollover: today''s percentage joins the running average (restarted when the past percentage is below 1); today''s usage and maximum go back to 0';
CREATE FUNCTION fairsched.msic_past_pct(s fairsched.msic_share) RETURNS float8
    AS 'MODULE_PATHNAME', 'msic_past_pct' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_past_pct(fairsched.msic_share) IS 'the past usage percentage with today included: (past_pct * ndays + today%) / (ndays + 1)';
CREATE FUNCTION fairsched.msic_rank(s fairsched.msic_share, shares int, rank text DEFAULT 'share')
    RETURNS float8
    AS 'MODULE_PATHNAME', 'msic_rank' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_rank(fairsched.msic_share, int, text) IS 'queue rank: share (the administrator''s guide) = past percentage / share percentage; usage (the original code) = past percentage truncated to an integer';
CREATE FUNCTION fairsched.msic_over_share(s fairsched.msic_share, shares int, rank text DEFAULT 'share')
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'msic_over_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_over_share(fairsched.msic_share, int, text) IS 'whether the queue is over its share: rank above 1 (share) or above 100 (usage)';

CREATE TYPE fairsched.msic_queue_acc;
CREATE FUNCTION fairsched.msic_queue_acc_in(cstring) RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_out(fairsched.msic_queue_acc) RETURNS cstring
    AS 'MODULE_PATHNAME', 'msic_queue_acc_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_recv(internal) RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_send(fairsched.msic_queue_acc) RETURNS bytea
    AS 'MODULE_PATHNAME', 'msic_queue_acc_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.msic_queue_acc (
    INPUT = fairsched.msic_queue_acc_in,
    OUTPUT = fairsched.msic_queue_acc_out,
    RECEIVE = fairsched.msic_queue_acc_recv,
    SEND = fairsched.msic_queue_acc_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = double,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.msic_queue_acc IS 'state of msic_queue_state: a queue''s job starts summed per local day; text queue as_of_utc as_of_day[;day usage last_start_utc last_max]...';
COMMENT ON FUNCTION fairsched.msic_queue_acc_in(cstring) IS 'text input of msic_queue_acc';
COMMENT ON FUNCTION fairsched.msic_queue_acc_out(fairsched.msic_queue_acc) IS 'text output of msic_queue_acc (UTC, independent of settings)';
COMMENT ON FUNCTION fairsched.msic_queue_acc_recv(internal) IS 'binary input of msic_queue_acc';
COMMENT ON FUNCTION fairsched.msic_queue_acc_send(fairsched.msic_queue_acc) IS 'binary output of msic_queue_acc (a format version byte, then the text form)';
CREATE FUNCTION fairsched.msic_queue_state_accum(fairsched.msic_queue_acc, text, int, interval,
                                                 timestamptz, int, timestamptz)
    RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_state_accum' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_state_accum(fairsched.msic_queue_acc, text, int, interval, timestamptz, int, timestamptz) IS 'transition function of msic_queue_state (local days in the session time zone)';
CREATE FUNCTION fairsched.msic_queue_acc_combine(fairsched.msic_queue_acc, fairsched.msic_queue_acc)
    RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_acc_combine(fairsched.msic_queue_acc, fairsched.msic_queue_acc) IS 'combine function of msic_queue_state: the per-day sums merged';
CREATE FUNCTION fairsched.msic_queue_acc_share(acc fairsched.msic_queue_acc) RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_queue_acc_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_acc_share(fairsched.msic_queue_acc) IS 'final function of msic_queue_state: the days replayed from a fresh queue, one 23:00 rollover per day before as_of';
CREATE AGGREGATE fairsched.msic_queue_state(queue text, ncpus int, walltime interval,
                                           started_at timestamptz, cluster_cpus int,
                                           as_of timestamptz) (
    SFUNC = fairsched.msic_queue_state_accum,
    STYPE = fairsched.msic_queue_acc,
    COMBINEFUNC = fairsched.msic_queue_acc_combine,
    FINALFUNC = fairsched.msic_queue_acc_share,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.msic_queue_state(text, int, interval, timestamptz, int, timestamptz) IS 'a queue''s msic_share as of as_of from its job starts: charged one by one, rolled over at 23:00 local time (session time zone) once a day; use with GROUP BY queue';
CREATE AGGREGATE fairsched.msic_queue_acc(queue text, ncpus int, walltime interval,
                                         started_at timestamptz, cluster_cpus int,
                                         as_of timestamptz) (
    SFUNC = fairsched.msic_queue_state_accum,
    STYPE = fairsched.msic_queue_acc,
    COMBINEFUNC = fairsched.msic_queue_acc_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.msic_queue_acc(text, int, interval, timestamptz, int, timestamptz) IS 'the state of msic_queue_state itself, to ship between nodes: merge with msic_queue_acc_combine, read with msic_queue_acc_share';

CREATE FUNCTION fairsched.msic_queue_history(acc fairsched.msic_queue_acc)
    RETURNS TABLE(day date, queue text, ndays int, past_pct float8, today_usage float8, today_max float8)
    AS 'MODULE_PATHNAME', 'msic_queue_history' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_history(fairsched.msic_queue_acc) IS 'a queue''s share state on every local day from its first job start to the day of as_of, as at that day''s 23:00 rollover (its charges in, the rollover not yet applied); the last row equals msic_queue_state';
