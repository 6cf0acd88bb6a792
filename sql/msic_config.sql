-- msic_config: the MSIC-Cluster scheduler's configuration file, holidays file and prime time
-- (docs/msic.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';

-- the administrator's guide's example values, with the sample config's FAIR_SHARE lines
\x on
SELECT * FROM msic_config($$
# MSIC-Cluster scheduler configuration (the administrator's guide's example)
SUBMIT_QUEUE			pending
BATCH_QUEUES			hosta@hosta,hostb@hostb
EXPRESS_QUEUE   special
TARGET_LOAD_PCT			90%
TARGET_LOAD_VARIANCE		-15%,+10%
ENFORCE_PRIME_TIME		False
FAIR_SHARE QUEUE:low:10:10
FAIR_SHARE QUEUE:med:15:10
FAIR_SHARE QUEUE:hi:40:10
FAIR_SHARE QUEUE:special:35:10
$$, local_host => 'Server.Example.COM');

-- prime time enforced, with a holidays file; the defaults of every option not given
SELECT * FROM msic_config(
    E'SUBMIT_QUEUE pending\nBATCH_QUEUES hosta@hosta\nENFORCE_PRIME_TIME True\n'
    'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 4:00:00\n'
    'SHARE_INFO_FILE /usr/spool/pbs/sched_priv/share_info\nSCHED_HOST PBS.Server\n'
    'SORTED_JOB_DUMPFILE /tmp/sorted\nMAX_USER_RUN_JOBS 37',
    E'* Prime/Nonprime Table for the accounting system\nYEAR 2024 0800 1800\n'
    '359 * Christmas\n  1\tNew Year\n0\n185\n1\n');
\x off

-- a bare queue name gets local_host, lower-cased; q@h is taken verbatim; no local_host: NULL
SELECT submit_queue, submit_host, batch_queues, batch_hosts
FROM msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hostA@HostA,,short\nBATCH_QUEUES long',
                 NULL, 'Server.Example.COM');
SELECT submit_queue, submit_host, batch_queues, batch_hosts
FROM msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hostA@HostA,short');

-- time values: SS, MM:SS (9:00 is 540 seconds, not 9 a.m.), HH:MM:SS, empty fields merged
SELECT max_wait_time, prime_time_start, prime_time_end, prime_time_wallt_limit
FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nMAX_WAIT_TIME 9:00\n'
                 'PRIME_TIME_START +59\nPRIME_TIME_END 1::30\nPRIME_TIME_WALLT_LIMIT 100:00:00');
-- comments anywhere, indented lines and comments, CRLF, words after the argument ignored,
-- and the last line's last character kept without a newline (the original drops it)
SELECT suspend_threshold, force_requeue, update_comments, max_user_run_jobs, target_load_minus,
       target_load_plus, sched_restart_action
FROM msic_config(E'  # indented comment\r\nSUBMIT_QUEUE p # the submit queue\r\n'
                 'BATCH_QUEUES a@a\r\n   \r\nSUSPEND_THRESHOLD 25 percent\r\n'
                 'FORCE_REQUEUE OFF\nUPDATE_COMMENTS n\nTARGET_LOAD_VARIANCE +5%abc\n'
                 'SCHED_RESTART_ACTION RESUBMIT\nMAX_USER_RUN_JOBS 37');
