// The cluster's untrusted text: a bus payload (anyone who can PUBLISH on the Redis sends one)
// and a Redis address from the command line. Properties: whatever decodes is encoded back to
// the same bytes and decodes to the same envelope; every refusal says why; the sequence tracker
// takes any envelope without crashing.
#include "cluster/bus.h"
#include "cluster/redis.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;
using namespace amazons::cluster;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);

  const auto address = parse_redis_url(text);
  if (address) {
    FUZZ_CHECK(!address->host.empty());
    FUZZ_CHECK(address->port >= 1 && address->port <= 65535);
    const auto again = parse_redis_url("redis://" + address->text());
    FUZZ_CHECK(again && again->host == address->host && again->port == address->port);
  } else {
    FUZZ_CHECK(!address.error().empty());
  }

  const auto envelope = decode_envelope(text);
  if (!envelope) {
    FUZZ_CHECK(!envelope.error().empty());
    return 0;
  }
  FUZZ_CHECK(envelope->seq > 0 && envelope->incarnation > 0);
  const std::string written = encode_envelope(*envelope);
  const auto again = decode_envelope(written);
  FUZZ_CHECK(again && *again == *envelope);
  FUZZ_CHECK(encode_envelope(*again) == written);
  SequenceTracker tracker;
  FUZZ_CHECK(tracker.accept("c", *envelope).deliver);
  FUZZ_CHECK(!tracker.accept("c", *envelope).deliver);  // the same again is a duplicate
  return 0;
}
