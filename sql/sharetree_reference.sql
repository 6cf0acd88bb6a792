-- tree_nodes(share_tree(...)) and tree_nodes(pool_tree(...)) against the plain-SQL reference
-- rollup of test/reference/rollup_reference.sql (rows joined to ancestors(), grouped by ancestor),
-- on generated trees of several shapes. Usages are multiples of 1/4, so every sum is exact
-- in float8 whatever the order of addition, and the comparisons can be exact.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- the reference (its text is not echoed here; see test/reference/rollup_reference.sql)
\set ECHO none
\i test/reference/rollup_reference.sql
\set ECHO all

-- Rows of one relation that the other lacks, both ways (EXCEPT ALL, so duplicates count too).
-- Both relations must have the same columns; an empty result means they are equal as multisets.
CREATE FUNCTION pg_temp.mismatches(a regclass, b regclass) RETURNS TABLE(only_in text, node text)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT %1$L, x::text FROM (TABLE %1$s EXCEPT ALL TABLE %2$s) AS x
        UNION ALL
        SELECT %2$L, y::text FROM (TABLE %2$s EXCEPT ALL TABLE %1$s) AS y
        ORDER BY 1, 2$q$, a, b);
END $$;

-- ---------------------------------------------------------------- deep
-- a chain n1.n2...n50, every chain node with three leaf branches b1..b3 (the deepest leaves
-- are at depth 51); even chain nodes declare shares, odd ones do not; each leaf has two rows
-- (one states shares, the other only adds usage)
CREATE TEMP TABLE deep_jobs AS
WITH chain AS (
    SELECT k, (SELECT string_agg('n' || x, '.' ORDER BY x) FROM generate_series(1, k) AS x) AS p
    FROM generate_series(1, 50) AS k
)
SELECT (p || '.b' || j)::sharepath AS path, (k % 4 + 1)::float8 AS shares, (k * j * 0.25)::float8 AS usage
FROM chain, generate_series(1, 3) AS j
UNION ALL
SELECT (p || '.b' || j)::sharepath, NULL, 1 FROM chain, generate_series(1, 3) AS j
UNION ALL
SELECT p::sharepath, k * 10, NULL FROM chain WHERE k % 2 = 0;
CREATE TEMP TABLE deep_tree AS SELECT share_tree(path, shares, usage) AS t FROM deep_jobs;
CREATE TEMP VIEW deep_fs AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage, shares_from_parent
FROM tree_nodes((SELECT t FROM deep_tree));
CREATE TEMP VIEW deep_ref AS SELECT * FROM pg_temp.reference_rollup('deep_jobs');

SELECT (SELECT count(*) FROM deep_fs) AS nodes,
       (SELECT count(*) FROM deep_ref) AS reference_nodes,
       (SELECT max(depth) FROM deep_fs) AS max_depth,
       (SELECT count(*) FILTER (WHERE is_leaf) FROM deep_fs) AS leaves,
       (SELECT usage FROM deep_fs WHERE depth = 0) AS root_usage,
       (SELECT sum(usage) FROM deep_jobs) AS rows_usage;
SELECT * FROM pg_temp.mismatches('deep_fs', 'deep_ref');
-- tree_nodes lists the nodes in pre-order, which is the sharepath order
SELECT array_agg(path ORDER BY ordinality) = array_agg(path ORDER BY path) AS preorder
FROM tree_nodes((SELECT t FROM deep_tree)) WITH ORDINALITY;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM deep_tree;
-- the comparison can fail: one node's usage changed in the reference shows up on both sides
CREATE TEMP VIEW deep_ref_off AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage,
       usage + CASE WHEN path = 'n1.n2' THEN 0.25 ELSE 0 END::float8, shares_from_parent
FROM deep_ref;
SELECT * FROM pg_temp.mismatches('deep_fs', 'deep_ref_off');

-- ---------------------------------------------------------------- wide
-- one level of 2000 leaves u1..u2000 (u1, u10, u100, u1000 sort before u2), every third with a
-- second row that adds usage without stating shares
CREATE TEMP TABLE wide_jobs AS
SELECT ('u' || i)::sharepath AS path, (i % 7 + 1)::float8 AS shares, (i * 0.5)::float8 AS usage
FROM generate_series(1, 2000) AS i
UNION ALL
SELECT ('u' || i)::sharepath, NULL, 1.25 FROM generate_series(3, 2000, 3) AS i;
CREATE TEMP TABLE wide_tree AS SELECT share_tree(path, shares, usage) AS t FROM wide_jobs;
CREATE TEMP VIEW wide_fs AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage, shares_from_parent
FROM tree_nodes((SELECT t FROM wide_tree));
CREATE TEMP VIEW wide_ref AS SELECT * FROM pg_temp.reference_rollup('wide_jobs');

