"""What a player trips over (issue 13), key by key on the real app: the X confirmation, stray
presses while rolling, the cursor after a build, looking at any item of the map, the coach's
line, key labels, settings on a four-button board, the hand-over on Continue, a saved game
replaced by a new one, words."""

import os
import sys
from pathlib import Path

MP_DIR = Path(__file__).parent / "mp"
FW_DIR = Path(__file__).parents[1] / "firmware"
for _p in (MP_DIR, FW_DIR):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import buttons
import fake_hw
import ui_autokeys
import ui_scenes
from catan import players
from catan.dice import ScriptedDice, SeededDice, code_to_seed
from catan.game import BUILD, REROLL, Game
from catan.players import coach
from catan.ui import canvas as cv
from catan.ui import turn as tn
from catan.ui.app import HUMAN, App
from catan.ui.dio_canvas import DioCanvas
from catan.ui.records import Settings, Stats
from catan.ui.turn import tenths

STICK = ("a", "b", "x", "y", "up", "down", "left", "right", "press")


def _app(store=None, roles=ui_scenes.ROLES, seed=5):
    app = App(DioCanvas(240, 135), store or ui_scenes.MemStore(), roles=roles,
              dice=lambda s: SeededDice(seed if s is None else s))
    app.draw()
    return app


def _keys(app, keys, now=None):
    now = app.now if now is None else now
    for k in keys.split(","):
        now += 50
        ui_autokeys.press(app, k, now)
    return now


def _continue(make, roles=ui_scenes.ROLES):
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(make)), roles)
    _keys(app, "a")  # Continue
    return app


def _screen(app):
    return type(app.screen).__name__


# ---------------------------------------------------------------------------- the turn screen

def test_end_x_confirmation_starts_on_back_which_cancels():
    app = _continue(ui_scenes._solo_build)
    s, g = app.screen, app.game
    assert g.why_undo() is not None  # nothing to undo: the usual case
    while s.cursor != tn.END_B:
        _keys(app, "x")
    _keys(app, "a")
    assert s.mode == 3 and tn.UNDO_B in s.targets and s.cursor == tn.UNDO_B
    assert app.keys_help("cancel") in _foot_text(s)
    _keys(app, "a")  # Back: no X
    assert s.mode == 0 and g.turns[0] == 1 and g.phase == BUILD
    while s.cursor != tn.END_B:
        _keys(app, "x")
    _keys(app, "a,x,a")  # End, then to "End: X" and A: now the X
    assert g.turns[0] == 2


def _foot_text(s):
    back = "menu" if s.mode == 0 else "cancel"
    return s.app.keys_help(back)


def test_a_stray_press_on_die_one_does_not_reach_keep():
    for roles, key in ((ui_scenes.ROLES, "x"), (STICK, "left"), (STICK, "up")):
        app = _continue(ui_scenes._solo_reroll, roles)
        s = app.screen
        assert app.game.phase == REROLL and s.cursor == tn.DIE
        _keys(app, key)
        assert s.cursor not in (tn.KEEP_B, tn.ROLL_B), key
        _keys(app, "a")
        assert app.game.phase == REROLL  # still rolling: die 1 marked or unmarked
    # going forward still reaches Keep; past Keep come the map's items, then die 1 again
    _keys(app, ",".join(["y"] * 7))
    assert s.cursor == tn.KEEP_B
    _keys(app, "y")
    assert s.cursor == 0  # road R0: looked at, not built (A refuses while rolling)
    _keys(app, ",".join(["y"] * (len(s.stops()) - s.stops().index(0))))
    assert s.cursor == tn.DIE


def _only_r0():
    # Island One, one player, building: brick, lumber and four wool pay for R0 and nothing else
    g = Game(1, 1, ScriptedDice([0, 1, 2, 2, 2, 2]))
    g.roll()
    g.stop()
    return g, (HUMAN,)


def test_after_a_build_the_cursor_is_not_on_undo():
    app = _continue(_only_r0)
    s, g = app.screen, app.game
    assert s.cursor == g.island.item("R0")
    _keys(app, "a")  # build it: now only Undo and End are left
    assert g.built == 1 and g.why_undo() is None and s.targets == [tn.UNDO_B, tn.END_B]
    assert s.cursor == tn.END_B
    _keys(app, "a")  # a second A ends the turn, with the build
    assert g.turns[0] == 1 and g.track[0] == 1


def test_every_item_of_the_map_can_be_looked_at_and_a_refuses_what_cannot_be_built():
    app = _continue(ui_scenes._solo_build)
    s, g = app.screen, app.game
    isl = g.island
    k1 = isl.item("K1")  # built in the scene
    assert s.cursor == isl.item("R0")  # the first stop is still a buildable item
    seen = set()
    for _ in range(len(s.stops())):  # Y goes round every stop once: the whole map is in it
        seen.add(s.cursor)
        _keys(app, "y")
    assert set(range(isl.n_items)) | {tn.sheet.JOKER + j for j in range(len(isl.jokers))} <= seen
    while s.cursor != k1:
        _keys(app, "y")
    assert [line for line, _ in s._info()][:2] == ["Knight K1: 1 point", "Built"]
    r2 = isl.item("R2")
    while s.cursor != r2:
        _keys(app, "y")
    assert [line for line, _ in s._info()] == ["Road R2: 1 point", "Needs road R0 first",
                                                 "Costs brick, lumber"]
    before = (list(g.roads), list(g.builds), g.spent, len(g.log))
    _keys(app, "a")
    assert s.msg == "R2 needs road R0 first" and s.cursor == r2
    assert (list(g.roads), list(g.builds), g.spent, len(g.log)) == before
    k2_joker = tn.sheet.JOKER + 1  # K2 is not built: its joker is locked
    while s.cursor != k2_joker:
        _keys(app, "y")
    _keys(app, "a")
    assert s.msg == "build K2 first" and s.mode == 0
    _keys(app, "x")  # X on the map steps back through it: K6 (K1's joker is a target)
    assert s.cursor == isl.item("K6")
    while s.cursor != isl.item("R0"):
        _keys(app, "y")
    _keys(app, "x")  # X from the first target still wraps round to End, as before
    assert s.cursor == tn.END_B
    _keys(app, "y")  # and Y from End goes on to the rest of the map
    assert s.cursor == isl.item("R1")


