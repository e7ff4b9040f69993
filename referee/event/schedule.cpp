#include "event/schedule.h"

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

std::uint64_t text_seed(const std::string& text) {
  games::Hasher h;
  for (char c : text) h.add(static_cast<unsigned char>(c));
  return h.value();
}

}  // namespace

std::vector<std::string> make_opening(const games::Game& game, const OpeningSettings& settings,
                                      std::size_t book_index, std::uint64_t seed) {
  std::vector<std::string> base;
  if (!settings.book_lines.empty())
    base = settings.book_lines[book_index % settings.book_lines.size()];
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::mt19937_64 rng(mix(seed, static_cast<std::uint64_t>(attempt)));
    auto state = games::state_after(game, "", base);
    if (!state) return base;  // a bad book line is reported by the match (illegal opening move)
    std::vector<std::string> moves = base;
    for (int ply = 0; ply < settings.random_plies && !state->is_terminal(); ++ply) {
      std::string move;
      if (!state->setup_form().empty()) {
        move = state->sample_setup(rng());
      } else {
        auto legal = state->legal_moves();
        move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      }
      if (!state->apply(move)) break;
      moves.push_back(move);
    }
    if (!state->is_terminal()) return moves;
  }
  return base;
}

Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config) {
  std::vector<Slot> slots;
  const int n = static_cast<int>(config.engines.size());
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return Error{game.error()};
    const int k = game->num_players();
    if (n < k)
      return Error{"game " + spec + " needs " + std::to_string(k) +
                   " engines; the tournament has " + std::to_string(n)};
    auto groups = combinations(n, k);
    if (config.format == "gauntlet") {
      std::erase_if(groups, [](const std::vector<int>& g) { return g.front() != 0; });
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
          for (int r = 0; r < k; ++r) {
            Slot slot;
            slot.index = static_cast<std::int64_t>(slots.size());
            slot.game = game->canonical();
            for (int s = 0; s < k; ++s)
              slot.seats.push_back(groups[g][static_cast<std::size_t>((s + r) % k)]);
            slot.opening = opening;
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
