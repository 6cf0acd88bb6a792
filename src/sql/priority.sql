-- priority: PBS's job_sort_formula (the PP-718 design): the pbs_formula type, PBS's validation
-- with a resourcedef, and a job's formula value (docs/job-priority.md)

CREATE TYPE fairsched.pbs_formula;

CREATE FUNCTION fairsched.pbs_formula_in(cstring) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) RETURNS cstring
    AS 'MODULE_PATHNAME', 'pbs_formula_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_recv(internal) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pbs_formula_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.pbs_formula (
    INPUT = fairsched.pbs_formula_in,
    OUTPUT = fairsched.pbs_formula_out,
    RECEIVE = fairsched.pbs_formula_recv,
    SEND = fairsched.pbs_formula_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.pbs_formula IS 'a PBS job_sort_formula (a Python expression over numeric resources and PBS''s keywords), validated, stored and printed as its text';
COMMENT ON FUNCTION fairsched.pbs_formula_in(cstring) IS 'text input of pbs_formula: PBS''s validation with the built-in resources only (15123, 15124, 15125)';
COMMENT ON FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) IS 'text output of pbs_formula: the formula as written';
COMMENT ON FUNCTION fairsched.pbs_formula_recv(internal) IS 'binary input of pbs_formula (validated like text input)';
COMMENT ON FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) IS 'binary output of pbs_formula (a format version byte, then the text)';

CREATE FUNCTION fairsched.pbs_formula(formula text, resourcedef text DEFAULT NULL)
    RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula(text, text) IS 'PBS''s validation of a job_sort_formula, with the site''s custom resources from the text of a resourcedef file: 15123 Invalid Formula Format, 15124 Formula contains invalid keyword, 15125 Formula contains a resource of an invalid type';

CREATE FUNCTION fairsched.pbs_formula_value(f fairsched.pbs_formula, requested fairsched.resvec,
                                            queue_priority int DEFAULT 0,
                                            job_priority int DEFAULT 0,
                                            eligible_time interval DEFAULT '0',
                                            fairshare_perc float8 DEFAULT NULL,
                                            fairshare_tree_usage float8 DEFAULT NULL,
                                            on_error text DEFAULT 'zero',
                                            accrue_type int DEFAULT 0) RETURNS float8
    AS 'MODULE_PATHNAME', 'pbs_formula_value' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula_value(fairsched.pbs_formula, fairsched.resvec, int, int, interval, float8, float8, text, int) IS 'the job_sort_formula value PBS stores for a job (a 32-bit float): requested resources in kb and seconds with 4 decimals (0 when not requested), the fairshare keywords with 6 decimals, fairshare_factor = 2^-(usage/perc); an evaluation error gives 0 and a NOTICE with PBS''s log text (on_error => ''raise'' raises it)';
