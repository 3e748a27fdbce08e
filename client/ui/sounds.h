// Short sounds for moves, made from a few lines of arithmetic (no sound files to ship). Quiet
// when the setting is off or the machine has no audio device (then OpenAL is never started, so
// it prints nothing).
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
  // False when no audio device was found; sounds are then skipped.
  bool available() const { return available_; }

 private:
  struct Impl;
  void ensure();
  bool enabled_ = false;
  bool available_ = true;
  std::unique_ptr<Impl> impl_;
};

}  // namespace amazons::client::ui
