// The list of finished games, and stepping through one of them.
#include <algorithm>
#include <cmath>

#include <SFML/Graphics/CircleShape.hpp>
#include <SFML/Graphics/ConvexShape.hpp>
#include <SFML/Graphics/RectangleShape.hpp>
#include <SFML/Graphics/VertexArray.hpp>

#include "client/analysis_model.h"
#include "client/computer_game.h"
#include "client/replay_model.h"
#include "client/ui/board_view.h"
#include "client/ui/game_panel.h"
#include "client/ui/screens.h"
#include "client/user_files.h"
#include "client/words.h"
#include "common/notation.h"
#include "common/position_text.h"

namespace amazons::client::ui {

namespace {

// A thick segment from a to b ending in an arrowhead `head` pixels long.
void draw_pointer(sf::RenderTarget& t, sf::Vector2f a, sf::Vector2f b, float thickness, float head,
                  sf::Color color) {
  const sf::Vector2f d = b - a;
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (len < 1) return;
  const sf::Vector2f u = d / len, n{-u.y, u.x};
  const sf::Vector2f base = b - u * head;
  sf::ConvexShape shaft(4);
  shaft.setPoint(0, a + n * (thickness / 2));
  shaft.setPoint(1, base + n * (thickness / 2));
  shaft.setPoint(2, base - n * (thickness / 2));
  shaft.setPoint(3, a - n * (thickness / 2));
  shaft.setFillColor(color);
  t.draw(shaft);
  sf::ConvexShape tip(3);
  tip.setPoint(0, b);
  tip.setPoint(1, base + n * (head * 0.6f));
  tip.setPoint(2, base - n * (head * 0.6f));
  tip.setFillColor(color);
  t.draw(tip);
}

sf::Vector2f centre(const BoardGeometry& g, Square sq) {
  const Rect r = g.square_rect(sq);
  return {r.x + r.w / 2, r.y + r.h / 2};
}

// The engine's move on the board: the queen's path, then the arrow's flight from where it lands.
void draw_best_move(sf::RenderTarget& t, const BoardGeometry& g, Move m) {
  const float sq = g.square;
  const sf::Color queen{70, 190, 110, 200}, arrow{226, 120, 60, 200};
  draw_pointer(t, centre(g, m.from()), centre(g, m.to()), sq * 0.16f, sq * 0.34f, queen);
  draw_pointer(t, centre(g, m.to()), centre(g, m.arrow()), sq * 0.10f, sq * 0.26f, arrow);
  sf::CircleShape ring(sq * 0.36f);
  ring.setOrigin(sq * 0.36f, sq * 0.36f);
  ring.setPosition(centre(g, m.from()));
  ring.setFillColor(sf::Color::Transparent);
  ring.setOutlineThickness(std::max(2.f, sq * 0.05f));
  ring.setOutlineColor(queen);
  t.draw(ring);
}

const char* state_name(AnalysisJob::State s) {
  switch (s) {
    case AnalysisJob::State::Idle:
      return "idle";
    case AnalysisJob::State::Running:
      return "running";
    case AnalysisJob::State::Done:
      return "done";
    case AnalysisJob::State::Cancelled:
      return "cancelled";
    case AnalysisJob::State::Failed:
      return "failed";
  }
  return "";
}

class ReplayListScreen final : public Screen {
 public:
  explicit ReplayListScreen(App& app)
      : Screen(app),
        entries_(app.store().list()),
        imports_(importable_files(app.options().data_dir / "imports")) {
    const Catalogue& t = app_.tr();
    up_.label = t("desktop.replays.newer");
    down_.label = t("desktop.replays.older");
    back_.label = t("common.back");
    // Files of other programs (SGF, LittleGolem, move lists) put in <data>/imports come first.
    for (std::size_t i = 0; i < imports_.size(); ++i) {
      auto b = std::make_unique<Button>(
          "import" + std::to_string(i),
          t("tui.replays.open", {{"file", imports_[i].filename().string()}}), ButtonStyle::Normal);
      b->align = Align::Left;
      b->on_click = [this, i] {
        auto model = ReplayModel::open(imports_[i]);
        if (!model)
          return app_.notify(app_.tr()("tui.replay.cannot", {{"error", model.error()}}), true);
        app_.show(make_replay_screen(app_, model->record()));
      };
      widgets_.add(*b);
      rows_.push_back(std::move(b));
    }
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const auto& e = entries_[i];
      auto b = std::make_unique<Button>(
          "game" + std::to_string(i),
          e.record ? game_summary(t, *e.record)
                   : t("desktop.replays.unreadable", {{"file", e.file.filename().string()}}),
          ButtonStyle::Normal);
      b->align = Align::Left;
      b->enabled = e.record.has_value();
      b->on_click = [this, i] { app_.show(make_replay_screen(app_, *entries_[i].record)); };
      widgets_.add(*b);
      rows_.push_back(std::move(b));
    }
    up_.on_click = [this] { scroll(-1); };
    down_.on_click = [this] { scroll(1); };
    back_.on_click = [this] { app_.show(make_menu_screen(app_)); };
    for (Widget* w : std::initializer_list<Widget*>{&up_, &down_, &back_}) widgets_.add(*w);
  }

