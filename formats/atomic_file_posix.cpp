// write_file_atomically on POSIX: mkstemp beside the file, write, fsync, rename over it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "formats/record_formats.h"

namespace amazons::formats {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

Expected<void, std::string> write_file_atomically(const fs::path& path, std::string_view text) {
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Unexpected(std::string("is a directory"));
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    return Unexpected("cannot create a file in " + dir.string() + ": " + errno_text(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      return Unexpected("cannot be written: " + errno_text(err));
    }
    done += static_cast<std::size_t>(n);
  }
  // mkstemp makes the file private (0600); a record is an ordinary file.
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    return Unexpected("cannot be written: " + errno_text(err));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    return Unexpected("cannot be written: " + errno_text(err));
  }
  return {};
}

}  // namespace amazons::formats
