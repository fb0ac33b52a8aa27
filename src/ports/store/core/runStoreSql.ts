/**
 * The run store's statements that both databases run as they are written:
 * standard SQL, `$1`-numbered parameters, `RETURNING` (SQLite since 3.35).
 * What differs between them is each dialect's (`DialectRunSql`).
 */

/**
 * The columns of each record an insert writes, in the order the core passes
 * them as `$1`, `$2`, … (the memory store binds its rows by the same lists).
 */
export const recordColumns = {
  runs: 'run_id, uid, seed, run_file, run_file_path, run_file_sha256, modules, status, started_at',
  phases: 'run_id, phase_index, name, mode, started_at',
  episodes:
    'run_id, phase_index, episode, mode, evaluation, episode_return, steps, returns_by_agent, done_reason',
  checkpoints:
    'run_id, phase_index, checkpoint_index, after_episode, outcomes, status, decision, error',
  metaDecisions:
    'run_id, phase_index, start_request, first_episode, environment_uid, agent_name, record',
  snapshots: 'run_id, phase_index, episode, created_at, state',
} as const;

// Rows after (phaseIndex, episode) of one run: $1 run, $2 phase, $3 episode.
const later = 'run_id = $1 AND (phase_index > $2 OR (phase_index = $2 AND';

export const sharedRunSql = {
  getRun: 'SELECT * FROM runs WHERE run_id = $1',
  insertRun: `INSERT INTO runs (${recordColumns.runs})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (run_id) DO NOTHING RETURNING *`,
  finishRun: `UPDATE runs SET status = $2, error = $3, summary = $4, ended_at = $5
     WHERE run_id = $1 RETURNING *`,
  takeLease: `UPDATE runs SET lease_owner = $2, lease_token = $3, lease_heartbeat_ms = $4,
       lease_expires_ms = $5 WHERE run_id = $1`,
  renewLease: `UPDATE runs SET lease_heartbeat_ms = $3, lease_expires_ms = $4
     WHERE run_id = $1 AND lease_token = $2 AND lease_owner IS NOT NULL`,
  releaseLease: `UPDATE runs SET lease_owner = NULL, lease_heartbeat_ms = NULL, lease_expires_ms = NULL
     WHERE run_id = $1 AND lease_token = $2`,
  claimDelivery: `UPDATE runs SET deliveries = deliveries + 1, delivery_owner = $2
     WHERE run_id = $1 RETURNING deliveries`,
  settleDelivery: `UPDATE runs SET deliveries_settled = $2
     WHERE run_id = $1 AND deliveries_settled < $2 AND deliveries >= $2`,
  insertResume: `INSERT INTO resumes (run_id, resume_index, resumed_at, owner, phase_index, episode,
       forced, changed_modules)
     SELECT $1, COALESCE(MAX(resume_index), 0) + 1, $2, $3, $4, $5, $6, $7
     FROM resumes WHERE run_id = $1 RETURNING *`,
  resumes: 'SELECT * FROM resumes WHERE run_id = $1 ORDER BY resume_index',
  insertRemoteComponent: `INSERT INTO remote_components (run_id, session, open_index, phase_index,
       kind, component, service, instance, host, pid, opened_at)
     SELECT $1, $2,
       (SELECT COALESCE(MAX(open_index), 0) + 1 FROM remote_components WHERE run_id = $1),
       $3, $4, $5, $6, $7, $8, $9, $10
     WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = $1)
     ON CONFLICT (run_id, session) DO NOTHING`,
  remoteComponents: 'SELECT * FROM remote_components WHERE run_id = $1 ORDER BY open_index',
  getPhase: 'SELECT * FROM phases WHERE run_id = $1 AND phase_index = $2',
  phases: 'SELECT * FROM phases WHERE run_id = $1 ORDER BY phase_index',
  finishPhase: `UPDATE phases SET status = $3, termination_reason = $4, episodes = $5, error = $6,
       ended_at = $7
     WHERE run_id = $1 AND phase_index = $2 RETURNING *`,
  episodes: 'SELECT * FROM episodes WHERE run_id = $1 ORDER BY phase_index, episode',
  phaseEpisodes: 'SELECT * FROM episodes WHERE run_id = $1 AND phase_index = $2 ORDER BY episode',
  // summed in TypeScript (episodeSummaries.ts), not by each database's AVG
  episodeReturns: `SELECT phase_index, evaluation, episode_return FROM episodes WHERE run_id = $1
     ORDER BY phase_index, episode`,
  checkpoints: 'SELECT * FROM checkpoints WHERE run_id = $1 ORDER BY phase_index, checkpoint_index',
  phaseCheckpoints:
    'SELECT * FROM checkpoints WHERE run_id = $1 AND phase_index = $2 ORDER BY checkpoint_index',
  metaDecisions:
    'SELECT * FROM meta_decisions WHERE run_id = $1 ORDER BY phase_index, start_request',
  latestSnapshot: `SELECT * FROM snapshots WHERE run_id = $1
     ORDER BY phase_index DESC, episode DESC LIMIT 1`,
  snapshotCount: 'SELECT COUNT(*) AS count FROM snapshots WHERE run_id = $1',
  /** What a resume point after (`$2` phase, `$3` episode) deletes, every table below phases. */
  deleteAfter: [
    `DELETE FROM episodes WHERE ${later} episode > $3))`,
    `DELETE FROM checkpoints WHERE ${later} after_episode > $3))`,
    `DELETE FROM meta_decisions WHERE ${later} first_episode > $3))`,
    `DELETE FROM snapshots WHERE ${later} episode > $3))`,
  ],
  deleteLaterPhases: 'DELETE FROM phases WHERE run_id = $1 AND phase_index > $2',
  // every table below phases cascades from it
  deleteAllPhases: 'DELETE FROM phases WHERE run_id = $1',
  reopenPhase: `UPDATE phases SET status = 'running', termination_reason = NULL, episodes = 0,
       error = NULL, ended_at = NULL
     WHERE run_id = $1 AND phase_index = $2`,
  insertSweep: `INSERT INTO sweeps (sweep_id, uid, sweep_file, sweep_file_path, status, state,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'running', $5, $6, $6)
     ON CONFLICT (sweep_id) DO NOTHING RETURNING *`,
  saveSweep: `UPDATE sweeps SET status = $2, state = $3, error = $4, updated_at = $5
     WHERE sweep_id = $1 RETURNING *`,
  getSweep: 'SELECT * FROM sweeps WHERE sweep_id = $1',
  // sorted by the core (newestSweepFirst), not by each database's collation
  listSweeps: 'SELECT * FROM sweeps',
  insertTrial: `INSERT INTO sweep_trials (sweep_id, trial_index, run_id, parameters, hold_at)
     VALUES ($1, $2, $3, $4, $5)`,
  holdTrial: 'UPDATE sweep_trials SET hold_at = $2 WHERE run_id = $1 RETURNING run_id',
  sweepTrials: 'SELECT * FROM sweep_trials WHERE sweep_id = $1 ORDER BY trial_index',
  trialOfRun: 'SELECT * FROM sweep_trials WHERE run_id = $1',
  reopenRun: `UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, summary = NULL
     WHERE run_id = $1`,
} as const;
