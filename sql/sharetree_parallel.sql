-- share_tree and pool_tree under parallel query, in a distributed (Citus-like) emulation, in
-- partition-wise aggregation and as window functions. Every usage is a whole number, so sums
-- are exact in any order and the trees compare exactly (as text).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- 150,000 jobs of 441 users in 45 groups in 7 accounts; each job row states its user's shares;
-- the accounts' shares, share-ratio bounds (for pool_tree) and a little own usage come in rows
-- of their own
CREATE TABLE stp_jobs AS
SELECT i AS id,
       format('acct%s.grp%s.user%s', i % 441 / 70, i % 441 / 10, i % 441)::sharepath AS path,
       (i % 441 % 5 + 1)::float8 AS shares,
       NULL::float8 AS min_ratio, NULL::float8 AS max_ratio,
       (i % 97)::float8 AS usage,
       format('cpu=%s,mem=%smb', i % 8 + 1, (i % 4 + 1) * 512)::resvec AS alloc,
       format('cpu=%s', i % 16 + 1)::resvec AS demand
FROM generate_series(1, 150000) AS i;
INSERT INTO stp_jobs
SELECT 150001 + a, format('acct%s', a)::sharepath, a * 10, a * 0.01, 0.9, a, format('gpu=%s', a)::resvec, NULL
FROM generate_series(0, 6) AS a;
ANALYZE stp_jobs;

-- the one-pass (serial) results; the four-argument share_tree with FairShare=parent on two
-- accounts reads the rows through this view
CREATE VIEW stp_jobs_parent AS
SELECT path, CASE WHEN path IN ('acct2', 'acct5') THEN NULL ELSE shares END AS shares, usage,
       path IN ('acct2', 'acct5') AS shares_from_parent
FROM stp_jobs;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE one_pass AS
SELECT (SELECT share_tree(path, shares, usage) FROM stp_jobs) AS share_t,
       (SELECT pool_tree(path, shares, min_ratio, max_ratio, alloc, demand) FROM stp_jobs) AS pool_t,
       (SELECT share_tree(path, shares, usage, shares_from_parent) FROM stp_jobs_parent) AS parent_t;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS nodes, sum(usage) FILTER (WHERE depth = 0) AS root_usage,
       (SELECT sum(usage) FROM stp_jobs) AS rows_usage,
       count(*) FILTER (WHERE declared) AS declared_nodes
FROM tree_nodes((SELECT share_t FROM one_pass));
SELECT usage_vec, demand_vec FROM tree_nodes((SELECT pool_t FROM one_pass)) WHERE depth = 0;
SELECT path, shares, shares_from_parent, usage FROM tree_nodes((SELECT parent_t FROM one_pass))
WHERE depth = 1 ORDER BY path;

-- ---------------------------------------------------------------- parallel plans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT share_tree(path, shares, usage)::text = (SELECT share_t::text FROM one_pass) AS parallel_equals_serial
FROM stp_jobs;
SELECT share_tree(path, shares, usage)::text = (SELECT share_t::text FROM one_pass) AS parallel_equals_serial
FROM stp_jobs;
EXPLAIN (COSTS OFF)
SELECT pool_tree(path, shares, min_ratio, max_ratio, alloc, demand)::text = (SELECT pool_t::text FROM one_pass)
       AS parallel_equals_serial
FROM stp_jobs;
SELECT pool_tree(path, shares, min_ratio, max_ratio, alloc, demand)::text = (SELECT pool_t::text FROM one_pass)
       AS parallel_equals_serial
FROM stp_jobs;
EXPLAIN (COSTS OFF)
SELECT share_tree(path, shares, usage, shares_from_parent)::text = (SELECT parent_t::text FROM one_pass)
       AS parallel_equals_serial
FROM stp_jobs_parent;
SELECT share_tree(path, shares, usage, shares_from_parent)::text = (SELECT parent_t::text FROM one_pass)
       AS parallel_equals_serial
FROM stp_jobs_parent;
-- partial states that are NULL: no rows at all, and rows whose path is NULL but for one
SELECT share_tree(path, shares, usage) IS NULL AS no_rows_is_null FROM stp_jobs WHERE usage < 0;
SELECT share_tree(CASE WHEN id = 77 THEN path END, shares, usage)::text AS one_path,
       pool_tree(CASE WHEN id = 77 THEN path END, shares, NULL, NULL, alloc, demand)::text AS one_pool
FROM stp_jobs;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- ---------------------------------------------------------------- distributed emulation
-- aggregate each shard (id % 5), ship each state as text, read it back and combine with merge
CREATE TEMP TABLE shards AS
SELECT id % 5 AS shard,
       share_tree(path, shares, usage)::text AS share_state,
       pool_tree(path, shares, min_ratio, max_ratio, alloc, demand)::text AS pool_state
FROM stp_jobs GROUP BY id % 5;
SELECT shard, (SELECT count(*) FROM tree_nodes(share_state::sharetree)) AS nodes,
       share_state::sharetree::text = share_state AS text_round_trip
