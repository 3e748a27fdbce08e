#include "tests/gui/gui_driver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace amazons::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

[[noreturn]] void exec_child(const std::vector<std::string>& argv,
                             const std::map<std::string, std::string>& env) {
  for (const auto& [k, v] : env) {
    if (v.empty()) {
      ::unsetenv(k.c_str());
    } else {
      ::setenv(k.c_str(), v.c_str(), 1);
    }
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
  ::_exit(127);
}

}  // namespace

int run_program(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                std::string* output) {
  int fds[2] = {-1, -1};
  if (output && ::pipe(fds) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (output) {
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
    }
    exec_child(argv, env);
  }
  if (output) {
    ::close(fds[1]);
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
      output->append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Child::Child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
             int keep_fd, const fs::path& log) {
  pid_ = ::fork();
  REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    // Ends with the test even when the test crashes and cannot stop it.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (!log.empty()) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
        ::close(fd);
      }
    }
    (void)keep_fd;  // inherited as it is: the caller made it without close-on-exec
    exec_child(argv, env);
  }
}

Child& Child::operator=(Child&& o) noexcept {
  if (this != &o) {
    stop();
    pid_ = o.pid_;
    o.pid_ = -1;
  }
  return *this;
}

bool Child::running() {
  if (pid_ < 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    pid_ = -1;
    return false;
  }
  return true;
}

int Child::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(20ms);
  }
  return status_;
}

void Child::stop() {
  if (!running()) return;
  ::kill(pid_, SIGTERM);
  if (wait(3s) == -1 && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
}

VirtualDisplay::VirtualDisplay(int width, int height, const fs::path& log) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  server_ = Child({"Xvfb", "-displayfd", std::to_string(fds[1]), "-screen", "0",
                   std::to_string(width) + "x" + std::to_string(height) + "x24", "-nolisten", "tcp",
                   "-noreset"},
                  {}, fds[1], log);
  ::close(fds[1]);
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::poll(&p, 1, 100) <= 0) continue;
    char c;
    if (::read(fds[0], &c, 1) != 1 || c == '\n') break;
    number += c;
  }
  ::close(fds[0]);
  REQUIRE_MESSAGE(!number.empty(), "Xvfb did not start (is the xvfb package installed?)");
  name_ = ":" + number;
}

ClientDriver::ClientDriver(const VirtualDisplay& display, fs::path home, fs::path client_exe)
    : display_(display.name()),
      home_(std::move(home)),
      exe_(std::move(client_exe)),
      state_file_(home_ / "state.json") {}

ClientDriver::~ClientDriver() = default;

void ClientDriver::start(const std::vector<std::string>& extra, const std::string& first_screen) {
  fs::remove(state_file_);
  // Under AddressSanitizer: Mesa's driver, loaded with dlopen and unloaded at exit, leaves a few
  // hundred bytes that LeakSanitizer cannot even name; the client's own code has its leak
  // checks in the unit tests. Memory errors and undefined behaviour are still caught here.
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_options =
      (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : std::string()) +
      "detect_leaks=0";
  std::vector<std::string> argv = {exe_.string(),
                                   "--state-file",
                                   state_file_.string(),
                                   "--screenshot-dir",
                                   (home_ / "shots").string(),
                                   "--width",
                                   "1200",
                                   "--height",
                                   "800"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  client_ = Child(argv,
                  {{"DISPLAY", display_},
                   {"HOME", home_.string()},
                   {"XDG_CONFIG_HOME", (home_ / "config").string()},
                   {"XDG_DATA_HOME", (home_ / "data").string()},
                   // English whatever the machine's locale (the client speaks LC_ALL's).
                   {"LC_ALL", "C.UTF-8"},
                   {"ASAN_OPTIONS", asan_options}},
                  -1, home_ / "client.log");
  wait_screen(first_screen);
  std::string out;
  // By its class: the title is in the client's language (xdotool's --name misses a Chinese one).
  REQUIRE(run_program({"xdotool", "search", "--class", "^Amazons$"}, {{"DISPLAY", display_}},
                      &out) == 0);
  std::istringstream ids(out);
  ids >> window_;
  REQUIRE(!window_.empty());
  // Without a window manager the window may hang over the screen's edge; put it at the origin
  // so that window and screen coordinates agree.
  xdo({"windowmove", "--sync", window_, "0", "0"});
  mouse_ = {-1, -1};
}

int ClientDriver::wait_exit() { return client_.wait(10s); }

nlohmann::json ClientDriver::state() const {
  std::ifstream in(state_file_);
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    return nlohmann::json::object();  // not written yet
  }
}

nlohmann::json ClientDriver::wait_for(const std::string& what,
                                      const std::function<bool(const nlohmann::json&)>& pred,
                                      std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    nlohmann::json s = state();
    if (!s.empty() && pred(s)) return s;
    if (std::chrono::steady_clock::now() > deadline || !client_.running()) {
      FAIL("timed out waiting for " << what << "; last state: " << s.dump());
    }
    std::this_thread::sleep_for(15ms);
  }
}

