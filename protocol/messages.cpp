// Parsing and formatting of every protocol line (protocol/PROTOCOL.md). Pure functions: bad input
// becomes an Error value whose message quotes the line, never an exception or an abort.
//
// Decisions:
// - Tokens are separated by runs of spaces and tabs; one trailing '\r' is dropped; keywords are
//   lowercase and case-sensitive.
// - Known commands with missing, extra or malformed arguments are errors (strict on the critical
//   path); unknown first words come back as UnknownLine / UnknownCommand; empty lines too (with an
//   empty text), so callers can skip them.
// - "bestmove <m> ponder <p>" is accepted and the ponder move dropped (UCI engines send it).
// - Numbers are unsigned decimals (no sign); clocks must be given for players 1..N without gaps.
// - The go line's keys are one table (kGoKeys: name, kind, range, where the value goes) read by one
//   loop with one duplicate check; a flag (infinite) given twice is the same as once, any other
//   key given twice is an error. Adding a key is adding a row.
// - A parse error says what is wrong as a LineFault (messages.h): a caller acts on that value,
//   never on the message's text.
#include "protocol/messages.h"

#include <charconv>
#include <limits>

namespace referee::protocol {

namespace {

constexpr int kMaxPlayers = 64;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// The raw text after the first `count` tokens, trimmed at both ends.
std::string rest_after(std::string_view line, std::size_t count) {
  line = strip_cr(line);
  std::size_t i = 0;
  for (std::size_t t = 0; t < count; ++t) {
    while (i < line.size() && is_space(line[i])) ++i;
    while (i < line.size() && !is_space(line[i])) ++i;
  }
  while (i < line.size() && is_space(line[i])) ++i;
  std::size_t end = line.size();
  while (end > i && is_space(line[end - 1])) --end;
  return std::string(line.substr(i, end - i));
}

std::string join(const std::vector<std::string_view>& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < words.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

// An unsigned decimal in [0, max].
std::optional<long long> number(std::string_view text, long long max) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text[0] == '-' || value > max)
    return std::nullopt;
  return value;
}

// A signed decimal (info scores).
std::optional<long> signed_number(std::string_view text) {
  long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Error bad(std::string_view line, const std::string& why) {
  std::string shown(strip_cr(line).substr(0, 200));
  if (strip_cr(line).size() > 200) shown += "...";
  return Error{why + " in '" + shown + "'"};
}

// key=value tokens (setgame, game declarations).
Expected<std::vector<std::pair<std::string, std::string>>> key_values(
    std::string_view line, const std::vector<std::string_view>& words, std::size_t from) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = from; i < words.size(); ++i) {
    auto eq = words[i].find('=');
    if (eq == std::string_view::npos || eq == 0)
      return bad(line, "expected key=value, got '" + std::string(words[i]) + "'");
    out.emplace_back(std::string(words[i].substr(0, eq)), std::string(words[i].substr(eq + 1)));
  }
  return out;
}

// ---- engine lines ----

Expected<EngineMessage> parse_option(std::string_view line,
                                     const std::vector<std::string_view>& w) {
  OptionDecl o;
  if (w.size() < 3 || w[1] != "name") return bad(line, "option without a name");
  std::size_t i = 2;
  std::size_t name_end = i;
  while (name_end < w.size() && w[name_end] != "type") ++name_end;
  o.name = join(w, i, name_end);
  if (o.name.empty()) return bad(line, "option without a name");
  if (name_end + 1 >= w.size()) return bad(line, "option without a type");
  o.type = std::string(w[name_end + 1]);
  if (o.type != "check" && o.type != "spin" && o.type != "combo" && o.type != "string" &&
      o.type != "button")
    return bad(line, "unknown option type '" + o.type + "'");
  auto is_key = [](std::string_view t) {
    return t == "default" || t == "min" || t == "max" || t == "var";
  };
  for (i = name_end + 2; i < w.size();) {
    std::string_view key = w[i];
    if (!is_key(key)) return bad(line, "unexpected token '" + std::string(key) + "'");
    std::size_t end = i + 1;
    while (end < w.size() && !is_key(w[end])) ++end;
    std::string value = join(w, i + 1, end);
    if (key == "default") {
      o.default_value = value == "<empty>" ? std::string() : value;
    } else if (key == "var") {
      o.vars.push_back(value);
    } else {
      auto n = signed_number(value);
      if (!n) return bad(line, "option " + std::string(key) + " must be an integer");
      (key == "min" ? o.min : o.max) = *n;
    }
    i = end;
  }
  return EngineMessage{o};
}

