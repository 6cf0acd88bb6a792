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
