#!/usr/bin/env bash
# Build the GPU artefacts for the pk integration run (dev machine: needs pk-opt,
# LLVM 22's mlir-opt and the CUDA toolkit; no GPU).
#
#   integration/build_artifacts.sh [OUT_DIR]      (default: integration/artifacts)
#
# For each kernel (hgemm, igemm, sgemm), size (512^3 generated with
# examples/gen_gemm.py, 4096^3 = the checked-in examples) and variant
# (baseline = the unpipelined input, cp-async, ldg-register, register-prefetch):
#   * pk-opt --pipeline-kernel='arch=<arch> variant=<v>'   (not for baseline)
#   * lower with mlir-opt for sm_90 (cubin, format=bin; and PTX for ptxas -v)
#     and for sm_86 (PTX, format=isa), extract with extract_binary.py
#   * ptxas -v (registers, spills, smem) on every PTX
# and write OUT_DIR/manifest.json. OUT_DIR is git-ignored (/integration/artifacts/).
#
# Environment overrides: PK_OPT, MLIR_OPT, CUDA_HOME, PYTHON, KINDS, SIZES, VARIANTS.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
OUT="${1:-$HERE/artifacts}"
PK_OPT="${PK_OPT:-$ROOT/build/bin/pk-opt}"
MLIR_OPT="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
PTXAS="$CUDA_HOME/bin/ptxas"
PYTHON="${PYTHON:-python3}"
KINDS="${KINDS:-hgemm igemm sgemm}"
SIZES="${SIZES:-512 4096}"
VARIANTS="${VARIANTS:-baseline cp-async ldg-register register-prefetch}"

for tool in "$PK_OPT" "$MLIR_OPT" "$PTXAS"; do
  [[ -x "$tool" ]] || { echo "build_artifacts: missing $tool" >&2; exit 1; }
done

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
rm -rf "$OUT/bin" "$OUT/logs" "$OUT/manifest.json" "$OUT/entries.tsv"
mkdir -p "$OUT/bin" "$OUT/logs"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pk-artifacts.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# kind -> generator parameters / kernel name (must match examples/*.mlir)
declare -A BK=([hgemm]=32 [igemm]=64 [sgemm]=8)
declare -A NAME=([hgemm]=hgemm_f16_128x128x32 [igemm]=igemm_i8_128x128x64 [sgemm]=sgemm_f32_128x128x8)
BM=128 BN=128 THREADS=256

lower() {  # lower IN.mlir ARCH FORMAT OUT.mlir
  "$MLIR_OPT" "$1" --pass-pipeline="builtin.module(nvvm-attach-target{chip=$2 features=+ptx80 O=3}, gpu.module(convert-nvgpu-to-nvvm, expand-strided-metadata, lower-affine, convert-scf-to-cf, convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}, canonicalize, cse, reconcile-unrealized-casts), gpu-module-to-binary{format=$3 toolkit=$CUDA_HOME})" -o "$4"
}

ptxas_stats() {  # ptxas_stats PTX ARCH LOG -> "regs spill_stores spill_loads stack smem"
  "$PTXAS" -arch="$2" -v "$1" -o /dev/null >"$3" 2>&1 || { echo "ptxas failed on $1 ($2)" >&2; cat "$3" >&2; return 1; }
  "$PYTHON" - "$3" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
regs = re.search(r"Used (\d+) registers", t)
sp = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", t)
smem = re.search(r"(\d+) bytes smem", t)
print(regs.group(1) if regs else -1,
      sp.group(2) if sp else -1, sp.group(3) if sp else -1, sp.group(1) if sp else -1,
      smem.group(1) if smem else 0)
EOF
}

