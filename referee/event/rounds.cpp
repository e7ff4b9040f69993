#include "event/rounds.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "event/event_spec.h"
#include "event/schedule.h"
#include "games/core.h"
#include "games/game.h"
#include "ratings/report.h"
#include "storage/results.h"

namespace referee::event {

namespace {

using storage::SlotRecord;
using storage::SlotState;

bool settled(const SlotRecord& s) {
  return s.state == SlotState::Done || s.state == SlotState::Skipped;
}

std::vector<std::string> players_of(const TournamentConfig& config) {
  if (config.format == "knockout" && !config.knockout.seeds.empty()) return config.knockout.seeds;
  std::vector<std::string> out;
  for (const auto& e : config.engines) out.push_back(e.config.name);
  return out;
}

std::uint64_t text_hash(const std::string& text) {
  games::Hasher h;
  for (char c : text) h.add(static_cast<unsigned char>(c));
  return h.value();
}

// The points of `name` in a finished two-player game.
double points_of(const storage::GameRecord& g, const std::string& name) {
  if (g.ranks.size() != 2 || g.players.size() != 2) return 0;
  const std::size_t s = g.players[0] == name ? 0 : 1;
  const int mine = g.ranks[s], other = g.ranks[1 - s];
  return mine < other ? 1.0 : mine == other ? 0.5 : 0.0;
}

// One pairing's games of one round as stored.
struct Stored {
  std::map<int, bool> pair_settled;  // by the pair's number in the match (`cycle`)
  double points[2] = {0, 0};         // of `names` below
  std::string names[2];              // seats[0] and seats[1] of its first slot
  bool all_settled = true;
};

// The slots grouped by round and pairing (the two engines, lower player number first).
using Pairings = std::map<int, std::map<std::pair<int, int>, Stored>>;

Pairings group(const std::vector<SlotRecord>& slots, const std::vector<storage::GameRecord>& games,
               const std::map<std::string, int>& number) {
  std::map<std::int64_t, const storage::GameRecord*> by_slot;
  for (const auto& g : games)
    if (g.slot >= 0) by_slot[g.slot] = &g;
  Pairings out;
  for (const auto& s : slots) {
    if (s.seats.size() != 2) continue;
    auto a = number.find(s.seats[0]), b = number.find(s.seats[1]);
    if (a == number.end() || b == number.end()) continue;
    const std::pair<int, int> key{std::min(a->second, b->second), std::max(a->second, b->second)};
    auto [it, made] = out[s.round].try_emplace(key);
    Stored& st = it->second;
    if (made) {
      st.names[0] = s.seats[0];
      st.names[1] = s.seats[1];
    }
    auto [p, fresh] = st.pair_settled.emplace(s.cycle, true);
    p->second = p->second && settled(s);
    st.all_settled = st.all_settled && settled(s);
    if (s.state != SlotState::Done) continue;
    if (auto g = by_slot.find(s.slot); g != by_slot.end())
      for (int k = 0; k < 2; ++k) st.points[k] += points_of(*g->second, st.names[k]);
  }
  return out;
}

std::string points_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  return buf;
}

// One game pair (both seatings of one opening) of every game of the event, appended to `out`.
Status add_pair(const TournamentConfig& config, const std::string& a, const std::string& b,
                int round, int position, int number, std::vector<SlotRecord>& out,
                std::int64_t& next_slot, int& next_pair) {
  for (const auto& spec : config.games) {
    auto game = games::make_game(spec);
    if (!game) return game.failure();
    games::Hasher h;
    for (std::uint64_t v : {static_cast<std::uint64_t>(config.seed), text_hash(spec),
                            static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(position),
                            static_cast<std::uint64_t>(number)})
      h.add(v);
    auto opening =
        make_opening(*game, config.openings, static_cast<std::size_t>(h.value() >> 1), h.value());
    if (!opening)
      return Error{"the opening of round " + std::to_string(round) + ", " + a + " vs " + b + ": " +
                   opening.error()};
    for (int seating = 0; seating < 2; ++seating) {
      SlotRecord s;
      s.slot = next_slot++;
      s.game = game->canonical();
      s.seats = seating == 0 ? std::vector<std::string>{a, b} : std::vector<std::string>{b, a};
      s.opening = *opening;
      s.cycle = number;
      s.round = round;
      s.pair = next_pair;
      out.push_back(std::move(s));
    }
    ++next_pair;
  }
  return Ok{};
}

}  // namespace

