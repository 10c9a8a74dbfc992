//===- TransformOps.cpp - pk's transform dialect extension ----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// `transform.pk.pipeline_kloop` and `transform.pk.analyze_kloop`: thin
// wrappers around `pipelineKernelLoop` (PipelineKernelLoop.h) that turn its
// result into transform handles, silenceable failures (pk declined) and
// definite failures (an internal error after the IR changed);
// `transform.pk.flatten_tile_loop` around `flattenTileLoopNest`
// (TileLoops.h).
// Tests: test/transform-pipeline-kloop*.mlir, test/transform-plugin.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/TransformOps.h"
#include "pk/PipelineKernelLoop.h"
#include "pk/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::pk;

/// The request attributes both ops share.
template <typename OpTy>
static PipelineRequest getSharedRequest(OpTy op) {
  PipelineRequest request;
  request.arch = op.getArch().str();
  request.stages = static_cast<int64_t>(op.getStages());
  // 0: the kernel's launch bounds (the passes' `kernel`); -1: `auto`.
  int64_t minBlocks = static_cast<int64_t>(op.getMinBlocksPerSm());
  request.minBlocksPerSM = minBlocks == 0    ? kMinBlocksFromKernel
                           : minBlocks == -1 ? kMinBlocksAuto
                                             : minBlocks;
  request.blockSize = static_cast<int64_t>(op.getBlockSize());
  request.regsPerThread = static_cast<int64_t>(op.getRegsPerThread());
  request.skipHighRatio = op.getSkipHighRatio();
  return request;
}

/// The silenceable failure of a loop pk declined: pk's reason, with notes
/// at the loop, at the operation that caused the decline and at the ones it
/// names.
static DiagnosedSilenceableFailure
emitDeclined(transform::TransformOpInterface op, const PipelineResult &result,
             const std::string &message) {
  DiagnosedSilenceableFailure diag = op.emitSilenceableError() << message;
  Location loopLoc = result.loop->getLoc();
  diag.attachNote(loopLoc) << "pk declined this loop";
  if (result.decline && result.decline->getLoc() != loopLoc)
    diag.attachNote(result.decline->getLoc()) << "this operation";
  if (result.decline)
    for (const DeclineNote &note : result.decline->getNotes())
      diag.attachNote(note.loc) << note.message;
  return diag;
}

//===----------------------------------------------------------------------===//
// PipelineKLoopOp
//===----------------------------------------------------------------------===//

/// The full request of `op`; the verifier has checked the names.
static PipelineRequest getRequest(transform::PipelineKLoopOp op) {
  PipelineRequest request = getSharedRequest(op);
  request.variant =
      symbolizePipelineVariant(op.getVariant()).value_or(PipelineVariant::Auto);
  request.schedule = symbolizePipelineSchedule(op.getSchedule())
                         .value_or(PipelineSchedule::Auto);
  request.testFailLate = op.getTestFailLate();
  return request;
}

LogicalResult transform::PipelineKLoopOp::verify() {
  std::optional<PipelineVariant> variant =
      symbolizePipelineVariant(getVariant());
  if (!variant || *variant == PipelineVariant::None)
    return emitOpError() << "variant must be one of " << getVariantSpellings()
                         << ", got '" << getVariant() << "'";
  if (!symbolizePipelineSchedule(getSchedule()))
    return emitOpError() << "schedule must be one of " << getScheduleSpellings()
                         << ", got '" << getSchedule() << "'";
  return verifyPipelineRequest(getRequest(*this),
                               [&] { return emitOpError(); });
}

namespace {
/// The payload of the three results of `transform.pk.pipeline_kloop`.
struct PipelinedPayload {
  SmallVector<Operation *> loops, prologue, epilogue;
};
} // namespace

/// Emits the warnings pk found while matching a loop (a racing wgmma
/// kernel), as the passes do.
static void emitWarnings(const PipelineResult &result) {
  for (const auto &[where, warning] : result.warnings)
    mlir::emitWarning(where) << warning;
}

/// Pipelines one target of `op` and appends what pk made of it to
/// `payload`; a decline is a silenceable failure, an internal error a
/// definite one.
static DiagnosedSilenceableFailure pipelineTarget(transform::PipelineKLoopOp op,
                                                  RewriterBase &rewriter,
                                                  Operation *target,
                                                  PipelinedPayload &payload) {
  auto forOp = dyn_cast<scf::ForOp>(target);
  if (!forOp) {
    DiagnosedSilenceableFailure diag = op.emitSilenceableError()
                                       << "expected an scf.for, got '"
                                       << target->getName() << "'";
    diag.attachNote(target->getLoc()) << "target op";
    return diag;
  }
  rewriter.setInsertionPoint(forOp);
  FailureOr<PipelineResult> result =
      pipelineKernelLoop(rewriter, forOp, getRequest(op));
  // An internal error after the IR changed; pipelineKernelLoop emitted it.
  if (failed(result))
    return DiagnosedSilenceableFailure::definiteFailure();
  emitWarnings(*result);
  if (!result->isPipelined())
    return emitDeclined(op, *result, describePipelineResult(*result));
  payload.loops.push_back(result->loop);
  llvm::append_range(payload.prologue, result->prologue);
  llvm::append_range(payload.epilogue, result->epilogue);
  return DiagnosedSilenceableFailure::success();
}

