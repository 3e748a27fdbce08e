#include "server/core/auth.h"

#include <sodium.h>

#include <array>
#include <stdexcept>

namespace amazons::server {

namespace {
// sodium_init is idempotent and thread-safe; every entry point calls it.
void ensure_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}
std::string hex(const unsigned char* data, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), data, n);
  out.pop_back();
  return out;
}
}  // namespace

std::optional<std::string> hash_password(std::string_view password, HashStrength strength) {
  ensure_sodium();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  const auto ops = strength == HashStrength::Interactive ? crypto_pwhash_OPSLIMIT_INTERACTIVE
                                                         : crypto_pwhash_OPSLIMIT_MIN;
  const auto mem = strength == HashStrength::Interactive ? crypto_pwhash_MEMLIMIT_INTERACTIVE
                                                         : crypto_pwhash_MEMLIMIT_MIN;
  if (crypto_pwhash_str(out.data(), password.data(), password.size(), ops, mem) != 0)
    return std::nullopt;
  return std::string(out.data());
}

bool verify_password(std::string_view password, const std::string& stored_hash) {
  ensure_sodium();
  return crypto_pwhash_str_verify(stored_hash.c_str(), password.data(), password.size()) == 0;
}

std::string new_token() {
  ensure_sodium();
  std::array<unsigned char, 16> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  return hex(bytes.data(), bytes.size());
}

std::string token_digest(std::string_view token) {
  ensure_sodium();
  std::array<unsigned char, crypto_generichash_BYTES> digest{};
  crypto_generichash(digest.data(), digest.size(),
                     reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr,
                     0);
  return hex(digest.data(), digest.size());
}

bool equal_secret(std::string_view a, std::string_view b) {
  ensure_sodium();
  if (a.size() != b.size()) return false;
  return a.empty() || sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes)
    return "name: must be 1 to " + std::to_string(kMaxNameBytes) + " characters";
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return "name: only letters, digits, '_', '-' and '.' are allowed";
  }
  return std::nullopt;
}

std::string random_code(std::size_t length) {
  ensure_sodium();
  static constexpr std::string_view kAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  std::string out;
  out.reserve(length);
  for (std::size_t i = 0; i < length; ++i)
    out += kAlphabet[randombytes_uniform(static_cast<std::uint32_t>(kAlphabet.size()))];
  return out;
}

}  // namespace amazons::server
