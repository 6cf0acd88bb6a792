-- Loading accounting records: copy_rows (1 M) PBS E lines and as many sacct rows, made from the real
-- sample records with a different job id per line. Four timings per format:
--   COPY alone       the raw lines into an unlogged one-column staging table (the floor);
--   parse            CREATE TABLE AS over the staging table with the fairsched parser (called in
--                    FROM: `(f(x)).*` would call it once per column), one core;
--   parse, parallel  the same with 2 workers, in the select-list form (OFFSET 0) that the planner
--                    parallelises (a function in FROM is costed once per query, so the LATERAL
--                    form stays serial);
--   baseline         what a user writes without fairsched: split_part / string_to_array for the
--                    fields and regexp_split_to_table for the key=value pairs, into a table too
--                    (CREATE TABLE AS, so that no planner shortcut drops the work);
--   typed COPY       COPY of the same records pre-split into their typed columns (the floor of
--                    forming those rows);
--   reload           the upsert of an already loaded file (every row conflicts) next to COPY, and
--                    load_new_lines of a loaded file (COPY into a numbered staging table, then no
--                    new line) next to COPY.
-- Three interleaved pairs each (a parse takes seconds).
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\set bench_lines :copy_rows

-- ---------------------------------------------------------------- PBS
CREATE TEMP TABLE pbs_sample (n int, line text);
\copy pbs_sample(line) FROM 'sql/data/pbs_accounting_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
-- clean E lines only (no grep prefix or other oddity), so that the plain-SQL baseline reads them too
DELETE FROM pbs_sample WHERE split_part(line, ';', 2) <> 'E'
    OR (SELECT p.error IS NOT NULL OR cardinality(p.anomalies) > 0 FROM pbs_acct_try(line) AS p);
UPDATE pbs_sample s SET n = r.n - 1
FROM (SELECT ctid, row_number() OVER () AS n FROM pbs_sample) r WHERE s.ctid = r.ctid;
SELECT bench_assert(count(*) > 5, 'PBS sample E lines') FROM pbs_sample;

\set pbs_file :dir '/pbs_lines.txt'
COPY (SELECT regexp_replace(s.line, ';E;[0-9]+', ';E;' || (1000000 + i)::text)
      FROM generate_series(1, :bench_lines) AS i
      JOIN pbs_sample s ON s.n = i % (SELECT count(*) FROM pbs_sample))
TO :'pbs_file' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');

CREATE UNLOGGED TABLE pbs_raw (line text);
CREATE FUNCTION bench_pbs_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE pbs_raw;
    EXECUTE format($q$COPY pbs_raw FROM %L WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')$q$,
                   current_setting('bench.pbs_file'));
END $f$;
SELECT set_config('bench.pbs_file', :'pbs_file', false);
SELECT bench_pbs_copy();
VACUUM ANALYZE pbs_raw;
SELECT bench_assert(count(*) = :bench_lines AND count(*) FILTER (WHERE (pbs_acct_try(line)).error IS NOT NULL) = 0,
                    'every generated PBS line parses') FROM pbs_raw;

SELECT bench_record('pbs_acct: CREATE TABLE AS of parsed E lines', :bench_lines,
    $q$DROP TABLE IF EXISTS pbs_parsed; CREATE UNLOGGED TABLE pbs_parsed AS SELECT p.* FROM pbs_raw r, LATERAL pbs_acct(r.line) AS p$q$,
    'COPY of the same lines into a text column',
    $q$SELECT bench_pbs_copy()$q$, 3, 2.0);
SELECT bench_record('pbs_acct: the same, 2 parallel workers (select-list form)', :bench_lines,
    $q$SET max_parallel_workers_per_gather = 2; DROP TABLE IF EXISTS pbs_parsed;
       CREATE UNLOGGED TABLE pbs_parsed AS SELECT (p).* FROM (SELECT pbs_acct(line) AS p FROM pbs_raw OFFSET 0) s;
       SET max_parallel_workers_per_gather = 0$q$,
    'COPY of the same lines into a text column',
    $q$SELECT bench_pbs_copy()$q$, 3);
SELECT bench_record('pbs_acct: CREATE TABLE AS of parsed E lines', :bench_lines,
    $q$DROP TABLE IF EXISTS pbs_parsed; CREATE UNLOGGED TABLE pbs_parsed AS SELECT p.* FROM pbs_raw r, LATERAL pbs_acct(r.line) AS p$q$,
    'SQL: split_part + regexp_split_to_table of the pairs into jsonb',
    $q$DROP TABLE IF EXISTS pbs_sql; CREATE UNLOGGED TABLE pbs_sql AS
       SELECT split_part(line, ';', 1)::timestamp AS log_time, split_part(line, ';', 2) AS record_type,
              split_part(line, ';', 3) AS job_id,
              (SELECT jsonb_object_agg(split_part(kv, '=', 1), substr(kv, strpos(kv, '=') + 1))
               FROM regexp_split_to_table(split_part(line, ';', 4), ' ') AS kv WHERE kv <> '') AS attrs
       FROM pbs_raw$q$, 3);

