-- userprio_state, userprio_report and pie_spin: what HTCondor's condor_userprio prints for a
-- submitter, and each submitter's slice of a negotiation cycle (docs/slot-weights.md ("Slot weights, TRES billing and HTCondor user priority"))
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

-- userprio, the aggregate's value (these cases were in the slots suite, written under
-- pg_regress's default time zone)
SET timezone = 'PST8PDT';
DROP TABLE samples;
-- userprio: HTCondor's real priority. 100 cores in use for one half-life from 0.5 gives 50.25,
-- two half-lives 75.125; idle time decays it toward 0.5, never below
SELECT at, u, round(userprio(u, at, '1 hour') OVER (ORDER BY at)::numeric, 6) AS real_priority
FROM (VALUES ('2026-01-01 00:00'::timestamptz, 100), ('2026-01-01 01:00', 100),
             ('2026-01-01 02:00', 100), ('2026-01-01 03:00', 0), ('2026-01-01 03:30', 0),
             ('2026-01-02 03:00', 0), ('2026-01-02 04:00', 8)) AS t(at, u);
SELECT who, round(userprio(u, at, '1 day' ORDER BY at)::numeric, 6) AS real_priority
FROM (VALUES ('alice', '2026-01-01'::timestamptz, 32), ('alice', '2026-01-02', 32),
             ('bob', '2026-01-01', 4), ('bob', '2026-01-03', 4)) AS t(who, at, u)
GROUP BY who ORDER BY who;
-- its state combines runs that follow each other in time (what a shard by time range ships)
CREATE AGGREGATE pg_temp.userprio_run(float8, timestamptz, interval)
    (SFUNC = userprio_accum, STYPE = userprio_state);
CREATE AGGREGATE pg_temp.combine_runs(userprio_state)
    (SFUNC = userprio_combine, STYPE = userprio_state, FINALFUNC = userprio_final);
CREATE TEMP TABLE samples AS
SELECT i, '2026-01-01'::timestamptz + i * interval '7 hours' AS at, (i * 37 % 11) * 10.0 AS u
FROM generate_series(0, 99) AS i;
SELECT round(userprio(u, at, '1 day' ORDER BY at)::numeric, 9) AS one_pass,
       (SELECT round(pg_temp.combine_runs(state::text::userprio_state ORDER BY run DESC)::numeric, 9)
        FROM (SELECT i / 25 AS run, pg_temp.userprio_run(u, at, '1 day' ORDER BY at) AS state
              FROM samples GROUP BY i / 25) AS runs) AS four_runs_combined
FROM samples;
SELECT pg_temp.userprio_run(u, at, '1 hour' ORDER BY at)
FROM (VALUES ('2026-01-01 00:00'::timestamptz, 100), ('2026-01-01 01:00', 100)) AS t(at, u);

-- errors
SELECT userprio(u, at, '1 hour') FROM (VALUES ('2026-01-02'::timestamptz, 1), ('2026-01-01', 1)) AS t(at, u);
SELECT userprio(u, at, h) FROM (VALUES ('2026-01-01'::timestamptz, 1, '1 hour'::interval), ('2026-01-02', 1, '2 hours')) AS t(at, u, h);
SELECT userprio(-1, now(), '1 hour');
SELECT userprio(1, now(), '0');
SELECT userprio(1, 'infinity', '1 hour');
SELECT 'max(1,2p+3)'::userprio_state;

-- reliability
\i sql/data/sqlstate_of.sql
-- the combine that crashed a backend: an overflow is a 22003 error; no state holds infinity
SELECT fairsched.userprio_combine('max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-',
'max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=1e308,began=-,last_used=-');
SELECT pg_temp.sqlstate_of($q$SELECT fairsched.userprio_combine('max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-',
'max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=1e308,began=-,last_used=-')$q$) AS sqlstate;
-- a priority near the top of the float8 range stays finite (1.7e308 in use for a second), but
-- the weighted usage of a day of it does not fit: a 22003 error, not infinity
SELECT userprio(u, at, '1 microsecond' ORDER BY at)
FROM (VALUES ('2026-01-01 00:00:00'::timestamptz, 1e308::float8), ('2026-01-01 00:00:01', 1.7e308)) AS t(at, u);
SELECT userprio(u, at, '1 second' ORDER BY at)
FROM (VALUES ('2026-01-01'::timestamptz, 1e308::float8), ('2026-01-02', 1.7e308), ('2026-01-03', 1.7e308)) AS t(at, u);
-- samples in 4713 BC and 294276 AD: millions of half-lives apart, so the priority is what was
-- in use over the gap, 100 (from 0.5: max(0.5, 0.5 b + 100 (1 - b)) with b = 0)
SELECT userprio(u, at, '1 day' ORDER BY at) AS real_priority
FROM (VALUES ('4713-01-01 BC'::timestamptz, 100), ('294276-12-31', 100)) AS t(at, u);
-- states in BC and after 9999 print text that reads back, and binary that reads back
SELECT pg_temp.userprio_run(u, at, '1 day' ORDER BY at) AS state
FROM (VALUES ('4713-01-01 00:00:00+00 BC'::timestamptz, 100), ('10000-01-01 00:00:00+00', 100)) AS t(at, u);
CREATE TEMP TABLE ups (id int, s userprio_state);
INSERT INTO ups
SELECT 1, pg_temp.userprio_run(u, at, '1 day' ORDER BY at)
FROM (VALUES ('4713-01-01 00:00:00+00 BC'::timestamptz, 100), ('10000-01-01 00:00:00+00', 100)) AS t(at, u);
INSERT INTO ups VALUES (2, 'max(0,1p+0)|3@-4713-11-24T00:00:00Z..-4713-11-24T00:00:00Z/9223372036854775807|used=0,in_use=3,began=-,last_used=-'),
                       (3, 'max(0.5,0.25p+7.5)|0@0000-02-29T00:00:00Z..294276-12-31T23:59:59.999999Z/1|used=5,in_use=2,began=0001-01-01T00:00:00Z,last_used=294276-12-31T23:59:59.999999Z');
