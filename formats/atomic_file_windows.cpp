// write_file_atomically on Windows: a new file beside the target, written through to the disk,
// then moved over the target (MoveFileEx replaces it in one step).
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "formats/record_formats.h"

namespace amazons::formats {

namespace fs = std::filesystem;

namespace {

std::string last_error_text() {
  const DWORD code = GetLastError();
  char* text = nullptr;
  FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string s = text ? text : "error " + std::to_string(code);
  LocalFree(text);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Expected<void, std::string> write_file_atomically(const fs::path& path, std::string_view text) {
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Unexpected(std::string("is a directory"));
  // A name no other writer in this process or another takes: the process id and a counter.
  static std::atomic<unsigned> counter{0};
  const fs::path temporary =
      dir / ("." + path.filename().string() + ".tmp-" + std::to_string(GetCurrentProcessId()) +
             "-" + std::to_string(++counter));
  HANDLE file = CreateFileW(temporary.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE)
    return Unexpected("cannot create a file in " + dir.string() + ": " + last_error_text());
  std::size_t done = 0;
  bool written = true;
  while (written && done < text.size()) {
    DWORD n = 0;
    const auto size = static_cast<DWORD>(std::min<std::size_t>(text.size() - done, 1 << 20));
    written = WriteFile(file, text.data() + done, size, &n, nullptr) && n > 0;
    done += n;
  }
  written = written && FlushFileBuffers(file);
  std::string why = written ? "" : last_error_text();
  CloseHandle(file);
  if (written && !MoveFileExW(temporary.c_str(), path.c_str(),
                              MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
    written = false;
    why = last_error_text();
  }
  if (!written) {
    DeleteFileW(temporary.c_str());
    return Unexpected("cannot be written: " + why);
  }
  return {};
}

}  // namespace amazons::formats