def _walk_checking_pixels(app, keys):
    # press each key; after each, the partial redraws must have left the picture a full
    # repaint gives. Returns how often the pixels under a cursor frame were put back.
    from catan.ui.canvas import Canvas

    put_back = Canvas.put_back
    count = [0]

    def counting(c):
        count[0] += 1
        put_back(c)

    Canvas.put_back = counting
    try:
        full = DioCanvas(240, 135)
        for k in keys:
            _keys(app, k)
            ui_scenes.repaint(app, full)
            assert app.c.gs4() == full.gs4(), "after %s the picture is not a full repaint's" % k
    finally:
        Canvas.put_back = put_back
    return count[0]


def test_a_cursor_frame_moves_by_putting_back_what_it_covered_and_the_picture_stays_exact():
    # Moving the frame round a site, a knight, a joker or a die puts back the pixels kept
    # under it instead of repainting (much cheaper on the device); any way round the map,
    # through dice, buttons, roads, and after actions, the picture stays a full repaint's.
    app = _continue(ui_scenes._solo_build)
    n = len(app.screen.stops())
    assert _walk_checking_pixels(app, ["y"] * (n + 2) + ["x"] * (n + 2)) >= 10
    app = _continue(ui_scenes._solo_reroll, STICK)  # rolled: the cursor on die 1
    keys = ["right"] * 3 + ["left", "a", "right", "a", "down", "up", "press"]
    assert _walk_checking_pixels(app, keys + ["right", "down", "left", "up"] * 6) >= 3
    assert app.game.phase == REROLL and app.screen.marks


def test_idle_time_makes_the_info_lines_the_next_x_or_y_shows():
    app = _continue(ui_scenes._solo_build)
    s = app.screen
    made = []
    info = s._info
    s._info = lambda t=None: made.append(s.cursor if t is None else t) or info(t)
    nxt, prev = s._step(1), s._step(-1)
    assert s.cursor not in made and nxt not in s._kept_lines()  # (the cursor's: drawn)
    assert s.think(lambda: False)  # the idle rounds: all the work ahead, the coach's too
    assert set(made) == {nxt, prev} and set(s._kept_lines()) == {s.cursor, nxt, prev}
    del made[:]
    _keys(app, "y")  # the lines were ready: the key only looks them up
    assert s.cursor == nxt and made == []
    assert s._lines() == [(p, c) for line, c in info(nxt) for p in tn.wg.wrap(app.c, line, app.lay.pw - 6)]
    _keys(app, "y")  # one further than the work ahead reached: made now
    assert made == [s.cursor]
    before = s._lines(nxt)
    _keys(app, "a")  # an action changes the game: what was made for the state before goes
    assert s._kept_lines() == {} or before is not s._kept_lines().get(nxt)


def test_the_foots_message_is_wrapped_once_not_at_each_paint():
    app = _continue(ui_scenes._solo_build)
    s = app.screen
    s.say("A message long enough to need two lines in the foot of the panel")
    wraps = []
    wrap = tn.wg.wrap
    tn.wg.wrap = lambda *a: wraps.append(a) or wrap(*a)
    try:
        app.refresh_all()
        app.draw()
        app.tick(app.now + 5000)  # (the message stays until the next key: more paints of it)
        app.refresh_all()
        app.draw()
    finally:
        tn.wg.wrap = wrap
    assert s.msg and [a[1] for a in wraps if a[1] == s.msg] == []
    assert len(s._msg_lines) == 3 and s._msg_lines == wrap(app.c, s.msg, app.lay.pw - 6)[:3]


def test_the_coachs_line_goes_when_the_player_acts():
    app = _continue(ui_scenes._solo_reroll)
    s = app.screen
    _keys(app, "y_long")
    assert s.msg.startswith("Coach:")
    while s.cursor != tn.KEEP_B:
        _keys(app, "y")
    _keys(app, "a")  # Keep: the build phase
    assert app.game.phase == BUILD and s.msg == ""


def test_a_hint_while_picking_a_jokers_die_keeps_the_pick():
    app = _continue(ui_scenes._solo_build)
    s = app.screen
    _keys(app, "y,a")  # the joker, then its die picker (scene turn_joker_die)
    assert s.mode == 1
    joker = s.joker
    _keys(app, "y_long")
    assert s.mode == 1 and s.joker == joker and s.msg.startswith("Coach:")
    assert s.cursor in s.targets


# ---------------------------------------------------------------------------- key labels

def test_key_labels_follow_swapped_a_and_b_and_the_title_has_no_menu():
    app = _app()
    assert app.keys_help() == "A:ok B:menu XY:move"
    assert "menu" not in app.keys_help(app.screen.back_label)
    app.settings.swap = 1
    assert app.keys_help() == "B:ok A:menu XY:move"
    assert app.keys_help("back") == "B:ok A:back XY:move"


# ---------------------------------------------------------------------------- turns taken

