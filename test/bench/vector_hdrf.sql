-- vector_fair_share benchmark: a pool tree of 10^4 pools (100 top pools of 100 sub-pools, with
-- guarantees) and 10^5 operations (10 per sub-pool) over 5 resources, next to fair_share's
-- classic scalar division of the same pools (the fastest thing a user has today); and the improved
-- fit factor mode next to the standard one.
SET search_path = public, fairsched;
SET max_parallel_workers_per_gather = 0;

CREATE UNLOGGED TABLE vh_inst AS
SELECT n,
       ARRAY(SELECT ROW(format('p%s', i)::sharepath, (1 + i % 3)::float8,
                        format('cpu=%s', 0.5)::resvec, NULL::resvec, NULL, NULL)::hdrf_pool
             FROM generate_series(0, 99) i
             UNION ALL
             SELECT ROW(format('p%s.s%s', i % 100, i)::sharepath, (1 + i % 5)::float8, NULL::resvec,
                        CASE WHEN i % 7 = 0 THEN 'cpu=50'::resvec END, NULL, NULL)::hdrf_pool
             FROM generate_series(1, n / 10 - 100) i) AS pools,
       ARRAY(SELECT ROW(format('p%s.s%s.o%s', (1 + i % (n / 10 - 100)) % 100, 1 + i % (n / 10 - 100), i)::sharepath,
                        format('user_slots=%s,cpu=%s,gpu=%s,memory=%s,network=%s', 1 + i % 11, 1 + i % 17,
                               i % 3, 10 + i % 29, i % 5)::resvec,
                        format('cpu=%s', i % 2)::resvec, 1::float8, i % 50 = 0, NULL::resvec)::hdrf_operation
             FROM generate_series(0, n - 1) i) AS ops,
       'user_slots=100000,cpu=100000,gpu=1000,memory=1000000,network=10000'::resvec AS total
FROM (VALUES (10000), (100000)) AS s(n);

SELECT bench_assert((SELECT count(*) FROM vh_inst, vector_fair_share(pools, ops, total) WHERE n = 10000)
                    = 1 + 1000 + 10000, 'vector_fair_share returns a row per element');

SELECT bench_record('vector_fair_share(), 5 resources', n,
                    format('SELECT count(*) FROM vh_inst, vector_fair_share(pools, ops, total) WHERE n = %s', n),
                    'floor: unnesting the pools and operations',
                    format('SELECT (SELECT count(*) FROM unnest(pools)) + (SELECT count(*) FROM unnest(ops)) FROM vh_inst WHERE n = %s', n))
FROM vh_inst ORDER BY n;

-- the improved fit factor mode on the same tree (its gangs jump together in places), against the
-- standard mode in the same run
SELECT bench_record('vector_fair_share(), 5 resources, improved_fit_factor', n,
                    format('SELECT count(*) FROM vh_inst, vector_fair_share(pools, ops, total, improved_fit_factor => true) WHERE n = %s', n),
                    'the standard mode',
                    format('SELECT count(*) FROM vh_inst, vector_fair_share(pools, ops, total) WHERE n = %s', n))
FROM vh_inst WHERE n = 100000;
