//===- NormalizeWorkgroupStorage.cpp - pk-normalize-workgroup-storage -----===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper over normalizeWorkgroupStorage (Pipelining.h).
// Tests: test/pk-normalize-workgroup-storage.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Passes.h"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKNORMALIZEWORKGROUPSTORAGE
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct NormalizeWorkgroupStoragePass final
    : public pk::impl::PKNormalizeWorkgroupStorageBase<
          NormalizeWorkgroupStoragePass> {
  using Base::Base;

  void runOnOperation() final {
    if (!pk::detail::normalizeStorageWithRemarks(getOperation()))
      markAllAnalysesPreserved();
  }
};
} // namespace
