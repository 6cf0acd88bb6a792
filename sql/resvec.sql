-- resvec: resource vectors (docs/resvec-sharepath.md ("Resource vectors"))
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- Both accounting forms load verbatim and print canonically (names sorted, sizes in the
-- largest whole unit, durations as HH:MM:SS).
SELECT 'cpu=4,mem=16G,node=1,gres/gpu:a100=1,billing=4'::resvec AS slurm_alloc_tres;
SELECT 'ncpus=4,mem=8gb,walltime=01:00:00'::resvec AS pbs_resources_used;

-- grammar: braces, whitespace, signs, exponents, the empty vector, explicit zeros
SELECT v, v::resvec AS canonical
FROM (VALUES ('{ncpus=4, mem=8GB}'), ('  ncpus = 4 ,mem= 8gb  '), (''), ('{}'), ('   '),
             ('a=0'), ('a=-0'), ('a=+2.5e3'), ('a=1e-7'), ('a=0.1'), ('x=1e21'),
             ('m=1536M'), ('m=1.5g'), ('m=100b'), ('m=1024b'), ('m=0kb'), ('m=2PB'),
             ('m=0.3k'), ('m=-8g'), ('m=1024'),
             ('w=1:00:00'), ('w=90:00'), ('w=75:00'), ('w=00:00:05.5'), ('w=100:00:00'),
             ('w=-01:00:00'), ('b=1,B=2,a=3,_x.y/z:w-1=4')) AS t(v);

-- text round trip is exact, also for values that need 17 digits
SELECT v::resvec::text::resvec = v::resvec AS round_trip, v::resvec::text
FROM (VALUES ('x=0.30000000000000004'), ('x=1e-300'), ('x=123456789012345678'),
             ('m=1.1kb'), ('w=00:00:00.1'), ('w=01:02:03.000001')) AS t(v);
SELECT count(*) AS rows, bool_and(v::text::resvec = v) AS all_round_trip
FROM (SELECT resvec(ARRAY['a', 'm', 'w'], ARRAY[random() * 1e6, random() * 1e12, random() * 1e5],
                    ARRAY['count', 'size', 'duration']) AS v
      FROM generate_series(1, 2000)) s;

-- binary send/receive: a version byte first; receive validates like input
SELECT resvec_send('ncpus=4,mem=8gb');
SELECT resvec_from_binary(resvec_send(v)) = v AS binary_round_trip
FROM (VALUES ('ncpus=4,mem=8gb,walltime=01:00:00'::resvec), (''), ('x=-1e-300')) AS t(v);

-- operators
SELECT 'ncpus=4,mem=8gb'::resvec + 'ncpus=2,ngpus=1' AS plus,
       'ncpus=4,mem=8gb'::resvec - 'ncpus=4' AS minus,
       'ncpus=4,mem=8gb'::resvec * 2.5 AS times,
       0.5 * 'ncpus=4,mem=8gb'::resvec AS times_left,
       'ncpus=4,mem=8gb'::resvec / 4 AS divided;
SELECT 'walltime=01:00:00'::resvec + 'walltime=00:30:00' AS durations_add,
       '' :: resvec - 'a=1' AS from_empty;
SELECT 'ncpus=4,mem=8gb'::resvec -> 'mem' AS mem_bytes,
       'ncpus=4,mem=8gb'::resvec -> 'ncpus' AS ncpus,
       'ncpus=4,mem=8gb'::resvec -> 'ngpus' AS absent,
       'walltime=01:00:00'::resvec -> 'walltime' AS seconds;

-- fits: a <@ b iff every amount of a is <= the same amount of b, absent = 0
SELECT a, b, a::resvec <@ b::resvec AS a_fits_in_b, b::resvec @> a::resvec AS b_holds_a
FROM (VALUES ('ncpus=4,mem=8gb', 'ncpus=8,mem=8gb,ngpus=1'),
             ('ncpus=8,mem=8gb,ngpus=1', 'ncpus=4,mem=8gb'),
             ('ncpus=4,mem=8gb', 'ncpus=8'),
             ('', 'ncpus=1'),
             ('ncpus=0', ''),
             ('', 'x=-1')) AS t(a, b);

