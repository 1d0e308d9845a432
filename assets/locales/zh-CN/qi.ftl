# 棋 Qi 的简体中文文本 (zh-CN)。每个键都必须在 ../en-US/qi.ftl 中也有；
# 测试 `every_key_in_both_languages_and_in_use` 检查两个文件与代码一致。
# 语法：https://projectfluent.org/fluent/guide/

## 程序与棋种

app-name = 棋 Qi
game-ataxx = 同化棋
game-reversi = 黑白棋
game-gomoku = 五子棋
game-go = 围棋
side-black = 黑方
side-white = 白方
side-red = 红方
side-blue = 蓝方
player-default-name = 玩家
player-default-name-2 = 玩家 2
cpu-name = 电脑 { $level }
back = 返回
yes = 是
no = 否

## 主菜单

menu-continue = 继续对局
menu-new-game = 新对局
menu-load = 读取存档
menu-records = 战绩与棋谱
menu-rules = 规则
menu-settings = 设置
menu-quit = 退出
menu-keys-hint = 方向键或 Tab 移动，Enter 或空格选择

## 新对局

new-game-title = 新对局
new-game-game = 棋种
new-game-board = 棋盘
new-game-mode = 模式
mode-vs-cpu = 人机对战
mode-two-players = 双人对战
mode-cpu-vs-cpu = 电脑对电脑
new-game-you-play = 你执
color-first = { $side }（先行）
color-second = { $side }（电脑先行）
color-random = 随机
new-game-level = 电脑等级
new-game-side-level = { $side }电脑等级
new-game-names = 名字
new-game-start = 开始
new-game-keys-hint = 上/下选择一行，左/右更改，Enter 开始

## 存档位

slots-save-title = 保存对局
slots-load-title = 读取存档
slot-name = 存档 { $n }
slot-empty = 空
slot-unreadable = 无法读取
slot-delete = 删除
slot-summary = { $game } · { $black } 对 { $white } · { $score } · { $moves } 手 · { $date }

## 确认

confirm-quit-saved = 退出棋 Qi？对局已自动保存：在主菜单选“继续对局”即可接着下。
confirm-quit = 退出棋 Qi？
confirm-leave-saved = 离开本局回到主菜单？对局已自动保存：选“继续对局”即可接着下。
confirm-leave = 回到主菜单？
confirm-load-unsaved = 读取存档 { $slot }？它会替换当前对局，而当前对局不在任何存档位中：想保留请先保存。
confirm-load-saved = 读取存档 { $slot }？它会替换当前对局（当前对局上次已存入存档位）。
confirm-load = 读取存档 { $slot }？
confirm-overwrite = 存档 { $slot } 已有内容。覆盖吗？

## 终局

game-over = 对局结束
game-over-play-again = 再来一局
game-over-save-record = 保存棋谱
game-over-look = 查看棋盘
main-menu = 主菜单
players-vs = { $black } 对 { $white }
game-over-moves-in = 共 { $n } 手，用时 { $time }
record-saved = 棋谱已保存：{ $path }

## 暂停

pause-title = 已暂停
pause-resume = 继续
pause-save = 保存对局
pause-save-record = 保存棋谱（{ $format }）
status-selection-dropped = 已取消选择
status-replaying = 复盘 { $source }：共 { $n } 手
status-loaded = 已读取对局，第 { $n } 手
status-new-game = 新对局：轮到{ $side }

## 设置

settings-title = 设置
settings-language = 语言
settings-theme = 主题
theme-dark = 深色
theme-light = 浅色木纹
settings-volume = 音量
settings-mute = 静音
settings-animation = 动画速度
settings-animation-off = 0 = 关闭
settings-legal-moves = 显示可下位置
settings-eval-bar = 形势条
settings-cpu-delay = 电脑对电脑：每手间隔（秒）
settings-game-level = { $game }：电脑等级
settings-game-time = { $game }：电脑每手用时（毫秒）
settings-game-numbers = { $game }：棋子上显示手数

## 战绩与棋谱

cannot-open = 无法打开 { $name }：{ $why }
cannot-start = 无法开始对局：{ $why }
records-example = { $name }（示例）
records-unreadable = { $name }（无法读取）
moves-count = { $n } 手
records-results = 你的战绩
records-replay = 复盘棋谱
records-none = 还没有下完的对局。每局结束后战绩会记在这里。
records-totals = 总计
records-against = 对手
records-won = 胜
records-drawn = 和
records-lost = 负
records-cpu-level = 电脑 { $level } 级
records-people = 真人
records-last-games = 最近对局
records-last-game = { $date } · { $game } · { $player } { $outcome ->
        [won] 胜
        [drew] 和
       *[lost] 负
    } { $opponent } · { $score } · { $n } 手
