#!/bin/sh
# pk-iree.sh PROGRAM.mlir OUT/ [options]: IREE alone and IREE + pk for one
# linalg program (issue 23, "Back into IREE"); OUT/run.sh runs both on a GPU
# machine. The steps and options: integration/iree/pk_iree.py (its docstring).
exec python3 "$(dirname "$0")/pk_iree.py" "$@"