SELECT id, s::text::userprio_state::text = s::text AS text_round_trip FROM ups ORDER BY id;
\set binfile '/tmp/fairsched_regress_userprio.bin'
COPY ups TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE ups_back (id int, s userprio_state);
COPY ups_back FROM :'binfile' WITH (FORMAT binary);
SELECT a.id, b.s, a.s::text = b.s::text AS binary_round_trip,
       userprio_state_send(a.s) = userprio_state_send(b.s) AS same_bytes
FROM ups a JOIN ups_back b USING (id) ORDER BY id;
-- binary input accepts exactly what text input does (version byte; m, a, g, first_usage as
-- float8; first_at, last_at, half_life as int64; usage, last in-use as float8; usage start and
-- last usage as int64, INT64_MIN for never): m < 0.5, a half-life or an instant out of range,
-- negative usage, a usage start without usage, a last usage after the last sample are 22P03
CREATE TEMP TABLE ups_raw (id int, b bytea);
INSERT INTO ups_raw
SELECT id, overlay(userprio_state_send('max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-')
                   placing patch from pos for 8)
FROM (VALUES (1, '\x3fd0000000000000'::bytea, 2), (2, '\x0000000000000000', 50),
             (3, '\x8000000000000000', 50), (4, '\x7fffffffffffffff', 42),
             (5, '\xfd0f7cc1411f9fff', 34), (6, '\x3ff8000000000000', 10),
             (7, '\xbff0000000000000', 18), (8, '\x7ff8000000000000', 26),
             (11, '\xbff0000000000000', 58), (12, '\x0000000000000000', 74),
             (13, '\x7fffffffffffffff', 82)) AS t(id, patch, pos);
INSERT INTO ups_raw VALUES
    (9, userprio_state_send('max(0,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=3,began=-,last_used=-')),
    (10, substring(userprio_state_send('max(0,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=3,began=-,last_used=-') from 1 for 88));