records-choose = 选择要复盘的对局（上/下和 Enter，或点击）：
records-open-file = 或打开文件（围棋、黑白棋、五子棋用 SGF；同化棋用 PGN）：
records-path-hint = /路径/棋谱.sgf
records-open = 打开

## 对局中：顶栏与侧栏

hud-player = { $side }（{ $who }）
hud-cpu-thinking = 轮到{ $side } — 电脑思考中… { $secs } 秒
hud-to-move = 轮到{ $side }
hud-move-time = 第 { $n } 手  ·  { $time }
hud-result = 结果
hud-last-move = 上一手：{ $mv }
hud-both-passed = 双方都已停一手。
hud-mark-dead = 点击棋块标为死子（红叉），再点一次恢复为活棋。
hud-score = 得分：{ $score }
hud-confirm-score = 确认结果 (Enter)
hud-cpu-go-on = 继续
hud-cpu-one-move = 走一步
hud-cpu-pause = 暂停电脑
hud-undo = 悔棋 (U)
hud-redo = 重做 (R)
hud-hint = 提示 (H)
hud-pass = 停一手 (P)
hud-resign = 认输
hud-pause = 暂停 (Esc)
hud-type-move = 输入着法（{ $notation }）后按 Enter：
hud-move-hint = 着法，或按 U 悔棋
hud-move-hint-enter = 按 Enter 开始输入
status-wait-turn = 请等轮到你
status-cannot-read-move = 无法把“{ $text }”读作着法；请照 { $notation } 的样子输入
eval-wins-in = { $side } { $n } 手内必胜
eval-score = { $side } { $score } · 深度 { $depth }
eval-chance = { $side } 胜率 { $pct }% · 深度 { $depth }
eval-speed = { $text } · { $knps } 千节点/秒
eval-win-rate = { $side } 胜率 { $pct }% · 模拟 { $playouts } 局
eval-exact = { $side } { $score } · 精确
eval-exact-draw = 和棋 · 精确
eval-solved-win = { $side } 必胜 · 已解
eval-solved-draw = 和棋 · 已解

## 复盘

replay-title = 复盘
replay-result = 结果：{ $result }
replay-move-of = 第 { $n } 手，共 { $total } 手
replay-stop-autoplay = 停止自动播放（空格）
replay-autoplay = 自动播放（空格）
seconds-suffix = { " " }秒
replay-keys-hint = 左/右逐手，Home/End 到开头/结尾
replay-play-from-here = 从这里接着下
replay-vs-cpu = 与电脑对战
replay-menu = 菜单 (Esc)
replay-moves = 着法

## 状态栏

status-no-move-passes = { $side }无处可下，停一手
status-passes = { $side }停一手
status-played = 第 { $n } 手：{ $side }下 { $mv }
status-resigns = { $side }认输：{ $result }
status-resignation-undone = 已撤回认输
status-nothing-to-undo = 没有可悔的棋
status-undone = 已悔棋：回到第 { $n } 手
status-nothing-to-redo = 没有可重做的棋
status-redone = 已重做：第 { $n } 手
status-play-on = 从第 { $n } 手接着下：轮到{ $side }
replay-status-move = ：{ $side } { $mv }
replay-status-result = { " " }· 结果 { $result }
status-language = 界面语言：{ $language }
status-saved = 已保存到存档 { $slot }
status-cpu-paused = 电脑对局已暂停
status-cpu-resumed = 电脑对局继续
status-no-hint = 没有提示：{ $game }还没有电脑棋手
status-hint-thinking = 正在找好棋…
status-hint = 提示：{ $mv }
status-game-over = 对局已结束
status-replay-controls = 正在复盘：请用复盘按钮
status-wait-cpu = 请稍候：轮到电脑
status-selected = 已选中 { $square }：请选择目标格
status-go-marking = 双方停一手：点击棋块标记死活，然后确认
status-go-marked-score = 按所标死子计算：{ $score }

## 文件

autosave-bad-kept = 上一局无法继续：{ $why }。原文件已保留为 { $path }。
autosave-bad = 上一局无法继续：{ $why }（{ $io }）。
autosave-failed = 对局没有自动保存：{ $why }
error-save-slot = 无法保存到存档 { $slot }：{ $why }
error-load-slot = 无法读取存档 { $slot }：{ $why }
error-delete-slot = 无法删除存档 { $slot }：{ $why }
error-continue = 无法继续上一局：{ $why }
error-save-record = 无法保存棋谱：{ $why }

