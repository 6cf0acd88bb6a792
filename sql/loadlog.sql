-- load_new_lines and fairsched.load_log: incremental and idempotent loads (docs/loading.md).
-- No search_path here: the function must qualify every name it uses.
CREATE EXTENSION IF NOT EXISTS fairsched;
SET search_path = public;
-- the ML-HPC PBS Pro daily file of 6 March 2023 (62 lines, sql/data/wild/), in a usage table
-- keyed on the record's natural key
CREATE TABLE pbs_records (source text, server text, job_seq bigint, array_index int, record_type text,
    log_time timestamp, ctime timestamptz, "end" timestamptz, lineno bigint NOT NULL, "user" text,
    UNIQUE NULLS NOT DISTINCT (source, server, job_seq, array_index, record_type, log_time, ctime, "end"));
CREATE TABLE pbs_rejects (source text, file text, lineno bigint, error text);
CREATE TEMP TABLE staging (n bigserial, line text);
-- one load: the new lines, parsed once, into the records and the rejects
CREATE FUNCTION load_file(file text) RETURNS TABLE(given bigint, inserted bigint, rejected bigint)
LANGUAGE sql AS $$
    WITH new AS (SELECT l.lineno, p.* FROM fairsched.load_new_lines('pbs:ml-hpc', file, 'staging') l,
                                           LATERAL fairsched.pbs_acct_try(l.line) p),
         bad AS (INSERT INTO pbs_rejects SELECT 'pbs:ml-hpc', file, lineno, error FROM new
                 WHERE error IS NOT NULL RETURNING 1),
         ins AS (INSERT INTO pbs_records
                 SELECT 'pbs:ml-hpc', server, job_seq, array_index, record_type, log_time, ctime, "end", lineno, "user"
                 FROM new WHERE error IS NULL ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM new), (SELECT count(*) FROM ins), (SELECT count(*) FROM bad)
$$;
-- the first 40 lines, as a growing log is when first loaded (the file writes the Q record of
-- 8 jobs twice in the same second, 7 of them in these lines: 33 distinct records, 54 in all 62)
\copy staging(line) FROM PROGRAM 'head -n 40 sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT * FROM load_file('20230306');
SELECT source, file, lines, loads FROM fairsched.load_log;
-- the whole file later: only lines 41-62 are new
TRUNCATE staging RESTART IDENTITY;
\copy staging(line) FROM 'sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT * FROM load_file('20230306');
SELECT source, file, lines, loads FROM fairsched.load_log;
SELECT count(*) AS records, count(DISTINCT lineno) AS lines, min(lineno), max(lineno) FROM pbs_records;
-- a reload, under another name (a copy or a rotated file): nothing
SELECT * FROM load_file('20230306.bak');
SELECT source, file, lines, loads FROM fairsched.load_log;
-- with its log row deleted (the remedy the errors below suggest), the file comes again whole,
-- and the upsert key keeps every record out; the log has it anew
DELETE FROM fairsched.load_log;
SELECT * FROM load_file('20230306');
SELECT source, file, lines, loads FROM fairsched.load_log;
-- an older, shorter copy of it: nothing
TRUNCATE staging RESTART IDENTITY;
\copy staging(line) FROM PROGRAM 'head -n 10 sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT * FROM load_file('20230306');
-- an empty file: nothing, and no log row
TRUNCATE staging RESTART IDENTITY;
SELECT * FROM load_file('empty');
SELECT count(*) FROM fairsched.load_log;
-- the same lines under another source are another stream
INSERT INTO staging(line) VALUES ('03/06/2023 00:00:01;L;license;floating license hour:3');
SELECT * FROM fairsched.load_new_lines('pbs:other', 'x', 'staging');
-- a file whose last loaded line (62) changed: refused
TRUNCATE staging RESTART IDENTITY;
\copy staging(line) FROM 'sql/data/wild/pbs_qiudi_mlhpc_pbspro_2023_subset.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE staging SET line = line || ' x=1' WHERE n = 62;
INSERT INTO staging(line) VALUES ('03/07/2023 00:00:01;L;license;floating license hour:3');
SELECT * FROM fairsched.load_new_lines('pbs:ml-hpc', '20230306', 'staging');
-- (a change before the last loaded line is not seen: only the first and the last loaded lines
-- are compared, so that a reload costs no hash of the file)
UPDATE staging SET line = replace(line, ' x=1', '') WHERE n = 62;
UPDATE staging SET line = line || ' x=1' WHERE n = 30;
SELECT lineno, left(line, 40) FROM fairsched.load_new_lines('pbs:ml-hpc', '20230306', 'staging');
-- blank lines (NULL in CSV mode) count as lines
TRUNCATE staging RESTART IDENTITY;
INSERT INTO staging(line) VALUES ('first'), (NULL), ('third');
SELECT * FROM fairsched.load_new_lines('blank', 'b', 'staging');
INSERT INTO staging(line) VALUES (NULL);
SELECT * FROM fairsched.load_new_lines('blank', 'b', 'staging');
-- errors
SELECT * FROM fairsched.load_new_lines(NULL, 'x', 'staging');
SELECT * FROM fairsched.load_new_lines('s', NULL, 'staging');
SELECT * FROM fairsched.load_new_lines('s', 'x', NULL);
CREATE TEMP TABLE bad_staging (lineno bigint, line text);
SELECT * FROM fairsched.load_new_lines('s', 'x', 'bad_staging');
CREATE TEMP TABLE gappy (n bigint, line text);
INSERT INTO gappy VALUES (1, 'a'), (3, 'c');
SELECT * FROM fairsched.load_new_lines('s', 'x', 'gappy');
SELECT * FROM fairsched.load_new_lines('s', 'x', 'no_such_table');
-- a transaction that aborts leaves no trace in the log
TRUNCATE gappy;
INSERT INTO gappy VALUES (5, 'e'), (6, 'f');
BEGIN;
SELECT * FROM fairsched.load_new_lines('s', 'x', 'gappy');
ROLLBACK;
SELECT count(*) FROM fairsched.load_log WHERE source = 's';
SELECT * FROM fairsched.load_new_lines('s', 'x', 'gappy');
