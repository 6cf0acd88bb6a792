-- fairshare(share_tree(...)) against the plain-SQL reference of
-- test/reference/fairshare_reference.sql (classic and pbs: recursive CTEs over the rows' tree), on
-- generated trees: random-ish depth and width, zero shares, zero usage, zero level sums,
-- FairShare=parent nodes (inner, leaf, chained, under the root), several dampenings.
-- Numbers agree within 1e-12 relative (see pg_temp.fairshare_mismatches).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- the reference and the checker (their text is not echoed here; see the file)
\set ECHO none
\i test/reference/fairshare_reference.sql
\set ECHO all

-- one line per shape and algorithm: nodes, how many node x column values differ, all_match
CREATE FUNCTION pg_temp.check(tab regclass, algo text DEFAULT 'classic', damp float8 DEFAULT 1)
RETURNS TABLE(shape text, algorithm text, dampening float8, nodes bigint, mismatches bigint,
              all_match boolean)
LANGUAGE plpgsql AS $fn$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT %1$L, $1, $2,
               (SELECT count(*) FROM fairsched.fairshare(
                    (SELECT fairsched.share_tree(path, shares, usage, shares_from_parent) FROM %1$s))),
               count(*), count(*) = 0
        FROM pg_temp.fairshare_mismatches(%1$L, $1, $2)$q$, tab)
    USING algo, damp;
END $fn$;

-- ---------------------------------------------------------------- the PP-718 example
-- the reference alone reproduces the worked example: Bob 0.125 / 0.648, Suzy 0.5 / 0.382, and
-- pbsfs: scott 0.832973, group2 1001 / 0.6 = 1668
CREATE TEMP TABLE pp718 AS
SELECT p::sharepath AS path, s::float8 AS shares, u::float8 AS usage, false AS shares_from_parent
FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
     AS rows(p, s, u);
SELECT path, round(norm_usage::numeric, 3) AS actual_usage,
       round(norm_shares::numeric, 2) AS fairshare_perc,
       round(effective_usage::numeric, 3) AS fairshare_tree_usage,
       round(fairshare::numeric, 3) AS fairshare_factor
FROM pg_temp.reference_fairshare('pp718')
WHERE path IN ('group1.Bob', 'group2.Suzy') ORDER BY path;
SELECT path, raw_usage, round(norm_shares::numeric, 3) AS perc,
       round(effective_usage::numeric, 6) AS fairshare_tree_usage,
       round(usage_per_share) AS usage_perc
