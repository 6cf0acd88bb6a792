-- resgroup: the PBS resource_group file (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;

-- the sample file, verbatim (a psql variable keeps the CR of the CRLF line), split into its
-- "### block: NAME" blocks; line 1 of a block is the line after its header
\set rgfile `cat sql/data/resource_group_samples.txt`
CREATE TEMP TABLE rg_lines AS
SELECT n, l, sum((l LIKE '### block: %')::int) OVER (ORDER BY n) AS b
FROM string_to_table(:'rgfile', E'\n') WITH ORDINALITY AS t(l, n);
CREATE TEMP TABLE rg_blocks AS
SELECT b, max(substr(l, 12)) FILTER (WHERE l LIKE '### block: %') AS block,
       string_agg(l, E'\n' ORDER BY n) FILTER (WHERE l NOT LIKE '### block: %') AS doc
FROM rg_lines GROUP BY b;
SELECT b, block, length(doc) AS bytes, array_length(string_to_array(doc, E'\n'), 1) AS lines
FROM rg_blocks ORDER BY b;

-- the shipped template has every line commented out: only the predefined "unknown" remains
SELECT r.* FROM rg_blocks, resource_group(doc) r WHERE block = 'openpbs_template';

-- the template uncommented: paths are the chains of names below the root
-- (hand-derived: usr4 under grp6 under grp2 is grp2.grp6.usr4; "grp5 " with a blank before the
-- tab is the name grp5)
SELECT r.* FROM rg_blocks, resource_group(doc) r WHERE block = 'openpbs_template_uncommented'
ORDER BY line;

-- into share_tree and fairshare(..., 'pbs'): norm_shares is PBS's fairshare_perc. By hand: the
-- root's children hold 10 + 20 + 10 + 5 + 0 (unknown) = 45 shares, so grp1 = 10/45; grp1's
-- children hold 20 + 10 + 10 = 40, so grp1.grp4 = 10/45 * 20/40 and grp1.grp4.usr8 =
-- 10/45 * 20/40 * 10/20; grp2.grp6.usr6 = 20/45 * 20/30 * 20/40
CREATE TEMP TABLE tmpl_tree AS
SELECT share_tree(path, shares, 0) AS t
FROM rg_blocks, resource_group(doc) WHERE block = 'openpbs_template_uncommented';
SELECT path, depth, is_leaf, raw_shares, round(norm_shares::numeric, 6) AS norm_shares
FROM tmpl_tree, fairshare(t, 'pbs') ORDER BY path;
SELECT path, abs(norm_shares - want) < 1e-12 AS as_derived
FROM tmpl_tree, fairshare(t, 'pbs')
JOIN (VALUES ('grp1'::sharepath, 10.0 / 45), ('grp1.grp4', 10.0 / 45 * 20 / 40),
             ('grp1.grp4.usr8', 10.0 / 45 * 20 / 40 * 10 / 20), ('usr1', 5.0 / 45),
             ('grp2.grp6.usr6', 20.0 / 45 * 20 / 30 * 20 / 40), ('unknown', 0)) AS w(p, want)
  ON w.p = path
ORDER BY path;

-- PTL's tree with usage: pbsuser 100, pbsuser1 0, pbsuser2 50, pbsuser3 10. By hand (pbs: a
-- leaf's usage is max(1, u), an inner node's 1 + the leaves' u): group1 = 101, group2 = 61,
-- root = 161; norm_shares group1 .4, group2 .6, pbsuser .2, pbsuser1 .2, pbsuser2 .36,
-- pbsuser3 .24; usage per share: pbsuser3 41.67 < pbsuser2 138.89 in group2 (101.67), which
-- beats group1 (252.5): ranks pbsuser3 1, pbsuser2 2, pbsuser1 3 (5), pbsuser 4 (500),
-- unknown last (no shares)
CREATE TEMP TABLE ptl_usage(name text, usage float8);
INSERT INTO ptl_usage VALUES ('pbsuser', 100), ('pbsuser1', 0), ('pbsuser2', 50), ('pbsuser3', 10);
SELECT r.* FROM rg_blocks, resource_group(doc) r WHERE block = 'ptl_pbs_fairshare' ORDER BY line;
SELECT f.path, f.raw_shares, round(f.norm_shares::numeric, 4) AS norm_shares, f.raw_usage,
       round(f.usage_per_share::numeric, 2) AS usage_per_share, f.rank
FROM (SELECT share_tree(r.path, r.shares, coalesce(u.usage, 0)) AS t
      FROM rg_blocks, resource_group(doc) r LEFT JOIN ptl_usage u ON u.name = r.name
      WHERE block = 'ptl_pbs_fairshare') s,
     fairshare(s.t, 'pbs') f
ORDER BY f.path;

-- the constructed block holds every error case: resource_group stops at the first bad line
SELECT r.* FROM rg_blocks, resource_group(doc) r WHERE block = 'constructed_edges';
-- resource_group_try lists each line: the groups PBS would load, and every line it would skip
-- with the reason (a bad line defines nothing)
SELECT r.* FROM rg_blocks, resource_group_try(doc) r WHERE block = 'constructed_edges' ORDER BY line;
-- no line is lost: every line that is neither blank nor a comment has exactly one row
SELECT count(*) AS entry_lines,
       count(r.line) AS rows,
       count(r.error) AS errors,
       count(r.path) AS groups,
       bool_and(r.line IS NOT NULL) AS every_line_has_a_row
FROM (SELECT row_number() OVER (ORDER BY n) AS ln, l, n FROM rg_lines
      WHERE b = (SELECT b FROM rg_blocks WHERE block = 'constructed_edges')
        AND l NOT LIKE '### block: %') x
LEFT JOIN (SELECT t.* FROM rg_blocks, resource_group_try(doc) t WHERE block = 'constructed_edges') r
  ON r.line = x.ln
WHERE btrim(x.l, E' \t\r') <> '' AND left(ltrim(x.l, E' \t'), 1) NOT IN ('#', '*');
-- what PBS loads from it, into the share tree: physics 60 (alice, bob), chem 40, henry 5,
-- unknown 0 with guest under it; each group charged 10 of its own. By hand (pbs): the leaves
-- chem, henry, alice, bob and guest have 10 each; physics = 1 + 10 + 10 + 10 = 31 (its own
-- usage counts), unknown = 1 + 10 = 11, root = 1 + 60 = 61; norm_shares chem = 40/105,
-- henry = 5/105, physics = 60/105, alice = bob = 60/105 * 50/100, guest 0 (unknown has none)
SELECT f.path, f.raw_shares, round(f.norm_shares::numeric, 6) AS norm_shares, f.raw_usage
FROM (SELECT share_tree(path, shares, CASE WHEN line > 0 THEN 10 ELSE 0 END) AS t
      FROM rg_blocks, resource_group_try(doc) WHERE block = 'constructed_edges' AND error IS NULL) s,
     fairshare(s.t, 'pbs') f
ORDER BY f.path;

-- each error on its own, with its DETAIL and HINT
\set VERBOSITY default
SELECT * FROM resource_group(E'physics 10 root 60\nphysics 13 root 10');
SELECT * FROM resource_group('carol 14 nosuchgroup 10');
SELECT * FROM resource_group(E'a 10 b 1\nb 11 root 1');
SELECT * FROM resource_group('c 12 c 1');
SELECT * FROM resource_group('dave 15 root 10.5');
SELECT * FROM resource_group(E'gina 21 root 30\r');
SELECT * FROM resource_group('erin 16 root -5');
SELECT * FROM resource_group('h 15 root 99999999999');
SELECT * FROM resource_group('g 2147483648 root 1');
SELECT * FROM resource_group('x 1 root 1');
-- an id shared with a group that has children, whichever line comes first
SELECT * FROM resource_group(E'chem 20 root 40\nroot 20 root 5\nc 21 chem 1');
SELECT * FROM resource_group(E'alice 20 root 40\nchem 20 root 5\nc 21 chem 1');
SELECT * FROM resource_group('frank 17 chem');
SELECT * FROM resource_group('unknown 18 root 10');
SELECT * FROM resource_group('TREEROOT 18 root 10');
SELECT * FROM resource_group(repeat('n', 300) || ' 5 root 1');
SELECT * FROM resource_group(E'd 13 root x\ne 14 d 1');
SELECT line, error FROM resource_group_try(E'd 13 root x\ne 14 d 1');
SELECT * FROM resource_group('a 10 root 1', -1);
SELECT * FROM resource_group('a 10 root 1', 'NaN');
-- a chain 1025 groups deep cannot be a sharepath (1024 labels at most)
SELECT count(*) FROM resource_group((SELECT string_agg(format('g%s %s %s 1', i, 100 + i,
                                             CASE WHEN i = 0 THEN 'root' ELSE 'g' || (i - 1) END), E'\n' ORDER BY i)
                                     FROM generate_series(0, 1023) i));
SELECT count(*) FROM resource_group((SELECT string_agg(format('g%s %s %s 1', i, 100 + i,
                                             CASE WHEN i = 0 THEN 'root' ELSE 'g' || (i - 1) END), E'\n' ORDER BY i)
                                     FROM generate_series(0, 1024) i));

-- accepted as PBS accepts them: a group named root (a parent "root" still means the tree root),
-- TREEROOT as a parent, "+5", names that need quoting in a path, the usage column PTL writes,
-- unknown_shares, no final newline
SELECT * FROM resource_group(E'root 5 root 1\nkid 6 root 2\nt 7 TREEROOT +5\n"x.y"@z 8 t 3\tusage\t12.5\nguest 9 unknown 1', 2);
-- NULL in, no rows out; an empty file gives the predefined group only
SELECT count(*) FROM resource_group(NULL);
SELECT * FROM resource_group('');

-- a deep file: 200 nested groups with 120-byte names, then 100 under the deepest; paths are
-- written when their rows are emitted (memory in proportion to the file, not to the paths)
CREATE TEMP TABLE deep AS
SELECT string_agg(format('%s %s %s 1', lpad(g::text, 120, 'g'), g + 10,
                         CASE WHEN g = 1 THEN 'root' ELSE lpad((g - 1)::text, 120, 'g') END), E'\n' ORDER BY g)
       || E'\n' || (SELECT string_agg(format('%s %s %s 1', lpad(u::text, 120, 'u'), u + 5000, lpad('200', 120, 'g')),
                                      E'\n' ORDER BY u) FROM generate_series(1, 100) u) AS doc,
       string_agg(lpad(g::text, 120, 'g'), '.' ORDER BY g) AS chain
FROM generate_series(1, 200) g;
SELECT count(*) AS rows, max(nlevel(r.path)) AS depth, sum(octet_length(r.path::text)) AS path_bytes,
       count(*) FILTER (WHERE r.id > 5000 AND r.path = (d.chain || '.' || r.name)::sharepath) AS leaves_right,
       count(*) FILTER (WHERE r.id BETWEEN 11 AND 210
                        AND r.path = (SELECT string_agg(lpad(g::text, 120, 'g'), '.' ORDER BY g)
                                      FROM generate_series(1, r.id - 10) g)::sharepath) AS groups_right
FROM deep d, resource_group(d.doc) r;
-- 30,000 short bad lines: each keeps only its detail (a whole error record per line took
-- about 2 kB, a thousand times the line)
SELECT count(*) AS rows, count(DISTINCT error) AS reasons, min(error) AS reason
FROM resource_group_try(repeat(E'x\n', 30000)) WHERE line > 0;

-- leaves may share an id (PBS reads an id only as the resource group of a group's children):
-- a site script gives every user id 502 (sql/data/wild/); leaf c under phys shares 20 with
-- leaves alice and bob, and so do "root" and ann with chem while chem has no children; only an
-- entity with children needs an id of its own (chem with child x is refused, and so x)
\set rg502 `cat sql/data/wild/resource_group_recipe_getent_502.txt`
SELECT line, name, id, parent, shares, path, error FROM resource_group_try(:'rg502') ORDER BY line;
SELECT * FROM resource_group(E'chem 20 root 40\nroot 20 root 5\nann 20 root 5');
SELECT line, name, id, path, error
FROM resource_group_try(E'alice 20 root 1\nbob 20 root 1\nphys 30 root 2\nc 20 phys 1\nchem 20 root 2\nx 31 chem 1')
ORDER BY line;
