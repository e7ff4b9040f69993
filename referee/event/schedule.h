// The tournament schedule (design.md §5): every game of the event as a numbered slot, in a fixed
// order, so that a resumed run plays exactly the missing ones. Round-robin or gauntlet, any number
// of cycles; for k-player games every k-subset of engines in every seat rotation, so each engine
// plays each seat equally (the engines of a game: those whose `games` key lists it, or have none);
// each opening is played by every rotation (two players: seats swapped). Openings are random plies
// after an optional book line, or with all_plies every distinct position of that many plies.
//
// The size of a schedule is computed from the counts before anything is built, and a schedule of
// more than kMaxScheduleSlots games is refused with its size: it would not fit in memory nor in a
// database at a sensible size (2 engines, 100000 cycles and 10000 openings per pairing would be
// 2 * 10^9 slots). An opening that cannot be made (random plies that end every game tried, a book
// line the game refuses) is an error too, never a silent fallback to no opening.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "event/tournament_config.h"
#include "games/game.h"

namespace referee::event {

struct Slot {
  std::int64_t index = 0;
  std::string game;                  // canonical game string
  std::vector<int> seats;            // engine indices by seat
  std::vector<std::string> opening;  // moves from the start, played by the referee
  int cycle = 0;
  int round = 0;  // 1-based round number shown in exports
};

// The most games one event may schedule.
constexpr std::int64_t kMaxScheduleSlots = 1'000'000;

// The engines that play `game` (those whose `games` list it, or have none), in order: for a
// gauntlet, the others than the first. An error when fewer than the game's players play it, or
// when a gauntlet's first engine does not.
Expected<std::vector<int>> game_players(const TournamentConfig& config, const games::Game& game);

// The number of slots make_schedule would build, from the counts alone (saturating at INT64_MAX);
// for a knockout or Swiss event, the most games its rounds can make (they are made round by
// round, rounds.h). An error when a game needs more engines than play it (game_players) or is not
// a game.
Expected<std::int64_t> schedule_size(const TournamentConfig& config);

// An error giving the computed size when the schedule would exceed kMaxScheduleSlots.
Status check_schedule_size(const TournamentConfig& config);

// The schedule made one slot at a time, in make_schedule's order and with the same contents: its
// memory is one group of engines and one opening whatever the size of the schedule (with
// all_plies, the list of every opening besides), so an event
// of kMaxScheduleSlots games is stored in batches (event_spec.h, slot_batches) and never held.
class ScheduleGenerator {
 public:
  // An error (naming the computed size) beyond kMaxScheduleSlots, or when a game is unknown or
  // needs more engines than the event has, or for a knockout or Swiss event, whose games depend
  // on the results (rounds.h); nothing is generated yet.
  static Expected<ScheduleGenerator> start(const TournamentConfig& config);

  // The next slot, or false after the last one; an error when its opening cannot be made.
  Expected<bool> next(Slot& slot);

  std::int64_t size() const { return size_; }

 private:
  struct GameEntry {
    games::Game game;
    std::string canonical;
    std::uint64_t seed = 0;    // of its canonical text
    int k = 0;                 // players
    int from = 0, pick = 0;    // its groups: every `pick`-subset of `from` engines
    std::uint64_t groups = 0;  // how many
    std::vector<int> players;  // the engines of its groups (a gauntlet's first one aside)
    // With all_plies: every opening, the same for every group (all_openings.h).
    std::vector<std::vector<std::string>> all_lines;
  };
  int openings_of(const GameEntry& e) const;  // per pairing and cycle
  ScheduleGenerator() = default;
  void enter_game();  // from games_[game_] on, the first that has slots (or the end)
  void advance();     // to the next seating, group, opening, cycle or game

  std::uint64_t seed_ = 0;
  int cycles_ = 0, per_pairing_ = 0;
  bool gauntlet_ = false;
  OpeningSettings openings_;
  std::vector<GameEntry> games_;
  std::int64_t size_ = 0;
  // Where it stands: game, cycle, opening, group (its number and its k-subset), seating.
  std::size_t game_ = 0;
  int cycle_ = 0, opening_index_ = 0, rotation_ = 0;
  std::size_t group_ = 0;
  std::vector<int> subset_;
  std::vector<int> seats_;            // the group's engines, from subset_
  std::vector<std::string> opening_;  // the group's opening, made at its first seating
  std::int64_t index_ = 0;            // the next slot's number
};

// Every slot; an error (naming the computed size) beyond kMaxScheduleSlots, or when an opening
// cannot be made. Holds the whole schedule: the events themselves are stored from a
// ScheduleGenerator.
Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config);

// The opening for one pairing: book line (if any) then `random_plies` random moves (setups by
// sample_setup), drawn from `seed`; never an opening that ends the game. Up to 100 random lines
// are tried; an error when every one ends the game, or when the book line is illegal in `game`.
Expected<std::vector<std::string>> make_opening(const games::Game& game,
                                                const OpeningSettings& settings,
                                                std::size_t book_index, std::uint64_t seed);

// Whether `settings.random_plies` can be played in `game` after every book line without ending
// it: refused beyond the game's maxplies, or when trial openings from a few seeds fall short; the
// error states the largest count that works.
Status check_random_plies(const games::Game& game, const OpeningSettings& settings);

}  // namespace referee::event
