-- live scheduler state (docs/live-state.md): 8 pgbench writers charging the users of a
-- 10,000-node tree (`u = u + decayed_usage(c, now(), half_life(u))`, one statement with its
-- charge_log row) while 2 readers compute fairshare of the live tree, for `live_seconds`
-- (default 8) seconds; then the same with the plain SQL a competent user would write: a float8
-- value and its instant per user, charged with `v = v * 2^(-(now() - at) / half_life) + c` and
-- read with the same decay inline. Recorded: charges per second (rows = charges, the times
-- are the run's length and the time the baseline needs for as many), and the readers' fairshare
-- latency, median and 99th percentile, from pgbench's per-transaction log, beside writers at
-- full speed and beside writers held to 2,000 charges a second (pgbench -R). pgbench runs from
-- psql's \! with the cluster's socket directory (PGHOST) for its files; psql variable `dir` is
-- that directory, where the server reads them back.
SET search_path = public, fairsched;
\if :{?live_seconds}
\else
\set live_seconds 8
\endif

-- 100 accounts of 99 users: 1 + 100 + 9,900 = 10,001 nodes
CREATE TABLE lv_assoc (path sharepath PRIMARY KEY, shares float8 NOT NULL);
INSERT INTO lv_assoc SELECT ('a' || a)::sharepath, 1 + a % 7 FROM generate_series(0, 99) AS a;
INSERT INTO lv_assoc SELECT ('a' || (i % 100) || '.u' || i)::sharepath, 1 + i % 5
FROM generate_series(0, 9899) AS i;
CREATE TABLE lv_usage (path sharepath PRIMARY KEY, u decayed_usage NOT NULL);
INSERT INTO lv_usage SELECT path, decayed_usage(0, now(), '7 days') FROM lv_assoc WHERE nlevel(path) = 2;
CREATE TABLE lv_log (id bigserial PRIMARY KEY, path sharepath NOT NULL, amount float8 NOT NULL,
                     at timestamptz NOT NULL);
-- the plain-SQL form: a value and its instant
CREATE TABLE lv_plain (path sharepath PRIMARY KEY, v float8 NOT NULL, at timestamptz NOT NULL);
INSERT INTO lv_plain SELECT path, 0, now() FROM lv_assoc WHERE nlevel(path) = 2;
CREATE TABLE lv_plain_log (id bigserial PRIMARY KEY, path sharepath NOT NULL, amount float8 NOT NULL,
                           at timestamptz NOT NULL);
VACUUM ANALYZE lv_assoc, lv_usage, lv_plain;

\! mkdir -p "$PGHOST/live" && chmod 777 "$PGHOST/live" && cd "$PGHOST/live" && printf '%s\n' '\set i random(0, 9899)' '\set c random(1, 1000)' "WITH l AS (INSERT INTO lv_log (path, amount, at) VALUES (('a' || (:i % 100) || '.u' || :i)::sharepath, :c / 8.0, now()) RETURNING path, amount, at) UPDATE lv_usage SET u = u + decayed_usage(l.amount, l.at, half_life(u)) FROM l WHERE lv_usage.path = l.path;" >charge.sql
\! cd "$PGHOST/live" && printf '%s\n' "SELECT count(*) FROM fairshare((SELECT share_tree(a.path, a.shares, coalesce(value(u.u, now()), 0)) FROM lv_assoc AS a LEFT JOIN lv_usage AS u USING (path))) AS f WHERE f.is_leaf;" >read.sql
\! cd "$PGHOST/live" && printf '%s\n' '\set i random(0, 9899)' '\set c random(1, 1000)' "WITH l AS (INSERT INTO lv_plain_log (path, amount, at) VALUES (('a' || (:i % 100) || '.u' || :i)::sharepath, :c / 8.0, now()) RETURNING path, amount, at) UPDATE lv_plain SET v = v * 2 ^ (extract(epoch FROM lv_plain.at - l.at)::float8 / 604800) + l.amount, at = greatest(lv_plain.at, l.at) FROM l WHERE lv_plain.path = l.path;" >plain_charge.sql
\! cd "$PGHOST/live" && printf '%s\n' "SELECT count(*) FROM fairshare((SELECT share_tree(a.path, a.shares, coalesce(p.v * 2 ^ (extract(epoch FROM p.at - now())::float8 / 604800), 0)) FROM lv_assoc AS a LEFT JOIN lv_plain AS p USING (path))) AS f WHERE f.is_leaf;" >plain_read.sql

-- one run: writers and readers side by side; the run's length comes in through the environment
\setenv LIVE_SECONDS :live_seconds
\! cd "$PGHOST/live" && export PGOPTIONS="-c search_path=public,fairsched" && (pgbench -n -c 8 -j 2 -T "$LIVE_SECONDS" -f charge.sql >w.out 2>&1 & pgbench -n -c 2 -j 1 -T "$LIVE_SECONDS" -f read.sql -l --log-prefix=rlog >r.out 2>&1; wait) && cat rlog.* >r.all
\! cd "$PGHOST/live" && export PGOPTIONS="-c search_path=public,fairsched" && (pgbench -n -c 8 -j 2 -T "$LIVE_SECONDS" -f plain_charge.sql >pw.out 2>&1 & pgbench -n -c 2 -j 1 -T "$LIVE_SECONDS" -f plain_read.sql -l --log-prefix=prlog >pr.out 2>&1; wait) && cat prlog.* >pr.all

-- the charges of the runs at full speed
CREATE TEMP TABLE lv_counts AS
SELECT (SELECT count(*) FROM lv_log) AS f, (SELECT count(*) FROM lv_plain_log) AS p;
-- and with the writers held to 2,000 charges a second, the load the read latency is aimed at
\! cd "$PGHOST/live" && export PGOPTIONS="-c search_path=public,fairsched" && (pgbench -n -c 8 -j 2 -T "$LIVE_SECONDS" -R 2000 -f charge.sql >w2.out 2>&1 & pgbench -n -c 2 -j 1 -T "$LIVE_SECONDS" -f read.sql -l --log-prefix=rlog2 >r2.out 2>&1; wait) && cat rlog2.* >r2.all
\! cd "$PGHOST/live" && export PGOPTIONS="-c search_path=public,fairsched" && (pgbench -n -c 8 -j 2 -T "$LIVE_SECONDS" -R 2000 -f plain_charge.sql >pw2.out 2>&1 & pgbench -n -c 2 -j 1 -T "$LIVE_SECONDS" -f plain_read.sql -l --log-prefix=prlog2 >pr2.out 2>&1; wait) && cat prlog2.* >pr2.all

-- the readers' per-transaction lines: client, transaction, latency in microseconds, ...
CREATE TEMP TABLE lv_lat (client int, tx int, us bigint, script int, epoch bigint, epoch_us bigint);
CREATE TEMP TABLE lv_plain_lat (LIKE lv_lat);
CREATE TEMP TABLE lv_lat2 (LIKE lv_lat);
CREATE TEMP TABLE lv_plain_lat2 (LIKE lv_lat);
SELECT format('COPY %I FROM %L WITH (DELIMITER %L)', t, :'dir' || '/live/' || f, ' ')
FROM (VALUES ('lv_lat', 'r.all'), ('lv_plain_lat', 'pr.all'), ('lv_lat2', 'r2.all'),
             ('lv_plain_lat2', 'pr2.all')) AS v(t, f) \gexec

-- sanity: both runs did their work without a failed transaction, and the stored usage is the
-- charge log's
SELECT bench_assert((SELECT count(*) FROM lv_log) > 0 AND (SELECT count(*) FROM lv_plain_log) > 0,
                    'a run charged nothing');
SELECT bench_assert((SELECT count(*) FROM lv_lat) > 0 AND (SELECT count(*) FROM lv_plain_lat) > 0,
                    'a run read nothing');
SELECT bench_assert(NOT EXISTS (
    SELECT FROM (SELECT path, decayed_sum(amount, at, '7 days') AS d FROM lv_log GROUP BY path) AS l
    JOIN lv_usage AS u USING (path)
    WHERE abs(value(u.u, '2100-01-01') - value(l.d, '2100-01-01'))
          > 1e-12 * greatest(value(u.u, '2100-01-01'), 1e-300)),
    'the stored usage differs from decayed_sum over the charge log');

INSERT INTO bench_results (workload, rows, fairsched_ms, baseline, baseline_ms)
SELECT 'live: charges/s, 8 writers and 2 fairshare readers, 10^4-node tree', f,
       :live_seconds * 1000.0, 'float8 and instant per user, decayed inline',
       f / (p / (:live_seconds * 1000.0))
FROM lv_counts;
INSERT INTO bench_results (workload, rows, fairsched_ms, baseline, baseline_ms)
SELECT format('live: fairshare read beside unlimited charging, %s', q.name), 10001,
       (SELECT percentile_cont(q.p) WITHIN GROUP (ORDER BY us) / 1000 FROM lv_lat),
       'the same over the plain-SQL usage',
       (SELECT percentile_cont(q.p) WITHIN GROUP (ORDER BY us) / 1000 FROM lv_plain_lat)
FROM (VALUES ('median', 0.5), ('p99', 0.99)) AS q(name, p);
INSERT INTO bench_results (workload, rows, fairsched_ms, baseline, baseline_ms)
SELECT format('live: fairshare read beside 2,000 charges/s, %s', q.name), 10001,
       (SELECT percentile_cont(q.p) WITHIN GROUP (ORDER BY us) / 1000 FROM lv_lat2),
       'the same over the plain-SQL usage',
       (SELECT percentile_cont(q.p) WITHIN GROUP (ORDER BY us) / 1000 FROM lv_plain_lat2)
FROM (VALUES ('median', 0.5), ('p99', 0.99)) AS q(name, p);

DROP TABLE lv_log, lv_plain_log, lv_usage, lv_plain, lv_assoc;
