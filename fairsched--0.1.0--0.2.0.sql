-- fairsched 0.1.0 -> 0.2.0: every change to the SQL objects since 0.1.0, in order. Each change to
-- a piece in src/sql that alters an object must be repeated here (ALTER, CREATE OR REPLACE, ...);
-- scripts/upgrade_test.sh proves that an updated 0.1.0 database has the same catalogue and values
-- as a fresh 0.2.0 one.

\echo Use "ALTER EXTENSION fairsched UPDATE TO '0.2.0'" to load this file. \quit