SELECT (SELECT count(*) FROM wide_fs) AS nodes,
       (SELECT count(*) FROM wide_ref) AS reference_nodes,
       (SELECT count(*) FROM wide_fs WHERE is_leaf AND depth = 1 AND parent = '') AS leaves,
       (SELECT usage FROM wide_fs WHERE depth = 0) AS root_usage,
       (SELECT sum(usage) FROM wide_jobs) AS rows_usage;
SELECT * FROM pg_temp.mismatches('wide_fs', 'wide_ref');
SELECT array_agg(path ORDER BY ordinality) = array_agg(path ORDER BY path) AS preorder
FROM tree_nodes((SELECT t FROM wide_tree)) WITH ORDINALITY;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM wide_tree;

-- ---------------------------------------------------------------- undeclared inner nodes
-- rows only on the 210 leaves of a 5 x 6 x 7 tree; labels that need quoting or sort between a
-- node and its children ("user 1", u-7); the leaves u-7 state no shares either
CREATE TEMP TABLE undecl_jobs AS
SELECT format('a%s.g%s.%s', x, y, CASE WHEN z = 7 THEN 'u-7' ELSE format('"user %s"', z) END)::sharepath AS path,
       CASE WHEN z = 7 THEN NULL ELSE z END::float8 AS shares,
       (x * 100 + y * 10 + z)::float8 AS usage
FROM generate_series(1, 5) AS x, generate_series(1, 6) AS y, generate_series(1, 7) AS z;
CREATE TEMP TABLE undecl_tree AS SELECT share_tree(path, shares, usage) AS t FROM undecl_jobs;
CREATE TEMP VIEW undecl_fs AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage, shares_from_parent
FROM tree_nodes((SELECT t FROM undecl_tree));
CREATE TEMP VIEW undecl_ref AS SELECT * FROM pg_temp.reference_rollup('undecl_jobs');

SELECT (SELECT count(*) FROM undecl_fs) AS nodes,
       (SELECT count(*) FROM undecl_ref) AS reference_nodes,
       (SELECT count(*) FROM undecl_fs WHERE NOT is_leaf) AS inner_nodes,
       (SELECT bool_and(NOT declared AND shares = 0 AND own_usage = 0 AND usage > 0)
        FROM undecl_fs WHERE NOT is_leaf) AS inner_undeclared_zero_shares,
       (SELECT count(*) FROM undecl_fs WHERE is_leaf AND NOT declared AND shares = 0) AS undeclared_leaves,
       (SELECT count(*) FROM undecl_fs WHERE is_leaf AND declared AND shares > 0) AS declared_leaves;
SELECT * FROM pg_temp.mismatches('undecl_fs', 'undecl_ref');
SELECT array_agg(path ORDER BY ordinality) = array_agg(path ORDER BY path) AS preorder
FROM tree_nodes((SELECT t FROM undecl_tree)) WITH ORDINALITY;
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage
FROM undecl_fs WHERE path <@ 'a1.g1' OR depth = 0 ORDER BY path;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM undecl_tree;

-- ---------------------------------------------------------------- usage on inner nodes
-- a 4 x 5 x 6 tree where the root, every account p<x> and every second group also have rows
-- of their own (own usage, e.g. of deleted children), some of them stating shares
CREATE TEMP TABLE inner_jobs AS
SELECT format('p%s.q%s.r%s', x, y, z)::sharepath AS path, 1::float8 AS shares, (x + y + z)::float8 AS usage
FROM generate_series(1, 4) AS x, generate_series(1, 5) AS y, generate_series(1, 6) AS z
UNION ALL
SELECT format('p%s', x)::sharepath, x * 100, x * 1000 + 0.75 FROM generate_series(1, 4) AS x
UNION ALL
SELECT format('p%s.q%s', x, y)::sharepath, NULL, x * 10 + y FROM generate_series(1, 4) AS x, generate_series(2, 5, 2) AS y
UNION ALL
SELECT format('p%s.q%s', x, y)::sharepath, NULL, 0.25 FROM generate_series(1, 4) AS x, generate_series(2, 5, 2) AS y
UNION ALL
SELECT ''::sharepath, NULL, 7.5;
CREATE TEMP TABLE inner_tree AS SELECT share_tree(path, shares, usage) AS t FROM inner_jobs;
CREATE TEMP VIEW inner_fs AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage, shares_from_parent
FROM tree_nodes((SELECT t FROM inner_tree));
CREATE TEMP VIEW inner_ref AS SELECT * FROM pg_temp.reference_rollup('inner_jobs');

