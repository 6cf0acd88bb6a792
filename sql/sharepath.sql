-- sharepath: paths in a share tree (docs/resvec-sharepath.md ("Share-tree paths"))
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- syntax: dotted labels, quotes only where needed, the root is ''
SELECT p AS input, p::sharepath AS canonical, nlevel(p::sharepath)
FROM (VALUES (''), ('physics'), ('physics.alice'), ('physics."alice.smith@example.org"'),
             ('"plain"."also-plain"'), ('a-b.c_d.e@f.g:h.i+j.0'), ('"say ""hi"""'),
             ('"é"'), ('"with space".x')) AS t(p);

-- text and binary round trips
SELECT p::sharepath::text::sharepath = p::sharepath AS text_round_trip
FROM (VALUES (''), ('physics."alice.smith@example.org"'), ('"say ""hi"""')) AS t(p);
SELECT sharepath_send('physics."a.b"');

-- order: label by label, a path directly before its descendants, so ORDER BY prints a tree
SELECT p FROM (VALUES ('physics'::sharepath), ('chem.zed'), (''), ('physics.alice'), ('chem'),
                      ('physics-lab'), ('physics.alice.jobs'), ('Physics'), ('chem.amy'))
    AS t(p) ORDER BY p;
SELECT 'a.z'::sharepath < 'a-b' AS descendants_first, 'a'::sharepath = '"a"' AS quoted_equal;
SELECT p, count(*) FROM (VALUES ('a.b'::sharepath), ('"a".b'), ('a."b"'), ('b')) AS t(p)
GROUP BY p ORDER BY p;
SELECT sharepath_hash('a.b') = sharepath_hash('"a"."b"') AS hash_consistent,
       sharepath_hash_extended('a.b', 1) = sharepath_hash_extended('"a"."b"', 1) AS hash_ext;
CREATE TEMP TABLE sp_idx (p sharepath);
INSERT INTO sp_idx SELECT ('g' || (i % 10) || '.u' || i)::sharepath FROM generate_series(1, 1000) i;
CREATE INDEX ON sp_idx (p);
CREATE INDEX ON sp_idx USING hash (p);
SET enable_seqscan = off;
SELECT count(*) FROM sp_idx WHERE p = 'g3.u13';
SELECT count(*) FROM sp_idx WHERE p > 'g9' AND p < 'g9.u2';
RESET enable_seqscan;

-- ancestry and concatenation
SELECT 'physics'::sharepath @> 'physics.alice' AS ancestor,
       'physics.alice'::sharepath @> 'physics.alice' AS self,
       'physics.alice'::sharepath <@ 'physics' AS descendant,
       ''::sharepath @> 'physics' AS root_contains_all,
       'phys'::sharepath @> 'physics' AS not_a_prefix_of_labels;
SELECT 'physics'::sharepath || 'alice.jobs'::sharepath AS path_path,
       'physics'::sharepath || 'alice.smith@example.org'::text AS path_label,
       ''::sharepath || 'x'::text AS from_root;

-- functions
SELECT p, nlevel(p), parent(p), leaf(p)
FROM (VALUES (''::sharepath), ('physics'), ('physics.alice'), ('physics."a.b"')) AS t(p);
SELECT subpath('a.b.c.d', 1) AS from_1, subpath('a.b.c.d', 1, 2) AS two_from_1,
       subpath('a.b.c.d', -2) AS last_two, subpath('a.b.c.d', 0, -1) AS all_but_last,
       subpath('a.b.c.d', 4) AS empty_at_end, subpath('a.b.c.d', 2, 10) AS clipped,
       subpath('a.b', 0, NULL) AS null_len;
SELECT lca('physics.alice', 'physics.bob') AS siblings, lca('physics.alice', 'physics') AS ancestor,
       lca('physics', 'chem') AS root, lca('a.b', 'a.b') AS same;
SELECT * FROM ancestors('physics.alice.jobs');
SELECT ancestors('physics.alice', include_self => false);
SELECT ancestors('');
SELECT count(*) FROM ancestors('', false);
SELECT 'physics."a.b"'::sharepath::text[] AS labels, ''::sharepath::text[] AS root_labels,
       ARRAY['physics', 'alice.smith@example.org']::sharepath AS from_labels,
       ARRAY[]::text[]::sharepath AS root;