FROM pg_temp.reference_fairshare('pp718', 'pbs')
WHERE path IN ('', 'group2', 'group2.scott') ORDER BY path;
SELECT * FROM pg_temp.check('pp718')
UNION ALL SELECT * FROM pg_temp.check('pp718', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('pp718', 'classic', 4);

-- ---------------------------------------------------------------- parent
-- FairShare=parent everywhere it can be: a chain of two parent nodes (a.p.q.u1 competes with
-- a.p.u2, a.u3 and the parent leaf a.p2 in a's level), a parent node under the root (p.x and
-- p.y compete with the root's children), a parent leaf under the root (r), a level whose
-- members are all parent nodes (e: level sum 0), a parent node under a 0-share account (z),
-- a row making the root a parent node (ignored: the root is never one), shares stated on a
-- parent row (ignored), and a second row for the parent leaf r that does not say parent
CREATE TEMP TABLE parent_rows AS
SELECT p::sharepath AS path, s::float8 AS shares, u::float8 AS usage, fp AS shares_from_parent
FROM (VALUES ('a', 2, 0, false), ('a.p', 5, 1, true), ('a.p.q', NULL, 0, true),
             ('a.p.q.u1', 1, 30, false), ('a.p.u2', 3, 5, false), ('a.u3', 1, 0, false),
             ('a.p2', NULL, 7, true), ('p', NULL, 0, true), ('p.x', 1, 10, false),
             ('p.y', 0, 4, false), ('r', NULL, 6, true), ('z', 0, 0, false),
             ('z.p', NULL, 0, true), ('z.p.k', 0, 3, false), ('z.m', 0, 2, NULL),
             ('e', 3, 0, false), ('e.p', NULL, 0, true), ('e.p.w', NULL, 9, true),
             ('', NULL, 1, true), ('a.u3', NULL, 2, false), ('r', NULL, 1, false))
     AS rows(p, s, u, fp);
-- the reference's numbers, for reading: the parent nodes copy their level owner's S and E,
-- except that those under the root (p, r) keep their own U as E, as SLURM does
SELECT path, is_leaf, raw_usage, norm_shares, round(effective_usage::numeric, 6) AS eff,
       round(fairshare::numeric, 6) AS fairshare
FROM pg_temp.reference_fairshare('parent_rows') ORDER BY path;
SELECT * FROM pg_temp.fairshare_mismatches('parent_rows');
SELECT * FROM pg_temp.check('parent_rows')
UNION ALL SELECT * FROM pg_temp.check('parent_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('parent_rows', 'classic', 0.5);

-- ---------------------------------------------------------------- wide
-- 3 levels from generate_series arithmetic: 9 accounts a0..a8 of 1 to 4 groups of 1 to 7 users;
-- accounts a0, a3, a6 have 0 shares, the groups of a5.g0 all 0 (a zero level sum), every
-- fourth user 0 shares, every sixth user no usage; usage also on some accounts themselves
CREATE TEMP TABLE wide_rows AS
SELECT format('a%s.g%s.u%s', k, j, u)::sharepath AS path,
       CASE WHEN k = 5 AND j = 0 THEN 0 ELSE (k + j + u) % 4 END::float8 AS shares,
       ((k * 7 + j * 3 + u) % 6 * 10)::float8 AS usage, false AS shares_from_parent
FROM generate_series(0, 8) AS k, generate_series(0, k % 4) AS j,
     generate_series(0, (k * 5 + j * 3) % 7) AS u
UNION ALL
SELECT format('a%s', k)::sharepath, (k % 3)::float8, (k % 2 * 25)::float8, false
FROM generate_series(0, 8) AS k
UNION ALL
SELECT format('a%s.g%s', k, j)::sharepath, (j + 1)::float8, 0, false
FROM generate_series(0, 8) AS k, generate_series(0, k % 4) AS j;
SELECT * FROM pg_temp.fairshare_mismatches('wide_rows');
SELECT * FROM pg_temp.check('wide_rows')
UNION ALL SELECT * FROM pg_temp.check('wide_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('wide_rows', 'classic', 3.5);

-- ---------------------------------------------------------------- deep
-- depths 1 to 8 and widths 1 to 3 from the base-3 digits of i (paths share prefixes, so
-- many inner nodes are named too and carry usage of their own); every seventh path is a parent
-- node; the ancestors are declared too, except those labelled l2 (undeclared: 0 shares), so
-- some levels sum to 0
CREATE TEMP TABLE deep_rows AS
WITH g AS (
    SELECT (SELECT string_agg('l' || (i / (3 ^ x)::int) % 3, '.' ORDER BY x)
            FROM generate_series(0, (i * 7) % 8) AS x)::sharepath AS path,
           CASE WHEN i % 11 = 0 THEN NULL ELSE i % 5 END::float8 AS shares,
           ((i * 13) % 17)::float8 AS usage, i % 7 = 0 AS fp
    FROM generate_series(1, 700) AS i
)
SELECT path, min(shares) AS shares, sum(usage) AS usage, bool_or(fp) AS shares_from_parent
FROM (SELECT * FROM g
      UNION ALL
      SELECT a, CASE WHEN leaf(a) <> 'l2' THEN nlevel(a) % 3 + 1 END, 0, false
      FROM (SELECT DISTINCT path FROM g) AS d, ancestors(d.path, false) AS a
      WHERE nlevel(a) > 0) AS s
GROUP BY path;
-- what the tree holds
WITH n AS (SELECT * FROM tree_nodes((SELECT share_tree(path, shares, usage, shares_from_parent)
                                     FROM deep_rows)))
SELECT count(*) AS nodes, max(depth) AS max_depth,
       count(*) FILTER (WHERE shares_from_parent AND is_leaf) AS parent_leaves,
       count(*) FILTER (WHERE shares_from_parent AND NOT is_leaf) AS parent_inner,
       count(*) FILTER (WHERE shares_from_parent
                        AND parent IN (SELECT path FROM n WHERE shares_from_parent)) AS parent_in_parent,
       count(*) FILTER (WHERE NOT is_leaf AND own_usage > 0) AS inner_own_usage,
       (SELECT count(*) FROM (SELECT FROM n WHERE depth > 0 GROUP BY parent
                              HAVING sum(coalesce(shares, 0)) = 0) AS z) AS zero_sum_levels
FROM n;
SELECT * FROM pg_temp.fairshare_mismatches('deep_rows');
SELECT * FROM pg_temp.check('deep_rows')
UNION ALL SELECT * FROM pg_temp.check('deep_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('deep_rows', 'classic', 2);

-- ---------------------------------------------------------------- small trees
-- no usage anywhere (norm_usage 0 throughout), all shares 0 (every level sums to 0), the root
-- alone, one leaf
CREATE TEMP TABLE idle_rows AS
SELECT format('g%s.u%s', i % 4, i)::sharepath AS path, (i % 3)::float8 AS shares,
       0::float8 AS usage, i % 10 = 0 AS shares_from_parent
FROM generate_series(1, 40) AS i;
CREATE TEMP TABLE noshares_rows AS
SELECT format('g%s.u%s', i % 4, i)::sharepath AS path, 0::float8 AS shares,
       i::float8 AS usage, false AS shares_from_parent
FROM generate_series(1, 40) AS i;
CREATE TEMP TABLE root_rows AS
SELECT ''::sharepath AS path, 5::float8 AS shares, 3::float8 AS usage, false AS shares_from_parent;
CREATE TEMP TABLE leaf_rows AS
SELECT 'only'::sharepath AS path, 1::float8 AS shares, 3::float8 AS usage, false AS shares_from_parent;
SELECT * FROM pg_temp.check('idle_rows')
UNION ALL SELECT * FROM pg_temp.check('idle_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('noshares_rows')
UNION ALL SELECT * FROM pg_temp.check('noshares_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('root_rows')
UNION ALL SELECT * FROM pg_temp.check('root_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('leaf_rows')
UNION ALL SELECT * FROM pg_temp.check('leaf_rows', 'pbs');

-- ---------------------------------------------------------------- extreme factors
-- E / S = 1074 for a and a.y (2^-1074, the smallest subnormal float8), about 10^12 for a.x
-- (underflows to 0), and shares spanning 9 orders of magnitude
CREATE TEMP TABLE extreme_rows AS
SELECT p::sharepath AS path, s::float8 AS shares, u::float8 AS usage, false AS shares_from_parent
FROM (VALUES ('a', 1, 0), ('b', 1073, 0), ('a.x', 1, 1000), ('a.y', 1e9, 0), ('b.z', 1, 0))
     AS rows(p, s, u);
-- (the checker lets factors below 1e-300 differ, so here both sides are printed)
SELECT path, r.norm_shares, r.effective_usage, r.fairshare, f.fairshare AS fairsched_fairshare
FROM pg_temp.reference_fairshare('extreme_rows') AS r
JOIN fairshare((SELECT share_tree(path, shares, usage) FROM extreme_rows)) AS f USING (path)
ORDER BY path;
SELECT * FROM pg_temp.fairshare_mismatches('extreme_rows');
SELECT * FROM pg_temp.check('extreme_rows')
UNION ALL SELECT * FROM pg_temp.check('extreme_rows', 'pbs')
UNION ALL SELECT * FROM pg_temp.check('extreme_rows', 'classic', 0.5);

-- ---------------------------------------------------------------- random
-- 2500 rows of random paths (depth 1 to 6, 4 labels per level), fractional shares and usage:
-- 10 % zero shares, 10 % unstated, 20 % no usage, 8 % parent nodes; several rows per path.
-- Sums of fractions depend on the order of addition, so here the tolerance matters.
SELECT setseed(0.25);
CREATE TEMP TABLE random_raw AS
SELECT (SELECT string_agg('n' || floor(random() * 4)::int, '.')
        FROM generate_series(1, 1 + floor(random() * 6 + i * 0)::int) AS g)::sharepath AS path,
       CASE WHEN r1 < 0.1 THEN 0 WHEN r1 < 0.2 THEN NULL ELSE r1 * 10 END AS shares,
       CASE WHEN r2 < 0.2 THEN 0 ELSE r2 * 1000 END AS usage,
       r3 < 0.08 AS fp
FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3
      FROM generate_series(1, 2500) AS i) AS x;
-- the rows of one path must agree on shares (share_tree raises an error otherwise)
CREATE TEMP TABLE random_rows AS
SELECT path, first_value(shares) OVER (PARTITION BY path ORDER BY shares NULLS LAST) AS shares,
       usage, bool_or(fp) OVER (PARTITION BY path) AS shares_from_parent
FROM random_raw;
SELECT count(DISTINCT path) > 1000 AS many_paths, max(nlevel(path)) AS max_depth,
       bool_or(shares_from_parent) AS has_parent_nodes, bool_or(shares = 0) AS has_zero_shares,
       bool_or(usage = 0) AS has_zero_usage
FROM random_rows;
SELECT count(*) AS mismatches FROM pg_temp.fairshare_mismatches('random_rows');
-- fractional sums in another order: most nodes differ in the last bits, all within 1e-12
SELECT count(*) > 1000 AS many_nodes,
       count(*) FILTER (WHERE f.fairshare = r.fairshare AND f.effective_usage = r.effective_usage
                              AND f.norm_shares = r.norm_shares) < count(*) / 2 AS mostly_inexact,
       max(abs(f.fairshare - r.fairshare) / nullif(greatest(f.fairshare, r.fairshare), 0)) < 1e-12
           AS within
FROM fairshare((SELECT share_tree(path, shares, usage, shares_from_parent) FROM random_rows)) AS f
JOIN pg_temp.reference_fairshare('random_rows') AS r USING (path);
SELECT shape, algorithm, dampening, nodes > 1000 AS many_nodes, mismatches, all_match
FROM (SELECT * FROM pg_temp.check('random_rows')
      UNION ALL SELECT * FROM pg_temp.check('random_rows', 'pbs')
      UNION ALL SELECT * FROM pg_temp.check('random_rows', 'classic', 0.25)
      UNION ALL SELECT * FROM pg_temp.check('random_rows', 'pbs', 3)) AS c;

-- ---------------------------------------------------------------- the check can fail
-- fairshare() with dampening 1 against the reference with dampening 2: the fairshare column,
-- and only it, differs on every node
SELECT what, count(*) AS mismatches
FROM pg_temp.fairshare_mismatches('pp718', 'classic', 1, 2) GROUP BY what;
SELECT path, round(fairsched::numeric, 6) AS fairsched, round(reference::numeric, 6) AS reference
FROM pg_temp.fairshare_mismatches('pp718', 'classic', 1, 2);
-- the reference fed one changed share (scott 40 -> 41): the comparison sees it
CREATE TEMP VIEW pp718_fs AS
SELECT f.path, f.depth, f.is_leaf, f.raw_usage, f.norm_shares, f.norm_usage,
       f.effective_usage, f.fairshare, f.usage_per_share
FROM fairshare((SELECT share_tree(path, shares, usage) FROM pp718)) AS f;
CREATE TEMP TABLE pp718_off AS
SELECT path, CASE WHEN path = 'group2.scott' THEN 41 ELSE shares END AS shares, usage,
       shares_from_parent
FROM pp718;
SELECT count(*) AS nodes_that_differ
FROM (SELECT * FROM pp718_fs
      EXCEPT SELECT * FROM pg_temp.reference_fairshare('pp718_off')) AS d;
SELECT count(*) AS nodes_that_differ
FROM (SELECT * FROM pp718_fs
      EXCEPT SELECT * FROM pg_temp.reference_fairshare('pp718')) AS d;
