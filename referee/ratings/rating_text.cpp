#include "ratings/rating_text.h"

#include "ratings/format_util.h"

namespace referee::ratings {

std::string elo_text(const Rating& r) {
  switch (r.bound) {
    case Bound::kLower:
      return "> " + text::fixed(r.shown, 1);
    case Bound::kUpper:
      return "< " + text::fixed(r.shown, 1);
    case Bound::kUnrated:
      return "?";
    default:
      return text::fixed(r.shown, 1);
  }
}

std::string error_text(const Rating& r) {
  if (r.bound != Bound::kNone) return "-";
  return r.reference ? "ref" : text::fixed(r.error, 1);
}

std::vector<std::string> legend(const std::vector<Rating>& ratings, double confidence) {
  bool bounds = false, reference = false, unrated = false;
  for (const auto& r : ratings) {
    bounds = bounds || r.bound == Bound::kLower || r.bound == Bound::kUpper;
    reference = reference || r.reference;
    unrated = unrated || r.bound == Bound::kUnrated;
  }
  std::vector<std::string> lines;
  if (bounds)
    lines.push_back(
        "> X (< X): won (lost) every game against the engines with finite ratings, so the rating "
        "is only bounded: above (below) X, where X is the rating at which that still has "
        "probability " +
        text::short_percent((1 - confidence) / 2) + " (the end of the " +
        text::short_percent(confidence) +
        " interval), or the next engine's figure when that is higher (lower).");
  if (reference)
    lines.push_back(
        "ref: the only engine with a finite rating in its group; its figure fixes the scale and "
        "measures nothing.");
  if (unrated) lines.push_back("?: the engine met only engines that are themselves bounds.");
  return lines;
}

}  // namespace referee::ratings