/// As TransformEachOpTrait, but a loop yields several prologue and epilogue
/// ops: every target is pipelined (the declines are reported together) and
/// the results hold what the pipelined ones became.
DiagnosedSilenceableFailure
transform::PipelineKLoopOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &results,
                                  transform::TransformState &state) {
  SmallVector<Operation *> targets =
      llvm::to_vector(state.getPayloadOps(getTarget()));
  if (state.getOptions().getExpensiveChecksEnabled() &&
      failed(detail::checkNestedConsumption(getLoc(), targets)))
    return DiagnosedSilenceableFailure::definiteFailure();

  OpBuilder::InsertionGuard guard(rewriter);
  PipelinedPayload payload;
  SmallVector<Diagnostic> declines;
  for (Operation *target : targets) {
    DiagnosedSilenceableFailure status =
        pipelineTarget(*this, rewriter, target, payload);
    if (status.isDefiniteFailure())
      return status;
    if (status.isSilenceableFailure())
      status.takeDiagnostics(declines);
  }
  results.set(cast<OpResult>(getLoop()), payload.loops);
  results.set(cast<OpResult>(getPrologue()), payload.prologue);
  results.set(cast<OpResult>(getEpilogue()), payload.epilogue);
  if (!declines.empty())
    return DiagnosedSilenceableFailure::silenceableFailure(std::move(declines));
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AnalyzeKLoopOp
//===----------------------------------------------------------------------===//

/// Converts the JSON report into an attribute: objects into dictionaries,
/// arrays into array attributes, integers into i64, other numbers into f64,
/// null into a unit attribute.
static Attribute jsonToAttribute(Builder &builder,
                                 const llvm::json::Value &value) {
  switch (value.kind()) {
  case llvm::json::Value::Null:
    return builder.getUnitAttr();
  case llvm::json::Value::Boolean:
    return builder.getBoolAttr(*value.getAsBoolean());
  case llvm::json::Value::Number:
    if (std::optional<int64_t> integer = value.getAsInteger())
      return builder.getI64IntegerAttr(*integer);
    return builder.getF64FloatAttr(*value.getAsNumber());
  case llvm::json::Value::String:
    return builder.getStringAttr(*value.getAsString());
  case llvm::json::Value::Array: {
    SmallVector<Attribute> elements;
    for (const llvm::json::Value &element : *value.getAsArray())
      elements.push_back(jsonToAttribute(builder, element));
    return builder.getArrayAttr(elements);
  }
  case llvm::json::Value::Object: {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, element] : *value.getAsObject())
      entries.emplace_back(builder.getStringAttr(StringRef(key)),
                           jsonToAttribute(builder, element));
    return builder.getDictionaryAttr(entries);
  }
  }
  llvm_unreachable("unknown JSON value kind");
}

LogicalResult transform::AnalyzeKLoopOp::verify() {
  return verifyPipelineRequest(getSharedRequest(*this),
                               [&] { return emitOpError(); });
}

void transform::AnalyzeKLoopOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
transform::AnalyzeKLoopOp::applyToOne(transform::TransformRewriter &rewriter,
                                      scf::ForOp forOp,
                                      transform::ApplyToEachResultList &results,
                                      transform::TransformState &state) {
  PipelineRequest request = getSharedRequest(*this);
  request.analyzeOnly = true;
  FailureOr<PipelineResult> result =
      pipelineKernelLoop(rewriter, forOp, request);
  if (failed(result))
    return DiagnosedSilenceableFailure::definiteFailure();
  emitWarnings(*result);
  if (result->outcome == PipelineOutcome::NotAKLoop)
    return emitDeclined(
        *this, *result,
        ("not a pk K-loop: " + result->decline->getMessage()).str());
  Attribute analysis =
      jsonToAttribute(rewriter, llvm::json::Value(std::move(result->report)));
  rewriter.modifyOpInPlace(
      forOp, [&] { forOp->setAttr(kAnalysisAttrName, analysis); });
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// transform.pk.flatten_tile_loop
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::FlattenTileLoopOp::applyToOne(
    transform::TransformRewriter &rewriter, scf::ForOp forOp,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  DeclineOr<TileLoopNest> nest = matchTileLoopNest(forOp);
  if (failed(nest)) {
    const Decline &why = nest.getDecline();
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "tile loop not flattened: "
                                       << why.getMessage();
    diag.attachNote(forOp.getLoc()) << "pk declined this loop";
    if (why.getLoc() != forOp.getLoc())
      diag.attachNote(why.getLoc()) << "this operation";
    return diag;
  }
  results.push_back(flattenTileLoopNest(rewriter, *nest));
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "pk/TransformOps.cpp.inc"

namespace {
/// Registers `transform.pk.*` with the transform dialect.
class PKTransformDialectExtension
    : public transform::TransformDialectExtension<PKTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PKTransformDialectExtension)

  using Base::Base;

  void init() {
    // The ops take scf.for payloads; pipelining creates operations of these
    // dialects.
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "pk/TransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::pk::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<PKTransformDialectExtension>();
}
