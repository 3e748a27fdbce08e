// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013). Each rated game is its
// own rating period, so ratings move after every game.
#pragma once

#include <span>

#include "common/protocol_types.h"

namespace amazons::server {

// Glicko-2's scale is centred on 1500, the rating every player starts with.
inline constexpr double kGlickoCentre = protocol::kInitialRating;

struct Rating {
  double rating = kGlickoCentre;
  double deviation = 350.0;
  double volatility = 0.06;
  friend bool operator==(const Rating&, const Rating&) = default;
};

// The system constant tau: how fast volatility may change. Glickman suggests 0.3..1.2.
inline constexpr double kGlickoTau = 0.5;

struct GameOutcome {
  Rating opponent;
  double score = 0;  // 1 win, 0 loss, 0.5 draw
};

// The player's rating after one rating period with these games (none: only the deviation
// grows).
Rating glicko2_update(const Rating& player, std::span<const GameOutcome> games,
                      double tau = kGlickoTau);
// One game as its own rating period.
Rating glicko2_update(const Rating& player, const Rating& opponent, double score,
                      double tau = kGlickoTau);

}  // namespace amazons::server
