-- vector_fair_share: YTsaurus's vector HDRF, with the numbers of YTsaurus's own unit tests
SET search_path = public, fairsched;
SET extra_float_digits = 0;
-- resources as in the tests: user_slots, cpu, memory (MB); 100 CPU cluster
\set total '''user_slots=100,cpu=100,memory=1000'''

-- TestSimple (fair-share pools): two operations of 10 % in PoolA, none in PoolB: each gets its demand
SELECT path, is_operation, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.op0', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL),
                             ROW('PoolA.op1', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- TestEmptyTree: two pools, nothing to do: all zero
SELECT path, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
                       '{}', :total);

-- TestOneLargeOperation: demand twice the cluster, four times its memory: (0.5, 0.5, 1)
SELECT path, fair_share, dominant_resource, dominant_fair_share, bound, bound_resource
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.x', 'user_slots=200,cpu=200,memory=4000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- TestResourceLimits: PoolA limited to 60 slots, 70 cpu, 800 MB; PoolB below it keeps the cluster's
SELECT path, limits_share
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, 'user_slots=60,cpu=70,memory=800', NULL, NULL),
                             ROW('PoolA.PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', :total);

-- usage is re-offered first: b uses 60 % of memory and is first re-offered memory; at equal
-- suggestions both stand at half the memory, and a also takes half the cpu
SELECT path, fair_share
FROM vector_fair_share('{}', ARRAY[ROW('a', 'cpu=100,memory=1000', NULL, NULL, NULL, NULL),
                                   ROW('b', 'cpu=100,memory=1000', 'memory=600', NULL, NULL, NULL)]::hdrf_operation[],
                       'cpu=100,memory=1000');