SELECT (SELECT count(*) FROM inner_fs) AS nodes,
       (SELECT count(*) FROM inner_ref) AS reference_nodes,
       (SELECT count(*) FROM inner_fs WHERE NOT is_leaf AND own_usage > 0) AS inner_with_own_usage,
       (SELECT own_usage FROM inner_fs WHERE depth = 0) AS root_own_usage,
       (SELECT usage FROM inner_fs WHERE depth = 0) AS root_usage,
       (SELECT sum(usage) FROM inner_jobs) AS rows_usage;
SELECT * FROM pg_temp.mismatches('inner_fs', 'inner_ref');
-- the rollup within tree_nodes itself: usage = own_usage + the children's usage
SELECT count(*) AS nodes_checked,
       bool_and(n.usage = n.own_usage + coalesce(c.children_usage, 0)) AS usage_is_own_plus_children,
       bool_and(n.is_leaf = (c.children_usage IS NULL)) AS leaves_have_no_children
FROM inner_fs AS n
LEFT JOIN (SELECT parent, sum(usage) AS children_usage FROM inner_fs GROUP BY parent) AS c
       ON c.parent = n.path;
SELECT path, declared, shares, own_usage, usage FROM inner_fs WHERE depth <= 1 OR path <@ 'p1.q2' ORDER BY path;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM inner_tree;

-- ---------------------------------------------------------------- SLURM FairShare=parent
-- four accounts, two of them FairShare=parent; in acct2 every second sub-account is parent too;
-- the parent flags come in rows of their own, the usage rows leave shares_from_parent NULL
CREATE TEMP TABLE parent_jobs AS
SELECT format('acct%s.sub%s.user%s', x, y, z)::sharepath AS path, z::float8 AS shares,
       (x * y * z)::float8 AS usage, NULL::boolean AS shares_from_parent
FROM generate_series(1, 4) AS x, generate_series(1, 3) AS y, generate_series(1, 4) AS z
UNION ALL
SELECT format('acct%s', x)::sharepath, CASE WHEN x % 2 = 1 THEN x * 10 END, NULL, x % 2 = 0
FROM generate_series(1, 4) AS x
UNION ALL
SELECT format('acct2.sub%s', y)::sharepath, NULL, 0.5, true FROM generate_series(2, 3) AS y
UNION ALL
SELECT 'acct2.sub2'::sharepath, NULL, NULL, true  -- stated twice, agrees
UNION ALL
SELECT format('acct%s.sub%s', x, y)::sharepath, y, NULL, false
FROM generate_series(1, 4) AS x, generate_series(1, 3) AS y WHERE x <> 2 OR y = 1;
CREATE TEMP TABLE parent_tree AS
SELECT share_tree(path, shares, usage, shares_from_parent) AS t FROM parent_jobs;
CREATE TEMP VIEW parent_fs AS
SELECT path, parent, depth, is_leaf, declared, shares, own_usage, usage, shares_from_parent
FROM tree_nodes((SELECT t FROM parent_tree));
CREATE TEMP VIEW parent_ref AS SELECT * FROM pg_temp.reference_rollup('parent_jobs');

SELECT (SELECT count(*) FROM parent_fs) AS nodes,
       (SELECT count(*) FROM parent_ref) AS reference_nodes,
       (SELECT count(*) FROM parent_fs WHERE shares_from_parent) AS parent_nodes,
       (SELECT bool_and(declared AND shares IS NULL) FROM parent_fs WHERE shares_from_parent) AS parent_nodes_no_shares,
       (SELECT bool_and(shares IS NOT NULL) FROM parent_fs WHERE NOT shares_from_parent) AS others_have_shares;
