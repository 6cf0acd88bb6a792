-- resvec: resource vectors such as ncpus=4,mem=8gb,walltime=01:00:00 (docs/resvec-sharepath.md ("Resource vectors"))

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
