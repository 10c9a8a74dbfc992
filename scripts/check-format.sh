#!/usr/bin/env bash
# Checks that the C++ lines a change touches are clean under clang-format-22
# and the repository's .clang-format (CI runs it on the commit under test).
# Usage: scripts/check-format.sh [BASE]   (default BASE: HEAD~1; the working
# tree is compared with BASE). Fix with:
#   git-clang-format-22 --binary clang-format-22 BASE
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
base="${1:-HEAD~1}"
llvm=/usr/lib/llvm-22/bin
cf="$(command -v clang-format-22 || echo "$llvm/clang-format")"
gcf="$(command -v git-clang-format-22 || echo "$llvm/git-clang-format")"
if [ ! -x "$cf" ] || [ ! -x "$gcf" ]; then
  echo "check-format: clang-format-22 not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  # A shallow clone has no parent to compare with.
  echo "check-format: no $base in this clone: nothing to compare, skipped"
  exit 0
fi
out="$("$gcf" --binary "$cf" --diff --extensions cpp,h,inc "$base" -- 2>&1)" || true
case "$out" in
  "" | *"did not modify any files"* | *"no modified files to format"*)
    echo "check-format: the C++ lines changed since $base are clang-format-22 clean"
    exit 0 ;;
esac
printf '%s\n' "$out"
echo "check-format: the changed lines above are not clang-format-22 clean;" \
  "fix: $gcf --binary $cf $base" >&2
exit 1
