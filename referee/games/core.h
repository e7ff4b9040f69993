// How a game is written: a plain "core" value type, wrapped once by Play<Core>, which adds what
// rules.md §0 makes common to every game — ply counters, the three exhaustion limits (repetition,
// nocapture, maxplies) in that order, the repetition history, forced moves, perft — so no game
// writes it again.
//
// A core is a struct with these members (see awale.h for a complete one):
//   using Move = ...;                                  // small copyable value
//   static Core start(const GameSetup&);               // the start position
//   static Expected<Core> parse(const GameSetup&, std::string_view fields);  // never aborts
//   int players() const;  int to_move() const;        // 1..N
//   void moves(std::vector<Move>& out) const;          // appends every distinct legal move, any
//                                                      // order; none when over() or in a setup
//   std::optional<Move> legal_move(std::string_view) const;  // the legal move this text names
//   Effect play(const Move&);                          // applies a legal move
//   std::string move_text(const Move&) const;          // canonical, no spaces
//   bool over() const;  Outcome result() const;        // end by the game's own rules
//   Outcome exhausted() const;                         // the game's exhaustion scoring
//   std::string text() const;                          // position fields (':'-separated)
//   std::uint64_t hash() const;  bool operator==(const Core&) const;
// Optional members, detected at compile time:
//   std::string setup_form() const;        // non-empty while a setup move is expected
//   bool forced() const;                   // the one legal move is played by the referee
//   bool end_round(std::string_view why);  // exhaustion ends a round, not the game (pallankuli):
//                                          // returns true when play goes on
//   std::optional<Outcome> agreed() const; // scoring of an agreed end (human play)
//   std::string draw(BoardWords) const;    // human-readable board, with coordinates, in the
//                                          // seed's words or English (board_words.h); a
//                                          // drawing without words may be draw() const
//   std::vector<double> material() const;  // running score per player (captures, store, pieces),
//                                          // the example engines' evaluation
//   std::string sample_setup(std::uint64_t seed) const;  // a valid setup move, varied by seed
//   int round_number() const;              // games of several rounds (pallankuli): 1, 2, ...
//   BoardView view() const;                // the board as drawing data (board_view.h); the
//                                          // state adds the player to move, the round and, when
//                                          // the core leaves them empty, the scores (material())
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "games/game.h"

namespace referee::games {

// What the factory hands a core: the registry name ("awale-v1"), validated parameters and the
// limits the wrapper enforces.
struct GameSetup {
  std::string name;
  Params params;
  int first = 1;
  int nocapture = 0;  // 0 = no limit
  int maxplies = 2000;
};

// What a move did, as far as the wrapper cares.
struct Effect {
  bool capture = false;       // counts for the nocapture limit (rules.md §0)
  bool irreversible = false;  // no earlier position can recur: the repetition history restarts
  bool new_round = false;     // a new round began (pallankuli): the nocapture count restarts
};

// A position hash accumulator (splitmix64 mixing); cores feed it every field of their position.
class Hasher {
 public:
  void add(std::uint64_t v) {
    std::uint64_t z = (h_ += 0x9e3779b97f4a7c15ULL + v);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h_ = z ^ (z >> 31);
  }
  template <class Range>
  void add_all(const Range& values) {
    for (auto v : values) add(static_cast<std::uint64_t>(v));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0x6a09e667f3bcc909ULL;
};

// Default legal_move(): generate the moves and compare canonical strings.
template <class Core>
std::optional<typename Core::Move> find_move(const Core& core, std::string_view text) {
  std::vector<typename Core::Move> all;
  core.moves(all);
  for (const auto& m : all)
    if (core.move_text(m) == text) return m;
  return std::nullopt;
}

// Small parsing helpers shared by every core's parse() and legal_move().
using text::split;  // base/text.h
// A canonical non-negative decimal ("0", "17"; not "017", "+1", "") within [0, max].
std::optional<long> parse_count(std::string_view text, long max = 1000000000L);
std::string join_counts(const std::vector<int>& values, char sep = ',');

template <class Core>
class Play {
 public:
  using Move = typename Core::Move;

  Play(Core core, const GameSetup& setup, int ply = 0, int quiet = 0)
      : core_(std::move(core)),
        nocapture_(setup.nocapture),
        maxplies_(setup.maxplies),
        ply_(ply),
        quiet_(quiet),
        seen_(std::make_shared<Seen>(Seen{core_.hash(), nullptr})) {
    if (core_.over()) end_ = core_.result();
  }

  const Core& core() const { return core_; }
  bool terminal() const { return end_.has_value(); }
  const Outcome& outcome() const { return *end_; }
  int ply() const { return ply_; }
  int quiet() const { return quiet_; }
  bool last_captured() const { return last_capture_; }

  void moves(std::vector<Move>& out) const {
    if (!end_) core_.moves(out);
  }

  std::optional<Move> legal_move(std::string_view text) const {
    if (end_) return std::nullopt;
    return core_.legal_move(text);
  }

