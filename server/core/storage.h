// The narrow interface between the game server and its database. The lobby never talks to a
// database: it produces WriteBatches, which a backend applies atomically, and asks archive
// questions that a backend answers. Two backends implement it: SQLite (sqlite_storage.h, the
// embedded default) and PostgreSQL (pg_storage.h); open_storage.h picks one from --db.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "common/game_record.h"
#include "common/protocol.h"
#include "server/core/glicko2.h"
#include "server/core/schema.h"

namespace amazons::server {

using GameId = std::int64_t;

struct PlayerRow {
  std::string name;
  std::string password_hash;  // empty: no password
  std::string token_digest;   // empty: no token issued
  bool bot = false;
  Rating rating;
  int rated_games = 0;
  friend bool operator==(const PlayerRow&, const PlayerRow&) = default;
};

// What a rated game changed of a player: their rating and count of rated games, nothing else.
// The node that ran the game may not hold the rest of the row (a cluster node knows a player of
// another node by name and rating only), so a result never writes a password or token back.
// It is stored as a change, not a value: the stored rating moves by `after - before` and the
// count by one, so that two games of one player ending at once on two nodes, each rated from
// what its node knew, both count (written as values, the second would undo the first).
// The deviation and volatility are `after`'s. A player never stored gets `after` and a count of 1.
struct PlayerRating {
  std::string name;
  bool bot = false;  // for a row written the first time
  Rating before;     // the rating the game was rated from
  Rating after;
  friend bool operator==(const PlayerRating&, const PlayerRating&) = default;
};

// What a login changes of a player: the credentials and the bot flag, nothing of the rating.
// A row is made the first time, with the starting rating. (Written whole, a row read at login
// would put back a rating that another node of a cluster changed since.)
struct PlayerLogin {
  std::string name;
  std::string password_hash;  // empty: no password
  std::string token_digest;
  bool bot = false;
  friend bool operator==(const PlayerLogin&, const PlayerLogin&) = default;
};

// A game from the moment it starts. Moves are stored separately, one row each.
struct GameRow {
  GameId id = 0;
  RuleVariant variant;
  std::string rules;  // the name the game was created with
  TimeControl time;
  PlayerInfo white;  // rating: at the start of the game
  PlayerInfo black;
  bool rated = false;
  std::optional<std::string> invite;  // private games
  std::optional<GameResult> result;   // empty while the game goes on
  Timestamp started_at{};
  std::optional<Timestamp> ended_at;
  // The fencing token of the node that holds the game (schema 6): written when the row is first
  // stored, raised only by Storage::take_game. 0 for a game no cluster node ever took over; a
  // single server writes 0 and never fences.
  std::int64_t owner_token = 0;
  friend bool operator==(const GameRow&, const GameRow&) = default;
};

struct MoveRow {
  GameId game = 0;
  int ply = 0;  // 1-based
  Move move;
  Millis elapsed{0};
  std::optional<Millis> clock_left;  // the mover's clock after the move, timed games only
  friend bool operator==(const MoveRow&, const MoveRow&) = default;
};

// An open game, seek or challenge that outlives its creator's connection (schema 3): it is
// kept until taken, withdrawn or expired, across disconnects and restarts.
struct OfferRow {
  std::string id;     // "g12" (open game 12), "s3" (seek), "c7" (challenge): unique
  std::string owner;  // who made it
  // The request that made it, as the client sent it (a create, seek or challenge line, as
  // protocol::encode writes it). An open game's colour is the one drawn for its creator.
  std::string request;
  std::optional<std::string> invite;  // a private open game's invite code
  Timestamp created_at{};
  Timestamp expires_at{};
  friend bool operator==(const OfferRow&, const OfferRow&) = default;
};
// An offer that was taken, withdrawn or expired.
struct OfferRemoved {
  std::string id;
  // Set: only the row that expires then. A cluster node letting its copy of a player's kept
  // seek go must not take a newer seek of theirs (the same id, "s:NAME") with it.
  std::optional<Timestamp> expiring = std::nullopt;
  friend bool operator==(const OfferRemoved&, const OfferRemoved&) = default;
};

// ---- moderation (schema 4) ----
// A ban of a name or an address, or a chat mute, until expires_at (absent: for good).
enum class SanctionKind : std::uint8_t { BanName, BanAddress, Mute };
inline std::string_view sanction_name(SanctionKind k) {
  return k == SanctionKind::BanName      ? "ban_name"
         : k == SanctionKind::BanAddress ? "ban_address"
                                         : "mute";
}
inline std::optional<SanctionKind> sanction_from(std::string_view text) {
  for (SanctionKind k : {SanctionKind::BanName, SanctionKind::BanAddress, SanctionKind::Mute})
    if (sanction_name(k) == text) return k;
  return std::nullopt;
}
struct SanctionRow {
  SanctionKind kind = SanctionKind::BanName;
  std::string target;  // a player name or an address
  std::string reason;
  std::string by;
  Timestamp created_at{};
  std::optional<Timestamp> expires_at;
  friend bool operator==(const SanctionRow&, const SanctionRow&) = default;
};
struct SanctionRemoved {
  SanctionKind kind = SanctionKind::BanName;
  std::string target;
  friend bool operator==(const SanctionRemoved&, const SanctionRemoved&) = default;
};
// One line of the audit log: who did what to whom, when and why.
struct AuditRow {
  Timestamp at{};
  std::string actor;
  std::string action;
  std::string target;
  std::string reason;
  std::optional<Millis> duration;
  friend bool operator==(const AuditRow&, const AuditRow&) = default;
};
struct ReportRow {
  std::int64_t id = 0;
  Timestamp at{};
  std::string reporter;
  std::string player;
  std::optional<std::int64_t> line;  // a reported chat line, its text and game
  std::optional<std::string> text;
  std::optional<std::string> game;
  std::string reason;
  std::optional<std::string> resolved_by;  // set once resolved
  std::optional<Timestamp> resolved_at;
  std::string note;
  friend bool operator==(const ReportRow&, const ReportRow&) = default;
};
// A player's role; Role::Player removes the row.
struct RoleRow {
  std::string name;
  protocol::Role role = protocol::Role::Player;
  friend bool operator==(const RoleRow&, const RoleRow&) = default;
};
struct RegistrationsRow {
  bool open = true;
  friend bool operator==(const RegistrationsRow&, const RegistrationsRow&) = default;
};
// What `amazons-server admin` changes in a running server's database; the server reads it
// at startup and polls it (Storage::moderation()).
struct ModerationSettings {
  std::map<std::string, protocol::Role> roles;  // moderators and admins
  bool registrations_open = true;
  friend bool operator==(const ModerationSettings&, const ModerationSettings&) = default;
};

// A tournament (schema 5): its whole state as Tournament::to_json writes it (settings, players,
// pairings), rewritten whenever it changes; finished tournaments stay (the archive).
struct TournamentRow {
  std::int64_t id = 0;
  std::string name;
  std::string status;  // "created", "running", "finished"
  std::string state;   // JSON
  friend bool operator==(const TournamentRow&, const TournamentRow&) = default;
};

using StorageWrite = std::variant<PlayerRow, GameRow, MoveRow, OfferRow, OfferRemoved, SanctionRow,
                                  SanctionRemoved, AuditRow, ReportRow, RoleRow, RegistrationsRow,
                                  TournamentRow, PlayerRating, PlayerLogin>;

// A promise that the batch's writer holds `game` with fencing token `token` (a cluster node's
// game lease, cluster/lease.h). Storage refuses the whole transaction when the game is held with
// a higher token: a node that lost its lease and does not know it yet cannot store a move.
struct Fence {
  GameId game = 0;
  std::int64_t token = 0;
  friend bool operator==(const Fence&, const Fence&) = default;
};

// Everything one step of the lobby wants stored. Applied in order, all or nothing.
struct WriteBatch {
  WriteBatch() = default;
  explicit WriteBatch(std::vector<StorageWrite> w, std::vector<Fence> f = {})
      : writes(std::move(w)), fences(std::move(f)) {}