RoundsView rounds_view(const TournamentConfig& config, const std::vector<SlotRecord>& slots,
                       const std::vector<storage::GameRecord>& finished_games) {
  RoundsView v;
  v.players = players_of(config);
  std::map<std::string, int> number;
  for (std::size_t i = 0; i < v.players.size(); ++i) number[v.players[i]] = static_cast<int>(i);
  const Pairings pairings = group(slots, finished_games, number);
  const int field = static_cast<int>(v.players.size());
  if (config.format == "knockout") {
    MatchTallies tallies;
    for (const auto& [round, matches] : pairings)
      for (const auto& [key, st] : matches) {
        MatchTally t;
        t.pairs_scheduled = static_cast<int>(st.pair_settled.size());
        for (const auto& [n, ok] : st.pair_settled) t.pairs_settled += ok;
        // points[0] is the higher seed's (the lower number: key.first).
        const bool first_is_high = number[st.names[0]] == key.first;
        t.points[0] = first_is_high ? st.points[0] : st.points[1];
        t.points[1] = first_is_high ? st.points[1] : st.points[0];
        tallies[{round, key.first}] = t;
      }
    v.bracket =
        knockout_bracket(field, {config.knockout.pairs, config.knockout.tiebreak_pairs}, tallies);
    v.complete = v.bracket.champion >= 0;
    return v;
  }
  for (const auto& [round, matches] : pairings) {
    v.rounds_made = std::max(v.rounds_made, round);
    bool done = true;
    for (const auto& [key, st] : matches) done = done && st.all_settled;
    if (!done || round != static_cast<int>(v.played.size()) + 1) continue;
    SwissRoundPlayed r;
    std::set<int> present;
    for (const auto& [key, st] : matches) {
      SwissResult res;
      res.a = number[st.names[0]];
      res.b = number[st.names[1]];
      res.points_a = st.points[0];
      res.points_b = st.points[1];
      r.pairings.push_back(res);
      present.insert(key.first);
      present.insert(key.second);
    }
    for (int p = 0; p < field && field % 2 == 1; ++p)
      if (!present.count(p)) r.bye = p;
    v.played.push_back(std::move(r));
  }
  v.standings = swiss_standings(field, v.played);
  v.complete = static_cast<int>(v.played.size()) >= config.swiss.rounds;
  return v;
}

Expected<std::vector<SlotRecord>> due_slots(const TournamentConfig& config, const RoundsView& view,
                                            const std::vector<SlotRecord>& slots) {
  std::int64_t next_slot = 0;
  int next_pair = 0;
  for (const auto& s : slots) {
    next_slot = std::max(next_slot, s.slot + 1);
    next_pair = std::max(next_pair, s.pair + 1);
  }
  std::vector<SlotRecord> out;
  if (config.format == "knockout") {
    for (const auto& w :
         knockout_wanted(view.bracket, {config.knockout.pairs, config.knockout.tiebreak_pairs}))
      for (int k = w.first_pair; k < w.first_pair + w.count; ++k)
        if (Status ok = add_pair(config, view.players[static_cast<std::size_t>(w.seeds[0])],
                                 view.players[static_cast<std::size_t>(w.seeds[1])], w.round,
                                 w.position, k, out, next_slot, next_pair);
            !ok)
          return ok.failure();
    return out;
  }
  const int played = static_cast<int>(view.played.size());
  if (view.complete || view.rounds_made > played) return out;  // over, or a round in progress
  const SwissRoundPlan plan = swiss_pairing(static_cast<int>(view.players.size()), view.played);
  for (std::size_t i = 0; i < plan.pairings.size(); ++i) {
    const auto [a, b] = plan.pairings[i];
    if (Status ok = add_pair(config, view.players[static_cast<std::size_t>(a)],
                             view.players[static_cast<std::size_t>(b)], played + 1,
                             static_cast<int>(i), 0, out, next_slot, next_pair);
        !ok)
      return ok.failure();
  }
  return out;
}

Expected<std::vector<SlotRecord>> first_round(const TournamentConfig& config) {
  return due_slots(config, rounds_view(config, {}, {}), {});
}

Expected<std::vector<std::string>> rating_seeds(storage::Store& store,
                                                const TournamentConfig& config) {
  auto results = storage::aggregate_results(store, storage::GameQuery{});
  if (!results) return results.failure();
  // The table's order: best first, an engine that won every game (a lower bound) above the
  // finite ratings and one that lost every game below them; the main group first.
  std::map<std::string, int> rank;
  const auto reports = ratings::rating_reports(std::move(*results), ratings::ReportOptions{});
  if (!reports.empty())  // the "all games" table when there are several
    for (const auto& g : reports.back().table.groups)
      for (const auto& r : g.ratings)
        if (r.bound != ratings::Bound::kUnrated)
          rank.emplace(r.name, static_cast<int>(rank.size()));
  std::vector<std::string> rated, unrated;
  for (const auto& e : config.engines)
    (rank.count(e.config.name) ? rated : unrated).push_back(e.config.name);
  std::sort(rated.begin(), rated.end(),
            [&](const std::string& a, const std::string& b) { return rank[a] < rank[b]; });
  rated.insert(rated.end(), unrated.begin(), unrated.end());
  return rated;
}

