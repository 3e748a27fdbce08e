// Online play: where and as whom (typed, or found on the LAN), trusting a TLS certificate, the
// lobby, the server's archive, and the game screen's view of an online game. Everything goes
// through client::OnlineClient, the same one the desktop client uses.
#include <algorithm>
#include <future>

#include "client/game_choices.h"
#include "client/online_client.h"
#include "client/words.h"
#include "net/discovery.h"
#include "tui/app.h"
#include "tui/form.h"
#include "tui/game_screen.h"

namespace amazons::tui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRefreshEvery = std::chrono::seconds(3);

std::unique_ptr<Screen> make_lobby_screen(App& app, std::shared_ptr<client::OnlineClient> client);
std::unique_ptr<Screen> make_online_game_screen(App& app,
                                                std::shared_ptr<client::OnlineClient> client);
std::unique_ptr<Screen> make_archive_screen(App& app, std::shared_ptr<client::OnlineClient> client);

// A notice is said in the client's words (a refusal by its code, error.CODE); the server's own
// sentence or the connection's detail goes to the log, where a person reporting a problem finds
// it.
void say(App& app, const client::OnlineNotice& n) {
  if (!n.code.empty())
    app.log("server_refused", {{"code", n.code}, {"reason", n.reason}, {"message", n.log}});
  else if (!n.log.empty())
    app.log("online_notice", {{"text", n.text}, {"detail", n.log}});
  app.notify(n.text, n.error);
}

void show_notices(App& app, client::OnlineClient& c) {
  for (const client::OnlineNotice& n : c.take_notices()) say(app, n);
}

// ---- where and as whom ----

class ConnectScreen final : public Screen {
 public:
  explicit ConnectScreen(App& app) : Screen(app) {
    std::string server = app_.options().server.value_or(
        app_.settings().last_server.empty() ? "127.0.0.1:7420" : app_.settings().last_server);
    const client::Catalogue& t = app_.tr();
    server_ = form_.add(Field::input(t("online.server"), server, 80));
    name_ = form_.add(Field::input(t("online.name"), app_.settings().name, client::kMaxNameLength));
    password_ = form_.add(Field::input(t("online.password"), app_.options().password, 64, true));
    form_.add(Field::button(t("online.connect"), [this] { go(); }));
    form_.add(Field::button(t("online.find_lan"), [this] { find(); }));
    form_.add(Field::button(t("common.back"), [this] { app_.show(make_menu_screen(app_)); }));
    if (app_.options().connect) go();
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    // Digits pick a server found on the LAN, unless a field is being typed in.
    const Field& f = form_[form_.focus()];
    if (k.code == Key::Code::Char && f.kind == Field::Kind::Button && k.ch >= U'1' &&
        k.ch <= U'9') {
      const auto i = static_cast<std::size_t>(k.ch - U'1');
      if (i < found_.size()) {
        form_[server_].text = found_[i];
        form_.set_focus(server_);
      }
      return;
    }
    form_.key(k);
  }

