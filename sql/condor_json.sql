-- condor_json: condor_history -json and -jsonl output read by condor_history (docs/loading.md)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fairsched;
RESET client_min_messages;
SET search_path = fairsched, public;
SET TimeZone = 'UTC';

-- the -l sample file and its ads as -json and -jsonl print them (laid out as HTCondor's JSON
-- writer does: an attribute a line, expressions as "\/Expr(...)\/" strings)
\set lfile `cat sql/data/condor_history_samples.txt`
\set jfile `cat sql/data/condor_history_json.txt`
CREATE TEMP TABLE blocks AS
SELECT max(substr(l, 10)) FILTER (WHERE l LIKE '# block: %') AS block,
       string_agg(l, E'\n' ORDER BY n) FILTER (WHERE l NOT LIKE '# block: %') AS doc
FROM (SELECT n, l, sum((l LIKE '# block: %')::int) OVER (ORDER BY n) AS b
      FROM string_to_table(:'lfile' || E'\n' || :'jfile', E'\n') WITH ORDINALITY AS t(l, n)) x
GROUP BY b;
-- the -l ads: the constructed completed ad, then HTCondor's two long ads
CREATE TEMP TABLE by_l AS
SELECT row_number() OVER (ORDER BY block, h.ad) AS k, h.*
FROM blocks, condor_history(doc) h
WHERE block IN ('constructed_completed_ad', 'htcondor_two_long_ads');
CREATE TEMP TABLE by_json AS
SELECT block, h.* FROM blocks, condor_history(doc) h WHERE block IN ('json', 'jsonl');
SELECT block, ad, line, global_job_id, owner, accounting_group, job_status, request_cpus,
       request_memory, request_gpus, remote_wall_clock_s, cumulative_slot_s, completion_date
FROM by_json ORDER BY block, ad;
SELECT block, ad, attrs -> 'MemoryUsage' AS memory_usage, attrs -> 'Args' AS args,
       attrs -> 'ExitBySignal' AS exit_by_signal, anomalies
FROM by_json WHERE ad = 1 ORDER BY block;
-- the same rows as -l gives, every column but the ad's number and first line in its document
SELECT j.block, count(*) AS ads,
       count(*) FILTER (WHERE (to_jsonb(j) - 'block' - 'ad' - 'line') = (to_jsonb(l) - 'k' - 'ad' - 'line')) AS same
FROM by_json j JOIN by_l l ON l.k = j.ad GROUP BY j.block ORDER BY 1;

-- lists and nested ads are expressions, as -l prints them; null is undefined
SELECT ad, attrs FROM condor_history('[{"Owner": "a", "L": [1, "x"], "N": {"y": null}, "H": null}]');
-- one ad per line; condor_history_try reports a bad line and goes on
SELECT ad, line, owner, error FROM condor_history_try(E'{"Owner": "a"}\n{"Owner": 5}\n{"Owner": "b"\n{"Owner": "c"}\n');

-- condor_history -af prints values without names: refused, with what to run instead
SELECT * FROM condor_history(E'alice 4 2048\nbob 1 100\n');
SELECT ad, line, error FROM condor_history_try(E'alice 4 2048\n\nOwner = "b"\n');
-- errors of a -json document as a whole raise in both forms
SELECT * FROM condor_history('[{"Owner": "a"} {"Owner": "b"}]');
SELECT * FROM condor_history_try('[{"Owner": "a"}');
SELECT * FROM condor_history_try('[{"Owner": "a"}] trailing');
SELECT * FROM condor_history_try('[{"Owner": "a", }]');
-- an ad's own errors
SELECT ad, error FROM condor_history_try('[{}, 5, {"a b": 1}, {"#x": 1}, {"Owner": "\/Expr(a\nb)\/"}, {"Owner": "ok"}]');
SELECT * FROM condor_history('[{"RequestCpus": "four"}]');
-- the nesting limit
SELECT * FROM condor_history_try(repeat('[', 300));
