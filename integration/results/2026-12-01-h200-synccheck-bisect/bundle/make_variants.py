#!/usr/bin/env python3
"""Dev machine: build the synccheck bisection variants of pk's TMA kernels.

src/*.ptx are copies of /work/main/.gpu/tma-ring/bin (pk output, 2026-12-01).
Each variant is the PTX of one kernel with ONE textual change; ptxas
-arch=sm_90a -O3 assembles it into bin/NAME.cubin, and variants.tsv gets
NAME, smem (dynamic bytes for pk-runner --smem), expect (plain: ok = full
check must pass, any = correctness not required) and what it tests.

  python3 make_variants.py            # writes ptx/, bin/, variants.tsv
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
BASE = "tma_base_512_sm_90a"
RING = "tma_ring_s3_512_sm_90a"
MIF = "tma_mif_s3_512_sm_90a"
RING4 = "tma_ring_s4_512_sm_90a"
WAIT_RE = re.compile(r"mbarrier\.try_wait\.parity\.shared\.b64 P1, \[(%r\d+)\], (%r\d+|\d+), (%r\d+);")


def src(name):
    with open(os.path.join(HERE, "src", name + ".ptx")) as f:
        return f.read()


def sub1(text, old, new, count=1):
    """Replace `old` exactly `count` times (fails loudly otherwise)."""
    n = text.count(old)
    if n != count:
        sys.exit("make_variants: %r occurs %d times, expected %d" % (old, n, count))
    return text.replace(old, new)


def more_regs(text):
    """Room for the registers an edit adds (%r180.. / %rd180..)."""
    text = re.sub(r"\.reg \.b32 \t%r<\d+>;", ".reg .b32 \t%r<200>;", text, count=1)
    return re.sub(r"\.reg \.b64 \t%rd<\d+>;", ".reg .b64 \t%rd<200>;", text, count=1)


def dyn_base_reg(text):
    m = re.search(r"mov\.b64 \t(%rd\d+), __dynamic_shmem__0;", text)
    if not m:
        sys.exit("make_variants: no dynamic shared memory base")
    return m.group(0), m.group(1)


def gap(text, bytes_=1024):
    """Stage base = __dynamic_shmem__0 + 1024: the static __mbarrier words
    (ptxas puts them at __dynamic_shmem__0 + 8) no longer lie in stage 0."""
    line, reg = dyn_base_reg(text)
    return sub1(text, line, "%s\n\tadd.s64 \t%s, %s, %d;" % (line, reg, reg, bytes_))


def extern_dyn(text):
    """The dynamic shared memory base as `.extern .shared ... []` at module
    scope (what nvcc emits for `extern __shared__`), instead of the demoted
    1-byte static `.shared` variable the NVPTX backend prints for MLIR's
    internal `__dynamic_shmem__0` global."""
    text = sub1(text, "\t.shared .align 1024 .b8 __dynamic_shmem__0;\n", "")
    return sub1(text, ".visible .entry", ".extern .shared .align 1024 .b8 __dynamic_shmem__0[];\n\n.visible .entry")


def mbar_in_dyn(text, stage_bytes, nbar):
    """Drop the static __mbarrier array; the barriers live in dynamic shared
    memory right after the stages (__dynamic_shmem__0 + stage_bytes)."""
    text = sub1(text, "\t.shared .align 8 .b8 __mbarrier[%d];\n" % (8 * nbar), "")
    text = sub1(text, "[__mbarrier]", "[__dynamic_shmem__0+%d]" % stage_bytes)
    for i in range(1, nbar):
        text = sub1(text, "[__mbarrier+%d]" % (8 * i), "[__dynamic_shmem__0+%d]" % (stage_bytes + 8 * i))
    m = re.search(r"mov\.b64 \t(%rd\d+), __mbarrier;", text)
    return sub1(text, m.group(0), "mov.b64 \t%s, __dynamic_shmem__0;\n\tadd.s64 \t%s, %s, %d;"
                % (m.group(1), m.group(1), m.group(1), stage_bytes))


def no_hint(text):
    """mbarrier.try_wait.parity without the suspend-time hint operand."""
    new, n = WAIT_RE.subn(r"mbarrier.try_wait.parity.shared.b64 P1, [\1], \2;", text)
    if n == 0:
        sys.exit("make_variants: no try_wait")
    return new


def wait_block(bar, parity, hint="%r181"):
    return ("\t{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\tmbarrier.try_wait.parity.shared.b64 P1, [%s], %s, %s;\n"
            "\t@P1 bra.uni DONE;\n\tbra.uni LAB_WAIT;\n\tDONE:\n\t}\n" % (bar, parity, hint))


def ring_drain(text):
    """ring s3: every thread waits for a tile right after thread 0 issued it,
    so at most one mbarrier has TMA bytes in flight (the waits the kernel
    already has then pass at once)."""
    text = more_regs(text)
    tma = re.compile(r"^\t@%p2 cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes "
                     r"\[%rd\d+\], \[%rd\d+, \{%r\d+,%r\d+\} \], \[(%r\d+)\];\n\t// end inline asm\n", re.M)
    hits = list(tma.finditer(text))
    # prologue: 3 TMAs on bar0 (%r5), 3 on bar1 (%r11); loop: 3 on %r12
    if [h.group(1) for h in hits] != ["%r5"] * 3 + ["%r11"] * 3 + ["%r12"] * 3:
        sys.exit("make_variants: unexpected TMA sequence %r" % [h.group(1) for h in hits])
    out, last = [], 0
    for i, h in enumerate(hits):
        out.append(text[last:h.end()])
        last = h.end()
        if i == 2:
            out.append("\tmov.b32 \t%r181, 10000000;\n" + wait_block("%r5", "0"))
        elif i == 5:
            out.append(wait_block("%r11", "0"))
        elif i == 8:  # loop: tile j = %rd98 on barrier j % 3, parity (j / 3) % 2
            out.append("\tcvt.u32.u64 \t%r182, %rd98;\n\tdiv.u32 \t%r183, %r182, 3;\n"
                       "\tand.b32 \t%r184, %r183, 1;\n" + wait_block("%r12", "%r184"))
    out.append(text[last:])
    return "".join(out)


def ring_unroll(text):
    """ring s3: the 6-trip K loop copied 6 times (no back edge); ptxas folds
    the loop-carried constants, so every mbarrier address and parity becomes
    an immediate (checked in SASS by the build)."""
    head = "$L__BB0_3:\n"
    tail = re.search(r"\t@%p5 bra \t\$L__BB0_3;\n", text)
    a = text.index(head)
    body = text[a + len(head):tail.start()]
    return text[:a] + body * 6 + text[tail.end():]


def epi_parity_reg(text):
    """ring s3: the epilogue's two waits take their parity (0) from a
    register, as the loop's wait does, instead of an immediate."""
    text = more_regs(text)
    text = sub1(text, "P1, [%r5], 0, %r20;", "P1, [%r5], %r185, %r20;")
    text = sub1(text, "P1, [%r11], 0, %r20;", "P1, [%r11], %r185, %r20;")
    i = text.index("P1, [%r5], %r185")
    j = text.rindex("// begin inline asm", 0, i)
    return text[:j] + "mov.b32 \t%r185, 0;\n\t" + text[j:]


