//===- Report.cpp - Remarks and the JSON report of pk's decisions ---------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The remark summary and the JSON Lines report (docs/report.md): one object
// per loop with the analysis, the budget and the ratio rule, plus the
// pipelining pass's `decision`. Tests: test/pk-analyze-kloops.mlir (report=-
// and report=<file>), test/pipeline-kernel.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Report.h"
#include "pk/Support.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pk;

/// Returns a short printable name for a value: "%arg0" for a kernel
/// argument, else the defining operation's name.
static std::string describeValue(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return llvm::formatv("%arg{0}", arg.getArgNumber()).str();
  if (Operation *def = value.getDefiningOp())
    if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(def))
      return ("@" + getGlobal.getName()).str();
  return value.getDefiningOp()->getName().getStringRef().str();
}

/// ", wgmma m128n128k64 on <A> x <B>, 64 accumulator registers/thread,
/// wait_group 0, proxy-fenced" (or "no proxy fence") for each warpgroup MMA
/// of the compute phase.
static std::string summarizeWarpgroupMmas(const KLoopInfo &info) {
  std::string text;
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    text += llvm::formatv(", wgmma m{0}n{1}k{2} on {3} x {4}, {5} accumulator "
                          "registers/thread, wait_group {6}, {7}",
                          wgmma.m, wgmma.n, wgmma.k,
                          info.buffers[wgmma.bufferA].name,
                          info.buffers[wgmma.bufferB].name,
                          wgmma.accumulatorRegs, wgmma.waitGroup,
                          wgmma.proxyFenced ? "proxy-fenced" : "no proxy fence")
                .str();
  return text;
}

/// The ratio rule's variant, whose asynchronous copies are TMA loads on a
/// TMA loop.
static PipelineVariant getRuleVariant(const KLoopInfo &info,
                                      const KLoopDecision &decision) {
  return info.tma && decision.ruleVariant == PipelineVariant::CpAsync
             ? PipelineVariant::Tma
             : decision.ruleVariant;
}

/// ", TMA: 3 loads of 32768 B per tile on one mbarrier" for a TMA loop, and
/// the multicast loads and cluster barrier of a cluster's.
static std::string summarizeTmaLoads(const KLoopInfo &info) {
  if (!info.tma)
    return "";
  std::string text =
      llvm::formatv(", TMA: {0} load(s) of {1} B per tile on one mbarrier",
                    info.tma->loads.size(), info.tma->bytesPerTile)
          .str();
  if (info.tma->clusterArrive)
    text += llvm::formatv(" ({0} multicast to the cluster of {1}, released "
                          "by a cluster barrier)",
                          info.tma->multicastLoads, info.tma->clusterSize)
                .str();
  return text;
}

