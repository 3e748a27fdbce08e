// The game screen: the board, both players with their clocks, the move list, the actions, and
// the result banner. The game itself runs in a GameSession; this screen only shows its events
// and passes on the moves entered here. In games against the computer it also shows the
// evaluation bar; in any game, the territory view when it is switched on.
#include <cmath>

#include <SFML/Graphics/RectangleShape.hpp>

#include "ai/evaluate.h"
#include "client/computer_game.h"
#include "client/eval_bar.h"
#include "client/move_input.h"
#include "client/ui/board_view.h"
#include "client/ui/game_panel.h"
#include "client/ui/screens.h"
#include "client/words.h"
#include "common/notation.h"
#include "common/position_text.h"

namespace amazons::client::ui {

namespace {

constexpr auto kResignConfirmTime = std::chrono::seconds(3);

// How many dots follow "thinking": one more every 0.4 s, from none to three.
std::size_t thinking_phase(SteadyTime now) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  return static_cast<std::size_t>(ms / 400 % 4);
}
const std::string kDot = " \u00B7 ";  // a middle dot between the parts of a line

// The empty squares each side reaches first by queen moves (the engine's territory map).
std::array<Bitboard, 2> territory_of(const Position& pos) {
  const ai::TerritoryMap map = ai::territory_map(pos);
  std::array<Bitboard, 2> out{};
  for (Square s : pos.empty_squares())
    if (auto owner = map.owner(s)) out[static_cast<std::size_t>(index_of(*owner))].set(s);
  return out;
}

nlohmann::json squares_json(Bitboard b) {
  nlohmann::json out = nlohmann::json::array();
  for (Square s : b) out.push_back(to_string(s));
  return out;
}

class GameScreen final : public Screen {
 public:
  GameScreen(App& app, std::unique_ptr<GameSession> session)
      : Screen(app),
        session_(std::move(session)),
        computer_(has_computer(session_->setup_record())) {
    const Catalogue& t = app_.tr();
    abort_.label = t("game.abort");
    rematch_.label = t("game.rematch");
    replay_.label = t("game.replay");
    leave_.label = t("desktop.game.menu");
    territory_.label = t("desktop.game.territory");
    territory_.value = app_.settings().territory_view;
    territory_.on_change = [this] {
      app_.settings().territory_view = territory_.value;
      app_.save_settings();
    };
    widgets_.add(territory_);
    resign_.on_click = [this] { resign(); };
    abort_.on_click = [this] { session_->abort(); };
    leave_.on_click = [this] { leave(); };
    rematch_.on_click = [this] { rematch(); };
    replay_.on_click = [this] {
      if (record_) app_.show(make_replay_screen(app_, *record_));
    };
    for (Button* b : {&resign_, &abort_, &rematch_, &replay_, &leave_}) widgets_.add(*b);
    update(std::chrono::steady_clock::now());
  }

  std::string name() const override { return "game"; }

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (widgets_.handle(e)) return;
    if (board_input_event(e, input_, geometry_, mouse_x_, mouse_y_)) submit();
  }

  void update(SteadyTime now) override {
    std::vector<GameEvent> events = session_->poll();
    news_ += events.size();
    for (GameEvent& event : events) std::visit([&](auto& ev) { on(ev); }, event);
    if (!vm_) return;
    const auto actions = vm_->actions();
    auto shown = [&](GameAction a) {
      return std::find(actions.begin(), actions.end(), a) != actions.end();
    };
    resign_.visible = shown(GameAction::Resign);
    abort_.visible = shown(GameAction::Abort);
    rematch_.visible = shown(GameAction::Rematch);
    replay_.visible = shown(GameAction::Replay) && record_.has_value();
    leave_.visible = true;
    const bool armed = resign_armed_ && now < *resign_armed_;
    if (!armed) resign_armed_.reset();
    resign_.label = app_.tr()(armed ? "game.resign.confirm" : "game.resign");
    resign_.style = armed ? ButtonStyle::Primary : ButtonStyle::Danger;
    place();
  }

  bool changes_by_itself(SteadyTime now) const override { return stamp(now) != drawn_; }

