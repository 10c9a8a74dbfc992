#!/bin/sh
# Regenerates the TMA (sm_90a) SASS inputs of test/pk-sass-check/tma.test
# from the cubins of integration/specs/tma-ring.toml (the TMA wgmma
# HGEMM, 128x128x64, unpipelined and pipelined by variant=tma; correct on the
# H200: integration/results/2026-12-01-h200-tma-ring/).
#
#   python3 integration/pk-bundle.py build tma-ring tma-ws -o .gpu/tma --only _4096_
#   test/pk-sass-check/Inputs/regenerate-tma.sh [.gpu/tma/tma-ring/bin [.gpu/tma/tma-ws/bin]]
#
# Needs cuobjdump and nvdisasm (as regenerate.sh); the checked-in files were
# made with ptxas 13.0.88 and cuobjdump 13.5 from the 4096^3 cubins.
#
# Files (encodings dropped): tma-base-sm_90a.sass (unpipelined),
# tma-ring-s3-sm_90a.sass (variant=tma stages=3), tma-mif-s3-sm_90a.sass
# (schedule=mma-in-flight stages=3), tma-ws-s4-sm_90a.sass
# (schedule=warp-specialized stages=4, specs/tma-ws.toml; correct on the H200:
# integration/results/2026-12-01-h200-tma-ws/).
set -eu

out=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$out/../../.." && pwd)
bin=${1:-$root/.gpu/tma/tma-ring/bin}
ws_bin=${2:-$root/.gpu/tma/tma-ws/bin}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || python3 -c \
  "import nvidia, os; print(os.path.join(nvidia.__path__[0], 'cu13', 'bin', 'cuobjdump'))")}
export NVDISASM_PATH=${NVDISASM_PATH:-$(dirname "$cuobjdump")}

strip() {
  grep -v '^[[:space:]]*/\* 0x' | sed 's#[[:space:]]*/\* 0x[0-9a-f]* \*/[[:space:]]*$##'
}

"$cuobjdump" -sass "$bin/tma_base_4096_sm_90a.cubin" | strip > "$out/tma-base-sm_90a.sass"
"$cuobjdump" -sass "$bin/tma_ring_s3_4096_sm_90a.cubin" | strip > "$out/tma-ring-s3-sm_90a.sass"
"$cuobjdump" -sass "$bin/tma_mif_s3_4096_sm_90a.cubin" | strip > "$out/tma-mif-s3-sm_90a.sass"
"$cuobjdump" -sass "$ws_bin/ws_s4_4096_sm_90a.cubin" | strip > "$out/tma-ws-s4-sm_90a.sass"

# FP8 (e4m3, 128x256x128, specs/wgmma-fp8.toml; a third argument, default
# .gpu/fp8/wgmma-fp8/bin): fp8-base-sm_90a.sass (unpipelined),
# fp8-mif-s3-sm_90a.sass (schedule=mma-in-flight stages=3).
#   python3 integration/pk-bundle.py build wgmma-fp8 -o .gpu/fp8 --only _4096_
fp8_bin=${3:-$root/.gpu/fp8/wgmma-fp8/bin}
"$cuobjdump" -sass "$fp8_bin/e4m3gemm_base_4096_sm_90a.cubin" | strip > "$out/fp8-base-sm_90a.sass"
"$cuobjdump" -sass "$fp8_bin/e4m3gemm_ring_mif_s3_4096_sm_90a.cubin" | strip > "$out/fp8-mif-s3-sm_90a.sass"

# Persistent (hgemm 128x256x64, --persistent 132, specs/persistent.toml; a
# fourth argument, default .gpu/ps/persistent/bin): persistent-base-sm_90a.sass
# (unpipelined), persistent-mif-s4-sm_90a.sass (stages=auto: the ring, x4
# mma-in-flight), persistent-ws-s4-sm_90a.sass (warp-specialized x4).
#   python3 integration/pk-bundle.py build persistent -o .gpu/ps --only _4096_
ps_bin=${4:-$root/.gpu/ps/persistent/bin}
"$cuobjdump" -sass "$ps_bin/hgemm_p132_base_4096_sm_90a.cubin" | strip > "$out/persistent-base-sm_90a.sass"
"$cuobjdump" -sass "$ps_bin/hgemm_p132_auto_4096_sm_90a.cubin" | strip > "$out/persistent-mif-s4-sm_90a.sass"
"$cuobjdump" -sass "$ps_bin/hgemm_p132_ws_s4_4096_sm_90a.cubin" | strip > "$out/persistent-ws-s4-sm_90a.sass"
# The TMA-store epilogue (specs/persistent-tma-store.toml; a fifth argument,
# default .gpu/ts/persistent-tma-store/bin): persistent-tma-store-mif-s4-sm_90a.sass
# (the ring x4 mma-in-flight), persistent-tma-store-ws-s4-sm_90a.sass
# (stages=auto: warp-specialized x4).
#   python3 integration/pk-bundle.py build persistent-tma-store -o .gpu/ts --only _4096_
ts_bin=${5:-$root/.gpu/ts/persistent-tma-store/bin}
"$cuobjdump" -sass "$ts_bin/hgemm_p132_ts_mif_s4_4096_sm_90a.cubin" | strip > "$out/persistent-tma-store-mif-s4-sm_90a.sass"
"$cuobjdump" -sass "$ts_bin/hgemm_p132_ts_auto_4096_sm_90a.cubin" | strip > "$out/persistent-tma-store-ws-s4-sm_90a.sass"
# Clusters with TMA multicast (specs/persistent-cluster.toml; a sixth
# argument, default .gpu/cl/persistent-cluster/bin):
# persistent-cluster-mif-s4-sm_90a.sass (the ring x4 mma-in-flight, the
# cluster barrier per k-step), persistent-cluster-ws-s4-sm_90a.sass
# (stages=auto: warp-specialized x4, the remote releases).
#   python3 integration/pk-bundle.py build persistent-cluster -o .gpu/cl --only _4096_
cl_bin=${6:-$root/.gpu/cl/persistent-cluster/bin}
"$cuobjdump" -sass "$cl_bin/hgemm_p132_cl2_mif_s4_4096_sm_90a.cubin" | strip > "$out/persistent-cluster-mif-s4-sm_90a.sass"
"$cuobjdump" -sass "$cl_bin/hgemm_p132_cl2_auto_4096_sm_90a.cubin" | strip > "$out/persistent-cluster-ws-s4-sm_90a.sass"
