-- msic_order: the MSIC scheduler's job flags and job order (docs/msic.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';

-- the administrator's guide's configuration: SUBMIT_QUEUE pending, BATCH_QUEUES hosta@hosta,hostb@hostb,
-- EXPRESS_QUEUE special, and the sample FAIR_SHARE lines low:10:10 med:15:10 hi:40:10
-- special:35:10; MAX_WAIT_TIME not set (the default, 5 days)
CREATE TEMP TABLE conf AS
SELECT jsonb_populate_record(NULL::msic_config, '{
  "submit_queue": "pending", "submit_host": "server",
  "batch_queues": ["hosta", "hostb"], "batch_hosts": ["hosta", "hostb"],
  "express_queue": "special", "target_load_pct": 90, "target_load_minus": 15, "target_load_plus": 10,
  "fair_share": [{"queue": "low", "shares": 10, "max_run_pct": 10},
                 {"queue": "med", "shares": 15, "max_run_pct": 10},
                 {"queue": "hi", "shares": 40, "max_run_pct": 10},
                 {"queue": "special", "shares": 35, "max_run_pct": 10}]}') AS c;

-- share state: low past 12% over 4 days, med 30%, hi 50% and 300 of 1000 CPU-minutes today
-- (30%); special has none. Past including today: low 48/5 = 9.6, med 120/5 = 24,
-- hi (200 + 30)/5 = 46, special 0.
CREATE TEMP TABLE st AS
SELECT ARRAY[ROW('low', 4, 12, 0, 0)::msic_share, ROW('med', 4, 30, 0, 0)::msic_share,
             ROW('hi', 4, 50, 300, 1000)::msic_share] AS s;

-- a job: id, owner, originating queue, state, requested walltime, eligible this long before
-- 2024-03-11 12:00 UTC, walltime used, exec_host, chkptd
CREATE FUNCTION pg_temp.j(id text, owner text, queue text, state text, wall interval,
                          ago interval, used interval DEFAULT NULL, host text DEFAULT NULL,
                          ckpt boolean DEFAULT NULL) RETURNS msic_job
LANGUAGE sql AS $$
  SELECT ROW(id, owner, queue, state, 1, NULL, wall, used, NULL,
             timestamptz '2024-03-11 12:00:00+00' - ago, host, NULL, ckpt, NULL, NULL)::msic_job
$$;

-- the order of some jobs under the administrator's guide's configuration
CREATE FUNCTION pg_temp.ord(jobs msic_job[], rank text DEFAULT 'share', cpus int DEFAULT 64)
RETURNS TABLE(pos int, job_id text, priority boolean, waiting boolean, runlimit boolean,
              chkpt_ok boolean, suspended boolean, chkptd boolean, queue_rank numeric,
              over_share boolean, user_limit int, user_running int, decided_by text)
LANGUAGE sql AS $$
  SELECT pos, job_id, priority, waiting, runlimit, chkpt_ok, suspended, chkptd,
         round(queue_rank::numeric, 4), over_share, user_limit, user_running, decided_by
  FROM conf, st, msic_job_order(c, s, jobs, '2024-03-11 12:00:00+00', cpus, rank)
$$;

CREATE TEMP TABLE guide_jobs AS
SELECT ARRAY[pg_temp.j('e1', 'alice', 'special', 'Q', '2 hours', '1 hour'),
             pg_temp.j('l1', 'bob', 'low', 'Q', '1 hour', '1 hour'),
             pg_temp.j('m1', 'carol', 'med', 'Q', '1 hour', '6 days'),
             pg_temp.j('h1', 'dave', 'hi', 'Q', '1 hour', '2 hours'),
             pg_temp.j('r1', 'bob', 'low', 'R', '4 hours', '5 hours', '1 hour', 'hosta'),
             pg_temp.j('r2', 'dave', 'hi', 'R', '2 hours', '3 hours', '90 minutes', 'hostb'),
             pg_temp.j('x1', 'erin', 'other', 'Q', '1 hour', '1 hour')] AS jobs;

-- rank 'share' (the administrator's guide): low 9.6/10 = 0.96, hi 46/40 = 1.15 (over), med 24/15 = 1.6 (over),
-- a queue without FAIR_SHARE entry 1 (at its share, soft limit 0). Soft limit 10% of 64 CPUs
-- = 6. The express job first; m1 waited 6 days but med is over its share: not WAITING, and
-- CHKPT_OK; running jobs last, the one with less time left first.
SELECT o.* FROM guide_jobs, pg_temp.ord(jobs) o;

-- rank 'usage' (the original code): the truncated past percentage, over share only above 100:
-- low 9, med 24, hi 46, other 100. m1 is now WAITING, under the soft limit, and comes right
-- after the express job.
SELECT o.* FROM guide_jobs, pg_temp.ord(jobs, 'usage') o;

-- each step of the comparison with a pair of jobs that differ in it (and later steps)
-- waiting: a long-waiting job of an under-share queue before a shorter one of the same queue
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('n1', 'bob', 'low', 'Q', '30 minutes', '1 hour'),
                                  pg_temp.j('w1', 'carol', 'low', 'Q', '1 hour', '6 days')]) o;