  // The session's events taken in, the clocks, the thinking mark's phase and the armed resign.
  FrameStamp stamp(SteadyTime now) const {
    FrameStamp out{news_, {}};
    if (!vm_) return out;
    out.ticks = clock_ticks(*vm_, now);
    if (vm_->thinking(vm_->to_move())) out.ticks += std::to_string(thinking_phase(now));
    if (resign_armed_) out.ticks += "armed";
    return out;
  }

  void draw(sf::RenderTarget& t, SteadyTime now) override {
    drawn_ = stamp(now);
    const Style& s = app_.style();
    if (!vm_) {
      draw_text(t, s.fonts->regular, app_.tr()("game.starting"), s.px(18), width_ / 2, height_ / 2,
                colors::kMuted, Align::Center);
      return;
    }
    BoardScene scene;
    scene.position = &shown_position();
    scene.last_move = submitted_ ? submitted_ : vm_->last_move();
    scene.coordinates = app_.settings().coordinates;
    scene.light = app_.settings().light_squares;
    scene.dark = app_.settings().dark_squares;
    if (territory_.value) scene.territory = territory(shown_position());
    show_input(scene, input_, geometry_, mouse_x_, mouse_y_);
    draw_board(t, s, geometry_, scene);

    const Color top = geometry_.flipped ? Color::White : Color::Black;
    draw_card(t, top, top_card_, now);
    draw_card(t, ~top, bottom_card_, now);
    if (computer_) draw_eval_bar(t);
    draw_move_list(t, s, moves_, vm_->move_rows(), vm_->rules().first_to_move, vm_->moves().size());
    const Catalogue& tr = app_.tr();
    const std::string status = !vm_->running()        ? reason_text()
                               : vm_->human_to_move() ? stage_hint(tr, input_.stage())
                                                      : game_status(tr, *vm_);
    draw_fitted(t, s.fonts->regular, status, s.px(15), s.px(12), panel_.x, status_y_, panel_.w,
                colors::kMuted);
    widgets_.draw(t, s);
    if (!vm_->running()) draw_banner(t);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["board"] = board_json(geometry_);
    if (!vm_) return j;
    j["position"] = to_text(vm_->position());
    j["to_move"] = color_name(vm_->to_move());
    j["human_to_move"] = vm_->human_to_move() && !submitted_;
    j["stage"] = stage_code(input_.stage());
    j["selected"] = input_.queen().is_none() ? "" : to_string(input_.queen());
    j["destination"] = input_.destination().is_none() ? "" : to_string(input_.destination());
    j["targets"] = squares_json(input_.targets());
    j["dragging"] = input_.drag_origin().has_value();
    nlohmann::json moves = nlohmann::json::array();
    for (Move m : vm_->moves()) moves.push_back(to_string(m));
    j["moves"] = std::move(moves);
    j["status"] = game_status(app_.tr(), *vm_);
    j["white"] = vm_->player(Color::White).name;
    j["black"] = vm_->player(Color::Black).name;
    j["time_control"] = to_string(time_control_);
    j["territory_view"] = territory_.value;
    if (territory_.value) {
      const auto& owned =
          territory_cache_ ? territory_cache_->second : territory_of(vm_->position());
      j["territory"] = {{"white", owned[0].count()}, {"black", owned[1].count()}};
    }
    if (computer_ && eval_)
      j["eval"] = {{"white_share", eval_->white_share}, {"label", eval_->label}};
    if (const auto& r = vm_->result()) {
      j["result"] = {{"winner", r->winner ? nlohmann::json(color_name(*r->winner)) : nullptr},
                     {"reason", code(r->reason)},
                     {"title", result_title(app_.tr(), *r)},
                     {"text", reason_text()}};
      j["saved"] = saved_ ? saved_->string() : "";
    } else {
      j["result"] = nullptr;
    }
    return j;
  }

