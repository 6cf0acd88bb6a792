-- slots: HTCondor slot weights and SLURM TRES billing (docs/resvec-sharepath.md ("Resource vectors") and "Slot weights";
-- the HTCondor-users SlotWeight thread)

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