  std::string name() const override { return "replay_list"; }
  bool changes_by_itself(SteadyTime) const override { return false; }  // a list read once

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::MouseWheelScrolled) scroll(e.mouseWheelScroll.delta > 0 ? -1 : 1);
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape)
      app_.show(make_menu_screen(app_));
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    const Style& s = app_.style();
    const Catalogue& tr = app_.tr();
    draw_text(t, s.fonts->bold, tr("desktop.menu.replay"), s.px(34), x_, top_ + s.f(18),
              colors::kText);
    draw_text(t, s.fonts->regular,
              entries_.empty() ? tr("desktop.replays.none")
                               : tr("desktop.replays.count", {{"count", entries_.size()}}),
              s.px(16), x_, top_ + s.f(56), colors::kMuted);
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& e : entries_) files.push_back(e.file.string());
    nlohmann::json imports = nlohmann::json::array();
    for (const auto& f : imports_) imports.push_back(f.string());
    return {{"widgets", widgets_.describe()},
            {"files", files},
            {"imports", imports},
            {"first", first_}};
  }

 private:
  void scroll(int delta) {
    const int max_first = std::max(0, static_cast<int>(rows_.size()) - visible_);
    first_ = std::clamp(first_ + delta, 0, max_first);
    place();
  }

  void place() {
    const Style& s = app_.style();
    const float w = std::min(s.f(640), width_ - s.f(48));
    x_ = std::round((width_ - w) / 2);
    top_ = std::round(std::max(s.f(40), height_ * 0.08f));
    const float row_h = s.f(48), gap = s.f(10);
    const float list_top = top_ + s.f(100), list_bottom = height_ - s.f(120);
    visible_ = std::max(1, static_cast<int>((list_bottom - list_top + gap) / (row_h + gap)));
    first_ = std::clamp(first_, 0, std::max(0, static_cast<int>(rows_.size()) - visible_));
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const int slot = static_cast<int>(i) - first_;
      rows_[i]->visible = slot >= 0 && slot < visible_;
      rows_[i]->rect = {x_, list_top + static_cast<float>(slot) * (row_h + gap), w, row_h};
    }
    const bool scrollable = static_cast<int>(rows_.size()) > visible_;
    up_.visible = down_.visible = scrollable;
    const float by = height_ - s.f(90);
    back_.rect = {x_, by, s.f(160), s.f(48)};
    up_.rect = {x_ + w - s.f(2 * 110 + 10), by, s.f(110), s.f(48)};
    down_.rect = {x_ + w - s.f(110), by, s.f(110), s.f(48)};
    up_.enabled = first_ > 0;
    down_.enabled = first_ + visible_ < static_cast<int>(rows_.size());
  }

  std::vector<GameStore::Entry> entries_;
  std::vector<std::filesystem::path> imports_;
  std::vector<std::unique_ptr<Button>> rows_;
  Button up_{"scroll_up", "Newer"};
  Button down_{"scroll_down", "Older"};
  Button back_{"back", "Back"};
  WidgetSet widgets_;
  float width_ = 0, height_ = 0, x_ = 0, top_ = 0;
  int first_ = 0, visible_ = 1;
};

