-- The what-if over history: a month of sacct records, the queue on each of 30 days under the
-- site's configuration and a proposed one, against the same query with the priority written as
-- one SQL expression and the order as row_number(). psql variable (optional): whatif_records.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\if :{?whatif_records}
\else
\set whatif_records 100000
\endif

-- 20 accounts of 50 users; jobs submitted over November, waiting 0-48 h (a tenth with a later
-- --begin), running 1-8 h on 1-32 CPUs, in two partitions
CREATE UNLOGGED TABLE wi_hist OF sacct_record;
INSERT INTO wi_hist (job_id, job_seq, cluster, partition, account, "user", qos, state, submit,
                     eligible, start, "end", ncpus, nnodes, timelimit_s, alloc_tres, req_tres)
SELECT i::text, i, 'c', CASE WHEN i % 10 = 0 THEN 'prio' ELSE 'batch' END, 'a' || u % 20, 'u' || u,
       'normal', 'COMPLETED', s, s + (i % 10 = 1)::int * interval '6 hours',
       s + w, s + w + r, c, 1, 86400, ('billing=' || c || ',cpu=' || c)::resvec,
       ('cpu=' || c)::resvec
FROM generate_series(1::bigint, :whatif_records) AS i,
     LATERAL (SELECT (i * 7919) % 1000 AS u, 1 + i % 32 AS c,
                     '2026-11-01'::timestamptz + (i * 104729 % (30 * 86400)) * interval '1 second' AS s,
                     (i * 31 % 172800) * interval '1 second' AS w,
                     (3600 * (1 + i % 8)) * interval '1 second' AS r) AS v;
CREATE INDEX ON wi_hist (eligible);
CREATE INDEX ON wi_hist (start);
CREATE UNLOGGED TABLE wi_assoc AS
SELECT 'a' || a AS account, NULL::text AS "user", ('a' || a)::sharepath AS path, 1::float8 AS shares
FROM generate_series(0, 19) AS a
UNION ALL
SELECT 'a' || u % 20, 'u' || u, format('a%s.u%s', u % 20, u)::sharepath, (1 + u % 3)::float8
FROM generate_series(0, 999) AS u;
CREATE UNLOGGED TABLE wi_part (name text, factor int, tier int);
INSERT INTO wi_part VALUES ('batch', 1, 1), ('prio', 1, 2);
CREATE UNLOGGED TABLE wi_cfg AS
SELECT slurm_priority_config('PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=500 PriorityFlags=NO_FAIR_TREE') AS site,
       slurm_priority_config('PriorityWeightAge=5000 PriorityWeightFairshare=5000 PriorityWeightJobSize=500 PriorityFlags=NO_FAIR_TREE') AS proposed,
       ROW(100, 3200, 0, 1, 0)::slurm_cluster AS cl;
VACUUM ANALYZE wi_hist;

