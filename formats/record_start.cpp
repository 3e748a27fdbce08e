#include "formats/record_start.h"

#include "common/position_text.h"

namespace amazons::formats {

const std::vector<RuleVariant>& known_variants() {
  static const std::vector<RuleVariant> kVariants = {standard_variant(), botzone8_variant()};
  return kVariants;
}

bool is_known_start(const Position& start) {
  for (const auto& v : known_variants())
    if (v.size == start.size() && Position(v) == start) return true;
  return false;
}

RecordStart record_start_for(const Position& start, const std::string& name) {
  for (const auto& v : known_variants())
    if (v.size == start.size() && Position(v) == start) return {v, std::nullopt};
  for (const auto& v : known_variants())
    if (v.size == start.size() && static_cast<int>(v.white_queens.size()) == start.queen_count())
      return {v, to_text(start)};
  RuleVariant v;
  v.name = name;
  v.size = start.size();
  for (Square s : start.queens(Color::White)) v.white_queens.push_back(s);
  for (Square s : start.queens(Color::Black)) v.black_queens.push_back(s);
  v.first_to_move = start.side_to_move();
  RecordStart r{v, std::nullopt};
  if (!start.arrows().empty()) r.start_position = to_text(start);
  return r;
}

}  // namespace amazons::formats
