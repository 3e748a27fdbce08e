#include "ai/tools/texel.h"

#include <algorithm>
#include <cmath>

namespace amazons::ai {

namespace {

constexpr std::array<TermWeights PhaseWeights::*, kPhaseAnchors> kAnchors = {
    &PhaseWeights::opening, &PhaseWeights::middlegame, &PhaseWeights::endgame};
constexpr std::array<double TermWeights::*, kTermsPerPhase> kTerms = {
    &TermWeights::queen_territory, &TermWeights::king_territory, &TermWeights::queen_position,
    &TermWeights::king_position, &TermWeights::mobility};

// Scores are in hundredths of a square; the weights in squares.
constexpr double kScoreUnit = 100;

double dot(const TuningVector& a, const TuningVector& b) {
  double s = 0;
  for (std::size_t i = 0; i < kTuningFeatures; ++i) s += a[i] * b[i];
  return s;
}

double logistic(double x) { return 1 / (1 + std::exp(-x)); }

// Cross-entropy of one result against the model's chance, kept finite for a certain but wrong
// prediction.
double log_loss(double chance, double result) {
  constexpr double kFloor = 1e-12;
  return -(result * std::log(std::max(chance, kFloor)) +
           (1 - result) * std::log(std::max(1 - chance, kFloor)));
}

// Solves a x = b by Gaussian elimination with partial pivoting. a is symmetric and positive
// semi-definite here, but singular when a feature never varies in the samples and nothing pulls
// it (l2 = 0), or when every sample is decided beyond doubt (p(1 - p) underflows): a direction
// with no pivot left is not moved (its x is 0), where dividing by the zero pivot made every
// weight NaN. a and b are overwritten.
TuningVector solve(std::array<TuningVector, kTuningFeatures> a, TuningVector b) {
  constexpr std::size_t n = kTuningFeatures;
  double largest = 0;
  for (const TuningVector& row : a)
    for (double v : row) largest = std::max(largest, std::abs(v));
  const double tiny = largest * 1e-14;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) <= tiny) continue;  // no pivot: this direction stays
    for (std::size_t r = col + 1; r < n; ++r) {
      const double f = a[r][col] / a[col][col];
      for (std::size_t c = col; c < n; ++c) a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  TuningVector x{};
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t c = i + 1; c < n; ++c) s -= a[i][c] * x[c];
    x[i] = std::abs(a[i][i]) <= tiny ? 0 : s / a[i][i];
  }
  return x;
}

double regularised_loss(const std::vector<TuningSample>& samples, const TuningVector& w,
                        const TuningVector& start, const FitOptions& o) {
  double penalty = 0;
  for (std::size_t i = 0; i < kTuningFeatures; ++i)
    penalty += (w[i] - start[i]) * (w[i] - start[i]);
  return mean_log_loss(samples, w, o.scale) + o.l2 / 2 * penalty;
}

}  // namespace

TuningVector weight_vector(const EvalParams& params, int board_size) {
  const PhaseWeights& phases = params.weights_for(board_size);
  TuningVector w{};
  for (std::size_t a = 0; a < kPhaseAnchors; ++a)
    for (std::size_t t = 0; t < kTermsPerPhase; ++t)
      w[a * kTermsPerPhase + t] = phases.*kAnchors[a].*kTerms[t];
  return w;
}

void set_weights(EvalParams& params, int board_size, const TuningVector& weights) {
  PhaseWeights& phases = params.weights_for(board_size);
  for (std::size_t a = 0; a < kPhaseAnchors; ++a)
    for (std::size_t t = 0; t < kTermsPerPhase; ++t)
      phases.*kAnchors[a].*kTerms[t] = weights[a * kTermsPerPhase + t];
}

TuningVector features(const EvalTerms& terms, const EvalParams& params) {
  const std::array<double, kTermsPerPhase> raw = {terms.queen_territory, terms.king_territory,
                                                  terms.queen_position, terms.king_position,
                                                  terms.mobility};
  const auto share = phase_shares(params, terms.phase);
  TuningVector x{};
  for (std::size_t a = 0; a < kPhaseAnchors; ++a)
    for (std::size_t t = 0; t < kTermsPerPhase; ++t) x[a * kTermsPerPhase + t] = share[a] * raw[t];
  return x;
}

std::size_t add_samples(const GameRecord& record, const EvalParams& params,
                        const SampleOptions& options, std::vector<TuningSample>& out) {
  if (!record.result || !record.result->winner) return 0;
  const Color winner = *record.result->winner;
  auto start = initial_position(record);
  if (!start) return 0;
  Position pos = *start;
  Evaluator eval(params);
  std::size_t added = 0;
  for (std::size_t ply = 0; ply <= record.moves.size(); ++ply) {
    if (static_cast<int>(ply) >= options.skip_plies && !pos.is_game_over()) {
      const EvalTerms t = eval.terms(pos);
      if (!t.separated && !t.stuck) {
        out.push_back({features(t, params), pos.side_to_move() == winner ? 1.0 : 0.0});
        ++added;
      }
    }
    if (ply == record.moves.size()) break;
    const Move m = record.moves[ply].move;
    if (pos.check(m)) break;  // the precondition says it replays; a bad record just ends here
    pos.do_move(m);
  }
  return added;
}

