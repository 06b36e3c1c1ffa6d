"""``simlab show``'s page in a real headless browser (Debian's chromium and chromedriver,
driven by selenium): no script error, the keys and buttons step through the line, the
move list jumps, and the reveal toggle turns the face-down cards over.

``make test`` installs the browser first where it can (as root with apt-get); without
it this file is skipped. Set ``SIMLAB_SCREENSHOTS=docs/images`` to also save the
screenshot as ``show.png`` there (the README's picture).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from simlab import cli, solve

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
INSTALL = "install it with 'apt-get install chromium chromium-driver' (make test does so as root)"
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip(f"no headless browser: {CHROMIUM} or {CHROMEDRIVER} is missing; {INSTALL}", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is missing: pip install -e '.[test]'")
from selenium.webdriver.chrome.service import Service  # noqa: E402  (only once selenium is there)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# The machine has no network: without these Chromium waits on, or fails at, its own services.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,820")
HOME = "[data-kind=foundation] .card"


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="simlab-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def open_page(browser, tmp_path: Path, *argv: str):
    page = tmp_path / f"{argv[0]}.html"
    assert cli.main(["show", *argv, "--html", str(page)]) == 0
    browser.get(page.as_uri())
    return browser.find_element(By.TAG_NAME, "body")


def count(browser, selector: str) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, selector))


def layout(browser) -> list[list[str]]:
    """Every card drawn, with its pile: what the board shows."""
    return browser.execute_script(  # one round trip, not two per card
        "return Array.from(document.querySelectorAll('.card'),"
        " card => [card.closest('[data-pile]').dataset.pile, card.dataset.card]);")


def errors(browser) -> list[dict]:
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def test_stepping_through_a_won_line(browser, tmp_path):
    body = open_page(browser, tmp_path, "beleaguered_castle", "2")
    assert errors(browser) == []
    moves = count(browser, "#moves li") - 1
    assert moves > 20 and count(browser, HOME) == 4  # the deal: four aces home
    deal = layout(browser)
    body.send_keys(Keys.END)
    assert count(browser, HOME) == 52 == count(browser, ".card")  # every card home
    assert body.get_attribute("data-step") == str(moves)
    assert browser.find_element(By.CSS_SELECTOR, "#moves li.current").get_attribute("data-step") == str(moves)
    end = layout(browser)
    body.send_keys(Keys.ARROW_LEFT)
    assert layout(browser) != end and count(browser, HOME) == 51  # the last move sent a card home
    body.send_keys(Keys.ARROW_RIGHT)
    assert layout(browser) == end
    body.send_keys(Keys.HOME)
    assert layout(browser) == deal and browser.find_element(By.ID, "prev").get_property("disabled")
    browser.find_element(By.ID, "next").click()
    assert body.get_attribute("data-step") == "1" and layout(browser) != deal
    browser.find_element(By.CSS_SELECTOR, "#moves li[data-step='30']").click()
    assert body.get_attribute("data-step") == "30" and "Move 30 of" in browser.find_element(By.ID, "status").text
    assert not browser.find_element(By.ID, "reveal-box").is_displayed()  # this game hides nothing
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "title")).perform()  # no hover in the picture
    shot = tmp_path / "show.png"
    assert browser.save_screenshot(str(shot)) and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("SIMLAB_SCREENSHOTS"):
        shutil.copy(shot, Path(os.environ["SIMLAB_SCREENSHOTS"]) / "show.png")
    assert errors(browser) == []


def test_reveal_turns_the_hidden_cards_over(browser, tmp_path):
    body = open_page(browser, tmp_path, "windmill", "3", "--policy", "greedy")
    assert errors(browser) == []
    face_down = count(browser, ".card.down")
    assert face_down == 94 and count(browser, ".card.peek") == 0  # Windmill's stock, all 104 - 10 dealt
    browser.find_element(By.ID, "reveal").click()
    assert count(browser, ".card.down") == 0 and count(browser, ".card.peek") == face_down
    body.send_keys(Keys.END)
    assert count(browser, ".card.peek") < face_down  # cards were turned from the stock
    browser.find_element(By.ID, "reveal").click()
    assert count(browser, ".card.peek") == 0 and count(browser, ".card.down") < face_down
    assert errors(browser) == []


def test_verdicts_mark_each_move_and_say_where_the_game_was_lost(browser, tmp_path):
    """``--verdicts``: the solver's line from beleaguered_castle deal 2 for three moves, then a
    move that loses it (tests/test_hint.py): a mark per position, and the verdict of the one shown."""
    line = [str(move) for move in solve("beleaguered_castle", 2).moves[:3]] + ["row1->row4"]
    moves = tmp_path / "moves.txt"
    moves.write_text(" ".join(line), encoding="utf-8")
    body = open_page(browser, tmp_path, "beleaguered_castle", "2", "--moves", str(moves), "--verdicts",
                     "--verdict-budget", "20000")
    assert errors(browser) == []
    marks = browser.execute_script("return Array.from(document.querySelectorAll('#moves li'),"
                                   " item => [item.className.replace('current', '').trim(),"
                                   " item.querySelector('.v').textContent]);")
    assert marks == [["v-won", "\u2713"]] * 4 + [["v-lost", "\u2717"]]
    verdict = browser.find_element(By.ID, "verdict")
    assert "still winnable \u2014 best move: " in verdict.text and "moves to win" in verdict.text
    body.send_keys(Keys.END)
    assert verdict.get_attribute("class") == "v-lost" and "lost: no win from here" in verdict.text
    assert errors(browser) == []