def test_island_two_counts_the_winning_turn_everywhere():
    from catan import console

    g, levels = ui_scenes._almost_over(2, (HUMAN,))
    app = _continue(lambda: (g, levels))
    game = app.game
    done = game.turns[0]
    from catan.players import next_action

    app.perform(next_action(game, 1, 0))  # the winning build
    assert game.over() and game.winner == 0
    assert game.turns_taken(0) == done + 1  # the turn it was won in counts
    assert app.stats.total[1] == done + 1 and app.stats.best[1] == done + 1
    assert app.stats.hist[1][Stats.bin_of(2, done + 1)] == 1
    assert app.screen.pending == [(0, done + 1)]  # the high score is the same count
    app.draw()
    assert "10 VP in %d turns" % (done + 1) in _texts(app)
    assert "in %d turns" % (done + 1) in "\n".join(console.render_result(game))


def _texts(app):
    """Every text the screen draws (the canvas's text calls, recorded)."""
    seen = []
    c = app.c
    real = c.text

    def text(x, y, s, colour, font=None):
        seen.append(s)
        return real(x, y, s, colour) if font is None else real(x, y, s, colour, font)

    c.text = text
    try:
        app.refresh_all()
        app.draw()
    finally:
        del c.text
    return "\n".join(seen)


# ---------------------------------------------------------------------------- menus

def _two_people():
    return ui_scenes._played(1, (HUMAN, HUMAN), 2)


def test_new_game_asks_before_replacing_the_saved_game():
    store = ui_scenes.MemStore(ui_scenes._game_store(_two_people))
    app = _app(store)
    saved = store.files["game"]
    assert app.screen.rows[:2] == ["Continue", "New game"]
    _keys(app, "y,a,x,a")  # New game, Start
    assert _screen(app) == "Replace" and app.screen.i == 0
    text = _texts(app).replace("\n", " ")
    assert "P1 person, P2 person" in text and "P1's turn 3" in text and "Island One" in text
    _keys(app, "a")  # Keep it: back to the form, the save untouched
    assert _screen(app) == "NewGame" and store.files["game"] == saved
    _keys(app, "a,y,a")  # Start, Replace it
    assert _screen(app) == "Turn" and store.files["game"] != saved
    assert app.game.players == 1


def test_continue_in_pass_and_play_hands_the_device_over_first():
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(_two_people)))
    _keys(app, "a")  # Continue
    assert _screen(app) == "HandOver"
    _keys(app, "a")
    assert _screen(app) == "Turn"


def test_the_title_menu_keeps_the_cursor_after_a_sub_screen():
    app = _app()
    _keys(app, "y,y,a")  # Dice fairness
    assert _screen(app) == "Scores"
    _keys(app, "b")
    assert _screen(app) == "Title" and app.screen.rows[app.screen.i] == "Dice fairness"


def _settings(app):
    while _screen(app) != "SettingsMenu":
        _keys(app, "x" if _screen(app) == "Title" else "b")
        if _screen(app) == "Title" and app.screen.rows[app.screen.i] == "Settings":
            _keys(app, "a")
    return app.screen


def test_four_buttons_step_brightness_both_ways_and_the_dice_back_to_random():
    app = _app()
    s = _settings(app)
    assert s.rows[s.i] == "Brightness"
    seen = set()
    for _ in range(12):
        _keys(app, "a")
        seen.add(app.settings.brightness)
    assert seen == set(range(1, 11))  # A steps round: down again after 10
    _keys(app, "b,x,x,x,x,a")  # the title's New game
    menu = app.screen
    while menu.rows[menu.i] != "Dice":
        _keys(app, "y")
    _keys(app, "a")
    first = menu.code
    assert first  # a new code to share
    _keys(app, "a")
    assert menu.code is None  # random again
    _keys(app, "a")
    assert menu.code and _screen(app) == "NewGame"
    _keys(app, "y,a")  # Type a code
    assert _screen(app) == "TextEntry"


def test_reset_statistics_is_disarmed_when_the_cursor_leaves_it():
    app = _app()
    app.stats.add_one(80, 0)
    s = _settings(app)
    while s.rows[s.i] != "Reset statistics":
        _keys(app, "y")
    _keys(app, "a")
    assert s.confirm
    _keys(app, "y,x")  # away and back
    assert not s.confirm
    _keys(app, "a")
    assert s.confirm and app.stats.games[0] == 1  # armed again, nothing reset yet
    _keys(app, "a")
    assert app.stats.games[0] == 0


# ---------------------------------------------------------------------------- words

def test_words_one_die_one_game_and_the_x_explained():
    g = Game(1, 1, ScriptedDice([0] * 6))
    g.roll()
    assert tn.describe(g, ("roll", 0b100)) == "re-rolls 1 die"
    assert tn.describe(g, ("roll", 0b110)) == "re-rolls 2 dice"
    app = _app()
    app.stats.add_one(80, 2)
    _keys(app, "y,a")  # Scores & stats: Island One
    text = _texts(app).replace("\n", " ")
    assert "1 game," in text and "2 turns with an X" in text and "X 2" not in text


def test_the_reroll_line_says_one_marked_die():
    app = _continue(ui_scenes._solo_reroll)
    _keys(app, "a")  # mark die 1
    while app.screen.cursor != tn.ROLL_B:
        _keys(app, "y")
    assert "Roll the 1 marked die." in _texts(app)


def test_swapped_keys_in_the_hand_over_and_the_text_entry():
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(_two_people)))
    app.settings.swap = 1
    _keys(app, "b")  # B chooses: Continue
    assert "press B to start" in _texts(app)


