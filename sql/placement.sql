-- placement: PBS placement sets and node_group_sort_key (docs/placement.md; the PBS design page PP-1018)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
\i sql/data/pp1018_vnodes.sql

CREATE TEMP TABLE pools AS
SELECT vnode_pool(vnode, format('ncpus=%s,mem=%s', ncpus, mem)::resvec, NULL,
                  jsonb_build_object('router', router, 'switch', switch)) AS pool
FROM pp1018_vnodes;

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
FROM pp1018_vnodes;
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
SELECT '[{"vnode": "a", "labels": ["r1"]}]'::vnodepool;
SELECT '[{"vnode": "a"}, {"vnode": "a"}]'::vnodepool;
-- a label string is split at commas, and each item loses the whitespace around it (space, tab,
-- newline, carriage return, vertical tab, form feed: the one set every text form uses);
-- empty items are dropped
SELECT '[{"vnode": "a", "labels": {"rack": " r1\t,\fr2\n, \u000b,r 3\r"}}]'::vnodepool;
SELECT vnode_pool('a', NULL, NULL, '{"rack": ["\fr1\u000b", " "]}');

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

-- reliability: repeated keys, arrays of arrays, the cap on sets, kinds that differ
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

-- ---------------------------------------------------------------- peer parity (docs/placement.md)

-- place(..., only_explicit): as in placement_sets, a vnode without a key joins no set. small_pool:
-- a4 (ncpus=1) and a5 (ncpus=16) have no rack and no zone. By default they form "rack=-zone="
-- (ncpus 17, rank 4 above), the first set holding ncpus=10; with only_explicit the largest set is
-- x-x or x (ncpus 8): no row
SELECT only_explicit, p.*
FROM small_pool, (VALUES (false), (true)) AS o(only_explicit),
     LATERAL place(pool, ARRAY['rack', 'zone'], 'ncpus=10', NULL, false, only_explicit) AS p;
-- the old five-argument call still works (only_explicit defaults to false)
SELECT p.* FROM small_pool, place(pool, ARRAY['rack', 'zone'], 'ncpus=10', NULL, false) AS p;

