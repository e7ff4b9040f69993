// A small stand-in for C++23 std::expected (absent from g++ 12): a value or an error message.
// Used on every path that parses untrusted text, so bad input becomes a value, never an abort.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace referee {

struct Error {
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : data_(std::move(value)) {}
  Expected(Error error) : data_(std::move(error)) {}

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(data_).message; }

 private:
  std::variant<T, Error> data_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace referee
