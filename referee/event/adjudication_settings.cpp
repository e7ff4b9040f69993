#include "event/adjudication_settings.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "base/text.h"

namespace referee::event {

namespace {

using nlohmann::json;

// One rule's table: known keys, integers in range, booleans.
class RuleReader {
 public:
  RuleReader(const json& table, std::string where) : table_(table), where_(std::move(where)) {}

  Status keys(std::initializer_list<const char*> known) const {
    if (!table_.is_object()) return Error{where_ + " must be a table (" + known_list(known) + ")"};
    for (const auto& [key, value] : table_.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok)
        return Error{where_ + ": unknown key '" + text::printable(key) + "' (" + known_list(known) +
                     ")"};
    }
    return Ok{};
  }

  template <class T>
  Status integer(const char* key, T& out, long long lo, long long hi, bool required) const {
    const std::string name = where_ + "." + key;
    if (!table_.contains(key)) {
      if (required) return Error{name + " is missing"};
      return Ok{};
    }
    const json& v = table_[key];
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      return Error{name + " must be an integer from " + std::to_string(lo) + " to " +
                   std::to_string(hi) + ", not " + text::printable(v.dump().substr(0, 40))};
    out = static_cast<T>(v.get<long long>());
    return Ok{};
  }

  Status boolean(const char* key, bool& out) const {
    if (!table_.contains(key)) return Ok{};
    if (!table_[key].is_boolean())
      return Error{where_ + "." + key + " must be true or false, not " +
                   text::printable(table_[key].dump().substr(0, 40))};
    out = table_[key].get<bool>();
    return Ok{};
  }

 private:
  static std::string known_list(std::initializer_list<const char*> known) {
    std::string out;
    for (const char* k : known) out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
  }

  const json& table_;
  std::string where_;
};

#define TRY(expr)                           \
  do {                                      \
    auto status_ = (expr);                  \
    if (!status_) return status_.failure(); \
  } while (false)

Expected<match::DrawRule> read_draw(const json& table, const std::string& where) {
  RuleReader r(table, where);
  TRY(r.keys({"from_ply", "score", "plies"}));
  match::DrawRule rule;
  TRY(r.integer("from_ply", rule.from_ply, 1, match::kMaxAdjudicationPlies, false));
  TRY(r.integer("score", rule.score, 0, match::kMaxAdjudicationScore, true));
  TRY(r.integer("plies", rule.plies, 1, match::kMaxAdjudicationPlies, true));
  return rule;
}

Expected<match::ResignRule> read_resign(const json& table, const std::string& where) {
  RuleReader r(table, where);
  TRY(r.keys({"score", "plies", "two_sided"}));
  match::ResignRule rule;
  TRY(r.integer("score", rule.score, 1, match::kMaxAdjudicationScore, true));
  TRY(r.integer("plies", rule.plies, 1, match::kMaxAdjudicationPlies, true));
  TRY(r.boolean("two_sided", rule.two_sided));
  return rule;
}

// The rules' consistency (check_adjudication) without the game's players, known later.
Status consistent(const match::Adjudication& rules, const std::string& where) {
  if (auto ok = match::check_adjudication(rules, 2); !ok) {
    const std::string& e = ok.error();
    const std::string prefix = "adjudication: ";
    return Error{where + ": " + (e.rfind(prefix, 0) == 0 ? e.substr(prefix.size()) : e)};
  }
  return Ok{};
}

}  // namespace

Expected<match::Adjudication> parse_adjudication(const json& table, const std::string& where) {
  if (!table.is_object()) return Error{where + " must be a table (draw, resign, egdb)"};
  match::Adjudication rules;
  for (const auto& [key, value] : table.items()) {
    if (key == "egdb") {
      continue;  // the table's file: read_egdb_key
    } else if (key == "draw") {
      auto draw = read_draw(value, where + ".draw");
      if (!draw) return draw.failure();
      rules.draw = *draw;
    } else if (key == "resign") {
      auto resign = read_resign(value, where + ".resign");
      if (!resign) return resign.failure();
      rules.resign = *resign;
    } else {
      return Error{where + ": unknown key '" + text::printable(key) + "' (draw, resign, egdb)"};
    }
  }
  if (!rules.any() && !table.contains("egdb"))
    return Error{where + " is empty: give draw, resign, egdb or some of them"};
  TRY(consistent(rules, where));
  return rules;
}

Expected<match::Adjudication> parse_adjudication_flag(const std::string& rule,
                                                      const std::string& text,
                                                      match::Adjudication into) {
  const std::string where = "--" + rule;
  json table = json::object();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string pair = text.substr(start, comma - start);
    start = comma + 1;
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{where + ": '" + text::printable(pair.substr(0, 40)) +
                   "' is not key=value (e.g. --" + rule +
                   (rule == "draw" ? " from_ply=40,score=10,plies=8" : " score=600,plies=6") + ")"};
    const std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
    if (value == "true" || value == "false") {
      table[key] = value == "true";
    } else {
      // An integer when it reads as one; else kept as text, refused by the rule's reader.
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(value.c_str(), &end, 10);
      if (!value.empty() && end && *end == '\0' && errno == 0)
        table[key] = n;
      else
        table[key] = value;
    }
  }
  if (rule == "draw") {
    auto draw = read_draw(table, where + ": draw");
    if (!draw) return draw.failure();
    into.draw = *draw;
  } else {
    auto resign = read_resign(table, where + ": resign");
    if (!resign) return resign.failure();
    into.resign = *resign;
  }
  TRY(consistent(into, where));
  return into;
}

Expected<std::optional<std::string>> read_egdb_key(const json& table, const std::string& where) {
  if (!table.is_object() || !table.contains("egdb")) return std::optional<std::string>{};
  const json& v = table.at("egdb");
  if (!v.is_string() || v.get<std::string>().empty())
    return Error{where + ".egdb must be the path of an endgame table file, not " +
                 text::printable(v.dump().substr(0, 40))};
  return std::optional<std::string>{v.get<std::string>()};
}

json adjudication_json(const match::Adjudication& rules) {
  if (!rules.any()) return nullptr;
  json j = json::object();
  if (rules.draw)
    j["draw"] = {{"from_ply", rules.draw->from_ply},
                 {"score", rules.draw->score},
                 {"plies", rules.draw->plies}};
  if (rules.resign)
    j["resign"] = {{"score", rules.resign->score},
                   {"plies", rules.resign->plies},
                   {"two_sided", rules.resign->two_sided}};
  return j;
}

}  // namespace referee::event
