-- userprio_state, userprio_report and pie_spin: what HTCondor's condor_userprio prints for a
-- submitter, and each submitter's slice of a negotiation cycle (README "Slot weights, TRES billing and HTCondor user priority")
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';

-- hourly samples of weighted slots in use, PRIORITY_HALFLIFE one day (b = 2^(-1/24) per hour)
CREATE TEMP TABLE samples (submitter text, at timestamptz, in_use float8);
INSERT INTO samples VALUES
    ('alice@site', '2026-03-01 00:00', 10), ('alice@site', '2026-03-01 01:00', 10),
    ('alice@site', '2026-03-01 02:00', 0), ('alice@site', '2026-03-01 03:00', 4),
    ('bob@site', '2026-03-01 00:00', 2), ('bob@site', '2026-03-01 03:00', 2),
    ('carol@site', '2026-03-01 00:00', 0), ('carol@site', '2026-03-01 01:00', 5),
    ('carol@site', '2026-03-01 02:00', 0), ('carol@site', '2026-03-01 03:00', 0);
CREATE TEMP TABLE factors (submitter text, factor float8);
INSERT INTO factors VALUES ('alice@site', 1000), ('bob@site', 1000), ('carol@site', 10000);

-- The report, by hand. alice: the real priority from 0.5: 0.5 b + 10 (1 - b) = 0.770446, then
-- 0.770446 b = 0.748512, then 0.748512 b + 4 (1 - b) = 0.841077; effective priority x 1000 =
-- 841.077; weighted hours 10 x 1 h + 0 x 1 h + 4 x 1 h = 14 (the first sample only starts the
-- clock); usage started at 01:00 (the first sample that accumulated usage), last usage 03:00,
-- 4 in use. bob: 2 in use for the 3 hours: max(0.5, 0.5 b^3 + 2 (1 - b^3)) = 0.624494, 6
-- weighted hours. carol (factor 10000): 5 for the hour to 01:00, idle since: priority
-- 0.592853, EUP 5928.53, 5 weighted hours, last usage 01:00, two hours before the last update.
SELECT s.submitter, round(r.effective_priority::numeric, 3) AS effective_priority,
       round(r.real_priority::numeric, 6) AS real_priority, r.priority_factor, r.weighted_in_use,
       r.weighted_hours, r.weighted_accumulated_usage, r.usage_start_time, r.last_usage_time,
       r.last_priority_update, r.time_since_last_usage
FROM (SELECT submitter, userprio_state(in_use, at, '1 day' ORDER BY at) AS st
      FROM samples GROUP BY submitter) AS s
JOIN factors USING (submitter),
     LATERAL userprio_report(s.st, factors.factor) AS r
ORDER BY r.effective_priority;

-- the aggregate's state is the one userprio reads: the same priority, and the report of a
-- stored state equals the report of a fresh one
SELECT submitter,
       (SELECT real_priority FROM userprio_report(userprio_state(in_use, at, '1 day' ORDER BY at)))
         = userprio(in_use, at, '1 day' ORDER BY at) AS same_priority,
       userprio_report(userprio_state(in_use, at, '1 day' ORDER BY at)::text::userprio_state)
         = userprio_report(userprio_state(in_use, at, '1 day' ORDER BY at)) AS same_after_text
FROM samples GROUP BY submitter ORDER BY submitter;
-- two runs of samples, combined, account usage across the gap: alice's first two samples and
-- her last two, 14 weighted hours as in one pass (the second run's first sample is charged
-- for the gap before it, as one pass charges it)
CREATE AGGREGATE pg_temp.userprio_runs(userprio_state)
    (SFUNC = userprio_combine, STYPE = userprio_state);
SELECT (userprio_report(pg_temp.userprio_runs(st ORDER BY part DESC))).weighted_hours
FROM (SELECT at < '2026-03-01 02:00' AS part, userprio_state(in_use, at, '1 day' ORDER BY at) AS st
      FROM samples WHERE submitter = 'alice@site' GROUP BY 1) AS runs;
-- HTCondor's default priority factor is 1000; a single sample has no usage yet
SELECT effective_priority, real_priority, priority_factor, weighted_in_use, weighted_hours,
       usage_start_time, last_usage_time, time_since_last_usage
FROM userprio_report((SELECT userprio_state(3, '2026-03-01', '1 day')));

-- The pie spin (HTCondor manual, "User Priorities and Negotiation": "user A with EUP=5 will
-- receive twice as many resources as user B with EUP=10 and four times as many resources as
-- user C with EUP=20"): 4/7, 2/7, 1/7
SELECT submitter, share, round(share::numeric * 7, 12) AS sevenths
FROM pie_spin(ARRAY['A', 'B', 'C'], ARRAY[5, 10, 20]);
-- from the report: alice 1/841.077, bob 1/624.494, carol 1/5928.53 over their sum: 0.401819,
-- 0.541175, 0.057006
SELECT p.submitter, round(p.share::numeric, 6) AS share
FROM pie_spin((SELECT array_agg(submitter ORDER BY submitter) FROM factors),
              (SELECT array_agg(r.effective_priority ORDER BY s.submitter)
               FROM (SELECT submitter, userprio_state(in_use, at, '1 day' ORDER BY at) AS st
                     FROM samples GROUP BY submitter) AS s
               JOIN factors USING (submitter), LATERAL userprio_report(s.st, factors.factor) AS r)) AS p;
-- tiny priorities do not overflow 1/EUP; no submitters, no rows
SELECT submitter, share FROM pie_spin(ARRAY['x', 'y'], ARRAY[5e-324, 1e-323]);
SELECT count(*) FROM pie_spin('{}', '{}');

-- errors
SELECT * FROM userprio_report((SELECT userprio_state(3, '2026-03-01', '1 day')), 0.5);
SELECT * FROM userprio_report((SELECT userprio_state(3, '2026-03-01', '1 day')), 'NaN');
SELECT * FROM userprio_report(
    'max(0.5,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-', 1e10);
SELECT * FROM pie_spin(ARRAY['A', 'B'], ARRAY[5, 0]);
SELECT * FROM pie_spin(ARRAY['A', 'B'], ARRAY[5, -1]);
SELECT * FROM pie_spin(ARRAY['A', 'B'], ARRAY[5, 'Infinity'::float8]);
SELECT * FROM pie_spin(ARRAY['A', 'A'], ARRAY[5, 10]);
SELECT * FROM pie_spin(ARRAY['A', 'B'], ARRAY[5]);
SELECT * FROM pie_spin(ARRAY['A', NULL], ARRAY[5, 10]);
SELECT * FROM pie_spin(ARRAY['A', 'B'], ARRAY[5, NULL]);
SELECT * FROM pie_spin(ARRAY[['A']], ARRAY[5]);
