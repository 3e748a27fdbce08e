#include "server/app/process.h"

#include <sys/resource.h>

#include <csignal>

namespace amazons::server {

void prepare_process() { std::signal(SIGPIPE, SIG_IGN); }

void raise_file_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

void add_stop_signals(boost::asio::signal_set& set) {
  set.add(SIGINT);
  set.add(SIGTERM);
}

void add_reload_signals(boost::asio::signal_set& set) { set.add(SIGHUP); }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

}  // namespace amazons::server
