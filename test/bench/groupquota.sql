-- HTCondor hierarchical group quotas: group_quotas over 10^3 to 10^6 groups in a
-- three-level tree (100 top groups, subgroups, sub-subgroups), a third of them dynamic, two
-- thirds accepting surplus, with and without slot weights (whole slots add the round robin).
-- Nobody would write the surplus sharing in plain SQL; the baseline row is the part a user
-- could write, the quotas alone (hgq_assign_quotas as a recursive CTE, no demand, no surplus).
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

CREATE UNLOGGED TABLE gq_groups AS
SELECT n, name, CASE WHEN position('.' IN name) > 0 THEN regexp_replace(name, '\.[^.]*$', '') END AS parent,
       CASE WHEN i % 3 = 0 THEN (1 + i % 9) / 10.0 ELSE (1 + i % 50)::float8 END AS quota,
       i % 3 = 0 AS dynamic, i % 3 <> 2 AS accept, (i * 7 % 40)::float8 AS demand
FROM (VALUES (1000), (10000), (100000), (1000000)) AS s(n),
     generate_series(0, n - 1) AS i,
     LATERAL (SELECT 100 + i % ((n - 100) / 3) AS b) AS p,
     LATERAL (SELECT CASE WHEN i < 100 THEN 'g' || i
                          WHEN i < 100 + (n - 100) / 3 THEN 'g' || (i % 100) || '.s' || i
                          ELSE 'g' || (p.b % 100) || '.s' || p.b || '.t' || i END AS name) AS nm;
CREATE INDEX ON gq_groups (n);
ANALYZE gq_groups;

-- every group's parent is a group (the generator is right)
SELECT bench_assert(NOT EXISTS (SELECT FROM gq_groups c WHERE c.parent IS NOT NULL
                                AND NOT EXISTS (SELECT FROM gq_groups p
                                                WHERE p.n = c.n AND p.name = c.parent)),
                    'every subgroup has its parent');

-- a row per group and the root, and never more than the pool without oversubscription
SELECT bench_assert((SELECT count(*) = 10001 AND sum(allocated) <= 20000 * (1 + 1e-12)
                     FROM (SELECT array_agg(name) AS g, array_agg(quota) AS q,
                                  array_agg(dynamic) AS d, array_agg(accept) AS a,
                                  array_agg(demand) AS m
                           FROM gq_groups WHERE n = 10000) AS t,
                          group_quotas(g, q, d, a, m, 20000,
                                       allow_quota_oversubscription => false) AS r),
                    'group_quotas gives a row per group and stays within the pool');

SELECT bench_record('group_quotas, 3 levels, slot weights', n,
    format($q$SELECT count(*) FROM (SELECT array_agg(name) AS g, array_agg(quota) AS q,
                                           array_agg(dynamic) AS d, array_agg(accept) AS a,
                                           array_agg(demand) AS m
                                    FROM gq_groups WHERE n = %s) AS t,
                                   group_quotas(g, q, d, a, m, %s) AS r$q$, n, n * 2),
    'SQL: the quotas only (recursive CTE, no demand or surplus)',
    format($q$WITH RECURSIVE
                 g AS (SELECT coalesce(parent, '<none>') AS parent, name, quota, dynamic
                       FROM gq_groups WHERE n = %1$s),
                 s AS (SELECT parent, coalesce(sum(quota) FILTER (WHERE NOT dynamic), 0) AS sq,
                              coalesce(sum(quota) FILTER (WHERE dynamic), 0) AS dq
                       FROM g GROUP BY parent),
                 q AS (SELECT '<none>'::text AS name, %2$s::float8 AS q
                       UNION ALL
                       SELECT c.name,
                              CASE WHEN p.q <= 0 THEN 0
                                   WHEN NOT c.dynamic THEN c.quota * (least(s.sq, p.q)
                                        / CASE WHEN s.sq > 0 THEN s.sq ELSE 1 END)
                                   ELSE c.quota * (greatest(p.q - least(s.sq, p.q), 0)
                                        / greatest(s.dq, 1)) END
                       FROM q AS p JOIN g AS c ON c.parent = p.name JOIN s ON s.parent = p.name)
               SELECT count(*) FROM q$q$, n, n * 2))
FROM (VALUES (1000), (10000), (100000), (1000000)) AS s(n);

SELECT bench_record('group_quotas, 3 levels, whole slots (round robin)', n,
    format($q$SELECT count(*) FROM (SELECT array_agg(name) AS g, array_agg(quota) AS q,
                                           array_agg(dynamic) AS d, array_agg(accept) AS a,
                                           array_agg(demand) AS m
                                    FROM gq_groups WHERE n = %s) AS t,
                                   group_quotas(g, q, d, a, m, %s,
                                                use_slot_weights => false) AS r$q$, n, n * 2),
    NULL, NULL)
FROM (VALUES (1000), (10000), (100000), (1000000)) AS s(n);

DROP TABLE gq_groups;
