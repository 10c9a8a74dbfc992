// pk-runner: load a pk GEMM kernel (cubin or PTX) with the CUDA driver API,
// run it on random inputs, check it against a CPU reference in double
// precision, and time it with CUDA events.
//
// Kernel contract (examples/gen_gemm.py, "TN" layout, static shapes):
//   A : MxK row-major, B : NxK row-major, C : MxN row-major,
//   C[m][n] = sum_k A[m][k] * B[n][k]
//   (--b-layout kn: B is KxN row-major, C[m][n] = sum_k A[m][k] * B[k][n],
//   the "NN" layout of gen_gemm.py's wgmma kernels)
//   grid (N/BN, M/BM, 1) (--grid G: G x 1 x 1, a persistent kernel that
//   loops over the tiles itself), block (threads, 1, 1), three bare device
//   pointers (A, B, C) as parameters (convert-gpu-to-nvvm
//   use-bare-ptr-memref-call-conv). hgemm: f16 x f16 -> f32, bgemm: bf16 x bf16
//   -> f32, igemm: i8 x i8 -> i32, sgemm: f32 x f32 -> f32, e4m3gemm /
//   e5m2gemm: fp8 (float8_e4m3fn / float8_e5m2) x the same -> f32 scaled,
//   C[m][n] = SA * SB * sum_k A[m][k] * B[n][k] (examples/gen_wgmma_fp8.py;
//   --b-layout nk only, no --b-int8).
//   --tma ARG:BOX0xBOX1[:SWIZZLE] (repeatable; ARG is A, B or C): the runner
//   encodes a 2-D tiled tensor map of that matrix (cuTensorMapEncodeTiled:
//   its row-major device buffer, dims innermost first, box BOX0 x BOX1
//   elements innermost first, swizzle 0|32|64|128 bytes, default 128),
//   copies the 128-byte map to its own device allocation and passes that
//   pointer as an extra kernel parameter after C, in the order of the --tma
//   options (the TMA kernels of gen_gemm.py --copy tma; C, M x N of the
//   output type, for the TMA-store epilogue of --epilogue tma-store).
//   --c-type f32|f16|bf16: C's element type, f32 by default (i32 for
//   igemm); f16 with hgemm and bf16 with bgemm: C has the inputs' type, as
//   torch.matmul returns it (gen_gemm.py --c-type), and the check adds half
//   an ulp of that type to the tolerance.
//   --scale SA,SB (fp8 kinds only, default 0.5,0.25): the runner copies the
//   two floats {SA, SB} to a device buffer and passes its pointer as the last
//   kernel parameter, after the tensor maps.
//
// Usage:
//   pk-runner --kind hgemm|bgemm|igemm|sgemm|e4m3gemm|e5m2gemm --module FILE
//             --kernel NAME --m M --n N --k K [--bm 128 --bn 128] [--threads
//             256]
//             [--smem BYTES] [--check full|rows:N|none] [--warmup 3]
//             [--iters 10] [--seed S] [--json OUT] [--label TEXT]
//             [--b-layout nk|kn] [--b-int8] [--tma ARG:BOX0xBOX1[:SWIZZLE] ...]
//             [--scale SA,SB] [--c-type f32|f16|bf16] [--dump FILE]
//
// The output buffer is poisoned (NaN / 0x7F7F7F7F) before the first launch, so
// elements the kernel never writes fail the check. All launches (warmup +
// timed) write the same C; the check reads C after the last launch. If warmup
// and iters are both 0, the kernel is launched once (for correctness only).
// Tolerances (element passes if |got-ref| <= abs + rel*|ref|):
//   igemm 0.5/0.1, hgemm, bgemm and the fp8 kinds 1e-2/1e-2, sgemm 1e-3/1e-3.
// Exit status: 0 pass, 1 wrong result, 2 usage / CUDA error.

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

// ---------------------------------------------------------------- utilities

struct Options {
  std::string kind, module, kernel, check = "full", json, label, bLayout = "nk", dump;
  /// --c-type: C's element type (f32; f16 / bf16: the inputs' type).
  std::string cType = "f32";
  /// --b-int8: B is int8 (weight-only quantization; hgemm / bgemm kernels
  /// that convert it in their load phase, gen_gemm.py --b-int8).
  bool bInt8 = false;
  std::vector<std::string> tma;  // --tma specs, in kernel-parameter order
  /// --scale SA,SB: the fp8 kinds' per-tensor scales (a device buffer, the
  /// last kernel parameter); scale.empty() until given or defaulted.
  std::string scale;
  float scaleAB[2] = {0.5f, 0.25f};
  long m = 0, n = 0, k = 0, bm = 128, bn = 128, threads = 256, smem = 0;
  /// --grid G: a persistent kernel's 1-D grid of G blocks (0: N/BN x M/BM).
  long grid = 0;
  int warmup = 3, iters = 10;
  uint64_t seed = 20261129;
};

