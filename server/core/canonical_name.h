// The form in which player names are compared, so that two names that look alike are one name:
// "reg", "Reg", "REG." and a Cyrillic "rеg" (U+0435) all have the canonical form of "reg".
// A name is shown as its owner typed it; only comparisons (accounts, names in use, bans, the
// cluster's claims) go through this form.
//
// Pure and thread-safe. The form is a key, not text to show: it may differ from every spelling
// of the name (the confusables map "0" to "o" and "m" to "rn").
#pragma once

#include <string>
#include <string_view>

namespace amazons::server {

// Unicode NFKC, case-folded, trailing punctuation stripped (unless the name is nothing else),
// then Unicode TR39's skeleton (its table of confusables), folded again since the skeleton maps
// some characters to capitals ("0" -> "O"). Folding comes first, so a capital "I" is an "i" and
// no longer the look-alike of "l" that the skeleton alone would make it. Input that is not
// valid UTF-8 is returned unchanged: the lobby refuses such names before comparing them.
std::string canonical_name(std::string_view name);

// The refusal (with the code name_taken) of a name too like `other`, which is taken.
std::string look_alike_message(const std::string& other);

}  // namespace amazons::server
