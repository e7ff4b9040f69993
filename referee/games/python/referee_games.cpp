// The Python module `referee_games`: the rules library (games/game.h, games/registry.h) with
// Pythonic names, for engines written in Python and for tests.
//
//   import referee_games as rg
//   g = rg.game("oware:players=3"); s = g.initial_state(); s.apply(s.legal_moves()[0])
//
// Decisions:
// - Errors of the library (bad game string, bad position, illegal move, a game without an agreed
//   end) raise ValueError carrying the library's own message; nothing aborts.
// - A State is a mutable value: apply() plays in place, child() returns a new state; copy(),
//   copy.copy() and copy.deepcopy() all make an independent copy (the C++ copy constructor, so
//   the repetition history comes along).
// - __hash__ comes from State.hash(), the position's hash without the ply counters; __eq__ is the
//   library's ==, which also compares the counters: equal states have equal hashes. States are
//   mutable, so a state used as a dict key must not be changed afterwards.
// - outcome() is None until the game is over, then an Outcome (scores, ranks, reason).
// - perft() releases the GIL, counting on a copy of the state (so that other threads may use the
//   original meanwhile); nothing else does (every other call is short).
// - open_table() and probe() are the endgame tables' API (games/egdb/table.h, EGDB.md): probe()
//   returns None where the table has no answer (game over, more seeds than the table) and a dict
//   otherwise; a table of another game raises ValueError.
// - games() describes the registry (names, aliases, titles, every parameter with its default and
//   its accepted values) so that an engine can declare every game without a table of its own.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "games/egdb/table.h"
#include "games/egdb/table_file.h"
#include "games/game.h"
#include "games/registry.h"

namespace py = pybind11;
using referee::games::BoardWords;
using referee::games::Game;
using referee::games::Outcome;
using referee::games::ParamSpec;
using referee::games::State;

namespace {

struct GameInfo {
  std::string name;
  std::vector<std::string> aliases;
  std::string title;
  int max_players = 2;
  std::vector<ParamSpec> params;
};

// "a|b|c" or "min..max", as in the protocol's `game` declarations.
std::string accepted(const ParamSpec& p) {
  if (p.choices.empty()) return std::to_string(p.min) + ".." + std::to_string(p.max);
  std::string out;
  for (const auto& c : p.choices) out += (out.empty() ? "" : "|") + c;
  return out;
}

template <class T>
T value_or_raise(referee::Expected<T> result) {
  if (!result) throw py::value_error(result.error());
  return std::move(result).value();
}

void ok_or_raise(const referee::Status& status) {
  if (!status) throw py::value_error(status.error());
}

}  // namespace

