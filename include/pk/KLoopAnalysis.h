//===- KLoopAnalysis.h - pk's analysis, budget and decision -----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Umbrella header for the stages before the transform (docs/architecture.md):
//
//   MemoryAccess.h   the loads and stores pk recognizes
//   KLoopMatcher.h   match and measure a K-loop (analysis)
//   AsyncCopyPlan.h  can its copies become cp.async, and how wide
//   Budget.h         shared memory and occupancy with N buffers
//   Decision.h       variant, stage count, schedule and reasons
//   Report.h         remarks and the JSON report
//
//===----------------------------------------------------------------------===//

#ifndef PK_KLOOPANALYSIS_H
#define PK_KLOOPANALYSIS_H

#include "pk/AsyncCopyPlan.h"
#include "pk/Budget.h"
#include "pk/Decision.h"
#include "pk/KLoopMatcher.h"
#include "pk/MemoryAccess.h"
#include "pk/Report.h"
#include "pk/Support.h"

#endif // PK_KLOOPANALYSIS_H
