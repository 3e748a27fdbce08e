#include "client/ui/app.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <SFML/Graphics/RectangleShape.hpp>
#include <SFML/Graphics/Texture.hpp>
#include <SFML/Window/Event.hpp>

#include "client/replay_model.h"
#include "client/ui/screens.h"
#include "client/user_files.h"
#include "client/words.h"

namespace amazons::client::ui {

namespace {
constexpr auto kNoticeTime = std::chrono::seconds(5);
constexpr float kDesignHeight = 800;  // the window height at which the unit is 1
}  // namespace

App::App(AppOptions options, sf::RenderWindow& window, Fonts& fonts)
    : options_(std::move(options)), window_(window) {
  style_.fonts = &fonts;
  style_.tr = &catalogue_;
  LoadedSettings loaded = load_settings(options_.config_dir / "settings.json");
  settings_ = loaded.settings;
  for (const std::string& tag : catalogue_languages(options_.i18n_dir))
    languages_.emplace_back(tag,
                            Catalogue::load(options_.i18n_dir, tag).catalogue("language.name"));
  load_catalogue();
  sounds_.set_enabled(settings_.sound);
  if (!loaded.problems.empty()) notify(loaded.problems.front(), true);
  screen_ = options_.host ? make_host_screen(*this) : make_menu_screen(*this);
  if (options_.replay_file) {
    auto model = ReplayModel::open(*options_.replay_file);
    if (model)
      screen_ =
          make_replay_screen(*this, model->record(), [this] { return make_menu_screen(*this); });
    else
      notify(catalogue_("tui.replay.cannot", {{"error", model.error()}}), true);
  }
}

App::~App() = default;

void App::load_catalogue() {
  std::vector<std::string> tags;
  for (const auto& [tag, name] : languages_) tags.push_back(tag);
  const std::string language =
      choose_language(options_.language.value_or(settings_.language), tags);
  // --language sets the start; a language chosen in the settings later wins.
  options_.language.reset();
  Catalogue::Loaded loaded = Catalogue::load(options_.i18n_dir, language);
  catalogue_ = std::move(loaded.catalogue);
  if (!loaded.problems.empty()) notify(loaded.problems.front(), true);
  const std::string title = catalogue_("app.name");
  window_.setTitle(sf::String::fromUtf8(title.begin(), title.end()));
}

void App::show(std::unique_ptr<Screen> screen) { next_ = std::move(screen); }

void App::save_settings() {
  sounds_.set_enabled(settings_.sound);
  if (auto problem = client::save_settings(options_.config_dir / "settings.json", settings_))
    notify(catalogue_("desktop.settings.not_saved", {{"error", *problem}}), true);
}

void App::notify(const OnlineNotice& notice) {
  if (!notice.code.empty())
    log_.warn("server_refused",
              {{"code", notice.code}, {"reason", notice.reason}, {"message", notice.log}});
  else if (!notice.log.empty())
    log_.warn("online_notice", {{"text", notice.text}, {"detail", notice.log}});
  notify(notice.text, notice.error);
}

void App::notify(std::string message, bool error) {
  notice_ = std::move(message);
  notice_error_ = error;
  notice_until_ = std::chrono::steady_clock::now() + kNoticeTime * (error ? 2 : 1);
}

void App::relayout() {
  const sf::Vector2u size = window_.getSize();
  const float w = static_cast<float>(size.x), h = static_cast<float>(size.y);
  window_.setView(sf::View(sf::FloatRect(0, 0, w, h)));  // one unit per pixel: crisp edges
  style_.unit = std::clamp(std::min(h / kDesignHeight, w / (kDesignHeight * 1.25f)), 0.6f, 2.0f);
  screen_->layout(w, h);
}

void App::draw_notice(SteadyTime now) {
  if (notice_.empty() || now > notice_until_) return;
  const sf::Vector2u size = window_.getSize();
  const unsigned px = style_.px(15);
  const float pad = style_.f(14);
  const float w = std::min(static_cast<float>(size.x) - 2 * pad,
                           text_width(style_.fonts->regular, notice_, px) + 2 * pad);
  const Rect r{(static_cast<float>(size.x) - w) / 2, static_cast<float>(size.y) - style_.f(54), w,
               style_.f(38)};
  fill_rounded(window_, r, style_.f(8),
               notice_error_ ? sf::Color(90, 38, 34) : colors::kPanelRaised,
               notice_error_ ? colors::kDanger : colors::kBorder, 1);
  draw_text(window_, style_.fonts->regular,
            elide(style_.fonts->regular, notice_, px, r.w - 2 * pad), px, r.x + r.w / 2,
            r.y + r.h / 2, colors::kText, Align::Center);
}

void App::save_screenshot() {
  const auto file = options_.screenshot_dir /
                    ("amazons-" + screen_->name() + "-" + std::to_string(++screenshots_) + ".png");
  sf::Texture texture;
  const sf::Vector2u size = window_.getSize();
  std::error_code ec;
  std::filesystem::create_directories(options_.screenshot_dir, ec);
  bool saved = texture.create(size.x, size.y);
  if (saved) {
    texture.update(window_);
    saved = texture.copyToImage().saveToFile(file.string());
  }
  if (!saved)
    return notify(catalogue_("desktop.screenshot.failed", {{"file", file.string()}}), true);
  last_screenshot_ = file.string();
  notify(catalogue_("desktop.screenshot.saved", {{"file", file.string()}}));
}

void App::write_state() {
  nlohmann::json state = screen_->describe();
  state["screen"] = screen_->name();
  state["screenshots"] = screenshots_;
  state["last_screenshot"] = last_screenshot_;
  state["window"] = {{"w", window_.getSize().x}, {"h", window_.getSize().y}};
  state["frames_per_second"] = frames_per_second_;
  state["slowest_frame_ms"] = slowest_frame_ms_;
  const bool showing = !notice_.empty() && std::chrono::steady_clock::now() <= notice_until_;
  state["notice"] = showing ? notice_ : std::string();
  state["texts"] = drawn_;
  std::string text = state.dump();
  if (text == last_state_) return;
  last_state_ = std::move(text);
  // Failing to write the dump must not stop the game; scripted tests notice the silence.
  (void)write_file_atomically(*options_.state_file, last_state_ + "\n");
}

int App::run() {
  // A frame is drawn after a window event, while the screen changes by itself (animations,
  // clocks, a server's news) or a notice comes or goes, and once a second at rest (a window
  // uncovered repaints); between frames the loop sleeps to the frame rate. A screen at rest used
  // to be drawn 60 times a second: 13-20% of a core at the menu under Xvfb.
  constexpr auto kFrame = std::chrono::microseconds(1'000'000 / 60);
  constexpr auto kAtRest = std::chrono::seconds(1);
  window_.setFramerateLimit(60);
  relayout();
  measure_start_ = std::chrono::steady_clock::now();
  SteadyTime last_drawn{};
  bool notice_was_shown = false;
  while (window_.isOpen() && !quit_) {
    bool screenshot = false;
    bool event = false;
    sf::Event e;
    while (window_.pollEvent(e)) {
      event = true;
      if (e.type == sf::Event::Closed) {
        quit_ = true;
        break;
      }
      if (e.type == sf::Event::Resized) {
        relayout();
        continue;
      }
      if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::F12) {
        screenshot = true;
        continue;
      }
      screen_->handle(e);
      if (next_) {
        screen_ = std::move(next_);
        relayout();
      }
    }
    if (quit_) break;
    const SteadyTime now = std::chrono::steady_clock::now();
    screen_->update(now);
    // A screen that another's update() put up is drawn after its own first update(), which sets
    // its labels and state: before, it showed its constructor's defaults for a frame, and with
    // screens drawn only on change that frame could stay up for a second.
    for (int hops = 0; next_ && hops < 4; ++hops) {
      screen_ = std::move(next_);
      relayout();
      screen_->update(now);
      event = true;
    }
    const bool notice_shown = !notice_.empty() && now <= notice_until_;
    const bool draw = event || notice_shown != notice_was_shown ||
                      screen_->changes_by_itself(now) || now - last_drawn >= kAtRest;
    notice_was_shown = notice_shown;
    if (draw) {
      const SteadyTime began = std::chrono::steady_clock::now();
      window_.clear(colors::kBackground);
      // What this frame shows, for the state dump.
      drawn_.clear();
      if (options_.state_file) record_drawn_texts(&drawn_);
      screen_->draw(window_, now);
      if (screenshot) save_screenshot();  // before the notice it causes is drawn
      draw_notice(now);
      record_drawn_texts(nullptr);
      slowest_frame_ = std::max(slowest_frame_, std::chrono::steady_clock::now() - began);
      window_.display();  // waits out the frame rate's limit
      last_drawn = now;
      ++frames_;
    } else {
      std::this_thread::sleep_for(kFrame);
    }
    if (now - measure_start_ >= std::chrono::seconds(1)) {
      frames_per_second_ = frames_;
      frames_ = 0;
      slowest_frame_ms_ =
          static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(slowest_frame_).count());
      slowest_frame_ = {};
      measure_start_ = now;
    }
    if (options_.state_file) write_state();
  }
  screen_.reset();  // a running game is saved as it stands
  window_.close();
  return 0;
}

}  // namespace amazons::client::ui
