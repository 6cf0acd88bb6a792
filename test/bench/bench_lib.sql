-- bench_lib.sql: timing helpers shared by every benchmark script.
-- bench_record runs fairsched's query and its baseline (or floor) in turns, `reps` pairs, and
-- keeps the median of each: interleaved pairs see the same load from the rest of the machine,
-- so their ratio holds even when the absolute times drift. Results go to bench_results,
-- printed by bench.sh with the ratio and, where the workload has one, the target ratio.
CREATE TABLE IF NOT EXISTS bench_results (
    seq serial, workload text, rows bigint, fairsched_ms float8, baseline text, baseline_ms float8,
    target float8
);

-- the time of one run of a query, in milliseconds
CREATE OR REPLACE FUNCTION bench_once(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    EXECUTE query;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;

CREATE OR REPLACE FUNCTION bench_median(times float8[]) RETURNS float8
LANGUAGE sql IMMUTABLE AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(times) AS t
$$;

-- the median of `reps` runs of a query alone, in milliseconds
CREATE OR REPLACE FUNCTION bench_ms(query text, reps int DEFAULT 5) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    times float8[] := '{}';
BEGIN
    FOR i IN 1..reps LOOP
        times := times || bench_once(query);
    END LOOP;
    RETURN bench_median(times);
END $$;

-- theirs may be NULL when there is no baseline worth timing (the row then shows none);
-- target: the ratio fairsched / baseline the project aims at for this workload, if any
CREATE OR REPLACE FUNCTION bench_record(workload text, rows bigint, ours text, baseline text,
                                        theirs text, reps int DEFAULT 5,
                                        target float8 DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    t_ours float8[] := '{}';
    t_theirs float8[] := '{}';
BEGIN
    FOR i IN 1..reps LOOP
        t_ours := t_ours || bench_once(ours);
        IF theirs IS NOT NULL THEN
            t_theirs := t_theirs || bench_once(theirs);
        END IF;
    END LOOP;
    INSERT INTO bench_results (workload, rows, fairsched_ms, baseline, baseline_ms, target)
    VALUES (workload, rows, bench_median(t_ours), baseline,
            CASE WHEN theirs IS NULL THEN NULL ELSE bench_median(t_theirs) END, target);
END $$;

CREATE OR REPLACE FUNCTION bench_assert(ok boolean, what text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'benchmark sanity check failed: %', what;
    END IF;
END $$;
