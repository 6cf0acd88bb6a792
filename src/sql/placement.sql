-- placement: PBS placement sets and node_group_sort_key (docs/placement.md; the PBS design page PP-1018)

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