## 窗口标题（测试按开头的 “Qi” 找窗口）

window-title = Qi 棋
window-title-paused = Qi 棋 - 已暂停
window-title-playing = Qi 棋 - 对局中

## 结果

result-draw-count = 和棋 { $black }-{ $white }
result-jigo = 和棋（持棋）
result-draw-board-full = 和棋：棋盘已满
result-draw = 和棋
result-win-count = { $side }胜 { $won }-{ $lost }
result-win-score = { $side }胜 { $points } 目
result-win-discs = { $side }胜 { $discs } 子
result-win-line = { $side }五连获胜
result-win-resignation = { $side }中盘胜（对方认输）
result-win-time = { $side }超时胜
result-win-forfeit = { $side }判胜
result-win = { $side }胜

## 点击棋盘但不是着法

refuse-taken = { $square } 已有棋子
refuse-not-legal = { $square } 不能下
refuse-off-board = { $square } 在棋盘外
refuse-ataxx-unreachable = 从 { $from } 走不到 { $square }
refuse-ataxx-stuck = { $square } 上的棋子无路可走
refuse-ataxx-pick = 请先选一枚自己的棋子（{ $square } 不是可走的位置）
refuse-not-go = 这不是围棋局面
refuse-go-suicide = { $square } 是自杀着：落子后没有气，也提不了子
refuse-go-ko = { $square } 是劫：不能立即提回，请先在别处下一手（找劫材）

## 对局选项

option-standard-start = 标准开局
board-size = { $n }×{ $n }
ataxx-layout-classic = 经典
ataxx-layout-four-blocks = 四障碍
ataxx-layout-cross = 十字
ataxx-layout-pillars = 立柱
ataxx-layout-corridor = 走廊
gomoku-freestyle = 无禁手
gomoku-standard = 标准（恰好五连）
gomoku-renju = 连珠（有禁手）
gomoku-rule-line = 规则：{ $rule }
go-handicap = 让子
go-handicap-none = 不让子
go-komi = 贴目
go-komi-line = 贴目 { $komi }
go-captures = 提子：黑 { $black }，白 { $white }
go-captures-area = 提子：黑 { $black }，白 { $white } · 当前数子 { $area }

## 规则

rules-ataxx =
    两人对局，红方 (x) 与蓝方 (o)，7×7 棋盘，红方先行。
    • 复制：走到与己方棋子相邻（含斜向）的空格，新棋子出现，原棋子不动。
    • 跳跃：把一枚棋子移到恰好相隔两格的位置，原位置变空。
    • 落点周围相邻的所有对方棋子都变成己方棋子（同化）。
    • 灰色格为障碍。无处可走时停一手；棋盘下满、一方没有棋子、双方都无法走，或连续 100 步没有复制（和棋）时对局结束。棋子多者胜。
    输入着法：g2（复制）或 a1c3（跳跃）。
rules-reversi =
    黑白双方在 8×8 棋盘上对局，中央四子开局，黑方先行。
    • 落子后，新子与己方另一枚棋子在横、竖或斜线上夹住的所有对方棋子都翻成己方颜色。
    • 每一手必须至少翻转一枚棋子；没有这样的位置时只能停一手。
    • 双方都无法落子时对局结束，棋子多者胜；空格计入胜方。
    输入着法：d3；必须停一手时输入 pass。
rules-gomoku =
    黑白双方轮流在 15×15（或 19×19）棋盘的交叉点上落子，黑方先行。
    • 横、竖或斜向先连成五子者胜。
    • 无禁手：五连或长连都算胜。标准：必须恰好五连。
    • 连珠：黑方有禁手，不能下三三、四四或长连（禁手点打叉标出）；白方没有禁手。
    输入着法：h8。
rules-go =
    黑白双方在交叉点上落子，黑方先行。
    • 没有气的棋块被提子。
    • 不能使全盘局面重复（劫、超级劫），也不能自杀。
    • 双方连续停一手后对局结束，然后标出死子并确认。
    • 数子法：己方棋子加所围的空点，白方另加贴目。
    输入着法：D4（列跳过 I），或 pass 停一手。

## qi --help

