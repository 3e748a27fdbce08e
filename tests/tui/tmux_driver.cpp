#include "tests/tui/tmux_driver.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace amazons::test {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace

int run_tmux(const std::vector<std::string>& args, std::string* out) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  std::vector<std::string> argv = {"tmux"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setenv("LC_ALL", "C.UTF-8", 1);
    dup2(pipefd[1], STDOUT_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  close(pipefd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (out) *out = std::move(text);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool tmux_available() { return run_tmux({"-V"}) == 0; }

std::vector<std::string> lines_of(const std::string& screen) {
  std::vector<std::string> out;
  std::istringstream in(screen);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TmuxSession::TmuxSession(const std::filesystem::path& dir, const std::vector<std::string>& argv,
                         int width, int height, const std::map<std::string, std::string>& env)
    : socket_(dir / "tmux.sock") {
  std::map<std::string, std::string> vars = {{"TERM", "tmux-256color"},
                                             {"HOME", dir.string()},
                                             {"LANG", "C.UTF-8"},
                                             {"LC_ALL", "C.UTF-8"}};
  for (const auto& [k, v] : env) vars[k] = v;
  std::string command = "env";
  for (const auto& [k, v] : vars) command += " " + k + "=" + shell_quote(v);
  for (const auto& a : argv) command += " " + shell_quote(a);
  // After the program: its exit status and whether the terminal is back in its normal modes.
  command +=
      "; echo \"[exit $?]\"; echo \"[modes $(stty -a | tr ' ;' '\\n\\n' | "
      "grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')]\"; exec sleep 1000";
  std::vector<std::string> args = base();
  for (const std::string& a :
       {std::string("new-session"), std::string("-d"), std::string("-x"), std::to_string(width),
        std::string("-y"), std::to_string(height), std::string("-s"), std::string("t"), command})
    args.push_back(a);
  REQUIRE_MESSAGE(run_tmux(args) == 0, "tmux could not start a session");
}

TmuxSession::~TmuxSession() {
  std::vector<std::string> args = base();
  args.push_back("kill-server");
  run_tmux(args);
  std::error_code ec;
  std::filesystem::remove(socket_, ec);
}

std::vector<std::string> TmuxSession::base() const {
  // -u: the screen is read back as UTF-8 whatever the test's own locale (else tmux shows "_").
  return {"-u", "-S", socket_.string(), "-f", "/dev/null"};
}

std::string TmuxSession::screen() const {
  std::vector<std::string> args = base();
  for (const char* a : {"capture-pane", "-p", "-t", "t"}) args.emplace_back(a);
  std::string out;
  run_tmux(args, &out);
  return out;
}

void TmuxSession::keys(const std::vector<std::string>& names) {
  std::vector<std::string> args = base();
  for (const char* a : {"send-keys", "-t", "t"}) args.emplace_back(a);
  args.insert(args.end(), names.begin(), names.end());
  REQUIRE(run_tmux(args) == 0);
}

void TmuxSession::type(const std::string& text) {
  std::vector<std::string> args = base();
  for (const char* a : {"send-keys", "-t", "t", "-l", "--"}) args.emplace_back(a);
  args.push_back(text);
  REQUIRE(run_tmux(args) == 0);
}

void TmuxSession::resize(int width, int height) {
  std::vector<std::string> args = base();
  for (const std::string& a :
       {std::string("resize-window"), std::string("-t"), std::string("t"), std::string("-x"),
        std::to_string(width), std::string("-y"), std::to_string(height)})
    args.push_back(a);
  REQUIRE(run_tmux(args) == 0);
}

std::string TmuxSession::wait_until(const std::string& what,
                                    const std::function<bool(const std::string&)>& done,
                                    std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string s;
  while (true) {
    s = screen();
    if (done(s)) return s;
    if (std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("timed out waiting for " << what << "; the screen:\n" << s);
  return s;
}

std::string TmuxSession::wait_for(const std::string& text, std::chrono::milliseconds timeout) {
  return wait_until(
      "\"" + text + "\"", [&](const std::string& s) { return s.find(text) != std::string::npos; },
      timeout);
}

pid_t TmuxSession::program_pid() const {
  std::vector<std::string> args = base();
  for (const char* a : {"display-message", "-p", "-t", "t", "#{pane_pid}"}) args.emplace_back(a);
  std::string out;
  run_tmux(args, &out);
  const pid_t shell = static_cast<pid_t>(std::atoi(out.c_str()));
  if (shell <= 0) return -1;
  std::ifstream children("/proc/" + std::to_string(shell) + "/task/" + std::to_string(shell) +
                         "/children");
  pid_t child = -1;
  if (children >> child) return child;
  return -1;
}

}  // namespace amazons::test
