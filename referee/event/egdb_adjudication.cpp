#include "event/egdb_adjudication.h"

#include <filesystem>

#include "base/text.h"
#include "games/egdb/model.h"
#include "games/egdb/table_file.h"

namespace referee::event {

namespace {

std::string named(const std::string& path) {
  return "egdb table '" + text::printable(path) + "'";
}

}  // namespace

std::string checksum_text(std::uint64_t checksum) {
  return games::egdb::hex64(checksum);
}

std::optional<std::uint64_t> parse_checksum(const std::string& text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    int d = 0;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v * 16 + static_cast<std::uint64_t>(d);
  }
  return v;
}

Expected<std::pair<EgdbPin, SharedTable>> pin_table(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return Error{named(path) + " is not a readable file", ErrorKind::NotFound};
  auto table = games::egdb::open_table(path);
  if (!table) return Error{named(path) + ": " + table.error(), table.kind()};
  EgdbPin pin{path, table->checksum()};
  return std::pair{pin, std::make_shared<const games::egdb::Table>(std::move(*table))};
}

Expected<SharedTable> open_pinned(const EgdbPin& pin) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(pin.path, ec))
    return Error{named(pin.path) + " is not on this host", ErrorKind::NotFound};
  auto table = games::egdb::open_table(pin.path);
  if (!table) return Error{named(pin.path) + ": " + table.error(), table.kind()};
  if (table->checksum() != pin.checksum)
    return Error{named(pin.path) + " has checksum " + checksum_text(table->checksum()) +
                     " on this host, the event pins " + checksum_text(pin.checksum),
                 ErrorKind::Conflict};
  return std::make_shared<const games::egdb::Table>(std::move(*table));
}

match::PositionJudge egdb_judge(SharedTable table, const games::Game& game,
                                const std::string& path) {
  if (!table) return {};
  auto model = games::egdb::model_for(game);
  if (!model || model->key != table->model().key) return {};
  const bool repeats = table->model().family == games::egdb::Family::Awale;
  return [table, game, path, repeats](const games::State& state) -> std::optional<match::Verdict> {
    auto p = games::egdb::probe(*table, game, state);
    if (!p || !p->has_value() || !(*p)->exact) return std::nullopt;
    const auto& v = **p;
    match::Verdict verdict;
    const int south = v.final_scores[0], north = v.final_scores[1];
    verdict.scores = {static_cast<double>(south), static_cast<double>(north)};
    verdict.ranks = {south >= north ? 1 : 2, north >= south ? 1 : 2};
    const std::string value = (v.margin > 0 ? "+" : "") + std::to_string(v.margin);
    verdict.reason = "egdb " + std::filesystem::path(path).filename().string() + " after ply " +
                     std::to_string(state.ply()) + ": value " + value + " for " +
                     (v.mover == 1 ? "South" : "North") + " to move, final score " +
                     std::to_string(south) + "-" + std::to_string(north) + " under perfect play" +
                     (repeats ? " (the repetition limit set aside)" : "");
    return verdict;
  };
}

}  // namespace referee::event
