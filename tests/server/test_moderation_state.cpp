// Moderation's own rules, without a lobby: sanctions that expire, bans that reach look-alike
// names, the caps on open reports, and how long chat lines are kept. The requests that use them
// are in test_moderation.cpp; the caps against a real server in tests/integration/test_abuse.cpp.
#include <doctest/doctest.h>

#include "server/core/moderation.h"

using namespace amazons;
using namespace amazons::server;

namespace {
Timestamp second(long long s) { return Timestamp{Millis{1'800'000'000'000 + s * 1000}}; }

SanctionRow sanction(SanctionKind kind, const std::string& target,
                     std::optional<Timestamp> until = std::nullopt) {
  return {kind, target, "spam", "mod", second(0), until};
}

ReportRow report(std::int64_t id, const std::string& reporter, const std::string& player) {
  ReportRow r;
  r.id = id;
  r.reporter = reporter;
  r.player = player;
  r.reason = "rude";
  return r;
}
}  // namespace

TEST_CASE("moderation state: sanctions expire, and a ban reaches the names that look like it") {
  Moderation m(
      {},
      {sanction(SanctionKind::BanName, "Alice"), sanction(SanctionKind::Mute, "bob", second(60))},
      {});
  CHECK(m.active(SanctionKind::Mute, "bob", second(59)) != nullptr);
  CHECK(m.name_ban("Alice", second(1)) != nullptr);
  CHECK(m.name_ban("ALICE", second(1)) != nullptr);  // case folded
  CHECK(m.name_ban("Аlice", second(1)) != nullptr);  // a Cyrillic A
  CHECK(m.name_ban("carol", second(1)) == nullptr);
  CHECK(m.in_force(second(30)).size() == 2);
  // The mute is over at 60 s: forgotten, and no longer listed.
  const auto left = m.in_force(second(60));
  REQUIRE(left.size() == 1);
  CHECK(left[0].target == "Alice");
  CHECK(m.active(SanctionKind::Mute, "bob", second(59)) == nullptr);
  m.lift(SanctionKind::BanName, "Alice");
  CHECK(m.name_ban("ALICE", second(1)) == nullptr);
  m.impose(sanction(SanctionKind::BanAddress, "10.0.0.1"));
  CHECK(m.active(SanctionKind::BanAddress, "10.0.0.1", second(1)) != nullptr);
}

TEST_CASE("moderation state: open reports are capped per reporter, address and target") {
  Moderation m;
  const ReportLimits limits{2, 3, 4};
  using Which = Moderation::Cap::Which;
  m.file(report(1, "x", "victim"), "10.0.0.1");
  CHECK_FALSE(m.report_cap("x", "10.0.0.1", "victim", limits));
  m.file(report(2, "x", "victim"), "10.0.0.1");
  const auto per_reporter = m.report_cap("x", "10.0.0.9", "other", limits);
  REQUIRE(per_reporter);
  CHECK(per_reporter->which == Which::Reporter);
  CHECK(per_reporter->limit == 2);
  // A new name from the same address: the address's cap, whoever is reported.
  m.file(report(3, "y", "other"), "10.0.0.1");
  const auto per_address = m.report_cap("z", "10.0.0.1", "someone", limits);
  REQUIRE(per_address);
  CHECK(per_address->which == Which::Address);
  CHECK_FALSE(m.report_cap("z", "", "someone", limits));  // an unknown address is not capped
  // From elsewhere, up to four on one player.
  m.file(report(4, "w", "victim"), "10.0.0.2");
  m.file(report(5, "v", "victim"), "");
  const auto per_target = m.report_cap("u", "10.0.0.3", "victim", limits);
  REQUIRE(per_target);
  CHECK(per_target->which == Which::Target);
  // Resolving one frees its reporter's, its address's and its target's places.
  const auto resolved = m.resolve(1, "mod", second(5), "warned");
  REQUIRE(resolved);
  CHECK(resolved->resolved_by == "mod");
  CHECK(resolved->note == "warned");
  CHECK_FALSE(m.resolve(1, "mod", second(6), "again"));  // no longer open
  CHECK_FALSE(m.report_cap("u", "10.0.0.3", "victim", limits));
  CHECK_FALSE(m.report_cap("x", "10.0.0.9", "other", limits));
  // Another node's reports count for their reporter and target, not for an address here.
  m.learn(report(6, "t", "victim"));
  CHECK(m.open_reports().size() == 5);
  ReportRow done = report(6, "t", "victim");
  done.resolved_by = "mod";
  m.learn(done);
  CHECK(m.open_reports().size() == 4);
}

TEST_CASE("moderation state: the most recent chat lines are kept, the oldest let go") {
  Moderation m;
  const auto first = m.next_line_number();
  m.keep_line(first, {"17", "alice", "hello"});
  REQUIRE(m.line(first) != nullptr);
  CHECK(m.line(first)->text == "hello");
  for (std::size_t i = 0; i < Moderation::kKeptChatLines; ++i)
    m.keep_line(m.next_line_number(), {"17", "bob", "spam"});
  CHECK(m.line(first) == nullptr);  // past kKeptChatLines
  const auto last = first + static_cast<std::int64_t>(Moderation::kKeptChatLines);
  const auto removed = m.remove_line(last);
  REQUIRE(removed);
  CHECK(removed->from == "bob");
  CHECK_FALSE(m.remove_line(last));
}
