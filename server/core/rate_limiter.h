// A token bucket: `rate` requests a second on average, bursts up to `burst`. Time is passed in.
#pragma once

#include <algorithm>

#include "common/time_control.h"

namespace amazons::server {

class RateLimiter {
 public:
  RateLimiter(double rate_per_second, double burst)
      : rate_(rate_per_second), burst_(burst), tokens_(burst) {}

  // Takes one token if there is one.
  bool allow(Millis now) {
    refill(now);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  void refill(Millis now) {
    if (now > last_) {
      tokens_ =
          std::min(burst_, tokens_ + rate_ * static_cast<double>((now - last_).count()) / 1000.0);
      last_ = now;
    }
  }
  double rate_;
  double burst_;
  double tokens_;
  Millis last_{0};
};

}  // namespace amazons::server
