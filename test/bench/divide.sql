-- divide and fair_share benchmarks: divide() over 10^3, 10^5 and 10^6 children
-- against the bisection a user would write in PL/pgSQL (at 10^3 and 10^5, with the error it
-- leaves), and fair_share over pool trees of 10^4 and 10^5 pools with resvec demands.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

-- float8 throughout, as divide() takes them (numeric arrays would time their conversion)
CREATE UNLOGGED TABLE d_inst AS
SELECT n, total,
       ARRAY(SELECT (1 + i % 10)::float8 FROM generate_series(1, n) i) AS w,
       ARRAY(SELECT CASE WHEN i % 4 = 0 THEN 0.2::float8 / n ELSE 0::float8 END FROM generate_series(1, n) i) AS l,
       ARRAY(SELECT (1 + i % 7) * 0.5::float8 / n FROM generate_series(1, n) i) AS u
FROM (VALUES (1000, 1.0::float8), (100000, 1.0::float8), (1000000, 1.0::float8)) AS t(n, total);

-- the bisection a user would write for one level: 25 halvings, as YARN's FairScheduler does
CREATE FUNCTION pg_temp.bisect_divide(total float8, w float8[], l float8[], u float8[])
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
    lo float8 := 0; hi float8 := 1; x float8; s float8; i int;
BEGIN
    LOOP   -- find an upper end
        SELECT sum(least(greatest(hi * w[k], least(l[k], u[k])), u[k])) INTO s
        FROM generate_subscripts(w, 1) AS k;
        EXIT WHEN s >= total OR hi > 1e12;
        hi := hi * 2;
    END LOOP;
    FOR i IN 1..25 LOOP
        x := (lo + hi) / 2;
        SELECT sum(least(greatest(x * w[k], least(l[k], u[k])), u[k])) INTO s
        FROM generate_subscripts(w, 1) AS k;
        IF s < total THEN lo := x; ELSE hi := x; END IF;
    END LOOP;
    RETURN ARRAY(SELECT least(greatest(hi * w[k], least(l[k], u[k])), u[k])
                 FROM generate_subscripts(w, 1) AS k ORDER BY k);
END $$;

-- divide's shares sum to the total within 1e-12 relative, summed exactly (numeric): adding a
-- million float8 shares with sum(float8) rounds at every step and errs by ~1e-13 on its own
SELECT bench_assert(abs((SELECT sum(v::numeric) FROM unnest(divide(total, w, l, u, m)) v) - total::numeric)
                    <= 1e-12 * total::numeric,
                    format('divide (%s) sums to the total at %s children', m, n))
FROM d_inst, (VALUES ('clamp'), ('additive')) AS mode(m);
-- the error the bisection leaves: how far its shares sum from the total, and from divide()
CREATE UNLOGGED TABLE d_error AS
SELECT n, (SELECT sum(v) FROM unnest(pg_temp.bisect_divide(total, w, l, u)) v) - total AS bisect_sum_error,
       (SELECT max(abs(a - b)) FROM unnest(pg_temp.bisect_divide(total, w, l, u), divide(total, w, l, u)) AS z(a, b))
           AS bisect_max_share_error
FROM d_inst WHERE n IN (1000, 100000);

-- each side returns its array of shares (computed in full; the query discards it)
SELECT bench_record('divide(), clamp', n,
                    format('SELECT cardinality(divide(total, w, l, u)) FROM d_inst WHERE n = %s', n),
                    CASE WHEN n <= 100000 THEN 'PL/pgSQL bisection, 25 steps' ELSE 'none (bisection too slow)' END,
                    CASE WHEN n <= 100000
                         THEN format('SELECT cardinality(pg_temp.bisect_divide(total, w, l, u)) FROM d_inst WHERE n = %s', n)
                    END, 3)
FROM d_inst ORDER BY n;
-- the floor: reading the three inputs
SELECT bench_record(format('divide(), %s', mode), 1000000,
                    format('SELECT cardinality(divide(total, w, l, u, %L)) FROM d_inst WHERE n = 1000000', mode),
                    'floor: reading the 3 input arrays',
                    'SELECT cardinality(w) + cardinality(l) + cardinality(u) FROM d_inst WHERE n = 1000000')
FROM (VALUES ('clamp'), ('additive')) AS m(mode);

-- pool trees: 10 top pools, 100 (or 1000) sub-pools each, leaves with resvec usage and demand
CREATE FUNCTION pg_temp.pool_rows(npools int)
RETURNS TABLE(path sharepath, weight float8, min_share float8, max_share float8, usage resvec, demand resvec)
LANGUAGE sql AS $$
    SELECT format('p%s', i)::sharepath, (1 + i % 3)::float8, 0.05::float8, NULL::float8, NULL::resvec, NULL::resvec
    FROM generate_series(0, 9) i
    UNION ALL
    SELECT format('p%s.s%s', i % 10, i)::sharepath, (1 + i % 5)::float8, NULL, 0.5,
           format('cpu=%s,mem=%sgb', i % 17, i % 13)::resvec,
           format('cpu=%s,mem=%sgb,gpu=%s', 5 + i % 23, 1 + i % 29, i % 2)::resvec
    FROM generate_series(1, npools - 10) i
$$;
CREATE UNLOGGED TABLE d_trees AS
SELECT n, (SELECT pool_tree(path, weight, min_share, max_share, usage, demand) FROM pg_temp.pool_rows(n)) AS t
FROM (VALUES (10000), (100000)) AS s(n);
SELECT bench_record('fair_share() over a pool tree', n,
                    format('SELECT count(*) FROM d_trees, fair_share(t, ''cpu=1000000,mem=2000000gb,gpu=50000'') WHERE n = %s', n),
                    'tree_nodes() of the same tree (reading it)',
                    format('SELECT count(*) FROM d_trees, tree_nodes(t) WHERE n = %s', n))
FROM (VALUES (10000), (100000)) AS s(n);

\echo 'the error a 25-step bisection leaves (sum of shares minus total; largest share difference from divide):'
SELECT n, bisect_sum_error, bisect_max_share_error FROM d_error ORDER BY n \g /dev/stderr
DROP TABLE d_inst, d_error, d_trees;
