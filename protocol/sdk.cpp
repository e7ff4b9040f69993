// The engine SDK's protocol loop (protocol/sdk/engine.h, protocol/PROTOCOL.md): a reader thread
// queues input lines; the main thread handles them in order and runs the search.
#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "games/registry.h"
#include "protocol/sdk/engine.h"

namespace referee::sdk {

namespace {

using namespace referee::protocol;

std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// What the reader thread and the main thread share.
struct Channel {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> queue;
  bool closed = false;     // quit read or end of input
  bool searching = false;  // the main thread is inside the search function
  std::atomic<bool> stop{false};

  std::mutex out_mutex;
  std::ostream* out = nullptr;

  void write(const std::string& line) {
    std::lock_guard lock(out_mutex);
    *out << line << '\n';
    out->flush();
  }
};

void read_input(Channel& ch, std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    const auto words = tokenize(line);
    const std::string_view cmd = words.empty() ? std::string_view() : words[0];
    const bool quit = cmd == "quit";
    {
      std::lock_guard lock(ch.mutex);
      // Answered here only while a search runs that was not told to stop: once stopped, what
      // follows waits for its bestmove (an isready after stop is answered after the bestmove).
      const bool idle_queue = ch.searching && !ch.stop && ch.queue.empty();
      if (idle_queue && cmd == "stop") {
        ch.stop = true;
        ch.ready.notify_one();  // a go infinite whose search is over waits for it
        continue;
      }
      if (idle_queue && cmd == "isready") {
        auto msg = parse_referee_line(line);
        if (msg) {
          ch.write(format(EngineMessage{ReadyOk{std::get<IsReady>(*msg).token}}));
          continue;
        }
      }
      if (quit) ch.stop = true;
      ch.queue.push_back(line);
    }
    ch.ready.notify_one();
    if (quit) break;
  }
  {
    std::lock_guard lock(ch.mutex);
    if (ch.searching && ch.queue.empty()) ch.stop = true;  // the referee is gone
    ch.closed = true;
  }
  ch.ready.notify_one();
}

// A `stop` or `quit` read before the search of the `go` ahead of it started: it was queued
// behind that go (the reader answers at once only while a search runs), so it belongs to this
// search and must end it, or a `go infinite` would never end. A queued stop is consumed; quit
// stays queued, to be handled once the search is over. Lines after the next go are not looked at.
bool take_early_stop(std::deque<std::string>& queue) {
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    const auto words = tokenize(*it);
    if (words.empty()) continue;
    if (words[0] == "go") return false;
    if (words[0] == "quit") return true;
    if (words[0] == "stop") {
      queue.erase(it);
      return true;
    }
  }
  return false;
}

std::string join_specs(const games::ParamSpec& p) {
  if (p.choices.empty()) return std::to_string(p.min) + ".." + std::to_string(p.max);
  std::string out;
  for (const auto& c : p.choices) out += (out.empty() ? "" : "|") + c;
  return out;
}

// The engine's protocol state between commands.
class Session {
 public:
  Session(const EngineInfo& info, SearchFn search, Channel& ch)
      : info_(info), search_(std::move(search)), ch_(ch), seed_(info.default_seed) {}

  // Handles one line; false once `quit` was read.
  bool handle(const std::string& line) {
    auto parsed = parse_referee_line(line);
    if (!parsed) {
      reply_error("syntax", parsed.error());
      return true;
    }
    return std::visit([this](const auto& m) { return on(m); }, *parsed);
  }

 private:
  void reply_error(const std::string& kind, const std::string& text) {
    ch_.write(format(EngineMessage{EngineError{kind, text}}));
  }

