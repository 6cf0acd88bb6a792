-- test/dist/fill.sql: a database holding every fairsched type as stored data, for the dump and
-- restore test (test/dump_test.sh) and the upgrade test (test/upgrade_test.sh). Ordinary,
-- partitioned (range on a sharepath, hash on a resvec) and unlogged tables, aggregate states stored
-- as values, arrays and composites of the types, indexes on resvec and sharepath columns (btree,
-- hash, unique, partial, on an expression), a CHECK constraint, a view and a materialized view.
-- Everything is deterministic (no now(), no random()). The last statement fails when a type of
-- schema fairsched has no column here: a new type must get one (guard it with \if on
-- to_regtype(...) so that this script still fills an older version for the upgrade test).
\set ON_ERROR_STOP on
SET TimeZone = 'UTC';
SET search_path = fill, public, fairsched;
CREATE SCHEMA fill;

-- 1. vectors and paths: every resvec kind, empty and NULL values, quoted and non-ASCII labels,
--    the root path, a deep path, one vector long enough to be compressed and stored out of line
CREATE TABLE fill.vectors (
    id int PRIMARY KEY,
    owner text NOT NULL,
    path sharepath CHECK (nlevel(path) <= 64),
    used resvec DEFAULT 'ncpus=1',
    requested resvec,
    at timestamptz,
    useds resvec[],
    paths sharepath[]);
INSERT INTO fill.vectors
SELECT i,
       (ARRAY['alice', 'bob', 'carol', 'dave', 'erin'])[1 + i % 5],
       CASE WHEN i % 97 = 0 THEN NULL
            WHEN i % 89 = 0 THEN ''::sharepath
            ELSE format('%s.%s', (ARRAY['physics', 'chem', '"bio.lab"', '"Ökologie"'])[1 + i % 4],
                        (ARRAY['alice', 'bob', 'carol', 'dave', 'erin'])[1 + i % 5])::sharepath
       END,
       CASE WHEN i % 101 = 0 THEN NULL
            WHEN i % 103 = 0 THEN ''::resvec
            ELSE format('ncpus=%s,mem=%smb,walltime=%s:%s:%s%s', 1 + i % 64, 512 * (1 + i % 9),
                        i % 30, lpad((i % 60)::text, 2, '0'), lpad((i * 7 % 60)::text, 2, '0'),
                        CASE WHEN i % 3 = 0 THEN ',ngpus=' || i % 4 ELSE '' END)::resvec
       END,
       format('cpu=%s,mem=%sG,node=1,billing=%s,gres/gpu:a100=%s', 1 + i % 32, 1 + i % 7,
              (1 + i % 32) * 1.5, i % 2)::resvec,
       '2026-01-01'::timestamptz + i * interval '37 minutes',
       ARRAY[format('a=%s', i)::resvec, 'mem=1.5g'],
       ARRAY[format('p%s', i % 7)::sharepath, 'x.y']
FROM generate_series(1, 1200) AS i;
INSERT INTO fill.vectors (id, owner, path, used, requested)
SELECT 5000, 'big', (SELECT string_agg('l' || g, '.') FROM generate_series(1, 60) AS g)::sharepath,
       (SELECT string_agg(format('res_%s=%s', g, g * 1.25), ',') FROM generate_series(1, 400) AS g)::resvec,
       'x=1e-7,y=-2.5,z=0,w=00:00:00.5';
CREATE INDEX vectors_used ON fill.vectors (used);
CREATE INDEX vectors_used_hash ON fill.vectors USING hash (used);
CREATE INDEX vectors_path ON fill.vectors (path);
CREATE INDEX vectors_path_hash ON fill.vectors USING hash (path);
CREATE UNIQUE INDEX vectors_path_id ON fill.vectors (path, id);
CREATE INDEX vectors_ncpus ON fill.vectors ((used -> 'ncpus'));
CREATE INDEX vectors_physics ON fill.vectors (used) WHERE path <@ 'physics';

-- 2. aggregate states stored as values: one row per owner, and one large tree. userprio's
--    state comes from an aggregate of our own over its transition function (dumped too)
CREATE AGGREGATE fill.userprio_states(float8, timestamptz, interval) (
    SFUNC = fairsched.userprio_accum,
    STYPE = fairsched.userprio_state,
    COMBINEFUNC = fairsched.userprio_combine,
    PARALLEL = SAFE);
