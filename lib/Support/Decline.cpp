//===- Decline.cpp - Why pk leaves a loop alone, located ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Decline.h"

#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::pk;

Decline::Decline(Operation *op, const Twine &message)
    : Decline(op->getLoc(), message) {}

InFlightDiagnostic Decline::emit(DiagnosticSeverity severity,
                                 const Twine &prefix) const {
  InFlightDiagnostic diag =
      loc->getContext()->getDiagEngine().emit(loc, severity);
  diag << prefix << message;
  for (const DeclineNote &note : notes)
    diag.attachNote(note.loc) << note.message;
  return diag;
}
