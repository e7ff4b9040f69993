// `referee verify`: the database file's integrity, then every stored game (or a part) replayed
// through the rules library (match/replay.h), in one streamed pass.
//
// Decisions:
// - One ordered pass over the games and their moves (storage/game_stream.h: two cursors in step,
//   server-side cursors on PostgreSQL): memory holds one game, whatever the archive's size, and
//   there is no query per game. Games come by id, as before (on PostgreSQL the moves then stream
//   from a merge of two primary keys, where schedule order would sort them all first).
// - The part to verify takes the filters of `ratings` and `export` (--game is the game string,
//   as there), minus --min-games, plus --id for single games (several: repeat it). Every game
//   status is verified (running and unfinished games need legal moves, like finished ones).
// - Output: "integrity: ..." first, one "MISMATCH game N: ..." line per bad game as it is found,
//   then "N games replayed, M mismatches". Exit status 0 when all is well, 1 for a mismatch, a
//   damaged file or a read error, 2 for a bad option. A read error in the middle prints the
//   mismatches found so far and one error line, but no summary (the pass is not complete).
// - --format json writes one JSON object, streamed as the games are read (its "mismatches" list is
//   never held in memory): integrity, damaged pages, mismatches, games, and "complete" (false
//   when --max-mismatches stopped the pass or a read failed; "error" then says why).
// - Progress on stderr every 2 s, only when stderr is a terminal or with --progress; with
//   --progress a last line gives the totals and the time.
// - --no-integrity skips the file's integrity check (a whole-file scan: minutes on a big archive),
//   for a runner that checks one game or one event.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/stored_games.h"
#include "engines/system.h"
#include "match/replay.h"
#include "storage/game_query.h"
#include "storage/game_stream.h"

namespace referee::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kProgressEvery = std::chrono::seconds(2);

int usage_error(const std::string& message) {
  std::cerr << "referee verify: " << message << "\n";
  return 2;
}

// The output, as text lines or as one JSON object written piece by piece.
class Report {
 public:
  explicit Report(bool json) : json_(json) {}

  void integrity(const std::string& state, const std::vector<std::string>& damaged) {
    if (!json_) {
      std::cout << "integrity: " << state << "\n";
      for (const auto& p : damaged) std::cout << "DAMAGED " << p << "\n";
      return;
    }
    std::cout << "{\"integrity\":" << nlohmann::json(state).dump()
              << ",\"damaged\":" << nlohmann::json(damaged).dump() << ",\"mismatches\":[";
  }

  void mismatch(std::int64_t game, const std::string& error) {
    if (!json_) {
      std::cout << "MISMATCH " << error << "\n";
      return;
    }
    std::cout << (mismatches_++ ? ",\n" : "\n")
              << nlohmann::json{{"game", game}, {"error", error}}.dump();
  }

  // The end: the summary line (none when the pass failed: it is not complete), or the object's
  // last fields ("error" says why the pass is not complete).
  void end(long games, long bad, bool failed, const std::string& error, const std::string& note) {
    const bool complete = !failed && error.empty();
    if (!json_) {
      if (!failed)
        std::cout << games << " games replayed, " << bad << " mismatches" << note << "\n";
      std::cout.flush();
      return;
    }
    nlohmann::json tail{{"games", games}, {"mismatch_count", bad}, {"complete", complete}};
    if (!error.empty()) tail["error"] = error;
    std::string rest = tail.dump();  // {"games":...}: its fields close our object
    std::cout << "]," << rest.substr(1) << "\n";
    std::cout.flush();
  }

 private:
  bool json_;
  long mismatches_ = 0;
};

// Progress lines on stderr, every kProgressEvery, and a last one when asked.
class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(Clock::now()), next_(start_ + kProgressEvery) {}

  void tick(long games, long bad) {
    if (!on_) return;
    const auto now = Clock::now();
    if (now < next_) return;
    next_ = now + kProgressEvery;
    line("verify: ", games, bad, now);
  }

  void done(long games, long bad) {
    if (on_) line("verify: done, ", games, bad, Clock::now());
  }

 private:
  void line(const char* head, long games, long bad, Clock::time_point now) const {
    const double s = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "%s%ld games, %ld mismatches in %.1f s (%.0f games/s)\n", head, games, bad,
                 s, s > 0 ? static_cast<double>(games) / s : 0.0);
  }

  bool on_;
  Clock::time_point start_, next_;
};

}  // namespace

