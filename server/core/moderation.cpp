#include "server/core/moderation.h"

#include <algorithm>

#include "server/core/canonical_name.h"

namespace amazons::server {

Moderation::Moderation(ModerationSettings settings, const std::vector<SanctionRow>& sanctions,
                       const std::vector<ReportRow>& open_reports)
    : settings_(std::move(settings)) {
  for (const SanctionRow& row : sanctions) impose(row);
  for (const ReportRow& row : open_reports) open_reports_[row.id] = row;
}

protocol::Role Moderation::role_of(const std::string& name) const {
  const auto it = settings_.roles.find(name);
  return it == settings_.roles.end() ? protocol::Role::Player : it->second;
}

const SanctionRow* Moderation::active(SanctionKind kind, const std::string& target, Timestamp now) {
  const auto it = sanctions_.find({kind, target});
  if (it == sanctions_.end()) return nullptr;
  if (it->second.expires_at && *it->second.expires_at <= now) {
    sanctions_.erase(it);
    return nullptr;
  }
  return &it->second;
}

const SanctionRow* Moderation::name_ban(const std::string& name, Timestamp now) {
  if (const SanctionRow* ban = active(SanctionKind::BanName, name, now)) return ban;
  // Bans are few; a look-alike of a banned name is the banned name.
  const std::string canonical = canonical_name(name);
  std::vector<std::string> look_alikes;
  for (const auto& [key, row] : sanctions_)
    if (key.first == SanctionKind::BanName && canonical_name(key.second) == canonical)
      look_alikes.push_back(key.second);
  for (const std::string& target : look_alikes)
    if (const SanctionRow* ban = active(SanctionKind::BanName, target, now)) return ban;
  return nullptr;
}

std::vector<SanctionRow> Moderation::in_force(Timestamp now) {
  std::vector<SanctionRow> out;
  for (auto it = sanctions_.begin(); it != sanctions_.end();) {
    if (it->second.expires_at && *it->second.expires_at <= now) {
      it = sanctions_.erase(it);
      continue;
    }
    out.push_back(it->second);
    ++it;
  }
  return out;
}

void Moderation::keep_line(std::int64_t id, ChatLine line) {
  chat_lines_[id] = std::move(line);
  while (chat_lines_.size() > kKeptChatLines) chat_lines_.erase(chat_lines_.begin());
}

const ChatLine* Moderation::line(std::int64_t id) const {
  const auto it = chat_lines_.find(id);
  return it == chat_lines_.end() ? nullptr : &it->second;
}

std::optional<ChatLine> Moderation::remove_line(std::int64_t id) {
  const auto it = chat_lines_.find(id);
  if (it == chat_lines_.end()) return std::nullopt;
  ChatLine line = std::move(it->second);
  chat_lines_.erase(it);
  return line;
}

std::optional<Moderation::Cap> Moderation::report_cap(const std::string& reporter,
                                                      const std::string& address,
                                                      const std::string& player,
                                                      const ReportLimits& limits) const {
  // Counted afresh, as the kept offers are: reports are few.
  const auto count = [&](auto&& pred) {
    return static_cast<std::size_t>(
        std::count_if(open_reports_.begin(), open_reports_.end(), pred));
  };
  if (count([&](const auto& r) { return r.second.reporter == reporter; }) >= limits.per_reporter)
    return Cap{Cap::Which::Reporter, limits.per_reporter};
  if (!address.empty()) {
    const auto from_there = std::count_if(report_addresses_.begin(), report_addresses_.end(),
                                          [&](const auto& r) { return r.second == address; });
    if (static_cast<std::size_t>(from_there) >= limits.per_address)
      return Cap{Cap::Which::Address, limits.per_address};
  }
  if (count([&](const auto& r) { return r.second.player == player; }) >= limits.per_target)
    return Cap{Cap::Which::Target, limits.per_target};
  return std::nullopt;
}

void Moderation::file(const ReportRow& row, const std::string& address) {
  open_reports_[row.id] = row;
  if (!address.empty()) report_addresses_[row.id] = address;
}

std::optional<ReportRow> Moderation::resolve(std::int64_t id, const std::string& by, Timestamp at,
                                             const std::string& note) {
  const auto it = open_reports_.find(id);
  if (it == open_reports_.end()) return std::nullopt;
  ReportRow row = std::move(it->second);
  row.resolved_by = by;
  row.resolved_at = at;
  row.note = note;
  open_reports_.erase(it);
  report_addresses_.erase(id);
  return row;
}

void Moderation::learn(const ReportRow& row) {
  if (row.resolved_by) {
    open_reports_.erase(row.id);
    report_addresses_.erase(row.id);
  } else {
    open_reports_[row.id] = row;
  }
}

}  // namespace amazons::server