-- the whole what-if in one query: each association's usage decayed to each of 30 instants (the
-- default 7-day half-life), classic fairshare, the pending jobs, both orders, who moved
CREATE FUNCTION wi_run(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
    EXECUTE 'SELECT row(o.*)::text FROM (' || query || ') AS o' INTO r;
    RETURN r;
END $$;
-- the factors, written once: @USAGE@ is each side's usage of a record at an instant
CREATE UNLOGGED TABLE wi_q AS
WITH f AS (SELECT $q$
WITH instants AS (SELECT generate_series('2026-11-02'::timestamptz, '2026-12-01', '1 day') AS t),
usage AS (
    SELECT i.t, a.account, a."user", a.path, a.shares, coalesce(sum(@USAGE@), 0) AS usage
    FROM instants AS i CROSS JOIN wi_assoc AS a
    LEFT JOIN wi_hist AS h ON h.account = a.account AND h."user" = a."user" AND h.start < i.t
    GROUP BY 1, 2, 3, 4, 5),
fs AS MATERIALIZED (  -- computed once per instant, not once per job
    SELECT u.t, u.account, u."user", f.fairshare
    FROM (SELECT t, share_tree(path, shares, usage) AS tree FROM usage GROUP BY t) AS tr
    CROSS JOIN LATERAL fairshare(tr.tree, 'classic') AS f
    JOIN usage AS u ON u.t = tr.t AND u.path = f.path
    WHERE f.is_leaf),
$q$ AS cte)
SELECT replace(cte, '@USAGE@', $q$sacct_usage(h, i.t)$q$) || $q$
pending AS (
    SELECT i.t, h, fs.fairshare, p.tier, p.factor
    FROM instants AS i
    JOIN wi_hist AS h ON h.eligible <= i.t AND i.t < coalesce(h.start, h."end", 'infinity')
    JOIN fs ON fs.t = i.t AND fs.account = h.account AND fs."user" = h."user"
    JOIN wi_part AS p ON p.name = h.partition)
SELECT count(*) FILTER (WHERE w.moved <> 0) AS moved, sum(abs(w.moved)) AS places
FROM (SELECT t, array_agg(j) AS jobs
      FROM pending, sacct_pending(h, t, fairshare, partition_tier => tier, partition_factor => factor) AS j
      GROUP BY t) AS q,
     wi_cfg AS c, slurm_what_if(c.site, c.proposed, q.jobs, c.cl, q.t) AS w
$q$ AS ours,
       replace(cte, '@USAGE@', $q$(h.alloc_tres -> 'billing') * 604800 / ln(2::float8)
                        * (2 ^ (-extract(epoch FROM i.t - least(h."end", i.t))::float8 / 604800)
                           - 2 ^ (-extract(epoch FROM i.t - h.start)::float8 / 604800))$q$) || $q$
pending AS (
    SELECT i.t, h.eligible, h.submit, h.job_seq, h.nnodes, h.ncpus, fs.fairshare, p.tier
    FROM instants AS i
    JOIN wi_hist AS h ON h.eligible <= i.t AND i.t < coalesce(h.start, h."end", 'infinity')
    JOIN fs ON fs.t = i.t AND fs.account = h.account AND fs."user" = h."user"
    JOIN wi_part AS p ON p.name = h.partition)
SELECT count(*) FILTER (WHERE a <> b) AS moved, sum(abs(a - b)) AS places
FROM (SELECT row_number() OVER (PARTITION BY t ORDER BY tier DESC, p DESC, submit, job_seq) AS a,
             row_number() OVER (PARTITION BY t ORDER BY tier DESC, q DESC, submit, job_seq) AS b
      FROM (SELECT t, submit, job_seq, tier,
                   greatest(1, trunc(1000 * least(extract(epoch FROM t - eligible)::float8 / 604800, 1)
                                     + 10000 * fairshare
                                     + 500 * least(1, greatest(0, (nnodes / 100.0::float8 + ncpus / 3200.0::float8) / 2)))) AS p,
                   greatest(1, trunc(5000 * least(extract(epoch FROM t - eligible)::float8 / 604800, 1)
                                     + 5000 * fairshare
                                     + 500 * least(1, greatest(0, (nnodes / 100.0::float8 + ncpus / 3200.0::float8) / 2)))) AS q
            FROM pending) AS x) AS y
$q$ AS theirs
FROM f;

-- the two agree on how many jobs moved and by how many places in all
SELECT bench_assert(wi_run(ours) = wi_run(theirs), 'slurm_what_if and the SQL expressions order the jobs alike')
FROM wi_q;

SELECT bench_record('what-if: a month of sacct records, 30 instants, two configurations',
                    :whatif_records, ours,
                    'the usage, priority and order as float8 SQL expressions and row_number()',
                    theirs, 3)
FROM wi_q;
DROP TABLE wi_hist, wi_assoc, wi_part, wi_cfg, wi_q;
DROP FUNCTION wi_run(text);