class ReplayScreen final : public Screen {
 public:
  ReplayScreen(App& app, ReplayModel model, std::function<std::unique_ptr<Screen>()> back)
      : Screen(app),
        model_(std::move(model)),
        close_to_(std::move(back)),
        job_(analysis_options(app.options())) {
    model_.to_end();
    const Catalogue& t = app_.tr();
    export_.label = t("desktop.replay.export");
    export_sgf_.label = t("desktop.replay.export_sgf");
    close_.label = t("common.back");
    cancel_.label = t("desktop.replay.cancel_analysis");
    points_ = graph_points(model_.record());
    analyse_.on_click = [this] { job_.start(model_.record()); };
    cancel_.on_click = [this] { job_.cancel(); };
    cancel_.visible = false;
    start_.on_click = [this] { model_.to_start(); };
    back_.on_click = [this] { model_.back(); };
    forward_.on_click = [this] { model_.forward(); };
    end_.on_click = [this] { model_.to_end(); };
    export_.on_click = [this] { export_as(ExportFormat::Text); };
    export_sgf_.on_click = [this] { export_as(ExportFormat::Sgf); };
    close_.on_click = [this] { app_.show(close_to_()); };
    for (Widget* w : std::initializer_list<Widget*>{&start_, &back_, &forward_, &end_, &export_,
                                                    &export_sgf_, &close_, &analyse_, &cancel_})
      widgets_.add(*w);
  }

  std::string name() const override { return "replay"; }

  void layout(float w, float h) override {
    const Style& s = app_.style();
    const BoardAndPanel layout = board_and_panel(s, w, h, model_.record().rules.size);
    geometry_ = layout.board;
    panel_ = layout.panel;
    const float bh = s.f(44), gap = s.f(10);
    const float nav_w = (panel_.w - 3 * gap) / 4;
    const float nav_y = panel_.bottom() - 2 * bh - gap;
    const float analyse_y = nav_y - bh - gap;
    analyse_.rect = cancel_.rect = {panel_.x, analyse_y, panel_.w, bh};
    float x = panel_.x;
    for (Button* b : {&start_, &back_, &forward_, &end_}) {
      b->rect = {std::round(x), nav_y, std::round(nav_w), bh};
      x += nav_w + gap;
    }
    place_button_row(s, {&export_, &export_sgf_, &close_},
                     {panel_.x, panel_.bottom() - bh, panel_.w, bh}, gap);
    graph_ = {panel_.x, panel_.y + s.f(128), panel_.w, s.f(92)};
    const float moves_top = graph_.bottom() + s.f(34);
    moves_ = {panel_.x, moves_top, panel_.w, analyse_y - gap - moves_top};
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (e.type == sf::Event::MouseButtonPressed && e.mouseButton.button == sf::Mouse::Left) {
      const auto x = static_cast<float>(e.mouseButton.x), y = static_cast<float>(e.mouseButton.y);
      for (const auto& [rect, ply] : move_cells_)
        if (rect.contains(x, y)) model_.jump(ply);
      // While an analysis runs the graph makes way for its progress.
      if (job_.state() != AnalysisJob::State::Running)
        if (auto ply = graph_ply_at(graph_, points_.size(), x, y)) model_.jump(*ply);
    }
    if (e.type == sf::Event::MouseWheelScrolled)
      e.mouseWheelScroll.delta > 0 ? model_.back() : model_.forward();
    if (e.type != sf::Event::KeyPressed) return;
    switch (e.key.code) {
      case sf::Keyboard::Left:
        model_.back();
        break;
      case sf::Keyboard::Right:
        model_.forward();
        break;
      case sf::Keyboard::Home:
        model_.to_start();
        break;
      case sf::Keyboard::End:
        model_.to_end();
        break;
      case sf::Keyboard::Escape:
        // Esc first stops a running analysis; the next one leaves.
        if (job_.state() == AnalysisJob::State::Running)
          job_.cancel();
        else
          app_.show(close_to_());
        break;
      default:
        break;
    }
  }

  void update(SteadyTime) override {
    start_.enabled = back_.enabled = model_.ply() > 0;
    forward_.enabled = end_.enabled = model_.ply() < model_.size();
    const bool running = job_.state() == AnalysisJob::State::Running;
    if (auto analysed = job_.take_result()) {
      ++results_;
      if (model_.annotate(*analysed)) {
        points_ = graph_points(model_.record());
        app_.notify(app_.tr()("desktop.replay.analysis_done"));
      }
    }
    cancel_.visible = running;
    analyse_.visible = !running;
    analyse_.enabled = model_.size() > 0;
    analyse_.label =
        app_.tr()(points_.empty() ? "desktop.replay.analyse" : "desktop.replay.analyse_again");
  }

  // At rest unless an analysis runs: then its progress and status, and the result it brings.
  bool changes_by_itself(SteadyTime) const override { return stamp() != drawn_; }
  FrameStamp stamp() const {
    FrameStamp out{results_, {}};
    if (job_.state() == AnalysisJob::State::Running)
      out.ticks = std::to_string(job_.done()) + '/' + std::to_string(job_.total()) + ' ' +
                  job_.status_text();
    return out;
  }

