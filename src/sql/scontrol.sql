-- scontrol: `scontrol show job|partition|node|config` output as records (docs/job-priority.md)
CREATE FUNCTION fairsched.scontrol_show(doc text)
    RETURNS TABLE(record int, attrs jsonb)
    AS 'MODULE_PATHNAME', 'scontrol_show' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.scontrol_show(text) IS 'the records of scontrol show job|partition|node|config output (multi-line or -o), each a jsonb object of its Key=Value pairs as text: values keep their spaces (to the next Key= word; in the multi-line form JobName, Command, WorkDir, StdIn, StdOut, StdErr, Comment, AdminComment, SystemComment and OS to the end of their line); show config lines (Key = Value) give one record per block';
