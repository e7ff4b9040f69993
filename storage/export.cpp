// Exports of stored games as text, one game at a time: PGN for the rating tools, JSON Lines (the
// faithful record), CSV.
//
// JSON Lines is the archive: one object per game with every stored field and every move (ply,
// mover, move, time used, clock left, engine info, source, the referee's note), in key order;
// it is the form an archive keeps (and the one an import would read back). `time_controls` (by
// seat) follows `time_control` only when some seat's differs from it.
//
// PGN is results first, for Ordo and BayesElo (they read the tags and the result), and readable
// by people; it does not try to be a chess PGN:
// - Seven-tag roster first, in the standard order; then [Variant] (the game's name),
//   [GameString] (canonical, with parameters), [SetUp "1"] + [FEN] only when the game did not
//   start from its standard start, [TimeControl] when set, [Termination], [TerminationDetails],
//   [PlyCount].
// - Time controls as cutechess writes them: [TimeControl] when White's and Black's are the same
//   (the game's time_control, unless the pair of a --pairwise game shares another), else
//   [WhiteTimeControl] and [BlackTimeControl] in its place. A game of more than two players is
//   written only as pairs of seats, so White's and Black's tags name each seat of the pair.
// - Event = the tournament's name ("?" outside one), Site "?", Date from started_at
//   ("????.??.??" when unknown), Round = schedule slot + 1 ("-" outside a schedule).
// - [Termination] takes PGN's own values: "normal" (the rules ended it, or a resignation or
//   agreement), "time forfeit", "rules infraction" (an illegal move or a protocol violation),
//   "abandoned" (a crash or a stall), "adjudication", "unterminated" (an unfinished game);
//   [TerminationDetails] is the referee's precise reason with the engine named ("beta lost on
//   time: 1203 ms used, 1100 ms allowed"), or the stored termination when there is no reason.
// - Movers are never implied by alternation: in mancala games a player may move several times in
//   a row (kalaha's extra turns), so every move carries its mover in its comment ({p1 ...},
//   {p2 ...}), and a move number starts each turn of the player who moved first (a turn is a run
//   of moves by one player): "1. 1 {p1 book} 2 {p1 book} 11 {p2 ...} 2. 6 {p1 ...}". The comment
//   also holds "book" (opening moves played by the referee), "forced" (moves the referee played
//   for an engine with one legal move), the referee's note ("round 2") and, unless --no-clock,
//   [%emt H:MM:SS.mmm] (time used) and [%clk H:MM:SS.mmm] (clock left). Then the reason as a
//   comment and the result token. Lines are wrapped at 79 columns; a unit never splits.
// - Results "1-0", "0-1", "1/2-1/2" from ranks (better rank wins, equal ranks draw), "*" for a
//   game without ranks (unfinished).
// - A game of more than two players has no PGN form: it is left out (counted: the command says
//   how many on stderr) unless `pairwise`, which writes one PGN game per pair of seats (i < j:
//   White = seat i, Black = seat j) with [Pairwise "yes"] and no moves, for rating tools.
// CSV: RFC 4180 (CRLF line ends, fields with a comma, quote, CR or LF quoted, quotes doubled);
// one row per game with every seat; list fields (opening, players, ranks, scores) are joined with
// ';' (opening with ' '). The header is fixed: `time_control` holds the row's seats' time control
// when they share one (the game's time_control, for every game whose seats had no other), else
// one per seat of the row joined with ';' like `players`. With `pairwise`, a game of N > 2 players
// becomes one row per pair of seats, and a last column `seats` says which ("1;3"; empty for
// two-player games).
#include "storage/export.h"

#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "games/game.h"

