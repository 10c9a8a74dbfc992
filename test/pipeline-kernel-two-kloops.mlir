// Two K-loops of one kernel share its shared memory (issue 26): the first
// one's 8 stages (128 KB, moved to dynamic shared memory) count against the
// second's, which forced to 8 stages would need 262144 bytes, above sm_90a's
// per-block maximum; it is declined, and the kernel keeps 128 KB of
// dynamic shared memory. Left to auto, the second loop takes
// register-prefetch.
// RUN: pk-opt %s --pipeline-kernel='arch=sm_90a stages=8 variant=cp-async min-blocks-per-sm=1' 2>&1 | FileCheck %s --check-prefix=FORCED
// FORCED: remark: pipelined: variant cp-async, 8 shared buffer(s)
// FORCED: remark: not pipelined: 262144 bytes of shared memory with 8 stages (the kernel's other shared memory included) exceed sm_90a's per-block maximum of 232448 bytes: the kernel could not launch
// FORCED: pk.dynamic_shared_memory_bytes = 131072
// RUN: pk-opt %s --pipeline-kernel='arch=sm_90a stages=8 min-blocks-per-sm=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: remark: pipelined: variant cp-async, 8 shared buffer(s)
// AUTO: remark: pipelined: variant register-prefetch, 1 shared buffer(s)

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: memref<128x4096xf32>, %B: memref<128x4096xf32>, %out: memref<128x32xf32>)
        workgroup(%sA: memref<128x32xf32, #gpu.address_space<workgroup>>, %sB: memref<128x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %r2 = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %r) -> (vector<4xf32>) {
        %a = vector.load %B[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        vector.store %a, %sB[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sB[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r2, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}