-- place_select: a PBS select spec placed chunk by chunk. PP-1018's 36 vnodes, no jobs, default
-- node_group_sort_key. The 2-dimensional sets come first, by total ncpus, then total mem (the
-- seed's table): rt1-sw3 12/28gb (rank 1), rt2-sw1 14/24 (2), rt4-sw1 16/16 (3), rt2-sw3 18/32
-- (4), then the four sets of 20 ncpus by mem: rt3-sw3 24 (5), rt2-sw2 28 and rt4-sw3 28 (6 and 7,
-- by name), rt1-sw2 42 (8).
--
-- 2:ncpus=8:mem=16gb, scatter: the job's total is ncpus=16, mem=32gb. rt1-sw3, rt2-sw1 and
-- rt4-sw1 are too small in total (ncpus 12, 14; mem 16gb); rt2-sw3 (18/32gb) is large enough in
-- total but none of its vnodes has 8 ncpus; rt3-sw3, rt2-sw2, rt4-sw3 have less than 32gb. rt1-sw2
-- = {vn11 2/8gb, vn14 8/16gb, vn51 2/2gb, vn52 8/16gb}: chunk 1 on vn14 (first that fits), chunk 2
-- on another host, vn52. With free the same vnodes: vn14 has nothing left after chunk 1.
-- pack needs one vnode with 16 ncpus and 32gb: none in the seed, now or empty: no row.
SELECT place, p.pset, p.rank, p.fits_now, p.chunk, p.vnode, p.amounts
FROM pools, (VALUES ('scatter'), ('free'), ('pack')) AS pl(place),
     LATERAL place_select(pool, ARRAY['router', 'switch'], '2:ncpus=8:mem=16gb', place) AS p;
-- 2:ncpus=4:mem=8gb (total ncpus=8, mem=16gb). free: rt1-sw3 = {vn10 4/8gb, vn15 4/16gb, vn17
-- 4/4gb}: chunk 1 on vn10, chunk 2 on vn15 (vn10 is full). pack: one vnode must hold 8 ncpus and
-- 16gb: vn14, vn34, vn37, vn42, vn52; rt1-sw3 .. rt2-sw2 (ranks 1-6) hold none of them, rt4-sw3 =
-- {vn42, vn43, vn44} holds vn42: both chunks there, rank 7.
SELECT place, p.pset, p.rank, p.fits_now, p.chunk, p.vnode, p.amounts
FROM pools, (VALUES ('free'), ('pack')) AS pl(place),
     LATERAL place_select(pool, ARRAY['router', 'switch'], '2:ncpus=4:mem=8gb', place) AS p;
-- 2:ncpus=2:mem=2gb in rt1-sw3: free puts both on vn10 (4 ncpus, 8gb); scatter and vscatter one
-- per vnode: vn10 and vn15
SELECT place, p.pset, p.rank, p.chunk, p.vnode
FROM pools, (VALUES ('free'), ('scatter'), ('vscatter')) AS pl(place),
     LATERAL place_select(pool, ARRAY['router', 'switch'], '2:ncpus=2:mem=2gb', place) AS p
ORDER BY place, chunk;
-- default_chunk: PBS adds default_chunk.ncpus = 1 (the server's out-of-the-box setting) to a
-- chunk that does not name ncpus; 1:mem=16gb then asks ncpus=1,mem=16gb: vn15 in rt1-sw3 (vn10
-- has 8gb). default_chunk => '' adds nothing.
SELECT d.dc, p.pset, p.chunk, p.vnode, p.amounts
FROM pools, (VALUES ('ncpus=1'), ('')) AS d(dc),
     LATERAL place_select(pool, ARRAY['router', 'switch'], '1:mem=16gb', default_chunk => d.dc::resvec) AS p;
-- the sort keys, prime time and only_explicit reach the sets as in placement_sets: with
-- "router HIGH" first, rt4's sets come first and rt4-sw1 = {vn44, vn46} is first of all:
-- 1:ncpus=8 on vn44
SELECT p.pset, p.rank, p.chunk, p.vnode
FROM pools, place_select(pool, ARRAY['router', 'switch'], '1:ncpus=8', 'free',
                         ARRAY['"router HIGH" all', '"ncpus LOW total" all']) AS p;
-- group=<resource> forms the sets from that resource alone, as PBS's place=group=...: the router
-- sets by total ncpus are rt2 28, rt4 46, rt1 58, rt3 64; 1:ncpus=8 goes to rt2's vn24
SELECT p.pset, p.rank, p.chunk, p.vnode
FROM pools, place_select(pool, ARRAY['router', 'switch'], '1:ncpus=8', 'free:group=router') AS p;

-- place_select with only_explicit and prime time, on small_pool: 1:ncpus=10 fits only a5 (16
-- ncpus), which has no rack and no zone: in "rack=-zone=" (rank 4) by default, in no set with
-- only_explicit. Rack sets: r1 (ncpus 6), x (8), "rack=" (17). In prime time "ncpus HIGH total"
-- puts "rack=" first: 1:ncpus=2 on a5 (a4 has 1); out of it "ncpus LOW total" puts r1 first: a1.
SELECT o.only_explicit, p.pset, p.rank, p.vnode
FROM small_pool, (VALUES (false), (true)) AS o(only_explicit),
     LATERAL place_select(pool, ARRAY['rack', 'zone'], '1:ncpus=10', 'free', NULL, false, o.only_explicit) AS p;
SELECT t.prime, p.pset, p.rank, p.vnode
FROM small_pool, (VALUES (true), (false)) AS t(prime),
     LATERAL place_select(pool, ARRAY['rack'], '1:ncpus=2', 'free',
                          ARRAY['"ncpus HIGH total" prime', '"ncpus LOW total" non_prime'], t.prime) AS p;

-- A small pool with running jobs: a1 and a2 in rack r1 (a2 runs a job: ncpus=4 assigned), b1
-- and b2 in rack r2, b1 with 2 GPUs. Sets by total ncpus: r1 (16) rank 1, r2 (32) rank 2.
CREATE TEMP TABLE job_pool AS
SELECT vnode_pool(v, a::resvec, s::resvec, l::jsonb) AS pool
FROM (VALUES ('a1', 'ncpus=8,mem=16gb', NULL, '{"rack": "r1"}'),
             ('a2', 'ncpus=8,mem=16gb', 'ncpus=4', '{"rack": "r1"}'),
             ('b1', 'ncpus=16,mem=64gb,ngpus=2', NULL, '{"rack": "r2"}'),
             ('b2', 'ncpus=16,mem=64gb', NULL, '{"rack": "r2"}')) AS t(v, a, s, l);
-- PBS places chunks in select order, first fit, without looking ahead. 2:ncpus=8:mem=16gb+1:ngpus=1
-- asks ncpus=17 in all (the GPU chunk gets ncpus=1 from default_chunk): r1 has 12 free. In r2,
-- chunks 1 and 2 take all 16 ncpus of b1, and the GPU chunk finds no ncpus on b1 and no GPU on
-- b2: no row, now or empty. Without default_chunk the GPU chunk needs no ncpus: all on b1.
SELECT d.dc, p.pset, p.rank, p.fits_now, p.chunk, p.vnode, p.amounts
FROM job_pool, (VALUES ('ncpus=1'), ('')) AS d(dc),
     LATERAL place_select(pool, ARRAY['rack'], '2:ncpus=8:mem=16gb+1:ngpus=1', 'free', default_chunk => d.dc::resvec) AS p;
-- scatter, the order of the terms matters: 1:ncpus=8+1:ngpus=1 puts the CPU chunk on b1 (first
-- fit), then no other vnode of r2 has a GPU: no row. 1:ngpus=1+1:ncpus=8 puts the GPU chunk on b1
-- and the CPU chunk on b2.
SELECT s.spec, p.pset, p.chunk, p.vnode, p.amounts
FROM job_pool, (VALUES ('1:ncpus=8+1:ngpus=1'), ('1:ngpus=1+1:ncpus=8')) AS s(spec),
     LATERAL place_select(pool, ARRAY['rack'], s.spec, 'scatter') AS p;
-- excl: a vnode with a job takes no chunk. 3:ncpus=4 over the whole pool (no group keys: one set
-- "all"): free puts chunks 1 and 2 on a1 and chunk 3 on a2 (4 ncpus free); free:excl skips a2:
-- chunk 3 on b1. shared is the default.
SELECT place, p.pset, p.rank, p.chunk, p.vnode
FROM job_pool, (VALUES ('free'), ('free:excl'), ('free:shared')) AS pl(place),
     LATERAL place_select(pool, '{}', '3:ncpus=4', place) AS p
ORDER BY place, chunk;
-- The sets' totals come first (PBS's resresv_can_fit_nodepart): 2:ncpus=8 asks 16 ncpus, r1
-- has 12 free (a2 runs a job): r2 (rank 2) takes it now, both chunks on b1. 3:ncpus=12 asks 36,
-- more than any set has even empty (16, 32): no row. 2:ncpus=6:ngpus=1 asks 2 GPUs: r1 has none;
-- b1 has 2: both chunks on b1.
SELECT s.spec, p.pset, p.rank, p.fits_now, p.chunk, p.vnode
FROM job_pool, (VALUES ('2:ncpus=8'), ('3:ncpus=12'), ('2:ncpus=6:ngpus=1')) AS s(spec),
     LATERAL place_select(pool, ARRAY['rack'], s.spec) AS p
ORDER BY s.spec, chunk;
-- fits_now false: the first set where the chunks would fit were its vnodes free. rack=r1 (a label
-- requirement) keeps 2:ncpus=8 out of r2; r1 has 12 ncpus free, not 16: not now. With r1's jobs
-- gone, a1 and a2 take one chunk each.
SELECT p.pset, p.rank, p.fits_now, p.chunk, p.vnode
FROM job_pool, place_select(pool, ARRAY['rack'], '2:ncpus=8:rack=r1') AS p;

-- label requirements: a value that is not an amount asks for a vnode label (PBS string and
-- boolean chunk resources); host= and vnode= name the host or the vnode; an unset boolean is
-- false. Quotes make a value a string. 3:ncpus=4:arch=linux finds two linux vnodes of 4 ncpus:
-- no row.
CREATE TEMP TABLE label_pool AS
SELECT vnode_pool(v, a::resvec, NULL, l::jsonb) AS pool
FROM (VALUES ('c1', 'ncpus=4', '{"arch": "linux", "bigmem": "True"}'),
             ('c2', 'ncpus=4', '{"arch": "linux", "green": "true"}'),
             ('c3', 'ncpus=4', '{"arch": "aix", "ver": "10"}')) AS t(v, a, l);
SELECT s.spec, string_agg(p.vnode, ',' ORDER BY p.chunk) AS vnodes
FROM label_pool, (VALUES ('1:arch=aix'), ('2:arch=linux'), ('1:bigmem=true'), ('1:bigmem=false'),
                         ('1:green=true:bigmem=FALSE'), ('1:vnode=c3'), ('1:host=c2'),
                         ('1:ver="10"'), ('3:ncpus=4:arch=linux')) AS s(spec),
     LATERAL place_select(pool, '{}', s.spec) AS p
GROUP BY s.spec ORDER BY s.spec;

-- Hosts with several vnodes (a "host" label; without one a vnode is its own host). A chunk that
-- no single vnode of a host holds is split across that host's vnodes (PBS's EVAL_OKBREAK), each
-- giving what it has: 1:ncpus=8:mem=8gb on m1 = {m1[0] 4/8gb, m1[1] 4/8gb}: m1[0] gives ncpus=4
-- and mem=8gb, m1[1] the other ncpus=4. vscatter never splits (one chunk per vnode): m1 cannot,
-- m2 (6 ncpus) cannot: no row. exclhost: m1[1] runs a job in the second pool, so no vnode of m1
-- takes a chunk; excl only skips m1[1]: 1:ncpus=2 goes to m1[0] under excl, to m2 under exclhost.
CREATE TEMP TABLE host_pool AS
SELECT busy, vnode_pool(v, a::resvec, CASE WHEN busy AND v = 'm1[1]' THEN 'ncpus=1' END::resvec, l::jsonb) AS pool
FROM (VALUES (false), (true)) AS b(busy),
     (VALUES ('m1[0]', 'ncpus=4,mem=8gb', '{"host": "m1"}'),
             ('m1[1]', 'ncpus=4,mem=8gb', '{"host": "m1"}'),
             ('m2', 'ncpus=6,mem=32gb', NULL)) AS t(v, a, l)
