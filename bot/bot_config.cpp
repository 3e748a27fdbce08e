#include "bot/bot_config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "common/json_fields.h"
#include "tls/tls.h"

namespace amazons::bot {

namespace {

using nlohmann::json;
using Error = Unexpected<std::string>;
namespace jf = json_fields;

constexpr int kMaxGames = 64;
constexpr int kMaxThreads = 64;
constexpr int kMaxHashMb = 1 << 14;
constexpr int kMaxRestarts = 100;
constexpr double kMaxSeconds = 30.0 * 24 * 3600;
// Moves in a game, for the estimate of its duration (as online chess servers estimate theirs).
constexpr double kEstimatedMoves = 40;

// A number as the settings write it (64, 0.1, 2592000), not grouped as ICU would ("2,592,000").
std::string plain_number(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(v);
}

// A field's error in the person's language.
std::string field_text(const client::Catalogue& t, const jf::FieldError& e) {
  using Kind = jf::FieldError::Kind;
  switch (e.kind) {
    case Kind::Number:
    case Kind::Integer:
      return t(e.kind == Kind::Number ? "bot.settings.number" : "bot.settings.integer",
               {{"path", e.path},
                {"low", plain_number(e.low)},
                {"high", plain_number(e.high)},
                {"got", e.got}});
    case Kind::Text:
      return t("bot.settings.text", {{"path", e.path}, {"got", e.got}});
    case Kind::Boolean:
      return t("bot.settings.boolean", {{"path", e.path}, {"got", e.got}});
    case Kind::Unreadable:
      return t("bot.settings.unreadable", {{"file", e.path}});
    case Kind::NotJson:
      return t("bot.settings.not_json", {{"file", e.path}, {"byte", std::to_string(e.byte)}});
  }
  return e.describe();
}

Millis millis_of(double seconds) { return Millis{std::llround(seconds * 1000)}; }

double estimated_seconds(const TimeControl& t) {
  const auto s = [](Millis m) { return static_cast<double>(m.count()) / 1000.0; };
  switch (t.kind) {
    case TimeControl::Kind::Fischer:
      return s(t.initial) + kEstimatedMoves * s(t.increment);
    case TimeControl::Kind::PerMove:
      return kEstimatedMoves * s(t.per_move);
    case TimeControl::Kind::Unlimited:
      break;
  }
  return 0;
}

// Reads settings' fields, saying what is wrong with one in the person's language.
struct Reader {
  const client::Catalogue& t;

  template <class T>
  std::optional<std::string> take(Expected<T, jf::FieldError> value, auto&& assign) const {
    if (!value) return field_text(t, value.error());
    assign(std::move(*value));
    return std::nullopt;
  }

  std::optional<std::string> optional_text(const json& v, const std::string& key,
                                           std::optional<std::string>& out) const {
    if (v.is_null()) {
      out.reset();
      return std::nullopt;
    }
    return take(jf::text(v, key), [&](std::string s) { out = std::move(s); });
  }

  std::string one_of(const std::string& path, const char* choices, const json& got) const {
    return t("bot.settings.one_of", {{"path", path}, {"choices", choices}, {"got", got.dump()}});
  }

