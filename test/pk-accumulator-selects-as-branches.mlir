// RUN: pk-opt %s --pass-pipeline='builtin.module(gpu.module(pk-accumulator-selects-as-branches))' | FileCheck %s
// RUN: rm -rf %t && pk-opt %s --pk-emit-binaries='arch=sm_90a emit=ptx out-dir=%t' -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/m.sm_90a.ptx

// A select of two wgmma accumulators (the canonicalizer's form of a
// persistent kernel's tile epilogue, docs/lowering.md) becomes an scf.if,
// which the lowering converts; as a select it reached the LLVM translation
// as an unrealized_conversion_cast.

!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>

// CHECK-LABEL: gpu.func @select_acc
// CHECK: %[[A:.*]] = nvgpu.warpgroup.mma.init.accumulator
// CHECK: %[[B:.*]] = nvgpu.warpgroup.mma.init.accumulator {other}
// CHECK-NOT: arith.select
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
// CHECK-NEXT: scf.yield %[[A]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[B]]
// CHECK-NEXT: }
// CHECK: nvgpu.warpgroup.mma.store %[[R]]
// Selects of other types stay.
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// PTX: .entry select_acc(
// PTX: st.global.b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @select_acc(%C: memref<128x128xf32>, %c: i1, %i: index, %j: index, %f: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %a = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %b = nvgpu.warpgroup.mma.init.accumulator {other} -> !acc
      %r = arith.select %c, %a, %b : !acc
      nvgpu.warpgroup.mma.store %r, %C : !acc to memref<128x128xf32>
      %k = arith.select %c, %i, %j : index
      memref.store %f, %C[%k, %k] : memref<128x128xf32>
      gpu.return
    }
  }
}
