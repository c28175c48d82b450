#!/bin/sh
# `perfrepro-measure parse --explain` and `--fit` print what
# tests/golden/measure/*.out hold (tests/golden.sh; make regen rewrites them).
[ -x "${MEASURE:-bin/perfrepro-measure}" ] || { echo "no ${MEASURE:-bin/perfrepro-measure}"; exit 77; }
exec sh tests/golden.sh check measure
