// Play online: where and as whom, typed or found on the LAN.
#include <algorithm>
#include <cmath>
#include <future>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"
#include "net/discovery.h"

namespace amazons::client::ui {

namespace {

class ConnectScreen final : public Screen {
 public:
  explicit ConnectScreen(App& app) : Screen(app) {
    server_.text =
        app_.settings().last_server.empty() ? "127.0.0.1:7420" : app_.settings().last_server;
    // The switch says TLS; the field holds host:port (a typed tls:// works too).
    if (auto last = parse_server_addresses(server_.text); last) {
      tls_.value = last->front().transport == Transport::Tls;
      server_.text = nodes_text(*last, false);
    }
    name_.text = app_.settings().name;
    const Catalogue& t = app_.tr();
    server_.label = t("desktop.connect.server");
    find_.label = t("desktop.connect.find");
    tls_.label = t("desktop.connect.tls");
    name_.label = t("desktop.settings.name");
    password_.label = t("desktop.connect.password");
    connect_.label = t("online.connect");
    back_.label = t("common.back");
    password_.secret = true;
    find_.on_click = [this] { find(); };
    connect_.on_click = [this] { go(); };
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    rebuild();
  }

  std::string name() const override { return "connect"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    width_ = w;
    height_ = h;
    col_w_ = std::min(s.f(480), w - s.f(48));
    x_ = std::round((w - col_w_) / 2);
    top_ = std::round(std::max(s.f(30), h * 0.08f));
    float y = top_ + s.f(110);
    const float find_w = std::clamp(find_.natural_width(s), s.f(140), col_w_ / 2);
    server_.rect = {x_, y, col_w_ - find_w - s.f(10), s.f(46)};
    find_.rect = {x_ + col_w_ - find_w, y, find_w, s.f(46)};
    y += s.f(56);
    tls_.rect = {x_, y, col_w_, s.f(30)};
    y += s.f(40);
    // The LAN search's line, then the servers it found.
    lan_y_ = y + s.f(4);
    if (!lan_text_.empty()) y += s.f(26);
    for (auto& b : found_buttons_) {
      b->rect = {x_, y, col_w_, s.f(36)};
      y += s.f(42);
    }
    y += s.f(44);
    name_.rect = {x_, y, col_w_, s.f(46)};
    y += s.f(80);
    password_.rect = {x_, y, col_w_, s.f(46)};
    y += s.f(72);
    const float bw = (col_w_ - s.f(14)) / 2;
    back_.rect = {x_, y, bw, s.f(50)};
    connect_.rect = {x_ + bw + s.f(14), y, bw, s.f(50)};
    error_y_ = y + s.f(76);
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type != sf::Event::KeyPressed) return;
    if (e.key.code == sf::Keyboard::Escape) app_.show(make_menu_screen(app_));
    if (e.key.code == sf::Keyboard::Enter) go();
  }

