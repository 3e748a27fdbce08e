#include "tui/app.h"

namespace amazons::tui {

namespace {
constexpr auto kNoticeTime = std::chrono::seconds(6);
}

App::App(AppOptions options) : options_(std::move(options)) {
  client::LoadedSettings loaded = client::load_settings(options_.config_dir / "settings.json");
  settings_ = std::move(loaded.settings);
  if (options_.name) settings_.name = *options_.name;
  languages_ = client::catalogue_languages(options_.i18n_dir);
  load_catalogue();
  if (!loaded.problems.empty()) notify(loaded.problems.front(), true);
  if (options_.replay_file)
    screen_ = make_replay_file_screen(*this, *options_.replay_file,
                                      [this] { return make_menu_screen(*this); });
  else
    screen_ = options_.server ? make_connect_screen(*this) : make_menu_screen(*this);
  swap_screen();
}

App::~App() {
  // Screens leave their games (an unfinished local game stays saved) before the rest goes.
  next_.reset();
  screen_.reset();
  log_.reset();
  if (log_file_) std::fclose(log_file_);
}

void App::load_catalogue() {
  const std::string language =
      options_.language ? client::choose_language(*options_.language, languages_, options_.env)
                        : client::choose_language(settings_.language, languages_, options_.env);
  client::Catalogue::Loaded loaded = client::Catalogue::load(options_.i18n_dir, language);
  catalogue_ = std::move(loaded.catalogue);
  for (const std::string& problem : loaded.problems) {
    log("catalogue", {{"problem", problem}});
    notify(problem, true);
  }
}

void App::set_language(std::string setting) {
  settings_.language = std::move(setting);
  options_.language.reset();
  save_settings();
  load_catalogue();
}

void App::log(std::string_view event, Log::Fields fields) {
  if (!log_) {
    std::error_code ec;
    std::filesystem::create_directories(options_.data_dir, ec);
    log_file_ = std::fopen((options_.data_dir / "amazons-tui.log").c_str(), "a");
    if (!log_file_) return;
    log_ = std::make_unique<Log>(log_file_, Log::Level::Info);
  }
  log_->info(event, fields);
}

void App::save_settings() {
  if (auto problem = client::save_settings(options_.config_dir / "settings.json", settings_))
    notify(*problem, true);
}

const client::ComputerConfig& App::computer() {
  if (!computer_) computer_ = client::load_computer_config(options_.ai_config);
  return *computer_;
}

void App::show(std::unique_ptr<Screen> screen) { next_ = std::move(screen); }

void App::swap_screen() {
  if (next_) screen_ = std::move(next_);
}

void App::notify(std::string text, bool error) { notice_ = Notice{std::move(text), error, {}}; }

void App::key(const Key& k) {
  if (screen_) screen_->key(k);
  swap_screen();
}

void App::tick(SteadyTime now) {
  if (screen_) screen_->tick(now);
  swap_screen();
  if (notice_ && notice_->until && now > *notice_->until) notice_.reset();
}

void App::draw(Canvas& c, SteadyTime now) {
  if (screen_) screen_->draw(c, now);
  if (!notice_) return;
  if (!notice_->until) notice_->until = now + kNoticeTime;
  const int y = c.height() - 1;
  c.fill(0, y, c.width(), 1);
  c.text(0, y, notice_->text, {notice_->error ? Ink::Danger : Ink::Good, Ink::Default, true},
         c.width());
}

}  // namespace amazons::tui
