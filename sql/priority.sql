-- priority: PBS's job_sort_formula: the pbs_formula type, PBS's validation (15123, 15124, 15125)
-- with a resourcedef, and pbs_formula_value (units, decimals, float32, the fairshare keywords of
-- the PP-718 design, evaluation errors)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- ---------------------------------------------------------------- validation
-- the formulas PBS's own tests accept (the fairshare keywords) and the one they refuse
SELECT pbs_formula('fairshare_tree_usage') AS a, pbs_formula('fairshare_perc') AS b,
       pbs_formula('pow(2,-(fairshare_tree_usage/fairshare_perc))') AS c,
       pbs_formula('fairshare_factor') AS d;
SELECT pbs_formula('fair_share_factor');
SELECT pbs_formula('ncpus +');
SELECT pbs_formula('ncpus * arch');
-- an unknown name is reported before a resource of the wrong type, as PBS's two passes do
SELECT pbs_formula('arch + nosuch');
-- every keyword and the Python the scheduler evaluates
SELECT pbs_formula('eligible_time / 3600 + queue_priority + job_priority + fair_share_perc + accrue_type'
                   || ' + (10 if ncpus >= 8 and not mem < 1048576 else 0) + max(walltime, 1) // 60 % 7');
-- what PBS accepts at qmgr time but can never evaluate: refused here
SELECT pbs_formula('x = ncpus');
SELECT pbs_formula('ncpus; 1');
SELECT pbs_formula('ncpus + "1"');
-- a division by zero is accepted, as in PBS (the job then gets 0)
SELECT pbs_formula('ncpus / 0');
-- custom resources: the formula of a PBS server-restart report, refused without its resourcedef
-- (paws and bias are not resources PBS has) and valid with it
SELECT pbs_formula('queue_priority + (0.005 * ncpus) + (0.000277778 * eligible_time) + paws + bias');
SELECT pbs_formula('queue_priority + (0.005 * ncpus) + (0.000277778 * eligible_time) + paws + bias',
                   E'# site resources\npaws type=float\nbias type=float flag=i\n');
-- a custom resource's value comes from the job's requested resources like a built-in one's
SELECT pbs_formula_value(pbs_formula('paws * 2 + ngpus', E'paws type=float\nngpus type=long'),
                         'paws=1.25,ngpus=2') AS custom;
SELECT pbs_formula('ngpus * tag', E'ngpus type=long flag=nh\ntag type=string flag=h');
-- resourcedef errors
SELECT pbs_formula('ngpus', 'ngpus');
SELECT pbs_formula('ngpus', 'ngpus type=int');
SELECT pbs_formula('ngpus', 'ngpus type=long flag=z');
SELECT pbs_formula('ngpus', 'ngpus type=long colour=red');
SELECT pbs_formula('ngpus', E'ngpus type=long\nngpus type=float');
SELECT pbs_formula('ngpus', 'ncpus type=long');
SELECT pbs_formula('ngpus', '1gpu type=long');
SELECT pbs_formula(NULL) IS NULL AS null_formula, pbs_formula('ncpus', NULL) AS null_resourcedef;

-- ---------------------------------------------------------------- the type
-- prints as written and reads back; its input is PBS's validation with the built-in resources
-- (a call pbs_formula('...') on a literal is that input: the same errors)
SELECT 'ncpus  *  2 + walltime'::pbs_formula AS f,
       'ncpus  *  2 + walltime'::pbs_formula::text::pbs_formula AS back,
       pbs_formula('ncpus' || ' * 2'::text) AS from_text;
SELECT 'ncpus * paws'::pbs_formula;
SELECT pbs_formula('ncpus * paws'::text);
SELECT 'ncpus +'::pbs_formula;
SELECT 'host * 2'::pbs_formula;
-- a formula with custom resources is stored with its resourcedef after a "#resourcedef" line, so
-- that its text reads back (a dump, a cast) and values the same; one with built-in resources only
-- is stored alone, whatever resourcedef validated it
CREATE TEMP TABLE site_formula AS
SELECT pbs_formula('ncpus * paws + bias', E'paws type=float\nbias type=long flag=i') AS f,
       pbs_formula('ncpus * 2', E'paws type=float') AS builtin_only;
