// Online play: the connect form (with servers found on the LAN), hosting a server on this
// computer, the lobby, and the server's archive.
#include <algorithm>
#include <cmath>
#include <future>

#include "client/tournament_text.h"
#include "client/ui/screens.h"
#include "common/notation.h"
#include "net/discovery.h"

namespace amazons::client::ui {

// The addresses the hosted server gave, for the people to tell their friends, and the link
// that opens the game in a browser (https when the server speaks TLS).
std::string hosting_line(App& app) {
  const auto& host = app.hosted_server();
  if (!host) return {};
  std::string text;
  for (const std::string& a : host->addresses()) text += (text.empty() ? "" : ",  ") + a;
  std::string line = "Hosting on this computer. Friends connect to: " + text;
  if (const auto links = host->browser_links(); !links.empty())
    line += " \u00B7 in a browser: " + links.front();
  return line;
}

std::string hosting_fingerprint_line(App& app) {
  const auto& host = app.hosted_server();
  if (!host) return {};
  const auto fp = host->tls_fingerprint();
  return fp ? "TLS certificate SHA-256: " + *fp : std::string();
}

void draw_title(sf::RenderTarget& t, const Style& s, float x, float y, const std::string& title,
                const std::string& subtitle, sf::Color subtitle_color) {
  draw_text(t, s.fonts->bold, title, s.px(32), x, y + s.f(18), colors::kText);
  if (!subtitle.empty())
    draw_text(t, s.fonts->regular, subtitle, s.px(15), x, y + s.f(54), subtitle_color);
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

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRefreshEvery = std::chrono::seconds(3);
const std::string kDot = " \u00B7 ";

// How long a player has for the move, roughly: "2 d 3 h left", "5 h 12 min left", "40 s left".
std::string left_text(const std::optional<std::int64_t>& ms) {
  if (!ms) return "no clock";
  const std::int64_t s = *ms / 1000, d = s / 86'400, h = s % 86'400 / 3600, m = s % 3600 / 60;
  if (d > 0) return std::to_string(d) + " d " + std::to_string(h) + " h left";
  if (h > 0) return std::to_string(h) + " h " + std::to_string(m) + " min left";
  if (m > 0) return std::to_string(m) + " min left";
  return std::to_string(s) + " s left";
}

std::shared_ptr<OnlineClient> connect(App& app, const std::vector<ServerAddress>& nodes,
                                      std::optional<std::string> password) {
  auto client = std::make_shared<OnlineClient>(
      connection_options(app.settings(), nodes, std::move(password)));
  client->start();
  return client;
}

// ---- play online: where and as whom ----

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
    server_.rect = {x_, y, col_w_ - s.f(150), s.f(46)};
    find_.rect = {x_ + col_w_ - s.f(140), y, s.f(140), s.f(46)};
    y += s.f(56);
    tls_.rect = {x_, y, col_w_, s.f(30)};
    y += s.f(40);
    for (auto& b : found_buttons_) {
      b->rect = {x_, y, col_w_, s.f(36)};
      y += s.f(42);
    }
    lan_y_ = y + s.f(4);
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
      lan_text_ = "LAN search failed: " + result.error();
    } else {
      found_ = std::move(*result);
      lan_text_ = found_.empty() ? "No server answered on the LAN."
                                 : std::to_string(found_.size()) + " server(s) on the LAN:";
    }
    rebuild();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_title(t, s, x_, top_, "Play online",
               "Join a server: type its address or find one nearby.");
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
      auto b = std::make_unique<Button>(
          "lan" + std::to_string(i),
          f.reply.name + kDot + where + kDot + std::to_string(f.reply.players) + " online" +
              (tls ? kDot + "TLS" : kDot + "no TLS") + (f.reply.password ? kDot + "password" : ""));
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
    lan_text_ = "Searching the LAN...";
    // Blocks for up to a second: never on the render thread.
    search_ = std::async(std::launch::async, [o] { return net::discover_servers(o); });
  }

  void go() {
    // One address, or the nodes of a cluster separated by commas.
    auto where = parse_server_addresses(server_.text);
    if (!where) {
      error_ = "Server: " + where.error() + ".";
      return;
    }
    const auto transport = where->front().transport;
    if (transport == Transport::WebSocket || transport == Transport::SecureWebSocket) {
      error_ = "Server: this client connects with tcp:// or tls:// (ws:// is for browsers).";
      return;
    }
    if (tls_.value)
      for (auto& node : *where) node.transport = Transport::Tls;
    if (auto why = check_name(name_.text)) {
      error_ = "Name: " + *why + ".";
      return;
    }
    app_.settings().last_server = nodes_text(*where, true);
    app_.settings().name = name_.text;
    app_.save_settings();
    std::optional<std::string> password;
    if (!password_.text.empty()) password = password_.text;
    app_.show(make_lobby_screen(app_, connect(app_, *where, std::move(password))));
  }

  TextField server_{"server", "Server (host:port)", 80};
  Button find_{"find_lan", "Find on LAN"};
  Toggle tls_{"tls", "Connect with TLS (encrypted)"};
  TextField name_{"name", "Your name", kMaxNameLength};
  TextField password_{"password", "Password (optional: keeps your name yours)", 64};
  Button connect_{"connect", "Connect", ButtonStyle::Primary};
  Button back_{"back", "Back"};
  std::vector<std::unique_ptr<Button>> found_buttons_;
  WidgetSet widgets_;
  std::future<Expected<std::vector<net::DiscoveredServer>, std::string>> search_;
  std::vector<net::DiscoveredServer> found_;
  std::string lan_text_, error_;
  float width_ = 0, height_ = 0, x_ = 0, col_w_ = 0, top_ = 0, lan_y_ = 0, error_y_ = 0;
};

