// Pure parsing and formatting of every protocol line (protocol/PROTOCOL.md). No I/O here: the
// engine session (referee side) and the SDK (engine side) both build on these functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/expected.h"

namespace referee::protocol {

constexpr int kProtocolVersion = 1;
constexpr std::size_t kMaxLineBytes = 65536;

// ---- Engine → referee ----
struct IdLine {
  std::string key;  // "name", "author", "protocol", or another word
  std::string value;
};
struct GameDecl {  // "game oware players=2|3|4|6"
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // value spec kept verbatim
};
struct OptionDecl {  // UCI syntax; names have no spaces
  std::string name;
  std::string type;  // check | spin | combo | string | button
  std::string default_value;
  std::optional<long> min, max;
  std::vector<std::string> vars;
};
struct UgiOk {};
struct ReadyOk {
  std::string token;  // may be empty for protocol-0 engines
};
struct BestMove {
  std::string move;  // canonical move text, or "resign"
};
struct Info {
  std::string text;  // everything after "info ", logged verbatim
  std::optional<int> depth;
  std::optional<long> score_cp;
  std::optional<long> score_mate;
  std::optional<long long> nodes;
  std::vector<std::string> pv;
};
struct EngineError {  // "error <kind> [text]"
  std::string kind;
  std::string text;
};
struct UnknownLine {  // tolerated, logged
  std::string line;
};
using EngineMessage = std::variant<IdLine, GameDecl, OptionDecl, UgiOk, ReadyOk, BestMove, Info,
                                   EngineError, UnknownLine>;

// What a parser says of a line it refused: the value a caller switches on (the message is for
// people).
enum class LineFault {
  None,       // the line parsed
  Violation,  // it breaks the transport rules (line_violation): too long, or a control byte
  Malformed,  // a known command with missing, extra or malformed arguments
};

// A parser's answer: the message, or the error and its LineFault.
template <class T>
class Parsed : public Expected<T> {
 public:
  Parsed(T value) : Expected<T>(std::move(value)) {}
  Parsed(Error error, LineFault fault = LineFault::Malformed)
      : Expected<T>(std::move(error)), fault_(fault) {}
  Parsed(Expected<T> result)
      : Expected<T>(std::move(result)),
        fault_(this->ok() ? LineFault::None : LineFault::Malformed) {}
  LineFault fault() const { return fault_; }

 private:
  LineFault fault_ = LineFault::None;
};

// Parses one line written by an engine (without its newline; a trailing '\r' is tolerated).
// Malformed critical lines (a "bestmove" without a move or with extra tokens, a "readyok" with
// extra tokens, an "option" without a name) are errors whose message quotes the line; lines that
// are merely unknown come back as UnknownLine. A line that breaks the transport rules is a
// Violation whose message is "protocol violation: " and line_violation's reason.
Parsed<EngineMessage> parse_engine_line(std::string_view line);

// ---- Referee → engine ----
struct Ugi {};
struct SetOption {
  std::string name;
  std::string value;
};
struct SetGame {  // "setgame oware players=3 first=1 nocapture=100 maxplies=2000"
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};
struct IsReady {
  std::string token;
};
struct NewGame {};
struct Position {
  std::optional<std::string> fen;  // empty = startpos
  std::vector<std::string> moves;
};
struct Go {
  std::optional<int> player;
  std::vector<long> time_ms;  // index 0 = player 1; empty when no clocks
  std::vector<long> inc_ms;
  std::optional<int> movestogo;
  std::optional<long> movetime;
  std::optional<int> depth;
  std::optional<long long> nodes;
  bool infinite = false;
};
struct Stop {};
struct GameOver {  // "gameover p1win rules", "gameover draw maxplies", "gameover ranks 1,3,2 rules"
  std::string outcome;
  std::string reason;
};
struct Quit {};
struct ProtocolVersion {  // "protocol 1": the version the referee will speak (sent after ugiok)
  int version = 0;
};
struct UnknownCommand {
  std::string line;
};
using RefereeMessage = std::variant<Ugi, SetOption, SetGame, IsReady, NewGame, Position, Go, Stop,
                                    GameOver, Quit, UnknownCommand, ProtocolVersion>;

// Parses one line written by the referee (used by the SDK and by engines). Malformed known
// commands ("go p1time abc", "position" without startpos/fen) are errors.
Parsed<RefereeMessage> parse_referee_line(std::string_view line);

// Formatting: each returns one line without its newline.
std::string format(const RefereeMessage& message);
std::string format(const EngineMessage& message);

// Why a raw line breaks the transport rules, or nullopt: longer than kMaxLineBytes, or holding a
// control byte (below 0x20 except tab, or 0x7f; one trailing '\r' is allowed). The parse functions
// reject such lines with this reason; the engine session turns it into a protocol violation.
std::optional<std::string> line_violation(std::string_view line);

// The tokens of a line: split on runs of spaces and tabs, a trailing '\r' dropped.
std::vector<std::string_view> tokenize(std::string_view line);

// "position startpos moves ..." (empty `fen`) or "position fen <fen> moves ...", built without
// copying the move list (the referee sends it every ply).
std::string format_position(const std::string& fen, const std::vector<std::string>& moves);
// The same, written over `out` (its capacity kept: no allocation per ply once warm).
void format_position_into(std::string& out, const std::string& fen,
                          const std::vector<std::string>& moves);

// "oware:players=3,first=1" <-> SetGame{"oware", {{"players","3"},{"first","1"}}}
SetGame setgame_from_spec(std::string_view game_spec);
std::string spec_from_setgame(const SetGame& setgame);

// The outcome word of a gameover line for ranks (index 0 = player 1): "p1win", "p2win", "draw"
// for two players; "ranks 1,3,2" otherwise.
std::string outcome_word(const std::vector<int>& ranks);

}  // namespace referee::protocol