  void draw(sf::RenderTarget& t, SteadyTime) override {
    drawn_ = stamp();
    const Style& s = app_.style();
    BoardScene scene;
    scene.position = &model_.position();
    scene.last_move = model_.last_move();
    scene.coordinates = app_.settings().coordinates;
    scene.light = app_.settings().light_squares;
    scene.dark = app_.settings().dark_squares;
    draw_board(t, s, geometry_, scene);
    const auto best = best_move_at(model_.record(), model_.ply());
    if (best) draw_best_move(t, geometry_, *best);

    const GameRecord& r = model_.record();
    const Catalogue& tr = app_.tr();
    const float w = panel_.w;
    const std::string players = tr(
        "game.players", {{"white", player_name(tr, r.white)}, {"black", player_name(tr, r.black)}});
    draw_text(t, s.fonts->bold, elide(s.fonts->bold, players, s.px(22), w), s.px(22), panel_.x,
              panel_.y + s.f(16), colors::kText);
    const std::string result = r.result
                                   ? tr("replay.result", {{"title", result_title(tr, *r.result)},
                                                          {"reason", result_reason(tr, *r.result)}})
                                   : tr("tui.replay.unfinished");
    draw_text(t, s.fonts->regular, elide(s.fonts->regular, result, s.px(15), w), s.px(15), panel_.x,
              panel_.y + s.f(50), colors::kMuted);
    draw_text(t, s.fonts->regular,
              rules_name(tr, r.rules.name) + tr("online.separator") +
                  (r.time_control.kind == TimeControl::Kind::Unlimited
                       ? tr("time.no_clock")
                       : time_choice_text(tr, r.time_control)),
              s.px(15), panel_.x, panel_.y + s.f(76), colors::kMuted);
    const std::string progress =
        model_.ply() == 0 ? tr("tui.replay.start")
                          : tr("replay.ply", {{"ply", model_.ply()}, {"plies", model_.size()}});
    draw_text(t, s.fonts->bold, progress, s.px(17), panel_.x, panel_.y + s.f(108), colors::kAccent);
    draw_graph(t, s);
    draw_text(
        t, s.fonts->regular,
        elide(s.fonts->regular, next_move_comment(model_.record(), model_.ply()), s.px(14), w),
        s.px(14), panel_.x, graph_.bottom() + s.f(16), colors::kText);
    move_cells_ = draw_move_list(t, s, moves_, model_.move_rows(),
                                 model_.record().rules.first_to_move, model_.ply());
    widgets_.draw(t, s);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["ply"] = model_.ply();
    j["size"] = model_.size();
    j["position"] = to_text(model_.position());
    j["last_move"] = model_.last_move() ? to_string(*model_.last_move()) : "";
    j["exported"] = exported_;
    const auto best = best_move_at(model_.record(), model_.ply());
    nlohmann::json marks = nlohmann::json::array(), best_moves = nlohmann::json::array();
    for (std::size_t ply = 1; ply <= model_.size(); ++ply) {
      marks.push_back(mark_suffix(model_.record(), ply));
      const auto m = best_move_at(model_.record(), ply - 1);
      best_moves.push_back(m ? to_string(*m) : "");
    }
    j["analysis"] = {
        {"state", state_name(job_.state())},
        {"status", job_.status_text()},
        {"done", job_.done()},
        {"total", job_.total()},
        {"points", points_.size()},
        {"graph", {{"x", graph_.x}, {"y", graph_.y}, {"w", graph_.w}, {"h", graph_.h}}},
        {"marks", marks},
        {"best_moves", best_moves},
        {"best_move", best ? to_string(*best) : ""},
        {"comment", next_move_comment(model_.record(), model_.ply())}};
    return j;
  }

 private:
  void export_as(ExportFormat format) {
    auto file = export_replay(model_, app_.options().data_dir, format);
    if (!file) {
      app_.notify(app_.tr()("tui.replay.export_failed", {{"error", file.error()}}), true);
      return;
    }
    exported_ = file->string();
    app_.notify(app_.tr()("tui.replay.exported", {{"file", exported_}}));
  }

  static ai::AnalysisOptions analysis_options(const AppOptions& app) {
    const ComputerConfig engine = load_computer_config(ai::default_config_dir() / "ai.json");
    return ai::analysis_options(engine.config, Millis{app.analysis_movetime_ms});
  }

