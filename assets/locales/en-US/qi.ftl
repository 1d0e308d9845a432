# Qi's texts in English (en-US). Every text the window shows has a key here and in
# ../zh-CN/qi.ftl; the test `every_key_in_both_languages_and_in_use` keeps the two files and
# the code in step. Syntax: https://projectfluent.org/fluent/guide/

## The app and its games

app-name = Qi
game-ataxx = Ataxx
game-reversi = Reversi
game-gomoku = Gomoku
game-go = Go
side-black = Black
side-white = White
side-red = Red
side-blue = Blue
player-default-name = Player
player-default-name-2 = Player 2
cpu-name = CPU { $level }
back = Back
yes = Yes
no = No

## Main menu

menu-continue = Continue
menu-new-game = New game
menu-load = Load
menu-records = Records
menu-rules = Rules
menu-settings = Settings
menu-quit = Quit
menu-keys-hint = Arrows or Tab to move, Enter or Space to choose

## New game

new-game-title = New game
new-game-game = Game
new-game-board = Board
new-game-mode = Mode
mode-vs-cpu = vs CPU
mode-two-players = Two players
mode-cpu-vs-cpu = CPU vs CPU
new-game-you-play = You play
color-first = { $side } (moves first)
color-second = { $side } (CPU moves first)
color-random = Random
new-game-level = CPU level
new-game-side-level = { $side } CPU level
new-game-names = Names
new-game-start = Start
new-game-keys-hint = Up/Down pick a row, Left/Right change it, Enter starts

## Save slots

slots-save-title = Save game
slots-load-title = Load game
slot-name = Slot { $n }
slot-empty = empty
slot-unreadable = unreadable
slot-delete = Delete
slot-summary = { $game } · { $black } vs { $white } · { $score } · { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    } · { $date }

## Questions

confirm-quit-saved = Quit Qi? Your game is saved automatically: Continue on the main menu resumes it.
confirm-quit = Quit Qi?
confirm-leave-saved = Leave this game for the main menu? It is saved automatically: Continue resumes it.
confirm-leave = Leave for the main menu?
confirm-load-unsaved = Load slot { $slot }? It replaces the game in progress, which is not in a save slot: save it first to keep it.
confirm-load-saved = Load slot { $slot }? It replaces the game in progress (its last save is in a slot).
confirm-load = Load slot { $slot }?
confirm-overwrite = Slot { $slot } holds a save. Overwrite it?

## Game over

game-over = Game over
game-over-play-again = Play again
game-over-save-record = Save the record
game-over-look = Look at the board
main-menu = Main menu
players-vs = { $black } vs { $white }
game-over-moves-in = { $n ->
        [one] 1 move
       *[other] { $n } moves
    } in { $time }
record-saved = Record saved: { $path }

## Pause

pause-title = Paused
pause-resume = Resume
pause-save = Save game
pause-save-record = Save the record ({ $format })
status-selection-dropped = Selection dropped
status-replaying = Replaying { $source }: { $n ->
        [one] 1 move
       *[other] { $n } moves
    }
status-loaded = Game loaded at move { $n }
status-new-game = New game: { $side } to move

## Settings

settings-title = Settings
settings-language = Language
settings-theme = Theme
theme-dark = Dark
theme-light = Light wood
settings-volume = Volume
settings-mute = Mute
settings-animation = Animation speed
settings-animation-off = 0 = off
settings-legal-moves = Show legal moves
settings-eval-bar = Eval bar
settings-cpu-delay = CPU vs CPU: pause between moves (s)
settings-game-level = { $game } CPU level
settings-game-time = { $game } CPU time per move (ms)
settings-game-numbers = { $game } move numbers on the pieces

## Records

cannot-open = Cannot open { $name }: { $why }
cannot-start = Cannot start the game: { $why }
records-example = { $name } (example)
records-unreadable = { $name } (cannot be read)
moves-count = { $n ->
        [one] 1 move
       *[other] { $n } moves
    }
