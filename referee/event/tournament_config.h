// The tournament file (TOML, or JSON when the file ends in .json): engines, games, time control,
// cycles, openings, concurrency, database. Read with toml++ / nlohmann-json; every error is one
// line naming the file and the key. The format is documented in TOURNAMENTS.md and
// examples/tournaments/.
//
// A configuration is checked whole before anything runs (check_tournament, shared with the
// `match` command): games canonical and distinct, engine names printable and distinct, cycles and
// concurrency in range, a schedule of at most kMaxScheduleSlots games, random plies the games can
// play, adjudication rules consistent and only with two-player games, an endgame table opened,
// checked and pinned by its checksum at load, and every book line replayed through the rules of
// every game at load; knockout and swiss events: two-player games
// only, no cycles, one opening per pair, no sprt, no engine `games`, and their [knockout] /
// [swiss] keys in range. A refused configuration never reaches the database.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/expected.h"
#include "engines/engine_config.h"
#include "event/egdb_adjudication.h"
#include "match/adjudication.h"
#include "match/time_control.h"
#include "ratings/sprt.h"

namespace referee::event {

constexpr int kMaxCycles = 1'000'000;      // the schedule's size check usually refuses sooner
constexpr int kMaxPerPairing = 1'000'000;  // same
constexpr int kMaxConcurrency = 256;
constexpr int kMaxRandomPlies = 1000;

struct TournamentEngine {
  engines::EngineConfig config;
  // `artifact = "mybot@2"` as written (a name, name@N or a SHA-256): the engine runs from that
  // stored artifact, sandboxed; resolve_artifacts (artifact_engines.h) fills config.artifact and
  // the command from the database. "" = a host command.
  std::string artifact_ref;
  std::optional<match::TimeControl> tc;  // overrides the tournament's time control
  // The event's games it plays, canonical; empty = every one. A pairing that needs a game an
  // engine does not play is not scheduled (schedule.h).
  std::vector<std::string> games;
};

struct OpeningSettings {
  int random_plies = 0;  // random plies played by the referee at the start of each pairing
  int per_pairing = 1;   // distinct openings per pairing and cycle (each played by every seating)
  std::string book;      // optional file: one opening per line, moves separated by spaces
  std::vector<std::vector<std::string>> book_lines;  // loaded from `book`
  // > 0: every distinct position after exactly this many plies (all_openings.h), each played in
  // every seating, instead of random plies or a book; per_pairing is then the number of them.
  int all_plies = 0;
};

// format = "knockout" ([knockout] table; event/pairing.h has the rules).
struct KnockoutSettings {
  std::string seeding = "file";  // file | rating (the engines' Elo from the database's games)
  int pairs = 1;                 // game pairs of a match (in each of the event's games)
  int tiebreak_pairs = 0;        // extra pairs at most while a match is tied
  // The engines by seed, top first: set when the event is made (from the ratings for
  // seeding = "rating") and stored with it, so that a resumed run keeps the bracket it began.
  // Empty = the file's order.
  std::vector<std::string> seeds;
};

// format = "swiss" ([swiss] table).
struct SwissSettings {
  int rounds = 0;
};

constexpr int kMaxMatchPairs = 1000;
constexpr int kMaxSwissRounds = 1000;

struct TournamentConfig {
  std::string name;
  std::string database = "referee.db";
  // round-robin | gauntlet (the first engine against the others) | knockout | swiss (rounds
  // paired from the results of the previous ones: event/rounds.h)
  std::string format = "round-robin";
  std::vector<std::string> games;  // game strings, "oware:players=3"
  std::vector<TournamentEngine> engines;
  match::TimeControl tc;
  int cycles = 1;
  int concurrency = 0;  // 0 = number of cores
  unsigned long long seed = 1;
  int max_crashes = 3;            // consecutive crashes before an engine is withdrawn
  bool withdraw_on_time = false;  // time losses count toward max_crashes (they are shown anyway)
  OpeningSettings openings;
  KnockoutSettings knockout;
  SwissSettings swiss;
  // A sequential test of engine 0 against engine 1 (two engines only): the event stops when it
  // decides, its schedule (`cycles`, or `max_games` in the file) being the most games it plays.
  std::optional<ratings::SprtConfig> sprt;
  // Adjudication from the engines' scores (the `[adjudication]` table, event/
  // adjudication_settings.h); two-player games only.
  match::Adjudication adjudication;
  // An endgame table that ends the games reaching its positions (`[adjudication] egdb = "FILE"`,
  // event/egdb_adjudication.h): the file (absolute) and its checksum, pinned when the file was
  // read; the table itself, opened then, is kept for the run (null when read from a stored
  // specification: whoever plays the event opens it with open_pinned).
  std::optional<EgdbPin> egdb;
  SharedTable egdb_table;
  std::string source;  // the file it was read from
};

// Reads and validates a tournament file. Relative engine commands, the book and an endgame table
// are resolved against the file's directory; the database path against the current directory.
// An endgame table is opened and checked here (its checksum pinned).
Expected<TournamentConfig> load_tournament_file(const std::string& path);
// The same from text (TOML, or JSON when `is_json`): errors name `path`; relative engine commands
// and the book are resolved against `base_dir`.
Expected<TournamentConfig> load_tournament_text(const std::string& text, bool is_json,
                                                const std::string& path,
                                                const std::string& base_dir);

// A tournament document as JSON, from TOML text or JSON text (`is_json`), as read by the two
// above and by the daemon (which adds keys of its own). Errors are one line naming `where` (with
// line and column for TOML); a document nested deeper than limits::kMaxNesting is refused from
// its text, before anything is built.
Expected<nlohmann::json> parse_tournament_document(const std::string& text, bool is_json,
                                                   const std::string& where);

// The same from the file's text: JSON when `path` ends in .json, TOML otherwise. `path` names the
// file in errors and is the base of relative paths.
Expected<TournamentConfig> parse_tournament(const std::string& text, const std::string& path);

// Game strings made canonical by the rules library; the same game twice ("awale" and
// "awale:first=1"; an alias and its name) is an error naming both spellings.
Expected<std::vector<std::string>> canonical_games(const std::vector<std::string>& specs);

// Reads an opening book: one opening per line, moves separated by blanks; '#' starts a comment and
// blank lines are skipped. Every line is replayed through the rules of each of `games`; errors are
// "FILE:LINE: ..." (an illegal move, a line that ends a game, a control byte such as a binary
// file's), or name the file (unreadable, not a regular file, no openings).
Expected<std::vector<std::vector<std::string>>> read_book(const std::string& path,
                                                          const std::vector<std::string>& games);

// Checks a whole configuration before anything runs (see the header comment). The error is one
// line, without the file's name.
Status check_tournament(const TournamentConfig& config);

// Whether the format's rounds are made from results (knockout, swiss) rather than up front.
bool has_rounds(const TournamentConfig& config);

// A canonical JSON text of what decides the schedule (stored with the tournament, so that a resume
// with a changed file is refused instead of silently mixing two events).
std::string schedule_fingerprint(const TournamentConfig& config);

}  // namespace referee::event