Info parse_info(std::string_view line, const std::vector<std::string_view>& w) {
  Info info;
  info.text = rest_after(line, 1);
  auto is_key = [](std::string_view t) {
    return t == "depth" || t == "seldepth" || t == "time" || t == "nodes" || t == "nps" ||
           t == "hashfull" || t == "multipv" || t == "score" || t == "pv" || t == "string" ||
           t == "currmove" || t == "currmovenumber" || t == "tbhits" || t == "scores";
  };
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto key = w[i];
    const bool has_next = i + 1 < w.size();
    if (key == "string") break;
    if (key == "depth" && has_next) {
      if (auto n = number(w[i + 1], std::numeric_limits<int>::max()))
        info.depth = static_cast<int>(*n);
      ++i;
    } else if (key == "nodes" && has_next) {
      if (auto n = number(w[i + 1], std::numeric_limits<long long>::max())) info.nodes = *n;
      ++i;
    } else if (key == "score" && i + 2 < w.size()) {
      auto n = signed_number(w[i + 2]);
      if (w[i + 1] == "cp" && n) info.score_cp = *n;
      if (w[i + 1] == "mate" && n) info.score_mate = *n;
      i += 2;
    } else if (key == "pv") {
      while (i + 1 < w.size() && !is_key(w[i + 1])) info.pv.emplace_back(w[++i]);
    }
  }
  return info;
}

// ---- referee lines ----

Expected<RefereeMessage> parse_position(std::string_view line,
                                        const std::vector<std::string_view>& w) {
  Position p;
  std::size_t i = 1;
  if (i < w.size() && w[i] == "startpos") {
    ++i;
  } else if (i < w.size() && w[i] == "fen") {
    if (i + 1 >= w.size() || w[i + 1] == "moves") return bad(line, "position fen without a state");
    p.fen = std::string(w[i + 1]);
    i += 2;
  } else {
    return bad(line, "position needs 'startpos' or 'fen <state>'");
  }
  if (i < w.size()) {
    if (w[i] != "moves")
      return bad(line, "expected 'moves' after the position, got '" + std::string(w[i]) + "'");
    for (++i; i < w.size(); ++i) p.moves.emplace_back(w[i]);
  }
  return RefereeMessage{p};
}

// ---- go ----

// What parse_go has read, before it becomes a Go: every value a long long, unset until given.
struct GoValues {
  bool infinite = false;
  std::optional<long long> player, movestogo, depth, movetime, nodes;
  std::vector<std::optional<long long>> time, inc;  // p<i>time, p<i>inc; index 0 = player 1
};

enum class GoKeyKind {
  Flag,       // no value; given twice is the same as once
  Number,     // one value
  PerPlayer,  // p<i><name> with i in 1..kMaxPlayers: one value per player
};

// One key of the go line: its name, its kind, the values it accepts and where it goes.
struct GoKey {
  std::string_view name;
  GoKeyKind kind;
  long long min, max;
  bool GoValues::*flag = nullptr;
  std::optional<long long> GoValues::*single = nullptr;
  std::vector<std::optional<long long>> GoValues::*per_player = nullptr;
};

constexpr long long kMaxMs = std::numeric_limits<long>::max() / 2;
constexpr long long kMaxInt = std::numeric_limits<int>::max();