  std::vector<StorageWrite> writes;  // rows are upserts
  // Checked before any write of the transaction; a single server has none. A cluster node
  // fences every game whose rows it writes.
  std::vector<Fence> fences;
  bool empty() const { return writes.empty() && fences.empty(); }
  void append(WriteBatch&& other) {
    for (auto& w : other.writes) writes.push_back(std::move(w));
    for (auto& f : other.fences) fences.push_back(f);
  }
};

struct StoredGame {
  GameRow row;
  std::vector<MoveRow> moves;
};

struct LoadedState {
  std::vector<PlayerRow> players;
  std::vector<StoredGame> unfinished;
  std::vector<OfferRow> offers;            // oldest first
  std::vector<TournamentRow> tournaments;  // every one, finished too, by id
  GameId last_game_id = 0;
  ModerationSettings moderation;
  std::vector<SanctionRow> sanctions;
  std::vector<ReportRow> open_reports;  // oldest first
  std::int64_t last_report_id = 0;
};

// A database problem the server cannot work around (disk full, file gone). The server stops
// rather than announce a move it could not store.
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A transaction refused because one of its fences is stale: `game` is held with `holder`, a
// higher token than the batch's `token`. Nothing of the transaction is stored. A StorageError,
// so a caller that knows nothing of fencing stops rather than go on as if the move were stored;
// a cluster node catches it, gives the game up and applies its other batches again.
class FencedWrite : public StorageError {
 public:
  FencedWrite(GameId game, std::int64_t token, std::int64_t holder)
      : StorageError("game " + std::to_string(game) + " is held with fencing token " +
                     std::to_string(holder) + ", higher than this write's " +
                     std::to_string(token)),
        game_(game),
        token_(token),
        holder_(holder) {}
  GameId game() const { return game_; }
  std::int64_t token() const { return token_; }
  std::int64_t holder() const { return holder_; }