GROUP BY busy;
SELECT place, p.pset, p.fits_now, p.chunk, p.vnode, p.amounts
FROM host_pool, (VALUES ('free'), ('pack'), ('vscatter')) AS pl(place),
     LATERAL place_select(pool, '{}', '1:ncpus=8:mem=8gb', place) AS p
WHERE NOT busy ORDER BY place, vnode;
SELECT place, p.chunk, p.vnode
FROM host_pool, (VALUES ('free:excl'), ('free:exclhost')) AS pl(place),
     LATERAL place_select(pool, '{}', '1:ncpus=2', place) AS p
WHERE busy ORDER BY place;
-- scatter: one chunk per host; vscatter: one per vnode. 3:ncpus=1: scatter finds only two hosts
-- (m1, m2): no row; vscatter puts them on m1[0], m1[1], m2. 2:ncpus=1: scatter m1[0] and m2,
-- vscatter m1[0] and m1[1] (hosts in order, as many chunks per host as it has vnodes).
SELECT s.spec, place, string_agg(p.vnode, ',' ORDER BY p.chunk) AS vnodes
FROM host_pool, (VALUES ('3:ncpus=1'), ('2:ncpus=1')) AS s(spec),
     (VALUES ('scatter'), ('vscatter')) AS pl(place),
     LATERAL place_select(pool, '{}', s.spec, place) AS p
