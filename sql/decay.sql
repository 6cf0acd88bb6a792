-- decay: half-life decay, PBS step decay, accrued charge and decayed running sums (docs/decay.md)
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
-- not an error: 16 hours before its instant the decay law runs backwards, 2^(16/24)
SELECT value('1@2026-01-02T00:00:00Z/86400', '2026-01-01');
SELECT 'x@2026-01-01T00:00:00Z/1'::decayed_usage;
SELECT '1@2026-01-01 00:00:00/1'::decayed_usage;
SELECT '1@2026-02-30T00:00:00Z/1'::decayed_usage;
SELECT '1@2026-01-01T00:00:00Z/0'::decayed_usage;
SELECT '1@2026-01-01T00:00:00Z'::decayed_usage;

-- intervals and instants past int64 microseconds neither wrap around nor overflow
\i sql/data/sqlstate_of.sql
-- 60 half-lives: 2^-60
SELECT decay(1, '600000 years', '10000 years') AS sixty_half_lives,
       decay(1, '600000 years', '10000 years') = 2 ^ -60 AS is_2_to_minus_60,
       decay_step(1, '600000 years', '10000 years') = 2 ^ -60 AS sixty_steps,
       decay(1, '178000000 years', '1 second') AS after_178_million_years,
       decay(1, '-600000 years', '1000000 years') = 2 ^ 0.6 AS negative_elapsed;
-- from 4713 BC to 294276 AD a sum has decayed to nothing
SELECT value(decayed_sum(1, '4713-01-01 BC', '1 day'), '294276-12-31') AS across_all_time;
SELECT value(decayed_sum(u, at, '100000 years'), '294276-12-31 00:00:00+00') AS slow_decay
FROM (VALUES (1, '4713-01-01 00:00:00+00 BC'::timestamptz), (1, '294276-01-01 00:00:00+00')) AS t(u, at);
SELECT accrued_usage(1, '4713-01-01 00:00:00+00 BC', '294276-12-31 00:00:00+00',
                     '294276-12-31 00:00:00+00', NULL) AS seconds_4713_bc_to_294276,
       accrued_usage(1, '4713-01-01 00:00:00+00 BC', '4713-01-02 00:00:00+00 BC',
                     '294276-12-31 00:00:00+00', '1 day') AS decayed_away;
-- a half-life that does not fit in microseconds cannot be a decayed_sum's: 22008
SELECT decayed_sum(1, now(), '300000 years');
SELECT pg_temp.sqlstate_of($$SELECT decayed_sum(1, now(), '300000 years')$$) AS sqlstate;

-- every decayed_usage prints text that reads back, BC and after 9999 too (years are
-- astronomical: -4712 is 4713 BC, 0000 is 1 BC); instants span PostgreSQL's timestamps
SELECT decayed_sum(1, '4713-01-01 00:00:00+00 BC', '1 day') AS bc,
       decayed_sum(1, '10000-01-01 00:00:00+00', '1 day') AS year_10000,
       decayed_sum(1, '0001-01-01 00:00:00+00 BC', '1 day') AS one_bc;
SELECT v::decayed_usage::text = v AS text_round_trip, v::decayed_usage
FROM (VALUES ('1.5@10000-01-01T00:00:00Z/86400'), ('1.5@-4712-01-01T00:00:00Z/86400'),
             ('2@-4713-11-24T00:00:00Z/9223372036854.775807'),
             ('3@294276-12-31T23:59:59.999999Z/0.000001')) AS t(v);
SELECT value(v::decayed_usage, '294276-12-31 23:59:59.999999+00') AS at_the_end
FROM (VALUES ('1@294276-12-31T23:59:59.999999Z/1')) AS t(v);
-- and through binary (COPY BINARY): the same values come back
CREATE TEMP TABLE du (id int, d decayed_usage);
INSERT INTO du VALUES (1, '1.5@10000-01-01T00:00:00Z/86400'), (2, '1.5@-4712-01-01T00:00:00Z/86400'),
                      (3, '2@-4713-11-24T00:00:00Z/9223372036854.775807'),
                      (4, '3@294276-12-31T23:59:59.999999Z/0.000001'), (5, '-0@2026-01-01T00:00:00Z/1');
\set binfile '/tmp/fairsched_regress_decay.bin'
COPY du TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE du_back (id int, d decayed_usage);
COPY du_back FROM :'binfile' WITH (FORMAT binary);
SELECT a.id, b.d, a.d::text = b.d::text AS binary_round_trip,
       decayed_usage_send(a.d) = decayed_usage_send(b.d) AS same_bytes
FROM du a JOIN du_back b USING (id) ORDER BY id;
SELECT decayed_usage_send('3@294276-12-31T23:59:59.999999Z/0.000001') AS golden_bytes;
-- binary input accepts exactly what text input does: crafted payloads (a version byte, the
-- float8 value, the int64 instant, the int64 half-life) are 22P03
CREATE TEMP TABLE du_raw (id int, b bytea);
INSERT INTO du_raw VALUES
    (1, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\x7fffffffffffffff' from 10 for 8)),
    (2, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\xfd0f7cc1411f9fff' from 10 for 8)),
    (3, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\x0000000000000000' from 18 for 8)),
    (4, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\xffffffffffffffff' from 18 for 8)),
    (5, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\x7ff0000000000000' from 2 for 8)),
    (6, decayed_usage_send('1@2026-01-01T00:00:00Z/1') || '\x00'::bytea),
    (7, overlay(decayed_usage_send('1@2026-01-01T00:00:00Z/1') placing '\x02' from 1 for 1)),
    (8, '\x01'::bytea);
CREATE TEMP TABLE du_bad (d decayed_usage);
CREATE FUNCTION pg_temp.decayed_from_binary(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE format('COPY (SELECT b FROM du_raw WHERE id = %s) TO %L WITH (FORMAT binary)', i,
                   '/tmp/fairsched_regress_decay_bad.bin');
    COPY du_bad FROM '/tmp/fairsched_regress_decay_bad.bin' WITH (FORMAT binary);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ' ' || SQLERRM || ' / ' || detail;
END $$;
SELECT id, pg_temp.decayed_from_binary(id) AS result FROM du_raw ORDER BY id;
-- text input rejects the same values
SELECT '1@294277-01-01T00:00:00Z/1'::decayed_usage;
SELECT '1@-4713-11-23T23:59:59Z/1'::decayed_usage;
SELECT '1@2026-01-01T00:00:00Z/9223372036854.775808'::decayed_usage;
