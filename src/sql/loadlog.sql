-- loadlog: incremental and idempotent loads of accounting files (docs/loading.md)

CREATE TABLE fairsched.load_log (
    source       text NOT NULL,
    head_md5     text NOT NULL,
    file         text NOT NULL,
    lines        bigint NOT NULL CHECK (lines > 0),
    last_md5     text NOT NULL,
    loads        int NOT NULL DEFAULT 1,
    first_loaded timestamptz NOT NULL DEFAULT now(),
    last_loaded  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, head_md5)
);
COMMENT ON TABLE fairsched.load_log IS 'the files load_new_lines has loaded, one row per source and file content: the md5 of the file''s first line (a renamed or rotated file is the same file), the name it was last loaded under, the lines loaded so far and the md5 of the last of them (a file replaced under the same first line is refused)';
SELECT pg_catalog.pg_extension_config_dump('fairsched.load_log', '');

CREATE FUNCTION fairsched.load_new_lines(source text, file text, staging regclass)
    RETURNS TABLE(lineno bigint, line text)
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    AS $f$
DECLARE
    lo bigint;
    hi bigint;
    cnt bigint;
    head text;
    prev fairsched.load_log;
    at_prev text;
    new_last text;
BEGIN
    IF source IS NULL OR file IS NULL OR staging IS NULL THEN
        RAISE EXCEPTION 'load_new_lines needs a source, a file name and a staging table'
            USING ERRCODE = '22004',
                  HINT = 'Name the stream (such as ''pbs:serverA''), the file and the table the file was copied into.';
    END IF;
    IF (SELECT count(*) FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = staging AND a.attnum > 0 AND NOT a.attisdropped
          AND ((a.attname = 'n' AND a.atttypid IN ('int8'::pg_catalog.regtype, 'int4'::pg_catalog.regtype))
               OR (a.attname = 'line' AND a.atttypid = 'text'::pg_catalog.regtype))) <> 2 THEN
        RAISE EXCEPTION 'staging table % has no columns n (bigint) and line (text)', staging
            USING ERRCODE = '42703',
                  HINT = 'Copy the file into a table such as CREATE TEMP TABLE staging (n bigserial, line text), n numbering the lines in file order.';
    END IF;
    EXECUTE pg_catalog.format('SELECT min(n), max(n), count(n) FROM %s', staging) INTO lo, hi, cnt;
    IF cnt = 0 THEN
        RETURN;
    END IF;
    IF hi - lo + 1 <> cnt THEN
        RAISE EXCEPTION 'the lines of staging table % are not numbered one after another', staging
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('n runs from %s to %s over %s rows.', lo, hi, cnt),
                  HINT = 'Copy each file into an empty table with a bigserial n (TRUNCATE ... RESTART IDENTITY between files).';
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
        INTO head USING lo;
    -- one loader per source at a time: a second waits here until the first commits, then sees
    -- what it loaded (each statement of this function takes a new snapshot in READ COMMITTED;
    -- under REPEATABLE READ the INSERT ... ON CONFLICT below raises a serialization failure)
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('fairsched.load_log'),
                                             pg_catalog.hashtext(source));
    SELECT * INTO prev FROM fairsched.load_log l WHERE l.source = load_new_lines.source AND l.head_md5 = head;
    IF FOUND THEN
        IF cnt <= prev.lines THEN
            -- loaded already, or an older copy of a log loaded further since: nothing changes
            RETURN;
        END IF;
        EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
            INTO at_prev USING lo + prev.lines - 1;
        IF at_prev <> prev.last_md5 THEN
            RAISE EXCEPTION 'line % of file "%" of source "%" is not the line loaded there before', prev.lines, file, source
                USING ERRCODE = '22023',
                      DETAIL = pg_catalog.format('The file starts as the one loaded as "%s", but its line %s changed since.', prev.file, prev.lines),
                      HINT = 'Load only complete lines of a growing log (head -n "$(wc -l < FILE)" FILE). If the file was rewritten, delete its row of fairsched.load_log to load it anew.';
        END IF;
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.md5(coalesce(line, '''')) FROM %s WHERE n = $1 LIMIT 1', staging)
        INTO new_last USING hi;
    INSERT INTO fairsched.load_log AS l (source, head_md5, file, lines, last_md5)
    VALUES (source, head, file, cnt, new_last)
    ON CONFLICT ON CONSTRAINT load_log_pkey DO UPDATE
        SET file = excluded.file, lines = excluded.lines, last_md5 = excluded.last_md5,
            loads = l.loads + 1, last_loaded = pg_catalog.now();
    RETURN QUERY EXECUTE pg_catalog.format('SELECT n - $1 + 1, line FROM %s WHERE n > $2 ORDER BY n', staging)
        USING lo, lo + coalesce(prev.lines, 0) - 1;
END
$f$;
COMMENT ON FUNCTION fairsched.load_new_lines(text, text, regclass) IS 'the lines of a file copied into staging (columns n, numbering the lines in file order, and line) that were not loaded before from this source, with their line numbers in the file, recorded in fairsched.load_log in the same transaction: all of a new file, only the new lines of a file that grew, none of a file loaded already (or of an older, shorter copy of it); a file whose last loaded line changed is refused; loaders of one source run one at a time';
