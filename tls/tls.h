// TLS helpers for both ends of a connection. The server makes itself a certificate when the host
// gives none and prints its fingerprint; a client trusts a server whose certificate the system's
// CAs vouch for, and otherwise one whose fingerprint it has pinned (trust on first use, like ssh).
//
// Fingerprints are SHA-256 over the certificate's DER bytes, written as upper-case hex pairs
// joined by ':' (what `openssl x509 -noout -fingerprint -sha256` prints after the '=').
#pragma once

#include <openssl/types.h>  // X509, declared only

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"

// Declared, not included: <boost/asio/ssl.hpp> brings all of Asio and OpenSSL's headers, and most
// units that include this one only read fingerprints. Those that make streams include it.
namespace boost::asio::ssl {
class context;
}

namespace amazons::tls {

// The fingerprint of a certificate, "AB:CD:...". Empty for a null certificate.
std::string fingerprint(X509* certificate);
// The fingerprint of the first certificate in a PEM file; an error names the file and the problem.
Expected<std::string, std::string> fingerprint_of_pem(const std::filesystem::path& pem);
// Normalises a fingerprint typed by a person: hex digits with or without ':' or spaces, any case.
// Returns nullopt unless it is 32 bytes of hex.
std::optional<std::string> parse_fingerprint(std::string_view text);

// Writes a new self-signed certificate and its private key (EC P-256, valid for ten years) as
// PEM files, the key readable by the owner only. `names` go into the subjectAltName: each is a
// DNS name or an IP address. Overwrites nothing: fails if either file exists.
Expected<void, std::string> write_self_signed(const std::filesystem::path& cert_file,
                                              const std::filesystem::path& key_file,
                                              const std::vector<std::string>& names);

// A server context with this certificate chain and key (TLS 1.2 and later). The error names the
// file and OpenSSL's reason, so a host sees why a renewal did not load.
Expected<std::shared_ptr<boost::asio::ssl::context>, std::string> server_context(
    const std::filesystem::path& cert_file, const std::filesystem::path& key_file);

// How a client decides to trust the certificate a server shows.
struct ClientTrust {
  // Accept a certificate that the system's CAs vouch for and that names the host.
  bool system_cas = true;
  // Otherwise accept exactly this fingerprint (a pin from an earlier, confirmed connection).
  std::optional<std::string> pinned;
};

// What the client saw of the server's certificate during the handshake, filled by the verify
// callback that client_context installs.
struct PeerCertificate {
  std::string fingerprint;   // of the server's own (leaf) certificate
  bool ca_verified = false;  // the chain verified against the system CAs and named the host
};

// Why a handshake was refused by our own check (not by the network).
enum class TrustFailure : std::uint8_t {
  Unknown,  // not vouched for by a CA and nothing pinned: ask the person, show the fingerprint
  Changed,  // a pin exists and the server shows another certificate: refuse, warn
};

// A client context that verifies per `trust`. The returned `seen` is written during each
// handshake made with a stream on this context (one at a time). `host` is the name checked
// against the certificate when CAs are used.
struct ClientContext {
  std::shared_ptr<boost::asio::ssl::context> context;
  std::shared_ptr<PeerCertificate> seen;
};
ClientContext client_context(const ClientTrust& trust, const std::string& host);

// After a handshake failed or succeeded: was the certificate refused by our trust rules, and why.
std::optional<TrustFailure> trust_failure(const ClientTrust& trust, const PeerCertificate& seen);

}  // namespace amazons::tls
