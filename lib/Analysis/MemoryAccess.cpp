//===- MemoryAccess.cpp - The memory accesses pk recognizes ---------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Tests: every test/pk-analyze-kloops*.mlir and test/pk-pipeline-kloops*.mlir
// input goes through getMemoryAccess.
//
//===----------------------------------------------------------------------===//

#include "pk/MemoryAccess.h"
#include "pk/Support.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::pk;

bool mlir::pk::isGlobalMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  if (auto intSpace = dyn_cast<IntegerAttr>(space))
    return intSpace.getInt() == 0 || intSpace.getInt() == 1;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  return false;
}

bool mlir::pk::isSharedMemory(MemRefType type) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) ||
         nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type);
}

std::optional<int64_t> mlir::pk::getSizeInBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasStaticShape() || !shaped.getElementType().isIntOrFloat() ||
        shaped.getElementTypeBitWidth() % 8 != 0)
      return std::nullopt;
    std::optional<int64_t> bytes = shaped.getElementTypeBitWidth() / 8;
    for (int64_t dim : shaped.getShape())
      if (bytes)
        bytes = llvm::checkedMul(*bytes, dim);
    return bytes;
  }
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0)
    return type.getIntOrFloatBitWidth() / 8;
  return std::nullopt;
}

int64_t mlir::pk::getNumElements(Type type) {
  if (auto vec = dyn_cast<VectorType>(type)) {
    int64_t elements = 1;
    for (int64_t dim : vec.getShape())
      elements = saturatingMul(elements, dim);
    return elements;
  }
  return 1;
}

Value mlir::pk::getRootMemRef(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

Value mlir::pk::getSubViewSource(Value memref,
                                 SmallVectorImpl<Operation *> *chain) {
  while (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    if (chain)
      chain->push_back(subview);
    memref = subview.getSource();
  }
  return memref;
}

SmallVector<Value> mlir::pk::getAddressOperands(Operation *op) {
  std::optional<MemoryAccess> access = getMemoryAccess(op);
  if (!access)
    return {};
  SmallVector<Value> operands(access->indices.begin(), access->indices.end());
  SmallVector<Operation *> chain;
  getSubViewSource(access->memref, &chain);
  for (Operation *subview : chain)
    llvm::append_range(operands, cast<memref::SubViewOp>(subview).getOffsets());
  return operands;
}

bool mlir::pk::hasOnlyUnitOuterDims(ShapedType type) {
  return llvm::all_of(type.getShape().drop_back(),
                      [](int64_t dim) { return dim == 1; });
}

std::optional<MemoryAccess> mlir::pk::getMemoryAccess(Operation *op) {
  auto make = [](Value memref, ValueRange indices, bool isRead, Value value) {
    return MemoryAccess{memref, llvm::to_vector(indices), isRead, !isRead,
                        value};
  };
  return llvm::TypeSwitch<Operation *, std::optional<MemoryAccess>>(op)
      .Case([&](vector::LoadOp o) {
        return make(o.getBase(), o.getIndices(), true, o.getResult());
      })
      .Case([&](vector::TransferReadOp o) {
        return make(o.getBase(), o.getIndices(), true, o.getResult());
      })
      .Case([&](memref::LoadOp o) {
        return make(o.getMemRef(), o.getIndices(), true, o.getResult());
      })
      .Case([&](nvgpu::LdMatrixOp o) {
        return make(o.getSrcMemref(), o.getIndices(), true, o.getResult());
      })
      .Case([&](vector::StoreOp o) {
        return make(o.getBase(), o.getIndices(), false, o.getValueToStore());
      })
      .Case([&](vector::TransferWriteOp o) {
        return make(o.getBase(), o.getIndices(), false, o.getVector());
      })
      .Case([&](memref::StoreOp o) {
        return make(o.getMemRef(), o.getIndices(), false, o.getValueToStore());
      })
      .Case([&](nvgpu::DeviceAsyncCopyOp o) {
        return make(o.getDst(), o.getDstIndices(), false, Value());
      })
      .Default([](Operation *) { return std::nullopt; });
}

Value mlir::pk::getAccessedMemRef(Operation *op) {
  std::optional<MemoryAccess> access = getMemoryAccess(op);
  return access ? access->memref : Value();
}

SmallVector<Value, 4> mlir::pk::getAccessIndices(Operation *op) {
  return getMemoryAccess(op)->indices;
}

Value mlir::pk::getAccessValue(Operation *op) {
  return getMemoryAccess(op)->value;
}

std::optional<int64_t> mlir::pk::getStaticSharedBytes(gpu::GPUFuncOp kernel) {
  int64_t total = 0;
  auto add = [&](Type type) {
    std::optional<int64_t> bytes = getSizeInBytes(type);
    if (bytes)
      total = saturatingAdd(total, *bytes);
    return bytes.has_value();
  };
  for (BlockArgument attribution : kernel.getWorkgroupAttributions())
    if (!add(attribution.getType()))
      return std::nullopt;
  llvm::SmallDenseSet<StringAttr> globals;
  WalkResult walk = kernel.walk([&](memref::GetGlobalOp get) {
    MemRefType type = get.getType();
    if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) &&
        !nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type))
      return WalkResult::advance();
    if (!globals.insert(get.getNameAttr().getAttr()).second)
      return WalkResult::advance();
    return add(type) ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return total;
}
