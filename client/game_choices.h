// What the forms that start a game offer, in the desktop and the terminal client alike: the
// time controls and the rule variants, and how a private game's invite is read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/time_control.h"
#include "common/variant.h"

namespace amazons::client {

struct TimeChoice {
  TimeControl control;
  std::string label;  // "3 min + 2 s"
};
std::vector<TimeChoice> time_choices();
// The label of one of time_choices(), else the control's own text ("fischer 60+1").
std::string time_text(const TimeControl& tc);

// The built-in variants, then every valid file in `rules_dir` not named like them.
std::vector<RuleVariant> known_variants(const std::filesystem::path& rules_dir);

// "botzone8  (8x8)": how the forms offer a variant.
std::string variant_label(const RuleVariant& v);

// A private game to join: its number and invite code.
struct InviteTarget {
  std::string game;
  std::string code;
  friend bool operator==(const InviteTarget&, const InviteTarget&) = default;
};
// What a person types or pastes to join a private game, as the creator tells it: "17
// ABCDEFGHJK", "17, ABCDEFGHJK", or the invite link (".../#/join/17/ABCDEFGHJK"). Nothing when
// the text does not hold both a game and a code.
std::optional<InviteTarget> parse_invite(std::string_view text);
// The invite link of a private game for a server's browser page `base` ("http://host:port/"):
// "http://host:port/#/join/17/ABCDEFGHJK", which parse_invite reads back and the web client opens.
std::string invite_link(std::string_view base, const InviteTarget& invite);
inline constexpr std::string_view kInviteExample = "17 ABCDEFGHJK";

}  // namespace amazons::client
