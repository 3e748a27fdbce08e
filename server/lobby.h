// Everything the server knows and decides, as pure code: who is connected, players and their
// ratings, open and running games, seeks, challenges, spectators, chat. The Asio layer feeds it
// decoded lines, disconnects and timer ticks, and carries out the Effects it returns: it stores
// `writes`, and only once they are committed delivers `messages` (so nobody is told of a move
// that is not on disk), runs the slow password hashes and the archive queries off this thread.
//
// Not thread-safe: one thread (or strand) at a time. Every call takes the time as an argument.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/protocol.h"
#include "server/game_room.h"
#include "server/moderation.h"
#include "server/rate_limiter.h"
#include "server/storage.h"
#include "server/tournament.h"

namespace amazons::server {

using SessionId = std::uint64_t;

struct LobbyConfig {
  std::string server_name = "amazons";
  std::optional<std::string> server_password;  // a private server: hello must carry it
  std::filesystem::path rules_dir;             // rule variants by name
  Millis claim_grace{60'000};                  // disconnected this long, the opponent may claim
  Millis finished_retention{300'000};          // finished games stay in memory for rematches
  std::size_t max_chat_bytes = 500;
  double chat_per_second = 1.0;  // chat lines, with bursts of chat_burst
  double chat_burst = 5.0;
  double requests_per_second = 50.0;  // every request, with bursts of requests_burst
  double requests_burst = 100.0;
  double errors_per_second = 0.5;  // refused requests; past the burst the connection is closed
  double errors_burst = 20.0;
  std::size_t max_open_games_per_player = 10;
  // Correspondence (docs/PROTOCOL.md): how long an open game, seek or challenge lasts while its
  // creator is away, unless the request names a lifetime (at most max_offer_lifetime). Offers of
  // correspondence time controls, and any with a lifetime, are kept; others go on disconnect.
  Millis offer_lifetime{7LL * 24 * 3600 * 1000};
  Millis max_offer_lifetime{30LL * 24 * 3600 * 1000};
  // Correspondence games one player may have in progress at once.
  std::size_t max_correspondence_games = 50;
  std::size_t max_list = 200;  // games in one list reply
  // Whether every player may create tournaments (limits.players_create_tournaments); when not,
  // only moderators may (see Lobby::may_create_tournament).
  bool players_create_tournaments = false;
  // Take passwords over connections that are not private (plain TCP from another machine).
  bool allow_plain_passwords = false;
};

// What the network layer knows of a connection that the lobby's rules depend on.
struct ConnectionInfo {
  // Nobody between the client and us can read what it sends: TLS, or a trusted local address.
  // Passwords are taken only over such connections (unless allow_plain_passwords).
  bool private_channel = true;
  std::string address;  // the peer's IP address, for address bans; empty when unknown
};

struct Outbound {
  SessionId to = 0;
  std::shared_ptr<const std::string> line;  // without '\n'; shared by every recipient
};

// A password to check or hash, off the game thread; its outcome goes back through
// Lobby::complete_password.
struct PasswordJob {
  SessionId session = 0;
  protocol::RequestId id;
  std::string name;
  std::string password;
  bool bot = false;
  std::optional<std::string> stored_hash;  // verify against it; when empty, hash anew
};
struct PasswordOutcome {
  PasswordJob job;
  bool verified = false;                // stored_hash matched
  std::optional<std::string> new_hash;  // the fresh hash when there was none
};

// A question for the archive, answered by answer_query() from storage after every write made
// before it.
struct ArchiveQuery {
  SessionId session = 0;
  std::string player;  // who asks: private games are shown only to their players (or by invite)
  protocol::RequestId id;
  std::variant<protocol::HistoryRequest, protocol::RecordRequest, protocol::AuditRequest>
      request;  // player filled in
};

struct Effects {
  std::vector<Outbound> messages;  // in order, per recipient
  WriteBatch writes;               // commit before delivering messages
  std::vector<ArchiveQuery> queries;
  std::vector<PasswordJob> password_jobs;
  std::vector<SessionId> close;             // close once the messages before are delivered
  std::vector<protocol::ErrorCode> errors;  // the codes of the errors among `messages`
  void append(Effects&& other);
};

// The reply to an archive query, from the storage thread.
Outbound answer_query(Storage& storage, const ArchiveQuery& query);

class Lobby {
 public:
  // Restores players and every unfinished game from `state`. Games that cannot be restored are
  // skipped and reported by restore_problems().
  Lobby(LobbyConfig config, const LoadedState& state, Instant now);

  Effects connect(SessionId session, Instant now, ConnectionInfo info = {});
  Effects disconnect(SessionId session, Instant now);
  // One line from a session, already decoded (or the reason it could not be).
  Effects handle(SessionId session,
                 const Expected<protocol::ClientEnvelope, protocol::DecodeError>& request,
                 Instant now);
  Effects handle_line(SessionId session, std::string_view line, Instant now);
  Effects complete_password(const PasswordOutcome& outcome, Instant now);
  // Ends games whose clock ran out; forgets old finished games. Call often (every ~50 ms).
  Effects tick(Instant now);
  // Roles and the registrations switch as the database now has them (amazons-server admin
  // changes them while the server runs; the network layer polls them).
  void set_moderation(ModerationSettings settings);
  protocol::Role role_of(const std::string& name) const;
  // Tells everyone the server is going down and closes every session.
  Effects shutdown(const std::string& message);

  protocol::DiscoveryReply discovery_info() const;
  const std::vector<std::string>& restore_problems() const { return restore_problems_; }
  std::size_t session_count() const { return sessions_.size(); }
  std::size_t online_players() const;
  std::size_t active_games() const;
  struct GameCounts {
    std::size_t open = 0, active = 0;
  };
  GameCounts game_counts() const;  // walks every room

 private:
  struct SessionState {
    std::optional<std::string> player;
    bool hello_pending = false;
    ConnectionInfo connection;
    std::set<GameId> watching;
    RateLimiter requests;
    RateLimiter errors;
    RateLimiter chat;
  };
  struct PlayerState {
    PlayerRow row;
    std::optional<SessionId> session;
    std::set<GameId> seats;  // games in progress
    std::set<GameId> open;   // open games created and not yet joined
  };
  struct SeekEntry {
    std::string player;
    std::string rules;
    TimeControl time;
    bool rated = false;
    std::string id;                       // the offer id ("s3") of a kept seek
    std::optional<Timestamp> kept_until;  // kept across disconnects until then
  };
  struct ChallengeEntry {
    std::string from;
    std::string to;
    protocol::ChallengeSend request;
    std::optional<Timestamp> kept_until;
  };
  struct Room {
    GameRoom game;
    std::set<SessionId> spectators;
    std::optional<Timestamp> kept_until;  // an open game kept while its creator is away
  };
  class Ctx;

  void dispatch(Ctx& ctx, const protocol::ClientMessage& m);
  void on_hello(Ctx& ctx, const protocol::Hello& m);
  // Logs the session in as `name`. A login with a token keeps that token (`kept_token`);
  // any other issues a new one, and the old one stops working.
  void login(Ctx& ctx, const std::string& name, bool bot, std::optional<std::string> new_hash,
             std::optional<std::string> kept_token = std::nullopt);
  void on_create(Ctx& ctx, const protocol::Create& m);
  void on_list(Ctx& ctx);
  void on_join(Ctx& ctx, const protocol::Join& m);
  void on_watch(Ctx& ctx, const protocol::Watch& m);
  void on_leave(Ctx& ctx, const protocol::Leave& m);
  void on_game_request(Ctx& ctx, const std::string& game, const protocol::ClientMessage& m);
  void on_rematch(Ctx& ctx, const protocol::Rematch& m);
  void on_chat(Ctx& ctx, const protocol::ChatSend& m);
  void on_seek(Ctx& ctx, const protocol::Seek& m);
  void on_challenge(Ctx& ctx, const protocol::ChallengeSend& m);
  void on_accept(Ctx& ctx, const protocol::Accept& m);
  void on_decline(Ctx& ctx, const protocol::Decline& m);
  void on_players(Ctx& ctx);
  void on_history(Ctx& ctx, const protocol::HistoryRequest& m);
  void on_record(Ctx& ctx, const protocol::RecordRequest& m);
  void on_leaderboard(Ctx& ctx, const protocol::LeaderboardRequest& m);

  // Tournaments (lobby_tournaments.cpp).
  void restore_tournament(const TournamentRow& row);
  // Whether this player may create a tournament: every player where the host allows it,
  // otherwise nobody yet. The place where moderator and admin roles will say yes.
  bool may_create_tournament(const PlayerState& p) const;
  void on_tournament_create(Ctx& ctx, const protocol::TournamentCreate& m);
  void on_tournaments(Ctx& ctx);
  void on_tournament_show(Ctx& ctx, const protocol::TournamentShow& m);
  void on_tournament_join(Ctx& ctx, const protocol::TournamentJoin& m);
  void on_tournament_withdraw(Ctx& ctx, const protocol::TournamentWithdraw& m);
  Tournament* find_tournament(Ctx& ctx, std::int64_t id);
  // Starts, pairs, starts the games of and ends tournaments as their time comes.
  void tick_tournaments(Ctx& ctx);
  // Scores a finished game of a tournament (called from finish).
  void tournament_game_over(Ctx& ctx, const Room& room);
  // Stores the tournament and tells its players and watchers.
  void tournament_changed(Ctx& ctx, const Tournament& t);
  protocol::TournamentSummary tournament_summary(const Tournament& t) const;
  protocol::TournamentInfo tournament_info(const Tournament& t) const;

  Room* find_room(Ctx& ctx, const std::string& game, bool allow_private = true);
  Expected<RuleVariant, std::string> variant(const std::string& name);
  PlayerInfo info_of(const PlayerState& p) const;
  // Creates a game between two players and starts it.
  void start_game(Ctx& ctx, GameSettings settings, const std::string& white,
                  const std::string& black, Instant now);
  void start_room(Ctx& ctx, Room& room);
  void route(Ctx& ctx, Room& room, RoomOutput out);
  void finish(Ctx& ctx, Room& room, protocol::End* end);
  std::vector<SessionId> audience(const Room& room, Audience to) const;
  void cancel_open_game(Ctx& ctx, GameId id);
  // When an offer with this lifetime request and time control expires; nullopt when it is not
  // kept (goes with its creator's connection). Refuses a bad lifetime with an error.
  Expected<std::optional<Timestamp>, std::string> offer_expiry(
      const Ctx& ctx, const std::optional<std::int64_t>& lifetime, const TimeControl& time) const;
  void restore_offer(const OfferRow& row);
  void expire_offers(Ctx& ctx);
  void remove_seek(Ctx& ctx, std::vector<SeekEntry>::iterator it);
  bool holds_offers(const std::string& name) const;
  std::size_t correspondence_games(const std::string& name) const;
  protocol::YourTurn your_turn(const std::string& name, Instant now) const;
  // Tells `name`, if online, every game in which they are to move.
  void tell_turns(Ctx& ctx, const std::string& name);
  void drop_challenges_of(Ctx& ctx, const std::string& player);
  PlayerState& player(const std::string& name) { return players_.at(name); }
  std::optional<SessionId> session_of(const std::string& name) const;
  Color random_color();

  // Moderation (lobby_moderation.cpp).
  void on_moderation(Ctx& ctx, const protocol::ClientMessage& m);
  // Refuses a banned address (at connect) or a banned or unknown name (at hello, when
  // registrations are closed) with the reason; true when refused.
  bool refuse_address(Ctx& ctx, SessionId session, const std::string& address);
  bool refuse_hello(Ctx& ctx, const std::string& name);
  // Refuses chat from a muted player; otherwise keeps the line and returns its id.
  std::optional<std::int64_t> admit_chat(Ctx& ctx, const std::string& game,
                                         const std::string& text);

  LobbyConfig config_;
  std::map<SessionId, SessionState> sessions_;
  std::map<std::string, PlayerState> players_;
  std::map<GameId, Room> rooms_;
  std::set<GameId> clocked_;                              // running games with a clock
  std::deque<std::pair<Millis, GameId>> finished_order_;  // finished games, oldest first
  std::vector<SeekEntry> seeks_;
  std::map<std::string, ChallengeEntry> challenges_;
  std::map<std::string, RuleVariant> variants_;
  GameId next_game_id_ = 1;
  std::uint64_t next_challenge_ = 1;
  std::uint64_t next_seek_ = 1;
  Millis next_expiry_check_{0};
  std::mt19937_64 rng_;
  std::vector<std::string> restore_problems_;
  ModerationState moderation_;
  std::map<TournamentId, Tournament> tournaments_;
  std::map<GameId, TournamentId> tournament_games_;  // games of a tournament still played
  std::map<TournamentId, std::set<SessionId>> tournament_watchers_;
  TournamentId next_tournament_id_ = 1;
};

}  // namespace amazons::server
