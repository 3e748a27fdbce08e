#include "server/core/offers.h"

namespace amazons::server {

namespace {
// Moves the entries of `from` that `pred` accepts to the end of `to`, in order.
template <class From, class To, class Pred>
void move_out_if(From& from, To& to, Pred pred) {
  for (auto it = from.begin(); it != from.end();) {
    if (!pred(*it)) {
      ++it;
      continue;
    }
    to.emplace_back(std::move(*it));
    it = from.erase(it);
  }
}
}  // namespace

void Offers::restore_seek(SeekEntry seek, std::uint64_t number) {
  seeks_.push_back(std::move(seek));
  next_seek_ = std::max(next_seek_, number + 1);
}

const ChallengeEntry* Offers::challenge(const std::string& id) const {
  const auto it = challenges_.find(id);
  return it == challenges_.end() ? nullptr : &it->second;
}

ChallengeEntry& Offers::add_challenge(const std::string& id, ChallengeEntry challenge) {
  return challenges_[id] = std::move(challenge);
}

std::optional<ChallengeEntry> Offers::take_challenge(const std::string& id) {
  const auto it = challenges_.find(id);
  if (it == challenges_.end()) return std::nullopt;
  ChallengeEntry c = std::move(it->second);
  challenges_.erase(it);
  return c;
}

void Offers::told(const std::string& id, const RemoteSession& where) {
  if (const auto it = challenges_.find(id); it != challenges_.end()) it->second.told = where;
}

const QueuedSeek* Offers::queued_seek(const std::string& player) const {
  const auto it = queued_seeks_.find(player);
  return it == queued_seeks_.end() ? nullptr : &it->second;
}

std::vector<Offers::Challenge> Offers::player_left(const std::string& player) {
  std::vector<Challenge> left;
  std::erase_if(seeks_, [&](const SeekEntry& s) { return s.player == player && !s.kept_until; });
  move_out_if(challenges_, left, [&](const auto& c) {
    return (c.second.from == player || c.second.to == player) && !c.second.kept_until;
  });
  return left;
}

Offers::Expired Offers::expire(Timestamp now) {
  Expired out;
  const auto expired = [&](const std::optional<Timestamp>& until) {
    return until && *until <= now;
  };
  move_out_if(seeks_, out.seeks, [&](const SeekEntry& e) { return expired(e.kept_until); });
  move_out_if(queued_seeks_, out.queued_seeks,
              [&](const auto& q) { return expired(q.second.kept_until); });
  move_out_if(challenges_, out.challenges,
              [&](const auto& c) { return expired(c.second.kept_until); });
  return out;
}

Offers::Kept Offers::kept_from(const std::string& address,
                               const std::optional<std::string>& challenged,
                               const std::optional<std::string>& except_seek_of) const {
  // Counted afresh each time: kept offers end in many ways (taken, withdrawn, expired, declined)
  // and a count kept alongside would have to follow them all. A few hundred entries per request
  // that keeps an offer is cheap.
  Kept kept;
  for (const SeekEntry& e : seeks_)
    if (e.kept_until && e.address == address && e.player != except_seek_of) ++kept.offers;
  for (const auto& [id, c] : challenges_)
    if (c.kept_until && c.address == address) {
      ++kept.offers;
      if (challenged && c.to == *challenged) ++kept.to_challenged;
    }
  return kept;
}

bool Offers::involve(const std::string& name) const {
  for (const auto& seek : seeks_)
    if (seek.player == name) return true;
  for (const auto& [id, c] : challenges_)
    if (c.from == name || c.to == name) return true;
  return false;
}

}  // namespace amazons::server
