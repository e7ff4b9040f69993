#include "ratings/report.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "ratings/format_util.h"
#include "ratings/rating_text.h"
#include "ratings/result_tables.h"
#include "ratings/selection.h"
#include "storage/name_ids.h"

namespace referee::ratings {

using storage::intern;

namespace {

bool finished(const storage::GameRecord& g) {
  return g.status == storage::GameStatus::Finished && g.ranks.size() == g.players.size() &&
         !g.players.empty();
}

std::string confidence_text(double confidence) {
  return text::short_percent(confidence);
}

std::string count_text(double v) {
  return text::fixed(v, 0);
}

std::string ratings_table(const RatingGroup& g) {
  std::vector<std::vector<std::string>> rows = {
      {"Rank", "Name", "Elo", "+/-", "Games", "W", "D", "L", "Score", "LOS"}};
  for (std::size_t k = 0; k < g.ratings.size(); ++k) {
    const Rating& r = g.ratings[k];
    rows.push_back({std::to_string(k + 1), r.name, elo_text(r), error_text(r),
                    std::to_string(r.games), count_text(r.wins), count_text(r.draws),
                    count_text(r.losses), text::percent(r.score),
                    std::isnan(r.los) ? "-" : text::percent(r.los)});
  }
  return text::columns(rows, {false, true});
}

std::string los_matrix(const RatingGroup& g) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"", ""};
  for (std::size_t k = 0; k < g.ratings.size(); ++k) header.push_back(std::to_string(k + 1));
  rows.push_back(header);
  for (std::size_t a = 0; a < g.ratings.size(); ++a) {
    std::vector<std::string> row = {std::to_string(a + 1), g.ratings[a].name};
    for (std::size_t b = 0; b < g.ratings.size(); ++b)
      row.push_back(std::isnan(g.los[a][b]) ? "-" : text::fixed(100 * g.los[a][b], 1));
    rows.push_back(row);
  }
  return "LOS matrix (%): the likelihood that the row's engine is stronger than the column's\n" +
         text::columns(rows, {false, true});
}

std::string seat_lines(const RatingGroup& g, bool name_variants, double confidence) {
  std::string out;
  for (const auto& s : g.seats) {
    const std::string where = name_variants ? " (" + s.variant + ")" : "";
    if (s.elo.size() == 2) {
      out += "first-player advantage" + where + ": " + text::fixed(s.first, 1, true) + " +/- " +
             text::fixed(s.first_error, 1) + " Elo (" + confidence_text(confidence) + ")\n";
    } else {
      out += "seat advantages" + where + ", Elo relative to the average seat:";
      for (std::size_t k = 0; k < s.elo.size(); ++k)
        out += std::string(k ? "," : "") + " seat " + std::to_string(k + 1) + " " +
               text::fixed(s.elo[k], 1, true) + " +/- " + text::fixed(s.error[k], 1);
      out += "\n";
    }
  }
  for (const auto& note : g.seat_notes) out += "seat advantage: " + note + "\n";
  return out;
}

std::string draw_line(const RatingGroup& g, double confidence) {
  const auto& d = g.draws;
  if (!d.estimated) return "";
  return "draws: " + text::percent(d.observed) +
         " of pairwise results; engines of equal strength " + "draw " + text::percent(d.equal) +
         " (" + confidence_text(confidence) + ": " + text::percent(d.low) + " to " +
         text::percent(d.high) + ")\n";
}

