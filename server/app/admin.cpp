#include "server/app/admin.h"

#include "common/protocol_enums.h"
#include "server/core/auth.h"

namespace amazons::server {

int run_admin(Storage& storage, const AdminCommand& command, std::FILE* out, Timestamp now) {
  using Kind = AdminCommand::Kind;
  const auto audit = [&](std::string action, std::string target) {
    return AuditRow{
        now, "console", std::move(action), std::move(target), "amazons-server admin", std::nullopt};
  };
  const auto apply = [&](std::vector<StorageWrite> writes) {
    const WriteBatch batch{std::move(writes)};
    storage.apply(std::span(&batch, 1));
  };
  switch (command.kind) {
    case Kind::Grant:
    case Kind::Revoke: {
      if (auto problem = name_problem(command.name)) {
        std::fprintf(out, "amazons-server admin: %s\n", problem->c_str());
        return 2;
      }
      const protocol::Role role =
          command.kind == Kind::Grant ? command.role : protocol::Role::Player;
      const std::string role_name(protocol::enum_name(role));
      apply({RoleRow{command.name, role},
             audit(command.kind == Kind::Grant ? "grant" : "revoke",
                   command.name + (command.kind == Kind::Grant ? " " + role_name : ""))});
      bool known = false;
      for (const PlayerRow& p : storage.load().players) known = known || p.name == command.name;
      std::fprintf(out, "%s is now %s%s\n", command.name.c_str(),
                   role == protocol::Role::Player ? "a player" : ("a " + role_name).c_str(),
                   known ? "" : " (no player has logged in with that name yet)");
      return 0;
    }
    case Kind::CloseRegistrations:
    case Kind::OpenRegistrations: {
      const bool open = command.kind == Kind::OpenRegistrations;
      apply({RegistrationsRow{open},
             audit(open ? "open_registrations" : "close_registrations", "server")});
      std::fprintf(out, "registrations are %s\n",
                   open ? "open: anyone may log in with a new name"
                        : "closed: only names already known may log in");
      return 0;
    }
    case Kind::List: {
      const LoadedState state = storage.load();
      std::fprintf(out, "registrations: %s\n",
                   state.moderation.registrations_open ? "open" : "closed");
      for (const auto& [name, role] : state.moderation.roles)
        std::fprintf(out, "%s: %s\n", std::string(protocol::enum_name(role)).c_str(), name.c_str());
      for (const SanctionRow& s : state.sanctions) {
        if (s.expires_at && *s.expires_at <= now) continue;
        std::fprintf(
            out, "%s %s by %s %s: %s\n", std::string(sanction_name(s.kind)).c_str(),
            s.target.c_str(), s.by.c_str(),
            s.expires_at ? ("until " + format_timestamp(*s.expires_at)).c_str() : "for good",
            s.reason.c_str());
      }
      std::fprintf(out, "open reports: %zu\n", state.open_reports.size());
      return 0;
    }
  }
  return 2;
}

}  // namespace amazons::server
