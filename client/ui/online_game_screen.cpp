// The game screen for a server's game, played or watched: the board and move input of the local
// game screen, the server's clocks, chat, and the connection's state. The game lives in the
// OnlineClient (client/online_game.h); this screen shows it and passes on what the person does.
#include <algorithm>
#include <cmath>
#include <set>

#include <SFML/Graphics/RectangleShape.hpp>

#include "client/move_input.h"
#include "client/premove.h"
#include "client/ui/board_view.h"
#include "client/ui/game_panel.h"
#include "client/ui/online_shared.h"
#include "client/ui/screens.h"
#include "client/words.h"
#include "common/notation.h"
#include "common/position_text.h"

namespace amazons::client::ui {

namespace {

constexpr auto kResignConfirmTime = std::chrono::seconds(3);
constexpr std::size_t kChatLinesShown = 4;

class OnlineGameScreen final : public Screen {
 public:
  OnlineGameScreen(App& app, std::shared_ptr<OnlineClient> client)
      : Screen(app), client_(std::move(client)) {
    resign_.on_click = [this] { resign(); };
    abort_.on_click = [this] {
      if (game()) game()->abort();
    };
    rematch_.on_click = [this] {
      if (game()) game()->offer_rematch();
    };
    lobby_.on_click = [this] { to_lobby(); };
    send_.on_click = [this] { send_chat(); };
    const Catalogue& t = app_.tr();
    abort_.label = t("game.abort");
    send_.label = t("game.chat.send");
    for (Widget* w :
         std::initializer_list<Widget*>{&resign_, &abort_, &rematch_, &lobby_, &chat_, &send_})
      widgets_.add(*w);
  }

  std::string name() const override { return "online_game"; }

  void layout(float w, float h) override {
    width_ = w;
    height_ = h;
    place();
  }

  void handle(const sf::Event& e) override {
    if (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Enter &&
        !chat_.text.empty()) {
      send_chat();
      return;
    }
    if (widgets_.handle(e)) return;
    const bool cancel_key =
        (e.type == sf::Event::KeyPressed && e.key.code == sf::Keyboard::Escape) ||
        (e.type == sf::Event::MouseButtonPressed && e.mouseButton.button == sf::Mouse::Right);
    if (OnlineGame* g = game(); cancel_key && g && g->cancel_premove()) {
      app_.notify(app_.tr()("game.premove_cancelled"));
      premove_input_ = false;  // entering one starts again on the next update
      return;
    }
    if (board_input_event(e, input_, geometry_, mouse_x_, mouse_y_)) submit();
  }

