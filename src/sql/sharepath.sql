-- sharepath: a node's path in a share tree, physics."alice.smith@example.org" (docs/resvec-sharepath.md ("Share-tree paths"))

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
