-- sharetree benchmarks: rolling usage up a share tree with share_tree + tree_nodes, against the
-- plain-SQL reference rollup of rollup_reference.sql (every row joined to ancestors(), grouped
-- by ancestor) and against the native GROUP BY path that a rollup cannot beat (the floor).
-- psql variables: rows (a list; the largest is used). One core: the per-row costs compare.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\ir ../reference/rollup_reference.sql

SELECT max(n) AS max_rows FROM unnest(string_to_array(:'rows', ' ')::bigint[]) AS n \gset

-- (a) :max_rows jobs of 10,000 users: 10 accounts x 10 groups x 100 users (a 3-level tree of
-- 10,111 nodes). Every job row carries its user's shares, as when joined from an association
-- table; usages are whole numbers, so every sum is exact whatever the order of addition.
CREATE UNLOGGED TABLE b_st_users AS
SELECT u AS user_id, format('acct%s.grp%s.user%s', u / 1000, u / 100, u)::sharepath AS path,
       (u % 5 + 1)::float8 AS shares
FROM generate_series(0, 9999) AS u;
CREATE UNLOGGED TABLE b_st_jobs AS
SELECT u.path, u.shares, (i % 1000 + 1)::float8 AS usage
FROM generate_series(1, :max_rows) AS i JOIN b_st_users AS u ON u.user_id = i % 10000;
VACUUM ANALYZE b_st_jobs;

SELECT bench_assert(f.nodes = r.nodes AND f.root = r.root AND f.root = j.total,
                    format('share_tree and the reference rollup disagree: %s nodes, root %s; reference %s nodes, root %s; rows %s',
                           f.nodes, f.root, r.nodes, r.root, j.total))
FROM (SELECT count(*) AS nodes, sum(usage) FILTER (WHERE depth = 0) AS root
      FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_jobs))) AS f,
     (SELECT count(*) AS nodes, sum(usage) FILTER (WHERE depth = 0) AS root
      FROM pg_temp.reference_rollup('b_st_jobs')) AS r,
     (SELECT sum(usage) AS total FROM b_st_jobs) AS j;

-- each side sums the usage of every node it lists, so that no side can skip its sums
SELECT bench_record('share_tree rollup, 3 levels, 10k leaves', :max_rows,
                    'SELECT sum(usage) FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_jobs))',
                    'plain SQL: ancestors() join of every row, GROUP BY ancestor',
                    $$SELECT sum(usage) FROM pg_temp.reference_rollup('b_st_jobs')$$, 3);
SELECT bench_record('share_tree rollup, 3 levels, 10k leaves', :max_rows,
                    'SELECT sum(usage) FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_jobs))',
                    'plain SQL grouped first: GROUP BY path, then the ancestors() join of the groups',
                    $$SELECT sum(r.usage) FROM (
                          SELECT a.node, sum(g.usage) AS usage
                          FROM (SELECT path, sum(usage) AS usage FROM b_st_jobs GROUP BY path) AS g
                          CROSS JOIN LATERAL fairsched.ancestors(g.path) AS a(node)
                          GROUP BY a.node) AS r$$, 5, 1);
SELECT bench_record('share_tree rollup, 3 levels, 10k leaves', :max_rows,
                    'SELECT sum(usage) FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_jobs))',
                    'native GROUP BY path, no rollup (floor)',
                    'SELECT sum(s.usage) FROM (SELECT path, sum(usage) AS usage FROM b_st_jobs GROUP BY path) AS s',
                    5, 1);

-- (b) a tree of 1,000,000 leaves, one row each: 100 accounts x 100 groups x 100 users
-- (1,010,101 nodes), built and listed
CREATE UNLOGGED TABLE b_st_big AS
SELECT format('acct%s.grp%s.user%s', i / 10000, i / 100, i)::sharepath AS path,
       (i % 5 + 1)::float8 AS shares, (i % 1000 + 1)::float8 AS usage
FROM generate_series(0, 999999) AS i;
VACUUM ANALYZE b_st_big;

SELECT bench_assert(f.nodes = 1010101 AND f.nodes = r.nodes AND f.root = r.root AND f.root = j.total,
                    format('share_tree and the reference rollup disagree: %s nodes, root %s; reference %s nodes, root %s; rows %s',
                           f.nodes, f.root, r.nodes, r.root, j.total))
FROM (SELECT count(*) AS nodes, sum(usage) FILTER (WHERE depth = 0) AS root
      FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_big))) AS f,
     (SELECT count(*) AS nodes, sum(usage) FILTER (WHERE depth = 0) AS root
      FROM pg_temp.reference_rollup('b_st_big')) AS r,
     (SELECT sum(usage) AS total FROM b_st_big) AS j;

SELECT bench_record('share_tree + tree_nodes, 1M distinct leaves', 1000000,
                    'SELECT sum(usage) FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM b_st_big))',
                    'plain SQL: ancestors() join, GROUP BY ancestor',
                    $$SELECT sum(usage) FROM pg_temp.reference_rollup('b_st_big')$$, 3);

DROP TABLE b_st_users, b_st_jobs, b_st_big;