-- every boolean word of the original, in any case
SELECT w, (msic_config(format(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFORCE_REQUEUE %s', w))).force_requeue
FROM unnest(ARRAY['true', 'ON', 'Enable', 'enabled', 'YES', 'y', '1',
                  'false', 'off', 'No', 'disable', 'DISABLED', 'N', '0']) AS w;
-- the date form of ENFORCE_PRIME_TIME is a local time of the session time zone
SET TimeZone = 'America/New_York';
SELECT enforce_prime_time, prime_time_from, prime_time_from AT TIME ZONE 'UTC' AS utc
FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 9/1/2000@8:00:00\n'
                 'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 04:00:00');
SET TimeZone = 'UTC';
-- a later ENFORCE_PRIME_TIME line wins
SELECT enforce_prime_time, prime_time_from
FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 9/1/2000@8:00:00\n'
                 'ENFORCE_PRIME_TIME false');

-- NULL and empty inputs
SELECT msic_config(NULL) IS NULL AS null_conf;
SELECT holidays FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', '');
SELECT holidays FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', E'* nothing\n\n');

-- errors on a line: the first bad line stops parsing
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\n# a comment\nMAX_WAIT_TIME 3600');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nMAX_WAIT_TIME 1:60');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nPRIME_TIME_START 1:2:3:4');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nPRIME_TIME_END 8h');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nPRIME_TIME_END :');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nSUSPEND_THRESHOLD');
SELECT msic_config(E'SUBMIT_QUEUE p\nsubmit_queue q\nNO_SUCH_OPTION 1');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFORCE_REQUEUE maybe');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 02/30/2000@08:00:00');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 2000-09-01');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_PCT abc');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_PCT -5');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nSUSPEND_THRESHOLD 2147483648');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_VARIANCE 15%');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_VARIANCE -15');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_VARIANCE -15%,-10%');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nTARGET_LOAD_VARIANCE -99999999999%');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nSCHED_RESTART_ACTION rerun');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@,b@b');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nEXPRESS_QUEUE ' || repeat('x', 50));
SELECT length(express_queue)
FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nEXPRESS_QUEUE ' || repeat('x', 49));
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nSHARE_INFO_FILE ' || repeat('x', 494));
SELECT length(share_info_file)
FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nSHARE_INFO_FILE ' || repeat('x', 493));
-- FAIR_SHARE, in the original's order of checks
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE queue:low:10:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:' || repeat('q', 30) || ':100:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:ten:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:0:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:101:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:100:x');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:100:101');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:60:10\nFAIR_SHARE QUEUE:low:40:10');
-- FAIR_SHARE: '%' allowed, empty fields merged, a running-job percentage of 0 accepted
SELECT fair_share FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\n'
                                   'FAIR_SHARE QUEUE::low:60%:0\nFAIR_SHARE QUEUE:hi:40:100%');

-- the whole-file checks, in the original's order
SELECT msic_config('');
SELECT msic_config(E'# nothing but comments\n');
SELECT msic_config(E'SUBMIT_QUEUE a,b\nBATCH_QUEUES x@x');
SELECT msic_config(E'SUBMIT_QUEUE a\nSUBMIT_QUEUE b');
SELECT msic_config(E'SUBMIT_QUEUE pending');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES hosta@hosta,hostb@hostb,hosta@hosta');
SELECT batch_queues, batch_hosts FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES hosta@hosta,hosta@hostb');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME on');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 1/1/2030@0:0:0\n'
                   'PRIME_TIME_START 00:00:00\nPRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 1:00:00');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME on\n'
                   'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00');
SELECT msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hosta@hosta,pending@server', NULL, 'SERVER');
SELECT msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hosta@hosta,pending');
SELECT batch_queues FROM msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES pending@hostx', NULL, 'server');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:10:10\nFAIR_SHARE QUEUE:med:15:10\nFAIR_SHARE QUEUE:hi:40:10');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:70:10\nFAIR_SHARE QUEUE:hi:40:10');
-- a bad line is reported before any whole-file check
SELECT msic_config(E'BATCH_QUEUES a@a\nFAIR_SHARE QUEUE:low:10:10\nMAX_WAIT_TIME 60');

-- the holidays file: errors name its line
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', E'YEAR 2024\n1\n367\n');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', E'* Christmas\nDec25\n');
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', E'-1\n');
SELECT holidays FROM msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a', E'366\n* leap years only\n');

-- is_prime_time: 2024-01-01 is a Monday, 2024-01-06 a Saturday
SELECT at, is_prime_time(at, '08:00', '18:00') AS day_window,
       is_prime_time(at, '22:00', '06:00') AS wraps, is_prime_time(at, '08:00', '08:00') AS all_day,
       is_prime_time(at, '08:00', '18:00', '{1}') AS new_year_holiday
FROM unnest(ARRAY['2024-01-01 00:00', '2024-01-01 03:00', '2024-01-01 07:59:59.999999',
                  '2024-01-01 08:00', '2024-01-01 12:00', '2024-01-01 17:59:59',
                  '2024-01-01 18:00', '2024-01-01 22:00', '2024-01-02 05:59:59',
                  '2024-01-06 02:00', '2024-01-06 12:00', '2024-01-07 23:00',
                  '2024-12-31 12:00']::timestamptz[]) AS at;
