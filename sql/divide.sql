-- divide and fair_share: fair-share ratio division down a pool tree (docs/fair-share-division.md, from the YTsaurus page "Как вычисляется fair share ratio")
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
CREATE FUNCTION pg_temp.r(float8[]) RETURNS numeric[] LANGUAGE sql AS
$$ SELECT array_agg(round(v::numeric, 12) ORDER BY o) FROM unnest($1) WITH ORDINALITY AS u(v, o) $$;

-- The YTsaurus fair share ratio page: pools A (min share ratio 0.6) and B (0.2) under the root, both with huge demand.
-- 1. equal weights: A 0.6, B 0.4; 2. weights 3:1: A 0.75, B 0.25; 3. with C (weight 1, no
-- guarantee): A 0.6, B 0.2, C 0.2. Clamp mode is the seed's rule; additive mode adds the
-- guarantees to the weight-proportional part instead of flooring it.
SELECT ex, pg_temp.r(divide(1, w, l, u)) AS clamp,
       pg_temp.r(divide(1, w, l, u, 'additive')) AS additive
FROM (VALUES (1, '{1,1}'::float8[], '{0.6,0.2}'::float8[], '{1,1}'::float8[]),
             (2, '{3,1}', '{0.6,0.2}', '{1,1}'),
             (3, '{1,1,1}', '{0.6,0.2,0}', '{1,1,1}')) AS t(ex, w, l, u)
ORDER BY ex;

-- the same three through fair_share over a pool_tree (demand far above the cluster)
CREATE TEMP TABLE yt_examples (ex int, path sharepath, weight float8, min_share float8, demand resvec);
INSERT INTO yt_examples VALUES
    (1, 'A', 1, 0.6, 'cpu=1000'), (1, 'B', 1, 0.2, 'cpu=1000'),
    (2, 'A', 3, 0.6, 'cpu=1000'), (2, 'B', 1, 0.2, 'cpu=1000'),
    (3, 'A', 1, 0.6, 'cpu=1000'), (3, 'B', 1, 0.2, 'cpu=1000'), (3, 'C', 1, NULL, 'cpu=1000');
SELECT ex, mode, f.path, f.weight, f.min_share_ratio, round(f.fair_share_ratio::numeric, 12) AS fair_share_ratio,
       f.bound
FROM (SELECT ex, pool_tree(path, weight, min_share, NULL, NULL, demand) AS t
      FROM yt_examples GROUP BY ex) AS trees,
     (VALUES ('clamp'), ('additive')) AS m(mode),
     fair_share(trees.t, 'cpu=100,mem=1tb', m.mode) AS f
WHERE f.depth = 1
ORDER BY ex, mode DESC, f.path;

-- every column: usage and demand ratios are dominant shares of the cluster, the dominant
-- resource comes from usage when there is usage, else from demand; resources the cluster
-- lacks are ignored; a pool without demand gets 0; caps are min(demand_ratio, max_share_ratio)
SELECT path, depth, is_leaf, weight, min_share_ratio, guaranteed_share,
       round(usage_ratio::numeric, 6) AS usage_ratio, round(demand_ratio::numeric, 6) AS demand_ratio,
       dominant_resource, round(max_possible_ratio::numeric, 6) AS max_possible,
       round(fair_share_ratio::numeric, 6) AS fair_share, round(satisfaction::numeric, 6) AS satisfaction,
       round(lower_bound::numeric, 6) AS lower_bound, round(weight_part::numeric, 6) AS weight_part, bound
FROM fair_share((SELECT pool_tree(p::sharepath, w, lo, hi, u::resvec, d::resvec)
                 FROM (VALUES ('prod', 3, 0.5, NULL, 'cpu=30,mem=64gb', 'cpu=80,mem=100gb'),
                              ('prod.web', 1, NULL, NULL, 'cpu=10', 'cpu=20'),
                              ('prod.batch', 2, NULL, 0.3, 'cpu=20,mem=64gb', 'cpu=60,mem=100gb,licenses=5'),
                              ('dev', 1, NULL, NULL, 'cpu=5', 'cpu=10'),
                              ('idle', 1, 0.1, NULL, NULL, NULL),
                              ('research', 1, NULL, 0.2, NULL, 'mem=512gb'))
                      AS t(p, w, lo, hi, u, d)),
                'cpu=100,mem=512gb');

