#include "tui/game_screen.h"

#include <algorithm>

#include "client/game_text.h"
#include "client/move_input.h"
#include "client/words.h"
#include "common/notation.h"
#include "tui/board_draw.h"
#include "tui/move_entry.h"

namespace amazons::tui {

namespace {

// Columns the panel beside the board needs at least: a player line, a row of the move list.
constexpr int kPanelMin = 30;
// Rows at the bottom, across the whole width: the typed move, what it fits (or why not), the
// hint, the keys; the notices take the last row.
constexpr int kRowsBelow = 4;

class GameScreen final : public Screen {
 public:
  GameScreen(App& app, std::unique_ptr<GameSource> source)
      : Screen(app), source_(std::move(source)) {}

  void tick(SteadyTime now) override {
    source_->poll(now);
    const client::GameViewModel* vm = source_->view();
    if (!vm) return;
    const bool my_turn = source_->can_move() && !submitted_;
    if (vm->moves().size() != shown_moves_ || vm->position().side_to_move() != shown_side_ ||
        my_turn != input_enabled_) {
      shown_moves_ = vm->moves().size();
      shown_side_ = vm->position().side_to_move();
      if (submitted_ && (vm->moves().size() > submitted_at_ || !vm->running())) submitted_.reset();
      input_enabled_ = source_->can_move() && !submitted_;
      input_.reset(vm->position(), input_enabled_);
      if (input_enabled_) {
        feedback_.clear();
        place_cursor(*vm);
        // What was typed while waiting (a command, or the move) is kept and judged anew.
        if (!text_.empty()) set_text(*vm, text_);
      }
    }
  }

  void key(const Key& k) override {
    using C = Key::Code;
    const client::GameViewModel* vm = source_->view();
    if (!vm) {
      if (k.code == C::Escape) source_->command("menu", "");
      return;
    }
    const int n = vm->rules().size;
    const bool flipped = source_->flipped();
    switch (k.code) {
      case C::Up:
        cursor_ = step_square(cursor_, 0, 1, n, flipped);
        return;
      case C::Down:
        cursor_ = step_square(cursor_, 0, -1, n, flipped);
        return;
      case C::Left:
        cursor_ = step_square(cursor_, -1, 0, n, flipped);
        return;
      case C::Right:
        cursor_ = step_square(cursor_, 1, 0, n, flipped);
        return;
      case C::Tab:
        if (text_.empty() || text_[0] == ':') return cycle_cursor(*vm);
        return complete(*vm);
      case C::Escape:
        if (!text_.empty()) {
          set_text(*vm, "");
        } else {
          input_.back();
        }
        feedback_.clear();
        return;
      case C::Backspace:
        if (!text_.empty()) {
          text_.pop_back();
          set_text(*vm, text_);
        }
        return;
      case C::Enter:
        return enter(*vm);
      case C::Char:
        if (k.ch == U' ' && text_.empty()) return choose_at_cursor(*vm);
        if (k.ch < 0x20 || k.ch > 0x7E || text_.size() >= kMaxText) return;
        set_text(*vm, text_ + static_cast<char>(k.ch));
        return;
      default:
        return;
    }
  }

