#include "event/output_budget.h"

namespace referee::event {

namespace {

std::string size_text(std::int64_t bytes) {
  if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1LL << 10) && bytes % (1LL << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string window_text(std::chrono::seconds w) {
  const auto s = w.count();
  if (s >= 3600 && s % 3600 == 0) return std::to_string(s / 3600) + " h";
  if (s >= 60 && s % 60 == 0) return std::to_string(s / 60) + " min";
  return std::to_string(s) + " s";
}

}  // namespace

OutputBudget::OutputBudget(OutputBudgetSettings settings) : settings_(settings) {}

OutputBudget::Charge OutputBudget::charge(const std::string& engine, std::size_t bytes,
                                          Clock::time_point now) {
  if (settings_.bytes <= 0) return {};
  std::lock_guard lock(mutex_);
  auto [it, added] = windows_.try_emplace(engine);
  Window& w = it->second;
  if (added || now - w.start >= settings_.window) w = Window{now, 0, false};
  const auto cost = static_cast<std::int64_t>(bytes);
  if (w.used + cost <= settings_.bytes) {
    w.used += cost;
    return {};
  }
  w.used = settings_.bytes;  // a refused line spends the rest: no smaller line slips in later
  const bool first = !w.refused;
  w.refused = true;
  return {false, first};
}

std::string OutputBudget::dropped_note(const std::string& engine) const {
  return "referee: engine '" + engine + "' has spent its output budget (" +
         size_text(settings_.bytes) + " per " + window_text(settings_.window) +
         "): its further output is dropped here";
}

std::string OutputBudget::filter(const std::string& engine, std::vector<storage::LogLine>& lines) {
  if (settings_.bytes <= 0) return "";
  std::vector<storage::LogLine> kept;
  kept.reserve(lines.size());
  bool noted = false, first = false;
  const auto now = Clock::now();
  for (auto& line : lines) {
    if (line.direction == '>') {  // the referee's: bounded by the game's length
      kept.push_back(std::move(line));
      continue;
    }
    const Charge c = charge(engine, line.text.size() + 1, now);
    first = first || c.first_refusal;
    if (c.allowed) {
      kept.push_back(std::move(line));
    } else if (!noted) {
      noted = true;
      storage::LogLine note = line;
      note.direction = '!';
      note.text = dropped_note(engine);
      kept.push_back(std::move(note));
    }
  }
  lines = std::move(kept);
  return first ? notice(engine) : "";
}

std::string OutputBudget::notice(const std::string& engine) const {
  return "engine '" + engine + "' has spent its output budget (" + size_text(settings_.bytes) +
         " per " + window_text(settings_.window) +
         "): its further output is not stored until its window ends";
}

}  // namespace referee::event
