#!/bin/sh
# Regenerates the wgmma (sm_90a) SASS inputs of the pk-sass-check tests from
# the cubins of integration/specs/wgmma-pipelined.toml (pk's pipelined wgmma
# HGEMM, 128x128x64, run correct on the H200: docs/hopper.md).
#
#   python3 integration/pk-bundle.py build wgmma-pipelined -o .gpu/wgmma --only _4096_
#   test/pk-sass-check/Inputs/regenerate-wgmma.sh [.gpu/wgmma/wgmma-pipelined/bin]
#
# Needs cuobjdump and nvdisasm (as regenerate.sh). The checked-in files were
# made with ptxas 13.0.88 and cuobjdump 13.5 from the 4096^3 cubins (the
# 512^3 ones have no loop: ptxas unrolls their 8 K tiles); the addresses in
# the tests and the hand edits below belong to that toolchain.
#
# Files (encodings dropped, as in regenerate.sh):
#   wgmma-base-sm_90a.sass, wgmma-rpf-sm_90a.sass, wgmma-cp-async-s3-sm_90a.sass,
#   wgmma-mif-s3-sm_90a.sass
#       wgmma_{baseline,rpf,cp-async-s3,mif-s3}_4096_sm_90a.cubin (mif:
#       schedule=mma-in-flight, one wgmma group in flight)
#   wgmma-cp-async-s3-*.sass
#       hand edits of wgmma-cp-async-s3-sm_90a.sass (sed below), described
#       in their first lines
set -eu

out=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$out/../../.." && pwd)
bin=${1:-$root/.gpu/wgmma/wgmma-pipelined/bin}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || python3 -c \
  "import nvidia, os; print(os.path.join(nvidia.__path__[0], 'cu13', 'bin', 'cuobjdump'))")}
export NVDISASM_PATH=${NVDISASM_PATH:-$(dirname "$cuobjdump")}

# Drops the encodings: the `/* 0x... */` lines and line ends.
strip() {
  grep -v '^[[:space:]]*/\* 0x' | sed 's#[[:space:]]*/\* 0x[0-9a-f]* \*/[[:space:]]*$##'
}

sass() {
  "$cuobjdump" -sass "$bin/wgmma_$1_4096_sm_90a.cubin" | strip
}

sass baseline > "$out/wgmma-base-sm_90a.sass"
sass rpf > "$out/wgmma-rpf-sm_90a.sass"
sass mif-s3 > "$out/wgmma-mif-s3-sm_90a.sass"
s3=$out/wgmma-cp-async-s3-sm_90a.sass
sass cp-async-s3 > "$s3"

# The loop's wgmma.wait_group 1 instead of 0, with the copies still S-1 = 2
# tiles ahead: the refill of iteration k overwrites the stage that group
# k-1, possibly still in flight, reads. Unsafe with 3 stages.
{
  echo "// Hand-edited from wgmma-cp-async-s3-sm_90a.sass: the loop's"
  echo "// WARPGROUP.DEPBAR.LE gsb0 at 0x19e0 waits with 1 group in flight (0x1)."
  sed -e '/\/\*19e0\*\//s#gsb0, 0x0#gsb0, 0x1#' "$s3"
} > "$out/wgmma-cp-async-s3-depth1.sass"

# The schedule with one group in flight done right (prefetch distance
# S-2 = 1): the prologue commits one tile (its second LDGDEPBAR gone, both
# tiles' copies in one group), the loop waits for all but 0 copies and for
# all but 1 wgmma group. Safe with 3 stages.
{
  echo "// Hand-edited from wgmma-cp-async-s3-sm_90a.sass: one group in flight"
  echo "// (0x19e0: gsb0, 0x1), copies 1 tile ahead (prologue LDGDEPBAR 0x0ff0"
  echo "// -> NOP, loop cp.async wait 0x10d0: SB0, 0x0)."
  sed -e '/\/\*19e0\*\//s#gsb0, 0x0#gsb0, 0x1#' \
      -e '/\/\*0ff0\*\//s#LDGDEPBAR#NOP#' \
      -e '/\/\*10d0\*\//s#SB0, 0x1#SB0, 0x0#' "$s3"
} > "$out/wgmma-cp-async-s3-depth1-distance1.sass"

# No proxy fence: the loop's FENCE.VIEW.ASYNC.S after the cp.async wait gone.
{
  echo "// Hand-edited from wgmma-cp-async-s3-sm_90a.sass: the loop's"
  echo "// FENCE.VIEW.ASYNC.S at 0x1140 replaced by NOP."
  sed -e '/\/\*1140\*\//s#FENCE.VIEW.ASYNC.S#NOP#' "$s3"
} > "$out/wgmma-cp-async-s3-nofence.sass"

# No barrier between the wgmma wait and the refill: the loop's BAR.SYNC at
# 0x1300 (before its LDGSTS) replaced by NOP.
{
  echo "// Hand-edited from wgmma-cp-async-s3-sm_90a.sass: the loop's BAR.SYNC at"
  echo "// 0x1300, between the cp.async wait and the LDGSTS, replaced by NOP."
  sed -e '/\/\*1300\*\//s#BAR.SYNC.DEFER_BLOCKING 0x0#NOP#' "$s3"
} > "$out/wgmma-cp-async-s3-nobar.sass"
