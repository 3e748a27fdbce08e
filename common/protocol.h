// The client-server protocol (docs/PROTOCOL.md): one JSON object per line, UTF-8, at most
// kMaxLineBytes a line, in both directions. Every message has a "type"; a client request may
// carry an "id" (a string or an integer) that the direct reply echoes.
//
// This header gathers the parts, each in its own file:
//   protocol_types.h      version, limits, error codes, enums, shared shapes, ping/pong
//   protocol_client.h     client -> server messages (ClientMessage)
//   protocol_server.h     server -> client messages (ServerMessage)
//   protocol_codec.h      envelopes, encode/decode, error replies
//   protocol_enums.h      the wire names of the enums (one table per enum)
//   line_framer.h         splitting a byte stream into lines
//   protocol_discovery.h  LAN discovery datagrams
#pragma once

#include "common/line_framer.h"
#include "common/protocol_client.h"
#include "common/protocol_codec.h"
#include "common/protocol_discovery.h"
#include "common/protocol_server.h"
#include "common/protocol_types.h"