[[noreturn]] void usage(const char *msg) {
  if (msg) std::fprintf(stderr, "pk-runner: %s\n", msg);
  std::fprintf(
      stderr,
      "usage: pk-runner --kind hgemm|bgemm|igemm|sgemm|e4m3gemm|e5m2gemm "
      "--module FILE\n"
      "                 --kernel NAME --m M --n N --k K [--bm 128 --bn 128] "
      "[--threads 256]\n"
      "                 [--smem BYTES] [--check full|rows:N|none] [--warmup "
      "3]\n"
      "                 [--iters 10] [--seed S] [--json OUT] [--label TEXT]\n"
      "                 [--b-layout nk|kn] [--b-int8] [--tma "
      "ARG:BOX0xBOX1[:SWIZZLE] "
      "...]\n"
      "                 [--scale SA,SB]  (fp8 kinds; default 0.5,0.25)\n"
      "                 [--c-type f32|f16|bf16]  (C's type; f16 with hgemm, "
      "bf16 "
      "with bgemm)\n"
      "                 [--grid G]  (persistent kernels: G x 1 x 1 blocks)\n"
      "                 [--dump FILE]  (C after the last launch, raw bytes)\n");
  std::exit(2);
}

std::string jsonEscape(const std::string &s) {
  std::string o;
  for (char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        o += buf;
      } else {
        o += c;
      }
    }
  }
  return o;
}

