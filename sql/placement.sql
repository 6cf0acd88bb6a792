-- placement: PBS placement sets and node_group_sort_key (README "Placement sets", seed 003)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
\i sql/data/seed003_vnodes.sql

CREATE TEMP TABLE pools AS
SELECT vnode_pool(vnode, format('ncpus=%s,mem=%s', ncpus, mem)::resvec, NULL,
                  jsonb_build_object('router', router, 'switch', switch)) AS pool
FROM seed003;

-- the seed's "current behaviour": the flat sets under the default keys (ncpus LOW total,
-- mem LOW total, ncpus LOW unused, mem LOW unused): rt2, rt4, rt1, rt3, sw1, sw3, sw2, sw4
SELECT name, total, array_length(vnodes, 1) AS n_vnodes, vnodes
FROM pools, placement_sets(pool, ARRAY['router', 'switch'])
WHERE dims = 1 ORDER BY rank;

-- node_group_sort_key: "router HIGH" all, then the defaults: the 24 sets of the seed's last
-- table, in that order, with its totals
SELECT rank, name, dims, labels, total -> 'ncpus' AS ncpus,
       (total -> 'mem') / 2 ^ 30 AS mem_gb, vnodes
FROM pools, placement_sets(pool, ARRAY['router', 'switch'],
                           ARRAY['"router HIGH" all', '"ncpus LOW total" all', '"mem LOW total" all',
                                 '"ncpus LOW unused" all', '"mem LOW unused" all']);

-- assigned and unused: some vnodes are busy; unused is per vnode max(available - assigned, 0)
CREATE TEMP TABLE busy_pool AS
SELECT vnode_pool(vnode, format('ncpus=%s,mem=%s', ncpus, mem)::resvec,
                  CASE WHEN vnode IN ('vn44', 'vn46') THEN 'ncpus=8,mem=4gb'::resvec
                       WHEN vnode = 'vn42' THEN 'ncpus=10'::resvec END,
                  jsonb_build_object('router', router, 'switch', switch)) AS pool
FROM seed003;
SELECT name, total, assigned, unused
FROM busy_pool, placement_sets(pool, ARRAY['router', 'switch'], ARRAY['ncpus LOW unused'])
WHERE name LIKE 'rt4%' ORDER BY rank;
SELECT name, assigned -> 'ncpus' AS assigned_ncpus
FROM busy_pool, placement_sets(pool, ARRAY['router'], ARRAY['"ncpus HIGH assigned"'])
ORDER BY rank LIMIT 3;

-- prime and non_prime lines apply only in (or out of) prime time
SELECT prime_time, string_agg(name, ' ' ORDER BY rank) AS order_of_sets
FROM pools, (VALUES (true), (false)) AS p(prime_time),
     placement_sets(pool, ARRAY['router'], ARRAY['"ncpus HIGH total" prime', '"ncpus LOW total" non_prime'],
                    prime_time)
GROUP BY prime_time ORDER BY prime_time;

-- vnodes without labels join each key's empty-value set, unless only_explicit; a value that two
-- keys share makes two sets, told apart by key order
CREATE TEMP TABLE small_pool AS
SELECT vnode_pool(v, r::resvec, NULL, l::jsonb) AS pool
FROM (VALUES ('a1', 'ncpus=4', '{"rack": "r1", "zone": "z1"}'),
             ('a2', 'ncpus=2', '{"rack": "r1", "zone": ["z1", "z2"]}'),
             ('a3', 'ncpus=8', '{"rack": "x", "zone": "x"}'),
             ('a4', 'ncpus=1', NULL),
             ('a5', 'ncpus=16', '{}')) AS t(v, r, l);
SELECT rank, name, dims, labels, vnodes, total
FROM small_pool, placement_sets(pool, ARRAY['rack', 'zone']);
SELECT rank, name, dims, vnodes
FROM small_pool, placement_sets(pool, ARRAY['rack', 'zone'], NULL, false, true);

-- place: the first set whose unused resources hold the request; else the first whose totals
-- do (the job waits: too few free resources); else no row (it never fits in one set)
SELECT job, p.*
FROM busy_pool,
     (VALUES ('small', 'ncpus=4,mem=4gb'), ('medium', 'ncpus=30,mem=40gb'),
             ('waits', 'ncpus=100'), ('huge', 'ncpus=200')) AS j(job, request),
     LATERAL place(pool, ARRAY['router', 'switch'], request::resvec) AS p
ORDER BY job;
SELECT count(*) AS rows_for_a_job_that_never_fits
FROM busy_pool, place(pool, ARRAY['router', 'switch'], 'ncpus=200');

-- the pool's text form is JSON and reads back exactly; parallel and combined like the others
SELECT pool FROM small_pool;
SELECT pool::text::vnodepool::text = pool::text AS round_trip FROM pools;
CREATE TABLE placement_vnodes AS
SELECT 'n' || i AS vnode, format('ncpus=%s,mem=%sgb', 1 + i % 8, 1 + i % 16)::resvec AS avail,
       jsonb_build_object('rack', 'r' || (i % 20), 'row', 'w' || (i % 3)) AS labels
FROM generate_series(1, 20000) AS i;
ANALYZE placement_vnodes;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT vnode_pool(vnode, avail, NULL, labels) FROM placement_vnodes;
SELECT count(*) AS sets, sum(array_length(vnodes, 1)) AS memberships
FROM (SELECT vnode_pool(vnode, avail, NULL, labels) AS pool FROM placement_vnodes) AS p,
     placement_sets(pool, ARRAY['rack', 'row']);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP TABLE placement_vnodes;

