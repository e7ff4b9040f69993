#include "event/schedule.h"

#include <algorithm>
#include <limits>
#include <random>

#include "games/core.h"

namespace referee {

namespace {

// Every k-subset of {0..n-1} in lexicographic order.
std::vector<std::vector<int>> combinations(int n, int k) {
  std::vector<std::vector<int>> out;
  std::vector<int> pick(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) pick[static_cast<std::size_t>(i)] = i;
  if (k > n) return out;
  while (true) {
    out.push_back(pick);
    int i = k - 1;
    while (i >= 0 && pick[static_cast<std::size_t>(i)] == n - k + i) --i;
    if (i < 0) return out;
    ++pick[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j)
      pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(j - 1)] + 1;
  }
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

Expected<std::int64_t> schedule_size(const TournamentConfig& config) {
  const std::int64_t n = static_cast<std::int64_t>(config.engines.size());
  std::int64_t total = 0;
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return game.failure();
    const std::int64_t k = game->num_players();
    if (n < k)
      return Error{"game " + spec + " needs " + std::to_string(k) +
                   " engines; the tournament has " + std::to_string(n)};
    // Groups of k engines: C(n, k); a gauntlet keeps those holding the first engine, C(n-1, k-1).
    const bool gauntlet = config.format == "gauntlet";
    const std::int64_t from = gauntlet ? n - 1 : n, pick = gauntlet ? k - 1 : k;
    std::int64_t groups = 1;
    for (std::int64_t i = 0; i < pick && groups != kSaturated; ++i) {
      // Exact at each step: C(from, i+1) = C(from, i) * (from - i) / (i + 1).
      const std::int64_t product = saturating_mul(groups, from - i);
      groups = product == kSaturated ? kSaturated : product / (i + 1);
    }
    std::int64_t slots = saturating_mul(groups, k);
    slots = saturating_mul(slots, std::max(0, config.cycles));
    slots = saturating_mul(slots, std::max(0, config.openings.per_pairing));
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
               " (use fewer cycles, openings per pairing, engines or games)"};
}

Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config) {
  if (auto checked = check_schedule_size(config); !checked) return checked.failure();
  auto size = schedule_size(config);
  std::vector<Slot> slots;
  slots.reserve(static_cast<std::size_t>(*size));
  const int n = static_cast<int>(config.engines.size());
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return game.failure();
    const int k = game->num_players();
    if (n < k)
      return Error{"game " + spec + " needs " + std::to_string(k) +
                   " engines; the tournament has " + std::to_string(n)};
    // A gauntlet's groups are the first engine with every (k-1)-subset of the others, built as
    // such: filtering all k-subsets could build far more groups than the schedule holds.
    const bool gauntlet = config.format == "gauntlet";
    auto groups = combinations(gauntlet ? n - 1 : n, gauntlet ? k - 1 : k);
    if (gauntlet)
      for (auto& g : groups) {
        for (int& e : g) ++e;
        g.insert(g.begin(), 0);
      }
    int round = 0;
    for (int cycle = 0; cycle < config.cycles; ++cycle) {
      for (int o = 0; o < config.openings.per_pairing; ++o) {
        ++round;
        for (std::size_t g = 0; g < groups.size(); ++g) {
          // In 64 bits: cycle * 1000003 overflows an int from cycle 2148 on (cycles go to 100000).
          const auto c64 = static_cast<std::uint64_t>(cycle), o64 = static_cast<std::uint64_t>(o);
          std::uint64_t seed =
              mix(mix(mix(config.seed, text_seed(game->canonical())), c64 * 1000003u + o64),
                  static_cast<std::uint64_t>(g));
          std::size_t book_index =
              static_cast<std::size_t>(
                  c64 * static_cast<std::uint64_t>(config.openings.per_pairing) + o64) *
                  groups.size() +
              g;
          auto opening = make_opening(*game, config.openings, book_index, seed);
          if (!opening)
            return Error{"the opening of cycle " + std::to_string(cycle + 1) + ", pairing " +
                         std::to_string(g + 1) + ": " + opening.error()};
          for (int r = 0; r < k; ++r) {
            Slot slot;
            slot.index = static_cast<std::int64_t>(slots.size());
            slot.game = game->canonical();
            for (int s = 0; s < k; ++s)
              slot.seats.push_back(groups[g][static_cast<std::size_t>((s + r) % k)]);
            slot.opening = *opening;
            slot.cycle = cycle;
            slot.round = round;
            slots.push_back(std::move(slot));
          }
        }
      }
    }
  }
  return slots;
}

}  // namespace referee
