#include "tls/tls.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl.hpp>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <array>
#include <cctype>
#include <fstream>
#include <iterator>
#include <memory>

#include "tls/new_file.h"

namespace amazons::tls {

namespace ssl = boost::asio::ssl;

namespace {

constexpr long kValidSeconds = 10L * 365 * 24 * 3600;

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct ExtFree {
  void operator()(X509_EXTENSION* e) const { X509_EXTENSION_free(e); }
};

// The reason of the newest OpenSSL error on this thread, for messages people read.
std::string openssl_reason() {
  const unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "unknown OpenSSL error";
  std::array<char, 256> text{};
  ERR_error_string_n(e, text.data(), text.size());
  return text.data();
}

// What PEM_write_bio_* wrote into a memory BIO.
std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

bool is_ip_address(const std::string& name) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(name, ec);
  return !ec;
}

}  // namespace

std::string fingerprint(X509* certificate) {
  if (certificate == nullptr) return {};
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (X509_digest(certificate, EVP_sha256(), digest.data(), &length) != 1) return {};
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    if (i > 0) out += ':';
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

Expected<std::string, std::string> fingerprint_of_pem(const std::filesystem::path& pem) {
  // Read by the standard library, which opens any path on any platform; OpenSSL parses bytes.
  std::ifstream in(pem, std::ios::binary);
  if (!in) return Unexpected(pem.string() + ": cannot open");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  std::unique_ptr<X509, X509Free> cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  if (!cert) return Unexpected(pem.string() + ": not a PEM certificate (" + openssl_reason() + ")");
  return fingerprint(cert.get());
}

std::optional<std::string> parse_fingerprint(std::string_view text) {
  std::string hex;
  for (char c : text) {
    if (c == ':' || c == ' ') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    hex += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  if (hex.size() != 64) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    if (i > 0) out += ':';
    out += hex.substr(i, 2);
  }
  return out;
}

Expected<void, std::string> write_self_signed(const std::filesystem::path& cert_file,
                                              const std::filesystem::path& key_file,
                                              const std::vector<std::string>& names) {
  std::unique_ptr<EVP_PKEY, KeyFree> key(EVP_EC_gen("P-256"));
  if (!key) return Unexpected("cannot make a key: " + openssl_reason());
  std::unique_ptr<X509, X509Free> cert(X509_new());
  X509_set_version(cert.get(), 2);
  std::array<unsigned char, 16> serial{};
  RAND_bytes(serial.data(), static_cast<int>(serial.size()));
  serial[0] &= 0x7f;  // a positive serial number
  BIGNUM* bn = BN_bin2bn(serial.data(), static_cast<int>(serial.size()), nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // clocks that are a little behind
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValidSeconds);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* subject = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("amazons"), -1, -1, 0);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("amazons-server"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), subject);
  std::string alt;
  for (const auto& name : names) {
    if (name.empty() || name.find(',') != std::string::npos) continue;
    if (!alt.empty()) alt += ',';
    alt += (is_ip_address(name) ? "IP:" : "DNS:") + name;
  }
  if (!alt.empty()) {
    std::unique_ptr<X509_EXTENSION, ExtFree> ext(
        X509V3_EXT_conf_nid(nullptr, nullptr, NID_subject_alt_name, alt.c_str()));
    if (!ext) return Unexpected("bad certificate names \"" + alt + "\": " + openssl_reason());
    X509_add_ext(cert.get(), ext.get(), -1);
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0)
    return Unexpected("cannot sign the certificate: " + openssl_reason());

  std::error_code ec;
  if (std::filesystem::exists(cert_file, ec) || std::filesystem::exists(key_file, ec))
    return Unexpected(cert_file.string() + " or " + key_file.string() + " exists already");
  Bio key_pem(BIO_new(BIO_s_mem()));
  Bio cert_pem(BIO_new(BIO_s_mem()));
  if (!key_pem || !cert_pem ||
      PEM_write_bio_PrivateKey(key_pem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) !=
          1 ||
      PEM_write_bio_X509(cert_pem.get(), cert.get()) != 1)
    return Unexpected("cannot write the key and certificate as PEM: " + openssl_reason());
  if (auto written = write_new_file(key_file, bio_text(key_pem.get()), FileReaders::Owner);
      !written)
    return Unexpected(key_file.string() + ": " + written.error());
  if (auto written = write_new_file(cert_file, bio_text(cert_pem.get()), FileReaders::Anyone);
      !written)
    return Unexpected(cert_file.string() + ": " + written.error());
  return {};
}

namespace {
// Mozilla's server-side TLS guidelines, "intermediate" (version 5.7), less the DHE suites.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
}  // namespace

Expected<std::shared_ptr<ssl::context>, std::string> server_context(
    const std::filesystem::path& cert_file, const std::filesystem::path& key_file) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  // TLS 1.2 with Mozilla's "intermediate" suites (ECDHE, AEAD only: no CBC, no SHA-1 MACs, no
  // static RSA), for certificates of either key type; TLS 1.3 keeps OpenSSL's suites, all AEAD.
  SSL_CTX* native = ctx->native_handle();
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1 ||
      SSL_CTX_set1_groups_list(native, "X25519:P-256:P-384") != 1)
    return Unexpected("cannot set the TLS ciphers: " + openssl_reason());
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(cert_file.string(), ec);
  if (ec) return Unexpected(cert_file.string() + ": " + ec.message());
  ctx->use_private_key_file(key_file.string(), ssl::context::pem, ec);
  if (ec) return Unexpected(key_file.string() + ": " + ec.message());
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
    return Unexpected(key_file.string() + ": the key does not match " + cert_file.string());
  return ctx;
}

ClientContext client_context(const ClientTrust& trust, const std::string& host) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  boost::system::error_code ignored;
  if (trust.system_cas) ctx->set_default_verify_paths(ignored);
  auto seen = std::make_shared<PeerCertificate>();
  // The callback runs for every certificate of the chain, the root first and the server's own
  // (depth 0) last; it decides at depth 0 with what the chain told it.
  auto chain_ok = std::make_shared<bool>(true);
  ctx->set_verify_mode(ssl::verify_peer);
  ctx->set_verify_callback(
      [trust, host, seen, chain_ok](bool preverified, ssl::verify_context& vc) {
        X509_STORE_CTX* store = vc.native_handle();
        const int depth = X509_STORE_CTX_get_error_depth(store);
        if (depth > 0) {
          *chain_ok = *chain_ok && preverified;
          return true;
        }
        seen->fingerprint = fingerprint(X509_STORE_CTX_get_current_cert(store));
        seen->ca_verified = trust.system_cas && *chain_ok && preverified &&
                            ssl::host_name_verification(host)(preverified, vc);
        *chain_ok = true;  // the next handshake on this context starts afresh
        if (seen->ca_verified) return true;
        return trust.pinned.has_value() && *trust.pinned == seen->fingerprint;
      });
  return {std::move(ctx), std::move(seen)};
}

std::optional<TrustFailure> trust_failure(const ClientTrust& trust, const PeerCertificate& seen) {
  if (seen.fingerprint.empty() || seen.ca_verified) return std::nullopt;
  if (!trust.pinned) return TrustFailure::Unknown;
  if (*trust.pinned != seen.fingerprint) return TrustFailure::Changed;
  return std::nullopt;
}

}  // namespace amazons::tls
