-- fairsched install script: built by make from the pieces in src/sql, in the order of
-- SQL_MODULES in the Makefile. Edit the pieces, never the generated fairsched--<version>.sql.

\echo Use "CREATE EXTENSION fairsched" to load this file. \quit

COMMENT ON SCHEMA fairsched IS 'fairsched: fair-share scheduling values (SLURM, PBS, HTCondor, YTsaurus) computed in SQL';
