#include "event/schedule.h"

#include <algorithm>
#include <limits>
#include <random>

#include "event/all_openings.h"
#include "games/core.h"

namespace referee::event {

namespace {

// The k-subsets of {0..n-1} in lexicographic order, one at a time: the first, then each next
// (false after the last). A schedule's groups are walked, never held: there can be 500,000.
std::vector<int> first_subset(int k) {
  std::vector<int> pick(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) pick[static_cast<std::size_t>(i)] = i;
  return pick;
}

bool next_subset(std::vector<int>& pick, int n) {
  const int k = static_cast<int>(pick.size());
  int i = k - 1;
  while (i >= 0 && pick[static_cast<std::size_t>(i)] == n - k + i) --i;
  if (i < 0) return false;
  ++pick[static_cast<std::size_t>(i)];
  for (int j = i + 1; j < k; ++j)
    pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(j - 1)] + 1;
  return true;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  games::Hasher h;
  h.add(a);
  h.add(b);
  return h.value();
}

constexpr int kOpeningAttempts = 100;
constexpr std::uint64_t kTrialSeeds = 8;  // openings tried by check_random_plies
constexpr std::uint64_t kTrialSeed = 0x6f70656e696e6773;

constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return kSaturated;
  return out;
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return kSaturated;
  return out;
}

// C(from, pick), saturating at INT64_MAX.
std::int64_t binomial(std::int64_t from, std::int64_t pick) {
  std::int64_t out = 1;
  for (std::int64_t i = 0; i < pick && out != kSaturated; ++i) {
    // Exact at each step: C(from, i+1) = C(from, i) * (from - i) / (i + 1).
    const std::int64_t product = saturating_mul(out, from - i);
    out = product == kSaturated ? kSaturated : product / (i + 1);
  }
  return out;
}

std::uint64_t text_seed(const std::string& text) {
  games::Hasher h;
  for (char c : text) h.add(static_cast<unsigned char>(c));
  return h.value();
}

}  // namespace

Expected<std::vector<std::string>> make_opening(const games::Game& game,
                                                const OpeningSettings& settings,
                                                std::size_t book_index, std::uint64_t seed) {
  std::vector<std::string> base;
  std::string line_name = "the start";
  if (!settings.book_lines.empty()) {
    const std::size_t line = book_index % settings.book_lines.size();
    base = settings.book_lines[line];
    line_name = "book line " + std::to_string(line + 1);
  }
  auto start = games::state_after(game, "", base);
  if (!start) return Error{line_name + " is illegal in " + game.canonical() + ": " + start.error()};
  if (start->is_terminal()) return Error{line_name + " ends the game of " + game.canonical()};
  if (settings.random_plies <= 0) return base;
  for (int attempt = 0; attempt < kOpeningAttempts; ++attempt) {
    std::mt19937_64 rng(mix(seed, static_cast<std::uint64_t>(attempt)));
    games::State state = *start;
    std::vector<std::string> moves = base;
    for (int ply = 0; ply < settings.random_plies && !state.is_terminal(); ++ply) {
      std::string move;
      if (!state.setup_form().empty()) {
        move = state.sample_setup(rng());
      } else {
        auto legal = state.legal_moves();
        move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      }
      if (!state.apply(move)) break;
      moves.push_back(move);
    }
    if (!state.is_terminal() &&
        moves.size() == base.size() + static_cast<std::size_t>(settings.random_plies))
      return moves;
  }
  return Error{std::to_string(settings.random_plies) + " random plies after " + line_name +
               " ended every one of " + std::to_string(kOpeningAttempts) + " games of " +
               game.canonical() + " tried"};
}

