// The moderator's view of a server: the open reports (each resolved here, or taken into the
// action form), the bans and mutes in force (each lifted here), an action form (mute, kick or
// ban a player for a time or for good, with the reason the player is shown) and the latest
// lines of the audit log. Only moderators and admins reach it; the server checks every request
// again.
#include <algorithm>
#include <cmath>

#include "client/game_text.h"
#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {
namespace {

using Clock = std::chrono::steady_clock;

// The durations offered, in seconds; the last is for good.
struct DurationChoice {
  const char* key;
  std::optional<std::int64_t> seconds;
};
constexpr DurationChoice kDurations[] = {{"moderation.for.minutes10", 600},
                                         {"moderation.for.hour", 3600},
                                         {"moderation.for.day", 86'400},
                                         {"moderation.for.week", 604'800},
                                         {"moderation.for.good", std::nullopt}};

std::string sanction_text(const Catalogue& t, const protocol::SanctionInfo& s) {
  const std::string kind = s.kind == "ban_name"      ? t("moderation.kind.ban")
                           : s.kind == "ban_address" ? t("moderation.kind.ban_address")
                           : s.kind == "mute"        ? t("moderation.kind.mute")
                                                     : s.kind;
  return t("moderation.sanction",
           {{"kind", kind},
            {"target", s.target},
            {"reason", s.reason.empty() ? t("moderation.no_reason") : s.reason},
            {"by", s.by},
            {"until", s.until ? t("moderation.until", {{"when", short_timestamp(*s.until)}})
                              : t("moderation.for.good")}});
}

std::string report_text(const Catalogue& t, const protocol::ReportInfo& r) {
  std::string text = t("moderation.report.line", {{"id", std::to_string(r.report)},
                                                  {"reporter", r.reporter},
                                                  {"player", r.player},
                                                  {"reason", r.reason}});
  if (r.text) text += kDot + t("moderation.report.quote", {{"text", *r.text}});
  if (r.game) text += kDot + t("game.title", {{"game", *r.game}});
  return text;
}

// 600 -> "10 min", 86400 -> "1 d"; the largest unit that divides it.
std::string duration_text(const Catalogue& t, std::int64_t s) {
  if (s > 0 && s % 86'400 == 0) return t("duration.days", {{"n", s / 86'400}});
  if (s > 0 && s % 3600 == 0) return t("duration.hours", {{"n", s / 3600}});
  if (s > 0 && s % 60 == 0) return t("duration.minutes", {{"n", s / 60}});
  return t("duration.seconds", {{"n", s}});
}

// The server's action code in the person's words ("mute", "禁言"); an unknown one as it came.
std::string action_text(const Catalogue& t, const std::string& action) {
  const std::string key = "moderation.action." + action;
  return t.knows(key) ? t(key) : action;
}

std::string audit_text(const Catalogue& t, const protocol::AuditEntry& e) {
  std::string text =
      short_timestamp(e.at) + "  " +
      t("moderation.audit.line", {{"actor", e.actor},
                                  {"action", action_text(t, e.action)},
                                  {"target", audit_target_text(t, e.action, e.target)}});
  if (e.duration) text += t("moderation.audit.for", {{"duration", duration_text(t, *e.duration)}});
  if (!e.reason.empty())
    text += t("moderation.audit.reason", {{"reason", audit_reason_text(t, e.action, e.reason)}});
  return text;
}

class ModerationScreen final : public Screen {
 public:
  ModerationScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    const Catalogue& t = app_.tr();
    for (const auto& d : kDurations) duration_.options.push_back(t(d.key));
    player_.label = t("moderation.player");
    reason_.label = t("moderation.reason");
    duration_.label = t("moderation.for");
    mute_.label = t("moderation.mute");
    kick_.label = t("moderation.kick");
    ban_.label = t("moderation.ban");
    unmute_.label = t("moderation.unmute");
    unban_.label = t("moderation.unban");
    back_.label = t("nav.lobby");
    duration_.index = 1;
    back_.on_click = [this] { app_.show(make_lobby_screen(app_, client_)); };
    mute_.on_click = [this] { act("mute"); };
    unmute_.on_click = [this] { act("unmute"); };
    kick_.on_click = [this] { act("kick"); };
    ban_.on_click = [this] { act("ban"); };
    unban_.on_click = [this] { act("unban"); };
    client_->request_moderation();
    rebuild();
  }

  std::string name() const override { return "moderation"; }

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

  void update(SteadyTime now) override {
    client_->poll();
    show_notices(app_, *client_);
    if (client_->online() && now - last_refresh_ > kRefreshEvery) {
      client_->request_moderation();
      last_refresh_ = now;
    }
    if (client_->reports() != reports_ || client_->sanctions() != sanctions_) rebuild();
    for (Widget* w : std::initializer_list<Widget*>{&mute_, &unmute_, &kick_, &ban_, &unban_})
      w->enabled = client_->online() && !player_.text.empty();
  }

