-- live: charging a stored decayed_usage one statement per event, from many sessions
-- (docs/live-state.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- one charge, and the sum of two: decay to the later instant, then add
SELECT decayed_usage(8, '2026-01-01 00:00:00+00', '1 day') AS one_charge,
       decayed_usage(8, '2026-01-01 00:00:00+00', '1 day')
           + decayed_usage(1, '2026-01-02 00:00:00+00', '1 day') AS later_second,
       decayed_usage(1, '2026-01-02 00:00:00+00', '1 day')
           + decayed_usage(8, '2026-01-01 00:00:00+00', '1 day') AS commuted,
       decayed_usage(0, '2026-01-01 00:00:00+00', '7 days') AS reset;
-- the operator agrees with decayed_sum over the same rows, in any order
WITH charges(u, at) AS (VALUES (3.0, '2026-01-01 10:00:00+00'::timestamptz),
                               (5.0, '2026-01-03 00:00:00+00'), (1.0, '2026-01-02 12:00:00+00'))
SELECT value(decayed_usage(3, '2026-01-01 10:00:00+00', '2 days')
             + decayed_usage(5, '2026-01-03 00:00:00+00', '2 days')
             + decayed_usage(1, '2026-01-02 12:00:00+00', '2 days'), '2026-01-05')
           = value((SELECT decayed_sum(u, at, '2 days') FROM charges), '2026-01-05') AS same_as_sum;

-- an UPDATE per event: a usage sample and a job's end, as decayed_charge (the exact integral)
CREATE TABLE live_usage (account text PRIMARY KEY, u decayed_usage NOT NULL);
INSERT INTO live_usage VALUES ('physics', decayed_usage(0, '2026-01-01 00:00:00+00', '7 days'));
UPDATE live_usage SET u = u + decayed_charge(4, '2026-01-01 00:00:00+00', '2026-01-01 01:00:00+00', '7 days')
WHERE account = 'physics';
UPDATE live_usage SET u = u + decayed_charge(4, '2026-01-01 01:00:00+00', '2026-01-04 00:00:00+00', '7 days')
WHERE account = 'physics';
-- two samples add up to the whole run's accrued_usage
SELECT round(value(u, '2026-01-09 00:00:00+00')::numeric, 6) AS sampled,
       round(accrued_usage(4, '2026-01-01 00:00:00+00', '2026-01-04 00:00:00+00', '2026-01-09 00:00:00+00', '7 days')::numeric, 6)
           AS whole_run
FROM live_usage;
-- a reader whose now() is older than the last charge: the decay law run backwards, never an
-- error, and reading earlier then decaying gives the same number
SELECT value('8@2026-01-02T00:00:00Z/86400', '2026-01-01 00:00:00+00') AS one_day_before,
       value('8@2026-01-02T00:00:00Z/86400', '2026-01-02 00:00:00+00') AS at_its_instant,
       value('8@2026-01-02T00:00:00Z/86400', '2026-01-03 00:00:00+00') AS one_day_after,
       abs(decay(value(u, '2026-01-03 23:59:59.999+00'), '0.001 seconds', '7 days')
           - value(u, '2026-01-04 00:00:00+00')) < 1e-9 AS backwards_is_consistent
FROM live_usage;
-- changing a half-life keeps the value and its instant
SELECT with_half_life(u, '14 days') AS half_life_14_days,
       value(with_half_life(u, '14 days'), '2026-01-18 00:00:00+00')
           = value(u, '2026-01-04 00:00:00+00') / 2 AS halves_in_14_days
FROM live_usage;
DROP TABLE live_usage;

-- models: condor is exact; slurm stores the exact half-life that decays as SLURM's per-second
-- factor 1 - 0.693/half_life does
SELECT decayed_usage(1, '2026-01-01 00:00:00+00', '7 days', 'condor') AS condor,
       decayed_usage(1, '2026-01-01 00:00:00+00', '7 days', 'slurm') AS slurm,
       abs(value(decayed_usage(1, '2026-01-01 00:00:00+00', '7 days', 'slurm'), '2026-01-08 00:00:00+00')
           - decay(1, '7 days', '7 days', 'slurm')) < 1e-11 AS slurm_decays_as_decay,
       with_half_life('1@2026-01-01T00:00:00Z/604800', '7 days', 'slurm')::text
           = decayed_usage(1, '2026-01-01 00:00:00+00', '7 days', 'slurm')::text AS same_conversion;
SELECT decayed_charge(1, '2026-01-01 00:00:00+00', '2026-01-01 00:01:00+00', '7 days', 'slurm')
           + decayed_usage(1, '2026-01-01 00:01:00+00', '7 days', 'slurm') AS slurm_charges_add;
-- a zero-length run charges nothing; NULL in, NULL out
SELECT decayed_charge(5, '2026-01-01 00:00:00+00', '2026-01-01 00:00:00+00', '1 day') AS empty_run,
       decayed_usage(NULL, now(), '1 day') IS NULL AS null_value,
       (NULL::decayed_usage + decayed_usage(1, now(), '1 day')) IS NULL AS null_plus;
-- far before its instant the value overflows a double: a range error, 22003
\i sql/data/sqlstate_of.sql
SELECT value('1@2026-01-01T00:00:00Z/1', '2025-01-01');
SELECT pg_temp.sqlstate_of($$SELECT value('1@2026-01-01T00:00:00Z/1', '2025-01-01')$$) AS sqlstate;

-- errors
SELECT decayed_usage(1, '2026-01-01', '1 day') + decayed_usage(1, '2026-01-01', '2 days');
SELECT decayed_usage('NaN', '2026-01-01', '1 day');
SELECT decayed_usage(1, 'infinity', '1 day');
SELECT decayed_usage(1, '2026-01-01', '0');
SELECT decayed_usage(1, '2026-01-01', '-1 day');
SELECT decayed_usage(1, '2026-01-01', '1 day', 'pbs');
SELECT decayed_usage(1, '2026-01-01', '0.5 seconds', 'slurm');
SELECT decayed_usage(1, '2026-01-01', '292000 years', 'slurm');
SELECT decayed_usage(1, '2026-01-01', '300000 years');
SELECT decayed_charge(1, '2026-01-02', '2026-01-01', '1 day');
SELECT decayed_charge(1, '2026-01-01', 'infinity', '1 day');
SELECT decayed_charge('Infinity', '2026-01-01', '2026-01-02', '1 day');
SELECT with_half_life('1@2026-01-01T00:00:00Z/86400', '0');

-- accessors: a charge can take the stored usage's own half-life, so it always matches
SELECT half_life('1@2026-01-01T00:00:00Z/604928.101915') AS half_life,
       last_instant('1@2026-01-01T00:00:00Z/86400') = '2026-01-01 00:00:00+00' AS last_instant,
       '1@2026-01-01T00:00:00Z/86400'::decayed_usage
           + decayed_usage(1, '2026-01-02 00:00:00+00', half_life('1@2026-01-01T00:00:00Z/86400'))
           AS charged_with_its_half_life;
