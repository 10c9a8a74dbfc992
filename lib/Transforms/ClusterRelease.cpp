//===- ClusterRelease.cpp - Releasing stages across a cluster -------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A warp-specialized TMA ring whose loads multicast to the blocks of a
// cluster (docs/hopper.md "Clusters"): the producer of each block refills a
// stage in every block, so the stage's "empty" mbarrier counts the releases
// of the other block's consumers too. Their release is one remote arrive per
// warp (lane 0, after the warp's wgmma wait) on the other block's barrier,
// through its shared::cluster address (mapa). upstream's nvgpu dialect has
// no remote arrive: pk addresses the barrier group as the memref it lowers
// to (nvgpu::getMBarrierMemrefType).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Threads of a warp, each warp releasing once to the other blocks.
static constexpr int64_t kWarpThreads = 32;
/// Bytes of one mbarrier object.
static constexpr int64_t kMBarrierBytes = 8;
/// PTX's address space of another block's shared memory in the cluster.
static constexpr unsigned kSharedClusterAddressSpace = 7;
/// NVVM's shared memory address space.
static constexpr unsigned kSharedAddressSpace = 3;

int64_t mlir::pk::detail::getRemoteReleasesPerStage(const KLoopInfo &info,
                                                    int64_t consumers) {
  // Without multicast no block writes another's tiles: each block's own
  // releases suffice.
  if (!info.tma || info.tma->multicastLoads == 0)
    return 0;
  return (info.tma->clusterSize - 1) * (consumers / kWarpThreads);
}

/// The shared address of barrier `index` of `group`, as `!llvm.ptr<3>`.
static Value getMBarrierAddress(RewriterBase &rewriter, Location loc,
                                Value group, Value index) {
  auto groupType = cast<nvgpu::MBarrierGroupType>(group.getType());
  MemRefType memrefType =
      nvgpu::getMBarrierMemrefType(rewriter.getContext(), groupType);
  Value memref =
      UnrealizedConversionCastOp::create(rewriter, loc, memrefType, group)
          .getResult(0);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
  Value offset = arith::MulIOp::create(
      rewriter, loc, index,
      arith::ConstantIndexOp::create(rewriter, loc, kMBarrierBytes));
  Value address = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getI64Type(),
      arith::AddIOp::create(rewriter, loc, base, offset));
  return LLVM::IntToPtrOp::create(
      rewriter, loc,
      LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedAddressSpace),
      address);
}

void mlir::pk::detail::createRemoteReleases(RewriterBase &rewriter,
                                            Location loc, const KLoopInfo &info,
                                            Value group, Value index) {
  int64_t size = info.tma->clusterSize;
  Value rank = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getIndexType(),
      NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()));
  Value lane = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getIndexType(),
      NVVM::LaneIdOp::create(rewriter, loc, rewriter.getI32Type()));
  Value isLeader =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, isLeader,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  Value address = getMBarrierAddress(rewriter, loc, group, index);
  auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(),
                                               kSharedClusterAddressSpace);
  for (int64_t step = 1; step < size; ++step) {
    Value peer = arith::RemUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc, rank,
            arith::ConstantIndexOp::create(rewriter, loc, step)),
        arith::ConstantIndexOp::create(rewriter, loc, size));
    Value peer32 = arith::IndexCastUIOp::create(rewriter, loc,
                                                rewriter.getI32Type(), peer);
    Value remote =
        NVVM::MapaOp::create(rewriter, loc, clusterPtr, address, peer32);
    // Release at CTA scope, as CUTLASS's ClusterBarrier::arrive: the
    // consumers' reads of the stage retired (their wgmma wait) before it;
    // cluster scope would make ptxas fence every global store first
    // (MEMBAR.ALL.GPU), the tile epilogue's among them.
    NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA);
  }
}

void mlir::pk::detail::createClusterBarrier(RewriterBase &rewriter,
                                            Location loc) {
  // A release arrive: the remote mbarrier arrives before it are memory
  // accesses to the other block's shared memory, which must be performed
  // before that block may pass the wait and exit (once per kernel).
  NVVM::ClusterArriveOp::create(rewriter, loc, UnitAttr());
  NVVM::ClusterWaitOp::create(rewriter, loc, UnitAttr());
}