WHERE NOT busy GROUP BY s.spec, place ORDER BY s.spec, place;

-- Indirect resources: resources_available.scratch = @h1 on h1[0] and h1[1] (PBS's shared
-- resources), and labels that take another vnode's values. available is text here (the
-- vnode_pool variant that reads "@vnode"). h1[0] takes its switch from h1 (sw1), so PBS forms one
-- set sw1 = {h1, h1[0]}, not a set "@h1"; h1[1] has switch sw3.
CREATE TEMP TABLE ind_pool AS
SELECT vnode_pool(v, a, s::resvec, l::jsonb) AS pool
FROM (VALUES ('h1', 'ncpus=8,scratch=100gb', 'scratch=20gb', '{"switch": "sw1"}'),
             ('h1[0]', 'ncpus=4,scratch=@h1', 'ncpus=1,scratch=10gb', '{"switch": "@h1", "host": "h1"}'),
             ('h1[1]', 'ncpus=4,scratch=@h1', NULL, '{"switch": "sw3", "host": "h1"}'),
             ('h2', 'ncpus=8,scratch=50gb', NULL, '{"switch": "sw2"}')) AS t(v, a, s, l);
SELECT pool FROM ind_pool;
SELECT pool::text::vnodepool::text = pool::text AS round_trip FROM ind_pool;
-- the shared 100gb counts once per set: sw1 total scratch 100gb (not 200), assigned 20gb (h1's
-- own) + 10gb (h1[0]'s job, handed to the vnode that holds the scratch) = 30gb, unused 70gb.
-- sw3 = {h1[1]} reaches the scratch only through h1[1]'s pointer: total 100gb, assigned 30gb,
-- unused 70gb; ncpus 4.
SELECT rank, name, vnodes, total, assigned, unused FROM ind_pool, placement_sets(pool, ARRAY['switch']);
-- Sets by total ncpus: sw3 4, sw2 8, sw1 12. 1:ncpus=11:scratch=60gb: only sw1 has 11 ncpus
-- free; one host h1 (h1 and h1[0]), no vnode has 11 ncpus, so the chunk is split: h1 gives
-- ncpus=8 and scratch=60gb (70gb free), h1[0] ncpus=3 (4 less its job's 1). 1:ncpus=12: 11 free
-- in sw1, not now; empty, h1 gives 8 and 60gb, h1[0] 4: fits_now false.
SELECT p.* FROM ind_pool, place_select(pool, ARRAY['switch'], '1:ncpus=11:scratch=60gb') AS p;
SELECT p.* FROM ind_pool, place_select(pool, ARRAY['switch'], '1:ncpus=12:scratch=60gb') AS p;
-- the shared amount is consumed once. 2:scratch=40gb without ncpus asks 80gb: sw3 and sw1 have
-- 70gb free, sw2 50gb: not now. Empty, sw3 (rank 1) holds both through h1[1] in the 100gb.
SELECT p.* FROM ind_pool, place_select(pool, ARRAY['switch'], '2:scratch=40gb', default_chunk => '') AS p;
-- 3:scratch=40gb over the whole pool: 120gb free in all (70 shared + h2's 50). Host h1 (h1, h1[0],
-- h1[1]): chunk 1 on h1 leaves 30gb, which h1[0] and h1[1] share: chunk 2 finds 30gb on each
-- and split across them still 30gb; host h2: chunk 2 (50gb), then 10gb for chunk 3: not now.
-- Counted per vnode, the 70gb would have held all three. Empty: h1 holds chunks 1 and 2 (100gb),
-- h2 chunk 3.
SELECT p.* FROM ind_pool, place_select(pool, '{}', '3:scratch=40gb', default_chunk => '') AS p;
-- the binary form carries the pointers (version 2) and reads back
CREATE TEMP TABLE ind_back (p vnodepool);
\set binfile '/tmp/fairsched_regress_placement_ind.bin'
COPY (SELECT pool FROM ind_pool) TO :'binfile' WITH (FORMAT binary);
COPY ind_back FROM :'binfile' WITH (FORMAT binary);
SELECT p::text = (SELECT pool::text FROM ind_pool) AS binary_round_trip,
       get_byte(vnodepool_send(p), 0) AS version FROM ind_back;
SELECT get_byte(vnodepool_send(pool), 0) AS version_without_pointers FROM small_pool;
-- the resvec form of vnode_pool and the text form build the same pool when nothing points
SELECT (SELECT vnode_pool(v, a::resvec, NULL, NULL)::text FROM (VALUES ('x', 'ncpus=2,mem=1gb')) t(v, a))
     = (SELECT vnode_pool(v, a, NULL, NULL)::text FROM (VALUES ('x', 'ncpus=2,mem=1gb')) t(v, a)) AS same;

-- ties (eval_simple_selspec goes through the set's vnodes in order and takes the first that
-- holds the chunk): when several vnodes hold a chunk, it goes to the first in the set's order
-- (name order), not to the one with the most free or the tightest fit. n1 has 2 of its 8 CPUs
-- free, n2 and n3 all 8: a 2-CPU chunk goes to n1, and a second one to n2; the same across
-- hosts (the host of the set's first such vnode: h2, through a) and within a host (m[0], though
-- m[1] is emptier), where a chunk that one vnode holds whole is not split.
WITH pool AS (
    SELECT vnode_pool(v, a::resvec, s::resvec, l::jsonb) AS pool
    FROM (VALUES ('n1', 'ncpus=8', 'ncpus=6', NULL), ('n2', 'ncpus=8', NULL, NULL),
                 ('n3', 'ncpus=8', NULL, NULL)) AS t(v, a, s, l))
SELECT sel, p.chunk, p.vnode, p.amounts
FROM pool, (VALUES ('1:ncpus=2'), ('2:ncpus=2'), ('1:ncpus=3')) AS q(sel),
     LATERAL place_select(pool, '{}', sel) AS p ORDER BY sel, p.chunk;
WITH pool AS (
    SELECT vnode_pool(v, a::resvec, s::resvec, l::jsonb) AS pool
    FROM (VALUES ('c', 'ncpus=4', NULL, '{"host": "h1"}'), ('a', 'ncpus=4', NULL, '{"host": "h2"}'),
                 ('b', 'ncpus=4', NULL, '{"host": "h1"}'),
                 ('m[0]', 'ncpus=4', 'ncpus=2', '{"host": "m"}'),
                 ('m[1]', 'ncpus=4', NULL, '{"host": "m"}')) AS t(v, a, s, l))
SELECT place, p.chunk, p.vnode, p.amounts
FROM pool, unnest(ARRAY['free', 'scatter', 'vscatter']) AS place,
     LATERAL place_select(pool, '{}', '1:ncpus=2', place) AS p
UNION ALL
SELECT 'host m', p.chunk, p.vnode, p.amounts
FROM (SELECT vnode_pool(v, a::resvec, s::resvec, l::jsonb) AS pool
      FROM (VALUES ('m[0]', 'ncpus=4', 'ncpus=2', '{"host": "m"}'),
                   ('m[1]', 'ncpus=4', NULL, '{"host": "m"}')) AS t(v, a, s, l)) AS pm,
     LATERAL place_select(pool, '{}', '1:ncpus=2') AS p;

-- NULL arguments: no rows
SELECT count(*) FROM job_pool, place_select(pool, ARRAY['rack'], NULL);
SELECT count(*) FROM job_pool, place_select(pool, NULL, '1:ncpus=1');
SELECT count(*) FROM job_pool, place_select(pool, ARRAY['rack'], '1:ncpus=1', NULL);

-- errors: select specs (22P02, with the position), place specs (22023), limits (54000)
SELECT * FROM job_pool, place_select(pool, '{}', '');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8+');
SELECT * FROM job_pool, place_select(pool, '{}', '+1:ncpus=8');
SELECT * FROM job_pool, place_select(pool, '{}', '0:ncpus=8');
SELECT * FROM job_pool, place_select(pool, '{}', '2ncpus=8');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8:');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8 + 1:mem=1gb');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8:ncpus=4');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8:arch="linux');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=8:mem=1xb');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=-1');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=NaN');
SELECT * FROM job_pool, place_select(pool, '{}', '2:ncpus=inf');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1e999');
SELECT * FROM job_pool, place_select(pool, '{}', '1:9cpus=1');
SELECT * FROM job_pool, place_select(pool, '{}', '100001:ncpus=1');
SELECT * FROM job_pool, place_select(pool, '{}', '60000:ncpus=1+40001:ncpus=1');
SELECT * FROM job_pool, place_select(pool, '{}', '1:mem=1gb+1:mem=1');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1gb');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'packs');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', '');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'pack::excl');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'pack:scatter');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'excl:shared');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'group=');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'group=a:group=b');
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'group=' || repeat('k', 64));
SELECT * FROM job_pool, place_select(pool, '{}', '1:ncpus=1', 'Pack');
SELECT * FROM (SELECT vnode_pool('h', 'ncpus=1', NULL, '{"host": ["a", "b"]}') AS pool) AS p,
     place_select(pool, '{}', '1:ncpus=1');
