-- fairshare_reference.sql: the hierarchical fairshare a user would write without fairsched, in
-- plain SQL: SLURM classic (NO_FAIR_TREE) and PBS, from the raw rows. The regression suite
-- fairshare_reference compares fairshare() with it, and the fairshare benchmark times it as its
-- baseline, so both use exactly this SQL. Include it with \i (or \ir) in a psql session; it
-- defines pg_temp.reference_fairshare(...), which needs fairsched only for the sharepath type
-- and its nlevel(), parent() and ancestors(), and the checker pg_temp.fairshare_mismatches(...),
-- which runs both.
--
-- pg_temp.reference_fairshare(tab regclass, algorithm text DEFAULT 'classic',
--                             dampening float8 DEFAULT 1)
-- reads a table or view with columns path sharepath, shares float8, usage float8 and,
-- optionally, shares_from_parent boolean (the rows that share_tree(path, shares, usage
-- [, shares_from_parent]) would aggregate) and returns one row per node of that tree (every
-- path and every ancestor of one, the root '' included), in no particular order, with its
-- depth, is_leaf (the root never is one) and:
--   raw_usage        the subtree total (pbs: max(1, u) for a leaf, 1 + subtree total otherwise)
--   norm_shares      S: product down the flattened path of shares / level share sum; a zero
--                    level sum gives 0 for the whole subtree; the root 1
--   norm_usage       U: raw_usage / the root's raw_usage, at most 1 (0 when the root has none)
--   effective_usage  E: the root 1; a node whose level owner is the root: U; deeper nodes
--                    U + (E_owner - U) * shares / level sum, or E_owner when the level sum is 0
--   fairshare        2^(-(E / S) / dampening), 0 when S = 0
--   usage_per_share  raw_usage / S, NULL when S = 0
-- The rows merge as in share_tree: usages add (NULL counts as 0), a node's shares are those
-- its rows state (0 when none does; the rows must agree), a row with shares_from_parent
-- true makes the node a FairShare=parent node (never the root). A parent node is transparent:
-- a node's level owner is its nearest proper ancestor that is not a parent node, the level
-- sum is the sum of the shares of the owner's level members, to which a parent node adds 0,
-- and a parent node copies its owner's S and E (under the root, whose E is 1, it keeps its own
-- U: SLURM tests for the root before FairShare=parent).
--
-- How: `rolled` rolls the rows up (each row joined to the ancestors() of its path, grouped by
-- ancestor) and `n` applies the algorithm's usage; `o` walks the tree down from the root to
-- find each node's level owner; `lv` sums each level's shares; `v` walks down again carrying S
-- and E: a node's tree parent either is its level owner or a parent node holding the owner's
-- S and E, so a node needs only its tree parent's row. PostgreSQL's power() raises an
-- underflow error where C's pow() returns 0, so exponents at or below -1075 (2^-1075 rounds
-- to 0) give 0 without calling it. Other float8 overflows (share sums beyond 1.8e308) raise
-- PostgreSQL's "value out of range" here.

CREATE FUNCTION pg_temp.reference_fairshare(tab regclass, algorithm text DEFAULT 'classic',
                                            dampening float8 DEFAULT 1)
RETURNS TABLE(path fairsched.sharepath, depth int, is_leaf boolean, raw_usage float8,
              norm_shares float8, norm_usage float8, effective_usage float8, fairshare float8,
              usage_per_share float8)
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    from_parent text := 'false';
    usage_expr text;