-- ... but not when its owner is at the soft limit (10% of 10 CPUs = 1 running job): w1 keeps
-- its WAITING flag, loses the promotion, and goes last by the soft limit step
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('n1', 'bob', 'low', 'Q', '30 minutes', '1 hour'),
                                  pg_temp.j('w1', 'carol', 'low', 'Q', '1 hour', '6 days'),
                                  pg_temp.j('rc', 'carol', 'low', 'R', '1 hour', '7 days',
                                            '10 minutes', 'hosta')], 'share', 10) o;
-- user_limit and RUNLIMIT: bob has 2 running low jobs (limit 1): his queued job is RUNLIMIT,
-- and so is his second running job in input order; carol's job goes first
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'bob', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('b', 'carol', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('rb2', 'bob', 'low', 'R', '1 hour', '1 hour',
                                            '0', 'hosta'),
                                  pg_temp.j('rb1', 'bob', 'low', 'R', '1 hour', '1 hour',
                                            '0', 'hosta')], 'share', 10) o;
-- queued_jobs: carol has two queued low jobs, bob one
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('c1', 'carol', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('c2', 'carol', 'low', 'Q', '1 hour', '2 hours'),
                                  pg_temp.j('b1', 'bob', 'low', 'Q', '3 hours', '1 hour')]) o;
-- suspended first, then checkpointed (chkptd given, or NULL and a queued job with an
-- exec_host), then shorter walltime, then older, then job id
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('q', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('s', 'u2', 'low', 'S', '1 hour', '1 hour',
                                            '5 minutes', 'hosta')]) o;
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('q', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('k', 'u2', 'low', 'Q', '1 hour', '1 hour',
                                            NULL, NULL, true),
                                  pg_temp.j('h', 'u3', 'low', 'Q', '1 hour', '1 hour',
                                            NULL, 'hostb'),
                                  pg_temp.j('f', 'u4', 'low', 'Q', '1 hour', '1 hour',
                                            NULL, 'hostb', false)]) o;
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('q', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('w', 'u2', 'low', 'Q', '59 minutes', '1 hour')]) o;
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('q', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('o', 'u2', 'low', 'Q', '1 hour', '61 minutes')]) o;
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('q2', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                                  pg_temp.j('q1', 'u2', 'low', 'Q', '1 hour', '1 hour')]) o;
-- running jobs only: by time left (an overrun job first), then job id
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('ra', 'u1', 'low', 'R', '1 hour', '2 hours',
                                            '30 minutes', 'hosta'),
                                  pg_temp.j('rz', 'u1', 'low', 'R', '2 hours', '3 hours',
                                            '150 minutes', 'hosta'),
                                  pg_temp.j('rb', 'u2', 'low', 'R', '90 minutes', '2 hours',
                                            '1 hour', 'hosta')]) o;

-- a job without a queue is one of the submit queue (no FAIR_SHARE entry: rank 1, limit 0)
SELECT o.* FROM pg_temp.ord(ARRAY[pg_temp.j('n', 'u1', NULL, 'Q', '1 hour', '1 hour')]) o;
-- MAX_WAIT_TIME from the configuration: 1 hour; eligible exactly 1 hour is not longer
SELECT job_id, waiting
FROM conf, st,
     msic_job_order(jsonb_populate_record(c, '{"max_wait_time": "01:00:00"}'), s,
                    ARRAY[pg_temp.j('a', 'u1', 'low', 'Q', '1 hour', '1 hour'),
                          pg_temp.j('b', 'u2', 'low', 'Q', '1 hour', '61 minutes')],
                    '2024-03-11 12:00:00+00', 64) ORDER BY pos;
-- a share of 0: any use is over it; none is rank 0
SELECT job_id, queue_rank, over_share
FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": "low", "shares": 0, "max_run_pct": 10},
        {"queue": "zero", "shares": 0, "max_run_pct": 10},
        {"queue": "all", "shares": 100, "max_run_pct": 10}]}'), s,
     ARRAY[pg_temp.j('a', 'u1', 'low', 'Q', '1 hour', '1 hour'),
           pg_temp.j('b', 'u1', 'zero', 'Q', '1 hour', '1 hour')],
     '2024-03-11 12:00:00+00', 64) ORDER BY pos;

-- NULL and empty inputs
SELECT count(*) FROM conf, st, msic_job_order(c, s, '{}', now(), 64);
SELECT count(*) FROM conf, st, msic_job_order(c, s, NULL, now(), 64);
SELECT count(*) FROM st, msic_job_order(NULL, s, ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], now(), 64);
SELECT count(*) FROM conf, st, msic_job_order(c, s, ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], NULL, 64);
SELECT count(*) FROM conf, st, msic_job_order(c, s, ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], now(), 64, NULL);
-- shares NULL: no queue has history yet
SELECT job_id, queue_rank FROM conf, msic_job_order(c, NULL, ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], now(), 64);