CREATE TABLE fill.states (
    id int PRIMARY KEY,
    owner text,
    total resvec,
    tree sharetree,
    parent_tree sharetree,
    pool sharetree,
    decayed decayed_usage,
    prio userprio_state,
    vnodes vnodepool,
    acc msic_queue_acc);
INSERT INTO fill.states
SELECT row_number() OVER (ORDER BY owner), owner, total, tree, parent_tree, pool, decayed, prio,
       vnodes, acc
FROM (SELECT v.owner,
             sum(v.used) AS total,
             share_tree(v.path, 1 + nlevel(v.path), coalesce(v.used -> 'ncpus', 0)) AS tree,
             share_tree(v.path, NULL, coalesce(v.used -> 'mem', 0), v.id % 4 = 0) AS parent_tree,
             pool_tree(v.path, 1 + nlevel(v.path) % 2, 0.1, 0.9, v.used, v.requested) AS pool,
             decayed_sum(coalesce(v.used -> 'ncpus', 0), v.at, '7 days') AS decayed,
             userprio_states(coalesce(v.used -> 'ncpus', 0), v.at, '1 day' ORDER BY v.at) AS prio,
             vnode_pool('n' || v.id, v.requested, v.used,
                        jsonb_build_object('switch', 'sw' || v.id % 3, 'rack', 'r' || v.id % 2)) AS vnodes,
             msic_queue_acc(v.owner, 1 + v.id % 8, make_interval(mins => v.id % 240), v.at, 64,
                            '2026-03-01') AS acc
      FROM fill.vectors AS v
      WHERE v.at IS NOT NULL AND v.path IS NOT NULL AND v.used IS NOT NULL AND v.used <> ''
      GROUP BY v.owner) AS agg;
INSERT INTO fill.states (id, owner, tree)
SELECT 100, 'large', share_tree(format('g%s.u%s', g % 50, g)::sharepath, g % 10, g * 0.5)
FROM generate_series(1, 3000) AS g;

-- 3. the composite types, and arrays of them
CREATE TABLE fill.records (
    id int PRIMARY KEY,
    config msic_config,
    spec msic_share_spec,
    share msic_share,
    shares msic_share[],
    job msic_job,
    host msic_host,
    queue msic_queue,
    pbs pbs_record,
    sacct sacct_record);
INSERT INTO fill.records
SELECT i,
       msic_config(format(E'SUBMIT_QUEUE pending\nBATCH_QUEUES hosta@hosta,hostb@hostb\n'
                          'EXPRESS_QUEUE special\nTARGET_LOAD_PCT %s%%\n'
                          'FAIR_SHARE QUEUE:low:%s:10\nFAIR_SHARE QUEUE:hi:%s:10\n', 80 + i, 50 + i, 50 - i),
                   E'* holidays\nYEAR 2026 0800 1800\n1\n359\n', 'server.example.com'),
       ROW('q' || i, 10 * i, 5 + i)::msic_share_spec,
       ROW('q' || i, i, 12.5 * i, 100.0 * i, 6400)::msic_share,
       ARRAY[ROW('a', 1, 1.5, 0, 0)::msic_share, ROW('b' || i, 2, 0.25, 3, 64)::msic_share],
       ROW(i || '.srv', 'u' || i, 'hi', 'Q', i, 1e9 * i, '01:00', NULL, '2026-03-01 10:00'::timestamptz + i * interval '1 hour',
           NULL, NULL, 'linux', false, NULL, NULL)::msic_job,
       ROW('host' || i, 8 * i, 64e9, 'linux', 0.5 * i, i % 2 = 0)::msic_host,
       ROW('host' || i, 'host' || i, true, i % 2 = 1, 10, 8 * i, NULL, '00:10', '24:00', 1, NULL, 1e9, 2)::msic_queue,
       pbs_acct(format('04/15/2024 10:00:0%s;E;%s.srv;user=alice group=phys queue=batch ctime=1713170000 '
                       'start=1713172000 end=1713175600 Exit_status=0 exec_host=n1/0*8+n2/0*8 '
                       'Resource_List.ncpus=16 Resource_List.select=2:ncpus=8 '
                       'resources_used.cput=10:00:0%s resources_used.mem=%sgb resources_used.walltime=01:00:00',
                       i, 100 + i, i, i)),
       sacct_row(format('%s|CANCELLED by 1001|01:02:0%s|4000Mc|4|cpu=4,mem=16000M,node=1', 42 + i, i),
                 'JobID|State|Elapsed|ReqMem|NCPUS|AllocTRES')
