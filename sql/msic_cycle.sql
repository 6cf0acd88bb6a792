-- msic_cycle: one scheduling cycle of the MSIC scheduler (docs/msic.md): placement, preemption, the load gate, comments, charges, resume
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET timezone = 'UTC';

-- The configuration: SUBMIT_QUEUE pending, three batch queues qa@ha, qb@hb, qc@hc, EXPRESS_QUEUE
-- special, FAIR_SHARE low:40:50 hi:40:50 special:20:50, the defaults TARGET_LOAD_PCT 90%,
-- TARGET_LOAD_VARIANCE -15%,+10%, SUSPEND_THRESHOLD 10, FORCE_REQUEUE off, MAX_WAIT_TIME 5 days.
CREATE FUNCTION pg_temp.cfg(extra jsonb DEFAULT '{}') RETURNS msic_config LANGUAGE sql AS $$
  SELECT jsonb_populate_record(NULL::msic_config, '{
    "submit_queue": "pending", "batch_queues": ["qa", "qb", "qc"], "batch_hosts": ["ha", "hb", "hc"],
    "express_queue": "special", "target_load_pct": 90, "target_load_minus": 15,
    "target_load_plus": 10, "suspend_threshold": 10, "force_requeue": false,
    "update_comments": true, "max_wait_time": "5 days", "enforce_prime_time": false,
    "fair_share": [{"queue": "low", "shares": 40, "max_run_pct": 50},
                   {"queue": "hi", "shares": 40, "max_run_pct": 50},
                   {"queue": "special", "shares": 20, "max_run_pct": 50}]}'::jsonb || extra) $$;
-- one batch queue qa@ha only
CREATE FUNCTION pg_temp.cfg1(extra jsonb DEFAULT '{}') RETURNS msic_config LANGUAGE sql AS $$
  SELECT pg_temp.cfg('{"batch_queues": ["qa"], "batch_hosts": ["ha"]}'::jsonb || extra) $$;

-- Share state: low used 150% yesterday (past with today: 75, over its 40% share: rank 1.875);
-- hi 10% (rank 0.125); special none (rank 0).
CREATE FUNCTION pg_temp.shares() RETURNS msic_share[] LANGUAGE sql AS $$
  SELECT ARRAY[ROW('low', 1, 150, 0, 0)::msic_share, ROW('hi', 1, 10, 0, 0)::msic_share] $$;

CREATE FUNCTION pg_temp.h(n text, c int, load float8 DEFAULT 0, mem float8 DEFAULT 64e9,
                          arch text DEFAULT 'linux', up boolean DEFAULT true) RETURNS msic_host
LANGUAGE sql AS $$ SELECT ROW(n, c, mem, arch, load, up)::msic_host $$;

CREATE FUNCTION pg_temp.q(n text, extra jsonb DEFAULT '{}') RETURNS msic_queue LANGUAGE sql AS $$
  SELECT jsonb_populate_record(NULL::msic_queue,
                               jsonb_build_object('name', n, 'enabled', true, 'started', true) || extra) $$;

-- a job submitted at 09:00 (eligible one hour before the cycle), 1 GB of memory
CREATE FUNCTION pg_temp.j(id text, owner text, oq text, st text, c int,
                          wall interval DEFAULT '10:00', used interval DEFAULT NULL,
                          host text DEFAULT NULL, extra jsonb DEFAULT '{}') RETURNS msic_job
LANGUAGE sql AS $$
  SELECT jsonb_populate_record(NULL::msic_job, jsonb_build_object(
    'job_id', id, 'owner', owner, 'queue', oq, 'state', st, 'ncpus', c, 'mem', 1e9,
    'walltime', wall, 'walltime_used', used, 'ctime', '2026-12-01 09:00+00',
    'exec_host', host) || extra) $$;

-- one cycle at Tuesday 2026-12-01 10:00 UTC with 20 cluster CPUs, one line per decision
CREATE FUNCTION pg_temp.cyc(jobs msic_job[],
                            hosts msic_host[] DEFAULT ARRAY[pg_temp.h('ha', 8), pg_temp.h('hb', 8), pg_temp.h('hc', 4)],
                            queues msic_queue[] DEFAULT ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                            config msic_config DEFAULT pg_temp.cfg(), compat text[] DEFAULT '{}',
                            at timestamptz DEFAULT '2026-12-01 10:00+00')
