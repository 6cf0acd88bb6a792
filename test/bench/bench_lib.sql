-- bench_lib.sql: timing helpers shared by every benchmark script.
-- bench_ms(query, reps): the best of `reps` runs, in milliseconds (the best run is the least
-- disturbed by the rest of the machine). Results go to bench_results, printed by bench.sh.
CREATE TABLE IF NOT EXISTS bench_results (
    seq serial, workload text, rows bigint, fairsched_ms float8, baseline text, baseline_ms float8
);

CREATE OR REPLACE FUNCTION bench_ms(query text, reps int DEFAULT 3) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    best float8 := 'Infinity';
    t0 timestamptz;
    i int;
BEGIN
    FOR i IN 1..reps LOOP
        t0 := clock_timestamp();
        EXECUTE query;
        best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1000);
    END LOOP;
    RETURN best;
END $$;

-- theirs may be NULL when there is no baseline worth timing (the row then shows none)
CREATE OR REPLACE FUNCTION bench_record(workload text, rows bigint, ours text, baseline text,
                                        theirs text, reps int DEFAULT 3) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bench_results (workload, rows, fairsched_ms, baseline, baseline_ms)
    VALUES (workload, rows, bench_ms(ours, reps), baseline,
            CASE WHEN theirs IS NULL THEN NULL ELSE bench_ms(theirs, reps) END);
END $$;

CREATE OR REPLACE FUNCTION bench_assert(ok boolean, what text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'benchmark sanity check failed: %', what;
    END IF;
END $$;
