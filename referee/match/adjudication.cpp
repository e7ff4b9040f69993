#include "match/adjudication.h"

namespace referee::match {

namespace {

// A mate counts beyond every threshold: these compare a score with ±threshold.
bool at_or_below(const Score& s, long threshold) {
  return s.mate ? s.value <= 0 : s.value <= threshold;
}
bool at_or_above(const Score& s, long threshold) {
  return s.mate ? s.value > 0 : s.value >= threshold;
}
bool within(const Score& s, long band) {
  return !s.mate && s.value >= -band && s.value <= band;
}

// The last `plies` engine plies of `history`, latest first; fewer when the game has fewer.
std::vector<const PlyScore*> window(const std::vector<PlyScore>& history, int plies) {
  std::vector<const PlyScore*> out;
  for (auto it = history.rbegin(); it != history.rend() && static_cast<int>(out.size()) < plies;
       ++it)
    if (it->by_engine) out.push_back(&*it);
  return out;
}

const std::string& name_of(const std::vector<std::string>& names, int player) {
  static const std::string none;
  return player >= 1 && player <= static_cast<int>(names.size())
             ? names[static_cast<std::size_t>(player - 1)]
             : none;
}

// "(last: alpha +3, beta -2)": each engine's latest score in the window, in seat order.
std::string last_scores(const std::vector<const PlyScore*>& plies,
                        const std::vector<std::string>& names, int players) {
  std::string out;
  for (int p = 1; p <= players; ++p)
    for (const PlyScore* ply : plies)
      if (ply->player == p && ply->score) {
        out += (out.empty() ? "" : ", ") + name_of(names, p) + " " + score_text(*ply->score);
        break;
      }
  return "(last: " + out + ")";
}

std::string signed_text(long v) {
  return (v > 0 ? "+" : "") + std::to_string(v);
}

// Whether `loser` resigns by the rule after the window's plies.
bool resigns(const ResignRule& rule, const std::vector<const PlyScore*>& plies, int loser) {
  // One-sided, the run is the loser's score staying low: it starts with one of its own plies.
  if (!rule.two_sided && plies.back()->player != loser) return false;
  bool loser_seen = false, winner_seen = false;
  for (const PlyScore* ply : plies) {
    if (ply->player == loser) {
      if (!ply->score || !at_or_below(*ply->score, -rule.score)) return false;
      loser_seen = true;
    } else if (rule.two_sided) {
      if (!ply->score || !at_or_above(*ply->score, rule.score)) return false;
      winner_seen = true;
    }
  }
  return loser_seen && (winner_seen || !rule.two_sided);
}

}  // namespace

std::optional<Score> score_of(std::optional<long> cp, std::optional<long> mate) {
  if (mate) return Score{true, *mate};
  if (cp) return Score{false, *cp};
  return std::nullopt;
}

std::string score_text(const Score& score) {
  return score.mate ? "mate " + std::to_string(score.value) : signed_text(score.value);
}

Status check_adjudication(const Adjudication& rules, int players) {
  if (!rules.any()) return Ok{};
  auto range = [](const std::string& key, long long v, long long lo, long long hi) -> Status {
    if (v >= lo && v <= hi) return Ok{};
    return Error{"adjudication: " + key + " must be from " + std::to_string(lo) + " to " +
                 std::to_string(hi) + ", not " + std::to_string(v)};
  };
  if (rules.draw) {
    if (auto r = range("draw.from_ply", rules.draw->from_ply, 1, kMaxAdjudicationPlies); !r)
      return r;
    if (auto r = range("draw.score", rules.draw->score, 0, kMaxAdjudicationScore); !r) return r;
    if (auto r = range("draw.plies", rules.draw->plies, 1, kMaxAdjudicationPlies); !r) return r;
  }
  if (rules.resign) {
    if (auto r = range("resign.score", rules.resign->score, 1, kMaxAdjudicationScore); !r) return r;
    if (auto r = range("resign.plies", rules.resign->plies, 1, kMaxAdjudicationPlies); !r) return r;
  }
  if (rules.draw && rules.resign && rules.draw->score >= rules.resign->score)
    return Error{"adjudication: draw.score (" + std::to_string(rules.draw->score) +
                 ") must be below resign.score (" + std::to_string(rules.resign->score) + ")"};
  if (players != 2)
    return Error{"adjudication: only for two-player games; this game has " +
                 std::to_string(players) + " players"};
  return Ok{};
}

std::optional<Verdict> adjudicate(const Adjudication& rules, const std::vector<PlyScore>& history,
                                  const std::vector<std::string>& names) {
  if (history.empty() || !history.back().by_engine) return std::nullopt;
  const int after = history.back().ply;
  if (rules.resign) {
    const ResignRule& rule = *rules.resign;
    const auto plies = window(history, rule.plies);
    if (static_cast<int>(plies.size()) == rule.plies) {
      for (int loser = 1; loser <= 2; ++loser) {
        if (!resigns(rule, plies, loser)) continue;
        const int winner = 3 - loser;
        Verdict v;
        v.ranks = {loser == 1 ? 2 : 1, loser == 2 ? 2 : 1};
        const std::string threshold = std::to_string(rule.score);
        v.reason =
            "adjudicated a loss for " + name_of(names, loser) + " after ply " +
            std::to_string(after) + ": its score at or below -" + threshold +
            (rule.two_sided ? " and " + name_of(names, winner) + "'s at or above +" + threshold
                            : std::string()) +
            " for " + std::to_string(rule.plies) + " plies " + last_scores(plies, names, 2);
        return v;
      }
    }
  }
  if (rules.draw) {
    const DrawRule& rule = *rules.draw;
    const auto plies = window(history, rule.plies);
    if (static_cast<int>(plies.size()) < rule.plies || plies.back()->ply < rule.from_ply)
      return std::nullopt;
    bool seen[2] = {false, false};
    for (const PlyScore* ply : plies) {
      if (!ply->score || !within(*ply->score, rule.score)) return std::nullopt;
      if (ply->player == 1 || ply->player == 2) seen[ply->player - 1] = true;
    }
    if (!seen[0] || !seen[1]) return std::nullopt;
    Verdict v;
    v.ranks = {1, 1};
    v.reason = "adjudicated a draw after ply " + std::to_string(after) + ": scores within ±" +
               std::to_string(rule.score) + " for " + std::to_string(rule.plies) + " plies" +
               (rule.from_ply > 1 ? " from ply " + std::to_string(rule.from_ply) + " on" : "") +
               " " + last_scores(plies, names, 2);
    return v;
  }
  return std::nullopt;
}

}  // namespace referee::match
