// The register-aware decision with ptxas (docs/stages.md, "Candidates") on
// a dynamic-shape wgmma input. The bundled kernels (examples/, gen_gemm.py)
// are in test/e2e/pipeline-kernel-decide-ptxas.test; the tests without
// ptxas in test/e2e/pipeline-kernel-decide.test and
// test/pipeline-kernel-decide.mlir.
// REQUIRES: ptxas
//
// Dynamic-shape memrefs and a dynamic K (wgmma, sm_90a): the candidates
// compile with memref descriptors (bare pointers do not apply to
// memref<?x?xf16>) and the epilogue's trip-count selects folded; a candidate
// compile is a trial, so its lowering's warnings are not printed.
// RUN: env CUDA_HOME=%cuda_path pk-opt %S/Inputs/wgmma-dynamic-shape.mlir --pipeline-kernel='arch=sm_90a stages=auto' -o %t.dyn.mlir 2>&1 | FileCheck %s --check-prefix=DYNSHAPE --implicit-check-not=warning --implicit-check-not=error
// RUN: FileCheck %s --check-prefix=DYNSHAPE-IR < %t.dyn.mlir
// DYNSHAPE: remark: pipelined: variant cp-async, {{[2-8]}} shared buffer(s); stages=auto:
// DYNSHAPE-SAME: candidates (compiled with ptxas
// DYNSHAPE-IR: } {pk.pipelined}