-- errors
SELECT * FROM pools, placement_sets(pool, ARRAY[]::text[]);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY['ncpus']);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY['ncpus UP']);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY['"ncpus LOW free"']);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY['"ncpus LOW" sometimes']);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY['"ncpus LOW total']);
SELECT * FROM pools, placement_sets(pool, ARRAY['router', NULL]);
SELECT vnode_pool(v, NULL, NULL, NULL) FROM (VALUES ('a'), ('b'), ('a')) AS t(v);
SELECT vnode_pool('a', NULL, NULL, '["r1"]');
SELECT vnode_pool('a', NULL, NULL, '{"rack": 3}');
SELECT vnode_pool('a', NULL, NULL, '{"rack": {"id": 3}}');
SELECT vnode_pool('a', NULL, NULL, '{"rack": ["r1", 2]}');
SELECT * FROM place('[{"vnode": "a", "available": "mem=8gb"}]', ARRAY['rack'], 'mem=8');
SELECT '{"vnode": "a"}'::vnodepool;
SELECT '[{"available": "ncpus=1"}]'::vnodepool;
SELECT '[{"vnode": "a", "available": 4}]'::vnodepool;

-- vnodepool binary form: field by field in network byte order (golden bytes): version 1,
-- 1 vnode; name (length 2, "n1"); available: 1 entry (kind 0, name length 5, "ncpus", 4.0);
-- assigned: 0 entries; 1 label: key (length 2, "sw"), value (length 1, "a")
CREATE TEMP TABLE raw_pools (b bytea);
INSERT INTO raw_pools VALUES (decode('01' || '00000001' || '0002' || '6e31'
    || '00000001' || '00' || '05' || '6e63707573' || '4010000000000000'
    || '00000000' || '0001' || '0002' || '7377' || '0001' || '61', 'hex'));
SELECT vnodepool_send('[{"vnode": "n1", "available": "ncpus=4", "labels": {"sw": "a"}}]')
       = (SELECT b FROM raw_pools) AS send_is_golden;
\set binfile '/tmp/fairsched_regress_placement.bin'
COPY raw_pools TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE pools_back (p vnodepool);
COPY pools_back FROM :'binfile' WITH (FORMAT binary);
SELECT p FROM pools_back;
-- receive refuses what the JSON text cannot express: a value with a comma, a NUL in a name,
-- a name that is not UTF-8
TRUNCATE raw_pools;
INSERT INTO raw_pools VALUES (decode('01' || '00000001' || '0002' || '6e31'
    || '00000000' || '00000000' || '0001' || '0002' || '7377' || '0003' || '612c62', 'hex'));
COPY raw_pools TO :'binfile' WITH (FORMAT binary);
COPY pools_back FROM :'binfile' WITH (FORMAT binary);
TRUNCATE raw_pools;
INSERT INTO raw_pools VALUES (decode('01' || '00000001' || '0002' || '6e00'
    || '00000000' || '00000000' || '0000', 'hex'));
COPY raw_pools TO :'binfile' WITH (FORMAT binary);
COPY pools_back FROM :'binfile' WITH (FORMAT binary);
TRUNCATE raw_pools;
INSERT INTO raw_pools VALUES (decode('01' || '00000001' || '0002' || '6eff'
    || '00000000' || '00000000' || '0000', 'hex'));
COPY raw_pools TO :'binfile' WITH (FORMAT binary);
COPY pools_back FROM :'binfile' WITH (FORMAT binary);
SELECT count(*) AS accepted FROM pools_back;

-- reliability (issue 14): repeated keys, arrays of arrays, the cap on sets, kinds that differ
SELECT * FROM pools, placement_sets(pool, ARRAY['router', 'switch', 'router']);
SELECT * FROM pools, placement_sets(pool, ARRAY[['router'], ['switch']]);
SELECT * FROM pools, placement_sets(pool, ARRAY['router'], ARRAY[['ncpus LOW'], ['mem LOW']]);
SELECT * FROM pools, placement_sets(pool, (SELECT array_agg('k' || i) FROM generate_series(1, 33) AS i));
SELECT count(*)
FROM (SELECT vnode_pool('vn1', 'ncpus=4', NULL, jsonb_build_object('k1', a, 'k2', a, 'k3', a, 'k4', a, 'k5', a, 'k6', a)) AS pool
      FROM (SELECT jsonb_agg('v' || i) AS a FROM generate_series(1, 10) AS i) AS v) AS p,
     placement_sets(pool, ARRAY['k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
CREATE TEMP TABLE mixed AS SELECT vnode_pool('v1', 'mem=64gb', 'mem=32', '{"rack": "r1"}') AS pool;
SELECT s.* FROM mixed, placement_sets(pool, ARRAY['rack']) AS s;
SELECT s.* FROM mixed, place(pool, ARRAY['rack'], 'mem=1gb') AS s;
DROP TABLE mixed;

-- cancellation: placement_sets over 10^6 vnodes stops within a second of statement_timeout
CREATE TEMP TABLE big_pool AS
SELECT vnode_pool('vn' || i, 'ncpus=4,mem=8gb', 'ncpus=1',
                  jsonb_build_object('router', 'rt' || (i % 100), 'switch', 'sw' || (i % 1000))) AS pool
FROM generate_series(1, 1000000) AS i;
SET statement_timeout = '300ms';
DO $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    PERFORM count(*) FROM big_pool, placement_sets(pool, ARRAY['router', 'switch']);
    RAISE NOTICE 'placement_sets was not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'placement_sets cancelled within 1 s of the timeout: %',
        clock_timestamp() - t0 < interval '1.3 s';
END
$$;
RESET statement_timeout;
DROP TABLE big_pool;
