// How one rating reads wherever people see it: `referee ratings`, a tournament's closing table,
// the API's standings (which `watch`, `status` and the dashboard print as given), so that a bound
// never reads as a measured rating and a table's figures never contradict its ranks.
//
// - A finite rating is its figure, with its error (`12.3`, `40.1`).
// - A bound is `> X` or `< X` with X = Rating::shown (never beyond the next engine's figure), and
//   no error: the rating has no finite estimate.
// - The only finite rating of a group is the scale's reference: its figure (0, or the anchor)
//   with `ref` for an error, never `± 0.0`.
// - An engine that met only bounds is `?`.
// The legend has one line for each of these kinds present in a table.
#pragma once

#include <string>
#include <vector>

#include "ratings/ratings.h"

namespace referee::ratings {

// "12.3", "> 0.0", "< -40.5", "?": one decimal.
std::string elo_text(const Rating& r);
// "40.1", "ref" for a group's reference, "-" for a bound or an unrated engine.
std::string error_text(const Rating& r);

// One line for each kind of entry present in `ratings` that needs saying (bounds, the reference,
// unrated engines), at the table's confidence (0.95 = 95 %).
std::vector<std::string> legend(const std::vector<Rating>& ratings, double confidence);

}  // namespace referee::ratings