RETURNS SETOF text LANGUAGE sql AS $$
  SELECT concat_ws(' ', step, action, job_id, coalesce(queue, '-'), coalesce(host, '-'), reason)
  FROM msic_cycle(config, pg_temp.shares(), hosts, queues, jobs, at, 20, compat) ORDER BY step $$;

-- ---------------------------------------------------------------- placement: best fit
-- 4 CPUs: qc's host is left with 0 free CPUs, taken at once
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 4)]);
-- 2 CPUs with 4 busy on ha: ha and hc are both left with 2 free, the earlier queue (qa) wins
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 2),
                                pg_temp.j('r', 'rob', 'hi', 'R', 4, host => 'ha')]);
-- two jobs in one cycle: the second sees the first's CPUs taken (8 on ha, then 8 on hb)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 8, '1:00'),
                                pg_temp.j('b', 'bob', 'hi', 'Q', 8, '2:00')]);
-- 9 CPUs fit nowhere: the reason of the last queue examined, as the original posts it
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 9)]);
-- exec_host "hb/0+hb/1" (PBS's form) is read as the host hb
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('s', 'sue', 'hi', 'S', 2, used => '1:00', host => 'hb/0+hb/1')]);
-- a down host and a host without a row (no MOM data) take nothing
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          hosts => ARRAY[pg_temp.h('ha', 8, up => false), pg_temp.h('hc', 4)]);
-- the queue's host may come from its msic_queue row when BATCH_QUEUES has no @host
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          queues => ARRAY[pg_temp.q('qa', '{"host": "hb"}')],
                          config => pg_temp.cfg('{"batch_queues": ["qa"], "batch_hosts": [null]}'));

-- ---------------------------------------------------------------- the comments
-- each check on a single queue qa@ha (8 CPUs, 64 GB), job "a" of hi (under share, 1 CPU)
SELECT t, r FROM (VALUES
  ('not enabled', pg_temp.q('qa', '{"enabled": false}')),
  ('not started', pg_temp.q('qa', '{"started": false}')),
  ('walltime minimum', pg_temp.q('qa', '{"min_walltime": "11:00"}')),
  ('walltime limit', pg_temp.q('qa', '{"max_walltime": "2:00"}')),
  ('CPU minimum', pg_temp.q('qa', '{"min_ncpus": 2}')),
  ('memory minimum', pg_temp.q('qa', '{"min_mem": 2e9}')),
  ('memory limit', pg_temp.q('qa', '{"max_mem": 5e8}')),
  ('run limit', pg_temp.q('qa', '{"max_running": 0}'))) AS v(t, qq),
  LATERAL pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[qq],
                      config => pg_temp.cfg1()) AS r;
-- queue limits already reached by running jobs (of hi: never victims of a hi job)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1), pg_temp.j('r', 'rob', 'hi', 'R', 4, host => 'ha')],
                          queues => ARRAY[pg_temp.q('qa', '{"max_ncpus": 4}')], config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1), pg_temp.j('r', 'rob', 'hi', 'R', 4, host => 'ha')],
                          queues => ARRAY[pg_temp.q('qa', '{"max_mem": 1e9}')], config => pg_temp.cfg1());
-- a job above the queue's CPU limit
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 6)],
                          queues => ARRAY[pg_temp.q('qa', '{"max_ncpus": 4}')], config => pg_temp.cfg1());
-- more memory than the host has; then more than it has free (6 GB used of 8)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"mem": 16e9}')],
                          hosts => ARRAY[pg_temp.h('ha', 8, mem => 8e9)], config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"mem": 4e9}'),
                                pg_temp.j('r', 'rob', 'hi', 'R', 1, host => 'ha', extra => '{"mem": 6e9}')],
                          hosts => ARRAY[pg_temp.h('ha', 8, mem => 8e9)], config => pg_temp.cfg1());
