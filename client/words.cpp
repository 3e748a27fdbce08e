#include "client/words.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <optional>
#include <string_view>

#include "client/computer_game.h"
#include "client/settings.h"
#include "common/protocol_enums.h"

namespace amazons::client {

std::string side_name(const Catalogue& t, Color c) {
  return t(c == Color::White ? "side.white" : "side.black");
}

std::string result_title(const Catalogue& t, const GameResult& r) {
  if (!r.winner) return t("result.aborted");
  return t("result.side_wins", {{"side", side_name(t, *r.winner)}});
}

std::string result_reason(const Catalogue& t, const GameResult& r, const std::string& detail) {
  const std::string loser = r.winner ? side_name(t, ~*r.winner) : std::string();
  switch (r.reason) {
    case EndReason::NoMoves:
      return t("result.reason.no_moves", {{"loser", loser}});
    case EndReason::Resign:
      return t("result.reason.resign", {{"loser", loser}});
    case EndReason::Time:
      return t("result.reason.time", {{"loser", loser}});
    case EndReason::Abandon:
      return t("result.reason.abandon", {{"loser", loser}});
    case EndReason::Aborted:
      return t("result.reason.aborted");
    case EndReason::Adjudicated:
      return t("result.reason.adjudicated");
    case EndReason::IllegalMove:
      return detail.empty() ? t("result.reason.illegal_move", {{"loser", loser}})
                            : t("result.reason.illegal_move_detail", {{"detail", detail}});
  }
  return {};
}

std::string game_status(const Catalogue& t, const GameViewModel& vm) {
  if (!vm.running()) return vm.result() ? result_title(t, *vm.result()) : std::string();
  const std::string side = side_name(t, vm.to_move());
  return t(vm.thinking(vm.to_move()) ? "game.status.thinking" : "game.status.to_move",
           {{"side", side}});
}

std::string stage_hint(const Catalogue& t, InputStage s) {
  switch (s) {
    case InputStage::ChooseQueen:
      return t("game.hint.queen");
    case InputStage::ChooseDestination:
      return t("game.hint.destination");
    case InputStage::ChooseArrow:
      return t("game.hint.arrow");
    case InputStage::Disabled:
      break;
  }
  return {};
}

std::string time_choice_text(const Catalogue& t, const TimeControl& tc) {
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  constexpr long long kDay = 86'400;
  const long long initial = duration_cast<seconds>(tc.initial).count();
  const long long increment = duration_cast<seconds>(tc.increment).count();
  const long long per_move = duration_cast<seconds>(tc.per_move).count();
  switch (tc.kind) {
    case TimeControl::Kind::Unlimited:
      return t("time.no_clock_choice");
    case TimeControl::Kind::PerMove:
      if (per_move >= kDay && per_move % kDay == 0)
        return t("time.choice.days_per_move", {{"days", per_move / kDay}});
      return t("time.seconds_per_move", {{"seconds", per_move}});
    case TimeControl::Kind::Fischer:
      if (initial % kDay == 0 && increment % kDay == 0 && increment > 0)
        return t("time.days_increment",
                 {{"days", initial / kDay}, {"increment", increment / kDay}});
      if (increment > 0)
        return t("time.minutes_increment", {{"minutes", initial / 60}, {"increment", increment}});
      return t("time.minutes", {{"minutes", initial / 60}});
  }
  return {};
}

std::string rules_name(const Catalogue& t, const std::string& name) {
  const std::string key = "rules." + name;
  return t.knows(key) ? t(key) : name;
}

std::string variant_text(const Catalogue& t, const RuleVariant& v) {
  return t("rules.label", {{"name", rules_name(t, v.name)}, {"size", v.size}});
}

std::string level_name(const Catalogue& t, std::string_view level) {
  const std::string key = "computer.level.short." + std::string(level);
  if (t.knows(key)) {
    std::string name = t(key);
    // "hard" as a sentence's word, "Hard" alone in a list (Chinese has no capitals).
    if (!name.empty() && name[0] >= 'a' && name[0] <= 'z')
      name[0] = static_cast<char>(name[0] - 32);
    return name;
  }
  return std::string(level);
}

std::string level_description(const Catalogue& t, std::string_view level,
                              const std::string& configured) {
  const std::string key = "computer.level." + std::string(level);
  return t.knows(key) ? t(key) : configured;
}

std::string player_name(const Catalogue& t, const PlayerInfo& p) {
  if (const auto level = computer_level(p))
    return t("computer.player_name", {{"level", level_name(t, *level)}});
  return p.name;
}

std::string game_summary(const Catalogue& t, const GameRecord& r) {
  std::string when;
  if (r.started_at) {
    const std::string at = format_timestamp(*r.started_at);  // 2026-11-29T14:25:19Z
    when = at.substr(0, 10) + " " + at.substr(11, 5);
  }
  return t("record.summary",
           {{"white", player_name(t, r.white)},
            {"black", player_name(t, r.black)},
            {"when", when.empty() ? std::string("none") : when},
            {"result", r.result ? result_title(t, *r.result) : t("record.unfinished")},
            {"count", r.moves.size()}});
}

std::string error_text(const Catalogue& t, std::string_view code, std::string_view reason) {
  if (code == "illegal_move" && !reason.empty()) {
    const std::string key = "error.illegal_move." + std::string(reason);
    if (t.knows(key)) return t(key);
  }
  const std::string key = "error." + std::string(code);
  if (!code.empty() && t.knows(key)) return t(key);
  return t("error.unknown", {{"code", std::string(code)}});
}

std::string client_error_text(const Catalogue& t, const net::ClientError& e) {
  switch (e.kind) {
    case net::ClientError::Kind::Server:
      return e.code ? error_text(t, protocol::code(*e.code), e.reason.value_or(""))
                    : t("error.unknown", {{"code", e.message}});
    case net::ClientError::Kind::Connect:
      return t("connection.error.connect");
    case net::ClientError::Kind::Disconnected:
      return t("connection.error.disconnected");
    case net::ClientError::Kind::Timeout:
      return t("connection.error.timeout");
    case net::ClientError::Kind::NotConnected:
      return t("connection.error.not_connected");
    case net::ClientError::Kind::BadReply:
      return t("connection.error.bad_reply");
    case net::ClientError::Kind::Closed:
      return t("connection.error.closed");
    case net::ClientError::Kind::Certificate:
      return t("connection.error.certificate");
  }
  return e.message;
}

std::string time_left_text(const Catalogue& t, const std::optional<std::int64_t>& ms) {
  if (!ms) return t("time.no_clock");
  const std::int64_t m = std::max<std::int64_t>(0, *ms / 60'000);  // whole minutes
  if (m == 0) return t(*ms > 0 ? "time.left.under_a_minute" : "time.left.none");
  const std::int64_t d = m / 1440, h = m % 1440 / 60, min = m % 60;
  if (d > 0)
    return h > 0 ? t("time.left.days_hours", {{"d", d}, {"h", h}})
                 : t("time.left.days", {{"d", d}});
  if (h > 0)
    return min > 0 ? t("time.left.hours_minutes", {{"h", h}, {"min", min}})
                   : t("time.left.hours", {{"h", h}});
  return t("time.left.minutes", {{"min", min}});
}

std::string address_error_text(const Catalogue& t, const net::AddressError& e) {
  return t("online.address." + std::string(net::code_name(e.code)),
           {{"text", e.text}, {"detail", e.detail}});
}

std::string host_failure_text(const Catalogue& t, const HostFailure& f) {
  using Kind = HostFailure::Kind;
  const std::string cause = f.error == ENOENT                         ? t("host.cause.missing")
                            : f.error == EACCES || f.error == EPERM   ? t("host.cause.denied")
                            : f.error == ENOTDIR || f.error == EEXIST ? t("host.cause.in_the_way")
                                                                      : f.detail;
  const std::string log = f.log.string();
  switch (f.kind) {
    case Kind::NotRunnable:
      return t("host.failure.not_runnable", {{"path", f.path}, {"cause", cause}});
    case Kind::NoDirectory:
      return t("host.failure.no_directory", {{"path", f.path}, {"cause", cause}});
    case Kind::NoProcess:
      return t("host.failure.no_process", {{"cause", cause}});
    case Kind::Storage:
      return t("host.failure.storage", {{"path", f.path}, {"log", log}});
    case Kind::Tls:
      return t("host.failure.tls", {{"log", log}});
    case Kind::Stopped:
      break;
  }
  return t("host.failure.stopped", {{"log", log}});
}

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool has_space(std::string_view s) { return std::any_of(s.begin(), s.end(), is_space); }
// A word: not empty, no white space in it.
bool is_word(std::string_view s) { return !s.empty() && !has_space(s); }

// What follows `prefix` in `s`, if `s` begins with it.
std::optional<std::string_view> after(std::string_view s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return std::nullopt;
  return s.substr(prefix.size());
}

// A removed chat line's reason as the server writes it (lobby_moderation.cpp):
// `REASON (line N in game G: "TEXT")`, REASON maybe empty, TEXT anything.
struct RemovedLine {
  std::string_view reason, line, game, text;
};
std::optional<RemovedLine> removed_line(std::string_view s) {
  if (!s.ends_with("\")")) return std::nullopt;
  for (auto at = s.find("(line "); at != std::string_view::npos; at = s.find("(line ", at + 1)) {
    const auto digits = at + 6;
    auto end = digits;
    while (end < s.size() && is_digit(s[end])) ++end;
    const auto game_at = end + std::string_view(" in game ").size();
    if (end == digits || s.substr(end).substr(0, 9) != " in game ") continue;
    auto game_end = game_at;  // the game is a word, its colon the last character
    while (game_end < s.size() && !is_space(s[game_end])) ++game_end;
    if (game_end < game_at + 2 || s[game_end - 1] != ':' ||
        s.substr(game_end).substr(0, 2) != " \"" || game_end + 2 > s.size() - 2)
      continue;
    std::string_view reason = s.substr(0, at);
    if (reason.ends_with(' ')) reason.remove_suffix(1);
    return RemovedLine{reason, s.substr(digits, end - digits),
                       s.substr(game_at, game_end - 1 - game_at),
                       s.substr(game_end + 2, s.size() - 2 - (game_end + 2))};
  }
  return std::nullopt;
}

}  // namespace

// The server's forms (lobby_moderation.cpp, admin.cpp), read by hand: the text comes from the
// server, and a regular expression over it cost a recursion per character.
std::string audit_target_text(const Catalogue& t, std::string_view action,
                              const std::string& target) {
  if (const auto game = after(target, "game ")) {
    // "game G to White" (an adjudication), or "game G".
    const auto to = game->rfind(" to ");
    if (action == "adjudicate" && to != std::string_view::npos && is_word(game->substr(0, to))) {
      const auto side = game->substr(to + 4);
      if (side == "White" || side == "Black")
        return t("moderation.target.game_to",
                 {{"game", std::string(game->substr(0, to))},
                  {"side", side_name(t, side == "White" ? Color::White : Color::Black)}});
    }
    if (is_word(*game)) return t("moderation.target.game", {{"game", std::string(*game)}});
  }
  if (const auto report = after(target, "report "); report && action == "resolve") {
    // "report N on PLAYER"
    auto end = std::size_t{0};
    while (end < report->size() && is_digit((*report)[end])) ++end;
    const auto player = report->substr(end);
    if (end > 0 && player.starts_with(" on ") && player.size() > 4 &&
        player.find_first_of("\r\n") == std::string_view::npos)
      return t("moderation.target.report", {{"report", std::string(report->substr(0, end))},
                                            {"player", std::string(player.substr(4))}});
  }
  if ((action == "open_registrations" || action == "close_registrations") && target == "server")
    return t("moderation.target.server");
  if (action == "grant") {
    // "PLAYER moderator" or "PLAYER admin"
    const auto space = target.find(' ');
    const std::string_view player = std::string_view(target).substr(0, space);
    const std::string role = space == std::string::npos ? "" : target.substr(space + 1);
    if (is_word(player) && (role == "moderator" || role == "admin"))
      return t("moderation.target.grant",
               {{"player", std::string(player)}, {"role", t("moderation.role." + role)}});
  }
  return target;
}

std::string audit_reason_text(const Catalogue& t, std::string_view action,
                              const std::string& reason) {
  if (action != "remove_chat") return reason;
  const auto r = removed_line(reason);
  if (!r) return reason;
  const std::string removed = t("moderation.removed_line", {{"line", std::string(r->line)},
                                                            {"game", std::string(r->game)},
                                                            {"text", std::string(r->text)}});
  return r->reason.empty() ? removed
                           : t("moderation.removed_line.after",
                               {{"reason", std::string(r->reason)}, {"removed", removed}});
}

std::string name_problem_text(const Catalogue& t, std::string_view problem) {
  return t("online.name_problem." + std::string(problem), {{"max", kMaxNameLength}});
}

}  // namespace amazons::client
