#include "client/game_session.h"

#include "common/position_text.h"

namespace amazons::client {

GameRecord rematch_record(const GameRecord& played) {
  GameRecord r = played;
  std::swap(r.white, r.black);
  r.moves.clear();
  r.result.reset();
  r.started_at.reset();
  r.ended_at.reset();
  return r;
}

class GameSession::Observer final : public GameObserver {
 public:
  explicit Observer(GameSession& s) : s_(s) {}

  void on_start(const GameStart& start) override { s_.events_.push(GameStartedEvent{start}); }

  void on_turn(Color to_move, const ClockState& clock) override {
    s_.events_.push(TurnEvent{to_move, clock, std::chrono::steady_clock::now()});
  }

  void on_move(const Position& after, const RecordedMove& m, Color mover) override {
    // The moves of a resumed game come back first as the opening; they are saved already.
    if (seen_++ >= s_.resumed_moves_) {
      s_.record_.moves.push_back(m);
      if (s_.store_)
        if (auto problem = s_.store_->save_unfinished(s_.record_))
          s_.events_.push(StorageProblemEvent{"The game could not be saved: " + *problem});
    }
    s_.events_.push(MoveEvent{after, m, mover, std::chrono::steady_clock::now()});
  }

  void on_end(const GameResult& result, const std::string& detail) override {
    if (s_.leaving_) return;
    s_.record_.result = result;
    s_.record_.ended_at = std::chrono::floor<Millis>(std::chrono::system_clock::now());
    std::optional<std::filesystem::path> saved;
    if (s_.store_) {
      auto written = s_.store_->finish(s_.record_);
      if (written) {
        saved = *written;
      } else {
        s_.events_.push(StorageProblemEvent{"The game could not be saved: " + written.error()});
      }
    }
    s_.events_.push(
        GameEndEvent{result, detail, s_.record_, saved, std::chrono::steady_clock::now()});
  }

 private:
  GameSession& s_;
  std::size_t seen_ = 0;
};

Expected<std::unique_ptr<GameSession>, std::string> GameSession::start(SessionSetup setup) {
  GameRecord& game = setup.game;
  if (game.result) return Unexpected(std::string("the game is already over"));
  auto start_pos = initial_position(game);
  if (!start_pos) return Unexpected(start_pos.error());
  if (auto final_pos = replay(game); !final_pos) return Unexpected(final_pos.error());
  if (!game.started_at)
    game.started_at = std::chrono::floor<Millis>(std::chrono::system_clock::now());

  std::unique_ptr<GameSession> s(new GameSession());
  for (Color c : {Color::White, Color::Black}) {
    auto& program = setup.programs[idx(c)];
    PlayerInfo& info = c == Color::White ? game.white : game.black;
    if (program) {
      info = program->info();
      s->players_[idx(c)] = std::move(program);
    } else {
      auto human = std::make_unique<HumanPlayer>(
          info, [events = &s->events_](Color color, std::uint64_t request) {
            events->push(HumanTurnEvent{color, request});
          });
      s->humans_[idx(c)] = human.get();
      s->players_[idx(c)] = std::move(human);
    }
  }
  s->setup_record_ = game;
  s->setup_record_.moves.clear();
  s->record_ = game;
  s->resumed_moves_ = game.moves.size();
  s->store_ = std::move(setup.store);

  LocalGameOptions options;
  options.rules = game.rules;
  options.time_control = game.time_control;
  if (game.start_position) options.start = *start_pos;
  for (const RecordedMove& m : game.moves) options.opening.push_back(m.move);
  if (!game.moves.empty()) options.clock = clocks_after(game);

  s->game_ = std::make_unique<LocalGame>(options, *s->players_[0], *s->players_[1]);
  s->observer_ = std::make_unique<Observer>(*s);
  s->thread_ = std::thread([session = s.get()] { session->game_->play(session->observer_.get()); });
  return s;
}

GameSession::~GameSession() { leave(); }

bool GameSession::play(Color c, std::uint64_t request, Move move) {
  HumanPlayer* human = humans_[idx(c)];
  return human != nullptr && human->answer(request, PlayerAction::play(move));
}

bool GameSession::resign(Color c) {
  HumanPlayer* human = humans_[idx(c)];
  if (human == nullptr) return false;
  auto request = human->pending();
  return request && human->answer(*request, PlayerAction::resign());
}

void GameSession::abort() {
  if (game_) game_->abort();
}

void GameSession::leave() {
  if (!thread_.joinable()) return;
  leaving_ = true;
  game_->abort();
  thread_.join();
}

}  // namespace amazons::client
