// What the online screens share: the hosting lines, the title, the notices, a list's row, and
// connecting.
#include <algorithm>
#include <cmath>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"

namespace amazons::client::ui {

// The addresses the hosted server gave, for the people to tell their friends, and the link
// that opens the game in a browser (https when the server speaks TLS).
std::string hosting_line(App& app) {
  const auto& host = app.hosted_server();
  if (!host) return {};
  std::string text;
  for (const std::string& a : host->addresses()) text += (text.empty() ? "" : ",  ") + a;
  std::string line = app.tr()("desktop.hosting.line", {{"addresses", text}});
  if (const auto links = host->browser_links(); !links.empty())
    line = app.tr()("desktop.hosting.browser", {{"line", line}, {"link", links.front()}});
  return line;
}

std::string hosting_fingerprint_line(App& app) {
  const auto& host = app.hosted_server();
  if (!host) return {};
  const auto fp = host->tls_fingerprint();
  return fp ? app.tr()("desktop.hosting.fingerprint", {{"fingerprint", *fp}}) : std::string();
}

void draw_title(sf::RenderTarget& t, const Style& s, float x, float y, const std::string& title,
                const std::string& subtitle, sf::Color subtitle_color) {
  draw_text(t, s.fonts->bold, title, s.px(32), x, y + s.f(18), colors::kText);
  // The line under it may run to the window's edge, smaller when it must.
  if (!subtitle.empty())
    draw_fitted(t, s.fonts->regular, subtitle, s.px(15), s.px(12), x, y + s.f(54),
                t.getView().getSize().x - x - s.f(24), subtitle_color);
}

void show_notices(App& app, OnlineClient& client) {
  for (const OnlineNotice& n : client.take_notices()) app.notify(n);
}

Button& add_row(std::vector<std::unique_ptr<Button>>& rows, const std::string& id,
                const std::string& label, ButtonStyle look, std::function<void()> click) {
  auto b = std::make_unique<Button>(id, label, look);
  b->align = Align::Left;
  b->on_click = std::move(click);
  rows.push_back(std::move(b));
  return *rows.back();
}

std::shared_ptr<OnlineClient> connect(App& app, const std::vector<ServerAddress>& nodes,
                                      std::optional<std::string> password) {
  auto client = std::make_shared<OnlineClient>(
      connection_options(app.settings(), nodes, std::move(password)), app.tr());
  client->start();
  return client;
}

}  // namespace amazons::client::ui
