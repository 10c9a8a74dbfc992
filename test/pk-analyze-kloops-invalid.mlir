// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-analyze-kloops -o /dev/null
//
// Option errors are emitted on the module before any loop is looked at; they
// are checked on the seed input, one RUN line each.
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='arch=sm_99' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='stages=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES1
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='stages=9' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES9
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='min-blocks-per-sm=0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINBLOCKS
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='block-size=1025' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKSIZE
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='regs-per-thread=256' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// The decision's options, as pk-pipeline-kloops checks them:
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='variant=cp-async arch=sm_75' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCPASYNC
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='schedule=fancy' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSCHEDULE
// A missing directory is created; a path under a regular file cannot be.
// RUN: rm -rf %t.dir && pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='report=%t.dir/sub/report.json' -o /dev/null && test -s %t.dir/sub/report.json
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='report=%s/report.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// ARCH: seed-64x64x16.mlir:3:1: error: unknown arch 'sm_99'; pk knows: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90
// ARCH-NOT: remark
// STAGES1: error: stages must be 2 to 8 or auto, got '1'
// STAGES9: error: stages must be 2 to 8 or auto, got '9'
// MINBLOCKS: error: min-blocks-per-sm must be at least 1, got 0
// BLOCKSIZE: error: block-size must be in [0, 1024], got 1025
// REGS: error: regs-per-thread must be in [0, 255], got 256
// NOCPASYNC: seed-64x64x16.mlir:3:1: error: variant=cp-async needs cp.async (sm_80 and later); sm_75 has none
// BADSCHEDULE: for the --schedule option: Cannot find option named 'fancy'!
// REPORT: error: cannot write the report '{{.*}}pk-analyze-kloops-invalid.mlir/report.json': {{.+}}

// Every kernel below is the same minimal K-loop (128 threads, one 128x16xf32
// tile, one vector<4xf32> copy, one vector.fma) with one thing changed.

// A matched loop gets the summary remark and one note per reason.
// 128 * 16 * 4 = 8192 bytes single and per stage, 16384 with 2 stages;
// cliff 102400 / 2 - 1024 = 50176; 4 warps * 128 registers -> 4 blocks/SM
// (shared memory: 102400 / (16384 + 1024) = 5); 256 / 16 = 16 trips;
// ratio (8 FLOP * 128) / (16 bytes * 128) = 0.5.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @matched(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{K-loop: trip count 16, 1 copied buffer(s), shared memory 8192 B single / 8192 B per stage / 16384 B with 2 stages (cliff 50176 B for 2 blocks/SM on sm_86), blocks/SM 4 -> 4 (limit: registers), ratio 0.5 FLOP/B, variant cp-async}}
      // expected-note @below {{2 stages need 16384 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM}}
      // expected-note @below {{ratio 0.5 < 5: cp.async preferred (rule low-ratio)}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// Loops without a gpu.barrier directly in their body, and loops outside a
// gpu.func, are not candidates; they are not passed over in silence either
// (issue 12): the kernel, its loop (verbose, the default of
// pk-analyze-kloops) and the host loop with barriers each get a remark.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{kernel @no_barrier: nothing to pipeline: none of its 1 loop(s) is a K-loop candidate (an scf.for with a gpu.barrier directly in its body)}}
    gpu.func @no_barrier(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not a pk K-loop: no gpu.barrier in its body}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
  func.func @host(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @below {{not a pk K-loop: not in a kernel: the loop is in 'func.func' @host; pk works on gpu.func kernels (in a gpu.module)}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
      gpu.barrier
    }
    return
  }
}

// -----