  void draw(Canvas& c, SteadyTime now) override {
    const client::GameViewModel* vm = source_->view();
    if (!vm) {
      c.text(2, 1, app_.tr()("game.starting"), {Ink::Muted});
      c.text(2, 3, source_->status_line(), {Ink::Danger}, c.width() - 4);
      c.wrapped_above(2, c.height() - 2, app_.tr()("tui.keys.back"), {Ink::Muted}, c.width() - 4,
                      2);
      return;
    }
    const client::Catalogue& t = app_.tr();
    const bool ascii = app_.options().ascii;
    const bool flipped = source_->flipped();
    // The keys' line takes a second row when it is wider than the screen (longer words than
    // English's); what is above it moves up.
    std::string keys = input_enabled_ ? t("tui.game.keys") + " " : "";
    for (const std::string& cmd : source_->commands()) keys += cmd + " ";
    const int keys_rows =
        std::max<int>(1, static_cast<int>(wrap_text(keys, c.width() - 2, 2).size()));
    const int rows_below = kRowsBelow + keys_rows - 1;
    const int max_board_w = c.width() - kPanelMin - 3;
    const int max_board_h = c.height() - rows_below - 2;
    const BoardFit fit = fit_board(vm->rules().size, max_board_w, max_board_h);

    Position shown = vm->position();
    if (submitted_) shown.do_move(*submitted_);
    BoardMarks marks;
    marks.last_move = submitted_ ? submitted_ : vm->last_move();
    if (input_.stage() == client::InputStage::ChooseDestination ||
        input_.stage() == client::InputStage::ChooseArrow)
      marks.selected = input_.queen();
    if (input_.stage() == client::InputStage::ChooseArrow) marks.moved_to = input_.destination();
    marks.targets = input_.targets();
    marks.arrow_targets = input_.stage() == client::InputStage::ChooseArrow;
    if (input_.stage() != client::InputStage::Disabled) marks.cursor = cursor_;
    draw_board(c, 1, 1, fit, shown, marks, {ascii, flipped});

    // ---- the panel ----
    const int px = 1 + fit.width() + 3, pw = c.width() - px - 1;
    int y = 1;
    const Color top = flipped ? Color::White : Color::Black;
    draw_player(c, *vm, top, px, y++, pw, now, ascii);
    draw_player(c, *vm, ~top, px, y++, pw, now, ascii);
    std::string status = client::game_status(t, *vm);
    c.text(px, ++y, status, {vm->running() ? Ink::Text : Ink::Good, Ink::Default, true}, pw);
    ++y;
    if (!vm->running() && vm->result())
      y += c.wrapped(px, y, client::result_reason(t, *vm->result(), vm->end_detail()), {Ink::Text},
                     pw, 2);
    if (const std::string line = source_->status_line(); !line.empty())
      y += c.wrapped(px, y, line, {source_->status_is_problem() ? Ink::Danger : Ink::Muted}, pw, 3);
    ++y;
    const std::vector<client::ChatLine> chat = source_->chat();
    const int chat_rows = chat.empty() ? 0 : std::min<int>(4, static_cast<int>(chat.size())) + 1;
    const int list_bottom = c.height() - rows_below - 1 - chat_rows;
    draw_moves(c, *vm, px, y, pw, list_bottom);
    if (chat_rows > 0) {
      int cy = list_bottom + 1;
      for (std::size_t i = chat.size() - static_cast<std::size_t>(chat_rows - 1); i < chat.size();
           ++i)
        c.text(px, cy++, chat[i].from + ": " + chat[i].text, {Ink::Text}, pw);
    }

    // ---- at the bottom: the move being entered ----
    int by = c.height() - rows_below - 1;
    const std::string move_prompt = t("tui.game.prompt");
    const std::string prompt =
        input_enabled_ ? move_prompt : pad_width("", text_width(move_prompt));
    int end = c.text(1, by, prompt, {Ink::Muted});
    end = c.text(end, by, text_, {Ink::Text, Ink::Default, true});
    if (input_enabled_ || !text_.empty()) c.put(end, by, U'_', {Ink::Accent, Ink::Default, true});
    ++by;
    c.text(1, by++, feedback_, {feedback_error_ ? Ink::Danger : Ink::Muted}, c.width() - 2);
    std::string hint;
    if (!vm->running())
      hint = t("game.status.over");
    else if (submitted_)
      hint = t("game.status.sending");
    else if (input_enabled_)
      hint = client::stage_hint(t, input_.stage());
    c.text(1, by, hint, {Ink::Muted}, c.width() - 2);
    c.wrapped_above(1, c.height() - 2, keys, {Ink::Muted}, c.width() - 2, 2);
  }

