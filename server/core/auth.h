// Passwords and session tokens. Passwords are stored only as Argon2id hashes (libsodium's
// crypto_pwhash_str, salted, in its self-describing string form); tokens are random and stored
// only as a BLAKE2b digest, so a copy of the database gives away neither.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace amazons::server {

// How much work a password hash costs. Interactive is libsodium's recommendation for logins
// (about 64 MiB and a tenth of a second); Minimal exists for tests under sanitizers.
enum class HashStrength { Interactive, Minimal };

// Slow (by design): call off the thread that runs the games. Nullopt only when out of memory.
std::optional<std::string> hash_password(std::string_view password, HashStrength strength);
bool verify_password(std::string_view password, const std::string& stored_hash);

// A fresh random token: 32 lowercase hex digits (128 bits).
std::string new_token();
// The digest stored in place of a token (hex).
std::string token_digest(std::string_view token);
// Comparison that takes the same time wherever the strings differ.
bool equal_secret(std::string_view a, std::string_view b);

// Player names, as the lobby takes them at hello and `amazons-server admin` takes them on its
// command line: 1 to kMaxNameBytes of letters, digits, '_', '-' and '.'. Nullopt when the name
// is good, else why not ("name: ...").
inline constexpr std::size_t kMaxNameBytes = 32;
std::optional<std::string> name_problem(std::string_view name);

// A random code of `length` characters from an alphabet without look-alikes (invite codes).
std::string random_code(std::size_t length);

}  // namespace amazons::server
