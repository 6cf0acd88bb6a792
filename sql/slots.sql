-- slots and userprio: HTCondor slot weights, SLURM TRES billing, HTCondor user priority
-- (README "Resource vectors" and "Slot weights", seed 001)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- Seed 001 on a 64-core, 64 GB machine: each core has an uncontested claim to 1 GB; memory
-- beyond counts as extra cores. 1 core 2 GB -> 2; 2 cores 3 GB -> 3; 1 core 32 GB -> 32;
-- 1 core 512 MB -> 1. (The post's final expression divides only the baseline: we follow its prose.)
SELECT slot, slot_weight(slot::resvec, 'cpus=64,memory=64gb') AS sum_weight,
       slot_weight(slot::resvec, 'cpus=64,memory=64gb', 'cpus', 'max') AS max_weight
FROM (VALUES ('cpus=1,memory=2gb'), ('cpus=2,memory=3gb'), ('cpus=1,memory=32gb'),
             ('cpus=1,memory=512mb'), ('cpus=4'), ('memory=8gb')) AS t(slot);

-- three resources besides cores: memory, disk and GPUs, each charged beyond the core's slice
SELECT slot, slot_weight(slot::resvec, m) AS sum_weight, slot_weight(slot::resvec, m, 'cpus', 'max') AS max_weight
FROM (VALUES ('cpus=2,memory=8gb,disk=100gb,gpus=1'), ('cpus=8,memory=32gb,disk=800gb'),
             ('cpus=1,gpus=4')) AS t(slot),
     (VALUES ('cpus=32,memory=128gb,disk=3200gb,gpus=4'::resvec)) AS mm(m);
-- cores may have another name (SLURM cpu, PBS ncpus)
SELECT slot_weight('ncpus=2,mem=12gb', 'ncpus=16,mem=64gb', 'ncpus') AS pbs_names;

-- a partitionable machine: each dynamic slot's weight and the unclaimed remainder; two 1-core
-- 32 GB jobs on a 64-core 64 GB machine weigh 32 + 32, and the 62 idle cores 62 more: 126 in
-- all, past the machine's own 64
SELECT * FROM slot_weights('cpus=64,memory=64gb', ARRAY['cpus=1,memory=32gb', 'cpus=1,memory=32gb']::resvec[]);
SELECT sum(weight) AS total_weight, slot_weight('cpus=64,memory=64gb', 'cpus=64,memory=64gb') AS machine_weight
FROM slot_weights('cpus=64,memory=64gb', ARRAY['cpus=1,memory=32gb', 'cpus=1,memory=32gb']::resvec[]);
SELECT * FROM slot_weights('cpus=8,memory=16gb', ARRAY[]::resvec[]);

-- billing: TRESBillingWeights; a size suffix on a weight means "per that unit" (Mem=0.25G is
-- 0.25 per GiB); memory without a unit is per MB; names compare case-insensitively;
-- MAX_TRES takes the largest node-level amount (cpu, mem, node, gres/*) plus the global ones
SELECT billing(a, 'CPU=1.0,Mem=0.25G,GRES/gpu=2.0') AS summed,
       billing(a, 'CPU=1.0,Mem=0.25G,GRES/gpu=2.0', true) AS max_tres,
       billing(a, 'CPU=1.0,Mem=0.25G,GRES/gpu=2.0,License/matlab=3', true) AS max_tres_plus_licenses,
       billing(a, 'mem=1') AS mem_per_mb, billing(a, 'cpu=0.5, gres/gpu:a100 = 10') AS spaces_and_types
FROM (VALUES ('cpu=4,mem=16G,node=1,gres/gpu=1,gres/gpu:a100=1,billing=4,license/matlab=2'::resvec)) AS t(a);
-- PriorityFlags=MAX_TRES_GRES: the GRES summed, plus the largest of the other node-level TRES,
-- plus the global ones. SLURM's tres.html, weights CPU=1.0,Mem=0.25G,GRES/gpu=2.0,license/licA=1.5
-- and a job of 1 CPU and 8 GB: summed (1*1.0) + (8*0.25) + (0*2.0) + (0*1.5) = 3.0, 4.5 with a
-- license; MAX_TRES MAX(1*1.0, 8*0.25, 0*2.0) + (0*1.5) = 2.0; MAX_TRES_GRES (0*2.0) +
-- MAX(1*1.0, 8*0.25) + (0*1.5) = 2.0, and with a GPU (1*2.0) + MAX(1*1.0, 8*0.25) + (0*1.5) = 4
-- (the page prints 3.0 for that sum). Two GPUs and a license: 4 + 2 + 1.5 = 7.5 (MAX_TRES: 4 + 1.5)
SELECT a, billing(a, w) AS summed, billing(a, w, true) AS max_tres,
       billing(a, w, max_tres_gres => true) AS max_tres_gres
FROM (VALUES ('cpu=1,mem=8G'::resvec), ('cpu=1,mem=8G,license/licA=1'), ('cpu=1,mem=8G,gres/gpu=1'),
             ('cpu=1,mem=8G,gres/gpu=2,license/licA=1')) AS t(a),
     (VALUES ('CPU=1.0,Mem=0.25G,GRES/gpu=2.0,license/licA=1.5')) AS v(w);
-- SLURM has one flag or the other
SELECT billing('cpu=1', 'CPU=1', true, true);

-- userprio: HTCondor's real priority. 100 cores in use for one half-life from 0.5 gives 50.25,
-- two half-lives 75.125; idle time decays it toward 0.5, never below
SELECT at, u, round(userprio(u, at, '1 hour') OVER (ORDER BY at)::numeric, 6) AS real_priority
FROM (VALUES ('2026-01-01 00:00'::timestamptz, 100), ('2026-01-01 01:00', 100),
             ('2026-01-01 02:00', 100), ('2026-01-01 03:00', 0), ('2026-01-01 03:30', 0),
             ('2026-01-02 03:00', 0), ('2026-01-02 04:00', 8)) AS t(at, u);
SELECT who, round(userprio(u, at, '1 day' ORDER BY at)::numeric, 6) AS real_priority
FROM (VALUES ('alice', '2026-01-01'::timestamptz, 32), ('alice', '2026-01-02', 32),
             ('bob', '2026-01-01', 4), ('bob', '2026-01-03', 4)) AS t(who, at, u)
GROUP BY who ORDER BY who;
-- its state combines runs that follow each other in time (what a shard by time range ships)
CREATE AGGREGATE pg_temp.userprio_run(float8, timestamptz, interval)
    (SFUNC = userprio_accum, STYPE = userprio_state);
CREATE AGGREGATE pg_temp.combine_runs(userprio_state)
    (SFUNC = userprio_combine, STYPE = userprio_state, FINALFUNC = userprio_final);
CREATE TEMP TABLE samples AS
SELECT i, '2026-01-01'::timestamptz + i * interval '7 hours' AS at, (i * 37 % 11) * 10.0 AS u
FROM generate_series(0, 99) AS i;
SELECT round(userprio(u, at, '1 day' ORDER BY at)::numeric, 9) AS one_pass,
       (SELECT round(pg_temp.combine_runs(state::text::userprio_state ORDER BY run DESC)::numeric, 9)
        FROM (SELECT i / 25 AS run, pg_temp.userprio_run(u, at, '1 day' ORDER BY at) AS state
              FROM samples GROUP BY i / 25) AS runs) AS four_runs_combined
FROM samples;
SELECT pg_temp.userprio_run(u, at, '1 hour' ORDER BY at)
FROM (VALUES ('2026-01-01 00:00'::timestamptz, 100), ('2026-01-01 01:00', 100)) AS t(at, u);

-- errors
SELECT slot_weight('cpus=1,gpus=1', 'cpus=64,memory=64gb');
SELECT slot_weight('cpus=1', 'memory=64gb');
SELECT slot_weight('cpus=1', 'cpus=0,memory=64gb');
SELECT slot_weight('cpus=1', 'cpus=64', 'cpus', 'avg');
SELECT slot_weight('cpus=-1', 'cpus=64');
SELECT slot_weight('cpus=1,memory=3', 'cpus=64,memory=64gb');
SELECT slot_weight('cpus=1,gpus=1', 'cpus=64,gpus=0');
SELECT * FROM slot_weights('cpus=64', ARRAY['cpus=1', NULL]::resvec[]);
SELECT billing('cpu=1', 'CPU');
SELECT billing('cpu=1', 'CPU=one');
SELECT billing('cpu=1', 'CPU=1,x,Mem=1');
SELECT billing('cpu=1', 'Mem=0.25Q');
SELECT billing('cpu=1', 'cpu=1,CPU=2');
SELECT billing('cpu=1', 'cpu=-2');
SELECT userprio(u, at, '1 hour') FROM (VALUES ('2026-01-02'::timestamptz, 1), ('2026-01-01', 1)) AS t(at, u);
SELECT userprio(u, at, h) FROM (VALUES ('2026-01-01'::timestamptz, 1, '1 hour'::interval), ('2026-01-02', 1, '2 hours')) AS t(at, u, h);
SELECT userprio(-1, now(), '1 hour');
SELECT userprio(1, now(), '0');
SELECT userprio(1, 'infinity', '1 hour');
SELECT 'max(1,2p+3)'::userprio_state;

-- issue 14
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
-- the combine that crashed a backend: an overflow is a 22003 error; no state holds infinity
SELECT fairsched.userprio_combine('max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-',
'max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=1e308,began=-,last_used=-');
SELECT pg_temp.sqlstate_of($q$SELECT fairsched.userprio_combine('max(1e308,1p+1e308)|0@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-',
'max(1e308,1p+1e308)|1e308@2026-01-02T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=1e308,began=-,last_used=-')$q$) AS sqlstate;
-- a priority near the top of the float8 range stays finite (1.7e308 in use for a second), but
-- the weighted usage of a day of it does not fit: a 22003 error, not infinity
SELECT userprio(u, at, '1 microsecond' ORDER BY at)
FROM (VALUES ('2026-01-01 00:00:00'::timestamptz, 1e308::float8), ('2026-01-01 00:00:01', 1.7e308)) AS t(at, u);
SELECT userprio(u, at, '1 second' ORDER BY at)
FROM (VALUES ('2026-01-01'::timestamptz, 1e308::float8), ('2026-01-02', 1.7e308), ('2026-01-03', 1.7e308)) AS t(at, u);
-- samples in 4713 BC and 294276 AD: millions of half-lives apart, so the priority is what was
-- in use over the gap, 100 (from 0.5: max(0.5, 0.5 b + 100 (1 - b)) with b = 0)
SELECT userprio(u, at, '1 day' ORDER BY at) AS real_priority
FROM (VALUES ('4713-01-01 BC'::timestamptz, 100), ('294276-12-31', 100)) AS t(at, u);
-- states in BC and after 9999 print text that reads back, and binary that reads back
SELECT pg_temp.userprio_run(u, at, '1 day' ORDER BY at) AS state
FROM (VALUES ('4713-01-01 00:00:00+00 BC'::timestamptz, 100), ('10000-01-01 00:00:00+00', 100)) AS t(at, u);
CREATE TEMP TABLE ups (id int, s userprio_state);
INSERT INTO ups
SELECT 1, pg_temp.userprio_run(u, at, '1 day' ORDER BY at)
FROM (VALUES ('4713-01-01 00:00:00+00 BC'::timestamptz, 100), ('10000-01-01 00:00:00+00', 100)) AS t(at, u);
INSERT INTO ups VALUES (2, 'max(0,1p+0)|3@-4713-11-24T00:00:00Z..-4713-11-24T00:00:00Z/9223372036854775807|used=0,in_use=3,began=-,last_used=-'),
                       (3, 'max(0.5,0.25p+7.5)|0@0000-02-29T00:00:00Z..294276-12-31T23:59:59.999999Z/1|used=5,in_use=2,began=0001-01-01T00:00:00Z,last_used=294276-12-31T23:59:59.999999Z');
SELECT id, s::text::userprio_state::text = s::text AS text_round_trip FROM ups ORDER BY id;
\set binfile '/tmp/fairsched_regress_userprio.bin'
COPY ups TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE ups_back (id int, s userprio_state);
COPY ups_back FROM :'binfile' WITH (FORMAT binary);
SELECT a.id, b.s, a.s::text = b.s::text AS binary_round_trip,
       userprio_state_send(a.s) = userprio_state_send(b.s) AS same_bytes
FROM ups a JOIN ups_back b USING (id) ORDER BY id;
-- binary input accepts exactly what text input does (version byte; m, a, g, first_usage as
-- float8; first_at, last_at, half_life as int64; usage, last in-use as float8; usage start and
-- last usage as int64, INT64_MIN for never): m < 0.5, a half-life or an instant out of range,
-- negative usage, a usage start without usage, a last usage after the last sample are 22P03
CREATE TEMP TABLE ups_raw (id int, b bytea);
INSERT INTO ups_raw
SELECT id, overlay(userprio_state_send('max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-')
                   placing patch from pos for 8)
FROM (VALUES (1, '\x3fd0000000000000'::bytea, 2), (2, '\x0000000000000000', 50),
             (3, '\x8000000000000000', 50), (4, '\x7fffffffffffffff', 42),
             (5, '\xfd0f7cc1411f9fff', 34), (6, '\x3ff8000000000000', 10),
             (7, '\xbff0000000000000', 18), (8, '\x7ff8000000000000', 26),
             (11, '\xbff0000000000000', 58), (12, '\x0000000000000000', 74),
             (13, '\x7fffffffffffffff', 82)) AS t(id, patch, pos);
INSERT INTO ups_raw VALUES
    (9, userprio_state_send('max(0,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=3,began=-,last_used=-')),
    (10, substring(userprio_state_send('max(0,1p+0)|3@2026-01-01T00:00:00Z..2026-01-01T00:00:00Z/1|used=0,in_use=3,began=-,last_used=-') from 1 for 88));
CREATE TEMP TABLE ups_bad (s userprio_state);
CREATE FUNCTION pg_temp.state_from_binary(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE format('COPY (SELECT b FROM ups_raw WHERE id = %s) TO %L WITH (FORMAT binary)', i,
                   '/tmp/fairsched_regress_userprio_bad.bin');
    COPY ups_bad FROM '/tmp/fairsched_regress_userprio_bad.bin' WITH (FORMAT binary);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ' ' || SQLERRM || ' / ' || detail;
END $$;
SELECT id, pg_temp.state_from_binary(id) AS result FROM ups_raw ORDER BY id;
SELECT s FROM ups_bad;
-- text input rejects the same
SELECT 'max(0.25,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/0|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..294277-01-01T00:00:00Z/1|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/9223372036854775808|used=0,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=-1,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=3,in_use=0,began=-,last_used=-'::userprio_state;
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1|used=0,in_use=0,began=-,last_used=2026-01-03T00:00:00Z'::userprio_state;
-- the form before usage was kept (no "|used=...") is an error, not a state without usage
SELECT 'max(0.5,0.25p+7.5)|0@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/1'::userprio_state;

-- billing: a unit only on memory-like sizes (Mem, VMem, FS/Disk, BB); empty items are skipped
-- as SLURM skips them, so a trailing comma and two commas in a row are alike
SELECT billing('cpu=1', 'CPU=1G');
SELECT pg_temp.sqlstate_of($$SELECT billing('cpu=1', 'CPU=1G')$$) AS sqlstate;
SELECT billing('cpu=2,mem=1G', 'CPU=1,') AS trailing_comma,
       billing('cpu=2,mem=1G', 'CPU=1,,') AS two_commas,
       billing('cpu=2,mem=1G', 'CPU=1,,Mem=1') AS empty_item,
       billing('cpu=2,mem=1G', ', CPU=1 , ,Mem=1G,') AS blanks,
       billing('cpu=2,vmem=2G', 'VMem=0.5G') AS vmem_per_gib;
SELECT billing('cpu=1', string_agg('t' || i || '=1', ',')) FROM generate_series(1, 257) AS i;

-- multi-dimensional arrays are errors, not flattened
SELECT * FROM slot_weights('cpus=64,memory=64gb', ARRAY[['cpus=1,memory=32gb'], ['cpus=1,memory=32gb']]::resvec[]);
SELECT pg_temp.sqlstate_of($$SELECT * FROM slot_weights('cpus=64', ARRAY[['cpus=1'], ['cpus=1']]::resvec[])$$) AS sqlstate;
SELECT resvec(ARRAY[['cpu'], ['mem']], ARRAY[1, 2]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[[1], [2]]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[1, 2], ARRAY[['count'], ['size']]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[1, 2], ARRAY['count', 'size']) AS one_dimensional;