-- the CPUs: 6 of 8 busy with hi jobs, 4 asked
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 4), pg_temp.j('r', 'rob', 'hi', 'R', 6, host => 'ha')],
                          config => pg_temp.cfg1());
-- another architecture
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"arch": "sparc"}')],
                          config => pg_temp.cfg1());
-- a checkpointed job waits for the host that holds its checkpoint
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('c', 'cat', 'hi', 'Q', 1, used => '1:00', host => 'hb')],
                          config => pg_temp.cfg1());
-- max_user_run counts the owner's running jobs in the queue (the original counted the others)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1), pg_temp.j('r', 'ann', 'hi', 'R', 1, host => 'ha')],
                          queues => ARRAY[pg_temp.q('qa', '{"max_user_run": 1}')], config => pg_temp.cfg1());
-- all destination queues too full: a suspended job (not express, not waiting) with every host's
-- CPUs allocated is skipped before any placement
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('s', 'sue', 'hi', 'S', 2, used => '1:00', host => 'ha'),
                                pg_temp.j('r', 'rob', 'hi', 'R', 8, host => 'ha')],
                          config => pg_temp.cfg1());
-- UPDATE_COMMENTS off: no comments, the run decisions still come
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 9), pg_temp.j('b', 'bob', 'hi', 'Q', 1)],
                          config => pg_temp.cfg('{"update_comments": false}'));

-- ---------------------------------------------------------------- the load gate
-- A 64-CPU host: the administrator's guide's band is (90 - 15)% to (90 + 10)% of 64, i.e. 48 to 64, and below
-- 90% (57.6) a job may still start. 47.99 and 48 start; 57.6 and 64 are inside the upper band
-- ("Done."); 64.01 is above it.
SELECT l, r FROM unnest(ARRAY[47.99, 48, 57.59, 57.6, 64, 64.01]) AS l,
  LATERAL pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                      hosts => ARRAY[pg_temp.h('ha', 64, load => l)], config => pg_temp.cfg1()) AS r;
-- the original's thresholds never divided by 100 (75 to 100 times the CPUs): load_unscaled
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          hosts => ARRAY[pg_temp.h('ha', 64, load => 4000)], config => pg_temp.cfg1(),
                          compat => '{load_unscaled}');
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          hosts => ARRAY[pg_temp.h('ha', 64, load => 6400.5)], config => pg_temp.cfg1(),
                          compat => '{load_unscaled}');
-- a job started in the cycle adds its CPUs to the load: 8 CPUs, load 5 (62.5%, below 75%: a
-- starts); then 7 = 87.5% (inside the band but below 90%: b starts); then 9, above 100% of 8:
-- too high
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 2, '1:00'), pg_temp.j('b', 'bob', 'hi', 'Q', 2, '2:00'),
                                pg_temp.j('c', 'cat', 'hi', 'Q', 2, '3:00')],
                          hosts => ARRAY[pg_temp.h('ha', 8, load => 5)], config => pg_temp.cfg1());
-- memory all allocated: the gate says so
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"mem": 0}'),
                                pg_temp.j('r', 'rob', 'hi', 'R', 1, host => 'ha', extra => '{"mem": 8e9}')],
                          hosts => ARRAY[pg_temp.h('ha', 8, mem => 8e9)], config => pg_temp.cfg1());

-- ---------------------------------------------------------------- prime time
-- Prime time 08:00-17:00 on weekdays, at most 4 hours of a run inside it. Friday 2026-12-04
-- 14:00: a 72-hour run ends Monday 14:00 and has 3 h (Fri 14-17) + 6 h (Mon 08-14) = 9 h of
-- prime time: refused. A 60-hour run ends Monday 02:00: 3 h, allowed. An express job is exempt.
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('long', 'ann', 'hi', 'Q', 1, '72:00'),
                                pg_temp.j('short', 'bob', 'hi', 'Q', 1, '60:00'),
                                pg_temp.j('x', 'xan', 'special', 'Q', 1, '72:00')],
                          config => pg_temp.cfg1('{"enforce_prime_time": true, "prime_time_start": "08:00",
                                                   "prime_time_end": "17:00", "prime_time_wallt_limit": "04:00:00"}'),
                          at => '2026-12-04 14:00+00');
