//===- Ldmatrix.cpp - Shared operand reads as ldmatrix --------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// pk-use-ldmatrix's rewrite (Ldmatrix.h). A warp's 16-bit shared read
//
//   %v = vector.transfer_read %tile[%i0, ..., %row, ..., %col] : ...,
//   vector<..x2xf16>
//
// whose lanes read, for each other position of the vector, the elements
// (row g, columns 2t and 2t+1) of an 8x8 matrix (g = lane / 4, t = lane % 4;
// the transposed B layout is (rows 2t and 2t+1, column g)) is the fragment
// `nvgpu.ldmatrix` loads: lane 8j + r gives the address of row r of matrix j,
// and lane l receives matrix j's elements at (l / 4, 2 (l % 4) + e). pk
// evaluates the read's indices for every thread of the block
// (ThreadValues.h), so IREE's delinearized thread maps need no affine proof:
// each index minus its lane term must be the same in every lane of a warp.
// The read becomes one ldmatrix per four matrices and a vector.from_elements
// of their elements in the read's order. Rows must be 16-byte aligned; a
// buffer whose rows are not gets them re-padded first (Repad.cpp).
// Tests: test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#include "RepadInternal.h"

#include "pk/Alignment.h"
#include "pk/Ldmatrix.h"
#include "pk/MemoryAccess.h"
#include "pk/ThreadValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-use-ldmatrix"

using namespace mlir;
using namespace mlir::pk;

/// ldmatrix rows are 16 bytes: eight 16-bit elements.
static constexpr int64_t kRowBytes = 16;

namespace {
/// How a warp's lanes read a shared tile: the ldmatrix layout.
struct LanePattern {
  /// The .trans layout (each lane two rows of one column).
  bool transpose = false;
  /// Memref dimension of the matrices' rows and of their columns.
  unsigned rowDim = 0, colDim = 0;
  /// Per warp, per memref dimension: the index minus its lane term.
  SmallVector<SmallVector<int64_t>> warpBase;
  /// The other memref dimensions, in the order the read's 8x8 matrices are
  /// numbered (slowest first; see orderMatrices).
  SmallVector<unsigned> matrixOrder;
};

/// One candidate read and what pk proved about it.
struct Candidate {
  mutable vector::TransferReadOp read;
  LanePattern pattern;
  /// The workgroup attribution the read's views start from.
  Value root;
};
} // namespace

/// The extent of the read's vector along memref dimension `dim` (1 for the
/// leading dimensions the minor-identity map drops).
static int64_t vectorExtent(vector::TransferReadOp read, unsigned dim) {
  int64_t memrefRank = read.getShapedType().getRank();
  VectorType type = read.getVectorType();
  int64_t lead = memrefRank - type.getRank();
  return dim < lead ? 1 : type.getDimSize(dim - lead);
}

/// Whether `read` is a 16-bit, unmasked, in-bounds, minor-identity read of
/// workgroup memory with static strides, in warp-uniform control flow.
static bool isCandidateRead(vector::TransferReadOp read) {
  auto type = dyn_cast<MemRefType>(read.getShapedType());
  if (!type || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) ||
      type.getRank() < 2 || !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() != 16 ||
      read.getVectorType().isScalable() || read.getMask() ||
      !read.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; })) {
    LDBG() << "not a 16-bit in-bounds shared read: " << read;
    return false;
  }
  // ldmatrix is .aligned: every lane of the warp must execute it. Only the
  // kernel's entry block and scf.for loops with uniform bounds nested in it
  // are run by every thread.
  Operation *op = read;
  for (; !isa<gpu::GPUFuncOp>(op->getParentOp()); op = op->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop || !isThreadUniform(loop.getLowerBound()) ||
        !isThreadUniform(loop.getUpperBound()) ||
        !isThreadUniform(loop.getStep())) {
      LDBG() << "not in warp-uniform control flow ("
             << op->getParentOp()->getName() << "): " << read;
      return false;
    }
  }
  if (op->getBlock() != &op->getParentRegion()->front()) {
    LDBG() << "not in the kernel's entry block: " << read;
    return false;
  }
  return true;
}

