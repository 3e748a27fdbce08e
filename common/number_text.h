#pragma once

#include <optional>
#include <string_view>

namespace amazons {

// The whole of `text` as a decimal floating-point number, read as std::from_chars reads it (no
// leading space or '+', "1e3", "inf" and "nan" taken); nullopt when any of it is not part of the
// number or the number is out of range. One place for what the compilers' libraries differ in:
// libc++ before 17 (Emscripten's, for the engine's WebAssembly build) has no floating-point
// from_chars, and that build reads with double_from_text_strtod instead.
std::optional<double> double_from_text(std::string_view text);

// The same contract kept with strtod in the "C" locale (the only one a WebAssembly module has).
// Compiled everywhere, so that the native tests hold it to the same answers as from_chars.
std::optional<double> double_from_text_strtod(std::string_view text);

}  // namespace amazons