  bool on(const Ugi&) {
    ch_.write("id name " + info_.name);
    ch_.write("id author " + info_.author);
    ch_.write("id protocol " + std::to_string(kProtocolVersion));
    for (const auto& g : declared_games()) ch_.write(format(EngineMessage{g}));
    OptionDecl seed{"Seed", "spin",     std::to_string(info_.default_seed % 1000000000),
                    0L,     999999999L, {}};
    ch_.write(format(EngineMessage{seed}));
    for (const auto& o : info_.options) ch_.write(format(EngineMessage{o}));
    ch_.write("ugiok");
    return true;
  }
  bool on(const ProtocolVersion&) { return true; }
  bool on(const SetOption& o) {
    if (o.name == "Seed") {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(o.value.c_str(), &end, 10);
      if (o.value.empty() || *end != '\0' || o.value[0] == '-')
        reply_error("syntax", "Seed needs a non-negative integer, got '" + o.value + "'");
      else
        seed_ = v;
      return true;
    }
    for (const auto& decl : info_.options) {
      if (decl.name == o.name) {
        options_[o.name] = o.value;
        return true;
      }
    }
    reply_error("unsupported-option", o.name);
    return true;
  }
  bool on(const SetGame& g) {
    state_.reset();
    auto game = games::make_game(spec_from_setgame(g));
    if (!game) {
      game_.reset();
      reply_error("unsupported-game", g.name + " " + game.error());
      return true;
    }
    game_ = std::move(*game);
    return true;
  }
  bool on(const IsReady& r) {
    ch_.write(format(EngineMessage{ReadyOk{r.token}}));
    return true;
  }
  bool on(const NewGame&) {
    state_.reset();
    return true;
  }
  bool on(const Position& p) {
    state_.reset();
    if (!game_) {
      reply_error("illegal-position", "no game selected (send setgame first)");
      return true;
    }
    games::State state = game_->initial_state();
    if (p.fen) {
      auto parsed = game_->parse_state(*p.fen);
      if (!parsed) {
        reply_error("illegal-position", parsed.error());
        return true;
      }
      state = std::move(*parsed);
    }
    for (const auto& m : p.moves) {
      auto status = state.apply(m);
      if (!status) {
        reply_error("illegal-move", m + " " + status.error() + " in " + state.to_string());
        return true;
      }
    }
    state_ = std::move(state);
    return true;
  }
  bool on(const Go& go) {
    if (!state_) {
      reply_error("illegal-position", "no valid position (send setgame and position first)");
      return true;
    }
    const games::State& state = *state_;
    if (state.is_terminal()) {
      reply_error("illegal-position", "the game is over in " + state.to_string());
      return true;
    }
    if (go.player && *go.player != state.current_player()) {
      reply_error("illegal-position", "go player " + std::to_string(*go.player) + " but player " +
                                          std::to_string(state.current_player()) + " is to move");
      return true;
    }
    Limits lim;
    lim.player = state.current_player();
    lim.time_ms = go.time_ms;
    lim.inc_ms = go.inc_ms;
    lim.movestogo = go.movestogo;
    lim.movetime = go.movetime;
    lim.depth = go.depth;
    lim.nodes = go.nodes;
    lim.infinite = go.infinite;
    lim.seed = mix(seed_ ^ mix(state.hash() ^ static_cast<std::uint64_t>(state.ply())));
    lim.options = options_;
    lim.stop_flag = &ch_.stop;
    lim.emit = [this](const std::string& text) { ch_.write(text); };

    std::string move;
    {
      std::lock_guard lock(ch_.mutex);
      ch_.searching = true;
      ch_.stop = take_early_stop(ch_.queue) || (ch_.closed && ch_.queue.empty());
    }
    if (!state.setup_form().empty() && !info_.search_setups) {
      move = state.sample_setup(lim.seed);
    } else {
      try {
        move = search_(state, lim);
      } catch (const std::exception& e) {
        reply_error("internal", std::string("search failed: ") + e.what());
      }
    }
    {
      std::unique_lock lock(ch_.mutex);
      // go infinite: the bestmove waits for stop (PROTOCOL.md §6), however soon the search ends,
      // or for anything else the referee sends meanwhile.
      if (go.infinite)
        ch_.ready.wait(lock, [&] { return ch_.stop.load() || ch_.closed || !ch_.queue.empty(); });
      ch_.searching = false;
    }
    if (move.empty()) {
      reply_error("internal", "the search returned no move");
      move = "resign";
    }
    ch_.write(format(EngineMessage{BestMove{move}}));
    return true;
  }
  bool on(const Stop&) { return true; }  // not searching: nothing to stop
  bool on(const GameOver&) { return true; }
  bool on(const Quit&) { return false; }
  bool on(const UnknownCommand& u) {
    auto words = tokenize(u.line);
    if (!words.empty()) reply_error("unknown-command", std::string(words[0]));
    return true;
  }

  const EngineInfo& info_;
  SearchFn search_;
  Channel& ch_;
  std::uint64_t seed_;
  std::map<std::string, std::string> options_;
  std::optional<games::Game> game_;
  std::optional<games::State> state_;
};

}  // namespace

std::optional<long> Limits::budget_ms(double fraction) const {
  constexpr long kOverhead = 15;  // pipes and scheduling
  if (movetime) return std::max(1L, *movetime - std::min(kOverhead, *movetime / 4));
  const auto i = static_cast<std::size_t>(player - 1);
  if (player < 1 || i >= time_ms.size()) return std::nullopt;
  const long time = time_ms[i];
  const long inc = i < inc_ms.size() ? inc_ms[i] : 0;
  const double share = movestogo && *movestogo > 0 ? 1.0 / (*movestogo + 1) : fraction;
  long budget = static_cast<long>(static_cast<double>(time) * share) + inc * 3 / 4;
  budget = std::min(budget, time / 3);
  return std::max(1L, budget - kOverhead);
}

long Limits::elapsed_ms() const {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count());
}

void Limits::info(const std::string& text) const {
  if (emit) emit("info " + text);
}

std::vector<GameDecl> declared_games() {
  std::vector<GameDecl> out;
  for (const auto& entry : games::registry()) {
    GameDecl decl{entry.name, {}};
    for (const auto& p : games::all_params(entry)) decl.params.emplace_back(p.key, join_specs(p));
    out.push_back(std::move(decl));
  }
  return out;
}

std::uint64_t seed_from_args(int argc, char** argv, std::uint64_t fallback) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    if (arg == "--seed" && i + 1 < argc)
      value = argv[i + 1];
    else if (arg.rfind("--seed=", 0) == 0)
      value = arg.substr(7);
    else
      continue;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
    if (!value.empty() && *end == '\0' && value[0] != '-') return v;
    return fallback;
  }
  return fallback;
}

int run(const EngineInfo& info, SearchFn search, std::istream& in, std::ostream& out) {
  Channel ch;
  ch.out = &out;
  // std::cin is tied to std::cout: reading would flush the output from the reader thread, racing
  // with the main thread's writes. Every line is flushed explicitly instead.
  in.tie(nullptr);
  Session session(info, std::move(search), ch);
  std::thread reader([&] { read_input(ch, in); });
  while (true) {
    std::string line;
    {
      std::unique_lock lock(ch.mutex);
      ch.ready.wait(lock, [&] { return !ch.queue.empty() || ch.closed; });
      if (ch.queue.empty()) break;  // end of input
      line = std::move(ch.queue.front());
      ch.queue.pop_front();
    }
    if (!session.handle(line)) break;  // quit
  }
  reader.join();
  return 0;
}

int run(const EngineInfo& info, SearchFn search) {
  std::ios::sync_with_stdio(false);
  return run(info, std::move(search), std::cin, std::cout);
}

}  // namespace referee::sdk