 private:
  static constexpr std::size_t kMaxText = 60;

  void draw_player(Canvas& c, const client::GameViewModel& vm, Color side, int x, int y, int w,
                   SteadyTime now, bool ascii) const {
    const bool active = vm.running() && vm.to_move() == side;
    const std::string piece =
        ascii ? (side == Color::White ? "W" : "B") : (side == Color::White ? "\u2655" : "\u265B");
    const PlayerInfo& p = vm.player(side);
    std::string name = client::player_name(app_.tr(), p);
    if (p.rating) name += " (" + std::to_string(*p.rating) + ")";
    std::string clock = vm.has_clock() ? vm.clock_text(side, now) : "";
    c.text(x, y, active ? ">" : " ", {Ink::Accent, Ink::Default, true});
    c.text(x + 2, y, piece,
           {side == Color::White ? Ink::WhiteQueen : Ink::BlackQueen, Ink::Default, true});
    c.text(x + 4, y, name, {active ? Ink::Accent : Ink::Text, Ink::Default, active},
           std::max(0, w - 4 - text_width(clock) - 1));
    if (!clock.empty())
      c.text(x + w - text_width(clock), y, clock,
             {vm.low_time(side, now) ? Ink::Danger : Ink::Text, Ink::Default, active});
  }

  void draw_moves(Canvas& c, const client::GameViewModel& vm, int x, int y, int w,
                  int bottom) const {
    const std::vector<client::MoveRow> rows = vm.move_rows();
    c.text(x, y, app_.tr()("game.moves"), {Ink::Muted, Ink::Default, true});
    ++y;
    const int room = bottom - y;
    if (room <= 0) return;
    const std::size_t first = rows.size() > static_cast<std::size_t>(room)
                                  ? rows.size() - static_cast<std::size_t>(room)
                                  : 0;
    for (std::size_t i = first; i < rows.size(); ++i) {
      std::string line = std::to_string(rows[i].number) + ".";
      line.resize(5, ' ');
      line += rows[i].first;
      line.resize(std::max<std::size_t>(line.size(), 17), ' ');
      line += rows[i].second;
      c.text(x, y++, line, {Ink::Text}, w);
    }
  }

  // The cursor starts on the first queen that can move.
  void place_cursor(const client::GameViewModel& vm) {
    const Bitboard selectable = input_.selectable();
    if (selectable.any() && !selectable.test(cursor_)) cursor_ = *selectable.begin();
    if (!cursor_.on_board(vm.rules().size)) cursor_ = Square::at(0, 0);
  }

  // Tab without typed text: the cursor goes to the next square that does something now.
  void cycle_cursor(const client::GameViewModel& vm) {
    Bitboard choices =
        input_.stage() == client::InputStage::ChooseQueen ? input_.selectable() : input_.targets();
    if (choices.empty()) return;
    const int n = vm.rules().size;
    for (int i = 1; i <= n * n; ++i) {
      const int idx = (cursor_.rank() * n + cursor_.file() + i) % (n * n);
      const Square s = Square::at(idx % n, idx / n);
      if (choices.test(s)) {
        cursor_ = s;
        return;
      }
    }
  }

  void choose_at_cursor(const client::GameViewModel& vm) {
    if (!input_enabled_) {
      feedback(not_your_turn(vm), true);
      return;
    }
    text_.clear();
    const client::InputEffect e = input_.press(cursor_);
    if (e == client::InputEffect::None) {
      feedback(app_.tr()("tui.game.not_marked",
                         {{"square", to_string(cursor_)},
                          {"hint", client::stage_hint(app_.tr(), input_.stage())}}),
               true);
      return;
    }
    input_.release(cursor_);
    feedback_.clear();
    if (auto m = input_.ready_move()) submit(input_.take_move());
  }

