-- msic_share: the MSIC scheduler's queue share accounting (docs/msic.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET TimeZone = 'UTC';
SET extra_float_digits = 0;

-- the sample config's FAIR_SHARE queues (low:10 med:15 hi:40 special:35) in a share file as
-- the scheduler writes it; 2026-03-02 is a Monday
CREATE TABLE share_file AS SELECT E'# Day-of-Week\n# queue ndays past% today_usage today_max\nMon\n'
    'low            3 12.500     60.000   1920.000\n'
    'med            0 0.000      0.000      0.000\n'
    'hi            10 45.000   3200.000  38400.000\n'
    'special        1 0.500    100.000    640.000\n' AS t;
SELECT * FROM msic_shares((SELECT t FROM share_file));
-- read on the same weekday: as stored
SELECT * FROM msic_shares((SELECT t FROM share_file), '2026-03-02 12:00+00');
-- read a week later: only weekday names are compared, so no rollover
SELECT * FROM msic_shares((SELECT t FROM share_file), '2026-03-09 12:00+00');
-- read on Tuesday: each queue rolled over once. low 12.5 >= 1: (12.5*3 + 60/1920*100)/4 =
-- 10.15625 over 4 days; med and special are below 1 %: history restarts at today's 0 % and
-- 100/640*100 = 15.625 %; hi: (45*10 + 3200/38400*100)/11 = 41.666667
SELECT queue, ndays, round(past_pct::numeric, 6) AS past_pct, today_usage, today_max
FROM msic_shares((SELECT t FROM share_file), '2026-03-03 12:00+00');
-- the weekday is the session time zone's: 20:00 UTC Monday is Tuesday 05:00 in Tokyo
SET TimeZone = 'Asia/Tokyo';
SELECT queue, ndays FROM msic_shares((SELECT t FROM share_file), '2026-03-02 20:00+00');
SET TimeZone = 'UTC';
-- the bootstrap file (two spaces after "queue"), blank lines, CRLF line ends
SELECT count(*) FROM msic_shares(E'# Day-of-Week\n# queue  ndays past% today_usage today_max\nSun\n');
SELECT * FROM msic_shares(E'# Day-of-Week\r\n# queue\r\nWed\r\n\r\nq 2 1.5 3 4\r\n');
SELECT count(*) FROM msic_shares(NULL);

-- written back byte for byte ("%-10s %5d %3.3f %10.3f %10.3f")
SELECT msic_share_info(array_agg((queue, ndays, past_pct, today_usage, today_max)::msic_share ORDER BY ord), '2026-03-02 12:00+00') = (SELECT t FROM share_file) AS same_bytes
FROM msic_shares((SELECT t FROM share_file)) WITH ORDINALITY AS s(queue, ndays, past_pct, today_usage, today_max, ord);
SELECT msic_share_info(ARRAY[('averyveryverylongqueue', 12345, 123.4567, 0.0004, 1e12)::msic_share,
                             ('q', 0, 0, 0, 0)::msic_share], '2026-03-07 23:59+00');
SELECT msic_share_info('{}', '2026-03-01 00:00+00');
-- round trip of generated values with three decimals (what the file holds)
CREATE TABLE gen_shares AS
SELECT ('q' || i, i * 7 % 400, (i * 7919 % 1000003) / 1000.0, (i * 104729 % 10000019) / 1000.0,
        (i * 1299709 % 100000007) / 1000.0)::msic_share AS s, i
FROM generate_series(1::bigint, 2000) AS i;
SELECT count(*) AS rows_read,
       count(*) FILTER (WHERE (r.queue, r.ndays, r.past_pct, r.today_usage, r.today_max) IS DISTINCT FROM
                               ((g.s).queue, (g.s).ndays, (g.s).past_pct, (g.s).today_usage, (g.s).today_max)) AS differing
FROM msic_shares(msic_share_info((SELECT array_agg(s ORDER BY i) FROM gen_shares), '2026-03-04 00:00+00'),
                 '2026-03-04 00:00+00') AS r
JOIN gen_shares AS g ON (g.s).queue = r.queue;
-- values with more decimals are written rounded to three; the written text is then stable
WITH x AS (SELECT ARRAY[('a', 1, 2.00049, 1.23456, 9.8765)::msic_share] AS a)
SELECT msic_share_info(a, '2026-03-04 00:00+00') AS first_text,
       msic_share_info(ARRAY(SELECT msic_shares(msic_share_info(a, '2026-03-04 00:00+00'))), '2026-03-04 00:00+00')
           = msic_share_info(a, '2026-03-04 00:00+00') AS stable
