// The main menu, the new-game form and the settings screen.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <SFML/Graphics/RectangleShape.hpp>

#include "client/ui/board_view.h"
#include "client/ui/screens.h"
#include "client/words.h"
#include "common/variant.h"

namespace amazons::client::ui {

namespace {

// A title at the top of a form screen, and the column the form's widgets stand in.
struct Column {
  float x, w, top;
};
Column column(const Style& s, float width, float height, float max_width = 440) {
  const float w = std::min(s.f(max_width), width - s.f(48));
  return {std::round((width - w) / 2), w, std::round(std::max(s.f(40), height * 0.1f))};
}

// "~/.config/amazons" rather than the whole path under the home directory.
std::string home_relative(const std::filesystem::path& p) {
  const char* home = std::getenv("HOME");
  const std::string text = p.string();
  if (home == nullptr || *home == '\0') return text;
  const std::string prefix = std::string(home) + "/";
  return text.rfind(prefix, 0) == 0 ? "~/" + text.substr(prefix.size()) : text;
}

void draw_heading(sf::RenderTarget& t, const Style& s, const Column& c, const std::string& title,
                  const std::string& subtitle) {
  draw_text(t, s.fonts->bold, title, s.px(34), c.x, c.top + s.f(18), colors::kText);
  if (!subtitle.empty())
    draw_text(t, s.fonts->regular, subtitle, s.px(16), c.x, c.top + s.f(56), colors::kMuted);
}

// ---- main menu ----

class MenuScreen final : public Screen {
 public:
  // A form: it changes only on events.
  bool changes_by_itself(SteadyTime) const override { return false; }
  explicit MenuScreen(App& app) : Screen(app) {
    const Catalogue& t = app_.tr();
    computer_.label = t("home.play_computer");
    hotseat_.label = t("desktop.menu.two_players");
    online_.label = t("menu.online");
    host_.label = t("desktop.menu.host");
    resume_.label = t("desktop.menu.resume");
    replay_.label = t("desktop.menu.replay");
    settings_.label = t("nav.settings");
    quit_.label = t("menu.quit");
    computer_.on_click = [this] { app_.show(make_computer_setup_screen(app_)); };
    hotseat_.on_click = [this] { app_.show(make_new_game_screen(app_)); };
    online_.on_click = [this] { app_.show(make_connect_screen(app_)); };
    host_.on_click = [this] { app_.show(make_host_screen(app_)); };
    resume_.on_click = [this] { resume(); };
    replay_.on_click = [this] { app_.show(make_replay_list_screen(app_)); };
    settings_.on_click = [this] { app_.show(make_settings_screen(app_)); };
    quit_.on_click = [this] { app_.quit(); };
    for (Widget* w : std::initializer_list<Widget*>{&computer_, &hotseat_, &online_, &host_,
                                                    &resume_, &replay_, &settings_, &quit_})
      widgets_.add(*w);
    if (auto unfinished = app_.store().load_unfinished()) {
      if (*unfinished) {
        resumable_ = std::move(**unfinished);
        resume_.label = t("desktop.menu.resume_game", {{"white", player_name(t, resumable_->white)},
                                                       {"black", player_name(t, resumable_->black)},
                                                       {"move", resumable_->moves.size() + 1}});
      } else {
        app_.notify(t("desktop.menu.cannot_resume", {{"error", unfinished->error()}}), true);
      }
    }
    resume_.visible = resumable_.has_value();
  }

