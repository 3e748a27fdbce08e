// amazons-tui's options and refusals: no terminal, no TERM, a bad name, a password that
// protects a name on a real server, other engine settings and rule variants.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "tests/integration/server_process.h"
#include "tests/tui/tui_test_util.h"

using namespace amazons;
using namespace amazons::test;
namespace fs = std::filesystem;

namespace {

// Runs amazons-tui with stdin from /dev/null and stderr into a string; returns the exit status.
int run_without_terminal(const std::vector<std::string>& args, std::string& err) {
  int pipefd[2];
  REQUIRE(pipe(pipefd) == 0);
  std::vector<std::string> argv = args;
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(pipefd[1], STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  close(pipefd[1]);
  char buf[4096];
  for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;)
    err.append(buf, static_cast<std::size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// What `program ARGS` prints (stdout and stderr) with the locale's variables set to `locale`
// (and no others); `status` is its exit status.
std::string output_in(const std::string& program, const std::string& locale,
                      const std::string& args, int& status) {
  const std::string command =
      "env -u LC_ALL -u LC_MESSAGES LANG=" + locale + " " + program + " " + args + " 2>&1";
  std::FILE* out = ::popen(command.c_str(), "r");
  REQUIRE(out != nullptr);
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;) text.append(buf, n);
  const int waited = ::pclose(out);
  status = WIFEXITED(waited) ? WEXITSTATUS(waited) : -1;
  return text;
}

// What `program --help` prints with the locale's variables set to `locale` (and no others).
std::string help_in(const std::string& program, const std::string& locale) {
  int status = -1;
  std::string text = output_in(program, locale, "--help", status);
  CHECK(status == 0);
  return text;
}

}  // namespace

TEST_SUITE("tui") {
  TEST_CASE("options: --help of the terminal and desktop clients follows LANG") {
    std::vector<std::string> programs = {kTuiExe};
    const fs::path desktop = fs::path(binary_dir()) / "client" / "amazons-client";
    if (fs::exists(desktop)) programs.push_back(desktop.string());
    for (const std::string& program : programs) {
      CAPTURE(program);
      const std::string en = help_in(program, "C.UTF-8");
      CHECK(contains(en, "Usage: "));
      CHECK(contains(en, "Where games are saved"));
      const std::string zh = help_in(program, "zh_CN.UTF-8");
      CHECK(contains(zh, "用法: "));
      CHECK(contains(zh, "保存对局的目录"));
      CHECK(contains(zh, "显示本帮助并退出"));
      CHECK_FALSE(contains(zh, "Where games are saved"));
      // Traditional Chinese has no catalogue: English.
      CHECK(contains(help_in(program, "zh_TW.UTF-8"), "Where games are saved"));
    }
  }

  TEST_CASE(
      "options: CLI11's refusals of a command line follow the language, in all three programs") {
    std::vector<std::string> programs = {kTuiExe, binary_dir() + "/bot/amazons-bot"};
    const fs::path desktop = fs::path(binary_dir()) / "client" / "amazons-client";
    if (fs::exists(desktop)) programs.push_back(desktop.string());
    // CLI11's own English, which none of these may show in Chinese.
    const std::vector<std::string> english = {"not expected", "required", "Run with --help",
                                              "not in range", "missing",  "Could not convert"};
    for (const std::string& program : programs) {
      CAPTURE(program);
      const auto refused = [&](const std::string& locale, const std::string& args) {
        int status = -1;
        std::string text = output_in(program, locale, args, status);
        CHECK(status != 0);
        if (locale != "C.UTF-8")
          for (const std::string& word : english) CHECK_FALSE(contains(text, word));
        return text;
      };
      CHECK(contains(refused("C.UTF-8", "--frobnicate"), "Not an option of this program"));
      CHECK(contains(refused("zh_CN.UTF-8", "--frobnicate"), "无法识别的参数：--frobnicate"));
      CHECK(contains(refused("C.UTF-8", "--language zh-CN --frobnicate"), "无法识别的参数"));
      CHECK(contains(refused("zh_CN.UTF-8", "--i18n-dir"), "--i18n-dir 后面缺少取值"));
      const bool bot = program.ends_with("amazons-bot");
      const bool tui = program == kTuiExe;
      const std::string range = bot ? "--max-games 99" : tui ? "--discovery-port 0" : "--width 3";
      const std::string told = refused("zh_CN.UTF-8", range);
      CHECK(contains(told, bot ? "--max-games：应为 1 到 64 之间的整数，收到的是“99”"
                           : tui ? "--discovery-port：应为 1 到 65535 之间的整数，收到的是“0”"
                                 : "--width：应为 640 到 7680 之间的整数，收到的是“3”"));
      if (!bot) CHECK(contains(told, "运行时加 --help 可查看说明。"));
      if (bot) {
        CHECK(contains(refused("zh_CN.UTF-8", "--log-level loud"),
                       "--log-level：应为 debug,info,warn,error 之一，收到的是“loud”"));
        CHECK(contains(refused("zh_CN.UTF-8", "--tournament 0"), "应为不小于 1 的整数"));
      }
      if (tui)
        CHECK(contains(refused("zh_CN.UTF-8", "--replay /no/such/game.json"),
                       "--replay：文件不存在：/no/such/game.json"));
    }
  }

  TEST_CASE("options: refused without a terminal, without TERM, and with a bad --name") {
    TempDir home;
    std::string err;
    CHECK(run_without_terminal(tui_args(home.path()), err) == 3);
    CHECK(contains(err, "needs a terminal"));
    err.clear();
    CHECK(run_without_terminal(tui_args(home.path(), {"--name", "   "}), err) == 2);
    CHECK(contains(err, "--name:"));
    REQUIRE(tmux_available());
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24, {{"TERM", ""}});
    const std::string s = t.wait_for("[exit 3]");
    CHECK(contains(s, "TERM is not set"));
  }

