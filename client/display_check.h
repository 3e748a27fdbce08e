// Whether a graphical display can be opened. Kept apart because Xlib's macros (None, Success,
// Bool) clash with other headers.
#pragma once

namespace amazons::client {

// True when $DISPLAY is set and an X server answers on it. The connection stays open for the
// rest of the process: closing the last connection makes some X servers (Xvfb without
// -noreset) reset, and SFML's own connection a moment later would then fail.
bool display_available();

}  // namespace amazons::client