FROM generate_series(1, 5) AS i;

-- 3b. SLURM's priority inputs and results (slurm_priority_config, slurm_job, slurm_cluster,
--     slurm_priority, slurm_partition, slurm_qos, slurm_previous_priority), from 0.2.0 on
SELECT to_regtype('fairsched.slurm_priority_config') IS NOT NULL AS has_slurm_priority \gset
\if :has_slurm_priority
CREATE TABLE fill.slurm_records (
    id int PRIMARY KEY,
    config slurm_priority_config,
    job slurm_job,
    jobs slurm_job[],
    cluster slurm_cluster,
    prio slurm_priority,
    parts slurm_partition[],
    qoss slurm_qos[],
    prevs slurm_previous_priority[]);
INSERT INTO fill.slurm_records
SELECT i, c, j, ARRAY[j, j], k, slurm_priority(c, j, k, '2026-12-01 12:00+00'),
       ARRAY[ROW('batch', i, 1, '7 days', 'cpu=64')::slurm_partition],
       ARRAY[ROW('normal', i)::slurm_qos],
       ARRAY[ROW('batch', 'normal', 1000 * i)::slurm_previous_priority]
FROM generate_series(1, 5) AS i,
     LATERAL (SELECT slurm_priority_config(format('PriorityWeightAge=%s PriorityWeightQOS=2000 '
                                                  'PriorityWeightTRES=cpu=1000 PriorityFlags=INCR_ONLY', 100 * i)) AS c,
                     ROW(i::text, 'u' || i, 'a', 'batch', 'normal', '2026-12-01 10:00+00',
                         '2026-12-01 10:00+00', 1, i, '1 hour', ('cpu=' || i)::resvec, 0.5, NULL, 1, 1,
                         '7 days', 'cpu=64'::resvec, i, 0, 0, NULL, NULL)::slurm_job AS j,
                     ROW(4, 64, 0, 1, 10)::slurm_cluster AS k) AS x;
\endif

-- 4. partitioned: by range on a sharepath, one partition hash-partitioned on a resvec
CREATE TABLE fill.part (
    id int NOT NULL,
    path sharepath NOT NULL,
    used resvec NOT NULL,
    tree sharetree,
    decayed decayed_usage,
    PRIMARY KEY (path, used, id)
) PARTITION BY RANGE (path);
CREATE TABLE fill.part_a_l PARTITION OF fill.part FOR VALUES FROM ('') TO ('m');
CREATE TABLE fill.part_m_z PARTITION OF fill.part FOR VALUES FROM ('m') TO (MAXVALUE)
    PARTITION BY HASH (used);
CREATE TABLE fill.part_m_z_0 PARTITION OF fill.part_m_z FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE fill.part_m_z_1 PARTITION OF fill.part_m_z FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE INDEX part_used ON fill.part (used);
CREATE INDEX part_path_hash ON fill.part USING hash (path);
INSERT INTO fill.part
SELECT id, path, used,
       share_tree(path, 1, coalesce(used -> 'ncpus', 0)) OVER (PARTITION BY owner ORDER BY id ROWS 3 PRECEDING),
       decayed_sum(coalesce(used -> 'ncpus', 0), at, '2 days') OVER (PARTITION BY owner ORDER BY at)
FROM fill.vectors
WHERE path IS NOT NULL AND used IS NOT NULL AND at IS NOT NULL;

-- 5. unlogged: each base type once more, with indexes
CREATE UNLOGGED TABLE fill.unlogged (
    id int PRIMARY KEY,
    path sharepath,
    used resvec,
    tree sharetree,
    decayed decayed_usage,
    prio userprio_state,
    vnodes vnodepool,
    acc msic_queue_acc);
INSERT INTO fill.unlogged
SELECT s.id, v.path, v.used, s.tree, s.decayed, s.prio, s.vnodes, s.acc
FROM fill.states AS s LEFT JOIN fill.vectors AS v ON v.id = s.id;
CREATE INDEX unlogged_used ON fill.unlogged (used);
CREATE INDEX unlogged_path ON fill.unlogged USING hash (path);

-- 6. a view and a materialized view over fairsched operators and aggregates (pg_restore
--    refreshes the materialized view with an empty search_path)
CREATE VIEW fill.owner_usage AS
SELECT owner, sum(used) AS total, max(used -> 'ncpus') AS max_ncpus,
       count(*) FILTER (WHERE path <@ 'physics') AS physics_jobs