double mean_log_loss(const std::vector<TuningSample>& samples, const TuningVector& weights,
                     double scale) {
  if (samples.empty()) return 0;
  double sum = 0;
  for (const TuningSample& s : samples)
    sum += log_loss(logistic(scale * kScoreUnit * dot(weights, s.features)), s.result);
  return sum / static_cast<double>(samples.size());
}

double fit_scale(const std::vector<TuningSample>& samples, const TuningVector& weights) {
  // Newton's method on the one parameter; the loss is convex in it. Scores are clamped so that
  // the first steps from a poor guess cannot overflow.
  std::vector<double> scores;
  scores.reserve(samples.size());
  for (const TuningSample& s : samples)
    scores.push_back(std::clamp(kScoreUnit * dot(weights, s.features), -1e6, 1e6));
  double k = 1.0 / 400;
  for (int i = 0; i < 50; ++i) {
    double g = 0, h = 0;
    for (std::size_t j = 0; j < samples.size(); ++j) {
      const double p = logistic(k * scores[j]);
      g += (p - samples[j].result) * scores[j];
      h += p * (1 - p) * scores[j] * scores[j];
    }
    if (h <= 0) break;
    const double next = std::clamp(k - g / h, k / 4, k * 4);
    const bool converged = std::abs(next - k) < 1e-9 * k;
    k = next;
    if (converged) break;
  }
  return k;
}

namespace {

// Newton's method over the weights that are not held (at their value in `from`).
FitResult fit_free(const std::vector<TuningSample>& samples, const TuningVector& start,
                   const TuningVector& from, const std::array<bool, kTuningFeatures>& held,
                   const FitOptions& options) {
  FitResult r;
  r.weights = from;
  const double k = options.scale * kScoreUnit;  // the logistic's slope per unit of dot(w, x)
  const auto n = static_cast<double>(samples.size());
  double current = regularised_loss(samples, r.weights, start, options);
  for (; r.iterations < options.max_iterations; ++r.iterations) {
    TuningVector gradient{};
    std::array<TuningVector, kTuningFeatures> hessian{};
    for (const TuningSample& s : samples) {
      const double p = logistic(k * dot(r.weights, s.features));
      const double g = (p - s.result) * k / n, h = p * (1 - p) * k * k / n;
      for (std::size_t i = 0; i < kTuningFeatures; ++i) {
        gradient[i] += g * s.features[i];
        for (std::size_t j = 0; j <= i; ++j) hessian[i][j] += h * s.features[i] * s.features[j];
      }
    }
    for (std::size_t i = 0; i < kTuningFeatures; ++i) {
      gradient[i] += options.l2 * (r.weights[i] - start[i]);
      hessian[i][i] += options.l2;
      for (std::size_t j = 0; j < i; ++j) hessian[j][i] = hessian[i][j];
    }
    // A held weight does not move: its row and column become the identity's, its gradient 0.
    for (std::size_t i = 0; i < kTuningFeatures; ++i) {
      if (!held[i]) continue;
      for (std::size_t j = 0; j < kTuningFeatures; ++j) hessian[i][j] = hessian[j][i] = 0;
      hessian[i][i] = 1;
      gradient[i] = 0;
    }
    const TuningVector step = solve(hessian, gradient);
    // Newton's step, halved until the loss falls (it always does near the optimum).
    double t = 1;
    TuningVector next{};
    double next_loss = current;
    for (int halvings = 0; halvings < 20; ++halvings, t /= 2) {
      for (std::size_t i = 0; i < kTuningFeatures; ++i) next[i] = r.weights[i] - t * step[i];
      next_loss = regularised_loss(samples, next, start, options);
      if (next_loss <= current) break;
    }
    // No step helps (at the optimum within rounding), or the step is not a number: stop where
    // the weights are. Written so that a NaN loss stops it too.
    if (!(next_loss <= current)) break;
    const double gain = current - next_loss;
    r.weights = next;
    current = next_loss;
    if (gain < 1e-10) {
      ++r.iterations;
      break;
    }
  }
  return r;
}

}  // namespace

FitResult fit_weights(const std::vector<TuningSample>& samples, const TuningVector& start,
                      const FitOptions& options) {
  std::array<bool, kTuningFeatures> held{};
  TuningVector from = start;
  if (options.non_negative)
    for (std::size_t i = 0; i < kTuningFeatures; ++i)
      if (from[i] < 0) {
        from[i] = 0;
        held[i] = true;
      }
  FitResult r;
  int iterations = 0;
  for (;;) {
    r = fit_free(samples, start, from, held, options);
    iterations += r.iterations;
    bool changed = false;
    if (options.non_negative)
      for (std::size_t i = 0; i < kTuningFeatures; ++i)
        if (r.weights[i] < 0) {
          r.weights[i] = 0;
          held[i] = changed = true;
        }
    if (!changed) break;
    from = r.weights;
  }
  r.iterations = iterations;
  r.loss_before = mean_log_loss(samples, start, options.scale);
  r.loss_after = mean_log_loss(samples, r.weights, options.scale);
  return r;
}

}  // namespace amazons::ai
