-- decay: usage decay and fairness over time (docs/decay.md)

CREATE FUNCTION fairsched.decay(usage float8, elapsed interval, half_life interval) RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_exact' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decay(usage float8, elapsed interval, half_life interval, model text)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_model' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decay_step(usage float8, elapsed interval, period interval,
                                     factor float8 DEFAULT 0.5, floor float8 DEFAULT 0)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_step' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.accrued_usage(rate float8, run_start timestamptz, run_end timestamptz,
                                        as_of timestamptz, half_life interval)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'accrued_usage' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decay(float8, interval, interval) IS 'usage * 2^(-elapsed / half_life)';
COMMENT ON FUNCTION fairsched.decay(float8, interval, interval, text) IS 'decayed usage with a model: exact, slurm (per-second factor 1 - 0.693/half_life as a power) or condor (as exact)';
COMMENT ON FUNCTION fairsched.decay_step(float8, interval, interval, float8, float8) IS 'usage * factor^floor(elapsed / period), never below floor (PBS fairshare_decay_time and fairshare_decay_factor)';
COMMENT ON FUNCTION fairsched.accrued_usage(float8, timestamptz, timestamptz, timestamptz, interval) IS 'exact integral of a running job''s decayed charge up to as_of (no decay when half_life is NULL)';

CREATE TYPE fairsched.decayed_usage;
CREATE FUNCTION fairsched.decayed_usage_in(cstring) RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_out(fairsched.decayed_usage) RETURNS cstring
    AS 'MODULE_PATHNAME', 'decayed_usage_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_recv(internal) RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_send(fairsched.decayed_usage) RETURNS bytea
    AS 'MODULE_PATHNAME', 'decayed_usage_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.decayed_usage (
    INPUT = fairsched.decayed_usage_in,
    OUTPUT = fairsched.decayed_usage_out,
    RECEIVE = fairsched.decayed_usage_recv,
    SEND = fairsched.decayed_usage_send,
    INTERNALLENGTH = 24,
    ALIGNMENT = double
);
COMMENT ON TYPE fairsched.decayed_usage IS 'a decayed running sum: its value as of an instant, and its half-life; text value@YYYY-MM-DDTHH:MM:SSZ/half_life_seconds';
COMMENT ON FUNCTION fairsched.decayed_usage_in(cstring) IS 'text input of decayed_usage';
COMMENT ON FUNCTION fairsched.decayed_usage_out(fairsched.decayed_usage) IS 'text output of decayed_usage (UTC, independent of settings)';
COMMENT ON FUNCTION fairsched.decayed_usage_recv(internal) IS 'binary input of decayed_usage';
COMMENT ON FUNCTION fairsched.decayed_usage_send(fairsched.decayed_usage) IS 'binary output of decayed_usage (starts with a format version byte)';

CREATE FUNCTION fairsched.decayed_sum_accum(fairsched.decayed_usage, float8, timestamptz, interval)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_sum_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_combine(fairsched.decayed_usage, fairsched.decayed_usage)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decayed_sum_accum(fairsched.decayed_usage, float8, timestamptz, interval) IS 'transition function of decayed_sum';
COMMENT ON FUNCTION fairsched.decayed_usage_combine(fairsched.decayed_usage, fairsched.decayed_usage) IS 'combine function of decayed_sum: decay both to the later instant, then add';
CREATE AGGREGATE fairsched.decayed_sum(usage float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.decayed_sum_accum,
    STYPE = fairsched.decayed_usage,
    COMBINEFUNC = fairsched.decayed_usage_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.decayed_sum(float8, timestamptz, interval) IS 'sum of usage decayed with a half-life, as of its latest row; a window function gives the running value';

CREATE FUNCTION fairsched.value(d fairsched.decayed_usage, as_of timestamptz) RETURNS float8
    AS 'MODULE_PATHNAME', 'decayed_usage_value' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- live scheduler state (docs/live-state.md): a charge, the sum of two, a run's charge, a new half-life
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