/// The index of each memref dimension of `read` in each thread, or nullopt.
static std::optional<SmallVector<SmallVector<int64_t>>>
evaluateIndices(vector::TransferReadOp read, ThreadValues &values) {
  SmallVector<SmallVector<int64_t>> result;
  for (int64_t tid = 0; tid < values.getNumThreads(); ++tid) {
    std::optional<SmallVector<int64_t>> indices =
        values.evaluate(read.getIndices(), tid);
    if (!indices) {
      LDBG() << "indices not evaluated per thread: " << read;
      return std::nullopt;
    }
    result.push_back(std::move(*indices));
  }
  return result;
}

/// The lane term of memref dimension `dim` in `lane` under `pattern`.
static int64_t laneTerm(const LanePattern &pattern, unsigned dim,
                        int64_t lane) {
  int64_t g = lane / 4, twoT = 2 * (lane % 4);
  if (dim == pattern.rowDim)
    return pattern.transpose ? twoT : g;
  if (dim == pattern.colDim)
    return pattern.transpose ? g : twoT;
  return 0;
}

/// Fills `pattern.warpBase` when every index minus its lane term is the
/// same in all lanes of each warp.
static bool hasWarpUniformBase(LanePattern &pattern,
                               ArrayRef<SmallVector<int64_t>> indices) {
  pattern.warpBase.clear();
  for (auto [tid, threadIndices] : llvm::enumerate(indices)) {
    int64_t lane = tid % kWarpSize;
    if (lane == 0)
      pattern.warpBase.emplace_back(threadIndices.size(), 0);
    SmallVector<int64_t> &base = pattern.warpBase.back();
    for (auto [dim, index] : llvm::enumerate(threadIndices)) {
      int64_t value = index - laneTerm(pattern, dim, lane);
      if (lane == 0)
        base[dim] = value;
      else if (base[dim] != value)
        return false;
    }
  }
  return true;
}

/// Numbers the read's 8x8 matrices so that one ldmatrix.x4 loads mma.sync
/// fragments in register order (ptxas then needs no moves): of the
/// dimension of the matrices 8 rows further (stride 8 x the row stride) and
/// that of the matrices 8 columns further (stride 8), the rows vary fastest
/// when they are two (the A operand: (rows 0-7, k 0-7), (rows 8-15, k 0-7),
/// (rows 0-7, k 8-15), (rows 8-15, k 8-15); B stored K x N, transposed: k
/// 0-7, k 8-15 of each n8), else the columns (B stored N x K: k 0-7, k 8-15
/// of each n8); the other dimensions are slower, in row-major order. The
/// order changes no value, only which registers ldmatrix fills.
static void orderMatrices(vector::TransferReadOp read, LanePattern &pattern,
                          ArrayRef<int64_t> strides) {
  SmallVector<unsigned> others;
  std::optional<unsigned> nextRows, nextCols;
  for (unsigned dim = 0; dim < strides.size(); ++dim) {
    if (dim == pattern.rowDim || dim == pattern.colDim)
      continue;
    bool isVectorDim = vectorExtent(read, dim) > 1;
    if (isVectorDim && !nextRows && strides[dim] == 8 * strides[pattern.rowDim])
      nextRows = dim;
    else if (isVectorDim && !nextCols && strides[dim] == 8)
      nextCols = dim;
    else
      others.push_back(dim);
  }
  // Two row blocks are one fragment's (A: m16); more are separate
  // fragments (B stored N x K: n8 each, whose two k blocks go together).
  bool rowsFastest = nextRows && vectorExtent(read, *nextRows) == 2;
  pattern.matrixOrder = others;
  for (std::optional<unsigned> dim : rowsFastest
                                         ? std::array{nextCols, nextRows}
                                         : std::array{nextRows, nextCols})
    if (dim)
      pattern.matrixOrder.push_back(*dim);
}

/// The ldmatrix layout `read` has, if any: the innermost dimension (stride
/// 1) holds the columns; the lane's two elements run along it (non-
/// transposed) or along the row dimension (transposed).
static std::optional<LanePattern>
matchLanePattern(vector::TransferReadOp read,
                 ArrayRef<SmallVector<int64_t>> indices) {
  auto type = cast<MemRefType>(read.getShapedType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1) {
    LDBG() << "innermost dimension not contiguous: " << read;
    return std::nullopt;
  }
  unsigned colDim = type.getRank() - 1;
  for (bool transpose : {false, true}) {
    if (vectorExtent(read, colDim) != (transpose ? 1 : 2))
      continue;
    for (unsigned rowDim = 0; rowDim < colDim; ++rowDim) {
      if (vectorExtent(read, rowDim) != (transpose ? 2 : 1))
        continue;
      LanePattern pattern{transpose, rowDim, colDim, {}, {}};
      if (hasWarpUniformBase(pattern, indices)) {
        orderMatrices(read, pattern, strides);
        return pattern;
      }
    }
  }
  LDBG() << "lanes do not read the ldmatrix layout: " << read;
  return std::nullopt;
}