-- YTsaurus's own tests with its five resources (user_slots, cpu, gpu, memory in MB, network);
-- each comment names the test and the numbers it asserts (to 1e-7)
\set total5 '''user_slots=100,cpu=100,gpu=0,memory=1000,network=0'''
-- TestOneSmallOperation: (0.3, 0.3, 0, 0.6, 0) in the op, PoolA and the root; PoolB 0
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('PoolA',NULL,NULL,NULL, NULL, NULL),ROW('PoolB',NULL,NULL,NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('PoolA.x','user_slots=30,cpu=30,memory=600',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5);
-- TestTwoComplementaryOperations: X (1/3, 1/3, 0, 2/3, 0), Y (1/3, 2/3, 0, 1/3, 0), PoolA and root (2/3, 1, 0, 1, 0)
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('PoolA',NULL,NULL,NULL, NULL, NULL),ROW('PoolB',NULL,NULL,NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('PoolA.x','user_slots=100,cpu=100,memory=2000',NULL,NULL,NULL,NULL),ROW('PoolA.y','user_slots=100,cpu=200,memory=1000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5);
-- TestComplexCase: root (16, 30, 0, 40, 0)/40, PoolA (11, 25, 0, 15, 0)/40, PoolB and Z (5, 5, 0, 25, 0)/40,
-- X (4, 4, 0, 8, 0)/40, Y (7, 21, 0, 7, 0)/40
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('PoolA',NULL,NULL,NULL, NULL, NULL),ROW('PoolB',NULL,NULL,NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('PoolA.x','user_slots=10,cpu=10,memory=200',NULL,NULL,NULL,NULL),ROW('PoolA.y','user_slots=1000,cpu=3000,memory=10000',NULL,NULL,NULL,NULL),
        ROW('PoolB.z','user_slots=2000,cpu=2000,memory=100000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5);
-- TestNonContinuousFairShare: root and PoolA (0.001, 1, 0, 1, 0.4), X (0.0001, 0.1, 0, 0.1, 0.4),
-- Y (0.0009, 0.9, 0, 0.9, 0)
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('PoolA',NULL,NULL,NULL, NULL, NULL),ROW('PoolB',NULL,NULL,NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('PoolA.x','user_slots=10,cpu=10,memory=10,network=40',NULL,10,NULL,NULL),ROW('PoolA.y','user_slots=1000,cpu=1000,memory=1000,network=0',NULL,NULL,NULL,NULL)]::hdrf_operation[],
  'user_slots=100000,cpu=100,gpu=0,memory=100,network=100');
-- TestNonContinuousFairShareFunctionIsLeftContinuous: 0.4 is a jump of the root's function; the left
-- limit is taken: (0.00014, 0.14, 0, 0.14, 0.4) up to PoolA, X (0.0001, 0.1, 0, 0.1, 0.4), Y (0.00004, 0.04, 0, 0.04, 0)
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('FakeRoot',NULL,NULL,'cpu=40', NULL, NULL),ROW('FakeRoot.PoolA',NULL,NULL,NULL, NULL, NULL),ROW('FakeRoot.PoolB',NULL,NULL,NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('FakeRoot.PoolA.x','user_slots=10,cpu=10,memory=10,network=40',NULL,10,NULL,NULL),ROW('FakeRoot.PoolA.y','user_slots=1000,cpu=1000,memory=1000,network=0',NULL,NULL,NULL,NULL)]::hdrf_operation[],
  'user_slots=100000,cpu=100,gpu=0,memory=100,network=100');
-- TestImpreciseComposition: YTsaurus asserts the pool's share overshoots 1 by rounding; fairsched's
-- is within 1 (cpu exactly 1)
SELECT path, fair_share, fair_share <= 'user_slots=1,cpu=1,memory=1,gpu=1,network=1' AS within_ones FROM vector_fair_share(ARRAY[ROW('Pool',NULL,'cpu=3',NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('Pool.a','user_slots=2,cpu=2,memory=805306368,network=0','user_slots=2,cpu=2,memory=805306368,network=0',NULL,NULL,NULL),
        ROW('Pool.b','user_slots=3,cpu=3,memory=1207959552',NULL,NULL,NULL,NULL)]::hdrf_operation[],
  'user_slots=3,cpu=3,gpu=0,memory=8316576848,network=0');
-- TestPromisedGuaranteeFairShare, its fair shares: A1 0.29, A2 0.19, A3 0.02, poolA and poolB 0.5 (Unit x)
SELECT path, fair_share FROM vector_fair_share(ARRAY[ROW('poolA',NULL,'cpu=30',NULL, NULL, NULL),ROW('poolA.poolA1',NULL,'cpu=10',NULL, NULL, NULL),ROW('poolA.poolA2',NULL,NULL,NULL, NULL, NULL),ROW('poolA.poolA3',NULL,NULL,NULL, NULL, NULL),ROW('poolB',NULL,'cpu=30',NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('poolA.poolA1.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL),ROW('poolA.poolA2.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL),
        ROW('poolA.poolA3.op','user_slots=2,cpu=2,memory=20',NULL,NULL,NULL,NULL),ROW('poolB.op','user_slots=100,cpu=100,memory=1000',NULL,NULL,NULL,NULL)]::hdrf_operation[], :total5);

-- the split of a guarantee and the weight part, and the inferred memory and slots
SELECT path, strong_guarantee_share, strong_part, weight_part, suggestion, bound
FROM vector_fair_share(ARRAY[ROW('poolA', NULL, 'cpu=30', NULL, NULL, NULL), ROW('poolB', NULL, 'cpu=30', NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('poolA.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL),
                             ROW('poolB.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- overcommitted guarantees at the root (70 + 60 of 100) are scaled by one factor; children over
-- their parent (60 + 60 in 50) too
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('a', NULL, 'cpu=70', NULL, NULL, NULL), ROW('b', NULL, 'cpu=60', NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=100');
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('a', NULL, 'cpu=50', NULL, NULL, NULL), ROW('a.x', NULL, 'cpu=60', NULL, NULL, NULL),
                             ROW('a.y', NULL, 'cpu=60', NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=100');

-- TestGangOperations: a gang of (60, 60, 0, 600 MB, 0) in each of PoolA and PoolB. Without the step
-- function 0.5 each; with it both resolve to the left of the jump, 0; on a cluster twice as large
-- 0.3 each (the root 0.6); with PoolB's gang at 45: the root and PoolB 0.45, PoolA 0
CREATE TEMP TABLE gang_pools AS SELECT ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[] AS p;
SELECT path, fair_share, bound
FROM gang_pools, vector_fair_share(p, ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                            ROW('PoolB.y', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                                   :total5, gang_step => false);
SELECT path, fair_share, bound
FROM gang_pools, vector_fair_share(p, ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                            ROW('PoolB.y', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                                   :total5);
SELECT path, fair_share
FROM gang_pools, vector_fair_share(p, ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                            ROW('PoolB.y', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                                   'user_slots=200,cpu=200,gpu=0,memory=2000,network=0');
SELECT path, fair_share
FROM gang_pools, vector_fair_share(p, ARRAY[ROW('PoolA.x', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                            ROW('PoolB.y', 'user_slots=45,cpu=45,memory=450', NULL, NULL, true, NULL)]::hdrf_operation[],
                                   :total5);

-- TestSimple with its FIFO pools: PoolA and PoolB share fairly, PoolC and PoolD are FIFO; operations of
-- (10, 10, 0, 100 MB, 0): 0 and 1 in PoolA, 2 and 3 in PoolC; every operation gets its demand, 0.1
SELECT path, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL),
                             ROW('PoolC', NULL, NULL, NULL, 'fifo', NULL), ROW('PoolD', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.op0', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL),
                             ROW('PoolA.op1', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL),
                             ROW('PoolC.op2', 'user_slots=10,cpu=10,memory=100', NULL, 10, NULL, NULL),
                             ROW('PoolC.op3', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total5);

-- a FIFO pool runs its operations in the array's order (their start order), not by name: zeta,
-- first in the array, takes its 0.7, alpha the rest (fit factors 2 and 1 + 0.3/0.7)
SELECT path, fair_share, suggestion, fit_factor, bound
FROM vector_fair_share(ARRAY[ROW('q', NULL, NULL, NULL, 'fifo', NULL)]::hdrf_pool[],
                       ARRAY[ROW('q.zeta', 'cpu=70', NULL, NULL, NULL, NULL),
                             ROW('q.alpha', 'cpu=70', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=100');

-- TestFifoChildrenReorderingForGuaranteeUtilizationDisabled's tree (the mock orders by weight: the
-- blocking gang of 0.7 first): without reordering the FIFO pool and its gangs get 0
SELECT path, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('FifoPool', NULL, 'cpu=60', NULL, 'fifo', NULL),
                             ROW('CompetitorPool', NULL, 'cpu=40', NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('FifoPool.blocking', 'user_slots=70,cpu=70,memory=700', NULL, 3, true, NULL),
                             ROW('FifoPool.first', 'user_slots=30,cpu=30,memory=300', NULL, 2, true, NULL),
                             ROW('FifoPool.second', 'user_slots=30,cpu=30,memory=300', NULL, 1, true, NULL),
                             ROW('CompetitorPool.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total5);

-- weights 3:1 and a pool's own limit
SELECT path, fair_share, bound, bound_resource
FROM vector_fair_share(ARRAY[ROW('a', 3, NULL, NULL, NULL, NULL), ROW('b', 1, NULL, 'cpu=10', NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('a.j', 'cpu=100', NULL, NULL, NULL, NULL),
                             ROW('b.j', 'cpu=100', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       'cpu=100');

-- errors
SELECT * FROM vector_fair_share(ARRAY[ROW('a', 1, NULL, NULL, 'lifo', NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', 1, NULL, NULL, 'fifo', NULL), ROW('a.b', 1, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', -1, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW(NULL, 1, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', 1, NULL, NULL, NULL, NULL), ROW('a', 2, NULL, NULL, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=1', 'cpu=2', NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=-1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'mem=1gb', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'mem=10');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=1', NULL, NULL, NULL, NULL),
                                            ROW('j.k', 'cpu=1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('', 'cpu=1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[NULL]::hdrf_operation[], 'cpu=1');

-- why: TestComplexCase's operation Y, from the root down
SELECT path, round(suggestion::numeric, 6) AS suggestion, bound, bound_resource, reason
FROM vector_fair_share_explain(ARRAY[ROW('PoolA', NULL, NULL, NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL, NULL, NULL)]::hdrf_pool[],
  ARRAY[ROW('PoolA.x', 'user_slots=10,cpu=10,memory=200', NULL, NULL, NULL, NULL),
        ROW('PoolA.y', 'user_slots=1000,cpu=3000,memory=10000', NULL, NULL, NULL, NULL),
        ROW('PoolB.z', 'user_slots=2000,cpu=2000,memory=100000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
  :total5, 'PoolA.y');
-- a pool's own limit, and a gang
SELECT path, bound, reason
FROM vector_fair_share_explain(ARRAY[ROW('b', 1, NULL, 'cpu=10', NULL, NULL)]::hdrf_pool[],
                               ARRAY[ROW('b.j', 'cpu=100', NULL, NULL, NULL, NULL), ROW('g', 'cpu=80', NULL, NULL, true, NULL),
                                     ROW('h', 'cpu=80', NULL, NULL, true, NULL)]::hdrf_operation[],
                               'cpu=100', 'b.j');
SELECT path, bound, reason
FROM vector_fair_share_explain('{}', ARRAY[ROW('g', 'cpu=80', NULL, NULL, true, NULL),
                                           ROW('h', 'cpu=80', NULL, NULL, true, NULL)]::hdrf_operation[],
                               'cpu=100', 'g');
SELECT * FROM vector_fair_share_explain('{}', '{}', 'cpu=1', 'nowhere');
-- strong guarantee tiers: in a pool of cpu=50, tier 0's 10 kept, tier 1's 60 + 30 scaled into the
-- 40 left (x 4/9: 26.67 and 13.33), tier 2's 60 zeroed; NULL is tier 0; one tier: proportional
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('p', NULL, 'cpu=50', NULL, NULL, NULL),
                             ROW('p.a', NULL, 'cpu=60', NULL, NULL, 2),
                             ROW('p.b', NULL, 'cpu=60', NULL, NULL, 1),
                             ROW('p.c', NULL, 'cpu=10', NULL, NULL, NULL),
                             ROW('p.d', NULL, 'cpu=30', NULL, NULL, 1)]::hdrf_pool[],
                       '{}', 'cpu=100')
ORDER BY path;
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('p', NULL, 'cpu=50', NULL, NULL, 5),
                             ROW('p.a', NULL, 'cpu=60', NULL, NULL, 3),
                             ROW('p.b', NULL, 'cpu=40', NULL, NULL, 3)]::hdrf_pool[],
                       '{}', 'cpu=100')
ORDER BY path;