FROM x;

-- ---------------------------------------------------------------- charge and rollover
-- 4 CPUs for 01:30:30 of requested walltime: 4 * 90 whole minutes = 360; at 10:00 on a
-- 64-CPU cluster today's maximum is 64 * 600 = 38400
SELECT msic_charge(('hi', 0, 0, 0, 0), 4, '01:30:30', '2026-03-02 10:00+00', 64);
-- a second start adds usage and overwrites the maximum: 360 + 2*60 = 480, 64 * 660 = 42240
SELECT msic_charge(msic_charge(('hi', 0, 0, 0, 0), 4, '01:30:30', '2026-03-02 10:00+00', 64),
                   2, '1 hour', '2026-03-02 11:00+00', 64);
-- rollover: 360 / 38400 = 0.9375 % restarts the history; the next (empty) day, still below 1 %,
-- throws it away again [DEFECT kept: the original's rule]
SELECT msic_rollover(msic_charge(('hi', 0, 0, 0, 0), 4, '01:30:30', '2026-03-02 10:00+00', 64));
SELECT msic_rollover(msic_rollover(msic_charge(('hi', 0, 0, 0, 0), 4, '01:30:30', '2026-03-02 10:00+00', 64)));
-- past 30 % over 3 days, today 100/1000 = 10 %: (90 + 10) / 4 = 25 % over 4 days
SELECT msic_rollover(('q', 3, 30, 100, 1000));
-- today_max below 1 (a charge in the first minute after midnight) counts as 0 %
SELECT msic_charge(('q', 0, 0, 0, 0), 8, '10:00', '2026-03-02 00:00:30+00', 64);
SELECT msic_rollover(msic_charge(('q', 0, 0, 0, 0), 8, '10:00', '2026-03-02 00:00:30+00', 64));
-- minutes since local midnight are real minutes, in the session time zone, on DST days too
SET TimeZone = 'America/New_York';
-- 2026-03-08 03:30 EDT: 150 minutes after midnight EST (the clock shows 210)
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '0', '2026-03-08 07:30+00', 10);
-- 2026-11-01 03:30 EST: 270 minutes after midnight EDT (the clock shows 210)
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '0', '2026-11-01 08:30+00', 10);
-- an ordinary day: 03:30 is 210 minutes
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '0', '2026-03-10 07:30+00', 10);
SET TimeZone = 'UTC';
SELECT msic_past_pct(('q', 3, 30, 100, 1000));

-- ---------------------------------------------------------------- rank
-- hi: past 45 % over 10 days, today 3200/38400: past with today 41.67 %, share 40 %
SELECT queue, shares,
       round(msic_rank(s, shares)::numeric, 6) AS rank_share, msic_over_share(s, shares) AS over_share,
       msic_rank(s, shares, 'usage') AS rank_usage, msic_over_share(s, shares, rank => 'usage') AS over_usage
FROM msic_shares((SELECT t FROM share_file)) AS s
JOIN (VALUES ('low', 10), ('med', 15), ('hi', 40), ('special', 35)) AS c(q, shares) ON c.q = s.queue
ORDER BY queue;
-- the original's rank is the truncated raw percentage, over share above 100
SELECT msic_rank(('q', 2, 150, 0, 0), 50, 'usage') AS r100, msic_over_share(('q', 2, 150, 0, 0), 50, 'usage') AS over100,
       msic_rank(('q', 2, 160, 0, 0), 50, 'usage') AS r106, msic_over_share(('q', 2, 160, 0, 0), 50, 'usage') AS over106;
-- a 0 % share: any usage is infinitely over share, none is not over
SELECT msic_rank(('q', 1, 5, 0, 0), 0) AS used, msic_over_share(('q', 1, 5, 0, 0), 0),
       msic_rank(('q', 0, 0, 0, 0), 0) AS unused, msic_over_share(('q', 0, 0, 0, 0), 0);