def test_game_over_says_the_coachs_review_follows():
    g, levels = ui_scenes._almost_over(1, (HUMAN,))
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(lambda: (g, levels))))
    app.settings.coach = 1
    _keys(app, "a")
    from catan.players.review import Review
    from catan.players import next_action

    app.review = Review()
    app.review.items = [(3, ("stop",), 1.5, ("roll", 1))]  # a choice that cost 1.5 points
    app.perform(next_action(app.game, 2, 0))
    assert _screen(app) == "GameOver" and app.screen.review
    assert "the coach's review" in _texts(app)


# ---------------------------------------------------------------------------- codes

def test_letters_repeat_while_held_in_a_text_entry():
    app = _app()
    assert "x" not in app.repeat_roles()
    _keys(app, "a")
    menu = app.screen
    while menu.rows[menu.i] != "Type a code":
        _keys(app, "y")
    _keys(app, "a")
    assert _screen(app) == "TextEntry" and {"x", "y"} <= set(app.repeat_roles())
    _keys(app, "b")
    assert "x" not in app.repeat_roles()


def test_a_random_game_has_a_code_shown_in_the_pause_menu_sheet_and_game_over():
    from catan.dice import code_to_seed

    app = App(DioCanvas(240, 135), ui_scenes.MemStore(), roles=ui_scenes.ROLES)  # device dice
    app.draw()
    _keys(app, "a,x,a")  # New game, Start (Dice: random)
    code = app.code()
    assert code and code_to_seed(code) == app.game.dice.seed
    _keys(app, "b")  # the pause menu
    assert "Game code %s" % code in _texts(app).replace("\n", " ")
    _keys(app, "y,y,a")  # Score sheet
    assert _screen(app) == "Scores" and code in _texts(app)
    g, levels = ui_scenes._almost_over(1, (HUMAN,))
    app = _continue(lambda: (g, levels))
    from catan.players import next_action

    app.perform(next_action(app.game, 2, 0))
    assert _screen(app) == "GameOver" and app.code() in _texts(app)


def test_the_coachs_review_survives_a_restart():
    from catan.players.review import Review

    r = Review()
    r.items = [(3, ("roll", 0b101), 1.25, ("stop",)), (7, ("build", 4), 0.5, ("joker", 1, 2, None)),
               (9, ("end",), 2.0, ("roll", None))]
    assert Review.loads(r.dumps()).items == r.items
    assert Review.loads(b"junk").items == [] and Review.loads(b"\x09" * 11).items == []
    store = ui_scenes.MemStore()
    app = _app(store)
    app.settings.coach = 1
    _keys(app, "a,x,a")  # a solo Island One game, the coach reviewing
    assert app.review is not None
    g = app.game
    app.perform(("roll", None))
    app.perform(("stop",))  # keeping any first roll rarely is the coach's choice
    for _ in range(3):
        if g.buildable():
            break
        app.perform(("end",))
        app.perform(("roll", None))
        app.perform(("stop",))
    assert app.review.items
    again = _app(store)  # the power fails: the review of the game comes back with it
    again.settings.coach = 1
    again._load_review()

    def rounded(items):
        return [(t, a, round(loss, 2), b) for t, a, loss, b in items]

    assert again.review is not None
    assert rounded(again.review.items) == rounded(app.review.items)


def _form(app):
    s = app.screen
    return [(s.rows[i], s.value(i)) for i in range(len(s.rows)) if s.value(i)]


def test_the_new_game_form_keeps_the_last_setup_over_a_restart():
    # issue 24: it came back as "One, 1, person" every time
    store = ui_scenes.MemStore()
    app = _app(store)
    _keys(app, "a")  # New game
    assert _form(app) == [("Island", "One"), ("Players", "1"), ("P1", "person"),
                          ("Dice", "random")]
    _keys(app, "a,y,a,y,y,a")  # Island Two, 2 players, P2 computer: hard
    setup = [("Island", "Two"), ("Players", "2"), ("P1", "person"), ("P2", "computer: hard"),
             ("Dice", "random")]
    assert _form(app) == setup
    _keys(app, "b,a")  # leave it unstarted, come back: still as it was
    assert _screen(app) == "NewGame" and _form(app) == setup
    _keys(app, "x,a")  # Start
    assert _screen(app) == "Turn" and app.game.island.number == 2
    assert app.levels == bytes((HUMAN, 2))
    again = _app(store)  # a restart: the form starts from the game last started
    _keys(again, "y,a")
    assert _screen(again) == "NewGame" and _form(again) == setup


def test_settings_of_the_old_version_load_with_the_first_setup():
    store = ui_scenes.MemStore({"settings": b"S\x01\x05\x01\x02\x01"})
    s = Settings.load(store)
    assert s.problem is None
    assert (s.brightness, s.swap, s.speed, s.coach) == (5, 1, 2, 1)
    assert (s.island, bytes(s.seats)) == (1, bytes((HUMAN,)))
    s.island, s.seats = 2, bytes((0, HUMAN, 2))
    back = Settings.load(ui_scenes.MemStore({"settings": s.dumps()}))
    assert (back.brightness, back.swap, back.speed, back.coach) == (5, 1, 2, 1)
    assert (back.island, bytes(back.seats)) == (2, bytes((0, HUMAN, 2)))
    for at, bad in ((6, 3), (6, 0), (7, 0), (7, 5), (8, 3), (9, 200)):
        data = bytearray(s.dumps())
        data[at] = bad
        broken = Settings.load(ui_scenes.MemStore({"settings": bytes(data)}))
        assert broken.problem and broken.island == 1 and broken.brightness == 8, (at, bad)


def test_quit_to_title_leaves_the_cursor_on_continue():
    # issue 24: it sat on New game (the row chosen to start the game)
    app = _app()
    _keys(app, "a,x,a")  # New game, Start
    assert _screen(app) == "Turn"
    _keys(app, "b,x,a")  # pause, Quit to title
    assert _screen(app) == "Title" and app.screen.rows[app.screen.i] == "Continue"


