// A transform library for tests: transform.pk.pipeline_kloop on every
// scf.for of the payload for sm_90a, and transform.pk.analyze_kloop with
// @analyze (load with -transform-preload-library, run with
// -transform-interpreter or -transform-interpreter=entry-point=analyze).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l, %p, %e = transform.pk.pipeline_kloop %loops {arch = "sm_90a"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
  transform.named_sequence @analyze(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.pk.analyze_kloop %loops {arch = "sm_90a"} : !transform.any_op
    transform.yield
  }
}