-- ---------------------------------------------------------------- errors
SELECT * FROM msic_shares(E'Mon\nq 1 2 3 4\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMonday\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon Tue\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 12.5 60\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 12.5 60 1920 extra\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3.5 12.5 60 1920\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 -12.5 60 1920\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 12.5 NaN 1920\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 12.5 60 1e400\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlow 3 12.5 60 1920\nlow 1 1 1 1\n');
SELECT * FROM msic_shares(E'# Day-of-Week\n# queue\nMon\nlo\tw 3 12.5 60 1920\n');
SELECT msic_share_info(ARRAY[NULL::msic_share], now());
SELECT msic_share_info(ARRAY[('a b', 0, 0, 0, 0)::msic_share], now());
SELECT msic_share_info(ARRAY[('', 0, 0, 0, 0)::msic_share], now());
SELECT msic_share_info(ARRAY[('a', -1, 0, 0, 0)::msic_share], now());
SELECT msic_share_info(ARRAY[('a', 0, 'NaN', 0, 0)::msic_share], now());
SELECT msic_share_info(ARRAY[('a', 0, 0, '-Infinity', 0)::msic_share], now());
SELECT msic_share_info(ARRAY[('a', 0, 0, 0, NULL)::msic_share], now());
SELECT msic_share_info(ARRAY[('a', 0, 0, 0, 0)::msic_share, ('a', 1, 0, 0, 0)::msic_share], now());
SELECT msic_share_info(ARRAY[[('a', 0, 0, 0, 0)::msic_share]], now());
SELECT msic_share_info(ARRAY[('a', 0, 0, 0, 0)::msic_share], 'infinity');
SELECT msic_charge(('q', 0, 0, 0, 0), -1, '1 hour', '2026-03-02 10:00+00', 64);
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '-1 hour', '2026-03-02 10:00+00', 64);
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '1 hour', '2026-03-02 10:00+00', 0);
SELECT msic_charge(('q', 0, 0, 0, 0), 1, '1 hour', '-infinity', 64);
SELECT msic_rollover(('q', 2147483647, 5, 0, 0));
SELECT msic_rollover(('q', 0, 0, 1e308, 5));
SELECT msic_rank(('q', 0, 0, 0, 0), 101);
SELECT msic_rank(('q', 0, 0, 0, 0), -1, 'usage');
SELECT msic_rank(('q', 0, 0, 0, 0), 10, 'fair');
-- NULL in, NULL out
SELECT msic_charge(NULL, 1, '1 hour', now(), 64) IS NULL AS n1, msic_rollover(NULL) IS NULL AS n2,
       msic_rank(NULL, 10) IS NULL AS n3, msic_share_info(NULL, now()) IS NULL AS n4,
       msic_charge(('q', 0, 0, 0, 0), 1, NULL, now(), 64) IS NULL AS n5;

