-- place_select: a chunked job placed over 10^4 and 10^5 vnodes in racks of 100. Every
-- rack but the last has 4 of each vnode's 8 ncpus busy, so its free totals (400 ncpus) pass the
-- set check but no vnode takes a chunk of ncpus=8; the free rack sorts last (default
-- node_group_sort_key: equal totals, then the least unused ncpus first). 16:ncpus=8:mem=16gb
-- under scatter is placed chunk by chunk in every rack until the last.
-- Baseline: the plain SQL a user would write for the same first-fit answer over float8 columns:
-- per rack the totals and the count of vnodes that hold one chunk, the first rack in the same
-- order with 16 of them, its first 16 vnodes by name.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

CREATE UNLOGGED TABLE ps_vnodes AS
SELECT n, 'vn' || lpad(i::text, 6, '0') AS vnode, 'r' || lpad((i / 100)::text, 4, '0') AS rack,
       8::float8 AS ncpus, 32 * 2 ^ 30 AS mem,
       CASE WHEN i / 100 = n / 100 - 1 THEN 0 ELSE 4 END::float8 AS used_ncpus,
       0::float8 AS used_mem
FROM (VALUES (10000), (100000)) AS s(n), generate_series(0, n - 1) AS i;
CREATE INDEX ON ps_vnodes (n);
ANALYZE ps_vnodes;
CREATE UNLOGGED TABLE ps_pools AS
SELECT n, vnode_pool(vnode, format('ncpus=%s,mem=%sgb', ncpus, mem / 2 ^ 30)::resvec,
                     format('ncpus=%s', used_ncpus)::resvec, jsonb_build_object('rack', rack)) AS pool
FROM ps_vnodes GROUP BY n;

-- the baseline's answer: the vnodes of the first rack (in placement order) with 16 that hold a chunk
CREATE FUNCTION ps_baseline(size int) RETURNS SETOF text LANGUAGE sql STABLE AS $f$
    WITH r AS (
        SELECT rack, sum(ncpus) AS tc, sum(mem) AS tm, sum(ncpus - used_ncpus) AS uc,
               sum(mem - used_mem) AS um,
               count(*) FILTER (WHERE ncpus - used_ncpus >= 8 AND mem - used_mem >= 16 * 2 ^ 30) AS fits
        FROM ps_vnodes WHERE n = size GROUP BY rack),
    pick AS (SELECT rack FROM r WHERE fits >= 16 ORDER BY tc, tm, uc, um, rack COLLATE "C" LIMIT 1)
    SELECT vnode FROM ps_vnodes JOIN pick USING (rack)
    WHERE n = size AND ncpus - used_ncpus >= 8 AND mem - used_mem >= 16 * 2 ^ 30
    ORDER BY vnode COLLATE "C" LIMIT 16
$f$;

-- both pick the same 16 vnodes of the last rack
SELECT bench_assert(
    (SELECT array_agg(vnode ORDER BY chunk) FROM ps_pools,
            place_select(pool, ARRAY['rack'], '16:ncpus=8:mem=16gb', 'scatter') WHERE n = s.n)
    = (SELECT array_agg(v ORDER BY v COLLATE "C") FROM ps_baseline(s.n) AS v)
    AND (SELECT count(*) FROM ps_baseline(s.n)) = 16,
    'place_select and the SQL pick the same vnodes')
FROM (VALUES (10000), (100000)) AS s(n);

SELECT bench_record('place_select, 16 chunks, scatter, first fit in the last of n/100 racks (stored pool)', n,
    format($q$SELECT count(*) FROM ps_pools,
                  place_select(pool, ARRAY['rack'], '16:ncpus=8:mem=16gb', 'scatter') WHERE n = %s$q$, n),
    'SQL: per-rack totals and count of vnodes that hold a chunk, first rack in order, its first 16 vnodes',
    format('SELECT count(*) FROM ps_baseline(%s)', n))
FROM (VALUES (10000), (100000)) AS s(n);

SELECT bench_record('vnode_pool + place_select, the same from the vnode rows', n,
    format($q$SELECT count(*) FROM (SELECT vnode_pool(vnode, format('ncpus=%%s,mem=%%sgb', ncpus, mem / 2 ^ 30)::resvec,
                                                        format('ncpus=%%s', used_ncpus)::resvec,
                                                        jsonb_build_object('rack', rack)) AS pool
                                    FROM ps_vnodes WHERE n = %s) AS p,
                  place_select(pool, ARRAY['rack'], '16:ncpus=8:mem=16gb', 'scatter')$q$, n),
    'the SQL above', NULL)
FROM (VALUES (10000), (100000)) AS s(n);

DROP FUNCTION ps_baseline(int);
DROP TABLE ps_pools;
DROP TABLE ps_vnodes;