-- the date form: enforced only from its date on
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('long', 'ann', 'hi', 'Q', 1, '72:00')],
                          config => pg_temp.cfg1('{"enforce_prime_time": true, "prime_time_from": "2026-12-05",
                                                   "prime_time_start": "08:00", "prime_time_end": "17:00",
                                                   "prime_time_wallt_limit": "04:00:00"}'),
                          at => '2026-12-04 14:00+00');
-- across a clock change of the session time zone: Samoa skipped Friday 2011-12-30, so 72 hours
-- from Wednesday midnight hold 20 hours of 08:00-18:00 prime time (Wednesday, Thursday), not 30:
-- allowed under a limit of 20 hours, refused under 19:59:59
SET timezone = 'Pacific/Apia';
SELECT l AS prime_time_wallt_limit, c.*
FROM unnest(ARRAY['20:00:00', '19:59:59']) AS l,
     pg_temp.cyc(ARRAY[pg_temp.j('long', 'ann', 'hi', 'Q', 1, '72:00')],
                 config => pg_temp.cfg1(jsonb_build_object('enforce_prime_time', true,
                     'prime_time_start', '08:00', 'prime_time_end', '18:00',
                     'prime_time_wallt_limit', l)),
                 at => '2011-12-28 00:00') AS c;
SET timezone = 'UTC';

-- ---------------------------------------------------------------- preemption
-- An express job of 4 CPUs on full hosts: qa's host has two 2-CPU low (over share) jobs, qb's one
-- 4-CPU low job, qc's a hi job. qb needs one victim, qa two: qb wins although qa comes first.
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 4),
                                pg_temp.j('a1', 'ann', 'low', 'R', 2, used => '1:00', host => 'ha'),
                                pg_temp.j('a2', 'ann', 'low', 'R', 2, used => '2:00', host => 'ha'),
                                pg_temp.j('a3', 'ann', 'hi', 'R', 4, host => 'ha'),
                                pg_temp.j('b1', 'bob', 'low', 'R', 4, used => '1:00', host => 'hb'),
                                pg_temp.j('b2', 'bob', 'hi', 'R', 4, host => 'hb'),
                                pg_temp.j('c1', 'cat', 'hi', 'R', 4, host => 'hc')]);
-- equal victim counts: qa (a1, 8 CPUs) and qb (b1 or b2, 4 CPUs) need one victim each: the
-- earlier queue, qa
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 4),
                                pg_temp.j('a1', 'ann', 'low', 'R', 8, used => '1:00', host => 'ha'),
                                pg_temp.j('b1', 'bob', 'low', 'R', 4, used => '8:00', host => 'hb'),
                                pg_temp.j('b2', 'bob', 'low', 'R', 4, used => '1:00', host => 'hb'),
                                pg_temp.j('c1', 'cat', 'hi', 'R', 4, host => 'hc')]);
-- as many victims as needed (the original stopped at most two): 8 CPUs from four 2-CPU jobs,
-- the one with the least time left first
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('a1', 'ann', 'low', 'R', 2, used => '1:00', host => 'ha'),
                                pg_temp.j('a2', 'ann', 'low', 'R', 2, used => '2:00', host => 'ha'),
                                pg_temp.j('a3', 'ann', 'low', 'R', 2, used => '3:00', host => 'ha'),
                                pg_temp.j('a4', 'ann', 'low', 'R', 2, used => '4:00', host => 'ha')],
                          config => pg_temp.cfg1());
-- never victims: a running express job and a running long-waiting job (hi, eligible 6 days ago,
-- under share); the rest of the host is a hi job (under share: not a candidate of the first
-- search), taken in the second
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 2),
                                pg_temp.j('e', 'eve', 'special', 'R', 2, host => 'ha'),
                                pg_temp.j('w', 'wes', 'hi', 'R', 4, host => 'ha', extra => '{"ctime": "2026-11-25 09:00+00"}'),
                                pg_temp.j('h', 'hal', 'hi', 'R', 2, host => 'ha')],
                          config => pg_temp.cfg1());