  std::string name() const override { return "menu"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    width_ = w;
    height_ = h;
    // Seven entries and Quit fit under the title down to the smallest window (480 px high); as
    // wide as the longest entry needs (longer in some languages), up to the window's.
    float bw = s.f(360);
    for (Button* b : {&computer_, &hotseat_, &online_, &host_, &resume_, &replay_, &settings_})
      bw = std::max(bw, b->natural_width(s));
    bw = std::min(bw, w - s.f(48));
    const float bh = s.f(44), gap = s.f(10);
    float y = std::round(h * 0.34f);
    for (Button* b : {&computer_, &hotseat_, &online_, &host_, &resume_, &replay_, &settings_}) {
      if (!b->visible) continue;
      b->rect = {std::round((w - bw) / 2), y, bw, bh};
      y += bh + gap;
    }
    quit_.rect = {std::round((w - bw) / 2), y + s.f(10), bw, s.f(44)};
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape) app_.quit();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    // A row of queens and burned squares above the title, in the board's colours.
    const float sq = s.f(46);
    const int n = 7;
    const float x0 = std::round((width_ - sq * n) / 2), y0 = std::round(height_ * 0.09f);
    for (int i = 0; i < n; ++i) {
      sf::RectangleShape cell({sq, sq});
      cell.setPosition(x0 + sq * static_cast<float>(i), y0);
      cell.setFillColor(
          to_sf(i % 2 ? app_.settings().light_squares : app_.settings().dark_squares));
      t.draw(cell);
    }
    draw_queen(t, s, Color::White, x0 + sq * 1.5f, y0 + sq / 2, sq);
    draw_queen(t, s, Color::Black, x0 + sq * 5.5f, y0 + sq / 2, sq);
    const Catalogue& tr = app_.tr();
    draw_text(t, s.fonts->bold, tr("desktop.menu.title"), s.px(60), width_ / 2, y0 + sq + s.f(58),
              colors::kAccent, Align::Center);
    draw_text(t, s.fonts->regular, tr("desktop.menu.subtitle"), s.px(18), width_ / 2,
              y0 + sq + s.f(108), colors::kMuted, Align::Center);
    widgets_.draw(t, s);
    draw_text(t, s.fonts->regular, tr("desktop.menu.playing_as", {{"name", app_.settings().name}}),
              s.px(14), width_ / 2, height_ - s.f(18), colors::kMuted, Align::Center);
    if (const std::string hosting = hosting_line(app_); !hosting.empty())
      draw_text(t, s.fonts->regular, hosting, s.px(15), width_ / 2, height_ - s.f(42),
                colors::kAccent, Align::Center);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"hosting", hosting_line(app_)}};
  }

 private:
  void resume() {
    SessionSetup setup;
    setup.game = *resumable_;
    setup.store = app_.store();
    if (auto problem = add_computer(setup)) {
      app_.notify(app_.tr()("desktop.menu.cannot_resume", {{"error", *problem}}), true);
      return;
    }
    app_.show(make_game_screen(app_, std::move(setup)));
  }

  Button computer_{"computer", "Play the computer", ButtonStyle::Primary};
  Button hotseat_{"hotseat", "Two players"};
  Button online_{"online", "Play online"};
  Button host_{"host", "Host a game on this computer"};
  Button resume_{"resume", "Resume game"};
  Button replay_{"replay", "Replay a game"};
  Button settings_{"settings", "Settings"};
  Button quit_{"quit", "Quit", ButtonStyle::Quiet};
  WidgetSet widgets_;
  std::optional<GameRecord> resumable_;
  float width_ = 0, height_ = 0;
};

}  // namespace

std::optional<std::string> start_new_game(App& app, SessionSetup setup) {
  auto shelved = app.store().shelve_unfinished();
  if (!shelved) return app.tr()("tui.shelve_failed", {{"error", shelved.error()}});
  if (*shelved) app.notify(app.tr()("tui.shelved"));
  app.show(make_game_screen(app, std::move(setup)));
  return std::nullopt;
}

namespace {

class NewGameScreen final : public Screen {
 public:
  // A form: it changes only on events.
  bool changes_by_itself(SteadyTime) const override { return false; }
  explicit NewGameScreen(App& app)
      : Screen(app), variants_(known_variants(app.options().rules_dir)), times_(time_choices()) {
    const Catalogue& t = app_.tr();
    white_.label = t("side.white");
    black_.label = t("side.black");
    rules_.label = t("setup.rules");
    time_.label = t("desktop.time_control");
    start_.label = t("setup.start");
    back_.label = t("common.back");
    white_.text = app_.settings().name;
    black_.text = t("tui.two.guest");
    for (const RuleVariant& v : variants_) {
      rules_.options.push_back(variant_text(t, v));
      if (v.name == app_.settings().last_variant) rules_.index = rules_.options.size() - 1;
    }
    for (const TimeChoice& choice : times_) {
      time_.options.push_back(time_choice_text(t, choice.control));
      if (to_string(choice.control) == app_.settings().last_time_control)
        time_.index = time_.options.size() - 1;
    }
    start_.on_click = [this] { start(); };
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    for (Widget* w :
         std::initializer_list<Widget*>{&white_, &black_, &rules_, &time_, &start_, &back_})
      widgets_.add(*w);
  }