nlohmann::json ClientDriver::wait_screen(const std::string& screen) {
  return wait_for("screen " + screen,
                  [&](const nlohmann::json& s) { return s.value("screen", "") == screen; });
}

void ClientDriver::xdo(std::vector<std::string> args) {
  args.insert(args.begin(), "xdotool");
  REQUIRE(run_program(args, {{"DISPLAY", display_}}) == 0);
}

void ClientDriver::move_mouse(int x, int y) {
  // `mousemove --sync` waits for the pointer to move, so it would hang when it is there already.
  if (std::pair{x, y} == mouse_) return;
  xdo({"mousemove", "--sync", std::to_string(x), std::to_string(y)});
  mouse_ = {x, y};
}

void ClientDriver::click_at(int x, int y, int button) {
  move_mouse(x, y);
  xdo({"click", std::to_string(button)});
}

void ClientDriver::click(const std::string& widget, const std::string& part) {
  const nlohmann::json s = state();
  REQUIRE_MESSAGE(s["widgets"].contains(widget), "no widget " << widget << " in " << s.dump());
  nlohmann::json r = s["widgets"][widget];
  if (!part.empty()) r = r[part];
  REQUIRE(r.value("enabled", true));
  click_at(static_cast<int>(r["x"].get<double>() + r["w"].get<double>() / 2),
           static_cast<int>(r["y"].get<double>() + r["h"].get<double>() / 2));
}

std::pair<int, int> ClientDriver::square_center(const nlohmann::json& s,
                                                const std::string& square) const {
  const auto& b = s["board"];
  const double size = b["square"].get<double>();
  const int n = b["size"].get<int>();
  const int file = square[0] - 'a', rank = std::stoi(square.substr(1)) - 1;
  const bool flipped = b["flipped"].get<bool>();
  const int col = flipped ? n - 1 - file : file, row = flipped ? rank : n - 1 - rank;
  return {static_cast<int>(b["x"].get<double>() + (col + 0.5) * size),
          static_cast<int>(b["y"].get<double>() + (row + 0.5) * size)};
}

void ClientDriver::click_square(const std::string& square, int button) {
  const auto [x, y] = square_center(state(), square);
  click_at(x, y, button);
}

void ClientDriver::drag_square(const std::string& from, const std::string& to) {
  const nlohmann::json s = state();
  const auto [x0, y0] = square_center(s, from);
  const auto [x1, y1] = square_center(s, to);
  move_mouse(x0, y0);
  xdo({"mousedown", "1"});
  wait_for("the drag to start",
           [](const nlohmann::json& st) { return st.value("dragging", false); });
  // A few steps on the way, as a hand would move.
  for (int i = 1; i <= 4; ++i) move_mouse(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4);
  xdo({"mouseup", "1"});
}

// Through XTEST like a real keyboard: without a window manager the focus follows the pointer,
// which the clicks keep on the window.
void ClientDriver::key(const std::string& keysym) { xdo({"key", keysym}); }

void ClientDriver::resize(int width, int height) {
  xdo({"windowsize", "--sync", window_, std::to_string(width), std::to_string(height)});
}

void ClientDriver::type(const std::string& text) { xdo({"type", "--delay", "20", text}); }

fs::path ClientDriver::screenshot(const fs::path& dir, const std::string& name) {
  const int before = state().value("screenshots", 0);
  key("F12");
  const nlohmann::json s = wait_for("a screenshot", [&](const nlohmann::json& st) {
    return st.value("screenshots", 0) > before;
  });
  fs::create_directories(dir);
  const fs::path target = dir / (name + ".png");
  fs::copy_file(s["last_screenshot"].get<std::string>(), target,
                fs::copy_options::overwrite_existing);
  return target;
}

void select_option(ClientDriver& c, const std::string& selector, const std::string& value) {
  for (int i = 0; i < 12 && c.state()["widgets"][selector]["value"] != value; ++i) {
    const nlohmann::json before = c.state()["widgets"][selector];
    c.click(selector, "next");
    c.wait_for(selector + " to change", [&](const nlohmann::json& s) {
      return s["widgets"][selector]["index"] != before["index"];
    });
  }
  REQUIRE(c.state()["widgets"][selector]["value"] == value);
}

nlohmann::json connect_to_lobby(ClientDriver& c, const std::string& what,
                                const std::function<bool(const nlohmann::json&)>& also) {
  c.click("online");
  c.wait_screen("connect");
  c.click("connect");
  return c.wait_for(what, [&](const nlohmann::json& st) {
    return st.value("screen", "") == "lobby" && st["online"].get<bool>() && also(st);
  });
}

void write_client_settings(const std::filesystem::path& home, const nlohmann::json& settings) {
  std::filesystem::create_directories(home / "config" / "amazons");
  std::ofstream(home / "config" / "amazons" / "settings.json") << settings.dump();
}

}  // namespace amazons::test
