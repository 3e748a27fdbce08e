#include "client/user_files.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace amazons::client {

namespace fs = std::filesystem;

const char* process_env(const char* name) { return std::getenv(name); }

namespace {

Expected<fs::path, std::string> xdg_dir(const EnvLookup& env, const char* variable,
                                        const char* fallback) {
  if (const char* v = env(variable); v != nullptr && *v != '\0' && fs::path(v).is_absolute())
    return fs::path(v) / "amazons";
  if (const char* home = env("HOME");
      home != nullptr && *home != '\0' && fs::path(home).is_absolute())
    return fs::path(home) / fallback / "amazons";
  return Unexpected(std::string("cannot tell where to keep files: neither ") + variable +
                    " nor HOME is set to an absolute path");
}

}  // namespace

Expected<fs::path, std::string> config_dir(const EnvLookup& env) {
  return xdg_dir(env, "XDG_CONFIG_HOME", ".config");
}

Expected<fs::path, std::string> data_dir(const EnvLookup& env) {
  return xdg_dir(env, "XDG_DATA_HOME", ".local/share");
}

std::optional<std::string> write_file_atomically(const fs::path& file, const std::string& text) {
  std::error_code ec;
  if (file.has_parent_path()) {
    fs::create_directories(file.parent_path(), ec);
    if (ec) return "cannot create " + file.parent_path().string() + ": " + ec.message();
  }
  fs::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + tmp.string() + ": " + std::strerror(errno);
    out << text;
    out.flush();
    if (!out) return "cannot write " + tmp.string() + ": " + std::strerror(errno);
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return "cannot replace " + file.string() + ": " + ec.message();
  }
  return std::nullopt;
}

Expected<std::string, std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Unexpected("cannot open " + file.string() + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Unexpected("cannot read " + file.string());
  return text.str();
}

}  // namespace amazons::client
