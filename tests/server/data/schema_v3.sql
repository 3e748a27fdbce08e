-- A SQLite database as amazons-server wrote it at schema version 3 (before tournaments): the
-- tables of server/sqlite_storage.cpp at commit 87df251, and a few rows. tests/server/test_storage.cpp
-- upgrades it.
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
INSERT INTO schema_version (version) VALUES (3);
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
