// What a node of a cluster runs, by name: a game ("17", also an open game of that id), a
// challenge ("c12") or a tournament ("t17"). The text is what Redis holds under a node's lease
// and what the nodes tell each other; inside a node, a ClusterKey says which kind it is, so that
// nothing tells them apart by their first letter. The offers table names its rows in a form of
// its own: "g17" (a kept open game), "c12" (a kept challenge), "s:NAME" (a kept seek, which no
// node runs: it has no key).
#pragma once

#include <charconv>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace amazons::server {

class ClusterKey {
 public:
  enum class Kind : std::uint8_t { Game, Challenge, Tournament };

  static ClusterKey game(std::int64_t id) { return {Kind::Game, id}; }
  static ClusterKey challenge(std::int64_t id) { return {Kind::Challenge, id}; }
  static ClusterKey tournament(std::int64_t id) { return {Kind::Tournament, id}; }

  // "17", "c12", "t17" (ids above 0, digits only); none for anything else.
  static std::optional<ClusterKey> parse(std::string_view text) {
    if (text.starts_with('c')) return with(Kind::Challenge, text.substr(1));
    if (text.starts_with('t')) return with(Kind::Tournament, text.substr(1));
    return with(Kind::Game, text);
  }
  // The key of an offers-table row: "g17" the game 17, "c12" the challenge 12; none for a
  // kept seek ("s:NAME") or anything else.
  static std::optional<ClusterKey> of_offer(std::string_view offer_id) {
    if (offer_id.starts_with('g')) return with(Kind::Game, offer_id.substr(1));
    if (offer_id.starts_with('c')) return with(Kind::Challenge, offer_id.substr(1));
    return std::nullopt;
  }

  Kind kind() const { return kind_; }
  std::int64_t id() const { return id_; }
  bool is_game() const { return kind_ == Kind::Game; }
  bool is_challenge() const { return kind_ == Kind::Challenge; }
  bool is_tournament() const { return kind_ == Kind::Tournament; }

  std::string text() const {
    const std::string digits = std::to_string(id_);
    switch (kind_) {
      case Kind::Challenge:
        return "c" + digits;
      case Kind::Tournament:
        return "t" + digits;
      case Kind::Game:
        break;
    }
    return digits;
  }
  // The offers-table row of a kept open game or challenge: "g17", "c12". (A tournament is no
  // offer: "t17".)
  std::string offer_id() const { return kind_ == Kind::Game ? "g" + text() : text(); }

  friend auto operator<=>(const ClusterKey&, const ClusterKey&) = default;

 private:
  ClusterKey(Kind kind, std::int64_t id) : kind_(kind), id_(id) {}
  static std::optional<ClusterKey> with(Kind kind, std::string_view digits) {
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || id <= 0)
      return std::nullopt;
    return ClusterKey(kind, id);
  }

  Kind kind_;
  std::int64_t id_;
};

}  // namespace amazons::server
