// referee/schedule: round-robin and gauntlet counts, both seats per pair with the same opening,
// k-player seatings (every k-subset in k rotations, each engine in each seat equally often),
// openings reproducible from the seed and different across pairings, book lines, and never an
// opening that ends the game. The generator and the batches that store an event equal the whole
// schedule as it was built before, for every shape.
#include <catch2/catch.hpp>
#include <limits>
#include <map>
#include <set>

#include "games/core.h"
#include "games/game.h"
#include "referee/event/event_spec.h"
#include "referee/event/schedule.h"

using namespace referee;
using namespace referee::event;

namespace {

TournamentConfig config_with(int engines, const std::string& game, int cycles) {
  TournamentConfig c;
  c.name = "t";
  c.games = {game};
  c.cycles = cycles;
  for (int i = 0; i < engines; ++i) {
    TournamentEngine e;
    e.config.name = "e" + std::to_string(i);
    e.config.command = "/bin/true";
    c.engines.push_back(e);
  }
  return c;
}

std::vector<Slot> schedule_of(const TournamentConfig& c) {
  auto s = make_schedule(c);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

bool ends_game(const std::string& spec, const std::vector<std::string>& opening) {
  auto game = games::make_game(spec);
  REQUIRE(game.ok());
  auto state = games::state_after(*game, "", opening);
  REQUIRE(state.ok());
  return state->is_terminal();
}

}  // namespace

TEST_CASE("schedule: a round robin of n engines and c cycles has n(n-1)c games") {
  for (int n = 2; n <= 5; ++n) {
    for (int c = 1; c <= 3; ++c) {
      auto slots = schedule_of(config_with(n, "awale", c));
      INFO("n=" << n << " c=" << c);
      CHECK(slots.size() == static_cast<std::size_t>(n * (n - 1) * c));
      // Every ordered pairing (who plays first) exactly c times.
      std::map<std::pair<int, int>, int> count;
      for (const auto& s : slots) {
        REQUIRE(s.seats.size() == 2);
        CHECK(s.seats[0] != s.seats[1]);
        ++count[{s.seats[0], s.seats[1]}];
      }
      CHECK(count.size() == static_cast<std::size_t>(n * (n - 1)));
      for (const auto& [pair, k] : count) CHECK(k == c);
    }
  }
}

TEST_CASE("schedule: slots are numbered in order, with the canonical game and cycles") {
  auto c = config_with(3, "awale", 2);
  auto slots = schedule_of(c);
  auto game = games::make_game("awale");
  for (std::size_t i = 0; i < slots.size(); ++i) {
    CHECK(slots[i].index == static_cast<std::int64_t>(i));
    CHECK(slots[i].game == game->canonical());
    CHECK(slots[i].cycle == (i < slots.size() / 2 ? 0 : 1));
    CHECK(slots[i].round == slots[i].cycle + 1);
  }
}

TEST_CASE("schedule: each pair plays both seats with the same opening") {
  auto c = config_with(4, "awale", 2);
  c.openings.random_plies = 4;
  auto slots = schedule_of(c);
  REQUIRE(slots.size() % 2 == 0);
  for (std::size_t i = 0; i < slots.size(); i += 2) {
    const auto& a = slots[i];
    const auto& b = slots[i + 1];
    CHECK(a.seats[0] == b.seats[1]);
    CHECK(a.seats[1] == b.seats[0]);
    CHECK(a.opening == b.opening);
    CHECK(a.opening.size() == 4);
  }
}

TEST_CASE("schedule: openings are reproducible from the seed and differ across pairings") {
  auto c = config_with(4, "awale", 2);
  c.openings.random_plies = 6;
  c.seed = 12345;
  auto first = schedule_of(c);
  auto again = schedule_of(c);
  std::set<std::vector<std::string>> distinct;
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].opening == again[i].opening);
    CHECK(first[i].seats == again[i].seats);
    distinct.insert(first[i].opening);
  }
  // 6 pairings x 2 cycles, each opening shared by its two seatings only.
  CHECK(distinct.size() == first.size() / 2);
  c.seed = 12346;
  auto other = schedule_of(c);
  int differ = 0;
  for (std::size_t i = 0; i < first.size(); ++i) differ += first[i].opening != other[i].opening;
  CHECK(differ > static_cast<int>(first.size()) / 2);
  // The game is part of the seed: another game string, other openings.
  c.seed = 12345;
  c.games = {"awale-v1"};
  auto v1 = schedule_of(c);
  CHECK(v1[0].opening != first[0].opening);
}