std::string names_of(const RatingGroup& g) {
  std::set<std::string> names;
  for (const auto& r : g.ratings) names.insert(r.name);
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

nlohmann::json number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace

std::string bound_name(Bound b) {
  switch (b) {
    case Bound::kLower:
      return "lower";
    case Bound::kUpper:
      return "upper";
    case Bound::kUnrated:
      return "unrated";
    default:
      return "";
  }
}

std::vector<GameTable> tables_by_game(const std::vector<const storage::GameRecord*>& games,
                                      int min_games) {
  std::map<std::string, std::string> canonical;
  std::map<std::string, std::vector<const storage::GameRecord*>> by_game;
  std::vector<const storage::GameRecord*> all;
  for (const auto* g : games) {
    if (!finished(*g)) continue;
    auto it = canonical.find(g->game);
    if (it == canonical.end()) it = canonical.emplace(g->game, canonical_game(g->game)).first;
    by_game[it->second].push_back(g);
    all.push_back(g);
  }
  std::vector<GameTable> out;
  for (auto& [title, list] : by_game) out.push_back({title, drop_rare_engines(list, min_games)});
  if (by_game.size() > 1) out.push_back({"all games", drop_rare_engines(all, min_games)});
  std::erase_if(out, [](const GameTable& t) { return t.games.empty(); });
  return out;
}

storage::ResultSet tally_games(const std::vector<const storage::GameRecord*>& games) {
  storage::ResultSet out;
  std::map<std::string, std::uint32_t> game_ids, engine_ids, termination_ids;
  for (const auto* g : games) {
    if (!finished(*g) || g->players.size() > storage::kMaxSeats) continue;
    storage::ResultPattern p;
    p.game = intern(game_ids, out.games, g->game);
    p.termination = intern(termination_ids, out.terminations, g->termination);
    p.players = static_cast<std::uint32_t>(g->players.size());
    for (std::size_t s = 0; s < g->players.size(); ++s) {
      p.engines[s] = intern(engine_ids, out.engines, g->players[s]);
      p.ranks[s] = static_cast<std::uint8_t>(std::clamp(g->ranks[s], 0, 255));
    }
    p.count = 1;
    out.patterns.push_back(p);
    ++out.total_games;
  }
  return out;
}

namespace {

// A table's games as tallies (and its game and termination counts in `r`).
GameTallies tallies_of(RatingReport& r, const storage::ResultSet& results,
                       const std::vector<std::size_t>& list,
                       const std::vector<std::uint32_t>& variant_of,
                       const std::vector<std::string>& variants) {
  GameTallies tallies;
  tallies.engines = results.engines;
  tallies.variants = variants;
  tallies.games.reserve(list.size());
  for (std::size_t k : list) {
    const auto& p = results.patterns[k];
    r.games += static_cast<std::size_t>(p.count);
    r.terminations[results.terminations[p.termination]] += static_cast<int>(p.count);
    GameTallies::Entry e;
    e.variant = variant_of[p.game];
    e.players = p.players;
    std::copy(p.engines.begin(), p.engines.end(), e.engines.begin());
    std::copy(p.ranks.begin(), p.ranks.end(), e.ranks.begin());
    e.count = p.count;
    tallies.games.push_back(e);
  }
  // Patterns that differ only by termination rate alike: merged (fewer results to fit).
  auto key = [](const GameTallies::Entry& e) {
    return std::tie(e.variant, e.players, e.engines, e.ranks);
  };
  std::sort(tallies.games.begin(), tallies.games.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  std::size_t kept = 0;
  for (std::size_t k = 0; k < tallies.games.size(); ++k) {
    if (kept > 0 && key(tallies.games[kept - 1]) == key(tallies.games[k]))
      tallies.games[kept - 1].count += tallies.games[k].count;
    else
      tallies.games[kept++] = tallies.games[k];
  }
  tallies.games.resize(kept);
  tallies.games.shrink_to_fit();
  return tallies;
}

}  // namespace

std::vector<RatingReport> rating_reports(storage::ResultSet results, const ReportOptions& options) {
  const Variants variants = variants_of(results);
  auto tables = pattern_tables(results, variants, options.game);
  std::vector<RatingReport> out;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    auto& [title, list] = tables[t];
    drop_rare(results, list, options.min_games);
    if (list.empty()) continue;
    RatingReport r;
    r.title = title;
    const GameTallies tallies = tallies_of(r, results, list, variants.of, variants.names);
    std::vector<std::size_t>().swap(list);
    // The last table: the fit gets the memory of the counted results.
    if (t + 1 == tables.size()) std::vector<storage::ResultPattern>().swap(results.patterns);
    r.table = rate(tallies, options.rating);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RatingReport> rating_reports(const std::vector<const storage::GameRecord*>& games,
                                         const ReportOptions& options) {
  return rating_reports(tally_games(games), options);
}

std::string report_text(const std::vector<RatingReport>& reports, const ReportOptions& options) {
  if (reports.empty()) return "no finished games\n";
  const RatingOptions& o = options.rating;
  std::string out;
  for (const auto& r : reports) {
    std::size_t engines = 0;
    bool robust = true, anchored = false, anchor_seen = false;
    std::vector<Rating> all_ratings;
    for (const auto& g : r.table.groups) {
      engines += g.ratings.size();
      robust = robust && g.robust;
      anchored = anchored || g.anchored;
      all_ratings.insert(all_ratings.end(), g.ratings.begin(), g.ratings.end());
      for (const auto& x : g.ratings) {
        anchor_seen = anchor_seen || (!o.anchor.empty() && x.name == o.anchor);
      }
    }
    out += r.title + " (" + text::count_of(r.games, "game") + ", " +
           text::count_of(engines, "engine") + ")\n";
    out += "Elo: maximum likelihood, logistic (400 log10), draws as half points, ";
    out += o.prior_draws > 0 ? "prior " + text::fixed(o.prior_draws, 2) +
                                   " virtual draws per engine against the average"
                             : std::string("no prior");
    if (anchored)
      out += "; anchor " + o.anchor + " = " + text::fixed(o.anchor_elo, 1) +
             " (errors relative to it)";
    else if (!o.anchor.empty())
      out += "; average 0 (anchor " + o.anchor +
             (anchor_seen ? " has no finite rating here)" : " is not in this table)");
    else
      out += "; average 0";
    out += "\nintervals: " + confidence_text(o.confidence) +
           (robust ? ", cluster-robust over whole games"
                   : ", model-based where marked (too few games for the cluster-robust estimate)") +
           "\n";
    const bool several = r.table.groups.size() > 1;
    if (several)
      out += "warning: these results form " + std::to_string(r.table.groups.size()) +
             " groups that never played each other, directly or through others; each group has "
             "its own scale, so ratings compare only within a group\n";
    const bool name_variants = r.title == "all games";
    for (std::size_t k = 0; k < r.table.groups.size(); ++k) {
      const auto& g = r.table.groups[k];
      if (several)
        out += "group " + std::to_string(k + 1) + " (" + names_of(g) + ")" +
               (g.robust ? "" : ", model-based errors") + ":\n";
      else if (!g.robust)
        out += "errors: model-based\n";
      out += seat_lines(g, name_variants, o.confidence);
      out += draw_line(g, o.confidence);
      out += ratings_table(g);
      if (options.los_matrix) out += los_matrix(g);
    }
    out +=
        "LOS: likelihood of superiority, the probability that an engine is stronger than the "
        "next one down (normal approximation with the covariance of both ratings).\n";
    for (const auto& line : legend(all_ratings, o.confidence)) out += line + "\n";
    out += "terminations:";
    for (const auto& [t, n] : r.terminations) out += " " + t + " " + std::to_string(n);
    out += "\n\n";
  }
  out.pop_back();
  return out;
}

std::string report_csv(const std::vector<RatingReport>& reports, const ReportOptions& options) {
  const RatingOptions& o = options.rating;
  std::string out = text::csv_row({"table", "group", "rank", "name", "elo", "bound", "error",
                                   "games", "wins", "draws", "losses", "score", "los", "confidence",
                                   "prior", "anchor", "anchor_elo", "limit", "reference"});
  for (const auto& r : reports)
    for (std::size_t k = 0; k < r.table.groups.size(); ++k) {
      const auto& g = r.table.groups[k];
      for (std::size_t i = 0; i < g.ratings.size(); ++i) {
        const Rating& x = g.ratings[i];
        const bool finite = x.bound == Bound::kNone;
        out += text::csv_row(
            {r.title, std::to_string(k + 1), std::to_string(i + 1), x.name,
             x.bound == Bound::kUnrated ? "" : text::fixed(x.shown, 2), bound_name(x.bound),
             finite && !x.reference ? text::fixed(x.error, 2) : "", std::to_string(x.games),
             count_text(x.wins), count_text(x.draws), count_text(x.losses), text::fixed(x.score, 4),
             std::isnan(x.los) ? "" : text::fixed(x.los, 4), text::number(100 * o.confidence),
             text::number(o.prior_draws), g.anchored ? o.anchor : "",
             g.anchored ? text::number(o.anchor_elo) : "",
             finite || x.bound == Bound::kUnrated ? "" : text::fixed(x.elo, 2),
             x.reference ? "1" : "0"});
      }
    }
  return out;
}

std::string report_json(const std::vector<RatingReport>& reports, const ReportOptions& options) {
  const RatingOptions& o = options.rating;
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& r : reports) {
    nlohmann::json t = {{"title", r.title}, {"games", r.games}, {"terminations", r.terminations}};
    t["model"] = {{"confidence", o.confidence}, {"prior_draws", o.prior_draws}};
    t["model"]["anchor"] = o.anchor.empty()
                               ? nlohmann::json(nullptr)
                               : nlohmann::json{{"name", o.anchor}, {"elo", o.anchor_elo}};
    t["groups"] = nlohmann::json::array();
    std::vector<Rating> all_ratings;
    for (const auto& g : r.table.groups)
      all_ratings.insert(all_ratings.end(), g.ratings.begin(), g.ratings.end());
    t["legend"] = legend(all_ratings, o.confidence);
    for (const auto& g : r.table.groups) {
      nlohmann::json group = {{"anchored", g.anchored},
                              {"average", number(g.average)},
                              {"errors", g.robust ? "cluster-robust" : "model-based"},
                              {"seat_notes", g.seat_notes}};
      group["seat_advantage"] = nlohmann::json::array();
      for (const auto& s : g.seats) {
        nlohmann::json seats = nlohmann::json::array();
        for (std::size_t k = 0; k < s.elo.size(); ++k)
          seats.push_back(
              {{"seat", k + 1}, {"elo", number(s.elo[k])}, {"error", number(s.error[k])}});
        group["seat_advantage"].push_back({{"variant", s.variant},
                                           {"first_player", number(s.first)},
                                           {"first_player_error", number(s.first_error)},
                                           {"seats", seats}});
      }
      const auto& d = g.draws;
      group["draws"] = d.estimated ? nlohmann::json{{"observed", d.observed},
                                                    {"equal_engines", d.equal},
                                                    {"low", d.low},
                                                    {"high", d.high},
                                                    {"drawelo", d.drawelo}}
                                   : nlohmann::json(nullptr);
      group["ratings"] = nlohmann::json::array();
      nlohmann::json los = nlohmann::json::object();
      for (std::size_t i = 0; i < g.ratings.size(); ++i) {
        const Rating& x = g.ratings[i];
        group["ratings"].push_back(
            {{"rank", i + 1},
             {"name", x.name},
             {"elo", x.bound == Bound::kUnrated ? nlohmann::json(nullptr) : number(x.shown)},
             {"bound", x.bound == Bound::kNone ? nlohmann::json(nullptr)
                                               : nlohmann::json(bound_name(x.bound))},
             {"limit", x.bound == Bound::kLower || x.bound == Bound::kUpper
                           ? number(x.elo)
                           : nlohmann::json(nullptr)},
             {"reference", x.reference},
             {"text", elo_text(x)},
             {"error",
              x.bound == Bound::kNone && !x.reference ? number(x.error) : nlohmann::json(nullptr)},
             {"games", x.games},
             {"wins", x.wins},
             {"draws", x.draws},
             {"losses", x.losses},
             {"score", x.score},
             {"los", number(x.los)}});
        nlohmann::json row = nlohmann::json::object();
        for (std::size_t j = 0; j < g.ratings.size(); ++j)
          if (!std::isnan(g.los[i][j])) row[g.ratings[j].name] = g.los[i][j];
        los[x.name] = row;
      }
      group["los"] = los;
      t["groups"].push_back(std::move(group));
    }
    tables.push_back(std::move(t));
  }
  return nlohmann::json{{"tables", tables}}.dump(2) + "\n";
}

std::string ratings_report(const std::vector<storage::GameRecord>& games) {
  std::vector<const storage::GameRecord*> list;
  for (const auto& g : games) list.push_back(&g);
  return ratings_report(tally_games(list));
}

std::string ratings_report(const storage::ResultSet& results) {
  const ReportOptions options;
  return report_text(rating_reports(results, options), options);
}

}  // namespace referee::ratings
