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
#include "server/core/auth_budget.h"
#include "server/core/game_room.h"
#include "server/core/id_source.h"
#include "server/core/lobby_effects.h"
#include "server/core/moderation.h"
#include "server/core/offers.h"
#include "server/core/rate_limiter.h"
#include "server/core/session_id.h"
#include "server/core/storage.h"
#include "server/core/tournament.h"

namespace amazons::server {

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
  // Kept offers (open games, seeks and challenges that outlive their connection) standing from
  // one address, and of those the challenges to any one player: past these a new kept offer is
  // refused (rate_limited) and not delivered, so that a flood cannot stay for weeks in the lobby
  // or in one player's challenges (issue 35). Offers read back after a restart count for no
  // address: the address is not stored.
  std::size_t max_kept_offers_per_address = 200;
  std::size_t max_kept_challenges_per_player = 20;
  // Open reports filed from one address (under any names), and open reports on one player:
  // past either a report is refused (rate_limited), so that throwaway names from one address
  // cannot bury the moderators or one player under reports (issue 35).
  std::size_t max_open_reports_per_address = 20;
  std::size_t max_open_reports_per_target = 50;
  // Failed invite codes, server passwords and account passwords from one address, across its
  // connections (limits.auth_failures_burst, limits.auth_failures_per_minute): past the budget
  // an attempt is refused with rate_limited and not checked (issue 35).
  AuthBudgetSettings auth_budget;
  // Passwords from one address being hashed or checked at once (queued or running on the
  // password threads): past it a password hello waits in its address's own queue (on a cluster's
  // node it is refused, rate_limited), so that wrong passwords from a few addresses cannot make
  // everyone else's login wait behind them (issue 35: 48 queued wrong passwords from three
  // addresses delayed an honest login 3 s).
  std::size_t max_password_checks_per_address = 1;
  std::size_t max_list = 200;  // games in one list reply
  // Whether every player may create tournaments (limits.players_create_tournaments); when not,
  // only moderators may (see Lobby::may_create_tournament).
  bool players_create_tournaments = false;
  // Take passwords over connections that are not private (plain TCP from another machine).
  bool allow_plain_passwords = false;
  // Set: this lobby is one node of a cluster (docs/SCALING.md) with this name. It runs only the
  // games and challenges it holds the leases of, asks the cluster (Effects::cluster) for what all
  // nodes share, and talks to players on other nodes through remote sessions.
  std::optional<std::string> node;
};

// What the network layer knows of a connection that the lobby's rules depend on.
struct ConnectionInfo {
  // Nobody between the client and us can read what it sends: TLS, or a trusted local address.
  // Passwords are taken only over such connections (unless allow_plain_passwords).
  bool private_channel = true;
  std::string address;  // the peer's IP address, for address bans; empty when unknown
};

// The one answer to a game id that names no game the asker may see: the same for an id never
// used and for a private game without its code, on every request that takes a game id, so that
// an id tells nothing of a private game (docs/PROTOCOL.md "Private games").
std::string no_game_message(std::string_view game);

