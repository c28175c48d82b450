#!/bin/sh
# Fake job: says why it failed the way perfrepro's GPU workloads do
# (a "PERFREPRO_FAILURE: reason: detail" line on stderr), then exits 3.
echo "looking for a GPU"
echo "PERFREPRO_FAILURE: no_gpu: no CUDA device found (cudaGetDeviceCount: 100)" >&2
exit 3