// Every key of the go line (PROTOCOL.md), and nothing else: the one list of them.
const GoKey kGoKeys[] = {
    {"infinite", GoKeyKind::Flag, 0, 0, &GoValues::infinite},
    {"player", GoKeyKind::Number, 1, kMaxPlayers, nullptr, &GoValues::player},
    {"time", GoKeyKind::PerPlayer, 0, kMaxMs, nullptr, nullptr, &GoValues::time},
    {"inc", GoKeyKind::PerPlayer, 0, kMaxMs, nullptr, nullptr, &GoValues::inc},
    {"movestogo", GoKeyKind::Number, 0, kMaxInt, nullptr, &GoValues::movestogo},
    {"movetime", GoKeyKind::Number, 0, kMaxMs, nullptr, &GoValues::movetime},
    {"depth", GoKeyKind::Number, 0, kMaxInt, nullptr, &GoValues::depth},
    {"nodes", GoKeyKind::Number, 0, std::numeric_limits<long long>::max(), nullptr,
     &GoValues::nodes},
};

struct FoundGoKey {
  const GoKey* key = nullptr;  // nullptr: not a key of go
  std::size_t player = 0;      // PerPlayer: the i of p<i>, from 1
};

FoundGoKey find_go_key(std::string_view word) {
  std::size_t player = 0;
  if (word.size() > 1 && word[0] == 'p' && word[1] >= '1' && word[1] <= '9') {  // p<i><name>
    std::size_t digits = 1;
    while (digits < word.size() && word[digits] >= '0' && word[digits] <= '9') ++digits;
    auto index = number(word.substr(1, digits - 1), kMaxPlayers);
    if (!index) return {};
    player = static_cast<std::size_t>(*index);
    word = word.substr(digits);
  }
  for (const GoKey& key : kGoKeys)
    if (key.name == word && (key.kind == GoKeyKind::PerPlayer) == (player > 0))
      return {&key, player};
  return {};
}

// Where the value of a Number or PerPlayer key goes (a player's slot is made on first use).
std::optional<long long>& go_slot(GoValues& values, const FoundGoKey& found) {
  if (found.key->kind == GoKeyKind::Number) return values.*found.key->single;
  auto& list = values.*found.key->per_player;
  if (list.size() < found.player) list.resize(found.player);
  return list[found.player - 1];
}

// The players' values in order, or the first player without one ("missing p2time").
Expected<std::vector<long>> per_player_list(std::string_view line,
                                            const std::vector<std::optional<long long>>& values,
                                            std::string_view name) {
  std::vector<long> out;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!values[k]) return bad(line, "missing p" + std::to_string(k + 1) + std::string(name));
    out.push_back(static_cast<long>(*values[k]));
  }
  return out;
}

Expected<RefereeMessage> parse_go(std::string_view line, const std::vector<std::string_view>& w) {
  GoValues values;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string_view word = w[i];
    const FoundGoKey found = find_go_key(word);
    if (found.key && found.key->kind == GoKeyKind::Flag) {
      values.*found.key->flag = true;
      continue;
    }
    if (i + 1 >= w.size()) return bad(line, "'" + std::string(word) + "' without a value");
    const std::string_view text = w[++i];
    if (!found.key) return bad(line, "unknown go parameter '" + std::string(word) + "'");
    const GoKey& key = *found.key;
    auto value = number(text, key.max);
    if (!value || *value < key.min)
      return bad(line, "'" + std::string(word) + "' needs a non-negative integer" +
                           (key.min > 0 ? " from " + std::to_string(key.min) : "") + ", got '" +
                           std::string(text) + "'");
    std::optional<long long>& slot = go_slot(values, found);
    if (slot) return bad(line, "'" + std::string(word) + "' given twice");
    slot = *value;
  }
  Go go;
  go.infinite = values.infinite;
  if (values.player) go.player = static_cast<int>(*values.player);
  if (values.movestogo) go.movestogo = static_cast<int>(*values.movestogo);
  if (values.depth) go.depth = static_cast<int>(*values.depth);
  if (values.movetime) go.movetime = static_cast<long>(*values.movetime);
  go.nodes = values.nodes;
  auto times = per_player_list(line, values.time, "time");
  if (!times) return times.failure();
  auto incs = per_player_list(line, values.inc, "inc");
  if (!incs) return incs.failure();
  go.time_ms = std::move(*times);
  go.inc_ms = std::move(*incs);
  return RefereeMessage{go};
}

