// The desktop client's side of a server: one logged-in net::Connection, the lobby as the
// server shows it (open and live games, players online, incoming challenges, quick pairing),
// the games this account plays or watches, and the archive. Pure C++ without SFML: the tests
// drive it against a real amazons-server on loopback.
//
// Threads: the connection does its network work on a thread of its own and delivers by
// polling (net::Delivery::Poll). Every member function runs on one thread, the one that calls
// poll() (the render thread in the client, once a frame), and never blocks there.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/catalogue.h"
#include "client/online_game.h"
#include "client/settings.h"
#include "common/expected.h"
#include "common/game_record.h"
#include "common/protocol.h"
#include "net/address.h"
#include "net/connection.h"

namespace amazons::client {

// "host:port", "[::1]:7420", "tls://host:port" (net/address.h).
using net::parse_server_address;
using net::ServerAddress;
using net::to_string;

// One finished game of the archive, fetched in full.
struct ArchivedGame {
  std::string id;
  GameRecord record;
  std::string text;  // the record in the text notation (docs/GAME_RECORD.md)
};

// How the clients connect to `where` as the settings' name: TLS with the fingerprint the person
// pinned for that server, if any, and reconnecting at most 4 s apart.
net::ConnectionOptions connection_options(const Settings& settings, const ServerAddress& where,
                                          std::optional<std::string> password);
// The same for the nodes of a cluster ("a:7420,b:7420", at least one): the first as above, the
// others tried in turn after a failed connect or a drop; the first node's pin applies to all.
net::ConnectionOptions connection_options(const Settings& settings,
                                          const std::vector<ServerAddress>& nodes,
                                          std::optional<std::string> password);
using net::parse_server_addresses;
using net::read_server_addresses;
// The nodes as the server field shows them: host_port of each, separated by commas, with the
// scheme (tls://) once in front when `with_scheme` and it is not plain TCP.
std::string nodes_text(const std::vector<ServerAddress>& nodes, bool with_scheme);

// "alice (1500)", "amazons-bot (1612, bot)": a player as the lobby lists them.
std::string player_text(const Catalogue& t, const protocol::PlayerRef& p);

class OnlineClient {
 public:
  // Logs in as options.name (delivery is set to Poll). Nothing happens until start(). The
  // status and the notices are said in `tr`'s language; it must outlive the client (a client
  // whose catalogue changes language speaks the new one from then on).
  OnlineClient(net::ConnectionOptions options, const Catalogue& tr);
  ~OnlineClient();
  OnlineClient(const OnlineClient&) = delete;
  OnlineClient& operator=(const OnlineClient&) = delete;

  void start();
  // Runs what the network delivered since the last call. Never blocks.
  void poll();
  // The same, first waiting up to `timeout` for something (tests and tools, not the UI).
  void poll_for(Millis timeout);
  // How many events the network has delivered so far. Everything this client shows changes only
  // with one, so a screen drawn at one count need not draw again until the count moves.
  std::uint64_t news() const { return news_; }

  // ---- the connection ----
  net::ConnectionStatus status() const { return status_; }
  bool online() const { return status_ == net::ConnectionStatus::Online; }
  // For the person, in the catalogue's language: "Connecting to host:port...", "Connection
  // lost (the connection dropped). Reconnecting in 2 s...", "Online at host:port as alice
  // (1500)", "Disconnected: Wrong password, or your session has expired.".
  std::string status_text() const;
  // Closed for good: why, in English for the log (a refused login, or close()).
  const std::optional<std::string>& closed_reason() const { return closed_reason_; }
  // Closed for good: the error, when there was one (a Certificate one asks the person).
  const std::optional<net::ClientError>& closed_error() const { return closed_error_; }
  // What the connection was made with (to connect again, e.g. with a confirmed certificate).
  const net::ConnectionOptions& options() const { return connection_->options(); }
  const std::optional<protocol::Welcome>& welcome() const { return welcome_; }
  const std::string& name() const;
  const ServerAddress& address() const { return address_; }
  std::vector<OnlineNotice> take_notices();

  // ---- the lobby (refreshed by refresh(), and after every change this client makes) ----
  void refresh();
  std::vector<protocol::GameSummary> open_games() const;  // waiting for a second player
  std::vector<protocol::GameSummary> live_games() const;  // being played
  const std::vector<protocol::OnlinePlayer>& players() const { return players_; }
  const std::vector<protocol::ChallengeReceived>& challenges() const { return challenges_; }
  // The open game this account created and waits in, with its invite code when private.
  const std::optional<protocol::Created>& waiting_game() const { return waiting_; }
  const std::optional<protocol::Seeking>& seeking() const { return seeking_; }
  // Challenges this account sent that are still open: id -> the challenged player.
  const std::map<std::string, std::string>& sent_challenges() const { return sent_; }

  void create(const protocol::Create& c);
  void cancel_waiting();  // leaves the open game created here
  void join(const std::string& game, std::optional<std::string> invite = std::nullopt);
  void watch(const std::string& game, std::optional<std::string> invite = std::nullopt);
  void seek(const protocol::Seek& s);  // quick pairing
  void unseek();
  void challenge(const protocol::ChallengeSend& c);
  void accept(const std::string& challenge);
  void decline(const std::string& challenge);

