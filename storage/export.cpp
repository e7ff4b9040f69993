// Exports of stored games as text: PGN for the rating tools, JSON Lines, CSV.
//
// PGN decisions (read by Ordo, which takes only [White], [Black] and [Result] lines, and by
// BayesElo):
// - Seven-tag roster first, in the standard order; then [Variant] (the game's name),
//   [GameString] (canonical, with parameters), [SetUp "1"] + [FEN] only when the game did not
//   start from its standard start, [TimeControl] when set, [Termination], [PlyCount].
// - Event = the tournament's name ("?" outside one), Site "?", Date from started_at
//   ("????.??.??" when unknown), Round = schedule slot + 1 ("-" outside a schedule).
// - Movetext: "1. 3 9 2. 12 5 ...", a number before every odd ply of the whole game (mancala
//   moves are plain tokens); engine moves carry {[%emt H:MM:SS.mmm] [%clk H:MM:SS.mmm]} (time
//   used, clock left) when known, opening moves {book}, forced moves {forced}; then the reason as
//   a comment and the result token. Lines are wrapped at 79 columns; a unit never splits.
// - Results "1-0", "0-1", "1/2-1/2" from ranks (better rank wins, equal ranks draw), "*" for a
//   game without ranks (unfinished). A game of more than two players becomes one PGN game per
//   pair of seats (i < j: White = seat i, Black = seat j) with [Pairwise "yes"] and no moves.
// CSV: RFC 4180 (CRLF line ends, fields with a comma, quote, CR or LF quoted, quotes doubled);
// list fields (opening, players, ranks, scores) are joined with ';' (opening with ' ').
#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

#include "games/game.h"
#include "storage/store.h"