Status check_random_plies(const games::Game& game, const OpeningSettings& settings) {
  const int plies = settings.random_plies;
  if (plies <= 0) return Ok{};
  std::size_t longest = 0;
  for (const auto& line : settings.book_lines) longest = std::max(longest, line.size());
  const long fit = static_cast<long>(game.max_plies()) - 1 - static_cast<long>(longest);
  const std::string too_many =
      "random_plies " + std::to_string(plies) + " is too many for " + game.canonical() + ": ";
  if (plies > fit)
    return Error{too_many + "its games end at maxplies=" + std::to_string(game.max_plies()) +
                 (longest ? " and the longest book line has " + std::to_string(longest) + " plies"
                          : std::string()) +
                 ", so at most " + std::to_string(std::max(0L, fit)) + " random plies fit"};
  auto works = [&](int count) {
    OpeningSettings trial = settings;
    trial.random_plies = count;
    for (std::uint64_t i = 0; i < kTrialSeeds; ++i)
      if (!make_opening(game, trial, static_cast<std::size_t>(i), mix(kTrialSeed, i))) return false;
    return true;
  };
  if (works(plies)) return Ok{};
  int lo = 0, hi = plies - 1;  // the largest count that works, by bisection
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (works(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return Error{too_many + "random lines that long end the game (" +
               std::to_string(kOpeningAttempts) + " tries per opening); at most " +
               std::to_string(lo) + " random plies work"};
}

Expected<std::vector<int>> game_players(const TournamentConfig& config, const games::Game& game) {
  const bool gauntlet = config.format == "gauntlet";
  const auto plays = [&](std::size_t e) {
    const auto& list = config.engines[e].games;
    return list.empty() || std::find(list.begin(), list.end(), game.canonical()) != list.end();
  };
  const int k = game.num_players();
  const int n = static_cast<int>(config.engines.size());
  if (n < k)
    return Error{"game " + game.canonical() + " needs " + std::to_string(k) +
                 " engines; the tournament has " + std::to_string(n)};
  if (gauntlet && !config.engines.empty() && !plays(0))
    return Error{"the gauntlet's first engine '" + config.engines[0].config.name +
                 "' does not play " + game.canonical() + " (its 'games')"};
  std::vector<int> players;
  for (std::size_t e = gauntlet ? 1 : 0; e < config.engines.size(); ++e)
    if (plays(e)) players.push_back(static_cast<int>(e));
  const int playing = static_cast<int>(players.size()) + (gauntlet ? 1 : 0);
  if (playing < k)
    return Error{"game " + game.canonical() + " needs " + std::to_string(k) + " engines; " +
                 std::to_string(playing) + " of the tournament's play it (their 'games')"};
  return players;
}

// The openings of each pairing of `game`: per_pairing, or with all_plies every one (their count,
// or an error when they cannot be listed).
Expected<std::int64_t> openings_per_pairing(const TournamentConfig& config,
                                            const games::Game& game) {
  if (config.openings.all_plies <= 0) return std::int64_t{std::max(0, config.openings.per_pairing)};
  auto lines =
      all_openings(game, config.openings.all_plies, static_cast<std::size_t>(kMaxScheduleSlots));
  if (!lines) return lines.failure();
  return static_cast<std::int64_t>(lines->size());
}

Expected<std::int64_t> schedule_size(const TournamentConfig& config) {
  std::int64_t total = 0;
  if (has_rounds(config)) {
    // The most games the rounds can make: a knockout has field - 1 matches of at most
    // pairs + tiebreak_pairs pairs; a Swiss round pairs field / 2 matches of one pair.
    const std::int64_t n = static_cast<std::int64_t>(config.engines.size());
    const std::int64_t matches =
        config.format == "knockout"
            ? saturating_mul(std::max<std::int64_t>(0, n - 1),
                             config.knockout.pairs + config.knockout.tiebreak_pairs)
            : saturating_mul(n / 2, std::max(0, config.swiss.rounds));
    for (const auto& spec : config.games) {
      auto game = games::make_game(spec);
      if (!game) return game.failure();
      total = saturating_add(total, saturating_mul(matches, 2));
    }
    return total;
  }
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return game.failure();
    auto per_pairing = openings_per_pairing(config, *game);
    if (!per_pairing) return per_pairing.failure();
    const std::int64_t k = game->num_players();
    auto players = game_players(config, *game);
    if (!players) return players.failure();
    // Groups of k engines among those playing the game: C(n, k); a gauntlet's hold the first
    // engine, C(n-1, k-1), its players being the others.
    const bool gauntlet = config.format == "gauntlet";
    const std::int64_t from = static_cast<std::int64_t>(players->size()),
                       pick = gauntlet ? k - 1 : k;
    std::int64_t slots = saturating_mul(binomial(from, pick), k);
    slots = saturating_mul(slots, std::max(0, config.cycles));
    slots = saturating_mul(slots, *per_pairing);
    total = saturating_add(total, slots);
  }
  return total;
}

Status check_schedule_size(const TournamentConfig& config) {
  auto size = schedule_size(config);
  if (!size) return size.failure();
  if (*size <= kMaxScheduleSlots) return Ok{};
  return Error{"the schedule has " +
               (*size == kSaturated ? "more than 9.2 * 10^18" : std::to_string(*size)) +
               " games; an event holds at most " + std::to_string(kMaxScheduleSlots) +
               " (use fewer cycles, openings per pairing" +
               (config.openings.all_plies > 0 ? ", all_plies" : "") + ", engines or games)"};
}

Expected<ScheduleGenerator> ScheduleGenerator::start(const TournamentConfig& config) {
  if (has_rounds(config))
    return Error{"a " + config.format +
                 " event has no schedule made in advance: its rounds are paired from the results"};
  if (auto checked = check_schedule_size(config); !checked) return checked.failure();
  ScheduleGenerator gen;
  gen.size_ = *schedule_size(config);
  gen.seed_ = config.seed;
  gen.cycles_ = config.cycles;
  gen.per_pairing_ = config.openings.per_pairing;
  gen.gauntlet_ = config.format == "gauntlet";
  gen.openings_ = config.openings;
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return game.failure();
    const int k = game->num_players();
    auto players = game_players(config, *game);
    if (!players) return players.failure();
    // A gauntlet's groups are the first engine with every (k-1)-subset of the others, made as
    // such: filtering all k-subsets could walk far more groups than the schedule holds.
    std::string canonical = game->canonical();
    const std::uint64_t seed = text_seed(canonical);
    const int from = static_cast<int>(players->size()), pick = gen.gauntlet_ ? k - 1 : k;
    // At most the schedule's size when the game has slots: no saturation where it is used.
    const auto groups = static_cast<std::uint64_t>(binomial(from, pick));
    std::vector<std::vector<std::string>> all_lines;
    if (config.openings.all_plies > 0) {
      auto lines = all_openings(*game, config.openings.all_plies,
                                static_cast<std::size_t>(kMaxScheduleSlots));
      if (!lines) return lines.failure();
      all_lines = std::move(*lines);
    }
    gen.games_.push_back(GameEntry{std::move(*game), std::move(canonical), seed, k, from, pick,
                                   groups, std::move(*players), std::move(all_lines)});
  }
  gen.enter_game();
  return gen;
}