  std::string name() const override { return "new_game"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    col_ = column(s, w, h);
    float y = col_.top + s.f(120);
    const float fh = s.f(46), gap = s.f(34);
    for (Widget* wd : std::initializer_list<Widget*>{&white_, &black_, &rules_, &time_}) {
      wd->rect = {col_.x, y, col_.w, fh};
      y += fh + gap;
    }
    const float bw = (col_.w - s.f(14)) / 2;
    back_.rect = {col_.x, y + s.f(6), bw, s.f(50)};
    start_.rect = {col_.x + bw + s.f(14), y + s.f(6), bw, s.f(50)};
    error_y_ = y + s.f(84);
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type != sf::Event::KeyPressed) return;
    if (e.key.code == sf::Keyboard::Escape) app_.show(make_menu_screen(app_));
    if (e.key.code == sf::Keyboard::Enter) start();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_heading(t, s, col_, app_.tr()("tui.two.title"), app_.tr()("desktop.two.subtitle"));
    widgets_.draw(t, s);
    if (!error_.empty())
      draw_text(t, s.fonts->regular, error_, s.px(15), col_.x, error_y_, colors::kDanger);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"error", error_}};
  }

 private:
  void start() {
    for (TextField* f : {&white_, &black_})
      if (auto why = name_problem(f->text)) {
        error_ = f->label + ": " + name_problem_text(app_.tr(), *why);
        return;
      }
    const RuleVariant& rules = variants_[rules_.index];
    const TimeControl tc = times_[time_.index].control;
    app_.settings().last_variant = rules.name;
    app_.settings().last_time_control = to_string(tc);
    app_.save_settings();
    SessionSetup setup;
    setup.game.rules = rules;
    setup.game.time_control = tc;
    setup.game.white = {white_.text, false, std::nullopt};
    setup.game.black = {black_.text, false, std::nullopt};
    setup.store = app_.store();
    if (auto problem = start_new_game(app_, std::move(setup))) error_ = *problem;
  }

  std::vector<RuleVariant> variants_;
  std::vector<TimeChoice> times_;
  TextField white_{"white_name", "White", kMaxNameLength};
  TextField black_{"black_name", "Black", kMaxNameLength};
  Selector rules_{"rules", "Rules", {}};
  Selector time_{"time_control", "Time control", {}};
  Button start_{"start", "Start game", ButtonStyle::Primary};
  Button back_{"back", "Back"};
  WidgetSet widgets_;
  Column col_{};
  float error_y_ = 0;
  std::string error_;
};

// ---- settings ----

class SettingsScreen final : public Screen {
 public:
  // A form: it changes only on events.
  bool changes_by_itself(SteadyTime) const override { return false; }
  explicit SettingsScreen(App& app) : Screen(app), edited_(app.settings()) {
    const Catalogue& t = app_.tr();
    name_.label = t("desktop.settings.name");
    theme_.label = t("desktop.settings.board_colours");
    coordinates_.label = t("desktop.settings.coordinates");
    territory_.label = t("desktop.settings.territory");
    sound_.label = t("desktop.settings.sound");
    language_.label = t("settings.language");
    save_.label = t("settings.save");
    back_.label = t("common.cancel");
    // Each language by its own name, so that a person finds theirs whatever is spoken now.
    language_.options.push_back(t("settings.language.system"));
    language_tags_.emplace_back();
    for (const auto& [tag, own_name] : app_.languages()) {
      language_.options.push_back(own_name);
      language_tags_.push_back(tag);
      if (tag == edited_.language) language_.index = language_.options.size() - 1;
    }
    language_.on_change = [this] { edited_.language = language_tags_[language_.index]; };
    name_.text = edited_.name;
    for (const BoardTheme& th : board_themes()) {
      std::string key = "settings.board." + std::string(th.name);
      for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      theme_.options.push_back(t.knows(key) ? t(key) : std::string(th.name));
    }
    theme_.index = theme_.options.size();
    for (std::size_t i = 0; i < board_themes().size(); ++i)
      if (board_themes()[i].light == edited_.light_squares &&
          board_themes()[i].dark == edited_.dark_squares)
        theme_.index = i;
    if (theme_.index == theme_.options.size())
      theme_.options.emplace_back(t("desktop.settings.custom"));
    theme_.on_change = [this] {
      if (theme_.index < board_themes().size()) {
        edited_.light_squares = board_themes()[theme_.index].light;
        edited_.dark_squares = board_themes()[theme_.index].dark;
      }
    };
    coordinates_.value = edited_.coordinates;
    coordinates_.on_change = [this] { edited_.coordinates = coordinates_.value; };
    territory_.value = edited_.territory_view;
    territory_.on_change = [this] { edited_.territory_view = territory_.value; };
    sound_.value = edited_.sound;
    sound_.on_change = [this] { edited_.sound = sound_.value; };
    save_.on_click = [this] { save(); };
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    for (Widget* w : std::initializer_list<Widget*>{&name_, &language_, &theme_, &coordinates_,
                                                    &territory_, &sound_, &save_, &back_})
      widgets_.add(*w);
  }

