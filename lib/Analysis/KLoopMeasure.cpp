//===- KLoopMeasure.cpp - The numbers of a matched K-loop -----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The measurement half of the analysis: shared buffer sizes, the FLOPs of
// the compute ops the matcher walks (per warp for mma.sync, per warpgroup
// for wgmma, per thread otherwise), and KLoopInfo's totals: shared memory,
// bytes and FLOPs per tile, the compute/load ratio. The structure is
// KLoopMatcher.cpp's. Tests: test/pk-analyze-kloops*.mlir,
// test/e2e/examples-report.test (every number computed by hand).
//
//===----------------------------------------------------------------------===//

#include "KLoopMeasure.h"

#include "pk/Alignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

DeclineOr<int64_t> mlir::pk::detail::getSharedBufferBytes(Operation *at,
                                                          MemRefType type,
                                                          const Twine &what) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return Decline(at, what + " has a dynamic shape or elements that are not "
                              "whole-byte integers or floats");
  std::optional<int64_t> bytes = getSizeInBytes(type);
  if (!bytes || *bytes > kMaxSharedBufferBytes) {
    std::string size;
    llvm::raw_string_ostream os(size);
    os << type;
    return Decline(
        at,
        what + " " + size + " needs " +
            (bytes ? Twine(*bytes) + " bytes" : Twine("more than 2^63 bytes")) +
            ", above pk's limit of " + Twine(kMaxSharedBufferBytes) +
            " bytes for one shared buffer");
  }
  return *bytes;
}

void ComputeCounter::add(StringRef kind, int64_t flops, int64_t count,
                         bool perWarp) {
  int64_t &total = perWarp ? flopsPerWarp : flopsPerThread;
  total = saturatingAdd(total, saturatingMul(flops, count));
  std::string key = (kind + (perWarp ? " per warp" : " per thread")).str();
  auto [it, inserted] = counts.try_emplace(key, 0);
  if (inserted)
    order.push_back(key);
  it->second += count;
}

/// Whether `value` (an arith.mulf/muli result) feeds an addition.
static bool feedsAdd(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<arith::AddFOp, arith::AddIOp>(user);
  });
}

bool ComputeCounter::count(Operation *op, int64_t executions) {
  // One warp-wide MMA (mma.sync, in the nvgpu or the NVVM form): 2*m*n*k
  // FLOPs per warp, four times that for m8n8k4 (sm_70), which runs on
  // quad-pairs.
  auto addMma = [&](StringRef opName, int64_t m, int64_t n, int64_t k) {
    int64_t mmasPerWarp = m == 8 && n == 8 && k == 4 ? 4 : 1;
    add(llvm::formatv("{0} m{1}n{2}k{3}", opName, m, n, k).str(),
        saturatingMul(2 * mmasPerWarp, saturatingMul(m, saturatingMul(n, k))),
        executions, /*perWarp=*/true);
  };
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    std::array<int64_t, 3> shape = mma.getMmaShapeAsArray();
    if (getElementTypeOrSelf(mma.getMatrixA().getType()).isInteger(8))
      info.mmaInt8 = true;
    addMma("nvgpu.mma.sync", shape[0], shape[1], shape[2]);
    return true;
  }
  if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
    NVVM::MMAShapeAttr shape = mma.getShape();
    std::optional<NVVM::MMATypes> typeA = mma.getMultiplicandAPtxType();
    if (typeA == NVVM::MMATypes::s8 || typeA == NVVM::MMATypes::u8)
      info.mmaInt8 = true;
    addMma("nvvm.mma.sync", shape.getM(), shape.getN(), shape.getK());
    return true;
  }
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    SmallVector<int64_t> bounds;
    contract.getIterationBounds(bounds);
    int64_t macs = 1;
    for (int64_t b : bounds)
      macs = saturatingMul(macs, b);
    add("vector.contract", saturatingMul(2, macs), executions, false);
    return true;
  }
  if (isa<vector::FMAOp, math::FmaOp>(op)) {
    add(op->getName().getStringRef(),
        saturatingMul(2, getNumElements(op->getResult(0).getType())),
        executions, false);
    return true;
  }
  // Scalar integer multiply-adds are address arithmetic; count float ones
  // and integer ones on vectors.
  if ((isa<arith::MulFOp>(op) ||
       (isa<arith::MulIOp>(op) &&
        isa<VectorType>(op->getResult(0).getType()))) &&
      feedsAdd(op->getResult(0))) {
    add("multiply-add",
        saturatingMul(2, getNumElements(op->getResult(0).getType())),
        executions, false);
    return true;
  }
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(op)) {
    elementwiseFlops = saturatingAdd(
        elementwiseFlops,
        saturatingMul(getNumElements(op->getResult(0).getType()), executions));
    elementwiseOps = saturatingAdd(elementwiseOps, executions);
  }
  return false;
}

