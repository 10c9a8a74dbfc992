//===- Support.cpp - Small helpers shared by every stage ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Support.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string mlir::pk::locationToString(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                         fileLoc.getLine(), fileLoc.getColumn())
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return locationToString(nameLoc.getChildLoc());
  if (auto fusedLoc = dyn_cast<FusedLoc>(loc))
    if (!fusedLoc.getLocations().empty())
      return locationToString(fusedLoc.getLocations().front());
  if (auto callLoc = dyn_cast<CallSiteLoc>(loc))
    return locationToString(callLoc.getCallee());
  std::string str;
  llvm::raw_string_ostream os(str);
  loc.print(os);
  return str;
}

mlir::pk::ThreadDiagnostics::ThreadDiagnostics(MLIRContext *context)
    : ScopedDiagnosticHandler(context), thread(std::this_thread::get_id()) {
  setHandler([this](Diagnostic &diag) {
    if (std::this_thread::get_id() != thread)
      return failure();
    std::string message = diag.str();
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = message;
    text += message;
    return success();
  });
}