-- ---------------------------------------------------------------- msic_queue_state
-- job starts of three queues over 40 days in Berlin (DST begins 2026-03-29), with starts at
-- exactly 23:00:00 (before that night's rollover) and just after it, and some after as_of
SET TimeZone = 'Europe/Berlin';
CREATE TABLE starts AS
SELECT i AS id, (ARRAY['low', 'med', 'hi'])[i % 3 + 1] AS queue,
       (i * 37 % 16) + 1 AS ncpus,
       make_interval(secs => (i * 7919 % 86400)) AS walltime,
       timestamptz '2026-03-10 00:00:00+01' + make_interval(secs => (i * 104729 % (40 * 86400))) AS started_at,
       256 AS cluster_cpus
FROM generate_series(1, 3000) AS i
UNION ALL
SELECT 3000 + d, 'hi', 2, '02:00:00', timestamptz '2026-03-10 23:00:00' + make_interval(days => d), 256
FROM generate_series(0, 30, 3) AS d
UNION ALL
SELECT 3100 + d, 'hi', 1, '00:10:00', timestamptz '2026-03-10 23:00:00.5' + make_interval(days => d), 256
FROM generate_series(1, 30, 4) AS d
-- a queue whose days go quiet (history below 1 % thrown away) and a queue with one start
UNION ALL SELECT 3200, 'idle', 1, '00:01:00', '2026-03-11 12:00', 256
UNION ALL SELECT 3204, 'busy', 256, '48:00:00', '2026-04-10 06:00', 256;
ANALYZE starts;
-- the reference: jobs one by one, in start order, with msic_charge, and msic_rollover at every
-- 23:00 local time crossed (day of a start: its local date, or the next if after 23:00)
CREATE FUNCTION share_day(t timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
    SELECT (t AT TIME ZONE current_setting('TimeZone'))::date
           + CASE WHEN (t AT TIME ZONE current_setting('TimeZone'))::time > '23:00' THEN 1 ELSE 0 END $$;
CREATE FUNCTION one_by_one(q text, as_of timestamptz) RETURNS msic_share LANGUAGE plpgsql STABLE AS $$
DECLARE
    s msic_share := (q, 0, 0, 0, 0);
    cur date := NULL;
    j record;
BEGIN
    FOR j IN SELECT * FROM starts WHERE queue = q AND started_at <= as_of
             ORDER BY started_at, cluster_cpus LOOP
        IF cur IS NULL THEN cur := share_day(j.started_at); END IF;
        WHILE cur < share_day(j.started_at) LOOP
            s := msic_rollover(s);
            cur := cur + 1;
        END LOOP;
        s := msic_charge(s, j.ncpus, j.walltime, j.started_at, j.cluster_cpus);
    END LOOP;
    IF cur IS NOT NULL THEN
        WHILE cur < share_day(as_of) LOOP
            s := msic_rollover(s);
            cur := cur + 1;
        END LOOP;
    END IF;
    RETURN s;
END $$;
CREATE TABLE as_ofs AS SELECT unnest(ARRAY[timestamptz '2026-03-15 23:00:00', '2026-03-15 23:00:01',
    '2026-03-29 12:00', '2026-04-10 06:00', '2026-04-12 22:00', '2026-06-01 00:00']) AS as_of;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial AS
SELECT a.as_of, s.queue, msic_queue_state(s.queue, ncpus, walltime, started_at, cluster_cpus, a.as_of) AS st
FROM starts AS s CROSS JOIN as_ofs AS a GROUP BY a.as_of, s.queue;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS states,
       count(*) FILTER (WHERE st = one_by_one(queue, as_of)) AS equal_to_one_by_one,
       count(*) FILTER (WHERE (st).ndays > 1) AS with_history
FROM serial;
SELECT queue, (st).ndays, round((st).past_pct::numeric, 6) AS past_pct, (st).today_usage, (st).today_max
FROM serial WHERE as_of = '2026-04-12 22:00' ORDER BY queue;
-- a start at 23:00:00 is still the day's; at 23:00:00.5 it is the next day's
SELECT queue, st FROM serial WHERE queue IN ('idle', 'busy') ORDER BY queue, as_of;
SELECT msic_queue_state(q, 1, '01:00', t, 60, '2026-03-02 23:00') AS at_2300,
       msic_queue_state(q, 1, '01:00', t, 60, '2026-03-02 23:00:01') AS after_2300
FROM (VALUES ('x', timestamptz '2026-03-02 23:00:00')) AS v(q, t);
-- no rows: NULL; only starts after as_of: a fresh queue
SELECT msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, now()) FROM starts WHERE false;
SELECT msic_queue_state('x', 1, '01:00', '2026-03-03 10:00', 60, '2026-03-02 10:00');

-- parallel plans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT queue, msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, '2026-04-12 22:00')
FROM starts GROUP BY queue;
SELECT count(*) AS queues, count(*) FILTER (WHERE p.st = s.st) AS parallel_equals_serial
FROM (SELECT queue, msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, '2026-04-12 22:00') AS st
      FROM starts GROUP BY queue) AS p
JOIN serial AS s ON s.queue = p.queue AND s.as_of = '2026-04-12 22:00';
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- distributed emulation: aggregate each shard, ship the state as text, merge, read
CREATE TABLE shards AS
SELECT id % 4 AS shard, queue,
       msic_queue_acc(queue, ncpus, walltime, started_at, cluster_cpus, '2026-04-12 22:00')::text AS acc
FROM starts GROUP BY id % 4, queue;
WITH RECURSIVE fold(queue, shard, acc) AS (
    SELECT queue, shard, acc FROM shards WHERE shard = 0
    UNION ALL
    SELECT f.queue, s.shard, msic_queue_acc_combine(f.acc::msic_queue_acc, s.acc::msic_queue_acc)::text
    FROM fold AS f JOIN shards AS s ON s.queue = f.queue AND s.shard = f.shard + 1)
