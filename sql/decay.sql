-- decay: half-life decay, PBS step decay, accrued charge and decayed running sums (SPEC section 5)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- exact: usage * 2^(-elapsed / half_life); condor is the same; slurm applies its per-second
-- factor 1 - 0.693/half_life as a power, which leaves 0.50007 after one half-life, not 0.5
SELECT decay(100, '7 days', '7 days') AS one_half_life,
       decay(100, '14 days', '7 days', 'condor') AS two_half_lives,
       decay(100, '0', '7 days') AS none_elapsed,
       round(decay(1, '7 days', '7 days', 'slurm')::numeric, 5) AS slurm_after_one,
       decay(1, '7 days', '7 days', 'slurm') <> 0.5 AS slurm_is_not_exact,
       round(decay(1, '1 day', '7 days', 'exact')::numeric, 6) AS exact_one_day;

-- PBS: fairshare_decay_factor applied once per whole fairshare_decay_time, never below floor
SELECT decay_step(1000, '23 hours', '1 day') AS before_first_period,
       decay_step(1000, '49 hours', '1 day') AS two_periods,
       decay_step(1000, '30 days', '1 day', 0.5, 1) AS pbs_floor_1,
       decay_step(1000, '2 days', '1 day', 0.9) AS factor_0_9;

-- accrued_usage: the exact integral of a running job's decayed charge, against a sum of
-- one-minute steps (midpoint rule)
SELECT round(accrued_usage(4, '2026-01-01', '2026-01-04', '2026-01-09', '7 days')::numeric, 3)
           AS exact,
       round((SELECT sum(4 * 60 * 2 ^ (-extract(epoch FROM '2026-01-09'::timestamptz
                                                         - (t + interval '30 seconds'))
                                        / extract(epoch FROM interval '7 days')))
              FROM generate_series('2026-01-01'::timestamptz, '2026-01-04'::timestamptz
                                   - interval '1 minute', '1 minute') AS t)::numeric, 3)
           AS stepped;
SELECT accrued_usage(4, '2026-01-01', '2026-01-04', '2026-01-02', NULL) AS running_so_far,
       accrued_usage(4, '2026-01-01', '2026-01-04', '2026-01-09', NULL) AS no_decay,
       accrued_usage(4, '2026-01-01', '2026-01-04', '2025-12-31', '7 days') AS not_started,
       accrued_usage(NULL, '2026-01-01', '2026-01-04', '2026-01-09', '7 days') AS null_rate;

-- decayed_sum: as of its latest row; value() reads it later; rows may come in any order
SELECT decayed_sum(u, at, '1 day') FROM (VALUES (1, '2026-01-01'::timestamptz),
                                                (1, '2026-01-02')) AS t(u, at);
SELECT round(value(decayed_sum(u, at, '1 day' ORDER BY at), '2026-01-04')::numeric, 12) AS in_order,
       round(value(decayed_sum(u, at, '1 day' ORDER BY at DESC), '2026-01-04')::numeric, 12) AS reversed
FROM (VALUES (1, '2026-01-01'::timestamptz), (2, '2026-01-02'), (4, '2026-01-03')) AS t(u, at);
-- as a window function: the decayed running total at each row
SELECT who, at, value(decayed_sum(u, at, '2 days') OVER w, at) AS running
FROM (VALUES ('a', 8, '2026-01-01'::timestamptz), ('a', 8, '2026-01-03'), ('b', 1, '2026-01-02'),
             ('a', 0, '2026-01-05'), ('b', 1, '2026-01-04')) AS t(who, u, at)
WINDOW w AS (PARTITION BY who ORDER BY at)
ORDER BY who, at;
SELECT decayed_sum(u, at, hl) IS NULL AS no_rows
FROM (VALUES (1, now(), '1 day'::interval)) AS t(u, at, hl) WHERE false;
SELECT decayed_sum(u, at, '1 day') FROM (VALUES (1, '2026-01-01'::timestamptz), (NULL, '2026-01-05'),
                                                (2, NULL)) AS t(u, at);

-- the text form is UTC and does not depend on the session's settings
SET timezone = 'America/Los_Angeles';
SET extra_float_digits = -3;
SELECT '12.5@2026-01-01T00:00:00Z/604800'::decayed_usage AS canonical,
       '0.1@1999-12-31T23:59:59.25Z/0.5'::decayed_usage AS fractions,
       value('8@2026-01-01T00:00:00Z/86400', '2026-01-01 16:00:00-08') AS one_day_later;
RESET timezone;
RESET extra_float_digits;

-- parallel and distributed: partial states combine (decay to the later instant, then add)
CREATE TABLE decay_jobs AS
SELECT i AS id, (i % 100)::float8 AS usage,
       '2026-01-01'::timestamptz + (i % 9973) * interval '1 minute' AS at
FROM generate_series(1, 100000) AS i;
ANALYZE decay_jobs;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT decayed_sum(usage, at, '3 days') FROM decay_jobs;
SELECT round(value(decayed_sum(usage, at, '3 days'), '2026-02-01')::numeric, 6) AS parallel
FROM decay_jobs;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SELECT round(value(decayed_sum(usage, at, '3 days'), '2026-02-01')::numeric, 6) AS one_pass,
       round(sum(usage * 2 ^ (-extract(epoch FROM '2026-02-01'::timestamptz - at)
                              / extract(epoch FROM interval '3 days')))::numeric, 6) AS plain_sql
FROM decay_jobs;
-- the coordinator's side of a distributed aggregate: combine the shards' states, shipped as text
CREATE AGGREGATE pg_temp.combine_states(decayed_usage) (
    SFUNC = decayed_usage_combine, STYPE = decayed_usage);
WITH shards AS (SELECT id % 5 AS shard, decayed_sum(usage, at, '3 days')::text AS state
                FROM decay_jobs GROUP BY id % 5)
SELECT round(value(pg_temp.combine_states(state::decayed_usage), '2026-02-01')::numeric, 6)
           AS distributed
FROM shards;
DROP TABLE decay_jobs;

-- errors
SELECT decay(1, '1 day', '0');
SELECT decay(1, '1 day', '-1 day');
SELECT decay(1, '1 day', '1 day', 'linear');
SELECT decay('NaN', '1 day', '1 day');
SELECT decay(1, '1 day', '0.5 seconds', 'slurm');
SELECT decay_step(1, '1 day', '0');
SELECT decay_step(1, '1 day', '1 day', 1.5);
SELECT accrued_usage(1, '2026-01-04', '2026-01-01', '2026-01-09', '1 day');
SELECT accrued_usage(1, '2026-01-01', 'infinity', '2026-01-09', '1 day');
SELECT accrued_usage(1, '2026-01-01', '2026-01-02', '2026-01-09', '0');
SELECT decayed_sum(u, at, hl) FROM (VALUES (1, now(), '1 day'::interval), (1, now(), '2 days')) AS t(u, at, hl);
SELECT decayed_sum(1, now(), '0');
SELECT decayed_sum('Infinity', now(), '1 day');
SELECT value('1@2026-01-02T00:00:00Z/86400', '2026-01-01');
SELECT 'x@2026-01-01T00:00:00Z/1'::decayed_usage;
SELECT '1@2026-01-01 00:00:00/1'::decayed_usage;
SELECT '1@2026-02-30T00:00:00Z/1'::decayed_usage;
SELECT '1@2026-01-01T00:00:00Z/0'::decayed_usage;
SELECT '1@2026-01-01T00:00:00Z'::decayed_usage;