PYBIND11_MODULE(referee_games, m) {
  m.doc() =
      "The referee's rules library: 18 mancala and capture games.\n\n"
      "  g = game('oware:players=3'); s = g.initial_state(); s.apply(s.legal_moves()[0])\n\n"
      "Errors (bad game string, bad position, illegal move) raise ValueError with the library's "
      "message.";

  py::class_<ParamSpec>(m, "ParamInfo", "One parameter a game accepts.")
      .def_readonly("key", &ParamSpec::key)
      .def_readonly("default", &ParamSpec::default_value)
      .def_readonly("choices", &ParamSpec::choices, "accepted values; empty for an integer range")
      .def_readonly("min", &ParamSpec::min)
      .def_readonly("max", &ParamSpec::max)
      .def_readonly("help", &ParamSpec::help)
      .def_property_readonly(
          "accepted", &accepted,
          "the accepted values as the protocol declares them: 'a|b' or 'min..max'")
      .def("__repr__", [](const ParamSpec& p) {
        return "<ParamInfo " + p.key + "=" + accepted(p) + " default " + p.default_value + ">";
      });

  py::class_<GameInfo>(m, "GameInfo", "A game of the registry: name, aliases, title, parameters.")
      .def_readonly("name", &GameInfo::name)
      .def_readonly("aliases", &GameInfo::aliases)
      .def_readonly("title", &GameInfo::title)
      .def_readonly("max_players", &GameInfo::max_players)
      .def_readonly("params", &GameInfo::params,
                    "every parameter in canonical order, the common first/nocapture/maxplies last")
      .def("__repr__",
           [](const GameInfo& g) { return "<GameInfo " + g.name + ": " + g.title + ">"; });

  m.def(
      "games",
      [] {
        std::vector<GameInfo> out;
        for (const auto& e : referee::games::registry())
          out.push_back({e.name, e.aliases, e.title, e.max_players, referee::games::all_params(e)});
        return out;
      },
      "Every game of the registry, in the order of rules.md.");

  py::class_<Outcome>(m, "Outcome", "How a game ended; index 0 is player 1.")
      .def_readonly("scores", &Outcome::scores, "the game's own score per player (informative)")
      .def_readonly("ranks", &Outcome::ranks, "1 = best; equal ranks share a place")
      .def_readonly("reason", &Outcome::reason,
                    "'rules', 'repetition', 'nocapture', 'maxplies' or 'agreement'")
      .def(
          "is_draw",
          [](const Outcome& o) {
            for (int r : o.ranks)
              if (r != 1) return false;
            return true;
          },
          "True when every player shares first place.")
      .def(
          "__eq__",
          [](const Outcome& a, const Outcome& b) {
            return a.scores == b.scores && a.ranks == b.ranks && a.reason == b.reason;
          },
          py::is_operator())
      .def("__repr__", [](const Outcome& o) {
        return "Outcome(scores=" + py::repr(py::cast(o.scores)).cast<std::string>() +
               ", ranks=" + py::repr(py::cast(o.ranks)).cast<std::string>() + ", reason='" +
               o.reason + "')";
      });

  py::class_<State>(m, "State",
                    "A position of a game with its history (a mutable value: apply() plays in "
                    "place, child() returns a new state).")
      .def("num_players", &State::num_players)
      .def("current_player", &State::current_player, "1..N; 0 once the game is over")
      .def("is_terminal", &State::is_terminal)
      .def("legal_moves", &State::legal_moves,
           "Canonical strings of the legal moves, sorted and unique; empty when the game is over "
           "or a setup move is expected (see setup_form()).")
      .def("setup_form", &State::setup_form,
           "While a setup move is expected, a description of its form; '' otherwise.")
      .def("sample_setup", &State::sample_setup, py::arg("seed"),
           "A valid setup move varied by seed ('' when no setup is expected).")
      .def("is_forced", &State::is_forced,
           "True when the mover's only move is played by the referee (never asked of an engine).")
      .def(
          "apply", [](State& s, std::string_view move) { ok_or_raise(s.apply(move)); },
          py::arg("move"),
          "Plays a move in place; ValueError (state unchanged) when it is illegal or unparseable.")
      .def(
          "child",
          [](const State& s, std::string_view move) {
            State next = s;
            ok_or_raise(next.apply(move));
            return next;
          },
          py::arg("move"), "A new state: this one after the move (ValueError when illegal).")
      .def(
          "outcome",
          [](const State& s) -> std::optional<Outcome> {
            if (!s.is_terminal()) return std::nullopt;
            return s.outcome();
          },
          "The Outcome once the game is over, else None.")
      .def(
          "agree_to_end", [](State& s) { ok_or_raise(s.agree_to_end()); },
          "Ends the game now by agreement, scored by the game's rules (ValueError where the game "
          "has no agreed end or is over).")
      .def("last_move_captured", &State::last_move_captured)
      .def("ply", &State::ply)
      .def("plies_without_capture", &State::plies_without_capture)
      .def("round", &State::round, "the round being played (1 for games of one round)")
      .def("material", &State::material,
           "The running score per player (captures, store, pieces); index 0 is player 1.")
      .def("to_string", &State::to_string, "The protocol's position string.")
      .def(
          "draw",
          [](const State& s, bool seed_words) {
            return s.draw(seed_words ? BoardWords::Seed : BoardWords::English);
          },
          py::arg("seed_words") = false,
          "A human-readable board, in English; seed_words=True gives the seed's console words "
          "(French), as the seed's screen of `referee play` prints them.")
      .def("hash", &State::hash, "64-bit hash of the position (ply counters excluded).")
      .def(
          "perft",
          [](const State& s, int depth) {
            if (depth < 0 || depth > 64) throw py::value_error("perft depth must be from 0 to 64");
            const State own = s;  // another thread may change `s` while the GIL is released
            py::gil_scoped_release release;
            return own.perft(depth);
          },
          py::arg("depth"), "Number of move sequences of this length (the GIL is released).")
      .def("copy", [](const State& s) { return State(s); })
      .def("__copy__", [](const State& s) { return State(s); })
      .def(
          "__deepcopy__", [](const State& s, py::dict) { return State(s); }, py::arg("memo"))
      .def("__hash__", [](const State& s) { return static_cast<py::ssize_t>(s.hash() >> 1); })
      .def(
          "__eq__", [](const State& a, const State& b) { return a == b; }, py::is_operator())
      .def("__str__", &State::to_string)
      .def("__repr__", [](const State& s) { return "<State " + s.to_string() + ">"; });

  py::class_<Game>(m, "Game", "An immutable game description, built by game(spec).")
      .def_property_readonly("name", &Game::name, "the registry name ('oware')")
      .def_property_readonly("canonical", &Game::canonical,
                             "the full 'name:key=value,...' with every parameter")
      .def_property_readonly("num_players", &Game::num_players)
      .def_property_readonly("max_plies", &Game::max_plies)
      .def_property_readonly(
          "params", [](const Game& g) { return g.params().all(); },
          "every parameter's value, by key")
      .def("initial_state", &Game::initial_state)
      .def(
          "parse_state",
          [](const Game& g, std::string_view text) { return value_or_raise(g.parse_state(text)); },
          py::arg("text"), "The state of a position string (ValueError when malformed).")
      .def(
          "state_after",
          [](const Game& g, const std::vector<std::string>& moves,
             std::optional<std::string> position) {
            return value_or_raise(referee::games::state_after(g, position.value_or(""), moves));
          },
          py::arg("moves"), py::arg("position") = py::none(),
          "The state after playing moves from the start, or from a position string.")
      .def(
          "__eq__", [](const Game& a, const Game& b) { return a.canonical() == b.canonical(); },
          py::is_operator())
      .def("__hash__", [](const Game& g) { return py::hash(py::str(g.canonical())); })
      .def("__str__", &Game::canonical)
      .def("__repr__", [](const Game& g) { return "<Game " + g.canonical() + ">"; });

  namespace egdb = referee::games::egdb;
  py::class_<egdb::Table>(m, "Table", "An endgame table read by open_table(path) (EGDB.md).")
      .def_property_readonly(
          "game", [](const egdb::Table& t) { return t.model().key; },
          "the table's game: the canonical string without first and maxplies")
      .def_property_readonly("seeds", &egdb::Table::seeds, "the most seeds on the board")
      .def_property_readonly(
          "checksum", [](const egdb::Table& t) { return egdb::hex64(t.checksum()); },
          "FNV-1a 64 of the game and the data, 16 hex digits (what an event pins)");
  m.def(
      "open_table", [](const std::string& path) { return value_or_raise(egdb::open_table(path)); },
      py::arg("path"), "Reads an endgame table and checks its checksum (ValueError if not).");
  m.def(
      "probe",
      [](const egdb::Table& table, const Game& game, const State& state) -> py::object {
        auto p = value_or_raise(egdb::probe(table, game, state));
        if (!p) return py::none();
        py::dict d;
        d["mover"] = p->mover;
        d["value"] = p->value;
        d["margin"] = p->margin;
        d["final_scores"] = std::vector<int>(p->final_scores.begin(), p->final_scores.end());
        d["best_moves"] = p->best_moves;
        d["exact"] = p->exact;
        return d;
      },
      py::arg("table"), py::arg("game"), py::arg("state"),
      "A position's value under perfect play: {mover, value (the mover's margin from the board),\n"
      "margin (final, mover's), final_scores [South, North], best_moves, exact}, or None when\n"
      "the game is over or the position has more seeds than the table.");

  m.def(
      "game", [](std::string_view spec) { return value_or_raise(referee::games::make_game(spec)); },
      py::arg("spec"),
      "Builds a game from 'name' or 'name:key=value,...' (ValueError naming the culprit).");
}