SELECT count(*) AS queues,
       count(*) FILTER (WHERE msic_queue_acc_share(f.acc::msic_queue_acc) = s.st) AS distributed_equals_serial
FROM (SELECT DISTINCT ON (queue) queue, acc FROM fold ORDER BY queue, shard DESC) AS f
JOIN serial AS s ON s.queue = f.queue AND s.as_of = '2026-04-12 22:00';
-- the state's text form reads back the same
SELECT acc FROM shards WHERE queue = 'busy';
SELECT count(*) AS states, count(*) FILTER (WHERE acc::msic_queue_acc::text = acc) AS text_round_trips
FROM shards;
-- errors of the aggregate and of the state's text
SELECT msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, '2026-04-12 22:00') FROM starts;
SELECT msic_queue_state(queue, ncpus, walltime, started_at, cluster_cpus, started_at) FROM starts WHERE queue = 'hi';
SELECT msic_queue_state('a b', 1, '01:00', now(), 60, now());
SELECT 'hi 2026-03-02T12:00:00Z'::msic_queue_acc;
SELECT 'hi 2026-03-02T12:00:00Z 9557;9558 1 2026-03-02T11:00:00Z 60'::msic_queue_acc;
SELECT 'hi 2026-03-02T12:00:00Z 9557;9556 1 2026-03-02T11:00:00Z 60;9555 1 2026-03-01T11:00:00Z 60'::msic_queue_acc;
SELECT 'hi 2026-03-02T12:00:00Z 9557;9556 -1 2026-03-02T11:00:00Z 60'::msic_queue_acc;
SELECT 'hi 2026-03-02T12:00:00Z 9557;9556 1 2026-03-02T11:00:00Z 60'::msic_queue_acc;
-- binary form: a version byte, then the text form; COPY BINARY brings the state back, and a
-- version this build does not write is refused (22P03)
CREATE TEMP TABLE acc_bin (id int, a msic_queue_acc);
INSERT INTO acc_bin VALUES (1, 'hi 2026-03-02T12:00:00Z 9557;9556 1 2026-03-02T11:00:00Z 60');
COPY acc_bin TO '/tmp/fairsched_regress_msic_acc.bin' WITH (FORMAT binary);
CREATE TEMP TABLE acc_back (id int, a msic_queue_acc);
COPY acc_back FROM '/tmp/fairsched_regress_msic_acc.bin' WITH (FORMAT binary);
SELECT b.a, a.a::text = b.a::text AS binary_round_trip FROM acc_bin a JOIN acc_back b USING (id);
CREATE TEMP TABLE acc_raw (b bytea);
INSERT INTO acc_raw SELECT overlay(msic_queue_acc_send(a) placing '\x02' from 1 for 1) FROM acc_bin;
COPY acc_raw TO '/tmp/fairsched_regress_msic_acc_bad.bin' WITH (FORMAT binary);
CREATE TEMP TABLE acc_bad (a msic_queue_acc);
COPY acc_bad FROM '/tmp/fairsched_regress_msic_acc_bad.bin' WITH (FORMAT binary);

-- msic_queue_history: every day's state from one aggregate; each row equals msic_queue_state
-- as of that day's 23:00 (the charges of the day in, its rollover not yet applied), and the last
-- row equals msic_queue_state as of as_of
SET TimeZone = 'Europe/Berlin';
CREATE TABLE hist AS
SELECT h.*
FROM (SELECT msic_queue_acc(queue, ncpus, walltime, started_at, cluster_cpus, '2026-04-12 22:00') AS acc
      FROM starts GROUP BY queue) AS a,
     msic_queue_history(a.acc) AS h;
SELECT queue, min(day) AS first_day, max(day) AS last_day, count(*) AS days,
       count(DISTINCT day) = count(*) AS one_row_a_day
FROM hist GROUP BY queue ORDER BY queue;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE ROW(h.queue, h.ndays, h.past_pct, h.today_usage, h.today_max)::msic_share
                              = one_by_one(h.queue, (h.day + time '23:00') AT TIME ZONE 'Europe/Berlin'))
           AS equal_to_one_by_one_at_23h