-- nested guarantees that do not fit: prod's demand caps it at 0.3, below its children's
-- guarantees of 0.8 x 0.5 + 0.8 x 0.5; they are scaled down to sum to 0.3, and the output says so
SELECT path, guaranteed_share, round(lower_bound::numeric, 6) AS lower_bound,
       round(max_possible_ratio::numeric, 6) AS cap, round(fair_share_ratio::numeric, 6) AS fair_share,
       bound
FROM fair_share((SELECT pool_tree(p::sharepath, NULL, lo, NULL, NULL, d::resvec)
                 FROM (VALUES ('prod', 0.8, NULL), ('prod.a', 0.5, 'cpu=15'), ('prod.b', 0.5, 'cpu=15'),
                              ('other', NULL, 'cpu=100')) AS t(p, lo, d)),
                'cpu=100');

-- the root as YTsaurus's vector HDRF reports it (root => 'children'): its fair share is the sum
-- of its children's, at most 1, and its strong guarantee the sum of theirs. a (demand 20 of 100
-- cpu, min share 0.1) and b (demand 30, min share 0.2) are capped at their demand: 0.2 + 0.3, so
-- the root has 0.5 (classic: 1), a guarantee of 0.1 + 0.2 = 0.3 (classic: 1), and with usage
-- 10 + 30 = 0.4 a satisfaction of 0.4 / 0.5 = 0.8 (classic: 0.4). The pools' rows are the same.
SELECT r.root, f.path, round(f.guaranteed_share::numeric, 12) AS guaranteed_share, f.usage_ratio,
       f.fair_share_ratio, f.satisfaction, round(f.lower_bound::numeric, 12) AS lower_bound
FROM (VALUES ('one'), ('children')) AS r(root),
     fair_share('pool{=*/*/*/{}/{},a=1/0.1/*/{cpu=10}/{cpu=20},b=1/0.2/*/{cpu=30}/{cpu=30}}',
                'cpu=100', 'clamp', r.root) AS f;
