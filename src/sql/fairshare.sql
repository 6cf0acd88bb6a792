-- fairshare: hierarchical fairshare over a share tree (docs/fairshare.md)

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
