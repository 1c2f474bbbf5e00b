"""What the app and its screens share, below both (so no screen imports ``app``): the keys
that turn pages and the seats' levels. The app's own helpers that need its state
(``key_name``, ``level_name``, ``humans``, ``code``, ``new_game`` ...) are ``App`` methods that a
screen reaches through its ``app``."""

HUMAN = 255  # a seat's level when a person plays it
LEVEL_NAMES = ("easy", "medium", "hard")  # the computer levels 0, 1, 2
DIRECTIONS = ("up", "down", "left", "right")  # the joystick's, which repeat while held
MOVES = ("prev", "next") + DIRECTIONS  # the keys that go from page to page