  // ---- games ----
  // The game shown: the latest one started (played or watched) that the person has not left.
  OnlineGame* game() { return current_.empty() ? nullptr : find(current_); }
  // Forgets the shown game (watching stops); a game being played goes on at the server.
  void leave_game();
  // Games this account plays that are still running (also ones left for the lobby).
  std::vector<std::string> games_in_progress() const;
  // Shows one of them again.
  void show_game(const std::string& id);
  // Every game in which this account is to move, with the time left, as the server last said
  // (your_turn: at login, when a correspondence game becomes this account's move, on turns()).
  const std::vector<protocol::TurnInfo>& turns() const { return turns_; }
  // Asks the server for them again.
  void request_turns();

  // ---- tournaments (docs/PROTOCOL.md "Tournaments") ----
  // Running and coming ones first, then finished ones, as the server last listed them
  // (refreshed by refresh() and request_tournaments()).
  const std::vector<protocol::TournamentSummary>& tournaments() const { return tournaments_; }
  void request_tournaments();
  // Shows one tournament: the server sends it in full, and again on every change, until the
  // connection closes. tournament() holds the followed one once it came (nothing before).
  void follow_tournament(std::int64_t id);
  void unfollow_tournament();
  const std::optional<protocol::TournamentInfo>& tournament() const { return tournament_; }
  // A refusal (started, full, bots not allowed, ...) becomes an error notice with the reason.
  void join_tournament(std::int64_t id);
  void withdraw_tournament(std::int64_t id);

  // ---- moderation (docs/PROTOCOL.md "Moderation") ----
  // This account's role as the welcome said: Player unless the host granted more.
  protocol::Role role() const;
  bool moderates() const { return role() != protocol::Role::Player; }
  // Asks for the open reports, the bans and mutes in force and the latest audit lines.
  void request_moderation();
  const std::optional<protocol::ReportList>& reports() const { return reports_; }
  const std::optional<protocol::SanctionList>& sanctions() const { return sanctions_; }
  const std::optional<protocol::AuditLog>& audit() const { return audit_; }
  // A moderator's action (Mute, Unmute, Kick, Ban, Unban, Adjudicate, RemoveChat, Resolve):
  // "`what`: done." or the refusal as an error notice; the lists are asked for again after.
  // `what` is in the person's words ("Mute bob", said by the screen).
  void moderate(protocol::ClientMessage action, std::string what);
  // Any player: reports `player` to the moderators.
  void report_player(const std::string& player, const std::string& reason);

  // ---- the archive ----
  // Asks for a player's finished games (default: this account), newest first.
  void request_history(std::optional<std::string> player = std::nullopt, int limit = 50);
  const std::optional<protocol::History>& history() const { return history_; }
  // Fetches one game's record; archived() holds it when it came.
  void request_record(const std::string& game);
  const std::optional<ArchivedGame>& archived() const { return archived_; }
  void clear_archived() { archived_.reset(); }

  void close();

 private:
  void on_event(const net::ConnectionEvent& event);
  void on_message(const protocol::ServerMessage& message);
  OnlineGame* find(const std::string& id);
  OnlineGame& open_game(const std::string& id, bool seat);
  // Sends a request; a refusal becomes a notice starting with `what`; `done` runs on success.
  void request(protocol::ClientMessage message, std::string what,
               std::function<void(const protocol::ServerMessage&)> done = {});
  void notice(std::string text, bool error = false);
  // An error as a notice: `what` (in the person's words) failed, and why; for a refusal the
  // server's code and reason.
  void notice(const std::string& what, const net::ClientError& e);
  // The connection's error in the person's words.
  std::string why(const net::ClientError& e) const;

  const Catalogue* tr_;
  std::uint64_t news_ = 0;
  ServerAddress address_;
  std::string name_;
  std::unique_ptr<net::Connection> connection_;
  net::ConnectionStatus status_ = net::ConnectionStatus::Idle;
  std::optional<net::StatusEvent> last_status_;
  std::optional<std::string> closed_reason_;
  std::optional<net::ClientError> closed_error_;
  std::optional<protocol::Welcome> welcome_;
  std::deque<OnlineNotice> notices_;

  std::vector<protocol::GameSummary> games_;
  std::vector<protocol::OnlinePlayer> players_;
  std::vector<protocol::ChallengeReceived> challenges_;
  std::optional<protocol::Created> waiting_;
  std::optional<protocol::Seeking> seeking_;
  std::map<std::string, std::string> sent_;
  std::vector<protocol::TurnInfo> turns_;

  std::map<std::string, std::unique_ptr<OnlineGame>> games_held_;
  std::string current_;

  std::vector<protocol::TournamentSummary> tournaments_;
  std::optional<std::int64_t> followed_;
  std::optional<protocol::TournamentInfo> tournament_;

  std::optional<protocol::ReportList> reports_;
  std::optional<protocol::SanctionList> sanctions_;
  std::optional<protocol::AuditLog> audit_;

  std::optional<protocol::History> history_;
  std::optional<ArchivedGame> archived_;
};

}  // namespace amazons::client
