#include "server/core/glicko2.h"

#include <cmath>
#include <numbers>

namespace amazons::server {

namespace {
constexpr double kScale = 173.7178;  // Glicko-2 scale factor
constexpr double kConvergence = 1e-6;
constexpr int kMaxIterations = 100;  // the Illinois iteration converges in a handful
// Deviation is kept at most the starting 350, as in Glicko.
constexpr double kMaxDeviation = 350.0;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}
double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}
}  // namespace

Rating glicko2_update(const Rating& player, const Rating& opponent, double score, double tau) {
  const GameOutcome game{opponent, score};
  return glicko2_update(player, std::span(&game, 1), tau);
}

Rating glicko2_update(const Rating& player, std::span<const GameOutcome> games, double tau) {
  // Step 2: convert to the Glicko-2 scale.
  const double mu = (player.rating - kGlickoCentre) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) {
    const double grown = std::sqrt(phi * phi + sigma * sigma) * kScale;
    return {player.rating, std::min(grown, kMaxDeviation), sigma};
  }

  // Steps 3 and 4: estimated variance and improvement.
  double inverse_v = 0;
  double improvement = 0;
  for (const GameOutcome& game : games) {
    const double mu_j = (game.opponent.rating - kGlickoCentre) / kScale;
    const double phi_j = game.opponent.deviation / kScale;
    const double gj = g(phi_j);
    const double e = expected(mu, mu_j, phi_j);
    inverse_v += gj * gj * e * (1.0 - e);
    improvement += gj * (game.score - e);
  }
  const double v = 1.0 / inverse_v;
  const double delta = v * improvement;

  // Step 5: new volatility by the Illinois algorithm.
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double lo = a;
  double hi = 0;
  if (delta * delta > phi * phi + v) {
    hi = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0 && k < kMaxIterations) ++k;
    hi = a - k * tau;
  }
  double f_lo = f(lo);
  double f_hi = f(hi);
  for (int i = 0; i < kMaxIterations && std::abs(hi - lo) > kConvergence; ++i) {
    const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
    const double f_c = f(c);
    if (f_c * f_hi <= 0) {
      lo = hi;
      f_lo = f_hi;
    } else {
      f_lo /= 2;
    }
    hi = c;
    f_hi = f_c;
  }
  const double sigma_new = std::exp(lo / 2);

  // Steps 6 to 8: new deviation and rating, back on the Glicko scale.
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * improvement;
  return {kScale * mu_new + kGlickoCentre, std::min(kScale * phi_new, kMaxDeviation), sigma_new};
}

}  // namespace amazons::server
