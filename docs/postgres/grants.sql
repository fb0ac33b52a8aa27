-- Each arena role's part of the store's tables, least privilege. Run as
-- arena_owner once the tables exist (see roles.sql), and again after an
-- upgrade whose migration added a table:
--
--   psql -h db-host -U arena_owner -d arena -f docs/postgres/grants.sql
--
-- Nobody but the owner deletes a run, an evaluation run or a verdict, or
-- changes a run's file (what a worker imports); no role but the owner runs DDL,
-- and a non-owner never writes arena_schema.
--
-- The grants say which tables and columns a role may write; the store's rules
-- (schema 9, docs/fleet-security.md) say which rows: every role but the owner
-- writes a run's records only under the lease it holds, never changes a
-- finished run or evaluation run, and never writes a digest.

-- viewer: reads summaries and records, writes nothing; of the judged cases it reads the keys and
-- digests, never the texts (schema 9)
GRANT SELECT ON arena_schema, runs, phases, episodes, checkpoints, meta_decisions, snapshots,
  resumes, evaluation_runs, verdicts, verdict_cache, remote_components,
  sweeps, sweep_trials TO arena_viewer;
REVOKE SELECT ON evaluation_cases FROM arena_viewer;
GRANT SELECT (evaluation_run_id, case_key, context_sha256) ON evaluation_cases TO arena_viewer;

-- submitter: queues runs and evaluation runs, follows them (--wait), cancels its
-- evaluation run (Ctrl-C), fails what the queue refused; reads what requeue puts back;
-- runs a sweep on the fleet (arena sweep --nats): records it and its trials, moves their
-- holds, ends the pruned trials' runs
GRANT SELECT ON arena_schema, runs, phases, episodes, checkpoints, meta_decisions, snapshots,
  resumes, evaluation_runs, verdicts, evaluation_cases, remote_components, sweeps,
  sweep_trials TO arena_submitter;
GRANT INSERT ON sweeps, sweep_trials TO arena_submitter;
GRANT UPDATE (status, state, error, updated_at) ON sweeps TO arena_submitter;
GRANT UPDATE (hold_at) ON sweep_trials TO arena_submitter;
GRANT INSERT ON runs TO arena_submitter;
GRANT UPDATE (status, error, summary, ended_at) ON runs TO arena_submitter;
GRANT INSERT ON evaluation_runs, evaluation_cases TO arena_submitter;
GRANT UPDATE (cases_total, malformed_lines, status, ended_at, error)
  ON evaluation_runs TO arena_submitter;

-- worker: runs a queued run under its lease (records, resume points, a resume's
-- truncation of what came after it, which instance served each remote component;
-- a sweep's trial holds where sweep_trials says) and records verdicts and the verdict cache
GRANT SELECT ON arena_schema, runs, phases, episodes, checkpoints, meta_decisions, snapshots,
  resumes, evaluation_runs, verdicts, verdict_cache, evaluation_cases, remote_components,
  sweep_trials TO arena_worker;
GRANT INSERT ON remote_components TO arena_worker;
GRANT UPDATE (status, error, summary, ended_at, lease_owner, lease_token, lease_heartbeat_ms,
  lease_expires_ms, deliveries, deliveries_settled, delivery_owner) ON runs TO arena_worker;
GRANT INSERT, DELETE ON phases, episodes, checkpoints, meta_decisions, snapshots TO arena_worker;
GRANT UPDATE (status, termination_reason, episodes, error, ended_at) ON phases TO arena_worker;
GRANT UPDATE (created_at, state) ON snapshots TO arena_worker;
GRANT INSERT ON resumes TO arena_worker;
GRANT UPDATE (verdicts_recorded, status, ended_at, error) ON evaluation_runs TO arena_worker;
GRANT INSERT ON verdicts, verdict_cache TO arena_worker;
GRANT USAGE ON SEQUENCE verdicts_seq_seq TO arena_worker;

-- calibrations (arena judge calibrate, schema 8): every role that judges or views reads them
-- (the gates of arena judge); a submitter records them
GRANT SELECT ON judge_calibrations TO arena_viewer, arena_submitter, arena_worker;
GRANT INSERT ON judge_calibrations TO arena_submitter;
GRANT USAGE ON SEQUENCE judge_calibrations_calibration_id_seq TO arena_submitter;

-- sequential gates (arena judge with gates.sequential, schema 10): the submitting process saves
-- the draw order and the fold state; workers read whether a run is sequential, viewers read it
GRANT SELECT ON sequential_gates TO arena_viewer, arena_submitter, arena_worker;
GRANT INSERT, UPDATE ON sequential_gates TO arena_submitter;
