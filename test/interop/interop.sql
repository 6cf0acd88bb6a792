-- test/interop/interop.sql: what the interop suite reads SLURM's printed text with, in a schema
-- of its own (interop), on a database where fairsched is installed. psql variable: none. The
-- snapshots are rows of interop.out(snap, name, body): snap 'fair_tree' or 'classic', name a
-- file of scenario_snapshot (sprio_l.txt, ...).
CREATE SCHEMA interop;
CREATE TABLE interop.out (snap text, name text, body text, PRIMARY KEY (snap, name));

-- the lines of a file, numbered from 1, without the empty line after the last newline
CREATE FUNCTION interop.lines(s text, n text) RETURNS TABLE(ln int, line text) LANGUAGE sql STABLE AS $$
    SELECT l.ord::int, l.line
    FROM interop.out o, regexp_split_to_table(rtrim(o.body, E'\n'), E'\n') WITH ORDINALITY AS l(line, ord)
    WHERE o.snap = s AND o.name = n AND o.body <> ''
$$;

-- scontrol show -o: one record per line, read by fairsched's own scontrol_show
CREATE FUNCTION interop.records(s text, n text) RETURNS TABLE(rec int, attrs jsonb) LANGUAGE sql STABLE AS $$
    SELECT r.record, r.attrs
    FROM interop.out o, fairsched.scontrol_show(o.body) r
    WHERE o.snap = s AND o.name = n AND o.body <> ''
$$;

-- sshare -a -l -P with each row's path, from the indentation (one blank per level below root)
CREATE FUNCTION interop.sshare(s text) RETURNS TABLE(ln int, path fairsched.sharepath, account text,
    "user" text, raw_shares text, norm_shares text, raw_usage text, norm_usage text,
    effectv_usage text, fairshare text, level_fs text) LANGUAGE sql STABLE AS $$
    WITH RECURSIVE c AS (
        SELECT l.ln, length(f[1]) - length(ltrim(f[1])) AS depth, ltrim(f[1]) AS account,
               f[2] AS usr, f[3] AS raw_shares, f[4] AS norm_shares, f[5] AS raw_usage,
               f[6] AS norm_usage, f[7] AS effectv_usage, f[8] AS fairshare, f[9] AS level_fs
        FROM interop.lines(s, 'sshare_a_l_P.txt') l, string_to_array(l.line, '|') AS f
        WHERE l.ln > 1),
    t AS (
        SELECT c.*, NULL::text AS p FROM c WHERE c.depth = 0
        UNION ALL
        SELECT c.*, coalesce(t.p || '.', '') || CASE WHEN c.usr <> '' THEN c.usr ELSE c.account END
        FROM t JOIN c ON c.depth = t.depth + 1 AND t.usr = ''
         AND t.ln = (SELECT max(x.ln) FROM c x WHERE x.depth = c.depth - 1 AND x.usr = '' AND x.ln < c.ln))
    SELECT ln, coalesce(p, '')::fairsched.sharepath, account, usr, raw_shares, norm_shares, raw_usage,
           norm_usage, effectv_usage, fairshare, level_fs
    FROM t
$$;

-- the share tree SLURM's sshare shows: every association's RawShares, the users' RawUsage
CREATE FUNCTION interop.tree(s text) RETURNS fairsched.sharetree LANGUAGE sql STABLE AS $$
    SELECT fairsched.share_tree(path, raw_shares::float8,
                                CASE WHEN "user" <> '' THEN raw_usage::float8 ELSE 0 END)
    FROM interop.sshare(s) WHERE path::text <> ''
$$;

