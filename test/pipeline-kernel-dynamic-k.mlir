// A wgmma K-loop with a dynamic trip count (the upper bound is a kernel
// argument): pk versions it on the trip count, and upstream's pipeliner
// guards the values of its epilogue with `arith.select (trips >= i)`. Under
// pk's guard they all hold, so pk folds them: a select on
// !nvgpu.warpgroup.accumulator has no lowering (it was left as an
// unrealized cast, and neither upstream's gpu-lower-to-nvvm-pipeline nor
// pk's emit= could lower the pipelined kernel, while the input lowers).
//
// RUN: pk-opt %S/Inputs/wgmma-dynamic-k.mlir --pipeline-kernel='arch=sm_90a' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s); dynamic trip count: the pipelined loop runs when the trip count is at least 2, the original loop otherwise
//
// CHECK-LABEL: gpu.func @hgemm_wgmma_f16_128x128x64
// CHECK: scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>, !nvgpu.device.async.token)
// CHECK: } {pk.pipelined}
// The epilogue's compute feeds the yield directly.
// CHECK-NOT: arith.select
// CHECK: %[[LAST:.*]] = nvgpu.warpgroup.mma
// CHECK-NOT: arith.select
// CHECK: scf.yield %[[LAST]] : !nvgpu.warpgroup.accumulator
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg3 step
// CHECK: } {{{.*}}pk.pipeline_fallback}
//
// The pipelined kernel lowers with pk's lowering (PTX with the wgmma and
// the cp.async of the pipelined loop) and with upstream's.
// RUN: pk-opt %S/Inputs/wgmma-dynamic-k.mlir --pipeline-kernel='arch=sm_90a emit=ptx out-dir=%t.out' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMIT --implicit-check-not=error
// RUN: FileCheck %s --check-prefix=PTX < %t.out/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// EMIT: remark: pipelined
// PTX: .entry hgemm_wgmma_f16_128x128x64
// PTX: cp.async.cg.shared.global
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// RUN: mlir-opt %t.mlir --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa' 2>&1 | FileCheck %s --check-prefix=UPSTREAM --implicit-check-not=error
// UPSTREAM: gpu.binary @hgemm_wgmma_f16_128x128x64