int ScheduleGenerator::openings_of(const GameEntry& e) const {
  return openings_.all_plies > 0 ? static_cast<int>(e.all_lines.size()) : per_pairing_;
}

void ScheduleGenerator::enter_game() {
  if (cycles_ <= 0 || per_pairing_ <= 0) game_ = games_.size();  // no game has slots
  while (game_ < games_.size() && openings_of(games_[game_]) <= 0) ++game_;
  if (game_ >= games_.size()) return;
  const GameEntry& e = games_[game_];
  cycle_ = opening_index_ = rotation_ = 0;
  group_ = 0;
  subset_ = first_subset(e.pick);
}

void ScheduleGenerator::advance() {
  const GameEntry& e = games_[game_];
  if (++rotation_ < e.k) return;
  rotation_ = 0;
  if (next_subset(subset_, e.from)) {
    ++group_;
    return;
  }
  group_ = 0;
  subset_ = first_subset(e.pick);
  if (++opening_index_ < openings_of(e)) return;
  opening_index_ = 0;
  if (++cycle_ < cycles_) return;
  ++game_;
  enter_game();
}

Expected<bool> ScheduleGenerator::next(Slot& slot) {
  if (game_ >= games_.size()) return false;
  const GameEntry& e = games_[game_];
  if (rotation_ == 0) {  // a new group: its engines and its opening
    seats_.clear();
    if (gauntlet_) seats_.push_back(0);
    for (int s : subset_) seats_.push_back(e.players[static_cast<std::size_t>(s)]);
    // In 64 bits: cycle * 1000003 overflows an int from cycle 2148 on (cycles go to 100000).
    const auto c64 = static_cast<std::uint64_t>(cycle_),
               o64 = static_cast<std::uint64_t>(opening_index_);
    const std::uint64_t seed =
        mix(mix(mix(seed_, e.seed), c64 * 1000003u + o64), static_cast<std::uint64_t>(group_));
    const auto book_index = static_cast<std::size_t>(
        (c64 * static_cast<std::uint64_t>(per_pairing_) + o64) * e.groups + group_);
    if (openings_.all_plies > 0) {
      opening_ = e.all_lines[static_cast<std::size_t>(opening_index_)];
    } else {
      auto opening = make_opening(e.game, openings_, book_index, seed);
      if (!opening)
        return Error{"the opening of cycle " + std::to_string(cycle_ + 1) + ", pairing " +
                     std::to_string(group_ + 1) + ": " + opening.error()};
      opening_ = std::move(*opening);
    }
  }
  slot.index = index_++;
  slot.game = e.canonical;
  slot.seats.resize(static_cast<std::size_t>(e.k));
  for (int s = 0; s < e.k; ++s)
    slot.seats[static_cast<std::size_t>(s)] =
        seats_[static_cast<std::size_t>((s + rotation_) % e.k)];
  slot.opening = opening_;
  slot.cycle = cycle_;
  slot.round = cycle_ * openings_of(e) + opening_index_ + 1;
  advance();
  return true;
}

Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config) {
  auto gen = ScheduleGenerator::start(config);
  if (!gen) return gen.failure();
  std::vector<Slot> slots;
  slots.reserve(static_cast<std::size_t>(gen->size()));
  Slot slot;
  while (true) {
    auto more = gen->next(slot);
    if (!more) return more.failure();
    if (!*more) return slots;
    slots.push_back(slot);
  }
}

}  // namespace referee::event
