// The error type of every layer: a value or an error, the error with a kind the caller switches on
// and a message for people. A stand-in for C++23 std::expected (absent from g++ 12).
//
// Decisions:
// - The kind decides (an HTTP status, a retry, a reconnection); the message is only ever shown.
//   No caller searches an error's text: when a caller needs to tell two failures apart, they get
//   two kinds.
// - The kinds are few and about what the caller can do, not where the failure came from:
//   Invalid (the input is wrong: fix it), NotFound, Conflict (it exists otherwise, or its state
//   forbids this), Unavailable (a server or a resource is away: try again later; a lost database
//   connection), Io (the disk or a file failed), Full (no space left, a quota), Denied (who asks
//   may not do this: another's engine name, an operator's action).
// - Error{"text"} is Invalid: most errors are about text that came from outside (parse errors).
// - Expected and Status are [[nodiscard]]: a result that is dropped is a failure nobody hears of.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace referee {

enum class ErrorKind {
  Invalid,
  NotFound,
  Conflict,
  Unavailable,
  Io,
  Full,
  Denied,
};

// A word for logs and JSON ("not-found").
const char* error_kind_name(ErrorKind kind);

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::Invalid;
};

template <class T>
class [[nodiscard]] Expected {
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
  ErrorKind kind() const { return std::get<1>(data_).kind; }
  // The error itself, to pass on unchanged (kind and message): `return result.failure();`.
  const Error& failure() const { return std::get<1>(data_); }

 private:
  std::variant<T, Error> data_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace referee
