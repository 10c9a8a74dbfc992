// Hand-written CUDA WMMA reference for pk's HGEMM example: same problem and tiles
// (TN layout, C[m][n] = sum_k A[m][k] * B[n][k], f16 in, f32 out, M=N=K=4096,
// block tile 128x128x32, 256 threads = 8 warps as 2 (M) x 4 (N), warp tile 64x32 =
// 4x2 wmma m16n16k16 fragments, shared rows padded to 40 halves (80 bytes)).
//
// Three kernels, extern "C" so that integration/runner/pk-runner loads them by name
// (parameters: three device pointers A, B, C; grid (32, 32), block 256):
//   hgemm_wmma_base : load tile -> smem, __syncthreads, compute, __syncthreads
//   hgemm_wmma_ldg  : LDG-register prefetch of tile t+1 during compute of t (2 smem buffers)
//   hgemm_wmma_cpa  : cp.async double buffering (2 smem buffers)
// Global->shared copy: row-major, 4 threads x 16 bytes per 64-byte tile row, 2+2
// uint4 per thread and tile.
//
//   nvcc -arch=sm_90 -O3 -cubin -Xptxas -v integration/reference/hgemm_wmma_ref.cu -o hgemm_wmma_ref.sm_90.cubin
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>
using namespace nvcuda;

#define M 4096
#define N 4096
#define K 4096
#define BM 128
#define BN 128
#define BK 32
#define LDS (BK + 8)

struct Ctx {
  int tid, wm, wn, lr, lc;
  const half *gA, *gB;
};

__device__ __forceinline__ Ctx make_ctx(const half *A, const half *B) {
  Ctx c;
  c.tid = threadIdx.x;
  int warp = c.tid >> 5;
  c.wm = (warp >> 2) * 64;
  c.wn = (warp & 3) * 32;
  c.lr = c.tid >> 2;        // tile row 0..63 (+64 for the second vector)
  c.lc = (c.tid & 3) * 8;   // k offset in halves
  c.gA = A + (size_t)(blockIdx.y * BM + c.lr) * K + c.lc;
  c.gB = B + (size_t)(blockIdx.x * BN + c.lr) * K + c.lc;
  return c;
}

typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> Acc;

__device__ __forceinline__ void compute(const half *sA, const half *sB, const Ctx &c, Acc (&acc)[4][2]) {
#pragma unroll
  for (int ks = 0; ks < BK; ks += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(fa[i], sA + (c.wm + i * 16) * LDS + ks, LDS);
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], sB + (c.wn + j * 16) * LDS + ks, LDS);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
}

__device__ __forceinline__ void store_c(float *C, const Ctx &c, Acc (&acc)[4][2]) {
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (size_t)(blockIdx.y * BM + c.wm + i * 16) * N + blockIdx.x * BN + c.wn + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}

__device__ __forceinline__ void zero(Acc (&acc)[4][2]) {
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
}

extern "C" __global__ void __launch_bounds__(256, 2)
hgemm_wmma_base(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C) {
  __shared__ __align__(16) half sA[BM * LDS], sB[BN * LDS];
  Ctx c = make_ctx(A, B);
  Acc acc[4][2];
  zero(acc);
  for (int k = 0; k < K; k += BK) {
    uint4 a0 = *(const uint4 *)(c.gA + k), a1 = *(const uint4 *)(c.gA + 64 * K + k);
    uint4 b0 = *(const uint4 *)(c.gB + k), b1 = *(const uint4 *)(c.gB + 64 * K + k);
    *(uint4 *)&sA[c.lr * LDS + c.lc] = a0;
    *(uint4 *)&sA[(c.lr + 64) * LDS + c.lc] = a1;
    *(uint4 *)&sB[c.lr * LDS + c.lc] = b0;
    *(uint4 *)&sB[(c.lr + 64) * LDS + c.lc] = b1;
    __syncthreads();
    compute(sA, sB, c, acc);
    __syncthreads();
  }
  store_c(C, c, acc);
}

extern "C" __global__ void __launch_bounds__(256, 2)
hgemm_wmma_ldg(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C) {
  __shared__ __align__(16) half sA[2][BM * LDS], sB[2][BN * LDS];
  Ctx c = make_ctx(A, B);
  Acc acc[4][2];
  zero(acc);
  uint4 a0 = *(const uint4 *)(c.gA), a1 = *(const uint4 *)(c.gA + 64 * K);
  uint4 b0 = *(const uint4 *)(c.gB), b1 = *(const uint4 *)(c.gB + 64 * K);
  *(uint4 *)&sA[0][c.lr * LDS + c.lc] = a0;
  *(uint4 *)&sA[0][(c.lr + 64) * LDS + c.lc] = a1;
  *(uint4 *)&sB[0][c.lr * LDS + c.lc] = b0;
  *(uint4 *)&sB[0][(c.lr + 64) * LDS + c.lc] = b1;
  __syncthreads();
  int s = 0;
  for (int k = BK; k < K; k += BK) {
    a0 = *(const uint4 *)(c.gA + k); a1 = *(const uint4 *)(c.gA + 64 * K + k);
    b0 = *(const uint4 *)(c.gB + k); b1 = *(const uint4 *)(c.gB + 64 * K + k);
    compute(sA[s], sB[s], c, acc);
    s ^= 1;
    *(uint4 *)&sA[s][c.lr * LDS + c.lc] = a0;
    *(uint4 *)&sA[s][(c.lr + 64) * LDS + c.lc] = a1;
    *(uint4 *)&sB[s][c.lr * LDS + c.lc] = b0;
    *(uint4 *)&sB[s][(c.lr + 64) * LDS + c.lc] = b1;
    __syncthreads();
  }
  compute(sA[s], sB[s], c, acc);
  store_c(C, c, acc);
}

__device__ __forceinline__ void cp16(void *smem, const void *g) {
  uint32_t sa = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g));
}

extern "C" __global__ void __launch_bounds__(256, 2)
hgemm_wmma_cpa(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C) {
  __shared__ __align__(16) half sA[2][BM * LDS], sB[2][BN * LDS];
  Ctx c = make_ctx(A, B);
  Acc acc[4][2];
  zero(acc);
  auto issue = [&](int st, int k) {
    cp16(&sA[st][c.lr * LDS + c.lc], c.gA + k);
    cp16(&sA[st][(c.lr + 64) * LDS + c.lc], c.gA + 64 * K + k);
    cp16(&sB[st][c.lr * LDS + c.lc], c.gB + k);
    cp16(&sB[st][(c.lr + 64) * LDS + c.lc], c.gB + 64 * K + k);
    asm volatile("cp.async.commit_group;\n" ::);
  };
  issue(0, 0);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  int s = 0;
  for (int k = BK; k < K; k += BK) {
    issue(s ^ 1, k);
    compute(sA[s], sB[s], c, acc);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    s ^= 1;
  }
  compute(sA[s], sB[s], c, acc);
  store_c(C, c, acc);
}