def test_every_page_of_the_rules_card_has_its_number_and_keys():
    app = _app()
    _keys(app, "y,y,y,a")  # Rules card
    for page in range(4):
        assert _screen(app) == "Rules" and app.screen.page == page
        text = _texts(app)
        assert "page %d/4" % (page + 1) in text and "X/Y: page" in text, page
        _keys(app, "y")


def _review_store(review):
    from catan.ui.records import Settings

    s = Settings()
    s.coach = 1
    store = ui_scenes._game_store(lambda: ui_scenes._almost_over(1, (HUMAN, 2)))
    store["settings"] = s.dumps()
    store["review"] = review.dumps()
    return ui_scenes.MemStore(store)


def test_the_coachs_review_reads_as_sentences_and_says_when_no_choice_cost_anything():
    from catan.players.review import Review

    app = _app(_review_store(Review()))
    _keys(app, "a")  # Continue: the computer's last action ends the game
    assert _screen(app) == "GameOver" and app.review is not None and not app.review.items
    assert "no costly choices" in _texts(app)
    app = _app(ui_scenes.MemStore(ui_scenes.SCENES[ui_scenes.NAMES.index("coach_review")][1]()))
    r = Review()
    r.items = [(2, ("roll", 12), 2.4, ("stop",)), (11, ("end",), 0.7, ("build", 2))]
    app.review = r
    _keys(app, "a")
    assert "no costly choices" not in _texts(app)
    _keys(app, "a,a,a,a,a")  # the initials, then the review
    assert _screen(app) == "GameOver" and app.screen.page == 1
    text = " ".join(_texts(app).split())
    assert "you chose to re-roll 2 dice; the coach would keep the dice" in text
    assert "you chose to end the turn; the coach would build R2" in text
    assert "re-rolls" not in text and "You:" not in text


def _finish_solo(stats=None, island=1):
    # a solo game one action from its end, continued and ended by that action
    from catan.players import next_action

    store = ui_scenes._game_store(lambda: ui_scenes._almost_over(island, (HUMAN,)))
    if stats is not None:
        store["stats"] = stats.dumps()
    app = _app(ui_scenes.MemStore(store))
    _keys(app, "a")  # Continue
    assert app.perform(next_action(app.game, 1, 0)) is None
    assert _screen(app) == "GameOver"
    return app


def test_the_end_of_a_game_names_the_player_and_compares_with_their_record():
    # issue 24: "human" here, "person" on the form; initials never shown; no comparison; the
    # high score said only once the initials were asked for

    app = _app(ui_scenes.MemStore(ui_scenes.SCENES[ui_scenes.NAMES.index("game_over_one")][1]()))
    _keys(app, "a")
    assert _screen(app) == "GameOver" and app.screen.pending
    text = _texts(app)
    # (issue 40) the island's first game enters an empty table: "first game", not "high score!"
    assert "human" not in text and "person" in text and "first game" in text.lower()
    assert "high score" not in text.lower()
    _keys(app, "a")
    assert _screen(app) == "TextEntry" and app.screen.title.startswith("First game: P1")
    _keys(app, "y,a,a,a")  # initials "BAA"
    assert _screen(app) == "GameOver" and not app.screen.pending
    text = _texts(app)
    assert "BAA" in text and "first game" in text.lower()
    st = Stats()
    for score in (61, 74, 88):
        st.add_one(score, 0)
    app = _finish_solo(st)
    score = app.game.score(0)
    text = " ".join(_texts(app).split())
    assert "average 74.3" in text and "best 88" in text and "3 games" in text, text
    assert app.screen.pending and "high score!" in text.lower()  # not the first game
    diff = score * 10 - 743
    if score > 88:
        assert "new best" in text.lower()
    else:
        assert "%d.%d %s your average" % (abs(diff) // 10, abs(diff) % 10,
                                          "above" if diff > 0 else "below") in text, text
    app = _finish_solo()  # the first game: nothing to compare with yet
    assert "first game" in " ".join(_texts(app).split())


def test_the_form_and_the_rules_card_say_every_seat_throws_the_same_dice():
    # issue 24: following the coach against the hard computer ties, and looked rigged
    app = _app()
    _keys(app, "a,y,a,y,y,a")  # New game, 2 players, P2 computer: hard
    s = app.screen
    assert s.rows[s.i] == "P2" and s.value(s.i) == "computer: hard"
    assert "same dice" in s.note() and "coach" in s.note()
    _keys(app, "x")  # P1
    assert "same dice" in s.note()
    _keys(app, "x")  # Players
    assert "same dice" in s.note()
    assert "same dice" in _texts(app)  # drawn: there is room with two seats
    _keys(app, "b,y,y,y,a")  # the rules card: its first page, and the keys page
    assert _screen(app) == "Rules"
    assert "Every seat throws the same dice in a turn." in _texts(app)
    _keys(app, "x")
    text = " ".join(_texts(app).split())
    assert "same dice" in text and "coach" in text and "hard" in text


def test_a_computers_re_roll_marks_its_dice_a_step_before_they_change():
    # issue 24: "P1 re-rolls 3 dice" and the dice changed at once: which ones, unseen
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(
        lambda: ui_scenes._played(1, (1, HUMAN), 3))))
    _keys(app, "a")  # Continue: P1, a computer, plays
    s = app.screen
    g = app.game
    assert s.busy() and g.player == 0
    now = 100
    seen = 0
    while g.player == 0:
        before = (g.rolls, bytes(g.faces), len(g.log))
        now += 1000
        app.tick(now)
        app.draw()
        if "re-rolls" in s.msg and s.marks and (g.rolls, bytes(g.faces), len(g.log)) == before:
            seen += 1
            marks = s.marks
            assert "re-rolls %d di" % bin(marks).count("1") in s.msg
            now += 1000
            app.tick(now)  # the next step rolls exactly the marked dice
            app.draw()
            assert g.rolls == before[0] + 1 and s.marks == 0
            for i in range(6):
                if not marks >> i & 1:
                    assert g.faces[i] == before[1][i]
    assert seen
    # a key finishes the turn at once, a re-roll marked or not
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(
        lambda: ui_scenes._played(1, (1, HUMAN), 3))))
    _keys(app, "a,b")
    assert app.game.player == 1