  void update(SteadyTime now) override {
    client_->poll();
    for (const OnlineNotice& n : client_->take_notices()) app_.notify(n);
    OnlineGame* g = game();
    if (!g) return app_.show(make_lobby_screen(app_, client_));
    if (g->id() != shown_id_) {
      // A new game (a rematch): start afresh.
      shown_id_ = g->id();
      input_.disable();
      request_.reset();
      submitted_.reset();
      premove_input_ = false;
      dropped_.clear();
      shown_moves_ = 0;
    }
    const GameViewModel* vm = g->view();
    if (!vm) return;
    if (vm->moves().size() != shown_moves_) {
      if (vm->moves().size() > shown_moves_) app_.sounds().move();
      shown_moves_ = vm->moves().size();
      submitted_.reset();
      input_.disable();
      request_.reset();
      premove_input_ = false;
    }
    const auto pending = client_->online() ? g->pending_request() : std::nullopt;
    if (pending && pending != request_ && !submitted_) {
      premove_input_ = false;
      const auto premove = g->premove().move();
      if (const auto sent = g->play_premove()) {
        submitted_ = sent;  // the premove went out the moment the turn came
        input_.disable();
      } else {
        // A dropped premove's notice shows with the turn it was dropped on.
        for (const OnlineNotice& n : client_->take_notices()) app_.notify(n);
        if (premove)
          dropped_ = app_.tr()("desktop.online.premove_dropped", {{"move", to_string(*premove)}});
        request_ = pending;
        input_.reset(vm->position(), true);
      }
    } else if (!pending && !premove_input_ && input_.stage() != InputStage::Disabled) {
      input_.disable();
      request_.reset();
    }
    // While the opponent thinks, a move entered is a premove, judged against the position as it
    // stands; one at a time.
    const bool opponent_thinking =
        g->playing() && g->color() && vm->running() && vm->to_move() != *g->color() && !submitted_;
    if (opponent_thinking && !premove_input_ && !g->premove().pending()) {
      input_.reset(premove_position(vm->position(), *g->color()), true);
      premove_input_ = true;
    } else if (!opponent_thinking && premove_input_) {
      input_.disable();
      premove_input_ = false;
    }
    if (!vm->running() && !ended_shown_.count(g->id())) {
      ended_shown_.insert(g->id());
      app_.sounds().end();
    }
    const bool seat = g->playing() && g->color().has_value();
    const bool running = vm->running();
    resign_.visible = seat && running && vm->moves().size() >= 2;
    abort_.visible = seat && running && vm->moves().size() < 2;
    rematch_.visible = seat && !running;
    rematch_.enabled = !g->rematch_offered();
    const Catalogue& t = app_.tr();
    rematch_.label = g->rematch_offered() ? t("game.rematch.sent")
                     : g->rematch_offer()
                         ? t("game.rematch.accept", {{"player", *g->rematch_offer()}})
                         : t("game.rematch");
    lobby_.label = t(seat && running ? "nav.lobby" : "common.back_to_lobby");
    const bool armed = resign_armed_ && now < *resign_armed_;
    if (!armed) resign_armed_.reset();
    resign_.label = t(armed ? "game.resign.confirm" : "game.resign");
    resign_.style = armed ? ButtonStyle::Primary : ButtonStyle::Danger;
    place();
  }

  bool changes_by_itself(SteadyTime now) const override { return stamp(now) != drawn_; }

  // What the network delivered, the clocks and the armed resign.
  FrameStamp stamp(SteadyTime now) const {
    FrameStamp out{client_->news(), resign_armed_ ? "armed" : ""};
    const OnlineGame* g = client_->game();
    if (const GameViewModel* vm = g ? g->view() : nullptr) out.ticks += clock_ticks(*vm, now);
    return out;
  }

