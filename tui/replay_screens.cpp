// The saved games on this computer, and stepping through one (saved or from a server's
// archive) with client::ReplayModel.
#include "client/game_store.h"
#include "client/replay_model.h"
#include "client/words.h"
#include "tui/app.h"
#include "tui/board_draw.h"

namespace amazons::tui {

namespace {

// Files of other programs put in <data>/imports come first, then the saved games.
class ReplayListScreen final : public Screen {
 public:
  explicit ReplayListScreen(App& app)
      : Screen(app),
        imports_(client::importable_files(app.options().data_dir / "imports")),
        entries_(app.store().list()) {}

  void key(const Key& k) override {
    using C = Key::Code;
    if (k.code == C::Escape || k.is(U'q')) return app_.show(make_menu_screen(app_));
    const std::size_t count = imports_.size() + entries_.size();
    if (count == 0) return;
    if (k.code == C::Up && focus_ > 0) --focus_;
    if (k.code == C::Down && focus_ + 1 < count) ++focus_;
    if (k.code == C::Enter && focus_ < imports_.size()) {
      App& app = app_;
      return app_.show(make_replay_file_screen(app_, imports_[focus_],
                                               [&app] { return make_replay_list_screen(app); }));
    }
    if (k.code == C::Enter) {
      const auto& e = entries_[focus_ - imports_.size()];
      if (!e.record) {
        app_.notify(app_.tr()("tui.replays.unreadable", {{"problem", e.problem}}), true);
        return;
      }
      App& app = app_;
      app_.show(
          make_replay_screen(app_, *e.record, [&app] { return make_replay_list_screen(app); }));
    }
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    c.text(2, 1, t("tui.replays.title"), {Ink::Accent, Ink::Default, true});
    if (entries_.empty() && imports_.empty()) c.text(2, 3, t("tui.replays.none"), {Ink::Muted});
    const int rows = c.height() - 6;
    const std::size_t first =
        focus_ >= static_cast<std::size_t>(rows) ? focus_ - static_cast<std::size_t>(rows) + 1 : 0;
    int y = 3;
    for (std::size_t i = first; i < imports_.size() && y < 3 + rows; ++i, ++y) {
      const bool f = i == focus_;
      c.text(2, y, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
      c.text(
          4, y,
          elide(t("tui.replays.open", {{"file", imports_[i].filename().string()}}), c.width() - 6),
          {f ? Ink::Accent : Ink::Text, Ink::Default, f});
    }
    for (std::size_t i = first > imports_.size() ? first - imports_.size() : 0;
         i < entries_.size() && y < 3 + rows; ++i, ++y) {
      const auto& e = entries_[i];
      const bool f = i + imports_.size() == focus_;
      const std::string line = e.record ? client::game_summary(t, *e.record)
                                        : e.file.filename().string() + ": " + e.problem;
      c.text(2, y, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
      c.text(4, y, elide(line, c.width() - 6),
             {f          ? Ink::Accent
              : e.record ? Ink::Text
                         : Ink::Danger,
              Ink::Default, f});
    }
    c.wrapped_above(2, c.height() - 2, t("tui.replays.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  std::vector<std::filesystem::path> imports_;
  std::vector<client::GameStore::Entry> entries_;
  std::size_t focus_ = 0;
};

class ReplayScreen final : public Screen {
 public:
  ReplayScreen(App& app, client::ReplayModel model, std::function<std::unique_ptr<Screen>()> back)
      : Screen(app), model_(std::move(model)), back_(std::move(back)) {}

  void key(const Key& k) override {
    using C = Key::Code;
    if (k.code == C::Escape || k.is(U'q')) return app_.show(back_());
    if (k.code == C::Right || k.is(U'n') || k.is(U' ')) model_.forward();
    if (k.code == C::Left || k.is(U'p')) model_.back();
    if (k.code == C::Home) model_.to_start();
    if (k.code == C::End) model_.to_end();
    if (k.code == C::PageDown) model_.jump(model_.ply() + 10);
    if (k.code == C::PageUp) model_.jump(model_.ply() > 10 ? model_.ply() - 10 : 0);
    if (k.is(U'e') || k.is(U's')) {
      const auto file = client::export_replay(
          model_, app_.options().data_dir,
          k.is(U's') ? client::ExportFormat::Sgf : client::ExportFormat::Text);
      if (file)
        app_.notify(app_.tr()("tui.replay.exported", {{"file", file->string()}}));
      else
        app_.notify(app_.tr()("tui.replay.export_failed", {{"error", file.error()}}), true);
    }
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    const GameRecord& r = model_.record();
    const BoardFit fit = fit_board(r.rules.size, c.width() - 33, c.height() - 4);
    BoardMarks marks;
    marks.last_move = model_.last_move();
    draw_board(c, 1, 1, fit, model_.position(), marks, {app_.options().ascii, false});
    const int px = 1 + fit.width() + 3, pw = c.width() - px - 1;
    c.text(px, 1, t("game.replay"), {Ink::Accent, Ink::Default, true});
    c.text(px, 2,
           t("tui.replay.player",
             {{"side", t("side.white")}, {"name", client::player_name(t, r.white)}}),
           {Ink::Text}, pw);
    c.text(px, 3,
           t("tui.replay.player",
             {{"side", t("side.black")}, {"name", client::player_name(t, r.black)}}),
           {Ink::Text}, pw);
    const std::string progress =
        model_.ply() == 0 ? t("tui.replay.start")
                          : t("replay.ply", {{"ply", model_.ply()}, {"plies", model_.size()}});
    c.text(px, 5, progress, {Ink::Text, Ink::Default, true}, pw);
    const std::string result =
        r.result ? t("replay.result", {{"title", client::result_title(t, *r.result)},
                                       {"reason", client::result_reason(t, *r.result)}})
                 : t("tui.replay.unfinished");
    c.wrapped(px, 6, result, {Ink::Muted}, pw, 2);
    const std::vector<client::MoveRow> rows = model_.move_rows();
    const int top = 9, room = c.height() - 3 - top;
    // The row of the shown move stays in view.
    const std::size_t current = model_.ply() == 0 ? 0 : (model_.ply() - 1) / 2;
    std::size_t first = 0;
    if (room > 0 && current >= static_cast<std::size_t>(room))
      first = current - static_cast<std::size_t>(room) + 1;
    int y = top;
    for (std::size_t i = first; i < rows.size() && y < top + room; ++i, ++y) {
      std::string line = std::to_string(rows[i].number) + ".";
      line.resize(5, ' ');
      line += rows[i].first;
      line.resize(17, ' ');
      line += rows[i].second;
      c.text(px, y, line, {i == current && model_.ply() > 0 ? Ink::Accent : Ink::Text}, pw);
    }
    c.wrapped_above(1, c.height() - 2, t("tui.replay.keys"), {Ink::Muted}, c.width() - 2, 2);
  }

 private:
  client::ReplayModel model_;
  std::function<std::unique_ptr<Screen>()> back_;
};

}  // namespace

std::unique_ptr<Screen> make_replay_list_screen(App& app) {
  return std::make_unique<ReplayListScreen>(app);
}

std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record,
                                           std::function<std::unique_ptr<Screen>()> back) {
  auto model = client::ReplayModel::make(std::move(record));
  if (!model) {
    app.notify(app.tr()("tui.replay.cannot", {{"error", model.error()}}), true);
    return back();
  }
  return std::make_unique<ReplayScreen>(app, std::move(model).value(), std::move(back));
}

std::unique_ptr<Screen> make_replay_file_screen(App& app, const std::filesystem::path& file,
                                                std::function<std::unique_ptr<Screen>()> back) {
  auto model = client::ReplayModel::open(file);
  if (!model) {
    app.notify(model.error(), true);
    return back();
  }
  return std::make_unique<ReplayScreen>(app, std::move(model).value(), std::move(back));
}

}  // namespace amazons::tui