FROM fill.vectors GROUP BY owner;
CREATE MATERIALIZED VIEW fill.owner_tree AS
SELECT share_tree(ARRAY['users', owner]::sharepath, NULL, coalesce(used -> 'ncpus', 0)) AS t,
       sum(requested) AS requested
FROM fill.vectors;

-- 7. PBS job_sort_formulas (0.2.0): as written, with every construct of the language
SELECT to_regtype('fairsched.pbs_formula') IS NOT NULL AS has_pbs_formula \gset
\if :has_pbs_formula
CREATE TABLE fill.formulas (id int PRIMARY KEY, f pbs_formula, fs pbs_formula[]);
INSERT INTO fill.formulas
SELECT i, CASE WHEN i % 7 = 0 THEN NULL
               WHEN i % 5 = 0 THEN pbs_formula(format('ncpus * paws_%s + bias', i),
                                               format(E'paws_%s type=float\nbias type=long', i))
               ELSE format('ncpus * %s + (mem // 1024 %% 7 if walltime > %s else -fairshare_factor ** 2)'
                           ' + max(queue_priority, job_priority, %s) - round(eligible_time / 3600, 2)',
                           i, i * 60, i)::pbs_formula END,
       ARRAY['fairshare_factor', 'pow(2, -(fairshare_tree_usage / fairshare_perc))']::pbs_formula[]
FROM generate_series(1, 50) AS i;
\endif

-- 8. vector_fair_share's pools and operations (0.2.0)
SELECT to_regtype('fairsched.hdrf_pool') IS NOT NULL AS has_hdrf \gset
\if :has_hdrf
CREATE TABLE fill.hdrf (id int PRIMARY KEY, p hdrf_pool, o hdrf_operation[]);
INSERT INTO fill.hdrf
SELECT i, ROW(format('p%s', i)::sharepath, i, format('cpu=%s', i)::resvec, NULL, NULL, NULL)::hdrf_pool,
       ARRAY[ROW(format('p%s.o', i)::sharepath, 'cpu=4,mem=1gb'::resvec, NULL, 1, i % 2 = 0, NULL)::hdrf_operation]
FROM generate_series(1, 20) AS i;
\endif

-- 9. PBS pending jobs (0.2.0): the pbs_job composite, alone and in arrays
SELECT to_regtype('fairsched.pbs_job') IS NOT NULL AS has_pbs_job \gset
\if :has_pbs_job
CREATE TABLE fill.pbs_jobs (id int PRIMARY KEY, job pbs_job, jobs pbs_job[]);
INSERT INTO fill.pbs_jobs
SELECT i, j, ARRAY[j, ROW(i || '.b', NULL, 'q' || i % 2, 0, NULL, i, NULL, NULL, NULL, 2)::pbs_job]
FROM generate_series(1, 30) AS i,
     LATERAL (SELECT ROW(i || '.svr', CASE WHEN i % 4 = 0 THEN NULL ELSE ('g.u' || i % 5)::sharepath END,
                         'q' || i % 3, (i % 3) * 60, CASE WHEN i % 6 = 0 THEN true END, i % 11 - 5,
                         ('ncpus=' || i || ',mem=' || i || 'gb')::resvec,
                         CASE WHEN i % 2 = 0 THEN (i || ' minutes')::interval END,
                         '2026-03-01 00:00+00'::timestamptz + i * interval '1 minute', i % 5)::pbs_job AS j) AS v;
\endif

-- every type of schema fairsched is stored somewhere above (arrays of them count)
DO $$
DECLARE
    missing text;
BEGIN
    SELECT string_agg(t.oid::regtype::text, ', ' ORDER BY t.typname) INTO missing
    FROM pg_type AS t
    WHERE t.typnamespace = 'fairsched'::regnamespace
      AND NOT EXISTS (SELECT FROM pg_type AS e WHERE e.typarray = t.oid)
      AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
      AND NOT EXISTS (SELECT FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
                      WHERE c.relnamespace = 'fill'::regnamespace AND a.attnum > 0
                        AND NOT a.attisdropped AND a.atttypid IN (t.oid, t.typarray));
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'test/dist/fill.sql stores no value of type %', missing
            USING HINT = 'Add a column of each new type to test/dist/fill.sql.';
    END IF;
END
$$;