-- the session time zone decides the local day and time
SELECT is_prime_time('2024-01-05 23:30+00', '08:00', '18:00') AS utc_friday_night,
       is_prime_time('2024-01-05 12:00+00', '08:00', '18:00') AS utc_friday_noon;
SET TimeZone = 'Asia/Tokyo';
SELECT is_prime_time('2024-01-05 23:30+00', '08:00', '18:00') AS tokyo_saturday_morning,
       is_prime_time('2024-01-04 23:30+00', '08:00', '18:00') AS tokyo_friday_morning;
SET TimeZone = 'UTC';
SELECT is_prime_time(NULL, '08:00', '18:00') IS NULL AS null_at;
SELECT is_prime_time('2024-01-01', '24:00', '18:00');
SELECT is_prime_time('2024-01-01', '08:00', '-1 second');
SELECT is_prime_time('2024-01-01', '08:00', '18:00', '{0,367}');
-- day 0 is not a day of the year either (the holidays file ignores it; arrays refuse it)
SELECT is_prime_time('2024-01-01', '08:00', '18:00', '{0}');
SELECT is_prime_time('2024-01-01', '08:00', '18:00', '{367}');
SELECT prime_seconds('2024-01-01', '1 hour', '08:00', '18:00', '{5,0}');
SELECT prime_seconds('2024-01-01', '1 hour', '08:00', '18:00', '{-1}');
SELECT is_prime_time('2024-01-01', '08:00', '18:00', '{1,NULL}');
SELECT is_prime_time('2024-01-01', '08:00', '18:00', '{{1},{2}}');
SELECT is_prime_time('infinity', '08:00', '18:00');

-- prime_seconds: a run inside one window; a week from Monday midnight in 08:00-18:00 is
-- 5 x 10 hours; across a weekday midnight; over a weekend; with a holiday
SELECT prime_seconds('2024-01-02 09:00', '2 hours', '08:00', '18:00') AS inside,
       prime_seconds('2024-01-01 00:00', '7 days', '08:00', '18:00') / 3600 AS week_hours,
       prime_seconds('2024-01-02 17:00', '16 hours', '08:00', '18:00') / 3600 AS overnight,
       prime_seconds('2024-01-05 20:00', '72 hours', '22:00', '06:00') / 3600 AS wrap_weekend,
       prime_seconds('2024-01-05 20:00', '72 hours', '22:00', '06:00', '{8}') / 3600 AS wrap_holiday,
       prime_seconds('2024-01-05 12:00', '72 hours', '08:00', '08:00') / 3600 AS all_day,
       prime_seconds('2024-01-06 00:00', '48 hours', '08:00', '18:00') AS weekend_only,
       prime_seconds('2024-01-02 09:00', '0', '08:00', '18:00') AS no_time,
       prime_seconds('2024-01-02 09:00:00.5', '1.25 seconds', '08:00', '18:00') AS fraction;
-- clock changes in the session time zone: Paris springs forward on Sunday 2024-03-31 and
-- falls back on Sunday 2024-10-27; 47 (49) hours from Saturday noon end on Monday noon
SET TimeZone = 'Europe/Paris';
SELECT prime_seconds('2024-03-30 12:00', '47 hours', '08:00', '18:00') / 3600 AS spring_47h,
       prime_seconds('2024-03-30 12:00', '48 hours', '08:00', '18:00') / 3600 AS spring_48h,
       prime_seconds('2024-10-26 12:00', '49 hours', '08:00', '18:00') / 3600 AS autumn_49h,
       prime_seconds('2024-10-26 12:00', '48 hours', '08:00', '18:00') / 3600 AS autumn_48h;
-- Tehran moved its clocks at midnight on a Monday (2021-03-22 00:00 became 01:00): that
-- morning's 00:00-06:00 window held 5 hours
SET TimeZone = 'Asia/Tehran';
SELECT prime_seconds('2021-03-21 12:00', '24 hours', '22:00', '06:00') / 3600 AS tehran_short_night,
       is_prime_time('2021-03-22 01:30+04:30', '22:00', '06:00') AS monday_0130,
       is_prime_time('2021-03-21 23:30+03:30', '22:00', '06:00') AS sunday_2330;