cli-about = 棋 Qi：同化棋、黑白棋、五子棋和围棋，可与朋友或电脑对弈
cli-usage = 用法
cli-options = 选项
cli-lang = 窗口语言（en-US、zh-CN）；默认用设置中选的语言，首次启动时用系统语言
cli-game = 直接开始这种棋的对局
cli-mode = 谁来下：人机对战、本机双人对战，或电脑对电脑
cli-level = 电脑等级，1（最容易）到 6（最强）；不写则用这个游戏上次开局时的等级（第一次为 3）
cli-color = 人机对战时你执哪方：black（先行）、white 或 random（随机）
cli-fen = 从这个局面开始（该棋的文本格式，例如同化棋的 FEN）
cli-record = 打开这个棋谱（SGF，同化棋为 PGN）复盘，显示最后一手或 --at 指定的一手
cli-at = 与 --record 一起用：显示第几手（0 为开局）
cli-screenshot = 第一个画面画好后把截图保存到这个 PNG 文件
cli-exit-after-screenshot = 写好 --screenshot 后退出（测试用）
cli-screenshot-dir = F12 截图保存的文件夹（默认：当前文件夹）
cli-save-dir = 存档和自动存档的文件夹（默认：系统的数据文件夹）
cli-animation-speed = 动画速度倍数（0 关闭动画）
cli-help = 显示帮助
cli-version = 显示版本

## 分析

analysis-title = 分析
analysis-start = 分析（每手 { $secs } 秒）
analysis-progress = 已分析 { $done } / { $total } 个局面
analysis-cancel = 取消
analysis-previous = 上一个失误 (B)
analysis-next = 下一个失误 (N)
analysis-summary = { $name }：平均损失 { $loss }，缓着 { $inaccuracies }，错着 { $mistakes }，败着 { $blunders }
mark-inaccuracy = 缓着
mark-mistake = 错着
mark-blunder = 败着
status-analysing = 正在分析对局…
status-analysis-done = 分析完成：按 N 和 B 在标记的着法之间跳转
status-analysis-cancelled = 已取消分析
status-analysis-failed = 分析失败：{ $why }
analysis-decided = { $side }必胜
analysis-value = { $side } { $value }
analysis-best = 最佳 { $mv }
analysis-loss = 损失 { $loss }
game-over-analyse = 分析本局
status-territory = 形势判断 (T)：{ $estimate }
candidate-win = 胜
candidate-loss = 负
status-candidates-not-now = 候选着 (C) 只在复盘时，或人机对战轮到你时显示
save-error-no-slot = 没有存档 { $slot }（存档为 1 到 { $count }）
save-error-empty = 这里没有存档
save-error-unreadable = 存档无法读取：{ $why }
unreadable-empty = 文件是空的
unreadable-too-big = 文件有 { $bytes } 字节，超过存档上限 { $max } 字节
unreadable-newer = 这是新版 Qi 保存的（存档格式 { $format }；本版最高读到 { $max }）
unreadable-damaged = 文件已损坏或不完整（{ $why }）
unreadable-format-zero = 不存在存档格式 0
unreadable-bad-start = 无法读取起始局面（{ $why }）
unreadable-bad-move = 第 { $n } 手（{ $mv }）无法下出
unreadable-cursor = 悔棋位置 { $cursor } 超出了全部 { $moves } 手
load-problem-kept = 无法读取 { $name }：{ $why }。已改用默认值，旧文件另存为 { $kept }
load-problem-not-kept = 无法读取 { $name }：{ $why }。已改用默认值（旧文件无法另存：{ $error }）
disk-denied = Qi 无权写入那里
disk-full = 磁盘已满
disk-read-only = 磁盘是只读的
disk-no-folder = 文件夹不存在
disk-failed = { $doing }（{ $why }）
disk-doing-write = 无法写入 { $path }
disk-doing-create-folder = 无法创建文件夹 { $path }
disk-doing-delete = 无法删除 { $path }
disk-doing-set-aside = 无法把读不了的 { $path } 移到一旁
disk-doing-encode = 无法生成文件的内容
read-denied = 无法读取文件：没有权限
read-io = 无法读取文件（{ $why }）
read-folder = 这是文件夹，不是文件
read-not-a-file = 这不是普通文件
read-too-big = 文件有 { $bytes } 字节，超过了 Qi 能读的 { $max } 字节
read-not-utf8 = 这不是 UTF-8 文本（第 { $at } 字节）
record-no-such-file = 文件不存在
record-empty = 文件是空的
record-too-big = 棋谱有 { $bytes } 字节，超过了上限 { $max } 字节
record-not-a-record = 这既不是 SGF 棋谱，也不是 PGN 棋谱
record-syntax = { $format } 文本格式有误
record-syntax-line = { $format } 文本第 { $line } 行格式有误
record-too-deep = 变化或着法的层数超过了 Qi 能读的上限
record-other-game = 这是 Qi 在这里不下的棋种的棋谱（{ $name }）
record-bad-size = SZ[{ $value }] 不是 Qi 能下的棋盘大小
record-bad-value = 无法读取 { $property }[{ $value }]
record-not-a-line = 第 { $node } 个节点在对局中途摆子或多下一手；Qi 只回放一条着法线
record-bad-start = 无法读取起始局面
record-bad-move = 第 { $n } 手（{ $mv }）无法下出
save-error-occupied = 这里已有存档；要覆盖吗？
save-error-occupied-unreadable = 这里有一个无法读取的存档；要覆盖吗（它会另存为 .bad）？