 private:
  // ---- events from the game ----
  void on(GameStartedEvent& e) {
    vm_.emplace(e.start, session_->humans());
    time_control_ = e.start.time_control;
    evaluate(vm_->position());
    place();
  }
  void on(TurnEvent& e) {
    if (vm_) vm_->on_turn(e.to_move, e.clock, e.at);
  }
  void on(MoveEvent& e) {
    if (!vm_) return;
    vm_->on_move(e.after, e.move, e.mover, e.at);
    evaluate(e.after);
    submitted_.reset();
    optimistic_.reset();
    input_.disable();
    app_.sounds().move();
  }
  void on(HumanTurnEvent& e) {
    if (!vm_ || vm_->to_move() != e.color) return;
    request_ = e.request;
    input_.reset(vm_->position(), true);
  }
  void on(GameEndEvent& e) {
    if (!vm_) return;
    vm_->on_end(e.result, e.detail, e.at);
    record_ = e.record;
    saved_ = e.saved;
    input_.disable();
    resign_armed_.reset();
    app_.sounds().end();
  }
  void on(StorageProblemEvent& e) { app_.notify(e.message, true); }

  // ---- actions ----
  void submit() {
    const Move m = input_.take_move();
    const Color side = vm_->to_move();
    if (!request_ || !session_->play(side, *request_, m)) return;
    // Shown at once; the game's own MoveEvent confirms it a moment later.
    submitted_ = m;
    optimistic_ = vm_->position();
    optimistic_->do_move(m);
    request_.reset();
  }

  void resign() {
    if (!vm_ || !vm_->human_to_move()) return;
    if (!resign_armed_) {
      resign_armed_ = std::chrono::steady_clock::now() + kResignConfirmTime;
      return;
    }
    resign_armed_.reset();
    session_->resign(vm_->to_move());
  }

  void leave() {
    const bool running = vm_ && vm_->running() && !vm_->moves().empty();
    session_->leave();
    if (running) app_.notify(app_.tr()("tui.game.saved"));
    app_.show(make_menu_screen(app_));
  }

  void rematch() {
    SessionSetup setup;
    setup.game = rematch_record(session_->setup_record());
    setup.store = app_.store();
    if (auto problem = add_computer(setup)) {
      app_.notify(app_.tr()("tui.game.no_rematch", {{"problem", *problem}}), true);
      return;
    }
    app_.show(make_game_screen(app_, std::move(setup)));
  }

  // The evaluation bar follows the engine's static judgement of each position, without the
  // weak levels' noise, so it is the same whichever level plays.
  void evaluate(const Position& pos) {
    if (!computer_) return;
    if (!evaluator_) evaluator_ = std::make_unique<ai::Evaluator>();
    eval_ = eval_bar(white_score(*evaluator_, pos));
  }

  // Recomputed only when the shown position changes.
  const std::array<Bitboard, 2>& territory(const Position& pos) {
    if (!territory_cache_ || territory_cache_->first != pos.hash())
      territory_cache_.emplace(pos.hash(), territory_of(pos));
    return territory_cache_->second;
  }

  const Position& shown_position() const { return optimistic_ ? *optimistic_ : vm_->position(); }

  // ---- layout and drawing ----
  void place() {
    const Style& s = app_.style();
    const BoardAndPanel layout = board_and_panel(s, width_, height_, vm_ ? vm_->rules().size : 10);
    geometry_ = layout.board;
    panel_ = layout.panel;

    const float card_h = s.f(84), button_h = s.f(44), gap = s.f(12);
    top_card_ = {panel_.x, panel_.y, panel_.w, card_h};
    float below_card = top_card_.bottom() + gap;
    if (computer_) {
      eval_rect_ = {panel_.x, below_card, panel_.w, s.f(30)};
      below_card = eval_rect_.bottom() + gap;
    }
    territory_.rect = {panel_.x + s.f(4), below_card, panel_.w - s.f(8), s.f(30)};
    below_card = territory_.rect.bottom() + gap;
    const float buttons_y = panel_.bottom() - button_h;
    place_button_row(s, {&resign_, &abort_, &rematch_, &replay_, &leave_},
                     {panel_.x, buttons_y, panel_.w, button_h}, gap);
    status_y_ = buttons_y - s.f(24);
    bottom_card_ = {panel_.x, status_y_ - s.f(22) - card_h, panel_.w, card_h};
    moves_ = {panel_.x, below_card, panel_.w, bottom_card_.y - gap - below_card};
  }