-- errors: indirect values. Unknown vnode, itself, a chain (PBS allows one level), a vnode without
-- the value, a pointer among other values, "@" alone, an amount and a pointer for one resource,
-- a resource pointed twice, malformed text
SELECT * FROM (SELECT vnode_pool(v, a, NULL, NULL) AS pool FROM (VALUES ('a', 'x=@zz'), ('c', 'x=1')) t(v, a)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, a, NULL, NULL) AS pool FROM (VALUES ('a', 'x=@a')) t(v, a)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, a, NULL, NULL) AS pool FROM (VALUES ('a', 'x=@b'), ('b', 'x=@c'), ('c', 'x=1')) t(v, a)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, a, NULL, NULL) AS pool FROM (VALUES ('a', 'x=@c'), ('c', 'y=1')) t(v, a)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, NULL::text, NULL, l::jsonb) AS pool FROM (VALUES ('a', '{"k": "@b"}'), ('b', '{"k": "@c"}'), ('c', '{"k": "v"}')) t(v, l)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, NULL::text, NULL, l::jsonb) AS pool FROM (VALUES ('a', '{"k": "@b"}'), ('b', '{"j": "v"}')) t(v, l)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, NULL::text, NULL, l::jsonb) AS pool FROM (VALUES ('a', '{"k": ["@b", "z"]}'), ('b', '{"k": "v"}')) t(v, l)) p,
     placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool('a', NULL::text, NULL, '{"k": "@"}') AS pool) p, placement_sets(pool, ARRAY['k']);