int verify(const Args& args) {
  std::string db = "referee.db", format = "text";
  std::vector<std::int64_t> ids;
  long max_mismatches = 0;
  bool no_integrity = false, progress = false;
  ratings::GameSelection selection;
  po::options_description desc(
      "referee verify [--db FILE] [filters] [options]\n"
      "The database file's integrity, then every stored game (or those the filters select)\n"
      "replayed through the rules: legal moves, and the recorded result where the rules decided\n"
      "it. One pass over the games and their moves: memory stays flat whatever their number.\n"
      "Exit status 0 when all is well, 1 for a mismatch, a damaged file or a read error.");
  desc.add_options()("db", po::value(&db)->value_name("DB")->default_value(db),
                     "database: a file or a postgresql:// URL")(
      "id", po::value(&ids)->composing()->value_name("N"),
      "only the game with this id (repeat for several)");
  add_selection_options(desc, selection);
  desc.add_options()("max-mismatches", po::value(&max_mismatches)->value_name("N"),
                     "stop after N mismatches (exit status 1)")(
      "no-integrity", po::bool_switch(&no_integrity),
      "skip the file's integrity check (a scan of the whole file)")(
      "format", po::value(&format)->value_name("F")->default_value(format),
      "text, or json: one JSON object (integrity, mismatches, counts)")(
      "progress", po::bool_switch(&progress),
      "progress on stderr every 2 s, and the totals at the end (default: only on a terminal)");
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm)) return *done;
  if (format != "text" && format != "json") return usage_error("--format must be text or json");
  if (vm.count("min-games")) return usage_error("--min-games is for rating tables, not verify");
  if (vm.count("max-mismatches") && max_mismatches < 1)
    return usage_error("--max-mismatches must be at least 1");
  for (auto id : ids)
    if (id < 1) return usage_error("--id " + std::to_string(id) + ": game ids start at 1");
  if (ids.size() > 1000) return usage_error("--id: at most 1000 games (use the filters)");

  auto store = open_database_for_reading(db, "verify");
  if (!store) return 1;
  int status = 0;
  auto query = prepare_query(*store, selection, "verify", status);
  if (!query) return status;
  query->finished_only = false;
  for (auto id : ids) {
    auto found = storage::has_game(*store, id);
    if (!found) {
      std::cerr << "referee verify: " << found.error() << "\n";
      return 1;
    }
    if (!*found) return usage_error("--id " + std::to_string(id) + ": no such game in " + db);
  }
  query->ids = ids;

  Report report(format == "json");
  bool damaged = false;
  if (no_integrity) {
    report.integrity("not checked (--no-integrity)", {});
  } else {
    auto problems = store->integrity_problems();
    if (!problems) {
      std::cerr << "referee verify: " << problems.error() << "\n";
      return 1;
    }
    damaged = !problems->empty();
    if (store->integrity_check_name().empty())
      report.integrity("skipped (a server database checks its own pages)", {});
    else if (!damaged)
      report.integrity("ok", {});
    else
      report.integrity(
          std::to_string(problems->size()) + (problems->size() >= 20 ? "+" : "") + " problems",
          *problems);
  }

  long games = 0, bad = 0;
  bool stopped = false;
  Progress meter(progress || engines::stderr_is_terminal());
  storage::StreamOptions stream;  // with moves
  stream.by_id = true;
  Status st = storage::for_each_game(
      *store, *query, stream,
      [&](const storage::GameRecord& g, const std::vector<storage::MoveRecord>& moves) -> Status {
        ++games;
        if (Status check = match::replay_check(g, moves); !check) {
          ++bad;
          report.mismatch(g.id, check.error());
          if (max_mismatches > 0 && bad >= max_mismatches) {
            stopped = true;
            return Error{"stopped"};
          }
        }
        meter.tick(games, bad);
        return Ok{};
      });
  if (!st && !stopped) {
    report.end(games, bad, true, st.error(), "");
    std::cerr << "referee verify: " << st.error() << "\n";
    return 1;
  }
  meter.done(games, bad);
  report.end(
      games, bad, false, stopped ? "stopped at --max-mismatches" : "",
      stopped ? " (stopped at --max-mismatches " + std::to_string(max_mismatches) + ")" : "");
  return bad || damaged ? 1 : 0;
}

}  // namespace referee::cli
