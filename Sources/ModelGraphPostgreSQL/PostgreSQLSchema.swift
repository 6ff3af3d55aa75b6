/// The store's own tables, made once per database.
enum PostgreSQLSchema {
  /// A save's version check and bump in PL/pgSQL: `v` becomes the new version, or the store
  /// is behind `expected` (``behind``). Written into `mg_begin_commit` and `mg_commit`.
  private static let versionCheck = """
    UPDATE mg_state SET version = version + 1 RETURNING version INTO v;
    IF v <> expected + 1 THEN
      RAISE EXCEPTION 'the store is behind version %', v - 1 USING ERRCODE = '\(behind)';
    END IF;
    """

  /// Creates the bookkeeping tables and functions if they are missing; concurrent openers wait
  /// for each other on an advisory lock.
  static let setup = """
    SET client_min_messages = warning;
    BEGIN;
    SELECT pg_advisory_xact_lock(7201857);
    CREATE TABLE IF NOT EXISTS mg_state (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version bigint NOT NULL, format integer NOT NULL);
    INSERT INTO mg_state VALUES (true, 0, 1) ON CONFLICT DO NOTHING;
    DO $$ BEGIN
      -- The version of the last migration; databases made before it existed get the column.
      IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema =
          current_schema() AND table_name = 'mg_state' AND column_name = 'schema_version') THEN
        ALTER TABLE mg_state ADD COLUMN schema_version bigint NOT NULL DEFAULT 0;
      END IF;
      -- The change log holds no row below this version (see prune).
      IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema =
          current_schema() AND table_name = 'mg_state' AND column_name = 'pruned') THEN
        ALTER TABLE mg_state ADD COLUMN pruned bigint NOT NULL DEFAULT 0;
      END IF;
      -- Raised by each listener as it registers (see PostgreSQLStore.saveText).
      IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema =
          current_schema() AND table_name = 'mg_state' AND column_name = 'registrations') THEN
        ALTER TABLE mg_state ADD COLUMN registrations bigint NOT NULL DEFAULT 0;
      END IF;
    END $$;
    CREATE SEQUENCE IF NOT EXISTS mg_ordinal;
    CREATE TABLE IF NOT EXISTS mg_entities (
      code serial PRIMARY KEY, name text UNIQUE NOT NULL, lineage bytea, ordinal bigint,
      next_row bigint NOT NULL DEFAULT 0);
    CREATE TABLE IF NOT EXISTS mg_log (
      version bigint PRIMARY KEY, token uuid NOT NULL, ids bigint[] NOT NULL,
      committed_at timestamptz NOT NULL DEFAULT now());
    -- Unused (the prune reads a range of versions): databases made before keep no index to
    -- update at every save.
    DROP INDEX IF EXISTS mg_log_committed_at;
    CREATE TABLE IF NOT EXISTS mg_listeners (pid integer PRIMARY KEY, applied bigint NOT NULL);
    CREATE OR REPLACE FUNCTION mg_begin_commit(expected bigint) RETURNS bigint AS $$
    DECLARE v bigint;
    BEGIN
      \(versionCheck)
      RETURN v;
    END $$ LANGUAGE plpgsql;
    -- A save's bookkeeping in one call: the version check and bump, the change log's row
    -- and the signal to listeners (kept for processes of earlier versions).
    CREATE OR REPLACE FUNCTION mg_commit(expected bigint, token uuid, ids bigint[],
        channel text) RETURNS bigint AS $$
    DECLARE v bigint := mg_begin_commit(expected);
    BEGIN
      INSERT INTO mg_log (version, token, ids) VALUES (v, token, ids);
      PERFORM pg_notify(channel, '');
      RETURN v;
    END $$ LANGUAGE plpgsql;
    -- The same, signalling only when a container other than the saver's own listens (its
    -- listener's server process is `listener`): a listener registers in mg_listeners while it
    -- holds mg_state's row and reads the log after, so a save either finds its row here,
    -- after its own update of mg_state, or commits before that listener reads the log. The
    -- version check is mg_begin_commit's text, not a call of it: one PL/pgSQL call per save.
    CREATE OR REPLACE FUNCTION mg_commit(expected bigint, token uuid, ids bigint[],
        channel text, listener integer) RETURNS bigint AS $$
    DECLARE v bigint;
    BEGIN
      \(versionCheck)
      INSERT INTO mg_log (version, token, ids) VALUES (v, token, ids);
      IF EXISTS (SELECT 1 FROM mg_listeners WHERE pid <> listener) THEN
        PERFORM pg_notify(channel, '');
      END IF;
      RETURN v;
    END $$ LANGUAGE plpgsql;
    -- A save made on a stale version (PostgreSQLStore.saveText): called only then.
    CREATE OR REPLACE FUNCTION mg_behind(expected bigint) RETURNS void AS $$
    BEGIN
      RAISE EXCEPTION 'the store is behind version %', (SELECT version FROM mg_state)
        USING ERRCODE = '\(behind)';
    END $$ LANGUAGE plpgsql;
    CREATE OR REPLACE FUNCTION mg_expect_one(matched bigint, object text) RETURNS void AS $$
    BEGIN
      IF matched <> 1 THEN
        RAISE EXCEPTION '% was changed by another process', object USING ERRCODE = 'MG002';
      END IF;
    END $$ LANGUAGE plpgsql;
    CREATE OR REPLACE FUNCTION mg_not_unique(entity text, columns text, val text) RETURNS void
    AS $$
    BEGIN
      RAISE EXCEPTION 'a unique value is held twice in the classes of %', entity
        USING ERRCODE = '23505', TABLE = entity,
        DETAIL = format('Key (%s)=(%s) already exists.', columns, val);
    END $$ LANGUAGE plpgsql;
    COMMIT;
    """

