// The blocks/SM target without ptxas (docs/stages.md, "Blocks per SM") on
// upstream-generated input. The bundled kernels (launch bounds, an explicit
// min-blocks-per-sm, auto, ties, wgmma) are in
// test/e2e/pipeline-kernel-decide.test; the ptxas-compiled candidate table
// is in test/e2e/pipeline-kernel-decide-ptxas.test and
// test/pipeline-kernel-decide-ptxas.mlir.
//
// Upstream-generated input (no launch bounds, FMA compute): auto keeps a
// pipelined variant and sets nvvm.minctasm.
// RUN: pk-opt %S/upstream/kernels/sgemm_f32_128x128x8_bufferize.mlir --pipeline-kernel='arch=sm_90 min-blocks-per-sm=auto cuda-path=%t.nocuda' -o - 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: remark: pipelined: variant {{[a-z-]+}}, {{[0-9]}} shared buffer(s);
// UPSTREAM-SAME: (min-blocks-per-sm=auto: the kernel gets nvvm.minctasm = [[B:[0-9]]])
// UPSTREAM: nvvm.minctasm = [[B]] : i32