  std::string unknown(const std::string& path, const char* known) const {
    return t("bot.settings.unknown", {{"path", path}, {"known", known}});
  }
};

std::optional<std::string> apply_filter(GameFilter& f, const json& j, const Reader& r) {
  if (!j.is_object()) return r.t("bot.settings.object", {{"path", "accept"}, {"got", j.dump()}});
  for (const auto& [key, v] : j.items()) {
    const std::string k = "accept." + key;
    std::optional<std::string> err;
    if (key == "rules") {
      if (!v.is_array()) return r.t("bot.settings.rule_list", {{"path", k}, {"got", v.dump()}});
      f.rules.clear();
      for (const auto& name : v) {
        if (auto e = r.take(jf::text(name, k), [&](std::string s) { f.rules.push_back(s); }))
          return e;
      }
    } else if (key == "unlimited") {
      err = r.take(jf::boolean(v, k), [&](bool b) { f.unlimited = b; });
    } else if (key == "min_seconds") {
      err = r.take(jf::number(v, k, 0, kMaxSeconds), [&](double d) { f.min_seconds = d; });
    } else if (key == "max_seconds") {
      err = r.take(jf::number(v, k, 0, kMaxSeconds), [&](double d) { f.max_seconds = d; });
    } else if (key == "rated") {
      if (v == "any")
        f.rated = RatedFilter::Any;
      else if (v == "rated")
        f.rated = RatedFilter::Rated;
      else if (v == "casual")
        f.rated = RatedFilter::Casual;
      else
        err = r.one_of(k, "any, rated, casual", v);
    } else if (key == "bots") {
      err = r.take(jf::boolean(v, k), [&](bool b) { f.bots = b; });
    } else {
      err = r.unknown(k, "rules, unlimited, min_seconds, max_seconds, rated, bots");
    }
    if (err) return err;
  }
  return std::nullopt;
}

std::optional<std::string> apply_seek(BotConfig& c, const json& j, const Reader& r) {
  if (j.is_null()) {
    c.seek.reset();
    return std::nullopt;
  }
  if (!j.is_object())
    return r.t("bot.settings.object_or_null", {{"path", "seek"}, {"got", j.dump()}});
  SeekSettings s;
  for (const auto& [key, v] : j.items()) {
    const std::string k = "seek." + key;
    std::optional<std::string> err;
    if (key == "rules") {
      err = r.take(jf::text(v, k), [&](std::string name) { s.rules = std::move(name); });
    } else if (key == "time") {
      // time_control_from_json's own reason is English: the person is shown the value and the
      // forms a clock takes instead.
      auto time = time_control_from_json(v);
      if (!time) return r.t("bot.settings.time", {{"path", k}, {"got", v.dump()}});
      s.time = *time;
    } else if (key == "rated") {
      err = r.take(jf::boolean(v, k), [&](bool b) { s.rated = b; });
    } else {
      err = r.unknown(k, "rules, time, rated");
    }
    if (err) return err;
  }
  c.seek = s;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(RatedFilter f) {
  switch (f) {
    case RatedFilter::Any:
      return "any";
    case RatedFilter::Rated:
      return "rated";
    case RatedFilter::Casual:
      return "casual";
  }
  return "any";
}

std::filesystem::path default_known_servers() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state != nullptr && std::filesystem::path(state).is_absolute())
    return std::filesystem::path(state) / "amazons" / "known_servers";
  const char* home = std::getenv("HOME");
  if (home != nullptr && std::filesystem::path(home).is_absolute())
    return std::filesystem::path(home) / ".local" / "state" / "amazons" / "known_servers";
  // Windows, where HOME is not set: the user's local application data.
  const char* local = std::getenv("LOCALAPPDATA");
  if (local != nullptr && std::filesystem::path(local).is_absolute())
    return std::filesystem::path(local) / "amazons" / "known_servers";
  return {};
}

std::string address_text(const client::Catalogue& t, std::string_view path,
                         const net::AddressError& e) {
  return t("bot.settings.server",
           {{"path", std::string(path)},
            {"problem", t("online.address." + std::string(net::code_name(e.code)),
                          {{"text", e.text}, {"detail", e.detail}})}});
}

std::optional<std::string> apply_server(BotConfig& c, const std::vector<net::ServerAddress>& all,
                                        const client::Catalogue& t) {
  const net::ServerAddress& a = all.front();
  if (a.transport != Transport::Tcp && a.transport != Transport::Tls)
    return t("bot.settings.transport", {{"server", net::to_string(a)}});
  c.host = a.host;
  c.port = a.port;
  c.tls = a.transport == Transport::Tls;
  c.more_servers.clear();
  for (std::size_t i = 1; i < all.size(); ++i) c.more_servers.push_back({all[i].host, all[i].port});
  return std::nullopt;
}

Expected<BotConfig, std::string> apply_bot_json(BotConfig c, const json& j,
                                                const client::Catalogue& t) {
  if (!j.is_object()) return Error{t("bot.settings.not_object", {{"got", j.dump()}})};
  const Reader r{t};
  for (const auto& [key, v] : j.items()) {
    std::optional<std::string> err;
    if (key == "description") {
      err = r.take(jf::text(v, key), [](const std::string&) {});
    } else if (key == "server") {
      auto text = jf::text(v, key);
      if (!text) {
        err = field_text(t, text.error());
      } else if (auto address = net::read_server_addresses(*text); !address) {
        err = address_text(t, key, address.error());
      } else if (auto why = apply_server(c, *address, t)) {
        err = *why;
      }
    } else if (key == "tls_fingerprint") {
      auto text = jf::text(v, key);
      auto fp = text ? tls::parse_fingerprint(*text) : std::nullopt;
      if (!fp)
        err = t("bot.settings.fingerprint", {{"path", key}, {"got", v.dump()}});
      else
        c.tls_fingerprint = *fp;
    } else if (key == "known_servers") {
      err = r.take(jf::text(v, key), [&](std::string s) { c.known_servers = s; });
    } else if (key == "name") {
      err = r.take(jf::text(v, key), [&](std::string s) { c.name = std::move(s); });
    } else if (key == "password") {
      err = r.optional_text(v, key, c.password);
    } else if (key == "server_password") {
      err = r.optional_text(v, key, c.server_password);
    } else if (key == "level") {
      err = r.take(jf::text(v, key), [&](std::string s) { c.level = std::move(s); });
    } else if (key == "engine") {
      err = r.optional_text(v, key, c.engine);
    } else if (key == "protocol") {
      const auto p =
          v.is_string() ? ai::external_protocol_from_code(v.get<std::string>()) : std::nullopt;
      if (p)
        c.protocol = *p;
      else
        err = r.one_of(key, "amazons, uci, botzone", v);
    } else if (key == "engine_restarts") {
      err = r.take(jf::integer(v, key, 0, kMaxRestarts),
                   [&](long long i) { c.engine_restarts = static_cast<int>(i); });
    } else if (key == "ai_config") {
      if (v.is_null())
        c.ai_config.clear();
      else
        err = r.take(jf::text(v, key), [&](const std::string& s) { c.ai_config = s; });
    } else if (key == "threads") {
      err = r.take(jf::integer(v, key, 1, kMaxThreads),
                   [&](long long i) { c.threads = static_cast<int>(i); });
    } else if (key == "hash_mb") {
      err = r.take(jf::integer(v, key, 1, kMaxHashMb),
                   [&](long long i) { c.hash_mb = static_cast<int>(i); });
    } else if (key == "max_games") {
      err = r.take(jf::integer(v, key, 1, kMaxGames),
                   [&](long long i) { c.max_games = static_cast<int>(i); });
    } else if (key == "join_open") {
      err = r.take(jf::boolean(v, key), [&](bool b) { c.join_open = b; });
    } else if (key == "accept_challenges") {
      err = r.take(jf::boolean(v, key), [&](bool b) { c.accept_challenges = b; });
    } else if (key == "seek") {
      err = apply_seek(c, v, r);
    } else if (key == "ponder") {
      err = r.take(jf::boolean(v, key), [&](bool b) { c.ponder = b; });
    } else if (key == "rematch") {
      err = r.take(jf::boolean(v, key), [&](bool b) { c.rematch = b; });
    } else if (key == "claim") {
      err = r.take(jf::boolean(v, key), [&](bool b) { c.claim = b; });
    } else if (key == "games") {
      err = r.take(jf::integer(v, key, 0, 1'000'000'000),
                   [&](long long i) { c.games = static_cast<int>(i); });
    } else if (key == "accept") {
      err = apply_filter(c.accept, v, r);
    } else if (key == "lag_margin") {
      err = r.take(jf::number(v, key, 0, 60), [&](double d) { c.lag_margin = millis_of(d); });
    } else if (key == "list_interval") {
      err =
          r.take(jf::number(v, key, 0.1, 3600), [&](double d) { c.list_interval = millis_of(d); });
    } else if (key == "log_level") {
      err = r.take(jf::text(v, key), [&](std::string s) { c.log_level = std::move(s); });
    } else {
      err = r.unknown(
          key,
          "server, tls_fingerprint, known_servers, name, password, server_password, level, engine, "
          "protocol, engine_restarts, ai_config, threads, hash_mb, ponder, max_games, join_open, "
          "accept_challenges, seek, rematch, claim, games, accept, lag_margin, list_interval, "
          "log_level");
    }
    if (err) return Error{*err};
  }
  return c;
}

Expected<BotConfig, std::string> load_bot_config(BotConfig config,
                                                 const std::filesystem::path& path,
                                                 const client::Catalogue& t) {
  auto j = jf::read_file(path);
  if (!j) return Error{field_text(t, j.error())};
  auto c = apply_bot_json(std::move(config), *j, t);
  if (!c) return Error{t("bot.settings.in_file", {{"file", path.string()}, {"error", c.error()}})};
  return c;
}

Expected<BotConfig, std::string> finish_config(BotConfig c, const client::Catalogue& t) {
  if (c.name.empty()) return Error{t("bot.config.no_name")};
  if (c.tls_fingerprint && !c.tls) return Error{t("bot.config.fingerprint_without_tls")};
  if (c.engine && c.engine->find_first_not_of(" \t") == std::string::npos)
    return Error{t("bot.config.empty_engine")};
  if (c.engine && c.ponder) return Error{t("bot.config.ponder_program")};
  if (c.log_level != "debug" && c.log_level != "info" && c.log_level != "warn" &&
      c.log_level != "error")
    return Error{t("bot.config.log_level", {{"given", c.log_level}})};
  if (c.accept.max_seconds > 0 && c.accept.max_seconds < c.accept.min_seconds)
    return Error{t("bot.config.max_below_min")};
  if (c.engine && c.protocol == ai::ExternalProtocol::Botzone) {
    // A Botzone program knows only the 8x8 board from its start position.
    constexpr std::string_view kBotzone = "botzone8";
    const bool other = std::any_of(c.accept.rules.begin(), c.accept.rules.end(),
                                   [&](const std::string& r) { return r != kBotzone; });
    if (other) return Error{t("bot.config.botzone_accept")};
    c.accept.rules = {std::string(kBotzone)};
    if (c.seek && c.seek->rules != kBotzone) return Error{t("bot.config.botzone_seek")};
  }
  if (c.seek && !c.accept.rules.empty() &&
      std::find(c.accept.rules.begin(), c.accept.rules.end(), c.seek->rules) ==
          c.accept.rules.end())
    return Error{t("bot.config.seek_not_accepted", {{"rules", c.seek->rules}})};
  return c;
}

std::optional<std::string> refusal(const GameFilter& f, const std::string& rules,
                                   const TimeControl& time, bool rated,
                                   const protocol::PlayerRef& opponent,
                                   const client::Catalogue& t) {
  if (!f.rules.empty() && std::find(f.rules.begin(), f.rules.end(), rules) == f.rules.end()) {
    std::string list;
    for (const auto& r : f.rules) list += (list.empty() ? "" : ", ") + r;
    return t("bot.refusal.rules", {{"rules", list}, {"given", rules}});
  }
  if (time.kind == TimeControl::Kind::Unlimited) {
    if (!f.unlimited) return t("bot.refusal.clock");
  } else {
    const double s = estimated_seconds(time);
    const auto shown = [](double v) { return std::to_string(std::llround(v)); };
    if (f.min_seconds > 0 && s < f.min_seconds)
      return t("bot.refusal.too_fast",
               {{"time", to_string(time)}, {"seconds", shown(s)}, {"limit", shown(f.min_seconds)}});
    if (f.max_seconds > 0 && s > f.max_seconds)
      return t("bot.refusal.too_slow",
               {{"time", to_string(time)}, {"seconds", shown(s)}, {"limit", shown(f.max_seconds)}});
  }
  if (f.rated == RatedFilter::Rated && !rated) return t("bot.refusal.rated");
  if (f.rated == RatedFilter::Casual && rated) return t("bot.refusal.casual");
  if (!f.bots && opponent.bot) return t("bot.refusal.bots");
  return std::nullopt;
}

}  // namespace amazons::bot