def base_init3(text):
    """base: three mbarriers declared and initialised (only the first used)."""
    text = sub1(text, ".b8 __mbarrier[8];", ".b8 __mbarrier[24];")
    return sub1(text, "\tmbarrier.init.shared.b64 \t[__mbarrier], %r4;\n",
                "\tmbarrier.init.shared.b64 \t[__mbarrier], %r4;\n"
                "\tmbarrier.init.shared.b64 \t[__mbarrier+8], %r4;\n"
                "\tmbarrier.init.shared.b64 \t[__mbarrier+16], %r4;\n")


def base_overlap(text):
    """base: its one mbarrier placed at A tile + 8, where the pipelined
    kernels have theirs (inside the bytes the A TMA writes)."""
    a = "__wg_hgemm_wgmma_tma_f16_128x128x64_0"
    text = sub1(text, "\t.shared .align 8 .b8 __mbarrier[8];\n", "")
    text = sub1(text, "[__mbarrier]", "[%s+8]" % a)
    m = re.search(r"mov\.b64 \t(%rd\d+), __mbarrier;", text)
    return sub1(text, m.group(0), "mov.b64 \t%s, %s;\n\tadd.s64 \t%s, %s, 8;" % (m.group(1), a, m.group(1), m.group(1)))


# name, source, transform, smem, expect, what it tests
VARIANTS = [
    ("base", BASE, None, 0, "ok", "control: unpipelined, 1 mbarrier (passed synccheck on 12-01)"),
    ("base_smem96k", BASE, None, 98304, "ok", "H5/H8: base + 96 KB unused dynamic smem (cuFuncSetAttribute path)"),
    ("base_init3", BASE, base_init3, 0, "ok", "H4: base with 3 mbarriers declared + initialised"),
    ("base_overlap", BASE, base_overlap, 0, "any", "H9: base with its mbarrier inside the A tile (A+8), as in the ring"),
    ("ring", RING, None, 98304, "ok", "control: 3-stage ring as pk emits it (failed synccheck on 12-01)"),
    ("ring_gap", RING, lambda t: gap(t), 99328, "ok", "H9: stages moved 1 KB up, mbarriers no longer inside stage 0"),
    ("ring_extern", RING, extern_dyn, 98304, "ok", "H9 fix form: .extern .shared __dynamic_shmem__0[] (no overlap)"),
    ("ring_mbar_dyn", RING, lambda t: mbar_in_dyn(t, 98304, 3), 99328, "ok",
     "H9/H5: mbarriers in dynamic smem after the stages, no static __mbarrier"),
    ("ring_drain", RING, ring_drain, 98304, "ok", "H1: one mbarrier with TMA in flight at a time (overlap kept)"),
    ("ring_unroll", RING, ring_unroll, 98304, "ok", "H2/H3: loop unrolled, constant barrier addresses + parities"),
    ("ring_epi_reg", RING, epi_parity_reg, 98304, "ok", "H3/H6: epilogue waits with register parity"),
    ("ring_nohint", RING, no_hint, 98304, "ok", "H7: try_wait without suspend-time hint"),
    ("ring_gap_nohint", RING, lambda t: no_hint(gap(t)), 99328, "ok", "H7 x H9: gap and no hint"),
    ("mif", MIF, None, 98304, "ok", "control: 3-stage mma-in-flight"),
    ("mif_gap", MIF, lambda t: gap(t), 99328, "ok", "H9 on mma-in-flight"),
    ("ring4", RING4, None, 131072, "ok", "control: 4-stage ring"),
    ("ring4_extern", RING4, extern_dyn, 131072, "ok", "H9 fix form on 4 stages"),
    # src/pkfix_*.ptx: pk-opt of branch synccheck-bisect (ExternDynamicSharedMemoryPass),
    # gen_gemm.py --kind hgemm --mma wgmma --copy tma --M 512 --N 512 --K 512
    ("pkfix_ring", "pkfix_ring", None, 98304, "ok", "fix: pk-opt (extern dyn smem), x3 multistage"),
    ("pkfix_mif", "pkfix_mif", None, 98304, "ok", "fix: pk-opt (extern dyn smem), x3 mma-in-flight"),
    ("pkfix_ring4", "pkfix_ring4", None, 131072, "ok", "fix: pk-opt (extern dyn smem), x4 multistage"),
    ("pkfix_auto", "pkfix_auto", None, 98304, "ok", "fix: pk-opt (extern dyn smem), stages=auto"),
]


def assemble(ptx, cubin):
    p = subprocess.run([PTXAS, "-arch=sm_90a", "-O3", "-v", ptx, "-o", cubin], capture_output=True, text=True)
    if p.returncode:
        sys.exit("ptxas failed on %s:\n%s" % (ptx, p.stderr))
    m = re.search(r"Used (\d+) registers.*?(\d+) bytes smem", p.stderr, re.S)
    return m.groups() if m else ("?", "?")


def main():
    os.makedirs(os.path.join(HERE, "ptx"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "bin"), exist_ok=True)
    rows = []
    for name, source, fn, smem, expect, what in VARIANTS:
        text = src(source)
        if fn:
            text = fn(text)
        ptx = os.path.join(HERE, "ptx", name + ".ptx")
        with open(ptx, "w") as f:
            f.write(text)
        regs, static = assemble(ptx, os.path.join(HERE, "bin", name + ".cubin"))
        rows.append("\t".join([name, str(smem), expect, what]))
        print("%-16s regs %-4s static smem %-6s dyn %-6d %s" % (name, regs, static, smem, what))
    with open(os.path.join(HERE, "variants.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