TEST_CASE("schedule: a gauntlet pairs the first engine with every other") {
  auto c = config_with(4, "awale", 3);
  c.format = "gauntlet";
  auto slots = schedule_of(c);
  CHECK(slots.size() == 3u * 2u * 3u);
  std::map<std::pair<int, int>, int> count;
  for (const auto& s : slots) {
    CHECK((s.seats[0] == 0 || s.seats[1] == 0));
    ++count[{s.seats[0], s.seats[1]}];
  }
  CHECK(count.size() == 6u);
  for (const auto& [pair, k] : count) CHECK(k == 3);
}

TEST_CASE("schedule: three-player oware with four engines, every seating in turn") {
  auto c = config_with(4, "oware:players=3", 1);
  c.openings.random_plies = 3;
  auto slots = schedule_of(c);
  REQUIRE(slots.size() == 4u * 3u);  // C(4,3) subsets x 3 rotations
  int seat_count[4][3] = {};
  std::set<std::set<int>> subsets;
  for (std::size_t i = 0; i < slots.size(); i += 3) {
    const auto& base = slots[i].seats;
    REQUIRE(base.size() == 3);
    std::set<int> members(base.begin(), base.end());
    CHECK(members.size() == 3);
    subsets.insert(members);
    for (std::size_t r = 0; r < 3; ++r) {
      const auto& s = slots[i + r];
      CHECK(s.opening == slots[i].opening);
      for (std::size_t seat = 0; seat < 3; ++seat) {
        CHECK(s.seats[seat] == base[(seat + r) % 3]);  // a rotation of the subset
        ++seat_count[s.seats[seat]][seat];
      }
    }
  }
  CHECK(subsets.size() == 4u);
  for (int e = 0; e < 4; ++e)
    for (int seat = 0; seat < 3; ++seat) {
      INFO("engine " << e << " seat " << seat);
      CHECK(seat_count[e][seat] == 3);
    }
}

TEST_CASE("schedule: per_pairing openings and several games") {
  auto c = config_with(3, "awale", 1);
  c.games = {"awale", "kalaha"};
  c.openings.per_pairing = 2;
  c.openings.random_plies = 2;
  auto slots = schedule_of(c);
  CHECK(slots.size() == 2u * 3u * 2u * 2u);  // games x pairs x openings x seatings
  CHECK(slots.front().game.rfind("awale:", 0) == 0);
  CHECK(slots.back().game.rfind("kalaha:", 0) == 0);
  CHECK(slots.back().round == 2);
  CHECK(slots[0].opening != slots[6].opening);  // same pair, second opening
}

TEST_CASE("schedule: book lines come first, one per pairing, in turn") {
  auto c = config_with(3, "awale", 1);
  c.openings.book_lines = {{"1"}, {"2", "8"}};
  c.openings.random_plies = 1;
  auto slots = schedule_of(c);
  REQUIRE(slots.size() == 6u);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const auto& line = c.openings.book_lines[(i / 2) % 2];
    REQUIRE(slots[i].opening.size() == line.size() + 1);
    CHECK(std::equal(line.begin(), line.end(), slots[i].opening.begin()));
  }
}

TEST_CASE("schedule: an opening never ends the game") {
  auto game = games::make_game("awale");
  REQUIRE(game.ok());
  OpeningSettings settings;
  settings.random_plies = 120;  // long random lines often end an awale game
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    auto opening = make_opening(*game, settings, 0, seed);
    REQUIRE(opening.ok());
    CHECK(opening->size() == 120u);
    CHECK_FALSE(ends_game("awale", *opening));
    CHECK(*opening == *make_opening(*game, settings, 0, seed));
  }
}

TEST_CASE("schedule: an opening that cannot be made is an error, not an empty opening") {
  // Every line of 5 random plies ends a game of 5 plies.
  auto short_game = games::make_game("awale:maxplies=5");
  REQUIRE(short_game.ok());
  OpeningSettings settings;
  settings.random_plies = 5;
  auto opening = make_opening(*short_game, settings, 0, 7);
  REQUIRE_FALSE(opening.ok());
  CHECK(opening.error() == "5 random plies after the start ended every one of 100 games of " +
                               short_game->canonical() + " tried");
  // The schedule refuses too, before building anything.
  auto c = config_with(2, "awale:maxplies=5", 1);
  c.openings.random_plies = 5;
  auto s = make_schedule(c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().find("the opening of cycle 1, pairing 1: 5 random plies") != std::string::npos);
  // A book line the game refuses, or one that ends it.
  settings.random_plies = 0;
  settings.book_lines = {{"1", "7"}, {"9"}};
  auto awale = games::make_game("awale");
  CHECK(make_opening(*awale, settings, 0, 1).ok());
  auto illegal = make_opening(*awale, settings, 1, 1);
  REQUIRE_FALSE(illegal.ok());
  CHECK(illegal.error().rfind("book line 2 is illegal in awale:", 0) == 0);
  settings.book_lines = {{"1", "7", "2", "8", "3"}};
  auto ends = make_opening(*short_game, settings, 0, 1);
  REQUIRE_FALSE(ends.ok());
  CHECK(ends.error() == "book line 1 ends the game of " + short_game->canonical());
}