-- a clock that goes back into the same day, or skips a whole day: prime_seconds counts the
-- elapsed time that is_prime_time calls prime. Cairo fell back at midnight (2023-10-26 24:00
-- +03 became 23:00 +02): 2 hours from 22:00 live the first 23:00-23:30, 3 hours both
SET TimeZone = 'Africa/Cairo';
SELECT prime_seconds('2023-10-26 22:00', '2 hours', '23:00', '23:30') AS cairo_first_2300,
       prime_seconds('2023-10-26 22:00', '3 hours', '23:00', '23:30') AS cairo_both_2300,
       is_prime_time('2023-10-26 23:10+03', '23:00', '23:30') AS at_2310_summer,
       is_prime_time('2023-10-26 23:10+02', '23:00', '23:30') AS at_2310_winter;
-- and PRIME_TIME_WALLT_LIMIT counts the same 30 minutes
SELECT msic_primetime_limit(msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME y\n'
                   'PRIME_TIME_START 23:00:00\nPRIME_TIME_END 23:30:00\nPRIME_TIME_WALLT_LIMIT 29:59'),
                   '2023-10-26 22:00', '2 hours') AS cairo_limit;
-- Samoa skipped Friday 2011-12-30: 72 hours from Wednesday midnight hold Wednesday, Thursday
-- and a Saturday; 28 December (day 362) a holiday leaves Thursday
SET TimeZone = 'Pacific/Apia';
SELECT prime_seconds('2011-12-28', '72 hours', '08:00', '18:00') AS samoa,
       prime_seconds('2011-12-28', '72 hours', '08:00', '18:00', '{362}') AS samoa_holiday;
-- prime_seconds equals the minute-by-minute integral of is_prime_time (whole-minute windows):
-- springing forward and falling back on weekdays and weekends, by an hour, half an hour
-- (Lord Howe) and a quarter of an hour (Kathmandu, 1986), a skipped day, with holidays
CREATE TEMP TABLE prime_cases (zone text, start_at text, walltime interval, pt_start interval,
                               pt_end interval, holidays int[]);
INSERT INTO prime_cases VALUES
    ('Europe/Paris', '2024-03-29 20:00', '60 hours', '22:00', '06:00', '{}'),
    ('Europe/Paris', '2024-10-26 20:00', '60 hours', '00:30', '03:30', '{}'),
    ('Africa/Cairo', '2023-04-27 20:00', '12 hours', '22:00', '06:00', '{}'),
    ('Africa/Cairo', '2023-10-26 00:00', '48 hours', '08:00', '08:00', '{300}'),
    ('Asia/Tehran', '2021-09-21 20:00', '6 hours', '22:30', '23:45', '{}'),
    ('Pacific/Apia', '2011-12-29 12:00', '36 hours', '22:00', '06:00', '{}'),
    ('Australia/Lord_Howe', '2024-04-05 20:00', '72 hours', '01:00', '03:00', '{}'),
    ('Asia/Kathmandu', '1985-12-31 20:00', '8 hours', '23:50', '00:20', '{}'),
    ('America/New_York', '2024-11-01 12:00', '72 hours', '01:00', '02:00', '{306}');
CREATE FUNCTION pg_temp.prime_check(c prime_cases, OUT zone text, OUT prime float8,
                                    OUT integral float8)
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
BEGIN
    PERFORM set_config('TimeZone', c.zone, true);
    t0 := c.start_at::timestamptz;
    zone := c.zone;
    prime := fairsched.prime_seconds(t0, c.walltime, c.pt_start, c.pt_end, c.holidays);
    SELECT 60 * count(*) INTO integral
    FROM generate_series(t0, t0 + c.walltime - interval '1 minute', interval '1 minute') AS t
    WHERE fairsched.is_prime_time(t, c.pt_start, c.pt_end, c.holidays);
