-- Fairness over time at scale: every user's classic fairshare factor at the end of
-- each day of a year, from a job table, against the work no tool can avoid: scanning the job
-- table and grouping it by (user, day). psql variables (optional): history_jobs, history_users.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
\if :{?history_jobs}
\else
\set history_jobs 5000000
\endif
\if :{?history_users}
\else
\set history_users 10000
\endif

-- 100 accounts of history_users / 100 users each; jobs spread over 2026
CREATE UNLOGGED TABLE h_shares AS
SELECT format('acct%s.user%s', u % 100, u)::sharepath AS path, (1 + u % 5)::float8 AS shares
FROM generate_series(1, :history_users) AS u
UNION ALL
SELECT format('acct%s', a)::sharepath, (1 + a % 3)::float8 FROM generate_series(0, 99) AS a;
CREATE UNLOGGED TABLE h_jobs AS
SELECT format('acct%s.user%s', u % 100, u)::sharepath AS owner,
       '2026-01-01'::timestamptz + (i * 7919 % (365 * 86400)) * interval '1 second' AS end_time,
       (60 * (1 + i % 97))::float8 AS cpu_seconds
FROM generate_series(1::bigint, :history_jobs) AS i,
     LATERAL (SELECT 1 + (i * 104729) % :history_users AS u) AS pick;
VACUUM ANALYZE h_jobs;
VACUUM ANALYZE h_shares;

SELECT bench_record('fairness over time: a year of daily fairshare', :history_jobs,
$q$
WITH rows AS (
    SELECT owner AS path, NULL::float8 AS shares,
           date_trunc('day', end_time) + interval '1 day' AS day_end, sum(cpu_seconds) AS usage
    FROM h_jobs GROUP BY 1, 3
    UNION ALL
    SELECT '', NULL, d, 0 FROM generate_series('2026-01-02'::timestamptz, '2027-01-01', '1 day') AS d
    UNION ALL
    SELECT path, shares, '2026-01-01', 0 FROM h_shares),
running AS (
    SELECT day_end, lead(day_end) OVER w AS next_day,
           share_tree(path, shares, usage * 2 ^ (extract(epoch FROM day_end - '2026-01-01')::float8
                                                 / extract(epoch FROM interval '14 days')::float8))
               OVER w AS t
    FROM rows WINDOW w AS (ORDER BY day_end))
SELECT sum(f.fairshare) FROM running AS r, fairshare(r.t) AS f
WHERE r.next_day IS DISTINCT FROM r.day_end AND r.day_end > '2026-01-01' AND f.is_leaf
$q$,
'scan the jobs and group by (user, day)',
$q$
SELECT sum(g.usage) FROM (SELECT owner, date_trunc('day', end_time), sum(cpu_seconds) AS usage
                          FROM h_jobs GROUP BY 1, 2) AS g
$q$, 3, 2);

-- the straightforward form (README, first query): decayed_sum over a users x days grid
SELECT bench_record('same, decayed_sum over a users x days grid', :history_jobs,
$q$
WITH days AS (
    SELECT d AS day_end FROM generate_series('2026-01-02'::timestamptz, '2027-01-01', '1 day') AS d),
daily AS (
    SELECT owner AS path, date_trunc('day', end_time) + interval '1 day' AS day_end,
           sum(cpu_seconds) AS usage
    FROM h_jobs GROUP BY 1, 2),
grid AS (
    SELECT u.path, d.day_end, coalesce(daily.usage, 0) AS usage
    FROM (SELECT DISTINCT path FROM daily) AS u CROSS JOIN days AS d
    LEFT JOIN daily USING (path, day_end)),
decayed AS (
    SELECT path, day_end,
           value(decayed_sum(usage, day_end, '14 days')
                 OVER (PARTITION BY path ORDER BY day_end), day_end) AS usage
    FROM grid),
shares AS (SELECT share_tree(path, shares, 0) AS t FROM h_shares),
trees AS (
    SELECT day_end, merge((SELECT t FROM shares), share_tree(path, NULL, usage)) AS t
    FROM decayed GROUP BY day_end)
SELECT sum(f.fairshare) FROM trees, fairshare(trees.t) AS f WHERE f.is_leaf
$q$,
'scan the jobs and group by (user, day)',
$q$
SELECT sum(g.usage) FROM (SELECT owner, date_trunc('day', end_time), sum(cpu_seconds) AS usage
                          FROM h_jobs GROUP BY 1, 2) AS g
$q$, 3, 4);

DROP TABLE h_jobs, h_shares;
