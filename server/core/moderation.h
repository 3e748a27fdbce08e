// The lobby's moderation state (docs/PROTOCOL.md "Moderation"): roles, the registrations
// switch, bans and mutes in force, open reports and the recent chat lines a moderator may
// remove or a player report. Pure data; the rules are in lobby_moderation.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "server/core/storage.h"

namespace amazons::server {

struct ChatLine {
  std::string game;
  std::string from;
  std::string text;
};

struct ModerationState {
  // Chat lines kept for remove_chat and report: enough for the recent past of every room.
  static constexpr std::size_t kKeptChatLines = 2000;

  ModerationSettings settings;
  std::map<std::pair<SanctionKind, std::string>, SanctionRow> sanctions;
  std::map<std::int64_t, ReportRow> open_reports;
  // The address each open report filed here came from, for the per-address cap (not stored:
  // reports read back after a restart, or filed on another node, count for no address).
  std::map<std::int64_t, std::string> report_addresses;
  std::map<std::int64_t, ChatLine> chat_lines;
  std::int64_t next_chat_line = 1;

  // The sanction in force on `target`, if any; an expired one is forgotten.
  const SanctionRow* active(SanctionKind kind, const std::string& target, Timestamp now) {
    const auto it = sanctions.find({kind, target});
    if (it == sanctions.end()) return nullptr;
    if (it->second.expires_at && *it->second.expires_at <= now) {
      sanctions.erase(it);
      return nullptr;
    }
    return &it->second;
  }
};

}  // namespace amazons::server