BEGIN
    IF algorithm = 'classic' THEN
        usage_expr := 'n.total';
    ELSIF algorithm = 'pbs' THEN
        usage_expr := 'CASE WHEN n.is_leaf THEN greatest(1, n.total) ELSE 1 + n.total END';
    ELSE
        RAISE EXCEPTION 'the reference knows "classic" and "pbs", not "%"', algorithm;
    END IF;
    IF EXISTS (SELECT FROM pg_attribute
               WHERE attrelid = tab AND attname = 'shares_from_parent' AND NOT attisdropped) THEN
        from_parent := 'coalesce(r.shares_from_parent, false)';
    END IF;
    RETURN QUERY EXECUTE format($q$
        WITH RECURSIVE
        r AS (
            SELECT r.path, r.shares::float8 AS shares, coalesce(r.usage::float8, 0) AS usage,
                   %2$s AS from_parent
            FROM %1$s AS r WHERE r.path IS NOT NULL
        ),
        rolled AS (
            SELECT a.node AS path, fairsched.parent(a.node) AS parent,
                   fairsched.nlevel(a.node) AS depth,
                   fairsched.nlevel(a.node) > 0 AND bool_and(a.node = r.path) AS is_leaf,
                   fairsched.nlevel(a.node) > 0
                       AND coalesce(bool_or(r.from_parent) FILTER (WHERE a.node = r.path), false)
                       AS is_parent,
                   coalesce(max(r.shares) FILTER (WHERE a.node = r.path AND NOT r.from_parent), 0)
                       AS stated,
                   sum(r.usage) AS total
            FROM r CROSS JOIN LATERAL fairsched.ancestors(r.path) AS a(node)
            GROUP BY a.node
        ),
        n AS (
            SELECT n.path, n.parent, n.depth, n.is_leaf, n.is_parent,
                   CASE WHEN n.is_parent THEN 0 ELSE n.stated END AS shares,
                   %3$s AS usage
            FROM rolled AS n
        ),
        root AS (SELECT n.usage FROM n WHERE n.depth = 0),
        o AS (
            SELECT n.path, NULL::fairsched.sharepath AS owner, n.is_parent, n.shares
            FROM n WHERE n.depth = 0
            UNION ALL
            SELECT c.path, CASE WHEN p.is_parent THEN p.owner ELSE p.path END, c.is_parent,
                   c.shares
            FROM o AS p JOIN n AS c ON c.parent = p.path
        ),
        lv AS (SELECT o.owner, sum(o.shares) AS levelsum FROM o GROUP BY o.owner),
        v AS (
            SELECT n.path, 1::float8 AS s, 1::float8 AS e FROM n WHERE n.depth = 0
            UNION ALL
            SELECT c.path,
                   CASE WHEN c.is_parent THEN p.s
                        WHEN lv.levelsum > 0 THEN p.s * c.shares / lv.levelsum
                        ELSE 0 END,
                   CASE WHEN fairsched.nlevel(o.owner) = 0 THEN c.u
                        WHEN c.is_parent THEN p.e
                        WHEN lv.levelsum > 0 THEN c.u + (p.e - c.u) * c.shares / lv.levelsum
                        ELSE p.e END
            FROM v AS p
            JOIN (SELECT n.path, n.parent, n.is_parent, n.shares,
                         CASE WHEN root.usage > 0 THEN least(n.usage / root.usage, 1) ELSE 0 END AS u
                  FROM n, root) AS c ON c.parent = p.path
            JOIN o ON o.path = c.path
            JOIN lv ON lv.owner = o.owner
        )
        SELECT n.path, n.depth, n.is_leaf, n.usage, v.s,
               CASE WHEN root.usage > 0 THEN least(n.usage / root.usage, 1) ELSE 0 END,
               v.e,
               CASE WHEN NOT v.s > 0 THEN 0
                    WHEN -(v.e / v.s) / $1 <= -1075 THEN 0
                    ELSE power(2::float8, -(v.e / v.s) / $1) END,
               CASE WHEN v.s > 0 THEN n.usage / v.s END
        FROM n JOIN v USING (path), root$q$, tab, from_parent, usage_expr)
    USING dampening;
END $fn$;
COMMENT ON FUNCTION pg_temp.reference_fairshare(regclass, text, float8) IS
    'plain-SQL classic (SLURM NO_FAIR_TREE) and PBS fairshare of the share tree of a table''s rows';

-- pg_temp.fairshare_mismatches(tab regclass, algorithm text DEFAULT 'classic',
--                              dampening float8 DEFAULT 1, reference_dampening float8 DEFAULT NULL)
-- the checker: fairshare(share_tree(rows of tab), algorithm, dampening) against
-- pg_temp.reference_fairshare(tab, algorithm, reference_dampening, by default the same),
-- one row per node and column that differ (a node that one side lacks differs in every
-- column). Numbers agree when equal (NULLs too), within 1e-12 of the larger magnitude, or
-- within 1e-300 (subnormal factors carry only a few bits). No rows: the two agree.
CREATE FUNCTION pg_temp.fairshare_mismatches(tab regclass, algorithm text DEFAULT 'classic',
                                             dampening float8 DEFAULT 1,
                                             reference_dampening float8 DEFAULT NULL)
RETURNS TABLE(path fairsched.sharepath, what text, fairsched float8, reference float8)
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    tree_args text := 'r.path, r.shares, r.usage';
BEGIN
    IF EXISTS (SELECT FROM pg_attribute
               WHERE attrelid = tab AND attname = 'shares_from_parent' AND NOT attisdropped) THEN
        tree_args := tree_args || ', r.shares_from_parent';
    END IF;
    RETURN QUERY EXECUTE format($q$
        WITH f AS (
            SELECT * FROM fairsched.fairshare((SELECT fairsched.share_tree(%2$s) FROM %1$s AS r),
                                              $1, $2)
        ),
        ref AS (SELECT * FROM pg_temp.reference_fairshare(%1$L, $1, coalesce($3, $2)))
        SELECT coalesce(f.path, ref.path), c.what, c.fv, c.rv
        FROM f FULL JOIN ref ON f.path = ref.path
        CROSS JOIN LATERAL (VALUES
            ('depth', f.depth::float8, ref.depth::float8),
            ('is_leaf', f.is_leaf::int::float8, ref.is_leaf::int::float8),
            ('raw_usage', f.raw_usage, ref.raw_usage),
            ('norm_shares', f.norm_shares, ref.norm_shares),
            ('norm_usage', f.norm_usage, ref.norm_usage),
            ('effective_usage', f.effective_usage, ref.effective_usage),
            ('fairshare', f.fairshare, ref.fairshare),
            ('usage_per_share', f.usage_per_share, ref.usage_per_share)) AS c(what, fv, rv)
        WHERE NOT (c.fv IS NOT DISTINCT FROM c.rv
                   OR abs(c.fv - c.rv) <= 1e-12 * greatest(abs(c.fv), abs(c.rv))
                   OR abs(c.fv - c.rv) < 1e-300)
        ORDER BY 1, 2$q$, tab, tree_args)
    USING algorithm, dampening, reference_dampening;
END $fn$;
COMMENT ON FUNCTION pg_temp.fairshare_mismatches(regclass, text, float8, float8) IS
    'nodes and columns where fairshare() and the plain-SQL reference disagree (beyond 1e-12 relative)';