  std::string name() const override { return "settings"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    col_ = column(s, w, h);
    float y = col_.top + s.f(120);
    name_.rect = {col_.x, y, col_.w, s.f(46)};
    y += s.f(80);
    language_.rect = {col_.x, y, col_.w, s.f(46)};
    y += s.f(80);
    theme_.rect = {col_.x, y, col_.w, s.f(46)};
    y += s.f(56);
    preview_ = {col_.x, y, col_.w, std::floor(col_.w / 10)};
    y += preview_.h + s.f(22);
    coordinates_.rect = {col_.x, y, col_.w, s.f(36)};
    y += s.f(50);
    territory_.rect = {col_.x, y, col_.w, s.f(36)};
    y += s.f(50);
    sound_.rect = {col_.x, y, col_.w, s.f(36)};
    y += s.f(66);
    const float bw = (col_.w - s.f(14)) / 2;
    back_.rect = {col_.x, y, bw, s.f(50)};
    save_.rect = {col_.x + bw + s.f(14), y, bw, s.f(50)};
    error_y_ = y + s.f(78);
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type != sf::Event::KeyPressed) return;
    if (e.key.code == sf::Keyboard::Escape) app_.show(make_menu_screen(app_));
    if (e.key.code == sf::Keyboard::Enter) save();
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    draw_heading(
        t, s, col_, app_.tr()("nav.settings"),
        app_.tr()("desktop.settings.kept", {{"dir", home_relative(app_.options().config_dir)}}));
    widgets_.draw(t, s);
    // The chosen colours as a strip of squares with a queen of each side.
    const int n = 10;
    const float sq = preview_.h;
    for (int i = 0; i < n; ++i) {
      sf::RectangleShape cell({sq, sq});
      cell.setPosition(preview_.x + sq * static_cast<float>(i), preview_.y);
      cell.setFillColor(to_sf(i % 2 ? edited_.light_squares : edited_.dark_squares));
      t.draw(cell);
    }
    draw_queen(t, s, Color::White, preview_.x + sq * 2.5f, preview_.y + sq / 2, sq);
    draw_queen(t, s, Color::Black, preview_.x + sq * 7.5f, preview_.y + sq / 2, sq);
    if (!error_.empty())
      draw_text(t, s.fonts->regular, error_, s.px(15), col_.x, error_y_, colors::kDanger);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()}, {"error", error_}};
  }

 private:
  void save() {
    if (auto why = name_problem(name_.text)) {
      error_ = app_.tr()("online.bad_name", {{"error", name_problem_text(app_.tr(), *why)}});
      return;
    }
    edited_.name = name_.text;
    app_.settings() = edited_;
    app_.save_settings();
    app_.load_catalogue();
    app_.notify(app_.tr()("desktop.settings.saved"));
    app_.show(make_menu_screen(app_));
  }

  Settings edited_;
  TextField name_{"name", "Your name", kMaxNameLength};
  Selector theme_{"board_theme", "Board colours", {}};
  Toggle coordinates_{"coordinates", "Coordinates around the board"};
  Toggle territory_{"territory_view", "Territory view in games"};
  Toggle sound_{"sound", "Sound"};
  Selector language_{"language", "Language", {}};
  std::vector<std::string> language_tags_;
  Button save_{"save", "Save", ButtonStyle::Primary};
  Button back_{"back", "Cancel"};
  WidgetSet widgets_;
  Column col_{};
  Rect preview_;
  float error_y_ = 0;
  std::string error_;
};

}  // namespace

std::unique_ptr<Screen> make_menu_screen(App& app) { return std::make_unique<MenuScreen>(app); }
std::unique_ptr<Screen> make_new_game_screen(App& app) {
  return std::make_unique<NewGameScreen>(app);
}
std::unique_ptr<Screen> make_settings_screen(App& app) {
  return std::make_unique<SettingsScreen>(app);
}

}  // namespace amazons::client::ui
