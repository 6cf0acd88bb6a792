-- The MSIC scheduler's policy: ordering 10^5 pending jobs of 10^3 owners over 8 queues,
-- and every queue's share state from 10^6 job starts. Each query sums a result column, so that
-- the planner cannot drop the work.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE m_conf AS
SELECT msic_config($$
SUBMIT_QUEUE pending
BATCH_QUEUES hosta@hosta
EXPRESS_QUEUE q0
FAIR_SHARE QUEUE:q0:5:10
FAIR_SHARE QUEUE:q1:10:10
FAIR_SHARE QUEUE:q2:10:10
FAIR_SHARE QUEUE:q3:15:10
FAIR_SHARE QUEUE:q4:15:10
FAIR_SHARE QUEUE:q5:15:10
FAIR_SHARE QUEUE:q6:20:10
FAIR_SHARE QUEUE:q7:10:10
$$) AS c;
CREATE TABLE m_shares AS
SELECT array_agg(ROW('q' || q, 7, 3.0 * q, 100.0 * q, 50000.0)::msic_share) AS s
FROM generate_series(0, 7) AS q;
CREATE TABLE m_jobs AS
SELECT ROW(i || '.srv', 'u' || (i % 1000), 'q' || (i % 8), CASE WHEN i % 10 = 0 THEN 'R' ELSE 'Q' END,
           1 + i % 16, NULL, make_interval(mins => 10 + i % 600), make_interval(mins => i % 7),
           timestamptz '2026-03-01' + make_interval(secs => i * 7),
           timestamptz '2026-03-01' + make_interval(secs => i * 7),
           NULL, NULL, NULL, NULL, NULL)::msic_job AS j
FROM generate_series(1, 111111) AS i;
CREATE TABLE m_jobs_arr AS SELECT array_agg(j) AS a FROM m_jobs;
-- the same jobs as plain columns, with the queue ranks, for the SQL baseline
CREATE TABLE m_jobs_flat AS SELECT (j).* FROM m_jobs;
CREATE TABLE m_rank AS
SELECT f.queue, (s.past_pct * s.ndays + CASE WHEN s.today_max >= 1 THEN s.today_usage / s.today_max * 100 ELSE 0 END)
                / (s.ndays + 1) / f.shares AS rank, f.max_run_pct * 64 / 100 AS user_limit
FROM m_conf, unnest((m_conf.c).fair_share) AS f, m_shares, unnest(m_shares.s) AS s WHERE s.queue = f.queue;
ANALYZE m_jobs_flat;
SELECT bench_assert((SELECT count(*) FROM m_jobs_flat WHERE state = 'Q') = 100000, '10^5 pending jobs');

SELECT bench_record('msic_job_order: 10^5 pending + 11,111 running jobs, 10^3 owners, 8 queues', 111111,
    $q$SELECT sum(o.pos) FROM m_conf, m_shares, m_jobs_arr,
                            msic_job_order(m_conf.c, m_shares.s, m_jobs_arr.a, '2026-03-09 12:00', 64) AS o$q$,
    'SQL: the same sort keys (express, waiting, rank, limit, queued jobs, walltime, age) with window counts',
    $q$SELECT sum(o.pos) FROM (
         SELECT k.job_id, row_number() OVER (ORDER BY k.express DESC, k.promoted DESC, k.rank,
                                                  k.at_limit, k.queued, k.walltime, k.etime, k.job_id) AS pos
         FROM (SELECT j.job_id, j.queue = 'q0' AS express,
                      (timestamptz '2026-03-09 12:00' - j.etime > interval '5 days' AND r.rank <= 1
                       AND coalesce(u.running, 0) < r.user_limit) AS promoted,
                      r.rank, coalesce(u.running, 0) >= r.user_limit AS at_limit,
                      count(*) OVER (PARTITION BY j.owner, j.queue) AS queued, j.walltime, j.etime
               FROM m_jobs_flat AS j JOIN m_rank AS r USING (queue)
                    LEFT JOIN (SELECT owner, queue, count(*) AS running FROM m_jobs_flat WHERE state = 'R'
                               GROUP BY owner, queue) AS u USING (owner, queue)
               WHERE j.state = 'Q') AS k) AS o$q$);

-- 10^6 job starts over a year, 8 queues: every queue's state as of the year's end
CREATE TABLE m_starts AS
SELECT 'q' || (i % 8) AS queue, 1 + i % 32 AS ncpus, make_interval(mins => 30 + i % 300) AS walltime,
       timestamptz '2025-01-01' + make_interval(secs => (i * 31.536)::int) AS started_at
FROM generate_series(1, 1000000) AS i;
ANALYZE m_starts;
SELECT bench_record('msic_queue_state: 8 queues as of the year end, from 10^6 starts', 1000000,
    $q$SELECT sum((q.s).past_pct) FROM (SELECT queue, msic_queue_state(queue, ncpus, walltime, started_at, 512,
                                                            '2026-01-01 00:00') AS s
                            FROM m_starts GROUP BY queue) AS q$q$,
    'SQL: scan and group the starts by queue and day (CPU-minutes per day)',
    $q$SELECT sum(g.usage) FROM (SELECT queue, date_trunc('day', started_at) AS day,
                                   sum(ncpus * floor(extract(epoch FROM walltime) / 60)) AS usage
                            FROM m_starts GROUP BY queue, day) AS g$q$);

SELECT bench_record('msic_queue_history: every queue''s rank on every day of a year, from 10^6 starts', 1000000,
    $q$SELECT sum(msic_rank(ROW(h.queue, h.ndays, h.past_pct, h.today_usage, h.today_max)::msic_share, 10))
       FROM (SELECT msic_queue_acc(queue, ncpus, walltime, started_at, 512, '2026-01-01 00:00') AS acc
             FROM m_starts GROUP BY queue) AS a,
            msic_queue_history(a.acc) AS h$q$,
    'SQL: scan and group the starts by queue and day (CPU-minutes per day)',
    $q$SELECT sum(g.usage) FROM (SELECT queue, date_trunc('day', started_at) AS day,
                                   sum(ncpus * floor(extract(epoch FROM walltime) / 60)) AS usage
                            FROM m_starts GROUP BY queue, day) AS g$q$);

DROP TABLE m_conf, m_shares, m_jobs, m_jobs_arr, m_jobs_flat, m_rank, m_starts;