  void update(SteadyTime) override {
    if (!search_.valid() || search_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return;
    auto result = search_.get();
    if (!result) {
      lan_text_ = app_.tr()("online.lan_failed", {{"error", result.error()}});
    } else {
      found_ = std::move(*result);
      lan_text_ = found_.empty()
                      ? app_.tr()("online.lan_none")
                      : app_.tr()("desktop.connect.lan_found", {{"count", found_.size()}});
    }
    rebuild();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_title(t, s, x_, top_, app_.tr()("menu.online"), app_.tr()("desktop.connect.subtitle"));
    widgets_.draw(t, s);
    draw_text(t, s.fonts->regular, lan_text_, s.px(14), x_, lan_y_, colors::kMuted);
    if (!error_.empty())
      draw_text(t, s.fonts->regular, error_, s.px(15), x_, error_y_, colors::kDanger);
  }

  nlohmann::json describe() const override {
    nlohmann::json found = nlohmann::json::array();
    for (const auto& f : found_)
      found.push_back({{"address", f.address},
                       {"port", f.reply.port},
                       {"name", f.reply.name},
                       {"tls", f.reply.tls}});
    return {{"widgets", widgets_.describe()},
            {"error", error_},
            {"lan", lan_text_},
            {"found", found},
            {"searching", search_.valid()}};
  }

 private:
  void rebuild() {
    found_buttons_.clear();
    widgets_ = WidgetSet{};
    for (Widget* w : std::initializer_list<Widget*>{&server_, &find_, &tls_, &name_, &password_,
                                                    &connect_, &back_})
      widgets_.add(*w);
    for (std::size_t i = 0; i < found_.size() && i < 4; ++i) {
      const auto& f = found_[i];
      if (f.reply.port < 1 || f.reply.port > 65535) continue;  // from the network: checked
      const std::string where =
          net::host_port({f.address, static_cast<unsigned short>(f.reply.port)});
      const bool tls = f.reply.tls;
      const Catalogue& tr = app_.tr();
      auto b = std::make_unique<Button>(
          "lan" + std::to_string(i),
          f.reply.name + kDot + where + kDot +
              tr("desktop.connect.players_online", {{"count", f.reply.players}}) + kDot +
              tr(tls ? "desktop.connect.with_tls" : "desktop.connect.without_tls") +
              (f.reply.password ? kDot + tr("desktop.connect.password_needed") : ""));
      b->align = Align::Left;
      // A server that speaks TLS is joined with it.
      b->on_click = [this, where, tls] {
        server_.text = where;
        tls_.value = tls;
      };
      widgets_.add(*b);
      found_buttons_.push_back(std::move(b));
    }
    layout(width_, height_);
  }

  void find() {
    if (search_.valid()) return;
    net::DiscoveryOptions o;
    o.target = app_.settings().discovery_target;
    o.port = static_cast<unsigned short>(app_.settings().discovery_port);
    lan_text_ = app_.tr()("online.lan_searching");
    layout(width_, height_);
    // Blocks for up to a second: never on the render thread.
    search_ = std::async(std::launch::async, [o] { return net::discover_servers(o); });
  }

  void go() {
    // One address, or the nodes of a cluster separated by commas.
    auto where = read_server_addresses(server_.text);
    if (!where) {
      error_ =
          app_.tr()("online.bad_server", {{"error", address_error_text(app_.tr(), where.error())}});
      return;
    }
    const auto transport = where->front().transport;
    if (transport == Transport::WebSocket || transport == Transport::SecureWebSocket) {
      error_ = app_.tr()("online.no_websocket");
      return;
    }
    if (tls_.value)
      for (auto& node : *where) node.transport = Transport::Tls;
    if (auto why = name_problem(name_.text)) {
      error_ = app_.tr()("online.bad_name", {{"error", name_problem_text(app_.tr(), *why)}});
      return;
    }
    app_.settings().last_server = nodes_text(*where, true);
    app_.settings().name = name_.text;
    app_.save_settings();
    std::optional<std::string> password;
    if (!password_.text.empty()) password = password_.text;
    app_.show(make_lobby_screen(app_, connect(app_, *where, std::move(password))));
  }

  // Labelled in the catalogue's words by the constructor.
  TextField server_{"server", "", 80};
  Button find_{"find_lan", ""};
  Toggle tls_{"tls", ""};
  TextField name_{"name", "", kMaxNameLength};
  TextField password_{"password", "", 64};
  Button connect_{"connect", "", ButtonStyle::Primary};
  Button back_{"back", ""};
  std::vector<std::unique_ptr<Button>> found_buttons_;
  WidgetSet widgets_;
  std::future<Expected<std::vector<net::DiscoveredServer>, std::string>> search_;
  std::vector<net::DiscoveredServer> found_;
  std::string lan_text_, error_;
  float width_ = 0, height_ = 0, x_ = 0, col_w_ = 0, top_ = 0, lan_y_ = 0, error_y_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_connect_screen(App& app) {
  return std::make_unique<ConnectScreen>(app);
}

}  // namespace amazons::client::ui