-- equality, order and hashing
SELECT 'mem=8gb,ncpus=4'::resvec = '{ncpus=4, mem=8192mb}' AS same,
       'mem=8gb'::resvec = 'mem=8589934592' AS size_is_not_count,
       'a=0'::resvec = '' AS explicit_zero_kept,
       'a=1'::resvec <> 'a=2' AS differ;
SELECT v FROM (VALUES ('b=1'::resvec), ('a=2'), (''), ('a=1,b=1'), ('a=1'), ('a=1gb'))
    AS t(v) ORDER BY v;
SELECT resvec_hash('mem=8gb,ncpus=4') = resvec_hash('ncpus=4,mem=8192mb') AS hash_consistent,
       resvec_hash_extended('mem=8gb', 7) = resvec_hash_extended('mem=8192mb', 7) AS hash_ext;
SELECT v, count(*) FROM (VALUES ('a=1'::resvec), ('{a=1}'), ('a=2'), ('a=1.0')) AS t(v)
GROUP BY v ORDER BY v;
CREATE TEMP TABLE rv_idx (v resvec);
INSERT INTO rv_idx SELECT ('ncpus=' || (i % 10) || ',mem=' || i || 'mb')::resvec FROM generate_series(1, 500) i;
CREATE INDEX ON rv_idx (v);
CREATE INDEX ON rv_idx USING hash (v);
SET enable_seqscan = off;
SELECT count(*) FROM rv_idx WHERE v = 'mem=100mb,ncpus=0';
SELECT count(*) FROM rv_idx WHERE v < 'mem=10mb';
RESET enable_seqscan;

-- dominant share (YTsaurus): resources absent from or zero in the total are ignored
SELECT v, dominant_share(v::resvec, 'ncpus=64,mem=256gb,ngpus=8,licenses=0') AS share,
       dominant_resource(v::resvec, 'ncpus=64,mem=256gb,ngpus=8,licenses=0') AS resource
FROM (VALUES ('ncpus=16,mem=32gb'), ('ncpus=4,mem=128gb'), ('ncpus=8,ngpus=4'),
             ('licenses=5'), (''), ('ncpus=16,mem=64gb')) AS t(v);

-- conversions
SELECT * FROM resvec_each('ncpus=4,mem=8gb,walltime=01:00:00');
SELECT resvec(ARRAY['ncpus', 'mem'], ARRAY[4, 8589934592]) AS counts,
       resvec(ARRAY['ncpus', 'mem', 'walltime'], ARRAY[4, 8589934592, 3600],
              ARRAY['count', 'size', 'duration']) AS with_kinds,
       resvec(ARRAY[]::text[], ARRAY[]::float8[]) AS empty,
       resvec(NULL, ARRAY[1]) AS null_names;
SELECT 'ncpus=4,mem=8gb,walltime=01:00:00'::resvec::jsonb AS to_jsonb;
SELECT '{"ncpus": 4, "mem": "8gb", "walltime": "01:00:00", "x": 1.5e3}'::jsonb::resvec AS from_jsonb;
SELECT v::jsonb::resvec = v AS jsonb_round_trip
FROM (VALUES ('ncpus=4,mem=1536mb,walltime=00:00:05.5,x=0.1'::resvec), ('')) AS t(v);

-- sum: elementwise, NULLs skipped, empty input gives NULL, mixed shapes merge
SELECT sum(v) FROM (VALUES ('ncpus=4,mem=8gb'::resvec), ('ncpus=2,mem=4gb'), (NULL),
                           ('ngpus=1'), ('ncpus=1,mem=512mb')) AS t(v);
SELECT sum(v) IS NULL AS empty_is_null FROM (SELECT 'a=1'::resvec WHERE false) AS t(v);
SELECT g, sum(v) FROM (VALUES (1, 'a=1'::resvec), (1, 'a=2'), (2, 'b=1'), (2, 'a=1,b=1'))
    AS t(g, v) GROUP BY g ORDER BY g;
-- as a window function, each row sees its own running total
SELECT i, sum(v) OVER (ORDER BY i) FROM (VALUES (1, 'a=1'::resvec), (2, 'a=2'), (3, 'b=1'),
                                             (4, 'a=1'))
    AS t(i, v);