records-results = Your results
records-replay = Replay a game
records-none = No finished games yet. Results are kept here after each game.
records-totals = Totals
records-against = Against
records-won = Won
records-drawn = Drawn
records-lost = Lost
records-cpu-level = CPU level { $level }
records-people = people
records-last-games = Last games
records-last-game = { $date } · { $game } · { $player } { $outcome ->
        [won] won
        [drew] drew
       *[lost] lost
    } against { $opponent } · { $score } · { $n ->
        [one] 1 move
       *[other] { $n } moves
    }
records-choose = Choose a game to replay (Up/Down and Enter, or click):
records-open-file = Or open a file (SGF for Go, Reversi and Gomoku; PGN for Ataxx):
records-path-hint = /path/to/game.sgf
records-open = Open

## In a game: the top bar and the side panel

hud-player = { $side } ({ $who })
hud-cpu-thinking = { $side } to move — CPU thinking… { $secs } s
hud-to-move = { $side } to move
hud-move-time = Move { $n }  ·  { $time }
hud-result = Result
hud-last-move = Last move: { $mv }
hud-both-passed = Both players passed.
hud-mark-dead = Click a group to mark it dead (red cross) or alive again.
hud-score = Score: { $score }
hud-confirm-score = Confirm the score (Enter)
hud-cpu-go-on = Go on
hud-cpu-one-move = One move
hud-cpu-pause = Pause the CPUs
hud-undo = Undo (U)
hud-redo = Redo (R)
hud-hint = Hint (H)
hud-pass = Pass (P)
hud-resign = Resign
hud-pause = Pause (Esc)
hud-type-move = Type a move ({ $notation }) and press Enter:
hud-move-hint = move, or U to undo
hud-move-hint-enter = press Enter to type
status-wait-turn = Wait for your turn
status-cannot-read-move = Cannot read '{ $text }' as a move; write it like { $notation }
eval-wins-in = { $side } wins in { $n ->
        [one] 1 move
       *[other] { $n } moves
    }
eval-score = { $side } { $score } · depth { $depth }
eval-chance = { $side } { $pct }% to win · depth { $depth }
eval-speed = { $text } · { $knps } kn/s
eval-win-rate = { $side } { $pct }% to win · { $playouts } playouts
eval-exact = { $side } { $score } · exact
eval-exact-draw = Draw · exact
eval-solved-win = { $side } wins · solved
eval-solved-draw = Draw · solved

## Replay

replay-title = Replay
replay-result = Result: { $result }
replay-move-of = Move { $n } of { $total }
replay-stop-autoplay = Stop autoplay (Space)
replay-autoplay = Autoplay (Space)
seconds-suffix = { " " }s
replay-keys-hint = Left / Right step, Home / End first / last
replay-play-from-here = Play from here
replay-vs-cpu = Against the CPU
replay-menu = Menu (Esc)
replay-moves = Moves

## Status line

status-no-move-passes = { $side } has no move and passes
status-passes = { $side } passes
status-played = Move { $n }: { $side } played { $mv }
status-resigns = { $side } resigns: { $result }
status-resignation-undone = Resignation taken back
status-nothing-to-undo = Nothing to undo
status-undone = Undone: back to move { $n }
status-nothing-to-redo = Nothing to redo
status-redone = Redone: move { $n }
status-play-on = Playing on from move { $n }: { $side } to move
replay-status-move = : { $side } { $mv }
replay-status-result = { " " }· result { $result }
status-language = Language: { $language }
status-saved = Saved in slot { $slot }
status-cpu-paused = CPU game paused
status-cpu-resumed = CPU game goes on
status-no-hint = No hint: there is no CPU for { $game } yet
status-hint-thinking = Looking for a good move…
status-hint = Hint: { $mv }
status-game-over = The game is over
status-replay-controls = Replaying: use the replay controls
status-wait-cpu = Wait: the CPU is to move
status-selected = Selected { $square }: choose where it goes
status-go-marking = Both passed: click groups to mark them dead or alive, then Confirm
status-go-marked-score = Score with the marked stones dead: { $score }

## Files

