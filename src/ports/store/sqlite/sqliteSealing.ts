import {
  recordsDigestSql,
  sealedEvaluationTables,
  sealedRunTables,
  sqliteDigestSql,
} from '../core/sealedRecords.js';

const finished = `('succeeded', 'failed', 'cancelled')`;

/**
 * SQLite schema 10: when a run or an evaluation run finishes, a trigger keeps
 * the digest of its records (`records_digest`, checked by `arena check
 * --deep`), and an evaluation run's cases keep their digest and drop their
 * texts unless the run was created to keep them (`keep_texts`). A run
 * reopened (a resume) loses its digest until it finishes again. The digest
 * calls `arena_sha256`, which arena registers on each connection it opens: a
 * statement from elsewhere (the sqlite3 shell) that sets a run's or an
 * evaluation run's status is refused with "no such function: arena_sha256";
 * inserts and every other change are not.
 */
export const sqliteSealingMigration = `
  ALTER TABLE runs ADD COLUMN records_digest TEXT;
  ALTER TABLE evaluation_runs ADD COLUMN records_digest TEXT;
  ALTER TABLE evaluation_runs ADD COLUMN keep_texts INTEGER NOT NULL DEFAULT 0 CHECK (keep_texts IN (0, 1));
  ALTER TABLE evaluation_cases ADD COLUMN context_sha256 TEXT;

  CREATE TRIGGER runs_sealed AFTER UPDATE OF status ON runs
    WHEN NEW.status IN ${finished} AND OLD.status NOT IN ${finished}
  BEGIN
    UPDATE runs SET records_digest = ${recordsDigestSql(sqliteDigestSql, sealedRunTables, 'NEW.run_id')}
      WHERE run_id = NEW.run_id;
  END;
  CREATE TRIGGER runs_reopened AFTER UPDATE OF status ON runs
    WHEN NEW.status NOT IN ${finished} AND NEW.records_digest IS NOT NULL
  BEGIN
    UPDATE runs SET records_digest = NULL WHERE run_id = NEW.run_id;
  END;

  CREATE TRIGGER evaluation_runs_sealed AFTER UPDATE OF status ON evaluation_runs
    WHEN NEW.status <> 'running' AND OLD.status = 'running'
  BEGIN
    UPDATE evaluation_cases SET context_sha256 = arena_sha256(context),
        context = CASE WHEN NEW.keep_texts = 1 THEN context ELSE '' END
      WHERE evaluation_run_id = NEW.evaluation_run_id AND context_sha256 IS NULL;
    UPDATE evaluation_runs SET
        records_digest = ${recordsDigestSql(sqliteDigestSql, sealedEvaluationTables, 'NEW.evaluation_run_id')}
      WHERE evaluation_run_id = NEW.evaluation_run_id;
  END;
  `;