std::string jnum(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

struct SplitMix64 {
  uint64_t s;
  explicit SplitMix64(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // uniform integer in [lo, hi]
  long range(long lo, long hi) {
    return lo + static_cast<long>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // uniform float in [-1, 1)
  float unit() {
    return static_cast<float>(static_cast<double>(next() >> 40) / 8388608.0 - 1.0);
  }
};

// IEEE binary32 -> binary16, round to nearest even.
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t man = x & 0x7FFFFFu;
  if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u : 0u));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    int shift = 14 - e;
    uint32_t h = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t man = h & 0x3FFu;
  uint32_t x;
  if (exp == 0) {
    if (man == 0) {
      x = sign;
    } else {
      int e = -1;
      do { ++e; man <<= 1; } while (!(man & 0x400u));
      x = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | ((man & 0x3FFu) << 13);
    }
  } else if (exp == 0x1F) {
    x = sign | 0x7F800000u | (man << 13);
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// float -> fp8 with eb exponent bits (bias 2^(eb-1) - 1) and 7 - eb mantissa
// bits: e4m3fn (eb 4, no infinities, S.1111.111 is NaN) or e5m2 (eb 5). Only
// 0 and normal numbers the format holds exactly (the inputs k/8, |k| <= 8);
// anything else aborts.
uint8_t floatToFp8(float f, int eb) {
  const int mb = 7 - eb, bias = (1 << (eb - 1)) - 1, maxE = eb == 4 ? 15 : 30;
  const uint8_t sign = std::signbit(f) ? 0x80 : 0;
  if (f == 0.0f)
    return sign;
  int ex = 0;
  const double fr = std::isfinite(f)
                        ? std::frexp(std::fabs(static_cast<double>(f)), &ex)
                        : 0.0;
  const int e = ex - 1 + bias; // |f| = 1.man * 2^(ex - 1), fr in [0.5, 1)
  const double man = (2.0 * fr - 1.0) * (1 << mb);
  if (fr == 0.0 || e < 1 || e > maxE || man != std::floor(man) ||
      (eb == 4 && e == 15 && man == 7)) {
    std::fprintf(stderr, "pk-runner: %g is not exact in fp8 e%dm%d\n",
                 static_cast<double>(f), eb, mb);
    std::abort();
  }
  return static_cast<uint8_t>(sign | e << mb | static_cast<int>(man));
}

// ------------------------------------------------------------------ CUDA

std::string g_error;

bool ok(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return true;
  const char *name = nullptr, *str = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &str);
  std::ostringstream os;
  os << what << " failed: " << (name ? name : "?") << " (" << static_cast<int>(r)
     << "): " << (str ? str : "?");
  g_error = os.str();
  std::fprintf(stderr, "pk-runner: %s\n", g_error.c_str());
  return false;
}

struct Result {
  std::string status = "error";  // pass | fail | error
  std::string device, moduleFormat;
  int ccMajor = 0, ccMinor = 0;
  double loadMs = 0;
  int numRegs = -1, localBytes = -1, sharedBytes = -1, maxThreads = -1;
  std::vector<double> times;
  double medianMs = NAN, minMs = NAN, meanMs = NAN;
  long rowsChecked = 0, elemsChecked = 0, mismatches = 0, unwritten = 0;
  double maxAbsErr = 0, maxRelErr = 0, tolAbs = 0, tolRel = 0;
  std::vector<std::string> firstMismatches;
  bool checked = false;
};

void writeJson(const Options &o, const Result &r, const std::string &cmdline) {
  if (o.json.empty()) return;
  double ops = 2.0 * o.m * o.n * o.k;
  std::ostringstream j;
  j << "{\n";
  j << "  \"kernel\": \"" << jsonEscape(o.kernel) << "\",\n";
  j << "  \"module\": \"" << jsonEscape(o.module) << "\",\n";
  j << "  \"module_format\": \"" << r.moduleFormat << "\",\n";
  j << "  \"label\": \"" << jsonEscape(o.label) << "\",\n";
  j << "  \"kind\": \"" << o.kind << "\", \"b_layout\": \"" << o.bLayout
    << "\", \"b_int8\": " << (o.bInt8 ? "true" : "false") << ",\n";
  if (!o.tma.empty()) {
    j << "  \"tma\": [";
    for (size_t i = 0; i < o.tma.size(); ++i) j << (i ? ", " : "") << "\"" << jsonEscape(o.tma[i]) << "\"";
    j << "],\n";
  }
  if (o.cType != "f32")
    j << "  \"c_type\": \"" << o.cType << "\",\n";
  if (!o.scale.empty())
    j << "  \"scale\": [" << jnum(o.scaleAB[0]) << ", " << jnum(o.scaleAB[1])
      << "],\n";
  j << "  \"m\": " << o.m << ", \"n\": " << o.n << ", \"k\": " << o.k << ",\n";
  j << "  \"size\": \"" << o.m << "x" << o.n << "x" << o.k << "\",\n";
  j << "  \"bm\": " << o.bm << ", \"bn\": " << o.bn << ", \"threads\": " << o.threads
    << ", \"dyn_smem\": " << o.smem << ",\n";
  if (o.grid)
    j << "  \"grid\": [" << o.grid << ", 1, 1],\n";
  else
    j << "  \"grid\": [" << (o.bn ? o.n / o.bn : 0) << ", "
      << (o.bm ? o.m / o.bm : 0) << ", 1],\n";
  j << "  \"device\": \"" << jsonEscape(r.device) << "\", \"cc\": \"" << r.ccMajor << "."
    << r.ccMinor << "\",\n";
  j << "  \"module_load_ms\": " << jnum(r.loadMs) << ",\n";
  j << "  \"num_regs\": " << r.numRegs << ", \"local_bytes\": " << r.localBytes
    << ", \"static_shared_bytes\": " << r.sharedBytes << ", \"max_threads_per_block\": "
    << r.maxThreads << ",\n";
  j << "  \"warmup\": " << o.warmup << ", \"iters\": " << o.iters << ",\n";
  j << "  \"times_ms\": [";
  for (size_t i = 0; i < r.times.size(); ++i) j << (i ? ", " : "") << jnum(r.times[i]);
  j << "],\n";
  j << "  \"median_ms\": " << jnum(r.medianMs) << ", \"min_ms\": " << jnum(r.minMs)
    << ", \"mean_ms\": " << jnum(r.meanMs) << ",\n";
  const char *unit = o.kind == "igemm" ? "gops" : "gflops";
  j << "  \"ops\": " << jnum(ops) << ", \"unit\": \"" << (o.kind == "igemm" ? "GOP/s" : "GFLOP/s")
    << "\",\n";
  j << "  \"" << unit << "\": " << jnum(ops / (r.medianMs * 1e6)) << ", \"" << unit
    << "_best\": " << jnum(ops / (r.minMs * 1e6)) << ",\n";
  j << "  \"rate\": " << jnum(ops / (r.medianMs * 1e6)) << ", \"rate_best\": "
    << jnum(ops / (r.minMs * 1e6)) << ",\n";
  j << "  \"check\": \"" << o.check << "\", \"checked\": " << (r.checked ? "true" : "false")
    << ", \"seed\": " << o.seed << ",\n";
  j << "  \"rows_checked\": " << r.rowsChecked << ", \"elements_checked\": " << r.elemsChecked
    << ",\n";
  j << "  \"max_abs_err\": " << jnum(r.maxAbsErr) << ", \"max_rel_err\": " << jnum(r.maxRelErr)
    << ",\n";
  j << "  \"tol_abs\": " << jnum(r.tolAbs) << ", \"tol_rel\": " << jnum(r.tolRel) << ",\n";
  j << "  \"mismatches\": " << r.mismatches << ", \"unwritten\": " << r.unwritten << ",\n";
  j << "  \"first_mismatches\": [";
  for (size_t i = 0; i < r.firstMismatches.size(); ++i)
    j << (i ? ", " : "") << "\"" << jsonEscape(r.firstMismatches[i]) << "\"";
  j << "],\n";
  j << "  \"pass\": " << (r.status == "pass" ? "true" : "false") << ",\n";
  j << "  \"status\": \"" << r.status << "\",\n";
  j << "  \"error\": \"" << jsonEscape(g_error) << "\",\n";
  j << "  \"command\": \"" << jsonEscape(cmdline) << "\"\n";
  j << "}\n";
  std::ofstream f(o.json);
  f << j.str();
  if (!f) std::fprintf(stderr, "pk-runner: cannot write %s\n", o.json.c_str());
}

bool readFile(const std::string &path, std::vector<char> &data) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// Run fn(row_index_in_list) over `count` items on all hardware threads.
template <typename Fn> void parallelFor(long count, Fn fn) {
  unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  nt = static_cast<unsigned>(std::min<long>(nt, std::max(1L, count)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < nt; ++t)
    pool.emplace_back([=, &fn] {
      for (long i = t; i < count; i += nt) fn(i);
    });
  for (auto &th : pool) th.join();
}

// One --tma option: ARG:BOX0xBOX1[:SWIZZLE].
struct TmaSpec {
  char arg = 0;
  cuuint32_t box[2] = {0, 0};
  int swizzle = 128;
};

bool parseTma(const std::string &s, TmaSpec &t) {
  unsigned long b0 = 0, b1 = 0;
  int sw = 128, used = 0;
  char arg = 0;
  int n = std::sscanf(s.c_str(), "%c:%lux%lu%n", &arg, &b0, &b1, &used);
  if (n != 3 || (arg != 'A' && arg != 'B' && arg != 'C') || b0 == 0 ||
      b1 == 0 || b0 > 256 || b1 > 256)
    return false;
  int rest = 0;
  if (static_cast<size_t>(used) != s.size() &&
      (std::sscanf(s.c_str() + used, ":%d%n", &sw, &rest) != 1 ||
       static_cast<size_t>(used + rest) != s.size() || (sw != 0 && sw != 32 && sw != 64 && sw != 128)))
    return false;
  t.arg = arg;
  t.box[0] = static_cast<cuuint32_t>(b0);
  t.box[1] = static_cast<cuuint32_t>(b1);
  t.swizzle = sw;
  return true;
}

// Encode the tensor map of a rows x cols row-major matrix at ptr (element
// size elt) and copy it to a fresh device allocation *dMap.
bool encodeTma(const TmaSpec &t, CUdeviceptr ptr, size_t rows, size_t cols, size_t elt,
               CUtensorMapDataType type, CUdeviceptr *dMap) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * elt};
  const cuuint32_t elemStrides[2] = {1, 1};
  const CUtensorMapSwizzle sw = t.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                : t.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                : t.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
  if (!ok(cuTensorMapEncodeTiled(&map, type, 2, reinterpret_cast<void *>(ptr), dims, strides, t.box,
                                 elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled"))
    return false;
  static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
  return ok(cuMemAlloc(dMap, sizeof map), "cuMemAlloc(tensor map)") &&
         ok(cuMemcpyHtoD(*dMap, &map, sizeof map), "cuMemcpyHtoD(tensor map)");
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  std::string cmdline;
  for (int i = 0; i < argc; ++i) cmdline += (i ? " " : "") + std::string(argv[i]);

  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "--kind") o.kind = val();
    else if (a == "--module") o.module = val();
    else if (a == "--kernel") o.kernel = val();
    else if (a == "--m") o.m = std::stol(val());
    else if (a == "--n") o.n = std::stol(val());
    else if (a == "--k") o.k = std::stol(val());
    else if (a == "--bm") o.bm = std::stol(val());
    else if (a == "--bn") o.bn = std::stol(val());
    else if (a == "--threads") o.threads = std::stol(val());
    else if (a == "--smem") o.smem = std::stol(val());
    else if (a == "--grid")
      o.grid = std::stol(val());
    else if (a == "--check") o.check = val();
    else if (a == "--warmup") o.warmup = std::stoi(val());
    else if (a == "--iters") o.iters = std::stoi(val());
    else if (a == "--seed") o.seed = std::stoull(val());
    else if (a == "--json") o.json = val();
    else if (a == "--label") o.label = val();
    else if (a == "--b-layout") o.bLayout = val();
    else if (a == "--b-int8")
      o.bInt8 = true;
    else if (a == "--dump") o.dump = val();
    else if (a == "--tma") o.tma.push_back(val());
    else if (a == "--scale")
      o.scale = val();
    else if (a == "--c-type")
      o.cType = val();
    else if (a == "-h" || a == "--help") usage(nullptr);
    else usage(("unknown argument " + a).c_str());
  }
  const bool isF8 = o.kind == "e4m3gemm" || o.kind == "e5m2gemm";
  if (o.kind != "hgemm" && o.kind != "bgemm" && o.kind != "igemm" &&
      o.kind != "sgemm" && !isF8)
    usage("--kind must be hgemm, bgemm, igemm, sgemm, e4m3gemm or e5m2gemm");
  if (o.module.empty() || o.kernel.empty()) usage("--module and --kernel are required");
  if (o.bLayout != "nk" && o.bLayout != "kn") usage("--b-layout must be nk or kn");
  if (isF8 && (o.bLayout != "nk" || o.bInt8))
    usage(
        "--kind e4m3gemm / e5m2gemm: B is N x K (--b-layout nk), no --b-int8");
  if (!o.scale.empty() && !isF8)
    usage("--scale goes with --kind e4m3gemm or e5m2gemm");
  if (isF8) {
    int used = 0;
    if (o.scale.empty())
      o.scale = "0.5,0.25";
    if (std::sscanf(o.scale.c_str(), "%f,%f%n", &o.scaleAB[0], &o.scaleAB[1],
                    &used) != 2 ||
        static_cast<size_t>(used) != o.scale.size() ||
        !std::isfinite(o.scaleAB[0]) || !std::isfinite(o.scaleAB[1]))
      usage(("bad --scale " + o.scale + " (SA,SB: two finite floats)").c_str());
  }
  if (o.cType != "f32" && !(o.kind == "hgemm" && o.cType == "f16") &&
      !(o.kind == "bgemm" && o.cType == "bf16"))
    usage("--c-type must be f32, f16 with --kind hgemm or bf16 with --kind "
          "bgemm");
  if (o.bInt8 && ((o.kind != "hgemm" && o.kind != "bgemm") || !o.tma.empty()))
    usage("--b-int8 goes with --kind hgemm or bgemm, without --tma");
  if (o.m <= 0 || o.n <= 0 || o.k <= 0) usage("--m, --n, --k must be positive");
  if (o.bm <= 0 || o.bn <= 0 || o.m % o.bm || o.n % o.bn) usage("M and N must be multiples of --bm / --bn");
  if (o.warmup < 0 || o.iters < 0) usage("--warmup / --iters must be >= 0");
  if (o.grid < 0 || o.grid > 65535)
    usage("--grid must be in [0, 65535] (0: one block per tile)");
  long checkRows = 0;
  if (o.check == "full") checkRows = o.m;
  else if (o.check == "none") checkRows = 0;
  else if (o.check.rfind("rows:", 0) == 0) checkRows = std::min(o.m, std::stol(o.check.substr(5)));
  else usage("--check must be full, rows:N or none");
  std::vector<TmaSpec> tmas(o.tma.size());
  for (size_t i = 0; i < o.tma.size(); ++i)
    if (!parseTma(o.tma[i], tmas[i]))
      usage(("bad --tma " + o.tma[i] +
             " (ARG:BOX0xBOX1[:0|32|64|128], ARG A, B or C)")
                .c_str());

  Result r;
  const bool c16 = o.cType != "f32";
  const bool isH = o.kind == "hgemm", isB = o.kind == "bgemm",
             isI = o.kind == "igemm";
  r.tolAbs = isI ? 0.5 : isH || isB || isF8 ? 1e-2 : 1e-3;
  r.tolRel = isI ? 0.1 : isH || isB || isF8 ? 1e-2 : 1e-3;
  const size_t inElt = isH || isB ? 2 : isI || isF8 ? 1 : 4;
  // fp8: C = SA * SB * A B^T (the kernel multiplies by the f32 product)
  const double refScale =
      isF8 ? static_cast<double>(o.scaleAB[0] * o.scaleAB[1]) : 1.0;
  const size_t bElt = o.bInt8 ? 1 : inElt;
  const size_t M = o.m, N = o.n, K = o.k;

  // ---------------------------------------------------------- host inputs
  // Values are kept in float (exact for f16, bf16, i8, fp8 and f32) for the
  // reference.
  std::vector<float> Af(M * K), Bf(N * K);
  std::vector<uint8_t> Ah(M * K * inElt), Bh(N * K * bElt);
  {
    auto fill = [&](std::vector<float> &vf, std::vector<uint8_t> &vh,
                    uint64_t seed, bool int8) {
      SplitMix64 rng(seed);
      for (size_t i = 0; i < vf.size(); ++i) {
        if (int8) {
          int8_t v = static_cast<int8_t>(rng.range(-8, 8));
          vf[i] = v;
          vh[i] = static_cast<uint8_t>(v);
        } else if (isF8) {
          // multiples of 1/8 in [-1, 1]: exact (and normal) in e4m3fn and e5m2
          float v = static_cast<float>(rng.range(-8, 8)) / 8.0f;
          vf[i] = v;
          vh[i] = floatToFp8(v, o.kind == "e4m3gemm" ? 4 : 5);
        } else if (isH) {
          // multiples of 1/1024 in [-1, 1]: exact in f16
          uint16_t h = floatToHalf(static_cast<float>(rng.range(-1024, 1024)) / 1024.0f);
          vf[i] = halfToFloat(h);
          std::memcpy(&vh[2 * i], &h, 2);
        } else if (isB) {
          // multiples of 1/128 in [-1, 1]: exact in bf16 (the upper half of
          // the f32 bits)
          float v = static_cast<float>(rng.range(-128, 128)) / 128.0f;
          uint32_t bits;
          std::memcpy(&bits, &v, 4);
          uint16_t b = static_cast<uint16_t>(bits >> 16);
          vf[i] = v;
          std::memcpy(&vh[2 * i], &b, 2);
        } else {
          float v = rng.unit();
          vf[i] = v;
          std::memcpy(&vh[4 * i], &v, 4);
        }
      }
    };
    fill(Af, Ah, o.seed * 2 + 1, isI);
    fill(Bf, Bh, o.seed * 2 + 2, isI || o.bInt8);
  }
  // --b-layout kn: the device gets B as K x N (Bf keeps [n][k] for the
  // reference).
  if (o.bLayout == "kn") {
    std::vector<uint8_t> t(Bh.size());
    for (size_t n = 0; n < N; ++n)
      for (size_t kk = 0; kk < K; ++kk)
        std::memcpy(&t[(kk * N + n) * bElt], &Bh[(n * K + kk) * bElt], bElt);
    Bh.swap(t);
  }

  int rc = 2;
  CUdevice dev;
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn;
  CUdeviceptr dA = 0, dB = 0, dC = 0, dScale = 0;
  std::vector<CUdeviceptr> dMaps(tmas.size(), 0);
  std::vector<CUevent> evs;
  do {
    if (!ok(cuInit(0), "cuInit")) break;
    if (!ok(cuDeviceGet(&dev, 0), "cuDeviceGet")) break;
    char name[256] = {0};
    cuDeviceGetName(name, sizeof name - 1, dev);
    r.device = name;
    cuDeviceGetAttribute(&r.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&r.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    if (!ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain")) break;
    if (!ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent")) break;

    // ------------------------------------------------------- module load
    std::vector<char> image;
    if (!readFile(o.module, image) || image.empty()) {
      g_error = "cannot read module " + o.module;
      std::fprintf(stderr, "pk-runner: %s\n", g_error.c_str());
      break;
    }
    bool isElf = image.size() >= 4 && std::memcmp(image.data(), "\x7f" "ELF", 4) == 0;
    r.moduleFormat = isElf ? "cubin" : "ptx";
    if (!isElf) image.push_back('\0');  // PTX must be NUL-terminated
    char jitLog[8192] = {0}, jitInfo[8192] = {0};
    CUjit_option jopts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
    void *jvals[] = {jitLog, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof jitLog - 1)),
                     jitInfo, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof jitInfo - 1)),
                     reinterpret_cast<void *>(static_cast<uintptr_t>(1))};
    auto t0 = std::chrono::steady_clock::now();
    CUresult lr = isElf ? cuModuleLoadData(&mod, image.data())
                        : cuModuleLoadDataEx(&mod, image.data(), 5, jopts, jvals);
    r.loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!ok(lr, "cuModuleLoadData")) {
      if (jitLog[0]) {
        std::fprintf(stderr, "JIT error log:\n%s\n", jitLog);
        g_error += std::string("; JIT log: ") + jitLog;
      }
      break;
    }
    if (!ok(cuModuleGetFunction(&fn, mod, o.kernel.c_str()), "cuModuleGetFunction")) break;
    cuFuncGetAttribute(&r.numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    cuFuncGetAttribute(&r.localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
    cuFuncGetAttribute(&r.sharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    cuFuncGetAttribute(&r.maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
    if (o.smem > 48 * 1024 &&
        !ok(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(o.smem)),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
      break;

    // ------------------------------------------------------------ buffers
    // C: 4-byte elements, or 2-byte ones with --c-type f16 / bf16
    const size_t cElt = c16 ? 2 : 4, cBytes = M * N * cElt;
    if (!ok(cuMemAlloc(&dA, Ah.size()), "cuMemAlloc(A)")) break;
    if (!ok(cuMemAlloc(&dB, Bh.size()), "cuMemAlloc(B)")) break;
    if (!ok(cuMemAlloc(&dC, cBytes), "cuMemAlloc(C)")) break;
    if (!ok(cuMemcpyHtoD(dA, Ah.data(), Ah.size()), "cuMemcpyHtoD(A)")) break;
    if (!ok(cuMemcpyHtoD(dB, Bh.data(), Bh.size()), "cuMemcpyHtoD(B)")) break;
    // huge int / NaN (f32, or a NaN of f16 and of bf16 in each half)
    const uint32_t poison = isI ? 0x7F7F7F7Fu : c16 ? 0x7FC17FC1u : 0x7FC0DEADu;
    if (!ok(c16 ? cuMemsetD16(dC, static_cast<unsigned short>(poison), M * N)
                : cuMemsetD32(dC, poison, M * N),
            "cuMemset(C)"))
      break;
    if (isF8 &&
        (!ok(cuMemAlloc(&dScale, sizeof o.scaleAB), "cuMemAlloc(scale)") ||
         !ok(cuMemcpyHtoD(dScale, o.scaleAB, sizeof o.scaleAB),
             "cuMemcpyHtoD(scale)")))
      break;
    if (!ok(cuCtxSynchronize(), "cuCtxSynchronize")) break;

    // -------------------------------------------------------- tensor maps
    // A is M x K; B is N x K, or K x N with --b-layout kn (all row-major).
    const CUtensorMapDataType tmaType = isH   ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                        : isB ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                        : isI || isF8
                                            ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    bool mapsOk = true;
    // C is M x N of the output type (f32, or i32 for igemm).
    const CUtensorMapDataType outType =
        isI                 ? CU_TENSOR_MAP_DATA_TYPE_INT32
        : o.cType == "f16"  ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
        : o.cType == "bf16" ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    for (size_t i = 0; i < tmas.size() && mapsOk; ++i) {
      const bool isA = tmas[i].arg == 'A', kn = o.bLayout == "kn";
      if (tmas[i].arg == 'C')
        mapsOk = encodeTma(tmas[i], dC, M, N, cElt, outType, &dMaps[i]);
      else
        mapsOk = encodeTma(tmas[i], isA ? dA : dB,
                           isA  ? M
                           : kn ? K
                                : N,
                           isA  ? K
                           : kn ? N
                                : K,
                           inElt, tmaType, &dMaps[i]);
    }
    if (!mapsOk) break;

    // ------------------------------------------------------------ launches
    std::vector<void *> args = {&dA, &dB, &dC};
    for (auto &m : dMaps) args.push_back(&m);
    if (isF8)
      args.push_back(&dScale); // after the tensor maps
    const unsigned gx = static_cast<unsigned>(o.grid ? o.grid : o.n / o.bn);
    const unsigned gy = static_cast<unsigned>(o.grid ? 1 : o.m / o.bm);
    auto launch = [&]() {
      return ok(cuLaunchKernel(fn, gx, gy, 1, static_cast<unsigned>(o.threads), 1, 1,
                               static_cast<unsigned>(o.smem), nullptr, args.data(), nullptr),
                "cuLaunchKernel");
    };
    bool failed = false;
    if (o.warmup == 0 && o.iters == 0) {
      failed = !launch() || !ok(cuCtxSynchronize(), "kernel execution");
    }
    for (int i = 0; i < o.warmup && !failed; ++i) failed = !launch();
    if (!failed && o.warmup) failed = !ok(cuCtxSynchronize(), "kernel execution (warmup)");
    if (!failed && o.iters > 0) {
      evs.resize(2 * o.iters);
      for (auto &e : evs)
        if (!ok(cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate")) { failed = true; break; }
      for (int i = 0; i < o.iters && !failed; ++i) {
        failed = !ok(cuEventRecord(evs[2 * i], nullptr), "cuEventRecord") || !launch() ||
                 !ok(cuEventRecord(evs[2 * i + 1], nullptr), "cuEventRecord");
      }
      if (!failed) failed = !ok(cuCtxSynchronize(), "kernel execution (timed)");
      for (int i = 0; i < o.iters && !failed; ++i) {
        float ms = 0;
        failed = !ok(cuEventElapsedTime(&ms, evs[2 * i], evs[2 * i + 1]), "cuEventElapsedTime");
        r.times.push_back(ms);
      }
      if (!failed && !r.times.empty()) {
        std::vector<double> s = r.times;
        std::sort(s.begin(), s.end());
        size_t n = s.size();
        r.medianMs = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
        r.minMs = s.front();
        double sum = 0;
        for (double t : s) sum += t;
        r.meanMs = sum / n;
      }
    }
    if (failed) break;

    // ---------------------------------------------------------------- check
    std::vector<uint32_t> C(M * N);
    if (!ok(cuMemcpyDtoH(C.data(), dC, cBytes), "cuMemcpyDtoH(C)")) break;
    if (!o.dump.empty()) {
      // For differential runs (test/fuzz/gpu_diff.py): two kernels, one seed.
      std::ofstream d(o.dump, std::ios::binary);
      d.write(reinterpret_cast<const char *>(C.data()), static_cast<std::streamsize>(cBytes));
      if (!d) std::fprintf(stderr, "pk-runner: cannot write %s\n", o.dump.c_str());
    }
    if (c16) {
      // widen in place, from the back: element i's 2 bytes -> C[i] (f32 bits)
      const char *raw = reinterpret_cast<const char *>(C.data());
      for (size_t i = M * N; i-- > 0;) {
        uint16_t v;
        std::memcpy(&v, raw + 2 * i, 2);
        float f;
        if (o.cType == "f16") {
          f = halfToFloat(v);
        } else {
          const uint32_t bits = static_cast<uint32_t>(v) << 16;
          std::memcpy(&f, &bits, 4);
        }
        std::memcpy(&C[i], &f, 4);
        if (v == static_cast<uint16_t>(poison))
          C[i] = poison; // still the poison: counted as unwritten
      }
    }
    rc = 0;
    r.status = "pass";
    if (checkRows > 0) {
      r.checked = true;
      std::vector<long> rows;
      if (checkRows >= o.m) {
        for (long i = 0; i < o.m; ++i) rows.push_back(i);
      } else {
        // first and last row of the matrix, the rest random distinct rows
        SplitMix64 rng(o.seed * 7 + 3);
        std::vector<char> used(M, 0);
        rows.push_back(0);
        used[0] = 1;
        if (checkRows > 1) { rows.push_back(o.m - 1); used[M - 1] = 1; }
        while (static_cast<long>(rows.size()) < checkRows) {
          long rr = rng.range(0, o.m - 1);
          if (!used[rr]) { used[rr] = 1; rows.push_back(rr); }
        }
        std::sort(rows.begin(), rows.end());
      }
      struct RowStat {
        double maxAbs = 0, maxRel = 0;
        long bad = 0, unwritten = 0;
        std::vector<std::string> first;
      };
      std::vector<RowStat> stats(rows.size());
      parallelFor(static_cast<long>(rows.size()), [&](long ri) {
        const long m = rows[ri];
        RowStat &st = stats[ri];
        const float *a = &Af[m * K];
        for (size_t n = 0; n < N; ++n) {
          const float *b = &Bf[n * K];
          double ref;
          if (isI) {
            long long acc = 0;
            for (size_t kk = 0; kk < K; ++kk)
              acc += static_cast<long long>(a[kk]) * static_cast<long long>(b[kk]);
            ref = static_cast<double>(acc);
          } else {
            double acc = 0;
            for (size_t kk = 0; kk < K; ++kk) acc += static_cast<double>(a[kk]) * b[kk];
            ref = acc * refScale;
          }
          uint32_t bits = C[m * N + n];
          double got;
          if (isI) {
            int32_t v;
            std::memcpy(&v, &bits, 4);
            got = v;
          } else {
            float v;
            std::memcpy(&v, &bits, 4);
            got = v;
          }
          if (bits == poison) ++st.unwritten;
          double err = std::fabs(got - ref);
          // + half an ulp of a 16-bit C's rounding (f16: 2^-11, bf16: 2^-8)
          const double cUlp = !c16 ? 0 : o.cType == "f16" ? 0x1p-11 : 0x1p-8;
          double tol = r.tolAbs + (r.tolRel + cUlp) * std::fabs(ref);
          if (!(err <= tol)) {  // NaN fails
            ++st.bad;
            if (st.first.size() < 4) {
              char buf[160];
              std::snprintf(buf, sizeof buf, "C[%ld][%zu] got %.6g ref %.6g", m, n, got, ref);
              st.first.push_back(buf);
            }
            if (std::isnan(err)) err = INFINITY;
          }
          st.maxAbs = std::max(st.maxAbs, err);
          if (std::fabs(ref) > 0) st.maxRel = std::max(st.maxRel, err / std::fabs(ref));
        }
      });
      for (auto &st : stats) {
        r.maxAbsErr = std::max(r.maxAbsErr, st.maxAbs);
        r.maxRelErr = std::max(r.maxRelErr, st.maxRel);
        r.mismatches += st.bad;
        r.unwritten += st.unwritten;
        for (auto &s : st.first)
          if (r.firstMismatches.size() < 10) r.firstMismatches.push_back(s);
      }
      r.rowsChecked = static_cast<long>(rows.size());
      r.elemsChecked = r.rowsChecked * o.n;
      if (r.mismatches) {
        r.status = "fail";
        rc = 1;
      }
    } else {
      r.status = "pass";  // nothing checked; launches succeeded
    }
  } while (false);

  for (auto &e : evs)
    if (e) cuEventDestroy(e);
  if (dA) cuMemFree(dA);
  if (dB) cuMemFree(dB);
  if (dC) cuMemFree(dC);
  if (dScale)
    cuMemFree(dScale);
  for (auto m : dMaps)
    if (m) cuMemFree(m);
  if (mod) cuModuleUnload(mod);
  if (ctx) cuDevicePrimaryCtxRelease(dev);

  double ops = 2.0 * o.m * o.n * o.k;
  const char *unit = isI ? "GOP/s" : "GFLOP/s";
  std::printf("%s %s %s %ldx%ldx%ld [%s] median %.4f ms min %.4f ms %.1f %s | regs %d local %d | "
              "check %s: %ld elems, max_abs_err %.3g, mismatches %ld, unwritten %ld | %s%s%s\n",
              o.kind.c_str(), o.kernel.c_str(), o.module.c_str(), o.m, o.n, o.k,
              r.moduleFormat.c_str(), r.medianMs, r.minMs, ops / (r.medianMs * 1e6), unit,
              r.numRegs, r.localBytes, o.check.c_str(), r.elemsChecked, r.maxAbsErr, r.mismatches,
              r.unwritten, r.status == "pass" ? "PASS" : r.status == "fail" ? "FAIL" : "ERROR",
              g_error.empty() ? "" : ": ", g_error.c_str());
  for (auto &s : r.firstMismatches) std::printf("  mismatch: %s\n", s.c_str());
  writeJson(o, r, cmdline);
  return rc;
}