def test_no_costly_choices_is_said_even_when_four_seats_fill_the_screen():
    from catan.players.review import Review
    from catan.ui.records import Settings

    store = ui_scenes._game_store(lambda: ui_scenes._almost_over(1, (HUMAN, 2, 1, 0)))
    s = Settings()
    s.coach = 1
    store["settings"] = s.dumps()
    store["review"] = Review().dumps()
    app = _app(ui_scenes.MemStore(store))
    _keys(app, "a")
    while _screen(app) != "GameOver":
        _keys(app, "b")  # the computers' turns
    if app.screen.pending:
        _keys(app, "a,a,a,a")  # initials
    assert _screen(app) == "GameOver" and app.screen.clean
    assert "A: continue (coach: no costly choices)" in _texts(app)


def test_the_new_screens_redraw_in_part_exactly_as_in_whole():
    # the swap question comes and goes, the form's notes change, and a computer's marked
    # re-roll is thrown: each partial redraw leaves a full repaint's picture
    app = _app()
    _walk_checking_pixels(app, "y,y,y,y,a,y,a,a,right,left,a,y,x,a,b,x_long,b,a".split(","))
    assert app.settings.swap == 0  # swapped with B, then back with A
    app = _app()
    _walk_checking_pixels(app, "a,y,a,y,y,a,x,x,y,y,a,x".split(","))
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(
        lambda: ui_scenes._played(1, (1, HUMAN), 3))))
    _keys(app, "a")
    full = DioCanvas(240, 135)
    now = 100
    while app.game.player == 0:
        now += 1000
        app.tick(now)
        app.draw()
        ui_scenes.repaint(app, full)
        assert app.c.gs4() == full.gs4()


# ---------------------------------------------------------------------------- the coach, held Y