SELECT * FROM (SELECT vnode_pool(v, a, NULL, NULL) AS pool FROM (VALUES ('a', 'x=@zz'), ('c', 'x=1')) t(v, a)) p,
     place_select(pool, '{}', '1:x=1');
SELECT vnode_pool('a', 'x=1,x=@b', NULL, NULL);
SELECT vnode_pool('a', 'x=@b,x=@c', NULL, NULL);
SELECT vnode_pool('a', 'x=@', NULL, NULL);
SELECT vnode_pool('a', '=@b', NULL, NULL);
SELECT vnode_pool('a', 'x=@b,ncpus=abc', NULL, NULL);
SELECT vnode_pool('a', '{x=@b, y = @c,a=1,b=@d}', NULL, NULL);
SELECT '[{"vnode": "a", "available": "x=@b", "assigned": "x=@b"}]'::vnodepool;
-- the assigned amounts of a shared resource must be of its kind
SELECT * FROM (SELECT vnode_pool(v, a, s::resvec, NULL) AS pool FROM (VALUES ('a', 'x=@c', 'x=1gb'), ('c', 'x=10', NULL)) t(v, a, s)) p,
     placement_sets(pool, ARRAY['k']);
-- a chunk's resource of another kind than the vnode's
SELECT * FROM job_pool, place_select(pool, '{}', '1:mem=16');