TEST_CASE("schedule: random plies the game cannot play are refused, with the bound") {
  auto short_game = games::make_game("awale:maxplies=5");
  REQUIRE(short_game.ok());
  OpeningSettings settings;
  settings.random_plies = 4;
  CHECK(check_random_plies(*short_game, settings).ok());
  settings.random_plies = 5;
  auto five = check_random_plies(*short_game, settings);
  REQUIRE_FALSE(five.ok());
  CHECK(five.error() == "random_plies 5 is too many for " + short_game->canonical() +
                            ": its games end at maxplies=5, so at most 4 random plies fit");
  settings.book_lines = {{"1"}, {"2", "8", "3"}};
  settings.random_plies = 2;
  auto with_book = check_random_plies(*short_game, settings);
  REQUIRE_FALSE(with_book.ok());
  CHECK(
      with_book.error().find("the longest book line has 3 plies, so at most 1 random plies fit") !=
      std::string::npos);

  // Awale's 2000-ply cap is far away, but random play ends an awale game long before 900 plies.
  auto awale = games::make_game("awale");
  OpeningSettings many;
  many.random_plies = 900;
  auto refused = check_random_plies(*awale, many);
  REQUIRE_FALSE(refused.ok());
  INFO(refused.error());
  const std::string marker = "; at most ";
  const auto at = refused.error().find(marker);
  REQUIRE(at != std::string::npos);
  CHECK(refused.error().rfind("random_plies 900 is too many for awale:", 0) == 0);
  const int bound = std::stoi(refused.error().substr(at + marker.size()));
  CHECK(bound > 20);
  CHECK(bound < 900);
  many.random_plies = bound;  // the bound it states works
  CHECK(check_random_plies(*awale, many).ok());
}

TEST_CASE("schedule: the size is computed from the counts and matches the schedule") {
  struct Case {
    int engines;
    const char* game;
    const char* format;
    int cycles, per_pairing;
  };
  const Case cases[] = {
      {2, "awale", "round-robin", 1, 1},        {5, "awale", "round-robin", 3, 2},
      {5, "awale", "gauntlet", 2, 3},           {4, "oware:players=3", "round-robin", 2, 1},
      {6, "oware:players=4", "gauntlet", 1, 2}, {6, "oware:players=6", "round-robin", 1, 1},
      {7, "oware:players=3", "gauntlet", 1, 1},
  };
  for (const auto& k : cases) {
    auto c = config_with(k.engines, k.game, k.cycles);
    c.format = k.format;
    c.openings.per_pairing = k.per_pairing;
    INFO(k.engines << " engines, " << k.game << ", " << k.format);
    auto size = schedule_size(c);
    REQUIRE(size.ok());
    CHECK(*size == static_cast<std::int64_t>(schedule_of(c).size()));
  }
  auto two = config_with(3, "awale", 2);
  two.games = {"awale", "oware:players=3"};
  CHECK(*schedule_size(two) == static_cast<std::int64_t>(schedule_of(two).size()));
  CHECK(*schedule_size(two) == 3 * 2 * 2 + 1 * 3 * 2);
}

