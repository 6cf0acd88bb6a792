-- test/dist/probe.sql: what the data of test/dist/fill.sql reads back as, printed as lines that
-- two databases (a source and its restored dump; one database before and after ALTER EXTENSION
-- UPDATE) must print identically. For every column of every table and view in schema fill: its
-- values as text and, for fairsched's base types, their binary send bytes (arrays and composites
-- carry type OIDs in theirs, which differ between databases); for types with a btree
-- order, the row order it gives and its distinct values; for types with =, the pairs a hash join
-- on = finds. Then lookups through each index, and the analyses and aggregates over the stored
-- values and states. Run with psql -X -A -t.
\set ON_ERROR_STOP on
SET TimeZone = 'UTC';
SET search_path = fill, public, fairsched;
SET extra_float_digits = 3;

CREATE FUNCTION pg_temp.probe_columns() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    key text;
    line text;
    part text;
BEGIN
    FOR r IN
        SELECT c.oid::regclass AS rel, c.relkind, a.attname, t.oid AS typ,
               t.typnamespace = 'fairsched'::regnamespace AND t.typtype = 'b'
                   AND NOT EXISTS (SELECT FROM pg_type AS e WHERE e.typarray = t.oid) AS own_base,
               t.typsend::regproc AS send,
               EXISTS (SELECT FROM pg_opclass AS o
                       WHERE o.opcintype = t.oid AND o.opcdefault
                         AND o.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree'))
                   AND t.typnamespace = 'fairsched'::regnamespace AS ordered,
               EXISTS (SELECT FROM pg_attribute AS k
                       WHERE k.attrelid = c.oid AND k.attname = 'id' AND NOT k.attisdropped) AS has_id
        FROM pg_class AS c
        JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_type AS t ON t.oid = a.atttypid
        WHERE c.relnamespace = 'fill'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm')
        ORDER BY c.relname, a.attnum
    LOOP
        key := CASE WHEN r.has_id THEN 'id' ELSE format('%I::text', r.attname) END;
        EXECUTE format('SELECT format(''n=%%s text=%%s'', count(%1$I), md5(string_agg(coalesce(%1$I::text, ''<NULL>''), E''\n'' ORDER BY %3$s))) FROM %2$s',
                       r.attname, r.rel, key) INTO line;
        IF r.own_base THEN
            EXECUTE format('SELECT md5(string_agg(coalesce(encode(%3$s(%1$I), ''hex''), ''<NULL>''), E''\n'' ORDER BY %4$s)) FROM %2$s',
                           r.attname, r.rel, r.send, key) INTO part;
            line := line || ' send=' || part;
        END IF;
        IF r.ordered THEN
            EXECUTE format('SELECT format(''order=%%s distinct=%%s pairs=%%s'', '
                           '(SELECT md5(string_agg(%3$s::text, '','' ORDER BY %1$I, %3$s)) FROM %2$s), '
                           '(SELECT count(DISTINCT %1$I) FROM %2$s), '
                           '(SELECT count(*) FROM %2$s AS a JOIN %2$s AS b ON a.%1$I = b.%1$I))',
                           r.attname, r.rel, key) INTO part;
            line := line || ' ' || part;
        END IF;
        RETURN NEXT format('%s.%s: %s', r.rel, r.attname, line);
    END LOOP;
END
$$;

\echo '-- columns'
SELECT * FROM pg_temp.probe_columns();

\echo '-- lookups through the indexes'
SET enable_seqscan = off;
SELECT 'used =', count(*), md5(string_agg(id::text, ',' ORDER BY id))
FROM fill.vectors WHERE used = (SELECT used FROM fill.vectors WHERE id = 77);
SELECT 'used <', count(*), md5(string_agg(id::text, ',' ORDER BY id))
FROM fill.vectors WHERE used < (SELECT used FROM fill.vectors WHERE id = 77);
SELECT 'path range', count(*), md5(string_agg(id::text, ',' ORDER BY id))
FROM fill.vectors WHERE path >= 'chem' AND path < 'physics.bob';
SELECT 'ncpus expr', count(*) FROM fill.vectors WHERE (used -> 'ncpus') = 8;
SELECT 'partial', count(*) FROM fill.vectors WHERE path <@ 'physics' AND used > 'mem=1gb';
SELECT 'part used', count(*) FROM fill.part WHERE used = (SELECT used FROM fill.part ORDER BY id LIMIT 1);
SELECT 'part path', count(*) FROM fill.part WHERE path = 'chem.bob';
SELECT 'unlogged', count(*) FROM fill.unlogged WHERE used IS NOT NULL AND used >= '';
RESET enable_seqscan;

\echo '-- analyses of the stored values and states'
SELECT owner, sum(used), sum(requested), count(DISTINCT path) FROM fill.vectors GROUP BY owner ORDER BY owner;
SELECT share_tree(path, NULL, coalesce(used -> 'ncpus', 0)) FROM fill.vectors;
SELECT id, md5(string_agg(f::text, E'\n' ORDER BY f.path)) FROM fill.states, fairshare(tree) AS f
GROUP BY id ORDER BY id;
SELECT id, md5(string_agg(f::text, E'\n' ORDER BY f.path))
FROM fill.states, fairshare(parent_tree, 'fair_tree') AS f GROUP BY id ORDER BY id;
SELECT id, md5(string_agg(n::text, E'\n' ORDER BY n.path)) FROM fill.states, tree_nodes(pool) AS n
GROUP BY id ORDER BY id;
SELECT id, md5(string_agg(f::text, E'\n' ORDER BY f.path))
FROM fill.states, fair_share(pool, 'ncpus=100000,mem=100tb,walltime=1000000:00:00') AS f
GROUP BY id ORDER BY id;
SELECT id, value(decayed, '2026-06-01'), userprio_final(prio), msic_queue_acc_share(acc)
FROM fill.states WHERE id < 100 ORDER BY id;
SELECT id, md5(string_agg(h::text, E'\n' ORDER BY h.day)) FROM fill.states, msic_queue_history(acc) AS h
GROUP BY id ORDER BY id;
SELECT id, md5(string_agg(p::text, E'\n' ORDER BY p.rank))
FROM fill.states, placement_sets(vnodes, ARRAY['switch', 'rack']) AS p GROUP BY id ORDER BY id;

-- partial states combined as a distributed plan combines them
CREATE AGGREGATE pg_temp.merged(sharetree) (SFUNC = sharetree_combine, STYPE = sharetree);
CREATE AGGREGATE pg_temp.merged(decayed_usage) (SFUNC = decayed_usage_combine, STYPE = decayed_usage);
CREATE AGGREGATE pg_temp.merged(vnodepool) (SFUNC = vnode_pool_combine, STYPE = vnodepool);
SELECT pg_temp.merged(tree ORDER BY id), pg_temp.merged(pool ORDER BY id),
       pg_temp.merged(decayed ORDER BY id), sum(total)
FROM fill.states WHERE id < 100;
SELECT md5(pg_temp.merged(vnodes ORDER BY id)::text) FROM fill.states;
SELECT md5(pg_temp.merged(tree ORDER BY id)::text), md5(pg_temp.merged(decayed ORDER BY id)::text) FROM fill.part;

SELECT id, msic_rank(share, 40), msic_past_pct(share), (config).fair_share,
       msic_primetime_limit(config, '2026-01-05 09:00', '6 hours'), pbs_usage('cput', (pbs).used),
       (sacct).alloc_tres, (job).walltime
FROM fill.records ORDER BY id;

-- PBS job_sort_formulas (0.2.0, when fill.sql stored them) read back and evaluate as before
SELECT to_regclass('fill.formulas') IS NOT NULL AS has_formulas \gset
\if :has_formulas
SELECT id, f, pbs_formula_value(f, 'ncpus=4,mem=2gb,walltime=01:00:00', queue_priority => 10,
                                 eligible_time => '02:00:00', fairshare_perc => 0.25,
                                 fairshare_tree_usage => 0.125),
       pbs_formula_value(fs[2], '', fairshare_perc => 0.25, fairshare_tree_usage => 0.125)
FROM fill.formulas ORDER BY id;
\endif

-- PBS pending jobs (0.2.0, when fill.sql stored them) read back and order as before
SELECT to_regclass('fill.pbs_jobs') IS NOT NULL AS has_pbs_jobs \gset
\if :has_pbs_jobs
SELECT id, job, jobs FROM fill.pbs_jobs ORDER BY id;
SELECT o.* FROM pbs_job_order('ncpus + eligible_time / 60 + job_priority',
                              (SELECT array_agg(job ORDER BY id) FROM fill.pbs_jobs),
                              as_of => '2026-03-01 01:00+00', threshold => 20) AS o;
\endif

SELECT to_regclass('fill.slurm_records') IS NOT NULL AS has_slurm_records \gset
\if :has_slurm_records
SELECT id, (config).flags, (prio).priority, (prio).tres,
       (slurm_priority(config, job, cluster, '2026-12-01 12:00+00')).priority_sum
FROM fill.slurm_records ORDER BY id;
SELECT id, p.partition_name, p.qos_name, p.priority
FROM fill.slurm_records,
     slurm_priorities(config, job, cluster, '2026-12-01 12:00+00', parts, qoss, prevs) p
ORDER BY id;
\endif
