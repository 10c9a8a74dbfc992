//===- Decline.h - Why pk leaves a loop alone, located ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Every stage that can refuse a loop (the matcher, the cp.async planner, the
// decision, the transform's preconditions) says why with a `Decline`: one
// sentence located at the operation that caused it, with notes at related
// operations. The passes emit it as a remark there, the transform ops as a
// silenceable failure, the report as `reason` / `reason_loc`; a test expects
// it with `expected-remark` at the culprit op.
//
//   DeclineOr<int64_t> width = getCopyWidth(...);
//   if (failed(width))
//     return width.takeDecline();
//
//   DeclineOr<void> checkStores(...) {
//     if (...)
//       return Decline(store->getLoc(), "the store is in a nested region")
//           .attachNote(forOp.getLoc(), "in this K-loop");
//     return success();
//   }
//
//===----------------------------------------------------------------------===//

#ifndef PK_DECLINE_H
#define PK_DECLINE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace mlir {
class Operation;
namespace pk {

/// A note of a Decline: a related operation's location and what it says.
struct DeclineNote {
  Location loc;
  std::string message;
};

/// Why pk leaves a loop (or an input) alone: a lower-case sentence without a
/// trailing period, located at the operation that caused it.
class Decline {
public:
  Decline(Location loc, const Twine &message)
      : loc(loc), message(message.str()) {}
  /// Located at `op`.
  Decline(Operation *op, const Twine &message);

  /// Adds a note at a related operation.
  Decline &attachNote(Location noteLoc, const Twine &text) & {
    notes.push_back({noteLoc, text.str()});
    return *this;
  }
  Decline &&attachNote(Location noteLoc, const Twine &text) && {
    notes.push_back({noteLoc, text.str()});
    return std::move(*this);
  }
  /// Puts `text` before the message ("not a pk K-loop: ").
  Decline &prepend(const Twine &text) {
    message = (text + message).str();
    return *this;
  }

  Location getLoc() const { return loc; }
  StringRef getMessage() const { return message; }
  ArrayRef<DeclineNote> getNotes() const { return notes; }

  /// Emits the decline at its location with `severity` (`prefix` before the
  /// message) and its notes; the caller may attach more.
  InFlightDiagnostic emit(DiagnosticSeverity severity,
                          const Twine &prefix = "") const;

private:
  Location loc;
  std::string message;
  SmallVector<DeclineNote, 1> notes;
};

/// A value of type T, or the Decline that says why there is none. Converts
/// to LogicalResult, so `failed(result)` reads as for FailureOr.
template <typename T>
class [[nodiscard]] DeclineOr {
public:
  DeclineOr(Decline decline) : storage(std::move(decline)) {}
  template <typename U, typename = std::enable_if_t<
                            std::is_constructible_v<T, U &&> &&
                            !std::is_same_v<std::decay_t<U>, Decline>>>
  DeclineOr(U &&value)
      : storage(std::in_place_index<0>, std::forward<U>(value)) {}

  operator LogicalResult() const { return success(storage.index() == 0); }

  T &operator*() {
    assert(succeeded(*this) && "no value: declined");
    return std::get<0>(storage);
  }
  const T &operator*() const {
    assert(succeeded(*this) && "no value: declined");
    return std::get<0>(storage);
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  const Decline &getDecline() const {
    assert(failed(*this) && "not declined");
    return std::get<1>(storage);
  }
  Decline takeDecline() {
    assert(failed(*this) && "not declined");
    return std::move(std::get<1>(storage));
  }

private:
  std::variant<T, Decline> storage;
};

/// The result of a check: success, or the Decline that says why not.
/// `return success();` passes.
template <>
class [[nodiscard]] DeclineOr<void> {
public:
  DeclineOr(Decline decline) : decline(std::move(decline)) {}
  /// Only `success()`: a failure needs a Decline.
  DeclineOr(LogicalResult result) {
    (void)result;
    assert(succeeded(result) && "a failing check must return a Decline");
  }

  operator LogicalResult() const { return success(!decline.has_value()); }

  const Decline &getDecline() const {
    assert(decline && "not declined");
    return *decline;
  }
  Decline takeDecline() {
    assert(decline && "not declined");
    return std::move(*decline);
  }

private:
  std::optional<Decline> decline;
};

} // namespace pk
} // namespace mlir

#endif // PK_DECLINE_H