-- errors: every message a user can meet
SELECT 'ncpus'::resvec;
SELECT 'ncpus 4'::resvec;
SELECT '=4'::resvec;
SELECT 'a=1,'::resvec;
SELECT 'a=1 b=2'::resvec;
SELECT 'a='::resvec;
SELECT 'a=abc'::resvec;
SELECT 'mem=8xb'::resvec;
SELECT 'a=NaN'::resvec;
SELECT 'a=-Infinity'::resvec;
SELECT 'a=1e400'::resvec;
SELECT 'mem=1e300pb'::resvec;
SELECT 'a=1,b=2,a=3'::resvec;
SELECT 'abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234=1'::resvec;
SELECT '1a=1'::resvec;
SELECT '{a=1'::resvec;
SELECT '{a=1} x'::resvec;
SELECT 'w=1::00'::resvec;
SELECT 'mem=8gb'::resvec + 'mem=8';
SELECT 'mem=8gb'::resvec <@ 'mem=8';
SELECT dominant_share('mem=8', 'mem=8gb');
SELECT 'x=1e308'::resvec + 'x=1e308';
SELECT 'x=1e308'::resvec * 10;
SELECT 'x=1'::resvec * 'NaN'::float8;
SELECT 'x=1'::resvec / 0;
SELECT sum(v) FROM (VALUES ('x=1e308'::resvec), ('x=1e308')) AS t(v);
SELECT sum(v) FROM (VALUES ('x=1'::resvec), ('x=1gb')) AS t(v);
SELECT resvec(ARRAY['a', 'b'], ARRAY[1]);
SELECT resvec(ARRAY['a', NULL], ARRAY[1, 2]);
SELECT resvec(ARRAY['a'], ARRAY['NaN'::float8]);
SELECT resvec(ARRAY['a', 'a'], ARRAY[1, 2]);
SELECT resvec(ARRAY['bad name'], ARRAY[1]);
SELECT resvec(ARRAY['a'], ARRAY[1], ARRAY['bytes']);
SELECT '[1, 2]'::jsonb::resvec;
SELECT '{"a": true}'::jsonb::resvec;
SELECT '{"a": "8xb"}'::jsonb::resvec;
SELECT resvec_from_binary('\x'::bytea);
SELECT resvec_from_binary('\x0200000000'::bytea);
SELECT resvec_from_binary('\x010000000200'::bytea);
SELECT resvec_from_binary(substring(resvec_send('ncpus=4,mem=8gb') from 1 for 20));
SELECT resvec_from_binary(resvec_send('ncpus=4') || '\x00'::bytea);
-- a binary value with a NaN amount and one with a bad name are rejected like text input
SELECT resvec_from_binary('\x01000000010001617ff8000000000000'::bytea);
SELECT resvec_from_binary('\x010000000100012a3ff0000000000000'::bytea);

-- reliability: no allocation sized from text not yet parsed; input linear in the
-- number of entries; clock fields below 60; durations below 2^53 seconds
SELECT ('a=1' || repeat(',', 30000000))::resvec;
SELECT length(string_agg(format('r%s=%s', i, i), ',')::resvec::text) AS chars,
       (SELECT count(*) FROM resvec_each(string_agg(format('r%s=%s', i, i), ',')::resvec)) AS entries
FROM generate_series(1, 100000) AS i;
SELECT left(string_agg(format('r%s=1', i), ','), 40) AS head,
       string_agg(format('r%s=1', i), ',')::resvec
FROM generate_series(1, 1000001) AS i;
SELECT 'a=1:99:99'::resvec;
SELECT 'a=0:75'::resvec;
SELECT 'a=75:00,b=1:59:59.5,c=-2:00'::resvec;
SELECT 'w=2501999792983:36:31'::resvec;
SELECT 'w=2501999792983:36:32'::resvec;
SELECT 'w=2501999792983:36:31'::resvec + 'w=00:00:01';
SELECT 'w=2501999792983:36:31'::resvec * 2;
SELECT resvec(ARRAY['w'], ARRAY[9007199254740992], ARRAY['duration']);
-- excerpts in messages are cut on a character boundary, so a LATIN1 client reads them
SET client_encoding = 'LATIN1';
SELECT (repeat('x', 199) || repeat(U&'\00E9', 10) || '=1')::resvec;
RESET client_encoding;
-- what real accounting records need: Slurm remote licenses, PBS words (8 bytes)
SELECT 'license/matlab@db=2,mem=512kw,vmem=1w'::resvec;
