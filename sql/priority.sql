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