autosave-bad-kept = Your last game could not be continued: { $why }. The file was kept as { $path }.
autosave-bad = Your last game could not be continued: { $why } ({ $io }).
autosave-failed = The game is not being autosaved: { $why }
error-save-slot = Cannot save in slot { $slot }: { $why }
error-load-slot = Cannot load slot { $slot }: { $why }
error-delete-slot = Cannot delete slot { $slot }: { $why }
error-continue = Cannot continue the last game: { $why }
error-save-record = Cannot save the record: { $why }

## The window's title (tests find the window by its start, "Qi")

window-title = Qi
window-title-paused = Qi - paused
window-title-playing = Qi - playing

## Results

result-draw-count = Draw { $black }-{ $white }
result-jigo = Draw (jigo)
result-draw-board-full = Draw: the board is full
result-draw = Draw
result-win-count = { $side } wins { $won }-{ $lost }
result-win-score = { $side } wins by { $points ->
        [one] 1 point
       *[other] { $points } points
    }
result-win-discs = { $side } wins by { $discs ->
        [one] 1 disc
       *[other] { $discs } discs
    }
result-win-line = { $side } wins with five in a row
result-win-resignation = { $side } wins by resignation
result-win-time = { $side } wins on time
result-win-forfeit = { $side } wins by forfeit
result-win = { $side } wins

## Clicks on the board that are not moves

refuse-taken = { $square } is taken
refuse-not-legal = { $square } is not a legal move
refuse-off-board = { $square } is off the board
refuse-ataxx-unreachable = { $square } cannot be reached from { $from }
refuse-ataxx-stuck = The piece on { $square } cannot move
refuse-ataxx-pick = Pick one of your pieces first ({ $square } is not a move)
refuse-not-go = not a Go position
refuse-go-suicide = { $square } would be suicide: the stone would have no liberty and capture nothing
refuse-go-ko = { $square } is ko: retaking at once would repeat the position; play elsewhere first

## Game options

option-standard-start = Standard start position
board-size = { $n }×{ $n }
ataxx-layout-classic = Classic
ataxx-layout-four-blocks = Four blocks
ataxx-layout-cross = Cross
ataxx-layout-pillars = Pillars
ataxx-layout-corridor = Corridor
gomoku-freestyle = Freestyle
gomoku-standard = Standard
gomoku-renju = Renju
gomoku-rule-line = Rule: { $rule }
go-handicap = Handicap
go-handicap-none = none
go-komi = Komi
go-komi-line = Komi { $komi }
go-captures = Captures: Black { $black }, White { $white }
go-captures-area = Captures: Black { $black }, White { $white } · Area now { $area }

## Rules pages

rules-ataxx =
    Two players, Red (x) and Blue (o), on a 7×7 board; Red moves first.
    • Clone: move to an empty square next to one of your pieces (also diagonally); the new piece appears and the old one stays.
    • Jump: move a piece exactly two squares away; it leaves its square.
    • Every enemy piece next to the square you move to turns into yours.
    • Grey squares are blocked. With no move you pass; the game ends when the board is full, a side has no pieces, neither side can move, or after 100 plies without a clone (a draw). Most pieces wins.
    Type moves as g2 (clone) or a1c3 (jump).
rules-reversi =
    Black and White on an 8×8 board; Black moves first from the four centre discs.
    • Place a disc so that it encloses a straight line (row, column or diagonal) of your opponent's discs between it and another of your discs: all enclosed discs turn over.
    • A move must turn at least one disc; with no such move you pass.
    • The game ends when neither side can move. Most discs wins; empty squares go to the winner.
    Type moves as d3; 'pass' when you must pass.
rules-gomoku =
    Black and White take turns placing stones on the crossings of a 15×15 (or 19×19) board; Black first.
    • Five in a row (across, down or diagonally) wins.
    • Freestyle: five or more. Standard: exactly five.
    • Renju: Black may not make a double three, a double four or an overline (those points are crossed out); White may.
    Type moves as h8.
rules-go =
    Black and White place stones on the intersections; Black first.
    • A group with no liberties is captured.
    • A move may not repeat an earlier whole-board position (ko, superko), and may not be suicide.
    • Two passes end the game; then mark the dead stones and confirm.
    • Area scoring: stones plus surrounded points, plus komi for White.
    Type moves as D4 (columns skip I), or pass.

