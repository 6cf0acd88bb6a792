-- userprio: HTCondor's real user priority as an aggregate and window function

CREATE TYPE fairsched.userprio_state;
CREATE FUNCTION fairsched.userprio_state_in(cstring) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_out(fairsched.userprio_state) RETURNS cstring
    AS 'MODULE_PATHNAME', 'userprio_state_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_recv(internal) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_send(fairsched.userprio_state) RETURNS bytea
    AS 'MODULE_PATHNAME', 'userprio_state_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.userprio_state (
    INPUT = fairsched.userprio_state_in,
    OUTPUT = fairsched.userprio_state_out,
    RECEIVE = fairsched.userprio_state_recv,
    SEND = fairsched.userprio_state_send,
    INTERNALLENGTH = 88,
    ALIGNMENT = double
);
COMMENT ON TYPE fairsched.userprio_state IS 'state of userprio: the priority update of a run of samples as max(m, a p + g), with its first sample and time span, and the weighted usage accumulated, the weighted in-use at the last sample, and when usage began and was last seen';
COMMENT ON FUNCTION fairsched.userprio_state_in(cstring) IS 'text input of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_out(fairsched.userprio_state) IS 'text output of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_recv(internal) IS 'binary input of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_send(fairsched.userprio_state) IS 'binary output of userprio_state (starts with a format version byte)';

CREATE FUNCTION fairsched.userprio_accum(fairsched.userprio_state, float8, timestamptz, interval)
    RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_combine(fairsched.userprio_state, fairsched.userprio_state)
    RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_final(fairsched.userprio_state) RETURNS float8
    AS 'MODULE_PATHNAME', 'userprio_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_accum(fairsched.userprio_state, float8, timestamptz, interval) IS 'transition function of userprio';
COMMENT ON FUNCTION fairsched.userprio_combine(fairsched.userprio_state, fairsched.userprio_state) IS 'combine function of userprio: one run of samples after the other';
COMMENT ON FUNCTION fairsched.userprio_final(fairsched.userprio_state) IS 'final function of userprio: the real priority after the last sample';
CREATE AGGREGATE fairsched.userprio(weighted_in_use float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.userprio_accum,
    STYPE = fairsched.userprio_state,
    FINALFUNC = fairsched.userprio_final,
    COMBINEFUNC = fairsched.userprio_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.userprio(float8, timestamptz, interval) IS 'HTCondor real user priority: max(0.5, previous * b + in_use * (1 - b)) per sample, b = 0.5^(dt / half_life), from 0.5; samples in time order';

CREATE FUNCTION fairsched.userprio_state_final(fairsched.userprio_state) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_state_final(fairsched.userprio_state) IS 'final function of the userprio_state aggregate: the state itself';
CREATE AGGREGATE fairsched.userprio_state(weighted_in_use float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.userprio_accum,
    STYPE = fairsched.userprio_state,
    FINALFUNC = fairsched.userprio_state_final,
    COMBINEFUNC = fairsched.userprio_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.userprio_state(float8, timestamptz, interval) IS 'the userprio state of a run of samples (time order), to store, combine or pass to userprio_report';

CREATE FUNCTION fairsched.userprio_report(state fairsched.userprio_state,
                                          priority_factor float8 DEFAULT 1000,
                                          OUT effective_priority float8, OUT real_priority float8,
                                          OUT priority_factor float8, OUT weighted_in_use float8,
                                          OUT weighted_hours float8,
                                          OUT weighted_accumulated_usage float8,
                                          OUT usage_start_time timestamptz,
                                          OUT last_usage_time timestamptz,
                                          OUT last_priority_update timestamptz,
                                          OUT time_since_last_usage interval)
    AS 'MODULE_PATHNAME', 'userprio_report' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_report(fairsched.userprio_state, float8) IS 'what condor_userprio -allusers / -l prints for a submitter from its userprio state: effective priority (real x factor), real priority, priority factor, weighted in-use, weighted hours and accumulated usage, usage start and last usage';

CREATE FUNCTION fairsched.pie_spin(submitters text[], effective_priorities float8[])
    RETURNS TABLE(submitter text, share float8)
    AS 'MODULE_PATHNAME', 'pie_spin' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pie_spin(text[], float8[]) IS 'HTCondor pie spin: each submitter''s share of a negotiation cycle, (1/EUP) / sum(1/EUP), in input order';