  void play(const Move& move) {
    const Effect effect = core_.play(move);
    ++ply_;
    last_capture_ = effect.capture;
    quiet_ = effect.capture || effect.new_round ? 0 : quiet_ + 1;
    const std::uint64_t h = core_.hash();
    if (effect.irreversible)
      seen_ = std::make_shared<Seen>(Seen{h, nullptr});
    else
      seen_ = std::make_shared<Seen>(Seen{h, seen_});
    settle();
  }

  bool agree() {
    if constexpr (requires(const Core& c) { c.agreed(); }) {
      if (end_) return false;
      auto agreed = core_.agreed();
      if (!agreed) return false;
      end_ = std::move(*agreed);
      end_->reason = "agreement";
      return true;
    } else {
      return false;
    }
  }

  std::uint64_t perft(int depth) const {
    if (depth <= 0) return 1;
    std::vector<Move> list;
    moves(list);
    if (depth == 1) return list.size();
    std::uint64_t total = 0;
    for (const auto& m : list) {
      Play next = *this;
      next.play(m);
      total += next.perft(depth - 1);
    }
    return total;
  }

  std::string text() const {
    return core_.text() + ":" + std::to_string(quiet_) + ":" + std::to_string(ply_);
  }

  bool operator==(const Play& o) const {
    return core_ == o.core_ && ply_ == o.ply_ && quiet_ == o.quiet_;
  }

 private:
  struct Seen {
    std::uint64_t hash;
    std::shared_ptr<const Seen> prev;
  };

  int occurrences(std::uint64_t h) const {
    int n = 0;
    for (const Seen* s = seen_.get(); s; s = s->prev.get()) n += s->hash == h;
    return n;
  }

  // rules.md §0: the game's own end first, then repetition, nocapture, maxplies.
  void settle() {
    if (core_.over()) {
      end_ = core_.result();
      return;
    }
    const char* why = nullptr;
    if (occurrences(core_.hash()) >= 3)
      why = "repetition";
    else if (nocapture_ > 0 && quiet_ >= nocapture_)
      why = "nocapture";
    if (why) {
      if constexpr (requires(Core & c) { c.end_round(std::string_view{}); }) {
        if (core_.end_round(why)) {  // a new round starts afresh
          quiet_ = 0;
          seen_ = std::make_shared<Seen>(Seen{core_.hash(), nullptr});
          if (core_.over()) end_ = core_.result();
          if (!end_ && ply_ >= maxplies_) exhaust("maxplies");
          return;
        }
        if (core_.over()) {
          end_ = core_.result();
          return;
        }
      }
      exhaust(why);
      return;
    }
    if (ply_ >= maxplies_) exhaust("maxplies");
  }

  void exhaust(const char* why) {
    end_ = core_.exhausted();
    end_->reason = why;
  }

  Core core_;
  int nocapture_;
  int maxplies_;
  int ply_;
  int quiet_;
  bool last_capture_ = false;
  std::shared_ptr<const Seen> seen_;
  std::optional<Outcome> end_;
};

namespace detail {

struct StateConcept {
  virtual ~StateConcept() = default;
  virtual std::unique_ptr<StateConcept> clone() const = 0;
  virtual int num_players() const = 0;
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  virtual std::vector<std::string> legal_moves() const = 0;
  virtual std::string setup_form() const = 0;
  virtual bool is_forced() const = 0;
  virtual Status apply(std::string_view move) = 0;
  virtual Outcome outcome() const = 0;
  virtual bool agree() = 0;
  virtual bool last_move_captured() const = 0;
  virtual int ply() const = 0;
  virtual int plies_without_capture() const = 0;
  virtual std::string to_string() const = 0;
  virtual std::string draw(BoardWords words) const = 0;
  virtual std::uint64_t hash() const = 0;
  virtual std::uint64_t perft(int depth) const = 0;
  virtual std::vector<double> material() const = 0;
  virtual std::string sample_setup(std::uint64_t seed) const = 0;
  virtual int round() const = 0;
  virtual BoardView view() const = 0;
  virtual bool equals(const StateConcept& other) const = 0;
};

struct GameConcept {
  virtual ~GameConcept() = default;
  std::string name;
  std::string canonical;
  // The canonical string again, shared by every state of this game: two states are equal only
  // when their games are (awale and awale-v1 share a core type, and so do two parameter sets).
  std::shared_ptr<const std::string> identity;
  GameSetup setup;
  int players = 2;
  virtual State initial_state() const = 0;
  virtual Expected<State> parse_state(std::string_view position) const = 0;
};

template <class Core>
struct StateModel final : StateConcept {
  StateModel(Play<Core> p, std::shared_ptr<const std::string> g)
      : play(std::move(p)), game(std::move(g)) {}
  Play<Core> play;
  std::shared_ptr<const std::string> game;  // GameConcept::identity