bool valid_outcome(std::string_view outcome) {
  if (outcome == "draw") return true;
  if (outcome.size() > 4 && outcome.substr(0, 1) == "p" &&
      outcome.substr(outcome.size() - 3) == "win") {
    auto n = number(outcome.substr(1, outcome.size() - 4), kMaxPlayers);
    return n && *n >= 1;
  }
  return false;
}

bool valid_ranks(std::string_view list) {
  std::size_t start = 0;
  while (true) {
    auto comma = list.find(',', start);
    auto item = list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    auto n = number(item, kMaxPlayers);
    if (!n || *n < 1) return false;
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

Expected<RefereeMessage> parse_gameover(std::string_view line,
                                        const std::vector<std::string_view>& w) {
  GameOver g;
  std::size_t i = 1;
  if (i < w.size() && w[i] == "ranks") {
    if (i + 1 >= w.size() || !valid_ranks(w[i + 1]))
      return bad(line, "gameover ranks needs a list like 1,3,2");
    g.outcome = "ranks " + std::string(w[i + 1]);
    i += 2;
  } else if (i < w.size() && valid_outcome(w[i])) {
    g.outcome = std::string(w[i]);
    ++i;
  } else {
    return bad(line, "gameover needs an outcome: p<k>win, draw or ranks <r1>,<r2>,...");
  }
  if (i < w.size()) g.reason = std::string(w[i++]);
  if (i < w.size()) return bad(line, "gameover has extra tokens");
  return RefereeMessage{g};
}

std::string format_go(const Go& go) {
  std::string out = "go";
  if (go.player) out += " player " + std::to_string(*go.player);
  for (std::size_t k = 0; k < go.time_ms.size(); ++k)
    out += " p" + std::to_string(k + 1) + "time " + std::to_string(go.time_ms[k]);
  for (std::size_t k = 0; k < go.inc_ms.size(); ++k)
    out += " p" + std::to_string(k + 1) + "inc " + std::to_string(go.inc_ms[k]);
  if (go.movestogo) out += " movestogo " + std::to_string(*go.movestogo);
  if (go.movetime) out += " movetime " + std::to_string(*go.movetime);
  if (go.depth) out += " depth " + std::to_string(*go.depth);
  if (go.nodes) out += " nodes " + std::to_string(*go.nodes);
  if (go.infinite) out += " infinite";
  return out;
}

std::string format_info(const Info& info) {
  if (!info.text.empty()) return "info " + info.text;
  std::string out = "info";
  if (info.depth) out += " depth " + std::to_string(*info.depth);
  if (info.score_cp) out += " score cp " + std::to_string(*info.score_cp);
  if (info.score_mate) out += " score mate " + std::to_string(*info.score_mate);
  if (info.nodes) out += " nodes " + std::to_string(*info.nodes);
  if (!info.pv.empty()) {
    out += " pv";
    for (const auto& m : info.pv) out += " " + m;
  }
  return out;
}

std::string format_params(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out;
  for (const auto& [k, v] : params) out += " " + k + "=" + v;
  return out;
}

}  // namespace

std::optional<std::string> line_violation(std::string_view line) {
  if (line.size() > kMaxLineBytes)
    return "line of " + std::to_string(line.size()) + " bytes exceeds the limit of " +
           std::to_string(kMaxLineBytes);
  line = strip_cr(line);
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return "control byte 0x" + std::string(1, "0123456789abcdef"[c >> 4]) +
             std::string(1, "0123456789abcdef"[c & 15]) + " at column " + std::to_string(i + 1);
  }
  return std::nullopt;
}

