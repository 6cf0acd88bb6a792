-- msic_config: the MSIC-Cluster scheduler's configuration file, holidays file and prime time
-- (docs/msic.md). Local times are the session time zone's.

CREATE FUNCTION fairsched.msic_config(conf text, holidays text DEFAULT NULL,
                                      local_host text DEFAULT NULL)
    RETURNS fairsched.msic_config
    AS 'MODULE_PATHNAME', 'msic_config' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_config(text, text, text) IS 'the MSIC scheduler''s configuration file (and SGI holidays file) read and validated as the original does; a bare queue name gets local_host, lower-cased (NULL host when local_host is NULL); the date form of ENFORCE_PRIME_TIME is read in the session time zone';

CREATE FUNCTION fairsched.is_prime_time(at timestamptz, start interval, "end" interval,
                                        holidays int[] DEFAULT '{}')
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'is_prime_time' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.is_prime_time(timestamptz, interval, interval, int[]) IS 'whether an instant is in MSIC prime time in the session time zone: weekdays that are not holidays (days of the year), from start to end (start > end wraps past midnight, start = end is all day)';

CREATE FUNCTION fairsched.prime_seconds("from" timestamptz, walltime interval, start interval,
                                        "end" interval, holidays int[] DEFAULT '{}')
    RETURNS float8
    AS 'MODULE_PATHNAME', 'prime_seconds' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.prime_seconds(timestamptz, interval, interval, interval, int[]) IS 'seconds of a run from "from" lasting walltime (elapsed time, at most 100 years) that fall in prime time, exact across midnights, weekends, holidays and clock changes of the session time zone';

CREATE FUNCTION fairsched.msic_primetime_limit(config fairsched.msic_config, at timestamptz,
                                               walltime interval)
    RETURNS text
    AS 'MODULE_PATHNAME', 'msic_primetime_limit' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_primetime_limit(fairsched.msic_config, timestamptz, interval) IS 'PRIME_TIME_WALLT_LIMIT: the original''s comment "Exceeds primetime walltime limit (HH:MM:SS)" when the prime-time part of a run started at "at" exceeds the limit, else NULL (also NULL when prime time is not enforced, or not yet: the date form of ENFORCE_PRIME_TIME)';