SELECT f, builtin_only FROM site_formula;
SELECT f::text::pbs_formula::text = f::text AS reads_back,
       pbs_formula_value(f::text::pbs_formula, 'ncpus=4,paws=0.5,bias=3') AS value_after,
       pbs_formula_value(f, 'ncpus=4,paws=0.5,bias=3') AS value_before
FROM site_formula;
-- the stored resourcedef is validated on input like an argument's
SELECT E'ncpus * paws\n#resourcedef\npaws type=string'::pbs_formula;
SELECT E'ncpus * paws\n#resourcedef\n'::pbs_formula;
DROP TABLE site_formula;

-- ---------------------------------------------------------------- values
-- units: mem in kb (1025 bytes is 2 kb), walltime in seconds, a resource not requested is 0
SELECT pbs_formula_value('mem', 'mem=1gb') AS mem_kb, pbs_formula_value('mem', 'mem=1025b') AS kb_up,
       pbs_formula_value('walltime', 'walltime=00:30:00') AS walltime_s,
       pbs_formula_value('ncpus + mpiprocs', 'ncpus=4') AS unrequested_0;
-- resources with at most 4 decimals; the value a 32-bit float (100000001 and 100000002 tie)
SELECT pbs_formula_value(pbs_formula('x * 10000', 'x type=float'), 'x=0.123456') AS four_decimals,
       pbs_formula_value('100000001', '') AS f1, pbs_formula_value('100000002', '') AS f2,
       pbs_formula_value('0.1', '') AS float32_tenth;
-- the keywords, negative priorities included; eligible_time in whole seconds
SELECT pbs_formula_value('queue_priority * 1000 + job_priority', '', queue_priority => 150,
                         job_priority => -1024) AS prio,
       pbs_formula_value('eligible_time', '', eligible_time => '01:00:00.9') AS eligible_s,
       pbs_formula_value('accrue_type', '', accrue_type => 2) AS accrue;
-- the fairshare keywords with 6 decimals
SELECT pbs_formula_value('fairshare_perc * 1e6', '', fairshare_perc => 0.1234567) AS perc6,
       pbs_formula_value('fair_share_perc', '', fairshare_perc => 0.5) AS deprecated_name;

-- the PP-718 design note's tree: Bob 0.648 before Suzy 0.382, despite Suzy's larger perc
CREATE TABLE pp718 AS
SELECT share_tree(p::sharepath, s, u) AS t
FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
     AS rows(p, s, u);
SELECT leaf(f.path) AS entity,
       round(pbs_formula_value('fairshare_factor', '', fairshare_perc => f.norm_shares,
                               fairshare_tree_usage => f.effective_usage)::numeric, 3) AS factor,
       round(pbs_formula_value('pow(2, -(fairshare_tree_usage / fairshare_perc))', '',
                               fairshare_perc => f.norm_shares,
                               fairshare_tree_usage => f.effective_usage)::numeric, 3) AS as_formula
FROM pp718, fairshare(t) f WHERE f.is_leaf ORDER BY factor DESC, entity;
-- fairshare_perc = 0 (an entity under unknown with no shares): the keyword is 0; dividing by
-- the perc is PBS's ZeroDivisionError, which gives 0 and PBS's log line as a NOTICE
SELECT pbs_formula_value('fairshare_factor', '', fairshare_perc => 0, fairshare_tree_usage => 0.3) AS keyword,
       pbs_formula_value('pow(2, -(fairshare_tree_usage / fairshare_perc))', '',
                         fairshare_perc => 0, fairshare_tree_usage => 0.3) AS formula;
SELECT pbs_formula_value('pow(2, -(fairshare_tree_usage / fairshare_perc))', '',
                         fairshare_perc => 0, on_error => 'raise');
SELECT pbs_formula_value('ncpus', 'ncpus=1', on_error => 'ignore');

-- ---------------------------------------------------------------- evaluation errors and edges
SELECT pbs_formula_value('sqrt(-ncpus)', 'ncpus=4') AS domain,
       pbs_formula_value('exp(1000)', '') AS range,
       pbs_formula_value('10.0 ** 400', '') AS pow_overflow,
       pbs_formula_value('(-8) ** 0.5', '') AS complex,
       pbs_formula_value('int(inf)', '') AS int_inf;