/// The vector positions of the 8x8 matrices (the pattern's row and column
/// dimensions at 0) in the pattern's matrix order, as memref-dimension
/// offsets.
static SmallVector<SmallVector<int64_t>>
enumerateMatrices(vector::TransferReadOp read, const LanePattern &pattern) {
  unsigned rank = read.getShapedType().getRank();
  SmallVector<SmallVector<int64_t>> matrices = {SmallVector<int64_t>(rank, 0)};
  for (unsigned dim : pattern.matrixOrder) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &prefix : matrices)
      for (int64_t i = 0, e = vectorExtent(read, dim); i < e; ++i) {
        next.push_back(prefix);
        next.back()[dim] = i;
      }
    matrices = std::move(next);
  }
  return matrices;
}

/// Whether every row ldmatrix would address starts 16 bytes aligned when
/// the read's memref has type `type` and its buffer `rootAlign`.
static bool rowsAligned(vector::TransferReadOp read, const LanePattern &pattern,
                        MemRefType type, int64_t rootAlign) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (rootAlign < kRowBytes || rootAlign % kRowBytes != 0 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return false;
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  SmallVector<SmallVector<int64_t>> matrices = enumerateMatrices(read, pattern);
  for (const SmallVector<int64_t> &base : pattern.warpBase)
    for (const SmallVector<int64_t> &matrix : matrices)
      for (int64_t row = 0; row < 8; ++row) {
        int64_t element = offset + strides[pattern.rowDim] * row;
        for (unsigned dim = 0; dim < strides.size(); ++dim)
          element += strides[dim] * (base[dim] + matrix[dim]);
        if ((element * elemBytes) % kRowBytes != 0)
          return false;
      }
  return true;
}

/// The workgroup attribution `memref` views, or null. Unlike getRootMemRef
/// (MemoryAccess.h), only through views that keep the base pointer and
/// whose static offsets are in their types (subview, expand_shape,
/// collapse_shape), so that the read's layout offset is an offset into the
/// attribution.
static Value getAttributionRoot(Value memref, gpu::GPUFuncOp kernel) {
  while (Operation *op = memref.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
            op))
      return nullptr;
    memref = op->getOperand(0);
  }
  return llvm::is_contained(kernel.getWorkgroupAttributions(), memref)
             ? memref
             : Value();
}

/// Static shared memory ptxas takes per block on every architecture.
static constexpr int64_t kStaticSharedLimit = 48 * 1024;

/// The row size (elements) pk re-pads `root` to: the next one of an odd
/// number of 16-byte chunks, so that ldmatrix's eight rows fall in eight
/// distinct bank groups.
static int64_t chooseRowSize(Value root) {
  auto type = cast<MemRefType>(root.getType());
  int64_t perChunk = kRowBytes / (type.getElementTypeBitWidth() / 8);
  int64_t chunks = llvm::divideCeil(type.getShape().back(), perChunk);
  if (chunks % 2 == 0 && type.getRank() > 1)
    ++chunks;
  return chunks * perChunk;
}

/// The lane id of the current thread (linear thread id modulo 32), built
/// from the kernel's thread ids and known block size.
static Value buildLaneId(OpBuilder &b, Location loc,
                         std::array<int64_t, 3> blockDims) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value linear = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (blockDims[1] * blockDims[2] > 1) {
    Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
    Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
    Value yz = arith::AddIOp::create(
        b, loc, y, arith::MulIOp::create(b, loc, z, cst(blockDims[1])));
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, yz, cst(blockDims[0])));
  }
  return arith::RemUIOp::create(b, loc, linear, cst(kWarpSize));
}

