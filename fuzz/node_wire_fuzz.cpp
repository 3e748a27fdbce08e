// What one cluster node tells another (server/node/cluster_wire.h): the body of a bus message,
// which anyone who can PUBLISH on the Redis may send. Properties: whatever decodes is encoded back
// and decodes to the same message; every refusal says why.
#include "fuzz/fuzz_check.h"
#include "server/node/cluster_wire.h"

using namespace amazons;
using namespace amazons::server;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const auto message = wire::decode(text);
  if (!message) {
    FUZZ_CHECK(!message.error().empty());
    return 0;
  }
  const std::string written = wire::encode(*message);
  const auto again = wire::decode(written);
  FUZZ_CHECK(again && *again == *message);
  return 0;
}
