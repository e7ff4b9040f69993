#include "base/input_limits.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace referee::limits {

namespace {

using nlohmann::json;

Error too_deep(const std::string& where) {
  return Error{where + ": nested deeper than " + std::to_string(kMaxNesting) + " levels"};
}

// Counts the open arrays and objects and stops the parse at the first one too deep. Values are
// accepted and dropped: nothing is built.
class DepthCounter final : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
  bool exceeded() const { return exceeded_; }

 private:
  bool open() {
    if (++depth_ <= kMaxNesting) return true;
    exceeded_ = true;
    return false;
  }
  bool close() {
    --depth_;
    return true;
  }
  int depth_ = 0;
  bool exceeded_ = false;
};

// Reads TOML just enough to know how deep its document is: strings and comments are skipped,
// table headers, keys (their dots) and the brackets and braces of values are counted. It trusts
// the text to be TOML; for text that is not, its answer only decides whether toml++ gets to say
// what is wrong.
class TomlDepth {
 public:
  explicit TomlDepth(std::string_view s) : s_(s) {}

  // Whether some level is deeper than kMaxNesting.
  bool exceeded() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '"' || c == '\'') {
        skip_string(c);
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      ++i_;
      if (header_ ? in_header(c) : key_mode_ ? in_key(c) : in_value(c)) return true;
    }
    return false;
  }

 private:
  struct Open {
    char kind;  // '[' an array, '{' an inline table
    int depth;
  };

  bool deeper(int depth) const { return depth > kMaxNesting; }

  // The depth of the table the next key goes in.
  int table_depth() const { return stack_.empty() ? table_depth_ : stack_.back().depth; }

  void start_key() {
    key_mode_ = true;
    segments_ = 1;
  }

  // [a.b] is a table at depth 1 + 2. Once there is an array of tables ([[a]]: a table at 3, in
  // the array at 2), any header may name a table inside one (a table in an element of a, or of
  // a.b), which the scan does not track by name: each of its keys counts for two levels then,
  // so that the depth is never underestimated.
  bool in_header(char c) {
    if (c == '.') {
      ++segments_;
    } else if (c == ']') {
      if (array_header_ && i_ < s_.size() && s_[i_] == ']') ++i_;
      header_ = false;
      any_array_ = any_array_ || array_header_;
      table_depth_ = 1 + segments_ * (any_array_ ? 2 : 1);
      start_key();
      return deeper(table_depth_);
    } else if (c == '\n') {
      header_ = false;
      start_key();
    }
    return false;
  }

  // a.b.c = value: the tables a and b are one and two deeper than the table the key is in.
  bool in_key(char c) {
    if (c == '.') {
      ++segments_;
      return deeper(table_depth() + segments_ - 1);
    }
    if (c == '=') {
      key_mode_ = false;
      value_parent_ = table_depth() + segments_ - 1;
      return false;
    }
    if (c == '[' && stack_.empty()) {
      header_ = true;
      array_header_ = i_ < s_.size() && s_[i_] == '[';
      if (array_header_) ++i_;
      segments_ = 1;
    } else if (c == '}' && !stack_.empty()) {  // an empty inline table
      stack_.pop_back();
      key_mode_ = false;
    }
    return false;
  }

  bool in_value(char c) {
    if (c == '[' || c == '{') {
      const int parent =
          !stack_.empty() && stack_.back().kind == '[' ? stack_.back().depth : value_parent_;
      stack_.push_back({c, parent + 1});
      if (c == '{') start_key();
      return deeper(parent + 1);
    }
    if ((c == ']' || c == '}') && !stack_.empty()) {
      stack_.pop_back();
    } else if (c == ',' && !stack_.empty() && stack_.back().kind == '{') {
      start_key();
    } else if (c == '\n' && stack_.empty()) {
      start_key();
    }
    return false;
  }

  // From an opening quote to past the closing one; a one-line string also ends at a line break
  // (left for the caller: it ends a key or a value).
  void skip_string(char quote) {
    const bool triple = s_.substr(i_, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''");
    i_ += triple ? 3 : 1;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (quote == '"' && c == '\\') {
        i_ += 2;
        continue;
      }
      if (!triple && c == '\n') return;
      if (c == quote) {
        if (!triple) {
          ++i_;
          return;
        }
        if (i_ + 2 < s_.size() && s_[i_ + 1] == quote && s_[i_ + 2] == quote) {
          i_ += 3;
          return;
        }
      }
      ++i_;
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int table_depth_ = 1;  // the table of the last header; the document's own is level 1
  std::vector<Open> stack_;
  bool key_mode_ = true;
  bool header_ = false;
  bool array_header_ = false;
  bool any_array_ = false;  // an array of tables was seen
  int segments_ = 1;
  int value_parent_ = 1;  // the depth of the table holding the key whose value is read
};

}  // namespace

Status check_json_nesting(std::string_view text, const std::string& where) {
  DepthCounter counter;
  (void)json::sax_parse(text, &counter);
  if (counter.exceeded()) return too_deep(where);
  return Ok{};
}

Status check_toml_nesting(std::string_view text, const std::string& where) {
  if (TomlDepth(text).exceeded()) return too_deep(where);
  return Ok{};
}

Status check_length(const std::string& field, std::string_view value, std::size_t max) {
  if (value.size() <= max) return Ok{};
  return Error{field + " has " + std::to_string(value.size()) + " bytes; at most " +
               std::to_string(max)};
}

std::string shortened(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  // Back to the first byte of a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

}  // namespace referee::limits