  void draw(sf::RenderTarget& t, SteadyTime now) override {
    drawn_ = stamp(now);
    const Style& s = app_.style();
    const OnlineGame* g = game();
    const GameViewModel* vm = g ? g->view() : nullptr;
    if (!vm) {
      draw_text(t, s.fonts->regular, app_.tr()("game.starting"), s.px(18), width_ / 2, height_ / 2,
                colors::kMuted, Align::Center);
      return;
    }
    BoardScene scene;
    Position optimistic = vm->position();
    if (submitted_) optimistic.do_move(*submitted_);
    scene.position = &optimistic;
    scene.last_move = submitted_ ? submitted_ : vm->last_move();
    scene.premove = g->premove().move();
    scene.coordinates = app_.settings().coordinates;
    scene.light = app_.settings().light_squares;
    scene.dark = app_.settings().dark_squares;
    show_input(scene, input_, geometry_, mouse_x_, mouse_y_);
    draw_board(t, s, geometry_, scene);

    const Color top = geometry_.flipped ? Color::White : Color::Black;
    draw_card(t, *g, top, top_card_, now);
    draw_card(t, *g, ~top, bottom_card_, now);
    draw_move_list(t, s, moves_, vm->move_rows(), vm->rules().first_to_move, vm->moves().size());
    draw_chat(t, *g);
    draw_fitted(t, s.fonts->regular, status(*g), s.px(15), s.px(12), panel_.x, status_y_, panel_.w,
                status_color(*g));
    widgets_.draw(t, s);
    if (!vm->running()) draw_banner(t, *g);
    if (!client_->online()) draw_connection_banner(t);
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["widgets"] = widgets_.describe();
    j["board"] = board_json(geometry_);
    j["connection"] = client_->status_text();
    j["online"] = client_->online();
    const OnlineGame* g = const_cast<OnlineGameScreen*>(this)->game();
    const GameViewModel* vm = g ? g->view() : nullptr;
    if (!vm) return j;
    j["game"] = g->id();
    j["playing"] = g->playing();
    j["color"] = g->color() ? nlohmann::json(color_name(*g->color())) : nullptr;
    j["position"] = to_text(vm->position());
    j["to_move"] = color_name(vm->to_move());
    j["human_to_move"] = request_.has_value() && !submitted_;
    j["stage"] = stage_code(input_.stage());
    j["premove_input"] = premove_input_;
    j["premove"] = g->premove().move() ? to_string(*g->premove().move()) : "";
    j["selected"] = input_.queen().is_none() ? "" : to_string(input_.queen());
    j["targets"] = input_.targets().count();
    nlohmann::json moves = nlohmann::json::array();
    for (Move m : vm->moves()) moves.push_back(to_string(m));
    j["moves"] = std::move(moves);
    j["white"] = vm->player(Color::White).name;
    j["black"] = vm->player(Color::Black).name;
    nlohmann::json chat = nlohmann::json::array();
    for (const ChatLine& c : g->chat()) chat.push_back(c.from + ": " + c.text);
    j["chat"] = chat;
    j["status"] = status(*g);
    if (const auto& r = vm->result())
      j["result"] = {{"winner", r->winner ? nlohmann::json(color_name(*r->winner)) : nullptr},
                     {"reason", code(r->reason)},
                     {"title", result_title(app_.tr(), *r)}};
    else
      j["result"] = nullptr;
    return j;
  }

 private:
  OnlineGame* game() { return client_->game(); }

  void submit() {
    OnlineGame* g = game();
    const Move m = input_.take_move();
    dropped_.clear();
    if (premove_input_) {
      // Refused only if the position changed under the input: enter it again.
      if (!g || !g->set_premove(m)) premove_input_ = false;
      return;
    }
    if (!g || !request_ || !g->play(*request_, m)) return;
    submitted_ = m;  // shown at once; the server's `moved` confirms it
    request_.reset();
  }

  void resign() {
    OnlineGame* g = game();
    if (!g) return;
    if (!resign_armed_) {
      resign_armed_ = std::chrono::steady_clock::now() + kResignConfirmTime;
      return;
    }
    resign_armed_.reset();
    g->resign();
  }

  void send_chat() {
    if (OnlineGame* g = game(); g && !chat_.text.empty()) {
      g->send_chat(chat_.text);
      chat_.text.clear();
    }
  }

  void to_lobby() {
    OnlineGame* g = game();
    if (g && g->playing() && g->view() && g->view()->running())
      app_.notify(app_.tr()("online.left_running"));
    client_->leave_game();
    app_.show(make_lobby_screen(app_, client_));
  }

  std::string status(const OnlineGame& g) const {
    const GameViewModel& vm = *g.view();
    const Catalogue& t = app_.tr();
    if (!client_->online()) return client_->status_text();
    if (!vm.running()) return vm.result() ? result_reason(t, *vm.result(), vm.end_detail()) : "";
    for (Color c : g.offline())
      return t("online.opponent_offline", {{"player", vm.player(c).name}});
    if (!g.playing()) return t("game.status.watching", {{"side", side_name(t, vm.to_move())}});
    if (submitted_) return t("game.status.sending");
    if (g.premove().pending()) return g.premove().panel_line(t);
    if (premove_input_) {
      if (input_.stage() == InputStage::ChooseDestination)
        return t("game.status.premove_destination");
      if (input_.stage() == InputStage::ChooseArrow) return t("game.status.premove_arrow");
      return t("desktop.online.thinking_premove", {{"player", vm.player(vm.to_move()).name}});
    }
    if (!dropped_.empty() && input_.stage() == InputStage::ChooseQueen) return dropped_;
    if (input_.stage() == InputStage::ChooseQueen) return t("game.status.your_move_queen");
    if (input_.stage() != InputStage::Disabled) return stage_hint(t, input_.stage());
    return t("game.status.thinking", {{"side", vm.player(vm.to_move()).name}});
  }