FROM hist AS h WHERE h.day < '2026-04-12';
SELECT h.queue, ROW(h.queue, h.ndays, h.past_pct, h.today_usage, h.today_max)::msic_share = s.st AS last_row_is_the_state
FROM hist AS h JOIN serial AS s ON s.queue = h.queue AND s.as_of = '2026-04-12 22:00'
WHERE h.day = '2026-04-12' ORDER BY h.queue;
SELECT * FROM msic_queue_history(NULL);
RESET TimeZone;

-- the file's reader and writer find a repeated queue through a hash index: 20000 queues read and
-- written in well under a second, and a repeat of the first queue on the last line is found
SET TimeZone = 'UTC';
SELECT length(msic_share_info(array_agg(ROW('q' || g, 1, 1, 0, 0)::msic_share), '2026-04-12'))
FROM generate_series(1, 20000) g;
SELECT msic_share_info(array_agg(ROW('q' || (g % 19999), 1, 1, 0, 0)::msic_share), '2026-04-12')
FROM generate_series(1, 20000) g;
SELECT count(*) FROM msic_shares(E'# Day-of-Week\n# queue ndays past% today_usage today_max\nMon\n'
    || (SELECT string_agg('q' || g || ' 1 1 0 0', E'\n') FROM generate_series(1, 20000) g));
SELECT count(*) FROM msic_shares(E'# Day-of-Week\n# queue ndays past% today_usage today_max\nMon\n'
    || (SELECT string_agg('q' || g || ' 1 1 0 0', E'\n') FROM generate_series(1, 20000) g)
    || E'\nq1 2 2 0 0');

-- a state whose past percentage overflows: one error, 22003, from each function that computes it
SELECT msic_past_pct(ROW('q', 2, 1e308, 0, 0)::msic_share);
SELECT msic_rank(ROW('q', 2, 1e308, 0, 0)::msic_share, 10);
SELECT msic_rollover(ROW('q', 2, 1e308, 0, 0)::msic_share);
SELECT msic_past_pct(ROW('q', 0, 0, 1e308, 1)::msic_share);

-- binary input refuses a queue name that is not valid in the database encoding (22021), as the
-- text input does: the bytes 01 68 ff fe, then " 2026-04-12T22:00:00Z 9598"
TRUNCATE acc_raw;
INSERT INTO acc_raw VALUES ('\x0168fffe'::bytea || convert_to(' 2026-04-12T22:00:00Z 9598', 'UTF8'));
COPY acc_raw TO '/tmp/fairsched_regress_msic_acc_enc.bin' WITH (FORMAT binary);
COPY acc_bad FROM '/tmp/fairsched_regress_msic_acc_enc.bin' WITH (FORMAT binary);
SELECT count(*) FROM acc_bad;

-- the states the aggregate builds up to the last timestamps read back, as text and in binary;
-- a day beyond any timestamp's local day is refused
SELECT msic_queue_acc('hi', 8, '02:00', '294270-01-01', 64, '294270-01-02')::text::msic_queue_acc;
SELECT msic_queue_acc('hi', 8, '02:00', '294276-12-31 23:30', 64, '294276-12-31 23:59:59')::text::msic_queue_acc;
SET TimeZone = '<+167>-167';
SELECT msic_queue_acc('hi', 8, '02:00', '294276-12-31 23:30+00', 64, '294276-12-31 23:59:59+00')::text::msic_queue_acc;
SET TimeZone = '<-167>+167';
SELECT msic_queue_acc('hi', 8, '02:00', '4714-11-24 00:00+00 BC', 64, '4714-11-24 01:00+00 BC')::text::msic_queue_acc;
SET TimeZone = 'UTC';
TRUNCATE acc_bin, acc_back;
INSERT INTO acc_bin SELECT 1, msic_queue_acc('hi', 8, '02:00', '294270-01-01', 64, '294270-01-02');
COPY acc_bin TO '/tmp/fairsched_regress_msic_acc.bin' WITH (FORMAT binary);
COPY acc_back FROM '/tmp/fairsched_regress_msic_acc.bin' WITH (FORMAT binary);
SELECT b.a, a.a::text = b.a::text AS binary_round_trip FROM acc_bin a JOIN acc_back b USING (id);
SELECT 'hi 294276-12-31T23:59:59Z 106751991'::msic_queue_acc;
SELECT 'hi 294276-12-31T23:59:59Z 106751990'::msic_queue_acc;
SELECT 'hi -4713-11-24T00:00:00Z -2451553'::msic_queue_acc;
RESET TimeZone;