## 联网对战

menu-online = 联网对战
online-title = 联网对战
online-host = 创建对局
online-join = 加入
online-your-name = 你的名字
online-via = 对手加入方式
online-via-lan = 局域网（端口）
online-via-relay = 中继服务器（房间码）
online-port = 端口
online-relay-server = 中继服务器
online-lan-games = 局域网中的对局
online-lan-none = 局域网中还没有找到对局…
online-lan-unavailable = 这里无法搜索局域网：{ $why }
online-lan-game = { $name }：{ $game }，你执{ $side }{ $clock }
online-address = 地址（主机:端口）
online-join-address = 加入这个地址
online-room-code = 房间码
online-join-room = 加入房间
online-start-hosting = 创建对局
online-resume = 继续联网对局（{ $game }，对手 { $name }）
online-bad-options = 这些选项没有开局局面。
online-bad-port = “{ $port }”不是端口号（0–65535）。
online-cannot-start = 无法开始联网对局：{ $why }
online-no-save = 没有可以继续的联网对局。
online-no-save-folder = 没有存档文件夹，所以没有可以继续的联网对局。
net-closed = 对方关闭了连接
net-broke = 连接中断
net-silent = 对方不再应答
net-broke-because = 连接中断（{ $detail }）
net-no-such-host = 找不到 { $addr } 中所写的计算机
net-refused = { $addr } 拒绝连接：那里（还）没有等待中的对局
net-no-answer = { $addr } 没有应答
net-unreachable = 从本网络无法到达 { $addr }
net-cannot-connect = 无法连接到 { $addr }（{ $detail }）
net-relay-no-room = 中继服务器上没有这个房间号
net-relay-wrong-key = 中继服务器拒绝了这个房间的密钥
net-relay-full = 中继服务器已满
net-relay-room-busy = 该房间的对局已在进行，请稍后再试
net-relay-host-away = 主持方不在房间里，请稍后再试
net-relay-says = 中继服务器答复：{ $why }
net-not-a-relay = 该服务器的答复不像 Qi 中继服务器
net-relay-closed = 中继服务器关闭了连接
net-stopped = 已停止
net-port-in-use = 本机的端口 { $port } 已被占用（另一局或另一个程序正在使用）：请换一个端口，或填 0 使用任意空闲端口
net-port-denied = Qi 无权监听端口 { $port }（1024 以下的端口需要更高权限）：请选择 1024 及以上的端口
net-cannot-listen = 无法监听（{ $detail }）
net-bad-setup = 无法设置该对局（{ $why }）
refusal-before-handshake = 握手之前发来的“{ $kind }”消息
refusal-chat-too-long = 超过 { $max } 个字的聊天消息
refusal-not-on = 对局没有进行时发来的“{ $kind }”消息
refusal-second-undo = 上一个悔棋请求还没有回答时的第二个悔棋请求
refusal-undo-too-far = 对局在第 { $at } 手时要求退回到第 { $ply } 手
refusal-undo-not-their-turn = 要求退回到第 { $ply } 手，但那时并不轮到对方走棋
refusal-undo-answer-not-asked = 对从未提出的悔棋请求（退回到第 { $ply } 手）的回答
refusal-draw-answer-no-offer = 对从未提出的和棋提议的回答
refusal-flag-no-clock = 在不计时的对局中声称超时
refusal-flag-not-to-move = 在第 { $ply } 手时为不该走棋的一方声称超时
refusal-flag-mine-running = 声称我方超时，但我方的时钟仍在走
refusal-out-of-turn = 不轮到对方时下的 { $mv }
refusal-wrong-ply = 作为第 { $ply } 手下的 { $mv }，而对局已到第 { $at } 手
refusal-illegal = 不合规则的着法 { $mv }
refusal-unreadable = 无法读取的着法“{ $mv }”
refusal-hello-to-joiner = 本应发给主机的问候
refusal-second-hello = 同一连接上的第二次问候
refusal-unexpected-welcome = 未曾请求的欢迎消息
admission-game-full = 这局棋已经有两位棋手了
admission-not-your-game = 这不是你原来所在的那局棋
admission-another-game = 主机答复的是另一局棋
link-end-silent = 对手 { $secs } 秒没有发来任何消息
link-end-bad-data = 对手发来的数据无法读取：{ $why }
link-end-left = 你离开了对局
link-end-host-refused = 主机拒绝了：{ $why }
link-end-refused-joiner = 拒绝了一位加入者：{ $why }
link-end-peer-left = 对手离开了
link-end-bad-welcome = 无法读取主机的对局（{ $why }）
net-lan-host-waits = 局域网主机等待对手加入，不会主动连接
protocol-too-large = 一条 { $bytes } 字节的消息，超过了允许的 { $max } 字节
protocol-garbage = 不是 Qi 的消息（{ $detail }）
protocol-version = 对方使用协议版本 { $theirs }，本程序使用版本 { $ours }：双方需要同一版本的 Qi
protocol-invalid = 本程序无法理解的消息（{ $detail }）
online-hosting-port = 正在端口 { $port } 上等待
online-hosting-address = 地址：{ $address }
online-hosting-room = 房间码：{ $code }
online-give-this = 请把它告诉你的对手。
online-waiting = 等待对手…
online-cancel = 取消
online-connecting = 正在连接 { $to }…
online-connecting-room = 正在连接 { $to } 上的房间 { $code }…
online-connection-problem = 连接出现问题（正在重试）：{ $why }
online-failed = 无法连接到对局：{ $why }
online-not-admitted = 主机没有让你加入：{ $why }
online-started = 与 { $peer } 的联网对局。
online-back = { $peer } 回来了，对局继续。
online-peer-left = 对手离开了对局。
online-opponent = 对手：{ $name }
online-connected = 已连接
online-question-undo = { $name } 请求悔棋。
online-question-draw = { $name } 提议和棋。
online-accept = 同意
online-refuse = 拒绝
online-offer-draw = 和棋提议
online-chat = 聊天
online-chat-hint = 输入消息，回车发送
online-undo-asked-by = 对手请求悔棋。
online-draw-offered-by = 对手提议和棋。
online-undo-sent = 已发出悔棋请求，等待对手回答。
online-draw-sent = 已提议和棋，等待对手回答。
online-undo-refused = 对手拒绝了悔棋请求。
online-draw-refused = 对手拒绝了和棋提议。
online-no-redo = 联网对局不能重做。
online-action-refused = 没有完成：{ $why }
online-move-not-sent = 这步棋没有下成：{ $why }
online-refused = 对手发来了不允许的内容（已忽略）：{ $why }
online-peer-refused = 对手的 Qi 没有接受我们的上一个操作，棋局已与对手的同步。
online-bad-data = 对手发来的数据无法读取（正在重新连接）：{ $why }

## 计时

new-game-clock = 计时
clock-none = 不计时
clock-absolute = 包干
clock-fischer = 加秒
clock-byo-yomi = 读秒
clock-minutes = 分钟
clock-increment = 每步加秒
clock-periods = 读秒次数
clock-period = 每次秒数
clock-in-byo-yomi = { $time }（{ $periods } 次）

## Openings
menu-openings = 开局与定式
opening-reached = 开局：{ $name }
opening-joseki = 定式：{ $name }
openings-about-reversi = 黑白棋的有名开局（Robert Gatliff 整理的开局表，黑白棋软件通用的名称）。按局面识别，换一种次序或把棋盘转过来下到同一局面，也能认出。
openings-about-gomoku = 连珠的二十六种开局：黑先下天元，白第二手直指（直接相邻）或斜指（斜向相邻），黑第三手在中央 5×5 内。编号与名称依照国际连珠联盟（RIF）。
openings-about-go = 星位与小目的常见定式，摆在右上角。对局中在任何一角都能认出，不论方向，也不论哪方先下。
openings-choose = 选择一个变化
openings-japanese = 日文名称：{ $name }
openings-step-through = 逐手查看
pause-analyse = 分析到此为止的对局