Status fill_seeds(storage::Store& store, TournamentConfig& config) {
  if (config.format != "knockout" || config.knockout.seeding != "rating") return Ok{};
  auto stored = storage::work_queue::event_named(store, config.name);
  if (!stored) return stored.failure();
  if (*stored)
    if (auto was = config_from_spec((*stored)->spec); was && was->format == "knockout")
      config.knockout.seeds = was->knockout.seeds;
  if (!config.knockout.seeds.empty()) return Ok{};
  auto seeds = rating_seeds(store, config);
  if (!seeds) return seeds.failure();
  config.knockout.seeds = std::move(*seeds);
  return Ok{};
}

namespace {

// What an event's rounds are seen from: its slots and its stored games.
struct StoredRounds {
  std::vector<SlotRecord> slots;
  std::vector<storage::GameRecord> games;
};

Expected<StoredRounds> read_stored(storage::Store& store, std::int64_t event) {
  auto slots = storage::work_queue::slots(store, event);
  if (!slots) return slots.failure();
  storage::GameFilter filter;
  filter.event_id = event;
  auto games = store.games(filter);
  if (!games) return games.failure();
  return StoredRounds{std::move(*slots), std::move(*games)};
}

}  // namespace

Expected<RoundsView> read_rounds(storage::Store& store, std::int64_t event,
                                 const TournamentConfig& config) {
  auto stored = read_stored(store, event);
  if (!stored) return stored.failure();
  return rounds_view(config, stored->slots, stored->games);
}

Expected<int> advance_rounds(storage::Store& store, std::int64_t event,
                             const TournamentConfig& config) {
  // Read and appended under the writers' lock: an owner that finished a round's last game beside
  // another reads what that one committed (storage::work_queue::decide_exclusively).
  return storage::work_queue::decide_exclusively(store, [&]() -> Expected<int> {
    auto stored = read_stored(store, event);
    if (!stored) return stored.failure();
    auto due = due_slots(config, rounds_view(config, stored->slots, stored->games), stored->slots);
    if (!due) return due.failure();
    if (due->empty()) return 0;
    auto added = storage::work_queue::append_slots(store, event, *due, due->front().slot);
    if (!added) {
      if (added.kind() == ErrorKind::Conflict) return 0;  // another owner added them
      return added.failure();
    }
    return static_cast<int>(added->size());
  });
}

