#include "service/http_message.h"

namespace referee::service::http {

namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const std::string* find_field(const Fields& fields, std::string_view name) {
  for (const auto& [n, v] : fields)
    if (same_name(n, name)) return &v;
  return nullptr;
}

std::string Request::get_header_value(std::string_view name) const {
  const std::string* v = find_field(headers, name);
  return v ? *v : std::string();
}

std::string Request::get_param_value(const std::string& name, std::size_t index) const {
  auto [first, last] = params.equal_range(name);
  for (auto it = first; it != last; ++it, --index)
    if (index == 0) return it->second;
  return "";
}

void Response::set_header(std::string name, std::string value) {
  for (auto& [n, v] : headers)
    if (same_name(n, name)) {
      v = std::move(value);
      return;
    }
  headers.emplace_back(std::move(name), std::move(value));
}

void Response::set_content(std::string content, std::string type) {
  body = std::move(content);
  content_type = std::move(type);
  provider = nullptr;
}

void Response::set_chunked_content_provider(std::string type, ContentProvider p) {
  body.clear();
  content_type = std::move(type);
  provider = std::move(p);
}

bool percent_decode(std::string_view text, bool plus_is_space, std::string& out) {
  out.clear();
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return false;
      const int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(plus_is_space && c == '+' ? ' ' : c);
    }
  }
  return true;
}

bool split_target(std::string_view target, std::string& path,
                  std::multimap<std::string, std::string>& params) {
  params.clear();
  const auto question = target.find('?');
  if (!percent_decode(target.substr(0, question), false, path)) return false;
  if (question == std::string_view::npos) return true;
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    std::string name, value;
    if (!percent_decode(pair.substr(0, eq), true, name)) return false;
    if (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), true, value))
      return false;
    params.emplace(std::move(name), std::move(value));
  }
  return true;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 507:
      return "Insufficient Storage";
    default:
      return "Unknown";
  }
}

}  // namespace referee::service::http
