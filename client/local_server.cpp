#include "client/local_server.h"

#include <signal.h>

#include <charconv>

namespace amazons::client {

namespace {

// Single quotes for /bin/sh: the paths may hold spaces.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::optional<unsigned short> parse_listening_port(std::string_view line) {
  constexpr std::string_view kMark = "listening on port ";
  const auto at = line.find(kMark);
  if (!line.starts_with("amazons-server") || at == std::string_view::npos) return std::nullopt;
  const char* first = line.data() + at + kMark.size();
  unsigned value = 0;
  auto [end, ec] = std::from_chars(first, line.data() + line.size(), value);
  if (ec != std::errc() || end == first || value == 0 || value > 65535) return std::nullopt;
  return static_cast<unsigned short>(value);
}

Expected<std::unique_ptr<LocalServer>, std::string> LocalServer::start(const Options& o) {
  std::error_code ec;
  if (!std::filesystem::exists(o.executable, ec))
    return Unexpected("the server program " + o.executable.string() + " is missing");
  if (o.database.has_parent_path()) {
    std::filesystem::create_directories(o.database.parent_path(), ec);
    if (ec)
      return Unexpected("cannot create " + o.database.parent_path().string() + ": " + ec.message());
  }
  std::string command = "exec " + quoted(o.executable.string()) + " --port 0 --quiet --db " +
                        quoted(o.database.string()) + " --bind " + quoted(o.bind);
  if (!o.discovery) command += " --discovery-port -1";
  auto child = ai::ChildProcess::start(command);
  if (!child) return Unexpected("cannot start the server: " + child.error());

  std::unique_ptr<LocalServer> s(new LocalServer());
  s->process_ = std::move(child).value();
  const auto deadline = ai::ChildProcess::Clock::now() + o.startup_timeout;
  std::string line;
  while (s->port_ == 0) {
    switch (s->process_->read_line(line, deadline)) {
      case ai::ChildProcess::Read::Line:
        if (auto port = parse_listening_port(line)) s->port_ = *port;
        break;
      case ai::ChildProcess::Read::Timeout:
        return Unexpected(std::string("the server did not say its port in time"));
      case ai::ChildProcess::Read::Closed:
      case ai::ChildProcess::Read::TooLong: {
        const auto status = s->process_->exit_status(std::chrono::milliseconds(500));
        return Unexpected("the server stopped at once (" + status.value_or("still running") +
                          "); its messages are above");
      }
    }
  }
  // The addresses follow at once, flushed with the port line.
  const auto more = ai::ChildProcess::Clock::now() + std::chrono::milliseconds(300);
  while (s->process_->read_line(line, more) == ai::ChildProcess::Read::Line) {
    if (line.starts_with("  ") && line.find(':') != std::string::npos &&
        line.find('(') == std::string::npos)
      s->addresses_.push_back(trimmed(line));
    else if (line.starts_with("friends can connect to: "))
      s->addresses_.push_back(trimmed(line.substr(24)));
  }
  return s;
}

LocalServer::~LocalServer() { stop(); }

void LocalServer::stop() {
  if (!process_ || process_->exit_status()) return;
  ::kill(process_->pid(), SIGTERM);  // the server stores what it holds and exits
  if (!process_->exit_status(std::chrono::milliseconds(5000))) process_->kill();
}

std::string LocalServer::summary() const {
  std::string s = "Hosting a server on port " + std::to_string(port_);
  if (!addresses_.empty()) s += ": friends connect to " + addresses_.front();
  return s;
}

}  // namespace amazons::client
