#include "client/display_check.h"

#include <X11/Xlib.h>

#include <cstdlib>

namespace amazons::client {

bool display_available() {
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || *name == '\0') return false;
  static Display* const kept = XOpenDisplay(nullptr);
  return kept != nullptr;
}

}  // namespace amazons::client
