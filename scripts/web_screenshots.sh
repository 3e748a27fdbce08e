#!/usr/bin/env bash
# Refreshes docs/screenshots/web-*.png (lobby, game, result, phone, premove, your-turn,
# tournament, computer, analysis board, first screen, lesson, a visitor watching, an invite, the
# page in Chinese) by running the browser tests
# that take them, against the release build. Needs chromium, chromium-driver, python3-selenium.
set -euo pipefail
cd "$(dirname "$0")/.."
export AMAZONS_BINARY_DIR=${AMAZONS_BINARY_DIR:-$PWD/build/release}
/usr/bin/python3 tests/browser/test_game_vs_bot.py docs/screenshots
/usr/bin/python3 tests/browser/test_invite_reload.py docs/screenshots
/usr/bin/python3 tests/browser/test_premove.py docs/screenshots
/usr/bin/python3 tests/browser/test_your_turn.py docs/screenshots
/usr/bin/python3 tests/browser/test_tournaments.py docs/screenshots
/usr/bin/python3 tests/browser/test_computer.py docs/screenshots
/usr/bin/python3 tests/browser/test_analysis.py docs/screenshots
/usr/bin/python3 tests/browser/test_learn.py docs/screenshots
/usr/bin/python3 tests/browser/test_visitor.py docs/screenshots
# The page in Simplified Chinese: two of the test's pictures.
zh=$(mktemp -d)
trap 'rm -rf "$zh"' EXIT
/usr/bin/python3 tests/browser/test_i18n.py "$zh"
cp "$zh/i18n-home-desktop.png" docs/screenshots/web-zh-home.png
cp "$zh/i18n-game-phone.png" docs/screenshots/web-zh-game-phone.png
