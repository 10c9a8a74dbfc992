// A transform script that pipelines every K-loop with pk: the K-loop is the
// scf.for that holds the gpu.barrier ops. Load it next to any kernel of
// examples/ (README, "Embedding pk"; tested by test/embedding.test):
//
//   pk-opt kernel.mlir \
//     --transform-preload-library=transform-library-paths=examples/transform/pipeline-kloops.mlir \
//     --transform-interpreter
//
// (the library is loaded by the first pass, so it comes first).
// failures(suppress) lets the script go on past loops pk declines (they stay
// as they are); with failures(propagate) pk's reason would be an error.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%payload: !transform.any_op):
      %barriers = transform.structured.match ops{["gpu.barrier"]} in %payload
          : (!transform.any_op) -> !transform.any_op
      %kloops = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate}
          : (!transform.any_op) -> !transform.any_op
      // %steady holds the steady-state loops pk created, %prologue and
      // %epilogue the operations peeled before and after them. (For the
      // analysis alone, `transform.pk.analyze_kloop %kloops {arch = "sm_90"}`
      // attaches pk's report to each loop as the pk.analysis attribute.)
      %steady, %prologue, %epilogue =
          transform.pk.pipeline_kloop %kloops {arch = "sm_90", stages = 3}
          : (!transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}
