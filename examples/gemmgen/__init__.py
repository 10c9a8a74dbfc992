"""The GEMM kernel generators behind examples/gen_gemm.py (its docstring
describes the kernels; gen_gemm.py is the command line and re-exports the
names other scripts use).

  common.py     KINDS, the Emitter, memref types, loop annotations, the
                global reads (plain, partial-K, im2col), the sweep-form
                checks and notes, write_output
  tiled.py      gen: the tiled mma.sync / SGEMM kernels (shapes, shared
                tiles, header, module text)
  mma.py        gen_mma: the mma.sync K-loop and epilogue
  sgemm.py      gen_sgemm: the FMA K-loop and epilogue
  wgmma.py      gen_wgmma (--mma wgmma), WGMMA_NOTES, descriptors, the
                accumulator epilogues, as_bf16_wgmma
  wgmma_tma.py  gen_wgmma_tma (--copy tma), WGMMA_TMA_NOTES, the mbarrier
                setup, the persistent tile loop (PERSISTENT_NOTES),
                tma_kernel_module
"""