// ---- host a game on this computer ----

class HostScreen final : public Screen {
 public:
  explicit HostScreen(App& app) : Screen(app) {
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
        error_ = "The server cannot start: " + started.error();
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
      error_ = "The server stopped: " + *failed;
      return;
    }
    // The addresses follow the port line at once; wait a moment for them.
    const auto port = host->port();
    if (!port || (host->addresses().empty() && now - since_ < std::chrono::seconds(2))) return;
    app_.show(make_lobby_screen(app_, connect(app_, {{"127.0.0.1", *port}}, std::nullopt)));
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_text(t, s.fonts->bold, "Host a game", s.px(32), width_ / 2, height_ * 0.35f, colors::kText,
              Align::Center);
    draw_text(t, s.fonts->regular, error_.empty() ? "Starting the server..." : error_, s.px(16),
              width_ / 2, height_ * 0.45f, error_.empty() ? colors::kMuted : colors::kDanger,
              Align::Center);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"error", error_}};
  }

 private:
  Button back_{"back", "Back"};
  WidgetSet widgets_;
  std::string error_;
  SteadyTime since_;
  float width_ = 0, height_ = 0;
};

// ---- the lobby ----

class LobbyScreen final : public Screen {
 public:
  LobbyScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    for (const RuleVariant& v : known_variants(app_.options().rules_dir)) {
      rules_.options.push_back(v.name);
      if (v.name == app_.settings().last_variant) rules_.index = rules_.options.size() - 1;
    }
    for (const TimeChoice& c : time_choices()) {
      time_.options.push_back(c.label);
      if (to_string(c.control) == app_.settings().last_time_control)
        time_.index = time_.options.size() - 1;
    }
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
    quick_.label = client_->seeking() ? "Stop pairing" : "Quick pairing";
    for (Widget* w : std::initializer_list<Widget*>{&create_, &quick_, &join_private_, &archive_})
      w->enabled = client_->online();
    moderation_.visible = client_->moderates();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    const bool bad = client_->status() == net::ConnectionStatus::Closed ||
                     client_->status() == net::ConnectionStatus::WaitingRetry;
    draw_title(t, s, left_.x, s.f(16), "Lobby", client_->status_text(),
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
    draw_text(t, s.fonts->bold, "New game", s.px(17), right_.x, right_.y, colors::kText);
    if (client_->waiting_game()) {
      const auto& w = *client_->waiting_game();
      std::string text = "Waiting for an opponent in game " + w.game;
      if (w.invite) text += kDot + "invite code " + w.invite.value();
      draw_text(t, s.fonts->regular, elide(s.fonts->regular, text, s.px(14), right_.w), s.px(14),
                right_.x, waiting_y_, colors::kAccent);
      if (const std::string link = invite_link(); !link.empty())
        draw_text(t, s.fonts->regular, elide(s.fonts->regular, link, s.px(13), right_.w), s.px(13),
                  right_.x, waiting_y_ + s.f(20), colors::kAccent);
    } else if (client_->seeking()) {
      draw_text(t, s.fonts->regular, "Looking for an opponent...", s.px(14), right_.x, waiting_y_,
                colors::kAccent);
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
    return "Invite link: " + links.front() + "#/join/" + w->game + "/" + *w->invite;
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
    const auto me = client_->name();
    if (!shown_.turns.empty()) {
      auto& turns = sections_.emplace_back(Section{"Your turn", "", {}});
      for (const protocol::TurnInfo& t : shown_.turns)
        turns.rows.push_back(&row("turn_" + t.game,
                                  "Game " + t.game + " against " + t.opponent + kDot +
                                      time_text(t.time) + kDot + left_text(t.left_ms),
                                  ButtonStyle::Primary,
                                  [this, id = t.game] { client_->show_game(id); }));
    }
    if (!shown_.mine.empty()) {
      auto& mine = sections_.emplace_back(Section{"Your games in progress", "", {}});
      for (const std::string& id : shown_.mine)
        mine.rows.push_back(&row("resume_" + id, "Back to your game " + id, ButtonStyle::Primary,
                                 [this, id] { client_->show_game(id); }));
    }
    auto& open = sections_.emplace_back(Section{"Open games", "No open games: create one.", {}});
    for (const auto& g : shown_.open) {
      const auto& creator = g.white ? *g.white : *g.black;
      const bool mine = creator.name == me;
      std::string label = player_text(creator) + kDot + g.rules + kDot + time_text(g.time) + kDot +
                          (g.rated ? "rated" : "casual") + kDot +
                          (g.white ? "you play black" : "you play white");
      if (mine) label = "Your game " + g.game + kDot + g.rules + kDot + time_text(g.time);
      open.rows.push_back(&row("join_" + g.game, (mine ? "" : "Join: ") + label,
                               ButtonStyle::Normal, [this, id = g.game, mine] {
                                 if (!mine) client_->join(id);
                               }));
      open.rows.back()->enabled = !mine;
    }
    auto& live = sections_.emplace_back(Section{"Games in progress", "None right now.", {}});
    for (const auto& g : shown_.live) {
      const std::string label = "Watch: " + player_text(g.white.value_or(protocol::PlayerRef{})) +
                                " vs " + player_text(g.black.value_or(protocol::PlayerRef{})) +
                                kDot + g.rules + kDot + time_text(g.time) + kDot + "move " +
                                std::to_string(g.plies + 1);
      live.rows.push_back(&row("watch_" + g.game, label, ButtonStyle::Normal,
                               [this, id = g.game] { client_->watch(id); }));
    }
    // Running and coming tournaments, then the two latest finished ones.
    auto& tours = sections_.emplace_back(Section{"Tournaments", "", {}});
    int finished = 0;
    for (const auto& t : shown_.tournaments) {
      if (t.status == "finished" && ++finished > 2) continue;
      tours.rows.push_back(
          &row("tournament_" + std::to_string(t.id), tournament_line(t), ButtonStyle::Normal,
               [this, id = t.id] { app_.show(make_tournament_screen(app_, client_, id)); }));
    }
    auto& incoming = sections_.emplace_back(Section{"Challenges to you", "", {}});
    for (const auto& c : shown_.challenges) {
      const std::string label = "Accept: " + player_text(c.from) + kDot + c.rules + kDot +
                                time_text(c.time) + kDot + (c.rated ? "rated" : "casual");
      incoming.rows.push_back(&row("accept_" + c.challenge, label, ButtonStyle::Primary,
                                   [this, id = c.challenge] { client_->accept(id); }));
      incoming.rows.push_back(&row("decline_" + c.challenge, "Decline", ButtonStyle::Quiet,
                                   [this, id = c.challenge] { client_->decline(id); }));
    }
    auto& players = sections_.emplace_back(Section{"Players online", "Nobody else is online.", {}});
    for (const auto& p : shown_.players) {
      const std::string label = "Challenge: " + p.name + " (" + std::to_string(p.rating) +
                                (p.bot ? ", bot)" : ")") + kDot + std::to_string(p.games) +
                                (p.games == 1 ? " game" : " games");
      players.rows.push_back(&row("challenge_" + p.name, label, ButtonStyle::Normal,
                                  [this, name = p.name] { challenge(name); }));
      players.rows.push_back(
          &row("report_" + p.name, "Report", ButtonStyle::Quiet,
               [this, name = p.name] { app_.show(make_report_screen(app_, client_, name)); }));
    }

    widgets_ = WidgetSet{};
    for (Widget* w : std::initializer_list<Widget*>{
             &rules_, &time_, &colour_, &rated_, &private_, &create_, &quick_, &cancel_, &invite_,
             &join_private_, &archive_, &moderation_, &leave_})
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
          b->rect = {left_.right() - s.f(110), y, s.f(110), row_h};
        } else {
          b->rect = {left_.x, y, left_.w - (before_decline ? s.f(120) : 0), row_h};
        }
        if (!before_decline) y += row_h + row_gap;
      }
      y += s.f(14);
    }

    float ry = right_.y + s.f(40);
    const float fh = s.f(40), fgap = s.f(30);
    for (Widget* w : std::initializer_list<Widget*>{&rules_, &time_, &colour_}) {
      w->rect = {right_.x, ry, right_.w, fh};
      ry += fh + fgap;
    }
    ry -= s.f(16);
    rated_.rect = {right_.x, ry, right_.w, s.f(30)};
    ry += s.f(38);
    private_.rect = {right_.x, ry, right_.w, s.f(30)};
    ry += s.f(44);
    const float half = (right_.w - s.f(10)) / 2;
    create_.rect = {right_.x, ry, half, s.f(44)};
    quick_.rect = {right_.x + half + s.f(10), ry, half, s.f(44)};
    ry += s.f(56);
    waiting_y_ = ry + s.f(8);
    cancel_.visible = client_->waiting_game().has_value();
    const float link = invite_link().empty() ? 0 : s.f(20);  // the invite link's line
    cancel_.rect = {right_.x, ry + s.f(22) + link, right_.w, s.f(36)};
    ry += s.f(86) + link;
    invite_.rect = {right_.x, ry, right_.w - s.f(90), s.f(40)};
    join_private_.rect = {right_.right() - s.f(80), ry, s.f(80), s.f(40)};
    const float by = height_ - s.f(60);
    archive_.rect = {right_.x, by, half, s.f(44)};
    moderation_.rect = {right_.x, by - s.f(54), right_.w, s.f(44)};
    leave_.rect = {right_.x + half + s.f(10), by, half, s.f(44)};
  }

  protocol::ColorChoice colour() const {
    return colour_.index == 1   ? protocol::ColorChoice::White
           : colour_.index == 2 ? protocol::ColorChoice::Black
                                : protocol::ColorChoice::Random;
  }
  TimeControl time_control() const { return time_choices()[time_.index].control; }

  void remember() {
    app_.settings().last_variant = rules_.options[rules_.index];
    app_.settings().last_time_control = to_string(time_control());
    app_.save_settings();
  }

  void create() {
    remember();
    protocol::Create c;
    c.rules = rules_.options[rules_.index];
    c.time = time_control();
    c.color = colour();
    c.rated = rated_.value;
    c.is_private = private_.value;
    client_->create(c);
  }

  void quick() {
    if (client_->seeking()) return client_->unseek();
    remember();
    client_->seek({rules_.options[rules_.index], time_control(), rated_.value});
  }

  void challenge(const std::string& player) {
    remember();
    protocol::ChallengeSend c;
    c.player = player;
    c.rules = rules_.options[rules_.index];
    c.time = time_control();
    c.color = colour();
    c.rated = rated_.value;
    client_->challenge(c);
  }

  void join_private() {
    const auto invite = client::parse_invite(invite_.text);
    if (!invite) {
      app_.notify("Type the game number and its invite code, e.g. \"" +
                      std::string(client::kInviteExample) + "\", or paste the invite link.",
                  true);
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

  std::shared_ptr<OnlineClient> client_;
  Selector rules_{"rules", "Rules", {}};
  Selector time_{"time_control", "Time control", {}};
  Selector colour_{"colour", "Your colour", {"Random", "White", "Black"}};
  Toggle rated_{"rated", "Rated"};
  Toggle private_{"private", "Private (join by invite code)"};
  Button create_{"create", "Create game", ButtonStyle::Primary};
  Button quick_{"quick", "Quick pairing"};
  Button cancel_{"cancel_wait", "Cancel my open game", ButtonStyle::Quiet};
  TextField invite_{"invite", "Private game: number and invite code, or its link", 200};
  Button join_private_{"join_private", "Join"};
  Button archive_{"archive", "My games"};
  Button moderation_{"moderation", "Moderation"};
  Button leave_{"leave", "Leave server"};
  std::vector<std::unique_ptr<Button>> rows_;
  std::vector<Section> sections_;
  WidgetSet widgets_;
  Snapshot shown_;
  SteadyTime last_refresh_ = Clock::now();
  std::vector<std::pair<float, std::string>> headings_, lines_;
  Rect left_, right_;
  float width_ = 0, height_ = 0, waiting_y_ = 0;
};

// ---- the archive ----

class ArchiveScreen final : public Screen {
 public:
  ArchiveScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    client_->clear_archived();
    client_->request_history();
    back_.on_click = [this] { app_.show(make_lobby_screen(app_, client_)); };
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

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    const std::string sub = !shown_                 ? "Asking the server..."
                            : shown_->games.empty() ? "No finished games on this server yet."
                                                    : std::to_string(shown_->games.size()) +
                                                          " finished games, newest first";
    draw_title(t, s, x_, s.f(30), "My games on the server", sub);
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
    for (const auto& g : h.games) {
      const std::string result = !g.winner ? "aborted" : side_name(*g.winner) + " won";
      const std::string label = player_text(g.white) + " vs " + player_text(g.black) + kDot +
                                result + " (" + std::string(code(g.reason)) + ")" + kDot +
                                std::to_string(g.plies) + " moves" + kDot +
                                g.ended_at.substr(0, 10);
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
  Button back_{"back", "Back"};
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
    send_.on_click = [this] { send(); };
    cancel_.on_click = [this] { app_.show(make_lobby_screen(app_, client_)); };
    widgets_.add(reason_);
    widgets_.add(send_);
    widgets_.add(cancel_);
  }

  std::string name() const override { return "report"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    col_w_ = std::min(s.f(560), w - s.f(48));
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

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_title(t, s, x_, top_, "Report " + player_,
               "The moderators see your report with your name and the reason.");
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
  std::string player_;
  TextField reason_{"reason", "Why (required)", 200};
  Button send_{"send", "Send report", ButtonStyle::Primary};
  Button cancel_{"cancel", "Cancel"};
  WidgetSet widgets_;
  float x_ = 0, col_w_ = 0, top_ = 0;
};

// ---- a TLS certificate nobody vouches for, or one that changed ----

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

std::unique_ptr<Screen> make_connect_screen(App& app) {
  return std::make_unique<ConnectScreen>(app);
}
std::unique_ptr<Screen> make_host_screen(App& app) { return std::make_unique<HostScreen>(app); }
std::unique_ptr<Screen> make_certificate_screen(App& app, net::ConnectionOptions options,
                                                net::ClientError error) {
  return std::make_unique<CertificateScreen>(app, std::move(options), std::move(error));
}
std::unique_ptr<Screen> make_lobby_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<LobbyScreen>(app, std::move(client));
}
std::unique_ptr<Screen> make_report_screen(App& app, std::shared_ptr<OnlineClient> client,
                                           std::string player) {
  return std::make_unique<ReportScreen>(app, std::move(client), std::move(player));
}
std::unique_ptr<Screen> make_archive_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<ArchiveScreen>(app, std::move(client));
}

}  // namespace amazons::client::ui
