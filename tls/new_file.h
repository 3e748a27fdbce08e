// A file created, never replaced, with who may read it: the server's own key and certificate.
// One file per platform, chosen by CMake: new_file_posix.cpp (open with O_EXCL and the mode),
// new_file_windows.cpp (CreateFileW with CREATE_NEW; the folder's permissions apply).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "common/expected.h"

namespace amazons::tls {

enum class FileReaders : std::uint8_t {
  Owner,   // a private key: mode 0600 on POSIX
  Anyone,  // a certificate: what the umask leaves
};

// Creates `path`, which must not exist, and writes `bytes` to it; else why not ("exists
// already", "cannot create: ...", "cannot write: ..."). A file it could not finish is removed.
Expected<void, std::string> write_new_file(const std::filesystem::path& path,
                                           std::string_view bytes, FileReaders readers);

}  // namespace amazons::tls