namespace {

std::string seed_name(const RoundsView& v, int seed) {
  return "#" + std::to_string(seed + 1) + " " + v.players[static_cast<std::size_t>(seed)];
}

std::string bracket_text(const TournamentConfig& config, const RoundsView& v) {
  const Bracket& b = v.bracket;
  std::string out = "knockout: " + std::to_string(b.field) + " engines, " +
                    std::to_string(config.knockout.pairs) + " game pair(s) a match, up to " +
                    std::to_string(config.knockout.tiebreak_pairs) + " tie-break pair(s)\n";
  const int rounds = static_cast<int>(b.rounds.size());
  for (int r = 0; r < rounds; ++r) {
    const int left = rounds - r;
    out += left == 1   ? "final\n"
           : left == 2 ? "semi-finals\n"
                       : "round " + std::to_string(r + 1) + "\n";
    for (const auto& m : b.rounds[static_cast<std::size_t>(r)]) {
      std::string line = "  ";
      switch (m.state) {
        case MatchState::Bye:
          line += seed_name(v, m.seeds[0]) + ": bye";
          break;
        case MatchState::Waiting:
          line += (m.seeds[0] >= 0 ? seed_name(v, m.seeds[0]) : std::string("?")) + " vs ?";
          break;
        case MatchState::Playing:
        case MatchState::Decided: {
          const MatchTally& t = m.tally;
          line += seed_name(v, m.seeds[0]) + " " + points_text(t.points[0]) + " - " +
                  points_text(t.points[1]) + " " + seed_name(v, m.seeds[1]) + "  (" +
                  std::to_string(t.pairs_settled) + "/" + std::to_string(t.pairs_scheduled) +
                  " pairs";
          if (t.pairs_scheduled > config.knockout.pairs)
            line += ", " + std::to_string(t.pairs_scheduled - config.knockout.pairs) + " tie-break";
          line += ")";
          if (m.state == MatchState::Decided)
            line += ": " + v.players[static_cast<std::size_t>(m.winner)] +
                    (m.by_seed ? " advances as the higher seed" : " wins");
          else
            line += ": playing";
          break;
        }
      }
      out += line + "\n";
    }
  }
  if (b.champion >= 0) out += "winner: " + v.players[static_cast<std::size_t>(b.champion)] + "\n";
  return out;
}

std::string swiss_text(const TournamentConfig& config, const RoundsView& v) {
  std::string out = "swiss: " + std::to_string(v.players.size()) + " engines, round " +
                    std::to_string(v.played.size()) + " of " + std::to_string(config.swiss.rounds) +
                    " finished\n";
  for (std::size_t r = 0; r < v.played.size(); ++r) {
    out += "round " + std::to_string(r + 1) + ":";
    for (const auto& p : v.played[r].pairings)
      out += "  " + v.players[static_cast<std::size_t>(p.a)] + " " + points_text(p.points_a) + "-" +
             points_text(p.points_b) + " " + v.players[static_cast<std::size_t>(p.b)];
    if (v.played[r].bye >= 0)
      out += "  bye " + v.players[static_cast<std::size_t>(v.played[r].bye)];
    out += "\n";
  }
  std::size_t width = 6;
  for (const auto& p : v.players) width = std::max(width, p.size());
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-*s  %5s  %8s  %7s  %6s  %4s\n", "rank",
                static_cast<int>(width), "engine", "score", "buchholz", "s-b", "games", "byes");
  out += line;
  for (std::size_t i = 0; i < v.standings.size(); ++i) {
    const auto& s = v.standings[i];
    std::snprintf(line, sizeof line, "%4zu  %-*s  %5g  %8g  %7g  %6g  %4d\n", i + 1,
                  static_cast<int>(width), v.players[static_cast<std::size_t>(s.player)].c_str(),
                  s.score, s.buchholz, s.sonneborn_berger, s.game_points, s.byes);
    out += line;
  }
  return out;
}

}  // namespace

std::string rounds_text(const TournamentConfig& config, const RoundsView& view) {
  return config.format == "knockout" ? bracket_text(config, view) : swiss_text(config, view);
}

nlohmann::json rounds_json(const TournamentConfig& config, const RoundsView& v) {
  using nlohmann::json;
  json j;
  j["format"] = config.format;
  j["complete"] = v.complete;
  auto name = [&](int p) -> json {
    return p >= 0 ? json(v.players[static_cast<std::size_t>(p)]) : json(nullptr);
  };
  if (config.format == "knockout") {
    j["pairs"] = config.knockout.pairs;
    j["tiebreak_pairs"] = config.knockout.tiebreak_pairs;
    j["seeds"] = v.players;
    j["rounds"] = json::array();
    for (const auto& round : v.bracket.rounds) {
      json matches = json::array();
      for (const auto& m : round) {
        static const char* const kState[] = {"waiting", "bye", "playing", "decided"};
        matches.push_back({{"position", m.position},
                           {"state", kState[static_cast<int>(m.state)]},
                           {"engines", {name(m.seeds[0]), name(m.seeds[1])}},
                           {"points", {m.tally.points[0], m.tally.points[1]}},
                           {"pairs_scheduled", m.tally.pairs_scheduled},
                           {"pairs_settled", m.tally.pairs_settled},
                           {"winner", name(m.winner)},
                           {"by_seed", m.by_seed}});
      }
      j["rounds"].push_back(std::move(matches));
    }
    j["champion"] = name(v.bracket.champion);
    return j;
  }
  j["rounds_total"] = config.swiss.rounds;
  j["rounds"] = json::array();
  for (const auto& r : v.played) {
    json pairings = json::array();
    for (const auto& p : r.pairings)
      pairings.push_back(
          {{"engines", {name(p.a), name(p.b)}}, {"points", {p.points_a, p.points_b}}});
    j["rounds"].push_back({{"pairings", pairings}, {"bye", name(r.bye)}});
  }
  j["standings"] = json::array();
  for (const auto& s : v.standings)
    j["standings"].push_back({{"engine", name(s.player)},
                              {"score", s.score},
                              {"buchholz", s.buchholz},
                              {"sonneborn_berger", s.sonneborn_berger},
                              {"game_points", s.game_points},
                              {"byes", s.byes}});
  return j;
}

}  // namespace referee::event
