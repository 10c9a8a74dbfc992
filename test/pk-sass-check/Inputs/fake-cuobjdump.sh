#!/bin/sh
# Stands in for cuobjdump in the tests (copied next to a fake nvdisasm by the
# RUN lines). `-sass FILE` prints $FAKE_SASS, like `cuobjdump -sass` prints
# the cubin's SASS, and fails like cuobjdump when $NVDISASM_PATH/nvdisasm does
# not exist (unlike cuobjdump it ignores PATH, so that the tests do not depend
# on it); `-res-usage FILE` prints the block of `cuobjdump -res-usage` for
# $FAKE_KERNEL with $FAKE_LOCAL and $FAKE_STACK.
case "$1" in
  -sass)
    if [ ! -x "${NVDISASM_PATH:-/nonexistent}/nvdisasm" ]; then
      echo "cuobjdump fatal   : Could not find executable file 'nvdisasm'; you can try adding path to environment variables PATH or NVDISASM_PATH" >&2
      exit 1
    fi
    cat "$FAKE_SASS" ;;
  -res-usage)
    printf '\nResource usage:\n Common:\n  GLOBAL:0\n Function %s:\n  REG:126 STACK:%s SHARED:40960 LOCAL:%s CONSTANT[0]:520 TEXTURE:0 SURFACE:0 SAMPLER:0\n' \
      "$FAKE_KERNEL" "${FAKE_STACK:-0}" "${FAKE_LOCAL:-0}" ;;
  *)
    echo "fake cuobjdump: unexpected arguments: $*" >&2
    exit 2 ;;
esac
