-- sharetree: a share tree (or pool tree) with usage rolled up (docs/fairshare.md ("Share trees"))

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