SELECT pbs_formula_value('log(0)', '', on_error => 'raise');
SELECT pbs_formula_value('ncpus % 0', 'ncpus=2', on_error => 'raise');
-- infinities and NaN as Python's floats produce them; beyond a float's range an infinity
SELECT pbs_formula_value('1e308 * 10', '') AS inf, pbs_formula_value('inf - inf', '') AS nan,
       pbs_formula_value('1e39', '') AS beyond_float, pbs_formula_value('1e999', '') AS huge_literal;
-- the value of a conditional, and short-circuits that skip an error
SELECT pbs_formula_value('1/0 if ncpus < 1 else ncpus * 2', 'ncpus=3') AS cond,
       pbs_formula_value('ncpus > 2 or 1/0', 'ncpus=3') AS short_or;
-- nesting and length limits
SELECT pbs_formula(repeat('(', 65) || '1' || repeat(')', 65));
SELECT pbs_formula(repeat('not ', 100000) || '1');
SELECT pbs_formula(repeat('1+', 600000) || '1');
-- a long flat formula is fine, and one query compiles it once for all its rows
SELECT pbs_formula_value(pbs_formula('ncpus' || repeat(' + ncpus', 99999)), 'ncpus=2') AS long_sum;
SELECT sum(pbs_formula_value('ncpus * walltime / 3600 + fairshare_factor', ('ncpus=' || i || ',walltime=01:00:00')::resvec,
                             fairshare_perc => 0.5, fairshare_tree_usage => 0.5)) AS rows_1000
FROM generate_series(1, 1000) i;
SELECT pbs_formula_value(NULL, 'ncpus=1') IS NULL AS null_formula,
       pbs_formula_value('ncpus + 1', NULL) AS null_requested;

-- ---------------------------------------------------------------- the job order (pbs_job_order)
-- OpenPBS's threshold test: ceil(fabs(-ncpus*(mem/100.00)*sqrt(walltime))) gives 6, 7, 8, 9 for
-- mem 300kb, 350kb, 380kb, 440kb with walltime 4; threshold 7 keeps 6 and 7 (at or below) off
SELECT * FROM pbs_job_order('ceil(fabs(-ncpus*(mem/100.00)*sqrt(walltime)))', ARRAY[
    ROW('1.svr', NULL, 'workq', 0, NULL, 0, 'ncpus=1,mem=300kb,walltime=4', NULL, NULL, NULL),
    ROW('2.svr', NULL, 'workq', 0, NULL, 0, 'ncpus=1,mem=350kb,walltime=4', NULL, NULL, NULL),
    ROW('3.svr', NULL, 'workq', 0, NULL, 0, 'ncpus=1,mem=380kb,walltime=4', NULL, NULL, NULL),
    ROW('4.svr', NULL, 'workq', 0, NULL, 0, 'ncpus=1,mem=440kb,walltime=4', NULL, NULL, NULL)
]::pbs_job[], threshold => 7);
-- OpenPBS's negative-value test: a float custom resource foo, -1 goes before -2
SELECT pos, job_id, value, decided_by FROM pbs_job_order(pbs_formula('foo', 'foo type=float'), ARRAY[
    ROW('1.svr', NULL, 'workq', 0, NULL, 0, 'foo=-2', NULL, NULL, NULL),
    ROW('2.svr', NULL, 'workq', 0, NULL, 0, 'foo=-1', NULL, NULL, NULL)]::pbs_job[]);
-- OpenPBS's multisched test: formula ncpus; the scheduler of partition P3 has threshold 2, the
-- default one none: the same ncpus=1 job is under it in wq1 and runs in workq
SELECT 'sc3' AS sched, job_id, value, eligible, comment
FROM pbs_job_order('ncpus', ARRAY[ROW('1.svr', NULL, 'wq1', 0, NULL, 0, 'ncpus=1', NULL, NULL, NULL)]::pbs_job[],
                   threshold => 2)
UNION ALL
SELECT 'default', job_id, value, eligible, comment
FROM pbs_job_order('ncpus', ARRAY[ROW('2.svr', NULL, 'workq', 0, NULL, 0, 'ncpus=1', NULL, NULL, NULL)]::pbs_job[]);

