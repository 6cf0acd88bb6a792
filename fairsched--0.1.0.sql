-- fairsched 0.1.0 as released (2026-12-01): its full install script, frozen. Never edit it; every
-- later change ships in fairsched--0.1.0--0.2.0.sql (and on) next to the current full script.

\echo Use "CREATE EXTENSION fairsched" to load this file. \quit

COMMENT ON SCHEMA fairsched IS 'fairsched: fair-share scheduling values (SLURM, PBS, HTCondor, YTsaurus) computed in SQL';
-- resvec: resource vectors such as ncpus=4,mem=8gb,walltime=01:00:00 (README "Resource vectors")

CREATE TYPE fairsched.resvec;

CREATE FUNCTION fairsched.resvec_in(cstring) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_out(fairsched.resvec) RETURNS cstring
    AS 'MODULE_PATHNAME', 'resvec_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_recv(internal) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_send(fairsched.resvec) RETURNS bytea
    AS 'MODULE_PATHNAME', 'resvec_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.resvec (
    INPUT = fairsched.resvec_in,
    OUTPUT = fairsched.resvec_out,
    RECEIVE = fairsched.resvec_recv,
    SEND = fairsched.resvec_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.resvec IS 'resource vector: named amounts (counts, sizes in bytes, durations in seconds), e.g. ncpus=4,mem=8gb';
COMMENT ON FUNCTION fairsched.resvec_in(cstring) IS 'text input of resvec';
COMMENT ON FUNCTION fairsched.resvec_out(fairsched.resvec) IS 'canonical text output of resvec';
COMMENT ON FUNCTION fairsched.resvec_recv(internal) IS 'binary input of resvec (validated like text input)';
COMMENT ON FUNCTION fairsched.resvec_send(fairsched.resvec) IS 'binary output of resvec (starts with a format version byte)';

CREATE FUNCTION fairsched.resvec_from_binary(bytea) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_from_binary' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resvec_from_binary(bytea) IS 'decode the binary form that resvec_send produces (for clients and tests)';

-- arithmetic
CREATE FUNCTION fairsched.resvec_add(fairsched.resvec, fairsched.resvec) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_add' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_sub(fairsched.resvec, fairsched.resvec) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_sub' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_mul(fairsched.resvec, float8) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_mul' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_mul(float8, fairsched.resvec) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_mul_left' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_div(fairsched.resvec, float8) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_div' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_get(fairsched.resvec, text) RETURNS float8
    AS 'MODULE_PATHNAME', 'resvec_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_contains(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_contained(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resvec_add(fairsched.resvec, fairsched.resvec) IS 'elementwise sum over the union of names (absent counts as 0)';
COMMENT ON FUNCTION fairsched.resvec_sub(fairsched.resvec, fairsched.resvec) IS 'elementwise difference over the union of names (absent counts as 0)';
COMMENT ON FUNCTION fairsched.resvec_mul(fairsched.resvec, float8) IS 'every amount times a number';
COMMENT ON FUNCTION fairsched.resvec_mul(float8, fairsched.resvec) IS 'every amount times a number';
COMMENT ON FUNCTION fairsched.resvec_div(fairsched.resvec, float8) IS 'every amount divided by a number';
COMMENT ON FUNCTION fairsched.resvec_get(fairsched.resvec, text) IS 'the amount of one resource (bytes for sizes, seconds for durations), NULL if absent';
COMMENT ON FUNCTION fairsched.resvec_contains(fairsched.resvec, fairsched.resvec) IS 'true if the right vector fits in the left one';
COMMENT ON FUNCTION fairsched.resvec_contained(fairsched.resvec, fairsched.resvec) IS 'true if the left vector fits in the right one';

CREATE OPERATOR fairsched.+ (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_add, COMMUTATOR = OPERATOR(fairsched.+));
CREATE OPERATOR fairsched.- (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_sub);
CREATE OPERATOR fairsched.* (LEFTARG = fairsched.resvec, RIGHTARG = float8,
    FUNCTION = fairsched.resvec_mul, COMMUTATOR = OPERATOR(fairsched.*));
CREATE OPERATOR fairsched.* (LEFTARG = float8, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_mul, COMMUTATOR = OPERATOR(fairsched.*));
CREATE OPERATOR fairsched./ (LEFTARG = fairsched.resvec, RIGHTARG = float8,
    FUNCTION = fairsched.resvec_div);
CREATE OPERATOR fairsched.-> (LEFTARG = fairsched.resvec, RIGHTARG = text,
    FUNCTION = fairsched.resvec_get);
CREATE OPERATOR fairsched.@> (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_contains, COMMUTATOR = OPERATOR(fairsched.<@),
    RESTRICT = contsel, JOIN = contjoinsel);
CREATE OPERATOR fairsched.<@ (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_contained, COMMUTATOR = OPERATOR(fairsched.@>),
    RESTRICT = contsel, JOIN = contjoinsel);