/// The elements of `read`'s vector in row-major order, each extracted from
/// the ldmatrix of `loads` (`numTiles` matrices each, numbered as
/// `matrices`) that holds it: its matrix, then its element of the lane's
/// pair.
static SmallVector<Value>
extractReadElements(RewriterBase &rewriter, vector::TransferReadOp read,
                    const LanePattern &pattern,
                    ArrayRef<SmallVector<int64_t>> matrices,
                    ArrayRef<Value> loads, int64_t numTiles) {
  VectorType vectorType = read.getVectorType();
  unsigned rank = read.getShapedType().getRank();
  int64_t lead = rank - vectorType.getRank();
  unsigned pairDim = pattern.transpose ? pattern.rowDim : pattern.colDim;
  SmallVector<Value> elements;
  for (int64_t linear = 0; linear < vectorType.getNumElements(); ++linear) {
    SmallVector<int64_t> position(rank, 0);
    int64_t rest = linear;
    for (unsigned dim = rank; dim-- > lead;) {
      int64_t extent = vectorExtent(read, dim);
      position[dim] = rest % extent;
      rest /= extent;
    }
    int64_t pair = position[pairDim];
    position[pattern.rowDim] = position[pattern.colDim] = 0;
    int64_t matrix = llvm::find(matrices, position) - matrices.begin();
    elements.push_back(vector::ExtractOp::create(
        rewriter, read.getLoc(), loads[matrix / numTiles],
        ArrayRef<int64_t>{matrix % numTiles, pair}));
  }
  return elements;
}

/// Replaces `read` by ldmatrix ops of `numTiles` matrices each and a
/// vector.from_elements of their elements; returns the ldmatrix count.
static int64_t rewriteRead(RewriterBase &rewriter, const Candidate &candidate,
                           std::array<int64_t, 3> blockDims) {
  vector::TransferReadOp read = candidate.read;
  const LanePattern &pattern = candidate.pattern;
  Location loc = read.getLoc();
  rewriter.setInsertionPoint(read);
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  SmallVector<SmallVector<int64_t>> matrices = enumerateMatrices(read, pattern);
  int64_t count = matrices.size();
  int64_t numTiles = count % 4 == 0 ? 4 : count % 2 == 0 ? 2 : 1;

  // Lane terms: the read's row/column terms come out, ldmatrix's go in.
  Value lane = buildLaneId(rewriter, loc, blockDims);
  Value g = arith::DivUIOp::create(rewriter, loc, lane, cst(4));
  Value twoT = arith::MulIOp::create(
      rewriter, loc, arith::RemUIOp::create(rewriter, loc, lane, cst(4)),
      cst(2));
  Value rowInMatrix = arith::RemUIOp::create(rewriter, loc, lane, cst(8));
  Value select = arith::RemUIOp::create(
      rewriter, loc, arith::DivUIOp::create(rewriter, loc, lane, cst(8)),
      cst(numTiles));
  SmallVector<Value> base(read.getIndices());
  base[pattern.rowDim] = arith::AddIOp::create(
      rewriter, loc,
      arith::SubIOp::create(rewriter, loc, base[pattern.rowDim],
                            pattern.transpose ? twoT : g),
      rowInMatrix);
  base[pattern.colDim] = arith::SubIOp::create(
      rewriter, loc, base[pattern.colDim], pattern.transpose ? g : twoT);

  Type elementType = read.getVectorType().getElementType();
  auto tileType = VectorType::get({numTiles, 2}, elementType);
  SmallVector<Value> loads;
  for (int64_t group = 0; group < count / numTiles; ++group) {
    // This lane addresses matrix group * numTiles + select: its position
    // along each other dimension, in the order of `matrices`.
    Value flat =
        arith::AddIOp::create(rewriter, loc, cst(group * numTiles), select);
    SmallVector<Value> indices(base);
    int64_t inner = 1;
    for (unsigned dim : llvm::reverse(pattern.matrixOrder)) {
      int64_t extent = vectorExtent(read, dim);
      if (extent > 1) {
        Value position = arith::RemUIOp::create(
            rewriter, loc,
            arith::DivUIOp::create(rewriter, loc, flat, cst(inner)),
            cst(extent));
        indices[dim] =
            arith::AddIOp::create(rewriter, loc, indices[dim], position);
      }
      inner *= extent;
    }
    loads.push_back(nvgpu::LdMatrixOp::create(rewriter, loc, tileType,
                                              read.getBase(), indices,
                                              pattern.transpose, numTiles));
  }

  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
      read, read.getVectorType(),
      extractReadElements(rewriter, read, pattern, matrices, loads, numTiles));
  return loads.size();
}

