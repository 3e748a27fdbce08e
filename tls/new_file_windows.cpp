#include "tls/new_file.h"

#include <windows.h>

#include <algorithm>

namespace amazons::tls {

Expected<void, std::string> write_new_file(const std::filesystem::path& path,
                                           std::string_view bytes, FileReaders) {
  // Windows has no mode bits: a new file takes the permissions its folder passes on, which for
  // the server's state folder under the user's profile are the user's and the administrators'.
  // Not shared while it is being written.
  HANDLE file = CreateFileW(path.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE)
    return Unexpected(GetLastError() == ERROR_FILE_EXISTS
                          ? std::string("exists already")
                          : "cannot create: error " + std::to_string(GetLastError()));
  std::size_t done = 0;
  bool written = true;
  while (written && done < bytes.size()) {
    DWORD n = 0;
    const auto size = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1 << 20));
    written = WriteFile(file, bytes.data() + done, size, &n, nullptr) && n > 0;
    done += n;
  }
  const DWORD error = GetLastError();
  CloseHandle(file);
  if (!written) {
    DeleteFileW(path.c_str());
    return Unexpected("cannot write: error " + std::to_string(error));
  }
  return {};
}

}  // namespace amazons::tls