-- cancellation: place_select over 10^6 vnodes in one set stops within a second of statement_timeout
CREATE TEMP TABLE big_sel AS
SELECT vnode_pool('vn' || i, 'ncpus=4,mem=8gb', 'ncpus=1', NULL::jsonb) AS pool
FROM generate_series(1, 1000000) AS i;
SET statement_timeout = '300ms';
DO $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    PERFORM count(*) FROM big_sel, place_select(pool, '{}', '99999:ncpus=3+1:ncpus=4');
    RAISE NOTICE 'place_select was not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'place_select cancelled within 1 s of the timeout: %',
        clock_timestamp() - t0 < interval '1.3 s';
END
$$;
RESET statement_timeout;
DROP TABLE big_sel;

-- a chunk split across one host's vnodes resumes where the previous chunk stopped: 10,000
-- chunks of ncpus=2 over 20,000 vnodes of ncpus=1 on one host, each chunk on two vnodes in
-- turn (linear in vnodes + chunks; it took seconds when every chunk rescanned the host)
CREATE TEMP TABLE one_host AS
SELECT vnode_pool('hv' || lpad(i::text, 5, '0'), 'ncpus=1', NULL, '{"host": "h1"}') AS pool
FROM generate_series(1, 20000) AS i;
SET statement_timeout = '2s';
SELECT count(*) AS pieces, count(DISTINCT chunk) AS chunks, count(DISTINCT vnode) AS vnodes,
       bool_and(amounts = 'ncpus=1') AS one_cpu_each,
       bool_and(vnode = 'hv' || lpad((2 * chunk - 1)::text, 5, '0')
                OR vnode = 'hv' || lpad((2 * chunk)::text, 5, '0')) AS in_turn
