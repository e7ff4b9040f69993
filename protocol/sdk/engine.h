// The engine SDK: write a search function, call run(), and you have a protocol-1 engine for every
// game of the rules library (protocol/PROTOCOL.md). The SDK owns the whole protocol loop over
// stdin/stdout: the handshake (declaring every registered game with its parameters), setgame,
// isready/readyok, position, go, stop, quit / end of input, and the error replies.
//
//   int main(int argc, char** argv) {
//     return referee::sdk::run({"Name", "Author"}, [](const referee::games::State& s,
//                                                    const referee::sdk::Limits& lim) {
//       return s.legal_moves().front();
//     });
//   }
//
// Decisions:
// - A reader thread keeps reading input while the search runs: `stop` sets Limits::stopped(),
//   `isready` is answered at once while searching (when nothing else is queued and no `stop`
//   came; after a `stop` it is answered after the bestmove), `quit` and end
//   of input stop the search; every other command waits its turn, in order. A `stop` or `quit`
//   that arrives after a `go` but before its search starts stops that search as soon as it starts.
// - `go infinite`: the bestmove waits for `stop` (or `quit`, end of input, any other command)
//   however soon the search returns, as PROTOCOL.md §6 asks: a search need not loop until
//   Limits::stopped() itself.
// - Setup phases (State::setup_form() non-empty) are answered with State::sample_setup(seed)
//   unless EngineInfo::search_setups is set.
// - Each output line is written whole under a lock and flushed.
// - Every engine gets an option `Seed` (spin), whose default may come from `--seed N` on the
//   command line (seed_from_args); Limits::seed mixes it with the position so that a search is
//   reproducible from (seed, position) alone.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "games/game.h"
#include "protocol/messages.h"

namespace referee::sdk {

// What a search may use: the player it moves for, every player's clock, the explicit limits of
// `go`, and ways to report and to notice `stop`.
struct Limits {
  int player = 1;             // 1..N, the player to move
  std::vector<long> time_ms;  // remaining time per player (index 0 = player 1); empty = no clock
  std::vector<long> inc_ms;   // increment per player, added after the move
  std::optional<int> movestogo;
  std::optional<long> movetime;  // exact time for this move
  std::optional<int> depth;
  std::optional<long long> nodes;
  bool infinite = false;
  std::uint64_t seed = 0;  // the Seed option mixed with the position's hash and ply
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  // `go` read
  std::map<std::string, std::string> options;  // values set by setoption, by name
  const std::atomic<bool>* stop_flag = nullptr;
  std::function<void(const std::string&)> emit;  // writes one line (e.g. "info depth 3 ...")

  // True once `stop`, `quit` or end of input arrived during this search.
  bool stopped() const { return stop_flag && stop_flag->load(std::memory_order_relaxed); }
  // A time budget for this move in milliseconds: movetime when given (minus a safety margin);
  // otherwise `fraction` of the own clock plus most of the increment, never more than a third of
  // the clock; nullopt when there is no clock (depth/nodes/infinite searches).
  std::optional<long> budget_ms(double fraction = 1.0 / 25) const;
  // Milliseconds since `go` was read.
  long elapsed_ms() const;
  // Writes "info <text>" (no-op without an emitter).
  void info(const std::string& text) const;
};

using SearchFn = std::function<std::string(const games::State&, const Limits&)>;

struct EngineInfo {
  std::string name;
  std::string author;
  std::vector<protocol::OptionDecl> options = {};  // extra options, declared after Seed
  std::uint64_t default_seed = 0;
  bool search_setups = false;  // true: the search function answers setup phases itself
};

// The `game` declaration lines for every game in the registry, e.g.
// "game awale grandslam=nocapture|illegal first=1..2 nocapture=0..100000 maxplies=1..1000000".
std::vector<protocol::GameDecl> declared_games();

// Reads `--seed N` (or `--seed=N`) from the command line; `fallback` when absent or malformed.
std::uint64_t seed_from_args(int argc, char** argv, std::uint64_t fallback = 0);

// Runs the protocol loop until `quit` or end of input; returns the process exit status (0).
int run(const EngineInfo& info, SearchFn search, std::istream& in, std::ostream& out);
int run(const EngineInfo& info, SearchFn search);  // stdin/stdout

}  // namespace referee::sdk
