//===- AsyncCopyPlanInternal.h - The cp.async planner's steps ---*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_ANALYSIS_ASYNCCOPYPLANINTERNAL_H
#define PK_LIB_ANALYSIS_ASYNCCOPYPLANINTERNAL_H

#include "pk/AsyncCopyPlan.h"

namespace mlir {
namespace pk {
namespace detail {

/// Proves that the copies of one K-iteration, which become cp.async copies
/// of one group (unordered among themselves), write disjoint shared
/// elements: different buffers, or one memref at offsets whose constant
/// difference separates the elements each writes, and copies in nested
/// loops whose iterations write disjoint elements (and that share their
/// buffer with no other copy). Copies already asynchronous in the input are
/// left as they were. Declines at the first store it cannot separate, with
/// a note at the other one (CopyDisjointness.cpp).
DeclineOr<void> checkDisjointDestinations(const KLoopInfo &info,
                                          ArrayRef<AsyncCopyPlan> plans);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_ANALYSIS_ASYNCCOPYPLANINTERNAL_H