  /// Deletes the change log's rows before `version` that every live listener has consumed or
  /// that are older than `retention` seconds, and the rows of listeners that ended.
  ///
  /// The log's rows below `mg_state.pruned` are gone, so the delete reads only the versions
  /// from there: the entries of the rows deleted before stay in the log's index until a
  /// vacuum, and a scan from the first version read all of them (thousands at every prune).
  /// Then `pruned` moves to the oldest row kept. A save holds `mg_state`'s row from its
  /// version check, so prunes of several processes take turns, and rows are only ever added
  /// at the newest version.
  static func prune(before version: UInt64, retention: Int) -> [PostgreSQLStatement] {
    [
      PostgreSQLStatement(
        "DELETE FROM mg_listeners WHERE pid NOT IN (SELECT pid FROM pg_stat_activity)"),
      PostgreSQLStatement(
        "DELETE FROM mg_log WHERE version >= (SELECT pruned FROM mg_state) AND version < $1 "
          + "AND (committed_at < now() - $2::interval "
          + "OR version <= (SELECT min(applied) FROM mg_listeners))",
        [String(version), "\(retention) seconds"]),
      PostgreSQLStatement(
        "UPDATE mg_state SET pruned = coalesce((SELECT min(version) FROM mg_log WHERE "
          + "version >= mg_state.pruned AND version < $1), $1)",
        [String(version)]),
    ]
  }

  /// The main query of a statement whose `WITH` part `u` updated or deleted one object (with
  /// `RETURNING 1`) if it was at a version no newer than the save's base: it fails with
  /// ``rowChanged``, naming the object (parameter `$object`), unless `u` returned one row.
  /// The PL/pgSQL function runs only then, not at every row a save writes.
  static func expectOne(object: Int) -> String {
    "SELECT CASE WHEN count(*) = 1 THEN NULL ELSE mg_expect_one(count(*), $\(object)) END FROM u"
  }

  /// The SQLSTATE of a commit that found the store behind the database.
  static let behind = "MG001"
  /// The SQLSTATE of a row whose version is newer than the store has seen.
  static let rowChanged = "MG002"
  /// The prefix of the notification channel commits signal on (`modelgraph.<schema>`).
  static let channel = "modelgraph"

  /// The notification channel of `schema`: `modelgraph.<schema>`, cut to PostgreSQL's 63 bytes
  /// of an identifier at a character boundary, as the server cuts the `LISTEN` name (so that
  /// `pg_notify`, which refuses a longer name, signals the same channel).
  static func channel(of schema: String) -> String {
    var name = "\(channel).\(schema)"
    while name.utf8.count > 63 { name.removeLast() }
    return name
  }
}
