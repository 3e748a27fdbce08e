// Host a game on this computer: starts the server, then shows its lobby.
#include <algorithm>
#include <cmath>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {

namespace {

using Clock = std::chrono::steady_clock;

class HostScreen final : public Screen {
 public:
  explicit HostScreen(App& app) : Screen(app) {
    back_.label = app_.tr()("common.back");
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    widgets_.add(back_);
    auto& host = app_.hosted_server();
    if (host && host->failure()) host.reset();
    if (!host) {
      ServerHostOptions o;
      o.executable = app_.options().server_exe;
      o.database = app_.options().data_dir / "server" / "amazons.db";
      o.log = app_.options().data_dir / "server" / "server.log";
      o.extra = app_.options().server_args;
      auto started = ServerHost::start(o);
      if (!started)
        error_ = app_.tr()("desktop.host.cannot_start",
                           {{"error", host_failure_text(app_.tr(), started.error())}});
      else
        host = std::move(started).value();
    }
    since_ = Clock::now();
  }

  std::string name() const override { return "host"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    width_ = w;
    height_ = h;
    back_.rect = {std::round((w - s.f(200)) / 2), h * 0.6f, s.f(200), s.f(48)};
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape)
      app_.show(make_menu_screen(app_));
  }

  void update(SteadyTime now) override {
    const auto& host = app_.hosted_server();
    if (!error_.empty() || !host) return;
    if (auto failed = host->failure()) {
      error_ =
          app_.tr()("desktop.host.stopped", {{"error", host_failure_text(app_.tr(), *failed)}});
      return;
    }
    // The addresses follow the port line at once; wait a moment for them.
    const auto port = host->port();
    if (!port || (host->addresses().empty() && now - since_ < std::chrono::seconds(2))) return;
    app_.show(make_lobby_screen(app_, connect(app_, {{"127.0.0.1", *port}}, std::nullopt)));
  }

  // Waiting for the server to start, it polls every frame; once it failed, it rests.
  bool changes_by_itself(SteadyTime) const override { return error_.empty(); }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_text(t, s.fonts->bold, app_.tr()("desktop.host.title"), s.px(32), width_ / 2,
              height_ * 0.35f, colors::kText, Align::Center);
    draw_text(t, s.fonts->regular, error_.empty() ? app_.tr()("desktop.host.starting") : error_,
              s.px(16), width_ / 2, height_ * 0.45f,
              error_.empty() ? colors::kMuted : colors::kDanger, Align::Center);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"error", error_}};
  }

 private:
  Button back_{"back", ""};
  WidgetSet widgets_;
  std::string error_;
  SteadyTime since_;
  float width_ = 0, height_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_host_screen(App& app) { return std::make_unique<HostScreen>(app); }

}  // namespace amazons::client::ui