  TEST_CASE("options: --ai-config and --rules-dir change the levels and variants offered") {
    REQUIRE(tmux_available());
    TempDir home;
    const fs::path rules = home.path() / "rules";
    fs::create_directories(rules);
    std::ofstream(rules / "small.json") << R"({"name": "small", "description": "6x6", "size": 6,
      "white": ["a2", "f2"], "black": ["a5", "f5"], "first": "white"})";
    TmuxSession t(home.path(),
                  tui_args(home.path(), {"--ai-config", (home.path() / "none.json").string(),
                                         "--rules-dir", rules.string()}),
                  80, 24);
    t.wait_for("Play the computer");
    t.keys({"Enter"});
    std::string s = t.wait_for("The engine settings could not be read");
    CHECK(contains(s, "< Medium >"));  // the built-in levels
    t.keys({"Down", "Down"});
    s = t.wait_until("the rules focused", [](const std::string& x) {
      const std::string row = line_with(x, "Rules");
      const auto first = row.find_first_not_of(' ');
      return first != std::string::npos && row[first] == '>';
    });
    for (int i = 0; i < 4 && !contains(s, "< small (6x6) >"); ++i) {
      const std::string before = line_with(s, "Rules");
      t.keys({"Right"});
      s = t.wait_until("the rules to change",
                       [&](const std::string& x) { return line_with(x, "Rules") != before; });
    }
    REQUIRE(contains(s, "< small (6x6) >"));
    t.keys({"Enter"});
    s = t.wait_for(kPickQueen);
    auto b = read_board(s, 6);
    REQUIRE(b.has_value());
    CHECK(b->white.size() == 2);
  }

  TEST_CASE("options: --password protects the name on a real server") {
    REQUIRE(tmux_available());
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir);
    const std::string where = "tls://127.0.0.1:" + std::to_string(server.port());
    auto login = [&](const std::string& password, const std::string& expect) {
      const fs::path dir = home.path() / ("dave-" + password);
      fs::create_directories(dir);
      TmuxSession t(
          dir,
          tui_args(dir, {"--server", where, "--name", "Dave", "--password", password, "--connect"}),
          80, 24);
      // The lobby shows "Connecting..." before the TLS handshake ends, so the question (asked
      // once per new server) is waited for together with the outcome, not with the lobby.
      std::string s = t.wait_until(
          "the trust question or \"" + expect + "\"",
          [&](const std::string& x) {
            return contains(x, expect) || contains(x, "Trust this server?");
          },
          std::chrono::seconds(15));
      if (contains(s, "Trust this server?")) {
        t.keys({"y"});
        s = t.wait_for(expect, std::chrono::seconds(15));
      }
      t.keys({"Escape"});  // leaves the server
      t.wait_for("Play online");
      return s;
    };
    login("first-secret", "as Dave (1500)");
    const std::string refused = login("wrong", "Disconnected");
    CHECK(contains(refused, "password"));
    login("first-secret", "as Dave (1500)");
  }
}
