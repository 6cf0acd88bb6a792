-- rollup_reference.sql: the tree rollups a user would write without fairsched, in plain SQL:
-- every row joined to the ancestors() of its path, grouped by ancestor. The regression suite
-- sharetree_reference compares tree_nodes() with these, and the sharetree benchmark times them
-- as its baseline, so both use exactly this SQL. Include it with \i (or \ir) in a psql session;
-- it defines two functions in pg_temp, called as pg_temp.reference_rollup(...) and
-- pg_temp.reference_pool_rollup(...). Needs fairsched only for sharepath and resvec.
--
-- pg_temp.reference_rollup(tab regclass): the rollup of share_tree(path, shares, usage
-- [, shares_from_parent]) over the rows of `tab` (a table or view with columns
-- path sharepath, shares float8, usage float8 and, optionally, shares_from_parent boolean).
-- One row per node (every path and every ancestor of one, the root '' included), with the
-- columns of tree_nodes() that a share tree fills:
--   own_usage   the sum of the usage of the rows naming the node itself (0 when none)
--   usage       own_usage plus that of every descendant (the subtree total)
--   declared    some row naming the node states shares (or shares_from_parent)
--   shares      the stated shares; 0 when never stated; NULL for shares_from_parent nodes,
--               and NULL when the rows disagree (where share_tree raises an error)
-- The order of the rows is unspecified.
--
-- pg_temp.reference_pool_rollup(tab regclass): the same for pool_tree(path, weight,
-- min_share_ratio, max_share_ratio, usage, demand) over a table or view with those columns
-- (usage and demand of type resvec); usage_vec and demand_vec are fairsched.sum() of the
-- vectors of the subtree ('' when there are none), weight is NULL when never stated.

CREATE FUNCTION pg_temp.reference_rollup(tab regclass)
RETURNS TABLE(path fairsched.sharepath, parent fairsched.sharepath, depth int, is_leaf boolean,
              declared boolean, shares float8, own_usage float8, usage float8,
              shares_from_parent boolean)
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    from_parent text := 'false';
BEGIN
    IF EXISTS (SELECT FROM pg_attribute
               WHERE attrelid = tab AND attname = 'shares_from_parent' AND NOT attisdropped) THEN
        from_parent := 'coalesce(r.shares_from_parent, false)';
    END IF;
    -- r: the rows; a: each ancestor of a row's path (root first, the path itself included).
    -- A node is a leaf when every row below or at it names the node itself.
    RETURN QUERY EXECUTE format($q$
        SELECT a.node,
               fairsched.parent(a.node),
               fairsched.nlevel(a.node),
               bool_and(a.node = r.path),
               coalesce(bool_or(r.shares IS NOT NULL OR %2$s) FILTER (WHERE a.node = r.path), false),
               CASE WHEN coalesce(bool_or(%2$s) FILTER (WHERE a.node = r.path), false) THEN NULL
                    WHEN min(r.shares::float8) FILTER (WHERE a.node = r.path)
                         IS DISTINCT FROM max(r.shares::float8) FILTER (WHERE a.node = r.path) THEN NULL
                    ELSE coalesce(min(r.shares::float8) FILTER (WHERE a.node = r.path), 0) END,
               coalesce(sum(r.usage::float8) FILTER (WHERE a.node = r.path), 0),
               coalesce(sum(r.usage::float8), 0),
               coalesce(bool_or(%2$s) FILTER (WHERE a.node = r.path), false)
        FROM %1$s AS r
        CROSS JOIN LATERAL fairsched.ancestors(r.path) AS a(node)
        GROUP BY a.node$q$, tab, from_parent);
END $fn$;
COMMENT ON FUNCTION pg_temp.reference_rollup(regclass) IS
    'plain-SQL rollup of a share tree: rows joined to ancestors(path), grouped by ancestor';

CREATE FUNCTION pg_temp.reference_pool_rollup(tab regclass)
RETURNS TABLE(path fairsched.sharepath, parent fairsched.sharepath, depth int, is_leaf boolean,
              declared boolean, weight float8, min_share_ratio float8, max_share_ratio float8,
              usage_vec fairsched.resvec, demand_vec fairsched.resvec)
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT a.node,
               fairsched.parent(a.node),
               fairsched.nlevel(a.node),
               bool_and(a.node = r.path),
               coalesce(bool_or(r.weight IS NOT NULL) FILTER (WHERE a.node = r.path), false),
               CASE WHEN min(r.weight) FILTER (WHERE a.node = r.path)
                         = max(r.weight) FILTER (WHERE a.node = r.path)
                    THEN min(r.weight) FILTER (WHERE a.node = r.path) END,
               CASE WHEN min(r.min_share_ratio) FILTER (WHERE a.node = r.path)
                         = max(r.min_share_ratio) FILTER (WHERE a.node = r.path)
                    THEN min(r.min_share_ratio) FILTER (WHERE a.node = r.path) END,
               CASE WHEN min(r.max_share_ratio) FILTER (WHERE a.node = r.path)
                         = max(r.max_share_ratio) FILTER (WHERE a.node = r.path)
                    THEN min(r.max_share_ratio) FILTER (WHERE a.node = r.path) END,
               coalesce(fairsched.sum(r.usage), ''),
               coalesce(fairsched.sum(r.demand), '')
        FROM %1$s AS r
        CROSS JOIN LATERAL fairsched.ancestors(r.path) AS a(node)
        GROUP BY a.node$q$, tab);
END $fn$;
COMMENT ON FUNCTION pg_temp.reference_pool_rollup(regclass) IS
    'plain-SQL rollup of a pool tree: rows joined to ancestors(path), vectors summed per ancestor';
