-- One MSIC scheduling cycle: 10^4 pending and 10^3 running jobs on 100 hosts of 64
-- CPUs, one batch queue each; and a month of 10^5 submissions replayed at 5-minute cycles. Each
-- query sums a result column, so that the planner cannot drop the work.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;
SET timezone = 'UTC';

-- 100 batch queues b00@h00 .. b99@h99, written 10 to a BATCH_QUEUES line; 8 FAIR_SHARE queues
CREATE TABLE c_conf AS
SELECT msic_config('SUBMIT_QUEUE pending' || E'\n' ||
    (SELECT string_agg('BATCH_QUEUES ' || l, E'\n')
     FROM (SELECT string_agg(format('b%s@h%s', lpad(i::text, 2, '0'), lpad(i::text, 2, '0')), ',') AS l
           FROM generate_series(0, 99) AS i GROUP BY i / 10) AS lines) || E'\n' ||
    'EXPRESS_QUEUE q0' || E'\n' ||
    'FAIR_SHARE QUEUE:q0:5:10' || E'\n' || 'FAIR_SHARE QUEUE:q1:10:10' || E'\n' ||
    'FAIR_SHARE QUEUE:q2:10:10' || E'\n' || 'FAIR_SHARE QUEUE:q3:15:10' || E'\n' ||
    'FAIR_SHARE QUEUE:q4:15:10' || E'\n' || 'FAIR_SHARE QUEUE:q5:15:10' || E'\n' ||
    'FAIR_SHARE QUEUE:q6:20:10' || E'\n' || 'FAIR_SHARE QUEUE:q7:10:10' || E'\n') AS c;
CREATE TABLE c_shares AS
SELECT array_agg(ROW('q' || q, 7, 3.0 * q, 100.0 * q, 50000.0)::msic_share) AS s
FROM generate_series(0, 7) AS q;
CREATE TABLE c_hosts AS
SELECT array_agg(ROW('h' || lpad(i::text, 2, '0'), 64, 256e9, 'linux', 10.0, true)::msic_host) AS h
FROM generate_series(0, 99) AS i;
CREATE TABLE c_queues AS
SELECT array_agg(ROW('b' || lpad(i::text, 2, '0'), NULL, true, true, NULL, 64, NULL, NULL, NULL,
                     NULL, NULL, NULL, NULL)::msic_queue) AS q
FROM generate_series(0, 99) AS i;
-- 10^3 running jobs of 1-6 CPUs spread over the hosts (about half the CPUs), then 10^4 pending
-- jobs of 1-16 CPUs from 10^3 owners and 8 queues
CREATE TABLE c_jobs AS
SELECT array_agg(j) AS a FROM (
  SELECT ROW(i || '.srv', 'u' || (i % 1000), 'q' || (i % 8), 'R', 1 + i % 6, 1e9,
             make_interval(mins => 60 + i % 600), make_interval(mins => i % 59),
             timestamptz '2026-03-01' + make_interval(secs => i * 7), NULL,
             'h' || lpad((i % 100)::text, 2, '0'), NULL, NULL, NULL, NULL)::msic_job AS j
  FROM generate_series(1, 1000) AS i
  UNION ALL
  SELECT ROW(i || '.srv', 'u' || (i % 1000), 'q' || (i % 8), 'Q', 1 + i % 16, 1e9,
             make_interval(mins => 10 + i % 600), NULL,
             timestamptz '2026-03-01' + make_interval(secs => i * 7), NULL,
             NULL, NULL, NULL, NULL, NULL)::msic_job
  FROM generate_series(1001, 11000) AS i) AS s;
SELECT bench_assert((SELECT count(*) FROM c_conf, unnest((c_conf.c).batch_queues)) = 100, '100 batch queues');
SELECT bench_assert((SELECT count(*) FROM c_conf, c_shares, c_hosts, c_queues, c_jobs,
                            msic_cycle(c_conf.c, c_shares.s, c_hosts.h, c_queues.q, c_jobs.a,
                                       '2026-03-09 12:00', 6400)
                     WHERE action = 'run') > 100, 'the cycle starts jobs');

SELECT bench_record('msic_cycle: 10^4 pending + 10^3 running jobs, 100 hosts and queues', 11000,
    $q$SELECT sum(c.step) FROM c_conf, c_shares, c_hosts, c_queues, c_jobs,
                          msic_cycle(c_conf.c, c_shares.s, c_hosts.h, c_queues.q, c_jobs.a,
                                     '2026-03-09 12:00', 6400) AS c$q$,
    'floor: msic_job_order of the same jobs (the first step of a cycle)',
    $q$SELECT sum(o.pos) FROM c_conf, c_shares, c_jobs,
                          msic_job_order(c_conf.c, c_shares.s, c_jobs.a, '2026-03-09 12:00', 6400) AS o$q$);

-- a month of 10^5 submissions (one every 26 s; 1-16 CPUs, 1-10 h asked, runs 60-140% of it but
-- at most its walltime): about 90% of the 6,400 CPUs busy on average, with queues at times
CREATE TABLE c_subs AS
SELECT array_agg(ROW(i || '.srv', 'u' || (i % 1000), 'q' || (i % 8), 'Q', 1 + i % 16, 1e9,
                     make_interval(mins => 60 + (i * 37) % 540),
                     make_interval(mins => (60 + (i * 37) % 540) * (60 + i % 81) / 100),
                     timestamptz '2026-03-01' + make_interval(secs => (i * 25.92)::int), NULL,
                     NULL, NULL, NULL, NULL, NULL)::msic_job) AS a
FROM generate_series(1, 100000) AS i;
SELECT bench_record('msic_replay: a month of 10^5 submissions at 5-minute cycles, 100 hosts', 100000,
    $q$SELECT count(*) FILTER (WHERE r.action = 'run') + sum((r.share).past_pct)
       FROM c_conf, c_hosts, c_queues, c_subs,
            msic_replay(c_conf.c, c_hosts.h, c_queues.q, c_subs.a, '2026-03-01', '2026-03-31') AS r$q$,
    NULL, NULL, 1);

DROP TABLE c_conf, c_shares, c_hosts, c_queues, c_jobs, c_subs;