namespace referee::storage {

namespace {

constexpr std::size_t kBlock = 1 << 16;

std::string number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

void tag_value(std::string& out, const std::string& text) {
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
}

std::string comment(const std::string& text) {
  std::string out = "{";
  for (char c : text) out += (c == '}') ? ')' : (c == '\n' || c == '\r') ? ' ' : c;
  return out + "}";
}

std::string pgn_date(const std::string& iso) {
  auto digits = [&](std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < from + n; ++i)
      if (i >= iso.size() || iso[i] < '0' || iso[i] > '9') return false;
    return true;
  };
  if (digits(0, 4) && iso.size() > 4 && iso[4] == '-' && digits(5, 2) && iso.size() > 7 &&
      iso[7] == '-' && digits(8, 2))
    return iso.substr(0, 4) + "." + iso.substr(5, 2) + "." + iso.substr(8, 2);
  return "????.??.??";
}

// H:MM:SS.mmm
std::string clock_text(long ms) {
  long h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, f = ms % 1000;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld.%03ld", h, m, s, f);
  return buf;
}

const char* result_of(const GameRecord& g, std::size_t a, std::size_t b) {
  if (g.ranks.size() != g.players.size() || a >= g.ranks.size() || b >= g.ranks.size()) return "*";
  if (g.ranks[a] < g.ranks[b]) return "1-0";
  if (g.ranks[a] > g.ranks[b]) return "0-1";
  return "1/2-1/2";
}

std::string variant_of(const std::string& game_string) {
  return game_string.substr(0, game_string.find(':'));
}

// One ply of the movetext: its move, its mover (0 = unknown) and its comment.
struct Ply {
  std::string move;
  int player = 0;
  std::string note;
};

std::string move_note(const MoveRecord& m, bool clocks) {
  std::string note = "p" + std::to_string(m.player);
  auto add = [&](const std::string& s) { note += " " + s; };
  if (m.source == "opening") add("book");
  if (m.source == "forced") add("forced");
  if (!m.note.empty()) add(m.note);
  if (clocks && m.source == "engine") {
    if (m.time_ms >= 0) add("[%emt " + clock_text(m.time_ms) + "]");
    if (m.clock_ms >= 0) add("[%clk " + clock_text(m.clock_ms) + "]");
  }
  return note;
}

// The opening moves of a game that recorded them only as its `opening` list (older records):
// their movers come from the rules.
std::vector<Ply> unrecorded_opening(const GameRecord& g) {
  std::vector<Ply> out;
  auto game = games::make_game(g.game);
  std::optional<games::State> state;
  if (game) {
    auto start = g.start_position.empty() ? Expected<games::State>(game->initial_state())
                                          : game->parse_state(g.start_position);
    if (start) state = std::move(*start);
  }
  for (const auto& m : g.opening) {
    Ply p{m, 0, "book"};
    if (state) {
      p.player = state->current_player();
      if (!state->apply(m)) state.reset();
    }
    if (p.player > 0) p.note = "p" + std::to_string(p.player) + " book";
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<Ply> plies_of(const GameRecord& g, const std::vector<MoveRecord>& moves, bool clocks) {
  std::vector<Ply> out;
  bool opening_recorded = false;
  for (const MoveRecord& m : moves) opening_recorded = opening_recorded || m.source == "opening";
  if (!opening_recorded && !g.opening.empty()) out = unrecorded_opening(g);
  for (const MoveRecord& m : moves) out.push_back({m.move, m.player, move_note(m, clocks)});
  return out;
}

// Joins units with spaces into lines of at most 79 columns (a longer unit stands alone).
void wrap(std::string& out, const std::vector<std::string>& units) {
  std::size_t column = 0;
  for (const auto& u : units) {
    if (column > 0 && column + 1 + u.size() > 79) {
      out += '\n';
      column = 0;
    }
    if (column > 0) {
      out += ' ';
      ++column;
    }
    out += u;
    column += u.size();
  }
  out += "\n\n";
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

void csv_field(std::string& out, const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void pgn_tags(std::string& out, const GameRecord& g, std::size_t white, std::size_t black,
              bool pairwise, bool standard_start) {
  auto tag = [&](const char* name, const std::string& value) {
    out += '[';
    out += name;
    out += " \"";
    tag_value(out, value);
    out += "\"]\n";
  };
  tag("Event", g.event.empty() ? "?" : g.event);
  tag("Site", "?");
  tag("Date", pgn_date(g.started_at));
  tag("Round", g.slot >= 0 ? std::to_string(g.slot + 1) : "-");
  tag("White", g.players.at(white));
  tag("Black", g.players.at(black));
  tag("Result", result_of(g, white, black));
  tag("Variant", variant_of(g.game));
  tag("GameString", g.game);
  if (!standard_start) {
    tag("SetUp", "1");
    tag("FEN", g.start_position);
  }
  const std::string white_tc = seat_time_control(g, white), black_tc = seat_time_control(g, black);
  if (white_tc == black_tc) {
    if (!white_tc.empty()) tag("TimeControl", white_tc);
  } else {
    tag("WhiteTimeControl", white_tc);
    tag("BlackTimeControl", black_tc);
  }
  tag("Termination", pgn_termination(g));
  const std::string details = g.reason.empty() ? g.termination : reason_with_names(g);
  if (!details.empty()) tag("TerminationDetails", details);
  tag("PlyCount", std::to_string(g.plies));
  if (pairwise) tag("Pairwise", "yes");
  out += '\n';
}

void pgn_game(std::string& out, const GameRecord& g, const std::vector<MoveRecord>& moves,
              const ExportOptions& options, bool standard_start) {
  pgn_tags(out, g, 0, 1, false, standard_start);
  std::vector<std::string> units;
  if (options.moves) {
    const auto plies = plies_of(g, moves, options.clocks);
    const int first = plies.empty() ? 0 : plies.front().player;
    int number = 0;
    for (std::size_t k = 0; k < plies.size(); ++k) {
      const Ply& p = plies[k];
      // A number starts each turn of the first mover (and the first ply, whoever moved).
      const bool starts_turn =
          k == 0 || (p.player == first && plies[k - 1].player != first) || p.player == 0;
      if (starts_turn) units.push_back(std::to_string(++number) + ".");
      units.push_back(p.move);
      if (!p.note.empty()) units.push_back(comment(p.note));
    }
    if (!g.reason.empty()) units.push_back(comment(reason_with_names(g)));
  }
  units.push_back(result_of(g, 0, 1));
  wrap(out, units);
}

void jsonl_game(std::string& out, const GameRecord& g, const std::vector<MoveRecord>& moves) {
  nlohmann::ordered_json j;
  j["id"] = g.id;
  j["tournament_id"] = g.event_id ? nlohmann::ordered_json(*g.event_id) : nullptr;
  j["tournament"] = g.event;
  j["slot"] = g.slot;
  j["game"] = g.game;
  j["start_position"] = g.start_position;
  j["opening"] = g.opening;
  j["players"] = g.players;
  j["time_control"] = g.time_control;
  if (has_seat_time_controls(g)) j["time_controls"] = g.time_controls;
  j["status"] = to_text(g.status);
  j["ranks"] = g.ranks;
  j["scores"] = g.scores;
  j["termination"] = g.termination;
  j["reason"] = g.reason;
  j["started_at"] = g.started_at;
  j["finished_at"] = g.finished_at;
  j["plies"] = g.plies;
  auto list = nlohmann::ordered_json::array();
  for (const MoveRecord& m : moves) {
    nlohmann::ordered_json mj;
    mj["ply"] = m.ply;
    mj["player"] = m.player;
    mj["move"] = m.move;
    // Unknown (an opening move, a clock-less control): null, as the API writes it.
    mj["time_ms"] =
        m.time_ms < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.time_ms);
    mj["clock_ms"] =
        m.clock_ms < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.clock_ms);
    mj["info"] = m.info;
    mj["source"] = m.source;
    if (!m.note.empty()) mj["note"] = m.note;
    list.push_back(std::move(mj));
  }
  j["moves"] = std::move(list);
  // Engine text may not be valid UTF-8: replace bad bytes rather than fail.
  out += j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  out += '\n';
}

// The CSV's time control of a row's seats: the one they share, else one per seat.
std::string time_control_field(const std::vector<std::string>& controls) {
  for (const auto& c : controls)
    if (c != controls.front()) return joined(controls, ";");
  return controls.empty() ? std::string() : controls.front();
}

const char* const kCsvHeader =
    "id,tournament,slot,game,start_position,opening,players,time_control,status,ranks,scores,"
    "termination,reason,started_at,finished_at,plies";

// One CSV row of the seats `seats` (every seat, or a pair with `pairwise`).
void csv_row(std::string& out, const GameRecord& g, const std::vector<std::size_t>& seats,
             bool pairwise) {
  std::vector<std::string> players, controls, ranks, scores, seat_numbers;
  for (std::size_t s : seats) {
    players.push_back(g.players[s]);
    controls.push_back(seat_time_control(g, s));
    if (s < g.ranks.size()) ranks.push_back(std::to_string(g.ranks[s]));
    if (s < g.scores.size()) scores.push_back(number(g.scores[s]));
    seat_numbers.push_back(std::to_string(s + 1));
  }
  const std::string fields[] = {std::to_string(g.id),
                                g.event,
                                std::to_string(g.slot),
                                g.game,
                                g.start_position,
                                joined(g.opening, " "),
                                joined(players, ";"),
                                time_control_field(controls),
                                to_text(g.status),
                                joined(ranks, ";"),
                                joined(scores, ";"),
                                g.termination,
                                g.reason,
                                g.started_at,
                                g.finished_at,
                                std::to_string(g.plies)};
  bool first = true;
  for (const auto& f : fields) {
    if (!first) out += ',';
    first = false;
    csv_field(out, f);
  }
  if (pairwise) {
    out += ',';
    if (g.players.size() > 2) out += joined(seat_numbers, ";");
  }
  out += "\r\n";
}

}  // namespace

std::string pgn_termination(const GameRecord& g) {
  const std::string& t = g.termination;
  if (g.status != GameStatus::Finished || t == "interrupted" || t == "lost-claim" ||
      t == "duplicate")
    return "unterminated";
  if (t == "time") return "time forfeit";
  if (t == "illegal" || t == "protocol") return "rules infraction";
  if (t == "crash" || t == "stall" || t == "nostart" || t == "unsupported") return "abandoned";
  if (t == "adjudication" || t == "adjudicated") return "adjudication";
  return "normal";
}

std::string seat_time_control(const GameRecord& g, std::size_t seat) {
  return seat < g.time_controls.size() ? g.time_controls[seat] : g.time_control;
}

bool has_seat_time_controls(const GameRecord& g) {
  for (const auto& c : g.time_controls)
    if (c != g.time_control) return true;
  return false;
}

std::string reason_with_names(const GameRecord& g) {
  const std::string& r = g.reason;
  if (r.size() < 2 || r[0] != 'p' || r[1] < '1' || r[1] > '9') return r;
  std::size_t end = 1;
  while (end < r.size() && r[end] >= '0' && r[end] <= '9') ++end;
  if (end < r.size() && r[end] != ' ' && r[end] != ':') return r;
  const std::size_t seat = std::stoul(r.substr(1, end - 1));
  if (seat < 1 || seat > g.players.size()) return r;
  const std::string& name = g.players[seat - 1];
  std::string rest = r.substr(end);
  const std::string echoed = " (" + name + ")";  // console games write "p1 (alice) ..."
  if (rest.compare(0, echoed.size(), echoed) == 0) rest = rest.substr(echoed.size());
  return name + rest;
}

ExportWriter::ExportWriter(std::ostream& out, ExportFormat format, const ExportOptions& options)
    : out_(out), format_(format), options_(options) {
  buffer_.reserve(kBlock + 4096);
}

ExportWriter::~ExportWriter() = default;

bool ExportWriter::standard_start(const GameRecord& g) {
  if (g.start_position.empty()) return true;
  auto it = starts_.find(g.game);
  if (it == starts_.end()) {
    auto game = games::make_game(g.game);
    it = starts_.emplace(g.game, game ? game->initial_state().to_string() : std::string()).first;
  }
  return it->second == g.start_position;
}

Status ExportWriter::flush_if_full() {
  if (buffer_.size() < kBlock) return Ok{};
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  if (!out_) return Error{"write failed"};
  return Ok{};
}

Status ExportWriter::write(const GameRecord& g, const std::vector<MoveRecord>& moves) {
  switch (format_) {
    case ExportFormat::kPgn:
      if (g.players.size() < 2) {
        ++skipped_;
        break;
      }
      if (g.players.size() == 2) {
        pgn_game(buffer_, g, moves, options_, standard_start(g));
      } else if (!options_.pairwise) {
        ++skipped_;
        break;
      } else {
        const std::size_t n = g.players.size();
        for (std::size_t a = 0; a < n; ++a)
          for (std::size_t b = a + 1; b < n; ++b) {
            pgn_tags(buffer_, g, a, b, true, standard_start(g));
            wrap(buffer_,
                 {comment("seats " + std::to_string(a + 1) + " and " + std::to_string(b + 1) +
                          " of a " + std::to_string(n) + "-player game"),
                  result_of(g, a, b)});
          }
      }
      ++written_;
      break;
    case ExportFormat::kJsonl:
      jsonl_game(buffer_, g, moves);
      ++written_;
      break;
    case ExportFormat::kCsv: {
      if (!header_done_) {
        buffer_ += kCsvHeader;
        buffer_ += options_.pairwise ? ",seats\r\n" : "\r\n";
        header_done_ = true;
      }
      const std::size_t n = g.players.size();
      if (options_.pairwise && n > 2) {
        for (std::size_t a = 0; a < n; ++a)
          for (std::size_t b = a + 1; b < n; ++b) csv_row(buffer_, g, {a, b}, true);
      } else {
        std::vector<std::size_t> seats(n);
        for (std::size_t s = 0; s < n; ++s) seats[s] = s;
        csv_row(buffer_, g, seats, options_.pairwise);
      }
      ++written_;
      break;
    }
  }
  return flush_if_full();
}

Status ExportWriter::finish() {
  if (format_ == ExportFormat::kCsv && !header_done_) {
    buffer_ += kCsvHeader;
    buffer_ += options_.pairwise ? ",seats\r\n" : "\r\n";
    header_done_ = true;
  }
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.flush();
  if (!out_) return Error{"write failed"};
  return Ok{};
}

std::string export_text(ExportFormat format, const ExportOptions& options,
                        const std::vector<GameRecord>& games,
                        const std::vector<std::vector<MoveRecord>>& moves) {
  static const std::vector<MoveRecord> none;
  std::ostringstream out;
  ExportWriter writer(out, format, options);
  for (std::size_t i = 0; i < games.size(); ++i)
    (void)writer.write(games[i], i < moves.size() ? moves[i] : none);
  (void)writer.finish();
  return out.str();
}

}  // namespace referee::storage
