-- fairsched 0.1.0 -> 0.2.0: every change to the SQL objects since 0.1.0, in order. Each change to
-- a piece in src/sql that alters an object must be repeated here (ALTER, CREATE OR REPLACE, ...);
-- test/upgrade_test.sh proves that an updated 0.1.0 database has the same catalogue and values
-- as a fresh 0.2.0 one.

\echo Use "ALTER EXTENSION fairsched UPDATE TO '0.2.0'" to load this file. \quit

-- msic_default_mem: the rule msic_cycle applies, in C (was the same rule written in SQL); a
-- negative or infinite amount is now an error
CREATE OR REPLACE FUNCTION fairsched.msic_default_mem(config fairsched.msic_config, queue text,
                                                      default_mem float8 DEFAULT NULL,
                                                      max_mem float8 DEFAULT NULL) RETURNS float8
AS 'MODULE_PATHNAME', 'msic_default_mem'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
