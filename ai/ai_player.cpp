#include "ai/ai_player.h"

#include "ai/timeman.h"
#include "common/zobrist.h"

namespace amazons::ai {

AIPlayer::AIPlayer(Level level, const AiConfig& config, std::string name, std::uint64_t seed)
    : AIPlayer(level, settings_for(level, config), std::move(name), seed) {}

AIPlayer::AIPlayer(Level level, const SearchSettings& settings, std::string name,
                   std::uint64_t seed)
    : level_(std::move(level)),
      name_(name.empty() ? "amazons-engine (" + level_.name + ")" : std::move(name)),
      seed_(seed),
      settings_(settings),
      search_(make_search(settings_)) {}

AIPlayer::~AIPlayer() {
  search_->stop();
  search_->wait();
}

void AIPlayer::on_game_start(const GameStart& start) {
  search_->stop();
  search_->wait();
  pondering_.reset();
  asked_.reset();
  color_ = start.your_color;
  std::uint64_t state = seed_ + games_++;
  settings_.eval.noise_seed = zobrist::splitmix64(state);
  search_->set_settings(settings_);
  search_->clear();
}

void AIPlayer::request_move(const MoveRequest& request, ReplyFn reply) {
  if (pondering_) {
    const bool hit = pondering_->hash() == request.position.hash();
    end_ponder();
    std::lock_guard lock(mutex_);
    ++(hit ? stats_.hits : stats_.misses);
  }
  asked_ = request.position;
  const SearchLimits limits = limits_for(level_, &request.clock, request.position.side_to_move());
  SearchCallbacks callbacks;
  callbacks.on_progress = on_progress_;
  callbacks.on_done = [this, reply = std::move(reply)](const SearchResult& result) {
    {
      std::lock_guard lock(mutex_);
      last_ = result;
    }
    reply(result.best.is_none() ? PlayerAction::resign() : PlayerAction::play(result.best));
  };
  search_->start(request.position, limits, std::move(callbacks));
}

std::optional<Millis> AIPlayer::time_limit(const MoveRequest& request) const {
  const SearchLimits limits = limits_for(level_, &request.clock, request.position.side_to_move());
  const TimePlan plan = plan_time(limits, request.position);
  if (!plan.hard) return std::nullopt;
  return *plan.hard + kMoveOverhead;
}

void AIPlayer::cancel_request() { search_->stop(); }

void AIPlayer::end_ponder() {
  search_->stop();
  search_->wait();
  pondering_.reset();
}

void AIPlayer::on_move(Move move, Color mover) {
  if (!ponder_ || mover != color_ || !asked_) return;
  const auto result = last_result();
  if (!result || result->pv.size() < 2 || result->pv[0] != move) return;
  Position pos = *asked_;
  if (pos.check(move)) return;
  pos.do_move(move);
  if (pos.check(result->pv[1])) return;
  pos.do_move(result->pv[1]);
  if (pos.is_game_over()) return;
  SearchLimits forever;
  forever.infinite = true;
  // No callbacks: nothing of the ponder search is reported or played; its table is what counts.
  search_->start(pos, forever, {});
  pondering_ = pos;
}

void AIPlayer::on_game_end(const GameResult&) {
  if (pondering_) end_ponder();
}

AIPlayer::PonderStats AIPlayer::ponder_stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::optional<SearchResult> AIPlayer::last_result() const {
  std::lock_guard lock(mutex_);
  return last_;
}

}  // namespace amazons::ai
