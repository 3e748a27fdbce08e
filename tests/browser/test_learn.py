"""The first screen and Learn to play, for a visitor with no name: the first screen shows the
board, the rules in two lines, the ways in (the computer, the lesson, the analysis board) and
the sign-in form with a guest name to accept. The lesson's six steps are solved by clicks on
the board, after a wrong move that gets a hint and leaves the position as it was; the progress
survives a reload. Screenshots of the first screen at desktop and phone sizes and of a lesson
step go to the directory given as the first argument."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from browser_lib import Server, browser, click, fail, js, temp_dir, text, wait_for
from selenium.webdriver.common.by import By

SHOTS = sys.argv[1] if len(sys.argv) > 1 else None
SOLUTIONS = ["a1-d4/d5", "a1-a5/c5", "a6-b6/b2", "d3-d4/b6", "a6-f6/f2", "c1-b1/a1"]


def play(d, move):
    queen, rest = move.split("-")
    to, arrow = rest.split("/")
    for square in (queen, to, arrow):
        d.find_element(By.CSS_SELECTOR, '#lesson .board [data-sq="%s"]' % square).click()


def main():
    started = time.time()
    with temp_dir() as tmp:
        server = Server(tmp)
        d = browser(tmp, "visitor")
        try:
            d.get(server.url + "/")
            wait_for(d, "the first screen", lambda d: d.find_elements(By.ID, "home"))
            if len(d.find_elements(By.CSS_SELECTOR, "#home .board .queen")) != 8:
                fail("the first screen's board does not show the eight queens of the start")
            if "shoot an arrow" not in text(d, "#rules-summary"):
                fail("the rules summary reads %r" % text(d, "#rules-summary"))
            guest = d.find_element(By.ID, "name").get_attribute("value")
            if not re.match(r"^guest\d{4}$", guest):
                fail("the offered guest name is %r" % guest)
            for link in ("play-computer", "learn", "open-analysis"):
                if not d.find_elements(By.ID, link):
                    fail("the first screen has no %s" % link)
            if SHOTS:
                d.save_screenshot(os.path.join(SHOTS, "web-home.png"))
                d.set_window_size(390, 844)
                d.save_screenshot(os.path.join(SHOTS, "web-home-phone.png"))
                d.set_window_size(1280, 900)

            click(d, "Learn to play", By.ID, "learn")
            wait_for(d, "the lesson", lambda d: d.find_elements(By.ID, "lesson-text"))
            # A wrong move: a hint, and the position as it was.
            play(d, "a1-b1/c1")
            wait_for(d, "the hint", lambda d: "Not there" in text(d, "#lesson-feedback"))
            if d.find_element(By.CSS_SELECTOR, '#lesson .board [data-sq="a1"]').get_attribute("data-piece") != "white":
                fail("after a wrong move the queen is not back on a1")
            for i, move in enumerate(SOLUTIONS):
                wait_for(d, "step %d" % (i + 1), lambda d: text(d, "#lesson-step-title").startswith("Step %d of %d" % (i + 1, len(SOLUTIONS))))
                play(d, move)
                wait_for(d, "step %d solved" % (i + 1), lambda d: d.find_element(By.ID, "lesson-feedback").get_attribute("data-solved") == "yes")
                if SHOTS and i == 3:
                    d.save_screenshot(os.path.join(SHOTS, "web-learn.png"))
                if i + 1 < len(SOLUTIONS):
                    click(d, "Next step", By.ID, "lesson-next")
            wait_for(d, "the end of the lesson", lambda d: d.find_elements(By.ID, "lesson-done"))
            d.refresh()
            wait_for(d, "the lesson after a reload", lambda d: d.find_elements(By.ID, "lesson-text"))
            if not d.find_elements(By.ID, "lesson-done") or len(d.find_elements(By.CSS_SELECTOR, ".steps li.solved")) != len(SOLUTIONS):
                fail("the progress was not kept over a reload")
        finally:
            d.quit()
            server.stop()
    print("ok in %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
