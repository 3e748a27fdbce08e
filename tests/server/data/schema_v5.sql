-- A SQLite database as amazons-server wrote it at schema version 5 (before the cluster's
-- owner tokens and id counter): the tables of server/sqlite_storage.cpp at commit d9950aa, and a few
-- rows. tests/server/test_storage.cpp upgrades it.
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (
  name TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  token_digest TEXT NOT NULL,
  bot INTEGER NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  rated_games INTEGER NOT NULL);
CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  rules TEXT NOT NULL,
  variant TEXT NOT NULL,
  time_control TEXT NOT NULL,
  white TEXT NOT NULL, white_bot INTEGER NOT NULL, white_rating INTEGER,
  black TEXT NOT NULL, black_bot INTEGER NOT NULL, black_rating INTEGER,
  rated INTEGER NOT NULL,
  invite TEXT,
  winner TEXT,
  reason TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER);
CREATE INDEX games_unfinished ON games(id) WHERE reason IS NULL;
CREATE INDEX games_white ON games(white, ended_at);
CREATE INDEX games_black ON games(black, ended_at);
CREATE TABLE moves (
  game INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  elapsed_ms INTEGER NOT NULL,
  clock_ms INTEGER,
  PRIMARY KEY (game, ply)) WITHOUT ROWID;
CREATE TABLE offers (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  request TEXT NOT NULL,
  invite TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL);
CREATE TABLE tournaments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  state TEXT NOT NULL);
CREATE TABLE roles (name TEXT PRIMARY KEY, role TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sanctions (kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL,
  by_name TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER,
  PRIMARY KEY (kind, target));
CREATE TABLE audit (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor TEXT NOT NULL,
  action TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, duration_ms INTEGER);
CREATE TABLE reports (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, reporter TEXT NOT NULL,
  player TEXT NOT NULL, line INTEGER, text TEXT, game TEXT, reason TEXT NOT NULL,
  resolved_by TEXT, resolved_at INTEGER, note TEXT NOT NULL);
CREATE INDEX reports_open ON reports(id) WHERE resolved_by IS NULL;
INSERT INTO schema_version (version) VALUES (5);
INSERT INTO players VALUES ('ann', '', 'digest-a', 0, 1520.5, 300, 0.06, 1),
                           ('bob', '', 'digest-b', 1, 1479.5, 300, 0.06, 1);
INSERT INTO games VALUES
  (1, 'standard', '{"black":["a7","d10","g10","j7"],"first":"white","name":"standard","size":10,"white":["a4","d1","g1","j4"]}',
   '{"per_move":86400.0}', 'ann', 0, 1500, 'bob', 1, 1500, 1, NULL, 'white', 'resign',
   1800000000000, 1800000100000),
  (2, 'standard', '{"black":["a7","d10","g10","j7"],"first":"white","name":"standard","size":10,"white":["a4","d1","g1","j4"]}',
   'null', 'bob', 1, 1480, 'ann', 0, 1521, 0, NULL, NULL, NULL, 1800000200000, NULL);
INSERT INTO moves VALUES (1, 1, 'd1-d7/g7', 1000, 86400000), (1, 2, 'a7-b7/c7', 900, 86400000),
                         (2, 1, 'd1-d7/g7', 1200, NULL);
INSERT INTO offers VALUES ('s1', 'ann', '{"type":"seek"}', NULL, 1800000000000, 1800086400000);
INSERT INTO offers VALUES ('g7', 'bob', '{"type":"create"}', NULL, 1800000000000, 1800086400000);
INSERT INTO roles VALUES ('ann', 'moderator');
INSERT INTO tournaments VALUES (1, 'Sunday arena', 'finished', '{"id":1}');
