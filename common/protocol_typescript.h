// TypeScript declarations of the protocol, generated from the same `fields(s, v)` descriptions
// the codec reads and writes with, so the web client (web/) cannot drift from the C++ side: a
// renamed or retyped field changes the generated file and the web client's type-check fails.
#pragma once

#include <string>

namespace amazons::protocol {

// The whole module text: every client message (`<Type>Request`, union `ClientMessage`), every
// server message (`<Type>Message`, union `ServerMessage`), discriminated on `type`; the enums
// as string literal unions; the shared shapes (Player, Clock, TimeControl, ...).
//
// Field rules, as the codec applies them: an optional field is `name?:` (the encoder leaves it
// out when absent); a field with a default is `name?:` in client messages (the server fills the
// default in) and always present in server messages (the encoder always writes it).
std::string typescript_declarations();

}  // namespace amazons::protocol
