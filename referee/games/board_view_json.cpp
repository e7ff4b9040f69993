#include "games/board_view_json.h"

#include <cmath>

namespace referee::games {

namespace {

double rounded(double v) {
  const double r = std::round(v * 100) / 100;
  return r == 0 ? 0 : r;  // never "-0.0"
}

nlohmann::json cell_json(const ViewCell& c) {
  nlohmann::json j = {{"id", c.id},
                      {"label", c.label},
                      {"x", rounded(c.x)},
                      {"y", rounded(c.y)},
                      {"w", rounded(c.w)},
                      {"h", rounded(c.h)},
                      {"kind", cell_kind_name(c.kind)},
                      {"mark", c.mark}};
  j["count"] = c.count ? nlohmann::json(*c.count) : nlohmann::json(nullptr);
  j["piece"] = c.piece ? nlohmann::json{{"player", c.piece->player}, {"king", c.piece->king}}
                       : nlohmann::json(nullptr);
  j["owner"] = c.owner ? nlohmann::json(c.owner) : nlohmann::json(nullptr);
  j["label_at"] =
      c.label_at ? nlohmann::json::array({rounded((*c.label_at)[0]), rounded((*c.label_at)[1])})
                 : nlohmann::json(nullptr);
  return j;
}

}  // namespace

nlohmann::json board_view_json(const BoardView& view) {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& c : view.cells) cells.push_back(cell_json(c));
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& l : view.lines)
    lines.push_back({rounded(l[0]), rounded(l[1]), rounded(l[2]), rounded(l[3])});
  nlohmann::json arcs = nlohmann::json::array();
  for (const auto& a : view.arcs)
    arcs.push_back({{"cx", rounded(a.cx)},
                    {"cy", rounded(a.cy)},
                    {"r", rounded(a.r)},
                    {"from", rounded(a.from)},
                    {"to", rounded(a.to)},
                    {"group", a.group}});
  nlohmann::json texts = nlohmann::json::array();
  for (const auto& t : view.texts)
    texts.push_back(
        {{"x", rounded(t.x)}, {"y", rounded(t.y)}, {"text", t.text}, {"player", t.player}});
  return {{"family", view.family},
          {"width", rounded(view.width)},
          {"height", rounded(view.height)},
          {"cells", std::move(cells)},
          {"lines", std::move(lines)},
          {"arcs", std::move(arcs)},
          {"texts", std::move(texts)},
          {"players", view.players},
          {"to_move", view.to_move},
          {"scores", view.scores},
          {"score_label", view.score_label},
          {"final_scores",
           view.final_scores.empty() ? nlohmann::json(nullptr) : nlohmann::json(view.final_scores)},
          {"round", view.round},
          {"phase", view.phase},
          {"legend", view.legend},
          {"notes", view.notes}};
}

}  // namespace referee::games
