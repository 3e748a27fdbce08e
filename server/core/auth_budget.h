// The budget of failed secrets (invite codes, server passwords, account passwords) of each
// address, kept by the lobby, so that it survives reconnects (issue 35): the first `burst`
// failures are free, then a token bucket refills `per_minute` of them. An attempt made while the
// bucket is empty is refused without being checked, and costs a token all the same, so the
// back-off grows while the address keeps trying, up to one minute of refill. Time is passed in;
// not thread-safe (the lobby's thread).
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <string>

#include "common/time_control.h"

namespace amazons::server {

struct AuthBudgetSettings {
  double burst = 20;        // failures before the bucket is empty
  double per_minute = 100;  // failures it refills a minute
};

class AuthBudget {
 public:
  explicit AuthBudget(AuthBudgetSettings settings) : settings_(settings) {}

  enum class Verdict {
    Allowed,      // check the secret
    Refused,      // over the budget: answer rate_limited, check nothing
    RefusedFirst  // the same, and the first refusal since the address had budget (log it)
  };

  // Before checking a secret from `address`. An empty address (unknown) is never refused.
  Verdict attempt(const std::string& address, Millis now) {
    if (address.empty()) return Verdict::Allowed;
    const auto it = entries_.find(address);
    if (it == entries_.end()) return Verdict::Allowed;
    Entry& e = refill(it->second, now);
    if (e.tokens >= 1.0) return Verdict::Allowed;
    // The debt is the growing back-off, at most a minute of refill so that an address shared
    // with an attacker (a NAT) is not shut out for longer than a minute after the attack.
    e.tokens = std::max(e.tokens - 1.0, -settings_.per_minute);
    const bool first = !e.backing_off;
    e.backing_off = true;
    return first ? Verdict::RefusedFirst : Verdict::Refused;
  }

  // A secret from `address` was wrong.
  void failed(const std::string& address, Millis now) {
    if (address.empty()) return;
    auto [it, added] = entries_.try_emplace(address, Entry{settings_.burst, now, false});
    Entry& e = added ? it->second : refill(it->second, now);
    e.tokens -= 1.0;
  }

  // Forgets addresses whose budget is whole again, so that the map holds only recent failers.
  void forget_recovered(Millis now) {
    for (auto it = entries_.begin(); it != entries_.end();)
      it = refill(it->second, now).tokens >= settings_.burst ? entries_.erase(it) : std::next(it);
  }
  std::size_t addresses() const { return entries_.size(); }

 private:
  struct Entry {
    double tokens;
    Millis last;
    bool backing_off;
  };
  Entry& refill(Entry& e, Millis now) const {
    if (now > e.last) {
      const double minutes = static_cast<double>((now - e.last).count()) / 60'000.0;
      e.tokens = std::min(settings_.burst, e.tokens + settings_.per_minute * minutes);
      e.last = now;
    }
    if (e.tokens >= 1.0) e.backing_off = false;
    return e;
  }

  AuthBudgetSettings settings_;
  std::map<std::string, Entry> entries_;
};

}  // namespace amazons::server