-- the floor of forming the same rows: COPY of the parsed records, pre-split into typed columns
\set pbs_typed_file :dir '/pbs_typed.txt'
COPY pbs_parsed TO :'pbs_typed_file';
CREATE UNLOGGED TABLE pbs_typed (LIKE pbs_parsed);
CREATE FUNCTION bench_pbs_typed_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE pbs_typed;
    EXECUTE format('COPY pbs_typed FROM %L', current_setting('bench.pbs_typed_file'));
END $f$;
SELECT set_config('bench.pbs_typed_file', :'pbs_typed_file', false);
SELECT bench_record('pbs_acct: CREATE TABLE AS of parsed E lines', :bench_lines,
    $q$DROP TABLE IF EXISTS pbs_parsed; CREATE UNLOGGED TABLE pbs_parsed AS SELECT p.* FROM pbs_raw r, LATERAL pbs_acct(r.line) AS p$q$,
    'COPY of the same records pre-split into typed columns',
    $q$SELECT bench_pbs_typed_copy()$q$, 3, 1.5);

-- a reload through load_new_lines: COPY into a numbered staging table, then no new line
CREATE UNLOGGED TABLE pbs_stage (n bigserial, line text);
CREATE FUNCTION bench_pbs_stage_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE pbs_stage RESTART IDENTITY;
    EXECUTE format($q$COPY pbs_stage(line) FROM %L WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')$q$,
                   current_setting('bench.pbs_file'));
END $f$;
SELECT bench_pbs_stage_copy();
SELECT bench_assert(count(*) = :bench_lines, 'the first load gives every line')
FROM load_new_lines('bench:pbs', 'pbs_lines.txt', 'pbs_stage');
SELECT bench_record('PBS reload: COPY + load_new_lines of a loaded file', :bench_lines,
    $q$SELECT bench_pbs_stage_copy(); SELECT count(*) FROM load_new_lines('bench:pbs', 'pbs_lines.txt', 'pbs_stage')$q$,
    'COPY alone',
    $q$SELECT bench_pbs_copy()$q$, 3, 1.2);
SELECT bench_assert(count(*) = 0, 'the reload gives no line')
FROM load_new_lines('bench:pbs', 'pbs_lines.txt', 'pbs_stage');

-- a reload: every row is already there
CREATE UNLOGGED TABLE pbs_usage_records (
    server text, job_seq bigint NOT NULL, array_index int, ctime timestamptz, record_type text NOT NULL,
    "end" timestamptz, "user" text, used resvec,
    UNIQUE NULLS NOT DISTINCT (server, job_seq, array_index, ctime, record_type, "end"));
INSERT INTO pbs_usage_records
SELECT server, job_seq, array_index, ctime, record_type, "end", "user", used FROM pbs_parsed ON CONFLICT DO NOTHING;
SELECT bench_record('PBS reload: COPY + parse + upsert of a loaded file', :bench_lines,
    $q$SELECT bench_pbs_copy(); SET max_parallel_workers_per_gather = 2;
       DROP TABLE IF EXISTS pbs_parsed; CREATE UNLOGGED TABLE pbs_parsed AS SELECT p.* FROM pbs_raw r, LATERAL pbs_acct(r.line) AS p;
       SET max_parallel_workers_per_gather = 0;
       INSERT INTO pbs_usage_records
       SELECT server, job_seq, array_index, ctime, record_type, "end", "user", used FROM pbs_parsed
       ON CONFLICT DO NOTHING$q$,
    'COPY alone',
    $q$SELECT bench_pbs_copy()$q$, 3);
SELECT bench_assert(count(*) = :bench_lines, 'the reload added nothing') FROM pbs_usage_records;

-- ---------------------------------------------------------------- sacct
CREATE TEMP TABLE sacct_block (n int, line text);
\copy sacct_block(line) FROM PROGRAM 'awk ''/^# block: constructed_edges/{f=1; next} /^# block/{f=0} f'' sql/data/sacct_parsable2_samples.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT line AS sacct_header FROM sacct_block LIMIT 1 \gset
-- complete allocation rows that the plain-SQL baseline's casts read too
DELETE FROM sacct_block WHERE line = :'sacct_header'
    OR (SELECT p.error IS NOT NULL FROM sacct_row_try(line, :'sacct_header') AS p)
    OR line !~ '^[0-9]+\|[0-9]+\|' OR split_part(line, '|', 7) !~ '^\d{4}-'
    OR split_part(line, '|', 9) !~ '^\d+:\d\d:\d\d$';
UPDATE sacct_block s SET n = r.n - 1
FROM (SELECT ctid, row_number() OVER () AS n FROM sacct_block) r WHERE s.ctid = r.ctid;
SELECT bench_assert(count(*) >= 5, 'sacct sample rows') FROM sacct_block;

