// TLS in the desktop client end to end: a real amazons-server with its own certificate on a
// loopback port, the real client under Xvfb. The connect screen's TLS switch, "Trust this
// server?" with the fingerprint, the pin kept in settings.json, and a changed certificate
// refused with a warning. The hosted server's browser and invite links. Screenshots go to
// build/<preset>/screenshots/ (tls-*.png).
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>

#include "tests/gui/gui_driver.h"
#include "tests/integration/server_process.h"
#include "tls/tls.h"

using namespace amazons;
using namespace amazons::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Certificate {
  Certificate(const fs::path& dir, const std::string& stem) {
    cert = dir / (stem + ".crt");
    key = dir / (stem + ".key");
    REQUIRE(tls::write_self_signed(cert, key, {"localhost", "127.0.0.1"}).has_value());
    fingerprint = tls::fingerprint_of_pem(cert).value();
  }
  std::vector<std::string> flags() const {
    return {"--tls-cert", cert.string(), "--tls-key", key.string()};
  }
  fs::path cert, key;
  std::string fingerprint;
};

json settings_file(const fs::path& home) {
  std::ifstream in(home / "config" / "amazons" / "settings.json");
  return json::parse(in);
}

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE("tls: the switch, Trust this server?, the pin in the settings, a changed certificate") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    const Certificate first(home.path(), "first"), second(home.path(), "second");
    auto server = std::make_unique<ServerProcess>(server_dir, json::object(), first.flags());
    const unsigned short port = server->port();
    const std::string where = "127.0.0.1:" + std::to_string(port);
    write_client_settings(home.path(), json{{"name", "Alice"}, {"last_server", "tls://" + where}});

    VirtualDisplay display(1280, 800, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    c.click("online");
    json s = c.wait_screen("connect");
    CHECK(s["widgets"]["server"]["text"] == where);
    CHECK(s["widgets"]["tls"]["value"] == true);  // from the last server's tls://
    c.screenshot(kShotDir, "tls-connect");
    c.click("connect");
    s = c.wait_screen("trust_server");
    CHECK(s["fingerprint"] == first.fingerprint);
    CHECK(s["server"] == where);
    c.screenshot(kShotDir, "tls-trust");
    c.click("trust");
    s = c.wait_for("the lobby, online over TLS", [](const json& st) {
      return st.value("screen", "") == "lobby" && st["online"].get<bool>();
    });
    CHECK(s["status"].get<std::string>().find("tls://" + where) != std::string::npos);
    CHECK(settings_file(home.path())["pinned_servers"][where] == first.fingerprint);
    CHECK(settings_file(home.path())["last_server"] == "tls://" + where);

    // The server comes back with another certificate: refused, with both fingerprints shown.
    c.key("Escape");
    c.wait_screen("menu");
    server.reset();
    server = std::make_unique<ServerProcess>(server_dir, json::object(), second.flags(),
                                             Launch::on_port(port));
    c.click("online");
    c.wait_screen("connect");
    c.click("connect");
    s = c.wait_screen("certificate_changed");
    CHECK(s["fingerprint"] == second.fingerprint);
    CHECK(s["pinned"] == first.fingerprint);
    CHECK_FALSE(s["widgets"].contains("trust"));
    c.screenshot(kShotDir, "tls-changed");
    CHECK(settings_file(home.path())["pinned_servers"][where] == first.fingerprint);
    c.click("cancel");
    c.wait_screen("connect");
  }

  TEST_CASE(
      "host: the hosted server's browser link, fingerprint and a private game's invite link") {
    TempDir home;
    VirtualDisplay display(1280, 800, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start({"--host", "--server-exe", test::kServerBinary, "--server-args",
             "--bind 127.0.0.1 --discovery-port -1 --config " + amazons::test::config_dir() +
                 "/server.json"},
            "lobby");
    json s = c.wait_for("the hosted lobby, online, with its certificate", [](const json& st) {
      return st.value("screen", "") == "lobby" && st["online"].get<bool>() &&
             !st["hosting_fingerprint"].get<std::string>().empty();
    });
    const std::string hosting = s["hosting"];
    const std::string marker = "Friends connect to: 127.0.0.1:";
    const auto at = hosting.find(marker);
    REQUIRE(at != std::string::npos);
    const std::string port = std::to_string(std::stoi(hosting.substr(at + marker.size())));
    CHECK(hosting.find("in a browser: https://127.0.0.1:" + port + "/") != std::string::npos);
    const std::string fp = s["hosting_fingerprint"];
    CHECK(tls::parse_fingerprint(fp.substr(fp.rfind(' ') + 1)).has_value());
    c.click("private");
    c.click("create");
    s = c.wait_for("a private game waiting, with its invite link",
                   [](const json& st) { return !st["invite_link"].get<std::string>().empty(); });
    const std::string link = s["invite_link"];
    const std::string game = s["waiting"];
    CHECK(link.find("https://127.0.0.1:" + port + "/#/join/" + game + "/") != std::string::npos);
    c.screenshot(kShotDir, "tls-host-invite");
  }
}
