//===- DecisionInternal.h - Private helpers of the decision ----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_DECISION_DECISIONINTERNAL_H
#define PK_LIB_DECISION_DECISIONINTERNAL_H

#include "pk/Decision.h"

namespace mlir {
namespace pk {
namespace detail {

/// stages=auto: the latency model's stage count for `info`, given the
/// single-buffered budget `single`. Fills `model` and adds the reason.
int64_t chooseStages(const KLoopInfo &info, const TargetInfo &target,
                     const DecisionOptions &options, const KLoopBudget &single,
                     StageModel &model, SmallVectorImpl<std::string> &reasons);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_DECISION_DECISIONINTERNAL_H
