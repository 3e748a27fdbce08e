// The hosted server (client/server_host.h): "Host a game" starts amazons-server as a child on
// loopback, reads its port and addresses, says why it cannot start or stopped in the person's
// language, and never outlives the client, even one that is killed.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "client/server_host.h"
#include "client/words.h"
#include "tests/client/catalogues.h"
#include "tests/client/online_util.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::client;
using amazons::test::Online;
using amazons::test::TempDir;
using amazons::test::wait_until;

TEST_CASE("hosting: the server runs as a child, says its port and addresses, stops with the host") {
  TempDir dir;
  ServerHostOptions o;
  o.executable = test::kServerBinary;
  o.database = dir.path() / "data" / "server.db";
  o.log = dir.path() / "server.log";
  o.extra = {"--bind", "127.0.0.1", "--discovery-port", "-1"};
  auto host = ServerHost::start(o);
  REQUIRE(host.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline && (*host)->addresses().empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE((*host)->port().has_value());
  const unsigned short port = *(*host)->port();
  REQUIRE((*host)->addresses().size() == 1);
  CHECK((*host)->addresses()[0] == "127.0.0.1:" + std::to_string(port));
  CHECK(std::filesystem::exists(o.database));

  Online alice(port, "alice");
  REQUIRE(wait_until({&alice.client}, [&] { return alice.client.online(); }));
  const pid_t pid = (*host)->pid();
  host->reset();  // stops the server
  CHECK(kill(pid, 0) != 0);
  REQUIRE(wait_until({&alice.client}, [&] { return !alice.client.online(); }));

  ServerHostOptions missing = o;
  missing.executable = dir.path() / "no-such-server";
  const auto failed = ServerHost::start(missing);
  REQUIRE_FALSE(failed.has_value());
  CHECK(failed.error().kind == HostFailure::Kind::NotRunnable);
  CHECK(failed.error().describe().find("no-such-server") != std::string::npos);
  // The host screen says it in the person's language, the system's reason too.
  CHECK(host_failure_text(test::chinese(), failed.error()) ==
        "无法运行服务器程序 " + missing.executable.string() + "（文件不存在）");
  CHECK(host_failure_text(test::english(), failed.error()) ==
        "the server program " + missing.executable.string() + " cannot be run (no such file)");

  // A server that cannot open its database (a folder stands where the file should be) ends at
  // once; the host reads why from its log.
  ServerHostOptions unopenable = o;
  unopenable.database = dir.path() / "a-folder";
  unopenable.log = dir.path() / "unopenable.log";
  std::filesystem::create_directories(unopenable.database);
  auto stopped = ServerHost::start(unopenable);
  REQUIRE(stopped.has_value());
  const auto stop_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < stop_deadline && !(*stopped)->failure())
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE((*stopped)->failure().has_value());
  CHECK((*stopped)->failure()->kind == HostFailure::Kind::Storage);
  CHECK(host_failure_text(test::chinese(), *(*stopped)->failure()) ==
        "它打不开自己的数据库 " + unopenable.database.string() + "（日志：" +
            unopenable.log.string() + "）");

  // A server that cannot open its database ends at once, and the host says why.
  ServerHostOptions bad = o;
  bad.database = dir.path() / "server.log" / "x.db";  // a file where a directory should be
  auto broken = ServerHost::start(bad);
  if (broken) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until && !(*broken)->failure())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK((*broken)->failure().has_value());
  } else {
    CHECK(broken.error().kind == HostFailure::Kind::NoDirectory);
    CHECK(host_failure_text(test::chinese(), broken.error()) ==
          "无法创建文件夹 " + bad.database.parent_path().string() + "（路径上有同名的文件）");
  }
}

TEST_CASE("hosting: a client that is killed takes its server with it") {
  TempDir dir;
  ServerHostOptions o;
  o.executable = test::kServerBinary;
  o.database = dir.path() / "server.db";
  o.log = dir.path() / "server.log";
  o.extra = {"--bind", "127.0.0.1", "--discovery-port", "-1"};
  // A stand-in for the client: a process that hosts a server, says its port, and is then killed
  // with SIGKILL, so that no destructor runs.
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t client = fork();
  REQUIRE(client >= 0);
  if (client == 0) {
    ::close(pipe_fds[0]);
    auto host = ServerHost::start(o);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (host && std::chrono::steady_clock::now() < until && !(*host)->port())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const unsigned short port = host && (*host)->port() ? *(*host)->port() : 0;
    if (::write(pipe_fds[1], &port, sizeof port) != sizeof port) _exit(1);
    for (;;) pause();
  }
  ::close(pipe_fds[1]);
  unsigned short port = 0;
  REQUIRE(::read(pipe_fds[0], &port, sizeof port) == sizeof port);
  ::close(pipe_fds[0]);
  REQUIRE(port != 0);
  CHECK(net::LineClient::connect("127.0.0.1", port).has_value());
  kill(client, SIGKILL);
  waitpid(client, nullptr, 0);
  bool gone = false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!gone && std::chrono::steady_clock::now() < until) {
    gone = !net::LineClient::connect("127.0.0.1", port).has_value();
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(gone);
}
