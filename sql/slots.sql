-- slots: HTCondor slot weights and SLURM TRES billing
-- (docs/resvec-sharepath.md ("Resource vectors") and "Slot weights"; the HTCondor-users thread "Including excess
-- per-core memory request in SlotWeight for dynamic slots")
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- The SlotWeight thread, on a 64-core, 64 GB machine: each core has an uncontested claim to 1 GB; memory
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

\i sql/data/sqlstate_of.sql

-- billing: a unit only on memory-like sizes (Mem, VMem, FS/Disk, BB); empty items are skipped
-- as SLURM skips them, so a trailing comma and two commas in a row are alike
SELECT billing('cpu=1', 'CPU=1G');
SELECT pg_temp.sqlstate_of($$SELECT billing('cpu=1', 'CPU=1G')$$) AS sqlstate;
SELECT billing('cpu=2,mem=1G', 'CPU=1,') AS trailing_comma,
       billing('cpu=2,mem=1G', 'CPU=1,,') AS two_commas,
       billing('cpu=2,mem=1G', 'CPU=1,,Mem=1') AS empty_item,
       billing('cpu=2,mem=1G', ', CPU=1 , ,Mem=1G,') AS blanks,
       billing('cpu=2,vmem=2G', 'VMem=0.5G') AS vmem_per_gib;
-- whitespace around items, names and weights is C's isspace set, as in every text form (SLURM
-- reads the weight with strtod, which skips all of it): cpu=2 at 1 per CPU plus mem=1G = 1024 MB
-- at 1 per MB is 2 + 1024 = 1026
SELECT billing('cpu=2,mem=1G', E'\tCPU = 1 ,\n\fMem=\x0b1\r') AS any_space;
SELECT billing('cpu=1', string_agg('t' || i || '=1', ',')) FROM generate_series(1, 257) AS i;

-- multi-dimensional arrays are errors, not flattened
SELECT * FROM slot_weights('cpus=64,memory=64gb', ARRAY[['cpus=1,memory=32gb'], ['cpus=1,memory=32gb']]::resvec[]);
SELECT pg_temp.sqlstate_of($$SELECT * FROM slot_weights('cpus=64', ARRAY[['cpus=1'], ['cpus=1']]::resvec[])$$) AS sqlstate;
SELECT resvec(ARRAY[['cpu'], ['mem']], ARRAY[1, 2]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[[1], [2]]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[1, 2], ARRAY[['count'], ['size']]);
SELECT resvec(ARRAY['cpu', 'mem'], ARRAY[1, 2], ARRAY['count', 'size']) AS one_dimensional;
