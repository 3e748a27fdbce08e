#include "client/display_check.h"

#include <X11/Xlib.h>

#include <cstdlib>

namespace amazons::client {

bool display_available() {
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || *name == '\0') return false;
  Display* d = XOpenDisplay(nullptr);
  if (d == nullptr) return false;
  XCloseDisplay(d);
  return true;
}

}  // namespace amazons::client