-- the PP-718 tree with fairshare_factor as the formula: Bob (group1.Bob, 0.648) before Suzy
-- (0.382) before scott (0.090); an owner may be a path or an entity's name; one not in the tree
-- has fairshare_perc 0, so fairshare_factor 0
CREATE TABLE pp718pbs AS
SELECT share_tree(p::sharepath, s, u) AS t
FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
     AS rows(p, s, u);
SELECT o.pos, o.job_id, round(o.value::numeric, 3) AS value, o.decided_by
FROM pp718pbs, pbs_job_order('fairshare_factor', ARRAY[
    ROW('10.s', 'Suzy', 'workq', 0, NULL, 0, NULL, NULL, NULL, NULL),
    ROW('11.s', 'group1.Bob', 'workq', 0, NULL, 0, NULL, NULL, NULL, NULL),
    ROW('12.s', 'nobody', 'workq', 0, NULL, 0, NULL, NULL, NULL, NULL),
    ROW('9.s', 'scott', 'workq', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[], t) AS o;
-- a formula that ties every job: the fairshare rank decides (Ann and Bob tie at 0.648: Ann's
-- rank 1 first); without a tree it is off and qtime, then the job id, decide
SELECT o.pos, o.job_id, o.decided_by
FROM pp718pbs, pbs_job_order('1', ARRAY[
    ROW('20.s', 'scott', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 10:00+00', NULL),
    ROW('21.s', 'group1.Bob', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 09:00+00', NULL),
    ROW('22.s', 'group1.Ann', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 11:00+00', NULL)]::pbs_job[], t) AS o;
SELECT pos, job_id, decided_by FROM pbs_job_order('1', ARRAY[
    ROW('20.s', 'scott', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 10:00+00', NULL),
    ROW('21.s', 'group1.Bob', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 09:00+00', NULL),
    ROW('3.s', 'group1.Ann', 'workq', 0, NULL, 0, NULL, NULL, '2026-01-01 09:00+00', NULL)]::pbs_job[]);

-- by_queue (PBS's default): the queue of higher Priority first whatever the values; express
-- (queue_priority >= 150 when express is NULL) first in the global order too
CREATE TABLE qjobs AS SELECT ARRAY[
    ROW('1.s', NULL, 'low', 10, NULL, 0, 'ncpus=64', NULL, NULL, NULL),
    ROW('2.s', NULL, 'high', 100, NULL, 0, 'ncpus=1', NULL, NULL, NULL),
    ROW('3.s', NULL, 'high', 100, NULL, 0, 'ncpus=2', NULL, NULL, NULL),
    ROW('4.s', NULL, 'expressq', 150, NULL, 0, 'ncpus=1', NULL, NULL, NULL),
    ROW('5.s', NULL, 'low', 10, false, 0, 'ncpus=8', NULL, NULL, NULL)]::pbs_job[] AS j;
SELECT o.* FROM qjobs, pbs_job_order('ncpus', j) AS o;
SELECT o.* FROM qjobs, pbs_job_order('ncpus', j, by_queue => false) AS o;
-- float32 ties: 100000001 and 100000002 are the same float, so job_sort_key decides, as PBS's
-- code does although its manual says the keys are ignored with a formula
SELECT pos, job_id, value, decided_by FROM pbs_job_order('100000000 + ncpus', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 0, 'ncpus=1,mem=1gb', NULL, NULL, NULL),
    ROW('2.s', NULL, 'q', 0, NULL, 0, 'ncpus=2,mem=2gb', NULL, NULL, NULL),
    ROW('3.s', NULL, 'q', 0, NULL, 0, 'ncpus=2,mem=4gb', NULL, NULL, NULL)]::pbs_job[],
    sort_keys => ARRAY['mem HIGH']);
SELECT pos, job_id, decided_by FROM pbs_job_order('1', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 5, 'ncpus=1', NULL, NULL, NULL),
    ROW('2.s', NULL, 'q', 0, NULL, -3, 'ncpus=2', NULL, NULL, NULL),
    ROW('3.s', NULL, 'q', 0, NULL, 5, 'ncpus=2', NULL, NULL, NULL)]::pbs_job[],
    sort_keys => ARRAY['job_priority LOW', 'ncpus high']);
-- eligible_time: given, or as_of - qtime when NULL (a job is eligible from its submission)
SELECT job_id, value FROM pbs_job_order('eligible_time', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, '00:10:00', '2026-01-01 10:00+00', NULL),
    ROW('2.s', NULL, 'q', 0, NULL, 0, NULL, NULL, '2026-01-01 10:00+00', NULL),
    ROW('3.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, 2)]::pbs_job[],
    as_of => '2026-01-01 11:00+00') ORDER BY job_id;
-- the fairshare values given per entity, as pbsfs prints them
SELECT pos, job_id, round(value::numeric, 6) AS value, decided_by
FROM pbs_job_order_fairshare('fairshare_perc + fairshare_tree_usage', ARRAY[
    ROW('1.s', 'bob', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL),
    ROW('2.s', 'g.ann', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
    ARRAY['g.bob', 'g.ann']::sharepath[], ARRAY[0.25, 0.5], ARRAY[0.125, 0.0], ARRAY[2, 1]);
-- an evaluation error gives the job 0 and PBS's log line as a NOTICE
SELECT job_id, value FROM pbs_job_order('1 / (ncpus - 2)', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 0, 'ncpus=2', NULL, NULL, NULL),
    ROW('2.s', NULL, 'q', 0, NULL, 0, 'ncpus=3', NULL, NULL, NULL)]::pbs_job[]);
-- edges: no jobs, NULL arguments, a NaN formula value after every number and never under a threshold
SELECT count(*) AS no_jobs FROM pbs_job_order('ncpus', '{}');
SELECT count(*) AS null_jobs FROM pbs_job_order('ncpus', NULL);
SELECT pos, job_id, value, eligible FROM pbs_job_order('ncpus * nan', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 0, 'ncpus=1', NULL, NULL, NULL),
    ROW('2.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[], threshold => 1e30);
SELECT pos, job_id, value, eligible FROM pbs_job_order('-inf', ARRAY[
    ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[], threshold => -1e30);
-- errors
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW(NULL, NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[]);
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW('1.s', NULL, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[]);
SELECT * FROM pbs_job_order('ncpus', ARRAY[NULL]::pbs_job[]);
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                            threshold => 'NaN');
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                            sort_keys => ARRAY['ncpus']);
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                            sort_keys => ARRAY['ncpus HIGH', NULL]);
SELECT * FROM pbs_job_order('ncpus', ARRAY[ROW('1.s', NULL, 'q', 0, NULL, 0, NULL, NULL, 'infinity', NULL)]::pbs_job[]);
SELECT * FROM pbs_job_order('ncpus +', ARRAY[]::pbs_job[]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['a']::sharepath[], ARRAY[0.5, 0.5], ARRAY[0.0], ARRAY[1]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['a', 'a']::sharepath[], ARRAY[0.5, 0.5], ARRAY[0.0, 0], ARRAY[1, 2]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['x.a', 'y.a']::sharepath[], ARRAY[0.5, 0.5], ARRAY[0.0, 0], ARRAY[1, 2]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['a']::sharepath[], ARRAY[-0.5], ARRAY[0.0], ARRAY[1]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['a']::sharepath[], ARRAY[0.5], ARRAY[0.0], ARRAY[-1]);
SELECT * FROM pbs_job_order_fairshare('1', ARRAY[ROW('1.s', 'a', 'q', 0, NULL, 0, NULL, NULL, NULL, NULL)]::pbs_job[],
                                      ARRAY['a']::sharepath[], NULL, ARRAY[0.0], ARRAY[1]);

-- ---------------------------------------------------------------- eligible time (pbs_eligible_time)
-- hand-derived: queued (2) 10:00, user hold (1) 10:05, qrls at 10:20 keeps 1 until the next
-- cycle makes it 2 at 10:20:30, run (3) 10:30, exit (4) 11:00: 5 min + 9 min 30 s = 00:14:30
CREATE TABLE accrue AS
SELECT * FROM (VALUES
    ('1.svr', 2, '2026-03-01 10:00:00+00'::timestamptz), ('1.svr', 1, '2026-03-01 10:05:00+00'),
    ('1.svr', 1, '2026-03-01 10:20:00+00'), ('1.svr', 2, '2026-03-01 10:20:30+00'),
    ('1.svr', 3, '2026-03-01 10:30:00+00'), ('1.svr', 4, '2026-03-01 11:00:00+00'),
    -- afterany dependency: held with DEPNHOLD (1) from submission until the parent ends at 10:40
    ('2.svr', 0, '2026-03-01 10:00:00+00'), ('2.svr', 1, '2026-03-01 10:00:00+00'),
    ('2.svr', 2, '2026-03-01 10:40:00+00'), ('2.svr', 3, '2026-03-01 10:41:05+00'),
    -- a user run limit: the scheduler corrects the server's 2 to 1 one cycle later (10:00:10),
    -- and back to 2 when a job of the user ends (10:50)
    ('3.svr', 2, '2026-03-01 10:00:00+00'), ('3.svr', 1, '2026-03-01 10:00:10+00'),
    ('3.svr', 2, '2026-03-01 10:50:00+00'), ('3.svr', 3, '2026-03-01 10:55:00+00'),
    -- an array: eligible while a subjob is queued, ineligible when its last subjob starts;
    -- whole seconds, as PBS's clock (10:00:00.9 is 10:00:00)
    ('4[].svr', 2, '2026-03-01 10:00:00.9+00'), ('4[].svr', 1, '2026-03-01 10:12:34.2+00'),
    -- still queued: the period so far counts when a last row repeats the type at as_of
    ('5.svr', 2, '2026-03-01 10:00:00+00'), ('5.svr', 2, '2026-03-01 12:00:00+00')
) AS c(job_id, accrue_type, at);
SELECT job_id, pbs_eligible_time(accrue_type, at) FROM accrue GROUP BY job_id ORDER BY job_id;
-- no ORDER BY is needed: the changes are sorted by time; an ORDER BY gives the same
SELECT job_id, pbs_eligible_time(accrue_type, at ORDER BY at DESC) FROM accrue
WHERE job_id = '1.svr' GROUP BY job_id;
-- the running value, as a window
SELECT at, accrue_type, pbs_eligible_time(accrue_type, at) OVER (ORDER BY at) AS so_far
FROM accrue WHERE job_id = '1.svr' ORDER BY at;
-- straight into the formula: eligible_time in seconds
SELECT job_id, pbs_formula_value('eligible_time / 60', NULL, eligible_time => e) AS minutes
FROM (SELECT job_id, pbs_eligible_time(accrue_type, at) AS e FROM accrue GROUP BY job_id) AS s
ORDER BY job_id;
-- NULL rows are skipped; none at all is NULL
SELECT pbs_eligible_time(t, a) AS nulls FROM (VALUES (NULL::int, now()), (2, NULL)) AS v(t, a);
SELECT pbs_eligible_time(2, now()) WHERE false;
-- in parallel: partial states combine (the sums of 2000 jobs of 40 changes each)
CREATE TABLE accrue_many AS
SELECT j, CASE WHEN k % 2 = 0 THEN 2 ELSE 1 END AS accrue_type,
       '2026-03-01 00:00+00'::timestamptz + (k * 60 + j % 7) * interval '1 second' AS at
FROM generate_series(1, 2000) AS j, generate_series(0, 39) AS k;
ANALYZE accrue_many;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT pbs_eligible_time(accrue_type, at) FROM accrue_many;
-- one group of all 80000 changes: 20 eligible minutes per job, interleaved: at 0 s, 60 s, ...
SELECT pbs_eligible_time(accrue_type, at) AS all_jobs FROM accrue_many;
SELECT count(*) AS jobs, min(e), max(e)
FROM (SELECT j, pbs_eligible_time(accrue_type, at) AS e FROM accrue_many GROUP BY j) AS s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
-- errors
SELECT pbs_eligible_time(5, now());
SELECT pbs_eligible_time(-1, now());
SELECT pbs_eligible_time(2, 'infinity');

-- ---------------------------------------------------------------- the what-if (pbs_job_order_compare)
-- last month's accounting records; the jobs queued at t are those with qtime <= t < start
CREATE TABLE acct_lines AS
SELECT format('%s;E;%s;user=%s queue=workq qtime=%s start=%s end=%s Resource_List.ncpus=%s Exit_status=0',
              to_char(e AT TIME ZONE 'UTC', 'MM/DD/YYYY HH24:MI:SS'), id, u,
              extract(epoch FROM q)::bigint, extract(epoch FROM s)::bigint,
              extract(epoch FROM e)::bigint, c) AS line
FROM (VALUES
    ('1.svr', 'alice', '2026-02-10 10:00+00'::timestamptz, '2026-02-10 13:00+00'::timestamptz, 4),
    ('2.svr', 'bob',   '2026-02-10 11:30+00', '2026-02-10 12:30+00', 8),
    ('3.svr', 'carol', '2026-02-10 09:00+00', '2026-02-10 11:00+00', 2),
    ('4.svr', 'dave',  '2026-02-10 12:30+00', '2026-02-10 15:00+00', 2),
    ('5.svr', 'erin',  '2026-02-10 08:00+00', '2026-02-10 14:00+00', 1)) AS j(id, u, q, s, c),
     LATERAL (SELECT s + interval '1 hour' AS e) AS x;
CREATE TABLE acct AS SELECT pbs_acct(line) AS r FROM acct_lines;
-- hand-derived, at 12:00 (jobs 1, 2, 5 queued: eligible 7200, 1800, 14400 s):
--   old 'ncpus':                        2 (8), 1 (4), 5 (1)
--   new 'ncpus + eligible_time / 1800': 1: 4 + 4 = 8, 2: 8 + 1 = 9, 5: 1 + 8 = 9; 2 and 5 tie at
--   9, and qtime puts 5 (08:00) first: 5, 2, 1 (5 gains two places, 2 and 1 lose one)
-- and at 13:30 (jobs 4 and 5): old 4 (2), 5 (1); new 5 (1 + 11 = 12), 4 (2 + 2 = 4)
SELECT t, c.*
FROM (VALUES ('2026-02-10 12:00+00'::timestamptz), ('2026-02-10 13:30+00')) AS s(t),
     LATERAL pbs_job_order_compare('ncpus', 'ncpus + eligible_time / 1800',
         (SELECT array_agg(pbs_job_from(r) ORDER BY (r).job_id) FROM acct
          WHERE (r).qtime <= s.t AND s.t < (r).start), as_of => s.t) AS c
ORDER BY t, new_pos;
-- a new threshold with the new formula: at or below 8 is not run
SELECT job_id, old_eligible, new_value, new_eligible FROM pbs_job_order_compare('ncpus',
    'ncpus + eligible_time / 1800',
    (SELECT array_agg(pbs_job_from(r, 10)) FROM acct
     WHERE (r).qtime <= '2026-02-10 12:00+00' AND '2026-02-10 12:00+00' < (r).start),
    as_of => '2026-02-10 12:00+00', new_threshold => 8) ORDER BY job_id;
-- the record's user is the owner (one label), or the path given
SELECT (pbs_job_from(r)).owner, (pbs_job_from(r, 5, true, 'physics.alice')).*
FROM acct WHERE (r).job_id = '1.svr';

-- ---------------------------------------------------------------- the compiled formula's cache
-- a literal formula is compiled once for the query; a formula that changes from row to row is
-- compiled again when it differs from the last one (a resourcedef stored with it included)
SELECT f, pbs_formula_value(f::pbs_formula, 'ncpus=2,foo=3') AS value
FROM (VALUES (1, 'ncpus'), (2, 'ncpus * 2'), (3, 'ncpus * 2'), (4, 'ncpus')) AS v(i, f) ORDER BY i;
SELECT i, pbs_formula_value(f, 'ncpus=2,foo=3') AS value
FROM (VALUES (1, pbs_formula('foo', 'foo type=float')), (2, pbs_formula('foo', 'foo type=long')),
             (3, 'ncpus'::pbs_formula)) AS v(i, f) ORDER BY i;
PREPARE formula_value(pbs_formula) AS SELECT pbs_formula_value($1, 'ncpus=4');
EXECUTE formula_value('ncpus + 1');
EXECUTE formula_value('ncpus * 10');
DEALLOCATE formula_value;
-- PL/pgSQL keeps a simple expression's state between calls: a variable formula is a parameter
DO $$
DECLARE
    f text;
BEGIN
    FOREACH f IN ARRAY ARRAY['ncpus + 1', 'ncpus * 10', 'ncpus + 1'] LOOP
        RAISE NOTICE '% = %', f, fairsched.pbs_formula_value(f::fairsched.pbs_formula, 'ncpus=4');
    END LOOP;
END $$;
