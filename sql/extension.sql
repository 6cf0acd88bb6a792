-- The extension installs into its own schema, is not relocatable, and documents every object.
CREATE EXTENSION fairsched;
SELECT e.extname, e.extversion, e.extrelocatable, n.nspname
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = 'fairsched';

-- every function and aggregate has a comment
SELECT p.oid::regprocedure AS undocumented
FROM pg_proc p
WHERE p.pronamespace = 'fairsched'::regnamespace
  AND obj_description(p.oid, 'pg_proc') IS NULL;

-- every function is parallel safe and has explicit volatility
SELECT p.oid::regprocedure AS not_parallel_safe
FROM pg_proc p
WHERE p.pronamespace = 'fairsched'::regnamespace AND p.proparallel <> 's';
SELECT p.oid::regprocedure AS volatile
FROM pg_proc p
WHERE p.pronamespace = 'fairsched'::regnamespace AND p.provolatile = 'v';

-- every type has a comment
SELECT t.typname AS undocumented_type
FROM pg_type t
WHERE t.typnamespace = 'fairsched'::regnamespace AND t.typtype = 'b' AND t.typelem = 0
  AND obj_description(t.oid, 'pg_type') IS NULL;

-- the upgrade path: every released version reaches the current one
SELECT source, target, path FROM pg_extension_update_paths('fairsched') WHERE path IS NOT NULL;

-- the extension drops and recreates cleanly, as the released 0.1.0 too, which updates to the
-- current version (test/upgrade_test.sh proves the catalogue and the stored values equal)
DROP EXTENSION fairsched;
CREATE EXTENSION fairsched VERSION '0.1.0';
SELECT extversion FROM pg_extension WHERE extname = 'fairsched';
ALTER EXTENSION fairsched UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'fairsched';
SELECT default_version FROM pg_available_extensions WHERE name = 'fairsched';