/// The candidate reads of `kernel` whose lanes read the ldmatrix layout.
static SmallVector<Candidate> collectCandidates(gpu::GPUFuncOp kernel,
                                                ThreadValues &values) {
  SmallVector<Candidate> candidates;
  kernel.walk([&](vector::TransferReadOp read) {
    if (!isCandidateRead(read))
      return;
    Value root = getAttributionRoot(read.getBase(), kernel);
    if (!root) {
      LDBG() << "not a view of a workgroup attribution: " << read;
      return;
    }
    std::optional<SmallVector<SmallVector<int64_t>>> indices =
        evaluateIndices(read, values);
    if (!indices)
      return;
    std::optional<LanePattern> pattern = matchLanePattern(read, *indices);
    if (pattern)
      candidates.push_back({read, std::move(*pattern), root});
  });
  return candidates;
}

/// Re-pads the buffers of candidates whose rows are misaligned when that
/// aligns them; drops the candidates that stay misaligned.
static int64_t alignCandidateRows(gpu::GPUFuncOp kernel,
                                  SmallVector<Candidate> &candidates) {
  int64_t repadded = 0;
  DenseMap<Value, int64_t> newRowSize;
  for (const Candidate &candidate : candidates) {
    int64_t align = getSharedRootAlignment(candidate.root);
    auto type = cast<MemRefType>(candidate.read.getBase().getType());
    if (rowsAligned(candidate.read, candidate.pattern, type, align) ||
        newRowSize.count(candidate.root))
      continue;
    int64_t size = chooseRowSize(candidate.root);
    FailureOr<DenseMap<Value, MemRefType>> plan =
        pk::detail::planRepad(candidate.root, size);
    if (succeeded(plan) &&
        rowsAligned(candidate.read, candidate.pattern,
                    plan->lookup(candidate.read.getBase()), align))
      newRowSize[candidate.root] = size;
  }
  int64_t staticBytes = getStaticSharedBytes(kernel).value_or(0);
  for (auto [root, size] : newRowSize) {
    auto type = cast<MemRefType>(root.getType());
    int64_t growth = type.getNumElements() / type.getShape().back() *
                     (size - type.getShape().back()) *
                     (type.getElementTypeBitWidth() / 8);
    // The kernel's own static shared memory stays within what ptxas takes.
    if (staticBytes <= kStaticSharedLimit &&
        staticBytes + growth > kStaticSharedLimit) {
      LDBG() << "not re-padded: " << staticBytes + growth
             << " bytes of static shared memory: " << root;
      continue;
    }
    if (succeeded(repadSharedRows(root, size))) {
      staticBytes += growth;
      ++repadded;
    }
  }
  llvm::erase_if(candidates, [&](const Candidate &candidate) {
    auto type = cast<MemRefType>(candidate.read.getBase().getType());
    bool aligned = rowsAligned(candidate.read, candidate.pattern, type,
                               getSharedRootAlignment(candidate.root));
    if (!aligned)
      LDBG() << "rows not 16-byte aligned: " << candidate.read;
    return !aligned;
  });
  return repadded;
}

LdmatrixRewrite mlir::pk::useLdmatrixForSharedReads(RewriterBase &rewriter,
                                                    gpu::GPUFuncOp kernel) {
  LdmatrixRewrite result;
  std::optional<std::array<int64_t, 3>> blockDims = getKnownBlockDims(kernel);
  if (!blockDims) {
    LDBG() << "kernel " << kernel.getName() << ": no known_block_size";
    return result;
  }
  ThreadValues values(*blockDims);
  if (values.getNumThreads() % kWarpSize != 0 ||
      values.getNumThreads() > kMaxEvaluatedThreads) {
    LDBG() << "kernel " << kernel.getName()
           << ": partial warps or more than 1024 threads";
    return result;
  }
  SmallVector<Candidate> candidates = collectCandidates(kernel, values);
  if (candidates.empty())
    return result;
  result.repadded = alignCandidateRows(kernel, candidates);
  for (const Candidate &candidate : candidates) {
    result.ldmatrices += rewriteRead(rewriter, candidate, *blockDims);
    ++result.reads;
  }
  return result;
}
