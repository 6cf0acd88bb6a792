-- slots and userprio: HTCondor slot weights, SLURM TRES billing, HTCondor user priority
-- (SPEC sections 1 and 7, seed 001)
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
SELECT billing('cpu=1', 'CPU=1,,Mem=1');
SELECT billing('cpu=1', 'Mem=0.25Q');
SELECT billing('cpu=1', 'cpu=1,CPU=2');
SELECT billing('cpu=1', 'cpu=-2');
SELECT userprio(u, at, '1 hour') FROM (VALUES ('2026-01-02'::timestamptz, 1), ('2026-01-01', 1)) AS t(at, u);
SELECT userprio(u, at, h) FROM (VALUES ('2026-01-01'::timestamptz, 1, '1 hour'::interval), ('2026-01-02', 1, '2 hours')) AS t(at, u, h);
SELECT userprio(-1, now(), '1 hour');
SELECT userprio(1, now(), '0');
SELECT userprio(1, 'infinity', '1 hour');
SELECT 'max(1,2p+3)'::userprio_state;
