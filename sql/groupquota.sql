-- group_quotas: HTCondor's hierarchical group quotas as the negotiator allocates them at the
-- start of a cycle (docs/slot-weights.md ("HTCondor hierarchical group quotas"); HTCondor manual, "Accounting Groups with Hierarchical
-- Group Quotas"; negotiator GroupEntry.cpp)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- The manual's static example: 30 slots, GROUP_QUOTA_group_physics = 20,
-- GROUP_QUOTA_group_chemistry = 10; both groups have 60 jobs in the queue. Rows come root
-- first (<none>), then the tree in pre-order, siblings in case-insensitive order.
SELECT * FROM group_quotas(ARRAY['group_physics', 'group_chemistry'], ARRAY[20, 10],
                           ARRAY[false, false], ARRAY[false, false], ARRAY[60, 60], 30);
-- "If a power failure removed half of the original 30, leaving fifteen slots, physics would be
-- scaled back to a quota of ten, and chemistry to five. This scaling can be disabled by setting
-- NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION to True", its default: with it (o true) physics keeps
-- 20 and chemistry 10, and both get their quota in full, 30 allocated from a pool of 15;
-- <none> keeps max(0, 15 - 30). With 60 slots "physics would still be limited to 20 slots, and
-- chemistry would be limited to 10" either way: <none> keeps the other 30.
SELECT o.o, p.pool, g.grp, g.quota, g.allocated, g.subtree_quota
FROM (VALUES (false), (true)) AS o(o), (VALUES (15), (60)) AS p(pool),
     group_quotas(ARRAY['group_physics', 'group_chemistry'], ARRAY[20, 10],
                  ARRAY[false, false], ARRAY[false, false], ARRAY[60, 60], p.pool,
                  allow_quota_oversubscription => o.o) AS g;
-- the 0.1.0 call with nine arguments takes HTCondor's default, oversubscription
SELECT grp, quota FROM group_quotas(ARRAY['group_physics', 'group_chemistry'], ARRAY[20, 10],
                                    ARRAY[false, false], ARRAY[false, false], ARRAY[60, 60], 15,
                                    NULL, 0, true);

-- The manual's dynamic example: GROUP_QUOTA_DYNAMIC_group_chemistry = 0.33 and
-- GROUP_QUOTA_DYNAMIC_group_physics = 0.66 of 30 slots: 9.9 and 19.8 (they sum to 0.99, so
-- they are not scaled); <none> keeps 30 - 19.8 - 9.9 = 0.3.
SELECT grp, round(quota::numeric, 9) AS quota, round(allocated::numeric, 9) AS allocated
FROM group_quotas(ARRAY['group_physics', 'group_chemistry'], ARRAY[0.66, 0.33],
                  ARRAY[true, true], ARRAY[false, false], ARRAY[100, 100], 30);

-- Subgroups, dynamic (the manual): chemistry 0.33334, physics 0.66667, physics.hep 0.75 and
-- physics.lep 0.25 of physics. The top-level fractions sum to 1.00001 > 1 and are scaled down:
-- physics gets 0.66667 / 1.00001 x 30 = 19.99990000, chemistry 0.33334 / 1.00001 x 30 =
-- 10.00010000; hep 75 % of physics, 14.99992500 ("the same 15 machines as specified in the
-- static quota example"), lep 4.99997500. With oversubscription (the default) physics also
-- keeps its whole 19.99990000 as its own quota; without, it keeps what hep and lep leave: 0.
SELECT grp, round(quota::numeric, 8) AS quota, round(subtree_quota::numeric, 8) AS subtree_quota
FROM group_quotas(ARRAY['group_physics', 'group_physics.hep', 'group_physics.lep', 'group_chemistry'],
                  ARRAY[0.66667, 0.75, 0.25, 0.33334], ARRAY[true, true, true, true],
                  ARRAY[false, false, false, false], ARRAY[0, 100, 100, 100], 30);

-- Surplus (the manual): physics 20 (GROUP_ACCEPT_SURPLUS_group_physics = false), hep 15 and
-- lep 5 accepting surplus, chemistry 10. "group_physics.lep and group_physics.hep are allowed
-- to exceed their quota of 15 and 5, but their sum cannot exceed 20". hep has 60 jobs, lep 2,
-- chemistry none: lep's 3 unused slots go to hep (15 + 3 = 18); chemistry's 10 reach <none>,
-- where no group accepting surplus asks for them, so they stay unallocated. "If the
-- group_physics had GROUP_ACCEPT_SURPLUS set to True", chemistry's 10 would reach hep too: 28.
-- The manual's numbers hold without oversubscription.
SELECT a.physics_accepts, g.*
FROM (VALUES (false), (true)) AS a(physics_accepts),
     group_quotas(ARRAY['group_physics', 'group_physics.hep', 'group_physics.lep', 'group_chemistry'],
                  ARRAY[20, 15, 5, 10], ARRAY[false, false, false, false],
                  ARRAY[a.physics_accepts, true, true, false], ARRAY[0, 60, 2, 0], 30,
                  allow_quota_oversubscription => false) AS g;
-- With NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (the default) a group keeps its whole quota as
-- its own (hgq_assign_quotas: quota = the subtree's): physics' own 20, unused, is surplus on
-- physics' level with lep's 3, and hep takes all 23: 38 (48 when physics accepts surplus and
-- chemistry's 10 come down too).
SELECT a.physics_accepts, g.grp, g.quota, g.surplus, g.allocated
FROM (VALUES (false), (true)) AS a(physics_accepts),
     group_quotas(ARRAY['group_physics', 'group_physics.hep', 'group_physics.lep', 'group_chemistry'],
                  ARRAY[20, 15, 5, 10], ARRAY[false, false, false, false],
                  ARRAY[a.physics_accepts, true, true, false], ARRAY[0, 60, 2, 0], 30) AS g;
-- job_hgq_negfail_basic_van (HTCondor's test): 40 slots, a, b, a.a, a.b, b.a, b.b each
-- GROUP_QUOTA_DYNAMIC 0.5, GROUP_ACCEPT_SURPLUS true but false for a and b; a.a has 20 jobs,
-- a.b, b.a and b.b 10 each. With the default a keeps its 20 as its own and gives them to a.a,
-- which is allocated its 20 jobs in the first round (the test then sees 20 a.a jobs running);
-- the allocations add up to 50 on a pool of 40. Without oversubscription a.a gets its quota, 10.
SELECT o.o, g.grp, g.quota, g.surplus, g.allocated
FROM (VALUES (true), (false)) AS o(o),
     group_quotas(ARRAY['a', 'b', 'a.a', 'a.b', 'b.a', 'b.b'], ARRAY[0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                  ARRAY[true, true, true, true, true, true], ARRAY[false, false, true, true, true, true],
                  ARRAY[0, 0, 20, 10, 10, 10], 40, allow_quota_oversubscription => o.o) AS g;
-- whole slots (NEGOTIATOR_USE_SLOT_WEIGHTS = False, as in that test) give the same
SELECT grp, allocated
FROM group_quotas(ARRAY['a', 'b', 'a.a', 'a.b', 'b.a', 'b.b'], ARRAY[0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                  ARRAY[true, true, true, true, true, true], ARRAY[false, false, true, true, true, true],
                  ARRAY[0, 0, 20, 10, 10, 10], 40, use_slot_weights => false);
-- NULL allow_quota_oversubscription: no rows, as a strict function
SELECT count(*) FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10,
                                  allow_quota_oversubscription => NULL);

-- Surplus is shared in proportion to quota, then what is left equally among groups with zero
-- quota (hgq_allocate_surplus). c (60 slots, not accepting surplus, no jobs) leaves 60: a
-- (quota 30) and b (10) split it 3:1, a 30 + 45 = 75, b 10 + 15 = 25. When b has only 12 jobs it
-- takes 2 and a the other 58: 88.
SELECT d.b_jobs, g.grp, g.quota, g.surplus, g.allocated
FROM (VALUES (100), (12)) AS d(b_jobs),
     group_quotas(ARRAY['a', 'b', 'c'], ARRAY[30, 10, 60], ARRAY[false, false, false],
                  ARRAY[true, true, false], ARRAY[100, d.b_jobs, 0], 100) AS g;
-- Zero-quota groups: w's 4 unused slots go first to x (quota 6, 1 job more than its quota),
-- then the 3 left equally to y and z (quota 0): z wants only 1, so y gets 2.
SELECT grp, quota, surplus, allocated
FROM group_quotas(ARRAY['x', 'y', 'z', 'w'], ARRAY[6, 0, 0, 4], ARRAY[false, false, false, false],
                  ARRAY[true, true, true, false], ARRAY[7, 10, 1, 0], 10);

-- <none> is a member of its own level: it serves the submitters outside every group
-- (none_demand) from the 30 slots the groups leave, then takes the surplus physics leaves
-- (20 - 5) like any group accepting it: 45.
SELECT * FROM group_quotas(ARRAY['group_physics', 'group_chemistry'], ARRAY[20, 10],
                           ARRAY[false, false], ARRAY[false, false], ARRAY[5, 10], 60,
                           none_demand => 50);

-- Whole slots (NEGOTIATOR_USE_SLOT_WEIGHTS = false): 10 slots and dynamic quotas 0.25, 0.25,
-- 0.5 give 2.5, 2.5 and 5; each allocation is rounded down, and the two halves make one slot
-- that round robin hands to the group with the largest quota, c: 2, 2, 6. With slot weights
-- (HTCondor's default) the fractions stay: 2.5, 2.5, 5.
SELECT w.use_slot_weights, g.grp, g.quota, g.allocated
FROM (VALUES (false), (true)) AS w(use_slot_weights),
     group_quotas(ARRAY['a', 'b', 'c'], ARRAY[0.25, 0.25, 0.5], ARRAY[true, true, true],
                  ARRAY[true, true, true], ARRAY[10, 10, 10], 10,
                  use_slot_weights => w.use_slot_weights) AS g;
-- Round robin gives at most max(1, floor(surplus / groups still wanting)) per group and pass:
-- six groups of quota 1.5 leave 6 x 0.5 = 3 slots, which the first three (equal quota and
-- demand: in name order) get.
SELECT grp, quota, allocated
FROM group_quotas(ARRAY['g1', 'g2', 'g3', 'g4', 'g5', 'g6'], ARRAY[1.5, 1.5, 1.5, 1.5, 1.5, 1.5],
                  ARRAY[false, false, false, false, false, false],
                  ARRAY[true, true, true, true, true, true], ARRAY[9, 9, 9, 9, 9, 9], 9,
                  use_slot_weights => false);

-- GROUP_AUTOREGROUP: when a group has it, its submitters also negotiate in <none> for whatever
-- is left, and <none>'s quota and allocation become the whole pool
SELECT a.autoregroup, g.grp, g.quota, g.allocated
FROM (VALUES (NULL::boolean[]), (ARRAY[false]), (ARRAY[true])) AS a(autoregroup),
     group_quotas(ARRAY['a'], ARRAY[4], ARRAY[false], ARRAY[false], ARRAY[10], 10,
                  a.autoregroup) AS g;

-- names compare case-insensitively: Physics.HEP is a subgroup of physics, and siblings sort
-- case-insensitively (Alpha, beta, GAMMA); physics keeps its whole 10 (oversubscription)
SELECT grp, quota FROM group_quotas(ARRAY['physics', 'Physics.HEP', 'GAMMA', 'beta', 'Alpha'],
                                    ARRAY[10, 4, 1, 1, 1], ARRAY[false, false, false, false, false],
                                    ARRAY[false, false, false, false, false], ARRAY[0, 0, 0, 0, 0], 20);
-- no groups: <none> alone; a NULL argument (but autoregroup): no rows, as a strict function
SELECT * FROM group_quotas('{}', '{}', '{}', '{}', '{}', 8, none_demand => 3);
SELECT count(*) FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], NULL);
SELECT count(*) FROM group_quotas(NULL, ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 5);

-- every allocation stays within the pool on a generated tree of 300 groups without
-- oversubscription, and within the demand with it
SELECT o.o, count(*) AS groups, sum(allocated) <= 1000 AS within_pool,
       bool_and(allocated <= requested OR grp = '<none>') AS within_demand
FROM (VALUES (false), (true)) AS o(o),
     group_quotas((SELECT array_agg(CASE WHEN i % 3 = 0 OR i < 10 THEN 'g' || i
                                         ELSE 'g' || (i % 10) || '.s' || i END ORDER BY i)
                   FROM generate_series(0, 299) AS i),
                  (SELECT array_agg(CASE WHEN i % 4 = 0 THEN 0.1 ELSE (i % 17)::float8 END ORDER BY i)
                   FROM generate_series(0, 299) AS i),
                  (SELECT array_agg(i % 4 = 0 ORDER BY i) FROM generate_series(0, 299) AS i),
                  (SELECT array_agg(i % 5 <> 0 ORDER BY i) FROM generate_series(0, 299) AS i),
                  (SELECT array_agg((i * 7 % 23)::float8 ORDER BY i) FROM generate_series(0, 299) AS i),
                  1000, allow_quota_oversubscription => o.o) AS g
GROUP BY o.o ORDER BY o.o;

-- errors
SELECT * FROM group_quotas(ARRAY['a.b'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['Physics', 'physics'], ARRAY[1, 2], ARRAY[false, false],
                           ARRAY[false, false], ARRAY[1, 1], 10);
SELECT * FROM group_quotas(ARRAY['<none>'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a..b'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY[''], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[-1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1.5], ARRAY[true], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY['NaN'::float8], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[-1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], -10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 'Infinity');
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10,
                           none_demand => -1);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1.5], 10,
                           use_slot_weights => false);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10.5,
                           use_slot_weights => false);
SELECT * FROM group_quotas(ARRAY['a', 'b'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10,
                           ARRAY[true, false]);
SELECT * FROM group_quotas(ARRAY['a', NULL], ARRAY[1, 1], ARRAY[false, false],
                           ARRAY[false, false], ARRAY[1, 1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[NULL::float8], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[NULL::boolean], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[NULL::boolean], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[NULL::float8], 10);
SELECT * FROM group_quotas(ARRAY['a'], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10,
                           ARRAY[NULL::boolean]);
SELECT * FROM group_quotas(ARRAY[['a']], ARRAY[1], ARRAY[false], ARRAY[false], ARRAY[1], 10);
SELECT * FROM group_quotas(ARRAY[repeat('a.', 1024) || 'a'], ARRAY[1], ARRAY[false],
                           ARRAY[false], ARRAY[1], 10);

-- cancellable: a statement timeout stops a long allocation (two million groups, one level;
-- about a second without the timeout)
CREATE TEMP TABLE many_groups AS
SELECT array_agg('g' || i) AS names,
       array_agg(CASE WHEN i % 3 = 0 THEN 1e-7 ELSE (i % 7)::float8 END) AS quotas,
       array_agg(i % 3 = 0) AS dynamic, array_agg(i % 2 = 0) AS accept,
       array_agg((i % 11)::float8) AS demand
FROM generate_series(1, 2000000) AS i;
SET statement_timeout = '300ms';
SELECT count(*) FROM many_groups,
     group_quotas(names, quotas, dynamic, accept, demand, 1e7) AS g;
RESET statement_timeout;
DROP TABLE many_groups;

-- whole slots: three groups of zero quota share 11 slots as 11/3 each; the remainders (as
-- doubles they add to 1.9999999999999996) make two whole slots and round robin hands out both
SELECT grp, quota, surplus, allocated
FROM group_quotas(ARRAY['a','b','c'], ARRAY[0,0,0]::float8[], ARRAY[false,false,false],
                  ARRAY[true,true,true], ARRAY[10,10,10]::float8[], 11, use_slot_weights => false);
-- the same under a parent of zero quota, and a parent of 11 that keeps nothing for itself
SELECT grp, quota, surplus, allocated
FROM group_quotas(ARRAY['p','p.a','p.b','p.c'], ARRAY[0,0,0,0]::float8[],
                  ARRAY[false,false,false,false], ARRAY[true,true,true,true],
                  ARRAY[0,10,10,10]::float8[], 11, use_slot_weights => false);
SELECT grp, quota, surplus, allocated
FROM group_quotas(ARRAY['p','p.a','p.b','p.c'], ARRAY[11,0,0,0]::float8[],
                  ARRAY[false,false,false,false], ARRAY[false,true,true,true],
                  ARRAY[0,10,10,10]::float8[], 11, use_slot_weights => false);