bool ComputeCounter::adoptElementwise() {
  if (!empty() || elementwiseOps == 0)
    return false;
  // add() multiplies its flops by the count: record the ops with their
  // FLOPs per op, rounded up.
  add("float element-wise op",
      llvm::divideCeil(elementwiseFlops, elementwiseOps), elementwiseOps,
      /*perWarp=*/false);
  return true;
}

/// The load instructions one execution of the shared read `op` becomes
/// (0 for an ldmatrix, which pk does not count): a vector is read in
/// contiguous runs along its innermost dimension (a unit-stride,
/// minor-identity read) in loads as wide as the run and its proven
/// alignment allow (16 bytes at most), or element by element.
static int64_t getSharedLoadInstructions(Operation *op,
                                         const MemoryAccess &access) {
  if (isa<nvgpu::LdMatrixOp>(op))
    return 0;
  auto vectorType = dyn_cast<VectorType>(access.value.getType());
  if (!vectorType || vectorType.getRank() == 0)
    return 1;
  auto memrefType = cast<MemRefType>(access.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  bool unitInnermost =
      succeeded(memrefType.getStridesAndOffset(strides, offset)) &&
      !strides.empty() && strides.back() == 1;
  auto xfer = dyn_cast<VectorTransferOpInterface>(op);
  bool contiguous =
      unitInnermost && (!xfer || xfer.getPermutationMap().isMinorIdentity());
  int64_t elements = vectorType.getNumElements();
  if (!contiguous)
    return elements;
  int64_t run = vectorType.getShape().back();
  int64_t elemBytes = llvm::divideCeil(vectorType.getElementTypeBitWidth(), 8);
  int64_t runBytes = saturatingMul(run, elemBytes);
  // As wide as the run and its proven alignment allow (16 bytes at most):
  // the first run's, and the strides between the runs.
  int64_t align = proveAlignment(access.memref, access.indices).bytes;
  int64_t outerDims = vectorType.getRank() - 1;
  for (int64_t dim = 0; dim < outerDims; ++dim) {
    int64_t memrefDim = memrefType.getRank() - vectorType.getRank() + dim;
    if (vectorType.getDimSize(dim) > 1 && memrefDim >= 0 &&
        !ShapedType::isDynamic(strides[memrefDim]))
      align = std::gcd(align, saturatingMul(strides[memrefDim], elemBytes));
  }
  auto floorPow2 = [](int64_t n) {
    return static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(n)));
  };
  int64_t width = std::min<int64_t>(
      {16, floorPow2(runBytes), std::max(elemBytes, floorPow2(align))});
  return saturatingMul(elements / std::max<int64_t>(run, 1),
                       llvm::divideCeil(runBytes, width));
}

void ComputeCounter::countSharedRead(Operation *op, const MemoryAccess &access,
                                     int64_t executions) {
  info.sharedLoadsPerThread = saturatingAdd(
      info.sharedLoadsPerThread,
      saturatingMul(getSharedLoadInstructions(op, access), executions));
}

void ComputeCounter::countWarpgroupMma(const WarpgroupMma &wgmma) {
  flopsPerWarpgroup =
      saturatingAdd(flopsPerWarpgroup,
                    saturatingMul(saturatingMul(2 * wgmma.m * wgmma.n, wgmma.k),
                                  wgmma.executions));
  std::string key =
      llvm::formatv("nvgpu.warpgroup.mma m{0}n{1}k{2} per warpgroup", wgmma.m,
                    wgmma.n, wgmma.k)
          .str();
  auto [it, inserted] = counts.try_emplace(key, 0);
  if (inserted)
    order.push_back(key);
  it->second += wgmma.executions;
}

void ComputeCounter::finish() const {
  for (const SharedBuffer &buffer : info.buffers) {
    info.smemSingleBytes = saturatingAdd(info.smemSingleBytes, buffer.bytes);
    if (buffer.copied)
      info.smemPerStageBytes =
          saturatingAdd(info.smemPerStageBytes, buffer.bytes);
  }
  // Dynamic shared memory pk placed (and recorded) counts too.
  info.smemSingleBytes =
      saturatingAdd(info.smemSingleBytes, info.dynamicSharedBytes);
  int64_t threads = info.threadsPerBlock;
  int64_t warps = llvm::divideCeil(threads, 32);
  info.loadBytesPerTile = info.tma
                              ? info.tma->bytesPerTile
                              : saturatingMul(info.loadBytesPerThread, threads);
  info.mmaFlopsPerTile = saturatingAdd(
      saturatingMul(flopsPerWarp, warps),
      saturatingMul(flopsPerWarpgroup,
                    llvm::divideCeil(threads, kWarpgroupThreads)));
  info.fmaFlopsPerTile = saturatingMul(flopsPerThread, threads);
  info.flopsPerTile = saturatingAdd(info.mmaFlopsPerTile, info.fmaFlopsPerTile);
  for (const std::string &key : order)
    info.computeOps.push_back({key, counts.lookup(key)});
  info.ratio = info.loadBytesPerTile
                   ? double(info.flopsPerTile) / double(info.loadBytesPerTile)
                   : 0.0;
}
