// RUN: pk-opt %s -verify-diagnostics --pipeline-kernel -o /dev/null

// Host code inside a kernel (issue 26: upstream's outlining crashed on it):
// a located error before any pass runs.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-note @below {{the enclosing 'gpu.func'}}
    gpu.func @k(%a: memref<16xf32>) kernel {
      %c1 = arith.constant 1 : index
      // expected-error @below {{gpu.launch nested in a 'gpu.func': a kernel cannot launch a kernel; pipeline-kernel outlines gpu.launch ops of host code only}}
      gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%o = %c1, %p = %c1, %q = %c1) {
        gpu.terminator
      }
      gpu.return
    }
  }
}