namespace referee::storage {

namespace {

std::string number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string tag_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
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

std::string result_of(const GameRecord& g, std::size_t a, std::size_t b) {
  if (g.ranks.size() != g.players.size() || a >= g.ranks.size() || b >= g.ranks.size()) return "*";
  if (g.ranks[a] < g.ranks[b]) return "1-0";
  if (g.ranks[a] > g.ranks[b]) return "0-1";
  return "1/2-1/2";
}

bool standard_start(const GameRecord& g) {
  if (g.start_position.empty()) return true;
  auto game = games::make_game(g.game);
  return game.ok() && game->initial_state().to_string() == g.start_position;
}

std::string variant_of(const std::string& game_string) {
  return game_string.substr(0, game_string.find(':'));
}

struct Ply {
  std::string move;
  std::string note;  // comment text, may be empty
};

std::string move_note(const MoveRecord& m) {
  std::string note = m.note;
  auto add = [&](const std::string& s) { note += (note.empty() ? "" : " ") + s; };
  if (m.source == "opening") {
    add("book");
    return note;
  }
  if (m.source == "forced") {
    add("forced");
    return note;
  }
  if (m.time_ms >= 0) add("[%emt " + clock_text(m.time_ms) + "]");
  if (m.clock_ms >= 0) add("[%clk " + clock_text(m.clock_ms) + "]");
  return note;
}

std::vector<Ply> plies_of(const GameRecord& g, const std::vector<MoveRecord>& moves) {
  std::vector<Ply> out;
  bool opening_recorded = false;
  for (const MoveRecord& m : moves) opening_recorded = opening_recorded || m.source == "opening";
  if (!opening_recorded)
    for (const auto& m : g.opening) out.push_back({m, "book"});
  for (const MoveRecord& m : moves) out.push_back({m.move, move_note(m)});
  return out;
}

// Joins units with spaces into lines of at most 79 columns (a longer unit stands alone).
void wrap(std::ostringstream& out, const std::vector<std::string>& units) {
  std::size_t column = 0;
  for (const auto& u : units) {
    if (column > 0 && column + 1 + u.size() > 79) {
      out << '\n';
      column = 0;
    }
    if (column > 0) {
      out << ' ';
      ++column;
    }
    out << u;
    column += u.size();
  }
  out << "\n\n";
}

void tags(std::ostringstream& out, const GameRecord& g, std::size_t white, std::size_t black,
          bool pairwise) {
  auto tag = [&](const std::string& name, const std::string& value) {
    out << '[' << name << " \"" << tag_value(value) << "\"]\n";
  };
  tag("Event", g.tournament.empty() ? "?" : g.tournament);
  tag("Site", "?");
  tag("Date", pgn_date(g.started_at));
  tag("Round", g.slot >= 0 ? std::to_string(g.slot + 1) : "-");
  tag("White", g.players.at(white));
  tag("Black", g.players.at(black));
  tag("Result", result_of(g, white, black));
  tag("Variant", variant_of(g.game));
  tag("GameString", g.game);
  if (!standard_start(g)) {
    tag("SetUp", "1");
    tag("FEN", g.start_position);
  }
  if (!g.time_control.empty()) tag("TimeControl", g.time_control);
  if (!g.termination.empty()) tag("Termination", g.termination);
  tag("PlyCount", std::to_string(g.plies));
  if (pairwise) tag("Pairwise", "yes");
  out << '\n';
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string export_pgn(const std::vector<GameRecord>& games,
                       const std::vector<std::vector<MoveRecord>>& moves) {
  static const std::vector<MoveRecord> none;
  std::ostringstream out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const GameRecord& g = games[i];
    if (g.players.size() < 2) continue;
    if (g.players.size() == 2) {
      tags(out, g, 0, 1, false);
      std::vector<std::string> units;
      auto plies = plies_of(g, i < moves.size() ? moves[i] : none);
      for (std::size_t k = 0; k < plies.size(); ++k) {
        if (k % 2 == 0) units.push_back(std::to_string(k / 2 + 1) + ".");
        units.push_back(plies[k].move);
        if (!plies[k].note.empty()) units.push_back(comment(plies[k].note));
      }
      if (!g.reason.empty()) units.push_back(comment(g.reason));
      units.push_back(result_of(g, 0, 1));
      wrap(out, units);
      continue;
    }
    const std::size_t n = g.players.size();
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        tags(out, g, a, b, true);
        wrap(out, {comment("seats " + std::to_string(a + 1) + " and " + std::to_string(b + 1) +
                           " of a " + std::to_string(n) + "-player game"),
                   result_of(g, a, b)});
      }
  }
  return out.str();
}

std::string export_jsonl(const std::vector<GameRecord>& games,
                         const std::vector<std::vector<MoveRecord>>& moves) {
  std::string out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const GameRecord& g = games[i];
    nlohmann::ordered_json j;
    j["id"] = g.id;
    j["tournament_id"] = g.tournament_id ? nlohmann::ordered_json(*g.tournament_id) : nullptr;
    j["tournament"] = g.tournament;
    j["slot"] = g.slot;
    j["game"] = g.game;
    j["start_position"] = g.start_position;
    j["opening"] = g.opening;
    j["players"] = g.players;
    j["time_control"] = g.time_control;
    j["status"] = g.status;
    j["ranks"] = g.ranks;
    j["scores"] = g.scores;
    j["termination"] = g.termination;
    j["reason"] = g.reason;
    j["started_at"] = g.started_at;
    j["finished_at"] = g.finished_at;
    j["plies"] = g.plies;
    auto list = nlohmann::ordered_json::array();
    if (i < moves.size())
      for (const MoveRecord& m : moves[i]) {
        nlohmann::ordered_json mj;
        mj["ply"] = m.ply;
        mj["player"] = m.player;
        mj["move"] = m.move;
        mj["time_ms"] = m.time_ms;
        mj["clock_ms"] = m.clock_ms;
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
  return out;
}

std::string export_csv(const std::vector<GameRecord>& games) {
  std::string out =
      "id,tournament,slot,game,start_position,opening,players,time_control,status,ranks,scores,"
      "termination,reason,started_at,finished_at,plies\r\n";
  for (const GameRecord& g : games) {
    std::vector<std::string> ranks, scores;
    for (int r : g.ranks) ranks.push_back(std::to_string(r));
    for (double s : g.scores) scores.push_back(number(s));
    const std::vector<std::string> fields = {std::to_string(g.id),
                                             g.tournament,
                                             std::to_string(g.slot),
                                             g.game,
                                             g.start_position,
                                             joined(g.opening, " "),
                                             joined(g.players, ";"),
                                             g.time_control,
                                             g.status,
                                             joined(ranks, ";"),
                                             joined(scores, ";"),
                                             g.termination,
                                             g.reason,
                                             g.started_at,
                                             g.finished_at,
                                             std::to_string(g.plies)};
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ',';
      out += csv_field(fields[i]);
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace referee::storage
