#include "client/computer_game.h"

#include <algorithm>
#include <thread>

#include "ai/ai_player.h"

namespace amazons::client {

namespace {
constexpr std::string_view kPrefix = "Computer (";
}

std::string computer_name(std::string_view level) {
  return std::string(kPrefix) + std::string(level) + ")";
}

std::optional<std::string> computer_level(const PlayerInfo& player) {
  const std::string_view name = player.name;
  if (!player.bot || !name.starts_with(kPrefix) || !name.ends_with(')') ||
      name.size() == kPrefix.size() + 1)
    return std::nullopt;
  return std::string(name.substr(kPrefix.size(), name.size() - kPrefix.size() - 1));
}

bool has_computer(const GameRecord& record) {
  return computer_level(record.white) || computer_level(record.black);
}

ComputerConfig load_computer_config(const std::filesystem::path& file) {
  ComputerConfig out;
  auto loaded = ai::load_ai_config(file);
  if (loaded) {
    out.config = std::move(loaded).value();
  } else {
    out.config = ai::builtin_ai_config();
    out.problem = "The engine settings could not be read (" + loaded.error() +
                  "); the built-in levels are used.";
  }
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  const int spare = std::max(1, cores - 1);
  out.config.threads = out.config.threads == 0 ? spare : std::min(out.config.threads, spare);
  return out;
}

std::optional<std::string> add_computer_players(SessionSetup& setup, const ai::AiConfig& config,
                                                std::uint64_t seed) {
  std::array<std::unique_ptr<Player>, 2> made;
  for (Color c : {Color::White, Color::Black}) {
    const auto i = static_cast<std::size_t>(index_of(c));
    const PlayerInfo& info = c == Color::White ? setup.game.white : setup.game.black;
    const auto level_name = computer_level(info);
    if (!level_name || setup.programs[i]) continue;
    const ai::Level* level = config.find(*level_name);
    if (level == nullptr)
      return "the engine has no level \"" + *level_name + "\" for " + std::string(color_name(c));
    made[i] = std::make_unique<ai::AIPlayer>(*level, config, info.name, seed + i);
  }
  for (std::size_t i = 0; i < 2; ++i)
    if (made[i]) setup.programs[i] = std::move(made[i]);
  return std::nullopt;
}

}  // namespace amazons::client
