// A TLS certificate nobody vouches for (trust it?), or one that changed since it was trusted.
#include <algorithm>
#include <cmath>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"

namespace amazons::client::ui {

namespace {

class CertificateScreen final : public Screen {
 public:
  CertificateScreen(App& app, net::ConnectionOptions options, net::ClientError error)
      : Screen(app), options_(std::move(options)), error_(std::move(error)) {
    changed_ = error_.certificate == net::ClientError::Trust::Changed;
    where_ = net::host_port({options_.host, options_.port});
    trust_.on_click = [this] { trust(); };
    cancel_.on_click = [this] { app_.show(make_connect_screen(app_)); };
    if (changed_) cancel_.label = "Back";
    if (!changed_) widgets_.add(trust_);
    widgets_.add(cancel_);
  }

  std::string name() const override { return changed_ ? "certificate_changed" : "trust_server"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    width_ = w;
    height_ = h;
    col_w_ = std::min(s.f(640), w - s.f(48));
    x_ = std::round((w - col_w_) / 2);
    top_ = std::round(std::max(s.f(30), h * 0.1f));
    const float y = top_ + (changed_ ? s.f(380) : s.f(300));
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
    if (changed_) {
      draw_title(t, s, x_, top_, "Certificate changed!",
                 where_ + " shows another certificate than the one you trusted.", colors::kDanger);
    } else {
      draw_title(t, s, x_, top_, "Trust this server?",
                 "No certificate authority vouches for the certificate of " + where_ + ".");
    }
    float y = top_ + s.f(100);
    auto line = [&](const std::string& text, sf::Color colour, bool bold = false, float px = 15) {
      draw_text(t, bold ? s.fonts->bold : s.fonts->regular, text, s.px(px), x_, y, colour);
      y += s.f(26);
    };
    // 95 characters do not fit one line: the fingerprint in two halves of 16 bytes.
    auto fingerprint = [&](const std::string& caption, const std::string& fp) {
      line(caption, colors::kText, true);
      line(fp.substr(0, 48), colors::kAccent, false, 16);
      if (fp.size() > 48) line(fp.substr(48), colors::kAccent, false, 16);
    };
    if (changed_) {
      fingerprint("Trusted before (SHA-256):", options_.tls_fingerprint.value_or(""));
      fingerprint("Shown now:", error_.fingerprint);
      y += s.f(6);
      line("Someone may be intercepting the connection, or the host made a new certificate.",
           colors::kDanger);
      line("The connection is refused. Ask the host which fingerprint the server prints; to",
           colors::kMuted);
      line("trust a new one, remove " + where_ + " from \"pinned_servers\" in settings.json.",
           colors::kMuted);
    } else {
      fingerprint("Its SHA-256 fingerprint:", error_.fingerprint);
      y += s.f(6);
      line("Compare it with the fingerprint the server printed (tls_fingerprint=...) or that",
           colors::kMuted);
      line("the host tells you. Trusted, it is remembered for " + where_ + "; a server there",
           colors::kMuted);
      line("showing any other certificate later is refused.", colors::kMuted);
    }
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
    auto client = std::make_shared<OnlineClient>(o);
    client->start();
    app_.show(make_lobby_screen(app_, std::move(client)));
  }

  net::ConnectionOptions options_;
  net::ClientError error_;
  bool changed_ = false;
  std::string where_;
  Button trust_{"trust", "Trust and connect", ButtonStyle::Primary};
  Button cancel_{"cancel", "Cancel"};
  WidgetSet widgets_;
  float width_ = 0, height_ = 0, x_ = 0, col_w_ = 0, top_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_certificate_screen(App& app, net::ConnectionOptions options,
                                                net::ClientError error) {
  return std::make_unique<CertificateScreen>(app, std::move(options), std::move(error));
}

}  // namespace amazons::client::ui
