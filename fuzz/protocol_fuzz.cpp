// The protocol codec and the line framer, fed arbitrary bytes: the server decodes every line a
// stranger sends. Properties: nothing crashes; every decode error has a message; whatever decodes
// encodes back to a line that decodes to the same message and id (so both sides agree); the
// fast reader of flat lines answers exactly what nlohmann's DOM answers (message, id and its
// JSON type, or error code and text).
#include "common/protocol.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;
using namespace amazons::protocol;

namespace {

template <class Envelope, class Decode>
void round_trip(std::string_view line, Decode decode) {
  const Expected<Envelope, DecodeError> first = decode(line);
  if (!first) {
    FUZZ_CHECK(!first.error().message.empty());
    // The error reply the server would send is itself a valid server message.
    const auto reply = decode_server(encode_error(first.error()));
    FUZZ_CHECK(reply.has_value());
    const auto* e = std::get_if<Error>(&reply->message);
    FUZZ_CHECK(e != nullptr && e->code == first.error().code);
    FUZZ_CHECK(reply->id == first.error().id);
    return;
  }
  const std::string again = encode(first->message, first->id);
  FUZZ_CHECK(again.find('\n') == std::string::npos);
  const Expected<Envelope, DecodeError> second = decode(again);
  FUZZ_CHECK(second.has_value());
  FUZZ_CHECK(second->id == first->id);
  FUZZ_CHECK(second->message == first->message);
}

template <class Envelope>
void same_both_ways(const Expected<Envelope, DecodeError>& fast,
                    const Expected<Envelope, DecodeError>& dom) {
  FUZZ_CHECK(fast.has_value() == dom.has_value());
  const RequestId& a = fast ? fast->id : fast.error().id;
  const RequestId& b = dom ? dom->id : dom.error().id;
  FUZZ_CHECK(a.has_value() == b.has_value());
  if (a) FUZZ_CHECK(*a == *b && a->type() == b->type());
  if (fast) {
    FUZZ_CHECK(fast->message == dom->message);
  } else {
    FUZZ_CHECK(fast.error().code == dom.error().code);
    FUZZ_CHECK(fast.error().message == dom.error().message);
  }
}

void check_line(std::string_view line) {
  round_trip<ClientEnvelope>(line, decode_client);
  round_trip<ServerEnvelope>(line, decode_server);
  same_both_ways(decode_client(line), detail::decode_client_through_dom(line));
  same_both_ways(decode_server(line), detail::decode_server_through_dom(line));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = fuzz::as_text(data, size);

  // Framing with a small limit, so that over-long lines are reachable; the bytes arrive in three
  // uneven pieces, as they would from a socket.
  constexpr std::size_t kLimit = 300;
  LineFramer framer(kLimit);
  std::string line;
  std::size_t lines = 0;
  bool too_long = false;
  const std::size_t cuts[] = {0, size / 3, size / 3 + size / 5, size};
  for (int piece = 0; piece < 3 && !too_long; ++piece) {
    framer.append(bytes.substr(cuts[piece], cuts[piece + 1] - cuts[piece]));
    for (;;) {
      const auto status = framer.next(line);
      if (status == LineFramer::Status::NeedMore) break;
      if (status == LineFramer::Status::TooLong) {
        too_long = true;
        FUZZ_CHECK(framer.next(line) == LineFramer::Status::TooLong);  // it stays refused
        break;
      }
      FUZZ_CHECK(line.size() <= kLimit);
      FUZZ_CHECK(line.find('\n') == std::string::npos);
      ++lines;
      check_line(line);
    }
  }
  FUZZ_CHECK(lines <= size);

  // The whole input as one line, and as a discovery datagram.
  check_line(bytes);
  if (const auto q = decode_discovery_query(bytes)) {
    const auto again = decode_discovery_query(encode(*q));
    FUZZ_CHECK(again && *again == *q);
  }
  if (const auto r = decode_discovery_reply(bytes)) {
    const auto again = decode_discovery_reply(encode(*r));
    FUZZ_CHECK(again && *again == *r);
  }
  return 0;
}
