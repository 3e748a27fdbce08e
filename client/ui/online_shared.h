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

// How long a player has for the move, roughly: "2 d 3 h left", "5 h 12 min left", "40 s left".
std::string left_text(const std::optional<std::int64_t>& ms);

// A client for `nodes` with the settings' name and pins, started.
std::shared_ptr<OnlineClient> connect(App& app, const std::vector<ServerAddress>& nodes,
                                      std::optional<std::string> password);

}  // namespace amazons::client::ui