 private:
  GameId game_;
  std::int64_t token_;
  std::int64_t holder_;
};

// What take_game() found.
struct TakeResult {
  enum class Outcome : std::uint8_t {
    Taken,     // the game is now held with the token; `game` is its row and every stored move
    Newer,     // held with a higher token (`holder`): another node took it later
    Finished,  // the game has a result; nobody runs it again
    Missing,   // no such game
  };
  Outcome outcome = Outcome::Missing;
  std::int64_t holder = 0;  // the token stored before the call (Taken, Newer, Finished)
  std::optional<StoredGame> game;
};

// How much a database holds (amazons-server migrate compares them).
struct StorageCounts {
  std::int64_t players = 0;
  std::int64_t games = 0;
  std::int64_t moves = 0;
  std::int64_t offers = 0;
  std::int64_t tournaments = 0;
  friend bool operator==(const StorageCounts&, const StorageCounts&) = default;
};

// One backend's connection. Not thread-safe: one thread (the StorageWorker's) calls it.
class Storage {
 public:
  virtual ~Storage() = default;
  // Everything the server needs in memory at startup.
  virtual LoadedState load() = 0;
  // Applies the batches in order in one durable transaction. Throws StorageError.
  virtual void apply(std::span<const WriteBatch> batches) = 0;
  // A player's finished games, newest first. Private games are left out unless `viewer` played
  // in them.
  virtual std::vector<protocol::ArchiveEntry> finished_games(const std::string& player, int limit,
                                                             const std::string& viewer) = 0;
  // Any stored game's row and record (finished or not).
  virtual std::optional<GameRow> game_row(GameId id) = 0;
  virtual std::optional<GameRecord> game_record(GameId id) = 0;
  virtual StorageCounts counts() = 0;
  // Deletes every player, game, move, offer and tournament in one transaction (migrate --force).
  virtual void clear() = 0;
  // Roles and the registrations switch, as they are now (polled by a running server).
  virtual ModerationSettings moderation() = 0;
  // The newest `limit` audit lines, newest first.
  virtual std::vector<AuditRow> audit_log(int limit) = 0;
  // The schema version found on opening, and whether opening upgraded it.
  virtual SchemaStatus schema() const = 0;

  // ---- the cluster (schema 6) ----
  // Takes over an unfinished game with fencing token `token` in one transaction: raises the
  // stored owner_token to `token` unless it is higher, and reads the row and every move stored
  // until then. Ordered with apply(): a transaction fenced with the old token either committed
  // before (its moves are read here) or is refused after. Taking again with the token that holds
  // the game is Taken (a retry after a lost reply). Throws StorageError.
  virtual TakeResult take_game(GameId id, std::int64_t token) = 0;
  // Reserves `count` (>= 1) game ids no other server sharing this database will use, and returns
  // the first; the others follow it. Above every stored game id and every open game's id.
  virtual GameId reserve_game_ids(int count) = 0;

  // ---- what a cluster node reads while it runs: the database is shared, so its memory is not
  // the truth about players and games that other nodes change ----
  // A player's row as it is stored now, if any (login reads it fresh).
  virtual std::optional<PlayerRow> player(const std::string& name) = 0;
  // A registered player, other than `name`, whose name has the canonical form of `name`
  // (server/core/canonical_name.h): a registration of `name` is refused while one exists.
  virtual std::optional<std::string> registered_look_alike(const std::string& name) = 0;
  // The unfinished games a player sits in, by id.
  virtual std::vector<GameId> unfinished_games_of(const std::string& name) = 0;
  // Every unfinished game, by id, with the fencing token it is held with (the failover scan).
  virtual std::vector<std::pair<GameId, std::int64_t>> unfinished_games() = 0;
  // Every kept offer (open game, seek, challenge), oldest first: a cluster node takes over those
  // of a node that died, and tells a player at login of the challenges waiting for them.
  virtual std::vector<OfferRow> offers() = 0;
  // The players with at least one rated game, best rating first (ties by name), at most `limit`.
  virtual std::vector<PlayerRow> leaderboard(int limit) = 0;
  // Tournaments: every one by id (a node's `tournaments` list), one (taken over by the node
  // that directs it from now on), and the ids of those not finished (the failover scan).
  virtual std::vector<TournamentRow> tournaments() = 0;
  virtual std::optional<TournamentRow> tournament(std::int64_t id) = 0;
  virtual std::vector<std::int64_t> unfinished_tournaments() = 0;
};

}  // namespace amazons::server