  void tick(SteadyTime) override {
    if (!search_.valid() || search_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return;
    auto found = search_.get();
    found_.clear();
    if (!found) {
      lan_text_ = app_.tr()("online.lan_failed", {{"error", found.error()}});
      return;
    }
    for (const net::DiscoveredServer& s : *found) {
      found_.push_back((s.reply.tls ? "tls://" : "") + s.address + ":" +
                       std::to_string(s.reply.port));
      found_names_.push_back(s.reply.name);
    }
    lan_text_ = app_.tr()(found_.empty() ? "online.lan_none" : "online.lan_found");
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    c.text(2, 1, t("menu.online"), {Ink::Accent, Ink::Default, true});
    c.wrapped(2, 2, t("online.connect.explain"), {Ink::Muted}, c.width() - 4, 2);
    int y = form_.draw(c, 2, 4) + 1;
    c.text(2, y++, lan_text_, {Ink::Muted}, c.width() - 4);
    for (std::size_t i = 0; i < found_.size() && y < c.height() - 2; ++i)
      c.text(4, y++, std::to_string(i + 1) + "  " + found_[i] + "  " + found_names_[i], {Ink::Text},
             c.width() - 6);
    c.wrapped_above(2, c.height() - 2, t("online.connect.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  void find() {
    if (search_.valid()) return;
    net::DiscoveryOptions o;
    o.target = app_.options().discovery_target.value_or(app_.settings().discovery_target);
    o.port = static_cast<unsigned short>(
        app_.options().discovery_port.value_or(app_.settings().discovery_port));
    lan_text_ = app_.tr()("online.lan_searching");
    found_.clear();
    found_names_.clear();
    // Blocks for up to a second: not on the loop's thread.
    search_ = std::async(std::launch::async, [o] { return net::discover_servers(o); });
  }

  void go() {
    // One address, or the nodes of a cluster separated by commas.
    auto where = client::read_server_addresses(form_[server_].text);
    if (!where) {
      app_.notify(app_.tr()("online.bad_server",
                            {{"error", client::address_error_text(app_.tr(), where.error())}}),
                  true);
      return;
    }
    const auto transport = where->front().transport;
    if (transport == Transport::WebSocket || transport == Transport::SecureWebSocket) {
      app_.notify(app_.tr()("online.no_websocket"), true);
      return;
    }
    if (auto why = client::name_problem(form_[name_].text)) {
      app_.notify(
          app_.tr()("online.bad_name", {{"error", client::name_problem_text(app_.tr(), *why)}}),
          true);
      return;
    }
    app_.settings().last_server = client::nodes_text(*where, true);
    app_.settings().name = form_[name_].text;
    app_.save_settings();
    std::optional<std::string> password;
    if (!form_[password_].text.empty()) password = form_[password_].text;
    auto online = std::make_shared<client::OnlineClient>(
        client::connection_options(app_.settings(), *where, std::move(password)), app_.tr());
    online->start();
    app_.show(make_lobby_screen(app_, std::move(online)));
  }

  Form form_;
  std::size_t server_ = 0, name_ = 0, password_ = 0;
  std::future<Expected<std::vector<net::DiscoveredServer>, std::string>> search_;
  std::vector<std::string> found_, found_names_;
  std::string lan_text_;
};

// ---- a TLS certificate nobody vouches for ----

class CertificateScreen final : public Screen {
 public:
  CertificateScreen(App& app, net::ConnectionOptions options, net::ClientError error)
      : Screen(app), options_(std::move(options)), error_(std::move(error)) {}

  void key(const Key& k) override {
    const bool changed = error_.certificate == net::ClientError::Trust::Changed;
    if (k.is(U'y') && !changed) {
      const std::string where = options_.host + ":" + std::to_string(options_.port);
      app_.settings().pinned_servers[where] = error_.fingerprint;
      app_.save_settings();
      net::ConnectionOptions o = options_;
      o.tls_fingerprint = error_.fingerprint;
      auto online = std::make_shared<client::OnlineClient>(o, app_.tr());
      online->start();
      return app_.show(make_lobby_screen(app_, std::move(online)));
    }
    if (k.is(U'n') || k.code == Key::Code::Escape || k.code == Key::Code::Enter)
      app_.show(make_connect_screen(app_));
  }

  void draw(Canvas& c, SteadyTime) override {
    const bool changed = error_.certificate == net::ClientError::Trust::Changed;
    const std::string where = options_.host + ":" + std::to_string(options_.port);
    const client::Catalogue& t = app_.tr();
    c.text(2, 1, t(changed ? "online.cert.changed" : "online.cert.trust"),
           {changed ? Ink::Danger : Ink::Accent, Ink::Default, true});
    c.wrapped(2, 3,
              t(changed ? "online.cert.changed.explain" : "online.cert.trust.explain",
                {{"server", where}}),
              {Ink::Text}, c.width() - 4, 2);
    c.text(2, 5, "SHA-256: " + error_.fingerprint, {Ink::Text}, c.width() - 4);
    c.wrapped(2, 7, t(changed ? "online.cert.changed.keys" : "online.cert.trust.keys"),
              {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  net::ConnectionOptions options_;
  net::ClientError error_;
};

// ---- the lobby ----

enum class Section : std::uint8_t { Open, Live, Players, Challenges, Mine };
constexpr std::array<const char*, 5> kSectionNames = {
    "online.section.open", "online.section.live", "online.section.players",
    "online.section.challenges", "online.section.mine"};

class LobbyScreen final : public Screen {
 public:
  LobbyScreen(App& app, std::shared_ptr<client::OnlineClient> online)
      : Screen(app),
        client_(std::move(online)),
        variants_(client::known_variants(app.options().rules_dir)),
        times_(client::time_choices()) {
    for (std::size_t i = 0; i < variants_.size(); ++i)
      if (variants_[i].name == app_.settings().last_variant) rules_ = i;
    for (std::size_t i = 0; i < times_.size(); ++i)
      if (to_string(times_[i].control) == app_.settings().last_time_control) time_ = i;
  }

  void tick(SteadyTime now) override {
    client_->poll();
    show_notices(app_, *client_);
    if (client_->status() == net::ConnectionStatus::Closed) {
      if (const auto& e = client_->closed_error();
          e && e->kind == net::ClientError::Kind::Certificate)
        return app_.show(std::make_unique<CertificateScreen>(app_, client_->options(), *e));
    }
    if (client_->game()) return app_.show(make_online_game_screen(app_, client_));
    if (client_->online() && (!refreshed_ || now - *refreshed_ > kRefreshEvery)) {
      refreshed_ = now;
      client_->refresh();
    }
  }

  void key(const Key& k) override {
    using C = Key::Code;
    if (typing_) return type(k);
    const std::size_t count = rows().size();
    if (k.code == C::Escape) {
      client_->close();
      return app_.show(make_menu_screen(app_));
    }
    if (k.code == C::Left || k.code == C::BackTab) switch_section(-1);
    if (k.code == C::Right || k.code == C::Tab) switch_section(1);
    if (k.code == C::Up && focus_ > 0) --focus_;
    if (k.code == C::Down && focus_ + 1 < count) ++focus_;
    if (k.code == C::Enter) activate();
    if (k.code != C::Char) return;
    switch (k.ch) {
      case U'c':
        return create();
      case U's':
        return quick();
      case U'j':
        typing_ = true;
        typed_.clear();
        return;
      case U'v':
        rules_ = (rules_ + 1) % variants_.size();
        return;
      case U't':
        time_ = (time_ + 1) % times_.size();
        return;
      case U'o':
        colour_ = (colour_ + 1) % 3;
        return;
      case U'r':
        rated_ = !rated_;
        return;
      case U'p':
        private_ = !private_;
        return;
      case U'd':
        if (section_ == Section::Challenges && focus_ < client_->challenges().size())
          client_->decline(client_->challenges()[focus_].challenge);
        return;
      case U'x':
        if (client_->waiting_game()) client_->cancel_waiting();
        return;
      case U'h':
        return app_.show(make_archive_screen(app_, client_));
      default:
        return;
    }
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    const std::string title = client_->welcome() ? client_->welcome()->server : t("nav.lobby");
    c.text(2, 0, t("online.lobby.title", {{"server", title}}), {Ink::Accent, Ink::Default, true},
           c.width() - 4);
    // Row 2 is free for a status that needs a second line (reconnecting, with its reason).
    c.wrapped(2, 1, client_->status_text(), {client_->online() ? Ink::Muted : Ink::Danger},
              c.width() - 4, 2);
    // The tabs, on a second row when they do not fit on one (longer words than English's).
    int x = 2, tab_row = 3;
    for (std::size_t i = 0; i < kSectionNames.size(); ++i) {
      const bool on = static_cast<std::size_t>(section_) == i;
      std::string label =
          t("online.section.count", {{"section", t(kSectionNames[i])},
                                     {"count", section_rows(static_cast<Section>(i)).size()}});
      label = on ? "[" + label + "]" : " " + label + " ";
      if (x > 2 && x + text_width(label) > c.width() - 2 && tab_row == 3) {
        x = 2;
        tab_row = 4;
      }
      x = c.text(x, tab_row, label, {on ? Ink::Accent : Ink::Muted, Ink::Default, on}) + 1;
    }

    // At the bottom: the game waiting or the seek (its row kept when there is none), the new
    // game's settings and the keys, each wrapped when it is wider than the screen.
    const int w = c.width() - 4;
    std::vector<std::pair<std::vector<std::string>, Paint>> bottom;
    std::string waiting;
    if (const auto& g = client_->waiting_game())
      waiting = t("online.waiting", {{"game", g->game}, {"invite", g->invite.value_or("none")}});
    else if (client_->seeking())
      waiting = t("online.seeking");
    bottom.push_back(
        {waiting.empty() ? std::vector<std::string>{""} : wrap_text(waiting, w, 2), {Ink::Good}});
    const char* colours[] = {"online.colour.random", "online.colour.white", "online.colour.black"};
    bottom.push_back({wrap_text(t("online.new_game",
                                  {{"rules", client::rules_name(t, variants_[rules_].name)},
                                   {"time", client::time_choice_text(t, times_[time_].control)},
                                   {"colour", t(colours[colour_])},
                                   {"rated", t(rated_ ? "game.rated" : "game.casual")},
                                   {"private", private_ ? "yes" : "no"}}),
                                w, 2),
                      {Ink::Text}});
    bottom.push_back({wrap_text(t("online.new_game.keys"), w, 2), {Ink::Muted}});
    if (typing_)
      bottom.push_back(
          {wrap_text(t("online.invite.typing", {{"typed", typed_}}), w, 2), {Ink::Accent}});
    else
      bottom.push_back({wrap_text(t("online.lobby.keys"), w, 2), {Ink::Muted}});
    bottom.push_back(
        {wrap_text(t("online.section.keys", {{"action", t(action_text())}}), w, 2), {Ink::Muted}});
    int bottom_rows = 0;
    for (const auto& [lines, paint] : bottom) bottom_rows += static_cast<int>(lines.size());
    // Above the last row, which is the notices'; the list gives up the rows longer words take.
    const int bottom_top = c.height() - 1 - bottom_rows;
    int y = bottom_top;
    for (const auto& [lines, paint] : bottom)
      for (const std::string& line : lines) c.text(2, y++, line, paint, w);

    const std::vector<std::string> list = rows();
    const int top = 5, room = bottom_top - top;
    if (list.empty()) c.wrapped(4, top, t(empty_text()), {Ink::Muted}, c.width() - 6, 2);
    const std::size_t first =
        focus_ >= static_cast<std::size_t>(room) ? focus_ - static_cast<std::size_t>(room) + 1 : 0;
    for (std::size_t i = first; i < list.size() && static_cast<int>(i - first) < room; ++i) {
      const bool f = i == focus_;
      const int ly = top + static_cast<int>(i - first);
      c.text(2, ly, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
      c.text(4, ly, elide(list[i], c.width() - 6), {f ? Ink::Accent : Ink::Text, Ink::Default, f});
    }
  }

 private:
  std::vector<std::string> section_rows(Section s) const {
    std::vector<std::string> out;
    const client::Catalogue& t = app_.tr();
    const std::string me = client_->name();
    switch (s) {
      case Section::Open:
        for (const auto& g : client_->open_games()) {
          const auto& creator = g.white ? *g.white : g.black ? *g.black : protocol::PlayerRef{};
          out.push_back(g.game + "  " + client::player_text(t, creator) + "  " +
                        client::rules_name(t, g.rules) + "  " +
                        client::time_choice_text(t, g.time) +
                        (g.rated ? "  " + t("game.rated") : ""));
        }
        break;
      case Section::Live:
        for (const auto& g : client_->live_games())
          out.push_back(
              g.game + "  " +
              t("game.players",
                {{"white", client::player_text(t, g.white.value_or(protocol::PlayerRef{}))},
                 {"black", client::player_text(t, g.black.value_or(protocol::PlayerRef{}))}}) +
              "  " + t("game.move_number", {{"n", g.plies}}) + "  " +
              client::rules_name(t, g.rules));
        break;
      case Section::Players:
        for (const auto& p : client_->players())
          out.push_back(t("online.player", {{"name", p.name},
                                            {"rating", std::to_string(p.rating)},
                                            {"bot", p.bot ? "yes" : "no"},
                                            {"you", p.name == me ? "yes" : "no"},
                                            {"games", p.games}}));
        break;
      case Section::Challenges:
        for (const auto& ch : client_->challenges())
          out.push_back(t("online.challenge.from", {{"player", client::player_text(t, ch.from)}}) +
                        "  " + client::rules_name(t, ch.rules) + "  " +
                        client::time_choice_text(t, ch.time) + "  " +
                        t(ch.rated ? "game.rated" : "game.casual"));
        for (const auto& [id, player] : client_->sent_challenges())
          out.push_back(t("online.challenge.sent_to", {{"player", player}}));
        break;
      case Section::Mine:
        for (const std::string& id : client_->games_in_progress())
          out.push_back(t("game.title", {{"game", id}}));
        break;
    }
    return out;
  }
  std::vector<std::string> rows() const { return section_rows(section_); }

  const char* empty_text() const {
    switch (section_) {
      case Section::Open:
        return "online.empty.open";
      case Section::Live:
        return "online.empty.live";
      case Section::Players:
        return "online.empty.players";
      case Section::Challenges:
        return "online.empty.challenges";
      case Section::Mine:
        return "online.empty.mine";
    }
    return "";
  }
  const char* action_text() const {
    switch (section_) {
      case Section::Open:
        return "online.action.join";
      case Section::Live:
        return "online.action.watch";
      case Section::Players:
        return "online.action.challenge";
      case Section::Challenges:
        return "online.action.accept";
      case Section::Mine:
        return "online.action.back";
    }
    return "";
  }

  void switch_section(int d) {
    const int n = static_cast<int>(kSectionNames.size());
    section_ = static_cast<Section>((static_cast<int>(section_) + d + n) % n);
    focus_ = 0;
  }

  void activate() {
    switch (section_) {
      case Section::Open: {
        const auto games = client_->open_games();
        if (focus_ < games.size()) client_->join(games[focus_].game);
        return;
      }
      case Section::Live: {
        const auto games = client_->live_games();
        if (focus_ < games.size()) client_->watch(games[focus_].game);
        return;
      }
      case Section::Players: {
        const auto& players = client_->players();
        if (focus_ >= players.size() || players[focus_].name == client_->name()) return;
        remember();
        protocol::ChallengeSend c;
        c.player = players[focus_].name;
        c.rules = variants_[rules_].name;
        c.time = times_[time_].control;
        c.color = colour();
        c.rated = rated_;
        client_->challenge(c);
        app_.notify(app_.tr()("online.challenge.sent", {{"player", c.player}}));
        return;
      }
      case Section::Challenges:
        if (focus_ < client_->challenges().size())
          client_->accept(client_->challenges()[focus_].challenge);
        return;
      case Section::Mine: {
        const auto mine = client_->games_in_progress();
        if (focus_ < mine.size()) client_->show_game(mine[focus_]);
        return;
      }
    }
  }

  protocol::ColorChoice colour() const {
    return colour_ == 1   ? protocol::ColorChoice::White
           : colour_ == 2 ? protocol::ColorChoice::Black
                          : protocol::ColorChoice::Random;
  }

  void remember() {
    app_.settings().last_variant = variants_[rules_].name;
    app_.settings().last_time_control = to_string(times_[time_].control);
    app_.save_settings();
  }

  void create() {
    remember();
    protocol::Create c;
    c.rules = variants_[rules_].name;
    c.time = times_[time_].control;
    c.color = colour();
    c.rated = rated_;
    c.is_private = private_;
    client_->create(c);
  }

  void quick() {
    if (client_->seeking()) return client_->unseek();
    remember();
    client_->seek({variants_[rules_].name, times_[time_].control, rated_});
  }

  // "17 ABCDEFGHJK" or the invite link: the game and its invite code (client::parse_invite).
  void type(const Key& k) {
    using C = Key::Code;
    if (k.code == C::Escape) typing_ = false;
    if (k.code == C::Backspace && !typed_.empty()) typed_.pop_back();
    if (k.code == C::Char && k.ch >= 0x20 && k.ch < 0x7F && typed_.size() < 200)
      typed_ += static_cast<char>(k.ch);
    if (k.code != C::Enter) return;
    typing_ = false;
    const auto invite = client::parse_invite(typed_);
    if (!invite) {
      app_.notify(
          app_.tr()("online.invite.how", {{"example", std::string(client::kInviteExample)}}), true);
      return;
    }
    client_->join(invite->game, invite->code);
  }

  std::shared_ptr<client::OnlineClient> client_;
  std::vector<RuleVariant> variants_;
  std::vector<client::TimeChoice> times_;
  std::size_t rules_ = 0, time_ = 0, colour_ = 0;
  bool rated_ = false, private_ = false;
  Section section_ = Section::Open;
  std::size_t focus_ = 0;
  std::optional<SteadyTime> refreshed_;
  bool typing_ = false;
  std::string typed_;
};

// ---- the archive ----

class ArchiveScreen final : public Screen {
 public:
  ArchiveScreen(App& app, std::shared_ptr<client::OnlineClient> online)
      : Screen(app), client_(std::move(online)) {
    client_->clear_archived();
    client_->request_history();
  }

  void tick(SteadyTime) override {
    client_->poll();
    show_notices(app_, *client_);
    if (const auto& a = client_->archived()) {
      GameRecord record = a->record;
      client_->clear_archived();
      App& app = app_;
      auto online = client_;
      app_.show(make_replay_screen(app_, std::move(record),
                                   [&app, online] { return make_archive_screen(app, online); }));
    }
  }

  void key(const Key& k) override {
    using C = Key::Code;
    if (k.code == C::Escape) return app_.show(make_lobby_screen(app_, client_));
    const std::size_t n = client_->history() ? client_->history()->games.size() : 0;
    if (k.code == C::Up && focus_ > 0) --focus_;
    if (k.code == C::Down && focus_ + 1 < n) ++focus_;
    if (k.code == C::Enter && focus_ < n)
      client_->request_record(client_->history()->games[focus_].game);
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    c.text(2, 1, t("online.archive.title"), {Ink::Accent, Ink::Default, true});
    const auto& h = client_->history();
    if (!h)
      c.text(2, 3, t("online.asking"), {Ink::Muted});
    else if (h->games.empty())
      c.text(2, 3, t("tui.replays.none"), {Ink::Muted});
    if (h) {
      int y = 3;
      for (std::size_t i = 0; i < h->games.size() && y < c.height() - 3; ++i, ++y) {
        const auto& g = h->games[i];
        const bool f = i == focus_;
        const std::string winner = g.winner ? (*g.winner == Color::White ? "1-0" : "0-1") : "-";
        c.text(2, y, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
        c.text(4, y,
               g.game + "  " +
                   t("game.players", {{"white", g.white.name}, {"black", g.black.name}}) + "  " +
                   winner + "  " + t("online.archive.plies", {{"count", g.plies}}) + "  " +
                   g.ended_at,
               {f ? Ink::Accent : Ink::Text, Ink::Default, f}, c.width() - 6);
      }
    }
    c.wrapped_above(2, c.height() - 2, t("online.archive.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  std::shared_ptr<client::OnlineClient> client_;
  std::size_t focus_ = 0;
};

// ---- an online game, as the game screen sees it ----

class OnlineSource final : public GameSource {
 public:
  OnlineSource(App& app, std::shared_ptr<client::OnlineClient> online)
      : app_(app), client_(std::move(online)) {}

  void poll(SteadyTime) override {
    client_->poll();
    show_notices(app_, *client_);
    client::OnlineGame* g = client_->game();
    if (!g) return app_.show(make_lobby_screen(app_, client_));
    for (const client::OnlineNotice& n : g->take_notices()) say(app_, n);
  }
  const client::GameViewModel* view() const override {
    client::OnlineGame* g = client_->game();
    return g ? g->view() : nullptr;
  }
  bool can_move() const override {
    client::OnlineGame* g = client_->game();
    // The request follows the server's game a moment later than the view: only our own turn in
    // the view counts, so a stale request never offers the opponent's queens.
    return g && client_->online() && g->pending_request().has_value() && g->view() &&
           g->view()->running() && g->color() == g->view()->to_move();
  }
  bool play(Move m) override {
    client::OnlineGame* g = client_->game();
    if (!g || !can_move()) return false;
    return g->play(*g->pending_request(), m);
  }
  bool flipped() const override {
    client::OnlineGame* g = client_->game();
    return g && g->color() == Color::Black;
  }

  std::optional<std::string> command(const std::string& word, const std::string& rest) override {
    client::OnlineGame* g = client_->game();
    const client::Catalogue& t = app_.tr();
    if (!g) return t("online.no_game");
    if (word == "resign") {
      if (!g->playing()) return t("online.watching_only");
      g->resign();
    } else if (word == "abort") {
      if (!g->playing()) return t("online.watching_only");
      g->abort();
    } else if (word == "rematch") {
      if (!g->finished()) return t("tui.game.rematch_finished");
      g->offer_rematch();
      app_.notify(t(g->rematch_offer() ? "online.rematch.accepted" : "game.rematch.sent"));
    } else if (word == "chat" || word == "c" || word == "say") {
      if (rest.empty()) return t("online.chat.how");
      g->send_chat(rest);
    } else if (word == "lobby" || word == "menu" || word == "q") {
      if (g->playing() && g->view() && g->view()->running()) app_.notify(t("online.left_running"));
      client_->leave_game();
      app_.show(make_lobby_screen(app_, client_));
    } else {
      return t("tui.game.unknown_command", {{"word", word}, {"commands", join_commands()}});
    }
    return std::nullopt;
  }

  std::vector<std::string> commands() const override {
    const client::OnlineGame* g = client_->game();
    if (!g || !g->view()) return {":lobby"};
    const bool running = g->view()->running();
    std::vector<std::string> out;
    if (g->playing() && running) {
      out.push_back(":resign");
      if (g->view()->moves().size() < 2) out.push_back(":abort");
    }
    if (g->playing() && !running) out.push_back(":rematch");
    out.push_back(":chat text");
    out.push_back(":lobby");
    return out;
  }

  std::string join_commands() const {
    std::string out;
    for (const std::string& c : commands()) out += (out.empty() ? "" : " ") + c;
    return out;
  }

  std::string status_line() const override {
    const client::OnlineGame* g = client_->game();
    if (!client_->online()) return client_->status_text();
    if (!g || !g->view()) return {};
    const client::GameViewModel& vm = *g->view();
    const client::Catalogue& t = app_.tr();
    for (Color c : g->offline())
      return t("online.opponent_offline", {{"player", vm.player(c).name}});
    std::string line;
    if (!g->playing()) line = t("online.watching");
    if (const auto& who = g->rematch_offer(); who && !vm.running())
      line = who->empty() ? t("game.rematch.sent")
                          : t("online.rematch.offered_by", {{"player", *who}});
    if (g->spectators() > 0)
      line += (line.empty() ? "" : t("online.separator")) +
              t("game.spectators", {{"count", g->spectators()}});
    return line;
  }
  bool status_is_problem() const override {
    const client::OnlineGame* g = client_->game();
    return !client_->online() || (g && !g->offline().empty());
  }
  std::vector<client::ChatLine> chat() const override {
    const client::OnlineGame* g = client_->game();
    return g ? g->chat() : std::vector<client::ChatLine>{};
  }

 private:
  App& app_;
  std::shared_ptr<client::OnlineClient> client_;
};

std::unique_ptr<Screen> make_lobby_screen(App& app, std::shared_ptr<client::OnlineClient> client) {
  return std::make_unique<LobbyScreen>(app, std::move(client));
}
std::unique_ptr<Screen> make_online_game_screen(App& app,
                                                std::shared_ptr<client::OnlineClient> client) {
  return make_game_screen(app, std::make_unique<OnlineSource>(app, std::move(client)));
}
std::unique_ptr<Screen> make_archive_screen(App& app,
                                            std::shared_ptr<client::OnlineClient> client) {
  return std::make_unique<ArchiveScreen>(app, std::move(client));
}

}  // namespace

std::unique_ptr<Screen> make_connect_screen(App& app) {
  return std::make_unique<ConnectScreen>(app);
}

}  // namespace amazons::tui
