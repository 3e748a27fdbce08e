#include "cluster/bus.h"

#include <charconv>
#include <memory>
#include <random>
#include <stdexcept>

#include "cluster/lease.h"

namespace amazons::cluster {

namespace {

constexpr std::string_view kMagic = "amz1 ";
constexpr std::size_t kMaxHeaderBytes = 200;

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::uint64_t random_incarnation() {
  std::random_device rd;
  std::uint64_t v = 0;
  while (v == 0) v = (std::uint64_t{rd()} << 32) ^ rd();
  return v;
}

}  // namespace

std::string encode_envelope(const BusEnvelope& e) {
  std::string out(kMagic);
  out += e.node;
  out += ' ';
  out += std::to_string(e.incarnation);
  out += ' ';
  out += std::to_string(e.seq);
  out += '\n';
  out += e.body;
  return out;
}

Expected<BusEnvelope, std::string> decode_envelope(std::string_view payload) {
  if (payload.substr(0, kMagic.size()) != kMagic)
    return Unexpected(std::string("not a bus message (no amz1 header)"));
  const auto newline = payload.find('\n');
  if (newline == std::string_view::npos || newline > kMaxHeaderBytes)
    return Unexpected(std::string("the header has no end of line"));
  std::string_view header = payload.substr(kMagic.size(), newline - kMagic.size());
  BusEnvelope e;
  const auto s1 = header.find(' ');
  const auto s2 = s1 == std::string_view::npos ? s1 : header.find(' ', s1 + 1);
  if (s2 == std::string_view::npos)
    return Unexpected(std::string("the header needs NODE INCARNATION SEQ"));
  e.node = std::string(header.substr(0, s1));
  if (!valid_node_name(e.node)) return Unexpected(std::string("a bad node name"));
  const auto incarnation = parse_u64(header.substr(s1 + 1, s2 - s1 - 1));
  const auto seq = parse_u64(header.substr(s2 + 1));
  if (!incarnation || *incarnation == 0) return Unexpected(std::string("a bad incarnation"));
  if (!seq || *seq == 0) return Unexpected(std::string("a bad sequence number"));
  e.incarnation = *incarnation;
  e.seq = *seq;
  e.body = std::string(payload.substr(newline + 1));
  return e;
}

SequenceTracker::Verdict SequenceTracker::accept(const std::string& channel, const BusEnvelope& e) {
  Last& last = last_[{channel, e.node}];
  Verdict v;
  if (e.incarnation != last.incarnation) {
    // First contact (we may have subscribed mid-stream: nothing is missed), or the sender
    // restarted and numbers from 1 again.
    v.restarted = last.incarnation != 0;
    if (v.restarted) v.missed = e.seq - 1;
    last = {e.incarnation, e.seq};
    return v;
  }
  if (e.seq <= last.seq) {
    v.deliver = false;
    return v;
  }
  v.missed = e.seq - last.seq - 1;
  last.seq = e.seq;
  return v;
}

BusPublisher::BusPublisher(Redis& redis, std::string node)
    : redis_(redis), node_(std::move(node)), incarnation_(random_incarnation()) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
}

Expected<long long, RedisError> BusPublisher::publish(std::string_view channel,
                                                      std::string_view body) {
  auto it = seq_.find(channel);
  if (it == seq_.end()) it = seq_.emplace(std::string(channel), 0).first;
  const BusEnvelope e{node_, incarnation_, ++it->second, std::string(body)};
  auto r = redis_.command({"PUBLISH", channel, encode_envelope(e)});
  if (!r) return Unexpected(r.error());
  if (r->type != RedisReply::Type::Integer)
    return Unexpected(RedisError{
        RedisErrorKind::Protocol,
        "redis " + redis_.address().text() + ": PUBLISH: unexpected reply " + describe(*r)});
  return r->integer;
}

}  // namespace amazons::cluster