END $$;
SELECT (r).zone, (r).prime, (r).integral, (r).prime = (r).integral AS equal
FROM (SELECT pg_temp.prime_check(c) AS r FROM prime_cases AS c) AS s;
SET TimeZone = 'UTC';
-- limits: walltime of at most 100 years, not negative, within the timestamp range
SELECT round(prime_seconds('2024-01-01', '36525 days', '08:00', '18:00') / 3600) AS century_hours;
SELECT prime_seconds('2024-01-01', '36526 days', '08:00', '18:00');
SELECT prime_seconds('2024-01-01', '-1 hour', '08:00', '18:00');
SELECT prime_seconds('294276-12-30 00:00', '3 days', '08:00', '18:00');
SELECT prime_seconds('2024-01-01', '1 hour', '08:00', '25:00');
SELECT prime_seconds(NULL, '1 hour', '08:00', '18:00') IS NULL AS null_from;

-- PRIME_TIME_WALLT_LIMIT: prime part of a run longer than the limit (inclusive) from "at"
CREATE TEMP TABLE cfg AS
SELECT msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hosta@hosta\nENFORCE_PRIME_TIME True\n'
                   'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 4:00:00',
                   E'359\n') AS c;
SELECT w AS walltime, msic_primetime_limit(c, '2024-01-02 09:00', w) AS at_9,
       msic_primetime_limit(c, '2024-01-02 16:00', w) AS at_16,
       msic_primetime_limit(c, '2024-01-05 20:00', w) AS friday_night,
       msic_primetime_limit(c, '2024-12-24 08:00', w) AS holiday_0800
FROM cfg, unnest(ARRAY['1 hour', '4 hours', '4 hours 1 second', '16 hours', '64 hours',
                       '64 hours 1 second']::interval[]) AS w;
-- not enforced: never a comment
SELECT msic_primetime_limit(msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a'), '2024-01-02 09:00',
                            '100 hours') IS NULL AS not_enforced;
-- the date form: enforced only from that instant (local time of the session)
SELECT at, msic_primetime_limit(
    msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME 01/02/2024@12:00:00\n'
                'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 18:00:00\nPRIME_TIME_WALLT_LIMIT 1:30'),
    at, '3 hours') AS comment
FROM unnest(ARRAY['2024-01-02 11:59:59', '2024-01-02 12:00', '2024-01-02 16:00']::timestamptz[]) AS at;
-- a start after the end wraps past midnight; start = end is prime all weekday
SELECT msic_primetime_limit(msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME y\n'
                   'PRIME_TIME_START 12:00:00\nPRIME_TIME_END 12:00:00\nPRIME_TIME_WALLT_LIMIT 100:00:00'),
                   '2024-01-01 00:00', w) AS comment, w AS walltime
FROM unnest(ARRAY['100 hours', '100 hours 1 second', '200 hours']::interval[]) AS w;
-- a start after the end wraps past midnight: from Friday 20:00, Friday 22:00-24:00 and Monday
-- 00:00-06:00 are prime (8 hours); Monday 22:00 starts the next window
SELECT w AS walltime, msic_primetime_limit(msic_config(
           E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a\nENFORCE_PRIME_TIME y\nPRIME_TIME_START 22:00:00\n'
           'PRIME_TIME_END 06:00:00\nPRIME_TIME_WALLT_LIMIT 8:00:00'),
       '2024-01-05 20:00', w) AS comment
FROM unnest(ARRAY['72 hours', '74 hours', '75 hours']::interval[]) AS w;

-- BATCH_QUEUES and FAIR_SHARE repeats are found through hash indexes: 20000 lines of each in
-- well under a second, and a repeat on the last line is still found
SELECT cardinality((msic_config('SUBMIT_QUEUE pending' || E'\n'
    || (SELECT string_agg('BATCH_QUEUES b' || g || '@h', E'\n') FROM generate_series(1, 20000) g))).batch_queues);
SELECT msic_config('SUBMIT_QUEUE pending' || E'\n'
    || (SELECT string_agg('BATCH_QUEUES b' || g || '@h', E'\n') FROM generate_series(1, 20000) g)
    || E'\nBATCH_QUEUES b1@h');
SELECT msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES b\n'
    || (SELECT string_agg('FAIR_SHARE QUEUE:f' || g || ':1:0', E'\n') FROM generate_series(1, 20000) g));
