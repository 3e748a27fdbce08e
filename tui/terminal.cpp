#include "tui/terminal.h"

#include <csignal>
#include <cstring>
#include <map>
#include <utility>

#include <curses.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

namespace amazons::tui {

namespace {

volatile std::sig_atomic_t g_stop = 0;
// What the crash handler needs, prepared before any crash: the terminal modes from before
// curses, and the sequences that leave the alternate screen, show the cursor and reset colours.
struct termios g_saved_modes;
bool g_have_modes = false;
char g_reset[256];
std::size_t g_reset_len = 0;
std::map<std::pair<short, short>, short> g_pairs;

void on_stop(int) { g_stop = 1; }

// Async-signal-safe: tcsetattr and write only.
void on_crash(int sig) {
  if (g_have_modes) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_modes);
  if (g_reset_len > 0) {
    [[maybe_unused]] auto n = write(STDOUT_FILENO, g_reset, g_reset_len);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void append_cap(const char* name) {
  char* s = tigetstr(name);
  if (s == nullptr || s == reinterpret_cast<char*>(-1)) return;
  const std::size_t n = std::strlen(s);
  if (g_reset_len + n >= sizeof g_reset) return;
  std::memcpy(g_reset + g_reset_len, s, n);
  g_reset_len += n;
}

void install_handlers() {
  struct sigaction stop {};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &stop, nullptr);
  struct sigaction crash {};
  crash.sa_handler = on_crash;
  sigemptyset(&crash.sa_mask);
  crash.sa_flags = SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGQUIT})
    sigaction(sig, &crash, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

short color_of(Ink ink, bool rich) {
  switch (ink) {
    case Ink::Default:
    case Ink::Text:
      return -1;
    case Ink::Muted:
      return rich ? 245 : COLOR_CYAN;
    case Ink::Accent:
      return rich ? 75 : COLOR_BLUE;
    case Ink::Danger:
      return rich ? 203 : COLOR_RED;
    case Ink::Good:
      return rich ? 77 : COLOR_GREEN;
    case Ink::LightSquare:
      return rich ? 180 : COLOR_YELLOW;
    case Ink::DarkSquare:
      return rich ? 137 : COLOR_GREEN;
    case Ink::WhiteQueen:
      return rich ? 231 : COLOR_WHITE;
    case Ink::BlackQueen:
      return rich ? 16 : COLOR_BLACK;
    case Ink::Arrow:
      return rich ? 88 : COLOR_RED;
    case Ink::Selected:
      return rich ? 221 : COLOR_CYAN;
    case Ink::LastMove:
      return rich ? 150 : COLOR_MAGENTA;
    case Ink::Target:
      return rich ? 22 : COLOR_BLUE;
    case Ink::Cursor:
      return rich ? 21 : COLOR_RED;
  }
  return -1;
}

}  // namespace

Expected<std::unique_ptr<Terminal>, std::string> Terminal::open(bool ascii) {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
    return Unexpected(std::string("amazons-tui needs a terminal (stdin and stdout are not one)"));
  const char* term = std::getenv("TERM");
  if (term == nullptr || *term == '\0')
    return Unexpected(
        std::string("TERM is not set: say which terminal this is, e.g. TERM=xterm-256color"));
  install_handlers();
  g_have_modes = tcgetattr(STDIN_FILENO, &g_saved_modes) == 0;
  if (newterm(nullptr, stdout, stdin) == nullptr)
    return Unexpected("the terminal \"" + std::string(term) + "\" is unknown to terminfo");
  append_cap("rmcup");
  append_cap("cnorm");
  append_cap("sgr0");
  std::unique_ptr<Terminal> t(new Terminal(ascii));
  set_escdelay(25);
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  curs_set(0);
  if (!ascii && has_colors()) {
    start_color();
    use_default_colors();
    t->colors_ = true;
  }
  return t;
}

Terminal::~Terminal() {
  endwin();
  g_reset_len = 0;
}

bool Terminal::stop_requested() { return g_stop != 0; }

int Terminal::width() const { return COLS; }
int Terminal::height() const { return LINES; }

std::optional<Key> Terminal::read(std::chrono::milliseconds timeout_ms) {
  timeout(static_cast<int>(timeout_ms.count()));
  wint_t ch = 0;
  const int r = get_wch(&ch);
  if (r == ERR) return std::nullopt;
  using C = Key::Code;
  if (r == KEY_CODE_YES) {
    switch (ch) {
      case KEY_UP:
        return Key::of(C::Up);
      case KEY_DOWN:
        return Key::of(C::Down);
      case KEY_LEFT:
        return Key::of(C::Left);
      case KEY_RIGHT:
        return Key::of(C::Right);
      case KEY_HOME:
        return Key::of(C::Home);
      case KEY_END:
        return Key::of(C::End);
      case KEY_PPAGE:
        return Key::of(C::PageUp);
      case KEY_NPAGE:
        return Key::of(C::PageDown);
      case KEY_DC:
        return Key::of(C::Delete);
      case KEY_BACKSPACE:
        return Key::of(C::Backspace);
      case KEY_ENTER:
        return Key::of(C::Enter);
      case KEY_BTAB:
        return Key::of(C::BackTab);
      default:
        return std::nullopt;  // KEY_RESIZE: the next present() uses the new size
    }
  }
  switch (ch) {
    case L'\n':
    case L'\r':
      return Key::of(C::Enter);
    case 27:
      return Key::of(C::Escape);
    case L'\t':
      return Key::of(C::Tab);
    case 127:
    case 8:
      return Key::of(C::Backspace);
    default:
      if (ch < 0x20) return std::nullopt;
      return Key::character(static_cast<char32_t>(ch));
  }
}

short Terminal::pair_for(short fg, short bg) {
  const auto key = std::pair{fg, bg};
  if (auto it = g_pairs.find(key); it != g_pairs.end()) return it->second;
  const auto next = static_cast<short>(g_pairs.size() + 1);
  if (next >= COLOR_PAIRS) return 0;
  init_pair(next, fg, bg);
  g_pairs.emplace(key, next);
  return next;
}

void Terminal::present(const Canvas& c) {
  const bool rich = COLORS >= 256;
  const int w = std::min(c.width(), COLS), h = std::min(c.height(), LINES);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const Cell& cell = c.at(x, y);
      // The terminal fills a wide character's second column itself; in ASCII the character
      // became one '?' and its second column a space.
      if (cell.ch == kWideTail && !ascii_) continue;
      const char32_t ch = cell.ch == kWideTail ? U' ' : cell.ch;
      attr_t attrs = A_NORMAL;
      short pair = 0;
      if (cell.paint.bold) attrs |= A_BOLD;
      if (cell.paint.reverse) attrs |= A_REVERSE;
      if (colors_) pair = pair_for(color_of(cell.paint.fg, rich), color_of(cell.paint.bg, rich));
      wchar_t text[2] = {static_cast<wchar_t>(ascii_ && ch > 0x7E ? U'?' : ch), 0};
      cchar_t cc;
      setcchar(&cc, text, attrs, pair, nullptr);
      // The bottom-right cell: writing it would scroll on some terminals, so it stays blank.
      if (y == LINES - 1 && x == COLS - 1) continue;
      mvadd_wch(y, x, &cc);
    }
  }
  refresh();
}

}  // namespace amazons::tui