## qi --help

cli-about = Qi: Ataxx, Reversi, Gomoku and Go against a friend or the CPU
cli-usage = Usage
cli-options = Options
cli-lang = The window's language (en-US, zh-CN); the default is the one chosen in Settings, or on the first start the system's
cli-game = Start straight into a game of this kind
cli-mode = Who plays: vs the CPU, two players on this machine, or CPU against CPU
cli-level = CPU level, 1 (easiest) to 6 (strongest); without it, the level this game was last started with (3 the first time)
cli-color = Your colour against the CPU: black (moves first), white, or random
cli-fen = Start from this position (the game's own text form, e.g. an Ataxx FEN)
cli-record = Open this game record (SGF, or PGN for Ataxx) to replay, at the last move or at --at
cli-at = With --record: the move to show (0 is the start)
cli-screenshot = Save a screenshot to this PNG file once the first screen is drawn
cli-exit-after-screenshot = Quit after the --screenshot is written (for tests)
cli-screenshot-dir = Folder where F12 screenshots are written (default: the current folder)
cli-save-dir = Folder for save slots and the autosave (default: the platform's data folder)
cli-animation-speed = Animation speed factor (0 turns animations off)
cli-help = Print help
cli-version = Print the version

## Analysis

analysis-title = Analysis
analysis-start = Analyse ({ $secs } s a move)
analysis-progress = { $done } of { $total } positions
analysis-cancel = Cancel
analysis-previous = Previous mistake (B)
analysis-next = Next mistake (N)
analysis-summary = { $name }: average loss { $loss }, { $inaccuracies ->
        [one] 1 inaccuracy
       *[other] { $inaccuracies } inaccuracies
    }, { $mistakes ->
        [one] 1 mistake
       *[other] { $mistakes } mistakes
    }, { $blunders ->
        [one] 1 blunder
       *[other] { $blunders } blunders
    }
mark-inaccuracy = inaccuracy
mark-mistake = mistake
mark-blunder = blunder
status-analysing = Analysing the game…
status-analysis-done = Analysis done: N and B jump between the marked moves
status-analysis-cancelled = Analysis cancelled
status-analysis-failed = The analysis failed: { $why }
analysis-decided = { $side } wins by force
analysis-value = { $side } { $value }
analysis-best = best { $mv }
analysis-loss = loss { $loss }
game-over-analyse = Analyse the game
status-territory = Territory (T): estimate { $estimate }
candidate-win = win
candidate-loss = loss
status-candidates-not-now = Candidates (C) show while replaying, or on your turn against the CPU
save-error-no-slot = there is no slot { $slot } (slots are 1 to { $count })
save-error-empty = nothing is saved there
save-error-unreadable = the save cannot be read: { $why }
unreadable-empty = the file is empty
unreadable-too-big = it is { $bytes } bytes, more than the { $max } a save may have
unreadable-newer = it was saved by a newer version of Qi (save format { $format }; this one reads up to { $max })
unreadable-damaged = the file is damaged or truncated ({ $why })
unreadable-format-zero = save format 0 does not exist
unreadable-bad-start = the start position cannot be read ({ $why })
unreadable-bad-move = move { $n } ({ $mv }) cannot be played
unreadable-cursor = the undo cursor { $cursor } is past the { $moves } moves
load-problem-kept = { $name } cannot be read: { $why }. The defaults are used; the old file was kept as { $kept }
load-problem-not-kept = { $name } cannot be read: { $why }. The defaults are used (the old file could not be set aside: { $error })
disk-denied = Qi may not write there (permission denied)
disk-full = the disk is full
disk-read-only = the disk is read-only
disk-no-folder = the folder is not there
disk-failed = { $doing } ({ $why })
disk-doing-write = cannot write { $path }
disk-doing-create-folder = cannot create the folder { $path }
disk-doing-delete = cannot delete { $path }
disk-doing-set-aside = cannot set the unreadable { $path } aside
disk-doing-encode = cannot make the file's text
read-denied = the file cannot be read: permission denied
read-io = the file cannot be read ({ $why })
read-folder = it is a folder, not a file
read-not-a-file = it is not a regular file
read-too-big = it is { $bytes } bytes, more than the { $max } Qi reads
read-not-utf8 = it is not UTF-8 text (byte { $at })
record-no-such-file = the file does not exist
record-empty = the file is empty
record-too-big = it is { $bytes } bytes, more than the { $max } a record may have
record-not-a-record = it is neither an SGF record nor a PGN one
record-syntax = the { $format } text is not well formed
record-syntax-line = the { $format } text is not well formed on line { $line }
record-too-deep = its variations or moves go deeper than Qi reads
record-other-game = it is a record of a game Qi does not play here ({ $name })
record-bad-size = SZ[{ $value }] is not a board size Qi plays
record-bad-value = { $property }[{ $value }] cannot be read
record-not-a-line = node { $node } adds stones or a second move in the middle of the game; Qi replays one line of moves
record-bad-start = the start position cannot be read
record-bad-move = move { $n } ({ $mv }) cannot be played
save-error-occupied = a game is already saved there; overwrite it?
save-error-occupied-unreadable = an unreadable save is there; overwrite it (it is kept aside as .bad)?

## Play online

menu-online = Play online
online-title = Play online
online-host = Host
online-join = Join
online-your-name = Your name
online-via = Opponent joins
online-via-lan = On the LAN (port)
online-via-relay = Relay server (room code)
online-port = Port
online-relay-server = Relay server
online-lan-games = Games on the LAN
online-lan-none = No game found on the LAN yet…
online-lan-unavailable = LAN search does not work here: { $why }
online-lan-game = { $name }: { $game }, you play { $side }{ $clock }
online-address = Address (host:port)
online-join-address = Join this address
online-room-code = Room code
online-join-room = Join the room
online-start-hosting = Host the game
online-resume = Resume the online game ({ $game } against { $name })
online-bad-options = These options give no start position.
online-bad-port = “{ $port }” is not a port number (0–65535).
online-cannot-start = Cannot start the online game: { $why }
online-no-save = There is no online game to resume.
online-no-save-folder = There is no save folder, so there is no online game to resume.
net-closed = the other side closed the connection
net-broke = the connection broke
net-silent = the other side stopped answering
net-broke-because = the connection broke ({ $detail })
net-no-such-host = no computer is found by the name in { $addr }
net-refused = { $addr } refused the connection: no game is waiting there (yet)
net-no-answer = { $addr } does not answer
net-unreachable = { $addr } cannot be reached from this network
net-cannot-connect = cannot connect to { $addr } ({ $detail })
net-relay-no-room = the relay server has no room with that code
net-relay-wrong-key = the relay server refused this room's key
net-relay-full = the relay server is full
net-relay-room-busy = that room's game is already on; try again shortly
net-relay-host-away = the host is not in the room; try again shortly
net-relay-says = the relay server says: { $why }
net-not-a-relay = the server does not answer as a Qi relay server does
net-relay-closed = the relay server closed the connection
net-stopped = stopped
net-port-in-use = port { $port } is already in use on this computer (another game or program listens there): choose another port, or 0 for any free one
net-port-denied = Qi may not listen on port { $port } (ports below 1024 need more rights): choose a port from 1024 up
net-cannot-listen = cannot listen ({ $detail })
net-bad-setup = the game cannot be set up ({ $why })
refusal-before-handshake = a “{ $kind }” message before the greeting
refusal-chat-too-long = a chat message of more than { $max } characters
refusal-not-on = a “{ $kind }” message while the game is not on
refusal-second-undo = a second undo request before the answer to the first
refusal-undo-too-far = a request to take the game back to move { $ply } while it is at move { $at }
refusal-undo-not-their-turn = a request to take the game back to move { $ply }, where it would not be their turn
refusal-undo-answer-not-asked = an answer to an undo request (back to move { $ply }) that was never made
refusal-draw-answer-no-offer = an answer to a draw offer that was never made
refusal-flag-no-clock = a claim that time ran out in a game without clocks
refusal-flag-not-to-move = a claim that time ran out at move { $ply } for the side that was not to move
refusal-flag-mine-running = a claim that our time ran out while our clock still runs
refusal-out-of-turn = the move { $mv } when it was not their turn
refusal-wrong-ply = the move { $mv } as move { $ply }, while the game is at move { $at }
refusal-illegal = the illegal move { $mv }
refusal-unreadable = the move “{ $mv }”, which cannot be read
refusal-hello-to-joiner = a greeting meant for a host
refusal-second-hello = a second greeting on the same connection
refusal-unexpected-welcome = a welcome that was not asked for
admission-game-full = this game already has its two players
admission-not-your-game = this is not the game you were in
admission-another-game = the host answered with another game
link-end-silent = the opponent sent nothing for { $secs } s
link-end-bad-data = the opponent's data cannot be read: { $why }
link-end-left = you left the game
link-end-host-refused = the host refused: { $why }
link-end-refused-joiner = a joiner was turned away: { $why }
link-end-peer-left = the opponent left
link-end-bad-welcome = the host's game cannot be read ({ $why })
net-lan-host-waits = a LAN host waits for its opponent and does not connect
protocol-too-large = a message of { $bytes } bytes, more than the { $max } allowed
protocol-garbage = not a Qi message ({ $detail })
protocol-version = the other side speaks protocol version { $theirs } and this Qi { $ours }: both players need the same version of Qi
protocol-invalid = a message this Qi does not understand ({ $detail })
online-hosting-port = Listening on port { $port }
online-hosting-address = Address: { $address }
online-hosting-room = Room code: { $code }
online-give-this = Give this to your opponent.
online-waiting = Waiting for the opponent…
online-cancel = Cancel
online-connecting = Connecting to { $to }…
online-connecting-room = Connecting to room { $code } on { $to }…
online-connection-problem = Connection problem (trying again): { $why }
online-failed = The game cannot be reached: { $why }
online-not-admitted = The host did not let you in: { $why }
online-started = Online game against { $peer }.
online-back = { $peer } is back: the game goes on.
online-peer-left = The opponent left the game.
online-opponent = Opponent: { $name }
online-connected = connected
online-question-undo = { $name } asks to take back a move.
online-question-draw = { $name } offers a draw.
online-accept = Accept
online-refuse = Refuse
online-offer-draw = Offer a draw
online-chat = Chat
online-chat-hint = message, Enter sends
online-undo-asked-by = The opponent asks to take back a move.
online-draw-offered-by = The opponent offers a draw.
online-undo-sent = Undo asked; waiting for the answer.
online-draw-sent = Draw offered; waiting for the answer.
online-undo-refused = The opponent refused the undo.
online-draw-refused = The opponent refused the draw.
online-no-redo = No redo in an online game.
online-action-refused = Not done: { $why }
online-move-not-sent = Move not played: { $why }
online-refused = The opponent sent something not allowed (ignored): { $why }
online-peer-refused = The opponent's Qi did not accept our last action; the game is set back to the opponent's.
online-bad-data = Unreadable data from the opponent (reconnecting): { $why }

## Clocks

new-game-clock = Clock
clock-none = None
clock-absolute = Absolute
clock-fischer = Fischer
clock-byo-yomi = Byo-yomi
clock-minutes = Minutes
clock-increment = Increment (s)
clock-periods = Periods
clock-period = Period (s)
clock-in-byo-yomi = { $time } ({ $periods }×)

## Openings
menu-openings = Openings
opening-reached = Opening: { $name }
opening-joseki = Joseki: { $name }
openings-about-reversi = Othello's named openings (Robert Gatliff's list, as Othello programs show it). A game is named by the position it reaches, so another move order or a turned board finds the same name.
openings-about-gomoku = The 26 canonical renju openings: the centre, White's second stone straight (direct) or diagonal (indirect), Black's third in the centre 5×5. Numbers and names as the Renju International Federation lists them.
openings-about-go = Standard corner sequences (joseki) at the 4-4 and 3-4 points, in the upper right corner. In a game they are found in any corner, either way round and with either colour starting.
openings-choose = Choose a line
openings-japanese = Japanese name: { $name }
openings-step-through = Step through
pause-analyse = Analyse the game so far
