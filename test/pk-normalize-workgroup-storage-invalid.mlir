// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-normalize-workgroup-storage -o /dev/null

// Storage pk cannot rewrite is left alone without a diagnostic: a dynamic
// workgroup alloc, one i8 buffer viewed twice, a view at a non-zero offset,
// and allocations outside kernels.
gpu.module @m {
  gpu.func @dynamic(%n: index) kernel {
    %a = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @offset_view() kernel {
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<4096xi8, #gpu.address_space<workgroup>>
    %v = memref.view %a[%c64][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @not_a_kernel() {
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A kernel whose allocations are rewritten says so.
gpu.module @m {
  // expected-remark @below {{moved 1 workgroup buffer(s) to workgroup attributions (a workgroup memref.alloc lowers to malloc, a memref.alloca to local memory, with upstream's NVVM lowering)}}
  gpu.func @one() kernel {
    %a = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