-- demand above the cluster: the children divide all of it, and the sum is 1, never more; with
-- the additive mode too (0.7 / 0.3 in the page's first example)
SELECT m.mode, f.path, round(f.fair_share_ratio::numeric, 12) AS fair_share
FROM (VALUES ('clamp'), ('additive')) AS m(mode),
     fair_share('pool{=*/*/*/{}/{},A=1/0.6/*/{}/{cpu=100},B=1/0.2/*/{}/{cpu=100}}', 'cpu=100',
                m.mode, root => 'children') AS f;
-- a root without children has no fair share to sum: 0, and no satisfaction
SELECT path, fair_share_ratio, guaranteed_share, satisfaction
FROM fair_share('pool{=*/*/*/{cpu=5}/{cpu=5}}', 'cpu=10', root => 'children');

-- children's min share ratios that sum past 1 are normalised to 1
SELECT path, min_share_ratio, round(guaranteed_share::numeric, 12) AS guaranteed_share,
       round(fair_share_ratio::numeric, 6) AS fair_share
FROM fair_share('pool{=*/*/*/{}/{},a=1/0.9/*/{}/{cpu=100},b=1/0.6/*/{}/{cpu=100}}', 'cpu=100')
WHERE depth = 1;

-- caps that cannot use the whole: every child at its cap, the rest stays unassigned; a zero
-- weight gets only its guarantee; the upper bound wins over a larger lower bound
SELECT pg_temp.r(divide(1, '{1,2}', '{0,0}', '{0.2,0.3}')) AS capped,
       pg_temp.r(divide(1, '{0,1}', '{0.3,0}', '{1,1}')) AS zero_weight,
       pg_temp.r(divide(1, '{1,1}', '{0.5,0}', '{0.1,1}')) AS upper_wins,
       pg_temp.r(divide(0.5, '{1,1}', '{0.6,0.4}', '{1,1}')) AS scaled_guarantees,
       divide(1, '{}', '{}', '{}') AS no_children;

-- the result sums to the total (within 1e-12 relative) on a thousand generated instances
-- whenever that is feasible (the guarantees fit, and the caps can reach the total)
SELECT count(*) AS feasible_instances,
       count(*) FILTER (WHERE abs(s - total) <= 1e-12 * greatest(total, 1)) AS sums_to_total
FROM (SELECT i, (i % 7 + 1) / 3.0 AS total,
             ARRAY(SELECT (j * i % 13)::float8 FROM generate_series(1, 1 + i % 9) j) AS w,
             ARRAY(SELECT (j * i % 5) / 40.0 FROM generate_series(1, 1 + i % 9) j) AS l,
             ARRAY(SELECT 0.5 + (j * i % 3) / 2.0 FROM generate_series(1, 1 + i % 9) j) AS u
      FROM generate_series(1, 1000) AS i) AS inst,
     LATERAL (SELECT sum(v) AS s
              FROM unnest(divide(total, w, l, u,
                                 CASE WHEN i % 2 = 0 THEN 'clamp' ELSE 'additive' END)) AS x(v)) AS d,
     LATERAL (SELECT sum(least(lo, hi)) AS low,
                     sum(CASE WHEN wt > 0 THEN hi ELSE least(lo, hi) END) AS high
              FROM unnest(w, l, u) AS z(wt, lo, hi)) AS b
WHERE low <= total AND high >= total;

-- values at the ends of the double range. By hand: total 0.5 with caps 1 and 0.1: the
-- second saturates at 0.1 and the first gets 0.4 (its weight 1e-17 once cancelled out of the
-- running slope); equal weights 1e308 or 5e-324 split 1 in halves; guarantees of 1e308 each do not
-- fit into 1 and are scaled to 0.5 each (their sum overflowed); weights 10^632 apart: the heavy
-- child saturates at 0.1, the light one takes the other 0.9
SELECT m.mode,
       divide(0.5, '{1e-17,1}', '{0,0}', '{1,0.1}', m.mode) AS tiny_weight,
       divide(1, '{1e308,1e308}', '{0,0}', '{1,1}', m.mode) AS huge_weights,
       divide(1, '{5e-324,5e-324}', '{0,0}', '{1,1}', m.mode) AS subnormal_weights,
       divide(1, '{1,1}', '{1e308,1e308}', '{1e308,1e308}', m.mode) AS huge_guarantees,
       divide(1, '{1e308,5e-324}', '{0,0}', '{0.1,1}', m.mode) AS weights_far_apart,
       divide(1e308, '{1,3}', '{0,0}', '{1e308,1e308}', m.mode) AS huge_total
FROM (VALUES ('clamp'), ('additive')) AS m(mode);

-- 1,000 problems per mode with weights log-uniform in [1e-20, 1e20] and a reachable total: the
-- shares sum to the total within 1e-12 relative and stay within their bounds
WITH inst AS (
    SELECT i, m.mode,
           array_agg(power(10::float8, 40 * ((i * 0.6180339887 + j * 0.7548776662) % 1)::float8 - 20)
                     ORDER BY j) AS w,
           array_agg(CASE WHEN (i + j) % 3 = 0 THEN 0
                          ELSE ((i * 0.1234567891 + j * 0.3819660113) % 1)::float8 / 10 END
                     ORDER BY j) AS l,
           array_agg(((i * 0.4142135624 + j * 0.5772156649) % 1)::float8 + 0.01 ORDER BY j) AS u
    FROM generate_series(1, 1000) AS i, generate_series(1, 2 + i % 9) AS j,
         (VALUES ('clamp'), ('additive')) AS m(mode)
    GROUP BY i, m.mode),
sized AS (
    SELECT inst.*, lo + (hi - lo) * ((i * 0.7071067812) % 1)::float8 AS total
    FROM inst, LATERAL (SELECT sum(least(a, b)) AS lo, sum(b) AS hi FROM unnest(l, u) AS z(a, b)) AS bnd)
SELECT mode, count(*) AS problems,
       count(*) FILTER (WHERE abs(s - total) <= 1e-12 * total) AS sums_to_total,
       count(*) FILTER (WHERE in_bounds) AS within_bounds
FROM sized,
     LATERAL (SELECT sum(v) AS s, bool_and(v >= least(a, b) AND v <= b) AS in_bounds
              FROM unnest(divide(total, w, l, u, mode), l, u) AS d(v, a, b)) AS r
GROUP BY mode
ORDER BY mode;

-- sibling min_share_ratios of 1e308 normalise exactly as 2 and 2 do (their sum overflowed, and
-- both lost their guarantees): a and b are guaranteed half each, c nothing
SELECT a.path, a.min_share_ratio, a.guaranteed_share, a.fair_share_ratio, a.bound,
       (a.guaranteed_share, a.lower_bound, a.fair_share_ratio, a.weight_part, a.bound)
           IS NOT DISTINCT FROM
       (b.guaranteed_share, b.lower_bound, b.fair_share_ratio, b.weight_part, b.bound) AS same_as_2_and_2
FROM fair_share('pool{=*/*/*/{}/{},a=1/1e308/*/{}/{cpu=100},b=1/1e308/*/{}/{cpu=100},'
                'c=1/*/*/{}/{cpu=100}}', 'cpu=100') AS a
     JOIN fair_share('pool{=*/*/*/{}/{},a=1/2/*/{}/{cpu=100},b=1/2/*/{}/{cpu=100},'
                     'c=1/*/*/{}/{cpu=100}}', 'cpu=100') AS b USING (path)
ORDER BY a.path;

-- errors
SELECT divide(1, '{1,1}', '{0}', '{1,1}');
SELECT divide(1, '{1,NULL}', '{0,0}', '{1,1}');
SELECT divide(1, '{1,-1}', '{0,0}', '{1,1}');
SELECT divide(1, '{1,1}', '{0,"NaN"}', '{1,1}');
SELECT divide(1, '{1,1}', '{0,0}', '{1,"Infinity"}');
SELECT divide(-1, '{1}', '{0}', '{1}');
SELECT divide(1, '{1}', '{0}', '{1}', 'hdrf');
SELECT divide(1, '{{1}}', '{{0}}', '{{1}}');
SELECT divide(1, '{1}', '{{0}}', '{1}');
SELECT divide(1, '{1}', '{0}', '{{1},{1}}');
SELECT * FROM fair_share('share{=*/0,a=1/2}', 'cpu=1');
SELECT * FROM fair_share('pool{=*/*/*/{}/{},a=1/*/*/{}/{cpu=10}}', 'cpu=1', 'fair');
SELECT * FROM fair_share('pool{=*/*/*/{}/{},a=1/*/*/{}/{cpu=10}}', 'cpu=1', 'clamp', 'sum');
SELECT * FROM fair_share('pool{=*/*/*/{}/{},a=1/*/*/{}/{mem=10}}', 'mem=1gb');

-- cancellation: three nested divisions of 3,000,000 children, held in memory, run for about 2 s
-- without a timeout and with no chance to notice one between them; with statement_timeout =
-- 300ms the innermost stops within a second of it
CREATE TEMP TABLE many AS
SELECT array_agg((1 + i * 7919 % 10007)::float8) AS w,
       array_agg((i * 31 % 101) / 1e9::float8) AS l,
       array_agg((i * 31 % 101) / 1e9::float8 + (1 + i * 104729 % 1009) / 1e8::float8) AS u
FROM generate_series(1::bigint, 3000000) AS i;
SET statement_timeout = '300ms';
SELECT array_length(divide(1, w, l, u), 1) FROM many;
DO $$
DECLARE
    t0 timestamptz := clock_timestamp();
    w float8[];
    l float8[];
    u float8[];
BEGIN
    SELECT m.w, m.l, m.u INTO w, l, u FROM many AS m;
    w := divide(1, divide(1, divide(1, w, l, u, 'additive'), l, u, 'additive'), l, u, 'additive');
    RAISE NOTICE 'divide finished';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE '%; stopped within 1 s of the timeout: %', SQLERRM,
        clock_timestamp() - t0 < interval '1.3 s';
END
$$;
RESET statement_timeout;
DROP TABLE many;
