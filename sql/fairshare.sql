-- fairshare: SLURM classic, SLURM Fair Tree and PBS fairshare over a share tree (docs/fairshare.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- The PBS design page PP-718 ("Add fairshare usage values to the job sort formula"): group1 (40 shares) with Bob and Ann (50 each, 100 cput
-- each); group2 (60) with Suzy (60 shares, no usage) and scott (40 shares, 1000 cput).
CREATE TEMP TABLE pp718 AS
SELECT share_tree(p::sharepath, s, u) AS t
FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
     AS rows(p, s, u);

-- the worked example: Bob 0.125 / 0.648, Suzy 0.5 / 0.382
SELECT path, round(norm_usage::numeric, 3) AS actual_usage,
       round(norm_shares::numeric, 2) AS fairshare_perc,
       round(effective_usage::numeric, 3) AS fairshare_tree_usage,
       round(fairshare::numeric, 3) AS fairshare_factor
FROM pp718, fairshare(t)
WHERE path IN ('group1.Bob', 'group2.Suzy');

-- the whole tree as SLURM's sshare -l prints it (classic: NO_FAIR_TREE)
SELECT repeat(' ', depth) || coalesce(leaf(path), 'root') AS account, raw_shares,
       round(norm_shares::numeric, 6) AS norm_shares, raw_usage,
       round(effective_usage::numeric, 6) AS effectv_usage,
       round(fairshare::numeric, 6) AS fairshare, rank
FROM pp718, fairshare(t, 'classic');

-- pbsfs -g scott: Percentage 24 %, fairshare_tree_usage 0.832973, usage 1000, usage/perc 4167,
-- and the path from the root: TREEROOT 1201 / 1.000 = 1201, group2 1001 / 0.600 = 1668,
-- scott 1000 / 0.240 = 4167
SELECT round((100 * norm_shares)::numeric, 6) AS percentage,
       round(effective_usage::numeric, 6) AS fairshare_tree_usage,
       raw_usage AS usage, round(usage_per_share) AS usage_perc
FROM pp718, fairshare(t, 'pbs') WHERE path = 'group2.scott';
SELECT coalesce(leaf(path), 'TREEROOT') AS entity, raw_usage AS usage,
       to_char(norm_shares, 'FM0.000') AS perc, round(usage_per_share) AS usage_perc
FROM pp718, fairshare_path(t, 'group2.scott', 'pbs');

-- Fair Tree (SLURM's default): level shares, usage relative to the parent, LevelFS, and the
-- rank-based factor; Ann and Bob tie and share the best rank
SELECT path, norm_shares, effective_usage, round(level_fs::numeric, 6) AS level_fs,
       fairshare, rank
FROM pp718, fairshare(t, 'fair_tree');

-- dampening flattens the classic factor: 2^(-(E/S)/d)
SELECT path, round(fairshare::numeric, 6) AS damped
FROM pp718, fairshare(t, 'classic', 4) WHERE is_leaf;

-- FairShare=parent: the sub-account disappears as a level; its users compete with their
-- account's other users, and the sub-account reports its account's numbers
CREATE TEMP TABLE parent_tree AS
SELECT share_tree(p::sharepath, s, u, fp) AS t
FROM (VALUES ('acct', 2, 0, false), ('acct.sub', NULL, 0, true), ('acct.sub.u1', 1, 30, false),
             ('acct.u2', 1, 10, false), ('other', 2, 40, false), ('solo', NULL, 5, true))
     AS rows(p, s, u, fp);
SELECT path, is_leaf, raw_shares, norm_shares, round(effective_usage::numeric, 6) AS eff,
       round(fairshare::numeric, 6) AS fairshare, rank
FROM parent_tree, fairshare(t, 'classic');
SELECT path, raw_shares, norm_shares, round(effective_usage::numeric, 6) AS eff,
       level_fs, round(fairshare::numeric, 6) AS fairshare, rank
FROM parent_tree, fairshare(t, 'fair_tree');

-- SLURM's own regression tests, line for line. sshare -lP prints Account|User|RawShares|
-- NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins|
-- (testsuite/expect/test24.4 and test24.3, with their trees from test24.4.prog.c and
-- test24.3.prog.c; usage is given on the users and rolls up, as the RawUsage column shows).
CREATE FUNCTION pg_temp.f6(x float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '' WHEN x = 'Infinity' THEN 'inf'
               ELSE to_char(round(x::numeric, 6), 'FM9999999990.000000') END $$;
CREATE FUNCTION pg_temp.sshare(t sharetree, algorithm text) RETURNS SETOF text LANGUAGE sql AS
$$ SELECT CASE WHEN is_leaf THEN coalesce(leaf(parent(path)), 'root') ELSE coalesce(leaf(path), 'root') END
          || '|' || CASE WHEN is_leaf THEN leaf(path) ELSE '' END
          || '|' || CASE WHEN depth = 0 THEN '' ELSE coalesce(raw_shares::text, 'parent') END
          || '|' || pg_temp.f6(norm_shares) || '|' || raw_usage
          || '|' || CASE WHEN depth = 0 THEN '' ELSE pg_temp.f6(norm_usage) END
          || '|' || pg_temp.f6(effective_usage) || '|' || pg_temp.f6(fairshare)
          || CASE WHEN algorithm LIKE 'fair_tree%' THEN '|' || pg_temp.f6(level_fs) ELSE '' END
          || '||cpu=0|'
   FROM fairshare(t, algorithm) $$;

-- test24.4, Fair Tree. aD holds the FairShare=parent cases: the user uD1 and the account aDA
-- print their own usage over aD's (20 / 110 = 0.181818, 45 / 110 = 0.409091), aD's
-- NormShares (50 / 208) and no LevelFS; the root prints NormShares 0. uD2 and uD3 have the
-- same LevelFS exactly, (40/170)/(20/110) = (50/170)/(25/110) = 22/17, but SLURM's
-- floating-point quotients differ in the last bit and rank uD2 two places lower (5/21).
CREATE TEMP TABLE slurm_t244 AS
SELECT share_tree(p::sharepath, s, u, fp) AS t
FROM (VALUES ('u1', 10, 0, false), ('u2', 10, 10, false),
             ('aA', 40, 0, false), ('aA.aAA', 30, 0, false), ('aA.aAA.uAA1', 1, 20, false),
             ('aA.aAB', 10, 0, false), ('aA.aAB.uAB1', 1, 25, false), ('aA.aAB.uAB2', 1, 0, false),
             ('aB', 60, 0, false), ('aB.aBA', 25, 0, false), ('aB.aBA.uBA1', 1, 25, false),
             ('aB.aBB', 35, 0, false), ('aB.aBB.uBB1', 1, 0, false),
             ('aC', 0, 0, false), ('aC.uC1', 0, 30, false),
             ('aD', 50, 0, false), ('aD.aDA', NULL, 0, true), ('aD.aDA.uDA1', NULL, 10, true),
             ('aD.aDA.uDA2', 30, 10, false), ('aD.aDA.uDA3', 50, 25, false),
             ('aD.uD1', NULL, 20, true), ('aD.uD2', 40, 20, false), ('aD.uD3', 50, 25, false),
             ('aE', 10, 0, false), ('aE.aE1', 10, 0, false), ('aE.aE2', 10, 0, false),
             ('aF', 20, 0, false), ('aF.uF1', 10, 0, false), ('aF.uF2', 20, 0, false),
             ('aG', 8, 0, false), ('aG.uG1', 10, 10, false), ('aG.aGA', 10, 0, false),
             ('aG.aGA.uGA1', 20, 4, false), ('aG.aGA.uGA2', 20, 6, false))
     AS rows(p, s, u, fp);
CREATE TEMP TABLE slurm_t244_expected (line text);
INSERT INTO slurm_t244_expected VALUES
('root|||0.000000|240||1.000000||||cpu=0|'),
('root|u1|10|0.048077|0|0.000000|0.000000|1.000000|inf||cpu=0|'),
('root|u2|10|0.048077|10|0.041667|0.041667|0.666667|1.153846||cpu=0|'),
('aA||40|0.192308|45|0.187500|0.187500||1.025641||cpu=0|'),
('aAA||30|0.750000|20|0.083333|0.444444||1.687500||cpu=0|'),
('aAA|uAA1|1|1.000000|20|0.083333|1.000000|0.619048|1.000000||cpu=0|'),
('aAB||10|0.250000|25|0.104167|0.555556||0.450000||cpu=0|'),
('aAB|uAB1|1|0.500000|25|0.104167|1.000000|0.523810|0.500000||cpu=0|'),
('aAB|uAB2|1|0.500000|0|0.000000|0.000000|0.571429|inf||cpu=0|'),
('aB||60|0.288462|25|0.104167|0.104167||2.769231||cpu=0|'),
('aBA||25|0.416667|25|0.104167|1.000000||0.416667||cpu=0|'),
('aBA|uBA1|1|1.000000|25|0.104167|1.000000|0.714286|1.000000||cpu=0|'),
('aBB||35|0.583333|0|0.000000|0.000000||inf||cpu=0|'),
('aBB|uBB1|1|1.000000|0|0.000000|0.000000|0.761905|inf||cpu=0|'),
('aC||0|0.000000|30|0.125000|0.125000||0.000000||cpu=0|'),
('aC|uC1|0|0.000000|30|0.125000|1.000000|0.047619|0.000000||cpu=0|'),
('aD||50|0.240385|110|0.458333|0.458333||0.524476||cpu=0|'),
('aD|uD1|parent|0.240385|20|0.083333|0.181818|0.476190|||cpu=0|'),
('aD|uD2|40|0.235294|20|0.083333|0.181818|0.238095|1.294118||cpu=0|'),
('aD|uD3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||cpu=0|'),
('aDA||parent|0.240385|45|0.187500|0.409091||||cpu=0|'),
('aDA|uDA1|parent|0.240385|10|0.041667|0.090909|0.476190|||cpu=0|'),
('aDA|uDA2|30|0.176471|10|0.041667|0.090909|0.380952|1.941176||cpu=0|'),
('aDA|uDA3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||cpu=0|'),
('aE||10|0.048077|0|0.000000|0.000000||inf||cpu=0|'),
('aE|aE1|10|0.500000|0|0.000000|0.000000|1.000000|inf||cpu=0|'),
('aE|aE2|10|0.500000|0|0.000000|0.000000|1.000000|inf||cpu=0|'),
('aF||20|0.096154|0|0.000000|0.000000||inf||cpu=0|'),
('aF|uF1|10|0.333333|0|0.000000|0.000000|1.000000|inf||cpu=0|'),
('aF|uF2|20|0.666667|0|0.000000|0.000000|1.000000|inf||cpu=0|'),
('aG||8|0.038462|20|0.083333|0.083333||0.461538||cpu=0|'),
('aG|uG1|10|0.500000|10|0.041667|0.500000|0.190476|1.000000||cpu=0|'),
('aGA||10|0.500000|10|0.041667|0.500000||1.000000||cpu=0|'),
('aGA|uGA1|20|0.500000|4|0.016667|0.400000|0.190476|1.250000||cpu=0|'),
('aGA|uGA2|20|0.500000|6|0.025000|0.600000|0.095238|0.833333||cpu=0|');
SELECT line FROM slurm_t244, pg_temp.sshare(t, 'fair_tree') AS line;
-- every line SLURM expects, and nothing else
SELECT (SELECT count(*) FROM slurm_t244_expected) AS slurm_lines,
       (SELECT count(*) FROM (SELECT line FROM slurm_t244_expected
                              EXCEPT SELECT line FROM slurm_t244, pg_temp.sshare(t, 'fair_tree') AS line) AS m)
           AS missing,
       (SELECT count(*) FROM (SELECT line FROM slurm_t244, pg_temp.sshare(t, 'fair_tree') AS line
                              EXCEPT SELECT line FROM slurm_t244_expected) AS x) AS extra;
-- fair_tree_exact ties uD2, uD3 and uDA3 at 22/17: all three keep rank 7 of 21 (0.333333)
SELECT path, round(level_fs::numeric, 6) AS level_fs, round(fairshare::numeric, 6) AS fairshare, rank
FROM slurm_t244, fairshare(t, 'fair_tree_exact') WHERE path <@ 'aD' AND is_leaf;

-- test24.3, classic (NO_FAIR_TREE): FairShare=parent nodes report their owner's shares and
-- effective usage (AccountH: 0.333333 / 0.523810) and the root NormShares 1
CREATE TEMP TABLE slurm_t243 AS
SELECT share_tree(p::sharepath, s, u, fp) AS t
FROM (VALUES ('AccountA', 40, 0, false), ('AccountA.AccountB', 30, 0, false),
             ('AccountA.AccountB.User1', 1, 20, false), ('AccountA.AccountC', 10, 0, false),
             ('AccountA.AccountC.User2', 1, 25, false), ('AccountA.AccountC.User3', 1, 0, false),
             ('AccountD', 60, 0, false), ('AccountD.AccountE', 25, 0, false),
             ('AccountD.AccountE.User4', 1, 25, false), ('AccountD.AccountF', 35, 0, false),
             ('AccountD.AccountF.User5', 1, 0, false), ('AccountG', 0, 0, false),
             ('AccountG.User6', 0, 30, false), ('AccountH', 50, 0, false),
             ('AccountH.AccountHTA', NULL, 0, true),
             ('AccountH.AccountHTA.UHTAStd1', NULL, 10, true),
             ('AccountH.AccountHTA.UHTAStd2', 30, 10, false),
             ('AccountH.AccountHTA.UHTAStd3', 50, 25, false),
             ('AccountH.UHRA1', NULL, 20, true), ('AccountH.UHRA2', 40, 20, false),
             ('AccountH.UHRA3', 50, 25, false)) AS rows(p, s, u, fp);
CREATE TEMP TABLE slurm_t243_expected (line text);
INSERT INTO slurm_t243_expected VALUES
('root|||1.000000|210||1.000000|0.500000||cpu=0|'),
('AccountA||40|0.266667|45|0.214286|0.214286|0.572929||cpu=0|'),
('AccountB||30|0.200000|20|0.095238|0.184524|0.527550||cpu=0|'),
('AccountB|User1|1|0.200000|20|0.095238|0.184524|0.527550||cpu=0|'),
('AccountC||10|0.066667|25|0.119048|0.142857|0.226431||cpu=0|'),
('AccountC|User2|1|0.033333|25|0.119048|0.130952|0.065672||cpu=0|'),
('AccountC|User3|1|0.033333|0|0.000000|0.071429|0.226431||cpu=0|'),
('AccountD||60|0.400000|25|0.119048|0.119048|0.813594||cpu=0|'),
('AccountE||25|0.166667|25|0.119048|0.119048|0.609507||cpu=0|'),
('AccountE|User4|1|0.166667|25|0.119048|0.119048|0.609507||cpu=0|'),
('AccountF||35|0.233333|0|0.000000|0.069444|0.813594||cpu=0|'),
('AccountF|User5|1|0.233333|0|0.000000|0.069444|0.813594||cpu=0|'),
('AccountG||0|0.000000|30|0.142857|0.142857|0.000000||cpu=0|'),
('AccountG|User6|0|0.000000|30|0.142857|0.142857|0.000000||cpu=0|'),
('AccountH||50|0.333333|110|0.523810|0.523810|0.336475||cpu=0|'),
('AccountH|UHRA1|parent|0.333333|20|0.095238|0.523810|0.336475||cpu=0|'),
('AccountH|UHRA2|40|0.078431|20|0.095238|0.196078|0.176777||cpu=0|'),
('AccountH|UHRA3|50|0.098039|25|0.119048|0.238095|0.185749||cpu=0|'),
('AccountHTA||parent|0.333333|45|0.214286|0.523810|0.336475||cpu=0|'),
('AccountHTA|UHTAStd1|parent|0.333333|10|0.047619|0.523810|0.336475||cpu=0|'),
('AccountHTA|UHTAStd2|30|0.058824|10|0.047619|0.131653|0.211966||cpu=0|'),
('AccountHTA|UHTAStd3|50|0.098039|25|0.119048|0.238095|0.185749||cpu=0|');
SELECT line FROM slurm_t243, pg_temp.sshare(t, 'classic') AS line;
SELECT (SELECT count(*) FROM slurm_t243_expected) AS slurm_lines,
       (SELECT count(*) FROM (SELECT line FROM slurm_t243_expected
                              EXCEPT SELECT line FROM slurm_t243, pg_temp.sshare(t, 'classic') AS line) AS m)
           AS missing,
       (SELECT count(*) FROM (SELECT line FROM slurm_t243, pg_temp.sshare(t, 'classic') AS line
                              EXCEPT SELECT line FROM slurm_t243_expected) AS x) AS extra;

-- PriorityFlags=DEPTH_OBLIVIOUS (slurm.schedmd.com/priority_multifactor3.html): F = 2^-R,
-- R = R_parent * r_l^k, r = U/S, r_l = r / (U_level / S_parent), k = 1 / (1 + (5 ln R_parent)^2)
-- when ln R_parent and ln r_l differ in sign, else 1; effective_usage is R * S.
-- The page's example: an account using twice its share (R_parent = 2) and a child using two
-- thirds of its share while its level uses twice: r_l = 1/3. Here A (1 share of 2) has all the
-- usage, 6 of 6: R_A = 1 / 0.5 = 2. a1 (S = 0.25, U = 1/6): r = 2/3, r_l = (2/3) / (1 / 0.5)
-- = 1/3, k = 1 / (1 + (5 ln 2)^2) = 0.0768561, R = 2 * (1/3)^0.0768561 = 1.838063,
-- E = R S = 0.459516, F = 2^-1.838063 = 0.279697. a2 (U = 5/6): r = 10/3, r_l = 5/3 (same side
-- of 1 as R_A, k = 1): R = 10/3 = its own r, F = 2^(-10/3) = 0.099213. B has no usage: R = 0,
-- F = 1; under classic a1 would get 2^-((1/6 + (1 - 1/6) 0.5) / 0.25) = 0.125.
SELECT path, norm_shares, round(norm_usage::numeric, 6) AS u, round(effective_usage::numeric, 6) AS e,
       round((effective_usage / norm_shares)::numeric, 6) AS r, round(fairshare::numeric, 6) AS fairshare, rank
FROM fairshare('share{=*/0,A=1/0,A.a1=1/1,A.a2=1/5,B=1/0}'::sharetree, 'depth_oblivious');
-- test24.3's tree: the first level has classic's numbers (A 0.572929, D 0.813594, H 0.336475:
-- R = r there). Below, by hand: B (S 0.2, U 20/210): R_A = 0.214286 / 0.266667 = 0.803571,
-- U_level / S_A = (45/210) / 0.266667 = 0.803571, r_l = 0.476190 / 0.803571 = 0.592593, both
-- logs negative so k = 1: R = 0.476190 = r, F = 0.718873. C (S 0.066667, U 25/210):
-- r_l = 1.785714 / 0.803571 = 2.222222, signs differ: k = 1 / (1 + (5 ln 0.803571)^2) =
-- 0.455455, R = 0.803571 * 2.222222^0.455455 = 1.156031, E = 0.077069, F = 0.448746. User2
-- (S 0.033333): r_l = 3.571429 / 1.785714 = 2, k = 1, R = 2.312061, F = 0.201373. User3 has
-- no usage: E = U = 0, F = 1. E (S 0.166667, U 25/210, R_D = 0.297619, level D: U 25/210
-- over S_D 0.4 = 0.297619): r_l = 0.714286 / 0.297619 = 2.4, k = 1 / (1 + (5 ln 0.297619)^2)
-- = 0.026511, R = 0.297619 * 2.4^0.026511 = 0.304607, F = 0.809662. UHRA2 (S 40/170 * 1/3 =
-- 0.078431, U 20/210): R_H = 1.571429; level H leaves its FairShare=parent members out, as
-- SLURM does: U_level = (20 + 25 + 10 + 25) / 210 over S_H 1/3 = 1.142857, r = 1.214286,
-- r_l = 1.0625, k = 1: R = 1.669643, F = 0.314331. The FairShare=parent nodes copy AccountH's
-- E. The rank orders the leaves by factor (ties in path order).
SELECT path, raw_shares, round(norm_shares::numeric, 6) AS s, round(norm_usage::numeric, 6) AS u,
       round(effective_usage::numeric, 6) AS e, round(fairshare::numeric, 6) AS fairshare, rank
FROM slurm_t243, fairshare(t, 'depth_oblivious');

-- zero shares: no target, factor 0; a level whose shares sum to 0 zeroes its subtree
SELECT path, norm_shares, round(effective_usage::numeric, 6) AS eff, fairshare,
       usage_per_share, rank
FROM fairshare('share{=*/0,a=1/10,z=0/0,z.x=0/5,z.y=0/0}'::sharetree);

-- a tree without usage, and a tree of the root alone
SELECT path, norm_usage, effective_usage, round(fairshare::numeric, 6) AS fairshare, rank
FROM fairshare('share{=*/0,a=1/0,b=3/0}'::sharetree);
SELECT path, is_leaf, fairshare, rank FROM fairshare('share{}'::sharetree, 'fair_tree');

-- a stored tree and a fresh aggregate give the same rows
SELECT (SELECT array_agg(f::text) FROM pp718, fairshare(t, 'pbs') f)
     = (SELECT array_agg(f::text) FROM pp718, fairshare(t::text::sharetree, 'pbs') f)
       AS stored_equals_fresh;

-- errors
SELECT * FROM pp718, fairshare(t, 'fairtree');
SELECT * FROM pp718, fairshare(t, 'classic', 0);
SELECT * FROM pp718, fairshare(t, 'classic', -1);
SELECT * FROM pp718, fairshare(t, 'classic', 'NaN');
SELECT * FROM pp718, fairshare_path(t, 'group2.nobody', 'pbs');
SELECT * FROM pp718, fairshare_path(t, 'group2.scott', 'PBS');
SELECT * FROM fairshare('pool{=*/*/*/{}/{}}'::sharetree);
SELECT share_tree('a', 1, 'NaN');
