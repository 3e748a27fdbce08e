// What the online screens share (online_*.cpp): the refresh period, the separator of a row's
// parts, and connecting a new OnlineClient with the client's settings.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/online_client.h"
#include "client/ui/app.h"

namespace amazons::client::ui {

inline constexpr auto kRefreshEvery = std::chrono::seconds(3);
inline const std::string kDot = " \u00B7 ";

// The lobby's rows (lobby_rows.cpp): "Game 17 against bob · 1 d per move · 5 h left", "Join:
// alice (1500) · standard · 5 min + 5 s · rated · you play black", "Watch: ...", "Accept: ...",
// "Challenge: bob (1500) · 3 games".
std::string turn_row(const Catalogue& t, const protocol::TurnInfo& x);
std::string open_game_row(const Catalogue& t, const protocol::GameSummary& g, bool mine);
std::string live_game_row(const Catalogue& t, const protocol::GameSummary& g);
std::string challenge_row(const Catalogue& t, const protocol::ChallengeReceived& c);
std::string player_row(const Catalogue& t, const protocol::OnlinePlayer& p);

// A client for `nodes` with the settings' name and pins, started.
std::shared_ptr<OnlineClient> connect(App& app, const std::vector<ServerAddress>& nodes,
                                      std::optional<std::string> password);

}  // namespace amazons::client::ui
