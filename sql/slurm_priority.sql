-- slurm_priority: SLURM's priority/multifactor parameters, read as slurmctld reads them.
SET search_path = fairsched, public;
\pset null '(null)'
\x on

-- SLURM's defaults: no weights, a week of age, a pass every 5 minutes, Fair Tree on
SELECT * FROM slurm_priority_config('');
-- before 23.11 the default PriorityType was priority/basic
SELECT version, priority_type FROM slurm_priority_config('', '22.05');

-- slurm.conf: several pairs on a line, keys in any case, comments, a partition's own keys
-- skipped, the last of a repeated key kept, hexadecimal and octal as strtoul reads them
SELECT * FROM slurm_priority_config($$
# slurm.conf
ClusterName=c1 PriorityType=priority/multifactor
priorityweightage=1000   PriorityWeightFairshare=10000  # fair share first
PriorityWeightJobSize=0x10
PriorityWeightPartition=010
PriorityWeightQOS=UNLIMITED
PriorityWeightAssoc=5
PriorityWeightAssoc=6
PartitionName=batch Nodes=n[1-4] PriorityJobFactor=10 PriorityWeightAge=7
PriorityWeightTRES=CPU=1000,Mem=2000G,GRES/gpu=3000
PriorityMaxAge=1-0
PriorityCalcPeriod=1:30
PriorityFavorSmall=YES
PriorityFlags="no_fair_tree,ACCRUE_ALWAYS"
Include /etc/slurm/nodes.conf
$$);

-- scontrol show config output: "Key = Value", (null) for unset, the release from SLURM_VERSION
SELECT * FROM slurm_priority_config($$
Configuration data as of 2026-12-01T10:00:00
PriorityParameters      = (null)
PriorityDecayHalfLife   = 7-00:00:00
PriorityCalcPeriod      = 00:05:00
PriorityFavorSmall      = No
PriorityFlags           = NO_NORMAL_ALL
PriorityMaxAge          = 14-00:00:00
PriorityType            = priority/multifactor
PriorityWeightAge       = 0
PriorityWeightAssoc     = 1
PriorityWeightFairshare = 0
PriorityWeightJobSize   = 1
PriorityWeightPartition = 1
PriorityWeightQOS       = 1
PriorityWeightTRES      = CPU=1
SLURM_VERSION           = 22.05.8
$$);
-- the caller's release wins over the line
SELECT version FROM slurm_priority_config('SLURM_VERSION = 22.05.8', '23.02');
\x off

-- PriorityMaxAge: minutes rounded up ("1:30" is 90 seconds, kept as 2 minutes), days-hours,
-- UNLIMITED kept as minutes * 60 in 32 bits (4294967236 seconds), "0" (full age at once)
SELECT v, (slurm_priority_config('PriorityMaxAge=' || v)).max_age,
       extract(epoch FROM (slurm_priority_config('PriorityMaxAge=' || v)).max_age) AS seconds
FROM unnest(ARRAY['1:30', '0', '61', '1:00:01', '7-0', '2-3', '2-3:4', '5-', 'UNLIMITED',
                  'infinite', '-1', '24855-0']) v;

-- PriorityFlags: every word found anywhere in the value, in any case; unknown words ignored;
-- MAX_TRES_GRES hides MAX_TRES; NO_NORMAL_ALL is the four NO_NORMAL_*; DEPTH_OBLIVIOUS is classic
SELECT v, (slurm_priority_config('PriorityFlags=' || v)).flags
FROM unnest(ARRAY['NO_NORMAL_ALL', 'no_normal_qos,NO_NORMAL_TRES', 'MAX_TRES_GRES', 'MAX_TRES',
                  'DEPTH_OBLIVIOUS', 'XINCR_ONLYX', 'INCR_ONL,FAIR_TREE,TICKET_BASED',
                  'SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING']) v;

-- NULL in, NULL out
SELECT slurm_priority_config(NULL) IS NULL AS is_null;

-- errors (22P02): each names the parameter and the line, with slurmctld's own words
DO $$ BEGIN PERFORM slurm_priority_config('PriorityWeightAge=x');
EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'SQLSTATE %', SQLSTATE; END $$;
\set SHOW_CONTEXT always
SELECT slurm_priority_config('PriorityWeightAge=12a');
SELECT slurm_priority_config(E'\nPriorityWeightQOS=4294967296');
SELECT slurm_priority_config('PriorityWeightFairshare=-1');
SELECT slurm_priority_config('PriorityMaxAge = 1 week');
SELECT slurm_priority_config('PriorityMaxAge=24856-0');
SELECT slurm_priority_config('PriorityCalcPeriod=0');
SELECT slurm_priority_config('PriorityFavorSmall=maybe');
SELECT slurm_priority_config('PriorityType=priority/fifo');
SELECT slurm_priority_config(E'a=b\n\nPriorityWeightTRES=cpu=1,gpu=2');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=x');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=1GB');
SELECT slurm_priority_config('PriorityWeightTRES=cpu=1e999');
SELECT slurm_priority_config('SLURM_VERSION = 17.11.2');
SELECT slurm_priority_config('', '22');