FROM one_host, place_select(pool, '{}', '10000:ncpus=2');
RESET statement_timeout;
DROP TABLE one_host;
-- whole chunks first fit, then the split ones take what is left from the host's first vnode on,
-- a resource at a time (chunk 5: the last cpu and mem of v1, the last cpu of v2, a gb of v3's
-- mem; chunk 6 goes on from v3)
SELECT chunk, vnode, amounts
FROM (SELECT vnode_pool(v, a::resvec, NULL, '{"host": "h"}') AS pool
      FROM (VALUES ('v1', 'ncpus=3,mem=3gb'), ('v2', 'ncpus=3,mem=2gb'),
                   ('v3', 'ncpus=3,mem=4gb'), ('v4', 'ncpus=3,mem=4gb')) AS t(v, a)) AS p,
     place_select(pool, '{}', '6:ncpus=2:mem=2gb')
ORDER BY chunk, vnode;

-- memory in proportion to the spec and the pool: 20,000 terms, each naming a resource of its
-- own, on 10 vnodes (every term's amount of every resource was kept, 3.2 GB, an XX000)
CREATE TEMP TABLE ten AS
SELECT vnode_pool('t' || i, 'ncpus=2000', NULL, NULL::jsonb) AS pool
FROM generate_series(1, 10) AS i;
CREATE TEMP TABLE spec20k AS
SELECT string_agg('1:ncpus=1:r' || i || '=0', '+') AS s FROM generate_series(1, 20000) AS i;
SELECT length(s) AS spec_bytes FROM spec20k;
SELECT count(*) AS pieces, count(DISTINCT chunk) AS chunks, count(DISTINCT vnode) AS vnodes
FROM ten, spec20k, place_select(pool, '{}', s);
-- the same terms with resources the vnodes lack fit nowhere
SELECT count(*) AS pieces
FROM ten, (SELECT string_agg('1:r' || i || '=1', '+') AS s FROM generate_series(1, 20000) AS i) AS q,
     place_select(pool, '{}', s);
-- a limit on the resources a select spec holds, default_chunk's counted in every term: 54000
\i sql/data/sqlstate_of.sql
SELECT pg_temp.sqlstate_of($q$
SELECT count(*) FROM ten, place_select(pool, '{}',
    (SELECT string_agg('1:ncpus=1', '+') FROM generate_series(1, 1001)),
    default_chunk => (SELECT string_agg('d' || i || '=1', ',') FROM generate_series(1, 1000) AS i)::resvec)
$q$) AS sqlstate;
SELECT count(*) FROM ten, place_select(pool, '{}',
    (SELECT string_agg('1:ncpus=1', '+') FROM generate_series(1, 1001)),
    default_chunk => (SELECT string_agg('d' || i || '=1', ',') FROM generate_series(1, 1000) AS i)::resvec);
-- one chunk of many resources is checked for duplicates in linear time
SET statement_timeout = '2s';
SELECT count(*) FROM ten, place_select(pool, '{}',
    '1:' || (SELECT string_agg('q' || i || '=0', ':') FROM generate_series(1, 100000) AS i));
SELECT * FROM ten, place_select(pool, '{}',
    '1:' || (SELECT string_agg('q' || i || '=0', ':') FROM generate_series(1, 3000) AS i) || ':q17=1')
LIMIT 1;
RESET statement_timeout;
DROP TABLE ten, spec20k;
