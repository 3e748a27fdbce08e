// A TLS certificate nobody vouches for (trust it?), or one that changed since it was trusted.
#include <algorithm>
#include <cmath>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"

namespace amazons::client::ui {

namespace {

class CertificateScreen final : public Screen {
 public:
  // A form: it changes only on events.
  bool changes_by_itself(SteadyTime) const override { return false; }
  CertificateScreen(App& app, net::ConnectionOptions options, net::ClientError error)
      : Screen(app), options_(std::move(options)), error_(std::move(error)) {
    changed_ = error_.certificate == net::ClientError::Trust::Changed;
    where_ = net::host_port({options_.host, options_.port});
    trust_.on_click = [this] { trust(); };
    cancel_.on_click = [this] { app_.show(make_connect_screen(app_)); };
    const Catalogue& t = app_.tr();
    trust_.label = t("desktop.cert.trust");
    cancel_.label = t(changed_ ? "common.back" : "common.cancel");
    if (!changed_) widgets_.add(trust_);
    widgets_.add(cancel_);
  }

  std::string name() const override { return changed_ ? "certificate_changed" : "trust_server"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    width_ = w;
    height_ = h;
    col_w_ = std::min(s.f(760), w - s.f(48));
    x_ = std::round((w - col_w_) / 2);
    top_ = std::round(std::max(s.f(30), h * 0.1f));
    // The lines under the title, wrapped to the column: the buttons follow them.
    lines_.clear();
    float y = top_ + s.f(100);
    auto line = [&](const std::string& text, sf::Color colour, bool bold = false) {
      lines_.push_back({text, colour, bold, y});
      y += s.f(26);
    };
    auto paragraph = [&](const std::string& text, sf::Color colour) {
      for (const std::string& l : wrap(s.fonts->regular, text, s.px(15), col_w_)) line(l, colour);
    };
    // 95 characters do not fit one line: the fingerprint in two halves of 16 bytes.
    auto fingerprint = [&](const std::string& caption, const std::string& fp) {
      line(caption, colors::kText, true);
      line(fp.substr(0, 48), colors::kAccent);
      if (fp.size() > 48) line(fp.substr(48), colors::kAccent);
    };
    const Catalogue& t = app_.tr();
    if (changed_) {
      fingerprint(t("desktop.cert.trusted_before"), options_.tls_fingerprint.value_or(""));
      fingerprint(t("desktop.cert.shown_now"), error_.fingerprint);
      y += s.f(6);
      paragraph(t("desktop.cert.intercepted"), colors::kDanger);
      paragraph(t("desktop.cert.refused", {{"server", where_}}), colors::kMuted);
    } else {
      fingerprint(t("desktop.cert.its_fingerprint"), error_.fingerprint);
      y += s.f(6);
      paragraph(t("desktop.cert.compare", {{"server", where_}}), colors::kMuted);
    }
    y += s.f(24);
    if (changed_) {
      cancel_.rect = {std::round((w - s.f(200)) / 2), y, s.f(200), s.f(50)};
    } else {
      const float bw = (col_w_ - s.f(14)) / 2;
      cancel_.rect = {x_, y, bw, s.f(50)};
      trust_.rect = {x_ + bw + s.f(14), y, bw, s.f(50)};
    }
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape)
      app_.show(make_connect_screen(app_));
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    const Catalogue& tr = app_.tr();
    if (changed_) {
      draw_title(t, s, x_, top_, tr("online.cert.changed"),
                 tr("online.cert.changed.explain", {{"server", where_}}), colors::kDanger);
    } else {
      draw_title(t, s, x_, top_, tr("online.cert.trust"),
                 tr("online.cert.trust.explain", {{"server", where_}}));
    }
    for (const Line& l : lines_)
      draw_text(t, l.bold ? s.fonts->bold : s.fonts->regular, l.text, s.px(l.bold ? 15 : 16), x_,
                l.y, l.colour);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()},
            {"server", where_},
            {"fingerprint", error_.fingerprint},
            {"pinned", options_.tls_fingerprint.value_or("")},
            {"changed", changed_}};
  }

 private:
  void trust() {
    app_.settings().pinned_servers[where_] = error_.fingerprint;
    app_.save_settings();
    net::ConnectionOptions o = options_;
    o.tls_fingerprint = error_.fingerprint;
    auto client = std::make_shared<OnlineClient>(o, app_.tr());
    client->start();
    app_.show(make_lobby_screen(app_, std::move(client)));
  }

  net::ConnectionOptions options_;
  net::ClientError error_;
  bool changed_ = false;
  std::string where_;
  Button trust_{"trust", "", ButtonStyle::Primary};
  Button cancel_{"cancel", ""};
  WidgetSet widgets_;
  struct Line {
    std::string text;
    sf::Color colour;
    bool bold = false;
    float y = 0;
  };
  std::vector<Line> lines_;
  float width_ = 0, height_ = 0, x_ = 0, col_w_ = 0, top_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_certificate_screen(App& app, net::ConnectionOptions options,
                                                net::ClientError error) {
  return std::make_unique<CertificateScreen>(app, std::move(options), std::move(error));
}

}  // namespace amazons::client::ui