std::vector<std::string_view> tokenize(std::string_view line) {
  line = strip_cr(line);
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

Parsed<EngineMessage> parse_engine_line(std::string_view line) {
  if (auto why = line_violation(line))
    return {Error{"protocol violation: " + *why}, LineFault::Violation};
  const auto w = tokenize(line);
  if (w.empty()) return EngineMessage{UnknownLine{""}};
  const auto cmd = w[0];
  if (cmd == "id") {
    if (w.size() < 2) return bad(line, "id without a key");
    return EngineMessage{IdLine{std::string(w[1]), rest_after(line, 2)}};
  }
  if (cmd == "game") {
    if (w.size() < 2) return bad(line, "game declaration without a name");
    auto params = key_values(line, w, 2);
    if (!params) return params.failure();
    return EngineMessage{GameDecl{std::string(w[1]), std::move(*params)}};
  }
  if (cmd == "option") return parse_option(line, w);
  if (cmd == "ugiok") {
    if (w.size() != 1) return bad(line, "ugiok takes no argument");
    return EngineMessage{UgiOk{}};
  }
  if (cmd == "readyok") {
    if (w.size() > 2) return bad(line, "readyok takes one token at most");
    return EngineMessage{ReadyOk{w.size() == 2 ? std::string(w[1]) : std::string()}};
  }
  if (cmd == "bestmove") {
    if (w.size() == 1) return bad(line, "bestmove without a move");
    if (w.size() == 4 && w[2] == "ponder") return EngineMessage{BestMove{std::string(w[1])}};
    if (w.size() != 2) return bad(line, "bestmove takes exactly one move");
    return EngineMessage{BestMove{std::string(w[1])}};
  }
  if (cmd == "info") return EngineMessage{parse_info(line, w)};
  if (cmd == "error") {
    if (w.size() < 2) return bad(line, "error without a kind");
    return EngineMessage{EngineError{std::string(w[1]), rest_after(line, 2)}};
  }
  return EngineMessage{UnknownLine{std::string(strip_cr(line))}};
}

Parsed<RefereeMessage> parse_referee_line(std::string_view line) {
  if (auto why = line_violation(line))
    return {Error{"protocol violation: " + *why}, LineFault::Violation};
  const auto w = tokenize(line);
  if (w.empty()) return RefereeMessage{UnknownCommand{""}};
  const auto cmd = w[0];
  auto no_args = [&](RefereeMessage m) -> Expected<RefereeMessage> {
    if (w.size() != 1) return bad(line, std::string(cmd) + " takes no argument");
    return m;
  };
  if (cmd == "ugi") return no_args(Ugi{});
  if (cmd == "uginewgame") return no_args(NewGame{});
  if (cmd == "stop") return no_args(Stop{});
  if (cmd == "quit") return no_args(Quit{});
  if (cmd == "isready") {
    if (w.size() > 2) return bad(line, "isready takes one token at most");
    return RefereeMessage{IsReady{w.size() == 2 ? std::string(w[1]) : std::string()}};
  }
  if (cmd == "protocol") {
    auto n = w.size() == 2 ? number(w[1], 1000000) : std::nullopt;
    if (!n) return bad(line, "protocol needs one version number");
    return RefereeMessage{ProtocolVersion{static_cast<int>(*n)}};
  }
  if (cmd == "setgame") {
    if (w.size() < 2 || w[1].find('=') != std::string_view::npos)
      return bad(line, "setgame without a game name");
    auto params = key_values(line, w, 2);
    if (!params) return params.failure();
    return RefereeMessage{SetGame{std::string(w[1]), std::move(*params)}};
  }
  if (cmd == "setoption") {
    if (w.size() < 3 || w[1] != "name") return bad(line, "setoption without a name");
    std::size_t v = 2;
    while (v < w.size() && w[v] != "value") ++v;
    SetOption o{join(w, 2, v), v < w.size() ? join(w, v + 1, w.size()) : std::string()};
    if (o.name.empty()) return bad(line, "setoption without a name");
    return RefereeMessage{o};
  }
  if (cmd == "position") return parse_position(line, w);
  if (cmd == "go") return parse_go(line, w);
  if (cmd == "gameover") return parse_gameover(line, w);
  return RefereeMessage{UnknownCommand{std::string(strip_cr(line))}};
}

std::string format_position(const std::string& fen, const std::vector<std::string>& moves) {
  std::string out;
  format_position_into(out, fen, moves);
  return out;
}

void format_position_into(std::string& out, const std::string& fen,
                          const std::vector<std::string>& moves) {
  std::size_t size = 32 + fen.size();
  for (const auto& m : moves) size += m.size() + 1;
  out.clear();
  out.reserve(size);
  out += fen.empty() ? "position startpos" : "position fen ";
  out += fen;
  if (!moves.empty()) {
    out += " moves";
    for (const auto& m : moves) {
      out += ' ';
      out += m;
    }
  }
}

std::string format(const RefereeMessage& message) {
  return std::visit(Overloaded{
                        [](const Ugi&) -> std::string { return "ugi"; },
                        [](const SetOption& o) -> std::string {
                          return "setoption name " + o.name +
                                 (o.value.empty() ? "" : " value " + o.value);
                        },
                        [](const SetGame& g) -> std::string {
                          return "setgame " + g.name + format_params(g.params);
                        },
                        [](const IsReady& r) -> std::string {
                          return r.token.empty() ? "isready" : "isready " + r.token;
                        },
                        [](const NewGame&) -> std::string { return "uginewgame"; },
                        [](const Position& p) -> std::string {
                          return format_position(p.fen ? *p.fen : std::string(), p.moves);
                        },
                        [](const Go& go) -> std::string { return format_go(go); },
                        [](const Stop&) -> std::string { return "stop"; },
                        [](const GameOver& g) -> std::string {
                          return "gameover " + g.outcome + (g.reason.empty() ? "" : " " + g.reason);
                        },
                        [](const Quit&) -> std::string { return "quit"; },
                        [](const UnknownCommand& u) -> std::string { return u.line; },
                        [](const ProtocolVersion& p) -> std::string {
                          return "protocol " + std::to_string(p.version);
                        },
                    },
                    message);
}

std::string format(const EngineMessage& message) {
  return std::visit(Overloaded{
                        [](const IdLine& id) -> std::string {
                          return "id " + id.key + (id.value.empty() ? "" : " " + id.value);
                        },
                        [](const GameDecl& g) -> std::string {
                          return "game " + g.name + format_params(g.params);
                        },
                        [](const OptionDecl& o) -> std::string {
                          std::string out = "option name " + o.name + " type " + o.type;
                          if (!o.default_value.empty() || o.type == "string")
                            out += " default " +
                                   (o.default_value.empty() ? "<empty>" : o.default_value);
                          if (o.min) out += " min " + std::to_string(*o.min);
                          if (o.max) out += " max " + std::to_string(*o.max);
                          for (const auto& v : o.vars) out += " var " + v;
                          return out;
                        },
                        [](const UgiOk&) -> std::string { return "ugiok"; },
                        [](const ReadyOk& r) -> std::string {
                          return r.token.empty() ? "readyok" : "readyok " + r.token;
                        },
                        [](const BestMove& b) -> std::string { return "bestmove " + b.move; },
                        [](const Info& i) -> std::string { return format_info(i); },
                        [](const EngineError& e) -> std::string {
                          return "error " + e.kind + (e.text.empty() ? "" : " " + e.text);
                        },
                        [](const UnknownLine& u) -> std::string { return u.line; },
                    },
                    message);
}

SetGame setgame_from_spec(std::string_view game_spec) {
  SetGame g;
  auto colon = game_spec.find(':');
  g.name = std::string(game_spec.substr(0, colon));
  if (colon == std::string_view::npos) return g;
  auto rest = game_spec.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    auto comma = rest.find(',', start);
    auto item = rest.substr(start, comma == std::string_view::npos ? rest.npos : comma - start);
    if (!item.empty()) {
      auto eq = item.find('=');
      g.params.emplace_back(
          std::string(item.substr(0, eq)),
          eq == std::string_view::npos ? std::string() : std::string(item.substr(eq + 1)));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return g;
}

std::string spec_from_setgame(const SetGame& setgame) {
  std::string out = setgame.name;
  for (std::size_t i = 0; i < setgame.params.size(); ++i)
    out += (i ? "," : ":") + setgame.params[i].first + "=" + setgame.params[i].second;
  return out;
}

std::string outcome_word(const std::vector<int>& ranks) {
  if (ranks.empty()) return "draw";
  bool all_equal = true;
  for (int r : ranks) all_equal &= r == ranks[0];
  if (all_equal) return "draw";
  if (ranks.size() == 2) return ranks[0] < ranks[1] ? "p1win" : "p2win";
  std::string out = "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : "") + std::to_string(ranks[i]);
  return out;
}

}  // namespace referee::protocol
