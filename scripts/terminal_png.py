#!/usr/bin/env python3
"""Renders a terminal screen as `tmux capture-pane -e -p` prints it (text with SGR colour codes)
to a PNG, through an HTML page of fixed cells that headless Chromium photographs. East Asian wide
characters take two cells, as in the terminal, so a Chinese screen keeps its columns.
Usage: terminal_png.py CAPTURE.ansi OUT.png COLUMNS ROWS"""
import html
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

CELL_W, CELL_H = 10, 24  # px: the page's cell, for 16 px type (18 px for a wide character)
FG, BG = "#d0d0d0", "#1c1c1c"  # the terminal's own colours (Ink::Default)
BASIC = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
         "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]


def xterm(n):
    """The xterm 256-colour palette."""
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    v = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (v, v, v)


def width(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def render(text, cols, rows):
    state = {"fg": None, "bg": None, "bold": False, "reverse": False}
    cells = []
    for y, line in enumerate(text.split("\n")[:rows]):
        x = 0
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            if part.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in part[2:-1].split(";")]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        state = {"fg": None, "bg": None, "bold": False, "reverse": False}
                    elif c == 1:
                        state["bold"] = True
                    elif c == 22:
                        state["bold"] = False
                    elif c == 7:
                        state["reverse"] = True
                    elif c == 27:
                        state["reverse"] = False
                    elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                        state["fg" if c == 38 else "bg"] = xterm(codes[i + 2])
                        i += 2
                    elif 30 <= c <= 37 or 90 <= c <= 97:
                        state["fg"] = BASIC[c - 30 if c < 90 else c - 90 + 8]
                    elif 40 <= c <= 47 or 100 <= c <= 107:
                        state["bg"] = BASIC[c - 40 if c < 100 else c - 100 + 8]
                    elif c == 39:
                        state["fg"] = None
                    elif c == 49:
                        state["bg"] = None
                    i += 1
                continue
            for ch in part:
                fg, bg = state["fg"] or FG, state["bg"] or BG
                if state["reverse"]:
                    fg, bg = bg, fg
                w = width(ch)
                cells.append((x, y, w, ch, fg, bg, state["bold"]))
                x += w
    # The backgrounds first, then the characters over them: a tall glyph is never cut by the
    # background of the row below.
    out = []
    for x, y, w, ch, fg, bg, bold in cells:
        if bg != BG:
            out.append('<i style="left:%dpx;top:%dpx;width:%dpx;background:%s"></i>'
                       % (x * CELL_W, y * CELL_H, w * CELL_W, bg))
    for x, y, w, ch, fg, bg, bold in cells:
        if ch == " ":
            continue
        # A narrow symbol (the board's rings and dots, East Asian "ambiguous") in a Western font,
        # as the terminal shows it narrow; the CJK font would draw it wide.
        narrow_symbol = w == 1 and ord(ch) > 0x7F
        style = (("font-weight:bold;" if bold else "") + ("font-size:18px;" if w == 2 else "")
                 + ("font-family:'DejaVu Sans Mono',monospace;" if narrow_symbol else ""))
        out.append('<span style="left:%dpx;top:%dpx;width:%dpx;color:%s;%s">%s</span>'
                   % (x * CELL_W, y * CELL_H, w * CELL_W, fg, style, html.escape(ch)))
    return """<!doctype html><meta charset="utf-8"><style>
body { margin: 0; background: %s; }
div { position: relative; width: %dpx; height: %dpx; margin: 12px; }
i, span { position: absolute; height: %dpx; }
span { line-height: %dpx; text-align: center; white-space: pre;
       font: 16px "Noto Sans Mono CJK SC", "DejaVu Sans Mono", "Noto Sans CJK SC", "WenQuanYi Micro Hei", monospace; }
</style><div>%s</div>""" % (BG, cols * CELL_W, rows * CELL_H, CELL_H, CELL_H, "".join(out))


def main():
    capture, png, cols, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(capture, encoding="utf-8") as f:
        page = render(f.read(), cols, rows)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "screen.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--screenshot=" + os.path.abspath(png),
                        "--window-size=%d,%d" % (cols * CELL_W + 24, rows * CELL_H + 24),
                        "file://" + path], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