  // Changes only with what the network delivers.
  bool changes_by_itself(SteadyTime) const override { return client_->news() != drawn_news_; }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_news_ = client_->news();
    const Style& s = app_.style();
    const Catalogue& tr = app_.tr();
    draw_title(t, s, left_.x, s.f(16), tr("desktop.lobby.moderation"),
               elide(s.fonts->regular,
                     tr(client_->role() == protocol::Role::Admin ? "moderation.role.admin"
                                                                 : "moderation.role.moderator") +
                         kDot + client_->status_text(),
                     s.px(15), width_ - s.f(56)));
    for (const auto& [y, text] : headings_)
      draw_text(t, s.fonts->bold, text, s.px(17), left_.x, y, colors::kText);
    for (const auto& [y, text] : lines_)
      draw_text(t, s.fonts->regular, text, s.px(14), left_.x + s.f(4), y, colors::kMuted);
    draw_text(t, s.fonts->bold, tr("moderation.act"), s.px(17), right_.x, right_.y, colors::kText);
    draw_text(t, s.fonts->bold, tr("moderation.audit"), s.px(17), right_.x, audit_y_,
              colors::kText);
    float y = audit_y_ + s.f(28);
    if (const auto& log = client_->audit())
      for (const auto& e : log->entries) {
        if (y + s.f(20) > height_ - s.f(80)) break;
        draw_text(t, s.fonts->regular,
                  elide(s.fonts->regular, audit_text(tr, e), s.px(13), right_.w), s.px(13),
                  right_.x, y, colors::kMuted);
        y += s.f(20);
      }
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["online"] = client_->online();
    nlohmann::json reports = nlohmann::json::array(), sanctions = nlohmann::json::array(),
                   audit = nlohmann::json::array();
    if (reports_)
      for (const auto& r : reports_->reports) reports.push_back(r.report);
    if (sanctions_)
      for (const auto& x : sanctions_->sanctions) sanctions.push_back(sanction_text(app_.tr(), x));
    if (const auto& log = client_->audit())
      for (const auto& e : log->entries) audit.push_back(audit_text(app_.tr(), e));
    j["reports"] = reports;
    j["sanctions"] = sanctions;
    j["audit"] = audit;
    return j;
  }

 private:
  void act(const std::string& what) {
    const std::string player = player_.text, reason = reason_.text;
    if (player.empty()) return;
    const auto duration = kDurations[duration_.index].seconds;
    const Catalogue& t = app_.tr();
    if (what == "mute")
      client_->moderate(protocol::Mute{player, duration, reason},
                        t("moderation.do.mute", {{"player", player}}));
    else if (what == "unmute")
      client_->moderate(protocol::Unmute{player, reason},
                        t("moderation.do.unmute", {{"player", player}}));
    else if (what == "kick")
      client_->moderate(protocol::Kick{player, reason},
                        t("moderation.do.kick", {{"player", player}}));
    else if (what == "ban")
      client_->moderate(protocol::Ban{player, std::nullopt, duration, reason},
                        t("moderation.do.ban", {{"player", player}}));
    else if (what == "unban")
      client_->moderate(protocol::Unban{player, std::nullopt, reason},
                        t("moderation.do.unban", {{"player", player}}));
  }

  // Lifting what a sanction line says.
  void lift(const protocol::SanctionInfo& x) {
    const Catalogue& t = app_.tr();
    if (x.kind == "mute")
      client_->moderate(protocol::Unmute{x.target, ""},
                        t("moderation.do.unmute", {{"player", x.target}}));
    else if (x.kind == "ban_address")
      client_->moderate(protocol::Unban{std::nullopt, x.target, ""},
                        t("moderation.do.unban", {{"player", x.target}}));
    else
      client_->moderate(protocol::Unban{x.target, std::nullopt, ""},
                        t("moderation.do.unban", {{"player", x.target}}));
  }

  Button& row(const std::string& id, const std::string& label, ButtonStyle look,
              std::function<void()> click) {
    return add_row(rows_, id, label, look, std::move(click));
  }

  void rebuild() {
    reports_ = client_->reports();
    sanctions_ = client_->sanctions();
    rows_.clear();
    report_rows_.clear();
    sanction_rows_.clear();
    const Catalogue& t = app_.tr();
    if (reports_)
      for (const auto& r : reports_->reports) {
        // The report's text takes the player and the reason into the form.
        Button& take = row("report_" + std::to_string(r.report), report_text(t, r),
                           ButtonStyle::Normal, [this, r] {
                             player_.text = r.player;
                             reason_.text = r.reason;
                           });
        Button& resolve = row(
            "resolve_" + std::to_string(r.report), t("moderation.resolve"), ButtonStyle::Quiet,
            [this, id = r.report] {
              client_->moderate(protocol::Resolve{id, "resolved"},
                                app_.tr()("moderation.do.resolve", {{"id", std::to_string(id)}}));
            });
        report_rows_.emplace_back(&take, &resolve);
      }
    if (sanctions_)
      for (std::size_t i = 0; i < sanctions_->sanctions.size(); ++i) {
        const auto x = sanctions_->sanctions[i];
        Button& text = row("sanction_" + std::to_string(i), sanction_text(t, x),
                           ButtonStyle::Normal, [this, x] { player_.text = x.target; });
        Button& lift_button = row("lift_" + std::to_string(i), t("moderation.lift"),
                                  ButtonStyle::Quiet, [this, x] { lift(x); });
        sanction_rows_.emplace_back(&text, &lift_button);
      }
    widgets_ = WidgetSet{};
    for (Widget* w : std::initializer_list<Widget*>{&player_, &reason_, &duration_, &mute_, &kick_,
                                                    &ban_, &unmute_, &unban_, &back_})
      widgets_.add(*w);
    for (auto& b : rows_) widgets_.add(*b);
    place();
  }

  void place() {
    const Style& s = app_.style();
    const float margin = s.f(28), gap = s.f(24);
    const float right_w = std::min(s.f(440), width_ * 0.38f);
    left_ = {margin, s.f(110), width_ - 2 * margin - gap - right_w, 0};
    right_ = {left_.right() + gap, s.f(110), right_w, 0};
    headings_.clear();
    lines_.clear();
    const float row_h = s.f(34), bottom = height_ - s.f(80);
    float y = left_.y;
    auto section = [&](const std::string& title, const std::string& empty,
                       const std::vector<std::pair<Button*, Button*>>& rows, float side_w) {
      headings_.emplace_back(y, title);
      y += s.f(28);
      if (rows.empty()) {
        lines_.emplace_back(y + s.f(4), empty);
        y += s.f(30);
      }
      for (const auto& [main, side] : rows) {
        main->visible = side->visible = y + row_h <= bottom;
        main->rect = {left_.x, y, left_.w - side_w - s.f(10), row_h};
        side->rect = {left_.right() - side_w, y, side_w, row_h};
        y += row_h + s.f(6);
      }
      y += s.f(22);
    };
    const Catalogue& t = app_.tr();
    // Resolve and Lift: as wide as their words need.
    auto side_width = [&](const std::vector<std::pair<Button*, Button*>>& rows, float least) {
      for (const auto& [main, side] : rows) least = std::max(least, side->natural_width(s));
      return std::min(least, left_.w / 3);
    };
    section(t("moderation.reports"), t(reports_ ? "moderation.reports.empty" : "archive.asking"),
            report_rows_, side_width(report_rows_, s.f(110)));
    section(t("moderation.sanctions"),
            t(sanctions_ ? "moderation.sanctions.empty" : "archive.asking"), sanction_rows_,
            side_width(sanction_rows_, s.f(80)));

    float ry = right_.y + s.f(44);
    const float fh = s.f(40), fgap = s.f(30);
    for (Widget* w : std::initializer_list<Widget*>{&player_, &reason_, &duration_}) {
      w->rect = {right_.x, ry, right_.w, fh};
      ry += fh + fgap;
    }
    ry -= s.f(14);
    const float third = (right_.w - s.f(20)) / 3;
    mute_.rect = {right_.x, ry, third, s.f(40)};
    kick_.rect = {right_.x + third + s.f(10), ry, third, s.f(40)};
    ban_.rect = {right_.x + 2 * (third + s.f(10)), ry, third, s.f(40)};
    ry += s.f(48);
    const float half = (right_.w - s.f(10)) / 2;
    unmute_.rect = {right_.x, ry, half, s.f(36)};
    unban_.rect = {right_.x + half + s.f(10), ry, half, s.f(36)};
    audit_y_ = ry + s.f(60);
    back_.rect = {left_.x, height_ - s.f(64), s.f(160), s.f(46)};
  }

  std::shared_ptr<OnlineClient> client_;
  std::uint64_t drawn_news_ = 0;  // client_->news() when the last frame was drawn
  TextField player_{"player", "", 40};
  TextField reason_{"reason", "", 200};
  Selector duration_{"duration", "", {}};
  Button mute_{"mute", ""};
  Button kick_{"kick", ""};
  Button ban_{"ban", "", ButtonStyle::Danger};
  Button unmute_{"unmute", "", ButtonStyle::Quiet};
  Button unban_{"unban", "", ButtonStyle::Quiet};
  Button back_{"back", ""};
  std::vector<std::unique_ptr<Button>> rows_;
  std::vector<std::pair<Button*, Button*>> report_rows_, sanction_rows_;
  WidgetSet widgets_;
  std::optional<protocol::ReportList> reports_;
  std::optional<protocol::SanctionList> sanctions_;
  std::vector<std::pair<float, std::string>> headings_, lines_;
  SteadyTime last_refresh_ = Clock::now();
  Rect left_, right_;
  float width_ = 0, height_ = 0, audit_y_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_moderation_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<ModerationScreen>(app, std::move(client));
}

}  // namespace amazons::client::ui
