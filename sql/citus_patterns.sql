-- The patterns of the README's "Running on Citus", emulated on one server: the rows are split
-- into shards by the distribution column, each shard aggregates its part, each partial state
-- travels as text (as Citus ships it), and the coordinator combines them with the aggregate's
-- combine function; the result must be the one-pass result. Also what a worker session without
-- fairsched on its search_path meets. Every usage is a whole number, so sums are exact in any
-- order and trees compare exactly as text.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;

-- jobs distributed by owner: shard = the owner's user number mod 2 (each owner on one shard)
CREATE TABLE cp_jobs AS
SELECT i AS id,
       (ARRAY['physics.alice', 'physics.bob', 'chem.carol', 'chem.dave'])[1 + i % 4]::fairsched.sharepath AS owner,
       format('ncpus=%s,mem=%sgb', 1 + i % 8, 1 + i % 3)::fairsched.resvec AS used,
       (60 * (1 + i % 50))::float8 AS cpu_seconds
FROM generate_series(1, 2000) AS i;
CREATE TABLE cp_shares (path fairsched.sharepath, shares float8);
INSERT INTO cp_shares VALUES ('physics', 60), ('chem', 40), ('physics.alice', 1), ('physics.bob', 1),
                             ('chem.carol', 1), ('chem.dave', 3);
CREATE FUNCTION cp_shard(owner fairsched.sharepath) RETURNS int LANGUAGE sql IMMUTABLE
AS $$ SELECT (fairsched.leaf(owner) IN ('bob', 'dave'))::int $$;

-- 1. A worker session without the database's search_path: operators that SQL picks by itself
--    are not found (the queries Citus sends qualify functions and types, not operators)
SET search_path = public;
SELECT count(*) FROM cp_jobs WHERE used IS DISTINCT FROM 'ncpus=1'::fairsched.resvec;
SELECT CASE owner WHEN 'chem.dave'::fairsched.sharepath THEN 'dave' END FROM cp_jobs LIMIT 1;
SELECT NULLIF(owner, 'chem.dave'::fairsched.sharepath) FROM cp_jobs LIMIT 1;
SELECT count(*) FROM (SELECT owner AS path FROM cp_jobs WHERE id = 1) AS a
                JOIN (SELECT path FROM cp_shares) AS b USING (path);
-- with ALTER DATABASE ... SET search_path = public, fairsched every session has it: all four work.
-- Every used vector has a mem entry, so none is 'ncpus=1': 2000; job 1 (1 % 4 = 1) is
-- physics.bob: 'not dave', physics.bob, and it joins the shares row of physics.bob: 1
SET search_path = public, fairsched;
SELECT count(*) FROM cp_jobs WHERE used IS DISTINCT FROM 'ncpus=1';
SELECT CASE owner WHEN 'chem.dave' THEN 'dave' ELSE 'not dave' END FROM cp_jobs WHERE id = 1;
SELECT NULLIF(owner, 'chem.dave') FROM cp_jobs WHERE id = 1;
SELECT count(*) FROM (SELECT owner AS path FROM cp_jobs WHERE id = 1) AS a
                JOIN (SELECT path FROM cp_shares) AS b USING (path);

-- 2. Per-owner sums, pushed down: each shard's sum per owner as text, summed on the coordinator
SELECT count(*) AS owners,
       count(*) FILTER (WHERE d.total = o.total) AS equal
FROM (SELECT owner, sum(state::resvec) AS total
      FROM (SELECT owner, sum(used)::text AS state FROM cp_jobs GROUP BY cp_shard(owner), owner) AS shards
      GROUP BY owner) AS d
JOIN (SELECT owner, sum(used) AS total FROM cp_jobs GROUP BY owner) AS o USING (owner);

