// One tournament of the server: its standings, its games (a playing one opens to watch), and
// join or withdraw. The server pushes every change while the screen follows it; a game of this
// account that starts opens on the board, as it would from the lobby.
#include <algorithm>
#include <cmath>

#include "client/game_text.h"
#include "client/tournament_text.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {
namespace {

class TournamentScreen final : public Screen {
 public:
  TournamentScreen(App& app, std::shared_ptr<OnlineClient> client, std::int64_t id)
      : Screen(app), client_(std::move(client)), id_(id) {
    client_->follow_tournament(id_);
    const Catalogue& t = app_.tr();
    back_.label = t("nav.lobby");
    join_.label = t("desktop.tournament.join");
    withdraw_.label = t("tournament.withdraw");
    back_.on_click = [this] { back(); };
    join_.on_click = [this] { client_->join_tournament(id_); };
    withdraw_.on_click = [this] { client_->withdraw_tournament(id_); };
    rebuild();
  }

  std::string name() const override { return "tournament"; }

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape) back();
  }

  void update(SteadyTime) override {
    client_->poll();
    show_notices(app_, *client_);
    if (OnlineGame* g = client_->game(); g && g->view()) {
      app_.show(make_online_game_screen(app_, client_));
      return;
    }
    const auto& now = client_->tournament();
    if (now != shown_) {
      shown_ = now;
      rebuild();
    }
    const bool in = shown_ && takes_part(*shown_, client_->name());
    const bool open =
        shown_ && (shown_->tournament.status == "created" ||
                   (shown_->tournament.status == "running" && shown_->tournament.kind == "arena"));
    join_.visible = !in && (open || !shown_);
    withdraw_.visible = in && shown_->tournament.status != "finished";
    join_.enabled = client_->online() && open;
    withdraw_.enabled = client_->online();
  }

  // Changes only with what the network delivers.
  bool changes_by_itself(SteadyTime) const override { return client_->news() != drawn_news_; }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_news_ = client_->news();
    const Style& s = app_.style();
    if (!shown_) {
      draw_title(t, s, x_, s.f(16), app_.tr()("tournament.title", {{"id", std::to_string(id_)}}),
                 app_.tr()("archive.asking"));
      widgets_.draw(t, s);
      return;
    }
    const auto& info = *shown_;
    const Catalogue& tr = app_.tr();
    std::string sub =
        kind_name(tr, info.tournament.kind) + kDot + tournament_status(tr, info.tournament) + kDot +
        rules_name(tr, info.tournament.rules) + kDot + time_choice_text(tr, info.tournament.time) +
        kDot + tr(info.tournament.rated ? "game.rated" : "game.casual");
    if (info.tournament.kind == "arena" && info.ends_at && info.tournament.status == "running")
      sub += kDot + tr("tournament.ends", {{"when", short_timestamp(*info.ends_at)}});
    if (info.tournament.kind == "swiss")
      sub += kDot + tr("tournament.rounds", {{"count", info.rounds}});
    if (!info.bots_allowed) sub += kDot + tr("tournament.no_bots");
    draw_title(t, s, x_, s.f(16), info.tournament.name,
               elide(s.fonts->regular, sub, s.px(15), table_w_));

    // The standings, in columns: each at least its share of the table's width and as wide as
    // its heading needs (longer in some languages); the player's column takes what is left.
    const float y0 = s.f(120);
    constexpr int kCols = 9;
    const std::string headings[kCols] = {"#",
                                         tr("leaderboard.player"),
                                         tr("tournament.points"),
                                         tiebreak_column(tr, info.tournament.kind),
                                         tr("leaderboard.games"),
                                         tr("tournament.w"),
                                         tr("tournament.l"),
                                         tr("tournament.d"),
                                         ""};
    constexpr float kShare[kCols] = {0.06f, 0.34f, 0.09f, 0.11f, 0.11f, 0.06f, 0.06f, 0.05f, 0.12f};
    float widths[kCols], others = 0;
    for (int i = 0; i < kCols; ++i) {
      widths[i] = std::max(kShare[i] * table_w_,
                           text_width(s.fonts->bold, headings[i], s.px(14)) + s.f(12));
      if (i != 1) others += widths[i];
    }
    widths[1] = std::max(table_w_ - others, 0.18f * table_w_);
    float xs[kCols], at = x_;
    for (int i = 0; i < kCols; ++i) {
      xs[i] = at;
      at += widths[i];
    }
    auto col_x = [&](int i) { return std::round(xs[i]); };
    auto col_w = [&](int i) { return widths[i] - s.f(8); };
    for (int i = 0; i < kCols; ++i) {
      const unsigned size = fitting_size(s.fonts->bold, headings[i], s.px(14), s.px(11), col_w(i));
      draw_text(t, s.fonts->bold, elide(s.fonts->bold, headings[i], size, col_w(i)), size, col_x(i),
                y0, colors::kMuted);
    }
    float y = y0 + s.f(30);
    if (info.standings.empty())
      draw_text(t, s.fonts->regular, tr("tournament.standings.empty"), s.px(15), x_, y,
                colors::kMuted);
    for (const auto& st : info.standings) {
      if (y + s.f(26) > height_ - s.f(90)) break;
      const StandingRow row = standing_row(tr, st);
      const bool me = st.name == client_->name();
      const sf::Color ink = st.withdrawn ? colors::kMuted : me ? colors::kAccent : colors::kText;
      const std::string cells[kCols] = {row.rank,
                                        row.name,
                                        row.points,
                                        row.tiebreak,
                                        std::to_string(st.games),
                                        std::to_string(st.wins),
                                        std::to_string(st.losses),
                                        std::to_string(st.draws),
                                        row.note};
      for (int i = 0; i < kCols; ++i) {
        if (cells[i].empty()) continue;
        draw_text(t, i == 2 ? s.fonts->bold : s.fonts->regular,
                  elide(s.fonts->regular, cells[i], s.px(15), col_w(i)), s.px(15), col_x(i), y,
                  i == kCols - 1 && st.on_fire ? colors::kDanger : ink);
      }
      y += s.f(28);
    }

    draw_text(t, s.fonts->bold, games_title_, s.px(17), games_x_, y0 - s.f(4), colors::kText);
    for (const auto& [line_y, text] : lines_)
      draw_text(t, s.fonts->regular, elide(s.fonts->regular, text, s.px(14), games_w_), s.px(14),
                games_x_ + s.f(4), line_y, colors::kMuted);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["tournament"] = id_;
    j["online"] = client_->online();
    if (!shown_) return j;
    j["status"] = shown_->tournament.status;
    j["name"] = shown_->tournament.name;
    j["round"] = shown_->tournament.round;
    j["joined"] = takes_part(*shown_, client_->name());
    nlohmann::json standings = nlohmann::json::array();
    for (const auto& st : shown_->standings)
      standings.push_back({{"rank", st.rank},
                           {"name", st.name},
                           {"points", st.points},
                           {"games", st.games},
                           {"withdrawn", st.withdrawn}});
    j["standings"] = standings;
    nlohmann::json games = nlohmann::json::array();
    for (const auto* p : shown_pairings_) games.push_back(pairing_line(app_.tr(), *p));
    j["games"] = games;
    return j;
  }

 private:
  static inline const std::string kDot = " \u00B7 ";

  // The games are listed under their round's heading.
  static protocol::TournamentPairing without_round(protocol::TournamentPairing p) {
    p.round = 0;
    return p;
  }

  void back() {
    client_->unfollow_tournament();
    app_.show(make_lobby_screen(app_, client_));
  }

  // The games worth showing: a round's when it has rounds (the current one, else the last),
  // an arena's playing ones first and then the latest finished.
  std::vector<const protocol::TournamentPairing*> pairings_shown() const {
    std::vector<const protocol::TournamentPairing*> out;
    if (!shown_) return out;
    const auto& all = shown_->pairings;
    if (shown_->tournament.kind == "arena") {
      for (const auto& p : all)
        if (p.state == "playing") out.push_back(&p);
      for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->state != "playing") out.push_back(&*it);
      return out;
    }
    int round = shown_->tournament.round;
    if (round <= 0)
      for (const auto& p : all) round = std::max(round, p.round);
    for (const auto& p : all)
      if (p.round == round) out.push_back(&p);
    return out;
  }

  void rebuild() {
    rows_.clear();
    widgets_ = WidgetSet{};
    shown_pairings_ = pairings_shown();
    const Catalogue& t = app_.tr();
    games_title_ = t("tournament.pairings");
    if (shown_ && shown_->tournament.kind != "arena" && !shown_pairings_.empty()) {
      const int round = shown_pairings_.front()->round;
      games_title_ = shown_->rounds > 0
                         ? t("tournament.round_of", {{"round", round}, {"rounds", shown_->rounds}})
                         : t("tournament.round", {{"round", round}});
    }
    for (const auto* p : shown_pairings_) {
      if (p->state != "playing" || !p->game) continue;
      add_row(rows_, "watch_" + *p->game,
              t("desktop.tournament.watch", {{"pairing", pairing_line(t, without_round(*p))}}),
              ButtonStyle::Normal, [this, game = *p->game] { client_->watch(game); });
    }
    for (Widget* w : std::initializer_list<Widget*>{&join_, &withdraw_, &back_}) widgets_.add(*w);
    for (auto& b : rows_) widgets_.add(*b);
    place();
  }

  void place() {
    const Style& s = app_.style();
    x_ = s.f(28);
    games_w_ = std::min(s.f(460), width_ * 0.34f);
    games_x_ = width_ - s.f(28) - games_w_;
    table_w_ = games_x_ - s.f(24) - x_;
    float y = s.f(150);
    for (auto& b : rows_) {
      b->rect = {games_x_, y, games_w_, s.f(34)};
      b->visible = y + s.f(34) < height_ - s.f(90);
      y += s.f(40);
    }
    lines_.clear();
    for (const auto* p : shown_pairings_) {
      if (p->state == "playing" && p->game) continue;
      if (y + s.f(22) > height_ - s.f(90)) break;
      lines_.emplace_back(y + s.f(4), pairing_line(app_.tr(), without_round(*p)));
      y += s.f(26);
    }
    if (shown_pairings_.empty())
      lines_.emplace_back(y + s.f(4), app_.tr()("tournament.pairings.empty"));
    const float by = height_ - s.f(68);
    back_.rect = {x_, by, s.f(160), s.f(46)};
    join_.rect = {games_x_, by, games_w_, s.f(46)};
    withdraw_.rect = join_.rect;
  }

  std::shared_ptr<OnlineClient> client_;
  std::uint64_t drawn_news_ = 0;  // client_->news() when the last frame was drawn
  std::int64_t id_;
  std::optional<protocol::TournamentInfo> shown_;
  std::vector<const protocol::TournamentPairing*> shown_pairings_;
  Button back_{"back", ""};
  Button join_{"join", "", ButtonStyle::Primary};
  Button withdraw_{"withdraw", "", ButtonStyle::Quiet};
  std::vector<std::unique_ptr<Button>> rows_;
  WidgetSet widgets_;
  std::string games_title_;
  std::vector<std::pair<float, std::string>> lines_;
  float width_ = 0, height_ = 0, x_ = 0, games_x_ = 0, games_w_ = 0, table_w_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_tournament_screen(App& app, std::shared_ptr<OnlineClient> client,
                                               std::int64_t id) {
  return std::make_unique<TournamentScreen>(app, std::move(client), id);
}

}  // namespace amazons::client::ui
