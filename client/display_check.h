// Whether a graphical display can be opened. Kept apart because Xlib's macros (None, Success,
// Bool) clash with other headers.
#pragma once

namespace amazons::client {

// True when $DISPLAY is set and an X server answers on it.
bool display_available();

}  // namespace amazons::client