SELECT * FROM pg_temp.mismatches('parent_fs', 'parent_ref');
SELECT path, declared, shares, shares_from_parent, own_usage, usage
FROM parent_fs WHERE depth <= 1 OR (depth = 2 AND path <@ 'acct2') ORDER BY path;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM parent_tree;

-- ---------------------------------------------------------------- pool tree
-- pools pool<x>.sub<y>.leaf<z> with weights and share-ratio bounds on some nodes; usage and
-- demand vectors on the leaves and some pools' own (sizes and counts, a name only some have)
CREATE TEMP TABLE pool_jobs AS
SELECT format('pool%s.sub%s.leaf%s', x, y, z)::sharepath AS path, (z % 3 + 1)::float8 AS weight,
       CASE WHEN z = 1 THEN 0.1 END::float8 AS min_share_ratio,
       CASE WHEN z = 2 THEN 0.5 END::float8 AS max_share_ratio,
       format('cpu=%s,mem=%sgb', x + y + z, z)::resvec AS usage,
       format('cpu=%s%s', x * y * z, CASE WHEN z % 2 = 0 THEN ',gpu=' || z ELSE '' END)::resvec AS demand
FROM generate_series(1, 3) AS x, generate_series(1, 4) AS y, generate_series(1, 5) AS z
UNION ALL
SELECT format('pool%s', x)::sharepath, x, 0.05 * x, 1, format('cpu=%s', x * 100)::resvec, NULL
FROM generate_series(1, 3) AS x
UNION ALL
SELECT format('pool%s.sub%s', x, y)::sharepath, NULL, NULL, NULL, 'mem=512mb', 'mem=1gb'
FROM generate_series(1, 3) AS x, generate_series(1, 4) AS y WHERE y % 2 = 1
UNION ALL
SELECT 'pool1.sub1.leaf1'::sharepath, NULL, NULL, NULL, 'cpu=1000', NULL;  -- a second row, adds
CREATE TEMP TABLE pool_t AS
SELECT pool_tree(path, weight, min_share_ratio, max_share_ratio, usage, demand) AS t FROM pool_jobs;
CREATE TEMP VIEW pool_fs AS
SELECT path, parent, depth, is_leaf, declared, shares AS weight, min_share_ratio, max_share_ratio,
       usage_vec, demand_vec
FROM tree_nodes((SELECT t FROM pool_t));
CREATE TEMP VIEW pool_ref AS SELECT * FROM pg_temp.reference_pool_rollup('pool_jobs');

SELECT (SELECT count(*) FROM pool_fs) AS nodes,
       (SELECT count(*) FROM pool_ref) AS reference_nodes,
       (SELECT usage_vec FROM pool_fs WHERE depth = 0) AS root_usage,
       (SELECT sum(usage) FROM pool_jobs) AS rows_usage,
       (SELECT demand_vec FROM pool_fs WHERE depth = 0) AS root_demand,
       (SELECT sum(demand) FROM pool_jobs) AS rows_demand;
SELECT * FROM pg_temp.mismatches('pool_fs', 'pool_ref');
SELECT array_agg(path ORDER BY ordinality) = array_agg(path ORDER BY path) AS preorder
FROM tree_nodes((SELECT t FROM pool_t)) WITH ORDINALITY;
-- share trees leave the vectors NULL; pool trees leave own_usage and usage NULL
SELECT bool_and(own_usage IS NULL AND usage IS NULL AND usage_vec IS NOT NULL) AS pool_columns
FROM tree_nodes((SELECT t FROM pool_t));
SELECT bool_and(usage_vec IS NULL AND demand_vec IS NULL AND usage IS NOT NULL) AS share_columns
FROM tree_nodes((SELECT t FROM deep_tree));
SELECT path, declared, weight, min_share_ratio, max_share_ratio, usage_vec, demand_vec
FROM pool_fs WHERE depth <= 1 OR path <@ 'pool1.sub1' ORDER BY path;
SELECT t::text::sharetree::text = t::text AS text_round_trip FROM pool_t;

DROP VIEW deep_fs, deep_ref, deep_ref_off, wide_fs, wide_ref, undecl_fs, undecl_ref,
          inner_fs, inner_ref, parent_fs, parent_ref, pool_fs, pool_ref;
DROP TABLE deep_jobs, deep_tree, wide_jobs, wide_tree, undecl_jobs, undecl_tree,
           inner_jobs, inner_tree, parent_jobs, parent_tree, pool_jobs, pool_t;