-- 3. Shares plus usage: the jobs' tree built per shard and combined, merged with the shares'
--    tree, is the tree of the one UNION ALL; and so are its fairshare rows
CREATE AGGREGATE cp_combined(sharetree) (SFUNC = sharetree_combine, STYPE = sharetree);
CREATE TEMP TABLE cp_trees AS
SELECT merge((SELECT cp_combined(state::sharetree)
              FROM (SELECT share_tree(owner, NULL, cpu_seconds)::text AS state
                    FROM cp_jobs GROUP BY cp_shard(owner)) AS shards),
             (SELECT share_tree(path, shares, 0) FROM cp_shares)) AS merged,
       (SELECT share_tree(path, shares, usage)
        FROM (SELECT owner AS path, NULL::float8 AS shares, cpu_seconds AS usage FROM cp_jobs
              UNION ALL SELECT path, shares, 0 FROM cp_shares) AS rows) AS one_pass;
SELECT merged::text = one_pass::text AS same_tree FROM cp_trees;
SELECT count(*) AS rows, count(*) FILTER (WHERE m.r = o.r) AS equal
FROM cp_trees,
     LATERAL (SELECT row_number() OVER () AS k, f::text AS r FROM fairshare(merged) AS f) AS m
JOIN LATERAL (SELECT row_number() OVER () AS k, f::text AS r FROM fairshare(one_pass) AS f) AS o USING (k);
-- by hand: jobs a.x 10 s (shard 0), a.x 5 s and b.y 7 s (shard 1); shares a 1, b 3, a.x 1, b.y 1.
-- The shards' trees combine to usage a.x 15, b.y 7 (shares never stated: *), the merge adds the
-- shares: share{=*/0,a=1/0,a.x=1/15,b=3/0,b.y=1/7}
SELECT merge(cp_combined(state::sharetree), 'share{a=1/0,a.x=1/0,b=3/0,b.y=1/0}')
FROM (SELECT share_tree(p::sharepath, NULL, u)::text AS state
      FROM (VALUES (0, 'a.x', 10), (1, 'a.x', 5), (1, 'b.y', 7)) AS j(shard, p, u)
      GROUP BY shard) AS shards;

-- 4. userprio grouped by the distribution column: every submitter's samples are on one shard,
--    so the per-shard results are the one-pass results
CREATE TABLE cp_samples AS
SELECT s AS submitter, '2026-03-01'::timestamptz + i * interval '15 minutes' AS at,
       CASE s WHEN 'alice@site' THEN 40 WHEN 'bob@site' THEN (i % 8) * 4 ELSE 0 END::float8 AS weighted_in_use
FROM generate_series(0, 4 * 24 * 3) AS i, unnest(ARRAY['alice@site', 'bob@site', 'carol@site']) AS s;
SELECT count(*) AS submitters,
       count(*) FILTER (WHERE d.p = o.p) AS equal
FROM (SELECT submitter, userprio(weighted_in_use, at, '1 day' ORDER BY at) AS p
      FROM cp_samples WHERE submitter = 'bob@site' GROUP BY submitter
      UNION ALL
      SELECT submitter, userprio(weighted_in_use, at, '1 day' ORDER BY at)
      FROM cp_samples WHERE submitter <> 'bob@site' GROUP BY submitter) AS d
JOIN (SELECT submitter, userprio(weighted_in_use, at, '1 day' ORDER BY at) AS p
      FROM cp_samples GROUP BY submitter) AS o USING (submitter);
-- by hand: two samples a day apart with 40 in use: the first starts the clock (0.5), the second
-- has beta = 0.5^(1 day / 1 day) = 0.5: max(0.5, 0.5 * 0.5 + 40 * 0.5) = 20.25; carol never uses
-- anything and stays at 0.5; the site-wide maximum and mean of the two are 20.25 and 10.375
SELECT max(p) AS highest, avg(p) AS mean
FROM (SELECT submitter, userprio(u, at, '1 day' ORDER BY at) AS p
      FROM (VALUES ('alice', 40, '2026-03-01'::timestamptz), ('alice', 40, '2026-03-02'),
                   ('carol', 0, '2026-03-01'), ('carol', 0, '2026-03-02')) AS s(submitter, u, at)
      GROUP BY submitter) AS per_submitter;

