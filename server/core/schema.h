// Schema versions, shared by both backends. A database records the version it was written
// with (table schema_version; version 1, the first release, kept it in meta.schema). Opening
// an older database upgrades it in one transaction; a newer one is refused.
//
// Versions:
//   1  players, games, moves; the version in meta(key 'schema').
//   2  the version in schema_version(version), the same table in SQLite and PostgreSQL; meta
//      dropped.
//   3  offers(id, owner, request, invite, created_at, expires_at): open games, seeks and
//      challenges that last across disconnects and restarts.
//   4  moderation: roles(name, role), settings(key, value) for the registrations switch,
//      sanctions (bans and mutes), audit (the moderators' log), reports.
//   5  tournaments(id, name, status, state): each tournament's settings, players and pairings
//      (server/core/tournament.h, as JSON), kept after it finishes (the archive).
//   6  the cluster: games.owner_token (the fencing token of the node that holds the game, 0 for
//      none), counters(name, value) for game ids reserved in blocks; in PostgreSQL also the
//      function amz_fence that fenced writes run first.
//   7  players.canonical: the name's canonical form (server/core/canonical_name.h), indexed among
//      registered players, so that a look-alike of any account is found in one lookup. The
//      lobby (and a cluster's login job) refuses a look-alike before it is written; the index
//      is not unique, since a write the database refused would stop the server (a storage
//      failure is fatal), and two cluster nodes racing to register look-alikes must not be a way
//      to stop nodes: such a pair is kept, as look-alikes from before schema 7 are. The upgrade
//      computes the form in the program (ICU, not SQL); of look-alike accounts made before, the
//      first by name keeps it and the others keep NULL: they go on working.
#pragma once

#include <string>

namespace amazons::server {

inline constexpr int kSchemaVersion = 7;

// Schema 7's index: registered names by canonical form (not unique: see schema 7 above).
inline constexpr const char* kCanonicalIndex =
    "CREATE INDEX players_canonical ON players(canonical) WHERE password_hash <> ''";

// What opening a database did to its schema.
struct SchemaStatus {
  int found = 0;  // 0: an empty database, created now
  int now = kSchemaVersion;
  bool upgraded() const { return found != 0 && found != now; }
};

// The message for a database this program must not touch.
inline std::string newer_schema_message(const std::string& where, int found) {
  return where + " has schema version " + std::to_string(found) +
         ", newer than this amazons-server understands (" + std::to_string(kSchemaVersion) +
         "); run a newer amazons-server, or restore a backup made for this one";
}

}  // namespace amazons::server
