-- Placement sets: 10,000 and 100,000 vnodes with two keys (64 routers x 32 switches,
-- 1 to 4 values per vnode): building the pool and ordering all its sets. There is no plain-SQL
-- baseline a user would write for this; the row shows what grouping the same vnodes by label
-- value in SQL costs, for scale.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

CREATE UNLOGGED TABLE p_vnodes AS
SELECT n, 'vn' || i AS vnode, format('ncpus=%s,mem=%sgb', 2 * (1 + i % 4), 4 * (1 + i % 8))::resvec AS avail,
       jsonb_build_object(
           'router', ARRAY(SELECT 'rt' || ((i * 7 + j * 13) % 64) FROM generate_series(1, 1 + i % 2) j),
           'switch', ARRAY(SELECT 'sw' || ((i * 11 + j * 5) % 32) FROM generate_series(1, 1 + (i / 2) % 4) j)) AS labels
FROM (VALUES (10000), (100000)) AS s(n), generate_series(1, n) AS i;
CREATE INDEX ON p_vnodes (n);
ANALYZE p_vnodes;

SELECT bench_record('vnode_pool + placement_sets, 2 keys', n,
    format($q$SELECT count(*) FROM (SELECT vnode_pool(vnode, avail, NULL, labels) AS pool
                                    FROM p_vnodes WHERE n = %s) AS p,
                                   placement_sets(pool, ARRAY['router', 'switch'])$q$, n),
    'SQL: the flat sets only (unnest labels, group by value, sum resources)',
    format($q$SELECT sum(g.ncpus), sum(g.mem) FROM (
                  SELECT k, v, sum(avail -> 'ncpus') AS ncpus, sum(avail -> 'mem') AS mem
                  FROM p_vnodes, jsonb_each(labels) AS e(k, vals),
                       jsonb_array_elements_text(vals) AS v
                  WHERE n = %s GROUP BY k, v) AS g$q$, n))
FROM (VALUES (10000), (100000)) AS s(n);

DROP TABLE p_vnodes;
