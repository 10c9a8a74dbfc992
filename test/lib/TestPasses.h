//===- TestPasses.h - pk's test passes --------------------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The -test-pk-* passes (TestPipelineSteps.cpp): one pipelining step each,
// for lit tests on small inputs. Linked into pk-opt only.
//
//===----------------------------------------------------------------------===//

#ifndef PK_TEST_LIB_TESTPASSES_H
#define PK_TEST_LIB_TESTPASSES_H

namespace mlir {
namespace pk {
namespace test {

/// Registers -test-pk-plan, -test-pk-async-copy, -test-pk-multi-buffer and
/// -test-pk-tma-ring.
void registerPKTestPasses();

} // namespace test
} // namespace pk
} // namespace mlir

#endif // PK_TEST_LIB_TESTPASSES_H