-- nothing but express and long-waiting jobs: no room, the placement's reason
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 4),
                                pg_temp.j('e', 'eve', 'special', 'R', 4, host => 'ha'),
                                pg_temp.j('w', 'wes', 'hi', 'R', 4, host => 'ha', extra => '{"ctime": "2026-11-25 09:00+00"}')],
                          config => pg_temp.cfg1());
-- an under-share job (hi, rank 0.125) takes the place of an over-share one (low, 1.875) ...
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('h', 'hal', 'hi', 'Q', 8),
                                pg_temp.j('l', 'lou', 'low', 'R', 8, used => '1:00', host => 'ha')],
                          config => pg_temp.cfg1());
-- ... but never of an under-share job, and a job over share never of one under it
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('h', 'hal', 'hi', 'Q', 8),
                                pg_temp.j('i', 'ida', 'hi', 'R', 8, used => '1:00', host => 'ha')],
                          config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('l', 'lou', 'low', 'Q', 8),
                                pg_temp.j('i', 'ida', 'hi', 'R', 8, used => '1:00', host => 'ha')],
                          config => pg_temp.cfg1());
-- An over-share job may only take the place of an over-share job of its own queue and rank,
-- of another owner, beyond that owner's soft limit: low's limit is 5% of 20 CPUs = 1 running
-- job; bob runs two low jobs and has one queued, so his second running job (b2) is RUNLIMIT.
-- ann's queued low job takes b2's place, not b1's.
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'low', 'Q', 4),
                                pg_temp.j('b1', 'bob', 'low', 'R', 4, used => '1:00', host => 'ha'),
                                pg_temp.j('b2', 'bob', 'low', 'R', 4, used => '2:00', host => 'ha'),
                                pg_temp.j('b3', 'bob', 'low', 'Q', 4, '11:00')],
                          config => pg_temp.cfg1('{"fair_share": [{"queue": "low", "shares": 40, "max_run_pct": 5},
                                                                  {"queue": "hi", "shares": 40, "max_run_pct": 50},
                                                                  {"queue": "special", "shares": 20, "max_run_pct": 50}]}'));

-- ---------------------------------------------------------------- stopping a victim
-- SUSPEND_THRESHOLD 10: the administrator's guide suspends when more than 10% of the walltime is left. 9 h of
-- 10 used leaves exactly 10%: checkpoint; 8:59:59 used leaves 10.003%: suspend. The original
-- (suspend_below_threshold) does the opposite.
SELECT u, c, r FROM unnest(ARRAY['9:00'::interval, '8:59:59']) AS u,
  (VALUES ('{}'::text[]), ('{suspend_below_threshold}')) AS v(c),
  LATERAL pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                            pg_temp.j('v', 'vic', 'low', 'R', 8, used => u, host => 'ha')],
                      config => pg_temp.cfg1(), compat => c) AS r;
-- a job past its walltime counts as having 180 s left (the original's JOB_OVERTIME_SLOP): 0.5%
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('v', 'vic', 'low', 'R', 8, used => '11:00', host => 'ha')],
                          config => pg_temp.cfg1(), compat => '{suspend_below_threshold}');
-- the suspend fails: checkpoint instead
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('v', 'vic', 'low', 'R', 8, used => '1:00', host => 'ha',
                                          extra => '{"suspend_fails": true}')],
                          config => pg_temp.cfg1());
-- the checkpoint fails: requeue with FORCE_REQUEUE (the administrator's guide; the original ignored it) ...
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('v', 'vic', 'low', 'R', 8, used => '9:30', host => 'ha',
                                          extra => '{"checkpoint_fails": true}')],
                          config => pg_temp.cfg1('{"force_requeue": true}'));
-- ... and without it the victim keeps running and the search starts again: qb's job is next
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('v', 'vic', 'low', 'R', 8, used => '9:30', host => 'ha',
                                          extra => '{"checkpoint_fails": true}'),
                                pg_temp.j('w', 'wil', 'low', 'R', 8, used => '9:00', host => 'hb')]);
