#include <string>

#include <doctest/doctest.h>

#include "common/game_record.h"
#include "common/protocol_typescript.h"
#include "common/variant.h"

#include <nlohmann/json.hpp>

namespace {

// The text of one `export interface NAME { ... }` block, or "" when there is none.
std::string block(const std::string& text, const std::string& name) {
  const auto start = text.find("export interface " + name + " {");
  if (start == std::string::npos) return {};
  return text.substr(start, text.find("\n}\n", start) - start);
}

}  // namespace

TEST_CASE("protocol typescript: messages carry their fields, optional ones marked") {
  const std::string ts = amazons::protocol::typescript_declarations();
  const std::string moved = block(ts, "MovedMessage");
  REQUIRE_FALSE(moved.empty());
  CHECK(moved.find("  type: \"moved\";") != std::string::npos);
  CHECK(moved.find("  ply: number;") != std::string::npos);
  CHECK(moved.find("  move: string;") != std::string::npos);
  CHECK(moved.find("  clock?: Clock;") != std::string::npos);

  const std::string clock = block(ts, "Clock");
  CHECK(clock.find("  white: number;") != std::string::npos);
  CHECK(clock.find("  running?: Color;") != std::string::npos);

  const std::string state = block(ts, "StateMessage");
  CHECK(state.find("  variant: Variant;") != std::string::npos);
  CHECK(state.find("  moves: string[];") != std::string::npos);
  CHECK(state.find("  offline: Color[];") != std::string::npos);
  CHECK(state.find("  result?: GameResult;") != std::string::npos);
  // A defaulted field is always written by the server, so it is required on that side.
  CHECK(state.find("  spectators: number;") != std::string::npos);
}

TEST_CASE("protocol typescript: client defaults are optional, enums are string unions") {
  const std::string ts = amazons::protocol::typescript_declarations();
  const std::string create = block(ts, "CreateRequest");
  CHECK(create.find("  rules?: string;") != std::string::npos);
  CHECK(create.find("  time?: TimeControl;") != std::string::npos);
  CHECK(create.find("  color?: ColorChoice;") != std::string::npos);
  CHECK(create.find("  private?: boolean;") != std::string::npos);
  const std::string hello = block(ts, "HelloRequest");
  CHECK(hello.find("  protocol: number;") != std::string::npos);
  CHECK(hello.find("  name: string;") != std::string::npos);
  CHECK(hello.find("  token?: string;") != std::string::npos);

  CHECK(ts.find("export type ColorChoice = \"white\" | \"black\" | \"random\";") !=
        std::string::npos);
  CHECK(ts.find("  | \"tls_required\"") != std::string::npos);
  CHECK(ts.find("export type TimeControl = null | { initial: number; increment: number } | "
                "{ per_move: number };") != std::string::npos);
  // Both unions name every message; "challenge" exists on both sides with different shapes.
  CHECK(ts.find("  | ChallengeRequest") != std::string::npos);
  CHECK(ts.find("  | ChallengeMessage") != std::string::npos);
  CHECK(block(ts, "ChallengeMessage").find("  from: Player;") != std::string::npos);
  CHECK(ts.find("export const PROTOCOL_VERSION = 1;") != std::string::npos);
}

TEST_CASE("protocol typescript: the built-in variants are the rules core's") {
  const std::string ts = amazons::protocol::typescript_declarations();
  for (const amazons::RuleVariant& v : {amazons::standard_variant(), amazons::botzone8_variant()}) {
    CAPTURE(v.name);
    CHECK(ts.find("  " + amazons::to_json(v).dump() + ",\n") != std::string::npos);
  }
  CHECK(ts.find("\"white\":[\"a4\",\"d1\",\"g1\",\"j4\"]") != std::string::npos);
}

TEST_CASE("protocol typescript: the review's marks are the engine analysis's") {
  const std::string ts = amazons::protocol::typescript_declarations();
  using amazons::MoveAnnotation;
  CHECK(ts.find("export const ANALYSIS_SQUARES = { mistake: " +
                nlohmann::json(MoveAnnotation::kMistakeSquares).dump() +
                ", blunder: " + nlohmann::json(MoveAnnotation::kBlunderSquares).dump() +
                ", decisive: " + nlohmann::json(MoveAnnotation::kDecisiveSquares).dump() +
                ", decided: " + nlohmann::json(MoveAnnotation::kDecidedSquares).dump() +
                " } as const;") != std::string::npos);
}