TEST_CASE("schedule: a schedule beyond the cap is refused with its size, before it is built") {
  // 2 engines x 2 seatings x 100000 cycles x 10000 openings: 2 * 10^9 slots (3.4 GB once).
  auto c = config_with(2, "awale", 100000);
  c.openings.per_pairing = 10000;
  auto size = schedule_size(c);
  REQUIRE(size.ok());
  CHECK(*size == 2000000000);
  auto s = make_schedule(c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().rfind("the schedule has 2000000000 games", 0) == 0);
  CHECK(s.error().find("at most 1000000") != std::string::npos);
  // Just over the cap, and just under it.
  c.openings.per_pairing = 1;
  c.cycles = 500001;
  CHECK(*schedule_size(c) == 1000002);
  CHECK_FALSE(make_schedule(c).ok());
  // Counts whose product overflows 64 bits saturate instead of wrapping.
  auto huge = config_with(300, "oware:players=6", 1000000);
  huge.openings.per_pairing = 1000000;
  CHECK(*schedule_size(huge) == std::numeric_limits<std::int64_t>::max());
  auto refused = make_schedule(huge);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("more than 9.2 * 10^18 games") != std::string::npos);
  // C(10000, 6) alone is beyond 64 bits: the count of groups saturates and stays saturated.
  auto crowd = config_with(10000, "oware:players=6", 1);
  CHECK(*schedule_size(crowd) == std::numeric_limits<std::int64_t>::max());
  CHECK(check_schedule_size(crowd).error() ==
        "the schedule has more than 9.2 * 10^18 games; an event holds at most 1000000 (use "
        "fewer cycles, openings per pairing, engines or games)");
  // Negative counts (only possible through the API) count no games instead of wrapping.
  auto negative = config_with(2, "awale", -3);
  CHECK(*schedule_size(negative) == 0);
  CHECK(make_schedule(negative)->empty());
}

TEST_CASE("schedule: a gauntlet of many engines builds only the groups it plays") {
  auto c = config_with(400, "oware:players=3", 1);
  c.format = "gauntlet";
  // C(399, 2) groups of the first engine with two others, in three rotations; all 3-subsets of
  // 400 engines would be 10.6 million groups.
  auto slots = schedule_of(c);
  CHECK(slots.size() == 399u * 398u / 2u * 3u);
  for (std::size_t i = 0; i < slots.size(); i += 3) CHECK(slots[i].seats[0] == 0);
}

TEST_CASE("schedule: errors name the game") {
  auto c = config_with(2, "oware:players=3", 1);
  auto s = make_schedule(c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().find("needs 3 engines") != std::string::npos);
  c.games = {"chess"};
  s = make_schedule(c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().find("chess") != std::string::npos);
}

TEST_CASE("schedule: thousands of cycles (seeds computed in 64 bits)") {
  auto c = config_with(2, "awale", 3000);
  c.openings.random_plies = 1;
  auto slots = schedule_of(c);
  REQUIRE(slots.size() == 6000u);
  CHECK(slots.back().cycle == 2999);
  CHECK(slots.back().round == 3000);
  std::set<std::vector<std::string>> late;
  for (std::size_t i = 5000; i < 6000; i += 2) late.insert(slots[i].opening);
  CHECK(late.size() == 6u);  // every first move of awale appears among 500 late pairings
}