SELECT msic_config(E'SUBMIT_QUEUE pending\nBATCH_QUEUES b\n'
    || (SELECT string_agg('FAIR_SHARE QUEUE:f' || g || ':1:0', E'\n') FROM generate_series(1, 20000) g)
    || E'\nFAIR_SHARE QUEUE:f1:1:0');

-- a configuration built by hand follows the file's rules, with the file's messages (22023)
CREATE TEMP TABLE good AS
SELECT msic_config(E'SUBMIT_QUEUE p\nBATCH_QUEUES a@a,b@b\nENFORCE_PRIME_TIME y\n'
                   'PRIME_TIME_START 08:00:00\nPRIME_TIME_END 17:00:00\n'
                   'PRIME_TIME_WALLT_LIMIT 04:00:00\nFAIR_SHARE QUEUE:hi:60:10\n'
                   'FAIR_SHARE QUEUE:lo:40:10') AS c;
SELECT msic_primetime_limit(c, '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"batch_queues": ["a", "a"], "batch_hosts": ["a", "a"]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"prime_time_wallt_limit": "-01:00"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"fair_share": [{"queue": "h i", "shares": 60, "max_run_pct": 10},
                                                                     {"queue": "lo", "shares": 40, "max_run_pct": 10}]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"fair_share": [{"queue": "hi", "shares": 60, "max_run_pct": 10}]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"fair_share": [{"queue": "a_queue_name_of_30_characters_", "shares": 100, "max_run_pct": 10}]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"fair_share": [{"queue": "hi", "shares": 100, "max_run_pct": -1}]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"submit_queue": "a", "submit_host": "a"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"batch_queues": ["a,b"], "batch_hosts": [null]}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"express_queue": "a_queue_name_of_fifty_characters_is_one_too_long_x"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"prime_time_start": null}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"target_load_pct": 90.5}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"target_load_minus": -1}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"suspend_threshold": -1}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"max_user_run_jobs": -1}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"max_wait_time": "-00:00:01"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"sched_restart_action": "none"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"share_info_file": "/tmp/a file"}'),
                            '2024-01-02 09:00', '01:00') FROM good;
-- 20000 hand-built batch queues and FAIR_SHARE entries are checked in linear time too
SELECT msic_primetime_limit(jsonb_populate_record(c, jsonb_build_object(
           'batch_queues', (SELECT jsonb_agg('b' || g) FROM generate_series(1, 20000) g) || '["b1"]'::jsonb,
           'batch_hosts', NULL)), '2024-01-02 09:00', '01:00') FROM good;
-- the one reader of a msic_config value: PRIME_TIME_WALLT_LIMIT to the microsecond, the holidays
-- and times of day checked only where prime time is enforced, FAIR_SHARE entries with a NULL
-- field left to the functions that use the entries
SELECT msic_primetime_limit(jsonb_populate_record(c, jsonb_build_object(
           'enforce_prime_time', true, 'prime_time_start', '08:00', 'prime_time_end', '18:00',
           'prime_time_wallt_limit', l, 'holidays', '{}'::int[])), '2024-01-02 08:00', '4:00:00.5')
       AS comment
FROM good, unnest(ARRAY['4:00:00.25', '4:00:00.5']::interval[]) AS l;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"enforce_prime_time": false,
           "holidays": [[1, 2], [400, null]], "prime_time_start": "25:00:00"}'),
           '2024-01-02 09:00', '01:00') IS NULL AS not_enforced FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"enforce_prime_time": true,
           "prime_time_start": "08:00", "prime_time_end": "18:00", "prime_time_wallt_limit": "4:00",
           "holidays": [3, null]}'), '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"enforce_prime_time": true,
           "prime_time_start": "08:00", "prime_time_end": "25:00", "prime_time_wallt_limit": "4:00"}'),
           '2024-01-02 09:00', '01:00') FROM good;
SELECT msic_primetime_limit(jsonb_populate_record(c, '{"fair_share": [
           {"queue": "hi", "shares": 100, "max_run_pct": 10},
           {"queue": "x", "shares": null, "max_run_pct": 1}]}'), '2024-01-02 09:00', '01:00')
       IS NULL AS no_comment FROM good;
