// Fitting the evaluation's weights to game results ("Texel tuning"). Every position of a set of
// finished games becomes a sample: the evaluation's raw terms, spread over the three phase
// anchors by the interpolation the evaluation itself uses, labelled with whether the side to
// move went on to win. The heuristic score is linear in the weights, so the weights that best
// predict the results under a logistic model are a convex fit (logistic regression, solved by
// Newton's method).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "ai/evaluate.h"
#include "common/game_record.h"

namespace amazons::ai {

inline constexpr std::size_t kPhaseAnchors = 3;   // opening, middle game, end game
inline constexpr std::size_t kTermsPerPhase = 5;  // t1, t2, c1, c2, mobility
inline constexpr std::size_t kTuningFeatures = kPhaseAnchors * kTermsPerPhase;

// Indexed anchor * kTermsPerPhase + term, in the order of TermWeights' fields.
using TuningVector = std::array<double, kTuningFeatures>;

struct TuningSample {
  TuningVector features;
  // 1 when the side to move won the game, 0 when it lost (a chance in between is accepted).
  double result = 0;
};

// The weights of the three anchors for a board of `board_size` squares a side as one vector, and
// back (EvalParams::weights_for).
TuningVector weight_vector(const EvalParams& params, int board_size);
void set_weights(EvalParams& params, int board_size, const TuningVector& weights);

// The features of a position with these terms: the heuristic score (before rounding, clamping
// and noise) is 100 * dot(weight_vector(params, size), features(terms, params)).
TuningVector features(const EvalTerms& terms, const EvalParams& params);

struct SampleOptions {
  int skip_plies = 0;  // leave out the positions before this ply (random opening moves)
};

// Appends a sample for each position of a finished game that the weights decide: the separated
// and finished positions (counted or lost whatever the weights) are left out, as is a game
// without a winner. Returns how many were added. Precondition: the record replays (records read
// by record_from_json or parse_record_text do).
std::size_t add_samples(const GameRecord& record, const EvalParams& params,
                        const SampleOptions& options, std::vector<TuningSample>& out);

// The logistic model: a score s (hundredths of a square) wins with chance 1 / (1 + e^(-scale s)).
// Mean cross-entropy of the samples' results under the weights.
double mean_log_loss(const std::vector<TuningSample>& samples, const TuningVector& weights,
                     double scale);

// The scale that makes these weights' scores predict the results best (a one-dimensional
// convex fit). Precondition: samples is not empty.
double fit_scale(const std::vector<TuningSample>& samples, const TuningVector& weights);

struct FitOptions {
  double scale = 0;  // the logistic scale, fixed (fit_scale of the starting weights)
  // Pull towards the starting weights, per unit of squared weight, added to the mean loss:
  // keeps weights that the samples barely constrain where they were.
  double l2 = 1e-4;
  int max_iterations = 30;
  // Keep every weight at 0 or above: each term counts for the side that is ahead on it, as
  // docs/ENGINE.md says. A weight the free fit makes negative is held at 0 and the rest fitted
  // again (an active set), until none is.
  bool non_negative = true;
};

struct FitResult {
  TuningVector weights{};
  double loss_before = 0, loss_after = 0;  // mean_log_loss at the start and at the end
  int iterations = 0;
};

// Newton's method from `start` (with options.non_negative, from `start` clamped at 0).
// Precondition: samples is not empty and options.scale > 0.
FitResult fit_weights(const std::vector<TuningSample>& samples, const TuningVector& start,
                      const FitOptions& options);

}  // namespace amazons::ai
