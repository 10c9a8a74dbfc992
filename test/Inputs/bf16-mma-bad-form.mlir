// A bf16 nvgpu.mma.sync with a bf16 accumulator: it verifies, but neither
// upstream's convert-nvgpu-to-nvvm nor pk-lower-bf16-mma-sync lowers it
// (test/pk-lower-bf16-mma-sync.mlir, BADFORM).
gpu.module @m {
  gpu.func @k(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %unused = arith.addi %c0, %c1 : index
    // expected-error @below {{pk lowers bf16 nvgpu.mma.sync as m16n8k8 or m16n8k16, bf16 x bf16 with an f32 accumulator in rows of two}}
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
    gpu.return
  }
}