namespace {

// The schedule as make_schedule built it whole before ScheduleGenerator: the oracle the generator
// must match slot for slot (same order, seats, openings, cycles and rounds).
std::vector<Slot> whole_schedule_as_before(const TournamentConfig& config) {
  auto mix = [](std::uint64_t a, std::uint64_t b) {
    games::Hasher h;
    h.add(a);
    h.add(b);
    return h.value();
  };
  auto text_seed = [](const std::string& text) {
    games::Hasher h;
    for (char c : text) h.add(static_cast<unsigned char>(c));
    return h.value();
  };
  auto combinations = [](int n, int k) {
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
  };
  std::vector<Slot> slots;
  const int n = static_cast<int>(config.engines.size());
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    REQUIRE(game.ok());
    const int k = game->num_players();
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
          REQUIRE(opening.ok());
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

bool same_slot(const Slot& a, const Slot& b) {
  return a.index == b.index && a.game == b.game && a.seats == b.seats && a.opening == b.opening &&
         a.cycle == b.cycle && a.round == b.round;
}

bool same_record(const storage::SlotRecord& a, const storage::SlotRecord& b) {
  return a.slot == b.slot && a.game == b.game && a.seats == b.seats && a.opening == b.opening &&
         a.cycle == b.cycle && a.round == b.round && a.pair == b.pair;
}

// Shapes of schedule: openings (random plies, book lines, several per pairing), seatings of
// three-player games, gauntlets, several games (one listed twice), and no cycle at all.
std::vector<std::pair<std::string, TournamentConfig>> schedule_shapes() {
  std::vector<std::pair<std::string, TournamentConfig>> out;
  auto openings = config_with(2, "awale", 3);
  openings.openings.random_plies = 2;
  openings.openings.per_pairing = 2;
  out.emplace_back("2 engines, random openings, 2 per pairing", openings);
  auto book = config_with(3, "awale", 2);
  book.openings.book_lines = {{"1"}, {"2", "8"}, {"3"}};
  book.openings.random_plies = 1;
  out.emplace_back("3 engines, book lines and random plies", book);
  out.emplace_back("4 engines, three-player seatings", config_with(4, "oware:players=3", 2));
  auto gauntlet = config_with(5, "awale", 2);
  gauntlet.format = "gauntlet";
  gauntlet.games = {"awale", "oware:players=3", "kalaha"};
  gauntlet.openings.per_pairing = 3;
  gauntlet.openings.random_plies = 1;
  out.emplace_back("a gauntlet of 5 engines over three games", gauntlet);
  auto twice = config_with(2, "awale", 1);
  twice.games = {"awale", "awale"};
  out.emplace_back("one game listed twice, one cycle", twice);
  auto six = config_with(6, "oware:players=6", 2);
  six.games = {"oware:players=6", "awale"};
  out.emplace_back("six-player oware, then awale", six);
  out.emplace_back("no cycle", config_with(3, "awale", 0));
  return out;
}

}  // namespace

TEST_CASE("schedule: the generator makes the whole schedule as it was built before") {
  for (const auto& [shape, c] : schedule_shapes()) {
    INFO(shape);
    auto gen = ScheduleGenerator::start(c);
    REQUIRE(gen.ok());
    const auto expected = whole_schedule_as_before(c);
    CHECK(gen->size() == static_cast<std::int64_t>(expected.size()));
    std::size_t i = 0;
    Slot slot;
    while (true) {
      auto more = gen->next(slot);
      REQUIRE(more.ok());
      if (!*more) break;
      REQUIRE(i < expected.size());
      INFO("slot " << i);
      CHECK(same_slot(slot, expected[i]));
      ++i;
    }
    CHECK(i == expected.size());
    CHECK_FALSE(*gen->next(slot));  // and stays at its end
  }
}

TEST_CASE("schedule: slot batches of any size equal the whole schedule's slot records") {
  for (const auto& [shape, c] : schedule_shapes()) {
    const auto whole = slot_records(c, schedule_of(c));
    for (std::size_t size : {std::size_t{1}, std::size_t{7}, kSlotBatch}) {
      INFO(shape << ", batches of " << size);
      auto batches = slot_batches(c, size);
      REQUIRE(batches.ok());
      std::vector<storage::SlotRecord> all, batch;
      while (true) {
        batch.clear();
        REQUIRE((*batches)(batch).ok());
        if (batch.empty()) break;
        CHECK(batch.size() <= size);
        all.insert(all.end(), batch.begin(), batch.end());
      }
      REQUIRE(all.size() == whole.size());
      for (std::size_t i = 0; i < all.size(); ++i) {
        INFO("slot " << i);
        CHECK(same_record(all[i], whole[i]));
      }
    }
  }
}

TEST_CASE("schedule: slot batches refuse what make_schedule refuses, before making any") {
  auto c = config_with(2, "awale", 500001);
  auto refused = slot_batches(c);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().rfind("the schedule has 1000002 games", 0) == 0);
  c.cycles = 1;
  c.games = {"oware:players=3"};
  CHECK(slot_batches(c).error().find("needs 3 engines") != std::string::npos);
  // An opening that cannot be made is an error of the batch that reaches it.
  auto ends = config_with(2, "awale:maxplies=5", 1);
  ends.openings.random_plies = 5;
  auto batches = slot_batches(ends);
  REQUIRE(batches.ok());
  std::vector<storage::SlotRecord> batch;
  auto made = (*batches)(batch);
  REQUIRE_FALSE(made.ok());
  CHECK(made.error().find("the opening of cycle 1, pairing 1") != std::string::npos);
}

TEST_CASE("schedule: a knockout or Swiss has a bound for a size and no schedule made in advance") {
  // Three engines over two Swiss rounds: one match of two games a round (the third sits out).
  auto swiss = config_with(3, "awale", 1);
  swiss.format = "swiss";
  swiss.swiss.rounds = 2;
  CHECK(*schedule_size(swiss) == 1 * 2 * 2);
  auto refused = make_schedule(swiss);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() ==
        "a swiss event has no schedule made in advance: its rounds are paired from the results");
  // A knockout of four: three matches of at most pairs + tiebreak_pairs pairs.
  auto knockout = config_with(4, "awale", 1);
  knockout.format = "knockout";
  knockout.knockout.pairs = 2;
  knockout.knockout.tiebreak_pairs = 1;
  CHECK(*schedule_size(knockout) == 3 * (2 + 1) * 2);
  CHECK_FALSE(ScheduleGenerator::start(knockout).ok());
}
