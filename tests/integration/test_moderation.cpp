// Moderation against a real amazons-server: `amazons-server admin` run on the database of a
// running server, then moderator actions over the wire, and closed registrations.
#include <doctest/doctest.h>

#include <thread>

#include "tests/integration/server_process.h"
#include "tests/pg_server.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::PgServer;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

std::pair<int, std::string> admin(const std::filesystem::path& db, const std::string& args) {
  return PgServer::shell(std::string(amazons::test::kServerBinary) + " admin " + args + " --db '" +
                         db.string() + "' 2>&1");
}

// The running server reads roles every 2 s: retries `request` until it is not refused with
// `forbidden` (bounded), and returns the first other reply.
ServerEnvelope until_allowed(Client& c, const ClientMessage& request) {
  for (int attempt = 0; attempt < 40; ++attempt) {
    c.send(request, attempt);
    auto reply = c.next();
    const auto* e = std::get_if<Error>(&reply.message);
    if (!e || e->code != ErrorCode::Forbidden) return reply;
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  FAIL("still forbidden after 6 s");
  return {};
}

}  // namespace

TEST_CASE("moderation: admin grant on a running server's database, then actions over the wire") {
  TempDir dir;
  ServerProcess server(dir.path());
  const auto db = dir.path() / "test.db";
  Client mod(server.port()), bob(server.port());
  mod.hello("mod");
  bob.hello("bob");

  mod.send(Kick{"bob", "x"});
  CHECK(mod.expect_error() == ErrorCode::Forbidden);
  const auto [status, out] = admin(db, "grant mod moderator");
  REQUIRE_MESSAGE(status == 0, out);
  CHECK(out.find("mod is now a moderator") != std::string::npos);

  // A ban for an hour, with its reason: bob's connection is closed with it...
  const auto reply = until_allowed(mod, Ban{"bob", std::nullopt, 3600, "abusive language"});
  CHECK(std::holds_alternative<Ok>(reply.message));
  auto e = bob.expect<Error>();
  CHECK(e.code == ErrorCode::Banned);
  CHECK(e.reason == "abusive language");
  CHECK(bob.closed_by_server());
  // ... and a new connection is told the same when it says hello.
  Client again(server.port());
  again.send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"bob\"}");
  e = again.expect<Error>();
  CHECK(e.code == ErrorCode::Banned);
  CHECK(e.reason == "abusive language");
  CHECK(e.message.find("until") != std::string::npos);

  mod.send(AuditRequest{5});
  const auto log = mod.expect<AuditLog>().entries;
  REQUIRE(log.size() == 2);  // the ban, and the console's grant before it
  CHECK(log[0].action == "ban");
  CHECK(log[0].actor == "mod");
  CHECK(log[0].target == "bob");
  CHECK(log[0].duration == 3600);
  CHECK(log[1].action == "grant");
  CHECK(log[1].actor == "console");

  const auto [ls, listing] = admin(db, "list");
  CHECK(ls == 0);
  CHECK(listing.find("moderator: mod") != std::string::npos);
  CHECK(listing.find("ban_name bob by mod until") != std::string::npos);

  // Revoked, the moderator is a player again (within the poll).
  REQUIRE(admin(db, "revoke mod").first == 0);
  bool revoked = false;
  for (int attempt = 0; attempt < 40 && !revoked; ++attempt) {
    mod.send(SanctionsRequest{});
    const auto r = mod.next();
    const auto* err = std::get_if<Error>(&r.message);
    revoked = err && err->code == ErrorCode::Forbidden;
    if (!revoked) std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  CHECK(revoked);
}

TEST_CASE("moderation: closed registrations on a running server keep new names out") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"password", "club"}});
  const auto db = dir.path() / "test.db";
  const std::string pw = ",\"server_password\":\"club\"";
  {
    Client alice(server.port());
    alice.hello("alice", pw);
  }
  REQUIRE(admin(db, "close-registrations").first == 0);
  bool closed = false;
  for (int attempt = 0; attempt < 40 && !closed; ++attempt) {
    Client newbie(server.port());
    newbie.send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"newbie" + std::to_string(attempt) +
                "\"" + pw + "}");
    const auto r = newbie.next();
    const auto* err = std::get_if<Error>(&r.message);
    closed = err && err->code == ErrorCode::RegistrationsClosed;
    if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  CHECK(closed);
  Client alice(server.port());
  alice.send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\"}");
  CHECK(alice.expect_error() == ErrorCode::AuthFailed);  // the server password still holds
  Client known(server.port());
  known.hello("alice", pw);
  const auto [ls, listing] = admin(db, "list");
  CHECK(listing.find("registrations: closed") != std::string::npos);
}
