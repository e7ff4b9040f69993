// The JSON form of a BoardView (board_view.h): the one conversion the CLI (`referee show --json`)
// and the service's API both use, so the dashboard sees a single shape. The format is documented
// in referee/service/board_view.md. Coordinates are rounded to 0.01 unit; absent values (a hole's
// piece, a point's count, a cell's owner 0, a label that is not written) are null.
#pragma once

#include <nlohmann/json.hpp>

#include "games/board_view.h"

namespace referee::games {

nlohmann::json board_view_json(const BoardView& view);

// For nlohmann's implicit conversion: `nlohmann::json j = state.view();`.
inline void to_json(nlohmann::json& j, const BoardView& view) {
  j = board_view_json(view);
}

}  // namespace referee::games