-- comparison: a total order consistent with equality (name by name, then kind, then amount)
CREATE FUNCTION fairsched.resvec_eq(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_ne(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_lt(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_le(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_gt(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_ge(fairsched.resvec, fairsched.resvec) RETURNS boolean
    AS 'MODULE_PATHNAME', 'resvec_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_cmp(fairsched.resvec, fairsched.resvec) RETURNS int4
    AS 'MODULE_PATHNAME', 'resvec_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_hash(fairsched.resvec) RETURNS int4
    AS 'MODULE_PATHNAME', 'resvec_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.resvec_hash_extended(fairsched.resvec, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'resvec_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fairsched.resvec_eq(fairsched.resvec, fairsched.resvec) IS 'same names, kinds and amounts';
COMMENT ON FUNCTION fairsched.resvec_ne(fairsched.resvec, fairsched.resvec) IS 'not equal';
COMMENT ON FUNCTION fairsched.resvec_lt(fairsched.resvec, fairsched.resvec) IS 'less than in the btree order';
COMMENT ON FUNCTION fairsched.resvec_le(fairsched.resvec, fairsched.resvec) IS 'less than or equal in the btree order';
COMMENT ON FUNCTION fairsched.resvec_gt(fairsched.resvec, fairsched.resvec) IS 'greater than in the btree order';
COMMENT ON FUNCTION fairsched.resvec_ge(fairsched.resvec, fairsched.resvec) IS 'greater than or equal in the btree order';
COMMENT ON FUNCTION fairsched.resvec_cmp(fairsched.resvec, fairsched.resvec) IS 'btree support: -1, 0 or 1';
COMMENT ON FUNCTION fairsched.resvec_hash(fairsched.resvec) IS 'hash support';
COMMENT ON FUNCTION fairsched.resvec_hash_extended(fairsched.resvec, int8) IS 'hash support with a seed';

CREATE OPERATOR fairsched.= (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_eq, COMMUTATOR = OPERATOR(fairsched.=),
    NEGATOR = OPERATOR(fairsched.<>), RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR fairsched.<> (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_ne, COMMUTATOR = OPERATOR(fairsched.<>),
    NEGATOR = OPERATOR(fairsched.=), RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR fairsched.< (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_lt, COMMUTATOR = OPERATOR(fairsched.>),
    NEGATOR = OPERATOR(fairsched.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR fairsched.<= (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_le, COMMUTATOR = OPERATOR(fairsched.>=),
    NEGATOR = OPERATOR(fairsched.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR fairsched.> (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_gt, COMMUTATOR = OPERATOR(fairsched.<),
    NEGATOR = OPERATOR(fairsched.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR fairsched.>= (LEFTARG = fairsched.resvec, RIGHTARG = fairsched.resvec,
    FUNCTION = fairsched.resvec_ge, COMMUTATOR = OPERATOR(fairsched.<=),
    NEGATOR = OPERATOR(fairsched.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR CLASS fairsched.resvec_ops DEFAULT FOR TYPE fairsched.resvec USING btree AS
    OPERATOR 1 fairsched.<,
    OPERATOR 2 fairsched.<=,
    OPERATOR 3 fairsched.=,
    OPERATOR 4 fairsched.>=,
    OPERATOR 5 fairsched.>,
    FUNCTION 1 fairsched.resvec_cmp(fairsched.resvec, fairsched.resvec);
CREATE OPERATOR CLASS fairsched.resvec_hash_ops DEFAULT FOR TYPE fairsched.resvec USING hash AS
    OPERATOR 1 fairsched.=,
    FUNCTION 1 fairsched.resvec_hash(fairsched.resvec),
    FUNCTION 2 fairsched.resvec_hash_extended(fairsched.resvec, int8);

-- dominant share (YTsaurus / DRF): resources absent from or not positive in total are ignored
CREATE FUNCTION fairsched.dominant_share(v fairsched.resvec, total fairsched.resvec) RETURNS float8
    AS 'MODULE_PATHNAME', 'resvec_dominant_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.dominant_resource(v fairsched.resvec, total fairsched.resvec) RETURNS text
    AS 'MODULE_PATHNAME', 'resvec_dominant_resource' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.dominant_share(fairsched.resvec, fairsched.resvec) IS 'max over resources of v/total, ignoring resources absent from or not positive in total; 0 if none counts';
COMMENT ON FUNCTION fairsched.dominant_resource(fairsched.resvec, fairsched.resvec) IS 'the resource that gives the dominant share (first by name on ties), NULL if none counts';

-- conversions
CREATE FUNCTION fairsched.resvec_each(r fairsched.resvec)
    RETURNS TABLE(name text, amount float8, kind text)
    AS 'MODULE_PATHNAME', 'resvec_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION fairsched.resvec_each(fairsched.resvec) IS 'one row per resource: name, amount (bytes for sizes, seconds for durations), kind';

CREATE FUNCTION fairsched.resvec(names text[], amounts float8[], kinds text[] DEFAULT NULL)
    RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_from_arrays' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resvec(text[], float8[], text[]) IS 'build a resvec from parallel arrays of names, amounts and (optionally) kinds: count, size or duration';

CREATE FUNCTION fairsched.resvec_to_jsonb(fairsched.resvec) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'resvec_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.resvec_from_jsonb(jsonb) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resvec_to_jsonb(fairsched.resvec) IS 'jsonb object: counts as numbers, sizes and durations as their canonical strings';
COMMENT ON FUNCTION fairsched.resvec_from_jsonb(jsonb) IS 'resvec from a jsonb object of numbers (counts) and strings (8gb, 01:00:00)';
CREATE CAST (fairsched.resvec AS jsonb) WITH FUNCTION fairsched.resvec_to_jsonb(fairsched.resvec);
CREATE CAST (jsonb AS fairsched.resvec) WITH FUNCTION fairsched.resvec_from_jsonb(jsonb);

-- aggregate: elementwise sum; the state is a resvec, so partial sums travel as plain values
CREATE FUNCTION fairsched.resvec_sum_accum(fairsched.resvec, fairsched.resvec) RETURNS fairsched.resvec
    AS 'MODULE_PATHNAME', 'resvec_sum_accum' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resvec_sum_accum(fairsched.resvec, fairsched.resvec) IS 'transition and combine function of sum(resvec)';
CREATE AGGREGATE fairsched.sum(fairsched.resvec) (
    SFUNC = fairsched.resvec_sum_accum,
    STYPE = fairsched.resvec,
    COMBINEFUNC = fairsched.resvec_sum_accum,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.sum(fairsched.resvec) IS 'elementwise sum of resource vectors';
-- sharepath: a node's path in a share tree, physics."alice.smith@example.org" (README "Share-tree paths")

CREATE TYPE fairsched.sharepath;

CREATE FUNCTION fairsched.sharepath_in(cstring) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_out(fairsched.sharepath) RETURNS cstring
    AS 'MODULE_PATHNAME', 'sharepath_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_recv(internal) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_send(fairsched.sharepath) RETURNS bytea
    AS 'MODULE_PATHNAME', 'sharepath_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.sharepath (
    INPUT = fairsched.sharepath_in,
    OUTPUT = fairsched.sharepath_out,
    RECEIVE = fairsched.sharepath_recv,
    SEND = fairsched.sharepath_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.sharepath IS 'path of a node in a share tree: dot-separated labels, root first; the root is the empty path';
COMMENT ON FUNCTION fairsched.sharepath_in(cstring) IS 'text input of sharepath';
COMMENT ON FUNCTION fairsched.sharepath_out(fairsched.sharepath) IS 'canonical text output of sharepath (labels quoted only when needed)';
COMMENT ON FUNCTION fairsched.sharepath_recv(internal) IS 'binary input of sharepath (validated like text input)';
COMMENT ON FUNCTION fairsched.sharepath_send(fairsched.sharepath) IS 'binary output of sharepath (starts with a format version byte)';

-- order: label by label in byte order, a path directly before its descendants (pre-order)
CREATE FUNCTION fairsched.sharepath_eq(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_ne(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_lt(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_le(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_gt(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_ge(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_cmp(fairsched.sharepath, fairsched.sharepath) RETURNS int4
    AS 'MODULE_PATHNAME', 'sharepath_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_hash(fairsched.sharepath) RETURNS int4
    AS 'MODULE_PATHNAME', 'sharepath_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fairsched.sharepath_hash_extended(fairsched.sharepath, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'sharepath_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fairsched.sharepath_eq(fairsched.sharepath, fairsched.sharepath) IS 'same labels';
COMMENT ON FUNCTION fairsched.sharepath_ne(fairsched.sharepath, fairsched.sharepath) IS 'not equal';
COMMENT ON FUNCTION fairsched.sharepath_lt(fairsched.sharepath, fairsched.sharepath) IS 'before in pre-order';
COMMENT ON FUNCTION fairsched.sharepath_le(fairsched.sharepath, fairsched.sharepath) IS 'before or equal in pre-order';
COMMENT ON FUNCTION fairsched.sharepath_gt(fairsched.sharepath, fairsched.sharepath) IS 'after in pre-order';
COMMENT ON FUNCTION fairsched.sharepath_ge(fairsched.sharepath, fairsched.sharepath) IS 'after or equal in pre-order';
COMMENT ON FUNCTION fairsched.sharepath_cmp(fairsched.sharepath, fairsched.sharepath) IS 'btree support: pre-order comparison';
CREATE FUNCTION fairsched.sharepath_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'sharepath_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sharepath_sortsupport(internal) IS 'btree support: sorting in pre-order with abbreviated keys';
COMMENT ON FUNCTION fairsched.sharepath_hash(fairsched.sharepath) IS 'hash support';
COMMENT ON FUNCTION fairsched.sharepath_hash_extended(fairsched.sharepath, int8) IS 'hash support with a seed';

CREATE OPERATOR fairsched.= (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_eq, COMMUTATOR = OPERATOR(fairsched.=),
    NEGATOR = OPERATOR(fairsched.<>), RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR fairsched.<> (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_ne, COMMUTATOR = OPERATOR(fairsched.<>),
    NEGATOR = OPERATOR(fairsched.=), RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR fairsched.< (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_lt, COMMUTATOR = OPERATOR(fairsched.>),
    NEGATOR = OPERATOR(fairsched.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR fairsched.<= (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_le, COMMUTATOR = OPERATOR(fairsched.>=),
    NEGATOR = OPERATOR(fairsched.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR fairsched.> (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_gt, COMMUTATOR = OPERATOR(fairsched.<),
    NEGATOR = OPERATOR(fairsched.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR fairsched.>= (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_ge, COMMUTATOR = OPERATOR(fairsched.<=),
    NEGATOR = OPERATOR(fairsched.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR CLASS fairsched.sharepath_ops DEFAULT FOR TYPE fairsched.sharepath USING btree AS
    OPERATOR 1 fairsched.<,
    OPERATOR 2 fairsched.<=,
    OPERATOR 3 fairsched.=,
    OPERATOR 4 fairsched.>=,
    OPERATOR 5 fairsched.>,
    FUNCTION 1 fairsched.sharepath_cmp(fairsched.sharepath, fairsched.sharepath),
    FUNCTION 2 fairsched.sharepath_sortsupport(internal);
CREATE OPERATOR CLASS fairsched.sharepath_hash_ops DEFAULT FOR TYPE fairsched.sharepath USING hash AS
    OPERATOR 1 fairsched.=,
    FUNCTION 1 fairsched.sharepath_hash(fairsched.sharepath),
    FUNCTION 2 fairsched.sharepath_hash_extended(fairsched.sharepath, int8);

-- ancestry and concatenation
CREATE FUNCTION fairsched.sharepath_contains(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_contained(fairsched.sharepath, fairsched.sharepath) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sharepath_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_concat(fairsched.sharepath, fairsched.sharepath) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_concat' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_concat(fairsched.sharepath, text) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_concat_label' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sharepath_contains(fairsched.sharepath, fairsched.sharepath) IS 'true if the left path is an ancestor of the right one or equal to it';
COMMENT ON FUNCTION fairsched.sharepath_contained(fairsched.sharepath, fairsched.sharepath) IS 'true if the left path is a descendant of the right one or equal to it';
COMMENT ON FUNCTION fairsched.sharepath_concat(fairsched.sharepath, fairsched.sharepath) IS 'the labels of both paths, left first';
COMMENT ON FUNCTION fairsched.sharepath_concat(fairsched.sharepath, text) IS 'the path with one more label (the text, taken literally)';

CREATE OPERATOR fairsched.@> (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_contains, COMMUTATOR = OPERATOR(fairsched.<@),
    RESTRICT = contsel, JOIN = contjoinsel);
CREATE OPERATOR fairsched.<@ (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_contained, COMMUTATOR = OPERATOR(fairsched.@>),
    RESTRICT = contsel, JOIN = contjoinsel);
CREATE OPERATOR fairsched.|| (LEFTARG = fairsched.sharepath, RIGHTARG = fairsched.sharepath,
    FUNCTION = fairsched.sharepath_concat);
CREATE OPERATOR fairsched.|| (LEFTARG = fairsched.sharepath, RIGHTARG = text,
    FUNCTION = fairsched.sharepath_concat);

-- functions
CREATE FUNCTION fairsched.nlevel(p fairsched.sharepath) RETURNS int4
    AS 'MODULE_PATHNAME', 'sharepath_nlevel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.parent(p fairsched.sharepath) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_parent' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.leaf(p fairsched.sharepath) RETURNS text
    AS 'MODULE_PATHNAME', 'sharepath_leaf' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.subpath(p fairsched.sharepath, "offset" int4, len int4 DEFAULT NULL)
    RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_subpath' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.lca(a fairsched.sharepath, b fairsched.sharepath) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_lca' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.ancestors(p fairsched.sharepath, include_self boolean DEFAULT true)
    RETURNS SETOF fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_ancestors' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION fairsched.nlevel(fairsched.sharepath) IS 'number of labels (0 for the root)';
COMMENT ON FUNCTION fairsched.parent(fairsched.sharepath) IS 'the path without its last label; NULL for the root';
COMMENT ON FUNCTION fairsched.leaf(fairsched.sharepath) IS 'the last label; NULL for the root';
COMMENT ON FUNCTION fairsched.subpath(fairsched.sharepath, int4, int4) IS 'labels from offset (negative: from the end), len of them (NULL: to the end; negative: leave that many off the end)';
COMMENT ON FUNCTION fairsched.lca(fairsched.sharepath, fairsched.sharepath) IS 'lowest common ancestor: the longest common prefix of both paths';
COMMENT ON FUNCTION fairsched.ancestors(fairsched.sharepath, boolean) IS 'every ancestor, root first (the root included), and the path itself unless include_self is false';

CREATE FUNCTION fairsched.sharepath_to_array(fairsched.sharepath) RETURNS text[]
    AS 'MODULE_PATHNAME', 'sharepath_to_array' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharepath_from_array(text[]) RETURNS fairsched.sharepath
    AS 'MODULE_PATHNAME', 'sharepath_from_array' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sharepath_to_array(fairsched.sharepath) IS 'the labels, root first';
COMMENT ON FUNCTION fairsched.sharepath_from_array(text[]) IS 'a path from its labels, root first (each taken literally)';
CREATE CAST (fairsched.sharepath AS text[]) WITH FUNCTION fairsched.sharepath_to_array(fairsched.sharepath);
CREATE CAST (text[] AS fairsched.sharepath) WITH FUNCTION fairsched.sharepath_from_array(text[]);
-- sharetree: a share tree (or pool tree) with usage rolled up (README "Share trees")

CREATE TYPE fairsched.sharetree;

CREATE FUNCTION fairsched.sharetree_in(cstring) RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'sharetree_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharetree_out(fairsched.sharetree) RETURNS cstring
    AS 'MODULE_PATHNAME', 'sharetree_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharetree_recv(internal) RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'sharetree_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.sharetree_send(fairsched.sharetree) RETURNS bytea
    AS 'MODULE_PATHNAME', 'sharetree_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.sharetree (
    INPUT = fairsched.sharetree_in,
    OUTPUT = fairsched.sharetree_out,
    RECEIVE = fairsched.sharetree_recv,
    SEND = fairsched.sharetree_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.sharetree IS 'a share tree (shares and usage per node) or pool tree (weights, share-ratio bounds, usage and demand vectors), as built by share_tree or pool_tree';
COMMENT ON FUNCTION fairsched.sharetree_in(cstring) IS 'text input of sharetree: share{path=shares/usage,...} or pool{path=weight/min/max/{usage}/{demand},...}';
COMMENT ON FUNCTION fairsched.sharetree_out(fairsched.sharetree) IS 'text output of sharetree: every node once, in pre-order';
COMMENT ON FUNCTION fairsched.sharetree_recv(internal) IS 'binary input of sharetree (every byte checked)';
COMMENT ON FUNCTION fairsched.sharetree_send(fairsched.sharetree) IS 'binary output of sharetree (starts with a format version byte)';

-- aggregates: the state is a sharetree, updated in place (an expanded object) within an aggregate
CREATE FUNCTION fairsched.share_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8)
    RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'share_tree_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.share_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8, boolean)
    RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'share_tree_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.pool_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8, float8,
                                          fairsched.resvec, fairsched.resvec)
    RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'pool_tree_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.sharetree_combine(fairsched.sharetree, fairsched.sharetree)
    RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'sharetree_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.share_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8) IS 'transition function of share_tree';
COMMENT ON FUNCTION fairsched.share_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8, boolean) IS 'transition function of share_tree with shares_from_parent';
COMMENT ON FUNCTION fairsched.pool_tree_accum(fairsched.sharetree, fairsched.sharepath, float8, float8, float8, fairsched.resvec, fairsched.resvec) IS 'transition function of pool_tree';
COMMENT ON FUNCTION fairsched.sharetree_combine(fairsched.sharetree, fairsched.sharetree) IS 'combine function of share_tree and pool_tree';

CREATE AGGREGATE fairsched.share_tree(path fairsched.sharepath, shares float8, usage float8) (
    SFUNC = fairsched.share_tree_accum,
    STYPE = fairsched.sharetree,
    COMBINEFUNC = fairsched.sharetree_combine,
    PARALLEL = SAFE
);
CREATE AGGREGATE fairsched.share_tree(path fairsched.sharepath, shares float8, usage float8,
                                      shares_from_parent boolean) (
    SFUNC = fairsched.share_tree_accum,
    STYPE = fairsched.sharetree,
    COMBINEFUNC = fairsched.sharetree_combine,
    PARALLEL = SAFE
);
CREATE AGGREGATE fairsched.pool_tree(path fairsched.sharepath, weight float8, min_share_ratio float8,
                                     max_share_ratio float8, usage fairsched.resvec,
                                     demand fairsched.resvec) (
    SFUNC = fairsched.pool_tree_accum,
    STYPE = fairsched.sharetree,
    COMBINEFUNC = fairsched.sharetree_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.share_tree(fairsched.sharepath, float8, float8) IS 'share tree of the rows: usages add per path, shares must agree, missing ancestors are created';
COMMENT ON AGGREGATE fairsched.share_tree(fairsched.sharepath, float8, float8, boolean) IS 'share tree with SLURM FairShare=parent nodes (shares_from_parent)';
COMMENT ON AGGREGATE fairsched.pool_tree(fairsched.sharepath, float8, float8, float8, fairsched.resvec, fairsched.resvec) IS 'pool tree for fair-share division: weights, min/max share ratios, usage and demand vectors';

CREATE FUNCTION fairsched.tree_nodes(t fairsched.sharetree)
    RETURNS TABLE(path fairsched.sharepath, parent fairsched.sharepath, depth int4, is_leaf boolean,
                  declared boolean, shares float8, own_usage float8, usage float8,
                  usage_vec fairsched.resvec, demand_vec fairsched.resvec,
                  shares_from_parent boolean, min_share_ratio float8, max_share_ratio float8)
    AS 'MODULE_PATHNAME', 'sharetree_nodes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.tree_nodes(fairsched.sharetree) IS 'one row per node in pre-order, with the usage (or usage and demand vectors) of its whole subtree';

CREATE FUNCTION fairsched.merge(a fairsched.sharetree, b fairsched.sharetree) RETURNS fairsched.sharetree
    AS 'MODULE_PATHNAME', 'sharetree_merge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.merge(fairsched.sharetree, fairsched.sharetree) IS 'one tree with the nodes of both: usages add, shares must agree';
-- fairshare: hierarchical fairshare over a share tree (README "Hierarchical fairshare")

CREATE FUNCTION fairsched.fairshare(t fairsched.sharetree, algorithm text DEFAULT 'classic',
                                    dampening float8 DEFAULT 1)
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_leaf boolean, declared boolean,
                  raw_shares float8, norm_shares float8, raw_usage float8, norm_usage float8,
                  effective_usage float8, fairshare float8, level_fs float8,
                  usage_per_share float8, rank int4)
    AS 'MODULE_PATHNAME', 'fairshare_tree' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.fairshare(fairsched.sharetree, text, float8) IS 'fairshare of every node (classic: SLURM NO_FAIR_TREE; fair_tree: SLURM Fair Tree; pbs: PBS fairshare), in pre-order, as sshare -l and pbsfs show it';

CREATE FUNCTION fairsched.fairshare_path(t fairsched.sharetree, entity fairsched.sharepath,
                                         algorithm text DEFAULT 'classic', dampening float8 DEFAULT 1)
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_leaf boolean, declared boolean,
                  raw_shares float8, norm_shares float8, raw_usage float8, norm_usage float8,
                  effective_usage float8, fairshare float8, level_fs float8,
                  usage_per_share float8, rank int4)
    AS 'MODULE_PATHNAME', 'fairshare_path' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.fairshare_path(fairsched.sharetree, fairsched.sharepath, text, float8) IS 'the fairshare rows from the root down to one entity (the pbsfs -g "Path from root" listing)';
-- decay: usage decay and fairness over time (README "Usage decay")

CREATE FUNCTION fairsched.decay(usage float8, elapsed interval, half_life interval) RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_exact' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decay(usage float8, elapsed interval, half_life interval, model text)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_model' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decay_step(usage float8, elapsed interval, period interval,
                                     factor float8 DEFAULT 0.5, floor float8 DEFAULT 0)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'decay_step' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.accrued_usage(rate float8, run_start timestamptz, run_end timestamptz,
                                        as_of timestamptz, half_life interval)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'accrued_usage' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decay(float8, interval, interval) IS 'usage * 2^(-elapsed / half_life)';
COMMENT ON FUNCTION fairsched.decay(float8, interval, interval, text) IS 'decayed usage with a model: exact, slurm (per-second factor 1 - 0.693/half_life as a power) or condor (as exact)';
COMMENT ON FUNCTION fairsched.decay_step(float8, interval, interval, float8, float8) IS 'usage * factor^floor(elapsed / period), never below floor (PBS fairshare_decay_time and fairshare_decay_factor)';
COMMENT ON FUNCTION fairsched.accrued_usage(float8, timestamptz, timestamptz, timestamptz, interval) IS 'exact integral of a running job''s decayed charge up to as_of (no decay when half_life is NULL)';

CREATE TYPE fairsched.decayed_usage;
CREATE FUNCTION fairsched.decayed_usage_in(cstring) RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_out(fairsched.decayed_usage) RETURNS cstring
    AS 'MODULE_PATHNAME', 'decayed_usage_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_recv(internal) RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_send(fairsched.decayed_usage) RETURNS bytea
    AS 'MODULE_PATHNAME', 'decayed_usage_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.decayed_usage (
    INPUT = fairsched.decayed_usage_in,
    OUTPUT = fairsched.decayed_usage_out,
    RECEIVE = fairsched.decayed_usage_recv,
    SEND = fairsched.decayed_usage_send,
    INTERNALLENGTH = 24,
    ALIGNMENT = double
);
COMMENT ON TYPE fairsched.decayed_usage IS 'a decayed running sum: its value as of an instant, and its half-life; text value@YYYY-MM-DDTHH:MM:SSZ/half_life_seconds';
COMMENT ON FUNCTION fairsched.decayed_usage_in(cstring) IS 'text input of decayed_usage';
COMMENT ON FUNCTION fairsched.decayed_usage_out(fairsched.decayed_usage) IS 'text output of decayed_usage (UTC, independent of settings)';
COMMENT ON FUNCTION fairsched.decayed_usage_recv(internal) IS 'binary input of decayed_usage';
COMMENT ON FUNCTION fairsched.decayed_usage_send(fairsched.decayed_usage) IS 'binary output of decayed_usage (starts with a format version byte)';

CREATE FUNCTION fairsched.decayed_sum_accum(fairsched.decayed_usage, float8, timestamptz, interval)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_sum_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.decayed_usage_combine(fairsched.decayed_usage, fairsched.decayed_usage)
    RETURNS fairsched.decayed_usage
    AS 'MODULE_PATHNAME', 'decayed_usage_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.decayed_sum_accum(fairsched.decayed_usage, float8, timestamptz, interval) IS 'transition function of decayed_sum';
COMMENT ON FUNCTION fairsched.decayed_usage_combine(fairsched.decayed_usage, fairsched.decayed_usage) IS 'combine function of decayed_sum: decay both to the later instant, then add';
CREATE AGGREGATE fairsched.decayed_sum(usage float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.decayed_sum_accum,
    STYPE = fairsched.decayed_usage,
    COMBINEFUNC = fairsched.decayed_usage_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.decayed_sum(float8, timestamptz, interval) IS 'sum of usage decayed with a half-life, as of its latest row; a window function gives the running value';

CREATE FUNCTION fairsched.value(d fairsched.decayed_usage, as_of timestamptz) RETURNS float8
    AS 'MODULE_PATHNAME', 'decayed_usage_value' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.value(fairsched.decayed_usage, timestamptz) IS 'a decayed sum read at a later instant';
-- divide: fair-share ratio division down a pool tree (YTsaurus, seed 002; README "Fair-share division")

CREATE FUNCTION fairsched.divide(total float8, weights float8[], min_shares float8[],
                                 max_shares float8[], mode text DEFAULT 'clamp')
    RETURNS float8[]
    AS 'MODULE_PATHNAME', 'divide_shares' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.divide(float8, float8[], float8[], float8[], text) IS 'divide total among children: find x with sum g_i(x) = total, g_i = min(max(x w_i, l_i), u_i) (clamp) or min(u_i, l_i + x w_i) (additive); solved exactly';

CREATE FUNCTION fairsched.fair_share(t fairsched.sharetree, cluster fairsched.resvec,
                                     mode text DEFAULT 'clamp', root text DEFAULT 'one')
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_leaf boolean, weight float8,
                  min_share_ratio float8, guaranteed_share float8, usage_ratio float8,
                  demand_ratio float8, dominant_resource text, max_possible_ratio float8,
                  fair_share_ratio float8, satisfaction float8, lower_bound float8,
                  weight_part float8, bound text)
    AS 'MODULE_PATHNAME', 'pool_fair_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.fair_share(fairsched.sharetree, fairsched.resvec, text, text) IS 'fair share ratio of every pool of a pool tree, divided top-down from 1 at the root, with the guarantee, cap and weight-proportional part that decided it; root => ''children'' reports the root''s fair share and guarantee as the sums of its children''s (at most 1), as YTsaurus vector HDRF does';
-- slots: HTCondor slot weights and SLURM TRES billing (README "Resource vectors" and "Slot weights", seed 001)

CREATE FUNCTION fairsched.slot_weight(slot fairsched.resvec, machine fairsched.resvec,
                                      cores text DEFAULT 'cpus', mode text DEFAULT 'sum')
    RETURNS float8
    AS 'MODULE_PATHNAME', 'slot_weight' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slot_weight(fairsched.resvec, fairsched.resvec, text, text) IS 'weight of a dynamic slot: its cores plus every other resource beyond its cores'' share of the machine, in cores (sum), or the largest of those (max)';

CREATE FUNCTION fairsched.slot_weights(machine fairsched.resvec, slots fairsched.resvec[],
                                       cores text DEFAULT 'cpus', mode text DEFAULT 'sum')
    RETURNS TABLE(slot int4, weight float8, remainder boolean)
    AS 'MODULE_PATHNAME', 'slot_weights' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slot_weights(fairsched.resvec, fairsched.resvec[], text, text) IS 'the weight of each dynamic slot of a partitionable machine, and a last row for what the slots leave unclaimed';

CREATE FUNCTION fairsched.billing(alloc fairsched.resvec, weights text, max_tres boolean DEFAULT false,
                                  max_tres_gres boolean DEFAULT false)
    RETURNS float8
    AS 'MODULE_PATHNAME', 'resvec_billing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.billing(fairsched.resvec, text, boolean, boolean) IS 'SLURM billing of an allocation under TRESBillingWeights (CPU=1.0,Mem=0.25G,GRES/gpu=2.0); with max_tres (PriorityFlags=MAX_TRES), the largest node-level weighted amount plus the global ones; with max_tres_gres (MAX_TRES_GRES), the GRES summed, plus the largest of cpu, mem and node, plus the global ones';
-- userprio: HTCondor's real user priority as an aggregate and window function

CREATE TYPE fairsched.userprio_state;
CREATE FUNCTION fairsched.userprio_state_in(cstring) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_out(fairsched.userprio_state) RETURNS cstring
    AS 'MODULE_PATHNAME', 'userprio_state_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_recv(internal) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_state_send(fairsched.userprio_state) RETURNS bytea
    AS 'MODULE_PATHNAME', 'userprio_state_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.userprio_state (
    INPUT = fairsched.userprio_state_in,
    OUTPUT = fairsched.userprio_state_out,
    RECEIVE = fairsched.userprio_state_recv,
    SEND = fairsched.userprio_state_send,
    INTERNALLENGTH = 88,
    ALIGNMENT = double
);
COMMENT ON TYPE fairsched.userprio_state IS 'state of userprio: the priority update of a run of samples as max(m, a p + g), with its first sample and time span, and the weighted usage accumulated, the weighted in-use at the last sample, and when usage began and was last seen';
COMMENT ON FUNCTION fairsched.userprio_state_in(cstring) IS 'text input of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_out(fairsched.userprio_state) IS 'text output of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_recv(internal) IS 'binary input of userprio_state';
COMMENT ON FUNCTION fairsched.userprio_state_send(fairsched.userprio_state) IS 'binary output of userprio_state (starts with a format version byte)';

CREATE FUNCTION fairsched.userprio_accum(fairsched.userprio_state, float8, timestamptz, interval)
    RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_combine(fairsched.userprio_state, fairsched.userprio_state)
    RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.userprio_final(fairsched.userprio_state) RETURNS float8
    AS 'MODULE_PATHNAME', 'userprio_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_accum(fairsched.userprio_state, float8, timestamptz, interval) IS 'transition function of userprio';
COMMENT ON FUNCTION fairsched.userprio_combine(fairsched.userprio_state, fairsched.userprio_state) IS 'combine function of userprio: one run of samples after the other';
COMMENT ON FUNCTION fairsched.userprio_final(fairsched.userprio_state) IS 'final function of userprio: the real priority after the last sample';
CREATE AGGREGATE fairsched.userprio(weighted_in_use float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.userprio_accum,
    STYPE = fairsched.userprio_state,
    FINALFUNC = fairsched.userprio_final,
    COMBINEFUNC = fairsched.userprio_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.userprio(float8, timestamptz, interval) IS 'HTCondor real user priority: max(0.5, previous * b + in_use * (1 - b)) per sample, b = 0.5^(dt / half_life), from 0.5; samples in time order';

CREATE FUNCTION fairsched.userprio_state_final(fairsched.userprio_state) RETURNS fairsched.userprio_state
    AS 'MODULE_PATHNAME', 'userprio_state_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_state_final(fairsched.userprio_state) IS 'final function of the userprio_state aggregate: the state itself';
CREATE AGGREGATE fairsched.userprio_state(weighted_in_use float8, at timestamptz, half_life interval) (
    SFUNC = fairsched.userprio_accum,
    STYPE = fairsched.userprio_state,
    FINALFUNC = fairsched.userprio_state_final,
    COMBINEFUNC = fairsched.userprio_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.userprio_state(float8, timestamptz, interval) IS 'the userprio state of a run of samples (time order), to store, combine or pass to userprio_report';

CREATE FUNCTION fairsched.userprio_report(state fairsched.userprio_state,
                                          priority_factor float8 DEFAULT 1000,
                                          OUT effective_priority float8, OUT real_priority float8,
                                          OUT priority_factor float8, OUT weighted_in_use float8,
                                          OUT weighted_hours float8,
                                          OUT weighted_accumulated_usage float8,
                                          OUT usage_start_time timestamptz,
                                          OUT last_usage_time timestamptz,
                                          OUT last_priority_update timestamptz,
                                          OUT time_since_last_usage interval)
    AS 'MODULE_PATHNAME', 'userprio_report' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.userprio_report(fairsched.userprio_state, float8) IS 'what condor_userprio -allusers / -l prints for a submitter from its userprio state: effective priority (real x factor), real priority, priority factor, weighted in-use, weighted hours and accumulated usage, usage start and last usage';

CREATE FUNCTION fairsched.pie_spin(submitters text[], effective_priorities float8[])
    RETURNS TABLE(submitter text, share float8)
    AS 'MODULE_PATHNAME', 'pie_spin' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pie_spin(text[], float8[]) IS 'HTCondor pie spin: each submitter''s share of a negotiation cycle, (1/EUP) / sum(1/EUP), in input order';
-- placement: PBS placement sets and node_group_sort_key (README "Placement sets", seed 003)

CREATE TYPE fairsched.vnodepool;
CREATE FUNCTION fairsched.vnodepool_in(cstring) RETURNS fairsched.vnodepool
    AS 'MODULE_PATHNAME', 'vnodepool_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.vnodepool_out(fairsched.vnodepool) RETURNS cstring
    AS 'MODULE_PATHNAME', 'vnodepool_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.vnodepool_recv(internal) RETURNS fairsched.vnodepool
    AS 'MODULE_PATHNAME', 'vnodepool_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.vnodepool_send(fairsched.vnodepool) RETURNS bytea
    AS 'MODULE_PATHNAME', 'vnodepool_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.vnodepool (
    INPUT = fairsched.vnodepool_in,
    OUTPUT = fairsched.vnodepool_out,
    RECEIVE = fairsched.vnodepool_recv,
    SEND = fairsched.vnodepool_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.vnodepool IS 'a pool of vnodes with available and assigned resources and string labels (PBS placement pool)';
COMMENT ON FUNCTION fairsched.vnodepool_in(cstring) IS 'text input of vnodepool: a JSON array of {vnode, available, assigned, labels}';
COMMENT ON FUNCTION fairsched.vnodepool_out(fairsched.vnodepool) IS 'text output of vnodepool: a JSON array in vnode order';
COMMENT ON FUNCTION fairsched.vnodepool_recv(internal) IS 'binary input of vnodepool (every byte checked)';
COMMENT ON FUNCTION fairsched.vnodepool_send(fairsched.vnodepool) IS 'binary output of vnodepool (starts with a format version byte)';

CREATE FUNCTION fairsched.vnode_pool_accum(fairsched.vnodepool, text, fairsched.resvec, fairsched.resvec, jsonb)
    RETURNS fairsched.vnodepool
    AS 'MODULE_PATHNAME', 'vnode_pool_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fairsched.vnode_pool_combine(fairsched.vnodepool, fairsched.vnodepool)
    RETURNS fairsched.vnodepool
    AS 'MODULE_PATHNAME', 'vnode_pool_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.vnode_pool_accum(fairsched.vnodepool, text, fairsched.resvec, fairsched.resvec, jsonb) IS 'transition function of vnode_pool';
COMMENT ON FUNCTION fairsched.vnode_pool_combine(fairsched.vnodepool, fairsched.vnodepool) IS 'combine function of vnode_pool';
CREATE AGGREGATE fairsched.vnode_pool(vnode text, available fairsched.resvec, assigned fairsched.resvec,
                                      labels jsonb) (
    SFUNC = fairsched.vnode_pool_accum,
    STYPE = fairsched.vnodepool,
    COMBINEFUNC = fairsched.vnode_pool_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.vnode_pool(text, fairsched.resvec, fairsched.resvec, jsonb) IS 'a placement pool of vnodes: labels map a key to a string or an array of strings, a comma separating values';

CREATE FUNCTION fairsched.vnode_pool_accum(fairsched.vnodepool, text, text, fairsched.resvec, jsonb)
    RETURNS fairsched.vnodepool
    AS 'MODULE_PATHNAME', 'vnode_pool_accum_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.vnode_pool_accum(fairsched.vnodepool, text, text, fairsched.resvec, jsonb) IS 'transition function of vnode_pool with available resources as text (indirect resources "res=@vnode" allowed)';
CREATE AGGREGATE fairsched.vnode_pool(vnode text, available text, assigned fairsched.resvec,
                                      labels jsonb) (
    SFUNC = fairsched.vnode_pool_accum,
    STYPE = fairsched.vnodepool,
    COMBINEFUNC = fairsched.vnode_pool_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.vnode_pool(text, text, fairsched.resvec, jsonb) IS 'a placement pool of vnodes whose available resources are text: amounts as in a resvec, and <resource>=@<vnode> for a resource another vnode holds (PBS indirect resources); labels may be "@vnode" too';

CREATE FUNCTION fairsched.placement_sets(pool fairsched.vnodepool, group_keys text[],
                                         sort_keys text[] DEFAULT NULL, prime_time boolean DEFAULT false,
                                         only_explicit boolean DEFAULT false)
    RETURNS TABLE(rank int4, name text, dims int4, labels jsonb, vnodes text[],
                  total fairsched.resvec, assigned fairsched.resvec, unused fairsched.resvec)
    AS 'MODULE_PATHNAME', 'placement_sets' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.placement_sets(fairsched.vnodepool, text[], text[], boolean, boolean) IS 'the placement sets of a pool (flat, and one per combination of values of all keys), ordered by node_group_sort_key lines (NULL: the PBS defaults)';

CREATE FUNCTION fairsched.place(pool fairsched.vnodepool, group_keys text[], request fairsched.resvec,
                                sort_keys text[] DEFAULT NULL, prime_time boolean DEFAULT false,
                                only_explicit boolean DEFAULT false)
    RETURNS TABLE(pset text, rank int4, fits_now boolean, fits_total boolean)
    AS 'MODULE_PATHNAME', 'place_job' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.place(fairsched.vnodepool, text[], fairsched.resvec, text[], boolean, boolean) IS 'the placement set a job would go to: the first whose unused resources hold the request, else the first whose totals do (the job waits), else none';

CREATE FUNCTION fairsched.place_select(pool fairsched.vnodepool, group_keys text[], "select" text,
                                       place text DEFAULT 'free', sort_keys text[] DEFAULT NULL,
                                       prime_time boolean DEFAULT false,
                                       only_explicit boolean DEFAULT false,
                                       default_chunk fairsched.resvec DEFAULT 'ncpus=1')
    RETURNS TABLE(pset text, rank int4, fits_now boolean, chunk int4, vnode text,
                  amounts fairsched.resvec)
    AS 'MODULE_PATHNAME', 'place_select' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.place_select(fairsched.vnodepool, text[], text, text, text[], boolean, boolean, fairsched.resvec) IS 'a PBS select spec (2:ncpus=8:mem=16gb+1:ngpus=1) placed chunk by chunk under a place spec (free, pack, scatter, vscatter; excl, exclhost, shared; group=resource) on the vnodes of the first placement set where every chunk fits: one row per chunk and vnode';
-- sacct: Slurm accounting rows (sacct --parsable2), durations and sacctmgr associations (README "Loading accounting records")

CREATE TYPE fairsched.sacct_record AS (
    job_id        text,
    job_id_raw    text,
    job_seq       bigint,
    array_job_id  bigint,
    array_task_id int4,
    het_job_id    bigint,
    het_offset    int4,
    step          text,
    cluster       text,
    partition     text,
    account       text,
    "user"        text,
    "group"       text,
    qos           text,
    state         text,
    cancelled_by  int4,
    exit_code     int4,
    signal        int4,
    submit        timestamptz,
    eligible      timestamptz,
    start         timestamptz,
    "end"         timestamptz,
    elapsed_s     float8,
    timelimit_s   float8,
    ncpus         int4,
    nnodes        int4,
    req_mem_bytes float8,
    alloc_tres    fairsched.resvec,
    req_tres      fairsched.resvec,
    extra         jsonb,
    anomalies     text[],
    error         text
);
COMMENT ON TYPE fairsched.sacct_record IS 'one sacct --parsable2 row: job id parts, names, normalised state, exit code and signal, times, durations in seconds, counts, whole-job requested memory in bytes, TRES as resvec, the other columns in extra, odd but readable values in anomalies, and the reason a row could not be read in error (sacct_row_try)';

CREATE FUNCTION fairsched.sacct_row(line text, header text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacct_row(text, text, text) IS 'parse one sacct --parsable2 row against its header line; dates without a zone are read in tz; malformed rows raise 22P02 naming the character';

CREATE FUNCTION fairsched.sacct_row_try(line text, header text, tz text DEFAULT 'UTC')
    RETURNS fairsched.sacct_record
    AS 'MODULE_PATHNAME', 'sacct_row_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacct_row_try(text, text, text) IS 'sacct_row for bulk loads: a malformed row gives NULL fields and the reason in error instead of raising';

CREATE FUNCTION fairsched.slurm_duration(text) RETURNS float8
    AS 'MODULE_PATHNAME', 'slurm_duration' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.slurm_duration(text) IS 'seconds of a Slurm duration ([D-]HH:MM:SS, MM:SS.mmm, D-HH[:MM]); NULL for UNLIMITED, Partition_Limit, Unknown, INVALID and the empty string';

CREATE FUNCTION fairsched.sacctmgr_assoc(doc text)
    RETURNS TABLE(line int4, cluster text, account text, "user" text, partition text,
                  path fairsched.sharepath, shares float8, shares_from_parent boolean)
    AS 'MODULE_PATHNAME', 'sacctmgr_assoc' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.sacctmgr_assoc(text) IS 'associations of a sacctmgr dump file or of sacctmgr show assoc -P output, with their share-tree path from the root; FairShare=parent (2147483647 in dumps) gives shares NULL and shares_from_parent true';
-- pbsacct: PBS Pro / OpenPBS / TORQUE accounting log lines and the PBS usage formula (README "Loading accounting records")

CREATE TYPE fairsched.pbs_record AS (
    log_time        timestamp,
    record_type     text,
    job_id          text,
    job_seq         bigint,
    array_index     int4,
    is_array_parent boolean,
    server          text,
    "user"          text,
    "group"         text,
    account         text,
    project         text,
    queue           text,
    jobname         text,
    ctime           timestamptz,
    qtime           timestamptz,
    etime           timestamptz,
    start           timestamptz,
    "end"           timestamptz,
    exit_status     int4,
    run_count       int4,
    session         bigint,
    used            fairsched.resvec,
    requested       fairsched.resvec,
    requested_text  jsonb,
    exec_hosts      text[],
    exec_host_cpus  int4[],
    attrs           jsonb,
    anomalies       text[],
    error           text
);
COMMENT ON TYPE fairsched.pbs_record IS 'one PBS / OpenPBS / TORQUE accounting log line, typed: log_time as written (local, no zone), the job id split, epochs as exact timestamptz (0 reads as NULL), resources_used and Resource_List amounts as resvecs, exec_host hosts with their CPU counts, every pair in attrs, anomalies, and the reason in error when pbs_acct_try could not read the line';

CREATE FUNCTION fairsched.pbs_acct(line text) RETURNS fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_acct' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_acct(text) IS 'read one PBS accounting line (date;type;id;key=value ...); a malformed line raises 22P02 naming the character';

CREATE FUNCTION fairsched.pbs_acct_try(line text) RETURNS fairsched.pbs_record
    AS 'MODULE_PATHNAME', 'pbs_acct_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_acct_try(text) IS 'pbs_acct for bulk loads: a malformed line gives a record whose fields are NULL and whose error says why';

CREATE FUNCTION fairsched.pbs_acct_attrs(line text)
    RETURNS TABLE(ord int4, key text, value text)
    AS 'MODULE_PATHNAME', 'pbs_acct_attrs' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_acct_attrs(text) IS 'the key=value pairs of a PBS accounting line in order, values unquoted and as written';

CREATE FUNCTION fairsched.pbs_usage(formula text, used fairsched.resvec) RETURNS float8
    AS 'MODULE_PATHNAME', 'pbs_usage' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_usage(text, fairsched.resvec) IS 'PBS fairshare_usage_res: the formula (numbers, resource names, + - * / **, parentheses, ceil floor trunc fabs abs sqrt exp log log10 log2 pow fmod min max round, pi, e) over the amounts in PBS units: sizes in kb rounded up, durations in seconds, counts as they are, a missing resource 0';
-- resgroup: the PBS scheduler's resource_group file as share-tree rows (README "Loading accounting records")

CREATE FUNCTION fairsched.resource_group(doc text, unknown_shares float8 DEFAULT 0)
    RETURNS TABLE(line int4, name text, id int4, parent text, shares float8,
                  path fairsched.sharepath, extra text)
    AS 'MODULE_PATHNAME', 'resource_group' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resource_group(text, float8) IS 'the groups of a PBS resource_group file (name id parent shares per line), read as the PBS scheduler reads it, with each group''s sharepath from the root''s child down; a first row (line 0) is the group "unknown" that PBS predefines with unknown_shares; extra holds the fields after the fourth, which PBS ignores; any bad line raises an error naming it';

CREATE FUNCTION fairsched.resource_group_try(doc text, unknown_shares float8 DEFAULT 0)
    RETURNS TABLE(line int4, name text, id int4, parent text, shares float8,
                  path fairsched.sharepath, extra text, error text)
    AS 'MODULE_PATHNAME', 'resource_group_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resource_group_try(text, float8) IS 'resource_group without raising: a bad line gives a row with only its line number and the reason in error, and defines no group, as the PBS scheduler skips it';
-- condorhist: HTCondor job ads from condor_history -l and history files (README "Loading accounting records")

CREATE FUNCTION fairsched.condor_history(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4)
    AS 'MODULE_PATHNAME', 'condor_history' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history(text) IS 'one row per HTCondor job ad of condor_history -l output or a history file (ads end at a blank line or a "***" banner; "#" lines are comments): typed columns matched case-insensitively (request_memory in bytes from MiB; completion_date NULL when CompletionDate is 0, i.e. not completed; a column is NULL when its attribute is missing, undefined or an unevaluated expression), attrs with every attribute typed (numbers, strings, booleans, undefined as null, anything else as {"expr": text}), line the ad''s first line; a bad ad raises an error naming its line';

CREATE FUNCTION fairsched.condor_history_try(doc text)
    RETURNS TABLE(ad int4, global_job_id text, owner text, accounting_group fairsched.sharepath,
                  job_status int4, request_cpus float8, request_memory float8, request_gpus float8,
                  remote_wall_clock_s float8, cumulative_slot_s float8,
                  completion_date timestamptz, attrs jsonb, line int4, error text)
    AS 'MODULE_PATHNAME', 'condor_history_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.condor_history_try(text) IS 'condor_history without raising on a bad ad: its row has only ad, line and the reason in error, and reading goes on with the next ad';
-- msic: the composite types of the MSIC-Cluster PBS scheduler's policy (seed 004, README "Queue fair access"),
-- shared by msic_config (configuration, holidays, prime time), msic_share (queue share
-- accounting) and msic_order (job flags and order).

-- one FAIR_SHARE line: FAIR_SHARE QUEUE:name:shares:max_run_pct
CREATE TYPE fairsched.msic_share_spec AS (queue text, shares int, max_run_pct int);
COMMENT ON TYPE fairsched.msic_share_spec IS
    'One FAIR_SHARE line of the MSIC scheduler configuration: queue, shares, per-user running-job percentage';

-- the validated configuration file (msic_config)
CREATE TYPE fairsched.msic_config AS (
    submit_queue text,
    submit_host text,
    batch_queues text[],
    batch_hosts text[],
    express_queue text,
    enforce_prime_time boolean,
    prime_time_from timestamptz,
    prime_time_start interval,
    prime_time_end interval,
    prime_time_wallt_limit interval,
    target_load_pct float8,
    target_load_minus float8,
    target_load_plus float8,
    suspend_threshold float8,
    force_requeue boolean,
    max_wait_time interval,
    update_comments boolean,
    sched_restart_action text,
    fair_share fairsched.msic_share_spec[],
    holidays int[],
    max_user_run_jobs int,
    sched_host text,
    share_info_file text,
    sorted_job_dumpfile text
);
COMMENT ON TYPE fairsched.msic_config IS
    'The validated configuration of the MSIC-Cluster PBS scheduler (seed 004): queues, prime time, load targets, FAIR_SHARE entries, holidays';

-- one queue's share state, as the SHARE_INFO_FILE holds it
CREATE TYPE fairsched.msic_share AS (queue text, ndays int, past_pct float8, today_usage float8, today_max float8);
COMMENT ON TYPE fairsched.msic_share IS
    'One FAIR_SHARE queue''s accounting state: days counted, past usage percentage, today''s usage and today''s maximum';

-- a job as the scheduler sees it
CREATE TYPE fairsched.msic_job AS (
    job_id text,
    owner text,
    queue text,
    state text,
    ncpus int,
    mem float8,
    walltime interval,
    walltime_used interval,
    ctime timestamptz,
    etime timestamptz,
    exec_host text,
    arch text,
    chkptd boolean,
    suspend_fails boolean,
    checkpoint_fails boolean
);
COMMENT ON TYPE fairsched.msic_job IS
    'A pending or running job for the MSIC scheduler: originating queue, state Q/R/S, request, times, placement';

-- an execution host as its MOM reports it (msic_cycle)
CREATE TYPE fairsched.msic_host AS (name text, ncpus int, mem float8, arch text, loadave float8, up boolean);
COMMENT ON TYPE fairsched.msic_host IS
    'An execution host for the MSIC scheduler: CPUs, memory (bytes, NULL = not reported), arch, load average, up';

-- a queue as the server reports it (msic_cycle); NULL limits are unset
CREATE TYPE fairsched.msic_queue AS (
    name text,
    host text,
    enabled boolean,
    started boolean,
    max_running int,
    max_ncpus int,
    max_mem float8,
    min_walltime interval,
    max_walltime interval,
    min_ncpus int,
    min_mem float8,
    default_mem float8,
    max_user_run int
);
COMMENT ON TYPE fairsched.msic_queue IS
    'A PBS queue for the MSIC scheduler: its host, state and resources_max/min/default limits (NULL = unset)';
-- msic_order: the MSIC-Cluster PBS scheduler's per-job flags and job order (seed 004, README "Queue fair access").

CREATE FUNCTION fairsched.msic_job_order(config fairsched.msic_config, shares fairsched.msic_share[],
                                         jobs fairsched.msic_job[], at timestamptz,
                                         cluster_cpus int, rank text DEFAULT 'share')
RETURNS TABLE(pos int, job_id text, priority boolean, waiting boolean, runlimit boolean,
              chkpt_ok boolean, suspended boolean, chkptd boolean, queue_rank float8,
              over_share boolean, user_limit int, user_running int, decided_by text)
AS 'MODULE_PATHNAME', 'msic_job_order'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_job_order(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_job[], timestamptz, int, text) IS
    'The MSIC scheduler''s job flags and order: pending (Q, S) jobs in scheduling order with the comparison step that placed each, then running jobs by time left; rank ''share'' (the guide) or ''usage'' (the original code)';

-- a job without a mem request (reference section 7.1): only a queue with a FAIR_SHARE entry
-- looks at its resources_default.mem, then resources_max.mem; everything else gets 100 MB
CREATE FUNCTION fairsched.msic_default_mem(config fairsched.msic_config, queue text,
                                           default_mem float8 DEFAULT NULL,
                                           max_mem float8 DEFAULT NULL) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM unnest(($1).fair_share) AS f WHERE f.queue = $2)
                THEN coalesce($3, $4, 104857600) ELSE 104857600 END $$;
COMMENT ON FUNCTION fairsched.msic_default_mem(fairsched.msic_config, text, float8, float8) IS
    'the memory (bytes) the MSIC scheduler gives a job without a mem request: for a queue with a FAIR_SHARE entry its resources_default.mem, then resources_max.mem; otherwise 100 MB';
-- msic_config: the MSIC-Cluster scheduler's configuration file, holidays file and prime time
-- (seed 004, README "Queue fair access"). Local times are the session time zone's.

CREATE FUNCTION fairsched.msic_config(conf text, holidays text DEFAULT NULL,
                                      local_host text DEFAULT NULL)
    RETURNS fairsched.msic_config
    AS 'MODULE_PATHNAME', 'msic_config' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_config(text, text, text) IS 'the MSIC scheduler''s configuration file (and SGI holidays file) read and validated as the original does; a bare queue name gets local_host, lower-cased (NULL host when local_host is NULL); the date form of ENFORCE_PRIME_TIME is read in the session time zone';

CREATE FUNCTION fairsched.is_prime_time(at timestamptz, start interval, "end" interval,
                                        holidays int[] DEFAULT '{}')
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'is_prime_time' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.is_prime_time(timestamptz, interval, interval, int[]) IS 'whether an instant is in MSIC prime time in the session time zone: weekdays that are not holidays (days of the year), from start to end (start > end wraps past midnight, start = end is all day)';

CREATE FUNCTION fairsched.prime_seconds("from" timestamptz, walltime interval, start interval,
                                        "end" interval, holidays int[] DEFAULT '{}')
    RETURNS float8
    AS 'MODULE_PATHNAME', 'prime_seconds' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.prime_seconds(timestamptz, interval, interval, interval, int[]) IS 'seconds of a run from "from" lasting walltime (elapsed time, at most 100 years) that fall in prime time, exact across midnights, weekends, holidays and clock changes of the session time zone';

CREATE FUNCTION fairsched.msic_primetime_limit(config fairsched.msic_config, at timestamptz,
                                               walltime interval)
    RETURNS text
    AS 'MODULE_PATHNAME', 'msic_primetime_limit' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_primetime_limit(fairsched.msic_config, timestamptz, interval) IS 'PRIME_TIME_WALLT_LIMIT: the original''s comment "Exceeds primetime walltime limit (HH:MM:SS)" when the prime-time part of a run started at "at" exceeds the limit, else NULL (also NULL when prime time is not enforced, or not yet: the date form of ENFORCE_PRIME_TIME)';
-- msic_share: the MSIC-Cluster scheduler's queue share accounting (seed 004, README "Queue fair access"):
-- the SHARE_INFO_FILE text, charging a started job, the nightly rollover, the queue rank, and
-- the msic_queue_state aggregate that computes a queue's state from its history of job starts.
CREATE FUNCTION fairsched.msic_shares(share_info text, at timestamptz DEFAULT NULL)
    RETURNS SETOF fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_shares' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_shares(text, timestamptz) IS 'the queues of an MSIC SHARE_INFO_FILE; with at, a file stamped with another weekday (in the session time zone) is rolled over once, as the scheduler does on load';
CREATE FUNCTION fairsched.msic_share_info(shares fairsched.msic_share[], at timestamptz)
    RETURNS text
    AS 'MODULE_PATHNAME', 'msic_share_info' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_share_info(fairsched.msic_share[], timestamptz) IS 'the SHARE_INFO_FILE text the MSIC scheduler writes, stamped with the weekday of at in the session time zone';
CREATE FUNCTION fairsched.msic_charge(s fairsched.msic_share, ncpus int, walltime interval,
                                      at timestamptz, cluster_cpus int)
    RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_charge' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_charge(fairsched.msic_share, int, interval, timestamptz, int) IS 'charge a started job: today_usage += ncpus * whole minutes of requested walltime; today_max = cluster_cpus * minutes since local midnight of at';
CREATE FUNCTION fairsched.msic_rollover(s fairsched.msic_share) RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_rollover' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_rollover(fairsched.msic_share) IS 'the nightly rollover: today''s percentage joins the running average (restarted when the past percentage is below 1); today''s usage and maximum go back to 0';
CREATE FUNCTION fairsched.msic_past_pct(s fairsched.msic_share) RETURNS float8
    AS 'MODULE_PATHNAME', 'msic_past_pct' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_past_pct(fairsched.msic_share) IS 'the past usage percentage with today included: (past_pct * ndays + today%) / (ndays + 1)';
CREATE FUNCTION fairsched.msic_rank(s fairsched.msic_share, shares int, rank text DEFAULT 'share')
    RETURNS float8
    AS 'MODULE_PATHNAME', 'msic_rank' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_rank(fairsched.msic_share, int, text) IS 'queue rank: share (the guide) = past percentage / share percentage; usage (the original code) = past percentage truncated to an integer';
CREATE FUNCTION fairsched.msic_over_share(s fairsched.msic_share, shares int, rank text DEFAULT 'share')
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'msic_over_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_over_share(fairsched.msic_share, int, text) IS 'whether the queue is over its share: rank above 1 (share) or above 100 (usage)';

CREATE TYPE fairsched.msic_queue_acc;
CREATE FUNCTION fairsched.msic_queue_acc_in(cstring) RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_out(fairsched.msic_queue_acc) RETURNS cstring
    AS 'MODULE_PATHNAME', 'msic_queue_acc_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_recv(internal) RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.msic_queue_acc_send(fairsched.msic_queue_acc) RETURNS bytea
    AS 'MODULE_PATHNAME', 'msic_queue_acc_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE fairsched.msic_queue_acc (
    INPUT = fairsched.msic_queue_acc_in,
    OUTPUT = fairsched.msic_queue_acc_out,
    RECEIVE = fairsched.msic_queue_acc_recv,
    SEND = fairsched.msic_queue_acc_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = double,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.msic_queue_acc IS 'state of msic_queue_state: a queue''s job starts summed per local day; text queue as_of_utc as_of_day[;day usage last_start_utc last_max]...';
COMMENT ON FUNCTION fairsched.msic_queue_acc_in(cstring) IS 'text input of msic_queue_acc';
COMMENT ON FUNCTION fairsched.msic_queue_acc_out(fairsched.msic_queue_acc) IS 'text output of msic_queue_acc (UTC, independent of settings)';
COMMENT ON FUNCTION fairsched.msic_queue_acc_recv(internal) IS 'binary input of msic_queue_acc';
COMMENT ON FUNCTION fairsched.msic_queue_acc_send(fairsched.msic_queue_acc) IS 'binary output of msic_queue_acc (a format version byte, then the text form)';
CREATE FUNCTION fairsched.msic_queue_state_accum(fairsched.msic_queue_acc, text, int, interval,
                                                 timestamptz, int, timestamptz)
    RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_state_accum' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_state_accum(fairsched.msic_queue_acc, text, int, interval, timestamptz, int, timestamptz) IS 'transition function of msic_queue_state (local days in the session time zone)';
CREATE FUNCTION fairsched.msic_queue_acc_combine(fairsched.msic_queue_acc, fairsched.msic_queue_acc)
    RETURNS fairsched.msic_queue_acc
    AS 'MODULE_PATHNAME', 'msic_queue_acc_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_acc_combine(fairsched.msic_queue_acc, fairsched.msic_queue_acc) IS 'combine function of msic_queue_state: the per-day sums merged';
CREATE FUNCTION fairsched.msic_queue_acc_share(acc fairsched.msic_queue_acc) RETURNS fairsched.msic_share
    AS 'MODULE_PATHNAME', 'msic_queue_acc_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_acc_share(fairsched.msic_queue_acc) IS 'final function of msic_queue_state: the days replayed from a fresh queue, one 23:00 rollover per day before as_of';
CREATE AGGREGATE fairsched.msic_queue_state(queue text, ncpus int, walltime interval,
                                           started_at timestamptz, cluster_cpus int,
                                           as_of timestamptz) (
    SFUNC = fairsched.msic_queue_state_accum,
    STYPE = fairsched.msic_queue_acc,
    COMBINEFUNC = fairsched.msic_queue_acc_combine,
    FINALFUNC = fairsched.msic_queue_acc_share,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.msic_queue_state(text, int, interval, timestamptz, int, timestamptz) IS 'a queue''s msic_share as of as_of from its job starts: charged one by one, rolled over at 23:00 local time (session time zone) once a day; use with GROUP BY queue';
CREATE AGGREGATE fairsched.msic_queue_acc(queue text, ncpus int, walltime interval,
                                         started_at timestamptz, cluster_cpus int,
                                         as_of timestamptz) (
    SFUNC = fairsched.msic_queue_state_accum,
    STYPE = fairsched.msic_queue_acc,
    COMBINEFUNC = fairsched.msic_queue_acc_combine,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.msic_queue_acc(text, int, interval, timestamptz, int, timestamptz) IS 'the state of msic_queue_state itself, to ship between nodes: merge with msic_queue_acc_combine, read with msic_queue_acc_share';

CREATE FUNCTION fairsched.msic_queue_history(acc fairsched.msic_queue_acc)
    RETURNS TABLE(day date, queue text, ndays int, past_pct float8, today_usage float8, today_max float8)
    AS 'MODULE_PATHNAME', 'msic_queue_history' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_queue_history(fairsched.msic_queue_acc) IS 'a queue''s share state on every local day from its first job start to the day of as_of, as at that day''s 23:00 rollover (its charges in, the rollover not yet applied); the last row equals msic_queue_state';
-- msic_cycle: one scheduling cycle of the MSIC-Cluster PBS scheduler (seed 004, README "Queue fair access"),
-- and the replay of submissions through successive cycles.

CREATE FUNCTION fairsched.msic_cycle(config fairsched.msic_config, shares fairsched.msic_share[],
                                     hosts fairsched.msic_host[], queues fairsched.msic_queue[],
                                     jobs fairsched.msic_job[], at timestamptz, cluster_cpus int,
                                     compat text[] DEFAULT '{}')
RETURNS TABLE(step int, action text, job_id text, queue text, host text, reason text)
AS 'MODULE_PATHNAME', 'msic_cycle'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_cycle(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, int, text[]) IS
    'One MSIC scheduling cycle: run, resume, suspend, checkpoint, requeue, comment and fail decisions in order; compat may hold rank_usage, suspend_below_threshold, load_unscaled';

CREATE FUNCTION fairsched.msic_cycle_shares(config fairsched.msic_config, shares fairsched.msic_share[],
                                            hosts fairsched.msic_host[], queues fairsched.msic_queue[],
                                            jobs fairsched.msic_job[], at timestamptz, cluster_cpus int,
                                            compat text[] DEFAULT '{}')
RETURNS SETOF fairsched.msic_share
AS 'MODULE_PATHNAME', 'msic_cycle_shares'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_cycle_shares(fairsched.msic_config, fairsched.msic_share[], fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, int, text[]) IS
    'The share state of every FAIR_SHARE queue after the charges of the msic_cycle with the same arguments';

CREATE FUNCTION fairsched.msic_replay(config fairsched.msic_config, hosts fairsched.msic_host[],
                                      queues fairsched.msic_queue[], jobs fairsched.msic_job[],
                                      start timestamptz, stop timestamptz,
                                      cycle interval DEFAULT '5 minutes', cluster_cpus int DEFAULT NULL,
                                      shares fairsched.msic_share[] DEFAULT NULL,
                                      compat text[] DEFAULT '{}')
RETURNS TABLE(at timestamptz, step int, action text, job_id text, queue text, host text,
              reason text, share fairsched.msic_share)
AS 'MODULE_PATHNAME', 'msic_replay'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.msic_replay(fairsched.msic_config, fairsched.msic_host[], fairsched.msic_queue[], fairsched.msic_job[], timestamptz, timestamptz, interval, int, fairsched.msic_share[], text[]) IS
    'Submissions (jobs queued at their ctime, running for walltime_used or walltime) replayed through MSIC cycles every `cycle` from start to stop: every decision with its time, each job''s end, and each queue''s share state at every 23:00 rollover and at the stop';
-- groupquota: HTCondor's hierarchical group quotas as the negotiator allocates them (README "HTCondor hierarchical group quotas")

CREATE FUNCTION fairsched.group_quotas(groups text[], quotas float8[], dynamic boolean[],
                                       accept_surplus boolean[], demand float8[], pool float8,
                                       autoregroup boolean[] DEFAULT NULL,
                                       none_demand float8 DEFAULT 0,
                                       use_slot_weights boolean DEFAULT true)
    RETURNS TABLE(grp text, quota float8, surplus float8, allocated float8, subtree_quota float8,
                  requested float8)
    AS 'MODULE_PATHNAME', 'group_quotas' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.group_quotas(text[], float8[], boolean[], boolean[], float8[], float8, boolean[], float8, boolean) IS 'HTCondor hierarchical group quotas: each group''s quota, surplus received and allocation for a negotiation cycle, from GROUP_NAMES (dotted names), GROUP_QUOTA[_DYNAMIC], GROUP_ACCEPT_SURPLUS, GROUP_AUTOREGROUP, the demand and the pool size; the root <none> first, then the tree in pre-order';
