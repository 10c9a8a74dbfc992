// pk-lower-bf16-mma-sync (lib/Emission/MmaSyncBf16.cpp), the step of pk's
// lowering before convert-nvgpu-to-nvvm: a bf16 nvgpu.mma.sync becomes
// nvvm.mma.sync on packed 32-bit registers (upstream has no bf16 operand
// type); f16 is left to upstream.
// RUN: pk-opt %s --pass-pipeline='builtin.module(gpu.module(pk-lower-bf16-mma-sync))' | FileCheck %s
// The whole lowering: PTX with the bf16 instruction.
// RUN: rm -rf %t && pk-opt %s --pk-emit-binaries='arch=sm_80 emit=ptx out-dir=%t' -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/m.sm_80.ptx
// Upstream's lowering alone refuses it (with an error, though it exits 0 and
// leaves the op for a later step to fail on).
// RUN: mlir-opt %s --convert-nvgpu-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// A form the step does not lower is a located error of the step itself.
// RUN: not pk-opt %S/Inputs/bf16-mma-bad-form.mlir --pass-pipeline='builtin.module(gpu.module(pk-lower-bf16-mma-sync))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADFORM
// RUN: pk-opt %S/Inputs/bf16-mma-bad-form.mlir --pass-pipeline='builtin.module(gpu.module(pk-lower-bf16-mma-sync))' -verify-diagnostics -o /dev/null
// Before sm_80 pk says so at the op.
// RUN: not pk-opt %s --pk-emit-binaries='arch=sm_75 emit=ptx out-dir=%t.75' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

gpu.module @m {
  gpu.func @k16(%a: memref<8xbf16>, %b: memref<4xbf16>, %c: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %va_flat = vector.load %a[%c0] : memref<8xbf16>, vector<8xbf16>
    %va = vector.shape_cast %va_flat : vector<8xbf16> to vector<4x2xbf16>
    %vb_flat = vector.load %b[%c0] : memref<4xbf16>, vector<4xbf16>
    %vb = vector.shape_cast %vb_flat : vector<4xbf16> to vector<2x2xbf16>
    %vc_flat = vector.load %c[%c0] : memref<4xf32>, vector<4xf32>
    %vc = vector.shape_cast %vc_flat : vector<4xf32> to vector<2x2xf32>
    %d = nvgpu.mma.sync(%va, %vb, %vc) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d_flat = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
    vector.store %d_flat, %c[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
  gpu.func @k8(%a: memref<4xbf16>, %b: memref<2xbf16>, %c: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %va_flat = vector.load %a[%c0] : memref<4xbf16>, vector<4xbf16>
    %va = vector.shape_cast %va_flat : vector<4xbf16> to vector<2x2xbf16>
    %vb_flat = vector.load %b[%c0] : memref<2xbf16>, vector<2xbf16>
    %vb = vector.shape_cast %vb_flat : vector<2xbf16> to vector<1x2xbf16>
    %vc_flat = vector.load %c[%c0] : memref<4xf32>, vector<4xf32>
    %vc = vector.shape_cast %vc_flat : vector<4xf32> to vector<2x2xf32>
    %d = nvgpu.mma.sync(%va, %vb, %vc) {mmaShape = [16, 8, 8]} : (vector<2x2xbf16>, vector<1x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d_flat = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
    vector.store %d_flat, %c[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
  gpu.func @f16(%a: memref<8xf16>, %b: memref<4xf16>, %c: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    // Dead and foldable: the step rewrites the bf16 ops only (no greedy
    // driver), so this stays.
    %c1 = arith.constant 1 : index
    %unused = arith.addi %c0, %c1 : index
    %va_flat = vector.load %a[%c0] : memref<8xf16>, vector<8xf16>
    %va = vector.shape_cast %va_flat : vector<8xf16> to vector<4x2xf16>
    %vb_flat = vector.load %b[%c0] : memref<4xf16>, vector<4xf16>
    %vb = vector.shape_cast %vb_flat : vector<4xf16> to vector<2x2xf16>
    %vc_flat = vector.load %c[%c0] : memref<4xf32>, vector<4xf32>
    %vc = vector.shape_cast %vc_flat : vector<4xf32> to vector<2x2xf32>
    %d = nvgpu.mma.sync(%va, %vb, %vc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d_flat = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
    vector.store %d_flat, %c[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @k16
// CHECK-COUNT-4: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.extractvalue %[[D]][3]
// CHECK: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @k8
// CHECK-COUNT-2: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[%{{.*}}, %{{.*}}] B[%{{.*}}] C[
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 8>
// CHECK-LABEL: gpu.func @f16
// CHECK: arith.addi
// CHECK-NOT: nvvm.mma.sync
// CHECK: nvgpu.mma.sync

// PTX: .entry k16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: .entry k8(
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32
// PTX: .entry f16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// BADFORM: bf16-mma-bad-form.mlir:10:10: error: pk lowers bf16 nvgpu.mma.sync as m16n8k8 or m16n8k16, bf16 x bf16 with an f32 accumulator in rows of two
// UPSTREAM: error: 'nvgpu.mma.sync' op failed to deduce operand PTX types

// SM75: error: nvgpu.mma.sync bf16 m16n8k16 needs sm_80 or later; sm_75 has mma.sync m16n8k8 on f16 and m8n8k16 on 8-bit integers only
