#include "tls/new_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace amazons::tls {

Expected<void, std::string> write_new_file(const std::filesystem::path& path,
                                           std::string_view bytes, FileReaders readers) {
  // The mode is given at creation, so a key is never readable by others, not even for a moment.
  const mode_t mode = readers == FileReaders::Owner ? 0600 : 0666;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0)
    return Unexpected(errno == EEXIST ? std::string("exists already")
                                      : "cannot create: " + std::string(std::strerror(errno)));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (done < bytes.size() || !closed) {
    ::unlink(path.c_str());
    return Unexpected("cannot write: " + std::string(std::strerror(write_errno)));
  }
  return {};
}

}  // namespace amazons::tls