// expected-remark @below {{no GPU kernel (gpu.func kernel or gpu.launch) found: pk has nothing to pipeline}}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @not_a_kernel(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not a pk K-loop: enclosing gpu.func is not a kernel}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not a pk K-loop: block size unknown: give the kernel gpu.known_block_size (or nvvm.reqntid / nvvm.maxntid) or set block-size}}
    gpu.func @block_size_unknown(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @one_barrier(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not a pk K-loop: expected at least 2 gpu.barrier in the K-loop body (after the load phase and after the compute phase), found 1}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @three_barriers(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // Barriers inside the load phase are accepted between copies; this
      // one separates a read of shared memory, which is no copy.
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        // expected-remark @below {{not a pk K-loop: load phase reads memory that is not global (vector.load)}}
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @barrier_not_last(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: the last gpu.barrier must be the last operation before scf.yield}}
        gpu.barrier
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @no_iter_args(%A: memref<128x256xf32>, %C: memref<128x4xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      // expected-remark @below {{not a pk K-loop: no accumulators: neither iter_args nor global memory written by the compute phase}}
      scf.for %k = %c0 to %c256 step %c16 {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %x : vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @empty_compute(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: compute phase is empty}}
        gpu.barrier
        gpu.barrier
        scf.yield %acc : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not a pk K-loop: workgroup attribution #0 has a dynamic shape or elements that are not whole-byte integers or floats}}
    gpu.func @vector_elements(%A: memref<128x256xf32>) workgroup(%sA: memref<128x4xvector<4xf32>, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        memref.store %a, %sA[%tid, %c0] : memref<128x4xvector<4xf32>, 3>
        gpu.barrier
        %x = memref.load %sA[%tid, %c0] : memref<128x4xvector<4xf32>, 3>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dynamic_alloc(%A: memref<128x256xf32>, %n: index)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      // expected-remark @below {{not a pk K-loop: shared memory allocation has a dynamic shape or elements that are not whole-byte integers or floats}}
      %sA = memref.alloc(%n) : memref<?x16xf32, 3>
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<?x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<?x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @loop_carried_in_load(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r:2 = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero, %off = %c0) -> (vector<4xf32>, index) {
        // expected-remark @below {{not a pk K-loop: load phase uses a loop-carried value (iter_args): the next tile's addresses must not depend on the compute}}
        %row = arith.addi %tid, %off : index
        %a = vector.load %A[%row, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        %next = arith.addi %off, %c4 : index
        gpu.barrier
        scf.yield %d, %next : vector<4xf32>, index
      }
      gpu.return
    }
  }
}

// -----

// A barrier inside a loop of the load phase: the outer loop does not match,
// and the inner loop (one barrier in its body) is a candidate of its own.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nested_barrier_load(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        // expected-remark @below {{not a pk K-loop: expected at least 2 gpu.barrier in the K-loop body (after the load phase and after the compute phase), found 1}}
        scf.for %i = %c0 to %c2 step %c1 {
          %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
          vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
          // expected-remark @below {{not a pk K-loop: load phase: gpu.barrier inside a nested region}}
          gpu.barrier
        }
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dynamic_nested_load(%A: memref<128x256xf32>, %n: index) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        // expected-remark @below {{not a pk K-loop: load phase: nested loop has a dynamic trip count}}
        scf.for %i = %c0 to %n step %c1 {
          %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
          vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        }
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @already_async_copies(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // Copies already made asynchronous (upstream's create_async_groups)
      // are tile copies: the loop is a K-loop (pk-pipeline-kloops keeps them
      // and multi-buffers their buffers).
      // expected-remark @below {{K-loop: trip count 16, 1 copied buffer(s), shared memory 8192 B single / 8192 B per stage / 16384 B with 2 stages}}
      // expected-note @below {{2 stages need 16384 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM}}
      // expected-note @below {{ratio 0.5 < 5: cp.async preferred (rule low-ratio)}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %t = nvgpu.device_async_copy %A[%tid, %k], %sA[%tid, %c0], 4 : memref<128x256xf32> to memref<128x16xf32, 3>
        %g = nvgpu.device_async_create_group %t
        nvgpu.device_async_wait %g
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_reads_shared(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>, %sB: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: load phase reads memory that is not global (vector.load)}}
        %b = vector.load %sB[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        vector.store %b, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_writes_global(%A: memref<128x256xf32>, %C: memref<128x16xf32, 1>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: load phase writes memory that is not shared (vector.store)}}
        vector.store %a, %C[%tid, %c0] : memref<128x16xf32, 1>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// A bounds guard around the whole copy: its store would skip elements that
// then keep another stage's data once multi-buffered (a guard that yields the
// loaded value or zero, stored after it, is fine:
// test/pk-pipeline-kloops-guarded.mlir).

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @guarded_copy(%A: memref<128x256xf32>, %limit: index) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %in = arith.cmpi ult, %k, %limit : index
        scf.if %in {
          %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
          // expected-remark @below {{not a pk K-loop: load phase: a shared store under scf.if: the elements it skips would keep another stage's data once the buffer is multi-buffered; yield the loaded value (or zero) from the scf.if and store it after}}
          vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        }
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_side_effect(%A: memref<128x16xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        // expected-remark @below {{not a pk K-loop: load phase: unsupported operation with side effects 'memref.copy'}}
        memref.copy %A, %sA : memref<128x16xf32> to memref<128x16xf32, 3>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @no_global_load(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        vector.store %zero, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: load phase has no global load (vector.load, vector.transfer_read or memref.load of global memory)}}
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @no_shared_store(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: load phase has no store to shared memory}}
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @store_not_a_copy(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: store to shared memory does not copy a value loaded from global memory in the load phase}}
        vector.store %zero, %sA[%tid, %c4] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @smem : memref<128x16xf32, 3>
    gpu.func @buffer_in_loop(%A: memref<128x256xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %sA = memref.get_global @smem : memref<128x16xf32, 3>
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: shared buffer @smem is defined inside the K-loop}}
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @shared_argument(%A: memref<128x256xf32>, %sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: shared memref is not a workgroup attribution, a workgroup memref.global or a workgroup memref.alloc of the kernel}}
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_not_stored(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %k4 = arith.addi %k, %c4 : index
        // expected-remark @below {{not a pk K-loop: value loaded from global memory is not stored to shared memory in the load phase}}
        %b = vector.load %A[%tid, %k4] : memref<128x256xf32>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @global_value_in_compute(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: value loaded from global memory is used outside the load phase}}
        %d = vector.fma %x, %a, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @compute_writes(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // The compute phase writes (at addresses that move with k) what the
      // load phase reads: the next tile's loads cannot move ahead of it.
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        // expected-remark @below {{not a pk K-loop: load phase reads the memory the compute phase writes: the next tiles' loads cannot move ahead of the compute}}
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        vector.store %d, %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// Read back what it writes through a subview whose offset moves with k (the
// indices do not; upstream's vectorize_only reads C through a subview at
// fixed offsets, an accumulator).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @compute_writes_subview(%A: memref<128x256xf32>, %C: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      // expected-note @below {{in this K-loop candidate}}
      scf.for %k = %c0 to %c256 step %c16 {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %sub = memref.subview %C[%tid, %k] [1, 4] [1, 1] : memref<128x256xf32> to memref<1x4xf32, strided<[256, 1], offset: ?>>
        // expected-remark @below {{not a pk K-loop: compute phase reads global memory it also writes at addresses that move with the K-loop (kernel argument #1): only accumulators at fixed addresses may be read back}}
        %c = vector.transfer_read %sub[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x4xf32, strided<[256, 1], offset: ?>>, vector<1x4xf32>
        %cx = vector.shape_cast %c : vector<1x4xf32> to vector<4xf32>
        %d = vector.fma %x, %x, %cx : vector<4xf32>
        %dx = vector.shape_cast %d : vector<4xf32> to vector<1x4xf32>
        vector.transfer_write %dx, %sub[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32, strided<[256, 1], offset: ?>>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nested_barrier_compute(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        // expected-remark @below {{not a pk K-loop: expected at least 2 gpu.barrier in the K-loop body (after the load phase and after the compute phase), found 1}}
        %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%y = %acc) -> (vector<4xf32>) {
          %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
          %d = vector.fma %x, %x, %y : vector<4xf32>
          // expected-remark @below {{not a pk K-loop: compute phase: gpu.barrier inside a nested region}}
          gpu.barrier
          scf.yield %d : vector<4xf32>
        }
        gpu.barrier
        scf.yield %s : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dynamic_nested_compute(%A: memref<128x256xf32>, %n: index) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        // expected-remark @below {{not a pk K-loop: compute phase: nested loop has a dynamic trip count}}
        %s = scf.for %i = %c0 to %n step %c1 iter_args(%y = %acc) -> (vector<4xf32>) {
          %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
          %d = vector.fma %x, %x, %y : vector<4xf32>
          scf.yield %d : vector<4xf32>
        }
        gpu.barrier
        scf.yield %s : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @compute_side_effect(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        // expected-remark @below {{not a pk K-loop: compute phase: unsupported operation with side effects 'gpu.printf'}}
        gpu.printf "k = %d\n", %k : index
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // A max-reduction: nothing pk counts as compute (float add, sub, mul and
    // div would be, as element-wise arithmetic).
    gpu.func @no_compute_op(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = arith.maximumf %x, %acc : vector<4xf32>
        // expected-remark @below {{not a pk K-loop: compute phase has no nvgpu.mma.sync, vector.contract, fma, multiply-add or float arithmetic}}
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// A barrier between two copies into the same buffer orders them: pk would
// drop it, so it declines.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @same_buffer_both_sides(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %b = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        // expected-remark @below {{not a pk K-loop: load phase writes shared buffer workgroup attribution #0 on both sides of a gpu.barrier; pk drops the load phase's barriers only between copies to different buffers}}
        vector.store %b, %sA[%tid, %c4] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// A K-loop still in a gpu.launch body: pk says what it needs from an
// outlined kernel and how to outline.
func.func @launch(%A: memref<128x256xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    // expected-remark @below {{not a pk K-loop yet: the loop is in a gpu.launch body; pk matches and pipelines K-loops of gpu.func kernels only (the block size from known_block_size, the multi-buffered tiles as the kernel's workgroup attributions or its gpu.module's globals, dynamic shared memory recorded on the kernel): pipeline-kernel outlines gpu.launch kernels first; otherwise run --gpu-launch-sink-index-computations --gpu-kernel-outlining}}
    scf.for %k = %c0 to %c256 step %c16 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// expected-remark @below {{no GPU kernel (gpu.func kernel or gpu.launch) found: pk has nothing to pipeline}}
module {
  func.func @host(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
}

// -----

// pk.regs_per_thread must be an integer (a string was silently ignored).
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not a pk K-loop: pk.regs_per_thread must be an integer in [1, 255]}}
    gpu.func @regs_string(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, 3>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, pk.regs_per_thread = "many"} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// Loops that look like K-loops but are not candidates (issue 12: they got no
// remark at all). Each kernel without a candidate says so; each such loop
// says why, with a note at the barrier where it is the barrier.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{kernel @nvvm_barrier: nothing to pipeline: none of its 1 loop(s) is a K-loop candidate}}
    gpu.func @nvvm_barrier(%A: memref<64x128xf32>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %init = arith.constant 0.0 : f32
      // expected-remark @below {{not a pk K-loop: its barrier is 'nvvm.barrier0', not gpu.barrier (the same bar.sync 0, the form pk matches): write gpu.barrier}}
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %A[%tid, %k] : memref<64x128xf32>
        memref.store %a, %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        // expected-note @below {{here}}
        nvvm.barrier0
        %x = memref.load %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        %d = math.fma %x, %x, %acc : f32
        nvvm.barrier0
        scf.yield %d : f32
      }
      memref.store %r, %out[%tid] : memref<64xf32>
      gpu.return
    }
    // expected-remark @below {{kernel @affine_kloop: nothing to pipeline}}
    gpu.func @affine_kloop(%A: memref<64x128xf32>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %init = arith.constant 0.0 : f32
      // expected-remark @below {{not a pk K-loop: an affine.for, not an scf.for; run --lower-affine first (it turns affine.for into scf.for)}}
      %r = affine.for %k = 0 to 128 step 32 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %A[%tid, %k] : memref<64x128xf32>
        memref.store %a, %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %x = memref.load %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        %d = math.fma %x, %x, %acc : f32
        gpu.barrier
        affine.yield %d : f32
      }
      memref.store %r, %out[%tid] : memref<64xf32>
      gpu.return
    }
    // expected-remark @below {{kernel @while_loop: nothing to pipeline}}
    gpu.func @while_loop(%n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-remark @below {{not a pk K-loop: a 'scf.while', not an scf.for}}
      %r = scf.while (%i = %c0) : (index) -> index {
        %go = arith.cmpi slt, %i, %n : index
        scf.condition(%go) %i : index
      } do {
      ^bb0(%i: index):
        gpu.barrier
        %next = arith.addi %i, %c1 : index
        scf.yield %next : index
      }
      gpu.return
    }
    // expected-remark @below {{kernel @barrier_in_if: nothing to pipeline}}
    gpu.func @barrier_in_if(%A: memref<64x128xf32>, %flag: i1)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      // expected-remark @below {{not a pk K-loop: its barrier is inside a nested 'scf.if', not directly in the loop body}}
      scf.for %k = %c0 to %c128 step %c32 {
        scf.if %flag {
          // expected-note @below {{here}}
          gpu.barrier
        }
      }
      gpu.return
    }
    // A loop around a candidate: verbose (pk-analyze-kloops' default) says
    // so; the candidate gets the matcher's remark.
    gpu.func @outer_loop(%A: memref<64x128xf32>)
        workgroup(%s: memref<64x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      // expected-remark @below {{not a pk K-loop: its barriers are in a nested loop}}
      scf.for %t = %c0 to %c4 step %c1 {
        // expected-remark @below {{not a pk K-loop: expected at least 2 gpu.barrier in the K-loop body}}
        scf.for %k = %c0 to %c128 step %c32 {
          %a = memref.load %A[%tid, %k] : memref<64x128xf32>
          memref.store %a, %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
          gpu.barrier
        }
      }
      gpu.return
    }
    // expected-remark @below {{kernel @no_loop: nothing to pipeline: it has no loop}}
    gpu.func @no_loop(%out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// wgmma (docs/hopper.md): a warpgroup descriptor of global memory is no
// shared-memory compute operand.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_global(%A: memref<64x512xf16>, %G: memref<64x64xf16>)
        workgroup(%sA: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
        vector.store %v, %sA[%tid, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<64x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        // expected-remark @below {{not a pk K-loop: compute phase: nvgpu.warpgroup.generate.descriptor of memory that is not shared}}
        %dB = nvgpu.warpgroup.generate.descriptor %G, %tm : memref<64x64xf16>, !tmA -> !dB
        %d = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dB, !acc -> !acc
        gpu.barrier
        scf.yield %d : !acc
      }
      gpu.return
    }
  }
}

// -----

// wgmma: a descriptor that is no generate.descriptor result (a loop-carried
// one) cannot be traced to a shared buffer.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_carried(%A: memref<64x512xf16>)
        workgroup(%sA: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %d0 = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<64x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
      // expected-note @below {{in this K-loop candidate}}
      %r:2 = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0, %dd = %d0) -> (!acc, !dA) {
        %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
        vector.store %v, %sA[%tid, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<64x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        // expected-remark @below {{not a pk K-loop: compute phase: nvgpu.warpgroup.mma descriptor that is not an nvgpu.warpgroup.generate.descriptor result}}
        %d = nvgpu.warpgroup.mma %dd, %dA, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dA, !acc -> !acc
        gpu.barrier
        scf.yield %d, %dA : !acc, !dA
      }
      gpu.return
    }
  }
}

