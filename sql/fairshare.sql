-- fairshare: SLURM classic, SLURM Fair Tree and PBS fairshare over a share tree (README "Hierarchical fairshare")
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- Seed 000 (PBS design note PP-718): group1 (40 shares) with Bob and Ann (50 each, 100 cput
-- each); group2 (60) with Suzy (60 shares, no usage) and scott (40 shares, 1000 cput).
CREATE TEMP TABLE seed000 AS
SELECT share_tree(p::sharepath, s, u) AS t
FROM (VALUES ('group1', 40, 0), ('group2', 60, 0), ('group1.Bob', 50, 100),
             ('group1.Ann', 50, 100), ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000))
     AS rows(p, s, u);

-- the worked example: Bob 0.125 / 0.648, Suzy 0.5 / 0.382
SELECT path, round(norm_usage::numeric, 3) AS actual_usage,
       round(norm_shares::numeric, 2) AS fairshare_perc,
       round(effective_usage::numeric, 3) AS fairshare_tree_usage,
       round(fairshare::numeric, 3) AS fairshare_factor
FROM seed000, fairshare(t)
WHERE path IN ('group1.Bob', 'group2.Suzy');

-- the whole tree as SLURM's sshare -l prints it (classic: NO_FAIR_TREE)
SELECT repeat(' ', depth) || coalesce(leaf(path), 'root') AS account, raw_shares,
       round(norm_shares::numeric, 6) AS norm_shares, raw_usage,
       round(effective_usage::numeric, 6) AS effectv_usage,
       round(fairshare::numeric, 6) AS fairshare, rank
FROM seed000, fairshare(t, 'classic');

-- pbsfs -g scott: Percentage 24 %, fairshare_tree_usage 0.832973, usage 1000, usage/perc 4167,
-- and the path from the root: TREEROOT 1201 / 1.000 = 1201, group2 1001 / 0.600 = 1668,
-- scott 1000 / 0.240 = 4167
SELECT round((100 * norm_shares)::numeric, 6) AS percentage,
       round(effective_usage::numeric, 6) AS fairshare_tree_usage,
       raw_usage AS usage, round(usage_per_share) AS usage_perc
FROM seed000, fairshare(t, 'pbs') WHERE path = 'group2.scott';
SELECT coalesce(leaf(path), 'TREEROOT') AS entity, raw_usage AS usage,
       to_char(norm_shares, 'FM0.000') AS perc, round(usage_per_share) AS usage_perc
FROM seed000, fairshare_path(t, 'group2.scott', 'pbs');

-- Fair Tree (SLURM's default): level shares, usage relative to the parent, LevelFS, and the
-- rank-based factor; Ann and Bob tie and share the best rank
SELECT path, norm_shares, effective_usage, round(level_fs::numeric, 6) AS level_fs,
       fairshare, rank
FROM seed000, fairshare(t, 'fair_tree');

-- dampening flattens the classic factor: 2^(-(E/S)/d)
SELECT path, round(fairshare::numeric, 6) AS damped
FROM seed000, fairshare(t, 'classic', 4) WHERE is_leaf;

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

-- zero shares: no target, factor 0; a level whose shares sum to 0 zeroes its subtree
SELECT path, norm_shares, round(effective_usage::numeric, 6) AS eff, fairshare,
       usage_per_share, rank
FROM fairshare('share{=*/0,a=1/10,z=0/0,z.x=0/5,z.y=0/0}'::sharetree);

-- a tree without usage, and a tree of the root alone
SELECT path, norm_usage, effective_usage, round(fairshare::numeric, 6) AS fairshare, rank
FROM fairshare('share{=*/0,a=1/0,b=3/0}'::sharetree);
SELECT path, is_leaf, fairshare, rank FROM fairshare('share{}'::sharetree, 'fair_tree');

-- a stored tree and a fresh aggregate give the same rows
SELECT (SELECT array_agg(f::text) FROM seed000, fairshare(t, 'pbs') f)
     = (SELECT array_agg(f::text) FROM seed000, fairshare(t::text::sharetree, 'pbs') f)
       AS stored_equals_fresh;

-- errors
SELECT * FROM seed000, fairshare(t, 'fairtree');
SELECT * FROM seed000, fairshare(t, 'classic', 0);
SELECT * FROM seed000, fairshare(t, 'classic', -1);
SELECT * FROM seed000, fairshare(t, 'classic', 'NaN');
SELECT * FROM seed000, fairshare_path(t, 'group2.nobody', 'pbs');
SELECT * FROM seed000, fairshare_path(t, 'group2.scott', 'PBS');
SELECT * FROM fairshare('pool{=*/*/*/{}/{}}'::sharetree);
SELECT share_tree('a', 1, 'NaN');