CREATE TEMP TABLE ups_bad (s userprio_state);
CREATE FUNCTION pg_temp.state_from_binary(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE format('COPY (SELECT b FROM ups_raw WHERE id = %s) TO %L WITH (FORMAT binary)', i,
                   '/tmp/fairsched_regress_userprio_bad.bin');
    COPY ups_bad FROM '/tmp/fairsched_regress_userprio_bad.bin' WITH (FORMAT binary);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ' ' || SQLERRM || ' / ' || detail;
END $$;
SELECT id, pg_temp.state_from_binary(id) AS result FROM ups_raw ORDER BY id;
SELECT s FROM ups_bad;
-- text input rejects the same
SELECT 'max(0.25,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/0|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..294277-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/9223372036854775808|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=-1,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=3,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=2026-01-03T00:00:00Z'::userprio_state;
-- the form before usage was kept (no "|used=...") is an error, not a state without usage
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1'::userprio_state;

-- time_since_last_usage over the whole timestamptz range (4713 BC to 294276 AD) is more
-- microseconds than an interval holds: an error, not a wrapped negative interval; the other
-- columns are instants of the state and always in range
SET timezone = 'UTC';
SELECT r.usage_start_time, r.last_usage_time, r.last_priority_update, r.time_since_last_usage
FROM userprio_report(
       (SELECT userprio_state(in_use, at, '1 day' ORDER BY at)
        FROM (VALUES (0, '4713-11-24 00:00:00+00 BC'::timestamptz),
                     (1, '4713-11-24 01:00:00+00 BC'), (0, '294276-12-31 23:59:59+00'))
             AS t(in_use, at))) AS r;
-- a span that fits is reported: last usage in 2000, last update in 294276
SELECT r.time_since_last_usage
FROM userprio_report(
       (SELECT userprio_state(in_use, at, '1 day' ORDER BY at)
        FROM (VALUES (0, '1999-12-31 23:00:00+00'::timestamptz), (1, '2000-01-01 00:00:00+00'),
                     (0, '294276-12-31 23:59:59+00')) AS t(in_use, at))) AS r;
-- its SQLSTATE: 22008 (datetime_field_overflow)
SELECT pg_temp.sqlstate_of($q$
SELECT (userprio_report(userprio_state(in_use, at, '1 day' ORDER BY at))).time_since_last_usage
FROM (VALUES (0, '4713-11-24 00:00:00+00 BC'::timestamptz), (1, '4713-11-24 01:00:00+00 BC'),
             (0, '294276-12-31 23:59:59+00')) AS t(in_use, at)$q$) AS sqlstate;

-- Samples at one instant are one update, whatever order ORDER BY at leaves them in. Grouped by
-- an accounting group, the submitters' samples share instants: a group's priority is that of
-- the sum of its submitters' in-use at each instant (HTCondor charges a group so). Fed the
-- submitters' rows one by one, the priority would depend on which came first at each instant
-- (0.5 b + 10 (1 - b) = 0.770447 for alice's 10 first at 01:00, 0.5 b + 5 (1 - b) = 0.628106
-- for carol's 5): an error that names the two amounts and the fix.
CREATE TEMP TABLE hourly (submitter text, at timestamptz, in_use float8);
INSERT INTO hourly VALUES
    ('alice@site', '2026-03-01 00:00', 10), ('alice@site', '2026-03-01 01:00', 10),
    ('alice@site', '2026-03-01 02:00', 0), ('alice@site', '2026-03-01 03:00', 4),
    ('bob@site', '2026-03-01 00:00', 2), ('bob@site', '2026-03-01 03:00', 2),
    ('carol@site', '2026-03-01 00:00', 0), ('carol@site', '2026-03-01 01:00', 5),
    ('carol@site', '2026-03-01 02:00', 0), ('carol@site', '2026-03-01 03:00', 0);
CREATE TEMP TABLE grouped AS
SELECT CASE WHEN submitter = 'bob@site' THEN 'group_b' ELSE 'group_ac' END AS grp, at, in_use
FROM hourly;
SELECT grp, userprio(in_use, at, '1 day' ORDER BY at, in_use) FROM grouped GROUP BY grp;
SELECT grp, userprio(in_use, at, '1 day' ORDER BY at, in_use DESC) FROM grouped GROUP BY grp;
-- its SQLSTATE: 22023 (invalid_parameter_value)
SELECT pg_temp.sqlstate_of($q$SELECT userprio(in_use, at, '1 day' ORDER BY at) FROM grouped
WHERE grp = 'group_ac'$q$) AS sqlstate;
-- the same in_use again at one instant (a duplicate row) changes nothing
SELECT userprio(in_use, at, '1 day' ORDER BY at) = (SELECT userprio(in_use, at, '1 day' ORDER BY at)
                                                    FROM hourly WHERE submitter = 'bob@site')
       AS duplicate_ignored
FROM (SELECT at, in_use FROM hourly WHERE submitter = 'bob@site'
      UNION ALL SELECT at, in_use FROM hourly WHERE submitter = 'bob@site') AS twice;
-- the group's priority: the per-instant sums, the same in any order of the rows. group_ac has
-- 10 (alice) + 0 (carol) at 00:00, 15 at 01:00, 0 at 02:00 and 4 at 03:00: from 0.5,
-- 0.5 b + 15 (1 - b) = 0.912787, 0.912787 b = 0.886802, 0.886802 b + 4 (1 - b) = 0.975428;
-- group_b is bob alone: 0.5 b^3 + 2 (1 - b^3) = 0.624494, as above
SELECT grp, round(userprio(w, at, '1 day' ORDER BY at)::numeric, 6) AS real_priority
FROM (SELECT grp, at, sum(in_use) AS w FROM grouped GROUP BY grp, at) AS per_instant
GROUP BY grp ORDER BY grp;
-- split into two runs at a shared instant and combined: runs that agree on it combine, runs
-- that do not are the same error
SELECT userprio_combine(
         (SELECT userprio_state(in_use, at, '1 day' ORDER BY at) FROM hourly
          WHERE submitter = 'alice@site' AND at <= '2026-03-01 01:00'),
         (SELECT userprio_state(in_use, at, '1 day' ORDER BY at) FROM hourly
          WHERE submitter = 'alice@site' AND at >= '2026-03-01 01:00'))::text
     = (SELECT userprio_state(in_use, at, '1 day' ORDER BY at) FROM hourly
        WHERE submitter = 'alice@site')::text AS shared_instant_combines;
SELECT userprio_combine(
         (SELECT userprio_state(in_use, at, '1 day' ORDER BY at) FROM hourly
          WHERE submitter = 'alice@site' AND at <= '2026-03-01 01:00'),
         (SELECT userprio_state(in_use, at, '1 day' ORDER BY at) FROM hourly
          WHERE submitter = 'carol@site' AND at >= '2026-03-01 01:00'));
