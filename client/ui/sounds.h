// Short sounds for moves, made at start-up from a few lines of arithmetic (no sound files to
// ship). Quiet when the setting is off or the machine has no audio device.
#pragma once

#include <memory>

namespace amazons::client::ui {

class Sounds {
 public:
  Sounds();
  ~Sounds();
  void set_enabled(bool on) { enabled_ = on; }
  void move();  // a queen lands and the arrow strikes
  void end();   // the game is over

 private:
  struct Impl;
  void ensure();
  bool enabled_ = false;
  std::unique_ptr<Impl> impl_;
};

}  // namespace amazons::client::ui
