// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-emit-binaries='arch=sm_75 emit=ptx out-dir=%t' -o /dev/null
// RUN: not pk-opt %s -split-input-file --pk-emit-binaries='emit=sass out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not pk-opt %s -split-input-file --pk-emit-binaries='emit=cubin cuda-path=%t/no-cuda out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPTXAS -DDIR=%t
// RUN: not pk-opt %s -split-input-file --pk-emit-binaries='arch=sm_100 out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not pk-opt %s -split-input-file --pk-emit-binaries='min-blocks-per-sm=-1 out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINBLOCKS
// RUN: not pk-opt %s -split-input-file --pk-emit-binaries='report-append=maybe out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=APPEND
// wgmma needs sm_90a: MLIR's NVVM verifier would stop the lowering on sm_90
// ("'nvvm.wgmma.fence.aligned' op is not supported on sm_90"), pk says so at
// the operation first (also through pipeline-kernel's emission).
// RUN: not pk-opt %S/Inputs/wgmma-minimal.mlir --pk-emit-binaries='arch=sm_90 emit=ptx out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA90
// RUN: not pk-opt %S/Inputs/wgmma-minimal.mlir --pipeline-kernel='arch=sm_90 emit=cubin out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA90
// WGMMA90: wgmma-minimal.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{nvgpu.warpgroup.[a-z.]+}} (wgmma) needs arch=sm_90a; sm_90 has none (MLIR and ptxas accept wgmma only on the architecture-specific sm_90a target)
// WGMMA90-NOT: LLVM Translation failed
// The PTX 8.3 tensor-map fence on the gen_gemm.py TMA kernel (TMAFENCE) is in
// test/e2e/pk-emit-binaries-invalid.test.

// FORMAT: for the --emit option: Cannot find option named 'sass'!
// NOPTXAS: error: ptxas not found at '[[DIR]]/no-cuda/bin/ptxas': pass cuda-path=<CUDA toolkit root> or set CUDA_HOME
// ARCH: error: unknown arch 'sm_100'; pk knows: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a
// APPEND: for the --report-append option: 'maybe' is invalid value for boolean argument!
// APPEND: error: pk-emit-binaries: cannot parse the options 'report-append=maybe out-dir={{.*}}'
// MINBLOCKS: error: min-blocks-per-sm must be at least 1 (or 0: each kernel's nvvm.minctasm), got -1

// sm_75 has no m16n8k16 mma.sync: LLVM's NVPTX back end would abort, pk
// reports it instead.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mma(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel {
      // expected-error @below {{nvgpu.mma.sync f16 m16n8k16 needs sm_80 or later; sm_75 has mma.sync m16n8k8 on f16 and m8n8k16 on 8-bit integers only}}
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.return
    }
  }
}

// -----

// m16n8k8 on sm_75 is f16 only: tf32 (and bf16) need sm_80.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tf32(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel {
      // expected-error @below {{nvgpu.mma.sync f32 m16n8k8 needs sm_80 or later}}
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.return
    }
  }
}

// -----

// The NVVM form is checked as the nvgpu one (the back end would abort:
// "Cannot select: intrinsic %llvm.nvvm.mma.m16n8k16.row.col.bf16").
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nvvm(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32, %c0: f32, %c1: f32, %c2: f32, %c3: f32) kernel {
      // expected-error @below {{nvvm.mma.sync bf16 m16n8k16 needs sm_80 or later}}
      %d = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      gpu.return
    }
  }
}

// -----

// A bf16 form pk's lowering does not take (a bf16 accumulator): a located
// error, on every target, instead of upstream's "failed to deduce operand
// PTX types".
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bf16acc(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) kernel {
      // expected-error @below {{pk lowers bf16 nvgpu.mma.sync as m16n8k8 or m16n8k16, bf16 x bf16 with an f32 accumulator in rows of two (upstream's convert-nvgpu-to-nvvm has no bf16 form); this one is m16n8k16 vector<4x2xbf16> x vector<2x2xbf16> + vector<2x2xbf16>}}
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
      gpu.return
    }
  }
}

// -----

// cp.async needs sm_80.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cpasync(%src: memref<128xf32>)
        workgroup(%dst: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{nvgpu.device_async_copy (cp.async) needs sm_80 or later; sm_75 has none: use variant=ldg-register}}
      %t = nvgpu.device_async_copy %src[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// m16n8k8 is fine on sm_75.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mma_k8(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel {
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.return
    }
  }
}

// -----

// Upstream's type conversion reports a memory space it cannot map without a
// location (`<unknown>:0`); pk re-emits it at the gpu.module being lowered.
module attributes {gpu.container_module} {
  // expected-error @below {{conversion of memref memory space "texture" to integer address space failed}}
  // expected-note @below {{upstream's lowering reported this without a location}}
  // expected-error @below {{lowering gpu.module @m to PTX for sm_75 failed}}
  gpu.module @m {
    // expected-error @below {{failed to legalize operation 'gpu.func' that was explicitly marked illegal}}
    gpu.func @texture_space(%a: memref<4xf32, "texture">, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32, "texture">
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// A shared allocation pk-normalize-workgroup-storage cannot turn into an
// attribution (a dynamic size) would lower to malloc: pk refuses to emit it.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @shared_alloc(%out: memref<4xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{this shared-memory memref.alloc would lower to malloc, not .shared}}
      %buf = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      %v = memref.load %buf[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Any other allocation in a kernel is a device-heap malloc per thread (a
// fuzz mutant that moved a shared tile to global memory): refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @global_alloc(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{this memref.alloc inside a kernel would lower to a device-side malloc per thread (global memory); pk emits no kernel that allocates from the device heap}}
      %buf = memref.alloc() : memref<4xf32, #gpu.address_space<global>>
      %v = memref.load %buf[%c0] : memref<4xf32, #gpu.address_space<global>>
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Static shared memory above the 48 KB static limit (a fuzz mutant that grew
// a tile to 2147483647x72xf16): LLVM emits the PTX, ptxas would refuse it;
// refused with the byte count. Attributions and a workgroup global count.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @tile : memref<4096xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{the kernel declares 49168 bytes of static shared memory (workgroup attributions and workgroup memref.globals), above the 49152-byte static limit of sm_75: ptxas refuses it}}
    gpu.func @too_much(%out: memref<4xf32>)
        workgroup(%a: memref<8196xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @tile : memref<4096xf32, #gpu.address_space<workgroup>>
      %h = memref.get_global @tile : memref<4096xf32, #gpu.address_space<workgroup>>
      %v = memref.load %g[%c0] : memref<4096xf32, #gpu.address_space<workgroup>>
      %w = memref.load %h[%c0] : memref<4096xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%c0] : memref<8196xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %v, %w : f32
      %t = arith.addf %s, %x : f32
      memref.store %t, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