-- 5. The time zone: a worker session has the database's TimeZone (ALTER DATABASE ... SET
--    timezone, else the server's), never the SET of the coordinator's session. What bins by local
--    day, msic_queue_state's days and date_trunc('day', ...), must see one zone on every node.
--    Emulated: each shard's partial state computed in the database's zone (UTC), the states
--    combined in a session whose zone differs (Asia/Tokyo, 9 hours ahead), against one pass there.
CREATE TABLE cp_starts AS
SELECT 'hi'::text AS queue, 4 AS ncpus, interval '01:00' AS walltime,
       '2026-04-10 00:00+00'::timestamptz + i * interval '5 hours' AS started_at, i % 2 AS shard
FROM generate_series(0, 11) AS i;
SET timezone = 'UTC';
CREATE TABLE cp_parts_utc AS
SELECT shard, msic_queue_acc(queue, ncpus, walltime, started_at, 64, '2026-04-12 22:00+00')::text AS acc
FROM cp_starts GROUP BY shard;
SET timezone = 'Asia/Tokyo';
CREATE TABLE cp_parts_tokyo AS
SELECT shard, msic_queue_acc(queue, ncpus, walltime, started_at, 64, '2026-04-12 22:00+00')::text AS acc
FROM cp_starts GROUP BY shard;
-- the shards' days in UTC combined in Tokyo are not Tokyo's days: other numbers, silently
-- (a start at 20:00 UTC is the next day in Tokyo); with every node in Tokyo's zone (the rule:
-- ALTER DATABASE ... SET timezone, no session SET) the combined state is the one-pass state
SELECT msic_queue_acc_combine((SELECT acc FROM cp_parts_utc WHERE shard = 0)::msic_queue_acc,
                              (SELECT acc FROM cp_parts_utc WHERE shard = 1)::msic_queue_acc)::text
       = (SELECT msic_queue_acc(queue, ncpus, walltime, started_at, 64, '2026-04-12 22:00+00')
          FROM cp_starts)::text AS mixed_zones_match,
       msic_queue_acc_combine((SELECT acc FROM cp_parts_tokyo WHERE shard = 0)::msic_queue_acc,
                              (SELECT acc FROM cp_parts_tokyo WHERE shard = 1)::msic_queue_acc)::text
       = (SELECT msic_queue_acc(queue, ncpus, walltime, started_at, 64, '2026-04-12 22:00+00')
          FROM cp_starts)::text AS one_zone_matches;
-- the days each gives: Tokyo's from one pass, UTC's from the mixed combination
SELECT 'one pass' AS how, h.day, h.today_usage
FROM msic_queue_history((SELECT msic_queue_acc(queue, ncpus, walltime, started_at, 64,
                                               '2026-04-12 22:00+00') FROM cp_starts)) AS h
UNION ALL
SELECT 'mixed', h.day, h.today_usage
FROM msic_queue_history(msic_queue_acc_combine(
       (SELECT acc FROM cp_parts_utc WHERE shard = 0)::msic_queue_acc,
       (SELECT acc FROM cp_parts_utc WHERE shard = 1)::msic_queue_acc)) AS h
ORDER BY how, day;
-- a day written with its zone is the same day on every node, whatever the session's zone: the
-- starts at 15:00 and 20:00 UTC fall on the next day in Tokyo (4 of them), in either session
SELECT count(*) FILTER (WHERE (started_at AT TIME ZONE 'Asia/Tokyo')::date
                              <> (started_at AT TIME ZONE 'UTC')::date) AS next_day_in_tokyo
FROM cp_starts;
SET timezone = 'UTC';
SELECT count(*) FILTER (WHERE (started_at AT TIME ZONE 'Asia/Tokyo')::date
                              <> (started_at AT TIME ZONE 'UTC')::date) AS next_day_in_tokyo
FROM cp_starts;
RESET timezone;
DROP TABLE cp_starts, cp_parts_utc, cp_parts_tokyo;

DROP TABLE cp_jobs, cp_shares, cp_samples;
DROP FUNCTION cp_shard(fairsched.sharepath);
DROP AGGREGATE cp_combined(sharetree);
