// A game played on this computer (against the computer, or two people at this terminal): a
// client::GameSession runs it; this is the game screen's view of it.
#include <random>

#include "client/computer_game.h"
#include "client/game_session.h"
#include "tui/app.h"
#include "tui/game_screen.h"

namespace amazons::tui {

namespace {

class LocalSource final : public GameSource {
 public:
  LocalSource(App& app, std::unique_ptr<client::GameSession> session)
      : app_(app), session_(std::move(session)) {
    // Your own side at the bottom: Black when only Black is played here.
    flipped_ = session_->is_human(Color::Black) && !session_->is_human(Color::White);
  }

  void poll(SteadyTime) override {
    for (client::GameEvent& event : session_->poll()) std::visit([&](auto& e) { on(e); }, event);
  }
  const client::GameViewModel* view() const override { return vm_ ? &*vm_ : nullptr; }
  bool can_move() const override { return vm_ && vm_->human_to_move() && request_; }
  bool play(Move m) override {
    if (!can_move() || !session_->play(vm_->to_move(), *request_, m)) return false;
    request_.reset();
    return true;
  }
  bool flipped() const override { return flipped_; }

  std::optional<std::string> command(const std::string& word, const std::string&) override {
    if (word == "resign") {
      if (!vm_ || !vm_->human_to_move()) return app_.tr()("tui.game.resign_own_turn");
      session_->resign(vm_->to_move());
      return std::nullopt;
    }
    if (word == "abort") {
      if (!vm_ || !vm_->running()) return app_.tr()("game.status.over");
      session_->abort();
      return std::nullopt;
    }
    if (word == "menu" || word == "q" || word == "quit") {
      const bool running = vm_ && vm_->running() && !vm_->moves().empty();
      session_->leave();
      if (running) app_.notify(app_.tr()("tui.game.saved"));
      app_.show(make_menu_screen(app_));
      return std::nullopt;
    }
    if (word == "rematch") {
      if (!vm_ || vm_->running()) return app_.tr()("tui.game.rematch_finished");
      client::SessionSetup setup;
      setup.game = client::rematch_record(session_->setup_record());
      setup.store = app_.store();
      std::random_device rd;
      if (auto problem = client::add_computer_players(setup, app_.computer().config,
                                                      (std::uint64_t{rd()} << 32) | rd()))
        return app_.tr()("tui.game.no_rematch", {{"problem", *problem}});
      app_.show(make_local_game_screen(app_, std::move(setup)));
      return std::nullopt;
    }
    if (word == "replay") {
      if (!record_) return app_.tr()("tui.game.replay_finished");
      app_.show(
          make_replay_screen(app_, *record_, [&app = app_] { return make_menu_screen(app); }));
      return std::nullopt;
    }
    return app_.tr()("tui.game.unknown_command", {{"word", word}, {"commands", join_commands()}});
  }

  std::vector<std::string> commands() const override {
    if (!vm_) return {":menu"};
    if (!vm_->running()) return {":rematch", ":replay", ":menu"};
    std::vector<std::string> out;
    if (vm_->human_to_move()) out.push_back(":resign");
    if (vm_->moves().size() < 2) out.push_back(":abort");
    out.push_back(":menu");
    return out;
  }

  std::string status_line() const override { return problem_; }
  bool status_is_problem() const override { return !problem_.empty(); }

 private:
  std::string join_commands() const {
    std::string out;
    for (const std::string& c : commands()) out += (out.empty() ? "" : " ") + c;
    return out;
  }

  void on(client::GameStartedEvent& e) { vm_.emplace(e.start, session_->humans()); }
  void on(client::TurnEvent& e) {
    if (vm_) vm_->on_turn(e.to_move, e.clock, e.at);
  }
  void on(client::MoveEvent& e) {
    if (vm_) vm_->on_move(e.after, e.move, e.mover, e.at);
    request_.reset();
  }
  void on(client::HumanTurnEvent& e) {
    if (vm_ && vm_->to_move() == e.color) request_ = e.request;
  }
  void on(client::GameEndEvent& e) {
    if (vm_) vm_->on_end(e.result, e.detail, e.at);
    request_.reset();
    record_ = e.record;
  }
  void on(client::StorageProblemEvent& e) { problem_ = e.message; }

  App& app_;
  std::unique_ptr<client::GameSession> session_;
  std::optional<client::GameViewModel> vm_;
  std::optional<std::uint64_t> request_;
  std::optional<GameRecord> record_;
  std::string problem_;
  bool flipped_ = false;
};

}  // namespace

std::unique_ptr<Screen> make_local_game_screen(App& app, client::SessionSetup setup) {
  auto session = client::GameSession::start(std::move(setup));
  if (!session) {
    app.notify(app.tr()("tui.game.cannot_start", {{"error", session.error()}}), true);
    return make_menu_screen(app);
  }
  return make_game_screen(app, std::make_unique<LocalSource>(app, std::move(session).value()));
}

}  // namespace amazons::tui
