// amazons-protocol-ts OUT.ts: writes the protocol's TypeScript declarations (see
// common/protocol_typescript.h) for the web client's build.
#include <fstream>
#include <iostream>
#include <string>

#include "common/protocol_typescript.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: amazons-protocol-ts OUT.ts\n";
    return 2;
  }
  const std::string text = amazons::protocol::typescript_declarations();
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "amazons-protocol-ts: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
