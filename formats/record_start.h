// Where a game read from another format starts, in the terms of a GameRecord: the rule variant
// and, when the game does not start from that variant's start position, the position text.
#pragma once

#include <optional>
#include <string>

#include "common/game_record.h"
#include "common/position.h"

namespace amazons::formats {

struct RecordStart {
  RuleVariant rules;
  std::optional<std::string> start_position;
};

// The variants a file from elsewhere is matched against: the built-in ones.
const std::vector<RuleVariant>& known_variants();

// A known variant whose start is `start` (then no start position); else a known variant of
// the same board size and queen count with `start` as its start position; else a variant made
// from `start` itself, called `name` (its queens and side to move; arrows as a start position).
RecordStart record_start_for(const Position& start, const std::string& name);

// True when `start` is the start position of some known variant.
bool is_known_start(const Position& start);

}  // namespace amazons::formats