-- errors
SELECT * FROM guide_jobs, pg_temp.ord(jobs, 'fair');
SELECT * FROM pg_temp.ord(ARRAY[NULL::msic_job]);
SELECT * FROM conf, msic_job_order(c, ARRAY[NULL::msic_share], '{}', now(), 64);
SELECT * FROM conf, msic_job_order(c, ARRAY[ROW('low', 1, NULL, 0, 0)::msic_share], '{}', now(), 64);
SELECT * FROM conf, msic_job_order(c, ARRAY[ROW('low', 1, 1, 0, 0)::msic_share, ROW('low', 1, 1, 0, 0)::msic_share], '{}', now(), 64);
SELECT * FROM conf, msic_job_order(c, ARRAY[ROW('low', 1, -1, 0, 0)::msic_share], '{}', now(), 64);
SELECT * FROM conf, msic_job_order(c, ARRAY[ROW('low', 1, 'NaN', 0, 0)::msic_share], '{}', now(), 64);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j(NULL, 'u', 'low', 'Q', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('', 'u', 'low', 'Q', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', NULL, 'low', 'Q', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', NULL, '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'H', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'QQ', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'Q', NULL, '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '-1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'R', '1 hour', '0', '-1 second')]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', NULL)]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0'),
                                pg_temp.j('a', 'v', 'med', 'Q', '1 hour', '0')]);
SELECT * FROM pg_temp.ord(ARRAY[[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')]]);
SELECT * FROM pg_temp.ord(ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], 'share', 0);
SELECT * FROM conf, st, msic_job_order(c, s, ARRAY[pg_temp.j('a', 'u', 'low', 'Q', '1 hour', '0')], 'infinity', 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{}'), s,
                                 ARRAY[pg_temp.j('a', 'u', NULL, 'Q', '1 hour', '0')], now(), 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"max_wait_time": "-1 day"}'), s,
                                 '{}', now(), 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": "low", "shares": 50, "max_run_pct": 10},
        {"queue": "low", "shares": 50, "max_run_pct": 10}]}'), s, '{}', now(), 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": "low", "shares": 101, "max_run_pct": 10}]}'), s, '{}', now(), 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": null, "shares": 100, "max_run_pct": 10}]}'), s, '{}', now(), 64);
SELECT * FROM st, msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": "low", "shares": null, "max_run_pct": 10}]}'), s, '{}', now(), 64);
SELECT * FROM st, msic_job_order(ROW(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ARRAY[NULL::msic_share_spec], NULL, NULL,
        NULL, NULL, NULL)::msic_config, s, '{}', now(), 64);

-- default memory of a job without a mem request (the original's get_default_mem)
SELECT msic_default_mem(c, 'hi', 2147483648, 8589934592) AS queue_default,
       msic_default_mem(c, 'hi', NULL, 8589934592) AS queue_max,
       msic_default_mem(c, 'hi') AS built_in,
       msic_default_mem(c, 'nobody', 2147483648, 8589934592) AS no_fair_share_entry
FROM (SELECT ROW('pending', NULL, '{hosta}', '{hosta}', 'special', false, NULL, NULL, NULL, NULL,
                 90, 15, 10, 10, true, '5 days', true, 'NONE',
                 ARRAY[ROW('hi', 40, 10)::msic_share_spec, ROW('low', 60, 10)::msic_share_spec],
                 '{}', 10, NULL, NULL, NULL)::msic_config AS c) AS s;
SELECT msic_default_mem(NULL, 'hi', 1, 2);
SELECT msic_default_mem(NULL, 'hi', -1, 2);
SELECT msic_default_mem(NULL, 'hi', 1, 'Infinity');

-- the one reader of a msic_config value: each function refuses only what it uses
-- a FAIR_SHARE entry with no queue is passed over by msic_default_mem, refused by the order
SELECT msic_default_mem(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": null, "shares": 10, "max_run_pct": 1},
        {"queue": "hi", "shares": 100, "max_run_pct": 10}]}'), 'hi', 5, 6) AS entry_default;
SELECT * FROM msic_job_order(jsonb_populate_record(NULL::msic_config, '{"fair_share": [
        {"queue": "hi", "shares": 100, "max_run_pct": 10},
        {"queue": null, "shares": 10, "max_run_pct": 1}]}'), NULL, '{}', now(), 64);
-- the order does not use prime time: holidays and prime times it would refuse do not matter
SELECT count(*) FROM msic_job_order(jsonb_populate_record(NULL::msic_config, '{
        "enforce_prime_time": true, "prime_time_start": "25:00:00", "prime_time_end": "18:00:00",
        "prime_time_wallt_limit": "4:00:00", "holidays": [400]}'), NULL, '{}', now(), 64);
-- MAX_WAIT_TIME to the microsecond: eligible 1.2 s before, waiting over 1 s, not over 1.5 s
SELECT m AS max_wait_time, o.waiting
FROM unnest(ARRAY['1 second', '1.5 seconds']::interval[]) AS m,
     LATERAL msic_job_order(jsonb_populate_record(NULL::msic_config,
                                                  jsonb_build_object('max_wait_time', m)),
                            NULL, ARRAY[pg_temp.j('a', 'u', 'hi', 'Q', '1 hour', '1.2 seconds')],
                            '2024-03-11 12:00:00+00', 64, 'share') AS o;