-- a number as SLURM's printf prints it with as many decimals as the printed value has
CREATE FUNCTION interop.like_slurm(v float8, printed text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN v IS NULL THEN ''
                WHEN v = 'Infinity' THEN 'inf'
                ELSE round(v::numeric, coalesce(length(substring(printed FROM '\.(\d+)$')), 0))::text END
$$;

CREATE FUNCTION interop.config(s text) RETURNS fairsched.slurm_priority_config LANGUAGE sql STABLE AS $$
    SELECT fairsched.slurm_priority_config(body) FROM interop.out WHERE snap = s AND name = 'scontrol_show_config.txt'
$$;

CREATE FUNCTION interop.as_of(s text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT to_timestamp(trim(body)::bigint) FROM interop.out WHERE snap = s AND name = 'last_pass.txt'
$$;

-- sacctmgr show assoc -P / show qos -P as rows of text
CREATE FUNCTION interop.psv(s text, n text) RETURNS TABLE(ln int, r jsonb) LANGUAGE sql STABLE AS $$
    WITH l AS (SELECT * FROM interop.lines(s, n)),
         h AS (SELECT string_to_array(line, '|') AS cols FROM l WHERE ln = 1)
    SELECT l.ln, (SELECT jsonb_object_agg(h.cols[i], v.f[i])
                  FROM generate_subscripts(h.cols, 1) AS i)
    FROM l, h, LATERAL (SELECT string_to_array(l.line, '|') AS f) v WHERE l.ln > 1
$$;

CREATE FUNCTION interop.cluster(s text) RETURNS fairsched.slurm_cluster LANGUAGE sql STABLE AS $$
    SELECT ROW(
        (SELECT count(*) FROM interop.records(s, 'scontrol_show_o_node.txt')),
        (SELECT sum((attrs->>'CPUTot')::int) FROM interop.records(s, 'scontrol_show_o_node.txt')),
        (SELECT coalesce(max(nullif(r->>'Priority', '')::bigint), 0) FROM interop.psv(s, 'sacctmgr_show_assoc_P.txt')),
        (SELECT max((attrs->>'PriorityJobFactor')::int) FROM interop.records(s, 'scontrol_show_o_partition.txt')),
        (SELECT coalesce(max(nullif(r->>'Priority', '')::bigint), 0) FROM interop.psv(s, 'sacctmgr_show_qos_P.txt'))
    )::fairsched.slurm_cluster
$$;

-- the pending jobs sprio lists, one slurm_job per job and partition (in the job's order of
-- partitions), with the fair-share factor fairsched computes from sshare's shares and usage
CREATE FUNCTION interop.jobs(s text, algorithm text) RETURNS fairsched.slurm_job[] LANGUAGE sql STABLE AS $$
    WITH j AS (
        SELECT attrs FROM interop.records(s, 'scontrol_show_o_job.txt')
        WHERE attrs->>'JobState' = 'PENDING' AND (attrs->>'Priority')::bigint > 0),
    p AS (SELECT attrs->>'PartitionName' AS name, attrs FROM interop.records(s, 'scontrol_show_o_partition.txt')),
    fs AS (SELECT f.path, f.fairshare FROM fairsched.fairshare(interop.tree(s), algorithm) f),
    a AS (SELECT r->>'Account' AS account, r->>'User' AS usr, nullif(r->>'Priority', '')::bigint AS prio
          FROM interop.psv(s, 'sacctmgr_show_assoc_P.txt')),
    q AS (SELECT r->>'Name' AS name, nullif(r->>'Priority', '')::bigint AS prio FROM interop.psv(s, 'sacctmgr_show_qos_P.txt'))
    SELECT array_agg(ROW(
        j.attrs->>'JobId', split_part(j.attrs->>'UserId', '(', 1), j.attrs->>'Account', part.name,
        j.attrs->>'QOS',
        (j.attrs->>'SubmitTime' || '+00')::timestamptz,
        (nullif(j.attrs->>'AccrueTime', 'Unknown') || '+00')::timestamptz,
        split_part(j.attrs->>'NumNodes', '-', 1)::int, split_part(j.attrs->>'NumCPUs', '-', 1)::int,
        fairsched.slurm_duration(j.attrs->>'TimeLimit') * interval '1 second',
        (j.attrs->>'TRES')::fairsched.resvec,
        (SELECT fs.fairshare FROM fs
         WHERE fs.path::text = (SELECT sh.path::text FROM interop.sshare(s) sh
                          WHERE sh.account = j.attrs->>'Account' AND sh."user" = split_part(j.attrs->>'UserId', '(', 1))),
        (SELECT a.prio FROM a WHERE a.account = j.attrs->>'Account' AND a.usr = split_part(j.attrs->>'UserId', '(', 1)),
        (p.attrs->>'PriorityJobFactor')::int, (p.attrs->>'PriorityTier')::int,
        fairsched.slurm_duration(p.attrs->>'MaxTime') * interval '1 second',
        (p.attrs->>'TRES')::fairsched.resvec,
        (SELECT q.prio FROM q WHERE q.name = j.attrs->>'QOS'),
        0, (j.attrs->>'Nice')::bigint, NULL, NULL)::fairsched.slurm_job
        ORDER BY (j.attrs->>'JobId')::bigint, part.ord)
    FROM j, unnest(string_to_array(j.attrs->>'Partition', ',')) WITH ORDINALITY AS part(name, ord)
    JOIN p ON p.name = part.name
$$;

-- two printed lines cell by cell (blank-separated), the columns named by SLURM's header
CREATE FUNCTION interop.cells(s text, n text, ours text[]) RETURNS TABLE(item text, slurm text, fairsched text)
LANGUAGE sql STABLE AS $$
    WITH sl AS (SELECT ln, line FROM interop.lines(s, n)),
         hdr AS (SELECT regexp_split_to_array(trim(line), '\s+') AS h FROM sl WHERE ln = 1),
         pair AS (SELECT coalesce(sl.ln, o.ord::int) AS ln, sl.line AS a, o.line AS b
                  FROM sl FULL JOIN unnest(ours) WITH ORDINALITY AS o(line, ord) ON o.ord = sl.ln)
    SELECT format('%s line %s %s', n, pair.ln, coalesce(hdr.h[i], 'cell ' || i)),
           (regexp_split_to_array(trim(pair.a), '\s+'))[i], (regexp_split_to_array(trim(pair.b), '\s+'))[i]
    FROM pair, hdr,
         generate_series(1, greatest(cardinality(regexp_split_to_array(trim(coalesce(pair.a, '')), '\s+')),
                                     cardinality(regexp_split_to_array(trim(coalesce(pair.b, '')), '\s+')))) AS i
    UNION ALL
    SELECT format('%s line %s bytes', n, pair.ln), pair.a, pair.b FROM pair
$$;

-- an instant as sacct prints it with TZ=UTC (Unknown for none)
CREATE FUNCTION interop.slurm_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), 'Unknown')
$$;
-- seconds as sacct's Elapsed: [D-]HH:MM:SS
CREATE FUNCTION interop.slurm_elapsed(s float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN s >= 86400 THEN (s::bigint / 86400) || '-' ELSE '' END
           || lpad((s::bigint % 86400 / 3600)::text, 2, '0') || ':'
           || lpad((s::bigint % 3600 / 60)::text, 2, '0') || ':' || lpad((s::bigint % 60)::text, 2, '0')
$$;
-- bytes in the unit of a printed size (62.50G, 1000M): the printed text when they agree
CREATE FUNCTION interop.slurm_size(b float8, printed text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN b IS NULL THEN '<none>'
                WHEN abs(b - substring(printed FROM '^[0-9.]+')::float8
                         * 1024 ^ (position(right(printed, 1) IN 'KMGTP'))) < 1024 ^ position(right(printed, 1) IN 'KMGTP') * 0.005
                THEN printed ELSE b::text END
$$;
-- a TRES list as sacct prints it, and the resvec: the text when each amount agrees (sizes in
-- K/M/G/T/P of 1024, as sacct prints them; 0 without a unit)
CREATE FUNCTION interop.same_tres(printed text, v fairsched.resvec) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN printed = '' THEN coalesce(v::text, '')
                WHEN v IS NOT NULL AND bool_and(abs(coalesce(fairsched.resvec_get(v, m.kv[1]), 0) - a.amount)
                                                <= 0.005 * greatest(a.amount, 1))
                THEN printed ELSE coalesce(v::text, '<none>') END
    FROM regexp_split_to_table(printed, ',') AS p,
         LATERAL (SELECT regexp_match(p, '^([^=]+)=([0-9.]+)([KMGTP]?)$') AS kv) m,
         LATERAL (SELECT m.kv[2]::float8 * CASE WHEN m.kv[3] = '' THEN 1
                                               ELSE 1024 ^ position(m.kv[3] IN 'KMGTP') END AS amount) a
$$;

-- sacct --json (sacct_json.json) read by sacct_json, one record per job and step
CREATE FUNCTION interop.json_records(s text) RETURNS SETOF fairsched.sacct_record LANGUAGE sql STABLE AS $$
    SELECT r.* FROM interop.out o, fairsched.sacct_json(o.body::jsonb) r
    WHERE o.snap = s AND o.name = 'sacct_json.json'
$$;
-- a --parsable2 file read by sacct_row against its own header line
CREATE FUNCTION interop.row_records(s text, n text) RETURNS SETOF fairsched.sacct_record LANGUAGE sql STABLE AS $$
    SELECT r.* FROM interop.lines(s, n) l, (SELECT line FROM interop.lines(s, n) WHERE ln = 1) h,
                    fairsched.sacct_row(l.line, h.line) r
    WHERE l.ln > 1
$$;
-- Slurm 22.05's dbv0.0.38 writes {"status": "SUCCESS", "return_code": 0} for a FAILED job or
-- step that exited non-zero, and sacct_json gives it no exit code (and says so in anomalies).
-- The rule the comparisons hold it to: where --parsable2 printed FAILED with a non-zero exit
-- code, the JSON has none; elsewhere both have the code sacct printed.
-- printed: the ExitCode cell sacct printed (N:S); value: the cell compared (that cell, or a field)
CREATE FUNCTION interop.exit_rule(state text, printed text, value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN state = 'FAILED' AND split_part(printed, ':', 1) NOT IN ('', '0')
                THEN 'not in dbv0.0.38 JSON' ELSE value END
$$;
CREATE FUNCTION interop.json_exit(r fairsched.sacct_record, v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN r.exit_code IS NULL AND EXISTS (
                    SELECT FROM unnest(r.anomalies) a WHERE a LIKE 'exit_code says SUCCESS for a FAILED%')
                THEN 'not in dbv0.0.38 JSON' ELSE v END
$$;

-- ---- sreport (the snapshot 'sreport' of scenario_sreport) ----
CREATE FUNCTION interop.sreport_window(s text) RETURNS TABLE(w_start timestamptz, w_end timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT to_timestamp(split_part(trim(body), ' ', 1)::bigint), to_timestamp(split_part(trim(body), ' ', 2)::bigint)
    FROM interop.out WHERE snap = s AND name = 'window.txt'
$$;
-- sacctmgr show event -P (Cluster|NodeName|TimeStart|TimeEnd|State|TRES): each event's interval
-- (an open one, TimeEnd Unknown, has none) and its CPUs
CREATE FUNCTION interop.events(s text, n text) RETURNS TABLE(node text, t0 timestamptz, t1 timestamptz,
    state text, cpus float8) LANGUAGE sql STABLE AS $$
    SELECT f[2], (f[3] || '+00')::timestamptz,
           CASE WHEN f[4] IN ('', 'Unknown') THEN NULL ELSE (f[4] || '+00')::timestamptz END,
           f[5], substring(f[6] FROM '(?:^|,)cpu=([0-9]+)')::float8
    FROM interop.lines(s, n) l, string_to_array(l.line, '|') AS f WHERE l.ln > 1
$$;
-- slurmdbd's hourly rollup of the window, hour by hour, from the sacct records and the events:
-- up (the CPU-seconds the cluster was registered), allocated, down (node events while the
-- cluster was up) and planned (CPU-seconds of eligible pending jobs while the cluster was up),
-- planned cut to what the hour had left, as the rollup stores it
CREATE FUNCTION interop.sreport_hours(s text) RETURNS TABLE(h timestamptz, cpus float8, up float8,
    alloc float8, down float8, planned float8) LANGUAGE sql STABLE AS $$
    WITH w AS (SELECT * FROM interop.sreport_window(s)),
    hrs AS (SELECT g AS h, g + interval '1 hour' AS e
            FROM w, generate_series(w.w_start, w.w_end - interval '1 hour', interval '1 hour') g),
    cl AS (SELECT hrs.h, max(ev.cpus) AS cpus,
                  sum(ev.cpus * extract(epoch FROM least(coalesce(ev.t1, hrs.e), hrs.e) - greatest(ev.t0, hrs.h))) AS up,
                  min(greatest(ev.t0, hrs.h)) AS c0, max(least(coalesce(ev.t1, hrs.e), hrs.e)) AS c1
           FROM hrs JOIN interop.events(s, 'sacctmgr_show_event_cluster_P.txt') ev
             ON ev.t0 < hrs.e AND coalesce(ev.t1, 'infinity') > hrs.h
           GROUP BY hrs.h),
    j AS (SELECT cl.h, sum(fairsched.sacct_tres_seconds(r, cl.h, cl.h + interval '1 hour')) AS alloc,
                 sum(fairsched.sacct_planned_seconds(r, cl.c0, cl.c1)) AS planned
          FROM cl, interop.row_records(s, 'sacct_P_sreport_window.txt') r GROUP BY cl.h),
    d AS (SELECT cl.h, coalesce(sum(ev.cpus * greatest(0, extract(epoch FROM least(coalesce(ev.t1, cl.c1), cl.c1)
                                                                  - greatest(ev.t0, cl.c0)))), 0) AS down
          FROM cl LEFT JOIN interop.events(s, 'sacctmgr_show_event_node_P.txt') ev
            ON ev.t0 < cl.c1 AND coalesce(ev.t1, 'infinity') > cl.c0
          GROUP BY cl.h)
    SELECT cl.h, cl.cpus, cl.up, j.alloc, d.down,
           least(j.planned, greatest(0, cl.up - j.alloc - d.down))
    FROM cl JOIN j USING (h) JOIN d USING (h) ORDER BY cl.h
$$;
-- the use of each association over the window (TRES-seconds of CPU)
CREATE FUNCTION interop.sreport_use(s text) RETURNS TABLE(account text, "user" text, used float8)
LANGUAGE sql STABLE AS $$
    SELECT r.account, r."user", sum(fairsched.sacct_tres_seconds(r, w.w_start, w.w_end))
    FROM interop.sreport_window(s) w, interop.row_records(s, 'sacct_P_sreport_window.txt') r
    WHERE r.step IS NULL GROUP BY 1, 2
$$;
-- the association tree as sshare -a -l -P printed it (of the snapshot t), the root and the
-- users without use in the window left out
CREATE FUNCTION interop.sreport_assocs(s text, t text) RETURNS TABLE(account text, "user" text,
    path fairsched.sharepath, used float8) LANGUAGE sql STABLE AS $$
    SELECT a.account, nullif(a."user", ''), a.path, coalesce(u.used, 0)
    FROM interop.sshare(t) a
    LEFT JOIN interop.sreport_use(s) u ON u.account = a.account AND u."user" = a."user"
    WHERE a.path::text <> '' AND (a."user" = '' OR coalesce(u.used, 0) > 0)
$$;
-- the instant sreport ran the report in the format (sreport_instants.txt; none: the window's end)
CREATE FUNCTION interop.sreport_instant(s text, report text, fmt text) RETURNS TABLE(at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT to_timestamp(split_part(l.line, ' ', 2)::bigint)
                     FROM interop.lines(s, 'sreport_instants.txt') l
                     WHERE split_part(l.line, ' ', 1) = 'sreport_P_' || CASE WHEN fmt = 'Minutes' THEN ''
                                                                         ELSE 't' || fmt || '_' END
                                                       || report || '.txt'),
                    'infinity')
$$;
-- each report's lines as sreport -P prints them (the column header first), for a -t format; the
-- cluster and user reports from the hourly rollup (interop.sreport_hours: what still runs counts
-- to the end of the hour), job SizesByAccount from the job records, where a running job counts to
-- the instant sreport ran
CREATE FUNCTION interop.our_sreport(s text, t text, report text, fmt text) RETURNS TABLE(k bigint, line text)
LANGUAGE sql STABLE AS $$
    WITH tot AS (SELECT sum(up) AS up, sum(alloc) AS alloc, sum(down) AS down, sum(planned) AS planned,
                        max(cpus) AS cpus FROM interop.sreport_hours(s)),
    w AS (SELECT * FROM interop.sreport_window(s)),
    lines AS (
        SELECT 0 AS ord, CASE report
            WHEN 'cluster_Utilization' THEN 'Cluster|Allocated|Down|PLND Down|Idle|Planned|Reported'
            WHEN 'cluster_AccountUtilizationByUser' THEN 'Cluster|Account|Login|Proper Name|Used|Energy'
            WHEN 'job_SizesByAccount' THEN 'Cluster|Account|0-49 CPUs|50-249 CPUs|250-499 CPUs|500-999 CPUs|>= 1000 CPUs|% of cluster'
            ELSE 'Cluster|Login|Proper Name|Account|Used|Energy' END AS line
        UNION ALL
        SELECT 1, concat_ws('|', u.cluster, u.allocated, u.down, u.plnd_down, u.idle, u.planned, u.reported)
        FROM tot, w, fairsched.sreport_cluster_utilization('fsinterop', tot.cpus, w.w_start, w.w_end, tot.alloc,
                                                          tot.down, 0, tot.planned, fmt, tot.up) AS u
        WHERE report = 'cluster_Utilization'
        UNION ALL
        SELECT n.ordinality, concat_ws('|', 'fsinterop', coalesce(a.account, 'root'), coalesce(a."user", ''), '',
                                      fairsched.sreport_time(n.usage, tot.up, fmt), fairsched.sreport_time(0, 0, fmt))
        FROM tot, fairsched.tree_nodes((SELECT fairsched.share_tree(a.path, NULL, a.used)
                                        FROM interop.sreport_assocs(s, t) a)) WITH ORDINALITY AS n
        LEFT JOIN interop.sreport_assocs(s, t) AS a ON a.path = n.path
        WHERE report = 'cluster_AccountUtilizationByUser'
        UNION ALL
        SELECT row_number() OVER (ORDER BY u.used DESC, u."user"),
               concat_ws('|', 'fsinterop', u."user", '', u.account, fairsched.sreport_time(u.used, tot.up, fmt),
                         fairsched.sreport_time(0, 0, fmt))
        FROM tot, interop.sreport_use(s) u
        WHERE u.used > 0 AND report IN ('cluster_UserUtilizationByAccount', 'user_TopUsage')
        UNION ALL
        SELECT 1, concat_ws('|', 'fsinterop', 'root',
                            fairsched.sreport_time(coalesce(sum(x.s) FILTER (WHERE x.ncpus < 50), 0), sum(x.s), fmt),
                            fairsched.sreport_time(coalesce(sum(x.s) FILTER (WHERE x.ncpus >= 50 AND x.ncpus < 250), 0), sum(x.s), fmt),
                            fairsched.sreport_time(coalesce(sum(x.s) FILTER (WHERE x.ncpus >= 250 AND x.ncpus < 500), 0), sum(x.s), fmt),
                            fairsched.sreport_time(coalesce(sum(x.s) FILTER (WHERE x.ncpus >= 500 AND x.ncpus < 1000), 0), sum(x.s), fmt),
                            fairsched.sreport_time(coalesce(sum(x.s) FILTER (WHERE x.ncpus >= 1000), 0), sum(x.s), fmt),
                            fairsched.sreport_time(sum(x.s), sum(x.s), 'Percent'))
        FROM (SELECT r.ncpus, fairsched.sacct_tres_seconds(r, w.w_start, least(w.w_end, i.at)) AS s
              FROM w, interop.sreport_instant(s, report, fmt) i,
                   interop.row_records(s, 'sacct_P_sreport_window.txt') r WHERE r.step IS NULL) x
        HAVING report = 'job_SizesByAccount')
    SELECT row_number() OVER (ORDER BY ord), line FROM lines
    WHERE report <> 'user_TopUsage' OR ord <= 10
$$;