-- every stop fails: a fail row per attempt, then the comment (the original recursed forever)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('x', 'xan', 'special', 'Q', 8),
                                pg_temp.j('v', 'vic', 'low', 'R', 8, used => '1:00', host => 'ha',
                                          extra => '{"suspend_fails": true, "checkpoint_fails": true}')],
                          config => pg_temp.cfg1());

-- ---------------------------------------------------------------- resume, charges
-- a suspended job resumes on its own host (qb), not on the emptier qa
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('s', 'sue', 'hi', 'S', 2, used => '1:00', host => 'hb'),
                                pg_temp.j('r', 'rob', 'hi', 'R', 4, host => 'hb')]);
-- The charges: a low job of 4 CPUs and 10 h walltime started at 10:00 adds 4 * 600 = 2400
-- CPU-minutes to low and sets today_max = 20 CPUs * 600 minutes = 12000; the resumed hi job and
-- the restarted checkpointed low job are not charged (the original charged the resumed one again).
SELECT * FROM msic_cycle_shares(pg_temp.cfg(), pg_temp.shares(),
  ARRAY[pg_temp.h('ha', 8), pg_temp.h('hb', 8), pg_temp.h('hc', 4)],
  ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
  ARRAY[pg_temp.j('n', 'nat', 'low', 'Q', 4), pg_temp.j('s', 'sue', 'hi', 'S', 2, used => '1:00', host => 'hb'),
        pg_temp.j('c', 'cat', 'low', 'Q', 2, used => '1:00', host => 'hc')],
  '2026-12-01 10:00+00', 20);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('n', 'nat', 'low', 'Q', 4), pg_temp.j('s', 'sue', 'hi', 'S', 2, used => '1:00', host => 'hb'),
                                pg_temp.j('c', 'cat', 'low', 'Q', 2, used => '1:00', host => 'hc')]);
-- the rank as the original computes it (compat rank_usage): the past percentage truncated, over
-- share above 100; low (75) is then under share and no victim of hi (10)
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('h', 'hal', 'hi', 'Q', 8),
                                pg_temp.j('l', 'lou', 'low', 'R', 8, used => '1:00', host => 'ha')],
                          config => pg_temp.cfg1(), compat => '{rank_usage}');

-- ---------------------------------------------------------------- edges and errors
SELECT count(*) FROM msic_cycle(pg_temp.cfg(), NULL, ARRAY[]::msic_host[], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                                ARRAY[]::msic_job[], '2026-12-01 10:00+00', 20);
SELECT count(*) FROM msic_cycle(pg_temp.cfg(), NULL, NULL, NULL, NULL, '2026-12-01 10:00+00', 20);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], compat => '{fast}');
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], compat => '{NULL}');
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa'), pg_temp.q('qb')]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa'), pg_temp.q('qa')]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], hosts => ARRAY[pg_temp.h('ha', 8), pg_temp.h('ha', 4)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], hosts => ARRAY[pg_temp.h('ha', -1)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], hosts => ARRAY[pg_temp.h('ha', 8, mem => 'NaN')]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], hosts => ARRAY[pg_temp.h(NULL, 8)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], hosts => ARRAY[pg_temp.h('', 8)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa', '{"host": "hz"}')],
                          config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa')],
                          config => pg_temp.cfg('{"batch_queues": ["qa"], "batch_hosts": [null]}'));
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa', '{"max_ncpus": -4}')],
                          config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], queues => ARRAY[pg_temp.q('qa', '{"max_walltime": "-1:00"}')],
                          config => pg_temp.cfg1());
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], config => pg_temp.cfg('{"batch_hosts": ["ha"]}'));
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], config => pg_temp.cfg('{"target_load_pct": "Infinity"}'));
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'R', 1)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'S', 1)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', -1)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', NULL)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"mem": -1}')]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1), pg_temp.j('a', 'bob', 'hi', 'Q', 1)]);
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, '2000000:00')],
                          config => pg_temp.cfg1('{"enforce_prime_time": true, "prime_time_start": "08:00",
                                                   "prime_time_end": "17:00", "prime_time_wallt_limit": "04:00:00"}'));