TSV="$OUT/entries.tsv"
: >"$TSV"
n=0
for kind in $KINDS; do
  name="${NAME[$kind]}"
  for size in $SIZES; do
    src="$WORK/${kind}_${size}.mlir"
    if [[ "$size" == 4096 ]]; then
      cp "$ROOT/examples/$name.mlir" "$src"
    else
      "$PYTHON" "$ROOT/examples/gen_gemm.py" --kind "$kind" --M "$size" --N "$size" --K "$size" \
        --BM $BM --BN $BN --BK "${BK[$kind]}" --threads $THREADS --smem attribution -o "$src"
    fi
    for variant in $VARIANTS; do
      for arch in sm_90 sm_86; do
        stem="${kind}_${size}_${variant}_${arch}"
        in="$src"
        auto_pick=""
        if [[ "$variant" != baseline ]]; then
          in="$WORK/$stem.pk.mlir"
          "$PK_OPT" --pipeline-kernel="arch=$arch variant=$variant" "$src" -o "$in" \
            2>"$OUT/logs/$stem.pk-opt.log" || { echo "pk-opt failed: $stem" >&2; cat "$OUT/logs/$stem.pk-opt.log" >&2; exit 1; }
          grep -q "remark: pipelined: variant $variant" "$OUT/logs/$stem.pk-opt.log" \
            || { echo "pk-opt did not pipeline $stem (see logs/$stem.pk-opt.log)" >&2; exit 1; }
          auto_pick="$(grep -o 'auto would pick [a-z-]*' "$OUT/logs/$stem.pk-opt.log" | head -1 | awk '{print $4}')"
        fi
        # PTX (format=isa) for both arches: the sm_86 one is the artefact, the
        # sm_90 one feeds ptxas -v for the cubin's resource numbers.
        lower "$in" "$arch" isa "$WORK/$stem.isa.mlir"
        "$PYTHON" "$HERE/extract_binary.py" "$WORK/$stem.isa.mlir" -o "$OUT/bin/$stem.ptx" \
          --field assembly --expect-kernel "$name" >/dev/null
        read -r regs sst sld stack smem < <(ptxas_stats "$OUT/bin/$stem.ptx" "$arch" "$OUT/logs/$stem.ptxas.log")
        if [[ "$arch" == sm_90 ]]; then
          lower "$in" "$arch" bin "$WORK/$stem.bin.mlir"
          "$PYTHON" "$HERE/extract_binary.py" "$WORK/$stem.bin.mlir" -o "$OUT/bin/$stem.cubin" \
            --field bin --expect-kernel "$name" >/dev/null
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
            "$kind" "$size" "$variant" "$arch" cubin "bin/$stem.cubin" "$name" "${BK[$kind]}" \
            "$regs" "$sst" "$sld" "$stack" "$smem" "$auto_pick" "-" >>"$TSV"
          # the sm_90 PTX is kept for reference but not run (the cubin is)
        else
          # what the driver's JIT will roughly produce on sm_90 from this PTX
          read -r jregs jsst jsld _ _ < <(ptxas_stats "$OUT/bin/$stem.ptx" sm_90 "$OUT/logs/$stem.ptxas-sm_90.log")
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
            "$kind" "$size" "$variant" "$arch" ptx "bin/$stem.ptx" "$name" "${BK[$kind]}" \
            "$regs" "$sst" "$sld" "$stack" "$smem" "$auto_pick" "$jregs/$jsst/$jsld" >>"$TSV"
        fi
        n=$((n + 1))
        echo "built $stem (regs $regs, spills $sst/$sld, smem $smem)"
      done
    done
  done
done

"$PYTHON" - "$TSV" "$OUT/manifest.json" "$BM" "$BN" "$THREADS" <<'EOF'
import json, subprocess, sys, datetime, os
tsv, out, bm, bn, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
entries = []
for line in open(tsv):
    (kind, size, variant, arch, fmt, f, kernel, bk, regs, sst, sld, stack, smem,
     auto_pick, jit) = line.rstrip("\n").split("\t")
    size = int(size)
    e = dict(kind=kind, size=size, m=size, n=size, k=size, variant=variant, arch=arch,
             format=fmt, file=f, kernel=kernel, bm=bm, bn=bn, bk=int(bk), threads=threads,
             ptxas=dict(arch=arch, registers=int(regs), spill_stores=int(sst),
                        spill_loads=int(sld), stack_bytes=int(stack), smem_bytes=int(smem)))
    if auto_pick:
        e["pk_auto_would_pick"] = auto_pick
    if jit != "-":
        r, s, l = jit.split("/")
        e["ptxas_sm90_from_ptx"] = dict(registers=int(r), spill_stores=int(s), spill_loads=int(l))
    entries.append(e)
def git(*a):
    try:
        return subprocess.check_output(["git", *a], cwd=os.path.dirname(os.path.abspath(out)),
                                       text=True, stderr=subprocess.DEVNULL).strip()
    except Exception:
        return ""
manifest = dict(
    created=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    git_commit=git("rev-parse", "HEAD"), git_dirty=bool(git("status", "--porcelain")),
    lowering=("nvvm-attach-target{chip=<arch> features=+ptx80 O=3}, gpu.module(convert-nvgpu-to-nvvm, "
              "expand-strided-metadata, lower-affine, convert-scf-to-cf, "
              "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}, canonicalize, cse, "
              "reconcile-unrealized-casts), gpu-module-to-binary{format=bin|isa}"),
    pk_opt="--pipeline-kernel='arch=<arch> variant=<variant>' (arch = the lowering target)",
    entries=entries)
json.dump(manifest, open(out, "w"), indent=1)
print("manifest: %d entries -> %s" % (len(entries), out))
EOF
rm -f "$TSV"
du -sh "$OUT"
