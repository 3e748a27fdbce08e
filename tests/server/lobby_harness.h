// Drives a Lobby the way the server does, but synchronously and without sockets: writes go to a
// real database, password jobs and archive queries run inline, and every line sent to a
// session is decoded and kept for the test to inspect. The database is a SQLite file, or, with
// AMAZONS_TEST_DB=postgres in the environment (the "postgres" ctest label runs the lobby
// tests so), a fresh database on a PostgreSQL the test process starts (tests/pg_server.h).
#pragma once

#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/protocol.h"
#include "server/core/auth.h"
#include "server/core/lobby.h"
#include "server/storage/pg_storage.h"
#include "server/storage/sqlite_storage.h"
#include "tests/client/temp_dir.h"
#include "tests/pg_server.h"

namespace amazons::test {

class LobbyHarness {
 public:
  explicit LobbyHarness(server::LobbyConfig config = default_config(),
                        std::filesystem::path db = {})
      : config_(std::move(config)) {
    db_path_ = db.empty() ? dir_.path() / "test.db" : db;
    if (db.empty() && postgres_requested()) pg_url_ = shared_pg_server().create_database();
    reopen();
  }

  static server::LobbyConfig default_config() {
    server::LobbyConfig c;
    c.rules_dir = amazons::test::config_dir() + "/rules";
    c.claim_grace = Millis{1000};
    return c;
  }

  // Throws the lobby and the database connection away and starts again from the file, as a
  // restarted server would.
  void reopen() {
    lobby_.reset();
    storage_.reset();
    if (pg_url_.empty())
      storage_ = std::make_unique<server::SqliteStorage>(db_path_);
    else
      storage_ = std::make_unique<server::PgStorage>(pg_url_);
    lobby_ = std::make_unique<server::Lobby>(config_, storage_->load(), now());
    inbox_.clear();
    closed_.clear();
  }

  server::Instant now() const { return {mono_, Timestamp{Millis{1'800'000'000'000} + mono_}}; }
  void advance(Millis d) {
    mono_ += d;
    apply(lobby_->tick(now()));
  }

  server::SessionId connect(server::ConnectionInfo info = {}) {
    const auto id = next_session_++;
    apply(lobby_->connect(id, now(), info));
    return id;
  }
  void disconnect(server::SessionId s) { apply(lobby_->disconnect(s, now())); }

  void send(server::SessionId s, const std::string& line) {
    apply(lobby_->handle_line(s, line, now()));
  }
  void send(server::SessionId s, const protocol::ClientMessage& m,
            protocol::RequestId id = std::nullopt) {
    send(s, protocol::encode(m, id));
  }

  // Connects and logs in; returns the session.
  server::SessionId login(const std::string& name, bool bot = false,
                          std::optional<std::string> password = std::nullopt) {
    const auto s = connect();
    protocol::Hello h;
    h.name = name;
    h.bot = bot;
    h.password = std::move(password);
    send(s, h);
    const auto w = take<protocol::Welcome>(s);
    tokens_[name] = w.token;
    return s;
  }

  // Logs in as a registered player (a name with a password), who keeps offers while away.
  server::SessionId login_registered(const std::string& name) {
    return login(name, false, "secret of " + name);
  }

  // Every message sent to the session since the last take, decoded.
  std::vector<protocol::ServerEnvelope> drain(server::SessionId s) {
    auto out = std::move(inbox_[s]);
    inbox_[s].clear();
    return out;
  }

  // Removes and returns the first message of type M; fails the test if there is none.
  template <class M>
  M take(server::SessionId s) {
    auto& box = inbox_[s];
    for (auto it = box.begin(); it != box.end(); ++it) {
      if (const auto* m = std::get_if<M>(&it->message)) {
        M copy = *m;
        box.erase(it);
        return copy;
      }
    }
    std::string seen;
    for (const auto& e : box) seen += std::string(protocol::type_of(e.message)) + " ";
    FAIL("no " << M::kType << " message for session " << s << "; have: " << seen);
    return M{};
  }
  template <class M>
  bool has(server::SessionId s) const {
    const auto it = inbox_.find(s);
    if (it == inbox_.end()) return false;
    for (const auto& e : it->second)
      if (std::holds_alternative<M>(e.message)) return true;
    return false;
  }
  protocol::ErrorCode error(server::SessionId s) { return take<protocol::Error>(s).code; }

  bool closed(server::SessionId s) const {
    return std::find(closed_.begin(), closed_.end(), s) != closed_.end();
  }
  const std::string& token(const std::string& name) { return tokens_[name]; }
  server::Lobby& lobby() { return *lobby_; }
  server::Storage& storage() { return *storage_; }
  // Which database the test runs on: AMAZONS_TEST_DB=postgres picks PostgreSQL.
  static bool postgres_requested() {
    const char* v = std::getenv("AMAZONS_TEST_DB");
    return v && std::string(v) == "postgres";
  }
  std::size_t writes_applied() const { return writes_applied_; }

 private:
  void apply(server::Effects fx) {
    if (!fx.writes.empty()) {
      storage_->apply(std::span(&fx.writes, 1));
      writes_applied_ += fx.writes.writes.size();
    }
    for (const auto& m : fx.messages) deliver(m);
    for (const auto& q : fx.queries) deliver(server::answer_query(*storage_, q));
    for (auto s : fx.close) closed_.push_back(s);
    for (const auto& job : fx.password_jobs) {
      server::PasswordOutcome out{job, false, std::nullopt};
      if (job.stored_hash)
        out.verified = server::verify_password(job.password, *job.stored_hash);
      else
        out.new_hash = server::hash_password(job.password, server::HashStrength::Minimal);
      apply(lobby_->complete_password(out, now()));
    }
  }
  void deliver(const server::Outbound& m) {
    auto env = protocol::decode_server(*m.line);
    REQUIRE_MESSAGE(env.has_value(), *m.line);
    inbox_[m.to].push_back(std::move(*env));
  }

  TempDir dir_;
  std::filesystem::path db_path_;
  std::string pg_url_;
  server::LobbyConfig config_;
  std::unique_ptr<server::Storage> storage_;
  std::unique_ptr<server::Lobby> lobby_;
  Millis mono_{1'000'000};
  server::SessionId next_session_ = 1;
  std::map<server::SessionId, std::vector<protocol::ServerEnvelope>> inbox_;
  std::vector<server::SessionId> closed_;
  std::map<std::string, std::string> tokens_;
  std::size_t writes_applied_ = 0;
};

}  // namespace amazons::test