// The effects of one request being made (lobby_context.h, private to the lobby's files).
class LobbyContext;

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

  // ---- cluster mode (lobby_cluster.cpp); a lobby without LobbyConfig::node gets none of it ----
  // A request from a session of another node, for a game or challenge this node runs. The
  // session is logged in here as `player` (its node checked who it is).
  Effects remote_request(const RemoteSession& from, const RemotePlayer& player,
                         std::string_view line, Instant now);
  // A player of another node who sits in `game`: sends them its state, counts them online.
  Effects remote_attach(const RemoteSession& from, const RemotePlayer& player, GameId game,
                        Instant now);
  // A session of this node whose player sits in `game`, which this node has come to run (a
  // takeover that finished after their login): sends them its state, counts them online.
  Effects resume_seat(SessionId session, GameId game, Instant now);
  // The remote session is gone (closed, or logged in elsewhere).
  Effects remote_detach(const RemoteSession& from, Instant now);
  // A node left the cluster or died: every remote session of it is gone.
  Effects node_gone(const std::string& node, Instant now);
  // Another node logged this session's player in: the session is told and closed.
  Effects replaced(SessionId session, Instant now);
  // Another node's moderator decided `event`: this node applies it (closes its own sessions of
  // a banned or kicked player, or of a banned address).
  Effects moderated(const ModerationEvent& event, Instant now);
  // `node` says in which of its games this node's `session` is to move (TurnsElsewhere): the
  // session is sent its `your_turn` again, every node's games in it.
  Effects remote_turns(const std::string& node, SessionId session, const protocol::YourTurn& turns,
                       int correspondence, Instant now);
  Effects complete_login(const LoginOutcome& outcome, Instant now);
  Effects complete_seek(const SeekOutcome& outcome, Instant now);
  // The lease of a game or challenge this node runs: taken with `token` (its writes are fenced
  // with it from now on), or lost (another node runs it now, or Redis could not be reached in
  // time): the game is dropped here, and its players and spectators are closed so that they
  // come back to the node that runs it.
  void lease_taken(const std::string& key, std::int64_t token);
  Effects lease_lost(const std::string& key, Instant now);
  // A game taken over from the database after its node died (Storage::take_game).
  Effects adopt(const StoredGame& game, std::int64_t token, Instant now);
  // A kept open game or challenge taken over from the offers table after its node died (the
  // owner's row as stored, if any): this node runs it from now on, until it is taken,
  // withdrawn or expires. A kept seek (cluster_seek_id) that waits in no pairing queue any more
  // is put back there through this node.
  Effects adopt_offer(const OfferRow& offer, const std::optional<PlayerRow>& owner,
                      std::int64_t token, Instant now);
  // A tournament taken over from its row (its director died, or nobody directed it since a
  // restart): this node directs it from now on, pairs it and scores its games.
  Effects adopt_tournament(const TournamentRow& row, Instant now);
  // The answers to ClusterEffects::read_players and read_games: players' rows as stored (a name
  // never stored is left out), and game rows, whose results score the tournament games.
  Effects tournament_reads(const std::vector<PlayerRow>& players, const std::vector<GameRow>& games,
                           Instant now);
  // Game ids reserved in the shared database for this node: first .. first + count - 1.
  void add_game_ids(GameId first, int count);
  // Whether this node reaches the cluster (Redis): while not, nothing new is started here (it
  // could not take the lease), and requests that need the cluster are refused with
  // `unavailable`.
  void set_cluster_ready(bool ready) { cluster_ready_ = ready; }
  // The other nodes' lobbies, as their directory messages say. A player there whom a kept
  // challenge held here waits for is sent it (once per connection).
  Effects set_peer(const std::string& node, PeerView view, Instant now);
  void forget_peer(const std::string& node);
  // This node's part of the directory, for the others.
  PeerView directory() const;
  // Where a remote session is; nullopt for this node's own sessions.
  std::optional<RemoteSession> remote_of(SessionId session) const;
  // Who a session of this node is logged in as, as another node is told it.
  std::optional<RemotePlayer> player_of(SessionId session) const;
  // The keys this node runs, with their fencing tokens (0: lease not taken yet).
  std::vector<std::pair<std::string, std::int64_t>> held_keys() const;
  // Whether the lobby runs `game` (cluster mode: holds it).
  bool runs(GameId game) const { return rooms_.contains(game); }

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
  // Cluster mode: what another node last said of a session's correspondence games there.
  struct GamesElsewhere {
    std::vector<protocol::TurnInfo> turns;  // to move in; left_ms as of `received`
    Millis received{0};
    int correspondence = 0;
  };
  struct SessionState {
    std::optional<std::string> player;
    bool hello_pending = false;
    ConnectionInfo connection;
    // address_group(connection.address): what every per-address limit counts it against.
    std::string group;
    std::set<GameId> watching;
    RateLimiter requests;
    RateLimiter errors;
    RateLimiter chat;
    // Cluster mode. A session of this node: its games on other nodes, by node. A remote session:
    // how many correspondence games its node says the player has in all.
    std::map<std::string, GamesElsewhere> elsewhere = {};
    int reported_correspondence = 0;
  };
  struct PlayerState {
    PlayerRow row;
    std::optional<SessionId> session;
    std::set<GameId> seats;  // games in progress
    std::set<GameId> open;   // open games created and not yet joined
  };
  struct Room {
    GameRoom game;
    std::set<SessionId> spectators;
    std::optional<Timestamp> kept_until;  // an open game kept while its creator is away
    std::int64_t token = 0;    // cluster mode: the fencing token of its lease (0 until taken)
    std::string address = {};  // an open game: where it came from (empty: unknown or restored)
  };
  using Ctx = LobbyContext;

  void dispatch(Ctx& ctx, const protocol::ClientMessage& m);
  // The name of the player who asked (a request past dispatch's hello check has one).
  const std::string& requester_name(const Ctx& ctx) const;
  // Whether the requester's address may keep one more offer (a challenge to `challenged`, if
  // set), under max_kept_offers_per_address and max_kept_challenges_per_player; why not, if
  // not. With `replaces_own_seek` the requester's own seek is not counted (a new seek replaces
  // it). Unknown addresses are not capped.
  Expected<void, std::string> may_keep_offer(const Ctx& ctx,
                                             const std::optional<std::string>& challenged,
                                             bool replaces_own_seek = false) const;
  // The guessing budget of the requester's address (auth_budget_): true when an attempt at a
  // secret (`what`: "invite", "server_password", "password") is over it, and then it has been
  // answered with rate_limited (`game`, if any, named in the error) and nothing is to be checked.
  bool over_auth_budget(Ctx& ctx, const char* what, std::optional<std::string> game = {});
  // A secret from the requester's address was wrong.
  void auth_failed(const Ctx& ctx);
  // Logs the session in as `name`. A login with a token keeps that token (`kept_token`);
  // any other issues a new one, and the old one stops working.
  // `elsewhere`: in cluster mode, the unfinished games of theirs that other nodes run.
  void login(Ctx& ctx, const std::string& name, bool bot, std::optional<std::string> new_hash,
             std::optional<std::string> kept_token = std::nullopt,
             const std::vector<GameId>& elsewhere = {});

  // One handler a request: dispatch calls the `on` of the request's type once the checks that
  // hold for every request have passed (hello first, a playable clock, the node that runs what
  // it names, moderators only). Adding a request to the protocol is adding its `on`: one that
  // has none does not compile.
  void on(Ctx& ctx, const protocol::Ping& m);  // lobby.cpp
  void on(Ctx& ctx, const protocol::Pong& m);
  void on(Ctx& ctx, const protocol::Hello& m);  // lobby_players.cpp
  void on(Ctx& ctx, const protocol::Players& m);
  void on(Ctx& ctx, const protocol::Turns& m);
  void on(Ctx& ctx, const protocol::Create& m);  // lobby_games.cpp
  void on(Ctx& ctx, const protocol::List& m);
  void on(Ctx& ctx, const protocol::Join& m);
  void on(Ctx& ctx, const protocol::Watch& m);
  void on(Ctx& ctx, const protocol::Leave& m);
  void on(Ctx& ctx, const protocol::MoveMsg& m);
  void on(Ctx& ctx, const protocol::Resign& m);
  void on(Ctx& ctx, const protocol::Abort& m);
  void on(Ctx& ctx, const protocol::Claim& m);
  void on(Ctx& ctx, const protocol::Rematch& m);
  void on(Ctx& ctx, const protocol::ChatSend& m);
  void on(Ctx& ctx, const protocol::Seek& m);  // lobby_offers.cpp
  void on(Ctx& ctx, const protocol::Unseek& m);
  void on(Ctx& ctx, const protocol::ChallengeSend& m);
  void on(Ctx& ctx, const protocol::Accept& m);
  void on(Ctx& ctx, const protocol::Decline& m);
  void on(Ctx& ctx, const protocol::HistoryRequest& m);  // lobby_archive.cpp
  void on(Ctx& ctx, const protocol::RecordRequest& m);
  void on(Ctx& ctx, const protocol::LeaderboardRequest& m);
  void on(Ctx& ctx, const protocol::TournamentCreate& m);  // lobby_tournaments.cpp
  void on(Ctx& ctx, const protocol::TournamentsRequest& m);
  void on(Ctx& ctx, const protocol::TournamentShow& m);
  void on(Ctx& ctx, const protocol::TournamentJoin& m);
  void on(Ctx& ctx, const protocol::TournamentWithdraw& m);
  void on(Ctx& ctx, const protocol::Report& m);  // lobby_moderation.cpp
  void on(Ctx& ctx, const protocol::Mute& m);
  void on(Ctx& ctx, const protocol::Unmute& m);
  void on(Ctx& ctx, const protocol::Kick& m);
  void on(Ctx& ctx, const protocol::Ban& m);
  void on(Ctx& ctx, const protocol::Unban& m);
  void on(Ctx& ctx, const protocol::Adjudicate& m);
  void on(Ctx& ctx, const protocol::RemoveChat& m);
  void on(Ctx& ctx, const protocol::AuditRequest& m);
  void on(Ctx& ctx, const protocol::SanctionsRequest& m);
  void on(Ctx& ctx, const protocol::ReportsRequest& m);
  void on(Ctx& ctx, const protocol::Resolve& m);
  // A move, resign, abort or claim: handed to the game, from the requester's seat in it.
  void seated_request(Ctx& ctx, const std::string& game, const protocol::ClientMessage& m);

  // Tournaments (lobby_tournaments.cpp).
  void restore_tournament(const TournamentRow& row);
  // Whether this player may create a tournament: every player where the host allows it,
  // otherwise nobody yet. The place where moderator and admin roles will say yes.
  bool may_create_tournament(const PlayerState& p) const;
  Tournament* find_tournament(Ctx& ctx, std::int64_t id);
  // Starts, pairs, starts the games of and ends tournaments as their time comes.
  void tick_tournaments(Ctx& ctx);
  // Scores a finished game of a tournament (called from finish, and for a game another node ran,
  // from its stored row).
  void tournament_game_over(Ctx& ctx, GameId game, const std::optional<GameResult>& result);
  // Cluster mode: makes sure the players of a pairing about to start are known here (reached on
  // their node, or their rows asked for); true when both are.
  bool ready_to_pair(Ctx& ctx, const Pairing& p);
  // Cluster mode: the games of this node's tournaments that other nodes run, to look up.
  void check_tournament_games(Ctx& ctx);
  // Stores the tournament and tells its players and watchers.
  void tournament_changed(Ctx& ctx, const Tournament& t);
  protocol::TournamentInfo tournament_info(const Tournament& t) const;

  // The room of `game` when the requester may see it: a public game, or a private one in which
  // they sit or which they watch, or whose code is `invite` (or any game for a moderator, with
  // `moderating`). Otherwise answers no_game_message and returns nullptr.
  Room* find_room(Ctx& ctx, const std::string& game,
                  const std::optional<std::string>& invite = std::nullopt, bool moderating = false);
  // A fresh number for a game, challenge, report or tournament (ids_); 0 when there is none to
  // give (a node cut off from its cluster, or its block used up: it asks for another).
  std::int64_t new_id(Ctx& ctx, IdSource::Kind kind);
  std::string no_id_reason() const;  // why new_id gave none
  // Adds a write of a room's game row or move; in cluster mode fenced with the room's token.
  void write_game(Ctx& ctx, const Room& room, StorageWrite write);

  // Cluster mode (lobby_cluster.cpp).
  bool clustered() const { return config_.node.has_value(); }
  // In cluster mode, a request naming a game or challenge this node does not run goes to the
  // node that does: true when it was handed on (or bounced back to a remote requester).
  bool hand_on(Ctx& ctx, const std::string& key, const protocol::ClientMessage& m);
  // The session here for a remote one, logging it in as `player` the first time.
  SessionId remote_session(Ctx& ctx, const RemoteSession& from, const RemotePlayer& player);
  // A session for `name`: their own if connected here, or a remote one if another node says
  // they are connected there.
  std::optional<SessionId> reach(Ctx& ctx, const std::string& name);
  void login_clustered(Ctx& ctx, const protocol::Hello& m);
  void seek_clustered(Ctx& ctx, const protocol::Seek& m, std::optional<Timestamp> kept_until);
  // Drops a room without ending its game (its lease is lost): its sessions are closed, so that
  // they come back to the node that runs it now.
  void drop_room(Ctx& ctx, GameId id);
  Expected<RuleVariant, std::string> variant(const std::string& name);
  PlayerInfo info_of(const PlayerState& p) const;
  // Creates a game between two players and starts it.
  // Returns its id, 0 when it could not (the requester was told why).
  GameId start_game(Ctx& ctx, GameSettings settings, const std::string& white,
                    const std::string& black, Instant now);
  // The open and running public games this lobby runs, as `list` shows them.
  std::vector<protocol::GameSummary> listed_games() const;
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
  // A seek taken out of the list: its row too, if it was kept.
  void remove_seek_row(Ctx& ctx, const SeekEntry& seek);
  bool holds_offers(const std::string& name) const;
  // Correspondence games `name` plays: here, and in cluster mode on the other nodes as far as
  // this node has been told.
  std::size_t correspondence_games(const std::string& name) const;
  std::size_t correspondence_games_here(const std::string& name) const;
  // Every game in which `name` is to move: here, and for a session of this node in a cluster,
  // on the other nodes.
  protocol::YourTurn your_turn(const std::string& name, Instant now) const;
  // Tells `name`, if online, every game in which they are to move (a player of another node:
  // tells their node, which merges them with the rest of theirs).
  void tell_turns(Ctx& ctx, const std::string& name);
  // After a correspondence game of `room` started, moved or ended: the player to move is told,
  // and in cluster mode every player of another node in it (their lists and counts changed).
  void tell_seats(Ctx& ctx, const Room& room);
  // How another node is to see this node's player.
  RemotePlayer as_remote(const PlayerState& p) const;
  // The newest remote session of `name` other than `except`, if another node still has one here.
  std::optional<SessionId> other_remote_session(const std::string& name, SessionId except) const;
  protocol::ChallengeReceived challenge_received(const std::string& id,
                                                 const ChallengeEntry& c) const;
  PlayerState& player(const std::string& name) { return players_.at(name); }
  // The player's entry, made (and indexed by its canonical form) if new. Every entry of
  // players_ is made here, so that look_alike_taken sees it.
  PlayerState& player_entry(const std::string& name);
  // Another name with the canonical form of `name` (server/core/canonical_name.h) that is taken: a
  // registered account, or a name in use (connected, seated, or holding offers). Nullopt when
  // `name` may be used. A name that is itself registered or in use is never refused by this: two
  // look-alike accounts made before names were compared so both keep working.
  std::optional<std::string> look_alike_taken(const std::string& name) const;
  bool name_in_use(const std::string& name, const PlayerState& p) const;
  // Answers name_taken, naming the look-alike.
  void refuse_look_alike(Ctx& ctx, const std::string& other);
  std::optional<SessionId> session_of(const std::string& name) const;
  Color random_color();

  // Moderation (lobby_moderation.cpp).
  // Writes a line of the audit log: the requester did `action` to `target`.
  void audit(Ctx& ctx, std::string action, std::string target, std::string reason,
             std::optional<std::int64_t> seconds = std::nullopt);
  // Every other node of a cluster applies what this one decided.
  void tell_nodes(Ctx& ctx, ModerationEvent event);
  // Whether a request may name `name` as a player who exists (a sanction, a report, a kept
  // challenge, a history): a player known here, or on a cluster any well-formed name, since a
  // node knows only the players it has seen (the database holds them all).
  bool known_player(const std::string& name) const;
  // A known player whom the requester outranks; answered with the reason when not.
  bool may_sanction(Ctx& ctx, const std::string& name);
  // Refuses a banned address (at connect) or a banned or unknown name (at hello, when
  // registrations are closed) with the reason; true when refused.
  bool refuse_address(Ctx& ctx, SessionId session, const std::string& address);
  bool refuse_hello(Ctx& ctx, const std::string& name);
  // Closes this node's sessions that a ban (of a name or an address) shuts out; `remote` too
  // counts sessions of other nodes known here.
  void enforce_ban(Ctx& ctx, const SanctionRow& row, bool remote);
  // Whether `name` is online anywhere: here, or in another node's directory.
  bool online_anywhere(const std::string& name) const;
  // Refuses chat from a muted player; otherwise keeps the line and returns its id.
  std::optional<std::int64_t> admit_chat(Ctx& ctx, const std::string& game,
                                         const std::string& text);

  LobbyConfig config_;
  std::map<SessionId, SessionState> sessions_;
  std::map<std::string, PlayerState> players_;
  std::multimap<std::string, std::string> look_alikes_;  // canonical form -> names in players_
  std::map<GameId, Room> rooms_;
  std::set<GameId> clocked_;                              // running games with a clock
  std::deque<std::pair<Millis, GameId>> finished_order_;  // finished games, oldest first
  Offers offers_;
  std::map<std::string, RuleVariant> variants_;
  IdSource ids_;
  Millis next_expiry_check_{0};
  std::mt19937_64 rng_;
  std::vector<std::string> restore_problems_;
  Moderation moderation_;
  AuthBudget auth_budget_;
  // Password jobs (PasswordJob, or a cluster's LoginJob with a password) not yet completed, by
  // address: their share of the password threads (max_password_checks_per_address).
  std::map<std::string, std::size_t> password_checks_;
  // Password jobs over their address's share, first come first served, until a check of that
  // address is answered. A job whose session has gone is dropped (disconnect).
  std::map<std::string, std::deque<PasswordJob>> password_waiting_;
  void password_check_done(const std::string& address);
  // Hands `job` to the password threads within its address's share, or makes it wait.
  void queue_password_job(Ctx& ctx, PasswordJob job);
  // The waiting jobs of `address` that its share now has room for.
  Effects start_waiting_password_jobs(const std::string& address, Instant now);
  Millis next_budget_sweep_{0};
  std::map<TournamentId, Tournament> tournaments_;
  std::map<GameId, TournamentId> tournament_games_;  // games of a tournament still played
  std::map<TournamentId, std::set<SessionId>> tournament_watchers_;
  // Cluster mode: players whose rows were asked for (read_players), and when the games of the
  // tournaments directed here that other nodes run are looked up next.
  std::set<std::string> reading_players_;
  Millis next_tournament_check_{0};

  // Cluster mode.
  std::map<SessionId, RemoteSession> remote_;
  std::map<RemoteSession, SessionId> remote_ids_;
  SessionId next_remote_ = kFirstRemoteSession;
  std::map<std::string, PeerView> peers_;
  bool cluster_ready_ = true;
};

}  // namespace amazons::server
