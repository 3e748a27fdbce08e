// The lobby of a server: the games to join and watch, the players, challenges, tournaments and
// the form for a new game.
#include <algorithm>
#include <cmath>

#include "client/tournament_text.h"
#include "client/ui/lobby_form.h"
#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {

namespace {

using Clock = std::chrono::steady_clock;

class LobbyScreen final : public Screen {
 public:
  LobbyScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    label();
    create_.on_click = [this] { create(); };
    quick_.on_click = [this] { quick(); };
    join_private_.on_click = [this] { join_private(); };
    archive_.on_click = [this] { app_.show(make_archive_screen(app_, client_)); };
    moderation_.on_click = [this] { app_.show(make_moderation_screen(app_, client_)); };
    leave_.on_click = [this] { leave(); };
    cancel_.on_click = [this] { client_->cancel_waiting(); };
    client_->refresh();
    rebuild();
  }

  std::string name() const override { return "lobby"; }

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape) leave();
  }

  void update(SteadyTime now) override {
    client_->poll();
    show_notices(app_, *client_);
    if (const auto& e = client_->closed_error();
        e && e->kind == net::ClientError::Kind::Certificate) {
      app_.show(make_certificate_screen(app_, client_->options(), *e));
      return;
    }
    if (OnlineGame* g = client_->game(); g && g->view()) {
      app_.show(make_online_game_screen(app_, client_));
      return;
    }
    if (client_->online() && now - last_refresh_ > kRefreshEvery) {
      client_->refresh();
      last_refresh_ = now;
    }
    const Snapshot snap = snapshot();
    if (!(snap == shown_)) rebuild();
    quick_.label = app_.tr()(client_->seeking() ? "lobby.stop_pairing" : "lobby.quick");
    for (Widget* w : std::initializer_list<Widget*>{&create_, &quick_, &join_private_, &archive_})
      w->enabled = client_->online();
    moderation_.visible = client_->moderates();
  }

  // The lobby changes with what the network delivers and with the hosted server's addresses.
  bool changes_by_itself(SteadyTime) const override { return stamp() != drawn_; }
  FrameStamp stamp() const {
    return {client_->news(), hosting_line(app_) + hosting_fingerprint_line(app_)};
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_ = stamp();
    const Style& s = app_.style();
    const bool bad = client_->status() == net::ConnectionStatus::Closed ||
                     client_->status() == net::ConnectionStatus::WaitingRetry;
    draw_title(t, s, left_.x, s.f(16), app_.tr()("nav.lobby"),
               elide(s.fonts->regular, client_->status_text(), s.px(15), width_ - s.f(48)),
               bad ? colors::kDanger : colors::kMuted);
    const std::string hosting = hosting_line(app_);
    if (!hosting.empty())
      draw_text(t, s.fonts->regular, elide(s.fonts->regular, hosting, s.px(15), width_ - s.f(48)),
                s.px(15), left_.x, s.f(96), colors::kAccent);
    if (const std::string fp = hosting_fingerprint_line(app_); !fp.empty())
      draw_text(t, s.fonts->regular, elide(s.fonts->regular, fp, s.px(12), width_ - s.f(48)),
                s.px(12), left_.x, s.f(116), colors::kMuted);
    for (const auto& [y, text] : headings_)
      draw_text(t, s.fonts->bold, text, s.px(17), left_.x, y, colors::kText);
    for (const auto& [y, text] : lines_)
      draw_text(t, s.fonts->regular, text, s.px(14), left_.x + s.f(4), y, colors::kMuted);
    draw_text(t, s.fonts->bold, app_.tr()("lobby.new_game"), s.px(17), right_.x, right_.y,
              colors::kText);
    if (client_->waiting_game()) {
      const auto& w = *client_->waiting_game();
      const std::string text = app_.tr()("desktop.lobby.waiting",
                                         {{"game", w.game}, {"invite", w.invite.value_or("none")}});
      draw_text(t, s.fonts->regular, elide(s.fonts->regular, text, s.px(14), right_.w), s.px(14),
                right_.x, waiting_y_, colors::kAccent);
      if (const std::string link = invite_link(); !link.empty())
        draw_text(t, s.fonts->regular, elide(s.fonts->regular, link, s.px(13), right_.w), s.px(13),
                  right_.x, waiting_y_ + s.f(20), colors::kAccent);
    } else if (client_->seeking()) {
      draw_text(t, s.fonts->regular, app_.tr()("desktop.lobby.seeking"), s.px(14), right_.x,
                waiting_y_, colors::kAccent);
    }
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["status"] = client_->status_text();
    j["online"] = client_->online();
    j["hosting"] = hosting_line(app_);
    j["hosting_fingerprint"] = hosting_fingerprint_line(app_);
    j["invite_link"] = invite_link();
    auto ids = [](const std::vector<protocol::GameSummary>& games) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& g : games) out.push_back(g.game);
      return out;
    };
    j["open_games"] = ids(shown_.open);
    j["live_games"] = ids(shown_.live);
    nlohmann::json players = nlohmann::json::array();
    for (const auto& p : shown_.players) players.push_back(p.name);
    j["players"] = players;
    nlohmann::json challenges = nlohmann::json::array();
    for (const auto& c : shown_.challenges) challenges.push_back(c.challenge);
    j["challenges"] = challenges;
    j["waiting"] = client_->waiting_game() ? client_->waiting_game()->game : "";
    j["seeking"] = client_->seeking().has_value();
    nlohmann::json tournaments = nlohmann::json::array();
    for (const auto& t : shown_.tournaments) tournaments.push_back(t.id);
    j["tournaments"] = tournaments;
    return j;
  }

 private:
  // While this client hosts the server: the browser link of the private game it waits in.
  std::string invite_link() const {
    const auto& host = app_.hosted_server();
    const auto& w = client_->waiting_game();
    if (!host || !w || !w->invite) return {};
    const auto links = host->browser_links();
    if (links.empty()) return {};
    return app_.tr()("desktop.lobby.invite_link",
                     {{"link", client::invite_link(links.front(), {w->game, *w->invite})}});
  }

  struct Snapshot {
    std::vector<protocol::GameSummary> open, live;
    std::vector<protocol::OnlinePlayer> players;
    std::vector<protocol::ChallengeReceived> challenges;
    std::string waiting;
    bool online = false;
    std::vector<std::string> mine;          // games in progress this account plays
    std::vector<protocol::TurnInfo> turns;  // games where this account is to move
    std::vector<protocol::TournamentSummary> tournaments;
    friend bool operator==(const Snapshot&, const Snapshot&) = default;
  };

  Snapshot snapshot() const {
    Snapshot s{client_->open_games(),
               client_->live_games(),
               {},
               client_->challenges(),
               client_->waiting_game() ? client_->waiting_game()->game : "",
               client_->online(),
               client_->games_in_progress(),
               client_->turns(),
               client_->tournaments()};
    for (const auto& p : client_->players())
      if (p.name != client_->name()) s.players.push_back(p);
    return s;
  }

  Button& row(const std::string& id, const std::string& label, ButtonStyle look,
              std::function<void()> click) {
    return add_row(rows_, id, label, look, std::move(click));
  }

  // The rows follow the lists; rebuilt only when these change, so focus and hover stay.
  void rebuild() {
    shown_ = snapshot();
    rows_.clear();
    sections_.clear();
    const Catalogue& t = app_.tr();
    const auto me = client_->name();
    if (!shown_.turns.empty()) {
      auto& turns = sections_.emplace_back(Section{t("lobby.your_turn"), "", {}});
      for (const protocol::TurnInfo& x : shown_.turns)
        turns.rows.push_back(&row("turn_" + x.game, turn_row(t, x), ButtonStyle::Primary,
                                  [this, id = x.game] { client_->show_game(id); }));
    }
    if (!shown_.mine.empty()) {
      auto& mine = sections_.emplace_back(Section{t("desktop.lobby.your_games"), "", {}});
      for (const std::string& id : shown_.mine)
        mine.rows.push_back(&row("resume_" + id, t("desktop.lobby.resume_row", {{"game", id}}),
                                 ButtonStyle::Primary, [this, id] { client_->show_game(id); }));
    }
    auto& open =
        sections_.emplace_back(Section{t("lobby.open_games"), t("lobby.open_games.empty"), {}});
    for (const auto& g : shown_.open) {
      const bool mine = (g.white ? *g.white : *g.black).name == me;
      open.rows.push_back(&row("join_" + g.game, open_game_row(t, g, mine), ButtonStyle::Normal,
                               [this, id = g.game, mine] {
                                 if (!mine) client_->join(id);
                               }));
      open.rows.back()->enabled = !mine;
    }
    auto& live =
        sections_.emplace_back(Section{t("lobby.live_games"), t("desktop.lobby.live_empty"), {}});
    for (const auto& g : shown_.live)
      live.rows.push_back(&row("watch_" + g.game, live_game_row(t, g), ButtonStyle::Normal,
                               [this, id = g.game] { client_->watch(id); }));
    // Running and coming tournaments, then the two latest finished ones.
    auto& tours = sections_.emplace_back(Section{t("lobby.tournaments"), "", {}});
    int finished = 0;
    for (const auto& x : shown_.tournaments) {
      if (x.status == "finished" && ++finished > 2) continue;
      tours.rows.push_back(
          &row("tournament_" + std::to_string(x.id), tournament_line(t, x), ButtonStyle::Normal,
               [this, id = x.id] { app_.show(make_tournament_screen(app_, client_, id)); }));
    }
    auto& incoming = sections_.emplace_back(Section{t("lobby.challenges"), "", {}});
    for (const auto& c : shown_.challenges) {
      incoming.rows.push_back(&row("accept_" + c.challenge, challenge_row(t, c),
                                   ButtonStyle::Primary,
                                   [this, id = c.challenge] { client_->accept(id); }));
      incoming.rows.push_back(&row("decline_" + c.challenge, t("lobby.decline"), ButtonStyle::Quiet,
                                   [this, id = c.challenge] { client_->decline(id); }));
    }
    auto& players =
        sections_.emplace_back(Section{t("lobby.players"), t("lobby.players.empty"), {}});
    for (const auto& p : shown_.players) {
      players.rows.push_back(&row("challenge_" + p.name, player_row(t, p), ButtonStyle::Normal,
                                  [this, name = p.name] { challenge(name); }));
      players.rows.push_back(
          &row("report_" + p.name, t("desktop.lobby.report"), ButtonStyle::Quiet,
               [this, name = p.name] { app_.show(make_report_screen(app_, client_, name)); }));
    }

    widgets_ = WidgetSet{};
    for (Widget* w : form_.widgets()) widgets_.add(*w);
    for (Widget* w :
         std::initializer_list<Widget*>{&create_, &quick_, &cancel_, &invite_, &join_private_,
                                        &archive_, &moderation_, &leave_})
      widgets_.add(*w);
    for (auto& b : rows_) widgets_.add(*b);
    place();
  }

  void place() {
    const Style& s = app_.style();
    const float margin = s.f(28), gap = s.f(24);
    const float right_w = std::min(s.f(380), width_ * 0.36f);
    const float top = hosting_line(app_).empty()               ? s.f(124)
                      : hosting_fingerprint_line(app_).empty() ? s.f(138)
                                                               : s.f(152);
    left_ = {margin, top, width_ - 2 * margin - gap - right_w, 0};
    // Below the fingerprint line, when there is one (it runs across both columns).
    right_ = {left_.right() + gap, hosting_fingerprint_line(app_).empty() ? s.f(130) : s.f(142),
              right_w, 0};

    headings_.clear();
    lines_.clear();
    const float row_h = s.f(34), row_gap = s.f(6);
    // Decline and Report: as wide as their words need.
    float side_w = s.f(110);
    for (const auto& b : rows_)
      if (b->style == ButtonStyle::Quiet) side_w = std::max(side_w, b->natural_width(s));
    side_w = std::min(side_w, left_.w / 3);
    float y = left_.y;
    const float bottom = height_ - s.f(70);
    for (Section& sec : sections_) {
      if (sec.empty.empty() && sec.rows.empty()) continue;
      headings_.emplace_back(y, sec.title);
      y += s.f(26);
      if (sec.rows.empty()) {
        lines_.emplace_back(y + s.f(6), sec.empty);
        y += s.f(34);
      }
      for (std::size_t i = 0; i < sec.rows.size(); ++i) {
        Button* b = sec.rows[i];
        // Decline and Report sit at the right end of the row before them.
        auto beside = [](const Button* x) {
          return x->id().rfind("decline_", 0) == 0 || x->id().rfind("report_", 0) == 0;
        };
        const bool decline = beside(b);
        const bool before_decline = i + 1 < sec.rows.size() && beside(sec.rows[i + 1]);
        b->visible = y + row_h <= bottom;
        if (decline) {
          b->rect = {left_.right() - side_w, y, side_w, row_h};
        } else {
          b->rect = {left_.x, y, left_.w - (before_decline ? side_w + s.f(10) : 0), row_h};
        }
        if (!before_decline) y += row_h + row_gap;
      }
      y += s.f(14);
    }

    float ry = form_.place(s, right_.x, right_.y + s.f(40), right_.w);
    const float half = (right_.w - s.f(10)) / 2;
    // Side by side when both fit, else one above the other.
    if (std::max(create_.natural_width(s), quick_.natural_width(s)) <= half) {
      create_.rect = {right_.x, ry, half, s.f(44)};
      quick_.rect = {right_.x + half + s.f(10), ry, half, s.f(44)};
    } else {
      create_.rect = {right_.x, ry, right_.w, s.f(44)};
      ry += s.f(52);
      quick_.rect = {right_.x, ry, right_.w, s.f(44)};
    }
    ry += s.f(56);
    waiting_y_ = ry + s.f(8);
    cancel_.visible = client_->waiting_game().has_value();
    const float link = invite_link().empty() ? 0 : s.f(20);  // the invite link's line
    cancel_.rect = {right_.x, ry + s.f(22) + link, right_.w, s.f(36)};
    ry += s.f(86) + link;
    const float join_w = std::max(s.f(80), join_private_.natural_width(s));
    invite_.rect = {right_.x, ry, right_.w - join_w - s.f(10), s.f(40)};
    join_private_.rect = {right_.right() - join_w, ry, join_w, s.f(40)};
    const float by = height_ - s.f(60);
    archive_.rect = {right_.x, by, half, s.f(44)};
    moderation_.rect = {right_.x, by - s.f(54), right_.w, s.f(44)};
    leave_.rect = {right_.x + half + s.f(10), by, half, s.f(44)};
  }

  void create() {
    form_.remember();
    client_->create(form_.create());
  }

  void quick() {
    if (client_->seeking()) return client_->unseek();
    form_.remember();
    client_->seek(form_.seek());
  }

  void challenge(const std::string& player) {
    form_.remember();
    client_->challenge(form_.challenge(player));
  }

  void join_private() {
    const auto invite = client::parse_invite(invite_.text);
    if (!invite) {
      app_.notify(app_.tr()("online.invite.how", {{"example", std::string(kInviteExample)}}), true);
      return;
    }
    client_->join(invite->game, invite->code);
  }

  void leave() {
    client_->close();
    app_.show(make_menu_screen(app_));
  }

  struct Section {
    std::string title, empty;
    std::vector<Button*> rows;
  };

  // The widgets' words, in the catalogue's language.
  void label() {
    const Catalogue& t = app_.tr();
    create_.label = t("lobby.create");
    cancel_.label = t("desktop.lobby.cancel_wait");
    invite_.label = t("lobby.private_game");
    join_private_.label = t("lobby.join");
    archive_.label = t("nav.my_games");
    moderation_.label = t("desktop.lobby.moderation");
    leave_.label = t("desktop.lobby.leave");
  }

  std::shared_ptr<OnlineClient> client_;
  NewGameForm form_{app_};
  Button create_{"create", "", ButtonStyle::Primary};
  Button quick_{"quick", ""};
  Button cancel_{"cancel_wait", "", ButtonStyle::Quiet};
  TextField invite_{"invite", "", 200};
  Button join_private_{"join_private", ""};
  Button archive_{"archive", ""};
  Button moderation_{"moderation", ""};
  Button leave_{"leave", ""};
  std::vector<std::unique_ptr<Button>> rows_;
  std::vector<Section> sections_;
  WidgetSet widgets_;
  Snapshot shown_;
  FrameStamp drawn_;  // the stamp of the last frame drawn
  SteadyTime last_refresh_ = Clock::now();
  std::vector<std::pair<float, std::string>> headings_, lines_;
  Rect left_, right_;
  float width_ = 0, height_ = 0, waiting_y_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_lobby_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<LobbyScreen>(app, std::move(client));
}

}  // namespace amazons::client::ui
