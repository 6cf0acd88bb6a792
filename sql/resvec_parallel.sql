-- sum(resvec) under parallel query and in a distributed (Citus-like) emulation
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

CREATE TABLE rv_jobs AS
SELECT i AS id,
       (i % 4) AS part,
       i % 8 + 1 AS ncpus, (i % 4 + 1) * 1024 AS mem_mb, i % 3600 AS secs,
       format('ncpus=%s,mem=%smb,walltime=00:%s:%s', i % 8 + 1, (i % 4 + 1) * 1024, i % 3600 / 60, i % 60)::resvec AS alloc
FROM generate_series(1, 200000) AS i;
-- a few rows with other shapes, so that partial states have different names
INSERT INTO rv_jobs VALUES (0, 0, 0, 0, 0, 'ngpus=2'), (-1, 1, 0, 0, 0, 'licenses=3,ncpus=1');
ANALYZE rv_jobs;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT sum(alloc) FROM rv_jobs;
SELECT sum(alloc) FROM rv_jobs;
-- the same as summing each amount natively
SELECT sum(alloc) = resvec(ARRAY['licenses', 'ncpus', 'mem', 'ngpus', 'walltime'],
                           ARRAY[3, sum(ncpus) + 1, sum(mem_mb) * 1048576.0, 2, sum(secs)],
                           ARRAY['count', 'count', 'size', 'count', 'duration']) AS matches_native
FROM rv_jobs;
SELECT part, sum(alloc) FROM rv_jobs GROUP BY part ORDER BY part;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- distributed emulation: aggregate each shard, ship each state as text, combine on the
-- coordinator; equals the one-pass result
WITH shards AS (
    SELECT id % 5 AS shard, sum(alloc)::text AS state FROM rv_jobs GROUP BY id % 5
)
SELECT sum(state::resvec) = (SELECT sum(alloc) FROM rv_jobs) AS distributed_equals_one_pass
FROM shards;

-- partition-wise aggregation over a partitioned job table
CREATE TABLE rv_jobs_p (part int, alloc resvec) PARTITION BY LIST (part);
CREATE TABLE rv_jobs_p0 PARTITION OF rv_jobs_p FOR VALUES IN (0, 1);
CREATE TABLE rv_jobs_p1 PARTITION OF rv_jobs_p FOR VALUES IN (2, 3);
INSERT INTO rv_jobs_p SELECT part, alloc FROM rv_jobs;
ANALYZE rv_jobs_p;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT part, sum(alloc) FROM rv_jobs_p GROUP BY part;
SELECT (SELECT sum(alloc) FROM rv_jobs_p) = (SELECT sum(alloc) FROM rv_jobs) AS partitioned_equals;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;

DROP TABLE rv_jobs, rv_jobs_p;
