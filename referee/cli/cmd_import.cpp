// `referee import FILE.jsonl [--db DB]`: takes a JSON Lines export back (storage/import.h), so
// archives from several machines merge into one database.
//
// Decisions:
// - Two passes over the file. The first reads and checks every line (fields, game, players,
//   replay through the rules) and writes nothing: one bad line and nothing is imported, the error
//   names the file and the line. The second writes, one transaction per batch of games (other
//   processes writing the same database wait one batch at most, not the whole file).
// - A storage failure or a slot conflict in the second pass keeps the batches already committed
//   (whole games only) and says how many; the same import run again skips them as duplicates.
// - Memory stays flat: one line at a time in both passes (a line over 64 MiB is refused).
// - FILE must be a file (two passes): "-" (standard input) is not read.
#include <chrono>
#include <fstream>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "match/time_control.h"
#include "storage/import.h"

namespace referee::cli {

namespace {

constexpr std::size_t kMaxLine = std::size_t{64} << 20;
constexpr int kBatch = 500;

// Calls `each(line_number, line)` for every line of `path`; a false return stops.
template <class Each>
Status for_each_line(const std::string& path, Each each) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read '" + path + "'"};
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.size() > kMaxLine)
      return Error{path + ":" + std::to_string(number) + ": a line over 64 MiB"};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (Status st = each(number, line); !st) return st;
  }
  if (in.bad()) return Error{"cannot read '" + path + "'"};
  return Ok{};
}

// The per-seat time controls of a line are checked by the referee's own parser.
Expected<std::string> canonical_time_control(const std::string& text) {
  auto tc = match::parse_time_control(text);
  if (!tc) return tc.failure();
  return tc->to_string();
}

}  // namespace

int import_games(const Args& args) {
  std::string db = "referee.db", file;
  const CommandHelp help{
      "referee import FILE.jsonl [--db FILE]",
      "Takes a JSON Lines export (referee export --format jsonl) back into a database. Every\n"
      "line is checked and replayed through the rules before anything is written (one bad line:\n"
      "nothing imported); then the games are written 500 to a transaction. Ids are kept where\n"
      "free, tournaments matched by name, and a game already in the database (same game,\n"
      "players, start position, opening, moves and started_at) is skipped and counted."};
  po::options_description desc;
  desc.add_options()("db", po::value(&db)->value_name("DB")->default_value(db),
                     "database: a file (created if missing) or a postgresql:// URL");
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto done = parse_command(args, help, desc, vm, &hidden, &pos)) return *done;
  if (file.empty()) {
    std::cerr << "referee import: give the file to import (referee import FILE.jsonl)\n";
    return 2;
  }
  if (file == "-") {
    std::cerr << "referee import: FILE must be a file (it is read twice), not standard input\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();

  // Pass 1: every line checked, nothing written.
  long games = 0;
  Status checked = for_each_line(file, [&](long number, const std::string& line) -> Status {
    auto g = storage::parse_export_line(line, canonical_time_control);
    if (!g) return Error{file + ":" + std::to_string(number) + ": " + g.error()};
    ++games;
    return Ok{};
  });
  if (!checked) {
    std::cerr << "referee import: " << checked.error() << "; nothing imported\n";
    return 1;
  }

  auto store = storage::Store::open(db);
  if (!store) {
    std::cerr << "referee import: " << store.error() << "\n";
    return 1;
  }
  // Pass 2: the writes, a batch per transaction.
  storage::Importer importer(*store);
  long added = 0, duplicates = 0, committed = 0, in_batch = 0, batch_added = 0;
  Status st = for_each_line(file, [&](long number, const std::string& line) -> Status {
    auto g = storage::parse_export_line(line, canonical_time_control);
    if (!g) return Error{file + ":" + std::to_string(number) + ": " + g.error()};
    if (in_batch == 0)
      if (Status b = importer.begin(); !b) return b;
    auto r = importer.add(*g);
    if (!r) return Error{file + ":" + std::to_string(number) + ": " + r.error()};
    (r->added ? batch_added : duplicates) += 1;
    if (++in_batch == kBatch) {
      if (Status c = importer.commit(); !c) return c;
      committed += batch_added;
      in_batch = batch_added = 0;
    }
    return Ok{};
  });
  if (st && in_batch > 0) {
    st = importer.commit();
    if (st) committed += batch_added;
  }
  if (!st) {
    importer.rollback();
    std::cerr << "referee import: " << st.error() << "; " << committed
              << " games imported before it (importing the file again skips them)\n";
    return 1;
  }
  added = committed;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << added << (added == 1 ? " game" : " games") << " imported, " << duplicates
            << (duplicates == 1 ? " duplicate" : " duplicates") << " skipped (" << games << " in "
            << file << "; " << static_cast<long>(s > 0 ? static_cast<double>(games) / s : 0.0)
            << " games/s)\n";
  return 0;
}

}  // namespace referee::cli