\set sacct_file :dir '/sacct_lines.txt'
COPY (SELECT regexp_replace(s.line, '^[0-9]+\|[0-9]+\|', (1000000 + i)::text || '|' || (1000000 + i)::text || '|')
      FROM generate_series(1, :bench_lines) AS i
      JOIN sacct_block s ON s.n = i % (SELECT count(*) FROM sacct_block))
TO :'sacct_file' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');

CREATE UNLOGGED TABLE sacct_raw (line text);
CREATE FUNCTION bench_sacct_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE sacct_raw;
    EXECUTE format($q$COPY sacct_raw FROM %L WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')$q$,
                   current_setting('bench.sacct_file'));
END $f$;
SELECT set_config('bench.sacct_file', :'sacct_file', false);
SELECT set_config('bench.sacct_header', :'sacct_header', false);
SELECT bench_sacct_copy();
VACUUM ANALYZE sacct_raw;

SELECT bench_record('sacct_row: CREATE TABLE AS of parsed rows', :bench_lines,
    $q$DROP TABLE IF EXISTS sacct_parsed; CREATE UNLOGGED TABLE sacct_parsed AS
       SELECT p.* FROM sacct_raw r, LATERAL sacct_row(r.line, current_setting('bench.sacct_header')) AS p$q$,
    'COPY of the same lines into a text column',
    $q$SELECT bench_sacct_copy()$q$, 3, 2.0);
SELECT bench_record('sacct_row: the same, 2 parallel workers (select-list form)', :bench_lines,
    $q$SET max_parallel_workers_per_gather = 2; DROP TABLE IF EXISTS sacct_parsed;
       CREATE UNLOGGED TABLE sacct_parsed AS
       SELECT (p).* FROM (SELECT sacct_row(line, current_setting('bench.sacct_header')) AS p FROM sacct_raw OFFSET 0) s;
       SET max_parallel_workers_per_gather = 0$q$,
    'COPY of the same lines into a text column',
    $q$SELECT bench_sacct_copy()$q$, 3);
\set sacct_typed_file :dir '/sacct_typed.txt'
COPY sacct_parsed TO :'sacct_typed_file';
CREATE UNLOGGED TABLE sacct_typed (LIKE sacct_parsed);
CREATE FUNCTION bench_sacct_typed_copy() RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    TRUNCATE sacct_typed;
    EXECUTE format('COPY sacct_typed FROM %L', current_setting('bench.sacct_typed_file'));
END $f$;
SELECT set_config('bench.sacct_typed_file', :'sacct_typed_file', false);
SELECT bench_record('sacct_row: CREATE TABLE AS of parsed rows', :bench_lines,
    $q$DROP TABLE IF EXISTS sacct_parsed; CREATE UNLOGGED TABLE sacct_parsed AS
       SELECT p.* FROM sacct_raw r, LATERAL sacct_row(r.line, current_setting('bench.sacct_header')) AS p$q$,
    'COPY of the same records pre-split into typed columns',
    $q$SELECT bench_sacct_typed_copy()$q$, 3, 1.5);
SELECT bench_record('sacct_row: CREATE TABLE AS of parsed rows', :bench_lines,
    $q$DROP TABLE IF EXISTS sacct_parsed; CREATE UNLOGGED TABLE sacct_parsed AS
       SELECT p.* FROM sacct_raw r, LATERAL sacct_row(r.line, current_setting('bench.sacct_header')) AS p$q$,
    'SQL: string_to_array and casts of the same columns',
    $q$DROP TABLE IF EXISTS sacct_sql; CREATE UNLOGGED TABLE sacct_sql AS
       SELECT f[1] AS job_id, f[2] AS job_id_raw, f[3] AS "user", f[4] AS account, f[5] AS partition,
              f[6]::timestamp AS submit, nullif(f[7], 'Unknown')::timestamp AS start,
              nullif(f[8], 'Unknown')::timestamp AS "end", f[9]::interval AS elapsed,
              f[11] AS state, split_part(f[12], ':', 1)::int AS exit_code, f[13]::int AS nnodes,
              f[14]::int AS ncpus, f[15] AS req_mem,
              (SELECT jsonb_object_agg(split_part(t, '=', 1), split_part(t, '=', 2))
               FROM regexp_split_to_table(f[16], ',') AS t WHERE t <> '') AS alloc_tres, f[17] AS jobname
       FROM (SELECT string_to_array(line, '|') AS f FROM sacct_raw) AS s$q$, 3);

DROP TABLE pbs_raw, pbs_parsed, pbs_sql, pbs_usage_records, pbs_typed, pbs_stage, sacct_raw, sacct_parsed, sacct_sql, sacct_typed;
DROP FUNCTION bench_pbs_copy(), bench_sacct_copy(), bench_pbs_typed_copy(), bench_pbs_stage_copy(), bench_sacct_typed_copy();
DELETE FROM load_log WHERE source = 'bench:pbs';