std::string mlir::pk::summarizeKLoop(const KLoopInfo &info,
                                     const KLoopDecision &decision) {
  const KLoopBudget &budget = decision.budget;
  PipelineVariant ruleVariant = getRuleVariant(info, decision);
  std::string trips =
      info.tripCount ? std::to_string(*info.tripCount) : "dynamic";
  return llvm::formatv(
             "K-loop: trip count {0}, {1} copied buffer(s), shared memory {2} "
             "B single / {3} B per stage / {4} B with {5} stages (cliff {6} B "
             "for {7} blocks/SM on {8}), blocks/SM {9} -> {10} (limit: {11}), "
             "ratio {12:F1} FLOP/B, variant {13}",
             trips,
             llvm::count_if(info.buffers,
                            [](const SharedBuffer &b) { return b.copied; }),
             budget.smemSingleBytes, info.smemPerStageBytes,
             budget.smemMultiBytes, budget.stages, budget.cliffBytes,
             budget.minBlocksPerSM, budget.target->arch,
             budget.single.blocksPerSM, budget.multi.blocksPerSM,
             stringifyOccupancyLimit(budget.multi.limit), info.ratio,
             stringifyPipelineVariant(ruleVariant))
             .str() +
         summarizeTmaLoads(info) + summarizeWarpgroupMmas(info) +
         (info.barrierFirst ? "; barrier-first (gpu.barrier; load; "
                              "gpu.barrier; compute: the cycle rotated)"
                            : "");
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Object occupancyToJSON(const Occupancy &occ,
                                          int64_t threads) {
  return llvm::json::Object{
      {"blocks_per_sm", occ.blocksPerSM},
      {"warps_per_sm", occ.warpsPerSM(threads)},
      {"limit", stringifyOccupancyLimit(occ.limit)},
      {"by_threads", occ.byThreads},
      {"by_registers", occ.byRegisters},
      {"by_shared_memory", occ.bySharedMemory},
      {"by_blocks", occ.byBlocks},
      {"allocated_smem_per_block", occ.allocatedSmemPerBlock},
  };
}

static llvm::json::Value
stageModelToJSON(const std::optional<StageModel> &model) {
  if (!model)
    return nullptr;
  return llvm::json::Object{
      {"compute_cycles_per_tile", model->computeCyclesPerTile},
      {"latency_cycles", model->latencyCycles},
      {"latency_stages", model->latencyStages},
      {"budget_stages", model->budgetStages},
  };
}

static std::string typeToString(Type type) {
  std::string str;
  llvm::raw_string_ostream os(str);
  type.print(os);
  return str;
}

/// The compute phase's warpgroup MMAs: shape, the shared buffers their
/// descriptors read, accumulator registers per thread, wait depth.
static llvm::json::Array warpgroupMmasToJSON(const KLoopInfo &info) {
  llvm::json::Array wgmmas;
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    wgmmas.push_back(llvm::json::Object{
        {"shape", llvm::json::Array({wgmma.m, wgmma.n, wgmma.k})},
        {"operand_a", info.buffers[wgmma.bufferA].name},
        {"operand_b", info.buffers[wgmma.bufferB].name},
        {"accumulator_regs_per_thread", wgmma.accumulatorRegs},
        {"wait_group", wgmma.waitGroup},
        {"proxy_fenced", wgmma.proxyFenced},
        {"executions", wgmma.executions},
    });
  return wgmmas;
}

llvm::json::Object mlir::pk::toJSON(const KLoopInfo &info,
                                    const KLoopDecision &decision) {
  const KLoopBudget &budget = decision.budget;
  const TargetInfo &target = *budget.target;
  gpu::GPUFuncOp func = info.kernel;
  scf::ForOp forOp = info.forOp;
  std::string kernel = func.getName().str();
  if (auto module = func->getParentOfType<gpu::GPUModuleOp>())
    kernel = (module.getName() + "::" + kernel).str();

  llvm::json::Array buffers;
  for (const SharedBuffer &buffer : info.buffers) {
    llvm::json::Object obj{
        {"name", buffer.name},
        {"kind", stringifySharedBufferKind(buffer.kind)},
        {"shape", llvm::json::Array(buffer.type.getShape())},
        {"element_type", typeToString(buffer.type.getElementType())},
        {"bytes", buffer.bytes},
        {"copied", buffer.copied},
    };
    if (buffer.copied) {
      obj["bytes_per_stage"] = buffer.bytes;
      if (buffer.source)
        obj["source"] = describeValue(buffer.source);
    }
    buffers.push_back(std::move(obj));
  }
  llvm::json::Array computeOps;
  for (const auto &[kind, count] : info.computeOps)
    computeOps.push_back(llvm::json::Object{{"op", kind}, {"count", count}});
  llvm::json::Array reasons;
  for (const std::string &r : decision.ruleReasons)
    reasons.push_back(r);

  llvm::json::Value tripCount = info.tripCount
                                    ? llvm::json::Value(*info.tripCount)
                                    : llvm::json::Value("dynamic");
  llvm::json::Object report{
      {"kernel", kernel},
      {"loc", locationToString(forOp.getLoc())},
      {"arch", target.arch},
      {"trip_count", std::move(tripCount)},
      {"barrier_first", info.barrierFirst},
      {"threads_per_block", info.threadsPerBlock},
      {"regs_per_thread", budget.regsPerThread},
      {"regs_source", budget.regsSource},
      {"buffers", std::move(buffers)},
      {"loads",
       llvm::json::Object{
           {"global_loads", static_cast<int64_t>(info.copies.size())},
           {"bytes_per_thread", info.loadBytesPerThread},
           {"bytes_per_tile", info.loadBytesPerTile},
           {"shared_loads_per_thread", info.sharedLoadsPerThread},
       }},
      {"smem",
       llvm::json::Object{
           {"single_bytes", budget.smemSingleBytes},
           {"per_stage_bytes", info.smemPerStageBytes},
           {"stages", budget.stages},
           {"multi_bytes", budget.smemMultiBytes},
           {"cliff_bytes", budget.cliffBytes},
           {"per_block_max_bytes", target.smemPerBlockOptIn},
           {"static_max_bytes", target.smemPerBlockDefault},
           {"reserved_per_block_bytes", target.smemReservedPerBlock},
           {"per_sm_bytes", target.smemPerSM},
       }},
      {"occupancy",
       llvm::json::Object{
           {"target_blocks_per_sm", budget.minBlocksPerSM},
           {"target_source", decision.minBlocksSource},
           {"single", occupancyToJSON(budget.single, info.threadsPerBlock)},
           {"multi", occupancyToJSON(budget.multi, info.threadsPerBlock)},
       }},
      {"flops_per_tile", info.flopsPerTile},
      {"stages_auto", stageModelToJSON(decision.stageModel)},
      {"compute_ops", std::move(computeOps)},
      {"ratio", std::round(info.ratio * 100.0) / 100.0},
      {"variant", stringifyPipelineVariant(getRuleVariant(info, decision))},
      {"prediction", decision.prediction},
      {"reasons", std::move(reasons)},
  };
  if (!info.warpgroupMmas.empty())
    report["wgmma"] = warpgroupMmasToJSON(info);
  if (info.tma)
    report["tma"] = llvm::json::Object{
        {"loads", static_cast<int64_t>(info.tma->loads.size())},
        {"bytes_per_tile", info.tma->bytesPerTile},
        {"mbarriers", 1},
        {"cluster_size", info.tma->clusterSize},
        {"multicast_loads", info.tma->multicastLoads},
        {"cluster_barrier", info.tma->clusterArrive != nullptr},
    };
  return report;
}

/// The register-aware decision's table (docs/report.md).
static llvm::json::Object candidateTableToJSON(const CandidateTable &table) {
  llvm::json::Array rows;
  for (const CandidateRow &row : table.rows) {
    llvm::json::Object obj{
        {"variant", row.candidate.variant == PipelineVariant::None
                        ? "none"
                        : stringifyPipelineVariant(row.candidate.variant)},
        {"stages", row.candidate.stages},
        {"schedule", isMultistageVariant(row.candidate.variant)
                         ? stringifyPipelineSchedule(row.candidate.schedule)
                         : StringRef("none")},
        {"target_blocks_per_sm", row.candidate.blocksPerSM},
        {"blocks_per_sm", row.blocksPerSM},
        {"model_cycles_per_tile", std::round(row.modelCycles)},
        {"compiled", row.compiled},
        {"chosen", row.chosen},
    };
    if (row.compiled) {
      obj["registers"] = row.resources.registers;
      obj["spill_bytes"] = row.resources.spillBytes;
      obj["shared_bytes"] = row.resources.sharedBytes;
    }
    if (!row.dropped.empty())
      obj["dropped"] = row.dropped;
    rows.push_back(std::move(obj));
  }
  llvm::json::Object obj{{"compiled_with_ptxas", table.compiledWithPtxas},
                         {"rows", std::move(rows)}};
  if (table.compiledWithPtxas)
    obj["compile_seconds"] = std::round(table.compileSeconds * 1000) / 1000;
  else
    obj["model_only"] = table.noCompileReason;
  return obj;
}

llvm::json::Object mlir::pk::decisionToJSON(const KLoopDecision &decision,
                                            bool pipelined,
                                            ArrayRef<std::string> reasons) {
  llvm::json::Array jsonReasons;
  for (const std::string &r : reasons)
    jsonReasons.push_back(r);
  PipelineVariant variant = decision.getVariant();
  llvm::json::Object obj{
      {"pipelined", pipelined},
      {"variant", stringifyPipelineVariant(variant)},
      {"stages", decision.getBuffers()},
      {"schedule", isMultistageVariant(variant)
                       ? stringifyPipelineSchedule(decision.plan->schedule)
                       : StringRef("none")},
      {"min_blocks_per_sm", decision.minBlocksPerSM},
      {"min_blocks_source", decision.minBlocksSource},
      {"reasons", std::move(jsonReasons)},
  };
  if (decision.plan && decision.plan->setMinBlocksPerSM)
    obj["set_minctasm"] = *decision.plan->setMinBlocksPerSM;
  if (decision.plan && variant == PipelineVariant::CpAsync)
    obj["register_path_stores"] = static_cast<int64_t>(
        getRegisterPathCopies(decision.plan->asyncCopies).size());
  if (decision.candidates)
    obj["candidates"] = candidateTableToJSON(*decision.candidates);
  return obj;
}

LogicalResult mlir::pk::writeReportLines(Location loc, StringRef path,
                                         StringRef lines, bool append) {
  // Standard error, so that the IR on standard output stays valid MLIR.
  if (path == "-") {
    llvm::errs() << lines;
    llvm::errs().flush();
    return success();
  }
  std::error_code ec;
  StringRef parent = llvm::sys::path::parent_path(path);
  if (!parent.empty())
    ec = llvm::sys::fs::create_directories(parent);
  if (ec)
    return mlir::emitError(loc) << "cannot create the directory of the report '"
                                << path << "': " << ec.message();
  llvm::raw_fd_ostream os(
      path, ec, append ? llvm::sys::fs::OF_Append : llvm::sys::fs::OF_None);
  if (ec)
    return mlir::emitError(loc)
           << "cannot write the report '" << path << "': " << ec.message();
  os << lines;
  return success();
}