-- the limits: labels of 255 bytes and paths of 1024 labels
SELECT nlevel(repeat('x', 255)::sharepath) AS longest_label,
       nlevel(array_to_string(array_fill('a'::text, ARRAY[1024]), '.')::sharepath) AS deepest;

-- errors, each with the 1-based character position
SELECT '.a'::sharepath;
SELECT 'a.'::sharepath;
SELECT 'a..b'::sharepath;
SELECT '""'::sharepath;
SELECT 'a b'::sharepath;
SELECT ' a'::sharepath;
SELECT 'a."b'::sharepath;
SELECT '"a"b'::sharepath;
SELECT 'é.a'::sharepath;
SELECT 'physics/alice'::sharepath;
SELECT repeat('x', 256)::sharepath;
SELECT array_to_string(array_fill('a'::text, ARRAY[1025]), '.')::sharepath;
SELECT subpath('a.b', 3);
SELECT subpath('a.b', -3);
SELECT subpath('a.b.c', 2, -2);
SELECT 'a'::sharepath || ''::text;
SELECT 'a'::sharepath || repeat('x', 256);
SELECT ARRAY['a', NULL]::sharepath;
SELECT ARRAY['a', '']::sharepath;
SELECT ARRAY[['a'], ['b']]::sharepath;
SELECT array_to_string(array_fill('a'::text, ARRAY[1000]), '.')::sharepath
       || array_to_string(array_fill('b'::text, ARRAY[25]), '.')::sharepath;

-- binary input takes only labels the text form can carry: valid in the database encoding and
-- without NUL (a COPY BINARY file of a bytea column holds the raw bytes for sharepath_recv)
\set binfile '/tmp/fairsched_regress_sharepath.bin'
CREATE TEMP TABLE raw_paths (b bytea);
CREATE TEMP TABLE paths_back (p sharepath);
-- version 1, 2 labels: "a" and "é" (UTF-8 c3 a9)
INSERT INTO raw_paths VALUES (decode('01' || '00000002' || '00000001' || '61'
                                     || '00000002' || 'c3a9', 'hex'));
COPY raw_paths TO :'binfile' WITH (FORMAT binary);
COPY paths_back FROM :'binfile' WITH (FORMAT binary);
SELECT p, sharepath_send(p) = (SELECT b FROM raw_paths) AS same_bytes FROM paths_back;
-- "a\0b": the text form would stop at the NUL
TRUNCATE raw_paths;
INSERT INTO raw_paths VALUES (decode('01' || '00000001' || '00000003' || '610062', 'hex'));
COPY raw_paths TO :'binfile' WITH (FORMAT binary);
COPY paths_back FROM :'binfile' WITH (FORMAT binary);
-- 0xff is not UTF-8
TRUNCATE raw_paths;
INSERT INTO raw_paths VALUES (decode('01' || '00000001' || '00000001' || 'ff', 'hex'));
COPY raw_paths TO :'binfile' WITH (FORMAT binary);
COPY paths_back FROM :'binfile' WITH (FORMAT binary);
SELECT count(*) AS accepted FROM paths_back;

-- sorting: ORDER BY a sharepath uses abbreviated keys (the first 8 bytes of its labels, each
-- followed by a 0 byte) and the full comparison on ties. On 20,000 paths of short labels from a
-- three-letter alphabet (most share their first 8 bytes with others; many are prefixes of
-- others) the order must be pre-order: labels compared one by one, bytewise, a parent first,
-- which is how arrays of the labels compare as text in the C collation.
CREATE TEMP TABLE sort_paths AS
SELECT string_agg(l, '.' ORDER BY k) AS t
FROM (SELECT i, k, string_agg(substr('ab_', 1 + abs(hashint4(i * 100 + k * 10 + c)) % 3, 1), ''
                              ORDER BY c) AS l
      FROM generate_series(1, 20000) AS i, generate_series(1, 1 + i % 4) AS k,
           generate_series(1, 1 + abs(hashint4(i * 10 + k)) % 4) AS c
      GROUP BY i, k) AS labels
GROUP BY i;
SELECT count(*) AS paths, count(DISTINCT t) > 10000 AS mostly_distinct,
       bool_and(by_path = by_labels) AS same_order
FROM (SELECT t, row_number() OVER (ORDER BY t::sharepath, t) AS by_path,
             row_number() OVER (ORDER BY string_to_array(t, '.') COLLATE "C", t) AS by_labels
      FROM sort_paths) AS o;
