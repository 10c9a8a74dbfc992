//===- DriverInternal.h - The driver's private helpers ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_DRIVER_DRIVERINTERNAL_H
#define PK_LIB_DRIVER_DRIVERINTERNAL_H

#include "pk/PipelineKernelLoop.h"

namespace mlir {
namespace pk {
namespace detail {

/// Gives `options` the candidate compiler of `request` for `forOp` when the
/// decision will search (stages=auto or min-blocks-per-sm=auto), or the
/// reason there is none (CandidateCompiler.cpp): it pipelines a candidate
/// on a clone of the loop's gpu.module, lowers it and runs ptxas; the
/// original IR is not touched.
void setCandidateCompiler(scf::ForOp forOp, const TargetInfo &target,
                          const PipelineRequest &request,
                          DecisionOptions &options);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_DRIVER_DRIVERINTERNAL_H