SELECT * FROM msic_cycle(pg_temp.cfg(), pg_temp.shares(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                         ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)], '2026-12-01 10:00+00', 0);
-- the schema-qualified call with search_path unset
CREATE TEMP TABLE args AS SELECT pg_temp.cfg() AS c, ARRAY[pg_temp.h('ha', 8)] AS h,
  ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')] AS q, ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)] AS j;
SET search_path = '';
SELECT r.action, r.job_id FROM pg_temp.args,
  LATERAL fairsched.msic_cycle(c, NULL, h, q, j, '2026-12-01 10:00+00', 20) AS r;
SELECT count(*) FROM pg_temp.args,
  LATERAL fairsched.msic_replay(c, h, q, j, '2026-12-01 08:00+00', '2026-12-02 08:00+00') AS r;
SET search_path = fairsched, public;

-- ---------------------------------------------------------------- replay
-- A hand-checked day on qa@ha (8 CPUs) and qb@hb (4 CPUs), 12 cluster CPUs, 5-minute cycles:
--   j1 low 8 CPUs, 10 h asked, runs 2 h, submitted 08:00: starts at 08:00 on ha.
--   j2 hi 4 CPUs, 3 h, submitted 08:02: starts at the 08:05 cycle on hb.
--   j3 express 6 CPUs, 1 h, submitted 09:00: j1 (90% left) is suspended, j3 starts on ha.
--   j4 hi 2 CPUs, 1 h, submitted 09:01: the 2 CPUs left on ha at 09:05.
--   j1 waits (all full), then at 10:00 (j3 ended, j4 still on ha) cannot fit its 8 CPUs; at
--   10:05 j4 has ended and j1 resumes on ha, runs its remaining hour and ends 11:05; j2 ends
--   11:05 too. Charges (CPU-minutes of asked walltime): low 8 * 600 = 4800, hi 4 * 180 + 2 * 60
--   = 840, special 6 * 60 = 360; today_max = 12 * minutes since midnight at the queue's last
--   charge: low 08:00 -> 5760, hi 09:05 -> 6540, special 09:00 -> 6480. The resumed j1 is not
--   charged again. At 23:00 each queue rolls over (past < 1: the history restarts at today's
--   percentage): low 4800 / 5760 = 83.33%, hi 840 / 6540 = 12.84%, special 360 / 6480 = 5.56%.
CREATE TEMP TABLE subs AS SELECT ARRAY[
  pg_temp.j('j1', 'ann', 'low', 'Q', 8, '10:00', '2:00', extra => '{"ctime": "2026-12-01 08:00+00"}'),
  pg_temp.j('j2', 'bob', 'hi', 'Q', 4, '3:00', extra => '{"ctime": "2026-12-01 08:02+00"}'),
  pg_temp.j('j3', 'cat', 'special', 'Q', 6, '1:00', extra => '{"ctime": "2026-12-01 09:00+00"}'),
  pg_temp.j('j4', 'dan', 'hi', 'Q', 2, '1:00', extra => '{"ctime": "2026-12-01 09:01+00"}')] AS s;