// -----

// wgmma: the proxy fence (fence.proxy.async) must sit directly in the K-loop
// body, where pipelining can keep it between a tile's stores and its compute.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_nested_fence(%A: memref<64x512xf16>)
        workgroup(%sA: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        scf.for %i = %c0 to %c1 step %c1 {
          %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
          vector.store %v, %sA[%tid, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          // expected-remark @below {{not a pk K-loop: load phase: nvvm.fence.proxy inside a nested region}}
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        }
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<64x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        %d = nvgpu.warpgroup.mma %dA, %dA, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dA, !acc -> !acc
        gpu.barrier
        scf.yield %d : !acc
      }
      gpu.return
    }
  }
}

// -----

// wgmma: a proxy fence for global memory (fence.proxy.async.global) orders
// nothing pk needs: an unknown side effect of the load phase.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_global_fence(%A: memref<64x512xf16>)
        workgroup(%sA: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // expected-note @below {{in this K-loop candidate}}
      %r = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
        vector.store %v, %sA[%tid, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // expected-remark @below {{not a pk K-loop: load phase: unsupported operation with side effects 'nvvm.fence.proxy'}}
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<64x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        %d = nvgpu.warpgroup.mma %dA, %dA, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dA, !acc -> !acc
        gpu.barrier
        scf.yield %d : !acc
      }
      gpu.return
    }
  }
}
