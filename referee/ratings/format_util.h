// Small text helpers shared by the rating and crosstable printers: fixed-point numbers, RFC 4180
// CSV fields, left/right padding and plain-text tables.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace referee::text {

// `value` with `decimals` digits; "inf"/"-inf"/"nan" spelled out.
inline std::string fixed(double value, int decimals, bool sign = false) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? (sign ? "+inf" : "inf") : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, value);
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)  // no "-0.0"
    s = (sign ? "+" : "") + s.substr(1);
  return s;
}

inline std::string percent(double share, int decimals = 1) {
  return fixed(100 * share, decimals) + "%";
}

// "1 game", "2 games".
inline std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// A share as a percentage as short as it is exact to four digits: 0.95 -> "95%", 0.999 -> "99.9%".
inline std::string short_percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%", 100 * share);
  return buf;
}

// A number as short as it is exact to ten digits: 95, 0.5, 1500.25.
inline std::string number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", value);
  return buf;
}

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

inline std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out + "\r\n";
}

// Rows of cells as aligned columns: the columns in `left` are left-aligned, the others right.
inline std::string columns(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<bool>& left) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      const bool l = c < left.size() && left[c];
      line += (c ? "  " : "") + (l ? row[c] + pad : pad + row[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace referee::text
