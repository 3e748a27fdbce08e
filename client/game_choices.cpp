#include "client/game_choices.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace amazons::client {

std::vector<TimeChoice> time_choices() {
  using std::chrono::seconds;
  return {{TimeControl::unlimited(), "No clock"},
          {TimeControl::fischer(seconds(180), seconds(2)), "3 min + 2 s"},
          {TimeControl::fischer(seconds(300), seconds(5)), "5 min + 5 s"},
          {TimeControl::fischer(seconds(600), seconds(10)), "10 min + 10 s"},
          {TimeControl::fischer(seconds(1800), seconds(0)), "30 min"},
          {TimeControl::fixed_per_move(seconds(30)), "30 s per move"},
          {TimeControl::fixed_per_move(seconds(86'400)), "1 day per move"},
          {TimeControl::fischer(seconds(3 * 86'400), seconds(86'400)), "3 days + 1 day"}};
}

std::string time_text(const TimeControl& tc) {
  for (const TimeChoice& c : time_choices())
    if (c.control == tc) return c.label;
  return to_string(tc);
}

std::vector<RuleVariant> known_variants(const std::filesystem::path& rules_dir) {
  std::vector<RuleVariant> out = {standard_variant(), botzone8_variant()};
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(rules_dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto v = load_variant_file(f);
    if (!v) continue;
    auto same = [&](const RuleVariant& k) { return k.name == v->name; };
    if (std::none_of(out.begin(), out.end(), same)) out.push_back(*v);
  }
  return out;
}

std::string variant_label(const RuleVariant& v) {
  return v.name + "  (" + std::to_string(v.size) + "x" + std::to_string(v.size) + ")";
}

}  // namespace amazons::client
