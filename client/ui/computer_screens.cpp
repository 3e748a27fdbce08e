// Playing the computer: the form that chooses level, colour and rules, and the engine settings
// every screen that starts such a game (new, resumed, rematch) shares.
#include <algorithm>
#include <cmath>
#include <random>

#include "ai/levels.h"
#include "client/computer_game.h"
#include "client/ui/screens.h"
#include "client/words.h"

namespace amazons::client::ui {

namespace {

// Read once, on first use (render thread only); a problem is shown every time it matters.
const ComputerConfig& computer_config() {
  static const ComputerConfig config = load_computer_config(ai::default_config_dir() / "ai.json");
  return config;
}

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

// Splits `text` at spaces into lines no wider than `width`.
std::vector<std::string> wrap(const sf::Font& font, const std::string& text, unsigned size,
                              float width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(font, longer, size) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = longer;
    }
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

enum class ColorChoice : std::uint8_t { White, Black, Random };

class ComputerSetupScreen final : public Screen {
 public:
  // A form: it changes only on events.
  bool changes_by_itself(SteadyTime) const override { return false; }
  explicit ComputerSetupScreen(App& app)
      : Screen(app), variants_(known_variants(app.options().rules_dir)) {
    const ComputerConfig& cc = computer_config();
    const Catalogue& t = app_.tr();
    level_.label = t("computer.level");
    color_.label = t("computer.colour");
    rules_.label = t("setup.rules");
    start_.label = t("setup.start");
    back_.label = t("common.back");
    if (cc.problem) app_.notify(*cc.problem, true);
    for (const ai::Level& l : cc.config.levels) {
      level_.options.push_back(level_name(t, l.name));
      if (l.name == cc.config.default_level) level_.index = level_.options.size() - 1;
    }
    // A first game deserves a gentle opponent; afterwards the last level chosen.
    if (const std::string& last = app_.settings().last_level; !last.empty())
      for (std::size_t i = 0; i < cc.config.levels.size(); ++i)
        if (cc.config.levels[i].name == last) level_.index = i;
    color_.options = {t("side.white"), t("side.black"), t("computer.colour.random")};
    for (const RuleVariant& v : variants_) {
      rules_.options.push_back(variant_text(t, v));
      if (v.name == app_.settings().last_variant) rules_.index = rules_.options.size() - 1;
    }
    start_.on_click = [this] { start(); };
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    for (Widget* w : std::initializer_list<Widget*>{&level_, &color_, &rules_, &start_, &back_})
      widgets_.add(*w);
  }

  std::string name() const override { return "computer_setup"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    const float cw = std::min(s.f(460), w - s.f(48));
    x_ = std::round((w - cw) / 2);
    w_ = cw;
    top_ = std::round(std::max(s.f(40), h * 0.1f));
    float y = top_ + s.f(120);
    const float fh = s.f(46), gap = s.f(34);
    level_.rect = {x_, y, w_, fh};
    description_y_ = y + fh + s.f(14);
    y += fh + s.f(70) + gap;
    for (Widget* wd : std::initializer_list<Widget*>{&color_, &rules_}) {
      wd->rect = {x_, y, w_, fh};
      y += fh + gap;
    }
    const float bw = (w_ - s.f(14)) / 2;
    back_.rect = {x_, y + s.f(6), bw, s.f(50)};
    start_.rect = {x_ + bw + s.f(14), y + s.f(6), bw, s.f(50)};
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
    const Catalogue& tr = app_.tr();
    draw_text(t, s.fonts->bold, tr("home.play_computer"), s.px(34), x_, top_ + s.f(18),
              colors::kText);
    draw_text(t, s.fonts->regular, tr("computer.setup.subtitle"), s.px(16), x_, top_ + s.f(56),
              colors::kMuted);
    widgets_.draw(t, s);
    float y = description_y_ + s.f(8);
    const std::string description = level_description(tr, level().name, level().description);
    for (const std::string& line : wrap(s.fonts->regular, description, s.px(15), w_)) {
      draw_text(t, s.fonts->regular, line, s.px(15), x_, y, colors::kMuted);
      y += s.f(21);
    }
    if (!error_.empty())
      draw_text(t, s.fonts->regular, error_, s.px(15), x_, error_y_, colors::kDanger);
  }

  nlohmann::json describe() const override {
    return {{"widgets", widgets_.describe()},
            {"level", level().name},
            {"description", level().description},
            {"error", error_}};
  }

 private:
  const ai::Level& level() const { return computer_config().config.levels[level_.index]; }

  void start() {
    const RuleVariant& rules = variants_[rules_.index];
    Color person = Color::White;
    switch (static_cast<ColorChoice>(color_.index)) {
      case ColorChoice::White:
        person = Color::White;
        break;
      case ColorChoice::Black:
        person = Color::Black;
        break;
      case ColorChoice::Random:
        person = std::bernoulli_distribution(0.5)(rng_) ? Color::White : Color::Black;
        break;
    }
    SessionSetup setup;
    setup.game.rules = rules;
    const PlayerInfo me{app_.settings().name, false, std::nullopt};
    const PlayerInfo engine{computer_name(level().name), true, std::nullopt};
    setup.game.white = person == Color::White ? me : engine;
    setup.game.black = person == Color::White ? engine : me;
    setup.store = app_.store();
    if (auto problem = add_computer(setup)) {
      error_ = app_.tr()("computer.cannot_play", {{"problem", *problem}});
      return;
    }
    app_.settings().last_variant = rules.name;
    app_.settings().last_level = level().name;
    app_.save_settings();
    if (auto problem = start_new_game(app_, std::move(setup))) error_ = *problem;
  }

  std::vector<RuleVariant> variants_;
  std::mt19937_64 rng_{fresh_seed()};
  Selector level_{"level", "Level", {}};
  Selector color_{"color", "Your colour", {}};
  Selector rules_{"rules", "Rules", {}};
  Button start_{"start", "Start game", ButtonStyle::Primary};
  Button back_{"back", "Back"};
  WidgetSet widgets_;
  float x_ = 0, w_ = 0, top_ = 0, description_y_ = 0, error_y_ = 0;
  std::string error_;
};

}  // namespace

std::optional<std::string> add_computer(SessionSetup& setup) {
  return add_computer_players(setup, computer_config().config, fresh_seed());
}

std::unique_ptr<Screen> make_computer_setup_screen(App& app) {
  return std::make_unique<ComputerSetupScreen>(app);
}

}  // namespace amazons::client::ui
