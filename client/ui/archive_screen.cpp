// The server's archive of this account's games, and reporting a player to the moderators.
#include <algorithm>
#include <cmath>

#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {

namespace {

class ArchiveScreen final : public Screen {
 public:
  ArchiveScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    client_->clear_archived();
    client_->request_history();
    back_.on_click = [this] { app_.show(make_lobby_screen(app_, client_)); };
    back_.label = app_.tr()("common.back");
    widgets_.add(back_);
  }

  std::string name() const override { return "archive"; }

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape)
      app_.show(make_lobby_screen(app_, client_));
  }

  void update(SteadyTime) override {
    client_->poll();
    show_notices(app_, *client_);
    if (const auto& h = client_->history(); h && (!shown_ || !(*h == *shown_))) rebuild(*h);
    if (const auto& a = client_->archived()) {
      auto client = client_;
      App& app = app_;
      app_.show(make_replay_screen(app_, a->record,
                                   [&app, client] { return make_archive_screen(app, client); }));
      client_->clear_archived();
    }
  }

  // Changes only with what the network delivers.
  bool changes_by_itself(SteadyTime) const override { return client_->news() != drawn_news_; }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_news_ = client_->news();
    const Style& s = app_.style();
    const Catalogue& tr = app_.tr();
    const std::string sub = !shown_ ? tr("archive.asking")
                            : shown_->games.empty()
                                ? tr("archive.empty")
                                : tr("desktop.replays.count", {{"count", shown_->games.size()}});
    draw_title(t, s, x_, s.f(30), tr("online.archive.title"), sub);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json games = nlohmann::json::array();
    if (shown_)
      for (const auto& g : shown_->games) games.push_back(g.game);
    return {{"widgets", widgets_.describe()}, {"games", games}};
  }

 private:
  void rebuild(const protocol::History& h) {
    shown_ = h;
    rows_.clear();
    widgets_ = WidgetSet{};
    widgets_.add(back_);
    const Catalogue& t = app_.tr();
    for (const auto& g : h.games) {
      const std::string reason = t("archive.reason." + std::string(code(g.reason)));
      const std::string result =
          !g.winner
              ? t("archive.aborted")
              : t("archive.side_won", {{"side", side_name(t, *g.winner)}, {"reason", reason}});
      const std::string label = t("game.players", {{"white", player_text(t, g.white)},
                                                   {"black", player_text(t, g.black)}}) +
                                kDot + result + kDot + t("archive.plies", {{"count", g.plies}}) +
                                kDot + g.ended_at.substr(0, 10);
      widgets_.add(add_row(rows_, "game_" + g.game, label, ButtonStyle::Normal,
                           [this, id = g.game] { client_->request_record(id); }));
    }
    place();
  }

  void place() {
    const Style& s = app_.style();
    const float w = std::min(s.f(760), width_ - s.f(48));
    x_ = std::round((width_ - w) / 2);
    float y = s.f(110);
    for (auto& b : rows_) {
      b->visible = y + s.f(40) < height_ - s.f(80);
      b->rect = {x_, y, w, s.f(40)};
      y += s.f(46);
    }
    back_.rect = {x_, height_ - s.f(68), s.f(160), s.f(46)};
  }

  std::shared_ptr<OnlineClient> client_;
  std::uint64_t drawn_news_ = 0;  // client_->news() when the last frame was drawn
  Button back_{"back", ""};
  std::vector<std::unique_ptr<Button>> rows_;
  WidgetSet widgets_;
  std::optional<protocol::History> shown_;
  float width_ = 0, height_ = 0, x_ = 0;
};

// ---- reporting a player to the moderators ----

class ReportScreen final : public Screen {
 public:
  ReportScreen(App& app, std::shared_ptr<OnlineClient> client, std::string player)
      : Screen(app), client_(std::move(client)), player_(std::move(player)) {
    const Catalogue& t = app_.tr();
    reason_.label = t("desktop.report.why");
    send_.label = t("desktop.report.send");
    cancel_.label = t("common.cancel");
    send_.on_click = [this] { send(); };
    cancel_.on_click = [this] { app_.show(make_lobby_screen(app_, client_)); };
    widgets_.add(reason_);
    widgets_.add(send_);
    widgets_.add(cancel_);
  }

  std::string name() const override { return "report"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    col_w_ = std::min(s.f(760), w - s.f(48));
    x_ = std::round((w - col_w_) / 2);
    top_ = std::round(std::max(s.f(30), h * 0.15f));
    reason_.rect = {x_, top_ + s.f(130), col_w_, s.f(44)};
    const float bw = (col_w_ - s.f(14)) / 2;
    cancel_.rect = {x_, top_ + s.f(200), bw, s.f(48)};
    send_.rect = {x_ + bw + s.f(14), top_ + s.f(200), bw, s.f(48)};
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape)
      app_.show(make_lobby_screen(app_, client_));
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Enter) send();
  }

  void update(SteadyTime) override {
    client_->poll();
    show_notices(app_, *client_);
    send_.enabled = client_->online() && !reason_.text.empty();
  }

  // Changes only with what the network delivers.
  bool changes_by_itself(SteadyTime) const override { return client_->news() != drawn_news_; }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_news_ = client_->news();
    const Style& s = app_.style();
    draw_title(t, s, x_, top_, app_.tr()("moderation.report.title", {{"player", player_}}),
               app_.tr()("desktop.report.explain"));
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"player", player_}};
  }

 private:
  void send() {
    if (reason_.text.empty() || !client_->online()) return;
    client_->report_player(player_, reason_.text);
    app_.show(make_lobby_screen(app_, client_));
  }

  std::shared_ptr<OnlineClient> client_;
  std::uint64_t drawn_news_ = 0;  // client_->news() when the last frame was drawn
  std::string player_;
  TextField reason_{"reason", "", 200};
  Button send_{"send", "", ButtonStyle::Primary};
  Button cancel_{"cancel", ""};
  WidgetSet widgets_;
  float x_ = 0, col_w_ = 0, top_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_report_screen(App& app, std::shared_ptr<OnlineClient> client,
                                           std::string player) {
  return std::make_unique<ReportScreen>(app, std::move(client), std::move(player));
}
std::unique_ptr<Screen> make_archive_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<ArchiveScreen>(app, std::move(client));
}

}  // namespace amazons::client::ui