def _held(role, ms=700):
    # The events of a button held ``ms`` and let go, as firmware/buttons.py gives them on the
    # device (X and Y: the short step on the first edge, the long press at 600 ms).
    t = [0]
    pin = fake_hw.Pin(pull=fake_hw.Pin.PULL_UP)
    b = buttons.Buttons({role: (pin, 0)}, lambda: t[0], lambda a, b: a - b)
    pin.level = 0
    out = list(b.poll())
    for _ in range(ms // 10):
        t[0] += 10
        out += b.poll()
    pin.level = 1
    t[0] += 50
    return out + list(b.poll())


def _hold_y(app):
    events = _held("y")
    assert events == ["y", "y_long"]
    _keys(app, ",".join(events))


def _cursor_action(s):
    # What A would do where the cursor is, as an action the coach can value (None: A does
    # nothing the coach values there: a die's mark, a joker's or trade's picker, Undo).
    g, t = s.game, s.cursor
    if s.mode == 3:  # the X confirmation: "End: X" or "Back"
        return ("end",) if t == tn.END_B else None
    if s.mode != 0:
        return None
    if g.phase == REROLL:
        if t == tn.KEEP_B:
            return ("stop",)
        if t == tn.ROLL_B:
            return ("roll", s.marks) if s.marks else None
        return ("roll", s.marks) if s.marks else ("stop",)  # on a die: the dice as marked
    if g.phase == BUILD:
        if t == tn.END_B:
            return ("end",)
        if 0 <= t < tn.sheet.JOKER and t in s.targets:
            return ("build", t)
    return None


def _coach_line(g, yours):
    # The coach's line for a person whose A would do ``yours``, worked out from nothing.
    players.forget()
    saved = g.copy()
    action, best = coach.hint(saved)
    line = "Coach: " + tn.describe(saved, action)
    if best is not None:
        line += ", %s %s" % (tenths(best), coach.unit(saved))
        mine = coach.ev(saved, yours) if yours is not None else None
        if mine is not None and abs(mine - best) >= 0.05:
            line += "; yours %s" % tenths(mine)
    players.forget()
    return line


def _idle(app, cut):
    # The device's idle rounds between two keys, cut after ``cut`` slices of the work ahead
    # (a key came); the number of slices it asked for.
    n = [0]

    def until():
        n[0] += 1
        return n[0] > cut

    app.think(until)
    return n[0]


def test_a_held_y_asks_the_coach_about_the_cursor_as_it_was_whatever_the_work_ahead_did():
    # Issue 24, 2: Island One solo, game code T714FV, the coach followed by holding Y and
    # pressing A; in turn 2, after Roll, hold Y, A, hold Y, A, holding Y said "Coach: builds
    # K1, 93.5 pts; yours 84.0" with the cursor on K1. A held Y steps the cursor first (on
    # to End) and then asks: "yours" must be what A would have done before the press. The
    # work ahead is cut at every slice of the idle rounds before that hint (and the rounds
    # before at the same count).
    def play(cut):
        players.forget()
        app = _app(seed=code_to_seed("T714FV"))
        _keys(app, "a,x,a")  # New game: Island One, one person
        g = app.game
        while g.turns[0] < 1:  # turn 1, following the coach
            _idle(app, cut)
            _hold_y(app)
            _idle(app, cut)
            _keys(app, "a")
        for key in ("a", "y", "a", "y", "a"):  # Roll, hold Y, A, hold Y, A
            _idle(app, cut)
            _hold_y(app) if key == "y" else _keys(app, key)
        assert g.phase == BUILD and g.turns[0] == 1
        slices = _idle(app, cut)
        s = app.screen
        before = s.cursor
        want = _coach_line(g, _cursor_action(s))
        _hold_y(app)
        assert s.msg == want, (cut, s.msg, want)
        assert s.cursor == before == g.island.item("K1")  # the coach's choice, and it was there
        return slices

    cut = 0
    while play(cut) > cut:
        cut += 1
    assert cut > 5  # the idle rounds before the hint came in that many slices


def test_a_held_y_values_what_a_would_do_in_every_state_of_a_game():
    # A whole game following the coach by holding Y and pressing A, with the work ahead cut
    # part-way at varying points: each line the coach says is the one worked out from
    # nothing for what A would have done where the cursor was.
    import random

    rng = random.Random(7)
    players.forget()
    app = _app(seed=41)
    _keys(app, "a,x,a")
    g = app.game
    said = 0
    while not g.over():
        s = app.screen
        _idle(app, rng.choice((0, 1, 2, 5, 20, 100, 10 ** 6)))
        if rng.random() < 0.3 and len(s.targets) > 1:
            _keys(app, rng.choice("xy"))  # look elsewhere first: "yours" is then that
            _idle(app, rng.choice((0, 3, 10 ** 6)))
        want = _coach_line(g, _cursor_action(s))
        _hold_y(app)
        assert s.msg == want, (g.turns, g.phase, s.msg, want)
        said += "yours" in want
        _keys(app, "a")
    assert said > 5


def test_following_the_coach_on_a_turn_that_must_take_an_x_ends_the_turn():
    # Issue 24, 3: nothing can be built; the coach says "ends the turn", A asks "Nothing
    # built: end with an X (-2 points)?" with Back chosen; holding Y there points at the
    # confirmation's "End: X" (it used to cancel the question and point at End again).
    app = _continue(_nothing_to_build)
    s, g = app.screen, app.game
    for _ in range(3):
        _hold_y(app)
        assert s.msg.startswith("Coach: ends the turn")
        _keys(app, "a")
        if g.turns[0] == 1:
            break
        assert s.mode == 3 and s.cursor == tn.UNDO_B  # the question, on Back
    assert g.turns[0] == 1 and g.track[0] == -2  # ended with the X, not round in a loop


def _nothing_to_build():
    # Island One, one player, building with six ore: nothing to build, no joker, no trade
    g = Game(1, 1, ScriptedDice([4, 4, 4, 4, 4, 4]))
    g.roll()
    g.stop()
    return g, (HUMAN,)


def _review_record(items):
    from catan.players.review import Review

    r = Review()
    r.items = items
    return r.dumps()


# Fields one by one out of their range, each in an otherwise well-formed record of 11 bytes
# (the store's CRC is the store's business: these records are whole and correctly stored).
_BAD_REVIEW_ITEMS = (
    (3, ("build", 200), 1.5, ("stop",)),  # no item 200 on Island One (issue 26)
    (3, ("stop",), 1.5, ("build", 32)),  # Island One has items 0..31 (R0..R15, then sites)
    (3, ("trade", 5), 1.5, ("stop",)),  # gold is not a trade's resource
    (3, ("trade", 9), 1.5, ("stop",)),
    (3, ("joker", 6, 0, None), 1.5, ("stop",)),  # Island One has jokers 0..5
    (3, ("joker", 0, 6, None), 1.5, ("stop",)),  # six dice: 0..5
    (3, ("joker", 5, 0, None), 1.5, ("stop",)),  # the "?" joker needs its resource
    (3, ("joker", 5, 0, 5), 1.5, ("stop",)),  # ... and never gold
    (3, ("roll", 64), 1.5, ("stop",)),  # six dice: a mask below 64
    (3, ("roll", 0), 1.5, ("stop",)),  # a re-roll of no die is not an action
    (15, ("stop",), 1.5, ("end",)),  # turns 0..14
)


def test_a_review_record_with_a_field_out_of_range_loads_as_no_review():
    from catan.players.review import Review

    good = [(3, ("roll", 0b101), 1.25, ("stop",)), (14, ("joker", 5, 2, 4), 0.5, ("trade", 4)),
            (0, ("build", 31), 2.0, ("roll", None)), (9, ("undo",), 0.1, ("end",))]
    assert Review.loads(_review_record(good)).items == good
    for bad in _BAD_REVIEW_ITEMS:
        assert Review.loads(_review_record(good[:1] + [bad])).items == [], bad
    # an action with no argument whose argument bytes are not "absent"
    data = bytearray(_review_record(good[:1]))
    data[8] = 3  # the advice ("stop",) with a stray argument byte
    assert Review.loads(bytes(data)).items == []


def test_a_review_record_with_an_item_out_of_range_does_not_crash_the_game_over_screen():
    from catan.players import next_action
    from catan.ui.records import Settings

    g, levels = ui_scenes._almost_over(1, (HUMAN,))
    s = Settings()
    s.coach = 1
    for bad in _BAD_REVIEW_ITEMS:
        store = ui_scenes.MemStore(ui_scenes._game_store(lambda: (g.copy(), levels)))
        store.write("settings", s.dumps())
        store.write("review", _review_record([bad]))
        app = _app(store)
        _keys(app, "a")  # Continue: the review of the game comes back with it
        app.perform(next_action(app.game, 2, 0))
        assert _screen(app) == "GameOver"
        for _ in range(6):  # the initials of the high score (AAA), then the review page, if any
            _keys(app, "a")
            app.draw()  # drawn without an error
            if _screen(app) == "GameOver" and app.screen.page == 1:
                break
        assert _screen(app) != "TextEntry"


def test_a_solo_race_won_is_told_against_the_best_and_average_of_the_wins_before():
    # (The golden screenshots caught the best race kept as the worst.) The race's turns
    # against the wins before it: fewer than the best is a new best; else against the
    # average, faster or slower.
    t = _finish_solo(island=2).game.turns_taken(0)
    assert _finish_solo(island=2).game.winner == 0

    def told(wins):
        st = Stats()
        st.add_two(False, 40)  # a race lost: not in the averages
        for turns in wins:
            st.add_two(True, turns)
        return " ".join(_texts(_finish_solo(st, island=2)).split()).lower()

    assert "a new best" in told([t + 1, t + 5])  # one turn fewer than the best before
    text = told([t, t + 3])  # as fast as the best: not a new one; 1.5 turns faster
    assert "a new best" not in text and "1.5 turns faster than your average" in text, text
    text = told([t - 2, t - 1])  # slower than both
    assert "a new best" not in text and "1.5 turns slower than your average" in text, text
    assert "%d at best" % (t - 2) in text, text


def test_a_high_score_survives_leaving_the_end_screen_before_the_initials(tmp_path):
    # issue 40: the end of a game is one record (the statistics with the high score, under
    # the seat's name) written before the initials are asked; the device's store on a folder,
    # and a power cut at the end screen (a new App over the same files)
    import store as flash
    from catan.players import next_action

    store = flash.Store(str(tmp_path))
    files = ui_scenes._game_store(lambda: ui_scenes._almost_over(1, (HUMAN,)))
    assert store.write("game", files["game"])
    app = _app(store)
    _keys(app, "a")  # Continue
    assert app.perform(next_action(app.game, 1, 0)) is None
    score = app.game.score(0)
    assert _screen(app) == "GameOver" and app.screen.pending == [(0, score)]
    again = _app(flash.Store(str(tmp_path)))  # the power fails before the initials
    assert again.stats.games[0] == 1 and again.stats.high[0] == [(score, "P1 ")]
    assert not again.has_save()  # and the game is not played again
    _keys(app, "a,y,a,a,a")  # (had the power held: initials "BAA" name the same entry)
    assert _screen(app) == "GameOver" and not app.screen.pending
    st = flash.Store(str(tmp_path))
    from catan.ui.records import Stats

    assert Stats.load(st).high[0] == [(score, "BAA")] and Stats.load(st).games[0] == 1


def test_the_coachs_review_turned_on_during_a_game_reviews_from_the_next_move():
    # issue 40: the setting, changed from the pause menu, applies to the game in progress
    from catan.ui.menus import SettingsMenu

    app = _continue(ui_scenes._solo_build)  # the coach's review off (the default)
    assert app.review is None
    turn = app.screen
    menu = SettingsMenu(app, turn)
    row = menu.rows.index("Coach review")
    menu.i = row
    assert "during a game: from the next move" in menu.note()
    menu.change(row, 1)
    assert app.settings.coach == 1 and app.review is not None and not app.review.items
    app.show(turn)
    assert app.perform(("end",)) is None  # an X where R0 could be built: a costly choice
    assert app.review.items and app.review.items[0][1] == ("end",)
    assert app.store.files["review"] == app.review.dumps()  # kept over a restart
    menu.change(row, 1)  # off again: no review of the rest of the game
    assert app.settings.coach == 0 and app.review is None


def test_the_coachs_line_never_hides_the_question_the_panel_asks():
    # issue 40: "Choose the die it" without "changes.", "Trade 2 gold dice for" without the
    # rest: the message's box lay over the panel's last info lines. Now every info line but
    # the key help is drawn beside the coach's line (and a three-line note), on every layout.
    from catan.ui import sheet

    for w, h in ((240, 135), (240, 240), (320, 240)):
        for target in (sheet.JOKER, tn.TRADE_B):
            for said in (None, "Could not save the game (the flash is full): it is not safe. "
                               "Free some room."):
                app = App(DioCanvas(w, h), ui_scenes.MemStore(ui_scenes._game_store(
                    ui_scenes._solo_build)), roles=ui_scenes.ROLES,
                    dice=lambda s: SeededDice(5))
                _keys(app, "a")  # Continue
                s = app.screen
                s.cursor = target
                _keys(app, "a")  # the joker (which die?) or the trade (for which resource?)
                assert s.mode != 0
                lines = [t for t, colour in s._lines() if t and colour != cv.ORE]
                if said is None:
                    _keys(app, "y_long")
                    assert s.msg.startswith("Coach:")
                else:
                    s.say(said)
                assert len(s._msg_lines) >= 2
                drawn = _texts(app)
                for line in lines:
                    assert line in drawn, (w, h, target, line, drawn)
                for line in s._msg_lines:
                    assert line in drawn


def test_new_game_says_every_seat_has_the_same_dice_on_every_layout_and_seat_count():
    # issue 40: on 240x135 with 3 or 4 seats the rows left no room for the note
    from catan.ui.menus import NewGame

    for w, h in ((240, 135), (240, 240), (320, 240)):
        for n in (2, 3, 4):
            app = App(DioCanvas(w, h), ui_scenes.MemStore(), roles=ui_scenes.ROLES)
            app.settings.seats = bytes((HUMAN,) + (1,) * (n - 1))
            menu = NewGame(app)
            app.show(menu)
            for i, r in enumerate(menu.rows):
                if r[0] == "P" and r != "Players":
                    menu.i = i
                    text = " ".join(_texts(app).split()).lower()
                    assert "same dice" in text, (w, h, n, r)