  sf::Color status_color(const OnlineGame& g) const {
    if (!client_->online() || !g.offline().empty()) return colors::kDanger;
    if (g.premove().pending()) return colors::kPremoveEdge;
    if (!dropped_.empty() && request_) return colors::kDanger;
    return colors::kMuted;
  }

  void place() {
    const Style& s = app_.style();
    const OnlineGame* g = const_cast<OnlineGameScreen*>(this)->game();
    const GameViewModel* vm = g ? g->view() : nullptr;
    const BoardAndPanel layout = board_and_panel(s, width_, height_, vm ? vm->rules().size : 10);
    geometry_ = layout.board;
    geometry_.flipped = g && g->color() == Color::Black;  // your own side at the bottom
    panel_ = layout.panel;

    const float card_h = s.f(76), button_h = s.f(42), gap = s.f(10);
    top_card_ = {panel_.x, panel_.y, panel_.w, card_h};
    const float buttons_y = panel_.bottom() - button_h;
    place_button_row(s, {&resign_, &abort_, &rematch_, &lobby_},
                     {panel_.x, buttons_y, panel_.w, button_h}, gap);
    status_y_ = buttons_y - s.f(20);
    bottom_card_ = {panel_.x, status_y_ - s.f(18) - card_h, panel_.w, card_h};
    const float input_h = s.f(36);
    const float send_w = std::clamp(send_.natural_width(s), s.f(68), panel_.w / 3);
    chat_.rect = {panel_.x, bottom_card_.y - gap - input_h, panel_.w - send_w - s.f(8), input_h};
    send_.rect = {panel_.right() - send_w, chat_.rect.y, send_w, input_h};
    chat_area_ = {panel_.x, chat_.rect.y - s.f(8) - s.f(22) * kChatLinesShown, panel_.w,
                  s.f(22) * kChatLinesShown};
    moves_ = {panel_.x, top_card_.bottom() + gap, panel_.w,
              chat_area_.y - gap - (top_card_.bottom() + gap)};
  }

  void draw_card(sf::RenderTarget& t, const OnlineGame& g, Color c, Rect r, SteadyTime now) const {
    const GameViewModel& vm = *g.view();
    const bool active = vm.running() && vm.to_move() == c;
    const PlayerInfo& p = vm.player(c);
    const Catalogue& tr = app_.tr();
    std::string sub = side_name(tr, c);
    if (p.rating) sub += kDot + std::to_string(*p.rating);
    if (p.bot) sub += kDot + tr("desktop.card.bot");
    const bool away = std::find(g.offline().begin(), g.offline().end(), c) != g.offline().end();
    if (away)
      sub += kDot + tr("game.seat.offline");
    else if (active)
      sub += kDot + tr(g.color() == c ? "lobby.my_game.your_move" : "desktop.card.to_move");
    if (const auto& end = g.end()) {
      const auto& change = c == Color::White ? end->white_rating : end->black_rating;
      if (change)
        sub += kDot + (change->change >= 0 ? "+" : "") + std::to_string(change->change) + " -> " +
               std::to_string(change->rating);
    }
    const sf::Color sub_color = away ? colors::kDanger : active ? colors::kAccent : colors::kMuted;
    draw_player_card(
        t, app_.style(), vm, c, r, now,
        g.color() == c ? app_.tr()("desktop.card.you", {{"name", p.name}}) : p.name,
        elide(app_.style().fonts->regular, sub, app_.style().px(14), r.w - app_.style().f(24)),
        sub_color);
  }

