// A value or an error, for operations on untrusted input (C++20 has no std::expected yet).
#pragma once

#include <cassert>
#include <optional>
#include <utility>
#include <variant>

namespace amazons {

// A constructor rather than an aggregate: clang before 16 has no parenthesised aggregate
// initialisation, and `Unexpected(e)` must compile there too (the fuzzing build uses clang).
template <class E>
struct Unexpected {
  explicit Unexpected(E e) : error(std::move(e)) {}
  E error;
};
template <class E>
Unexpected(E) -> Unexpected<E>;

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  template <class U>
  Expected(Unexpected<U> e) : state_(std::in_place_index<1>, E(std::move(e.error))) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  // Precondition: has_value().
  T& value() & {
    assert(has_value());
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // Precondition: !has_value().
  const E& error() const {
    assert(!has_value());
    return std::get<1>(state_);
  }

 private:
  std::variant<T, E> state_;
};

// "Done, or why not": `return {};` for success, `return Unexpected(why);` for failure.
template <class E>
class [[nodiscard]] Expected<void, E> {
 public:
  Expected() = default;
  template <class U>
  Expected(Unexpected<U> e) : error_(E(std::move(e.error))) {}

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }

  // Precondition: !has_value().
  const E& error() const {
    assert(!has_value());
    return *error_;
  }

 private:
  std::optional<E> error_;
};

}  // namespace amazons
