// Games against the engine on this computer. The record names the level that plays
// ("Computer (medium)", marked as a bot) so that a resumed game or a rematch meets the same
// opponent; add_computer_players turns such records back into engine players.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "ai/levels.h"
#include "client/game_session.h"

namespace amazons::client {

// "Computer (medium)": the player name of an engine level.
std::string computer_name(std::string_view level);
// The level named by a computer player's record entry; nullopt for people and other programs.
std::optional<std::string> computer_level(const PlayerInfo& player);
bool has_computer(const GameRecord& record);

// The engine settings the client plays with: `file` (config/ai.json) when it can be read, else
// the built-in levels with a sentence saying why in `problem`. Searches use one thread fewer
// than the machine has (at least one), so the window keeps a core to draw on.
struct ComputerConfig {
  ai::AiConfig config;
  std::optional<std::string> problem;
};
ComputerConfig load_computer_config(const std::filesystem::path& file);

// Gives every side of setup.game that a computer plays (see computer_level) an engine of that
// level, unless setup.programs already has a player for it. Fails with a sentence, leaving
// setup's programs as they were, when a level is not in `config`.
std::optional<std::string> add_computer_players(SessionSetup& setup, const ai::AiConfig& config,
                                                std::uint64_t seed);

}  // namespace amazons::client