  void draw_chat(sf::RenderTarget& t, const OnlineGame& g) const {
    const Style& s = app_.style();
    const auto& lines = g.chat();
    const std::size_t first = lines.size() > kChatLinesShown ? lines.size() - kChatLinesShown : 0;
    float y = chat_area_.y + s.f(11);
    if (lines.empty())
      draw_text(t, s.fonts->regular, app_.tr()("desktop.online.chat_hint"), s.px(14), chat_area_.x,
                y, colors::kMuted);
    for (std::size_t i = first; i < lines.size(); ++i, y += s.f(22))
      draw_text(
          t, s.fonts->regular,
          elide(s.fonts->regular, lines[i].from + ": " + lines[i].text, s.px(14), chat_area_.w),
          s.px(14), chat_area_.x, y, colors::kText);
  }

  void draw_banner(sf::RenderTarget& t, const OnlineGame& g) const {
    const GameViewModel& vm = *g.view();
    const Catalogue& tr = app_.tr();
    if (!vm.result()) return;
    std::string title = result_title(tr, *vm.result());
    if (g.color() && vm.result()->winner)
      title = tr(*vm.result()->winner == *g.color() ? "result.you_won" : "result.you_lost");
    std::string reason = result_reason(tr, *vm.result(), vm.end_detail());
    if (g.rematch_offer() && !g.rematch_offered())
      reason = tr("game.rematch.offered_by", {{"player", *g.rematch_offer()}});
    draw_result_banner(t, app_.style(), geometry_, title, reason);
  }

  void draw_connection_banner(sf::RenderTarget& t) const {
    const Style& s = app_.style();
    const Rect b = geometry_.bounds();
    const float w = std::min(b.w * 0.9f, s.f(560)), h = s.f(70);
    const Rect r{std::round(b.x + (b.w - w) / 2), std::round(b.y + s.f(16)), w, h};
    fill_rounded(t, r, s.f(10), sf::Color(90, 38, 34, 240), colors::kDanger, 2);
    const bool closed = client_->status() == net::ConnectionStatus::Closed;
    draw_text(t, s.fonts->bold,
              app_.tr()(closed ? "connection.disconnected" : "connection.reconnecting"), s.px(22),
              r.x + r.w / 2, r.y + h * 0.34f, colors::kText, Align::Center);
    draw_text(t, s.fonts->regular,
              elide(s.fonts->regular, client_->status_text(), s.px(14), r.w - s.f(20)), s.px(14),
              r.x + r.w / 2, r.y + h * 0.72f, sf::Color(255, 220, 210), Align::Center);
  }

  std::shared_ptr<OnlineClient> client_;
  std::string shown_id_;
  std::size_t shown_moves_ = 0;
  std::set<std::string> ended_shown_;
  MoveInput input_;
  std::optional<std::uint64_t> request_;
  std::optional<Move> submitted_;
  bool premove_input_ = false;  // input_ enters a premove (the opponent is to move)
  std::string dropped_;         // the status line after a premove was dropped, until we move
  std::optional<SteadyTime> resign_armed_;
  FrameStamp drawn_;  // the stamp of the last frame drawn

  // Labelled in the catalogue's words by the constructor and update().
  Button resign_{"resign", "", ButtonStyle::Danger};
  Button abort_{"abort", ""};
  Button rematch_{"rematch", "", ButtonStyle::Primary};
  Button lobby_{"lobby", ""};
  TextField chat_{"chat", "", 200};
  Button send_{"send", ""};
  WidgetSet widgets_;

  float width_ = 0, height_ = 0, mouse_x_ = -1, mouse_y_ = -1;
  BoardGeometry geometry_;
  Rect panel_, top_card_, bottom_card_, moves_, chat_area_;
  float status_y_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_online_game_screen(App& app, std::shared_ptr<OnlineClient> client) {
  return std::make_unique<OnlineGameScreen>(app, std::move(client));
}

}  // namespace amazons::client::ui
