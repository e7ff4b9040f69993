#include "ratings/sprt_games.h"

#include <nlohmann/json.hpp>

#include "ratings/format_util.h"

namespace referee::ratings {

SprtTally sprt_tally(const std::vector<storage::GameRecord>& games, const std::string& a,
                     const std::string& b, const SprtConfig& config, bool pairs_only) {
  std::vector<const storage::GameRecord*> between;
  for (const auto& g : games)
    if (g.players.size() == 2 && g.ranks.size() == 2 && g.status == storage::GameStatus::Finished)
      between.push_back(&g);
  SprtTally t;
  t.h = head_to_head(between, a, b);
  t.paired = pairs_only || t.h.pairs.total() > 0;
  t.state = t.paired ? sprt_update(config, t.h.pairs) : sprt_update(config, t.h.games);
  return t;
}

std::string sprt_progress(const SprtConfig& config, const SprtState& state) {
  return "LLR " + text::fixed(state.llr, 2) + " (" + text::fixed(state.lower, 2) + ", " +
         text::fixed(state.upper, 2) + ") [" + text::fixed(config.elo0, 2) + ", " +
         text::fixed(config.elo1, 2) + "]";
}

std::string ptnml_text(const Pentanomial& p) {
  return "Ptnml(0-2): [" + std::to_string(p.ll) + ", " + std::to_string(p.ld) + ", " +
         std::to_string(p.wl + p.dd) + ", " + std::to_string(p.wd) + ", " + std::to_string(p.ww) +
         "]";
}

std::string sprt_verdict(const SprtState& state) {
  switch (state.decision) {
    case SprtDecision::kAcceptH1:
      return "H1 accepted, LLR " + text::fixed(state.llr, 2) + " >= " + text::fixed(state.upper, 2);
    case SprtDecision::kAcceptH0:
      return "H0 accepted, LLR " + text::fixed(state.llr, 2) + " <= " + text::fixed(state.lower, 2);
    default:
      return "";
  }
}

nlohmann::json sprt_json(const SprtConfig& config, const SprtTally& tally) {
  using nlohmann::json;
  const auto& s = tally.state;
  const auto& p = tally.h.pairs;
  const auto& g = tally.h.games;
  const std::string verdict = sprt_verdict(s);
  return json{{"elo0", config.elo0},
              {"elo1", config.elo1},
              {"alpha", config.alpha},
              {"beta", config.beta},
              {"model", model_name(config.model)},
              {"llr", s.llr},
              {"lower", s.lower},
              {"upper", s.upper},
              {"decision", s.decision == SprtDecision::kAcceptH1   ? json("H1")
                           : s.decision == SprtDecision::kAcceptH0 ? json("H0")
                                                                   : json(nullptr)},
              {"verdict", verdict.empty() ? json(nullptr) : json(verdict)},
              {"unit", tally.paired ? "pairs" : "games"},
              {"engine", tally.h.engine},
              {"opponent", tally.h.opponent},
              {"games", {{"wins", g.wins}, {"draws", g.draws}, {"losses", g.losses}}},
              {"pairs", p.total()},
              {"pentanomial", {p.ll, p.ld, p.wl + p.dd, p.wd, p.ww}}};
}

}  // namespace referee::ratings
