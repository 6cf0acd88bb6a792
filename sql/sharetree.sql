-- sharetree: share trees and pool trees with usage rolled up (docs/fairshare.md ("Share trees"))
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- The tree of the PBS design page PP-718: group1 (40 shares) holds Bob and a sibling (50 each, 100 usage each);
-- group2 (60) holds Suzy (60 shares, no usage) and scott (40 shares, 1000 usage). Bob's usage
-- arrives in two jobs; a NULL shares on the second states nothing.
CREATE TEMP TABLE pp718 (path sharepath, shares float8, usage float8);
INSERT INTO pp718 VALUES
    ('group1', 40, NULL), ('group2', 60, NULL),
    ('group1.Bob', 50, 60), ('group1.Bob', NULL, 40), ('group1.Ann', 50, 100),
    ('group2.Suzy', 60, 0), ('group2.scott', 40, 1000);
SELECT share_tree(path, shares, usage) FROM pp718;
SELECT repeat('  ', depth) || coalesce(leaf(path), 'TREEROOT') AS node, declared, shares,
       own_usage, usage, is_leaf, parent
FROM tree_nodes((SELECT share_tree(path, shares, usage) FROM pp718));

-- ancestors that no row names are created, undeclared with 0 shares; usage given for an inner
-- node is its own and adds to its subtree (SLURM keeps deleted children's usage this way)
SELECT path, depth, is_leaf, declared, shares, own_usage, usage
FROM tree_nodes((SELECT share_tree(p::sharepath, s, u)
                 FROM (VALUES ('physics.theory.alice', 10, 5), ('physics', NULL, 7),
                              ('chem.lab.bob', 1, 3), ('physics.theory.carol', 10, 1))
                      AS t(p, s, u)));

-- rows with a NULL path name no node; NULL usage counts as 0; no rows give NULL
SELECT share_tree(p::sharepath, s, u)
FROM (VALUES ('a', 1, 2), (NULL, 5, 5), ('a', 1, NULL)) AS t(p, s, u);
SELECT share_tree(p::sharepath, s, u) IS NULL AS empty_is_null
FROM (VALUES ('a', 1, 2)) AS t(p, s, u) WHERE false;

-- SLURM FairShare=parent: the four-argument aggregate
SELECT path, declared, shares, shares_from_parent, usage
FROM tree_nodes((SELECT share_tree(p::sharepath, s, u, fp)
                 FROM (VALUES ('acct', 10, 0, false), ('acct.sub', NULL, 0, true),
                              ('acct.sub.u1', 1, 5, NULL), ('acct.sub.u2', 3, 15, false))
                      AS t(p, s, u, fp)));

-- pool trees: weights, share-ratio bounds, and usage and demand vectors summed up the tree
SELECT path, declared, shares AS weight, min_share_ratio, max_share_ratio, usage_vec, demand_vec
FROM tree_nodes((SELECT pool_tree(p::sharepath, w, lo, hi, u::resvec, d::resvec)
                 FROM (VALUES ('prod', 3, 0.5, NULL, NULL, NULL),
                              ('prod.a', 1, NULL, 1, 'cpu=4,mem=8gb', 'cpu=10,mem=16gb'),
                              ('prod.b', 2, NULL, 0.25, 'cpu=2,gpu=1', 'cpu=4,gpu=2'),
                              ('prod.b', NULL, NULL, NULL, 'cpu=1', NULL),
                              ('dev', NULL, NULL, NULL, NULL, 'cpu=1'))
                      AS t(p, w, lo, hi, u, d)));

-- the text form round-trips exactly, and so does the binary form (through COPY BINARY)
SELECT t::text::sharetree::text = t::text AS text_round_trip
FROM (SELECT share_tree(path, shares, usage) AS t FROM pp718) s;
SELECT v::sharetree AS canonical
FROM (VALUES ('share{}'), (' share{ a = 1 / 2 , a.b = parent / 3 }'),
             ('share{a."x=y"=*/1e3}'),
             ('pool{=*/*/*/{}/{cpu=10},a=2/0.5/1/{cpu=4,mem=8gb}/{}}')) AS t(v);
CREATE TEMP TABLE trees (id int, t sharetree);
INSERT INTO trees SELECT 1, share_tree(path, shares, usage) FROM pp718;
INSERT INTO trees VALUES (2, 'pool{=*/*/*/{}/{cpu=10},a=2/0.5/1/{cpu=4,mem=8gb}/{}}');
\set binfile '/tmp/fairsched_regress_sharetree.bin'
COPY trees TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE trees_back (id int, t sharetree);
COPY trees_back FROM :'binfile' WITH (FORMAT binary);
SELECT a.id, a.t::text = b.t::text AS binary_round_trip
FROM trees a JOIN trees_back b USING (id) ORDER BY id;

-- merge: usages add, shares must agree, the same rules as the aggregate
SELECT merge('share{a=1/2,a.b=*/3}', 'share{a=1/5,a.b=4/0,c=2/1}');
SELECT merge(share_tree(path, shares, usage) FILTER (WHERE path <@ 'group1'),
             share_tree(path, shares, usage) FILTER (WHERE NOT path <@ 'group1'))::text
       = share_tree(path, shares, usage)::text AS merge_equals_one_pass
FROM pp718;

-- a tree stored as a snapshot can be analysed later like a fresh aggregate
SELECT count(*) AS nodes, sum(usage) FILTER (WHERE is_leaf) AS leaf_usage
FROM trees, tree_nodes(t) WHERE id = 1;

-- errors
SELECT share_tree(p::sharepath, s, u) FROM (VALUES ('a', 1, 2), ('a', 2, 2)) AS t(p, s, u);
SELECT share_tree(p::sharepath, s, u, fp)
FROM (VALUES ('a', 1, 2, false), ('a', NULL, 2, true)) AS t(p, s, u, fp);
SELECT share_tree('a', 1, -1);
SELECT share_tree('a', -1, 1);
SELECT share_tree('a', 'NaN', 1);
SELECT share_tree('a', 1, 'Infinity');
SELECT share_tree(p::sharepath, 1, u) FROM (VALUES ('a', 1e308), ('a', 1e308)) AS t(p, u);
SELECT pool_tree('a', 1, -0.5, NULL, NULL, NULL);
SELECT pool_tree('a', 1, NULL, NULL, 'cpu=-1', NULL);
SELECT pool_tree(p::sharepath, 1, NULL, m, NULL, NULL) FROM (VALUES ('a', 0.5), ('a', 0.25)) AS t(p, m);
SELECT pool_tree(p::sharepath, 1, NULL, NULL, u::resvec, NULL)
FROM (VALUES ('a', 'mem=8gb'), ('a', 'mem=8')) AS t(p, u);
SELECT merge('share{a=1/2}', 'pool{a=1/*/*/{}/{}}');
SELECT merge('share{a=1/2}', 'share{a=3/2}');
SELECT ''::sharetree;
SELECT 'share{a=1/2'::sharetree;
SELECT 'share{b=1/2,a=1/2}'::sharetree;
SELECT 'share{a=1/2,a=1/2}'::sharetree;
SELECT 'share{a=x/2}'::sharetree;
SELECT 'share{a=1/*}'::sharetree;
SELECT 'share{a..b=1/1}'::sharetree;
SELECT 'share{a=1/1e999}'::sharetree;
SELECT 'pool{a=1/2/3/{cpu=1}}'::sharetree;
SELECT 'pool{a=parent/2/3/{}/{}}'::sharetree;

-- binary form: field by field in network byte order after a version byte (golden bytes; the
-- README describes the format). Share tree: version 1, kind 1, 2 nodes; the root (0 labels, no
-- flags, shares 0, usage 0); node a (1 label: length 1, "a"; flags 1 = shares stated; shares
-- 2.0; usage 1.5)
CREATE TEMP TABLE golden (name text, b bytea);
INSERT INTO golden VALUES
    ('share', decode('01' || '01' || '00000002'
                     || '0000' || '00' || '0000000000000000' || '0000000000000000'
                     || '0001' || '01' || '61' || '01' || '4000000000000000'
                     || '3ff8000000000000', 'hex')),
-- pool tree: kind 2; per node flags, weight, min and max ratio, then the usage and demand
-- vectors (uint32 entry count, then per entry kind, name length, name, amount); node a: flags
-- 5 = weight and min ratio stated, weight 1.0, min 0.5, usage cpu=2 (kind 0 = count)
    ('pool', decode('01' || '02' || '00000002'
                    || '0000' || '00' || '0000000000000000' || '0000000000000000'
                    || '0000000000000000' || '00000000' || '00000000'
                    || '0001' || '01' || '61' || '05' || '3ff0000000000000' || '3fe0000000000000'
                    || '0000000000000000' || '00000001' || '00' || '03' || '637075'
                    || '4000000000000000' || '00000000', 'hex'));
SELECT name, sharetree_send(v::sharetree) = b AS send_is_golden
FROM golden JOIN (VALUES ('share', 'share{a=2/1.5}'),
                         ('pool', 'pool{a=1/0.5/*/{cpu=2}/{}}')) AS t(name, v) USING (name)
ORDER BY name;
-- receive reads the golden bytes back to the trees (a COPY BINARY file of a bytea column holds
-- the raw bytes, which COPY FROM hands to sharetree_recv)
CREATE TEMP TABLE raw_trees (b bytea);
INSERT INTO raw_trees SELECT b FROM golden ORDER BY name DESC;
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE golden_back (t sharetree);
COPY golden_back FROM :'binfile' WITH (FORMAT binary);
SELECT t FROM golden_back;
-- receive accepts only what text can express: each of these is refused
CREATE TEMP TABLE bad_back (t sharetree);
-- a NUL inside a label ("a\0")
TRUNCATE raw_trees;
INSERT INTO raw_trees VALUES (decode('01' || '01' || '00000002'
    || '0000' || '00' || '0000000000000000' || '0000000000000000'
    || '0001' || '02' || '6100' || '01' || '4000000000000000' || '3ff8000000000000', 'hex'));
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
COPY bad_back FROM :'binfile' WITH (FORMAT binary);
-- a label that is not valid UTF-8 (0xff)
TRUNCATE raw_trees;
INSERT INTO raw_trees VALUES (decode('01' || '01' || '00000002'
    || '0000' || '00' || '0000000000000000' || '0000000000000000'
    || '0001' || '01' || 'ff' || '01' || '4000000000000000' || '3ff8000000000000', 'hex'));
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
COPY bad_back FROM :'binfile' WITH (FORMAT binary);
-- a pool node flagged "parent" (flags 3): it printed a=parent/*/*/{}/{}, which does not read back
TRUNCATE raw_trees;
INSERT INTO raw_trees VALUES (decode('01' || '02' || '00000002'
    || '0000' || '00' || '0000000000000000' || '0000000000000000'
    || '0000000000000000' || '00000000' || '00000000'
    || '0001' || '01' || '61' || '03' || '0000000000000000' || '0000000000000000'
    || '0000000000000000' || '00000000' || '00000000', 'hex'));
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
COPY bad_back FROM :'binfile' WITH (FORMAT binary);
-- -0 as usage (text input stores 0)
TRUNCATE raw_trees;
INSERT INTO raw_trees VALUES (decode('01' || '01' || '00000002'
    || '0000' || '00' || '0000000000000000' || '0000000000000000'
    || '0001' || '01' || '61' || '01' || '4000000000000000' || '8000000000000000', 'hex'));
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
COPY bad_back FROM :'binfile' WITH (FORMAT binary);
-- a later format version
TRUNCATE raw_trees;
INSERT INTO raw_trees VALUES (decode('02' || '01' || '00000001'
    || '0000' || '00' || '0000000000000000' || '0000000000000000', 'hex'));
COPY raw_trees TO :'binfile' WITH (FORMAT binary);
COPY bad_back FROM :'binfile' WITH (FORMAT binary);
SELECT count(*) AS accepted FROM bad_back;
-- text input stores -0 as 0
SELECT 'share{a=-0/-0}'::sharetree;

-- deep paths: every node stores its full path, so a tree's node paths may total 64 MB; three
-- 1,024-level paths of 255-byte labels (786 KB of input) would need 403 MB: a 54000 error
SELECT count(*) FROM fairshare((
    SELECT share_tree(p::sharepath, 1, 1)
    FROM (SELECT string_agg(repeat(chr(97 + (k + j) % 26), 255), '.' ORDER BY k) AS p
          FROM generate_series(1, 1024) k, generate_series(0, 2) j GROUP BY j) d), 'classic');
-- 1,024 levels of short labels fit
SELECT count(*), max(depth) FROM tree_nodes((
    SELECT share_tree(p::sharepath, 1, 1)
    FROM (SELECT string_agg('n' || (k % 10), '.' ORDER BY k) || j AS p
          FROM generate_series(1, 1024) k, generate_series(0, 2) j GROUP BY j) d));

-- cancellation: every loop over the nodes polls for interrupts, so on a 10^6-node tree
-- tree_nodes, ::text and fairshare stop within a second of statement_timeout (each runs 20
-- times, so that a fast machine does not finish before the timeout)
CREATE TEMP TABLE big AS
SELECT share_tree(('g' || (i % 1000) || '.u' || i)::sharepath, 1, i) AS t
FROM generate_series(1, 1000000) i;
SET statement_timeout = '300ms';
DO $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    FOR k IN 1..20 LOOP PERFORM count(*) FROM big, tree_nodes(t); END LOOP;
    RAISE NOTICE 'tree_nodes was not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'tree_nodes cancelled in time: %', clock_timestamp() - t0 < interval '1300 ms';
END $$;
DO $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    FOR k IN 1..20 LOOP PERFORM length(t::text) FROM big; END LOOP;
    RAISE NOTICE '::text was not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE '::text cancelled in time: %', clock_timestamp() - t0 < interval '1300 ms';
END $$;
DO $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    FOR k IN 1..20 LOOP PERFORM count(*) FROM big, fairshare(t, 'classic'); END LOOP;
    RAISE NOTICE 'fairshare was not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'fairshare cancelled in time: %', clock_timestamp() - t0 < interval '1300 ms';
END $$;
RESET statement_timeout;
DROP TABLE big;

-- whitespace in the text form is C's isspace set, as in resvec text: a form feed or vertical tab
-- reads like a space (before, 'share{}' followed by a form feed failed while 'a=1' followed by
-- one parsed as a resvec)
SELECT E'share{}\f'::sharetree::text AS ff_after,
       E'\x0bshare{\fa=1/0\x0b}\f'::sharetree::text = 'share{a=1/0}'::sharetree::text AS vt_ff_inside,
       E'share{a\f=1/0}'::sharetree::text = 'share{a=1/0}'::sharetree::text AS ff_after_path,
       E'a=1\f'::resvec::text AS resvec_ff;
