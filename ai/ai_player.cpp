#include "ai/ai_player.h"

#include "ai/timeman.h"
#include "common/zobrist.h"

namespace amazons::ai {

AIPlayer::AIPlayer(Level level, const AiConfig& config, std::string name, std::uint64_t seed)
    : level_(std::move(level)),
      name_(name.empty() ? "amazons-engine (" + level_.name + ")" : std::move(name)),
      seed_(seed),
      settings_(settings_for(level_, config)),
      search_(make_search(settings_)) {}

AIPlayer::~AIPlayer() {
  search_->stop();
  search_->wait();
}

void AIPlayer::on_game_start(const GameStart&) {
  search_->stop();
  search_->wait();
  std::uint64_t state = seed_ + games_++;
  settings_.eval.noise_seed = zobrist::splitmix64(state);
  search_->set_settings(settings_);
  search_->clear();
}

void AIPlayer::request_move(const MoveRequest& request, ReplyFn reply) {
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

std::optional<SearchResult> AIPlayer::last_result() const {
  std::lock_guard lock(mutex_);
  return last_;
}

}  // namespace amazons::ai