  // Why the game ended, in the catalogue's words; empty while it runs.
  std::string reason_text() const {
    return vm_ && vm_->result() ? result_reason(app_.tr(), *vm_->result(), vm_->end_detail())
                                : std::string();
  }

  void draw_card(sf::RenderTarget& t, Color c, Rect r, SteadyTime now) const {
    const bool active = vm_->running() && vm_->to_move() == c;
    const PlayerInfo& p = vm_->player(c);
    const Catalogue& tr = app_.tr();
    std::string sub = side_name(tr, c);
    if (p.rating) sub += kDot + std::to_string(*p.rating);
    if (vm_->thinking(c)) {
      sub += kDot + tr("desktop.card.thinking") + std::string(thinking_phase(now), '.');
    } else if (active) {
      sub += kDot + tr("desktop.card.to_move");
    }
    draw_player_card(t, app_.style(), *vm_, c, r, now, player_name(tr, p), sub,
                     active ? colors::kAccent : colors::kMuted);
  }

  // White's share from the left, Black's from the right, and the number on the leading side.
  void draw_eval_bar(sf::RenderTarget& t) const {
    if (!eval_) return;
    const Style& s = app_.style();
    const Rect r = eval_rect_;
    fill_rounded(t, r, s.f(6), colors::kBlackQueen, colors::kBorder, 1);
    const float split = std::round(r.w * static_cast<float>(eval_->white_share));
    if (split > 0) {
      sf::RectangleShape white({split, r.h - 2});
      white.setPosition(r.x, r.y + 1);
      white.setFillColor(colors::kWhiteQueen);
      t.draw(white);
    }
    sf::RectangleShape middle({1, r.h});
    middle.setPosition(std::round(r.x + r.w / 2), r.y);
    middle.setFillColor(colors::kAccent);
    t.draw(middle);
    const bool white_leads = eval_->white_share >= 0.5;
    draw_text(t, s.fonts->bold, eval_->label, s.px(15),
              white_leads ? r.x + s.f(10) : r.right() - s.f(10), r.y + r.h / 2,
              white_leads ? colors::kBlackQueen : colors::kWhiteQueen,
              white_leads ? Align::Left : Align::Right);
  }

  void draw_banner(sf::RenderTarget& t) const {
    draw_result_banner(t, app_.style(), geometry_, result_title(app_.tr(), *vm_->result()),
                       reason_text());
  }

  std::unique_ptr<GameSession> session_;
  bool computer_;  // one side is the engine: the evaluation bar is shown
  std::optional<GameViewModel> vm_;
  TimeControl time_control_;
  MoveInput input_;
  std::optional<std::uint64_t> request_;
  std::optional<Move> submitted_;
  std::optional<Position> optimistic_;
  std::optional<GameRecord> record_;
  std::optional<std::filesystem::path> saved_;
  std::optional<SteadyTime> resign_armed_;
  std::uint64_t news_ = 0;  // the session's events taken in
  FrameStamp drawn_;        // the stamp of the last frame drawn

  Button resign_{"resign", "Resign", ButtonStyle::Danger};
  Button abort_{"abort", "Abort"};
  Button rematch_{"rematch", "Rematch", ButtonStyle::Primary};
  Button replay_{"review", "Replay"};
  Button leave_{"leave", "Menu"};
  Toggle territory_{"territory", "Territory view"};
  WidgetSet widgets_;
  std::unique_ptr<ai::Evaluator> evaluator_;
  std::optional<EvalBar> eval_;
  std::optional<std::pair<std::uint64_t, std::array<Bitboard, 2>>> territory_cache_;
  Rect eval_rect_;

  float width_ = 0, height_ = 0, mouse_x_ = -1, mouse_y_ = -1;
  BoardGeometry geometry_;
  Rect panel_, top_card_, bottom_card_, moves_;
  float status_y_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_game_screen(App& app, SessionSetup setup) {
  auto session = GameSession::start(std::move(setup));
  if (!session) {
    app.notify(app.tr()("tui.game.cannot_start", {{"error", session.error()}}), true);
    return make_menu_screen(app);
  }
  return std::make_unique<GameScreen>(app, std::move(session).value());
}

}  // namespace amazons::client::ui
