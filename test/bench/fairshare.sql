-- fairshare benchmarks: fairshare() (classic, fair_tree, pbs) over 3-level share trees of growing
-- size, against the plain-SQL reference of test/reference/fairshare_reference.sql (recursive
-- CTEs from the rows), which a user would otherwise write. psql variable: tree_nodes, a list of tree sizes
-- (default '10000 100000 1000000'; bench.sh passes BENCH_TREE_NODES). One core: the per-node
-- costs compare. A summary of the time per node at each size (linear growth: a flat line) is
-- raised as a NOTICE at the end.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\ir ../reference/fairshare_reference.sql
\if :{?tree_nodes}
\else
\set tree_nodes '10000 100000 1000000'
\endif

-- The rows of a tree of exactly n nodes: a = round(n^(1/3)) accounts, a groups in each, and
-- the remaining n - 1 - a - a^2 users spread over the groups; every tenth group is
-- FairShare=parent, a fifth of the users have 0 shares, usage on the users only (whole
-- numbers, so every sum is exact whatever the order of addition)
CREATE FUNCTION pg_temp.make_tree_rows(tab text, n bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a bigint := round(cbrt(n));
BEGIN
    EXECUTE format($q$
        CREATE UNLOGGED TABLE %1$I AS
        SELECT format('acct%%s', k)::fairsched.sharepath AS path, (k %% 5 + 1)::float8 AS shares,
               0::float8 AS usage, false AS shares_from_parent
        FROM generate_series(0, %2$s - 1) AS k
        UNION ALL
        SELECT format('acct%%s.grp%%s', g / %2$s, g)::fairsched.sharepath,
               CASE WHEN g %% 10 = 3 THEN NULL ELSE g %% 4 + 1 END, 0, g %% 10 = 3
        FROM generate_series(0, %2$s * %2$s - 1) AS g
        UNION ALL
        SELECT format('acct%%s.grp%%s.user%%s', i %% (%2$s * %2$s) / %2$s, i %% (%2$s * %2$s),
                      i)::fairsched.sharepath,
               i %% 5, i * 7919 %% 1000, false
        FROM generate_series(0::bigint, %3$s - 2 - %2$s - %2$s * %2$s) AS i$q$, tab, a, n);
END $$;

CREATE TEMP TABLE b_fs_sizes AS
SELECT n::bigint AS n, 'b_fs_rows_' || n AS tab
FROM unnest(string_to_array(:'tree_nodes', ' ')) AS n WHERE n <> '';
SELECT pg_temp.make_tree_rows(tab, n) FROM b_fs_sizes;
SELECT format('VACUUM ANALYZE %I', tab) FROM b_fs_sizes \gexec
-- each tree built once and stored (fairshare() then reads it as a flat value, as it would a
-- snapshot kept in a table)
CREATE UNLOGGED TABLE b_fs_trees (n bigint PRIMARY KEY, t sharetree);
SELECT format('INSERT INTO b_fs_trees SELECT %s, share_tree(path, shares, usage, shares_from_parent) FROM %I',
              n, tab)
FROM b_fs_sizes \gexec

-- sanity: every tree has its size, and fairshare() and the reference agree on every node of
-- the trees up to 100,000 nodes (classic and pbs; the largest is only counted, below)
SELECT bench_assert((SELECT count(*) FROM tree_nodes(t)) = n,
                    format('the tree of %s nodes has %s', n, (SELECT count(*) FROM tree_nodes(t))))
FROM b_fs_trees;
SELECT bench_assert(NOT EXISTS (SELECT FROM pg_temp.fairshare_mismatches(s.tab, a.algo)),
                    format('fairshare(%s) and the reference disagree on the tree of %s nodes',
                           a.algo, s.n))
FROM b_fs_sizes AS s, (VALUES ('classic'), ('pbs')) AS a(algo)
WHERE s.n <= 100000;

-- the timed reference lists every node of the largest tree too
SELECT bench_assert(c.nodes = c.n, format('the reference lists %s nodes for the tree of %s', c.nodes, c.n))
FROM (SELECT n, (SELECT count(*) FROM pg_temp.reference_fairshare(tab)) AS nodes
      FROM b_fs_sizes WHERE n = (SELECT max(n) FROM b_fs_sizes) AND n > 100000) AS c;

-- Every row below times fairsched and its comparison in turns (median of the pairs). The
-- reference is the baseline; tree_nodes() of the same stored tree and generate_series() of as
-- many rows are floors: reading the tree and listing its nodes, and emitting bare rows.
SELECT bench_record(w.workload, s.n, format(w.ours, s.n, s.tab), w.baseline,
                    format(w.theirs, s.n, s.tab), CASE WHEN w.slow AND s.n > 100000 THEN 3 ELSE 5 END,
                    w.target)
FROM b_fs_sizes AS s,
     (VALUES (1, 'fairshare(t) classic, stored 3-level tree',
              'SELECT count(*) FROM fairshare((SELECT t FROM b_fs_trees WHERE n = %1$s), ''classic'')',
              'plain SQL reference (classic), recursive CTEs from the rows',
              'SELECT count(*) FROM pg_temp.reference_fairshare(%2$L, ''classic'')', true, NULL::float8),
             (2, 'fairshare(t) classic, stored 3-level tree',
              'SELECT count(*) FROM fairshare((SELECT t FROM b_fs_trees WHERE n = %1$s), ''classic'')',
              'floor: tree_nodes(t) of the same tree',
              'SELECT count(*) FROM tree_nodes((SELECT t FROM b_fs_trees WHERE n = %1$s))', false, 1.2),
             (3, 'tree_nodes(t), stored 3-level tree',
              'SELECT count(*) FROM tree_nodes((SELECT t FROM b_fs_trees WHERE n = %1$s))',
              'floor: generate_series() of as many rows',
              'SELECT count(*) FROM generate_series(1, %1$s)', false, 3),
             (4, 'share_tree + fairshare classic, from the rows',
              'SELECT count(*) FROM fairshare((SELECT share_tree(path, shares, usage, shares_from_parent) FROM %2$I), ''classic'')',
              'plain SQL reference (classic), recursive CTEs from the rows',
              'SELECT count(*) FROM pg_temp.reference_fairshare(%2$L, ''classic'')', true, NULL),
             (5, 'fairshare(t) pbs, stored 3-level tree',
              'SELECT count(*) FROM fairshare((SELECT t FROM b_fs_trees WHERE n = %1$s), ''pbs'')',
              'plain SQL reference (pbs), recursive CTEs from the rows',
              'SELECT count(*) FROM pg_temp.reference_fairshare(%2$L, ''pbs'')', true, NULL),
             (6, 'fairshare(t) fair_tree, stored 3-level tree',
              'SELECT count(*) FROM fairshare((SELECT t FROM b_fs_trees WHERE n = %1$s), ''fair_tree'')',
              'floor: tree_nodes(t) of the same tree (Fair Tree has no plain-SQL reference)',
              'SELECT count(*) FROM tree_nodes((SELECT t FROM b_fs_trees WHERE n = %1$s))', false, NULL),
             (7, 'fairshare(t) depth_oblivious, stored 3-level tree',
              'SELECT count(*) FROM fairshare((SELECT t FROM b_fs_trees WHERE n = %1$s), ''depth_oblivious'')',
              'floor: tree_nodes(t) of the same tree (no plain-SQL reference)',
              'SELECT count(*) FROM tree_nodes((SELECT t FROM b_fs_trees WHERE n = %1$s))', false, NULL))
     AS w(ord, workload, ours, baseline, theirs, slow, target)
ORDER BY w.ord, s.n;

-- growth: microseconds per node at each size (a flat line is linear growth)
DO $$
DECLARE
    line record;
BEGIN
    FOR line IN
        SELECT w.workload, string_agg(format('%s nodes %s', w.rows, w.us), ', ' ORDER BY w.rows) AS sizes
        FROM (SELECT DISTINCT ON (workload, rows) workload, rows,
                     round((1000 * fairsched_ms / rows)::numeric, 3) AS us, seq
              FROM bench_results WHERE workload LIKE '%fairshare%' OR workload LIKE 'tree_nodes%'
              ORDER BY workload, rows, seq) AS w
        GROUP BY w.workload ORDER BY min(w.seq)
    LOOP
        RAISE NOTICE 'us per node, %: %', line.workload, line.sizes;
    END LOOP;
END $$;

SELECT format('DROP TABLE %I', tab) FROM b_fs_sizes \gexec
DROP TABLE b_fs_trees;
