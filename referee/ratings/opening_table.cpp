// Results by opening (opening_table.h).
#include "ratings/opening_table.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "storage/pair_stream.h"
#include "storage/results.h"

namespace referee::ratings {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Moves compared as numbers where both are ("9" before "10"), as text otherwise.
bool move_less(const std::string& a, const std::string& b) {
  if (all_digits(a) && all_digits(b) && a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

std::string joined(const std::vector<std::string>& moves) {
  std::string out;
  for (const auto& m : moves) out += (out.empty() ? "" : " ") + m;
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void OpeningTally::add(const std::string& game, const std::vector<std::string>& opening,
                       const std::vector<std::string>& engines, const std::vector<int>& ranks) {
  if (engines.size() != 2 || ranks.size() != 2) {
    ++skipped_;
    return;
  }
  Row& row = rows_[{game, opening}];
  ++row.games;
  const double first = ranks[0] < ranks[1] ? 1.0 : ranks[0] > ranks[1] ? 0.0 : 0.5;
  if (first == 1.0) ++row.seat_wins[0];
  if (first == 0.0) ++row.seat_wins[1];
  if (first == 0.5) ++row.draws;
  for (int seat = 0; seat < 2; ++seat) {
    OpeningEngine& e = row.engines[engines[static_cast<std::size_t>(seat)]];
    e.name = engines[static_cast<std::size_t>(seat)];
    ++e.games;
    e.points += seat == 0 ? first : 1 - first;
  }
}

OpeningTable OpeningTally::table() const {
  OpeningTable out;
  out.skipped = skipped_;
  for (const auto& [key, row] : rows_) {
    OpeningRow r;
    r.game = key.first;
    r.opening = key.second;
    r.games = row.games;
    r.draws = row.draws;
    r.seat_wins[0] = row.seat_wins[0];
    r.seat_wins[1] = row.seat_wins[1];
    for (const auto& [name, e] : row.engines) r.engines.push_back(e);
    out.rows.push_back(std::move(r));
  }
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const OpeningRow& a, const OpeningRow& b) {
    if (a.game != b.game) return a.game < b.game;
    return std::lexicographical_compare(a.opening.begin(), a.opening.end(), b.opening.begin(),
                                        b.opening.end(), move_less);
  });
  return out;
}

Expected<OpeningTable> opening_table(storage::Store& store, const storage::GameQuery& query) {
  OpeningTally tally;
  storage::TwoPlayerNames names;
  auto visited = storage::for_each_two_player_result(
      store, query, names, [&](const storage::TwoPlayerResult& r) -> Status {
        auto moves = nlohmann::json::parse(r.opening, nullptr, false);
        if (!moves.is_array() ||
            !std::all_of(moves.begin(), moves.end(), [](const auto& m) { return m.is_string(); }))
          return Error{
              "game " + std::to_string(r.id) + ": its stored opening is not a list of moves",
              ErrorKind::Invalid};
        tally.add(names.games[r.game], moves.get<std::vector<std::string>>(),
                  {names.engines[r.engines[0]], names.engines[r.engines[1]]},
                  {r.ranks[0], r.ranks[1]});
        return Ok{};
      });
  if (!visited) return visited.failure();
  OpeningTable table = tally.table();
  auto results = storage::aggregate_results(store, query);
  if (!results) return results.failure();
  for (const auto& p : results->patterns)
    if (p.players != 2) table.skipped += p.count;
  return table;
}

OpeningTable opening_table(const std::vector<storage::GameRecord>& games) {
  OpeningTally tally;
  for (const auto& g : games)
    if (g.status == storage::GameStatus::Finished && g.ranks.size() == g.players.size())
      tally.add(g.game, g.opening, g.players, g.ranks);
  return tally.table();
}

std::string opening_table_text(const OpeningTable& table) {
  std::ostringstream out;
  std::string game;
  for (const auto& r : table.rows) {
    if (r.game != game) {
      game = r.game;
      out << (out.tellp() > 0 ? "\n" : "") << game << ", by opening\n";
      out << "opening                games  seat 1  draws  seat 2  points\n";
    }
    const std::string opening = r.opening.empty() ? "(none)" : joined(r.opening);
    char line[160];
    std::snprintf(line, sizeof line, "%-22s %5lld  %6lld  %5lld  %6lld  ", opening.c_str(),
                  static_cast<long long>(r.games), static_cast<long long>(r.seat_wins[0]),
                  static_cast<long long>(r.draws), static_cast<long long>(r.seat_wins[1]));
    out << line;
    for (std::size_t i = 0; i < r.engines.size(); ++i) {
      char points[64];
      std::snprintf(points, sizeof points, "%g/%lld", r.engines[i].points,
                    static_cast<long long>(r.engines[i].games));
      out << (i ? ", " : "") << r.engines[i].name << " " << points;
    }
    out << "\n";
  }
  if (table.rows.empty()) out << "no finished two-player games\n";
  if (table.skipped)
    out << table.skipped << " finished games of more than two players are not in the table\n";
  return out.str();
}

std::string opening_table_csv(const OpeningTable& table) {
  std::string out = "game,opening,games,seat1_wins,draws,seat2_wins,engine,engine_games,points\n";
  for (const auto& r : table.rows)
    for (const auto& e : r.engines) {
      char numbers[160];
      std::snprintf(numbers, sizeof numbers, ",%lld,%lld,%lld,%lld,",
                    static_cast<long long>(r.games), static_cast<long long>(r.seat_wins[0]),
                    static_cast<long long>(r.draws), static_cast<long long>(r.seat_wins[1]));
      char tail[64];
      std::snprintf(tail, sizeof tail, ",%lld,%g\n", static_cast<long long>(e.games), e.points);
      out += csv_field(r.game) + "," + csv_field(joined(r.opening)) + numbers + csv_field(e.name) +
             tail;
    }
  return out;
}

std::string opening_table_json(const OpeningTable& table) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : table.rows) {
    nlohmann::json engines = nlohmann::json::array();
    for (const auto& e : r.engines)
      engines.push_back({{"name", e.name}, {"games", e.games}, {"points", e.points}});
    rows.push_back({{"game", r.game},
                    {"opening", r.opening},
                    {"games", r.games},
                    {"seat_wins", {r.seat_wins[0], r.seat_wins[1]}},
                    {"draws", r.draws},
                    {"engines", std::move(engines)}});
  }
  return nlohmann::json{{"openings", rows}, {"skipped", table.skipped}}.dump(2) + "\n";
}

}  // namespace referee::ratings