  void set_text(const client::GameViewModel& vm, std::string text) {
    text_ = std::move(text);
    feedback_.clear();
    if (!text_.empty() && text_[0] == ':') return;
    if (!input_enabled_) {
      if (!text_.empty()) feedback(not_your_turn(vm), true);
      return;
    }
    // The typed squares drive the same stages and highlights as the cursor does.
    input_.reset(vm.position(), true);
    if (text_.empty()) return;
    const MoveEntry e = read_move_entry(app_.tr(), vm.position(), text_);
    if (!e.problem.empty()) {
      feedback(e.problem, true);
      return;
    }
    if (!e.from.is_none()) {
      input_.press(e.from);
      input_.release(e.from);
      cursor_ = e.from;
    }
    if (!e.to.is_none()) {
      input_.press(e.to);
      input_.release(e.to);
      cursor_ = e.to;
    }
    if (e.unique())
      feedback(app_.tr()("game.typed.one", {{"move", to_string(e.fits.front())}}), false);
    else
      feedback(app_.tr()("tui.game.fits", {{"count", e.fits.size()},
                                           {"completion", e.completion.size() > e.canonical.size()
                                                              ? e.completion
                                                              : std::string("none")}}),
               false);
  }

  void complete(const client::GameViewModel& vm) {
    if (!input_enabled_) return;
    const MoveEntry e = read_move_entry(app_.tr(), vm.position(), text_);
    if (e.problem.empty() && e.completion.size() > e.canonical.size()) set_text(vm, e.completion);
  }

  void enter(const client::GameViewModel& vm) {
    if (text_.empty()) return choose_at_cursor(vm);
    if (text_[0] == ':') {
      const std::string line = text_.substr(1);
      const std::size_t space = line.find(' ');
      const std::string word = line.substr(0, space);
      const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
      text_.clear();
      if (auto problem = source_->command(word, rest))
        feedback(*problem, true);
      else
        feedback_.clear();
      return;
    }
    if (!input_enabled_) {
      feedback(not_your_turn(vm), true);
      return;
    }
    const MoveEntry e = read_move_entry(app_.tr(), vm.position(), text_);
    if (!e.problem.empty()) {
      feedback(e.problem, true);
      return;
    }
    if (!e.unique()) {
      feedback(app_.tr()("tui.game.fits_more", {{"count", e.fits.size()}, {"typed", e.canonical}}),
               true);
      return;
    }
    submit(e.fits.front());
  }

  void submit(Move m) {
    const client::GameViewModel* vm = source_->view();
    if (!vm || !source_->play(m)) {
      feedback(app_.tr()("tui.game.not_taken"), true);
      return;
    }
    submitted_ = m;
    submitted_at_ = vm->moves().size();
    last_played_ = to_string(m);
    text_.clear();
    feedback(app_.tr()("game.you_played", {{"move", last_played_}}), false);
    input_.disable();
    input_enabled_ = false;
  }

  std::string not_your_turn(const client::GameViewModel& vm) const {
    return app_.tr()(vm.running() ? "error.not_your_turn" : "game.status.over");
  }

  void feedback(std::string text, bool error) {
    feedback_ = std::move(text);
    feedback_error_ = error;
  }

  std::unique_ptr<GameSource> source_;
  client::MoveInput input_;
  bool input_enabled_ = false;
  std::size_t shown_moves_ = static_cast<std::size_t>(-1);
  Color shown_side_ = Color::White;
  std::optional<Move> submitted_;
  std::size_t submitted_at_ = 0;
  std::string last_played_;
  Square cursor_ = Square::at(0, 0);
  std::string text_;
  std::string feedback_;
  bool feedback_error_ = false;
};

}  // namespace

std::unique_ptr<Screen> make_game_screen(App& app, std::unique_ptr<GameSource> source) {
  return std::make_unique<GameScreen>(app, std::move(source));
}

}  // namespace amazons::tui
