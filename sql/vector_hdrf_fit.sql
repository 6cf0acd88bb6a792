-- vector_fair_share's improved fit factor mode (improved_fit_factor) and FIFO pools reordered for
-- guarantee utilisation (fifo_reordering), with the numbers of YTsaurus's own unit tests
-- (fair_share_update_ut.cpp); resources as there: user_slots, cpu, gpu, memory (MB), network
SET search_path = public, fairsched;
SET extra_float_digits = 0;
\set total5 '''user_slots=100,cpu=100,gpu=0,memory=1000,network=0'''

-- TestGangOperationsWithImprovedFairShareByFitFactorComputation: a gang of (60, 60, 0, 600, 0) in
-- each of PoolA and PoolB; the root's jump at 0.6 is taken child by child: the root and PoolA 0.6,
-- PoolB 0 (the standard mode: both 0, see vector_hdrf)
CREATE TEMP TABLE gangs AS
SELECT ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[] AS p,
       ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
             ROW('PoolB.y', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[] AS o;
SELECT path, fair_share, round(fit_factor::numeric, 6) AS fit_factor, bound
FROM gangs, vector_fair_share(p, o, :total5, improved_fit_factor => true);
SELECT path, fair_share, bound
FROM gangs, vector_fair_share(p, o, :total5, improved_fit_factor => false);
-- the children's order decides, and a pool's children are in path order: Pool0 before PoolA
SELECT path, fair_share
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('Pool0', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                             ROW('Pool0.y', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true);
-- without the step function the gangs are plain operations and the modes agree: 0.5 each
SELECT path, fair_share
FROM gangs, vector_fair_share(p, o, :total5, gang_step => false, improved_fit_factor => true);
-- three gangs of 0.4 at one level: the first two fit (0.8), the third gets 0
SELECT path, fair_share, suggestion, round(fit_factor::numeric, 6) AS fit_factor
FROM vector_fair_share('{}', ARRAY[ROW('a', 'cpu=40', NULL, NULL, true, NULL), ROW('b', 'cpu=40', NULL, NULL, true, NULL),
                                   ROW('c', 'cpu=40', NULL, NULL, true, NULL)]::hdrf_operation[],
                       'cpu=100', improved_fit_factor => true);

-- TestGangOperationsWithSkewedResources: the test sets only X's demand (50, 60, 0, 100, 0): the root
-- and PoolA (0.5, 0.6, 0, 0.1, 0), PoolB 0
SELECT path, fair_share
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.x', 'user_slots=50,cpu=60,memory=100', NULL, NULL, true, NULL),
                             ROW('PoolB.y', '', NULL, NULL, true, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true);

-- TestMultipleGangOperations: FIFO pools PoolA and PoolB of two gangs of 0.3 each: the root 0.9,
-- PoolA 0.6 (0.3 + 0.3), PoolB 0.3 (0.3 + 0)
SELECT path, fair_share, fifo_index
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, 'fifo', NULL), ROW('PoolB', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.a1', 'user_slots=30,cpu=30,memory=300', NULL, NULL, true, NULL),
                             ROW('PoolA.a2', 'user_slots=30,cpu=30,memory=300', NULL, NULL, true, NULL),
                             ROW('PoolB.b1', 'user_slots=30,cpu=30,memory=300', NULL, NULL, true, NULL),
                             ROW('PoolB.b2', 'user_slots=30,cpu=30,memory=300', NULL, NULL, true, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true);

-- The parametrised tests (TEST_P) assert the same numbers in both modes; every value of every row
-- of them agrees between the two here (the rows that differ: none)
CREATE TEMP TABLE param_cases(name text, pools hdrf_pool[], ops hdrf_operation[], total resvec);
INSERT INTO param_cases VALUES
('TestSimple', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL),ROW('PoolC',NULL,NULL,NULL,'fifo', NULL),ROW('PoolD',NULL,NULL,NULL,'fifo', NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.op0','user_slots=10,cpu=10,memory=100',NULL,NULL,NULL,NULL),ROW('PoolA.op1','user_slots=10,cpu=10,memory=100',NULL,NULL,NULL,NULL),
       ROW('PoolC.op2','user_slots=10,cpu=10,memory=100',NULL,10,NULL,NULL),ROW('PoolC.op3','user_slots=10,cpu=10,memory=100',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5),
('TestResourceLimits', ARRAY[ROW('PoolA',NULL,NULL,'user_slots=60,cpu=70,memory=800',NULL, NULL),ROW('PoolA.PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[], '{}', :total5),
('TestEmptyTree', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[], '{}', :total5),
('TestOneLargeOperation', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.x','user_slots=200,cpu=200,memory=4000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5),
('TestOneSmallOperation', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.x','user_slots=30,cpu=30,memory=600',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5),
('TestTwoComplementaryOperations', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.x','user_slots=100,cpu=100,memory=2000',NULL,NULL,NULL,NULL),ROW('PoolA.y','user_slots=100,cpu=200,memory=1000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5),
('TestComplexCase', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.x','user_slots=10,cpu=10,memory=200',NULL,NULL,NULL,NULL),ROW('PoolA.y','user_slots=1000,cpu=3000,memory=10000',NULL,NULL,NULL,NULL),
       ROW('PoolB.z','user_slots=2000,cpu=2000,memory=100000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5),
('TestNonContinuousFairShare', ARRAY[ROW('PoolA',NULL,NULL,NULL,NULL, NULL),ROW('PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('PoolA.x','user_slots=10,cpu=10,memory=10,network=40',NULL,10,NULL,NULL),ROW('PoolA.y','user_slots=1000,cpu=1000,memory=1000,network=0',NULL,NULL,NULL,NULL)]::hdrf_operation[],
 'user_slots=100000,cpu=100,gpu=0,memory=100,network=100'),
('TestNonContinuousFairShareFunctionIsLeftContinuous', ARRAY[ROW('FakeRoot',NULL,NULL,'cpu=40',NULL, NULL),ROW('FakeRoot.PoolA',NULL,NULL,NULL,NULL, NULL),ROW('FakeRoot.PoolB',NULL,NULL,NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('FakeRoot.PoolA.x','user_slots=10,cpu=10,memory=10,network=40',NULL,10,NULL,NULL),ROW('FakeRoot.PoolA.y','user_slots=1000,cpu=1000,memory=1000,network=0',NULL,NULL,NULL,NULL)]::hdrf_operation[],
 'user_slots=100000,cpu=100,gpu=0,memory=100,network=100'),
('TestImpreciseComposition', ARRAY[ROW('Pool',NULL,'cpu=3',NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('Pool.a','user_slots=2,cpu=2,memory=805306368,network=0','user_slots=2,cpu=2,memory=805306368,network=0',NULL,NULL,NULL),
       ROW('Pool.b','user_slots=3,cpu=3,memory=1207959552',NULL,NULL,NULL,NULL)]::hdrf_operation[],
 'user_slots=3,cpu=3,gpu=0,memory=8316576848,network=0'),
('TestPromisedGuaranteeFairShare', ARRAY[ROW('poolA',NULL,'cpu=30',NULL,NULL, NULL),ROW('poolA.poolA1',NULL,'cpu=10',NULL,NULL, NULL),ROW('poolA.poolA2',NULL,NULL,NULL,NULL, NULL),
       ROW('poolA.poolA3',NULL,NULL,NULL,NULL, NULL),ROW('poolB',NULL,'cpu=30',NULL,NULL, NULL)]::hdrf_pool[],
 ARRAY[ROW('poolA.poolA1.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL),ROW('poolA.poolA2.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL),
       ROW('poolA.poolA3.op','user_slots=2,cpu=2,memory=20',NULL,NULL,NULL,NULL),ROW('poolB.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5);
SELECT name, count(*) AS elements,
       count(*) FILTER (WHERE s IS DISTINCT FROM i) AS rows_that_differ
FROM param_cases,
     LATERAL (SELECT s, i
              FROM (SELECT v.path, v AS s FROM vector_fair_share(pools, ops, total) AS v) AS a
              FULL JOIN (SELECT v.path, v AS i FROM vector_fair_share(pools, ops, total, improved_fit_factor => true) AS v) AS b
              USING (path)) AS both_modes
GROUP BY name ORDER BY name;
-- and the improved mode's numbers of three of them (to 1e-7): TestComplexCase's root (16, 30, 0, 40, 0)/40,
-- PoolA (11, 25, 0, 15, 0)/40, X (4, 4, 0, 8, 0)/40, Y (7, 21, 0, 7, 0)/40, PoolB and Z (5, 5, 0, 25, 0)/40
SELECT path, fair_share FROM param_cases, vector_fair_share(pools, ops, total, improved_fit_factor => true)
WHERE name = 'TestComplexCase';
-- TestNonContinuousFairShareFunctionIsLeftContinuous: (0.00014, 0.14, 0, 0.14, 0.4) up to PoolA, X
-- (0.0001, 0.1, 0, 0.1, 0.4), Y (0.00004, 0.04, 0, 0.04, 0)
SELECT path, fair_share FROM param_cases, vector_fair_share(pools, ops, total, improved_fit_factor => true)
WHERE name = 'TestNonContinuousFairShareFunctionIsLeftContinuous';
-- TestPromisedGuaranteeFairShare's fair shares: A1 0.29, A2 0.19, A3 0.02, poolA and poolB 0.5
SELECT path, fair_share FROM param_cases, vector_fair_share(pools, ops, total, improved_fit_factor => true)
WHERE name = 'TestPromisedGuaranteeFairShare';

-- FIFO pools reordered for guarantee utilisation. The tests' tree: FifoPool (strong guarantee 60 cpu,
-- so 0.6 in the slots and memory too) with gangs in the FIFO order (the mock orders by weight, 3, 2,
-- 1, the order of the operations array here), CompetitorPool (40 cpu) with an operation of the
-- whole cluster
CREATE TEMP TABLE fifo_cases(name text, ops hdrf_operation[]);
INSERT INTO fifo_cases VALUES
('TestFifoChildrenReorderingForGuaranteeUtilization',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.first', 'user_slots=30,cpu=30,memory=300', NULL, 2, true, NULL),
       ROW('FifoPool.second', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL)]::hdrf_operation[]),
('RejectsOvershoot',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.fitting', 'user_slots=30,cpu=30,memory=300', NULL, 2, true, NULL),
       ROW('FifoPool.overshooting', 'user_slots=31,cpu=31,memory=310', NULL, 1, true, NULL)]::hdrf_operation[]),
('ChecksResourcesComponentwise',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=30,cpu=30,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.first', 'user_slots=30,cpu=30,memory=300', NULL, 2, true, NULL),
       ROW('FifoPool.second', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL)]::hdrf_operation[]),
('ForgetsEffectiveOrder',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.fitting', 'user_slots=60,cpu=60,memory=600', NULL, 2, true, NULL)]::hdrf_operation[]),
('DefersGangAfterUsageDrops (running)',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.running', 'user_slots=70,cpu=70,memory=700', 'user_slots=10,cpu=10,memory=100', 2, true, NULL),
       ROW('FifoPool.pending', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL)]::hdrf_operation[]),
('DefersGangAfterUsageDrops (usage gone)',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.running', 'user_slots=70,cpu=70,memory=700', NULL, 2, true, NULL),
       ROW('FifoPool.pending', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL)]::hdrf_operation[]),
('ChargesLimitsShare',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.limited', 'user_slots=70,cpu=70,memory=700', NULL, 2, false, 'user_slots=30,cpu=30,memory=300'),
       ROW('FifoPool.fitting', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL)]::hdrf_operation[]),
('ChargesNothingForLimitedGang',
 ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
       ROW('FifoPool.limited', 'user_slots=70,cpu=70,memory=700', NULL, 2, true, 'user_slots=30,cpu=30,memory=300'),
       ROW('FifoPool.fitting', 'user_slots=60,cpu=60,memory=600', NULL, 1, true, NULL)]::hdrf_operation[]);
CREATE TEMP TABLE fifo_pools AS
SELECT ARRAY[ROW('FifoPool', NULL, 'cpu=60', NULL, 'fifo', NULL), ROW('CompetitorPool', NULL, 'cpu=40', NULL, NULL, NULL)]::hdrf_pool[] AS p,
       ROW('CompetitorPool.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL)::hdrf_operation AS competitor;

-- TestFifoChildrenReorderingForGuaranteeUtilization: the blocking gang (0.7) is deferred, the two
-- that fit go first: FifoPool 0.6, first and second 0.3, blocking 0; FifoIndex 0, 1, 2 and
-- EffectiveFifoIndex 2, 0, 1; in both modes (TestFifoChildrenReorderingForGuaranteeUtilizationAcrossFifoModes)
SELECT improved, path, fair_share, fifo_index, effective_fifo_index, bound
FROM fifo_cases, fifo_pools, (VALUES (false), (true)) AS m(improved),
     vector_fair_share(p, ops || competitor, :total5, improved_fit_factor => improved,
                       fifo_reordering => '{FifoPool}')
WHERE name = 'TestFifoChildrenReorderingForGuaranteeUtilization' AND path <@ 'FifoPool'
ORDER BY improved, path;
-- ...Disabled (and ...RequiresTreeToAllowIt: the pool not named): the blocking gang keeps the head,
-- the guarantee stays unused: FifoPool and the fitting gangs 0, no effective order
SELECT path, fair_share, fifo_index, effective_fifo_index, bound
FROM fifo_cases, fifo_pools, vector_fair_share(p, ops || competitor, :total5, improved_fit_factor => true)
WHERE name = 'TestFifoChildrenReorderingForGuaranteeUtilization' AND path <@ 'FifoPool';
-- ...RequiresStepFunction: without the step function nothing is reordered, the head gang gets the
-- guarantee: FifoPool 0.6, blocking 0.6, first and second 0
SELECT path, fair_share, effective_fifo_index
FROM fifo_cases, fifo_pools,
     vector_fair_share(p, ops || competitor, :total5, gang_step => false, improved_fit_factor => true,
                       fifo_reordering => '{FifoPool}')
WHERE name = 'TestFifoChildrenReorderingForGuaranteeUtilization' AND path <@ 'FifoPool';
-- the other cases, reordering on, improved mode: RejectsOvershoot (FifoPool 0.3, fitting 0.3, blocking
-- and overshooting 0); ChecksResourcesComponentwise (blocking fits by cpu, not by memory: 0.6, 0.3,
-- 0.3, blocking 0); ForgetsEffectiveOrder (EffectiveFifoIndex blocking 1, fitting 0);
-- DefersGangAfterUsageDrops (running: FifoPool and pending 0; usage gone: FifoPool and pending 0.3,
-- running 0); ChargesLimitsShare (0.6, limited 0.3, fitting 0.3, blocking 0);
-- ChargesNothingForLimitedGang (0.6, fitting 0.6, limited and blocking 0)
SELECT name, path, fair_share, effective_fifo_index
FROM fifo_cases, fifo_pools,
     vector_fair_share(p, ops || competitor, :total5, improved_fit_factor => true, fifo_reordering => '{FifoPool}')
WHERE name <> 'TestFifoChildrenReorderingForGuaranteeUtilization' AND path <@ 'FifoPool'
ORDER BY name, path;
-- ForgetsEffectiveOrder's second update, reordering off for the pool: no effective order left behind
SELECT path, effective_fifo_index
FROM fifo_cases, fifo_pools, vector_fair_share(p, ops || competitor, :total5, improved_fit_factor => true)
WHERE name = 'ForgetsEffectiveOrder' AND path <@ 'FifoPool';

-- Without a competitor (the pool may take the whole cluster), a guarantee of 30 cpu:
-- ...DoesNotDeferRunningGang: running 0.4 (taken despite not fitting), first pending 0.4, second 0,
-- FifoPool 0.8
SELECT path, fair_share, effective_fifo_index
FROM vector_fair_share(ARRAY[ROW('FifoPool', NULL, 'cpu=30', NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY[ROW('FifoPool.first_pending', 'user_slots=40,cpu=40,memory=400', NULL, 3, true, NULL),
                             ROW('FifoPool.second_pending', 'user_slots=40,cpu=40,memory=400', NULL, 2, true, NULL),
                             ROW('FifoPool.running', 'user_slots=40,cpu=40,memory=400', 'user_slots=10,cpu=10,memory=100', 1, true, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true, fifo_reordering => '{FifoPool}');
-- ...StopsAtNonGang (a competitor of 70 cpu): the operation that is not a gang is promoted ahead of the
-- deferred gang and ends the packing: it gets 0.3, the deferred and the trailing gang 0, FifoPool 0.3
SELECT path, fair_share, effective_fifo_index
FROM vector_fair_share(ARRAY[ROW('FifoPool', NULL, 'cpu=30', NULL, 'fifo', NULL), ROW('CompetitorPool', NULL, 'cpu=70', NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('FifoPool.deferred', 'user_slots=35,cpu=35,memory=350', NULL, 3, true, NULL),
                             ROW('FifoPool.blocking', 'user_slots=40,cpu=40,memory=400', NULL, 2, false, NULL),
                             ROW('FifoPool.trailing', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL),
                             ROW('CompetitorPool.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true, fifo_reordering => '{FifoPool}')
WHERE path <@ 'FifoPool';
-- ...KeepsOrderBehindNonGang (no competitor): blocking deferred first second: 0.4, 0.35, 0.2, 0
SELECT path, fair_share, effective_fifo_index
FROM vector_fair_share(ARRAY[ROW('FifoPool', NULL, 'cpu=30', NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY[ROW('FifoPool.deferred', 'user_slots=35,cpu=35,memory=350', NULL, 4, true, NULL),
                             ROW('FifoPool.blocking', 'user_slots=40,cpu=40,memory=400', NULL, 3, false, NULL),
                             ROW('FifoPool.first_trailing', 'user_slots=20,cpu=20,memory=200', NULL, 2, true, NULL),
                             ROW('FifoPool.second_trailing', 'user_slots=20,cpu=20,memory=200', NULL, 1, true, NULL)]::hdrf_operation[],
                       :total5, improved_fit_factor => true, fifo_reordering => '{FifoPool}')
ORDER BY effective_fifo_index NULLS FIRST;

-- TestFifoFastPathScaling: a FIFO pool of 2000 operations of (1, 1, 0, 1, 0) is linear to build: the
-- first 100 get 0.01 each, the rest 0 (the cluster runs out); in both modes
SELECT improved, count(*) FILTER (WHERE is_operation AND fair_share = 'user_slots=0.01,cpu=0.01,gpu=0,memory=0.001,network=0') AS served,
       count(*) FILTER (WHERE is_operation AND fair_share = 'user_slots=0,cpu=0,gpu=0,memory=0,network=0') AS waiting
FROM (VALUES (false), (true)) AS m(improved),
     vector_fair_share(ARRAY[ROW('FifoPoolLarge', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY(SELECT ROW(format('FifoPoolLarge.op%s', i), 'user_slots=1,cpu=1,memory=1', NULL, 2000 - i, NULL, NULL)::hdrf_operation
                             FROM generate_series(0, 1999) i),
                       :total5, improved_fit_factor => improved)
GROUP BY improved ORDER BY improved;

-- why: the deferred gang of the first case, in words
SELECT path, bound, reason
FROM fifo_cases, fifo_pools,
     vector_fair_share_explain(p, ops || competitor, :total5, 'FifoPool.blocking', improved_fit_factor => true,
                               fifo_reordering => '{FifoPool}')
WHERE name = 'TestFifoChildrenReorderingForGuaranteeUtilization';

-- a FIFO pool's operation that waits behind the one ahead of it (the standard mode's order)
SELECT path, bound, reason
FROM vector_fair_share_explain(ARRAY[ROW('q', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[],
                               ARRAY[ROW('q.zeta', 'cpu=70', NULL, NULL, NULL, NULL),
                                     ROW('q.alpha', 'cpu=70', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                               'cpu=100', 'q.alpha', improved_fit_factor => true);

-- errors: a pool that is not FIFO, one that is not in the tree, a NULL
SELECT * FROM vector_fair_share(ARRAY[ROW('a', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1', fifo_reordering => '{a}');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[], '{}', 'cpu=1', fifo_reordering => '{b}');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('a.j', 'cpu=1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1', fifo_reordering => '{a.j}');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[], '{}', 'cpu=1', fifo_reordering => ARRAY[NULL]::sharepath[]);
