-- vector_fair_share: YTsaurus's vector HDRF, with the numbers of YTsaurus's own unit tests
SET search_path = public, fairsched;
SET extra_float_digits = 0;
-- resources as in the tests: user_slots, cpu, memory (MB); 100 CPU cluster
\set total '''user_slots=100,cpu=100,memory=1000'''

-- TestSimple (fair-share pools): two operations of 10 % in PoolA, none in PoolB: each gets its demand
SELECT path, is_operation, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.op0', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL),
                             ROW('PoolA.op1', 'user_slots=10,cpu=10,memory=100', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- TestEmptyTree: two pools, nothing to do: all zero
SELECT path, fair_share, bound
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL)]::hdrf_pool[],
                       '{}', :total);

-- TestOneLargeOperation: demand twice the cluster, four times its memory: (0.5, 0.5, 1)
SELECT path, fair_share, dominant_resource, dominant_fair_share, bound, bound_resource
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, NULL), ROW('PoolB', NULL, NULL, NULL)]::hdrf_pool[],
                       ARRAY[ROW('PoolA.x', 'user_slots=200,cpu=200,memory=4000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- TestResourceLimits: PoolA limited to 60 slots, 70 cpu, 800 MB; PoolB below it keeps the cluster's
SELECT path, limits_share
FROM vector_fair_share(ARRAY[ROW('PoolA', NULL, NULL, 'user_slots=60,cpu=70,memory=800'),
                             ROW('PoolA.PoolB', NULL, NULL, NULL)]::hdrf_pool[], '{}', :total);

-- complementary demands: equal dominant shares, 2/3 each
SELECT path, round(dominant_fair_share::numeric, 9) AS dominant, fair_share, bound
FROM vector_fair_share('{}', ARRAY[ROW('a', 'cpu=100,memory=500', NULL, NULL, NULL, NULL),
                                   ROW('b', 'cpu=50,memory=1000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       'cpu=100,memory=1000');

-- usage is re-offered first: b uses 60 % of memory and is first re-offered memory; at equal
-- suggestions both stand at half the memory, and a also takes half the cpu
SELECT path, fair_share
FROM vector_fair_share('{}', ARRAY[ROW('a', 'cpu=100,memory=1000', NULL, NULL, NULL, NULL),
                                   ROW('b', 'cpu=100,memory=1000', 'memory=600', NULL, NULL, NULL)]::hdrf_operation[],
                       'cpu=100,memory=1000');

-- TestPromisedGuaranteeFairShare's division: guarantees add to the weight part: 0.3 + 0.2,
-- inside poolA 0.1 + 0.2 and 0.2; memory and slots inferred from cpu
SELECT path, strong_guarantee_share, fair_share, strong_part, weight_part, suggestion, bound
FROM vector_fair_share(ARRAY[ROW('poolA', NULL, 'cpu=30', NULL), ROW('poolA.x', NULL, 'cpu=10', NULL),
                             ROW('poolB', NULL, 'cpu=30', NULL)]::hdrf_pool[],
                       ARRAY[ROW('poolA.x.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL),
                             ROW('poolA.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL),
                             ROW('poolB.op', 'user_slots=100,cpu=100,memory=1000', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       :total);

-- overcommitted guarantees at the root (70 + 60 of 100) are scaled by one factor; children over
-- their parent (60 + 60 in 50) too
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('a', NULL, 'cpu=70', NULL), ROW('b', NULL, 'cpu=60', NULL)]::hdrf_pool[], '{}', 'cpu=100');
SELECT path, strong_guarantee_share
FROM vector_fair_share(ARRAY[ROW('a', NULL, 'cpu=50', NULL), ROW('a.x', NULL, 'cpu=60', NULL),
                             ROW('a.y', NULL, 'cpu=60', NULL)]::hdrf_pool[], '{}', 'cpu=100');

-- TestGangOperations: two gangs of 60 % do not both fit: the jump resolves to the left, 0 each;
-- without the step function they share
SELECT path, fair_share, bound
FROM vector_fair_share('{}', ARRAY[ROW('g1', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                   ROW('g2', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                       :total);
SELECT path, fair_share
FROM vector_fair_share('{}', ARRAY[ROW('g1', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL),
                                   ROW('g2', 'user_slots=60,cpu=60,memory=600', NULL, NULL, true, NULL)]::hdrf_operation[],
                       :total, gang_step => false);

-- weights 3:1 and a pool's own limit
SELECT path, fair_share, bound, bound_resource
FROM vector_fair_share(ARRAY[ROW('a', 3, NULL, NULL), ROW('b', 1, NULL, 'cpu=10')]::hdrf_pool[],
                       ARRAY[ROW('a.j', 'cpu=100', NULL, NULL, NULL, NULL),
                             ROW('b.j', 'cpu=100', NULL, NULL, NULL, NULL)]::hdrf_operation[],
                       'cpu=100');

-- errors
SELECT * FROM vector_fair_share(ARRAY[ROW('a', -1, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW(NULL, 1, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share(ARRAY[ROW('a', 1, NULL, NULL), ROW('a', 2, NULL, NULL)]::hdrf_pool[], '{}', 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=1', 'cpu=2', NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=-1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'mem=1gb', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'mem=10');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('j', 'cpu=1', NULL, NULL, NULL, NULL),
                                            ROW('j.k', 'cpu=1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[ROW('', 'cpu=1', NULL, NULL, NULL, NULL)]::hdrf_operation[], 'cpu=1');
SELECT * FROM vector_fair_share('{}', ARRAY[NULL]::hdrf_operation[], 'cpu=1');
