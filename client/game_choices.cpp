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

std::string invite_link(std::string_view base, const InviteTarget& invite) {
  std::string link(base);
  if (link.empty() || link.back() != '/') link += '/';
  return link + "#/join/" + invite.game + "/" + invite.code;
}

std::optional<InviteTarget> parse_invite(std::string_view text) {
  std::string t(text);
  if (const auto link = t.find("#/join/"); link != std::string::npos) {
    // The link: "#/join/GAME/CODE", the code ending at a space, a slash or the text's end.
    const std::string rest = t.substr(link + 7);
    const auto slash = rest.find('/');
    if (slash == std::string::npos || slash == 0) return std::nullopt;
    std::string code = rest.substr(slash + 1);
    code = code.substr(0, code.find_first_of(" \t\r\n/"));
    if (code.empty()) return std::nullopt;
    return InviteTarget{rest.substr(0, slash), code};
  }
  std::replace(t.begin(), t.end(), ',', ' ');
  const auto start = t.find_first_not_of(' ');
  if (start == std::string::npos) return std::nullopt;
  const auto space = t.find(' ', start);
  const std::string game =
      t.substr(start, space == std::string::npos ? std::string::npos : space - start);
  std::string code = space == std::string::npos ? "" : t.substr(space + 1);
  code.erase(std::remove(code.begin(), code.end(), ' '), code.end());
  if (game.empty() || code.empty()) return std::nullopt;
  return InviteTarget{game, code};
}

}  // namespace amazons::client
