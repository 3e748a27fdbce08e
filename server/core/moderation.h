// The lobby's moderation (docs/PROTOCOL.md "Moderation"): roles, the registrations switch,
// bans and mutes in force, open reports and the recent chat lines a moderator may remove or a
// player report. This object owns that state and its rules (expiry, look-alike bans, the caps on
// reports, how long chat lines are kept); the lobby's handlers (lobby_moderation.cpp) check
// requests, answer them and write what changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/protocol_types.h"
#include "server/core/storage.h"

namespace amazons::server {

struct ChatLine {
  std::string game;
  std::string from;
  std::string text;
};

// How many open reports may pile up: per reporter, per address they come from, per player
// reported. Throwaway names share their address, and any number of addresses may pile on one
// player: each is capped.
struct ReportLimits {
  std::size_t per_reporter;
  std::size_t per_address;
  std::size_t per_target;
};

class Moderation {
 public:
  // Chat lines kept for remove_chat and report: enough for the recent past of every room.
  static constexpr std::size_t kKeptChatLines = 2000;

  Moderation() = default;
  // As stored: the settings, the sanctions and the open reports.
  Moderation(ModerationSettings settings, const std::vector<SanctionRow>& sanctions,
             const std::vector<ReportRow>& open_reports);

  const ModerationSettings& settings() const { return settings_; }
  void set_settings(ModerationSettings settings) { settings_ = std::move(settings); }
  protocol::Role role_of(const std::string& name) const;

  // The sanction in force on `target`, if any; an expired one is forgotten.
  const SanctionRow* active(SanctionKind kind, const std::string& target, Timestamp now);
  // The ban in force on `name` or on a name that looks like it (canonical_name.h), if any.
  const SanctionRow* name_ban(const std::string& name, Timestamp now);
  void impose(const SanctionRow& row) { sanctions_[{row.kind, row.target}] = row; }
  void lift(SanctionKind kind, const std::string& target) { sanctions_.erase({kind, target}); }
  // Every sanction in force, in (kind, target) order; the expired ones are forgotten.
  std::vector<SanctionRow> in_force(Timestamp now);

  // Keeps a chat line under `id` (the oldest go past kKeptChatLines).
  void keep_line(std::int64_t id, ChatLine line);
  // A number for the next line kept here.
  std::int64_t next_line_number() { return next_chat_line_++; }
  const ChatLine* line(std::int64_t id) const;
  std::optional<ChatLine> remove_line(std::int64_t id);

  // Why `reporter` (from `address`, empty when unknown) may not file one more report on
  // `player` now: the cap it meets, with its limit. None when they may.
  struct Cap {
    enum class Which : std::uint8_t { Reporter, Address, Target } which;
    std::size_t limit;
  };
  std::optional<Cap> report_cap(const std::string& reporter, const std::string& address,
                                const std::string& player, const ReportLimits& limits) const;
  // Files an open report (numbered by the caller); `address` counts towards its cap until the
  // report is resolved (reports read back after a restart, or filed on another node, count for
  // no address).
  void file(const ReportRow& row, const std::string& address);
  // The open report `id` resolved by `by`: the row as it is to be stored, none if there is no
  // such open report.
  std::optional<ReportRow> resolve(std::int64_t id, const std::string& by, Timestamp at,
                                   const std::string& note);
  // A report filed or resolved on another node.
  void learn(const ReportRow& row);
  const std::map<std::int64_t, ReportRow>& open_reports() const { return open_reports_; }

 private:
  ModerationSettings settings_;
  std::map<std::pair<SanctionKind, std::string>, SanctionRow> sanctions_;
  std::map<std::int64_t, ReportRow> open_reports_;
  std::map<std::int64_t, std::string> report_addresses_;  // open report -> address filed from
  std::map<std::int64_t, ChatLine> chat_lines_;
  std::int64_t next_chat_line_ = 1;
};

}  // namespace amazons::server
