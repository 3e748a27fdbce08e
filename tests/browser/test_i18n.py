"""The page in Simplified Chinese: Chromium set to zh-CN (its --lang and Accept-Language) gets
the zh-CN catalogue (i18n/zh-CN.json) with no choice made. The first screen, the lobby, a game
against a real amazons-bot to its result (resigned, in the player's words), the screen reader's
announcement of the bot's move and a server's refusal (a join of a game that does not exist,
shown in the page's words for the code) are in Chinese, with no English word left on them but
names and the notation's; at a phone's width (390 px) nothing is wider than the screen. Then the
settings' switch to English, which is kept across a reload. Screenshots at desktop and phone
size go to the directory given as the first argument."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import (Bot, Server, browser, clear_notices, click, fail, game_state, js, page_text,
                         play_bot_as_white, sign_in, temp_dir, text, wait_for)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
PHONE = (390, 844)
DESKTOP = (1280, 900)

# Words in Latin letters that a page in Chinese may show: the players' names, the notation and
# the names of formats and keys, and English as the language switch names it.
ALLOWED = {"alice", "bot", "English", "Botzone", "ABCDEFGHJK", "JSON", "SGF", "Tab", "Esc", "kB", "SB", "JavaScript", "https"}


def english_left(d):
    """The words of two or more Latin letters on the page that are not allowed."""
    words = set(re.findall(r"[A-Za-z]{2,}", page_text(d)))
    return sorted(words - ALLOWED)


def check_chinese(d, where):
    left = english_left(d)
    if left:
        fail("English on the %s in zh-CN: %r" % (where, left))
    if not re.search(r"[\u4e00-\u9fff]", js(d, "return document.body.innerText")):
        fail("no Chinese on the %s" % where)


def fits(d, where):
    """Nothing wider than the window (no sideways scrolling at a phone's width)."""
    wide = js(d, "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if wide > 1:
        fail("the %s is %d px wider than the phone's screen" % (where, wide))


def shot(d, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        clear_notices(d)
        d.save_screenshot(os.path.join(SHOTS, name))


def both_sizes(d, where, name):
    """Screenshots at desktop and phone size; the phone's checked for overflow."""
    shot(d, name + "-desktop.png")
    d.set_window_size(*PHONE)
    time.sleep(0.3)
    fits(d, where)
    shot(d, name + "-phone.png")
    d.set_window_size(*DESKTOP)
    time.sleep(0.3)


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        bot = Bot(server, "bot")
        d = browser(tmp, "alice", *DESKTOP, lang="zh-CN")
        try:
            # The first screen: chosen from the browser's language, nothing asked.
            d.get(server.url)
            wait_for(d, "the first screen", lambda d: d.find_elements(By.ID, "rules-summary"))
            if js(d, "return document.documentElement.lang") != "zh-CN":
                fail("<html lang> is %r" % js(d, "return document.documentElement.lang"))
            if text(d, "#home h1") != "亚马逊棋" or "皇后" not in text(d, "#rules-summary"):
                fail("the first screen is not in Chinese: %r" % text(d, "#home"))
            # The guest name offered is a name, not a word to translate.
            js(d, "document.getElementById('name').value = 'alice'")
            check_chinese(d, "first screen")
            both_sizes(d, "first screen", "i18n-home")

            # The lobby.
            sign_in(d, server.url, "alice")
            wait_for(d, "the bot in the lobby", lambda d: d.find_elements(By.ID, "challenge-bot"))
            if text(d, "#screen h1") != "大厅" or text(d, "#create") != "创建对局":
                fail("the lobby is not in Chinese: %r / %r" % (text(d, "#screen h1"), text(d, "#create")))
            check_chinese(d, "lobby")
            both_sizes(d, "lobby", "i18n-lobby")

            # A server's refusal in the page's words: a join of a game that does not exist.
            d.get(server.url + "/#/join/999/ABCDEFGHJK")
            wait_for(d, "the refusal", lambda d: "对局 999" in text(d, "#notices"))
            if "没有这盘对局" not in text(d, "#notices"):
                fail("the server's refusal is not in Chinese: %r" % text(d, "#notices"))
            if re.search(r"[A-Za-z]{3,}", text(d, "#notices")):
                fail("the server's English reached the page: %r" % text(d, "#notices"))
            wait_for(d, "back in the lobby", lambda d: js(d, "return document.getElementById('screen').dataset.screen") == "lobby")
            clear_notices(d)

            # A game against the bot, its move announced, then resigned: the result in her words.
            play_bot_as_white(d)
            wait_for(d, "the bot's move announced", lambda d: "走了" in text(d, "#announce"))
            check_chinese(d, "game")
            click(d, "Resign", By.ID, "resign")
            click(d, "Resign again", By.ID, "resign")
            wait_for(d, "the result", lambda d: (game_state(d) or {}).get("status") == "finished" and text(d, "#result-title"))
            if text(d, "#result-title") != "你输了" or text(d, "#result-reason") != "白方认输。":
                fail("the result: %r / %r" % (text(d, "#result-title"), text(d, "#result-reason")))
            check_chinese(d, "game's result")
            both_sizes(d, "game's result", "i18n-game")

            # The settings: English chosen, applied and kept across a reload.
            d.get(server.url + "/#/settings")
            wait_for(d, "the settings", lambda d: d.find_elements(By.ID, "setting-language"))
            check_chinese(d, "settings")
            both_sizes(d, "settings", "i18n-settings")
            Select(d.find_element(By.ID, "setting-language")).select_by_value("en")
            wait_for(d, "the page in English", lambda d: js(d, "return document.documentElement.lang") == "en" and text(d, "#settings h1") == "Settings")
            d.refresh()
            wait_for(d, "English after a reload", lambda d: text(d, "#settings h1") == "Settings")
            if Select(d.find_element(By.ID, "setting-language")).first_selected_option.get_attribute("value") != "en":
                fail("the switch does not show English after a reload")
            d.get(server.url + "/#/")
            wait_for(d, "the lobby in English", lambda d: text(d, "#screen h1") == "Lobby")
            if re.search(r"[\u4e00-\u9fff]", js(d, "return document.body.innerText")):
                fail("Chinese left on the English lobby")
        finally:
            d.quit()
            bot.stop(now=True)
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