  // The evaluation graph: White's share above the middle line, Black's below, the shown
  // position as a vertical line, mistakes and blunders as dots; the analysis' progress instead
  // while there is no graph.
  void draw_graph(sf::RenderTarget& t, const Style& s) const {
    fill_rounded(t, graph_, s.f(8), colors::kPanel, colors::kBorder, 1);
    const float mid = graph_.y + graph_.h / 2, half = graph_.h / 2 - s.f(6);
    const std::string status = job_.status_text();
    if (points_.empty() || job_.state() == AnalysisJob::State::Running) {
      std::string text = status;
      if (text.empty()) text = (*s.tr)("desktop.replay.not_analysed");
      draw_text(t, s.fonts->regular, text, s.px(15), graph_.x + graph_.w / 2, mid, colors::kMuted,
                Align::Center);
      if (job_.state() == AnalysisJob::State::Running && job_.total() > 0) {
        const float share = static_cast<float>(job_.done()) / static_cast<float>(job_.total());
        sf::RectangleShape bar({(graph_.w - s.f(20)) * share, s.f(4)});
        bar.setPosition(graph_.x + s.f(10), graph_.bottom() - s.f(12));
        bar.setFillColor(colors::kAccent);
        t.draw(bar);
      }
      return;
    }
    sf::VertexArray area(sf::TriangleStrip);
    sf::VertexArray line(sf::LineStrip);
    const sf::Color fill{232, 230, 225, 70};
    for (const GraphPoint& p : points_) {
      const float x = graph_x(graph_, points_.size(), p.ply);
      const float y = mid - static_cast<float>(p.y) * half;
      area.append(sf::Vertex({x, mid}, fill));
      area.append(sf::Vertex({x, y}, fill));
      line.append(sf::Vertex({x, y}, colors::kText));
    }
    t.draw(area);
    sf::RectangleShape axis({graph_.w, 1});
    axis.setPosition(graph_.x, std::round(mid));
    axis.setFillColor(colors::kBorder);
    t.draw(axis);
    t.draw(line);
    for (const GraphPoint& p : points_) {
      const std::string mark = mark_suffix(model_.record(), p.ply);
      if (mark.empty()) continue;
      const float r = s.f(mark == "??" ? 4.5f : 3.5f);
      sf::CircleShape dot(r);
      dot.setOrigin(r, r);
      dot.setPosition(graph_x(graph_, points_.size(), p.ply), mid - static_cast<float>(p.y) * half);
      dot.setFillColor(mark == "??" ? colors::kDanger : colors::kAccent);
      t.draw(dot);
    }
    sf::RectangleShape here({s.f(2), graph_.h - s.f(4)});
    here.setPosition(std::round(graph_x(graph_, points_.size(), model_.ply()) - s.f(1)),
                     graph_.y + s.f(2));
    here.setFillColor(colors::kAccent);
    t.draw(here);
  }

  ReplayModel model_;
  std::function<std::unique_ptr<Screen>()> close_to_;  // where Back leads
  Button start_{"replay_start", "|<"};
  Button back_{"replay_back", "<"};
  Button forward_{"replay_forward", ">"};
  Button end_{"replay_end", ">|"};
  Button export_{"export", "Export"};
  Button export_sgf_{"export_sgf", "Export SGF"};
  Button close_{"back", "Back"};
  Button analyse_{"analyse", "Analyse this game", ButtonStyle::Primary};
  Button cancel_{"analysis_cancel", "Cancel analysis", ButtonStyle::Danger};
  AnalysisJob job_;
  std::uint64_t results_ = 0;  // analyses taken in
  FrameStamp drawn_;           // the stamp of the last frame drawn
  std::vector<GraphPoint> points_;
  WidgetSet widgets_;
  BoardGeometry geometry_;
  Rect panel_, moves_, graph_;
  std::vector<MoveCell> move_cells_;
  std::string exported_;
};

}  // namespace

std::unique_ptr<Screen> make_replay_list_screen(App& app) {
  return std::make_unique<ReplayListScreen>(app);
}

std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record) {
  return make_replay_screen(app, std::move(record),
                            [&app] { return make_replay_list_screen(app); });
}

std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record,
                                           std::function<std::unique_ptr<Screen>()> back) {
  auto model = ReplayModel::make(std::move(record));
  if (!model) {
    app.notify(app.tr()("tui.replay.cannot", {{"error", model.error()}}), true);
    return back();
  }
  return std::make_unique<ReplayScreen>(app, std::move(model).value(), std::move(back));
}

}  // namespace amazons::client::ui