FROM shards ORDER BY shard;
-- folded in shard order 0, 1, ..., 4
WITH RECURSIVE fold(shard, share_t, pool_t) AS (
    SELECT shard, share_state::sharetree, pool_state::sharetree FROM shards WHERE shard = 0
    UNION ALL
    SELECT s.shard, merge(f.share_t, s.share_state::sharetree), merge(f.pool_t, s.pool_state::sharetree)
    FROM fold AS f JOIN shards AS s ON s.shard = f.shard + 1
)
SELECT share_t::text = (SELECT share_t::text FROM one_pass) AS share_distributed_equals_one_pass,
       pool_t::text = (SELECT pool_t::text FROM one_pass) AS pool_distributed_equals_one_pass
FROM fold WHERE shard = 4;
-- folded the other way round, each partial result through text again
WITH RECURSIVE fold(shard, share_state, pool_state) AS (
    SELECT shard, share_state, pool_state FROM shards WHERE shard = 4
    UNION ALL
    SELECT s.shard, merge(s.share_state::sharetree, f.share_state::sharetree)::text,
           merge(s.pool_state::sharetree, f.pool_state::sharetree)::text
    FROM fold AS f JOIN shards AS s ON s.shard = f.shard - 1
)
SELECT share_state = (SELECT share_t::text FROM one_pass) AS share_reversed_equals_one_pass,
       pool_state = (SELECT pool_t::text FROM one_pass) AS pool_reversed_equals_one_pass
FROM fold WHERE shard = 0;
-- combined as a tree of merges: (0 + 1) + (2 + (3 + 4))
SELECT merge(merge(s0.share_state::sharetree, s1.share_state::sharetree),
             merge(s2.share_state::sharetree, merge(s3.share_state::sharetree, s4.share_state::sharetree)))::text
       = (SELECT share_t::text FROM one_pass) AS merge_tree_equals_one_pass
FROM shards AS s0, shards AS s1, shards AS s2, shards AS s3, shards AS s4
WHERE s0.shard = 0 AND s1.shard = 1 AND s2.shard = 2 AND s3.shard = 3 AND s4.shard = 4;
-- merging a share tree with a pool tree is an error
SELECT merge(share_t, pool_t) FROM one_pass;

-- ---------------------------------------------------------------- partition-wise aggregation
CREATE TABLE stp_jobs_p (part int, path sharepath, shares float8, min_ratio float8, max_ratio float8,
                        usage float8, alloc resvec, demand resvec) PARTITION BY LIST (part);
CREATE TABLE stp_jobs_p0 PARTITION OF stp_jobs_p FOR VALUES IN (0, 1);
CREATE TABLE stp_jobs_p1 PARTITION OF stp_jobs_p FOR VALUES IN (2, 3);
CREATE TABLE stp_jobs_p2 PARTITION OF stp_jobs_p FOR VALUES IN (4);
INSERT INTO stp_jobs_p SELECT id % 5, path, shares, min_ratio, max_ratio, usage, alloc, demand FROM stp_jobs;
ANALYZE stp_jobs_p;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT share_tree(path, shares, usage) FROM stp_jobs_p;
SELECT share_tree(path, shares, usage)::text = (SELECT share_t::text FROM one_pass) AS share_partitioned_equals,
       pool_tree(path, shares, min_ratio, max_ratio, alloc, demand)::text = (SELECT pool_t::text FROM one_pass)
       AS pool_partitioned_equals
FROM stp_jobs_p;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;

-- ---------------------------------------------------------------- window functions
CREATE TEMP TABLE few_jobs (id int, path sharepath, shares float8, usage float8, alloc resvec);
INSERT INTO few_jobs VALUES
    (1, 'phys.alice', 2, 10, 'cpu=1'),
    (2, 'phys.bob', NULL, 5, 'cpu=2,mem=1gb'),
    (3, 'chem.carol', 1, 7, 'mem=2gb'),
    (4, 'phys.alice', NULL, 1, 'cpu=4'),
    (5, 'phys', 3, 2, NULL);
-- a running tree (the default frame grows row by row)
SELECT id, share_tree(path, shares, usage) OVER (ORDER BY id) FROM few_jobs ORDER BY id;
-- a sliding frame of two rows (the aggregate restarts for every row)
SELECT id, share_tree(path, shares, usage) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
FROM few_jobs ORDER BY id;
SELECT id, pool_tree(path, shares, NULL, NULL, alloc, NULL) OVER (ORDER BY id) FROM few_jobs ORDER BY id;
-- the last running tree is the whole aggregate
SELECT (SELECT share_tree(path, shares, usage) OVER (ORDER BY id)::text FROM few_jobs ORDER BY id DESC LIMIT 1)
       = (SELECT share_tree(path, shares, usage)::text FROM few_jobs) AS last_window_equals_aggregate;

DROP VIEW stp_jobs_parent;
DROP TABLE stp_jobs, stp_jobs_p;
