// ddz web game: the page side of ddz-web/1 (docs/web.md). Plain JavaScript, no build step.
// The server owns the game; this page shows the state it is sent and sends actions.
"use strict";

(() => {
  const RANKS = "3456789TJQKA2BR";
  const SUITS = ["♥", "♦", "♠", "♣"];
  // The robots the lobby offers, strongest first: the levels, then the robots by name (the
  // server's list decides which exist).
  const ROBOT_ORDER = ["level:8", "level:7", "level:6", "level:5", "level:4", "level:3", "level:2", "level:1",
    "search", "net", "ddzlib", "value", "greedy", "random"];

  const I18N = {
    en: {
      newGame: "New game", replay: "Replay", counter: "Counter", keys: "Keys", rules: "Rules",
      r_classic: "classic", r_laizi: "laizi (one wild rank)", r_tiandi: "tiandi (heaven and earth)",
      r_botzone: "botzone (fixed landlord)", r_douzero: "douzero (fixed landlord)",
      r_rlcard: "rlcard (fixed landlord)", r_huanle: "huanle (doubling, showing cards)",
      showBtn: (f) => `Show cards ×${f}`, noShow: "Don't show", noDouble: "No doubling",
      doubleBtn: (f) => `Double ×${f}`, superDouble: (f) => `Super double ×${f}`,
      yourTurnShow: "Show your cards?", yourTurnDouble: "Your doubling",
      shows: "shown", doubling: "doubling", yourMult: "your multiplier", pairMult: "pair",
      ev_show: (s, f) => `${s} shows the cards (×${f})`, ev_noShow: (s) => `${s} does not show`,
      ev_double: (s, f) => f === 1 ? `${s}: no doubling` : f === 2 ? `${s}: doubles (×2)` : `${s}: super doubles (×${f})`,
      robotOption: (n) => `robot: ${n}`,
      robotNames: { search: "Search", net: "Network", ddzlib: "Ladder", value: "Value", greedy: "Greedy", random: "Random" },
      levelName: (n) => `level ${n}`,
      robotAbout: {
        "level:1": "level 1, a beginner: plays what looks good at a glance and forgets every card played",
        "level:2": "level 2, a novice: sees the obvious plays, remembers only the last few",
        "level:3": "level 3, a casual player: a fair eye, remembers the last round or so",
        "level:4": "level 4, a club player: usually the right kind of play",
        "level:5": "level 5, a good player: rarely a poor play, counts most of the cards",
        "level:6": "level 6, a strong player: counts nearly every card, now and then a second-best play",
        "level:7": "level 7, an expert: the Network robot",
        "level:8": "level 8, a master: the Search robot, the strongest",
        search: "the strongest: plays out many guesses of the hidden hands before each move",
        ddzlib: "strong and quick: splits its hand into combinations and plays them in order",
        value: "scores what each play leaves in hand (the robot behind the hints)",
        greedy: "easy: always plays its smallest legal play",
        random: "practice: any legal play at random",
      },
      roomId: "room id (32 hex digits)", badRoomId: "A room id is 32 hex digits (0-9, a-f)",
      unknownRoom: "There is no such room: it may have closed after being idle, or the link is wrong.",
      badToken: "This seat link is not valid for the room (wrong or old token). You can still watch.",
      watchInstead: "Watch the room", backToLobby: "Back to the lobby",
      roomIdle: "The room closed after being idle.", serverDown: "The server is shutting down: your game is saved, reconnecting when it is back…",
      replaced: "This seat was opened in another window or tab.", fullRoom: "The room is full of spectators.",
      err: {
        turn: "It is not your turn.", combo: "Those cards are not a combination.",
        beat: (m) => `Those cards do not beat ${m}.`, notInHand: "Those cards are not in your hand.",
        bid: "That bid is not allowed now.", biddingNotOver: "The bidding is not over yet.",
        biddingOver: "The bidding is over: play or pass.", over: "The game is over: start the next one.",
        notOver: "The game is not over yet.", noCards: "Select some cards first (or pass).", lead: "You lead: you cannot pass.", stale: "That was for an earlier turn: try again.",
        show: "You cannot show your cards now.", double: "There is no doubling to choose now.",
        spectator: "Spectators only watch.", hints: "Hints come on your turn to play.",
        notSaved: "The server could not save that: nothing was played. Try again.",
        tooMany: "The server is busy (too many rooms): try again in a minute.",
        network: "The server cannot be reached.", other: "The server refused that (details in the console).",
      },
      bidTag: (b) => `bid ${b}`, bidPassTag: "no bid", callTag: "called", robTag: "robbed", declineTag: "declined",
      warn1: "1 card left!", warn2: "2 cards left!", ev_warn: (s, n) => `${s}: ${n === 1 ? "1 card left" : "2 cards left"}`,
      kittyMark: "K", kittyTitle: "from the kitty",
      stakeLine: (b, m) => `base ${b} × multiplier ${m}`, robsPart: "robs", showsPart: "shown",
      bombsPart: "bombs", springPart: "spring", antiSpringPart: "anti-spring", doublingPart: "doubling",
      counterOut: "Still out", counterPlayed: (s) => `${s} played`, counterShown: (s) => `${s} holds (shown)`,
      cardsLeftN: (n) => `${n} left`,
      autoTag: "(auto-play)", autoOn: "Auto-play", autoOff: "Take back", autoBadge: "auto", ev_auto: (s, on) => `${s}: auto-play ${on ? "on" : "off"}`,
      autoNote: "Auto-play: the robot plays for you until you take back the turn",
      sound: "Sound", muted: "Muted",
      games: "Stored games", gamesTitle: "Finished games on this server", gamesNone: "No finished games yet.",
      gamesOff: "This server keeps no games (it runs without a database).", gamesMore: "Older games",
      gamesOpen: "Open", gamesWinner: (w) => w === "landlord" ? "landlord won" : "farmers won",
      resultsTitle: "Your results", resultsRobot: "Against", resultsGames: "Games", resultsWins: "Won",
      resultsLosses: "Lost", resultsPoints: "Points", resultsStreak: "Run of wins",
      resultsMixed: "mixed robots", resultsNone: "people only",
      nextLevel: (n, k, after) => `${k} wins in a row against ${after}: ready for ${n}?`,
      tryLevel: (n) => `Try ${n}`,
      hintTap: (i, n, m) => `Hint ${i}/${n}: ${m} (tap Play)`,
      seatNext: "Next seat (right)", seatPrev: "Previous seat (left)",
      turnTimer: "Seconds per turn (0: none)", start: "Start", watchTitle: "Watch a room",
      watch: "Watch", human: "a person (invite)",
      lobbyNote: "Your cards stay on the server until the game is over: the page only ever receives your own hand. Every game is dealt from a fresh random seed, shown only after it; a chosen seed is for rooms with one person only.",
      replayTitle: "Replay a game record", load: "Load", pasteRecord: "or paste a ddz game record (ddz-record/1 or /2) here",
      you: "You", seat: "seat", person: "person", away: "away",
      landlord: "Landlord", farmer: "Farmer", cards: "cards", pass: "Pass", play: "Play", hint: "Hint",
      bid: "Bid", bidPass: "No bid", call: "Call", rob: "Rob", decline: "Decline", noRob: "No rob",
      kitty: "Kitty", wild: "Wild",
      yourTurnBid: "Your turn to bid", yourTurnPlay: "Your turn to play", lead: "you lead",
      toAct: (n) => `${n} to act`, waitingBid: (n) => `${n} is bidding`,
      over: "Game over", landlordWins: "The landlord wins", farmersWins: "The farmers win",
      youWin: "You win", youLose: "You lose", score: "Score", total: "Total",
      bombs: "bombs", rocket: "rocket",
      spring: "spring", antiSpring: "anti-spring", next: "Next game", download: "Download record",
      viewReplay: "View replay", waitingOthers: "waiting for the other players",
      readings: "These cards have several readings: choose one",
      cancel: "Cancel", as: "as", close: "Close",
      connecting: "connecting…", reconnecting: "connection lost, reconnecting…",
      closed: "The room is closed", invite: "Invite a friend to seat",
      spectators: "Spectator view: only public information",
      selectFirst: "Select cards first (or pass)", noHint: "No hint now",
      hintN: (i, n, m) => `Hint ${i}/${n}: ${m} (enter plays it)`,
      log: "Log", auto: "(timer)",
      ev_bid: (s, b) => `${s}: bid ${b}`, ev_pass: (s) => `${s}: pass`,
      ev_call: (s) => `${s}: call`, ev_rob: (s) => `${s}: rob`, ev_decline: (s) => `${s}: decline`,
      ev_play: (s, m) => `${s}: ${m}`, ev_landlord: (s) => `Landlord: ${s}`,
      ev_redeal: "Everyone passed: dealt again", ev_wild: (r) => `Wild rank: ${r}`,
      ev_start: (n) => `Game ${n}`, ev_over: "Game over",
      ev_conn: (s, c) => `${s}: ${c ? "here" : "away"}`, ev_ready: (s) => `${s}: ready`,
      step: "Step", notARecord: "Load a record first",
      analyse: "Analyse", analysing: "Analysing every play…", analysisBusy: "The server is busy analysing other games: try again in a few seconds.",
      analysisFailed: "This game could not be analysed (details in the console).",
      analysisDone: (n) => `${n} plays rated: the line is the landlord's chance of winning after each, as the seat that played saw it; dots mark the costly plays.`,
      chartTitle: "The landlord's chance of winning", chanceAfter: (p, bid) => `Chance of winning after this ${bid ? "bid" : "play"}: ${p}`,
      betterPlay: "Better play", bestPlay: (m, p) => `Best by the search: ${m} (${p})`, samePlay: "The search's best play too.",
      lossLine: (l) => `loss ${l}`, forcedPlay: "The only play.", notRated: "Not rated.", stakeOnly: (p) => `Chance of winning: ${p}. Doubling and showing change the stake, not the chance: not rated.`,
      marks: { blunder: "blunder", mistake: "mistake", inaccuracy: "inaccuracy" },
      exactLost: (m) => `With every hand known, this play lost a won game: ${m} wins.`, exactWins: "With every hand known, this play wins.",
      exactNone: "With every hand known, no play wins here.",
      badRecord: "This is not a game record that replays (details in the console); the steps before the problem are shown.",
      help: [
        ["← →", "move between cards"], ["space", "select the card"],
        ["3-9 0/t j q k a 2 b r", "select a card of that rank"],
        ["enter", "play the selection (several readings: choose one)"], ["p", "pass"],
        ["h", "hints, one after another"], ["backspace", "clear the selection"],
        ["bidding", "0-3 bid points, p passes; call-and-rob: c calls or robs, p declines"],
        ["game over", "enter or n: next game"], ["esc", "close a dialog"],
      ],
      kinds: {
        single: "single", pair: "pair", trio: "trio", trio_single: "trio + single",
        trio_pair: "trio + pair", straight: "straight", pair_chain: "pair chain",
        airplane: "airplane", airplane_singles: "airplane + singles",
        airplane_pairs: "airplane + pairs", four_two_singles: "four + two singles",
        four_two_pairs: "four + two pairs", bomb: "bomb", rocket: "rocket",
        space_shuttle: "space shuttle", space_shuttle_singles: "space shuttle + singles",
        space_shuttle_pairs: "space shuttle + pairs",
      },
    },
    zh: {
      newGame: "新游戏", replay: "回放", counter: "记牌器", keys: "按键", rules: "规则",
      r_classic: "经典", r_laizi: "癞子", r_tiandi: "天地癞子", r_botzone: "Botzone（固定地主）",
      r_douzero: "DouZero（固定地主）", r_rlcard: "RLCard（固定地主）", r_huanle: "欢乐（加倍、明牌）",
      showBtn: (f) => `明牌 ×${f}`, noShow: "不明牌", noDouble: "不加倍",
      doubleBtn: (f) => `加倍 ×${f}`, superDouble: (f) => `超级加倍 ×${f}`,
      yourTurnShow: "是否明牌？", yourTurnDouble: "请选择加倍",
      shows: "明牌", doubling: "加倍", yourMult: "你的倍数", pairMult: "对局",
      ev_show: (s, f) => `${s} 明牌（×${f}）`, ev_noShow: (s) => `${s} 不明牌`,
      ev_double: (s, f) => f === 1 ? `${s} 不加倍` : f === 2 ? `${s} 加倍` : `${s} 超级加倍（×${f}）`,
      robotOption: (n) => `机器人：${n}`,
      robotNames: { search: "搜索", net: "神经网络", ddzlib: "拆牌", value: "估值", greedy: "贪心", random: "随机" },
      levelName: (n) => `${n} 级`,
      robotAbout: {
        "level:1": "1 级，新手：看着顺眼就出，出过的牌一张不记",
        "level:2": "2 级，入门：只看得到明显的出法，只记得最近几手",
        "level:3": "3 级，休闲：眼光尚可，记得最近一轮",
        "level:4": "4 级，熟手：大多出对牌型",
        "level:5": "5 级，好手：很少出错，记得大部分出过的牌",
        "level:6": "6 级，强手：几乎每张牌都记得，偶尔次优",
        "level:7": "7 级，专家：神经网络机器人",
        "level:8": "8 级，大师：搜索机器人，最强",
        search: "最强：每一步先对未知手牌做大量推演",
        ddzlib: "强且快：把手牌拆成牌型按序出",
        value: "按出牌后剩下的手牌打分（提示所用的机器人）",
        greedy: "简单：总出能出的最小的牌",
        random: "练习：随便出一手合法的牌",
      },
      roomId: "房间号（32 位十六进制）", badRoomId: "房间号是 32 位十六进制数字（0-9、a-f）",
      unknownRoom: "没有这个房间：可能因长时间无人操作已关闭，或链接有误。",
      badToken: "这个座位链接对该房间无效（令牌错误或已过期）。你仍可观战。",
      watchInstead: "观战该房间", backToLobby: "返回大厅",
      roomIdle: "房间长时间无人操作，已关闭。", serverDown: "服务器正在关闭：对局已保存，恢复后自动重连…",
      replaced: "这个座位已在另一个窗口或标签页打开。", fullRoom: "观战人数已满。",
      err: {
        turn: "还没轮到你。", combo: "这些牌不成牌型。",
        beat: (m) => `这些牌管不上 ${m}。`, notInHand: "这些牌不在你手里。",
        bid: "现在不能这样叫分。", biddingNotOver: "叫分还没结束。",
        biddingOver: "叫分已结束：请出牌或不出。", over: "本局已结束：请开始下一局。",
        notOver: "本局还没结束。", noCards: "请先选牌（或不出）。", lead: "该你先出：不能不出。", stale: "这是上一手的操作：请重试。",
        show: "现在不能明牌。", double: "现在没有加倍可选。",
        spectator: "观战者只能看。", hints: "轮到你出牌时才有提示。",
        notSaved: "服务器没能保存这一步：什么也没有出。请重试。",
        tooMany: "服务器繁忙（房间太多）：请一分钟后再试。",
        network: "无法连接服务器。", other: "服务器拒绝了这个操作（详情见控制台）。",
      },
      bidTag: (b) => `叫 ${b} 分`, bidPassTag: "不叫", callTag: "叫地主", robTag: "抢地主", declineTag: "不抢",
      warn1: "报单！", warn2: "报双！", ev_warn: (s, n) => `${s} ${n === 1 ? "报单" : "报双"}`,
      kittyMark: "底", kittyTitle: "底牌",
      stakeLine: (b, m) => `底分 ${b} × 倍数 ${m}`, robsPart: "抢地主", showsPart: "明牌",
      bombsPart: "炸弹", springPart: "春天", antiSpringPart: "反春", doublingPart: "加倍",
      counterOut: "未出", counterPlayed: (s) => `${s} 已出`, counterShown: (s) => `${s} 手牌（明牌）`,
      cardsLeftN: (n) => `剩 ${n} 张`,
      autoTag: "（托管）", autoOn: "托管", autoOff: "取消托管", autoBadge: "托管", ev_auto: (s, on) => `${s}${on ? "托管" : "取消托管"}`,
      autoNote: "托管中：机器人替你出牌，直到你取消",
      sound: "声音", muted: "静音",
      games: "历史牌局", gamesTitle: "本服务器保存的已结束牌局", gamesNone: "还没有已结束的牌局。",
      gamesOff: "本服务器不保存牌局（未使用数据库）。", gamesMore: "更早的牌局",
      gamesOpen: "打开", gamesWinner: (w) => w === "landlord" ? "地主胜" : "农民胜",
      resultsTitle: "你的战绩", resultsRobot: "对手", resultsGames: "局数", resultsWins: "胜",
      resultsLosses: "负", resultsPoints: "积分", resultsStreak: "连胜",
      resultsMixed: "不同机器人", resultsNone: "只有真人",
      nextLevel: (n, k, after) => `对 ${after}已连胜 ${k} 局：挑战 ${n}？`,
      tryLevel: (n) => `挑战 ${n}`,
      hintTap: (i, n, m) => `提示 ${i}/${n}：${m}（点“出牌”）`,
      seatNext: "下家（右）", seatPrev: "上家（左）", turnTimer: "每手限时（秒，0 为不限）",
      start: "开始", watchTitle: "观战", watch: "观战", human: "真人（邀请）",
      lobbyNote: "对局结束前，你的牌只在服务器上：页面只会收到你自己的手牌。每局都用新的随机种子发牌，局后才公布；指定种子只限一人的房间。",
      replayTitle: "牌谱回放", load: "载入", pasteRecord: "或在此粘贴 ddz 牌谱（ddz-record/1 或 /2）",
      you: "你", seat: "座位", person: "真人", away: "离开",
      landlord: "地主", farmer: "农民", cards: "张", pass: "不出", play: "出牌", hint: "提示",
      bid: "叫分", bidPass: "不叫", call: "叫地主", rob: "抢地主", decline: "不叫", noRob: "不抢",
      kitty: "底牌", wild: "癞子",
      yourTurnBid: "轮到你叫分", yourTurnPlay: "轮到你出牌", lead: "你先出",
      toAct: (n) => `等待 ${n}`, waitingBid: (n) => `${n} 叫分中`,
      over: "本局结束", landlordWins: "地主胜", farmersWins: "农民胜", youWin: "你赢了",
      youLose: "你输了", score: "得分", total: "总分",
      bombs: "炸弹", rocket: "王炸", spring: "春天",
      antiSpring: "反春", next: "下一局", download: "下载牌谱", viewReplay: "查看回放",
      waitingOthers: "等待其他玩家", readings: "这手牌有多种读法：请选择",
      cancel: "取消", as: "当作", close: "关闭",
      connecting: "连接中…", reconnecting: "连接断开，正在重连…", closed: "房间已关闭",
      invite: "邀请好友入座", spectators: "观战视角：只显示公开信息",
      selectFirst: "请先选牌（或不出）", noHint: "暂无提示",
      hintN: (i, n, m) => `提示 ${i}/${n}：${m}（回车出牌）`,
      log: "记录", auto: "（超时代打）",
      ev_bid: (s, b) => `${s} 叫 ${b} 分`, ev_pass: (s) => `${s} 不出`,
      ev_call: (s) => `${s} 叫地主`, ev_rob: (s) => `${s} 抢地主`, ev_decline: (s) => `${s} 不叫`,
      ev_play: (s, m) => `${s} 出 ${m}`, ev_landlord: (s) => `${s} 成为地主`,
      ev_redeal: "都不叫：重新发牌", ev_wild: (r) => `癞子：${r}`,
      ev_start: (n) => `第 ${n} 局`, ev_over: "本局结束",
      ev_conn: (s, c) => `${s}${c ? "进入" : "离开"}`, ev_ready: (s) => `${s} 已准备`,
      step: "步", notARecord: "请先载入牌谱",
      analyse: "复盘分析", analysing: "正在分析每一手…", analysisBusy: "服务器正忙于分析其他牌局：请几秒后再试。",
      analysisFailed: "这局无法分析（详情见控制台）。",
      analysisDone: (n) => `已评 ${n} 手：曲线是每手之后地主的胜率（出牌一方所见），圆点标出代价大的出牌。`,
      chartTitle: "地主胜率", chanceAfter: (p, bid) => `${bid ? "此次叫分" : "此手"}之后的胜率：${p}`,
      betterPlay: "更好的出法", bestPlay: (m, p) => `搜索认为最好：${m}（${p}）`, samePlay: "也是搜索认为最好的出法。",
      lossLine: (l) => `损失 ${l}`, forcedPlay: "唯一的出法。", notRated: "未评。", stakeOnly: (p) => `胜率：${p}。加倍和明牌改变的是分数而非胜率：不评。`,
      marks: { blunder: "大错", mistake: "错误", inaccuracy: "欠佳" },
      exactLost: (m) => `明牌复盘：这手输掉了能赢的牌局，${m} 可赢。`, exactWins: "明牌复盘：这手能赢。",
      exactNone: "明牌复盘：这里怎么出都赢不了。",
      badRecord: "这不是能回放的牌谱（详情见控制台）；下面显示出错之前的步骤。",
      help: [
        ["← →", "移动光标"], ["空格", "选中光标处的牌"],
        ["3-9 0/t j q k a 2 b r", "选中该点数的一张牌"],
        ["回车", "出选中的牌（多种读法时选择）"], ["p", "不出"], ["h", "提示（可连按）"],
        ["退格", "清空选择"], ["叫分", "0-3 叫分，p 不叫；抢地主：c 叫/抢，p 不叫/不抢"],
        ["结束", "回车或 n：下一局"], ["esc", "关闭对话框"],
      ],
      kinds: {
        single: "单张", pair: "对子", trio: "三张", trio_single: "三带一", trio_pair: "三带二",
        straight: "顺子", pair_chain: "连对", airplane: "飞机", airplane_singles: "飞机带单",
        airplane_pairs: "飞机带对", four_two_singles: "四带二", four_two_pairs: "四带两对",
        bomb: "炸弹", rocket: "王炸", space_shuttle: "航天飞机",
        space_shuttle_singles: "航天飞机带单", space_shuttle_pairs: "航天飞机带对",
      },
    },
  };

  const S = {
    lang: "en",
    view: "lobby",
    room: null, token: null, seat: null, lastN: 0,
    ws: null, wsWanted: false, retry: 0, closed: false, wsMoved: null, movedNow: false,
    welcome: null, state: null, stateAt: 0,
    selected: new Set(), cursor: 0, hint: null, hints: null, hintKey: null, hintIndex: 0,
    message: "", messageBad: false, log: [], dialog: null, counter: false,
    replay: null, replayAt: 0,
    // The replay's record text, its analysis (POST /v1/analyse) with each replay step's
    // decision, and whether the better play is shown.
    replayText: null, analysis: null, analysisOf: null, analysing: false, showBetter: false, shownAt: null,
    fresh: new Set(), alarmed: false, muted: false, welcomed: false, refusal: null, stopped: null,
    games: null,
    // This browser's identity (32 hex digits, kept in its storage) and its results per robot
    // from GET /v1/players/{id}/results (null until loaded; `off` without a database).
    player: null, results: null,
  };

  const $ = (id) => document.getElementById(id);
  const t = (key, ...args) => {
    const v = I18N[S.lang][key] ?? I18N.en[key] ?? key;
    return typeof v === "function" ? v(...args) : v;
  };
  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  };

  // Replaces an element's children, skipping null, undefined and false.
  const put = (box, ...children) => box.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));

  // --- Cards ---------------------------------------------------------------------------------

  const rankOfId = (id) => (id === 52 ? 13 : id === 53 ? 14 : Math.floor(id / 4));
  const letterOfId = (id) => RANKS[rankOfId(id)];
  const rankLabel = (letter) => {
    if (letter === "T") return "10";
    if (letter === "B") return S.lang === "zh" ? "小王" : "small joker";
    if (letter === "R") return S.lang === "zh" ? "大王" : "big joker";
    return letter;
  };
  // Cards in notation order (rank ascending) from ids.
  const canonical = (ids) => ids.map(rankOfId).sort((a, b) => a - b).map((r) => RANKS[r]).join("");
  // The cards part of a move in notation: "7779=7777:bomb:7" -> "7779".
  const cardsPart = (move) => move.split(/[=:]/)[0];
  const isWild = (letter) => (S.state?.laizi ?? []).includes(letter);

  // A card's face. The corner index (`.idx`, each line a `.gl`) is what stays visible when
  // cards overlap: the rank ("10" condensed to the width of one letter) over the suit; a
  // joker's corner is its name written one upright glyph a line (大/王, 小/王; J O K E R),
  // and on the small English faces a star in the joker's colour. `suit` is null for a card
  // shown by rank only (replays).
  function faceEl(letter, suit, red, opts) {
    const joker = letter === "B" || letter === "R";
    const wild = opts.wild ?? isWild(letter);
    const word = joker ? (S.lang === "zh" ? (letter === "R" ? "大王" : "小王") : "JOKER") : null;
    const cls = ["card", red ? "red" : "black", joker ? `joker ${S.lang === "zh" ? "jk-zh" : "jk-en"}` : "",
      wild ? "wild" : "", opts.cls ?? ""].filter(Boolean).join(" ");
    const name = `${rankLabel(letter)}${suit ?? ""}`;
    const idx = joker
      ? el("span", { class: "idx jk" }, [...word].map((g) => el("span", { class: "gl", text: g })),
        el("span", { class: "gl star", text: "★" }))
      : el("span", { class: "idx" }, el("span", { class: letter === "T" ? "gl rk ten" : "gl rk", text: rankLabel(letter) }),
        suit ? el("span", { class: "gl st", text: suit }) : null);
    const attrs = { class: cls, "data-rank": letter, title: name, "aria-label": name };
    if (opts.id !== undefined) attrs["data-id"] = opts.id;
    const e = el("div", attrs, idx,
      el("span", { class: "pip", "aria-hidden": "true", text: joker ? "★" : (suit ?? "") }));
    if (wild) e.append(el("span", { class: "wm", text: S.lang === "zh" ? "癞" : "★" }));
    return e;
  }

  function cardEl(id, opts = {}) {
    const joker = id >= 52;
    const red = id === 53 || (!joker && id % 4 < 2);
    return faceEl(letterOfId(id), joker ? null : SUITS[id % 4], red, { ...opts, id });
  }

  // A card shown by rank only (replays and reading readouts).
  function rankCardEl(letter, extra = "") {
    return faceEl(letter, null, letter === "R", { cls: extra, wild: extra.includes("wild") });
  }

  function cardsRow(ids, cls = "") {
    const sorted = [...ids].sort((a, b) => rankOfId(b) - rankOfId(a) || a - b);
    return el("div", { class: `cards ${cls}` }, sorted.map((id) => cardEl(id)));
  }

  // A move in notation as words: "33344 (trio + single)".
  function moveText(move) {
    if (move === "pass") return t("pass");
    const [head, kind, main] = move.split(":");
    const [cards, as] = head.split("=");
    let s = [...cards].map(rankLabel).join(" ");
    if (as) s += ` ${t("as")} ${[...as].map(rankLabel).join(" ")}`;
    if (kind) s += ` (${t("kinds")[kind] ?? kind} ${rankLabel(main ?? "")})`;
    return s;
  }

  // --- Connection ---------------------------------------------------------------------------

  function connect() {
    if (!S.room) return;
    S.wsWanted = true;
    S.welcomed = false;
    S.refusal = null;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // Several servers may share the rooms: the one asked sends the page to the room's (moved).
    const ws = new WebSocket(S.wsMoved ?? `${proto}://${location.host}/v1/rooms/${encodeURIComponent(S.room)}/ws`);
    S.ws = ws;
    setMessage(S.retry ? t("reconnecting") : t("connecting"));
    ws.addEventListener("open", () => {
      const hello = S.token ? { type: "join", token: S.token, after: S.lastN, player: S.player }
        : { type: "watch", after: S.lastN };
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try { msg = parseJson(e.data); } catch { return; }
      onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (S.ws !== ws) return;
      S.ws = null;
      if (!S.wsWanted || S.closed) return;
      if (S.movedNow) { S.movedNow = false; connect(); return; }
      // The room's server is gone: ask the page's own server again, which sends the page on.
      if (!S.welcomed && S.wsMoved) { S.wsMoved = null; retry(); return; }
      // Refused for good (a wrong token, a seat opened elsewhere, a full room): say why and stop.
      if (e.code === 1008) { stopRoom(S.refusal ?? "other"); return; }
      if (!S.welcomed) { probeRoom(); return; }
      retry();
    });
  }

  function retry() {
    S.retry = Math.min(S.retry + 1, 5);
    // Waiting for a restarting server: its message stays up until the room is back.
    setMessage(S.restarting ? t("serverDown") : t("reconnecting"), true);
    setTimeout(() => { if (S.wsWanted && !S.ws) connect(); }, 500 * S.retry);
  }

  // The connection failed before the welcome: the room's WebSocket address answers a plain
  // request with 404 when there is no such room; anything else is a network problem.
  async function probeRoom() {
    let status = 0;
    try {
      status = (await fetch(`/v1/rooms/${encodeURIComponent(S.room)}/ws`)).status;
    } catch (err) {
      console.log("ddz: room probe failed:", err);
    }
    if (status === 404) stopRoom("unknownRoom");
    else retry();
  }

  // The room cannot be joined: a message in the page's language, with a way out.
  function stopRoom(key) {
    S.closed = true;
    S.wsWanted = false;
    S.stopped = key;
    document.getElementById("table").dataset.phase = "stopped";
    setMessage(key === "other" ? t("err").other : t(key), true);
    render();
  }

  // Seeds are 64-bit, past what a JavaScript number holds exactly: they are read as strings
  // and written back as numbers, so a record replays and downloads with its exact seed.
  function parseJson(text) {
    return JSON.parse(text.replace(/"seed":(\d{16,})/g, '"seed":"$1"'));
  }
  function recordText(record, indent) {
    return JSON.stringify(record, null, indent).replace(/"seed": ?"(\d+)"/g, (m, d) => m.replace(`"${d}"`, d));
  }

  // Every action carries the step of the state it answers, so a double tap or a message
  // resent after the turn moved on is refused rather than applied to a later turn.
  function send(msg) {
    if (S.state) msg = { ...msg, step: S.state.step };
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        S.welcome = msg;
        S.welcomed = true;
        S.seat = msg.seat;
        S.retry = 0;
        S.restarting = false;
        setMessage("");
        break;
      case "update": {
        if (typeof msg.n === "number") S.lastN = msg.n;
        const before = S.state;
        S.state = msg.state;
        S.stateAt = performance.now();
        for (const ev of msg.events ?? []) logEvent(ev, before);
        onState(before);
        break;
      }
      case "hints":
        S.hints = msg.moves ?? [];
        S.hintKey = stepKey();
        S.hintIndex = 0;
        nextHint();
        break;
      case "error": {
        console.log("ddz: the server refused:", msg.error?.code, msg.error?.message);
        const key = errorKey(msg.error);
        if (!S.welcomed || key === "replaced" || key === "fullRoom") S.refusal = key;
        setMessage(key === "badToken" || key === "replaced" || key === "fullRoom" ? t(key) : errorText(msg.error ?? {}), true);
        break;
      }
      case "moved":
        // The room is run by another server of this service: connect there (the close follows).
        S.wsMoved = msg.ws;
        S.movedNow = true;
        break;
      case "closed":
        console.log("ddz: the room closed:", msg.reason);
        if (/shutting down/.test(msg.reason ?? "")) {
          // The server saves the room and resumes it when it starts again: keep reconnecting
          // (a server that kept no database answers 404 then, and the page says so).
          S.restarting = true;
          setMessage(t("serverDown"), true);
          break;
        }
        S.closed = true;
        S.wsWanted = false;
        setMessage(/idle/.test(msg.reason ?? "") ? t("roomIdle") : t("closed"), true);
        break;
      default:
        break;
    }
  }

  // A refusal's code (docs/web.md, "Refusals") as a key of the page's messages; the English
  // message goes to the console only. A refusal the game made in another phase says which.
  const REFUSAL_KEYS = {
    bad_token: "badToken", wrong_token: "badToken", replaced: "replaced", room_full: "fullRoom",
    not_your_turn: "turn", not_a_combination: "combo", bad_notation: "combo", no_cards: "noCards",
    does_not_beat: "beat", not_in_hand: "notInHand", bad_ids: "notInHand", bad_bid: "bid",
    game_over: "over", game_not_over: "notOver", pass_when_leading: "lead", stale_step: "stale",
    bad_double: "double", already_doubled: "double", spectator: "spectator", no_hints: "hints",
    not_saved: "notSaved",
  };
  const PHASE_KEYS = { bidding: "biddingNotOver", playing: "biddingOver", doubling: "double", dealing: "show", landlord_show: "show", over: "over" };
  function errorKey(error) {
    if (error?.code === "wrong_phase") return PHASE_KEYS[error.phase] ?? "other";
    return REFUSAL_KEYS[error?.code] ?? "other";
  }

  function errorText(error) {
    const key = errorKey(error);
    const texts = t("err");
    if (key === "beat") return texts.beat(S.state?.last ? moveText(S.state.last.move) : error.last ?? "");
    return typeof texts[key] === "string" ? texts[key] : t(key);
  }

  // A key that changes with every action: hints are kept for one turn.
  const stepKey = () => (S.state ? String(S.state.step) : "");

  function onState(before) {
    const st = S.state;
    noticeChanges(before, st);
    const hand = new Set(st.hand ?? []);
    for (const id of [...S.selected]) if (!hand.has(id)) S.selected.delete(id);
    if (S.hintKey !== stepKey()) { S.hints = null; S.hint = null; }
    // A reading picker left open from an earlier turn is stale.
    if (S.dialog === "readings" && before && before.step !== st.step) closeDialog();
    if (before && before.game !== st.game) {
      S.selected.clear();
      S.cursor = 0;
      if (S.dialog === "over") closeDialog();
    }
    if (st.phase === "over" && (!before || before.phase !== "over" || before.game !== st.game)) {
      // The suggestion shown is the one that counts this game: none until it is loaded.
      if (S.results) S.results.next_level = null;
      showOver();
      // The server saves the game as it ends: its results include it a moment later.
      if (st.you !== null && st.you !== undefined) setTimeout(loadResults, 800);
    } else if (S.dialog === "over" && st.phase === "over") {
      showOver();
    }
    render();
  }

  // What changed since the last state, for sounds, motion and the 报单/报双 warnings.
  function noticeChanges(before, st) {
    const sameGame = before && before.game === st.game;
    if (sameGame) {
      for (const e of st.history.slice(before.history.length)) {
        if (e.move === "pass") continue;
        S.fresh.add(e.ids.join(","));
        sound(moveSound(e.move));
      }
    }
    if (st.phase === "playing" || st.phase === "over") {
      for (const s of [0, 1, 2]) {
        const n = st.seats[s].cards_left;
        const was = sameGame ? before.seats[s].cards_left : 99;
        if ((n === 1 || n === 2) && n < was && st.phase === "playing") {
          S.log.push(t("ev_warn", seatName(s), n));
          if (!sameGame || was > 2 || n === 1) sound(n === 1 ? "warn1" : "warn2");
        }
      }
    }
    if (st.phase === "over" && (!before || before.phase !== "over" || !sameGame) && st.result) {
      const r = st.result;
      const me = st.you;
      if (r.spring || r.anti_spring) sound("spring");
      else sound(me === null || r.scores[me] > 0 ? "win" : "lose");
    }
    const mine = st.you !== null && st.phase !== "over" && st.turn === st.you;
    if (mine && (!before || before.turn !== st.turn || before.phase !== st.phase || !sameGame)) sound("ring");
    if (!before || before.turn !== st.turn || before.step !== st.step) S.alarmed = false;
  }

  // The sound of a play: bombs and the rocket have their own.
  function moveSound(move) {
    const cards = cardsPart(move);
    const as = move.includes("=") ? move.split("=")[1].split(":")[0] : cards;
    if (cards === "BR" && !move.includes(":")) return "rocket";
    if (/:bomb/.test(move) || (as.length === 4 && new Set(as).size === 1) || (as.length > 4 && new Set(as).size === 1)) return "bomb";
    return "play";
  }

  // --- Sound: short tones made here with WebAudio (no files), muted by the top bar's switch
  // (remembered in the browser). The page plays nothing until the first click or key.
  const SOUNDS = {
    play: [[520, 0.06, "triangle"]], ring: [[880, 0.09, "sine"], [1175, 0.12, "sine"]],
    alarm: [[988, 0.08, "square"], [0, 0.05], [988, 0.08, "square"], [0, 0.05], [988, 0.08, "square"]],
    bomb: [[110, 0.25, "sawtooth"], [70, 0.3, "sawtooth"]], rocket: [[300, 0.08, "sawtooth"], [600, 0.08, "sawtooth"], [1200, 0.2, "sawtooth"]],
    spring: [[523, 0.1, "sine"], [659, 0.1, "sine"], [784, 0.1, "sine"], [1047, 0.25, "sine"]],
    win: [[523, 0.12, "triangle"], [784, 0.25, "triangle"]], lose: [[392, 0.15, "triangle"], [262, 0.3, "triangle"]],
    warn1: [[1319, 0.1, "sine"], [0, 0.06], [1319, 0.18, "sine"]], warn2: [[1175, 0.1, "sine"], [0, 0.06], [1175, 0.1, "sine"]],
  };
  let audio = null;
  function sound(name) {
    document.body.dataset.lastSound = name;
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds ?? 0) + 1);
    if (S.muted || !audio) return;
    let at = audio.currentTime + 0.01;
    for (const [freq, dur, type] of SOUNDS[name] ?? []) {
      if (freq) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = type;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + dur + 0.02);
      }
      at += dur;
    }
  }
  function unlockAudio() {
    if (audio || S.muted) return;
    const Ctx = window.AudioContext ?? window.webkitAudioContext;
    if (Ctx) audio = new Ctx();
  }
  function renderMute() {
    const b = $("btn-sound");
    b.textContent = S.muted ? `✕ ${t("muted")}` : `♪ ${t("sound")}`;
    b.setAttribute("aria-pressed", S.muted ? "true" : "false");
  }

  // --- Events and messages ------------------------------------------------------------------

  function seatName(seat) {
    const st = S.state;
    if (!st) return `${t("seat")} ${seat + 1}`;
    if (seat === st.you) return t("you");
    const s = st.seats[seat];
    const who = s.player === "robot" ? robotName(s.robot) : t("person");
    return `${who} (${t("seat")} ${seat + 1})`;
  }

  // A robot's name in the page's language ("search:time=1s" is the search robot, "level:3"
  // level 3).
  function robotName(spec) {
    const [base, option] = String(spec ?? "").split(":");
    if (base === "level" && /^[1-8]$/.test(option ?? "")) return t("levelName", option);
    return t("robotNames")[base] ?? base;
  }

  function bidWord(seat, bid, earlier) {
    const st = S.state;
    if (st && st.bidding === "call_rob") {
      const called = earlier.some(([, b]) => b > 0);
      if (bid === 0) return called ? t("noRob") : t("decline");
      return called ? t("rob") : t("call");
    }
    return bid === 0 ? t("bidPass") : String(bid);
  }

  function describe(ev, before) {
    const st = S.state;
    // A robot's move for a person: auto-play's, or the turn timer's.
    const auto = ev.auto ? ` ${st?.seats[ev.seat]?.auto ? t("autoTag") : t("auto")}` : "";
    switch (ev.event) {
      case "start": return t("ev_start", ev.game);
      case "bid": {
        const earlier = (before?.bids ?? []);
        if (st?.bidding === "call_rob") {
          const called = earlier.some(([, b]) => b > 0);
          const w = ev.bid === 0 ? "ev_decline" : called ? "ev_rob" : "ev_call";
          return t(w, seatName(ev.seat)) + auto;
        }
        return (ev.bid === 0 ? t("ev_pass", seatName(ev.seat)) : t("ev_bid", seatName(ev.seat), ev.bid)) + auto;
      }
      case "show": return (ev.factor ? t("ev_show", seatName(ev.seat), ev.factor) : t("ev_noShow", seatName(ev.seat))) + auto;
      case "double": return t("ev_double", seatName(ev.seat), ev.factor) + auto;
      case "redeal": return t("ev_redeal");
      case "landlord": return t("ev_landlord", seatName(ev.seat));
      case "wild": return t("ev_wild", ev.laizi.map(rankLabel).join(" "));
      case "play":
        return (ev.move === "pass" ? t("ev_pass", seatName(ev.seat)) : t("ev_play", seatName(ev.seat), moveText(ev.move))) + auto;
      case "over": return t("ev_over");
      case "connected": return t("ev_conn", seatName(ev.seat), ev.connected);
      case "ready": return t("ev_ready", seatName(ev.seat));
      case "auto": return t("ev_auto", seatName(ev.seat), ev.auto);
      default: return "";
    }
  }

  function logEvent(ev, before) {
    const text = describe(ev, before);
    if (!text) return;
    S.log.push(text);
    if (S.log.length > 200) S.log.shift();
    if (["play", "bid", "show", "double", "landlord", "redeal", "wild"].includes(ev.event)) setMessage(text);
  }

  function setMessage(text, bad = false) {
    S.message = text;
    S.messageBad = bad;
    const st = $("status");
    if (st) renderStatus();
  }

  // --- Rendering ----------------------------------------------------------------------------

  function applyI18n() {
    document.documentElement.lang = S.lang === "zh" ? "zh-CN" : "en";
    for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
    $("btn-lang").textContent = S.lang === "zh" ? "English" : "中文";
    renderMute();
    renderRobotChoices();
    renderResults();
    if (S.view === "games") renderGames();
  }

  // The seat choices: every robot the server offers, strongest first, then a person.
  function renderRobotChoices() {
    const known = S.robots ?? ROBOT_ORDER;
    const robots = [...ROBOT_ORDER.filter((r) => known.includes(r)), ...known.filter((r) => !ROBOT_ORDER.includes(r))];
    for (const sel of document.querySelectorAll(".seat-choice")) {
      const value = sel.value || robots[0];
      sel.replaceChildren(...robots.map((r) => el("option", { value: r, text: t("robotOption", robotName(r)) })),
        el("option", { value: "human", text: t("human") }));
      sel.value = value;
      const about = $(`${sel.id}-about`);
      if (about) about.textContent = sel.value === "human" ? t("invite") : (t("robotAbout")[sel.value] ?? "");
    }
  }

  async function loadRobots() {
    try {
      const res = await fetch("/v1/health");
      const body = await res.json();
      if (Array.isArray(body.robots) && body.robots.length) S.robots = body.robots;
    } catch (err) {
      console.log("ddz: /v1/health:", err);
    }
    renderRobotChoices();
  }

  function setView(view) {
    S.view = view;
    document.body.dataset.view = view;
    $("lobby").hidden = view !== "lobby";
    $("table").hidden = view !== "table";
    $("replay").hidden = view !== "replay";
    $("games").hidden = view !== "games";
    render();
  }

  function render() {
    if (S.view === "table") renderTable();
    if (S.view === "replay") renderReplay();
  }

  // Each seat's latest action in the trick shown (the server sends it as `trick`: the trick in
  // progress, or the one just ended when the seat to act leads).
  function latestBySeat(trick) {
    const latest = [null, null, null];
    for (const h of trick) latest[h.seat] = h;
    return latest;
  }

  function clockMs(seat) {
    const c = S.state?.clock;
    if (!c || c.seat !== seat || S.state.phase === "over") return null;
    return Math.max(0, c.ms - (performance.now() - S.stateAt));
  }

  // A seat's bid in this deal, as a tag: "bid 2", "no bid"; call-and-rob: called, robbed.
  function bidTag(seat) {
    const st = S.state;
    if (st.phase !== "bidding" || !st.bids.length) return null;
    let tag = null;
    let called = false;
    for (const [s, b] of st.bids) {
      let text;
      if (st.bidding === "call_rob") {
        text = b === 0 ? (called ? t("declineTag") : t("bidPassTag")) : called ? t("robTag") : t("callTag");
        if (b > 0) called = true;
      } else text = b === 0 ? t("bidPassTag") : t("bidTag", b);
      if (s === seat) tag = text;
    }
    return tag === null ? null : el("span", { class: "badge bidtag", "data-seat": seat, text: tag });
  }

  // 报单 / 报双: a seat down to one or two cards while the game goes on.
  function warnBadge(seat) {
    const st = S.state;
    const n = st.seats[seat].cards_left;
    if (st.phase !== "playing" || (n !== 1 && n !== 2)) return null;
    return el("span", { class: `badge warn warn${n}`, "data-seat": seat, "data-left": n, text: t(n === 1 ? "warn1" : "warn2") });
  }

  function seatBadges(seat) {
    const st = S.state;
    const s = st.seats[seat];
    const role = s.role ? (s.role === "landlord" ? t("landlord") : t("farmer")) : null;
    return [
      role ? el("span", { class: `badge ${s.role === "landlord" ? "lord" : "farm"}`, text: role }) : null,
      s.connected ? null : el("span", { class: "badge away", text: t("away") }),
      s.auto ? el("span", { class: "badge autob", "data-seat": seat, text: t("autoBadge") }) : null,
      bidTag(seat),
      warnBadge(seat),
      st.turn === seat ? el("span", { class: "badge turn", text: "●" }) : null,
      el("span", { class: "clock", "data-seat": seat }),
    ];
  }

  // A seat's play in the trick; a play just made slides in from its seat.
  function playedEl(entry, from) {
    if (!entry) return el("div", { class: "played-empty" });
    if (entry.move === "pass") return el("div", { class: "pass-word", text: t("pass") });
    const row = cardsRow(entry.ids, "mid");
    const key = entry.ids.join(",");
    if (S.fresh.has(key)) {
      S.fresh.delete(key);
      row.classList.add("fly", `from-${from}`);
    }
    return row;
  }

  // A seat's count of cards, face down.
  function countEl(seat) {
    return el("div", { class: "count", "data-seat": seat, title: t("cards") },
      el("span", { class: "back" }), el("b", { text: S.state.seats[seat].cards_left }), ` ${t("cards")}`);
  }

  function renderTable() {
    const st = S.state;
    const table = $("table");
    if (!st) {
      table.dataset.phase = S.stopped ? "stopped" : "connecting";
      renderStatus();
      put($("actions"), S.stopped ? el("button", { id: "btn-back", class: "primary", text: t("backToLobby"), onclick: toLobby }) : null,
        S.stopped === "badToken" ? el("button", { id: "btn-watch-instead", text: t("watchInstead"), onclick: () => enterRoom(S.room, null) }) : null);
      return;
    }
    const me = st.you ?? 0;
    const spectator = st.you === null;
    table.dataset.phase = st.phase;
    table.dataset.step = stepKey();
    table.dataset.myTurn = !spectator && st.turn === me && st.phase !== "over" ? "1" : "0";
    table.classList.toggle("spectating", spectator);
    const trick = latestBySeat(st.trick ?? []);

    const opp = (seat, box, from) => {
      const s = st.seats[seat];
      put(box,
        el("div", { class: "who" }, el("span", { class: "name", text: seatName(seat) }), seatBadges(seat)),
        countEl(seat),
        el("div", { class: "played" }, playedEl(trick[seat], from)),
        st.hands ? cardsRow(st.hands[seat], "small reveal") : null,
        !st.hands && st.shown?.[seat] ? el("div", { class: "shown", "data-seat": seat },
          el("span", { class: "badge shown-badge", text: t("shows") }), cardsRow(st.shown[seat], "small reveal")) : null,
        st.doublings?.[seat] ? el("div", { class: "dbl", text: `${t("doubling")} ×${st.doublings[seat]} · ${t("pairMult")} ×${st.multipliers[seat]}` }) : null,
      );
      box.classList.toggle("active", st.turn === seat && st.phase !== "over");
      box.classList.toggle("warned", s.cards_left <= 2 && st.phase === "playing");
    };
    opp((me + 2) % 3, $("opp-left"), "left");
    opp((me + 1) % 3, $("opp-right"), "right");

    // Centre: kitty, wild, stake, game.
    const info = $("info");
    const kitty = st.kitty ? cardsRow(st.kitty, "tiny") : el("span", { class: "cards tiny" },
      [0, 1, 2].map(() => el("div", { class: "card back-card" })));
    put(info,
      el("span", { class: "item" }, `${t("kitty")} `, kitty),
      st.laizi.length ? el("span", { class: "item wildinfo" }, `${t("wild")} `,
        st.laizi.map((r) => el("b", { class: "wildrank", text: rankLabel(r) }))) : null,
      el("span", { class: "item", id: "stake" }, stakeText(st)),
      st.multipliers && st.landlord !== null && st.you !== null
        ? el("span", { class: "item", id: "multipliers" },
          `${t("yourMult")} ×${st.multipliers[st.you]}` + (st.doublings?.[st.you] ? ` (${t("doubling")} ×${st.doublings[st.you]})` : ""))
        : null,
      el("span", { class: "item" }, `#${st.game} · ${t("r_" + st.rules)}`),
    );
    renderCounter();
    renderStatus();
    renderInvite();

    // Me, or seat 1 for spectators: its count, its play and, once over, its cards.
    if (spectator) {
      put($("my-played"), playedEl(trick[0], "bottom"));
      put($("my-line"), el("div", { class: "who" },
        el("span", { class: "name", text: seatName(0) }), seatBadges(0), countEl(0)));
      put($("actions"), el("p", { class: "note", text: t("spectators") }));
      put($("hand"), st.hands ? cardsRow(st.hands[0], "small reveal") : null);
      $("me").classList.toggle("active", st.turn === 0 && st.phase !== "over");
      renderLog();
      return;
    }
    put($("my-played"), playedEl(trick[me], "bottom"));
    const auto = st.seats[me].auto;
    put($("my-line"), el("div", { class: "who" },
      el("span", { class: "name", text: t("you") }), seatBadges(me),
      el("span", { class: "total", text: `${t("total")} ${st.totals[me] >= 0 ? "+" : ""}${st.totals[me]}` }),
      el("button", { id: "btn-auto", class: auto ? "auto-on" : "", "aria-pressed": auto ? "true" : "false",
        text: auto ? t("autoOff") : t("autoOn"), onclick: () => send({ type: "auto", auto: !auto }) })));
    $("me").classList.toggle("active", st.turn === me && st.phase !== "over");
    renderActions();
    renderHand();
    renderLog();
    tick();
  }

  // "base 3 × multiplier 4 (robs ×2 · bombs ×2)": the parts that are not 1.
  function stakeText(st) {
    const p = st.stake ?? {};
    const parts = [];
    if (p.robs > 1) parts.push(`${t("robsPart")} ×${p.robs}`);
    if (p.shows > 1) parts.push(`${t("showsPart")} ×${p.shows}`);
    if (p.bombs > 1) parts.push(`${t("bombsPart")} ×${p.bombs}`);
    return t("stakeLine", st.base, st.multiplier) + (parts.length ? ` (${parts.join(" · ")})` : "");
  }

  function renderStatus() {
    const box = $("status");
    const st = S.state;
    let line = "";
    if (st && st.phase !== "over") {
      const me = st.you;
      if (me !== null && st.seats[me].auto) line = t("autoNote");
      else if (me !== null && st.turn === me) {
        line = st.legal?.show !== undefined ? t("yourTurnShow")
          : st.legal?.double ? t("yourTurnDouble")
          : st.phase === "bidding" ? t("yourTurnBid") : t("yourTurnPlay") + (st.last ? "" : ` · ${t("lead")}`);
      } else if (st.turn !== null) {
        line = st.phase === "bidding" ? t("waitingBid", seatName(st.turn)) : t("toAct", seatName(st.turn));
      }
    } else if (st) line = t("over");
    put(box, el("div", { class: "turnline", text: line }),
      S.message ? el("div", { class: S.messageBad ? "msg bad" : "msg", text: S.message }) : null);
  }

  function renderInvite() {
    const box = $("invite");
    const st = S.state;
    const links = [];
    if (S.invites && st && st.you !== null) {
      for (const [seat, token] of Object.entries(S.invites)) {
        if (st.seats[seat].connected) continue;
        const url = `${location.origin}/#room=${S.room}&token=${token}`;
        links.push(el("div", { class: "invite" }, `${t("invite")} ${Number(seat) + 1}: `,
          el("input", { readonly: true, value: url, onclick: (e) => e.target.select() })));
      }
    }
    put(box, ...links);
  }

  // The card counter: by rank, what is still out (neither in your hand nor played), then
  // what each opponent has played and, once it has shown them, the cards it holds. Which
  // opponent holds an unseen card is hidden information: the page never knows it.
  function renderCounter() {
    const box = $("counter");
    box.hidden = !S.counter;
    if (!S.counter || !S.state) return;
    const st = S.state;
    const ranks = [...RANKS].reverse();
    const byRank = (ids) => {
      const n = Object.fromEntries(ranks.map((r) => [r, 0]));
      for (const id of ids) n[letterOfId(id)] += 1;
      return n;
    };
    const out = Object.fromEntries(ranks.map((r) => [r, r === "B" || r === "R" ? 1 : 4]));
    const seen = [...(st.hand ?? []), ...st.history.flatMap((h) => h.ids)];
    for (const id of seen) out[letterOfId(id)] -= 1;
    const me = st.you ?? 0;
    const rows = [[t("counterOut"), out, "out"]];
    for (const seat of [(me + 2) % 3, (me + 1) % 3]) {
      if (st.you === null && seat === me) continue;
      rows.push([`${t("counterPlayed", seatName(seat))} · ${t("cardsLeftN", st.seats[seat].cards_left)}`,
        byRank(st.history.filter((h) => h.seat === seat).flatMap((h) => h.ids)), `played-${seat}`]);
      if (st.shown?.[seat]) rows.push([t("counterShown", seatName(seat)), byRank(st.shown[seat]), `shown-${seat}`]);
    }
    if (st.you === null) {
      rows.push([`${t("counterPlayed", seatName(0))} · ${t("cardsLeftN", st.seats[0].cards_left)}`,
        byRank(st.history.filter((h) => h.seat === 0).flatMap((h) => h.ids)), "played-0"]);
    }
    put(box, el("table", { class: "counter" },
      el("tr", {}, el("th", {}), ranks.map((r) => el("th", { class: isWild(r) ? "wild" : "", text: r === "B" ? (S.lang === "zh" ? "小" : "b") : r === "R" ? (S.lang === "zh" ? "大" : "R") : rankLabel(r) }))),
      rows.map(([label, n, key]) => el("tr", { "data-row": key }, el("th", { class: "label", text: label }),
        ranks.map((r) => el("td", { class: n[r] === 0 ? "zero" : "", text: n[r] }))))));
  }

  function renderLog() {
    const box = $("log");
    put(box, el("h4", { text: t("log") }),
      ...S.log.slice(-40).map((line) => el("div", { text: line })));
    box.scrollTop = box.scrollHeight;
  }

  function myTurn() {
    const st = S.state;
    return st && st.you !== null && st.phase !== "over" && st.turn === st.you;
  }

  function renderActions() {
    const st = S.state;
    const box = $("actions");
    const buttons = [];
    if (st.phase === "over") {
      buttons.push(el("button", { id: "btn-next", class: "primary", text: t("next"), onclick: () => send({ type: "next" }) }));
    } else if (st.legal && st.legal.show !== undefined) {
      const f = st.legal.show;
      buttons.push(el("button", { id: "btn-noshow", text: t("noShow"), onclick: () => send({ type: "show", show: false }) }));
      buttons.push(el("button", { id: "btn-show", class: "primary", text: t("showBtn", f), onclick: () => send({ type: "show", show: true }) }));
    } else if (st.legal && st.legal.double) {
      for (const f of st.legal.double) {
        const text = f === 1 ? t("noDouble") : f === 2 ? t("doubleBtn", f) : t("superDouble", f);
        buttons.push(el("button", { id: `double-${f}`, class: f === 1 ? "" : "primary", text, onclick: () => send({ type: "double", double: f }) }));
      }
    } else if (myTurn() && st.phase === "bidding") {
      const bids = st.legal?.bids ?? [];
      for (const b of bids) {
        buttons.push(el("button", {
          id: `bid-${b}`, class: b === 0 ? "" : "primary", text: bidWord(st.you, b, st.bids),
          onclick: () => send({ type: "bid", bid: b }),
        }));
      }
    } else if (st.phase === "playing") {
      const mine = myTurn();
      buttons.push(el("button", { id: "btn-pass", text: t("pass"), disabled: !mine || !st.last, onclick: pass }));
      buttons.push(el("button", { id: "btn-hint", text: t("hint"), disabled: !mine, onclick: hint }));
      buttons.push(el("button", { id: "btn-play", class: "primary", text: t("play"), disabled: !mine, onclick: playSelection }));
    }
    put(box, ...buttons);
  }

  function handIds() {
    const hand = S.state?.hand ?? [];
    return [...hand].sort((a, b) => rankOfId(b) - rankOfId(a) || a - b);
  }

  function renderHand() {
    const box = $("hand");
    const ids = handIds();
    if (S.cursor >= ids.length) S.cursor = Math.max(0, ids.length - 1);
    // The landlord's cards from the kitty carry a mark while the game goes on.
    const st = S.state;
    const kitty = st && st.kitty && st.landlord === st.you && st.phase !== "over" ? new Set(st.kitty) : new Set();
    put(box, ...ids.map((id, i) => {
      const fromKitty = kitty.has(id);
      const c = cardEl(id, { cls: `${S.selected.has(id) ? "sel" : ""} ${i === S.cursor ? "cur" : ""} ${fromKitty ? "from-kitty" : ""}` });
      if (fromKitty) c.append(el("span", { class: "kit", title: t("kittyTitle"), text: t("kittyMark") }));
      c.addEventListener("click", () => { S.cursor = i; toggle(id); });
      return c;
    }));
    // Overlap the cards so the hand fits the width.
    const width = box.clientWidth || window.innerWidth;
    const cw = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 60;
    const n = ids.length;
    const overlap = n > 1 ? Math.min(-4, (width - 8 - n * cw) / (n - 1)) : 0;
    // At least the corner index stays visible (a condensed "10", a joker's upright name).
    box.style.setProperty("--overlap", `${Math.max(overlap, -cw + 17)}px`);
  }

  function tick() {
    for (const e of document.querySelectorAll(".clock")) {
      const ms = clockMs(Number(e.dataset.seat));
      e.textContent = ms === null ? "" : `${Math.ceil(ms / 1000)}s`;
      e.classList.toggle("low", ms !== null && ms < 8000);
    }
    // The alarm, once a turn, when your own time runs low.
    const st = S.state;
    if (st && st.you !== null) {
      const ms = clockMs(st.you);
      if (ms !== null && ms < 5000 && ms > 0 && !S.alarmed && !st.seats[st.you].auto) {
        S.alarmed = true;
        sound("alarm");
      }
    }
  }

  // --- Actions ------------------------------------------------------------------------------

  function toggle(id) {
    if (S.selected.has(id)) S.selected.delete(id); else S.selected.add(id);
    S.hint = null;
    renderHand();
  }

  function selectRank(letter) {
    const ids = handIds();
    const ofRank = ids.map((id, i) => [id, i]).filter(([id]) => letterOfId(id) === letter);
    if (!ofRank.length) { setMessage(`${rankLabel(letter)}: –`, true); return; }
    S.hint = null;
    const free = ofRank.find(([id]) => !S.selected.has(id));
    if (free) { S.selected.add(free[0]); S.cursor = free[1]; }
    else for (const [id] of ofRank) S.selected.delete(id);
    renderHand();
  }

  function pass() {
    if (!myTurn()) return;
    send({ type: "pass" });
  }

  function hint() {
    if (!myTurn() || S.state.phase !== "playing") { setMessage(t("noHint"), true); return; }
    if (S.hints && S.hintKey === stepKey()) nextHint();
    else send({ type: "hint" });
  }

  // Selects the next hint's cards (lowest ids of each rank).
  function nextHint() {
    if (!S.hints || !S.hints.length) { setMessage(t("noHint"), true); return; }
    const i = S.hintIndex % S.hints.length;
    S.hintIndex = i + 1;
    const move = S.hints[i];
    S.hint = move;
    S.selected.clear();
    if (move !== "pass") {
      const want = [...cardsPart(move)];
      const ids = [...(S.state.hand ?? [])].sort((a, b) => a - b);
      for (const letter of want) {
        const id = ids.find((x) => letterOfId(x) === letter && !S.selected.has(x));
        if (id !== undefined) S.selected.add(id);
      }
    }
    setMessage(t(touchScreen() ? "hintTap" : "hintN", i + 1, S.hints.length, moveText(move)));
    S.hint = move;
    renderHand();
  }

  // A phone or tablet: hints say "tap Play" rather than "press Enter".
  const touchScreen = () => matchMedia("(pointer: coarse)").matches || matchMedia("(max-width: 700px)").matches;

  function playMove(move, ids) {
    send({ type: "play", move, ids: move === "pass" ? [] : ids });
    S.hint = null;
  }

  function playSelection() {
    if (!myTurn() || S.state.phase !== "playing") return;
    const ids = [...S.selected];
    if (S.hint && S.hint === "pass" && !ids.length) { pass(); return; }
    if (!ids.length) { setMessage(t("selectFirst"), true); return; }
    const cards = canonical(ids);
    if (S.hint && S.hint !== "pass" && cardsPart(S.hint) === cards) { playMove(S.hint, ids); return; }
    const readings = (S.state.legal?.moves ?? []).filter((m) => m !== "pass" && cardsPart(m) === cards);
    if (readings.length === 1) playMove(readings[0], ids);
    else if (readings.length === 0) {
      // Not a legal play: said here, in the page's language, without asking the server.
      setMessage(S.state.last ? t("err").beat(moveText(S.state.last.move)) : t("err").combo, true);
    }
    else showReadings(readings, ids);
  }

  // --- Dialogs ------------------------------------------------------------------------------

  function openDialog(name, ...children) {
    S.dialog = name;
    put($("dialog"), ...children);
    $("dialog").dataset.name = name;
    $("overlay").hidden = false;
  }

  function closeDialog() {
    S.dialog = null;
    S.readings = null;
    $("overlay").hidden = true;
    put($("dialog"), );
  }

  function showReadings(readings, ids) {
    S.readings = { readings, ids, index: 0 };
    renderReadings();
  }

  function renderReadings() {
    const { readings, ids, index } = S.readings;
    openDialog("readings", el("h3", { text: t("readings") }),
      el("ol", { class: "readings" }, readings.map((m, i) => el("li", {},
        el("button", { class: i === index ? "reading cur" : "reading", "data-move": m,
          onclick: () => { closeDialog(); playMove(m, ids); } },
        el("b", { text: `${i + 1}` }), " ", moveText(m))))),
      el("button", { text: t("cancel"), onclick: closeDialog }));
  }

  function showOver() {
    const st = S.state;
    const r = st.result;
    if (!r) return;
    const me = st.you;
    const side = r.winner === "landlord" ? t("landlordWins") : t("farmersWins");
    const verdict = me === null ? "" : r.scores[me] > 0 ? t("youWin") : t("youLose");
    const extras = [];
    const p = st.stake ?? {};
    if (p.robs > 1) extras.push(`${t("robsPart")} ×${p.robs}`);
    if (p.shows > 1) extras.push(`${t("showsPart")} ×${p.shows}`);
    if (r.bombs || r.rocket) {
      const what = [r.bombs ? `${t("bombs")} ${r.bombs}` : null, r.rocket ? t("rocket") : null].filter(Boolean).join(" + ");
      extras.push(`${what} ×${p.bombs ?? ""}`);
    }
    const table = (p.robs ?? 1) * (p.shows ?? 1) * (p.bombs ?? 1);
    const springFactor = table > 0 && r.multiplier % table === 0 ? r.multiplier / table : 2;
    if (r.spring) extras.push(`${t("spring")} ×${springFactor}`);
    if (r.anti_spring) extras.push(`${t("antiSpring")} ×${springFactor}`);
    if (r.doubling) extras.push(`${t("doublingPart")} ${r.doubling.map((d) => `×${d}`).join(" / ")}`);
    const rows = [0, 1, 2].map((s) => el("tr", { class: s === me ? "mine" : "" },
      el("td", { text: seatName(s) }),
      el("td", { text: st.seats[s].role === "landlord" ? t("landlord") : t("farmer") }),
      el("td", { class: r.scores[s] > 0 ? "up" : "down", text: `${r.scores[s] > 0 ? "+" : ""}${r.scores[s]}` }),
      el("td", { text: `${st.totals[s] >= 0 ? "+" : ""}${st.totals[s]}` })));
    const waiting = me !== null && st.seats[me].ready;
    openDialog("over",
      el("h2", { id: "over-title", text: `${side}${verdict ? " · " + verdict : ""}` }),
      el("p", { id: "over-stake", text: t("stakeLine", r.base, r.multiplier) + (extras.length ? `: ${extras.join(" · ")}` : "") }),
      // Every seat's cards left, spectators included.
      el("div", { class: "over-hands" }, [0, 1, 2].map((s) => st.hands[s].length
        ? el("div", { class: "row" }, el("span", { text: seatName(s) }), cardsRow(st.hands[s], "small")) : null)),
      el("table", { class: "scores" },
        el("tr", {}, el("th", { text: "" }), el("th", { text: "" }), el("th", { text: t("score") }), el("th", { text: t("total") })),
        rows),
      me !== null ? nextLevelLine("over-next-level") : null,
      el("div", { class: "row" },
        me !== null ? el("button", { id: "over-next", class: "primary", disabled: waiting, text: waiting ? t("waitingOthers") : t("next"),
          onclick: () => send({ type: "next" }) }) : null,
        el("button", { id: "over-download", text: t("download"), onclick: downloadRecord }),
        el("button", { id: "over-replay", text: t("viewReplay"), onclick: () => { closeDialog(); loadReplay(recordText(st.record)); } }),
        el("button", { id: "over-analyse", text: t("analyse"), onclick: async () => { closeDialog(); await loadReplay(recordText(st.record)); analyseReplay(); } }),
        el("button", { id: "over-close", text: t("close"), onclick: closeDialog })));
  }

  function downloadRecord() {
    const st = S.state;
    if (!st?.record) return;
    const blob = new Blob([recordText(st.record, 1) + "\n"], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `ddz-game-seed${st.seed}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  function showHelp() {
    openDialog("help", el("h3", { text: t("keys") }),
      el("table", { class: "help" }, t("help").map(([k, v]) => el("tr", {}, el("td", {}, el("kbd", { text: k })), el("td", { text: v })))),
      el("button", { text: t("close"), onclick: closeDialog }));
  }

  // --- Replay viewer ------------------------------------------------------------------------

  async function loadReplay(text) {
    setView("replay");
    $("r-error").textContent = "";
    if (!text || !text.trim()) { $("r-error").textContent = t("notARecord"); return; }
    let res, body;
    try {
      res = await fetch("/v1/replay", { method: "POST", headers: { "content-type": "application/json" }, body: text });
      body = parseJson(await res.text());
    } catch (e) {
      console.log("ddz: POST /v1/replay:", e);
      $("r-error").textContent = t("err").network;
      return;
    }
    if (!res.ok) {
      console.log("ddz: POST /v1/replay:", res.status, body.error);
      $("r-error").textContent = t("badRecord");
    }
    if (!body.steps) return;
    S.replay = body;
    S.replayText = res.ok ? text : null;
    S.analysis = null;
    S.analysisOf = null;
    S.replayAt = 0;
    $("r-analyse").hidden = !res.ok;
    $("r-analysis-status").textContent = "";
    $("r-slider").max = String(body.steps.length - 1);
    $("r-board").hidden = false;
    renderReplay();
  }

  function renderReplay() {
    const rp = S.replay;
    if (!rp) return;
    const i = Math.max(0, Math.min(S.replayAt, rp.steps.length - 1));
    // The better play is shown for the step it was asked at only.
    if (S.shownAt !== i) S.showBetter = false;
    S.shownAt = i;
    S.replayAt = i;
    const step = rp.steps[i];
    $("r-slider").value = String(i);
    let what = "";
    if (step.kind === "bid") what = `${t("seat")} ${step.seat + 1}: ${t("bid")} ${step.bid}`;
    else if (step.kind === "play") what = `${t("seat")} ${step.seat + 1}: ${moveText(step.move)}`;
    else if (step.kind === "landlord") what = t("ev_landlord", `${t("seat")} ${step.seat + 1}`);
    else if (step.kind === "redeal") what = t("ev_redeal");
    else what = t("kitty");
    put($("r-step"), el("b", { text: `${t("step")} ${i}/${rp.steps.length - 1}` }), " ",
      el("span", { class: "r-what", title: step.text, text: what }),
      step.kind === "deal" ? el("div", { class: "cards small r-kitty" }, [...rp.kitty].reverse().map((r) => rankCardEl(r))) : null);
    const landlord = step.landlord;
    put($("r-seats"), ...[0, 1, 2].map((s) => {
      const acting = step.seat === s;
      const role = landlord === null || landlord === undefined ? "" : s === landlord ? t("landlord") : t("farmer");
      const wild = step.laizi ?? [];
      return el("div", { class: `r-seat ${acting ? "acting" : ""}` },
        el("div", { class: "who" }, el("b", { text: `${t("seat")} ${s + 1}` }), role ? el("span", { class: `badge ${s === landlord ? "lord" : "farm"}`, text: role }) : null,
          acting && step.move ? el("span", { class: "r-move", text: moveText(step.move) }) : null,
          acting && step.bid !== null && step.bid !== undefined ? el("span", { class: "r-move", text: `${t("bid")} ${step.bid}` }) : null),
        el("div", { class: "cards small" }, [...step.hands[s]].reverse().map((r) => rankCardEl(r, wild.includes(r) ? "wild" : ""))));
    }));
    renderAnalysis(i);
    const r = rp.result;
    $("r-result").textContent = r && i === rp.steps.length - 1
      ? `${r.winner === "landlord" ? t("landlordWins") : t("farmersWins")} · ${r.scores.map((x) => (x > 0 ? "+" : "") + x).join(" / ")}`
      : "";
  }

  // --- Analysis (复盘): POST /v1/analyse, drawn over the replay ----------------------------

  // Asks the server to rate every play of the replayed record.
  async function analyseReplay() {
    if (!S.replayText || S.analysing) return;
    S.analysing = true;
    $("r-analyse").disabled = true;
    $("r-analysis-status").textContent = t("analysing");
    let res, body;
    try {
      res = await fetch("/v1/analyse", { method: "POST", headers: { "content-type": "application/json" }, body: S.replayText });
      body = parseJson(await res.text());
    } catch (e) {
      console.log("ddz: POST /v1/analyse:", e);
      body = null;
    }
    S.analysing = false;
    $("r-analyse").disabled = false;
    if (!res?.ok || !body?.decisions) {
      console.log("ddz: POST /v1/analyse:", res?.status, body?.error);
      $("r-analysis-status").textContent = res?.status === 503 ? t("analysisBusy") : t("analysisFailed");
      return;
    }
    S.analysis = body;
    // The replay's n-th play (bid) step is the analysis's n-th play (bid) decision.
    const queues = { play: body.decisions.filter((d) => d.kind === "play"), bid: body.decisions.filter((d) => d.kind === "bid") };
    S.analysisOf = S.replay.steps.map((step) => (queues[step.kind] ? queues[step.kind].shift() ?? null : null));
    S.showBetter = false;
    renderReplay();
  }

  const pct = (x) => `${Math.round(x * 100)}%`;

  // The landlord's chance after each rated play (as the seat that played saw it), marks on
  // the costly plays, the current step; a click jumps to the step under it.
  function chartEl(at) {
    const steps = S.replay.steps;
    const w = 1000, h = 140, top = 10, span = 120;
    const x = (i) => (steps.length > 1 ? (i / (steps.length - 1)) * w : 0);
    const y = (p) => top + (1 - p) * span;
    const points = [];
    // Before the landlord is known (the bids) the seat's chance is read against the landlord
    // the bidding made.
    const final = [...steps].reverse().find((st) => st.landlord !== null && st.landlord !== undefined)?.landlord;
    S.analysisOf.forEach((d, i) => {
      if (!d || d.win_played === null) return;
      const landlord = steps[i].landlord ?? final;
      points.push({ i, p: d.seat === landlord ? d.win_played : 1 - d.win_played, d });
    });
    const NS = "http://www.w3.org/2000/svg";
    const svg = (tag, attrs) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      return e;
    };
    const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": t("chartTitle"), preserveAspectRatio: "none", class: "r-chart" });
    root.append(svg("line", { x1: 0, x2: w, y1: y(0.5), y2: y(0.5), class: "half" }));
    root.append(svg("polyline", { points: points.map((q) => `${x(q.i).toFixed(1)},${y(q.p).toFixed(1)}`).join(" "), class: "line" }));
    root.append(svg("line", { x1: x(at), x2: x(at), y1: 0, y2: h, class: "now" }));
    for (const q of points) {
      if (!q.d.mark) continue;
      // A dot that stays round in the stretched chart: a line of no length with round caps,
      // its stroke not scaled.
      const [cx, cy] = [x(q.i).toFixed(1), y(q.p).toFixed(1)];
      root.append(svg("line", { x1: cx, x2: cx, y1: cy, y2: cy, class: `mk mk-${q.d.mark}`, "data-step": q.i }));
    }
    root.addEventListener("click", (e) => {
      const box = root.getBoundingClientRect();
      S.replayAt = Math.round(((e.clientX - box.left) / box.width) * (steps.length - 1));
      renderReplay();
    });
    return el("div", {}, el("div", { class: "r-chart-title", text: t("chartTitle") }), root);
  }

  // The chart and the current step's verdict.
  function renderAnalysis(at) {
    const box = $("r-chart");
    const verdict = $("r-verdict");
    box.hidden = !S.analysisOf;
    if (!S.analysisOf) { box.replaceChildren(); verdict.replaceChildren(); return; }
    const rated = S.analysisOf.filter((d) => d && d.win_played !== null).length;
    $("r-analysis-status").textContent = t("analysisDone", rated);
    put(box, chartEl(at));
    const d = S.analysisOf[at];
    if (!d) { verdict.replaceChildren(); return; }
    const lines = [];
    if (d.forced) lines.push(el("div", { text: t("forcedPlay") }));
    else if (d.win_played !== null && d.loss === null) lines.push(el("div", { text: t("stakeOnly", pct(d.win_played)) }));
    else if (d.win_played === null) lines.push(el("div", { text: t("notRated") }));
    else {
      lines.push(el("div", { class: "r-chance" }, t("chanceAfter", pct(d.win_played), d.kind === "bid"),
        d.mark ? el("span", { class: `badge mk-${d.mark}`, text: `${t("marks")[d.mark]} · ${t("lossLine", pct(d.loss))}` }) : null));
      if (d.best === d.played) lines.push(el("div", { text: t("samePlay") }));
      else if (S.showBetter) {
        // A bid's notation is "bid N"; a play's is cards.
        const best = d.kind === "bid" ? `${t("bid")} ${d.best.split(" ").pop()}` : moveText(d.best);
        lines.push(el("div", { id: "r-best", text: t("bestPlay", best, pct(d.win_best)) }));
      }
      else lines.push(el("button", { id: "r-better", type: "button", text: t("betterPlay"), onclick: () => { S.showBetter = true; renderReplay(); } }));
    }
    if (d.exact) {
      const e = d.exact;
      lines.push(el("div", { class: "r-exact", text: e.played_wins ? t("exactWins") : e.could_win ? t("exactLost", moveText(e.winning)) : t("exactNone") }));
    }
    put(verdict, lines);
  }

  // --- Lobby --------------------------------------------------------------------------------

  async function startGame(e) {
    e.preventDefault();
    $("lobby-error").textContent = "";
    const seats = ["human", $("f-seat1").value, $("f-seat2").value];
    const body = { rules: $("f-rules").value, seats, turn_seconds: Number($("f-turn").value) || 0 };
    let res, reply;
    try {
      res = await fetch("/v1/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      reply = await res.json();
    } catch (err) {
      console.log("ddz: POST /v1/rooms:", err);
      $("lobby-error").textContent = t("err").network;
      return;
    }
    if (!res.ok) {
      console.log("ddz: POST /v1/rooms:", res.status, reply.error);
      $("lobby-error").textContent = res.status === 429 ? t("err").tooMany : t("err").other;
      return;
    }
    const invites = {};
    for (const s of reply.seats) if (s.player === "human" && s.seat !== 0) invites[s.seat] = s.token;
    enterRoom(reply.room, reply.seats[0].token, invites);
  }

  function enterRoom(room, token, invites = null) {
    if (S.ws) { S.wsWanted = false; S.ws.close(); S.ws = null; }
    Object.assign(S, { room, token, invites, lastN: 0, state: null, seat: null, log: [], closed: false, retry: 0, stopped: null, message: "", wsMoved: null, movedNow: false });
    S.selected.clear();
    history.replaceState(null, "", token ? `#room=${room}&token=${token}` : `#room=${room}`);
    setView("table");
    connect();
  }

  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const room = params.get("room");
    if (room && /^[0-9a-f]{32}$/.test(room)) {
      const token = params.get("token");
      enterRoom(room, token && /^[0-9a-f]{32}$/.test(token) ? token : null);
    }
  }

  function toLobby() {
    if (S.ws) { S.wsWanted = false; S.ws.close(); S.ws = null; }
    history.replaceState(null, "", "#");
    closeDialog();
    setView("lobby");
    loadResults();
  }

  // --- Results per level: the browser's identity and GET /v1/players/{id}/results.

  // The identity kept in the browser, drawn the first time (128 random bits; no account).
  function playerId() {
    const kept = localStorage.getItem("ddz-player");
    if (kept && /^[0-9a-f]{32}$/.test(kept)) return kept;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("ddz-player", id);
    return id;
  }

  async function loadResults() {
    try {
      const res = await fetch(`/v1/players/${S.player}/results`);
      const body = await res.json();
      if (res.ok) S.results = body;
      else if (res.status === 404) S.results = { off: true, robots: [], next_level: null };
      else console.log("ddz: results:", res.status, body.error);
    } catch (err) {
      console.log("ddz: results:", err);
    }
    renderResults();
    if (S.dialog === "over") showOver();
  }

  // Chooses a level for both robot seats of the next game and shows the lobby.
  function tryLevel(robot) {
    closeDialog();
    if (S.view !== "lobby") toLobby();
    for (const sel of document.querySelectorAll(".seat-choice")) sel.value = robot;
    renderRobotChoices();
    $("btn-start").focus();
  }

  // The suggestion of the next level up (after a run of wins), as a line with its button.
  function nextLevelLine(id) {
    const next = S.results?.next_level;
    if (!next || !(S.robots ?? ROBOT_ORDER).includes(next.robot)) return null;
    return el("p", { id, class: "next-level" },
      el("span", { text: t("nextLevel", robotName(next.robot), next.streak, robotName(next.after)) }), " ",
      el("button", { type: "button", class: "primary", text: t("tryLevel", robotName(next.robot)), onclick: () => tryLevel(next.robot) }));
  }

  // The lobby's table of results, one row per robot played, the levels strongest first.
  function renderResults() {
    const box = $("results");
    const robots = S.results?.robots ?? [];
    box.hidden = robots.length === 0;
    if (box.hidden) { box.replaceChildren(); return; }
    const order = (r) => { const i = ROBOT_ORDER.indexOf(r.robot); return i < 0 ? ROBOT_ORDER.length : i; };
    const name = (r) => r.robot === "mixed" ? t("resultsMixed") : r.robot === "none" ? t("resultsNone") : robotName(r.robot);
    const signed = (n) => `${n > 0 ? "+" : ""}${n}`;
    put(box,
      el("h3", { text: t("resultsTitle") }),
      nextLevelLine("lobby-next-level"),
      el("table", { class: "scores results" },
        el("tr", {}, ["resultsRobot", "resultsGames", "resultsWins", "resultsLosses", "resultsPoints", "resultsStreak"]
          .map((k) => el("th", { text: t(k) }))),
        [...robots].sort((a, b) => order(a) - order(b)).map((r) => el("tr", { "data-robot": r.robot },
          el("td", { text: name(r) }), el("td", { text: r.games }), el("td", { text: r.wins }),
          el("td", { text: r.losses }), el("td", { class: r.points > 0 ? "up" : r.points < 0 ? "down" : "", text: signed(r.points) }),
          el("td", { text: r.streak })))));
  }

  // --- Stored games: GET /v1/games (newest first, paged by `before`), one opened in the
  // replay viewer with GET /v1/games/{id}. A server without a database answers 404.

  async function openGames(before) {
    setView("games");
    S.games = { loading: true, list: before === null ? [] : S.games?.list ?? [], next: null, off: false, error: false };
    renderGames();
    try {
      const res = await fetch(`/v1/games?limit=20${before === null ? "" : `&before=${encodeURIComponent(before)}`}`);
      if (res.status === 404) S.games.off = true;
      else if (!res.ok) { console.log("ddz: GET /v1/games:", res.status, await res.text()); S.games.error = true; } else {
        const body = parseJson(await res.text());
        S.games.list.push(...(body.games ?? []));
        S.games.next = body.next ?? null;
      }
    } catch (err) {
      console.log("ddz: GET /v1/games:", err);
      S.games.error = true;
    }
    S.games.loading = false;
    renderGames();
  }

  function renderGames() {
    const g = S.games;
    if (!g) return;
    const when = (x) => { const d = new Date(typeof x === "number" ? x * (x < 1e12 ? 1000 : 1) : x); return isNaN(d) ? String(x ?? "") : d.toLocaleString(S.lang === "zh" ? "zh-CN" : "en"); };
    put($("games-list"),
      g.off ? el("p", { id: "games-off", class: "note", text: t("gamesOff") }) : null,
      g.error ? el("p", { class: "error", text: t("err").other }) : null,
      !g.loading && !g.off && !g.error && !g.list.length ? el("p", { id: "games-none", class: "note", text: t("gamesNone") }) : null,
      g.list.length ? el("ol", { class: "games" }, g.list.map((game) => el("li", {},
        el("button", { class: "game-open", "data-id": game.id, text: t("gamesOpen"), onclick: () => openStoredGame(game.id) }), " ",
        `${when(game.finished_at)} · ${t("r_" + game.rules)} · ${t("gamesWinner", game.winner)} · `
          + `${(game.players ?? []).map((p) => p === "human" ? t("person") : robotName(p)).join(", ")} · `
          + `${(game.scores ?? []).map((x) => (x > 0 ? "+" : "") + x).join(" / ")}`))) : null,
      g.next !== null && g.next !== undefined ? el("button", { id: "games-more", text: t("gamesMore"), onclick: () => openGames(g.next) }) : null);
  }

  async function openStoredGame(id) {
    try {
      const res = await fetch(`/v1/games/${encodeURIComponent(id)}`);
      const body = parseJson(await res.text());
      if (!res.ok || !body.record) { console.log("ddz: GET /v1/games/id:", res.status, body.error); setView("replay"); $("r-error").textContent = t("err").other; return; }
      loadReplay(recordText(body.record));
    } catch (err) {
      console.log("ddz: GET /v1/games/id:", err);
      setView("replay");
      $("r-error").textContent = t("err").network;
    }
  }

  // --- Keys ---------------------------------------------------------------------------------

  const RANK_KEYS = { "0": "T", t: "T", j: "J", q: "Q", k: "K", a: "A", "2": "2", b: "B", r: "R" };

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (S.dialog === "readings") {
      const r = S.readings;
      const n = r.readings.length;
      if (key === "ArrowUp" || key === "ArrowLeft") r.index = (r.index + n - 1) % n;
      else if (key === "ArrowDown" || key === "ArrowRight" || key === "Tab") r.index = (r.index + 1) % n;
      else if (key === "Enter") { closeDialog(); playMove(r.readings[r.index], r.ids); e.preventDefault(); return; }
      else if (/^[1-9]$/.test(key) && Number(key) <= n) { closeDialog(); playMove(r.readings[Number(key) - 1], r.ids); return; }
      else if (key === "Escape") { closeDialog(); return; }
      else return;
      e.preventDefault();
      renderReadings();
      return;
    }
    if (S.dialog) {
      if (key === "Escape") { closeDialog(); e.preventDefault(); return; }
      if (S.dialog === "over" && (key === "Enter" || key === "n")) { send({ type: "next" }); e.preventDefault(); }
      return;
    }
    if (S.view === "replay") {
      if (key === "ArrowLeft") { S.replayAt -= 1; renderReplay(); e.preventDefault(); }
      if (key === "ArrowRight") { S.replayAt += 1; renderReplay(); e.preventDefault(); }
      return;
    }
    if (S.view !== "table" || !S.state || S.state.you === null) return;
    const st = S.state;
    if (key === "?") { showHelp(); return; }
    if (st.phase === "over") {
      if (key === "Enter" || key === "n") { send({ type: "next" }); e.preventDefault(); }
      return;
    }
    const n = handIds().length;
    if (key === "ArrowLeft") { S.cursor = Math.max(0, S.cursor - 1); renderHand(); e.preventDefault(); return; }
    if (key === "ArrowRight") { S.cursor = Math.min(n - 1, S.cursor + 1); renderHand(); e.preventDefault(); return; }
    if (st.phase === "bidding") {
      if (!myTurn()) return;
      const bids = st.legal?.bids ?? [];
      let bid = null;
      if (st.bidding === "call_rob") {
        if (key === "c" || key === "y" || key === "r") bid = 1;
        else if (key === "p" || key === "n") bid = 0;
      } else if (/^[0-3]$/.test(key)) bid = Number(key);
      else if (key === "p" || key === "n") bid = 0;
      if (bid !== null) {
        e.preventDefault();
        if (bids.includes(bid)) send({ type: "bid", bid });
        else setMessage(`${t("bid")} ${bid}: ${bids.join(", ")}`, true);
      }
      return;
    }
    if (key === " " || key === "ArrowUp" || key === "ArrowDown") {
      const id = handIds()[S.cursor];
      if (id !== undefined) toggle(id);
      e.preventDefault();
    } else if (key === "Enter") { playSelection(); e.preventDefault(); }
    else if (key === "p") pass();
    else if (key === "h") hint();
    else if (key === "Backspace" || key === "Delete") { S.selected.clear(); S.hint = null; renderHand(); }
    else if (/^[3-9]$/.test(key)) selectRank(key);
    else if (RANK_KEYS[key]) selectRank(RANK_KEYS[key]);
  }

  // --- Start --------------------------------------------------------------------------------

  function init() {
    const saved = localStorage.getItem("ddz-lang");
    S.lang = saved === "zh" || saved === "en" ? saved : navigator.language?.startsWith("zh") ? "zh" : "en";
    S.muted = localStorage.getItem("ddz-muted") === "1";
    S.player = playerId();
    applyI18n();
    $("btn-lang").addEventListener("click", () => {
      S.lang = S.lang === "zh" ? "en" : "zh";
      localStorage.setItem("ddz-lang", S.lang);
      applyI18n();
      render();
      if (S.dialog === "over") showOver();
    });
    $("btn-lobby").addEventListener("click", toLobby);
    $("btn-sound").addEventListener("click", () => {
      S.muted = !S.muted;
      localStorage.setItem("ddz-muted", S.muted ? "1" : "0");
      if (!S.muted) unlockAudio();
      renderMute();
    });
    // Browsers start sound only after a gesture on the page.
    document.addEventListener("pointerdown", unlockAudio);
    document.addEventListener("keydown", unlockAudio);
    $("btn-games").addEventListener("click", () => { closeDialog(); openGames(null); });
    for (const sel of document.querySelectorAll(".seat-choice")) sel.addEventListener("change", renderRobotChoices);
    $("btn-replay").addEventListener("click", () => { closeDialog(); setView("replay"); });
    $("btn-counter").addEventListener("click", () => { S.counter = !S.counter; render(); });
    $("btn-help").addEventListener("click", showHelp);
    $("new-form").addEventListener("submit", startGame);
    $("watch-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const room = $("f-watch").value.trim().toLowerCase();
      if (/^[0-9a-f]{32}$/.test(room)) enterRoom(room, null);
      else $("lobby-error").textContent = t("badRoomId");
    });
    $("r-load").addEventListener("click", async () => {
      const file = $("r-file").files?.[0];
      loadReplay(file ? await file.text() : $("r-text").value);
    });
    $("r-analyse").addEventListener("click", analyseReplay);
    $("r-first").addEventListener("click", () => { S.replayAt = 0; renderReplay(); });
    $("r-prev").addEventListener("click", () => { S.replayAt -= 1; renderReplay(); });
    $("r-next").addEventListener("click", () => { S.replayAt += 1; renderReplay(); });
    $("r-last").addEventListener("click", () => { S.replayAt = 1e9; renderReplay(); });
    $("r-slider").addEventListener("input", (e) => { S.replayAt = Number(e.target.value); renderReplay(); });
    $("overlay").addEventListener("click", (e) => { if (e.target === $("overlay") && S.dialog !== "readings") closeDialog(); });
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", () => { if (S.view === "table" && S.state) renderHand(); });
    setInterval(tick, 250);
    loadRobots();
    loadResults();
    fromHash();
  }

  init();
})();