  std::unique_ptr<StateConcept> clone() const override {
    return std::make_unique<StateModel>(*this);
  }
  int num_players() const override { return play.core().players(); }
  int current_player() const override { return play.terminal() ? 0 : play.core().to_move(); }
  bool is_terminal() const override { return play.terminal(); }
  std::vector<std::string> legal_moves() const override {
    std::vector<typename Core::Move> list;
    play.moves(list);
    std::vector<std::string> out;
    out.reserve(list.size());
    for (const auto& m : list) out.push_back(play.core().move_text(m));
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string setup_form() const override {
    if constexpr (requires(const Core& c) { c.setup_form(); }) {
      if (!play.terminal()) return play.core().setup_form();
    }
    return {};
  }
  bool is_forced() const override {
    if (play.terminal()) return false;
    if constexpr (requires(const Core& c) { c.forced(); }) {
      return play.core().forced();
    } else {
      auto list = legal_moves();
      return list.size() == 1 && list[0] == "pass";
    }
  }
  Status apply(std::string_view move) override {
    if (play.terminal()) return Error{"the game is over"};
    auto m = play.legal_move(move);
    if (!m) return Error{"illegal move '" + std::string(move) + "'"};
    play.play(*m);
    return Ok{};
  }
  Outcome outcome() const override { return play.terminal() ? play.outcome() : Outcome{}; }
  bool agree() override { return play.agree(); }
  bool last_move_captured() const override { return play.last_captured(); }
  int ply() const override { return play.ply(); }
  int plies_without_capture() const override { return play.quiet(); }
  std::string to_string() const override { return play.text(); }
  // A core whose drawing has words takes them (draw(BoardWords)); felli's, perali-kotuma's and
  // permainan's drawings have no seed words (they are English in both forms), so their cores keep
  // draw() and print it for either.
  std::string draw(BoardWords words) const override {
    if constexpr (requires(const Core& c) { c.draw(words); }) {
      return play.core().draw(words);
    } else if constexpr (requires(const Core& c) { c.draw(); }) {
      return play.core().draw();
    } else {
      return play.core().text() + "\n";
    }
  }
  std::uint64_t hash() const override { return play.core().hash(); }
  std::vector<double> material() const override {
    if constexpr (requires(const Core& c) { c.material(); }) {
      return play.core().material();
    } else {
      return std::vector<double>(static_cast<std::size_t>(play.core().players()), 0.0);
    }
  }
  int round() const override {
    if constexpr (requires(const Core& c) { c.round_number(); }) {
      return play.core().round_number();
    } else {
      return 1;
    }
  }
  BoardView view() const override {
    BoardView v;
    if constexpr (requires(const Core& c) { c.view(); }) {
      v = play.core().view();
    } else {
      v.family = "text";
      v.notes.push_back(play.core().text());
    }
    v.players = num_players();
    v.to_move = current_player();
    v.round = round();
    if (v.scores.empty()) v.scores = material();
    // The board stays the position as it stands; the count the result makes of it is added, so
    // a viewer never shows a final score the stored result contradicts.
    if (play.terminal()) v.final_scores = play.outcome().scores;
    return v;
  }
  std::string sample_setup(std::uint64_t seed) const override {
    if constexpr (requires(const Core& c) { c.sample_setup(seed); }) {
      if (!setup_form().empty()) return play.core().sample_setup(seed);
    }
    return {};
  }
  std::uint64_t perft(int depth) const override { return play.perft(depth); }
  bool equals(const StateConcept& other) const override {
    auto* o = dynamic_cast<const StateModel*>(&other);
    if (!o) return false;
    const bool same_game = game == o->game || (game && o->game && *game == *o->game);
    return same_game && o->play == play;
  }
};

// Splits "fields:quiet:ply" into the core's fields and the two counters.
struct PositionParts {
  std::string_view fields;
  int quiet = 0;
  int ply = 0;
};
Expected<PositionParts> split_position(std::string_view position);

template <class Core>
struct GameModel final : GameConcept {
  State initial_state() const override {
    return State(
        std::make_unique<StateModel<Core>>(Play<Core>(Core::start(setup), setup), identity));
  }
  Expected<State> parse_state(std::string_view position) const override {
    auto parts = split_position(position);
    if (!parts) return parts.failure();
    auto core = Core::parse(setup, parts->fields);
    if (!core)
      return Error{"bad " + name + " position '" + std::string(position) + "': " + core.error()};
    return State(std::make_unique<StateModel<Core>>(
        Play<Core>(std::move(*core), setup, parts->ply, parts->quiet), identity));
  }
};

}  // namespace detail

// The factory a registry row points to.
template <class Core>
std::shared_ptr<detail::GameConcept> model_of(GameSetup setup) {
  auto g = std::make_shared<detail::GameModel<Core>>();
  GameSetup probe = setup;
  probe.first = 1;  // `first` is checked against the player count by make_game
  g->players = Core::start(probe).players();
  g->setup = std::move(setup);
  return g;
}

}  // namespace referee::games
