#include "client/analysis_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

#include "common/notation.h"

namespace amazons::client {

bool fully_annotated(const GameRecord& record) {
  return !record.moves.empty() &&
         std::all_of(record.moves.begin(), record.moves.end(),
                     [](const RecordedMove& m) { return m.annotation.has_value(); });
}

std::vector<GraphPoint> graph_points(const GameRecord& record) {
  if (!fully_annotated(record)) return {};
  auto start = initial_position(record);
  if (!start) return {};
  Position pos = *start;
  std::vector<GraphPoint> points;
  points.reserve(record.moves.size() + 1);
  auto add = [&](std::size_t ply, Color mover, double mover_squares) {
    const double white = mover == Color::White ? mover_squares : -mover_squares;
    // A record written by hand may say anything; what is not a number is drawn level.
    points.push_back({ply, white, std::isfinite(white) ? std::tanh(white / kGraphScale) : 0.0});
  };
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const Color mover = pos.side_to_move();
    add(i, mover, record.moves[i].annotation->before);
    if (pos.try_play(record.moves[i].move)) return {};
    if (i + 1 == record.moves.size()) add(i + 1, mover, record.moves[i].annotation->after);
  }
  return points;
}

float graph_x(Rect area, std::size_t points, std::size_t ply) {
  if (points < 2) return area.x + area.w / 2;
  return area.x + area.w * static_cast<float>(ply) / static_cast<float>(points - 1);
}

std::optional<std::size_t> graph_ply_at(Rect area, std::size_t points, float x, float y) {
  if (points == 0 || !area.contains(x, y)) return std::nullopt;
  if (points == 1) return 0;
  const float step = area.w / static_cast<float>(points - 1);
  const long nearest = std::lround((x - area.x) / step);
  return static_cast<std::size_t>(std::clamp(nearest, 0L, static_cast<long>(points - 1)));
}

namespace {

const MoveAnnotation* annotation_of(const GameRecord& record, std::size_t index) {
  if (index >= record.moves.size() || !record.moves[index].annotation) return nullptr;
  return &*record.moves[index].annotation;
}

std::string squares_text(double squares) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", squares);
  return buf;
}

}  // namespace

std::string mark_suffix(const GameRecord& record, std::size_t ply) {
  const MoveAnnotation* a = ply == 0 ? nullptr : annotation_of(record, ply - 1);
  if (!a) return "";
  switch (a->mark) {
    case MoveMark::Mistake:
      return "?";
    case MoveMark::Blunder:
      return "??";
    case MoveMark::None:
      break;
  }
  return "";
}

std::optional<Move> best_move_at(const GameRecord& record, std::size_t ply) {
  const MoveAnnotation* a = annotation_of(record, ply);
  if (!a || !a->best || *a->best == record.moves[ply].move) return std::nullopt;
  return a->best;
}

std::string next_move_comment(const GameRecord& record, std::size_t ply) {
  const MoveAnnotation* a = annotation_of(record, ply);
  if (!a) return "";
  const std::string played = to_string(record.moves[ply].move) + mark_suffix(record, ply + 1);
  const auto best = best_move_at(record, ply);
  if (!best) return "Next: " + played + ", the engine's move";
  const double lost = a->before - a->after;
  std::string text = "Next: " + played;
  if (lost >= 0.05) text += " loses " + squares_text(lost);
  return text + "; engine " + to_string(*best);
}

struct AnalysisJob::Shared {
  mutable std::mutex mutex;
  State state = State::Idle;
  std::size_t done = 0, total = 0;
  std::string error;
  std::optional<GameRecord> result;
  ai::AnalysisCancel cancel;
};

AnalysisJob::AnalysisJob(ai::AnalysisOptions options)
    : options_(std::move(options)), shared_(std::make_shared<Shared>()) {}

AnalysisJob::~AnalysisJob() {
  cancel();
  join();
}

void AnalysisJob::join() {
  if (worker_.joinable()) worker_.join();
}

bool AnalysisJob::start(GameRecord record) {
  if (state() == State::Running) return false;
  join();  // a cancelled worker may still be leaving its search
  shared_ = std::make_shared<Shared>();
  shared_->state = State::Running;
  shared_->total = record.moves.size();
  worker_ = std::thread([shared = shared_, options = options_, record = std::move(record)] {
    ai::AnalysisOptions o = options;
    o.cancel = &shared->cancel;
    auto analysed = ai::analyse_game(record, o, [&](std::size_t done, std::size_t total) {
      std::lock_guard lock(shared->mutex);
      shared->done = done;
      shared->total = total;
    });
    std::lock_guard lock(shared->mutex);
    if (shared->state != State::Running) return;  // cancelled: the screen has moved on
    if (analysed) {
      shared->state = State::Done;
      shared->result = std::move(*analysed);
    } else if (analysed.error() == ai::kAnalysisCancelled) {
      shared->state = State::Cancelled;
    } else {
      shared->state = State::Failed;
      shared->error = analysed.error();
    }
  });
  return true;
}

void AnalysisJob::cancel() {
  {
    std::lock_guard lock(shared_->mutex);
    if (shared_->state != State::Running) return;
    shared_->state = State::Cancelled;
  }
  shared_->cancel.cancel();
}

AnalysisJob::State AnalysisJob::state() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->state;
}

std::size_t AnalysisJob::done() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->done;
}

std::size_t AnalysisJob::total() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->total;
}

std::string AnalysisJob::status_text() const {
  std::lock_guard lock(shared_->mutex);
  switch (shared_->state) {
    case State::Running:
      return "Analysing ply " + std::to_string(std::min(shared_->done + 1, shared_->total)) +
             " of " + std::to_string(shared_->total);
    case State::Cancelled:
      return "Analysis cancelled";
    case State::Failed:
      return "Analysis failed: " + shared_->error;
    case State::Idle:
    case State::Done:
      break;
  }
  return "";
}

std::optional<GameRecord> AnalysisJob::take_result() {
  std::lock_guard lock(shared_->mutex);
  if (shared_->state != State::Done) return std::nullopt;
  return std::exchange(shared_->result, std::nullopt);
}

}  // namespace amazons::client
