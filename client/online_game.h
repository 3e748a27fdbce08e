// One game on a server as the desktop client shows it: played (this account holds a seat) or
// watched. It mirrors the game from the server's messages into a GameViewModel, so the game
// screen shows online games as it shows local ones; in a played game a net::ServerGame drives
// the seat with a HumanPlayer, so moves are checked by the rules core before they go out and
// are resent after a dropped connection. The server is the authority: a move, ours too, shows
// when the server reports it; clocks and the result are the server's.
//
// Threads: everything here runs on the thread that polls the connection (the render thread in
// the client, see OnlineClient); the HumanPlayer is asked on the ServerGame's own thread and only
// records the request, which pending_request() reads.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/catalogue.h"
#include "client/game_view_model.h"
#include "client/human_player.h"
#include "client/premove.h"
#include "common/protocol.h"
#include "net/connection.h"
#include "net/server_game.h"

namespace amazons::client {

// A line for the person: a refusal from the server, a lost connection, a challenge declined.
struct OnlineNotice {
  std::string text;  // in the client's language (the OnlineClient's catalogue)
  bool error = false;
  // A refusal by the server: its code ("not_your_turn") and for an illegal move the rules'
  // reason (said in `text` by client/words.h error_text); else empty.
  std::string code;
  std::string reason;
  // For the log, in English: the server's own sentence, or the connection's error; else empty.
  std::string log;
};

struct ChatLine {
  std::string from;
  std::string text;
  friend bool operator==(const ChatLine&, const ChatLine&) = default;
};

class OnlineGame {
 public:
  // `seat`: this account plays in the game (else it watches). `me` is this account's name.
  // `link` and `tr` (the notices' language) must outlive the game.
  OnlineGame(std::string id, bool seat, std::string me, net::ServerLink& link, const Catalogue& tr);
  ~OnlineGame();
  OnlineGame(const OnlineGame&) = delete;
  OnlineGame& operator=(const OnlineGame&) = delete;

  // A message from the server; messages about other games are ignored.
  void handle(const protocol::ServerMessage& message);

  const std::string& id() const { return id_; }
  bool playing() const { return seat_; }
  // Played games: this account's colour, once started.
  std::optional<Color> color() const { return color_; }
  // Null until the server's start or state arrived.
  const GameViewModel* view() const { return vm_ ? &*vm_ : nullptr; }
  const std::optional<GameRecord>& start_record() const { return record_; }
  bool finished() const { return vm_ && !vm_->running(); }
  // Ratings after a rated game: "+12" for each colour, when the server sent them.
  const std::optional<protocol::End>& end() const { return end_; }

  // The request the person may answer now with a move, if any (it follows the server's game).
  std::optional<std::uint64_t> pending_request() const;
  // Answers that request; false when it is no longer pending. The move shows when the server
  // reports it.
  bool play(std::uint64_t request, Move move);
  // Premoves (client/premove.h), played games only. The premove of this account's seat while
  // the opponent is to move; false when it is not the opponent's turn or the move is not legal
  // against the position as it stands.
  bool set_premove(Move move);
  bool cancel_premove();
  const Premove& premove() const { return premove_; }
  // Call while pending_request() holds (the opponent's move has arrived and the seat is asked):
  // sends the pending premove if it is still legal and returns it; drops it with a notice
  // ("Premove ... dropped: ...") if not. Nullopt when nothing was sent.
  std::optional<Move> play_premove();
  // Requests to the server; refusals come back as notices.
  void resign();
  void abort();
  void offer_rematch();
  void send_chat(const std::string& text);
  // Stops watching (spectators); nothing for players, whose games go on without the screen.
  void leave();

  const std::vector<ChatLine>& chat() const { return chat_; }
  // The opponent's seat (or either seat, when watching) whose player is disconnected.
  const std::vector<Color>& offline() const { return offline_; }
  // Who offered a rematch of this game, if anyone; whether this account offered one.
  const std::optional<std::string>& rematch_offer() const { return rematch_from_; }
  bool rematch_offered() const { return rematch_sent_; }
  int spectators() const { return spectators_; }
  // Sentences for the person in the catalogue's language (a refused request, a resync); taken
  // once.
  std::vector<OnlineNotice> take_notices();

 private:
  class Observer;
  void begin(const std::string& rules_name, const nlohmann::json& variant,
             const protocol::PlayerRef& white, const protocol::PlayerRef& black,
             const TimeControl& time, std::optional<Color> color);
  void on_state(const protocol::State& s);
  void apply(const std::string& text, const std::optional<protocol::ClockView>& clock);
  void set_clock(const std::optional<protocol::ClockView>& clock);
  void request(protocol::ClientMessage message, std::string what);

  const std::string id_;
  const bool seat_;
  const std::string me_;
  net::ServerLink& link_;
  const Catalogue& tr_;
  std::unique_ptr<Observer> observer_;
  std::unique_ptr<HumanPlayer> human_;
  std::unique_ptr<net::ServerGame> driver_;  // after human_: destroyed before it

  std::optional<GameViewModel> vm_;
  std::optional<GameRecord> record_;  // rules, players, time control of the game
  std::optional<Color> color_;
  std::optional<protocol::End> end_;
  std::vector<ChatLine> chat_;
  std::vector<Color> offline_;
  std::optional<std::string> rematch_from_;
  bool rematch_sent_ = false;
  int spectators_ = 0;
  std::vector<OnlineNotice> notices_;
  Premove premove_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace amazons::client