SELECT at, step, action, job_id, queue, host, reason, share
FROM msic_replay(pg_temp.cfg('{"batch_queues": ["qa", "qb"], "batch_hosts": ["ha", "hb"]}'),
                 ARRAY[pg_temp.h('ha', 8), pg_temp.h('hb', 4)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb')],
                 (SELECT s FROM subs), '2026-12-01 08:00+00', '2026-12-02 12:00+00')
ORDER BY at, action = 'share', step, queue;
-- the same day with 10-minute cycles and a given start state: j2 and j4 wait for the cycle
SELECT at, action, job_id, host FROM msic_replay(
  pg_temp.cfg('{"batch_queues": ["qa", "qb"], "batch_hosts": ["ha", "hb"]}'),
  ARRAY[pg_temp.h('ha', 8), pg_temp.h('hb', 4)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb')],
  (SELECT s FROM subs), '2026-12-01 08:00+00', '2026-12-01 12:00+00', '10 minutes',
  shares => pg_temp.shares())
WHERE action <> 'comment' ORDER BY at, step, job_id;
-- the CPU-hours each originating queue got: every stretch from a run or resume to the next
-- suspend, checkpoint, requeue or end of the job. low: j1 08:00-09:00 and 10:05-11:05 on 8 CPUs
-- = 16; hi: j2 08:05-11:05 on 4 = 12 and j4 09:05-10:05 on 2 = 2, 14; special: j3 09:00-10:00
-- on 6 = 6.
SELECT j.queue, sum(extract(epoch FROM e.at - e.since) / 3600 * j.ncpus) AS cpu_hours
FROM (SELECT r.job_id, r.action, r.at, lag(r.at) OVER w AS since
      FROM msic_replay(pg_temp.cfg('{"batch_queues": ["qa", "qb"], "batch_hosts": ["ha", "hb"]}'),
                       ARRAY[pg_temp.h('ha', 8), pg_temp.h('hb', 4)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb')],
                       (SELECT s FROM subs), '2026-12-01 08:00+00', '2026-12-02 12:00+00') AS r
      WHERE r.action IN ('run', 'resume', 'suspend', 'checkpoint', 'requeue', 'end')
      WINDOW w AS (PARTITION BY r.job_id ORDER BY r.at, r.step)) AS e
JOIN unnest((SELECT s FROM subs)) AS j ON j.job_id = e.job_id
WHERE e.action IN ('suspend', 'checkpoint', 'requeue', 'end')
GROUP BY j.queue ORDER BY j.queue;
-- errors
SELECT * FROM msic_replay(pg_temp.cfg(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                          (SELECT s FROM subs), '2026-12-01 08:00+00', '2026-12-02 12:00+00', '0 seconds');
SELECT * FROM msic_replay(pg_temp.cfg(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                          (SELECT s FROM subs), '2026-12-02 08:00+00', '2026-12-01 12:00+00');
SELECT * FROM msic_replay(pg_temp.cfg(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                          (SELECT s FROM subs), '2026-12-01 08:00+00', '2126-12-01 12:00+00', '1 second');
SELECT * FROM msic_replay(pg_temp.cfg(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                          ARRAY[pg_temp.j('r', 'rob', 'hi', 'R', 1, host => 'ha')], '2026-12-01 08:00+00', '2026-12-01 12:00+00');
SELECT * FROM msic_replay(pg_temp.cfg(), ARRAY[pg_temp.h('ha', 8)], ARRAY[pg_temp.q('qa'), pg_temp.q('qb'), pg_temp.q('qc')],
                          ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1, extra => '{"ctime": null, "etime": "2026-12-01 08:00+00"}')],
                          '2026-12-01 08:00+00', '2026-12-01 12:00+00');
-- a replay stops when cancelled
SET statement_timeout = '300ms';
SELECT count(*) FROM msic_replay(pg_temp.cfg1(), ARRAY[pg_temp.h('ha', 1)], ARRAY[pg_temp.q('qa')],
  (SELECT array_agg(pg_temp.j('j' || i, 'u' || i % 7, 'hi', 'Q', 1, '100:00', extra => '{"ctime": "2026-12-01 08:00+00"}'))
   FROM generate_series(1, 2000) i), '2026-12-01 08:00+00', '2027-12-01 08:00+00', '1 minute');
RESET statement_timeout;

-- the configuration value follows the file's rules: a repeated batch queue, a negative
-- PRIME_TIME_WALLT_LIMIT, a FAIR_SHARE queue name with a space
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          config => pg_temp.cfg('{"batch_queues": ["qa", "qb", "qa"], "batch_hosts": ["ha", "hb", "ha"]}'));
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          config => pg_temp.cfg1('{"enforce_prime_time": true, "prime_time_start": "08:00",
                                                   "prime_time_end": "17:00", "prime_time_wallt_limit": "-04:00:00"}'));
SELECT * FROM pg_temp.cyc(ARRAY[pg_temp.j('a', 'ann', 'hi', 'Q', 1)],
                          config => pg_temp.cfg('{"fair_share": [{"queue": "lo w", "shares": 40, "max_run_pct": 50},
                                                                {"queue": "hi", "shares": 60, "max_run_pct": 50}]}'));
